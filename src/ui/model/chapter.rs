//! What the chapter's figures show, as plain data computed by the core: the pure half of the
//! guided sections (the components only draw it). Compiles natively so that `cargo test` checks
//! that every figure's numbers come from the simulation.
//!
//! ```
//! use allreduce_lab::ui::model::chapter::*;
//! // The ring figure: after all 2(N−1) steps every GPU sent 2(N−1)/N × S.
//! let trace = ring_trace(4).unwrap();
//! let end = ring_frame(&trace, 6);
//! assert_eq!(end.sent[0] as f64 / RING_SIZE_BYTES as f64, 1.5);
//! assert!(end.cells.iter().all(|&c| c == 4));
//! ```
//!
//! Size: over 450 lines because one model per figure of the chapter; about 200 lines are tests.

use crate::course::chapter::{
    CHAPTER_SCENARIOS, ChapterScenario, Outcome, TREE_FOR_COMPARISON, TREE_SEGMENTS, evaluate,
};
use crate::course::claims::bytes_between_racks;
use crate::sim::algorithms::Algorithm;
use crate::sim::scenario::{Scenario, ScenarioError, simulate_verified};
use crate::sim::schedule::Phase;
use crate::sim::topology::TopologySpec;
use crate::sim::trace::Trace;
use crate::sim::training::{StepBreakdown, scaling};
use crate::sim::units::Bandwidth;

fn scenario(id: &str) -> ChapterScenario {
    *CHAPTER_SCENARIOS
        .iter()
        .find(|s| s.id == id)
        .expect("the chapter scenarios include every id this module names")
}

/// The textbook α-β network of the ring and tree figures: 100 GB/s ports, 5 µs per message.
fn uniform(gpus: usize, algorithm: Algorithm, size_bytes: u64, segments: usize) -> Scenario {
    Scenario {
        topology: TopologySpec::Uniform {
            ranks: gpus,
            bandwidth: Bandwidth::from_gbytes_per_sec(100.0),
            latency_secs: 5e-6,
        },
        algorithm,
        size_bytes,
        segments,
        gamma_secs_per_byte: 0.0,
        faults: Default::default(),
    }
}

// §1.1 ------------------------------------------------------------------------------------------

/// The GPU counts of the speedup figure.
pub const SPEEDUP_COUNTS: [usize; 7] = [1, 2, 4, 8, 16, 32, 64];

/// The three cases of §1.1: the chapter's 6–7×, its "under 4× with a badly chosen topology" (the
/// same box, gradients through a star), and a network too slow (other hardware).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum WhyCluster {
    PcieServers,
    BadTopology,
    SingleGpuServers,
}

impl WhyCluster {
    pub const ALL: [WhyCluster; 3] = [
        WhyCluster::PcieServers,
        WhyCluster::BadTopology,
        WhyCluster::SingleGpuServers,
    ];
    pub fn scenario(self) -> ChapterScenario {
        scenario(match self {
            WhyCluster::PcieServers => "eight-gpus-6-7x",
            WhyCluster::BadTopology => "bad-topology-under-4x",
            WhyCluster::SingleGpuServers => "slow-network-under-4x",
        })
    }
}

/// A section's run: the trace its figure reads, never a wrong run's ([`simulate_verified`]).
fn verified_run(scenario: &Scenario, details: bool) -> Result<Trace, ScenarioError> {
    Ok(simulate_verified(scenario, details)?.trace)
}

/// The training step at every count of [`SPEEDUP_COUNTS`], the allreduce simulated each time.
pub fn speedup_curve(cluster: WhyCluster) -> Result<Vec<StepBreakdown>, ScenarioError> {
    let s = cluster.scenario();
    scaling(
        &s.training(),
        &s.topology(),
        s.algorithm,
        s.segments,
        &SPEEDUP_COUNTS,
    )
}

// §1.2 ------------------------------------------------------------------------------------------

/// The chapter's two stories of a short stave.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Story {
    /// Storage IO saturated: GPU utilisation fell to 30%.
    Io,
    /// A 100 Gbps network: communication over 40% of training time.
    Network,
}

impl Story {
    pub fn scenario(self) -> ChapterScenario {
        scenario(match self {
            Story::Io => "io-bound-30pct",
            Story::Network => "network-100g-over-40pct",
        })
    }
}

/// The storage bandwidths of the layers figure, MB/s.
pub const STORAGE_MBYTES_PER_SEC: [u64; 9] =
    [500, 1000, 2000, 2800, 5000, 10_000, 20_000, 50_000, 100_000];
/// Network bandwidths per node, Gbps.
pub const NIC_GBITS_PER_SEC: [u64; 8] = [25, 50, 100, 200, 400, 800, 1600, 3200];

/// The story's step with the storage and node network bandwidth changed.
pub fn layers_outcome(
    story: Story,
    storage_bytes_per_sec: f64,
    nic_gbits_per_sec: f64,
) -> Result<Outcome, ScenarioError> {
    let mut s = story.scenario();
    s.storage_bytes_per_sec = storage_bytes_per_sec;
    s.hardware.node_gbits_per_sec = nic_gbits_per_sec;
    evaluate(&s)
}

/// A layer of the cluster (§1.2's table).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Layer {
    Compute,
    Network,
    Storage,
    Scheduling,
}

impl Layer {
    pub const ALL: [Layer; 4] = [
        Layer::Compute,
        Layer::Network,
        Layer::Storage,
        Layer::Scheduling,
    ];
}

/// The layer that holds the step back: storage or network, whichever exposes more time, once it is
/// at least a tenth of the step. `None` when the GPUs compute nearly all the time.
pub fn short_stave(step: &StepBreakdown) -> Option<Layer> {
    let (layer, secs) = if step.exposed_io_secs >= step.exposed_comm_secs {
        (Layer::Storage, step.exposed_io_secs)
    } else {
        (Layer::Network, step.exposed_comm_secs)
    };
    (secs >= 0.1 * step.step_secs).then_some(layer)
}

/// Which side of max(storage IO, compute + exposed communication) sets a step's pace: true when
/// loading the next batch takes longer than the GPUs' work, so part of it shows.
pub fn loading_sets_pace(step: &StepBreakdown) -> bool {
    step.exposed_io_secs > 0.0
}

/// The step-model sentence for a step: which form, and which side of it decides here.
pub fn step_form_key(step: &StepBreakdown) -> crate::ui::i18n::Key {
    if loading_sets_pace(step) {
        crate::ui::i18n::Key::StepFormIo
    } else {
        crate::ui::i18n::Key::StepFormBusy
    }
}

/// The live shortest stave of §1.2: the network story's gradient allreduce (BERT-large on 4 nodes
/// × 8 GPUs, 100 Gbps NICs) with one NIC slowed and one GPU late, the ring and NCCL's pipelined
/// tree, each simulated with the fault.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Barrel {
    pub ring_secs: f64,
    pub ring_busbw_bytes_per_sec: f64,
    pub tree_secs: f64,
    /// 32-GPU speedup with the ring, faulty and healthy.
    pub speedup: f64,
    pub healthy_speedup: f64,
}

/// The cable the barrel slows and the GPU it makes late.
pub const BARREL_CABLE: &str = "node1-rack0";
pub const BARREL_LATE_RANK: usize = 5;
/// The share of its bandwidth the slowed NIC keeps, percent.
pub const BARREL_NIC_PERCENT: [u64; 5] = [100, 50, 25, 10, 5];
/// How late the GPU joins, milliseconds.
pub const BARREL_LATE_MS: [u64; 5] = [0, 10, 50, 100, 200];

pub fn barrel(nic_share: f64, late_secs: f64) -> Result<Barrel, ScenarioError> {
    use crate::sim::faults::{FaultError, Faults, SlowLink, Straggler};
    let story = Story::Network.scenario();
    let mut faults = Faults::default();
    if nic_share < 1.0 {
        faults.slow_links.push(SlowLink {
            cable: BARREL_CABLE.parse().map_err(FaultError::from)?,
            factor: nic_share,
        });
    }
    if late_secs > 0.0 {
        faults.stragglers.push(Straggler {
            rank: BARREL_LATE_RANK,
            delay_secs: late_secs,
        });
    }
    let run = |alg: Algorithm, k: usize, faults: &Faults| -> Result<Trace, ScenarioError> {
        let mut sc = story.allreduce(alg, k);
        sc.faults = faults.clone();
        verified_run(&sc, false)
    };
    let ring = run(Algorithm::Ring, 1, &faults)?;
    // NCCL's tree, as a cluster runs it: chains in the nodes, a double binary tree between them
    // (a double binary tree laid over all 32 GPUs in order crosses the NICs far more, and read as
    // "the tree" it made trees look half again slower than the ring across nodes).
    let tree = run(Algorithm::NcclTree, TREE_SEGMENTS, &faults)?;
    let healthy = run(Algorithm::Ring, 1, &Default::default())?;
    let model = story.training();
    Ok(Barrel {
        ring_secs: ring.time_secs,
        ring_busbw_bytes_per_sec: ring.busbw_bytes_per_sec(),
        tree_secs: tree.time_secs,
        speedup: model.step(story.gpus(), ring.time_secs).speedup,
        healthy_speedup: model.step(story.gpus(), healthy.time_secs).speedup,
    })
}

// §1.3.1 ----------------------------------------------------------------------------------------

/// S of the ring figure: 840 MB divides evenly into N chunks for every N from 2 to 8.
pub const RING_SIZE_BYTES: u64 = 840_000_000;
/// The ring sizes the figure offers.
pub const RING_GPUS: std::ops::RangeInclusive<usize> = 2..=8;

/// A ring allreduce of [`RING_SIZE_BYTES`] on `gpus` GPUs, with buffer changes recorded.
pub fn ring_trace(gpus: usize) -> Result<Trace, ScenarioError> {
    verified_run(&uniform(gpus, Algorithm::Ring, RING_SIZE_BYTES, 1), true)
}

/// A transfer drawn as an arrow.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Arrow {
    pub src: usize,
    pub dst: usize,
    pub chunk: usize,
}

/// The ring after `step` of its steps (0: before any).
#[derive(Clone, Debug, PartialEq)]
pub struct RingFrame {
    /// Contributors held by each cell, `rank * chunks + chunk`.
    pub cells: Vec<u32>,
    /// The transfers of the step just completed.
    pub arrows: Vec<Arrow>,
    /// Bytes each rank has sent and received so far.
    pub sent: Vec<u64>,
    pub received: Vec<u64>,
    /// The phase of the step just completed.
    pub phase: Option<Phase>,
}

/// The ring's state after its first `step` steps, read from the trace.
pub fn ring_frame(trace: &Trace, step: usize) -> RingFrame {
    let schedule = &trace.schedule;
    let (ranks, chunks) = (schedule.ranks(), schedule.chunks());
    let done = |id: usize| (schedule.transfer(id).step() as usize) < step;
    let mut cells = vec![1u32; ranks * chunks];
    // Changes are in the order the run made them; those of completed steps give the state.
    for c in trace
        .cell_changes
        .iter(schedule)
        .filter(|c| done(c.transfer as usize))
    {
        cells[c.rank as usize * chunks + c.chunk as usize] = c.contributors;
    }
    let (mut sent, mut received) = (vec![0u64; ranks], vec![0u64; ranks]);
    let mut arrows = Vec::new();
    let mut phase = None;
    for (id, t) in schedule.transfers().iter().enumerate() {
        if done(id) {
            sent[t.src() as usize] += schedule.bytes(id);
            received[t.dst() as usize] += schedule.bytes(id);
        }
        if step > 0 && t.step() as usize == step - 1 {
            arrows.push(Arrow {
                src: t.src() as usize,
                dst: t.dst() as usize,
                chunk: t.chunk_lo() as usize,
            });
            phase = Some(t.phase());
        }
    }
    RingFrame {
        cells,
        arrows,
        sent,
        received,
        phase,
    }
}

// §1.3.2 ----------------------------------------------------------------------------------------

/// S of the tree figure.
pub const TREE_SIZE_BYTES: u64 = 100_000_000;
/// The tree sizes the figure offers.
pub const TREE_GPUS: std::ops::RangeInclusive<usize> = 2..=16;
/// The pipeline segments the tree figures offer; they start at [`TREE_SEGMENTS`], as every
/// guided figure does, and 1 shows why trees must pipeline.
pub const SEGMENT_CHOICES: [u64; 8] = [1, 2, 4, 8, 16, 32, 64, 128];
pub const DEFAULT_SEGMENTS: usize = TREE_SEGMENTS;

/// The tree shapes of §1.3.2.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TreeKind {
    Flat,
    Binary,
    DoubleBinary,
}

impl TreeKind {
    pub const ALL: [TreeKind; 3] = [TreeKind::Flat, TreeKind::Binary, TreeKind::DoubleBinary];
    pub fn algorithm(self) -> Algorithm {
        match self {
            TreeKind::Flat => Algorithm::TreeFlat,
            TreeKind::Binary => Algorithm::TreeBinary,
            TreeKind::DoubleBinary => Algorithm::DoubleBinaryTree,
        }
    }
    pub fn trees(self) -> usize {
        if self == TreeKind::DoubleBinary { 2 } else { 1 }
    }
}

/// A tree allreduce and the ring on the same GPUs, for comparison.
#[derive(Clone, Debug)]
pub struct TreeRun {
    pub kind: TreeKind,
    pub tree: Trace,
    pub ring: Trace,
}

impl TreeRun {
    /// The first tree's root: the one rank that sends it no reduce transfer. (Read over both
    /// trees of a double binary tree at once, every rank sends one, in the other tree if not.)
    pub fn root(&self) -> usize {
        tree_parents(&self.tree, self.kind.trees())[0]
            .iter()
            .position(Option::is_none)
            .unwrap_or(0)
    }
}

/// A tree cut into `segments` pipeline segments, and the ring, on `gpus` GPUs.
pub fn tree_run(kind: TreeKind, gpus: usize, segments: usize) -> Result<TreeRun, ScenarioError> {
    Ok(TreeRun {
        kind,
        tree: verified_run(
            &uniform(gpus, kind.algorithm(), TREE_SIZE_BYTES, segments),
            false,
        )?,
        ring: verified_run(&uniform(gpus, Algorithm::Ring, TREE_SIZE_BYTES, 1), false)?,
    })
}

/// The parent of every rank in each tree of a run, read from its reduce transfers (child → parent).
pub fn tree_parents(trace: &Trace, trees: usize) -> Vec<Vec<Option<usize>>> {
    let schedule = &trace.schedule;
    let per_tree = (schedule.chunks() / trees).max(1);
    let mut parents = vec![vec![None; schedule.ranks()]; trees];
    for t in schedule
        .transfers()
        .iter()
        .filter(|t| t.phase() == Phase::Reduce)
    {
        let tree = (t.chunk_lo() as usize / per_tree).min(trees - 1);
        parents[tree][t.src() as usize] = Some(t.dst() as usize);
    }
    parents
}

/// Where to draw each rank of a tree: (x in leaf slots, depth). Leaves take consecutive slots in
/// depth-first order, children by rank; a parent sits above the middle of its children.
pub fn tree_layout(parents: &[Option<usize>]) -> Vec<(f64, usize)> {
    let n = parents.len();
    let mut children = vec![Vec::new(); n];
    let mut root = 0;
    for (r, p) in parents.iter().enumerate() {
        match p {
            Some(p) => children[*p].push(r),
            None => root = r,
        }
    }
    let mut pos = vec![(0.0, 0usize); n];
    let mut next_leaf = 0.0;
    fn place(
        r: usize,
        depth: usize,
        children: &[Vec<usize>],
        pos: &mut [(f64, usize)],
        next_leaf: &mut f64,
    ) {
        if children[r].is_empty() {
            pos[r] = (*next_leaf, depth);
            *next_leaf += 1.0;
            return;
        }
        for &c in &children[r] {
            place(c, depth + 1, children, pos, next_leaf);
        }
        let xs: Vec<f64> = children[r].iter().map(|&c| pos[c].0).collect();
        pos[r] = ((xs[0] + xs[xs.len() - 1]) / 2.0, depth);
    }
    place(root, 0, &children, &mut pos, &mut next_leaf);
    pos
}

// §1.4 ------------------------------------------------------------------------------------------

/// The chapter's two rack scenarios: (id, node NIC Gbps, rack uplink Gbps).
pub const RACK_SCENARIOS: [(&str, u64, u64); 2] = [
    ("racks-800-200-tree-wins", 800, 200),
    ("inverted-400-800-ring-wins", 400, 800),
];
/// The bandwidths the comparison's sliders offer, Gbps.
pub const RACK_GBITS_PER_SEC: [u64; 6] = [100, 200, 400, 800, 1600, 3200];

/// Ring and tree on the chapter's 2 racks × 2 nodes × 8 GPUs.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RackComparison {
    pub ring_secs: f64,
    pub tree_secs: f64,
    pub ring_cross_rack_bytes: f64,
    pub tree_cross_rack_bytes: f64,
}

/// Ring and the chapter's tree (pipelined binomial) on the rack scenario with these bandwidths.
pub fn rack_comparison(
    node_gbits_per_sec: f64,
    rack_gbits_per_sec: f64,
) -> Result<RackComparison, ScenarioError> {
    let mut s = scenario(RACK_SCENARIOS[0].0);
    s.hardware.node_gbits_per_sec = node_gbits_per_sec;
    s.hardware.rack_gbits_per_sec = rack_gbits_per_sec;
    let ring = verified_run(&s.allreduce(Algorithm::Ring, 1), false)?;
    let (alg, k) = TREE_FOR_COMPARISON;
    let tree = verified_run(&s.allreduce(alg, k), false)?;
    Ok(RackComparison {
        ring_secs: ring.time_secs,
        tree_secs: tree.time_secs,
        ring_cross_rack_bytes: bytes_between_racks(&ring),
        tree_cross_rack_bytes: bytes_between_racks(&tree),
    })
}

// Claims ----------------------------------------------------------------------------------------

/// GPU counts the claims panel offers.
pub const CLAIM_GPUS: [u64; 11] = [2, 3, 4, 5, 6, 7, 8, 12, 16, 24, 32];
/// Message sizes the claims panel offers, bytes.
pub const CLAIM_SIZES: [u64; 9] = [
    1_000,
    10_000,
    100_000,
    1_000_000,
    10_000_000,
    100_000_000,
    1_000_000_000,
    10_000_000_000,
    100,
];
/// NIC and uplink bandwidths the claims panel offers, Gbps ("as in the chapter" is a separate
/// reset, not a slider position).
pub const CLAIM_GBITS: [u64; 8] = [25, 50, 100, 200, 400, 800, 1600, 3200];
/// Where a bandwidth slider's thumb rests while it shows "as in the chapter": the chapter's 100
/// Gbps network, so that the first step moves to a neighbour of it, not to an extreme.
pub const CLAIM_GBITS_AT_REST: u64 = 100;

/// The claims panel's sizes in slider order.
pub fn claim_sizes() -> Vec<u64> {
    let mut v = CLAIM_SIZES.to_vec();
    v.sort_unstable();
    v
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::course::claims::{CLAIMS, Conditions, Reads, check};

    #[test]
    fn ring_counters_grow_to_2_n_minus_1_over_n_times_s_for_every_n() {
        for n in RING_GPUS {
            let trace = ring_trace(n).unwrap();
            let steps = 2 * (n - 1);
            let mut last = 0;
            for k in 0..=steps {
                let f = ring_frame(&trace, k);
                assert!(f.sent[0] >= last);
                last = f.sent[0];
                assert_eq!(f.arrows.len(), if k == 0 { 0 } else { n }, "n={n} k={k}");
            }
            let end = ring_frame(&trace, steps);
            let formula = 2.0 * (n as f64 - 1.0) / n as f64;
            for r in 0..n {
                assert_eq!(end.sent[r] as f64 / RING_SIZE_BYTES as f64, formula);
                assert_eq!(end.received[r], end.sent[r]);
                assert_eq!(end.sent[r], trace.ranks[r].sent_bytes);
            }
            assert!(end.cells.iter().all(|&c| c == n as u32));
            // After the reduce-scatter each GPU holds exactly one fully reduced chunk.
            let mid = ring_frame(&trace, n - 1);
            for r in 0..n {
                let full = mid.cells[r * n..(r + 1) * n]
                    .iter()
                    .filter(|&&c| c == n as u32)
                    .count();
                assert_eq!(full, 1, "n={n} rank {r}");
            }
            assert_eq!(mid.phase, Some(Phase::ReduceScatter));
            assert_eq!(end.phase, Some(Phase::AllGather));
        }
    }

    #[test]
    fn the_flat_trees_root_carries_n_minus_1_times_s_and_binary_trees_spread_it() {
        for n in [4, 8, 13, 16] {
            let flat = tree_run(TreeKind::Flat, n, DEFAULT_SEGMENTS).unwrap();
            assert_eq!(
                flat.tree.ranks[0].received_bytes,
                (n as u64 - 1) * TREE_SIZE_BYTES
            );
            let parents = tree_parents(&flat.tree, 1);
            assert!(parents[0].iter().skip(1).all(|&p| p == Some(0)));
            for kind in [TreeKind::Binary, TreeKind::DoubleBinary] {
                let run = tree_run(kind, n, DEFAULT_SEGMENTS).unwrap();
                let busiest = run
                    .tree
                    .ranks
                    .iter()
                    .map(|r| r.received_bytes)
                    .max()
                    .unwrap();
                // Two children up and a parent down: 3 × S at most, whatever N is.
                assert!(busiest <= 3 * TREE_SIZE_BYTES, "{kind:?} n={n}");
                // The root is where the first tree's broadcast starts: GPU 0 in each kind.
                let per_tree = run.tree.schedule.chunks() / kind.trees();
                let first =
                    run.tree.schedule.transfers().iter().find(|t| {
                        t.phase() == Phase::Broadcast && (t.chunk_lo() as usize) < per_tree
                    });
                assert_eq!(first.map(|t| t.src() as usize), Some(run.root()));
                assert_eq!(run.root(), 0, "{kind:?} n={n}");
                for p in tree_parents(&run.tree, kind.trees()) {
                    assert_eq!(
                        p.iter().filter(|p| p.is_none()).count(),
                        1,
                        "{kind:?} n={n}: one root"
                    );
                    let layout = tree_layout(&p);
                    for (r, parent) in p.iter().enumerate() {
                        if let Some(q) = parent {
                            assert_eq!(layout[r].1, layout[*q].1 + 1);
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn the_double_binary_tree_pipelined_as_every_figure_states_is_close_to_the_ring() {
        // 100 MB on 8 GPUs: unpipelined, the tree takes about 3× the ring's time; pipelined as
        // every guided figure runs it, it is within a few tens of percent.
        let one = tree_run(TreeKind::DoubleBinary, 8, 1).unwrap();
        let piped = tree_run(TreeKind::DoubleBinary, 8, DEFAULT_SEGMENTS).unwrap();
        let ratio = |r: &TreeRun| r.tree.time_secs / r.ring.time_secs;
        assert!(ratio(&one) > 2.5, "{}", ratio(&one));
        assert!(ratio(&piped) < 1.5, "{}", ratio(&piped));
        assert_eq!(piped.tree.schedule.chunks(), 2 * DEFAULT_SEGMENTS);
    }

    #[test]
    fn speedup_falls_short_of_n_and_the_bad_topology_falls_under_4x() {
        // regression guard: fixture tuned to the chapter's PCIe box so that 8 GPUs give 6–7×.
        let good = speedup_curve(WhyCluster::PcieServers).unwrap();
        let bad = speedup_curve(WhyCluster::BadTopology).unwrap();
        let slow = speedup_curve(WhyCluster::SingleGpuServers).unwrap();
        assert!(slow.iter().find(|s| s.gpus == 8).unwrap().speedup < 4.0);
        assert_eq!(good.len(), SPEEDUP_COUNTS.len());
        assert_eq!(bad.len(), SPEEDUP_COUNTS.len());
        let at8 = |v: &[StepBreakdown]| v.iter().find(|s| s.gpus == 8).unwrap().speedup;
        assert!((6.0..=7.0).contains(&at8(&good)), "{}", at8(&good));
        assert!(at8(&bad) < 4.0);
        assert!(good.iter().all(|s| s.speedup <= s.gpus as f64 + 1e-9));
    }

    #[test]
    fn the_stories_name_their_short_staves_and_fast_hardware_removes_them() {
        // regression guard: fixture tuned to the §1.2 stories (2.8 GB/s storage, 100 Gbps NICs).
        let io = layers_outcome(Story::Io, 2.8e9, 1600.0).unwrap();
        assert_eq!(short_stave(&io.step), Some(Layer::Storage));
        assert!((0.25..=0.35).contains(&io.step.gpu_utilisation));
        let net = layers_outcome(Story::Network, 10e9, 100.0).unwrap();
        assert_eq!(short_stave(&net.step), Some(Layer::Network));
        assert!(net.step.comm_share > 0.4);
        let fixed = layers_outcome(Story::Io, 100e9, 1600.0).unwrap();
        assert_eq!(short_stave(&fixed.step), None);
    }

    #[test]
    fn one_slow_nic_drags_the_ring_down_to_its_speed_and_a_straggler_delays_the_step() {
        let healthy = barrel(1.0, 0.0).unwrap();
        assert_eq!(healthy.speedup, healthy.healthy_speedup);
        // 100 Gbps NICs: the ring's busbw is about 12.5 GB/s; with one at 25%, about a quarter.
        let slow = barrel(0.25, 0.0).unwrap();
        let nic = 100e9 / 8.0;
        assert!((healthy.ring_busbw_bytes_per_sec / nic - 1.0).abs() < 0.01);
        assert!((slow.ring_busbw_bytes_per_sec / (0.25 * nic) - 1.0).abs() < 0.01);
        assert!(slow.speedup < healthy.speedup);
        // No algorithm escapes it: all of node 1's gradients must leave through that NIC, so
        // NCCL's pipelined tree slows about as much; healthy, it is within 10% of the ring.
        let tree_ratio = slow.tree_secs / healthy.tree_secs;
        assert!(tree_ratio > 3.5, "{tree_ratio}");
        let near = healthy.tree_secs / healthy.ring_secs;
        assert!((0.9..1.1).contains(&near), "{near}");
        // A GPU 100 ms late delays the ring by at most those 100 ms (its fast NVLink hops have
        // slack to absorb a little), and the step with it.
        let late = barrel(1.0, 0.1).unwrap();
        let delay = late.ring_secs - healthy.ring_secs;
        assert!(delay > 0.05 && delay <= 0.1 + 1e-9, "{delay}");
        assert!(late.speedup < healthy.speedup);
    }

    #[test]
    fn the_tree_wins_across_slow_racks_and_the_ring_when_they_are_fast() {
        // regression guard: fixture tuned to the chapter's 800/200 and 400/800 Gbps racks.
        let slow = rack_comparison(800.0, 200.0).unwrap();
        assert!(slow.tree_secs < slow.ring_secs);
        assert!(slow.tree_cross_rack_bytes < slow.ring_cross_rack_bytes);
        let inverted = rack_comparison(400.0, 800.0).unwrap();
        assert!(inverted.ring_secs < inverted.tree_secs);
    }

    #[test]
    fn relevant_conditions_give_the_same_check_as_all_of_them() {
        let sizes = claim_sizes();
        let samples = [
            Conditions {
                gpus: 7,
                size_bytes: sizes[0],
                node_gbits_per_sec: Some(400.0),
                ..Conditions::default()
            },
            Conditions {
                gpus: 32,
                size_bytes: 10_000_000_000,
                rack_gbits_per_sec: Some(1600.0),
                ..Conditions::default()
            },
            Conditions {
                gpus: 3,
                size_bytes: 100,
                node_gbits_per_sec: Some(25.0),
                rack_gbits_per_sec: Some(25.0),
                ..Conditions::default()
            },
        ];
        for c in &samples {
            for claim in &CLAIMS {
                let full = check(claim, c).unwrap();
                let part = check(claim, &claim.relevant(c)).unwrap();
                assert_eq!(full, part, "{} under {c:?}", claim.id);
            }
        }
    }

    #[test]
    fn every_claim_is_checkable_at_every_offered_gpu_count_and_size_extreme() {
        let sizes = claim_sizes();
        for &g in &CLAIM_GPUS {
            for &s in [sizes[0], sizes[sizes.len() - 1]].iter() {
                let c = Conditions {
                    gpus: g as usize,
                    size_bytes: s,
                    ..Conditions::default()
                };
                for claim in CLAIMS.iter().filter(|c| c.reads != Reads::Scenario) {
                    let r = check(claim, &c).unwrap();
                    assert!(r.value().is_finite(), "{} at {g} GPUs, {s} B", claim.id);
                }
            }
        }
    }
}
