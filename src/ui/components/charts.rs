//! Reusable SVG charts: a line chart on linear or log axes (series, legend, vertical markers and a
//! hover read-out of every series at the nearest x) and a stacked bar chart. Colours come from CSS
//! classes (`static/scaling.css`) through `currentColor`, so light and dark mode both work.
//! The arithmetic (scales, ticks, labels) is in [`crate::ui::model::chart_math`].

use crate::ui::i18n::{Key, Lang, gpus, trf, use_lang};
use crate::ui::model::chart_math::{
    Axis, Unit, axis_name, clear_band, format_value, nearest, pile, same_spot,
};
use std::rc::Rc;
use wasm_bindgen::JsCast;
use yew::prelude::*;

/// The SVG's own coordinate system; it scales to the width of its container.
const WIDTH: f64 = 640.0;
const HEIGHT: f64 = 340.0;
/// Room for the y axis: its title (rotated, at x = 14) and tick labels as wide as "100 GB/s" at
/// 13 px (at 80 the title ran through them).
const LEFT: f64 = 92.0;
/// Room right of the plot for half of the last x label ("8 GiB" was cut at 18).
const RIGHT: f64 = 26.0;
const TOP: f64 = 14.0;
const BOTTOM: f64 = 50.0;
const PLOT_W: f64 = WIDTH - LEFT - RIGHT;
const PLOT_H: f64 = HEIGHT - TOP - BOTTOM;

fn px(x: &Axis, v: f64) -> f64 {
    LEFT + x.fraction(v) * PLOT_W
}

fn py(y: &Axis, v: f64) -> f64 {
    TOP + (1.0 - y.fraction(v)) * PLOT_H
}

fn f(v: f64) -> String {
    format!("{v:.1}")
}

/// One point of a series; `testid` and the value attribute let tests read it.
#[derive(Clone, Debug, PartialEq)]
pub struct SeriesPoint {
    pub x: f64,
    pub y: f64,
    pub testid: Option<AttrValue>,
}

/// A line with its legend entry. `class` picks its colour (and dashes) in CSS.
#[derive(Clone, Debug, PartialEq)]
pub struct Series {
    pub label: AttrValue,
    pub class: AttrValue,
    pub points: Vec<SeriesPoint>,
    /// Whether it is a reference line (drawn without markers, not in the hover read-out).
    pub reference: bool,
}

/// A vertical marker at `x`, labelled (e.g. a crossover).
#[derive(Clone, Debug, PartialEq)]
pub struct Marker {
    pub x: f64,
    pub label: AttrValue,
    pub testid: AttrValue,
    pub title: AttrValue,
}

/// The pointer's x in the SVG's coordinates.
fn pointer_x(e: &MouseEvent) -> Option<f64> {
    let el = e.current_target()?.dyn_into::<web_sys::Element>().ok()?;
    let rect = el.get_bounding_client_rect();
    (rect.width() > 0.0).then(|| (e.client_x() as f64 - rect.left()) / rect.width() * WIDTH)
}

fn axes(x: &Axis, y: &Axis, x_label: &str, y_label: &str) -> Html {
    let x_ticks = x.ticks();
    let y_ticks = y.ticks();
    html! {
        <g class="axes">
            <rect class="plot-bg" x={f(LEFT)} y={f(TOP)} width={f(PLOT_W)} height={f(PLOT_H)} />
            { for y_ticks.iter().map(|t| {
                let yy = py(y, t.value);
                html! {
                    <g class={classes!("tick", t.label.is_none().then_some("minor"))}>
                        <line class="grid" x1={f(LEFT)} x2={f(LEFT + PLOT_W)} y1={f(yy)} y2={f(yy)} />
                        if let Some(l) = &t.label {
                            <text x={f(LEFT - 6.0)} y={f(yy + 4.0)} text-anchor="end">{ l }</text>
                        }
                    </g>
                }
            }) }
            { for x_ticks.iter().map(|t| {
                let xx = px(x, t.value);
                html! {
                    <g class={classes!("tick", t.label.is_none().then_some("minor"))}>
                        <line class="grid" x1={f(xx)} x2={f(xx)} y1={f(TOP)} y2={f(TOP + PLOT_H)} />
                        <line class="tick-mark" x1={f(xx)} x2={f(xx)} y1={f(TOP + PLOT_H)} y2={f(TOP + PLOT_H + 4.0)} />
                        if let Some(l) = &t.label {
                            <text x={f(xx)} y={f(TOP + PLOT_H + 17.0)} text-anchor="middle">{ l }</text>
                        }
                    </g>
                }
            }) }
            <line class="axis-line" x1={f(LEFT)} x2={f(LEFT + PLOT_W)} y1={f(TOP + PLOT_H)} y2={f(TOP + PLOT_H)} />
            <line class="axis-line" x1={f(LEFT)} x2={f(LEFT)} y1={f(TOP)} y2={f(TOP + PLOT_H)} />
            <text class="axis-title" x={f(LEFT + PLOT_W / 2.0)} y={f(HEIGHT - 8.0)} text-anchor="middle">{ x_label }</text>
            <text class="axis-title" transform={format!("translate(14 {}) rotate(-90)", f(TOP + PLOT_H / 2.0))} text-anchor="middle">{ y_label }</text>
        </g>
    }
}

/// A read-out box next to x position `xx`, one line per entry.
fn tooltip(xx: f64, top: f64, heading: String, lines: Vec<(AttrValue, String)>) -> Html {
    let chars = lines
        .iter()
        .map(|(_, text)| text.chars().count() + 2)
        .chain(std::iter::once(heading.chars().count()))
        .max()
        .unwrap_or(10);
    let width = 20.0 + 6.6 * chars as f64;
    let height = 22.0 + 16.0 * lines.len() as f64;
    // Right of the pointer if it fits, else left of it; never outside the SVG.
    let bx = if xx + 12.0 + width > LEFT + PLOT_W {
        (xx - 12.0 - width).max(2.0)
    } else {
        xx + 12.0
    };
    html! {
        <g class="tooltip" data-testid="chart-tooltip" pointer-events="none">
            <rect x={f(bx)} y={f(top)} width={f(width)} height={f(height)} rx="6" />
            <text class="tooltip-heading" x={f(bx + 8.0)} y={f(top + 16.0)}>{ heading }</text>
            { for lines.iter().enumerate().map(|(i, (class, text))| html! {
                <g class={class.clone()}>
                    <rect class="swatch-dot" x={f(bx + 8.0)} y={f(top + 24.0 + 16.0 * i as f64)} width="9" height="9" rx="2" />
                    <text x={f(bx + 22.0)} y={f(top + 33.0 + 16.0 * i as f64)}>{ text }</text>
                </g>
            }) }
        </g>
    }
}

/// A legend in HTML under a chart.
pub fn legend(entries: &[(AttrValue, AttrValue, bool)]) -> Html {
    html! {
        <div class="chart-legend">
            { for entries.iter().map(|(label, class, reference)| html! {
                <span class={classes!("legend-item", class.clone())}>
                    <svg class="legend-swatch" viewBox="0 0 28 10" aria-hidden="true">
                        <line x1="1" x2="27" y1="5" y2="5" class={classes!("series-line", reference.then_some("reference"))} />
                        if !*reference { <circle cx="14" cy="5" r="3.2" class="series-dot" /> }
                    </svg>
                    { label.clone() }
                </span>
            }) }
        </div>
    }
}

#[derive(Properties, PartialEq)]
pub struct LineChartProps {
    pub testid: AttrValue,
    /// What the chart shows, for screen readers and the tooltip heading.
    pub title: AttrValue,
    pub x: Axis,
    pub y: Axis,
    pub x_label: AttrValue,
    pub y_label: AttrValue,
    pub series: Rc<Vec<Series>>,
    #[prop_or_default]
    pub markers: Rc<Vec<Marker>>,
    /// The attribute each point carries its y value in, e.g. `data-speedup`.
    pub value_attr: &'static str,
}

#[component]
pub fn LineChart(props: &LineChartProps) -> Html {
    let lang = use_lang();
    let hover = use_state(|| None::<usize>);
    let (x, y) = (props.x, props.y);
    // Distinct x values across the data series, for the hover read-out.
    let xs: Rc<Vec<f64>> = {
        let mut xs: Vec<f64> = props
            .series
            .iter()
            .filter(|s| !s.reference)
            .flat_map(|s| s.points.iter().map(|p| p.x))
            .collect();
        crate::sim::order::sort_by_key(&mut xs, |x| *x);
        xs.dedup();
        Rc::new(xs)
    };
    let onmousemove = {
        let (hover, xs) = (hover.clone(), xs.clone());
        Callback::from(move |e: MouseEvent| {
            let Some(vx) = pointer_x(&e) else { return };
            let fractions: Vec<f64> = xs.iter().map(|&v| x.fraction(v)).collect();
            let at = (vx - LEFT) / PLOT_W;
            let next = if (-0.05..=1.05).contains(&at) {
                nearest(&fractions, at)
            } else {
                None
            };
            if *hover != next {
                hover.set(next);
            }
        })
    };
    let onmouseleave = {
        let hover = hover.clone();
        Callback::from(move |_| hover.set(None))
    };
    let hovered_x = hover.and_then(|i| xs.get(i).copied());

    // Where a line runs exactly along one drawn before it (the hierarchical ring is the ring on
    // one node), it is dashed there, so that the one beneath shows through its gaps: otherwise
    // the learner sees one line where the legend names two.
    let drawn = |s: &Series| -> Vec<(f64, f64)> {
        s.points
            .iter()
            .filter(|p| p.y.is_finite() && (p.y > 0.0 || !y.log))
            .map(|p| (px(&x, p.x), py(&y, p.y)))
            .collect()
    };
    let all: Vec<Vec<(f64, f64)>> = props.series.iter().map(drawn).collect();
    let data: Vec<bool> = props.series.iter().map(|s| !s.reference).collect();
    let line = |(j, s): (usize, &Series)| {
        let points = &all[j];
        let earlier = || (0..j).filter(|&i| data[i]).map(|i| &all[i]);
        // Its stretches of its own, and those along earlier lines, one path per place in the pile
        // (see `pile`).
        let mut own = String::new();
        let mut along: Vec<((usize, usize), String)> = Vec::new();
        let mut last = None;
        for (w, key) in points.windows(2).zip(pile(&all, &data, j)) {
            let d = match key {
                None => &mut own,
                Some(key) => match along.iter().position(|(k, _)| *k == key) {
                    Some(i) => &mut along[i].1,
                    None => {
                        along.push((key, String::new()));
                        &mut along.last_mut().expect("just pushed").1
                    }
                },
            };
            // A run of its own stretches is one path (its corners joined, not capped); each
            // stretch along others starts its own, so that the piled lines' dashes all start at
            // its start and stay in their slots (one line's run of two stretches put its dashes
            // out of step with a line that joined it on the second).
            if key.is_some() || last != Some(key) {
                d.push_str(&format!("M{},{}", f(w[0].0), f(w[0].1)));
            }
            d.push_str(&format!("L{},{}", f(w[1].0), f(w[1].1)));
            last = Some(key);
        }
        if points.len() == 1 {
            own = format!("M{},{}", f(points[0].0), f(points[0].1));
        }
        let d = own;
        html! {
            <g class={classes!("series", s.class.clone())}>
                <path class={classes!("series-line", s.reference.then_some("reference"))} d={d} />
                { for along.into_iter().map(|((below, lines), d)| {
                    let style = (lines > 2).then(|| format!(
                        "stroke-dasharray:7 {};stroke-dashoffset:{}", 7 * (lines - 1), 7 * (1 - below as i64)));
                    html! { <path class="series-line along" {d} {style} data-testid="series-along" /> }
                }) }
                if !s.reference {
                    { for s.points.iter().map(|p| {
                        // On a point of an earlier line, a smaller dot: the one beneath rings it.
                        let a = (px(&x, p.x), py(&y, p.y));
                        let covers = earlier().any(|other| other.iter().any(|&b| same_spot(a, b)));
                        let mut dot = html! {
                            <circle class={classes!("series-dot", (Some(p.x) == hovered_x).then_some("hovered"))}
                                    cx={f(a.0)} cy={f(a.1)} r={if covers { "2.2" } else { "3.6" }}
                                    data-testid={p.testid.clone()}>
                                <title>{ trf(lang, Key::PointAt, &[&s.label, &spoken(lang, y.unit, p.y), &spoken(lang, x.unit, p.x)]) }</title>
                            </circle>
                        };
                        if let Html::VTag(tag) = &mut dot {
                            let tag = Rc::make_mut(tag);
                            tag.add_attribute(props.value_attr, p.y.to_string());
                            tag.add_attribute("data-x", p.x.to_string());
                        }
                        dot
                    }) }
                }
            </g>
        }
    };

    // A marker's line under the series, its words over them (drawn under them, the sweep's
    // "double-binary-tree → ring" was hidden by eight of the points it names).
    let marker_lines = props.markers.iter().map(|m| {
        let xx = px(&x, m.x);
        html! {
            <g class="marker"><line x1={f(xx)} x2={f(xx)} y1={f(TOP)} y2={f(TOP + PLOT_H)} /></g>
        }
    });
    // Its words at the top of the plot, or at the bottom where lines run at the top there (the
    // bus bandwidth's plateaus ran through "double-binary-tree → ring").
    let markers = props.markers.iter().enumerate().map(|(i, m)| {
        let xx = px(&x, m.x);
        // Labels near the right edge go on the line's left.
        let left = x.fraction(m.x) > 0.6;
        // About the width of the words at the largest font the styles give them (14.5 px, bold):
        // the figure's estimate for 10-unit letters, scaled.
        let width = crate::ui::model::layout::name_width(&m.label) * 1.55;
        let (x0, x1) = if left {
            (xx - 4.0 - width, xx - 4.0)
        } else {
            (xx + 4.0, xx + 4.0 + width)
        };
        let baselines = [
            TOP + 14.0 + 15.0 * i as f64,
            TOP + PLOT_H - 6.0 - 15.0 * i as f64,
        ];
        let bands: Vec<(f64, f64)> = baselines.iter().map(|&b| (b - 13.0, b + 4.0)).collect();
        let y = baselines[clear_band(&all, x0, x1, &bands)];
        html! {
            <g class="marker" data-testid={m.testid.clone()} data-x={m.x.to_string()}>
                if left {
                    <text x={f(xx - 4.0)} y={f(y)} text-anchor="end">{ m.label.clone() }</text>
                } else {
                    <text x={f(xx + 4.0)} y={f(y)}>{ m.label.clone() }</text>
                }
                <title>{ m.title.clone() }</title>
            </g>
        }
    });

    let readout = hovered_x.map(|hx| {
        let xx = px(&x, hx);
        let lines: Vec<(AttrValue, String)> = props
            .series
            .iter()
            .filter(|s| !s.reference)
            .filter_map(|s| {
                s.points.iter().find(|p| p.x == hx).map(|p| {
                    (
                        s.class.clone(),
                        format!("{}: {}", s.label, format_value(y.unit, p.y)),
                    )
                })
            })
            .collect();
        html! {
            <>
                <line class="hover-line" x1={f(xx)} x2={f(xx)} y1={f(TOP)} y2={f(TOP + PLOT_H)} />
                { tooltip(xx, TOP + 6.0, format!("{} = {}", axis_name(&props.x_label), format_value(x.unit, hx)), lines) }
            </>
        }
    });

    let entries: Vec<(AttrValue, AttrValue, bool)> = props
        .series
        .iter()
        .map(|s| (s.label.clone(), s.class.clone(), s.reference))
        .collect();
    html! {
        <figure class="chart" data-testid={props.testid.clone()}>
            <svg class="chart-svg" viewBox={format!("0 0 {WIDTH} {HEIGHT}")} role="img"
                 aria-label={props.title.clone()} {onmousemove} {onmouseleave}>
                { axes(&x, &y, &props.x_label, &props.y_label) }
                <g class="markers">{ for marker_lines }</g>
                { for props.series.iter().enumerate().map(line) }
                <g class="markers">{ for markers }</g>
                { for readout }
            </svg>
            { legend(&entries) }
        </figure>
    }
}

/// One stacked bar: its x label and the height of each part, bottom first.
#[derive(Clone, Debug, PartialEq)]
pub struct Bar {
    pub label: AttrValue,
    pub parts: Vec<f64>,
    pub highlight: bool,
    pub testid: AttrValue,
}

#[derive(Properties, PartialEq)]
pub struct StackedBarsProps {
    pub testid: AttrValue,
    pub title: AttrValue,
    /// Name and CSS class of each part, bottom first.
    pub parts: Rc<Vec<(AttrValue, AttrValue)>>,
    pub bars: Rc<Vec<Bar>>,
    pub y: Axis,
    pub x_label: AttrValue,
    pub y_label: AttrValue,
}

#[component]
pub fn StackedBars(props: &StackedBarsProps) -> Html {
    let hover = use_state(|| None::<usize>);
    let y = props.y;
    let n = props.bars.len().max(1);
    let slot = PLOT_W / n as f64;
    let width = (slot * 0.62).min(44.0);
    let onmousemove = {
        let hover = hover.clone();
        Callback::from(move |e: MouseEvent| {
            let Some(vx) = pointer_x(&e) else { return };
            let i = ((vx - LEFT) / slot).floor();
            let next = (i >= 0.0 && (i as usize) < n).then_some(i as usize);
            if *hover != next {
                hover.set(next);
            }
        })
    };
    let onmouseleave = {
        let hover = hover.clone();
        Callback::from(move |_| hover.set(None))
    };
    let bar = |(i, b): (usize, &Bar)| {
        let cx = LEFT + slot * (i as f64 + 0.5);
        let mut base = 0.0;
        let rects = b.parts.iter().zip(props.parts.iter()).map(|(&v, (name, class))| {
            let (y0, y1) = (py(&y, base), py(&y, base + v));
            base += v;
            html! {
                <rect class={classes!("bar-part", class.clone())} x={f(cx - width / 2.0)} y={f(y1)}
                      width={f(width)} height={f((y0 - y1).max(0.0))}>
                    <title>{ format!("{}: {}", name, format_value(y.unit, v)) }</title>
                </rect>
            }
        });
        html! {
            <g class={classes!("bar", b.highlight.then_some("highlight"), (*hover == Some(i)).then_some("hovered"))}
               data-testid={b.testid.clone()} data-total={base_total(b).to_string()}>
                if b.highlight {
                    <rect class="bar-highlight" x={f(cx - slot / 2.0 + 1.0)} y={f(TOP)} width={f(slot - 2.0)} height={f(PLOT_H)} />
                }
                { for rects }
                <text class="bar-label" x={f(cx)} y={f(TOP + PLOT_H + 17.0)} text-anchor="middle">{ b.label.clone() }</text>
            </g>
        }
    };
    let readout = hover
        .and_then(|i| props.bars.get(i).map(|b| (i, b)))
        .map(|(i, b)| {
            let cx = LEFT + slot * (i as f64 + 0.5);
            let mut lines: Vec<(AttrValue, String)> = b
                .parts
                .iter()
                .zip(props.parts.iter())
                .rev()
                .map(|(&v, (name, class))| {
                    (
                        class.clone(),
                        format!("{name}: {}", format_value(y.unit, v)),
                    )
                })
                .collect();
            lines.push((
                "total".into(),
                format!("step: {}", format_value(y.unit, base_total(b))),
            ));
            tooltip(cx, TOP + 6.0, format!("{} GPUs", b.label), lines)
        });
    let entries: Vec<(AttrValue, AttrValue)> = props.parts.iter().rev().cloned().collect();
    html! {
        <figure class="chart" data-testid={props.testid.clone()}>
            <svg class="chart-svg" viewBox={format!("0 0 {WIDTH} {HEIGHT}")} role="img"
                 aria-label={props.title.clone()} {onmousemove} {onmouseleave}>
                { axes_y_only(&y, &props.x_label, &props.y_label) }
                { for props.bars.iter().enumerate().map(bar) }
                { for readout }
            </svg>
            <div class="chart-legend">
                { for entries.iter().map(|(name, class)| html! {
                    <span class={classes!("legend-item", class.clone())}>
                        <span class="bar-swatch" />{ name.clone() }
                    </span>
                }) }
            </div>
        </figure>
    }
}

fn base_total(b: &Bar) -> f64 {
    b.parts.iter().sum()
}

/// The y axis, grid and titles of a bar chart (its x labels are the bars').
fn axes_y_only(y: &Axis, x_label: &str, y_label: &str) -> Html {
    html! {
        <g class="axes">
            <rect class="plot-bg" x={f(LEFT)} y={f(TOP)} width={f(PLOT_W)} height={f(PLOT_H)} />
            { for y.ticks().iter().map(|t| {
                let yy = py(y, t.value);
                html! {
                    <g class="tick">
                        <line class="grid" x1={f(LEFT)} x2={f(LEFT + PLOT_W)} y1={f(yy)} y2={f(yy)} />
                        if let Some(l) = &t.label {
                            <text x={f(LEFT - 6.0)} y={f(yy + 4.0)} text-anchor="end">{ l }</text>
                        }
                    </g>
                }
            }) }
            <line class="axis-line" x1={f(LEFT)} x2={f(LEFT + PLOT_W)} y1={f(TOP + PLOT_H)} y2={f(TOP + PLOT_H)} />
            <line class="axis-line" x1={f(LEFT)} x2={f(LEFT)} y1={f(TOP)} y2={f(TOP + PLOT_H)} />
            <text class="axis-title" x={f(LEFT + PLOT_W / 2.0)} y={f(HEIGHT - 8.0)} text-anchor="middle">{ x_label }</text>
            <text class="axis-title" transform={format!("translate(14 {}) rotate(-90)", f(TOP + PLOT_H / 2.0))} text-anchor="middle">{ y_label }</text>
        </g>
    }
}

/// A point's value as its tooltip says it: a count (the charts count GPUs) and a multiple in the
/// page's words (the speedup chart's read "环形：8 时 6.37×", now "环形：8 张卡时 6.37 倍").
fn spoken(lang: Lang, unit: Unit, v: f64) -> String {
    match (unit, lang) {
        (Unit::Count, _) => gpus(lang, v.round() as usize),
        (Unit::Times, Lang::Zh) => format!("{} 倍", format_value(unit, v).trim_end_matches('×')),
        _ => format_value(unit, v),
    }
}
