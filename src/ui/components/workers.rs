//! The scaling charts' points computed in Web Workers, as many as the browser reports cores: the
//! page sends each worker jobs ([`Ask`]), more as it answers; the first worker takes the heaviest
//! jobs, one at a time, the others the cheapest, a few small ones ahead (see [`QUEUED_COST`]). A
//! newer setup cancels an older one at once: a worker still busy with the older setup's jobs is
//! terminated (a run in progress cannot be interrupted any other way) and a fresh one takes its
//! place. If a worker cannot start or fails, or says nothing for [`SILENT_TICKS`] of the page's
//! watchdog in a row while it starts or works on a job (one that died without an error event, as
//! one out of memory can), the pool stops and what is left is computed on the page in idle time,
//! as before workers. The watchdog counts its own ticks rather than the clock, so a page frozen or
//! asleep with its workers does not take the pause for silence.
//!
//! The worker is this crate's `points-worker` binary, built by Trunk next to the app (index.html)
//! with a loader script; its whole work is [`serve`].

use crate::ui::components::lab::simulation::now_ms;
use crate::ui::components::sliced::{Pending, when_idle};
use crate::ui::model::lab_job;
use crate::ui::model::scaling::Setup;
use crate::ui::model::scaling_work::{Answer, Ask, Job, Point, SetupKey, answer};
use crate::ui::model::throttle::Throttle;
use gloo::timers::callback::Interval;
use gloo::timers::callback::Timeout;
use std::cell::RefCell;
use std::collections::VecDeque;
use std::rc::Rc;
use wasm_bindgen::JsCast;
use wasm_bindgen::closure::Closure;
use web_sys::{DedicatedWorkerGlobalScope, MessageEvent, Worker};

/// The script that starts a worker (Trunk's loader for the `points-worker` binary).
const WORKER_SCRIPT: &str = "./points-worker_loader.js";

/// What a worker says once it listens (messages sent before would be lost).
const READY: &str = "ready";

/// At most this many workers, whatever the browser reports.
const MAX_WORKERS: usize = 8;

/// A worker that takes the cheapest jobs is sent more while those it has not answered cost at
/// most this together (in transfers: a few ms of work), up to [`MAX_QUEUED`] of them: it starts
/// the next as soon as it answers one, instead of waiting until the page, busy drawing, has read
/// the answer and sent another. Most of a chart's jobs are small (the chapter's second scenario:
/// 78 of 108 under 2 ms each in Node's V8), so one at a time that worker waited on the page
/// between most of them.
const QUEUED_COST: usize = 16_384;
const MAX_QUEUED: usize = 4;

/// Points are delivered (and the charts drawn again) at most this often while the rest are
/// computed, and the last ones at once. Each drawing of the charts is tens of ms of the page's
/// thread, taken from the workers on a 2-core machine: delivered in every idle period, the
/// chapter's second scenario drew them 9-17 times, 350-585 ms of the page's thread in its 0.8-1.2 s
/// with the lab out of view; every 200 ms, 2-6 times and 145-350 ms in 0.6-0.9 s.
const DELIVER_EVERY_MS: f64 = 200.0;

/// How often the page looks whether a worker has fallen silent.
const WATCH_EVERY_MS: u32 = 1_000;
/// A worker that has not started, or not answered its job, for this many of the watchdog's ticks
/// in a row is taken for dead. The longest job (a 1,024-GPU ring) takes a worker 1-2 s on this
/// project's 2-core test machine.
const SILENT_TICKS: u32 = 20;

/// Receives points as they arrive.
pub type Deliver = Rc<dyn Fn(Vec<Point>)>;
/// Computes jobs on the page instead (when the workers cannot).
pub type Fallback = Rc<dyn Fn(Vec<Job>)>;

struct Member {
    id: u32,
    worker: Worker,
    ready: bool,
    /// The generation and index of each job it was sent and has not answered, in the order sent
    /// (which is the order it answers in).
    busy: VecDeque<(u64, usize)>,
    /// The watchdog's ticks since it was started, last sent a job or last heard from.
    silent: u32,
    _on_message: Closure<dyn FnMut(web_sys::Event)>,
    _on_error: Closure<dyn FnMut(web_sys::Event)>,
}

impl Member {
    fn spawn(id: u32) -> Option<Member> {
        let worker = Worker::new(WORKER_SCRIPT).ok()?;
        // Typed as a plain event, as every other listener of the page (one adapter less).
        let on_message = Closure::<dyn FnMut(web_sys::Event)>::new(move |e: web_sys::Event| {
            let data = e.unchecked_into::<MessageEvent>().data();
            if data.as_string().as_deref() == Some(READY) {
                received(id, None);
            } else if let Some(numbers) = data.dyn_ref::<js_sys::Float64Array>() {
                received(id, Some(numbers.to_vec()));
            }
        });
        let on_error = Closure::<dyn FnMut(web_sys::Event)>::new(move |_| failed());
        worker.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
        worker.set_onerror(Some(on_error.as_ref().unchecked_ref()));
        Some(Member {
            id,
            worker,
            ready: false,
            busy: VecDeque::new(),
            silent: 0,
            _on_message: on_message,
            _on_error: on_error,
        })
    }
}

/// One setup's jobs.
struct Batch {
    generation: u64,
    setup: Setup,
    key: SetupKey,
    jobs: Vec<Job>,
    /// The jobs not yet sent: `next..end` (cheapest first).
    next: usize,
    /// Each job's cost ([`Setup::cost`]).
    costs: Vec<usize>,
    end: usize,
    answered: Vec<bool>,
    /// Points received and not yet delivered: they are delivered together in the page's idle
    /// time, at most every [`DELIVER_EVERY_MS`] (the last at once), so a burst of quick answers
    /// costs one render and input always goes first.
    inbox: Vec<Point>,
    /// The pending delivery of `inbox` (dropping it, with the batch, cancels it).
    delivery: Option<Pending>,
    /// Spaces the deliveries (the page's clock, ms).
    throttle: Throttle,
    deliver: Deliver,
    fallback: Fallback,
}

#[derive(Default)]
struct Pool {
    members: Vec<Member>,
    /// Terminated members, kept until no handler of theirs can be running.
    retired: Vec<Member>,
    batch: Option<Batch>,
    next_id: u32,
    /// A worker failed: everything runs on the page from now on.
    broken: bool,
    /// Looks for a silent worker while a batch has jobs out.
    watchdog: Option<Interval>,
}

thread_local! {
    static POOL: RefCell<Pool> = RefCell::new(Pool::default());
}

/// Workers to run: the cores the browser reports, within 1..=[`MAX_WORKERS`].
fn wanted() -> usize {
    web_sys::window()
        .map(|w| w.navigator().hardware_concurrency())
        .filter(|n| n.is_finite() && *n >= 1.0)
        .map_or(2, |n| n as usize)
        .clamp(1, MAX_WORKERS)
}

impl Pool {
    fn spawn(&mut self) -> Option<Member> {
        self.next_id += 1;
        Member::spawn(self.next_id)
    }

    /// Sends the batch's next jobs to every ready worker with room for one. The jobs are sorted
    /// cheapest first: the first worker takes them from the heaviest end (with more than one
    /// worker), one at a time, the others from the cheapest, a few small ones ahead
    /// ([`QUEUED_COST`]), so the longest run starts at once (it bounds the whole) while the chart
    /// still fills in quickly.
    fn feed(&mut self) {
        let Some(batch) = self.batch.as_mut() else {
            return;
        };
        let several = self.members.len() > 1;
        for (i, m) in self.members.iter_mut().enumerate() {
            let heaviest = i == 0 && several;
            while m.ready && batch.next < batch.end {
                let index = if heaviest { batch.end - 1 } else { batch.next };
                let queued: usize = m
                    .busy
                    .iter()
                    .map(|&(_, j)| batch.costs.get(j).copied().unwrap_or(QUEUED_COST))
                    .sum();
                let room = m.busy.is_empty()
                    || (!heaviest
                        && m.busy.len() < MAX_QUEUED
                        && queued + batch.costs[index] <= QUEUED_COST);
                if !room {
                    break;
                }
                let ask = Ask {
                    generation: batch.generation,
                    index,
                    setup: batch.key.clone(),
                    job: batch.jobs[index],
                };
                if m.worker.post_message(&ask.encode().into()).is_err() {
                    break;
                }
                m.silent = 0;
                m.busy.push_back((batch.generation, index));
                if index == batch.next {
                    batch.next += 1;
                } else {
                    batch.end -= 1;
                }
            }
        }
    }

    /// Terminates the workers busy with a job of another generation than `current` (a run in
    /// progress cannot be interrupted any other way); [`submit`] starts fresh ones.
    fn retire_stale(&mut self, current: Option<u64>) {
        let (stale, keep) = std::mem::take(&mut self.members)
            .into_iter()
            .partition(|m| m.busy.iter().any(|&(g, _)| Some(g) != current));
        self.members = keep;
        for m in stale {
            m.worker.terminate();
            self.retired.push(m);
        }
    }
}

/// Computes `jobs` of `setup` in workers, giving the points to `deliver` as they arrive, and says
/// how many workers; `None` (having done nothing) if workers cannot run here, so the caller
/// computes them itself. `fallback` receives the jobs left if the workers fail part-way.
pub fn submit(
    generation: u64,
    setup: &Setup,
    jobs: Vec<Job>,
    deliver: Deliver,
    fallback: Fallback,
) -> Option<usize> {
    POOL.with_borrow_mut(|pool| {
        if pool.broken {
            return None;
        }
        // Terminated workers' handlers cannot be running now (this is not one of them).
        pool.retired.clear();
        pool.retire_stale(Some(generation));
        while pool.members.len() < wanted() {
            match pool.spawn() {
                Some(m) => pool.members.push(m),
                None => break,
            }
        }
        if pool.members.is_empty() {
            pool.broken = true;
            return None;
        }
        let count = jobs.len();
        pool.batch = Some(Batch {
            generation,
            setup: setup.clone(),
            key: setup.key(),
            answered: vec![false; count],
            costs: jobs.iter().map(|j| setup.cost(j)).collect(),
            inbox: Vec::new(),
            delivery: None,
            throttle: Throttle::new(DELIVER_EVERY_MS),
            jobs,
            next: 0,
            end: count,
            deliver,
            fallback,
        });
        pool.feed();
        if pool.watchdog.is_none() {
            pool.watchdog = Some(Interval::new(WATCH_EVERY_MS, watch));
        }
        Some(pool.members.len())
    })
}

/// The watchdog's tick: a worker silent for [`SILENT_TICKS`] while it starts or works fails the
/// pool; with no job out, the watchdog stops (the next batch starts another).
fn watch() {
    let silent = POOL.with_borrow_mut(|pool| {
        let unanswered = pool
            .batch
            .as_ref()
            .is_some_and(|b| b.answered.contains(&false));
        let out = unanswered && pool.members.iter().any(|m| !m.busy.is_empty() || !m.ready);
        if !out {
            pool.watchdog = None;
            return false;
        }
        let mut silent = false;
        for m in pool
            .members
            .iter_mut()
            .filter(|m| !m.busy.is_empty() || !m.ready)
        {
            m.silent = m.silent.saturating_add(1);
            silent |= m.silent >= SILENT_TICKS;
        }
        silent
    });
    if silent {
        failed();
    }
}

/// Drops `generation`'s batch (if it is the current one) and stops the workers busy with it. The
/// points it received and had not delivered yet are delivered now (the charts ignore an older
/// generation's points; what they simulated is kept for later setups).
pub fn cancel(generation: u64) {
    let undelivered = POOL.with_borrow_mut(|pool| {
        if pool.batch.as_ref()?.generation != generation {
            return None;
        }
        let batch = pool.batch.take()?;
        pool.retire_stale(None);
        Some((batch.deliver, batch.inbox))
    });
    if let Some((deliver, inbox)) = undelivered.filter(|(_, inbox)| !inbox.is_empty()) {
        deliver(inbox);
    }
}

/// A worker's message: ready (`None`), or an [`Answer`]'s numbers.
fn received(id: u32, answer: Option<Vec<f64>>) {
    POOL.with_borrow_mut(|pool| {
        let Some(m) = pool.members.iter_mut().find(|m| m.id == id) else {
            return;
        };
        m.silent = 0;
        match answer {
            None => m.ready = true,
            Some(numbers) => {
                m.busy.pop_front();
                if let (Some(reply), Some(batch)) = (Answer::decode(&numbers), pool.batch.as_mut())
                {
                    batch.receive(reply);
                }
            }
        }
        pool.feed();
    });
}

impl Batch {
    /// Keeps an answer of this batch for the next delivery.
    fn receive(&mut self, reply: Answer) {
        if reply.generation != self.generation || self.answered.get(reply.index) != Some(&false) {
            return;
        }
        self.answered[reply.index] = true;
        // A failed point is computed here, where its error can be shown (it fails at once).
        let point = reply
            .point
            .unwrap_or_else(|| self.setup.compute(self.jobs[reply.index]));
        self.inbox.push(point);
        // The last point goes at once, whatever was pending (dropping it cancels it).
        let last = self.answered.iter().all(|&a| a);
        if self.delivery.is_none() || last {
            let generation = self.generation;
            let now = now_ms();
            let wait = if last { 0.0 } else { self.throttle.book(now) };
            self.delivery = Some(if wait <= 0.0 {
                when_idle(move |_| deliver(generation))
            } else {
                Pending::Timer(Timeout::new(wait.ceil() as u32, move || {
                    deliver_when_idle(generation)
                }))
            });
        }
    }
}

/// Delivers `generation`'s received points in the page's next idle time (its delivery was held
/// back until now): input goes first.
fn deliver_when_idle(generation: u64) {
    POOL.with_borrow_mut(|pool| {
        if let Some(batch) = pool.batch.as_mut().filter(|b| b.generation == generation) {
            // Replaces the timer that calls this (wasm-bindgen frees its closure once it returns).
            batch.delivery = Some(when_idle(move |_| deliver(generation)));
        }
    });
}

/// Gives `generation`'s received points to its receiver (outside the pool's borrow: rendering
/// them may submit a newer batch).
fn deliver(generation: u64) {
    let delivery = POOL.with_borrow_mut(|pool| {
        let batch = pool.batch.as_mut().filter(|b| b.generation == generation)?;
        batch.delivery = None;
        Some((batch.deliver.clone(), std::mem::take(&mut batch.inbox)))
    });
    if let Some((deliver, points)) = delivery {
        deliver(points);
    }
}

/// A worker could not start or failed: stop them all; the batch's unanswered jobs go to its
/// fallback.
fn failed() {
    let left = POOL.with_borrow_mut(|pool| {
        pool.broken = true;
        pool.watchdog = None;
        for m in pool.members.drain(..) {
            m.worker.terminate();
            pool.retired.push(m);
        }
        let mut batch = pool.batch.take()?;
        batch.delivery = None;
        let jobs: Vec<Job> = batch
            .jobs
            .iter()
            .zip(&batch.answered)
            .filter(|(_, done)| !**done)
            .map(|(job, _)| *job)
            .collect();
        Some((batch.deliver, batch.inbox, batch.fallback, jobs))
    });
    if let Some((deliver, received, fallback, jobs)) = left {
        if !received.is_empty() {
            deliver(received);
        }
        // Nothing left: the chart was computed by workers after all.
        if !jobs.is_empty() {
            fallback(jobs);
        }
    }
}

/// The worker's side: answers every [`Ask`] it is sent with [`answer`], after saying it is
/// ready, and runs every lab request ([`lab_job`]) with `lab::in_worker::serve_request`. A
/// message that is neither throws, which the page sees as the worker failing.
pub fn serve() {
    let scope: DedicatedWorkerGlobalScope = js_sys::global().unchecked_into();
    let replies = scope.clone();
    let on_message = Closure::<dyn FnMut(MessageEvent)>::new(move |e: MessageEvent| {
        let ask = e.data().as_string();
        // The lab's large runs come to the same worker.
        if let Some(request) = ask.as_deref().filter(|a| a.starts_with(lab_job::PREFIX)) {
            crate::ui::components::lab::in_worker::serve_request(&replies, request);
            return;
        }
        let reply = ask.and_then(|ask| answer(&ask));
        match reply {
            Some(numbers) => {
                let _ = replies.post_message(&js_sys::Float64Array::from(&numbers[..]));
            }
            None => wasm_bindgen::throw_str("allreduce-lab worker: not an Ask"),
        }
    });
    scope.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
    on_message.forget();
    let _ = scope.post_message(&READY.into());
}
