//! The chunks in flight, painted on a canvas laid over the cluster figure.
//!
//! As SVG elements they were the figure's busiest part: at 64 GPUs a ring's step lands every 64
//! chunks and starts 64 more every few frames, and each frame rewrote their positions, fills and
//! colours (measured while playing at 64 GPUs in headless Chromium: without them a frame's script
//! was 2.1 ms shorter and its style and layout 1.2 ms). A canvas repaints them in one pass.

use super::buffers::{canvas_2d, computed};
use std::rc::Rc;
use yew::prelude::*;

/// One chunk on the wire, in the figure's own units (its SVG `viewBox`).
#[derive(Clone, Debug, PartialEq)]
pub struct Token {
    pub x: f64,
    pub y: f64,
    /// Its chunk's colour (CSS).
    pub colour: String,
    /// The share of all ranks' contributions its payload holds, 0..=1.
    pub fill: f64,
}

/// A token's side, in figure units.
pub(super) const SIDE: f64 = 11.0;

#[derive(Properties, PartialEq)]
pub struct TokensProps {
    pub tokens: Rc<Vec<Token>>,
    /// The figure's `viewBox` size.
    pub width: f64,
    pub height: f64,
}

/// A transparent canvas the size of the figure, drawn at its units times the screen's density (the
/// lab shows a figure at about its own size); `object-fit: contain` maps it as the SVG's `viewBox`
/// maps the figure. A larger bitmap costs every frame: at 1.5 × its units, handing the canvas to the
/// compositor took 2 ms more a frame at 64 GPUs.
#[component]
pub fn Tokens(props: &TokensProps) -> Html {
    let canvas = use_node_ref();
    let panel = use_mut_ref(|| None::<String>);
    {
        let canvas = canvas.clone();
        use_effect_with(
            (props.tokens.clone(), props.width, props.height),
            move |(tokens, width, height)| {
                if let Some(el) = canvas.cast::<web_sys::HtmlCanvasElement>() {
                    let mut panel = panel.borrow_mut();
                    let panel = panel.get_or_insert_with(|| computed(&el, "--panel", "#fff"));
                    paint(&el, tokens, *width, *height, panel);
                }
            },
        );
    }
    html! {
        <canvas ref={canvas} class="figure-tokens" data-testid="figure-tokens" aria-hidden="true"
                data-drawn={props.tokens.len().to_string()} />
    }
}

/// Draws every token as a rounded square outlined in its chunk's colour and filled from the bottom
/// by its share of contributions.
fn paint(el: &web_sys::HtmlCanvasElement, tokens: &[Token], width: f64, height: f64, panel: &str) {
    // At its units' size even when presenting: a larger bitmap costs every frame (above).
    let Some((ctx, _)) = canvas_2d(el, width, height, 1.0, false) else {
        return;
    };
    ctx.clear_rect(0.0, 0.0, width, height);
    ctx.set_line_width(1.6);
    let s = SIDE;
    for t in tokens {
        let (x, y) = (t.x - s / 2.0, t.y - s / 2.0);
        rounded(&ctx, x, y, s, s, 2.5);
        ctx.set_fill_style_str(panel);
        ctx.fill();
        if t.fill > 0.0 {
            let fh = s * t.fill.min(1.0);
            rounded(&ctx, x, y + s - fh, s, fh, 2.5_f64.min(fh / 2.0));
            ctx.set_fill_style_str(&t.colour);
            ctx.fill();
        }
        rounded(&ctx, x, y, s, s, 2.5);
        ctx.set_stroke_style_str(&t.colour);
        ctx.stroke();
    }
}

/// A rounded rectangle's path.
fn rounded(ctx: &web_sys::CanvasRenderingContext2d, x: f64, y: f64, w: f64, h: f64, r: f64) {
    ctx.begin_path();
    ctx.move_to(x + r, y);
    let _ = ctx.arc_to(x + w, y, x + w, y + h, r);
    let _ = ctx.arc_to(x + w, y + h, x, y + h, r);
    let _ = ctx.arc_to(x, y + h, x, y, r);
    let _ = ctx.arc_to(x, y, x + w, y, r);
    ctx.close_path();
}
