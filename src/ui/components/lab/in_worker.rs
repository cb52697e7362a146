//! The lab's large runs in a Web Worker: the page sends the controls and algorithm
//! ([`lab_job`]), the worker prepares and runs the simulation with every detail, saying how far
//! it is about every [`PROGRESS_EVERY_MS`], and posts the finished simulation back as typed arrays
//! ([`wire`]), which its message hands over without another copy. The page copies them into its
//! memory ([`Receiving`]), rebuilds the simulation over the scenario's topology
//! ([`wire::Decoding`]) and indexes it for the replay, each in slices of its frames. Cancelling,
//! or a newer request, terminates the worker (a run in progress cannot be interrupted any other
//! way).
//!
//! A worker that finished a small run waits for the next ([`LabWorker`]). A worker that cannot
//! start, fails (an error event, a message that cannot be read), cannot read the request or sends
//! what the page cannot read hands the run back to the page, which runs it in slices itself, and
//! every later run too: no worker is tried again. One that says it could not run this request
//! hands back this run only. A run the worker's memory guard stops comes back as that error, not
//! run again.
//!
//! A worker that says nothing for [`SILENT_TICKS`] of the page's watchdog in a row (one that died
//! without an error event, as one out of memory can) is given up the same way: the page runs the
//! request. A working worker is never that quiet: it says how far it is while it runs, and that it
//! is still at work between the steps that turn its result into a message. The watchdog counts
//! its own ticks rather than the clock, so a page frozen or asleep with its worker does not take
//! the pause for silence.
//!
//! The worker is the scaling charts' (`points-worker`): its [`serve`](super::super::workers::serve)
//! passes requests to [`serve_request`].

use super::simulation::{MEMORY_GUARD_BYTES, wasm_memory_bytes};
use crate::sim::scenario::{ScenarioError, Simulating};
use crate::sim::schedule::Transfer;
use crate::sim::wire::{self, Section};
use crate::ui::model::lab_job;
use crate::ui::model::view::Status;
use gloo::timers::callback::Interval;
use std::cell::{Cell, RefCell};
use std::rc::Rc;
use wasm_bindgen::JsCast;
use wasm_bindgen::closure::Closure;
use web_sys::{DedicatedWorkerGlobalScope, MessageEvent, Worker};

/// The worker's script (Trunk's loader for the `points-worker` binary), named apart from the
/// scaling charts' by its query (its own imports resolve without it), so that a test can block
/// the lab's worker alone.
const WORKER_SCRIPT: &str = "./points-worker_loader.js?for=lab";
/// What a worker says once it listens.
const READY: &str = "ready";
/// What a worker says when it could not run the request (the page runs it itself).
const FAILED: &str = "lab-failed";
/// What a worker says when it cannot read the request (a worker script from another version of
/// the request's layout, say): the page runs it, and every later one, itself.
const REFUSED: &str = "lab-refused";
/// What a worker says when its memory guard stopped the run, before the limit in bytes.
const OVER_MEMORY: &str = "lab-memory:";
/// How often the worker says how far it is, at most.
const PROGRESS_EVERY_MS: f64 = 100.0;
/// Events between looks at the clock in the worker.
const STEP_EVENTS: usize = 4096;
/// How often the page looks whether its worker has fallen silent.
const WATCH_EVERY_MS: u32 = 1_000;
/// A worker silent for this many of the watchdog's ticks in a row is taken for dead: the page
/// runs its request. Its longest silence at work is one step of turning a finished run into a
/// message (about a second for the largest run the lab admits; it says it is at work between).
const SILENT_TICKS: u32 = 10;
/// The same before a new worker says it is ready: loading its script and wasm on a slow
/// connection may take longer.
const SILENT_TICKS_STARTING: u32 = 20;
/// The progress message's phase that says only "still at work" (after the run, while its result
/// is turned into the message).
const AT_WORK: f64 = 2.0;

/// What the page hears from its worker.
pub(super) enum Heard {
    Progress(Status),
    /// The finished simulation's typed arrays (see [`Receiving`]).
    Done(js_sys::Array),
    OverMemory(u64),
    /// The worker could not run the request: the page runs it.
    Failed,
}

type Listener = Closure<dyn FnMut(web_sys::Event)>;

thread_local! {
    /// A lab worker failed to start or to run: later runs stay on the page.
    static BROKEN: Cell<bool> = const { Cell::new(false) };
    /// The listeners of terminated workers, kept until none of them can be running (a worker
    /// is dropped from its own listener when its result arrives, or from its watchdog).
    static RETIRED: RefCell<Vec<(Listener, Listener)>> = const { RefCell::new(Vec::new()) };
    static RETIRED_WATCHDOGS: RefCell<Vec<Closure<dyn FnMut()>>> = const { RefCell::new(Vec::new()) };
    /// Workers that finished a run and listen for the next: starting one costs a run 50-100 ms.
    static IDLE: RefCell<Vec<Worker>> = const { RefCell::new(Vec::new()) };
}

/// Idle workers kept for the next runs at most (a comparison runs two at once).
const KEEP_IDLE: usize = 2;

/// A run in a worker. Dropping it terminates the worker, unless the run finished and its worker
/// may be kept ([`start`]'s `keep`): then it waits, idle, for the next run.
pub(super) struct LabWorker {
    worker: Worker,
    listeners: Option<(Listener, Listener)>,
    /// Gives the worker up once it has been silent for [`SILENT_TICKS`] before it finished.
    watchdog: Option<Interval>,
    finished: Rc<Cell<bool>>,
    keep: bool,
}

impl Drop for LabWorker {
    fn drop(&mut self) {
        // No message already queued reaches a listener the next run frees.
        self.worker.set_onmessage(None);
        self.worker.set_onerror(None);
        self.worker.set_onmessageerror(None);
        // Not once workers are given up: nothing would take it from the idle ones again.
        let idle = self.keep
            && self.finished.get()
            && !BROKEN.get()
            && IDLE.with_borrow_mut(|idle| {
                let room = idle.len() < KEEP_IDLE;
                if room {
                    idle.push(self.worker.clone());
                }
                room
            });
        if !idle {
            self.worker.terminate();
        }
        if let Some(l) = self.listeners.take() {
            RETIRED.with_borrow_mut(|r| r.push(l));
        }
        if let Some(w) = self.watchdog.take() {
            RETIRED_WATCHDOGS.with_borrow_mut(|r| r.push(w.cancel()));
        }
    }
}

/// No worker is tried again on this page (one failed, or sent what the page cannot read: a
/// worker script older than the page, say); the idle ones are let go.
pub(super) fn give_up() {
    BROKEN.set(true);
    for worker in IDLE.with_borrow_mut(std::mem::take) {
        worker.terminate();
    }
}

/// Reads a progress message: `[phase (0 preparing, 1 running, 2 at work after the run), done,
/// total]`; the last says nothing to show.
fn progress(numbers: &[f64]) -> Option<Status> {
    let &[phase, done, total] = numbers else {
        return None;
    };
    let (done, total) = (done as usize, total as usize);
    match phase as u32 {
        0 => Some(Status::Preparing { done, total }),
        1 => Some(Status::Running { done, total }),
        _ => None,
    }
}

/// Entries copied into the page's memory per piece: a few MB, a millisecond or two.
const PIECE: u32 = 1 << 20;

/// A finished simulation's typed arrays copied into the page's memory a piece at a time (a
/// 1,024-GPU run's are some 100 MB, which would take the page 100-150 ms at once).
pub(super) struct Receiving {
    array: js_sys::Array,
    /// The array being copied, and how far.
    next: u32,
    at: u32,
    current: Option<Section>,
    sections: Vec<Section>,
}

/// Copies entries `at..` of a typed array of `len` into `out` (room for all of them made at the
/// first piece), at most [`PIECE`]; says how far it got, or `None` if the page has no room for
/// them (then it runs the simulation itself, under its memory guard, rather than abort).
fn piece<T: Copy + Default>(
    len: u32,
    at: u32,
    out: &mut Vec<T>,
    copy: impl Fn(u32, u32, &mut [T]),
) -> Option<u32> {
    let end = at.saturating_add(PIECE).min(len);
    out.try_reserve_exact(len as usize - out.len()).ok()?;
    let old = out.len();
    out.resize(old + (end - at) as usize, T::default());
    copy(at, end, &mut out[old..]);
    Some(end)
}

/// Unpacks the transfers of words `at..` of the transfers' section `a` into `out` (room for all
/// of them made at the first piece), whole transfers of at most [`PIECE`] words: the page never
/// holds all the words beside all the transfers ([`wire::unpack_transfers`]). Says how far it
/// got, or `None` if the page has no room for them or they cannot be read (then it runs the
/// simulation itself).
fn unpack_piece(a: &js_sys::Uint32Array, at: u32, out: &mut Vec<Transfer>) -> Option<u32> {
    let (len, per) = (a.length(), wire::TRANSFER_WORDS as u32);
    let end = at.saturating_add(PIECE / per * per).min(len);
    out.try_reserve_exact((len / per) as usize - out.len())
        .ok()?;
    wire::unpack_transfers(&a.subarray(at, end).to_vec(), out).ok()?;
    Some(end)
}

/// The transfers' section as the page receives it: their words, packed ([`wire::pack_transfers`])
/// into the typed array a piece of at most [`PIECE`] words at a time, so that the worker's wasm
/// memory, which never shrinks, never holds all the words beside all the transfers.
fn send_transfers(transfers: &[Transfer]) -> js_sys::Uint32Array {
    let per = wire::TRANSFER_WORDS;
    let words = js_sys::Uint32Array::new_with_length((transfers.len() * per) as u32);
    let mut at = 0;
    for piece in transfers.chunks(PIECE as usize / per) {
        let packed = wire::pack_transfers(piece);
        let end = at + packed.len() as u32;
        words.subarray(at, end).copy_from(&packed);
        at = end;
    }
    words
}

impl Receiving {
    pub(super) fn new(array: js_sys::Array) -> Receiving {
        Receiving {
            array,
            next: 0,
            at: 0,
            current: None,
            sections: Vec::new(),
        }
    }

    /// Copies the next piece; the sections once all are in, `Err` if the message holds
    /// something else than typed arrays, the page has no room for one, or the transfers' words
    /// cannot be unpacked.
    pub(super) fn step(&mut self) -> Option<Result<Vec<Section>, ()>> {
        if self.next >= self.array.length() {
            return Some(Ok(std::mem::take(&mut self.sections)));
        }
        let v = self.array.get(self.next);
        let (len, end) = if let Some(a) = v.dyn_ref::<js_sys::Uint32Array>() {
            if self.next as usize == wire::TRANSFERS {
                let Section::Transfers(out) =
                    self.current.get_or_insert(Section::Transfers(Vec::new()))
                else {
                    return Some(Err(()));
                };
                (a.length(), unpack_piece(a, self.at, out))
            } else {
                let Section::U32(out) = self.current.get_or_insert(Section::U32(Vec::new())) else {
                    return Some(Err(()));
                };
                let copy = |x, y, dst: &mut [u32]| a.subarray(x, y).copy_to(dst);
                (a.length(), piece(a.length(), self.at, out, copy))
            }
        } else if let Some(a) = v.dyn_ref::<js_sys::Float64Array>() {
            let Section::F64(out) = self.current.get_or_insert(Section::F64(Vec::new())) else {
                return Some(Err(()));
            };
            let copy = |x, y, dst: &mut [f64]| a.subarray(x, y).copy_to(dst);
            (a.length(), piece(a.length(), self.at, out, copy))
        } else if let Some(a) = v.dyn_ref::<js_sys::Uint8Array>() {
            let Section::U8(out) = self.current.get_or_insert(Section::U8(Vec::new())) else {
                return Some(Err(()));
            };
            let copy = |x, y, dst: &mut [u8]| a.subarray(x, y).copy_to(dst);
            (a.length(), piece(a.length(), self.at, out, copy))
        } else {
            return Some(Err(()));
        };
        let Some(end) = end else {
            return Some(Err(()));
        };
        self.at = end;
        if end >= len {
            self.sections.extend(self.current.take());
            self.next += 1;
            self.at = 0;
        }
        None
    }
}

/// Starts a worker on `request` ([`lab_job::encode`]); `hear` receives what it says. `None` if
/// no worker can start here (the caller runs the request itself).
///
/// A worker kept idle from an earlier run takes the request at once; `keep` lets this one's be
/// kept in turn once it finishes (the caller keeps those of small runs only: a worker's memory
/// never shrinks).
pub(super) fn start(
    request: String,
    keep: bool,
    hear: impl Fn(Heard) + 'static,
) -> Option<LabWorker> {
    // No listener or watchdog of a terminated worker runs now: this is a timer's task.
    // (Taken out before they are dropped: nothing a drop does finds the cells borrowed.)
    drop(RETIRED.take());
    drop(RETIRED_WATCHDOGS.take());
    if BROKEN.get() {
        return None;
    }
    let (worker, listening) = match IDLE.with_borrow_mut(Vec::pop) {
        Some(worker) => (worker, true),
        None => match Worker::new(WORKER_SCRIPT) {
            Ok(worker) => (worker, false),
            Err(_) => {
                give_up();
                return None;
            }
        },
    };
    let finished = Rc::new(Cell::new(false));
    // The watchdog's ticks since the worker last said anything, and whether it listens yet.
    let silent = Rc::new(Cell::new(0u32));
    let ready = Rc::new(Cell::new(listening));
    let hear = Rc::new(hear);
    let on_message = {
        let (worker, hear, finished) = (worker.clone(), hear.clone(), finished.clone());
        let (request, silent, ready) = (request.clone(), silent.clone(), ready.clone());
        Closure::<dyn FnMut(web_sys::Event)>::new(move |e: web_sys::Event| {
            silent.set(0);
            let data = e.unchecked_into::<MessageEvent>().data();
            if let Some(text) = data.as_string() {
                if text == READY {
                    ready.set(true);
                    if worker.post_message(&request.as_str().into()).is_err() {
                        give_up();
                        hear(Heard::Failed);
                    }
                    return;
                }
                // A worker the memory guard stopped holds up to 3 GB: it is not kept.
                finished.set(!text.starts_with(OVER_MEMORY));
                if text == REFUSED {
                    give_up();
                }
                match text.strip_prefix(OVER_MEMORY) {
                    Some(limit) => hear(Heard::OverMemory(
                        limit.parse().unwrap_or(MEMORY_GUARD_BYTES),
                    )),
                    // The worker could not run this request: the page runs it.
                    None => hear(Heard::Failed),
                }
            } else if let Some(numbers) = data.dyn_ref::<js_sys::Float64Array>() {
                if let Some(status) = progress(&numbers.to_vec()) {
                    hear(Heard::Progress(status));
                }
            } else if let Some(array) = data.dyn_ref::<js_sys::Array>() {
                finished.set(true);
                hear(Heard::Done(array.clone()));
            }
        })
    };
    // A worker silent too long, as one that died without an error event: the same.
    let watchdog = {
        let (finished, hear) = (finished.clone(), hear.clone());
        let mut fired = false;
        Interval::new(WATCH_EVERY_MS, move || {
            silent.set(silent.get().saturating_add(1));
            let limit = if ready.get() {
                SILENT_TICKS
            } else {
                SILENT_TICKS_STARTING
            };
            if !fired && !finished.get() && silent.get() >= limit {
                fired = true;
                give_up();
                hear(Heard::Failed);
            }
        })
    };
    // An error, or a message that could not be read: the page runs it, and every later run.
    let on_error = Closure::<dyn FnMut(web_sys::Event)>::new(move |_| {
        give_up();
        hear(Heard::Failed);
    });
    worker.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
    worker.set_onerror(Some(on_error.as_ref().unchecked_ref()));
    worker.set_onmessageerror(Some(on_error.as_ref().unchecked_ref()));
    let run = LabWorker {
        worker,
        listeners: Some((on_message, on_error)),
        watchdog: Some(watchdog),
        finished,
        keep,
    };
    if listening && run.worker.post_message(&request.as_str().into()).is_err() {
        give_up();
        return None;
    }
    Some(run)
}

/// The worker's side: runs `request` with every detail, posting its progress and then its
/// simulation (or why there is none).
pub(crate) fn serve_request(scope: &DedicatedWorkerGlobalScope, request: &str) {
    let Some((controls, algorithm)) = lab_job::decode(request) else {
        let _ = scope.post_message(&REFUSED.into());
        return;
    };
    let Ok(sim) = Simulating::new(&controls.scenario(algorithm), true) else {
        let _ = scope.post_message(&FAILED.into());
        return;
    };
    let mut sim = sim.limit_memory(MEMORY_GUARD_BYTES, wasm_memory_bytes);
    let mut said = f64::NEG_INFINITY;
    loop {
        let finished = sim.step(STEP_EVENTS);
        let now = js_sys::Date::now();
        if finished || now - said >= PROGRESS_EVERY_MS {
            said = now;
            let numbers = match sim.preparing() {
                Some((done, total)) => [0.0, done as f64, total as f64],
                None => {
                    let (done, total) = sim.progress();
                    [1.0, done as f64, total as f64]
                }
            };
            let _ = scope.post_message(&js_sys::Float64Array::from(&numbers[..]));
        }
        if finished {
            break;
        }
    }
    let at_work = || {
        let _ = scope.post_message(&js_sys::Float64Array::from(&[AT_WORK, 0.0, 0.0][..]));
    };
    let finished = sim.finish();
    at_work();
    match finished {
        Ok(simulation) => {
            let (array, moved) = (js_sys::Array::new(), js_sys::Array::new());
            let sections = wire::to_sections(simulation);
            at_work();
            for section in sections {
                let typed: wasm_bindgen::JsValue = match section {
                    Section::U32(v) => js_sys::Uint32Array::from(&v[..]).into(),
                    Section::F64(v) => js_sys::Float64Array::from(&v[..]).into(),
                    Section::U8(v) => js_sys::Uint8Array::from(&v[..]).into(),
                    // Packed as they are copied out, a piece at a time: packed at once, their
                    // words were held beside them, 16 B a transfer.
                    Section::Transfers(t) => send_transfers(&t).into(),
                };
                if let Ok(buffer) = js_sys::Reflect::get(&typed, &"buffer".into()) {
                    moved.push(&buffer);
                }
                array.push(&typed);
            }
            if scope.post_message_with_transfer(&array, &moved).is_err() {
                let _ = scope.post_message(&FAILED.into());
            }
        }
        Err(ScenarioError::MemoryOverLimit { limit_bytes }) => {
            let _ = scope.post_message(&format!("{OVER_MEMORY}{limit_bytes}").into());
        }
        Err(_) => {
            let _ = scope.post_message(&FAILED.into());
        }
    }
}
