//! "Speedup versus one GPU": the course chapter's scenarios, checked by simulation, and three charts
//! — speedup over 1…1024 GPUs per algorithm, the step broken into compute, exposed IO and exposed
//! communication, and a virtual nccl-tests sweep with its crossovers. Self-contained: its own state,
//! and its points computed progressively (a few per timer tick, cheapest first) so the page never
//! waits for the whole set.

use super::chart_math::{format_value, Axis, Unit};
use super::charts::{Bar, LineChart, Marker, Series, SeriesPoint, StackedBars};
use super::i18n::{
    algorithm_label, hardware_texts, model_texts, percent, scenario_texts, times, tr, trf,
    use_lang, Key, Lang,
};
use super::logic::{
    bandwidth_label, bandwidth_ladder_mbps, slider_position, slider_value, NcclPick,
};
use super::scaling_model::{
    because as because_text, hardware_choices, segments, Computation, Point, Setup,
    NCCL_CHART_MAX_GPUS, SWEEP_FACTOR, SWEEP_MAX_BYTES, SWEEP_MIN_BYTES, TREE_SEGMENTS,
};
use crate::course::chapter::{ChapterScenario, Metric, CHAPTER_SCENARIOS, MODELS};
use crate::sim::algorithms::Algorithm;
use crate::sim::nccl::model::Choice;
use crate::sim::nccl::system::PRESETS as NCCL_SYSTEMS;
use crate::sim::sweep::{crossovers, SweepRow};
use crate::sim::training::StepBreakdown;
use crate::sim::units::{format_bytes, format_secs, Bandwidth};
use gloo::timers::callback::Timeout;
use std::cell::RefCell;
use std::rc::Rc;
use web_sys::{HtmlInputElement, HtmlSelectElement};
use yew::prelude::*;

fn now_ms() -> f64 {
    web_sys::window()
        .and_then(|w| w.performance())
        .map_or(0.0, |p| p.now())
}

/// A tick computes points until this much time has passed, then yields to the page.
const TICK_BUDGET_MS: f64 = 12.0;

/// The points computed so far for one setup.
#[derive(Clone, Debug, Default, PartialEq)]
struct Points {
    generation: u64,
    items: Vec<Point>,
    /// Points this run computes.
    total: usize,
    started_ms: f64,
    done_ms: Option<f64>,
}

enum PointsAction {
    Start { generation: u64, total: usize },
    Add { generation: u64, points: Vec<Point> },
}

impl Reducible for Points {
    type Action = PointsAction;
    fn reduce(self: Rc<Self>, action: PointsAction) -> Rc<Self> {
        match action {
            PointsAction::Start { generation, total } => Rc::new(Points {
                generation,
                items: Vec::new(),
                total,
                started_ms: now_ms(),
                done_ms: (total == 0).then_some(0.0),
            }),
            PointsAction::Add { generation, points } if generation == self.generation => {
                let mut next = (*self).clone();
                next.items.extend(points);
                if next.items.len() >= next.total {
                    next.done_ms = Some(now_ms() - next.started_ms);
                }
                Rc::new(next)
            }
            PointsAction::Add { .. } => self,
        }
    }
}

type TimerSlot = Rc<RefCell<Option<Timeout>>>;

/// Advances `work` for one timer tick at a time, reporting the points each tick finishes. Large
/// runs are sliced inside the core, so no tick blocks the page for long.
fn schedule(
    slot: TimerSlot,
    work: Rc<RefCell<Computation>>,
    generation: u64,
    dispatch: UseReducerDispatcher<Points>,
) {
    if work.borrow().is_done() {
        return;
    }
    let next_slot = slot.clone();
    let timeout = Timeout::new(0, move || {
        let started = now_ms();
        let points = work
            .borrow_mut()
            .work(|| now_ms() - started >= TICK_BUDGET_MS);
        if !points.is_empty() {
            dispatch.dispatch(PointsAction::Add { generation, points });
        }
        schedule(next_slot, work, generation, dispatch);
    });
    *slot.borrow_mut() = Some(timeout);
}

/// The setup's points, computed progressively; a new setup cancels the run in progress.
#[hook]
fn use_points(setup: &Setup) -> UseReducerHandle<Points> {
    let points = use_reducer(Points::default);
    let slot: TimerSlot = use_mut_ref(|| None);
    let generation = use_mut_ref(|| 0u64);
    {
        let dispatch = points.dispatcher();
        use_effect_with(setup.clone(), move |setup| {
            let g = {
                let mut g = generation.borrow_mut();
                *g += 1;
                *g
            };
            let jobs = setup.jobs();
            dispatch.dispatch(PointsAction::Start {
                generation: g,
                total: jobs.len(),
            });
            let work = Rc::new(RefCell::new(Computation::new(setup.clone(), jobs)));
            schedule(slot.clone(), work, g, dispatch);
            move || {
                slot.borrow_mut().take();
            }
        });
    }
    points
}

/// The metric's value as the chapter states it.
fn metric_value(lang: Lang, metric: Metric, v: f64) -> String {
    match metric {
        Metric::Speedup => times(lang, v, 2),
        Metric::CommShare | Metric::GpuUtilisation => percent(lang, v, 1),
        Metric::RingOverTree => format!("{v:.2}"),
    }
}

/// The chapter's range, in words.
fn expected_range(lang: Lang, metric: Metric, (lo, hi): (f64, f64)) -> String {
    let v = |x: f64| match metric {
        Metric::Speedup => times(lang, x, 0),
        Metric::CommShare | Metric::GpuUtilisation => format!("{:.0}%", x * 100.0),
        Metric::RingOverTree => format!("{x}"),
    };
    if lo <= 0.0 {
        trf(lang, Key::Under, &[&v(hi)])
    } else if !hi.is_finite() || (metric == Metric::CommShare && hi >= 1.0) {
        trf(lang, Key::Over, &[&v(lo)])
    } else {
        format!("{}–{}", v(lo), v(hi))
    }
}

fn algorithm_class(a: Algorithm) -> AttrValue {
    format!("alg-{}", a.name()).into()
}

fn input_number(e: &InputEvent) -> f64 {
    e.target_unchecked_into::<HtmlInputElement>()
        .value()
        .parse()
        .unwrap_or(0.0)
}

fn select_value(e: &Event) -> String {
    e.target_unchecked_into::<HtmlSelectElement>().value()
}

#[derive(Properties, PartialEq)]
struct VerdictProps {
    setup: Setup,
}

/// The chapter's claim, the parameters that make it so, and what the simulation says.
#[component]
fn Verdict(props: &VerdictProps) -> Html {
    let lang = use_lang();
    let outcome = use_memo(props.setup.clone(), |s| s.verdict());
    let s: ChapterScenario = props.setup.scenario();
    let changes = props.setup.changes(lang);
    let model = s.training();
    let (_, claim, because) = scenario_texts(lang, &s);
    let (hw_name, hw_source) = hardware_texts(lang, &s.hardware);
    let (model_name, model_source) = model_texts(lang, &s.model);
    let result = match &*outcome {
        Ok(o) => {
            let detail = match (s.metric, o.ring_and_tree_secs) {
                (Metric::RingOverTree, Some((ring, tree))) => trf(
                    lang,
                    Key::RingVsTree,
                    &[&format_secs(ring), &format_secs(tree)],
                ),
                _ => trf(
                    lang,
                    Key::StepDetail,
                    &[
                        &format_secs(o.step.step_secs),
                        &format_secs(o.step.compute_secs),
                        &format_secs(o.step.exposed_io_secs),
                        &format_secs(o.step.exposed_comm_secs),
                        &format_secs(o.step.comm_secs),
                    ],
                ),
            };
            html! {
                <p class="verdict-result">
                    { trf(lang, Key::Simulated, &[metric_name(lang, s.metric)]) }
                    <strong data-testid="verdict-value">{ metric_value(lang, s.metric, o.value) }</strong>
                    { detail }{ tr(lang, Key::ChapterSays) }{ expected_range(lang, s.metric, s.expected) }
                    { ": " }
                    <span class={if o.holds { "ok" } else { "bad" }}>
                        { tr(lang, if o.holds { Key::Holds } else { Key::DoesNotHold }) }
                    </span>
                </p>
            }
        }
        Err(e) => html! { <p class="error">{ super::i18n::errors::scenario_error(lang, e) }</p> },
    };
    let computed_because = because_text(
        lang,
        &props.setup,
        outcome.as_ref().as_ref().ok().map(|o| &o.step),
    );
    let (value, holds) = match &*outcome {
        Ok(o) => (o.value.to_string(), o.holds.to_string()),
        Err(_) => (String::new(), String::new()),
    };
    html! {
        <section class="verdict" data-testid="preset-verdict" data-value={value} data-holds={holds}>
            <h3 class="claim">{ claim }</h3>
            { result }
            <p class="because" data-testid="verdict-because"><span class="muted">{ tr(lang, Key::Because) }</span>{ computed_because }
                if let (Ok(o), false) = (&*outcome, s.metric == Metric::RingOverTree) {
                    { " " }<span data-testid="verdict-step-form">{ trf(lang, crate::ui::chapter::model::step_form_key(&o.step), &[&format_secs(o.step.io_secs)]) }</span>
                }
            </p>
            if changes.is_empty() {
                <p class="because"><span class="muted">{ tr(lang, Key::ChapterBecause) }</span>{ because }</p>
            }
            <dl class="params">
                <div><dt>{ tr(lang, Key::Hardware) }</dt><dd>{ hw_name }<span class="source">{ hw_source }</span></dd></div>
                <div><dt>{ tr(lang, Key::Model) }</dt><dd>{ model_name }<span class="source">{ model_source }</span></dd></div>
                <div><dt>{ tr(lang, Key::ClusterLabel) }</dt><dd>{ trf(lang, Key::ClusterShape, &[&s.racks.to_string(), &s.nodes_per_rack.to_string(), &s.hardware.gpus_per_node.to_string(), &s.gpus().to_string()]) }
                    <span class="source">{ trf(lang, Key::ClusterLinks, &[&s.hardware.intra_gbytes_per_sec.to_string(), &s.hardware.node_gbits_per_sec.to_string(), &s.hardware.rack_gbits_per_sec.to_string()]) }</span></dd></div>
                <div><dt>{ tr(lang, Key::TrainingLabel) }</dt><dd>{ trf(lang, Key::TrainingText, &[&format_bytes(model.gradient_bytes() as f64), &format_secs(model.compute_secs), &percent(lang, s.overlap, 0), &format_bytes(s.storage_bytes_per_sec)]) }
                    <span class="source">{ trf(lang, Key::AllreduceWith, &[algorithm_label(lang, s.algorithm)]) }</span></dd></div>
            </dl>
            if !changes.is_empty() {
                <p class="changes" data-testid="verdict-changes">{ tr(lang, Key::ChangedFrom) }{ changes.join("; ") }</p>
            }
        </section>
    }
}

/// Speedup points by algorithm, in GPU order.
fn speedups(points: &Points, algorithm: Algorithm) -> Vec<StepBreakdown> {
    let mut v: Vec<StepBreakdown> = points
        .items
        .iter()
        .filter_map(|p| match p {
            Point::Speedup(a, s) if *a == algorithm => Some(*s),
            _ => None,
        })
        .collect();
    v.sort_by_key(|s| s.gpus);
    v
}

/// The nccl model's speedup points (with NCCL's choice), in GPU order.
fn nccl_speedups(points: &Points) -> Vec<(StepBreakdown, Option<Choice>)> {
    let mut v: Vec<(StepBreakdown, Option<Choice>)> = points
        .items
        .iter()
        .filter_map(|p| match p {
            Point::NcclSpeedup(s, c) => Some((*s, c.clone())),
            _ => None,
        })
        .collect();
    v.sort_by_key(|(s, _)| s.gpus);
    v
}

/// The nccl model's sweep rows, in size order.
fn nccl_sweep_rows(points: &Points) -> Vec<Choice> {
    let mut v: Vec<Choice> = points
        .items
        .iter()
        .filter_map(|p| match p {
            Point::NcclSweep(c) => Some(c.clone()),
            _ => None,
        })
        .collect();
    v.sort_by_key(|c| c.size_bytes);
    v
}

/// What NCCL chose, as a point's tooltip: "Ring/Simple, 32 channels".
fn choice_label(c: &Choice) -> String {
    format!("{}/{} × {}", c.algorithm, c.protocol, c.channels)
}

fn sweep_rows(points: &Points, algorithm: Algorithm) -> Vec<SweepRow> {
    let mut v: Vec<SweepRow> = points
        .items
        .iter()
        .filter_map(|p| match p {
            Point::Sweep(a, r) if *a == algorithm => Some(*r),
            _ => None,
        })
        .collect();
    v.sort_by_key(|r| r.size_bytes);
    v
}

#[component]
pub fn ScalingSection() -> Html {
    let lang = use_lang();
    let setup = use_state(|| Setup::from_scenario(&CHAPTER_SCENARIOS[0]));
    let breakdown_alg = use_state(|| Algorithm::Ring);
    let points = use_points(&setup);

    let edit = |f: Rc<dyn Fn(&mut Setup)>| {
        let setup = setup.clone();
        move || {
            let mut next = (*setup).clone();
            f(&mut next);
            setup.set(next);
        }
    };

    // Controls.
    let scenario_buttons = CHAPTER_SCENARIOS.iter().map(|s| {
        let pick = {
            let setup = setup.clone();
            let s = *s;
            Callback::from(move |_| setup.set(Setup::from_scenario(&s)))
        };
        let active = setup.chapter.id == s.id;
        html! {
            <button class={classes!("preset", active.then_some("active"))} aria-pressed={active.to_string()}
                    data-testid={format!("chapter-preset-{}", s.id)} title={scenario_texts(lang, s).1} onclick={pick}>
                { scenario_texts(lang, s).0 }
            </button>
        }
    });
    let hardware = hardware_choices();
    let on_hardware = {
        let setup = setup.clone();
        let hardware = hardware.clone();
        Callback::from(move |e: Event| {
            let id = select_value(&e);
            if let Some(h) = hardware.iter().find(|h| h.id == id) {
                let mut next = (*setup).clone();
                next.hardware = *h;
                setup.set(next);
            }
        })
    };
    let on_model = {
        let setup = setup.clone();
        Callback::from(move |e: Event| {
            let id = select_value(&e);
            if let Some(m) = MODELS.iter().find(|m| m.id == id) {
                let mut next = (*setup).clone();
                next.model = *m;
                setup.set(next);
            }
        })
    };
    let ladder = bandwidth_ladder_mbps();
    let nic_mbps = (setup.hardware.node_gbits_per_sec * 1000.0).round() as u64;
    let on_nic = {
        let setup = setup.clone();
        let ladder = ladder.clone();
        Callback::from(move |e: InputEvent| {
            let mbps = slider_value(&ladder, input_number(&e) as usize);
            let mut next = (*setup).clone();
            next.hardware.node_gbits_per_sec = mbps as f64 / 1000.0;
            setup.set(next);
        })
    };
    let on_overlap = {
        let setup = setup.clone();
        Callback::from(move |e: InputEvent| {
            let mut next = (*setup).clone();
            next.overlap = (input_number(&e) / 100.0).clamp(0.0, 1.0);
            setup.set(next);
        })
    };
    let on_focus = {
        let setup = setup.clone();
        Callback::from(move |e: Event| {
            if let Ok(n) = select_value(&e).parse::<usize>() {
                let mut next = (*setup).clone();
                next.focus_gpus = n;
                setup.set(next);
            }
        })
    };
    let nccl = setup.nccl;
    let on_network = {
        let setup = setup.clone();
        Callback::from(move |on: bool| {
            let mut next = (*setup).clone();
            next.nccl = on.then(|| setup.nccl.unwrap_or_default());
            setup.set(next);
        })
    };
    let on_nccl_system = {
        let setup = setup.clone();
        Callback::from(move |e: Event| {
            let id = select_value(&e);
            if let Some(&system) = NCCL_SYSTEMS.iter().find(|s| **s == id) {
                let mut next = (*setup).clone();
                next.nccl = Some(NcclPick {
                    system,
                    ..setup.nccl.unwrap_or_default()
                });
                setup.set(next);
            }
        })
    };
    let on_nccl_nvls = {
        let setup = setup.clone();
        Callback::from(move |_: Event| {
            let mut next = (*setup).clone();
            let pick = setup.nccl.unwrap_or_default();
            next.nccl = Some(NcclPick {
                nvls: !pick.nvls,
                ..pick
            });
            setup.set(next);
        })
    };
    let network_controls = html! {
        <div class="scaling-network" role="radiogroup" aria-label={tr(lang, Key::NcclModelSwitch)}>
            <h2>{ tr(lang, Key::NcclModelSwitch) }</h2>
            <label><input type="radio" name="scaling-network" data-testid="scaling-model-ideal" checked={nccl.is_none()}
                onchange={let m = on_network.clone(); Callback::from(move |_: Event| m.emit(false))} />{ tr(lang, Key::NcclModelIdeal) }</label>
            <label><input type="radio" name="scaling-network" data-testid="scaling-model-nccl" checked={nccl.is_some()}
                onchange={let m = on_network.clone(); Callback::from(move |_: Event| m.emit(true))} />{ tr(lang, Key::NcclModelNccl) }</label>
            if let Some(pick) = nccl {
                <>
                <label class="field compact">
                    <span class="field-name">{ tr(lang, Key::NcclSystem) }</span>
                    <select data-testid="scaling-nccl-system" onchange={on_nccl_system} key={pick.system}>
                        { for NCCL_SYSTEMS.iter().map(|id| html! {
                            <option value={*id} selected={*id == pick.system} lang="en" translate="no">{ *id }</option>
                        }) }
                    </select>
                </label>
                <label><input type="checkbox" data-testid="scaling-nccl-nvls" checked={pick.nvls} onchange={on_nccl_nvls} />{ tr(lang, Key::NcclNvls) }</label>
                <p class="source" data-testid="scaling-nccl-note">{ trf(lang, Key::ScalingNcclNote, &[pick.system, &NCCL_CHART_MAX_GPUS.to_string()]) }</p>
                </>
            }
        </div>
    };
    let algorithm_boxes = Algorithm::CONCRETE.iter().map(|&a| {
        let checked = setup.algorithms.contains(&a);
        let toggle = edit(Rc::new(move |s: &mut Setup| {
            if s.algorithms.contains(&a) {
                if s.algorithms.len() > 1 {
                    s.algorithms.retain(|&x| x != a);
                }
            } else {
                s.algorithms.push(a);
                s.algorithms
                    .sort_by_key(|x| Algorithm::CONCRETE.iter().position(|y| y == x));
            }
        }));
        html! {
            <label class={classes!("algo-check", algorithm_class(a))}>
                <input type="checkbox" checked={checked} data-testid={format!("algo-{}", a.name())}
                       onchange={Callback::from(move |_| toggle())} />
                <span class="algo-swatch" />{ algorithm_label(lang, a) }
            </label>
        }
    });

    // The speedup chart.
    let counts = setup.gpu_counts();
    let max_count = counts.last().copied().unwrap_or(1) as f64;
    let mut series = vec![Series {
        label: tr(lang, Key::Ideal).into(),
        class: "ideal".into(),
        points: counts
            .iter()
            .map(|&n| SeriesPoint {
                x: n as f64,
                y: n as f64,
                testid: None,
            })
            .collect(),
        reference: true,
    }];
    let nccl_steps = nccl_speedups(&points);
    if let Some(pick) = nccl {
        series.push(Series {
            label: trf(lang, Key::ScalingNcclSeries, &[pick.system]).into(),
            class: "model-nccl".into(),
            points: nccl_steps
                .iter()
                .map(|(s, _)| SeriesPoint {
                    x: s.gpus as f64,
                    y: s.speedup,
                    testid: Some(format!("speedup-point-nccl-{}", s.gpus).into()),
                })
                .collect(),
            reference: false,
        });
    }
    for &a in setup.algorithms.iter().filter(|_| nccl.is_none()) {
        series.push(Series {
            label: algorithm_label(lang, a).into(),
            class: algorithm_class(a),
            points: speedups(&points, a)
                .iter()
                .map(|s| SeriesPoint {
                    x: s.gpus as f64,
                    y: s.speedup,
                    testid: Some(format!("speedup-point-{}-{}", a.name(), s.gpus).into()),
                })
                .collect(),
            reference: false,
        });
    }
    let speedup_axis = Axis::log(Unit::Times, 1.0, max_count);
    let gpu_axis = Axis::log(Unit::Count, 1.0, max_count);

    // The breakdown of the chosen algorithm.
    let shown_breakdown = if setup.algorithms.contains(&breakdown_alg) {
        *breakdown_alg
    } else {
        setup.algorithms[0]
    };
    let steps: Vec<StepBreakdown> = if nccl.is_some() {
        nccl_steps.iter().map(|(s, _)| *s).collect()
    } else {
        speedups(&points, shown_breakdown)
    };
    let focus = setup.sweep_gpus();
    let bars: Vec<Bar> = steps
        .iter()
        .map(|s| Bar {
            label: s.gpus.to_string().into(),
            parts: vec![s.compute_secs, s.exposed_io_secs, s.exposed_comm_secs],
            highlight: s.gpus == focus,
            testid: format!("breakdown-bar-{}", s.gpus).into(),
        })
        .collect();
    let step_axis = Axis::linear_fit(Unit::Secs, steps.iter().map(|s| s.step_secs));
    let on_breakdown = {
        let breakdown_alg = breakdown_alg.clone();
        Callback::from(move |e: Event| {
            if let Ok(a) = select_value(&e).parse::<Algorithm>() {
                breakdown_alg.set(a);
            }
        })
    };

    // The sweep at the focus GPU count.
    let rows: Vec<Vec<SweepRow>> = setup
        .algorithms
        .iter()
        .map(|&a| sweep_rows(&points, a))
        .collect();
    let nccl_rows = nccl_sweep_rows(&points);
    let sweep_series = |value: fn(&SweepRow) -> f64, attr: &str| -> Rc<Vec<Series>> {
        if let Some(pick) = nccl {
            let point = |c: &Choice| SweepRow {
                size_bytes: c.size_bytes,
                count: c.size_bytes / 4,
                time_secs: c.time_secs,
                algbw_bytes_per_sec: c.algbw_bytes_per_sec(),
                busbw_bytes_per_sec: c.busbw_bytes_per_sec(),
                algorithm: Algorithm::Ring,
            };
            return Rc::new(vec![Series {
                label: trf(lang, Key::ScalingNcclSeries, &[pick.system]).into(),
                class: "model-nccl".into(),
                points: nccl_rows
                    .iter()
                    .map(|c| SeriesPoint {
                        x: c.size_bytes as f64,
                        y: value(&point(c)),
                        testid: Some(format!("{attr}-point-nccl-{}", c.size_bytes).into()),
                    })
                    .collect(),
                reference: false,
            }]);
        }
        Rc::new(
            setup
                .algorithms
                .iter()
                .zip(&rows)
                .map(|(&a, rs)| Series {
                    label: algorithm_label(lang, a).into(),
                    class: algorithm_class(a),
                    points: rs
                        .iter()
                        .map(|r| SeriesPoint {
                            x: r.size_bytes as f64,
                            y: value(r),
                            testid: Some(
                                format!("{attr}-point-{}-{}", a.name(), r.size_bytes).into(),
                            ),
                        })
                        .collect(),
                    reference: false,
                })
                .collect(),
        )
    };
    let n_sizes = crate::sim::sweep::sizes(SWEEP_MIN_BYTES, SWEEP_MAX_BYTES, SWEEP_FACTOR)
        .map_or(0, |s| s.len());
    let sweep_done = rows.iter().all(|r| r.len() == n_sizes);
    let markers: Rc<Vec<Marker>> = Rc::new(
        if nccl.is_none() && sweep_done && setup.algorithms.len() > 1 {
            crossovers(&setup.algorithms, &rows)
                .into_iter()
                .map(|(before, after, a, b)| Marker {
                    x: ((before as f64) * (after as f64)).sqrt(),
                    label: format!(
                        "{} → {}",
                        algorithm_label(lang, a),
                        algorithm_label(lang, b)
                    )
                    .into(),
                    testid: "crossover".into(),
                    title: trf(
                        lang,
                        Key::Crossover,
                        &[
                            &format_value(Unit::Bytes, before as f64),
                            &format_value(Unit::Bytes, after as f64),
                            algorithm_label(lang, a),
                            algorithm_label(lang, b),
                        ],
                    )
                    .into(),
                })
                .collect()
        } else {
            Vec::new()
        },
    );
    let size_axis = Axis::log(Unit::Bytes, SWEEP_MIN_BYTES as f64, SWEEP_MAX_BYTES as f64);
    let time_axis = if nccl.is_some() {
        Axis::log_fit(Unit::Secs, nccl_rows.iter().map(|c| c.time_secs))
    } else {
        Axis::log_fit(Unit::Secs, rows.iter().flatten().map(|r| r.time_secs))
    };
    let busbw_axis = if nccl.is_some() {
        Axis::linear_fit(
            Unit::BytesPerSec,
            nccl_rows.iter().map(|c| c.busbw_bytes_per_sec()),
        )
    } else {
        Axis::linear_fit(
            Unit::BytesPerSec,
            rows.iter().flatten().map(|r| r.busbw_bytes_per_sec),
        )
    };
    // NCCL's choice at the focus count, per size, for the note under the sweep.
    let nccl_choices = nccl_rows
        .iter()
        .map(|c| format!("{} {}", format_bytes(c.size_bytes as f64), choice_label(c)))
        .collect::<Vec<_>>()
        .join(", ");

    // Progress.
    let done = points.items.len();
    let failures: Vec<String> = points
        .items
        .iter()
        .filter_map(|p| match p {
            Point::Failed(job, e) => Some(format!(
                "{job:?}: {}",
                super::i18n::errors::job_error(lang, e)
            )),
            _ => None,
        })
        .collect();
    let progress = html! {
        <div class="scaling-progress" data-testid="scaling-progress" data-done={done.to_string()}
             data-total={points.total.to_string()} data-complete={points.done_ms.is_some().to_string()}
             data-elapsed-ms={points.done_ms.map(|m| format!("{m:.0}")).unwrap_or_default()}>
            <progress max={points.total.max(1).to_string()} value={done.to_string()} />
            <span>
                { match points.done_ms {
                    Some(ms) => trf(lang, Key::PointsDone, &[&points.total.to_string(), &format!("{ms:.0}")]),
                    None => trf(lang, Key::PointsRunning, &[&done.to_string(), &points.total.to_string()]),
                } }
            </span>
        </div>
    };

    let focus_options: Vec<usize> = counts.iter().copied().filter(|&n| n > 1).collect();
    html! {
        <section class="scaling" data-testid="scaling-section" id="scaling">
            <header class="scaling-head">
                <h2>{ tr(lang, Key::ScalingTitle) }</h2>
                <p class="lede">{ tr(lang, Key::ScalingLede) }</p>
            </header>
            <div class="scaling-layout">
                <aside class="scaling-controls controls">
                    <h2>{ tr(lang, Key::ChapterScenarios) }</h2>
                    <div class="presets chapter-presets">{ for scenario_buttons }</div>
                    { network_controls }
                    <div hidden={nccl.is_some()}>
                    <h2 id="scaling-hardware-title">{ tr(lang, Key::Hardware) }</h2>
                    <select data-testid="scaling-hardware" aria-labelledby="scaling-hardware-title" onchange={on_hardware} key={setup.hardware.id}>
                        { for hardware.iter().map(|h| html! {
                            <option value={h.id} selected={h.id == setup.hardware.id}>{ hardware_texts(lang, h).0 }</option>
                        }) }
                    </select>
                    <p class="source" data-testid="hardware-source">{ hardware_texts(lang, &setup.hardware).1 }</p>
                    <label class="field">
                        <span class="field-name">{ tr(lang, Key::NodeNics) }</span>
                        <input type="range" min="0" max={(ladder.len() - 1).to_string()} step="1"
                               value={slider_position(&ladder, nic_mbps).to_string()}
                               data-testid="network-bw"
                               data-values={ladder.iter().map(u64::to_string).collect::<Vec<_>>().join(",")}
                               aria-valuetext={bandwidth_label(nic_mbps)} oninput={on_nic} />
                        <output class="field-value">{ bandwidth_label(nic_mbps) }</output>
                    </label>
                    </div>
                    <h2 id="scaling-model-title">{ tr(lang, Key::Model) }</h2>
                    <select data-testid="scaling-model" aria-labelledby="scaling-model-title" onchange={on_model} key={setup.model.id}>
                        { for MODELS.iter().map(|m| html! {
                            <option value={m.id} selected={m.id == setup.model.id}>{ model_texts(lang, m).0 }</option>
                        }) }
                    </select>
                    <p class="source" data-testid="model-source">{ model_texts(lang, &setup.model).1 }</p>
                    <label class="field">
                        <span class="field-name">{ tr(lang, Key::Overlap) }</span>
                        <input type="range" min="0" max="100" step="5" value={format!("{:.0}", setup.overlap * 100.0)}
                               data-testid="overlap" aria-valuetext={format!("{:.0}%", setup.overlap * 100.0)} oninput={on_overlap} />
                        <output class="field-value">{ format!("{:.0}%", setup.overlap * 100.0) }</output>
                    </label>
                    <div hidden={nccl.is_some()}>
                    <h2>{ tr(lang, Key::Algorithms) }</h2>
                    <div class="algo-checks">{ for algorithm_boxes }</div>
                    <p class="source">{ trf(lang, Key::TreeSegmentsNote, &[&TREE_SEGMENTS.to_string(), &(1024 / TREE_SEGMENTS).to_string()]) }</p>
                    </div>
                    <label class="field compact">
                        <span class="field-name">{ tr(lang, Key::SweepAt) }</span>
                        <select data-testid="focus-gpus" onchange={on_focus} key={focus.to_string()}>
                            { for focus_options.iter().map(|&n| html! {
                                <option value={n.to_string()} selected={n == focus}>{ super::i18n::gpus(lang, n) }</option>
                            }) }
                        </select>
                    </label>
                </aside>
                <div class="scaling-main">
                    <Verdict setup={(*setup).clone()} />
                    { progress }
                    if !failures.is_empty() {
                        <p class="error">{ failures.join("; ") }</p>
                    }
                    <div class="chart-grid">
                        <div class="chart-card">
                            <h3>{ tr(lang, Key::SpeedupVsCount) }</h3>
                            <p class="chart-note">{ trf(lang, Key::SpeedupNote, &[nccl.map_or(hardware_texts(lang, &setup.hardware).0, |p| p.system), &format_bytes(setup.training().gradient_bytes() as f64)]) }</p>
                            <LineChart testid="speedup-chart" title={tr(lang, Key::SpeedupChartTitle)}
                                x={gpu_axis} y={speedup_axis} x_label={tr(lang, Key::GpusLog)} y_label={tr(lang, Key::SpeedupLog)}
                                series={Rc::new(series)} value_attr="data-speedup" />
                        </div>
                        <div class="chart-card">
                            <h3>
                                { tr(lang, Key::WhereTimeGoes) }
                                <select data-testid="breakdown-algorithm" aria-label={tr(lang, Key::Algorithm)} onchange={on_breakdown} key={shown_breakdown.name()} hidden={nccl.is_some()}>
                                    { for setup.algorithms.iter().map(|a| html! {
                                        <option value={a.name()} selected={*a == shown_breakdown}>{ algorithm_label(lang, *a) }</option>
                                    }) }
                                </select>
                            </h3>
                            <p class="chart-note">{ trf(lang, Key::BreakdownNote, &[&focus.to_string()]) }</p>
                            <StackedBars testid="breakdown-chart" title={tr(lang, Key::BreakdownTitle)}
                                parts={Rc::new(vec![(tr(lang, Key::PartCompute).into(), "part-compute".into()), (tr(lang, Key::PartIo).into(), "part-io".into()), (tr(lang, Key::PartComm).into(), "part-comm".into())])}
                                bars={Rc::new(bars)} y={step_axis} x_label={tr(lang, Key::GpusAxis)} y_label={tr(lang, Key::StepTimeAxis)} />
                        </div>
                        <div class="chart-card">
                            <h3>{ trf(lang, Key::SweepTitle, &[&focus.to_string()]) }</h3>
                            <p class="chart-note">{ tr(lang, Key::SweepLike) }<code lang="en" translate="no">{ format!("all_reduce_perf -b {SWEEP_MIN_BYTES} -e {}G -f {SWEEP_FACTOR}", SWEEP_MAX_BYTES >> 30) }</code>{ tr(lang, Key::SweepNote) }</p>
                            <LineChart testid="sweep-chart" title={tr(lang, Key::SweepChartTitle)}
                                x={size_axis} y={time_axis} x_label={tr(lang, Key::SizeLog)} y_label={tr(lang, Key::TimeLog)}
                                series={sweep_series(|r| r.time_secs, "time")} markers={markers.clone()} value_attr="data-secs" />
                        </div>
                        <div class="chart-card">
                            <h3>{ trf(lang, Key::BusbwTitle, &[&focus.to_string()]) }</h3>
                            <p class="chart-note">{ tr(lang, Key::BusbwNote) }</p>
                            <LineChart testid="busbw-chart" title={tr(lang, Key::BusbwChartTitle)}
                                x={size_axis} y={busbw_axis} x_label={tr(lang, Key::SizeLog)} y_label={tr(lang, Key::BusBandwidth)}
                                series={sweep_series(|r| r.busbw_bytes_per_sec, "busbw")} markers={markers} value_attr="data-busbw" />
                        </div>
                    </div>
                    if nccl.is_some() && !nccl_choices.is_empty() {
                        <p class="chart-note" data-testid="scaling-nccl-choices">{ trf(lang, Key::ScalingNcclChoices, &[&focus.to_string()]) }<span lang="en" translate="no">{ nccl_choices }</span></p>
                    }
                    <p class="chart-note" hidden={nccl.is_some()}>{ trf(lang, Key::SegmentsUsed, &[&setup.algorithms.iter().map(|&a| format!("{} {}", algorithm_label(lang, a), segments(a, focus))).collect::<Vec<_>>().join(", ")]) }
                        { trf(lang, Key::PerDirection, &[&crate::sim::units::format_bandwidth_bits(Bandwidth::from_gbytes_per_sec(1.0))]) }</p>
                </div>
            </div>
        </section>
    }
}

/// The metric's name in `lang`.
fn metric_name(lang: Lang, metric: Metric) -> &'static str {
    tr(
        lang,
        match metric {
            Metric::Speedup => Key::MetricSpeedup,
            Metric::CommShare => Key::MetricCommShare,
            Metric::GpuUtilisation => Key::MetricUtilisation,
            Metric::RingOverTree => Key::MetricRingOverTree,
        },
    )
}
