//! How a run's per-transfer times and per-link rate timelines are kept: compactly, and exactly.
//!
//! Every time a run records is an instant of its clock, and a large run records the same instant
//! many times (a ring's hundreds of first bytes and rate changes fall on one instant). So the run
//! keeps each distinct instant once, in the order it reached them (`Instants`), and a record
//! names its instant by a 4-byte index instead of an 8-byte time; a link's rates, of which a link
//! sees only a few distinct values, are named by an index into the link's own palette. Reading a
//! record gives back the very `f64`s the run computed, bit for bit.
//!
//! Instants that follow each other closely are kept closer still: a transfer's first and last
//! byte as their distances from its start and its first byte, both in 16 bits (9 and 7) while
//! they fit, else in 16 bits each; a link's changes in blocks of 64, each block's first instant in
//! 4 bytes and every change's distance from it in 2. Either is kept as it is, 4 bytes an instant,
//! once a distance does not fit 16 bits. A link's rates are indexes into the few distinct ones it
//! had, half a byte each.
//!
//! Measured on a 1024-rank ring with details (2.1 M transfers, 9.5 M rate changes, 0.96 M distinct
//! instants): the times went from 32 B to 6 B per transfer and the timelines from 16 B to 2.6 B
//! per change (the instants, 7.7 MB, shared by both).
//!
//! ```
//! use allreduce_sim::{algorithms::{self, Algorithm}, run::*, topology::*, units::Bandwidth};
//! let topo = Topology::new(&TopologySpec::Uniform {
//!     ranks: 4, bandwidth: Bandwidth::from_gbytes_per_sec(1.0), latency_secs: 1e-6 }).unwrap();
//! let trace = run(&topo, algorithms::schedule(Algorithm::Ring, &topo, 4_000_000, 1), &RunOptions::default());
//! let first = trace.timings.get(0);
//! assert_eq!(first.start_secs, 0.0);
//! assert_eq!(first.first_byte_secs, 1e-6); // the route's latency
//! // A link's timeline: streaming at 1 GB/s from the first byte, idle after the last.
//! let tl = &trace.links[0].timeline;
//! assert_eq!(tl.get(0).unwrap().at_secs, 1e-6);
//! assert_eq!(tl.get(0).unwrap().bytes_per_sec, 1e9);
//! assert_eq!(tl.iter().last().unwrap().bytes_per_sec, 0.0);
//! ```

use super::halves;
use super::network::RateChange;
use super::schedule::Schedule;
use super::starts::Starts;
use super::trace::{CellChange, TransferTiming};
use std::ops::Range;
use std::sync::Arc;

/// The distinct instants of a run, in the order it recorded them: index 0 is time 0.
#[derive(Clone, Debug)]
pub(crate) struct Instants(Vec<f64>);

impl Instants {
    pub(crate) fn new() -> Instants {
        Instants(vec![0.0])
    }

    /// Room for `n` more instants, as a hint.
    pub(crate) fn reserve_exact(&mut self, n: usize) {
        self.0.reserve_exact(n);
    }

    /// The index of `now`: the last instant's if `now` is it (the run's clock does not go back,
    /// so a time recorded again is the last one), else a new one's.
    #[inline]
    pub(crate) fn index(&mut self, now: f64) -> u32 {
        let last = self.0.len() - 1;
        if self.0[last].to_bits() == now.to_bits() {
            last as u32
        } else {
            self.0.push(now);
            u32::try_from(last + 1).expect("fewer than 2³² instants in a run within budget")
        }
    }

    /// The instants, shared by the records that index them.
    pub(crate) fn share(mut self) -> Arc<Vec<f64>> {
        self.0.shrink_to_fit();
        Arc::new(self.0)
    }
}

/// A link's rates: by index into its palette while it has seen few distinct rates (half a byte
/// per change: change `i`'s index is in byte `i / 2`, the low half for an even `i`; a last high
/// half of its own is 0), else as they are (8 B per change): a contended link, whose rates take
/// many values, would otherwise need a lookup by value for every change, a cache miss each.
#[derive(Clone, Debug)]
enum Rates {
    Palette(Vec<u8>),
    Raw(Vec<f64>),
}

/// Palette index `i` of the indexes packed in `v` (see [`Rates`]).
fn nibble(v: &[u8], i: usize) -> u8 {
    (v[i / 2] >> (4 * (i % 2))) & 0xF
}

/// Sets palette index `i` of those packed in `v` to `k`, `i` at most one past the last.
fn set_nibble(v: &mut Vec<u8>, i: usize, k: u8) {
    if i % 2 == 0 {
        if i / 2 == v.len() {
            v.push(k);
        } else {
            v[i / 2] = k;
        }
    } else {
        v[i / 2] = (v[i / 2] & 0xF) | k << 4;
    }
}

/// Distinct rates a link's palette holds at most, searched linearly (two cache lines); an index
/// fits half a byte.
const PALETTE: usize = 16;

const NO_RATE: u8 = u8::MAX;

/// One link's total rate over time: a piecewise-constant function, as [`RateChange`]s ordered by
/// time (from each change's `at_secs` on, the link carries its `bytes_per_sec`). Read with
/// [`get`](Self::get), [`iter`](Self::iter) and [`partition_point`](Self::partition_point).
#[derive(Clone)]
pub struct Timeline {
    instants: Arc<Vec<f64>>,
    /// Per change, its instant (indexes into the run's [`Instants`], which never decrease along
    /// it): in [`Starts`] blocks of 64 changes while each spans at most 65,535 instants (2.06 B a
    /// change; a 1024-rank ring's links change 4,092 times each over 963,935 instants, some
    /// 15,000 a block), else 4 B each.
    at: Starts,
    /// Per change, its rate.
    rate: Rates,
    /// The distinct rates, in the order they first appeared (while `rate` indexes them).
    palette: Vec<f64>,
    /// The last two distinct rates used, as (bits, palette index); `NO_RATE` for none.
    recent: [(u64, u8); 2],
}

impl Default for Timeline {
    fn default() -> Self {
        Timeline {
            instants: Arc::default(),
            at: Starts::new(),
            rate: Rates::Palette(Vec::new()),
            palette: Vec::new(),
            recent: [(0, NO_RATE); 2],
        }
    }
}

impl Timeline {
    /// An empty timeline, before the run knows its instants.
    pub(crate) fn recording() -> Timeline {
        Timeline::default()
    }

    pub(crate) fn reserve_exact(&mut self, changes: usize) {
        self.at.reserve_exact(changes);
        if let Rates::Palette(v) = &mut self.rate {
            v.reserve_exact(changes.div_ceil(2));
        }
    }

    /// The palette index of `rate`, or `None` once the link has too many distinct rates (then
    /// its `rated` rates so far are kept as they are, and the next ones too).
    fn palette_index(&mut self, rate: f64, rated: usize) -> Option<u8> {
        let bits = rate.to_bits();
        // A link's rate often returns to one of the last two it had (a flow streams, then none
        // does): found here, in the timeline's own record, without touching its vectors (perf:
        // those loads, a cache miss each, made recording the double binary tree's timelines a
        // fifth slower).
        let [a, b] = self.recent;
        if a.1 != NO_RATE && a.0 == bits {
            return Some(a.1);
        }
        if b.1 != NO_RATE && b.0 == bits {
            self.recent = [b, a];
            return Some(b.1);
        }
        let k = match self.palette.iter().position(|r| r.to_bits() == bits) {
            Some(k) => k as u8,
            None if self.palette.len() < PALETTE => {
                self.palette.push(rate);
                (self.palette.len() - 1) as u8
            }
            None => {
                // Too many: every rate as it is from now on.
                if let Rates::Palette(v) = &self.rate {
                    let mut raw = Vec::with_capacity((2 * v.capacity()).max(2 * rated));
                    raw.extend((0..rated).map(|i| self.palette[nibble(v, i) as usize]));
                    self.rate = Rates::Raw(raw);
                }
                self.palette = Vec::new();
                return None;
            }
        };
        self.recent = [(bits, k), a];
        Some(k)
    }

    /// Asks for the words the next [`push`](Self::push) writes to be brought into the cache.
    #[cfg(target_arch = "x86_64")]
    pub(crate) fn prefetch_tail(&self) {
        use super::prefetch::prefetch;
        let words = self.at.words();
        prefetch(words, words.len().wrapping_sub(1));
        match &self.rate {
            Rates::Palette(v) => prefetch(v, v.len().wrapping_sub(1)),
            Rates::Raw(v) => prefetch(v, v.len().wrapping_sub(1)),
        }
    }

    /// Appends a change at instant `at` (an index into the run's [`Instants`]).
    pub(crate) fn push(&mut self, at: u32, bytes_per_sec: f64) {
        let i = self.at.len();
        self.at.push(at);
        if let Rates::Palette(_) = self.rate {
            if let Some(k) = self.palette_index(bytes_per_sec, i) {
                if let Rates::Palette(v) = &mut self.rate {
                    set_nibble(v, i, k);
                }
                return;
            }
        }
        if let Rates::Raw(v) = &mut self.rate {
            v.push(bytes_per_sec);
        }
    }

    /// Changes the rate of the last change (there is one).
    pub(crate) fn set_last_rate(&mut self, bytes_per_sec: f64) {
        let last = self.at.len().checked_sub(1).expect("a change to update");
        if let Rates::Palette(_) = self.rate {
            if let Some(k) = self.palette_index(bytes_per_sec, self.at.len()) {
                if let Rates::Palette(v) = &mut self.rate {
                    set_nibble(v, last, k);
                }
                return;
            }
        }
        if let Rates::Raw(v) = &mut self.rate {
            *v.last_mut().expect("a change to update") = bytes_per_sec;
        }
    }

    /// The recorded timeline, reading its instants from `instants`.
    pub(crate) fn finish(mut self, instants: &Arc<Vec<f64>>) -> Timeline {
        self.instants = Arc::clone(instants);
        self.at.shrink_to_fit();
        match &mut self.rate {
            Rates::Palette(v) => v.shrink_to_fit(),
            Rates::Raw(v) => v.shrink_to_fit(),
        }
        self.palette.shrink_to_fit();
        self
    }

    /// Bytes this timeline holds on the heap (its share of the instants not counted).
    ///
    /// ```
    /// use allreduce_sim::{algorithms::{self, Algorithm}, run::*, topology::*, units::Bandwidth};
    /// let topo = Topology::new(&TopologySpec::Uniform {
    ///     ranks: 4, bandwidth: Bandwidth::from_gbytes_per_sec(1.0), latency_secs: 1e-6 }).unwrap();
    /// let trace = run(&topo, algorithms::schedule(Algorithm::Ring, &topo, 4_000_000, 1), &RunOptions::default());
    /// let tl = &trace.links[0].timeline;
    /// // 2 B for each change's instant (and 4 B for each block's first), half a byte for its
    /// // rate's palette index, and the palette's distinct rates (here the link's full rate and 0).
    /// assert!(tl.heap_bytes() >= 2 * tl.len() + tl.len().div_ceil(2) + 4 + 8 * 2);
    /// ```
    pub fn heap_bytes(&self) -> usize {
        self.at.heap_bytes()
            + match &self.rate {
                Rates::Palette(v) => v.capacity(),
                Rates::Raw(v) => v.capacity() * 8,
            }
            + self.palette.capacity() * 8
    }

    /// How many changes.
    ///
    /// ```
    /// use allreduce_sim::{algorithms::{self, Algorithm}, run::*, topology::*, units::Bandwidth};
    /// let topo = Topology::new(&TopologySpec::Uniform {
    ///     ranks: 4, bandwidth: Bandwidth::from_gbytes_per_sec(1.0), latency_secs: 1e-6 }).unwrap();
    /// let trace = run(&topo, algorithms::schedule(Algorithm::Ring, &topo, 4_000_000, 1), &RunOptions::default());
    /// let tl = &trace.links[0].timeline; // rank 0's port: on, then off, for each of 6 steps
    /// assert_eq!(tl.len(), tl.iter().count());
    /// assert!(tl.len() >= 2);
    /// ```
    pub fn len(&self) -> usize {
        self.at.len()
    }

    /// Whether the link's rate never changed (or was not recorded).
    ///
    /// ```
    /// use allreduce_sim::{algorithms::{self, Algorithm}, run::*, topology::*, units::Bandwidth};
    /// let topo = Topology::new(&TopologySpec::Uniform {
    ///     ranks: 4, bandwidth: Bandwidth::from_gbytes_per_sec(1.0), latency_secs: 1e-6 }).unwrap();
    /// let trace = run(&topo, algorithms::schedule(Algorithm::Ring, &topo, 4_000_000, 1), &RunOptions::default());
    /// let tl = &trace.links[0].timeline; // rank 0's port: on, then off, for each of 6 steps
    /// assert!(!tl.is_empty());
    /// ```
    pub fn is_empty(&self) -> bool {
        self.at.len() == 0
    }

    fn at_secs(&self, i: usize) -> f64 {
        self.instants[self.at.get(i) as usize]
    }

    /// Change `i`, if there is one.
    ///
    /// ```
    /// use allreduce_sim::{algorithms::{self, Algorithm}, run::*, topology::*, units::Bandwidth};
    /// let topo = Topology::new(&TopologySpec::Uniform {
    ///     ranks: 4, bandwidth: Bandwidth::from_gbytes_per_sec(1.0), latency_secs: 1e-6 }).unwrap();
    /// let trace = run(&topo, algorithms::schedule(Algorithm::Ring, &topo, 4_000_000, 1), &RunOptions::default());
    /// let tl = &trace.links[0].timeline; // rank 0's port: on, then off, for each of 6 steps
    /// assert_eq!(tl.get(0).unwrap().bytes_per_sec, 1e9); // alone on the link: all of it
    /// assert_eq!(tl.get(tl.len()), None);
    /// ```
    pub fn get(&self, i: usize) -> Option<RateChange> {
        (i < self.len()).then(|| RateChange {
            at_secs: self.at_secs(i),
            bytes_per_sec: match &self.rate {
                Rates::Palette(v) => self.palette[nibble(v, i) as usize],
                Rates::Raw(v) => v[i],
            },
        })
    }

    /// The last change.
    ///
    /// ```
    /// use allreduce_sim::{algorithms::{self, Algorithm}, run::*, topology::*, units::Bandwidth};
    /// let topo = Topology::new(&TopologySpec::Uniform {
    ///     ranks: 4, bandwidth: Bandwidth::from_gbytes_per_sec(1.0), latency_secs: 1e-6 }).unwrap();
    /// let trace = run(&topo, algorithms::schedule(Algorithm::Ring, &topo, 4_000_000, 1), &RunOptions::default());
    /// let tl = &trace.links[0].timeline; // rank 0's port: on, then off, for each of 6 steps
    /// let last = tl.last().unwrap();
    /// assert_eq!(last.bytes_per_sec, 0.0); // idle once the run is done
    /// assert_eq!(Some(last), tl.get(tl.len() - 1));
    /// ```
    pub fn last(&self) -> Option<RateChange> {
        self.len().checked_sub(1).and_then(|i| self.get(i))
    }

    /// Every change, in time order.
    ///
    /// ```
    /// use allreduce_sim::{algorithms::{self, Algorithm}, run::*, topology::*, units::Bandwidth};
    /// let topo = Topology::new(&TopologySpec::Uniform {
    ///     ranks: 4, bandwidth: Bandwidth::from_gbytes_per_sec(1.0), latency_secs: 1e-6 }).unwrap();
    /// let trace = run(&topo, algorithms::schedule(Algorithm::Ring, &topo, 4_000_000, 1), &RunOptions::default());
    /// let tl = &trace.links[0].timeline; // rank 0's port: on, then off, for each of 6 steps
    /// let times: Vec<f64> = tl.iter().map(|c| c.at_secs).collect();
    /// assert!(times.windows(2).all(|w| w[0] <= w[1]));
    /// assert_eq!(tl.iter().rev().next(), tl.last());
    /// ```
    pub fn iter(&self) -> TimelineIter<'_> {
        TimelineIter {
            timeline: self,
            front: 0,
            back: self.len(),
        }
    }

    /// The number of leading changes for which `pred` holds (it must hold for a prefix), as
    /// [`slice::partition_point`].
    pub fn partition_point(&self, mut pred: impl FnMut(RateChange) -> bool) -> usize {
        let (mut lo, mut hi) = (0, self.len());
        while lo < hi {
            let mid = lo + (hi - lo) / 2;
            if pred(self.get(mid).expect("in range")) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        lo
    }
}

impl PartialEq for Timeline {
    fn eq(&self, other: &Self) -> bool {
        self.len() == other.len() && self.iter().eq(other.iter())
    }
}

impl std::fmt::Debug for Timeline {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

/// The changes of a [`Timeline`], by value.
#[derive(Clone, Debug)]
pub struct TimelineIter<'a> {
    timeline: &'a Timeline,
    front: usize,
    back: usize,
}

impl Iterator for TimelineIter<'_> {
    type Item = RateChange;
    fn next(&mut self) -> Option<RateChange> {
        if self.front < self.back {
            self.front += 1;
            self.timeline.get(self.front - 1)
        } else {
            None
        }
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.back - self.front;
        (n, Some(n))
    }
}

impl DoubleEndedIterator for TimelineIter<'_> {
    fn next_back(&mut self) -> Option<RateChange> {
        if self.front < self.back {
            self.back -= 1;
            self.timeline.get(self.back)
        } else {
            None
        }
    }
}

impl ExactSizeIterator for TimelineIter<'_> {}

impl<'a> IntoIterator for &'a Timeline {
    type Item = RateChange;
    type IntoIter = TimelineIter<'a>;
    fn into_iter(self) -> TimelineIter<'a> {
        self.iter()
    }
}

/// When every transfer moved ([`TransferTiming`] per transfer), by instant index: 6 bytes a
/// transfer, 4 more where reductions cost time (γ > 0) and a transfer can be done after its last
/// byte; 2 more for every transfer once any transfer's first byte is more than
/// 2^`FIRST_BITS` (9) − 1 instants after its start or its last more than 2^(16 − `FIRST_BITS`) − 1
/// after its first, and 4 more again once either is more than 65,535.
#[derive(Clone, Default)]
pub struct Timings {
    instants: Arc<Vec<f64>>,
    start: Vec<u32>,
    bytes: Bytes,
    /// Empty when every transfer is done at its last byte.
    done: Vec<u32>,
}

/// The transfers' first and last bytes. On the benchmarks' 1024-rank ring (`benches/common`), a
/// first byte is at most 457 instants after its start (the other transfers' events during its
/// route's latency) and a last byte at most 79 after its first, of 963,935 instants in all: both
/// fit [`Bytes::Small`]. A 64-segment double binary tree's do not (1,741 and 10,610).
#[derive(Clone)]
enum Bytes {
    /// Per transfer, both distances in 16 bits: its first byte's from its start in the low
    /// [`FIRST_BITS`], its last byte's from its first in the rest; two transfers to a word, the
    /// earlier in the low half (a lone last high half is 0).
    Small(Vec<u32>),
    /// Per transfer, its first byte's distance from its start, in instants, in the low 16 bits,
    /// and its last byte's from its first byte in the high 16.
    Gaps(Vec<u32>),
    /// Their instants as they are, once a distance did not fit in 16 bits.
    Wide { first: Vec<u32>, last: Vec<u32> },
}

impl Default for Bytes {
    fn default() -> Self {
        Bytes::Gaps(Vec::new())
    }
}

/// Bits of a [`Bytes::Small`] half that hold the first byte's distance from the start.
const FIRST_BITS: u32 = 9;

/// [`gaps`] in 16 bits ([`Bytes::Small`]), if they fit.
fn small(gaps: u32) -> Option<u32> {
    let (first, last) = (gaps & 0xffff, gaps >> 16);
    (first >> FIRST_BITS == 0 && last >> (16 - FIRST_BITS) == 0)
        .then_some(first | last << FIRST_BITS)
}

/// The [`gaps`] that [`small`] made `half` of.
fn unsmall(half: u32) -> u32 {
    (half & ((1 << FIRST_BITS) - 1)) | (half >> FIRST_BITS) << 16
}

/// The two distances of `first` from `start` and `last` from `first` packed, if they fit.
fn gaps(start: u32, first: u32, last: u32) -> Option<u32> {
    let gap = |a: u32, b: u32| b.checked_sub(a).and_then(|d| u16::try_from(d).ok());
    Some(u32::from(gap(start, first)?) | u32::from(gap(first, last)?) << 16)
}

/// The first and last byte's instants of a transfer that starts at `start`, from its `gaps`.
fn ungap(start: u32, gaps: u32) -> (u32, u32) {
    let first = start + (gaps & 0xffff);
    (first, first + (gaps >> 16))
}

impl Timings {
    /// Room for `n` transfers' times; `done_apart`: a transfer may be done after its last byte.
    pub(crate) fn recording(n: usize, done_apart: bool) -> Timings {
        use super::huge_pages::with_capacity as room;
        Timings {
            instants: Arc::default(),
            start: room(n),
            bytes: Bytes::Small(room(n.div_ceil(2))),
            done: room(if done_apart { n } else { 0 }),
        }
    }

    /// Adds up to `more` transfers, all at time 0, without going beyond the room reserved.
    pub(crate) fn extend_zero(&mut self, more: usize) {
        let apart = self.done.capacity() > 0;
        let zeros = || std::iter::repeat_n(0, more);
        self.start.extend(zeros());
        let n = self.start.len();
        match &mut self.bytes {
            Bytes::Small(w) => w.resize(n.div_ceil(2), 0),
            Bytes::Gaps(g) => g.extend(zeros()),
            Bytes::Wide { first, last } => {
                first.extend(zeros());
                last.extend(zeros());
            }
        }
        if apart {
            self.done.extend(zeros());
        }
    }

    /// Asks for transfer `t`'s entries to be brought into the cache, ahead of [`set`](Self::set).
    pub(crate) fn prefetch(&self, t: usize) {
        use super::prefetch::prefetch;
        prefetch(&self.start, t);
        match &self.bytes {
            Bytes::Small(w) => prefetch(w, t / 2),
            Bytes::Gaps(g) => prefetch(g, t),
            Bytes::Wide { first, last } => {
                prefetch(first, t);
                prefetch(last, t);
            }
        }
        prefetch(&self.done, t);
    }

    /// Sets transfer `t`'s instants: start, first byte, last byte, done.
    pub(crate) fn set(&mut self, t: usize, [start, first, last, done]: [u32; 4]) {
        self.start[t] = start;
        if let Bytes::Small(w) = &mut self.bytes {
            match gaps(start, first, last).and_then(small) {
                Some(x) => halves::set(w, t, x),
                None => self.widen_small(),
            }
        }
        if let Bytes::Gaps(g) = &mut self.bytes {
            match gaps(start, first, last) {
                Some(packed) => g[t] = packed,
                None => self.widen(),
            }
        }
        if let Bytes::Wide { first: f, last: l } = &mut self.bytes {
            f[t] = first;
            l[t] = last;
        }
        if self.done.is_empty() {
            debug_assert_eq!(
                done, last,
                "done apart from the last byte without room for it"
            );
        } else {
            self.done[t] = done;
        }
    }

    /// Keeps both distances in 32 bits from now on (2 B a transfer more).
    #[cold]
    #[inline(never)]
    fn widen_small(&mut self) {
        let Bytes::Small(w) = &self.bytes else {
            return;
        };
        let mut g = super::huge_pages::with_capacity(self.start.capacity());
        g.extend((0..self.start.len()).map(|t| unsmall(halves::get(w, t))));
        self.bytes = Bytes::Gaps(g);
    }

    /// Keeps every first and last byte as it is from now on, in room for as many transfers as
    /// were reserved: the last bytes where the distances were, so that no more than 4 B a
    /// transfer is added, even while it widens (the cost estimate counts 16 B for the times).
    #[cold]
    #[inline(never)]
    fn widen(&mut self) {
        use super::huge_pages::with_capacity as room;
        let Bytes::Gaps(g) = &mut self.bytes else {
            return;
        };
        let mut first = room(g.capacity());
        for (&s, g) in self.start.iter().zip(g.iter_mut()) {
            let (f, l) = ungap(s, *g);
            first.push(f);
            *g = l;
        }
        let last = std::mem::take(g);
        self.bytes = Bytes::Wide { first, last };
    }

    /// Transfer `id`'s first and last byte's instants.
    fn bytes_of(&self, id: usize) -> (u32, u32) {
        match &self.bytes {
            Bytes::Small(w) => ungap(self.start[id], unsmall(halves::get(w, id))),
            Bytes::Gaps(g) => ungap(self.start[id], g[id]),
            Bytes::Wide { first, last } => (first[id], last[id]),
        }
    }

    pub(crate) fn finish(mut self, instants: &Arc<Vec<f64>>) -> Timings {
        self.instants = Arc::clone(instants);
        self
    }

    /// Each transfer's start as an index into the run's distinct instants, which increase: the
    /// indexes order the starts as their times do.
    pub(crate) fn start_instants(&self) -> &[u32] {
        &self.start
    }

    /// How many distinct instants the run has (from 0 on; the times of its transfers are some of
    /// them).
    ///
    /// ```
    /// use allreduce_sim::{algorithms::{self, Algorithm}, run::*, topology::*, units::Bandwidth};
    /// let topo = Topology::new(&TopologySpec::Uniform {
    ///     ranks: 4, bandwidth: Bandwidth::from_gbytes_per_sec(1.0), latency_secs: 1e-6 }).unwrap();
    /// let trace = run(&topo, algorithms::schedule(Algorithm::Ring, &topo, 4_000_000, 1), &RunOptions::default());
    /// // 0, then each of the 6 steps' first byte (α after its start) and end, where the next starts.
    /// assert_eq!(trace.timings.instant_count(), 1 + 2 * 6);
    /// ```
    pub fn instant_count(&self) -> usize {
        self.instants.len()
    }

    /// Bytes the timings hold on the heap (the instants not counted).
    pub fn heap_bytes(&self) -> usize {
        let bytes = match &self.bytes {
            Bytes::Small(w) => w.capacity(),
            Bytes::Gaps(g) => g.capacity(),
            Bytes::Wide { first, last } => first.capacity() + last.capacity(),
        };
        4 * (self.start.capacity() + bytes + self.done.capacity())
    }

    /// How many transfers.
    ///
    /// ```
    /// use allreduce_sim::{algorithms::{self, Algorithm}, run::*, topology::*, units::Bandwidth};
    /// let topo = Topology::new(&TopologySpec::Uniform {
    ///     ranks: 4, bandwidth: Bandwidth::from_gbytes_per_sec(1.0), latency_secs: 1e-6 }).unwrap();
    /// let trace = run(&topo, algorithms::schedule(Algorithm::Ring, &topo, 4_000_000, 1), &RunOptions::default());
    /// assert_eq!(trace.timings.len(), 2 * 4 * 3); // 2(N−1) steps of N transfers
    /// ```
    pub fn len(&self) -> usize {
        self.start.len()
    }

    /// Whether the run had no transfer.
    ///
    /// ```
    /// use allreduce_sim::{algorithms::{self, Algorithm}, run::*, topology::*, units::Bandwidth};
    /// let topo = Topology::new(&TopologySpec::Uniform {
    ///     ranks: 4, bandwidth: Bandwidth::from_gbytes_per_sec(1.0), latency_secs: 1e-6 }).unwrap();
    /// let trace = run(&topo, algorithms::schedule(Algorithm::Ring, &topo, 4_000_000, 1), &RunOptions::default());
    /// assert!(!trace.timings.is_empty());
    /// ```
    pub fn is_empty(&self) -> bool {
        self.start.is_empty()
    }

    /// Transfer `id`'s times. Panics if there is no such transfer.
    ///
    /// ```
    /// use allreduce_sim::{algorithms::{self, Algorithm}, run::*, topology::*, units::Bandwidth};
    /// let topo = Topology::new(&TopologySpec::Uniform {
    ///     ranks: 4, bandwidth: Bandwidth::from_gbytes_per_sec(1.0), latency_secs: 1e-6 }).unwrap();
    /// let trace = run(&topo, algorithms::schedule(Algorithm::Ring, &topo, 4_000_000, 1), &RunOptions::default());
    /// let t = trace.timings.get(0);
    /// assert_eq!((t.start_secs, t.first_byte_secs), (0.0, 1e-6));
    /// assert!(t.first_byte_secs <= t.last_byte_secs && t.last_byte_secs <= t.done_secs);
    /// ```
    pub fn get(&self, id: usize) -> TransferTiming {
        let at = |i: u32| self.instants[i as usize];
        let (first, last) = self.bytes_of(id);
        let last_byte_secs = at(last);
        TransferTiming {
            start_secs: at(self.start[id]),
            first_byte_secs: at(first),
            last_byte_secs,
            done_secs: if self.done.is_empty() {
                last_byte_secs
            } else {
                at(self.done[id])
            },
        }
    }

    /// When transfer `id` was done: [`get`](Self::get)'s `done_secs`, without the other times.
    ///
    /// ```
    /// use allreduce_sim::{algorithms::{self, Algorithm}, run::*, topology::*, units::Bandwidth};
    /// let topo = Topology::new(&TopologySpec::Uniform {
    ///     ranks: 4, bandwidth: Bandwidth::from_gbytes_per_sec(1.0), latency_secs: 1e-6 }).unwrap();
    /// for gamma_secs_per_byte in [0.0, 1e-9] {
    ///     let options = RunOptions { gamma_secs_per_byte, record_details: true };
    ///     let trace = run(&topo, algorithms::schedule(Algorithm::Ring, &topo, 4_000_000, 1), &options);
    ///     for t in 0..trace.timings.len() {
    ///         assert_eq!(trace.timings.done_secs(t), trace.timings.get(t).done_secs);
    ///     }
    /// }
    /// ```
    pub fn done_secs(&self, id: usize) -> f64 {
        let done = if self.done.is_empty() {
            self.bytes_of(id).1
        } else {
            self.done[id]
        };
        self.instants[done as usize]
    }

    /// The last transfer's times.
    ///
    /// ```
    /// use allreduce_sim::{algorithms::{self, Algorithm}, run::*, topology::*, units::Bandwidth};
    /// let topo = Topology::new(&TopologySpec::Uniform {
    ///     ranks: 4, bandwidth: Bandwidth::from_gbytes_per_sec(1.0), latency_secs: 1e-6 }).unwrap();
    /// let trace = run(&topo, algorithms::schedule(Algorithm::Ring, &topo, 4_000_000, 1), &RunOptions::default());
    /// let last = trace.timings.last().unwrap();
    /// assert_eq!(last, trace.timings.get(trace.timings.len() - 1));
    /// ```
    pub fn last(&self) -> Option<TransferTiming> {
        self.len().checked_sub(1).map(|i| self.get(i))
    }

    /// Every transfer's times, in id order.
    ///
    /// ```
    /// use allreduce_sim::{algorithms::{self, Algorithm}, run::*, topology::*, units::Bandwidth};
    /// let topo = Topology::new(&TopologySpec::Uniform {
    ///     ranks: 4, bandwidth: Bandwidth::from_gbytes_per_sec(1.0), latency_secs: 1e-6 }).unwrap();
    /// let trace = run(&topo, algorithms::schedule(Algorithm::Ring, &topo, 4_000_000, 1), &RunOptions::default());
    /// assert_eq!(trace.timings.iter().count(), trace.timings.len());
    /// assert_eq!(trace.timings.iter().nth(5), Some(trace.timings.get(5)));
    /// ```
    pub fn iter(&self) -> TimingsIter<'_> {
        TimingsIter {
            timings: self,
            front: 0,
            back: self.len(),
        }
    }
}

impl PartialEq for Timings {
    fn eq(&self, other: &Self) -> bool {
        self.len() == other.len() && self.iter().eq(other.iter())
    }
}

impl std::fmt::Debug for Timings {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

/// The times of [`Timings`], by value.
#[derive(Clone, Debug)]
pub struct TimingsIter<'a> {
    timings: &'a Timings,
    front: usize,
    back: usize,
}

impl Iterator for TimingsIter<'_> {
    type Item = TransferTiming;
    fn next(&mut self) -> Option<TransferTiming> {
        if self.front < self.back {
            self.front += 1;
            Some(self.timings.get(self.front - 1))
        } else {
            None
        }
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.back - self.front;
        (n, Some(n))
    }
}

impl DoubleEndedIterator for TimingsIter<'_> {
    fn next_back(&mut self) -> Option<TransferTiming> {
        if self.front < self.back {
            self.back -= 1;
            Some(self.timings.get(self.back))
        } else {
            None
        }
    }
}

impl ExactSizeIterator for TimingsIter<'_> {}

impl<'a> IntoIterator for &'a Timings {
    type Item = TransferTiming;
    type IntoIter = TimingsIter<'a>;
    fn into_iter(self) -> TimingsIter<'a> {
        self.iter()
    }
}

/// Every change of a buffer cell's contributor count, in the order the run made them: per
/// transfer done (in the order they were done), one change per chunk it carried, to its receiver.
/// Kept as the transfers' ids in that order and one contributor count per change, in 16 bits (a
/// run has at most 4,096 ranks): 6 bytes a change for one-chunk transfers, instead of 16; read
/// with the schedule that names the transfers' receivers and chunks ([`iter`](Self::iter)).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CellChanges {
    /// The transfers that changed cells, in the order they were done.
    transfers: Vec<u32>,
    /// Per change, the cell's contributor count after it: two to a word, the earlier in the low
    /// half (the high half of a last word of its own is 0).
    counts: Vec<u32>,
    /// How many changes.
    len: usize,
}

impl CellChanges {
    /// Room for `transfers` transfers' `changes` changes.
    pub(crate) fn with_capacity(transfers: usize, changes: usize) -> CellChanges {
        CellChanges {
            transfers: super::huge_pages::with_capacity(transfers),
            counts: super::huge_pages::with_capacity(changes.div_ceil(2)),
            len: 0,
        }
    }

    /// Transfer `t` is done: its chunks' cells now hold `contributors` contributions each, in
    /// chunk order (a transfer that carries no chunk changes nothing).
    pub(crate) fn push(&mut self, t: u32, contributors: impl ExactSizeIterator<Item = u16>) {
        if contributors.len() > 0 {
            self.transfers.push(t);
            for c in contributors {
                halves::push(&mut self.counts, self.len, u32::from(c));
                self.len += 1;
            }
        }
    }

    /// Change `k`'s contributor count.
    fn count(&self, k: usize) -> Option<u32> {
        (k < self.len).then(|| halves::get(&self.counts, k))
    }

    /// Bytes held on the heap.
    pub fn heap_bytes(&self) -> usize {
        4 * (self.transfers.capacity() + self.counts.capacity())
    }

    /// How many changes.
    ///
    /// ```
    /// use allreduce_sim::{algorithms::{self, Algorithm}, run::*, topology::*, units::Bandwidth};
    /// let topo = Topology::new(&TopologySpec::Uniform {
    ///     ranks: 4, bandwidth: Bandwidth::from_gbytes_per_sec(1.0), latency_secs: 1e-6 }).unwrap();
    /// let trace = run(&topo, algorithms::schedule(Algorithm::Ring, &topo, 4_000_000, 1), &RunOptions::default());
    /// let cc = &trace.cell_changes; // a ring: one cell per transfer, on its receiver
    /// assert_eq!(cc.len(), 2 * 4 * 3);
    /// ```
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether no cell changed (or changes were not recorded).
    ///
    /// ```
    /// use allreduce_sim::{algorithms::{self, Algorithm}, run::*, topology::*, units::Bandwidth};
    /// let topo = Topology::new(&TopologySpec::Uniform {
    ///     ranks: 4, bandwidth: Bandwidth::from_gbytes_per_sec(1.0), latency_secs: 1e-6 }).unwrap();
    /// let trace = run(&topo, algorithms::schedule(Algorithm::Ring, &topo, 4_000_000, 1), &RunOptions::default());
    /// let cc = &trace.cell_changes; // a ring: one cell per transfer, on its receiver
    /// assert!(!cc.is_empty());
    /// ```
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The transfers that changed cells, in the order they were done; each made as many changes
    /// as it carries chunks.
    ///
    /// ```
    /// use allreduce_sim::{algorithms::{self, Algorithm}, run::*, topology::*, units::Bandwidth};
    /// let topo = Topology::new(&TopologySpec::Uniform {
    ///     ranks: 4, bandwidth: Bandwidth::from_gbytes_per_sec(1.0), latency_secs: 1e-6 }).unwrap();
    /// let trace = run(&topo, algorithms::schedule(Algorithm::Ring, &topo, 4_000_000, 1), &RunOptions::default());
    /// let cc = &trace.cell_changes; // a ring: one cell per transfer, on its receiver
    /// assert_eq!(cc.transfers().len(), cc.len()); // one chunk each
    /// // Done in time order.
    /// let done: Vec<f64> = cc.transfers().iter().map(|&t| trace.timings.get(t as usize).done_secs).collect();
    /// assert!(done.windows(2).all(|w| w[0] <= w[1]));
    /// ```
    pub fn transfers(&self) -> &[u32] {
        &self.transfers
    }

    /// Every change in order, its transfer's receiver and chunks read from `schedule` (the
    /// schedule of the run that made them).
    ///
    /// ```
    /// use allreduce_sim::{algorithms::{self, Algorithm}, run::*, topology::*, units::Bandwidth};
    /// let topo = Topology::new(&TopologySpec::Uniform {
    ///     ranks: 4, bandwidth: Bandwidth::from_gbytes_per_sec(1.0), latency_secs: 1e-6 }).unwrap();
    /// let trace = run(&topo, algorithms::schedule(Algorithm::Ring, &topo, 4_000_000, 1), &RunOptions::default());
    /// let cc = &trace.cell_changes; // a ring: one cell per transfer, on its receiver
    /// let changes: Vec<_> = cc.iter(&trace.schedule).collect();
    /// assert_eq!(changes.len(), cc.len());
    /// // The first step's changes: each receiver's cell now holds 2 contributions.
    /// assert_eq!(changes[0].contributors, 2);
    /// // The last: every cell ends holding all 4.
    /// assert_eq!(changes.last().unwrap().contributors, 4);
    /// ```
    pub fn iter<'a>(&'a self, schedule: &'a Schedule) -> CellChangeIter<'a> {
        self.iter_from(schedule, CellChangesPos::START)
    }

    /// The changes from `pos` on (a position an iterator over these changes was at, see
    /// [`CellChangeIter::pos`]): resumes where it stopped, without reading what came before.
    ///
    /// ```
    /// use allreduce_sim::{algorithms::{self, Algorithm}, records::CellChangesPos, run::*, topology::*, units::Bandwidth};
    /// let topo = Topology::new(&TopologySpec::Uniform {
    ///     ranks: 4, bandwidth: Bandwidth::from_gbytes_per_sec(1.0), latency_secs: 1e-6 }).unwrap();
    /// let trace = run(&topo, algorithms::schedule(Algorithm::Ring, &topo, 4_000_000, 1), &RunOptions::default());
    /// let cc = &trace.cell_changes;
    /// let mut first = cc.iter(&trace.schedule);
    /// let head: Vec<_> = first.by_ref().take(5).collect();
    /// let pos = first.pos();
    /// assert_eq!(pos.changes_read(), 5);
    /// let tail: Vec<_> = cc.iter_from(&trace.schedule, pos).collect();
    /// let all: Vec<_> = cc.iter(&trace.schedule).collect();
    /// assert_eq!([head, tail].concat(), all);
    /// assert_eq!(cc.iter_from(&trace.schedule, CellChangesPos::START).count(), cc.len());
    /// ```
    pub fn iter_from<'a>(
        &'a self,
        schedule: &'a Schedule,
        pos: CellChangesPos,
    ) -> CellChangeIter<'a> {
        CellChangeIter {
            changes: self,
            schedule,
            pos,
        }
    }
}

/// Where a [`CellChangeIter`] stands, to resume from ([`CellChanges::iter_from`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CellChangesPos {
    /// The next entry of `transfers` to read.
    next_transfer: usize,
    /// The current transfer's next change (its chunk is the next one's).
    current: CellChange,
    chunk_hi: u32,
    /// The next change's index.
    k: usize,
}

impl CellChangesPos {
    /// Before the first change.
    pub const START: CellChangesPos = CellChangesPos {
        next_transfer: 0,
        current: CellChange {
            transfer: 0,
            rank: 0,
            chunk: 0,
            contributors: 0,
        },
        chunk_hi: 0,
        k: 0,
    };

    /// How many changes come before this position.
    ///
    /// ```
    /// use allreduce_sim::records::CellChangesPos;
    /// assert_eq!(CellChangesPos::START.changes_read(), 0);
    /// ```
    pub fn changes_read(&self) -> usize {
        self.k
    }
}

/// The changes of [`CellChanges`], by value.
#[derive(Clone, Debug)]
pub struct CellChangeIter<'a> {
    changes: &'a CellChanges,
    schedule: &'a Schedule,
    pos: CellChangesPos,
}

impl CellChangeIter<'_> {
    /// Where the iterator stands: [`CellChanges::iter_from`] resumes from here.
    ///
    /// ```
    /// use allreduce_sim::{algorithms::{self, Algorithm}, run::*, topology::*, units::Bandwidth};
    /// let topo = Topology::new(&TopologySpec::Uniform {
    ///     ranks: 4, bandwidth: Bandwidth::from_gbytes_per_sec(1.0), latency_secs: 1e-6 }).unwrap();
    /// let trace = run(&topo, algorithms::schedule(Algorithm::Ring, &topo, 4_000_000, 1), &RunOptions::default());
    /// let mut it = trace.cell_changes.iter(&trace.schedule);
    /// it.nth(2);
    /// assert_eq!(it.pos().changes_read(), 3);
    /// ```
    pub fn pos(&self) -> CellChangesPos {
        self.pos
    }
}

impl Iterator for CellChangeIter<'_> {
    type Item = CellChange;
    fn next(&mut self) -> Option<CellChange> {
        let p = &mut self.pos;
        let contributors = self.changes.count(p.k)?;
        if p.current.chunk >= p.chunk_hi {
            let t = self.changes.transfers[p.next_transfer];
            p.next_transfer += 1;
            let tr = self.schedule.transfer(t as usize);
            p.current = CellChange {
                transfer: t,
                rank: tr.dst(),
                chunk: tr.chunk_lo(),
                contributors: 0,
            };
            p.chunk_hi = tr.chunk_hi();
        }
        p.k += 1;
        let change = CellChange {
            contributors,
            ..p.current
        };
        p.current.chunk += 1;
        Some(change)
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.changes.len() - self.pos.k;
        (n, Some(n))
    }
}

impl ExactSizeIterator for CellChangeIter<'_> {}

/// A timeline's vectors, to carry it to another thread and back (see [`wire`](super::wire)).
pub(crate) struct TimelineParts {
    /// Its instants as words ([`Starts::words`]).
    pub at: Vec<u32>,
    /// Whether those words are the instants as they are, one a word.
    pub raw_at: bool,
    /// Palette indexes (packed two to a byte, see [`Rates`]), or the rates as they are.
    pub rates: Result<Vec<u8>, Vec<f64>>,
    pub palette: Vec<f64>,
}

impl Timeline {
    /// The lengths of [`into_parts`](Self::into_parts)' vectors, without taking them: the
    /// instants' words, the palette indexes' bytes (0 where the rates are kept as they are), the
    /// raw rates and the palette.
    pub(crate) fn part_lens(&self) -> [usize; 4] {
        let (indexed, raw) = match &self.rate {
            Rates::Palette(v) => (v.len(), 0),
            Rates::Raw(v) => (0, v.len()),
        };
        let at = Starts::words_for(self.len(), self.at.is_blocked());
        [at, indexed, raw, self.palette.len()]
    }

    /// How many words carry `changes` instants, as they are (`raw`) or in blocks.
    pub(crate) fn at_words(changes: usize, raw: bool) -> usize {
        Starts::words_for(changes, !raw)
    }

    /// Its parts, its instants' words appended to `at` (the wire concatenates every link's) in
    /// place of [`TimelineParts::at`], which is left empty.
    pub(crate) fn into_parts_onto(self, at: &mut Vec<u32>) -> TimelineParts {
        let raw_at = !self.at.is_blocked();
        at.extend_from_slice(self.at.words());
        TimelineParts {
            at: Vec::new(),
            raw_at,
            rates: match self.rate {
                Rates::Palette(v) => Ok(v),
                Rates::Raw(v) => Err(v),
            },
            palette: self.palette,
        }
    }

    /// The bytes that carry `changes` palette indexes.
    pub(crate) fn index_bytes(changes: usize) -> usize {
        changes.div_ceil(2)
    }

    /// The timeline of `parts`, `n` changes, over `instants`; `None` unless every change names an
    /// instant and a rate, in time order.
    pub(crate) fn from_parts(
        n: usize,
        parts: TimelineParts,
        instants: &Arc<Vec<f64>>,
    ) -> Option<Timeline> {
        let TimelineParts {
            at,
            raw_at,
            rates,
            palette,
        } = parts;
        let at = Starts::from_words(!raw_at, at, n)?;
        let in_order = (1..n).all(|i| at.get(i - 1) <= at.get(i));
        let named = n == 0 || (at.get(n - 1) as usize) < instants.len();
        let rated = match &rates {
            // Each index names a colour, and a last high half of its own is 0.
            Ok(v) => {
                v.len() == Self::index_bytes(n)
                    && (0..n).all(|i| (nibble(v, i) as usize) < palette.len())
                    && (n % 2 == 0 || v[n / 2] >> 4 == 0)
            }
            Err(v) => v.len() == n,
        };
        (in_order && named && rated && palette.len() <= PALETTE).then(|| Timeline {
            instants: Arc::clone(instants),
            at,
            rate: match rates {
                Ok(v) => Rates::Palette(v),
                Err(v) => Rates::Raw(v),
            },
            palette,
            recent: [(0, NO_RATE); 2],
        })
    }
}

impl Timings {
    /// The instants and, per transfer, the indexes of its start, then its first and last byte's
    /// [`Bytes::Gaps`] and an empty vector, or their indexes, then the indexes of its done (empty
    /// when done at the last byte).
    /// Whether the distances are [`Bytes::Small`]'s, two transfers to a word, comes first.
    pub(crate) fn into_parts(self) -> (Arc<Vec<f64>>, bool, [Vec<u32>; 4]) {
        let (small, a, b) = match self.bytes {
            Bytes::Small(w) => (true, w, Vec::new()),
            Bytes::Gaps(g) => (false, g, Vec::new()),
            Bytes::Wide { first, last } => (false, first, last),
        };
        (self.instants, small, [self.start, a, b, self.done])
    }

    /// Whether `parts` as [`into_parts`](Self::into_parts) gives them have a time of each kind
    /// for every one of `n` transfers (`done` may be empty).
    pub(crate) fn parts_fit(parts: &[Vec<u32>; 4], small: bool, n: usize) -> bool {
        let [start, a, b, done] = parts;
        let bytes = if small {
            halves::fit(a, n) && b.is_empty()
        } else {
            a.len() == n && (b.is_empty() || b.len() == n)
        };
        start.len() == n && bytes && (done.is_empty() || done.len() == n)
    }

    /// Whether the times of transfers `range` in `parts` that [`parts_fit`](Self::parts_fit)
    /// each name one of `count` instants.
    pub(crate) fn parts_name(
        parts: &[Vec<u32>; 4],
        small: bool,
        range: Range<usize>,
        count: usize,
    ) -> bool {
        let named =
            |v: &Vec<u32>| v.is_empty() || v[range.clone()].iter().all(|&i| (i as usize) < count);
        let [start, a, b, done] = parts;
        // The last byte is the furthest from the start (summed in 64 bits: the distances come
        // from the sender).
        let last_named = |t: usize, gaps: u32| {
            u64::from(start[t]) + u64::from(gaps & 0xffff) + u64::from(gaps >> 16) < count as u64
        };
        named(start)
            && named(done)
            && if small {
                range
                    .clone()
                    .all(|t| last_named(t, unsmall(halves::get(a, t))))
            } else if b.is_empty() && !a.is_empty() {
                range.clone().all(|t| last_named(t, a[t]))
            } else {
                named(a) && named(b)
            }
    }

    /// The timings of `parts` over `instants`, which the caller has checked
    /// ([`parts_fit`](Self::parts_fit), [`parts_name`](Self::parts_name)).
    pub(crate) fn from_parts(
        instants: &Arc<Vec<f64>>,
        small: bool,
        parts: [Vec<u32>; 4],
    ) -> Timings {
        let [start, a, b, done] = parts;
        Timings {
            instants: Arc::clone(instants),
            start,
            bytes: if small {
                Bytes::Small(a)
            } else if b.is_empty() {
                Bytes::Gaps(a)
            } else {
                Bytes::Wide { first: a, last: b }
            },
            done,
        }
    }
}

impl CellChanges {
    /// The transfers that changed cells, in order, and the contributor counts, two to a word.
    pub(crate) fn into_parts(self) -> (Vec<u32>, Vec<u32>) {
        (self.transfers, self.counts)
    }

    /// The changes of `parts`, which the caller has checked (see [`wire`](super::wire)): every
    /// transfer one of the schedule's that carries chunks, and a count for each of its chunks,
    /// `changes` in all, two to a word ([`counts_fit`](Self::counts_fit)).
    pub(crate) fn from_parts(transfers: Vec<u32>, counts: Vec<u32>, changes: usize) -> CellChanges {
        CellChanges {
            transfers,
            counts,
            len: changes,
        }
    }

    /// Whether `counts` holds `changes` contributor counts, two to a word, exactly (the high half
    /// of a last word of its own empty).
    pub(crate) fn counts_fit(counts: &[u32], changes: usize) -> bool {
        halves::fit(counts, changes)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_timeline_gives_back_every_rate_exactly_through_its_palette_and_beyond() {
        let mut instants = Instants::new();
        let mut tl = Timeline::recording();
        let mut want = Vec::new();
        // At first few distinct rates (in the palette), then 600 (beyond it: kept as they are),
        // with -0.0 and 0.0 kept apart by their bits.
        for i in 0..2000u32 {
            let at = i as f64 * 1e-6;
            let rate = match i % 7 {
                0 => 0.0,
                1 => -0.0,
                _ if i < 500 => (i % 5) as f64 * 1.5e9 / 7.0,
                _ => (i % 600) as f64 * 1.5e9 / 7.0,
            };
            tl.push(instants.index(at), rate);
            want.push(RateChange {
                at_secs: at,
                bytes_per_sec: rate,
            });
            if i % 5 == 0 {
                tl.set_last_rate(rate + 1.0);
                want.last_mut().unwrap().bytes_per_sec = rate + 1.0;
            }
        }
        let tl = tl.finish(&instants.share());
        assert_eq!(tl.len(), want.len());
        let bits = |c: RateChange| (c.at_secs.to_bits(), c.bytes_per_sec.to_bits());
        assert!(tl.iter().map(bits).eq(want.iter().copied().map(bits)));
        assert!(
            tl.iter()
                .rev()
                .map(bits)
                .eq(want.iter().rev().copied().map(bits))
        );
        assert_eq!(tl.get(want.len()), None);
        assert_eq!(tl.partition_point(|c| c.at_secs <= 1e-3), 1001);
        assert_eq!(tl.last(), want.last().copied());
    }

    /// Pushes changes at the given instants (an instant per index, 0 to the largest) and gives
    /// back the finished timeline, with the times it must give.
    fn timeline_at(at: &[u32]) -> (Timeline, Vec<f64>) {
        let mut instants = Instants::new();
        let last = at.iter().copied().max().unwrap_or(0);
        let times: Vec<f64> = (0..=last).map(|i| i as f64 * 1e-6).collect();
        times[1..].iter().for_each(|&t| {
            instants.index(t);
        });
        let mut tl = Timeline::recording();
        tl.reserve_exact(at.len());
        for (k, &i) in at.iter().enumerate() {
            tl.push(i, (k % 3) as f64);
        }
        let want = at.iter().map(|&i| times[i as usize]).collect();
        (tl.finish(&instants.share()), want)
    }

    fn round_trip(tl: &Timeline) -> Option<Timeline> {
        let mut words = Vec::new();
        let parts = tl.clone().into_parts_onto(&mut words);
        assert_eq!(words.len(), tl.part_lens()[0]);
        Timeline::from_parts(tl.len(), TimelineParts { at: words, ..parts }, &tl.instants)
    }

    #[test]
    fn a_timeline_s_rates_go_two_to_a_byte_until_they_are_too_many() {
        // Each change pushed with one rate and set to another, so that both halves of a byte
        // are written and rewritten: nine rates, then a new one each change; the 17th distinct
        // rate makes them raw, after an odd and after an even count of changes.
        for extra in [0, 1] {
            let mut tl = Timeline::recording();
            tl.reserve_exact(4);
            let mut want = Vec::new();
            for k in 0..(20 + extra) {
                let rate = if k < 10 + extra { k % 9 } else { k } as f64;
                tl.push(k, ((k + 1) % 9) as f64);
                tl.set_last_rate(rate);
                want.push(rate);
                if k < 17 + extra {
                    let Rates::Palette(v) = &tl.rate else {
                        panic!("palette until the 17th distinct rate");
                    };
                    assert_eq!(v.len(), (k as usize + 1).div_ceil(2));
                }
            }
            assert!(
                matches!(tl.rate, Rates::Raw(_)),
                "raw past 16 distinct rates"
            );
            let rates: Vec<f64> = (0..tl.len())
                .map(|i| match &tl.rate {
                    Rates::Raw(v) => v[i],
                    Rates::Palette(_) => unreachable!(),
                })
                .collect();
            assert_eq!(rates, want);
        }
        // A palette's indexes, odd and even counts, read back.
        for n in [1u32, 2, 7, 8] {
            let at: Vec<u32> = (0..n).collect();
            let (tl, _) = timeline_at(&at);
            let got: Vec<f64> = tl.iter().map(|c| c.bytes_per_sec).collect();
            let want: Vec<f64> = (0..n).map(|k| (k % 3) as f64).collect();
            assert_eq!(got, want);
            let Rates::Palette(v) = &tl.rate else {
                panic!("three rates");
            };
            assert_eq!(v.len(), (n as usize).div_ceil(2));
            assert_eq!(round_trip(&tl), Some(tl.clone()));
        }
    }

    #[test]
    fn a_timeline_keeps_its_instants_in_blocks_while_they_fit_and_as_they_are_beyond() {
        let times = |tl: &Timeline| tl.iter().map(|c| c.at_secs).collect::<Vec<_>>();
        // 200 changes, 1,000 instants apart: 63,000 a block, within 16 bits; and one odd change
        // more, whose distance takes half a word.
        let near: Vec<u32> = (0..201).map(|k| 1000 * k).collect();
        let (tl, want) = timeline_at(&near);
        assert!(tl.at.is_blocked());
        assert_eq!(times(&tl), want);
        // 4 blocks of a base and distances two to a word (3 of 64 changes, 1 of 9), half a byte
        // a rate, 3 distinct rates.
        assert_eq!(tl.heap_bytes(), 4 * (3 * 33 + 1 + 5) + 101 + 8 * 3);
        assert_eq!(tl.part_lens()[0], 4 + 101);
        assert_eq!(round_trip(&tl), Some(tl.clone()));
        // One change 65,536 instants past its block's first: every instant as it is from then on.
        let mut far = near.clone();
        far.truncate(70);
        far.push(64 * 1000 + 65_536);
        far.extend((0..30).map(|k| 64 * 1000 + 70_000 + k));
        let (tl, want) = timeline_at(&far);
        assert!(!tl.at.is_blocked());
        assert_eq!(times(&tl), want);
        assert_eq!(tl.part_lens()[0], far.len());
        assert_eq!(round_trip(&tl), Some(tl.clone()));
        // 65,535 still fits.
        far.truncate(71);
        assert!(!timeline_at(&far).0.at.is_blocked());
        far[70] -= 1;
        assert!(timeline_at(&far).0.at.is_blocked());
    }

    #[test]
    fn a_timeline_s_words_are_read_back_only_as_they_were_written() {
        let (tl, _) = timeline_at(&(0..131).map(|k| 3 * k).collect::<Vec<_>>());
        let mut words = Vec::new();
        let parts = tl.clone().into_parts_onto(&mut words);
        let read = |words: Vec<u32>, raw_at: bool| {
            let parts = TimelineParts {
                at: words,
                raw_at,
                rates: parts.rates.clone(),
                palette: parts.palette.clone(),
            };
            Timeline::from_parts(tl.len(), parts, &tl.instants)
        };
        assert_eq!(read(words.clone(), false), Some(tl.clone()));
        // 3 blocks of 64, 64 and 3 changes, each a base and its distances two to a word, the
        // last word with an empty high half.
        assert_eq!(words.len(), 33 + 33 + 3);
        let mut short = words.clone();
        short.pop();
        assert_eq!(read(short, false), None);
        // The same words taken as instants one a word are too few.
        assert_eq!(read(words.clone(), true), None);
        let mut padded = words.clone();
        *padded.last_mut().unwrap() |= 1 << 16;
        assert_eq!(read(padded, false), None);
        // A block's first change is at its base.
        let mut off_base = words.clone();
        off_base[34] += 1;
        assert_eq!(read(off_base, false), None);
        // Out of order: the second block's base before the first block's last instant.
        let mut back = words.clone();
        back[33] = 0;
        assert_eq!(read(back, false), None);
        // Past the last instant.
        let mut past = words;
        past[66] = 10_000;
        assert_eq!(read(past, false), None);
        // Past the last index there can be.
        let two = |at: Vec<u32>, rates: Vec<u8>| {
            let parts = TimelineParts {
                at,
                raw_at: false,
                rates: Ok(rates),
                palette: vec![1.0, 2.0],
            };
            Timeline::from_parts(2, parts, &tl.instants)
        };
        assert_eq!(two(vec![u32::MAX, 1 << 16], vec![0x10]), None);
        let ok = two(vec![0, 1 << 16], vec![0x10]).unwrap();
        let rates: Vec<f64> = ok.iter().map(|c| c.bytes_per_sec).collect();
        assert_eq!(rates, [1.0, 2.0]);
        // Palette indexes: one past the palette, one byte short or long.
        assert_eq!(two(vec![0, 1 << 16], vec![0x20]), None);
        assert_eq!(two(vec![0, 1 << 16], vec![]), None);
        assert_eq!(two(vec![0, 1 << 16], vec![0x10, 0]), None);
        // One change: the last byte's high half is 0.
        let one = |rates: Vec<u8>| {
            let parts = TimelineParts {
                at: vec![0, 0],
                raw_at: false,
                rates: Ok(rates),
                palette: vec![1.0, 2.0],
            };
            Timeline::from_parts(1, parts, &tl.instants)
        };
        assert!(one(vec![0x01]).is_some());
        assert_eq!(one(vec![0x11]), None);
    }

    #[test]
    fn contributor_counts_go_two_to_a_word_and_come_back_whole() {
        let mut c = CellChanges::with_capacity(3, 5);
        c.push(7, [1u16, 4096].into_iter());
        c.push(8, std::iter::empty());
        c.push(9, [65_535u16, 2, 3].into_iter());
        assert_eq!((c.len(), c.transfers()), (5, &[7, 9][..]));
        assert_eq!(c.heap_bytes(), 4 * (3 + 3));
        let counts: Vec<u32> = (0..6).map(|k| c.count(k).unwrap_or(u32::MAX)).collect();
        assert_eq!(counts, [1, 4096, 65_535, 2, 3, u32::MAX]);
        let (transfers, words) = c.clone().into_parts();
        assert_eq!(words, [1 | 4096 << 16, 65_535 | 2 << 16, 3]);
        assert!(CellChanges::counts_fit(&words, 5));
        assert!(!CellChanges::counts_fit(&words, 4));
        assert!(!CellChanges::counts_fit(&words, 7));
        // A sixth count could be there (0), a fifth's word with more in its high half could not.
        assert!(CellChanges::counts_fit(&words, 6));
        assert!(!CellChanges::counts_fit(&[1, 2, 3 | 1 << 16], 5));
        assert_eq!(CellChanges::from_parts(transfers, words, 5), c);
    }

    #[test]
    fn an_instant_recorded_again_is_kept_once() {
        let mut instants = Instants::new();
        assert_eq!(instants.index(0.0), 0);
        assert_eq!(instants.index(1.5), 1);
        assert_eq!(instants.index(1.5), 1);
        assert_eq!(instants.index(2.0), 2);
        assert_eq!(*instants.share(), vec![0.0, 1.5, 2.0]);
    }

    /// Transfer `id`'s start, first byte, last byte and done.
    fn secs(t: &Timings, id: usize) -> [f64; 4] {
        let x = t.get(id);
        [
            x.start_secs,
            x.first_byte_secs,
            x.last_byte_secs,
            x.done_secs,
        ]
    }

    #[test]
    fn timings_keep_bytes_as_distances_while_they_fit_and_as_they_are_beyond() {
        let instants = Arc::new((0..70_000).map(|i| i as f64).collect::<Vec<_>>());
        let mut t = Timings::recording(3, false);
        t.extend_zero(3);
        t.set(0, [5, 7, 65_542, 65_542]);
        t.set(2, [1, 1, 1, 1]);
        assert!(matches!(t.bytes, Bytes::Gaps(_)));
        assert_eq!(t.heap_bytes(), 8 * 3);
        let gapped = t.clone().finish(&instants);
        assert_eq!(secs(&gapped, 0), [5.0, 7.0, 65_542.0, 65_542.0]);
        // 65,536 instants from its first byte to its last: every byte as it is from now on, the
        // others' kept.
        t.set(1, [10, 10, 65_546, 65_546]);
        assert!(matches!(t.bytes, Bytes::Wide { .. }));
        assert_eq!(t.heap_bytes(), 12 * 3);
        let t = t.finish(&instants);
        assert_eq!(secs(&t, 0), [5.0, 7.0, 65_542.0, 65_542.0]);
        assert_eq!(secs(&t, 1), [10.0, 10.0, 65_546.0, 65_546.0]);
        assert_eq!(secs(&t, 2), [1.0; 4]);
        // A distance back in time does not fit either.
        let mut back = Timings::recording(1, false);
        back.extend_zero(1);
        back.set(0, [3, 2, 4, 4]);
        assert_eq!(secs(&back.finish(&instants), 0), [3.0, 2.0, 4.0, 4.0]);
        // Both forms come back from their parts as they went.
        for (t, last) in [(gapped, 65_542), (t, 65_546)] {
            let (_, small, parts) = t.clone().into_parts();
            assert!(!small);
            assert!(Timings::parts_fit(&parts, false, 3));
            assert!(Timings::parts_name(&parts, false, 0..3, last + 1));
            assert!(!Timings::parts_name(&parts, false, 0..3, last));
            assert!(Timings::parts_name(&parts, false, 2..3, 2));
            assert_eq!(Timings::from_parts(&instants, false, parts), t);
        }
    }

    #[test]
    fn timings_keep_small_distances_two_to_a_word_and_widen_past_them() {
        let instants = Arc::new((0..1_000).map(|i| i as f64).collect::<Vec<_>>());
        let mut t = Timings::recording(3, false);
        t.extend_zero(3);
        // The largest that fit: a first byte 511 instants after its start, a last 127 after it.
        t.set(0, [5, 516, 643, 643]);
        t.set(2, [1, 1, 1, 1]);
        assert!(matches!(t.bytes, Bytes::Small(_)));
        // 4 B a start, and three transfers' distances in two words.
        assert_eq!(t.heap_bytes(), 4 * 3 + 4 * 2);
        let small = t.clone().finish(&instants);
        assert_eq!(secs(&small, 0), [5.0, 516.0, 643.0, 643.0]);
        assert_eq!(secs(&small, 1), [0.0; 4]);
        assert_eq!(secs(&small, 2), [1.0; 4]);
        // Their parts come back as they went, read only as small ones.
        let (_, is_small, parts) = small.clone().into_parts();
        assert!(is_small);
        assert!(Timings::parts_fit(&parts, true, 3));
        assert!(!Timings::parts_fit(&parts, false, 3));
        assert!(Timings::parts_name(&parts, true, 0..3, 644));
        assert!(!Timings::parts_name(&parts, true, 0..3, 643));
        assert_eq!(Timings::from_parts(&instants, true, parts.clone()), small);
        // A lone last half is 0.
        let mut padded = parts;
        padded[1][1] |= 1 << 16;
        assert!(!Timings::parts_fit(&padded, true, 3));
        // A last byte 128 instants after its first does not fit: every transfer's distances in
        // 32 bits from now on, the others' kept.
        t.set(1, [10, 10, 138, 138]);
        assert!(matches!(t.bytes, Bytes::Gaps(_)));
        assert_eq!(t.heap_bytes(), 8 * 3);
        let t = t.finish(&instants);
        assert_eq!(secs(&t, 0), [5.0, 516.0, 643.0, 643.0]);
        assert_eq!(secs(&t, 1), [10.0, 10.0, 138.0, 138.0]);
        assert_eq!(secs(&t, 2), [1.0; 4]);
        // Nor does a first byte 512 after its start.
        let mut far = Timings::recording(1, false);
        far.extend_zero(1);
        far.set(0, [0, 512, 512, 512]);
        assert!(matches!(far.bytes, Bytes::Gaps(_)));
        assert_eq!(secs(&far.finish(&instants), 0), [0.0, 512.0, 512.0, 512.0]);
    }

    #[test]
    fn distances_past_the_instants_are_not_read() {
        // Start 1, first byte 0xffff after it, last byte 0xffff after that: 131,071, though each
        // word is small.
        let parts = [vec![1], vec![u32::MAX], vec![], vec![]];
        assert!(Timings::parts_fit(&parts, false, 1));
        assert!(!Timings::parts_name(&parts, false, 0..1, 131_071));
        assert!(Timings::parts_name(&parts, false, 0..1, 131_072));
        let wide = [vec![1], vec![2], vec![1], vec![3]];
        assert!(Timings::parts_name(&wide, false, 0..1, 4));
        assert!(!Timings::parts_name(&wide, false, 0..1, 3));
        assert!(!Timings::parts_fit(&wide, false, 2));
        assert!(!Timings::parts_fit(
            &[vec![1], vec![], vec![], vec![]],
            false,
            1
        ));
    }

    #[test]
    fn timings_without_room_for_done_are_done_at_their_last_byte() {
        let mut instants = Instants::new();
        let mut t = Timings::recording(2, false);
        t.extend_zero(2);
        let [a, b, c] = [1.0, 2.0, 3.0].map(|x| instants.index(x));
        t.set(1, [a, b, c, c]);
        let t = t.finish(&instants.share());
        assert_eq!(t.get(0), TransferTiming::default());
        let one = t.get(1);
        assert_eq!(
            (
                one.start_secs,
                one.first_byte_secs,
                one.last_byte_secs,
                one.done_secs
            ),
            (1.0, 2.0, 3.0, 3.0)
        );
        assert_eq!(t.iter().len(), 2);
        assert_eq!(t.last(), Some(one));
    }
}
