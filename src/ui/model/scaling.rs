//! The scaling section's model, with no web types: a chapter scenario as the learner edited it, the
//! points its charts need (one simulation each) ordered cheapest first, and how to compute one.
//! Every number comes from the core: [`training::scaling`](crate::sim::training::scaling) for a
//! speedup point, [`sweep::sweep`](crate::sim::sweep::sweep) for a message size,
//! [`chapter::evaluate`](evaluate) for the verdict.
//!
//! ```
//! use allreduce_lab::ui::model::scaling::{Setup, Job};
//! use allreduce_lab::course::chapter::CHAPTER_SCENARIOS;
//! let setup = Setup::from_scenario(&CHAPTER_SCENARIOS[0]);
//! let jobs = setup.jobs();
//! assert!(jobs.iter().any(|j| matches!(j, Job::Speedup { gpus: 1024, .. })));
//! let outcome = setup.verdict().unwrap();
//! assert!(outcome.holds);
//! ```
//!
//! Size: over 450 lines because the setup, its jobs and their sliced computation are one pipeline;
//! 151 lines are tests.

use crate::course::chapter::{CHAPTER_SCENARIOS, HARDWARE};
use crate::course::chapter::{ChapterScenario, Hardware, ModelPreset, Outcome, evaluate};
use crate::sim::algorithms::Algorithm;
use crate::sim::nccl::scaling::system_for_gpus;
use crate::sim::scenario::{Scenario, ScenarioError, TimingRun};
use crate::sim::sweep::sizes;
use crate::sim::topology::TopologySpec;
use crate::sim::training::{StepBreakdown, TrainingModel, resize};
use crate::sim::units::{
    Bandwidth, format_bandwidth, format_bandwidth_bits, format_bytes, format_secs,
};
use crate::ui::i18n::{Key, Lang, algorithm_label, hardware_texts, model_texts, percent, tr, trf};
use crate::ui::model::logic::{NcclPick, max_segments};
pub use crate::ui::model::scaling_work::{Inputs, Job, JobError, NcclInputs, Point};

/// The GPU counts of the speedup chart.
pub const GPU_COUNTS: [usize; 11] = [1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024];
/// The virtual nccl-tests: 8 B to 8 GiB, ×4 per row.
pub const SWEEP_MIN_BYTES: u64 = 8;
pub const SWEEP_MAX_BYTES: u64 = 8 << 30;
pub const SWEEP_FACTOR: u64 = 4;
/// Trees are pipelined into this many segments (as the chapter's tree comparison is), fewer where
/// ranks × segments would exceed the app's budget ([`max_segments`]).
pub const TREE_SEGMENTS: usize = 32;
/// Algorithms drawn by default.
pub const DEFAULT_ALGORITHMS: [Algorithm; 4] = [
    Algorithm::Ring,
    Algorithm::TreeBinomial,
    Algorithm::DoubleBinaryTree,
    Algorithm::Hierarchical,
];

/// Pipeline segments used for `algorithm` on `gpus` GPUs.
///
/// ```
/// use allreduce_lab::ui::model::scaling::segments;
/// use allreduce_lab::sim::algorithms::Algorithm;
/// assert_eq!(segments(Algorithm::TreeBinomial, 32), 32);
/// assert_eq!(segments(Algorithm::TreeBinomial, 1024), 1);
/// assert_eq!(segments(Algorithm::Ring, 32), 1);
/// ```
pub fn segments(algorithm: Algorithm, gpus: usize) -> usize {
    if algorithm.pipelines() {
        TREE_SEGMENTS.min(max_segments(gpus))
    } else {
        1
    }
}

/// Every hardware a learner can pick: the presets, then the chapter scenarios' own clusters.
pub fn hardware_choices() -> Vec<Hardware> {
    let mut out: Vec<Hardware> = HARDWARE.to_vec();
    for s in &CHAPTER_SCENARIOS {
        if !out.iter().any(|h| h.id == s.hardware.id) {
            out.push(s.hardware);
        }
    }
    out
}

/// The most GPUs the charts ask the nccl model about: each of its points is one prediction that
/// cannot be sliced, and beyond 128 GPUs one takes seconds in the browser.
pub const NCCL_CHART_MAX_GPUS: usize = 128;

/// GPUs per node of the nccl model's systems in the charts.
pub const NCCL_GPUS_PER_NODE: usize = 8;

/// A chapter scenario and the learner's changes to it.
#[derive(Clone, Debug, PartialEq)]
pub struct Setup {
    /// The scenario as the chapter defines it.
    pub chapter: ChapterScenario,
    /// The hardware in use (the scenario's, another preset, or either with a changed NIC).
    pub hardware: Hardware,
    pub model: ModelPreset,
    pub overlap: f64,
    pub algorithms: Vec<Algorithm>,
    /// The GPU count of the sweep and the highlighted bar; the scenario's own by default.
    pub focus_gpus: usize,
    /// With `Some`, every point is NCCL's predicted allreduce on that system (one series, "like
    /// NCCL"), not the textbook algorithms on the chapter's hardware.
    pub nccl: Option<NcclPick>,
}

impl Setup {
    pub fn from_scenario(s: &ChapterScenario) -> Setup {
        let mut algorithms = DEFAULT_ALGORITHMS.to_vec();
        if !algorithms.contains(&s.algorithm) {
            algorithms.insert(0, s.algorithm);
        }
        Setup {
            chapter: *s,
            hardware: s.hardware,
            model: s.model,
            overlap: s.overlap,
            algorithms,
            focus_gpus: s.gpus(),
            nccl: None,
        }
    }

    /// The chapter scenario with the learner's changes applied.
    pub fn scenario(&self) -> ChapterScenario {
        ChapterScenario {
            hardware: self.hardware,
            model: self.model,
            overlap: self.overlap,
            ..self.chapter
        }
    }

    /// What differs from the chapter's own setup, in words.
    pub fn changes(&self, lang: Lang) -> Vec<String> {
        let c = &self.chapter;
        let mut out = Vec::new();
        if self.hardware.id != c.hardware.id {
            out.push(trf(
                lang,
                Key::ChangeHardware,
                &[
                    hardware_texts(lang, &self.hardware).0,
                    hardware_texts(lang, &c.hardware).0,
                ],
            ));
        }
        let base_nic = if self.hardware.id == c.hardware.id {
            c.hardware.node_gbits_per_sec
        } else {
            hardware_choices()
                .into_iter()
                .find(|h| h.id == self.hardware.id)
                .map_or(self.hardware.node_gbits_per_sec, |h| h.node_gbits_per_sec)
        };
        if self.hardware.node_gbits_per_sec != base_nic {
            out.push(trf(
                lang,
                Key::ChangeNic,
                &[
                    &self.hardware.node_gbits_per_sec.to_string(),
                    &base_nic.to_string(),
                ],
            ));
        }
        if self.model.id != c.model.id {
            out.push(trf(
                lang,
                Key::ChangeModel,
                &[
                    model_texts(lang, &self.model).0,
                    model_texts(lang, &c.model).0,
                ],
            ));
        }
        if (self.overlap - c.overlap).abs() > 1e-9 {
            out.push(trf(
                lang,
                Key::ChangeOverlap,
                &[
                    &percent(lang, self.overlap, 0),
                    &percent(lang, c.overlap, 0),
                ],
            ));
        }
        out
    }

    pub fn topology(&self) -> TopologySpec {
        self.scenario().topology()
    }

    pub fn training(&self) -> TrainingModel {
        self.scenario().training()
    }

    /// The scenario simulated with the learner's changes, and whether the chapter's claim holds.
    pub fn verdict(&self) -> Result<Outcome, ScenarioError> {
        evaluate(&self.scenario())
    }

    /// GPU counts of the chart this topology can take (filling nodes, then racks); with the nccl
    /// model, those its system can take up to [`NCCL_CHART_MAX_GPUS`].
    pub fn gpu_counts(&self) -> Vec<usize> {
        if let Some(pick) = self.nccl {
            return GPU_COUNTS
                .into_iter()
                .filter(|&n| {
                    n == 1
                        || (n <= NCCL_CHART_MAX_GPUS
                            && matches!(
                                system_for_gpus(pick.system, NCCL_GPUS_PER_NODE, n),
                                Ok(Some(_))
                            ))
                })
                .collect();
        }
        let t = self.topology();
        GPU_COUNTS
            .into_iter()
            .filter(|&n| resize(&t, n).is_some())
            .collect()
    }

    /// The focus count if the charts can take it, else the scenario's own (with the nccl model:
    /// else one node's GPUs).
    pub fn sweep_gpus(&self) -> usize {
        if self.nccl.is_some() {
            return if self.focus_gpus > 1 && self.gpu_counts().contains(&self.focus_gpus) {
                self.focus_gpus
            } else {
                NCCL_GPUS_PER_NODE
            };
        }
        if self.focus_gpus > 1 && resize(&self.topology(), self.focus_gpus).is_some() {
            self.focus_gpus
        } else {
            self.scenario().gpus()
        }
    }

    /// The transfers a job makes (the core's estimate for the topology it runs on): a proxy for
    /// how long it takes. A job the topology cannot take costs nothing.
    pub fn cost(&self, job: &Job) -> usize {
        let (algorithm, gpus) = match *job {
            Job::Speedup { algorithm, gpus } => (algorithm, gpus),
            Job::Sweep { algorithm, .. } => (algorithm, self.sweep_gpus()),
            // A prediction runs a few rings and trees over the GPUs.
            Job::NcclSpeedup { gpus } => (Algorithm::Ring, gpus),
            Job::NcclSweep { .. } => (Algorithm::Ring, self.sweep_gpus()),
        };
        resize(&self.topology(), gpus)
            .and_then(|topology| {
                Scenario {
                    topology,
                    algorithm,
                    size_bytes: 1,
                    segments: segments(algorithm, gpus),
                    gamma_secs_per_byte: 0.0,
                    faults: Default::default(),
                }
                .cost()
                .ok()
            })
            .map_or(0, |c| c.transfers as usize)
    }

    /// Every point the charts need, cheapest first: the whole picture appears quickly and the
    /// heaviest points (the ring at hundreds of GPUs) arrive last.
    pub fn jobs(&self) -> Vec<Job> {
        let mut jobs: Vec<Job> = Vec::new();
        if self.nccl.is_some() {
            jobs.extend(
                self.gpu_counts()
                    .into_iter()
                    .map(|gpus| Job::NcclSpeedup { gpus }),
            );
            let sizes = sizes(SWEEP_MIN_BYTES, SWEEP_MAX_BYTES, SWEEP_FACTOR).unwrap_or_default();
            jobs.extend(
                sizes
                    .into_iter()
                    .map(|size_bytes| Job::NcclSweep { size_bytes }),
            );
            crate::sim::order::sort_by_key(&mut jobs, |j| self.cost(j) as f64);
            return jobs;
        }
        for &algorithm in &self.algorithms {
            for gpus in self.gpu_counts() {
                jobs.push(Job::Speedup { algorithm, gpus });
            }
        }
        let sizes = sizes(SWEEP_MIN_BYTES, SWEEP_MAX_BYTES, SWEEP_FACTOR).unwrap_or_default();
        for &algorithm in &self.algorithms {
            for &size_bytes in &sizes {
                jobs.push(Job::Sweep {
                    algorithm,
                    size_bytes,
                });
            }
        }
        // Stable: among equal costs, speedup points before sweep points.
        crate::sim::order::sort_by_key(&mut jobs, |j| self.cost(j) as f64);
        jobs
    }

    /// Computes one point with the core.
    pub fn compute(&self, job: Job) -> Point {
        compute(self, job)
    }

    /// All that computing a point needs, with no reference to the chapter's tables.
    pub fn inputs(&self) -> Inputs {
        Inputs {
            training: self.training(),
            topology: self.topology(),
            sweep_gpus: self.sweep_gpus(),
            nccl: self.nccl.map(|pick| NcclInputs {
                system: pick.system.to_string(),
                nvls: pick.nvls,
            }),
        }
    }
}

/// Computes one point with the core (what a Web Worker does with [`Inputs::compute`]).
pub fn compute(setup: &Setup, job: Job) -> Point {
    setup.inputs().compute(job)
}

/// Events a large run advances between two looks at the clock (about a millisecond natively).
pub const SLICE_EVENTS: usize = 2_000;

/// The charts' points, computed a slice at a time: a large run (the ring at 1024 GPUs) is spread
/// over many short slices, so the page never waits on one whole simulation.
///
/// ```
/// use allreduce_lab::ui::model::scaling::{Computation, Setup, compute};
/// use allreduce_lab::course::chapter::CHAPTER_SCENARIOS;
/// let setup = Setup::from_scenario(&CHAPTER_SCENARIOS[0]);
/// let jobs: Vec<_> = setup.jobs().into_iter().take(12).collect();
/// let mut work = Computation::new(setup.clone(), jobs.clone());
/// let mut points = Vec::new();
/// while !work.is_done() {
///     points.extend(work.work(|| true)); // one slice per call
/// }
/// let whole: Vec<_> = jobs.into_iter().map(|j| compute(&setup, j)).collect();
/// assert_eq!(points, whole);
/// ```
pub struct Computation {
    setup: Setup,
    jobs: Vec<Job>,
    next: usize,
    running: Option<(Job, TimingRun)>,
}

impl Computation {
    pub fn new(setup: Setup, jobs: Vec<Job>) -> Self {
        Computation {
            setup,
            jobs,
            next: 0,
            running: None,
        }
    }

    pub fn is_done(&self) -> bool {
        self.running.is_none() && self.next >= self.jobs.len()
    }

    /// Jobs finished so far.
    pub fn finished(&self) -> usize {
        self.next - usize::from(self.running.is_some())
    }

    /// Works until `out_of_time()` (asked after every slice) says stop, or every job is done, and
    /// returns the points finished meanwhile. At least one slice is done per call.
    pub fn work(&mut self, mut out_of_time: impl FnMut() -> bool) -> Vec<Point> {
        let mut points = Vec::new();
        loop {
            if let Some((job, run)) = self.running.as_mut() {
                if run.step(SLICE_EVENTS) {
                    let job = *job;
                    let (_, run) = self.running.take().expect("a run in progress");
                    points.push(self.finish(job, run));
                }
            } else if self.next < self.jobs.len() {
                let job = self.jobs[self.next];
                self.next += 1;
                match self.start(job) {
                    Some(run) => self.running = Some((job, run)),
                    None => points.push(compute(&self.setup, job)),
                }
            }
            if self.is_done() || out_of_time() {
                return points;
            }
        }
    }

    /// A speedup point on more than one GPU is a run that can be sliced (its preparation too);
    /// other points are quick.
    fn start(&self, job: Job) -> Option<TimingRun> {
        let Job::Speedup { algorithm, gpus } = job else {
            return None;
        };
        if gpus < 2 {
            return None;
        }
        let topology = resize(&self.setup.topology(), gpus)?;
        let scenario = Scenario {
            topology,
            algorithm,
            size_bytes: self.setup.training().gradient_bytes(),
            segments: segments(algorithm, gpus),
            gamma_secs_per_byte: 0.0,
            faults: Default::default(),
        };
        TimingRun::new(&scenario).ok()
    }

    fn finish(&self, job: Job, run: TimingRun) -> Point {
        let Job::Speedup { algorithm, gpus } = job else {
            return compute(&self.setup, job);
        };
        // As the workers' points ([`Inputs::compute`]): the same error for a run that does not verify.
        match run.finish() {
            Ok(t) => Point::Speedup(algorithm, self.setup.training().step(gpus, t.time_secs)),
            Err(e) => Point::Failed(job, JobError::Scenario(e)),
        }
    }
}

/// The "because" of a setup, from its current inputs: the model and its gradient, the GPUs and
/// hardware, the slowest link the allreduce crosses, the overlap, and (from the simulated step)
/// the part that takes longest.
pub fn because(lang: Lang, setup: &Setup, step: Option<&StepBreakdown>) -> String {
    let s = setup.scenario();
    let h = &s.hardware;
    let model = s.training();
    let gradient = format_bytes(model.gradient_bytes() as f64);
    // The tiers the allreduce crosses: GPU links inside a node, NICs between nodes, uplinks
    // between racks; the slowest one bounds every ring step.
    let mut tiers = Vec::new();
    if h.gpus_per_node > 1 {
        tiers.push((
            Key::SlowestGpuLink,
            Bandwidth::from_gbytes_per_sec(h.intra_gbytes_per_sec),
        ));
    }
    if s.racks * s.nodes_per_rack > 1 {
        tiers.push((
            Key::SlowestNic,
            Bandwidth::from_gbits_per_sec(h.node_gbits_per_sec),
        ));
    }
    if s.racks > 1 {
        tiers.push((
            Key::SlowestUplink,
            Bandwidth::from_gbits_per_sec(h.rack_gbits_per_sec),
        ));
    }
    let slowest = tiers
        .iter()
        .min_by(|a, b| a.1.bytes_per_sec().total_cmp(&b.1.bytes_per_sec()))
        .map_or(String::new(), |(key, bw)| {
            trf(
                lang,
                *key,
                &[&format!(
                    "{} ({})",
                    format_bandwidth(*bw),
                    format_bandwidth_bits(*bw)
                )],
            )
        });
    let n = s.gpus() as f64;
    // What the scenario's own algorithm moves: a ring 2(N−1)/N of the gradient per GPU, a flat
    // tree's root N−1 times it; the others are named.
    let (key, volume) = match s.algorithm {
        Algorithm::Ring => (
            Key::BecauseComputed,
            format!("{:.2}", 2.0 * (n - 1.0) / n.max(1.0)),
        ),
        Algorithm::TreeFlat => (Key::BecauseComputedStar, (s.gpus().max(1) - 1).to_string()),
        other => (
            Key::BecauseComputedOther,
            algorithm_label(lang, other).to_string(),
        ),
    };
    let mut text = trf(
        lang,
        key,
        &[
            model_texts(lang, &s.model).0,
            &gradient,
            &s.gpus().to_string(),
            hardware_texts(lang, h).0,
            &volume,
            &slowest,
            &percent(lang, s.overlap, 0),
        ],
    );
    if let Some(step) = step {
        let parts = [
            (Key::PartCompute, step.compute_secs),
            (Key::PartIo, step.exposed_io_secs),
            (Key::PartComm, step.exposed_comm_secs),
        ];
        if let Some((key, secs)) = parts.iter().max_by(|a, b| a.1.total_cmp(&b.1)) {
            text.push_str(&trf(
                lang,
                Key::BecauseLargest,
                &[
                    tr(lang, *key),
                    &format_secs(*secs),
                    &format_secs(step.step_secs),
                ],
            ));
        }
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::course::chapter::{DGX_H100, MODEL_10B};
    use crate::sim::nccl::model::predict_fast;

    #[test]
    fn every_chapter_scenario_plans_the_full_gpu_range_and_the_sweep() {
        for s in &CHAPTER_SCENARIOS {
            let setup = Setup::from_scenario(s);
            assert_eq!(setup.gpu_counts().first(), Some(&1), "{}", s.id);
            assert_eq!(setup.gpu_counts().last(), Some(&1024), "{}", s.id);
            let jobs = setup.jobs();
            let sweeps = jobs
                .iter()
                .filter(|j| matches!(j, Job::Sweep { .. }))
                .count();
            let sizes = sizes(SWEEP_MIN_BYTES, SWEEP_MAX_BYTES, SWEEP_FACTOR).unwrap();
            assert_eq!(sizes.last(), Some(&SWEEP_MAX_BYTES));
            assert_eq!(sweeps, setup.algorithms.len() * sizes.len(), "{}", s.id);
        }
    }

    #[test]
    fn jobs_come_cheapest_first_with_the_1024_gpu_ring_last() {
        let setup = Setup::from_scenario(&CHAPTER_SCENARIOS[0]);
        let jobs = setup.jobs();
        assert!(
            jobs.windows(2)
                .all(|w| setup.cost(&w[0]) <= setup.cost(&w[1]))
        );
        assert_eq!(
            jobs.last(),
            Some(&Job::Speedup {
                algorithm: Algorithm::Ring,
                gpus: 1024
            })
        );
    }

    #[test]
    fn a_speedup_point_is_what_the_cli_computes_with_scaling() {
        let setup = Setup::from_scenario(&CHAPTER_SCENARIOS[0]);
        let Point::Speedup(_, s) = setup.compute(Job::Speedup {
            algorithm: Algorithm::Ring,
            gpus: 8,
        }) else {
            panic!("no point");
        };
        let outcome = setup.verdict().unwrap();
        assert_eq!(s.speedup, outcome.value);
        assert!((6.0..=7.0).contains(&s.speedup));
    }

    #[test]
    fn changes_are_listed_and_change_the_verdict() {
        let mut setup = Setup::from_scenario(&CHAPTER_SCENARIOS[0]);
        assert!(setup.changes(Lang::En).is_empty());
        setup.hardware = DGX_H100;
        setup.model = MODEL_10B;
        assert_eq!(setup.changes(Lang::En).len(), 2);
        let mut fast = Setup::from_scenario(&CHAPTER_SCENARIOS[2]);
        fast.hardware.node_gbits_per_sec = 400.0;
        assert!(fast.changes(Lang::En)[0].contains("400 Gbps"));
        assert!(!fast.verdict().unwrap().holds);
    }

    #[test]
    fn sweep_points_are_single_rows_of_the_core_sweep() {
        let setup = Setup::from_scenario(&CHAPTER_SCENARIOS[4]);
        let Point::Sweep(_, row) = setup.compute(Job::Sweep {
            algorithm: Algorithm::Ring,
            size_bytes: 1 << 20,
        }) else {
            panic!("no row");
        };
        assert_eq!(row.size_bytes, 1 << 20);
        assert!(row.busbw_bytes_per_sec > 0.0);
    }

    #[test]
    fn a_tiny_message_is_one_tree_segment_as_in_the_ring_or_tree_figure() {
        // 32 one-byte segments of an 8-byte message paid 32 stages of latency: the sweep drew the
        // double binary tree slower than the ring at 32 B to 2 KiB on one 8-GPU node, where the
        // Ring-or-Tree figure (segments of 32 KiB at least) finds it faster up to ~296 KiB.
        let setup = Setup::from_scenario(&CHAPTER_SCENARIOS[0]);
        assert_eq!(setup.sweep_gpus(), 8);
        let time = |algorithm, size_bytes| match setup.compute(Job::Sweep {
            algorithm,
            size_bytes,
        }) {
            Point::Sweep(_, row) => row.time_secs,
            other => panic!("{other:?}"),
        };
        for size in [8, 32, 2048, 16 << 10] {
            let (tree, ring) = (
                time(Algorithm::DoubleBinaryTree, size),
                time(Algorithm::Ring, size),
            );
            assert!(tree < ring, "{size} B: tree {tree} s, ring {ring} s");
        }
        // Up to 32 KiB one segment: the same time at 8 B and at 32 B, latency only.
        let one = time(Algorithm::DoubleBinaryTree, 8);
        assert!((time(Algorithm::DoubleBinaryTree, 32) - one).abs() < 1e-3 * one);
    }

    #[test]
    fn like_nccl_points_are_the_nccl_models_predictions_for_each_count() {
        let mut setup = Setup::from_scenario(&CHAPTER_SCENARIOS[0]);
        setup.nccl = Some(NcclPick {
            system: "dgx-h100",
            nvls: false,
        });
        assert_eq!(setup.gpu_counts(), vec![1, 2, 4, 8, 16, 32, 64, 128]);
        let jobs = setup.jobs();
        assert!(
            jobs.iter()
                .all(|j| matches!(j, Job::NcclSpeedup { .. } | Job::NcclSweep { .. }))
        );
        assert_eq!(
            jobs.iter()
                .filter(|j| matches!(j, Job::NcclSpeedup { .. }))
                .count(),
            8
        );
        let model = setup.training();
        let Point::NcclSpeedup(step, Some(choice)) = setup.compute(Job::NcclSpeedup { gpus: 16 })
        else {
            panic!("no point");
        };
        let two = crate::sim::nccl::system::System::preset("dgx-h100", 2, 8).unwrap();
        let want = predict_fast(&two, model.gradient_bytes(), false).unwrap();
        assert_eq!(choice, want);
        assert_eq!(step, model.step(16, want.time_secs));
        // The sweep is at one box unless another count is in focus: NVLS off → NCCL's ring at
        // about 365 GB/s where the textbook ring reaches 450.
        assert_eq!(setup.sweep_gpus(), 8);
        let Point::NcclSweep(c) = setup.compute(Job::NcclSweep {
            size_bytes: 8 << 30,
        }) else {
            panic!("no row");
        };
        assert!((c.busbw_bytes_per_sec() / 1e9 - 365.0).abs() < 10.0);
        // One GPU needs no allreduce.
        let Point::NcclSpeedup(one, None) = setup.compute(Job::NcclSpeedup { gpus: 1 }) else {
            panic!("no point");
        };
        assert_eq!(one.speedup, 1.0);
        // The sliced computation gives the same points.
        let mut work = Computation::new(setup.clone(), jobs.clone());
        let mut points = Vec::new();
        while !work.is_done() {
            points.extend(work.work(|| true));
        }
        assert_eq!(points.len(), jobs.len());
        assert!(points.iter().all(|p| !matches!(p, Point::Failed(..))));
    }

    #[test]
    fn the_because_text_follows_the_hardware() {
        let mut setup = Setup::from_scenario(&CHAPTER_SCENARIOS[0]);
        let step = setup.verdict().unwrap().step;
        let pcie = because(Lang::En, &setup, Some(&step));
        assert!(pcie.contains("PCIe"), "{pcie}");
        assert!(pcie.contains("14.5 GB/s"), "{pcie}");
        assert!(
            pcie.contains("1.36 GB") && pcie.contains("8 GPUs"),
            "{pcie}"
        );
        setup.hardware = crate::course::chapter::DGX_H100;
        let step = setup.verdict().unwrap().step;
        let h100 = because(Lang::En, &setup, Some(&step));
        assert!(
            !h100.contains("PCIe") && !h100.contains("14.5 GB/s"),
            "{h100}"
        );
        assert!(h100.contains("DGX H100"), "{h100}");
        let zh = because(Lang::Zh, &setup, Some(&step));
        assert!(zh.contains("DGX H100") && zh.contains("张卡"), "{zh}");
    }

    #[test]
    fn the_because_text_names_the_hardware_apart_from_its_own_sentence() {
        // A hardware name with a colon of its own ("2 racks: 800 Gbps in-rack, …") ran into the
        // sentence: "on 32 GPUs of 2 racks: 800 Gbps in-rack, 200 Gbps cross-rack: the ring…".
        let racks = (CHAPTER_SCENARIOS.iter())
            .find(|s| s.id == "racks-800-200-tree-wins")
            .unwrap();
        let setup = Setup::from_scenario(racks);
        let en = because(Lang::En, &setup, None);
        assert!(
            en.contains("32 GPUs on “2 racks: 800 Gbps in-rack, 200 Gbps cross-rack”: "),
            "{en}"
        );
        let zh = because(Lang::Zh, &setup, None);
        assert!(
            zh.contains("32 张卡，硬件为“2 个机柜：柜内 800 Gbps，跨柜 200 Gbps”："),
            "{zh}"
        );
    }

    #[test]
    fn the_because_text_follows_the_algorithm() {
        // The ring's 2(N−1)/N for the ring scenario; the bad topology's flat tree is described as
        // a star (it said "the ring sends 1.75 × …" next to "allreduce: tree-flat").
        let ring = Setup::from_scenario(&CHAPTER_SCENARIOS[0]);
        assert_eq!(ring.scenario().algorithm, Algorithm::Ring);
        let text = because(Lang::En, &ring, None);
        assert!(
            text.contains("the ring sends 1.75 × 1.36 GB from every GPU"),
            "{text}"
        );
        let star = Setup::from_scenario(&CHAPTER_SCENARIOS[1]);
        assert_eq!(star.scenario().algorithm, Algorithm::TreeFlat);
        let en = because(Lang::En, &star, None);
        assert!(
            en.contains("a flat tree's root receives 7 × 1.36 GB and sends as much"),
            "{en}"
        );
        assert!(!en.contains("the ring sends"), "{en}");
        let zh = because(Lang::Zh, &star, None);
        assert!(
            zh.contains("扁平树的根节点接收 7 × 1.36 GB") && !zh.contains("环形"),
            "{zh}"
        );
    }
}
