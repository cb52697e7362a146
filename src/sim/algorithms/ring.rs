//! Ring AllReduce: a reduce-scatter around the ring, then an allgather around it.
//!
//! With N ranks the buffer is cut into N chunks. In reduce-scatter step k (0 ≤ k < N−1) rank i sends
//! chunk (i − k) mod N to rank i+1, which adds it to its own; after N−1 steps rank i holds chunk
//! (i+1) mod N fully reduced. The allgather then passes the reduced chunks on for N−1 more steps.
//! Every rank sends and receives 2(N−1)/N × S, whatever N is.

use super::{empty, Cursors};
use crate::sim::schedule::{Op, Phase, Schedule, ScheduleBuilder};
use std::ops::Range;

pub(super) fn ring(n: usize, size_bytes: u64) -> Schedule {
    if n < 2 {
        return empty(n, size_bytes);
    }
    let mut b = ScheduleBuilder::new(n, n, size_bytes).with_capacity(2 * n * (n - 1), 2);
    let mut cur = Cursors::new(n);
    let members: Vec<usize> = (0..n).collect();
    let blocks: Vec<Range<usize>> = (0..n).map(|c| c..c + 1).collect();
    let step = ring_reduce_scatter(&mut b, &mut cur, &members, &blocks, 0, Phase::ReduceScatter);
    ring_allgather(&mut b, &mut cur, &members, &blocks, step, Phase::AllGather);
    b.build()
}

/// Reduce-scatter around `members` (in ring order) over `blocks`, one block per member. Afterwards
/// member i holds block (i+1) mod m reduced over all members. Returns the next free step.
pub(super) fn ring_reduce_scatter(
    b: &mut ScheduleBuilder,
    cur: &mut Cursors,
    members: &[usize],
    blocks: &[Range<usize>],
    step0: u32,
    phase: Phase,
) -> u32 {
    ring_pass(b, cur, members, blocks, step0, phase, Op::Reduce, 0)
}

/// Allgather around `members` after [`ring_reduce_scatter`]: member i starts with block (i+1) mod m.
pub(super) fn ring_allgather(
    b: &mut ScheduleBuilder,
    cur: &mut Cursors,
    members: &[usize],
    blocks: &[Range<usize>],
    step0: u32,
    phase: Phase,
) -> u32 {
    ring_pass(b, cur, members, blocks, step0, phase, Op::Copy, 1)
}

/// m−1 steps; in step k member i sends block (i + offset − k) mod m to member i+1.
#[allow(clippy::too_many_arguments)]
fn ring_pass(
    b: &mut ScheduleBuilder,
    cur: &mut Cursors,
    members: &[usize],
    blocks: &[Range<usize>],
    step0: u32,
    phase: Phase,
    op: Op,
    offset: usize,
) -> u32 {
    let m = members.len();
    if m < 2 {
        return step0;
    }
    for k in 0..m - 1 {
        // Decide every send of this step before recording any, so each depends on the previous step.
        let deps: Vec<[Option<u32>; 2]> = members
            .iter()
            .map(|&r| [cur.last_recv[r], cur.last_send[r]])
            .collect();
        for i in 0..m {
            let (src, dst) = (members[i], members[(i + 1) % m]);
            let block = (i + offset + m - k % m) % m;
            let id = b.add_after(
                src,
                dst,
                blocks[block].clone(),
                op,
                step0 + k as u32,
                phase,
                deps[i],
            );
            cur.record(src, dst, id);
        }
    }
    step0 + (m - 1) as u32
}
