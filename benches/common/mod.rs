//! What the benchmarks run: 1024 ranks on a cluster of 4 racks × 32 nodes × 8 GPUs.

use allreduce_lab::sim::algorithms::{self, Algorithm};
use allreduce_lab::sim::run::{RunOptions, run};
use allreduce_lab::sim::topology::{Topology, TopologySpec};
use allreduce_lab::sim::trace::Trace;
use allreduce_lab::sim::units::Bandwidth;

pub fn cluster_1024() -> Topology {
    Topology::new(&TopologySpec::Cluster {
        racks: 4,
        nodes_per_rack: 32,
        gpus_per_node: 8,
        intra_bw: Bandwidth::from_gbytes_per_sec(450.0),
        intra_lat_secs: 1e-6,
        node_bw: Bandwidth::from_gbits_per_sec(3200.0),
        node_lat_secs: 2e-6,
        rack_bw: Bandwidth::from_gbits_per_sec(12800.0),
        rack_lat_secs: 5e-6,
        oversubscription: 1.0,
        nics_per_node: 1,
    })
    .unwrap()
}

/// The benchmarked runs: (algorithm, segments).
pub const CASES: [(Algorithm, usize); 2] =
    [(Algorithm::Ring, 1), (Algorithm::DoubleBinaryTree, 64)];

/// Schedules and runs one case on 1 GiB buffers; the run must verify.
pub fn run_case(topo: &Topology, alg: Algorithm, segments: usize, details: bool) -> Trace {
    let schedule = algorithms::schedule(alg, topo, 1 << 30, segments);
    let trace = run(
        topo,
        schedule,
        &RunOptions {
            gamma_secs_per_byte: 0.0,
            record_details: details,
        },
    );
    assert!(trace.verified());
    trace
}
