//! Preparing a run in slices (the schedule a step at a time with `Scheduling`, then the run's
//! indexes and buffers with `PreparingRun`, both inside `Simulating`) and finishing it in slices
//! (`Finishing`) gives exactly what the one-shot path gives, over random scenarios, and each
//! slice's work is bounded; a `TimingRun` ends with `simulate`'s time to the bit.
//!
#![cfg(not(target_arch = "wasm32"))]

use allreduce_lab::sim::algorithms::{self, Algorithm, Scheduling};
use allreduce_lab::sim::run::{PreparingRun, Run, RunOptions};
use allreduce_lab::sim::scenario::{Scenario, Simulating, TimingRun, simulate, transfers_on};
use allreduce_lab::sim::schedule::Schedule;
use allreduce_lab::sim::topology::{Topology, TopologySpec};
use allreduce_lab::sim::trace::Trace;
use allreduce_lab::sim::units::Bandwidth;
use proptest::prelude::*;

mod common;
use common::scenarios::{Draw, scenario_of};

/// Random scenarios small enough for a debug build; `auto` included.
fn scenario() -> impl Strategy<Value = Scenario> {
    (
        Draw::up_to(64).topology(),
        prop::sample::select(Algorithm::ALL.to_vec()),
        1u64..50_000_000,
        1usize..=6,
        prop_oneof![Just(0.0), 0.0f64..1e-10],
    )
        .prop_map(|(t, a, s, k, g)| scenario_of(t, a, s, k, g))
        .prop_filter("small enough for a debug build", |sc| {
            let topo = Topology::new(&sc.topology).unwrap();
            transfers_on(sc.algorithm, &topo, sc.segments) <= 20_000
        })
}

/// Every transfer, dependency and join of two schedules agree.
fn same_schedule(a: &Schedule, b: &Schedule) -> Result<(), TestCaseError> {
    prop_assert_eq!(a.len(), b.len());
    prop_assert_eq!(a.chunks(), b.chunks());
    prop_assert_eq!(a.size_bytes(), b.size_bytes());
    prop_assert_eq!(a.transfers(), b.transfers());
    for t in 0..a.len() {
        prop_assert_eq!(
            a.deps(t).collect::<Vec<_>>(),
            b.deps(t).collect::<Vec<_>>(),
            "transfer {}",
            t
        );
    }
    prop_assert_eq!(a.joins(), b.joins());
    for j in 0..a.joins() {
        prop_assert_eq!(a.join_members(j), b.join_members(j), "join {}", j);
    }
    Ok(())
}

/// Two traces are the same run: every timing, change and total, bit for bit.
fn same_trace(a: &Trace, b: &Trace) -> Result<(), TestCaseError> {
    prop_assert_eq!(a.time_secs.to_bits(), b.time_secs.to_bits());
    prop_assert_eq!(&a.timings, &b.timings);
    prop_assert_eq!(&a.cell_changes, &b.cell_changes);
    prop_assert_eq!(&a.ranks, &b.ranks);
    prop_assert_eq!(&a.links, &b.links);
    prop_assert_eq!(&a.verification, &b.verification);
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    #[test]
    fn a_schedule_built_in_slices_is_the_same_schedule(sc in scenario(), slice in 1usize..300) {
        let topo = Topology::new(&sc.topology).unwrap();
        let whole = algorithms::schedule(sc.algorithm, &topo, sc.size_bytes, sc.segments);
        let mut sliced = Scheduling::new_for(sc.algorithm, &topo, sc.size_bytes, sc.segments);
        let mut last = sliced.progress().0;
        loop {
            let finished = sliced.step(slice);
            let (done, total) = sliced.progress();
            // A slice adds whole steps: at most `slice` transfers plus one step (≤ one per rank
            // and channel).
            prop_assert!(done - last < slice + topo.ranks(), "{} transfers in one slice", done - last);
            prop_assert!(done <= total);
            last = done;
            if finished {
                prop_assert_eq!(done, total);
                break;
            }
        }
        same_schedule(&sliced.finish(), &whole)?;
    }

    #[test]
    fn a_run_prepared_in_slices_is_the_same_run(sc in scenario(), slice in 1usize..300) {
        prop_assume!(sc.algorithm != Algorithm::Auto);
        let topo = Topology::new(&sc.topology).unwrap();
        let schedule = algorithms::schedule(sc.algorithm, &topo, sc.size_bytes, sc.segments);
        let options = RunOptions { gamma_secs_per_byte: sc.gamma_secs_per_byte, record_details: true };
        let mut preparing = PreparingRun::new(&topo, schedule.clone(), &options);
        let mut last = preparing.progress().0;
        while !preparing.step(slice) {
            let (done, total) = preparing.progress();
            prop_assert!(done - last <= 3 * slice, "{} items in one slice", done - last);
            prop_assert!(done < total);
            last = done;
        }
        let a = preparing.finish().finish();
        let b = Run::new(&topo, schedule, &options).finish();
        same_trace(&a, &b)?;
    }

    #[test]
    fn a_run_finished_in_slices_is_the_same_run(sc in scenario(), slice in 1usize..300, details: bool) {
        prop_assume!(sc.algorithm != Algorithm::Auto);
        let topo = Topology::new(&sc.topology).unwrap();
        let schedule = algorithms::schedule(sc.algorithm, &topo, sc.size_bytes, sc.segments);
        let options = RunOptions { gamma_secs_per_byte: sc.gamma_secs_per_byte, record_details: details };
        let whole = Run::new(&topo, schedule.clone(), &options).finish();
        let mut finishing = Run::new(&topo, schedule.clone(), &options).finishing();
        let mut last = finishing.progress();
        while !finishing.step(slice) {
            let now = finishing.progress();
            // Forward by at most a slice's items a call, to the same total.
            prop_assert_eq!(now.1, last.1);
            prop_assert!(now.0 >= last.0 && now.0 - last.0 <= slice, "{:?} after {:?}", now, last);
            last = now;
        }
        prop_assert_eq!(finishing.progress().0, last.1);
        let sliced = finishing.finish();
        same_trace(&sliced, &whole)?;
        prop_assert_eq!(&sliced.step_end_secs, &whole.step_end_secs);
        same_schedule(&sliced.schedule, &schedule)?;
    }

    #[test]
    fn a_timing_run_ends_with_simulate_s_time(sc in scenario(), slice in 1usize..300) {
        let whole = simulate(&sc, false).unwrap();
        let mut timing = TimingRun::new(&sc).unwrap();
        let mut last = 0;
        while !timing.step(slice) {
            let done = timing.progress().0;
            prop_assert!(done >= last);
            last = done;
        }
        let timed = timing.finish().unwrap();
        prop_assert_eq!(timed.algorithm, whole.algorithm);
        prop_assert_eq!(timed.time_secs.to_bits(), whole.trace.time_secs.to_bits());
    }

    #[test]
    fn a_simulation_prepared_and_run_in_slices_is_simulate(sc in scenario(), slice in 1usize..300) {
        let whole = simulate(&sc, true).unwrap();
        let mut sliced = Simulating::new(&sc, true).unwrap();
        // Nothing is built until the first slice; the preparation reports how far it is.
        let first = sliced.preparing();
        prop_assert_eq!(sliced.progress().0, 0);
        let mut last_prep = first.map_or(0, |(d, _)| d);
        let mut prepared = first.is_none();
        while !sliced.step(slice) {
            match sliced.preparing() {
                Some((done, total)) => {
                    prop_assert!(!prepared, "preparing again after the first run started");
                    prop_assert!(done >= last_prep && done <= total);
                    prop_assert_eq!(sliced.progress().0, 0);
                    last_prep = done;
                }
                None => prepared = true,
            }
        }
        let sliced = sliced.finish().unwrap();
        prop_assert_eq!(sliced.algorithm, whole.algorithm);
        prop_assert_eq!(&sliced.auto, &whole.auto);
        same_trace(&sliced.trace, &whole.trace)?;
    }
}

/// The lab's heaviest shapes at 1,024 GPUs: building the schedule never adds more than one ring
/// step (1,024 transfers) beyond the slice, and the preparation of the run never does more than
/// three slices' worth of items in one call; a newly created `Simulating` has built nothing.
#[test]
fn preparing_a_1024_rank_ring_is_done_in_bounded_slices() {
    let topology = TopologySpec::Uniform {
        ranks: 1024,
        bandwidth: Bandwidth::from_gbytes_per_sec(50.0),
        latency_secs: 5e-6,
    };
    let topo = Topology::new(&topology).unwrap();
    for algorithm in [Algorithm::Ring, Algorithm::Hierarchical] {
        let mut sched = Scheduling::new_for(algorithm, &topo, 1 << 30, 1);
        assert_eq!(sched.progress(), (0, 2 * 1024 * 1023));
        let mut last = 0;
        let mut slices = 0;
        while !sched.step(4096) {
            let done = sched.progress().0;
            assert!(done - last < 4096 + 1024);
            last = done;
            slices += 1;
        }
        assert!(slices >= 2 * 1024 * 1023 / (4096 + 1024));
        let schedule = sched.finish();
        let mut prep = PreparingRun::new(&topo, schedule, &RunOptions::default());
        let (mut last, total) = prep.progress();
        assert_eq!(last, 0);
        // Two passes over the dependencies, a million buffer cells, a record per transfer and its
        // route counted (to size the link timelines).
        assert_eq!(total, 2 * 2_095_104 + 1024 * 1024 + 2 * 2_095_104);
        while !prep.step(65_536) {
            let done = prep.progress().0;
            assert!(done - last <= 3 * 65_536);
            last = done;
        }
        let mut run = prep.finish();
        assert_eq!(run.progress(), (0, 2_095_104));
        assert!(!run.step(1));
    }
    let sc = scenario_of(topology, Algorithm::Hierarchical, 1 << 30, 1, 0.0);
    let sim = Simulating::new(&sc, true).unwrap();
    assert_eq!(sim.preparing(), Some((0, 1000)));
    assert_eq!(sim.progress(), (0, 2_095_104));
}
