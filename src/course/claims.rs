//! The chapter's quantitative claims as data, each checked by simulation under conditions the
//! reader can change: a claim names what it reads, how its value reads and what it is about
//! ([`ClaimKind`], which decides its check); checking it gives a [`Finding`], the numbers it rests
//! on and a verdict. The sentences that explain a finding are the UI's (`ui::model::claims_text`), in
//! English and Chinese; nothing here is prose but the chapter's own words.
//!
//! ```
//! use allreduce_lab::course::claims::{check, Claim, Conditions, Verdict};
//! let c = Claim::find("tree-3.5x-ring").unwrap();
//! // At N = 8 the flat tree's root moves 7·S, the ring 1.75·S per GPU: exactly 4×. The chapter's
//! // 3.5× divides 7 by the ring's rounded 2: approximately right.
//! let r = check(c, &Conditions::default()).unwrap();
//! assert_eq!(r.verdict, Verdict::Approximately);
//! assert!((r.value() - 4.0).abs() < 1e-12);
//! ```
//!
//! Size: over 450 lines because the twelve claims as data and one check per kind of claim; 100
//! lines are tests.

use super::chapter::{CHAPTER_SCENARIOS, ChapterScenario, TREE_SEGMENTS, evaluate};
use crate::sim::algorithms::Algorithm;
use crate::sim::scenario::{Scenario, ScenarioError, Simulation, simulate_verified};
use crate::sim::topology::{Endpoint, Tier, TopologySpec};
use crate::sim::trace::Trace;
use crate::sim::units::Bandwidth;
use serde::Serialize;

/// What the simulation says about a claim.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Verdict {
    Holds,
    /// Right to within the rounding the chapter itself uses; the explanation gives the exact value.
    Approximately,
    /// True only under conditions the explanation names.
    HoldsUnder,
    DoesNotHold,
}

/// The conditions a reader can change. Each claim reads the ones it needs.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Conditions {
    /// GPUs (ranks) for the claims about the ring's volume and growth, the tree's root and
    /// latency (the tree-over-ring claim names its own N: [`TREE_OVER_RING_GPUS`]).
    pub gpus: usize,
    /// The message: bytes each GPU contributes.
    pub size_bytes: u64,
    /// Port bandwidth of the `uniform` topology used by the volume and latency claims.
    pub port_gbytes_per_sec: f64,
    /// α: latency per message.
    pub latency_secs: f64,
    /// Node NIC bandwidth for the rack claims and the network scenarios, if changed.
    pub node_gbits_per_sec: Option<f64>,
    /// Rack uplink bandwidth for the rack claims, if changed.
    pub rack_gbits_per_sec: Option<f64>,
}

impl Default for Conditions {
    fn default() -> Self {
        Conditions {
            gpus: 8,
            size_bytes: 100_000_000,
            port_gbytes_per_sec: 100.0,
            latency_secs: 5e-6,
            node_gbits_per_sec: None,
            rack_gbits_per_sec: None,
        }
    }
}

/// Which conditions a claim reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reads {
    /// GPUs, size, port and latency of the uniform network.
    Uniform,
    /// Size and the rack scenario's NIC and uplink.
    Racks,
    /// Only NIC and uplink (the chapter's training scenarios fix the rest).
    Scenario,
    /// Size, port and latency of the uniform network, at the GPU count the claim itself names
    /// ([`TREE_OVER_RING_GPUS`]).
    UniformAtItsN,
}

/// The N of the chapter's “at N = 8 the tree's root carries 3.5× the ring's”: the claim is checked
/// there, whatever GPU count the reader picks (at another N it says nothing).
pub const TREE_OVER_RING_GPUS: usize = 8;

/// How a claim's value reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ValueKind {
    /// A multiple of the message size S.
    TimesS,
    /// A ratio (×): a speedup, a growth, one time or volume over another.
    Ratio,
    /// A share of 1 (%).
    Share,
}

/// What a claim is about; it decides the claim's check and the numbers of its [`Finding`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum ClaimKind {
    /// Each GPU of a ring sends and receives 2(N−1)/N · S.
    RingVolume,
    /// The ring's cost does not grow with N.
    RingIndependentOfN,
    /// The (flat) tree's root carries (N−1) · S.
    TreeRootVolume,
    /// The flat tree's root carries 3.5× a ring GPU's volume.
    TreeOverRing,
    /// The tree's latency is lower than the ring's.
    TreeLowerLatency,
    /// The tree crosses between racks less than the ring.
    TreeFewerCrossRack,
    /// One of the chapter's training scenarios: its metric within the band the app allows.
    Scenario(&'static ChapterScenario),
}

/// A claim of the chapter.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Claim {
    /// Stable identifier (links, tests); nothing decides behaviour by it.
    pub id: &'static str,
    /// The chapter section.
    pub section: &'static str,
    /// The chapter's own words.
    pub quote_zh: &'static str,
    /// The same claim in English.
    pub quote_en: &'static str,
    /// What it is about, and so how it is checked.
    pub kind: ClaimKind,
    /// Which conditions its check reads.
    pub reads: Reads,
    /// How its value reads.
    pub value: ValueKind,
}

pub const CLAIMS: [Claim; 12] = [
    Claim {
        id: "ring-2-n-minus-1-over-n",
        section: "1.3.1",
        quote_zh: "每个GPU发送和接收的数据总量是 2*(N-1)/N * 数据量",
        quote_en: "The total data each GPU sends and receives is 2(N−1)/N × the data size",
        kind: ClaimKind::RingVolume,
        reads: Reads::Uniform,
        value: ValueKind::TimesS,
    },
    Claim {
        id: "ring-independent-of-n",
        section: "1.3.1",
        quote_zh: "通信开销跟GPU数量无关，只跟数据量有关",
        quote_en: "The ring's communication cost does not depend on the GPU count, only on the data size",
        kind: ClaimKind::RingIndependentOfN,
        reads: Reads::Uniform,
        value: ValueKind::Ratio,
    },
    Claim {
        id: "tree-root-n-minus-1",
        section: "1.3.2",
        quote_zh: "根节点的通信量是 (N-1) * 数据量",
        quote_en: "The tree's root carries (N−1) × the data",
        kind: ClaimKind::TreeRootVolume,
        reads: Reads::Uniform,
        value: ValueKind::TimesS,
    },
    Claim {
        id: "tree-3.5x-ring",
        section: "1.3.2",
        quote_zh: "当N=8时，通信量是Ring的3.5倍",
        quote_en: "At N = 8 the root carries 3.5× what a GPU carries in the ring",
        kind: ClaimKind::TreeOverRing,
        reads: Reads::UniformAtItsN,
        value: ValueKind::Ratio,
    },
    Claim {
        id: "tree-lower-latency",
        section: "1.4",
        quote_zh: "延迟：Ring 较高（数据要绕一圈），Tree 较低（树形结构）",
        quote_en: "Latency: higher for the ring (data goes all the way round), lower for the tree",
        kind: ClaimKind::TreeLowerLatency,
        reads: Reads::Uniform,
        value: ValueKind::Ratio,
    },
    Claim {
        id: "tree-fewer-cross-rack",
        section: "1.3.2",
        quote_zh: "跨机柜的通信次数少",
        quote_en: "The tree crosses between racks less",
        kind: ClaimKind::TreeFewerCrossRack,
        reads: Reads::Racks,
        value: ValueKind::Ratio,
    },
    Claim {
        id: "eight-gpus-6-7x",
        section: "1.1",
        quote_zh: "实际加速比通常在6-7倍左右",
        quote_en: "With 8 GPUs the real speedup is usually around 6–7×",
        kind: ClaimKind::Scenario(&CHAPTER_SCENARIOS[0]),
        reads: Reads::Scenario,
        value: ValueKind::Ratio,
    },
    Claim {
        id: "bad-topology-under-4x",
        section: "1.1",
        quote_zh: "如果拓扑选得不好，可能连4倍都到不了",
        quote_en: "With a badly chosen topology it may not even reach 4×",
        kind: ClaimKind::Scenario(&CHAPTER_SCENARIOS[1]),
        reads: Reads::Scenario,
        value: ValueKind::Ratio,
    },
    Claim {
        id: "network-100g-over-40pct",
        section: "1.2",
        quote_zh: "网络带宽只有100Gbps，结果通信开销占了训练时间的40%以上",
        quote_en: "With only 100 Gbps of network, communication took over 40% of training time",
        kind: ClaimKind::Scenario(&CHAPTER_SCENARIOS[2]),
        reads: Reads::Scenario,
        value: ValueKind::Share,
    },
    Claim {
        id: "io-bound-30pct",
        section: "1.2",
        quote_zh: "存储IO打满，GPU利用率掉到30%",
        quote_en: "Storage IO saturated and GPU utilisation fell to 30%",
        kind: ClaimKind::Scenario(&CHAPTER_SCENARIOS[3]),
        reads: Reads::Scenario,
        value: ValueKind::Share,
    },
    Claim {
        id: "racks-800-200-tree-wins",
        section: "1.3.2",
        quote_zh: "机柜间带宽只有200Gbps，而机柜内带宽是800Gbps……用Ring AllReduce，跨机柜的通信会成为瓶颈",
        quote_en: "200 Gbps between racks, 800 Gbps inside: the ring's cross-rack traffic becomes the bottleneck, and a tree helps",
        kind: ClaimKind::Scenario(&CHAPTER_SCENARIOS[4]),
        reads: Reads::Scenario,
        value: ValueKind::Ratio,
    },
    Claim {
        id: "inverted-400-800-ring-wins",
        section: "1.4",
        quote_zh: "机柜内带宽只有400Gbps，但机柜间带宽有800Gbps……跨节点时用了Ring",
        quote_en: "400 Gbps inside racks but 800 Gbps between them: the ring is the better choice again",
        kind: ClaimKind::Scenario(&CHAPTER_SCENARIOS[5]),
        reads: Reads::Scenario,
        value: ValueKind::Ratio,
    },
];
impl Claim {
    /// The claim with this identifier.
    pub fn find(id: &str) -> Option<&'static Claim> {
        CLAIMS.iter().find(|c| c.id == id)
    }

    /// The conditions with every field this claim does not read set to its default, so that a
    /// claim is checked again only when something it reads changes.
    pub fn relevant(&self, c: &Conditions) -> Conditions {
        let d = Conditions::default();
        match self.reads {
            Reads::Uniform => Conditions {
                node_gbits_per_sec: None,
                rack_gbits_per_sec: None,
                ..*c
            },
            Reads::UniformAtItsN => Conditions {
                gpus: TREE_OVER_RING_GPUS,
                node_gbits_per_sec: None,
                rack_gbits_per_sec: None,
                ..*c
            },
            Reads::Racks => Conditions {
                size_bytes: c.size_bytes,
                node_gbits_per_sec: c.node_gbits_per_sec,
                rack_gbits_per_sec: c.rack_gbits_per_sec,
                ..d
            },
            // A scenario on one server crosses no NIC, one on one rack no uplink: those stay at
            // the chapter's values.
            Reads::Scenario => {
                let (nics, uplinks) = match self.kind {
                    ClaimKind::Scenario(s) => s.crosses(),
                    _ => (true, true),
                };
                Conditions {
                    node_gbits_per_sec: c.node_gbits_per_sec.filter(|_| nics),
                    rack_gbits_per_sec: c.rack_gbits_per_sec.filter(|_| uplinks),
                    ..d
                }
            }
        }
    }
}

/// The numbers a claim's verdict rests on, by the kind of claim. Volumes `_times_s` are multiples
/// of the message size S per GPU and direction.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Evidence {
    /// The ring on `gpus` GPUs: what GPU 0 sent and received, and 2(N−1)/N.
    RingVolume {
        gpus: usize,
        sent_times_s: f64,
        received_times_s: f64,
        formula_times_s: f64,
    },
    /// The ring on `gpus` and on `doubled_gpus` GPUs: volume per GPU and time of each.
    RingGrowth {
        gpus: usize,
        doubled_gpus: usize,
        volume_times_s: f64,
        doubled_volume_times_s: f64,
        time_secs: f64,
        doubled_time_secs: f64,
    },
    /// A flat tree's root on `gpus` GPUs, and the busiest GPU of a binary tree (either direction).
    TreeRoot {
        gpus: usize,
        root_received_times_s: f64,
        busiest_binary_times_s: f64,
    },
    /// The flat tree's root against a ring GPU, both received volumes.
    TreeOverRing {
        gpus: usize,
        root_received_times_s: f64,
        ring_received_times_s: f64,
        /// Root bytes over ring bytes.
        ratio: f64,
    },
    /// Ring and binomial tree times for a `small_size_bytes` message (the tree whole) and for
    /// `size_bytes` (the tree in `tree_segments`: whole, or pipelined in [`TREE_SEGMENTS`] as the
    /// chapter's trees are, whichever is quicker).
    Latency {
        gpus: usize,
        small_size_bytes: u64,
        size_bytes: u64,
        ring_small_secs: f64,
        tree_small_secs: f64,
        ring_secs: f64,
        tree_secs: f64,
        tree_segments: usize,
    },
    /// Bytes sent between racks ([`bytes_between_racks`]): the ring, the pipelined binomial tree,
    /// and for comparison NCCL's pipelined tree (chains in the nodes, a double binary tree between
    /// them) and a hierarchical allreduce.
    CrossRack {
        ring_bytes: f64,
        tree_bytes: f64,
        nccl_tree_bytes: f64,
        hierarchical_bytes: f64,
    },
    /// A chapter scenario simulated with the NIC and uplink in effect.
    Scenario {
        scenario: &'static ChapterScenario,
        /// The scenario's metric.
        value: f64,
        node_gbits_per_sec: f64,
        rack_gbits_per_sec: f64,
    },
}

impl Evidence {
    /// The one number the verdict rests on (a volume, a ratio, a speedup, a share).
    pub fn value(&self) -> f64 {
        match *self {
            Evidence::RingVolume { sent_times_s, .. } => sent_times_s,
            Evidence::RingGrowth {
                time_secs,
                doubled_time_secs,
                ..
            } => doubled_time_secs / time_secs,
            Evidence::TreeRoot {
                root_received_times_s,
                ..
            } => root_received_times_s,
            Evidence::TreeOverRing { ratio, .. } => ratio,
            Evidence::Latency {
                ring_small_secs,
                tree_small_secs,
                ..
            } => ring_small_secs / tree_small_secs,
            Evidence::CrossRack {
                ring_bytes,
                tree_bytes,
                ..
            } => ring_bytes / tree_bytes,
            Evidence::Scenario { value, .. } => value,
        }
    }
}

/// A claim checked under some conditions: the numbers and the verdict, no prose.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Finding {
    pub verdict: Verdict,
    pub evidence: Evidence,
}

impl Finding {
    /// The number the verdict rests on: [`Evidence::value`].
    pub fn value(&self) -> f64 {
        self.evidence.value()
    }
}

fn uniform(c: &Conditions, algorithm: Algorithm, gpus: usize, segments: usize) -> Scenario {
    Scenario {
        topology: TopologySpec::Uniform {
            ranks: gpus,
            bandwidth: Bandwidth::from_gbytes_per_sec(c.port_gbytes_per_sec),
            latency_secs: c.latency_secs,
        },
        algorithm,
        size_bytes: c.size_bytes,
        segments,
        gamma_secs_per_byte: 0.0,
        faults: Default::default(),
    }
}

/// A claim's run: its figures must not come from a run whose buffers did not verify.
fn run(s: &Scenario) -> Result<Simulation, ScenarioError> {
    simulate_verified(s, false)
}

/// Checks `claim` under `c` by simulating it.
pub fn check(claim: &Claim, c: &Conditions) -> Result<Finding, ScenarioError> {
    let n = c.gpus.max(2);
    let s = c.size_bytes as f64;
    let (verdict, evidence) = match claim.kind {
        ClaimKind::RingVolume => ring_volume(c, n, s)?,
        ClaimKind::RingIndependentOfN => ring_growth(c, n, s)?,
        ClaimKind::TreeRootVolume => tree_root(c, n, s)?,
        ClaimKind::TreeOverRing => tree_over_ring(c, TREE_OVER_RING_GPUS, s)?,
        ClaimKind::TreeLowerLatency => tree_latency(c, n)?,
        ClaimKind::TreeFewerCrossRack => cross_rack(c)?,
        ClaimKind::Scenario(base) => chapter_scenario(base, c)?,
    };
    Ok(Finding { verdict, evidence })
}

type Checked = Result<(Verdict, Evidence), ScenarioError>;

fn ring_volume(c: &Conditions, n: usize, s: f64) -> Checked {
    let sim = run(&uniform(c, Algorithm::Ring, n, 1))?;
    let per_gpu = sim.trace.ranks[0].sent_bytes as f64 / s;
    let received = sim.trace.ranks[0].received_bytes as f64 / s;
    let formula = 2.0 * (n as f64 - 1.0) / n as f64;
    let close = |x: f64| (x - formula).abs() < 1e-6 * formula + 2.0 * n as f64 / s;
    // The chapter says the total each GPU sends and receives is 2(N−1)/N · S; it sends that much
    // and receives that much again. Right per direction, which is how the formula is meant: it
    // holds read that way, the condition the finding's text states.
    let verdict = if close(per_gpu) && close(received) {
        Verdict::HoldsUnder
    } else {
        Verdict::DoesNotHold
    };
    Ok((
        verdict,
        Evidence::RingVolume {
            gpus: n,
            sent_times_s: per_gpu,
            received_times_s: received,
            formula_times_s: formula,
        },
    ))
}

fn ring_growth(c: &Conditions, n: usize, s: f64) -> Checked {
    let a = run(&uniform(c, Algorithm::Ring, n, 1))?.trace;
    let b = run(&uniform(c, Algorithm::Ring, 2 * n, 1))?.trace;
    let (va, vb) = (
        a.ranks[0].sent_bytes as f64 / s,
        b.ranks[0].sent_bytes as f64 / s,
    );
    let evidence = Evidence::RingGrowth {
        gpus: n,
        doubled_gpus: 2 * n,
        volume_times_s: va,
        doubled_volume_times_s: vb,
        time_secs: a.time_secs,
        doubled_time_secs: b.time_secs,
    };
    // The volume itself creeps from 2(N−1)/N towards 2; beyond that, growth is latency.
    let verdict = if evidence.value() < 1.02 * vb / va {
        Verdict::Holds
    } else {
        Verdict::HoldsUnder
    };
    Ok((verdict, evidence))
}

fn tree_root(c: &Conditions, n: usize, s: f64) -> Checked {
    let flat = run(&uniform(c, Algorithm::TreeFlat, n, 1))?.trace;
    let binary = run(&uniform(c, Algorithm::TreeBinary, n, 1))?.trace;
    let busiest_binary = binary
        .ranks
        .iter()
        .map(|r| r.received_bytes.max(r.sent_bytes) as f64 / s)
        .fold(0.0, f64::max);
    // Always only under a condition: the (N−1)·S is the star's; other trees spread it.
    Ok((
        Verdict::HoldsUnder,
        Evidence::TreeRoot {
            gpus: n,
            root_received_times_s: flat.ranks[0].received_bytes as f64 / s,
            busiest_binary_times_s: busiest_binary,
        },
    ))
}

fn tree_over_ring(c: &Conditions, n: usize, s: f64) -> Checked {
    let flat = run(&uniform(c, Algorithm::TreeFlat, n, 1))?.trace;
    let ring = run(&uniform(c, Algorithm::Ring, n, 1))?.trace;
    let ratio = flat.ranks[0].received_bytes as f64 / ring.ranks[0].received_bytes as f64;
    // The chapter reads "≈ 2 × data" off its own table for the ring where the exact value at
    // N = 8 is 1.75: its 3.5× is off by that rounding, 0.5. Within it, approximately (a message
    // that does not split into 8 even chunks gives 3.5 to 4: the margin's 1e-6 is for floats).
    let verdict = if (ratio - 3.5).abs() <= 0.5 + 1e-6 {
        Verdict::Approximately
    } else {
        Verdict::DoesNotHold
    };
    Ok((
        verdict,
        Evidence::TreeOverRing {
            gpus: n,
            root_received_times_s: flat.ranks[0].received_bytes as f64 / s,
            ring_received_times_s: ring.ranks[0].received_bytes as f64 / s,
            ratio,
        },
    ))
}

/// The message of the latency claim's small case: latency-bound at every offered N.
const SMALL_MESSAGE_BYTES: u64 = 8;

fn tree_latency(c: &Conditions, n: usize) -> Checked {
    let small = Conditions {
        size_bytes: SMALL_MESSAGE_BYTES,
        ..*c
    };
    let time = |c: &Conditions, alg: Algorithm, segments: usize| -> Result<f64, ScenarioError> {
        Ok(run(&uniform(c, alg, n, segments))?.trace.time_secs)
    };
    // The small message whole (each of 32 segments would pay the latency again); the reader's
    // message the quicker way of the two, whole or pipelined in `TREE_SEGMENTS` as the chapter's
    // trees run (at 100 MB whole took 6.03 ms against the pipelined 4.56 ms the chapter's other
    // figures show; at 8 kB pipelining costs 31 more latencies), as an implementation picks its
    // pipelining by size.
    let ring_small = time(&small, Algorithm::Ring, 1)?;
    let tree_small = time(&small, Algorithm::TreeBinomial, 1)?;
    let ring = time(c, Algorithm::Ring, 1)?;
    let whole = time(c, Algorithm::TreeBinomial, 1)?;
    let pipelined = time(c, Algorithm::TreeBinomial, TREE_SEGMENTS)?;
    let (tree, tree_segments) = if pipelined < whole {
        (pipelined, TREE_SEGMENTS)
    } else {
        (whole, 1)
    };
    let verdict = if tree_small < ring_small && tree < ring {
        Verdict::Holds
    } else if tree_small < ring_small {
        Verdict::HoldsUnder
    } else {
        Verdict::DoesNotHold
    };
    Ok((
        verdict,
        Evidence::Latency {
            gpus: n,
            small_size_bytes: SMALL_MESSAGE_BYTES,
            size_bytes: c.size_bytes,
            ring_small_secs: ring_small,
            tree_small_secs: tree_small,
            ring_secs: ring,
            tree_secs: tree,
            tree_segments,
        },
    ))
}

/// Bytes sent from one rack to another in a run: what goes up the racks' uplinks to the spine.
/// (Each such byte then comes down another rack's uplink: summing both directions would count
/// it twice.)
pub fn bytes_between_racks(trace: &Trace) -> f64 {
    (trace.topology.links().iter().zip(&trace.links))
        .filter(|(l, _)| l.tier == Tier::Rack && l.to == Endpoint::Spine)
        .map(|(_, r)| r.bytes)
        .sum()
}

fn cross_rack(c: &Conditions) -> Checked {
    let scenario = rack_scenario(c, 800.0, 200.0);
    let cross = |alg: Algorithm, k: usize| -> Result<f64, ScenarioError> {
        let t = run(&Scenario {
            algorithm: alg,
            segments: k,
            ..scenario.clone()
        })?
        .trace;
        Ok(bytes_between_racks(&t))
    };
    let ring = cross(Algorithm::Ring, 1)?;
    let tree = cross(Algorithm::TreeBinomial, 32)?;
    let nccl_tree = cross(Algorithm::NcclTree, 32)?;
    // It is the binomial tree's shape that crosses less, not every tree's: where NCCL's tree
    // crosses no less than the ring, the claim holds only for the shape the explanation names.
    let verdict = match (tree < ring, nccl_tree < ring) {
        (false, _) => Verdict::DoesNotHold,
        (true, false) => Verdict::HoldsUnder,
        (true, true) => Verdict::Holds,
    };
    Ok((
        verdict,
        Evidence::CrossRack {
            ring_bytes: ring,
            tree_bytes: tree,
            nccl_tree_bytes: nccl_tree,
            hierarchical_bytes: cross(Algorithm::Hierarchical, 1)?,
        },
    ))
}

fn chapter_scenario(base: &'static ChapterScenario, c: &Conditions) -> Checked {
    let mut sc = *base;
    // Only the links it crosses (see `Claim::relevant`).
    let (nics, uplinks) = base.crosses();
    if let Some(g) = c.node_gbits_per_sec.filter(|_| nics) {
        sc.hardware.node_gbits_per_sec = g;
    }
    if let Some(g) = c.rack_gbits_per_sec.filter(|_| uplinks) {
        sc.hardware.rack_gbits_per_sec = g;
    }
    let o = evaluate(&sc)?;
    let verdict = if o.holds {
        Verdict::Holds
    } else {
        Verdict::DoesNotHold
    };
    Ok((
        verdict,
        Evidence::Scenario {
            scenario: base,
            value: o.value,
            node_gbits_per_sec: sc.hardware.node_gbits_per_sec,
            rack_gbits_per_sec: sc.hardware.rack_gbits_per_sec,
        },
    ))
}

fn rack_scenario(c: &Conditions, node_gbps: f64, rack_gbps: f64) -> Scenario {
    Scenario {
        topology: TopologySpec::Cluster {
            racks: 2,
            nodes_per_rack: 2,
            gpus_per_node: 8,
            intra_bw: Bandwidth::from_gbytes_per_sec(450.0),
            intra_lat_secs: 1e-6,
            node_bw: Bandwidth::from_gbits_per_sec(c.node_gbits_per_sec.unwrap_or(node_gbps)),
            node_lat_secs: 2e-6,
            rack_bw: Bandwidth::from_gbits_per_sec(c.rack_gbits_per_sec.unwrap_or(rack_gbps)),
            rack_lat_secs: 5e-6,
            oversubscription: 1.0,
            nics_per_node: 1,
        },
        algorithm: Algorithm::Ring,
        size_bytes: c.size_bytes,
        segments: 1,
        gamma_secs_per_byte: 0.0,
        faults: Default::default(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn claim(id: &str) -> &'static Claim {
        Claim::find(id).unwrap()
    }

    #[test]
    fn every_claim_is_checked_and_its_identifier_is_unique() {
        for (i, c) in CLAIMS.iter().enumerate() {
            let r = check(c, &Conditions::default()).unwrap();
            assert!(r.value().is_finite(), "{}", c.id);
            assert!(CLAIMS[..i].iter().all(|o| o.id != c.id), "{}", c.id);
        }
    }

    #[test]
    fn a_scenario_claim_is_its_chapter_scenario_and_reads_what_it_changes() {
        use super::super::chapter::Metric;
        for c in &CLAIMS {
            match c.kind {
                ClaimKind::Scenario(s) => {
                    assert_eq!(s.id, c.id);
                    assert_eq!(c.reads, Reads::Scenario, "{}", c.id);
                    let share = matches!(s.metric, Metric::CommShare | Metric::GpuUtilisation);
                    assert_eq!(c.value == ValueKind::Share, share, "{}", c.id);
                }
                ClaimKind::TreeFewerCrossRack => assert_eq!(c.reads, Reads::Racks),
                ClaimKind::TreeOverRing => assert_eq!(c.reads, Reads::UniformAtItsN),
                _ => assert_eq!(c.reads, Reads::Uniform, "{}", c.id),
            }
        }
    }

    #[test]
    fn a_scenario_reads_the_nic_and_uplink_only_where_its_traffic_crosses_them() {
        use super::super::chapter::evaluate;
        let slow = Conditions {
            node_gbits_per_sec: Some(25.0),
            rack_gbits_per_sec: Some(25.0),
            ..Conditions::default()
        };
        let mut seen = [false; 3];
        for c in &CLAIMS {
            let ClaimKind::Scenario(base) = c.kind else {
                continue;
            };
            let (nics, uplinks) = base.crosses();
            seen[usize::from(nics) + usize::from(uplinks)] = true;
            // What it does not cross changes nothing, simulated…
            let mut other = *base;
            if !nics {
                other.hardware.node_gbits_per_sec = 25.0;
            }
            if !uplinks {
                other.hardware.rack_gbits_per_sec = 25.0;
            }
            let value = |s| evaluate(s).unwrap().value;
            assert_eq!(value(&other), value(base), "{}", c.id);
            // …so it is neither read nor reported; what it crosses is.
            let r = c.relevant(&slow);
            assert_eq!(r.node_gbits_per_sec.is_some(), nics, "{}", c.id);
            assert_eq!(r.rack_gbits_per_sec.is_some(), uplinks, "{}", c.id);
            let Evidence::Scenario {
                node_gbits_per_sec: node,
                rack_gbits_per_sec: rack,
                ..
            } = check(c, &slow).unwrap().evidence
            else {
                panic!("{}", c.id)
            };
            assert_eq!(node == 25.0, nics, "{}", c.id);
            assert_eq!(rack == 25.0, uplinks, "{}", c.id);
        }
        // One server, one rack of several, several racks: all three occur.
        assert_eq!(seen, [true; 3]);
    }

    #[test]
    fn the_chapters_verdicts_under_its_own_conditions() {
        let v = |id: &str| check(claim(id), &Conditions::default()).unwrap().verdict;
        // Per direction, not sent and received together as the chapter's "total" reads.
        assert_eq!(v("ring-2-n-minus-1-over-n"), Verdict::HoldsUnder);
        // 100 MB on 8 → 16 GPUs: the volume holds, the time grows ~11% through latency.
        assert_eq!(v("ring-independent-of-n"), Verdict::HoldsUnder);
        assert_eq!(v("tree-root-n-minus-1"), Verdict::HoldsUnder);
        // 3.5× against the exact 4×: approximately, as the chapter rounds the ring's volume to 2·S.
        assert_eq!(v("tree-3.5x-ring"), Verdict::Approximately);
        // For the binomial tree, not for NCCL's tree.
        assert_eq!(v("tree-fewer-cross-rack"), Verdict::HoldsUnder);
        // regression guard: the chapter scenarios are tuned (hardware, overlap, storage) so that
        // each of the chapter's numbers holds under its own conditions.
        for id in [
            "eight-gpus-6-7x",
            "bad-topology-under-4x",
            "network-100g-over-40pct",
            "io-bound-30pct",
            "racks-800-200-tree-wins",
            "inverted-400-800-ring-wins",
        ] {
            assert_eq!(v(id), Verdict::Holds, "{id}");
        }
    }

    #[test]
    fn the_corrected_verdicts_and_their_numbers() {
        let d = Conditions::default();
        let r = check(claim("tree-3.5x-ring"), &d).unwrap();
        assert_eq!((r.verdict, r.value()), (Verdict::Approximately, 4.0));
        let Evidence::TreeOverRing {
            gpus,
            root_received_times_s,
            ring_received_times_s,
            ..
        } = r.evidence
        else {
            panic!("{r:?}")
        };
        assert_eq!(
            (gpus, root_received_times_s, ring_received_times_s),
            (8, 7.0, 1.75)
        );
        // 2(N−1)/N·S is what each GPU sends, and again what it receives: it holds per
        // direction, not as the total the chapter says.
        let r = check(claim("ring-2-n-minus-1-over-n"), &d).unwrap();
        assert_eq!(
            r,
            Finding {
                verdict: Verdict::HoldsUnder,
                evidence: Evidence::RingVolume {
                    gpus: 8,
                    sent_times_s: 1.75,
                    received_times_s: 1.75,
                    formula_times_s: 1.75,
                }
            }
        );
        // regression guard: fixture tuned to the chapter's PCIe box (BERT-large, 60% overlap).
        // A bad topology is the same PCIe box with a flat tree: 8 GPUs give about 2.4×, while the
        // ring on that box gives 6–7×. A slow network is its own case.
        let bad = check(claim("bad-topology-under-4x"), &d).unwrap();
        assert_eq!(bad.verdict, Verdict::Holds);
        assert!((2.0..3.0).contains(&bad.value()), "{}", bad.value());
        let good = check(claim("eight-gpus-6-7x"), &d).unwrap();
        assert!((6.0..=7.0).contains(&good.value()), "{}", good.value());
    }
    // For every claim, a case where its verdict flips: tests/claim_flips.rs.
}
