//! Invariants over random scenarios: every algorithm, 1..64 ranks, both topologies, random bandwidths
//! and latencies.
#![cfg(not(target_arch = "wasm32"))]

use allreduce_lab::sim::algorithms::{self, Algorithm};
use allreduce_lab::sim::run::{run, Run, RunOptions};
use allreduce_lab::sim::scenario::{simulate, Scenario};
use allreduce_lab::sim::topology::Topology;
use allreduce_lab::sim::topology::TopologySpec;
use allreduce_lab::sim::units::Bandwidth;
use proptest::prelude::*;

fn bandwidth() -> impl Strategy<Value = Bandwidth> {
    // 1 GB/s .. 1 TB/s, log-uniform.
    (9.0f64..12.0).prop_map(|e| Bandwidth::from_bytes_per_sec(10f64.powf(e)))
}

fn latency() -> impl Strategy<Value = f64> {
    prop_oneof![Just(0.0), (0.0f64..20.0).prop_map(|us| us * 1e-6)]
}

fn topology() -> impl Strategy<Value = TopologySpec> {
    prop_oneof![
        (1usize..=64, bandwidth(), latency()).prop_map(|(ranks, bandwidth, latency_secs)| {
            TopologySpec::Uniform {
                ranks,
                bandwidth,
                latency_secs,
            }
        }),
        (
            (1usize..=4, 1usize..=4, 1usize..=8),
            (
                bandwidth(),
                latency(),
                bandwidth(),
                latency(),
                bandwidth(),
                latency()
            ),
            prop_oneof![Just(1.0), 1.0f64..4.0],
        )
            .prop_filter("at most 64 ranks", |((k, m, g), _, _)| k * m * g <= 64)
            .prop_map(
                |((racks, nodes_per_rack, gpus_per_node), (ib, il, nb, nl, rb, rl), os)| {
                    TopologySpec::Cluster {
                        racks,
                        nodes_per_rack,
                        gpus_per_node,
                        intra_bw: ib,
                        intra_lat_secs: il,
                        node_bw: nb,
                        node_lat_secs: nl,
                        rack_bw: rb,
                        rack_lat_secs: rl,
                        oversubscription: os,
                    }
                }
            ),
    ]
}

fn scenario() -> impl Strategy<Value = Scenario> {
    (
        topology(),
        prop::sample::select(Algorithm::CONCRETE.to_vec()),
        1u64..50_000_000,
        1usize..=6,
        prop_oneof![Just(0.0), 0.0f64..1e-10],
    )
        .prop_map(
            |(topology, algorithm, size_bytes, segments, gamma)| Scenario {
                topology,
                algorithm,
                size_bytes,
                segments,
                gamma_secs_per_byte: gamma,
                faults: Default::default(),
            },
        )
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    #[test]
    fn every_run_verifies_conserves_bytes_respects_the_bound_and_repeats(sc in scenario()) {
        let sim = simulate(&sc, true).unwrap();
        let t = &sim.trace;
        prop_assert!(t.verified(), "{:?}", t.verification);
        // Bytes sent = bytes received, in total and as the schedule says.
        let sent: u64 = t.ranks.iter().map(|r| r.sent_bytes).sum();
        let received: u64 = t.ranks.iter().map(|r| r.received_bytes).sum();
        let scheduled: u64 = (0..t.schedule.len()).map(|i| t.schedule.bytes(i)).sum();
        prop_assert_eq!(sent, received);
        prop_assert_eq!(sent, scheduled);
        // No run beats the bandwidth lower bound.
        prop_assert!(t.time_secs >= t.lower_bound.secs * (1.0 - 1e-9),
            "time {} < bound {} ({:?})", t.time_secs, t.lower_bound.secs, t.lower_bound.kind);
        // Every transfer's times are ordered, and links never run above capacity on average.
        for tm in &t.timings {
            prop_assert!(tm.start_secs <= tm.first_byte_secs && tm.first_byte_secs <= tm.last_byte_secs
                && tm.last_byte_secs <= tm.done_secs && tm.done_secs <= t.time_secs);
        }
        for (l, link) in t.topology.links().iter().enumerate() {
            prop_assert!(t.links[l].bytes <= link.bandwidth.bytes_per_sec() * t.links[l].busy_secs * (1.0 + 1e-9) + 1e-6);
            for change in &t.links[l].timeline {
                prop_assert!(change.bytes_per_sec <= link.bandwidth.bytes_per_sec() * (1.0 + 1e-9));
            }
        }
        // Identical on a second run.
        let again = simulate(&sc, true).unwrap();
        prop_assert_eq!(t.time_secs.to_bits(), again.trace.time_secs.to_bits());
        prop_assert_eq!(&t.timings, &again.trace.timings);
        prop_assert_eq!(&t.ranks, &again.trace.ranks);
    }

    #[test]
    fn auto_is_never_slower_than_any_single_algorithm(topology in topology(), size in 1u64..10_000_000) {
        let sc = Scenario { topology, algorithm: Algorithm::Auto, size_bytes: size, segments: 1, gamma_secs_per_byte: 0.0, faults: Default::default() };
        let best = simulate(&sc, false).unwrap();
        for alg in Algorithm::CONCRETE {
            let t = simulate(&Scenario { algorithm: alg, ..sc.clone() }, false).unwrap();
            prop_assert!(best.trace.time_secs <= t.trace.time_secs);
        }
    }

    #[test]
    fn a_run_sliced_into_steps_is_the_same_run(sc in scenario(), slice in 1usize..50) {
        let topo = Topology::new(&sc.topology).unwrap();
        let alg = sc.algorithm;
        let schedule = algorithms::schedule(alg, &topo, sc.size_bytes, sc.segments);
        let options = RunOptions { gamma_secs_per_byte: sc.gamma_secs_per_byte, record_details: true };
        let mut sliced = Run::new(&topo, schedule.clone(), &options);
        let mut slices = 0;
        while !sliced.step(slice) {
            slices += 1;
            prop_assert!(slices <= 10 * schedule.len() + 10);
        }
        let (a, b) = (sliced.finish(), run(&topo, schedule, &options));
        prop_assert_eq!(a.time_secs.to_bits(), b.time_secs.to_bits());
        prop_assert_eq!(&a.timings, &b.timings);
        prop_assert_eq!(&a.cell_changes, &b.cell_changes);
        prop_assert!(a.verified());
    }
}
