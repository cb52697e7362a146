//! §1.2: the four layers and the short stave. One of the chapter's two stories, storage and network
//! sliders, and the step split into compute, waiting for storage and exposed communication, from
//! `chapter::evaluate`; the compute layer's "too little memory" as a model's training state
//! against one GPU's memory.

use crate::course::chapter::{GPU_MEMORY_GB, MODELS, memory_fit};
use crate::sim::units::format_secs;
use crate::sim::units::{Bandwidth, format_bandwidth, format_bandwidth_bits, format_bytes};
use crate::ui::components::widgets::{
    Ladder, Part, bar, choice, link_refused, linked_figure, setter, stacked, use_link_state,
    use_link_writer,
};
use crate::ui::i18n::{Key, Lang, model_texts, percent, tr, trf, use_lang};
use crate::ui::model::chapter::{
    BARREL_LATE_MS, BARREL_LATE_RANK, BARREL_NIC_PERCENT, Layer, NIC_GBITS_PER_SEC,
    STORAGE_MBYTES_PER_SEC, Story, barrel, layers_outcome, short_stave, step_form_key,
};
use yew::prelude::*;

fn layer_keys(layer: Layer) -> (&'static str, Key, Key, Key) {
    match layer {
        Layer::Compute => (
            "compute",
            Key::LayerCompute,
            Key::LayerComputeParts,
            Key::LayerComputeNote,
        ),
        Layer::Network => (
            "network",
            Key::LayerNetwork,
            Key::LayerNetworkParts,
            Key::LayerNetworkNote,
        ),
        Layer::Storage => (
            "storage",
            Key::LayerStorage,
            Key::LayerStorageParts,
            Key::LayerStorageNote,
        ),
        Layer::Scheduling => (
            "scheduling",
            Key::LayerScheduling,
            Key::LayerSchedulingParts,
            Key::LayerSchedulingNote,
        ),
    }
}

/// A story's own storage (MB/s) and NIC (Gbps) settings.
fn defaults(story: Story) -> (u64, u64) {
    let s = story.scenario();
    (
        (s.storage_bytes_per_sec / 1e6).round() as u64,
        s.hardware.node_gbits_per_sec.round() as u64,
    )
}

fn storage_text(mbytes: u64) -> String {
    format_bandwidth(Bandwidth::from_gbytes_per_sec(mbytes as f64 / 1000.0))
}

fn nic_text(gbits: u64) -> String {
    format_bandwidth_bits(Bandwidth::from_gbits_per_sec(gbits as f64))
}

fn layer_cards(lang: Lang, stave: Option<Layer>) -> Html {
    html! {
        <ul class="ch-layers" data-testid="layers-cards">
            { for Layer::ALL.iter().map(|&l| {
                let (id, name, parts, note) = layer_keys(l);
                let short = stave == Some(l);
                html! {
                    <li class={classes!("ch-layer", format!("layer-{id}"), short.then_some("short"))}
                        data-testid={format!("layer-{id}")} data-short={short.to_string()}>
                        <strong>{ tr(lang, name) }</strong>
                        if short { <span class="ch-badge stave">{ tr(lang, Key::ShortStave) }</span> }
                        <span class="ch-layer-parts">{ tr(lang, parts) }</span>
                        <span class="ch-layer-note">{ tr(lang, note) }</span>
                    </li>
                }
            }) }
        </ul>
    }
}

/// The shortest stave, live: one NIC slowed and one GPU late, simulated.
#[component]
fn BarrelFigure() -> Html {
    let lang = use_lang();
    // A link may carry `barrel=NIC %.late ms`.
    let (link, refused) = use_link_state("barrel", 2, |v| {
        BARREL_NIC_PERCENT.contains(&v[0]) && BARREL_LATE_MS.contains(&v[1])
    });
    let nic = use_state(|| link.as_ref().map_or(100u64, |v| v[0]));
    let late = use_state(|| link.as_ref().map_or(0u64, |v| v[1]));
    use_link_writer("barrel", vec![*nic, *late], vec![100, 0]);
    let outcome = use_memo((*nic, *late), |&(n, l)| {
        barrel(n as f64 / 100.0, l as f64 / 1000.0)
    });
    let on_nic = setter(&nic);
    let on_late = setter(&late);
    let plot = match &*outcome {
        Err(e) => {
            html! { <p class="ch-error">{ crate::ui::i18n::errors::scenario_error(lang, e) }</p> }
        }
        Ok(b) => html! {
            <p class="ch-readout" aria-live="polite" data-testid="barrel-readout"
               data-ring-secs={b.ring_secs.to_string()} data-tree-secs={b.tree_secs.to_string()}
               data-speedup={b.speedup.to_string()}>
                { trf(lang, Key::BarrelReadout, &[
                    &format_secs(b.ring_secs),
                    &format_bandwidth(crate::sim::units::Bandwidth::from_bytes_per_sec(b.ring_busbw_bytes_per_sec)),
                    &format_secs(b.tree_secs),
                    &crate::ui::i18n::times(lang, b.speedup, 1),
                    &crate::ui::i18n::times(lang, b.healthy_speedup, 1),
                ]) }
            </p>
        },
    };
    // Dragged right, the NIC keeps less: said as a slowdown, which grows that way as the late
    // GPU's delay does below (read as "keeps", its falling percentage ran against the drag).
    let kept = nic.to_string();
    let nic_text = if *nic >= 100 {
        trf(lang, Key::BarrelNicFull, &[&kept])
    } else {
        let slower = crate::sim::units::sig3(100.0 / (*nic).max(1) as f64);
        trf(lang, Key::BarrelNicSlower, &[&kept, &slower])
    };
    html! {
        <>
        { link_refused(lang, "barrel", refused.as_deref()) }
        <div class="ch-figure" data-testid="barrel">
            <div class="ch-controls">
                <p class="ch-field-name"><strong>{ tr(lang, Key::BarrelTitle) }</strong></p>
                <Ladder testid="barrel-nic" label={tr(lang, Key::BarrelNic)} values={BARREL_NIC_PERCENT.to_vec()}
                        value={*nic} text={nic_text} on_change={on_nic} />
                <Ladder testid="barrel-late" label={trf(lang, Key::BarrelLate, &[&BARREL_LATE_RANK.to_string()])} values={BARREL_LATE_MS.to_vec()}
                        value={*late} text={format_secs(*late as f64 / 1000.0)} on_change={on_late} />
            </div>
            <div class="ch-plot">
                { plot }
                <p class="ch-note">{ tr(lang, Key::BarrelNote) }</p>
            </div>
        </div>
        </>
    }
}

/// §1.2's compute layer, live: "high compute, too little memory, and the model did not fit".
#[component]
fn MemoryFigure() -> Html {
    let lang = use_lang();
    // A link may carry `memory=model.GB` (the model's place among the presets).
    let (link, refused) = use_link_state("memory", 2, |v| {
        v[0] < MODELS.len() as u64 && GPU_MEMORY_GB.iter().any(|g| g.0 == v[1])
    });
    let model = use_state(|| link.as_ref().map_or(1usize, |v| v[0] as usize));
    let gb = use_state(|| link.as_ref().map_or(24u64, |v| v[1]));
    use_link_writer("memory", vec![*model as u64, *gb], vec![1, 24]);
    let m = &MODELS[(*model).min(MODELS.len() - 1)];
    let fit = memory_fit(m, *gb * 1_000_000_000);
    let names: Vec<&'static str> = MODELS.iter().map(|m| model_texts(lang, m).0).collect();
    let on_model = setter(&model);
    let on_gb = setter(&gb);
    let example = GPU_MEMORY_GB
        .iter()
        .find(|(g, _)| *g == *gb)
        .map_or("", |(_, e)| e);
    let (name, state, memory) = (
        names[(*model).min(names.len() - 1)],
        format_bytes(fit.state_bytes as f64),
        format!("{} GB", *gb),
    );
    let readout = if fit.gpus_to_hold == 1 {
        trf(
            lang,
            Key::MemoryFits,
            &[name, &state, &percent(lang, fit.share, 0), &memory],
        )
    } else {
        trf(
            lang,
            Key::MemoryNoFit,
            &[name, &state, &memory, &fit.gpus_to_hold.to_string()],
        )
    };
    let controls = html! {
        <>
        { choice("memory-model", tr(lang, Key::Model), &names, *model, &on_model) }
        <Ladder testid="memory-gpu" label={tr(lang, Key::MemoryGpu)} values={GPU_MEMORY_GB.iter().map(|g| g.0).collect::<Vec<_>>()}
                value={*gb} text={format!("{memory} ({example})")} on_change={on_gb} />
        </>
    };
    let plot = html! {
        <>
        { bar(tr(lang, Key::MemoryBar), fit.share, &percent(lang, fit.share, 0), if fit.gpus_to_hold > 1 { "over" } else { "" }, "memory-bar") }
        <p class="ch-readout" aria-live="polite" data-testid="memory-readout"
           data-state-bytes={fit.state_bytes.to_string()} data-gpus={fit.gpus_to_hold.to_string()}>{ readout }</p>
        <p class="ch-note">{ tr(lang, Key::MemoryNote) }</p>
        </>
    };
    linked_figure(
        lang,
        "memory",
        refused.as_deref(),
        tr(lang, Key::MemoryTitle),
        controls,
        plot,
    )
}

#[component]
pub fn LayersSection() -> Html {
    let lang = use_lang();
    // A link may carry `layers=story.storage MB/s.NIC Gbps` (story 0: storage, 1: network).
    let (link, refused) = use_link_state("layers", 3, |v| {
        v[0] < 2 && STORAGE_MBYTES_PER_SEC.contains(&v[1]) && NIC_GBITS_PER_SEC.contains(&v[2])
    });
    let story = use_state(|| match link.as_ref() {
        Some(v) if v[0] == 1 => Story::Network,
        _ => Story::Io,
    });
    let storage = use_state(|| link.as_ref().map_or(defaults(Story::Io).0, |v| v[1]));
    let nic = use_state(|| link.as_ref().map_or(defaults(Story::Io).1, |v| v[2]));
    let io = defaults(Story::Io);
    use_link_writer(
        "layers",
        vec![u64::from(*story == Story::Network), *storage, *nic],
        vec![0, io.0, io.1],
    );
    let outcome = use_memo((*story, *storage, *nic), |&(s, st, n)| {
        layers_outcome(s, st as f64 * 1e6, n as f64)
    });

    let on_story = {
        let (story, storage, nic) = (story.clone(), storage.clone(), nic.clone());
        Callback::from(move |i: usize| {
            let s = if i == 0 { Story::Io } else { Story::Network };
            let (st, n) = defaults(s);
            story.set(s);
            storage.set(st);
            nic.set(n);
        })
    };
    let on_storage = setter(&storage);
    let on_nic = setter(&nic);

    let (cards, plot) = match &*outcome {
        Err(e) => (
            layer_cards(lang, None),
            html! { <p class="ch-error">{ crate::ui::i18n::errors::scenario_error(lang, e) }</p> },
        ),
        Ok(o) => {
            let s = &o.step;
            let stave = short_stave(s);
            let stave_name = match stave {
                Some(l) => tr(lang, layer_keys(l).1),
                None => tr(lang, Key::NoBottleneck),
            };
            let parts = Part::of_step(lang, s);
            let quote = if *story == Story::Io {
                Key::StoryIoQuote
            } else {
                Key::StoryNetQuote
            };
            (
                layer_cards(lang, stave),
                html! {
                    <>
                        { stacked(tr(lang, Key::StepTime), &parts, "layers-step") }
                        <p class="ch-note" data-testid="layers-step-form">{ trf(lang, step_form_key(s), &[&format_secs(s.io_secs)]) }</p>
                        <dl class="ch-numbers">
                            <div data-testid="layers-utilisation" data-value={format!("{:.4}", s.gpu_utilisation)}>
                                <dt>{ tr(lang, Key::GpuUtilisation) }</dt><dd>{ percent(lang, s.gpu_utilisation, 0) }</dd>
                            </div>
                            <div data-testid="layers-comm-share" data-value={format!("{:.4}", s.comm_share)}>
                                <dt>{ tr(lang, Key::CommShare) }</dt><dd>{ percent(lang, s.comm_share, 0) }</dd>
                            </div>
                        </dl>
                        <p class="ch-readout" aria-live="polite" data-testid="layers-stave">{ trf(lang, Key::Bottleneck, &[stave_name]) }</p>
                        <p class="ch-quote">{ tr(lang, quote) }</p>
                    </>
                },
            )
        }
    };

    html! {
        <section id="four-layers" class="ch-section" data-testid="section-four-layers" aria-labelledby="four-layers-title">
            <h2 id="four-layers-title">{ tr(lang, Key::LayersTitle) }</h2>
            <p>{ tr(lang, Key::LayersBody) }</p>
            <crate::ui::components::chapter::claims::ClaimChips ids={vec!["network-100g-over-40pct", "io-bound-30pct"]} />
            { cards }
            { link_refused(lang, "layers", refused.as_deref()) }
            <div class="ch-figure">
                <div class="ch-controls">
                    { choice("layers-story", tr(lang, Key::Story), &[tr(lang, Key::StoryIo), tr(lang, Key::StoryNet)], if *story == Story::Io { 0 } else { 1 }, &on_story) }
                    <Ladder testid="layers-storage" label={tr(lang, Key::StorageBandwidth)} values={STORAGE_MBYTES_PER_SEC.to_vec()}
                            value={*storage} text={storage_text(*storage)} on_change={on_storage} />
                    <Ladder testid="layers-nic" label={tr(lang, Key::NetworkBandwidth)} values={NIC_GBITS_PER_SEC.to_vec()}
                            value={*nic} text={nic_text(*nic)} on_change={on_nic} />
                </div>
                <div class="ch-plot">{ plot }</div>
            </div>
            <MemoryFigure />
            <super::roofline::RooflineFigure />
            <BarrelFigure />
        </section>
    }
}
