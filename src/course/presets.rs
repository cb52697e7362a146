//! Named scenarios from the seed's chapter: one NVLink box, two nodes on 400 Gbps, two racks whose
//! uplinks are slower than their in-rack network (where a pipelined tree wins), and the inverted case
//! (where the ring wins again). The two rack presets are the chapter's §1.3.2/§1.4 scenarios
//! themselves (2 racks × 2 nodes × 8 GPUs, the BERT-large gradient), not look-alikes, and every
//! preset says which algorithm it compares with which and which one its name promises wins.
//!
//! ```
//! use allreduce_lab::{course::presets::PRESETS, sim::scenario::simulate};
//! for preset in PRESETS {
//!     let scenario = preset.scenario();
//!     assert!(simulate(&scenario, false).unwrap().trace.verified(), "{}", preset.name);
//! }
//! ```

use super::chapter::{CHAPTER_SCENARIOS, ChapterScenario, TREE_FOR_COMPARISON};
use crate::sim::algorithms::Algorithm;
use crate::sim::scenario::Scenario;
use crate::sim::topology::TopologySpec;
use crate::sim::units::Bandwidth;

/// The network of a preset: its own, or a chapter scenario's (the same topology and message).
#[derive(Clone, Copy, Debug, PartialEq)]
enum Network {
    Own {
        racks: usize,
        nodes_per_rack: usize,
        gpus_per_node: usize,
        intra_gbytes_per_sec: f64,
        node_gbits_per_sec: f64,
        rack_gbits_per_sec: f64,
    },
    Chapter(&'static ChapterScenario),
}

/// Two algorithms side by side and the one the preset's name promises is faster.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Promise {
    pub a: Algorithm,
    pub b: Algorithm,
    /// Pipeline segments of the tree(s).
    pub segments: usize,
    pub winner: Algorithm,
}

/// A scenario with a name (used in URLs and test hooks) and a one-line description.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Preset {
    pub name: &'static str,
    pub title: &'static str,
    pub description: &'static str,
    network: Network,
    pub promise: Promise,
}

/// The chapter's tree (pipelined binomial) against the ring; `winner` is the one that must win.
const fn ring_vs_chapter_tree(winner: Algorithm) -> Promise {
    Promise {
        a: Algorithm::Ring,
        b: TREE_FOR_COMPARISON.0,
        segments: TREE_FOR_COMPARISON.1,
        winner,
    }
}

/// Every preset, in the order the app lists them.
pub const PRESETS: [Preset; 4] = [
    Preset {
        name: "nvlink-8",
        title: "8 GPUs on NVLink",
        description: "One node: 8 H100 GPUs behind NVSwitches, 450 GB/s per direction each (A100: 300). Inside a node, at a large message like this one, the ring wins; at small ones a tree's fewer latencies can.",
        network: Network::Own {
            racks: 1,
            nodes_per_rack: 1,
            gpus_per_node: 8,
            intra_gbytes_per_sec: 450.0,
            node_gbits_per_sec: 400.0,
            rack_gbits_per_sec: 400.0,
        },
        promise: ring_vs_chapter_tree(Algorithm::Ring),
    },
    Preset {
        name: "two-nodes-400g",
        title: "2 nodes on 400 Gbps",
        description: "Two 8-GPU nodes joined by one 400 Gbps NIC each: the network is the short stave, and the hierarchical allreduce crosses it least.",
        network: Network::Own {
            racks: 1,
            nodes_per_rack: 2,
            gpus_per_node: 8,
            intra_gbytes_per_sec: 450.0,
            node_gbits_per_sec: 400.0,
            rack_gbits_per_sec: 400.0,
        },
        promise: Promise {
            a: Algorithm::Ring,
            b: Algorithm::Hierarchical,
            segments: 1,
            winner: Algorithm::Hierarchical,
        },
    },
    Preset {
        name: "racks-800-200",
        title: "2 racks: 800 Gbps inside, 200 across",
        description: "The chapter's 2 racks × 2 nodes × 8 GPUs: fast in-rack network, slow cross-rack uplinks; a pipelined binomial tree crosses less and wins.",
        network: Network::Chapter(&CHAPTER_SCENARIOS[4]),
        promise: ring_vs_chapter_tree(TREE_FOR_COMPARISON.0),
    },
    Preset {
        name: "inverted-400-800",
        title: "Inverted: 400 inside, 800 across",
        description: "The seed's inverted case on the same 2 racks × 2 nodes × 8 GPUs: in-rack 400 Gbps, cross-rack 800 Gbps; the ring wins.",
        network: Network::Chapter(&CHAPTER_SCENARIOS[5]),
        promise: ring_vs_chapter_tree(Algorithm::Ring),
    },
];

/// Latencies the presets of their own share with the chapter: NVLink hop, NIC hop, cross-rack hop.
const INTRA_LAT_SECS: f64 = 1e-6;
const NODE_LAT_SECS: f64 = 2e-6;
const RACK_LAT_SECS: f64 = 5e-6;
/// 100 MB: large enough that bandwidth, not latency, decides.
const SIZE_BYTES: u64 = 100_000_000;

impl Preset {
    /// The scenario, with the ring algorithm.
    pub fn scenario(&self) -> Scenario {
        self.scenario_with(Algorithm::Ring, 1)
    }

    /// The scenario with `algorithm` (pipelined into `segments` if it is a tree).
    pub fn scenario_with(&self, algorithm: Algorithm, segments: usize) -> Scenario {
        let segments = if algorithm.is_tree() { segments } else { 1 };
        match self.network {
            Network::Chapter(c) => c.allreduce(algorithm, segments),
            Network::Own {
                racks,
                nodes_per_rack,
                gpus_per_node,
                intra_gbytes_per_sec,
                node_gbits_per_sec,
                rack_gbits_per_sec,
            } => Scenario {
                topology: TopologySpec::Cluster {
                    racks,
                    nodes_per_rack,
                    gpus_per_node,
                    intra_bw: Bandwidth::from_gbytes_per_sec(intra_gbytes_per_sec),
                    intra_lat_secs: INTRA_LAT_SECS,
                    node_bw: Bandwidth::from_gbits_per_sec(node_gbits_per_sec),
                    node_lat_secs: NODE_LAT_SECS,
                    rack_bw: Bandwidth::from_gbits_per_sec(rack_gbits_per_sec),
                    rack_lat_secs: RACK_LAT_SECS,
                    oversubscription: 1.0,
                    nics_per_node: 1,
                },
                algorithm,
                size_bytes: SIZE_BYTES,
                segments,
                gamma_secs_per_byte: 0.0,
                faults: Default::default(),
            },
        }
    }

    /// The chapter scenario this preset is, if any.
    pub fn chapter(&self) -> Option<&'static ChapterScenario> {
        match self.network {
            Network::Chapter(c) => Some(c),
            Network::Own { .. } => None,
        }
    }
}

/// The preset called `name`.
pub fn preset(name: &str) -> Option<&'static Preset> {
    PRESETS.iter().find(|p| p.name == name)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::scenario::simulate;

    #[test]
    fn preset_names_are_unique_and_found() {
        for p in &PRESETS {
            assert_eq!(preset(p.name), Some(p));
        }
        assert_eq!(preset("nope"), None);
    }

    fn time(p: &Preset, alg: Algorithm, segments: usize) -> f64 {
        simulate(&p.scenario_with(alg, segments), false)
            .unwrap()
            .trace
            .time_secs
    }

    #[test]
    fn every_presets_promised_winner_wins() {
        for p in &PRESETS {
            let Promise {
                a,
                b,
                segments,
                winner,
            } = p.promise;
            assert!(winner == a || winner == b, "{}", p.name);
            let (ta, tb) = (time(p, a, segments), time(p, b, segments));
            let (won, lost) = if winner == a { (ta, tb) } else { (tb, ta) };
            assert!(
                won < lost,
                "{}: {winner} takes {won} s, the other {lost} s",
                p.name
            );
        }
    }

    #[test]
    fn the_rack_presets_are_the_chapters_scenarios_and_the_tree_needs_segments_there() {
        let racks = preset("racks-800-200").unwrap();
        let inverted = preset("inverted-400-800").unwrap();
        for (p, id) in [
            (racks, "racks-800-200-tree-wins"),
            (inverted, "inverted-400-800-ring-wins"),
        ] {
            let c = p.chapter().unwrap();
            assert_eq!(c.id, id);
            assert_eq!(p.scenario(), c.allreduce(Algorithm::Ring, 1));
            assert_eq!(c.gpus(), 32);
        }
        // Unpipelined, the chapter's tree loses even where uplinks are slow: it needs segments.
        let tree = TREE_FOR_COMPARISON.0;
        assert!(time(racks, tree, 1) > time(racks, Algorithm::Ring, 1));
        assert!(time(racks, tree, TREE_FOR_COMPARISON.1) < time(racks, Algorithm::Ring, 1));
        // Faster uplinks can only help the ring.
        assert!(time(inverted, Algorithm::Ring, 1) <= time(racks, Algorithm::Ring, 1));
    }

    #[test]
    fn the_presets_have_the_advertised_shapes() {
        let ranks = |name: &str| {
            crate::sim::topology::Topology::new(&preset(name).unwrap().scenario().topology)
                .unwrap()
                .ranks()
        };
        assert_eq!(ranks("nvlink-8"), 8);
        assert_eq!(ranks("two-nodes-400g"), 16);
        assert_eq!(ranks("racks-800-200"), 32);
        assert_eq!(ranks("inverted-400-800"), 32);
    }
}
