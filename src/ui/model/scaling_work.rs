//! One point of the scaling charts as self-contained work: the [`Inputs`] it needs (no reference
//! to the chapter's tables), the [`Job`], and the messages a Web Worker is sent ([`Ask`]) and
//! answers with ([`Answer`]). [`answer`] is all a worker does; it is pure, so `cargo test` checks
//! that a point that went through a worker is bit for bit the one computed on the page.
//!
//! ```
//! use allreduce_lab::course::chapter::CHAPTER_SCENARIOS;
//! use allreduce_lab::ui::model::scaling::{Setup, compute};
//! use allreduce_lab::ui::model::scaling_work::{Answer, Ask, answer};
//! let setup = Setup::from_scenario(&CHAPTER_SCENARIOS[0]);
//! let job = setup.jobs()[5];
//! let ask = Ask { generation: 3, index: 5, inputs: setup.inputs(), job };
//! let reply: Answer = serde_json::from_str(&answer(&ask.encode()).unwrap()).unwrap();
//! assert_eq!((reply.generation, reply.index), (3, 5));
//! assert_eq!(reply.point, Some(compute(&setup, job)));
//! ```

use crate::sim::algorithms::Algorithm;
use crate::sim::nccl::model::{Choice, predict_fast};
use crate::sim::nccl::scaling::{nccl_step, system_for_gpus};
use crate::sim::nccl::system::{System, SystemError};
use crate::sim::scenario::{Scenario, ScenarioError};
use crate::sim::sweep::{SweepRow, sweep};
use crate::sim::topology::TopologySpec;
use crate::sim::training::{StepBreakdown, TrainingModel, resize, scaling};
use crate::ui::model::logic::NcclPick;
use crate::ui::model::scaling::{NCCL_GPUS_PER_NODE, segments};
use serde::{Deserialize, Serialize};

/// One point a chart needs.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub enum Job {
    Speedup {
        algorithm: Algorithm,
        gpus: usize,
    },
    Sweep {
        algorithm: Algorithm,
        size_bytes: u64,
    },
    /// The step on `gpus` GPUs of the [`NcclPick`]'s system.
    NcclSpeedup {
        gpus: usize,
    },
    /// NCCL's choice at one size on the focus GPU count.
    NcclSweep {
        size_bytes: u64,
    },
}

/// A computed point. A failed one does not cross to or from a worker (its error is recomputed on
/// the page, where it is quick: a topology that cannot be built fails at once).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Point {
    Speedup(Algorithm, StepBreakdown),
    Sweep(Algorithm, SweepRow),
    /// A step whose allreduce is NCCL's choice (none on one GPU).
    NcclSpeedup(StepBreakdown, Option<Choice>),
    NcclSweep(Choice),
    #[serde(skip)]
    Failed(Job, JobError),
}

/// Why a point could not be computed.
#[derive(Clone, Debug, PartialEq)]
pub enum JobError {
    Scenario(ScenarioError),
    System(SystemError),
    /// A run whose result did not verify (a bug); the verifier's account.
    Unverified(String),
}

impl From<ScenarioError> for JobError {
    fn from(e: ScenarioError) -> Self {
        JobError::Scenario(e)
    }
}

/// The nccl model's system, by preset id ([`NcclPick`] with an owned id).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct NcclInputs {
    pub system: String,
    pub nvls: bool,
}

impl Default for NcclInputs {
    fn default() -> Self {
        let pick = NcclPick::default();
        NcclInputs {
            system: pick.system.to_string(),
            nvls: pick.nvls,
        }
    }
}

/// All that computing a point needs (from [`Setup::inputs`](crate::ui::model::scaling::Setup::inputs)).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Inputs {
    pub training: TrainingModel,
    /// The topology at the scenario's size; each point resizes it.
    pub topology: TopologySpec,
    /// The GPU count of the message-size sweep.
    pub sweep_gpus: usize,
    /// With `Some`, the points are the nccl model's on that system.
    pub nccl: Option<NcclInputs>,
}

impl Inputs {
    /// Computes one point with the core.
    pub fn compute(&self, job: Job) -> Point {
        let result = match job {
            Job::NcclSpeedup { gpus } => self.on_nccl_system(gpus, |system, nvls| {
                nccl_step(&self.training, system, gpus, nvls)
                    .map(|s| Point::NcclSpeedup(s.step, s.choice))
            }),
            Job::NcclSweep { size_bytes } => {
                self.on_nccl_system(self.sweep_gpus, |system, nvls| {
                    let sys = system.ok_or(SystemError::OneGpu)?;
                    predict_fast(sys, size_bytes, nvls).map(Point::NcclSweep)
                })
            }
            Job::Speedup { algorithm, gpus } => scaling(
                &self.training,
                &self.topology,
                algorithm,
                segments(algorithm, gpus),
                &[gpus],
            )
            .and_then(|rows| {
                rows.into_iter()
                    .next()
                    .map(|s| Point::Speedup(algorithm, s))
                    .ok_or(ScenarioError::CannotTakeGpus { gpus })
            })
            .map_err(JobError::from),
            Job::Sweep {
                algorithm,
                size_bytes,
            } => self.sweep_point(algorithm, size_bytes),
        };
        result.unwrap_or_else(|e| Point::Failed(job, e))
    }

    /// One row of the virtual nccl-tests at the sweep's GPU count.
    fn sweep_point(&self, algorithm: Algorithm, size_bytes: u64) -> Result<Point, JobError> {
        let n = self.sweep_gpus;
        let topology =
            resize(&self.topology, n).ok_or(ScenarioError::CannotTakeGpus { gpus: n })?;
        let scenario = Scenario {
            topology,
            algorithm,
            size_bytes,
            segments: segments(algorithm, n),
            gamma_secs_per_byte: 0.0,
            faults: Default::default(),
        };
        let rows = sweep(&scenario, size_bytes, size_bytes, 2)?;
        Ok(Point::Sweep(algorithm, rows[0]))
    }

    /// Runs `f` on the nccl model's system sized for `gpus` (none for one GPU), with its NVLS
    /// setting.
    fn on_nccl_system(
        &self,
        gpus: usize,
        f: impl FnOnce(Option<&System>, bool) -> Result<Point, SystemError>,
    ) -> Result<Point, JobError> {
        let pick = self.nccl.clone().unwrap_or_default();
        system_for_gpus(&pick.system, NCCL_GPUS_PER_NODE, gpus)
            .and_then(|system| f(system.as_ref(), pick.nvls))
            .map_err(JobError::System)
    }
}

/// What the page sends a worker: one job of the charts' `generation` (a newer setup has a
/// higher one), the `index`-th of its list.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Ask {
    pub generation: u64,
    pub index: usize,
    pub inputs: Inputs,
    pub job: Job,
}

impl Ask {
    /// The message's text (JSON; numbers keep every bit, see [`answer`]).
    pub fn encode(&self) -> String {
        serde_json::to_string(self).expect("an Ask is plain data")
    }
}

/// What a worker answers: the point, or `None` if it failed (the page then computes the failure
/// itself, to show its error).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Answer {
    pub generation: u64,
    pub index: usize,
    pub point: Option<Point>,
}

/// A worker's whole work: the answer to an [`Ask`]'s text, as text; `None` if the text is not an
/// `Ask`. Numbers cross as JSON, written in their shortest exact form and read back exactly
/// (serde_json's `float_roundtrip`), so the point is bit for bit the page's own.
pub fn answer(ask: &str) -> Option<String> {
    let ask: Ask = serde_json::from_str(ask).ok()?;
    let point = match ask.inputs.compute(ask.job) {
        Point::Failed(..) => None,
        point => Some(point),
    };
    let reply = Answer {
        generation: ask.generation,
        index: ask.index,
        point,
    };
    Some(serde_json::to_string(&reply).expect("an Answer is plain data"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::course::chapter::CHAPTER_SCENARIOS;
    use crate::ui::model::scaling::{Setup, compute};

    /// Every job of `setup` through the wire equals the page's own point, bit for bit.
    fn through_worker_is_exact(setup: &Setup) {
        let jobs = setup.jobs();
        assert!(jobs.len() > 20, "{} jobs", jobs.len());
        for (index, job) in jobs.into_iter().enumerate() {
            // The heaviest rings take seconds in a debug build; they are the same code path.
            if setup.cost(&job) > 300_000 {
                continue;
            }
            let ask = Ask {
                generation: 7,
                index,
                inputs: setup.inputs(),
                job,
            };
            let reply: Answer = serde_json::from_str(&answer(&ask.encode()).unwrap()).unwrap();
            assert_eq!((reply.generation, reply.index), (7, index));
            let page = compute(setup, job);
            match reply.point {
                Some(p) => assert_eq!(format!("{p:?}"), format!("{page:?}"), "{job:?}"),
                None => assert!(matches!(page, Point::Failed(..)), "{job:?}"),
            }
        }
    }

    #[test]
    fn textbook_points_cross_exactly() {
        through_worker_is_exact(&Setup::from_scenario(&CHAPTER_SCENARIOS[0]));
    }

    #[test]
    fn nccl_points_cross_exactly() {
        let mut setup = Setup::from_scenario(&CHAPTER_SCENARIOS[1]);
        setup.nccl = Some(NcclPick::default());
        through_worker_is_exact(&setup);
    }

    #[test]
    fn a_failed_point_crosses_as_none() {
        let mut setup = Setup::from_scenario(&CHAPTER_SCENARIOS[0]);
        setup.nccl = Some(NcclPick {
            system: "no-such-system",
            nvls: false,
        });
        let job = Job::NcclSweep {
            size_bytes: 1 << 20,
        };
        assert!(matches!(compute(&setup, job), Point::Failed(..)));
        let ask = Ask {
            generation: 1,
            index: 0,
            inputs: setup.inputs(),
            job,
        };
        let reply: Answer = serde_json::from_str(&answer(&ask.encode()).unwrap()).unwrap();
        assert_eq!(reply.point, None);
    }

    #[test]
    fn text_that_is_not_an_ask_has_no_answer() {
        for text in ["", "{}", "null", "{\"generation\":1}", "\u{0}\u{ff}"] {
            assert_eq!(answer(text), None, "{text:?}");
        }
    }
}
