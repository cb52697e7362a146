//! allreduce-lab: AllReduce on simulated GPU ranks over a flow-level network.
//!
//! [`sim`] is the core (pure, deterministic, no web dependency); [`course`] is the course
//! chapter's content (its scenarios, claims and presets) built on the core, which imports nothing
//! from it; `cli` is the native command line and `ui` the browser app, both on the same core.

pub use allreduce_sim as sim;

/// The system allocator with counts of the bytes live: for the tests and examples that measure
/// what a run allocates.
pub mod heap;

// The course chapter and the browser app are documented inside (`course/mod.rs`, `ui/mod.rs`):
// an outer doc here would make rustdoc resolve their links from the crate's root.
pub mod course;

pub mod ui;

#[cfg(not(target_arch = "wasm32"))]
pub mod cli;
