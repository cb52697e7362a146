//! The real-hardware panel: the model switch (textbook α-β / like NCCL on this hardware) with a
//! system picker, the virtual nccl-tests next to the published measurement with the error per size
//! and the changes of algorithm and protocol, "compare with your cluster", and the protocols and
//! channels explained. Every number comes from [`crate::ui::model::nccl_view`].

use crate::sim::nccl::model::run_candidate;
use crate::sim::nccl::protocol::{NcclAlgorithm, Protocol};
use crate::sim::units::format_secs;
use crate::ui::components::charts::{LineChart, Marker, Series, SeriesPoint};
use crate::ui::components::inputs::{checked, select_value, text_value};
use crate::ui::components::sliced::{Sliced, Slot, tick};
use crate::ui::i18n::{Key, Lang, percent, system_title, tr, trf, use_lang};
use crate::ui::model::chart_math::{Axis, Unit, format_bytes_binary};
use crate::ui::model::nccl_view::{
    ErrorSummary, FitSummary, MissReason, PasteError, PasteFit, SYSTEM_CHOICES, chart,
    error_summary,
};
use std::cell::RefCell;
use std::rc::Rc;
use yew::prelude::*;

fn gbps(bps: f64) -> String {
    format!("{:.0} GB/s", bps / 1e9)
}

pub(crate) fn change_sentence(lang: Lang, c: &crate::ui::model::nccl_view::Change) -> String {
    let key = match (c.from.0 == c.to.0, c.to.1) {
        (false, _) if c.to.0 == NcclAlgorithm::Nvls => Key::NcclChangeToNvls,
        (false, _) if c.to.0 == NcclAlgorithm::Tree => Key::NcclChangeToTree,
        (false, _) => Key::NcclChangeToRing,
        (true, Protocol::Ll128) => Key::NcclChangeToLl128,
        (true, Protocol::Simple) => Key::NcclChangeToSimple,
        (true, Protocol::Ll) => Key::NcclChangeToLl,
    };
    // In Chinese, Chinese punctuation after the algorithm names (". " read as English).
    let stop = if lang == Lang::Zh { "。" } else { ". " };
    format!(
        "{} → {}: {}/{} → {}/{}{stop}{}",
        format_bytes_binary(c.before_bytes as f64),
        format_bytes_binary(c.after_bytes as f64),
        c.from.0,
        c.from.1,
        c.to.0,
        c.to.1,
        tr(lang, key)
    )
}

fn fit_words(lang: Lang, f: &FitSummary) -> Vec<String> {
    let mut out = Vec::new();
    if let Some((share, rate)) = f.nic {
        out.push(trf(
            lang,
            Key::FitNic,
            &[&percent(lang, share, 0), &format!("{rate:.0} Gb/s")],
        ));
    }
    out.push(trf(
        lang,
        Key::FitIntra,
        &[
            &percent(lang, f.intra.0, 0),
            &format!("{:.0} GB/s", f.intra.1),
        ],
    ));
    out.push(trf(
        lang,
        Key::FitFloor,
        &[
            &format_secs(f.floor_us * 1e-6),
            &format_bytes_binary(f.floor_bytes as f64),
        ],
    ));
    out.push(match f.within_5_percent_from {
        Some(s) => trf(lang, Key::FitWithin, &[&format_bytes_binary(s as f64)]),
        None => tr(lang, Key::FitNotWithin).to_string(),
    });
    out.push(trf(
        lang,
        Key::FitGeomean,
        &[&percent(lang, f.calibration.geomean_error(), 1)],
    ));
    out
}

/// The error table's summary in words: how many sizes are within 5 %, from which size up, the
/// largest miss each way, and why the model misses where it misses most
/// ([`ErrorSummary::reason`]).
fn error_words(lang: Lang, e: &ErrorSummary) -> String {
    let signed = |x: f64| format!("{:+.1}%", x * 100.0);
    let size = |b: u64| format_bytes_binary(b as f64);
    let mut out = vec![trf(
        lang,
        Key::NcclErrWithin,
        &[&e.within_5_percent.to_string(), &e.sizes.to_string()],
    )];
    match e.within_5_percent_from {
        Some(from) if from == e.largest && e.sizes > 1 => {
            out.push(trf(lang, Key::NcclErrOnlyLargest, &[&size(from)]));
        }
        Some(from) => out.push(trf(lang, Key::NcclErrFrom, &[&size(from)])),
        None => {}
    }
    if let Some((b, err)) = e.fastest {
        out.push(trf(lang, Key::NcclErrFast, &[&signed(err), &size(b)]));
    }
    if let Some((b, err)) = e.slowest {
        out.push(trf(lang, Key::NcclErrSlow, &[&signed(err), &size(b)]));
    }
    let why = e.reason().map(|r| match r {
        MissReason::SmallAndMid => Key::NcclErrWhy,
        MissReason::LargeFast => Key::NcclErrWhyLargeFast,
        MissReason::LargeSlow => Key::NcclErrWhyLargeSlow,
        MissReason::NvlsOff => Key::NcclErrNvlsOff,
    });
    out.extend(why.map(|k| tr(lang, k).to_string()));
    out.join(lang.pick(" ", ""))
}

fn paste_error(lang: Lang, e: &PasteError) -> String {
    use crate::sim::nccl::calibrate::CalibrateError;
    use crate::sim::nccl::nccl_tests_parse::ParseErrorKind as K;
    match e {
        PasteError::Parse(p) => {
            let what = match &p.kind {
                K::NoRows => return tr(lang, Key::PasteNoRows).to_string(),
                K::TooFewColumns { found } => {
                    trf(lang, Key::ParseTooFewColumns, &[&found.to_string()])
                }
                K::NotANumber { text, .. } => trf(lang, Key::ParseNotANumber, &[text]),
                K::BadTime { text } => trf(lang, Key::ParseBadTime, &[text]),
                K::BadBandwidth { text } => trf(lang, Key::ParseBadBandwidth, &[text]),
                K::DuplicateSize { first_line, .. } => {
                    trf(lang, Key::ParseDuplicateSize, &[&first_line.to_string()])
                }
                K::SizeTooLarge { size_bytes } => {
                    trf(lang, Key::ParseSizeTooLarge, &[&size_bytes.to_string()])
                }
                K::TooManyRows { max } => trf(lang, Key::ParseTooManyRows, &[&max.to_string()]),
            };
            trf(
                lang,
                Key::PasteBadLine,
                &[&p.line.unwrap_or(0).to_string(), &what],
            )
        }
        PasteError::Fit(CalibrateError::TooFewRows { found, needed }) => trf(
            lang,
            Key::PasteFitFailed,
            &[&trf(
                lang,
                Key::FitTooFewRows,
                &[&needed.to_string(), &found.to_string()],
            )],
        ),
        PasteError::Fit(CalibrateError::RanksMismatch { table, system }) => trf(
            lang,
            Key::PasteFitFailed,
            &[&trf(
                lang,
                Key::FitRanksMismatch,
                &[&table.to_string(), &system.to_string()],
            )],
        ),
        PasteError::Fit(CalibrateError::Model(m)) => trf(
            lang,
            Key::PasteFitFailed,
            &[&crate::ui::i18n::errors::system_error(lang, m)],
        ),
    }
}

/// A paste's fit, advanced between frames; its result once it has ended.
struct FitProgress {
    work: Option<PasteFit>,
    result: Option<Result<FitSummary, PasteError>>,
}

impl Sliced for FitProgress {
    fn advance(&mut self, out_of_time: &mut dyn FnMut() -> bool) -> bool {
        let Some(work) = self.work.as_mut() else {
            return false;
        };
        loop {
            if work.step() {
                self.result = self.work.take().map(PasteFit::finish);
                return true;
            }
            if out_of_time() {
                return true;
            }
        }
    }
    fn done(&self) -> bool {
        self.work.is_none()
    }
}

#[component]
pub fn NcclSection() -> Html {
    let lang = use_lang();
    let nccl_model = use_state(|| true);
    let system_key = use_state(|| "dgx-h100");
    let nvls = use_state(|| true);
    let paste = use_state(String::new);
    let fit = use_state(|| None::<Result<FitSummary, PasteError>>);
    // A fit in progress: (evaluations, budget); its timer, whose drop cancels it.
    let fitting = use_state(|| None::<(usize, usize)>);
    let fit_timer: Slot = use_mut_ref(|| None);
    let choice = SYSTEM_CHOICES
        .iter()
        .find(|c| c.key == *system_key)
        .copied()
        .unwrap_or(SYSTEM_CHOICES[0]);
    let data = use_memo((choice.key, *nvls), |(_, nv)| chart(&choice, *nv));

    let on_model = {
        let nccl_model = nccl_model.clone();
        Callback::from(move |v: bool| nccl_model.set(v))
    };
    let on_system = {
        let system_key = system_key.clone();
        let (fit, fitting, timer) = (fit.clone(), fitting.clone(), fit_timer.clone());
        Callback::from(move |e: Event| {
            let v = select_value(&e);
            if let Some(c) = SYSTEM_CHOICES.iter().find(|c| c.key == v) {
                system_key.set(c.key);
                timer.borrow_mut().take();
                fit.set(None);
                fitting.set(None);
            }
        })
    };
    let on_nvls = {
        let nvls = nvls.clone();
        Callback::from(move |e: Event| nvls.set(checked(&e)))
    };
    let on_paste = {
        let paste = paste.clone();
        Callback::from(move |e: InputEvent| paste.set(text_value(&e)))
    };
    let on_fit = {
        let (fit, fitting, timer) = (fit.clone(), fitting.clone(), fit_timer.clone());
        let paste = paste.clone();
        let nv = *nvls;
        Callback::from(move |_: MouseEvent| {
            // A newer fit replaces an older one still running.
            timer.borrow_mut().take();
            fitting.set(None);
            let Ok(sys) = choice.system() else { return };
            match PasteFit::start(&sys, nv, &paste) {
                Err(e) => fit.set(Some(Err(e))),
                Ok(work) => {
                    fit.set(None);
                    fitting.set(Some(work.progress()));
                    let (fit, fitting) = (fit.clone(), fitting.clone());
                    let publish: Rc<dyn Fn(&FitProgress)> = Rc::new(move |p| match &p.result {
                        Some(r) => {
                            fitting.set(None);
                            fit.set(Some(r.clone()));
                        }
                        None => fitting.set(p.work.as_ref().map(PasteFit::progress)),
                    });
                    let progress = FitProgress {
                        work: Some(work),
                        result: None,
                    };
                    tick(timer.clone(), Rc::new(RefCell::new(progress)), publish);
                }
            }
        })
    };

    let body = match &*data {
        Err(e) => html! { <p class="error">{ crate::ui::i18n::errors::system_error(lang, e) }</p> },
        Ok(d) => {
            let shown_busbw = if *nccl_model {
                d.busbw_at_8gib()
            } else {
                d.ideal_busbw_at_8gib
            };
            let predicted = Series {
                label: tr(lang, Key::NcclPredicted).into(),
                class: "model-nccl".into(),
                points: d
                    .predicted
                    .iter()
                    .map(|c| SeriesPoint {
                        x: c.size_bytes as f64,
                        y: c.busbw_bytes_per_sec(),
                        testid: Some("nccl-predicted-point".into()),
                    })
                    .collect(),
                reference: false,
            };
            let mut series = vec![predicted];
            if !d.measured.is_empty() {
                series.push(Series {
                    label: tr(lang, Key::NcclPublished).into(),
                    class: "measured".into(),
                    points: d
                        .measured
                        .iter()
                        .map(|m| SeriesPoint {
                            x: m.size_bytes as f64,
                            y: m.measured_busbw,
                            testid: Some("published-point".into()),
                        })
                        .collect(),
                    reference: false,
                });
            }
            let markers: Vec<Marker> = d
                .changes
                .iter()
                .map(|c| Marker {
                    x: c.after_bytes as f64,
                    label: format!("{}/{}", c.to.0, c.to.1).into(),
                    testid: "nccl-change-marker".into(),
                    title: change_sentence(lang, c).into(),
                })
                .collect();
            // Up to 8 GiB, as nccl-tests' usual sweep, or further when a published table goes
            // further (16 GiB points were drawn past the axis's end).
            let x_max = (series.iter())
                .flat_map(|s| s.points.iter().map(|p| p.x))
                .fold((8u64 << 30) as f64, f64::max);
            let x = Axis::log(Unit::Bytes, 8.0, x_max);
            let y = Axis::linear_fit(
                Unit::BytesPerSec,
                series.iter().flat_map(|s| s.points.iter().map(|p| p.y)),
            );
            let source = choice.published().map(|p| p.source);
            // The live protocol figure: the same 1 MiB ring under each protocol.
            let protos: Vec<(Protocol, Option<f64>)> = Protocol::ALL
                .iter()
                .map(|&p| {
                    let t = (p != Protocol::Ll128 || d.system.ll128)
                        .then(|| run_candidate(&d.system, 1 << 20, NcclAlgorithm::Ring, p).ok())
                        .flatten()
                        .map(|c| c.time_secs);
                    (p, t)
                })
                .collect();
            html! {
                <>
                    <p class="nccl-headline">
                        { tr(lang, Key::NcclBusbwAt8Gib) }
                        <strong data-testid="nccl-busbw" data-busbw={format!("{:.1}", shown_busbw / 1e9)}>{ gbps(shown_busbw) }</strong>
                        { if *nccl_model { tr(lang, Key::NcclModelNcclNote) } else { tr(lang, Key::NcclModelIdealNote) } }
                    </p>
                    <p class="source">{ trf(lang, Key::NcclIntraShare, &[&percent(lang, d.system.intra_efficiency, 1), &format!("{:.0} GB/s", d.system.intra_gbytes_per_sec)]) }
                        // Above the links' rate only when the switch adds: said so (484 GB/s over
                        // 450 GB/s links read as a mistake).
                        if *nvls && shown_busbw > d.system.intra_gbytes_per_sec * 1e9 {
                            { " " }<span data-testid="nccl-over-wire">{ tr(lang, Key::NcclOverWire) }</span>
                        }
                    </p>
                    <div class="chart-card">
                        <h3>{ tr(lang, Key::NcclChartTitle) }</h3>
                        if let Some(src) = source {
                            <p class="chart-note" data-testid="nccl-source">{ trf(lang, Key::NcclSourceNote, &[""]) }<span lang="en" translate="no">{ src }</span></p>
                        } else {
                            <p class="chart-note">{ tr(lang, Key::NcclNoPublished) }</p>
                        }
                        <LineChart testid="nccl-chart" title={tr(lang, Key::NcclChartTitle)} x={x} y={y}
                            x_label={tr(lang, Key::SizeLog)} y_label={tr(lang, Key::BusBandwidth)}
                            series={Rc::new(series)} markers={Rc::new(markers)} value_attr="data-busbw" />
                    </div>
                    <ul class="nccl-changes">
                        { for d.changes.iter().map(|c| html! { <li data-testid="nccl-change">{ change_sentence(lang, c) }</li> }) }
                    </ul>
                    if let Some(e) = error_summary(&d.measured, d.measured_with_nvls && !*nvls) {
                        <p class="chart-note" data-testid="nccl-error-summary">{ error_words(lang, &e) }</p>
                    }
                    if !d.measured.is_empty() {
                        <table class="nccl-errors" data-testid="nccl-errors">
                            <thead><tr>
                                <th>{ tr(lang, Key::NcclColSize) }</th><th>{ tr(lang, Key::NcclColMeasured) }</th>
                                <th>{ tr(lang, Key::NcclColPredicted) }</th><th>{ tr(lang, Key::NcclColError) }</th>
                                <th>{ tr(lang, Key::NcclColChoice) }</th>
                            </tr></thead>
                            <tbody>
                                { for d.measured.iter().map(|m| html! {
                                    <tr data-testid="nccl-error-row" data-error={format!("{:.4}", m.error())}>
                                        <td>{ format_bytes_binary(m.size_bytes as f64) }</td>
                                        <td>{ format_secs(m.measured_us * 1e-6) }</td>
                                        <td>{ format_secs(m.predicted_us * 1e-6) }</td>
                                        <td>{ format!("{:+.1}%", m.error() * 100.0) }</td>
                                        <td>{ format!("{}/{}", m.algorithm, m.protocol) }</td>
                                    </tr>
                                }) }
                            </tbody>
                        </table>
                    }
                    <details class="nccl-explain" data-testid="nccl-explain">
                        <summary>{ tr(lang, Key::NcclExplainTitle) }</summary>
                        <p>{ tr(lang, Key::NcclExplainLl) }</p>
                        <p>{ tr(lang, Key::NcclExplainLl128) }</p>
                        <p>{ tr(lang, Key::NcclExplainSimple) }</p>
                        <p>{ tr(lang, Key::NcclExplainChannels) }</p>
                        <p class="chart-note">{ tr(lang, Key::NcclExplainFigure) }</p>
                        <ul>
                            { for protos.iter().map(|(p, t)| html! {
                                <li data-testid={format!("proto-time-{}", p.name())}>
                                    { format!("Ring/{}: ", p.name()) }
                                    { match t { Some(t) => format_secs(*t), None => tr(lang, Key::NcclProtoOff).to_string() } }
                                </li>
                            }) }
                        </ul>
                    </details>
                </>
            }
        }
    };

    let fit_view = match &*fit {
        None => match *fitting {
            Some((done, budget)) => html! {
                <p class="chart-note" data-testid="paste-fitting" aria-live="polite">
                    <progress max={budget.to_string()} value={done.min(budget).to_string()}></progress>{ " " }
                    { trf(lang, Key::PasteFitting, &[&done.to_string(), &budget.to_string()]) }
                </p>
            },
            None => html! {},
        },
        Some(Ok(f)) => html! {
            <div data-testid="paste-result">
                <ul>{ for fit_words(lang, f).into_iter().map(|w| html! { <li>{ w }</li> }) }</ul>
            </div>
        },
        Some(Err(e)) => {
            html! { <p class="error" data-testid="paste-error">{ paste_error(lang, e) }</p> }
        }
    };

    html! {
        <section class="nccl-section" id="real-hardware" data-testid="nccl-section">
            <h2>{ tr(lang, Key::NcclTitle) }</h2>
            <p class="lede">{ tr(lang, Key::NcclLede) }</p>
            <div class="nccl-controls" role="radiogroup" aria-label={tr(lang, Key::NcclModelSwitch)}>
                <label><input type="radio" name="nccl-model" data-testid="model-ideal" checked={!*nccl_model}
                    onchange={let m = on_model.clone(); Callback::from(move |_: Event| m.emit(false))} />{ tr(lang, Key::NcclModelIdeal) }</label>
                <label><input type="radio" name="nccl-model" data-testid="model-nccl" checked={*nccl_model}
                    onchange={let m = on_model.clone(); Callback::from(move |_: Event| m.emit(true))} />{ tr(lang, Key::NcclModelNccl) }</label>
                <label>{ tr(lang, Key::NcclSystem) }
                    <select data-testid="nccl-system" onchange={on_system}>
                        { for SYSTEM_CHOICES.iter().map(|c| html! {
                            <option value={c.key} selected={c.key == choice.key}>{ system_title(lang, c.id, c.nodes) }</option>
                        }) }
                    </select>
                </label>
                <label><input type="checkbox" data-testid="nccl-nvls" checked={*nvls} onchange={on_nvls} />{ tr(lang, Key::NcclNvls) }</label>
            </div>
            { body }
            <div class="nccl-paste">
                <h3>{ tr(lang, Key::PasteTitle) }</h3>
                <p class="chart-note">{ tr(lang, Key::PasteNote) }</p>
                <textarea data-testid="paste-box" rows="8" aria-label={tr(lang, Key::PasteTitle)} value={(*paste).clone()} oninput={on_paste} />
                <button data-testid="paste-fit" onclick={on_fit}>{ tr(lang, Key::PasteFit) }</button>
                { fit_view }
            </div>
        </section>
    }
}
