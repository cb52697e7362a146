//! The controls (scenario inputs and presets), the transport bar (play, step, scrub, speed) and the
//! results of a run.

use super::app::Shared;
use super::i18n::{
    algorithm_label, auto_reason, bound_explain, percent, place_name, preset_texts, tr, trf,
    use_lang, Key, Lang,
};
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

fn algorithm_select(
    lang: Lang,
    testid: &str,
    label: &str,
    value: Algorithm,
    on: Callback<Algorithm>,
) -> Html {
    let onchange = Callback::from(move |e: Event| {
        if let Ok(a) = select_value(&e).parse::<Algorithm>() {
            on.emit(a);
        }
    });
    html! {
        // Keyed by the value: a select the user changed keeps its own choice otherwise.
        <select key={value.name()} data-testid={testid.to_string()} aria-label={label.to_string()} {onchange}>
            { for Algorithm::ALL.iter().map(|a| html! {
                <option value={a.name()} selected={*a == value}>{ algorithm_label(lang, *a) }</option>
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
    let lang = use_lang();
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
        TopologyKind::Uniform => trf(lang, Key::ShapeUniform, &[&c.gpus.to_string()]),
        TopologyKind::Cluster if lang == Lang::En => format!(
            "{racks} rack{} × {npr} node{} × {g} GPU{}",
            plural(racks),
            plural(npr),
            plural(g)
        ),
        TopologyKind::Cluster => trf(
            lang,
            Key::ShapeCluster,
            &[&racks.to_string(), &npr.to_string(), &g.to_string()],
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
        html! { <button class="preset" data-testid={format!("preset-{}", p.name)} title={preset_texts(lang, p).1} {onclick}>{ preset_texts(lang, p).0 }</button> }
    }).collect::<Html>();

    html! {
        <aside class="controls" aria-label={tr(lang, Key::Scenario)}>
            <h2>{ tr(lang, Key::Scenario) }</h2>
            <div class="presets">{ presets }</div>
            <label class="field compact">
                <span class="field-name">{ tr(lang, Key::Algorithm) }</span>
                { algorithm_select(lang, "algorithm", tr(lang, Key::Algorithm), c.algorithm, on_algorithm) }
            </label>
            if c.algorithm.is_tree() || (props.compare && props.algorithm_b.is_tree()) {
                { ladder_slider(
                    "segments".into(),
                    tr(lang, Key::PipelineSegments),
                    SEGMENTS.iter().filter(|&&s| s <= max_segments(c.gpus)).map(|&s| s as u64).collect(),
                    c.effective_segments() as u64,
                    c.effective_segments().to_string(),
                    edit(|c, v| c.segments = v as usize),
                ) }
            }
            <label class="field compact">
                <span class="field-name">{ tr(lang, Key::Topology) }</span>
                <select key={format!("{:?}", c.kind)} data-testid="topology-kind" onchange={on_kind}>
                    <option value="cluster" selected={c.kind == TopologyKind::Cluster}>{ tr(lang, Key::TopologyCluster) }</option>
                    <option value="uniform" selected={c.kind == TopologyKind::Uniform}>{ tr(lang, Key::TopologyUniform) }</option>
                </select>
            </label>
            { ladder_slider("gpu-count".into(), tr(lang, Key::GpuCount), GPU_COUNTS.iter().map(|&n| n as u64).collect(), c.gpus as u64, c.gpus.to_string(), edit(|c, v| c.gpus = v as usize)) }
            if c.kind == TopologyKind::Cluster {
                <div class="pair">
                    { pick("gpus-per-node", tr(lang, Key::GpusPerNode), &GPUS_PER_NODE, c.gpus_per_node, |c, v| c.gpus_per_node = v) }
                    { pick("nodes-per-rack", tr(lang, Key::NodesPerRack), &NODES_PER_RACK, c.nodes_per_rack, |c, v| c.nodes_per_rack = v) }
                </div>
            }
            <p class="shape" data-testid="shape">{ shape }</p>
            { for tiers.iter().enumerate().map(|(i, (_, key, _))| {
                let title = if c.kind == TopologyKind::Uniform { tr(lang, Key::TierPort) } else { tr(lang, [Key::TierGpu, Key::TierNode, Key::TierRack][i]) };
                let set_bw: fn(&mut Controls, u64) = match i { 0 => |c, v| c.bandwidth_mbps[0] = v, 1 => |c, v| c.bandwidth_mbps[1] = v, _ => |c, v| c.bandwidth_mbps[2] = v };
                let set_lat: fn(&mut Controls, u64) = match i { 0 => |c, v| c.latency_ns[0] = v, 1 => |c, v| c.latency_ns[1] = v, _ => |c, v| c.latency_ns[2] = v };
                html! {
                    <fieldset class={classes!("tier", format!("tier-box-{key}"))}>
                        <legend>{ title }</legend>
                        { ladder_slider(format!("bandwidth-{key}"), tr(lang, Key::Bandwidth), bandwidth_ladder_mbps(), c.bandwidth_mbps[i], bandwidth_label(c.bandwidth_mbps[i]), edit(set_bw)) }
                        { ladder_slider(format!("latency-{key}"), tr(lang, Key::Latency), latency_ladder_ns(), c.latency_ns[i], latency_text(lang, c.latency_ns[i]), edit(set_lat)) }
                    </fieldset>
                }
            }) }
            { ladder_slider("size".into(), tr(lang, Key::LabMessageSize), size_ladder_bytes(), c.size_bytes, size_label(c.size_bytes), edit(|c, v| c.size_bytes = v)) }
            <h2>{ tr(lang, Key::Compare) }</h2>
            <div class="field check">
                <label><input type="checkbox" data-testid="compare-toggle" checked={props.compare} onchange={on_compare} />{ tr(lang, Key::SideBySideWith) }</label>
                { algorithm_select(lang, "compare-algorithm", tr(lang, Key::Compare), props.algorithm_b, props.on_algorithm_b.clone()) }
            </div>
            <h2>{ tr(lang, Key::CommandLine) }</h2>
            <code class="cli" lang="en" translate="no" data-testid="cli-command">{ &props.cli_a }</code>
            if let Some(cli) = &props.cli_b {
                <code class="cli" lang="en" translate="no" data-testid="cli-command-b">{ cli }</code>
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
    let lang = use_lang();
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
        <div class="transport" role="group" aria-label={tr(lang, Key::TimeGroup)}>
            <button data-testid="step-back" title={tr(lang, Key::PreviousStepKey)} aria-label={tr(lang, Key::PreviousStep)} onclick={back}>{ icon("M6 5h2v14H6zM20 5v14L9 12z") }</button>
            if props.playing {
                <button class="primary" data-testid="pause" title={tr(lang, Key::PauseKey)} aria-label={tr(lang, Key::Pause)} onclick={pause}>{ icon("M7 5h4v14H7zM13 5h4v14h-4z") }</button>
            } else {
                <button class="primary" data-testid="play" title={tr(lang, Key::PlayKey)} aria-label={tr(lang, Key::Play)} onclick={play}>{ icon("M7 5v14l12-7z") }</button>
            }
            <button data-testid="step-forward" title={tr(lang, Key::NextStepKey)} aria-label={tr(lang, Key::NextStep)} onclick={fwd}>{ icon("M16 5h2v14h-2zM4 5v14l11-7z") }</button>
            <input class="scrub" type="range" min="0" max={SCRUB_STEPS.to_string()} step="1"
                   value={secs_to_scrub(props.t_secs, end).to_string()} data-testid="scrub" aria-label={tr(lang, Key::SimulatedTime)}
                   aria-valuetext={format_secs(props.t_secs)} oninput={on_scrub} />
            <span class="clock" data-testid="clock" data-secs={format!("{:e}", props.t_secs)}>
                { format!("{} / {}", format_secs(props.t_secs), format_secs(end)) }
            </span>
            <label class="speed">
                <span class="muted">{ tr(lang, Key::Speed) }</span>
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
    let lang = use_lang();
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
        Ok(()) => {
            html! { <span class="ok" data-testid="verified">{ tr(lang, Key::ResultVerified) }</span> }
        }
        Err(e) => {
            html! { <span class="bad" data-testid="verified">{ trf(lang, Key::ResultWrong, &[&e.to_string()]) }</span> }
        }
    };
    html! {
        <div class="results">
            <dl class="numbers">
                <div><dt>{ tr(lang, Key::ResultTime) }</dt><dd data-testid="time-result" data-secs={format!("{:e}", trace.time_secs)}>{ format_secs(trace.time_secs) }</dd></div>
                <div><dt>{ "algbw" }</dt><dd data-testid="algbw">{ bw(trace.algbw_bytes_per_sec()) }</dd></div>
                <div><dt>{ "busbw" }</dt><dd data-testid="busbw">{ bw(trace.busbw_bytes_per_sec()) }</dd></div>
                <div><dt>{ tr(lang, Key::LowerBoundLabel) }</dt><dd data-testid="lower-bound" title={bound_explain(lang, trace.lower_bound.kind)}>
                    { trf(lang, Key::LowerBoundRun, &[&format_secs(trace.lower_bound.secs), &percent(lang, trace.efficiency(), 0)]) }</dd></div>
                <div><dt>{ tr(lang, Key::Result) }</dt><dd>{ verified }</dd></div>
            </dl>
            <p class="explain muted">{ trf(lang, Key::LowerBoundIs, &[bound_explain(lang, trace.lower_bound.kind)]) }</p>
            if let Some(auto) = &sim.auto { <p class="explain">{ auto_reason(lang, auto) }</p> }
            <p class="explain" data-testid="rank-traffic">
                { trf(lang, Key::RankSent, &[&format_bytes(min_sent as f64), &format_bytes(max_sent as f64)]) }
                { trf(lang, Key::RankSentCompare, &[&format_bytes(ring_share * s), &format_bytes((n as f64 - 1.0).max(0.0) * s)]) }
            </p>
            if let Some(l) = busiest {
                <p class="explain" data-testid="busiest-link" data-link={l.to_string()}>
                    { trf(lang, Key::BusiestLink, &[&place_name(lang, &link_name(&trace.topology, l)), &format_bytes(trace.links[l].bytes), &percent(lang, trace.busy_fraction(l), 0)]) }
                </p>
            }
            if n <= 16 {
                // Focusable: it scrolls sideways on narrow screens, and keyboards must reach it.
                <table class="traffic" tabindex="0" aria-label={tr(lang, Key::TrafficTable)}>
                    <thead><tr><th>{ "GPU" }</th>{ for (0..n).map(|r| html! { <th>{ r }</th> }) }</tr></thead>
                    <tbody>
                        <tr><th>{ tr(lang, Key::SentRow) }</th>{ for trace.ranks.iter().enumerate().map(|(r, t)| html! { <td data-testid={format!("rank-sent-{r}")} data-bytes={t.sent_bytes.to_string()}>{ format_bytes(t.sent_bytes as f64) }</td> }) }</tr>
                        <tr><th>{ tr(lang, Key::ReceivedRow) }</th>{ for trace.ranks.iter().map(|t| html! { <td>{ format_bytes(t.received_bytes as f64) }</td> }) }</tr>
                    </tbody>
                </table>
            }
            <p class="muted small">{ trf(lang, Key::SimulatedIn, &[&format!("{:.1}", view.sim_ms), &trace.schedule.len().to_string()]) }</p>
        </div>
    }
}

/// A latency as the slider shows it; "0 (ideal)" in the reader's language.
fn latency_text(lang: Lang, ns: u64) -> String {
    if ns == 0 {
        tr(lang, Key::LatencyIdeal).to_string()
    } else {
        latency_label(ns)
    }
}
