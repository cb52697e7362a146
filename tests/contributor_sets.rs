//! The sets of contributions the buffers keep, against a plain model: a `BTreeSet` of ranks per
//! set, and per cell its value and set. Random unions and copies reach every form a set takes
//! (one range, up to four inline, a vector beyond that, ranks past a cell's packed bounds), and
//! every double count must be refused with the smallest rank counted twice, leaving the set and
//! the cell as they were.
#![cfg(not(target_arch = "wasm32"))]

use allreduce_lab::sim::buffers::{Buffers, Cell, Contributors, contribution};
use proptest::prelude::*;
use std::collections::BTreeSet;

/// The set holding `ranks`, built one rank at a time in the order given.
fn set_of(ranks: &[u32]) -> Contributors {
    let mut set = Contributors::single(ranks[0]);
    for &r in &ranks[1..] {
        set.union_disjoint(&Contributors::single(r)).unwrap();
    }
    set
}

/// Checks `set` holds exactly `model` among ranks `base..base + n`: a rank is refused again iff
/// it is in (and, from rank 0, the set is everyone's iff the model is).
fn same(set: &Contributors, model: &BTreeSet<u32>, base: u32, n: u32) -> Result<(), TestCaseError> {
    prop_assert_eq!(set.len(), model.len());
    if base == 0 {
        prop_assert_eq!(set.is_all(n), model.len() == n as usize);
    }
    for r in base..base + n {
        let again = set.clone().union_disjoint(&Contributors::single(r));
        prop_assert_eq!(again.is_err(), model.contains(&r), "rank {}", r);
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]

    #[test]
    fn unions_match_a_set_of_ranks(n in 1u32..48, base in prop_oneof![Just(0u32), Just(65_530u32)],
                                   steps in prop::collection::vec((0usize..64, 0usize..64), 1..80)) {
        // Start from n singletons (around 65 535 too, where a cell can no longer pack a bound);
        // merge random pairs. Disjoint pairs merge; overlapping ones are refused unchanged.
        let mut sets: Vec<(Contributors, BTreeSet<u32>)> = (0..n)
            .map(|r| (Contributors::single(base + r), BTreeSet::from([base + r])))
            .collect();
        for (i, j) in steps {
            let (i, j) = (i % sets.len(), j % sets.len());
            let other = sets[j].clone();
            let (set, model) = &mut sets[i];
            let before = set.clone();
            match set.union_disjoint(&other.0) {
                Ok(()) => {
                    prop_assert!(model.is_disjoint(&other.1));
                    model.extend(other.1.iter().copied());
                }
                Err(twice) => {
                    prop_assert_eq!(Some(&twice), model.intersection(&other.1).next());
                    prop_assert_eq!(&*set, &before);
                }
            }
        }
        for (set, model) in &sets {
            same(set, model, base, n)?;
            // One form per set: built again in another order, it compares equal.
            let ranks: Vec<u32> = model.iter().rev().copied().collect();
            prop_assert_eq!(&set_of(&ranks), set);
        }
    }

    #[test]
    fn strided_sets_of_many_ranges_merge_and_refuse(n in 8u32..200, stride in 2u32..9) {
        // Rabenseifner's halving makes sets like {0, s, 2s, …}: many ranges in a vector.
        let evens: Vec<u32> = (0..n).step_by(stride as usize).collect();
        let rest: Vec<u32> = (0..n).filter(|r| r % stride != 0).collect();
        let mut a = set_of(&evens);
        same(&a, &evens.iter().copied().collect(), 0, n)?;
        let b = set_of(&rest);
        prop_assert_eq!(a.clone().union_disjoint(&a.clone()), Err(0));
        a.union_disjoint(&b).unwrap();
        prop_assert!(a.is_all(n));
        prop_assert_eq!(a, set_of(&(0..n).collect::<Vec<_>>()));
    }

    #[test]
    fn buffers_reduce_and_copy_like_the_model(ranks in 2usize..24, chunks in 1usize..4,
                                              ops in prop::collection::vec((any::<bool>(), 0usize..24, 0usize..24, 0usize..4, 1usize..4), 1..160)) {
        // Random reductions and copies between ranks' chunk ranges; a refused reduction changes
        // nothing (its cells before the double count keep what they got, as in a run).
        let mut b = Buffers::new(ranks, chunks);
        let mut model: Vec<(i64, BTreeSet<u32>)> = (0..ranks * chunks)
            .map(|i| (contribution(i / chunks, i % chunks), BTreeSet::from([(i / chunks) as u32])))
            .collect();
        for (reduce, from, to, lo, len) in ops {
            let (from, to) = (from % ranks, to % ranks);
            let lo = lo % chunks;
            let hi = (lo + len).min(chunks);
            let mut payload: Vec<Cell> = Vec::new();
            b.snapshot(from, lo, hi, &mut payload);
            if reduce {
                let result = b.reduce(to, lo, &payload);
                let mut expected = Ok(());
                for c in lo..hi {
                    let (v, s) = model[from * chunks + c].clone();
                    let cell = &mut model[to * chunks + c];
                    if let Some(&twice) = cell.1.intersection(&s).next() {
                        expected = Err((c, twice));
                        break;
                    }
                    cell.0 += v;
                    cell.1.extend(s);
                }
                prop_assert_eq!(result, expected);
            } else {
                b.copy(to, lo, &payload);
                for c in lo..hi {
                    model[to * chunks + c] = model[from * chunks + c].clone();
                }
            }
            for (i, (v, s)) in model.iter().enumerate() {
                let cell = b.cell(i / chunks, i % chunks);
                prop_assert_eq!(cell.value, *v);
                prop_assert_eq!(b.contributors(i / chunks, i % chunks), s.len());
                let ranks_in: Vec<u32> = s.iter().copied().collect();
                prop_assert_eq!(&cell.contributors, &set_of(&ranks_in));
            }
        }
    }
}
