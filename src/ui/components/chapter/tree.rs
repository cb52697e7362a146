//! §1.3.2: Tree AllReduce. Flat, binary and double binary trees on 2–16 GPUs: the trees drawn from
//! the schedule's reduce transfers, and every GPU's traffic from the trace, the root's above all.

use crate::sim::units::{format_bytes, format_secs};
use crate::ui::components::widgets::{
    Ladder, choice, link_refused, setter, use_link_state, use_link_writer,
};
use crate::ui::i18n::{Key, Lang, gpus, number, tr, trf, use_lang};
use crate::ui::model::chapter::{
    DEFAULT_SEGMENTS, SEGMENT_CHOICES, TREE_GPUS, TREE_SIZE_BYTES, TreeKind, TreeRun, tree_layout,
    tree_parents, tree_run,
};
use yew::prelude::*;

const WIDTH: f64 = 520.0;
const LEVEL: f64 = 58.0;
const DOUBLE_LEVEL: f64 = 46.0;
const R: f64 = 15.0;

fn tree_svg(lang: Lang, run: &TreeRun) -> Html {
    let n = run.tree.ranks.len();
    let trees = run.kind.trees();
    let parents = tree_parents(&run.tree, trees);
    let load = |r: usize| (run.tree.ranks[r].sent_bytes + run.tree.ranks[r].received_bytes) as f64;
    let max_load = (0..n).map(load).fold(1.0, f64::max);
    let mut y0 = 0.0;
    let mut panels = Vec::new();
    for (t, p) in parents.iter().enumerate() {
        let layout = tree_layout(p);
        let slots = layout.iter().map(|&(x, _)| x).fold(0.0, f64::max);
        let depth = layout.iter().map(|&(_, d)| d).max().unwrap_or(0);
        let x = |slot: f64| {
            if slots > 0.0 {
                30.0 + slot * (WIDTH - 60.0) / slots
            } else {
                WIDTH / 2.0
            }
        };
        let top = y0 + if trees > 1 { 40.0 } else { 34.0 };
        // Two trees one above the other: flatter levels, and a taller limit for the drawing (the
        // page's 460 px shrank two 16-GPU trees to 77 %: GPU numbers at 9.2 px, "root" at 8.5).
        let level = if trees > 1 { DOUBLE_LEVEL } else { LEVEL };
        let y = |d: usize| top + d as f64 * level;
        let root = p.iter().position(|q| q.is_none()).unwrap_or(0);
        let class = if t == 0 { "first" } else { "second" };
        panels.push(html! {
            <g class={classes!("ch-tree", class)} data-testid={format!("tree-{t}")}>
                if trees > 1 {
                    <text class="ch-tree-title" x="8" y={format!("{:.1}", y0 + 16.0)}>
                        { tr(lang, if t == 0 { Key::FirstTree } else { Key::SecondTree }) }
                    </text>
                }
                { for p.iter().enumerate().filter_map(|(r, q)| q.map(|q| html! {
                    <line class="ch-edge" x1={format!("{:.1}", x(layout[r].0))} y1={format!("{:.1}", y(layout[r].1))}
                          x2={format!("{:.1}", x(layout[q].0))} y2={format!("{:.1}", y(layout[q].1))} />
                })) }
                { for (0..n).map(|r| {
                    let (cx, cy) = (x(layout[r].0), y(layout[r].1));
                    let heat = load(r) / max_load;
                    html! {
                        <g class={classes!("ch-node", (r == root).then_some("root"))} data-testid={format!("tree-{t}-node-{r}")}>
                            <circle cx={format!("{cx:.1}")} cy={format!("{cy:.1}")} r={R.to_string()}
                                    style={format!("fill: color-mix(in srgb, var(--ch-hot) {:.0}%, var(--ch-panel))", heat * 100.0)} />
                            <text x={format!("{cx:.1}")} y={format!("{:.1}", cy + 4.5)} class={classes!((heat > 0.6).then_some("on-hot"))}>{ r }</text>
                            if r == root {
                                <text class="ch-root-label" x={format!("{:.1}", cx + R + 4.0)} y={format!("{:.1}", cy - R + 4.0)}>{ tr(lang, Key::Root) }</text>
                            }
                        </g>
                    }
                }) }
            </g>
        });
        y0 = y(depth) + R + 12.0;
    }
    html! {
        <svg class={classes!("ch-tree-svg", (trees > 1).then_some("double"))} viewBox={format!("0 0 {WIDTH} {y0:.0}")} role="img" data-testid="tree-figure"
             aria-label={format!("{} · {}", tr(lang, Key::TreeShape), gpus(lang, n))}>
            { for panels }
        </svg>
    }
}

fn load_columns(lang: Lang, run: &TreeRun) -> Html {
    let s = TREE_SIZE_BYTES as f64;
    let max = run
        .tree
        .ranks
        .iter()
        .map(|r| r.sent_bytes.max(r.received_bytes))
        .max()
        .unwrap_or(1)
        .max(1) as f64;
    html! {
        <>
            <div class="ch-columns-title">{ tr(lang, Key::TreeLoadTitle) }</div>
            <ol class="ch-columns pairs" data-testid="tree-load">
                { for run.tree.ranks.iter().enumerate().map(|(r, t)| html! {
                    <li class="ch-column" data-testid={format!("tree-load-{r}")} data-sent={t.sent_bytes.to_string()} data-received={t.received_bytes.to_string()}>
                        <span class="ch-column-value">{ number(t.sent_bytes.max(t.received_bytes) as f64 / s, 1) }</span>
                        <span class="ch-column-track" aria-hidden="true">
                            <span class="ch-column-fill sent" style={format!("height: {:.1}%", t.sent_bytes as f64 / max * 100.0)}></span>
                            <span class="ch-column-fill received" style={format!("height: {:.1}%", t.received_bytes as f64 / max * 100.0)}></span>
                        </span>
                        <span class="ch-column-label">{ r }</span>
                    </li>
                }) }
            </ol>
            <ul class="ch-legend">
                <li><span class="ch-swatch sent"></span>{ tr(lang, Key::Sent) }</li>
                <li><span class="ch-swatch received"></span>{ tr(lang, Key::Received) }</li>
            </ul>
        </>
    }
}

#[component]
pub fn TreeSection() -> Html {
    let lang = use_lang();
    // A link may carry `tree=shape.GPUs.segments` (shape: 0 flat, 1 binary, 2 double binary).
    let (link, refused) = use_link_state("tree", 3, |v| {
        // Converted with a check: on wasm32 `as usize` wrapped 4294967296 round to 0.
        v[0] < TreeKind::ALL.len() as u64
            && usize::try_from(v[1]).is_ok_and(|g| TREE_GPUS.contains(&g))
            && SEGMENT_CHOICES.contains(&v[2])
    });
    let kind = use_state(|| {
        link.as_ref()
            .map_or(TreeKind::Flat, |v| TreeKind::ALL[v[0] as usize])
    });
    let n = use_state(|| link.as_ref().map_or(8, |v| v[1] as usize));
    let segments = use_state(|| link.as_ref().map_or(DEFAULT_SEGMENTS as u64, |v| v[2]));
    let kind_index = TreeKind::ALL.iter().position(|k| k == &*kind).unwrap_or(0);
    use_link_writer(
        "tree",
        vec![kind_index as u64, *n as u64, *segments],
        vec![0, 8, DEFAULT_SEGMENTS as u64],
    );
    let run = use_memo((*kind, *n, *segments), |&(k, n, g)| {
        tree_run(k, n, g as usize)
    });
    let on_segments = setter(&segments);
    let on_kind = {
        let kind = kind.clone();
        Callback::from(move |i: usize| kind.set(TreeKind::ALL[i.min(2)]))
    };
    let on_n = {
        let n = n.clone();
        Callback::from(move |v: u64| n.set(v as usize))
    };
    // The drawing scrolls sideways on a phone; the sentences under it wrap at the page's width,
    // outside the scrolling box (inside, its fade covered each line's last word for good).
    let (figure, words) = match &*run {
        Err(e) => (
            html! { <p class="ch-error">{ crate::ui::i18n::errors::scenario_error(lang, e) }</p> },
            Html::default(),
        ),
        Ok(run) => {
            let s = TREE_SIZE_BYTES as f64;
            let root = run.root();
            let r = run.tree.ranks[root];
            let busiest = run
                .tree
                .ranks
                .iter()
                .map(|t| t.sent_bytes.max(t.received_bytes))
                .max()
                .unwrap_or(0) as f64;
            let ring = run.ring.ranks[0].sent_bytes as f64;
            let figure = html! {
                <>
                    { tree_svg(lang, run) }
                    { load_columns(lang, run) }
                </>
            };
            let words = html! {
                <>
                    <p class="ch-readout" aria-live="polite" data-testid="tree-readout"
                       data-root-received={r.received_bytes.to_string()}>
                        { trf(lang, Key::TreeReadout, &[&root.to_string(), &number(r.received_bytes as f64 / s, 2),
                            &number(r.sent_bytes as f64 / s, 2), &number(busiest / s, 2), &number(ring / s, 2)]) }
                    </p>
                    <p class="ch-note" data-testid="tree-time" data-tree-secs={run.tree.time_secs.to_string()} data-ring-secs={run.ring.time_secs.to_string()}>
                        { trf(lang, if *segments == 1 { Key::TreeTimeOneSegment } else { Key::TreeTime }, &[&format_bytes(s), &format_secs(run.tree.time_secs), &segments.to_string(), &format_secs(run.ring.time_secs)]) }
                    </p>
                </>
            };
            (figure, words)
        }
    };
    let selected = TreeKind::ALL.iter().position(|k| k == &*kind).unwrap_or(0);
    html! {
        <section id="tree" class="ch-section" data-testid="section-tree" aria-labelledby="tree-title">
            <h2 id="tree-title">{ tr(lang, Key::TreeTitle) }</h2>
            <p>{ tr(lang, Key::TreeBody) }</p>
            <crate::ui::components::chapter::claims::ClaimChips ids={vec!["tree-root-n-minus-1", "tree-3.5x-ring", "tree-fewer-cross-rack", "racks-800-200-tree-wins"]} />
            <p class="ch-note" data-testid="tree-pipeline-note">{ trf(lang, Key::TreePipelineNote, &[&DEFAULT_SEGMENTS.to_string()]) }</p>
            { link_refused(lang, "tree", refused.as_deref()) }
            <div class="ch-figure">
                <div class="ch-controls">
                    { choice("tree-shape", tr(lang, Key::TreeShape), &[tr(lang, Key::TreeFlat), tr(lang, Key::TreeBinary), tr(lang, Key::TreeDouble)], selected, &on_kind) }
                    <Ladder testid="tree-gpus" label={tr(lang, Key::Gpus)} values={TREE_GPUS.map(|g| g as u64).collect::<Vec<_>>()}
                            value={*n as u64} text={gpus(lang, *n)} on_change={on_n} />
                    <Ladder testid="tree-segments" label={tr(lang, Key::TreeSegments)} values={SEGMENT_CHOICES.to_vec()}
                            value={*segments} text={segments.to_string()} on_change={on_segments} />
                </div>
                <div class="ch-plot"><div class="ch-scroll">{ figure }</div><p class="ch-swipe" aria-hidden="true">{ tr(lang, Key::SwipeFigure) }</p>{ words }</div>
            </div>
        </section>
    }
}
