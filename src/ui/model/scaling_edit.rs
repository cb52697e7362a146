//! The speedup section's reducer: each control sends one [`SetupEdit`], applied to the setup of
//! that moment ([`Setup::apply`]), never to a copy from the control's last render. Untrusted values
//! (ids from a `<select>`, numbers from a slider) that name nothing change nothing.
//!
//! ```
//! use allreduce_lab::sim::algorithms::Algorithm;
//! use allreduce_lab::course::chapter::CHAPTER_SCENARIOS;
//! use allreduce_lab::ui::model::scaling::Setup;
//! use allreduce_lab::ui::model::scaling_edit::SetupEdit;
//! let mut s = Setup::from_scenario(&CHAPTER_SCENARIOS[0]);
//! s.apply(SetupEdit::Overlap(0.25));
//! s.apply(SetupEdit::NicGbps(400.0));
//! assert_eq!((s.overlap, s.hardware.node_gbits_per_sec), (0.25, 400.0));
//! s.apply(SetupEdit::Hardware("no-such-box".into())); // unknown: nothing changes
//! assert_eq!(s.hardware.node_gbits_per_sec, 400.0);
//! ```

use super::logic::NcclPick;
use super::scaling::{Setup, hardware_choices};
use crate::course::chapter::{CHAPTER_SCENARIOS, MODELS};
use crate::sim::algorithms::Algorithm;
use crate::sim::nccl::system::PRESETS as NCCL_SYSTEMS;

/// One change a control of the speedup section makes.
#[derive(Clone, Debug, PartialEq)]
pub enum SetupEdit {
    /// The chapter scenario at this index of [`CHAPTER_SCENARIOS`], as the chapter sets it up.
    Scenario(usize),
    /// Hardware by id (one of [`hardware_choices`]).
    Hardware(String),
    /// A model by id (one of [`MODELS`]).
    Model(String),
    /// The node NICs' bandwidth, Gbps.
    NicGbps(f64),
    /// The share of communication hidden behind the backward pass, 0–1.
    Overlap(f64),
    /// The GPU count of the sweep and the highlighted bar.
    Focus(usize),
    /// The model switch: the textbook algorithms (`false`) or NCCL on real hardware (`true`).
    Nccl(bool),
    /// NCCL's system by id (one of the nccl presets); switches the NCCL model on.
    NcclSystem(String),
    /// NVLS on or off; switches the NCCL model on.
    ToggleNvls,
    /// Shows or hides an algorithm's curve; the last one shown stays.
    ToggleAlgorithm(Algorithm),
}

impl Setup {
    /// Applies one edit.
    pub fn apply(&mut self, edit: SetupEdit) {
        match edit {
            SetupEdit::Scenario(i) => {
                if let Some(s) = CHAPTER_SCENARIOS.get(i) {
                    *self = Setup::from_scenario(s);
                }
            }
            SetupEdit::Hardware(id) => {
                if let Some(h) = hardware_choices().into_iter().find(|h| h.id == id) {
                    self.hardware = h;
                }
            }
            SetupEdit::Model(id) => {
                if let Some(m) = MODELS.iter().find(|m| m.id == id) {
                    self.model = *m;
                }
            }
            SetupEdit::NicGbps(g) => {
                if g.is_finite() && g > 0.0 {
                    self.hardware.node_gbits_per_sec = g;
                }
            }
            SetupEdit::Overlap(f) => {
                if f.is_finite() {
                    self.overlap = f.clamp(0.0, 1.0);
                }
            }
            SetupEdit::Focus(n) => self.focus_gpus = n,
            SetupEdit::Nccl(on) => self.nccl = on.then(|| self.nccl.unwrap_or_default()),
            SetupEdit::NcclSystem(id) => {
                if let Some(&system) = NCCL_SYSTEMS.iter().find(|s| **s == id) {
                    self.nccl = Some(NcclPick {
                        system,
                        ..self.nccl.unwrap_or_default()
                    });
                }
            }
            SetupEdit::ToggleNvls => {
                let pick = self.nccl.unwrap_or_default();
                self.nccl = Some(NcclPick {
                    nvls: !pick.nvls,
                    ..pick
                });
            }
            SetupEdit::ToggleAlgorithm(a) => {
                if self.algorithms.contains(&a) {
                    if self.algorithms.len() > 1 {
                        self.algorithms.retain(|&x| x != a);
                    }
                } else {
                    self.algorithms.push(a);
                    crate::sim::order::sort_by_key(&mut self.algorithms, |x| {
                        // As `Option`'s order: an algorithm not in the list (none is) first.
                        Algorithm::CONCRETE
                            .iter()
                            .position(|y| y == x)
                            .map_or(-1.0, |p| p as f64)
                    });
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn setup() -> Setup {
        Setup::from_scenario(&CHAPTER_SCENARIOS[0])
    }

    #[test]
    fn two_edits_from_one_render_both_land() {
        let mut s = setup();
        s.apply(SetupEdit::Model(MODELS[1].id.into()));
        s.apply(SetupEdit::Focus(16));
        assert_eq!((s.model.id, s.focus_gpus), (MODELS[1].id, 16));
    }

    #[test]
    fn a_scenario_resets_the_changes_and_an_unknown_index_keeps_them() {
        let mut s = setup();
        s.apply(SetupEdit::Overlap(0.9));
        s.apply(SetupEdit::Scenario(CHAPTER_SCENARIOS.len()));
        assert_eq!(s.overlap, 0.9);
        s.apply(SetupEdit::Scenario(1));
        assert_eq!(s, Setup::from_scenario(&CHAPTER_SCENARIOS[1]));
    }

    #[test]
    fn untrusted_values_that_name_nothing_change_nothing() {
        let before = setup();
        let mut s = before.clone();
        for e in [
            SetupEdit::Hardware("nope".into()),
            SetupEdit::Model("".into()),
            SetupEdit::NicGbps(f64::NAN),
            SetupEdit::NicGbps(-1.0),
            SetupEdit::Overlap(f64::INFINITY),
            SetupEdit::NcclSystem("<script>".into()),
        ] {
            s.apply(e);
        }
        assert_eq!(s, before);
        s.apply(SetupEdit::Overlap(7.0));
        assert_eq!(s.overlap, 1.0);
    }

    #[test]
    fn the_model_switch_keeps_its_pick_and_the_last_algorithm_stays() {
        let mut s = setup();
        s.apply(SetupEdit::NcclSystem(NCCL_SYSTEMS[1].into()));
        s.apply(SetupEdit::ToggleNvls);
        let pick = s.nccl.expect("the system switches NCCL on");
        assert_eq!(pick.system, NCCL_SYSTEMS[1]);
        s.apply(SetupEdit::Nccl(false));
        assert_eq!(s.nccl, None);
        s.apply(SetupEdit::Nccl(true));
        assert_eq!(s.nccl, Some(NcclPick::default()));
        for a in s.algorithms.clone() {
            s.apply(SetupEdit::ToggleAlgorithm(a));
        }
        assert_eq!(s.algorithms.len(), 1);
        s.apply(SetupEdit::ToggleAlgorithm(Algorithm::Rabenseifner));
        assert!(s.algorithms.contains(&Algorithm::Rabenseifner));
    }
}
