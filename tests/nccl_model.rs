//! The "like NCCL" model against published all_reduce_perf tables, and its invariants.

use allreduce_lab::sim::nccl::model::predict;
use allreduce_lab::sim::nccl::nccl_tests_parse::{parse, MeasuredTable};
use allreduce_lab::sim::nccl::system::System;

/// (file, preset, nodes)
const TABLES: [(&str, &str, usize); 4] = [
    ("dgx-a100-1node.txt", "dgx-a100", 1),
    ("dgx-a100-2nodes-ib-hdr.txt", "dgx-a100", 2),
    ("dgx-h100-1node.txt", "dgx-h100", 1),
    ("pcie-gen4-8-rtx4090-no-p2p.txt", "pcie-gen4-8", 1),
];

fn table(file: &str) -> MeasuredTable {
    let path = format!(
        "{}/tests/data/calibration/{file}",
        env!("CARGO_MANIFEST_DIR")
    );
    parse(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// Per row: predicted / measured time.
fn ratios(sys: &System, t: &MeasuredTable) -> Vec<f64> {
    t.rows
        .iter()
        .map(|r| {
            let c = predict(sys, r.size_bytes, true).unwrap();
            let ratio = c.time_secs * 1e6 / r.time_us;
            println!(
                "{:>12} measured {:>9.2} us predicted {:>9.2} us ({:+.1} %) {}/{} ch {}",
                r.size_bytes,
                r.time_us,
                c.time_secs * 1e6,
                (ratio - 1.0) * 100.0,
                c.algorithm,
                c.protocol,
                c.channels
            );
            ratio
        })
        .collect()
}

/// exp(mean |ln(predicted / measured)|) − 1: the typical error factor.
fn geomean_error(ratios: &[f64]) -> f64 {
    (ratios.iter().map(|r| r.ln().abs()).sum::<f64>() / ratios.len() as f64).exp() - 1.0
}

#[test]
fn each_shared_table_is_predicted_by_its_preset_within_10_percent_geomean_and_25_percent_per_row() {
    for (file, preset, nodes) in TABLES {
        let sys = System::preset(preset, nodes, 8).unwrap();
        println!("== {file}");
        let r = ratios(&sys, &table(file));
        let g = geomean_error(&r);
        println!("   geomean error {:.1} %", g * 100.0);
        assert!(g < 0.10, "{file}: geomean error {:.1} %", g * 100.0);
        for (row, x) in table(file).rows.iter().zip(&r) {
            assert!(
                (x - 1.0).abs() < 0.25,
                "{file} size {}: {:+.1} %",
                row.size_bytes,
                (x - 1.0) * 100.0
            );
        }
    }
}
