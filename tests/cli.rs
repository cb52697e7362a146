//! The command line, run as a user would.
#![cfg(not(target_arch = "wasm32"))]

use std::process::Command;

fn cli(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_allreduce-lab"))
        .args(args)
        .output()
        .expect("the binary runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Each command fails with exit ≠ 0, nothing on stdout and one line on stderr containing the needle.
fn assert_refused(cases: &[(&[&str], &str)]) {
    for (args, needle) in cases {
        let (code, out, err) = cli(args);
        assert_ne!(code, 0, "{args:?} should fail");
        assert!(out.is_empty(), "{args:?} printed to stdout: {out}");
        assert_eq!(err.trim().lines().count(), 1, "{args:?}: {err}");
        assert!(err.contains(needle), "{args:?}: '{err}' lacks '{needle}'");
    }
}

fn json(args: &[&str]) -> serde_json::Value {
    let (code, out, err) = cli(args);
    assert_eq!(code, 0, "{err}");
    serde_json::from_str(&out).expect("one JSON object")
}

#[test]
fn uniform_ring_json_has_the_documented_fields_and_closed_form_time() {
    let v = json(&[
        "simulate",
        "--algorithm",
        "ring",
        "--topology",
        "uniform",
        "--ranks",
        "8",
        "--bandwidth",
        "100GB/s",
        "--latency",
        "5us",
        "--size",
        "1GiB",
        "--json",
    ]);
    let s = (1u64 << 30) as f64;
    let want = 14.0 * 5e-6 + 1.75 * s / 100e9;
    let time = v["time_s"].as_f64().unwrap();
    assert!((time / want - 1.0).abs() < 1e-9, "{time} vs {want}");
    assert_eq!(v["algorithm"], "ring");
    assert_eq!(v["ranks"], 8);
    assert_eq!(v["size_bytes"], 1u64 << 30);
    assert_eq!(v["verified"], true);
    let algbw = v["algbw_GBps"].as_f64().unwrap();
    assert!((algbw - s / time / 1e9).abs() < 1e-9);
    assert!((v["busbw_GBps"].as_f64().unwrap() - algbw * 1.75).abs() < 1e-9);
    assert!((v["lower_bound_s"].as_f64().unwrap() - 1.75 * s / 100e9).abs() < 1e-15);
    let per_rank = v["per_rank"].as_array().unwrap();
    assert_eq!(per_rank.len(), 8);
    for r in per_rank {
        assert_eq!(r["sent_bytes"].as_u64().unwrap(), (1.75 * s) as u64);
        assert_eq!(r["received_bytes"].as_u64().unwrap(), (1.75 * s) as u64);
    }
    let links = v["links"].as_array().unwrap();
    assert_eq!(links.len(), 16);
    for l in links {
        for key in ["id", "from", "to", "bytes", "busy_fraction"] {
            assert!(!l[key].is_null(), "{key}");
        }
    }
}

#[test]
fn cluster_hierarchical_runs_with_the_documented_flags() {
    let v = json(&[
        "simulate",
        "--algorithm",
        "hierarchical",
        "--topology",
        "cluster",
        "--racks",
        "2",
        "--nodes-per-rack",
        "2",
        "--gpus-per-node",
        "8",
        "--intra-bw",
        "450GB/s",
        "--intra-lat",
        "1us",
        "--node-bw",
        "400Gbps",
        "--node-lat",
        "2us",
        "--rack-bw",
        "200Gbps",
        "--rack-lat",
        "5us",
        "--size",
        "100MB",
        "--json",
    ]);
    assert_eq!(v["ranks"], 32);
    assert_eq!(v["verified"], true);
    assert_eq!(v["size_bytes"], 100_000_000u64);
    assert!(v["time_s"].as_f64().unwrap() >= v["lower_bound_s"].as_f64().unwrap());
}

#[test]
fn gamma_and_segments_flags_change_the_result() {
    let base = [
        "simulate",
        "--algorithm",
        "tree-binary",
        "--ranks",
        "16",
        "--size",
        "64MB",
        "--json",
    ];
    let plain = json(&base)["time_s"].as_f64().unwrap();
    let mut with_gamma = base.to_vec();
    with_gamma.extend(["--gamma", "1e-10"]);
    let mut with_segments = base.to_vec();
    with_segments.extend(["--segments", "8"]);
    assert!(json(&with_gamma)["time_s"].as_f64().unwrap() > plain);
    assert!(json(&with_segments)["time_s"].as_f64().unwrap() < plain);
}

#[test]
fn auto_says_what_it_chose_and_why() {
    let v = json(&[
        "simulate",
        "--algorithm",
        "auto",
        "--ranks",
        "16",
        "--size",
        "1KB",
        "--json",
    ]);
    let chosen = v["auto"]["chosen"].as_str().unwrap();
    assert_eq!(v["algorithm"], chosen);
    assert!(v["auto"]["reason"].as_str().unwrap().contains("fastest"));
    assert_eq!(v["auto"]["candidates"].as_array().unwrap().len(), 8);
}

#[test]
fn the_default_output_is_a_readable_table() {
    let (code, out, _) = cli(&["simulate", "--ranks", "4", "--size", "4MB"]);
    assert_eq!(code, 0);
    assert!(out.contains("time"), "{out}");
    assert!(out.contains("busbw"));
    assert!(out.contains("verified     yes"));
}

#[test]
fn bad_input_exits_non_zero_with_one_line_saying_what_is_allowed() {
    let cases: &[(&[&str], &str)] = &[
        (&["simulate", "--bandwidth", "0GB/s"], "positive"),
        (&["simulate", "--bandwidth", "-5GB/s"], "positive"),
        (&["simulate", "--bandwidth", "fast"], "bandwidth"),
        (&["simulate", "--ranks", "0"], "1..4096"),
        (&["simulate", "--ranks", "4097"], "1..4096"),
        (&["simulate", "--ranks", "many"], "whole number"),
        (&["simulate", "--algorithm", "bogus"], "ring"),
        (&["simulate", "--size", "12 parsecs"], "unit"),
        (&["simulate", "--latency", "5 lightyears"], "unit"),
        (&["simulate", "--topology", "torus"], "uniform or cluster"),
        (&["simulate", "--segments", "0"], "1..256"),
        (&["simulate", "--gamma", "NaN"], "gamma"),
        (&["simulate", "--nope", "1"], "unknown flag"),
        (&["simulate", "--ranks"], "needs a value"),
        (&["frobnicate"], "unknown command"),
        (
            &[
                "simulate",
                "--topology",
                "cluster",
                "--racks",
                "64",
                "--nodes-per-rack",
                "64",
                "--gpus-per-node",
                "8",
            ],
            "at most 4096",
        ),
        (
            &["simulate", "--ranks", "4096", "--algorithm", "ring"],
            "transfers",
        ),
    ];
    assert_refused(cases);
}

#[test]
fn a_scenario_file_runs_and_a_hostile_one_is_refused() {
    let dir = std::env::temp_dir().join(format!("allreduce-lab-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let good = dir.join("good.json");
    std::fs::write(
        &good,
        r#"{"topology":{"kind":"uniform","ranks":4,"bandwidth":1e10,"latency_secs":1e-6},"algorithm":"ring","size_bytes":4000000}"#,
    )
    .unwrap();
    let v = json(&["simulate", "--scenario", good.to_str().unwrap(), "--json"]);
    assert_eq!(v["ranks"], 4);
    let bad = dir.join("bad.json");
    std::fs::write(
        &bad,
        r#"{"topology":{"kind":"uniform","ranks":100000000,"bandwidth":-1,"latency_secs":1e-6},"algorithm":"ring","size_bytes":4}"#,
    )
    .unwrap();
    let (code, _, err) = cli(&["simulate", "--scenario", bad.to_str().unwrap()]);
    assert_ne!(code, 0);
    assert!(err.contains("ranks"), "{err}");
}

#[test]
fn sweep_prints_the_nccl_tests_columns_and_busbw_approaches_the_port_bandwidth() {
    let args = [
        "sweep",
        "--ranks",
        "8",
        "--bandwidth",
        "100GB/s",
        "--min-size",
        "8",
        "--max-size",
        "8GB",
        "--step-factor",
        "4",
    ];
    let (code, out, err) = cli(&args);
    assert_eq!(code, 0, "{err}");
    for col in ["size", "count", "type", "time", "algbw", "busbw"] {
        assert!(out.contains(col), "{col}: {out}");
    }
    let v = json(&[&args[..], &["--json"]].concat());
    let rows = v["rows"].as_array().unwrap();
    assert_eq!(rows[0]["size_bytes"], 8);
    assert_eq!(rows[1]["size_bytes"], 32);
    let last = rows.last().unwrap()["busbw_GBps"].as_f64().unwrap();
    assert!(last > 99.0 && last <= 100.0, "{last}");
}

#[test]
fn speedup_with_a_chapter_preset_reports_the_claim_and_its_verdict() {
    let v = json(&["speedup", "--preset", "network-100g-over-40pct", "--json"]);
    assert_eq!(v["preset"]["holds"], true);
    assert!(v["preset"]["value"].as_f64().unwrap() > 0.4);
    let rows = v["rows"].as_array().unwrap();
    assert_eq!(rows.first().unwrap()["gpus"], 1);
    assert_eq!(rows.last().unwrap()["gpus"], 32);
    assert!((rows[0]["speedup"].as_f64().unwrap() - 1.0).abs() < 1e-12);
    // Overlap hides communication: the 32-GPU speedup rises.
    let overlapped = json(&[
        "speedup",
        "--preset",
        "network-100g-over-40pct",
        "--overlap",
        "1",
        "--json",
    ]);
    let s = |v: &serde_json::Value| {
        v["rows"].as_array().unwrap().last().unwrap()["speedup"]
            .as_f64()
            .unwrap()
    };
    assert!(s(&overlapped) > s(&v));
}

#[test]
fn speedup_and_sweep_refuse_bad_input_with_one_line() {
    let cases: &[(&[&str], &str)] = &[
        (&["speedup", "--preset", "nope"], "eight-gpus-6-7x"),
        (&["speedup", "--model", "gpt5"], "resnet50"),
        (&["speedup", "--overlap", "2"], "0..1"),
        (&["speedup", "--storage-bw", "0GB/s"], "positive"),
        (&["sweep", "--min-size", "1GB", "--max-size", "1KB"], "min"),
        (&["sweep", "--step-factor", "1"], "at least 2"),
        (&["sweep", "--size", "1GB"], "unknown flag"),
    ];
    assert_refused(cases);
}

#[test]
fn a_slow_link_and_a_straggler_change_the_run_and_show_in_the_report() {
    let base = [
        "simulate",
        "--topology",
        "cluster",
        "--racks",
        "1",
        "--nodes-per-rack",
        "2",
        "--gpus-per-node",
        "8",
        "--node-lat",
        "0",
        "--intra-lat",
        "0",
        "--size",
        "1600MB",
        "--json",
    ];
    let healthy = json(&base);
    let mut args = base.to_vec();
    // Repeatable, in either of the two flag forms; ends in either order.
    args.extend([
        "--slow-link",
        "node1-rack0=0.25",
        "--slow-link=rank2-node0=0.5",
        "--straggler",
        "3=200us",
    ]);
    let v = json(&args);
    let links = v["links"].as_array().unwrap();
    let bw = |from: &str, to: &str| {
        links
            .iter()
            .find(|l| l["from"] == from && l["to"] == to)
            .unwrap()["bandwidth_GBps"]
            .as_f64()
            .unwrap()
    };
    assert_eq!(bw("node1", "rack0"), 12.5);
    assert_eq!(bw("rack0", "node1"), 12.5);
    assert_eq!(bw("node0", "rack0"), 50.0);
    assert_eq!(bw("rank2", "node0"), 225.0);
    assert_eq!(bw("node0", "rank2"), 225.0);
    // The ring runs at the slowed NIC's 12.5 GB/s; rank 3's 200 µs are absorbed, since every
    // step waits for the slow NIC far longer than that anyway.
    let want = 1.875 * 1.6e9 / 12.5e9;
    let t = v["time_s"].as_f64().unwrap();
    assert!((t / want - 1.0).abs() < 1e-9, "{t} vs {want}");
    assert!(t > healthy["time_s"].as_f64().unwrap());
    assert_eq!(
        v["scenario"]["faults"]["slow_links"][0]["cable"],
        "node1-rack0"
    );
    assert_eq!(v["scenario"]["faults"]["stragglers"][0]["rank"], 3);
    assert!(healthy["scenario"].get("faults").is_none());
    let (code, table, _) = cli(&[
        "simulate",
        "--slow-link",
        "rank3-spine=0.25",
        "--straggler",
        "1=1ms",
    ]);
    assert_eq!(code, 0);
    assert!(
        table.contains("rank3-spine keeps 25% of its bandwidth"),
        "{table}"
    );
    assert!(table.contains("rank 1 joins 1 ms late"), "{table}");
}

#[test]
fn bad_faults_are_refused_with_exit_2_and_one_line() {
    let cases: &[(&[&str], &str)] = &[
        (&["simulate", "--slow-link", "rank3-spine=0"], "(0, 1]"),
        (&["simulate", "--slow-link", "rank3-spine=1.5"], "(0, 1]"),
        (&["simulate", "--slow-link", "rank3-spine=-1"], "(0, 1]"),
        (&["simulate", "--slow-link", "rank3-spine=NaN"], "(0, 1]"),
        (
            &["simulate", "--slow-link", "rank3-spine=fast"],
            "not a number",
        ),
        (
            &["simulate", "--slow-link", "rank3-spine"],
            "FROM-TO=FACTOR",
        ),
        (&["simulate", "--slow-link", "rank3=0.5"], "FROM-TO"),
        (
            &["simulate", "--slow-link", "gpu3-spine=0.5"],
            "rankN, nodeN",
        ),
        (
            &["simulate", "--slow-link", "rank8-spine=0.5"],
            "no such link",
        ),
        (
            &["simulate", "--slow-link", "node0-rack0=0.5"],
            "no such link",
        ),
        (
            &[
                "simulate",
                "--slow-link",
                "rank1-spine=0.5",
                "--slow-link",
                "spine-rank1=0.2",
            ],
            "given twice",
        ),
        (&["simulate", "--straggler", "8=1us"], "0..7"),
        (&["simulate", "--straggler", "-1=1us"], "not a rank"),
        (&["simulate", "--straggler", "3"], "RANK=DELAY"),
        (&["simulate", "--straggler", "3=soon"], "--straggler"),
        (&["simulate", "--straggler", "3=11s"], "0..10 s"),
        (
            &["simulate", "--straggler", "3=1us", "--straggler", "3=2us"],
            "given twice",
        ),
    ];
    assert_refused(cases);
    for (args, _) in cases {
        assert_eq!(cli(args).0, 2, "{args:?}");
    }
}
