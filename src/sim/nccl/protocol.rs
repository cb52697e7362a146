//! NCCL's protocols and the constants of its cost model, as mechanisms.
//!
//! A protocol is how a channel moves bytes between two GPUs:
//! - **LL** (low latency): every 8-byte line carries 4 bytes of data and a 4-byte flag, written in one
//!   store, so the receiver polls the flag instead of waiting for a fence — half the wire, lowest latency.
//! - **LL128**: 128-byte lines of which 120 bytes are data and 8 a flag; needs NVLink (NCCL enables it
//!   only where the path allows it).
//! - **Simple**: full-rate copies of large steps, with a memory fence and a flag per step — full wire
//!   rate, highest latency.
//!
//! The numbers are the defaults of NCCL's tuner (`src/graph/tuning.cc`, `ncclTunerConstantsDefaults`):
//! a base latency per (algorithm, protocol), a latency per hop by link type, and per-channel caps.
//!
//! ```
//! use allreduce_sim::nccl::protocol::{Protocol, NcclAlgorithm, HopKind};
//! assert_eq!(Protocol::Ll.wire_efficiency(), 0.5);
//! assert_eq!(Protocol::Ll128.wire_efficiency(), 120.0 / 128.0);
//! // Simple pays more per hop than LL on NVLink: a fence and a flag per step.
//! assert!(HopKind::NvLink.latency_us(NcclAlgorithm::Ring, Protocol::Simple)
//!     > HopKind::NvLink.latency_us(NcclAlgorithm::Ring, Protocol::Ll));
//! ```

use serde::{Deserialize, Serialize};

/// How a channel moves bytes (see the module documentation).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, PartialOrd, Ord)]
pub enum Protocol {
    #[serde(rename = "LL")]
    Ll,
    #[serde(rename = "LL128")]
    Ll128,
    Simple,
}

impl Protocol {
    pub const ALL: [Protocol; 3] = [Protocol::Ll, Protocol::Ll128, Protocol::Simple];

    /// The name nccl-tests and NCCL's logs use.
    ///
    /// ```
    /// use allreduce_sim::nccl::protocol::Protocol;
    /// let names: Vec<_> = Protocol::ALL.iter().map(|p| p.name()).collect();
    /// assert_eq!(names, ["LL", "LL128", "Simple"]);
    /// ```
    pub fn name(self) -> &'static str {
        match self {
            Protocol::Ll => "LL",
            Protocol::Ll128 => "LL128",
            Protocol::Simple => "Simple",
        }
    }

    /// The share of the wire that carries data: LL 8 of 16 bytes per line (4 + 4 flag per 8-byte
    /// store), LL128 120 of 128, Simple all of it.
    ///
    /// # Examples
    ///
    /// ```
    /// use allreduce_sim::nccl::protocol::Protocol;
    /// // A 100 GB/s link carries 50 GB/s of data with LL, 93.75 with LL128.
    /// let data = |p: Protocol| 100.0 * p.wire_efficiency();
    /// assert_eq!((data(Protocol::Ll), data(Protocol::Ll128), data(Protocol::Simple)), (50.0, 93.75, 100.0));
    /// ```
    pub fn wire_efficiency(self) -> f64 {
        match self {
            Protocol::Ll => 0.5,
            Protocol::Ll128 => 120.0 / 128.0,
            Protocol::Simple => 1.0,
        }
    }

    /// Bytes of work per thread before NCCL adds a channel (`NCCL_*_THREAD_THRESHOLD`, comm.h); the
    /// ring's LL threshold is multiplied by the number of ranks (tuning.cc).
    ///
    /// # Examples
    ///
    /// ```
    /// use allreduce_sim::nccl::protocol::{NcclAlgorithm, Protocol};
    /// assert_eq!(Protocol::Ll.thread_threshold(NcclAlgorithm::Ring, 16), 8 * 16);
    /// assert_eq!(Protocol::Ll.thread_threshold(NcclAlgorithm::Tree, 16), 8);
    /// assert_eq!(Protocol::Simple.thread_threshold(NcclAlgorithm::Ring, 16), 64);
    /// ```
    pub fn thread_threshold(self, algorithm: NcclAlgorithm, ranks: usize) -> u64 {
        match (self, algorithm) {
            (Protocol::Ll, NcclAlgorithm::Ring) => 8 * ranks as u64,
            (Protocol::Ll, _) | (Protocol::Ll128, _) => 8,
            (Protocol::Simple, _) => 64,
        }
    }

    /// Threads per channel (`NCCL_LL_MAX_NTHREADS`, `NCCL_LL128_MAX_NTHREADS`,
    /// `NCCL_SIMPLE_MAX_NTHREADS`, device.h).
    ///
    /// # Examples
    ///
    /// ```
    /// use allreduce_sim::nccl::protocol::{NcclAlgorithm, Protocol};
    /// assert_eq!(Protocol::Ll128.max_threads(), 640);
    /// // A Simple channel is worth adding from 512 threads × 64 B = 32 KiB of message on.
    /// assert_eq!(Protocol::Simple.max_threads() * Protocol::Simple.thread_threshold(NcclAlgorithm::Ring, 8), 32 << 10);
    /// ```
    pub fn max_threads(self) -> u64 {
        match self {
            Protocol::Ll => 512,
            Protocol::Ll128 => 640,
            Protocol::Simple => 512,
        }
    }
}

impl std::fmt::Display for Protocol {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// The allreduce algorithms NCCL chooses between here.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, PartialOrd, Ord)]
pub enum NcclAlgorithm {
    /// Every channel a ring through all GPUs: reduce-scatter then allgather, 2(N−1) steps.
    Ring,
    /// A chain inside each node and a double binary tree between nodes: reduce up, broadcast down.
    Tree,
    /// NVLink SHARP: the NVSwitch adds the GPUs' data and multicasts the sum.
    #[serde(rename = "NVLS")]
    Nvls,
}

impl NcclAlgorithm {
    pub const ALL: [NcclAlgorithm; 3] = [
        NcclAlgorithm::Ring,
        NcclAlgorithm::Tree,
        NcclAlgorithm::Nvls,
    ];

    /// The name nccl-tests and NCCL's logs use.
    ///
    /// ```
    /// use allreduce_sim::nccl::protocol::NcclAlgorithm;
    /// assert_eq!(NcclAlgorithm::Nvls.name(), "NVLS");
    /// assert_eq!(NcclAlgorithm::Tree.to_string(), "Tree");
    /// ```
    pub fn name(self) -> &'static str {
        match self {
            NcclAlgorithm::Ring => "Ring",
            NcclAlgorithm::Tree => "Tree",
            NcclAlgorithm::Nvls => "NVLS",
        }
    }

    /// NCCL's base latency of one collective, in µs (`baseLatencies`). NVLS has none of its own: its
    /// whole latency is the NVLink hop's (25 µs).
    ///
    /// # Examples
    ///
    /// ```
    /// use allreduce_sim::nccl::protocol::{NcclAlgorithm, Protocol};
    /// assert_eq!(NcclAlgorithm::Ring.base_latency_us(Protocol::Ll), 6.6);
    /// assert_eq!(NcclAlgorithm::Tree.base_latency_us(Protocol::Ll128), 14.0);
    /// assert_eq!(NcclAlgorithm::Nvls.base_latency_us(Protocol::Simple), 0.0);
    /// ```
    pub fn base_latency_us(self, p: Protocol) -> f64 {
        match (self, p) {
            (NcclAlgorithm::Tree, Protocol::Ll) => 6.8,
            (NcclAlgorithm::Tree, Protocol::Ll128) => 14.0,
            (NcclAlgorithm::Tree, Protocol::Simple) => 8.4,
            (NcclAlgorithm::Ring, Protocol::Ll) => 6.6,
            (NcclAlgorithm::Ring, Protocol::Ll128) => 14.0,
            (NcclAlgorithm::Ring, Protocol::Simple) => 8.4,
            (NcclAlgorithm::Nvls, _) => 0.0,
        }
    }
}

impl std::fmt::Display for NcclAlgorithm {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// What one hop crosses, for its latency.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum HopKind {
    NvLink,
    Pcie,
    Net,
}

impl HopKind {
    /// NCCL's latency per hop in µs (`hwLatencies`), by link type, algorithm and protocol.
    ///
    /// # Examples
    ///
    /// ```
    /// use allreduce_sim::nccl::protocol::{HopKind, NcclAlgorithm, Protocol};
    /// assert_eq!(HopKind::NvLink.latency_us(NcclAlgorithm::Ring, Protocol::Ll), 0.6);
    /// assert_eq!(HopKind::Net.latency_us(NcclAlgorithm::Ring, Protocol::Simple), 14.0);
    /// assert_eq!(HopKind::NvLink.latency_us(NcclAlgorithm::Nvls, Protocol::Simple), 25.0);
    /// ```
    pub fn latency_us(self, a: NcclAlgorithm, p: Protocol) -> f64 {
        use NcclAlgorithm::*;
        use Protocol::*;
        match (self, a, p) {
            (HopKind::NvLink, Tree, Ll) => 0.6,
            (HopKind::NvLink, Tree, Ll128) => 1.25,
            (HopKind::NvLink, Tree, Simple) => 4.0,
            (HopKind::NvLink, Ring, Ll) => 0.6,
            (HopKind::NvLink, Ring, Ll128) => 1.9,
            (HopKind::NvLink, Ring, Simple) => 3.4,
            (HopKind::NvLink, Nvls, _) => 25.0,
            (HopKind::Pcie, Tree, Ll) => 1.0,
            (HopKind::Pcie, Tree, Ll128) => 1.9,
            (HopKind::Pcie, Tree, Simple) => 4.0,
            (HopKind::Pcie, Ring, Ll) => 1.0,
            (HopKind::Pcie, Ring, Ll128) => 2.5,
            (HopKind::Pcie, Ring, Simple) => 5.7,
            (HopKind::Pcie, Nvls, _) => 0.0,
            (HopKind::Net, Tree, Ll) => 5.0,
            (HopKind::Net, Tree, Ll128) => 8.5,
            (HopKind::Net, Tree, Simple) => 14.0,
            (HopKind::Net, Ring, Ll) => 2.7,
            (HopKind::Net, Ring, Ll128) => 4.0,
            (HopKind::Net, Ring, Simple) => 14.0,
            (HopKind::Net, Nvls, _) => 18.0,
        }
    }
}

/// The GPU generation, which sets NCCL's per-channel caps.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Arch {
    Ampere,
    /// Ada (RTX 40xx): Ampere's tuner row (compute capability 8.9 < 9.0).
    Ada,
    Hopper,
    Blackwell,
}

impl Arch {
    fn row(self) -> usize {
        match self {
            Arch::Ampere | Arch::Ada => 0,
            Arch::Hopper => 1,
            Arch::Blackwell => 2,
        }
    }

    /// The most one channel moves with Simple, in GB/s: NCCL's per-channel NVLink bandwidth
    /// (`SM80_NVLINK_BW` 20, `SM90_NVLINK_BW` 20.6, `SM100_NVLINK_BW` 40.1; topo.h), what one thread
    /// block copies.
    ///
    /// # Examples
    ///
    /// ```
    /// use allreduce_sim::nccl::protocol::Arch;
    /// assert_eq!(Arch::Hopper.simple_channel_gbytes(), 20.6);
    /// assert_eq!(Arch::Ada.simple_channel_gbytes(), Arch::Ampere.simple_channel_gbytes()); // one tuner row
    /// ```
    pub fn simple_channel_gbytes(self) -> f64 {
        [20.0, 20.6, 40.1][self.row()]
    }

    /// The most one ring channel moves with LL128, in GB/s (`perChMaxRingLL128Bws`).
    ///
    /// # Examples
    ///
    /// ```
    /// use allreduce_sim::nccl::protocol::Arch;
    /// assert_eq!(Arch::Ampere.ll128_channel_gbytes(), 20.0);
    /// assert_eq!(Arch::Hopper.ll128_channel_gbytes(), 36.7);
    /// ```
    pub fn ll128_channel_gbytes(self) -> f64 {
        [20.0, 36.7, 40.0][self.row()]
    }

    /// The most one tree channel moves, in GB/s (`perChMaxTreeBws`), for 1, 2 and more nodes.
    ///
    /// # Examples
    ///
    /// ```
    /// use allreduce_sim::nccl::protocol::Arch;
    /// assert_eq!(Arch::Hopper.tree_channel_gbytes(1), 38.7);
    /// assert_eq!(Arch::Hopper.tree_channel_gbytes(2), 41.4);
    /// assert_eq!(Arch::Hopper.tree_channel_gbytes(16), Arch::Hopper.tree_channel_gbytes(3)); // 3 and more
    /// ```
    pub fn tree_channel_gbytes(self, nodes: usize) -> f64 {
        let col = nodes.clamp(1, 3) - 1;
        [[24.0, 23.6, 17.8], [38.7, 41.4, 36.0], [70.0, 42.8, 24.0]][self.row()][col]
    }

    /// The most LL moves in total, in GB/s (`llMaxBws`): on one node by GPU generation; across nodes
    /// NCCL uses the host CPU's row, here the AMD EPYC one (22.5 for 2 nodes, 19 beyond).
    ///
    /// # Examples
    ///
    /// ```
    /// use allreduce_sim::nccl::protocol::Arch;
    /// assert_eq!(Arch::Hopper.ll_max_gbytes(1), 141.0);
    /// // Across nodes the host CPU's row, whatever the GPU.
    /// assert_eq!((Arch::Hopper.ll_max_gbytes(2), Arch::Ampere.ll_max_gbytes(4)), (22.5, 19.0));
    /// ```
    pub fn ll_max_gbytes(self, nodes: usize) -> f64 {
        match nodes {
            0 | 1 => [87.7, 141.0, 282.0][self.row()],
            2 => 22.5,
            _ => 19.0,
        }
    }

    /// The share of the NVLink rate NVLS reaches (`nvlsEfficiency`): Hopper 0.85, Blackwell 0.74.
    ///
    /// # Examples
    ///
    /// ```
    /// use allreduce_sim::nccl::protocol::Arch;
    /// assert_eq!(Arch::Hopper.nvls_efficiency(), 0.85);
    /// assert_eq!(Arch::Ampere.nvls_efficiency(), 0.0); // Ampere's NVSwitch cannot reduce
    /// ```
    pub fn nvls_efficiency(self) -> f64 {
        match self {
            Arch::Hopper => 0.85,
            Arch::Blackwell => 0.74,
            Arch::Ampere | Arch::Ada => 0.0,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_protocol_moves_at_most_the_wire() {
        for p in Protocol::ALL {
            assert!(p.wire_efficiency() > 0.0 && p.wire_efficiency() <= 1.0);
        }
    }

    #[test]
    fn the_network_hop_costs_more_than_nvlink_for_every_protocol() {
        for a in [NcclAlgorithm::Ring, NcclAlgorithm::Tree] {
            for p in Protocol::ALL {
                assert!(HopKind::Net.latency_us(a, p) > HopKind::NvLink.latency_us(a, p));
            }
        }
    }
}
