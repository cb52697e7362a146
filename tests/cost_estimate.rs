//! Random scenarios' peak allocation stays under the core's estimate,
//! `RunCost::peak_bytes(_with_details)`, and the counts it is made of bound the run's. The only
//! test of its binary: proptest allocates as it generates and shrinks scenarios, which would count
//! in another test's measurement (`cost_budget.rs` holds those, one at a time).
#![cfg(not(target_arch = "wasm32"))]

use allreduce_lab::heap::{Counting, peak_during};
use allreduce_lab::sim::algorithms::Algorithm;
use allreduce_lab::sim::scenario::{Scenario, simulate, transfers_on};
use allreduce_lab::sim::topology::Topology;
use proptest::prelude::*;

mod common;
use common::scenarios::{Draw, scenario_of};

#[global_allocator]
static COUNTING: Counting = Counting;

fn scenario() -> impl Strategy<Value = Scenario> {
    (
        Draw {
            latency: Just(1e-6).boxed(),
            ..Draw::up_to(64)
        }
        .topology(),
        prop::sample::select(Algorithm::ALL.to_vec()),
        prop_oneof![1u64..100, 1_000u64..100_000_000],
        prop_oneof![Just(1usize), 1usize..=64],
        prop_oneof![Just(0.0), Just(1e-11)],
    )
        .prop_map(|(t, a, s, k, g)| scenario_of(t, a, s, k, g))
        .prop_filter("small enough for a debug build", |sc| {
            let topo = Topology::new(&sc.topology).unwrap();
            transfers_on(sc.algorithm, &topo, sc.segments) <= 100_000
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(160))]

    #[test]
    fn peak_allocation_stays_under_the_estimate(s in scenario()) {
        let cost = s.cost().unwrap();
        let (sim, quick_peak) = peak_during(|| simulate(&s, false).unwrap());
        prop_assert!(sim.trace.verified());
        prop_assert!(
            quick_peak as u64 <= cost.peak_bytes,
            "{s:?}: {quick_peak} B allocated, estimate {} B", cost.peak_bytes
        );
        drop(sim);
        let (sim, detailed_peak) = peak_during(|| simulate(&s, true).unwrap());
        prop_assert!(
            detailed_peak as u64 <= cost.peak_bytes_with_details,
            "{s:?}: {detailed_peak} B allocated with details, estimate {} B",
            cost.peak_bytes_with_details
        );
        // The counts the estimate is made of.
        if s.algorithm != Algorithm::Auto {
            let schedule = &sim.trace.schedule;
            prop_assert_eq!(schedule.len() as u64, cost.transfers);
            prop_assert!(schedule.dependency_count() as u64 <= cost.dependencies);
            prop_assert!((schedule.ranks() * schedule.chunks()) as u64 <= cost.cells);
            prop_assert!(sim.trace.cell_changes.len() as u64 <= cost.cell_changes);
            let rate_changes: usize = sim.trace.links.iter().map(|l| l.timeline.len()).sum();
            prop_assert!(rate_changes as u64 <= cost.rate_changes, "{} > {}", rate_changes, cost.rate_changes);
        }
    }
}
