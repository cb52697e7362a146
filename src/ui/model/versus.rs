//! The Ring-vs-Tree figure's model (no web types): one set of controls for both algorithms, the
//! simulations the figure needs, and what it draws from their traces. Every time comes from the
//! core; this module only decides which scenarios to run and reads the traces back.
//!
//! - time versus message size for the ring and NCCL's double binary tree (pipelined), 8 B to 8 GiB,
//!   and where the faster one changes (the crossover);
//! - each algorithm's time at the chosen size split into a latency part (the simulated time of an
//!   8-byte allreduce: nothing but latencies) and a bandwidth part (the simulated time at the chosen
//!   size with every latency set to 0);
//! - a link-use timeline of each run at the chosen size, per tier.
//!
//! ```
//! use allreduce_lab::ui::model::versus::*;
//! let setup = VersusSetup::default();
//! let results: Vec<_> = setup.jobs().into_iter().map(|j| (j, setup.run(j).unwrap())).collect();
//! let view = VersusView::new(&setup, &results);
//! assert!(view.complete);
//! // At 8 GPUs the tree wins small messages and the ring large ones.
//! let c = view.crossover.unwrap();
//! assert!(c.ring_wins_above);
//! ```
//!
//! Size: over 450 lines because the Ring-vs-Tree figure's model; about 100 lines are tests.

use crate::sim::algorithms::Algorithm;
use crate::sim::run::Run;
use crate::sim::scenario::{Scenario, ScenarioError, start, transfer_count};
use crate::sim::topology::{Tier, TopologySpec};
use crate::sim::trace::Trace;
use crate::sim::training::resize;
use crate::sim::units::Bandwidth;

/// GPU counts the figure offers: 2 to 1024, doubling.
pub const VERSUS_GPUS: [u64; 10] = [2, 4, 8, 16, 32, 64, 128, 256, 512, 1024];
/// Message sizes: 8 B to 8 GiB, ×8 per point.
pub const VERSUS_SIZES: [u64; 11] = [
    8,
    64,
    512,
    4 << 10,
    32 << 10,
    256 << 10,
    2 << 20,
    16 << 20,
    128 << 20,
    1 << 30,
    8 << 30,
];
/// The pipeline segments the figure offers (the chapter's default is 32).
pub const VERSUS_SEGMENTS: [u64; 8] = [1, 2, 4, 8, 16, 32, 64, 128];
/// GPU-link bandwidths, GB/s (PCIe to NVLink), and NIC / uplink bandwidths, Gbps.
pub const INTRA_GBYTES: [u64; 6] = [15, 25, 50, 150, 300, 450];
pub const NET_GBITS: [u64; 8] = [25, 50, 100, 200, 400, 800, 1600, 3200];
/// Latencies per hop, nanoseconds.
pub const LATENCY_NS: [u64; 8] = [0, 250, 500, 1000, 2000, 5000, 10_000, 50_000];
/// The smallest pipeline segment: a tree is cut into at most `segments` pieces of at least this
/// size, as NCCL streams a tree in chunks of this order (a tiny message is one segment; cutting it
/// further would only add latencies).
pub const MIN_SEGMENT_BYTES: u64 = 32 << 10;
/// Whether any transfer of `gpus` filled into nodes of `gpus_per_node` and racks of
/// `nodes_per_rack` crosses `tier`: NICs once there is a second node, rack uplinks once there is a
/// second rack (GPU links always).
///
/// ```
/// use allreduce_lab::sim::topology::Tier;
/// use allreduce_lab::ui::model::versus::crossed;
/// assert!(!crossed(Tier::Node, 8, 8, 4) && crossed(Tier::Node, 9, 8, 4));
/// assert!(!crossed(Tier::Rack, 32, 8, 4) && crossed(Tier::Rack, 33, 8, 4));
/// ```
pub fn crossed(tier: Tier, gpus: usize, gpus_per_node: usize, nodes_per_rack: usize) -> bool {
    match tier {
        Tier::Gpu => gpus > 1,
        Tier::Node => gpus > gpus_per_node,
        Tier::Rack => gpus > gpus_per_node * nodes_per_rack,
    }
}

/// Whether any transfer on a rail network of `nodes` nodes of `gpus_per_node` GPUs (one rail
/// each) crosses `tier`: NVLink once a node has a second GPU, the NICs once there is a second
/// node, the leaf ↔ spine uplinks only between rails without PXN (with it, traffic hops over
/// NVLink to the destination's rail first).
///
/// ```
/// use allreduce_lab::sim::topology::Tier;
/// use allreduce_lab::ui::model::versus::rail_crossed;
/// assert!(rail_crossed(Tier::Rack, 2, 8, false) && !rail_crossed(Tier::Rack, 2, 8, true));
/// assert!(!rail_crossed(Tier::Node, 1, 8, false) && !rail_crossed(Tier::Gpu, 4, 1, false));
/// ```
pub fn rail_crossed(tier: Tier, nodes: usize, gpus_per_node: usize, pxn: bool) -> bool {
    match tier {
        Tier::Gpu => gpus_per_node > 1,
        Tier::Node => nodes > 1,
        Tier::Rack => nodes > 1 && gpus_per_node > 1 && !pxn,
    }
}

/// At most `segments`, but none smaller than [`MIN_SEGMENT_BYTES`]: how many pieces a pipelined
/// tree cuts a message of `size_bytes` into.
///
/// ```
/// use allreduce_lab::ui::model::versus::segments_of_size;
/// assert_eq!(segments_of_size(32, 8), 1);
/// assert_eq!(segments_of_size(32, 256 << 10), 8);
/// assert_eq!(segments_of_size(32, 1 << 30), 32);
/// ```
pub fn segments_of_size(segments: usize, size_bytes: u64) -> usize {
    let by_size = (size_bytes / MIN_SEGMENT_BYTES).max(1);
    (segments as u64).min(by_size) as usize
}

/// Buckets of the link-use timelines.
pub const TIMELINE_BUCKETS: usize = 48;
/// GPUs per node and nodes per rack of the figure's cluster.
pub const GPUS_PER_NODE: usize = 8;
pub const NODES_PER_RACK: usize = 4;

/// The two algorithms compared: the ring and the tree NCCL ships.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Side {
    Ring,
    Tree,
}

impl Side {
    pub const BOTH: [Side; 2] = [Side::Ring, Side::Tree];
    pub fn algorithm(self) -> Algorithm {
        match self {
            Side::Ring => Algorithm::Ring,
            Side::Tree => Algorithm::DoubleBinaryTree,
        }
    }
    pub fn name(self) -> &'static str {
        match self {
            Side::Ring => "ring",
            Side::Tree => "tree",
        }
    }
}

/// The figure's controls: the same for both algorithms.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct VersusSetup {
    pub gpus: usize,
    pub size_bytes: u64,
    pub segments: usize,
    pub intra_gbytes_per_sec: f64,
    pub intra_lat_secs: f64,
    pub node_gbits_per_sec: f64,
    pub node_lat_secs: f64,
    pub rack_gbits_per_sec: f64,
    pub rack_lat_secs: f64,
}

impl Default for VersusSetup {
    /// 8 GPUs of a DGX-class node, 16 MiB, 32 segments; 400 Gbps NICs, 200 Gbps uplinks.
    fn default() -> Self {
        VersusSetup {
            gpus: 8,
            size_bytes: 16 << 20,
            segments: 32,
            intra_gbytes_per_sec: 450.0,
            intra_lat_secs: 1e-6,
            node_gbits_per_sec: 400.0,
            node_lat_secs: 2e-6,
            rack_gbits_per_sec: 200.0,
            rack_lat_secs: 5e-6,
        }
    }
}

impl VersusSetup {
    /// The guess's case ([`PREDICT_GPUS`], [`PREDICT_BYTES`]) on the default network: what
    /// [`predict_answer`] simulates and the figure shows when asked.
    pub fn predict_case() -> VersusSetup {
        VersusSetup {
            gpus: PREDICT_GPUS,
            size_bytes: PREDICT_BYTES,
            ..VersusSetup::default()
        }
    }

    /// The setup as a shared link carries it (`vs=`): GPUs, size, segments, then each tier's
    /// bandwidth and latency in its slider's units (GB/s inside a node, Gbps across, ns).
    ///
    /// ```
    /// use allreduce_lab::ui::model::versus::VersusSetup;
    /// let s = VersusSetup::default();
    /// assert_eq!(s.link_numbers(), [8, 16 << 20, 32, 450, 1000, 400, 2000, 200, 5000]);
    /// assert_eq!(VersusSetup::from_link_numbers(&s.link_numbers()), Some(s));
    /// // Each number must be a stop of its slider, and all nine be there.
    /// assert_eq!(VersusSetup::from_link_numbers(&[8, 16 << 20, 32, 450, 1000, 400, 2000, 200, 4999]), None);
    /// assert_eq!(VersusSetup::from_link_numbers(&[8, 16 << 20, 32]), None);
    /// ```
    pub fn link_numbers(&self) -> Vec<u64> {
        let ns = |secs: f64| (secs * 1e9).round() as u64;
        vec![
            self.gpus as u64,
            self.size_bytes,
            self.segments as u64,
            self.intra_gbytes_per_sec as u64,
            ns(self.intra_lat_secs),
            self.node_gbits_per_sec as u64,
            ns(self.node_lat_secs),
            self.rack_gbits_per_sec as u64,
            ns(self.rack_lat_secs),
        ]
    }

    /// The setup of a link's [`link_numbers`](Self::link_numbers), if each is a stop of its
    /// slider.
    pub fn from_link_numbers(v: &[u64]) -> Option<VersusSetup> {
        let &[
            gpus,
            size,
            segments,
            intra,
            intra_lat,
            node,
            node_lat,
            rack,
            rack_lat,
        ] = v
        else {
            return None;
        };
        let ladders: [(&[u64], u64); 9] = [
            (&VERSUS_GPUS, gpus),
            (&VERSUS_SIZES, size),
            (&VERSUS_SEGMENTS, segments),
            (&INTRA_GBYTES, intra),
            (&LATENCY_NS, intra_lat),
            (&NET_GBITS, node),
            (&LATENCY_NS, node_lat),
            (&NET_GBITS, rack),
            (&LATENCY_NS, rack_lat),
        ];
        ladders
            .iter()
            .all(|(ladder, x)| ladder.contains(x))
            .then(|| VersusSetup {
                gpus: gpus as usize,
                size_bytes: size,
                segments: segments as usize,
                intra_gbytes_per_sec: intra as f64,
                intra_lat_secs: intra_lat as f64 / 1e9,
                node_gbits_per_sec: node as f64,
                node_lat_secs: node_lat as f64 / 1e9,
                rack_gbits_per_sec: rack as f64,
                rack_lat_secs: rack_lat as f64 / 1e9,
            })
    }
}

/// One simulation the figure needs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum VersusJob {
    /// The time at one size of the curve (the chosen size is one of them, run with details for
    /// the timeline).
    Point { side: Side, size_bytes: u64 },
    /// The chosen size with every latency set to 0: the bandwidth part.
    Bandwidth { side: Side },
}

impl VersusSetup {
    /// The cluster: nodes of 8 GPUs, racks of 4 nodes, filled in that order.
    pub fn topology(&self, latencies: bool) -> Option<TopologySpec> {
        let lat = |x: f64| if latencies { x } else { 0.0 };
        let base = TopologySpec::Cluster {
            racks: 1,
            nodes_per_rack: NODES_PER_RACK,
            gpus_per_node: GPUS_PER_NODE,
            intra_bw: Bandwidth::from_gbytes_per_sec(self.intra_gbytes_per_sec),
            intra_lat_secs: lat(self.intra_lat_secs),
            node_bw: Bandwidth::from_gbits_per_sec(self.node_gbits_per_sec),
            node_lat_secs: lat(self.node_lat_secs),
            rack_bw: Bandwidth::from_gbits_per_sec(self.rack_gbits_per_sec),
            rack_lat_secs: lat(self.rack_lat_secs),
            oversubscription: 1.0,
            nics_per_node: 1,
        };
        resize(&base, self.gpus)
    }

    /// The latency a ring step waits here, that of its slowest hop (rank i to i + 1), and how
    /// many links that hop crosses: within a node, GPU → NVSwitch → GPU, two GPU links.
    ///
    /// ```
    /// use allreduce_lab::ui::model::versus::VersusSetup;
    /// let s = VersusSetup::default(); // 8 GPUs, GPU links of 1 µs
    /// assert_eq!(s.ring_hop(), Some((2e-6, 2)));
    /// ```
    pub fn ring_hop(&self) -> Option<(f64, usize)> {
        let topo = crate::sim::topology::Topology::new(&self.topology(true)?).ok()?;
        let n = topo.ranks();
        (0..n)
            .map(|i| topo.route(i, (i + 1) % n))
            .map(|r| (r.latency_secs, r.links().len()))
            .max_by(|a, b| a.0.total_cmp(&b.0))
    }

    /// The network tiers no transfer crosses at this GPU count (NICs within one node, rack
    /// uplinks within one rack), and the least GPU count that crosses each.
    ///
    /// ```
    /// use allreduce_lab::sim::topology::Tier;
    /// use allreduce_lab::ui::model::versus::VersusSetup;
    /// let s = VersusSetup::default();
    /// assert_eq!(s.idle_tiers(), vec![(Tier::Node, 16), (Tier::Rack, 64)]);
    /// ```
    pub fn idle_tiers(&self) -> Vec<(Tier, usize)> {
        let first_above = |limit: usize| {
            VERSUS_GPUS
                .iter()
                .map(|&g| g as usize)
                .find(|&g| g > limit)
                .unwrap_or(limit + 1)
        };
        let mut idle = Vec::new();
        for tier in [Tier::Node, Tier::Rack] {
            if !crossed(tier, self.gpus, GPUS_PER_NODE, NODES_PER_RACK) {
                let within = match tier {
                    Tier::Node => GPUS_PER_NODE,
                    _ => GPUS_PER_NODE * NODES_PER_RACK,
                };
                idle.push((tier, first_above(within)));
            }
        }
        idle
    }

    pub fn scenario(&self, job: VersusJob) -> Result<Scenario, ScenarioError> {
        let (side, size_bytes, latencies) = match job {
            VersusJob::Point { side, size_bytes } => (side, size_bytes, true),
            VersusJob::Bandwidth { side } => (side, self.size_bytes, false),
        };
        let topology = self
            .topology(latencies)
            .ok_or(ScenarioError::CannotTakeGpus { gpus: self.gpus })?;
        Ok(Scenario {
            topology,
            algorithm: side.algorithm(),
            size_bytes,
            segments: if side == Side::Tree {
                self.tree_segments(size_bytes)
            } else {
                1
            },
            gamma_secs_per_byte: 0.0,
            faults: Default::default(),
        })
    }

    /// The segments the tree uses for `size_bytes`: the chosen count, but none under
    /// [`MIN_SEGMENT_BYTES`].
    pub fn tree_segments(&self, size_bytes: u64) -> usize {
        segments_of_size(self.segments, size_bytes)
    }

    /// Whether a job's trace is drawn as a timeline (so the run keeps its link timelines).
    pub fn details(&self, job: VersusJob) -> bool {
        matches!(job, VersusJob::Point { size_bytes, .. } if size_bytes == self.size_bytes)
    }

    /// Every simulation, the ones the chosen size needs first, then the curve cheapest first.
    pub fn jobs(&self) -> Vec<VersusJob> {
        let mut jobs = Vec::new();
        for side in Side::BOTH {
            jobs.push(VersusJob::Point {
                side,
                size_bytes: self.size_bytes,
            });
            jobs.push(VersusJob::Point {
                side,
                size_bytes: VERSUS_SIZES[0],
            });
            jobs.push(VersusJob::Bandwidth { side });
        }
        let first = jobs.len();
        for side in Side::BOTH {
            for &size_bytes in &VERSUS_SIZES {
                let job = VersusJob::Point { side, size_bytes };
                if !jobs.contains(&job) {
                    jobs.push(job);
                }
            }
        }
        crate::sim::order::sort_by_key(&mut jobs[first..], |&j| self.cost(j) as f64);
        jobs
    }

    /// A job's cost, in transfers: its algorithm's count at the setup's GPUs and the segments it
    /// runs with (the tree's fewer at small sizes, see [`VersusSetup::tree_segments`]).
    pub fn cost(&self, job: VersusJob) -> usize {
        let (side, size_bytes) = match job {
            VersusJob::Point { side, size_bytes } => (side, size_bytes),
            VersusJob::Bandwidth { side } => (side, self.size_bytes),
        };
        let segments = match side {
            Side::Ring => 1,
            Side::Tree => self.tree_segments(size_bytes),
        };
        transfer_count(side.algorithm(), self.gpus, GPUS_PER_NODE, segments)
    }

    /// Prepares one job's run, to be advanced in slices.
    pub fn start(&self, job: VersusJob) -> Result<Run, ScenarioError> {
        start(&self.scenario(job)?, self.details(job))
    }

    /// Runs one job to the end.
    pub fn run(&self, job: VersusJob) -> Result<Trace, ScenarioError> {
        Ok(self.start(job)?.finish())
    }
}

/// An algorithm's time at the chosen size and its two parts.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Split {
    pub total_secs: f64,
    /// The 8-byte allreduce: latencies only.
    pub latency_secs: f64,
    /// The chosen size with no latency: bandwidth only.
    pub bandwidth_secs: f64,
}

/// Where the faster algorithm changes along the size axis.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Crossover {
    /// The simulated sizes it lies between.
    pub below_bytes: u64,
    pub above_bytes: u64,
    /// Where the two simulated curves meet, interpolated on log-log axes between those sizes
    /// (for drawing the marker).
    pub at_bytes: f64,
    /// The ring is faster above it (the usual case).
    pub ring_wins_above: bool,
    /// Where the faster side changes again at larger sizes, when the curves cross more than once
    /// (interpolated as `at_bytes`; the figure marks it too).
    pub again: Option<f64>,
}

/// Who is ahead at every simulated size, when the curves do not cross ([`lead`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lead {
    /// Faster at every size.
    Faster(Side),
    /// Faster at some sizes, as fast at the others.
    NeverSlower(Side),
    /// The same time at every size.
    Tie,
}

/// Who is ahead at every size of two curves (same sizes); `None` where each is faster somewhere.
///
/// ```
/// use allreduce_lab::ui::model::versus::{Lead, Side, lead};
/// let at = |t: &[f64]| t.iter().enumerate().map(|(i, &t)| (8u64 << i, t)).collect::<Vec<_>>();
/// assert_eq!(lead(&at(&[1.0, 2.0]), &at(&[2.0, 3.0])), Some(Lead::Faster(Side::Ring)));
/// assert_eq!(lead(&at(&[1.0, 2.0]), &at(&[1.0, 2.0])), Some(Lead::Tie));
/// assert_eq!(lead(&at(&[1.0, 2.0]), &at(&[1.0, 3.0])), Some(Lead::NeverSlower(Side::Ring)));
/// assert_eq!(lead(&at(&[1.0, 3.0]), &at(&[2.0, 2.0])), None);
/// ```
pub fn lead(ring: &[(u64, f64)], tree: &[(u64, f64)]) -> Option<Lead> {
    let (mut ring_faster, mut tree_faster, mut tie) = (false, false, false);
    for (&(_, r), &(_, t)) in ring.iter().zip(tree) {
        if r < t {
            ring_faster = true;
        } else if t < r {
            tree_faster = true;
        } else {
            tie = true;
        }
    }
    let side = match (ring_faster, tree_faster) {
        (true, true) => return None,
        (false, false) => return Some(Lead::Tie),
        (true, false) => Side::Ring,
        (false, true) => Side::Tree,
    };
    Some(if tie {
        Lead::NeverSlower(side)
    } else {
        Lead::Faster(side)
    })
}

/// A run's link use over time: per tier, the share of that tier's capacity in use in each of
/// [`TIMELINE_BUCKETS`] equal slices of the run.
#[derive(Clone, Debug, PartialEq)]
pub struct LinkUse {
    pub time_secs: f64,
    pub tiers: Vec<(Tier, Vec<f64>)>,
}

/// What the figure draws from the jobs finished so far.
#[derive(Clone, Debug, PartialEq)]
pub struct VersusView {
    /// Per side, (size, time) in size order.
    pub curves: Vec<(Side, Vec<(u64, f64)>)>,
    pub splits: Vec<(Side, Split)>,
    pub crossover: Option<Crossover>,
    pub timelines: Vec<(Side, LinkUse)>,
    pub complete: bool,
}

/// The share of each tier's capacity in use, per time slice, read from the links' timelines.
pub fn link_use(trace: &Trace) -> LinkUse {
    let t_end = trace.time_secs;
    let topo = &trace.topology;
    let mut tiers: Vec<(Tier, Vec<f64>, f64)> = Vec::new();
    for tier in Tier::ALL {
        let capacity: f64 = topo
            .links()
            .iter()
            .filter(|l| l.tier == tier)
            .map(|l| l.bandwidth.bytes_per_sec())
            .sum();
        if capacity > 0.0 {
            tiers.push((tier, vec![0.0; TIMELINE_BUCKETS], capacity));
        }
    }
    if t_end > 0.0 {
        let width = t_end / TIMELINE_BUCKETS as f64;
        for (link, report) in topo.links().iter().zip(&trace.links) {
            let Some((_, buckets, _)) = tiers.iter_mut().find(|(t, _, _)| *t == link.tier) else {
                continue;
            };
            let tl = &report.timeline;
            for (i, c) in tl.iter().enumerate() {
                let end = tl.get(i + 1).map_or(t_end, |n| n.at_secs).min(t_end);
                let mut a = c.at_secs;
                while a < end && c.bytes_per_sec > 0.0 {
                    let b = ((a / width).floor() as usize).min(TIMELINE_BUCKETS - 1);
                    let b_end = ((b + 1) as f64 * width).min(end);
                    let b_end = if b_end <= a { end } else { b_end };
                    buckets[b] += c.bytes_per_sec * (b_end - a);
                    a = b_end;
                }
            }
        }
    }
    LinkUse {
        time_secs: t_end,
        tiers: tiers
            .into_iter()
            .map(|(t, b, cap)| {
                let width = t_end / TIMELINE_BUCKETS as f64;
                let share = b
                    .into_iter()
                    .map(|bytes| {
                        if width > 0.0 {
                            (bytes / (cap * width)).clamp(0.0, 1.0)
                        } else {
                            0.0
                        }
                    })
                    .collect();
                (t, share)
            })
            .collect(),
    }
}

impl VersusView {
    /// Builds the view from finished jobs' traces (in any order, any subset).
    pub fn new(setup: &VersusSetup, done: &[(VersusJob, Trace)]) -> VersusView {
        let times: Vec<(VersusJob, f64)> = done.iter().map(|(j, t)| (*j, t.time_secs)).collect();
        let timelines = done
            .iter()
            .filter(|(j, _)| setup.details(*j))
            .filter_map(|(j, t)| match j {
                VersusJob::Point { side, .. } => Some((*side, link_use(t))),
                VersusJob::Bandwidth { .. } => None,
            })
            .collect();
        VersusView::from_parts(setup, &times, timelines)
    }

    /// Builds the view from finished jobs' times and the timelines read so far.
    pub fn from_parts(
        setup: &VersusSetup,
        times: &[(VersusJob, f64)],
        mut timelines: Vec<(Side, LinkUse)>,
    ) -> VersusView {
        let time = |job: VersusJob| times.iter().find(|(j, _)| *j == job).map(|(_, t)| *t);
        let mut curves = Vec::new();
        let mut splits = Vec::new();
        for side in Side::BOTH {
            let curve: Vec<(u64, f64)> = VERSUS_SIZES
                .iter()
                .filter_map(|&s| {
                    time(VersusJob::Point {
                        side,
                        size_bytes: s,
                    })
                    .map(|t| (s, t))
                })
                .collect();
            curves.push((side, curve));
            let total = time(VersusJob::Point {
                side,
                size_bytes: setup.size_bytes,
            });
            let lat = time(VersusJob::Point {
                side,
                size_bytes: VERSUS_SIZES[0],
            });
            let bw = time(VersusJob::Bandwidth { side });
            if let (Some(total_secs), Some(latency_secs), Some(bandwidth_secs)) = (total, lat, bw) {
                splits.push((
                    side,
                    Split {
                        total_secs,
                        latency_secs,
                        bandwidth_secs,
                    },
                ));
            }
        }
        crate::sim::order::sort_by_key(&mut timelines, |(s, _)| *s as u8 as f64);
        let complete = setup.jobs().iter().all(|j| time(*j).is_some());
        let crossover = if complete {
            crossover(&curves[0].1, &curves[1].1)
        } else {
            None
        };
        VersusView {
            curves,
            splits,
            crossover,
            timelines,
            complete,
        }
    }
}

/// Where the log ratio of the two curves, `d0` at size `s0` and `d1` at `s1` (of opposite signs,
/// or `d0` zero), meets zero, interpolated on log-log axes.
fn meet((s0, d0): (u64, f64), (s1, d1): (u64, f64)) -> f64 {
    let f = d0 / (d0 - d1);
    let (l0, l1) = ((s0 as f64).ln(), (s1 as f64).ln());
    (l0 + f * (l1 - l0)).exp()
}

/// Each size with the log of ring time over tree time: above 0 the tree is faster.
fn log_ratios(ring: &[(u64, f64)], tree: &[(u64, f64)]) -> Vec<(u64, f64)> {
    ring.iter()
        .zip(tree)
        .map(|(&(s, r), &(_, t))| (s, (r / t).ln()))
        .collect()
}

/// The first size interval where the faster of two curves (same sizes) changes, and where it
/// changes again at larger sizes, if it does (between sizes where neither ties).
pub fn crossover(ring: &[(u64, f64)], tree: &[(u64, f64)]) -> Option<Crossover> {
    let diff = log_ratios(ring, tree);
    let mut first = diff.windows(2).enumerate().find_map(|(i, w)| {
        let ((s0, d0), (s1, d1)) = (w[0], w[1]);
        if d0 == 0.0 || d1 == 0.0 || (d0 > 0.0) == (d1 > 0.0) {
            return None;
        }
        Some((
            i + 1,
            Crossover {
                below_bytes: s0,
                above_bytes: s1,
                at_bytes: meet(w[0], w[1]),
                ring_wins_above: d1 < 0.0,
                again: None,
            },
        ))
    });
    if let Some((after, c)) = first.as_mut() {
        // Past the first crossing the winner above it is ahead; a size where the other is
        // strictly ahead means the lead changes again.
        let other = |d: f64| if c.ring_wins_above { d > 0.0 } else { d < 0.0 };
        // The size before is the winner's or a tie (0: the crossing is at that size).
        c.again = (*after..diff.len())
            .find(|&j| other(diff[j].1))
            .map(|j| meet(diff[j - 1], diff[j]));
    }
    first.map(|(_, c)| c)
}

/// Every size where the faster of two curves (same sizes) changes, in size order, interpolated
/// as [`Crossover::at_bytes`] (a tie at a simulated size changes nothing by itself).
pub fn crossings(ring: &[(u64, f64)], tree: &[(u64, f64)]) -> Vec<f64> {
    let diff = log_ratios(ring, tree);
    let mut out = Vec::new();
    // Who was ahead at the last size with a finite difference, and that size (a tie included:
    // the curves meet there); sizes with no finite difference (a time of 0 or NaN) are passed by.
    let mut ahead = None;
    let mut last = None;
    for (j, &(_, d)) in diff.iter().enumerate() {
        if !d.is_finite() {
            continue;
        }
        if d != 0.0 {
            let tree_ahead = d > 0.0;
            if let (Some(a), Some(i)) = (ahead, last)
                && a != tree_ahead
            {
                out.push(meet(diff[i], diff[j]));
            }
            ahead = Some(tree_ahead);
        }
        last = Some(j);
    }
    out
}

/// The size ranges `(from, to)` where the tree is faster, from the curves' first size or a
/// crossing to a crossing or their last size ([`crossings`]).
///
/// ```
/// use allreduce_lab::ui::model::versus::tree_ahead;
/// let ring = [(1, 3.0), (10, 1.0), (100, 1.0), (1000, 3.0)];
/// let tree = [(1, 1.0), (10, 3.0), (100, 3.0), (1000, 1.0)];
/// let ahead = tree_ahead(&ring, &tree);
/// assert_eq!(ahead.len(), 2);
/// assert_eq!(ahead[0].0, 1.0);
/// assert!(ahead[0].1 > 1.0 && ahead[0].1 < 10.0);
/// assert!(ahead[1].0 > 100.0 && ahead[1].1 == 1000.0);
/// ```
pub fn tree_ahead(ring: &[(u64, f64)], tree: &[(u64, f64)]) -> Vec<(f64, f64)> {
    let (Some(first), Some(last)) = (ring.first(), ring.last()) else {
        return Vec::new();
    };
    let starts_ahead = log_ratios(ring, tree)
        .into_iter()
        .map(|(_, d)| d)
        .find(|&d| d != 0.0 && d.is_finite())
        .is_some_and(|d| d > 0.0);
    let mut out = Vec::new();
    let mut from = starts_ahead.then_some(first.0 as f64);
    for x in crossings(ring, tree) {
        match from.take() {
            Some(lo) => out.push((lo, x)),
            None => from = Some(x),
        }
    }
    if let Some(lo) = from {
        out.push((lo, last.0 as f64));
    }
    out
}

/// The "predict, then slide" question of the figure: at 2 MiB on 64 GPUs of the default cluster,
/// which is faster? Returns (ring, tree) seconds, simulated. Both are stops of the figure's
/// sliders, so that the answer can be checked on its chart (it asked about 1 MB, between stops).
pub const PREDICT_GPUS: usize = 64;
pub const PREDICT_BYTES: u64 = 2 << 20;

pub fn predict_answer() -> Result<(f64, f64), ScenarioError> {
    let setup = VersusSetup::predict_case();
    let t = |side| -> Result<f64, ScenarioError> {
        let s = setup.scenario(VersusJob::Point {
            side,
            size_bytes: PREDICT_BYTES,
        })?;
        Ok(crate::sim::scenario::simulate_time(&s)?.time_secs)
    };
    Ok((t(Side::Ring)?, t(Side::Tree)?))
}

/// The figure's jobs, run a slice at a time so that a large ring never blocks the page.
pub struct VersusWork {
    setup: VersusSetup,
    jobs: Vec<VersusJob>,
    next: usize,
    running: Option<(VersusJob, Run)>,
}

/// Events a run advances per slice.
pub const VERSUS_SLICE_EVENTS: usize = 2_000;

impl VersusWork {
    pub fn new(setup: VersusSetup) -> VersusWork {
        VersusWork::of_jobs(setup, setup.jobs())
    }

    /// Runs only `jobs` of `setup` (those the Web Workers did not answer), in their order.
    pub fn of_jobs(setup: VersusSetup, jobs: Vec<VersusJob>) -> VersusWork {
        VersusWork {
            jobs,
            setup,
            next: 0,
            running: None,
        }
    }

    pub fn total(&self) -> usize {
        self.jobs.len()
    }

    pub fn is_done(&self) -> bool {
        self.running.is_none() && self.next >= self.jobs.len()
    }

    /// Works until `out_of_time()` (asked after every slice) or the end; returns the jobs
    /// finished meanwhile, with their traces or why they could not run.
    pub fn work(
        &mut self,
        mut out_of_time: impl FnMut() -> bool,
    ) -> Vec<(VersusJob, Result<Trace, ScenarioError>)> {
        let mut out = Vec::new();
        loop {
            if let Some((job, run)) = self.running.as_mut() {
                if run.step(VERSUS_SLICE_EVENTS) {
                    let job = *job;
                    let (_, run) = self.running.take().expect("a run in progress");
                    out.push((job, Ok(run.finish())));
                }
            } else if self.next < self.jobs.len() {
                let job = self.jobs[self.next];
                self.next += 1;
                match self.setup.start(job) {
                    Ok(run) => self.running = Some((job, run)),
                    Err(e) => out.push((job, Err(e))),
                }
            }
            if self.is_done() || out_of_time() {
                return out;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_tiers_said_crossed_are_those_some_route_crosses() {
        use crate::sim::topology::{Topology, TopologySpec};
        use crate::sim::units::Bandwidth;
        let bw = Bandwidth::from_gbytes_per_sec(100.0);
        for (nodes, g, pxn) in
            (1..=3).flat_map(|n| (1..=4).flat_map(move |g| [(n, g, false), (n, g, true)]))
        {
            let rail = TopologySpec::Rail {
                nodes,
                gpus_per_node: g,
                intra_bw: bw,
                intra_lat_secs: 1e-6,
                nic_bw: bw,
                nic_lat_secs: 1e-6,
                spine_bw: bw,
                spine_lat_secs: 1e-6,
                oversubscription: 1.0,
                pxn,
            };
            let cluster = |racks, npr| TopologySpec::Cluster {
                racks,
                nodes_per_rack: npr,
                gpus_per_node: g,
                intra_bw: bw,
                intra_lat_secs: 1e-6,
                node_bw: bw,
                node_lat_secs: 1e-6,
                rack_bw: bw,
                rack_lat_secs: 1e-6,
                oversubscription: 1.0,
                nics_per_node: 1,
            };
            let crossed_by_routes = |spec: &TopologySpec| {
                let topo = Topology::new(spec).unwrap();
                let n = topo.ranks();
                let mut used = Vec::new();
                for src in 0..n {
                    for dst in (0..n).filter(|&d| d != src) {
                        for &l in topo.route(src, dst).links() {
                            let tier = topo.links()[l as usize].tier;
                            if !used.contains(&tier) {
                                used.push(tier);
                            }
                        }
                    }
                }
                used
            };
            let used = crossed_by_routes(&rail);
            for tier in Tier::ALL {
                assert_eq!(
                    rail_crossed(tier, nodes, g, pxn),
                    used.contains(&tier),
                    "rail {nodes}×{g} pxn {pxn}: {tier:?}"
                );
            }
            // The cluster's rule, on up to two racks of the same nodes.
            for (racks, npr) in [(1, nodes), (2, nodes)] {
                let used = crossed_by_routes(&cluster(racks, npr));
                for tier in Tier::ALL {
                    let gpus = racks * npr * g;
                    assert_eq!(
                        crossed(tier, gpus, g, npr),
                        used.contains(&tier),
                        "cluster {racks}×{npr}×{g}: {tier:?}"
                    );
                }
            }
        }
    }

    #[test]
    fn crossings_pass_by_sizes_without_a_finite_difference_and_count_one_through_a_tie() {
        let sizes = [1u64, 10, 100, 1000, 10_000];
        let curve = |t: [f64; 5]| -> Vec<(u64, f64)> { sizes.iter().copied().zip(t).collect() };
        // The ring's time at 100 is NaN: the crossing lies between 10 and 1000, a number.
        let ring = curve([1.0, 1.0, f64::NAN, 3.0, 3.0]);
        let tree = curve([2.0, 2.0, 2.0, 1.0, 1.0]);
        let c = crossings(&ring, &tree);
        assert_eq!(c.len(), 1);
        assert!(c[0] > 10.0 && c[0] < 1000.0, "{c:?}");
        assert_eq!(tree_ahead(&ring, &tree), vec![(c[0], 10_000.0)]);
        // Through a tie at 100: one crossing, there.
        let ring = curve([1.0, 1.0, 2.0, 3.0, 3.0]);
        let c = crossings(&ring, &tree);
        assert!(c.len() == 1 && (c[0] - 100.0).abs() < 1e-9, "{c:?}");
        // A time of 0 gives an infinite difference: passed by too, no NaN crossing.
        let ring = curve([1.0, 0.0, 3.0, 3.0, 3.0]);
        assert!(crossings(&ring, &tree).iter().all(|x| x.is_finite()));
    }

    use super::*;

    fn view(setup: &VersusSetup) -> VersusView {
        let done: Vec<_> = setup
            .jobs()
            .into_iter()
            .map(|j| (j, setup.run(j).unwrap()))
            .collect();
        VersusView::new(setup, &done)
    }

    #[test]
    fn the_crossover_moves_to_larger_messages_as_gpus_increase() {
        let at = |gpus| {
            view(&VersusSetup {
                gpus,
                ..VersusSetup::default()
            })
            .crossover
            .unwrap()
        };
        let (c8, c64) = (at(8), at(64));
        assert!(c8.ring_wins_above && c64.ring_wins_above);
        assert!(c64.at_bytes > c8.at_bytes, "{c8:?} {c64:?}");
    }

    #[test]
    fn the_split_reads_latency_from_8_bytes_and_bandwidth_from_a_latency_free_run() {
        let setup = VersusSetup {
            gpus: 16,
            ..VersusSetup::default()
        };
        let v = view(&setup);
        let split = |side| v.splits.iter().find(|(s, _)| *s == side).unwrap().1;
        let (ring, tree) = (split(Side::Ring), split(Side::Tree));
        // The ring pays 2(N−1) latencies, the tree about 2·log₂N: the ring's latency part is larger.
        assert!(ring.latency_secs > tree.latency_secs);
        // Bandwidth: the ring is optimal, 2(N−1)/N·S over its slowest link (a 400 Gbps NIC).
        let s = setup.size_bytes as f64;
        let want = 2.0 * 15.0 / 16.0 * s / 50e9;
        assert!((ring.bandwidth_secs / want - 1.0).abs() < 1e-9, "{ring:?}");
        assert!(tree.bandwidth_secs > ring.bandwidth_secs);
        for (_, sp) in &v.splits {
            assert!(sp.total_secs >= sp.bandwidth_secs.max(sp.latency_secs) * (1.0 - 1e-12));
        }
    }

    #[test]
    fn timelines_show_each_tier_and_stay_within_capacity() {
        let setup = VersusSetup {
            gpus: 64,
            ..VersusSetup::default()
        };
        let v = view(&setup);
        assert_eq!(v.timelines.len(), 2);
        for (_, lu) in &v.timelines {
            assert_eq!(lu.tiers.len(), 3);
            for (_, buckets) in &lu.tiers {
                assert_eq!(buckets.len(), TIMELINE_BUCKETS);
                assert!(buckets.iter().all(|&u| (0.0..=1.0).contains(&u)));
            }
            assert!(lu.tiers.iter().any(|(_, b)| b.iter().any(|&u| u > 0.0)));
        }
    }

    #[test]
    fn a_second_crossing_is_flagged_and_ties_are_not_crossings() {
        let at = |t: &[f64]| {
            t.iter()
                .enumerate()
                .map(|(i, &t)| (8u64 << (3 * i), t))
                .collect::<Vec<_>>()
        };
        // Ring ÷ tree 2, 0.5, 2: the tree wins, then the ring, then the tree again (as on 64 GPUs
        // with 15 GB/s links, 128 segments and 50 µs latencies; the teach e2e sets that case).
        let c = crossover(&at(&[2.0, 1.0, 4.0]), &at(&[1.0, 2.0, 2.0])).unwrap();
        assert!(c.ring_wins_above, "{c:?}");
        assert_eq!((c.below_bytes, c.above_bytes), (8, 64));
        // The second change: ratios 0.5 and 2 at 64 and 512 B meet halfway on log axes.
        let again = c.again.unwrap();
        assert!((again - (64.0f64 * 512.0).sqrt()).abs() < 1e-9, "{again}");
        let c = crossover(&at(&[2.0, 1.0, 1.0]), &at(&[1.0, 2.0, 2.0])).unwrap();
        assert!(c.ring_wins_above && c.again.is_none(), "{c:?}");
        // Equal at every size (2 GPUs, 1 segment): no crossing, and a tie, not "one is faster".
        assert!(crossover(&at(&[1.0, 2.0]), &at(&[1.0, 2.0])).is_none());
        assert_eq!(lead(&at(&[1.0, 2.0]), &at(&[1.0, 2.0])), Some(Lead::Tie));
        // Tied while small, the ring ahead after (2 GPUs, 4 segments).
        assert_eq!(
            lead(&at(&[1.0, 1.0, 2.0]), &at(&[1.0, 1.0, 3.0])),
            Some(Lead::NeverSlower(Side::Ring))
        );
        // Through a tie: no window changes sign strictly, but each is ahead somewhere.
        assert!(crossover(&at(&[1.0, 2.0, 3.0]), &at(&[2.0, 2.0, 2.0])).is_none());
        assert_eq!(lead(&at(&[1.0, 2.0, 3.0]), &at(&[2.0, 2.0, 2.0])), None);
    }

    #[test]
    fn a_partial_set_of_results_draws_what_it_has_and_no_crossover() {
        let setup = VersusSetup::default();
        let jobs = setup.jobs();
        let done: Vec<_> = jobs
            .iter()
            .take(3)
            .map(|&j| (j, setup.run(j).unwrap()))
            .collect();
        let v = VersusView::new(&setup, &done);
        assert!(!v.complete && v.crossover.is_none());
        assert_eq!(v.splits.len(), 1);
    }

    #[test]
    fn every_offered_gpu_count_has_a_cluster_and_a_plan() {
        for &g in &VERSUS_GPUS {
            let setup = VersusSetup {
                gpus: g as usize,
                ..VersusSetup::default()
            };
            assert!(setup.topology(true).is_some(), "{g}");
            let jobs = setup.jobs();
            assert_eq!(jobs.len(), 2 * VERSUS_SIZES.len() + 2);
            for j in jobs {
                assert!(setup.scenario(j).unwrap().validate().is_ok());
            }
        }
    }

    #[test]
    fn the_prediction_is_answered_by_simulation() {
        let (ring, tree) = predict_answer().unwrap();
        assert!(ring > 0.0 && tree > 0.0);
        // At 2 MiB on 64 GPUs the ring's 126 latencies dominate: the tree is faster.
        assert!(tree < ring, "ring {ring} tree {tree}");
        // A question the sliders can reach, answered as the chart's points are.
        assert!(
            VERSUS_SIZES.contains(&PREDICT_BYTES) && VERSUS_GPUS.contains(&(PREDICT_GPUS as u64))
        );
        let setup = VersusSetup {
            gpus: PREDICT_GPUS,
            ..VersusSetup::default()
        };
        let point = |side| {
            let job = VersusJob::Point {
                side,
                size_bytes: PREDICT_BYTES,
            };
            crate::sim::scenario::simulate_time(&setup.scenario(job).unwrap())
                .unwrap()
                .time_secs
        };
        assert_eq!((point(Side::Ring), point(Side::Tree)), (ring, tree));
    }
}
