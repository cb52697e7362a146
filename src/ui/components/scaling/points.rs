//! The section's points, computed progressively in Web Workers ([`workers`]), cheapest first, so
//! the page never waits for the whole set; where workers cannot run, a few per tick of idle time.
//! A new setup cancels the run in progress. What earlier setups simulated is reused ([`Memo`]):
//! a change that simulates nothing new (the overlap, an algorithm turned off, a preset seen
//! before) redraws as soon as the section hands it on (`CHARTS_AFTER_MS` after its control).

use crate::ui::components::sliced::{Slot, when_idle};
use crate::ui::components::workers::{self, Channel};
use crate::ui::i18n::{Key, Lang, tr, trf};
use crate::ui::model::scaling::{Computation, Job, Point, Setup};
use crate::ui::model::scaling_memo::Memo;
use crate::ui::model::scaling_work::{Answer, Ask, SetupKey};
use std::cell::RefCell;
use std::rc::Rc;
use yew::prelude::*;

use crate::ui::components::lab::simulation::now_ms;

/// Receives points as they arrive.
type Deliver = Rc<dyn Fn(Vec<Point>)>;
/// Computes jobs on the page instead (when the workers cannot).
type Fallback = Rc<dyn Fn(Vec<Job>)>;

/// One setup's points as the workers' [`Work`](workers::Work): an [`Ask`] per job, an [`Answer`]
/// per point.
struct PointsWork {
    setup: Setup,
    key: SetupKey,
    jobs: Vec<Job>,
    /// Points received and not yet delivered.
    inbox: Vec<Point>,
    deliver: Deliver,
    fallback: Fallback,
}

impl workers::Work for PointsWork {
    fn ask(&self, generation: u64, index: usize) -> String {
        let ask = Ask {
            generation,
            index,
            setup: self.key.clone(),
            job: self.jobs[index],
        };
        ask.encode()
    }
    fn keep(&mut self, index: usize, numbers: &[f64]) -> bool {
        let Some(reply) = Answer::decode(numbers) else {
            return false;
        };
        // A failed point is computed here, where its error can be shown (it fails at once).
        let point = reply
            .point
            .unwrap_or_else(|| self.setup.compute(self.jobs[index]));
        self.inbox.push(point);
        true
    }
    fn delivery(&mut self) -> Option<Box<dyn FnOnce()>> {
        if self.inbox.is_empty() {
            return None;
        }
        let (deliver, points) = (self.deliver.clone(), std::mem::take(&mut self.inbox));
        Some(Box::new(move || deliver(points)))
    }
    fn fall_back(&mut self, left: Vec<usize>) -> Box<dyn FnOnce()> {
        let jobs: Vec<Job> = left.into_iter().map(|i| self.jobs[i]).collect();
        let fallback = self.fallback.clone();
        Box::new(move || fallback(jobs))
    }
}

/// The points computed so far for one setup.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Points {
    generation: u64,
    pub items: Vec<Point>,
    /// Points this setup draws.
    pub total: usize,
    /// Of them, those whose simulations an earlier setup ran.
    pub reused: usize,
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
        /// The points known already.
        known: Vec<Point>,
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
                known,
            } => Rc::new(Points {
                generation,
                reused: known.len(),
                done_ms: (known.len() >= total).then_some(0.0),
                items: known,
                total,
                workers,
                started_ms: now_ms(),
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

/// Advances `work` one tick of idle time at a time, delivering the points each tick finishes.
/// Large runs are sliced inside the core, so no tick blocks the page for long.
fn schedule(slot: Slot, work: Rc<RefCell<Computation>>, deliver: Deliver) {
    if work.borrow().is_done() {
        return;
    }
    let next_slot = slot.clone();
    let pending = when_idle(move |budget_ms| {
        let started = now_ms();
        let points = work.borrow_mut().work(|| now_ms() - started >= budget_ms);
        if !points.is_empty() {
            deliver(points);
        }
        schedule(next_slot, work, deliver);
    });
    *slot.borrow_mut() = Some(pending);
}

/// The setup's points: those an earlier setup simulated at once, the others computed
/// progressively in Web Workers (on the page in idle time where workers cannot run); a new setup
/// cancels the run in progress.
#[hook]
pub fn use_points(setup: &Setup) -> UseReducerHandle<Points> {
    let points = use_reducer(Points::default);
    let slot: Slot = use_mut_ref(|| None);
    let generation = use_mut_ref(|| 0u64);
    let memo = use_mut_ref(Memo::default);
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
            let inputs = setup.inputs();
            let (known, jobs) = memo.borrow().split(&inputs, jobs);
            // Every point delivered is kept for later setups.
            let deliver: Deliver = {
                let dispatch = dispatch.clone();
                Rc::new(move |points: Vec<Point>| {
                    let mut memo = memo.borrow_mut();
                    for p in &points {
                        memo.keep(&inputs, p);
                    }
                    dispatch.dispatch(PointsAction::Add {
                        generation: g,
                        points,
                    })
                })
            };
            let on_page = {
                let (slot, setup, deliver) = (slot.clone(), setup.clone(), deliver.clone());
                move |jobs: Vec<Job>| {
                    let work = Rc::new(RefCell::new(Computation::new(setup.clone(), jobs)));
                    schedule(slot.clone(), work, deliver.clone());
                }
            };
            let fallback: Fallback = {
                let (on_page, dispatch) = (on_page.clone(), dispatch.clone());
                Rc::new(move |jobs: Vec<Job>| {
                    dispatch.dispatch(PointsAction::OnPage { generation: g });
                    on_page(jobs);
                })
            };
            let started = if jobs.is_empty() {
                Some(0)
            } else {
                let work = PointsWork {
                    setup: setup.clone(),
                    key: setup.key(),
                    jobs: jobs.clone(),
                    inbox: Vec::new(),
                    deliver,
                    fallback,
                };
                let costs = jobs.iter().map(|j| setup.cost(j)).collect();
                workers::submit(Channel::Scaling, g, costs, true, Box::new(work))
            };
            dispatch.dispatch(PointsAction::Start {
                generation: g,
                total,
                workers: started.unwrap_or(0),
                known,
            });
            if started.is_none() {
                on_page(jobs);
            }
            move || {
                workers::cancel(Channel::Scaling, g);
                slot.borrow_mut().take();
            }
        });
    }
    points
}

/// The bar's words: how many points, computed where, and how many reused.
fn progress_text(lang: crate::ui::i18n::Lang, points: &Points) -> String {
    let total = points.total.to_string();
    if points.reused >= points.total && points.total > 0 {
        return trf(lang, Key::PointsAllReused, &[&total]);
    }
    let mut text = match points.done_ms {
        Some(ms) => trf(lang, Key::PointsDone, &[&total, &format!("{ms:.0}")]),
        None => trf(
            lang,
            Key::PointsRunning,
            &[&points.items.len().to_string(), &total],
        ),
    };
    text.push_str(&match points.workers {
        0 => tr(lang, Key::PointsOnPage).to_string(),
        n => trf(lang, Key::PointsWorkers, &[&n.to_string()]),
    });
    if points.reused > 0 {
        text.push_str(&trf(lang, Key::PointsReused, &[&points.reused.to_string()]));
    }
    text
}

/// How many points are done, and any that failed; `pending`: edits the controls show that the
/// points do not follow yet (not complete). A function, not a component: it changes whenever its
/// section renders.
pub fn progress(lang: Lang, points: &Points, pending: bool) -> Html {
    let done = points.items.len();
    let failures: Vec<(Job, String)> = points
        .items
        .iter()
        .filter_map(|p| match p {
            Point::Failed(job, e) => Some((*job, crate::ui::i18n::errors::job_error(lang, e))),
            _ => None,
        })
        .collect();
    let bar = html! {
        <div class="scaling-progress" data-testid="scaling-progress" data-done={done.to_string()}
             data-total={points.total.to_string()} data-complete={(points.done_ms.is_some() && !pending).to_string()}
             data-workers={points.workers.to_string()} data-reused={points.reused.to_string()}
             data-generation={points.generation.to_string()}
             data-elapsed-ms={points.done_ms.map(|m| format!("{m:.0}")).unwrap_or_default()}>
            <progress max={points.total.max(1).to_string()} value={done.to_string()} />
            <span>{ progress_text(lang, points) }</span>
        </div>
    };
    html! {
        <>
            { bar }
            if !failures.is_empty() {
                <p class="error">{ crate::ui::i18n::failed_points(lang, &failures) }</p>
            }
        </>
    }
}
