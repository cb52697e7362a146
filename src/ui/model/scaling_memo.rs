//! What the scaling charts' points simulated, kept by what each simulation depended on, so that a
//! change which simulates nothing new redraws at once: the overlap slider, an algorithm turned off,
//! a preset or a model seen before. A speedup point is the training model's
//! [`step`](crate::sim::training::TrainingModel::step) over a simulated allreduce time; only that
//! time is kept, and the step is taken again with the setup's current model, so a reused point is
//! bit for bit the one [`Inputs::compute`] would give (the tests check it). A sweep row and the
//! nccl model's choices depend on no training setting and are kept whole.
//!
//! ```
//! use allreduce_lab::course::chapter::CHAPTER_SCENARIOS;
//! use allreduce_lab::ui::model::scaling::Setup;
//! use allreduce_lab::ui::model::scaling_memo::Memo;
//! let mut setup = Setup::from_scenario(&CHAPTER_SCENARIOS[0]);
//! let mut memo = Memo::default();
//! let jobs: Vec<_> = setup.jobs().into_iter().take(20).collect();
//! let inputs = setup.inputs();
//! for &job in &jobs {
//!     memo.keep(&inputs, &inputs.compute(job));
//! }
//! // Another overlap simulates nothing new: every point is known, as a fresh computation gives it.
//! setup.overlap = 0.2;
//! let inputs = setup.inputs();
//! let (known, left) = memo.split(&inputs, jobs.clone());
//! assert!(left.is_empty());
//! assert_eq!(known, jobs.iter().map(|&j| inputs.compute(j)).collect::<Vec<_>>());
//! ```

use crate::sim::nccl::model::Choice;
use crate::sim::sweep::SweepRow;
use crate::ui::model::scaling_work::{Inputs, Job, Point};

/// At most this many simulations are kept (a few setups' worth); beyond, the memo starts afresh.
pub const MEMO_CAPACITY: usize = 4096;

/// What one point's simulation depended on, written out: the job, the gradient's size for a step,
/// the GPU count of the sweep, the nccl model's system, and the topology the charts resize (as a
/// scenario file writes it, whose numbers read back exactly).
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct SimKey(String);

/// What a point's simulation gave.
#[derive(Clone, Debug, PartialEq)]
enum Simulated {
    /// The allreduce's time of a speedup point.
    Comm(f64),
    Row(SweepRow),
    /// NCCL's choice for a step's gradient (none on one GPU).
    NcclStep(Option<Choice>),
    NcclRow(Choice),
}

/// The simulations of the points computed so far (see the module's doc), in key order. (A sorted
/// list rather than a hash map: the page's wasm already holds its code.)
#[derive(Debug, Default)]
pub struct Memo {
    kept: Vec<(SimKey, Simulated)>,
}

/// The job a computed point answers (`None` for a failure, which is never kept).
fn job_of(point: &Point) -> Option<Job> {
    match point {
        Point::Speedup(algorithm, step) => Some(Job::Speedup {
            algorithm: *algorithm,
            gpus: step.gpus,
        }),
        Point::Sweep(algorithm, row) => Some(Job::Sweep {
            algorithm: *algorithm,
            size_bytes: row.size_bytes,
        }),
        Point::NcclSpeedup(step, _) => Some(Job::NcclSpeedup { gpus: step.gpus }),
        Point::NcclSweep(choice) => Some(Job::NcclSweep {
            size_bytes: choice.size_bytes,
        }),
        Point::Failed(..) => None,
    }
}

/// The key of `job`'s simulation under `inputs`; `None` where a point cannot be reused: a speedup
/// point of a training model that does not validate (its computation fails on that), or a
/// topology with a number JSON cannot write (written as `null`, it would not tell two apart).
fn key(inputs: &Inputs, job: Job) -> Option<SimKey> {
    let nccl = inputs.nccl.clone().unwrap_or_default();
    let topology = || {
        serde_json::to_string_pretty(&inputs.topology)
            .ok()
            .filter(|t| !t.contains("null"))
    };
    let text = match job {
        Job::Speedup { algorithm, gpus } => {
            inputs.training.validate().ok()?;
            format!(
                "speedup {} {gpus} {} {}",
                algorithm.name(),
                inputs.training.gradient_bytes(),
                topology()?
            )
        }
        Job::Sweep {
            algorithm,
            size_bytes,
        } => format!(
            "sweep {} {size_bytes} {} {}",
            algorithm.name(),
            inputs.sweep_gpus,
            topology()?
        ),
        Job::NcclSpeedup { gpus } => format!(
            "nccl {} {} {gpus} {}",
            nccl.system,
            nccl.nvls,
            inputs.training.gradient_bytes()
        ),
        Job::NcclSweep { size_bytes } => format!(
            "nccl-sweep {} {} {} {size_bytes}",
            nccl.system, nccl.nvls, inputs.sweep_gpus
        ),
    };
    Some(SimKey(text))
}

impl Memo {
    /// Keeps what `point` (computed under `inputs`) simulated.
    pub fn keep(&mut self, inputs: &Inputs, point: &Point) {
        let Some(job) = job_of(point) else {
            return;
        };
        let Some(key) = key(inputs, job) else {
            return;
        };
        let simulated = match point {
            Point::Speedup(_, step) => Simulated::Comm(step.comm_secs),
            Point::Sweep(_, row) => Simulated::Row(*row),
            Point::NcclSpeedup(_, choice) => Simulated::NcclStep(choice.clone()),
            Point::NcclSweep(choice) => Simulated::NcclRow(choice.clone()),
            Point::Failed(..) => return,
        };
        match self.kept.binary_search_by(|(k, _)| k.cmp(&key)) {
            Ok(at) => self.kept[at].1 = simulated,
            Err(_) if self.kept.len() >= MEMO_CAPACITY => self.kept = vec![(key, simulated)],
            Err(at) => self.kept.insert(at, (key, simulated)),
        }
    }

    /// `job`'s point under `inputs` from what was kept, if its simulation was.
    pub fn point(&self, inputs: &Inputs, job: Job) -> Option<Point> {
        let key = key(inputs, job)?;
        let at = self.kept.binary_search_by(|(k, _)| k.cmp(&key)).ok()?;
        let simulated = &self.kept[at].1;
        let model = &inputs.training;
        Some(match (job, simulated) {
            (Job::Speedup { algorithm, gpus }, Simulated::Comm(comm)) => {
                Point::Speedup(algorithm, model.step(gpus, *comm))
            }
            (Job::Sweep { algorithm, .. }, Simulated::Row(row)) => Point::Sweep(algorithm, *row),
            (Job::NcclSpeedup { gpus }, Simulated::NcclStep(choice)) => {
                let comm = choice.as_ref().map_or(0.0, |c| c.time_secs);
                Point::NcclSpeedup(model.step(gpus, comm), choice.clone())
            }
            (Job::NcclSweep { .. }, Simulated::NcclRow(choice)) => Point::NcclSweep(choice.clone()),
            _ => return None,
        })
    }

    /// The points of `jobs` known already, and the jobs left to compute (each in its order).
    pub fn split(&self, inputs: &Inputs, jobs: Vec<Job>) -> (Vec<Point>, Vec<Job>) {
        let mut known = Vec::new();
        let mut left = Vec::new();
        for job in jobs {
            match self.point(inputs, job) {
                Some(p) => known.push(p),
                None => left.push(job),
            }
        }
        (known, left)
    }

    /// Simulations kept.
    pub fn len(&self) -> usize {
        self.kept.len()
    }

    pub fn is_empty(&self) -> bool {
        self.kept.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::course::chapter::{CHAPTER_SCENARIOS, DGX_H100, MODEL_10B};
    use crate::sim::algorithms::Algorithm;
    use crate::ui::model::logic::NcclPick;
    use crate::ui::model::scaling::Setup;

    /// Every job of `setup` computed, kept, and the memo's points for them.
    fn round_trip(setup: &Setup, memo: &mut Memo) -> (Vec<Point>, Vec<Job>) {
        let inputs = setup.inputs();
        let jobs = setup.jobs();
        for &job in &jobs {
            memo.keep(&inputs, &inputs.compute(job));
        }
        memo.split(&inputs, jobs)
    }

    /// Every point of `setup` from the memo, or computed where unknown, as a fresh computation.
    fn assert_fresh(setup: &Setup, memo: &Memo) -> usize {
        let inputs = setup.inputs();
        let jobs = setup.jobs();
        let (known, _) = memo.split(&inputs, jobs.clone());
        for &job in &jobs {
            if let Some(p) = memo.point(&inputs, job) {
                assert_eq!(p, inputs.compute(job), "{job:?}");
            }
        }
        known.len()
    }

    #[test]
    fn every_computed_point_names_its_job() {
        let setup = Setup::from_scenario(&CHAPTER_SCENARIOS[4]);
        let inputs = setup.inputs();
        for job in setup.jobs() {
            let point = inputs.compute(job);
            assert!(!matches!(point, Point::Failed(..)), "{job:?}");
            assert_eq!(job_of(&point), Some(job));
        }
    }

    #[test]
    fn changes_that_simulate_nothing_new_reuse_every_point_bit_for_bit() {
        let mut setup = Setup::from_scenario(&CHAPTER_SCENARIOS[1]);
        setup.algorithms.retain(|a| *a != Algorithm::Ring);
        let mut memo = Memo::default();
        let (known, left) = round_trip(&setup, &mut memo);
        assert!(left.is_empty());
        assert_eq!(known.len(), setup.jobs().len());
        // The overlap, an algorithm turned off: all known, each as computed afresh.
        let total = setup.jobs().len();
        setup.overlap = 0.95;
        assert_eq!(assert_fresh(&setup, &memo), total);
        setup.algorithms.pop();
        assert_eq!(assert_fresh(&setup, &memo), setup.jobs().len());
        // Another focus count moves the sweep: its rows are new, the speedup points are not.
        setup.focus_gpus = 16;
        let known = assert_fresh(&setup, &memo);
        let speedups = setup
            .jobs()
            .iter()
            .filter(|j| matches!(j, Job::Speedup { .. }))
            .count();
        assert_eq!(known, speedups);
    }

    #[test]
    fn changes_that_simulate_anew_find_nothing() {
        let base = Setup::from_scenario(&CHAPTER_SCENARIOS[0]);
        let mut small = base.clone();
        small.algorithms = vec![Algorithm::TreeBinomial];
        let mut memo = Memo::default();
        round_trip(&small, &mut memo);
        // Other hardware, another NIC: every run is new. Another model (another gradient) changes
        // every step, not the sweep.
        let mut hardware = small.clone();
        hardware.hardware = DGX_H100;
        let mut nic = small.clone();
        nic.hardware.node_gbits_per_sec *= 2.0;
        let mut model = small.clone();
        model.model = MODEL_10B;
        for (other, sweep_known) in [(hardware, false), (nic, false), (model, true)] {
            let inputs = other.inputs();
            let (known, _) = memo.split(&inputs, other.jobs());
            let expected = other
                .jobs()
                .iter()
                .filter(|j| sweep_known && matches!(j, Job::Sweep { .. }))
                .count();
            assert_eq!(known.len(), expected);
            assert!(known.iter().all(|p| matches!(p, Point::Sweep(..))));
            assert_fresh(&other, &memo);
        }
    }

    #[test]
    fn the_nccl_models_points_are_reused_with_the_current_training() {
        let mut setup = Setup::from_scenario(&CHAPTER_SCENARIOS[0]);
        setup.nccl = Some(NcclPick {
            system: "dgx-h100",
            nvls: false,
        });
        let mut memo = Memo::default();
        let (known, left) = round_trip(&setup, &mut memo);
        assert!(left.is_empty() && !known.is_empty());
        setup.overlap = 0.1;
        assert_eq!(assert_fresh(&setup, &memo), setup.jobs().len());
        // NVLS on is another prediction.
        setup.nccl = Some(NcclPick {
            system: "dgx-h100",
            nvls: true,
        });
        let (known, _) = memo.split(&setup.inputs(), setup.jobs());
        assert!(known.is_empty(), "{known:?}");
    }

    #[test]
    fn a_model_that_does_not_validate_reuses_no_step() {
        let setup = Setup::from_scenario(&CHAPTER_SCENARIOS[0]);
        let mut memo = Memo::default();
        let inputs = setup.inputs();
        let job = Job::Speedup {
            algorithm: Algorithm::Ring,
            gpus: 8,
        };
        memo.keep(&inputs, &inputs.compute(job));
        assert!(memo.point(&inputs, job).is_some());
        let mut bad = inputs.clone();
        bad.training.compute_secs = f64::NAN;
        assert!(matches!(bad.compute(job), Point::Failed(..)));
        assert_eq!(memo.point(&bad, job), None);
        // Nor does a topology with a number JSON writes as `null`.
        let mut odd = inputs.clone();
        if let crate::sim::topology::TopologySpec::Cluster { intra_lat_secs, .. } =
            &mut odd.topology
        {
            *intra_lat_secs = f64::NAN;
        } else {
            panic!("the chapter's topology is a cluster");
        }
        assert_eq!(key(&odd, job), None);
        assert!(key(&inputs, job).is_some());
    }

    #[test]
    fn the_memo_starts_afresh_beyond_its_capacity() {
        let setup = Setup::from_scenario(&CHAPTER_SCENARIOS[0]);
        let mut inputs = setup.inputs();
        let mut memo = Memo::default();
        let job = Job::Speedup {
            algorithm: Algorithm::Ring,
            gpus: 1,
        };
        let point = inputs.compute(job);
        for i in 0..MEMO_CAPACITY + 1 {
            inputs.training.parameters = 1_000 + i as u64;
            memo.keep(&inputs, &point);
        }
        assert_eq!(memo.len(), 1);
    }
}
