//! Each rank's buffer as a row of chunk cells, filled as the run reduces and gathers them: what
//! "every GPU ends with the whole sum" looks like at the cursor.

use super::figure::{chunk_colour, f, fixed};
use crate::ui::components::app::Shared;
use crate::ui::i18n::{Key, percent, tr, trf, use_lang};
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct BuffersProps {
    pub sim: Shared,
    pub t_secs: f64,
}

/// Each rank's buffer as a row of chunk cells, filled by how many ranks' contributions they hold.
#[component]
pub fn Buffers(props: &BuffersProps) -> Html {
    let lang = use_lang();
    let view = &props.sim.0;
    let Some(trace) = view.trace() else {
        return Html::default();
    };
    let n = trace.topology.ranks();
    let chunks = trace.schedule.chunks();
    let cells = view.replay.cells_at(trace, props.t_secs);
    let complete = cells.iter().all(|&c| c as usize == n);
    if n > crate::ui::model::logic::DETAILED_MAX_RANKS {
        let done = cells.iter().filter(|&&c| c as usize == n).count();
        return html! {
            <div class="buffers">
                <h3>{ tr(lang, Key::Buffers) }</h3>
                <p data-testid="buffers-summary" data-complete={complete.to_string()}>
                    { trf(lang, Key::BuffersDone, &[&done.to_string(), &cells.len().to_string(), &percent(lang, done as f64 / cells.len().max(1) as f64, 0)]) }
                </p>
            </div>
        };
    }
    // Many chunks are binned so a row stays readable; a bin shows its least-filled cell.
    let bins = chunks.min(64);
    let per_bin = chunks.div_ceil(bins);
    let bins = chunks.div_ceil(per_bin);
    let cell_w = (560.0 / bins as f64).min(22.0);
    let row_h = if n <= 16 { 16.0 } else { 10.0 };
    let label_w = 54.0;
    let width = label_w + cell_w * bins as f64 + 8.0;
    let height = row_h * n as f64 + 4.0;
    let rows = (0..n)
        .map(|r| {
            let row = &cells[r * chunks..(r + 1) * chunks];
            let fills: Vec<u32> = (0..bins)
                .map(|b| {
                    let (lo, hi) = (b * per_bin, ((b + 1) * per_bin).min(chunks));
                    row[lo..hi].iter().copied().min().unwrap_or(0)
                })
                .collect();
            html! { <BufferRow rank={r} ranks={n} {chunks} {per_bin} {fills} y={r as f64 * row_h + 2.0} {row_h} {cell_w} {label_w} /> }
        })
        .collect::<Html>();
    html! {
        <div class="buffers">
            <h3>{ tr(lang, Key::Buffers) }<span class="muted">{ trf(lang, if chunks == 1 { Key::BuffersNoteOneChunk } else { Key::BuffersNote }, &[&n.to_string(), &chunks.to_string()]) }{ if per_bin > 1 { trf(lang, Key::BuffersPerCell, &[&per_bin.to_string()]) } else { String::new() } }</span></h3>
            <svg class="buffer-grid" viewBox={format!("0 0 {width:.0} {height:.0}")} style={format!("max-width:{:.0}px", width * 1.4)} data-complete={complete.to_string()}>
                { rows }
            </svg>
        </div>
    }
}

#[derive(Properties, PartialEq)]
struct BufferRowProps {
    rank: usize,
    ranks: usize,
    chunks: usize,
    per_bin: usize,
    /// Contributor count of each (binned) cell.
    fills: Vec<u32>,
    y: f64,
    row_h: f64,
    cell_w: f64,
    label_w: f64,
}

/// One rank's buffer; it re-renders only when one of its cells changes.
#[component]
fn BufferRow(props: &BufferRowProps) -> Html {
    let lang = use_lang();
    let (r, n, y) = (props.rank, props.ranks, props.y);
    let complete = props.fills.iter().all(|&c| c as usize == n);
    html! {
        <g data-testid={format!("rank-buffer-{r}")} data-complete={complete.to_string()}>
            <title>{ trf(lang, Key::BufferRowTitle, &[&r.to_string(), &n.to_string()]) }</title>
            <text class="row-label" x={f(props.label_w - 6.0)} y={f(y + props.row_h * 0.72)}>{ format!("GPU {r}") }</text>
            { for props.fills.iter().enumerate().map(|(b, &fill)| html! {
                <BufferCell chunk={b * props.per_bin} chunks={props.chunks} {fill} ranks={n}
                            x={props.label_w + b as f64 * props.cell_w} {y} w={props.cell_w - 1.5} h={props.row_h - 2.0} />
            }) }
        </g>
    }
}

#[derive(Properties, PartialEq)]
struct BufferCellProps {
    chunk: usize,
    chunks: usize,
    fill: u32,
    ranks: usize,
    x: f64,
    y: f64,
    w: f64,
    h: f64,
}

/// One cell; a step changes a few cells per row, and only those re-render.
#[component]
fn BufferCell(props: &BufferCellProps) -> Html {
    let (fill, n) = (props.fill, props.ranks);
    let share = fill as f64 / n as f64;
    html! {
        <rect class={classes!("cell", (fill as usize == n).then_some("full"))}
              data-fill={fill.to_string()} data-chunk={props.chunk.to_string()}
              x={f(props.x)} y={f(props.y)} width={f(props.w)} height={f(props.h)} rx="2"
              style={format!("fill:{};fill-opacity:{}", chunk_colour(props.chunk, props.chunks), fixed(0.08 + 0.92 * share, 100))} />
    }
}
