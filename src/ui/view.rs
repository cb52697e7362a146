//! One simulation as the views need it: the run (or why it could not run), the replay indices, the
//! figure's layout and the equivalent command line. Built once per scenario; pure, no web types.

use super::layout::Layout;
use super::logic::Controls;
use crate::sim::algorithms::Algorithm;
use crate::sim::cost::Budget;
use crate::sim::replay::Replay;
use crate::sim::scenario::{simulate, Scenario, Simulation};
use crate::sim::trace::Trace;
use std::rc::Rc;

/// What the lab lets one run cost, by the core's estimate ([`Scenario::check_cost`]; `auto` counts
/// all its candidates): the heaviest run the sliders reach that fits, the ring at 1,024 GPUs,
/// needs at most ~1.3 GB with details (its measured peak natively is ~400 MB); beyond, a detailed
/// trace takes too much of a tab's memory. Large runs are sliced, so work (time) is bounded
/// only to keep a run under about a minute. The CLI's budget is the core's `RUN_BUDGET`.
pub const UI_BUDGET: Budget = Budget {
    bytes: 1_500_000_000,
    details: true,
    sharing_work: 400_000_000,
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
    /// Running in slices: transfers done so far, and in all.
    Running { done: usize, total: usize },
    /// Stopped by the learner before it finished.
    Cancelled,
}

pub struct SimView {
    /// The algorithm asked for (`auto` shows what it chose in `result`).
    pub requested: Algorithm,
    pub result: Result<Simulation, String>,
    pub replay: Replay,
    pub layout: Layout,
    /// The CLI command that computes the same run.
    pub cli: String,
    /// Wall-clock milliseconds the simulation took (set by the caller, which has a clock).
    pub sim_ms: f64,
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
        let sliced = controls.scenario(algorithm).and_then(|s| {
            let topo = s.validate().map_err(|e| e.0)?;
            let cost = s.check_cost(&topo, &UI_BUDGET).map_err(|over| {
                format!(
                    "{algorithm} on {} GPUs {over}; the browser view stops there to keep the tab's memory in bounds. Or run the command below in a terminal.",
                    controls.gpus
                )
            })?;
            Ok((cost.transfers > AT_ONCE_MAX_TRANSFERS).then_some(s))
        });
        match sliced {
            Ok(Some(scenario)) => Plan::Sliced(scenario),
            Ok(None) => Plan::Ready(Rc::new(SimView::build(controls, algorithm))),
            Err(e) => Plan::Ready(Rc::new(SimView::new(controls, algorithm, Err(e)))),
        }
    }
}

impl SimView {
    /// Simulates `controls` with `algorithm` now, whatever it costs (within the core's limits).
    pub fn build(controls: &Controls, algorithm: Algorithm) -> SimView {
        let result = controls
            .scenario(algorithm)
            .and_then(|s| simulate(&s, true).map_err(|e| e.0));
        SimView::new(controls, algorithm, result)
    }

    /// The view of a finished run (or of why it could not run).
    pub fn new(
        controls: &Controls,
        algorithm: Algorithm,
        result: Result<Simulation, String>,
    ) -> SimView {
        let (replay, layout) = match &result {
            Ok(sim) => (Replay::new(&sim.trace), Layout::new(&sim.trace.topology)),
            Err(_) => (Replay::default(), Layout::default()),
        };
        SimView {
            requested: algorithm,
            result,
            replay,
            layout,
            cli: controls.cli_command(algorithm),
            sim_ms: 0.0,
            status: Status::Done,
        }
    }

    /// A run that is not finished yet (or was cancelled): no result to show, only where it stands.
    pub fn pending(controls: &Controls, algorithm: Algorithm, status: Status) -> SimView {
        SimView {
            status,
            ..SimView::new(controls, algorithm, Err(String::new()))
        }
    }

    /// A run that is not on screen (the comparison is off): nothing simulated.
    pub fn idle(algorithm: Algorithm) -> SimView {
        SimView {
            requested: algorithm,
            result: Err("not simulated".into()),
            replay: Replay::default(),
            layout: Layout::default(),
            cli: String::new(),
            sim_ms: 0.0,
            status: Status::Done,
        }
    }

    pub fn trace(&self) -> Option<&Trace> {
        self.result.as_ref().ok().map(|s| &s.trace)
    }

    /// The run's length in simulated seconds (0 when it could not run).
    pub fn end_secs(&self) -> f64 {
        self.trace().map_or(0.0, |t| t.time_secs)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
    fn the_heaviest_lab_settings_are_sliced_or_refused_never_run_at_once() {
        let c = Controls {
            gpus: 1024,
            kind: super::super::logic::TopologyKind::Uniform,
            segments: 256,
            ..Controls::default()
        };
        // The heaviest settings the sliders reach: each algorithm is either planned in slices or
        // refused with the core's advice on how to shrink it; none is run at once, none panics.
        for alg in Algorithm::ALL {
            match Plan::new(&c, alg) {
                Plan::Sliced(s) => assert!(s.cost().unwrap().transfers > AT_ONCE_MAX_TRANSFERS),
                Plan::Ready(v) => match &v.result {
                    Err(e) => assert!(
                        e.contains("at most") || e.contains("another algorithm"),
                        "{alg}: {e}"
                    ),
                    Ok(sim) => assert!(
                        sim.trace.schedule.len() as u64 <= AT_ONCE_MAX_TRANSFERS,
                        "{alg} ran at once"
                    ),
                },
            }
        }
        // The double binary tree is small: simulated at once.
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
            let s = c.scenario(alg).unwrap();
            assert_eq!(s.cost().unwrap().transfers, 2 * 1024 * 1023, "{alg}");
            assert!(matches!(Plan::new(&c, alg), Plan::Sliced(_)), "{alg}");
        }
        // The default scenario is small and is simulated at once.
        assert!(matches!(
            Plan::new(&Controls::default(), Algorithm::Ring),
            Plan::Ready(_)
        ));
    }
}
