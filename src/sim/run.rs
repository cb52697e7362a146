//! Executes a [`Schedule`] on a [`Topology`] with real buffers and returns its [`Trace`].
//!
//! A transfer starts when all its dependencies are done; the payload is taken from the sender's
//! buffer at that moment. It waits its route's latency, streams at its max-min fair share (see
//! [`network`](super::network)), and on arrival a reduction costs γ seconds per byte on the
//! receiver, whose reductions run one at a time. Then it is done, and the transfers waiting for it
//! may start.
//!
//! ```
//! use allreduce_sim::{algorithms::{self, Algorithm}, run::{run, RunOptions}, topology::*, units::*};
//! let topo = Topology::new(&TopologySpec::Uniform {
//!     ranks: 4, bandwidth: Bandwidth::from_gbytes_per_sec(1.0), latency_secs: 0.0 }).unwrap();
//! let schedule = algorithms::schedule(Algorithm::Ring, &topo, 4_000_000, 1);
//! let trace = run(&topo, schedule, &RunOptions::default());
//! assert!(trace.verification.is_ok());
//! // 2(N-1)/N × S / B = 1.5 × 4 MB / 1 GB/s = 6 ms.
//! assert!((trace.time_secs - 6e-3).abs() < 1e-15);
//! ```
//!
//! Size: over 450 lines because the run loop, its bucketed event queue and the sliced preparation
//! share private state (the route cache, reverse dependencies, buffers) and the invariants of the
//! hot path, so they stay together; about a quarter of the file is documentation and examples.

use super::buffers::{Buffers, Cell};
use super::huge_pages;
use super::network::{FlowNetwork, FlowSlot};
use super::order::max_num;
use super::prefetch::prefetch;
use super::records::{CellChanges, Timings};
use super::schedule::{DepLists, Entries, JOIN, MAX_DEPS, Op, Schedule, Transfer};
use super::starts::Starts;
use super::topology::{Route, Topology};
use super::trace::{LinkReport, RankTraffic, Trace};
use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap, VecDeque};

// A cell's contributor count, at most a run's ranks, is recorded in 16 bits ([`CellChanges`]).
const _: () = assert!(super::topology::MAX_RANKS <= u16::MAX as usize);
use std::hash::{BuildHasherDefault, Hasher};

/// How to run.
#[derive(Clone, Debug, PartialEq)]
pub struct RunOptions {
    /// γ: seconds per byte a receiver spends reducing. 0 makes reductions free.
    pub gamma_secs_per_byte: f64,
    /// Keep every link's rate over time and every change of a buffer cell (the UI needs them;
    /// large runs can do without).
    pub record_details: bool,
}

impl Default for RunOptions {
    fn default() -> Self {
        RunOptions {
            gamma_secs_per_byte: 0.0,
            record_details: true,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Event {
    /// The route latency has passed: the first byte arrives and streaming begins (the transfer's
    /// slot in `in_flight`).
    FirstByte(u32),
    /// The receiver has finished reducing the transfer (its slot in `in_flight`).
    Reduced(u32),
    /// A straggler has joined: the transfer (its id), ready before, may start now.
    Joined(u32),
}

/// The run's pending events in the order of a heap of `(time, sequence number)`: by time, first
/// in first out among equal times. Events of one instant share one heap entry and wait in a queue
/// of their own: in a ring, the transfers that become ready together wait the same latency, so
/// hundreds of first bytes fall on one instant and cost one heap operation, not hundreds (perf:
/// the event heap's sifting was the largest part of `run`'s own time on a 1024-rank ring).
#[derive(Default)]
struct EventQueue {
    /// `(time bits, bucket)` per instant with events pending; times are ≥ 0, so their bits order
    /// them as numbers.
    times: BinaryHeap<Reverse<(u64, u32)>>,
    buckets: Vec<VecDeque<Event>>,
    free: Vec<u32>,
    /// The bucket of each instant in `times`.
    open: HashMap<u64, u32, BuildHasherDefault<TimeHasher>>,
    /// The instant last pushed to and its bucket (`NO_BUCKET` when none is open for it).
    last: (u64, u32),
}

const NO_BUCKET: u32 = u32::MAX;

/// Hashes a time's bits (the only key of [`EventQueue::open`]) with one multiplication.
#[derive(Default)]
struct TimeHasher(u64);

impl Hasher for TimeHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(self.0 ^ b as u64);
        }
    }
    fn write_u64(&mut self, x: u64) {
        // Fibonacci hashing; the high half folded in so that the low bits see the whole key.
        let h = x.wrapping_mul(0x9E37_79B9_7F4A_7C15);
        self.0 = h ^ (h >> 32);
    }
}

impl EventQueue {
    fn new() -> EventQueue {
        EventQueue {
            last: (0, NO_BUCKET),
            ..EventQueue::default()
        }
    }

    fn push(&mut self, at: f64, ev: Event) {
        let bits = at.to_bits();
        let b = if self.last.1 != NO_BUCKET && self.last.0 == bits {
            self.last.1
        } else {
            let b = match self.open.get(&bits) {
                Some(&b) => b,
                None => {
                    let b = self.free.pop().unwrap_or_else(|| {
                        self.buckets.push(VecDeque::new());
                        (self.buckets.len() - 1) as u32
                    });
                    self.open.insert(bits, b);
                    self.times.push(Reverse((bits, b)));
                    b
                }
            };
            self.last = (bits, b);
            b
        };
        self.buckets[b as usize].push_back(ev);
    }

    /// The time of the first event.
    fn peek_time(&self) -> Option<f64> {
        self.times
            .peek()
            .map(|Reverse((bits, _))| f64::from_bits(*bits))
    }

    fn pop(&mut self) -> Option<Event> {
        let &Reverse((bits, b)) = self.times.peek()?;
        let bucket = &mut self.buckets[b as usize];
        let ev = bucket.pop_front();
        if bucket.is_empty() {
            self.times.pop();
            self.open.remove(&bits);
            self.free.push(b);
            if self.last.1 == b {
                self.last.1 = NO_BUCKET;
            }
        }
        ev
    }
}

/// A run in progress: [`Run::step`] advances it a bounded amount, so a caller that must stay
/// responsive (a browser tab) can spread a large run over many short slices.
pub struct Run {
    topo: Topology,
    routes: RouteCache,
    schedule: Schedule,
    capacities: Vec<f64>,
    now: f64,
    gamma: f64,
    net: FlowNetwork,
    events: EventQueue,
    /// Per node (transfers `0..n`, then join j as `n + j`): how many of its dependencies are not
    /// done yet, and where its dependents start (see [`Nodes`]).
    nodes: Nodes,
    /// Who waits for each transfer and join, each list in the order of the transfers that wait.
    dependents: Dependents,
    /// The schedule's joins, and what gives back its dependency lists with the reverse index:
    /// with details the run holds them only reversed, and puts them back in the schedule at its
    /// end.
    joins: usize,
    kept: Kept,
    /// Whether the schedule's lists were taken out and are rebuilt at the end (with details).
    rebuild_lists: bool,
    timings: Timings,
    /// Per step reached so far, when its latest transfer done so far was done: kept as the run
    /// goes, from the transfer in flight, rather than read back from every transfer's timing at
    /// the end (perf: that pass was 15 ms of the benchmark's 1024-rank ring, a cache miss per
    /// transfer in the instants).
    step_end_secs: Vec<f64>,
    /// Transfers between ready and done, in reusable slots.
    in_flight: Vec<InFlight>,
    free_slots: Vec<u32>,
    reducer_free_at: Vec<f64>,
    /// When each rank joins; empty when every rank starts at 0 (no straggler).
    joins_at: Vec<f64>,
    buffers: Buffers,
    traffic: Vec<RankTraffic>,
    done: usize,
    error: Option<String>,
    cell_changes: Option<CellChanges>,
    /// The flows due at one instant (scratch of [`Run::next`]).
    due: Vec<FlowSlot>,
}

/// The routes a run's transfers take, remembered per sender: an algorithm sends from a rank to a
/// few peers, again and again (a ring, 2(N−1) times to the same one), and finding a route costs
/// divisions and a walk over its links (perf: `Topology::route` was 7 % of a 1024-rank ring).
struct RouteCache {
    /// Per rank, `WAYS` (receiver, route) pairs; receiver `u32::MAX` is an empty way.
    ways: Vec<(u32, Route)>,
    /// Per rank, the way its next new receiver replaces.
    victim: Vec<u8>,
}

impl RouteCache {
    const WAYS: usize = 4;

    fn new(topo: &Topology) -> RouteCache {
        let ranks = topo.ranks();
        let ways = if ranks == 0 {
            Vec::new()
        } else {
            vec![(u32::MAX, topo.route(0, 0)); ranks * Self::WAYS]
        };
        RouteCache {
            ways,
            victim: vec![0; ranks],
        }
    }

    /// `topo.route(src, dst)`.
    fn route(&mut self, topo: &Topology, src: u32, dst: u32) -> Route {
        let base = src as usize * Self::WAYS;
        let ways = &mut self.ways[base..base + Self::WAYS];
        if let Some((_, route)) = ways.iter().find(|(d, _)| *d == dst) {
            return *route;
        }
        let route = topo.route(src as usize, dst as usize);
        let v = &mut self.victim[src as usize];
        ways[*v as usize] = (dst, route);
        *v = (*v + 1) % Self::WAYS as u8;
        route
    }
}

/// What the run keeps per node of the dependency graph (transfers `0..n`, then join j as
/// `n + j`): about 4 bytes a node. A node waits for at most [`MAX_DEPS`] others, a count in 16
/// bits; its dependents' start is kept in [`Starts`], 2 bytes where lists are short (a
/// 1024-rank ring's 2.1 M nodes: 12.6 → 8.4 MB).
#[derive(Default)]
struct Nodes {
    /// How many of its dependencies (a join: members) are not done yet.
    waiting: Vec<u16>,
    /// Where its dependents start in `Run::dependents`; one more start ends the last list.
    starts: Starts,
}

const _: () = assert!(MAX_DEPS <= u16::MAX as usize);

/// What a transfer carries between leaving the sender and being done: found once when it is ready.
/// The events and the flow network name a transfer in flight by its slot here, and everything the
/// transfer needs until it is done (its transfer record, its times) is kept here, in a few slots
/// that stay in cache, and not in the run's arrays indexed by transfer, a cache miss each in a
/// large run (perf: loading `schedule.transfer(t)` and `timings[t]` were most of `ready`,
/// `arrived` and `complete` on a 1024-rank ring).
#[derive(Default)]
struct InFlight {
    /// The transfer's id.
    t: u32,
    tr: Option<Transfer>,
    /// Its start, first-byte and last-byte instants (indexes, see [`records`](super::records)).
    start: u32,
    first_byte: u32,
    last_byte: u32,
    /// The sender's cells as they were when it left.
    payload: Vec<Cell>,
    route: Option<Route>,
    bytes: u64,
    /// Where its dependents are listed in `Run::dependents`.
    dependents: (u32, u32),
}

impl Run {
    fn push(&mut self, at: f64, ev: Event) {
        self.events.push(at, ev);
    }

    fn ready(&mut self, t: u32, now: f64) {
        let tr = *self.schedule.transfer(t as usize);
        if !self.joins_at.is_empty() {
            // A transfer needs both ends present: it waits for a straggler at either end.
            let joins = max_num(
                self.joins_at[tr.src() as usize],
                self.joins_at[tr.dst() as usize],
            );
            if joins > now {
                self.push(joins, Event::Joined(t));
                return;
            }
        }
        let slot = self.free_slots.pop().unwrap_or_else(|| {
            self.in_flight.push(InFlight::default());
            (self.in_flight.len() - 1) as u32
        });
        let route = self.routes.route(&self.topo, tr.src(), tr.dst());
        let f = &mut self.in_flight[slot as usize];
        f.t = t;
        f.tr = Some(tr);
        f.start = self.net.instant(now);
        self.buffers.snapshot(
            tr.src() as usize,
            tr.chunk_lo() as usize,
            tr.chunk_hi() as usize,
            &mut f.payload,
        );
        f.route = Some(route);
        f.bytes = self.schedule.bytes(t as usize);
        let list = self.nodes.starts.range(t as usize);
        let (a, b) = (list.start as u32, list.end as u32);
        f.dependents = (a, b);
        // What `first_byte` and `complete` will read.
        self.dependents.prefetch(a as usize);
        self.buffers
            .prefetch(tr.dst() as usize, tr.chunk_lo() as usize);
        self.timings.prefetch(t as usize);
        self.push(now + route.latency_secs, Event::FirstByte(slot));
    }

    fn first_byte(&mut self, slot: u32, now: f64) {
        let f = &mut self.in_flight[slot as usize];
        f.first_byte = self.net.instant(now);
        // What `release` will read once this transfer is done, and `ready` after it.
        let (a, b) = f.dependents;
        let (n, from) = (self.schedule.len(), f.t);
        for k in a as usize..b as usize {
            let d = self.dependents.get(from, k) as usize;
            prefetch(&self.nodes.waiting, d);
            self.nodes.starts.prefetch(d);
            if d < n {
                prefetch(self.schedule.transfers(), d);
            }
        }
        let (bytes, route) = (f.bytes, f.route.expect("set when ready"));
        if bytes == 0 {
            self.arrived(slot, now);
        } else {
            self.net.start(slot, route.links(), bytes as f64, now);
        }
    }

    fn arrived(&mut self, slot: u32, now: f64) {
        let f = &mut self.in_flight[slot as usize];
        f.last_byte = self.net.instant(now);
        let (tr, bytes) = (f.tr.expect("set when ready"), f.bytes);
        self.traffic[tr.src() as usize].sent_bytes += bytes;
        self.traffic[tr.dst() as usize].received_bytes += bytes;
        if tr.op() == Op::Reduce && self.gamma > 0.0 {
            let dst = tr.dst() as usize;
            let begin = max_num(now, self.reducer_free_at[dst]);
            let end = begin + self.gamma * bytes as f64;
            self.reducer_free_at[dst] = end;
            self.push(end, Event::Reduced(slot));
        } else {
            self.complete(slot, now);
        }
    }

    fn complete(&mut self, slot: u32, now: f64) {
        let f = &mut self.in_flight[slot as usize];
        let done = self.net.instant(now);
        let (t, tr) = (f.t, f.tr.expect("set when ready"));
        self.timings
            .set(t as usize, [f.start, f.first_byte, f.last_byte, done]);
        let step = tr.step() as usize;
        if step >= self.step_end_secs.len() {
            // Grown as steps are reached, rather than sized by a pass over every transfer.
            self.step_end_secs.resize(step + 1, 0.0);
        }
        let end = &mut self.step_end_secs[step];
        // `f64::max`, without its call on wasm32: times are never NaN.
        if now > *end {
            *end = now;
        }
        self.done += 1;
        let payload = std::mem::take(&mut f.payload);
        match tr.op() {
            Op::Reduce => {
                if let Err((chunk, twice)) =
                    self.buffers
                        .reduce(tr.dst() as usize, tr.chunk_lo() as usize, &payload)
                {
                    self.error.get_or_insert_with(|| {
                        format!(
                            "transfer {t} ({} → {}, step {}) would add rank {twice}'s contribution to chunk {chunk} a second time",
                            tr.src(), tr.dst(), tr.step()
                        )
                    });
                }
            }
            Op::Copy => self
                .buffers
                .copy(tr.dst() as usize, tr.chunk_lo() as usize, &payload),
        }
        if let Some(changes) = self.cell_changes.as_mut() {
            let buffers = &self.buffers;
            changes.push(
                t,
                tr.chunks()
                    // At most a run's ranks, which fit in 16 bits (asserted above).
                    .map(|c| buffers.contributors(tr.dst() as usize, c) as u16),
            );
        }
        let f = &mut self.in_flight[slot as usize];
        f.payload = payload;
        let ((a, b), t) = (f.dependents, f.t);
        self.free_slots.push(slot);
        self.release(t, a as usize..b as usize, now);
    }

    /// One dependency of each node in `range` of `self.dependents`, node `from`'s list, is done:
    /// start those with none left (and release the dependents of a join that is complete).
    fn release(&mut self, from: u32, range: std::ops::Range<usize>, now: f64) {
        let n = self.schedule.len() as u32;
        for k in range {
            let d = self.dependents.get(from, k);
            let waiting = &mut self.nodes.waiting[d as usize];
            *waiting -= 1;
            if *waiting == 0 {
                if d < n {
                    self.ready(d, now);
                } else {
                    // Joins wait only for transfers, so this goes one level deep.
                    self.release(d, self.nodes.starts.range(d as usize), now);
                }
            }
        }
    }
}

/// Per node (transfers `0..n`, then join j as `n + j`): how many dependencies it waits for, and in
/// CSR form who waits for it. A join enters its members' lists where the first transfer that waits
/// for it would have, had that transfer listed the members itself: transfers become ready in the
/// same order either way. Built a bounded number of transfers at a time ([`ReverseDeps::step`]).
struct ReverseDeps {
    nodes: Nodes,
    dependents: Dependents,
    /// Whether every edge seen so far goes forward by at most `u16::MAX` ids (see [`Dependents`]).
    near: bool,
    /// Pass 0 counts each node's dependents here (node i's at `i + 1`) and sums them into
    /// starts; pass 1 fills each list from its start on.
    fill: Vec<u32>,
    seen: Vec<bool>,
    /// What the reverse index cannot give back in order (see [`Kept`]), kept only where the
    /// schedule's lists are to be rebuilt from the index.
    kept: Kept,
    keep: bool,
    /// Pass 0 counts, pass 1 fills; both visit edges in the same order. 2 when done.
    pass: u8,
    /// The next transfer of this pass.
    t: usize,
}

impl ReverseDeps {
    fn new(schedule: &Schedule, keep: bool) -> ReverseDeps {
        let nodes = schedule.len() + schedule.joins();
        ReverseDeps {
            nodes: Nodes {
                waiting: huge_pages::filled(nodes, 0),
                starts: Starts::new(),
            },
            dependents: Dependents::Far(Vec::new()),
            near: true,
            fill: huge_pages::filled(nodes + 1, 0),
            seen: vec![false; schedule.joins()],
            kept: Kept {
                near: schedule.deps_are_near(),
                ..Kept::default()
            },
            keep,
            pass: 0,
            t: 0,
        }
    }

    /// Visits at least `max` transfers' edges (or to the end); `true` once the index is built.
    fn step(&mut self, schedule: &Schedule, max: usize) -> bool {
        let n = schedule.len();
        let mut left = max;
        while self.pass < 2 && left > 0 {
            let end = n.min(self.t.saturating_add(left));
            left -= end - self.t;
            let pass = self.pass;
            let (nodes, dependents, fill, seen, near) = (
                &mut self.nodes,
                &mut self.dependents,
                &mut self.fill,
                &mut self.seen,
                &mut self.near,
            );
            let mut edge = |from: usize, to: u32| {
                if pass == 0 {
                    fill[from + 1] += 1;
                    *near &= Dependents::fits(from, to);
                } else {
                    dependents.set(fill[from] as usize, from, to);
                    fill[from] += 1;
                }
            };
            for t in self.t..end {
                // Where the list is, found once.
                let deps = schedule.deps(t);
                if pass == 0 {
                    // At most `MAX_DEPS`, which the schedule's builder checks.
                    nodes.waiting[t] = deps.len() as u16;
                    if self.keep && !deps.clone().is_sorted() {
                        self.kept.keep(t, deps.clone());
                    }
                }
                for d in deps {
                    let node = if d & JOIN != 0 {
                        let j = (d & !JOIN) as usize;
                        if !seen[j] {
                            seen[j] = true;
                            for &m in schedule.join_members(j) {
                                edge(m as usize, (n + j) as u32);
                            }
                        }
                        n + j
                    } else {
                        d as usize
                    };
                    edge(node, t as u32);
                }
            }
            self.t = end;
            if self.t == n {
                self.end_pass(schedule);
                // A pass's end is worth one transfer, so that an empty schedule finishes.
                left = left.saturating_sub(1);
            }
        }
        self.pass == 2
    }

    fn end_pass(&mut self, schedule: &Schedule) {
        let (n, nodes) = (schedule.len(), schedule.len() + schedule.joins());
        if self.pass == 0 {
            for j in 0..schedule.joins() {
                let members = schedule.join_members(j);
                self.nodes.waiting[n + j] = members.len() as u16;
                if !self.keep {
                    continue;
                }
                if !self.seen[j] {
                    // No transfer waits for it: the reverse index has no trace of it.
                    self.kept.unreferenced.push((
                        j as u32,
                        self.kept.items.len() as u32,
                        members.len() as u32,
                    ));
                    self.kept.items.extend_from_slice(members);
                } else if !members.is_sorted() {
                    self.kept.keep(n + j, members.iter().copied());
                }
            }
            for i in 0..nodes {
                self.fill[i + 1] += self.fill[i];
            }
            self.nodes.starts = Starts::from_slice(&self.fill);
            let edges = self.fill[nodes] as usize;
            self.dependents = if self.near {
                Dependents::Near(huge_pages::filled(edges, 0))
            } else {
                Dependents::Far(huge_pages::filled(edges, 0))
            };
            self.seen.iter_mut().for_each(|s| *s = false);
        } else {
            // The index is built: its scratch goes.
            self.fill = Vec::new();
            self.seen = Vec::new();
        }
        self.pass += 1;
        self.t = 0;
    }

    fn progress(&self, schedule: &Schedule) -> (usize, usize) {
        let n = schedule.len();
        ((self.pass as usize * n + self.t).min(2 * n), 2 * n)
    }
}

/// Who waits for each node, its list at `Node::start..` of the next node's start. A dependency
/// names an earlier transfer, so an edge between transfers goes forward; where every edge goes
/// forward by at most `u16::MAX` ids (a ring: a step's N transfers on), each is kept as that
/// distance in 2 B instead of the id in 4 (a 1024-rank ring's 4.2 M edges: 16.8 → 8.4 MB). A
/// join some transfer waits for adds an edge back (from the join's node, numbered after every
/// transfer), so such a schedule keeps ids.
enum Dependents {
    Near(Vec<u16>),
    Far(Vec<u32>),
}

impl Dependents {
    /// Whether an edge from node `from` to node `to` can be kept as a distance.
    fn fits(from: usize, to: u32) -> bool {
        // 1..=u16::MAX, in one comparison.
        (to as usize).wrapping_sub(from).wrapping_sub(1) < usize::from(u16::MAX)
    }

    /// Entry `k`, which is in node `from`'s list.
    #[inline]
    fn get(&self, from: u32, k: usize) -> u32 {
        match self {
            Dependents::Near(v) => from + u32::from(v[k]),
            Dependents::Far(v) => v[k],
        }
    }

    /// Makes entry `k`, in node `from`'s list, name node `to` (which [`fits`](Self::fits) if near).
    fn set(&mut self, k: usize, from: usize, to: u32) {
        match self {
            Dependents::Near(v) => v[k] = (to as usize - from) as u16,
            Dependents::Far(v) => v[k] = to,
        }
    }

    fn prefetch(&self, k: usize) {
        match self {
            Dependents::Near(v) => prefetch(v, k),
            Dependents::Far(v) => prefetch(v, k),
        }
    }
}

/// The dependency lists that the reverse index alone does not give back as they were. Read back
/// from the reverse index, a transfer's dependencies (and a join's members) come out in
/// increasing order; those that were not are kept here as they were, and so are the members of
/// joins that no transfer waits for (the index has no edge of theirs). A ring keeps one list per
/// step (the first rank's, whose predecessor has the largest id).
#[derive(Default)]
struct Kept {
    /// Whether the schedule kept its transfers' entries as distances (see [`Entries`]).
    near: bool,
    /// Per list: node (transfer t, or n + j for join j), start in `items`, length.
    reordered: Vec<(u32, u32, u32)>,
    /// Per join no transfer waits for: the join, start in `items`, length.
    unreferenced: Vec<(u32, u32, u32)>,
    items: Vec<u32>,
}

impl Kept {
    fn keep(&mut self, node: usize, list: impl ExactSizeIterator<Item = u32>) {
        self.reordered
            .push((node as u32, self.items.len() as u32, list.len() as u32));
        self.items.extend(list);
    }
}

/// The schedule's dependency lists rebuilt from the run's reverse index (`start`, `dependents`
/// over the `n` transfers and `joins` joins) and what was kept: the very lists the schedule had,
/// a bounded piece at a time. CSR: a first pass counts each list's length (the transfers' in the
/// nodes' `waiting`, no longer needed), a second fills them, each transfer's count, from 0 again,
/// serving as its fill cursor; a join's start serves as its cursor, ending as the list's end, so
/// the joins' starts shift back. The reverse index goes as soon as it is read, so that the lists
/// never stand beside all of it (the peak of a 1024-rank ring's run with details: 207.8 → 199.7 MB).
struct ForwardLists {
    n: usize,
    joins: usize,
    nodes: Nodes,
    dependents: Dependents,
    /// Transfer t's list starts at `dep_start.get(t)`.
    dep_start: Starts,
    join_start: Vec<u32>,
    deps: Entries,
    members: Vec<u32>,
    /// The pass under way, and the next node it reads.
    pass: Pass,
    next: usize,
}

/// The passes of [`ForwardLists`] over the reverse index.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Pass {
    Count,
    Fill,
    Done,
}

impl ForwardLists {
    fn new(n: usize, joins: usize, mut nodes: Nodes, dependents: Dependents) -> ForwardLists {
        nodes.waiting[..n].fill(0);
        ForwardLists {
            n,
            joins,
            nodes,
            dependents,
            dep_start: Starts::new(),
            join_start: vec![0u32; joins + 1],
            deps: Entries::default(),
            members: Vec::new(),
            pass: Pass::Count,
            next: 0,
        }
    }

    /// Reads at most `max` nodes' dependents (at the end of the first pass, also sums the
    /// counts: one more item per node); `true` once both passes are done.
    fn step(&mut self, max: usize, kept: &Kept) -> bool {
        let (n, joins) = (self.n, self.joins);
        let end = (n + joins).min(self.next.saturating_add(max.max(1)));
        match self.pass {
            Pass::Count => {
                for u in self.next..end {
                    for k in self.nodes.starts.range(u) {
                        let d = self.dependents.get(u as u32, k) as usize;
                        if d < n {
                            self.nodes.waiting[d] += 1;
                        } else {
                            self.join_start[d - n + 1] += 1;
                        }
                    }
                }
                self.next = end;
                if end < n + joins {
                    return false;
                }
                for &(j, _, len) in &kept.unreferenced {
                    self.join_start[j as usize + 1] = len;
                }
                // Each transfer's list starts after the lists before it; its count goes back to
                // 0, to count the entries filled.
                let mut at = 0u32;
                self.dep_start = Starts::with_capacity(n + 1);
                for waiting in &mut self.nodes.waiting[..n] {
                    self.dep_start.push(at);
                    at += u32::from(std::mem::take(waiting));
                }
                self.dep_start.push(at);
                for j in 0..joins {
                    self.join_start[j + 1] += self.join_start[j];
                }
                self.deps = Entries::zeroed(kept.near, at as usize);
                self.members = vec![0u32; self.join_start[joins] as usize];
                self.pass = Pass::Fill;
                self.next = 0;
                false
            }
            Pass::Fill => {
                for u in self.next..end {
                    let entry = if u < n {
                        u as u32
                    } else {
                        JOIN | (u - n) as u32
                    };
                    for k in self.nodes.starts.range(u) {
                        let d = self.dependents.get(u as u32, k) as usize;
                        if d < n {
                            let filled = &mut self.nodes.waiting[d];
                            let at = self.dep_start.get(d) as usize + usize::from(*filled);
                            self.deps.set(at, d as u32, entry);
                            *filled += 1;
                        } else {
                            let j = d - n;
                            self.members[self.join_start[j] as usize] = u as u32;
                            self.join_start[j] += 1;
                        }
                    }
                }
                self.next = end;
                if end < n + joins {
                    return false;
                }
                self.dependents = Dependents::Far(Vec::new());
                self.pass = Pass::Done;
                true
            }
            Pass::Done => true,
        }
    }

    /// Nodes read, and to read in both passes.
    fn progress(&self) -> (usize, usize) {
        let total = self.n + self.joins;
        let done = match self.pass {
            Pass::Count => self.next,
            Pass::Fill => total + self.next,
            Pass::Done => 2 * total,
        };
        (done, 2 * total)
    }

    /// The lists once [`step`](Self::step) is done, with the kept lists put back as they were.
    fn finish(self, kept: &Kept) -> DepLists {
        assert!(self.pass == Pass::Done, "both passes are done");
        let (n, joins) = (self.n, self.joins);
        drop(self.nodes);
        let (mut deps, mut members, mut join_start) = (self.deps, self.members, self.join_start);
        for &(j, from, len) in &kept.unreferenced {
            let (j, from, len) = (j as usize, from as usize, len as usize);
            let at = join_start[j] as usize;
            members[at..at + len].copy_from_slice(&kept.items[from..from + len]);
            join_start[j] += len as u32;
        }
        // Each join's cursor is now its list's end, the next list's start.
        let dep_start = self.dep_start;
        join_start.copy_within(0..joins, 1);
        join_start[0] = 0;
        for &(node, from, len) in &kept.reordered {
            let (node, from, len) = (node as usize, from as usize, len as usize);
            let items = &kept.items[from..from + len];
            if node < n {
                for (k, &d) in dep_start.range(node).zip(items) {
                    deps.set(k, node as u32, d);
                }
            } else {
                let j = node - n;
                members[join_start[j] as usize..join_start[j + 1] as usize].copy_from_slice(items);
            }
        }
        DepLists {
            dep_start,
            deps,
            join_start,
            join_members: members,
        }
    }
}

/// A run being prepared a bounded piece at a time (its dependency index, its buffers, its
/// per-transfer records), so that a caller that must stay responsive can prepare a large run
/// between frames. [`Run::new`] is this, run to the end.
///
/// ```
/// use allreduce_sim::{algorithms::{self, Algorithm}, run::*, topology::*, units::*};
/// let topo = Topology::new(&TopologySpec::Uniform {
///     ranks: 16, bandwidth: Bandwidth::from_gbytes_per_sec(1.0), latency_secs: 1e-6 }).unwrap();
/// let schedule = algorithms::schedule(Algorithm::Ring, &topo, 1 << 20, 1);
/// let mut preparing = PreparingRun::new(&topo, schedule.clone(), &RunOptions::default());
/// while !preparing.step(50) {
///     let (done, total) = preparing.progress();
///     assert!(done < total);
/// }
/// let whole = run(&topo, schedule, &RunOptions::default());
/// assert_eq!(preparing.finish().finish().time_secs, whole.time_secs);
/// ```
pub struct PreparingRun {
    topo: Topology,
    /// Filled while counting each link's transfers; the run goes on with it.
    routes: RouteCache,
    schedule: Schedule,
    options: RunOptions,
    deps: ReverseDeps,
    buffers: Buffers,
    timings: Timings,
    /// With details: the transfers counted so far, how many cross each link and how many cell
    /// changes they make, so that the run's records are allocated once, not grown (a large
    /// vector grown by doubling copies itself in one piece; thousands of link timelines grown in
    /// step all copy in the same slice).
    counted: usize,
    link_transfers: Vec<usize>,
    cell_changes: usize,
    /// When each rank joins (see [`Run::with_start_delays`]).
    start_delays: Vec<f64>,
    /// The schedule's joins; with details its dependency lists are taken out once the reverse
    /// index holds them (the buffers and records allocated after do not meet them at the peak).
    joins: usize,
}

impl PreparingRun {
    /// Starts preparing a run of `schedule` on `topo` (see [`PreparingRun::step`]); nothing is indexed yet.
    ///
    /// ```
    /// use allreduce_sim::{algorithms::{self, Algorithm}, run::*, topology::*, units::Bandwidth};
    /// let topo = Topology::new(&TopologySpec::Uniform {
    ///     ranks: 4, bandwidth: Bandwidth::from_gbytes_per_sec(1.0), latency_secs: 0.0 }).unwrap();
    /// let schedule = algorithms::schedule(Algorithm::Ring, &topo, 4_000_000, 1);
    /// let prep = PreparingRun::new(&topo, schedule, &RunOptions::default());
    /// let (done, total) = prep.progress();
    /// assert!(done == 0 && total > 0);
    /// ```
    pub fn new(topo: &Topology, schedule: Schedule, options: &RunOptions) -> PreparingRun {
        PreparingRun::with_start_delays(topo, schedule, options, &[])
    }

    /// Prepares the run of [`Run::with_start_delays`].
    pub fn with_start_delays(
        topo: &Topology,
        schedule: Schedule,
        options: &RunOptions,
        start_delays: &[f64],
    ) -> PreparingRun {
        let n = schedule.len();
        PreparingRun {
            routes: RouteCache::new(topo),
            topo: topo.clone(),
            // Without details the schedule keeps its lists (see `step`), so the index need not
            // give them back.
            deps: ReverseDeps::new(&schedule, options.record_details),
            buffers: Buffers::start(topo.ranks(), schedule.chunks()),
            // Done after the last byte only where a reduction takes time.
            timings: Timings::recording(n, options.gamma_secs_per_byte > 0.0),
            counted: if options.record_details { 0 } else { n },
            link_transfers: vec![0; topo.links().len()],
            cell_changes: 0,
            start_delays: start_delays.to_vec(),
            joins: schedule.joins(),
            schedule,
            options: options.clone(),
        }
    }

    /// Does about `max` items of work (a transfer's edges, a buffer cell, a transfer's record;
    /// at most three times `max` where one stage ends and the next begins); `true` once
    /// [`finish`](Self::finish) has nothing left to do.
    ///
    /// ```
    /// use allreduce_sim::{algorithms::{self, Algorithm}, run::*, topology::*, units::Bandwidth};
    /// let topo = Topology::new(&TopologySpec::Uniform {
    ///     ranks: 4, bandwidth: Bandwidth::from_gbytes_per_sec(1.0), latency_secs: 0.0 }).unwrap();
    /// let schedule = algorithms::schedule(Algorithm::Ring, &topo, 4_000_000, 1);
    /// let mut prep = PreparingRun::new(&topo, schedule, &RunOptions::default());
    /// let mut slices = 1;
    /// while !prep.step(8) { slices += 1; }
    /// assert!(slices > 1);
    /// assert!((prep.finish().finish().time_secs - 6e-3).abs() < 1e-12);
    /// ```
    pub fn step(&mut self, max: usize) -> bool {
        if !self.deps.step(&self.schedule, max) {
            return false;
        }
        if self.options.record_details
            && (self.schedule.dependency_count() > 0 || self.schedule.joins() > 0)
        {
            // The reverse index holds every edge: the forward lists wait for the run's end
            // (perf: on a 1024-rank ring with details they were 25 MB of the peak). Without
            // details the peak is lower by far, and the lists stay where they are: rebuilding
            // them from the index at the end was 9 % of the benchmark's 1024-rank ring.
            drop(self.schedule.take_deps());
        }
        if !self.buffers.fill(max) {
            return false;
        }
        let n = self.schedule.len();
        let more = (n - self.timings.len()).min(max);
        self.timings.extend_zero(more);
        if self.timings.len() < n {
            return false;
        }
        let end = n.min(self.counted.saturating_add(max));
        for t in self.counted..end {
            let tr = self.schedule.transfer(t);
            for &l in self.routes.route(&self.topo, tr.src(), tr.dst()).links() {
                self.link_transfers[l as usize] += 1;
            }
            self.cell_changes += tr.chunks().len();
        }
        self.counted = end;
        self.counted == n
    }

    /// The transfers of the run being prepared.
    ///
    /// ```
    /// use allreduce_sim::{algorithms::{self, Algorithm}, run::*, topology::*, units::Bandwidth};
    /// let topo = Topology::new(&TopologySpec::Uniform {
    ///     ranks: 4, bandwidth: Bandwidth::from_gbytes_per_sec(1.0), latency_secs: 0.0 }).unwrap();
    /// let schedule = algorithms::schedule(Algorithm::Ring, &topo, 4_000, 1);
    /// assert_eq!(PreparingRun::new(&topo, schedule, &RunOptions::default()).transfers(), 24);
    /// ```
    pub fn transfers(&self) -> usize {
        self.schedule.len()
    }

    /// Items done, and in all.
    ///
    /// ```
    /// use allreduce_sim::{algorithms::{self, Algorithm}, run::*, topology::*, units::Bandwidth};
    /// let topo = Topology::new(&TopologySpec::Uniform {
    ///     ranks: 4, bandwidth: Bandwidth::from_gbytes_per_sec(1.0), latency_secs: 0.0 }).unwrap();
    /// let schedule = algorithms::schedule(Algorithm::Ring, &topo, 4_000, 1);
    /// let mut prep = PreparingRun::new(&topo, schedule, &RunOptions::default());
    /// while !prep.step(5) {
    ///     let (done, total) = prep.progress();
    ///     assert!(done < total);
    /// }
    /// let (done, total) = prep.progress();
    /// assert_eq!(done, total);
    /// ```
    pub fn progress(&self) -> (usize, usize) {
        let (deps, deps_total) = self.deps.progress(&self.schedule);
        let cells = self.topo.ranks() * self.schedule.chunks();
        let n = self.schedule.len();
        let (counted, to_count) = if self.options.record_details {
            (self.counted, n)
        } else {
            (0, 0)
        };
        (
            deps + self.buffers.filled() + self.timings.len() + counted,
            deps_total + cells + n + to_count,
        )
    }

    /// Does what is left and returns the run, ready to [`step`](Run::step).
    ///
    /// ```
    /// use allreduce_sim::{algorithms::{self, Algorithm}, run::*, topology::*, units::Bandwidth};
    /// let topo = Topology::new(&TopologySpec::Uniform {
    ///     ranks: 4, bandwidth: Bandwidth::from_gbytes_per_sec(1.0), latency_secs: 0.0 }).unwrap();
    /// let schedule = algorithms::schedule(Algorithm::Ring, &topo, 4_000, 1);
    /// let run = PreparingRun::new(&topo, schedule, &RunOptions::default()).finish();
    /// assert_eq!(run.progress(), (0, 24)); // ready, nothing moved yet
    /// ```
    pub fn finish(mut self) -> Run {
        while !self.step(super::FINISH_SLICE) {}
        Run::assemble(self)
    }
}

/// Runs `schedule` on `topo` and reports what happened. The run checks the buffers at the end:
/// `trace.verification` says whether every rank holds every contribution exactly once.
///
/// ```
/// use allreduce_sim::{algorithms::{self, Algorithm}, run::*, topology::*, units::Bandwidth};
/// let topo = Topology::new(&TopologySpec::Uniform {
///     ranks: 8, bandwidth: Bandwidth::from_gbytes_per_sec(1.0), latency_secs: 1e-6 }).unwrap();
/// let trace = run(&topo, algorithms::schedule(Algorithm::RecursiveDoubling, &topo, 1_000_000, 1),
///     &RunOptions::default());
/// // Recursive doubling: log₂N rounds of α + S/B.
/// assert!((trace.time_secs - 3.0 * (1e-6 + 1e-3)).abs() < 1e-12);
/// assert!(trace.verified());
/// ```
pub fn run(topo: &Topology, schedule: Schedule, options: &RunOptions) -> Trace {
    Run::new(topo, schedule, options).finish()
}

impl Run {
    /// Prepares a run; nothing has happened yet.
    ///
    /// ```
    /// use allreduce_sim::{algorithms::{self, Algorithm}, run::*, topology::*, units::Bandwidth};
    /// let topo = Topology::new(&TopologySpec::Uniform {
    ///     ranks: 4, bandwidth: Bandwidth::from_gbytes_per_sec(1.0), latency_secs: 0.0 }).unwrap();
    /// let schedule = algorithms::schedule(Algorithm::Ring, &topo, 4_000_000, 1);
    /// let trace = Run::new(&topo, schedule, &RunOptions::default()).finish();
    /// assert!((trace.time_secs - 6e-3).abs() < 1e-12);
    /// ```
    pub fn new(topo: &Topology, schedule: Schedule, options: &RunOptions) -> Run {
        Run::with_start_delays(topo, schedule, options, &[])
    }

    /// Prepares a run in which rank `r` joins at `start_delays[r]` seconds (missing or 0: at
    /// once): no transfer to or from it starts earlier.
    ///
    /// ```
    /// use allreduce_sim::{algorithms::{self, Algorithm}, run::*, topology::*, units::*};
    /// let topo = Topology::new(&TopologySpec::Uniform {
    ///     ranks: 4, bandwidth: Bandwidth::from_gbytes_per_sec(1.0), latency_secs: 0.0 }).unwrap();
    /// let schedule = algorithms::schedule(Algorithm::Ring, &topo, 4_000_000, 1);
    /// let late = Run::with_start_delays(&topo, schedule, &RunOptions::default(), &[0.0, 1e-3]).finish();
    /// // The ring waits for rank 1 once: 6 ms of streaming after 1 ms of waiting.
    /// assert!((late.time_secs - 7e-3).abs() < 1e-12);
    /// ```
    pub fn with_start_delays(
        topo: &Topology,
        schedule: Schedule,
        options: &RunOptions,
        start_delays: &[f64],
    ) -> Run {
        PreparingRun::with_start_delays(topo, schedule, options, start_delays).finish()
    }

    /// The run `prep` prepared; the transfers that wait for nothing start.
    fn assemble(prep: PreparingRun) -> Run {
        let PreparingRun {
            topo,
            routes,
            schedule,
            options,
            deps,
            buffers,
            timings,
            link_transfers,
            cell_changes,
            start_delays,
            joins,
            ..
        } = prep;
        let n = schedule.len();
        let capacities: Vec<f64> = topo
            .links()
            .iter()
            .map(|l| l.bandwidth.bytes_per_sec())
            .collect();
        let (nodes, dependents) = (deps.nodes, deps.dependents);
        let ranks = topo.ranks();
        let mut net = FlowNetwork::new(&capacities, options.record_details);
        // A transfer changes its links' rates when it starts and when it ends (more often only
        // where flows contend): room for that, as a hint.
        let changes: Vec<usize> = link_transfers.iter().map(|&c| 2 * c + 1).collect();
        net.reserve_timelines(&changes);
        // And for the distinct instants, half a transfer's worth each (a 1024-rank ring has 0.46):
        // grown by doubling instead, their last doubling held 1.5 times their room at once, the
        // peak of that run (4.2 MB above its last event).
        net.reserve_instants(n / 2);
        let mut r = Run {
            step_end_secs: Vec::new(),
            routes,
            topo,
            schedule,
            net,
            capacities,
            now: 0.0,
            gamma: options.gamma_secs_per_byte.max(0.0),
            events: EventQueue::new(),
            nodes,
            dependents,
            joins,
            rebuild_lists: deps.keep,
            kept: deps.kept,
            timings,
            in_flight: Vec::new(),
            free_slots: Vec::new(),
            reducer_free_at: vec![0.0; ranks],
            joins_at: if start_delays.iter().any(|&d| d > 0.0) {
                (0..ranks)
                    .map(|r| start_delays.get(r).copied().unwrap_or(0.0).max(0.0))
                    .collect()
            } else {
                Vec::new()
            },
            buffers,
            traffic: vec![RankTraffic::default(); ranks],
            done: 0,
            error: None,
            cell_changes: options
                .record_details
                .then(|| CellChanges::with_capacity(n, cell_changes)),
            due: Vec::new(),
        };
        for t in 0..n {
            if r.nodes.waiting[t] == 0 {
                r.ready(t as u32, 0.0);
            }
        }
        r
    }

    /// Transfers done so far, and in all.
    ///
    /// ```
    /// use allreduce_sim::{algorithms::{self, Algorithm}, run::*, topology::*, units::Bandwidth};
    /// let topo = Topology::new(&TopologySpec::Uniform {
    ///     ranks: 4, bandwidth: Bandwidth::from_gbytes_per_sec(1.0), latency_secs: 0.0 }).unwrap();
    /// let schedule = algorithms::schedule(Algorithm::Ring, &topo, 4_000, 1);
    /// let mut run = Run::new(&topo, schedule, &RunOptions::default());
    /// while !run.step(1) {}
    /// assert_eq!(run.progress(), (24, 24));
    /// ```
    pub fn progress(&self) -> (usize, usize) {
        (self.done, self.schedule.len())
    }

    /// Link rate changes recorded so far (with details; 0 without).
    ///
    /// ```
    /// use allreduce_sim::{algorithms::{self, Algorithm}, run::*, topology::*, units::*};
    /// let topo = Topology::new(&TopologySpec::Uniform {
    ///     ranks: 4, bandwidth: Bandwidth::from_gbytes_per_sec(1.0), latency_secs: 1e-6 }).unwrap();
    /// let schedule = algorithms::schedule(Algorithm::Ring, &topo, 4_000_000, 1);
    /// let mut sliced = Run::new(&topo, schedule, &RunOptions::default());
    /// assert_eq!(sliced.rate_changes(), 0);
    /// while !sliced.step(10) {}
    /// let recorded = sliced.rate_changes();
    /// let trace = sliced.finish();
    /// assert_eq!(recorded as usize, trace.links.iter().map(|l| l.timeline.len()).sum::<usize>());
    /// ```
    pub fn rate_changes(&self) -> u64 {
        self.net.rate_changes()
    }

    /// Advances the run by at most `max_events` events (each finishes a transfer, starts its
    /// stream, or ends its reduction). Returns `true` once nothing is left to happen.
    ///
    /// ```
    /// use allreduce_sim::{algorithms::{self, Algorithm}, run::*, topology::*, units::*};
    /// let topo = Topology::new(&TopologySpec::Uniform {
    ///     ranks: 8, bandwidth: Bandwidth::from_gbytes_per_sec(1.0), latency_secs: 1e-6 }).unwrap();
    /// let schedule = algorithms::schedule(Algorithm::Ring, &topo, 8_000_000, 1);
    /// let mut sliced = Run::new(&topo, schedule.clone(), &RunOptions::default());
    /// while !sliced.step(10) {}
    /// let whole = run(&topo, schedule, &RunOptions::default());
    /// assert_eq!(sliced.finish().time_secs, whole.time_secs);
    /// ```
    pub fn step(&mut self, max_events: usize) -> bool {
        for _ in 0..max_events {
            if !self.next() {
                return true;
            }
        }
        false
    }

    /// Handles the next event; `false` when there is none.
    fn next(&mut self) -> bool {
        let now = self.now;
        // Everything due now happens before rates are settled again.
        let next_event = self.events.peek_time();
        if let Some(te) = next_event.filter(|&te| te <= now) {
            self.now = max_num(now, te);
            if let Some(ev) = self.events.pop() {
                match ev {
                    Event::FirstByte(slot) => self.first_byte(slot, self.now),
                    Event::Reduced(slot) => self.complete(slot, self.now),
                    Event::Joined(t) => self.ready(t, self.now),
                }
            }
            return true;
        }
        match (next_event, self.net.next_finish_time()) {
            (None, None) => return false,
            (Some(te), Some(tf)) if te <= tf => self.now = te,
            (Some(te), None) => self.now = te,
            (_, Some(_)) => {
                // Every flow due at the earliest finish time, in order, before rates are settled
                // again.
                let mut due = std::mem::take(&mut self.due);
                if let Some(tf) = self.net.take_finishing(&mut due) {
                    self.now = tf;
                    for &s in &due {
                        let in_flight = self.net.id(s);
                        self.net.finish(s, tf);
                        self.arrived(in_flight, tf);
                    }
                }
                due.clear();
                self.due = due;
            }
        }
        true
    }

    /// Runs to the end and reports what happened.
    ///
    /// ```
    /// use allreduce_sim::{algorithms::{self, Algorithm}, run::*, topology::*, units::Bandwidth};
    /// let topo = Topology::new(&TopologySpec::Uniform {
    ///     ranks: 4, bandwidth: Bandwidth::from_gbytes_per_sec(1.0), latency_secs: 0.0 }).unwrap();
    /// let schedule = algorithms::schedule(Algorithm::Ring, &topo, 4_000_000, 1);
    /// let mut run = Run::new(&topo, schedule, &RunOptions::default());
    /// run.step(10);
    /// let trace = run.finish();
    /// assert_eq!(trace.timings.len(), 24);
    /// assert!(trace.verified() && (trace.time_secs - 6e-3).abs() < 1e-12);
    /// ```
    pub fn finish(self) -> Trace {
        self.finishing().finish()
    }

    /// Runs to the last event, then hands over to [`Finishing`], which checks the buffers and
    /// gives the schedule its lists back (with details) a bounded piece at a time (tens of ms at
    /// 1,024 GPUs: a caller that must stay responsive spreads them over frames).
    ///
    /// ```
    /// use allreduce_sim::{algorithms::{self, Algorithm}, run::*, topology::*, units::Bandwidth};
    /// let topo = Topology::new(&TopologySpec::Uniform {
    ///     ranks: 4, bandwidth: Bandwidth::from_gbytes_per_sec(1.0), latency_secs: 0.0 }).unwrap();
    /// let schedule = algorithms::schedule(Algorithm::Ring, &topo, 4_000_000, 1);
    /// let mut finishing = Run::new(&topo, schedule, &RunOptions::default()).finishing();
    /// let mut slices = 1;
    /// while !finishing.step(4) { slices += 1; }
    /// assert!(slices > 1);
    /// let trace = finishing.finish();
    /// assert!(trace.verified() && (trace.time_secs - 6e-3).abs() < 1e-12);
    /// ```
    pub fn finishing(mut self) -> Finishing {
        while !self.step(super::FINISH_SLICE) {}
        Finishing {
            nodes: if self.rebuild_lists {
                self.schedule.len() + self.joins
            } else {
                0
            },
            stage: Finish::Verifying(Box::new(self)),
        }
    }

    /// Checks the buffers and lets go of what only the run needed, before the schedule's lists
    /// come back.
    fn into_lists(mut self: Box<Run>) -> Finish {
        let verification = self.verification();
        drop(std::mem::replace(&mut self.buffers, Buffers::start(0, 0)));
        drop(std::mem::take(&mut self.in_flight));
        if !self.rebuild_lists {
            // The schedule kept its lists; the reverse index goes.
            drop(std::mem::take(&mut self.nodes));
            drop(std::mem::replace(
                &mut self.dependents,
                Dependents::Far(Vec::new()),
            ));
            return Finish::Listed {
                run: self,
                verification,
            };
        }
        let lists = Box::new(ForwardLists::new(
            self.schedule.len(),
            self.joins,
            std::mem::take(&mut self.nodes),
            std::mem::replace(&mut self.dependents, Dependents::Far(Vec::new())),
        ));
        Finish::Lists {
            run: self,
            lists,
            verification,
        }
    }

    /// Runs to the end and returns only when the last transfer was done and whether every rank
    /// ended with every contribution exactly once: [`finish`](Self::finish)'s `time_secs` and
    /// `verification`, without giving the schedule its lists back or keeping any record (what
    /// `auto`'s candidates and the scaling charts' points need).
    ///
    /// ```
    /// use allreduce_sim::{algorithms::{self, Algorithm}, run::*, topology::*, units::Bandwidth};
    /// let topo = Topology::new(&TopologySpec::Uniform {
    ///     ranks: 5, bandwidth: Bandwidth::from_gbytes_per_sec(1.0), latency_secs: 1e-6 }).unwrap();
    /// for alg in Algorithm::CONCRETE {
    ///     let schedule = algorithms::schedule(alg, &topo, 10_000, 2);
    ///     let trace = run(&topo, schedule.clone(), &RunOptions::default());
    ///     let (time_secs, verification) = Run::new(&topo, schedule, &RunOptions::default()).end();
    ///     assert_eq!((time_secs, verification), (trace.time_secs, trace.verification));
    /// }
    /// ```
    pub fn end(mut self) -> (f64, Result<(), String>) {
        while !self.step(super::FINISH_SLICE) {}
        (self.now, self.verification())
    }

    /// Whether the run, at its end, did what its schedule promised: no contribution added twice,
    /// every transfer started, every rank holding every contribution exactly once.
    fn verification(&mut self) -> Result<(), String> {
        let n = self.schedule.len();
        if let Some(e) = self.error.take() {
            Err(e)
        } else if self.done < n {
            Err(format!(
                "{} of {n} transfers never started: their dependencies form a cycle or wait for nothing",
                n - self.done
            ))
        } else {
            self.buffers.verify()
        }
    }

    /// The trace of a run whose lists are back.
    fn into_trace(mut self, verification: Result<(), String>) -> Trace {
        let now = self.now;
        let busy = self.net.busy_secs(now);
        let bytes = self.net.link_bytes().to_vec();
        let cell_changes = self.cell_changes.take().unwrap_or_default();
        let (timelines, instants) = self.net.into_timelines();
        let mut timelines = timelines.unwrap_or_default().into_iter();
        let links = (0..self.capacities.len())
            .map(|l| LinkReport {
                bytes: bytes[l],
                busy_secs: busy[l],
                timeline: timelines.next().unwrap_or_default(),
            })
            .collect();
        let mut step_end_secs = std::mem::take(&mut self.step_end_secs);
        if self.done < self.schedule.len() {
            // Steps no transfer done reached (a failed run) end at 0, as the others start.
            step_end_secs.resize(self.schedule.steps() as usize, 0.0);
        }
        // Steps overlap in a pipelined schedule; keep the boundaries increasing.
        for i in 1..step_end_secs.len() {
            step_end_secs[i] = step_end_secs[i].max(step_end_secs[i - 1]);
        }
        Trace::from_run(
            self.topo,
            self.schedule,
            self.timings.finish(&instants),
            self.traffic,
            links,
            cell_changes,
            now,
            verification,
            step_end_secs,
        )
    }
}

/// A run at its end, giving the schedule its dependency lists back (with details) a bounded
/// piece at a time (from [`Run::finishing`]); [`Run::finish`] is this, done at once.
pub struct Finishing {
    stage: Finish,
    /// The run's transfers and joins whose lists are rebuilt (none without details).
    nodes: usize,
}

/// Where a [`Finishing`] stands.
enum Finish {
    /// Every event done: the buffers to check.
    Verifying(Box<Run>),
    /// Rebuilding the schedule's lists from the run's reverse index.
    Lists {
        run: Box<Run>,
        lists: Box<ForwardLists>,
        verification: Result<(), String>,
    },
    /// The schedule's lists back: the records to hand to the trace.
    Listed {
        run: Box<Run>,
        verification: Result<(), String>,
    },
    /// The trace.
    Done(Box<Trace>),
    /// Only while a step moves the stage (after a panic, for good).
    Between,
}

impl Finishing {
    /// Does about `max` items of work (a node of the dependency graph in each of two passes over
    /// the reverse index), or one of the pieces between them that go over every transfer once
    /// (checking the buffers, summing the lists' lengths, placing the lists: a few ms each
    /// natively at 1,024 GPUs) or hand the records to the trace; `true` once
    /// [`finish`](Self::finish) has only a few moves left.
    ///
    /// ```
    /// use allreduce_sim::{algorithms::{self, Algorithm}, run::*, topology::*, units::Bandwidth};
    /// let topo = Topology::new(&TopologySpec::Uniform {
    ///     ranks: 5, bandwidth: Bandwidth::from_gbytes_per_sec(1.0), latency_secs: 1e-6 }).unwrap();
    /// let schedule = algorithms::schedule(Algorithm::DoubleBinaryTree, &topo, 5_000, 3);
    /// let whole = run(&topo, schedule.clone(), &RunOptions::default());
    /// let mut finishing = Run::new(&topo, schedule, &RunOptions::default()).finishing();
    /// while !finishing.step(1) {}
    /// assert!(finishing.step(1)); // stays done
    /// let trace = finishing.finish();
    /// assert_eq!(trace.step_end_secs, whole.step_end_secs);
    /// assert!(trace.schedule.deps(7).eq(whole.schedule.deps(7)));
    /// ```
    pub fn step(&mut self, max: usize) -> bool {
        let max = max.max(1);
        self.stage = match std::mem::replace(&mut self.stage, Finish::Between) {
            Finish::Verifying(run) => run.into_lists(),
            Finish::Lists {
                mut run,
                mut lists,
                verification,
            } => {
                if lists.step(max, &run.kept) {
                    run.schedule.put_deps(lists.finish(&run.kept));
                    Finish::Listed { run, verification }
                } else {
                    Finish::Lists {
                        run,
                        lists,
                        verification,
                    }
                }
            }
            Finish::Listed { run, verification } => {
                self.stage = Finish::Done(Box::new(run.into_trace(verification)));
                return true;
            }
            done @ Finish::Done(_) => {
                self.stage = done;
                return true;
            }
            Finish::Between => return true,
        };
        false
    }

    /// Items done, and in all: the lists' two passes over the transfers and joins (with details;
    /// none without), then one for handing the records to the trace.
    ///
    /// ```
    /// use allreduce_sim::{algorithms::{self, Algorithm}, run::*, topology::*, units::Bandwidth};
    /// let topo = Topology::new(&TopologySpec::Uniform {
    ///     ranks: 4, bandwidth: Bandwidth::from_gbytes_per_sec(1.0), latency_secs: 0.0 }).unwrap();
    /// let schedule = algorithms::schedule(Algorithm::Ring, &topo, 4_000, 1);
    /// let mut finishing = Run::new(&topo, schedule, &RunOptions::default()).finishing();
    /// // Two passes over the 24 transfers' dependents, then the trace.
    /// assert_eq!(finishing.progress(), (0, 2 * 24 + 1));
    /// let mut last = 0;
    /// while !finishing.step(3) {
    ///     let (done, total) = finishing.progress();
    ///     assert!(done >= last && done - last <= 3 && done < total);
    ///     last = done;
    /// }
    /// assert_eq!(finishing.progress(), (2 * 24 + 1, 2 * 24 + 1));
    /// ```
    pub fn progress(&self) -> (usize, usize) {
        let lists = 2 * self.nodes;
        let done = match &self.stage {
            Finish::Verifying(_) => 0,
            Finish::Listed { .. } => lists,
            Finish::Lists { lists, .. } => lists.progress().0,
            Finish::Done(_) | Finish::Between => lists + 1,
        };
        (done, lists + 1)
    }

    /// Does what is left and returns the trace.
    ///
    /// ```
    /// use allreduce_sim::{algorithms::{self, Algorithm}, run::*, topology::*, units::Bandwidth};
    /// let topo = Topology::new(&TopologySpec::Uniform {
    ///     ranks: 4, bandwidth: Bandwidth::from_gbytes_per_sec(1.0), latency_secs: 0.0 }).unwrap();
    /// let schedule = algorithms::schedule(Algorithm::Ring, &topo, 4_000_000, 1);
    /// let trace = Run::new(&topo, schedule, &RunOptions::default()).finishing().finish();
    /// assert_eq!(trace.step_end_secs.len(), 6);
    /// assert!((trace.step_end_secs[5] - 6e-3).abs() < 1e-12);
    /// ```
    pub fn finish(mut self) -> Trace {
        while !self.step(super::FINISH_SLICE) {}
        match self.stage {
            Finish::Done(trace) => *trace,
            _ => unreachable!("a finished Finishing holds its trace"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every dependency list and join of two schedules, as the schedules give them.
    fn lists(s: &Schedule) -> (Vec<Vec<u32>>, Vec<Vec<u32>>) {
        (
            (0..s.len()).map(|t| s.deps(t).collect()).collect(),
            (0..s.joins()).map(|j| s.join_members(j).to_vec()).collect(),
        )
    }

    #[test]
    fn the_trace_holds_the_schedules_dependency_lists_as_they_were() {
        use crate::algorithms::{self, Algorithm};
        use crate::schedule::{Phase, ScheduleBuilder};
        use crate::topology::TopologySpec;
        use crate::units::Bandwidth;
        let topo = Topology::new(&TopologySpec::Uniform {
            ranks: 7,
            bandwidth: Bandwidth::from_gbytes_per_sec(1.0),
            latency_secs: 1e-6,
        })
        .unwrap();
        // Every algorithm (the flat tree's joins, the ring's one list out of order per step),
        // with and without details, whole and in slices.
        for alg in Algorithm::CONCRETE {
            let schedule = algorithms::schedule(alg, &topo, 70_000, 3);
            let want = lists(&schedule);
            for details in [false, true] {
                let options = RunOptions {
                    gamma_secs_per_byte: 1e-12,
                    record_details: details,
                };
                let trace = run(&topo, schedule.clone(), &options);
                assert!(trace.verified(), "{alg}");
                assert_eq!(lists(&trace.schedule), want, "{alg}");
                // Each step ends with its latest transfer, and no step before the one before.
                let mut ends = vec![0.0f64; trace.schedule.steps() as usize];
                for (tr, timing) in trace.schedule.transfers().iter().zip(trace.timings.iter()) {
                    let e = &mut ends[tr.step() as usize];
                    *e = e.max(timing.done_secs);
                }
                for i in 1..ends.len() {
                    ends[i] = ends[i].max(ends[i - 1]);
                }
                assert_eq!(trace.step_end_secs, ends, "{alg}");
                assert!(ends.last().is_some_and(|&e| e == trace.time_secs), "{alg}");
                // Run in slices and finished in slices of any size, the same trace.
                for slice in [1, 3, 1_000] {
                    let mut sliced = Run::new(&topo, schedule.clone(), &options);
                    while !sliced.step(3) {}
                    let mut finishing = sliced.finishing();
                    let mut progress = finishing.progress();
                    while !finishing.step(slice) {
                        let now = finishing.progress();
                        assert!(now.1 == progress.1 && now.0 >= progress.0, "{alg}: {now:?}");
                        assert!(
                            now.0 - progress.0 <= slice && now.0 < now.1,
                            "{alg}: {now:?}"
                        );
                        progress = now;
                    }
                    assert_eq!(finishing.progress().0, progress.1, "{alg}");
                    let done = finishing.finish();
                    assert_eq!(lists(&done.schedule), want, "{alg}");
                    assert_eq!(done.step_end_secs, ends, "{alg}");
                    assert_eq!(done.timings, trace.timings, "{alg}");
                    assert_eq!(done.time_secs, trace.time_secs, "{alg}");
                    assert_eq!(done.verification, trace.verification, "{alg}");
                }
            }
        }
        // Joins out of order, one no transfer waits for, lists out of order and a dependency
        // named twice.
        let mut b = ScheduleBuilder::new(4, 1, 100);
        let t: Vec<u32> = (1..4)
            .map(|r| b.add(r, 0, 0..1, Op::Reduce, 0, Phase::Reduce, &[]))
            .collect();
        let late = b.join(&[t[2], t[0], t[1]]);
        let unused = b.join(&[t[1], t[0]]);
        let u = b.add(
            0,
            1,
            0..1,
            Op::Copy,
            1,
            Phase::Broadcast,
            &[late, t[2], t[0]],
        );
        b.add(
            0,
            2,
            0..1,
            Op::Copy,
            1,
            Phase::Broadcast,
            &[u, late, t[1], u],
        );
        let schedule = b.build();
        let want = lists(&schedule);
        assert_eq!(want.1[(unused & !JOIN) as usize], [t[1], t[0]]);
        let trace = run(&topo_of(4), schedule.clone(), &RunOptions::default());
        assert_eq!(lists(&trace.schedule), want);
        // Without details the schedule keeps its lists through the run, and the run is the same.
        let quick = RunOptions {
            record_details: false,
            ..RunOptions::default()
        };
        let kept = run(&topo_of(4), schedule.clone(), &quick);
        assert_eq!(lists(&kept.schedule), want);
        assert_eq!(kept.time_secs.to_bits(), trace.time_secs.to_bits());
        assert_eq!(kept.step_end_secs, trace.step_end_secs);
        // The lists come back whatever the waiting counts, which serve as the fill cursors: a
        // run that stopped early (transfers that never started) leaves them above zero.
        let mut index = ReverseDeps::new(&schedule, true);
        while !index.step(&schedule, 2) {}
        for (k, waiting) in index.nodes.waiting.iter_mut().enumerate() {
            *waiting = (7 * k + 3) as u16;
        }
        let (n, joins) = (schedule.len(), schedule.joins());
        let mut back = ForwardLists::new(n, joins, index.nodes, index.dependents);
        while !back.step(3, &index.kept) {}
        let back = back.finish(&index.kept);
        let mut without = schedule.clone();
        drop(without.take_deps());
        without.put_deps(back);
        assert_eq!(lists(&without), want);
    }

    #[test]
    fn the_reverse_index_keeps_distances_while_every_edge_goes_forward_within_16_bits() {
        use crate::algorithms::{self, Algorithm};
        use crate::schedule::{Phase, ScheduleBuilder};
        let near = |s: &Schedule| {
            let mut index = ReverseDeps::new(s, true);
            while !index.step(s, 1 << 20) {}
            matches!(index.dependents, Dependents::Near(_))
        };
        let topo = topo_of(7);
        assert!(near(&algorithms::schedule(
            Algorithm::Ring,
            &topo,
            70_000,
            1
        )));
        // The flat tree's joins: a join's dependents have smaller ids than it.
        assert!(!near(&algorithms::schedule(
            Algorithm::TreeFlat,
            &topo,
            70_000,
            3
        )));
        // Transfer `far` waits for transfer 0 across `far - 1` others: 65,535 ids is the last
        // distance kept in 16 bits. Either way the run waits for it and gives the lists back.
        for (far, kept_near) in [(65_535, true), (65_536, false)] {
            let mut b = ScheduleBuilder::new(2, 1, 100);
            let first = b.add(0, 1, 0..1, Op::Copy, 0, Phase::Broadcast, &[]);
            // The others one after another, so that few flows share the link at once.
            let mut previous = None;
            for _ in 1..far {
                let deps = previous.as_slice();
                previous = Some(b.add(1, 0, 0..1, Op::Copy, 0, Phase::Broadcast, deps));
            }
            let last = b.add(0, 1, 0..1, Op::Copy, 1, Phase::Broadcast, &[first]);
            assert_eq!(last, far);
            let schedule = b.build();
            assert_eq!(near(&schedule), kept_near, "{far}");
            let want = lists(&schedule);
            let trace = run(&topo_of(2), schedule, &RunOptions::default());
            assert_eq!(lists(&trace.schedule), want);
            assert!(trace.timing(last as usize).start_secs >= trace.timing(0).done_secs);
            assert!(trace.timing(last as usize).start_secs > 0.0);
        }
        assert!(Dependents::fits(3, 4) && Dependents::fits(0, 65_535));
        assert!(!Dependents::fits(0, 65_536) && !Dependents::fits(4, 4) && !Dependents::fits(4, 3));
    }

    fn topo_of(ranks: usize) -> Topology {
        use crate::topology::TopologySpec;
        use crate::units::Bandwidth;
        Topology::new(&TopologySpec::Uniform {
            ranks,
            bandwidth: Bandwidth::from_gbytes_per_sec(1.0),
            latency_secs: 0.0,
        })
        .unwrap()
    }

    /// Every algorithm's run on networks where flows contend (a cluster whose nodes share one NIC
    /// and whose racks' uplinks are oversubscribed; a rail network with PXN over an oversubscribed
    /// spine), with and without details: after every instant's rebalance, every streaming flow's
    /// rate is what a progressive filling of the whole network gives (the flow network's own
    /// tests check this on random flows; these are the flows real schedules make, ties and all).
    #[test]
    fn every_instant_of_a_contended_run_has_the_whole_networks_max_min_rates() {
        use crate::algorithms::{self, Algorithm};
        use crate::fixtures;
        use crate::network::tests::CHECK_EVERY_FLUSH;
        use crate::topology::TopologySpec;
        // The fixtures' networks, their uplinks or spine oversubscribed.
        let oversubscribed = |topo: Topology, by: f64| {
            let mut spec = topo.spec().clone();
            if let TopologySpec::Cluster {
                oversubscription, ..
            }
            | TopologySpec::Rail {
                oversubscription, ..
            } = &mut spec
            {
                *oversubscription = by;
            }
            Topology::new(&spec).unwrap()
        };
        let cluster = oversubscribed(fixtures::cluster(2, 2, 4), 2.0);
        let rail = oversubscribed(fixtures::rail(3, 4), 3.0);
        CHECK_EVERY_FLUSH.set(true);
        for topo in [&cluster, &rail] {
            for alg in Algorithm::CONCRETE {
                for details in [false, true] {
                    let schedule = algorithms::schedule(alg, topo, 3 << 20, 4);
                    let options = RunOptions {
                        gamma_secs_per_byte: 0.0,
                        record_details: details,
                    };
                    assert!(run(topo, schedule, &options).verified(), "{alg}");
                }
            }
        }
        CHECK_EVERY_FLUSH.set(false);
    }

    #[test]
    fn the_event_queue_pops_in_time_then_push_order() {
        // Against a heap of (time bits, sequence number): random pushes at a few instants (many
        // equal) interleaved with pops, some instants emptied and pushed to again.
        let mut q = EventQueue::new();
        let mut reference: BinaryHeap<Reverse<(u64, u64, Event)>> = BinaryHeap::new();
        let mut seed = 7u64;
        let mut rand = |n: u64| {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (seed >> 33) % n
        };
        let times = [0.0, 1e-6, 2.5e-6, 2.5e-6 + 1e-9, 1.0, 3.0];
        for seq in 0..20_000u64 {
            if rand(3) == 0 {
                let got = q.pop();
                let want = reference.pop().map(|Reverse((_, _, ev))| ev);
                assert_eq!(got, want, "pop {seq}");
            } else {
                let at = times[rand(times.len() as u64) as usize];
                let ev = match rand(3) {
                    0 => Event::FirstByte(seq as u32),
                    1 => Event::Reduced(seq as u32),
                    _ => Event::Joined(seq as u32),
                };
                q.push(at, ev);
                reference.push(Reverse((at.to_bits(), seq, ev)));
            }
            assert_eq!(
                q.peek_time(),
                reference
                    .peek()
                    .map(|Reverse((bits, _, _))| f64::from_bits(*bits))
            );
        }
        while let Some(Reverse((_, _, ev))) = reference.pop() {
            assert_eq!(q.pop(), Some(ev));
        }
        assert_eq!(q.pop(), None);
    }
}
