//! Recursive doubling and Rabenseifner's algorithm (Thakur, Rabenseifner & Gropp 2005).
//!
//! Both pair ranks whose (virtual) numbers differ in one bit and let each pair swap data at once
//! (MPI_Sendrecv): each transfer of a pair waits until both partners are ready.
//!
//! When N is not a power of two, the first 2r ranks (r = N − 2^⌊log₂N⌋) fold in pairs first: the even
//! rank sends its whole buffer to the odd one and sits out; at the end the odd rank sends it the result.

use super::{Cursors, empty};
use crate::schedule::{Op, Phase, Schedule, ScheduleBuilder};
use std::ops::Range;

/// N split into a power of two and the remainder that must fold in.
struct Fold {
    pof2: usize,
    rem: usize,
}

impl Fold {
    fn new(n: usize) -> Fold {
        let pof2 = 1usize << (usize::BITS - 1 - n.leading_zeros());
        Fold {
            pof2,
            rem: n - pof2,
        }
    }
    /// The real rank behind virtual rank `v`.
    fn real(&self, v: usize) -> usize {
        if v < self.rem {
            2 * v + 1
        } else {
            v + self.rem
        }
    }
    /// Even ranks below 2·rem hand their buffer to their odd neighbour. Returns the next step.
    fn fold_in(&self, b: &mut ScheduleBuilder, cur: &mut Cursors, chunks: usize) -> u32 {
        for v in 0..self.rem {
            let id = b.add(2 * v, 2 * v + 1, 0..chunks, Op::Reduce, 0, Phase::Fold, &[]);
            cur.record(2 * v, 2 * v + 1, id);
        }
        u32::from(self.rem > 0)
    }
    /// The odd ranks send the result back.
    fn fold_out(&self, b: &mut ScheduleBuilder, cur: &mut Cursors, chunks: usize, step: u32) {
        for v in 0..self.rem {
            let (src, dst) = (2 * v + 1, 2 * v);
            let id = b.add_after(
                src,
                dst,
                0..chunks,
                Op::Copy,
                step,
                Phase::Fold,
                [cur.last_recv[src], cur.last_send[src]],
            );
            cur.record(src, dst, id);
        }
    }
}

/// A simultaneous swap between `a` and `b`: `a` sends `to_b`, `b` sends `to_a`.
#[allow(clippy::too_many_arguments)]
fn swap(
    sb: &mut ScheduleBuilder,
    cur: &mut Cursors,
    (a, b): (usize, usize),
    to_b: Range<usize>,
    to_a: Range<usize>,
    op: Op,
    step: u32,
    phase: Phase,
) {
    let deps = [
        cur.last_recv[a],
        cur.last_recv[b],
        cur.last_send[a],
        cur.last_send[b],
    ];
    let x = sb.add_after(a, b, to_b, op, step, phase, deps);
    let y = sb.add_after(b, a, to_a, op, step, phase, deps);
    cur.record(a, b, x);
    cur.record(b, a, y);
}

/// Recursive doubling: log₂N rounds; in each, partners swap their whole buffers and add them.
/// Cost on `uniform`, N a power of two: log₂N × (α + Sβ + Sγ).
pub(super) fn recursive_doubling(n: usize, size_bytes: u64) -> Schedule {
    if n < 2 {
        return empty(n, size_bytes);
    }
    let f = Fold::new(n);
    let mut b = ScheduleBuilder::new(n, 1, size_bytes);
    let mut cur = Cursors::new(n);
    let mut step = f.fold_in(&mut b, &mut cur, 1);
    let mut mask = 1;
    while mask < f.pof2 {
        for v in 0..f.pof2 {
            let p = v ^ mask;
            if v < p {
                let pair = (f.real(v), f.real(p));
                swap(
                    &mut b,
                    &mut cur,
                    pair,
                    0..1,
                    0..1,
                    Op::Reduce,
                    step,
                    Phase::Exchange,
                );
            }
        }
        step += 1;
        mask <<= 1;
    }
    f.fold_out(&mut b, &mut cur, 1, step);
    b.build()
}

/// Rabenseifner: a reduce-scatter by recursive halving (partners swap half of what they hold and
/// keep reducing the other half), then an allgather by recursive doubling.
/// Cost on `uniform`, N a power of two: 2 log₂N α + 2(N−1)/N Sβ + (N−1)/N Sγ.
pub(super) fn rabenseifner(n: usize, size_bytes: u64) -> Schedule {
    if n < 2 {
        return empty(n, size_bytes);
    }
    let f = Fold::new(n);
    let chunks = f.pof2;
    let mut b = ScheduleBuilder::new(n, chunks, size_bytes);
    let mut cur = Cursors::new(n);
    let mut step = f.fold_in(&mut b, &mut cur, chunks);
    // The chunk range each virtual rank is responsible for.
    let mut held: Vec<Range<usize>> = vec![0..chunks; f.pof2];
    let mut mask = f.pof2 / 2;
    while mask >= 1 {
        for v in 0..f.pof2 {
            let p = v ^ mask;
            if v < p {
                // v keeps the lower half, p the upper.
                let Range { start, end } = held[v].clone();
                let mid = (start + end) / 2;
                let pair = (f.real(v), f.real(p));
                swap(
                    &mut b,
                    &mut cur,
                    pair,
                    mid..end,
                    start..mid,
                    Op::Reduce,
                    step,
                    Phase::ReduceScatter,
                );
                held[v] = start..mid;
                held[p] = mid..end;
            }
        }
        step += 1;
        mask /= 2;
    }
    let mut mask = 1;
    while mask < f.pof2 {
        for v in 0..f.pof2 {
            let p = v ^ mask;
            if v < p {
                let pair = (f.real(v), f.real(p));
                let (mine, theirs) = (held[v].clone(), held[p].clone());
                swap(
                    &mut b,
                    &mut cur,
                    pair,
                    mine.clone(),
                    theirs.clone(),
                    Op::Copy,
                    step,
                    Phase::AllGather,
                );
                let joined = mine.start.min(theirs.start)..mine.end.max(theirs.end);
                held[v] = joined.clone();
                held[p] = joined;
            }
        }
        step += 1;
        mask <<= 1;
    }
    f.fold_out(&mut b, &mut cur, chunks, step);
    b.build()
}
