//! The Ring-vs-Tree figure on real hardware (no web types): the same GPU count on a system preset,
//! run with the core's "like NCCL" model at every size of the figure. It answers what the textbook
//! curves cannot: where NCCL itself switches from Tree to Ring once protocols (LL, LL128, Simple),
//! channels and real latencies are counted, and what it picks at each size.
//!
//! Each (size, algorithm, protocol) candidate is one job, run by the core
//! ([`run_candidate`]); the choice at a size is the core's rule ([`Choice::among`]), so the figure
//! shows exactly what `allreduce-lab nccl-tests` prints.
//!
//! ```
//! use allreduce_lab::ui::model::versus_nccl::*;
//! let setup = NcclSetup { system: "dgx-h100", gpus: 16, nvls: false };
//! let jobs = setup.jobs().unwrap();
//! let done: Vec<_> = jobs.iter().map(|j| (*j, setup.run(*j).unwrap())).collect();
//! let view = NcclCurves::new(&setup, &done);
//! assert!(view.complete);
//! // On two DGX H100 nodes NCCL's tree wins up to tens of MB, its ring above.
//! let c = view.crossover.unwrap();
//! assert!(c.ring_wins_above && c.at_bytes > 10e6);
//! ```

use crate::sim::nccl::model::{Candidate, Choice, candidates, run_candidate};
use crate::sim::nccl::protocol::{NcclAlgorithm, Protocol};
use crate::sim::nccl::scaling::system_for_gpus;
use crate::sim::nccl::system::{PRESETS, System, SystemError};
use crate::ui::model::nccl_view::{Change, changes};
use crate::ui::model::versus::GPUS_PER_NODE;
use crate::ui::model::versus::{Crossover, VERSUS_SIZES, crossings, crossover, tree_ahead};

/// The largest GPU count the page runs the NCCL overlay for: beyond it a tree candidate alone takes
/// seconds in the browser (the CLI's `nccl-tests` has no such limit).
pub const NCCL_MAX_GPUS: usize = 64;

/// The systems offered: every preset of the core.
pub fn systems() -> impl Iterator<Item = &'static str> {
    PRESETS.iter().copied()
}

/// What the overlay runs: a system preset with the figure's GPU count, and whether NVLink SHARP
/// may be used where the system has it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NcclSetup {
    pub system: &'static str,
    pub gpus: usize,
    pub nvls: bool,
}

/// Why the overlay cannot run for a setup.
#[derive(Clone, Debug, PartialEq)]
pub enum NcclOverlayError {
    /// More GPUs than [`NCCL_MAX_GPUS`].
    TooManyGpus { gpus: usize, max: usize },
    /// The count is not one GPU node or whole nodes (e.g. one GPU).
    NotACluster { gpus: usize },
    /// The system preset refused the shape.
    System(SystemError),
}

/// One candidate at one size.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct NcclJob {
    pub size_bytes: u64,
    pub algorithm: NcclAlgorithm,
    pub protocol: Protocol,
}

impl NcclSetup {
    /// The cluster the overlay runs: [`NcclSetup::cluster`], up to [`NCCL_MAX_GPUS`].
    pub fn system(&self) -> Result<System, NcclOverlayError> {
        if self.gpus > NCCL_MAX_GPUS {
            return Err(NcclOverlayError::TooManyGpus {
                gpus: self.gpus,
                max: NCCL_MAX_GPUS,
            });
        }
        self.cluster()?
            .ok_or(NcclOverlayError::NotACluster { gpus: self.gpus })
    }

    /// The system with the figure's GPU count by the rule the speedup charts use
    /// ([`system_for_gpus`]: one node up to 8 GPUs, then whole nodes of 8), with no page limit.
    pub fn cluster(&self) -> Result<Option<System>, NcclOverlayError> {
        system_for_gpus(self.system, GPUS_PER_NODE, self.gpus).map_err(NcclOverlayError::System)
    }

    /// Every candidate at every size of the figure, the small sizes first (cheap, and they draw the
    /// left of the curves early).
    pub fn jobs(&self) -> Result<Vec<NcclJob>, NcclOverlayError> {
        let sys = self.system()?;
        let pairs = candidates(&sys, self.nvls);
        Ok(VERSUS_SIZES
            .iter()
            .flat_map(|&size_bytes| {
                pairs.iter().map(move |&(algorithm, protocol)| NcclJob {
                    size_bytes,
                    algorithm,
                    protocol,
                })
            })
            .collect())
    }

    /// Runs one job with the core's model.
    pub fn run(&self, job: NcclJob) -> Result<Candidate, NcclOverlayError> {
        let sys = self.system()?;
        run_candidate(&sys, job.size_bytes, job.algorithm, job.protocol)
            .map_err(NcclOverlayError::System)
    }
}

/// The overlay at one size: NCCL's choice, and the best of each algorithm over its protocols.
#[derive(Clone, Debug, PartialEq)]
pub struct NcclAtSize {
    pub choice: Choice,
    pub best_ring: Option<Candidate>,
    pub best_tree: Option<Candidate>,
}

/// What the figure draws from the NCCL jobs finished so far.
#[derive(Clone, Debug, PartialEq)]
pub struct NcclCurves {
    /// Sizes whose every candidate has run, in size order.
    pub sizes: Vec<NcclAtSize>,
    /// (size, time) of the best ring and the best tree, per size.
    pub ring: Vec<(u64, f64)>,
    pub tree: Vec<(u64, f64)>,
    /// Where NCCL's own Tree and Ring curves first cross (only once every size has run).
    pub crossover: Option<Crossover>,
    /// Every size where they cross, and where the tree is ahead (likewise).
    pub crossings: Vec<f64>,
    pub tree_ahead: Vec<(f64, f64)>,
    /// Every change of NCCL's choice, in size order.
    pub switches: Vec<Change>,
    pub complete: bool,
}

/// `a`'s candidate with the lowest tuner time: the protocol NCCL would use for it.
fn best(ran: &[Candidate], a: NcclAlgorithm) -> Option<Candidate> {
    ran.iter()
        .filter(|c| c.algorithm == a)
        .min_by(|x, y| x.tuner_secs.total_cmp(&y.tuner_secs))
        .copied()
}

impl NcclCurves {
    /// Builds the overlay from finished jobs (in any order, any subset).
    pub fn new(setup: &NcclSetup, done: &[(NcclJob, Candidate)]) -> NcclCurves {
        let (Ok(sys), Ok(jobs)) = (setup.system(), setup.jobs()) else {
            return NcclCurves {
                sizes: Vec::new(),
                ring: Vec::new(),
                tree: Vec::new(),
                crossover: None,
                crossings: Vec::new(),
                tree_ahead: Vec::new(),
                switches: Vec::new(),
                complete: false,
            };
        };
        let per_size = jobs.len() / VERSUS_SIZES.len();
        let mut sizes = Vec::new();
        for &size in &VERSUS_SIZES {
            let ran: Vec<Candidate> = done
                .iter()
                .filter(|(j, _)| j.size_bytes == size)
                .map(|(_, c)| *c)
                .collect();
            if ran.len() < per_size {
                continue;
            }
            let (best_ring, best_tree) = (
                best(&ran, NcclAlgorithm::Ring),
                best(&ran, NcclAlgorithm::Tree),
            );
            if let Some(choice) = Choice::among(&sys, size, ran) {
                sizes.push(NcclAtSize {
                    choice,
                    best_ring,
                    best_tree,
                });
            }
        }
        let curve = |pick: fn(&NcclAtSize) -> Option<Candidate>| -> Vec<(u64, f64)> {
            sizes
                .iter()
                // As NCCL's tuner rates them, so that where they cross is where it switches
                // (run on fewer channels at small sizes, a tree beat the ring NCCL keeps).
                .filter_map(|s| pick(s).map(|c| (s.choice.size_bytes, c.tuner_secs)))
                .collect()
        };
        let ring = curve(|s| s.best_ring);
        let tree = curve(|s| s.best_tree);
        let complete = sizes.len() == VERSUS_SIZES.len();
        let whole = complete && ring.len() == tree.len();
        let crossover = if whole { crossover(&ring, &tree) } else { None };
        let (crossings, tree_ahead) = if whole {
            (crossings(&ring, &tree), tree_ahead(&ring, &tree))
        } else {
            (Vec::new(), Vec::new())
        };
        let choices: Vec<Choice> = sizes.iter().map(|s| s.choice.clone()).collect();
        let switches = changes(&choices);
        NcclCurves {
            sizes,
            ring,
            tree,
            crossover,
            crossings,
            tree_ahead,
            switches,
            complete,
        }
    }
}

/// The overlay's jobs, run a bounded number at a time between frames.
pub struct NcclWork {
    setup: NcclSetup,
    jobs: Vec<NcclJob>,
    next: usize,
}

impl NcclWork {
    pub fn new(setup: NcclSetup) -> Result<NcclWork, NcclOverlayError> {
        Ok(NcclWork {
            jobs: setup.jobs()?,
            setup,
            next: 0,
        })
    }

    pub fn total(&self) -> usize {
        self.jobs.len()
    }

    pub fn is_done(&self) -> bool {
        self.next >= self.jobs.len()
    }

    /// Runs jobs until `out_of_time()` (asked after each) or the end; returns what ran.
    pub fn work(
        &mut self,
        mut out_of_time: impl FnMut() -> bool,
    ) -> Vec<(NcclJob, Result<Candidate, NcclOverlayError>)> {
        let mut out = Vec::new();
        while let Some(&job) = self.jobs.get(self.next) {
            self.next += 1;
            out.push((job, self.setup.run(job)));
            if out_of_time() {
                break;
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::nccl::model::predict;

    fn curves(setup: &NcclSetup) -> NcclCurves {
        let mut work = NcclWork::new(*setup).unwrap();
        let done: Vec<_> = work
            .work(|| false)
            .into_iter()
            .map(|(j, c)| (j, c.unwrap()))
            .collect();
        assert!(work.is_done());
        NcclCurves::new(setup, &done)
    }

    #[test]
    fn the_choice_at_every_size_is_what_the_core_predicts() {
        for (system, gpus, nvls) in [("dgx-h100", 8, true), ("dgx-a100", 16, false)] {
            let setup = NcclSetup { system, gpus, nvls };
            let v = curves(&setup);
            assert!(v.complete);
            let sys = setup.system().unwrap();
            for at in &v.sizes {
                let want = predict(&sys, at.choice.size_bytes, nvls).unwrap();
                assert_eq!(at.choice, want, "{system} {gpus}");
            }
        }
    }

    #[test]
    fn nccl_goes_from_ll_to_nvls_on_one_node_and_its_crossover_grows_with_nodes() {
        let v = curves(&NcclSetup {
            system: "dgx-h100",
            gpus: 8,
            nvls: true,
        });
        let first = &v.sizes[0].choice;
        let last = &v.sizes.last().unwrap().choice;
        assert_eq!(first.protocol, Protocol::Ll, "the smallest message uses LL");
        assert_eq!(
            last.algorithm,
            NcclAlgorithm::Nvls,
            "8 GiB reduces in the switch"
        );
        assert!(!v.switches.is_empty());
        for w in v.switches.windows(2) {
            assert!(w[0].after_bytes <= w[1].before_bytes);
        }
        // Without NVLS the largest size goes to the ring, at about 365 GB/s busbw.
        let off = curves(&NcclSetup {
            system: "dgx-h100",
            gpus: 8,
            nvls: false,
        });
        let big = &off.sizes.last().unwrap().choice;
        assert_eq!(big.algorithm, NcclAlgorithm::Ring);
        assert!((big.busbw_bytes_per_sec() / 1e9 - 365.0).abs() < 10.0);
        // Across nodes the tree wins the small messages and the ring the large ones, and the
        // crossover moves to larger messages as nodes are added (as the textbook's does).
        let at = |gpus| {
            let c = curves(&NcclSetup {
                system: "dgx-h100",
                gpus,
                nvls: false,
            })
            .crossover
            .expect("tree and ring cross");
            assert!(c.ring_wins_above, "{gpus}: {c:?}");
            c.at_bytes
        };
        let (two, eight) = (at(16), at(64));
        assert!(eight > two, "{two} {eight}");
    }

    #[test]
    fn on_one_node_the_tuner_rates_nccls_ring_ahead_of_its_tree_at_every_size() {
        // By the times they ran in, the tree was ahead between about 6.5 and 100 KiB (run on 8
        // channels against the ring's one), and the readout said so beside a list of Ring/LL
        // picks: as NCCL's tuner rates them, every channel busy, the ring is ahead throughout.
        let v = curves(&NcclSetup {
            system: "dgx-h100",
            gpus: 8,
            nvls: true,
        });
        assert!(v.complete);
        assert_eq!(
            (v.crossings.len(), v.crossover),
            (0, None),
            "{:?}",
            v.crossings
        );
        assert!(v.tree_ahead.is_empty());
        for (&(size, ring), &(_, tree)) in v.ring.iter().zip(&v.tree) {
            assert!(ring < tree, "{size} B: ring {ring}, tree {tree}");
        }
        // And what NCCL picks is never its tree there.
        assert!(
            v.sizes
                .iter()
                .all(|s| s.choice.algorithm != NcclAlgorithm::Tree)
        );
    }

    #[test]
    fn a_partial_set_draws_whole_sizes_only_and_no_crossover() {
        let setup = NcclSetup {
            system: "dgx-a100",
            gpus: 8,
            nvls: false,
        };
        let jobs = setup.jobs().unwrap();
        let per_size = jobs.len() / VERSUS_SIZES.len();
        // Every candidate of the first size and one of the second.
        let done: Vec<_> = jobs
            .iter()
            .take(per_size + 1)
            .map(|j| (*j, setup.run(*j).unwrap()))
            .collect();
        let v = NcclCurves::new(&setup, &done);
        assert_eq!(v.sizes.len(), 1);
        assert!(!v.complete && v.crossover.is_none());
    }

    #[test]
    fn too_many_gpus_or_an_impossible_shape_is_a_reason_not_a_panic() {
        let big = NcclSetup {
            system: "dgx-h100",
            gpus: 128,
            nvls: true,
        };
        assert_eq!(
            big.jobs().unwrap_err(),
            NcclOverlayError::TooManyGpus { gpus: 128, max: 64 }
        );
        assert!(NcclCurves::new(&big, &[]).sizes.is_empty());
        let unknown = NcclSetup {
            system: "dgx-z900",
            gpus: 8,
            nvls: true,
        };
        assert!(matches!(unknown.system(), Err(NcclOverlayError::System(_))));
        let one = NcclSetup {
            system: "dgx-h100",
            gpus: 1,
            nvls: true,
        };
        assert_eq!(
            one.jobs().unwrap_err(),
            NcclOverlayError::NotACluster { gpus: 1 }
        );
        // Every offered GPU count up to the limit has a system on every preset.
        for id in systems() {
            for gpus in [2, 4, 8, 16, 32, 64] {
                let s = NcclSetup {
                    system: id,
                    gpus,
                    nvls: true,
                };
                assert_eq!(s.system().unwrap().ranks(), gpus, "{id} {gpus}");
            }
        }
    }
}
