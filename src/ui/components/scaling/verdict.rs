//! The chapter's claim for the chosen scenario, the parameters that make it so, and what the
//! simulation says with the learner's changes.

use crate::course::chapter::{ChapterScenario, Metric};
use crate::sim::units::{format_bytes, format_secs};
use crate::ui::i18n::{
    Key, Lang, algorithm_label, hardware_texts, model_texts, percent, scenario_texts, times, tr,
    trf, use_lang,
};
use crate::ui::model::scaling::{Setup, because as because_text};
use yew::prelude::*;

/// The metric's value as the chapter states it.
fn metric_value(lang: Lang, metric: Metric, v: f64) -> String {
    match metric {
        Metric::Speedup => times(lang, v, 2),
        Metric::CommShare | Metric::GpuUtilisation => percent(lang, v, 1),
        Metric::RingOverTree => format!("{v:.2}"),
    }
}

/// The chapter's range, in words.
fn expected_range(lang: Lang, metric: Metric, (lo, hi): (f64, f64)) -> String {
    let v = |x: f64| match metric {
        Metric::Speedup => times(lang, x, 0),
        Metric::CommShare | Metric::GpuUtilisation => format!("{:.0}%", x * 100.0),
        Metric::RingOverTree => format!("{x}"),
    };
    if lo <= 0.0 {
        trf(lang, Key::Under, &[&v(hi)])
    } else if !hi.is_finite() || (metric == Metric::CommShare && hi >= 1.0) {
        trf(lang, Key::Over, &[&v(lo)])
    } else {
        format!("{}–{}", v(lo), v(hi))
    }
}

#[derive(Properties, PartialEq)]
pub struct VerdictProps {
    pub setup: Setup,
}

/// The chapter's claim, the parameters that make it so, and what the simulation says.
#[component]
pub fn Verdict(props: &VerdictProps) -> Html {
    let lang = use_lang();
    let outcome = use_memo(props.setup.clone(), |s| s.verdict());
    let s: ChapterScenario = props.setup.scenario();
    let changes = props.setup.changes(lang);
    let model = s.training();
    let (_, claim, because) = scenario_texts(lang, &s);
    let (hw_name, hw_source) = hardware_texts(lang, &s.hardware);
    let (model_name, model_source) = model_texts(lang, &s.model);
    let result = match &*outcome {
        Ok(o) => {
            let detail = match (s.metric, o.ring_and_tree_secs) {
                (Metric::RingOverTree, Some((ring, tree))) => trf(
                    lang,
                    Key::RingVsTree,
                    &[&format_secs(ring), &format_secs(tree)],
                ),
                _ => trf(
                    lang,
                    Key::StepDetail,
                    &[
                        &format_secs(o.step.step_secs),
                        &format_secs(o.step.compute_secs),
                        &format_secs(o.step.exposed_io_secs),
                        &format_secs(o.step.exposed_comm_secs),
                        &format_secs(o.step.comm_secs),
                    ],
                ),
            };
            html! {
                <p class="verdict-result">
                    { trf(lang, Key::Simulated, &[metric_name(lang, s.metric)]) }
                    <strong data-testid="verdict-value">{ metric_value(lang, s.metric, o.value) }</strong>
                    { detail }{ trf(lang, Key::CountedAsAgreeing, &[&expected_range(lang, s.metric, s.expected)]) }
                    <span class={if o.holds { "ok" } else { "bad" }}>
                        { tr(lang, if o.holds { Key::Holds } else { Key::DoesNotHold }) }
                    </span>
                </p>
            }
        }
        Err(e) => {
            html! { <p class="error">{ crate::ui::i18n::errors::scenario_error(lang, e) }</p> }
        }
    };
    let computed_because = because_text(
        lang,
        &props.setup,
        outcome.as_ref().as_ref().ok().map(|o| &o.step),
    );
    let (value, holds) = match &*outcome {
        Ok(o) => (o.value.to_string(), o.holds.to_string()),
        Err(_) => (String::new(), String::new()),
    };
    html! {
        <section class="verdict" data-testid="preset-verdict" data-value={value} data-holds={holds}>
            <h3 class="claim">{ claim }</h3>
            { result }
            <p class="because" data-testid="verdict-because"><span class="muted">{ tr(lang, Key::Because) }</span>{ computed_because }
                if let (Ok(o), false) = (&*outcome, s.metric == Metric::RingOverTree) {
                    { " " }<span data-testid="verdict-step-form">{ trf(lang, crate::ui::model::chapter::step_form_key(&o.step), &[&format_secs(o.step.io_secs)]) }</span>
                }
            </p>
            if changes.is_empty() {
                <p class="because"><span class="muted">{ tr(lang, Key::ChapterBecause) }</span>{ because }</p>
            }
            <dl class="params">
                <div><dt>{ tr(lang, Key::Hardware) }</dt><dd>{ hw_name }<span class="source">{ hw_source }</span></dd></div>
                <div><dt>{ tr(lang, Key::Model) }</dt><dd>{ model_name }<span class="source">{ model_source }</span></dd></div>
                <div><dt>{ tr(lang, Key::ClusterLabel) }</dt><dd>{ trf(lang, Key::ClusterShape, &[&s.racks.to_string(), &s.nodes_per_rack.to_string(), &s.hardware.gpus_per_node.to_string(), &s.gpus().to_string()]) }
                    <span class="source">{ trf(lang, Key::ClusterLinks, &[&s.hardware.intra_gbytes_per_sec.to_string(), &s.hardware.node_gbits_per_sec.to_string(), &s.hardware.rack_gbits_per_sec.to_string()]) }</span></dd></div>
                <div><dt>{ tr(lang, Key::TrainingLabel) }</dt><dd>{ trf(lang, Key::TrainingText, &[&format_bytes(model.gradient_bytes() as f64), &format_secs(model.compute_secs), &percent(lang, s.overlap, 0), &format_bytes(s.storage_bytes_per_sec)]) }
                    <span class="source">{ trf(lang, Key::AllreduceWith, &[algorithm_label(lang, s.algorithm)]) }</span></dd></div>
            </dl>
            if !changes.is_empty() {
                <p class="changes" data-testid="verdict-changes">{ tr(lang, Key::ChangedFrom) }{ changes.join(lang.pick("; ", "；")) }</p>
            }
        </section>
    }
}

/// The metric's name in `lang`.
fn metric_name(lang: Lang, metric: Metric) -> &'static str {
    tr(
        lang,
        match metric {
            Metric::Speedup => Key::MetricSpeedup,
            Metric::CommShare => Key::MetricCommShare,
            Metric::GpuUtilisation => Key::MetricUtilisation,
            Metric::RingOverTree => Key::MetricRingOverTree,
        },
    )
}
