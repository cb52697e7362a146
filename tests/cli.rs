//! The command line, run as a user would.
#![cfg(not(target_arch = "wasm32"))]

mod common;
use common::{all_refused, cli, refused};
use std::process::Command;

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
    // The bound: one message latency (5 µs) plus 2(N−1)/N × S over the port bandwidth.
    assert!((v["lower_bound_bandwidth_s"].as_f64().unwrap() - 1.75 * s / 100e9).abs() < 1e-15);
    assert_eq!(v["lower_bound_latency_s"].as_f64().unwrap(), 5e-6);
    assert!((v["lower_bound_s"].as_f64().unwrap() - (5e-6 + 1.75 * s / 100e9)).abs() < 1e-15);
    assert_eq!(v["lower_bound_dominant"], "bandwidth");
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
    assert!(
        v["auto"]["reason"]
            .as_str()
            .unwrap()
            .contains("the fastest of the simulated algorithms")
    );
    assert_eq!(v["auto"]["candidates"].as_array().unwrap().len(), 10);
}

#[test]
fn sizes_take_nccl_tests_suffixes_with_fractions() {
    // As nccl-tests reads `-b 1.5K`: 1536 bytes (it was refused: "unknown unit 'K'").
    let size =
        |s: &str| json(&["simulate", "--ranks", "4", "--size", s, "--json"])["size_bytes"].clone();
    assert_eq!(size("1.5K"), 1536);
    assert_eq!(size("2M"), 2 << 20);
    assert_eq!(size("1.5KB"), 1500);
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
    let cases: &[(&str, &str)] = &[
        ("simulate --bandwidth 0GB/s", "positive"),
        // Beyond what a float holds: too large, not "not positive".
        ("simulate --bandwidth 1e300GB/s", "'1e300GB/s' is too large"),
        ("simulate --bandwidth -5GB/s", "positive"),
        ("simulate --bandwidth fast", "bandwidth"),
        ("simulate --ranks 0", "1..4096"),
        ("simulate --ranks 4097", "1..4096"),
        ("simulate --ranks many", "whole number"),
        ("simulate --algorithm bogus", "ring"),
        ("simulate --size '12 parsecs'", "unit"),
        // nccl-tests' suffixes are known units: a negative size is negative, not "unknown unit 'K'".
        ("simulate --size -1K", "size '-1K' is negative"),
        ("simulate --size 1e30G", "too large"),
        // One range, the one that holds (it said 1..1024, then "at least 2"; 1..8, then "1, 2, 4 or 8").
        ("sweep --ranks 4 -f 0", "expected 2..1024"),
        ("sweep --ranks 4 -f 1", "expected 2..1024"),
        ("speedup --gradient-bytes 3", "not 1, 2, 4 or 8"),
        // Each size within a run's budget, but 40 of them, each trying every algorithm on 2408
        // ranks: it ran for 555 s. Refused at once, from the estimates.
        (
            "sweep --ranks 2408 --algorithm auto -b 1 -e 1TB --json",
            "the sweep's 40 sizes would take about",
        ),
        ("simulate --latency '5 lightyears'", "unit"),
        ("simulate --topology torus", "uniform, cluster or rail"),
        ("simulate --segments 0", "1..256"),
        ("simulate --gamma NaN", "gamma"),
        ("simulate --nope 1", "unknown flag"),
        ("simulate --ranks", "needs a value"),
        ("frobnicate", "unknown command"),
        (
            "simulate --topology cluster --racks 64 --nodes-per-rack 64 --gpus-per-node 8",
            "at most 4096",
        ),
        ("simulate --ranks 4096 --algorithm ring", "transfers"),
    ];
    all_refused(cases);
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
fn sweep_hands_out_each_row_as_it_is_simulated_and_stops_when_the_reader_goes() {
    // At 4,096 GPUs a size takes seconds: the table came only at the end, after minutes.
    use allreduce_lab::cli::{run_cli, run_cli_to};
    let args = [
        "sweep",
        "--ranks",
        "8",
        "--min-size",
        "1KB",
        "--max-size",
        "1MB",
        "--step-factor",
        "4",
    ];
    let mut pieces: Vec<String> = Vec::new();
    let (rest, code) = run_cli_to(&args, &mut |s: &str| {
        pieces.push(s.to_string());
        Ok(())
    });
    assert_eq!(code, 0, "{rest}");
    // 1 KB, 4 KB, … 256 KB (1,024 KB passes 1 MB): five rows, one at a time, the header with the
    // first.
    assert_eq!(pieces.len(), 5, "{pieces:?}");
    assert!(pieces[0].starts_with("# allreduce-lab sweep") && pieces[0].ends_with("\n"));
    assert!(
        pieces[1..].iter().all(|p| p.lines().count() == 1),
        "{pieces:?}"
    );
    assert!(rest.starts_with("# Avg bus bandwidth"), "{rest}");
    // The same text as the whole table.
    assert_eq!(pieces.concat() + &rest, run_cli(&args).0);
    // A reader gone after two rows: nothing more is simulated, and the rest (to be printed into
    // the same failure) averages the rows given.
    let mut calls = 0;
    let (rest, code) = run_cli_to(&args, &mut |_: &str| {
        calls += 1;
        if calls < 2 {
            Ok(())
        } else {
            Err(std::io::ErrorKind::BrokenPipe.into())
        }
    });
    assert_eq!((calls, code), (2, 0));
    assert!(rest.starts_with("# Avg bus bandwidth"), "{rest}");
}

#[test]
fn speedup_with_a_chapter_preset_reports_the_claim_and_its_verdict() {
    // regression guard: fixture tuned to the chapter's 100 Gbps cluster so that the claim holds.
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
    // The verdict is the run shown: the 8-GPU claim, its speedup read at 8 GPUs, checked with the
    // reader's --overlap (none: about 5×, so the chapter's 6–7× no longer holds).
    for (overlap, holds) in [(None, true), (Some("0"), false)] {
        let mut args = vec!["speedup", "--preset", "eight-gpus-6-7x", "--json"];
        args.extend(overlap.map(|o| ["--overlap", o]).into_iter().flatten());
        let v = json(&args);
        let at_8 = v["rows"]
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["gpus"] == 8)
            .unwrap();
        assert_eq!(v["preset"]["value"], at_8["speedup"], "{overlap:?}");
        assert_eq!(v["preset"]["holds"], holds, "{overlap:?}");
    }
    let (code, text, err) = cli(&["speedup", "--preset", "eight-gpus-6-7x", "--overlap", "0"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        text.contains("→ does not hold (with --overlap 0; the chapter's scenario has 0.6)"),
        "{text}"
    );
    // Rows that stop short of the claim's 8 GPUs: the verdict says where it was checked.
    let (code, text, err) = cli(&["speedup", "--preset", "eight-gpus-6-7x", "--max-gpus", "4"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        text.contains("→ holds (at its 8 GPUs; the rows below stop at 4)\n"),
        "{text}"
    );
}

#[test]
fn speedup_and_sweep_refuse_bad_input_with_one_line() {
    let cases: &[(&str, &str)] = &[
        ("speedup --preset nope", "eight-gpus-6-7x"),
        ("speedup --model gpt5", "resnet50"),
        ("speedup --overlap 2", "0..1"),
        ("speedup --storage-bw 0GB/s", "positive"),
        ("speedup --storage-bw 1e300GB/s", "is too large"),
        ("sweep --min-size 1GB --max-size 1KB", "min"),
        ("sweep --step-factor 1", "expected 2..1024"),
        ("sweep --size 1GB", "unknown flag"),
        // Said of the model, not as a size the reader never gave.
        (
            "speedup --parameters 3e11",
            "300000000000 parameters × 4 B, are larger than the largest allreduce the simulator runs (1 TB): at most 250000000000 parameters of 4 B",
        ),
    ];
    all_refused(cases);
}

#[test]
fn nics_per_node_and_rail_flags_run_and_report_every_nic_and_the_spine() {
    // 2 nodes × 8 GPUs with eight 400 Gb/s NICs each: nccl-ring at 8 × 50 GB/s.
    let v = json(&[
        "simulate",
        "--algorithm",
        "nccl-ring",
        "--topology",
        "cluster",
        "--nodes-per-rack",
        "2",
        "--gpus-per-node",
        "8",
        "--nics-per-node",
        "8",
        "--node-bw",
        "400Gbps",
        "--size",
        "1GiB",
        "--json",
    ]);
    let busbw = v["busbw_GBps"].as_f64().unwrap();
    assert!((busbw / 400.0 - 1.0).abs() < 0.02, "{busbw}");
    let links = v["links"].as_array().unwrap();
    let nics: Vec<_> = links.iter().filter(|l| l["tier"] == "node").collect();
    assert_eq!(nics.len(), 32);
    assert!(
        nics.iter()
            .any(|l| l["from"] == "node1.nic7" && l["to"] == "rack0")
    );
    assert!(nics.iter().all(|l| l["bytes"].as_f64().unwrap() > 0.0));
    // A rail network: the textbook ring crosses rails between nodes; PXN keeps it off the spine.
    let rail = |pxn: &str| {
        json(&[
            "simulate",
            "--topology",
            "rail",
            "--nodes",
            "2",
            "--gpus-per-node",
            "8",
            "--nic-bw",
            "400Gbps",
            "--spine-bw",
            "400Gbps",
            "--pxn",
            pxn,
            "--size",
            "64MiB",
            "--json",
        ])
    };
    let spine_bytes = |v: &serde_json::Value| -> f64 {
        v["links"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|l| l["tier"] == "rack")
            .map(|l| l["bytes"].as_f64().unwrap())
            .sum()
    };
    assert_eq!(spine_bytes(&rail("on")), 0.0);
    let off = rail("off");
    assert!(spine_bytes(&off) > 0.0);
    assert!(
        off["links"]
            .as_array()
            .unwrap()
            .iter()
            .any(|l| l["from"] == "rail7"
                && l["to"] == "spine"
                && l["bytes"].as_f64().unwrap() > 0.0)
    );
    assert_eq!(off["scenario"]["topology"]["pxn"], false);
    // A 1 KB run is latency-bound, and the bound says so.
    let small = json(&["simulate", "--size", "1KB", "--json"]);
    assert_eq!(small["lower_bound_dominant"], "latency");
    assert!(small["efficiency"].as_f64().unwrap() > 0.05);
}

#[test]
fn bad_nic_and_rail_values_exit_2_with_one_line() {
    let cases: &[(&str, &str)] = &[
        ("simulate --topology cluster --nics-per-node 0", "1..8"),
        ("simulate --topology cluster --nics-per-node 9", "1..8"),
        (
            "simulate --topology cluster --nics-per-node two",
            "whole number",
        ),
        (
            "simulate --topology cluster --gpus-per-node 4 --nics-per-node 8",
            "cannot exceed GPUs per node",
        ),
        ("simulate --topology rail --gpus-per-node 9", "1..8"),
        ("simulate --topology rail --nodes 0", "1..4096"),
        ("simulate --topology rail --nodes 1000", "at most 4096"),
        ("simulate --topology rail --pxn maybe", "neither on nor off"),
        ("simulate --topology rail --nic-bw 0Gbps", "positive"),
        ("simulate --topology rail --spine-bw fast", "spine-bw"),
        ("simulate --topology rail --nic-lat -1us", "nic-lat"),
        ("simulate --topology rail --spine-lat 20s", "latency"),
        ("simulate --topology rail --oversubscription 100", "1..64"),
    ];
    all_refused(cases);
}

// --- Input and output at the edges: arguments that are not UTF-8, readers that stop early, a full
// disk, switches given values, late refusals, file encodings and unit spellings.

use std::ffi::OsString;
use std::os::unix::ffi::OsStringExt;
use std::process::Stdio;

fn os(s: &str) -> OsString {
    OsString::from(s)
}

const SMALL_SCENARIO: &str = r#"{"topology":{"kind":"uniform","ranks":4,"bandwidth":1e10,"latency_secs":1e-6},"algorithm":"ring","size_bytes":4000000}"#;

fn temp_dir(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("allreduce-lab-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn a_scenario_path_that_is_not_utf8_is_read_in_both_flag_forms() {
    let dir = temp_dir("non-utf8");
    // "sc\xFFé.json": a Latin-1 byte, as an old filesystem might hold.
    let name = OsString::from_vec(b"sc\xFF\xE9.json".to_vec());
    let path = dir.join(&name);
    std::fs::write(&path, SMALL_SCENARIO).unwrap();
    let separate = [
        os("simulate"),
        os("--scenario"),
        path.clone().into(),
        os("--json"),
    ];
    let mut inline = b"--scenario=".to_vec();
    inline.extend(path.as_os_str().as_encoded_bytes());
    let joined = [os("simulate"), OsString::from_vec(inline), os("--json")];
    for args in [&separate[..], &joined[..]] {
        let (code, out, err) = cli(args);
        assert_eq!(code, 0, "{err}");
        let v: serde_json::Value = serde_json::from_str(&out).unwrap();
        assert_eq!(v["ranks"], 4);
        assert_eq!(v["verified"], true);
    }
}

#[test]
fn any_other_argument_that_is_not_utf8_is_one_line_and_exit_2() {
    let bad = || OsString::from_vec(b"8\xFF".to_vec());
    let cases: [(Vec<OsString>, &str); 4] = [
        (vec![os("simulate"), os("--ranks"), bad()], "--ranks"),
        (
            vec![os("simulate"), OsString::from_vec(b"--ranks=\xFF".to_vec())],
            "--ranks",
        ),
        (
            vec![os("simulate"), OsString::from_vec(b"--r\xFFnks".to_vec())],
            "flag",
        ),
        (vec![OsString::from_vec(b"simul\xFFte".to_vec())], "command"),
    ];
    for (args, needle) in cases {
        let (code, out, err) = cli(&args);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(out.is_empty());
        assert_eq!(err.trim().lines().count(), 1, "{err}");
        assert!(
            err.contains("not valid UTF-8") && err.contains(needle),
            "{err}"
        );
        assert!(!err.contains("panicked"), "{err}");
    }
}

#[test]
fn a_reader_that_stops_early_is_a_normal_end() {
    // The pipe's reading end is closed before the program has computed anything to write; it
    // then writes into a pipe nobody reads (EPIPE), as `allreduce-lab sweep | head -0` would.
    let mut child = Command::new(env!("CARGO_BIN_EXE_allreduce-lab"))
        .args(["sweep", "--ranks", "64", "--max-size", "1GB", "--json"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    drop(child.stdout.take());
    let out = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{err}");
    assert!(err.is_empty(), "nothing said on a broken pipe: {err}");
}

#[test]
fn a_full_disk_is_one_line_and_a_failure_not_a_panic() {
    let Ok(full) = std::fs::OpenOptions::new().write(true).open("/dev/full") else {
        eprintln!("no /dev/full here; nothing to test");
        return;
    };
    let out = Command::new(env!("CARGO_BIN_EXE_allreduce-lab"))
        .args(["simulate", "--ranks", "4", "--size", "4MB"])
        .stdout(full)
        .output()
        .expect("the binary runs");
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert_eq!(err.trim().lines().count(), 1, "{err}");
    assert!(err.contains("cannot write the output"), "{err}");
    assert!(!err.contains("panicked"), "{err}");
}

#[test]
fn switches_take_no_value_and_valued_flags_take_both_forms() {
    all_refused(&[
        ("simulate --json=false", "takes no value"),
        ("simulate --json=true", "takes no value"),
        ("speedup --json=no", "takes no value"),
        ("simulate --help=1", "takes no value"),
    ]);
    let spaced = json(&["simulate", "--ranks", "16", "--size", "4MB", "--json"]);
    let joined = json(&["simulate", "--ranks=16", "--size=4MB", "--json"]);
    assert_eq!(spaced["ranks"], 16);
    assert_eq!(spaced, joined);
}

#[test]
fn speedup_gamma_slows_the_allreduce_and_the_step() {
    let base = ["speedup", "--model", "resnet50", "--ranks", "16", "--json"];
    let plain = json(&base);
    let slow = json(&[&base[..], &["--gamma", "1e-10"]].concat());
    assert_eq!(plain["gamma_s_per_byte"], 0.0);
    assert_eq!(slow["gamma_s_per_byte"], 1e-10);
    let rows = |v: &serde_json::Value| v["rows"].as_array().unwrap().clone();
    let (p, s) = (rows(&plain), rows(&slow));
    assert_eq!(p.len(), s.len());
    // One GPU reduces nothing; from two GPUs on, every allreduce is slower and so is the speedup.
    assert_eq!(p[0], s[0]);
    for (p, s) in p.iter().zip(&s).skip(1) {
        let f = |v: &serde_json::Value, k: &str| v[k].as_f64().unwrap();
        assert!(f(s, "comm_secs") > f(p, "comm_secs"), "{p} vs {s}");
        assert!(f(s, "speedup") < f(p, "speedup"), "{p} vs {s}");
    }
    // The table says so too.
    let (code, out, _) = cli(&["speedup", "--model", "resnet50", "--gamma", "1e-10"]);
    assert_eq!(code, 0);
    assert!(out.contains("reduction cost 1e-10 s/B"), "{out}");
}

#[test]
fn a_preset_refuses_the_flags_it_would_override() {
    all_refused(&[
        (
            "speedup --preset eight-gpus-6-7x --gamma 1e-10",
            "--gamma cannot be combined with --preset",
        ),
        (
            "speedup --preset eight-gpus-6-7x --ranks 4",
            "--ranks cannot be combined with --preset",
        ),
    ]);
}

#[test]
fn counts_and_sizes_beyond_the_limits_are_refused_before_anything_runs() {
    // Simulating 2…2048 GPUs first took 8 s in release; refusing first takes a process start.
    for (line, needle) in [
        ("speedup --max-gpus 4096", "transfers"),
        ("sweep --ranks 512 --min-size 1MB --max-size 2TB", "1 TB"),
    ] {
        let started = std::time::Instant::now();
        refused(line, &[needle]);
        let took = started.elapsed();
        assert!(
            took < std::time::Duration::from_secs(1),
            "{line} took {took:?}"
        );
    }
}

#[test]
fn scenario_files_with_a_byte_order_mark_or_in_utf16_run_and_junk_is_refused() {
    let dir = temp_dir("encodings");
    let utf16 = |bom: [u8; 2], be: bool| -> Vec<u8> {
        bom.into_iter()
            .chain(
                SMALL_SCENARIO
                    .encode_utf16()
                    .flat_map(move |u| if be { u.to_be_bytes() } else { u.to_le_bytes() }),
            )
            .collect()
    };
    let files: [(&str, Vec<u8>); 3] = [
        (
            "bom.json",
            [&[0xEF, 0xBB, 0xBF][..], SMALL_SCENARIO.as_bytes()].concat(),
        ),
        ("le.json", utf16([0xFF, 0xFE], false)),
        ("be.json", utf16([0xFE, 0xFF], true)),
    ];
    for (name, bytes) in files {
        let path = dir.join(name);
        std::fs::write(&path, bytes).unwrap();
        let v = json(&["simulate", "--scenario", path.to_str().unwrap(), "--json"]);
        assert_eq!(v["ranks"], 4, "{name}");
    }
    let junk = dir.join("junk.json");
    std::fs::write(&junk, b"{\x00\x00\x00").unwrap();
    refused(
        &format!("simulate --scenario '{}'", junk.display()),
        &["NUL"],
    );
    // A device that never ends is refused by size, not read for ever.
    all_refused(&[("simulate --scenario /dev/zero", "larger than 64 KB")]);
}

#[test]
fn microseconds_are_read_with_the_micro_sign_and_with_greek_mu() {
    let base = ["simulate", "--ranks", "8", "--size", "1KB", "--json"];
    let t = |lat: &str| {
        json(&[&base[..], &["--latency", lat]].concat())["time_s"]
            .as_f64()
            .unwrap()
    };
    let ascii = t("5us");
    assert_eq!(t("5\u{b5}s"), ascii);
    assert_eq!(t("5\u{3bc}s"), ascii);
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
    let cases: &[(&str, &str)] = &[
        ("simulate --slow-link rank3-spine=0", "from 0.000001 to 1"),
        ("simulate --slow-link rank3-spine=1.5", "from 0.000001 to 1"),
        ("simulate --slow-link rank3-spine=-1", "from 0.000001 to 1"),
        ("simulate --slow-link rank3-spine=NaN", "from 0.000001 to 1"),
        // A factor so near 0 that the run's time came out infinite ("time inf s", exit 0).
        (
            "simulate --slow-link rank0-spine=4.9e-324",
            "from 0.000001 to 1",
        ),
        // Echoed as given (it printed 300 digits).
        (
            "simulate --slow-link rank0-spine=1e-300",
            "factor 1e-300 is out of range",
        ),
        ("simulate --slow-link rank3-spine=fast", "not a number"),
        ("simulate --slow-link rank3-spine", "FROM-TO=FACTOR"),
        ("simulate --slow-link rank3=0.5", "FROM-TO"),
        ("simulate --slow-link gpu3-spine=0.5", "rankN, nodeN"),
        ("simulate --slow-link rank8-spine=0.5", "no such link"),
        ("simulate --slow-link node0-rack0=0.5", "no such link"),
        (
            "simulate --slow-link rank1-spine=0.5 --slow-link spine-rank1=0.2",
            "given twice",
        ),
        ("simulate --straggler 8=1us", "0..7"),
        ("simulate --straggler -1=1us", "not a rank"),
        ("simulate --straggler 3", "RANK=DELAY"),
        ("simulate --straggler 3=soon", "--straggler"),
        ("simulate --straggler 3=11s", "0..10 s"),
        (
            "simulate --straggler 3=1us --straggler 3=2us",
            "given twice",
        ),
    ];
    all_refused(cases);
}

// --- What the command line says about itself: help, "did you mean" for a misspelling, and shell
// completion scripts whose values come from the data (algorithms, chapter presets, systems).

use allreduce_lab::course::chapter::CHAPTER_SCENARIOS;
use allreduce_lab::sim::algorithms::Algorithm;
use allreduce_lab::sim::nccl::system::PRESETS;

const COMMANDS: [&str; 6] = [
    "simulate",
    "sweep",
    "speedup",
    "nccl-tests",
    "calibrate",
    "completions",
];

#[test]
fn completions_bash_prints_a_script_naming_every_command_and_the_datas_values() {
    let (code, out, err) = cli(&["completions", "bash"]);
    assert_eq!(code, 0, "{err}");
    assert!(err.is_empty(), "{err}");
    assert!(out.contains("complete -F"), "not a bash completion script");
    for c in COMMANDS {
        assert!(out.contains(c), "lacks the command {c}");
    }
    for flag in ["--ranks", "--slow-link", "--min-size", "--measured"] {
        assert!(out.contains(flag), "lacks {flag}");
    }
    // The values a flag may take are the data's own lists, not a second copy.
    for id in CHAPTER_SCENARIOS.iter().map(|s| s.id) {
        assert!(out.contains(id), "lacks the preset {id}");
    }
    for a in Algorithm::ALL {
        assert!(out.contains(a.name()), "lacks the algorithm {}", a.name());
    }
    for s in PRESETS {
        assert!(out.contains(s), "lacks the system {s}");
    }
}

#[test]
fn completions_for_zsh_and_fish_too_and_an_unknown_shell_is_one_line_and_exit_2() {
    for shell in ["zsh", "fish"] {
        let (code, out, err) = cli(&["completions", shell]);
        assert_eq!(code, 0, "{shell}: {err}");
        for c in COMMANDS {
            assert!(out.contains(c), "{shell} lacks {c}");
        }
    }
    let (code, out, err) = cli(&["completions", "tcsh"]);
    assert_eq!(code, 2, "{err}");
    assert!(out.is_empty());
    assert_eq!(err.trim().lines().count(), 1, "{err}");
    assert!(err.contains("tcsh") && err.contains("bash"), "{err}");
}

#[test]
fn a_misspelt_flag_or_command_gets_did_you_mean_and_exit_2() {
    for (args, needle) in [
        (
            &["simulate", "--rnaks", "4"][..],
            "unknown flag '--rnaks'; did you mean '--ranks'?",
        ),
        (
            &["nccl-tests", "--sytem", "dgx-h100"][..],
            "did you mean '--system'?",
        ),
        (&["sweep", "--step-factr", "4"][..], "'--step-factor'"),
        (
            &["simualte", "--ranks", "4"][..],
            "did you mean 'simulate'?",
        ),
    ] {
        let (code, out, err) = cli(args);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(out.is_empty(), "{args:?}: {out}");
        assert_eq!(err.trim().lines().count(), 1, "{args:?}: {err}");
        assert!(err.contains(needle), "{args:?}: '{err}' lacks '{needle}'");
    }
}

#[test]
fn help_lists_the_commands_and_each_commands_flags_with_their_defaults() {
    for args in [&[][..], &["help"], &["--help"]] {
        let (code, out, _) = cli(args);
        assert_eq!(code, 0, "{args:?}");
        for c in COMMANDS {
            assert!(out.contains(c), "{args:?}: lacks {c}");
        }
    }
    let (code, out, _) = cli(&["simulate", "--help"]);
    assert_eq!(code, 0);
    for (flag, default) in [
        ("--ranks", "[default: 8]"),
        ("--bandwidth", "[default: 100GB/s]"),
        ("--size", "[default: 1GiB]"),
        ("--pxn", "[default: on]"),
    ] {
        let line = out.lines().find(|l| l.contains(flag)).unwrap_or("");
        assert!(line.contains(default), "{flag}: '{line}'");
    }
    let (code, out, _) = cli(&["nccl-tests", "--help"]);
    assert_eq!(code, 0);
    assert!(out.contains("-b, --min-size"), "{out}");
}

/// What bash offers for the words typed so far (the last one being completed), by running the
/// script as bash's completion would.
fn bash_complete(script: &std::path::Path, words: &[&str]) -> Vec<String> {
    let words_q: Vec<String> = words.iter().map(|w| format!("'{w}'")).collect();
    let n = words.len() - 1;
    let (cur, prev) = (words[n], words[n - 1]);
    let program = format!(
        "source '{}'; COMP_WORDS=({}); COMP_CWORD={n}; _allreduce__lab allreduce-lab '{cur}' '{prev}'; printf '%s\\n' \"${{COMPREPLY[@]}}\"",
        script.display(),
        words_q.join(" ")
    );
    let out = Command::new("bash")
        .args(["-c", &program])
        .output()
        .expect("bash runs");
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(str::to_string)
        .filter(|l| !l.is_empty())
        .collect()
}

#[test]
fn the_bash_script_completes_subcommands_flags_and_values() {
    if Command::new("bash").arg("--version").output().is_err() {
        eprintln!("no bash here; nothing to test");
        return;
    }
    let (_, script, _) = cli(&["completions", "bash"]);
    let dir = std::env::temp_dir().join(format!("allreduce-lab-compl-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("allreduce-lab.bash");
    std::fs::write(&path, script).unwrap();
    assert_eq!(
        bash_complete(&path, &["allreduce-lab", "sim"]),
        ["simulate"]
    );
    assert_eq!(
        bash_complete(&path, &["allreduce-lab", "simulate", "--topo"]),
        ["--topology"]
    );
    let presets: Vec<String> = CHAPTER_SCENARIOS.iter().map(|s| s.id.to_string()).collect();
    assert_eq!(
        bash_complete(&path, &["allreduce-lab", "speedup", "--preset", ""]),
        presets
    );
    assert_eq!(
        bash_complete(&path, &["allreduce-lab", "nccl-tests", "--system", "dgx-h"]),
        ["dgx-h100", "dgx-h200"]
    );
}

#[test]
fn the_readme_says_what_every_lower_bound_kind_of_the_json_means() {
    use allreduce_lab::sim::trace::BoundKind;
    let readme = include_str!("../README.md");
    let kinds = [
        BoundKind::Injection,
        BoundKind::InjectionWithNics,
        BoundKind::NodeTier,
        BoundKind::RackTier,
    ];
    for kind in kinds {
        // A kind added to the enum stops this from compiling until it is listed above.
        match kind {
            BoundKind::Injection
            | BoundKind::InjectionWithNics
            | BoundKind::NodeTier
            | BoundKind::RackTier => {}
        }
        let name = serde_json::to_value(kind).expect("a kind serialises");
        let name = name.as_str().expect("as a string");
        assert!(readme.contains(&format!("`{name}` (")), "{name}");
    }
}

#[test]
fn a_flag_the_run_would_not_use_is_refused_by_name() {
    // Each of these ran without it, silently: another topology's flag, a topology flag beside
    // --system or --scenario.
    for (args, says) in [
        (
            &["simulate", "--topology", "rail", "--ranks", "4"][..],
            "--ranks does not apply to --topology rail",
        ),
        (
            &["simulate", "--racks", "4"],
            "--racks does not apply to --topology uniform",
        ),
        (
            &["simulate", "--topology", "cluster", "--bandwidth", "1GB/s"],
            "--bandwidth does not apply to --topology cluster",
        ),
        (
            &["simulate", "--topology", "uniform", "--pxn", "off"],
            "--pxn does not apply to --topology uniform",
        ),
        (
            &["simulate", "--system", "dgx-h100", "--racks", "4"],
            "--racks does not apply with --system",
        ),
        (
            &["simulate", "--system", "dgx-h100", "--topology", "cluster"],
            "--topology does not apply with --system",
        ),
        (
            &["sweep", "--topology", "rail", "--node-bw", "1Gbps"],
            "--node-bw does not apply to --topology rail",
        ),
    ] {
        let (code, out, err) = cli(args);
        assert_eq!(code, 2, "{args:?}: {out}");
        assert!(err.contains(says), "{args:?}: {err}");
    }
    // The flags each kind shares still work.
    let v = json(&[
        "simulate",
        "--topology",
        "rail",
        "--nodes",
        "2",
        "--gpus-per-node",
        "4",
        "--oversubscription",
        "2",
        "--json",
    ]);
    assert_eq!(v["ranks"], 8);
    // A scenario file holds the whole scenario: no flag beside it.
    let dir = temp_dir("unused");
    let file = dir.join("s.json");
    std::fs::write(&file, SMALL_SCENARIO).unwrap();
    json(&["simulate", "--scenario", file.to_str().unwrap(), "--json"]);
    for flag in [
        &["--ranks", "8"][..],
        &["--algorithm", "tree-flat"],
        &["--straggler", "1=1ms"],
    ] {
        let args: Vec<&str> = ["simulate", "--scenario", file.to_str().unwrap()]
            .into_iter()
            .chain(flag.iter().copied())
            .collect();
        let (code, _, err) = cli(&args);
        assert_eq!(code, 2, "{args:?}");
        assert!(err.contains("does not apply with --scenario"), "{err}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn faults_apply_to_a_system_run_under_the_textbook_model() {
    // They were dropped: `--straggler 99=1ms` on 8 GPUs ran healthy.
    let (code, _, err) = cli(&["simulate", "--system", "dgx-h100", "--straggler", "99=1ms"]);
    assert_ne!(code, 0);
    assert!(err.contains("straggler rank 99 does not exist"), "{err}");
    let healthy = json(&[
        "simulate", "--system", "dgx-h100", "--size", "1MB", "--json",
    ]);
    let late = json(&[
        "simulate",
        "--system",
        "dgx-h100",
        "--size",
        "1MB",
        "--straggler",
        "3=1ms",
        "--json",
    ]);
    let (h, l) = (
        healthy["time_s"].as_f64().unwrap(),
        late["time_s"].as_f64().unwrap(),
    );
    assert!(l >= h + 1e-3 - 1e-12, "{h} s, late {l} s");
}

#[test]
fn an_error_is_one_line_of_printable_text_whatever_the_value() {
    // A newline in a value cut the message in two; an escape sequence reached the terminal; a
    // 100 KB value was echoed whole.
    let (code, _, err) = cli(&["simulate", "--algorithm", "ring\nx"]);
    assert_eq!(code, 2);
    assert_eq!(err.trim_end().lines().count(), 1, "{err}");
    assert!(err.contains("ring\\nx"), "{err}");
    assert!(
        err.contains("expected"),
        "the valid values are still listed: {err}"
    );
    let (_, _, err) = cli(&["simulate", "--scenario", "/nonexistent/\u{1b}[31mred"]);
    assert!(
        !err.contains('\u{1b}') && err.contains("\\u{1b}[31mred"),
        "{err:?}"
    );
    let long = "9".repeat(100_000);
    let (code, _, err) = cli(&["simulate", "--ranks", &long]);
    assert_eq!(code, 2);
    assert!(
        err.len() < 1_000 && err.contains('…'),
        "{} bytes",
        err.len()
    );
}

#[test]
fn a_slow_link_that_is_not_there_is_answered_with_this_topologys_cable_names() {
    // The examples were fixed (rank0-node0, node0-rack0, …), the refused name among them.
    let (code, _, err) = cli(&["simulate", "--slow-link", "node0-rack0=0.5"]);
    assert_eq!(code, 2);
    assert!(err.contains("here, e.g. rank0-spine"), "{err}");
    assert!(!err.contains("node0-rack0,"), "{err}");
    let (_, _, err) = cli(&[
        "simulate",
        "--topology",
        "cluster",
        "--nics-per-node",
        "2",
        "--slow-link",
        "node0-rack0=0.5",
    ]);
    assert!(
        err.contains("here, e.g. rank0-node0, node0.nic0-rack0, rack0-spine"),
        "{err}"
    );
}

#[test]
fn a_scenario_file_a_system_file_and_speedup_refuse_the_flags_they_would_drop() {
    let dir = temp_dir("dropped");
    let file = dir.join("s.json");
    std::fs::write(&file, SMALL_SCENARIO).unwrap();
    let f = file.to_str().unwrap();
    for (args, says) in [
        // The file's size won; the system was ignored for the file.
        (
            &["simulate", "--scenario", f, "--size", "1MB"][..],
            "--size does not apply with --scenario",
        ),
        (
            &["simulate", "--scenario", f, "--system", "dgx-h100"],
            "--system does not apply with --scenario",
        ),
        // A system file has its own size.
        (
            &["simulate", "--system-file", f, "--nodes", "4"],
            "--nodes does not apply with --system-file",
        ),
        // speedup models healthy networks of the flags' topology.
        (
            &["speedup", "--topology", "rail", "--ranks", "4"],
            "--ranks does not apply to --topology rail",
        ),
        (
            &["speedup", "--straggler", "1=1ms"],
            "--straggler does not apply to speedup",
        ),
    ] {
        let (code, _, err) = cli(args);
        assert_eq!(code, 2, "{args:?}");
        assert!(err.contains(says), "{args:?}: {err}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_run_that_does_not_verify_keeps_its_report_whole() {
    // Only the message is made printable: the report after it is our own, JSON included (cut at
    // 120 characters it was no longer JSON).
    let (message, report) = (
        "the result did not verify: rank 3\u{1b}",
        "{\"a\":\"".to_string() + &"x".repeat(500) + "\"}",
    );
    let shown = allreduce_lab::cli::printable_error(&format!("{message}\n{report}"));
    assert_eq!(
        shown,
        format!("error: the result did not verify: rank 3\\u{{1b}}\n{report}")
    );
}
