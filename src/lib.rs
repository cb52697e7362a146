//! allreduce-lab: AllReduce on simulated GPU ranks over a flow-level network.
//!
//! [`sim`] is the core (pure, deterministic, no web dependency); [`course`] is the course
//! chapter's content (its scenarios, claims and presets) built on the core, which imports nothing
//! from it; `cli` is the native command line and `ui` the browser app, both on the same core.

pub mod sim;

/// The system allocator with counts of the bytes live: for the tests and examples that measure
/// what a run allocates.
pub mod heap;

/// The course chapter this tool teaches: its scenarios and training models, its claims checked by
/// simulation, and the lab's presets.
pub mod course;

/// The browser app; its pure logic (`ui::logic`) also builds natively for tests.
pub mod ui;

#[cfg(not(target_arch = "wasm32"))]
pub mod cli;
