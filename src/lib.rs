//! allreduce-lab: AllReduce on simulated GPU ranks over a flow-level network.
//!
//! [`sim`] is the core (pure, deterministic, no web dependency); `cli` is the native command
//! line and `ui` the browser app, both on the same core.

pub mod sim;

/// The browser app; its pure logic (`ui::logic`) also builds natively for tests.
pub mod ui;

#[cfg(not(target_arch = "wasm32"))]
pub mod cli;
#[cfg(not(target_arch = "wasm32"))]
pub mod cli_nccl;
