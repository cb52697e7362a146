//! The Ring-vs-Tree figure's overlay "like NCCL on real hardware": its switch and system picker, the
//! two dashed curves it adds to the chart, what NCCL picks at each size, and where its own Tree and
//! Ring cross. Everything drawn comes from [`crate::ui::model::versus_nccl`] (the core's nccl model).

use crate::sim::nccl::protocol::NcclAlgorithm;
use crate::sim::units::{Bandwidth, format_bandwidth, format_secs};
use crate::ui::components::inputs::{checked, select_value};
use crate::ui::components::nccl::change_sentence;
use crate::ui::i18n::{Key, Lang, gpus, system_title, tr, trf};
use crate::ui::model::chart_math::format_bytes_binary;
use crate::ui::model::versus::VERSUS_SIZES;
use crate::ui::model::versus_nccl::{NcclCurves, NcclOverlayError, NcclSetup};
use yew::prelude::*;

/// The overlay's choice: off, or a system preset and whether NVLS may be used.
pub type Pick = Option<(&'static str, bool)>;

/// The default when the overlay is switched on: the DGX H100 the chapter's numbers speak of.
pub const DEFAULT_PICK: (&str, bool) = ("dgx-h100", true);

/// What the running overlay has produced: the curves, jobs finished of all, and why it cannot run.
pub type OverlayState = (NcclCurves, usize, usize, Option<NcclOverlayError>);

pub fn setup(pick: Pick, gpus: usize) -> Option<NcclSetup> {
    pick.map(|(system, nvls)| NcclSetup { system, gpus, nvls })
}

/// The overlay's switch, system and NVLS controls.
pub fn controls(lang: Lang, pick: Pick, on_pick: Callback<Pick>) -> Html {
    let on_toggle = {
        let on = on_pick.clone();
        Callback::from(move |e: Event| {
            let checked = checked(&e);
            on.emit(checked.then_some(DEFAULT_PICK));
        })
    };
    let systems = crate::ui::model::versus_nccl::systems;
    html! {
        <div class="vs-nccl-controls" data-testid="versus-nccl-controls">
            <label><input type="checkbox" data-testid="versus-nccl-toggle" checked={pick.is_some()} onchange={on_toggle} />
                { tr(lang, Key::VsNcclToggle) }</label>
            if let Some((system, nvls)) = pick {
                <>
                <label>{ tr(lang, Key::NcclSystem) }{ " " }
                    <select data-testid="versus-nccl-system" key={system} onchange={{
                        let on = on_pick.clone();
                        Callback::from(move |e: Event| {
                            let id = select_value(&e);
                            if let Some(s) = systems().find(|s| *s == id) {
                                on.emit(Some((s, nvls)));
                            }
                        })
                    }}>
                        { for systems().map(|id| html! {
                            <option value={id} selected={id == system}>{ system_title(lang, id, 1) }</option>
                        }) }
                    </select>
                </label>
                <label><input type="checkbox" data-testid="versus-nccl-nvls" checked={nvls} onchange={{
                    let on = on_pick.clone();
                    Callback::from(move |_: Event| on.emit(Some((system, !nvls))))
                }} />{ tr(lang, Key::NcclNvls) }</label>
                </>
            }
        </div>
    }
}

fn short(a: NcclAlgorithm, p: &dyn std::fmt::Display) -> String {
    format!("{a}/{p}")
}

/// What NCCL picks at each size, where its Tree and Ring cross, and every change of its choice.
pub fn readout(lang: Lang, setup: &NcclSetup, state: &OverlayState) -> Html {
    let (curves, finished, total, error) = state;
    if let Some(e) = error {
        let text = match e {
            NcclOverlayError::TooManyGpus { gpus: n, max } => trf(
                lang,
                Key::VsNcclTooMany,
                &[&n.to_string(), &max.to_string()],
            ),
            NcclOverlayError::NotACluster { gpus: n } => {
                trf(lang, Key::LabNcclNotWhole, &[&n.to_string()])
            }
            NcclOverlayError::System(why) => format!(
                "{}{}",
                tr(lang, Key::LabNcclSystemError),
                crate::ui::i18n::errors::system_error(lang, why)
            ),
        };
        return html! {
            <div class="vs-nccl" data-testid="versus-nccl">
                <p class="ch-note" data-testid="versus-nccl-refused">{ text }</p>
                if let Some(cmd) = cli(setup) {
                    <p class="cli"><code lang="en" translate="no">{ cmd }</code></p>
                }
            </div>
        };
    }
    // The ranges where the tree is ahead, when it is ahead at neither end or at both: the first
    // crossing alone said "its ring is faster below about 6.52 KiB, its tree above" of a tree
    // ahead from 6.52 KiB to 72 KiB only.
    let (first, last) = (
        VERSUS_SIZES[0] as f64,
        VERSUS_SIZES[VERSUS_SIZES.len() - 1] as f64,
    );
    let between = match curves.tree_ahead.as_slice() {
        [] => false,
        [(lo, _)] if *lo == first => false,
        [(_, hi)] if *hi == last => false,
        _ => true,
    };
    let range = |&(lo, hi): &(f64, f64)| {
        let (lo_s, hi_s) = (format_bytes_binary(lo), format_bytes_binary(hi));
        if lo == first {
            trf(lang, Key::VsNcclRangeBelow, &[&hi_s])
        } else if hi == last {
            trf(lang, Key::VsNcclRangeAbove, &[&lo_s])
        } else {
            trf(lang, Key::VsNcclRange, &[&lo_s, &hi_s])
        }
    };
    let mut head = match curves.crossover {
        Some(_) if between => trf(
            lang,
            Key::VsNcclTreeBetween,
            &[
                setup.system,
                &gpus(lang, setup.gpus),
                &curves
                    .tree_ahead
                    .iter()
                    .map(range)
                    .collect::<Vec<_>>()
                    .join(tr(lang, Key::VsNcclRangeAnd)),
            ],
        ),
        Some(c) => trf(
            lang,
            if c.ring_wins_above {
                Key::VsNcclRingAbove
            } else {
                Key::VsNcclTreeAbove
            },
            &[
                setup.system,
                &gpus(lang, setup.gpus),
                &format_bytes_binary(c.at_bytes),
            ],
        ),
        None if curves.complete => trf(
            lang,
            Key::VsNcclNoCrossover,
            &[setup.system, &gpus(lang, setup.gpus)],
        ),
        None => trf(
            lang,
            Key::SimulatingOf,
            &[&finished.to_string(), &total.to_string()],
        ),
    };
    // The sentence compares NCCL's ring and tree; what it picks may be neither (NVLS), which the
    // list below shows: said, so that "the ring at the other sizes" does not read as its pick.
    let nvls = curves
        .sizes
        .iter()
        .filter(|a| a.choice.algorithm == NcclAlgorithm::Nvls)
        .count();
    if nvls > 0 && (curves.crossover.is_some() || curves.complete) {
        head.push_str(&trf(lang, Key::VsNcclNvlsPicked, &[&nvls.to_string()]));
    }
    let cells = VERSUS_SIZES.iter().map(|&size| {
        let at = curves.sizes.iter().find(|a| a.choice.size_bytes == size);
        match at {
            Some(a) => {
                let c = &a.choice;
                let title = format!(
                    "{}: {} × {} · {} · busbw {}",
                    format_bytes_binary(size as f64),
                    short(c.algorithm, &c.protocol),
                    c.channels,
                    format_secs(c.time_secs),
                    format_bandwidth(Bandwidth::from_bytes_per_sec(c.busbw_bytes_per_sec()))
                );
                html! {
                    <li class={classes!("vs-pick", c.algorithm.name().to_ascii_lowercase())} title={title}
                        data-testid="versus-nccl-pick" data-size={size.to_string()}
                        data-choice={short(c.algorithm, &c.protocol)}>
                        <span class="vs-pick-size">{ format_bytes_binary(size as f64) }</span>
                        <span class="vs-pick-choice" lang="en" translate="no">{ short(c.algorithm, &c.protocol) }</span>
                    </li>
                }
            }
            None => html! {
                <li class="vs-pick pending"><span class="vs-pick-size">{ format_bytes_binary(size as f64) }</span><span class="vs-pick-choice">{ "…" }</span></li>
            },
        }
    });
    html! {
        <div class="vs-nccl" data-testid="versus-nccl" data-complete={curves.complete.to_string()}
             data-crossover={curves.crossover.map(|c| c.at_bytes.to_string()).unwrap_or_default()}>
            <p class="ch-readout" aria-live="polite" data-testid="versus-nccl-readout">{ head }</p>
            <p class="ch-note">{ tr(lang, Key::VsNcclPicks) }</p>
            <ol class="vs-picks">{ for cells }</ol>
            if !curves.switches.is_empty() {
                <ul class="vs-switches" data-testid="versus-nccl-switches">
                    { for curves.switches.iter().map(|c| html! { <li>{ change_sentence(lang, c) }</li> }) }
                </ul>
            }
            <p class="ch-note">{ tr(lang, Key::VsNcclWhy) }</p>
            if let Some(cmd) = cli(setup) {
                <p class="cli"><code lang="en" translate="no" data-testid="versus-nccl-cli">{ cmd }</code></p>
            }
        </div>
    }
}

/// The command that prints the same choices (none where the count is no cluster).
fn cli(s: &NcclSetup) -> Option<String> {
    let sys = s.cluster().ok()??;
    Some(format!(
        "allreduce-lab nccl-tests --system {} --nodes {} --gpus-per-node {} -b 8 -e 8GiB -f 8{}",
        s.system,
        sys.nodes,
        sys.gpus_per_node,
        if s.nvls { "" } else { " --nvls off" }
    ))
}
