//! Reading a finished [`Trace`] at any simulated instant: which transfers are in flight and how far
//! along, what every rank's buffer cells hold, how loaded every link is, and where the algorithm's
//! step boundaries lie. A view (the browser app, a test) moves one time cursor and asks these
//! questions; nothing here recomputes physics.
//!
//! ```
//! use allreduce_sim::{replay::Replay, scenario::*, algorithms::Algorithm,
//!     topology::TopologySpec, units::Bandwidth};
//! let scenario = Scenario {
//!     topology: TopologySpec::Uniform { ranks: 4, bandwidth: Bandwidth::from_gbytes_per_sec(100.0), latency_secs: 5e-6 },
//!     algorithm: Algorithm::Ring, size_bytes: 1 << 20, segments: 1, gamma_secs_per_byte: 0.0,
//!     faults: Default::default(),
//! };
//! let trace = simulate(&scenario, true).unwrap().trace;
//! let replay = Replay::new(&trace);
//! // Before anything moved, every rank holds only its own contribution.
//! assert!(replay.cells_at(&trace, 0.0).iter().all(|&c| c == 1));
//! // At the end, every cell holds all four.
//! assert!(replay.cells_at(&trace, trace.time_secs).iter().all(|&c| c == 4));
//! ```
//!
//! Size: over 450 lines because half of it is documentation and tests.

use super::records::CellChangesPos;
use super::trace::Trace;
use std::cell::RefCell;
use std::rc::Rc;

/// A transfer that has started but is not yet done at some instant.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct InFlight {
    /// The transfer's id in the schedule.
    pub transfer: usize,
    /// How much of its payload has streamed, 0..=1: linear between the first and the last byte.
    pub progress: f64,
}

/// Indices over a trace that make time-cursor queries cheap. Build once per trace.
#[derive(Clone, Debug, Default)]
pub struct Replay {
    /// Transfer ids ordered by start time.
    by_start: Vec<u32>,
    /// The longest start → done span, to bound the search for transfers still in flight.
    longest_secs: f64,
    /// When each of `trace.cell_changes` takes effect (its transfer's `done_secs`), non-decreasing.
    change_secs: Vec<f64>,
    /// The buffers [`cells_at`](Replay::cells_at) found last, and where in the changes they stand.
    cells: RefCell<Option<Cells>>,
}

/// Every rank's buffer after the changes before `pos`.
#[derive(Clone, Debug)]
struct Cells {
    pos: CellChangesPos,
    cells: Rc<Vec<u32>>,
}

impl Replay {
    /// Indexes `trace` for time-cursor queries (see [`ReplayBuilder`] to do it in slices).
    ///
    /// ```
    /// use allreduce_sim::{algorithms::{self, Algorithm}, replay::*, run::*, topology::*, units::Bandwidth};
    /// let topo = Topology::new(&TopologySpec::Uniform {
    ///     ranks: 4, bandwidth: Bandwidth::from_gbytes_per_sec(1.0), latency_secs: 0.0 }).unwrap();
    /// let trace = run(&topo, algorithms::schedule(Algorithm::Ring, &topo, 4_000_000, 1), &RunOptions::default());
    /// let replay = Replay::new(&trace);
    /// assert_eq!(replay.changes_until(0.0), 0);
    /// assert_eq!(replay.changes_until(trace.time_secs), trace.cell_changes.len());
    /// ```
    pub fn new(trace: &Trace) -> Replay {
        ReplayBuilder::new(trace).finish(trace)
    }

    /// The transfers in flight at `t` (started, not yet done), in start order, with their progress.
    ///
    /// ```
    /// use allreduce_sim::{algorithms::{self, Algorithm}, replay::*, run::*, topology::*, units::Bandwidth};
    /// let topo = Topology::new(&TopologySpec::Uniform {
    ///     ranks: 4, bandwidth: Bandwidth::from_gbytes_per_sec(1.0), latency_secs: 0.0 }).unwrap();
    /// let trace = run(&topo, algorithms::schedule(Algorithm::Ring, &topo, 4_000_000, 1), &RunOptions::default());
    /// // Half-way through the ring's first step (1 ms), each rank's first message is half sent.
    /// let moving = Replay::new(&trace).in_flight(&trace, 0.5e-3);
    /// assert_eq!(moving.len(), 4);
    /// assert!(moving.iter().all(|f| (f.progress - 0.5).abs() < 1e-9));
    /// ```
    pub fn in_flight(&self, trace: &Trace, t: f64) -> Vec<InFlight> {
        let end = self
            .by_start
            .partition_point(|&id| trace.timing(id as usize).start_secs <= t);
        let begin = self.by_start[..end]
            .partition_point(|&id| trace.timing(id as usize).start_secs < t - self.longest_secs);
        self.by_start[begin..end]
            .iter()
            .filter_map(|&id| {
                let timing = trace.timing(id as usize);
                (t < timing.done_secs).then(|| InFlight {
                    transfer: id as usize,
                    progress: stream_progress(timing.first_byte_secs, timing.last_byte_secs, t),
                })
            })
            .collect()
    }

    /// How many cell changes have taken effect by `t`.
    ///
    /// # Examples
    ///
    /// ```
    /// use allreduce_sim::{algorithms::{self, Algorithm}, replay::*, run::*, topology::*, units::Bandwidth};
    /// let topo = Topology::new(&TopologySpec::Uniform {
    ///     ranks: 4, bandwidth: Bandwidth::from_gbytes_per_sec(1.0), latency_secs: 0.0 }).unwrap();
    /// let trace = run(&topo, algorithms::schedule(Algorithm::Ring, &topo, 4_000_000, 1), &RunOptions::default());
    /// // Each of the ring's steps (1 ms each) changes one cell on every rank.
    /// let replay = Replay::new(&trace);
    /// assert_eq!((replay.changes_until(0.5e-3), replay.changes_until(1e-3)), (0, 4));
    /// assert_eq!(replay.changes_until(trace.time_secs), 6 * 4);
    /// ```
    pub fn changes_until(&self, t: f64) -> usize {
        self.change_secs.partition_point(|&s| s <= t)
    }

    /// Every rank's buffer at `t`: the contributor count of each cell, row-major
    /// (`rank * chunks + chunk`). Every cell starts holding its own rank's contribution (1).
    ///
    /// The buffers found last are kept: asked again for the same moment (a frame's figure and
    /// buffer panel both ask), they are shared, and for a later moment (playing) only the changes
    /// in between are applied; an earlier moment starts again from the beginning. (perf: playing
    /// a 1,024-GPU ring, each frame replayed its 2 M changes into 1 M cells twice.)
    ///
    /// ```
    /// use allreduce_sim::{algorithms::{self, Algorithm}, replay::*, run::*, topology::*, units::Bandwidth};
    /// let topo = Topology::new(&TopologySpec::Uniform {
    ///     ranks: 4, bandwidth: Bandwidth::from_gbytes_per_sec(1.0), latency_secs: 0.0 }).unwrap();
    /// let trace = run(&topo, algorithms::schedule(Algorithm::Ring, &topo, 4_000_000, 1), &RunOptions::default());
    /// // After the ring's first step, each rank holds one chunk that sums two contributions.
    /// let cells = Replay::new(&trace).cells_at(&trace, 1.5e-3);
    /// assert_eq!(cells.len(), 16);
    /// assert_eq!(cells.iter().filter(|&&c| c == 2).count(), 4);
    /// assert_eq!(cells.iter().filter(|&&c| c == 1).count(), 12);
    /// ```
    pub fn cells_at(&self, trace: &Trace, t: f64) -> Rc<Vec<u32>> {
        let chunks = trace.schedule.chunks();
        let size = trace.schedule.ranks() * chunks;
        let until = self.changes_until(t);
        let mut memo = self.cells.borrow_mut();
        let memo = match memo.as_mut() {
            Some(m) if m.pos.changes_read() <= until && m.cells.len() == size => m,
            _ => memo.insert(Cells {
                pos: CellChangesPos::START,
                cells: Rc::new(vec![1u32; size]),
            }),
        };
        let more = until - memo.pos.changes_read();
        if more > 0 {
            // In place unless a caller still holds the last buffers.
            let cells = Rc::make_mut(&mut memo.cells);
            let mut changes = trace.cell_changes.iter_from(&trace.schedule, memo.pos);
            for change in changes.by_ref().take(more) {
                cells[change.rank as usize * chunks + change.chunk as usize] = change.contributors;
            }
            memo.pos = changes.pos();
        }
        Rc::clone(&memo.cells)
    }
}

/// Builds a [`Replay`] a bounded amount of work at a time ([`ReplayBuilder::step`]), so that a
/// caller that must stay responsive can index a trace of millions of transfers between frames.
/// [`Replay::new`] is this, run to the end.
///
/// The transfers are put in start order by a counting sort on their start instants (the run's
/// distinct times, which increase, so their indexes order the starts as the times do): count the
/// transfers starting at each instant, sum the counts into places, then put each transfer at its
/// instant's next place, in id order. That is exactly a stable sort by start time, with a count
/// per instant and the result as its only memory (perf: the merge sort of (start time, id) keys
/// it replaces held 32 bytes a transfer besides the result, 268 MB for NCCL's rings on 1,024
/// GPUs of a rail network).
///
/// ```
/// use allreduce_sim::{replay::*, scenario::*, algorithms::Algorithm,
///     topology::TopologySpec, units::Bandwidth};
/// let scenario = Scenario {
///     topology: TopologySpec::Uniform { ranks: 32, bandwidth: Bandwidth::from_gbytes_per_sec(100.0), latency_secs: 5e-6 },
///     algorithm: Algorithm::Ring, size_bytes: 1 << 20, segments: 1, gamma_secs_per_byte: 0.0,
///     faults: Default::default(),
/// };
/// let trace = simulate(&scenario, true).unwrap().trace;
/// let mut builder = ReplayBuilder::new(&trace);
/// while !builder.step(&trace, 100) {}
/// let (a, b) = (builder.finish(&trace), Replay::new(&trace));
/// let t = trace.time_secs / 3.0;
/// assert_eq!(a.in_flight(&trace, t), b.in_flight(&trace, t));
/// ```
pub struct ReplayBuilder {
    /// Per instant: how many transfers start at it, then (summed) the place of the next one.
    places: Vec<u32>,
    stage: Stage,
    longest_secs: f64,
    change_secs: Vec<f64>,
    latest: f64,
    by_start: Vec<u32>,
}

#[derive(Clone, Copy, Debug)]
enum Stage {
    /// Counting the transfers that start at each instant (and the longest span), from this
    /// transfer on.
    Count(usize),
    /// Summing the counts into places, from this instant on, with the sum so far.
    Sum(usize, u32),
    /// Putting each transfer at its place, from this one on.
    Place(usize),
    /// Timing the cell changes, from this one on.
    Changes(usize),
    Done,
}

impl ReplayBuilder {
    /// Starts indexing `trace`; nothing is done until [`step`](Self::step) or [`finish`](Self::finish).
    ///
    /// ```
    /// use allreduce_sim::{algorithms::{self, Algorithm}, replay::*, run::*, topology::*, units::Bandwidth};
    /// let topo = Topology::new(&TopologySpec::Uniform {
    ///     ranks: 4, bandwidth: Bandwidth::from_gbytes_per_sec(1.0), latency_secs: 0.0 }).unwrap();
    /// let trace = run(&topo, algorithms::schedule(Algorithm::Ring, &topo, 4_000_000, 1), &RunOptions::default());
    /// let replay = ReplayBuilder::new(&trace).finish(&trace);
    /// assert_eq!(replay.in_flight(&trace, 0.5e-3), Replay::new(&trace).in_flight(&trace, 0.5e-3));
    /// ```
    pub fn new(trace: &Trace) -> ReplayBuilder {
        ReplayBuilder {
            places: vec![0; trace.timings.instant_count()],
            stage: Stage::Count(0),
            longest_secs: 0.0,
            change_secs: Vec::new(),
            latest: 0.0,
            by_start: Vec::new(),
        }
    }

    /// Does about `max` elements' work (at least one); `true` once
    /// [`finish`](Self::finish) has nothing left to do.
    ///
    /// ```
    /// use allreduce_sim::{algorithms::{self, Algorithm}, replay::*, run::*, topology::*, units::Bandwidth};
    /// let topo = Topology::new(&TopologySpec::Uniform {
    ///     ranks: 4, bandwidth: Bandwidth::from_gbytes_per_sec(1.0), latency_secs: 0.0 }).unwrap();
    /// let trace = run(&topo, algorithms::schedule(Algorithm::Ring, &topo, 4_000_000, 1), &RunOptions::default());
    /// let mut builder = ReplayBuilder::new(&trace);
    /// assert!(!builder.step(&trace, 1)); // 24 transfers: more than one element's work
    /// while !builder.step(&trace, 1) {}
    /// assert_eq!(builder.finish(&trace).changes_until(trace.time_secs), trace.cell_changes.len());
    /// ```
    pub fn step(&mut self, trace: &Trace, max: usize) -> bool {
        let n = trace.timings.len();
        let starts = trace.timings.start_instants();
        let mut left = max.max(1);
        while left > 0 {
            match self.stage {
                Stage::Count(from) => {
                    let to = n.min(from.saturating_add(left));
                    for (id, &start) in starts.iter().enumerate().take(to).skip(from) {
                        self.places[start as usize] += 1;
                        let t = trace.timing(id);
                        self.longest_secs = self.longest_secs.max(t.done_secs - t.start_secs);
                    }
                    left -= to - from;
                    self.stage = if to < n {
                        Stage::Count(to)
                    } else {
                        Stage::Sum(0, 0)
                    };
                }
                Stage::Sum(from, mut sum) => {
                    let m = self.places.len();
                    let to = m.min(from.saturating_add(left));
                    for place in &mut self.places[from..to] {
                        (*place, sum) = (sum, sum + *place);
                    }
                    left -= to - from;
                    self.stage = if to < m {
                        Stage::Sum(to, sum)
                    } else {
                        self.by_start = vec![0; n];
                        Stage::Place(0)
                    };
                }
                Stage::Place(from) => {
                    let to = n.min(from.saturating_add(left));
                    for (id, &start) in starts.iter().enumerate().take(to).skip(from) {
                        let place = &mut self.places[start as usize];
                        self.by_start[*place as usize] = id as u32;
                        *place += 1;
                    }
                    left -= to - from;
                    self.stage = if to < n {
                        Stage::Place(to)
                    } else {
                        self.places = Vec::new();
                        self.change_secs = Vec::with_capacity(trace.cell_changes.len());
                        Stage::Changes(0)
                    };
                }
                Stage::Changes(from) => {
                    // By the transfers that made changes, each as many as it carries chunks.
                    let by = trace.cell_changes.transfers();
                    let m = by.len();
                    let to = m.min(from.saturating_add(left));
                    // Changes are appended in time order; the running max guards against
                    // rounding ties.
                    for &t in &by[from..to] {
                        self.latest = self.latest.max(trace.timing(t as usize).done_secs);
                        let chunks = trace.schedule.transfer(t as usize).chunks().len();
                        self.change_secs
                            .extend(std::iter::repeat_n(self.latest, chunks));
                    }
                    left -= to - from;
                    self.stage = if to < m {
                        Stage::Changes(to)
                    } else {
                        Stage::Done
                    };
                }
                Stage::Done => return true,
            }
        }
        matches!(self.stage, Stage::Done)
    }

    /// Does what is left and returns the index.
    ///
    /// ```
    /// use allreduce_sim::{algorithms::{self, Algorithm}, replay::*, run::*, topology::*, units::Bandwidth};
    /// let topo = Topology::new(&TopologySpec::Uniform {
    ///     ranks: 4, bandwidth: Bandwidth::from_gbytes_per_sec(1.0), latency_secs: 0.0 }).unwrap();
    /// let trace = run(&topo, algorithms::schedule(Algorithm::Ring, &topo, 4_000_000, 1), &RunOptions::default());
    /// let replay = ReplayBuilder::new(&trace).finish(&trace);
    /// assert!(replay.cells_at(&trace, trace.time_secs).iter().all(|&c| c == 4));
    /// ```
    pub fn finish(mut self, trace: &Trace) -> Replay {
        while !self.step(trace, super::FINISH_SLICE) {}
        Replay {
            by_start: self.by_start,
            longest_secs: self.longest_secs,
            change_secs: self.change_secs,
            cells: RefCell::default(),
        }
    }
}

/// Linear progress of a stream from `first_byte_secs` to `last_byte_secs` at `t`, clamped to 0..=1.
///
/// ```
/// use allreduce_sim::replay::stream_progress;
/// assert_eq!(stream_progress(1.0, 3.0, 2.0), 0.5);
/// assert_eq!(stream_progress(1.0, 3.0, 0.0), 0.0);
/// assert_eq!(stream_progress(1.0, 1.0, 1.0), 1.0);
/// ```
pub fn stream_progress(first_byte_secs: f64, last_byte_secs: f64, t: f64) -> f64 {
    if t >= last_byte_secs {
        1.0
    } else if t <= first_byte_secs {
        0.0
    } else {
        ((t - first_byte_secs) / (last_byte_secs - first_byte_secs)).clamp(0.0, 1.0)
    }
}

/// A link's rate at `t` as a share of its capacity, 0..=1 (more than 1 only through rounding).
///
/// ```
/// use allreduce_sim::{algorithms::{self, Algorithm}, replay::*, run::*, topology::*, units::Bandwidth};
/// let topo = Topology::new(&TopologySpec::Uniform {
///     ranks: 4, bandwidth: Bandwidth::from_gbytes_per_sec(1.0), latency_secs: 0.0 }).unwrap();
/// let trace = run(&topo, algorithms::schedule(Algorithm::Ring, &topo, 4_000_000, 1), &RunOptions::default());
/// assert!((link_load_at(&trace, 0, 2.5e-3) - 1.0).abs() < 1e-9); // the ring keeps it full
/// assert_eq!(link_load_at(&trace, 0, trace.time_secs), 0.0); // and idle after
/// ```
pub fn link_load_at(trace: &Trace, link: usize, t: f64) -> f64 {
    let capacity = trace.topology.links()[link].bandwidth.bytes_per_sec();
    if capacity > 0.0 {
        trace.link_rate_at(link, t) / capacity
    } else {
        0.0
    }
}

/// Boundaries are compared with this relative slack so that a cursor sitting on one is "at" it.
fn slack(trace: &Trace) -> f64 {
    trace.time_secs.abs() * 1e-12
}

/// The first step boundary strictly after `t` (the run's end when none is left).
///
/// ```
/// use allreduce_sim::{replay::*, scenario::*, algorithms::Algorithm,
///     topology::TopologySpec, units::Bandwidth};
/// let scenario = Scenario {
///     topology: TopologySpec::Uniform { ranks: 4, bandwidth: Bandwidth::from_gbytes_per_sec(1.0), latency_secs: 0.0 },
///     algorithm: Algorithm::Ring, size_bytes: 4_000_000, segments: 1, gamma_secs_per_byte: 0.0,
///     faults: Default::default(),
/// };
/// let trace = simulate(&scenario, true).unwrap().trace;
/// // Ring on 4 ranks: 6 steps of 1 MB at 1 GB/s each.
/// assert!((next_step_end(&trace, 0.0) - 1e-3).abs() < 1e-12);
/// assert!((previous_step_end(&trace, 2e-3) - 1e-3).abs() < 1e-12);
/// assert_eq!(previous_step_end(&trace, 1e-3 * 0.5), 0.0);
/// ```
pub fn next_step_end(trace: &Trace, t: f64) -> f64 {
    let eps = slack(trace);
    trace
        .step_end_secs
        .iter()
        .copied()
        .find(|&s| s > t + eps)
        .unwrap_or(trace.time_secs)
        .min(trace.time_secs)
}

/// The last step boundary strictly before `t` (0 when none is).
///
/// ```
/// use allreduce_sim::{algorithms::{self, Algorithm}, replay::*, run::*, topology::*, units::Bandwidth};
/// let topo = Topology::new(&TopologySpec::Uniform {
///     ranks: 4, bandwidth: Bandwidth::from_gbytes_per_sec(1.0), latency_secs: 0.0 }).unwrap();
/// let trace = run(&topo, algorithms::schedule(Algorithm::Ring, &topo, 4_000_000, 1), &RunOptions::default());
/// // Steps end every millisecond; a cursor on a boundary is at it, not after it.
/// assert!((previous_step_end(&trace, 3.5e-3) - 3e-3).abs() < 1e-12);
/// assert!((previous_step_end(&trace, 3e-3) - 2e-3).abs() < 1e-12);
/// assert_eq!(previous_step_end(&trace, 0.0), 0.0);
/// ```
pub fn previous_step_end(trace: &Trace, t: f64) -> f64 {
    let eps = slack(trace);
    trace
        .step_end_secs
        .iter()
        .rev()
        .copied()
        .find(|&s| s < t - eps)
        .unwrap_or(0.0)
        .max(0.0)
}

/// Which step the cursor at `t` is in: the number of step boundaries at or before `t`.
///
/// # Examples
///
/// ```
/// use allreduce_sim::{algorithms::{self, Algorithm}, replay::*, run::*, topology::*, units::Bandwidth};
/// let topo = Topology::new(&TopologySpec::Uniform {
///     ranks: 4, bandwidth: Bandwidth::from_gbytes_per_sec(1.0), latency_secs: 0.0 }).unwrap();
/// let trace = run(&topo, algorithms::schedule(Algorithm::Ring, &topo, 4_000_000, 1), &RunOptions::default());
/// // Steps end every millisecond; a cursor on a boundary counts it.
/// assert_eq!(step_index_at(&trace, 0.5e-3), 0);
/// assert_eq!(step_index_at(&trace, 1e-3), 1);
/// assert_eq!(step_index_at(&trace, trace.time_secs), 6); // 2(N−1) steps
/// ```
pub fn step_index_at(trace: &Trace, t: f64) -> usize {
    let eps = slack(trace);
    trace.step_end_secs.partition_point(|&s| s <= t + eps)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The index as it was built before it could be built in slices: a stable sort by start.
    fn by_start_stable_sort(trace: &Trace) -> Vec<u32> {
        let mut by_start: Vec<u32> = (0..trace.timings.len() as u32).collect();
        by_start.sort_by(|&a, &b| {
            trace
                .timing(a as usize)
                .start_secs
                .total_cmp(&trace.timing(b as usize).start_secs)
        });
        by_start
    }

    #[test]
    fn the_index_built_in_slices_is_the_stable_sort_by_start() {
        // Slices that end inside the counting and the summing, ties in start times (a ring's
        // steps), and a tree whose ids are far from start order.
        let mut traces: Vec<(String, Trace)> = [
            (100, Algorithm::Ring),
            (7, Algorithm::Ring),
            (64, Algorithm::TreeBinomial),
            (90, Algorithm::DoubleBinaryTree),
        ]
        .into_iter()
        .map(|(ranks, a)| (format!("{a} {ranks}"), uniform(ranks, a, 1e-6)))
        .collect();
        // Reductions that take time and a late rank (transfers done apart from their last byte,
        // starts out of step), as the page reads them back from its worker.
        for algorithm in [Algorithm::Ring, Algorithm::DoubleBinaryTree] {
            let scenario = Scenario {
                topology: TopologySpec::Uniform {
                    ranks: 24,
                    bandwidth: Bandwidth::from_gbytes_per_sec(1.0),
                    latency_secs: 1e-6,
                },
                algorithm,
                size_bytes: 8_000_000,
                segments: 4,
                gamma_secs_per_byte: 1e-10,
                faults: crate::faults::Faults {
                    slow_links: Vec::new(),
                    stragglers: vec![crate::faults::Straggler {
                        rank: 5,
                        delay_secs: 3e-4,
                    }],
                },
            };
            let sections = crate::wire::to_sections(simulate(&scenario, true).unwrap());
            let sim = crate::wire::from_sections(sections, &scenario).unwrap();
            traces.push((format!("{algorithm} read back"), sim.trace));
        }
        for (what, trace) in traces {
            let whole = Replay::new(&trace);
            assert_eq!(whole.by_start, by_start_stable_sort(&trace), "{what}");
            for slice in [1, 7, 1000, 5000] {
                let mut b = ReplayBuilder::new(&trace);
                while !b.step(&trace, slice) {}
                let sliced = b.finish(&trace);
                assert_eq!(sliced.by_start, whole.by_start);
                assert_eq!(sliced.change_secs, whole.change_secs);
                assert_eq!(sliced.longest_secs.to_bits(), whole.longest_secs.to_bits());
            }
        }
    }
    use crate::algorithms::Algorithm;
    use crate::scenario::{Scenario, simulate};
    use crate::topology::TopologySpec;
    use crate::units::Bandwidth;

    fn uniform(ranks: usize, algorithm: Algorithm, latency_secs: f64) -> Trace {
        let scenario = Scenario {
            topology: TopologySpec::Uniform {
                ranks,
                bandwidth: Bandwidth::from_gbytes_per_sec(1.0),
                latency_secs,
            },
            algorithm,
            size_bytes: 8_000_000,
            segments: 2,
            gamma_secs_per_byte: 0.0,
            faults: Default::default(),
        };
        simulate(&scenario, true).unwrap().trace
    }

    /// Every rank's buffer at `t`, replayed from the start: what `cells_at` answered before it
    /// kept its last buffers.
    fn cells_from_scratch(trace: &Trace, t: f64) -> Vec<u32> {
        let chunks = trace.schedule.chunks();
        let mut cells = vec![1u32; trace.schedule.ranks() * chunks];
        let until = Replay::new(trace).changes_until(t);
        for change in trace.cell_changes.iter(&trace.schedule).take(until) {
            cells[change.rank as usize * chunks + change.chunk as usize] = change.contributors;
        }
        cells
    }

    #[test]
    fn buffers_kept_between_moments_equal_a_replay_from_the_start_in_any_order() {
        // Forward (playing), the same moment again (a frame's second reader), backward (a
        // scrub), a held result while the next is found: every algorithm, multi-chunk transfers
        // (trees in segments, hierarchical) included.
        for alg in Algorithm::CONCRETE {
            let trace = uniform(6, alg, 2e-6);
            let replay = Replay::new(&trace);
            let at = |f: f64| trace.time_secs * f;
            let mut held = Vec::new();
            for f in [
                0.0, 0.1, 0.1, 0.35, 0.9, 0.2, 0.2, 0.5, 1.0, -1.0, 0.7, 0.71, 2.0,
            ] {
                let cells = replay.cells_at(&trace, at(f));
                assert_eq!(*cells, cells_from_scratch(&trace, at(f)), "{alg} at {f}");
                held.push((f, cells));
            }
            // Held answers were not changed by the later ones.
            for (f, cells) in held {
                assert_eq!(
                    *cells,
                    cells_from_scratch(&trace, at(f)),
                    "{alg} held at {f}"
                );
            }
        }
    }

    #[test]
    fn every_buffer_is_complete_at_the_end_and_only_own_data_at_the_start() {
        for alg in Algorithm::CONCRETE {
            let trace = uniform(6, alg, 2e-6);
            let replay = Replay::new(&trace);
            assert!(
                replay.cells_at(&trace, -1.0).iter().all(|&c| c == 1),
                "{alg}"
            );
            assert!(
                replay
                    .cells_at(&trace, trace.time_secs)
                    .iter()
                    .all(|&c| c == 6),
                "{alg}"
            );
        }
    }

    #[test]
    fn contributor_counts_never_decrease_for_reduce_scatter_cells_over_time() {
        let trace = uniform(8, Algorithm::Ring, 1e-6);
        let replay = Replay::new(&trace);
        let total: Vec<u32> = (0..=20)
            .map(|i| {
                replay
                    .cells_at(&trace, trace.time_secs * i as f64 / 20.0)
                    .iter()
                    .sum()
            })
            .collect();
        assert!(total.windows(2).all(|w| w[0] <= w[1]), "{total:?}");
    }

    #[test]
    fn in_flight_transfers_have_started_and_are_not_done() {
        let trace = uniform(8, Algorithm::TreeBinary, 3e-6);
        let replay = Replay::new(&trace);
        for i in 0..50 {
            let t = trace.time_secs * i as f64 / 50.0;
            let flying = replay.in_flight(&trace, t);
            let expected = trace
                .timings
                .iter()
                .filter(|x| x.start_secs <= t && t < x.done_secs)
                .count();
            assert_eq!(flying.len(), expected, "t = {t}");
            for f in flying {
                assert!((0.0..=1.0).contains(&f.progress));
            }
        }
        assert!(replay.in_flight(&trace, trace.time_secs).is_empty());
    }

    #[test]
    fn progress_is_half_in_the_middle_of_a_stream() {
        let trace = uniform(2, Algorithm::Ring, 0.0);
        let replay = Replay::new(&trace);
        let first = trace.timing(0);
        let mid = (first.first_byte_secs + first.last_byte_secs) / 2.0;
        let f = replay
            .in_flight(&trace, mid)
            .into_iter()
            .find(|f| f.transfer == 0)
            .unwrap();
        assert!((f.progress - 0.5).abs() < 1e-9);
    }

    #[test]
    fn a_streaming_link_is_fully_loaded_on_an_uncontended_ring() {
        let trace = uniform(4, Algorithm::Ring, 0.0);
        let t = trace.step_end_secs[0] / 2.0;
        assert!((link_load_at(&trace, 0, t) - 1.0).abs() < 1e-9);
        assert_eq!(link_load_at(&trace, 0, trace.time_secs + 1.0), 0.0);
    }

    #[test]
    fn stepping_forward_then_back_returns_to_each_boundary() {
        let trace = uniform(5, Algorithm::Rabenseifner, 1e-6);
        let mut t = 0.0;
        let mut forward = vec![];
        while t < trace.time_secs {
            t = next_step_end(&trace, t);
            forward.push(t);
        }
        assert_eq!(*forward.last().unwrap(), trace.time_secs);
        let mut back = vec![];
        while t > 0.0 {
            t = previous_step_end(&trace, t);
            back.push(t);
        }
        assert_eq!(back.last(), Some(&0.0));
        let mut round_trip: Vec<f64> = back[..back.len() - 1].to_vec();
        round_trip.reverse();
        assert_eq!(round_trip, forward[..forward.len() - 1].to_vec());
        assert_eq!(step_index_at(&trace, 0.0), 0);
        assert_eq!(
            step_index_at(&trace, trace.time_secs),
            trace.step_end_secs.len()
        );
    }

    #[test]
    fn an_empty_run_has_nothing_in_flight() {
        let trace = uniform(1, Algorithm::Ring, 0.0);
        let replay = Replay::new(&trace);
        assert!(replay.in_flight(&trace, 0.0).is_empty());
        assert_eq!(next_step_end(&trace, 0.0), 0.0);
        assert_eq!(previous_step_end(&trace, 0.0), 0.0);
    }
}
