//! Running the lab's simulations without freezing the page. Small runs are simulated as the input
//! changes; a large one waits until the input settles (a drag that stops), then runs in a Web
//! Worker ([`in_worker`]), or, where none can run, in slices of about [`FRAME_BUDGET_MS`] between
//! animation frames and in the idle time after each frame, with its progress on screen and a
//! cancel button. Its trace is indexed for the replay in such slices either way. A newer request drops the older one (its
//! timer or pending slices, and the run with it). The last few large runs' results are kept
//! ([`Recent`]): going back to one of their settings shows it at once.

use super::in_worker::{self, Heard, LabWorker, Receiving};
use crate::sim::algorithms::Algorithm;
use crate::sim::replay::{Replay, ReplayBuilder};
use crate::sim::scenario::{Scenario, ScenarioError, Simulating, Simulation};
use crate::sim::wire::Decoding;
use crate::ui::components::app::Shared;
use crate::ui::components::sliced::{Pending, has_idle_callbacks, when_idle};
use crate::ui::model::lab_job;
use crate::ui::model::logic::Controls;
use crate::ui::model::recent::Recent;
use crate::ui::model::view::{Plan, SimView, Status};
use gloo::render::{AnimationFrame, request_animation_frame};
use gloo::timers::callback::Timeout;
use std::cell::{Cell, RefCell};
use std::rc::Rc;
use yew::prelude::*;

/// How long the input must stay still before a large run starts while it keeps changing (a held
/// key's repeats, 30-40 ms apart; a slider commits its value only when released): short enough
/// not to be felt (200 ms before). A change alone (a slider's release, a key, a preset) starts its
/// run at once.
const SETTLE_MS: u32 = 120;
/// Requests this close together come from one change (a comparison's two figures).
const SAME_CHANGE_MS: f64 = 8.0;
/// The performance mark set when a large run starts at once, not after the input settled (e2e
/// counts them).
const AT_ONCE_MARK: &str = "allreduce-lab:run-at-once";
/// The work done per animation frame (shared by the runs in progress): well under a 60 Hz
/// frame's 16.7 ms, with room to draw.
const FRAME_BUDGET_MS: f64 = 10.0;
/// How often a run's progress on screen is updated at most.
const PROGRESS_EVERY_MS: f64 = 100.0;
/// Events between looks at the clock.
const SLICE_EVENTS: usize = 256;
/// The performance mark set when a sliced run's result is handed over to be drawn.
const RESULT_MARK: &str = "allreduce-lab:sliced-result";
/// The performance mark set by each slice of a run done in idle time (e2e counts them).
const IDLE_SLICE_MARK: &str = "allreduce-lab:idle-slice";
/// The performance mark set by each slice that simulated on the page, not in a worker (e2e
/// counts them).
const PAGE_SIMULATION_MARK: &str = "allreduce-lab:page-simulation-slice";
/// Transfers indexed for the replay between looks at the clock.
const INDEX_SLICE: usize = 16_384;
/// A worker that ran at most this many transfers is kept for the next run (its memory, which
/// never shrinks, holds about 100 MB then); one that ran more is let go.
const KEEP_WORKER_TRANSFERS: usize = 1_000_000;
/// Entries of a worker's simulation read between looks at the clock.
const DECODE_SLICE: usize = 65_536;
/// The performance mark set when a request is answered from the recent results (e2e counts them).
const RECALLED_MARK: &str = "allreduce-lab:recalled";
/// Large runs' results kept for going back to them: at most this many…
const RECENT_RUNS: usize = 4;
/// …of at most this many transfers together: two 1,024-GPU runs (a ring or hierarchical is 2.1 M;
/// its trace and replay take about 0.2 GB), so that flipping between two algorithms at full size
/// keeps both.
const RECENT_TRANSFERS: u64 = 4_400_000;

pub fn now_ms() -> f64 {
    web_sys::window()
        .and_then(|w| w.performance())
        .map_or(0.0, |p| p.now())
}

/// What is pending: a timer until the input settles, or the next frame of a run. Dropping it
/// cancels the request.
enum Task {
    Settling(#[allow(dead_code)] Timeout),
    /// The next frame's slice, and this frame's idle-time slice if one is pending.
    Running(
        #[allow(dead_code)] AnimationFrame,
        #[allow(dead_code)] Option<Pending>,
    ),
    /// The run in a worker (terminated when dropped), and the job its result goes to (the
    /// worker's listener holds it weakly: a cancelled run's job goes with this task).
    InWorker(#[allow(dead_code)] LabWorker, #[allow(dead_code)] SharedJob),
}

type TaskSlot = Rc<RefCell<Option<Task>>>;

/// What identifies a request: the result shown must be for these.
type Key = (Controls, Algorithm);

/// A result on screen: the request it answers, its view, and whether it was recalled (kept from
/// an earlier request by the lab's recent results) rather than run for this one.
type Outcome = Option<(Key, Shared, bool)>;

/// A run in slices and what to do with its progress and result.
struct Job {
    key: Key,
    work: Work,
    /// The simulation ran in a Web Worker (the replay's index is built on the page).
    in_worker: bool,
    /// Its worker failed or fell silent: the page runs it, from `started_ms` on.
    worker_lost: bool,
    started_ms: f64,
    status: UseStateSetter<Status>,
    /// When the progress on screen was last updated, and to what.
    shown: (f64, Status),
    result: UseStateSetter<Outcome>,
    active: Active,
}

thread_local! {
    /// Jobs working in the page's frames: they share a frame's budget (a comparison runs two; a
    /// run in a worker counts from when its result arrives, to be read and indexed).
    static ACTIVE: std::cell::Cell<u32> = const { std::cell::Cell::new(0) };
    /// Their transfers together: the results kept make room for all the runs in progress.
    static IN_FLIGHT: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
    /// The last large runs' results, whichever figure (a comparison's two) asked for them.
    static RECENT: RefCell<Recent<Key, Shared>> =
        const { RefCell::new(Recent::new(RECENT_RUNS, RECENT_TRANSFERS)) };
}

/// What keeping `view` costs: its run's transfers (an error costs nothing).
fn transfers_of(view: &SimView) -> u64 {
    view.result
        .as_ref()
        .map_or(0, |sim| sim.trace.timings.len() as u64)
}

/// Counts a job's transfers in [`IN_FLIGHT`] while it lives, and the job in [`ACTIVE`] once it
/// works in the page's frames ([`slice`](Active::slice)).
struct Active {
    transfers: u64,
    sliced: bool,
}

impl Active {
    fn new(transfers: u64) -> Active {
        IN_FLIGHT.with(|t| t.set(t.get() + transfers));
        Active {
            transfers,
            sliced: false,
        }
    }

    /// The job works in the page's frames from now on: it takes a share of their budget.
    fn slice(&mut self) {
        if !self.sliced {
            ACTIVE.with(|a| a.set(a.get() + 1));
            self.sliced = true;
        }
    }
}

impl Drop for Active {
    fn drop(&mut self) {
        if self.sliced {
            ACTIVE.with(|a| a.set(a.get().saturating_sub(1)));
        }
        IN_FLIGHT.with(|t| t.set(t.get().saturating_sub(self.transfers)));
    }
}

/// This job's share of a frame's budget.
fn budget_ms() -> f64 {
    FRAME_BUDGET_MS / ACTIVE.with(|a| a.get()).max(1) as f64
}

/// Shows `status` unless only its numbers changed and they were shown less than
/// [`PROGRESS_EVERY_MS`] ago (each update redraws the lab).
fn show_progress(job: &mut Job, status: Status) {
    let now = now_ms();
    let (at, shown) = job.shown;
    let same_kind = std::mem::discriminant(&shown) == std::mem::discriminant(&status);
    if !same_kind || now - at >= PROGRESS_EVERY_MS {
        job.status.set(status);
        job.shown = (now, status);
    }
}

/// What a job is doing: preparing and running the simulation (or, when a worker ran it,
/// receiving and reading it), then indexing its trace for the replay (a sort of millions of
/// transfers, also in slices).
enum Work {
    Simulating(Simulating),
    /// A worker's simulation, copied in; the scenario, should it have to be run here after all.
    Receiving(Receiving, Scenario),
    Decoding(Box<Decoding>, Scenario),
    Indexing(Simulation, ReplayBuilder),
    /// Ready to be shown.
    Indexed(Simulation, ReplayBuilder),
    /// Only while one stage hands over to the next.
    Between,
}

/// Where `sim` stands: preparing its first run, or running.
fn status_of(sim: &Simulating) -> Status {
    match sim.preparing() {
        Some((done, total)) => Status::Preparing { done, total },
        None => {
            let (done, total) = sim.progress();
            Status::Running { done, total }
        }
    }
}

/// `scenario`'s simulation on the page, with details, under the page's memory guard.
fn on_page(scenario: &Scenario) -> Result<Simulating, ScenarioError> {
    Simulating::new(scenario, true)
        .map(|sim| sim.limit_memory(MEMORY_GUARD_BYTES, wasm_memory_bytes))
}

/// A worker's simulation the page cannot read (a worker script older than the page, say): the
/// page runs `scenario` itself, and tries no worker again.
fn run_here(job: &mut Job, scenario: &Scenario) -> Result<Work, ScenarioError> {
    in_worker::give_up();
    lost_worker(job);
    on_page(scenario).map(Work::Simulating)
}

/// Reads a worker's simulation a step further: copying it in, then reading it, then indexing
/// it for the replay; the page's own run of `scenario` if it cannot be read.
fn read(job: &mut Job, work: Work) -> Result<Work, ScenarioError> {
    match work {
        Work::Receiving(mut rx, scenario) => match rx.step() {
            None => Ok(Work::Receiving(rx, scenario)),
            Some(Ok(sections)) => match Decoding::new(sections, &scenario) {
                Ok(d) => Ok(Work::Decoding(Box::new(d), scenario)),
                Err(_) => run_here(job, &scenario),
            },
            Some(Err(())) => run_here(job, &scenario),
        },
        Work::Decoding(mut d, scenario) => match d.step(DECODE_SLICE) {
            Ok(false) => Ok(Work::Decoding(d, scenario)),
            Ok(true) => match d.finish() {
                Ok(sim) => {
                    let index = ReplayBuilder::new(&sim.trace);
                    Ok(Work::Indexing(sim, index))
                }
                Err(_) => run_here(job, &scenario),
            },
            Err(_) => run_here(job, &scenario),
        },
        other => Ok(other),
    }
}

/// A run's end: its result and replay index, or why there is none.
type Finished = Result<(Simulation, Replay), ScenarioError>;

/// Works on `job` for `budget` ms: simulates, then indexes the trace for the replay.
/// `None` until the job is finished.
fn work(job: &mut Job, budget: f64) -> Option<Finished> {
    let started = now_ms();
    let mut simulated = false;
    let outcome = loop {
        if now_ms() - started >= budget {
            break None;
        }
        match std::mem::replace(&mut job.work, Work::Between) {
            Work::Simulating(mut sim) => {
                simulated = true;
                if !sim.step(SLICE_EVENTS) {
                    job.work = Work::Simulating(sim);
                    continue;
                }
                let (done, total) = sim.progress();
                show_progress(job, Status::Running { done, total });
                match sim.finish() {
                    Ok(sim) => {
                        let index = ReplayBuilder::new(&sim.trace);
                        job.work = Work::Indexing(sim, index);
                        // The replay's index starts in the next slice.
                        break None;
                    }
                    Err(e) => break Some(Err(e)),
                }
            }
            work @ (Work::Receiving(..) | Work::Decoding(..)) => match read(job, work) {
                Ok(w) => job.work = w,
                Err(e) => break Some(Err(e)),
            },
            Work::Indexing(sim, mut index) => {
                if index.step(&sim.trace, INDEX_SLICE) {
                    // Shown from a slice of its own: drawing a large run takes most of a frame.
                    job.work = Work::Indexed(sim, index);
                    break None;
                }
                job.work = Work::Indexing(sim, index);
            }
            Work::Indexed(sim, index) => {
                let replay = index.finish(&sim.trace);
                break Some(Ok((sim, replay)));
            }
            Work::Between => break None,
        }
    };
    if simulated {
        mark(PAGE_SIMULATION_MARK);
    }
    if outcome.is_none() {
        if let Work::Simulating(sim) = &job.work {
            let status = status_of(sim);
            show_progress(job, status);
        }
    }
    outcome
}

/// The size of the page's wasm memory: the most the page's heap ever held at once, with the
/// allocator's slack (it grows and never shrinks, so a run that needs no more than an earlier one
/// held reuses it). What runs out should a run outgrow its estimate: wasm32 addresses 4 GB.
pub(crate) fn wasm_memory_bytes() -> u64 {
    core::arch::wasm32::memory_size(0) as u64 * 65_536
}

/// A run that grows the page's wasm memory past this stops, with a message (see
/// [`Simulating::limit_memory`]), and once the memory is past it no large run starts: well short
/// of the 4 GB a wasm32 page can address (a step of a run may allocate a few hundred MB at once),
/// and above the 2 GB a run may typically need
/// ([`UI_BUDGET`](crate::ui::model::view::UI_BUDGET); measured: 765 MB of wasm memory after the
/// largest the lab admits at 1,024 GPUs, run in its worker; run on the page, without one, its
/// peak is 1.0 GB of heap by a counting allocator). Two of the largest side by side, with results kept,
/// may pass it together; both stop then.
pub(crate) const MEMORY_GUARD_BYTES: u64 = 3_000_000_000;

/// Sets the performance mark `name` (for measurements: e2e reads them).
fn mark(name: &str) {
    if let Some(p) = web_sys::window().and_then(|w| w.performance()) {
        let _ = p.mark(name);
    }
}

/// Hands a finished job's result over to be drawn.
fn deliver(job: Job, outcome: Finished) {
    let Job {
        key,
        in_worker,
        worker_lost,
        started_ms,
        status,
        result,
        ..
    } = job;
    let (controls, algorithm) = &key;
    let mut view = match outcome {
        Ok((sim, replay)) => SimView::with_replay(controls, *algorithm, Ok(sim), replay),
        Err(e) => SimView::new(controls, *algorithm, Err(e)),
    };
    view.sim_ms = now_ms() - started_ms;
    view.memory_bytes = wasm_memory_bytes();
    view.in_worker = in_worker;
    view.worker_lost = worker_lost;
    let cost = transfers_of(&view);
    let view = Shared(Rc::new(view));
    // Only a result is kept: a run stopped by the memory guard may fit another time.
    if view.0.result.is_ok() {
        RECENT.with_borrow_mut(|recent| recent.keep(key.clone(), view.clone(), cost));
    }
    // For measurements (e2e): the moment a sliced run's result is handed over to be drawn.
    mark(RESULT_MARK);
    result.set(Some((key, view, false)));
    status.set(Status::Done);
}

/// The job a run's pending frame and idle callbacks share; `None` once it is delivered.
type SharedJob = Rc<RefCell<Option<Job>>>;

/// Works on the shared job for `budget` ms and delivers it if that finished it; says whether it
/// goes on.
fn work_shared(slot: &TaskSlot, job: &SharedJob, budget: f64) -> bool {
    let mut held = job.borrow_mut();
    let Some(j) = held.as_mut() else {
        return false;
    };
    let Some(outcome) = work(j, budget) else {
        return true;
    };
    let j = held.take().expect("held above");
    drop(held);
    slot.borrow_mut().take();
    deliver(j, outcome);
    false
}

/// Steps `job` for its share of a frame's budget in the next animation frame, and again in the
/// idle time left after that frame is drawn, then schedules the next frame or hands over the
/// result. The frame's slice keeps the run moving however busy the page is; the idle slice uses
/// what the browser itself says is free (measured: the 1,024-GPU ring used about two thirds of
/// the wall time with frame slices alone).
fn next_frame(slot: TaskSlot, job: SharedJob) {
    let (next_slot, next_job) = (slot.clone(), job.clone());
    let frame = request_animation_frame(move |_| {
        if !work_shared(&next_slot, &next_job, budget_ms()) {
            return;
        }
        // Only where the browser says how long it is idle: a timer instead would work past the
        // frame.
        let idle = has_idle_callbacks().then(|| {
            let (idle_slot, idle_job) = (next_slot.clone(), next_job.clone());
            when_idle(move |budget| {
                // The idle period's own length (at most the tick budget), shared as a frame's is.
                let share = budget / ACTIVE.with(|a| a.get()).max(1) as f64;
                if work_shared(&idle_slot, &idle_job, share) {
                    mark(IDLE_SLICE_MARK);
                }
            })
        });
        next_frame(next_slot.clone(), next_job);
        if let Some(Task::Running(_, pending)) = next_slot.borrow_mut().as_mut() {
            *pending = idle;
        }
    });
    *slot.borrow_mut() = Some(Task::Running(frame, None));
}

/// A simulation on screen, and the learner's handles on it.
pub struct SimHandle {
    pub view: Shared,
    /// Stops a run in progress.
    pub cancel: Callback<()>,
    /// Starts a cancelled run again.
    pub restart: Callback<()>,
    /// The result on screen was kept from an earlier request (the lab's recent results), not
    /// run for this one.
    pub recalled: bool,
}

/// The simulation of `controls` with `algorithm` (idle while not `shown`).
#[hook]
pub fn use_simulation(controls: &Controls, algorithm: Algorithm, shown: bool) -> SimHandle {
    // A run depends on the controls' scenario with `algorithm`, not on the algorithm the controls
    // name: in a comparison the second figure's run is the same whichever algorithm the first
    // shows, and a run either figure made is the other's too (its key and recent results).
    let controls = &Controls {
        algorithm,
        ..controls.clone()
    };
    // Restarting a cancelled run is a new request for the same input.
    let attempt = use_state(|| 0u32);
    let plan = use_memo((controls.clone(), algorithm, shown), |(c, a, shown)| {
        if !*shown {
            return Plan::Ready(Rc::new(SimView::idle(*a)));
        }
        let started = now_ms();
        let mut plan = Plan::new(c, *a);
        if let Plan::Ready(view) = &mut plan {
            if let Some(v) = Rc::get_mut(view) {
                v.sim_ms = now_ms() - started;
            }
        }
        plan
    });
    let status = use_state(|| Status::Done);
    let result = use_state(|| None::<(Key, Shared, bool)>);
    let slot: TaskSlot = use_mut_ref(|| None);
    {
        // The result this render shows, if any: still the right one when a request comes back
        // to it before a newer run delivered (and the recent results had to drop it).
        let on_screen = (*result).clone();
        let (plan, status, result, slot) =
            (plan.clone(), status.setter(), result.setter(), slot.clone());
        use_effect_with(
            (controls.clone(), algorithm, shown, *attempt),
            move |(controls, algorithm, _, _)| {
                let alone = note_request();
                // A newer request replaces (and so cancels) an older one.
                slot.borrow_mut().take();
                if let Plan::Sliced(scenario) = &*plan {
                    let key = (controls.clone(), *algorithm);
                    let kept = RECENT.with_borrow_mut(|recent| recent.get(&key).cloned());
                    // A result still on screen for this request (not an error: a run the
                    // memory guard stopped may fit another time).
                    let on_screen =
                        on_screen.filter(|(k, view, _)| *k == key && view.0.result.is_ok());
                    if let Some(view) = kept.or(on_screen.map(|(_, view, _)| view)) {
                        mark(RECALLED_MARK);
                        result.set(Some((key, view, true)));
                        status.set(Status::Done);
                    } else {
                        // The result on screen is another setting's: not shown again, so not
                        // kept alive beside the run (unless the recent results keep it).
                        result.set(None);
                        status.set(Status::Waiting);
                        let task = settle_then_run(
                            alone,
                            slot.clone(),
                            key,
                            scenario.clone(),
                            status,
                            result,
                        );
                        *slot.borrow_mut() = Some(task);
                    }
                } else {
                    status.set(Status::Done);
                }
                move || {
                    slot.borrow_mut().take();
                }
            },
        );
    }
    let key = (controls.clone(), algorithm);
    let pending = use_memo((key.clone(), *status), |((c, a), status)| {
        Shared(Rc::new(SimView::pending(c, *a, *status)))
    });
    let (view, recalled) = match &*plan {
        Plan::Ready(view) => (Shared(view.clone()), false),
        Plan::Sliced(_) => match &*result {
            Some((k, view, recalled)) if *k == key => (view.clone(), *recalled),
            // A kept result is shown from this render on, not a frame later once the effect
            // has recalled it.
            _ => RECENT
                .with_borrow(|recent| recent.peek(&key).cloned())
                .map_or_else(|| ((*pending).clone(), false), |view| (view, true)),
        },
    };
    let cancel = {
        let (slot, status) = (slot.clone(), status.setter());
        Callback::from(move |()| {
            if slot.borrow_mut().take().is_some() {
                status.set(Status::Cancelled);
            }
        })
    };
    let restart = Callback::from(move |()| attempt.set(attempt.wrapping_add(1)));
    SimHandle {
        view,
        cancel,
        restart,
        recalled,
    }
}

/// `job`'s worker failed (or fell silent, or sent what the page cannot read): the page runs it,
/// and says so, with the time its own run takes.
fn lost_worker(job: &mut Job) {
    job.in_worker = false;
    job.worker_lost = true;
    job.started_ms = now_ms();
}

/// Runs `job` on the page, in slices, from `sim`.
fn run_on_page(slot: TaskSlot, job: SharedJob, sim: Simulating) {
    if let Some(j) = job.borrow_mut().as_mut() {
        j.work = Work::Simulating(sim);
        j.in_worker = false;
        j.active.slice();
    }
    next_frame(slot, job);
}

/// What the worker running `job` said: its progress, its simulation (received, read and indexed
/// for the replay on the page, in slices), the memory guard's stop, or that the page must run it.
fn heard_from_worker(slot: &TaskSlot, job: SharedJob, heard: Heard, scenario: &Scenario) {
    match heard {
        Heard::Progress(status) => {
            if let Some(j) = job.borrow_mut().as_mut() {
                show_progress(j, status);
            }
        }
        Heard::Done(array) => {
            if let Some(j) = job.borrow_mut().as_mut() {
                j.work = Work::Receiving(Receiving::new(array), scenario.clone());
                j.active.slice();
            }
            next_frame(slot.clone(), job);
        }
        Heard::OverMemory(limit_bytes) => {
            let stopped = ScenarioError::MemoryOverLimit { limit_bytes };
            deliver_error(slot, &job, stopped);
        }
        Heard::Failed => {
            if let Some(j) = job.borrow_mut().as_mut() {
                lost_worker(j);
            }
            match on_page(scenario) {
                Ok(sim) => run_on_page(slot.clone(), job, sim),
                Err(e) => deliver_error(slot, &job, e),
            }
        }
    }
}

/// Ends `job` (and its task) with `e`.
fn deliver_error(slot: &TaskSlot, job: &SharedJob, e: ScenarioError) {
    slot.borrow_mut().take();
    if let Some(j) = job.borrow_mut().take() {
        deliver(j, Err(e));
    }
}

thread_local! {
    /// When the lab's runs were last asked for (`now_ms`).
    static LAST_REQUEST_MS: Cell<f64> = const { Cell::new(f64::NEG_INFINITY) };
    /// When the last change began (its first request) and whether it came alone: the runs one
    /// change asks for together (a comparison's two figures) are treated alike.
    static CHANGE: Cell<(f64, bool)> = const { Cell::new((f64::NEG_INFINITY, false)) };
}

/// Notes a request for a run (any: large or small, answered from the recent results or not) and
/// says whether it came alone: no other change in the [`SETTLE_MS`] before it.
fn note_request() -> bool {
    let requested = now_ms();
    let last = LAST_REQUEST_MS.replace(requested);
    let (change_at, change_alone) = CHANGE.get();
    if requested - change_at < SAME_CHANGE_MS {
        return change_alone;
    }
    let alone = requested - last >= f64::from(SETTLE_MS);
    CHANGE.set((requested, alone));
    alone
}

/// Starts the run in the next task if its request came `alone` ([`note_request`]); else once the
/// input has been still for [`SETTLE_MS`] (a newer request replaces this one).
fn settle_then_run(
    alone: bool,
    slot: TaskSlot,
    key: Key,
    scenario: Scenario,
    status: UseStateSetter<Status>,
    result: UseStateSetter<Outcome>,
) -> Task {
    let wait = if alone {
        mark(AT_ONCE_MARK);
        0
    } else {
        SETTLE_MS
    };
    Task::Settling(Timeout::new(wait, move || {
        start_run(slot, key, scenario, status, result)
    }))
}

/// Prepares the run (schedule and network) and starts it, in a worker where one can run it.
fn start_run(
    slot: TaskSlot,
    key: Key,
    scenario: Scenario,
    status: UseStateSetter<Status>,
    result: UseStateSetter<Outcome>,
) {
    let started_ms = now_ms();
    // Only validates: the run's schedule, indexes and buffers are built in the frames' slices.
    // A page whose memory earlier runs left past the guard starts no large run (each stop
    // leaves it up to one step further, and a page that reaches 4 GB aborts): it says so.
    let sim = if wasm_memory_bytes() > MEMORY_GUARD_BYTES {
        Err(ScenarioError::MemoryOverLimit {
            limit_bytes: MEMORY_GUARD_BYTES,
        })
    } else {
        // The lab admits a run by its typical cost; it stops should it grow the page's
        // memory past the guard all the same.
        on_page(&scenario)
    };
    match sim {
        Ok(sim) => {
            // The results kept and the records of the runs in progress (this one and, in a
            // comparison, the other figure's) stay within the kept results' bound.
            let (_, transfers) = sim.progress();
            let active = Active::new(transfers as u64);
            let in_flight = IN_FLIGHT.with(|t| t.get());
            RECENT.with_borrow_mut(|recent| recent.make_room(in_flight));
            let shown = status_of(&sim);
            status.set(shown);
            let request = lab_job::encode(&key.0, key.1);
            let job = Job {
                key,
                work: Work::Between,
                in_worker: true,
                worker_lost: false,
                started_ms,
                status,
                shown: (started_ms, shown),
                result,
                active,
            };
            let job: SharedJob = Rc::new(RefCell::new(Some(job)));
            let hear = {
                let (slot, job) = (slot.clone(), Rc::downgrade(&job));
                move |heard| {
                    if let Some(job) = job.upgrade() {
                        heard_from_worker(&slot, job, heard, &scenario);
                    }
                }
            };
            match in_worker::start(request, transfers <= KEEP_WORKER_TRANSFERS, hear) {
                Some(worker) => *slot.borrow_mut() = Some(Task::InWorker(worker, job)),
                None => run_on_page(slot, job, sim),
            }
        }
        Err(e) => {
            let (controls, algorithm) = &key;
            let view = Shared(Rc::new(SimView::new(controls, *algorithm, Err(e))));
            slot.borrow_mut().take();
            result.set(Some((key, view, false)));
            status.set(Status::Done);
        }
    }
}
