//! The app's Yew components (wasm32 only): they draw what [`crate::ui::model`] computes and send
//! the learner's input back to its reducers. One folder per part of the page — the [`lab`], the
//! guided [`chapter`], the [`scaling`] charts and the [`nccl`] real-hardware section — plus the
//! page shell ([`root`], [`app`]) and the widgets they share ([`charts`], [`widgets`], [`hooks`],
//! [`sliced`]).

pub(crate) mod app;
pub(crate) mod chapter;
pub(crate) mod charts;
pub(crate) mod hooks;
pub(crate) mod inputs;
pub(crate) mod lab;
pub(crate) mod nccl;
pub(crate) mod root;
pub(crate) mod scaling;
pub(crate) mod sliced;
pub(crate) mod widgets;
pub(crate) mod workers;
