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
use super::scaling::{GPU_COUNTS, Setup, hardware_choices};
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

/// How many numbers a link's `speedup=` holds (see [`Setup::link_numbers`]).
pub const LINK_NUMBERS: usize = 9;

impl Setup {
    /// The section's state as whole numbers for a shared link (`speedup=`): the chapter scenario,
    /// the hardware and the model (indexes into their menus), the node NICs in Mb/s, the overlap in
    /// percent, the GPU count of the sweep, the algorithms shown (bit `i` for
    /// [`Algorithm::CONCRETE`]`[i]`), NCCL's system (0 for the textbook model, else 1 + its index
    /// in the presets) and NVLS (0 or 1). [`from_link_numbers`](Self::from_link_numbers) reads
    /// them back.
    ///
    /// ```
    /// use allreduce_lab::course::chapter::CHAPTER_SCENARIOS;
    /// use allreduce_lab::ui::model::scaling::Setup;
    /// use allreduce_lab::ui::model::scaling_edit::SetupEdit;
    /// let mut s = Setup::from_scenario(&CHAPTER_SCENARIOS[1]);
    /// s.apply(SetupEdit::NicGbps(400.0));
    /// s.apply(SetupEdit::Overlap(0.25));
    /// s.apply(SetupEdit::NcclSystem("dgx-a100".into()));
    /// let n = s.link_numbers();
    /// assert_eq!(n[3..5], [400_000, 25]);
    /// assert_eq!(n[7], 1); // dgx-a100, the first preset
    /// assert_eq!(Setup::from_link_numbers(&n), Some(s));
    /// // What names nothing the section offers is refused whole.
    /// let mut bad = n.clone();
    /// bad[0] = CHAPTER_SCENARIOS.len() as u64;
    /// assert_eq!(Setup::from_link_numbers(&bad), None);
    /// bad = n.clone();
    /// bad[4] = 101; // overlap above 100 %
    /// assert_eq!(Setup::from_link_numbers(&bad), None);
    /// ```
    pub fn link_numbers(&self) -> Vec<u64> {
        let index = |found: Option<usize>| found.map_or(0, |i| i as u64);
        let mask = (Algorithm::CONCRETE.iter().enumerate())
            .filter(|(_, a)| self.algorithms.contains(a))
            .fold(0u64, |m, (i, _)| m | (1 << i));
        let nccl = self.nccl.map_or(0, |p| {
            1 + index(NCCL_SYSTEMS.iter().position(|s| *s == p.system))
        });
        vec![
            index(
                CHAPTER_SCENARIOS
                    .iter()
                    .position(|c| c.id == self.chapter.id),
            ),
            index(
                hardware_choices()
                    .iter()
                    .position(|h| h.id == self.hardware.id),
            ),
            index(MODELS.iter().position(|m| m.id == self.model.id)),
            (self.hardware.node_gbits_per_sec * 1000.0).round() as u64,
            (self.overlap * 100.0).round() as u64,
            self.focus_gpus as u64,
            mask,
            nccl,
            u64::from(self.nccl.is_some_and(|p| p.nvls)),
        ]
    }

    /// The setup a link's [`link_numbers`](Self::link_numbers) describe, or `None` when any of
    /// them is none of the section's settings: an index past its menu, a NIC off the slider's
    /// range, an overlap above 100 %, no algorithm, or a GPU count the chart does not have.
    pub fn from_link_numbers(n: &[u64]) -> Option<Setup> {
        let &[
            scenario,
            hardware,
            model,
            nic_mbps,
            overlap,
            focus,
            mask,
            nccl,
            nvls,
        ] = n
        else {
            return None;
        };
        let at = |i: u64| usize::try_from(i).ok();
        let mut s = Setup::from_scenario(CHAPTER_SCENARIOS.get(at(scenario)?)?);
        s.hardware = *hardware_choices().get(at(hardware)?)?;
        let ladder = super::ladders::bandwidth_ladder_mbps();
        // NVLS is written only with NCCL's model (a link that says otherwise is not one of ours).
        if !(ladder[0]..=ladder[ladder.len() - 1]).contains(&nic_mbps)
            || overlap > 100
            || nvls > 1
            || (nccl == 0 && nvls == 1)
        {
            return None;
        }
        s.hardware.node_gbits_per_sec = nic_mbps as f64 / 1000.0;
        s.model = *MODELS.get(at(model)?)?;
        s.overlap = overlap as f64 / 100.0;
        if mask == 0 || mask >> Algorithm::CONCRETE.len() != 0 {
            return None;
        }
        let shown: Vec<Algorithm> = (Algorithm::CONCRETE.iter().enumerate())
            .filter(|(i, _)| mask & (1 << i) != 0)
            .map(|(_, &a)| a)
            .collect();
        // In the order the section would hold them: the scenario's own list, some perhaps
        // hidden; once one outside it was shown, all in `CONCRETE`'s order (as `apply` sorts).
        if shown.iter().all(|a| s.algorithms.contains(a)) {
            s.algorithms.retain(|a| shown.contains(a));
        } else {
            s.algorithms = shown;
        }
        s.nccl = match nccl {
            0 => None,
            k => Some(NcclPick {
                system: NCCL_SYSTEMS.get(at(k - 1)?)?,
                nvls: nvls == 1,
            }),
        };
        // The sweep's GPU count is one of the chart's, or the scenario's own (where it falls back
        // when the count fits neither the topology nor the system, as after an edit).
        let focus = at(focus)?;
        if !(GPU_COUNTS.contains(&focus) || focus == s.chapter.gpus()) {
            return None;
        }
        s.focus_gpus = focus;
        Some(s)
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

    /// Every setup a walk of edits reaches comes back from its link: the same setup, its
    /// algorithms perhaps in another order (a mask does not keep one), which changes no point.
    #[test]
    fn a_link_gives_back_the_setup_any_walk_of_edits_reaches() {
        let ladder = crate::ui::model::ladders::bandwidth_ladder_mbps();
        let mut seed = 0x2545_f491_4f6c_dd1d_u64;
        let mut next = |n: usize| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % n as u64) as usize
        };
        for _ in 0..300 {
            let mut s = setup();
            for _ in 0..next(12) {
                let edit = match next(9) {
                    0 => SetupEdit::Scenario(next(CHAPTER_SCENARIOS.len())),
                    1 => SetupEdit::Hardware(
                        hardware_choices()[next(hardware_choices().len())].id.into(),
                    ),
                    2 => SetupEdit::Model(MODELS[next(MODELS.len())].id.into()),
                    3 => SetupEdit::NicGbps(ladder[next(ladder.len())] as f64 / 1000.0),
                    4 => SetupEdit::Overlap((next(21) * 5) as f64 / 100.0), // as the slider sends it
                    5 => SetupEdit::Focus(GPU_COUNTS[next(GPU_COUNTS.len())]),
                    6 => SetupEdit::Nccl(next(2) == 1),
                    7 => SetupEdit::NcclSystem(NCCL_SYSTEMS[next(NCCL_SYSTEMS.len())].into()),
                    _ => SetupEdit::ToggleAlgorithm(
                        Algorithm::CONCRETE[next(Algorithm::CONCRETE.len())],
                    ),
                };
                s.apply(edit);
            }
            let back = Setup::from_link_numbers(&s.link_numbers())
                .unwrap_or_else(|| panic!("{:?} refused", s.link_numbers()));
            let sorted = |mut x: Setup| {
                x.algorithms
                    .sort_by_key(|a| Algorithm::CONCRETE.iter().position(|b| b == a));
                x
            };
            assert_eq!(back.link_numbers(), s.link_numbers());
            assert_eq!(sorted(back), sorted(s));
        }
    }

    #[test]
    fn a_link_that_names_nothing_is_refused() {
        let good = setup().link_numbers();
        assert!(Setup::from_link_numbers(&good).is_some());
        for (i, bad) in [
            (0, CHAPTER_SCENARIOS.len() as u64),
            (1, hardware_choices().len() as u64),
            (2, MODELS.len() as u64),
            (3, 0),
            (3, u64::MAX),
            (4, 101),
            (5, 3),
            (6, 0),
            (6, 1 << Algorithm::CONCRETE.len()),
            (7, NCCL_SYSTEMS.len() as u64 + 1),
            (8, 2),
        ] {
            let mut n = good.clone();
            n[i] = bad;
            assert_eq!(Setup::from_link_numbers(&n), None, "number {i} = {bad}");
        }
        assert_eq!(Setup::from_link_numbers(&good[..8]), None);
        // NVLS without NCCL's model.
        let mut nvls_alone = good.clone();
        (nvls_alone[7], nvls_alone[8]) = (0, 1);
        assert_eq!(Setup::from_link_numbers(&nvls_alone), None);
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
