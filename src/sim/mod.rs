//! The simulation core: pure Rust, no web dependency, deterministic.
//!
//! `Scenario → (algorithm) Schedule → (run on topology) Trace`.

pub mod algorithms;
pub mod buffers;
pub mod command;
pub mod cost;
pub mod export;
pub mod faults;
#[cfg(test)]
pub(crate) mod fixtures;
mod halves;
mod huge_pages;
pub mod nccl;
pub mod network;
pub mod order;
mod prefetch;
pub mod rail_preset;
pub mod records;
pub mod replay;
pub mod run;
pub mod scenario;
pub mod scenario_file;
pub mod schedule;
pub mod shape;
pub mod starts;
pub mod sweep;
pub mod topology;
pub mod trace;
pub mod training;
pub mod units;
pub mod wire;
