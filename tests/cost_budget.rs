//! A run costs what the core's estimate says, at most: large runs' peak allocation under
//! `RunCost::peak_bytes(_with_details)` (random scenarios' is `cost_estimate.rs`'s), a run over
//! budget refused at once, without allocating what it would have needed, and the steps after a
//! run (its trace, its sections for the page, reading them back) holding little beside it.
#![cfg(not(target_arch = "wasm32"))]

use allreduce_lab::sim::algorithms::{self, Algorithm};
use allreduce_lab::sim::cost::Exceeded;
use allreduce_lab::sim::scenario::{Scenario, ScenarioError, Simulating, simulate};
use allreduce_lab::sim::topology::{Topology, TopologySpec};
use allreduce_lab::sim::units::Bandwidth;

mod common;
use common::scenarios::scenario_of;
use std::sync::Mutex;

use allreduce_lab::heap::{Counting, live_bytes, peak_during};

#[global_allocator]
static COUNTING: Counting = Counting;

/// Tests in this file measure allocation one at a time (every one takes it: another test's
/// allocations would count in what a test measures). The property test, whose generator
/// allocates outside any test's lock, has a binary of its own (`cost_estimate.rs`).
static ONE_AT_A_TIME: Mutex<()> = Mutex::new(());

/// NCCL's rings on `nodes` nodes of 8 GPUs of a rail network, in `pieces`: the kind of run the
/// lab admits by its typical cost (on 8 nodes, many links with long timelines).
fn rail_rings(nodes: usize, pieces: usize) -> Scenario {
    scenario_of(
        common::scenarios::rail(nodes, 8, false),
        Algorithm::NcclRing,
        1 << 28,
        pieces,
        0.0,
    )
}

/// The bytes the counting allocator holds now, as the guard reads them.
fn live() -> u64 {
    live_bytes() as u64
}

#[test]
fn a_run_under_a_memory_limit_stops_once_the_heap_passes_it() {
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let s = rail_rings(2, 32);
    let run = || Simulating::new(&s, true).unwrap();
    let (whole, peak) = peak_during(|| run().finish());
    assert!(whole.unwrap().trace.verified());
    let peak = peak as u64;
    assert!(peak > 10_000_000, "{peak} B: a run worth stopping");
    // A limit just above the run's own peak: it never passes it, and finishes.
    let roomy = live() + peak + (1 << 20);
    let done = run().limit_memory(roomy, live).finish();
    assert!(done.unwrap().trace.verified());
    // Half of it: the run stops, and well before its peak (the guard looks after every slice).
    let half = live() + peak / 2;
    let (stopped, stopped_peak) = peak_during(|| run().limit_memory(half, live).finish());
    match stopped {
        Err(ScenarioError::MemoryOverLimit { limit_bytes }) => assert_eq!(limit_bytes, half),
        other => panic!("not stopped: {:?}", other.map(|s| s.trace.time_secs)),
    }
    assert!(
        (stopped_peak as u64) < peak * 3 / 4,
        "stopped at {stopped_peak} B of {peak} B"
    );
}

#[test]
fn every_stage_of_auto_is_guarded() {
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    // `auto` runs its candidates without details, then its choice with them.
    let s = scenario_of(
        common::scenarios::rail(2, 4, false),
        Algorithm::Auto,
        1 << 24,
        4,
        0.0,
    );
    let run = |limit: u64| {
        let mut sim = Simulating::new(&s, true).unwrap().limit_memory(limit, live);
        let mut steps = 0;
        while !sim.step(1 << 10) {
            steps += 1;
        }
        (steps, sim.finish())
    };
    let (whole, peak) = peak_during(|| Simulating::new(&s, true).unwrap().finish());
    assert!(whole.unwrap().trace.verified());
    // Nothing to spare: the first step, building the first candidate's schedule, stops it.
    let (steps, stopped) = run(0);
    assert_eq!(steps, 0);
    assert!(matches!(
        stopped,
        Err(ScenarioError::MemoryOverLimit { .. })
    ));
    // Half of what the whole takes: it stops later, after some steps (of a candidate, or of
    // the chosen run with details).
    let (steps, stopped) = run(live() + peak as u64 / 2);
    assert!(steps > 0);
    assert!(matches!(
        stopped,
        Err(ScenarioError::MemoryOverLimit { .. })
    ));
}

#[test]
fn the_lab_admits_rings_by_their_typical_cost_which_real_runs_stay_under() {
    // The typical cost is not a bound, but NCCL's rings on the lab's rail networks, the runs it
    // was measured on, and a ring crossing a rail network's spine stay under it, as do their
    // rate changes under those expected.
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    // Rail networks (a channel per GPU of a node), and one node of 16 GPUs with one NIC (one
    // channel: a ring, whose changes are not shared with other channels'; it records exactly two
    // per link of the route per transfer).
    let rail = |nodes, g| {
        (
            common::scenarios::rail(nodes, g, false),
            format!("rail {nodes}×{g}"),
        )
    };
    let one_nic = (
        common::scenarios::cluster([1, 1, 16], 400.0, 400.0, 1),
        "one node of 16, one NIC".to_string(),
    );
    for ((topology, name), segments) in [
        (rail(2, 8), 32),
        (rail(8, 2), 8),
        (rail(4, 4), 4),
        (rail(16, 4), 1),
        (one_nic, 1),
    ] {
        let s = scenario_of(topology, Algorithm::NcclRing, 1 << 28, segments, 0.0);
        check(s, format!("{name}, {segments} pieces"));
    }
    // The ring on a rail network without PXN, whose crossings of the spine share it: typically
    // once more per link of a crossing's route (the property test's case, 13 nodes of 2).
    let s = scenario_of(
        common::scenarios::rail(13, 2, false),
        Algorithm::Ring,
        1 << 28,
        1,
        0.0,
    );
    check(s, "ring on rail 13×2 without PXN".to_string());
}

/// A run with details stays under its typical cost, its rate changes under those expected.
fn check(s: Scenario, what: String) {
    let cost = s.cost().unwrap();
    let (sim, peak) = peak_during(|| simulate(&s, true).unwrap());
    assert!(sim.trace.verified());
    let recorded: usize = sim.trace.links.iter().map(|l| l.timeline.len()).sum();
    assert!(
        recorded as u64 <= cost.rate_changes_expected,
        "{what}: {recorded} rate changes, {} expected",
        cost.rate_changes_expected
    );
    assert!(
        (peak as u64) < cost.peak_bytes_typical,
        "{what}: {peak} B, typically {} B",
        cost.peak_bytes_typical
    );
    assert!(
        cost.peak_bytes_typical < cost.peak_bytes_with_details,
        "{what}"
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
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
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
fn the_readme_s_largest_runs_are_admitted_and_are_the_largest() {
    // README's table of what large runs cost: the command line must still take them (a bound per
    // cell raised to 144 B once refused Rabenseifner on 4,096 ranks, which peaks at 1.9 GB), and
    // the largest it names are the largest (it said a ring of 2,382 ranks while 2,408 fitted).
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let ring = Scenario {
        algorithm: Algorithm::Ring,
        segments: 1,
        ..flat_tree(4096, 1)
    };
    // Hierarchical on a cluster of 16 racks of 32 nodes of 8 GPUs (the CLI's other defaults).
    let cluster = Scenario {
        algorithm: Algorithm::Hierarchical,
        topology: TopologySpec::Cluster {
            racks: 16,
            nodes_per_rack: 32,
            gpus_per_node: 8,
            intra_bw: Bandwidth::from_gbytes_per_sec(450.0),
            intra_lat_secs: 1e-6,
            node_bw: Bandwidth::from_gbits_per_sec(400.0),
            node_lat_secs: 2e-6,
            rack_bw: Bandwidth::from_gbits_per_sec(200.0),
            rack_lat_secs: 5e-6,
            oversubscription: 1.0,
            nics_per_node: 1,
        },
        ..ring.clone()
    };
    for (s, most) in [(&ring, 2496), (&cluster, 4007)] {
        let topo = Topology::new(&s.topology).unwrap();
        let over = s
            .check_cost(&topo, &allreduce_lab::sim::cost::RUN_BUDGET)
            .unwrap_err();
        assert_eq!(
            (over.exceeded, over.max_ranks),
            (Exceeded::Memory, Some(most))
        );
    }
    for (algorithm, ranks) in [
        (Algorithm::Rabenseifner, 4096),
        (Algorithm::Ring, 2496),
        (Algorithm::Hierarchical, 2496),
        (Algorithm::Ring, 1024),
    ] {
        let s = Scenario {
            algorithm,
            segments: 1,
            ..flat_tree(ranks, 1)
        };
        assert_eq!(
            s.validate().err().map(|e| e.to_string()),
            None,
            "{algorithm} on {ranks} ranks"
        );
    }
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
        .position(|t| t.phase() == allreduce_lab::sim::schedule::Phase::Broadcast)
        .unwrap();
    assert_eq!(schedule.waits_for(first_broadcast).count(), 1023);
}

#[test]
fn the_cli_refuses_the_out_of_memory_case_at_once_under_a_512_mb_cap() {
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
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

#[test]
fn reading_a_run_back_from_its_sections_holds_little_more_than_the_sections() {
    use allreduce_lab::sim::wire::{self, Section};
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let s = rail_rings(8, 8);
    let mut sections = wire::to_sections(simulate(&s, true).unwrap());
    // As the page receives them: the transfers' words (which the worker packs as it copies them
    // out) unpacked as they are copied in, into room made for all of them at once.
    let Section::Transfers(sent) =
        std::mem::replace(&mut sections[wire::TRANSFERS], Section::U8(vec![]))
    else {
        panic!("the transfers");
    };
    let words = wire::pack_transfers(&sent);
    drop(sent);
    let mut transfers = Vec::with_capacity(words.len() / wire::TRANSFER_WORDS);
    for piece in words.chunks(wire::TRANSFER_WORDS << 10) {
        wire::unpack_transfers(piece, &mut transfers).unwrap();
    }
    drop(words);
    sections[wire::TRANSFERS] = Section::Transfers(transfers);
    // The concatenated timelines (sections 15 to 18), which the links copy out of.
    let timelines: usize = sections[15..19]
        .iter()
        .map(|s| match s {
            Section::U32(v) => 4 * v.len(),
            Section::U8(v) => v.len(),
            Section::F64(v) => 8 * v.len(),
            Section::Transfers(_) => panic!("a timeline's part"),
        })
        .sum();
    let (sim, extra) = peak_during(|| wire::from_sections(sections, &s).unwrap());
    assert!(sim.trace.verified());
    // The links are read from the last, and what each copies out is given back as it goes: what
    // is held twice is at most an eighth of what is left, and the link being read. (Holding
    // every copy beside the whole was `timelines` more; the transfers' words beside the
    // transfers, 16 B a transfer more.)
    assert!(
        extra < timelines / 4,
        "{extra} B beyond the sections; the timelines are {timelines} B"
    );
}

#[test]
fn indexing_a_trace_for_its_replay_holds_its_index_and_a_count_per_instant() {
    use allreduce_lab::sim::replay::ReplayBuilder;
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let trace = simulate(&rail_rings(8, 8), true).unwrap().trace;
    let (n, instants, changes) = (
        trace.timings.len(),
        trace.timings.instant_count(),
        trace.cell_changes.len(),
    );
    let (replay, extra) = peak_during(|| {
        let mut builder = ReplayBuilder::new(&trace);
        while !builder.step(&trace, 10_000) {}
        builder.finish(&trace)
    });
    // The transfers in start order (4 B each) beside a count per instant, then beside the cell
    // changes' times (8 B each): no sort keys, no merge's second half.
    let bound = 4 * n + (4 * instants).max(8 * changes);
    assert!(extra <= bound + 4096, "{extra} B; bound {bound} B");
    assert_eq!(replay.changes_until(trace.time_secs), changes);
}

#[test]
fn putting_the_dependency_lists_back_holds_no_more_than_the_run_did() {
    use allreduce_lab::sim::run::{Run, RunOptions};
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let topo = Topology::new(&TopologySpec::Uniform {
        ranks: 128,
        bandwidth: Bandwidth::from_gbytes_per_sec(1.0),
        latency_secs: 1e-6,
    })
    .unwrap();
    let schedule = algorithms::schedule(Algorithm::Ring, &topo, 1 << 24, 1);
    let n = schedule.len();
    let options = RunOptions {
        gamma_secs_per_byte: 0.0,
        record_details: true,
    };
    let mut run = Run::new(&topo, schedule, &options);
    while !run.step(1 << 16) {}
    // The lists (4 B a dependency, 4 B a transfer for their starts) are built as the run's
    // reverse index and buffers go: a ring's 2 dependencies a transfer fill its buffers' room
    // (16 B a cell, a cell per 2 transfers), and the starts come once the dependents are gone. Building
    // them beside the whole index took 4 B a transfer more.
    let (trace, extra) = peak_during(|| run.finish());
    assert!(trace.verified());
    assert!(
        extra <= n,
        "{extra} B beyond the run's own for {n} transfers"
    );
}

#[test]
fn a_run_s_sections_hold_no_more_than_the_run() {
    use allreduce_lab::sim::wire::{self, Section};
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let sim = simulate(&rail_rings(8, 8), true).unwrap();
    let n = sim.trace.schedule.len();
    let before = live_bytes();
    let (sections, extra) = peak_during(|| wire::to_sections(sim));
    // What a section carries (its length) and holds (its room), in bytes.
    let size = |s: &Section| match s {
        Section::U32(v) => (4 * v.len(), 4 * v.capacity()),
        Section::U8(v) => (v.len(), v.capacity()),
        Section::F64(v) => (8 * v.len(), 8 * v.capacity()),
        Section::Transfers(v) => {
            let each = std::mem::size_of::<allreduce_lab::sim::schedule::Transfer>();
            (each * v.len(), each * v.capacity())
        }
    };
    let held: usize = sections.iter().map(|s| size(s).1).sum();
    // The concatenated timelines are sections 15 to 18.
    let timelines: usize = sections[15..19].iter().map(|s| size(s).0).sum();
    // The sections are the run's vectors moved out, or copies made to measure (the links'
    // timelines concatenated): grown as they filled instead, they held 18 % more than the run.
    let after = live_bytes();
    assert!(
        after <= before + (64 << 10),
        "{after} B live with the sections ({held} B), {before} B with the run"
    );
    // While they are made: the concatenated timelines beside the links' own, and nothing for the
    // transfers, which go as they are (packing them here held their words beside them, 16 B a
    // transfer: 8.3 MB beyond this run).
    let bound = timelines;
    assert!(
        extra <= bound + (64 << 10),
        "{extra} B beyond the run of {n} transfers; bound {bound} B"
    );
}
