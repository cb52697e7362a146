//! The lab's model switch: "textbook α-β" or "like NCCL on `<system>`". With NCCL on, a card beside
//! the run shows what NCCL would do for the lab's GPUs and message size — the chosen algorithm and
//! protocol, its channels, time and busbw next to the textbook run's, why it won, and every
//! candidate — all from [`crate::ui::model::nccl_view::lab_choosing`] (the core's nccl model), run a candidate
//! per slice between frames.

use crate::sim::nccl::model::Choice;
use crate::sim::nccl::model::Choosing;
use crate::sim::nccl::system::PRESETS;
use crate::sim::nccl::system::System;
use crate::sim::units::{
    Bandwidth, format_bandwidth, format_bandwidth_bits, format_bytes, format_secs,
};
use crate::ui::components::inputs::select_value;
use crate::ui::components::sliced::{Sliced, Slot, tick};
use crate::ui::i18n::{Key, system_title, tr, trf, use_lang};
use crate::ui::model::logic::{Controls, Edit, NcclPick, nccl_shape};
use crate::ui::model::nccl_view::{LabNcclError, lab_choosing, lab_why as why};
use std::cell::RefCell;
use std::rc::Rc;
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct LabNcclProps {
    pub controls: Controls,
    pub pick: Option<NcclPick>,
    /// The textbook run's (time, algbw, busbw), once it exists.
    pub textbook: Option<(f64, f64, f64)>,
    pub on_edit: Callback<Edit>,
    /// The last prediction made, kept by the card's parent.
    #[prop_or_default]
    pub cache: PredictionCache,
}

/// The last prediction made and what it was made for, kept above the card: turning the
/// comparison on or off moves the card (beside run A's results, or under both runs), which builds
/// it anew, and a 64-GPU prediction took a while to come back for controls that had not changed.
#[derive(Clone, Default)]
pub struct PredictionCache(Rc<RefCell<Option<(NcclPick, Controls, Prediction)>>>);

impl PartialEq for PredictionCache {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.0, &other.0)
    }
}

fn bandwidth(bytes_per_sec: f64) -> String {
    format_bandwidth(Bandwidth::from_bytes_per_sec(bytes_per_sec))
}

/// The command line that prints the same prediction.
fn cli(pick: &NcclPick, controls: &Controls) -> String {
    let (nodes, g) = nccl_shape(controls).unwrap_or((1, 8));
    format!(
        "allreduce-lab simulate --model nccl --system {} --nodes {nodes} --gpus-per-node {g} --size {}{}",
        pick.system,
        controls.size_bytes,
        if pick.nvls { "" } else { " --nvls off" }
    )
}

type Prediction = Result<(System, Choice), LabNcclError>;

/// The lab's prediction in progress.
struct LabChoosing {
    sys: System,
    work: Option<Choosing>,
    result: Option<Prediction>,
}

impl Sliced for LabChoosing {
    fn advance(&mut self, out_of_time: &mut dyn FnMut() -> bool) -> bool {
        let Some(work) = self.work.as_mut() else {
            return false;
        };
        loop {
            match work.step() {
                Ok(false) if !out_of_time() => continue,
                Ok(false) => return true,
                Ok(true) => {
                    let choice = self.work.take().map(Choosing::finish);
                    self.result = choice.map(|c| {
                        c.map(|c| (self.sys.clone(), c))
                            .map_err(LabNcclError::System)
                    });
                    return true;
                }
                Err(e) => {
                    self.work = None;
                    self.result = Some(Err(LabNcclError::System(e)));
                    return true;
                }
            }
        }
    }
    fn done(&self) -> bool {
        self.work.is_none()
    }
}

#[component]
pub fn LabNccl(props: &LabNcclProps) -> Html {
    let lang = use_lang();
    let pick = props.pick;
    // The prediction runs a candidate at a time between frames (a 64-GPU tree takes a while); a
    // change of the controls or the system replaces it.
    let prediction = use_state(|| None::<Prediction>);
    let progress = use_state(|| None::<(usize, usize)>);
    let slot: Slot = use_mut_ref(|| None);
    {
        let (prediction, progress) = (prediction.clone(), progress.clone());
        let cache = props.cache.clone();
        use_effect_with((pick, props.controls.clone()), move |(pick, controls)| {
            slot.borrow_mut().take();
            progress.set(None);
            let cached = (cache.0.borrow().as_ref())
                .filter(|(p, c, _)| Some(*p) == *pick && c == controls)
                .map(|(_, _, r)| r.clone());
            match pick.map(|p| lab_choosing(&p, controls)) {
                Some(_) if cached.is_some() => prediction.set(cached),
                None => prediction.set(None),
                Some(Err(e)) => prediction.set(Some(Err(e))),
                Some(Ok((sys, work))) => {
                    prediction.set(None);
                    progress.set(Some(work.progress()));
                    let (made_for, controls) = (pick.expect("a system picked"), controls.clone());
                    let publish: Rc<dyn Fn(&LabChoosing)> = Rc::new(move |p| match &p.result {
                        Some(r) => {
                            progress.set(None);
                            prediction.set(Some(r.clone()));
                            *cache.0.borrow_mut() = Some((made_for, controls.clone(), r.clone()));
                        }
                        None => progress.set(p.work.as_ref().map(Choosing::progress)),
                    });
                    let state = LabChoosing {
                        sys,
                        work: Some(work),
                        result: None,
                    };
                    tick(slot.clone(), Rc::new(RefCell::new(state)), publish);
                }
            }
            move || {
                slot.borrow_mut().take();
            }
        });
    }
    let prediction = &*prediction;
    let on_model = {
        let on = props.on_edit.clone();
        move |nccl: bool| {
            let on = on.clone();
            Callback::from(move |_: Event| on.emit(Edit::NcclModel(nccl)))
        }
    };
    let on_system = {
        let on = props.on_edit.clone();
        Callback::from(move |e: Event| {
            let id = select_value(&e);
            if let Some(&system) = PRESETS.iter().find(|s| **s == id) {
                on.emit(Edit::NcclSystem(system));
            }
        })
    };
    let on_nvls = {
        let on = props.on_edit.clone();
        let nvls = pick.is_some_and(|p| p.nvls);
        Callback::from(move |_: Event| on.emit(Edit::NcclNvls(!nvls)))
    };
    let body = match (pick, prediction) {
        (Some(p), Some(Ok((sys, c)))) => {
            let rows = c.candidates.iter().map(|k| {
                html! {
                    <tr class={classes!((k.algorithm == c.algorithm && k.protocol == c.protocol).then_some("chosen"))}>
                        <td lang="en" translate="no">{ format!("{}/{}", k.algorithm, k.protocol) }</td>
                        <td data-testid="lab-nccl-tuner">{ format_secs(k.tuner_secs) }</td>
                        <td>{ format_secs(k.time_secs) }</td>
                        <td>{ k.channels }</td>
                    </tr>
                }
            });
            html! {
                <>
                    <p class="lab-nccl-intro" data-testid="lab-nccl-system">
                        { trf(lang, Key::LabNcclIntro, &[p.system, &sys.nodes.to_string(), &sys.gpus_per_node.to_string(), &format_bytes(c.size_bytes as f64),
                            &format_bandwidth(Bandwidth::from_gbytes_per_sec(sys.intra_gbytes_per_sec)), &sys.nics_per_node.to_string(),
                            &format_bandwidth_bits(Bandwidth::from_gbits_per_sec(sys.nic_gbits_per_sec))]) }
                    </p>
                    <table class="lab-nccl-compare">
                        <thead><tr><th></th><th>{ tr(lang, Key::NcclModelIdeal) }</th><th>{ tr(lang, Key::LabNcclLike) }</th></tr></thead>
                        <tbody>
                            <tr><th>{ tr(lang, Key::LabNcclAlgorithm) }</th><td lang="en" translate="no">{ props.controls.algorithm.name() }</td>
                                <td data-testid="lab-nccl-choice" lang="en" translate="no"><strong>{ format!("{}/{}", c.algorithm, c.protocol) }</strong>{ format!(" × {} ", c.channels) }{ tr(lang, Key::LabNcclChannels) }</td></tr>
                            <tr><th>{ tr(lang, Key::LabNcclTime) }</th><td data-testid="lab-textbook-time">{ props.textbook.map_or("…".to_string(), |(t, _, _)| format_secs(t)) }</td>
                                <td data-testid="lab-nccl-time" data-secs={c.time_secs.to_string()}>{ format_secs(c.time_secs) }</td></tr>
                            <tr><th>{ "busbw" }</th><td data-testid="lab-textbook-busbw" data-busbw={props.textbook.map(|(_, _, b)| b.to_string()).unwrap_or_default()}>{ props.textbook.map_or("…".to_string(), |(_, _, b)| bandwidth(b)) }</td>
                                <td data-testid="lab-nccl-busbw" data-busbw={c.busbw_bytes_per_sec().to_string()}><strong>{ bandwidth(c.busbw_bytes_per_sec()) }</strong></td></tr>
                            <tr><th>{ "algbw" }</th><td>{ props.textbook.map_or("…".to_string(), |(_, a, _)| bandwidth(a)) }</td>
                                <td>{ bandwidth(c.algbw_bytes_per_sec()) }</td></tr>
                        </tbody>
                    </table>
                    <p class="lab-nccl-why" data-testid="lab-nccl-why">{ why(lang, c) }</p>
                    <details class="lab-nccl-candidates">
                        <summary>{ trf(lang, Key::LabNcclCandidates, &[&c.candidates.len().to_string()]) }</summary>
                        <table>
                            <thead><tr><th>{ tr(lang, Key::NcclColChoice) }</th><th>{ tr(lang, Key::LabNcclTuner) }</th><th>{ tr(lang, Key::LabNcclTime) }</th><th>{ tr(lang, Key::LabNcclChannels) }</th></tr></thead>
                            <tbody>{ for rows }</tbody>
                        </table>
                    </details>
                    <p class="cli"><code lang="en" translate="no" data-testid="lab-nccl-cli">{ cli(&p, &props.controls) }</code></p>
                </>
            }
        }
        (Some(p), Some(Err(e))) => {
            let text = match e {
                LabNcclError::OneGpu => tr(lang, Key::LabNcclOneGpu).to_string(),
                LabNcclError::NotWholeNodes { gpus } => {
                    trf(lang, Key::LabNcclNotWhole, &[&gpus.to_string()])
                }
                LabNcclError::TooMany { gpus, max } => trf(
                    lang,
                    Key::LabNcclTooMany,
                    &[&gpus.to_string(), &max.to_string()],
                ),
                LabNcclError::System(why) => format!(
                    "{}{}",
                    tr(lang, Key::LabNcclSystemError),
                    crate::ui::i18n::errors::system_error(lang, why)
                ),
            };
            html! {
                <>
                    <p class="lab-nccl-refused" data-testid="lab-nccl-refused">{ text }</p>
                    if matches!(e, LabNcclError::TooMany { .. }) {
                        <p class="cli"><code lang="en" translate="no">{ cli(&p, &props.controls) }</code></p>
                    }
                </>
            }
        }
        (Some(_), None) => match *progress {
            Some((done, all)) => html! {
                <p class="lab-nccl-intro" data-testid="lab-nccl-progress" aria-live="polite">
                    { trf(lang, Key::LabNcclPredicting, &[&done.to_string(), &all.to_string()]) }
                </p>
            },
            None => Html::default(),
        },
        _ => Html::default(),
    };
    html! {
        <section class="lab-nccl" data-testid="lab-nccl" data-on={pick.is_some().to_string()}>
            <div class="lab-nccl-switch" role="radiogroup" aria-label={tr(lang, Key::NcclModelSwitch)}>
                <strong>{ tr(lang, Key::NcclModelSwitch) }</strong>
                <label><input type="radio" name="lab-model" data-testid="lab-model-ideal" checked={pick.is_none()}
                    onchange={on_model(false)} />{ tr(lang, Key::NcclModelIdeal) }</label>
                <label><input type="radio" name="lab-model" data-testid="lab-model-nccl" checked={pick.is_some()}
                    onchange={on_model(true)} />{ tr(lang, Key::LabNcclLike) }</label>
                if let Some(p) = pick {
                    <>
                    <label>{ tr(lang, Key::NcclSystem) }
                        <select data-testid="lab-nccl-system-pick" onchange={on_system} key={p.system}>
                            { for PRESETS.iter().map(|id| html! {
                                <option value={*id} selected={*id == p.system}>{ system_title(lang, id, 1) }</option>
                            }) }
                        </select>
                    </label>
                    <label><input type="checkbox" data-testid="lab-nccl-nvls" checked={p.nvls} onchange={on_nvls} />{ tr(lang, Key::NcclNvls) }</label>
                    </>
                }
            </div>
            { body }
        </section>
    }
}
