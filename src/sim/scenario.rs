//! A scenario: everything a run needs, serde-able, validated in one place.
//!
//! ```
//! use allreduce_lab::sim::{scenario::*, algorithms::Algorithm, topology::TopologySpec, units::Bandwidth};
//! let scenario = Scenario {
//!     topology: TopologySpec::Uniform { ranks: 8, bandwidth: Bandwidth::from_gbytes_per_sec(100.0), latency_secs: 5e-6 },
//!     algorithm: Algorithm::Auto,
//!     size_bytes: 1 << 30,
//!     segments: 1,
//!     gamma_secs_per_byte: 0.0,
//!     faults: Default::default(),
//! };
//! let sim = simulate(&scenario, true).unwrap();
//! assert!(sim.trace.verified());
//! let auto = sim.auto.unwrap();
//! assert_eq!(auto.chosen, sim.algorithm);
//! assert!(auto.reason.contains("fastest"));
//! ```

use super::algorithms::{self, Algorithm, MAX_SEGMENTS};
use super::faults::Faults;
use super::run::{run, Run, RunOptions};
use super::topology::{Topology, TopologySpec};
use super::trace::Trace;
use serde::{Deserialize, Serialize};

/// The largest buffer a scenario may use: 1 TB.
pub const MAX_SIZE_BYTES: u64 = 1_000_000_000_000;
/// The most transfers one run may make; it keeps a run within a few seconds and a browser tab's memory.
pub const MAX_TRANSFERS: usize = 10_000_000;
/// The largest reduction cost γ, in seconds per byte (1 ms per byte is already absurd).
pub const MAX_GAMMA: f64 = 1e-3;

/// Everything a run needs.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Scenario {
    pub topology: TopologySpec,
    pub algorithm: Algorithm,
    /// S: the bytes every rank contributes (the message size, as nccl-tests counts it).
    pub size_bytes: u64,
    /// Pipeline segments for the tree algorithms.
    #[serde(default = "one")]
    pub segments: usize,
    /// γ: seconds per byte a receiver spends reducing.
    #[serde(default)]
    pub gamma_secs_per_byte: f64,
    /// Slowed cables and late ranks; none by default.
    #[serde(default, skip_serializing_if = "Faults::is_empty")]
    pub faults: Faults,
}

fn one() -> usize {
    1
}

/// Why a scenario cannot run, in words a learner understands.
#[derive(Clone, Debug, PartialEq)]
pub struct ScenarioError(pub String);

impl std::fmt::Display for ScenarioError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for ScenarioError {}

/// How many transfers `algorithm` makes with `n` ranks, `g` per node and `k` segments.
pub fn transfer_count(algorithm: Algorithm, n: usize, g: usize, k: usize) -> usize {
    if n < 2 {
        return 0;
    }
    let log2 = |x: usize| (usize::BITS - 1 - x.leading_zeros()) as usize;
    let pof2 = 1usize << log2(n);
    let rem = n - pof2;
    match algorithm {
        Algorithm::Ring => 2 * n * (n - 1),
        Algorithm::TreeFlat | Algorithm::TreeBinomial | Algorithm::TreeBinary => 2 * (n - 1) * k,
        Algorithm::DoubleBinaryTree => 4 * (n - 1) * k,
        Algorithm::RecursiveDoubling => pof2 * log2(pof2) + 2 * rem,
        Algorithm::Rabenseifner => 2 * pof2 * log2(pof2) + 2 * rem,
        Algorithm::Hierarchical => {
            let g = g.clamp(1, n);
            let m = n / g;
            2 * m * g * (g - 1) + 2 * g * m * (m - 1)
        }
        Algorithm::Auto => Algorithm::CONCRETE
            .iter()
            .map(|&a| transfer_count(a, n, g, k))
            .sum(),
    }
}

impl Scenario {
    /// Checks every bound and builds the topology, with any slowed cable applied.
    pub fn validate(&self) -> Result<Topology, ScenarioError> {
        let topo = Topology::new(&self.topology).map_err(|e| ScenarioError(e.0))?;
        let topo = if self.faults.slow_links.is_empty() {
            self.faults
                .validate(&topo)
                .map_err(|e| ScenarioError(e.to_string()))?;
            topo
        } else {
            self.faults
                .apply(&topo)
                .map_err(|e| ScenarioError(e.to_string()))?
        };
        if self.size_bytes < 1 || self.size_bytes > MAX_SIZE_BYTES {
            return Err(ScenarioError(format!(
                "size must be between 1 B and 1 TB, got {} bytes",
                self.size_bytes
            )));
        }
        if self.segments < 1 || self.segments > MAX_SEGMENTS {
            return Err(ScenarioError(format!(
                "segments must be between 1 and {MAX_SEGMENTS}, got {}",
                self.segments
            )));
        }
        if !(self.gamma_secs_per_byte.is_finite()
            && (0.0..=MAX_GAMMA).contains(&self.gamma_secs_per_byte))
        {
            return Err(ScenarioError(format!(
                "gamma (reduction cost) must be between 0 and {MAX_GAMMA} seconds per byte"
            )));
        }
        let count = transfer_count(
            self.algorithm,
            topo.ranks(),
            topo.gpus_per_node(),
            self.segments,
        );
        if count > MAX_TRANSFERS {
            return Err(ScenarioError(format!(
                "{} on {} ranks would make {count} transfers; the limit is {MAX_TRANSFERS} (use fewer ranks, fewer segments, or another algorithm)",
                self.algorithm,
                topo.ranks()
            )));
        }
        Ok(topo)
    }
}

/// What `auto` tried and why it chose what it chose.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct AutoChoice {
    pub chosen: Algorithm,
    /// Every candidate with its simulated time, fastest first.
    pub candidates: Vec<(Algorithm, f64)>,
    pub reason: String,
}

/// A finished simulation.
#[derive(Clone, Debug)]
pub struct Simulation {
    /// The algorithm that ran (for `auto`, the one it chose).
    pub algorithm: Algorithm,
    pub trace: Trace,
    pub auto: Option<AutoChoice>,
}

/// Prepares the run of a scenario with a concrete algorithm, to be advanced with [`Run::step`]
/// (for callers that must stay responsive while a large run proceeds). `auto` needs every
/// candidate and is refused here: use [`simulate`].
pub fn start(scenario: &Scenario, details: bool) -> Result<Run, ScenarioError> {
    if scenario.algorithm == Algorithm::Auto {
        return Err(ScenarioError(
            "auto runs every algorithm; it cannot be stepped as one run".into(),
        ));
    }
    let topo = scenario.validate()?;
    let schedule = algorithms::schedule(
        scenario.algorithm,
        &topo,
        scenario.size_bytes,
        scenario.segments,
    );
    Ok(Run::with_start_delays(
        &topo,
        schedule,
        &RunOptions {
            gamma_secs_per_byte: scenario.gamma_secs_per_byte,
            record_details: details,
        },
        &scenario.faults.start_delays(topo.ranks()),
    ))
}

/// Runs a scenario. With `details`, the trace keeps link timelines and buffer changes (for drawing).
pub fn simulate(scenario: &Scenario, details: bool) -> Result<Simulation, ScenarioError> {
    let topo = scenario.validate()?;
    let options = RunOptions {
        gamma_secs_per_byte: scenario.gamma_secs_per_byte,
        record_details: details,
    };
    let delays = scenario.faults.start_delays(topo.ranks());
    let run_one = |alg: Algorithm, options: &RunOptions| {
        let schedule = algorithms::schedule(alg, &topo, scenario.size_bytes, scenario.segments);
        if delays.iter().any(|&d| d > 0.0) {
            Run::with_start_delays(&topo, schedule, options, &delays).finish()
        } else {
            run(&topo, schedule, options)
        }
    };
    if scenario.algorithm != Algorithm::Auto {
        return Ok(Simulation {
            algorithm: scenario.algorithm,
            trace: run_one(scenario.algorithm, &options),
            auto: None,
        });
    }
    let quick = RunOptions {
        record_details: false,
        ..options.clone()
    };
    let mut candidates: Vec<(Algorithm, f64)> = Algorithm::CONCRETE
        .iter()
        .map(|&a| {
            let t = run_one(a, &quick);
            (
                a,
                if t.verified() {
                    t.time_secs
                } else {
                    f64::INFINITY
                },
            )
        })
        .collect();
    candidates.sort_by(|a, b| a.1.total_cmp(&b.1));
    let (chosen, best) = candidates[0];
    let reason = match candidates.get(1) {
        Some(&(next, t)) if t.is_finite() && best > 0.0 => format!(
            "{chosen} is the fastest here: {} vs {} for the runner-up {next} ({:.1}% faster), out of {} algorithms simulated on this scenario",
            super::units::format_secs(best),
            super::units::format_secs(t),
            (t / best - 1.0) * 100.0,
            candidates.len()
        ),
        _ => format!("{chosen} is the fastest here (nothing to exchange)"),
    };
    Ok(Simulation {
        algorithm: chosen,
        trace: run_one(chosen, &options),
        auto: Some(AutoChoice {
            chosen,
            candidates,
            reason,
        }),
    })
}
