//! The controls (scenario inputs and presets), the transport bar (play, step, scrub, speed) and the
//! results of a run.

use super::app::Shared;
use super::layout::link_name;
use super::logic::{
    bandwidth_label, bandwidth_ladder_mbps, latency_label, latency_ladder_ns, max_segments,
    scrub_to_secs, secs_to_scrub, size_label, size_ladder_bytes, slider_position, slider_value,
    Controls, TopologyKind, GPUS_PER_NODE, GPU_COUNTS, NODES_PER_RACK, SCRUB_STEPS, SEGMENTS,
    SPEEDS, TIERS,
};
use crate::sim::algorithms::Algorithm;
use crate::sim::presets::PRESETS;
use crate::sim::units::{
    format_bandwidth, format_bandwidth_bits, format_bytes, format_secs, Bandwidth,
};
use web_sys::{HtmlInputElement, HtmlSelectElement};
use yew::prelude::*;

fn input_value(e: &InputEvent) -> usize {
    e.target_unchecked_into::<HtmlInputElement>()
        .value()
        .parse()
        .unwrap_or(0)
}

fn select_value(e: &Event) -> String {
    e.target_unchecked_into::<HtmlSelectElement>().value()
}

/// A slider over a list of values, showing the current one with `label`.
fn ladder_slider(
    testid: String,
    title: &str,
    values: Vec<u64>,
    value: u64,
    label: String,
    on: Callback<u64>,
) -> Html {
    let pos = slider_position(&values, value);
    let max = values.len().saturating_sub(1);
    // The values in slider order, so tests can pick one without guessing positions.
    let listed = values
        .iter()
        .map(u64::to_string)
        .collect::<Vec<_>>()
        .join(",");
    let oninput =
        Callback::from(move |e: InputEvent| on.emit(slider_value(&values, input_value(&e))));
    html! {
        <label class="field">
            <span class="field-name">{ title }</span>
            <input type="range" min="0" max={max.to_string()} step="1" value={pos.to_string()}
                   data-testid={testid} data-values={listed} aria-valuetext={label.clone()} {oninput} />
            <output class="field-value">{ label }</output>
        </label>
    }
}

fn algorithm_select(testid: &str, value: Algorithm, on: Callback<Algorithm>) -> Html {
    let onchange = Callback::from(move |e: Event| {
        if let Ok(a) = select_value(&e).parse::<Algorithm>() {
            on.emit(a);
        }
    });
    html! {
        // Keyed by the value: a select the user changed keeps its own choice otherwise.
        <select key={value.name()} data-testid={testid.to_string()} {onchange}>
            { for Algorithm::ALL.iter().map(|a| html! {
                <option value={a.name()} selected={*a == value}>{ a.name() }</option>
            }) }
        </select>
    }
}

#[derive(Properties, PartialEq)]
pub struct ControlsPanelProps {
    pub controls: Controls,
    pub compare: bool,
    pub algorithm_b: Algorithm,
    pub on_change: Callback<Controls>,
    pub on_compare: Callback<bool>,
    pub on_algorithm_b: Callback<Algorithm>,
    pub cli_a: String,
    pub cli_b: Option<String>,
}

#[component]
pub fn ControlsPanel(props: &ControlsPanelProps) -> Html {
    let c = &props.controls;
    // Every edit is a function of the current controls.
    let edit = |f: fn(&mut Controls, u64)| {
        let (c, on) = (c.clone(), props.on_change.clone());
        Callback::from(move |v: u64| {
            let mut next = c.clone();
            f(&mut next, v);
            on.emit(next);
        })
    };
    let on_algorithm = {
        let (c, on) = (c.clone(), props.on_change.clone());
        Callback::from(move |a: Algorithm| {
            on.emit(Controls {
                algorithm: a,
                ..c.clone()
            })
        })
    };
    let on_kind = {
        let (c, on) = (c.clone(), props.on_change.clone());
        Callback::from(move |e: Event| {
            let kind = if select_value(&e) == "uniform" {
                TopologyKind::Uniform
            } else {
                TopologyKind::Cluster
            };
            on.emit(Controls { kind, ..c.clone() });
        })
    };
    let pick = |testid: &str,
                title: &str,
                options: &[usize],
                value: usize,
                f: fn(&mut Controls, usize)| {
        let (c, on) = (c.clone(), props.on_change.clone());
        let onchange = Callback::from(move |e: Event| {
            let mut next = c.clone();
            f(&mut next, select_value(&e).parse().unwrap_or(1));
            on.emit(next);
        });
        html! {
            <label class="field compact">
                <span class="field-name">{ title }</span>
                <select key={value.to_string()} data-testid={testid.to_string()} {onchange}>
                    { for options.iter().map(|o| html! { <option value={o.to_string()} selected={*o == value}>{ o }</option> }) }
                </select>
            </label>
        }
    };
    let (racks, npr, g) = c.shape();
    let shape = match c.kind {
        TopologyKind::Uniform => format!("{} ranks on one ideal switch", c.gpus),
        TopologyKind::Cluster => format!(
            "{racks} rack{} × {npr} node{} × {g} GPU{}",
            plural(racks),
            plural(npr),
            plural(g)
        ),
    };
    let tiers = if c.kind == TopologyKind::Uniform {
        &TIERS[..1]
    } else {
        &TIERS[..]
    };
    let on_compare = {
        let (on, now) = (props.on_compare.clone(), props.compare);
        Callback::from(move |_: Event| on.emit(!now))
    };
    let presets = PRESETS.iter().map(|p| {
        let (on, c) = (props.on_change.clone(), c.clone());
        let onclick = Callback::from(move |_: MouseEvent| {
            // A preset sets the network; the algorithm stays the learner's choice.
            on.emit(Controls { algorithm: c.algorithm, segments: c.segments, ..Controls::from_preset(p) })
        });
        html! { <button class="preset" data-testid={format!("preset-{}", p.name)} title={p.description} {onclick}>{ p.title }</button> }
    }).collect::<Html>();

    html! {
        <aside class="controls" aria-label="Scenario">
            <h2>{ "Scenario" }</h2>
            <div class="presets">{ presets }</div>
            <label class="field compact">
                <span class="field-name">{ "Algorithm" }</span>
                { algorithm_select("algorithm", c.algorithm, on_algorithm) }
            </label>
            if c.algorithm.is_tree() || (props.compare && props.algorithm_b.is_tree()) {
                { ladder_slider(
                    "segments".into(),
                    "Pipeline segments (trees)",
                    SEGMENTS.iter().filter(|&&s| s <= max_segments(c.gpus)).map(|&s| s as u64).collect(),
                    c.effective_segments() as u64,
                    c.effective_segments().to_string(),
                    edit(|c, v| c.segments = v as usize),
                ) }
            }
            <label class="field compact">
                <span class="field-name">{ "Topology" }</span>
                <select key={format!("{:?}", c.kind)} data-testid="topology-kind" onchange={on_kind}>
                    <option value="cluster" selected={c.kind == TopologyKind::Cluster}>{ "cluster" }</option>
                    <option value="uniform" selected={c.kind == TopologyKind::Uniform}>{ "uniform (α-β)" }</option>
                </select>
            </label>
            { ladder_slider("gpu-count".into(), "GPUs", GPU_COUNTS.iter().map(|&n| n as u64).collect(), c.gpus as u64, c.gpus.to_string(), edit(|c, v| c.gpus = v as usize)) }
            if c.kind == TopologyKind::Cluster {
                <div class="pair">
                    { pick("gpus-per-node", "GPUs / node", &GPUS_PER_NODE, c.gpus_per_node, |c, v| c.gpus_per_node = v) }
                    { pick("nodes-per-rack", "Nodes / rack", &NODES_PER_RACK, c.nodes_per_rack, |c, v| c.nodes_per_rack = v) }
                </div>
            }
            <p class="shape" data-testid="shape">{ shape }</p>
            { for tiers.iter().enumerate().map(|(i, (_, key, title))| {
                let title = if c.kind == TopologyKind::Uniform { "Port (each rank ↔ switch)" } else { *title };
                let set_bw: fn(&mut Controls, u64) = match i { 0 => |c, v| c.bandwidth_mbps[0] = v, 1 => |c, v| c.bandwidth_mbps[1] = v, _ => |c, v| c.bandwidth_mbps[2] = v };
                let set_lat: fn(&mut Controls, u64) = match i { 0 => |c, v| c.latency_ns[0] = v, 1 => |c, v| c.latency_ns[1] = v, _ => |c, v| c.latency_ns[2] = v };
                html! {
                    <fieldset class={classes!("tier", format!("tier-box-{key}"))}>
                        <legend>{ title }</legend>
                        { ladder_slider(format!("bandwidth-{key}"), "bandwidth", bandwidth_ladder_mbps(), c.bandwidth_mbps[i], bandwidth_label(c.bandwidth_mbps[i]), edit(set_bw)) }
                        { ladder_slider(format!("latency-{key}"), "latency", latency_ladder_ns(), c.latency_ns[i], latency_label(c.latency_ns[i]), edit(set_lat)) }
                    </fieldset>
                }
            }) }
            { ladder_slider("size".into(), "Message size (per rank)", size_ladder_bytes(), c.size_bytes, size_label(c.size_bytes), edit(|c, v| c.size_bytes = v)) }
            <h2>{ "Compare" }</h2>
            <div class="field check">
                <label><input type="checkbox" data-testid="compare-toggle" checked={props.compare} onchange={on_compare} />{ " side by side with" }</label>
                { algorithm_select("compare-algorithm", props.algorithm_b, props.on_algorithm_b.clone()) }
            </div>
            <h2>{ "Same run on the command line" }</h2>
            <code class="cli" data-testid="cli-command">{ &props.cli_a }</code>
            if let Some(cli) = &props.cli_b {
                <code class="cli" data-testid="cli-command-b">{ cli }</code>
            }
        </aside>
    }
}

/// A small inline icon (no icon font: the app works offline and glyph coverage varies).
fn icon(path: &'static str) -> Html {
    html! { <svg class="icon" viewBox="0 0 24 24" aria-hidden="true"><path d={path} /></svg> }
}

fn plural(n: usize) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}

#[derive(Properties, PartialEq)]
pub struct TransportProps {
    pub t_secs: f64,
    pub end_secs: f64,
    pub playing: bool,
    pub speed: usize,
    pub on_toggle: Callback<()>,
    pub on_play: Callback<bool>,
    pub on_step: Callback<bool>,
    pub on_seek: Callback<f64>,
    pub on_speed: Callback<usize>,
}

#[component]
pub fn Transport(props: &TransportProps) -> Html {
    let end = props.end_secs;
    let on_scrub = {
        let on = props.on_seek.clone();
        Callback::from(move |e: InputEvent| on.emit(scrub_to_secs(input_value(&e) as u32, end)))
    };
    let on_speed = {
        let on = props.on_speed.clone();
        Callback::from(move |e: Event| on.emit(select_value(&e).parse().unwrap_or(3)))
    };
    let click = |cb: Callback<()>| Callback::from(move |_: MouseEvent| cb.emit(()));
    let play = {
        let on = props.on_play.clone();
        click(Callback::from(move |_| on.emit(true)))
    };
    let pause = {
        let on = props.on_play.clone();
        click(Callback::from(move |_| on.emit(false)))
    };
    let back = {
        let on = props.on_step.clone();
        click(Callback::from(move |_| on.emit(false)))
    };
    let fwd = {
        let on = props.on_step.clone();
        click(Callback::from(move |_| on.emit(true)))
    };
    html! {
        <div class="transport" role="group" aria-label="Time">
            <button data-testid="step-back" title="Previous step (←)" aria-label="Previous step" onclick={back}>{ icon("M6 5h2v14H6zM20 5v14L9 12z") }</button>
            if props.playing {
                <button class="primary" data-testid="pause" title="Pause (space)" aria-label="Pause" onclick={pause}>{ icon("M7 5h4v14H7zM13 5h4v14h-4z") }</button>
            } else {
                <button class="primary" data-testid="play" title="Play (space)" aria-label="Play" onclick={play}>{ icon("M7 5v14l12-7z") }</button>
            }
            <button data-testid="step-forward" title="Next step (→)" aria-label="Next step" onclick={fwd}>{ icon("M16 5h2v14h-2zM4 5v14l11-7z") }</button>
            <input class="scrub" type="range" min="0" max={SCRUB_STEPS.to_string()} step="1"
                   value={secs_to_scrub(props.t_secs, end).to_string()} data-testid="scrub" aria-label="Simulated time"
                   aria-valuetext={format_secs(props.t_secs)} oninput={on_scrub} />
            <span class="clock" data-testid="clock" data-secs={format!("{:e}", props.t_secs)}>
                { format!("{} / {}", format_secs(props.t_secs), format_secs(end)) }
            </span>
            <label class="speed">
                <span class="muted">{ "speed" }</span>
                <select key={props.speed.to_string()} data-testid="speed" onchange={on_speed}>
                    { for SPEEDS.iter().enumerate().map(|(i, s)| html! {
                        <option value={i.to_string()} selected={i == props.speed}>{ format!("{s}×") }</option>
                    }) }
                </select>
            </label>
        </div>
    }
}

#[derive(Properties, PartialEq)]
pub struct ResultsProps {
    pub sim: Shared,
}

/// Totals of a run; they do not depend on the cursor.
#[component]
pub fn Results(props: &ResultsProps) -> Html {
    let view = &props.sim.0;
    let Ok(sim) = &view.result else {
        return Html::default();
    };
    let trace = &sim.trace;
    let n = trace.topology.ranks();
    let s = trace.size_bytes() as f64;
    let bw = |b: f64| {
        let b = Bandwidth::from_bytes_per_sec(b);
        format!("{} ({})", format_bandwidth(b), format_bandwidth_bits(b))
    };
    let busiest = trace.busiest_link().filter(|&l| trace.links[l].bytes > 0.0);
    let max_sent = trace.ranks.iter().map(|r| r.sent_bytes).max().unwrap_or(0);
    let min_sent = trace.ranks.iter().map(|r| r.sent_bytes).min().unwrap_or(0);
    let ring_share = if n > 0 {
        2.0 * (n as f64 - 1.0) / n as f64
    } else {
        0.0
    };
    let verified = match &trace.verification {
        Ok(()) => html! { <span class="ok" data-testid="verified">{ "✓ verified" }</span> },
        Err(e) => {
            html! { <span class="bad" data-testid="verified">{ format!("✗ wrong result: {e}") }</span> }
        }
    };
    html! {
        <div class="results">
            <dl class="numbers">
                <div><dt>{ "time" }</dt><dd data-testid="time-result" data-secs={format!("{:e}", trace.time_secs)}>{ format_secs(trace.time_secs) }</dd></div>
                <div><dt>{ "algbw" }</dt><dd data-testid="algbw">{ bw(trace.algbw_bytes_per_sec()) }</dd></div>
                <div><dt>{ "busbw" }</dt><dd data-testid="busbw">{ bw(trace.busbw_bytes_per_sec()) }</dd></div>
                <div><dt>{ "lower bound" }</dt><dd data-testid="lower-bound" title={trace.lower_bound.explain()}>
                    { format!("{} · run at {:.0}% of it", format_secs(trace.lower_bound.secs), 100.0 * trace.efficiency()) }</dd></div>
                <div><dt>{ "result" }</dt><dd>{ verified }</dd></div>
            </dl>
            <p class="explain muted">{ "Lower bound: " }{ trace.lower_bound.explain() }{ "." }</p>
            if let Some(auto) = &sim.auto { <p class="explain">{ &auto.reason }</p> }
            <p class="explain" data-testid="rank-traffic">
                { format!("Per rank, sent: {} to {}", format_bytes(min_sent as f64), format_bytes(max_sent as f64)) }
                { format!(" (ring: 2(N−1)/N × S = {}; a flat tree's root: (N−1) × S = {}).", format_bytes(ring_share * s), format_bytes((n as f64 - 1.0).max(0.0) * s)) }
            </p>
            if let Some(l) = busiest {
                <p class="explain" data-testid="busiest-link">
                    { format!("Busiest link: {} carried {}, busy {:.0}% of the run.", link_name(&trace.topology, l), format_bytes(trace.links[l].bytes), 100.0 * trace.busy_fraction(l)) }
                </p>
            }
            if n <= 16 {
                <table class="traffic">
                    <thead><tr><th>{ "GPU" }</th>{ for (0..n).map(|r| html! { <th>{ r }</th> }) }</tr></thead>
                    <tbody>
                        <tr><th>{ "sent" }</th>{ for trace.ranks.iter().enumerate().map(|(r, t)| html! { <td data-testid={format!("rank-sent-{r}")} data-bytes={t.sent_bytes.to_string()}>{ format_bytes(t.sent_bytes as f64) }</td> }) }</tr>
                        <tr><th>{ "received" }</th>{ for trace.ranks.iter().map(|t| html! { <td>{ format_bytes(t.received_bytes as f64) }</td> }) }</tr>
                    </tbody>
                </table>
            }
            <p class="muted small">{ format!("simulated in {:.1} ms · {} transfers", view.sim_ms, trace.schedule.len()) }</p>
        </div>
    }
}
