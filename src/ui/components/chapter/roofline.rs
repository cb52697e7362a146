//! §1.2's compute layer, "look beyond raw FLOPS: memory bandwidth matters as much", live: each
//! GPU's roofline, a matrix multiply whose tokens a learner slides from one (memory-bound) to
//! thousands (compute-bound), and the GPUs ranked by peak against ranked at that operation. Every
//! number comes from [`crate::course::roofline`]. The chart is a few lines of SVG of its own, in the
//! line charts' classes: their component would bring 19 KB of wasm to this section's module.

use crate::course::roofline::{
    ELEMENTWISE_BYTES_PER_FLOP, GPU_ROOFS, HIDDEN, TOKENS, by_speed_at, matmul_intensity,
};
use crate::sim::units::{Bandwidth, format_bandwidth};
use crate::ui::components::charts::legend;
use crate::ui::components::widgets::{
    Ladder, choice, linked_figure, setter, use_link_state, use_link_writer,
};
use crate::ui::i18n::{Key, Lang, amount, grouped, percent, tr, trf, use_lang};
use yew::prelude::*;

/// The chart's ranges in decades: FLOPs a byte from 0.1 to 10,000, TFLOPS from 0.1 to 3,000 (the
/// H100's 989 off the top edge); and its plot in the SVG's units, narrow enough to read on a phone
/// without scrolling.
const X_DECADES: (f64, f64) = (-1.0, 4.0);
const Y_DECADES: (f64, f64) = (-1.0, 3.477);
const W: f64 = 480.0;
const H: f64 = 292.0;
const LEFT: f64 = 62.0;
const TOP: f64 = 12.0;
const PLOT_W: f64 = 396.0;
const PLOT_H: f64 = 232.0;

/// Where `v` falls between decades `lo` and `hi`, from 0 to 1 (clamped a little beyond).
fn frac(v: f64, (lo, hi): (f64, f64)) -> f64 {
    ((v.log10() - lo) / (hi - lo)).clamp(-0.02, 1.02)
}

fn px(v: f64) -> f64 {
    LEFT + frac(v, X_DECADES) * PLOT_W
}

fn py(v: f64) -> f64 {
    TOP + (1.0 - frac(v, Y_DECADES)) * PLOT_H
}

fn decade(k: i32) -> String {
    if k < 0 {
        "0.1".into()
    } else {
        grouped(10usize.pow(k as u32))
    }
}

/// The roofline chart: each GPU's roofs (the chosen one's a wide pale band under the others, so
/// that a dashed roof along it still shows: the V100's 900 GB/s runs along the L40S's 864), the
/// element-wise add's line, the matrix multiply's point on the chosen GPU's roof.
fn chart(lang: Lang, chosen: usize, intensity: f64, reached: f64) -> Html {
    let n = |v: f64| format!("{v:.1}");
    let roof = |i: usize| {
        let g = &GPU_ROOFS[i];
        // From where the memory roof rises out of the floor, through the knee, to the right edge.
        let start =
            (10f64.powf(Y_DECADES.0) * 1e3 / g.memory_gbytes_per_sec).max(10f64.powf(X_DECADES.0));
        let right = 10f64.powf(X_DECADES.1);
        let d = [start, g.ridge(), right]
            .iter()
            .enumerate()
            .map(|(k, &x)| {
                let y = py(g.attainable_tflops(x));
                format!("{}{},{}", if k == 0 { 'M' } else { 'L' }, n(px(x)), n(y))
            })
            .collect::<String>();
        html! {
            <g class={classes!("series", format!("roof-{i}"), (i == chosen).then_some("chosen"))} data-testid={format!("roofline-roof-{i}")}>
                <path class="series-line reference" {d} />
            </g>
        }
    };
    let add = 1.0 / ELEMENTWISE_BYTES_PER_FLOP;
    let bottom = TOP + PLOT_H;
    html! {
        <svg class="chart-svg roof-chart" viewBox={format!("0 0 {W} {H}")} role="img" aria-label={tr(lang, Key::RoofChart)}>
            <g class="axes">
                <rect class="plot-bg" x={n(LEFT)} y={n(TOP)} width={n(PLOT_W)} height={n(PLOT_H)} />
                { for (-1..=3).map(|k| {
                    let y = py(10f64.powi(k));
                    html! { <g class="tick">
                        <line class="grid" x1={n(LEFT)} x2={n(LEFT + PLOT_W)} y1={n(y)} y2={n(y)} />
                        <text x={n(LEFT - 6.0)} y={n(y + 4.0)} text-anchor="end">{ decade(k) }</text>
                    </g> }
                }) }
                { for (-1..=4).map(|k| {
                    let x = n(px(10f64.powi(k)));
                    html! { <g class="tick">
                        <line class="grid" x1={x.clone()} x2={x.clone()} y1={n(TOP)} y2={n(bottom)} />
                        // The last label ends at its line, inside the figure.
                        <text x={x} y={n(bottom + 17.0)} text-anchor={if k == 4 { "end" } else { "middle" }}>{ decade(k) }</text>
                    </g> }
                }) }
                <line class="axis-line" x1={n(LEFT)} x2={n(LEFT + PLOT_W)} y1={n(bottom)} y2={n(bottom)} />
                <line class="axis-line" x1={n(LEFT)} x2={n(LEFT)} y1={n(TOP)} y2={n(bottom)} />
                <text class="axis-title" x={n(LEFT + PLOT_W / 2.0)} y={n(H - 8.0)} text-anchor="middle">{ tr(lang, Key::RoofX) }</text>
                <text class="axis-title" transform={format!("translate(14 {}) rotate(-90)", n(TOP + PLOT_H / 2.0))} text-anchor="middle">{ tr(lang, Key::RoofY) }</text>
            </g>
            <g class="roof-add" data-testid="roofline-add" data-x={add.to_string()}>
                <line x1={n(px(add))} x2={n(px(add))} y1={n(TOP)} y2={n(bottom)} />
                <text x={n(px(add) + 4.0)} y={n(TOP + 14.0)}>{ tr(lang, Key::RoofAdd) }</text>
                <title>{ tr(lang, Key::RoofAddTitle) }</title>
            </g>
            // The chosen GPU's roofs first, under the others.
            { for [chosen].into_iter().chain((0..GPU_ROOFS.len()).filter(|&i| i != chosen)).map(roof) }
            <g class={classes!("series", format!("roof-{chosen}"))}>
                <circle class="series-dot" cx={n(px(intensity))} cy={n(py(reached))} r="4.5"
                        data-testid="roofline-point" data-tflops={reached.to_string()}>
                    <title>{ trf(lang, Key::RoofOperation, &[GPU_ROOFS[chosen].name]) }{ format!(": {} TFLOPS", amount(reached)) }</title>
                </circle>
            </g>
        </svg>
    }
}

/// The figure's GPUs' names in `order`, each with its TFLOPS at `intensity` when one is given,
/// joined as a list.
fn names_in(lang: Lang, order: &[usize], intensity: Option<f64>) -> String {
    let names: Vec<String> = (order.iter())
        .map(|&i| {
            let g = &GPU_ROOFS[i];
            match intensity {
                Some(x) => format!("{} {}", g.name, amount(g.attainable_tflops(x))),
                None => g.name.to_string(),
            }
        })
        .collect();
    let list = names.join(lang.pick(", ", "、"));
    if intensity.is_some() {
        format!("{list} TFLOPS")
    } else {
        list
    }
}

#[component]
pub fn RooflineFigure() -> Html {
    let lang = use_lang();
    // A link may carry `roofline=GPU.tokens`.
    let (link, refused) = use_link_state("roofline", 2, |v| {
        v[0] < GPU_ROOFS.len() as u64 && TOKENS.contains(&v[1])
    });
    let gpu = use_state(|| link.as_ref().map_or(3usize, |v| v[0] as usize));
    let tokens = use_state(|| link.as_ref().map_or(64u64, |v| v[1]));
    use_link_writer("roofline", vec![*gpu as u64, *tokens], vec![3, 64]);
    let chosen = (*gpu).min(GPU_ROOFS.len() - 1);
    let g = &GPU_ROOFS[chosen];
    let intensity = matmul_intensity(*tokens, HIDDEN);
    let reached = g.attainable_tflops(intensity);
    let bound = if intensity < g.ridge() {
        Key::RoofMemoryBound
    } else {
        Key::RoofComputeBound
    };
    let names: Vec<&'static str> = GPU_ROOFS.iter().map(|g| g.name).collect();
    let entries: Vec<(AttrValue, AttrValue, bool)> = (GPU_ROOFS.iter().enumerate())
        .map(|(i, g)| {
            let class = format!("roof-{i}{}", if i == chosen { " chosen" } else { "" });
            (
                trf(lang, Key::RoofSeries, &[g.name]).into(),
                class.into(),
                true,
            )
        })
        .chain(std::iter::once((
            trf(lang, Key::RoofOperation, &[g.name]).into(),
            format!("roof-{chosen}").into(),
            false,
        )))
        .collect();
    let gpu_line = trf(
        lang,
        Key::RoofGpuReadout,
        &[
            g.name,
            &amount(g.tflops),
            &format_bandwidth(Bandwidth::from_gbytes_per_sec(g.memory_gbytes_per_sec)),
            g.memory,
            &amount(g.ridge()),
            if g.format == "FP16" {
                tr(lang, Key::RoofFp16)
            } else {
                g.format
            },
        ],
    );
    // English counts agree with their number; Chinese takes the number alone.
    let counted = |v: String, one: &str, many: &str| match lang {
        Lang::En if v == "1" => format!("{v} {one}"),
        Lang::En => format!("{v} {many}"),
        Lang::Zh => v,
    };
    let share = reached / g.tflops;
    let op_line = trf(
        lang,
        Key::RoofOpReadout,
        &[
            &grouped(HIDDEN as usize),
            &counted(grouped(*tokens as usize), "token", "tokens"),
            &counted(amount(intensity), "FLOP", "FLOPs"),
            &format!("{} TFLOPS", amount(reached)),
            &percent(lang, share, if share < 0.1 { 1 } else { 0 }),
            tr(lang, bound),
        ],
    );
    let to_peak = g
        .tokens_to_peak(HIDDEN)
        .map(|t| trf(lang, Key::RoofToPeak, &[&grouped(t as usize)]));
    let rank = trf(
        lang,
        Key::RoofRank,
        &[
            &names_in(lang, &by_speed_at(f64::INFINITY), None),
            &names_in(lang, &by_speed_at(intensity), Some(intensity)),
        ],
    );
    let controls = html! {
        <>
        { choice("roofline-gpu", tr(lang, Key::MonthsGpu), &names, chosen, &setter(&gpu)) }
        <Ladder testid="roofline-tokens" label={tr(lang, Key::RoofTokens)} values={TOKENS.to_vec()}
                value={*tokens} text={grouped(*tokens as usize)} on_change={setter(&tokens)} />
        </>
    };
    let plot = html! {
        <>
        <figure class="chart" data-testid="roofline-chart">
            { chart(lang, chosen, intensity, reached) }
            { legend(&entries) }
        </figure>
        <p class="ch-readout" data-testid="roofline-gpu-readout" data-ridge={g.ridge().to_string()}>{ gpu_line }</p>
        <p class="ch-readout" aria-live="polite" data-testid="roofline-readout"
           data-intensity={intensity.to_string()} data-tflops={reached.to_string()}>
            { op_line }
            if let Some(line) = to_peak { { lang.pick(" ", "") }{ line } }
        </p>
        <p class="ch-readout" data-testid="roofline-rank">{ rank }</p>
        <p class="ch-note">{ tr(lang, Key::RoofNote) }</p>
        </>
    };
    linked_figure(
        lang,
        "roofline",
        refused.as_deref(),
        tr(lang, Key::RoofTitle),
        controls,
        plot,
    )
}
