//! "Speedup versus one GPU": the course chapter's scenarios, checked by simulation, and three charts
//! — speedup over 1…1024 GPUs per algorithm, the step broken into compute, exposed IO and exposed
//! communication, and a virtual nccl-tests sweep with its crossovers. Its state is a
//! [`Setup`] changed only by [`SetupEdit`]s through the pure [`Setup::apply`]; its points are
//! computed progressively ([`points`]); the controls, the verdict and each chart are their own
//! components.

mod charts;
mod controls;
mod points;
mod verdict;

use crate::course::chapter::CHAPTER_SCENARIOS;
use crate::sim::algorithms::Algorithm;
use crate::ui::i18n::{Key, tr, use_lang};
use crate::ui::model::scaling::Setup;
use crate::ui::model::scaling_edit::SetupEdit;
use charts::{BreakdownCard, SpeedupCard, SweepCards, SweepNotes};
use controls::ScalingControls;
use points::{Progress, use_points};
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

#[component]
pub fn ScalingSection() -> Html {
    let lang = use_lang();
    let setup = use_reducer(|| Setup::from_scenario(&CHAPTER_SCENARIOS[0]));
    let points = use_points(&setup);
    let on_edit = {
        let dispatch = setup.dispatcher();
        Callback::from(move |edit: SetupEdit| dispatch.dispatch(edit))
    };
    let s: Setup = (*setup).clone();
    let p = (*points).clone();
    html! {
        <section class="scaling" data-testid="scaling-section" id="scaling">
            <header class="scaling-head">
                <h2>{ tr(lang, Key::ScalingTitle) }</h2>
                <p class="lede">{ tr(lang, Key::ScalingLede) }</p>
            </header>
            <div class="scaling-layout">
                <ScalingControls setup={s.clone()} on_edit={on_edit} />
                <div class="scaling-main">
                    <Verdict setup={s.clone()} />
                    <Progress points={p.clone()} />
                    <div class="chart-grid">
                        <SpeedupCard setup={s.clone()} points={p.clone()} />
                        <BreakdownCard setup={s.clone()} points={p.clone()} />
                        <SweepCards setup={s.clone()} points={p.clone()} />
                    </div>
                    <SweepNotes setup={s} points={p} />
                </div>
            </div>
        </section>
    }
}
