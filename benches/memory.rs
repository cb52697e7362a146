//! Peak memory and CPU time of the benchmarked runs: `cargo bench --bench memory`.
//!
//! Each case runs in a process of its own (this binary started again with the case's name), which
//! reports its peak resident set (VmHWM in /proc/self/status, Linux) and the CPU time the run took
//! (utime + stime in /proc/self/stat): on a machine shared with other jobs, CPU time says more
//! about the simulator than criterion's wall-clock time.

#![cfg_attr(target_arch = "wasm32", allow(unused))]

#[cfg(not(target_arch = "wasm32"))]
mod common;

#[cfg(not(target_arch = "wasm32"))]
fn peak_rss_kib() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

/// CPU seconds this process has used (user + system), Linux.
#[cfg(not(target_arch = "wasm32"))]
fn cpu_secs() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    // Fields after the command name (which ends with ')'): utime and stime are the 12th and 13th.
    let rest = &stat[stat.rfind(')')? + 2..];
    let f: Vec<&str> = rest.split_whitespace().collect();
    let ticks: f64 = f.get(11)?.parse::<f64>().ok()? + f.get(12)?.parse::<f64>().ok()?;
    Some(ticks / 100.0)
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    use common::{CASES, cluster_1024, run_case};
    let args: Vec<String> = std::env::args().collect();
    if let Some(pos) = args.iter().position(|a| a == "--case") {
        let (alg, details) = (&args[pos + 1], args[pos + 2] == "details");
        let (alg, segments) = CASES
            .into_iter()
            .find(|(a, _)| a.name() == alg)
            .expect("a benchmarked case");
        let topo = cluster_1024();
        let before = cpu_secs().unwrap_or(0.0);
        let trace = run_case(&topo, alg, segments, details);
        let cpu = cpu_secs().unwrap_or(0.0) - before;
        let transfers = trace.schedule.len();
        drop(trace);
        let rss_mb = peak_rss_kib().map_or(f64::NAN, |kib| kib as f64 * 1024.0 / 1e6);
        println!(
            "{alg} k={segments} ({transfers} transfers{}): peak RSS {rss_mb:.1} MB, CPU {cpu:.2} s = {:.2} M transfers per CPU second",
            if details { ", with details" } else { "" },
            transfers as f64 / cpu / 1e6
        );
        return;
    }
    let exe = std::env::current_exe().expect("own path");
    for (alg, _) in CASES {
        for details in ["details", "quick"] {
            let status = std::process::Command::new(&exe)
                .args(["--case", alg.name(), details])
                .status()
                .expect("start a case");
            assert!(status.success());
        }
    }
}

// The benchmark measures the native core; on wasm32 there is nothing to run.
#[cfg(target_arch = "wasm32")]
fn main() {}
