//! Faults go through the simulation: a slowed cable caps what the ring can do, a straggler delays
//! everyone who waits for it, and a scenario without faults runs exactly as before.

use allreduce_lab::sim::algorithms::Algorithm;
use allreduce_lab::sim::faults::{Faults, SlowLink, Straggler};
use allreduce_lab::sim::scenario::{Scenario, simulate};
use allreduce_lab::sim::topology::TopologySpec;
use allreduce_lab::sim::units::Bandwidth;

fn uniform(algorithm: Algorithm, faults: Faults) -> Scenario {
    Scenario {
        topology: TopologySpec::Uniform {
            ranks: 8,
            bandwidth: Bandwidth::from_gbytes_per_sec(100.0),
            latency_secs: 0.0,
        },
        algorithm,
        size_bytes: 800_000_000,
        // Pipelined trees, as real implementations run them; the ring ignores segments.
        segments: 32,
        gamma_secs_per_byte: 0.0,
        faults,
    }
}

fn slow(cable: &str, factor: f64) -> Faults {
    Faults {
        slow_links: vec![SlowLink {
            cable: cable.parse().unwrap(),
            factor,
        }],
        stragglers: vec![],
    }
}

fn late(rank: usize, delay_secs: f64) -> Faults {
    Faults {
        slow_links: vec![],
        stragglers: vec![Straggler { rank, delay_secs }],
    }
}

#[test]
fn a_slowed_cable_lowers_the_rings_busbw_to_what_that_cable_allows() {
    for factor in [1.0, 0.5, 0.25, 0.1] {
        let t = simulate(
            &uniform(Algorithm::Ring, slow("rank3-spine", factor)),
            false,
        )
        .unwrap()
        .trace;
        assert!(t.verified());
        // Every ring step waits for the chunk crossing the slow cable: busbw = its bandwidth.
        let want = 100e9 * factor;
        assert!(
            (t.busbw_bytes_per_sec() / want - 1.0).abs() < 1e-9,
            "factor {factor}: busbw {} vs {want}",
            t.busbw_bytes_per_sec()
        );
    }
}

#[test]
fn a_slowed_nic_caps_the_ring_on_a_cluster_at_that_nics_bandwidth() {
    let scenario = |faults| Scenario {
        topology: TopologySpec::Cluster {
            racks: 1,
            nodes_per_rack: 2,
            gpus_per_node: 8,
            intra_bw: Bandwidth::from_gbytes_per_sec(450.0),
            intra_lat_secs: 0.0,
            node_bw: Bandwidth::from_gbits_per_sec(400.0),
            node_lat_secs: 0.0,
            rack_bw: Bandwidth::from_gbits_per_sec(400.0),
            rack_lat_secs: 0.0,
            oversubscription: 1.0,
            nics_per_node: 1,
        },
        algorithm: Algorithm::Ring,
        size_bytes: 1_600_000_000,
        segments: 1,
        gamma_secs_per_byte: 0.0,
        faults,
    };
    let healthy = simulate(&scenario(Faults::default()), false).unwrap().trace;
    let slowed = simulate(&scenario(slow("node1-rack0", 0.25)), false)
        .unwrap()
        .trace;
    // The ring crosses each NIC once per step in each direction: busbw = the NIC's bandwidth.
    assert!((healthy.busbw_bytes_per_sec() / 50e9 - 1.0).abs() < 1e-9);
    assert!((slowed.busbw_bytes_per_sec() / 12.5e9 - 1.0).abs() < 1e-9);
    let busiest = slowed.busiest_link().unwrap();
    let link = &slowed.topology.links()[busiest];
    assert_eq!(link.bandwidth.bytes_per_sec(), 12.5e9, "{link:?}");
}

#[test]
fn other_algorithms_degrade_differently_from_the_ring() {
    let ratio = |alg| {
        let healthy = simulate(&uniform(alg, Faults::default()), false)
            .unwrap()
            .trace;
        let slowed = simulate(&uniform(alg, slow("rank3-spine", 0.25)), false)
            .unwrap()
            .trace;
        assert!(slowed.verified());
        slowed.time_secs / healthy.time_secs
    };
    // The ring waits for the slow cable at every step: 4× slower.
    assert!((ratio(Algorithm::Ring) - 4.0).abs() < 1e-9);
    // A pipelined binary tree: rank 3 is a leaf moving S each way, under the 3·S of the inner
    // ranks: it slows the tree by far less.
    let r = ratio(Algorithm::TreeBinary);
    assert!(r > 1.0 && r < 2.0, "{r}");
    // The star waits for its root's 7·S: a slow leaf cable costs it nothing.
    assert!((ratio(Algorithm::TreeFlat) - 1.0).abs() < 1e-9);
}

#[test]
fn a_straggler_delays_the_ring_by_exactly_its_lateness() {
    let base = simulate(&uniform(Algorithm::Ring, Faults::default()), false)
        .unwrap()
        .trace
        .time_secs;
    for delay in [1e-6, 200e-6, 5e-3] {
        let t = simulate(&uniform(Algorithm::Ring, late(3, delay)), false)
            .unwrap()
            .trace;
        assert!(t.verified());
        assert!(
            (t.time_secs - (base + delay)).abs() < 1e-12,
            "{delay}: {} vs {}",
            t.time_secs,
            base + delay
        );
    }
}

#[test]
fn nothing_to_or_from_a_straggler_starts_before_it_joins() {
    for alg in [
        Algorithm::TreeBinary,
        Algorithm::DoubleBinaryTree,
        Algorithm::Rabenseifner,
        Algorithm::Ring,
    ] {
        let t = simulate(&uniform(alg, late(5, 1e-3)), true).unwrap().trace;
        assert!(t.verified(), "{alg}");
        for (id, tr) in t.schedule.transfers().iter().enumerate() {
            if tr.src() == 5 || tr.dst() == 5 {
                assert!(t.timing(id).start_secs >= 1e-3, "{alg} transfer {id}");
            }
        }
        assert!(t.time_secs > 1e-3);
    }
}

#[test]
fn without_faults_the_scenario_json_and_the_results_are_unchanged() {
    let s = uniform(Algorithm::Ring, Faults::default());
    let json = serde_json::to_value(&s).unwrap();
    assert!(json.get("faults").is_none(), "{json}");
    // A scenario written before faults existed still reads, with none.
    let back: Scenario = serde_json::from_value(json).unwrap();
    assert_eq!(back, s);
    // A cable kept at full speed and a straggler 0 s late change nothing, to the bit.
    let plain = simulate(&s, true).unwrap().trace;
    let mut f = slow("rank0-spine", 1.0);
    f.stragglers.push(Straggler {
        rank: 2,
        delay_secs: 0.0,
    });
    let noop = simulate(&uniform(Algorithm::Ring, f), true).unwrap().trace;
    assert_eq!(plain.time_secs.to_bits(), noop.time_secs.to_bits());
    assert_eq!(plain.timings, noop.timings);
}

#[test]
fn faults_round_trip_through_the_scenario_json() {
    let mut f = slow("node0-rack0", 0.25);
    f.stragglers.push(Straggler {
        rank: 3,
        delay_secs: 2e-4,
    });
    let s = uniform(Algorithm::Ring, f);
    let text = serde_json::to_string(&s).unwrap();
    assert!(text.contains("\"cable\":\"node0-rack0\""), "{text}");
    let back: Scenario = serde_json::from_str(&text).unwrap();
    assert_eq!(back, s);
    // …and a bad cable name in a file is an error, not a panic.
    let bad = text.replace("node0-rack0", "nic0-rack0");
    assert!(serde_json::from_str::<Scenario>(&bad).is_err());
}
