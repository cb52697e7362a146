//! Real buffers: every rank holds one cell per chunk; a cell holds a value (a sum of integers, so it
//! is exact) and the set of ranks whose contributions that sum contains.
//!
//! A reduction that would add a contribution a second time is an error, and at the end every rank
//! must hold, in every chunk, the sum of all ranks' contributions, each exactly once.
//!
//! ```
//! use allreduce_sim::buffers::Contributors;
//! let mut a = Contributors::single(0);
//! a.union_disjoint(&Contributors::single(1)).unwrap();
//! assert_eq!(a.len(), 2);
//! assert!(a.union_disjoint(&Contributors::single(1)).is_err());
//! ```

/// A set of ranks, kept as sorted disjoint half-open ranges `[lo, hi)`. The sets algorithms build
/// are mostly one to four ranges, which live inline without allocation (NCCL's rings, which
/// visit a node's GPUs from a different one in each channel, make three and four: a 1024-GPU
/// ring on rails merges 2.3 million of them); the whole set is 40 bytes on a 64-bit target, 36 on
/// wasm32. Its `Default` is the empty set.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Contributors {
    /// Up to four ranges, in order; the unused ones are `(0, 0)` (no real range is empty).
    inline: [(u32, u32); INLINE],
    /// All the ranges instead, when there are more than four. Boxed so that it costs one
    /// pointer, not a vector's three words, in the common case.
    #[allow(clippy::box_collection)]
    spill: Option<Box<Vec<(u32, u32)>>>,
}

/// How many ranges a set holds without allocating.
const INLINE: usize = 4;

impl Contributors {
    /// The set `{rank}`.
    ///
    /// # Examples
    ///
    /// ```
    /// use allreduce_sim::buffers::Contributors;
    /// let one = Contributors::single(3);
    /// assert_eq!(one.len(), 1);
    /// assert!(!one.is_all(4) && Contributors::single(0).is_all(1));
    /// ```
    pub fn single(rank: u32) -> Self {
        let mut inline = [(0, 0); INLINE];
        inline[0] = (rank, rank + 1);
        Contributors {
            inline,
            spill: None,
        }
    }

    fn ranges(&self) -> &[(u32, u32)] {
        match &self.spill {
            Some(all) => all,
            None => {
                let used = self.inline.iter().take_while(|r| r.0 < r.1).count();
                &self.inline[..used]
            }
        }
    }

    /// Number of ranks in the set.
    ///
    /// ```
    /// use allreduce_sim::buffers::Contributors;
    /// let mut set = Contributors::single(0);
    /// set.union_disjoint(&Contributors::single(5)).unwrap();
    /// set.union_disjoint(&Contributors::single(1)).unwrap();
    /// assert_eq!(set.len(), 3);
    /// assert!(!set.is_all(3)); // {0, 1, 5}, not {0, 1, 2}
    /// ```
    pub fn len(&self) -> usize {
        self.ranges().iter().map(|&(a, b)| (b - a) as usize).sum()
    }

    /// Whether the set holds no rank.
    ///
    /// ```
    /// use allreduce_sim::buffers::Contributors;
    /// assert!(!Contributors::single(7).is_empty());
    /// ```
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Whether the set is exactly `{0, …, n-1}`.
    ///
    /// # Examples
    ///
    /// ```
    /// use allreduce_sim::buffers::Contributors;
    /// let mut set = Contributors::single(1);
    /// set.union_disjoint(&Contributors::single(0)).unwrap();
    /// assert!(set.is_all(2));
    /// assert!(!set.is_all(3));
    /// ```
    pub fn is_all(&self, n: u32) -> bool {
        self.ranges() == [(0, n)]
    }

    /// Adds `other` to the set; fails with a rank both hold if they overlap.
    ///
    /// # Examples
    ///
    /// ```
    /// use allreduce_sim::buffers::Contributors;
    /// let (mut low, mut high) = (Contributors::single(0), Contributors::single(2));
    /// low.union_disjoint(&Contributors::single(1)).unwrap();
    /// high.union_disjoint(&Contributors::single(3)).unwrap();
    /// assert_eq!(low.union_disjoint(&high), Ok(()));
    /// assert!(low.is_all(4));
    /// // Adding rank 2 again: refused, naming the rank counted twice.
    /// assert_eq!(low.union_disjoint(&Contributors::single(2)), Err(2));
    /// ```
    pub fn union_disjoint(&mut self, other: &Contributors) -> Result<(), u32> {
        let (a, b) = (self.ranges(), other.ranges());
        // Fast path: two single ranges that touch or are apart.
        if a.len() == 1 && b.len() == 1 {
            let ((a0, a1), (b0, b1)) = (a[0], b[0]);
            if a0 < b1 && b0 < a1 {
                return Err(a0.max(b0));
            }
            debug_assert!(self.spill.is_none(), "a set of one range holds no vector");
            let mut inline = [(0, 0); INLINE];
            if a1 == b0 || b1 == a0 {
                inline[0] = (a0.min(b0), a1.max(b1));
            } else if a0 < b0 {
                (inline[0], inline[1]) = ((a0, a1), (b0, b1));
            } else {
                (inline[0], inline[1]) = ((b0, b1), (a0, a1));
            }
            self.inline = inline;
            return Ok(());
        }
        // Sets of at most four ranges each merge on the stack; only a set of more than four
        // ranges allocates: its vector (a set that had one keeps the box, and its vector too
        // when at most eight ranges came in).
        let mut small = [(0u32, 0u32); 2 * INLINE];
        let mut merged: Vec<(u32, u32)> = Vec::new();
        let spills = a.len() + b.len() > small.len();
        if spills {
            merged.reserve(a.len() + b.len());
        }
        let mut len = 0;
        let (mut i, mut j) = (0, 0);
        while i < a.len() || j < b.len() {
            let next = if j >= b.len() || (i < a.len() && a[i].0 < b[j].0) {
                i += 1;
                a[i - 1]
            } else {
                j += 1;
                b[j - 1]
            };
            let out: &mut [(u32, u32)] = if spills {
                &mut merged
            } else {
                &mut small[..len]
            };
            match out.last_mut() {
                Some(last) if next.0 < last.1 => return Err(next.0),
                Some(last) if next.0 == last.1 => last.1 = next.1,
                _ if spills => merged.push(next),
                _ => {
                    small[len] = next;
                    len += 1;
                }
            }
        }
        let n = if spills { merged.len() } else { len };
        if n <= INLINE {
            self.inline = [(0, 0); INLINE];
            self.inline[..n].copy_from_slice(if spills { &merged } else { &small[..n] });
            self.spill = None;
        } else {
            // One form per set (equal sets compare equal): no ranges inline beside a vector.
            self.inline = [(0, 0); INLINE];
            let out = self.spill.get_or_insert_with(Box::default);
            if spills {
                **out = merged;
            } else {
                out.clear();
                out.extend_from_slice(&small[..len]);
            }
        }
        Ok(())
    }

    /// The set in a cell's 8 bytes, if it fits there: at most two ranges, every bound below
    /// [`SPILLED`] (any run's: at most [`MAX_RANKS`](super::topology::MAX_RANKS) ranks).
    fn pack(&self) -> Option<u64> {
        if self.spill.is_some() {
            return None;
        }
        let [(a0, a1), (b0, b1), rest @ ..] = self.inline;
        if rest.iter().any(|r| r.0 < r.1) {
            return None;
        }
        let fits = |x: u32| x < SPILLED as u32;
        (fits(a0) && fits(a1) && fits(b0) && fits(b1))
            .then_some(a0 as u64 | (a1 as u64) << 16 | (b0 as u64) << 32 | (b1 as u64) << 48)
    }

    /// The set [`pack`](Self::pack) packed.
    fn unpack(set: u64) -> Contributors {
        let bound = |k: u32| ((set >> (16 * k)) & 0xFFFF) as u32;
        let mut inline = [(0, 0); INLINE];
        inline[0] = (bound(0), bound(1));
        inline[1] = (bound(2), bound(3));
        Contributors {
            inline,
            spill: None,
        }
    }
}

/// A packed set's low 16 bits when the set is kept aside (a cell's `set` then holds its index in
/// the upper 32 bits); never a rank bound in a packed set.
const SPILLED: u16 = u16::MAX;

/// A cell as [`Buffers`] keep it: 12 bytes, a quarter of a [`Cell`] (a 1024-rank ring has a
/// million cells, and a run's reductions land on them in no cache-friendly order). `set` is the
/// contributors [`packed`](Contributors::pack) and `value` the sum, or `set` is [`SPILLED`] and
/// the index of the cell's [`Spilled`] in `Buffers::spill`, which the cell owns alone. A sum
/// fits 32 bits in any run (at most [`MAX_RANKS`](super::topology::MAX_RANKS) contributions,
/// each below 10⁶: under 4.1 · 10⁹); one that does not, from buffers of more ranks or payloads
/// made by hand, is kept aside with its set.
#[derive(Clone, Copy, Debug)]
#[repr(C, packed(4))]
struct Packed {
    value: u32,
    set: u64,
}

/// A cell whose set does not fit in its [`Packed`] 8 bytes, or whose sum does not fit its 4.
#[derive(Clone, Debug)]
struct Spilled {
    value: i64,
    set: Contributors,
}

impl Packed {
    fn spilled(self) -> Option<usize> {
        let set = self.set;
        (set & 0xFFFF == SPILLED as u64).then_some((set >> 32) as usize)
    }
}

/// One chunk of one rank's buffer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cell {
    pub value: i64,
    pub contributors: Contributors,
}

/// The value rank `rank` contributes to chunk `chunk`: small integers, different for every rank and
/// chunk, so that a sum that is off by any contribution shows.
///
/// ```
/// use allreduce_sim::buffers::contribution;
/// // ((rank + 1) · 1 000 003 + chunk · 7 919) mod 999 983, plus one.
/// assert_eq!(contribution(0, 0), 21);
/// assert_eq!(contribution(1, 0), 41);
/// assert_eq!(contribution(0, 1), 21 + 7_919);
/// ```
pub fn contribution(rank: usize, chunk: usize) -> i64 {
    ((rank as i64 + 1) * 1_000_003 + (chunk as i64) * CHUNK_STEP) % MODULUS + 1
}

/// The terms of [`contribution`]: from one chunk to the next it grows by `CHUNK_STEP`, modulo
/// `MODULUS` (less 1).
const CHUNK_STEP: i64 = 7_919;
const MODULUS: i64 = 999_983;

/// All ranks' buffers.
#[derive(Clone, Debug)]
pub struct Buffers {
    ranks: usize,
    chunks: usize,
    cells: Vec<Packed>,
    /// The cells kept aside (three ranges or more: a binary tree's heap-ordered subtrees), each
    /// slot owned by one cell; `free` lists the slots no cell owns.
    spill: Vec<Spilled>,
    free: Vec<u32>,
}

impl Buffers {
    /// Every rank starts with its own contribution in every chunk.
    ///
    /// ```
    /// use allreduce_sim::buffers::{contribution, Buffers};
    /// let b = Buffers::new(3, 2);
    /// assert_eq!(b.filled(), 6);
    /// assert_eq!(b.cell(2, 1).value, contribution(2, 1));
    /// assert_eq!(b.cell(2, 1).contributors.len(), 1);
    /// ```
    pub fn new(ranks: usize, chunks: usize) -> Self {
        let mut b = Buffers::start(ranks, chunks);
        while !b.fill(super::FINISH_SLICE) {}
        b
    }

    /// Bytes held on the heap: the cells (12 bytes each) and the cells kept aside.
    ///
    /// ```
    /// use allreduce_sim::buffers::Buffers;
    /// // 4 ranks × 8 chunks, each cell 12 bytes; every set is one rank, kept in its cell.
    /// assert_eq!(Buffers::new(4, 8).heap_bytes(), 4 * 8 * 12);
    /// ```
    pub fn heap_bytes(&self) -> usize {
        use std::mem::size_of;
        self.cells.capacity() * size_of::<Packed>()
            + self.spill.capacity() * size_of::<Spilled>()
            + self
                .spill
                .iter()
                .filter_map(|c| c.set.spill.as_ref())
                .map(|v| size_of::<Vec<(u32, u32)>>() + v.capacity() * size_of::<(u32, u32)>())
                .sum::<usize>()
            + self.free.capacity() * size_of::<u32>()
    }

    /// Buffers to be filled with [`fill`](Self::fill) (a bounded number of cells at a time).
    ///
    /// ```
    /// use allreduce_sim::buffers::Buffers;
    /// let mut b = Buffers::start(2, 2);
    /// assert_eq!(b.filled(), 0);
    /// assert!(b.fill(usize::MAX));
    /// assert_eq!(b.filled(), 4);
    /// ```
    pub fn start(ranks: usize, chunks: usize) -> Self {
        Buffers {
            ranks,
            chunks,
            cells: super::huge_pages::with_capacity(ranks * chunks),
            spill: Vec::new(),
            free: Vec::new(),
        }
    }

    /// Cells set so far.
    ///
    /// # Examples
    ///
    /// ```
    /// use allreduce_sim::buffers::Buffers;
    /// let mut b = Buffers::start(3, 4);
    /// b.fill(5);
    /// assert_eq!(b.filled(), 5);
    /// assert_eq!(Buffers::new(3, 4).filled(), 3 * 4);
    /// ```
    pub fn filled(&self) -> usize {
        self.cells.len()
    }

    /// Sets the next `max` cells (rank by rank, chunk by chunk) to their rank's contribution;
    /// `true` once every cell is set.
    ///
    /// ```
    /// use allreduce_sim::buffers::{contribution, Buffers};
    /// let mut b = Buffers::start(2, 3);
    /// assert!(!b.fill(4)); // rank 0's three cells, then rank 1's chunk 0
    /// assert_eq!(b.cell(1, 0).value, contribution(1, 0));
    /// assert!(b.fill(4));
    /// assert_eq!(b.filled(), 6);
    /// ```
    pub fn fill(&mut self, max: usize) -> bool {
        let total = self.ranks * self.chunks;
        let end = total.min(self.cells.len().saturating_add(max));
        let start = self.cells.len();
        if start == end {
            return start == total;
        }
        // `contribution(r, c)` for each cell in turn, a step of it from the one before rather
        // than a division and a remainder per cell (a 1024-rank ring has a million cells).
        let (mut r, mut c) = (start / self.chunks, start % self.chunks);
        let mut x = contribution(r, c) - 1;
        for _ in start..end {
            let value = x + 1;
            let single = Contributors::single(r as u32);
            c += 1;
            x += CHUNK_STEP;
            if x >= MODULUS {
                x -= MODULUS;
            }
            if c == self.chunks {
                (r, c) = (r + 1, 0);
                x = contribution(r, 0) - 1;
            }
            match (single.pack(), u32::try_from(value)) {
                (Some(set), Ok(value)) => self.cells.push(Packed { value, set }),
                _ => {
                    self.cells.push(Packed { value: 0, set: 0 });
                    let i = self.cells.len() - 1;
                    self.store(i, value, single);
                }
            }
        }
        self.cells.len() == total
    }

    /// The cell of `rank` for chunk `chunk`.
    ///
    /// ```
    /// use allreduce_sim::buffers::{Buffers, Contributors};
    /// let b = Buffers::new(4, 2);
    /// assert_eq!(b.cell(3, 0).contributors, Contributors::single(3));
    /// ```
    pub fn cell(&self, rank: usize, chunk: usize) -> Cell {
        self.unpacked(rank * self.chunks + chunk)
    }

    /// How many ranks' contributions the cell of `rank` for `chunk` holds.
    ///
    /// ```
    /// use allreduce_sim::buffers::Buffers;
    /// let mut b = Buffers::new(3, 1);
    /// let payload = [b.cell(0, 0)];
    /// b.reduce(2, 0, &payload).unwrap();
    /// assert_eq!((b.contributors(0, 0), b.contributors(2, 0)), (1, 2));
    /// ```
    pub fn contributors(&self, rank: usize, chunk: usize) -> usize {
        let p = self.cells[rank * self.chunks + chunk];
        match p.spilled() {
            Some(k) => self.spill[k].set.len(),
            // Unpacking allocates nothing: two ranges on the stack.
            None => Contributors::unpack(p.set).len(),
        }
    }

    fn unpacked(&self, i: usize) -> Cell {
        let p = self.cells[i];
        match p.spilled() {
            Some(k) => Cell {
                value: self.spill[k].value,
                contributors: self.spill[k].set.clone(),
            },
            None => Cell {
                value: i64::from(p.value),
                contributors: Contributors::unpack(p.set),
            },
        }
    }

    /// Sets cell `i`, keeping it aside if it does not fit (in the slot the cell owns, if any).
    fn store(&mut self, i: usize, value: i64, set: Contributors) {
        let owned = self.cells[i].spilled();
        if let (Some(packed), Ok(value)) = (set.pack(), u32::try_from(value)) {
            if let Some(k) = owned {
                self.free_slot(k);
            }
            self.cells[i] = Packed { value, set: packed };
            return;
        }
        let kept = Spilled { value, set };
        let k = match owned.or_else(|| self.free.pop().map(|k| k as usize)) {
            Some(k) => {
                self.spill[k] = kept;
                k
            }
            None => {
                self.spill.push(kept);
                self.spill.len() - 1
            }
        };
        self.cells[i] = Packed {
            value: 0,
            set: SPILLED as u64 | (k as u64) << 32,
        };
    }

    /// Gives slot `k` back (its cell now holds its set packed).
    fn free_slot(&mut self, k: usize) {
        self.spill[k] = Spilled {
            value: 0,
            set: Contributors::single(0),
        };
        self.free.push(k as u32);
    }

    /// Asks for the cell of `rank` for `chunk` to be brought into the cache (see
    /// [`prefetch`](super::prefetch)): a run does when a transfer leaves, so that the receiver's
    /// cell, read when it is done, is no cache miss then.
    pub(crate) fn prefetch(&self, rank: usize, chunk: usize) {
        super::prefetch::prefetch(&self.cells, rank * self.chunks + chunk);
    }

    /// Copies `rank`'s cells `lo..hi` into `out` (a message's payload as it leaves).
    ///
    /// # Examples
    ///
    /// ```
    /// use allreduce_sim::buffers::{contribution, Buffers};
    /// let b = Buffers::new(2, 4);
    /// let mut payload = Vec::new();
    /// b.snapshot(1, 1, 3, &mut payload); // rank 1's chunks 1 and 2
    /// assert_eq!(payload.iter().map(|c| c.value).collect::<Vec<_>>(), [contribution(1, 1), contribution(1, 2)]);
    /// ```
    pub fn snapshot(&self, rank: usize, lo: usize, hi: usize, out: &mut Vec<Cell>) {
        out.clear();
        let base = rank * self.chunks;
        out.extend((base + lo..base + hi).map(|i| self.unpacked(i)));
    }

    /// Adds `payload` into `rank`'s cells from `lo` on. On a double count, returns `(chunk, rank counted twice)`.
    ///
    /// ```
    /// use allreduce_sim::buffers::{contribution, Buffers};
    /// let mut b = Buffers::new(2, 1);
    /// let payload = [b.cell(0, 0).clone()];
    /// b.reduce(1, 0, &payload).unwrap();
    /// assert_eq!(b.cell(1, 0).value, contribution(0, 0) + contribution(1, 0));
    /// assert!(b.cell(1, 0).contributors.is_all(2));
    /// // Rank 0's contribution a second time: chunk 0, rank 0 counted twice.
    /// assert_eq!(b.reduce(1, 0, &payload), Err((0, 0)));
    /// ```
    pub fn reduce(&mut self, rank: usize, lo: usize, payload: &[Cell]) -> Result<(), (usize, u32)> {
        let base = rank * self.chunks + lo;
        for (k, p) in payload.iter().enumerate() {
            let i = base + k;
            let cell = self.cells[i];
            match cell.spilled() {
                // A set kept aside grows in its slot, not in a copy; a cell that fits again
                // goes back into its 12 bytes.
                Some(slot) => {
                    let kept = &mut self.spill[slot];
                    kept.set
                        .union_disjoint(&p.contributors)
                        .map_err(|twice| (lo + k, twice))?;
                    kept.value += p.value;
                    if let (Some(packed), Ok(value)) = (kept.set.pack(), u32::try_from(kept.value))
                    {
                        self.free_slot(slot);
                        self.cells[i] = Packed { value, set: packed };
                    }
                }
                None => {
                    let mut set = Contributors::unpack(cell.set);
                    set.union_disjoint(&p.contributors)
                        .map_err(|twice| (lo + k, twice))?;
                    self.store(i, i64::from(cell.value) + p.value, set);
                }
            }
        }
        Ok(())
    }

    /// Overwrites `rank`'s cells from `lo` on with `payload`.
    ///
    /// ```
    /// use allreduce_sim::buffers::Buffers;
    /// let mut b = Buffers::new(3, 2);
    /// let payload = [b.cell(0, 1).clone()];
    /// b.copy(2, 1, &payload);
    /// assert_eq!(b.cell(2, 1), b.cell(0, 1));
    /// assert_ne!(b.cell(2, 0), b.cell(0, 0));
    /// ```
    pub fn copy(&mut self, rank: usize, lo: usize, payload: &[Cell]) {
        let base = rank * self.chunks + lo;
        for (k, p) in payload.iter().enumerate() {
            self.store(base + k, p.value, p.contributors.clone());
        }
    }

    /// Checks that every rank holds every contribution exactly once in every chunk. Reports the
    /// first wrong cell in chunk order (then rank order); reads the cells in memory order.
    ///
    /// ```
    /// use allreduce_sim::buffers::Buffers;
    /// let mut b = Buffers::new(2, 1);
    /// assert!(b.verify().is_err()); // nobody has reduced yet
    /// let to_1 = [b.cell(0, 0).clone()];
    /// b.reduce(1, 0, &to_1).unwrap();
    /// let back = [b.cell(1, 0).clone()];
    /// b.copy(0, 0, &back);
    /// assert_eq!(b.verify(), Ok(()));
    /// ```
    pub fn verify(&self) -> Result<(), String> {
        let expected: Vec<i64> = (0..self.chunks)
            .map(|c| (0..self.ranks).map(|r| contribution(r, c)).sum())
            .collect();
        // The first wrong cell as (chunk, rank).
        let mut first: Option<(usize, usize)> = None;
        let mut all = Contributors::default();
        all.inline[0] = (0, self.ranks as u32);
        let all = all.pack();
        for (i, cell) in self.cells.iter().enumerate() {
            let (r, c) = (i / self.chunks.max(1), i % self.chunks.max(1));
            if first.is_some_and(|(fc, _)| c >= fc) {
                continue;
            }
            let (has_all, value) = match cell.spilled() {
                Some(k) => (
                    self.spill[k].set.is_all(self.ranks as u32),
                    self.spill[k].value,
                ),
                None => (Some(cell.set) == all, i64::from(cell.value)),
            };
            if !has_all || value != expected[c] {
                first = Some((c, r));
            }
        }
        let Some((c, r)) = first else {
            return Ok(());
        };
        let cell = self.cell(r, c);
        if !cell.contributors.is_all(self.ranks as u32) {
            return Err(format!(
                "rank {r} ends with chunk {c} holding the contributions of {} of {} ranks",
                cell.contributors.len(),
                self.ranks
            ));
        }
        Err(format!(
            "rank {r} ends with chunk {c} = {} instead of {}",
            cell.value, expected[c]
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    #[cfg(not(target_arch = "wasm32"))]
    use proptest::prelude::*;

    /// Filled in slices of any size, each cell holds its rank's contribution, the formula's to
    /// the bit, across the chunk term's wraps (300 chunks of 7,919 go round the modulus twice),
    /// and where the sum lands on the modulus itself (rank 234, chunk 1,641).
    #[test]
    fn filling_gives_every_cell_its_contribution() {
        assert_eq!((235 * 1_000_003 + 1_641 * CHUNK_STEP) % MODULUS, 0);
        for (ranks, chunks, slices) in [
            (1, 1, &[1, usize::MAX][..]),
            (3, 5, &[1, 7, usize::MAX]),
            (4, 300, &[1, 7, 299, usize::MAX]),
            (235, 1_642, &[7, usize::MAX]),
        ] {
            for &slice in slices {
                let mut b = Buffers::start(ranks, chunks);
                while !b.fill(slice) {}
                for r in 0..ranks {
                    for c in 0..chunks {
                        let cell = b.cell(r, c);
                        assert_eq!(cell.value, contribution(r, c), "{ranks}×{chunks}, {r}/{c}");
                        assert_eq!(cell.contributors, Contributors::single(r as u32));
                    }
                }
            }
        }
    }

    /// Every slot kept aside is owned by exactly one cell or free, never both, and holds a cell
    /// that does not fit in 12 bytes.
    #[cfg(not(target_arch = "wasm32"))]
    fn slots_are_accounted(b: &Buffers) -> Result<(), String> {
        let mut owner = vec![None; b.spill.len()];
        for (i, cell) in b.cells.iter().enumerate() {
            if let Some(k) = cell.spilled() {
                if let Some(other) = owner[k].replace(i) {
                    return Err(format!("slot {k} owned by cells {other} and {i}"));
                }
                let kept = &b.spill[k];
                if kept.set.pack().is_some() && u32::try_from(kept.value).is_ok() {
                    return Err(format!("slot {k} holds a cell that fits in cell {i}"));
                }
            }
        }
        for &k in &b.free {
            if owner[k as usize].is_some() {
                return Err(format!("slot {k} is both owned and free"));
            }
        }
        let free: std::collections::BTreeSet<u32> = b.free.iter().copied().collect();
        let owned = owner.iter().filter(|o| o.is_some()).count();
        if free.len() != b.free.len() || owned + free.len() != b.spill.len() {
            return Err(format!(
                "{owned} owned + {} free of {} slots",
                b.free.len(),
                b.spill.len()
            ));
        }
        Ok(())
    }

    #[cfg(not(target_arch = "wasm32"))]
    proptest! {
        #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

        #[test]
        fn slots_kept_aside_are_never_lost_or_shared(ranks in 3usize..24, base in prop_oneof![Just(0usize), Just(65_530usize)],
                                                     ops in prop::collection::vec((any::<bool>(), 0usize..24, 0usize..24, 0usize..3), 1..200)) {
            // Ranks past 65 534 (base) cannot be packed: every set of theirs is kept aside. Rank r
            // of the buffers is rank base + r in the sets its cells hold, via the payloads.
            let chunks = 3;
            let mut b = Buffers::new(ranks, chunks);
            if base > 0 {
                for r in 0..ranks {
                    let p: Vec<Cell> = (0..chunks)
                        .map(|c| Cell { value: contribution(r, c), contributors: Contributors::single((base + r) as u32) })
                        .collect();
                    b.copy(r, 0, &p);
                }
            }
            for (reduce, from, to, lo) in ops {
                let (from, to, lo) = (from % ranks, to % ranks, lo % chunks);
                let mut payload = Vec::new();
                b.snapshot(from, lo, chunks, &mut payload);
                if reduce {
                    let _ = b.reduce(to, lo, &payload);
                } else {
                    b.copy(to, lo, &payload);
                }
                prop_assert_eq!(slots_are_accounted(&b), Ok(()));
            }
        }
    }

    #[test]
    fn union_merges_adjacent_ranges_and_keeps_gaps() {
        let mut s = Contributors::single(3);
        s.union_disjoint(&Contributors::single(5)).unwrap();
        assert_eq!(s.len(), 2);
        s.union_disjoint(&Contributors::single(0)).unwrap();
        assert_eq!(s.len(), 3);
        s.union_disjoint(&Contributors::single(4)).unwrap();
        s.union_disjoint(&Contributors::single(1)).unwrap();
        s.union_disjoint(&Contributors::single(2)).unwrap();
        assert!(s.is_all(6));
    }

    #[test]
    fn a_cell_is_small() {
        // Every rank holds one cell per chunk: a ring on 1024 ranks has a million of them.
        assert_eq!(std::mem::size_of::<Packed>(), 12);
        assert_eq!(std::mem::size_of::<Contributors>(), 40);
        assert_eq!(std::mem::size_of::<Cell>(), 48);
    }

    #[test]
    fn cells_keep_large_sets_aside_and_give_their_slots_back() {
        // Three ranges do not fit in a cell: rank 5 gathers ranks 0 and 2, {0}, {2}, {5} (a binary
        // tree's heap-ordered subtrees look like this), then ranks 1, 3 and 4 make it whole.
        let mut b = Buffers::new(6, 1);
        for r in [0, 2] {
            let p = [b.cell(r, 0)];
            b.reduce(5, 0, &p).unwrap();
        }
        assert_eq!(
            (b.contributors(5, 0), b.spill.len(), b.free.len()),
            (3, 1, 0)
        );
        assert_eq!(b.cell(5, 0).contributors.len(), 3);
        // A copy of a large set takes a slot of its own.
        let p = [b.cell(5, 0)];
        b.copy(4, 0, &p);
        assert_eq!((b.spill.len(), b.free.len()), (2, 0));
        assert_eq!(b.cell(4, 0), b.cell(5, 0));
        // A double count is still found in a set kept aside.
        assert_eq!(b.reduce(4, 0, &[b.cell(2, 0)]), Err((0, 2)));
        for r in [1, 3] {
            let p = [b.cell(r, 0)];
            b.reduce(5, 0, &p).unwrap();
        }
        let p = [Cell {
            value: contribution(4, 0),
            contributors: Contributors::single(4),
        }];
        b.reduce(5, 0, &p).unwrap();
        assert!(b.cell(5, 0).contributors.is_all(6));
        // Rank 5's slot is free again, and the next large set reuses it.
        assert_eq!((b.spill.len(), b.free.len()), (2, 1));
        let p = [b.cell(4, 0)];
        b.copy(0, 0, &p);
        assert_eq!((b.spill.len(), b.free.len()), (2, 0));
        let expected: i64 = (0..6).map(|r| contribution(r, 0)).sum();
        assert_eq!(b.cell(5, 0).value, expected);
    }

    #[cfg(not(target_arch = "wasm32"))]
    #[test]
    fn sums_beyond_32_bits_are_kept_aside_exactly() {
        // A cell's 12 bytes hold sums in 0..2³²; others (payloads made by hand, buffers of more
        // ranks than a run has) go aside with their set and come back when they fit again.
        let mut b = Buffers::new(3, 2);
        let big = Cell {
            value: (1 << 32) + 5,
            contributors: Contributors::single(0),
        };
        b.copy(1, 0, std::slice::from_ref(&big));
        assert_eq!(b.cell(1, 0), big);
        assert_eq!((b.spill.len(), b.free.len()), (1, 0));
        let negative = Cell {
            value: -7,
            contributors: Contributors::single(2),
        };
        b.copy(1, 1, std::slice::from_ref(&negative));
        assert_eq!(b.cell(1, 1), negative);
        assert_eq!(slots_are_accounted(&b), Ok(()));
        // A reduction into the kept cell adds to its kept sum; one that brings it back below
        // 2³² puts it back in its 12 bytes.
        b.reduce(1, 0, &[b.cell(2, 0)]).unwrap();
        assert_eq!(b.cell(1, 0).value, (1 << 32) + 5 + contribution(2, 0));
        let back = Cell {
            value: -(1 << 32),
            contributors: Contributors::single(1),
        };
        b.reduce(1, 0, &[back]).unwrap();
        assert_eq!(b.cell(1, 0).value, 5 + contribution(2, 0));
        assert_eq!(b.cell(1, 0).contributors.len(), 3);
        assert_eq!((b.spill.len(), b.free.len()), (2, 1));
        assert_eq!(slots_are_accounted(&b), Ok(()));
    }

    #[test]
    fn ranks_beyond_a_packed_bound_are_kept_aside_and_verify() {
        // 70 000 ranks of one chunk: every bound past 65 534 is kept aside, and a complete
        // buffer still verifies.
        let n = 70_000;
        let mut b = Buffers::new(n, 1);
        assert!(b.spill.len() > 4_000);
        let mut acc = [b.cell(0, 0)];
        for r in 1..n {
            b.reduce(r, 0, &acc).unwrap();
            acc = [b.cell(r, 0)];
        }
        assert!(acc[0].contributors.is_all(n as u32));
        for r in 0..n - 1 {
            b.copy(r, 0, &acc);
        }
        assert_eq!(b.verify(), Ok(()));
    }

    #[test]
    fn overlapping_union_names_a_rank_counted_twice() {
        let mut a = Contributors::single(0);
        a.union_disjoint(&Contributors::single(1)).unwrap();
        let mut b = Contributors::single(1);
        b.union_disjoint(&Contributors::single(2)).unwrap();
        assert_eq!(a.union_disjoint(&b), Err(1));
    }

    #[test]
    fn verify_catches_a_missing_and_a_doubled_contribution() {
        let mut bufs = Buffers::new(2, 1);
        let mut p = Vec::new();
        bufs.snapshot(0, 0, 1, &mut p);
        bufs.reduce(1, 0, &p).unwrap();
        // Rank 0 never got rank 1's data.
        assert!(bufs.verify().unwrap_err().contains("rank 0"));
        // Sending rank 0's data to rank 1 again counts it twice.
        assert_eq!(bufs.reduce(1, 0, &p), Err((0, 0)));
        let mut q = Vec::new();
        bufs.snapshot(1, 0, 1, &mut q);
        bufs.copy(0, 0, &q);
        assert_eq!(bufs.verify(), Ok(()));
    }
}
