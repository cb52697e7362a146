//! A virtual nccl-tests: allreduce time, algbw and busbw over a range of message sizes.
//!
//! ```
//! use allreduce_sim::{sweep::*, scenario::Scenario, algorithms::Algorithm, topology::TopologySpec, units::Bandwidth};
//! let base = Scenario {
//!     topology: TopologySpec::Uniform { ranks: 8, bandwidth: Bandwidth::from_gbytes_per_sec(100.0), latency_secs: 5e-6 },
//!     algorithm: Algorithm::Ring, size_bytes: 8, segments: 1, gamma_secs_per_byte: 0.0,
//!     faults: Default::default(),
//! };
//! let rows = sweep(&base, 8, 1 << 30, 4).unwrap();
//! assert_eq!(rows.first().unwrap().size_bytes, 8);
//! // Large messages approach the 100 GB/s port bandwidth as busbw.
//! assert!(rows.last().unwrap().busbw_bytes_per_sec > 0.99 * 100e9);
//! ```

use super::algorithms::Algorithm;
use super::scenario::{Scenario, ScenarioError, simulate_time};
use super::trace::{algbw, busbw};
use serde::Serialize;
use std::ops::ControlFlow;

/// One line of the sweep, as nccl-tests prints it.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct SweepRow {
    pub size_bytes: u64,
    /// Elements of `float` (4 bytes), as nccl-tests counts them.
    pub count: u64,
    pub time_secs: f64,
    pub algbw_bytes_per_sec: f64,
    pub busbw_bytes_per_sec: f64,
    /// For `auto`: the algorithm it chose at this size.
    pub algorithm: Algorithm,
}

/// The sizes from `min` to `max` (inclusive), multiplying by `factor` (≥ 2, so at most 64 sizes).
///
/// ```
/// use allreduce_sim::sweep::sizes;
/// assert_eq!(sizes(8, 1024, 4).unwrap(), [8, 32, 128, 512]);
/// assert!(sizes(0, 8, 2).is_err() && sizes(8, 4, 2).is_err() && sizes(1, 8, 1).is_err());
/// ```
pub fn sizes(min: u64, max: u64, factor: u64) -> Result<Vec<u64>, ScenarioError> {
    if min < 1 || max < min {
        return Err(ScenarioError::SweepSizes { min, max });
    }
    if factor < 2 {
        return Err(ScenarioError::SweepFactor { factor });
    }
    let mut out = Vec::new();
    let mut s = min;
    while s <= max {
        out.push(s);
        match s.checked_mul(factor) {
            Some(next) => s = next,
            None => break,
        }
    }
    Ok(out)
}

/// Runs `base` at every size from `min` to `max`, multiplying by `factor`.
///
/// ```
/// use allreduce_sim::{sweep::*, scenario::Scenario, algorithms::Algorithm, topology::TopologySpec, units::Bandwidth};
/// let base = Scenario {
///     topology: TopologySpec::Uniform { ranks: 4, bandwidth: Bandwidth::from_gbytes_per_sec(1.0), latency_secs: 0.0 },
///     algorithm: Algorithm::Ring, size_bytes: 4, segments: 1, gamma_secs_per_byte: 0.0,
///     faults: Default::default(),
/// };
/// let rows = sweep(&base, 4000, 16000, 2).unwrap();
/// assert_eq!(rows.iter().map(|r| (r.size_bytes, r.count)).collect::<Vec<_>>(), [(4000, 1000), (8000, 2000), (16000, 4000)]);
/// // Without latency, the ring's busbw is the port bandwidth at every size.
/// assert!(rows.iter().all(|r| (r.busbw_bytes_per_sec - 1e9).abs() < 1e-3));
/// ```
pub fn sweep(
    base: &Scenario,
    min: u64,
    max: u64,
    factor: u64,
) -> Result<Vec<SweepRow>, ScenarioError> {
    sweep_each(base, min, max, factor, |_| ControlFlow::Continue(()))
}

/// The work a whole sweep may add up to: three runs' worth of
/// [`RUN_BUDGET`](super::cost::RUN_BUDGET)'s fair sharing, a minute or two natively. A run's work
/// is its [`sharing_work`](super::cost::RunCost::sharing_work) (1.2·10⁹ took 9.2 s) and
/// [`WORK_PER_TRANSFER`] per transfer.
pub const SWEEP_WORK: u64 = 3 * super::cost::RUN_BUDGET.sharing_work;

/// A transfer's own cost in units of sharing work: a 1024-rank ring simulates about 5·10⁶
/// transfers a second, 200 ns each, against about 8 ns per unit of sharing work.
pub const WORK_PER_TRANSFER: u64 = 25;

/// [`sweep`], handing each row to `each` as soon as it is simulated (a large cluster takes
/// seconds a size: a reader sees the rows come); `each` may stop the sweep, which returns the rows
/// so far.
///
/// ```
/// use std::ops::ControlFlow;
/// use allreduce_sim::{sweep::*, scenario::Scenario, algorithms::Algorithm, topology::TopologySpec, units::Bandwidth};
/// let base = Scenario {
///     topology: TopologySpec::Uniform { ranks: 4, bandwidth: Bandwidth::from_gbytes_per_sec(1.0), latency_secs: 1e-6 },
///     algorithm: Algorithm::Ring, size_bytes: 4, segments: 1, gamma_secs_per_byte: 0.0,
///     faults: Default::default(),
/// };
/// let mut seen = Vec::new();
/// let rows = sweep_each(&base, 4, 4096, 4, |r| {
///     seen.push(r.size_bytes);
///     if r.size_bytes < 256 { ControlFlow::Continue(()) } else { ControlFlow::Break(()) }
/// }).unwrap();
/// assert_eq!(seen, [4, 16, 64, 256]);
/// assert_eq!(rows.len(), 4);
/// ```
pub fn sweep_each(
    base: &Scenario,
    min: u64,
    max: u64,
    factor: u64,
    mut each: impl FnMut(&SweepRow) -> ControlFlow<()>,
) -> Result<Vec<SweepRow>, ScenarioError> {
    let scenarios: Vec<Scenario> = sizes(min, max, factor)?
        .into_iter()
        .map(|size| Scenario {
            size_bytes: size,
            ..base.clone()
        })
        .collect();
    // Every size is checked before any is simulated: a bad last row fails at once, not after the
    // others ran.
    // Every size has the base's topology, so its ranks.
    let mut ranks = 0;
    let mut work = 0u64;
    for s in &scenarios {
        ranks = s.validate()?.ranks();
        let cost = s.cost()?;
        work = work.saturating_add(
            (cost.sharing_work).saturating_add(cost.transfers.saturating_mul(WORK_PER_TRANSFER)),
        );
    }
    // Each size fits a run's budget, and all of them one sweep's (40 sizes on 2408 ranks, each
    // under a minute, ran for 555 s).
    if work > SWEEP_WORK {
        return Err(ScenarioError::SweepOverBudget {
            sizes: scenarios.len(),
            times: work.div_ceil(SWEEP_WORK),
        });
    }
    let mut rows = Vec::with_capacity(scenarios.len());
    for scenario in scenarios {
        let size = scenario.size_bytes;
        let t = simulate_time(&scenario)?;
        let algbw = algbw(size, t.time_secs);
        let row = SweepRow {
            size_bytes: size,
            count: size / 4,
            time_secs: t.time_secs,
            algbw_bytes_per_sec: algbw,
            busbw_bytes_per_sec: busbw(algbw, ranks),
            algorithm: t.algorithm,
        };
        rows.push(row);
        if each(&row).is_break() {
            break;
        }
    }
    Ok(rows)
}

/// Where the fastest of several algorithms changes along a sweep: `(size before, size after,
/// fastest before, fastest after)`. `rows[a][i]` is algorithm `algorithms[a]` at the i-th size.
///
/// ```
/// use allreduce_sim::{algorithms::Algorithm, sweep::*};
/// let row = |size_bytes, time_secs| SweepRow { size_bytes, count: size_bytes / 4, time_secs,
///     algbw_bytes_per_sec: 0.0, busbw_bytes_per_sec: 0.0, algorithm: Algorithm::Ring };
/// let tree = vec![row(1 << 10, 1.0), row(1 << 20, 2.0), row(1 << 30, 9.0)];
/// let ring = vec![row(1 << 10, 3.0), row(1 << 20, 3.0), row(1 << 30, 4.0)];
/// // The tree is faster up to 1 MiB, the ring from 1 GiB on.
/// assert_eq!(crossovers(&[Algorithm::TreeBinary, Algorithm::Ring], &[tree, ring]),
///     [(1 << 20, 1 << 30, Algorithm::TreeBinary, Algorithm::Ring)]);
/// ```
pub fn crossovers(
    algorithms: &[Algorithm],
    rows: &[Vec<SweepRow>],
) -> Vec<(u64, u64, Algorithm, Algorithm)> {
    let points = rows.iter().map(Vec::len).min().unwrap_or(0);
    let fastest = |i: usize| {
        (0..rows.len())
            .min_by(|&a, &b| rows[a][i].time_secs.total_cmp(&rows[b][i].time_secs))
            .map(|a| algorithms[a])
    };
    let mut out = Vec::new();
    for i in 1..points {
        if let (Some(before), Some(after)) = (fastest(i - 1), fastest(i)) {
            if before != after {
                out.push((
                    rows[0][i - 1].size_bytes,
                    rows[0][i].size_bytes,
                    before,
                    after,
                ));
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::topology::TopologySpec;
    use crate::units::Bandwidth;

    fn base(alg: Algorithm) -> Scenario {
        Scenario {
            topology: TopologySpec::Uniform {
                ranks: 16,
                bandwidth: Bandwidth::from_gbytes_per_sec(50.0),
                latency_secs: 10e-6,
            },
            algorithm: alg,
            size_bytes: 1,
            segments: 1,
            gamma_secs_per_byte: 0.0,
            faults: Default::default(),
        }
    }

    #[test]
    fn ring_busbw_approaches_the_bottleneck_bandwidth_for_large_messages() {
        let rows = sweep(&base(Algorithm::Ring), 1 << 10, 1 << 32, 4).unwrap();
        let last = rows.last().unwrap();
        assert!(last.busbw_bytes_per_sec > 0.995 * 50e9 && last.busbw_bytes_per_sec <= 50e9);
        // busbw grows with size: latency dominates small messages.
        assert!(
            rows.windows(2)
                .all(|w| w[1].busbw_bytes_per_sec >= w[0].busbw_bytes_per_sec)
        );
        assert!(rows[0].busbw_bytes_per_sec < 0.01 * 50e9);
    }

    #[test]
    fn recursive_doubling_wins_small_messages_and_the_ring_large_ones() {
        let algs = [Algorithm::Ring, Algorithm::RecursiveDoubling];
        let rows: Vec<_> = algs
            .iter()
            .map(|&a| sweep(&base(a), 8, 1 << 30, 8).unwrap())
            .collect();
        let x = crossovers(&algs, &rows);
        assert_eq!(x.len(), 1, "{x:?}");
        assert_eq!(
            (x[0].2, x[0].3),
            (Algorithm::RecursiveDoubling, Algorithm::Ring)
        );
    }

    #[test]
    fn bad_ranges_are_explained() {
        assert!(sizes(0, 10, 2).is_err());
        assert!(sizes(10, 1, 2).is_err());
        assert!(sizes(1, 10, 1).is_err());
        assert_eq!(sizes(1, u64::MAX, 2).unwrap().len(), 64);
        assert_eq!(sizes(8, 64, 2).unwrap(), vec![8, 16, 32, 64]);
    }
}
