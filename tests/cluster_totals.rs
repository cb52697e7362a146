//! `nics_per_node = 1` (the default) reproduces the cluster results from before NICs per node existed,
//! bit for bit: every transfer's timing, every link's and rank's bytes and the total time of a set of
//! cluster scenarios are compared with totals recorded from the code before the change
//! (tests/data/cluster_totals.txt; `REGEN_CLUSTER_TOTALS=1 cargo test --test cluster_totals` rewrites it).
#![cfg(not(target_arch = "wasm32"))]

use allreduce_lab::sim::algorithms::Algorithm;
use allreduce_lab::sim::scenario::{Scenario, simulate};

/// FNV-1a over 64-bit words: a compact fingerprint of a run's exact numbers.
fn fnv(words: impl IntoIterator<Item = u64>) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for w in words {
        for b in w.to_le_bytes() {
            h ^= b as u64;
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
    }
    h
}

/// The scenarios, written as JSON so that the same text is read by the code before and after the change.
fn scenarios() -> Vec<(String, Scenario)> {
    let topologies = [
        (
            1, 2, 8, "450GB/s", 1e-6, "50GB/s", 2e-6, "25GB/s", 5e-6, 1.0,
        ),
        (
            2, 2, 4, "450GB/s", 1e-6, "100GB/s", 2e-6, "25GB/s", 5e-6, 1.0,
        ),
        (
            2, 3, 2, "32GB/s", 0.5e-6, "12.5GB/s", 3e-6, "50GB/s", 4e-6, 2.5,
        ),
        (3, 1, 3, "100GB/s", 0.0, "10GB/s", 0.0, "5GB/s", 0.0, 1.0),
    ];
    let mut out = Vec::new();
    for (i, (k, m, g, ib, il, nb, nl, rb, rl, os)) in topologies.iter().enumerate() {
        let bw = |s: &str| {
            allreduce_lab::sim::units::parse_bandwidth(s)
                .unwrap()
                .bytes_per_sec()
        };
        for alg in Algorithm::CONCRETE {
            for (size, segments, gamma) in [(1000u64, 1usize, 0.0f64), (33_554_433, 4, 1e-11)] {
                let json = format!(
                    r#"{{"topology":{{"kind":"cluster","racks":{k},"nodes_per_rack":{m},"gpus_per_node":{g},
                    "intra_bw":{},"intra_lat_secs":{il:e},"node_bw":{},"node_lat_secs":{nl:e},
                    "rack_bw":{},"rack_lat_secs":{rl:e},"oversubscription":{os:?}}},
                    "algorithm":"{alg}","size_bytes":{size},"segments":{segments},"gamma_secs_per_byte":{gamma:e}}}"#,
                    bw(ib),
                    bw(nb),
                    bw(rb)
                );
                let sc: Scenario = serde_json::from_str(&json).unwrap();
                out.push((format!("t{i}-{alg}-{size}-{segments}"), sc));
            }
        }
    }
    out
}

fn totals() -> String {
    let mut text = String::new();
    for (name, sc) in scenarios() {
        let t = simulate(&sc, true).unwrap().trace;
        assert!(t.verified(), "{name}");
        let timings = fnv(t.timings.iter().flat_map(|x| {
            [
                x.start_secs,
                x.first_byte_secs,
                x.last_byte_secs,
                x.done_secs,
            ]
            .map(f64::to_bits)
        }));
        let links = fnv(t.links.iter().flat_map(|l| {
            [l.bytes.to_bits(), l.busy_secs.to_bits()]
                .into_iter()
                .chain(
                    l.timeline
                        .iter()
                        .flat_map(|c| [c.at_secs.to_bits(), c.bytes_per_sec.to_bits()]),
                )
        }));
        let ranks = fnv(t
            .ranks
            .iter()
            .flat_map(|r| [r.sent_bytes, r.received_bytes]));
        text += &format!(
            "{name} {:016x} {timings:016x} {links:016x} {ranks:016x}\n",
            t.time_secs.to_bits()
        );
    }
    text
}

#[test]
fn one_nic_per_node_reproduces_the_earlier_cluster_results_bit_for_bit() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/cluster_totals.txt");
    let now = totals();
    if std::env::var_os("REGEN_CLUSTER_TOTALS").is_some() {
        std::fs::write(path, &now).unwrap();
        return;
    }
    // The stored runs are those of the algorithms that existed then; every one must come out the same.
    let stored = std::fs::read_to_string(path).unwrap();
    assert!(stored.lines().count() >= 64);
    let now: Vec<&str> = now.lines().collect();
    for line in stored.lines() {
        let name = line.split(' ').next().unwrap();
        let again = now.iter().find(|l| l.split(' ').next() == Some(name));
        assert_eq!(Some(&line), again, "{name}");
    }
}
