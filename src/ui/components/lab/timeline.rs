//! A per-link timeline: one row per link, its load over the run as bars (a Gantt chart of the
//! network), drawn from the trace's rate changes.

use super::figure::{f, fixed, tier_class};
use crate::sim::topology::{Tier, Topology};
use crate::sim::trace::Trace;
use crate::sim::units::format_secs;
use crate::ui::components::app::Shared;
use crate::ui::i18n::{Key, place_name, tr, trf, use_lang};
use crate::ui::model::layout::link_place;
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct LinkTimelineProps {
    pub sim: Shared,
    pub t_secs: f64,
    pub end_secs: f64,
    /// Half as many units of time across: two runs compared, each in half the width (at the full
    /// 640 units their links' names came out at 5 px, side by side at 1440 px).
    #[prop_or_default]
    pub narrow: bool,
}

/// At most this many links get a row in the timeline.
const MAX_ROWS: usize = 24;
const GANTT_W: f64 = 640.0;
const GANTT_LABEL: f64 = 120.0;
const GANTT_ROW: f64 = 11.0;
/// Units of time across: [`GANTT_W`], or half as many when the timeline is narrow.
fn gantt_w(narrow: bool) -> f64 {
    if narrow { GANTT_W / 2.0 } else { GANTT_W }
}

/// The links worth a row, in the order drawn: cross-rack uplinks, then NICs, then GPU links, each
/// tier busiest first; and how many links carried data (of which the first [`MAX_ROWS`] get one).
fn timeline_links(trace: &Trace) -> (Vec<usize>, usize) {
    let tier_rank = |l: usize| match trace.topology.links()[l].tier {
        Tier::Rack => 0,
        Tier::Node => 1,
        Tier::Gpu => 2,
    };
    let mut used: Vec<usize> = (0..trace.links.len())
        .filter(|&l| trace.links[l].bytes > 0.0)
        .collect();
    // By tier, then busiest first, then by index (`used` is in index order): stable sorts by the
    // minor key first (sim::order: no sort compiled for this site alone).
    crate::sim::order::sort_by_key(&mut used, |&l| -trace.links[l].bytes);
    crate::sim::order::sort_by_key(&mut used, |&l| tier_rank(l) as f64);
    let carried = used.len();
    used.truncate(MAX_ROWS);
    (used, carried)
}

/// The tiers of these links, each once, in their order.
fn tiers_shown(trace: &Trace, links: &[usize]) -> Vec<Tier> {
    let mut tiers: Vec<Tier> = Vec::new();
    for &l in links {
        let tier = trace.topology.links()[l].tier;
        if !tiers.contains(&tier) {
            tiers.push(tier);
        }
    }
    tiers
}

/// The order of the rows in words, naming only the tiers that have one (it said "cross-rack
/// uplinks first, then NICs" of 8 GPUs on one NVLink switch), as the network's kind names them
/// (a rail network has no racks, a uniform one ports rather than GPU links).
fn tier_order(lang: crate::ui::i18n::Lang, topo: &Topology, tiers: &[Tier]) -> String {
    let names: Vec<&str> = tiers
        .iter()
        .map(|t| {
            tr(
                lang,
                match t {
                    Tier::Rack if topo.is_rail() => Key::TimelineTierRailSpine,
                    Tier::Rack => Key::TimelineTierRack,
                    Tier::Node => Key::TierNics,
                    Tier::Gpu if topo.is_uniform() => Key::TimelineTierPorts,
                    Tier::Gpu => Key::TierGpuLinks,
                },
            )
        })
        .collect();
    match names[..] {
        [a] => trf(lang, Key::TimelineOrderOne, &[a]),
        [a, b] => trf(lang, Key::TimelineOrderTwo, &[a, b]),
        [a, b, c] => trf(lang, Key::TimelineOrderThree, &[a, b, c]),
        // No link carried data: there are no rows to order.
        _ => String::new(),
    }
}

/// When each link was busy (Gantt-style), with the cursor as a vertical line.
#[component]
pub fn LinkTimeline(props: &LinkTimelineProps) -> Html {
    let lang = use_lang();
    let view = &props.sim.0;
    let Some(trace) = view.trace() else {
        return Html::default();
    };
    let (links, carried) = timeline_links(trace);
    let rows = links.len();
    let order = tier_order(lang, &trace.topology, &tiers_shown(trace, &links));
    // Say when links are left out (it read "24 links" as if that were all of them). No link
    // carried data (one GPU): no rows, nothing to say of them.
    let note = if rows == 0 {
        String::new()
    } else if rows < carried {
        trf(
            lang,
            Key::TimelineNoteSome,
            &[&rows.to_string(), &carried.to_string(), &order],
        )
    } else {
        trf(lang, Key::TimelineNote, &[&rows.to_string(), &order])
    };
    let w = gantt_w(props.narrow);
    let x = GANTT_LABEL
        + w * if props.end_secs > 0.0 {
            (props.t_secs / props.end_secs).clamp(0.0, 1.0)
        } else {
            0.0
        };
    let height = gantt_height(rows);
    let view_box = format!("0 0 {:.0} {height:.0}", GANTT_LABEL + w + 8.0);
    html! {
        <div class="timeline">
            <h3>{ tr(lang, Key::TimelineTitle) }<span class="muted" data-testid="timeline-note">{ note }</span></h3>
            // The cursor lives on its own layer: moving it must not repaint thousands of bars.
            // On a phone the chart scrolls sideways in a box of its own, under the heading, and
            // the links' names stay at its left edge.
            <div class="gantt-scroll"><div class={classes!("gantt-wrap", props.narrow.then_some("narrow"))}>
                <GanttBars sim={props.sim.clone()} end_secs={props.end_secs} narrow={props.narrow} />
                <svg class="gantt-cursor" viewBox={view_box} aria-hidden="true">
                    <line class="cursor" x1={f(x)} x2={f(x)} y1="0" y2={f(height - 14.0)} />
                </svg>
            </div></div>
        </div>
    }
}

/// The timeline's height in its units, with `rows` rows and the time axis under them.
fn gantt_height(rows: usize) -> f64 {
    rows as f64 * GANTT_ROW + 18.0
}

/// Busy spans `(start, stop, load)` over a run of `end_secs`, drawn into `columns` pixel columns:
/// each column gets its average load (quantised to fifths), and runs of similar columns become one
/// bar `(first, last, load)`. A link busy thousands of times stays a few hundred bars at most.
fn pixel_runs(
    spans: impl Iterator<Item = (f64, f64, f64)>,
    end_secs: f64,
    columns: usize,
) -> Vec<(usize, usize, f64)> {
    let width = end_secs / columns as f64;
    let mut load = vec![0.0f64; columns];
    for (start, stop, l) in spans {
        let (a, b) = (start / width, stop / width);
        let first = (a.floor().max(0.0) as usize).min(columns - 1);
        let last = ((b.ceil() as usize).saturating_sub(1)).min(columns - 1);
        for (c, cell) in load.iter_mut().enumerate().take(last + 1).skip(first) {
            let overlap = (b.min(c as f64 + 1.0) - a.max(c as f64)).max(0.0);
            *cell += overlap * l.min(1.0);
        }
    }
    let mut out: Vec<(usize, usize, f64)> = Vec::new();
    for (c, l) in load.into_iter().enumerate() {
        let q = (l.min(1.0) * 5.0).round() / 5.0;
        if q <= 0.0 {
            continue;
        }
        match out.last_mut() {
            // Neighbours within one step merge: periodic traffic finer than a column
            // would otherwise alias into alternating bars.
            Some(run) if run.1 + 1 == c && (run.2 - q).abs() <= 0.21 => run.1 = c,
            _ => out.push((c, c, q)),
        }
    }
    out
}

#[derive(Properties, PartialEq)]
struct GanttBarsProps {
    sim: Shared,
    end_secs: f64,
    narrow: bool,
}

/// The static part of the timeline, the links' names and their bars, each in a drawing of its
/// own at one scale (the names' column is as wide a share of the row as of the units), so that
/// the names can stay put while the bars scroll; it re-renders only when the run changes, not
/// every frame.
#[component]
fn GanttBars(props: &GanttBarsProps) -> Html {
    let lang = use_lang();
    let Some(trace) = props.sim.0.trace() else {
        return Html::default();
    };
    let end = props.end_secs.max(1e-30);
    let w = gantt_w(props.narrow);
    // Columns of 2 units each: finer would only add bars that no one can tell apart.
    let columns = (w / 2.0) as usize;
    let (links, _) = timeline_links(trace);
    let rows = links.iter().enumerate().map(|(row, &l)| {
        let y = row as f64 * GANTT_ROW;
        let cap = trace.topology.links()[l].bandwidth.bytes_per_sec();
        let tl = &trace.links[l].timeline;
        let tier = trace.topology.links()[l].tier;
        let spans = tl.iter().enumerate().filter(|(_, c)| c.bytes_per_sec > 0.0).map(|(i, c)| {
            let stop = tl.get(i + 1).map_or(trace.time_secs, |n| n.at_secs);
            (c.at_secs, stop, c.bytes_per_sec / cap)
        });
        // One path per load level: a new run changes a handful of attributes, not thousands.
        let px = w / columns as f64;
        let mut paths: Vec<(f64, String)> = Vec::new();
        for (first, last, load) in pixel_runs(spans, end, columns) {
            let d = format!(
                "M{} {}h{}v{}h-{}z",
                f(GANTT_LABEL + first as f64 * px),
                f(y + 1.0),
                f((last - first + 1) as f64 * px),
                f(GANTT_ROW - 2.0),
                f((last - first + 1) as f64 * px)
            );
            match paths.iter_mut().find(|(l, _)| *l == load) {
                Some((_, all)) => all.push_str(&d),
                None => paths.push((load, d)),
            }
        }
        let bars = paths.into_iter().map(|(load, d)| html! {
            <path class={classes!("bar", tier_class(tier))} {d} style={format!("fill-opacity:{}", fixed(0.25 + 0.75 * load, 100))} />
        }).collect::<Html>();
        html! {
            <g data-testid="timeline-row" data-tier={tier.name()}>{ bars }</g>
        }
    }).collect::<Html>();
    let names = links.iter().enumerate().map(|(row, &l)| html! {
        <text class="row-label" x={f(GANTT_LABEL - 6.0)} y={f(row as f64 * GANTT_ROW + GANTT_ROW * 0.8)}>{ place_name(lang, &link_place(&trace.topology, l)) }</text>
    }).collect::<Html>();
    let axis_y = links.len() as f64 * GANTT_ROW + 12.0;
    let height = gantt_height(links.len());
    let total = GANTT_LABEL + w + 8.0;
    html! {
        <>
            <svg class="gantt-names" viewBox={format!("0 0 {:.0} {height:.0}", GANTT_LABEL)}
                style={format!("flex-basis:calc(100% * {} / {})", GANTT_LABEL as u32, total as u32)}>
                { names }
            </svg>
            <svg class="gantt" viewBox={format!("{:.0} 0 {:.0} {height:.0}", GANTT_LABEL, total - GANTT_LABEL)} data-testid="link-timeline">
                { rows }
                <text class="axis" x={f(GANTT_LABEL)} y={f(axis_y)}>{ "0" }</text>
                <text class="axis end" x={f(GANTT_LABEL + w)} y={f(axis_y)}>{ format_secs(props.end_secs) }</text>
            </svg>
        </>
    }
}
