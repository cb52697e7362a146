//! Bit-identical results across refactors of the core: a fixed set of runs (every algorithm, both
//! topologies, several sizes, segment counts and γ) is compared against totals stored in
//! `tests/data/stored_totals.txt`, which were computed by the simulator before its performance
//! work. Any change of a time, a byte count, a link's rate or a buffer change shows as a changed
//! line. Exact values (time bits, byte sums) are stored as such; per-rank, per-link, per-transfer and
//! per-cell data as FNV-1a digests of their exact bits.
//!
//! Regenerate (only when a change of results is intended and explained):
//! `STORED_TOTALS_WRITE=1 cargo test --test stored_totals`.
#![cfg(not(target_arch = "wasm32"))]

use allreduce_lab::sim::algorithms::Algorithm;
use allreduce_lab::sim::scenario::{Scenario, simulate};
use allreduce_lab::sim::topology::TopologySpec;
use allreduce_lab::sim::trace::Trace;
use allreduce_lab::sim::units::Bandwidth;

mod common;
use common::digest::{self, Digest};

const PATH: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/stored_totals.txt");

fn topologies() -> Vec<(&'static str, TopologySpec)> {
    let gb = Bandwidth::from_gbytes_per_sec;
    let gbit = Bandwidth::from_gbits_per_sec;
    let cluster = |racks, nodes_per_rack, gpus_per_node, os| TopologySpec::Cluster {
        racks,
        nodes_per_rack,
        gpus_per_node,
        intra_bw: gb(450.0),
        intra_lat_secs: 1e-6,
        node_bw: gbit(400.0),
        node_lat_secs: 2e-6,
        rack_bw: gbit(200.0),
        rack_lat_secs: 5e-6,
        oversubscription: os,
        nics_per_node: 1,
    };
    let uniform = |ranks, latency_secs| TopologySpec::Uniform {
        ranks,
        bandwidth: gb(100.0),
        latency_secs,
    };
    vec![
        ("u2", uniform(2, 5e-6)),
        ("u5", uniform(5, 0.0)),
        ("u8", uniform(8, 5e-6)),
        ("u13", uniform(13, 3e-6)),
        ("u32", uniform(32, 5e-6)),
        ("c2x2x4", cluster(2, 2, 4, 1.0)),
        ("c2x3x2os3", cluster(2, 3, 2, 3.0)),
        ("c1x4x8", cluster(1, 4, 8, 1.0)),
        ("c3x2x3os1.5", cluster(3, 2, 3, 1.5)),
    ]
}

/// The algorithms the totals were stored for (NCCL's shapes came later and have tests of their own).
const STORED: [Algorithm; 9] = [
    Algorithm::Ring,
    Algorithm::TreeFlat,
    Algorithm::TreeBinomial,
    Algorithm::TreeBinary,
    Algorithm::DoubleBinaryTree,
    Algorithm::RecursiveDoubling,
    Algorithm::Rabenseifner,
    Algorithm::Hierarchical,
    Algorithm::Auto,
];

fn scenarios() -> Vec<(String, Scenario)> {
    let mut out = Vec::new();
    for (tname, topology) in topologies() {
        for algorithm in STORED {
            for (size_bytes, segments) in [(1u64, 1usize), (1000, 4), (1_048_583, 1), (1 << 30, 64)]
            {
                for gamma in [0.0, 2.5e-11] {
                    let scenario = Scenario {
                        topology: topology.clone(),
                        algorithm,
                        size_bytes,
                        segments,
                        gamma_secs_per_byte: gamma,
                        faults: Default::default(),
                    };
                    out.push((
                        format!("{tname} {algorithm} S={size_bytes} k={segments} g={gamma:e}"),
                        scenario,
                    ));
                }
            }
        }
    }
    // Larger runs, as the benchmarks make them.
    let big = |ranks| TopologySpec::Uniform {
        ranks,
        bandwidth: Bandwidth::from_gbytes_per_sec(50.0),
        latency_secs: 2e-6,
    };
    for (algorithm, ranks, segments) in [
        (Algorithm::Ring, 200, 1),
        (Algorithm::DoubleBinaryTree, 200, 32),
        (Algorithm::TreeFlat, 100, 16),
        (Algorithm::TreeBinomial, 128, 8),
        (Algorithm::Hierarchical, 192, 1),
    ] {
        out.push((
            format!("big u{ranks} {algorithm} k={segments}"),
            Scenario {
                topology: big(ranks),
                algorithm,
                size_bytes: 1 << 28,
                segments,
                gamma_secs_per_byte: 1e-11,
                faults: Default::default(),
            },
        ));
    }
    out
}

/// The parts of a trace that do not depend on recorded details.
fn core_line(t: &Trace) -> String {
    let (mut ranks, mut links, mut busy, mut steps) =
        (Digest::new(), Digest::new(), Digest::new(), Digest::new());
    for r in &t.ranks {
        ranks.word(r.sent_bytes);
        ranks.word(r.received_bytes);
    }
    for l in &t.links {
        links.f(l.bytes);
        busy.f(l.busy_secs);
    }
    for &s in &t.step_end_secs {
        steps.f(s);
    }
    let sent: u64 = t.ranks.iter().map(|r| r.sent_bytes).sum();
    let max_sent = t.ranks.iter().map(|r| r.sent_bytes).max().unwrap_or(0);
    let link_bytes: f64 = t.links.iter().map(|l| l.bytes).sum();
    format!(
        "time={:016x} transfers={} sent={sent} max_sent={max_sent} link_bytes={:016x} ranks={:016x} links={:016x} busy={:016x} timings={:016x} steps={:016x} verified={}",
        t.time_secs.to_bits(),
        t.schedule.len(),
        link_bytes.to_bits(),
        ranks.0,
        links.0,
        busy.0,
        digest::timings(t),
        steps.0,
        t.verified()
    )
}

fn details_line(t: &Trace) -> String {
    format!(
        "timelines={:016x} cells={:016x} cell_changes={}",
        digest::timelines(t),
        digest::cells(t),
        t.cell_changes.len()
    )
}

#[test]
fn every_stored_run_is_bit_identical() {
    let mut lines = Vec::new();
    for (label, scenario) in scenarios() {
        let sim = simulate(&scenario, true).unwrap_or_else(|e| panic!("{label}: {e}"));
        let quick = simulate(&scenario, false).unwrap();
        let core = core_line(&sim.trace);
        // Recording details must not change the run.
        assert_eq!(
            core_line(&quick.trace),
            core,
            "{label}: details change the run"
        );
        assert_eq!(quick.algorithm, sim.algorithm, "{label}");
        lines.push(format!(
            "{label} | alg={} {core} {}",
            sim.algorithm,
            details_line(&sim.trace)
        ));
    }
    let got = lines.join("\n") + "\n";
    if std::env::var_os("STORED_TOTALS_WRITE").is_some() {
        std::fs::create_dir_all(std::path::Path::new(PATH).parent().unwrap()).unwrap();
        std::fs::write(PATH, &got).unwrap();
        return;
    }
    let stored = std::fs::read_to_string(PATH).expect("tests/data/stored_totals.txt");
    let stored: Vec<&str> = stored.lines().collect();
    assert_eq!(stored.len(), lines.len(), "the set of runs changed");
    let differing: Vec<String> = stored
        .iter()
        .zip(&lines)
        .filter(|(a, b)| *a != *b)
        .map(|(a, b)| format!("stored: {a}\n   got: {b}"))
        .collect();
    assert!(
        differing.is_empty(),
        "{} of {} runs differ from the stored totals; the first ones:\n{}",
        differing.len(),
        lines.len(),
        differing[..differing.len().min(5)].join("\n")
    );
}
