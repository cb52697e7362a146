//! One simulation as the views need it: the run (or why it could not run), the replay indices, the
//! figure's layout and the equivalent command line. Built once per scenario; pure, no web types.

use crate::sim::algorithms::Algorithm;
use crate::sim::command::simulate_command;
use crate::sim::cost::{Budget, OverBudget, RUN_BUDGET};
use crate::sim::faults::Faults;
use crate::sim::replay::Replay;
use crate::sim::scenario::{Scenario, ScenarioError, Simulation, simulate, simulate_time};
use crate::sim::trace::Trace;
use crate::ui::model::layout::Layout;
use crate::ui::model::logic::{Controls, SEGMENTS, max_segments};
use std::rc::Rc;

/// What the lab lets one run cost, by the core's estimate ([`Scenario::check_cost`]; `auto` counts
/// all its candidates): its typical cost with details ([`Budget::typical`]: the core's bound on a
/// run's memory is 3–14 times what NCCL's rings on a rail network allocate), guarded by the size
/// of the page's wasm memory ([`Simulating::limit_memory`](crate::sim::scenario::Simulating::limit_memory)):
/// a run stops, with a message, should it grow that past 3 GB all the same (wasm32 addresses 4).
/// Large runs are sliced, so work (time) is bounded only to keep a run under about half a minute
/// here. The CLI's budget is the core's `RUN_BUDGET`, which records no details.
///
/// This admits every slider setting the CLI runs (69,192 of them, every NIC count and PXN setting;
/// `cargo run --release --example budget_scan`); the 108 it refuses, the lab refuses too. The
/// largest are NCCL's rings at 512–1,024 GPUs: 8.4–9.4 M transfers, typically 1.5–1.9 GB,
/// measured in Chromium at 1.00–1.10 GB of heap in 16.4–17.0 s (rail networks of 1,024 GPUs of 4
/// per node, 512 of 16 in 2 pieces, 768 of 8); 9.2 s natively for 768 GPUs of 16 with 8 NICs,
/// whose fair sharing is the most work the lab admits (1.2 G). Before, the lab counted their bound
/// (cells at 96 B, rate changes at 24 B and 16 per transfer; recorded: 1.9–5.8) and, on rail
/// networks without PXN, a bound of the spine's sharing as if typical (272–4,112 changes per
/// transfer; recorded: 4.0): it refused 164 settings with the default NICs and PXN, and the ring
/// and `auto` on rail networks without PXN from 192 GPUs.
pub const UI_BUDGET: Budget = Budget {
    bytes: 2_000_000_000,
    details: true,
    typical: true,
    sharing_work: 1_250_000_000,
};

/// Runs up to this many transfers are simulated at once, as the input changes (a few
/// milliseconds); larger ones in slices between animation frames once the input settles.
pub const AT_ONCE_MAX_TRANSFERS: u64 = 60_000;

/// Where a run on screen stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    /// The result (or why there is none) is in `result`.
    Done,
    /// Waiting for the input to settle before starting.
    Waiting,
    /// Preparing the run in slices (its schedule, indexes and buffers): how far, as `done` of
    /// `total` (thousandths).
    Preparing { done: usize, total: usize },
    /// Running in slices: transfers done so far, and in all.
    Running { done: usize, total: usize },
    /// Stopped by the learner before it finished.
    Cancelled,
}

/// Why the lab will not run `algorithm` on `controls`: the core's estimate
/// ([`Scenario::check_cost`]) of the topology the run would build, over [`UI_BUDGET`], or over
/// the core's own budget (which the CLI keeps to, without details); `None` when it may run (or
/// cannot be built at all, which its figure explains). The one estimate every control that
/// greys out a setting asks, and the one [`Plan::new`] refuses with.
pub fn refusal(controls: &Controls, algorithm: Algorithm) -> Option<Box<OverBudget>> {
    let s = controls.scenario(algorithm);
    match s.validate() {
        Ok(topo) => s.check_cost(&topo, &UI_BUDGET).err(),
        Err(ScenarioError::OverBudget { over, .. }) => Some(over),
        Err(_) => None,
    }
}

/// Whether a [`refusal`] is the core's own, which the CLI keeps to too (not only the lab's).
pub fn beyond_the_cli(over: &OverBudget) -> bool {
    over.budget == RUN_BUDGET
}

/// The first GPU count of `counts` at which any of `algorithms` is refused (counts ascending).
pub fn first_refused_gpus(
    controls: &Controls,
    algorithms: &[Algorithm],
    counts: &[usize],
) -> Option<usize> {
    counts.iter().copied().find(|&gpus| {
        let c = Controls {
            gpus,
            ..controls.clone()
        };
        algorithms.iter().any(|&a| refusal(&c, a).is_some())
    })
}

pub struct SimView {
    /// The algorithm asked for (`auto` shows what it chose in `result`).
    pub requested: Algorithm,
    /// (GPUs, the core's estimate over [`UI_BUDGET`], or over the core's own budget) when the
    /// lab refused the run (see [`refusal`]).
    pub refused: Option<(usize, Box<OverBudget>)>,
    pub result: Result<Simulation, ScenarioError>,
    pub replay: Replay,
    pub layout: Layout,
    /// The CLI command that computes the same run.
    pub cli: String,
    /// The slowed cables and late GPUs of the run (those of the controls its shape has).
    pub faults: Faults,
    /// Wall-clock milliseconds the simulation took (set by the caller, which has a clock).
    pub sim_ms: f64,
    /// The size of the page's wasm memory when a sliced run finished (set by the caller, which
    /// can see it; 0 otherwise).
    pub memory_bytes: u64,
    /// The simulation ran in a Web Worker (set by the caller, which sent it there).
    pub in_worker: bool,
    /// A Web Worker was given the run first and failed or fell silent: the page ran it, and
    /// `sim_ms` is the page's run (set by the caller).
    pub worker_lost: bool,
    pub status: Status,
}

/// How the lab runs a configuration: at once, or in slices.
pub enum Plan {
    /// The view is ready (the run was small, or could not run).
    Ready(Rc<SimView>),
    /// A run too large to do at once: the scenario, to be stepped with the core's `Simulating`.
    Sliced(Scenario),
}

impl Plan {
    /// What to do for `controls` running `algorithm`. Small runs are simulated here and now.
    pub fn new(controls: &Controls, algorithm: Algorithm) -> Plan {
        let ready = |result: Result<Simulation, ScenarioError>| {
            Plan::Ready(Rc::new(SimView::new(controls, algorithm, result)))
        };
        let refused = |over: Box<OverBudget>| {
            let mut view = SimView::new(
                controls,
                algorithm,
                Err(ScenarioError::OverBudget {
                    algorithm,
                    ranks: controls.gpus,
                    segments: algorithm.is_tree().then_some(controls.segments),
                    over: over.clone(),
                }),
            );
            view.refused = Some((controls.gpus, over));
            Plan::Ready(Rc::new(view))
        };
        let s = controls.scenario(algorithm);
        let topo = match s.validate() {
            Ok(topo) => topo,
            // Over the core's own budget: refused as the lab's would be.
            Err(ScenarioError::OverBudget { over, .. }) => return refused(over),
            Err(e) => return ready(Err(e)),
        };
        match s.check_cost(&topo, &UI_BUDGET) {
            Err(over) => refused(over),
            Ok(cost) if cost.transfers > AT_ONCE_MAX_TRANSFERS => Plan::Sliced(s),
            Ok(_) => Plan::Ready(Rc::new(SimView::build(controls, algorithm))),
        }
    }

    /// Whether [`Plan::new`] would run `controls` with `algorithm` in slices, without simulating
    /// anything (the page asks before it decides what to render first).
    pub fn is_sliced(controls: &Controls, algorithm: Algorithm) -> bool {
        let s = controls.scenario(algorithm);
        s.validate().is_ok_and(|topo| {
            s.check_cost(&topo, &UI_BUDGET)
                .is_ok_and(|cost| cost.transfers > AT_ONCE_MAX_TRANSFERS)
        })
    }
}

impl SimView {
    /// Simulates `controls` with `algorithm` now, whatever it costs (within the core's limits).
    pub fn build(controls: &Controls, algorithm: Algorithm) -> SimView {
        let result = simulate(&controls.scenario(algorithm), true);
        SimView::new(controls, algorithm, result)
    }

    /// The view of a finished run (or of why it could not run).
    pub fn new(
        controls: &Controls,
        algorithm: Algorithm,
        result: Result<Simulation, ScenarioError>,
    ) -> SimView {
        let replay = match &result {
            Ok(sim) => Replay::new(&sim.trace),
            Err(_) => Replay::default(),
        };
        SimView::with_replay(controls, algorithm, result, replay)
    }

    /// The view of a finished run whose replay index is built already (in slices, for a large
    /// run: see [`ReplayBuilder`](crate::sim::replay::ReplayBuilder)).
    pub fn with_replay(
        controls: &Controls,
        algorithm: Algorithm,
        result: Result<Simulation, ScenarioError>,
        replay: Replay,
    ) -> SimView {
        let layout = match &result {
            Ok(sim) => Layout::new(&sim.trace.topology),
            Err(_) => Layout::default(),
        };
        let scenario = controls.scenario(algorithm);
        SimView {
            requested: algorithm,
            refused: None,
            result,
            replay,
            layout,
            cli: simulate_command(&scenario),
            faults: scenario.faults,
            sim_ms: 0.0,
            in_worker: false,
            worker_lost: false,
            memory_bytes: 0,
            status: Status::Done,
        }
    }

    /// A run that is not finished yet (or was cancelled): no result to show, only where it stands.
    pub fn pending(controls: &Controls, algorithm: Algorithm, status: Status) -> SimView {
        SimView {
            status,
            // No run yet: the status, not this error, is what the view shows.
            ..SimView::new(controls, algorithm, Err(ScenarioError::NoRun))
        }
    }

    /// A run that is not on screen (the comparison is off): nothing simulated.
    pub fn idle(algorithm: Algorithm) -> SimView {
        SimView {
            requested: algorithm,
            refused: None,
            // Never drawn: the comparison is off.
            result: Err(ScenarioError::NoRun),
            replay: Replay::default(),
            layout: Layout::default(),
            cli: String::new(),
            faults: Faults::default(),
            sim_ms: 0.0,
            in_worker: false,
            worker_lost: false,
            memory_bytes: 0,
            status: Status::Done,
        }
    }

    pub fn trace(&self) -> Option<&Trace> {
        self.result.as_ref().ok().map(|s| &s.trace)
    }

    /// The algorithm the run shows: `auto`'s choice once it has run, else the one asked for.
    pub fn shown_algorithm(&self) -> Algorithm {
        self.result.as_ref().map_or(self.requested, |s| s.algorithm)
    }

    /// Per link the figure draws, whether no byte crosses it in the whole run and whether its
    /// cable is slowed: facts of the run, not of the frame (empty until it has run).
    pub fn line_marks(&self) -> Vec<(bool, bool)> {
        let Some(trace) = self.trace() else {
            return Vec::new();
        };
        let slow = &self.faults.slow_links;
        let links = trace.topology.links();
        (self.layout.lines.iter())
            .map(|line| {
                let unused = line.links.iter().all(|&l| trace.links[l].bytes == 0.0);
                let slowed = line.links.iter().any(|&l| {
                    slow.iter()
                        .any(|s| s.cable.carries(links[l].from, links[l].to))
                });
                (unused, slowed)
            })
            .collect()
    }

    /// The run's length in simulated seconds (0 when it could not run).
    pub fn end_secs(&self) -> f64 {
        self.trace().map_or(0.0, |t| t.time_secs)
    }
}

/// Which of two compared runs finished first, for the line above them: their times sit far apart
/// on the page (side by side, or on a narrow screen one under the other), and the ratio is what a
/// learner wants from a comparison.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Verdict {
    /// `faster` took `secs`; `slower` took `ratio` times as long (`slower_secs`).
    Faster {
        faster: Algorithm,
        secs: f64,
        slower: Algorithm,
        slower_secs: f64,
        ratio: f64,
    },
    /// Within half a percent of each other: no winner to name.
    Tie {
        a: Algorithm,
        a_secs: f64,
        b: Algorithm,
        b_secs: f64,
    },
}

/// Ratios below this are a tie: shown to three digits they read 1.00.
const TIE_RATIO: f64 = 1.005;

/// The verdict on runs `a` and `b` (their algorithms as shown: `auto`'s choice), once both have a
/// time; `None` while either is running or could not run, or when a time is not positive (one
/// GPU exchanges nothing: no ratio to give).
pub fn verdict(a: &SimView, b: &SimView) -> Option<Verdict> {
    let shown = |v: &SimView| -> Option<(Algorithm, f64)> {
        let s = v.result.as_ref().ok()?;
        let secs = s.trace.time_secs;
        (v.status == Status::Done && secs.is_finite() && secs > 0.0).then_some((s.algorithm, secs))
    };
    let ((alg_a, ta), (alg_b, tb)) = (shown(a)?, shown(b)?);
    let (fast, slow) = if ta <= tb {
        ((alg_a, ta), (alg_b, tb))
    } else {
        ((alg_b, tb), (alg_a, ta))
    };
    let ratio = slow.1 / fast.1;
    Some(if ratio < TIE_RATIO {
        Verdict::Tie {
            a: alg_a,
            a_secs: ta,
            b: alg_b,
            b_secs: tb,
        }
    } else {
        Verdict::Faster {
            faster: fast.0,
            secs: fast.1,
            slower: slow.0,
            slower_secs: slow.1,
            ratio,
        }
    })
}

/// What pipelining does for a tree shown beside another algorithm on the same network.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum SegmentsNote {
    /// The tree wins only because it is pipelined: with one segment it takes `unpipelined_secs`,
    /// no faster than the other run.
    WinsOnlyPipelined {
        segments: usize,
        unpipelined_secs: f64,
    },
    /// The tree loses as it is, but pipelined into `segments` it takes `secs` and wins.
    /// From `from` segments (the slider's) to `segments`.
    WouldWinWith {
        from: usize,
        segments: usize,
        secs: f64,
    },
}

/// Whether the tree `tree` (run with `controls`' segments, taking `tree_secs`) needs segments to
/// beat the other run (`other_secs`). Simulates the tree again with other segment counts (from the
/// slider's list, within what the lab allows); `None` when segments make no difference to who wins.
pub fn segments_note(
    controls: &Controls,
    tree: Algorithm,
    tree_secs: f64,
    other_secs: f64,
) -> Option<SegmentsNote> {
    if !tree.is_tree() {
        return None;
    }
    let time = |segments: usize| {
        let c = Controls {
            segments,
            ..controls.clone()
        };
        let s = c.scenario(tree);
        simulate_time(&s).ok().map(|t| t.time_secs)
    };
    let k = controls.effective_segments();
    // Ahead or behind by more than rounding, and by what the note's three digits can show: equal
    // times are neither (2 GPUs: tree and ring are the same transfers).
    let apart = |a: f64, b: f64| {
        (a - b).abs() > 1e-9 * b
            && crate::sim::units::format_secs(a) != crate::sim::units::format_secs(b)
    };
    if tree_secs < other_secs && apart(tree_secs, other_secs) {
        if k == 1 {
            return None;
        }
        let t1 = time(1)?;
        (t1 > other_secs && apart(t1, other_secs)).then_some(SegmentsNote::WinsOnlyPipelined {
            segments: k,
            unpipelined_secs: t1,
        })
    } else if tree_secs > other_secs && apart(tree_secs, other_secs) {
        SEGMENTS
            .iter()
            .copied()
            .filter(|&s| s > k && s <= max_segments(controls.gpus))
            .find_map(|s| {
                let t = time(s)?;
                (t < other_secs && apart(t, other_secs)).then_some(SegmentsNote::WouldWinWith {
                    from: k,
                    segments: s,
                    secs: t,
                })
            })
    } else {
        // A tie (to what the note's digits show): neither "wins" nor "loses" holds.
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::course::presets::preset;

    #[test]
    fn the_verdict_names_the_faster_run_and_the_ratio_and_calls_near_equal_times_a_tie() {
        let c = Controls::from_preset(preset("two-nodes-400g").unwrap());
        let (ring, hier) = (
            SimView::build(&c, Algorithm::Ring),
            SimView::build(&c, Algorithm::Hierarchical),
        );
        let (tr, th) = (ring.end_secs(), hier.end_secs());
        assert!(th < tr);
        let expected = Verdict::Faster {
            faster: Algorithm::Hierarchical,
            secs: th,
            slower: Algorithm::Ring,
            slower_secs: tr,
            ratio: tr / th,
        };
        // Whichever side each is on.
        assert_eq!(verdict(&ring, &hier), Some(expected));
        assert_eq!(verdict(&hier, &ring), Some(expected));
        // The same algorithm on both sides: a tie.
        assert!(matches!(verdict(&ring, &ring), Some(Verdict::Tie { .. })));
        // `auto` is named by what it chose.
        let auto = SimView::build(&c, Algorithm::Auto);
        let chosen = auto.result.as_ref().unwrap().algorithm;
        assert_ne!(chosen, Algorithm::Auto);
        match verdict(&auto, &ring) {
            Some(Verdict::Faster { faster, slower, .. }) => {
                assert!(faster == chosen || slower == chosen)
            }
            Some(Verdict::Tie { a, .. }) => assert_eq!(a, chosen),
            None => panic!("no verdict"),
        }
        // No verdict while a run is pending, or for a run that could not run.
        let pending = SimView::pending(&c, Algorithm::Ring, Status::Running { done: 1, total: 2 });
        assert_eq!(verdict(&pending, &hier), None);
        assert_eq!(verdict(&hier, &SimView::idle(Algorithm::Ring)), None);
        // One GPU takes no time: no ratio.
        let one = Controls {
            kind: crate::ui::model::logic::TopologyKind::Uniform,
            gpus: 1,
            ..Controls::default()
        };
        let alone = SimView::build(&one, Algorithm::Ring);
        assert_eq!(alone.end_secs(), 0.0);
        assert_eq!(verdict(&alone, &alone), None);
    }

    #[test]
    fn the_rack_preset_says_its_tree_wins_only_pipelined_and_unpipelined_says_how_to_win() {
        let c = Controls::from_preset(preset("racks-800-200").unwrap());
        let (ring, tree) = (
            SimView::build(&c, Algorithm::Ring).end_secs(),
            SimView::build(&c, Algorithm::TreeBinomial).end_secs(),
        );
        assert!(tree < ring);
        let Some(SegmentsNote::WinsOnlyPipelined {
            segments,
            unpipelined_secs,
        }) = segments_note(&c, Algorithm::TreeBinomial, tree, ring)
        else {
            panic!("no note")
        };
        assert_eq!(segments, 32);
        assert!(unpipelined_secs > ring);
        // With one segment the same note turns into advice, naming a segment count that wins.
        let one = Controls {
            segments: 1,
            ..c.clone()
        };
        let t1 = SimView::build(&one, Algorithm::TreeBinomial).end_secs();
        assert_eq!(t1, unpipelined_secs);
        let Some(SegmentsNote::WouldWinWith {
            from,
            segments,
            secs,
        }) = segments_note(&one, Algorithm::TreeBinomial, t1, ring)
        else {
            panic!("no advice")
        };
        assert!(from == 1 && segments > 1 && secs < ring);
        // Pipelined into 2 and still behind: the advice starts from 2, not from "unpipelined".
        let two = Controls {
            segments: 2,
            ..c.clone()
        };
        let t2 = SimView::build(&two, Algorithm::TreeBinomial).end_secs();
        let Some(SegmentsNote::WouldWinWith { from, segments, .. }) =
            segments_note(&two, Algorithm::TreeBinomial, t2, ring)
        else {
            panic!("no advice at 2 segments")
        };
        assert!(from == 2 && segments > 2, "{segments}");
        // Equal times are no win either way: on 2 GPUs the tree and the ring move the same data.
        let pair = Controls {
            kind: crate::ui::model::logic::TopologyKind::Uniform,
            gpus: 2,
            latency_ns: [0; 3],
            size_bytes: 4096,
            segments: 32,
            ..Controls::default()
        };
        let (r, t) = (
            SimView::build(&pair, Algorithm::Ring).end_secs(),
            SimView::build(&pair, Algorithm::DoubleBinaryTree).end_secs(),
        );
        assert_eq!(
            crate::sim::units::format_secs(r),
            crate::sim::units::format_secs(t)
        );
        assert_eq!(
            segments_note(&pair, Algorithm::DoubleBinaryTree, t, r),
            None
        );
        // The ring is no tree; the inverted case's ring wins whatever the tree's segments.
        assert_eq!(segments_note(&c, Algorithm::Ring, ring, tree), None);
        let inv = Controls::from_preset(preset("inverted-400-800").unwrap());
        let (ring, tree) = (
            SimView::build(&inv, Algorithm::Ring).end_secs(),
            SimView::build(&inv, Algorithm::TreeBinomial).end_secs(),
        );
        assert_eq!(
            segments_note(&inv, Algorithm::TreeBinomial, tree, ring),
            None
        );
    }

    #[test]
    fn every_algorithm_builds_a_view_of_the_default_controls() {
        let c = Controls::default();
        for a in Algorithm::ALL {
            let v = SimView::build(&c, a);
            assert!(v.trace().unwrap().verified(), "{a}");
            assert!(v.layout.detailed);
            assert!(v.cli.contains(a.name()));
        }
    }

    #[test]
    fn an_impossible_scenario_is_an_error_not_a_panic() {
        // NCCL's rings on 1,024 GPUs of a rail network (16.8 M transfers) need more memory than
        // the core's own budget allows, even without details (the CLI refuses them too):
        // refused with a message, not run.
        let c = Controls {
            gpus: 1024,
            kind: super::super::logic::TopologyKind::Rail,
            segments: 4,
            ..Controls::default()
        };
        let Plan::Ready(v) = Plan::new(&c, Algorithm::NcclRing) else {
            panic!("NCCL's rings at 1,024 rail GPUs must be refused, not planned");
        };
        assert!(
            v.result
                .as_ref()
                .unwrap_err()
                .to_string()
                .contains("transfers")
        );
        // The double binary tree on one switch is small: simulated at once.
        let c = Controls {
            gpus: 1024,
            kind: super::super::logic::TopologyKind::Uniform,
            segments: 256,
            ..Controls::default()
        };
        let Plan::Ready(v) = Plan::new(&c, Algorithm::DoubleBinaryTree) else {
            panic!("a small run is simulated at once");
        };
        assert_eq!(v.trace().unwrap().schedule.len(), 4 * 1023);
    }

    #[test]
    fn the_lab_budgets_with_the_cores_estimate_of_the_topology_it_builds() {
        // Hierarchical on one switch is a ring over all ranks (2.1 M transfers at 1024), not the
        // 8-GPU nodes the controls' cluster shape would suggest: sliced, not run at once.
        let c = Controls {
            gpus: 1024,
            kind: super::super::logic::TopologyKind::Uniform,
            ..Controls::default()
        };
        for alg in [Algorithm::Hierarchical, Algorithm::Ring] {
            let s = c.scenario(alg);
            assert_eq!(s.cost().unwrap().transfers, 2 * 1024 * 1023, "{alg}");
            assert!(matches!(Plan::new(&c, alg), Plan::Sliced(_)), "{alg}");
        }
        // The default scenario is small and is simulated at once.
        assert!(matches!(
            Plan::new(&Controls::default(), Algorithm::Ring),
            Plan::Ready(_)
        ));
    }

    #[test]
    fn is_sliced_says_what_the_plan_does_without_simulating() {
        let uniform = |gpus| Controls {
            gpus,
            kind: super::super::logic::TopologyKind::Uniform,
            ..Controls::default()
        };
        let rail = Controls {
            gpus: 1024,
            kind: super::super::logic::TopologyKind::Rail,
            ..Controls::default()
        };
        let invalid = Controls {
            gpus: 0,
            ..Controls::default()
        };
        // Sliced, run at once, refused by the estimate, and invalid: each as `Plan::new` decides.
        for c in [
            uniform(1024),
            uniform(64),
            Controls::default(),
            rail,
            invalid,
        ] {
            for alg in Algorithm::ALL {
                let planned = matches!(Plan::new(&c, alg), Plan::Sliced(_));
                assert_eq!(Plan::is_sliced(&c, alg), planned, "{} GPUs, {alg}", c.gpus);
            }
        }
        assert!(Plan::is_sliced(&uniform(1024), Algorithm::Ring));
        assert!(!Plan::is_sliced(&Controls::default(), Algorithm::Ring));
    }

    #[test]
    fn the_controls_grey_out_what_the_cores_estimate_refuses() {
        let c = Controls {
            gpus: 1024,
            kind: super::super::logic::TopologyKind::Rail,
            segments: 4,
            ..Controls::default()
        };
        let nccl = Algorithm::NcclRing;
        // Refused by the core's estimate, and the figure says why with the same estimate.
        let Plan::Ready(v) = Plan::new(&c, nccl) else {
            panic!("refused, not planned");
        };
        let (gpus, over) = v.refused.as_ref().expect("refused");
        assert_eq!(*gpus, 1024);
        // Its 8 channels' rings, each 2 × 1,024 × 1,023 transfers: as the figure's message says.
        assert_eq!(over.cost.transfers, 8 * 2 * 1024 * 1023);
        assert_eq!(Some(over.as_ref()), refusal(&c, nccl).as_deref());
        // Over the core's own budget, which the CLI keeps to: the lab admits every run the CLI
        // does up to 1,024 GPUs (`examples/budget_scan.rs`), and refuses what it does not.
        assert!(beyond_the_cli(over));
        assert!(c.scenario(nccl).validate().is_err());
        // The GPU slider greys out from the first count the estimate refuses; below it runs,
        // 768 GPUs too (one piece at most there: 9.4 M transfers, typically 1.9 GB; refused
        // while the lab counted the bound of cells and rate changes).
        let counts = &super::super::logic::GPU_COUNTS;
        assert_eq!(first_refused_gpus(&c, &[nccl], counts), Some(1024));
        let c768 = Controls {
            gpus: 768,
            ..c.clone()
        };
        assert!(refusal(&c768, nccl).is_none());
        // Under a budget of 1.5 GB the lab alone would refuse it: the CLI runs it.
        let s = c768.scenario(nccl);
        let lab_only = s.check_cost(
            &s.validate().unwrap(),
            &Budget {
                bytes: 1_500_000_000,
                ..UI_BUDGET
            },
        );
        assert_eq!(
            lab_only.unwrap_err().exceeded,
            crate::sim::cost::Exceeded::Memory
        );
        let typical = Scenario::cost(&c768.scenario(nccl)).unwrap();
        assert_eq!(typical.transfers, 9_424_896);
        assert!(typical.peak_bytes_typical > 1_800_000_000);
        // Other settings the CLI runs and the lab refused: NCCL's rings on 768 GPUs of 16 per
        // node with 8 NICs (the most fair-sharing work the lab admits, 1.2 G), and the ring and
        // `auto` on 1,024 rail GPUs of 4 per node without PXN (the spine's sharing was counted at
        // its bound).
        let eight_nics = Controls {
            kind: super::super::logic::TopologyKind::Cluster,
            gpus: 768,
            gpus_per_node: 16,
            nics_per_node: 8,
            segments: 1,
            ..Controls::default()
        };
        let no_pxn = Controls {
            pxn: false,
            gpus_per_node: 4,
            segments: 1,
            ..c.clone()
        };
        for (controls, alg) in [
            (&eight_nics, nccl),
            (&no_pxn, Algorithm::Ring),
            (&no_pxn, Algorithm::Auto),
        ] {
            let s = controls.scenario(alg);
            assert!(s.validate().is_ok(), "{alg}: the CLI runs it");
            assert!(refusal(controls, alg).is_none(), "{alg}: the lab runs it");
        }
        assert!(
            Scenario::cost(&eight_nics.scenario(nccl))
                .unwrap()
                .sharing_work
                > 1_200_000_000
        );
        // The ring and the double binary tree fit everywhere, the ring at 1024 GPUs too (refused
        // until the trace's records shrank).
        for alg in [Algorithm::Ring, Algorithm::DoubleBinaryTree] {
            assert_eq!(first_refused_gpus(&c, &[alg], counts), None, "{alg}");
        }
        let uniform = Controls {
            kind: super::super::logic::TopologyKind::Uniform,
            ..c.clone()
        };
        assert!(refusal(&uniform, nccl).is_none());
    }
}
