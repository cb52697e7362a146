//! "Speedup versus one GPU": the course chapter's scenarios, checked by simulation, and three charts
//! — speedup over 1…1024 GPUs per algorithm, the step broken into compute, exposed IO and exposed
//! communication, and a virtual nccl-tests sweep with its crossovers. Self-contained: its own state,
//! and its points computed progressively (a few per timer tick, cheapest first) so the page never
//! waits for the whole set.

use super::chart_math::{format_value, Axis, Unit};
use super::charts::{Bar, LineChart, Marker, Series, SeriesPoint, StackedBars};
use super::logic::{bandwidth_label, bandwidth_ladder_mbps, slider_position, slider_value};
use super::scaling_model::{
    hardware_choices, segments, Job, Point, Setup, HEAVY_TRANSFERS, SWEEP_FACTOR, SWEEP_MAX_BYTES,
    SWEEP_MIN_BYTES, TREE_SEGMENTS,
};
use crate::sim::algorithms::Algorithm;
use crate::sim::chapter::{ChapterScenario, Metric, CHAPTER_SCENARIOS, MODELS};
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
    /// Points this run computes (heavy ones excluded unless asked for).
    total: usize,
    /// Heavy points left out.
    skipped: Vec<Job>,
    started_ms: f64,
    done_ms: Option<f64>,
}

enum PointsAction {
    Start {
        generation: u64,
        total: usize,
        skipped: Vec<Job>,
    },
    Add {
        generation: u64,
        points: Vec<Point>,
    },
}

impl Reducible for Points {
    type Action = PointsAction;
    fn reduce(self: Rc<Self>, action: PointsAction) -> Rc<Self> {
        match action {
            PointsAction::Start {
                generation,
                total,
                skipped,
            } => Rc::new(Points {
                generation,
                items: Vec::new(),
                total,
                skipped,
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

/// Computes `jobs[from..]` a few at a time, one timer tick after another, reporting each batch.
fn schedule(
    slot: TimerSlot,
    setup: Rc<Setup>,
    jobs: Rc<Vec<Job>>,
    from: usize,
    generation: u64,
    dispatch: UseReducerDispatcher<Points>,
) {
    if from >= jobs.len() {
        return;
    }
    let next_slot = slot.clone();
    let timeout = Timeout::new(0, move || {
        let started = now_ms();
        let mut i = from;
        let mut points = Vec::new();
        while i < jobs.len() && (i == from || now_ms() - started < TICK_BUDGET_MS) {
            points.push(setup.compute(jobs[i]));
            i += 1;
        }
        dispatch.dispatch(PointsAction::Add { generation, points });
        schedule(next_slot, setup, jobs, i, generation, dispatch);
    });
    *slot.borrow_mut() = Some(timeout);
}

/// The setup's points, computed progressively; a new setup cancels the run in progress.
#[hook]
fn use_points(setup: &Setup, heavy: bool) -> UseReducerHandle<Points> {
    let points = use_reducer(Points::default);
    let slot: TimerSlot = use_mut_ref(|| None);
    let generation = use_mut_ref(|| 0u64);
    {
        let dispatch = points.dispatcher();
        use_effect_with((setup.clone(), heavy), move |(setup, heavy)| {
            let g = {
                let mut g = generation.borrow_mut();
                *g += 1;
                *g
            };
            let (jobs, skipped): (Vec<Job>, Vec<Job>) = setup
                .jobs()
                .into_iter()
                .partition(|j| *heavy || setup.cost(j) <= HEAVY_TRANSFERS);
            dispatch.dispatch(PointsAction::Start {
                generation: g,
                total: jobs.len(),
                skipped,
            });
            schedule(
                slot.clone(),
                Rc::new(setup.clone()),
                Rc::new(jobs),
                0,
                g,
                dispatch,
            );
            move || {
                slot.borrow_mut().take();
            }
        });
    }
    points
}

/// A short name for each chapter scenario's button.
fn short_name(id: &str) -> &'static str {
    match id {
        "eight-gpus-6-7x" => "8 GPUs give 6–7×",
        "bad-topology-under-4x" => "Bad topology: under 4×",
        "network-100g-over-40pct" => "100 Gbps: comm over 40%",
        "io-bound-30pct" => "IO-bound: 30% GPU use",
        "racks-800-200-tree-wins" => "800 in-rack / 200 across: tree wins",
        "inverted-400-800-ring-wins" => "400 in-rack / 800 across: ring wins",
        _ => "scenario",
    }
}

/// The metric's value as the chapter states it.
fn metric_value(metric: Metric, v: f64) -> String {
    match metric {
        Metric::Speedup => format!("{v:.2}×"),
        Metric::CommShare | Metric::GpuUtilisation => format!("{:.1}%", v * 100.0),
        Metric::RingOverTree => format!("{v:.2}"),
    }
}

/// The chapter's range, in words.
fn expected_range(metric: Metric, (lo, hi): (f64, f64)) -> String {
    let v = |x: f64| match metric {
        Metric::Speedup => format!("{x}×"),
        Metric::CommShare | Metric::GpuUtilisation => format!("{:.0}%", x * 100.0),
        Metric::RingOverTree => format!("{x}"),
    };
    if lo <= 0.0 {
        format!("under {}", v(hi))
    } else if !hi.is_finite() || (metric == Metric::CommShare && hi >= 1.0) {
        format!("over {}", v(lo))
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
    let outcome = use_memo(props.setup.clone(), |s| s.verdict());
    let s: ChapterScenario = props.setup.scenario();
    let changes = props.setup.changes();
    let model = s.training();
    let result = match &*outcome {
        Ok(o) => {
            let detail = match (s.metric, o.ring_and_tree_secs) {
                (Metric::RingOverTree, Some((ring, tree))) => format!(
                    " (ring {} vs pipelined binomial tree {})",
                    format_secs(ring),
                    format_secs(tree)
                ),
                _ => format!(
                    " (step {}: compute {}, exposed IO {}, exposed communication {} of a {} allreduce)",
                    format_secs(o.step.step_secs),
                    format_secs(o.step.compute_secs),
                    format_secs(o.step.exposed_io_secs),
                    format_secs(o.step.exposed_comm_secs),
                    format_secs(o.step.comm_secs)
                ),
            };
            html! {
                <p class="verdict-result">
                    { "Simulated " }{ s.metric.name() }{ ": " }
                    <strong data-testid="verdict-value">{ metric_value(s.metric, o.value) }</strong>
                    { detail }{ " — the chapter says " }{ expected_range(s.metric, s.expected) }
                    { ": " }
                    <span class={if o.holds { "ok" } else { "bad" }}>
                        { if o.holds { "holds" } else { "does not hold" } }
                    </span>
                </p>
            }
        }
        Err(e) => html! { <p class="error">{ e.0.clone() }</p> },
    };
    let (value, holds) = match &*outcome {
        Ok(o) => (o.value.to_string(), o.holds.to_string()),
        Err(_) => (String::new(), String::new()),
    };
    html! {
        <section class="verdict" data-testid="preset-verdict" data-value={value} data-holds={holds}>
            <h3 class="claim">{ s.claim }</h3>
            { result }
            <p class="because"><span class="muted">{ "Because: " }</span>{ s.because }</p>
            <dl class="params">
                <div><dt>{ "Hardware" }</dt><dd>{ s.hardware.name }<span class="source">{ s.hardware.source }</span></dd></div>
                <div><dt>{ "Model" }</dt><dd>{ s.model.name }<span class="source">{ s.model.source }</span></dd></div>
                <div><dt>{ "Cluster" }</dt><dd>{ format!("{} rack(s) × {} node(s) × {} GPUs = {} GPUs", s.racks, s.nodes_per_rack, s.hardware.gpus_per_node, s.gpus()) }
                    <span class="source">{ format!("GPU link {} GB/s, node NICs {} Gbps, rack uplink {} Gbps (per direction)",
                        s.hardware.intra_gbytes_per_sec, s.hardware.node_gbits_per_sec, s.hardware.rack_gbits_per_sec) }</span></dd></div>
                <div><dt>{ "Training" }</dt><dd>{ format!("{} of fp32 gradients, {} compute per step, {:.0}% of the backward pass overlapped, storage {}/s shared",
                    format_bytes(model.gradient_bytes() as f64), format_secs(model.compute_secs), s.overlap * 100.0, format_bytes(s.storage_bytes_per_sec)) }
                    <span class="source">{ format!("allreduce: {}", s.algorithm) }</span></dd></div>
            </dl>
            if !changes.is_empty() {
                <p class="changes" data-testid="verdict-changes">{ "Changed from the chapter's setup: " }{ changes.join("; ") }</p>
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
    let setup = use_state(|| Setup::from_scenario(&CHAPTER_SCENARIOS[0]));
    let heavy = use_state(|| false);
    let breakdown_alg = use_state(|| Algorithm::Ring);
    let points = use_points(&setup, *heavy);

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
                    data-testid={format!("chapter-preset-{}", s.id)} title={s.claim} onclick={pick}>
                { short_name(s.id) }
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
                <span class="algo-swatch" />{ a.name() }
            </label>
        }
    });
    let on_heavy = {
        let heavy = heavy.clone();
        Callback::from(move |e: Event| {
            heavy.set(e.target_unchecked_into::<HtmlInputElement>().checked())
        })
    };

    // The speedup chart.
    let counts = setup.gpu_counts();
    let max_count = counts.last().copied().unwrap_or(1) as f64;
    let mut series = vec![Series {
        label: "ideal (N×)".into(),
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
    for &a in &setup.algorithms {
        series.push(Series {
            label: a.name().into(),
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
    let steps = speedups(&points, shown_breakdown);
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
    let sweep_series = |value: fn(&SweepRow) -> f64, attr: &str| -> Rc<Vec<Series>> {
        Rc::new(
            setup
                .algorithms
                .iter()
                .zip(&rows)
                .map(|(&a, rs)| Series {
                    label: a.name().into(),
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
    let markers: Rc<Vec<Marker>> = Rc::new(if sweep_done && setup.algorithms.len() > 1 {
        crossovers(&setup.algorithms, &rows)
            .into_iter()
            .map(|(before, after, a, b)| Marker {
                x: ((before as f64) * (after as f64)).sqrt(),
                label: format!("{a} → {b}").into(),
                testid: "crossover".into(),
                title: format!(
                    "fastest changes between {} and {}: {a} before, {b} after",
                    format_value(Unit::Bytes, before as f64),
                    format_value(Unit::Bytes, after as f64)
                )
                .into(),
            })
            .collect()
    } else {
        Vec::new()
    });
    let size_axis = Axis::log(Unit::Bytes, SWEEP_MIN_BYTES as f64, SWEEP_MAX_BYTES as f64);
    let time_axis = Axis::log_fit(Unit::Secs, rows.iter().flatten().map(|r| r.time_secs));
    let busbw_axis = Axis::linear_fit(
        Unit::BytesPerSec,
        rows.iter().flatten().map(|r| r.busbw_bytes_per_sec),
    );

    // Progress.
    let done = points.items.len();
    let failures: Vec<String> = points
        .items
        .iter()
        .filter_map(|p| match p {
            Point::Failed(job, e) => Some(format!("{job:?}: {e}")),
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
                    Some(ms) => format!("{} points simulated in {:.0} ms", points.total, ms),
                    None => format!("simulating… {done} of {} points", points.total),
                } }
                if !points.skipped.is_empty() {
                    { format!(" · left out (tick below to compute): {}", points.skipped.iter().map(|j| match j {
                        Job::Speedup { algorithm, gpus } => format!("{algorithm} at {gpus} GPUs"),
                        Job::Sweep { algorithm, size_bytes } => format!("{algorithm} sweep at {}", format_value(Unit::Bytes, *size_bytes as f64)),
                    }).collect::<Vec<_>>().join(", ")) }
                }
            </span>
        </div>
    };

    let focus_options: Vec<usize> = counts.iter().copied().filter(|&n| n > 1).collect();
    html! {
        <section class="scaling" data-testid="scaling-section" id="scaling">
            <header class="scaling-head">
                <h2>{ "Speedup versus one GPU" }</h2>
                <p class="lede">{ "8 GPUs do not give 8×. Each step, every GPU computes, reads its input from shared storage and allreduces its gradients; whatever communication the backward pass cannot hide is added to the step. Pick one of the chapter's scenarios, then change the network and watch the claim hold or break. Every point below is a simulated allreduce." }</p>
            </header>
            <div class="scaling-layout">
                <aside class="scaling-controls controls">
                    <h2>{ "The chapter's scenarios" }</h2>
                    <div class="presets chapter-presets">{ for scenario_buttons }</div>
                    <h2>{ "Hardware" }</h2>
                    <select data-testid="scaling-hardware" onchange={on_hardware} key={setup.hardware.id}>
                        { for hardware.iter().map(|h| html! {
                            <option value={h.id} selected={h.id == setup.hardware.id}>{ h.name }</option>
                        }) }
                    </select>
                    <p class="source" data-testid="hardware-source">{ setup.hardware.source }</p>
                    <label class="field">
                        <span class="field-name">{ "Node NICs (network bandwidth per node)" }</span>
                        <input type="range" min="0" max={(ladder.len() - 1).to_string()} step="1"
                               value={slider_position(&ladder, nic_mbps).to_string()}
                               data-testid="network-bw"
                               data-values={ladder.iter().map(u64::to_string).collect::<Vec<_>>().join(",")}
                               aria-valuetext={bandwidth_label(nic_mbps)} oninput={on_nic} />
                        <output class="field-value">{ bandwidth_label(nic_mbps) }</output>
                    </label>
                    <h2>{ "Model" }</h2>
                    <select data-testid="scaling-model" onchange={on_model} key={setup.model.id}>
                        { for MODELS.iter().map(|m| html! {
                            <option value={m.id} selected={m.id == setup.model.id}>{ m.name }</option>
                        }) }
                    </select>
                    <p class="source" data-testid="model-source">{ setup.model.source }</p>
                    <label class="field">
                        <span class="field-name">{ "Overlap with the backward pass" }</span>
                        <input type="range" min="0" max="100" step="5" value={format!("{:.0}", setup.overlap * 100.0)}
                               data-testid="overlap" aria-valuetext={format!("{:.0}%", setup.overlap * 100.0)} oninput={on_overlap} />
                        <output class="field-value">{ format!("{:.0}%", setup.overlap * 100.0) }</output>
                    </label>
                    <h2>{ "Algorithms" }</h2>
                    <div class="algo-checks">{ for algorithm_boxes }</div>
                    <p class="source">{ format!("Trees are pipelined in {TREE_SEGMENTS} segments (fewer beyond {} GPUs, to keep ranks × segments ≤ 1024).", 1024 / TREE_SEGMENTS) }</p>
                    <label class="field compact">
                        <span class="field-name">{ "Sweep and highlight at" }</span>
                        <select data-testid="focus-gpus" onchange={on_focus} key={focus.to_string()}>
                            { for focus_options.iter().map(|&n| html! {
                                <option value={n.to_string()} selected={n == focus}>{ format!("{n} GPUs") }</option>
                            }) }
                        </select>
                    </label>
                    <label class="field check">
                        <input type="checkbox" checked={*heavy} data-testid="heavy-points" onchange={on_heavy} />
                        <span>{ format!("Also compute the heavy points (over {}k transfers each: the ring at 512 and 1024 GPUs, hierarchical at 1024). Each pauses the page for 0.5 to 3 s.", HEAVY_TRANSFERS / 1000) }</span>
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
                            <h3>{ "Speedup vs GPU count" }</h3>
                            <p class="chart-note">{ format!("{} · {} of gradients · N × T(1) / T(N), same per-GPU batch", setup.hardware.name, format_bytes(setup.training().gradient_bytes() as f64)) }</p>
                            <LineChart testid="speedup-chart" title="Speedup versus one GPU for each algorithm, with the ideal line"
                                x={gpu_axis} y={speedup_axis} x_label="GPUs (log scale)" y_label="speedup vs 1 GPU (×, log scale)"
                                series={Rc::new(series)} value_attr="data-speedup" />
                        </div>
                        <div class="chart-card">
                            <h3>
                                { "Where a step's time goes: " }
                                <select data-testid="breakdown-algorithm" onchange={on_breakdown} key={shown_breakdown.name()}>
                                    { for setup.algorithms.iter().map(|a| html! {
                                        <option value={a.name()} selected={*a == shown_breakdown}>{ a.name() }</option>
                                    }) }
                                </select>
                            </h3>
                            <p class="chart-note">{ format!("stacked: compute, exposed storage IO, exposed communication; {focus} GPUs highlighted") }</p>
                            <StackedBars testid="breakdown-chart" title="Step time broken into compute, exposed IO and exposed communication"
                                parts={Rc::new(vec![("compute".into(), "part-compute".into()), ("exposed IO".into(), "part-io".into()), ("exposed communication".into(), "part-comm".into())])}
                                bars={Rc::new(bars)} y={step_axis} x_label="GPUs" y_label="step time" />
                        </div>
                        <div class="chart-card">
                            <h3>{ format!("Virtual nccl-tests: time vs message size, {focus} GPUs") }</h3>
                            <p class="chart-note">{ format!("like all_reduce_perf -b 8 -e 2G -f {SWEEP_FACTOR}, simulated; dashed markers: where the fastest algorithm changes") }</p>
                            <LineChart testid="sweep-chart" title="Allreduce time versus message size for each algorithm"
                                x={size_axis} y={time_axis} x_label="message size (bytes per GPU, log scale)" y_label="time (log scale)"
                                series={sweep_series(|r| r.time_secs, "time")} markers={markers.clone()} value_attr="data-secs" />
                        </div>
                        <div class="chart-card">
                            <h3>{ format!("Bus bandwidth vs message size, {focus} GPUs") }</h3>
                            <p class="chart-note">{ "busbw = size / time × 2(N−1)/N, as nccl-tests reports it" }</p>
                            <LineChart testid="busbw-chart" title="Bus bandwidth versus message size for each algorithm"
                                x={size_axis} y={busbw_axis} x_label="message size (bytes per GPU, log scale)" y_label="bus bandwidth"
                                series={sweep_series(|r| r.busbw_bytes_per_sec, "busbw")} markers={markers} value_attr="data-busbw" />
                        </div>
                    </div>
                    <p class="chart-note">{ format!("Segments used at the focus count: {}.",
                        setup.algorithms.iter().map(|&a| format!("{a} {}", segments(a, focus))).collect::<Vec<_>>().join(", ")) }
                        { format!(" Bandwidths are per direction; 1 GB/s = {}.", crate::sim::units::format_bandwidth_bits(Bandwidth::from_gbytes_per_sec(1.0))) }</p>
                </div>
            </div>
        </section>
    }
}
