//! The app's one piece of shared state: the controls, the comparison choice and the simulated-time
//! cursor. Every view reads the same cursor.

use crate::sim::algorithms::Algorithm;
use crate::ui::model::cursor::{SPEEDS, advance};
use crate::ui::model::logic::{Controls, Edit, NcclPick, apply_nccl};

/// Which figure a hovered link belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Side {
    A,
    B,
}

#[derive(Clone, Debug, PartialEq)]
pub struct AppState {
    pub controls: Controls,
    pub compare: bool,
    pub algorithm_b: Algorithm,
    /// The cursor, in simulated seconds.
    pub t_secs: f64,
    pub playing: bool,
    /// Index into [`SPEEDS`].
    pub speed: usize,
    /// The drawn line under the pointer.
    pub hover: Option<(Side, usize)>,
    /// The drawn line last clicked or tapped: shown when none is under the pointer (the pointer
    /// on its way to "Slow this cable" left the figure, and the button went with the hover).
    pub pinned: Option<(Side, usize)>,
    /// The model switch: with a pick, the lab also shows what NCCL would do on that system.
    pub nccl: Option<NcclPick>,
}

impl Default for AppState {
    fn default() -> Self {
        AppState {
            controls: Controls::default(),
            compare: false,
            algorithm_b: Algorithm::TreeBinary,
            t_secs: 0.0,
            playing: true,
            speed: 3,
            hover: None,
            pinned: None,
            nccl: None,
        }
    }
}

pub enum Action {
    /// New inputs (an imported file): the scenario re-simulates; the cursor restarts.
    Controls(Controls),
    /// One control changed: applied to the current controls, like [`Action::Controls`] after.
    Edit(Edit),
    Compare(bool),
    AlgorithmB(Algorithm),
    /// The preset at this index of [`crate::course::presets::PRESETS`], as its name promises: its
    /// network, its first algorithm and segments, and side by side the algorithm it compares with
    /// (an unknown index changes nothing).
    Preset(usize),
    /// Plays a run of `end_secs`: from the start again if it is at its end.
    Play {
        end_secs: f64,
    },
    Pause,
    TogglePlay {
        end_secs: f64,
    },
    /// One animation frame of `wall_dt_secs` on a run of `end_secs`.
    Tick {
        wall_dt_secs: f64,
        end_secs: f64,
    },
    /// Jump to a time (step, scrub); pauses.
    Seek(f64),
    Speed(usize),
    Hover(Option<(Side, usize)>),
    /// A link clicked or tapped: kept shown after the pointer leaves.
    Pin((Side, usize)),
}

impl AppState {
    /// The state after `action`, or `None` when it changes nothing (so that nothing re-renders).
    /// The components' reducer is this function; it is pure, and tested natively.
    ///
    /// ```
    /// use allreduce_lab::ui::model::state::{Action, AppState};
    /// let s = AppState::default();
    /// let paused = s.next(Action::Pause).unwrap();
    /// assert!(!paused.playing);
    /// assert!(paused.next(Action::Pause).is_some()); // a pause is applied, even when paused
    /// assert!(s.next(Action::Hover(None)).is_none()); // nothing hovered before or after
    /// ```
    pub fn next(&self, action: Action) -> Option<AppState> {
        let mut s = self.clone();
        match action {
            Action::Controls(c) => {
                if c == s.controls {
                    return None;
                }
                s.controls = c;
                s.t_secs = 0.0;
                s.hover = None;
                s.pinned = None;
            }
            Action::Edit(edit @ (Edit::NcclModel(_) | Edit::NcclSystem(_) | Edit::NcclNvls(_))) => {
                // The model switch leaves the run and its cursor alone.
                let pick = apply_nccl(s.nccl, edit);
                if pick == s.nccl {
                    return None;
                }
                s.nccl = pick;
            }
            Action::Edit(edit) => {
                // Slowing or restoring a cable, or a GPU late or on time, keeps the network's
                // drawing: its link stays shown, now with "Restore this cable" (or "on time").
                let keep = matches!(edit, Edit::ToggleCable(_) | Edit::ToggleStraggler { .. })
                    .then_some(s.pinned);
                let mut c = s.controls.clone();
                c.apply(edit);
                let mut next = self.next(Action::Controls(c))?;
                if let Some(pinned) = keep {
                    next.pinned = pinned;
                }
                return Some(next);
            }
            Action::Compare(on) => {
                s.compare = on;
                s.hover = None;
                s.pinned = None;
            }
            Action::AlgorithmB(a) => {
                s.algorithm_b = a;
                s.t_secs = 0.0;
            }
            Action::Preset(i) => {
                let p = crate::course::presets::PRESETS.get(i)?;
                s.controls = Controls::from_preset(p);
                s.compare = true;
                s.algorithm_b = p.promise.b;
                s.t_secs = 0.0;
                s.hover = None;
                s.pinned = None;
            }
            Action::Pause => s.playing = false,
            Action::TogglePlay { .. } if s.playing => s.playing = false,
            Action::Play { end_secs } | Action::TogglePlay { end_secs } => {
                s.playing = true;
                // Playing from the end starts over (the ▶ button did nothing there: the next
                // frame found the run over and stopped).
                if s.t_secs >= end_secs {
                    s.t_secs = 0.0;
                }
            }
            Action::Tick {
                wall_dt_secs,
                end_secs,
            } => {
                if !s.playing {
                    return None;
                }
                let (t, done) = advance(
                    s.t_secs.min(end_secs),
                    wall_dt_secs,
                    SPEEDS[s.speed.min(SPEEDS.len() - 1)],
                    end_secs,
                );
                s.t_secs = t;
                s.playing = !done;
            }
            Action::Seek(t) => {
                s.t_secs = if t.is_finite() { t.max(0.0) } else { 0.0 };
                s.playing = false;
            }
            Action::Speed(i) => s.speed = i.min(SPEEDS.len() - 1),
            Action::Hover(h) => {
                if h == s.hover {
                    return None;
                }
                s.hover = h;
            }
            Action::Pin(p) => {
                if Some(p) == s.pinned && Some(p) == s.hover {
                    return None;
                }
                s.pinned = Some(p);
                s.hover = Some(p);
            }
        }
        Some(s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::faults::Cable;
    use crate::sim::topology::Endpoint;

    #[test]
    fn a_clicked_link_stays_shown_past_the_pointer_and_its_cables_new_run() {
        let s = AppState::default();
        let link = (Side::A, 3);
        let s = s.next(Action::Pin(link)).unwrap();
        assert_eq!((s.hover, s.pinned), (Some(link), Some(link)));
        // The pointer leaves the figure on its way to the button: the link is still pinned.
        let s = s.next(Action::Hover(None)).unwrap();
        assert_eq!((s.hover, s.pinned), (None, Some(link)));
        // Slowing the cable runs again on the same network: still pinned.
        let cable = Cable::new(Endpoint::NodeSwitch(0), Endpoint::RackSwitch(0));
        let s = s.next(Action::Edit(Edit::ToggleCable(cable))).unwrap();
        assert_eq!(s.pinned, Some(link));
        // So does making a GPU late (from its link's button, the keyboard's way).
        let s = s
            .next(Action::Edit(Edit::ToggleStraggler {
                rank: 1,
                delay_ns: 1000,
            }))
            .unwrap();
        assert_eq!(s.pinned, Some(link));
        assert_eq!(s.controls.faults.stragglers.len(), 1);
        // Another network (more GPUs) draws other lines: nothing pinned.
        let mut c = s.controls.clone();
        c.apply(Edit::Gpus(s.controls.gpus * 2));
        let s = s.next(Action::Controls(c)).unwrap();
        assert_eq!(s.pinned, None);
    }

    #[test]
    fn play_at_the_end_starts_over_by_button_or_key_and_elsewhere_goes_on() {
        let end = 2e-3;
        let paused = AppState::default().next(Action::Pause).unwrap();
        let plays: [fn(f64) -> Action; 2] = [
            |end_secs| Action::Play { end_secs },
            |end_secs| Action::TogglePlay { end_secs },
        ];
        for play in plays {
            let at_end = paused.next(Action::Seek(end)).unwrap();
            let s = at_end.next(play(end)).unwrap();
            assert!(s.playing);
            assert_eq!(s.t_secs, 0.0);
            // Mid-run, it goes on from where it is.
            let s = paused.next(Action::Seek(end / 2.0)).unwrap();
            let s = s.next(play(end)).unwrap();
            assert_eq!((s.playing, s.t_secs), (true, end / 2.0));
        }
        // The key pauses a run playing; the button's play keeps it playing.
        let playing = paused.next(Action::Play { end_secs: end }).unwrap();
        assert!(
            !playing
                .next(Action::TogglePlay { end_secs: end })
                .unwrap()
                .playing
        );
        assert!(
            playing
                .next(Action::Play { end_secs: end })
                .unwrap()
                .playing
        );
    }
}
