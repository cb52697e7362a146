//! The command line's grammar, as clap structs: every subcommand and flag, its default (written
//! here once), and the parser that turns its text into a typed value by calling the core's own
//! parse functions, so that a bad value is refused with the core's message naming the problem.

use super::values::{
    bandwidth, count, duration, gamma, gradient_bytes, nccl_size, network_model, on_off, one_of,
    oversubscription, parameters, preset, share, size, slow_link, speedup_model, step_factor,
    straggler, topology_kind,
};
use crate::course::chapter::{CHAPTER_SCENARIOS, ChapterScenario, ModelPreset};
use crate::sim::algorithms::{Algorithm, MAX_SEGMENTS};
use crate::sim::faults::{SlowLink, Straggler};
use crate::sim::nccl::system::{MAX_NODES, PRESETS};
use crate::sim::topology::{MAX_NICS_PER_NODE, MAX_RANKS};
use crate::sim::units::Bandwidth;
use clap::{Args, Parser, Subcommand, ValueHint};
use std::path::PathBuf;

/// GPUs per node, in a cluster, a rail network and a named system alike.
pub const GPUS_PER_NODE: usize = 8;
/// Nodes of a rail network (`--topology rail`).
pub const RAIL_NODES: usize = 2;
/// Nodes of a named system (`--system`).
pub const SYSTEM_NODES: usize = 1;
/// The last size of a textbook sweep.
pub const SWEEP_MAX_SIZE: &str = "1GB";
/// The last size of a virtual nccl-tests (and of `sweep --model nccl`).
pub const NCCL_TESTS_MAX_SIZE: &str = "8GiB";

const AFTER_HELP: &str = "\
Units: B KB MB GB TB are powers of 1000, KiB MiB GiB TiB powers of 1024 (and nccl-tests' 1K 128M 16G
are powers of 1024); GB/s is 10^9 bytes/s, Gbps (Gb/s) 10^9 bits/s; ns us ms s.
Bad input exits with status 2 and one line saying what is wrong.

Examples:
  allreduce-lab simulate --algorithm ring --topology uniform --ranks 8 --bandwidth 100GB/s --latency 5us --size 1GiB --json
  allreduce-lab simulate --algorithm nccl-ring --topology cluster --nodes-per-rack 2 --nics-per-node 8
  allreduce-lab simulate --topology cluster --slow-link node1-rack0=0.25 --straggler 3=200us
  allreduce-lab sweep --ranks 8 --min-size 8 --max-size 8GB --step-factor 2
  allreduce-lab speedup --preset network-100g-over-40pct
  allreduce-lab nccl-tests --system dgx-h100 --nvls off -b 8 -e 16GiB -f 2
  allreduce-lab calibrate --system dgx-a100 --nodes 2 --measured all_reduce_perf.txt --out my.json
  allreduce-lab completions bash > /etc/bash_completion.d/allreduce-lab";

/// allreduce-lab: AllReduce on simulated GPU ranks over a flow-level network.
#[derive(Debug, Parser)]
#[command(name = "allreduce-lab", version, after_help = AFTER_HELP)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Run one allreduce and report time, bandwidth, the lower bound and traffic
    Simulate(SimulateArgs),
    /// A virtual nccl-tests: time, algbw, busbw over message sizes
    Sweep(SweepArgs),
    /// Data-parallel training: speedup and step breakdown on 1, 2, 4, … GPUs
    Speedup(SpeedupArgs),
    /// all_reduce_perf as NCCL would run it on a named system (simulated, not measured)
    NcclTests(NcclTestsArgs),
    /// Fit the real-hardware model to a measured all_reduce_perf output
    Calibrate(CalibrateArgs),
    /// Print a shell completion script (bash, zsh, fish, elvish, powershell)
    Completions {
        #[arg(value_name = "SHELL")]
        shell: clap_complete::Shell,
    },
}

#[derive(Debug, Args)]
pub struct SimulateArgs {
    #[command(flatten)]
    pub scenario: ScenarioArgs,
    /// Bytes each rank contributes: 1024, 4KB, 100MB, 1GiB (or nccl-tests' 1K, 16G)
    #[arg(long, value_name = "SIZE", default_value = "1GiB", value_parser = nccl_size)]
    pub size: u64,
    /// Print one JSON object instead of a table
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub network: NetworkArgs,
}

#[derive(Debug, Args)]
pub struct SweepArgs {
    #[command(flatten)]
    pub scenario: ScenarioArgs,
    #[command(flatten)]
    pub sizes: SweepSizes,
    /// Print one JSON object instead of a table
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub network: NetworkArgs,
}

#[derive(Debug, Args)]
pub struct SpeedupArgs {
    #[command(flatten)]
    pub scenario: ScenarioArgs,
    /// One of the course chapter's scenarios: sets topology, model and algorithm (only
    /// --overlap, --max-gpus and --json may be added)
    #[arg(long, value_name = "PRESET", value_parser = one_of(CHAPTER_SCENARIOS.iter().map(|s| s.id), preset))]
    pub preset: Option<&'static ChapterScenario>,
    /// The training model, or the network model (ideal | nccl); give it twice for both
    #[arg(long, value_name = "MODEL", value_parser = speedup_model())]
    pub model: Vec<SpeedupModel>,
    /// Largest GPU count (counts double from 1) [default: the topology's]
    #[arg(long, value_name = "N", value_parser = count::<MAX_RANKS>)]
    pub max_gpus: Option<usize>,
    /// Print one JSON object instead of a table
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub training: TrainingArgs,
    #[command(flatten)]
    pub system: SystemArgs,
}

#[derive(Debug, Args)]
pub struct NcclTestsArgs {
    #[command(flatten)]
    pub sizes: SweepSizes,
    /// nccl-tests runs the nccl model (the flag is accepted for symmetry with sweep)
    #[arg(long, value_name = "MODEL", value_parser = network_model())]
    pub model: Option<NetworkModel>,
    /// Print one JSON object instead of a table
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub system: SystemShape,
}

#[derive(Debug, Args)]
pub struct CalibrateArgs {
    /// all_reduce_perf output as printed (comments, in-place columns, any rows)
    #[arg(long, value_name = "FILE", value_hint = ValueHint::FilePath)]
    pub measured: Option<PathBuf>,
    /// Write the fitted system here, for --system-file
    #[arg(long, value_name = "FILE", value_hint = ValueHint::FilePath)]
    pub out: Option<PathBuf>,
    /// Print one JSON object instead of a table
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub system: SystemShape,
}

/// Everything a textbook scenario needs but its size.
#[derive(Debug, Args)]
pub struct ScenarioArgs {
    /// The algorithm; auto simulates all and keeps the fastest
    #[arg(long, value_name = "ALGORITHM", default_value = "ring",
          value_parser = one_of(Algorithm::ALL.iter().map(|a| a.name()), |t| t.parse::<Algorithm>()))]
    pub algorithm: Algorithm,
    /// The network's shape
    #[arg(long, value_name = "KIND", default_value = "uniform", value_parser = one_of(TopologyKind::NAMES, topology_kind))]
    pub topology: TopologyKind,
    /// Pipeline segments for the trees and NCCL's shapes
    #[arg(long, value_name = "K", default_value_t = 1, value_parser = count::<MAX_SEGMENTS>)]
    pub segments: usize,
    /// Reduction cost in seconds per byte, e.g. 1e-12
    #[arg(long, value_name = "SECS", default_value = "0", value_parser = gamma)]
    pub gamma: f64,
    /// Read the whole scenario from a JSON file (no other scenario or topology flag with it)
    #[arg(long, value_name = "FILE", value_hint = ValueHint::FilePath)]
    pub scenario: Option<PathBuf>,
    /// That cable keeps FACTOR (0..1] of its bandwidth, both directions; ends as the JSON
    /// 'links' name them: node0-rack0=0.25, rank3-spine=0.5 (repeatable)
    #[arg(long = "slow-link", value_name = "FROM-TO=FACTOR", value_parser = slow_link)]
    pub slow_links: Vec<SlowLink>,
    /// That rank joins DELAY late: 3=200us (repeatable)
    #[arg(long = "straggler", value_name = "RANK=DELAY", value_parser = straggler)]
    pub stragglers: Vec<Straggler>,

    /// Ranks on one ideal switch
    #[arg(long, value_name = "N", default_value_t = 8, value_parser = count::<MAX_RANKS>, help_heading = "Uniform")]
    pub ranks: usize,
    /// Each rank's port, per direction: 100GB/s, 800Gbps
    #[arg(long, value_name = "BW", default_value = "100GB/s", value_parser = bandwidth, help_heading = "Uniform")]
    pub bandwidth: Bandwidth,
    /// Per message: 5us, 1ms, 0
    #[arg(long, value_name = "T", default_value = "5us", value_parser = duration, help_heading = "Uniform")]
    pub latency: f64,

    /// Racks (racks × nodes per rack × GPUs per node ≤ 4096)
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = count::<MAX_RANKS>, help_heading = "Cluster")]
    pub racks: usize,
    /// Nodes in each rack
    #[arg(long, value_name = "N", default_value_t = 2, value_parser = count::<MAX_RANKS>, help_heading = "Cluster")]
    pub nodes_per_rack: usize,
    /// GPUs per node (a rail network and a --system: 1..8)
    #[arg(long, value_name = "G", default_value_t = GPUS_PER_NODE, value_parser = count::<MAX_RANKS>, help_heading = "Cluster")]
    pub gpus_per_node: usize,
    /// GPU ↔ node switch (NVLink, PCIe)
    #[arg(long, value_name = "BW", default_value = "450GB/s", value_parser = bandwidth, help_heading = "Cluster")]
    pub intra_bw: Bandwidth,
    /// Latency of the GPU ↔ node switch
    #[arg(long, value_name = "T", default_value = "1us", value_parser = duration, help_heading = "Cluster")]
    pub intra_lat: f64,
    /// Node ↔ rack switch: each NIC's
    #[arg(long, value_name = "BW", default_value = "400Gbps", value_parser = bandwidth, help_heading = "Cluster")]
    pub node_bw: Bandwidth,
    /// Latency of the node ↔ rack switch
    #[arg(long, value_name = "T", default_value = "2us", value_parser = duration, help_heading = "Cluster")]
    pub node_lat: f64,
    /// Rack ↔ spine
    #[arg(long, value_name = "BW", default_value = "200Gbps", value_parser = bandwidth, help_heading = "Cluster")]
    pub rack_bw: Bandwidth,
    /// Latency of the rack ↔ spine
    #[arg(long, value_name = "T", default_value = "5us", value_parser = duration, help_heading = "Cluster")]
    pub rack_lat: f64,
    /// The uplinks (rack or leaf) carry their bandwidth / X, 1..64
    #[arg(long, value_name = "X", default_value = "1", value_parser = oversubscription, help_heading = "Cluster")]
    pub oversubscription: f64,
    /// NICs per node, at most the GPUs per node; a GPU uses its nearest
    #[arg(long, value_name = "K", default_value_t = 1, value_parser = count::<MAX_NICS_PER_NODE>, help_heading = "Cluster")]
    pub nics_per_node: usize,

    /// Nodes of a rail network [default: 2; with --system: 1]
    #[arg(long, value_name = "N", value_parser = count::<MAX_RANKS>, help_heading = "Rail")]
    pub nodes: Option<usize>,
    /// Each GPU's NIC ↔ its rail's leaf switch
    #[arg(long, value_name = "BW", default_value = "400Gbps", value_parser = bandwidth, help_heading = "Rail")]
    pub nic_bw: Bandwidth,
    /// Latency of a NIC ↔ its leaf
    #[arg(long, value_name = "T", default_value = "2us", value_parser = duration, help_heading = "Rail")]
    pub nic_lat: f64,
    /// Each leaf ↔ spine
    #[arg(long, value_name = "BW", default_value = "400Gbps", value_parser = bandwidth, help_heading = "Rail")]
    pub spine_bw: Bandwidth,
    /// Latency of a leaf ↔ the spine
    #[arg(long, value_name = "T", default_value = "3us", value_parser = duration, help_heading = "Rail")]
    pub spine_lat: f64,
    /// Between rails, hop over NVLink to the right rail first (on) or cross the spine (off)
    #[arg(long, value_name = "on|off", default_value = "on", value_parser = on_off(), action = clap::ArgAction::Set, help_heading = "Rail")]
    pub pxn: bool,
}

/// The sizes of a sweep, with nccl-tests' spellings (`-b 8 -e 16GiB -f 2`).
#[derive(Debug, Args)]
pub struct SweepSizes {
    /// First message size
    #[arg(long, short = 'b', alias = "minbytes", value_name = "SIZE", default_value = "8", value_parser = nccl_size)]
    pub min_size: u64,
    /// Last message size [default: 1GB; 8GiB for the nccl model]
    #[arg(long, short = 'e', alias = "maxbytes", value_name = "SIZE", value_parser = nccl_size)]
    pub max_size: Option<u64>,
    /// Multiply the size by F each row, 2..1024
    #[arg(long, short = 'f', alias = "stepfactor", value_name = "F", default_value_t = 2, value_parser = step_factor)]
    pub step_factor: usize,
}

/// `simulate`'s and `sweep`'s network model, and the system it runs on.
#[derive(Debug, Args)]
pub struct NetworkArgs {
    /// The network model: the textbook α-β model or like NCCL on --system
    #[arg(long, value_name = "MODEL", default_value = "ideal", value_parser = network_model())]
    pub model: NetworkModel,
    #[command(flatten)]
    pub system: SystemArgs,
}

/// The real-hardware model's system.
#[derive(Debug, Args)]
#[command(next_help_heading = "Real-hardware model (like NCCL)")]
pub struct SystemArgs {
    /// A named system; its nodes and GPUs per node from --nodes and --gpus-per-node
    #[arg(long, value_name = "SYSTEM", value_parser = one_of(PRESETS, |t| Ok(t.to_string())))]
    pub system: Option<String>,
    /// A system written by calibrate --out (instead of --system)
    #[arg(long, value_name = "FILE", value_hint = ValueHint::FilePath)]
    pub system_file: Option<PathBuf>,
    /// Let NCCL use NVLink SHARP where the switch can reduce [default: on]
    #[arg(long, value_name = "on|off", value_parser = on_off())]
    pub nvls: Option<bool>,
}

impl SystemArgs {
    /// The flag that names a system, if one does: `system` or `system-file`.
    pub fn given(&self) -> Option<&'static str> {
        if self.system_file.is_some() {
            Some("system-file")
        } else if self.system.is_some() {
            Some("system")
        } else {
            None
        }
    }

    /// Whether a system is named.
    pub fn is_set(&self) -> bool {
        self.given().is_some()
    }
}

/// A system with its size, for the commands that take no scenario.
#[derive(Debug, Args)]
pub struct SystemShape {
    #[command(flatten)]
    pub named: SystemArgs,
    /// Nodes of the system, 1..128
    #[arg(long, value_name = "N", default_value_t = SYSTEM_NODES, value_parser = count::<MAX_NODES>)]
    pub nodes: usize,
    /// GPUs per node, 2..8
    #[arg(long, value_name = "G", default_value_t = GPUS_PER_NODE, value_parser = count::<GPUS_PER_NODE>)]
    pub gpus_per_node: usize,
}

/// `speedup`'s training model, beside a preset model.
#[derive(Debug, Args)]
#[command(next_help_heading = "Training")]
pub struct TrainingArgs {
    /// Instead of --model: the parameter count
    #[arg(long, value_name = "N", value_parser = parameters)]
    pub parameters: Option<f64>,
    /// Forward + backward on one GPU per step [default: the model's]
    #[arg(long, value_name = "T", value_parser = duration)]
    pub compute: Option<f64>,
    /// 4 (fp32) or 2 (bf16/fp16) [default: 4]
    #[arg(long, value_name = "B", value_parser = gradient_bytes)]
    pub gradient_bytes: Option<usize>,
    /// Share of the backward pass that hides communication, 0..1
    #[arg(long, value_name = "X", default_value = "0", value_parser = share)]
    pub overlap: f64,
    /// Share of compute in the backward pass, 0..1 [default: 2/3]
    #[arg(long, value_name = "X", value_parser = share)]
    pub backward_share: Option<f64>,
    /// Bytes each GPU reads per step [default: the model's]
    #[arg(long, value_name = "SIZE", value_parser = size)]
    pub input: Option<u64>,
    /// Shared storage read bandwidth
    #[arg(long, value_name = "BW", default_value = "10GB/s", value_parser = bandwidth)]
    pub storage_bw: Bandwidth,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TopologyKind {
    Uniform,
    Cluster,
    Rail,
}

impl TopologyKind {
    pub const NAMES: [&'static str; 3] = ["uniform", "cluster", "rail"];
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NetworkModel {
    Ideal,
    Nccl,
}

/// What `speedup --model` names: the network model or a training model.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum SpeedupModel {
    Network(NetworkModel),
    Training(&'static ModelPreset),
}
