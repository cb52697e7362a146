//! The simulation core: pure Rust, no web dependency, deterministic.
//!
//! `Scenario → (algorithm) Schedule → (run on topology) Trace`.

pub mod algorithms;
pub mod buffers;
pub mod command;
pub mod cost;
pub mod export;
pub mod faults;
#[cfg(any(test, feature = "fixtures"))]
#[doc(hidden)]
pub mod fixtures;
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

/// How much each call of a `step` does when a whole schedule, index or run is taken to its end at
/// once (`finish`, `Run::end`). In the browser, V8 runs WebAssembly first on its baseline
/// compiler's code and swaps in a function's optimized code only at the function's next call: one
/// call that ran a 1024-rank ring's two million transfers stayed on baseline code to its end. In
/// slices, the optimized code takes over after the first few (measured in Node 20's V8, the
/// scaling chart's 1024-GPU ring, the worker's build, in a fresh instance: 1.35-1.36 s in one
/// call, 1.16-1.20 s in slices; a second run in the same instance, 1.07-1.16 s either way). The
/// results are the same in slices of any size; the calls cost nothing measurable natively.
pub(crate) const FINISH_SLICE: usize = 1 << 12;
