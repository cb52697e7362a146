//! The section's points, computed progressively in Web Workers ([`workers`]), cheapest first, so
//! the page never waits for the whole set; where workers cannot run, a few per tick of idle time.
//! A new setup cancels the run in progress.

use crate::ui::components::sliced::{Slot, when_idle};
use crate::ui::components::workers;
use crate::ui::i18n::{Key, tr, trf, use_lang};
use crate::ui::model::scaling::{Computation, Job, Point, Setup};
use std::cell::RefCell;
use std::rc::Rc;
use yew::prelude::*;

use crate::ui::components::lab::simulation::now_ms;

/// The points computed so far for one setup.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Points {
    generation: u64,
    pub items: Vec<Point>,
    /// Points this run computes.
    pub total: usize,
    /// Web Workers computing them (0: on the page, in idle time).
    pub workers: usize,
    started_ms: f64,
    pub done_ms: Option<f64>,
}

pub enum PointsAction {
    Start {
        generation: u64,
        total: usize,
        workers: usize,
    },
    /// The workers failed: the rest is computed on the page.
    OnPage {
        generation: u64,
    },
    Add {
        generation: u64,
        points: Vec<Point>,
    },
}

impl Reducible for Points {
    type Action = PointsAction;
    fn reduce(self: Rc<Self>, action: PointsAction) -> Rc<Self> {
        match action {
            PointsAction::Start {
                generation,
                total,
                workers,
            } => Rc::new(Points {
                generation,
                items: Vec::new(),
                total,
                workers,
                started_ms: now_ms(),
                done_ms: (total == 0).then_some(0.0),
            }),
            PointsAction::Add { generation, points } if generation == self.generation => {
                let mut next = (*self).clone();
                next.items.extend(points);
                if next.items.len() >= next.total {
                    next.done_ms = Some(now_ms() - next.started_ms);
                }
                Rc::new(next)
            }
            PointsAction::OnPage { generation } if generation == self.generation => {
                Rc::new(Points {
                    workers: 0,
                    ..(*self).clone()
                })
            }
            PointsAction::Add { .. } | PointsAction::OnPage { .. } => self,
        }
    }
}

/// Advances `work` one tick of idle time at a time, reporting the points each tick finishes. Large
/// runs are sliced inside the core, so no tick blocks the page for long.
fn schedule(
    slot: Slot,
    work: Rc<RefCell<Computation>>,
    generation: u64,
    dispatch: UseReducerDispatcher<Points>,
) {
    if work.borrow().is_done() {
        return;
    }
    let next_slot = slot.clone();
    let pending = when_idle(move |budget_ms| {
        let started = now_ms();
        let points = work.borrow_mut().work(|| now_ms() - started >= budget_ms);
        if !points.is_empty() {
            dispatch.dispatch(PointsAction::Add { generation, points });
        }
        schedule(next_slot, work, generation, dispatch);
    });
    *slot.borrow_mut() = Some(pending);
}

/// The setup's points, computed progressively in Web Workers (on the page in idle time where
/// workers cannot run); a new setup cancels the run in progress.
#[hook]
pub fn use_points(setup: &Setup) -> UseReducerHandle<Points> {
    let points = use_reducer(Points::default);
    let slot: Slot = use_mut_ref(|| None);
    let generation = use_mut_ref(|| 0u64);
    {
        let dispatch = points.dispatcher();
        use_effect_with(setup.clone(), move |setup| {
            let g = {
                let mut g = generation.borrow_mut();
                *g += 1;
                *g
            };
            let jobs = setup.jobs();
            let total = jobs.len();
            let on_page = {
                let (slot, setup, dispatch) = (slot.clone(), setup.clone(), dispatch.clone());
                move |jobs: Vec<Job>| {
                    let work = Rc::new(RefCell::new(Computation::new(setup.clone(), jobs)));
                    schedule(slot.clone(), work, g, dispatch.clone());
                }
            };
            let fallback: workers::Fallback = {
                let (on_page, dispatch) = (on_page.clone(), dispatch.clone());
                Rc::new(move |jobs: Vec<Job>| {
                    dispatch.dispatch(PointsAction::OnPage { generation: g });
                    on_page(jobs);
                })
            };
            let deliver: workers::Deliver = {
                let dispatch = dispatch.clone();
                Rc::new(move |points| {
                    dispatch.dispatch(PointsAction::Add {
                        generation: g,
                        points,
                    })
                })
            };
            let started = workers::submit(g, setup, jobs.clone(), deliver, fallback);
            dispatch.dispatch(PointsAction::Start {
                generation: g,
                total,
                workers: started.unwrap_or(0),
            });
            if started.is_none() {
                on_page(jobs);
            }
            move || {
                workers::cancel(g);
                slot.borrow_mut().take();
            }
        });
    }
    points
}

#[derive(Properties, PartialEq)]
pub struct ProgressProps {
    pub points: Points,
}

/// How many points are done, and any that failed.
#[component]
pub fn Progress(props: &ProgressProps) -> Html {
    let lang = use_lang();
    let points = &props.points;
    let done = points.items.len();
    let failures: Vec<String> = points
        .items
        .iter()
        .filter_map(|p| match p {
            Point::Failed(job, e) => Some(format!(
                "{job:?}: {}",
                crate::ui::i18n::errors::job_error(lang, e)
            )),
            _ => None,
        })
        .collect();
    let bar = html! {
        <div class="scaling-progress" data-testid="scaling-progress" data-done={done.to_string()}
             data-total={points.total.to_string()} data-complete={points.done_ms.is_some().to_string()}
             data-workers={points.workers.to_string()}
             data-elapsed-ms={points.done_ms.map(|m| format!("{m:.0}")).unwrap_or_default()}>
            <progress max={points.total.max(1).to_string()} value={done.to_string()} />
            <span>
                { match points.done_ms {
                    Some(ms) => trf(lang, Key::PointsDone, &[&points.total.to_string(), &format!("{ms:.0}")]),
                    None => trf(lang, Key::PointsRunning, &[&done.to_string(), &points.total.to_string()]),
                } }
                { match points.workers {
                    0 => tr(lang, Key::PointsOnPage).to_string(),
                    n => trf(lang, Key::PointsWorkers, &[&n.to_string()]),
                } }
            </span>
        </div>
    };
    html! {
        <>
            { bar }
            if !failures.is_empty() {
                <p class="error">{ failures.join("; ") }</p>
            }
        </>
    }
}
