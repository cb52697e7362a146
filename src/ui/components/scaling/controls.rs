//! The speedup section's controls: the chapter's scenarios, the model switch (textbook or NCCL on
//! real hardware), hardware, NIC bandwidth, model, overlap, algorithms and the sweep's GPU count.
//! Each sends one [`SetupEdit`] to the section's reducer.

use crate::course::chapter::{CHAPTER_SCENARIOS, MODELS};
use crate::sim::algorithms::Algorithm;
use crate::sim::nccl::system::PRESETS as NCCL_SYSTEMS;
use crate::ui::components::inputs::{input_value, select_value};
use crate::ui::i18n::{
    Key, Lang, algorithm_label, hardware_texts, model_texts, scenario_texts, system_title, tr, trf,
    use_lang,
};
use crate::ui::model::ladders::{
    bandwidth_label, bandwidth_ladder_mbps, slider_position, slider_value,
};
use crate::ui::model::scaling::{NCCL_CHART_MAX_GPUS, Setup, TREE_SEGMENTS, hardware_choices};
use crate::ui::model::scaling_edit::SetupEdit;
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct ControlsProps {
    pub setup: Setup,
    pub on_edit: Callback<SetupEdit>,
}

/// The model switch and, with NCCL, its system and NVLS (part of the controls' render).
fn network_switch(lang: Lang, props: &ControlsProps) -> Html {
    let nccl = props.setup.nccl;
    let emit = |e: fn(&Event) -> SetupEdit| {
        let on_edit = props.on_edit.clone();
        Callback::from(move |ev: Event| on_edit.emit(e(&ev)))
    };
    html! {
        <div class="scaling-network" role="radiogroup" aria-label={tr(lang, Key::NcclModelSwitch)}>
            <h2>{ tr(lang, Key::NcclModelSwitch) }</h2>
            <label><input type="radio" name="scaling-network" data-testid="scaling-model-ideal" checked={nccl.is_none()}
                onchange={emit(|_| SetupEdit::Nccl(false))} />{ tr(lang, Key::NcclModelIdeal) }</label>
            <label><input type="radio" name="scaling-network" data-testid="scaling-model-nccl" checked={nccl.is_some()}
                onchange={emit(|_| SetupEdit::Nccl(true))} />{ tr(lang, Key::NcclModelNccl) }</label>
            if let Some(pick) = nccl {
                <>
                <label class="field compact">
                    <span class="field-name">{ tr(lang, Key::NcclSystem) }</span>
                    <select data-testid="scaling-nccl-system" onchange={emit(|e| SetupEdit::NcclSystem(select_value(e)))} key={pick.system}>
                        { for NCCL_SYSTEMS.iter().map(|id| html! {
                            <option value={*id} selected={*id == pick.system}>{ system_title(lang, id, 1) }</option>
                        }) }
                    </select>
                </label>
                <label><input type="checkbox" data-testid="scaling-nccl-nvls" checked={pick.nvls} onchange={emit(|_| SetupEdit::ToggleNvls)} />{ tr(lang, Key::NcclNvls) }</label>
                <p class="source" data-testid="scaling-nccl-note">{ trf(lang, Key::ScalingNcclNote, &[pick.system, &NCCL_CHART_MAX_GPUS.to_string()]) }</p>
                </>
            }
        </div>
    }
}

/// Every control of the section, in the sidebar.
#[component]
pub fn ScalingControls(props: &ControlsProps) -> Html {
    let lang = use_lang();
    let setup = &props.setup;
    let nccl = setup.nccl;
    let on_edit = props.on_edit.clone();
    let send = move |edit: SetupEdit| {
        let on_edit = on_edit.clone();
        Callback::from(move |_: MouseEvent| on_edit.emit(edit.clone()))
    };
    let on_select = |make: fn(String) -> SetupEdit| {
        let on_edit = props.on_edit.clone();
        Callback::from(move |e: Event| on_edit.emit(make(select_value(&e))))
    };
    let scenario_buttons = CHAPTER_SCENARIOS.iter().enumerate().map(|(i, s)| {
        let active = setup.chapter.id == s.id;
        html! {
            <button class="preset" aria-pressed={active.to_string()}
                    data-testid={format!("chapter-preset-{}", s.id)} title={scenario_texts(lang, s).1} onclick={send(SetupEdit::Scenario(i))}>
                { scenario_texts(lang, s).0 }
            </button>
        }
    });
    let hardware = hardware_choices();
    let ladder = bandwidth_ladder_mbps();
    let nic_mbps = (setup.hardware.node_gbits_per_sec * 1000.0).round() as u64;
    let on_nic = {
        let on_edit = props.on_edit.clone();
        let ladder = ladder.clone();
        Callback::from(move |e: InputEvent| {
            let mbps = slider_value(&ladder, input_value::<usize>(&e));
            on_edit.emit(SetupEdit::NicGbps(mbps as f64 / 1000.0));
        })
    };
    let on_overlap = {
        let on_edit = props.on_edit.clone();
        Callback::from(move |e: InputEvent| {
            on_edit.emit(SetupEdit::Overlap(input_value::<f64>(&e) / 100.0))
        })
    };
    let on_focus = {
        let on_edit = props.on_edit.clone();
        Callback::from(move |e: Event| {
            if let Ok(n) = select_value(&e).parse::<usize>() {
                on_edit.emit(SetupEdit::Focus(n));
            }
        })
    };
    let algorithm_boxes = Algorithm::CONCRETE.iter().map(|&a| {
        let checked = setup.algorithms.contains(&a);
        let toggle = {
            let on_edit = props.on_edit.clone();
            Callback::from(move |_: Event| on_edit.emit(SetupEdit::ToggleAlgorithm(a)))
        };
        html! {
            <label class={classes!("algo-check", super::algorithm_class(a))}>
                <input type="checkbox" checked={checked} data-testid={format!("algo-{}", a.name())}
                       onchange={toggle} />
                <span class="algo-swatch" />{ algorithm_label(lang, a) }
            </label>
        }
    });
    let focus = setup.sweep_gpus();
    let focus_options: Vec<usize> = setup.gpu_counts().into_iter().filter(|&n| n > 1).collect();
    html! {
        <aside class="scaling-controls controls">
            <h2>{ tr(lang, Key::ChapterScenarios) }</h2>
            <div class="presets chapter-presets">{ for scenario_buttons }</div>
            { network_switch(lang, props) }
            <div hidden={nccl.is_some()}>
            <h2 id="scaling-hardware-title">{ tr(lang, Key::Hardware) }</h2>
            <select data-testid="scaling-hardware" aria-labelledby="scaling-hardware-title" onchange={on_select(SetupEdit::Hardware)} key={setup.hardware.id}>
                { for hardware.iter().map(|h| html! {
                    <option value={h.id} selected={h.id == setup.hardware.id}>{ hardware_texts(lang, h).0 }</option>
                }) }
            </select>
            <p class="source" data-testid="hardware-source">{ hardware_texts(lang, &setup.hardware).1 }</p>
            <label class="field">
                <span class="field-name">{ tr(lang, Key::NodeNics) }</span>
                <input type="range" min="0" max={(ladder.len() - 1).to_string()} step="1"
                       value={slider_position(&ladder, nic_mbps).to_string()}
                       data-testid="network-bw"
                       data-values={ladder.iter().map(u64::to_string).collect::<Vec<_>>().join(",")}
                       aria-valuetext={bandwidth_label(nic_mbps)} oninput={on_nic} />
                <output class="field-value">{ bandwidth_label(nic_mbps) }</output>
            </label>
            </div>
            <h2 id="scaling-model-title">{ tr(lang, Key::Model) }</h2>
            <select data-testid="scaling-model" aria-labelledby="scaling-model-title" onchange={on_select(SetupEdit::Model)} key={setup.model.id}>
                { for MODELS.iter().map(|m| html! {
                    <option value={m.id} selected={m.id == setup.model.id}>{ model_texts(lang, m).0 }</option>
                }) }
            </select>
            <p class="source" data-testid="model-source">{ model_texts(lang, &setup.model).1 }</p>
            <label class="field">
                <span class="field-name">{ tr(lang, Key::Overlap) }</span>
                <input type="range" min="0" max="100" step="5" value={format!("{:.0}", setup.overlap * 100.0)}
                       data-testid="overlap" aria-valuetext={format!("{:.0}%", setup.overlap * 100.0)} oninput={on_overlap} />
                <output class="field-value">{ format!("{:.0}%", setup.overlap * 100.0) }</output>
            </label>
            <div hidden={nccl.is_some()}>
            <h2>{ tr(lang, Key::Algorithms) }</h2>
            <div class="algo-checks">{ for algorithm_boxes }</div>
            <p class="source">{ trf(lang, Key::TreeSegmentsNote, &[&TREE_SEGMENTS.to_string(), &(1024 / TREE_SEGMENTS).to_string()]) }</p>
            </div>
            <label class="field compact">
                <span class="field-name">{ tr(lang, Key::SweepAt) }</span>
                <select data-testid="focus-gpus" onchange={on_focus} key={focus.to_string()}>
                    { for focus_options.iter().map(|&n| html! {
                        <option value={n.to_string()} selected={n == focus}>{ crate::ui::i18n::gpus(lang, n) }</option>
                    }) }
                </select>
            </label>
        </aside>
    }
}
