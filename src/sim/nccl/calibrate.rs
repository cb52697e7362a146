//! Fitting the few numbers that differ between clusters of one class to a measured table.
//!
//! The mechanisms stay NCCL's; what is fitted is what a cluster's hardware and software stack
//! change: the latency floor (launch and first handshake), the share of the GPU link's datasheet
//! rate the copies reach, and across nodes the NICs' delivered share and the network's latency per
//! message. The fit minimises the squared log error of time over the rows, plus a light pull towards
//! the preset so that numbers the rows cannot see (a NIC on a one-node table, the GPU link when the
//! NICs are the bottleneck) stay where the preset put them.
//!
//! ```
//! use allreduce_lab::sim::nccl::{calibrate::*, model::predict_fast, system::System};
//! use allreduce_lab::sim::nccl::nccl_tests_parse::{MeasuredRow, MeasuredTable};
//! // A table the model itself generated for an A100 box whose links reach only 70 %.
//! let mut truth = System::preset("dgx-a100", 1, 8).unwrap();
//! truth.intra_efficiency = 0.70;
//! truth.launch_us = 14.0;
//! let rows = [8u64, 1 << 20, 1 << 30].iter().enumerate().map(|(i, &s)| {
//!     let t = predict_fast(&truth, s, true).unwrap().time_secs * 1e6;
//!     MeasuredRow { line: i + 1, size_bytes: s, count: s / 4, data_type: "float".into(),
//!         redop: "sum".into(), time_us: t, algbw_gbytes_per_sec: 0.0,
//!         busbw_gbytes_per_sec: 0.0, in_place_time_us: None }
//! }).collect();
//! let preset = System::preset("dgx-a100", 1, 8).unwrap();
//! let cal = calibrate(&preset, true, &MeasuredTable { rows }).unwrap();
//! assert!((cal.system.intra_efficiency - 0.70).abs() < 0.01);
//! assert!((cal.system.launch_us - 14.0).abs() < 0.5);
//! ```

use super::model::predict_fast;
use super::nccl_tests_parse::MeasuredTable;
use super::protocol::{NcclAlgorithm, Protocol};
use super::system::System;
use serde::Serialize;

/// How many times the fit may run the model over the rows.
pub const MAX_EVALUATIONS: usize = 100;

/// The fewest rows a fit needs.
pub const MIN_ROWS: usize = 3;

/// A number the fit may change.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum FitParam {
    LaunchUs,
    IntraEfficiency,
    NicEfficiency,
    NetLatencyUs,
}

impl FitParam {
    /// The name of the system field it sets.
    pub fn name(self) -> &'static str {
        match self {
            FitParam::LaunchUs => "launch_us",
            FitParam::IntraEfficiency => "intra_efficiency",
            FitParam::NicEfficiency => "nic_efficiency",
            FitParam::NetLatencyUs => "net_latency_us",
        }
    }

    fn get(self, s: &System) -> f64 {
        match self {
            FitParam::LaunchUs => s.launch_us,
            FitParam::IntraEfficiency => s.intra_efficiency,
            FitParam::NicEfficiency => s.nic_efficiency,
            FitParam::NetLatencyUs => s.net_latency_us,
        }
    }

    fn set(self, s: &mut System, v: f64) {
        match self {
            FitParam::LaunchUs => s.launch_us = v,
            FitParam::IntraEfficiency => s.intra_efficiency = v,
            FitParam::NicEfficiency => s.nic_efficiency = v,
            FitParam::NetLatencyUs => s.net_latency_us = v,
        }
    }

    /// The fit works on `ln(v + offset)` within these bounds.
    fn bounds(self) -> (f64, f64, f64) {
        match self {
            FitParam::LaunchUs => (0.0, 5000.0, 1.0),
            FitParam::IntraEfficiency | FitParam::NicEfficiency => (0.02, 1.0, 0.0),
            FitParam::NetLatencyUs => (0.0, 5000.0, 1.0),
        }
    }
}

/// One fitted number next to the preset's.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Fitted {
    pub param: FitParam,
    pub preset: f64,
    pub fitted: f64,
}

/// One measured row next to its prediction by the fitted system.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct RowFit {
    pub line: usize,
    pub size_bytes: u64,
    pub measured_us: f64,
    pub predicted_us: f64,
    pub algorithm: NcclAlgorithm,
    pub protocol: Protocol,
}

impl RowFit {
    /// predicted / measured − 1.
    pub fn error(&self) -> f64 {
        self.predicted_us / self.measured_us - 1.0
    }
}

/// The result of a fit.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Calibration {
    pub system: System,
    pub fitted: Vec<Fitted>,
    pub rows: Vec<RowFit>,
    /// The geometric-mean error of the preset before fitting.
    pub preset_geomean_error: f64,
}

impl Calibration {
    pub fn geomean_error(&self) -> f64 {
        geomean_error(
            &self
                .rows
                .iter()
                .map(|r| r.predicted_us / r.measured_us)
                .collect::<Vec<_>>(),
        )
    }
}

/// exp(mean |ln ratio|) − 1: the typical factor by which predictions miss.
pub fn geomean_error(ratios: &[f64]) -> f64 {
    if ratios.is_empty() {
        return 0.0;
    }
    (ratios.iter().map(|r| r.ln().abs()).sum::<f64>() / ratios.len() as f64).exp() - 1.0
}

/// Why a fit cannot run.
#[derive(Clone, Debug, PartialEq)]
pub enum CalibrateError {
    TooFewRows {
        found: usize,
        needed: usize,
    },
    /// The table's busbw/algbw ratio implies another number of GPUs than the system has.
    RanksMismatch {
        table: usize,
        system: usize,
    },
    Model(String),
}

impl std::fmt::Display for CalibrateError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            CalibrateError::TooFewRows { found, needed } => write!(
                f,
                "the fit needs at least {needed} rows of different sizes, the table has {found}"
            ),
            CalibrateError::RanksMismatch { table, system } => write!(
                f,
                "the table's busbw/algbw ratio says {table} GPUs, but the system has {system} (check --nodes and --gpus-per-node)"
            ),
            CalibrateError::Model(e) => f.write_str(e),
        }
    }
}

impl std::error::Error for CalibrateError {}

/// The predictions of `sys` for every row of `table`.
pub fn predict_rows(
    sys: &System,
    nvls: bool,
    table: &MeasuredTable,
) -> Result<Vec<RowFit>, CalibrateError> {
    table
        .rows
        .iter()
        .map(|r| {
            let c =
                predict_fast(sys, r.size_bytes, nvls).map_err(|e| CalibrateError::Model(e.0))?;
            Ok(RowFit {
                line: r.line,
                size_bytes: r.size_bytes,
                measured_us: r.time_us,
                predicted_us: c.time_secs * 1e6,
                algorithm: c.algorithm,
                protocol: c.protocol,
            })
        })
        .collect()
}

/// Fits `preset`'s free numbers to `table`.
pub fn calibrate(
    preset: &System,
    nvls: bool,
    table: &MeasuredTable,
) -> Result<Calibration, CalibrateError> {
    preset.validate().map_err(|e| CalibrateError::Model(e.0))?;
    if table.rows.len() < MIN_ROWS {
        return Err(CalibrateError::TooFewRows {
            found: table.rows.len(),
            needed: MIN_ROWS,
        });
    }
    if let Some(n) = table.implied_ranks() {
        if n != preset.ranks() {
            return Err(CalibrateError::RanksMismatch {
                table: n,
                system: preset.ranks(),
            });
        }
    }
    let mut params = vec![FitParam::LaunchUs, FitParam::IntraEfficiency];
    if preset.nodes > 1 {
        params.extend([FitParam::NicEfficiency, FitParam::NetLatencyUs]);
    }
    let to_x = |p: FitParam, v: f64| {
        let (_, _, off) = p.bounds();
        (v + off).ln()
    };
    let from_x = |p: FitParam, x: f64| {
        let (lo, hi, off) = p.bounds();
        (x.exp() - off).clamp(lo, hi)
    };
    let x0: Vec<f64> = params.iter().map(|&p| to_x(p, p.get(preset))).collect();
    let system_at = |x: &[f64]| {
        let mut s = preset.clone();
        for (&p, &xi) in params.iter().zip(x) {
            p.set(&mut s, from_x(p, xi));
        }
        s
    };
    // A light pull towards the preset: a factor of e away costs as much as 10 % error on one row.
    let prior = 0.01 * 0.01;
    let objective = |x: &[f64]| -> f64 {
        let s = system_at(x);
        let mut sum = 0.0;
        for r in &table.rows {
            match predict_fast(&s, r.size_bytes, nvls) {
                Ok(c) => sum += (c.time_secs * 1e6 / r.time_us).ln().powi(2),
                Err(_) => return f64::INFINITY,
            }
        }
        sum + prior * x.iter().zip(&x0).map(|(a, b)| (a - b).powi(2)).sum::<f64>()
    };
    let best = nelder_mead(&objective, &x0, 0.3, MAX_EVALUATIONS);
    let system = system_at(&best);
    let before = predict_rows(preset, nvls, table)?;
    let rows = predict_rows(&system, nvls, table)?;
    Ok(Calibration {
        fitted: params
            .iter()
            .map(|&p| Fitted {
                param: p,
                preset: p.get(preset),
                fitted: p.get(&system),
            })
            .collect(),
        system: System {
            name: format!(
                "{} (calibrated)",
                preset.name.trim_end_matches(" (calibrated)")
            ),
            ..system
        },
        rows,
        preset_geomean_error: geomean_error(
            &before
                .iter()
                .map(|r| r.predicted_us / r.measured_us)
                .collect::<Vec<_>>(),
        ),
    })
}

/// Nelder–Mead minimisation from `x0` with an initial simplex of `step` along each axis.
fn nelder_mead(f: &dyn Fn(&[f64]) -> f64, x0: &[f64], step: f64, max_evals: usize) -> Vec<f64> {
    let d = x0.len();
    let mut pts: Vec<(Vec<f64>, f64)> = Vec::with_capacity(d + 1);
    pts.push((x0.to_vec(), f(x0)));
    for i in 0..d {
        let mut x = x0.to_vec();
        x[i] += step;
        let v = f(&x);
        pts.push((x, v));
    }
    let mut evals = d + 1;
    let combine = |a: &[f64], b: &[f64], t: f64| -> Vec<f64> {
        a.iter().zip(b).map(|(ai, bi)| ai + t * (bi - ai)).collect()
    };
    while evals < max_evals {
        pts.sort_by(|a, b| a.1.total_cmp(&b.1));
        if (pts[d].1 - pts[0].1).abs() < 1e-7 {
            break;
        }
        let centroid: Vec<f64> = (0..d)
            .map(|j| pts[..d].iter().map(|p| p.0[j]).sum::<f64>() / d as f64)
            .collect();
        let worst = pts[d].clone();
        let reflected = combine(&centroid, &worst.0, -1.0);
        let fr = f(&reflected);
        evals += 1;
        if fr < pts[0].1 {
            let expanded = combine(&centroid, &worst.0, -2.0);
            let fe = f(&expanded);
            evals += 1;
            pts[d] = if fe < fr {
                (expanded, fe)
            } else {
                (reflected, fr)
            };
        } else if fr < pts[d - 1].1 {
            pts[d] = (reflected, fr);
        } else {
            let contracted = combine(&centroid, &worst.0, 0.5);
            let fc = f(&contracted);
            evals += 1;
            if fc < worst.1 {
                pts[d] = (contracted, fc);
            } else {
                let best = pts[0].0.clone();
                for p in pts.iter_mut().skip(1) {
                    p.0 = combine(&best, &p.0, 0.5);
                    p.1 = f(&p.0);
                    evals += 1;
                }
            }
        }
    }
    pts.sort_by(|a, b| a.1.total_cmp(&b.1));
    pts.swap_remove(0).0
}
