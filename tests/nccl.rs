//! NCCL's shapes on clusters as they are built: several NICs per node, rail-optimized networks.
#![cfg(not(target_arch = "wasm32"))]

use allreduce_lab::sim::algorithms::Algorithm;
use allreduce_lab::sim::scenario::{Scenario, simulate};
use allreduce_lab::sim::topology::{Endpoint, Tier, TopologySpec};

mod common;
use common::scenarios::{self, cluster, scenario_of};

const GIB: u64 = 1 << 30;

/// 2 nodes × 8 GPUs (NVLink 450 GB/s, 1 µs), `nics` NICs of 400 Gb/s (2 µs) per node, one rack.
fn dgx_pair(nics: usize, algorithm: Algorithm, segments: usize) -> Scenario {
    scenario_of(
        cluster([1, 2, 8], 400.0, 400.0, nics),
        algorithm,
        GIB,
        segments,
        0.0,
    )
}

/// `nodes` × `g` GPUs on rails of 400 Gb/s NICs, a spine of 400 Gb/s per leaf.
fn rail(nodes: usize, g: usize, pxn: bool, algorithm: Algorithm) -> Scenario {
    scenario_of(scenarios::rail(nodes, g, pxn), algorithm, 64 << 20, 1, 0.0)
}

#[test]
fn nccl_ring_over_eight_nics_reaches_what_eight_times_50_gbytes_allow() {
    let eight = simulate(&dgx_pair(8, Algorithm::NcclRing, 1), false)
        .unwrap()
        .trace;
    assert!(eight.verified());
    // Eight rings in parallel, each over its own 400 Gb/s = 50 GB/s NIC: busbw 8 × 50 GB/s.
    let busbw = eight.busbw_bytes_per_sec();
    assert!((busbw / 400e9 - 1.0).abs() < 0.02, "busbw {busbw:e}");
    // One NIC per node: the ring (and the textbook ring) cannot beat one NIC's 50 GB/s.
    for alg in [Algorithm::NcclRing, Algorithm::Ring] {
        let one = simulate(&dgx_pair(1, alg, 1), false).unwrap().trace;
        assert!(one.verified());
        assert!(one.busbw_bytes_per_sec() <= 50e9 * (1.0 + 1e-9));
        assert!(busbw > 7.5 * one.busbw_bytes_per_sec());
    }
    // Every NIC carries the same share: each of the 16 NIC links moves 2(N−1)/N × S/8.
    let t = &eight;
    let per_nic = 2.0 * 15.0 / 16.0 * (GIB as f64) / 8.0;
    let nic_links: Vec<usize> = (0..t.topology.links().len())
        .filter(|&l| t.topology.links()[l].tier == Tier::Node)
        .collect();
    assert_eq!(nic_links.len(), 2 * 2 * 8);
    for l in nic_links {
        assert!(
            (t.links[l].bytes / per_nic - 1.0).abs() < 1e-6,
            "link {l}: {}",
            t.links[l].bytes
        );
    }
}

#[test]
fn with_pxn_traffic_between_rails_never_touches_the_spine_and_without_it_does() {
    for alg in [Algorithm::Ring, Algorithm::NcclRing, Algorithm::TreeBinary] {
        let with = simulate(&rail(2, 8, true, alg), false).unwrap().trace;
        let without = simulate(&rail(2, 8, false, alg), false).unwrap().trace;
        assert!(with.verified() && without.verified());
        let spine = |t: &allreduce_lab::sim::trace::Trace| -> f64 {
            t.topology
                .links()
                .iter()
                .zip(&t.links)
                .filter(|(l, _)| l.tier == Tier::Rack)
                .map(|(_, r)| r.bytes)
                .sum()
        };
        assert_eq!(spine(&with), 0.0, "{alg} with PXN");
        assert!(spine(&without) > 0.0, "{alg} without PXN");
        // The same bytes leave every node either way: PXN moves the crossing onto NVLink and the
        // destination's rail instead.
        let nic = |t: &allreduce_lab::sim::trace::Trace| -> f64 {
            t.topology
                .links()
                .iter()
                .zip(&t.links)
                .filter(|(l, _)| l.tier == Tier::Node && matches!(l.to, Endpoint::Rail(_)))
                .map(|(_, r)| r.bytes)
                .sum()
        };
        assert_eq!(nic(&with), nic(&without), "{alg}");
    }
    // The textbook ring leaves each node from GPU 7 for GPU 0 of the other: without PXN both hops
    // climb from rail 7 to the spine and down to rail 0, each carrying 2(N−1)/N × S.
    let t = simulate(&rail(2, 8, false, Algorithm::Ring), false)
        .unwrap()
        .trace;
    let s = (64u64 << 20) as f64;
    let expected = 2.0 * 2.0 * 15.0 / 16.0 * s;
    for (l, r) in t.topology.links().iter().zip(&t.links) {
        if l.tier == Tier::Rack {
            let used = matches!(
                (l.from, l.to),
                (Endpoint::Rail(7), Endpoint::Spine) | (Endpoint::Spine, Endpoint::Rail(0))
            );
            assert_eq!(
                r.bytes,
                if used { expected } else { 0.0 },
                "{} → {}",
                l.from,
                l.to
            );
        }
    }
    // nccl-tree joins the nodes on each channel's own rail: no spine even without PXN.
    let tree = simulate(&rail(4, 8, false, Algorithm::NcclTree), false)
        .unwrap()
        .trace;
    assert!(tree.verified());
    assert!(
        tree.topology
            .links()
            .iter()
            .zip(&tree.links)
            .all(|(l, r)| l.tier != Tier::Rack || r.bytes == 0.0)
    );
}

/// Beyond two nodes NCCL's tree is no longer the least traffic across nodes: a node inside one
/// tree and a leaf of the other carries 1.5 × S + 0.5 × S each way on its NIC, where a ring's
/// carries 2(N−1)/N × S and the node cut's least is 2(M−1)/M × S (the lab's note on `nccl-tree`
/// once said the tree carried that least).
#[test]
fn beyond_two_nodes_nccl_tree_carries_about_two_s_per_node_more_than_the_ring() {
    let s: u64 = 1 << 20;
    for nodes in [4u64, 8] {
        let nic = |algorithm| {
            let mut sc = scenario_of(
                cluster([1, nodes as usize, 4], 400.0, 400.0, 1),
                algorithm,
                s,
                4,
                0.0,
            );
            sc.size_bytes = s;
            let t = simulate(&sc, false).unwrap().trace;
            assert!(t.verified());
            (t.topology.links().iter().zip(&t.links))
                .filter(|(l, _)| l.tier == Tier::Node)
                .map(|(_, r)| r.bytes)
                .fold(0.0, f64::max)
        };
        assert_eq!(nic(Algorithm::NcclTree), 2.0 * s as f64, "{nodes} nodes");
        let ranks = 4 * nodes;
        assert_eq!(
            nic(Algorithm::NcclRing),
            2.0 * (ranks - 1) as f64 / ranks as f64 * s as f64,
            "{nodes} nodes"
        );
    }
}

#[test]
fn nccl_tree_sends_each_byte_over_the_chains_and_the_fewest_bytes_across_nodes() {
    // 2 nodes × 4 GPUs, one NIC: two trees of S/2 each. Chains 0←1←2←3 and 4←5←6←7; across
    // nodes, node 0 is the root of the first tree, node 1 of the second.
    let s: u64 = 1 << 20;
    let mut sc = dgx_pair(1, Algorithm::NcclTree, 1);
    if let TopologySpec::Cluster { gpus_per_node, .. } = &mut sc.topology {
        *gpus_per_node = 4;
    }
    sc.size_bytes = s;
    let t = simulate(&sc, false).unwrap().trace;
    assert!(t.verified());
    // A chain's inner GPUs send S/2 up and S/2 down per tree; the tails only up; a node's head is
    // the root of one tree (two children) and an inner rank of the other.
    let expected = [2 * s, 2 * s, 2 * s, s, 2 * s, 2 * s, 2 * s, s];
    for (r, traffic) in t.ranks.iter().enumerate() {
        assert_eq!(traffic.sent_bytes, expected[r], "rank {r} sent");
        assert_eq!(traffic.received_bytes, expected[r], "rank {r} received");
    }
    // In all, 2(N−1)·S: the least any allreduce moves.
    assert_eq!(t.ranks.iter().map(|x| x.sent_bytes).sum::<u64>(), 2 * 7 * s);
    // Each NIC carries S each way, 2(M−1)/M × S: the node cut's minimum, which the ring exceeds.
    for (l, r) in t.topology.links().iter().zip(&t.links) {
        if l.tier == Tier::Node {
            assert_eq!(r.bytes, s as f64, "{} → {}", l.from, l.to);
        }
    }
    let ring = simulate(
        &Scenario {
            algorithm: Algorithm::Ring,
            ..sc.clone()
        },
        false,
    )
    .unwrap()
    .trace;
    let ring_nic = ring
        .topology
        .links()
        .iter()
        .zip(&ring.links)
        .filter(|(l, _)| l.tier == Tier::Node)
        .map(|(_, r)| r.bytes)
        .fold(0.0, f64::max);
    assert_eq!(ring_nic, 2.0 * 7.0 / 8.0 * s as f64);
    // And no run beats the bound.
    assert!(t.time_secs >= t.lower_bound.secs);
}
