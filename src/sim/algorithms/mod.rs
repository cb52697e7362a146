//! AllReduce algorithms: each turns (topology, size, segments) into a [`Schedule`].
//!
//! ```
//! use allreduce_sim::algorithms::Algorithm;
//! assert_eq!("double-binary-tree".parse::<Algorithm>(), Ok(Algorithm::DoubleBinaryTree));
//! assert!("bogus".parse::<Algorithm>().unwrap_err().contains("ring"));
//! ```

mod hierarchical;
mod nccl;
mod recursive;
mod ring;
mod tree;

use super::schedule::{Schedule, ScheduleBuilder};
use super::topology::Topology;
use serde::{Deserialize, Serialize};
use std::collections::VecDeque;

pub use nccl::{channels, nccl_rings};
pub use tree::{TreeShape, binary_tree_parent, nccl_double_tree};

/// The algorithms the simulator knows. [`Algorithm::Auto`] is not a schedule of its own: it runs the
/// others and keeps the fastest of the simulated algorithms (it is not NCCL's choice, which also
/// weighs protocols and channels).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Algorithm {
    Ring,
    TreeFlat,
    TreeBinomial,
    TreeBinary,
    DoubleBinaryTree,
    RecursiveDoubling,
    Rabenseifner,
    Hierarchical,
    /// NCCL's ring: one ring per channel, through a node's GPUs over NVLink, leaving and entering
    /// every node on the channel's NIC (rail); several rings in parallel over different NICs.
    NcclRing,
    /// NCCL's tree: a chain inside each node, a double binary tree across nodes, pipelined.
    NcclTree,
    Auto,
}

impl Algorithm {
    /// Every algorithm with a schedule of its own, in the order menus list them.
    pub const CONCRETE: [Algorithm; 10] = [
        Algorithm::Ring,
        Algorithm::TreeFlat,
        Algorithm::TreeBinomial,
        Algorithm::TreeBinary,
        Algorithm::DoubleBinaryTree,
        Algorithm::RecursiveDoubling,
        Algorithm::Rabenseifner,
        Algorithm::Hierarchical,
        Algorithm::NcclRing,
        Algorithm::NcclTree,
    ];

    /// Every algorithm, `auto` last.
    pub const ALL: [Algorithm; 11] = {
        let mut all = [Algorithm::Auto; 11];
        let mut i = 0;
        while i < Algorithm::CONCRETE.len() {
            all[i] = Algorithm::CONCRETE[i];
            i += 1;
        }
        all
    };

    /// The name used on the command line and in JSON.
    ///
    /// ```
    /// use allreduce_sim::algorithms::Algorithm;
    /// assert_eq!(Algorithm::DoubleBinaryTree.name(), "double-binary-tree");
    /// assert!(Algorithm::ALL.iter().all(|a| a.name().parse::<Algorithm>() == Ok(*a)));
    /// ```
    pub fn name(self) -> &'static str {
        match self {
            Algorithm::Ring => "ring",
            Algorithm::TreeFlat => "tree-flat",
            Algorithm::TreeBinomial => "tree-binomial",
            Algorithm::TreeBinary => "tree-binary",
            Algorithm::DoubleBinaryTree => "double-binary-tree",
            Algorithm::RecursiveDoubling => "recursive-doubling",
            Algorithm::Rabenseifner => "rabenseifner",
            Algorithm::Hierarchical => "hierarchical",
            Algorithm::NcclRing => "nccl-ring",
            Algorithm::NcclTree => "nccl-tree",
            Algorithm::Auto => "auto",
        }
    }

    /// Whether `segments` (pipelining) applies.
    ///
    /// ```
    /// use allreduce_sim::algorithms::Algorithm;
    /// assert!(Algorithm::TreeBinomial.is_tree());
    /// assert!(!Algorithm::Ring.is_tree() && !Algorithm::NcclTree.is_tree());
    /// assert_eq!(Algorithm::CONCRETE.iter().filter(|a| a.is_tree()).count(), 4);
    /// ```
    pub fn is_tree(self) -> bool {
        matches!(
            self,
            Algorithm::TreeFlat
                | Algorithm::TreeBinomial
                | Algorithm::TreeBinary
                | Algorithm::DoubleBinaryTree
        )
    }

    /// Whether `segments` applies: the trees' pipeline segments, NCCL's shapes' pipelined slices.
    ///
    /// ```
    /// use allreduce_sim::algorithms::Algorithm;
    /// assert!(Algorithm::NcclTree.pipelines() && Algorithm::TreeBinary.pipelines());
    /// assert!(!Algorithm::Ring.pipelines() && !Algorithm::Rabenseifner.pipelines());
    /// ```
    pub fn pipelines(self) -> bool {
        self.is_tree() || matches!(self, Algorithm::NcclRing | Algorithm::NcclTree)
    }
}

impl std::fmt::Display for Algorithm {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for Algorithm {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        Algorithm::ALL
            .into_iter()
            .find(|a| a.name() == s)
            .ok_or_else(|| {
                let names: Vec<_> = Algorithm::ALL.iter().map(|a| a.name()).collect();
                format!(
                    "unknown algorithm '{s}'; expected one of: {}",
                    names.join(", ")
                )
            })
    }
}

/// The largest number of pipeline segments a tree may use.
pub const MAX_SEGMENTS: usize = 256;

/// The schedule of `algorithm` for buffers of `size_bytes` on `topo`; trees and NCCL's shapes are cut
/// into `segments` pipelined pieces. [`Algorithm::Auto`] has no schedule of its own and gets the ring's.
/// This is [`Scheduling`] run to the end.
///
/// ```
/// use allreduce_sim::{algorithms::{self, Algorithm}, topology::*, units::Bandwidth};
/// let topo = Topology::new(&TopologySpec::Uniform {
///     ranks: 4, bandwidth: Bandwidth::from_bytes_per_sec(1e9), latency_secs: 0.0 }).unwrap();
/// let ring = algorithms::schedule(Algorithm::Ring, &topo, 1_200_000, 1);
/// // N−1 reduce-scatter steps, then N−1 allgather steps, N transfers each.
/// assert_eq!((ring.steps(), ring.len()), (6, 24));
/// assert_eq!(ring.chunks(), 4);
/// ```
pub fn schedule(
    algorithm: Algorithm,
    topo: &Topology,
    size_bytes: u64,
    segments: usize,
) -> Schedule {
    Scheduling::new_for(algorithm, topo, size_bytes, segments).finish()
}

/// A schedule being built a bounded piece at a time (a ring step, a tree segment), so that a
/// caller that must stay responsive can build a large one between frames. The transfers come out
/// in the same order, with the same dependencies, as [`schedule`]'s: it is this, run to the end.
///
/// ```
/// use allreduce_sim::algorithms::{self, Algorithm, Scheduling};
/// use allreduce_sim::topology::{Topology, TopologySpec};
/// use allreduce_sim::units::Bandwidth;
/// let topo = Topology::new(&TopologySpec::Uniform {
///     ranks: 64, bandwidth: Bandwidth::from_gbytes_per_sec(1.0), latency_secs: 0.0 }).unwrap();
/// let mut sliced = Scheduling::new_for(Algorithm::Ring, &topo, 1 << 20, 1);
/// let mut slices = 0;
/// while !sliced.step(500) {
///     slices += 1;
///     let (done, total) = sliced.progress();
///     assert!(done < total);
/// }
/// assert!(slices >= 15);
/// let (a, b) = (sliced.finish(), algorithms::schedule(Algorithm::Ring, &topo, 1 << 20, 1));
/// assert_eq!(a.transfers(), b.transfers());
/// ```
pub struct Scheduling {
    b: ScheduleBuilder,
    cur: Cursors,
    /// What is left to add, in order.
    parts: VecDeque<Part>,
    /// Transfers the finished schedule will have (for progress).
    total: usize,
}

/// A piece of an algorithm that adds its transfers a step at a time.
enum Part {
    Ring(ring::RingPass),
    NcclRing(nccl::NcclRings),
    Tree(tree::TreeAdd),
}

impl Part {
    /// Adds the next step; `false` when the part has none left.
    fn step(&mut self, b: &mut ScheduleBuilder, cur: &mut Cursors) -> bool {
        match self {
            Part::Ring(pass) => pass.step(b, cur),
            Part::NcclRing(rings) => rings.step(b),
            Part::Tree(tree) => tree.step(b),
        }
    }
}

impl Scheduling {
    /// Starts building the schedule of `algorithm` (see [`schedule`]); nothing is added yet,
    /// except for the recursive algorithms, whose schedules are small (N·log N) and built at once.
    ///
    /// # Examples
    ///
    /// ```
    /// use allreduce_sim::{algorithms::{self, Algorithm, Scheduling}, topology::*, units::Bandwidth};
    /// let topo = Topology::new(&TopologySpec::Uniform {
    ///     ranks: 8, bandwidth: Bandwidth::from_bytes_per_sec(1e9), latency_secs: 0.0 }).unwrap();
    /// // A flat tree with 4 segments: 2(N−1) edges × 4 segments, nothing added yet.
    /// let mut sliced = Scheduling::new_for(Algorithm::TreeFlat, &topo, 8_000, 4);
    /// assert_eq!(sliced.progress(), (0, 2 * 7 * 4));
    /// while !sliced.step(10) {}
    /// assert_eq!(sliced.finish().len(), algorithms::schedule(Algorithm::TreeFlat, &topo, 8_000, 4).len());
    /// ```
    pub fn new_for(
        algorithm: Algorithm,
        topo: &Topology,
        size_bytes: u64,
        segments: usize,
    ) -> Scheduling {
        let n = topo.ranks();
        let k = segments.clamp(1, MAX_SEGMENTS);
        match algorithm {
            Algorithm::Ring | Algorithm::Auto => ring::ring(n, size_bytes),
            Algorithm::TreeFlat => tree::single_tree(n, size_bytes, k, TreeShape::Flat),
            Algorithm::TreeBinomial => tree::single_tree(n, size_bytes, k, TreeShape::Binomial),
            Algorithm::TreeBinary => tree::single_tree(n, size_bytes, k, TreeShape::Binary),
            Algorithm::DoubleBinaryTree => tree::double_binary_tree(n, size_bytes, k),
            Algorithm::RecursiveDoubling => {
                Scheduling::done(recursive::recursive_doubling(n, size_bytes))
            }
            Algorithm::Rabenseifner => Scheduling::done(recursive::rabenseifner(n, size_bytes)),
            Algorithm::Hierarchical => {
                hierarchical::hierarchical(n, topo.gpus_per_node(), size_bytes)
            }
            Algorithm::NcclRing => nccl::nccl_ring(topo, size_bytes, k),
            Algorithm::NcclTree => nccl::nccl_tree(topo, size_bytes, k),
        }
    }

    fn new(b: ScheduleBuilder, ranks: usize, total: usize, parts: Vec<Part>) -> Scheduling {
        Scheduling {
            b,
            cur: Cursors::new(ranks),
            parts: parts.into(),
            total,
        }
    }

    /// A schedule already complete.
    fn done(schedule: Schedule) -> Scheduling {
        let total = schedule.len();
        Scheduling {
            b: ScheduleBuilder::from_schedule(schedule),
            cur: Cursors::new(0),
            parts: VecDeque::new(),
            total,
        }
    }

    /// Adds steps until at least `max_transfers` transfers were added (or the schedule is
    /// complete); `true` once it is complete.
    ///
    /// ```
    /// use allreduce_sim::{algorithms::{Algorithm, Scheduling}, topology::*, units::Bandwidth};
    /// let topo = Topology::new(&TopologySpec::Uniform {
    ///     ranks: 4, bandwidth: Bandwidth::from_bytes_per_sec(1e9), latency_secs: 0.0 }).unwrap();
    /// let mut sliced = Scheduling::new_for(Algorithm::Ring, &topo, 1_200_000, 1);
    /// assert!(!sliced.step(4)); // one ring step: 4 of the 24 transfers
    /// assert_eq!(sliced.progress(), (4, 24));
    /// assert!(sliced.step(usize::MAX));
    /// ```
    pub fn step(&mut self, max_transfers: usize) -> bool {
        let start = self.b.len();
        while self.b.len() - start < max_transfers {
            let Some(part) = self.parts.front_mut() else {
                break;
            };
            if !part.step(&mut self.b, &mut self.cur) {
                self.parts.pop_front();
            }
        }
        self.parts.is_empty()
    }

    /// Transfers added so far, and in all.
    ///
    /// ```
    /// use allreduce_sim::{algorithms::{Algorithm, Scheduling}, topology::*, units::Bandwidth};
    /// let topo = Topology::new(&TopologySpec::Uniform {
    ///     ranks: 8, bandwidth: Bandwidth::from_bytes_per_sec(1e9), latency_secs: 0.0 }).unwrap();
    /// let sliced = Scheduling::new_for(Algorithm::Ring, &topo, 8_000, 1);
    /// // Nothing added yet, of the ring's 2·N·(N−1) transfers.
    /// assert_eq!(sliced.progress(), (0, 2 * 8 * 7));
    /// ```
    pub fn progress(&self) -> (usize, usize) {
        (self.b.len(), self.total.max(self.b.len()))
    }

    /// Builds what is left and returns the schedule.
    ///
    /// ```
    /// use allreduce_sim::{algorithms::{self, Algorithm, Scheduling}, topology::*, units::Bandwidth};
    /// let topo = Topology::new(&TopologySpec::Uniform {
    ///     ranks: 6, bandwidth: Bandwidth::from_bytes_per_sec(1e9), latency_secs: 0.0 }).unwrap();
    /// let mut sliced = Scheduling::new_for(Algorithm::TreeBinary, &topo, 6_000, 4);
    /// sliced.step(3);
    /// let whole = algorithms::schedule(Algorithm::TreeBinary, &topo, 6_000, 4);
    /// assert_eq!(sliced.finish().transfers(), whole.transfers());
    /// ```
    pub fn finish(mut self) -> Schedule {
        while !self.step(crate::FINISH_SLICE) {}
        self.b.build()
    }
}

/// For each rank: the last transfer it received and the last it sent, to chain dependencies.
#[derive(Clone, Debug)]
struct Cursors {
    last_recv: Vec<Option<u32>>,
    last_send: Vec<Option<u32>>,
}

impl Cursors {
    fn new(n: usize) -> Self {
        Cursors {
            last_recv: vec![None; n],
            last_send: vec![None; n],
        }
    }
    fn record(&mut self, src: usize, dst: usize, id: u32) {
        self.last_send[src] = Some(id);
        self.last_recv[dst] = Some(id);
    }
}

/// An empty schedule for a single rank (nothing to exchange).
fn empty(n: usize, size_bytes: u64) -> Schedule {
    ScheduleBuilder::new(n, 1, size_bytes).build()
}
