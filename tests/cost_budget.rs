//! A run costs what the core's estimate says, at most: peak allocation under
//! `RunCost::peak_bytes(_with_details)` for random scenarios, and a run over budget refused at once,
//! without allocating what it would have needed.
#![cfg(not(target_arch = "wasm32"))]

use allreduce_lab::sim::algorithms::{self, Algorithm};
use allreduce_lab::sim::cost::{BYTES_PER_RATE_CHANGE, Budget, Exceeded};
use allreduce_lab::sim::scenario::{Scenario, ScenarioError, Simulating, simulate, transfers_on};
use allreduce_lab::sim::topology::{Topology, TopologySpec};
use allreduce_lab::sim::units::Bandwidth;
use proptest::prelude::*;

mod common;
use common::scenarios::{Draw, scenario_of};
use std::sync::Mutex;

#[path = "common/counting.rs"]
mod counting;
use counting::{Counting, peak_during};

#[global_allocator]
static COUNTING: Counting = Counting;

/// Tests in this file measure allocation one at a time.
static ONE_AT_A_TIME: Mutex<()> = Mutex::new(());

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
        let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
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

/// The lab's kind of budget: details, the rate changes a run is expected to record, and the run
/// stopping if it records more. Set to exactly what the estimate says the run needs.
fn tight_lab_budget(s: &Scenario) -> Budget {
    let cost = s.cost().unwrap();
    let lab = Budget {
        bytes: 0,
        details: true,
        expected_rate_changes: true,
        sharing_work: u64::MAX,
    };
    Budget {
        bytes: cost.peak_bytes_for(&lab),
        ..lab
    }
}

#[test]
fn a_run_under_a_budget_of_expected_rate_changes_stops_before_it_outgrows_it() {
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    // NCCL's two channels on nodes whose NVLink (1.3 GB/s) is slower than their NICs (19 GB/s):
    // the channels drift apart and re-rate each other, 9.2 rate changes per transfer against the
    // 8 a ring is expected to record (found by the property test below).
    let drifting = scenario_of(
        TopologySpec::Cluster {
            racks: 1,
            nodes_per_rack: 3,
            gpus_per_node: 2,
            intra_bw: Bandwidth::from_gbytes_per_sec(1.308_998_089_480_495_7),
            intra_lat_secs: 1e-6,
            node_bw: Bandwidth::from_gbytes_per_sec(19.292_329_426_034_77),
            node_lat_secs: 1e-6,
            rack_bw: Bandwidth::from_gbytes_per_sec(292.781_811_930_827_3),
            rack_lat_secs: 1e-6,
            oversubscription: 1.0,
            nics_per_node: 2,
        },
        Algorithm::NcclRing,
        11_039_647,
        20,
        0.0,
    );
    // NCCL's rings on 16 GPUs of a rail network: 3.2 per transfer, well within the 16 expected.
    let rail = scenario_of(
        common::scenarios::rail(2, 8, false),
        Algorithm::NcclRing,
        1 << 28,
        32,
        0.0,
    );
    for (s, stops) in [(&drifting, true), (&rail, false)] {
        let budget = tight_lab_budget(s);
        let (outcome, peak) = peak_during(|| {
            Simulating::new(s, true)
                .unwrap()
                .limit_rate_changes(&budget)
                .finish()
        });
        assert!(
            peak as u64 <= budget.bytes,
            "{peak} B allocated, budget {} B",
            budget.bytes
        );
        let expected = s.cost().unwrap().rate_changes_expected;
        match outcome {
            Err(ScenarioError::DetailsOverBudget {
                rate_changes,
                limit_bytes,
            }) => {
                assert!(stops, "{s:?} stopped");
                // The budget holds exactly the expected changes; the run stopped past them.
                assert_eq!((rate_changes, limit_bytes), (expected, budget.bytes));
                let sim = simulate(s, true).unwrap();
                let recorded: usize = sim.trace.links.iter().map(|l| l.timeline.len()).sum();
                assert!(recorded as u64 > expected);
            }
            Ok(sim) => {
                assert!(!stops, "{s:?} did not stop");
                assert!(sim.trace.verified());
                let recorded: usize = sim.trace.links.iter().map(|l| l.timeline.len()).sum();
                assert!(recorded as u64 <= expected, "{recorded} > {expected}");
            }
            Err(e) => panic!("{e}"),
        }
    }
}

#[test]
fn auto_keeps_to_the_budget_its_chosen_run_leaves() {
    // `auto` runs its candidates without details, then its choice with them: the limit on rate
    // changes comes from the chosen algorithm's own cost, not from `auto`'s (each of whose
    // fields is the most of any candidate's).
    let s = scenario_of(
        common::scenarios::rail(2, 4, false),
        Algorithm::Auto,
        1 << 24,
        4,
        0.0,
    );
    let chosen = simulate(&s, false).unwrap().auto.unwrap().chosen;
    let own = Scenario {
        algorithm: chosen,
        ..s.clone()
    }
    .cost()
    .unwrap();
    let others = own.peak_bytes_with_details - own.rate_changes * BYTES_PER_RATE_CHANGE;
    let budget = Budget {
        bytes: others + 10 * BYTES_PER_RATE_CHANGE,
        details: true,
        expected_rate_changes: true,
        sharing_work: u64::MAX,
    };
    let stopped = Simulating::new(&s, true)
        .unwrap()
        .limit_rate_changes(&budget)
        .finish();
    assert!(
        matches!(
            stopped,
            Err(ScenarioError::DetailsOverBudget {
                rate_changes: 10,
                ..
            })
        ),
        "{chosen}: {stopped:?}"
    );
}

#[test]
fn large_runs_on_a_cluster_stay_under_the_estimate_where_the_per_item_costs_dominate() {
    // 256 GPUs (4 racks × 8 nodes × 8): the ring's 130 k transfers, the double binary tree's
    // 64 segments with their contended links and wide rate palettes, with γ (a fourth instant
    // per transfer). Tens of MB each, far above the fixed 4 MiB: the per-transfer, per-cell and
    // per-change constants are what is checked here.
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let topo = common::scenarios::cluster([4, 8, 8], 3200.0, 12800.0, 1);
    for (alg, k, gamma) in [
        (Algorithm::Ring, 1, 0.0),
        (Algorithm::Ring, 1, 1e-12),
        (Algorithm::DoubleBinaryTree, 64, 0.0),
    ] {
        let s = scenario_of(topo.clone(), alg, 1 << 30, k, gamma);
        let cost = s.cost().unwrap();
        assert!(
            cost.peak_bytes_with_details > 4 * (4 << 20),
            "{alg}: per-item costs dominate"
        );
        for details in [false, true] {
            let (sim, peak) = peak_during(|| simulate(&s, details).unwrap());
            assert!(sim.trace.verified());
            let estimate = if details {
                cost.peak_bytes_with_details
            } else {
                cost.peak_bytes
            };
            assert!(
                peak as u64 <= estimate,
                "{alg} γ={gamma} details={details}: {peak} B allocated, estimate {estimate} B"
            );
        }
    }
}

fn flat_tree(ranks: usize, segments: usize) -> Scenario {
    Scenario {
        topology: TopologySpec::Uniform {
            ranks,
            bandwidth: Bandwidth::from_gbytes_per_sec(100.0),
            latency_secs: 5e-6,
        },
        algorithm: Algorithm::TreeFlat,
        size_bytes: 1 << 30,
        segments,
        gamma_secs_per_byte: 0.0,
        faults: Default::default(),
    }
}

#[test]
fn the_flat_tree_on_4096_ranks_with_256_segments_is_refused_with_a_way_to_shrink_it() {
    let s = flat_tree(4096, 256);
    let err = s.validate().unwrap_err().to_string();
    assert!(err.contains("at most") && err.contains("segments"), "{err}");
    let topo = Topology::new(&s.topology).unwrap();
    let over = s
        .check_cost(&topo, &allreduce_lab::sim::cost::RUN_BUDGET)
        .unwrap_err();
    assert_eq!(over.exceeded, Exceeded::Work);
    // The advice is right: that many segments fits, one more does not.
    let k = over.max_segments.expect("fewer segments fit");
    assert!(flat_tree(4096, k).validate().is_ok());
    assert!(flat_tree(4096, k + 1).validate().is_err());
}

#[test]
fn a_root_waiting_for_every_rank_costs_linear_dependencies() {
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    // 1024 ranks, 64 segments: each broadcast from the root used to list the segment's 1023
    // reductions (67 M edges); a join per segment makes it one entry.
    let s = flat_tree(1024, 64);
    let topo = s.validate().unwrap();
    let (schedule, peak) =
        peak_during(|| algorithms::schedule(Algorithm::TreeFlat, &topo, s.size_bytes, 64));
    assert_eq!(schedule.len(), 2 * 1023 * 64);
    assert!(schedule.dependency_count() <= 3 * schedule.len());
    assert_eq!(schedule.joins(), 64);
    assert!(peak < 10_000_000, "{peak} B for the schedule");
    // Through the join, the first broadcast still waits for every reduction of segment 0.
    let first_broadcast = schedule
        .transfers()
        .iter()
        .position(|t| t.phase == allreduce_lab::sim::schedule::Phase::Broadcast)
        .unwrap();
    assert_eq!(schedule.waits_for(first_broadcast).count(), 1023);
}

#[test]
fn the_cli_refuses_the_out_of_memory_case_at_once_under_a_512_mb_cap() {
    // Before, this run passed validation and was killed at 23.7 GB. Under a 512 MB address-space
    // cap, any attempt to build it would abort; it must be refused with status 2 and advice.
    let out = std::process::Command::new("sh")
        .arg("-c")
        .arg(concat!(
            "ulimit -v 512000; exec \"$0\" simulate --algorithm tree-flat --topology uniform ",
            "--ranks 4096 --segments 256 --bandwidth 100GB/s --latency 5us --size 1GiB"
        ))
        .arg(env!("CARGO_BIN_EXE_allreduce-lab"))
        .output()
        .expect("sh runs");
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(out.stdout.is_empty());
    assert!(err.contains("segments") && err.contains("at most"), "{err}");
}
