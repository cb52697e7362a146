//! The browser app: Yew function components that render a [`crate::sim::trace::Trace`] at one
//! simulated-time cursor. They never recompute physics; [`logic`] holds the app's pure arithmetic
//! (slider ladders, labels, the cursor) and compiles natively so that it is tested with `cargo test`.

pub mod logic;
