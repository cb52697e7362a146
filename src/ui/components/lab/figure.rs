//! The figures: the cluster with its links loaded and chunks moving, each rank's buffer, the hovered
//! link's numbers, and a per-link timeline. All read one trace at one cursor.
//!
//! Size: over 450 lines because the cluster figure and its interactive parts (links, GPUs, faults,
//! the hovered link) read one layout; the buffers and the timeline are in their own files.

use super::tokens::{SIDE as TOKEN_SIDE, Token, Tokens};
use crate::sim::faults::{Cable, Faults};
use crate::sim::replay::link_load_at;
use crate::sim::topology::{Endpoint, Tier, Topology};
use crate::sim::trace::Trace;
use crate::sim::units::{
    Bandwidth, format_bandwidth, format_bandwidth_bits, format_bytes, format_secs,
};
use crate::ui::components::app::Shared;
use crate::ui::i18n::{
    Key, Lang, algorithm_label, percent, place_name, tr, trf, unit_kind_name, use_lang,
};
use crate::ui::model::cursor::chunk_hue;
use crate::ui::model::layout::{
    Anchor, DrawnLink, NAME_AFTER, NAME_LETTERS_MAX, Place, Point, link_place, name_width,
};
use crate::ui::model::logic::Edit;
use crate::ui::model::share::faults_fit_a_link;
use crate::ui::model::state::Side;
use crate::ui::model::view::Status;
use std::rc::Rc;
use yew::prelude::*;

/// At most this many chunks in flight are drawn (the rest would only be a blur).
const MAX_TOKENS: usize = 512;

pub fn tier_class(tier: Tier) -> &'static str {
    match tier {
        Tier::Gpu => "tier-gpu",
        Tier::Node => "tier-node",
        Tier::Rack => "tier-rack",
    }
}

pub fn tier_title(lang: Lang, tier: Tier, topo: &Topology) -> &'static str {
    tr(lang, tier_key(tier, topo))
}

fn tier_key(tier: Tier, topo: &Topology) -> Key {
    match tier {
        Tier::Gpu if topo.is_uniform() => Key::TierLegendPort,
        Tier::Gpu => Key::TierLegendGpu,
        Tier::Node if topo.is_rail() => Key::TierLegendRailNic,
        Tier::Node => Key::TierLegendNode,
        Tier::Rack if topo.is_rail() => Key::TierLegendRailSpine,
        Tier::Rack => Key::TierLegendRack,
    }
}

pub(super) fn chunk_colour(c: usize, chunks: usize) -> String {
    format!("hsl({} 62% 52%)", chunk_hue(c, chunks).round() as u32)
}

/// The load of a drawn line: its links' total rate over their total capacity.
fn line_load(trace: &Trace, line: &DrawnLink, t: f64) -> f64 {
    let (mut rate, mut cap) = (0.0, 0.0);
    for &l in &line.links {
        let c = trace.topology.links()[l].bandwidth.bytes_per_sec();
        rate += link_load_at(trace, l, t) * c;
        cap += c;
    }
    if cap > 0.0 {
        (rate / cap).clamp(0.0, 1.0)
    } else {
        0.0
    }
}

#[derive(Properties, PartialEq)]
pub struct FigureProps {
    pub sim: Shared,
    pub t_secs: f64,
    pub side: Side,
    pub hover: Option<usize>,
    pub on_hover: Callback<Option<(Side, usize)>>,
    /// A link was clicked or tapped: its numbers (and its "Slow this cable") stay once the
    /// pointer leaves the figure.
    #[prop_or_default]
    pub on_pin: Callback<(Side, usize)>,
    /// A GPU was clicked: make it a straggler, or punctual again.
    #[prop_or_default]
    pub on_gpu: Callback<usize>,
    /// The GPUs that join late, drawn as such.
    #[prop_or_default]
    pub stragglers: Vec<usize>,
}

#[component]
pub fn Figure(props: &FigureProps) -> Html {
    let lang = use_lang();
    let view = &props.sim.0;
    // Per drawn link: unused in the run, slowed (see `SimView::line_marks`), once per run.
    let marks = use_memo(props.sim.clone(), |sim| sim.0.line_marks());
    // Whether the racks are numbered (a scan of every switch's name spots against every drawn
    // link), once per run and language, not in every frame of its playing.
    let racks_numbered = use_memo((props.sim.clone(), lang), |(sim, lang)| {
        sim.0.layout.rack_names_crowded(|p| place_name(*lang, p))
    });
    let shown = view.shown_algorithm();
    let title = html! {
        <h2 class="run-title">
            <span class="alg" data-testid="figure-algorithm" data-algorithm={shown.name()}>{ algorithm_label(lang, shown) }</span>
            if let Ok(sim) = &view.result {
                if sim.auto.is_some() { <span class="muted">{ tr(lang, Key::ChosenByAuto) }</span> }
            }
        </h2>
    };
    let Some(trace) = view.trace() else {
        if view.status != Status::Done {
            // Still running (its progress is shown above) or cancelled: nothing to draw yet.
            return html! { <div class="figure-wrap" data-testid="figure-pending">{ title }</div> };
        }
        let msg = match &view.refused {
            Some((gpus, over)) => trf(
                lang,
                if crate::ui::model::view::beyond_the_cli(over) {
                    Key::RefusedRunCore
                } else {
                    Key::RefusedRun
                },
                &[
                    algorithm_label(lang, view.requested),
                    &gpus.to_string(),
                    &over.cost.transfers.to_string(),
                    &crate::sim::units::format_bytes(over.cost.peak_bytes_for(&over.budget) as f64),
                ],
            ),
            None => view
                .result
                .as_ref()
                .err()
                .map(|e| crate::ui::i18n::errors::scenario_error(lang, e))
                .unwrap_or_default(),
        };
        return html! {
            <div class="figure-wrap">
                { title }
                <p class="error" role="alert" data-testid="scenario-error">{ msg }</p>
            </div>
        };
    };
    let t = props.t_secs;
    let layout = &view.layout;
    let n = trace.topology.ranks();
    let chunks = trace.schedule.chunks();
    let cells = view.replay.cells_at(trace, t);
    let uniform = trace.topology.is_uniform();

    let boxes = html! { <GroupBoxes sim={props.sim.clone()} /> };

    let mark = |i: usize| marks.get(i).copied().unwrap_or_default();
    let any_unused = marks.iter().any(|m| m.0);
    let lines = layout
        .lines
        .iter()
        .enumerate()
        .map(|(i, line)| {
            html! {
                <LinkLine index={i} tier={line.tier} from={line.from} to={line.to}
                          load={quantise(line_load(trace, line, t), 40.0)} hovered={props.hover == Some(i)}
                          unused={mark(i).0} slowed={mark(i).1}
                          side={props.side} on_hover={props.on_hover.clone()} on_pin={props.on_pin.clone()} />
            }
        })
        .collect::<Html>();

    let switches = html! { <Switches sim={props.sim.clone()} /> };

    let complete_share = |lo: usize, hi: usize| {
        let row = &cells[lo * chunks..hi * chunks];
        row.iter().filter(|&&c| c as usize == n).count() as f64 / row.len().max(1) as f64
    };

    let gpus = layout
        .gpus
        .iter()
        .enumerate()
        .map(|(r, &at)| {
            html! { <GpuBox rank={r} at={at} size={layout.gpu_size} done={quantise(complete_share(r, r + 1), 64.0)}
                            late={props.stragglers.contains(&r)} on_click={props.on_gpu.clone()} /> }
        })
        .collect::<Html>();

    let units = layout.units.iter().map(|u| {
        let done = complete_share(u.first_rank, u.first_rank + u.ranks);
        let ports: Vec<usize> = (u.first_rank..u.first_rank + u.ranks).collect();
        let port_load = line_load(trace, &DrawnLink { links: ports, tier: Tier::Gpu, from: Default::default(), to: Default::default(), up: true }, t);
        let r = &u.rect;
        html! {
            <g class="unit" data-testid="unit">
                <rect class="unit-body" x={f(r.x)} y={f(r.y)} width={f(r.w)} height={f(r.h)} rx="5" />
                <rect class="unit-done" x={f(r.x)} y={f(r.y + r.h * (1.0 - done))} width={f(r.w)} height={f(r.h * done)} rx="5" />
                <rect class="unit-load tier-gpu" x={f(r.x + 3.0)} y={f(r.y + 3.0)} width={f((r.w - 6.0) * port_load)} height="4" />
                <text class="unit-label" transform={format!("translate({:.1},{:.1}) rotate(-90)", r.x + r.w / 2.0 + 4.0, r.y + r.h - 6.0)}>{ place_name(lang, &u.label) }</text>
            </g>
        }
    }).collect::<Html>();

    // A rail network: above each rail's leaf switch, the share of its NICs' capacity in use now
    // and the bytes they have carried so far.
    let rails = layout.rails.iter().map(|mark| {
        let line = DrawnLink { links: mark.links.clone(), tier: Tier::Node, from: Default::default(), to: Default::default(), up: true };
        let load = quantise(line_load(trace, &line, t), 40.0);
        let carried: f64 = mark.links.iter().map(|&l| trace.link_bytes_until(l, t)).sum();
        let (x, y) = (mark.at.x - 20.0, mark.at.y - 17.0);
        let name = place_name(lang, &Place::End(Endpoint::Rail(mark.rail)));
        html! {
            <g class="rail-load" data-testid="rail-load" data-rail={mark.rail.to_string()} data-load={fixed(load, 100)} data-bytes={format!("{carried:.0}")}>
                <text x={f(mark.at.x)} y={f(y - 4.0)}>{ format!("{name} · {}", format_bytes(carried)) }</text>
                <rect class="rail-load-track" x={f(x)} y={f(y)} width="40" height="5" rx="2" />
                <rect class="rail-load-bar tier-node" x={f(x)} y={f(y)} width={f(40.0 * load)} height="5" rx="2" />
            </g>
        }
    }).collect::<Html>();

    let in_flight = view.replay.in_flight(trace, t);
    let in_flight_count = in_flight.len();
    let tokens: Vec<Token> = if layout.detailed {
        in_flight
            .into_iter()
            .take(MAX_TOKENS)
            .filter_map(|fl| {
                let tr = trace.transfer(fl.transfer);
                let at = layout.along_route(
                    trace.route(fl.transfer).links(),
                    fl.progress,
                    TOKEN_SIDE,
                )?;
                let c = tr.chunk_lo() as usize;
                let held = cells[tr.src() as usize * chunks + c];
                Some(Token {
                    x: at.x,
                    y: at.y,
                    colour: chunk_colour(c, chunks),
                    fill: held as f64 / n as f64,
                })
            })
            .collect()
    } else {
        Vec::new()
    };

    let leave = {
        let cb = props.on_hover.clone();
        Callback::from(move |_: MouseEvent| cb.emit(None))
    };
    // The keyboard's way to a link's numbers (and its "Slow this cable", the next stop of Tab):
    // the figure takes focus, ↓ and ↑ pin the next and the previous drawn link (the pointer's
    // hover and click had no counterpart; ← → stay the play bar's steps).
    let on_key = {
        let (cb, side, at, count) = (
            props.on_pin.clone(),
            props.side,
            props.hover,
            layout.lines.len(),
        );
        Callback::from(move |e: KeyboardEvent| {
            let forward = match e.key().as_str() {
                "ArrowDown" => true,
                "ArrowUp" => false,
                _ => return,
            };
            e.prevent_default();
            if let Some(next) = next_line(at, count, forward) {
                cb.emit((side, next));
            }
        })
    };
    // The tiers whose links are drawn: an aggregated view draws no GPU links (nor NICs when its
    // units are racks), and its legend named them all the same.
    let tiers: Vec<Tier> = if uniform {
        vec![Tier::Gpu]
    } else {
        Tier::ALL
            .into_iter()
            .filter(|&t| layout.lines.iter().any(|l| l.tier == t))
            .collect()
    };
    html! {
        <div class="figure-wrap">
            { title }
            // On a phone the drawing scrolls sideways in a box of its own; the title and the
            // legend wrap at the page's width, outside it (inside, its fade hid their last words).
            <div class="figure-scroll"><div class="figure-stack">
                <svg class="figure" viewBox={format!("0 0 {:.0} {:.0}", layout.width, layout.height)}
                     role="img" aria-label={trf(lang, Key::FigureAria, &[&n.to_string(), &in_flight_count.to_string()])}
                     data-testid="cluster-figure" data-in-flight={in_flight_count.to_string()} data-t={format!("{t:e}")}
                     data-sim-ms={format!("{:.2}", view.sim_ms)} data-algorithm={view.requested.name()} data-wasm-memory={view.memory_bytes.to_string()} onmouseleave={leave}
                     tabindex="0" onkeydown={on_key}>
                    { boxes }{ lines }{ switches }{ rails }{ gpus }{ units }
                </svg>
                <Tokens tokens={Rc::new(tokens)} width={layout.width} height={layout.height} />
            </div></div>
            <div class="legend">
                { for tiers.iter().map(|&tier| html! {
                    <span class="legend-item"><svg class="swatch" viewBox="0 0 28 10"><line class={classes!("link-swatch", tier_class(tier))} x1="1" y1="5" x2="27" y2="5" /></svg>{ tier_title(lang, tier, &trace.topology) }</span>
                }) }
                <span class="legend-item muted">{ tr(lang, Key::LegendBusier) }</span>
                if any_unused {
                    <span class="legend-item muted" data-testid="unused-legend"><svg class="swatch" viewBox="0 0 28 10"><line class="link-swatch unused" x1="1" y1="5" x2="27" y2="5" /></svg>{ tr(lang, Key::LegendUnused) }</span>
                }
                if !layout.rails.is_empty() {
                    <span class="legend-item muted" data-testid="rail-legend">{ tr(lang, Key::LegendRails) }</span>
                }
                if *racks_numbered {
                    <span class="legend-item muted" data-testid="rack-number-legend">{ tr(lang, Key::LegendRackNumbers) }</span>
                }
                // One GPU sends no chunk: no legend for one.
                if layout.detailed && n > 1 {
                    <span class="legend-item"><span class="token-swatch" />{ trf(lang, Key::LegendChunk, &[&chunks.to_string(), &n.to_string()]) }</span>
                    // The bar that grows under each GPU (learners saw green specks, unexplained).
                    <span class="legend-item" data-testid="done-legend"><svg class="swatch done-swatch" viewBox="0 0 16 16"><rect class="gpu-body" x="2" y="1" width="12" height="10" rx="2" /><rect class="gpu-done" x="2" y="13" width="8" height="3" rx="1.5" /></svg>{ tr(lang, Key::LegendDone) }</span>
                } else if !layout.detailed {
                    <span class="legend-item muted">{ trf(lang, Key::LegendUnits, &[&n.to_string(), &unit_kind_name(lang, layout.unit_name)]) }</span>
                }
            </div>
        </div>
    }
}

/// The drawn link after (or before) `at` of `count`, round the figure; the first (or the last)
/// when none is chosen; none when nothing is drawn.
fn next_line(at: Option<usize>, count: usize, forward: bool) -> Option<usize> {
    if count == 0 {
        return None;
    }
    Some(match (at.filter(|&i| i < count), forward) {
        (None, true) => 0,
        (None, false) => count - 1,
        (Some(i), true) => (i + 1) % count,
        (Some(i), false) => (i + count - 1) % count,
    })
}

/// `x` with one decimal. Per-frame attributes are many: this avoids the float formatter, which is
/// slow in WebAssembly.
pub(super) fn f(x: f64) -> String {
    fixed(x, 10)
}

/// `x` rounded to 1/`scale` (10 or 100) as a decimal string, through integers.
pub(super) fn fixed(x: f64, scale: i64) -> String {
    let v = (x * scale as f64).round() as i64;
    let sign = if v < 0 { "-" } else { "" };
    let (whole, frac) = (v.abs() / scale, v.abs() % scale);
    if scale == 100 {
        format!("{sign}{whole}.{frac:02}")
    } else {
        format!("{sign}{whole}.{frac}")
    }
}

/// Rounds to steps of 1/`steps`, so that props of unchanged-looking elements compare equal and Yew
/// skips them.
pub(super) fn quantise(x: f64, steps: f64) -> f64 {
    (x * steps).round() / steps
}

#[derive(Properties, PartialEq)]
struct StaticProps {
    sim: Shared,
}

/// Racks and nodes as boxes; drawn once per run, not every frame.
#[component]
fn GroupBoxes(props: &StaticProps) -> Html {
    let lang = use_lang();
    let layout = &props.sim.0.layout;
    let racks = layout.racks.iter().map(|b| {
        let name = place_name(lang, &b.label);
        // The box's name where it clears the rack's switch at the top centre, at the largest
        // letters it is drawn in: a one-node rack's box is too narrow, and its switch, named
        // beside it, says it alone (the two names sat on each other at 1 GPU).
        let clear = 8.0 + name_width(&name) * NAME_LETTERS_MAX / 10.0 <= b.rect.w / 2.0 - 16.0;
        html! {
            <g class="rack-box">
                <rect x={f(b.rect.x)} y={f(b.rect.y)} width={f(b.rect.w)} height={f(b.rect.h)} rx="10" />
                if clear {
                    <text x={f(b.rect.x + 8.0)} y={f(b.rect.y + 14.0)}>{ name }</text>
                }
            </g>
        }
    });
    let nodes = layout.nodes.iter().map(|b| {
        html! {
            <g class="node-box">
                <rect x={f(b.rect.x)} y={f(b.rect.y)} width={f(b.rect.w)} height={f(b.rect.h)} rx="7" />
            </g>
        }
    });
    racks.chain(nodes).collect::<Html>()
}

/// The class that anchors a switch's name as its spot says (see `Layout::name_spot`).
fn anchor_class(anchor: Anchor) -> Option<&'static str> {
    match anchor {
        Anchor::Start => None,
        Anchor::Middle => Some("name-above"),
        Anchor::End => Some("name-before"),
    }
}

/// The switches; drawn once per run.
#[component]
fn Switches(props: &StaticProps) -> Html {
    let lang = use_lang();
    let layout = &props.sim.0.layout;
    // Racks side by side too close for their names anywhere clear (32 racks at 512 GPUs): every
    // rack switch is numbered instead, its name in its tooltip (the names ran into the next
    // switch and off the figure's edges).
    let rack_numbers = layout.rack_names_crowded(|p| place_name(lang, p));
    layout
        .switches
        .iter()
        .map(|s| {
            // The spine between two rows of racks is a bar (`spine_width`).
            let bar = if s.label == Place::End(Endpoint::Spine) { layout.spine_width } else { 0.0 };
            let w = bar.max(18.0);
            let name = place_name(lang, &s.label);
            let label = match s.label {
                // Too narrow beside the switch: under the node's box, its number alone if even
                // that is too narrow for the name.
                Place::End(Endpoint::NodeSwitch(node)) if layout.node_names_under => {
                    let at = layout.name_under(node);
                    let text = if name_width(&name) <= layout.nodes[node].rect.w - 4.0 { name } else { node.to_string() };
                    html! { <text class="name-under" x={f(at.x)} y={f(at.y)}>{ text }</text> }
                }
                // A rail's leaf switch is named by its load mark.
                _ if name.is_empty() => Html::default(),
                // The spine drawn as a bar: its name after its right end, where no uplink is.
                _ if bar > 0.0 => html! { <text x={f(s.at.x + w / 2.0 + NAME_AFTER - 9.0)} y={f(s.at.y + 4.0)}>{ name }</text> },
                Place::End(Endpoint::RackSwitch(rack)) if rack_numbers => {
                    let number = rack.to_string();
                    let spot = layout.name_spot(&s.label, s.at, w, name_width(&number));
                    let class = anchor_class(spot.anchor);
                    html! { <text class={classes!(class)} x={f(spot.x)} y={f(spot.y)} data-testid="rack-number"><title>{ name }</title>{ number }</text> }
                }
                // Off the links (see `Layout::name_spot`).
                _ => {
                    let spot = layout.name_spot(&s.label, s.at, w, name_width(&name));
                    let class = anchor_class(spot.anchor);
                    html! { <text class={classes!(class)} x={f(spot.x)} y={f(spot.y)}>{ name }</text> }
                }
            };
            html! {
                <g class="switch">
                    <rect x={f(s.at.x - w / 2.0)} y={f(s.at.y - 6.0)} width={f(w)} height="12" rx="3" />
                    { label }
                </g>
            }
        })
        .collect::<Html>()
}

#[derive(Properties, PartialEq)]
struct LinkLineProps {
    index: usize,
    tier: Tier,
    from: Point,
    to: Point,
    /// Share of capacity in use, 0..=1.
    load: f64,
    hovered: bool,
    /// No byte crosses it in the whole run (the uplinks of a cluster in one rack): drawn faint
    /// and dashed, so that the figure shows which links the run can use at all.
    unused: bool,
    /// Its cable is slowed (a fault): drawn with a red halo.
    slowed: bool,
    side: Side,
    on_hover: Callback<Option<(Side, usize)>>,
    on_pin: Callback<(Side, usize)>,
}

/// One drawn link: thicker and darker with its load; hover or tap shows its numbers.
#[component]
fn LinkLine(props: &LinkLineProps) -> Html {
    let load = props.load;
    let width = 1.2 + 5.0 * load;
    let opacity = 0.28 + 0.72 * load;
    let enter = {
        let (cb, side, i) = (props.on_hover.clone(), props.side, props.index);
        Callback::from(move |_: MouseEvent| cb.emit(Some((side, i))))
    };
    let pin = {
        let (cb, side, i) = (props.on_pin.clone(), props.side, props.index);
        Callback::from(move |_: MouseEvent| cb.emit((side, i)))
    };
    let (x1, y1, x2, y2) = (
        f(props.from.x),
        f(props.from.y),
        f(props.to.x),
        f(props.to.y),
    );
    html! {
        <g class={classes!("link", tier_class(props.tier), props.hovered.then_some("hovered"), props.unused.then_some("unused"), props.slowed.then_some("slowed"))}
           data-testid="link" data-load={fixed(load, 100)} data-line={props.index.to_string()}>
            <line class="wire" x1={x1.clone()} y1={y1.clone()} x2={x2.clone()} y2={y2.clone()}
                  style={format!("stroke-width:{};stroke-opacity:{}", fixed(width, 100), fixed(opacity, 100))} />
            <line class="hit" {x1} {y1} {x2} {y2} onmouseenter={enter} onclick={pin} />
        </g>
    }
}

#[derive(Properties, PartialEq)]
struct GpuBoxProps {
    rank: usize,
    at: Point,
    size: f64,
    /// Share of its buffer that holds every contribution.
    done: f64,
    late: bool,
    on_click: Callback<usize>,
}

#[component]
fn GpuBox(props: &GpuBoxProps) -> Html {
    let (p, s) = (props.at, props.size);
    let onclick = {
        let (cb, r) = (props.on_click.clone(), props.rank);
        Callback::from(move |_: MouseEvent| cb.emit(r))
    };
    html! {
        <g class={classes!("gpu", props.late.then_some("late"))} data-testid={format!("gpu-{}", props.rank)}
           data-late={props.late.to_string()} {onclick}>
            <rect class="gpu-body" x={f(p.x - s / 2.0)} y={f(p.y - s / 2.0)} width={f(s)} height={f(s)} rx="4" />
            <rect class="gpu-done" x={f(p.x - s / 2.0)} y={f(p.y + s / 2.0 + 3.0)} width={f(s * props.done)} height="3" rx="1.5" />
            <text class="gpu-label" x={f(p.x)} y={f(p.y + 4.0)}>{ props.rank }</text>
        </g>
    }
}

#[derive(Properties, PartialEq)]
pub struct FaultsLineProps {
    pub faults: Faults,
}

/// The lab's faults in words, or how to make one.
#[component]
pub fn FaultsLine(props: &FaultsLineProps) -> Html {
    let lang = use_lang();
    let f = &props.faults;
    if f.is_empty() {
        return html! { <p class="faults muted" data-testid="faults">{ tr(lang, Key::FaultsHint) }</p> };
    }
    let items = fault_words(lang, f);
    html! {
        <p class="faults" data-testid="faults" data-count={items.len().to_string()}>
            <strong>{ tr(lang, Key::ShortestStave) }</strong>{ items.join(lang.pick("; ", "；")) }
            if !faults_fit_a_link(f) {
                <span class="muted" data-testid="faults-not-in-link">{ tr(lang, Key::FaultsNotInLink) }</span>
            }
        </p>
    }
}

/// Each fault in words: a slowed cable's share of its bandwidth, a late GPU's delay.
pub fn fault_words(lang: Lang, f: &Faults) -> Vec<String> {
    f.slow_links
        .iter()
        .map(|s| {
            let (a, b) = s.cable.ends();
            trf(
                lang,
                Key::FaultSlow,
                &[
                    &place_name(lang, &Place::Cable(a, b)),
                    &percent(lang, s.factor, 0),
                ],
            )
        })
        .chain(f.stragglers.iter().map(|s| {
            trf(
                lang,
                Key::FaultLate,
                &[&s.rank.to_string(), &format_secs(s.delay_secs)],
            )
        }))
        .collect()
}

#[derive(Properties, PartialEq)]
pub struct LinkInfoProps {
    pub sim: Shared,
    pub t_secs: f64,
    pub line: Option<usize>,
    /// The lab's faults, to slow or restore the shown cable (absent outside the lab).
    #[prop_or_default]
    pub faults: Option<Faults>,
    #[prop_or_default]
    pub on_edit: Callback<Edit>,
    /// Make a GPU a straggler, or punctual again (as clicking it in the figure does).
    #[prop_or_default]
    pub on_gpu: Callback<usize>,
}

/// The hovered (or tapped) link: bandwidth, bytes carried so far, busy share so far.
#[component]
pub fn LinkInfo(props: &LinkInfoProps) -> Html {
    let lang = use_lang();
    let view = &props.sim.0;
    let (Some(trace), Some(i)) = (view.trace(), props.line) else {
        return html! { <p class="link-info muted" data-testid="link-info">{ tr(lang, Key::LinkHint) }</p> };
    };
    let Some(line) = view.layout.lines.get(i) else {
        return Html::default();
    };
    let t = props.t_secs;
    let bw: f64 = line
        .links
        .iter()
        .map(|&l| trace.topology.links()[l].bandwidth.bytes_per_sec())
        .sum();
    let bytes: f64 = line
        .links
        .iter()
        .map(|&l| trace.link_bytes_until(l, t))
        .sum();
    let busy: f64 = line
        .links
        .iter()
        .map(|&l| trace.link_busy_until(l, t))
        .sum::<f64>()
        / line.links.len().max(1) as f64;
    let name = if line.links.len() == 1 {
        place_name(lang, &link_place(&trace.topology, line.links[0]))
    } else {
        trf(
            lang,
            Key::LinksOf,
            &[
                &line.links.len().to_string(),
                &unit_kind_name(lang, view.layout.unit_name),
                tr(lang, if line.up { Key::Up } else { Key::Down }),
            ],
        )
    };
    let bw = Bandwidth::from_bytes_per_sec(bw);
    // One cable can be slowed from here: the shortest stave, made on purpose. A GPU's own link
    // also offers what a click on the GPU does (from the keyboard, the only way).
    let actions = match (&props.faults, line.links.as_slice()) {
        (Some(faults), &[l]) => {
            let link = &trace.topology.links()[l];
            let cable = Cable::new(link.from, link.to);
            let slowed = faults
                .slow_links
                .iter()
                .any(|s| s.cable.carries(link.from, link.to));
            let on = props.on_edit.clone();
            let onclick = Callback::from(move |_: MouseEvent| on.emit(Edit::ToggleCable(cable)));
            let late = match (link.from, link.to) {
                (Endpoint::Rank(rank), _) | (_, Endpoint::Rank(rank)) => {
                    let is_late = faults.stragglers.iter().any(|s| s.rank == rank);
                    let on = props.on_gpu.clone();
                    let onclick = Callback::from(move |_: MouseEvent| on.emit(rank));
                    html! {
                        <button type="button" class="slow-link" data-testid="late-gpu" data-late={is_late.to_string()} {onclick}>
                            { trf(lang, if is_late { Key::GpuOnTime } else { Key::GpuJoinLate }, &[&rank.to_string()]) }
                        </button>
                    }
                }
                _ => Html::default(),
            };
            html! {
                <>
                    <button type="button" class="slow-link" data-testid="slow-link" data-slowed={slowed.to_string()} {onclick}>
                        { tr(lang, if slowed { Key::RestoreCable } else { Key::SlowCable }) }
                    </button>
                    { late }
                </>
            }
        }
        _ => Html::default(),
    };
    html! {
        <p class="link-info" data-testid="link-info">{ actions }
            <strong>{ name }</strong>{ " · " }{ tier_title(lang, line.tier, &trace.topology) }
            { " · " }{ format_bandwidth(bw) }{ " (" }{ format_bandwidth_bits(bw) }{ ")" }
            { tr(lang, Key::Carried) }<span data-testid="link-bytes">{ format_bytes(bytes) }</span>
            { tr(lang, Key::BusySoFar) }{ if t > 0.0 { percent(lang, busy / t, 0) } else { "—".into() } }{ tr(lang, Key::OfTheTime) }
        </p>
    }
}
