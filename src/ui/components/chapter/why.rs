//! §1.1: why 8 GPUs are not 8×. A GPU-count slider and a choice of cluster; the speedup, the step's
//! parts and the scaling efficiency at every count, all from `training::scaling`.

use crate::course::chapter::{
    GPU_TFLOPS, MFU_PERCENT, MODEL_10B, TRAINING_TOKENS_B, one_gpu_training,
};
use crate::sim::units::format_secs;
use crate::ui::components::widgets::{
    Ladder, Part, bar, choice, link_refused, linked_figure, setter, stacked, use_link_state,
    use_link_writer,
};
use crate::ui::i18n::{Key, gpus, percent, times, tr, trf, use_lang};
use crate::ui::model::chapter::{SPEEDUP_COUNTS, WhyCluster, speedup_curve, step_form_key};
use yew::prelude::*;

/// Days, as a reader counts them: a decimal below 10, whole days (grouped) above.
fn days(d: f64) -> String {
    if d < 10.0 {
        format!("{d:.1}")
    } else {
        crate::ui::i18n::grouped(d.round() as usize)
    }
}

#[derive(Properties, PartialEq)]
struct MonthsProps {
    /// The GPU count and speedup of the figure above, when it has one.
    at: Option<(usize, f64)>,
}

/// The intro's "three months on one GPU", worked out from 6 × parameters × tokens, and on the
/// cluster the figure above shows.
#[component]
fn MonthsFigure(props: &MonthsProps) -> Html {
    let lang = use_lang();
    // A link may carry `months=GPU.tokens (billions).MFU %`.
    let (link, refused) = use_link_state("months", 3, |v| {
        v[0] < GPU_TFLOPS.len() as u64
            && TRAINING_TOKENS_B.contains(&v[1])
            && MFU_PERCENT.contains(&v[2])
    });
    let gpu = use_state(|| link.as_ref().map_or(1usize, |v| v[0] as usize));
    let tokens = use_state(|| link.as_ref().map_or(20u64, |v| v[1]));
    let mfu = use_state(|| link.as_ref().map_or(50u64, |v| v[2]));
    use_link_writer("months", vec![*gpu as u64, *tokens, *mfu], vec![1, 20, 50]);
    let (name, tflops) = GPU_TFLOPS[(*gpu).min(GPU_TFLOPS.len() - 1)];
    let t = one_gpu_training(
        MODEL_10B.parameters,
        *tokens * 1_000_000_000,
        tflops as f64,
        *mfu as f64 / 100.0,
    );
    let on_gpu = setter(&gpu);
    let names: Vec<&'static str> = GPU_TFLOPS.iter().map(|g| g.0).collect();
    // Billions in words ("B" is bytes elsewhere on the page); 亿 is 10⁸.
    let tokens_text = |b: f64| match lang {
        crate::ui::i18n::Lang::En => format!("{} billion", crate::sim::units::sig3(b)),
        crate::ui::i18n::Lang::Zh => format!("{} 亿", crate::sim::units::sig3(b * 10.0)),
    };
    let readout = trf(
        lang,
        Key::MonthsReadout,
        &[
            &tokens_text(*tokens as f64),
            &crate::ui::i18n::scientific(t.flops),
            name,
            &format!("{}%", *mfu),
            &tflops.to_string(),
            &crate::ui::i18n::scientific(t.flops_per_sec),
            &days(t.days),
        ],
    );
    let cluster = props.at.filter(|&(n, s)| n > 1 && s > 0.0).map(|(n, s)| {
        trf(
            lang,
            Key::MonthsCluster,
            &[&gpus(lang, n), &times(lang, s, 1), &days(t.days / s)],
        )
    });
    let controls = html! {
        <>
        { choice("months-gpu", tr(lang, Key::MonthsGpu), &names, *gpu, &on_gpu) }
        <Ladder testid="months-tokens" label={tr(lang, Key::MonthsTokens)} values={TRAINING_TOKENS_B.to_vec()}
                value={*tokens} text={tokens_text(*tokens as f64)} on_change={setter(&tokens)} />
        <Ladder testid="months-mfu" label={tr(lang, Key::MonthsMfu)} values={MFU_PERCENT.to_vec()}
                value={*mfu} text={format!("{}%", *mfu)} on_change={setter(&mfu)} />
        </>
    };
    let plot = html! {
        <>
        <p class="ch-readout" aria-live="polite" data-testid="months-readout" data-days={t.days.to_string()}>{ readout }</p>
        <p class="ch-readout" data-testid="months-three" data-tokens={t.tokens_in_three_months.to_string()}>
            { trf(lang, Key::MonthsThree, &[&tokens_text(t.tokens_in_three_months / 1e9)]) }
        </p>
        if let Some(line) = cluster {
            <p class="ch-readout" data-testid="months-cluster">{ line }</p>
        }
        <p class="ch-note">{ tr(lang, Key::MonthsNote) }</p>
        </>
    };
    linked_figure(
        lang,
        "months",
        refused.as_deref(),
        tr(lang, Key::MonthsTitle),
        controls,
        plot,
    )
}

/// The guesses the prompt offers for 8 GPUs, and the ranges of speedup each stands for.
const GUESSES: [(Key, f64, f64); 3] = [
    (Key::GuessEight, 7.5, 8.0),
    (Key::GuessSixSeven, 6.0, 7.5),
    (Key::GuessUnderFour, 0.0, 4.0),
];

/// "Predict, then slide": a guess for 8 GPUs before the simulated answer shows.
#[component]
fn PredictSpeedup() -> Html {
    let lang = use_lang();
    let guess = use_state(|| None::<usize>);
    let answer = use_memo((*guess).is_some(), |&asked| {
        asked.then(|| {
            let at8 = |c| {
                speedup_curve(c).map(|v| v.iter().find(|s| s.gpus == 8).map_or(0.0, |s| s.speedup))
            };
            Ok::<_, crate::sim::scenario::ScenarioError>((
                at8(WhyCluster::PcieServers)?,
                at8(WhyCluster::BadTopology)?,
            ))
        })
    });
    let reveal = match (&*answer, *guess) {
        (Some(Ok((good, bad))), Some(g)) => {
            let (_, lo, hi) = GUESSES[g];
            let right = *good >= lo && *good < hi;
            html! {
                <p class="ch-readout" aria-live="polite" data-testid="why-predict-answer" data-speedup={good.to_string()}>
                    <strong>{ tr(lang, if right { Key::PredictRight } else { Key::PredictWrong }) }</strong>{ lang.pick(" ", "") }
                    { trf(lang, Key::WhyPredictAnswer, &[&times(lang, *good, 1), &times(lang, *bad, 1)]) }
                </p>
            }
        }
        (Some(Err(e)), _) => {
            html! { <p class="ch-error">{ crate::ui::i18n::errors::scenario_error(lang, e) }</p> }
        }
        _ => Html::default(),
    };
    html! {
        <div class="ch-predict" data-testid="why-predict">
            <p class="ch-predict-q">{ tr(lang, Key::WhyPredictQuestion) }</p>
            <div class="ch-choice-buttons" role="group" aria-label={tr(lang, Key::YourGuess)}>
                { for GUESSES.iter().enumerate().map(|(i, (key, _, _))| {
                    let pressed = *guess == Some(i);
                    let onclick = {
                        let guess = guess.clone();
                        Callback::from(move |_: MouseEvent| guess.set(Some(i)))
                    };
                    html! {
                        <button type="button" class={classes!("ch-toggle", pressed.then_some("on"))}
                                data-testid={format!("why-guess-{i}")} aria-pressed={pressed.to_string()} {onclick}>{ tr(lang, *key) }</button>
                    }
                }) }
            </div>
            { reveal }
        </div>
    }
}

#[component]
pub fn WhySection() -> Html {
    let lang = use_lang();
    // A link may carry `why=cluster.GPUs` (the cluster's place among the three).
    let (link, refused) = use_link_state("why", 2, |v| {
        v[0] < WhyCluster::ALL.len() as u64
            && usize::try_from(v[1]).is_ok_and(|n| SPEEDUP_COUNTS.contains(&n))
    });
    let cluster = use_state(|| {
        link.as_ref()
            .map_or(WhyCluster::PcieServers, |v| WhyCluster::ALL[v[0] as usize])
    });
    let count = use_state(|| link.as_ref().map_or(8u64, |v| v[1]));
    let place = WhyCluster::ALL
        .iter()
        .position(|c| c == &*cluster)
        .unwrap_or(0);
    use_link_writer("why", vec![place as u64, *count], vec![0, 8]);
    let curve = use_memo(*cluster, |&c| speedup_curve(c));

    let on_cluster = {
        let cluster = cluster.clone();
        Callback::from(move |i: usize| cluster.set(WhyCluster::ALL[i.min(2)]))
    };
    let on_count = setter(&count);
    let at = curve.as_ref().as_ref().ok().and_then(|steps| {
        let n = *count as usize;
        steps.iter().find(|s| s.gpus == n).map(|s| (n, s.speedup))
    });

    let figure = match &*curve {
        Err(e) => {
            html! { <p class="ch-error">{ crate::ui::i18n::errors::scenario_error(lang, e) }</p> }
        }
        Ok(steps) => {
            let n = *count as usize;
            let Some(s) = steps.iter().find(|s| s.gpus == n) else {
                return Html::default();
            };
            let speedup_text = trf(
                lang,
                Key::SpeedupOf,
                &[&times(lang, s.speedup, 1), &times(lang, n as f64, 0)],
            );
            let parts = Part::of_step(lang, s);
            html! {
                <>
                    <div data-testid="why-speedup" data-speedup={format!("{:.4}", s.speedup)}>
                        { bar(tr(lang, Key::Speedup), s.speedup / n as f64, &speedup_text, "speedup", "why-speedup-bar") }
                    </div>
                    { stacked(tr(lang, Key::StepTime), &parts, "why-step") }
                    <p class="ch-note" data-testid="why-step-form">{ trf(lang, step_form_key(s), &[&format_secs(s.io_secs)]) }</p>
                    <div class="ch-columns-title">{ tr(lang, Key::EfficiencyTitle) }</div>
                    <ol class="ch-columns" data-testid="why-efficiency">
                        { for steps.iter().map(|p| {
                            let selected = p.gpus == n;
                            html! {
                                <li class={classes!("ch-column", selected.then_some("selected"))}
                                    aria-current={selected.then_some("true")}>
                                    <span class="ch-column-value">{ percent(lang, p.scaling_efficiency, 0) }</span>
                                    <span class="ch-column-track" aria-hidden="true">
                                        <span class="ch-column-fill" style={format!("height: {:.1}%", p.scaling_efficiency.clamp(0.0, 1.0) * 100.0)}></span>
                                    </span>
                                    <span class="ch-column-label">{ p.gpus }</span>
                                </li>
                            }
                        }) }
                    </ol>
                    <p class="ch-readout" aria-live="polite">
                        { trf(lang, Key::WhyReadout, &[&gpus(lang, n), &times(lang, s.speedup, 1), &percent(lang, s.comm_share, 0)]) }
                    </p>
                </>
            }
        }
    };

    html! {
        <section id="why-not-8x" class="ch-section" data-testid="section-why-not-8x" aria-labelledby="why-not-8x-title">
            <h2 id="why-not-8x-title">{ tr(lang, Key::WhyTitle) }</h2>
            <p>{ tr(lang, Key::WhyBody) }</p>
            <crate::ui::components::chapter::claims::ClaimChips ids={vec!["eight-gpus-6-7x", "bad-topology-under-4x"]} />
            <PredictSpeedup />
            { link_refused(lang, "why", refused.as_deref()) }
            <div class="ch-figure">
                <div class="ch-controls">
                    <Ladder testid="why-gpus" label={tr(lang, Key::Gpus)} values={SPEEDUP_COUNTS.iter().map(|&n| n as u64).collect::<Vec<_>>()}
                            value={*count} text={gpus(lang, *count as usize)} on_change={on_count} />
                    { choice("why-cluster", tr(lang, Key::WhyCluster), &[tr(lang, Key::WhyGood), tr(lang, Key::WhyBadTopology), tr(lang, Key::WhyBad)], place, &on_cluster) }
                </div>
                <div class="ch-plot">{ figure }</div>
            </div>
            <p class="ch-moral">{ tr(lang, Key::WhyMoral) }</p>
            <MonthsFigure {at} />
        </section>
    }
}
