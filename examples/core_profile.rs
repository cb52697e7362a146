//! Times the scaling chart's largest runs natively, as the chart makes them (no details), and
//! prints each run's CPU time: `cargo run --release --example core_profile [ring|hier|dbt|all] [reps]`.

// The benchmarks' cluster, shared rather than written again.
#[cfg(not(target_arch = "wasm32"))]
#[path = "../benches/common/mod.rs"]
#[allow(dead_code)]
mod common;

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    use allreduce_lab::course::chapter::CHAPTER_SCENARIOS;
    use allreduce_lab::sim::algorithms::Algorithm;
    use allreduce_lab::sim::scenario::{Scenario, simulate, simulate_time};
    use allreduce_lab::sim::training::resize;
    use allreduce_lab::ui::model::scaling::{Setup, segments};
    let args: Vec<String> = std::env::args().collect();
    let which = args.get(1).map_or("all", |s| s.as_str());
    let reps: usize = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(1);
    let details = args.get(3).is_some_and(|s| s == "details");
    let setup = Setup::from_scenario(&CHAPTER_SCENARIOS[0]);
    let cases = [
        ("ring", Algorithm::Ring, 1024),
        ("ring512", Algorithm::Ring, 512),
        ("hier", Algorithm::Hierarchical, 1024),
        ("dbt", Algorithm::DoubleBinaryTree, 1024),
    ];
    for (name, algorithm, gpus) in cases {
        if which != "all" && which != name {
            continue;
        }
        let scenario = Scenario {
            topology: resize(&setup.topology(), gpus).expect("the chart's topology takes it"),
            algorithm,
            size_bytes: setup.training().gradient_bytes(),
            segments: segments(algorithm, gpus),
            gamma_secs_per_byte: 0.0,
            faults: Default::default(),
        };
        let mut best = f64::INFINITY;
        let mut out = (0.0, 0);
        // A concrete algorithm's cost counts its transfers exactly.
        let transfers = scenario.cost().expect("valid").transfers as usize;
        for _ in 0..reps {
            let t0 = cpu_secs();
            // The chart's points keep only the time; with details, the lab's whole trace.
            out = if details {
                let sim = simulate(&scenario, true).expect("valid");
                (sim.trace.time_secs, sim.trace.timings.len())
            } else {
                (
                    simulate_time(&scenario).expect("valid").time_secs,
                    transfers,
                )
            };
            best = best.min(cpu_secs() - t0);
        }
        report(name, out.1, best, reps, out.0);
    }
    // The benchmark's cases (benches/common): 4 racks × 32 nodes × 8 GPUs, 1 GiB.
    let topo = common::cluster_1024();
    for (name, algorithm, segments) in [
        ("bench-ring", Algorithm::Ring, 1),
        ("bench-dbt", Algorithm::DoubleBinaryTree, 64),
    ] {
        if which != "all" && which != name {
            continue;
        }
        let mut best = f64::INFINITY;
        let mut out = (0.0, 0);
        for _ in 0..reps {
            let t0 = cpu_secs();
            let schedule =
                allreduce_lab::sim::algorithms::schedule(algorithm, &topo, 1 << 30, segments);
            let options = allreduce_lab::sim::run::RunOptions {
                gamma_secs_per_byte: 0.0,
                record_details: details,
            };
            let trace = allreduce_lab::sim::run::run(&topo, schedule, &options);
            best = best.min(cpu_secs() - t0);
            assert!(trace.verified());
            out = (trace.time_secs, trace.timings.len());
        }
        report(name, out.1, best, reps, out.0);
    }
}

#[cfg(not(target_arch = "wasm32"))]
fn report(name: &str, transfers: usize, best: f64, reps: usize, time: f64) {
    {
        println!(
            "{name:8} {:>9} transfers  {:.3} s CPU (best of {reps})  {:.2} M/s  time {:e}",
            transfers,
            best,
            transfers as f64 / best / 1e6,
            time
        );
    }
}

/// CPU seconds this thread has run, to the nanosecond (the first field of
/// /proc/thread-self/schedstat; /proc's stat counts in ticks of 10 ms, a twentieth of a run).
#[cfg(not(target_arch = "wasm32"))]
fn cpu_secs() -> f64 {
    let s = std::fs::read_to_string("/proc/thread-self/schedstat").unwrap_or_default();
    let ns: f64 = s
        .split_whitespace()
        .next()
        .and_then(|v| v.parse().ok())
        .unwrap_or(0.0);
    ns / 1e9
}

#[cfg(target_arch = "wasm32")]
fn main() {}
