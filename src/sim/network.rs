//! Flow-level network: every streaming transfer gets its max-min fair share of every link it crosses.
//!
//! Rates are found by progressive filling (Bertsekas & Gallager, *Data Networks*, §6.5): raise all
//! rates together; when a link fills up, freeze the flows that cross it; repeat. They are recomputed
//! once per instant at which flows start or end, and only for the flows whose rates can change (see
//! `rebalance`), so neither a ring of a thousand ranks, where each link carries one flow at a time,
//! nor a pipelined tree, whose flows all share links with each other, pays for the whole network.
//!
//! ```
//! use allreduce_sim::network::FlowNetwork;
//! // Two links of 10 B/s; flows 0 and 1 share link 0, flow 1 also crosses link 1.
//! let mut net = FlowNetwork::new(&[10.0, 10.0], false);
//! let a = net.start(0, &[0], 10.0, 0.0);
//! net.start(1, &[0, 1], 10.0, 0.0);
//! assert_eq!(net.rate_of(a), Some(5.0));
//! // Both finish at t = 2 s.
//! let (t, flow) = net.next_finish().unwrap();
//! assert_eq!(t, 2.0);
//! net.finish(flow, t);
//! let (t, _) = net.next_finish().unwrap();
//! assert_eq!(t, 2.0);
//! ```
//!
//! Size: over 450 lines because the flow network and its finish queue are one data structure whose
//! incremental max-min rates must stay bit-identical; 180 lines are tests against a whole-network
//! refill.

use super::order::max_num;
use super::records::{Instants, Timeline};
use std::sync::Arc;

const NONE: u32 = u32::MAX;

#[derive(Clone, Debug)]
struct Flow {
    /// The caller's id for this flow (a transfer id).
    id: u32,
    links: [u32; 6],
    len: u8,
    remaining_bytes: f64,
    updated_at: f64,
    version: u32,
    /// The rate and bottleneck found by the current filling, applied once it is final.
    new_rate: f64,
    new_held_by: u32,
    /// Where each of `links` is in [`FlowNetwork::comp_links`], while the flow is recomputed
    /// (set as it is laid out; a filling reads them for every flow it freezes, rather than each
    /// link's whole record).
    pos: [u32; 6],
}

/// What the loops over a link's flows read, apart from the rest of a [`Flow`]: a link can carry
/// many flows, and scanning 16 bytes per flow instead of a whole `Flow` keeps those loops in cache.
#[derive(Clone, Copy, Debug)]
struct FlowRate {
    bytes_per_sec: f64,
    /// The link that froze this flow in the last progressive filling that rated it: saturated, and
    /// no flow on it is faster. `NONE` until the flow is first rated.
    held_by: u32,
    /// In the set being recomputed by [`FlowNetwork::rebalance`].
    recomputing: bool,
    /// Frozen in the current progressive filling.
    fixed: bool,
}

impl FlowRate {
    const NEW: FlowRate = FlowRate {
        bytes_per_sec: 0.0,
        held_by: NONE,
        recomputing: false,
        fixed: false,
    };
}

/// The streaming flows by finish time, in groups of one instant: a 4-ary min-heap of groups by
/// their time, and in each group its flows' `(version, slot)`, unordered. Flows that finish at one
/// instant (in a ring, a hundred or more at a time, started together at the same rate) join one
/// group as they are queued, one after another, and leave it together
/// ([`take_first`](Self::take_first)), sorted once; a single flow no longer sifts through the
/// heap on its own on the way in and again on the way out (perf: the heap's sifting per flow was
/// 11 % of the chart's 1024-rank ring). Two groups may share an instant (a flow queued after
/// another instant's); they leave together all the same.
///
/// The least entry is the least `(finish time bits, version, slot)`; entries are distinct, so it
/// is the same one whatever the heap's shape. Finish times are ≥ 0 (never −0), or NaN: their bits
/// order them as numbers.
///
/// A heap entry is packed into one `u128` (time bits, then group, from the high bits down), and a
/// sift moves a hole instead of swapping. The heap is 4-ary: a node's children are 64 bytes side
/// by side.
#[derive(Debug, Default)]
struct FinishQueue {
    heap: Vec<u128>,
    groups: Vec<Group>,
    /// Groups not in the heap, to be reused.
    free: Vec<u32>,
    /// Per slot: its group and its index among the group's entries; group `NONE` when not queued.
    at: Vec<(u32, u32)>,
    /// The group last queued to.
    last: u32,
    /// The entries [`take_first`](Self::take_first) gathers.
    ties: Vec<u64>,
}

/// Flows that finish at one instant.
#[derive(Debug, Default)]
struct Group {
    bits: u64,
    /// Its index in the heap; `NONE` while free.
    pos: u32,
    /// `(version << 32) | slot` of each, unordered.
    entries: Vec<u64>,
}

/// Children per node of the [`FinishQueue`]'s heap.
const ARITY: usize = 4;

fn pack(bits: u64, group: u32) -> u128 {
    (u128::from(bits) << 64) | u128::from(group)
}

fn bits_of(e: u128) -> u64 {
    (e >> 64) as u64
}

impl FinishQueue {
    /// The least entry `(time bits, version, slot)`. Looks at every group of the first instant
    /// (a scan of the heap: only callers that finish one flow at a time use it, on small networks).
    fn first(&self) -> Option<(u64, u32, u32)> {
        let m = self.first_bits()?;
        let least = (self.heap.iter())
            .filter(|&&e| bits_of(e) == m)
            .flat_map(|&e| &self.groups[e as u32 as usize].entries)
            .min()?;
        Some((m, (least >> 32) as u32, *least as u32))
    }

    /// The first instant's bits.
    fn first_bits(&self) -> Option<u64> {
        self.heap.first().map(|&e| bits_of(e))
    }

    /// Takes every entry of the first instant out (only the least if that instant is NaN, which
    /// is not due by any time) and appends their slots to `out`, least entry first; returns the
    /// instant's bits.
    fn take_first(&mut self, out: &mut Vec<FlowSlot>) -> Option<u64> {
        let m = self.first_bits()?;
        if f64::from_bits(m).is_nan() {
            let (_, _, slot) = self.first().expect("not empty");
            self.remove(slot);
            out.push(FlowSlot(slot));
            return Some(m);
        }
        let mut ties = std::mem::take(&mut self.ties);
        ties.clear();
        while let Some(&top) = self.heap.first().filter(|&&e| bits_of(e) == m) {
            let g = top as u32;
            self.heap_remove(0);
            let group = &mut self.groups[g as usize];
            group.pos = NONE;
            for &e in &group.entries {
                self.at[e as u32 as usize].0 = NONE;
            }
            ties.append(&mut group.entries);
            self.free.push(g);
        }
        ties.sort_unstable();
        out.extend(ties.iter().map(|&e| FlowSlot(e as u32)));
        self.ties = ties;
        Some(m)
    }

    /// Whether `group` is queued, at instant `bits`.
    fn is_open(&self, group: u32, bits: u64) -> bool {
        self.groups
            .get(group as usize)
            .is_some_and(|g| g.pos != NONE && g.bits == bits)
    }

    /// Puts `entry` in, replacing its slot's entry if it has one.
    fn set(&mut self, (bits, version, slot): (u64, u32, u32)) {
        let key = (u64::from(version) << 32) | u64::from(slot);
        let s = slot as usize;
        if s >= self.at.len() {
            self.at.resize(s + 1, (NONE, 0));
        }
        let (g, i) = self.at[s];
        if g != NONE {
            let group = &mut self.groups[g as usize];
            if group.bits == bits {
                group.entries[i as usize] = key;
                return;
            }
            if group.entries.len() == 1 {
                // Alone in its group (a flow of a pipelined tree, re-rated): the group moves.
                group.entries[0] = key;
                group.bits = bits;
                let (p, e) = (group.pos as usize, pack(bits, g));
                if e < self.heap[p] {
                    self.sift_up(p, e);
                } else {
                    self.sift_down(p, e);
                }
                self.last = g;
                return;
            }
            self.remove(slot);
        }
        let g = if self.is_open(self.last, bits) {
            self.last
        } else {
            let g = self.free.pop().unwrap_or_else(|| {
                self.groups.push(Group::default());
                (self.groups.len() - 1) as u32
            });
            self.groups[g as usize].bits = bits;
            self.heap.push(pack(bits, g));
            self.sift_up(self.heap.len() - 1, pack(bits, g));
            g
        };
        let entries = &mut self.groups[g as usize].entries;
        self.at[s] = (g, entries.len() as u32);
        entries.push(key);
        self.last = g;
    }

    fn remove(&mut self, slot: u32) {
        let Some(&(g, i)) = self.at.get(slot as usize) else {
            return;
        };
        if g == NONE {
            return;
        }
        self.at[slot as usize].0 = NONE;
        let group = &mut self.groups[g as usize];
        group.entries.swap_remove(i as usize);
        if let Some(&moved) = group.entries.get(i as usize) {
            self.at[moved as u32 as usize].1 = i;
        } else if group.entries.is_empty() {
            let p = group.pos as usize;
            group.pos = NONE;
            self.free.push(g);
            self.heap_remove(p);
        }
    }

    /// Takes the heap's entry at `i` out.
    fn heap_remove(&mut self, i: usize) {
        let last = self.heap.pop().expect("an entry at i");
        if i < self.heap.len() {
            if i > 0 && last < self.heap[(i - 1) / ARITY] {
                self.sift_up(i, last);
            } else {
                self.sift_down(i, last);
            }
        }
    }

    /// Puts `e` at `i` or above, moving greater parents down.
    fn sift_up(&mut self, mut i: usize, e: u128) {
        while i > 0 {
            let parent = (i - 1) / ARITY;
            let p = self.heap[parent];
            if e < p {
                self.heap[i] = p;
                self.groups[p as u32 as usize].pos = i as u32;
                i = parent;
            } else {
                break;
            }
        }
        self.heap[i] = e;
        self.groups[e as u32 as usize].pos = i as u32;
    }

    /// Puts `e` at `i` or below, given that it is not less than `i`'s parent. Bottom-up: the hole
    /// at `i` moves down to a leaf along the least children (chosen without a branch where a node
    /// has all four), then `e` rises from there to its place, which is mostly at once, as the
    /// entry sifted down is mostly the heap's last, a late one.
    fn sift_down(&mut self, mut i: usize, e: u128) {
        let n = self.heap.len();
        loop {
            let first = ARITY * i + 1;
            if first >= n {
                break;
            }
            let at = if first + ARITY <= n {
                let c = &self.heap[first..first + ARITY];
                let (l, r) = (usize::from(c[1] < c[0]), 2 + usize::from(c[3] < c[2]));
                if c[r] < c[l] { r } else { l }
            } else {
                // The last node with children, short of some.
                let c = &self.heap[first..n];
                (1..c.len()).fold(0, |m, k| if c[k] < c[m] { k } else { m })
            };
            let least = self.heap[first + at];
            self.heap[i] = least;
            self.groups[least as u32 as usize].pos = i as u32;
            i = first + at;
        }
        self.sift_up(i, e);
    }
}

/// Where a streaming flow lives in the network; valid until the flow finishes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FlowSlot(u32);

/// A piecewise-constant rate: from `at_secs` on, the link carries `bytes_per_sec`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RateChange {
    pub at_secs: f64,
    pub bytes_per_sec: f64,
}

/// At most this many links in a progressive filling: its next bottleneck is found by a scan of
/// their shares rather than a [`MinTree`].
const SCAN_LINKS: usize = 128;

/// The least of the links' `(share bits, index)` in a progressive filling over many links: a
/// tournament tree, its leaves the links and each node the least of its two children, so that
/// the next bottleneck is at the root and a link's new share climbs one path to it, with no
/// branch on the way (perf: on the benchmark's pipelined tree, fillings over more than 128 links
/// freeze a quarter of all bottlenecks; a binary heap of shares, with its stale entries and its
/// unpredictable sifting, was slower there than a scan of 250 links; the tree is 2 % faster than
/// either, and slower than a scan below 128 links).
#[derive(Debug, Default)]
struct MinTree {
    /// Leaves from here on.
    size: usize,
    /// `(bits << 64) | index`; the root at 1, node `i`'s children at `2i` and `2i + 1`; leaves
    /// past the last link are `u128::MAX`.
    nodes: Vec<u128>,
}

impl MinTree {
    fn key(bits: u64, k: usize) -> u128 {
        (u128::from(bits) << 64) | k as u128
    }

    /// A tree over these shares' bits, link `k`'s at leaf `k`.
    fn build(&mut self, share_bits: &[u64]) {
        let size = share_bits.len().next_power_of_two();
        self.size = size;
        self.nodes.clear();
        self.nodes.resize(2 * size, u128::MAX);
        for (k, &bits) in share_bits.iter().enumerate() {
            self.nodes[size + k] = Self::key(bits, k);
        }
        for i in (1..size).rev() {
            self.nodes[i] = self.nodes[2 * i].min(self.nodes[2 * i + 1]);
        }
    }

    /// The link with the least share bits, the least index among equals, and its bits.
    fn least(&self) -> (usize, u64) {
        let root = self.nodes[1];
        (root as u64 as usize, (root >> 64) as u64)
    }

    /// Link `k`'s share bits are now `bits`.
    fn set(&mut self, k: usize, bits: u64) {
        let mut i = self.size + k;
        self.nodes[i] = Self::key(bits, k);
        while i > 1 {
            i /= 2;
            self.nodes[i] = self.nodes[2 * i].min(self.nodes[2 * i + 1]);
        }
    }
}

/// The share bits of a link with no unfixed flow left, which no share has: a share is never NaN
/// (`max_num(0.0, _)` drops one), so its bits are at most those of -0.0.
const NO_SHARE: u64 = u64::MAX;

/// What a progressive filling keeps per link it covers, in one record (perf: nine vectors, each
/// cleared and resized at every filling, were a fifth of the instructions of the benchmark's
/// pipelined double binary tree).
#[derive(Clone, Copy, Debug)]
struct LinkFill {
    /// The link's capacity left by the flows not recomputed, and how many are, as counted
    /// (`cap_left` and `unfixed` start from them); `stale` where a flow has been added since.
    base_cap: f64,
    /// Capacity left for the flows not frozen yet, and how many they are.
    cap_left: f64,
    base_unfixed: u32,
    unfixed: u32,
    stale: bool,
    /// In [`FlowNetwork::touched`].
    is_touched: bool,
    /// What [`FlowNetwork::add_disturbed`] asks of the link, found as the filling freezes flows
    /// (perf: on the benchmark's pipelined tree, reading every recomputed flow on every link
    /// again for these was half of `add_disturbed`, itself over a quarter of the run): whether a
    /// rate on it changed (or its flows did: a seed), and the least rate of the flows it froze
    /// (infinite when none).
    changed: bool,
    level: f64,
    /// Whether the link's flows changed (it seeds the rebalance).
    seed: bool,
    /// Of the flows on the link not recomputed, as counted: the fastest rate (-1 when none),
    /// and whether any is held by the link. [`FlowNetwork::add_disturbed`] reads a link's flows
    /// only when one of them may be disturbed.
    others_fastest: f64,
    others_held: bool,
}

impl LinkFill {
    const NEW: LinkFill = LinkFill {
        base_cap: 0.0,
        cap_left: 0.0,
        base_unfixed: 0,
        unfixed: 0,
        stale: true,
        is_touched: false,
        changed: false,
        level: f64::INFINITY,
        seed: false,
        others_fastest: -1.0,
        others_held: false,
    };
}

/// Flows a link keeps in its own record before its list moves to [`FlowNetwork::spill`].
const INLINE: usize = 4;

/// What the network keeps per link, in one cache line: starting, finishing and rating a flow read
/// and write all of it for every link the flow crosses, and the flows on a link are mostly one or
/// none (perf: on the chart's 1024-rank ring, the loads of `link_flows[l]`, a vector's header and
/// then its heap buffer, and of six other per-link arrays were a third of the event loop's time).
#[derive(Clone, Copy, Debug)]
#[repr(align(64))]
struct Link {
    capacity: f64,
    busy_since: f64,
    busy_secs: f64,
    bytes: f64,
    /// The flows on the link (slots), in the order a vector pushed to and `swap_remove`d from
    /// would hold them: `inline[..len]` while `len <= INLINE`, else all of them in the link's
    /// [`FlowNetwork::spill`].
    len: u32,
    inline: [u32; INLINE],
    /// The link's index in `comp_links` during a filling, or `NONE`.
    pos: u32,
    /// Its flows changed, during a rebalance.
    is_seed: bool,
}

/// Asserts that [`FlowNetwork::fill`] (and the flows added since) left link `l` with what reading
/// its recomputed flows afresh gives, as `add_disturbed` once did: whether a rate on it changed,
/// and the least new rate of those it holds.
#[cfg(test)]
fn check_fill_summary(
    links: &[Link],
    spill: &[Vec<u32>],
    flows: &[Flow],
    rates: &[FlowRate],
    l: u32,
    changed: bool,
    level: f64,
) {
    let mut read = (links[l as usize].is_seed, f64::INFINITY);
    for &slot in flows_of(links, spill, l as usize) {
        if rates[slot as usize].recomputing {
            let f = &flows[slot as usize];
            read.0 |= f.new_rate != rates[slot as usize].bytes_per_sec;
            if f.new_held_by == l {
                read.1 = read.1.min(f.new_rate);
            }
        }
    }
    assert!(
        read == (changed, level),
        "link {l}: fill left ({changed}, {level}), its flows give {read:?}"
    );
}

/// The flows on link `l`.
fn flows_of<'a>(links: &'a [Link], spill: &'a [Vec<u32>], l: usize) -> &'a [u32] {
    let link = &links[l];
    let len = link.len as usize;
    if len <= INLINE {
        &link.inline[..len]
    } else {
        &spill[l]
    }
}

/// The links' capacities and the flows now streaming on them.
#[derive(Debug)]
pub struct FlowNetwork {
    links: Vec<Link>,
    /// Per link, its flows while there are more than [`INLINE`] (else empty or stale).
    spill: Vec<Vec<u32>>,
    /// Each link's total rate as last recorded in its timeline (kept only with timelines).
    link_rate: Vec<f64>,
    timeline: Option<Vec<Timeline>>,
    /// The distinct instants recorded so far, which timelines (and the run's timings) index.
    instants: Instants,
    /// When each link's timeline last changed: read here rather than from the end of the timeline
    /// itself, which is a cache miss per link per instant in a large run.
    timeline_last_at: Vec<f64>,
    /// Rate changes recorded in the timelines so far.
    recorded: u64,
    flows: Vec<Flow>,
    /// Per flow slot, like `flows`.
    rates: Vec<FlowRate>,
    free_slots: Vec<u32>,
    finish_queue: FinishQueue,
    /// The flows being recomputed, and the links they cross.
    recompute: Vec<u32>,
    comp_links: Vec<u32>,
    /// How many flows of `recompute` have their links in `comp_links`.
    laid_out: usize,
    // Scratch for progressive filling, indexed like `comp_links`.
    /// What a filling keeps per link, in one record (see [`LinkFill`]).
    fills: Vec<LinkFill>,
    share_tree: MinTree,
    /// Each link's fair share among its unfixed flows (its bits; [`NO_SHARE`] when none is left),
    /// when the links are scanned: apart from `fills`, so that a scan reads 8 bytes a link.
    share_bits: Vec<u64>,
    touched: Vec<u32>,
    /// Links whose flows changed since the last rebalance, and when.
    dirty: Vec<u32>,
    dirty_at: f64,
}

impl FlowNetwork {
    /// A network of links with these capacities (bytes per second). With `record_timeline`, every
    /// change of a link's total rate is kept (see [`FlowNetwork::into_timelines`]).
    ///
    /// ```
    /// use allreduce_sim::network::FlowNetwork;
    /// let mut net = FlowNetwork::new(&[10.0, 20.0], false);
    /// assert_eq!(net.link_bytes(), &[0.0, 0.0]);
    /// assert_eq!(net.next_finish(), None); // nothing streams
    /// ```
    pub fn new(capacity_bytes_per_sec: &[f64], record_timeline: bool) -> Self {
        let n = capacity_bytes_per_sec.len();
        FlowNetwork {
            links: capacity_bytes_per_sec
                .iter()
                .map(|&capacity| Link {
                    capacity,
                    busy_since: 0.0,
                    busy_secs: 0.0,
                    bytes: 0.0,
                    len: 0,
                    inline: [0; INLINE],
                    pos: NONE,
                    is_seed: false,
                })
                .collect(),
            spill: vec![Vec::new(); n],
            link_rate: vec![0.0; n],
            timeline: record_timeline.then(|| vec![Timeline::recording(); n]),
            instants: Instants::new(),
            timeline_last_at: if record_timeline {
                vec![f64::NAN; n]
            } else {
                Vec::new()
            },
            recorded: 0,
            flows: Vec::new(),
            rates: Vec::new(),
            free_slots: Vec::new(),
            finish_queue: FinishQueue::default(),
            recompute: Vec::new(),
            comp_links: Vec::new(),
            laid_out: 0,
            fills: Vec::new(),
            share_tree: MinTree::default(),
            share_bits: Vec::new(),
            touched: Vec::new(),
            dirty: Vec::new(),
            dirty_at: 0.0,
        }
    }

    /// With timelines kept: reserves room for about `changes[l]` rate changes of each link `l` (a
    /// hint; a timeline still grows beyond it).
    pub fn reserve_timelines(&mut self, changes: &[usize]) {
        if let Some(timelines) = self.timeline.as_mut() {
            for (tl, &c) in timelines.iter_mut().zip(changes) {
                tl.reserve_exact(c);
            }
        }
    }

    /// Room for `n` distinct instants, as a hint.
    pub(crate) fn reserve_instants(&mut self, n: usize) {
        self.instants.reserve_exact(n);
    }

    /// Starts streaming `bytes` (> 0) for flow `id` over `links` at time `now`.
    ///
    /// Rates are recomputed lazily, once for all the flows started or finished at the same instant
    /// (see [`next_finish`](Self::next_finish)).
    ///
    /// ```
    /// use allreduce_sim::network::FlowNetwork;
    /// let mut net = FlowNetwork::new(&[10.0, 20.0], false);
    /// let slot = net.start(0, &[0, 1], 30.0, 1.0);
    /// // Alone, the flow runs at its slowest link's 10 B/s: 30 bytes take 3 s.
    /// assert_eq!(net.rate_of(slot), Some(10.0));
    /// assert_eq!(net.next_finish().map(|(t, _)| t), Some(4.0));
    /// assert_eq!(net.link_bytes(), &[30.0, 30.0]);
    /// ```
    pub fn start(&mut self, id: u32, links: &[u32], bytes: f64, now: f64) -> FlowSlot {
        self.mark_dirty_at(now);
        assert!(links.len() <= 6, "a route crosses at most 6 links");
        let mut arr = [0u32; 6];
        // Element by element: a slice copy of a length not known here is a call to `memcpy`
        // (measured: the benchmark's 1024-rank ring 1.5 % faster without it; routes of 2 to 6 links).
        for (a, &l) in arr.iter_mut().zip(links) {
            *a = l;
        }
        let flow = Flow {
            id,
            links: arr,
            len: links.len() as u8,
            remaining_bytes: bytes,
            updated_at: now,
            version: 0,
            new_rate: 0.0,
            new_held_by: NONE,
            pos: [NONE; 6],
        };
        let slot = match self.free_slots.pop() {
            Some(s) => {
                let v = self.flows[s as usize].version.wrapping_add(1);
                self.flows[s as usize] = Flow { version: v, ..flow };
                self.rates[s as usize] = FlowRate::NEW;
                s
            }
            None => {
                self.flows.push(flow);
                self.rates.push(FlowRate::NEW);
                (self.flows.len() - 1) as u32
            }
        };
        for &l in links {
            let l = l as usize;
            let link = &mut self.links[l];
            let len = link.len as usize;
            if len == 0 {
                link.busy_since = now;
            }
            if len < INLINE {
                link.inline[len] = slot;
            } else {
                let spilled = &mut self.spill[l];
                if len == INLINE {
                    spilled.clear();
                    spilled.extend_from_slice(&link.inline);
                }
                spilled.push(slot);
            }
            link.len += 1;
            link.bytes += bytes;
        }
        self.dirty.extend_from_slice(links);
        FlowSlot(slot)
    }

    /// The earliest finishing flow: `(time, slot)`, or `None` when nothing streams.
    pub fn next_finish(&mut self) -> Option<(f64, FlowSlot)> {
        self.flush();
        self.finish_queue
            .first()
            .map(|(bits, _, slot)| (f64::from_bits(bits), FlowSlot(slot)))
    }

    /// When the earliest flow finishes ([`next_finish`](Self::next_finish)'s time), or `None`
    /// when nothing streams.
    ///
    /// ```
    /// use allreduce_sim::network::FlowNetwork;
    /// let mut net = FlowNetwork::new(&[10.0], false);
    /// assert_eq!(net.next_finish_time(), None);
    /// net.start(0, &[0], 30.0, 1.0);
    /// assert_eq!(net.next_finish_time(), Some(4.0));
    /// ```
    pub fn next_finish_time(&mut self) -> Option<f64> {
        self.flush();
        self.finish_queue.first_bits().map(f64::from_bits)
    }

    /// Takes every flow that finishes at the earliest finish time out of the queue, under the
    /// rates already computed, and appends them to `out` in the order
    /// [`next_finish`](Self::next_finish) would give them one by one; returns that time. The
    /// caller [`finish`](Self::finish)es each: rates are settled once for the instant.
    ///
    /// ```
    /// use allreduce_sim::network::FlowNetwork;
    /// let mut net = FlowNetwork::new(&[10.0, 10.0, 5.0], false);
    /// let (a, b) = (net.start(0, &[0], 20.0, 0.0), net.start(1, &[1], 20.0, 0.0));
    /// net.start(2, &[2], 20.0, 0.0);
    /// let mut due = Vec::new();
    /// assert_eq!(net.take_finishing(&mut due), Some(2.0));
    /// assert_eq!(due, [a, b]); // the flow on the 5 B/s link finishes at 4 s
    /// for &slot in &due {
    ///     net.finish(slot, 2.0);
    /// }
    /// assert_eq!(net.next_finish().map(|(t, s)| (t, net.id(s))), Some((4.0, 2)));
    /// ```
    pub fn take_finishing(&mut self, out: &mut Vec<FlowSlot>) -> Option<f64> {
        self.flush();
        self.finish_queue.take_first(out).map(f64::from_bits)
    }

    /// The caller's id of the flow in `slot`.
    ///
    /// ```
    /// use allreduce_sim::network::FlowNetwork;
    /// let mut net = FlowNetwork::new(&[10.0], false);
    /// let slot = net.start(42, &[0], 10.0, 0.0);
    /// assert_eq!(net.id(slot), 42);
    /// ```
    pub fn id(&self, slot: FlowSlot) -> u32 {
        self.flows[slot.0 as usize].id
    }

    /// Ends the flow in `slot` at `now` (its finish time from [`next_finish`](Self::next_finish)).
    ///
    /// ```
    /// use allreduce_sim::network::FlowNetwork;
    /// let mut net = FlowNetwork::new(&[10.0], false);
    /// let (a, b) = (net.start(0, &[0], 10.0, 0.0), net.start(1, &[0], 30.0, 0.0));
    /// let (t, first) = net.next_finish().unwrap(); // sharing 5 B/s each, 10 bytes take 2 s
    /// assert_eq!((t, net.id(first)), (2.0, 0));
    /// net.finish(a, t);
    /// assert_eq!(net.rate_of(a), None);
    /// assert_eq!(net.rate_of(b), Some(10.0)); // b now has the link to itself
    /// ```
    pub fn finish(&mut self, slot: FlowSlot, now: f64) {
        let slot = slot.0;
        if self.flows[slot as usize].len == 0 {
            return;
        }
        self.mark_dirty_at(now);
        let f = &mut self.flows[slot as usize];
        let links = f.links;
        let len = f.len as usize;
        f.len = 0;
        f.version = f.version.wrapping_add(1);
        self.finish_queue.remove(slot);
        self.free_slots.push(slot);
        for &l in &links[..len] {
            let l = l as usize;
            let link = &mut self.links[l];
            let n = link.len as usize;
            if n <= INLINE {
                if let Some(p) = link.inline[..n].iter().position(|&s| s == slot) {
                    link.inline[p] = link.inline[n - 1];
                    link.len -= 1;
                }
            } else {
                let spilled = &mut self.spill[l];
                if let Some(p) = spilled.iter().position(|&s| s == slot) {
                    spilled.swap_remove(p);
                    link.len -= 1;
                    if link.len as usize == INLINE {
                        link.inline.copy_from_slice(spilled);
                    }
                }
            }
            if link.len == 0 {
                link.busy_secs += now - link.busy_since;
            }
        }
        self.dirty.extend_from_slice(&links[..len]);
    }

    /// Changes at a new instant: settle the previous instant's rates first.
    fn mark_dirty_at(&mut self, now: f64) {
        if !self.dirty.is_empty() && self.dirty_at != now {
            self.flush();
        }
        self.dirty_at = now;
    }

    /// Recomputes the rates around every link changed since the last call.
    fn flush(&mut self) {
        if self.timeline.is_none() {
            // A link left with no flow changes no other flow's rate (a flow held by a link
            // crosses it); only its timeline would record the change. The others keep their
            // order (perf: in a ring, the links of flows just finished were half of the
            // rebalancing, for nothing).
            let links = &self.links;
            self.dirty.retain(|&l| links[l as usize].len > 0);
        }
        if !self.dirty.is_empty() {
            let seeds = std::mem::take(&mut self.dirty);
            self.rebalance(&seeds, self.dirty_at);
            self.dirty = seeds;
            self.dirty.clear();
        }
        #[cfg(test)]
        if tests::CHECK_EVERY_FLUSH.get() {
            self.check_against_whole_filling();
        }
    }

    /// Asserts that every streaming flow's rate is what a progressive filling of the whole
    /// network gives (to 1e-12: the two sum their shares in different orders).
    #[cfg(test)]
    fn check_against_whole_filling(&self) {
        for (slot, expected) in tests::reference_rates(self) {
            let got = self.rates[slot].bytes_per_sec;
            assert!(
                (got - expected).abs() <= 1e-12 * expected,
                "flow in slot {slot}: {got} B/s, full filling gives {expected}"
            );
        }
    }

    /// The current rate of the flow in `slot`, if it is streaming.
    pub fn rate_of(&mut self, slot: FlowSlot) -> Option<f64> {
        self.flush();
        let f = &self.flows[slot.0 as usize];
        (f.len > 0).then_some(self.rates[slot.0 as usize].bytes_per_sec)
    }

    /// Seconds each link has carried at least one flow, as of `now`.
    pub fn busy_secs(&self, now: f64) -> Vec<f64> {
        self.links
            .iter()
            .map(|link| {
                link.busy_secs
                    + if link.len == 0 {
                        0.0
                    } else {
                        now - link.busy_since
                    }
            })
            .collect()
    }

    /// Bytes each link has been given to carry.
    pub fn link_bytes(&self) -> Vec<f64> {
        self.links.iter().map(|link| link.bytes).collect()
    }

    /// How many rate changes the links' timelines hold so far (0 when none are kept).
    ///
    /// ```
    /// use allreduce_sim::network::FlowNetwork;
    /// let mut net = FlowNetwork::new(&[10.0, 10.0], true);
    /// let a = net.start(0, &[0, 1], 10.0, 0.0);
    /// net.next_finish(); // settles the start: both links go from 0 to 10 B/s
    /// assert_eq!(net.rate_changes(), 2);
    /// net.finish(a, 1.0);
    /// net.next_finish(); // and back to 0
    /// assert_eq!(net.rate_changes(), 4);
    /// ```
    pub fn rate_changes(&self) -> u64 {
        self.recorded
    }

    /// The index of instant `now` among those recorded (see [`records`](super::records)); `now`
    /// is not before any instant recorded so far.
    pub(crate) fn instant(&mut self, now: f64) -> u32 {
        self.instants.index(now)
    }

    /// Every link's rate changes, if they were recorded, and the instants that they and the
    /// indexes from `instant` name.
    pub fn into_timelines(mut self) -> (Option<Vec<Timeline>>, Arc<Vec<f64>>) {
        self.flush();
        let instants = self.instants.share();
        let timelines = self
            .timeline
            .map(|tls| tls.into_iter().map(|tl| tl.finish(&instants)).collect());
        (timelines, instants)
    }

    /// Recomputes the max-min fair rates after the flows on `seed_links` changed.
    ///
    /// Only the flows whose rates can change are recomputed. An allocation is max-min fair exactly
    /// when every flow has a bottleneck: a saturated link on which no flow is faster (Bertsekas &
    /// Gallager, §6.5.2). Each flow remembers the link that froze it in progressive filling
    /// (`held_by`), which is such a bottleneck; it stays one as long as no rate on that link changes.
    /// So we start from the new flows and those held by a changed link, fill progressively over
    /// them with every other flow's rate held fixed, and add any flow whose bottleneck that
    /// disturbed (its link's rates changed, or a recomputed flow frozen there ended up slower than
    /// it); then fill again, until nothing is disturbed. The result meets the bottleneck condition
    /// for every flow, so it is the unique max-min fair allocation: the same rates as filling the
    /// whole connected component, at the cost of the part that actually moves.
    fn rebalance(&mut self, seed_links: &[u32], now: f64) {
        for &l in seed_links {
            self.links[l as usize].is_seed = true;
        }
        self.recompute.clear();
        for &l in seed_links {
            for &slot in flows_of(&self.links, &self.spill, l as usize) {
                let f = &mut self.rates[slot as usize];
                if !f.recomputing && (f.held_by == NONE || self.links[f.held_by as usize].is_seed) {
                    f.recomputing = true;
                    self.recompute.push(slot);
                }
            }
        }
        if !self.recompute.is_empty() && self.settle_alone() {
            self.commit(now);
        } else if !self.recompute.is_empty() {
            self.laid_out = 0;
            self.fills.clear();
            loop {
                self.fill();
                if !self.add_disturbed() {
                    break;
                }
            }
            self.commit(now);
        }
        // Record the new total rate of every link whose flows changed: only a timeline reads it.
        let recorded = if self.timeline.is_some() {
            seed_links.len() + self.comp_links.len()
        } else {
            0
        };
        // Where prefetching does something (see `prefetch`).
        #[cfg(target_arch = "x86_64")]
        if let Some(tls) = &self.timeline {
            // The timelines' records, then the words their pushes write, asked for all at once
            // so that their cache misses overlap rather than come one after another (perf: a
            // 1024-rank ring with details, best CPU of 4, 0.90–0.92 → 0.86–0.88 s).
            let links = || seed_links.iter().chain(&self.comp_links);
            for &l in links() {
                super::prefetch::prefetch(tls, l as usize);
            }
            for &l in links() {
                tls[l as usize].prefetch_tail();
            }
        }
        for i in 0..recorded {
            let l = if i < seed_links.len() {
                seed_links[i]
            } else {
                self.comp_links[i - seed_links.len()]
            };
            self.record_link_rate(l as usize, now);
        }
        for &l in seed_links {
            self.links[l as usize].is_seed = false;
        }
        for &l in &self.comp_links {
            self.links[l as usize].pos = NONE;
        }
        self.comp_links.clear();
    }

    /// When every flow in `recompute` is the only flow on each of its links (in a ring, every flow
    /// is), rates them as [`fill`](Self::fill) would — the whole capacity of their tightest link,
    /// the first on the route among equals — without its scratch tables, and returns `true`:
    /// nothing else shares their links, so nothing else is disturbed; with timelines,
    /// `comp_links` becomes their links. Otherwise changes nothing and returns `false`.
    /// (perf: `flush` was 12 % of a 1024-rank ring, most of it `fill`'s set-up for flows that
    /// share nothing.)
    fn settle_alone(&mut self) -> bool {
        let alone = self.recompute.iter().all(|&slot| {
            let f = &self.flows[slot as usize];
            f.links[..f.len as usize]
                .iter()
                .all(|&l| self.links[l as usize].len == 1)
        });
        if !alone {
            return false;
        }
        for &slot in &self.recompute {
            let f = &mut self.flows[slot as usize];
            let (mut rate, mut held_by) = (f64::INFINITY, NONE);
            for &l in &f.links[..f.len as usize] {
                let share = max_num(0.0, self.links[l as usize].capacity);
                if share < rate {
                    (rate, held_by) = (share, l);
                }
            }
            f.new_rate = rate;
            f.new_held_by = held_by;
            if self.timeline.is_some() {
                // Their links' totals change: `rebalance` records the links in `comp_links`.
                self.comp_links
                    .extend_from_slice(&f.links[..f.len as usize]);
            }
        }
        true
    }

    /// Progressive filling over the flows in `recompute`, on what the other flows leave of their
    /// links. Sets each one's `new_rate` and `new_held_by`; `comp_links` becomes the links they
    /// cross. The next bottleneck is the link with the least fair share among its unfixed flows
    /// (least bits, then least place in `comp_links`).
    ///
    /// The tables are borrowed once, as slices, before the loops (perf, callgrind on the
    /// benchmark's pipelined tree: read through `self`, every store to a flow or a link's record
    /// made the compiler load the vectors' pointers and lengths again; those loads and their
    /// bounds checks were over a third of this function's instructions).
    fn fill(&mut self) {
        let FlowNetwork {
            links,
            spill,
            flows,
            rates,
            recompute,
            comp_links,
            laid_out,
            fills,
            share_tree,
            share_bits,
            touched,
            ..
        } = self;
        let recompute: &[u32] = recompute;
        let (flows, rates): (&mut [Flow], &mut [FlowRate]) = (flows, rates);
        // The flows of the last filling (of this rebalance) come first in `recompute`, in the same
        // order, so their links keep their places in `comp_links`; only the new flows' links are
        // added. A link's capacity left and unfixed count depend only on which of its flows are
        // recomputed (the others' rates hold during a rebalance), so they are counted again only
        // for the links of flows added since (`stale`) and the new links (perf: on the
        // benchmark's pipelined tree, the second of a rebalance's two fillings counted every
        // link's flows again).
        for &slot in recompute {
            rates[slot as usize].fixed = false;
        }
        let counted = comp_links.len();
        for &slot in &recompute[*laid_out..] {
            let f = &mut flows[slot as usize];
            for (&l, p) in f.links[..f.len as usize].iter().zip(&mut f.pos) {
                let link = &mut links[l as usize];
                if link.pos == NONE {
                    link.pos = comp_links.len() as u32;
                    comp_links.push(l);
                }
                *p = link.pos;
            }
        }
        *laid_out = recompute.len();
        fills.resize(comp_links.len(), LinkFill::NEW);
        let (links, spill, comp_links): (&[Link], &[Vec<u32>], &[u32]) = (links, spill, comp_links);
        let fills: &mut [LinkFill] = fills;
        for (k, fill) in fills.iter_mut().enumerate() {
            if k >= counted || fill.stale {
                fill.stale = false;
                let l = comp_links[k] as usize;
                let mut cap = links[l].capacity;
                let (mut count, mut others_fastest, mut others_held) = (0u32, -1.0, false);
                for &slot in flows_of(links, spill, l) {
                    let f = &rates[slot as usize];
                    if f.recomputing {
                        count += 1;
                    } else {
                        cap -= f.bytes_per_sec;
                        if f.bytes_per_sec > others_fastest {
                            others_fastest = f.bytes_per_sec;
                        }
                        others_held |= f.held_by == l as u32;
                    }
                }
                fill.base_cap = cap;
                fill.base_unfixed = count;
                fill.others_fastest = others_fastest;
                fill.others_held = others_held;
                if k >= counted {
                    fill.seed = links[l].is_seed;
                }
            }
            fill.cap_left = fill.base_cap;
            fill.unfixed = fill.base_unfixed;
            fill.is_touched = false;
            fill.changed = fill.seed;
            fill.level = f64::INFINITY;
        }
        // A flow alone (among those recomputed) on every link it crosses is frozen by its tightest
        // one, the first on its route among equals, as the filling would: settle it without the scan.
        // In a ring every flow is such a one.
        let mut left = recompute.len();
        for &slot in recompute {
            let f = &mut flows[slot as usize];
            let n = f.len as usize;
            let (links, ks) = (&f.links[..n], &f.pos[..n]);
            if ks.iter().all(|&k| fills[k as usize].unfixed == 1) {
                let (mut rate, mut held_by) = (f64::INFINITY, NONE);
                for (&l, &k) in links.iter().zip(ks) {
                    let fill = &mut fills[k as usize];
                    let share = max_num(0.0, fill.cap_left);
                    if share < rate {
                        (rate, held_by) = (share, l);
                    }
                    fill.unfixed = 0;
                }
                let r = &mut rates[slot as usize];
                r.fixed = true;
                f.new_rate = rate;
                f.new_held_by = held_by;
                left -= 1;
                let changed = rate != r.bytes_per_sec;
                for (&l, &k) in links.iter().zip(ks) {
                    let fill = &mut fills[k as usize];
                    fill.changed |= changed;
                    // The least, as `f64::min`: rates are never NaN (and the sign of a zero
                    // level changes no `>`), and on wasm32 `min` is a call.
                    if l == held_by && rate < fill.level {
                        fill.level = rate;
                    }
                }
            }
        }
        // The next bottleneck is the link of least share bits, the least index among equals. Few
        // links: by a scan of their shares (perf: on the benchmark's pipelined tree a filling has
        // about 15 links on average); many: from the root of a tournament tree over them.
        #[cfg(not(test))]
        let scan = comp_links.len() <= SCAN_LINKS;
        // A test may take the scan or the tree at any size, to compare them.
        #[cfg(test)]
        let scan = comp_links.len() <= tests::SCAN_LINKS_AT.get();
        share_bits.clear();
        for fill in fills.iter() {
            let mut bits = NO_SHARE;
            if fill.unfixed > 0 {
                bits = max_num(0.0, fill.cap_left / fill.unfixed as f64).to_bits();
            }
            share_bits.push(bits);
        }
        let share_bits: &mut [u64] = share_bits;
        if !scan {
            share_tree.build(share_bits);
        }
        while left > 0 {
            let (k, least) = if scan {
                let (mut least, mut at) = (NO_SHARE, 0);
                for (k, &bits) in share_bits.iter().enumerate() {
                    if bits < least {
                        (least, at) = (bits, k);
                    }
                }
                (at, least)
            } else {
                share_tree.least()
            };
            if least == NO_SHARE {
                break;
            }
            let share = max_num(0.0, fills[k].cap_left / fills[k].unfixed as f64);
            let l = comp_links[k];
            let mut level = fills[k].level;
            touched.clear();
            for &slot in flows_of(links, spill, l as usize) {
                let slot = slot as usize;
                let r = &mut rates[slot];
                if !r.recomputing || r.fixed {
                    continue;
                }
                r.fixed = true;
                let changed = share != r.bytes_per_sec;
                let f = &mut flows[slot];
                f.new_rate = share;
                f.new_held_by = l;
                left -= 1;
                if share < level {
                    level = share;
                }
                for &k2 in &f.pos[..f.len as usize] {
                    let k2 = k2 as usize;
                    let fill = &mut fills[k2];
                    fill.changed |= changed;
                    fill.cap_left -= share;
                    fill.unfixed -= 1;
                    if !fill.is_touched {
                        fill.is_touched = true;
                        touched.push(k2 as u32);
                    }
                }
            }
            fills[k].level = level;
            for &k2 in touched.iter() {
                let k2 = k2 as usize;
                let fill = &mut fills[k2];
                fill.is_touched = false;
                let mut bits = NO_SHARE;
                if fill.unfixed > 0 {
                    bits = max_num(0.0, fill.cap_left / fill.unfixed as f64).to_bits();
                }
                share_bits[k2] = bits;
                if !scan {
                    share_tree.set(k2, bits);
                }
            }
        }
    }

    /// Adds to `recompute` every other flow whose bottleneck the last [`fill`](Self::fill) may
    /// have broken: it is held by a link where a rate changed, or it is faster than a recomputed
    /// flow frozen on one of its links. Returns whether it added any.
    ///
    /// A link is `changed` when a rate on it changed, and its `level` is the least rate of the
    /// recomputed flows it holds, both as [`fill`](Self::fill) left them. A flow added here
    /// joins the recomputed ones at once and counts for the links after this one, as it would had
    /// each link read its recomputed flows afresh: it adds its rate to the level of the link that
    /// holds it, and changes no rate (`commit` leaves every flow at its new rate, `start` starts
    /// both at 0; in the unit tests `check_fill_summary` asserts the outcome at every link).
    ///
    /// A link whose other flows, as `fill` counted them, include none held by it (when it
    /// changed) and none faster than its level is passed over without reading its flows: those
    /// others only become fewer as flows join (perf: on the benchmark's pipelined tree, the last
    /// call of each rebalance, which adds nothing, read every flow of every link).
    fn add_disturbed(&mut self) -> bool {
        let before = self.recompute.len();
        let FlowNetwork {
            links,
            spill,
            flows,
            rates,
            recompute,
            comp_links,
            fills,
            ..
        } = self;
        let (links, spill): (&[Link], &[Vec<u32>]) = (links, spill);
        let (flows, comp_links): (&[Flow], &[u32]) = (flows, comp_links);
        let (rates, fills): (&mut [FlowRate], &mut [LinkFill]) = (rates, fills);
        for (k, &l) in comp_links.iter().enumerate() {
            let LinkFill {
                changed,
                level,
                others_fastest,
                others_held,
                ..
            } = fills[k];
            #[cfg(test)]
            check_fill_summary(links, spill, flows, rates, l, changed, level);
            if !(changed && others_held) && others_fastest <= level {
                // Nothing on it can be disturbed: neither test below holds for any flow.
                continue;
            }
            for &slot in flows_of(links, spill, l as usize) {
                let f = &mut rates[slot as usize];
                if !f.recomputing && ((changed && f.held_by == l) || f.bytes_per_sec > level) {
                    f.recomputing = true;
                    recompute.push(slot);
                    let g = &flows[slot as usize];
                    for &l2 in &g.links[..g.len as usize] {
                        let k2 = links[l2 as usize].pos;
                        if k2 != NONE {
                            let fill = &mut fills[k2 as usize];
                            fill.stale = true;
                            if k2 as usize > k && g.new_held_by == l2 && g.new_rate < fill.level {
                                fill.level = g.new_rate;
                            }
                        }
                    }
                }
            }
        }
        self.recompute.len() > before
    }

    /// Applies the rates found by [`fill`](Self::fill), settling the bytes sent at the old rates
    /// and queueing the new finish times.
    fn commit(&mut self, now: f64) {
        for &slot in &self.recompute {
            let f = &mut self.flows[slot as usize];
            let r = &mut self.rates[slot as usize];
            r.recomputing = false;
            r.held_by = f.new_held_by;
            if r.bytes_per_sec != f.new_rate {
                f.remaining_bytes = max_num(
                    0.0,
                    f.remaining_bytes - r.bytes_per_sec * (now - f.updated_at),
                );
                f.updated_at = now;
                r.bytes_per_sec = f.new_rate;
                f.version = f.version.wrapping_add(1);
                let finish = now + f.remaining_bytes / f.new_rate;
                self.finish_queue.set((finish.to_bits(), f.version, slot));
            }
        }
    }

    /// Updates `link`'s total rate, and its timeline if one is kept.
    fn record_link_rate(&mut self, link: usize, now: f64) {
        let total: f64 = flows_of(&self.links, &self.spill, link)
            .iter()
            .map(|&s| self.rates[s as usize].bytes_per_sec)
            .sum();
        if total != self.link_rate[link] {
            self.link_rate[link] = total;
            if let Some(tl) = self.timeline.as_mut() {
                let seg = &mut tl[link];
                if !seg.is_empty() && self.timeline_last_at[link] == now {
                    seg.set_last_rate(total);
                } else {
                    seg.push(self.instants.index(now), total);
                    self.timeline_last_at[link] = now;
                    self.recorded += 1;
                }
            }
        }
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    #[test]
    fn max_min_gives_the_unconstrained_flow_the_leftover() {
        // Link 0: 10 B/s shared by flows A and B. Link 1: 4 B/s carries B only.
        // B is held to 4 by link 1, so A gets 10 - 4 = 6.
        let mut net = FlowNetwork::new(&[10.0, 4.0], false);
        let a = net.start(0, &[0], 100.0, 0.0);
        let b = net.start(1, &[0, 1], 100.0, 0.0);
        assert_eq!(net.rate_of(b), Some(4.0));
        assert_eq!(net.rate_of(a), Some(6.0));
    }

    #[test]
    fn a_finishing_flow_frees_its_share() {
        let mut net = FlowNetwork::new(&[10.0], true);
        let a = net.start(0, &[0], 10.0, 0.0); // alone: 10 B/s
        let b = net.start(1, &[0], 30.0, 0.0); // now both 5 B/s
        let (t, slot) = net.next_finish().unwrap();
        assert_eq!((t, net.id(slot)), (2.0, 0));
        net.finish(a, t);
        assert_eq!(net.rate_of(b), Some(10.0));
        // Flow 1 sent 10 bytes in 2 s, 20 left at 10 B/s.
        assert_eq!(net.next_finish(), Some((4.0, b)));
        net.finish(b, 4.0);
        assert_eq!(net.busy_secs(4.0), vec![4.0]);
        let tl = net.into_timelines().0.unwrap();
        assert_eq!(
            tl[0].iter().collect::<Vec<_>>(),
            vec![
                RateChange {
                    at_secs: 0.0,
                    bytes_per_sec: 10.0
                },
                RateChange {
                    at_secs: 4.0,
                    bytes_per_sec: 0.0
                }
            ]
        );
    }

    /// A small deterministic generator for the tests: each call a number below `n`.
    fn lcg(mut seed: u64) -> impl FnMut(u64) -> u64 {
        move |n| {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (seed >> 33) % n
        }
    }

    thread_local! {
        /// Whether every [`FlowNetwork::flush`] on this thread checks all rates against a
        /// progressive filling of the whole network (a full run's tests set it: see
        /// `run::tests`).
        pub(crate) static CHECK_EVERY_FLUSH: std::cell::Cell<bool> =
            const { std::cell::Cell::new(false) };
        /// Up to how many links a filling scans its shares rather than building a tree:
        /// `SCAN_LINKS`, except in a test that compares the two.
        pub(crate) static SCAN_LINKS_AT: std::cell::Cell<usize> =
            const { std::cell::Cell::new(SCAN_LINKS) };
    }

    #[test]
    fn scanning_the_shares_and_the_tree_give_the_same_bits() {
        // Every finish (its time's bits and its flow), with the bottleneck always found by a scan
        // and always by the tree, over fillings of a few to hundreds of links.
        let finishes = |scan_at: usize| {
            SCAN_LINKS_AT.set(scan_at);
            let capacity: Vec<f64> = (0..400).map(|l| 3.0 + (l * 7 % 11) as f64).collect();
            let mut net = FlowNetwork::new(&capacity, false);
            let mut rand = lcg(777);
            let (mut now, mut out) = (0.0, Vec::new());
            for id in 0..800 {
                let mut links: Vec<u32> = (0..1 + rand(6)).map(|_| rand(400) as u32).collect();
                links.sort_unstable();
                links.dedup();
                net.start(id, &links, 1.0 + rand(50) as f64, now);
                while rand(3) == 0 {
                    let Some((t, slot)) = net.next_finish() else {
                        break;
                    };
                    out.push((t.to_bits(), net.id(slot)));
                    now = t;
                    net.finish(slot, t);
                }
            }
            while let Some((t, slot)) = net.next_finish() {
                out.push((t.to_bits(), net.id(slot)));
                net.finish(slot, t);
            }
            SCAN_LINKS_AT.set(SCAN_LINKS);
            out
        };
        let (scanned, tree) = (finishes(usize::MAX), finishes(0));
        assert_eq!(scanned.len(), 800);
        assert_eq!(scanned, tree);
    }

    /// Max-min fair rates of every streaming flow by plain progressive filling over the whole
    /// network, one link at a time.
    pub(super) fn reference_rates(net: &FlowNetwork) -> Vec<(usize, f64)> {
        let mut cap: Vec<f64> = net.links.iter().map(|l| l.capacity).collect();
        let mut count = vec![0usize; cap.len()];
        let live: Vec<usize> = (0..net.flows.len())
            .filter(|&i| net.flows[i].len > 0)
            .collect();
        let links = |i: usize| &net.flows[i].links[..net.flows[i].len as usize];
        for &i in &live {
            links(i).iter().for_each(|&l| count[l as usize] += 1);
        }
        let mut rate = vec![None; net.flows.len()];
        while let Some((share, l)) = (0..cap.len())
            .filter(|&l| count[l] > 0)
            .map(|l| (cap[l] / count[l] as f64, l))
            .min_by(|a, b| a.0.total_cmp(&b.0))
        {
            for &i in &live {
                if rate[i].is_none() && links(i).contains(&(l as u32)) {
                    rate[i] = Some(share);
                    for &l2 in links(i) {
                        cap[l2 as usize] -= share;
                        count[l2 as usize] -= 1;
                    }
                }
            }
        }
        live.iter().map(|&i| (i, rate[i].unwrap())).collect()
    }

    /// Random flows over up to `most_links` of `capacity`'s links start, and while `rand(finish_1_in)`
    /// is 0 the next one finishes; every `check_every` flows the incrementally kept rates must
    /// equal a full progressive filling.
    fn rates_match_filling_the_whole_network(
        capacity: &[f64],
        most_links: u64,
        finish_1_in: u64,
        flows: u32,
        check_every: u32,
    ) {
        let mut net = FlowNetwork::new(capacity, false);
        let mut rand = lcg(12345);
        let mut now = 0.0;
        for id in 0..flows {
            let mut links: Vec<u32> = (0..1 + rand(most_links))
                .map(|_| rand(capacity.len() as u64) as u32)
                .collect();
            links.sort_unstable();
            links.dedup();
            net.start(id, &links, 1.0 + rand(50) as f64, now);
            if rand(3) == 0 {
                now += 0.01;
            }
            while rand(finish_1_in) == 0 {
                let Some((t, slot)) = net.next_finish() else {
                    break;
                };
                now = t;
                net.finish(slot, t);
            }
            net.flush();
            if id % check_every == 0 {
                net.check_against_whole_filling();
            }
        }
    }

    #[test]
    fn incremental_rates_match_filling_the_whole_network() {
        // A few links of mixed capacities: every filling scans its links for the bottleneck.
        rates_match_filling_the_whole_network(
            &[10.0, 4.0, 7.0, 10.0, 3.0, 12.0, 5.0, 8.0],
            4,
            2,
            400,
            1,
        );
    }

    #[test]
    fn incremental_rates_match_filling_the_whole_network_over_many_links() {
        // Hundreds of flows alive over 400 links: fillings over more than `SCAN_LINKS` links
        // take the tournament tree.
        let capacity: Vec<f64> = (0..400).map(|l| 3.0 + (l * 7 % 11) as f64).collect();
        rates_match_filling_the_whole_network(&capacity, 6, 3, 600, 25);
    }

    #[test]
    fn the_share_tree_picks_the_least_share_then_the_least_index() {
        // Few distinct shares, so that ties are common; NO_SHARE and -0.0 among them.
        let values = [
            NO_SHARE,
            0.0f64.to_bits(),
            (-0.0f64).to_bits(),
            1.5f64.to_bits(),
            7.0f64.to_bits(),
        ];
        let mut rand = lcg(7);
        let mut tree = MinTree::default();
        for len in [1usize, 2, 3, 5, 8, 9, 130, 300] {
            let mut bits: Vec<u64> = (0..len).map(|_| values[rand(5) as usize]).collect();
            tree.build(&bits);
            for _ in 0..200 {
                // What the scan picks: the first of the least.
                let least = *bits.iter().min().unwrap();
                let at = bits.iter().position(|&b| b == least).unwrap();
                assert_eq!(tree.least(), (at, least), "{len} links: {bits:?}");
                let k = rand(len as u64) as usize;
                bits[k] = values[rand(5) as usize];
                tree.set(k, bits[k]);
            }
        }
    }

    #[test]
    fn the_finish_queue_always_yields_the_least_live_entry() {
        let mut q = FinishQueue::default();
        let mut live: Vec<Option<(u64, u32, u32)>> = vec![None; 50];
        let mut rand = lcg(99);
        for step in 0..5000u32 {
            let slot = rand(50) as u32;
            if rand(3) == 0 {
                q.remove(slot);
                live[slot as usize] = None;
            } else {
                let entry = (rand(20), step, slot);
                q.set(entry);
                live[slot as usize] = Some(entry);
            }
            assert_eq!(q.first(), live.iter().flatten().min().copied());
            // The heap's order and its index of places hold everywhere, not only at the top; each
            // queued slot is where `at` says, in a group of its instant.
            for (i, &e) in q.heap.iter().enumerate() {
                assert!(i == 0 || q.heap[(i - 1) / ARITY] < e, "heap order at {i}");
                let group = &q.groups[e as u32 as usize];
                assert_eq!((group.pos as usize, group.bits), (i, bits_of(e)));
                assert!(!group.entries.is_empty());
                for (k, &entry) in group.entries.iter().enumerate() {
                    let slot = entry as u32;
                    assert_eq!(q.at[slot as usize], (e as u32, k as u32));
                    assert_eq!(
                        live[slot as usize],
                        Some((group.bits, (entry >> 32) as u32, slot))
                    );
                }
            }
            let placed = q.at.iter().filter(|&&(g, _)| g != NONE).count();
            assert_eq!(placed, live.iter().flatten().count());
            // Now and then, every entry of the first instant leaves at once, in order.
            if rand(50) == 0 {
                let mut want: Vec<_> = live.iter().flatten().copied().collect();
                want.sort_unstable();
                let first = want.first().map(|f| f.0);
                want.retain(|e| Some(e.0) == first);
                let mut got = Vec::new();
                assert_eq!(q.take_first(&mut got), want.first().map(|e| e.0));
                assert_eq!(got, want.iter().map(|e| FlowSlot(e.2)).collect::<Vec<_>>());
                for FlowSlot(slot) in got {
                    live[slot as usize] = None;
                }
            }
        }
        // Emptied from the top, it yields the live entries in order.
        let mut want: Vec<_> = live.iter().flatten().copied().collect();
        want.sort_unstable();
        let mut got = Vec::new();
        while let Some(e) = q.first() {
            got.push(e);
            q.remove(e.2);
        }
        assert_eq!(got, want);
    }

    #[test]
    fn a_nan_finish_time_leaves_one_at_a_time() {
        // Not due by any time: a caller sees one such flow at a time, as `next_finish` gives it.
        let mut q = FinishQueue::default();
        q.set((f64::NAN.to_bits(), 0, 3));
        q.set((f64::NAN.to_bits(), 0, 1));
        let mut got = Vec::new();
        assert!(
            q.take_first(&mut got)
                .is_some_and(|b| f64::from_bits(b).is_nan())
        );
        assert_eq!(got, [FlowSlot(1)]);
        assert_eq!(q.first().map(|e| e.2), Some(3));
    }

    #[test]
    fn disjoint_flows_do_not_disturb_each_other() {
        let mut net = FlowNetwork::new(&[1.0, 2.0], false);
        let a = net.start(7, &[0], 3.0, 0.0);
        let b = net.start(8, &[1], 3.0, 0.5);
        assert_eq!(net.next_finish(), Some((2.0, b)));
        net.finish(b, 2.0);
        assert_eq!(net.next_finish(), Some((3.0, a)));
    }
}
