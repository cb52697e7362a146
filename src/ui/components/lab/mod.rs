//! The lab: the controls ([`panels`]), the network figure ([`figure`]), the simulation hook
//! ([`simulation`], its large runs in a Web Worker: [`in_worker`]) and its chunks in flight ([`tokens`]), import and export ([`files`]) and the card that says what NCCL would do
//! ([`nccl`]).

pub(crate) mod buffers;
pub(crate) mod figure;
pub(crate) mod files;
pub(crate) mod in_worker;
pub(crate) mod nccl;
pub(crate) mod panels;
pub(crate) mod simulation;
pub(crate) mod timeline;
pub(crate) mod tokens;
