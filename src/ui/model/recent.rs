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

    /// The value kept for `key`, leaving the order of use as it is.
    pub fn peek(&self, key: &K) -> Option<&V> {
        self.entries
            .iter()
            .find(|(k, _, _)| k == key)
            .map(|(_, v, _)| v)
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

    /// The same cache written the plainest way: a list, most recently used last.
    struct Model(Vec<(u8, usize, u64)>);

    impl Model {
        fn fit(&mut self, extra: u64) {
            while !self.0.is_empty()
                && (self.0.len() > 3 || self.0.iter().map(|e| e.2).sum::<u64>() + extra > 100)
            {
                self.0.remove(0);
            }
        }
    }

    proptest! {
        /// Whatever is kept, looked up or made room for, the cache holds exactly what the plain
        /// model holds, in the same order of use (so the least recently used is what goes), and
        /// both bounds hold. Costs reach past the bound, so a value too costly alone is tried too.
        #[test]
        fn the_cache_is_the_plain_model(
            ops in proptest::collection::vec((0u8..6, 0u64..120, 0u8..3), 1..80),
        ) {
            let mut r = Recent::new(3, 100);
            let mut m = Model(Vec::new());
            for (i, &(key, cost, op)) in ops.iter().enumerate() {
                match op {
                    0 => {
                        let at = m.0.iter().position(|e| e.0 == key);
                        let want = at.map(|at| {
                            let e = m.0.remove(at);
                            m.0.push(e);
                            e.1
                        });
                        prop_assert_eq!(r.peek(&key).copied(), want);
                        prop_assert_eq!(r.get(&key).copied(), want);
                    }
                    1 => {
                        r.make_room(cost);
                        m.fit(cost);
                    }
                    _ => {
                        r.keep(key, i, cost);
                        m.0.retain(|e| e.0 != key);
                        if cost <= 100 {
                            m.0.push((key, i, cost));
                            m.fit(0);
                        }
                    }
                }
                prop_assert_eq!(&r.entries, &m.0);
                prop_assert!(r.len() <= 3);
                prop_assert!(r.entries.iter().map(|e| e.2).sum::<u64>() <= 100);
            }
        }
    }
}
