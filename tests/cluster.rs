//! Cluster topologies: the slowest tier sets the ring's pace; trees cross racks fewer times.
#![cfg(not(target_arch = "wasm32"))]

use allreduce_lab::sim::algorithms::Algorithm;
use allreduce_lab::sim::scenario::{Scenario, simulate};
use allreduce_lab::sim::topology::Tier;

mod common;
use common::scenarios::{cluster, scenario_of};

/// 2 racks × 2 nodes × 8 GPUs, NVLink 450 GB/s inside nodes.
fn racks(node_gbps: f64, rack_gbps: f64, algorithm: Algorithm, segments: usize) -> Scenario {
    let topology = cluster([2, 2, 8], node_gbps, rack_gbps, 1);
    scenario_of(topology, algorithm, 1_000_000_000, segments, 0.0)
}

#[test]
fn ring_runs_at_the_slow_cross_rack_bandwidth_and_leaves_fast_links_idle() {
    let sim = simulate(&racks(800.0, 200.0, Algorithm::Ring, 1), true).unwrap();
    let t = &sim.trace;
    assert!(t.verified());
    // busbw within 2% of the 200 Gbps = 25 GB/s uplink (latency takes the rest).
    let busbw = t.busbw_bytes_per_sec();
    assert!((busbw / 25e9 - 1.0).abs() < 0.02, "busbw {busbw:e}");
    for (l, link) in t.topology.links().iter().enumerate() {
        match link.tier {
            // The uplinks stream almost all the time…
            Tier::Rack => assert!(
                t.busy_fraction(l) > 0.95,
                "uplink {l}: {}",
                t.busy_fraction(l)
            ),
            // …NVLink, 18× faster, idles more than 90% of the time where it carries the ring
            // inside a node (a GPU whose ring neighbour sits in another node streams as slowly as
            // the slowest link on the way),
            Tier::Gpu => {
                let rank = l % 32;
                let neighbour_same_node = if l < 32 {
                    (rank + 1) % 32 / 8 == rank / 8
                } else {
                    (rank + 31) % 32 / 8 == rank / 8
                };
                if neighbour_same_node {
                    assert!(
                        t.busy_fraction(l) < 0.1,
                        "gpu link {l}: {}",
                        t.busy_fraction(l)
                    );
                }
            }
            // and 800 Gbps NICs that carry the ring inside a rack idle three quarters of it.
            Tier::Node => {
                let (up, node) = (l < 68, (l - 64) % 4);
                let peer = if up { (node + 1) % 4 } else { (node + 3) % 4 };
                if peer / 2 == node / 2 {
                    assert!(t.busy_fraction(l) < 0.3, "nic {l}: {}", t.busy_fraction(l));
                } else {
                    assert!(t.busy_fraction(l) > 0.95, "nic {l}: {}", t.busy_fraction(l));
                }
            }
        }
    }
    // The rack uplink is the busiest link.
    let busiest = t.busiest_link().unwrap();
    assert_eq!(t.topology.links()[busiest].tier, Tier::Rack);
}

#[test]
fn with_slow_cross_rack_links_a_pipelined_tree_beats_the_ring() {
    let ring = simulate(&racks(800.0, 200.0, Algorithm::Ring, 1), false).unwrap();
    let tree = simulate(&racks(800.0, 200.0, Algorithm::TreeBinomial, 32), false).unwrap();
    assert!(
        tree.trace.time_secs < 0.85 * ring.trace.time_secs,
        "tree {} ring {}",
        tree.trace.time_secs,
        ring.trace.time_secs
    );
    // The tree sends fewer bytes between the racks.
    use allreduce_lab::course::claims::bytes_between_racks;
    assert!(bytes_between_racks(&tree.trace) < bytes_between_racks(&ring.trace));
}

#[test]
fn with_fast_cross_rack_links_the_comparison_flips_and_the_ring_wins() {
    let ring = simulate(&racks(400.0, 800.0, Algorithm::Ring, 1), false).unwrap();
    let tree = simulate(&racks(400.0, 800.0, Algorithm::TreeBinomial, 32), false).unwrap();
    assert!(
        ring.trace.time_secs < 0.85 * tree.trace.time_secs,
        "tree {} ring {}",
        tree.trace.time_secs,
        ring.trace.time_secs
    );
    // Now the 400 Gbps NICs pace the ring: busbw ≈ 50 GB/s.
    let busbw = ring.trace.busbw_bytes_per_sec();
    assert!((busbw / 50e9 - 1.0).abs() < 0.03, "busbw {busbw:e}");
}

#[test]
fn hierarchical_sends_one_gpus_share_across_the_network() {
    // Per GPU, only 2(M−1)/M × S/g crosses the NIC: the whole node's NIC carries 2(M−1)/M × S.
    let sim = simulate(&racks(400.0, 400.0, Algorithm::Hierarchical, 1), false).unwrap();
    let t = &sim.trace;
    assert!(t.verified());
    let m = 4.0;
    for (l, link) in t.topology.links().iter().enumerate() {
        if link.tier == Tier::Node {
            let want = 2.0 * (m - 1.0) / m * 1e9;
            assert!(
                (t.links[l].bytes - want).abs() < 1.0,
                "{} vs {want}",
                t.links[l].bytes
            );
        }
    }
}
