//! Ring AllReduce: a reduce-scatter around the ring, then an allgather around it.
//!
//! With N ranks the buffer is cut into N chunks. In reduce-scatter step k (0 ≤ k < N−1) rank i sends
//! chunk (i − k) mod N to rank i+1, which adds it to its own; after N−1 steps rank i holds chunk
//! (i+1) mod N fully reduced. The allgather then passes the reduced chunks on for N−1 more steps.
//! Every rank sends and receives 2(N−1)/N × S, whatever N is.

use super::{Cursors, Part, Scheduling, empty};
use crate::schedule::{Op, Phase, ScheduleBuilder};
use std::ops::Range;
use std::rc::Rc;

pub(super) fn ring(n: usize, size_bytes: u64) -> Scheduling {
    if n < 2 {
        return Scheduling::done(empty(n, size_bytes));
    }
    let total = 2 * n * (n - 1);
    let b = ScheduleBuilder::new(n, n, size_bytes).with_capacity(total, 2);
    let members: Rc<[usize]> = (0..n).collect();
    let blocks: Rc<[Range<usize>]> = (0..n).map(|c| c..c + 1).collect();
    let rs = RingPass::new(
        Op::Reduce,
        members.clone(),
        blocks.clone(),
        0,
        Phase::ReduceScatter,
    );
    let ag = RingPass::new(Op::Copy, members, blocks, rs.end_step(), Phase::AllGather);
    Scheduling::new(b, n, total, vec![Part::Ring(rs), Part::Ring(ag)])
}

/// One pass around a ring, m−1 steps, added a step at a time: in step k member i sends block
/// (i + offset − k) mod m to member i+1. A reduce-scatter (offset 0, reduce) leaves member i
/// with block (i+1) mod m reduced over all members; an allgather after it (offset 1, copy) passes
/// the reduced blocks on.
pub(super) struct RingPass {
    /// The ranks, in ring order.
    members: Rc<[usize]>,
    /// One block of chunks per member.
    blocks: Rc<[Range<usize>]>,
    step0: u32,
    phase: Phase,
    op: Op,
    offset: usize,
    /// The next step to add.
    k: usize,
}

impl RingPass {
    /// A reduce-scatter (`Op::Reduce`) or an allgather after it (`Op::Copy`) over `blocks`,
    /// its first step numbered `step0`. The members are distinct ranks ([`step`](Self::step)
    /// reads each one's cursors once per step).
    pub(super) fn new(
        op: Op,
        members: Rc<[usize]>,
        blocks: Rc<[Range<usize>]>,
        step0: u32,
        phase: Phase,
    ) -> RingPass {
        debug_assert!(
            (members.iter().enumerate()).all(|(i, r)| !members[..i].contains(r)),
            "a ring's members are distinct"
        );
        RingPass {
            members,
            blocks,
            step0,
            phase,
            op,
            offset: usize::from(op == Op::Copy),
            k: 0,
        }
    }

    /// The first step after this pass.
    pub(super) fn end_step(&self) -> u32 {
        self.step0 + self.members.len().saturating_sub(1) as u32
    }

    /// Adds the pass's next step; `false` when it has none left.
    pub(super) fn step(&mut self, b: &mut ScheduleBuilder, cur: &mut Cursors) -> bool {
        let m = self.members.len();
        if self.k + 1 >= m {
            return false;
        }
        let (k, members) = (self.k, &*self.members);
        // Every send of this step depends on the previous step: member i on what its rank last
        // received and sent before this step. Recording send i overwrites what its receiver,
        // member i + 1, last received, so that is read just before (member 0's is read first,
        // before any send of the step is recorded).
        let mut recv = cur.last_recv[members[0]];
        let mut block = (self.offset + m - k % m) % m;
        for i in 0..m {
            let (src, dst) = (members[i], members[if i + 1 == m { 0 } else { i + 1 }]);
            // As `add_after` would keep them: none, one, or both when they differ (perf: through
            // `add_after`, the benchmark's ring schedule took 35 ms instead of 24; making
            // `add_after` itself leaner did not close the gap).
            let (ds, len) = match (recv, cur.last_send[src]) {
                (None, None) => ([0, 0], 0),
                (Some(d), None) | (None, Some(d)) => ([d, 0], 1),
                (Some(a), Some(s)) if a == s => ([a, 0], 1),
                (Some(a), Some(s)) => ([a, s], 2),
            };
            if i + 1 < m {
                recv = cur.last_recv[dst];
            }
            let id = b.add(
                src,
                dst,
                self.blocks[block].clone(),
                self.op,
                self.step0 + k as u32,
                self.phase,
                &ds[..len],
            );
            cur.record(src, dst, id);
            block = if block + 1 == m { 0 } else { block + 1 };
        }
        self.k += 1;
        true
    }
}
