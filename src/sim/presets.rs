//! Named scenarios from the seed's chapter: one NVLink box, two nodes on 400 Gbps, two racks whose
//! uplinks are slower than their in-rack network (where trees shine), and the inverted case (where the
//! ring wins again).
//!
//! ```
//! use allreduce_lab::sim::{presets::PRESETS, scenario::simulate};
//! for preset in PRESETS {
//!     let scenario = preset.scenario();
//!     assert!(simulate(&scenario, false).unwrap().trace.verified(), "{}", preset.name);
//! }
//! ```

use super::algorithms::Algorithm;
use super::scenario::Scenario;
use super::topology::TopologySpec;
use super::units::Bandwidth;

/// A scenario with a name (used in URLs and test hooks) and a one-line description.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Preset {
    pub name: &'static str,
    pub title: &'static str,
    pub description: &'static str,
    racks: usize,
    nodes_per_rack: usize,
    gpus_per_node: usize,
    intra_gbytes_per_sec: f64,
    node_gbits_per_sec: f64,
    rack_gbits_per_sec: f64,
}

/// Every preset, in the order the app lists them.
pub const PRESETS: [Preset; 4] = [
    Preset {
        name: "nvlink-8",
        title: "8 GPUs on NVLink",
        description:
            "One node: 8 H100 GPUs behind NVSwitches, 450 GB/s per direction each (A100: 300).",
        racks: 1,
        nodes_per_rack: 1,
        gpus_per_node: 8,
        intra_gbytes_per_sec: 450.0,
        node_gbits_per_sec: 400.0,
        rack_gbits_per_sec: 400.0,
    },
    Preset {
        name: "two-nodes-400g",
        title: "2 nodes on 400 Gbps",
        description:
            "Two 8-GPU nodes joined by one 400 Gbps NIC each: the network is the short stave.",
        racks: 1,
        nodes_per_rack: 2,
        gpus_per_node: 8,
        intra_gbytes_per_sec: 450.0,
        node_gbits_per_sec: 400.0,
        rack_gbits_per_sec: 400.0,
    },
    Preset {
        name: "racks-800-200",
        title: "2 racks: 800 Gbps inside, 200 across",
        description: "Fast in-rack network, slow cross-rack uplinks: fewer crossings pay off.",
        racks: 2,
        nodes_per_rack: 2,
        gpus_per_node: 4,
        intra_gbytes_per_sec: 450.0,
        node_gbits_per_sec: 800.0,
        rack_gbits_per_sec: 200.0,
    },
    Preset {
        name: "inverted-400-800",
        title: "Inverted: 400 inside, 800 across",
        description: "The seed's inverted case: in-rack 400 Gbps, cross-rack 800 Gbps.",
        racks: 2,
        nodes_per_rack: 2,
        gpus_per_node: 4,
        intra_gbytes_per_sec: 450.0,
        node_gbits_per_sec: 400.0,
        rack_gbits_per_sec: 800.0,
    },
];

/// Latencies every preset shares: NVLink hop, NIC hop, cross-rack hop.
const INTRA_LAT_SECS: f64 = 1e-6;
const NODE_LAT_SECS: f64 = 2e-6;
const RACK_LAT_SECS: f64 = 5e-6;
/// 100 MB: large enough that bandwidth, not latency, decides.
const SIZE_BYTES: u64 = 100_000_000;

impl Preset {
    /// The scenario, with the ring algorithm.
    pub fn scenario(&self) -> Scenario {
        Scenario {
            topology: TopologySpec::Cluster {
                racks: self.racks,
                nodes_per_rack: self.nodes_per_rack,
                gpus_per_node: self.gpus_per_node,
                intra_bw: Bandwidth::from_gbytes_per_sec(self.intra_gbytes_per_sec),
                intra_lat_secs: INTRA_LAT_SECS,
                node_bw: Bandwidth::from_gbits_per_sec(self.node_gbits_per_sec),
                node_lat_secs: NODE_LAT_SECS,
                rack_bw: Bandwidth::from_gbits_per_sec(self.rack_gbits_per_sec),
                rack_lat_secs: RACK_LAT_SECS,
                oversubscription: 1.0,
            },
            algorithm: Algorithm::Ring,
            size_bytes: SIZE_BYTES,
            segments: 1,
            gamma_secs_per_byte: 0.0,
            faults: Default::default(),
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

    #[test]
    fn slow_uplinks_favour_the_hierarchy_and_the_inverted_case_does_not_punish_the_ring() {
        let time = |name: &str, alg: Algorithm| {
            let mut s = preset(name).unwrap().scenario();
            s.algorithm = alg;
            simulate(&s, false).unwrap().trace.time_secs
        };
        // With 200 Gbps across racks, the ring's every step crosses the slow uplink.
        assert!(
            time("racks-800-200", Algorithm::Hierarchical) < time("racks-800-200", Algorithm::Ring)
        );
        // Faster uplinks can only help the ring.
        assert!(
            time("inverted-400-800", Algorithm::Ring) <= time("racks-800-200", Algorithm::Ring)
        );
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
        assert_eq!(ranks("racks-800-200"), 16);
    }
}
