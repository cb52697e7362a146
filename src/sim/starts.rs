//! Where each of many lists starts in one long vector (CSR offsets), kept in about 2 bytes a list
//! instead of 4.
//!
//! Lists that follow each other are short where there are millions of them (a 1024-rank ring's
//! transfers wait for two others each and two wait for each), so the starts of `BLOCK` (64)
//! neighbouring lists lie close together: each block's first start is kept in 4 bytes and every
//! start's distance from it in 2. Starts that do not fit so (a block whose lists hold more than
//! 65,535 entries, or starts that go back) are kept as they are, 4 bytes each.
//!
//! ```
//! # use allreduce_sim::starts::Starts;
//! let mut s = Starts::new();
//! for x in [0, 2, 4, 4, 7] {
//!     s.push(x);
//! }
//! assert_eq!((s.len(), s.get(3), s.last()), (5, 4, Some(7)));
//! assert_eq!(s.range(1), 2..4); // list 1: entries 2 and 3
//! assert!(s.is_blocked());
//! s.push(7 + 70_000); // 70,000 entries in one list: no longer a distance
//! assert!(!s.is_blocked());
//! assert_eq!(s.iter().collect::<Vec<_>>(), [0, 2, 4, 4, 7, 70_007]);
//! ```

use super::halves;
use std::ops::Range;

/// Starts per block.
const BLOCK: usize = 64;

/// Words per block: its first start, then its starts' distances from it, two to a word.
const BLOCK_WORDS: usize = 1 + BLOCK / 2;

/// Monotone starts of lists, each list `i` being `get(i)..get(i + 1)` (see the module).
#[derive(Clone, PartialEq, Eq)]
pub enum Starts {
    /// Per block of `BLOCK` (64) starts, one after another: the block's first start, then each
    /// start's distance from it in 16 bits, two to a word, the earlier in the low half (the
    /// high half of a last word of its own is 0). Base and distances share a cache line.
    /// `base` and `last` repeat the last block's first start and the last start (0 when there is
    /// none), so that a push writes its word without reading the vector (perf: where many
    /// `Starts` grow at once, a link timeline's instants each, those reads missed the cache; a
    /// 1024-rank ring run with details, best CPU of 3, 0.91 → 0.88 s).
    Blocked {
        words: Vec<u32>,
        len: usize,
        base: u32,
        last: u32,
    },
    /// Every start as it is.
    Raw(Vec<u32>),
}

impl Default for Starts {
    fn default() -> Self {
        Starts::new()
    }
}

impl std::fmt::Debug for Starts {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

/// Words that `len` blocked starts take.
fn blocked_words(len: usize) -> usize {
    let rest = len % BLOCK;
    len / BLOCK * BLOCK_WORDS + if rest > 0 { 1 + rest.div_ceil(2) } else { 0 }
}

impl Starts {
    /// No start yet.
    ///
    /// ```
    /// # use allreduce_sim::starts::Starts;
    /// assert!(Starts::new().is_empty() && Starts::new().is_blocked());
    /// ```
    pub fn new() -> Starts {
        Starts::Blocked {
            words: Vec::new(),
            len: 0,
            base: 0,
            last: 0,
        }
    }

    /// No start yet, with room for `n` (advised for huge pages, see `huge_pages`).
    pub(crate) fn with_capacity(n: usize) -> Starts {
        Starts::Blocked {
            words: super::huge_pages::with_capacity(blocked_words(n)),
            len: 0,
            base: 0,
            last: 0,
        }
    }

    /// The starts `v` holds, kept blocked if they fit.
    ///
    /// ```
    /// # use allreduce_sim::starts::Starts;
    /// assert!(Starts::from_slice(&[0, 1, 3]).is_blocked());
    /// // Below its block's first start: kept as it is.
    /// assert!(!Starts::from_slice(&[5, 0, 3]).is_blocked());
    /// assert_eq!(Starts::from_slice(&[5, 0, 3]).get(1), 0);
    /// ```
    pub fn from_slice(v: &[u32]) -> Starts {
        let mut s = Starts::with_capacity(v.len());
        for &x in v {
            s.push(x);
        }
        s
    }

    /// Whether the starts are kept as distances in blocks.
    ///
    /// ```
    /// # use allreduce_sim::starts::Starts;
    /// assert!(Starts::from_slice(&[0, 65_535]).is_blocked());
    /// assert!(!Starts::from_slice(&[0, 65_536]).is_blocked());
    /// ```
    pub fn is_blocked(&self) -> bool {
        matches!(self, Starts::Blocked { .. })
    }

    // Inlined natively (a call a list on the hot paths of the builder, the run and its end),
    // left to the optimizer in the size-optimized wasm.
    /// Appends `x`.
    ///
    /// ```
    /// # use allreduce_sim::starts::Starts;
    /// let mut s = Starts::new();
    /// s.push(4);
    /// s.push(9);
    /// assert_eq!((s.len(), s.get(1)), (2, 9));
    /// ```
    #[cfg_attr(not(target_arch = "wasm32"), inline(always))]
    pub fn push(&mut self, x: u32) {
        if let Starts::Blocked {
            words,
            len,
            base,
            last,
        } = self
        {
            let k = *len % BLOCK;
            if k == 0 {
                words.extend([x, 0]);
                (*len, *base, *last) = (*len + 1, x, x);
                return;
            }
            if let Some(d) = x.checked_sub(*base).filter(|&d| d <= 0xFFFF) {
                // The block's distances are the last of its words: a new word, or the high
                // half of the last, whose low half is the last start's distance.
                if k % 2 == 0 {
                    words.push(d);
                } else if let Some(w) = words.last_mut() {
                    *w = (*last - *base) | d << 16;
                }
                (*len, *last) = (*len + 1, x);
                return;
            }
            self.widen();
        }
        if let Starts::Raw(v) = self {
            v.push(x);
        }
    }

    /// Keeps every start as it is from now on, in room for as many as there was room for.
    #[cold]
    #[inline(never)]
    fn widen(&mut self) {
        let room = match self {
            Starts::Blocked { words, .. } => words.capacity() / BLOCK_WORDS * BLOCK + BLOCK,
            Starts::Raw(v) => v.capacity(),
        };
        let mut raw = super::huge_pages::with_capacity(room.max(self.len() + 1));
        raw.extend(self.iter());
        *self = Starts::Raw(raw);
    }

    // Inlined natively (a call a list on the hot paths of the builder, the run and its end),
    // left to the optimizer in the size-optimized wasm.
    /// Start `i`.
    ///
    /// ```
    /// # use allreduce_sim::starts::Starts;
    /// assert_eq!(Starts::from_slice(&[3, 5, 8]).get(2), 8);
    /// ```
    #[cfg_attr(not(target_arch = "wasm32"), inline(always))]
    pub fn get(&self, i: usize) -> u32 {
        match self {
            Starts::Blocked { words, .. } => {
                let (b, k) = (i / BLOCK * BLOCK_WORDS, i % BLOCK);
                words[b] + halves::get(&words[b + 1..], k)
            }
            Starts::Raw(v) => v[i],
        }
    }

    // Inlined natively (a call a list on the hot paths of the builder, the run and its end),
    // left to the optimizer in the size-optimized wasm.
    /// List `i`: from its start to the next one's (both from one block's base, but at a block's
    /// end, where the next is the next block's base).
    ///
    /// ```
    /// # use allreduce_sim::starts::Starts;
    /// let s = Starts::from_slice(&(0..130).map(|i| 3 * i).collect::<Vec<u32>>());
    /// assert_eq!((s.range(0), s.range(63), s.range(64)), (0..3, 189..192, 192..195));
    /// ```
    #[cfg_attr(not(target_arch = "wasm32"), inline(always))]
    pub fn range(&self, i: usize) -> Range<usize> {
        match self {
            Starts::Blocked { words, .. } => {
                let (b, k) = (i / BLOCK * BLOCK_WORDS, i % BLOCK);
                let (base, block) = (words[b], &words[b + 1..]);
                let end = if k == BLOCK - 1 {
                    words[b + BLOCK_WORDS]
                } else {
                    base + halves::get(block, k + 1)
                };
                (base + halves::get(block, k)) as usize..end as usize
            }
            Starts::Raw(v) => v[i] as usize..v[i + 1] as usize,
        }
    }

    /// How many starts.
    ///
    /// ```
    /// # use allreduce_sim::starts::Starts;
    /// assert_eq!(Starts::from_slice(&[0, 2, 2]).len(), 3);
    /// ```
    pub fn len(&self) -> usize {
        match self {
            Starts::Blocked { len, .. } => *len,
            Starts::Raw(v) => v.len(),
        }
    }

    /// Whether there is no start.
    ///
    /// ```
    /// # use allreduce_sim::starts::Starts;
    /// assert!(!Starts::from_slice(&[0]).is_empty());
    /// ```
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The last start: where the last list ends, if this is a list's end.
    ///
    /// ```
    /// # use allreduce_sim::starts::Starts;
    /// assert_eq!((Starts::from_slice(&[0, 7]).last(), Starts::new().last()), (Some(7), None));
    /// ```
    pub fn last(&self) -> Option<u32> {
        self.len().checked_sub(1).map(|i| self.get(i))
    }

    /// Every start, in order.
    ///
    /// ```
    /// # use allreduce_sim::starts::Starts;
    /// assert_eq!(Starts::from_slice(&[1, 2]).iter().sum::<u32>(), 3);
    /// ```
    pub fn iter(&self) -> impl ExactSizeIterator<Item = u32> + '_ {
        (0..self.len()).map(|i| self.get(i))
    }

    /// How many words carry `len` starts, blocked or as they are.
    pub(crate) fn words_for(len: usize, blocked: bool) -> usize {
        if blocked { blocked_words(len) } else { len }
    }

    /// The words that carry the starts ([`words_for`](Self::words_for) of them).
    pub(crate) fn words(&self) -> &[u32] {
        match self {
            Starts::Blocked { words, .. } => words,
            Starts::Raw(v) => v,
        }
    }

    /// The words that carry the starts, and whether they are blocked (to another thread, see
    /// `wire`: moved, not copied).
    pub(crate) fn into_words(self) -> (bool, Vec<u32>) {
        match self {
            Starts::Blocked { words, .. } => (true, words),
            Starts::Raw(v) => (false, v),
        }
    }

    /// The `len` starts `words` carry ([`into_words`](Self::into_words)), or `None` unless there
    /// are as many words as they take, each block's first distance is 0, a lone last half is 0
    /// and every start fits 32 bits. Whether they are monotone is the caller's to check.
    pub(crate) fn from_words(blocked: bool, words: Vec<u32>, len: usize) -> Option<Starts> {
        if !blocked {
            return (words.len() == len).then_some(Starts::Raw(words));
        }
        if words.len() != blocked_words(len) {
            return None;
        }
        // The last block's distances, if it is not full, end as any halves do.
        let last = len / BLOCK * BLOCK_WORDS;
        let padded = len % BLOCK == 0 || halves::fit(&words[last + 1..], len % BLOCK);
        // Per block: its first distance 0, and its first start plus its largest distance in 32 bits.
        let blocks_fit = words.chunks(BLOCK_WORDS).all(|block| {
            let largest = block[1..].iter().map(|&w| (w & 0xFFFF).max(w >> 16)).max();
            block.len() > 1
                && block[1] & 0xFFFF == 0
                && largest.is_some_and(|d| block[0].checked_add(d).is_some())
        });
        if !(padded && blocks_fit) {
            return None;
        }
        let mut s = Starts::Blocked {
            words,
            len,
            base: 0,
            last: 0,
        };
        if len > 0 {
            let (b, l) = (s.get((len - 1) / BLOCK * BLOCK), s.get(len - 1));
            if let Starts::Blocked { base, last, .. } = &mut s {
                (*base, *last) = (b, l);
            }
        }
        Some(s)
    }

    /// Bytes held on the heap.
    ///
    /// ```
    /// # use allreduce_sim::starts::Starts;
    /// // 1,000 starts: 15 full blocks of 33 words, then 40 starts in 1 + 20 words.
    /// let s = Starts::from_slice(&(0..1000).map(|i| 2 * i).collect::<Vec<u32>>());
    /// assert_eq!(s.heap_bytes(), 4 * (15 * 33 + 21));
    /// ```
    pub fn heap_bytes(&self) -> usize {
        match self {
            Starts::Blocked { words, .. } => 4 * words.capacity(),
            Starts::Raw(v) => 4 * v.capacity(),
        }
    }

    /// Asks for start `i` to be brought into the cache (see `prefetch`).
    #[inline]
    pub(crate) fn prefetch(&self, i: usize) {
        match self {
            Starts::Blocked { words, .. } => {
                super::prefetch::prefetch(words, i / BLOCK * BLOCK_WORDS + 1 + i % BLOCK / 2)
            }
            Starts::Raw(v) => super::prefetch::prefetch(v, i),
        }
    }

    /// Room for `more` starts, exactly.
    pub(crate) fn reserve_exact(&mut self, more: usize) {
        match self {
            Starts::Blocked { words, len, .. } => {
                words.reserve_exact(blocked_words(*len + more) - words.len());
            }
            Starts::Raw(v) => v.reserve_exact(more),
        }
    }

    pub(crate) fn advise(&self) {
        match self {
            Starts::Blocked { words, .. } => super::huge_pages::advise(words),
            Starts::Raw(v) => super::huge_pages::advise(v),
        }
    }

    pub(crate) fn shrink_to_fit(&mut self) {
        match self {
            Starts::Blocked { words, .. } => words.shrink_to_fit(),
            Starts::Raw(v) => v.shrink_to_fit(),
        }
    }
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn starts_read_back_as_pushed_whatever_they_are(
            steps in prop::collection::vec(prop_oneof![
                4 => 0u32..4,
                1 => 0u32..70_000,
                1 => Just(u16::MAX as u32),
                1 => Just(u16::MAX as u32 + 1),
            ], 0..400),
            back in prop::option::of(0usize..400),
            cut in 0usize..400,
        ) {
            let mut v = Vec::new();
            let mut x = 0u32;
            for (i, d) in steps.iter().enumerate() {
                // Monotone, but for one step back where asked.
                x = if back == Some(i) { x.saturating_sub(d + 1) } else { x + d };
                v.push(x);
            }
            let mut s = Starts::new();
            for &x in &v {
                s.push(x);
            }
            prop_assert_eq!(s.iter().collect::<Vec<_>>(), v.clone());
            prop_assert_eq!(&Starts::from_slice(&v), &s);
            for i in 1..v.len() {
                prop_assert_eq!(s.range(i - 1), v[i - 1] as usize..v[i] as usize);
            }
            let blocked = s.is_blocked();
            let (b, words) = s.clone().into_words();
            prop_assert_eq!(b, blocked);
            prop_assert_eq!(Starts::from_words(b, words, v.len()), Some(s.clone()));
            // Taken from another thread part way and pushed on, the same starts: `from_words`
            // finds the last block's first start and the last start that a push writes from.
            let cut = cut.min(v.len());
            let (b, words) = Starts::from_slice(&v[..cut]).into_words();
            let mut resumed = Starts::from_words(b, words, cut).expect("as written");
            for &x in &v[cut..] {
                resumed.push(x);
            }
            prop_assert_eq!(&resumed, &s);
            // Blocked exactly while every start is at most 65,535 after its block's first.
            let fits = v.chunks(BLOCK).all(|b| b.iter().all(|&x| x >= b[0] && x - b[0] <= u16::MAX as u32));
            prop_assert_eq!(s.is_blocked(), fits);
        }
    }

    #[test]
    fn a_block_holds_distances_up_to_65535_and_widens_past_them() {
        let mut s = Starts::new();
        s.push(10);
        s.push(10 + 65_535);
        assert!(s.is_blocked());
        // The next block starts afresh.
        for _ in 2..BLOCK {
            s.push(10 + 65_535);
        }
        s.push(200_000);
        s.push(200_000 + 65_535);
        assert!(s.is_blocked());
        s.push(200_000 + 65_536);
        assert!(!s.is_blocked());
        assert_eq!(s.len(), BLOCK + 3);
        assert_eq!(
            (s.get(0), s.get(1), s.get(BLOCK), s.get(BLOCK + 2)),
            (10, 65_545, 200_000, 265_536)
        );
        assert_eq!(s.range(BLOCK + 1), 265_535..265_536);
    }

    #[test]
    fn words_from_another_thread_are_taken_only_as_written() {
        let s = Starts::from_slice(&[0, 3, 3, 9, 70]);
        let (blocked, words) = s.clone().into_words();
        assert!(blocked);
        // A base word, then the distances 0, 3 | 3, 9 | 70, 0.
        assert_eq!(words, [0, 3 << 16, 3 | 9 << 16, 70]);
        assert_eq!(Starts::from_words(true, words.clone(), 5), Some(s));
        // A word short or one too many, or read as a different count.
        assert_eq!(Starts::from_words(true, words[..3].to_vec(), 5), None);
        assert_eq!(
            Starts::from_words(true, [&words[..], &[0]].concat(), 5),
            None
        );
        assert_eq!(Starts::from_words(true, words.clone(), 7), None);
        // Something in a lone last high half, or a block whose first distance is not 0.
        assert_eq!(
            Starts::from_words(true, vec![0, 3 << 16, 3 | 9 << 16, 70 | 1 << 16], 5),
            None
        );
        assert_eq!(
            Starts::from_words(true, vec![0, 1 | 3 << 16, 3 | 9 << 16, 70], 5),
            None
        );
        // As they are: one word a start.
        assert_eq!(
            Starts::from_words(false, vec![0, 5, 3], 3).map(|s| s.get(2)),
            Some(3)
        );
        assert_eq!(Starts::from_words(false, vec![0, 5, 3], 2), None);
        // A start past 32 bits.
        assert_eq!(Starts::from_words(true, vec![u32::MAX, 1 << 16], 2), None);
        assert!(Starts::from_words(true, vec![u32::MAX - 1, 1 << 16], 2).is_some());
    }
}
