//! Ring versus Tree, between §1.3.2 and §1.4: one set of controls for both algorithms, each one's
//! time split into its latency and bandwidth parts, time against message size with the crossover
//! marked, and a link-use timeline under each. The simulations run in Web Workers
//! ([`workers`], [`versus_work`](crate::ui::model::versus_work)), or on the page a slice per tick
//! of idle time ([`VersusWork`]) where workers cannot run; the figure draws [`VersusView`], which
//! reads them back.
//!
//! Size: over 450 lines because the figure's readout, chart and controls read one run pair; its
//! pure model is ui/model/versus.rs.

use crate::sim::nccl::model::Candidate;
use crate::sim::topology::Tier;
use crate::sim::units::{Bandwidth, format_bandwidth, format_bandwidth_bits, format_secs};
use crate::ui::components::chapter::versus_real::{self, OverlayState, Pick};
use crate::ui::components::sliced::{Sliced, Slot, tick};
use crate::ui::components::widgets::{Ladder, bar, link_refused, use_link_state, use_link_writer};
use crate::ui::components::workers::{self, Channel};
use crate::ui::i18n::{Key, Lang, gpus, tr, trf, use_lang};
use crate::ui::model::chart_math::{
    LABEL_GAP, format_bytes_binary, marker_label_extent, marker_label_spot,
};
use crate::ui::model::layout::name_width;
use crate::ui::model::versus::{
    INTRA_GBYTES, LATENCY_NS, Lead, LinkUse, NET_GBITS, PREDICT_BYTES, PREDICT_GPUS, Side, Split,
    VERSUS_GPUS, VERSUS_SEGMENTS, VERSUS_SIZES, VersusJob, VersusSetup, VersusView, VersusWork,
    lead, predict_answer,
};
use crate::ui::model::versus_nccl::{NcclCurves, NcclJob, NcclOverlayError, NcclSetup, NcclWork};
use crate::ui::model::versus_work::{VersusAnswer, VersusAsk};
use crate::ui::model::view::AT_ONCE_MAX_TRANSFERS;
use std::cell::RefCell;
use std::rc::Rc;
use yew::prelude::*;

/// What the running computation has produced for one setup.
struct Progress {
    setup: VersusSetup,
    work: VersusWork,
    times: Vec<(VersusJob, f64)>,
    timelines: Vec<(Side, LinkUse)>,
    errors: Vec<crate::sim::scenario::ScenarioError>,
}

/// Publishes what a [`Progress`] holds.
type Publish = Rc<dyn Fn(&Progress)>;
/// Runs jobs on the page, a slice per tick (where workers cannot).
type OnPage = Rc<dyn Fn(Vec<VersusJob>)>;

/// One setup's runs as the workers' [`Work`](workers::Work): a [`VersusAsk`] per job, a
/// [`VersusAnswer`] per run, kept in the figure's [`Progress`].
struct Runs {
    setup: VersusSetup,
    jobs: Vec<VersusJob>,
    progress: Rc<RefCell<Progress>>,
    publish: Publish,
    on_page: OnPage,
    /// Answers kept since the last delivery.
    kept: bool,
}

impl workers::Work for Runs {
    fn ask(&self, generation: u64, index: usize) -> String {
        let (setup, job) = (self.setup, self.jobs[index]);
        VersusAsk {
            generation,
            index,
            setup,
            job,
        }
        .encode()
    }
    fn keep(&mut self, index: usize, numbers: &[f64]) -> bool {
        let Some(reply) = VersusAnswer::decode(numbers) else {
            return false;
        };
        let job = self.jobs[index];
        let mut p = self.progress.borrow_mut();
        match reply.result {
            Some(r) => {
                p.times.push((job, r.time_secs));
                if let (Some(lu), VersusJob::Point { side, .. }) = (r.link_use, job) {
                    p.timelines.push((side, lu));
                }
            }
            // It could not run: why is found here, where it can be shown (it fails at once, as
            // the scenario is built).
            None => p.errors.extend(self.setup.start(job).err()),
        }
        self.kept = true;
        true
    }
    fn delivery(&mut self) -> Option<Box<dyn FnOnce()>> {
        if !std::mem::take(&mut self.kept) {
            return None;
        }
        let (progress, publish) = (self.progress.clone(), self.publish.clone());
        Some(Box::new(move || publish(&progress.borrow())))
    }
    fn fall_back(&mut self, left: Vec<usize>) -> Box<dyn FnOnce()> {
        let jobs: Vec<VersusJob> = left.into_iter().map(|i| self.jobs[i]).collect();
        let on_page = self.on_page.clone();
        Box::new(move || on_page(jobs))
    }
}

impl Sliced for Progress {
    fn advance(&mut self, out_of_time: &mut dyn FnMut() -> bool) -> bool {
        let finished = self.work.work(out_of_time);
        for (job, result) in &finished {
            match result {
                Ok(trace) => {
                    self.times.push((*job, trace.time_secs));
                    if let (true, VersusJob::Point { side, .. }) = (self.setup.details(*job), job) {
                        let lu = crate::ui::model::versus::link_use(trace);
                        self.timelines.push((*side, lu));
                    }
                }
                Err(e) => self.errors.push(e.clone()),
            }
        }
        !finished.is_empty()
    }
    fn done(&self) -> bool {
        self.work.is_done()
    }
}

/// The NCCL overlay's progress.
struct NcclProgress {
    setup: NcclSetup,
    work: NcclWork,
    done: Vec<(NcclJob, Candidate)>,
    error: Option<NcclOverlayError>,
}

impl Sliced for NcclProgress {
    fn advance(&mut self, out_of_time: &mut dyn FnMut() -> bool) -> bool {
        let finished = self.work.work(out_of_time);
        for (job, result) in &finished {
            match result {
                Ok(c) => self.done.push((*job, *c)),
                Err(e) => self.error = Some(e.clone()),
            }
        }
        !finished.is_empty()
    }
    fn done(&self) -> bool {
        self.error.is_some() || self.work.is_done()
    }
}

/// The longest of a view's bars: the scale they are drawn to.
fn max_time(v: &VersusView) -> f64 {
    v.splits
        .iter()
        .map(|(_, sp)| sp.total_secs.max(sp.latency_secs).max(sp.bandwidth_secs))
        .fold(0.0, f64::max)
        .max(1e-30)
}

fn empty_view(setup: &VersusSetup) -> VersusView {
    VersusView::from_parts(setup, &[], Vec::new())
}

/// Where the crossover markers' words may stand: their baselines, two rows at the top of the
/// plot and two at the bottom (above the chosen size's words).
const MARK_BASELINES: [f64; 4] = [22.0, 34.0, H - BOTTOM - 30.0, H - BOTTOM - 18.0];
const W: f64 = 560.0;
const H: f64 = 220.0;
const LEFT: f64 = 56.0;
const BOTTOM: f64 = 30.0;

fn log_pos(x: f64, lo: f64, hi: f64, a: f64, b: f64) -> f64 {
    let (l, h) = (lo.ln(), hi.ln());
    if h <= l {
        return a;
    }
    a + (x.max(lo).ln() - l) / (h - l) * (b - a)
}

/// The chart's time axis while `view` is incomplete: the last complete one's (`before`), widened
/// to the points in so far, rather than a placeholder that jumps as they come in.
fn chart(
    lang: Lang,
    setup: &VersusSetup,
    view: &VersusView,
    before: Option<&VersusView>,
    nccl: Option<&NcclCurves>,
) -> Html {
    let (s_lo, s_hi) = (
        VERSUS_SIZES[0] as f64,
        VERSUS_SIZES[VERSUS_SIZES.len() - 1] as f64,
    );
    let nccl_curves: Vec<(&str, &[(u64, f64)])> = nccl
        .map(|n| vec![("ring", &n.ring[..]), ("tree", &n.tree[..])])
        .unwrap_or_default()
        .into_iter()
        .filter(|(_, c)| !c.is_empty())
        .collect();
    let kept = before
        .filter(|_| !view.complete)
        .map(|b| &b.curves[..])
        .unwrap_or_default();
    let all: Vec<f64> = view
        .curves
        .iter()
        .chain(kept)
        .map(|(_, c)| &c[..])
        .chain(nccl_curves.iter().map(|(_, c)| *c))
        .flat_map(|c| c.iter().map(|p| p.1))
        .filter(|t| *t > 0.0)
        .collect();
    let t_lo = all.iter().copied().fold(f64::INFINITY, f64::min);
    let t_hi = all.iter().copied().fold(0.0, f64::max);
    // A little room below the fastest point and above the slowest: on the axes, a curve's points
    // sat on the axis line.
    let (t_lo, t_hi) = if t_lo.is_finite() && t_hi > t_lo {
        (t_lo / 1.3, t_hi * 1.15)
    } else {
        (1e-6, 1.0)
    };
    let x = |s: f64| log_pos(s, s_lo, s_hi, LEFT, W - 10.0);
    let y = |t: f64| log_pos(t, t_lo, t_hi, H - BOTTOM, 10.0);
    let lines = view.curves.iter().map(|(side, c)| {
        // Named as the legend names it: the two curves' points said only "8 B: 28 µs".
        let label = side_title(lang, *side, setup);
        // While the runs come in, a line joins only neighbouring sizes: across a size not yet
        // simulated it drew a straight stretch the curve does not have.
        let mut runs: Vec<Vec<String>> = Vec::new();
        let mut last = None;
        for &(s, t) in c {
            let i = VERSUS_SIZES.iter().position(|&v| v == s);
            match runs.last_mut() {
                Some(run) if i.is_some() && last.map(|l: usize| l + 1) == i => run.push(format!("{:.1},{:.1}", x(s as f64), y(t))),
                _ => runs.push(vec![format!("{:.1},{:.1}", x(s as f64), y(t))]),
            }
            last = i;
        }
        html! {
            <g class={classes!("vs-curve", side.name())} data-testid={format!("versus-curve-{}", side.name())} data-points={c.len().to_string()}>
                { for runs.iter().filter(|r| r.len() > 1).map(|r| html! { <polyline points={r.join(" ")} /> }) }
                { for c.iter().map(|&(s, t)| html! {
                    <circle cx={format!("{:.1}", x(s as f64))} cy={format!("{:.1}", y(t))} r="2.5">
                        <title>{ format!("{label}, {}: {}", format_bytes_binary(s as f64), format_secs(t)) }</title>
                    </circle>
                }) }
            </g>
        }
    });
    let dashed = nccl_curves.iter().map(|(name, c)| {
        // The legend's words, in the page's language ("NCCL ring" stood in the Chinese page).
        let label = tr(lang, if *name == "ring" { Key::VsNcclRing } else { Key::VsNcclTree });
        let pts: Vec<String> = c.iter().map(|&(s, t)| format!("{:.1},{:.1}", x(s as f64), y(t))).collect();
        html! {
            <g class={classes!("vs-curve", "nccl", *name)} data-testid={format!("versus-nccl-curve-{name}")} data-points={c.len().to_string()}>
                <polyline points={pts.join(" ")} />
                { for c.iter().map(|&(s, t)| html! {
                    <rect x={format!("{:.1}", x(s as f64) - 2.5)} y={format!("{:.1}", y(t) - 2.5)} width="5" height="5">
                        <title>{ format!("{label}, {}: {}", format_bytes_binary(s as f64), format_secs(t)) }</title>
                    </rect>
                }) }
            </g>
        }
    });
    let crossover_left = view
        .crossover
        .is_some_and(|c| c.again.is_some() || x(c.at_bytes) > W - 90.0);
    let decades = |lo: f64, hi: f64| -> Vec<f64> {
        (lo.log10().ceil() as i32..=hi.log10().floor() as i32)
            .map(|k| 10f64.powi(k))
            .collect()
    };
    // The markers' words: each off the curves, off the other markers' lines and off each
    // other ("crossover" and "NCCL crossover" each sat on the other's line at 64 GPUs), in a row
    // at the top or, where the curves run there, at the bottom.
    let drawn: Vec<Vec<(f64, f64)>> = view
        .curves
        .iter()
        .map(|(_, c)| &c[..])
        .chain(nccl_curves.iter().map(|(_, c)| *c))
        .map(|c| c.iter().map(|&(s, t)| (x(s as f64), y(t))).collect())
        .collect();
    // Each row as the band its 10-unit words' ink takes around their baseline.
    let mark_rows: Vec<(f64, f64)> = MARK_BASELINES.iter().map(|&b| (b - 8.0, b + 2.5)).collect();
    let sim_marks: Vec<f64> = view
        .crossover
        .iter()
        .flat_map(|c| std::iter::once(c.at_bytes).chain(c.again))
        .map(x)
        .collect();
    let nccl_marks: Vec<f64> = nccl
        .iter()
        .flat_map(|n| n.crossings.iter())
        .map(|&a| x(a))
        .collect();
    let bounds = (LEFT + 2.0, W - 10.0);
    // The chosen size's dotted line: better not crossed, but it names no crossing.
    let chosen = x(setup.size_bytes as f64);
    // A marker's words at the first of its lines, off the others' lines and the words `taken`.
    let place = |marks: &[f64],
                 others: &[f64],
                 key: Key,
                 prefer_left: bool,
                 taken: &[(f64, f64, usize)]| {
        marks.first().map(|&at| {
            let width = name_width(tr(lang, key));
            let others: Vec<f64> = marks[1..].iter().chain(others).copied().collect();
            let (left, row) = marker_label_spot(
                at,
                width,
                prefer_left,
                &others,
                &[chosen],
                &drawn,
                &mark_rows,
                taken,
                bounds,
            );
            (at, width, left, row)
        })
    };
    let sim_spot = place(
        &sim_marks,
        &nccl_marks,
        Key::CrossoverLabel,
        crossover_left,
        &[],
    );
    let taken: Vec<(f64, f64, usize)> = sim_spot
        .map(|(at, width, left, row)| {
            let (x0, x1) = marker_label_extent(at, width, left);
            (x0, x1, row)
        })
        .into_iter()
        .collect();
    let nccl_spot = place(
        &nccl_marks,
        &sim_marks,
        Key::VsNcclCrossoverLabel,
        false,
        &taken,
    );
    let label_x = |(at, _, left, _): (f64, f64, bool, usize)| {
        format!("{:.1}", at + if left { -LABEL_GAP } else { LABEL_GAP })
    };
    let label_y = |(_, _, _, row): (f64, f64, bool, usize)| format!("{:.0}", MARK_BASELINES[row]);
    let y_ticks = decades(t_lo, t_hi);
    // Clear of the ends' labels.
    let x_ticks: Vec<f64> = [1024.0, 1_048_576.0, 1_073_741_824.0]
        .into_iter()
        .filter(|&b| b > s_lo && b < s_hi && x(b) > LEFT + 40.0 && x(b) < W - 70.0)
        .collect();
    html! {
        <svg class="vs-chart" viewBox={format!("0 0 {W} {H}")} role="img" data-testid="versus-chart"
             aria-label={tr(lang, Key::VersusChartTitle)}>
            <line class="vs-axis" x1={LEFT.to_string()} y1={(H - BOTTOM).to_string()} x2={(W - 10.0).to_string()} y2={(H - BOTTOM).to_string()} />
            <line class="vs-axis" x1={LEFT.to_string()} y1="10" x2={LEFT.to_string()} y2={(H - BOTTOM).to_string()} />
            // A tick at every decade of time and at 1 KB, 1 MB, 1 GB (the axes had only their two
            // ends, with nothing to say they are logarithmic).
            { for y_ticks.iter().map(|&t| html! {
                <g class="vs-grid" data-testid="versus-y-tick">
                    <line x1={LEFT.to_string()} x2={(W - 10.0).to_string()} y1={format!("{:.1}", y(t))} y2={format!("{:.1}", y(t))} />
                    <text class="vs-tick end" x={(LEFT - 4.0).to_string()} y={format!("{:.1}", y(t) + 3.5)}>{ format_secs(t) }</text>
                </g>
            }) }
            { for x_ticks.iter().map(|&b| html! {
                <g class="vs-grid" data-testid="versus-x-tick">
                    <line x1={format!("{:.1}", x(b))} x2={format!("{:.1}", x(b))} y1="10" y2={(H - BOTTOM).to_string()} />
                    <text class="vs-tick mid" x={format!("{:.1}", x(b))} y={(H - 16.0).to_string()}>{ format_bytes_binary(b) }</text>
                </g>
            }) }
            <text class="vs-tick" x={LEFT.to_string()} y={(H - 16.0).to_string()}>{ format_bytes_binary(s_lo) }</text>
            <text class="vs-tick end" x={(W - 10.0).to_string()} y={(H - 16.0).to_string()}>{ format_bytes_binary(s_hi) }</text>
            <text class="vs-tick mid" x={format!("{:.0}", (LEFT + W) / 2.0)} y={(H - 2.0).to_string()}>{ tr(lang, Key::SizeLog) }</text>
            // Within a decade, the ends say the range.
            if y_ticks.len() < 2 {
                <text class="vs-tick end" x={(LEFT - 4.0).to_string()} y="18">{ format_secs(t_hi) }</text>
                <text class="vs-tick end" x={(LEFT - 4.0).to_string()} y={(H - BOTTOM).to_string()}>{ format_secs(t_lo) }</text>
            }
            <text class="vs-tick mid" transform={format!("translate(9 {:.0}) rotate(-90)", (H - BOTTOM + 10.0) / 2.0)}>{ tr(lang, Key::TimeLog) }</text>
            <line class="vs-chosen" x1={format!("{chosen:.1}")} y1="10" x2={format!("{chosen:.1}")} y2={(H - BOTTOM).to_string()} />
            // The dotted line is the size the sliders chose: said so.
            <text class="vs-tick" data-testid="versus-chosen-label" x={format!("{:.1}", chosen + if chosen > 0.6 * W { -4.0 } else { 4.0 })}
                  y={(H - BOTTOM - 5.0).to_string()} text-anchor={(chosen > 0.6 * W).then_some("end")}>{ format!("S = {}", format_bytes_binary(setup.size_bytes as f64)) }</text>
            if let Some(c) = view.crossover {
                <g class="vs-crossover" data-testid="versus-crossover-mark">
                    <line x1={format!("{:.1}", x(c.at_bytes))} y1="10" x2={format!("{:.1}", x(c.at_bytes))} y2={(H - BOTTOM).to_string()} />
                    // Its words where `sim_spot` puts them: first asked for on the left of its
                    // line when a second line follows on the right, or the chart's edge is near
                    // (at 1,024 GPUs its word ran out of the chart, over the curves).
                    if let Some(spot) = sim_spot {
                        <text x={label_x(spot)} y={label_y(spot)}
                              data-testid="versus-crossover-label" text-anchor={spot.2.then_some("end")}>{ tr(lang, Key::CrossoverLabel) }</text>
                    }
                    if let Some(a) = c.again {
                        <line data-testid="versus-crossover-again" x1={format!("{:.1}", x(a))} y1="10" x2={format!("{:.1}", x(a))} y2={(H - BOTTOM).to_string()} />
                    }
                </g>
            }
            // Every crossing of NCCL's curves, the first named (the readout names the ranges).
            if nccl.is_some_and(|n| !n.crossings.is_empty()) {
                <g class="vs-crossover nccl" data-testid="versus-nccl-crossover-mark">
                    { for nccl.iter().flat_map(|n| n.crossings.iter()).map(|&a| html! {
                        <line x1={format!("{:.1}", x(a))} y1="10" x2={format!("{:.1}", x(a))} y2={(H - BOTTOM).to_string()} />
                    }) }
                    if let Some(spot) = nccl_spot {
                        <text x={label_x(spot)} y={label_y(spot)} data-testid="versus-nccl-crossover-label"
                              text-anchor={spot.2.then_some("end")}>{ tr(lang, Key::VsNcclCrossoverLabel) }</text>
                    }
                </g>
            }
            { for lines }
            { for dashed }
        </svg>
    }
}

fn tier_key(t: Tier) -> Key {
    match t {
        Tier::Gpu => Key::TierGpuLinks,
        Tier::Node => Key::TierNics,
        Tier::Rack => Key::TierUplinks,
    }
}

fn timeline(lang: Lang, side: Side, lu: &LinkUse) -> Html {
    html! {
        <div class="vs-timeline" data-testid={format!("versus-timeline-{}", side.name())}>
            <div class="vs-timeline-title">{ trf(lang, Key::VsTimelineTitle, &[&format_secs(lu.time_secs)]) }</div>
            { for lu.tiers.iter().map(|(tier, buckets)| html! {
                <div class="vs-lane">
                    <span class="vs-lane-name">{ tr(lang, tier_key(*tier)) }</span>
                    <span class="vs-cells" aria-hidden="true">
                        { for buckets.iter().map(|u| html! {
                            <span class="vs-cell" style={format!("opacity: {:.2}", 0.08 + 0.92 * u)}></span>
                        }) }
                    </span>
                </div>
            }) }
        </div>
    }
}

/// The segments `side` cuts its message into at the chosen size (the tree: the slider's count,
/// but none under 32 KiB).
fn segments_of(side: Side, s: &VersusSetup) -> usize {
    match side {
        Side::Ring => 1,
        Side::Tree => s.tree_segments(s.size_bytes),
    }
}

/// Why the latency and bandwidth parts do not add up to the simulated time, when they miss it by
/// more than 2 % (the tree's did, by half, with nothing said: 12 + 77.3 µs against 138 µs).
fn parts_apart(lang: Lang, sp: &Split, segments: usize) -> Option<String> {
    let sum = sp.latency_secs + sp.bandwidth_secs;
    if (sp.total_secs - sum).abs() <= 0.02 * sp.total_secs {
        return None;
    }
    let key = if sp.total_secs > sum && segments > 1 {
        Key::VsPartsSegments
    } else if sp.total_secs < sum {
        Key::VsPartsOverlap
    } else {
        Key::VsPartsApart
    };
    Some(trf(
        lang,
        key,
        &[
            &format_secs(sp.latency_secs),
            &format_secs(sp.bandwidth_secs),
            &format_secs(sum),
            &format_secs(sp.total_secs),
            &segments.to_string(),
        ],
    ))
}

fn side_title(lang: Lang, side: Side, setup: &VersusSetup) -> String {
    match side {
        Side::Ring => tr(lang, Key::VersusRing).to_string(),
        Side::Tree => trf(lang, Key::VersusTree, &[&setup.segments.to_string()]),
    }
}

/// A side's name inside a sentence ("the tree is faster"): lower case, unlike the legend's.
fn side_word(lang: Lang, side: Side) -> &'static str {
    match side {
        Side::Ring => lang.pick("ring", "环形"),
        Side::Tree => lang.pick("tree", "树形"),
    }
}

#[derive(Properties, PartialEq)]
struct PredictProps {
    /// Sets the figure to the guessed case.
    on_show: Callback<()>,
}

#[component]
fn Predict(props: &PredictProps) -> Html {
    let lang = use_lang();
    let guess = use_state(|| None::<Side>);
    let answer = use_memo((*guess).is_some(), |&asked| asked.then(predict_answer));
    let pick = |side: Side| {
        let guess = guess.clone();
        Callback::from(move |_| guess.set(Some(side)))
    };
    let reveal = match (&*answer, *guess) {
        (Some(Ok((ring, tree))), Some(g)) => {
            let faster = if tree < ring { Side::Tree } else { Side::Ring };
            let name = side_word(lang, faster);
            html! {
                <p class="ch-readout" aria-live="polite" data-testid="predict-answer" data-faster={faster.name()}
                   data-ring={ring.to_string()} data-tree={tree.to_string()}>
                    <strong>{ tr(lang, if g == faster { Key::PredictRight } else { Key::PredictWrong }) }</strong>
                    { lang.pick(" ", "") }{ trf(lang, Key::PredictAnswer, &[&format_secs(*ring), &format_secs(*tree), name]) }
                    // The figure below was left at its own case: the guess could not be seen.
                    { lang.pick(" ", "") }<button type="button" class="ch-toggle" data-testid="predict-show"
                                   onclick={props.on_show.reform(|_: MouseEvent| ())}>{ tr(lang, Key::PredictShow) }</button>
                </p>
            }
        }
        (Some(Err(e)), _) => {
            html! { <p class="ch-error">{ crate::ui::i18n::errors::scenario_error(lang, e) }</p> }
        }
        _ => Html::default(),
    };
    html! {
        <div class="ch-predict" data-testid="versus-predict">
            <p class="ch-predict-q">{ trf(lang, Key::PredictQuestion, &[&format_bytes_binary(PREDICT_BYTES as f64), &gpus(lang, PREDICT_GPUS)]) }</p>
            <div class="ch-choice-buttons" role="group" aria-label={tr(lang, Key::YourGuess)}>
                { for [Side::Ring, Side::Tree].into_iter().map(|side| {
                    let pressed = *guess == Some(side);
                    let label = if side == Side::Ring { Key::VersusRing } else { Key::PredictTreeShort };
                    html! {
                        <button type="button" class={classes!("ch-toggle", pressed.then_some("on"))}
                                data-testid={format!("predict-{}", side.name())} aria-pressed={pressed.to_string()}
                                onclick={pick(side)}>{ tr(lang, label) }</button>
                    }
                }) }
            </div>
            { reveal }
        </div>
    }
}

fn ns_text(ns: u64) -> String {
    format_secs(ns as f64 * 1e-9)
}

#[component]
pub fn VersusSection() -> Html {
    let lang = use_lang();
    // A link may carry the figure's setup (`vs=`, its sliders' nine stops).
    let (link, refused) = use_link_state("vs", 9, |v| VersusSetup::from_link_numbers(v).is_some());
    let setup = use_state(|| {
        link.as_deref()
            .and_then(VersusSetup::from_link_numbers)
            .unwrap_or_default()
    });
    use_link_writer(
        "vs",
        setup.link_numbers(),
        VersusSetup::default().link_numbers(),
    );
    // Empty at first, with the axes of the setup shown (a link's, or the default).
    let first = *setup;
    let view = use_state(|| {
        (
            Rc::new(empty_view(&first)),
            0usize,
            Vec::<crate::sim::scenario::ScenarioError>::new(),
        )
    });
    let slot: Slot = use_mut_ref(|| None);
    let generation = use_mut_ref(|| 0u64);
    // The last complete view: while a newer setup computes, its bars stay (dimmed) and its axis
    // holds, so that the page below does not jump up and back down.
    let last_complete = use_mut_ref(|| None::<Rc<VersusView>>);
    // The Web Workers running the figure's simulations (0: on the page).
    let in_workers = use_state(|| 0usize);
    {
        let (view, in_workers) = (view.clone(), in_workers.clone());
        use_effect_with(*setup, move |&setup| {
            let g = {
                let mut g = generation.borrow_mut();
                *g += 1;
                *g
            };
            view.set((Rc::new(empty_view(&setup)), 0, Vec::new()));
            let jobs = setup.jobs();
            let progress = Rc::new(RefCell::new(Progress {
                setup,
                work: VersusWork::of_jobs(setup, Vec::new()),
                times: Vec::new(),
                timelines: Vec::new(),
                errors: Vec::new(),
            }));
            let publish: Publish = Rc::new(move |p| {
                view.set((
                    Rc::new(VersusView::from_parts(
                        &p.setup,
                        &p.times,
                        p.timelines.clone(),
                    )),
                    p.times.len(),
                    p.errors.clone(),
                ))
            });
            let on_page: OnPage = {
                let (slot, progress, publish) = (slot.clone(), progress.clone(), publish.clone());
                let in_workers = in_workers.clone();
                Rc::new(move |jobs| {
                    in_workers.set(0);
                    progress.borrow_mut().work = VersusWork::of_jobs(setup, jobs);
                    tick(slot.clone(), progress.clone(), publish.clone());
                })
            };
            let costs: Vec<usize> = jobs.iter().map(|&j| setup.cost(j)).collect();
            // A few milliseconds of work in all stays on the page: no worker to start as the page
            // loads (8 GPUs, the default, are about 7,000 transfers; 32 GPUs 49,000; 64 GPUs, or
            // 32 with 128 segments, go to workers).
            let small = costs.iter().sum::<usize>() as u64 <= AT_ONCE_MAX_TRANSFERS;
            let runs = Runs {
                setup,
                jobs: jobs.clone(),
                progress,
                publish,
                on_page: on_page.clone(),
                kept: false,
            };
            // In order: the chosen size's runs first (the bars), then the curve, cheapest first.
            let started = if small {
                None
            } else {
                workers::submit(Channel::Versus, g, costs, false, Box::new(runs))
            };
            match started {
                Some(n) => in_workers.set(n),
                None => on_page(jobs),
            }
            move || {
                workers::cancel(Channel::Versus, g);
                slot.borrow_mut().take();
            }
        });
    }
    // The overlay "like NCCL on real hardware": off until asked for.
    let pick = use_state(|| None as Pick);
    let overlay = use_state(|| None::<OverlayState>);
    let nccl_slot: Slot = use_mut_ref(|| None);
    {
        let overlay = overlay.clone();
        use_effect_with(versus_real::setup(*pick, setup.gpus), move |nccl| {
            overlay.set(None);
            if let Some(nccl) = *nccl {
                let empty = NcclCurves::new(&nccl, &[]);
                match NcclWork::new(nccl) {
                    Ok(work) => {
                        let total = work.total();
                        overlay.set(Some((empty, 0, total, None)));
                        let progress = Rc::new(RefCell::new(NcclProgress {
                            setup: nccl,
                            work,
                            done: Vec::new(),
                            error: None,
                        }));
                        let publish: Rc<dyn Fn(&NcclProgress)> = Rc::new(move |p| {
                            overlay.set(Some((
                                NcclCurves::new(&p.setup, &p.done),
                                p.done.len(),
                                total,
                                p.error.clone(),
                            )))
                        });
                        tick(nccl_slot.clone(), progress, publish);
                    }
                    Err(e) => overlay.set(Some((empty, 0, 0, Some(e)))),
                }
            }
            move || {
                nccl_slot.borrow_mut().take();
            }
        });
    }
    let on_pick = {
        let pick = pick.clone();
        Callback::from(move |p: Pick| pick.set(p))
    };
    let set = |f: fn(&mut VersusSetup, u64)| {
        let setup = setup.clone();
        Callback::from(move |v: u64| {
            let mut s = *setup;
            f(&mut s, v);
            setup.set(s);
        })
    };
    // The guess's case, as `predict_answer` ran it.
    let on_show = {
        let setup = setup.clone();
        use_callback((), move |(), _| setup.set(VersusSetup::predict_case()))
    };
    let s = *setup;
    // Built from the figure's topology: once per setup, not at every render while the curves fill.
    let ring_hop = *use_memo(s, |s| s.ring_hop());
    let (shown, finished, errors) = &*view;
    // A tier no transfer crosses at this count: its sliders say so (a learner slowed the rack
    // uplinks of 8 GPUs on one node and saw nothing change).
    let idle_tiers = s.idle_tiers();
    let idle = |tier: Tier| -> Option<AttrValue> {
        idle_tiers
            .iter()
            .find(|(t, _)| *t == tier)
            .map(|&(_, from)| trf(lang, Key::VsTierIdle, &[&gpus(lang, from)]).into())
    };
    let v = &**shown;
    let total = s.jobs().len();
    // (The setup changes a render before its view: the view, not the setup, says which is new.)
    if v.complete
        && !last_complete
            .borrow()
            .as_ref()
            .is_some_and(|l| Rc::ptr_eq(l, shown))
    {
        *last_complete.borrow_mut() = Some(shown.clone());
    }
    let before = last_complete.borrow();
    let before = before.as_deref().filter(|_| !v.complete);
    // One scale for both sides: while one is stale (the last complete view's), the larger of the
    // two views'.
    let stale_side = v.splits.len() < Side::BOTH.len();
    let max_total = max_time(v).max(before.filter(|_| stale_side).map_or(0.0, max_time));
    let columns = Side::BOTH.iter().map(|&side| {
        let of = |view: &VersusView| view.splits.iter().find(|(x, _)| *x == side).map(|(_, sp)| *sp);
        let split = of(v);
        // Not in yet: the last complete view's side, dimmed, without its figures in the attributes.
        let stale = before.filter(|b| split.is_none() && of(b).is_some());
        let from = stale.unwrap_or(v);
        let lu = from.timelines.iter().find(|(x, _)| *x == side);
        html! {
            <div class={classes!("vs-side", side.name(), stale.is_some().then_some("vs-stale"))} data-testid={format!("versus-{}", side.name())}
                 data-total={split.map(|x| x.total_secs.to_string()).unwrap_or_default()}
                 data-latency={split.map(|x| x.latency_secs.to_string()).unwrap_or_default()}
                 data-bandwidth={split.map(|x| x.bandwidth_secs.to_string()).unwrap_or_default()}
                 data-stale={stale.is_some().to_string()} aria-busy={split.is_none().to_string()}>
                <h3>{ side_title(lang, side, &s) }</h3>
                if let Some(sp) = of(from) {
                    { bar(tr(lang, Key::LatencyPart), sp.latency_secs / max_total, &format_secs(sp.latency_secs), "latency", &format!("versus-{}-latency", side.name())) }
                    { bar(tr(lang, Key::BandwidthPart), sp.bandwidth_secs / max_total, &format_secs(sp.bandwidth_secs), "bandwidth", &format!("versus-{}-bandwidth", side.name())) }
                    { bar(tr(lang, Key::VsSimulatedTime), sp.total_secs / max_total, &format_secs(sp.total_secs), side.name(), &format!("versus-{}-total", side.name())) }
                    if let Some(why) = parts_apart(lang, &sp, segments_of(side, &s)) {
                        <p class="ch-note" data-testid={format!("versus-{}-parts", side.name())}>{ why }</p>
                    }
                    // What a latency-bound ring step costs here, and why (GPU links of 1 µs make
                    // a step of 2 µs within a node: through the NVSwitch and out again). Of the
                    // setup, not of the runs: it stays while they compute (three lines that went
                    // and came back moved the page below).
                    if side == Side::Ring {
                        if let Some((hop, links)) = ring_hop {
                            <p class="ch-note" data-testid="versus-ring-hop">{ trf(lang, Key::VsRingHop, &[&(2 * (s.gpus - 1)).to_string(), &format_secs(hop), &links.to_string()]) }</p>
                        }
                    }
                } else {
                    <p class="ch-note">{ tr(lang, Key::Simulating) }</p>
                }
                if let Some((_, lu)) = lu { { timeline(lang, side, lu) } }
            </div>
        }
    });
    let readout = match v.crossover {
        Some(c) => {
            let mut text = trf(
                lang,
                if c.ring_wins_above {
                    Key::CrossoverRingAbove
                } else {
                    Key::CrossoverTreeAbove
                },
                &[
                    &format_bytes_binary(c.at_bytes),
                    &format_bytes_binary(c.below_bytes as f64),
                    &format_bytes_binary(c.above_bytes as f64),
                ],
            );
            // Where the lead changes again, and to whom (it said "see the curves").
            if let Some(a) = c.again {
                let ahead = if c.ring_wins_above {
                    Side::Tree
                } else {
                    Side::Ring
                };
                text.push_str(&trf(
                    lang,
                    Key::CrossoverAgain,
                    &[&format_bytes_binary(a), side_word(lang, ahead)],
                ));
            }
            text
        }
        None if v.complete => {
            let (ring, tree) = (&v.curves[0].1, &v.curves[1].1);
            let name = |side: Side| side_word(lang, side);
            match lead(ring, tree) {
                Some(Lead::Faster(side)) => trf(lang, Key::NoCrossover, &[name(side)]),
                Some(Lead::NeverSlower(side)) => trf(lang, Key::NoCrossoverOrTie, &[name(side)]),
                Some(Lead::Tie) => tr(lang, Key::NoCrossoverTie).to_string(),
                None => tr(lang, Key::CrossesThroughTie).to_string(),
            }
        }
        None => {
            let mut text = trf(
                lang,
                Key::SimulatingOf,
                &[&finished.to_string(), &total.to_string()],
            );
            if *in_workers > 0 {
                text.push_str(&trf(lang, Key::PointsWorkers, &[&in_workers.to_string()]));
            }
            text
        }
    };
    html! {
        <section id="versus" class="ch-section" data-testid="section-versus" aria-labelledby="versus-title">
            <h2 id="versus-title">{ tr(lang, Key::VersusTitle) }</h2>
            <p>{ tr(lang, Key::VersusBody) }</p>
            <Predict on_show={on_show} />
            { link_refused(lang, "vs", refused.as_deref()) }
            <div class="ch-figure vs-figure">
                <div class="ch-controls">
                    <Ladder testid="versus-gpus" label={tr(lang, Key::Gpus)} values={VERSUS_GPUS.to_vec()}
                            value={s.gpus as u64} text={gpus(lang, s.gpus)} on_change={set(|s, v| s.gpus = v as usize)} />
                    <Ladder testid="versus-size" label={tr(lang, Key::MessageSize)} values={VERSUS_SIZES.to_vec()}
                            value={s.size_bytes} text={format_bytes_binary(s.size_bytes as f64)} on_change={set(|s, v| s.size_bytes = v)} />
                    <Ladder testid="versus-segments" label={tr(lang, Key::TreeSegments)} values={VERSUS_SEGMENTS.to_vec()}
                            value={s.segments as u64} text={s.segments.to_string()} on_change={set(|s, v| s.segments = v as usize)} />
                    <Ladder testid="versus-intra-bw" label={tr(lang, Key::IntraBandwidth)} values={INTRA_GBYTES.to_vec()}
                            value={s.intra_gbytes_per_sec as u64} text={format_bandwidth(Bandwidth::from_gbytes_per_sec(s.intra_gbytes_per_sec))}
                            on_change={set(|s, v| s.intra_gbytes_per_sec = v as f64)} />
                    <Ladder testid="versus-intra-lat" label={tr(lang, Key::IntraLatency)} values={LATENCY_NS.to_vec()}
                            value={(s.intra_lat_secs * 1e9).round() as u64} text={ns_text((s.intra_lat_secs * 1e9).round() as u64)}
                            on_change={set(|s, v| s.intra_lat_secs = v as f64 / 1e9)} />
                    <Ladder testid="versus-node-bw" idle={idle(Tier::Node)} label={tr(lang, Key::InRackBandwidth)} values={NET_GBITS.to_vec()}
                            value={s.node_gbits_per_sec as u64} text={format_bandwidth_bits(Bandwidth::from_gbits_per_sec(s.node_gbits_per_sec))}
                            on_change={set(|s, v| s.node_gbits_per_sec = v as f64)} />
                    <Ladder testid="versus-node-lat" idle={idle(Tier::Node)} label={tr(lang, Key::NodeLatency)} values={LATENCY_NS.to_vec()}
                            value={(s.node_lat_secs * 1e9).round() as u64} text={ns_text((s.node_lat_secs * 1e9).round() as u64)}
                            on_change={set(|s, v| s.node_lat_secs = v as f64 / 1e9)} />
                    <Ladder testid="versus-rack-bw" idle={idle(Tier::Rack)} label={tr(lang, Key::CrossRackBandwidth)} values={NET_GBITS.to_vec()}
                            value={s.rack_gbits_per_sec as u64} text={format_bandwidth_bits(Bandwidth::from_gbits_per_sec(s.rack_gbits_per_sec))}
                            on_change={set(|s, v| s.rack_gbits_per_sec = v as f64)} />
                    <Ladder testid="versus-rack-lat" idle={idle(Tier::Rack)} label={tr(lang, Key::RackLatency)} values={LATENCY_NS.to_vec()}
                            value={(s.rack_lat_secs * 1e9).round() as u64} text={ns_text((s.rack_lat_secs * 1e9).round() as u64)}
                            on_change={set(|s, v| s.rack_lat_secs = v as f64 / 1e9)} />
                </div>
                <div class="ch-plot">
                    <div class="ch-scroll">{ chart(lang, &s, v, before, overlay.as_ref().map(|o| &o.0)) }</div>
                    <p class="ch-swipe" aria-hidden="true">{ tr(lang, Key::SwipeFigure) }</p>
                    // On a phone the sliders' own notes are hidden (two lines each pushed the
                    // chart off the screen): one line under the chart says why the greyed ones
                    // are grey (above it, in the controls, it pushed the chart down a line).
                    if !idle_tiers.is_empty() {
                        <p class="ch-idle-phone" aria-hidden="true" data-testid="versus-idle-phone">
                            { tr(lang, Key::VsIdleGreyed) }
                            { idle_tiers.iter().map(|&(tier, from)| trf(lang, Key::VsTierIdleNamed, &[
                                tr(lang, if tier == Tier::Node { Key::InRackBandwidth } else { Key::CrossRackBandwidth }),
                                &gpus(lang, from),
                            ])).collect::<Vec<_>>().join(lang.pick("; ", "；")) }
                        </p>
                    }
                    <ul class="ch-legend">
                        <li><span class="ch-swatch ring"></span>{ tr(lang, Key::VersusRing) }</li>
                        <li><span class="ch-swatch tree"></span>{ side_title(lang, Side::Tree, &s) }</li>
                        if pick.is_some() {
                            <li><span class="ch-swatch ring nccl"></span>{ tr(lang, Key::VsNcclRing) }</li>
                            <li><span class="ch-swatch tree nccl"></span>{ tr(lang, Key::VsNcclTree) }</li>
                        }
                    </ul>
                    <p class="ch-readout" aria-live="polite" data-testid="versus-readout"
                       data-complete={v.complete.to_string()} data-workers={in_workers.to_string()}
                       data-crossover={v.crossover.map(|c| c.at_bytes.to_string()).unwrap_or_default()}>{ readout }</p>
                    { for errors.iter().map(|e| html! { <p class="ch-error">{ crate::ui::i18n::errors::scenario_error(lang, e) }</p> }) }
                    { versus_real::controls(lang, *pick, on_pick) }
                    if let (Some(nccl), Some(state)) = (versus_real::setup(*pick, s.gpus), &*overlay) {
                        { versus_real::readout(lang, &nccl, state) }
                    }
                    <div class="vs-sides">{ for columns }</div>
                </div>
            </div>
            <p class="ch-moral">{ tr(lang, Key::VersusMoral) }</p>
        </section>
    }
}
