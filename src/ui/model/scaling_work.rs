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
//! let ask = Ask { generation: 3, index: 5, setup: setup.key(), job };
//! let reply = Answer::decode(&answer(&ask.encode()).unwrap()).unwrap();
//! assert_eq!((reply.generation, reply.index), (3, 5));
//! assert_eq!(reply.point, Some(compute(&setup, job)));
//! ```

use crate::course::chapter::{CHAPTER_SCENARIOS, MODELS};
use crate::sim::algorithms::Algorithm;
use crate::sim::nccl::model::{Candidate, Choice, predict_fast};
use crate::sim::nccl::protocol::{NcclAlgorithm, Protocol};
use crate::sim::nccl::scaling::{nccl_step, system_for_gpus};
use crate::sim::nccl::system::PRESETS as NCCL_SYSTEMS;
use crate::sim::nccl::system::{System, SystemError};
use crate::sim::scenario::{Scenario, ScenarioError};
use crate::sim::sweep::{SweepRow, sweep};
use crate::sim::topology::TopologySpec;
use crate::sim::training::{StepBreakdown, TrainingModel, resize, scaling};
use crate::ui::model::logic::NcclPick;
use crate::ui::model::scaling::{NCCL_GPUS_PER_NODE, Setup, hardware_choices, segments};
use crate::ui::model::versus::segments_of_size;
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

/// A computed point. A failed one does not cross from a worker (its error is recomputed on the
/// page, where it is quick: a topology that cannot be built fails at once).
#[derive(Clone, Debug, PartialEq)]
pub enum Point {
    Speedup(Algorithm, StepBreakdown),
    Sweep(Algorithm, SweepRow),
    /// A step whose allreduce is NCCL's choice (none on one GPU).
    NcclSpeedup(StepBreakdown, Option<Choice>),
    NcclSweep(Choice),
    Failed(Job, JobError),
}

/// Why a point could not be computed.
#[derive(Clone, Debug, PartialEq)]
pub enum JobError {
    Scenario(ScenarioError),
    System(SystemError),
}

impl From<ScenarioError> for JobError {
    fn from(e: ScenarioError) -> Self {
        JobError::Scenario(e)
    }
}

/// The nccl model's system, by preset id ([`NcclPick`] with an owned id).
#[derive(Clone, Debug, PartialEq)]
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
#[derive(Clone, Debug, PartialEq)]
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
            // Cut as the Ring-or-Tree figure cuts it: 32 one-byte segments of an 8-byte message
            // paid 32 pipeline stages of latency, and made the tree slower than the ring there.
            segments: segments_of_size(segments(algorithm, n), size_bytes),
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

/// A setup by what the learner chose: ids, counts and the two numbers they set, those by their
/// bits. Its JSON has no fraction to parse, so it crosses to a worker exactly.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SetupKey {
    pub scenario: String,
    pub hardware: String,
    pub nic_gbits_bits: u64,
    pub model: String,
    pub overlap_bits: u64,
    pub algorithms: Vec<Algorithm>,
    pub focus_gpus: usize,
    /// The nccl model's system id and NVLS setting, when it is on.
    pub nccl: Option<(String, bool)>,
}

impl Setup {
    /// The setup as a [`SetupKey`].
    pub fn key(&self) -> SetupKey {
        SetupKey {
            scenario: self.chapter.id.to_string(),
            hardware: self.hardware.id.to_string(),
            nic_gbits_bits: self.hardware.node_gbits_per_sec.to_bits(),
            model: self.model.id.to_string(),
            overlap_bits: self.overlap.to_bits(),
            algorithms: self.algorithms.clone(),
            focus_gpus: self.focus_gpus,
            nccl: self.nccl.map(|p| (p.system.to_string(), p.nvls)),
        }
    }

    /// The setup a [`SetupKey`] names; `None` if an id names nothing.
    pub fn from_key(key: &SetupKey) -> Option<Setup> {
        let chapter = CHAPTER_SCENARIOS.iter().find(|s| s.id == key.scenario)?;
        let mut setup = Setup::from_scenario(chapter);
        setup.hardware = hardware_choices()
            .into_iter()
            .find(|h| h.id == key.hardware)?;
        setup.hardware.node_gbits_per_sec = f64::from_bits(key.nic_gbits_bits);
        setup.model = *MODELS
            .iter()
            .chain([&chapter.model])
            .find(|m| m.id == key.model)?;
        setup.overlap = f64::from_bits(key.overlap_bits);
        setup.algorithms = key.algorithms.clone();
        setup.focus_gpus = key.focus_gpus;
        setup.nccl = match &key.nccl {
            None => None,
            Some((id, nvls)) => Some(NcclPick {
                system: NCCL_SYSTEMS.iter().find(|s| **s == id.as_str())?,
                nvls: *nvls,
            }),
        };
        Some(setup)
    }
}

/// What the page sends a worker: one job of the charts' `generation` (a newer setup has a
/// higher one), the `index`-th of its list.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Ask {
    pub generation: u64,
    pub index: usize,
    pub setup: SetupKey,
    pub job: Job,
}

impl Ask {
    /// The message's text: JSON with no fraction in it (see [`SetupKey`]); laid out as the page's
    /// scenario files are, which shares their writer's code in the wasm.
    pub fn encode(&self) -> String {
        serde_json::to_string_pretty(self).expect("an Ask is plain data")
    }
}

/// What a worker answers: the point, or `None` if it failed (the page then computes the failure
/// itself, to show its error).
#[derive(Clone, Debug, PartialEq)]
pub struct Answer {
    pub generation: u64,
    pub index: usize,
    pub point: Option<Point>,
}

/// Numbers written one after another: integers and enum positions by their bits, so that every
/// value, float or not, crosses exactly (the Ring-vs-Tree figure's answers use them too).
pub(crate) struct Numbers(pub(crate) Vec<f64>);

impl Numbers {
    pub(crate) fn f(&mut self, x: f64) {
        self.0.push(x);
    }
    pub(crate) fn u(&mut self, x: u64) {
        self.0.push(f64::from_bits(x));
    }
    fn step(&mut self, s: &StepBreakdown) {
        self.u(s.gpus as u64);
        for x in [
            s.compute_secs,
            s.exposed_io_secs,
            s.io_secs,
            s.comm_secs,
            s.exposed_comm_secs,
            s.step_secs,
            s.speedup,
            s.scaling_efficiency,
            s.gpu_utilisation,
            s.comm_share,
        ] {
            self.f(x);
        }
    }
    fn nccl(&mut self, algorithm: NcclAlgorithm, protocol: Protocol, channels: usize) {
        self.u(position(&NcclAlgorithm::ALL, algorithm));
        self.u(position(&Protocol::ALL, protocol));
        self.u(channels as u64);
    }
    fn choice(&mut self, c: &Choice) {
        self.u(c.size_bytes);
        self.u(c.ranks as u64);
        self.f(c.time_secs);
        self.nccl(c.algorithm, c.protocol, c.channels);
        self.u(c.candidates.len() as u64);
        for k in &c.candidates {
            self.nccl(k.algorithm, k.protocol, k.channels);
            for x in [
                k.time_secs,
                k.tuner_secs,
                k.gpu_link_bytes_per_sec,
                k.nic_bytes_per_sec,
                k.fixed_us,
                k.busiest_link_secs,
            ] {
                self.f(x);
            }
        }
    }
}

pub(crate) fn position<T: PartialEq>(all: &[T], x: T) -> u64 {
    all.iter().position(|a| *a == x).unwrap_or(usize::MAX) as u64
}

/// Reads what [`Numbers`] wrote; `None` at the end or on a value that names nothing.
pub(crate) struct Reader<'a>(pub(crate) std::slice::Iter<'a, f64>);

impl Reader<'_> {
    pub(crate) fn f(&mut self) -> Option<f64> {
        self.0.next().copied()
    }
    pub(crate) fn u(&mut self) -> Option<u64> {
        self.f().map(f64::to_bits)
    }
    pub(crate) fn size(&mut self) -> Option<usize> {
        usize::try_from(self.u()?).ok()
    }
    pub(crate) fn of<T: Copy>(&mut self, all: &[T]) -> Option<T> {
        all.get(self.size()?).copied()
    }
    fn step(&mut self) -> Option<StepBreakdown> {
        Some(StepBreakdown {
            gpus: self.size()?,
            compute_secs: self.f()?,
            exposed_io_secs: self.f()?,
            io_secs: self.f()?,
            comm_secs: self.f()?,
            exposed_comm_secs: self.f()?,
            step_secs: self.f()?,
            speedup: self.f()?,
            scaling_efficiency: self.f()?,
            gpu_utilisation: self.f()?,
            comm_share: self.f()?,
        })
    }
    fn choice(&mut self) -> Option<Choice> {
        let (size_bytes, ranks, time_secs) = (self.u()?, self.size()?, self.f()?);
        let (algorithm, protocol, channels) = self.nccl()?;
        let count = self.size()?;
        // A candidate is 9 numbers: a count beyond what is left is not a list.
        if count > self.0.len() / 9 {
            return None;
        }
        let candidates = (0..count)
            .map(|_| {
                let (algorithm, protocol, channels) = self.nccl()?;
                Some(Candidate {
                    algorithm,
                    protocol,
                    channels,
                    time_secs: self.f()?,
                    tuner_secs: self.f()?,
                    gpu_link_bytes_per_sec: self.f()?,
                    nic_bytes_per_sec: self.f()?,
                    fixed_us: self.f()?,
                    busiest_link_secs: self.f()?,
                })
            })
            .collect::<Option<Vec<_>>>()?;
        Some(Choice {
            size_bytes,
            ranks,
            time_secs,
            algorithm,
            protocol,
            channels,
            candidates,
        })
    }
    fn nccl(&mut self) -> Option<(NcclAlgorithm, Protocol, usize)> {
        Some((
            self.of(&NcclAlgorithm::ALL)?,
            self.of(&Protocol::ALL)?,
            self.size()?,
        ))
    }
}

/// The generation and job index every answer a worker sends starts with, by their bits (a
/// scaling point's [`Answer`] and the Ring-vs-Tree figure's
/// [`VersusAnswer`](crate::ui::model::versus_work::VersusAnswer) alike): what the page's pool of
/// workers reads before the answer's own kind does.
///
/// ```
/// use allreduce_lab::ui::model::scaling_work::{Answer, answer_header};
/// let reply = Answer { generation: 7, index: 3, point: None };
/// assert_eq!(answer_header(&reply.encode()), Some((7, 3)));
/// assert_eq!(answer_header(&[1.0]), None);
/// ```
pub fn answer_header(numbers: &[f64]) -> Option<(u64, usize)> {
    let mut r = Reader(numbers.iter());
    Some((r.u()?, r.size()?))
}

/// The kinds of point, by position on the wire.
const NONE: u64 = 0;
const SPEEDUP: u64 = 1;
const SWEEP: u64 = 2;
const NCCL_SPEEDUP: u64 = 3;
const NCCL_STEP_ONLY: u64 = 4;
const NCCL_SWEEP: u64 = 5;

impl Answer {
    /// The answer as numbers (a `Float64Array` on the wire: no text to parse, every bit kept).
    pub fn encode(&self) -> Vec<f64> {
        let mut n = Numbers(Vec::new());
        n.u(self.generation);
        n.u(self.index as u64);
        match &self.point {
            None | Some(Point::Failed(..)) => n.u(NONE),
            Some(Point::Speedup(a, s)) => {
                n.u(SPEEDUP);
                n.u(position(&Algorithm::ALL, *a));
                n.step(s);
            }
            Some(Point::Sweep(a, r)) => {
                n.u(SWEEP);
                n.u(position(&Algorithm::ALL, *a));
                n.u(r.size_bytes);
                n.u(r.count);
                n.f(r.time_secs);
                n.f(r.algbw_bytes_per_sec);
                n.f(r.busbw_bytes_per_sec);
                n.u(position(&Algorithm::ALL, r.algorithm));
            }
            Some(Point::NcclSpeedup(s, choice)) => {
                n.u(if choice.is_some() {
                    NCCL_SPEEDUP
                } else {
                    NCCL_STEP_ONLY
                });
                n.step(s);
                if let Some(c) = choice {
                    n.choice(c);
                }
            }
            Some(Point::NcclSweep(c)) => {
                n.u(NCCL_SWEEP);
                n.choice(c);
            }
        }
        n.0
    }

    /// Reads [`Answer::encode`]'s numbers; `None` if they are not an answer (wrong kind, cut
    /// short, or left over).
    pub fn decode(numbers: &[f64]) -> Option<Answer> {
        let mut r = Reader(numbers.iter());
        let generation = r.u()?;
        let index = r.size()?;
        let point = match r.u()? {
            NONE => None,
            SPEEDUP => Some(Point::Speedup(r.of(&Algorithm::ALL)?, r.step()?)),
            SWEEP => {
                let a = r.of(&Algorithm::ALL)?;
                Some(Point::Sweep(
                    a,
                    SweepRow {
                        size_bytes: r.u()?,
                        count: r.u()?,
                        time_secs: r.f()?,
                        algbw_bytes_per_sec: r.f()?,
                        busbw_bytes_per_sec: r.f()?,
                        algorithm: r.of(&Algorithm::ALL)?,
                    },
                ))
            }
            NCCL_SPEEDUP => Some(Point::NcclSpeedup(r.step()?, Some(r.choice()?))),
            NCCL_STEP_ONLY => Some(Point::NcclSpeedup(r.step()?, None)),
            NCCL_SWEEP => Some(Point::NcclSweep(r.choice()?)),
            _ => return None,
        };
        r.0.as_slice().is_empty().then_some(Answer {
            generation,
            index,
            point,
        })
    }
}

/// A worker's whole work: the answer to an [`Ask`]'s text, as numbers ([`Answer::encode`]);
/// `None` if the text is not an `Ask` of a setup that exists. Both ways every number crosses by
/// its bits, so the point is bit for bit the page's own.
pub fn answer(ask: &str) -> Option<Vec<f64>> {
    let ask: Ask = serde_json::from_str(ask).ok()?;
    let setup = Setup::from_key(&ask.setup)?;
    let point = match setup.compute(ask.job) {
        Point::Failed(..) => None,
        point => Some(point),
    };
    let reply = Answer {
        generation: ask.generation,
        index: ask.index,
        point,
    };
    Some(reply.encode())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::course::chapter::CHAPTER_SCENARIOS;
    use crate::ui::model::scaling::compute;
    use crate::ui::model::scaling_edit::SetupEdit;

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
                setup: setup.key(),
                job,
            };
            let reply = Answer::decode(&answer(&ask.encode()).unwrap()).unwrap();
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
        let setup = Setup::from_scenario(&CHAPTER_SCENARIOS[0]);
        // More GPUs than any topology here can take.
        let job = Job::Speedup {
            algorithm: Algorithm::Ring,
            gpus: 1 << 40,
        };
        assert!(matches!(compute(&setup, job), Point::Failed(..)));
        let ask = Ask {
            generation: 1,
            index: 0,
            setup: setup.key(),
            job,
        };
        let reply = Answer::decode(&answer(&ask.encode()).unwrap()).unwrap();
        assert_eq!(reply.point, None);
    }

    #[test]
    fn numbers_that_are_not_an_answer_decode_to_none() {
        let setup = Setup::from_scenario(&CHAPTER_SCENARIOS[0]);
        let mut nccl = setup.clone();
        nccl.nccl = Some(NcclPick::default());
        let good = Answer {
            generation: 2,
            index: 1,
            point: Some(compute(
                &nccl,
                Job::NcclSweep {
                    size_bytes: 1 << 20,
                },
            )),
        }
        .encode();
        assert!(Answer::decode(&good).is_some());
        // Every cut is too short, one more number is left over, an unknown kind names nothing.
        for cut in 0..good.len() {
            assert_eq!(Answer::decode(&good[..cut]), None, "cut at {cut}");
        }
        let mut longer = good.clone();
        longer.push(0.0);
        assert_eq!(Answer::decode(&longer), None);
        let mut kind = good.clone();
        kind[2] = f64::from_bits(9);
        assert_eq!(Answer::decode(&kind), None);
        // A candidate count far beyond the numbers left is refused before allocating.
        let mut count = good;
        count[3 + 3 + 3] = f64::from_bits(u64::MAX / 2);
        assert_eq!(Answer::decode(&count), None);
    }

    #[test]
    fn a_setup_key_names_the_same_setup_and_unknown_ids_name_none() {
        for (i, chapter) in CHAPTER_SCENARIOS.iter().enumerate() {
            let mut setup = Setup::from_scenario(chapter);
            assert_eq!(
                Setup::from_key(&setup.key()),
                Some(setup.clone()),
                "{}",
                chapter.id
            );
            let other = CHAPTER_SCENARIOS[(i + 1) % CHAPTER_SCENARIOS.len()];
            for edit in [
                SetupEdit::Hardware(other.hardware.id.into()),
                SetupEdit::NicGbps(123.456_789),
                SetupEdit::Model(MODELS[i % MODELS.len()].id.into()),
                SetupEdit::Overlap(0.1 + 0.2),
                SetupEdit::Focus(64),
                SetupEdit::ToggleAlgorithm(Algorithm::Rabenseifner),
                SetupEdit::NcclSystem(NCCL_SYSTEMS[i % NCCL_SYSTEMS.len()].into()),
                SetupEdit::ToggleNvls,
            ] {
                setup.apply(edit);
                assert_eq!(
                    Setup::from_key(&setup.key()),
                    Some(setup.clone()),
                    "{}",
                    chapter.id
                );
            }
        }
        let good = Setup::from_scenario(&CHAPTER_SCENARIOS[0]).key();
        for bad in [
            SetupKey {
                scenario: "none".into(),
                ..good.clone()
            },
            SetupKey {
                hardware: "none".into(),
                ..good.clone()
            },
            SetupKey {
                model: "none".into(),
                ..good.clone()
            },
            SetupKey {
                nccl: Some(("none".into(), true)),
                ..good.clone()
            },
        ] {
            assert_eq!(Setup::from_key(&bad), None, "{bad:?}");
        }
    }

    #[test]
    fn text_that_is_not_an_ask_has_no_answer() {
        for text in ["", "{}", "null", "{\"generation\":1}", "\u{0}\u{ff}"] {
            assert_eq!(answer(text), None, "{text:?}");
        }
    }
}
