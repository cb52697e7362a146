//! One simulation as the views need it: the run (or why it could not run), the replay indices, the
//! figure's layout and the equivalent command line. Built once per scenario; pure, no web types.

use super::layout::Layout;
use super::logic::{max_segments, Controls, SEGMENTS};
use crate::sim::algorithms::Algorithm;
use crate::sim::replay::Replay;
use crate::sim::scenario::{simulate, transfer_count, Simulation};
use crate::sim::trace::Trace;

/// The most transfers the app simulates (with `auto`, summed over its candidates): beyond, a run
/// takes seconds and would freeze the page; the CLI has no such limit.
pub const UI_MAX_TRANSFERS: usize = 600_000;

/// The transfers a run of `algorithm` on `controls` would make, when that is more than the lab
/// simulates ([`UI_MAX_TRANSFERS`]); `None` when it may run. The one estimate every control that
/// greys out a setting asks.
pub fn refusal(controls: &Controls, algorithm: Algorithm) -> Option<usize> {
    let (_, _, g) = controls.shape();
    let segments = if algorithm.is_tree() {
        controls.effective_segments()
    } else {
        1
    };
    let count = transfer_count(algorithm, controls.gpus, g, segments);
    (count > UI_MAX_TRANSFERS).then_some(count)
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
    /// (GPUs, transfers the run would have made) when the lab refused it (see [`refusal`]).
    pub refused: Option<(usize, usize)>,
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
        let refused = refusal(controls, algorithm).map(|count| (controls.gpus, count));
        let result = controls.scenario(algorithm).and_then(|s| {
            if let Some((_, count)) = refused {
                return Err(format!(
                    "{algorithm} on {} GPUs makes {count} transfers; the browser view stops at {UI_MAX_TRANSFERS} to stay responsive. Pick fewer GPUs or another algorithm, or run the command below in a terminal.",
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
            refused,
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
            refused: None,
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
    WouldWinWith { segments: usize, secs: f64 },
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
        let s = c.scenario(tree).ok()?;
        simulate(&s, false).ok().map(|sim| sim.trace.time_secs)
    };
    let k = controls.effective_segments();
    if tree_secs < other_secs {
        if k == 1 {
            return None;
        }
        let t1 = time(1)?;
        (t1 >= other_secs).then_some(SegmentsNote::WinsOnlyPipelined {
            segments: k,
            unpipelined_secs: t1,
        })
    } else {
        SEGMENTS
            .iter()
            .copied()
            .filter(|&s| s > k && s <= max_segments(controls.gpus))
            .find_map(|s| {
                let t = time(s)?;
                (t < other_secs).then_some(SegmentsNote::WouldWinWith {
                    segments: s,
                    secs: t,
                })
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::presets::preset;

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
        let Some(SegmentsNote::WouldWinWith { segments, secs }) =
            segments_note(&one, Algorithm::TreeBinomial, t1, ring)
        else {
            panic!("no advice")
        };
        assert!(segments > 1 && secs < ring);
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
        let c = Controls {
            gpus: 1024,
            kind: super::super::logic::TopologyKind::Uniform,
            segments: 256,
            ..Controls::default()
        };
        // The ring on 1024 ranks is 2M transfers: refused with a message, not run.
        let v = SimView::build(&c, Algorithm::Ring);
        assert_eq!(v.refused, Some((1024, 2 * 1024 * 1023)));
        assert!(v.result.unwrap_err().contains("transfers"));
        // The GPU slider greys out from the first count the ring cannot run at.
        let first = first_refused_gpus(&c, &[Algorithm::Ring], &super::super::logic::GPU_COUNTS);
        assert_eq!(first, Some(768));
        assert_eq!(
            refusal(
                &Controls {
                    gpus: 512,
                    ..c.clone()
                },
                Algorithm::Ring
            ),
            None
        );
        assert_eq!(
            first_refused_gpus(
                &c,
                &[Algorithm::DoubleBinaryTree],
                &super::super::logic::GPU_COUNTS
            ),
            None
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
