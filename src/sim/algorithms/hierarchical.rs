//! Hierarchical AllReduce: reduce-scatter inside every node, allreduce between nodes among the GPUs
//! that hold the same shard, allgather inside every node.
//!
//! With g GPUs per node and M nodes the buffer is cut into g shards of M pieces (g·M chunks). Inside a
//! node a ring reduce-scatter leaves local GPU l with shard (l+1) mod g summed over the node; the M
//! GPUs holding that shard (one per node) run a ring allreduce on its M pieces over the network; a ring
//! allgather inside every node then spreads the shards. Only 1/g of the data crosses the slow tier per
//! GPU, and all g GPUs of a node use the network at once.

use super::ring::RingPass;
use super::{Part, Scheduling, empty};
use crate::schedule::{Op, Phase, ScheduleBuilder};
use std::ops::Range;
use std::rc::Rc;

pub(super) fn hierarchical(n: usize, gpus_per_node: usize, size_bytes: u64) -> Scheduling {
    if n < 2 {
        return Scheduling::done(empty(n, size_bytes));
    }
    let g = gpus_per_node.clamp(1, n);
    let m = n / g;
    let b = ScheduleBuilder::new(n, g * m, size_bytes);
    let shards: Rc<[Range<usize>]> = (0..g).map(|j| j * m..(j + 1) * m).collect();
    let nodes: Vec<Rc<[usize]>> = (0..m)
        .map(|node| (node * g..(node + 1) * g).collect())
        .collect();
    let mut parts = Vec::with_capacity(2 * m + 2 * g);
    let mut step = 0;
    for members in &nodes {
        let pass = RingPass::new(
            Op::Reduce,
            members.clone(),
            shards.clone(),
            0,
            Phase::ReduceScatter,
        );
        step = pass.end_step();
        parts.push(Part::Ring(pass));
    }
    let mut inter_end = step;
    for l in 0..g {
        let members: Rc<[usize]> = (0..m).map(|node| node * g + l).collect();
        let shard = (l + 1) % g;
        let pieces: Rc<[Range<usize>]> = shards[shard].clone().map(|c| c..c + 1).collect();
        let rs = RingPass::new(
            Op::Reduce,
            members.clone(),
            pieces.clone(),
            step,
            Phase::InterNode,
        );
        let ag = RingPass::new(Op::Copy, members, pieces, rs.end_step(), Phase::InterNode);
        inter_end = ag.end_step();
        parts.push(Part::Ring(rs));
        parts.push(Part::Ring(ag));
    }
    for members in nodes {
        parts.push(Part::Ring(RingPass::new(
            Op::Copy,
            members,
            shards.clone(),
            inter_end,
            Phase::AllGather,
        )));
    }
    let total = 2 * m * g * (g - 1) + 2 * g * m * (m - 1);
    Scheduling::new(b, n, total, parts)
}
