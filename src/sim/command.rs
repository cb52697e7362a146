//! A scenario as the command line that makes it: `allreduce-lab simulate …` with every flag the
//! scenario needs, printed so that the CLI reads back exactly the same scenario (the lab shows this
//! command beside its run; a property test in `tests/command_line.rs` parses it back).
//!
//! ```
//! use allreduce_sim::{command::simulate_command, scenario::Scenario, algorithms::Algorithm};
//! use allreduce_sim::{topology::TopologySpec, units::Bandwidth};
//! let s = Scenario {
//!     topology: TopologySpec::Uniform { ranks: 8, bandwidth: Bandwidth::from_gbits_per_sec(400.0), latency_secs: 5e-6 },
//!     algorithm: Algorithm::Ring, size_bytes: 100_000_000, segments: 1, gamma_secs_per_byte: 0.0,
//!     faults: Default::default(),
//! };
//! assert_eq!(
//!     simulate_command(&s),
//!     "allreduce-lab simulate --algorithm ring --topology uniform --ranks 8 --bandwidth 400Gbps --latency 5us --size 100000000"
//! );
//! ```

use super::scenario::Scenario;
use super::topology::TopologySpec;
use super::units::{bandwidth_arg, duration_arg};

/// The `simulate` flags that make `scenario`, in the order the CLI's help lists them.
///
/// ```
/// use allreduce_sim::{command::simulate_args, scenario::Scenario, algorithms::Algorithm};
/// use allreduce_sim::{topology::TopologySpec, units::Bandwidth};
/// let s = Scenario {
///     topology: TopologySpec::Uniform { ranks: 4, bandwidth: Bandwidth::from_gbits_per_sec(100.0), latency_secs: 1e-6 },
///     algorithm: Algorithm::TreeBinary, size_bytes: 4096, segments: 8, gamma_secs_per_byte: 0.0,
///     faults: Default::default(),
/// };
/// let args = simulate_args(&s);
/// assert_eq!(&args[..4], ["--algorithm", "tree-binary", "--topology", "uniform"]);
/// assert_eq!(&args[args.len() - 4..], ["--size", "4096", "--segments", "8"]); // a tree pipelines
/// ```
pub fn simulate_args(scenario: &Scenario) -> Vec<String> {
    let mut args: Vec<String> = Vec::new();
    let mut flag = |name: &str, value: String| {
        args.push(format!("--{name}"));
        args.push(value);
    };
    flag("algorithm", scenario.algorithm.name().into());
    let mut oversubscription = 1.0;
    match &scenario.topology {
        TopologySpec::Uniform {
            ranks,
            bandwidth,
            latency_secs,
        } => {
            flag("topology", "uniform".into());
            flag("ranks", ranks.to_string());
            flag("bandwidth", bandwidth_arg(*bandwidth));
            flag("latency", duration_arg(*latency_secs));
        }
        TopologySpec::Cluster {
            racks,
            nodes_per_rack,
            gpus_per_node,
            oversubscription: o,
            nics_per_node,
            ..
        } => {
            flag("topology", "cluster".into());
            flag("racks", racks.to_string());
            flag("nodes-per-rack", nodes_per_rack.to_string());
            flag("gpus-per-node", gpus_per_node.to_string());
            for (tier, (bw, lat)) in ["intra", "node", "rack"]
                .into_iter()
                .zip(scenario.topology.tiers())
            {
                flag(&format!("{tier}-bw"), bandwidth_arg(bw));
                flag(&format!("{tier}-lat"), duration_arg(lat));
            }
            if *nics_per_node != 1 {
                flag("nics-per-node", nics_per_node.to_string());
            }
            oversubscription = *o;
        }
        TopologySpec::Rail {
            nodes,
            gpus_per_node,
            oversubscription: o,
            pxn,
            ..
        } => {
            flag("topology", "rail".into());
            flag("nodes", nodes.to_string());
            flag("gpus-per-node", gpus_per_node.to_string());
            for (tier, (bw, lat)) in ["intra", "nic", "spine"]
                .into_iter()
                .zip(scenario.topology.tiers())
            {
                flag(&format!("{tier}-bw"), bandwidth_arg(bw));
                flag(&format!("{tier}-lat"), duration_arg(lat));
            }
            flag("pxn", if *pxn { "on" } else { "off" }.into());
            oversubscription = *o;
        }
    }
    if oversubscription != 1.0 {
        flag("oversubscription", oversubscription.to_string());
    }
    flag("size", scenario.size_bytes.to_string());
    if scenario.algorithm.pipelines() || scenario.segments != 1 {
        flag("segments", scenario.segments.to_string());
    }
    if scenario.gamma_secs_per_byte != 0.0 {
        flag("gamma", scenario.gamma_secs_per_byte.to_string());
    }
    for s in &scenario.faults.slow_links {
        flag("slow-link", format!("{}={}", s.cable, s.factor));
    }
    for s in &scenario.faults.stragglers {
        flag(
            "straggler",
            format!("{}={}", s.rank, duration_arg(s.delay_secs)),
        );
    }
    args
}

/// The whole command line: `allreduce-lab simulate` and [`simulate_args`].
///
/// ```
/// use allreduce_sim::{command::simulate_command, scenario::Scenario, algorithms::Algorithm};
/// use allreduce_sim::{topology::TopologySpec, units::Bandwidth};
/// let s = Scenario {
///     topology: TopologySpec::Uniform { ranks: 4, bandwidth: Bandwidth::from_gbits_per_sec(100.0), latency_secs: 1e-6 },
///     algorithm: Algorithm::Ring, size_bytes: 4096, segments: 1, gamma_secs_per_byte: 0.0,
///     faults: Default::default(),
/// };
/// assert_eq!(simulate_command(&s),
///     "allreduce-lab simulate --algorithm ring --topology uniform --ranks 4 --bandwidth 100Gbps --latency 1us --size 4096");
/// ```
pub fn simulate_command(scenario: &Scenario) -> String {
    format!(
        "allreduce-lab simulate {}",
        simulate_args(scenario).join(" ")
    )
}
