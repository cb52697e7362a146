//! The time cursor's arithmetic: the scrub slider's positions, playback speeds, one animation
//! frame's step, and each chunk's colour.

/// Positions of the scrub slider: 0..=SCRUB_STEPS maps onto 0..=end.
pub const SCRUB_STEPS: u32 = 1000;

/// The simulated time at scrub position `pos`.
///
/// ```
/// use allreduce_lab::ui::model::cursor::{scrub_to_secs, secs_to_scrub, SCRUB_STEPS};
/// assert_eq!(scrub_to_secs(SCRUB_STEPS, 2.0), 2.0);
/// assert_eq!(secs_to_scrub(1.0, 2.0), SCRUB_STEPS / 2);
/// ```
pub fn scrub_to_secs(pos: u32, end_secs: f64) -> f64 {
    if pos >= SCRUB_STEPS {
        end_secs
    } else {
        end_secs * pos as f64 / SCRUB_STEPS as f64
    }
}

/// The scrub position showing `t`.
pub fn secs_to_scrub(t: f64, end_secs: f64) -> u32 {
    if end_secs <= 0.0 {
        return SCRUB_STEPS;
    }
    ((t / end_secs).clamp(0.0, 1.0) * SCRUB_STEPS as f64).round() as u32
}

/// Playback speeds, as multiples of the default pace (a whole run in [`DEFAULT_PLAY_WALL_SECS`]).
pub const SPEEDS: [f64; 7] = [0.125, 0.25, 0.5, 1.0, 2.0, 4.0, 8.0];
/// At speed 1, a whole run plays in this many wall-clock seconds.
pub const DEFAULT_PLAY_WALL_SECS: f64 = 6.0;

/// Moves the cursor by one animation frame of `wall_dt_secs`: a run of `end_secs` plays in
/// [`DEFAULT_PLAY_WALL_SECS`] / `speed`. Returns the new time and whether playback reached the end.
///
/// ```
/// use allreduce_lab::ui::model::cursor::advance;
/// // At speed 1 a run plays in DEFAULT_PLAY_WALL_SECS (6 s): here 1 simulated s per wall s.
/// let (t, done) = advance(0.0, 0.05, 1.0, 6.0);
/// assert!((t - 0.05).abs() < 1e-12 && !done);
/// assert_eq!(advance(5.95, 0.1, 1.0, 6.0), (6.0, true));
/// ```
pub fn advance(t: f64, wall_dt_secs: f64, speed: f64, end_secs: f64) -> (f64, bool) {
    // A long pause (a hidden tab) must not jump the whole run.
    let dt = wall_dt_secs.clamp(0.0, 0.1);
    let next = t + dt * speed * end_secs / DEFAULT_PLAY_WALL_SECS;
    if next >= end_secs {
        (end_secs, true)
    } else {
        (next, false)
    }
}

/// A distinct, calm colour for chunk `c` of `chunks` (hues spread evenly around the wheel).
pub fn chunk_hue(c: usize, chunks: usize) -> f64 {
    if chunks <= 12 {
        (c as f64 * 360.0 / chunks.max(1) as f64 + 200.0) % 360.0
    } else {
        // Golden-angle steps keep neighbours apart when there are many chunks.
        (c as f64 * 137.507_764 + 200.0) % 360.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn playback_clamps_long_frames_and_stops_at_the_end() {
        let (t, done) = advance(0.0, 10.0, 1.0, 6.0);
        assert!((t - 0.1).abs() < 1e-12 && !done);
        assert!((advance(0.0, 0.05, 8.0, 6.0).0 - 0.4).abs() < 1e-12);
        assert_eq!(scrub_to_secs(0, 3.0), 0.0);
        assert_eq!(secs_to_scrub(10.0, 3.0), SCRUB_STEPS);
        assert_eq!(secs_to_scrub(0.0, 0.0), SCRUB_STEPS);
    }

    #[test]
    fn chunk_hues_stay_on_the_wheel() {
        for c in 0..100 {
            assert!((0.0..360.0).contains(&chunk_hue(c, 100)));
        }
        assert_ne!(chunk_hue(0, 4), chunk_hue(1, 4));
    }
}
