//! Work computed in Web Workers, as many as the browser reports cores: the scaling charts' points
//! and the Ring-vs-Tree figure's runs, each kind in a pool of its own ([`Channel`]), so that one
//! never cancels the other. The page sends each worker jobs (a kind's [`Work`] writes the
//! message), more as it answers; with `heaviest_first`, the first worker takes the heaviest jobs,
//! one at a time, the others the cheapest, a few small ones ahead (see [`QUEUED_COST`]); without,
//! every worker takes the jobs in their order. A newer batch cancels an older one at once: a
//! worker still busy with the older batch's jobs is terminated (a run in progress cannot be
//! interrupted any other way) and a fresh one takes its place. If a worker cannot start or fails,
//! or says nothing for [`SILENT_TICKS`] of the page's watchdog in a row while it starts or works on
//! a job (one that died without an error event, as one out of memory can), its pool stops and
//! what is left is computed on the page in idle time, as before workers. The watchdog counts its
//! own ticks rather than the clock, so a page frozen or asleep with its workers does not take the
//! pause for silence.
//!
//! The worker is this crate's `points-worker` binary, built by Trunk next to the app (index.html)
//! with a loader script; its whole work is [`serve`].

use crate::ui::components::lab::simulation::now_ms;
use crate::ui::components::sliced::{Pending, when_idle};
use crate::ui::model::lab_job;
use crate::ui::model::scaling_work::{answer, answer_header};
use crate::ui::model::throttle::Throttle;
use crate::ui::model::versus_work::{self, answer_versus};
use gloo::timers::callback::Interval;
use gloo::timers::callback::Timeout;
use std::cell::RefCell;
use std::collections::VecDeque;
use wasm_bindgen::JsCast;
use wasm_bindgen::closure::Closure;
use web_sys::{DedicatedWorkerGlobalScope, MessageEvent, Worker};

/// The script that starts a worker (Trunk's loader for the `points-worker` binary), per
/// [`Channel`]: the Ring-vs-Tree figure's named apart by its query (its own imports resolve
/// without it), so that a test can block those workers alone.
const WORKER_SCRIPTS: [&str; 2] = [
    "./points-worker_loader.js",
    "./points-worker_loader.js?for=versus",
];

/// What a worker says once it listens (messages sent before would be lost).
const READY: &str = "ready";

/// At most this many workers per pool, whatever the browser reports.
const MAX_WORKERS: usize = 8;

/// A worker that takes the cheapest jobs is sent more while those it has not answered cost at
/// most this together (in transfers: a few ms of work), up to [`MAX_QUEUED`] of them: it starts
/// the next as soon as it answers one, instead of waiting until the page, busy drawing, has read
/// the answer and sent another. Most of a chart's jobs are small (the chapter's second scenario:
/// 78 of 108 under 2 ms each in Node's V8), so one at a time that worker waited on the page
/// between most of them.
const QUEUED_COST: usize = 16_384;
const MAX_QUEUED: usize = 4;

/// Results are delivered (and the charts drawn again) at most this often while the rest are
/// computed, and the last ones at once. Each drawing of the charts is tens of ms of the page's
/// thread, taken from the workers on a 2-core machine: delivered in every idle period, the
/// chapter's second scenario drew them 9-17 times, 350-585 ms of the page's thread in its 0.8-1.2 s
/// with the lab out of view; every 200 ms, 2-6 times and 145-350 ms in 0.6-0.9 s.
const DELIVER_EVERY_MS: f64 = 200.0;

/// How long the scaling charts' workers, idle, wait for a newer setup before they are let go.
const SCALING_IDLE_MS: u32 = 10_000;

/// How often the page looks whether a worker has fallen silent.
const WATCH_EVERY_MS: u32 = 1_000;
/// A worker that has not started, or not answered its job, for this many of the watchdog's ticks
/// in a row is taken for dead. The longest job (a 1,024-GPU ring) takes a worker 1-2 s on this
/// project's 2-core test machine.
const SILENT_TICKS: u32 = 20;

/// The kinds of work, each in a pool of workers of its own.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Channel {
    /// The scaling charts' points.
    Scaling = 0,
    /// The Ring-vs-Tree figure's runs.
    Versus = 1,
}

/// One batch's kind of work: the message that asks a worker for a job, and what its answers
/// become on the page.
pub trait Work {
    /// The message asking for job `index` of batch `generation`.
    fn ask(&self, generation: u64, index: usize) -> String;
    /// Reads a worker's answer to job `index` (its numbers: the pool has read their generation
    /// and index, [`answer_header`], and found them the batch's and not yet answered) and keeps
    /// what it gives for the next delivery; `false` if the numbers are no answer.
    fn keep(&mut self, index: usize, numbers: &[f64]) -> bool;
    /// What was kept since the last delivery, handed to the page by the closure, which runs
    /// outside the pool's borrow (drawing the results may submit a newer batch); `None` if
    /// nothing was.
    fn delivery(&mut self) -> Option<Box<dyn FnOnce()>>;
    /// Hands the jobs no worker answered (their indexes, at least one) to the page, which
    /// computes them.
    fn fall_back(&mut self, left: Vec<usize>) -> Box<dyn FnOnce()>;
}

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
    fn spawn(channel: Channel, id: u32) -> Option<Member> {
        let worker = Worker::new(WORKER_SCRIPTS[channel as usize]).ok()?;
        // Typed as a plain event, as every other listener of the page (one adapter less).
        let on_message = Closure::<dyn FnMut(web_sys::Event)>::new(move |e: web_sys::Event| {
            let data = e.unchecked_into::<MessageEvent>().data();
            if data.as_string().as_deref() == Some(READY) {
                received(channel, id, None);
            } else if let Some(numbers) = data.dyn_ref::<js_sys::Float64Array>() {
                received(channel, id, Some(numbers.to_vec()));
            }
        });
        let on_error = Closure::<dyn FnMut(web_sys::Event)>::new(move |_| failed(channel));
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

/// One batch of jobs.
struct Batch {
    generation: u64,
    work: Box<dyn Work>,
    /// The jobs not yet sent: `next..end`.
    next: usize,
    /// Each job's cost (in transfers).
    costs: Vec<usize>,
    end: usize,
    /// The first worker takes the jobs from the heaviest end (the jobs are sorted cheapest
    /// first); otherwise every worker takes them in order.
    heaviest_first: bool,
    answered: Vec<bool>,
    /// The pending delivery of what `work` kept (dropping it, with the batch, cancels it): the
    /// results are delivered together in the page's idle time, at most every
    /// [`DELIVER_EVERY_MS`] (the last at once), so a burst of quick answers costs one render and
    /// input always goes first.
    delivery: Option<Pending>,
    /// Spaces the deliveries (the page's clock, ms).
    throttle: Throttle,
}

#[derive(Default)]
struct Pool {
    members: Vec<Member>,
    /// Terminated members, kept until no handler of theirs can be running.
    retired: Vec<Member>,
    batch: Option<Batch>,
    next_id: u32,
    /// A worker failed: everything of this pool runs on the page from now on.
    broken: bool,
    /// Looks for a silent worker while a batch has jobs out.
    watchdog: Option<Interval>,
    /// Lets the idle workers go, unless a newer batch comes first (see [`Pool::let_idle_go`]).
    idle: Option<Timeout>,
}

thread_local! {
    static POOLS: [RefCell<Pool>; 2] = Default::default();
}

/// Runs `f` on `channel`'s pool.
fn with_pool<R>(channel: Channel, f: impl FnOnce(&mut Pool) -> R) -> R {
    POOLS.with(|pools| f(&mut pools[channel as usize].borrow_mut()))
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
    /// Sends the batch's next jobs to every ready worker with room for one: with
    /// `heaviest_first` (and more than one worker), the first worker takes them from the heaviest
    /// end, one at a time, the others from the cheapest, a few small ones ahead
    /// ([`QUEUED_COST`]), so the longest run starts at once (it bounds the whole) while the chart
    /// still fills in quickly.
    fn feed(&mut self) {
        let Some(batch) = self.batch.as_mut() else {
            return;
        };
        let several = self.members.len() > 1;
        for (i, m) in self.members.iter_mut().enumerate() {
            let heaviest = i == 0 && several && batch.heaviest_first;
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
                let ask = batch.work.ask(batch.generation, index);
                if m.worker.post_message(&ask.into()).is_err() {
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

/// Computes a batch of jobs (each one's cost in `costs`) in `channel`'s workers, `work` writing
/// what they are asked and reading what they answer, and says how many workers; `None` (having
/// done nothing) if workers cannot run here, so the caller computes the jobs itself.
pub fn submit(
    channel: Channel,
    generation: u64,
    costs: Vec<usize>,
    heaviest_first: bool,
    work: Box<dyn Work>,
) -> Option<usize> {
    with_pool(channel, |pool| {
        if pool.broken {
            return None;
        }
        // Terminated workers' handlers cannot be running now (this is not one of them).
        pool.retired.clear();
        pool.idle = None;
        pool.retire_stale(Some(generation));
        while pool.members.len() < wanted() {
            pool.next_id += 1;
            match Member::spawn(channel, pool.next_id) {
                Some(m) => pool.members.push(m),
                None => break,
            }
        }
        if pool.members.is_empty() {
            pool.broken = true;
            return None;
        }
        let count = costs.len();
        pool.batch = Some(Batch {
            generation,
            work,
            next: 0,
            end: count,
            costs,
            heaviest_first,
            answered: vec![false; count],
            delivery: None,
            throttle: Throttle::new(DELIVER_EVERY_MS),
        });
        pool.feed();
        if pool.watchdog.is_none() {
            pool.watchdog = Some(Interval::new(WATCH_EVERY_MS, move || watch(channel)));
        }
        Some(pool.members.len())
    })
}

/// The watchdog's tick: a worker silent for [`SILENT_TICKS`] while it starts or works fails the
/// pool; with no job out, the watchdog stops (the next batch starts another).
fn watch(channel: Channel) {
    let silent = with_pool(channel, |pool| {
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
        failed(channel);
    }
}

/// Drops `generation`'s batch (if it is `channel`'s current one) and stops the workers busy with
/// it. What it received and had not delivered yet is delivered now (the receivers ignore an older
/// generation's results, or keep them for later setups).
pub fn cancel(channel: Channel, generation: u64) {
    let undelivered = with_pool(channel, |pool| {
        if pool.batch.as_ref()?.generation != generation {
            return None;
        }
        let mut batch = pool.batch.take()?;
        pool.retire_stale(None);
        // The scaling charts' idle ones wait for a newer batch as after a finished one, and are let
        // go if none comes (they were kept until the next). The Ring-vs-Tree figure's stay for the
        // newer batch that usually follows at once (a fresh worker takes ~100 ms to start).
        if channel == Channel::Scaling {
            pool.let_idle_go(channel);
        }
        batch.work.delivery()
    });
    if let Some(deliver) = undelivered {
        deliver();
    }
}

/// A worker's message: ready (`None`), or an answer's numbers. An answer that is not the one
/// the worker owes the current batch (one the page cannot read: a worker script of another
/// version, say) fails the pool, whose batch then goes to the page: otherwise that job would be
/// neither answered nor sent again, and the figure would wait for it forever.
fn received(channel: Channel, id: u32, answer: Option<Vec<f64>>) {
    let unread = with_pool(channel, |pool| {
        let m = pool.members.iter_mut().find(|m| m.id == id)?;
        m.silent = 0;
        let mut unread = false;
        match answer {
            None => m.ready = true,
            Some(numbers) => {
                let owed = m.busy.pop_front();
                if let Some(batch) = pool.batch.as_mut() {
                    let read = batch.receive(channel, &numbers);
                    unread = owed.is_some_and(|(g, i)| g == batch.generation && read != Some(i));
                }
            }
        }
        if !unread {
            pool.feed();
            pool.let_idle_go(channel);
        }
        Some(unread)
    });
    if unread == Some(true) {
        failed(channel);
    }
}

impl Pool {
    /// Once every job of the batch is answered, the workers are let go (a 1,024-GPU run grows a
    /// worker's memory, which it keeps while it lives: about 80 MB for the scaling chart's ring;
    /// a new one starts in about 100 ms): the Ring-vs-Tree figure's at once, the scaling charts'
    /// after [`SCALING_IDLE_MS`] without a newer setup, which would find them ready while a
    /// learner moves the controls.
    fn let_idle_go(&mut self, channel: Channel) {
        // Done, or cancelled: no batch left.
        let done = self
            .batch
            .as_ref()
            .is_none_or(|b| !b.answered.contains(&false));
        if !done || self.members.iter().any(|m| !m.busy.is_empty()) {
            return;
        }
        match channel {
            Channel::Versus => self.let_go(),
            Channel::Scaling => {
                self.idle = Some(Timeout::new(SCALING_IDLE_MS, move || {
                    with_pool(channel, |pool| {
                        // Replaced by `submit` if a newer batch came: this one finds none idle.
                        pool.idle = None;
                        if pool.members.iter().all(|m| m.busy.is_empty()) {
                            pool.let_go();
                        }
                    })
                }))
            }
        }
    }

    /// Terminates every worker (the next batch starts fresh ones).
    fn let_go(&mut self) {
        for m in self.members.drain(..) {
            m.worker.terminate();
            self.retired.push(m);
        }
    }
}

impl Batch {
    /// Keeps an answer of this batch for the next delivery; returns the index of the job it
    /// answers, if it is one of this batch not answered yet.
    fn receive(&mut self, channel: Channel, numbers: &[f64]) -> Option<usize> {
        let (generation, index) = answer_header(numbers)?;
        if generation != self.generation
            || self.answered.get(index) != Some(&false)
            || !self.work.keep(index, numbers)
        {
            return None;
        }
        self.answered[index] = true;
        // The last result goes at once, whatever was pending (dropping it cancels it).
        let last = self.answered.iter().all(|&a| a);
        if self.delivery.is_none() || last {
            let generation = self.generation;
            let now = now_ms();
            let wait = if last { 0.0 } else { self.throttle.book(now) };
            self.delivery = Some(if wait <= 0.0 {
                when_idle(move |_| deliver(channel, generation))
            } else {
                Pending::Timer(Timeout::new(wait.ceil() as u32, move || {
                    deliver_when_idle(channel, generation)
                }))
            });
        }
        Some(index)
    }
}

/// Delivers `generation`'s results in the page's next idle time (its delivery was held back until
/// now): input goes first.
fn deliver_when_idle(channel: Channel, generation: u64) {
    with_pool(channel, |pool| {
        if let Some(batch) = pool.batch.as_mut().filter(|b| b.generation == generation) {
            // Replaces the timer that calls this (wasm-bindgen frees its closure once it returns).
            batch.delivery = Some(when_idle(move |_| deliver(channel, generation)));
        }
    });
}

/// Gives `generation`'s received results to the page (outside the pool's borrow: drawing them
/// may submit a newer batch).
fn deliver(channel: Channel, generation: u64) {
    let delivery = with_pool(channel, |pool| {
        let batch = pool.batch.as_mut().filter(|b| b.generation == generation)?;
        batch.delivery = None;
        batch.work.delivery()
    });
    if let Some(deliver) = delivery {
        deliver();
    }
}

/// A worker of `channel` could not start or failed: stop them all; the batch's unanswered jobs go
/// to the page.
fn failed(channel: Channel) {
    let left = with_pool(channel, |pool| {
        pool.broken = true;
        pool.watchdog = None;
        pool.idle = None;
        pool.let_go();
        let mut batch = pool.batch.take()?;
        batch.delivery = None;
        let left: Vec<usize> = (0..batch.answered.len())
            .filter(|&i| !batch.answered[i])
            .collect();
        // Nothing left: the batch was computed by workers after all.
        let fall_back = (!left.is_empty()).then(|| batch.work.fall_back(left));
        Some((batch.work.delivery(), fall_back))
    });
    if let Some((received, fall_back)) = left {
        if let Some(deliver) = received {
            deliver();
        }
        if let Some(fall_back) = fall_back {
            fall_back();
        }
    }
}

/// The worker's side: answers every scaling point's ask it is sent with [`answer`] and every
/// Ring-vs-Tree ask with [`answer_versus`], after saying it is ready, and runs every lab request
/// ([`lab_job`]) with `lab::in_worker::serve_request`. A message that is none of these throws,
/// which the page sees as the worker failing.
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
        let reply = ask.and_then(|ask| {
            if ask.starts_with(versus_work::PREFIX) {
                answer_versus(&ask)
            } else {
                answer(&ask)
            }
        });
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
