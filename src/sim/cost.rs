//! What a run will cost before it runs: one estimate, from the scenario's numbers alone, that every
//! entry point (the CLI, the lab, the scaling charts) checks against its budget.
//!
//! A run holds, per transfer, its description, its dependencies, its timing and the run's
//! bookkeeping; per rank and chunk, a buffer cell; with details, every change of a cell and of a
//! link's rate. Its time goes mostly to fair sharing: each start or end of a flow re-rates the flows
//! that share a link with it. [`RunCost`] counts each of these and turns them into an upper bound
//! on the bytes a run allocates at its peak (the constants below include the slack of growing
//! vectors); `tests/cost_estimate.rs` (random runs) and `tests/cost_budget.rs` (large ones) check
//! the bound against a counting allocator.
//!
//! ```
//! use allreduce_sim::{algorithms::Algorithm, cost::{RunCost, RUN_BUDGET}};
//! // The course chapter's flat tree (a star) on 4096 ranks with 256 segments: every segment's N−1
//! // flows share the root's port, so fair sharing alone would take hours.
//! let star = RunCost::estimate(Algorithm::TreeFlat, 4096, 4096, 1 << 30, 256, 1, 2);
//! assert!(star.check(&RUN_BUDGET).is_err());
//! // A ring on 1024 ranks of a cluster fits.
//! assert!(RunCost::estimate(Algorithm::Ring, 1024, 8, 1 << 30, 1, 1, 6).check(&RUN_BUDGET).is_ok());
//! ```

use super::algorithms::Algorithm;
use serde::Serialize;

/// Bytes a run holds per transfer, whatever it records: the schedule's entry (12 B; a builder
/// that grows its vectors holds twice that, but before the run), the run's countdown and reverse
/// index start (about 4 B, 6 B where a block of lists is long, counted as 8), the dependency
/// index rebuilt at its end (about 2 B, at most 4 B), the timing (8 B,
/// 12 B with γ, and 4 B more once any transfer's bytes spread over more than 65,535 instants: at most 16 B, see
/// [`records`](super::records)) and the instants it names: a transfer brings at most two new
/// ones (its first and last byte; a third with γ, its reduction's end), 8 B each, in a vector
/// that may have doubled (48 B). (Measured on a 1024-rank ring: 0.46 instants per transfer.)
pub const BYTES_PER_TRANSFER: u64 = 12 + 8 + 4 + 16 + 48;
/// Per dependency edge: the entry in the schedule and the reverse edge (each 4 B, or 2 B when
/// every edge is near; together while the run's index is built and while the schedule's
/// is rebuilt, and through the whole run without details), and the copy kept of a list the reverse index would give back in another order
/// (see `run`).
pub const BYTES_PER_DEPENDENCY: u64 = 12;
/// Per buffer cell (rank × chunk): the cell (12 B), and room for what a run holds besides at its
/// busiest: payload copies in flight (48 B a cell) and contributor sets of three ranges or more
/// kept aside with their sums (48 B slots, and the vector of a set of more than four ranges). Not every cell has
/// both at once: 96 B in all, checked against what runs allocate (`tests/cost_estimate.rs`,
/// `tests/cost_budget.rs`).
/// Measured: Rabenseifner on 4,096 ranks (16.8 M cells, whose sets grow to hundreds of ranges),
/// estimated at 1.63 GB, peaks at 1.91 GB of resident memory (the allocator's slack and the
/// vectors of large sets, which no per-cell figure bounds; 2.1 GB before sets of up to four
/// ranges were kept inline).
pub const BYTES_PER_CELL: u64 = 96;
/// Per rank: traffic counters, reducer clocks, in-flight slots.
pub const BYTES_PER_RANK: u64 = 512;
/// Per cell change recorded with details: its contributor count (2 B, two to a word) and at most
/// one done transfer's id (4 B), both in room reserved exactly; 8 B leaves margin.
pub const BYTES_PER_CELL_CHANGE: u64 = 8;
/// Per link rate change recorded with details: its instant index (2 B in a block of 64 that
/// spans at most 65,535 instants, else 4 B) and its rate, a palette index (half a byte) or, on a
/// link past 16 distinct rates, the rate itself (8 B); room doubled where a link outgrows the
/// run's hint: at most 24 B.
pub const BYTES_PER_RATE_CHANGE: u64 = 24;
/// What every run needs besides (topology with its NICs and routes, queues, the trace's small
/// vectors). 4 MiB: a 2-GPU tree with 47 segments was seen to allocate 1.48 MB with details.
pub const BYTES_FIXED: u64 = 4 << 20;

/// The typical cost ([`RunCost::peak_bytes_typical`]) per transfer: as
/// [`BYTES_PER_TRANSFER`], with one instant per transfer (8 B, in a vector that may have doubled:
/// 16 B) instead of their bound of two (measured: 0.46 per transfer on a 1024-rank ring).
pub const TYPICAL_BYTES_PER_TRANSFER: u64 = 12 + 8 + 4 + 16 + 16;
/// The typical cost per buffer cell: the cell (12 B) and as much again for contributor sets kept
/// aside and payloads in flight (a ring keeps none aside; NCCL's rings, whose order is not the
/// ranks', can). `tests/cost_budget.rs` checks the typical total against real runs.
pub const TYPICAL_BYTES_PER_CELL: u64 = 24;
/// The typical cost per link rate change: its instant index and its palette index (half a byte),
/// in room that may have doubled. The index is counted at 4 B, as it is on a link whose changes are far
/// apart; most links keep it in about 2 (see [`records`](super::records)), which this figure
/// leaves as margin.
pub const TYPICAL_BYTES_PER_RATE_CHANGE: u64 = 10;

/// How much of each thing a run makes, and what that costs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct RunCost {
    pub transfers: u64,
    /// Dependency edges, joins' members included (an upper bound).
    pub dependencies: u64,
    /// Buffer cells: ranks × chunks.
    pub cells: u64,
    /// Cell changes recorded with details: every chunk every transfer delivers.
    pub cell_changes: u64,
    /// Link rate changes recorded with details, estimated: each start or end of a flow changes
    /// the rate of each link it and the flows re-rated with it cross (not a proven bound;
    /// `tests/cost_estimate.rs` checks it against random runs).
    pub rate_changes: u64,
    /// Link rate changes a run is expected to record: [`rate_changes`](Self::rate_changes),
    /// except for rings, whose steps start and end together, so that a link changes once per
    /// instant however many of their flows it carries: one change per link of the route per
    /// start or end; and NCCL's channels, the same ring in lockstep, so that a start or an end
    /// changes each link of a route once for all of them: one per link of the route per
    /// transfer (with two channels or more). Not a bound (on a cluster whose NVLink is slower than its NICs NCCL's channels
    /// drift apart: 10.6 changes per transfer seen against 4 expected), so a budget that counts
    /// it ([`Budget::typical`]) needs a guard that stops a run outgrowing it
    /// ([`Simulating::limit_memory`](super::scenario::Simulating::limit_memory)). Measured with
    /// details on the lab's rail networks: NCCL's rings 1.9–5.8 per transfer (expected 8; bound
    /// 32–128), the hierarchical ring 4.0–10.0 (expected 12–16; bound 24–32). A topology may add
    /// its own ([`with_extra_rate_changes`](Self::with_extra_rate_changes): a ring crossing a
    /// rail network's spine without PXN).
    pub rate_changes_expected: u64,
    /// The work of fair sharing: transfers × the most flows that one link carries at once.
    pub sharing_work: u64,
    /// Peak bytes allocated without details, and with them (an upper bound).
    pub peak_bytes: u64,
    pub peak_bytes_with_details: u64,
    /// Peak bytes a run with details typically allocates: every item at its typical cost
    /// ([`TYPICAL_BYTES_PER_TRANSFER`], [`TYPICAL_BYTES_PER_CELL`],
    /// [`TYPICAL_BYTES_PER_RATE_CHANGE`]) and the rate changes counted as expected
    /// ([`rate_changes_expected`](Self::rate_changes_expected)). Not a bound: what the lab admits
    /// by, its runs guarded by a measurement of the heap. For `auto`, the most of any
    /// candidate's (not derivable from its other fields, which are each a maximum of their own).
    pub peak_bytes_typical: u64,
}

/// The most a run may cost.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Budget {
    /// Peak bytes allocated, by a run that records details (link timelines, cell changes) or not.
    pub bytes: u64,
    pub details: bool,
    /// With details: count a run's typical cost ([`RunCost::peak_bytes_typical`]) instead of
    /// its bound, a guard stopping the run should it outgrow it all the same (the lab's runs,
    /// guarded at 3 GB of wasm memory; see
    /// [`Simulating::limit_memory`](super::scenario::Simulating::limit_memory)).
    pub typical: bool,
    /// [`RunCost::sharing_work`]: about 10⁹ is a few seconds of fair sharing (1.2·10⁹, NCCL's
    /// rings on 768 GPUs of 16 per node with 8 NICs, took 9.2 s natively).
    pub sharing_work: u64,
}

/// The CLI's and the library's budget ([`Scenario::validate`](super::scenario::Scenario::validate)):
/// 2 GB without details (the CLI records none) and a run of up to about a minute.
pub const RUN_BUDGET: Budget = Budget {
    bytes: 2_000_000_000,
    details: false,
    typical: false,
    sharing_work: 4_000_000_000,
};

/// What is over budget.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Exceeded {
    Memory,
    Work,
}

/// A run that does not fit its budget, and how to make it fit.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct OverBudget {
    pub cost: RunCost,
    pub budget: Budget,
    pub exceeded: Exceeded,
    /// The most ranks of the same shape that fit (filled in by [`Scenario::cost`](super::scenario::Scenario::cost)), if
    /// any do.
    pub max_ranks: Option<usize>,
    /// The most pipeline segments that fit, for a tree, if any do.
    pub max_segments: Option<usize>,
}

impl std::fmt::Display for OverBudget {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.exceeded {
            Exceeded::Memory => write!(
                f,
                "would need about {} of memory ({} transfers, {} buffer cells); the limit is {}",
                super::units::format_bytes(self.cost.peak_bytes_for(&self.budget) as f64),
                self.cost.transfers,
                self.cost.cells,
                super::units::format_bytes(self.budget.bytes as f64),
            )?,
            Exceeded::Work => write!(
                f,
                "would re-share links about {:.1e} times ({} transfers, many sharing one link); the limit is {:.1e}",
                self.cost.sharing_work as f64, self.cost.transfers, self.budget.sharing_work as f64
            )?,
        }
        let mut ways = Vec::new();
        if let Some(k) = self.max_segments {
            ways.push(format!("at most {k} segments"));
        }
        if let Some(n) = self.max_ranks {
            ways.push(format!("at most {n} ranks"));
        }
        ways.push("another algorithm".into());
        write!(f, ". To shrink the run use {}", ways.join(", or "))
    }
}

fn log2(x: u64) -> u64 {
    (u64::BITS - 1 - x.leading_zeros()) as u64
}

impl RunCost {
    /// The cost of `algorithm` on `ranks` ranks with `gpus_per_node` GPUs per node, buffers of
    /// `size_bytes` and `segments` pipeline segments, `channels` parallel rings or trees for NCCL's
    /// shapes, on a topology whose longest route crosses `route_links` links. [`Algorithm::Auto`] runs every candidate one after another, then its
    /// choice with details.
    ///
    /// ```
    /// use allreduce_sim::{algorithms::Algorithm, cost::RunCost};
    /// let ring = RunCost::estimate(Algorithm::Ring, 4, 4, 4000, 1, 1, 2);
    /// // 2(N−1) steps of N transfers; N chunks on each of N ranks.
    /// assert_eq!((ring.transfers, ring.cells), (24, 16));
    /// assert!(ring.peak_bytes_with_details >= ring.peak_bytes);
    /// ```
    pub fn estimate(
        algorithm: Algorithm,
        ranks: usize,
        gpus_per_node: usize,
        size_bytes: u64,
        segments: usize,
        channels: usize,
        route_links: usize,
    ) -> RunCost {
        let n = ranks as u64;
        // Trees cut each piece into at most one segment per byte (see `algorithms::tree`).
        let k = match algorithm {
            Algorithm::DoubleBinaryTree => (size_bytes / 2).max(1),
            _ => size_bytes.max(1),
        }
        .min(segments.clamp(1, super::algorithms::MAX_SEGMENTS) as u64);
        let route = route_links.max(1) as u64;
        if algorithm == Algorithm::Auto {
            let all = Algorithm::CONCRETE.map(|a| {
                RunCost::estimate(
                    a,
                    ranks,
                    gpus_per_node,
                    size_bytes,
                    segments,
                    channels,
                    route_links,
                )
            });
            let sum = |f: fn(&RunCost) -> u64| all.iter().map(f).sum::<u64>();
            let max = |f: fn(&RunCost) -> u64| all.iter().map(f).max().unwrap_or(0);
            return RunCost {
                transfers: sum(|c| c.transfers),
                dependencies: max(|c| c.dependencies),
                cells: max(|c| c.cells),
                cell_changes: max(|c| c.cell_changes),
                rate_changes: max(|c| c.rate_changes),
                // Only the chosen candidate records details.
                rate_changes_expected: max(|c| c.rate_changes_expected),
                sharing_work: sum(|c| c.sharing_work),
                peak_bytes: max(|c| c.peak_bytes),
                peak_bytes_with_details: max(|c| c.peak_bytes_with_details),
                peak_bytes_typical: max(|c| c.peak_bytes_typical),
            };
        }
        if n < 2 {
            return RunCost::of_counts(0, 0, n, 0, (0, 0), 0, n);
        }
        let pof2 = 1u64 << log2(n);
        let rem = n - pof2;
        let g = (gpus_per_node as u64).clamp(1, n);
        let m = n / g;
        // (transfers, dependencies per transfer at most, chunks, cell changes, flows on one link at once)
        let (transfers, deps_each, chunks, changes, fan_in) = match algorithm {
            Algorithm::Ring => {
                let t = 2 * n * (n - 1);
                (t, 2, n, t, 1)
            }
            Algorithm::TreeFlat | Algorithm::TreeBinomial | Algorithm::TreeBinary => {
                let t = 2 * (n - 1) * k;
                let fan_in = match algorithm {
                    // The root's port carries a flow from (or to) every other rank.
                    Algorithm::TreeFlat => n - 1,
                    Algorithm::TreeBinomial => log2(n) + 1,
                    _ => 3,
                };
                // Each reduce waits for its children's and its own previous send; the joins add
                // N−1 members per segment.
                (t, 3, k, t, fan_in)
            }
            Algorithm::DoubleBinaryTree => {
                let t = 4 * (n - 1) * k;
                (t, 3, 2 * k, t, 6)
            }
            Algorithm::RecursiveDoubling => {
                let t = pof2 * log2(pof2) + 2 * rem;
                (t, 4, 1, t, 2)
            }
            Algorithm::Rabenseifner => {
                let t = 2 * pof2 * log2(pof2) + 2 * rem;
                (t, 4, pof2, 2 * pof2 * pof2 + 2 * rem * pof2, 2)
            }
            Algorithm::Hierarchical => {
                let intra = 2 * m * g * (g - 1);
                let inter = 2 * g * m * (m - 1);
                (intra + inter, 2, g * m, intra * m + inter, 2)
            }
            Algorithm::NcclRing => {
                // One ring per channel, each cut into k pieces; a GPU's channels share its port.
                let c = channels.max(1) as u64;
                // As `algorithms::nccl`: no slice smaller than a byte per chunk.
                let k = (size_bytes / (c * n)).clamp(1, segments.max(1) as u64);
                let t = c * k * 2 * n * (n - 1);
                // Three edges' room per transfer: the builder's slack and its per-step bookkeeping.
                (t, 3, c * k * n, t, c)
            }
            Algorithm::NcclTree => {
                // Two trees per channel, pipelined in k segments.
                let c = channels.max(1) as u64;
                let k = (size_bytes / (2 * c)).clamp(1, segments.max(1) as u64);
                let t = 2 * c * 2 * (n - 1) * k;
                (t, 3, 2 * c * k, t, 6 * c)
            }
            Algorithm::Auto => unreachable!("handled above"),
        };
        // On a cluster the flows of a node's GPUs can share its links (a ring's never do: one
        // GPU per node sends to the next node); at most one per GPU changes rate at an instant
        // in practice, so the recorded changes scale with the flows per GPU.
        let changes_per_event = fan_in;
        let fan_in = if route > 2 && !matches!(algorithm, Algorithm::Ring | Algorithm::TreeFlat) {
            fan_in * g
        } else {
            fan_in
        };
        let sharing_work = transfers * fan_in;
        // Changes per link of the route per transfer, twice (its start and its end).
        let expected_twice = match algorithm {
            Algorithm::Ring | Algorithm::Hierarchical => 2,
            // A channel's start or end shares its instant with the other channels'; one channel
            // is a ring.
            Algorithm::NcclRing if channels > 1 => 1,
            Algorithm::NcclRing => 2,
            _ => 2 * changes_per_event,
        };
        RunCost::of_counts(
            transfers,
            transfers * deps_each,
            n * chunks,
            changes,
            (
                2 * route * transfers * changes_per_event,
                route * transfers * expected_twice,
            ),
            sharing_work,
            n,
        )
    }

    fn of_counts(
        transfers: u64,
        dependencies: u64,
        cells: u64,
        cell_changes: u64,
        // Estimated bound, and expected (see the fields of the same names).
        (rate_changes, rate_changes_expected): (u64, u64),
        sharing_work: u64,
        ranks: u64,
    ) -> RunCost {
        // What a run holds besides its details, at a cost per transfer and per cell.
        let held = |per_transfer: u64, per_cell: u64| {
            BYTES_FIXED
                + transfers * per_transfer
                + dependencies * BYTES_PER_DEPENDENCY
                + cells * per_cell
                + ranks * BYTES_PER_RANK
        };
        let peak_bytes = held(BYTES_PER_TRANSFER, BYTES_PER_CELL);
        RunCost {
            transfers,
            dependencies,
            cells,
            cell_changes,
            rate_changes,
            rate_changes_expected,
            sharing_work,
            peak_bytes,
            peak_bytes_with_details: peak_bytes
                + cell_changes * BYTES_PER_CELL_CHANGE
                + rate_changes * BYTES_PER_RATE_CHANGE,
            peak_bytes_typical: held(TYPICAL_BYTES_PER_TRANSFER, TYPICAL_BYTES_PER_CELL)
                + cell_changes * BYTES_PER_CELL_CHANGE
                + rate_changes_expected * TYPICAL_BYTES_PER_RATE_CHANGE,
        }
    }

    /// This cost with more rate changes recorded (a topology's sharing that
    /// [`estimate`](Self::estimate), which sees only its route length, does not count): `bound`
    /// more at most, `expected` more typically.
    ///
    /// ```
    /// use allreduce_sim::{algorithms::Algorithm, cost::*};
    /// let ring = RunCost::estimate(Algorithm::Ring, 8, 8, 1 << 20, 1, 1, 2);
    /// let more = ring.with_extra_rate_changes(10, 4);
    /// assert_eq!(more.rate_changes, ring.rate_changes + 10);
    /// assert_eq!(more.rate_changes_expected, ring.rate_changes_expected + 4);
    /// assert_eq!(more.peak_bytes_with_details, ring.peak_bytes_with_details + 10 * BYTES_PER_RATE_CHANGE);
    /// assert_eq!(more.peak_bytes_typical, ring.peak_bytes_typical + 4 * TYPICAL_BYTES_PER_RATE_CHANGE);
    /// assert_eq!(more.peak_bytes, ring.peak_bytes);
    /// ```
    pub fn with_extra_rate_changes(mut self, bound: u64, expected: u64) -> RunCost {
        self.rate_changes += bound;
        self.rate_changes_expected += expected;
        self.peak_bytes_with_details += bound * BYTES_PER_RATE_CHANGE;
        self.peak_bytes_typical += expected * TYPICAL_BYTES_PER_RATE_CHANGE;
        self
    }

    /// The peak bytes that `budget` counts: without details, with them, or the typical cost
    /// with them (see [`Budget::typical`]).
    ///
    /// ```
    /// use allreduce_sim::{algorithms::Algorithm, cost::*};
    /// // NCCL's 8 rings on 64 ranks, routes of 8 links.
    /// let rings = RunCost::estimate(Algorithm::NcclRing, 64, 8, 1 << 30, 32, 8, 8);
    /// let lab = Budget { bytes: 1 << 30, details: true, typical: true, sharing_work: u64::MAX };
    /// assert_eq!(rings.peak_bytes_for(&RUN_BUDGET), rings.peak_bytes);
    /// assert_eq!(rings.peak_bytes_for(&Budget { typical: false, ..lab }), rings.peak_bytes_with_details);
    /// // Expected: one change per link of the route per transfer, not 2 per channel.
    /// assert_eq!(rings.rate_changes_expected, 8 * rings.transfers);
    /// assert_eq!(rings.rate_changes, 16 * rings.rate_changes_expected);
    /// assert_eq!(rings.peak_bytes_for(&lab), rings.peak_bytes_typical);
    /// assert!(rings.peak_bytes_typical < rings.peak_bytes_with_details / 5);
    /// // `auto` runs one candidate with details: it counts the most any of them needs.
    /// let auto = RunCost::estimate(Algorithm::Auto, 64, 8, 1 << 30, 32, 8, 8);
    /// let most = Algorithm::CONCRETE.iter()
    ///     .map(|&a| RunCost::estimate(a, 64, 8, 1 << 30, 32, 8, 8).peak_bytes_for(&lab))
    ///     .max().unwrap();
    /// assert_eq!(auto.peak_bytes_for(&lab), most);
    /// ```
    pub fn peak_bytes_for(&self, budget: &Budget) -> u64 {
        if !budget.details {
            self.peak_bytes
        } else if budget.typical {
            self.peak_bytes_typical
        } else {
            self.peak_bytes_with_details
        }
    }

    /// `Ok` when the run fits `budget`.
    ///
    /// ```
    /// use allreduce_sim::{algorithms::Algorithm, cost::*};
    /// let ring = RunCost::estimate(Algorithm::Ring, 8, 8, 1 << 20, 1, 1, 2);
    /// assert!(ring.check(&RUN_BUDGET).is_ok());
    /// let tiny = Budget { bytes: 1 << 20, details: false, typical: false, sharing_work: u64::MAX };
    /// let over = ring.check(&tiny).unwrap_err();
    /// assert_eq!(over.exceeded, Exceeded::Memory); // the fixed 4 MiB alone exceeds 1 MiB
    /// ```
    pub fn check(&self, budget: &Budget) -> Result<(), Box<OverBudget>> {
        let bytes = self.peak_bytes_for(budget);
        let exceeded = if bytes > budget.bytes {
            Exceeded::Memory
        } else if self.sharing_work > budget.sharing_work {
            Exceeded::Work
        } else {
            return Ok(());
        };
        Err(Box::new(OverBudget {
            cost: *self,
            budget: *budget,
            exceeded,
            max_ranks: None,
            max_segments: None,
        }))
    }
}
