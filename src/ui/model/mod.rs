//! The app's pure half: everything a component shows, computed from the core and natively tested
//! (`cargo test` runs it without a browser). The lab's controls and their reducer ([`logic`],
//! [`state`]), the sliders' values and labels ([`ladders`]), the time cursor ([`cursor`]), its
//! geometry and view ([`layout`], [`view`]), shared links and imports ([`share`], [`query`]), the
//! lab's recent results ([`recent`]) and its request to its Web Worker ([`lab_job`]), chart axes
//! ([`chart_math`]), and the models of the chapter's figures ([`chapter`], [`versus`],
//! [`versus_nccl`]), its claims' sentences ([`claims_text`]), the speedup charts, their reducer
//! and what their simulations gave ([`scaling`], [`scaling_edit`], [`scaling_memo`],
//! [`scaling_work`]), the nccl-tests section ([`nccl_view`]) and the spacing of throttled work
//! ([`throttle`]). Nothing here touches the DOM.

pub mod chapter;
pub mod chart_math;
pub mod claims_text;
pub mod cursor;
pub mod lab_job;
pub mod ladders;
pub mod layout;
pub mod logic;
pub mod nccl_view;
pub mod query;
pub mod recent;
pub mod scaling;
pub mod scaling_edit;
pub mod scaling_memo;
pub mod scaling_work;
pub mod share;
pub mod state;
pub mod throttle;
pub mod versus;
pub mod versus_nccl;
pub mod versus_work;
pub mod view;
