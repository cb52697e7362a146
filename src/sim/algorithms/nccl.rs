//! NCCL's own shapes, laid out on the topology as NCCL lays them out on a cluster.
//!
//! **Channels.** NCCL runs a collective over several channels at once, each with its own ring or tree
//! and its share of the data, so that every NIC of a node carries traffic. Here there is one channel
//! per NIC: 1 on `uniform`, K on `cluster` with K NICs per node, one per GPU (rail) on `rail`.
//! Channel c enters every node at the first GPU of NIC c (on `rail`, GPU c).
//!
//! **`nccl-ring`.** Channel c's ring visits the nodes in order; inside a node it goes through every
//! GPU over NVLink, starting at the GPU of NIC c and ending at the GPU before it, which sends to the
//! next node's GPU of NIC c. On `rail` that hop stays on rail c only with PXN (an NVLink hop to the
//! GPU on rail c first); without PXN it crosses the spine. Each channel's share of the buffer is cut
//! into `segments` slices that follow one another around the ring (NCCL's pipelined steps): a rank
//! sends slice i of a step once it has received slice i of the step before and its send of slice
//! i−1 of this step is done.
//!
//! **`nccl-tree`.** Inside each node the GPUs form a chain, from the GPU of the channel's NIC (the
//! chain's head) through the others; across nodes the heads form a double binary tree (two
//! complementary binary trees over the nodes, each carrying half of the channel's data, as NCCL ≥ 2.4
//! does). Data is reduced up the chains and the tree, then broadcast back down, pipelined in
//! `segments` pieces. Only the heads use the network. On two nodes each node's NICs carry S each way,
//! 2(M−1)/M × S, the least any allreduce needs; on more, a node is inside one tree (1.5 × S each
//! way) and a leaf of the other (0.5 × S), about 2 × S, a little more than a ring's 2(N−1)/N × S
//! (`hierarchical` carries the least, 2(M−1)/M × S).
//! What the tree saves is latency: about 2·log₂M steps across nodes instead of 2(M−1).
//!
//! ```
//! use allreduce_sim::algorithms::{self, nccl_rings, Algorithm};
//! use allreduce_sim::topology::{Topology, TopologySpec};
//! use allreduce_sim::units::Bandwidth;
//! let topo = Topology::new(&TopologySpec::Cluster {
//!     racks: 1, nodes_per_rack: 2, gpus_per_node: 4,
//!     intra_bw: Bandwidth::from_gbytes_per_sec(450.0), intra_lat_secs: 1e-6,
//!     node_bw: Bandwidth::from_gbits_per_sec(400.0), node_lat_secs: 2e-6,
//!     rack_bw: Bandwidth::from_gbits_per_sec(400.0), rack_lat_secs: 5e-6,
//!     oversubscription: 1.0, nics_per_node: 2,
//! }).unwrap();
//! // Two channels: one enters each node at GPU 0 (NIC 0), the other at GPU 2 (NIC 1).
//! assert_eq!(nccl_rings(&topo), vec![vec![0, 1, 2, 3, 4, 5, 6, 7], vec![2, 3, 0, 1, 6, 7, 4, 5]]);
//! let s = algorithms::schedule(Algorithm::NcclRing, &topo, 1 << 20, 1);
//! assert_eq!(s.len(), 2 * 2 * 8 * 7);
//! ```

use super::tree::{Tree, TreeAdd, binary_tree_parent};
use super::{Part, ScheduleBuilder, Scheduling, empty};
use crate::schedule::{Op, Phase};
use crate::topology::Topology;

/// How many channels NCCL's shapes use on `topo`: one per NIC of a node.
///
/// ```
/// use allreduce_sim::algorithms::channels;
/// use allreduce_sim::{topology::{Topology, TopologySpec}, units::Bandwidth};
/// let uniform = Topology::new(&TopologySpec::Uniform {
///     ranks: 8, bandwidth: Bandwidth::from_gbytes_per_sec(1.0), latency_secs: 0.0 }).unwrap();
/// assert_eq!(channels(&uniform), 1);
/// let cluster = Topology::new(&TopologySpec::Cluster {
///     racks: 1, nodes_per_rack: 2, gpus_per_node: 4,
///     intra_bw: Bandwidth::from_gbytes_per_sec(450.0), intra_lat_secs: 1e-6,
///     node_bw: Bandwidth::from_gbits_per_sec(400.0), node_lat_secs: 2e-6,
///     rack_bw: Bandwidth::from_gbits_per_sec(400.0), rack_lat_secs: 5e-6,
///     oversubscription: 1.0, nics_per_node: 2,
/// }).unwrap();
/// assert_eq!(channels(&cluster), 2);
/// ```
pub fn channels(topo: &Topology) -> usize {
    topo.nics_per_node().max(1)
}

/// The local index of the GPU at which channel `c` enters (and, on a tree, heads) every node.
fn entry_gpu(topo: &Topology, c: usize) -> usize {
    topo.first_gpu_of_nic(c % topo.nics_per_node().max(1)) % topo.gpus_per_node()
}

/// Every channel's ring, in ring order.
pub fn nccl_rings(topo: &Topology) -> Vec<Vec<usize>> {
    let g = topo.gpus_per_node();
    (0..channels(topo))
        .map(|c| {
            let e = entry_gpu(topo, c);
            (0..topo.nodes())
                .flat_map(|m| (0..g).map(move |j| m * g + (e + j) % g))
                .collect()
        })
        .collect()
}

pub(super) fn nccl_ring(topo: &Topology, size_bytes: u64, segments: usize) -> Scheduling {
    let n = topo.ranks();
    if n < 2 {
        return Scheduling::done(empty(n, size_bytes));
    }
    let rings = nccl_rings(topo);
    let c = rings.len();
    let loops = (size_bytes / (c * n) as u64).clamp(1, segments.max(1) as u64) as usize;
    let steps = 2 * (n - 1);
    let total = c * loops * steps * n;
    let b = ScheduleBuilder::new(n, c * loops * n, size_bytes).with_capacity(total, 2);
    let part = NcclRings {
        rings,
        loops,
        ch: 0,
        i: 0,
        k: 0,
        prev: Vec::new(),
        last_recv: Vec::new(),
    };
    Scheduling::new(b, n, total, vec![Part::NcclRing(part)])
}

/// Every channel's ring, `loops` slices each, added a ring step (one send per rank) at a time.
pub(super) struct NcclRings {
    rings: Vec<Vec<usize>>,
    loops: usize,
    /// The next step to add: channel, slice, step.
    ch: usize,
    i: usize,
    k: usize,
    /// This channel's last send of each step by each ring position.
    prev: Vec<Vec<Option<u32>>>,
    /// This slice's last receive by each ring position.
    last_recv: Vec<Option<u32>>,
}

impl NcclRings {
    /// Adds the next ring step; `false` when none is left.
    pub(super) fn step(&mut self, b: &mut ScheduleBuilder) -> bool {
        let Some(ring) = self.rings.get(self.ch) else {
            return false;
        };
        let n = ring.len();
        let steps = 2 * (n - 1);
        let (ch, i, k) = (self.ch, self.i, self.k);
        if i == 0 && k == 0 {
            self.prev = vec![vec![None; n]; steps];
        }
        if k == 0 {
            self.last_recv = vec![None; n];
        }
        let base = (ch * self.loops + i) * n;
        let (op, phase, block_of): (Op, Phase, &dyn Fn(usize) -> usize) = if k < n - 1 {
            (Op::Reduce, Phase::ReduceScatter, &|p| (p + n - k) % n)
        } else {
            let j = k - (n - 1);
            (Op::Copy, Phase::AllGather, &move |p| (p + 1 + n - j) % n)
        };
        let prev_k = &mut self.prev[k];
        let mut recv: Vec<Option<u32>> = vec![None; n];
        for p in 0..n {
            let (src, dst) = (ring[p], ring[(p + 1) % n]);
            let block = base + block_of(p);
            let id = b.add_after(
                src,
                dst,
                block..block + 1,
                op,
                (i + k) as u32,
                phase,
                [self.last_recv[p], prev_k[p]],
            );
            prev_k[p] = Some(id);
            recv[(p + 1) % n] = Some(id);
        }
        self.last_recv = recv;
        self.k += 1;
        if self.k == steps {
            self.k = 0;
            self.i += 1;
            if self.i == self.loops {
                self.i = 0;
                self.ch += 1;
            }
        }
        true
    }
}

/// The parent node of node `m` of `nodes` in half `h` (0 or 1) of the double binary tree: the
/// second tree mirrors the first (even count) or shifts it by one (odd), as NCCL does, so that a
/// leaf of one is an inner node of the other.
fn node_parent(nodes: usize, m: usize, h: usize) -> Option<usize> {
    if h == 0 {
        binary_tree_parent(nodes, m)
    } else if nodes % 2 == 0 {
        binary_tree_parent(nodes, nodes - 1 - m).map(|p| nodes - 1 - p)
    } else {
        binary_tree_parent(nodes, (m + nodes - 1) % nodes).map(|p| (p + 1) % nodes)
    }
}

/// Channel `c`'s tree of half `h` over every rank: chains inside nodes, heads joined across nodes.
fn channel_tree(topo: &Topology, c: usize, h: usize) -> Tree {
    let (g, nodes) = (topo.gpus_per_node(), topo.nodes());
    let e = entry_gpu(topo, c);
    let parent = (0..topo.ranks())
        .map(|r| {
            let (m, q) = (r / g, (r % g + g - e) % g);
            if q > 0 {
                Some(m * g + (e + q - 1) % g)
            } else {
                node_parent(nodes, m, h).map(|pm| pm * g + e)
            }
        })
        .collect();
    Tree::from_parents(parent, false)
}

pub(super) fn nccl_tree(topo: &Topology, size_bytes: u64, segments: usize) -> Scheduling {
    let n = topo.ranks();
    if n < 2 {
        return Scheduling::done(empty(n, size_bytes));
    }
    let trees = 2 * channels(topo);
    let k = (size_bytes / trees as u64).clamp(1, segments.max(1) as u64) as usize;
    let total = 2 * (n - 1) * k * trees;
    let b = ScheduleBuilder::new(n, trees * k, size_bytes).with_capacity(total, 2);
    let parts = (0..trees)
        .map(|t| Part::Tree(TreeAdd::new(channel_tree(topo, t / 2, t % 2), t * k, k)))
        .collect();
    Scheduling::new(b, n, total, parts)
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::fixtures::rail;

    #[test]
    fn every_channel_ring_visits_every_rank_once_and_crosses_nodes_on_its_rail() {
        let topo = rail(4, 8);
        let rings = nccl_rings(&topo);
        assert_eq!(rings.len(), 8);
        for (c, ring) in rings.iter().enumerate() {
            let mut sorted = ring.clone();
            sorted.sort_unstable();
            assert_eq!(sorted, (0..32).collect::<Vec<_>>());
            for p in 0..32 {
                let (a, b) = (ring[p], ring[(p + 1) % 32]);
                if a / 8 != b / 8 {
                    // Enters the next node on rail c.
                    assert_eq!(b % 8, c);
                }
            }
        }
    }

    #[test]
    fn channel_trees_chain_inside_nodes_and_join_heads_across_nodes() {
        let topo = rail(4, 8);
        for c in 0..8 {
            for h in 0..2 {
                let t = channel_tree(&topo, c, h);
                // One root, every rank reached; cross-node edges only between heads of rail c.
                assert_eq!(t.parent.iter().filter(|p| p.is_none()).count(), 1);
                for (r, p) in t.parent.iter().enumerate() {
                    if let Some(p) = *p {
                        if p / 8 != r / 8 {
                            assert_eq!((r % 8, p % 8), (c, c));
                        }
                    }
                }
            }
        }
        // The two halves' node trees are complementary: a leaf node of one is inner in the other.
        for nodes in [2usize, 3, 4, 5, 8] {
            for m in 0..nodes {
                let inner = |h| {
                    (0..nodes).any(|x| node_parent(nodes, x, h) == Some(m))
                        || node_parent(nodes, m, h).is_none()
                };
                assert!(inner(0) || inner(1), "nodes={nodes} m={m}");
            }
        }
    }
}
