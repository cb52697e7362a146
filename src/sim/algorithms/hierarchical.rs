//! Hierarchical AllReduce: reduce-scatter inside every node, allreduce between nodes among the GPUs
//! that hold the same shard, allgather inside every node.
//!
//! With g GPUs per node and M nodes the buffer is cut into g shards of M pieces (g·M chunks). Inside a
//! node a ring reduce-scatter leaves local GPU l with shard (l+1) mod g summed over the node; the M
//! GPUs holding that shard (one per node) run a ring allreduce on its M pieces over the network; a ring
//! allgather inside every node then spreads the shards. Only 1/g of the data crosses the slow tier per
//! GPU, and all g GPUs of a node use the network at once.

use super::ring::{ring_allgather, ring_reduce_scatter};
use super::{empty, Cursors};
use crate::sim::schedule::{Phase, Schedule, ScheduleBuilder};
use std::ops::Range;

pub(super) fn hierarchical(n: usize, gpus_per_node: usize, size_bytes: u64) -> Schedule {
    if n < 2 {
        return empty(n, size_bytes);
    }
    let g = gpus_per_node.clamp(1, n);
    let m = n / g;
    let mut b = ScheduleBuilder::new(n, g * m, size_bytes);
    let mut cur = Cursors::new(n);
    let shards: Vec<Range<usize>> = (0..g).map(|j| j * m..(j + 1) * m).collect();
    let nodes: Vec<Vec<usize>> = (0..m)
        .map(|node| (node * g..(node + 1) * g).collect())
        .collect();
    let mut step = 0;
    for members in &nodes {
        step = ring_reduce_scatter(&mut b, &mut cur, members, &shards, 0, Phase::ReduceScatter);
    }
    let mut inter_end = step;
    for l in 0..g {
        let members: Vec<usize> = (0..m).map(|node| node * g + l).collect();
        let shard = (l + 1) % g;
        let pieces: Vec<Range<usize>> = shards[shard].clone().map(|c| c..c + 1).collect();
        let s = ring_reduce_scatter(&mut b, &mut cur, &members, &pieces, step, Phase::InterNode);
        inter_end = ring_allgather(&mut b, &mut cur, &members, &pieces, s, Phase::InterNode);
    }
    for members in &nodes {
        ring_allgather(
            &mut b,
            &mut cur,
            members,
            &shards,
            inter_end,
            Phase::AllGather,
        );
    }
    b.build()
}
