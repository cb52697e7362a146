//! Invariants over random scenarios: every algorithm (NCCL's shapes included), 1..64 ranks, every
//! topology (uniform, clusters with 1..8 NICs per node, rail-optimized with and without PXN), random
//! bandwidths and latencies.
#![cfg(not(target_arch = "wasm32"))]

use allreduce_lab::sim::algorithms::{self, Algorithm};
use allreduce_lab::sim::run::{Run, RunOptions, run};
use allreduce_lab::sim::scenario::{Scenario, simulate, transfers_on};
use allreduce_lab::sim::topology::Topology;
use allreduce_lab::sim::topology::TopologySpec;
use proptest::prelude::*;

mod common;
use common::scenarios::{Draw, scenario_of};

fn topology() -> impl Strategy<Value = TopologySpec> {
    Draw::up_to(64).topology()
}

/// Topologies on which every algorithm (NCCL's ring with one channel per NIC included) stays small.
fn light_topology() -> impl Strategy<Value = TopologySpec> {
    topology().prop_filter("every algorithm small", |t| {
        let topo = Topology::new(t).unwrap();
        transfers_on(Algorithm::NcclRing, &topo, 2) <= 20_000
    })
}

fn scenario() -> impl Strategy<Value = Scenario> {
    (
        topology(),
        prop::sample::select(Algorithm::CONCRETE.to_vec()),
        1u64..50_000_000,
        1usize..=6,
        prop_oneof![Just(0.0), 0.0f64..1e-10],
    )
        .prop_map(|(t, a, s, k, g)| scenario_of(t, a, s, k, g))
        .prop_filter("a run a debug build finishes quickly", small)
}

/// NCCL's shapes on 64 ranks with 8 channels and 6 slices make 390 000 transfers; keep each case
/// small enough for a debug build on a busy machine.
fn small(sc: &Scenario) -> bool {
    let topo = Topology::new(&sc.topology).unwrap();
    transfers_on(sc.algorithm, &topo, sc.segments) <= 20_000
}

// 1000 cases each: with `auto` running every concrete algorithm as well, one `cargo test` simulates
// over 13,000 random scenarios here (about 25 s in release on 2 cores).
proptest! {
    #![proptest_config(ProptestConfig { cases: 1000, ..ProptestConfig::default() })]

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
    fn auto_is_never_slower_than_any_single_algorithm(topology in light_topology(), size in 1u64..10_000_000) {
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

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn the_latency_aware_bound_is_never_above_any_simulated_time(topology in light_topology(), size in prop_oneof![1u64..4096, 1u64..50_000_000]) {
        // Small messages make the latency term dominate; every algorithm must still be at or above it.
        let topo = Topology::new(&topology).unwrap();
        for alg in Algorithm::CONCRETE {
            let sc = Scenario { topology: topology.clone(), algorithm: alg, size_bytes: size, segments: 2, faults: Default::default(), gamma_secs_per_byte: 0.0 };
            if !small(&sc) {
                continue;
            }
            let t = simulate(&sc, false).unwrap().trace;
            let lb = t.lower_bound;
            prop_assert_eq!(lb.secs, lb.latency_secs + lb.bandwidth_secs);
            if topo.ranks() > 1 {
                prop_assert!(lb.latency_secs >= 0.0 && lb.bandwidth_secs > 0.0);
            }
            prop_assert!(t.time_secs >= lb.secs * (1.0 - 1e-9),
                "{} on {:?}: time {} < bound {:?}", alg, topology, t.time_secs, lb);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    /// A slowed cable and a late rank on any scenario: the run still verifies and conserves bytes,
    /// no link carries more than its slowed capacity, nothing to or from the straggler starts
    /// before it joins, and the run cannot end before the straggler has joined.
    #[test]
    fn faults_keep_every_invariant(sc in scenario(), pick in any::<prop::sample::Index>(), factor in 0.05f64..1.0, rank in any::<prop::sample::Index>(), delay_us in 0.0f64..500.0) {
        use allreduce_lab::sim::faults::{Cable, Faults, SlowLink, Straggler};
        let topo = Topology::new(&sc.topology).unwrap();
        prop_assume!(!topo.links().is_empty() && topo.ranks() > 1);
        let link = &topo.links()[pick.index(topo.links().len())];
        let straggler = rank.index(topo.ranks());
        let delay_secs = delay_us * 1e-6;
        let sc = Scenario {
            faults: Faults {
                slow_links: vec![SlowLink { cable: Cable::new(link.from, link.to), factor }],
                stragglers: vec![Straggler { rank: straggler, delay_secs }],
            },
            ..sc
        };
        let t = simulate(&sc, true).unwrap().trace;
        prop_assert!(t.verified(), "{:?}", t.verification);
        let sent: u64 = t.ranks.iter().map(|r| r.sent_bytes).sum();
        let received: u64 = t.ranks.iter().map(|r| r.received_bytes).sum();
        prop_assert_eq!(sent, received);
        // The slowed cable's two directions run at `factor` of the healthy rate, and no faster.
        for (l, (slowed, healthy)) in t.topology.links().iter().zip(topo.links()).enumerate() {
            let want = if Cable::new(link.from, link.to).carries(healthy.from, healthy.to) {
                healthy.bandwidth.bytes_per_sec() * factor
            } else {
                healthy.bandwidth.bytes_per_sec()
            };
            prop_assert!((slowed.bandwidth.bytes_per_sec() / want - 1.0).abs() < 1e-12);
            for change in &t.links[l].timeline {
                prop_assert!(change.bytes_per_sec <= want * (1.0 + 1e-9));
            }
        }
        let mut touches = false;
        for (id, tr) in t.schedule.transfers().iter().enumerate() {
            if tr.src() as usize == straggler || tr.dst() as usize == straggler {
                touches = true;
                prop_assert!(t.timing(id).start_secs >= delay_secs);
            }
        }
        if touches {
            prop_assert!(t.time_secs >= delay_secs);
        }
    }
}
