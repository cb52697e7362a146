//! How a run's per-transfer times and per-link rate timelines are kept: compactly, and exactly.
//!
//! Every time a run records is an instant of its clock, and a large run records the same instant
//! many times (a ring's hundreds of first bytes and rate changes fall on one instant). So the run
//! keeps each distinct instant once, in the order it reached them ([`Instants`]), and a record
//! names its instant by a 4-byte index instead of an 8-byte time; a link's rates, of which a link
//! sees only a few distinct values, are named by an index into the link's own palette. Reading a
//! record gives back the very `f64`s the run computed, bit for bit.
//!
//! Measured on a 1024-rank ring with details (2.1 M transfers, 9.5 M rate changes, 0.96 M distinct
//! instants): the times went from 32 B to 12 B per transfer and the timelines from 16 B to 5 B per
//! change (the instants, 7.7 MB, shared by both).
//!
//! ```
//! use allreduce_lab::sim::{algorithms::{self, Algorithm}, run::*, topology::*, units::Bandwidth};
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

use super::network::RateChange;
use super::schedule::Schedule;
use super::trace::{CellChange, TransferTiming};
use std::sync::Arc;

/// The distinct instants of a run, in the order it recorded them: index 0 is time 0.
#[derive(Clone, Debug)]
pub(crate) struct Instants(Vec<f64>);

impl Instants {
    pub(crate) fn new() -> Instants {
        Instants(vec![0.0])
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

/// A link's rates: by index into its palette while it has seen few distinct rates (a byte per
/// change), else as they are (8 B per change): a contended link, whose rates take many values,
/// would otherwise need a lookup by value for every change, a cache miss each.
#[derive(Clone, Debug)]
enum Rates {
    Palette(Vec<u8>),
    Raw(Vec<f64>),
}

/// Distinct rates a link's palette holds at most, searched linearly (two cache lines).
const PALETTE: usize = 16;

const NO_RATE: u8 = u8::MAX;

/// One link's total rate over time: a piecewise-constant function, as [`RateChange`]s ordered by
/// time (from each change's `at_secs` on, the link carries its `bytes_per_sec`). Read with
/// [`get`](Self::get), [`iter`](Self::iter) and [`partition_point`](Self::partition_point).
#[derive(Clone)]
pub struct Timeline {
    instants: Arc<Vec<f64>>,
    /// Per change, its instant.
    at: Vec<u32>,
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
            at: Vec::new(),
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
            v.reserve_exact(changes);
        }
    }

    /// The palette index of `rate`, or `None` once the link has too many distinct rates (then
    /// its rates are kept as they are).
    fn palette_index(&mut self, rate: f64) -> Option<u8> {
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
                    let mut raw = Vec::with_capacity(v.capacity().max(2 * v.len()));
                    raw.extend(v.iter().map(|&k| self.palette[k as usize]));
                    self.rate = Rates::Raw(raw);
                }
                self.palette = Vec::new();
                return None;
            }
        };
        self.recent = [(bits, k), a];
        Some(k)
    }

    /// Appends a change at instant `at` (an index into the run's [`Instants`]).
    pub(crate) fn push(&mut self, at: u32, bytes_per_sec: f64) {
        self.at.push(at);
        if let Rates::Palette(_) = self.rate {
            if let Some(k) = self.palette_index(bytes_per_sec) {
                if let Rates::Palette(v) = &mut self.rate {
                    v.push(k);
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
        if let Rates::Palette(_) = self.rate {
            if let Some(k) = self.palette_index(bytes_per_sec) {
                if let Rates::Palette(v) = &mut self.rate {
                    *v.last_mut().expect("a change to update") = k;
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
    /// use allreduce_lab::sim::{algorithms::{self, Algorithm}, run::*, topology::*, units::Bandwidth};
    /// let topo = Topology::new(&TopologySpec::Uniform {
    ///     ranks: 4, bandwidth: Bandwidth::from_gbytes_per_sec(1.0), latency_secs: 1e-6 }).unwrap();
    /// let trace = run(&topo, algorithms::schedule(Algorithm::Ring, &topo, 4_000_000, 1), &RunOptions::default());
    /// let tl = &trace.links[0].timeline;
    /// // 4 B for each change's instant, 1 B for its rate's palette index, and the palette's
    /// // distinct rates (here the link's full rate and 0), at the least.
    /// assert!(tl.heap_bytes() >= 5 * tl.len() + 8 * 2);
    /// ```
    pub fn heap_bytes(&self) -> usize {
        self.at.capacity() * 4
            + match &self.rate {
                Rates::Palette(v) => v.capacity(),
                Rates::Raw(v) => v.capacity() * 8,
            }
            + self.palette.capacity() * 8
    }

    /// How many changes.
    ///
    /// ```
    /// use allreduce_lab::sim::{algorithms::{self, Algorithm}, run::*, topology::*, units::Bandwidth};
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
    /// use allreduce_lab::sim::{algorithms::{self, Algorithm}, run::*, topology::*, units::Bandwidth};
    /// let topo = Topology::new(&TopologySpec::Uniform {
    ///     ranks: 4, bandwidth: Bandwidth::from_gbytes_per_sec(1.0), latency_secs: 1e-6 }).unwrap();
    /// let trace = run(&topo, algorithms::schedule(Algorithm::Ring, &topo, 4_000_000, 1), &RunOptions::default());
    /// let tl = &trace.links[0].timeline; // rank 0's port: on, then off, for each of 6 steps
    /// assert!(!tl.is_empty());
    /// ```
    pub fn is_empty(&self) -> bool {
        self.at.is_empty()
    }

    fn at_secs(&self, i: usize) -> f64 {
        self.instants[self.at[i] as usize]
    }

    /// Change `i`, if there is one.
    ///
    /// ```
    /// use allreduce_lab::sim::{algorithms::{self, Algorithm}, run::*, topology::*, units::Bandwidth};
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
                Rates::Palette(v) => self.palette[v[i] as usize],
                Rates::Raw(v) => v[i],
            },
        })
    }

    /// The last change.
    ///
    /// ```
    /// use allreduce_lab::sim::{algorithms::{self, Algorithm}, run::*, topology::*, units::Bandwidth};
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
    /// use allreduce_lab::sim::{algorithms::{self, Algorithm}, run::*, topology::*, units::Bandwidth};
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

/// When every transfer moved ([`TransferTiming`] per transfer), by instant index: 12 bytes a
/// transfer, 16 where reductions cost time (γ > 0) and a transfer can be done after its last byte.
#[derive(Clone, Default)]
pub struct Timings {
    instants: Arc<Vec<f64>>,
    start: Vec<u32>,
    first_byte: Vec<u32>,
    last_byte: Vec<u32>,
    /// Empty when every transfer is done at its last byte.
    done: Vec<u32>,
}

impl Timings {
    /// Room for `n` transfers' times; `done_apart`: a transfer may be done after its last byte.
    pub(crate) fn recording(n: usize, done_apart: bool) -> Timings {
        use super::huge_pages::with_capacity as room;
        Timings {
            instants: Arc::default(),
            start: room(n),
            first_byte: room(n),
            last_byte: room(n),
            done: room(if done_apart { n } else { 0 }),
        }
    }

    /// Adds up to `more` transfers, all at time 0, without going beyond the room reserved.
    pub(crate) fn extend_zero(&mut self, more: usize) {
        let apart = self.done.capacity() > 0;
        for v in [&mut self.start, &mut self.first_byte, &mut self.last_byte] {
            v.extend(std::iter::repeat_n(0, more));
        }
        if apart {
            self.done.extend(std::iter::repeat_n(0, more));
        }
    }

    /// Asks for transfer `t`'s entries to be brought into the cache, ahead of [`set`](Self::set).
    pub(crate) fn prefetch(&self, t: usize) {
        use super::prefetch::prefetch;
        prefetch(&self.start, t);
        prefetch(&self.first_byte, t);
        prefetch(&self.last_byte, t);
        prefetch(&self.done, t);
    }

    /// Sets transfer `t`'s instants: start, first byte, last byte, done.
    pub(crate) fn set(&mut self, t: usize, [start, first, last, done]: [u32; 4]) {
        self.start[t] = start;
        self.first_byte[t] = first;
        self.last_byte[t] = last;
        if self.done.is_empty() {
            debug_assert_eq!(
                done, last,
                "done apart from the last byte without room for it"
            );
        } else {
            self.done[t] = done;
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
    /// use allreduce_lab::sim::{algorithms::{self, Algorithm}, run::*, topology::*, units::Bandwidth};
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
        4 * (self.start.capacity()
            + self.first_byte.capacity()
            + self.last_byte.capacity()
            + self.done.capacity())
    }

    /// How many transfers.
    ///
    /// ```
    /// use allreduce_lab::sim::{algorithms::{self, Algorithm}, run::*, topology::*, units::Bandwidth};
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
    /// use allreduce_lab::sim::{algorithms::{self, Algorithm}, run::*, topology::*, units::Bandwidth};
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
    /// use allreduce_lab::sim::{algorithms::{self, Algorithm}, run::*, topology::*, units::Bandwidth};
    /// let topo = Topology::new(&TopologySpec::Uniform {
    ///     ranks: 4, bandwidth: Bandwidth::from_gbytes_per_sec(1.0), latency_secs: 1e-6 }).unwrap();
    /// let trace = run(&topo, algorithms::schedule(Algorithm::Ring, &topo, 4_000_000, 1), &RunOptions::default());
    /// let t = trace.timings.get(0);
    /// assert_eq!((t.start_secs, t.first_byte_secs), (0.0, 1e-6));
    /// assert!(t.first_byte_secs <= t.last_byte_secs && t.last_byte_secs <= t.done_secs);
    /// ```
    pub fn get(&self, id: usize) -> TransferTiming {
        let at = |v: &[u32]| self.instants[v[id] as usize];
        let last_byte_secs = at(&self.last_byte);
        TransferTiming {
            start_secs: at(&self.start),
            first_byte_secs: at(&self.first_byte),
            last_byte_secs,
            done_secs: if self.done.is_empty() {
                last_byte_secs
            } else {
                at(&self.done)
            },
        }
    }

    /// The last transfer's times.
    ///
    /// ```
    /// use allreduce_lab::sim::{algorithms::{self, Algorithm}, run::*, topology::*, units::Bandwidth};
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
    /// use allreduce_lab::sim::{algorithms::{self, Algorithm}, run::*, topology::*, units::Bandwidth};
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
/// Kept as the transfers' ids in that order and one contributor count per change (8 bytes a
/// change for one-chunk transfers, instead of 16); read with the schedule that names the
/// transfers' receivers and chunks ([`iter`](Self::iter)).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CellChanges {
    /// The transfers that changed cells, in the order they were done.
    transfers: Vec<u32>,
    /// Per change, the cell's contributor count after it.
    contributors: Vec<u32>,
}

impl CellChanges {
    /// Room for `transfers` transfers' `changes` changes.
    pub(crate) fn with_capacity(transfers: usize, changes: usize) -> CellChanges {
        CellChanges {
            transfers: super::huge_pages::with_capacity(transfers),
            contributors: super::huge_pages::with_capacity(changes),
        }
    }

    /// Transfer `t` is done: its chunks' cells now hold `contributors` contributions each, in
    /// chunk order (a transfer that carries no chunk changes nothing).
    pub(crate) fn push(&mut self, t: u32, contributors: impl ExactSizeIterator<Item = u32>) {
        if contributors.len() > 0 {
            self.transfers.push(t);
            self.contributors.extend(contributors);
        }
    }

    /// Bytes held on the heap.
    pub fn heap_bytes(&self) -> usize {
        4 * (self.transfers.capacity() + self.contributors.capacity())
    }

    /// How many changes.
    ///
    /// ```
    /// use allreduce_lab::sim::{algorithms::{self, Algorithm}, run::*, topology::*, units::Bandwidth};
    /// let topo = Topology::new(&TopologySpec::Uniform {
    ///     ranks: 4, bandwidth: Bandwidth::from_gbytes_per_sec(1.0), latency_secs: 1e-6 }).unwrap();
    /// let trace = run(&topo, algorithms::schedule(Algorithm::Ring, &topo, 4_000_000, 1), &RunOptions::default());
    /// let cc = &trace.cell_changes; // a ring: one cell per transfer, on its receiver
    /// assert_eq!(cc.len(), 2 * 4 * 3);
    /// ```
    pub fn len(&self) -> usize {
        self.contributors.len()
    }

    /// Whether no cell changed (or changes were not recorded).
    ///
    /// ```
    /// use allreduce_lab::sim::{algorithms::{self, Algorithm}, run::*, topology::*, units::Bandwidth};
    /// let topo = Topology::new(&TopologySpec::Uniform {
    ///     ranks: 4, bandwidth: Bandwidth::from_gbytes_per_sec(1.0), latency_secs: 1e-6 }).unwrap();
    /// let trace = run(&topo, algorithms::schedule(Algorithm::Ring, &topo, 4_000_000, 1), &RunOptions::default());
    /// let cc = &trace.cell_changes; // a ring: one cell per transfer, on its receiver
    /// assert!(!cc.is_empty());
    /// ```
    pub fn is_empty(&self) -> bool {
        self.contributors.is_empty()
    }

    /// The transfers that changed cells, in the order they were done; each made as many changes
    /// as it carries chunks.
    ///
    /// ```
    /// use allreduce_lab::sim::{algorithms::{self, Algorithm}, run::*, topology::*, units::Bandwidth};
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
    /// use allreduce_lab::sim::{algorithms::{self, Algorithm}, run::*, topology::*, units::Bandwidth};
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
    /// use allreduce_lab::sim::{algorithms::{self, Algorithm}, records::CellChangesPos, run::*, topology::*, units::Bandwidth};
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
    /// use allreduce_lab::sim::records::CellChangesPos;
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
    /// use allreduce_lab::sim::{algorithms::{self, Algorithm}, run::*, topology::*, units::Bandwidth};
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
        let contributors = *self.changes.contributors.get(p.k)?;
        if p.current.chunk >= p.chunk_hi {
            let t = self.changes.transfers[p.next_transfer];
            p.next_transfer += 1;
            let tr = self.schedule.transfer(t as usize);
            p.current = CellChange {
                transfer: t,
                rank: tr.dst,
                chunk: tr.chunk_lo,
                contributors: 0,
            };
            p.chunk_hi = tr.chunk_hi;
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
    pub at: Vec<u32>,
    /// Palette indexes, or the rates as they are.
    pub rates: Result<Vec<u8>, Vec<f64>>,
    pub palette: Vec<f64>,
}

impl Timeline {
    /// The lengths of [`into_parts`](Self::into_parts)' vectors, without taking them: the
    /// changes, the palette indexes (0 where the rates are kept as they are), the raw rates and
    /// the palette.
    pub(crate) fn part_lens(&self) -> [usize; 4] {
        let (indexed, raw) = match &self.rate {
            Rates::Palette(v) => (v.len(), 0),
            Rates::Raw(v) => (0, v.len()),
        };
        [self.at.len(), indexed, raw, self.palette.len()]
    }

    pub(crate) fn into_parts(self) -> TimelineParts {
        TimelineParts {
            at: self.at,
            rates: match self.rate {
                Rates::Palette(v) => Ok(v),
                Rates::Raw(v) => Err(v),
            },
            palette: self.palette,
        }
    }

    /// The timeline of `parts` over `instants`; `None` unless every change names an instant and
    /// a rate, in time order.
    pub(crate) fn from_parts(parts: TimelineParts, instants: &Arc<Vec<f64>>) -> Option<Timeline> {
        let TimelineParts { at, rates, palette } = parts;
        let in_order = at.windows(2).all(|w| w[0] <= w[1]);
        let named = at.last().is_none_or(|&i| (i as usize) < instants.len());
        let rated = match &rates {
            Ok(v) => v.len() == at.len() && v.iter().all(|&k| (k as usize) < palette.len()),
            Err(v) => v.len() == at.len(),
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
    /// The instants and, per transfer, the indexes of its start, first byte, last byte and done
    /// (empty when done at the last byte).
    pub(crate) fn into_parts(self) -> (Arc<Vec<f64>>, [Vec<u32>; 4]) {
        (
            self.instants,
            [self.start, self.first_byte, self.last_byte, self.done],
        )
    }

    /// The timings of `parts` over `instants`, which the caller has checked (see
    /// [`wire`](super::wire)): a time of each kind for every transfer (`done` may be empty),
    /// each naming an instant.
    pub(crate) fn from_parts(instants: &Arc<Vec<f64>>, parts: [Vec<u32>; 4]) -> Timings {
        let [start, first_byte, last_byte, done] = parts;
        Timings {
            instants: Arc::clone(instants),
            start,
            first_byte,
            last_byte,
            done,
        }
    }
}

impl CellChanges {
    /// The transfers that changed cells, in order, and the contributor counts.
    pub(crate) fn into_parts(self) -> (Vec<u32>, Vec<u32>) {
        (self.transfers, self.contributors)
    }

    /// The changes of `parts`, which the caller has checked (see [`wire`](super::wire)): every
    /// transfer one of the schedule's that carries chunks, and a count for each of its chunks.
    pub(crate) fn from_parts(transfers: Vec<u32>, contributors: Vec<u32>) -> CellChanges {
        CellChanges {
            transfers,
            contributors,
        }
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

    #[test]
    fn an_instant_recorded_again_is_kept_once() {
        let mut instants = Instants::new();
        assert_eq!(instants.index(0.0), 0);
        assert_eq!(instants.index(1.5), 1);
        assert_eq!(instants.index(1.5), 1);
        assert_eq!(instants.index(2.0), 2);
        assert_eq!(*instants.share(), vec![0.0, 1.5, 2.0]);
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
