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
//! use allreduce_sim::nccl::{calibrate::*, model::predict_fast, system::System};
//! use allreduce_sim::nccl::nccl_tests_parse::{MeasuredRow, MeasuredTable};
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
//!
//! Size: over 450 lines because the fit, its stepper (one row per step) and its errors are one
//! algorithm.

use super::model::predict_fast;
use super::nccl_tests_parse::{MeasuredRow, MeasuredTable};
use super::protocol::{NcclAlgorithm, Protocol};
use super::system::{System, SystemError};
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
    ///
    /// # Examples
    ///
    /// ```
    /// use allreduce_sim::nccl::{calibrate::FitParam, system::System};
    /// let a100 = System::preset("dgx-a100", 1, 8).unwrap();
    /// let json = serde_json::to_value(&a100).unwrap();
    /// assert_eq!(FitParam::LaunchUs.name(), "launch_us");
    /// assert_eq!(json[FitParam::LaunchUs.name()], a100.launch_us);
    /// assert_eq!(json[FitParam::NicEfficiency.name()], a100.nic_efficiency);
    /// ```
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
    ///
    /// # Examples
    ///
    /// ```
    /// use allreduce_sim::nccl::{calibrate::RowFit, protocol::{NcclAlgorithm, Protocol}};
    /// let row = RowFit { line: 1, size_bytes: 8, measured_us: 20.0, predicted_us: 25.0,
    ///     algorithm: NcclAlgorithm::Ring, protocol: Protocol::Ll };
    /// assert_eq!(row.error(), 0.25); // predicts 25 % too slow
    /// ```
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
    /// The fitted system's [`geomean_error`] over the rows.
    ///
    /// # Examples
    ///
    /// ```
    /// use allreduce_sim::nccl::{calibrate::*, protocol::{NcclAlgorithm, Protocol}, system::System};
    /// let row = |line, measured_us, predicted_us| RowFit { line, size_bytes: 8, measured_us, predicted_us,
    ///     algorithm: NcclAlgorithm::Ring, protocol: Protocol::Ll };
    /// let cal = Calibration { system: System::preset("dgx-h100", 1, 8).unwrap(), fitted: vec![],
    ///     rows: vec![row(1, 10.0, 20.0), row(2, 40.0, 20.0)], preset_geomean_error: 3.0 };
    /// // One row twice too slow, one twice too fast: a factor of 2 off, an error of 100 %.
    /// assert!((cal.geomean_error() - 1.0).abs() < 1e-15);
    /// ```
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
///
/// # Examples
///
/// ```
/// use allreduce_sim::nccl::calibrate::geomean_error;
/// // Twice too slow and twice too fast both miss by a factor of 2.
/// assert!((geomean_error(&[2.0, 0.5]) - 1.0).abs() < 1e-15);
/// assert_eq!(geomean_error(&[1.0, 1.0]), 0.0);
/// assert_eq!(geomean_error(&[]), 0.0);
/// ```
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
    /// The system or the model refused.
    Model(SystemError),
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
            CalibrateError::Model(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for CalibrateError {}

/// `sys`'s prediction for one measured row.
fn row_fit(sys: &System, nvls: bool, r: &MeasuredRow) -> Result<RowFit, CalibrateError> {
    let c = predict_fast(sys, r.size_bytes, nvls).map_err(CalibrateError::Model)?;
    Ok(RowFit {
        line: r.line,
        size_bytes: r.size_bytes,
        measured_us: r.time_us,
        predicted_us: c.time_secs * 1e6,
        algorithm: c.algorithm,
        protocol: c.protocol,
    })
}

/// Fits `preset`'s free numbers to `table`: [`Calibrating`] run to the end.
///
/// # Examples
///
/// ```
/// use allreduce_sim::nccl::{calibrate::*, nccl_tests_parse::parse, system::System};
/// let h100 = System::preset("dgx-h100", 1, 8).unwrap();
/// let two = parse("8 2 float sum -1 14.0 0 0 0\n1048576 262144 float sum -1 28.0 0 0 0\n").unwrap();
/// assert_eq!(calibrate(&h100, true, &two), Err(CalibrateError::TooFewRows { found: 2, needed: MIN_ROWS }));
/// let mut sick = h100.clone();
/// sick.launch_us = -1.0;
/// assert!(matches!(calibrate(&sick, true, &two), Err(CalibrateError::Model(_))));
/// ```
pub fn calibrate(
    preset: &System,
    nvls: bool,
    table: &MeasuredTable,
) -> Result<Calibration, CalibrateError> {
    Calibrating::new(preset, nvls, table)?.finish()
}

/// A fit in progress, advanced one predicted row at a time (so that a page can run it between
/// frames); [`calibrate`] runs it to the end.
///
/// ```
/// use allreduce_sim::nccl::calibrate::{calibrate, Calibrating};
/// use allreduce_sim::nccl::nccl_tests_parse::parse;
/// use allreduce_sim::nccl::system::System;
/// let table = parse("8 2 float sum -1 14.0 0 0 0\n1048576 262144 float sum -1 28.0 0 0 0\n\
///                    1073741824 268435456 float sum -1 4100 0 0 0\n").unwrap();
/// let h100 = System::preset("dgx-h100", 1, 8).unwrap();
/// let mut fit = Calibrating::new(&h100, true, &table).unwrap();
/// while !fit.step() {}
/// assert!(fit.evaluations() <= fit.max_evaluations() + 4);
/// assert_eq!(fit.finish().unwrap(), calibrate(&h100, true, &table).unwrap());
/// ```
pub struct Calibrating {
    preset: System,
    nvls: bool,
    table: MeasuredTable,
    params: Vec<FitParam>,
    x0: Vec<f64>,
    search: NelderMead,
    /// The row to predict next at the point asked about, and the squared errors so far.
    row: usize,
    sum: f64,
    /// After the search: each row predicted by the preset and by the fitted system.
    before: Vec<RowFit>,
    after: Vec<RowFit>,
    /// A row neither system could predict (a validated system predicts every size, and the fit
    /// moves its numbers only within their bounds, so this is not expected).
    failed: Option<CalibrateError>,
}

impl Calibrating {
    /// Checks the input and prepares the fit.
    ///
    /// # Examples
    ///
    /// ```
    /// use allreduce_sim::nccl::{calibrate::*, nccl_tests_parse::parse, system::System};
    /// // busbw / algbw = 1.875 = 2(N−1)/N says 16 GPUs; the system has 8.
    /// let table = parse("8 2 float sum -1 14.0 0 0 0\n1048576 262144 float sum -1 28.0 0 0 0\n\
    ///                    1073741824 268435456 float sum -1 4100 100.0 187.5 0\n").unwrap();
    /// let h100 = System::preset("dgx-h100", 1, 8).unwrap();
    /// assert!(matches!(Calibrating::new(&h100, true, &table), Err(CalibrateError::RanksMismatch { table: 16, system: 8 })));
    /// ```
    pub fn new(
        preset: &System,
        nvls: bool,
        table: &MeasuredTable,
    ) -> Result<Calibrating, CalibrateError> {
        preset.validate().map_err(CalibrateError::Model)?;
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
        let x0: Vec<f64> = params.iter().map(|&p| to_x(p, p.get(preset))).collect();
        Ok(Calibrating {
            search: NelderMead::new(&x0, 0.3, MAX_EVALUATIONS),
            preset: preset.clone(),
            nvls,
            table: table.clone(),
            params,
            x0,
            row: 0,
            sum: 0.0,
            before: Vec::new(),
            after: Vec::new(),
            failed: None,
        })
    }

    /// The system at a point of the search space (log-scaled, clamped to each number's bounds).
    fn system_at(&self, x: &[f64]) -> System {
        let mut s = self.preset.clone();
        for (&p, &xi) in self.params.iter().zip(x) {
            p.set(&mut s, from_x(p, xi));
        }
        s
    }

    /// Predicts one more row at the point the search asks about. The objective, once every row is
    /// in, is the squared log error of time over the rows plus a light pull towards the preset (a
    /// factor of e away costs as much as 10 % error on one row); a row the model cannot predict
    /// makes it infinite. Returns true once the search has ended.
    ///
    /// # Examples
    ///
    /// ```
    /// use allreduce_sim::nccl::{calibrate::*, nccl_tests_parse::parse, system::System};
    /// let table = parse("8 2 float sum -1 14.0 0 0 0\n1048576 262144 float sum -1 28.0 0 0 0\n\
    ///                    1073741824 268435456 float sum -1 4100 0 0 0\n").unwrap();
    /// let mut fit = Calibrating::new(&System::preset("dgx-h100", 1, 8).unwrap(), true, &table).unwrap();
    /// // One row per step: the search's first point is evaluated after 3 steps, its second after 6.
    /// for _ in 0..6 { assert!(!fit.step()); }
    /// assert_eq!(fit.evaluations(), 2);
    /// ```
    pub fn step(&mut self) -> bool {
        let Some(x) = self.search.ask() else {
            return self.step_tables();
        };
        let row = &self.table.rows[self.row];
        let s = self.system_at(x);
        let value = match predict_fast(&s, row.size_bytes, self.nvls) {
            Ok(c) => {
                self.sum += (c.time_secs * 1e6 / row.time_us).ln().powi(2);
                self.row += 1;
                (self.row == self.table.rows.len()).then(|| {
                    let prior = 0.01 * 0.01;
                    self.sum
                        + prior
                            * x.iter()
                                .zip(&self.x0)
                                .map(|(a, b)| (a - b).powi(2))
                                .sum::<f64>()
                })
            }
            Err(_) => Some(f64::INFINITY),
        };
        if let Some(v) = value {
            self.search.tell(v);
            self.row = 0;
            self.sum = 0.0;
        }
        false
    }

    /// Once the search has ended: one row of the preset's table, then of the fitted system's;
    /// true once both are complete (or a row could not be predicted).
    fn step_tables(&mut self) -> bool {
        let n = self.table.rows.len();
        let (sys, before) = if self.failed.is_some() {
            return true;
        } else if self.before.len() < n {
            (self.preset.clone(), true)
        } else if self.after.len() < n {
            (self.system_at(&self.search.best()), false)
        } else {
            return true;
        };
        let out = if before {
            &mut self.before
        } else {
            &mut self.after
        };
        match row_fit(&sys, self.nvls, &self.table.rows[out.len()]) {
            Ok(r) => out.push(r),
            Err(e) => self.failed = Some(e),
        }
        self.failed.is_some() || (self.before.len() == n && self.after.len() == n)
    }

    /// Evaluations of the objective (the model over every row) so far.
    ///
    /// # Examples
    ///
    /// ```
    /// use allreduce_sim::nccl::{calibrate::*, nccl_tests_parse::parse, system::System};
    /// let table = parse("8 2 float sum -1 14.0 0 0 0\n1048576 262144 float sum -1 28.0 0 0 0\n\
    ///                    1073741824 268435456 float sum -1 4100 0 0 0\n").unwrap();
    /// let mut fit = Calibrating::new(&System::preset("dgx-h100", 1, 8).unwrap(), true, &table).unwrap();
    /// assert_eq!(fit.evaluations(), 0);
    /// for _ in 0..3 { fit.step(); } // the first point, one row at a time
    /// assert_eq!(fit.evaluations(), 1);
    /// ```
    pub fn evaluations(&self) -> usize {
        self.search.evals
    }

    /// The search's budget (a shrink step may pass it by up to the number of fitted values).
    ///
    /// # Examples
    ///
    /// ```
    /// use allreduce_sim::nccl::{calibrate::*, nccl_tests_parse::parse, system::System};
    /// let table = parse("8 2 float sum -1 14.0 0 0 0\n1048576 262144 float sum -1 28.0 0 0 0\n\
    ///                    1073741824 268435456 float sum -1 4100 0 0 0\n").unwrap();
    /// let fit = Calibrating::new(&System::preset("dgx-h100", 1, 8).unwrap(), true, &table).unwrap();
    /// assert_eq!(fit.max_evaluations(), MAX_EVALUATIONS);
    /// ```
    pub fn max_evaluations(&self) -> usize {
        MAX_EVALUATIONS
    }

    /// Runs what is left and returns the fitted system with both tables.
    ///
    /// # Examples
    ///
    /// ```
    /// use allreduce_sim::nccl::{calibrate::*, nccl_tests_parse::parse, system::System};
    /// let table = parse("8 2 float sum -1 14.0 0 0 0\n1048576 262144 float sum -1 28.0 0 0 0\n\
    ///                    1073741824 268435456 float sum -1 4100 0 0 0\n").unwrap();
    /// let cal = Calibrating::new(&System::preset("dgx-h100", 1, 8).unwrap(), true, &table).unwrap().finish().unwrap();
    /// // One node: no NIC to fit.
    /// assert_eq!(cal.fitted.iter().map(|f| f.param).collect::<Vec<_>>(), [FitParam::LaunchUs, FitParam::IntraEfficiency]);
    /// // Every measured row, by its line, next to the fitted system's prediction.
    /// assert_eq!(cal.rows.iter().map(|r| (r.line, r.measured_us)).collect::<Vec<_>>(), [(1, 14.0), (2, 28.0), (3, 4100.0)]);
    /// ```
    pub fn finish(mut self) -> Result<Calibration, CalibrateError> {
        while !self.step() {}
        if let Some(e) = self.failed {
            return Err(e);
        }
        let system = self.system_at(&self.search.best());
        let (before, rows) = (self.before, self.after);
        let preset = &self.preset;
        Ok(Calibration {
            fitted: self
                .params
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
}

fn to_x(p: FitParam, v: f64) -> f64 {
    let (_, _, off) = p.bounds();
    (v + off).ln()
}

fn from_x(p: FitParam, x: f64) -> f64 {
    let (lo, hi, off) = p.bounds();
    (x.exp() - off).clamp(lo, hi)
}

/// Nelder–Mead minimisation from `x0` with an initial simplex of `step` along each axis, asked for
/// one point at a time ([`NelderMead::ask`]) and told its value ([`NelderMead::tell`]).
struct NelderMead {
    x0: Vec<f64>,
    step: f64,
    max_evals: usize,
    evals: usize,
    pts: Vec<(Vec<f64>, f64)>,
    pending: Option<Vec<f64>>,
    state: Search,
}

enum Search {
    /// Evaluating the initial simplex.
    Init,
    /// Evaluating the worst point reflected through the centroid of the others.
    Reflect {
        centroid: Vec<f64>,
        worst: (Vec<f64>, f64),
    },
    /// The reflection was the best yet: evaluating twice as far.
    Expand {
        reflected: (Vec<f64>, f64),
    },
    /// The reflection was no better than the second worst: evaluating halfway to the worst.
    Contract {
        worst: (Vec<f64>, f64),
    },
    /// Contraction failed too: re-evaluating each point halfway to the best (this one next).
    Shrink {
        next: usize,
    },
    Done,
}

fn combine(a: &[f64], b: &[f64], t: f64) -> Vec<f64> {
    a.iter().zip(b).map(|(ai, bi)| ai + t * (bi - ai)).collect()
}

impl NelderMead {
    fn new(x0: &[f64], step: f64, max_evals: usize) -> NelderMead {
        NelderMead {
            x0: x0.to_vec(),
            step,
            max_evals,
            evals: 0,
            pts: Vec::with_capacity(x0.len() + 1),
            pending: Some(x0.to_vec()),
            state: Search::Init,
        }
    }

    /// The next point to evaluate; `None` once the search has ended.
    fn ask(&self) -> Option<&[f64]> {
        self.pending.as_deref()
    }

    /// The value at the point [`NelderMead::ask`] gave.
    fn tell(&mut self, v: f64) {
        let Some(x) = self.pending.take() else {
            return;
        };
        self.evals += 1;
        let d = self.x0.len();
        match std::mem::replace(&mut self.state, Search::Done) {
            Search::Init => {
                self.pts.push((x, v));
                let i = self.pts.len() - 1;
                if i < d {
                    let mut next = self.x0.clone();
                    next[i] += self.step;
                    self.pending = Some(next);
                    self.state = Search::Init;
                } else {
                    self.iterate();
                }
            }
            Search::Reflect { centroid, worst } => {
                if v < self.pts[0].1 {
                    self.pending = Some(combine(&centroid, &worst.0, -2.0));
                    self.state = Search::Expand { reflected: (x, v) };
                } else if v < self.pts[d - 1].1 {
                    self.pts[d] = (x, v);
                    self.iterate();
                } else {
                    self.pending = Some(combine(&centroid, &worst.0, 0.5));
                    self.state = Search::Contract { worst };
                }
            }
            Search::Expand { reflected } => {
                self.pts[d] = if v < reflected.1 { (x, v) } else { reflected };
                self.iterate();
            }
            Search::Contract { worst } => {
                if v < worst.1 {
                    self.pts[d] = (x, v);
                    self.iterate();
                } else {
                    self.pending = Some(combine(&self.pts[0].0, &self.pts[1].0, 0.5));
                    self.state = Search::Shrink { next: 1 };
                }
            }
            Search::Shrink { next } => {
                self.pts[next] = (x, v);
                if next < d {
                    self.pending = Some(combine(&self.pts[0].0, &self.pts[next + 1].0, 0.5));
                    self.state = Search::Shrink { next: next + 1 };
                } else {
                    self.iterate();
                }
            }
            Search::Done => {}
        }
    }

    /// Starts the next iteration (a reflection), or ends the search.
    fn iterate(&mut self) {
        let d = self.x0.len();
        self.state = Search::Done;
        if self.evals >= self.max_evals {
            return;
        }
        crate::order::sort_by_key(&mut self.pts, |p| p.1);
        if (self.pts[d].1 - self.pts[0].1).abs() < 1e-7 {
            return;
        }
        let centroid: Vec<f64> = (0..d)
            .map(|j| self.pts[..d].iter().map(|p| p.0[j]).sum::<f64>() / d as f64)
            .collect();
        let worst = self.pts[d].clone();
        self.pending = Some(combine(&centroid, &worst.0, -1.0));
        self.state = Search::Reflect { centroid, worst };
    }

    /// The best point evaluated.
    fn best(&self) -> Vec<f64> {
        let mut pts = self.pts.clone();
        crate::order::sort_by_key(&mut pts, |p| p.1);
        pts.swap_remove(0).0
    }
}
