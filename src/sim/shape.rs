//! The one rule that fits a GPU count into a cluster of racks, nodes and GPUs.
//!
//! A run asks for `gpus` GPUs on nodes of at most `gpus_per_node` GPUs and racks of at most
//! `nodes_per_rack` nodes. Up to one node's worth, the GPUs share one node (a part of a node);
//! beyond, each node takes the largest divisor of the count that fits, and each rack the largest
//! divisor of the node count that fits, so the product is always exactly `gpus`. The lab uses the
//! shape as it comes; the speedup charts, which keep the machine as built, take a count only when
//! the shape is [`Shape::exact`] (every node and rack full, as asked).
//!
//! ```
//! use allreduce_sim::shape::{fit, Shape};
//! // 32 GPUs on 8-GPU nodes, 2 nodes a rack: 2 racks, as built.
//! assert_eq!(fit(32, 8, 2), Shape { racks: 2, nodes_per_rack: 2, gpus_per_node: 8 });
//! assert!(fit(32, 8, 2).exact(8, 2));
//! // 6 GPUs on 8-GPU nodes: a part of one node.
//! assert_eq!(fit(6, 8, 2), Shape { racks: 1, nodes_per_rack: 1, gpus_per_node: 6 });
//! // 12 GPUs on 8-GPU nodes do not fill nodes of 8: 3 nodes of 4, not the machine as built.
//! assert_eq!(fit(12, 8, 4), Shape { racks: 1, nodes_per_rack: 3, gpus_per_node: 4 });
//! assert!(!fit(12, 8, 4).exact(8, 4));
//! ```

/// Racks × nodes per rack × GPUs per node.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shape {
    pub racks: usize,
    pub nodes_per_rack: usize,
    pub gpus_per_node: usize,
}

impl Shape {
    /// The GPUs of the shape.
    ///
    /// ```
    /// use allreduce_sim::shape::{fit, Shape};
    /// assert_eq!(Shape { racks: 2, nodes_per_rack: 3, gpus_per_node: 4 }.gpus(), 24);
    /// assert!((1..=64).all(|n| fit(n, 8, 4).gpus() == n)); // fit keeps the count
    /// ```
    pub fn gpus(&self) -> usize {
        self.racks * self.nodes_per_rack * self.gpus_per_node
    }

    /// Whether the shape is the machine as built with nodes of `gpus_per_node` and racks of
    /// `nodes_per_rack`: nodes full (or one part of a node), racks full (or one part of a rack).
    ///
    /// ```
    /// use allreduce_sim::shape::fit;
    /// assert!(fit(4, 8, 2).exact(8, 2)); // half a node
    /// assert!(fit(24, 8, 4).exact(8, 4)); // 3 nodes of a 4-node rack
    /// assert!(!fit(40, 8, 2).exact(8, 2)); // 5 nodes do not fill racks of 2
    /// ```
    pub fn exact(&self, gpus_per_node: usize, nodes_per_rack: usize) -> bool {
        self.unfilled(gpus_per_node, nodes_per_rack).is_none()
    }

    /// What the shape leaves short of the machine as built ([`exact`](Self::exact) when
    /// nothing): its nodes first, else its racks.
    ///
    /// ```
    /// use allreduce_sim::shape::{fit, Unfilled};
    /// assert_eq!(fit(12, 8, 2).unfilled(8, 2), Some(Unfilled::Nodes)); // 3 racks × 1 × 4
    /// assert_eq!(fit(24, 8, 2).unfilled(8, 2), Some(Unfilled::Racks)); // 3 racks × 1 × 8
    /// assert_eq!(fit(32, 8, 2).unfilled(8, 2), None);
    /// ```
    pub fn unfilled(&self, gpus_per_node: usize, nodes_per_rack: usize) -> Option<Unfilled> {
        let nodes = self.racks * self.nodes_per_rack;
        let node_full = self.gpus_per_node == gpus_per_node.max(1) || nodes == 1;
        let rack_full = self.nodes_per_rack == nodes_per_rack.max(1) || self.racks == 1;
        if !node_full {
            Some(Unfilled::Nodes)
        } else if !rack_full {
            Some(Unfilled::Racks)
        } else {
            None
        }
    }
}

/// What a shape leaves short of the machine as built ([`Shape::unfilled`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unfilled {
    /// Nodes of fewer GPUs than a node has.
    Nodes,
    /// Full nodes, but racks of fewer nodes than a rack has.
    Racks,
}

fn gcd(a: usize, b: usize) -> usize {
    if b == 0 { a } else { gcd(b, a % b) }
}

/// `part` of at most `whole` each: the whole count if it fits in one, else the largest divisor of
/// `count` that is at most `whole`.
fn per_group(count: usize, whole: usize) -> usize {
    let whole = whole.max(1);
    if count <= whole {
        count
    } else {
        gcd(count, whole)
    }
}

/// The shape of `gpus` GPUs (at least 1) on nodes of at most `gpus_per_node` and racks of at most
/// `nodes_per_rack` nodes. See the module documentation.
///
/// ```
/// use allreduce_sim::shape::fit;
/// assert_eq!(fit(1, 8, 4).gpus(), 1);
/// assert_eq!(fit(96, 8, 4).gpus(), 96);
/// ```
pub fn fit(gpus: usize, gpus_per_node: usize, nodes_per_rack: usize) -> Shape {
    let gpus = gpus.max(1);
    let per_node = per_group(gpus, gpus_per_node);
    let nodes = gpus / per_node;
    let per_rack = per_group(nodes, nodes_per_rack);
    Shape {
        racks: nodes / per_rack,
        nodes_per_rack: per_rack,
        gpus_per_node: per_node,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_shape_holds_exactly_the_gpus_within_the_limits() {
        for g in 1..=16 {
            for npr in 1..=16 {
                for gpus in 1..=300 {
                    let s = fit(gpus, g, npr);
                    assert_eq!(s.gpus(), gpus);
                    assert!(s.gpus_per_node <= g && s.nodes_per_rack <= npr);
                }
                // Full nodes filling full racks are the machine as built.
                for racks in 1..=5 {
                    let built = fit(g * npr * racks, g, npr);
                    assert!(built.exact(g, npr));
                    assert_eq!(
                        (built.racks, built.nodes_per_rack, built.gpus_per_node),
                        (racks, npr, g)
                    );
                }
            }
        }
    }
}
