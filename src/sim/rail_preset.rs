//! A rail-optimized cluster as large training systems are built: the lab's "DGX H100 SuperPOD-style"
//! preset. Kept apart from the chapter's presets (the app's `course::presets`), which are all `cluster`s.
//!
//! ```
//! use allreduce_sim::{rail_preset::SUPERPOD, scenario::simulate, topology::Topology};
//! let scenario = SUPERPOD.scenario();
//! let topo = Topology::new(&scenario.topology).unwrap();
//! assert_eq!((topo.nodes(), topo.gpus_per_node(), topo.nics_per_node()), (4, 8, 8));
//! assert!(simulate(&scenario, false).unwrap().trace.verified());
//! ```

use super::algorithms::Algorithm;
use super::scenario::Scenario;
use super::topology::TopologySpec;
use super::units::Bandwidth;

/// A named rail-optimized scenario.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RailPreset {
    pub name: &'static str,
    pub title: &'static str,
    pub description: &'static str,
    nodes: usize,
    rails: usize,
    nvlink_gbytes_per_sec: f64,
    nic_gbits_per_sec: f64,
    spine_gbits_per_sec: f64,
}

/// DGX H100-style nodes (8 GPUs, NVLink 4 at 450 GB/s per direction, eight 400 Gb/s NICs, one per
/// GPU) on a rail-optimized fabric: NIC i of every node on leaf switch i, leaves joined by a spine.
pub const SUPERPOD: RailPreset = RailPreset {
    name: "superpod-4x8-rails",
    title: "DGX H100 SuperPOD-style: 4 nodes, 8 rails",
    description: "4 nodes × 8 H100 (NVLink 450 GB/s), one 400 Gbps NIC per GPU; NIC i of every node on rail i, rails joined by a non-blocking spine (each leaf's uplink as fast as its 4 NICs, as a SuperPOD's fabric is built); PXN on.",
    nodes: 4,
    rails: 8,
    nvlink_gbytes_per_sec: 450.0,
    nic_gbits_per_sec: 400.0,
    // Non-blocking: 4 nodes' NICs of 400 Gbps under each leaf (with 400, the spine was 4:1
    // oversubscribed and PXN off looked like a 4× cliff).
    spine_gbits_per_sec: 1600.0,
};

impl RailPreset {
    /// The scenario: 100 MB with NCCL's ring, PXN on.
    ///
    /// ```
    /// use allreduce_sim::{algorithms::Algorithm, rail_preset::SUPERPOD};
    /// let s = SUPERPOD.scenario();
    /// assert_eq!((s.algorithm, s.size_bytes), (Algorithm::NcclRing, 100_000_000));
    /// assert!(s.validate().is_ok());
    /// ```
    pub fn scenario(&self) -> Scenario {
        Scenario {
            topology: TopologySpec::Rail {
                nodes: self.nodes,
                gpus_per_node: self.rails,
                intra_bw: Bandwidth::from_gbytes_per_sec(self.nvlink_gbytes_per_sec),
                intra_lat_secs: 1e-6,
                nic_bw: Bandwidth::from_gbits_per_sec(self.nic_gbits_per_sec),
                nic_lat_secs: 2e-6,
                spine_bw: Bandwidth::from_gbits_per_sec(self.spine_gbits_per_sec),
                spine_lat_secs: 3e-6,
                oversubscription: 1.0,
                pxn: true,
            },
            algorithm: Algorithm::NcclRing,
            size_bytes: 100_000_000,
            segments: 1,
            gamma_secs_per_byte: 0.0,
            faults: Default::default(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::simulate;
    use crate::topology::Tier;

    #[test]
    fn nccl_ring_uses_every_rail_and_the_textbook_ring_only_one() {
        let rail_bytes = |alg: Algorithm| {
            let t = simulate(
                &Scenario {
                    algorithm: alg,
                    ..SUPERPOD.scenario()
                },
                false,
            )
            .unwrap()
            .trace;
            assert!(t.verified());
            let mut per_rail = [0.0f64; 8];
            for (l, r) in t.topology.links().iter().zip(&t.links) {
                if let (Tier::Node, crate::topology::Endpoint::Rail(i)) = (l.tier, l.to) {
                    per_rail[i] += r.bytes;
                }
            }
            (per_rail, t.busbw_bytes_per_sec())
        };
        let (nccl, nccl_busbw) = rail_bytes(Algorithm::NcclRing);
        assert!(
            nccl.iter()
                .all(|&b| (b / nccl[0] - 1.0).abs() < 1e-9 && b > 0.0)
        );
        let (ring, ring_busbw) = rail_bytes(Algorithm::Ring);
        // With PXN the textbook ring's hops between nodes all land on rail 0.
        assert!(ring[0] > 0.0 && ring[1..].iter().all(|&b| b == 0.0));
        assert!(nccl_busbw > 6.0 * ring_busbw);
    }
}
