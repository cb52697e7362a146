//! Tree AllReduce: reduce every segment up to the root, then broadcast it back down.
//!
//! Shapes:
//! - `flat`: a star. Every rank sends to the root, which then sends the result to every rank: the
//!   root receives and sends (N−1) × S, the picture the course chapter draws.
//! - `binomial`: MPICH's binomial tree rooted at 0. A rank reduces its children's data and sends to
//!   its parent; in the broadcast a rank sends to its children one after another, largest subtree
//!   first (blocking sends). With one segment it costs ⌈log₂N⌉(2α + 2Sβ + Sγ) on `uniform`.
//! - `binary`: the in-order binary tree NCCL builds (each rank's parent found from its lowest set
//!   bit); a rank talks to both children at once, as NCCL does.
//! - double binary tree: two binary trees, each carrying half of the data, arranged so that a rank
//!   that is a leaf in one is an inner rank in the other (NCCL ≥ 2.4).
//!
//! With k segments the buffer is cut into k pieces that flow through the tree one behind another
//! (pipelining): a rank forwards segment s as soon as it has it, while segment s+1 is still coming.

use super::{Part, ScheduleBuilder, Scheduling, empty};
use crate::schedule::{Op, Phase, Schedule};

/// The shape of a single tree.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TreeShape {
    Flat,
    Binomial,
    Binary,
}

/// A rooted tree over ranks.
#[derive(Clone, Debug)]
pub(super) struct Tree {
    root: usize,
    pub(super) parent: Vec<Option<usize>>,
    /// In broadcast order.
    children: Vec<Vec<usize>>,
    /// A rank sends to its children one after another (true) or all at once (false).
    sequential_sends: bool,
}

/// The parent of position `p` in NCCL's in-order binary tree over positions `0..n`: clear the
/// lowest set bit and set the next one up; if that lies past the end, just clear it. Position 0 is
/// the root and has one child. Leaves are the odd positions.
///
/// ```
/// use allreduce_sim::algorithms::binary_tree_parent;
/// // n = 8:        0
/// //               4
/// //           2       6
/// //         1   3   5   7
/// assert_eq!(binary_tree_parent(8, 0), None);
/// assert_eq!(binary_tree_parent(8, 4), Some(0));
/// assert_eq!(binary_tree_parent(8, 6), Some(4));
/// assert_eq!(binary_tree_parent(8, 7), Some(6));
/// assert_eq!(binary_tree_parent(6, 5), Some(4));
/// ```
pub fn binary_tree_parent(n: usize, p: usize) -> Option<usize> {
    if p == 0 {
        return None;
    }
    let low = p & p.wrapping_neg();
    let up = (p ^ low) | (low << 1);
    Some(if up >= n { p ^ low } else { up })
}

impl Tree {
    pub(super) fn from_parents(parent: Vec<Option<usize>>, sequential_sends: bool) -> Tree {
        let n = parent.len();
        let mut children = vec![Vec::new(); n];
        let mut root = 0;
        for (r, p) in parent.iter().enumerate() {
            match p {
                Some(p) => children[*p].push(r),
                None => root = r,
            }
        }
        Tree {
            root,
            parent,
            children,
            sequential_sends,
        }
    }

    fn new(n: usize, shape: TreeShape) -> Tree {
        match shape {
            TreeShape::Flat => {
                Tree::from_parents((0..n).map(|r| (r > 0).then_some(0)).collect(), false)
            }
            TreeShape::Binomial => {
                let parent = (0..n).map(|r| (r > 0).then(|| r & (r - 1))).collect();
                let mut t = Tree::from_parents(parent, true);
                // MPICH's broadcast sends to the child with the largest subtree first.
                for c in &mut t.children {
                    c.reverse();
                }
                t
            }
            TreeShape::Binary => Tree::binary(n, |r| r, |p| p),
        }
    }

    /// A binary tree whose position `pos(r)` of rank r is laid out by [`binary_tree_parent`].
    fn binary(n: usize, pos: impl Fn(usize) -> usize, rank: impl Fn(usize) -> usize) -> Tree {
        let parent = (0..n)
            .map(|r| binary_tree_parent(n, pos(r)).map(&rank))
            .collect();
        Tree::from_parents(parent, false)
    }

    /// Ranks with every child before its parent.
    fn post_order(&self) -> Vec<usize> {
        let mut order = self.pre_order();
        order.reverse();
        order
    }

    /// Ranks with every parent before its children.
    fn pre_order(&self) -> Vec<usize> {
        let mut order = Vec::with_capacity(self.parent.len());
        let mut stack = vec![self.root];
        while let Some(r) = stack.pop() {
            order.push(r);
            stack.extend(self.children[r].iter().rev());
        }
        order
    }
}

pub(super) fn single_tree(
    n: usize,
    size_bytes: u64,
    segments: usize,
    shape: TreeShape,
) -> Scheduling {
    if n < 2 {
        return Scheduling::done(empty(n, size_bytes));
    }
    let k = size_bytes.max(1).min(segments as u64) as usize;
    let total = 2 * (n - 1) * k;
    let b = ScheduleBuilder::new(n, k, size_bytes).with_capacity(total, 2);
    let tree = TreeAdd::new(Tree::new(n, shape), 0, k);
    Scheduling::new(b, n, total, vec![Part::Tree(tree)])
}

pub(super) fn double_binary_tree(n: usize, size_bytes: u64, segments: usize) -> Scheduling {
    if n < 2 {
        return Scheduling::done(empty(n, size_bytes));
    }
    let k = (size_bytes / 2).max(1).min(segments as u64) as usize;
    let total = 4 * (n - 1) * k;
    let b = ScheduleBuilder::new(n, 2 * k, size_bytes).with_capacity(total, 2);
    let first = Tree::binary(n, |r| r, |p| p);
    // The second tree mirrors the first (even N) or shifts it by one (odd N), so that the first
    // tree's leaves, the odd ranks, are inner ranks of the second.
    let second = if n % 2 == 0 {
        Tree::binary(n, |r| n - 1 - r, |p| n - 1 - p)
    } else {
        Tree::binary(n, |r| (r + n - 1) % n, |p| (p + 1) % n)
    };
    let parts = vec![
        Part::Tree(TreeAdd::new(first, 0, k)),
        Part::Tree(TreeAdd::new(second, k, k)),
    ];
    Scheduling::new(b, n, total, parts)
}

/// Adds a pipelined reduce + broadcast over `tree` of the chunks `base..base+k`, one per segment.
/// NCCL's tree: a chain through the GPUs of each node and a double binary tree between nodes; two
/// trees, each carrying half the data. The first tree's chains run towards each node's first GPU,
/// the second's towards its last, so each node's two tree ends sit on different GPUs (and NICs).
/// With two nodes, each tree crosses the node boundary once per direction with half the data.
pub fn nccl_double_tree(
    nodes: usize,
    gpus_per_node: usize,
    size_bytes: u64,
    segments: usize,
) -> Schedule {
    let g = gpus_per_node.max(1);
    let n = nodes * g;
    if n < 2 {
        return empty(n, size_bytes);
    }
    let k = (size_bytes / 2).max(1).min(segments.max(1) as u64) as usize;
    let total = 4 * (n - 1) * k;
    let b = ScheduleBuilder::new(n, 2 * k, size_bytes).with_capacity(total, 2);
    let mirrored = |m: usize| -> usize {
        if nodes % 2 == 0 {
            nodes - 1 - m
        } else {
            (m + nodes - 1) % nodes
        }
    };
    let unmirror = |p: usize| -> usize {
        if nodes % 2 == 0 {
            nodes - 1 - p
        } else {
            (p + 1) % nodes
        }
    };
    let first = Tree::from_parents(
        (0..n)
            .map(|r| {
                let (node, gpu) = (r / g, r % g);
                if gpu > 0 {
                    Some(r - 1)
                } else {
                    binary_tree_parent(nodes, node).map(|p| p * g)
                }
            })
            .collect(),
        false,
    );
    let second = Tree::from_parents(
        (0..n)
            .map(|r| {
                let (node, gpu) = (r / g, r % g);
                if gpu + 1 < g {
                    Some(r + 1)
                } else {
                    binary_tree_parent(nodes, mirrored(node)).map(|p| unmirror(p) * g + g - 1)
                }
            })
            .collect(),
        false,
    );
    let parts = vec![
        Part::Tree(TreeAdd::new(first, 0, k)),
        Part::Tree(TreeAdd::new(second, k, k)),
    ];
    Scheduling::new(b, n, total, parts).finish()
}

/// A pipelined reduce + broadcast over a tree of the chunks `base..base+k`, one per segment,
/// added a segment at a time: first every segment's reduce towards the root, then every
/// segment's broadcast away from it.
pub(super) struct TreeAdd {
    tree: Tree,
    base: usize,
    k: usize,
    post: Vec<usize>,
    pre: Vec<usize>,
    /// Height (leaves 0) for reduce steps; depth (root 0) for broadcast steps.
    height: Vec<u32>,
    depth: Vec<u32>,
    received: Vec<Vec<u32>>,
    last_up: Vec<Option<u32>>,
    /// Per segment, a join of the reductions into the root: its broadcast waits for them all.
    root_has: Vec<u32>,
    last_send: Vec<Option<u32>>,
    last_to: Vec<Option<u32>>,
    /// The next segment to add: `0..k` reduce, `k..2k` broadcast.
    next: usize,
}

impl TreeAdd {
    pub(super) fn new(tree: Tree, base: usize, k: usize) -> TreeAdd {
        let n = tree.parent.len();
        let post = tree.post_order();
        let pre = tree.pre_order();
        let mut height = vec![0u32; n];
        for &r in &post {
            if let Some(p) = tree.parent[r] {
                height[p] = height[p].max(height[r] + 1);
            }
        }
        let mut depth = vec![0u32; n];
        for &r in &pre {
            if let Some(p) = tree.parent[r] {
                depth[r] = depth[p] + 1;
            }
        }
        TreeAdd {
            tree,
            base,
            k,
            post,
            pre,
            height,
            depth,
            received: vec![Vec::new(); n],
            last_up: vec![None; n],
            root_has: Vec::with_capacity(k),
            last_send: vec![None; n],
            last_to: vec![None; n],
            next: 0,
        }
    }

    /// Adds the next segment's reduce or broadcast; `false` when none is left.
    pub(super) fn step(&mut self, b: &mut ScheduleBuilder) -> bool {
        let (base, k, s) = (self.base, self.k, self.next);
        if s < k {
            self.reduce(b, base + s, s as u32);
        } else if s < 2 * k {
            self.broadcast(b, base + s - k, s - k);
        } else {
            return false;
        }
        self.next += 1;
        true
    }

    fn reduce(&mut self, b: &mut ScheduleBuilder, chunk: usize, s: u32) {
        let tree = &self.tree;
        for r in self.received.iter_mut() {
            r.clear();
        }
        for &r in &self.post {
            let Some(p) = tree.parent[r] else { continue };
            // Wait for every child's segment s, and for this rank's previous send to its parent.
            let mut deps = self.received[r].clone();
            deps.extend(self.last_up[r]);
            let id = b.add(
                r,
                p,
                chunk..chunk + 1,
                Op::Reduce,
                s + self.height[r],
                Phase::Reduce,
                &deps,
            );
            self.last_up[r] = Some(id);
            self.received[p].push(id);
        }
        self.root_has.push(b.join(&self.received[tree.root]));
    }

    fn broadcast(&mut self, b: &mut ScheduleBuilder, chunk: usize, s: usize) {
        let tree = &self.tree;
        let bcast_base = self.k as u32 + self.height[tree.root];
        let root_join = self.root_has[s];
        for &r in &self.pre {
            for &c in &tree.children[r] {
                // The root waits for the whole reduce of segment s; any other rank for the segment
                // from its parent, sent earlier in this pre-order pass.
                let mut deps: Vec<u32> = match tree.parent[r] {
                    Some(_) => self.last_to[r].into_iter().collect(),
                    None => vec![root_join],
                };
                let before = if tree.sequential_sends {
                    self.last_send[r]
                } else {
                    self.last_to[c]
                };
                deps.extend(before);
                let id = b.add(
                    r,
                    c,
                    chunk..chunk + 1,
                    Op::Copy,
                    bcast_base + s as u32 + self.depth[r],
                    Phase::Broadcast,
                    &deps,
                );
                self.last_send[r] = Some(id);
                self.last_to[c] = Some(id);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn is_tree(t: &Tree) -> bool {
        let n = t.parent.len();
        t.pre_order().len() == n && t.parent.iter().filter(|p| p.is_none()).count() == 1
    }

    #[test]
    fn nccl_double_tree_is_two_spanning_trees_with_chains_inside_nodes() {
        for nodes in 1..12 {
            for g in 1..=8 {
                let s = nccl_double_tree(nodes, g, 1 << 20, 4);
                if nodes * g < 2 {
                    continue;
                }
                assert_eq!(s.len(), 4 * (nodes * g - 1) * 4, "nodes={nodes} g={g}");
                // Inside a node every tree edge joins neighbouring GPUs.
                for t in s.transfers() {
                    let (a, b) = (t.src() as usize, t.dst() as usize);
                    if a / g == b / g {
                        assert_eq!(a.abs_diff(b), 1);
                    }
                }
            }
        }
    }

    #[test]
    fn every_shape_is_a_spanning_tree() {
        for n in 1..200 {
            for shape in [TreeShape::Flat, TreeShape::Binomial, TreeShape::Binary] {
                assert!(is_tree(&Tree::new(n, shape)), "{shape:?} n={n}");
            }
        }
    }

    #[test]
    fn binary_trees_have_at_most_two_children() {
        for n in 1..300 {
            let t = Tree::new(n, TreeShape::Binary);
            assert!(t.children.iter().all(|c| c.len() <= 2), "n={n}");
        }
    }

    #[test]
    fn double_binary_tree_leaves_of_one_are_inner_in_the_other() {
        for n in [4usize, 8, 16, 9, 15] {
            let first = Tree::binary(n, |r| r, |p| p);
            let second = if n % 2 == 0 {
                Tree::binary(n, |r| n - 1 - r, |p| n - 1 - p)
            } else {
                Tree::binary(n, |r| (r + n - 1) % n, |p| (p + 1) % n)
            };
            assert!(is_tree(&second));
            for r in 0..n {
                if first.children[r].is_empty() && r != first.root {
                    assert!(
                        !second.children[r].is_empty() || second.root == r,
                        "n={n}: rank {r} is a leaf in both"
                    );
                }
            }
        }
    }

    #[test]
    fn segments_are_capped_by_bytes_without_overflow_on_32_bit_targets() {
        // 8 GiB does not fit a 32-bit usize: the cap must be computed in u64.
        let big = 8u64 << 30;
        assert_eq!(
            single_tree(4, big, 32, TreeShape::Binary).finish().chunks(),
            32
        );
        assert_eq!(double_binary_tree(4, big, 32).finish().chunks(), 64);
        assert_eq!(
            single_tree(4, 3, 32, TreeShape::Binary).finish().chunks(),
            3
        );
    }
}
