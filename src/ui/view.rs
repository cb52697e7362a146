//! One simulation as the views need it: the run (or why it could not run), the replay indices, the
//! figure's layout and the equivalent command line. Built once per scenario; pure, no web types.

use super::layout::Layout;
use super::logic::Controls;
use crate::sim::algorithms::Algorithm;
use crate::sim::cost::Budget;
use crate::sim::replay::Replay;
use crate::sim::scenario::{simulate, Simulation};
use crate::sim::trace::Trace;

/// What the app lets one run cost (the core's estimate, `auto` counting all its candidates): beyond,
/// a run takes seconds and would freeze the page; the CLI's budget is larger.
pub const UI_BUDGET: Budget = Budget {
    bytes: 400_000_000,
    details: true,
    sharing_work: 100_000_000,
};

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
}

impl SimView {
    pub fn build(controls: &Controls, algorithm: Algorithm) -> SimView {
        let result = controls.scenario(algorithm).and_then(|s| {
            let topo = s.validate().map_err(|e| e.0)?;
            if let Err(over) = s.check_cost(&topo, &UI_BUDGET) {
                return Err(format!(
                    "{algorithm} on {} GPUs {over}; the browser view stops there to stay responsive. Or run the command below in a terminal.",
                    controls.gpus
                ));
            }
            simulate(&s, true).map_err(|e| e.0)
        });
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
    fn an_impossible_scenario_is_an_error_not_a_panic() {
        let c = Controls {
            gpus: 1024,
            kind: super::super::logic::TopologyKind::Uniform,
            segments: 256,
            ..Controls::default()
        };
        // The ring on 1024 ranks is 2M transfers: refused with a message, not run.
        let v = SimView::build(&c, Algorithm::Ring);
        let err = v.result.unwrap_err();
        assert!(
            err.contains("transfers") && err.contains("at most"),
            "{err}"
        );
        assert_eq!(
            SimView::build(&c, Algorithm::DoubleBinaryTree)
                .result
                .unwrap()
                .trace
                .schedule
                .len(),
            4 * 1023
        );
    }
}
