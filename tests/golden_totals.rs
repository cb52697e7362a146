//! Bit-identity across the simulator's performance work (issue #11): a dozen varied, larger
//! scenarios — ring, trees, double binary tree, recursive doubling, Rabenseifner, hierarchical,
//! NCCL's ring and tree on a rail cluster, oversubscription, slowed cables, stragglers, γ — run
//! with and without details and compared against totals stored in `tests/data/golden_totals.txt`,
//! computed by the code before that work. Each line holds the total time's bits, the transfer
//! count, the verification, every link's bytes and busy time, and FNV-1a digests of the exact bits
//! of every transfer's timing, every rank's traffic, every link's timeline and every buffer change.
//!
//! Regenerate (only when a change of results is intended and explained):
//! `GOLDEN_TOTALS_WRITE=1 cargo test --test golden_totals`.
#![cfg(not(target_arch = "wasm32"))]

use allreduce_lab::sim::algorithms::Algorithm;
use allreduce_lab::sim::faults::{Faults, SlowLink, Straggler};
use allreduce_lab::sim::scenario::{Scenario, simulate};
use allreduce_lab::sim::topology::TopologySpec;
use allreduce_lab::sim::trace::Trace;
use allreduce_lab::sim::units::Bandwidth;

mod common;
use common::digest::{self, Digest};
use common::scenarios::{self, oversubscribed};

const PATH: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/golden_totals.txt");

fn cluster(
    racks: usize,
    nodes_per_rack: usize,
    gpus_per_node: usize,
    oversubscription: f64,
    nics_per_node: usize,
) -> TopologySpec {
    let shape = [racks, nodes_per_rack, gpus_per_node];
    let spec = scenarios::cluster(shape, 3200.0, 12800.0, nics_per_node);
    oversubscribed(spec, oversubscription)
}

fn rail(nodes: usize, gpus_per_node: usize, oversubscription: f64, pxn: bool) -> TopologySpec {
    oversubscribed(scenarios::rail(nodes, gpus_per_node, pxn), oversubscription)
}

fn uniform(ranks: usize, latency_secs: f64) -> TopologySpec {
    TopologySpec::Uniform {
        ranks,
        bandwidth: Bandwidth::from_gbytes_per_sec(100.0),
        latency_secs,
    }
}

fn slow(cable: &str, factor: f64) -> SlowLink {
    SlowLink {
        cable: cable.parse().unwrap(),
        factor,
    }
}

fn scenarios() -> Vec<(&'static str, Scenario)> {
    let s = |topology, algorithm, size_bytes, segments, gamma_secs_per_byte, faults| Scenario {
        topology,
        algorithm,
        size_bytes,
        segments,
        gamma_secs_per_byte,
        faults,
    };
    let none = Faults::default;
    vec![
        (
            "ring c2x4x8",
            s(
                cluster(2, 4, 8, 1.0, 1),
                Algorithm::Ring,
                1 << 30,
                1,
                0.0,
                none(),
            ),
        ),
        (
            "dbt c2x4x8 os2 k64",
            s(
                cluster(2, 4, 8, 2.0, 1),
                Algorithm::DoubleBinaryTree,
                1 << 30,
                64,
                0.0,
                none(),
            ),
        ),
        (
            "binomial c4x4x4 k8 gamma",
            s(
                cluster(4, 4, 4, 1.0, 1),
                Algorithm::TreeBinomial,
                100_000_007,
                8,
                1e-11,
                none(),
            ),
        ),
        (
            "binary u37 k16",
            s(
                uniform(37, 2e-6),
                Algorithm::TreeBinary,
                1 << 24,
                16,
                0.0,
                none(),
            ),
        ),
        (
            "recursive doubling u48",
            s(
                uniform(48, 5e-6),
                Algorithm::RecursiveDoubling,
                1 << 26,
                1,
                0.0,
                none(),
            ),
        ),
        (
            "rabenseifner c2x3x4 os3",
            s(
                cluster(2, 3, 4, 3.0, 1),
                Algorithm::Rabenseifner,
                12_345_678,
                1,
                2.5e-11,
                none(),
            ),
        ),
        (
            "hierarchical c2x4x8 nics2",
            s(
                cluster(2, 4, 8, 1.0, 2),
                Algorithm::Hierarchical,
                1 << 28,
                1,
                0.0,
                none(),
            ),
        ),
        (
            "nccl ring rail4x8 pxn",
            s(
                rail(4, 8, 1.0, true),
                Algorithm::NcclRing,
                1 << 28,
                1,
                0.0,
                none(),
            ),
        ),
        (
            "nccl tree rail4x8 os2 k16",
            s(
                rail(4, 8, 2.0, false),
                Algorithm::NcclTree,
                1 << 28,
                16,
                0.0,
                none(),
            ),
        ),
        (
            "ring c2x2x8 slow cable + straggler",
            s(
                cluster(2, 2, 8, 1.0, 1),
                Algorithm::Ring,
                1 << 27,
                1,
                0.0,
                Faults {
                    slow_links: vec![slow("node1-rack0", 0.3)],
                    stragglers: vec![Straggler {
                        rank: 5,
                        delay_secs: 1e-4,
                    }],
                },
            ),
        ),
        (
            "dbt c2x2x8 k32 slow spine + stragglers + gamma",
            s(
                cluster(2, 2, 8, 1.5, 1),
                Algorithm::DoubleBinaryTree,
                1 << 28,
                32,
                1e-11,
                Faults {
                    slow_links: vec![slow("rack1-spine", 0.5), slow("rank3-node0", 0.25)],
                    stragglers: vec![
                        Straggler {
                            rank: 0,
                            delay_secs: 3e-5,
                        },
                        Straggler {
                            rank: 17,
                            delay_secs: 2e-4,
                        },
                    ],
                },
            ),
        ),
        (
            "flat tree u33 k4 gamma",
            s(
                uniform(33, 1e-6),
                Algorithm::TreeFlat,
                1 << 22,
                4,
                5e-11,
                none(),
            ),
        ),
        (
            "auto c2x2x4",
            s(
                cluster(2, 2, 4, 1.0, 1),
                Algorithm::Auto,
                1 << 20,
                4,
                0.0,
                none(),
            ),
        ),
    ]
}

fn line(label: &str, t: &Trace) -> String {
    let mut ranks = Digest::new();
    for r in &t.ranks {
        ranks.word(r.sent_bytes);
        ranks.word(r.received_bytes);
    }
    let link_bytes: Vec<String> = t
        .links
        .iter()
        .map(|l| format!("{:x}", l.bytes.to_bits()))
        .collect();
    let link_busy: Vec<String> = t
        .links
        .iter()
        .map(|l| format!("{:x}", l.busy_secs.to_bits()))
        .collect();
    format!(
        "{label} | time={:016x} transfers={} verified={:?} ranks={:016x} timings={:016x} timelines={:016x} cells={:016x} cell_changes={} link_bytes={} link_busy={}",
        t.time_secs.to_bits(),
        t.schedule.len(),
        t.verification,
        ranks.0,
        digest::timings(t),
        digest::timelines(t),
        digest::cells(t),
        t.cell_changes.len(),
        link_bytes.join(","),
        link_busy.join(","),
    )
}

#[test]
fn varied_runs_are_bit_identical_to_the_stored_totals() {
    let mut lines = Vec::new();
    for (label, scenario) in scenarios() {
        let detailed = simulate(&scenario, true).unwrap_or_else(|e| panic!("{label}: {e}"));
        let quick = simulate(&scenario, false).unwrap();
        assert!(detailed.trace.verified(), "{label}");
        assert_eq!(
            detailed.trace.time_secs.to_bits(),
            quick.trace.time_secs.to_bits(),
            "{label}: details change the run"
        );
        assert!(quick.trace.cell_changes.is_empty(), "{label}");
        lines.push(line(label, &detailed.trace));
        lines.push(line(&format!("{label} (quick)"), &quick.trace));
    }
    let got = lines.join("\n") + "\n";
    if std::env::var_os("GOLDEN_TOTALS_WRITE").is_some() {
        std::fs::write(PATH, &got).unwrap();
        return;
    }
    let stored = std::fs::read_to_string(PATH).expect("tests/data/golden_totals.txt");
    let stored: Vec<&str> = stored.lines().collect();
    assert_eq!(stored.len(), lines.len(), "the set of runs changed");
    for (s, g) in stored.iter().zip(&lines) {
        assert_eq!(*s, g.as_str(), "a run differs from its stored totals");
    }
}
