//! The system allocator, counting the bytes live now and at their most since the last reset: for
//! the tests and examples that measure what a run allocates (`tests/cost_budget.rs`,
//! `tests/cost_estimate.rs`, `examples/mem_breakdown.rs`, `examples/estimate_check.rs`), each of which installs it with
//! `#[global_allocator]`. Where it is not installed, every count stays 0.
//!
//! The browser app does not install it (wrapping the allocator made the page's wasm 21 KB larger
//! gzipped: the system allocator's code was inlined into each wrapper); its lab guards a run by
//! the size of the wasm memory instead (see `ui::components::lab::simulation`).
//!
//! ```
//! use allreduce_lab::heap;
//! // This doctest does not install the allocator: nothing is counted.
//! let v = vec![0u8; 1 << 20];
//! assert_eq!(heap::live_bytes(), 0);
//! drop(v);
//! ```

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};

/// The system allocator with counts; install it with `#[global_allocator]`.
pub struct Counting;

static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

fn grew(by: usize) {
    let now = LIVE.fetch_add(by, Relaxed) + by;
    PEAK.fetch_max(now, Relaxed);
}

// SAFETY: every call is forwarded to the system allocator unchanged; only the counts are added.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: the caller's contract is `System`'s.
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() {
            grew(layout.size());
        }
        p
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: as `alloc`; the system's zeroed path knows when fresh memory needs no zeroing.
        let p = unsafe { System.alloc_zeroed(layout) };
        if !p.is_null() {
            grew(layout.size());
        }
        p
    }

    unsafe fn dealloc(&self, p: *mut u8, layout: Layout) {
        // SAFETY: as `alloc`.
        unsafe { System.dealloc(p, layout) };
        LIVE.fetch_sub(layout.size(), Relaxed);
    }

    unsafe fn realloc(&self, p: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: as `alloc`; the system may grow the block in place (the default would copy).
        let q = unsafe { System.realloc(p, layout, new_size) };
        if q == p {
            // In place: the block grew or shrank by the difference.
            if new_size > layout.size() {
                grew(new_size - layout.size());
            } else {
                LIVE.fetch_sub(layout.size() - new_size, Relaxed);
            }
        } else if !q.is_null() {
            // The old block was live until now: at the moment of a move both are held.
            grew(new_size);
            LIVE.fetch_sub(layout.size(), Relaxed);
        }
        q
    }
}

/// Bytes allocated and not yet freed.
pub fn live_bytes() -> usize {
    LIVE.load(Relaxed)
}

/// The most bytes live at once since the last [`reset_peak`].
pub fn peak_bytes() -> usize {
    PEAK.load(Relaxed)
}

/// Starts a new peak from the bytes live now.
pub fn reset_peak() {
    PEAK.store(LIVE.load(Relaxed), Relaxed);
}

/// The most bytes allocated at once while `f` runs, beyond what was live before (0 where the
/// allocator is not installed).
pub fn peak_during<T>(f: impl FnOnce() -> T) -> (T, usize) {
    let before = live_bytes();
    reset_peak();
    let out = f();
    (out, peak_bytes().saturating_sub(before))
}
