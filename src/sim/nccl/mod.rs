//! The real-hardware model: NCCL's protocols and channels on named systems, and calibration against
//! a measured all_reduce_perf table.
//!
//! - [`protocol`]: LL, LL128, Simple; NCCL's latencies and per-channel caps.
//! - [`channels`]: how many channels a message uses.
//! - [`system`]: the system presets with their sources, and system files.
//! - [`model`]: one size → the chosen (algorithm, protocol), by running every candidate.
//! - [`nccl_tests_parse`]: reading all_reduce_perf output as people paste it.
//! - [`calibrate`]: fitting a system's few free numbers to a measured table.
//! - [`published`]: the published tables the model is checked against.
//! - [`scaling`]: data-parallel speedup with NCCL's predicted allreduce per GPU count.

pub mod calibrate;
pub mod channels;
pub mod model;
pub mod nccl_tests_parse;
pub mod protocol;
pub mod published;
pub mod scaling;
pub mod system;
