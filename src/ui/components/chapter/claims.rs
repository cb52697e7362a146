//! The chapter's claims, checked live: every quantitative claim beside what the simulation gives
//! under the reader's conditions (GPU count, message size, NIC and uplink bandwidth), with a
//! verdict and an explanation in the current language. Each row is checked again only when a
//! condition it reads changes.

use crate::course::claims::{CLAIMS, Claim, Conditions, Verdict, check};
use crate::sim::units::{Bandwidth, format_bandwidth_bits, format_bytes};
use crate::ui::components::widgets::{
    Ladder, link_refused, setter, use_link_state, use_link_writer,
};
use crate::ui::i18n::{Key, Lang, gpus, tr, trf, use_lang};
use crate::ui::model::chapter::{CLAIM_GBITS, CLAIM_GBITS_AT_REST, CLAIM_GPUS, claim_sizes};
use crate::ui::model::claims_text::{explanation, format_value, value_caption};
use yew::prelude::*;

fn verdict_text(lang: Lang, v: Verdict) -> (&'static str, &'static str) {
    match v {
        Verdict::Holds => ("holds", tr(lang, Key::VerdictHolds)),
        Verdict::Approximately => ("approximately", tr(lang, Key::VerdictApproximately)),
        Verdict::HoldsUnder => ("holds-under", tr(lang, Key::VerdictHoldsUnder)),
        Verdict::DoesNotHold => ("does-not-hold", tr(lang, Key::VerdictDoesNotHold)),
    }
}

#[derive(Properties, PartialEq)]
struct RowProps {
    index: usize,
    /// Only the conditions this claim reads.
    conditions: Conditions,
}

#[component]
fn ClaimRow(props: &RowProps) -> Html {
    let lang = use_lang();
    let claim = &CLAIMS[props.index];
    let result = use_memo(props.conditions, move |c| check(claim, c));
    let quote = match lang {
        Lang::En => html! {
            <>
                <span class="ch-claim-quote">{ claim.quote_en }</span>
                <q class="ch-original" lang="zh-CN">{ claim.quote_zh }</q>
            </>
        },
        Lang::Zh => html! { <span class="ch-claim-quote">{ claim.quote_zh }</span> },
    };
    let (verdict, value, why) = match &*result {
        Ok(r) => {
            let (id, text) = verdict_text(lang, r.verdict);
            (
                Some((id, text)),
                html! {
                    <>
                        <span class="ch-value" data-testid="claim-value" data-value={r.value().to_string()}>{ format_value(lang, claim, r.value()) }</span>
                        <span class="ch-value-caption">{ tr(lang, value_caption(claim)) }</span>
                    </>
                },
                explanation(lang, claim, r),
            )
        }
        Err(e) => (
            None,
            html! { { "—" } },
            trf(
                lang,
                Key::ClaimError,
                &[&crate::ui::i18n::errors::scenario_error(lang, e)],
            ),
        ),
    };
    let verdict_id = verdict.map_or("error", |v| v.0);
    // Whether the last change of this claim's conditions changed its verdict (highlighted until
    // its conditions change again).
    let seen = use_mut_ref(|| (props.conditions, verdict_id, false));
    let changed = {
        let mut seen = seen.borrow_mut();
        if seen.0 != props.conditions {
            *seen = (props.conditions, verdict_id, seen.1 != verdict_id);
        }
        seen.2
    };
    html! {
        <tr class={classes!("ch-claim", changed.then_some("ch-verdict-changed"))} id={format!("claim-{}", claim.id)} data-testid={format!("claim-{}", claim.id)}
            data-verdict={verdict_id} data-changed={if changed { "true" } else { "false" }}>
            <td class="ch-claim-section" data-label={tr(lang, Key::ColSection)}>{ format!("§{}", claim.section) }</td>
            <td class="ch-claim-text" data-label={tr(lang, Key::ColClaim)}>{ quote }</td>
            <td class="ch-claim-value" data-label={tr(lang, Key::ColValue)}>{ value }</td>
            <td class="ch-claim-verdict" data-label={tr(lang, Key::ColVerdict)}>
                if let Some((id, text)) = verdict {
                    <span class={classes!("ch-verdict", id)} data-testid="claim-verdict">{ text }</span>
                    if changed { { " " }<span class="ch-changed-badge">{ tr(lang, Key::VerdictChanged) }</span> }
                }
            </td>
            <td class="ch-claim-why" data-label={tr(lang, Key::ColWhy)}>{ why }</td>
        </tr>
    }
}

#[derive(Properties, PartialEq)]
pub struct ClaimChipsProps {
    /// The claims this passage of the chapter makes.
    pub ids: Vec<&'static str>,
}

/// The verdicts of the claims a section's text makes, next to that text: each the chapter's
/// words and the simulation's verdict under the chapter's own conditions, linking to its row in
/// the claims table, where its conditions can be changed.
#[component]
pub fn ClaimChips(props: &ClaimChipsProps) -> Html {
    let lang = use_lang();
    let checks = use_memo(props.ids.clone(), |ids| {
        ids.iter()
            .filter_map(|id| Claim::find(id))
            .map(|c| (c, check(c, &Conditions::default())))
            .collect::<Vec<_>>()
    });
    html! {
        <ul class="ch-chips" aria-label={tr(lang, Key::ClaimsHere)}>
            { for checks.iter().map(|(c, r)| {
                let (id, text) = match r {
                    Ok(r) => verdict_text(lang, r.verdict),
                    Err(_) => ("error", tr(lang, Key::VerdictDoesNotHold)),
                };
                let quote = lang.pick(c.quote_en, c.quote_zh);
                html! {
                    <li class="ch-chip" data-testid={format!("chip-{}", c.id)} data-verdict={id}>
                        <q>{ quote }</q>{ " " }
                        <a class={classes!("ch-verdict", id)} href={format!("#claim-{}", c.id)}
                           title={tr(lang, Key::ChipHint)}>{ text }</a>
                    </li>
                }
            }) }
        </ul>
    }
}

fn gbits_text(lang: Lang, g: Option<u64>) -> String {
    match g {
        None => tr(lang, Key::AsInChapter).to_string(),
        Some(g) => format_bandwidth_bits(Bandwidth::from_gbits_per_sec(g as f64)),
    }
}

/// A bandwidth condition: a slider over real values and, beside it, its own "as in the chapter"
/// reset (pressed while the chapter's value applies).
fn bandwidth_condition(
    lang: Lang,
    testid: &'static str,
    label: Key,
    value: &UseStateHandle<Option<u64>>,
) -> Html {
    let on_change = {
        let value = value.clone();
        Callback::from(move |v: u64| value.set(Some(v)))
    };
    let reset = {
        let value = value.clone();
        Callback::from(move |_: MouseEvent| value.set(None))
    };
    let chapter = value.is_none();
    html! {
        <div class={classes!("ch-condition", chapter.then_some("as-chapter"))}>
            <Ladder testid={testid} label={tr(lang, label)} values={CLAIM_GBITS.to_vec()}
                    value={value.unwrap_or(CLAIM_GBITS_AT_REST)} text={gbits_text(lang, **value)} on_change={on_change} />
            <button type="button" class="ch-as-chapter" data-testid={format!("{testid}-chapter")}
                    aria-pressed={if chapter { "true" } else { "false" }} disabled={chapter} onclick={reset}>
                { "↺ " }{ tr(lang, Key::AsInChapter) }
            </button>
        </div>
    }
}

/// `claims=GPUs.bytes.NIC.uplink` (0: as in the chapter).
fn valid_link(v: &[u64]) -> bool {
    let gbits = |g: u64| g == 0 || CLAIM_GBITS.contains(&g);
    CLAIM_GPUS.contains(&v[0]) && claim_sizes().contains(&v[1]) && gbits(v[2]) && gbits(v[3])
}

#[component]
pub fn ClaimsPanel() -> Html {
    let lang = use_lang();
    let d = Conditions::default();
    let (link, refused) = use_link_state("claims", 4, valid_link);
    let at = |i: usize, default: u64| link.as_ref().map_or(default, |v| v[i]);
    let gpu_count = use_state(|| at(0, d.gpus as u64));
    let size = use_state(|| at(1, d.size_bytes));
    let node = use_state(|| Some(at(2, 0)).filter(|&g| g > 0));
    let rack = use_state(|| Some(at(3, 0)).filter(|&g| g > 0));
    use_link_writer(
        "claims",
        vec![*gpu_count, *size, node.unwrap_or(0), rack.unwrap_or(0)],
        vec![d.gpus as u64, d.size_bytes, 0, 0],
    );
    let conditions = Conditions {
        gpus: *gpu_count as usize,
        size_bytes: *size,
        node_gbits_per_sec: node.map(|g| g as f64),
        rack_gbits_per_sec: rack.map(|g| g as f64),
        ..d
    };
    let reset = {
        let (g, s, n, r) = (gpu_count.clone(), size.clone(), node.clone(), rack.clone());
        Callback::from(move |_| {
            g.set(d.gpus as u64);
            s.set(d.size_bytes);
            n.set(None);
            r.set(None);
        })
    };
    html! {
        <section id="claims" class="ch-section ch-claims" data-testid="claims" aria-labelledby="claims-title">
            <h2 id="claims-title">{ tr(lang, Key::ClaimsTitle) }</h2>
            <p>{ tr(lang, Key::ClaimsBody) }</p>
            { link_refused(lang, "claims", refused.as_deref()) }
            <fieldset class="ch-conditions">
                <legend>{ tr(lang, Key::Conditions) }</legend>
                <Ladder testid="claims-gpus" label={tr(lang, Key::Gpus)} values={CLAIM_GPUS.to_vec()}
                        value={*gpu_count} text={gpus(lang, *gpu_count as usize)} on_change={setter(&gpu_count)} />
                <Ladder testid="claims-size" label={tr(lang, Key::MessageSize)} values={claim_sizes()}
                        value={*size} text={format_bytes(*size as f64)} on_change={setter(&size)} />
                { bandwidth_condition(lang, "claims-nic", Key::NodeNic, &node) }
                { bandwidth_condition(lang, "claims-uplink", Key::RackUplink, &rack) }
                <button type="button" class="ch-reset" data-testid="claims-reset" onclick={reset}>{ tr(lang, Key::ResetConditions) }</button>
                // What the sliders do not set, said (the latency row's 5 µs steps stood beside the
                // Ring vs Tree figure's 2 µs with nothing to say why).
                <p class="ch-note ch-fixed" data-testid="claims-fixed">{ trf(lang, Key::ClaimsFixed, &[
                    &crate::sim::units::format_bandwidth(Bandwidth::from_gbytes_per_sec(conditions.port_gbytes_per_sec)),
                    &crate::sim::units::format_secs(conditions.latency_secs),
                ]) }</p>
            </fieldset>
            <p class="ch-note" aria-live="polite" data-testid="claims-changed">{ tr(lang, Key::VerdictChangedNote) }</p>
            <div class="ch-table-wrap">
                <table class="ch-table ch-claims-table">
                    <thead><tr>
                        <th scope="col">{ tr(lang, Key::ColSection) }</th>
                        <th scope="col">{ tr(lang, Key::ColClaim) }</th>
                        <th scope="col">{ tr(lang, Key::ColValue) }</th>
                        <th scope="col">{ tr(lang, Key::ColVerdict) }</th>
                        <th scope="col">{ tr(lang, Key::ColWhy) }</th>
                    </tr></thead>
                    <tbody>
                        { for CLAIMS.iter().enumerate().map(|(i, c)| html! {
                            <ClaimRow key={c.id} index={i} conditions={c.relevant(&conditions)} />
                        }) }
                    </tbody>
                </table>
            </div>
        </section>
    }
}
