//! The real-hardware commands, run as a user would.
#![cfg(not(target_arch = "wasm32"))]

mod common;
use common::{cli, refused};

fn ok(args: &[&str]) -> String {
    let (code, out, err) = cli(args);
    assert_eq!(code, 0, "{args:?}: {err}");
    out
}

fn json(args: &[&str]) -> serde_json::Value {
    serde_json::from_str(&ok(args)).expect("one JSON object")
}

fn data(file: &str) -> String {
    format!(
        "{}/src/sim/nccl/published/{file}",
        env!("CARGO_MANIFEST_DIR")
    )
}

fn tmp(name: &str, text: &str) -> String {
    let dir = std::env::temp_dir().join(format!("allreduce-lab-nccl-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p.to_string_lossy().into_owned()
}

#[test]
fn nccl_tests_prints_every_size_from_b_to_e_in_all_reduce_perf_layout() {
    let out = ok(&[
        "nccl-tests",
        "--system",
        "dgx-h100",
        "-b",
        "8",
        "-e",
        "16GiB",
        "-f",
        "2",
    ]);
    let rows: Vec<&str> = out.lines().filter(|l| !l.starts_with('#')).collect();
    assert_eq!(rows.len(), 32);
    for (i, row) in rows.iter().enumerate() {
        let cols: Vec<&str> = row.split_whitespace().collect();
        let size = 8u64 << i;
        assert_eq!(cols[0], size.to_string());
        assert_eq!(cols[1], (size / 4).to_string());
        assert_eq!(&cols[2..5], &["float", "sum", "-1"]);
        assert!(["Ring", "Tree", "NVLS"].contains(&cols[8]), "{row}");
        assert!(["LL", "LL128", "Simple"].contains(&cols[9]), "{row}");
    }
    assert!(out.contains("time   algbw   busbw"));
    // Our own table reads back as all_reduce_perf output.
    let parsed = allreduce_lab::sim::nccl::nccl_tests_parse::parse(&out).unwrap();
    assert_eq!(parsed.rows.len(), 32);
    assert_eq!(parsed.implied_ranks(), Some(8));
}

#[test]
fn nccl_tests_sizes_accept_k_m_g_and_the_projects_units() {
    let a = ok(&[
        "nccl-tests",
        "--system",
        "dgx-a100",
        "-b",
        "1K",
        "-e",
        "1M",
        "-f",
        "4",
    ]);
    let b = ok(&[
        "nccl-tests",
        "--system",
        "dgx-a100",
        "-b",
        "1KiB",
        "-e",
        "1048576",
        "-f",
        "4",
    ]);
    assert_eq!(a, b);
    assert_eq!(a.lines().filter(|l| !l.starts_with('#')).count(), 6);
    let c = ok(&[
        "nccl-tests",
        "--system",
        "dgx-a100",
        "-b",
        "1KB",
        "-e",
        "1KB",
    ]);
    assert!(c.lines().any(|l| l.trim_start().starts_with("1000 ")));
}

#[test]
fn nccl_tests_json_has_the_documented_keys() {
    let v = json(&[
        "nccl-tests",
        "--system",
        "dgx-h100",
        "--nodes",
        "2",
        "--gpus-per-node",
        "8",
        "--nvls",
        "off",
        "-b",
        "8",
        "-e",
        "1GiB",
        "-f",
        "32",
        "--json",
    ]);
    assert_eq!(v["system"]["name"], "dgx-h100");
    assert_eq!(v["system"]["nodes"], 2);
    let rows = v["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 6); // 8 B × 32^k up to 1 GiB
    for r in rows {
        let mut keys: Vec<&str> = r.as_object().unwrap().keys().map(String::as_str).collect();
        keys.sort();
        assert_eq!(
            keys,
            [
                "algbw_GBps",
                "algorithm",
                "busbw_GBps",
                "channels",
                "protocol",
                "size_bytes",
                "time_us"
            ]
        );
        let (s, t) = (
            r["size_bytes"].as_f64().unwrap(),
            r["time_us"].as_f64().unwrap(),
        );
        assert!((r["algbw_GBps"].as_f64().unwrap() - s / t / 1e3).abs() < 1e-9);
        assert!(
            (r["busbw_GBps"].as_f64().unwrap() / r["algbw_GBps"].as_f64().unwrap() - 30.0 / 16.0)
                .abs()
                < 1e-9
        );
    }
}

#[test]
fn sweep_with_the_nccl_model_is_nccl_tests_spelled_differently() {
    let a = ok(&[
        "nccl-tests",
        "--system",
        "pcie-gen5-8",
        "-b",
        "8",
        "-e",
        "1GiB",
        "-f",
        "8",
    ]);
    let b = ok(&[
        "sweep",
        "--model",
        "nccl",
        "--system",
        "pcie-gen5-8",
        "--min-size",
        "8",
        "--max-size",
        "1GiB",
        "--step-factor",
        "8",
    ]);
    assert_eq!(a, b);
}

#[test]
fn switching_the_model_moves_8_h100_from_the_wire_rate_to_what_nccl_reaches() {
    let ideal = json(&[
        "simulate", "--model", "ideal", "--system", "dgx-h100", "--size", "8GiB", "--json",
    ]);
    let ideal_busbw = ideal["busbw_GBps"].as_f64().unwrap();
    assert!((445.0..=450.0).contains(&ideal_busbw), "{ideal_busbw}");
    let nccl = json(&[
        "simulate", "--model", "nccl", "--system", "dgx-h100", "--nvls", "off", "--size", "8GiB",
        "--json",
    ]);
    let busbw = nccl["busbw_GBps"].as_f64().unwrap();
    assert!((355.0..=375.0).contains(&busbw), "{busbw}");
    assert_eq!(nccl["algorithm"], "Ring");
    assert!(
        nccl["reason"]
            .as_str()
            .unwrap()
            .contains("lowest time NCCL's tuner predicts")
    );
    assert!(nccl["candidates"].as_array().unwrap().len() >= 3);
}

#[test]
fn calibrate_prints_fitted_values_and_both_tables_and_writes_a_system_file() {
    let out_file = tmp("a100-2.json", "");
    let out = ok(&[
        "calibrate",
        "--system",
        "dgx-a100",
        "--nodes",
        "2",
        "--measured",
        &data("dgx-a100-2nodes-ib-hdr.txt"),
        "--out",
        &out_file,
    ]);
    for needle in [
        "launch_us",
        "intra_efficiency",
        "nic_efficiency",
        "net_latency_us",
        "geometric-mean error",
        "measured (us)",
        "predicted (us)",
    ] {
        assert!(out.contains(needle), "lacks {needle}:\n{out}");
    }
    let rows = out.lines().filter(|l| !l.starts_with('#')).count();
    assert_eq!(rows, 8);
    let again = ok(&[
        "nccl-tests",
        "--system-file",
        &out_file,
        "-b",
        "8",
        "-e",
        "8GiB",
        "-f",
        "8",
        "--json",
    ]);
    let v: serde_json::Value = serde_json::from_str(&again).unwrap();
    assert_eq!(v["system"]["name"], "dgx-a100 (calibrated)");
    assert_eq!(v["rows"].as_array().unwrap().len(), 11);
    let j = json(&[
        "calibrate",
        "--system",
        "dgx-h100",
        "--measured",
        &data("dgx-h100-1node.txt"),
        "--json",
    ]);
    assert!(j["geomean_error"].as_f64().unwrap() < 0.08);
    assert_eq!(j["rows"].as_array().unwrap().len(), 11);
    assert!(
        j["fitted"][0]["meaning"]
            .as_str()
            .unwrap()
            .contains("latency floor")
    );
}

#[test]
fn bad_input_exits_2_naming_the_problem_and_the_line() {
    refused(
        "nccl-tests --system cray-1",
        &["unknown system 'cray-1'", "dgx-h100"],
    );
    refused("nccl-tests --system dgx-h100 --nodes 129", &["--nodes"]);
    refused(
        "nccl-tests --system dgx-h100 --gpus-per-node 1",
        &["GPUs per node"],
    );
    refused("nccl-tests --system dgx-h100 --nvls maybe", &["--nvls"]);
    refused("nccl-tests --system dgx-h100 -b 8X", &["--min-size"]);
    refused("nccl-tests --system dgx-h100 -b 1G -e 1K", &["min"]);
    // Sizes above 1 TB, which the NCCL-like model's NVLS simulation would take minutes and
    // terabytes over (10^18 B aborted on a failed allocation), are refused at once.
    refused(
        "nccl-tests --system dgx-h100 -e 16777215T",
        &["--max-size must be at most 1 TB"],
    );
    refused(
        "simulate --model nccl --system dgx-h100 --size 1e18",
        &["size must be at most 1 TB, got 1000000000000000000 bytes"],
    );
    refused("nccl-tests", &["--system is required"]);
    // The flag out of range is the one named (it said --system).
    refused(
        "nccl-tests --system dgx-h100 --gpus-per-node 1",
        &["--gpus-per-node: GPUs per node must be between 2 and 8, got 1"],
    );
    refused(
        "sweep --model nccl --system dgx-h100 --ranks 4",
        &["--ranks"],
    );
    refused("simulate --model quantum", &["--model"]);
    let prose = tmp("prose.txt", "Dear diary,\nthe cluster was slow today.\n");
    refused(
        &format!("calibrate --system dgx-a100 --measured '{prose}'"),
        &["not all_reduce_perf output"],
    );
    let nan = tmp(
        "nan.txt",
        "# header\n8 2 float sum -1 18.75 0 0 0\n1024 256 float sum -1 NaN 0 0 0\n",
    );
    refused(
        &format!("calibrate --system dgx-a100 --measured '{nan}'"),
        &["line 3", "NaN"],
    );
    let neg = tmp("neg.txt", "8 2 float sum -1 -18.75 0 0 0\n");
    refused(
        &format!("calibrate --system dgx-a100 --measured '{neg}'"),
        &["line 1", "from 0.001 to 1e10"],
    );
    // Times no run takes: the fit's error was infinite and a calibrated system could be written.
    let absurd = tmp(
        "absurd.txt",
        "8 2 float sum -1 1e308 0 0 0
16 4 float sum -1 20 0 0 0
32 8 float sum -1 21 0 0 0
",
    );
    refused(
        &format!("calibrate --system dgx-a100 --measured '{absurd}'"),
        &["line 1", "1e308", "from 0.001 to 1e10"],
    );
    let tiny = tmp(
        "tiny.txt",
        "8 2 float sum -1 1e-308 0 0 0
",
    );
    refused(
        &format!("calibrate --system dgx-a100 --measured '{tiny}'"),
        &["line 1", "from 0.001 to 1e10"],
    );
    // The fit written over the measurements it came from, which were lost.
    let measured = data("dgx-a100-1node.txt");
    let copy = tmp("measured.txt", &std::fs::read_to_string(&measured).unwrap());
    refused(
        &format!("calibrate --system dgx-a100 --measured '{copy}' --out '{copy}'"),
        &["--out", "is the --measured file"],
    );
    assert_eq!(
        std::fs::read_to_string(&copy).unwrap(),
        std::fs::read_to_string(&measured).unwrap()
    );
    let two = tmp(
        "two.txt",
        "8 2 float sum -1 18.75 0 0 0\n1024 256 float sum -1 20.35 0.05 0.09 0\n",
    );
    refused(
        &format!("calibrate --system dgx-a100 --measured '{two}'"),
        &["at least 3 rows"],
    );
    refused(
        &format!(
            "calibrate --system dgx-a100 --measured '{}'",
            data("dgx-a100-2nodes-ib-hdr.txt")
        ),
        &["16 GPUs", "8"],
    );
    refused(
        "calibrate --system dgx-a100 --measured /nonexistent/x.txt",
        &["cannot read"],
    );
    let notsys = tmp(
        "notsys.json",
        "{\n  \"name\": \"x\",\n  \"arch\": \"vacuum-tube\"\n}\n",
    );
    refused(
        &format!("nccl-tests --system-file '{notsys}'"),
        &["not a system file", "line 3"],
    );
    // A value past its range reads in a line (1e300 printed as 301 digits).
    let h100 = data("dgx-h100-1node.txt");
    let fitted = json(&[
        "calibrate",
        "--system",
        "dgx-h100",
        "--measured",
        &h100,
        "--json",
    ]);
    let mut far = fitted["system"].clone();
    far["net_latency_us"] = serde_json::json!(1e300);
    let far = tmp("far.json", &far.to_string());
    refused(
        &format!("nccl-tests --system-file '{far}'"),
        &["net_latency_us", "got 1e300"],
    );
    // A name's control characters are shown escaped, not sent to the terminal, and so is a
    // bidirectional override, which would show the rest of the line reversed.
    let mut evil = fitted["system"].clone();
    evil["name"] = serde_json::json!("evil\u{1b}[31mRED\nfake line\u{202e}desrever");
    let evil = tmp("evil.json", &evil.to_string());
    // `ok` asserts the run succeeds.
    let text = ok(&["nccl-tests", "--system-file", &evil, "-e", "64"]);
    assert!(
        !text.contains('\u{1b}')
            && !text.contains('\u{202e}')
            && text.contains("evil\\u{1b}[31mRED\\nfake line\\u{202e}desrever"),
        "{text}"
    );
    assert!(
        text.lines().all(|l| l.starts_with('#')
            || l.trim_start().starts_with(char::is_numeric)
            || l.is_empty()),
        "{text}"
    );
    let mut sys = json(&[
        "nccl-tests",
        "--system",
        "dgx-a100",
        "-b",
        "8",
        "-e",
        "8",
        "--json",
    ])["system"]
        .clone();
    sys["intra_efficiency"] = serde_json::json!(7.5);
    let bad = tmp("bad-eff.json", &sys.to_string());
    refused(
        &format!("nccl-tests --system-file '{bad}'"),
        &["intra_efficiency"],
    );
    // Files are read only up to a bound (/dev/zero used 2 GB in under two seconds).
    refused(
        "nccl-tests --system-file /dev/zero",
        &["--system-file: '/dev/zero' is larger than 64 KB"],
    );
    refused(
        "calibrate --system dgx-a100 --measured /dev/zero",
        &["--measured: '/dev/zero' is larger than 1 MB"],
    );
    let latin1 = std::env::temp_dir().join("allreduce-lab-latin1.txt");
    std::fs::write(&latin1, b"8 2 float sum -1 \xb5s\n").unwrap();
    refused(
        &format!(
            "calibrate --system dgx-a100 --measured '{}'",
            latin1.display()
        ),
        &["is not UTF-8 text"],
    );
}

#[test]
fn speedup_with_the_nccl_model_uses_each_counts_predicted_allreduce() {
    use allreduce_lab::course::chapter::ModelPreset;
    use allreduce_lab::sim::nccl::model::predict_fast;
    use allreduce_lab::sim::nccl::system::System;
    let v = json(&[
        "speedup", "--model", "nccl", "--system", "dgx-h100", "--nodes", "2", "--nvls", "off",
        "--model", "gpt2-xl", "--json",
    ]);
    assert_eq!(v["model"], "nccl");
    let rows = v["rows"].as_array().unwrap();
    let gpus: Vec<u64> = rows.iter().map(|r| r["gpus"].as_u64().unwrap()).collect();
    assert_eq!(gpus, vec![1, 2, 4, 8, 16]);
    let model = ModelPreset::find("gpt2-xl").unwrap().training(0.0, 10e9);
    assert_eq!(v["gradient_bytes"], model.gradient_bytes());
    // 8 GPUs: one box, NVLS off → NCCL's ring; 16: two boxes.
    for (i, nodes, g) in [(3, 1, 8), (4, 2, 8)] {
        let c = predict_fast(
            &System::preset("dgx-h100", nodes, g).unwrap(),
            model.gradient_bytes(),
            false,
        )
        .unwrap();
        assert_eq!(rows[i]["comm_secs"].as_f64().unwrap(), c.time_secs);
        assert_eq!(rows[i]["algorithm"], c.algorithm.name());
        assert_eq!(rows[i]["protocol"], c.protocol.name());
        let step = model.step(gpus[i] as usize, c.time_secs);
        assert_eq!(rows[i]["speedup"].as_f64().unwrap(), step.speedup);
    }
    assert_eq!(rows[0]["speedup"].as_f64().unwrap(), 1.0);
    // The text table names NCCL's choice per count.
    let text = ok(&["speedup", "--model=nccl", "--system", "dgx-a100"]);
    assert!(text.starts_with("like NCCL on dgx-a100"), "{text}");
    assert_eq!(
        text.lines().filter(|l| l.contains(" channels")).count(),
        3,
        "{text}"
    );
    // The textbook model stays the default, and `--model ideal` says so explicitly.
    assert_eq!(
        ok(&["speedup", "--max-gpus", "8"]),
        ok(&["speedup", "--model", "ideal", "--max-gpus", "8"])
    );
}

#[test]
fn speedup_with_the_nccl_model_refuses_what_it_cannot_take() {
    refused("speedup --model nccl", &["--system is required"]);
    refused(
        "speedup --model nccl --system dgx-h100 --ranks 8",
        &["unknown flag '--ranks'"],
    );
    refused("speedup --model nccl --model ideal", &["twice"]);
    refused(
        "speedup --model nccl --system dgx-h100 --max-gpus 2048",
        &["--max-gpus", "1024"],
    );
    refused(
        "speedup --model nccl --system dgx-h100 --nvls maybe",
        &["--nvls"],
    );
}
