//! Each rank's buffer as a row of chunk cells, filled as the run reduces and gathers them: what
//! "every GPU ends with the whole sum" looks like at the cursor.
//!
//! The cells are painted on a canvas (64 ranks × 64 cells are 4,096 shapes, which as SVG elements
//! cost a playing frame more to diff and paint than the rest of the lab); beside it, a list that
//! only screen readers (and the tests) see says each row's state in words and data attributes.

use super::figure::{chunk_colour, f};
use crate::ui::components::app::Shared;
use crate::ui::i18n::{Key, percent, tr, trf, use_lang};
use std::rc::Rc;
use wasm_bindgen::JsCast;
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct BuffersProps {
    pub sim: Shared,
    pub t_secs: f64,
    /// While a run plays, the words under the canvas keep the state of the last paused instant
    /// (marked busy) instead of rewriting 64 rows every frame.
    #[prop_or_default]
    pub playing: bool,
    /// Two runs compared, side by side on a wide screen: the cells span fewer pixels, and there
    /// the grid is not enlarged (style.css), so that the rows' names stay at their size (across
    /// the full 560 px, shrunk into a 467 px column at 1366 px, "GPU 0" came out at 5 to 7 px).
    /// Presentation mode keeps the full span.
    #[prop_or_default]
    pub narrow: bool,
}

/// The grid's geometry, in CSS pixels of its natural size (the canvas scales with the page).
#[derive(Clone, Copy, PartialEq)]
struct Grid {
    ranks: usize,
    chunks: usize,
    bins: usize,
    per_bin: usize,
    cell_w: f64,
    row_h: f64,
    label_w: f64,
}

/// The span of a row's cells at their natural size, in CSS pixels: alone, and compared.
const CELLS_SPAN: f64 = 560.0;
const CELLS_SPAN_NARROW: f64 = 380.0;

impl Grid {
    fn new(ranks: usize, chunks: usize, narrow: bool) -> Grid {
        // Many chunks are binned so a row stays readable; a bin shows its least-filled cell.
        let bins = chunks.min(64);
        let per_bin = chunks.div_ceil(bins);
        let bins = chunks.div_ceil(per_bin);
        Grid {
            ranks,
            chunks,
            bins,
            per_bin,
            cell_w: (if narrow {
                CELLS_SPAN_NARROW
            } else {
                CELLS_SPAN
            } / bins as f64)
                .min(22.0),
            row_h: if ranks <= 16 { 16.0 } else { 10.0 },
            label_w: 54.0,
        }
    }

    fn width(&self) -> f64 {
        self.label_w + self.cell_w * self.bins as f64 + 8.0
    }

    fn height(&self) -> f64 {
        self.row_h * self.ranks as f64 + 4.0
    }

    /// Each row's binned contributor counts, row after row.
    fn fills(&self, cells: &[u32]) -> Vec<u32> {
        (0..self.ranks)
            .flat_map(|r| {
                let row = &cells[r * self.chunks..(r + 1) * self.chunks];
                (0..self.bins).map(move |b| {
                    let (lo, hi) = (b * self.per_bin, ((b + 1) * self.per_bin).min(self.chunks));
                    row[lo..hi].iter().copied().min().unwrap_or(0)
                })
            })
            .collect()
    }
}

/// Each rank's buffer as a row of chunk cells, filled by how many ranks' contributions they hold.
#[component]
pub fn Buffers(props: &BuffersProps) -> Html {
    let lang = use_lang();
    let canvas = use_node_ref();
    let view = &props.sim.0;
    let trace = view.trace();
    let (n, chunks) = trace.map_or((0, 0), |t| (t.topology.ranks(), t.schedule.chunks()));
    let cells = trace.map_or_else(Default::default, |t| view.replay.cells_at(t, props.t_secs));
    let detailed = n > 0 && n <= crate::ui::model::logic::DETAILED_MAX_RANKS;
    // In presentation mode the grid spans the screen: painted again, at that width, on entering.
    let presenting = use_context::<crate::ui::components::root::Presenting>().is_some_and(|p| p.on);
    // A run's half of the stage; presentation mode draws the grid across the screen as ever.
    let grid = Grid::new(n.max(1), chunks.max(1), props.narrow && !presenting);
    let fills = if detailed {
        grid.fills(&cells)
    } else {
        Vec::new()
    };
    let colours = use_mut_ref(|| None::<Colours>);
    let painted = use_mut_ref(Painted::default);
    {
        let canvas = canvas.clone();
        use_effect_with(
            (fills.clone(), detailed.then_some(grid), presenting),
            move |(fills, grid, presenting)| {
                if let (Some(grid), Some(el)) = (grid, canvas.cast::<web_sys::HtmlCanvasElement>())
                {
                    let mut colours = colours.borrow_mut();
                    let colours = colours.get_or_insert_with(|| Colours::of(&el));
                    paint(
                        &el,
                        grid,
                        fills,
                        colours,
                        &mut painted.borrow_mut(),
                        *presenting,
                    );
                }
            },
        );
    }
    if trace.is_none() {
        return Html::default();
    }
    let complete = cells.iter().all(|&c| c as usize == n);
    if !detailed {
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
    let per_bin = grid.per_bin;
    let (width, height) = (grid.width(), grid.height());
    // The rows in words follow the cursor when it is still, and hold while a run plays (a frame
    // then only repaints the canvas's changed cells; perf at 64 GPUs: these rows' attributes were a
    // tenth of a playing frame's script). A new grid (another run) replaces them at once.
    let listed = use_mut_ref(|| Rc::new(Vec::<u32>::new()));
    if !props.playing || listed.borrow().len() != fills.len() {
        *listed.borrow_mut() = Rc::new(fills);
    }
    let rows = listed.borrow().clone();
    html! {
        <div class="buffers">
            <h3>{ tr(lang, Key::Buffers) }<span class="muted">{ trf(lang, if n == 1 { Key::BuffersNoteOneRank } else if chunks == 1 { Key::BuffersNoteOneChunk } else { Key::BuffersNote }, &[&n.to_string(), &chunks.to_string()]) }{ if per_bin > 1 { trf(lang, Key::BuffersPerCell, &[&per_bin.to_string()]) } else { String::new() } }</span></h3>
            // On a phone the grid scrolls sideways in a box of its own, under the heading, and a
            // copy of the rows' names (hidden elsewhere) stays over the canvas's at its left edge.
            <div class="grid-scroll">
                // At most 1.4 × its natural size; two runs side by side, its natural size (style.css).
                <div class="grid-wrap" style={format!("--grid-max:{:.0}px;--grid-natural:{width:.0}px", width * 1.4)}>
                    <canvas ref={canvas} class="buffer-grid" data-testid="buffer-grid" aria-hidden="true"
                            data-complete={complete.to_string()}
                            style={format!("aspect-ratio:{width:.0} / {height:.0}")} />
                    <RowNames grid={grid} />
                </div>
            </div>
            <BufferRows fills={rows} bins={grid.bins} ranks={n} busy={props.playing} />
        </div>
    }
}

#[derive(Properties, PartialEq)]
struct RowNamesProps {
    grid: Grid,
}

/// The rows' names as the canvas writes them, in a drawing as wide a share of the grid as they
/// are: shown only on a phone, where it stays at the left while the cells scroll under it.
#[component]
fn RowNames(props: &RowNamesProps) -> Html {
    let g = &props.grid;
    let names = (0..g.ranks).map(|r| {
        let y = r as f64 * g.row_h + 2.0 + g.row_h * 0.72;
        html! { <text x={f(g.label_w - 6.0)} y={f(y)}>{ format!("GPU {r}") }</text> }
    });
    html! {
        <svg class="buffer-names" aria-hidden="true"
             viewBox={format!("0 0 {} {}", f(g.label_w), f(g.height()))}
             style={format!("width:calc(100% * {} / {})", g.label_w as u32, g.width() as u32)}>
            { for names }
        </svg>
    }
}

#[derive(Properties, PartialEq)]
struct BufferRowsProps {
    /// Each row's binned contributor counts, row after row.
    fills: Rc<Vec<u32>>,
    bins: usize,
    ranks: usize,
    busy: bool,
}

/// Each rank's row in words and data attributes, for screen readers and the tests.
#[component]
fn BufferRows(props: &BufferRowsProps) -> Html {
    let lang = use_lang();
    let n = props.ranks;
    let rows = props.fills.chunks(props.bins.max(1)).enumerate().map(|(r, row)| {
        let full = row.iter().filter(|&&c| c as usize == n).count();
        let data: Vec<String> = row.iter().map(u32::to_string).collect();
        html! {
            <li data-testid={format!("rank-buffer-{r}")} data-complete={(full == row.len()).to_string()} data-fills={data.join(",")}>
                { trf(lang, Key::BufferRowStatus, &[&r.to_string(), &full.to_string(), &row.len().to_string(), &n.to_string()]) }
            </li>
        }
    });
    html! {
        <ol class="sr-only" data-testid="buffer-rows" aria-busy={props.busy.to_string()}>{ for rows }</ol>
    }
}

/// The page's ink and muted text colours (of the light or dark theme), read once: reading computed
/// style every frame would force the page to recompute its style.
struct Colours {
    ink: String,
    muted: String,
}

impl Colours {
    fn of(el: &web_sys::HtmlCanvasElement) -> Colours {
        Colours {
            ink: computed(el, "color", "#222"),
            muted: computed(el, "--muted", "#666"),
        }
    }
}

/// The computed value of CSS property (or variable) `name` on `el`, or `fallback`.
pub(super) fn computed(el: &web_sys::Element, name: &str, fallback: &str) -> String {
    web_sys::window()
        .and_then(|w| w.get_computed_style(el).ok().flatten())
        .and_then(|s| s.get_property_value(name).ok())
        .map(|v| v.trim().to_string())
        .filter(|v| !v.is_empty())
        .unwrap_or_else(|| fallback.to_string())
}

/// A canvas's 2D context, its bitmap sized to `width` × `height` CSS units times `scale` and the
/// screen's density (resized only when that changed), and the context's transform set to draw in
/// those units. Returns the context and whether the bitmap was resized (which clears it).
///
/// With `screen_wide` (the buffers' grid in presentation mode, where it spans the screen) the
/// bitmap is at least the window's width, up to 4× its natural size: at 1920 px the 580-unit grid
/// was shown 3.2× enlarged from a 1.4× bitmap, blurred. The window's width is read, not a layout.
pub(super) fn canvas_2d(
    el: &web_sys::HtmlCanvasElement,
    width: f64,
    height: f64,
    scale: f64,
    screen_wide: bool,
) -> Option<(web_sys::CanvasRenderingContext2d, bool)> {
    let ctx = el
        .get_context("2d")
        .ok()
        .flatten()?
        .dyn_into::<web_sys::CanvasRenderingContext2d>()
        .ok()?;
    let window = web_sys::window()?;
    let scale = if screen_wide {
        let screen = window
            .inner_width()
            .ok()
            .and_then(|w| w.as_f64())
            .unwrap_or(0.0);
        scale.max((screen / width.max(1.0)).min(4.0))
    } else {
        scale
    };
    let scale = scale * window.device_pixel_ratio();
    let (w, h) = ((width * scale).round(), (height * scale).round());
    let resized = f64::from(el.width()) != w || f64::from(el.height()) != h;
    if resized {
        el.set_width(w as u32);
        el.set_height(h as u32);
    }
    let _ = ctx.set_transform(scale, 0.0, 0.0, scale, 0.0, 0.0);
    Some((ctx, resized))
}

/// What the canvas shows now, so that a frame repaints only the cells that changed.
#[derive(Default)]
struct Painted {
    grid: Option<Grid>,
    fills: Vec<u32>,
}

/// Paints the grid at its largest shown size and the screen's pixel density: a label per row,
/// then each cell in its chunk's colour, more opaque as it gathers contributions, outlined once
/// full. When the grid is the one already shown, only the cells whose count changed are repainted
/// (a ring step changes a few cells in each row, not all 4,096).
fn paint(
    el: &web_sys::HtmlCanvasElement,
    grid: &Grid,
    fills: &[u32],
    colours: &Colours,
    painted: &mut Painted,
    presenting: bool,
) {
    // Drawn at the largest size the page shows it (1.4 × natural, see the style's max-width) and
    // the screen's density; the page scales it down. Measuring the shown size would force a layout
    // every frame.
    let Some((ctx, resized)) = canvas_2d(el, grid.width(), grid.height(), 1.4, presenting) else {
        return;
    };
    let whole = resized || painted.grid != Some(*grid) || painted.fills.len() != fills.len();
    let Colours { ink, muted } = colours;
    ctx.set_line_width(0.6);
    ctx.set_stroke_style_str(ink);
    if whole {
        ctx.clear_rect(0.0, 0.0, grid.width(), grid.height());
        ctx.set_font("9px system-ui, sans-serif");
        ctx.set_text_align("end");
        ctx.set_global_alpha(1.0);
        ctx.set_fill_style_str(muted);
        for r in 0..grid.ranks {
            let y = r as f64 * grid.row_h + 2.0;
            let _ = ctx.fill_text(
                &format!("GPU {r}"),
                grid.label_w - 6.0,
                y + grid.row_h * 0.72,
            );
        }
    }
    let n = grid.ranks as f64;
    let (cw, ch) = (grid.cell_w - 1.5, grid.row_h - 2.0);
    // Column by column: one colour per chunk, set once.
    for b in 0..grid.bins {
        let x = grid.label_w + b as f64 * grid.cell_w;
        let mut coloured = false;
        for r in 0..grid.ranks {
            let i = r * grid.bins + b;
            let fill = fills[i];
            if !whole && painted.fills[i] == fill {
                continue;
            }
            if !coloured {
                ctx.set_fill_style_str(&chunk_colour(b * grid.per_bin, grid.chunks));
                coloured = true;
            }
            let y = r as f64 * grid.row_h + 2.0;
            // The cell and its outline's half-width around it.
            ctx.clear_rect(x - 0.5, y - 0.5, cw + 1.0, ch + 1.0);
            ctx.set_global_alpha(0.08 + 0.92 * fill as f64 / n);
            ctx.fill_rect(x, y, cw, ch);
            if fill as f64 == n {
                ctx.set_global_alpha(0.35);
                ctx.stroke_rect(x, y, cw, ch);
            }
        }
    }
    painted.grid = Some(*grid);
    painted.fills.clear();
    painted.fills.extend_from_slice(fills);
}
