//! Real systems: what their links are, how much of the datasheet real copies reach, and where the
//! numbers come from.
//!
//! A [`System`] is the few numbers that differ between machines: the GPU link (NVLink through
//! NVSwitch, or PCIe with or without peer-to-peer) with its datasheet rate and the share of it that
//! NCCL's copies reach, the NICs, the network's latency per message, the fixed cost of launching one
//! collective, and how many channels NCCL builds. Everything else — protocols, per-hop latencies,
//! per-channel caps, the choice — is NCCL's mechanism (see [`protocol`](super::protocol)).
//!
//! ```
//! use allreduce_sim::nccl::system::System;
//! let h100 = System::preset("dgx-h100", 2, 8).unwrap();
//! assert_eq!(h100.ranks(), 16);
//! // Across nodes this model offers no NVLS (NCCL ≥ 2.18 has NVLS-Tree: NVLS inside the node, a
//! // tree over the network between them; not modelled here).
//! assert!(!h100.nvls_available());
//! assert!(System::preset("dgx-h100", 1, 8).unwrap().nvls_available());
//! assert!(System::preset("dgx-a100", 1, 8).unwrap().nvls_available() == false);
//! assert!(System::preset("dgx-h100", 1, 4).unwrap().nvls_available() == false); // < 5 GPUs
//! assert!(System::preset("cray-1", 1, 8).unwrap_err().to_string().contains("dgx-h100"));
//! ```
//!
//! Size: over 450 lines because the systems are data (presets with their published sources) beside
//! the rules that size them.

use super::protocol::{Arch, HopKind};
use crate::algorithms::Algorithm;
use crate::scenario::{Scenario, ScenarioError};
use crate::topology::{TopologyError, TopologySpec};
use crate::units::Bandwidth;
use serde::{Deserialize, Serialize};

/// The GPU-to-GPU path inside a node.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum IntraLink {
    /// NVLink to NVSwitch: every GPU reaches every other at its full NVLink rate.
    NvSwitch,
    /// PCIe with GPU peer-to-peer: copies go GPU to GPU through the PCIe switches.
    PciePeerToPeer,
    /// PCIe without peer-to-peer: every byte is staged through host memory by the CPU side.
    PcieThroughHost,
}

impl IntraLink {
    /// The kind of hop, for NCCL's per-hop latency.
    ///
    /// # Examples
    ///
    /// ```
    /// use allreduce_sim::nccl::{protocol::HopKind, system::{IntraLink, System}};
    /// assert_eq!(IntraLink::NvSwitch.hop(), HopKind::NvLink);
    /// assert_eq!(IntraLink::PcieThroughHost.hop(), HopKind::Pcie);
    /// assert_eq!(System::preset("pcie-gen4-8", 1, 8).unwrap().intra_link.hop(), HopKind::Pcie);
    /// ```
    pub fn hop(self) -> HopKind {
        match self {
            IntraLink::NvSwitch => HopKind::NvLink,
            IntraLink::PciePeerToPeer | IntraLink::PcieThroughHost => HopKind::Pcie,
        }
    }
}

/// One machine class, with its size.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct System {
    /// The preset's id, or a name given by `calibrate`.
    pub name: String,
    pub arch: Arch,
    pub intra_link: IntraLink,
    /// Each GPU's link into the node, per direction, from the datasheet (GB/s, 1e9 B/s).
    pub intra_gbytes_per_sec: f64,
    /// The share of `intra_gbytes_per_sec` NCCL's copies reach at large sizes, and why.
    pub intra_efficiency: f64,
    pub intra_efficiency_reason: String,
    /// NICs per node and each one's line rate (Gb/s).
    pub nics_per_node: usize,
    pub nic_gbits_per_sec: f64,
    /// The share of the NICs' line rate delivered to NCCL (headers, PCIe to the NIC, the proxy).
    pub nic_efficiency: f64,
    /// Latency a message pays crossing the network (NIC, switch, proxy thread), µs.
    pub net_latency_us: f64,
    /// The fixed cost of one collective (kernel launch, first handshake) for Ring/LL, µs; other
    /// (algorithm, protocol) pairs add NCCL's base-latency differences to it.
    pub launch_us: f64,
    /// Channels NCCL builds for Ring and Tree.
    pub channels: usize,
    /// Channels NVLS uses (0 when the switch cannot reduce).
    pub nvls_channels: usize,
    /// Whether NCCL enables LL128 on this path (NVLink only).
    pub ll128: bool,
    pub nodes: usize,
    pub gpus_per_node: usize,
    /// Where the numbers come from.
    pub sources: Vec<String>,
}

/// A bounded number of a [`System`], by its field name in a system file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SystemField {
    IntraGbytesPerSec,
    IntraEfficiency,
    NicGbitsPerSec,
    NicEfficiency,
    NetLatencyUs,
    LaunchUs,
}

impl SystemField {
    /// The field's name in a system file (the same in every language).
    ///
    /// # Examples
    ///
    /// ```
    /// use allreduce_sim::nccl::system::{System, SystemError, SystemField};
    /// let mut h100 = System::preset("dgx-h100", 1, 8).unwrap();
    /// h100.nic_efficiency = 1.5;
    /// let Err(SystemError::FieldOutOfRange { field, hi, .. }) = h100.validate() else { panic!() };
    /// assert_eq!((field, field.name(), hi), (SystemField::NicEfficiency, "nic_efficiency", 1.0));
    /// ```
    pub fn name(self) -> &'static str {
        match self {
            SystemField::IntraGbytesPerSec => "intra_gbytes_per_sec",
            SystemField::IntraEfficiency => "intra_efficiency",
            SystemField::NicGbitsPerSec => "nic_gbits_per_sec",
            SystemField::NicEfficiency => "nic_efficiency",
            SystemField::NetLatencyUs => "net_latency_us",
            SystemField::LaunchUs => "launch_us",
        }
    }
}

/// Why a system cannot be used: the kind and its values.
#[derive(Clone, Debug, PartialEq)]
pub enum SystemError {
    /// A preset id that does not exist.
    UnknownPreset {
        id: String,
    },
    /// Text that is not a system's JSON; `detail` is the JSON reader's own (English) account.
    NotASystemFile {
        line: usize,
        column: usize,
        detail: String,
    },
    NodesOutOfRange {
        got: usize,
        max: usize,
    },
    /// GPUs per node outside 2..=8.
    GpusPerNodeOutOfRange {
        got: usize,
    },
    FieldOutOfRange {
        field: SystemField,
        got: f64,
        lo: f64,
        hi: f64,
    },
    /// NICs per node outside 1..=64.
    NicsOutOfRange {
        got: usize,
    },
    /// Channels outside 1..=64 or NVLS channels above 64.
    ChannelsOutOfRange,
    /// LL128 on a system without NVLink.
    Ll128NeedsNvlink,
    /// A message of 0 bytes.
    EmptyMessage,
    /// A message above [`MAX_SIZE_BYTES`](crate::scenario::MAX_SIZE_BYTES), the textbook
    /// model's limit too.
    MessageTooLarge {
        bytes: u64,
    },
    /// No (algorithm, protocol) candidate could run.
    NoCandidate,
    /// The nccl model's speedup is predicted up to `max` GPUs.
    TooManyGpusForScaling {
        got: usize,
        max: usize,
    },
    /// One GPU has no allreduce to predict.
    OneGpu,
    /// A schedule that did not verify (a bug); the verifier's account.
    Unverified {
        detail: String,
    },
    Topology(TopologyError),
    /// The training model's bounds.
    Training(Box<ScenarioError>),
}

impl std::fmt::Display for SystemError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        use SystemError as E;
        match self {
            E::UnknownPreset { id } => write!(
                f,
                "unknown system '{id}'; expected one of: {}",
                PRESETS.join(", ")
            ),
            E::NotASystemFile {
                line,
                column,
                detail,
            } => write!(
                f,
                "not a system file (line {line}, column {column}): {detail}"
            ),
            E::NodesOutOfRange { got, max } => {
                write!(f, "nodes must be between 1 and {max}, got {got}")
            }
            E::GpusPerNodeOutOfRange { got } => {
                write!(f, "GPUs per node must be between 2 and 8, got {got}")
            }
            E::FieldOutOfRange { field, got, lo, hi } => write!(
                f,
                "{} must lie between {lo} and {hi}, got {}",
                field.name(),
                crate::faults::short(*got)
            ),
            E::NicsOutOfRange { got } => {
                write!(f, "nics_per_node must be between 1 and 64, got {got}")
            }
            E::ChannelsOutOfRange => {
                f.write_str("channels must be between 1 and 64 (nvls_channels between 0 and 64)")
            }
            E::Ll128NeedsNvlink => {
                f.write_str("ll128 needs NVLink (NCCL enables LL128 only up to NVLink paths)")
            }
            E::EmptyMessage => f.write_str("size must be at least 1 byte"),
            E::MessageTooLarge { bytes } => {
                write!(f, "size must be at most 1 TB, got {bytes} bytes")
            }
            E::NoCandidate => f.write_str("no candidate could run"),
            E::TooManyGpusForScaling { got, max } => write!(
                f,
                "the nccl model predicts speedup up to {max} GPUs, got {got}"
            ),
            E::OneGpu => f.write_str("one GPU has no allreduce"),
            E::Unverified { detail } => {
                write!(f, "internal: the schedule did not verify: {detail}")
            }
            E::Topology(e) => e.fmt(f),
            E::Training(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for SystemError {}

impl From<TopologyError> for SystemError {
    fn from(e: TopologyError) -> Self {
        SystemError::Topology(e)
    }
}

impl From<ScenarioError> for SystemError {
    /// A run that did not verify is the model's [`SystemError::Unverified`] whichever way it was
    /// simulated; every other scenario error is a bound of the training model's.
    fn from(e: ScenarioError) -> Self {
        match e {
            ScenarioError::Unverified(detail) => SystemError::Unverified { detail },
            e => SystemError::Training(Box::new(e)),
        }
    }
}

/// The preset ids, in menu order.
pub const PRESETS: [&str; 6] = [
    "dgx-a100",
    "dgx-h100",
    "dgx-h200",
    "dgx-b200",
    "pcie-gen4-8",
    "pcie-gen5-8",
];

/// The most nodes a system may have.
pub const MAX_NODES: usize = 128;

const NCCL_TUNING: &str = "NCCL src/graph/tuning.cc and src/graph/topo.h (github.com/NVIDIA/nccl): protocol latencies, per-channel caps, NVLS efficiency";

impl System {
    /// A preset by id, with `nodes` (1..128) and `gpus_per_node` (2..8).
    ///
    /// # Examples
    ///
    /// ```
    /// use allreduce_sim::nccl::system::{System, SystemError, PRESETS};
    /// let a100 = System::preset("dgx-a100", 2, 8).unwrap();
    /// assert_eq!((a100.intra_gbytes_per_sec, a100.nics_per_node, a100.ranks()), (300.0, 8, 16));
    /// assert!(PRESETS.iter().all(|id| System::preset(id, 1, 8).is_ok()));
    /// assert_eq!(System::preset("dgx-a100", 1, 9), Err(SystemError::GpusPerNodeOutOfRange { got: 9 }));
    /// assert!(matches!(System::preset("cray-1", 1, 8), Err(SystemError::UnknownPreset { .. })));
    /// ```
    pub fn preset(id: &str, nodes: usize, gpus_per_node: usize) -> Result<System, SystemError> {
        let s = |x: &str| x.to_string();
        let nvswitch_reason = |measured: &str| {
            format!(
                "NCCL's ring copies reach {measured} of the NVLink datasheet rate at large sizes (the rest is the Simple protocol's steps, flags and fences: \"~20 % protocol overhead\", NCCL maintainers)"
            )
        };
        let mut sys = match id {
            "dgx-a100" => System {
                name: s(id),
                arch: Arch::Ampere,
                intra_link: IntraLink::NvSwitch,
                intra_gbytes_per_sec: 300.0,
                intra_efficiency: 0.78,
                intra_efficiency_reason: nvswitch_reason("78 % (228–235 of 300 GB/s busbw)"),
                nics_per_node: 8,
                nic_gbits_per_sec: 200.0,
                nic_efficiency: 0.95,
                net_latency_us: 4.0,
                launch_us: 10.3,
                channels: 24,
                nvls_channels: 0,
                ll128: true,
                nodes,
                gpus_per_node,
                sources: vec![
                    s(
                        "NVIDIA DGX A100 datasheet: 8× A100 SXM4, NVLink 3 at 600 GB/s bidirectional (300 per direction) through 6 NVSwitches, 8× 200 Gb/s HDR InfiniBand",
                    ),
                    s(
                        "Azure AML_NCCL_Test README (8× A100, one process per GPU): 8 B in 18.75 µs, 8 GiB at 234 GB/s busbw",
                    ),
                    s(
                        "JingchaoZhang.github.io 'NCCL test on AKS NDmV4 VM' (2 × 8 A100, 8× HDR): 8 B in 37.3 µs, 8 GiB at 189 GB/s busbw",
                    ),
                    s(NCCL_TUNING),
                ],
            },
            "dgx-h100" | "dgx-h200" => System {
                name: s(id),
                arch: Arch::Hopper,
                intra_link: IntraLink::NvSwitch,
                intra_gbytes_per_sec: 450.0,
                intra_efficiency: 0.815,
                intra_efficiency_reason: nvswitch_reason(
                    "81–82 % (361–367 of 450 GB/s busbw, NVLS off)",
                ),
                nics_per_node: 8,
                nic_gbits_per_sec: 400.0,
                nic_efficiency: 0.95,
                net_latency_us: 4.0,
                launch_us: 5.3,
                channels: 32,
                nvls_channels: 16,
                ll128: true,
                nodes,
                gpus_per_node,
                sources: vec![
                    s(if id == "dgx-h100" {
                        "NVIDIA DGX H100 datasheet: 8× H100 SXM5, NVLink 4 at 900 GB/s bidirectional (450 per direction) through 4 NVSwitches with SHARP, 8× 400 Gb/s NDR (ConnectX-7)"
                    } else {
                        "NVIDIA DGX H200 datasheet: 8× H200 SXM, NVLink 4 at 900 GB/s bidirectional (450 per direction) through 4 NVSwitches with SHARP, 8× 400 Gb/s NDR (ConnectX-7)"
                    }),
                    s(
                        "NVIDIA/dgxc-benchmarking nccl/README.md sample (8× H100, NVLS on): 8 B in 13.67 µs, 16 GiB at 480 GB/s busbw",
                    ),
                    s(
                        "NVLS off: Ring reaches 361–367 GB/s busbw on 8× H100/H200 (NCCL issue threads)",
                    ),
                    s(NCCL_TUNING),
                ],
            },
            // The H100 box with NVLink 5: the same NICs, switches' SHARP, channels and launch.
            "dgx-b200" => System {
                name: s(id),
                arch: Arch::Blackwell,
                intra_gbytes_per_sec: 900.0,
                intra_efficiency: 0.8,
                intra_efficiency_reason: s(
                    "assumed like Hopper's ~80 % of the NVLink rate for NCCL's ring copies (no published table in the repository)",
                ),
                sources: vec![
                    s(
                        "NVIDIA DGX B200 datasheet: 8× B200, NVLink 5 at 1.8 TB/s bidirectional (900 GB/s per direction) through 2 NVSwitch trays, 8× 400 Gb/s (ConnectX-7)",
                    ),
                    s(NCCL_TUNING),
                ],
                ..System::preset("dgx-h100", nodes, gpus_per_node)?
            },
            "pcie-gen4-8" => System {
                name: s(id),
                arch: Arch::Ada,
                intra_link: IntraLink::PcieThroughHost,
                intra_gbytes_per_sec: 32.0,
                intra_efficiency: 0.46,
                intra_efficiency_reason: s(
                    "without peer-to-peer every byte is written to host memory by one GPU and read by the next (NCCL's SHM transport) across two CPU sockets: ring busbw 14.5–14.9 GB/s of PCIe Gen4 x16's 32 GB/s",
                ),
                nics_per_node: 2,
                nic_gbits_per_sec: 100.0,
                nic_efficiency: 0.9,
                net_latency_us: 6.0,
                launch_us: 24.8,
                channels: 4,
                nvls_channels: 0,
                ll128: false,
                nodes,
                gpus_per_node,
                sources: vec![
                    s(
                        "blog 'RTX4090 GPUDirect P2P Unlocked!' (2025-02-07): 8× RTX 4090, PCIe Gen4, 2× EPYC 7542, P2P disabled: 8 B in 38.8 µs, 16 MiB at 14.9 GB/s busbw",
                    ),
                    s("PCI-SIG: PCIe Gen4 x16 is 16 GT/s × 16 lanes ≈ 32 GB/s per direction"),
                    s(NCCL_TUNING),
                ],
            },
            "pcie-gen5-8" => System {
                name: s(id),
                arch: Arch::Hopper,
                intra_link: IntraLink::PciePeerToPeer,
                intra_gbytes_per_sec: 64.0,
                intra_efficiency: 0.75,
                intra_efficiency_reason: s(
                    "peer-to-peer copies through PCIe switches reach about three quarters of Gen5 x16's 64 GB/s once packet headers and the crossing between CPU sockets are paid (assumed; no published table in the repository)",
                ),
                nics_per_node: 4,
                nic_gbits_per_sec: 400.0,
                nic_efficiency: 0.95,
                net_latency_us: 5.0,
                launch_us: 10.3,
                channels: 8,
                nvls_channels: 0,
                ll128: false,
                nodes,
                gpus_per_node,
                sources: vec![
                    s(
                        "PCI-SIG: PCIe Gen5 x16 is 32 GT/s × 16 lanes ≈ 64 GB/s per direction; 8 GPUs (e.g. H100 PCIe, no NVLink bridge) with peer-to-peer through PCIe switches, one 400 Gb/s NIC per two GPUs",
                    ),
                    s(NCCL_TUNING),
                ],
            },
            _ => return Err(SystemError::UnknownPreset { id: id.to_string() }),
        };
        sys.nodes = nodes;
        sys.gpus_per_node = gpus_per_node;
        sys.validate()?;
        Ok(sys)
    }

    /// Reads a system from JSON (as `calibrate --out` writes it), checking every bound.
    ///
    /// # Examples
    ///
    /// ```
    /// use allreduce_sim::nccl::system::{System, SystemError};
    /// let h100 = System::preset("dgx-h100", 4, 8).unwrap();
    /// assert_eq!(System::from_json(&serde_json::to_string(&h100).unwrap()), Ok(h100));
    /// assert!(matches!(System::from_json("{\n\"name\": 3}"), Err(SystemError::NotASystemFile { line: 2, .. })));
    /// ```
    pub fn from_json(text: &str) -> Result<System, SystemError> {
        let mut sys: System =
            serde_json::from_str(text).map_err(|e| SystemError::NotASystemFile {
                line: e.line(),
                column: e.column(),
                detail: e.to_string(),
            })?;
        sys.validate()?;
        // Its words are printed (the name heads nccl-tests' '#' lines): what would act on the
        // terminal or reorder the line shown escaped (`scenario_file::hidden`, as the CLI's
        // messages), the name at most 80 characters.
        sys.name = crate::scenario_file::quoted(&sys.name, 80);
        for source in &mut sys.sources {
            // A preset's sources are a sentence or two.
            *source = crate::scenario_file::quoted(source, 600);
        }
        Ok(sys)
    }

    /// Checks every bound.
    ///
    /// # Examples
    ///
    /// ```
    /// use allreduce_sim::nccl::system::{IntraLink, System, SystemError};
    /// let mut sys = System::preset("dgx-a100", 1, 8).unwrap();
    /// assert_eq!(sys.validate(), Ok(()));
    /// sys.intra_link = IntraLink::PciePeerToPeer; // LL128 stays on: refused
    /// assert_eq!(sys.validate(), Err(SystemError::Ll128NeedsNvlink));
    /// ```
    pub fn validate(&self) -> Result<(), SystemError> {
        let range = |field: SystemField, v: f64, lo: f64, hi: f64| {
            if v.is_finite() && v >= lo && v <= hi {
                Ok(())
            } else {
                Err(SystemError::FieldOutOfRange {
                    field,
                    got: v,
                    lo,
                    hi,
                })
            }
        };
        if !(1..=MAX_NODES).contains(&self.nodes) {
            return Err(SystemError::NodesOutOfRange {
                got: self.nodes,
                max: MAX_NODES,
            });
        }
        if !(2..=8).contains(&self.gpus_per_node) {
            return Err(SystemError::GpusPerNodeOutOfRange {
                got: self.gpus_per_node,
            });
        }
        range(
            SystemField::IntraGbytesPerSec,
            self.intra_gbytes_per_sec,
            1.0,
            10_000.0,
        )?;
        range(
            SystemField::IntraEfficiency,
            self.intra_efficiency,
            0.01,
            1.0,
        )?;
        range(
            SystemField::NicGbitsPerSec,
            self.nic_gbits_per_sec,
            1.0,
            10_000.0,
        )?;
        range(SystemField::NicEfficiency, self.nic_efficiency, 0.01, 1.0)?;
        range(
            SystemField::NetLatencyUs,
            self.net_latency_us,
            0.0,
            10_000.0,
        )?;
        range(SystemField::LaunchUs, self.launch_us, 0.0, 10_000.0)?;
        if !(1..=64).contains(&self.nics_per_node) {
            return Err(SystemError::NicsOutOfRange {
                got: self.nics_per_node,
            });
        }
        if !(1..=64).contains(&self.channels) || self.nvls_channels > 64 {
            return Err(SystemError::ChannelsOutOfRange);
        }
        if self.ll128 && self.intra_link != IntraLink::NvSwitch {
            return Err(SystemError::Ll128NeedsNvlink);
        }
        Ok(())
    }

    /// All GPUs: nodes × GPUs per node.
    ///
    /// # Examples
    ///
    /// ```
    /// use allreduce_sim::nccl::system::System;
    /// assert_eq!(System::preset("dgx-b200", 4, 8).unwrap().ranks(), 32);
    /// ```
    pub fn ranks(&self) -> usize {
        self.nodes * self.gpus_per_node
    }

    /// Whether the switch can reduce (NVLink SHARP): Hopper or later on NVSwitch, ≥ 5 GPUs in the
    /// NVLink domain, one node. (Across nodes NCCL ≥ 2.18 runs NVLS-Tree, NVLS inside each node
    /// and a tree between them, which this model does not: there it offers Ring and Tree.)
    ///
    /// # Examples
    ///
    /// ```
    /// use allreduce_sim::nccl::system::System;
    /// assert!(System::preset("dgx-h100", 1, 8).unwrap().nvls_available());
    /// assert!(!System::preset("dgx-h100", 2, 8).unwrap().nvls_available()); // across nodes
    /// assert!(!System::preset("dgx-a100", 1, 8).unwrap().nvls_available()); // Ampere's switch cannot reduce
    /// ```
    pub fn nvls_available(&self) -> bool {
        self.intra_link == IntraLink::NvSwitch
            && self.nvls_channels >= 2
            && self.arch.nvls_efficiency() > 0.0
            && self.gpus_per_node >= 5
            && self.nodes == 1
    }

    /// The GPU link's rate that copies reach, bytes/s (before the protocol's share).
    ///
    /// # Examples
    ///
    /// ```
    /// use allreduce_sim::nccl::system::System;
    /// // DGX A100: 78 % of NVLink's 300 GB/s per direction.
    /// let a100 = System::preset("dgx-a100", 1, 8).unwrap();
    /// assert!((a100.intra_effective_bytes_per_sec() - 234e9).abs() < 1.0);
    /// ```
    pub fn intra_effective_bytes_per_sec(&self) -> f64 {
        self.intra_gbytes_per_sec * 1e9 * self.intra_efficiency
    }

    /// The textbook view of this system: its datasheet rates as a cluster (one rack, non-blocking),
    /// with the lab's default latencies (1 µs per GPU hop, 2 µs per node hop) — no protocols, no
    /// efficiencies.
    ///
    /// ```
    /// use allreduce_sim::{nccl::system::System, algorithms::Algorithm, scenario::simulate};
    /// let h100 = System::preset("dgx-h100", 1, 8).unwrap();
    /// let sim = simulate(&h100.ideal_scenario(Algorithm::Ring, 8 << 30), false).unwrap();
    /// assert!((sim.trace.busbw_bytes_per_sec() / 1e9 - 450.0).abs() < 1.0);
    /// ```
    pub fn ideal_scenario(&self, algorithm: Algorithm, size_bytes: u64) -> Scenario {
        let nic = Bandwidth::from_gbits_per_sec(self.nic_gbits_per_sec * self.nics_per_node as f64);
        Scenario {
            topology: TopologySpec::Cluster {
                racks: 1,
                nodes_per_rack: self.nodes,
                gpus_per_node: self.gpus_per_node,
                intra_bw: Bandwidth::from_gbytes_per_sec(self.intra_gbytes_per_sec),
                intra_lat_secs: 1e-6,
                node_bw: nic,
                node_lat_secs: 2e-6,
                rack_bw: Bandwidth::from_bytes_per_sec(
                    (nic.bytes_per_sec() * self.nodes as f64).min(1e15),
                ),
                rack_lat_secs: 0.0,
                oversubscription: 1.0,
                // The node's NICs as one link of their total rate (NCCL spreads channels over them).
                nics_per_node: 1,
            },
            algorithm,
            size_bytes,
            segments: 1,
            gamma_secs_per_byte: 0.0,
            faults: Default::default(),
        }
    }

    /// A node's NICs together, as delivered, bytes/s.
    ///
    /// # Examples
    ///
    /// ```
    /// use allreduce_sim::nccl::system::System;
    /// // DGX A100: 8 × 200 Gb/s HDR = 200 GB/s, of which 95 % is delivered.
    /// let a100 = System::preset("dgx-a100", 2, 8).unwrap();
    /// assert!((a100.nic_effective_bytes_per_sec() - 190e9).abs() < 1.0);
    /// ```
    pub fn nic_effective_bytes_per_sec(&self) -> f64 {
        self.nics_per_node as f64 * self.nic_gbits_per_sec * 1e9 / 8.0 * self.nic_efficiency
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_run_that_did_not_verify_stays_unverified_as_a_system_error() {
        let account = "rank 3 holds the wrong sum".to_string();
        assert_eq!(
            SystemError::from(ScenarioError::Unverified(account.clone())),
            SystemError::Unverified { detail: account }
        );
        assert_eq!(
            SystemError::from(ScenarioError::BytesPerGradient),
            SystemError::Training(Box::new(ScenarioError::BytesPerGradient))
        );
    }

    #[test]
    fn every_preset_builds_at_every_size_and_refuses_out_of_range() {
        for id in PRESETS {
            for nodes in [1, 2, 128] {
                for g in 2..=8 {
                    let s = System::preset(id, nodes, g).unwrap();
                    assert!(!s.sources.is_empty());
                    assert_eq!(
                        System::from_json(&serde_json::to_string(&s).unwrap()).unwrap(),
                        s
                    );
                }
            }
            assert!(System::preset(id, 0, 8).is_err());
            assert!(System::preset(id, 129, 8).is_err());
            assert!(System::preset(id, 1, 1).is_err());
            assert!(System::preset(id, 1, 9).is_err());
        }
    }

    #[test]
    fn a_system_file_that_is_not_one_is_refused_with_its_line() {
        let e = System::from_json("{\n\"name\": 3}").unwrap_err();
        assert!(e.to_string().contains("line 2"), "{e}");
        let mut s = System::preset("dgx-a100", 1, 8).unwrap();
        s.intra_efficiency = f64::NAN;
        assert!(s.validate().is_err());
    }
}
