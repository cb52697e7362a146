//! §1.4: comparison and how to choose. The chapter's table, then its two rack scenarios (800/200
//! and the inverted 400/800) with ring and tree simulated on them, time and cross-rack bytes.

use crate::sim::units::{Bandwidth, format_bandwidth_bits, format_bytes, format_secs};
use crate::ui::components::widgets::{
    Ladder, bar, choice, link_refused, setter, use_link_state, use_link_writer,
};
use crate::ui::i18n::{Key, Lang, percent, tr, trf, use_lang};
use crate::ui::model::chapter::{RACK_GBITS_PER_SEC, RACK_SCENARIOS, rack_comparison};
use yew::prelude::*;

/// (row, the chapter's ring cell, its tree cell, what the simulation shows, what NCCL does).
const ROWS: [(Key, Key, Key, Key, Key); 4] = [
    (
        Key::RowVolume,
        Key::RingVolume,
        Key::TreeVolume,
        Key::SimVolume,
        Key::NcclVolume,
    ),
    (
        Key::RowLatency,
        Key::RingLatency,
        Key::TreeLatency,
        Key::SimLatency,
        Key::NcclLatency,
    ),
    (
        Key::RowUse,
        Key::RingUse,
        Key::TreeUse,
        Key::SimUse,
        Key::NcclUse,
    ),
    (
        Key::RowComplexity,
        Key::RingComplexity,
        Key::TreeComplexity,
        Key::SimComplexity,
        Key::NcclComplexity,
    ),
];

fn table(lang: Lang) -> Html {
    html! {
        <div class="ch-table-wrap">
            <table class="ch-table" data-testid="compare-table">
                <caption>{ tr(lang, Key::CompareTableCaption) }</caption>
                <thead><tr>
                    <th scope="col">{ tr(lang, Key::Feature) }</th>
                    <th scope="col">{ "Ring AllReduce" }</th>
                    <th scope="col">{ "Tree AllReduce" }</th>
                </tr></thead>
                <tbody>
                    { for ROWS.iter().map(|&(row, ring, tree, sim, nccl)| html! {
                        <>
                            <tr><th scope="row">{ tr(lang, row) }</th><td>{ tr(lang, ring) }</td><td>{ tr(lang, tree) }</td></tr>
                            <tr class="ch-annotation" data-testid="compare-annotation">
                                <td colspan="3">
                                    <p><strong>{ tr(lang, Key::SimShows) }</strong>{ tr(lang, sim) }</p>
                                    <p><strong>{ tr(lang, Key::NcclDoes) }</strong>{ tr(lang, nccl) }</p>
                                </td>
                            </tr>
                        </>
                    }) }
                </tbody>
            </table>
        </div>
    }
}

fn gbps(g: u64) -> String {
    format_bandwidth_bits(Bandwidth::from_gbits_per_sec(g as f64))
}

#[component]
pub fn CompareSection() -> Html {
    let lang = use_lang();
    // A link may carry `rack=NIC Gbps.uplink Gbps`.
    let (link, refused) = use_link_state("rack", 2, |v| {
        v.iter().all(|g| RACK_GBITS_PER_SEC.contains(g))
    });
    let node = use_state(|| link.as_ref().map_or(RACK_SCENARIOS[0].1, |v| v[0]));
    let rack = use_state(|| link.as_ref().map_or(RACK_SCENARIOS[0].2, |v| v[1]));
    use_link_writer(
        "rack",
        vec![*node, *rack],
        vec![RACK_SCENARIOS[0].1, RACK_SCENARIOS[0].2],
    );
    let result = use_memo((*node, *rack), |&(n, r)| {
        rack_comparison(n as f64, r as f64)
    });
    let selected = RACK_SCENARIOS
        .iter()
        .position(|s| s.1 == *node && s.2 == *rack)
        .unwrap_or(usize::MAX);
    let on_scenario = {
        let (node, rack) = (node.clone(), rack.clone());
        Callback::from(move |i: usize| {
            let (_, n, r) = RACK_SCENARIOS[i.min(1)];
            node.set(n);
            rack.set(r);
        })
    };
    let on_node = setter(&node);
    let on_rack = setter(&rack);
    let plot = match &*result {
        Err(e) => {
            html! { <p class="ch-error">{ crate::ui::i18n::errors::scenario_error(lang, e) }</p> }
        }
        Ok(c) => {
            let t_max = c.ring_secs.max(c.tree_secs);
            let b_max = c
                .ring_cross_rack_bytes
                .max(c.tree_cross_rack_bytes)
                .max(1.0);
            let winner = if c.tree_secs < c.ring_secs {
                (
                    "tree",
                    trf(
                        lang,
                        Key::TreeWins,
                        &[&percent(lang, c.tree_secs / c.ring_secs, 0)],
                    ),
                )
            } else {
                (
                    "ring",
                    trf(
                        lang,
                        Key::RingWins,
                        &[&percent(lang, c.ring_secs / c.tree_secs, 0)],
                    ),
                )
            };
            html! {
                <>
                    <div class="ch-bars" data-testid="compare-time">
                        <div class="ch-bars-title">{ tr(lang, Key::AllreduceTime) }</div>
                        { bar(tr(lang, Key::VersusRing), c.ring_secs / t_max, &format_secs(c.ring_secs), "ring", "compare-ring-time") }
                        { bar(tr(lang, Key::PredictTreeShort), c.tree_secs / t_max, &format_secs(c.tree_secs), "tree", "compare-tree-time") }
                    </div>
                    <div class="ch-bars" data-testid="compare-bytes">
                        <div class="ch-bars-title">{ tr(lang, Key::CrossRackBytes) }</div>
                        { bar(tr(lang, Key::VersusRing), c.ring_cross_rack_bytes / b_max, &format_bytes(c.ring_cross_rack_bytes), "ring", "compare-ring-bytes") }
                        { bar(tr(lang, Key::PredictTreeShort), c.tree_cross_rack_bytes / b_max, &format_bytes(c.tree_cross_rack_bytes), "tree", "compare-tree-bytes") }
                    </div>
                    <p class="ch-readout" aria-live="polite" data-testid="compare-winner" data-winner={winner.0}
                       data-ring-secs={c.ring_secs.to_string()} data-tree-secs={c.tree_secs.to_string()}>{ winner.1 }</p>
                </>
            }
        }
    };
    html! {
        <section id="compare" class="ch-section" data-testid="section-compare" aria-labelledby="compare-title">
            <h2 id="compare-title">{ tr(lang, Key::CompareTitle) }</h2>
            { table(lang) }
            <p>{ tr(lang, Key::CompareBody) }</p>
            <crate::ui::components::chapter::claims::ClaimChips ids={vec!["tree-lower-latency", "inverted-400-800-ring-wins"]} />
            { link_refused(lang, "rack", refused.as_deref()) }
            <div class="ch-figure">
                <div class="ch-controls">
                    { choice("compare-scenario", tr(lang, Key::Scenario), &[tr(lang, Key::Scenario800200), tr(lang, Key::Scenario400800)], selected, &on_scenario) }
                    <Ladder testid="compare-node" label={tr(lang, Key::InRackBandwidth)} values={RACK_GBITS_PER_SEC.to_vec()}
                            value={*node} text={gbps(*node)} on_change={on_node} />
                    <Ladder testid="compare-rack" label={tr(lang, Key::CrossRackBandwidth)} values={RACK_GBITS_PER_SEC.to_vec()}
                            value={*rack} text={gbps(*rack)} on_change={on_rack} />
                </div>
                <div class="ch-plot">{ plot }</div>
            </div>
            <p class="ch-moral">{ tr(lang, Key::CompareAdvice) }</p>
        </section>
    }
}
