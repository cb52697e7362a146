//! The controls (scenario inputs and presets), the transport bar (play, step, scrub, speed) and the
//! results of a run.
//!
//! Size: over 450 lines because the lab's control panel, transport bar and results are the three
//! panels around the figure and share their slider widgets.

use crate::course::presets::PRESETS;
use crate::sim::algorithms::Algorithm;
use crate::sim::rail_preset::SUPERPOD;
use crate::sim::trace::BoundTerm;
use crate::sim::units::{
    Bandwidth, format_bandwidth, format_bandwidth_bits, format_bytes, format_secs,
};
use crate::ui::components::app::Shared;
use crate::ui::components::inputs::{checked, input_value, select_value};
use crate::ui::i18n::{
    Key, Lang, algorithm_label, auto_reason, bound_explain, bound_term, percent_above_zero,
    place_name, preset_texts, tr, trf, use_lang,
};
use crate::ui::model::cursor::{SCRUB_STEPS, SPEEDS, scrub_to_secs, secs_to_scrub};
use crate::ui::model::ladders::{
    bandwidth_label, bandwidth_ladder_mbps, latency_label, latency_ladder_ns, size_label,
    size_ladder_bytes, slider_position, slider_value,
};
use crate::ui::model::layout::link_place;
use crate::ui::model::logic::{
    Controls, Edit, GPU_COUNTS, GPUS_PER_NODE, NICS_PER_NODE, NODES_PER_RACK, SEGMENTS, TIERS,
    TopologyKind, Uneven, max_segments,
};
use crate::ui::model::view::{beyond_the_cli, first_refused_gpus, refusal};
use yew::prelude::*;

/// How a slider's values read.
#[derive(Clone, Copy, PartialEq)]
enum Unit {
    Count,
    Bandwidth,
    Latency,
    Size,
}

fn unit_label(lang: Lang, unit: Unit, v: u64) -> String {
    match unit {
        Unit::Count => v.to_string(),
        Unit::Bandwidth => bandwidth_label(v),
        Unit::Latency => latency_text(lang, v),
        Unit::Size => size_label(v),
    }
}

#[derive(Properties, PartialEq)]
struct LadderSliderProps {
    testid: AttrValue,
    title: AttrValue,
    /// The values in slider order.
    values: Vec<u64>,
    value: u64,
    unit: Unit,
    on: Callback<u64>,
    /// The first value the lab cannot run, greyed out from there on with `refused_note`.
    #[prop_or_default]
    refused_from: Option<u64>,
    #[prop_or_default]
    refused_note: Option<AttrValue>,
}

/// A slider over a list of values. Dragging only moves the thumb and its label; the value is
/// committed (and the scenario simulated) when the drag settles (`change`), so a drag across
/// big settings does not simulate every one on the way.
#[component]
fn LadderSlider(props: &LadderSliderProps) -> Html {
    let lang = use_lang();
    let pending = use_state(|| None::<u64>);
    let shown = pending.unwrap_or(props.value);
    let values = &props.values;
    let pos = slider_position(values, shown);
    let max = values.len().saturating_sub(1);
    // The values in slider order, so tests can pick one without guessing positions.
    let listed = values
        .iter()
        .map(u64::to_string)
        .collect::<Vec<_>>()
        .join(",");
    let oninput = {
        let (values, pending) = (values.clone(), pending.clone());
        Callback::from(move |e: InputEvent| {
            pending.set(Some(slider_value(&values, input_value::<usize>(&e))))
        })
    };
    let onchange = {
        let (values, pending, on) = (values.clone(), pending.clone(), props.on.clone());
        Callback::from(move |e: Event| {
            let v = slider_value(&values, input_value::<usize>(&e));
            pending.set(None);
            on.emit(v);
        })
    };
    let label = unit_label(lang, props.unit, shown);
    let refused_at = props
        .refused_from
        .and_then(|r| values.iter().position(|&v| v == r));
    let refused_here = refused_at.is_some_and(|r| pos >= r);
    html! {
        <label class={classes!("field", refused_here.then_some("refused"))}>
            <span class="field-name">{ props.title.clone() }</span>
            <span class="range-wrap">
                if let Some(r) = refused_at {
                    // Where the track is greyed: the positions the lab cannot run.
                    <span class="refused-band" aria-hidden="true"
                          style={format!("left: calc({:.2}% - 4px)", r as f64 / max.max(1) as f64 * 100.0)}></span>
                }
                <input type="range" min="0" max={max.to_string()} step="1" value={pos.to_string()}
                       data-testid={props.testid.clone()} data-values={listed}
                       data-refused-from={props.refused_from.map(|v| v.to_string())}
                       aria-valuetext={label.clone()} {oninput} {onchange} />
            </span>
            <output class="field-value">{ label }</output>
            if let Some(note) = &props.refused_note {
                <span class={classes!("refused-note", refused_here.then_some("now"))} data-testid={format!("{}-refused", props.testid)}>{ note.clone() }</span>
            }
        </label>
    }
}

/// A slider over a list of values (see [`LadderSlider`]).
fn ladder_slider(
    testid: String,
    title: &str,
    values: Vec<u64>,
    value: u64,
    unit: Unit,
    on: Callback<u64>,
) -> Html {
    html! { <LadderSlider testid={testid} title={title.to_string()} {values} {value} {unit} {on} /> }
}

fn algorithm_select(
    lang: Lang,
    testid: &str,
    label: &str,
    value: Algorithm,
    controls: &Controls,
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
            { for Algorithm::ALL.iter().map(|a| {
                // What the lab cannot run here is greyed out and says so (the current choice stays
                // selectable: its figure explains the refusal).
                let refused = *a != value && refusal(controls, *a).is_some();
                html! {
                    <option value={a.name()} selected={*a == value} disabled={refused}>
                        { algorithm_label(lang, *a) }
                        if refused { { tr(lang, Key::TooLargeHere) } }
                    </option>
                }
            }) }
        </select>
    }
}

#[derive(Properties, PartialEq)]
pub struct ControlsPanelProps {
    pub controls: Controls,
    pub compare: bool,
    pub algorithm_b: Algorithm,
    /// Each control sends its change only; the reducer applies it to the current controls.
    pub on_edit: Callback<Edit>,
    /// A preset: its index in [`PRESETS`] (its network, both algorithms it promises about).
    pub on_preset: Callback<usize>,
    pub on_compare: Callback<bool>,
    pub on_algorithm_b: Callback<Algorithm>,
    pub cli_a: String,
    pub cli_b: Option<String>,
}

#[component]
pub fn ControlsPanel(props: &ControlsPanelProps) -> Html {
    let lang = use_lang();
    let c = &props.controls;
    // Every control sends its change, not a copy of the controls it was rendered with.
    let edit = |f: fn(u64) -> Edit| props.on_edit.reform(f);
    let on_algorithm = props.on_edit.reform(Edit::Algorithm);
    let on_kind = props.on_edit.reform(|e: Event| {
        Edit::Kind(match select_value(&e).as_str() {
            "uniform" => TopologyKind::Uniform,
            "rail" => TopologyKind::Rail,
            _ => TopologyKind::Cluster,
        })
    });
    let pick = |testid: &str,
                title: &str,
                options: &[usize],
                value: usize,
                f: fn(usize) -> Edit| {
        let on = props.on_edit.clone();
        let onchange = Callback::from(move |e: Event| {
            if let Ok(v) = select_value(&e).parse() {
                on.emit(f(v));
            }
        });
        html! {
            <label class="field compact">
                <span class="field-name">{ title }</span>
                <select class="count" key={value.to_string()} data-testid={testid.to_string()} {onchange}>
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
        TopologyKind::Rail => {
            let (nodes, rails) = c.rail_shape();
            trf(
                lang,
                Key::ShapeRail,
                &[&nodes.to_string(), &rails.to_string()],
            )
        }
    };
    let shape = match c.kind {
        TopologyKind::Cluster if c.effective_nics() > 1 => format!(
            "{shape}{}",
            trf(lang, Key::ShapeNics, &[&c.effective_nics().to_string()])
        ),
        _ => shape,
    };
    let gpus = crate::ui::i18n::gpus(lang, c.gpus);
    let (per_node, per_rack) = (c.gpus_per_node.to_string(), c.nodes_per_rack.to_string());
    let uneven = c.uneven().map(|u| match u {
        Uneven::Nodes => trf(lang, Key::ShapeUneven, &[&gpus, &per_node, &per_rack]),
        Uneven::Racks => trf(lang, Key::ShapeUnevenRacks, &[&gpus, &per_node, &per_rack]),
        Uneven::RailNodes => trf(lang, Key::ShapeUnevenRail, &[&gpus, &c.rails().to_string()]),
    });
    let tiers = if c.kind == TopologyKind::Uniform {
        &TIERS[..1]
    } else {
        &TIERS[..]
    };
    let on_compare = {
        let (on, now) = (props.on_compare.clone(), props.compare);
        Callback::from(move |_: Event| on.emit(!now))
    };
    // The GPU counts the lab cannot simulate with the algorithm(s) on screen: greyed, with why.
    let on_screen: Vec<Algorithm> = std::iter::once(c.algorithm)
        .chain(props.compare.then_some(props.algorithm_b))
        .collect();
    let refused_gpus = first_refused_gpus(c, &on_screen, &GPU_COUNTS);
    let refused_note = refused_gpus.map(|g| {
        // Refused by the core itself (the CLI too), or only by the lab's budget.
        let at = Controls {
            gpus: g,
            ..c.clone()
        };
        let key = if on_screen
            .iter()
            .filter_map(|&a| refusal(&at, a))
            .all(|o| beyond_the_cli(&o))
        {
            Key::GpusRefusedFromCore
        } else {
            Key::GpusRefusedFrom
        };
        AttrValue::from(trf(lang, key, &[&g.to_string()]))
    });
    let presets = PRESETS.iter().enumerate().map(|(i, p)| {
        // A preset shows what its name promises: its network and its two algorithms side by side.
        let onclick = props.on_preset.reform(move |_: MouseEvent| i);
        // Pressed while the lab shows what it set (a chip with no state left a learner unsure
        // which scenario was loaded).
        let pressed = c.shows_preset(p, props.compare, props.algorithm_b).to_string();
        html! { <button class="preset" data-testid={format!("preset-{}", p.name)} title={preset_texts(lang, p).1} aria-pressed={pressed} {onclick}>{ preset_texts(lang, p).0 }</button> }
    }).collect::<Html>();
    let rail_preset = {
        let onclick = props.on_edit.reform(|_: MouseEvent| Edit::Superpod);
        let pressed = c.shows_superpod().to_string();
        html! { <button class="preset" data-testid={format!("preset-{}", SUPERPOD.name)} title={tr(lang, Key::PresetSuperpodText)} aria-pressed={pressed} {onclick}>{ tr(lang, Key::PresetSuperpodTitle) }</button> }
    };
    let on_pxn = props.on_edit.reform(|e: Event| Edit::Pxn(checked(&e)));
    let nccl_note = [c.algorithm]
        .into_iter()
        .chain(props.compare.then_some(props.algorithm_b))
        .find_map(|a| match a {
            Algorithm::NcclRing => Some(Key::AlgNoteNcclRing),
            Algorithm::NcclTree => Some(Key::AlgNoteNcclTree),
            // Rails 1 to 7 of the SuperPOD preset carried 0 B under the textbook ring, unexplained.
            Algorithm::Ring
                if c.kind == TopologyKind::Rail && {
                    let (nodes, g) = c.rail_shape();
                    nodes > 1 && g >= 4
                } =>
            {
                Some(Key::AlgNoteRingOnRails)
            }
            _ => None,
        });

    html! {
        <aside class="controls" aria-label={tr(lang, Key::Scenario)}>
            <h2>{ tr(lang, Key::Scenario) }</h2>
            <div class="presets strip">{ presets }{ rail_preset }</div>
            <label class="field compact strip">
                <span class="field-name">{ tr(lang, Key::Algorithm) }</span>
                { algorithm_select(lang, "algorithm", tr(lang, Key::Algorithm), c.algorithm, c, on_algorithm) }
            </label>
            if let Some(note) = nccl_note {
                <p class="explain muted" data-testid="algorithm-note">{ tr(lang, note) }</p>
            }
            if c.algorithm.pipelines() || (props.compare && props.algorithm_b.pipelines()) {
                <div class="strip">{ ladder_slider(
                    "segments".into(),
                    tr(lang, Key::PipelineSegments),
                    SEGMENTS.iter().filter(|&&s| s <= max_segments(c.gpus)).map(|&s| s as u64).collect(),
                    c.effective_segments() as u64,
                    Unit::Count,
                    edit(|v| Edit::Segments(v as usize)),
                ) }</div>
            }
            <label class="field compact">
                <span class="field-name">{ tr(lang, Key::Topology) }</span>
                <select key={c.kind as u8} data-testid="topology-kind" onchange={on_kind}>
                    <option value="cluster" selected={c.kind == TopologyKind::Cluster}>{ tr(lang, Key::TopologyCluster) }</option>
                    <option value="rail" selected={c.kind == TopologyKind::Rail}>{ tr(lang, Key::TopologyRail) }</option>
                    <option value="uniform" selected={c.kind == TopologyKind::Uniform}>{ tr(lang, Key::TopologyUniform) }</option>
                </select>
            </label>
            <div class="strip"><LadderSlider testid="gpu-count" title={tr(lang, Key::GpuCount)} values={GPU_COUNTS.iter().map(|&n| n as u64).collect::<Vec<_>>()}
                          value={c.gpus as u64} unit={Unit::Count} on={edit(|v| Edit::Gpus(v as usize))}
                          refused_from={refused_gpus.map(|g| g as u64)} refused_note={refused_note} /></div>
            if c.kind == TopologyKind::Cluster {
                <div class="pair">
                    { pick("gpus-per-node", tr(lang, Key::GpusPerNode), &GPUS_PER_NODE, c.gpus_per_node, Edit::GpusPerNode) }
                    { pick("nodes-per-rack", tr(lang, Key::NodesPerRack), &NODES_PER_RACK, c.nodes_per_rack, Edit::NodesPerRack) }
                </div>
                { pick("nics-per-node", tr(lang, Key::NicsPerNode), &NICS_PER_NODE, c.nics_per_node, Edit::NicsPerNode) }
            }
            if c.kind == TopologyKind::Rail {
                <div class="pair">
                    { pick("gpus-per-node", tr(lang, Key::RailsPerNode), &NICS_PER_NODE, c.gpus_per_node, Edit::GpusPerNode) }
                </div>
                <div class="field check">
                    <label title={tr(lang, Key::PxnExplain)}><input type="checkbox" data-testid="pxn-toggle" checked={c.pxn} onchange={on_pxn} />{ tr(lang, Key::Pxn) }</label>
                </div>
            }
            <p class="shape" data-testid="shape">{ shape }</p>
            // A count that does not fill the nodes (and racks) the choices above ask for is split
            // evenly; the choices keep the machine as built (at 12 GPUs they said 8 per node and
            // 2 nodes a rack beside "3 racks × 1 node × 4 GPUs", and nothing said why).
            if let Some(uneven) = uneven {
                <p class="shape-note" data-testid="shape-uneven">{ uneven }</p>
            }
            { for tiers.iter().enumerate().map(|(i, (_, key, _))| {
                let title = match c.kind {
                    TopologyKind::Uniform => tr(lang, Key::TierPort),
                    TopologyKind::Rail => tr(lang, [Key::TierGpu, Key::TierRailNic, Key::TierRailSpine][i]),
                    TopologyKind::Cluster => tr(lang, [Key::TierGpu, Key::TierNode, Key::TierRack][i]),
                };
                let set_bw = props.on_edit.reform(move |mbps| Edit::Bandwidth { tier: i, mbps });
                let set_lat = props.on_edit.reform(move |ns| Edit::Latency { tier: i, ns });
                // A tier no transfer crosses says so (the rack uplinks of one rack, moved from
                // 1 Gbps to 16 Tbps, changed nothing, and nothing said why).
                use crate::sim::topology::Tier;
                let not_crossed = |tier| !crate::ui::model::versus::crossed(tier, c.gpus, c.gpus_per_node, c.nodes_per_rack);
                let (rail_nodes, rail_gpn) = c.rail_shape();
                let rail_idle = |tier| !crate::ui::model::versus::rail_crossed(tier, rail_nodes, rail_gpn, c.pxn);
                let idle = match (c.kind, i) {
                    (TopologyKind::Cluster, 1) if not_crossed(Tier::Node) => Some(Key::LabTierIdleNode),
                    (TopologyKind::Cluster, 2) if not_crossed(Tier::Rack) => Some(Key::LabTierIdleRack),
                    // A rail network: one GPU per node has no NVLink peer and one rail; one node
                    // no NIC traffic; PXN keeps traffic between rails off the spine.
                    (TopologyKind::Rail, 0) if c.gpus > 1 && rail_idle(Tier::Gpu) => Some(Key::LabTierIdleOneGpu),
                    (TopologyKind::Rail, 2) if c.gpus > 1 && rail_gpn == 1 => Some(Key::LabTierIdleOneRail),
                    (TopologyKind::Rail, 1 | 2) if rail_nodes == 1 && rail_idle(Tier::ALL[i]) => Some(Key::LabTierIdleNode),
                    (TopologyKind::Rail, 2) if rail_idle(Tier::Rack) => Some(Key::LabTierIdlePxn),
                    _ => None,
                };
                html! {
                    <fieldset class={classes!("tier", format!("tier-box-{key}"), idle.is_some().then_some("idle"))}>
                        <legend>{ title }</legend>
                        if let Some(k) = idle {
                            <p class="tier-idle" data-testid={format!("tier-idle-{key}")}>{ trf(lang, k, &[&crate::ui::i18n::gpus(lang, c.gpus)]) }</p>
                        }
                        { ladder_slider(format!("bandwidth-{key}"), tr(lang, Key::Bandwidth), bandwidth_ladder_mbps(), c.bandwidth_mbps[i], Unit::Bandwidth, set_bw) }
                        { ladder_slider(format!("latency-{key}"), tr(lang, Key::Latency), latency_ladder_ns(), c.latency_ns[i], Unit::Latency, set_lat) }
                    </fieldset>
                }
            }) }
            { ladder_slider("size".into(), tr(lang, Key::LabMessageSize), size_ladder_bytes(), c.size_bytes, Unit::Size, edit(Edit::Size)) }
            <h2>{ tr(lang, Key::Compare) }</h2>
            <div class="field check strip">
                <label><input type="checkbox" data-testid="compare-toggle" checked={props.compare} onchange={on_compare} />{ tr(lang, Key::SideBySideWith) }</label>
                { algorithm_select(lang, "compare-algorithm", tr(lang, Key::Compare), props.algorithm_b, c, props.on_algorithm_b.clone()) }
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
    if n == 1 { "" } else { "s" }
}

#[derive(Properties, PartialEq)]
pub struct TransportProps {
    /// Whether any run on screen ran (a refused one has no time to play).
    #[prop_or(true)]
    pub runnable: bool,
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
        Callback::from(move |e: InputEvent| {
            on.emit(scrub_to_secs(input_value::<usize>(&e) as u32, end))
        })
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
    let off = !props.runnable;
    html! {
        <div class={classes!("transport", off.then_some("off"))} role="group" aria-label={tr(lang, Key::TimeGroup)}>
            <button data-testid="step-back" disabled={off} title={tr(lang, Key::PreviousStepKey)} aria-label={tr(lang, Key::PreviousStep)} onclick={back}>{ icon("M6 5h2v14H6zM20 5v14L9 12z") }</button>
            if props.playing {
                <button class="primary" data-testid="pause" disabled={off} title={tr(lang, Key::PauseKey)} aria-label={tr(lang, Key::Pause)} onclick={pause}>{ icon("M7 5h4v14H7zM13 5h4v14h-4z") }</button>
            } else {
                <button class="primary" data-testid="play" disabled={off} title={tr(lang, Key::PlayKey)} aria-label={tr(lang, Key::Play)} onclick={play}>{ icon("M7 5v14l12-7z") }</button>
            }
            <button data-testid="step-forward" disabled={off} title={tr(lang, Key::NextStepKey)} aria-label={tr(lang, Key::NextStep)} onclick={fwd}>{ icon("M16 5h2v14h-2zM4 5v14l11-7z") }</button>
            <input class="scrub" type="range" disabled={off} min="0" max={SCRUB_STEPS.to_string()} step="1"
                   value={secs_to_scrub(props.t_secs, end).to_string()} data-testid="scrub" aria-label={tr(lang, Key::SimulatedTime)}
                   aria-valuetext={format_secs(props.t_secs)} oninput={on_scrub} />
            <span class="clock" data-testid="clock" data-secs={format!("{:e}", props.t_secs)}>
                if off { { tr(lang, Key::NothingToPlay) } } else { { format!("{} / {}", format_secs(props.t_secs), format_secs(end)) } }
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
    /// The run was not made for this request: the lab's recent results kept it.
    #[prop_or_default]
    pub recalled: bool,
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
    let alone = n == 1;
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
                // One GPU exchanges nothing: no bandwidth to speak of, and no bound to compare
                // with (it read "algbw 0 B/s" and "the run takes 1× as long" of 0 s).
                if alone {
                    <div><dt>{ "algbw" }</dt><dd data-testid="algbw">{ "—" }</dd></div>
                    <div><dt>{ "busbw" }</dt><dd data-testid="busbw">{ "—" }</dd></div>
                    <div><dt>{ tr(lang, Key::LowerBoundLabel) }</dt><dd data-testid="lower-bound">{ "—" }</dd></div>
                } else {
                <div><dt>{ "algbw" }</dt><dd data-testid="algbw">{ bw(trace.algbw_bytes_per_sec()) }</dd></div>
                <div><dt>{ "busbw" }</dt><dd data-testid="busbw">{ bw(trace.busbw_bytes_per_sec()) }</dd></div>
                <div><dt>{ tr(lang, Key::LowerBoundLabel) }</dt><dd data-testid="lower-bound" title={bound_explain(lang, &trace.lower_bound)}>
                    // How many times the bound the run takes ("run at 51% of it" read as the run
                    // being half the bound).
                    { trf(lang, Key::LowerBoundRun, &[&format_secs(trace.lower_bound.secs), &crate::sim::units::sig3(1.0 / trace.efficiency())]) }</dd></div>
                }
                <div><dt>{ tr(lang, Key::Result) }</dt><dd>{ verified }</dd></div>
            </dl>
            if alone {
                <p class="explain" data-testid="one-gpu">{ tr(lang, Key::OneGpuNothing) }</p>
            } else {
            <p class="explain muted" data-testid="lower-bound-terms" data-dominant={match trace.lower_bound.dominant() { BoundTerm::Latency => "latency", BoundTerm::Bandwidth => "bandwidth" }}>{ trf(lang, Key::LowerBoundIs, &[
                &format_secs(trace.lower_bound.latency_secs),
                &format_secs(trace.lower_bound.bandwidth_secs),
                bound_term(lang, trace.lower_bound.dominant()),
                bound_explain(lang, &trace.lower_bound),
            ]) }</p>
            }
            if let Some(auto) = &sim.auto { <p class="explain">{ auto_reason(lang, auto) }</p> }
            <p class="explain" data-testid="rank-traffic">
                // Equal as shown (3 GPUs: 1,333,333 and 1,333,334 B are both 1.33 MB).
                if format_bytes(min_sent as f64) == format_bytes(max_sent as f64) {
                    { trf(lang, Key::RankSentSame, &[&format_bytes(max_sent as f64)]) }
                } else {
                    { trf(lang, Key::RankSent, &[&format_bytes(min_sent as f64), &format_bytes(max_sent as f64)]) }
                }
                { trf(lang, Key::RankSentCompare, &[&format_bytes(ring_share * s), &format_bytes((n as f64 - 1.0).max(0.0) * s)]) }
            </p>
            if let Some(l) = busiest {
                <p class="explain" data-testid="busiest-link" data-link={l.to_string()}>
                    { trf(lang, Key::BusiestLink, &[&place_name(lang, &link_place(&trace.topology, l)), &format_bytes(trace.links[l].bytes), &percent_above_zero(lang, trace.utilisation(l), 0)]) }
                </p>
            }
            if n <= 16 {
                // Focusable: it scrolls sideways on narrow screens, and keyboards must reach it.
                // Eight GPUs a row group: 16 in one row were 938 px wide, cut off in the 892 px
                // beside the controls at a 1,280-px window.
                <table class="traffic" tabindex="0" aria-label={tr(lang, Key::TrafficTable)}>
                    { for (0..n).step_by(8).map(|lo| {
                        let ranks = lo..(lo + 8).min(n);
                        html! {
                            <tbody>
                                <tr><th scope="col">{ "GPU" }</th>{ for ranks.clone().map(|r| html! { <th scope="col">{ r }</th> }) }</tr>
                                <tr><th scope="row">{ tr(lang, Key::SentRow) }</th>{ for ranks.clone().map(|r| { let t = &trace.ranks[r]; html! { <td data-testid={format!("rank-sent-{r}")} data-bytes={t.sent_bytes.to_string()}>{ format_bytes(t.sent_bytes as f64) }</td> } }) }</tr>
                                <tr><th scope="row">{ tr(lang, Key::ReceivedRow) }</th>{ for ranks.map(|r| html! { <td>{ format_bytes(trace.ranks[r].received_bytes as f64) }</td> }) }</tr>
                            </tbody>
                        }
                    }) }
                </table>
            }
            <p class="muted small" data-testid="simulated-in" data-recalled={props.recalled.then_some("true")} data-in-worker={view.in_worker.then_some("true")} data-worker-lost={(view.worker_lost && !props.recalled).then_some("true")}>
                { trf(lang, match (props.recalled, view.in_worker, view.worker_lost) { (true, _, _) => Key::SimulatedBefore, (false, true, _) => Key::SimulatedInWorker, (false, false, true) => Key::SimulatedAfterWorkerLost, (false, false, false) => Key::SimulatedIn }, &[&elapsed(view.sim_ms), &crate::ui::i18n::grouped(trace.schedule.len())]) }
            </p>
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

/// How long a run took to simulate, as the run line says it: a run too quick for the page's clock
/// (one GPU, nothing to send) took "< 0.1 ms", not "0 s".
fn elapsed(ms: f64) -> String {
    if ms < 0.1 {
        "< 0.1 ms".into()
    } else {
        format_secs(ms / 1e3)
    }
}
