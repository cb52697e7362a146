//! Times the scaling chart's largest runs natively, as the chart makes them (no details), and
//! prints each run's CPU time: `cargo run --release --example core_profile
//! [ring|ring512|hier|dbt|bench-ring|bench-dbt|all|bench-ring-phases|bench-ring-schedule] [reps]
//! [details]` (`all`: the cases before it; the last two only when named).

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
    // The benchmark's ring, phase by phase: best CPU time of each.
    if which == "bench-ring-phases" {
        use allreduce_lab::sim::run::{PreparingRun, RunOptions};
        let mut best = [f64::INFINITY; 4];
        let options = RunOptions {
            gamma_secs_per_byte: 0.0,
            record_details: details,
        };
        for _ in 0..reps {
            let t0 = cpu_secs();
            let schedule =
                allreduce_lab::sim::algorithms::schedule(Algorithm::Ring, &topo, 1 << 30, 1);
            let t1 = cpu_secs();
            let mut prep = PreparingRun::new(&topo, schedule, &options);
            while !prep.step(usize::MAX) {}
            let mut run = prep.finish();
            let t2 = cpu_secs();
            while !run.step(usize::MAX) {}
            let t3 = cpu_secs();
            let trace = run.finish();
            let t4 = cpu_secs();
            assert!(trace.verified());
            for (b, d) in best.iter_mut().zip([t1 - t0, t2 - t1, t3 - t2, t4 - t3]) {
                *b = b.min(d);
            }
        }
        let [schedule, prepare, events, finish] = best.map(|s| s * 1e3);
        println!(
            "{which}: schedule {schedule:.1} ms, prepare {prepare:.1} ms, events {events:.1} ms, \
             finish {finish:.1} ms (best CPU of {reps} each)"
        );
    }
    // The benchmark's ring, its schedule alone.
    if which == "bench-ring-schedule" {
        let mut best = f64::INFINITY;
        let mut transfers = 0;
        for _ in 0..reps {
            let t0 = cpu_secs();
            let schedule =
                allreduce_lab::sim::algorithms::schedule(Algorithm::Ring, &topo, 1 << 30, 1);
            best = best.min(cpu_secs() - t0);
            transfers = schedule.len();
        }
        report(which, transfers, best, reps, 0.0);
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

/// CPU seconds this thread has run (`clock_gettime(CLOCK_THREAD_CPUTIME_ID)`, which brings the
/// count up to date when read; /proc/thread-self/schedstat, read before, moves only at the
/// scheduler's ticks, 4 ms here, and /proc's stat in 10 ms).
#[cfg(all(target_os = "linux", target_pointer_width = "64"))]
fn cpu_secs() -> f64 {
    #[repr(C)]
    struct Timespec {
        secs: i64,
        nanos: i64,
    }
    const CLOCK_THREAD_CPUTIME_ID: i32 = 3;
    unsafe extern "C" {
        fn clock_gettime(clock: i32, ts: *mut Timespec) -> i32;
    }
    let mut ts = Timespec { secs: 0, nanos: 0 };
    // SAFETY: on 64-bit Linux a `struct timespec` is two 64-bit fields, `clockid_t` an `int` and
    // CLOCK_THREAD_CPUTIME_ID 3; `ts` is valid and writable.
    let ok = unsafe { clock_gettime(CLOCK_THREAD_CPUTIME_ID, &mut ts) } == 0;
    assert!(ok, "clock_gettime(CLOCK_THREAD_CPUTIME_ID) failed");
    ts.secs as f64 + ts.nanos as f64 / 1e9
}

/// Elsewhere, wall seconds since the first call: run it on an idle machine.
#[cfg(all(
    not(target_arch = "wasm32"),
    not(all(target_os = "linux", target_pointer_width = "64"))
))]
fn cpu_secs() -> f64 {
    static START: std::sync::OnceLock<std::time::Instant> = std::sync::OnceLock::new();
    START
        .get_or_init(std::time::Instant::now)
        .elapsed()
        .as_secs_f64()
}

#[cfg(target_arch = "wasm32")]
fn main() {}
