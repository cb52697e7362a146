//! Work the page runs between frames: each tick runs in the browser's idle time
//! (`requestIdleCallback`) and works until that idle period, or at most a time budget, is spent,
//! then gives the thread back, so that typing, scrolling and a playing animation go on while a long
//! computation runs. Dropping the [`Slot`]'s pending tick cancels what is left.

use crate::ui::components::lab::simulation::now_ms;
use gloo::timers::callback::Timeout;
use std::cell::RefCell;
use std::rc::Rc;
use wasm_bindgen::JsCast;
use wasm_bindgen::closure::Closure;

/// Wall time a tick may spend before yielding to the page.
pub const TICK_BUDGET_MS: f64 = 12.0;

/// The least a tick works, even in a short idle period, so a long computation keeps moving.
const MIN_TICK_MS: f64 = 4.0;

/// How long a tick may wait for idle time before it runs anyway (with the least budget).
const IDLE_TIMEOUT_MS: u32 = 100;

/// A tick waiting for idle time (or, where the browser has no `requestIdleCallback`, for a timer).
/// Dropping it cancels it.
pub enum Pending {
    Idle {
        id: u32,
        _callback: Closure<dyn FnMut(web_sys::IdleDeadline)>,
    },
    /// Held only to be dropped (which cancels it).
    Timer(#[allow(dead_code)] Timeout),
}

impl Drop for Pending {
    fn drop(&mut self) {
        if let (Pending::Idle { id, .. }, Some(w)) = (&*self, web_sys::window()) {
            w.cancel_idle_callback(*id);
        }
    }
}

/// Whether the browser tells when it is idle (`requestIdleCallback`; Safari, for one, may not).
pub fn has_idle_callbacks() -> bool {
    // Asked once per page (a reflection call; the lab asks at every animation frame of a run).
    thread_local! {
        static HAS: bool = web_sys::window()
            .is_some_and(|w| js_sys::Reflect::has(&w, &"requestIdleCallback".into()).unwrap_or(false));
    }
    HAS.with(|has| *has)
}

/// Runs `work` with the milliseconds it may spend: in the next idle period (as long as that
/// period, between [`MIN_TICK_MS`] and [`TICK_BUDGET_MS`]), or after a 0-ms timer where the browser
/// has no idle callbacks.
pub fn when_idle(work: impl FnOnce(f64) + 'static) -> Pending {
    when_idle_boxed(Box::new(work))
}

/// [`when_idle`]'s body, compiled once rather than once per kind of work (measured with twiggy:
/// five copies, 11 KB of the page's wasm).
fn when_idle_boxed(work: Box<dyn FnOnce(f64)>) -> Pending {
    let idle = web_sys::window().filter(|_| has_idle_callbacks());
    let work = Rc::new(RefCell::new(Some(work)));
    let run = {
        let work = work.clone();
        move |budget_ms: f64| {
            if let Some(work) = work.borrow_mut().take() {
                work(budget_ms)
            }
        }
    };
    if let Some(window) = idle {
        let run = run.clone();
        let callback = Closure::once(move |deadline: web_sys::IdleDeadline| {
            run(if deadline.did_timeout() {
                MIN_TICK_MS
            } else {
                deadline.time_remaining().clamp(MIN_TICK_MS, TICK_BUDGET_MS)
            })
        });
        let options = web_sys::IdleRequestOptions::new();
        options.set_timeout(IDLE_TIMEOUT_MS);
        let asked =
            window.request_idle_callback_with_options(callback.as_ref().unchecked_ref(), &options);
        if let Ok(id) = asked {
            return Pending::Idle {
                id,
                _callback: callback,
            };
        }
    }
    Pending::Timer(Timeout::new(0, move || run(TICK_BUDGET_MS)))
}

/// A computation that can stop after any piece of its work.
pub trait Sliced {
    /// Works until `out_of_time()` says stop (asked after each piece); says whether anything
    /// changed that the page should show.
    fn advance(&mut self, out_of_time: &mut dyn FnMut() -> bool) -> bool;
    fn done(&self) -> bool;
}

/// Where the pending tick of a computation lives: replacing or dropping it cancels the rest.
pub type Slot = Rc<RefCell<Option<Pending>>>;

/// Advances `progress` a tick at a time, calling `publish` after every tick that changed something.
pub fn tick<P: Sliced + 'static>(slot: Slot, progress: Rc<RefCell<P>>, publish: Rc<dyn Fn(&P)>) {
    let next_slot = slot.clone();
    let pending = when_idle(move |budget_ms| {
        let started = now_ms();
        let changed = progress
            .borrow_mut()
            .advance(&mut || now_ms() - started >= budget_ms);
        if changed {
            publish(&progress.borrow());
        }
        if !progress.borrow().done() {
            tick(next_slot, progress, publish);
        }
    });
    *slot.borrow_mut() = Some(pending);
}
