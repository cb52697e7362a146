//! The real-hardware panel's model, with no web types: which systems a learner can pick, the virtual
//! nccl-tests curve next to the published measurement with the error per size, where the choice of
//! algorithm and protocol changes, and the fit of a pasted table summarised in a few numbers. Every
//! number comes from the core ([`crate::sim::nccl`]); the component only draws it.
//!
//! ```
//! use allreduce_lab::ui::model::nccl_view::{chart, SYSTEM_CHOICES};
//! let h100 = SYSTEM_CHOICES.iter().find(|c| c.id == "dgx-h100").unwrap();
//! let c = chart(h100, false).unwrap();
//! assert!(!c.measured.is_empty());
//! assert!((c.busbw_at_8gib() / 1e9 - 365.0).abs() < 10.0);
//! assert!((c.ideal_busbw_at_8gib / 1e9 - 450.0).abs() < 2.0);
//! ```

use crate::sim::algorithms::Algorithm;
use crate::sim::nccl::calibrate::{CalibrateError, Calibrating, Calibration};
use crate::sim::nccl::model::{Choice, Choosing, predict_fast};
use crate::sim::nccl::nccl_tests_parse::{ParseError, parse};
use crate::sim::nccl::protocol::{NcclAlgorithm, Protocol};
use crate::sim::nccl::published::{Published, for_system};
use crate::sim::nccl::system::{System, SystemError};
use crate::sim::scenario::simulate_verified;
use crate::sim::units::format_secs;
use crate::ui::i18n::{Key, Lang, percent_above_zero, trf};

/// A system the panel offers.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SystemChoice {
    /// Unique in the menu.
    pub key: &'static str,
    pub id: &'static str,
    pub nodes: usize,
}

pub const SYSTEM_CHOICES: [SystemChoice; 7] = [
    SystemChoice {
        key: "dgx-h100",
        id: "dgx-h100",
        nodes: 1,
    },
    SystemChoice {
        key: "dgx-a100",
        id: "dgx-a100",
        nodes: 1,
    },
    SystemChoice {
        key: "dgx-a100x2",
        id: "dgx-a100",
        nodes: 2,
    },
    SystemChoice {
        key: "dgx-h200",
        id: "dgx-h200",
        nodes: 1,
    },
    SystemChoice {
        key: "dgx-b200",
        id: "dgx-b200",
        nodes: 1,
    },
    SystemChoice {
        key: "pcie-gen4-8",
        id: "pcie-gen4-8",
        nodes: 1,
    },
    SystemChoice {
        key: "pcie-gen5-8",
        id: "pcie-gen5-8",
        nodes: 1,
    },
];

/// The sizes of the panel's virtual nccl-tests: 8 B to 8 GiB, ×4.
pub fn sweep_sizes() -> Vec<u64> {
    (0..16).map(|i| 8u64 << (2 * i)).collect()
}

impl SystemChoice {
    pub fn system(&self) -> Result<System, SystemError> {
        System::preset(self.id, self.nodes, 8)
    }
    pub fn published(&self) -> Option<&'static Published> {
        for_system(self.id, self.nodes)
    }
}

/// One published row next to the model's prediction.
#[derive(Clone, Debug, PartialEq)]
pub struct MeasuredPoint {
    pub size_bytes: u64,
    pub measured_us: f64,
    pub measured_busbw: f64,
    pub predicted_us: f64,
    pub algorithm: NcclAlgorithm,
    pub protocol: Protocol,
}

impl MeasuredPoint {
    /// predicted / measured − 1.
    pub fn error(&self) -> f64 {
        self.predicted_us / self.measured_us - 1.0
    }
}

/// How the model's predictions stand against a published table, in the few numbers the panel
/// says in words under its error table: how many sizes it predicts within 5 %, and where it misses
/// most in each direction (a negative error: it predicts the size faster than measured).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ErrorSummary {
    pub within_5_percent: usize,
    pub sizes: usize,
    /// The most optimistic prediction, `(size, error)`, when any is below −5 %.
    pub fastest: Option<(u64, f64)>,
    /// The most pessimistic, when any is above +5 %.
    pub slowest: Option<(u64, f64)>,
    /// From this size up, every size is within 5 %.
    pub within_5_percent_from: Option<u64>,
    /// The size of the largest miss either way, and its error, when any is beyond 5 %: where the
    /// model is weakest says why it misses.
    pub worst: Option<(u64, f64)>,
    /// The largest size of the table.
    pub largest: u64,
    /// The table was measured with NVLS on, and the prediction is without it: large sizes are
    /// slower by design, not by a fault of the model.
    pub nvls_off_against_on: bool,
}

/// From this size up, a miss is at a large size, where the links' delivered bandwidth sets the
/// time; below it, latencies, protocol switch points and channel counts count most.
pub const LARGE_BYTES: u64 = 256 << 20;

/// Why the model misses where it misses most, as the panel says it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum MissReason {
    /// The worst miss is below [`LARGE_BYTES`]: latencies, protocol switch points, channels.
    SmallAndMid,
    /// At [`LARGE_BYTES`] or more, predicted faster than measured: the links deliver less than
    /// the model assumes.
    LargeFast,
    /// At [`LARGE_BYTES`] or more, predicted slower: they deliver more.
    LargeSlow,
    /// The table was measured with NVLS on and the prediction is without it.
    NvlsOff,
}

impl ErrorSummary {
    /// Why the model misses, chosen from where its worst miss is; `None` when every size is
    /// within 5 % (and the table and the prediction agree on NVLS).
    ///
    /// ```
    /// use allreduce_lab::sim::nccl::protocol::{NcclAlgorithm, Protocol};
    /// use allreduce_lab::ui::model::nccl_view::{MeasuredPoint, MissReason, error_summary};
    /// let point = |size_bytes, predicted_us| MeasuredPoint {
    ///     size_bytes, measured_us: 100.0, measured_busbw: 0.0, predicted_us,
    ///     algorithm: NcclAlgorithm::Ring, protocol: Protocol::Simple,
    /// };
    /// let rows = [point(1 << 20, 92.0), point(1 << 30, 120.0)];
    /// assert_eq!(error_summary(&rows, false).unwrap().reason(), Some(MissReason::LargeSlow));
    /// assert_eq!(error_summary(&rows[..1], false).unwrap().reason(), Some(MissReason::SmallAndMid));
    /// assert_eq!(error_summary(&rows, true).unwrap().reason(), Some(MissReason::NvlsOff));
    /// assert_eq!(error_summary(&[point(8, 101.0)], false).unwrap().reason(), None);
    /// ```
    pub fn reason(&self) -> Option<MissReason> {
        if self.nvls_off_against_on {
            return Some(MissReason::NvlsOff);
        }
        self.worst.map(|(size, error)| match size >= LARGE_BYTES {
            false => MissReason::SmallAndMid,
            true if error < 0.0 => MissReason::LargeFast,
            true => MissReason::LargeSlow,
        })
    }
}

/// The least size from which every larger one's error is within 5 %, from `(size, error)` pairs
/// in any order; `None` when the largest is not.
fn within_5_percent_from(points: impl Iterator<Item = (u64, f64)> + Clone) -> Option<u64> {
    // The largest size that misses, and the least size above it (without sorting: a sort of its
    // own costs the page's wasm a kilobyte).
    let missed = (points.clone())
        .filter(|p| p.1.abs() > 0.05)
        .map(|p| p.0)
        .max();
    points
        .map(|p| p.0)
        .filter(|&s| missed.is_none_or(|m| s > m))
        .min()
}

/// Summarises `points` (`None` when there are none): a learner reading a prediction should know
/// how far it is from a measured one, and which way.
///
/// ```
/// use allreduce_lab::sim::nccl::protocol::{NcclAlgorithm, Protocol};
/// use allreduce_lab::ui::model::nccl_view::{MeasuredPoint, error_summary};
/// let point = |size_bytes, predicted_us| MeasuredPoint {
///     size_bytes, measured_us: 100.0, measured_busbw: 0.0, predicted_us,
///     algorithm: NcclAlgorithm::Ring, protocol: Protocol::Simple,
/// };
/// let s = error_summary(&[point(1 << 10, 102.0), point(1 << 20, 80.0), point(1 << 30, 90.0)], false).unwrap();
/// assert_eq!((s.within_5_percent, s.sizes), (1, 3));
/// assert_eq!(s.fastest.map(|(b, _)| b), Some(1 << 20)); // −20 %: predicted faster than measured
/// assert_eq!(s.slowest, None);
/// assert_eq!(s.within_5_percent_from, None); // the largest size is 10 % off
/// assert_eq!(s.worst.map(|(b, _)| b), Some(1 << 20));
/// let s = error_summary(&[point(1 << 30, 96.0), point(1 << 10, 100.0), point(1 << 20, 120.0)], false).unwrap();
/// assert_eq!(s.within_5_percent_from, Some(1 << 30)); // whatever order the rows come in
/// assert_eq!((s.worst.map(|(b, _)| b), s.largest), (Some(1 << 20), 1 << 30));
/// assert_eq!(error_summary(&[], false), None);
/// ```
pub fn error_summary(points: &[MeasuredPoint], nvls_off_against_on: bool) -> Option<ErrorSummary> {
    if points.is_empty() {
        return None;
    }
    let mut s = ErrorSummary {
        within_5_percent: 0,
        sizes: points.len(),
        fastest: None,
        slowest: None,
        within_5_percent_from: within_5_percent_from(
            points.iter().map(|p| (p.size_bytes, p.error())),
        ),
        worst: None,
        largest: points.iter().map(|p| p.size_bytes).max().unwrap_or(0),
        nvls_off_against_on,
    };
    for p in points {
        let e = p.error();
        if e.abs() <= 0.05 {
            s.within_5_percent += 1;
        } else if e < 0.0 && s.fastest.is_none_or(|(_, f)| e < f) {
            s.fastest = Some((p.size_bytes, e));
        } else if e > 0.0 && s.slowest.is_none_or(|(_, f)| e > f) {
            s.slowest = Some((p.size_bytes, e));
        }
        if e.abs() > 0.05 && s.worst.is_none_or(|(_, w)| e.abs() > w.abs()) {
            s.worst = Some((p.size_bytes, e));
        }
    }
    Some(s)
}

/// Where the chosen (algorithm, protocol) changes between two sizes of the sweep.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Change {
    pub before_bytes: u64,
    pub after_bytes: u64,
    pub from: (NcclAlgorithm, Protocol),
    pub to: (NcclAlgorithm, Protocol),
}

/// Everything the panel draws for one system.
#[derive(Clone, Debug, PartialEq)]
pub struct NcclChart {
    pub system: System,
    pub nvls: bool,
    pub predicted: Vec<Choice>,
    pub measured: Vec<MeasuredPoint>,
    pub changes: Vec<Change>,
    /// The textbook model's busbw at 8 GiB (ring on the datasheet rates), for comparison.
    pub ideal_busbw_at_8gib: f64,
    /// The published table was measured with NVLS on.
    pub measured_with_nvls: bool,
}

impl NcclChart {
    /// The predicted busbw at the largest size, bytes/s.
    pub fn busbw_at_8gib(&self) -> f64 {
        self.predicted
            .last()
            .map(Choice::busbw_bytes_per_sec)
            .unwrap_or(0.0)
    }
}

/// The chosen (algorithm, protocol) changes along `rows`.
pub fn changes(rows: &[Choice]) -> Vec<Change> {
    rows.windows(2)
        .filter(|w| (w[0].algorithm, w[0].protocol) != (w[1].algorithm, w[1].protocol))
        .map(|w| Change {
            before_bytes: w[0].size_bytes,
            after_bytes: w[1].size_bytes,
            from: (w[0].algorithm, w[0].protocol),
            to: (w[1].algorithm, w[1].protocol),
        })
        .collect()
}

/// The panel's data for `choice` (NVLS allowed or not).
pub fn chart(choice: &SystemChoice, nvls: bool) -> Result<NcclChart, SystemError> {
    let system = choice.system()?;
    chart_for(&system, choice.published(), nvls)
}

/// The panel's data for any system, with a published table to compare with, if any.
pub fn chart_for(
    system: &System,
    published: Option<&Published>,
    nvls: bool,
) -> Result<NcclChart, SystemError> {
    let predicted = sweep_sizes()
        .into_iter()
        .map(|s| predict_fast(system, s, nvls))
        .collect::<Result<Vec<_>, _>>()?;
    let mut measured = Vec::new();
    if let Some(p) = published {
        for r in p.table().rows {
            let c = predict_fast(system, r.size_bytes, nvls)?;
            measured.push(MeasuredPoint {
                size_bytes: r.size_bytes,
                measured_us: r.time_us,
                measured_busbw: r.busbw_gbytes_per_sec * 1e9,
                predicted_us: c.time_secs * 1e6,
                algorithm: c.algorithm,
                protocol: c.protocol,
            });
        }
    }
    let ideal = simulate_verified(&system.ideal_scenario(Algorithm::Ring, 8 << 30), false)
        .map(|s| s.trace.busbw_bytes_per_sec())
        .map_err(SystemError::from)?;
    Ok(NcclChart {
        changes: changes(&predicted),
        system: system.clone(),
        nvls,
        predicted,
        measured,
        ideal_busbw_at_8gib: ideal,
        measured_with_nvls: published.is_some_and(|p| p.nvls),
    })
}

/// What a pasted table told the fit, as numbers the text layer puts into words.
#[derive(Clone, Debug, PartialEq)]
pub struct FitSummary {
    pub calibration: Calibration,
    /// The NICs' delivered share and their line rate (Gb/s), when the system spans nodes.
    pub nic: Option<(f64, f64)>,
    /// The GPU links' reached share and their datasheet rate (GB/s).
    pub intra: (f64, f64),
    /// The fastest row: its time (µs) and size.
    pub floor_us: f64,
    pub floor_bytes: u64,
    /// From this size up, every row is within 5 % of the fitted model.
    pub within_5_percent_from: Option<u64>,
}

/// Why a paste could not be fitted.
#[derive(Clone, Debug, PartialEq)]
pub enum PasteError {
    Parse(ParseError),
    Fit(CalibrateError),
}

/// Parses a pasted all_reduce_perf output and fits `system` to it.
pub fn fit_paste(system: &System, nvls: bool, text: &str) -> Result<FitSummary, PasteError> {
    PasteFit::start(system, nvls, text)?.finish()
}

/// A paste being fitted, one predicted row at a time (the page runs it between frames).
pub struct PasteFit {
    floor: (f64, u64),
    fit: Calibrating,
}

impl PasteFit {
    /// Parses the paste and prepares the fit; a malformed paste or a table the fit cannot take is an
    /// error at once.
    pub fn start(system: &System, nvls: bool, text: &str) -> Result<PasteFit, PasteError> {
        let table = parse(text).map_err(PasteError::Parse)?;
        let fit = Calibrating::new(system, nvls, &table).map_err(PasteError::Fit)?;
        // The parse keeps at least one row.
        let floor = table
            .rows
            .iter()
            .map(|r| (r.time_us, r.size_bytes))
            .fold((f64::INFINITY, 0), |a, b| if b.0 < a.0 { b } else { a });
        Ok(PasteFit { floor, fit })
    }

    /// One row predicted; true once the search has ended.
    pub fn step(&mut self) -> bool {
        self.fit.step()
    }

    /// (evaluations so far, the search's budget).
    pub fn progress(&self) -> (usize, usize) {
        (self.fit.evaluations(), self.fit.max_evaluations())
    }

    /// The fit, in the few numbers the panel says in words.
    pub fn finish(self) -> Result<FitSummary, PasteError> {
        let cal = self.fit.finish().map_err(PasteError::Fit)?;
        let from = within_5_percent_from(cal.rows.iter().map(|r| (r.size_bytes, r.error())));
        let s = &cal.system;
        Ok(FitSummary {
            nic: (s.nodes > 1).then_some((s.nic_efficiency, s.nic_gbits_per_sec)),
            intra: (s.intra_efficiency, s.intra_gbytes_per_sec),
            floor_us: self.floor.0,
            floor_bytes: self.floor.1,
            within_5_percent_from: from,
            calibration: cal,
        })
    }
}

/// The lab's NCCL card's "why": the chosen (algorithm, protocol) against the runner-up, by how
/// much the runner-up is slower; candidates as fast tie ([`Choice::tied`]), and the card does not
/// say one of them won.
pub fn lab_why(lang: Lang, c: &Choice) -> String {
    let name = |a: &dyn std::fmt::Display, p: &dyn std::fmt::Display| format!("{a}/{p}");
    let Some(r) = c.runner_up() else {
        return trf(lang, Key::LabNcclOnly, &[&name(&c.algorithm, &c.protocol)]);
    };
    let candidates = c.candidates.len().to_string();
    let tied: Vec<String> = c.tied().map(|t| name(&t.algorithm, &t.protocol)).collect();
    if !tied.is_empty() {
        return trf(
            lang,
            Key::LabNcclTie,
            &[
                &name(&c.algorithm, &c.protocol),
                &tied.join(lang.pick(", ", "、")),
                &format_secs(c.candidates[0].tuner_secs),
                &candidates,
            ],
        );
    }
    let best = c.candidates[0].tuner_secs;
    let d = percent_above_zero(lang, r.tuner_secs / best - 1.0, 1);
    trf(
        lang,
        Key::LabNcclWhy,
        &[
            &name(&c.algorithm, &c.protocol),
            &format_secs(best),
            &format_secs(r.tuner_secs),
            &name(&r.algorithm, &r.protocol),
            &candidates,
            &match lang {
                Lang::En => format!("{d} slower"),
                Lang::Zh => format!("慢 {d}"),
            },
        ],
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_cards_why_calls_equal_times_a_tie_and_says_by_how_much_the_runner_up_is_slower() {
        let sys = System::preset("dgx-h100", 1, 8).unwrap();
        let mut c = crate::sim::nccl::model::predict(&sys, 1 << 20, false).unwrap();
        let first = c.candidates[0];
        let names =
            |x: &crate::sim::nccl::model::Candidate| format!("{}/{}", x.algorithm, x.protocol);
        let why = lab_why(Lang::En, &c);
        assert!(
            why.starts_with(&format!(
                "Why: {} has the lowest time NCCL's tuner predicts",
                names(&first)
            )),
            "{why}"
        );
        assert!(why.contains(" slower)"), "{why}");
        // The Chinese names the winner in the words the tie test below looks for.
        assert!(lab_why(Lang::Zh, &c).contains("的时间最短，为"));
        // The runner-up as fast, then the third too: a tie naming each, and none said to have won.
        for tied in [2, 3] {
            for k in 1..tied {
                c.candidates[k].tuner_secs = c.candidates[0].tuner_secs;
            }
            for lang in [Lang::En, Lang::Zh] {
                let why = lab_why(lang, &c);
                for x in &c.candidates[..tied] {
                    assert!(why.contains(&names(x)), "{why}");
                }
                assert!(!why.contains(&names(&c.candidates[tied])), "{why}");
                let (won, slower, tie) = (
                    lang.pick("has the lowest", "的时间最短，为"),
                    lang.pick("slower", "慢"),
                    lang.pick("ties with", "并列最短"),
                );
                assert!(!why.contains(won) && !why.contains(slower), "{why}");
                assert!(why.contains(tie), "{why}");
            }
        }
        c.candidates.truncate(1);
        assert!(lab_why(Lang::En, &c).contains("the only candidate"));
    }

    #[test]
    fn each_published_table_gets_the_reason_its_rows_give() {
        let summary = |key: &str, nvls: bool| {
            let c = SYSTEM_CHOICES.iter().find(|c| c.key == key).unwrap();
            let ch = chart(c, nvls).unwrap();
            error_summary(&ch.measured, ch.measured_with_nvls && !nvls).unwrap()
        };
        // One node: the worst miss at small and mid sizes.
        for key in ["dgx-h100", "dgx-a100", "pcie-gen4-8"] {
            let s = summary(key, true);
            assert_eq!(s.reason(), Some(MissReason::SmallAndMid), "{key}: {s:?}");
            assert!(s.worst.unwrap().0 < LARGE_BYTES);
        }
        // Two A100 nodes: the worst at 256 MiB and beyond, predicted faster than measured.
        let two = summary("dgx-a100x2", true);
        assert_eq!(two.reason(), Some(MissReason::LargeFast), "{two:?}");
        assert_eq!(two.worst.unwrap().0, 256 << 20);
        // The H100's table has NVLS on; without it the large sizes are slower by design.
        let off = summary("dgx-h100", false);
        assert_eq!(off.reason(), Some(MissReason::NvlsOff));
        assert!(off.slowest.unwrap().1 > 0.2, "{off:?}");
        assert!(!summary("dgx-a100", false).nvls_off_against_on);
    }

    #[test]
    fn every_choice_builds_and_the_h100_curve_marks_its_protocol_changes() {
        for c in &SYSTEM_CHOICES {
            assert!(c.system().is_ok(), "{}", c.key);
        }
        let h100 = chart(&SYSTEM_CHOICES[0], true).unwrap();
        assert_eq!(h100.predicted.len(), 16);
        assert_eq!(h100.measured.len(), 11);
        assert!(h100.changes.iter().any(|c| c.to.0 == NcclAlgorithm::Nvls));
        assert!(h100.busbw_at_8gib() > 450e9);
        for m in &h100.measured {
            assert!(m.error().abs() < 0.25, "{m:?}");
        }
    }

    #[test]
    fn a_pasted_published_table_is_fitted_and_a_garbage_paste_names_its_line() {
        let a100 = SYSTEM_CHOICES[2];
        let text = a100.published().unwrap().text;
        let fit = fit_paste(&a100.system().unwrap(), true, text).unwrap();
        let (share, rate) = fit.nic.unwrap();
        assert!(share > 0.5 && share <= 1.0 && rate == 200.0);
        assert_eq!((fit.floor_us, fit.floor_bytes), (37.3, 8));
        let within = fit.within_5_percent_from;
        assert!(within.is_some());
        // The same rows pasted largest first: the same fit, read from the largest size down.
        let mut lines: Vec<&str> = text.lines().collect();
        lines.reverse();
        let back = fit_paste(&a100.system().unwrap(), true, &lines.join("\n")).unwrap();
        assert_eq!(back.within_5_percent_from, within);
        assert!(fit.calibration.geomean_error() < 0.08);
        let e = fit_paste(
            &a100.system().unwrap(),
            true,
            "8 2 float sum -1 oops 0 0 0\n",
        )
        .unwrap_err();
        assert!(matches!(
            e,
            PasteError::Parse(ParseError { line: Some(1), .. })
        ));
    }
}

/// The most GPUs the lab asks the nccl model about: one prediction cannot be sliced, and beyond
/// this it takes seconds in the browser (the CLI takes up to 1,024).
pub const LAB_NCCL_MAX_GPUS: usize = 128;

/// Why the lab's run has no "like NCCL" prediction.
#[derive(Clone, Debug, PartialEq)]
pub enum LabNcclError {
    /// One GPU: nothing to reduce.
    OneGpu,
    /// The count does not fill whole nodes of 8 (one switch).
    NotWholeNodes { gpus: usize },
    /// More GPUs than [`LAB_NCCL_MAX_GPUS`].
    TooMany { gpus: usize, max: usize },
    /// The system cannot take the shape (e.g. 16 GPUs per node).
    System(SystemError),
}

/// What NCCL would do for the lab's run: the system `pick` names with the lab's nodes × GPUs per
/// node ([`nccl_shape`](crate::ui::model::logic::nccl_shape)), and the model's choice for the
/// lab's message size.
///
/// ```
/// use allreduce_lab::ui::model::logic::{Controls, NcclPick};
/// use allreduce_lab::ui::model::nccl_view::lab_prediction;
/// let c = Controls::default(); // 2 nodes × 8 GPUs
/// let pick = NcclPick { system: "dgx-h100", nvls: true };
/// let (sys, choice) = lab_prediction(&pick, &c).unwrap();
/// assert_eq!((sys.nodes, sys.gpus_per_node), (2, 8));
/// assert_eq!(choice.size_bytes, c.size_bytes);
/// ```
pub fn lab_choosing(
    pick: &crate::ui::model::logic::NcclPick,
    controls: &crate::ui::model::logic::Controls,
) -> Result<(System, Choosing), LabNcclError> {
    let gpus = controls.gpus;
    if gpus < 2 {
        return Err(LabNcclError::OneGpu);
    }
    // The shape first: past the lab's limit the page points to the command line, which must
    // then take the shape (it pointed to `--gpus-per-node 16`, which the CLI refuses).
    let (nodes, g) = crate::ui::model::logic::nccl_shape(controls)
        .ok_or(LabNcclError::NotWholeNodes { gpus })?;
    let sys = System::preset(pick.system, nodes, g).map_err(LabNcclError::System)?;
    if gpus > LAB_NCCL_MAX_GPUS {
        return Err(LabNcclError::TooMany {
            gpus,
            max: LAB_NCCL_MAX_GPUS,
        });
    }
    // Every candidate is simulated (so the reason lists them all) up to 64 GPUs, as the CLI's
    // `simulate --model nccl` does; beyond, those that cannot win are skipped (the same choice).
    let size = controls.size_bytes.max(1);
    let choosing =
        Choosing::new(&sys, size, pick.nvls, sys.ranks() <= 64).map_err(LabNcclError::System)?;
    Ok((sys, choosing))
}

/// [`lab_choosing`] run to the end.
pub fn lab_prediction(
    pick: &crate::ui::model::logic::NcclPick,
    controls: &crate::ui::model::logic::Controls,
) -> Result<(System, Choice), LabNcclError> {
    let (sys, choosing) = lab_choosing(pick, controls)?;
    let choice = choosing.finish().map_err(LabNcclError::System)?;
    Ok((sys, choice))
}

#[cfg(test)]
mod lab_tests {
    use super::*;
    use crate::sim::nccl::model::predict;
    use crate::ui::model::logic::{Controls, Edit, NcclPick, TopologyKind};

    #[test]
    fn eight_h100s_on_one_switch_show_nccls_ring_at_about_365_with_nvls_off() {
        let mut c = Controls::default();
        c.apply(Edit::Kind(TopologyKind::Uniform));
        c.apply(Edit::Gpus(8));
        c.apply(Edit::Size(8 << 30));
        let off = NcclPick {
            system: "dgx-h100",
            nvls: false,
        };
        let (sys, choice) = lab_prediction(&off, &c).unwrap();
        assert_eq!((sys.nodes, sys.gpus_per_node), (1, 8));
        assert_eq!(choice, predict(&sys, 8 << 30, false).unwrap());
        // Every candidate NCCL considers on this box with NVLS off: Ring and Tree × 3 protocols.
        assert_eq!(choice.candidates.len(), 6);
        assert_eq!(choice.algorithm, NcclAlgorithm::Ring);
        assert!((choice.busbw_bytes_per_sec() / 1e9 - 365.0).abs() < 10.0);
        let on = NcclPick { nvls: true, ..off };
        assert_eq!(
            lab_prediction(&on, &c).unwrap().1.algorithm,
            NcclAlgorithm::Nvls
        );
    }

    #[test]
    fn shapes_the_systems_cannot_take_are_explained_not_predicted() {
        let pick = NcclPick::default();
        let mut c = Controls::default();
        c.apply(Edit::Kind(TopologyKind::Uniform));
        c.apply(Edit::Gpus(1));
        assert_eq!(lab_prediction(&pick, &c).unwrap_err(), LabNcclError::OneGpu);
        c.apply(Edit::Gpus(12));
        assert_eq!(
            lab_prediction(&pick, &c).unwrap_err(),
            LabNcclError::NotWholeNodes { gpus: 12 }
        );
        c.apply(Edit::Gpus(256));
        assert_eq!(
            lab_prediction(&pick, &c).unwrap_err(),
            LabNcclError::TooMany {
                gpus: 256,
                max: 128
            }
        );
        c.apply(Edit::Kind(TopologyKind::Cluster));
        c.apply(Edit::Gpus(32));
        c.apply(Edit::GpusPerNode(16));
        assert!(matches!(
            lab_prediction(&pick, &c).unwrap_err(),
            LabNcclError::System(e) if e.to_string().contains("GPUs per node")
        ));
        // Past the lab's limit too, the shape is what is wrong: "too many for the lab" pointed to
        // a command line that refuses 16 GPUs per node.
        c.apply(Edit::Gpus(1024));
        assert_eq!(c.gpus, 1024);
        assert!(matches!(
            lab_prediction(&pick, &c).unwrap_err(),
            LabNcclError::System(e) if e.to_string().contains("GPUs per node")
        ));
    }
}
