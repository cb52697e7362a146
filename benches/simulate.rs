//! Simulation throughput: transfers simulated per second on 1024 ranks of a cluster.
//!
//! `cargo bench` prints time per run; throughput (elements) is in transfers.

#![cfg_attr(target_arch = "wasm32", allow(unused))]

#[cfg(not(target_arch = "wasm32"))]
mod common;

#[cfg(not(target_arch = "wasm32"))]
mod native {
    use super::common::{CASES, cluster_1024, run_case};
    use allreduce_lab::sim::algorithms;
    use criterion::{Criterion, Throughput, criterion_group};
    use std::time::Duration;

    fn bench(c: &mut Criterion) {
        let topo = cluster_1024();
        let mut group = c.benchmark_group("1024-rank cluster");
        group.sample_size(10);
        group.measurement_time(Duration::from_secs(20));
        for (alg, segments) in CASES {
            let transfers = algorithms::schedule(alg, &topo, 1 << 30, segments).len();
            group.throughput(Throughput::Elements(transfers as u64));
            for details in [false, true] {
                let name = format!(
                    "{alg} ({transfers} transfers{})",
                    if details { ", with details" } else { "" }
                );
                group.bench_function(name, |b| {
                    b.iter(|| run_case(&topo, alg, segments, details).time_secs)
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
