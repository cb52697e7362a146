//! Published all_reduce_perf tables (float, sum, as printed by nccl-tests), with their sources: what
//! the model is checked against and what the app overlays. The sources and the facts from them are
//! in `published/README.md`.
//!
//! ```
//! use allreduce_sim::nccl::published::{for_system, PUBLISHED};
//! let h100 = for_system("dgx-h100", 1).unwrap();
//! assert_eq!(h100.table().rows.len(), 11);
//! assert!(h100.source.contains("dgxc-benchmarking"));
//! assert!(for_system("dgx-b200", 1).is_none());
//! assert_eq!(PUBLISHED.len(), 4);
//! ```

use super::nccl_tests_parse::{MeasuredTable, parse};

/// One published table and the system preset it belongs to.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Published {
    pub system: &'static str,
    pub nodes: usize,
    pub gpus_per_node: usize,
    /// Who published it, where.
    pub source: &'static str,
    /// Measured with NVLink SHARP (NVLS) on: a prediction without it is slower by design.
    pub nvls: bool,
    /// The table as published.
    pub text: &'static str,
}

impl Published {
    /// The parsed rows (the embedded tables always parse; tested).
    ///
    /// ```
    /// use allreduce_sim::nccl::published::for_system;
    /// let rows = for_system("dgx-h100", 1).unwrap().table().rows;
    /// assert_eq!(rows.len(), 11);
    /// // float: 4 bytes an element, sizes growing.
    /// assert!(rows.iter().all(|r| r.count * 4 == r.size_bytes));
    /// assert!(rows.windows(2).all(|w| w[0].size_bytes < w[1].size_bytes));
    /// ```
    pub fn table(&self) -> MeasuredTable {
        parse(self.text).unwrap_or(MeasuredTable { rows: Vec::new() })
    }
}

pub const PUBLISHED: [Published; 4] = [
    Published {
        system: "dgx-a100",
        nodes: 1,
        gpus_per_node: 8,
        source: "Azure AML_NCCL_Test README (8× A100 SXM4, NVSwitch)",
        nvls: false,
        text: include_str!("published/dgx-a100-1node.txt"),
    },
    Published {
        system: "dgx-a100",
        nodes: 2,
        gpus_per_node: 8,
        source: "JingchaoZhang.github.io, 'NCCL test on AKS NDmV4 VM' (2 × 8 A100, 8× HDR 200 Gb/s)",
        nvls: false,
        text: include_str!("published/dgx-a100-2nodes-ib-hdr.txt"),
    },
    Published {
        system: "dgx-h100",
        nodes: 1,
        gpus_per_node: 8,
        source: "NVIDIA/dgxc-benchmarking nccl/README.md (8× H100 SXM, NVLS on)",
        nvls: true,
        text: include_str!("published/dgx-h100-1node.txt"),
    },
    Published {
        system: "pcie-gen4-8",
        nodes: 1,
        gpus_per_node: 8,
        source: "blog 'RTX4090 GPUDirect P2P Unlocked!' (8× RTX 4090, PCIe Gen4, P2P off)",
        nvls: false,
        text: include_str!("published/pcie-gen4-8-rtx4090-no-p2p.txt"),
    },
];

/// The published table of a system at a size, if there is one.
///
/// ```
/// use allreduce_sim::nccl::published::for_system;
/// let two = for_system("dgx-a100", 2).unwrap();
/// assert_eq!((two.nodes, two.gpus_per_node), (2, 8));
/// assert!(for_system("dgx-a100", 3).is_none());
/// ```
pub fn for_system(system: &str, nodes: usize) -> Option<&'static Published> {
    PUBLISHED
        .iter()
        .find(|p| p.system == system && p.nodes == nodes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_published_table_parses_whole() {
        for p in &PUBLISHED {
            let t = parse(p.text).unwrap();
            assert!(t.rows.len() >= 6, "{}", p.system);
            assert_eq!(t.implied_ranks(), Some(p.nodes * p.gpus_per_node));
        }
    }
}
