//! §1.3.1: Ring AllReduce, step by step. A ring of 2–8 GPUs whose buffers, transfers and per-rank
//! byte counters are read from the simulated trace after each of its 2(N−1) steps.

use crate::sim::schedule::Phase;
use crate::sim::units::format_bytes;
use crate::ui::components::widgets::{Ladder, link_refused, use_link_state, use_link_writer};
use crate::ui::i18n::{Key, Lang, gpus, number, tr, trf, use_lang};
use crate::ui::model::chapter::{RING_GPUS, RING_SIZE_BYTES, RingFrame, ring_frame, ring_trace};
use std::f64::consts::PI;
use yew::prelude::*;

const SIZE: f64 = 480.0;
const CENTRE: f64 = SIZE / 2.0;
const RADIUS: f64 = 170.0;
const BOX_H: f64 = 48.0;
/// Radius of a chunk's badge on its arrow (its number is 17 px in the figure's units).
const BADGE_R: f64 = 13.0;

/// The width of one chunk's cell: wide for a small ring, narrower as N grows.
fn cell_width(n: usize) -> f64 {
    (112.0 / n as f64).min(20.0)
}

/// The colour of chunk `chunk` of `n` holding `contributors` GPUs' data: one hue per chunk, darker
/// as it fills.
pub fn cell_colour(chunk: usize, n: usize, contributors: u32) -> String {
    let hue = (200.0 + 360.0 * chunk as f64 / n as f64) % 360.0;
    let fill = if n > 1 {
        (contributors.saturating_sub(1)) as f64 / (n - 1) as f64
    } else {
        1.0
    };
    format!("hsl({hue:.0} 70% {:.0}%)", 84.0 - 48.0 * fill)
}

fn angle(i: usize, n: usize) -> f64 {
    -PI / 2.0 + 2.0 * PI * i as f64 / n as f64
}

/// The browser's own sine and cosine (`Math`): Rust's would bring their argument reduction into
/// the page's wasm for this one figure (7.0 KB, 2.8 KB by gzip).
fn point(a: f64, r: f64) -> (f64, f64) {
    (
        CENTRE + r * js_sys::Math::cos(a),
        CENTRE + r * js_sys::Math::sin(a),
    )
}

fn readout(lang: Lang, frame: &RingFrame, step: usize, steps: usize, n: usize) -> String {
    if step == 0 {
        return tr(lang, Key::RingStart).to_string();
    }
    if step == steps {
        let ratio = frame.sent[0] as f64 / RING_SIZE_BYTES as f64;
        let formula = 2.0 * (n as f64 - 1.0) / n as f64;
        return trf(
            lang,
            Key::RingDone,
            &[&number(ratio, 3), &number(formula, 3)],
        );
    }
    let key = if frame.phase == Some(Phase::ReduceScatter) {
        Key::RingStepScatter
    } else {
        Key::RingStepGather
    };
    trf(lang, key, &[&step.to_string(), &steps.to_string()])
}

fn ring_svg(frame: &RingFrame, n: usize, label: &str) -> Html {
    let cell = cell_width(n);
    let w = 16.0 + cell * n as f64;
    let gpu = |r: usize| {
        let (x, y) = point(angle(r, n), RADIUS);
        let (x0, y0) = (x - w / 2.0, y - BOX_H / 2.0);
        html! {
            <g class="ch-gpu" data-testid={format!("ring-gpu-{r}")}>
                <rect class="ch-gpu-box" x={format!("{x0:.1}")} y={format!("{y0:.1}")} width={format!("{w:.1}")} height={BOX_H.to_string()} rx="6" />
                <text class="ch-gpu-name" x={format!("{x:.1}")} y={format!("{:.1}", y0 + 15.0)}>{ format!("GPU {r}") }</text>
                { for (0..n).map(|c| {
                    let k = frame.cells[r * n + c];
                    html! {
                        <rect class={classes!("ch-cell", (k as usize == n).then_some("full"))}
                              x={format!("{:.1}", x0 + 8.0 + cell * c as f64)} y={format!("{:.1}", y0 + 21.0)}
                              width={format!("{:.1}", cell - 2.0)} height="19" rx="2" fill={cell_colour(c, n, k)} />
                    }
                }) }
            </g>
        }
    };
    // The arrows run on a circle inside every GPU box (the boxes widen with N), so that no
    // arrowhead ends under a box.
    let inner = (RADIUS - BOX_H / 2.0 - 26.0).min(RADIUS - w / 2.0 - 16.0);
    let arrow = |a: &crate::ui::model::chapter::Arrow| {
        let gap = (PI / n as f64).min(0.5) * 0.35;
        let (a1, a2) = (
            angle(a.src, n) + gap,
            angle(a.src, n) + 2.0 * PI / n as f64 - gap,
        );
        let (x1, y1) = point(a1, inner);
        let (x2, y2) = point(a2, inner);
        let (lx, ly) = point((a1 + a2) / 2.0, inner - BADGE_R - 8.0);
        html! {
            <g class="ch-arrow">
                <path d={format!("M {x1:.1} {y1:.1} A {inner:.1} {inner:.1} 0 0 1 {x2:.1} {y2:.1}")}
                      stroke={cell_colour(a.chunk, n, n as u32)} marker-end="url(#ch-arrowhead)" />
                <circle class="ch-chunk-badge" cx={format!("{lx:.1}")} cy={format!("{ly:.1}")} r={BADGE_R.to_string()} fill={cell_colour(a.chunk, n, n as u32)} />
                <text class="ch-arrow-label" x={format!("{lx:.1}")} y={format!("{:.1}", ly + 6.0)}>{ a.chunk }</text>
            </g>
        }
    };
    html! {
        <svg class="ch-ring" viewBox={format!("0 0 {SIZE} {SIZE}")} role="img" aria-label={label.to_string()} data-testid="ring-figure">
            <defs>
                <marker id="ch-arrowhead" viewBox="0 0 10 10" refX="8" refY="5" markerWidth="6" markerHeight="6" orient="auto-start-reverse">
                    <path d="M 0 0 L 10 5 L 0 10 z" class="ch-arrowhead" />
                </marker>
            </defs>
            <circle class="ch-ring-track" cx={CENTRE.to_string()} cy={CENTRE.to_string()} r={RADIUS.to_string()} />
            { for frame.arrows.iter().map(arrow) }
            { for (0..n).map(gpu) }
        </svg>
    }
}

#[component]
pub fn RingSection() -> Html {
    let lang = use_lang();
    // A link may carry `ring=GPUs.step`.
    let (link, refused) = use_link_state("ring", 2, |v| {
        // Converted with a check: on wasm32 `as usize` wrapped 4294967300 round to 4.
        usize::try_from(v[0]).is_ok_and(|g| RING_GPUS.contains(&g)) && v[1] <= 2 * (v[0] - 1)
    });
    let n = use_state(|| link.as_ref().map_or(4, |v| v[0] as usize));
    let step = use_state(|| link.as_ref().map_or(0, |v| v[1] as usize));
    let trace = use_memo(*n, |&n| ring_trace(n));
    let steps = 2 * (*n - 1);
    let k = (*step).min(steps);
    use_link_writer("ring", vec![*n as u64, k as u64], vec![4, 0]);

    let on_n = {
        let (n, step) = (n.clone(), step.clone());
        Callback::from(move |v: u64| {
            n.set(v as usize);
            step.set(0);
        })
    };
    let on_step = {
        let step = step.clone();
        Callback::from(move |v: u64| step.set(v as usize))
    };
    let go = |delta: isize| {
        let step = step.clone();
        Callback::from(move |_| step.set((k as isize + delta).clamp(0, steps as isize) as usize))
    };

    let figure = match &*trace {
        Err(e) => {
            html! { <p class="ch-error">{ crate::ui::i18n::errors::scenario_error(lang, e) }</p> }
        }
        Ok(trace) => {
            let frame = ring_frame(trace, k);
            let text = readout(lang, &frame, k, steps, *n);
            let s = RING_SIZE_BYTES as f64;
            html! {
                <>
                    <p class="ch-readout ch-step-readout" aria-live="polite" data-testid="ring-readout">{ text.clone() }</p>
                    <div class="ch-ring-wrap">
                        { ring_svg(&frame, *n, &text) }
                        <table class="ch-counters" data-testid="ring-counters">
                            <caption>{ trf(lang, Key::PerGpuCounters, &[&format_bytes(s)]) }</caption>
                            <thead><tr><th scope="col">{ "GPU" }</th><th scope="col">{ tr(lang, Key::Sent) }</th><th scope="col">{ tr(lang, Key::Received) }</th></tr></thead>
                            <tbody>
                                { for (0..*n).map(|r| html! {
                                    <tr data-testid={format!("ring-rank-{r}")} data-sent={frame.sent[r].to_string()} data-received={frame.received[r].to_string()}>
                                        <th scope="row">{ r }</th>
                                        <td>{ format_bytes(frame.sent[r] as f64) }<span class="ch-muted">{ format!(" · {} × S", number(frame.sent[r] as f64 / s, 3)) }</span></td>
                                        <td>{ format_bytes(frame.received[r] as f64) }<span class="ch-muted">{ format!(" · {} × S", number(frame.received[r] as f64 / s, 3)) }</span></td>
                                    </tr>
                                }) }
                            </tbody>
                        </table>
                    </div>
                    <p class="ch-note">{ tr(lang, Key::RingLegend) }</p>
                </>
            }
        }
    };

    html! {
        <section id="ring" class="ch-section" data-testid="section-ring" aria-labelledby="ring-title">
            <h2 id="ring-title">{ tr(lang, Key::RingTitle) }</h2>
            <p>{ tr(lang, Key::RingBody) }</p>
            <crate::ui::components::chapter::claims::ClaimChips ids={vec!["ring-2-n-minus-1-over-n", "ring-independent-of-n"]} />
            { link_refused(lang, "ring", refused.as_deref()) }
            <div class="ch-figure">
                <div class="ch-controls">
                    <Ladder testid="ring-gpus" label={tr(lang, Key::RingGpus)} values={RING_GPUS.map(|g| g as u64).collect::<Vec<_>>()}
                            value={*n as u64} text={gpus(lang, *n)} on_change={on_n} />
                    <Ladder testid="ring-step" label={tr(lang, Key::Step)} values={(0..=steps as u64).collect::<Vec<_>>()}
                            value={k as u64} text={format!("{k} / {steps}")} on_change={on_step} />
                    <div class="ch-stepper">
                        <button type="button" data-testid="ring-prev" aria-label={tr(lang, Key::Previous)} disabled={k == 0} onclick={go(-1)}>{ "◀ " }{ tr(lang, Key::Previous) }</button>
                        <button type="button" data-testid="ring-next" aria-label={tr(lang, Key::Next)} disabled={k == steps} onclick={go(1)}>{ tr(lang, Key::Next) }{ " ▶" }</button>
                    </div>
                </div>
                <div class="ch-plot">{ figure }</div>
            </div>
            <p class="ch-moral">{ tr(lang, Key::RingTry) }</p>
        </section>
    }
}
