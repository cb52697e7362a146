//! The arithmetic shared by the page's throttled work (the address rewritten while a run plays,
//! the scaling charts' points delivered as the workers send them): how long a wish waits for its
//! go. The callers keep one pending go each, replaced by a newer wish so that the latest is the
//! one served, wait on a timer of their own kind, and may go at once regardless (the address
//! while paused, the charts' last point).

/// Goes spaced at least `every_ms` apart, as far as the caller asks it: a wish that comes too
/// soon after the last go gets the wait until its own.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Throttle {
    every_ms: f64,
    /// When the last go went (or is booked to go); −∞ before the first.
    last_ms: f64,
}

impl Throttle {
    pub const fn new(every_ms: f64) -> Throttle {
        Throttle {
            every_ms,
            last_ms: f64::NEG_INFINITY,
        }
    }

    /// The milliseconds a wish at `now_ms` waits for its go: 0 when it may go at once. Books
    /// nothing.
    pub fn wait_ms(&self, now_ms: f64) -> f64 {
        (self.every_ms - (now_ms - self.last_ms)).max(0.0)
    }

    /// Records a go at `at_ms` (now, or the booked instant of a pending go).
    pub fn went(&mut self, at_ms: f64) {
        self.last_ms = at_ms;
    }

    /// A go booked for a wish at `now_ms`: its wait ([`wait_ms`](Self::wait_ms)), recorded as
    /// gone at that instant, so the wishes that come while it is pending do not book another.
    pub fn book(&mut self, now_ms: f64) -> f64 {
        let wait = self.wait_ms(now_ms);
        self.went(now_ms + wait);
        wait
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_wish_goes_at_once_and_the_next_waits_out_the_rest_of_the_period() {
        let mut t = Throttle::new(200.0);
        assert_eq!(t.wait_ms(5.0), 0.0);
        assert_eq!(t.book(5.0), 0.0);
        assert_eq!(t.wait_ms(5.0), 200.0);
        assert_eq!(t.wait_ms(125.0), 80.0);
        assert_eq!(t.wait_ms(205.0), 0.0);
        assert_eq!(t.wait_ms(1_000.0), 0.0);
    }

    #[test]
    fn a_booked_go_counts_from_its_own_instant() {
        let mut t = Throttle::new(200.0);
        t.book(0.0);
        // Booked at 200 for a wish at 50: the next may go 200 ms after that, at 400.
        assert_eq!(t.book(50.0), 150.0);
        assert_eq!(t.wait_ms(250.0), 150.0);
        assert_eq!(t.wait_ms(400.0), 0.0);
    }

    #[test]
    fn a_go_recorded_when_it_happens_spaces_the_next() {
        // The address: waits are asked without booking; the write records its own instant.
        let mut t = Throttle::new(1_500.0);
        assert_eq!(t.wait_ms(10.0), 0.0);
        t.went(10.0);
        assert_eq!(t.wait_ms(700.0), 810.0);
        // A newer wish before the pending go replaces it: still due at 1,510.
        assert_eq!(t.wait_ms(1_000.0), 510.0);
        t.went(1_510.0);
        assert_eq!(t.wait_ms(1_510.0), 1_500.0);
    }

    /// proptest runs natively only.
    #[cfg(not(target_arch = "wasm32"))]
    mod props {
        use super::*;
        use proptest::prelude::*;

        proptest! {
            /// Goes made by booking each wish, in time order, are never closer than the period
            /// and never before their wish.
            #[test]
            fn booked_goes_are_a_period_apart(
                every in 1.0f64..2_000.0,
                mut wishes in proptest::collection::vec(0.0f64..10_000.0, 1..60),
            ) {
                wishes.sort_by(f64::total_cmp);
                let mut t = Throttle::new(every);
                let mut last = f64::NEG_INFINITY;
                for &w in &wishes {
                    let go = w + t.book(w);
                    prop_assert!(go >= w);
                    prop_assert!(go - last >= every - 1e-9 * go.abs().max(1.0));
                    // A wish with nothing pending within the period goes at once.
                    if w - last >= every {
                        prop_assert_eq!(go, w);
                    }
                    last = go;
                }
            }
        }
    }
}
