//! The clusters and the model the unit tests of several rooms build: this crate's tests, and
//! (with the `fixtures` feature, which the app's crate turns on for its tests only) the app's.

use crate::topology::{Topology, TopologySpec};
use crate::training::TrainingModel;
use crate::units::Bandwidth;

/// `racks` × `nodes_per_rack` × `g` GPUs: NVLink 450 GB/s (1 µs), one 400 Gb/s NIC per node
/// (2 µs), racks joined at 200 Gb/s (5 µs).
///
/// ```
/// assert_eq!(allreduce_sim::fixtures::cluster(2, 2, 8).ranks(), 32);
/// ```
pub fn cluster(racks: usize, nodes_per_rack: usize, g: usize) -> Topology {
    Topology::new(&TopologySpec::Cluster {
        racks,
        nodes_per_rack,
        gpus_per_node: g,
        intra_bw: Bandwidth::from_gbytes_per_sec(450.0),
        intra_lat_secs: 1e-6,
        node_bw: Bandwidth::from_gbits_per_sec(400.0),
        node_lat_secs: 2e-6,
        rack_bw: Bandwidth::from_gbits_per_sec(200.0),
        rack_lat_secs: 5e-6,
        oversubscription: 1.0,
        nics_per_node: 1,
    })
    .unwrap()
}

/// `nodes` × `g` GPUs on rails: NVLink 450 GB/s (1 µs), NICs of 400 Gb/s (2 µs), a spine of
/// 400 Gb/s per leaf (3 µs), PXN on.
///
/// ```
/// assert_eq!(allreduce_sim::fixtures::rail(4, 8).ranks(), 32);
/// ```
pub fn rail(nodes: usize, g: usize) -> Topology {
    Topology::new(&TopologySpec::Rail {
        nodes,
        gpus_per_node: g,
        intra_bw: Bandwidth::from_gbytes_per_sec(450.0),
        intra_lat_secs: 1e-6,
        nic_bw: Bandwidth::from_gbits_per_sec(400.0),
        nic_lat_secs: 2e-6,
        spine_bw: Bandwidth::from_gbits_per_sec(400.0),
        spine_lat_secs: 3e-6,
        oversubscription: 1.0,
        pxn: true,
    })
    .unwrap()
}

/// BERT-large's 340 M fp32 gradients, 0.3 s of compute of which two thirds backward, half of the
/// allreduce hidden; 1 MB of input per GPU read at 10 GB/s.
///
/// ```
/// assert_eq!(allreduce_sim::fixtures::bert().gradient_bytes(), 1_360_000_000);
/// ```
pub fn bert() -> TrainingModel {
    TrainingModel {
        parameters: 340_000_000,
        bytes_per_gradient: 4,
        compute_secs: 0.3,
        backward_share: 2.0 / 3.0,
        overlap: 0.5,
        input_bytes_per_gpu: 1e6,
        storage_bytes_per_sec: 10e9,
    }
}
