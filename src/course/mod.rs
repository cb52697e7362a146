//! The course chapter's content: what the chapter says, as data the engine can check.
//!
//! - [`chapter`]: the chapter's scenarios (§1.2's speedups, §1.4's comparisons) and its models.
//! - [`claims`]: each quantitative claim, checked by simulation under conditions a reader changes.
//! - [`presets`]: the lab's named scenarios, each with the winner its name promises.
//! - [`roofline`]: §1.2's "memory bandwidth matters as much as FLOPS", as each GPU's two roofs.
//!
//! Depends on [`crate::sim`] only; nothing in `sim` depends on this.

pub mod chapter;
pub mod claims;
pub mod presets;
pub mod roofline;
