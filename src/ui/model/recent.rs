//! The last few results the lab took long to compute, kept so that going back to a setting shows
//! its result at once: a learner flips between ring and hierarchical at 1,024 GPUs, or a NIC speed
//! and back, and should not wait seconds for a run already done. Bounded both in entries and in a
//! cost the caller gives (the lab counts transfers, which its memory grows with); the least
//! recently used goes first.
//!
//! ```
//! use allreduce_lab::ui::model::recent::Recent;
//! let mut recent = Recent::new(2, 100);
//! recent.keep("ring", 'R', 60);
//! recent.keep("tree", 'T', 30);
//! assert_eq!(recent.get(&"ring"), Some(&'R')); // now the most recently used
//! recent.keep("hier", 'H', 30); // a third entry: the least recently used (tree) goes
//! assert_eq!(recent.get(&"tree"), None);
//! recent.keep("big", 'B', 90); // over the cost: the others go
//! assert_eq!((recent.len(), recent.get(&"big")), (1, Some(&'B')));
//! ```

/// Up to `max_entries` values by key, costing at most `max_cost` together, most recently used last.
#[derive(Debug)]
pub struct Recent<K, V> {
    entries: Vec<(K, V, u64)>,
    max_entries: usize,
    max_cost: u64,
}

impl<K: PartialEq, V> Recent<K, V> {
    pub const fn new(max_entries: usize, max_cost: u64) -> Self {
        Recent {
            entries: Vec::new(),
            max_entries,
            max_cost,
        }
    }

    /// The value kept for `key`, which becomes the most recently used.
    pub fn get(&mut self, key: &K) -> Option<&V> {
        let at = self.entries.iter().position(|(k, _, _)| k == key)?;
        let entry = self.entries.remove(at);
        self.entries.push(entry);
        self.entries.last().map(|(_, v, _)| v)
    }

    /// Keeps `value` for `key` (replacing what was kept for it), then drops the least recently
    /// used entries until both bounds hold; a value costing more than `max_cost` alone is not kept.
    pub fn keep(&mut self, key: K, value: V, cost: u64) {
        self.entries.retain(|(k, _, _)| *k != key);
        if cost > self.max_cost || self.max_entries == 0 {
            return;
        }
        self.entries.push((key, value, cost));
        self.shrink(0);
    }

    /// Drops the least recently used entries until what is kept and `cost` more fit `max_cost`
    /// together (the lab calls it before a run, so that the results kept and the run's own
    /// records stay within the bound).
    pub fn make_room(&mut self, cost: u64) {
        self.shrink(cost);
    }

    fn shrink(&mut self, extra: u64) {
        let mut total: u64 = self.entries.iter().map(|(_, _, c)| c).sum::<u64>() + extra;
        while !self.entries.is_empty()
            && (self.entries.len() > self.max_entries || total > self.max_cost)
        {
            let (_, _, c) = self.entries.remove(0);
            total -= c;
        }
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Drops everything kept.
    pub fn clear(&mut self) {
        self.entries.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeping_a_key_again_replaces_its_value() {
        let mut r = Recent::new(3, 100);
        r.keep(1, "a", 10);
        r.keep(1, "b", 20);
        assert_eq!(r.len(), 1);
        assert_eq!(r.get(&1), Some(&"b"));
    }

    #[test]
    fn room_is_made_for_a_run_by_dropping_the_least_recently_used() {
        let mut r = Recent::new(4, 100);
        r.keep(1, "a", 40);
        r.keep(2, "b", 40);
        r.get(&1);
        r.make_room(30); // 40 + 40 + 30 > 100: b, the least recently used, goes
        assert_eq!(r.len(), 1);
        assert_eq!(r.get(&2), None);
        assert_eq!(r.get(&1), Some(&"a"));
        r.make_room(100); // nothing fits beside a run of the whole bound
        assert!(r.is_empty());
    }

    #[test]
    fn a_value_over_the_cost_alone_is_not_kept_and_drops_the_old_one() {
        let mut r = Recent::new(3, 100);
        r.keep(1, "a", 10);
        r.keep(1, "huge", 101);
        assert!(r.is_empty());
    }
}

/// proptest runs natively only.
#[cfg(all(test, not(target_arch = "wasm32")))]
mod properties {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        /// Whatever is kept and looked up, both bounds hold, the last value kept (if it fits) is
        /// there, and every value found is the last kept for its key.
        #[test]
        fn bounds_hold_and_values_are_the_last_kept(
            ops in proptest::collection::vec((0u8..6, 0u64..60, any::<bool>()), 1..60),
        ) {
            let mut r = Recent::new(3, 100);
            let mut last = std::collections::HashMap::new();
            for (i, &(key, cost, look)) in ops.iter().enumerate() {
                if look {
                    if let Some(&v) = r.get(&key) {
                        prop_assert_eq!(Some(&v), last.get(&key));
                    }
                } else if cost % 7 == 0 {
                    r.make_room(cost);
                    prop_assert!(r.entries.iter().map(|e| e.2).sum::<u64>() + cost <= 100);
                } else {
                    r.keep(key, i, cost);
                    last.insert(key, i);
                    prop_assert_eq!(r.get(&key), Some(&i));
                }
                prop_assert!(r.len() <= 3);
                prop_assert!(r.entries.iter().map(|e| e.2).sum::<u64>() <= 100);
            }
        }
    }
}
