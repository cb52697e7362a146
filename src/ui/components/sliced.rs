//! Work the page runs between frames: each timer tick works until a time budget is spent, then
//! gives the thread back to the browser, so that typing, scrolling and animation go on while a
//! long computation runs. Dropping the [`Slot`]'s timer cancels what is left.

use crate::ui::components::lab::simulation::now_ms;
use gloo::timers::callback::Timeout;
use std::cell::RefCell;
use std::rc::Rc;

/// Wall time a tick may spend before yielding to the page.
pub const TICK_BUDGET_MS: f64 = 12.0;

/// A computation that can stop after any piece of its work.
pub trait Sliced {
    /// Works until `out_of_time()` says stop (asked after each piece); says whether anything
    /// changed that the page should show.
    fn advance(&mut self, out_of_time: &mut dyn FnMut() -> bool) -> bool;
    fn done(&self) -> bool;
}

/// Where the pending timer of a computation lives: replacing or dropping it cancels the rest.
pub type Slot = Rc<RefCell<Option<Timeout>>>;

/// Advances `progress` a tick at a time, calling `publish` after every tick that changed something.
pub fn tick<P: Sliced + 'static>(slot: Slot, progress: Rc<RefCell<P>>, publish: Rc<dyn Fn(&P)>) {
    let next_slot = slot.clone();
    let timeout = Timeout::new(0, move || {
        let started = now_ms();
        let changed = progress
            .borrow_mut()
            .advance(&mut || now_ms() - started >= TICK_BUDGET_MS);
        if changed {
            publish(&progress.borrow());
        }
        if !progress.borrow().done() {
            tick(next_slot, progress, publish);
        }
    });
    *slot.borrow_mut() = Some(timeout);
}
