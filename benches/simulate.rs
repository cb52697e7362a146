//! Simulation throughput: transfers simulated per second on 1024 ranks of a cluster.
//!
//! `cargo bench` prints time per run; throughput (elements) is in transfers.

#![cfg_attr(target_arch = "wasm32", allow(unused))]

#[cfg(not(target_arch = "wasm32"))]
mod native {
    use allreduce_lab::sim::algorithms::{self, Algorithm};
    use allreduce_lab::sim::run::{run, RunOptions};
    use allreduce_lab::sim::topology::{Topology, TopologySpec};
    use allreduce_lab::sim::units::Bandwidth;
    use criterion::{criterion_group, Criterion, Throughput};
    use std::time::Duration;

    fn cluster_1024() -> Topology {
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

    fn bench(c: &mut Criterion) {
        let topo = cluster_1024();
        let mut group = c.benchmark_group("1024-rank cluster");
        group.sample_size(10);
        group.measurement_time(Duration::from_secs(20));
        for (alg, segments) in [(Algorithm::Ring, 1), (Algorithm::DoubleBinaryTree, 64)] {
            let transfers = algorithms::schedule(alg, &topo, 1 << 30, segments).len();
            group.throughput(Throughput::Elements(transfers as u64));
            for details in [false, true] {
                let name = format!(
                    "{alg} ({transfers} transfers{})",
                    if details { ", with details" } else { "" }
                );
                group.bench_function(name, |b| {
                    b.iter(|| {
                        let schedule = algorithms::schedule(alg, &topo, 1 << 30, segments);
                        let trace = run(
                            &topo,
                            schedule,
                            &RunOptions {
                                gamma_secs_per_byte: 0.0,
                                record_details: details,
                            },
                        );
                        assert!(trace.verified());
                        trace.time_secs
                    })
                });
            }
        }
        group.finish();
    }

    criterion_group!(benches, bench);
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    native::benches();
    criterion::Criterion::default()
        .configure_from_args()
        .final_summary();
}

// The benchmark measures the native core; on wasm32 there is nothing to run.
#[cfg(target_arch = "wasm32")]
fn main() {}
