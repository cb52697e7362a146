//! "Speedup versus one GPU": the course chapter's scenarios, checked by simulation, and three charts
//! — speedup over 1…1024 GPUs per algorithm, the step broken into compute, exposed IO and exposed
//! communication, and a virtual nccl-tests sweep with its crossovers. Its state is a
//! [`Setup`] changed only by [`SetupEdit`]s through the pure [`Setup::apply`]; its points are
//! computed progressively ([`points`]); the controls, the verdict, the breakdown and the line
//! charts are their own components, the other cards functions of the section's render.

mod charts;
mod controls;
mod points;
mod verdict;

use crate::course::chapter::CHAPTER_SCENARIOS;
use crate::sim::algorithms::Algorithm;
use crate::ui::components::widgets::{link_refused, use_link_state, use_link_writer};
use crate::ui::i18n::{Key, tr, use_lang};
use crate::ui::model::scaling::Setup;
use crate::ui::model::scaling_edit::{LINK_NUMBERS, SetupEdit};
use charts::{BreakdownCard, speedup_card, sweep_cards, sweep_notes};
use controls::ScalingControls;
use gloo::timers::callback::Timeout;
use points::{progress, use_points};
use std::cell::RefCell;
use std::rc::Rc;
use verdict::Verdict;
use yew::prelude::*;

/// The section's reducer is [`Setup::apply`], which is pure; an edit that changes nothing keeps
/// the same setup, so nothing is recomputed.
impl Reducible for Setup {
    type Action = SetupEdit;

    fn reduce(self: Rc<Self>, edit: SetupEdit) -> Rc<Self> {
        let mut next = (*self).clone();
        next.apply(edit);
        if next == *self { self } else { Rc::new(next) }
    }
}

pub(crate) fn algorithm_class(a: Algorithm) -> AttrValue {
    format!("alg-{}", a.name()).into()
}

/// How long after a control's edit the charts take it (and any edits that follow it meanwhile):
/// time for the control's frame to be made before the charts' render, on a machine whose cores
/// the workers keep busy. Measured on 2 cores while the chart computes: the frame after the
/// change starts 29-44 ms after the key press (medians of two runs of 12; 58-60 ms with the
/// charts rendered at once).
/// Headless Chromium's Event Timing (key press to presentation) shows no gain, by this or by
/// taking the edits after the next frame or in idle time (medians 156-184 ms against 110).
const CHARTS_AFTER_MS: u32 = 100;

/// Edits the controls have shown and the charts not yet, and the timer that delivers them.
/// Dropped with the section, they are never delivered.
#[derive(Default)]
struct Waiting {
    edits: Vec<SetupEdit>,
    timer: Option<Timeout>,
}

#[component]
pub fn ScalingSection() -> Html {
    let lang = use_lang();
    // The controls show an edit at once; the verdict (which simulates), the points (which restart
    // the workers) and the charts receive the same edits [`CHARTS_AFTER_MS`] later, in order, so
    // that the frame showing the control's new value is drawn before the charts' work starts.
    // A shared link's `speedup=` sets both at first; the address follows the controls.
    let default = || Setup::from_scenario(&CHAPTER_SCENARIOS[0]);
    let (linked, refused) = use_link_state("speedup", LINK_NUMBERS, |n| {
        Setup::from_link_numbers(n).is_some()
    });
    // Read once, by the reducers' first render.
    let first = move || {
        (linked.as_deref())
            .and_then(Setup::from_link_numbers)
            .unwrap_or_else(default)
    };
    let setup = use_reducer(first.clone());
    let shown = use_reducer(first);
    use_link_writer("speedup", setup.link_numbers(), default().link_numbers());
    let waiting: Rc<RefCell<Waiting>> = use_mut_ref(Waiting::default);
    let points = use_points(&shown);
    let pending = !waiting.borrow().edits.is_empty();
    let on_edit = {
        let (controls, charts) = (setup.dispatcher(), shown.dispatcher());
        Callback::from(move |edit: SetupEdit| {
            // Queued first: the controls' render says the charts are behind.
            let first = {
                let mut w = waiting.borrow_mut();
                w.edits.push(edit.clone());
                w.edits.len() == 1
            };
            if first {
                let queue = waiting.clone();
                let charts = charts.clone();
                let timer = Timeout::new(CHARTS_AFTER_MS, move || {
                    let edits = std::mem::take(&mut queue.borrow_mut().edits);
                    // In order: the same edits make the same setup.
                    for edit in edits {
                        charts.dispatch(edit);
                    }
                });
                waiting.borrow_mut().timer = Some(timer);
            }
            controls.dispatch(edit);
        })
    };
    let s: Setup = (*shown).clone();
    let p = (*points).clone();
    // The cards are rebuilt at every render of the section, a control's edit too (the line
    // charts inside are components, redrawn only when their series change). Memoising them
    // (`use_memo` over the setup and points) cost the page 1.9 KB by gzip; without it a control
    // still answers in 7.6 / 17.8 / 0.8 ms while the chart computes (the scaling e2e's figure,
    // 0.9-55.8 ms over the last CIs with the cards as components).
    html! {
        <section class="scaling" data-testid="scaling-section" id="scaling">
            <header class="scaling-head">
                <h2>{ tr(lang, Key::ScalingTitle) }</h2>
                <p class="lede">{ tr(lang, Key::ScalingLede) }</p>
                { link_refused(lang, "speedup", refused.as_deref()) }
            </header>
            <div class="scaling-layout">
                <ScalingControls setup={(*setup).clone()} on_edit={on_edit} />
                <div class="scaling-main">
                    <Verdict setup={s.clone()} />
                    { progress(lang, &p, pending) }
                    <div class="chart-grid">
                        { speedup_card(lang, &s, &p) }
                        <BreakdownCard setup={s.clone()} points={p.clone()} />
                        { sweep_cards(lang, &s, &p) }
                    </div>
                    { sweep_notes(lang, &s, &p) }
                </div>
            </div>
        </section>
    }
}
