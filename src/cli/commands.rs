//! What the textbook commands do: `simulate`, `sweep` and `speedup` (and the `--model nccl`
//! spellings of them, handed to [`super::nccl`]). Parsed flags in, a report or one line out.

use super::args::{
    GPUS_PER_NODE, NCCL_TESTS_MAX_SIZE, NetworkModel, RAIL_NODES, SWEEP_MAX_SIZE, SYSTEM_NODES,
    ScenarioArgs, SimulateArgs, SpeedupArgs, SpeedupModel, SweepArgs, SystemArgs, TopologyKind,
    TrainingArgs,
};
use super::{Given, nccl, reports};
use crate::course::chapter::{BERT_LARGE, evaluate};
use crate::sim::faults::Faults;
use crate::sim::nccl::system::{MAX_NODES, System};
use crate::sim::scenario::{Scenario, simulate as run_simulation};
use crate::sim::scenario_file::{MAX_SCENARIO_FILE_BYTES, read_scenario};
use crate::sim::sweep::{sweep as run_sweep, sweep_each};
use crate::sim::topology::{MAX_NICS_PER_NODE, MAX_RANKS, Topology, TopologySpec};
use crate::sim::training::{TrainingModel, scaling_with_gamma};
use std::ops::ControlFlow;
use std::path::Path;

/// `n` if it is at most `max` (for a flag whose range depends on the others), else why not.
pub fn at_most(flag: &str, n: usize, max: usize) -> Result<usize, String> {
    if n > max {
        return Err(format!("--{flag}: {n} is out of range; expected 1..{max}"));
    }
    Ok(n)
}

/// The topology the flags describe.
pub fn topology(a: &ScenarioArgs) -> Result<TopologySpec, String> {
    Ok(match a.topology {
        TopologyKind::Uniform => TopologySpec::Uniform {
            ranks: a.ranks,
            bandwidth: a.bandwidth,
            latency_secs: a.latency,
        },
        TopologyKind::Cluster => TopologySpec::Cluster {
            racks: a.racks,
            nodes_per_rack: a.nodes_per_rack,
            gpus_per_node: a.gpus_per_node,
            intra_bw: a.intra_bw,
            intra_lat_secs: a.intra_lat,
            node_bw: a.node_bw,
            node_lat_secs: a.node_lat,
            rack_bw: a.rack_bw,
            rack_lat_secs: a.rack_lat,
            oversubscription: a.oversubscription,
            nics_per_node: a.nics_per_node,
        },
        TopologyKind::Rail => TopologySpec::Rail {
            nodes: a.nodes.unwrap_or(RAIL_NODES),
            gpus_per_node: at_most("gpus-per-node", a.gpus_per_node, MAX_NICS_PER_NODE)?,
            intra_bw: a.intra_bw,
            intra_lat_secs: a.intra_lat,
            nic_bw: a.nic_bw,
            nic_lat_secs: a.nic_lat,
            spine_bw: a.spine_bw,
            spine_lat_secs: a.spine_lat,
            oversubscription: a.oversubscription,
            pxn: a.pxn,
        },
    })
}

/// A file's bytes, at most one more than `max_bytes` (so that `/dev/zero` or a huge file is
/// refused by size, not read whole).
fn read_bounded(path: &Path, max_bytes: usize) -> std::io::Result<Vec<u8>> {
    use std::io::Read;
    let mut bytes = Vec::new();
    std::fs::File::open(path)?
        .take(max_bytes as u64 + 1)
        .read_to_end(&mut bytes)?;
    Ok(bytes)
}

/// The text of the file a flag names, refused past `max_bytes` unread beyond them (`/dev/zero`
/// used 2 GB in under two seconds) or when not UTF-8.
pub fn read_text(flag: &str, path: &Path, max_bytes: usize) -> Result<String, String> {
    let shown = path.display();
    let bytes =
        read_bounded(path, max_bytes).map_err(|e| format!("{flag}: cannot read '{shown}': {e}"))?;
    if bytes.len() > max_bytes {
        let most = if max_bytes >= 1 << 20 {
            format!("{} MB", max_bytes >> 20)
        } else {
            format!("{} KB", max_bytes >> 10)
        };
        return Err(format!("{flag}: '{shown}' is larger than {most}"));
    }
    String::from_utf8(bytes).map_err(|_| format!("{flag}: '{shown}' is not UTF-8 text"))
}

/// The whole scenario: from `--scenario FILE`, or from the flags with `size_bytes`.
pub fn scenario(a: &ScenarioArgs, size_bytes: u64) -> Result<Scenario, String> {
    if let Some(path) = &a.scenario {
        let shown = path.display();
        let bytes = read_bounded(path, MAX_SCENARIO_FILE_BYTES)
            .map_err(|e| format!("--scenario: cannot read '{shown}': {e}"))?;
        return read_scenario(&bytes)
            .map_err(|e| format!("--scenario: '{shown}' is not a valid scenario: {e}"));
    }
    Ok(Scenario {
        topology: topology(a)?,
        algorithm: a.algorithm,
        size_bytes,
        segments: a.segments,
        gamma_secs_per_byte: a.gamma,
        faults: Faults {
            slow_links: a.slow_links.clone(),
            stragglers: a.stragglers.clone(),
        },
    })
}

/// The system `--system` (with `nodes` and `gpus_per_node`) or `--system-file` names.
pub fn system(s: &SystemArgs, nodes: usize, gpus_per_node: usize) -> Result<System, String> {
    if let Some(path) = &s.system_file {
        if s.system.is_some() {
            return Err("give either --system or --system-file, not both".into());
        }
        let shown = path.display();
        // A system's JSON is a few hundred bytes.
        let text = read_text("--system-file", path, MAX_SCENARIO_FILE_BYTES)?;
        return System::from_json(&text).map_err(|e| format!("--system-file '{shown}': {e}"));
    }
    let id = s.system.as_deref().ok_or_else(|| {
        format!(
            "--system is required: one of {} (or --system-file FILE)",
            crate::sim::nccl::system::PRESETS.join(", ")
        )
    })?;
    // The flag that is out of range is named (`--gpus-per-node 1` blamed --system).
    System::preset(id, nodes, gpus_per_node).map_err(|e| {
        use crate::sim::nccl::system::SystemError as E;
        let flag = match e {
            E::NodesOutOfRange { .. } => "--nodes",
            E::GpusPerNodeOutOfRange { .. } => "--gpus-per-node",
            _ => "--system",
        };
        format!("{flag}: {e}")
    })
}

/// The system of a command that also takes a scenario (whose `--nodes` and `--gpus-per-node`
/// it shares).
pub fn scenario_system(a: &ScenarioArgs, s: &SystemArgs) -> Result<System, String> {
    let nodes = at_most("nodes", a.nodes.unwrap_or(SYSTEM_NODES), MAX_NODES)?;
    let g = at_most("gpus-per-node", a.gpus_per_node, GPUS_PER_NODE)?;
    system(s, nodes, g)
}

/// The flags of the textbook model that `--model nccl` refuses, and those it takes.
const NCCL_TAKES: [&str; 8] = [
    "model",
    "system",
    "system-file",
    "nodes",
    "gpus-per-node",
    "nvls",
    "json",
    "size",
];

/// `--model ideal|nccl`: with nccl, a textbook-only flag is refused; with ideal, `--nvls`.
fn is_nccl(model: NetworkModel, given: &Given, takes: &[&str]) -> Result<bool, String> {
    match model {
        NetworkModel::Ideal if given.has("nvls") => {
            Err("--nvls applies to --model nccl only".into())
        }
        NetworkModel::Ideal => Ok(false),
        NetworkModel::Nccl => match given.first_not_in(takes) {
            Some(x) => Err(format!(
                "--{x} belongs to the textbook model; --model nccl takes --system (or --system-file), --nodes, --gpus-per-node and --nvls"
            )),
            None => Ok(true),
        },
    }
}

/// With `--system` under the textbook model: [`System::ideal_scenario`] with the flags'
/// algorithm, size, segments, γ and faults. Otherwise the flags' scenario.
fn ideal_scenario(
    a: &ScenarioArgs,
    s: &SystemArgs,
    size: u64,
    given: &Given,
) -> Result<Scenario, String> {
    check_topology_flags(a, s.given(), given)?;
    if !s.is_set() {
        return scenario(a, size);
    }
    let mut sc = scenario_system(a, s)?.ideal_scenario(a.algorithm, size);
    sc.segments = a.segments;
    sc.gamma_secs_per_byte = a.gamma;
    sc.faults = Faults {
        slow_links: a.slow_links.clone(),
        stragglers: a.stragglers.clone(),
    };
    Ok(sc)
}

/// The flags that shape each kind of topology (`--gpus-per-node` is the cluster's and the
/// rail's), and those `--system` takes.
const UNIFORM_FLAGS: [&str; 3] = ["ranks", "bandwidth", "latency"];
const CLUSTER_FLAGS: [&str; 11] = [
    "racks",
    "nodes-per-rack",
    "gpus-per-node",
    "intra-bw",
    "intra-lat",
    "node-bw",
    "node-lat",
    "rack-bw",
    "rack-lat",
    "oversubscription",
    "nics-per-node",
];
const RAIL_FLAGS: [&str; 10] = [
    "nodes",
    "gpus-per-node",
    "intra-bw",
    "intra-lat",
    "nic-bw",
    "nic-lat",
    "spine-bw",
    "spine-lat",
    "oversubscription",
    "pxn",
];
const SYSTEM_FLAGS: [&str; 2] = ["nodes", "gpus-per-node"];
/// What a scenario file holds whole, apart from the topology (`simulate`'s `--size` too; a
/// sweep sets the size of each row).
const SCENARIO_FILE_HOLDS: [&str; 9] = [
    "algorithm",
    "segments",
    "gamma",
    "slow-link",
    "straggler",
    "topology",
    "size",
    "system",
    "system-file",
];

/// Refuses a flag that the run would not use: one that shapes another kind of topology than
/// `--topology`'s, any topology flag beside `--system` (which sets the topology, apart from its
/// `--nodes` and `--gpus-per-node`), and any scenario flag beside `--scenario` (whose file holds
/// the whole scenario). Each was dropped without a word (`--topology rail --ranks 4` ran 16
/// ranks).
pub fn check_topology_flags(
    a: &ScenarioArgs,
    system: Option<&str>,
    given: &Given,
) -> Result<(), String> {
    let shaping = |f: &str| {
        UNIFORM_FLAGS.contains(&f) || CLUSTER_FLAGS.contains(&f) || RAIL_FLAGS.contains(&f)
    };
    let unused = |takes: &[&str]| {
        given
            .iter()
            .find(|f| shaping(f) && !takes.contains(f))
            .map(str::to_string)
    };
    if a.scenario.is_some() {
        if let Some(f) = given
            .iter()
            .find(|f| shaping(f) || SCENARIO_FILE_HOLDS.contains(f))
        {
            return Err(format!(
                "--{f} does not apply with --scenario: the file holds the whole scenario"
            ));
        }
        return Ok(());
    }
    if let Some(flag) = system {
        // A named system takes its size from --nodes and --gpus-per-node; a file has its own.
        let takes: &[&str] = if flag == "system" { &SYSTEM_FLAGS } else { &[] };
        if let Some(f) = unused(takes) {
            return Err(format!(
                "--{f} does not apply with --{flag}: the system sets the topology{}",
                if takes.is_empty() {
                    ""
                } else {
                    " (it takes --nodes and --gpus-per-node)"
                }
            ));
        }
        if given.has("topology") {
            return Err(format!(
                "--topology does not apply with --{flag}: the system sets the topology"
            ));
        }
        return Ok(());
    }
    let (kind, takes): (&str, &[&str]) = match a.topology {
        TopologyKind::Uniform => ("uniform", &UNIFORM_FLAGS),
        TopologyKind::Cluster => ("cluster", &CLUSTER_FLAGS),
        TopologyKind::Rail => ("rail", &RAIL_FLAGS),
    };
    match unused(takes) {
        Some(f) => Err(format!(
            "--{f} does not apply to --topology {kind}, which takes {}",
            takes
                .iter()
                .map(|t| format!("--{t}"))
                .collect::<Vec<_>>()
                .join(", ")
        )),
        None => Ok(()),
    }
}

pub fn simulate(a: &SimulateArgs, given: &Given) -> Result<String, String> {
    if is_nccl(a.network.model, given, &NCCL_TAKES)? {
        let sys = scenario_system(&a.scenario, &a.network.system)?;
        return nccl::simulate(&sys, a.network.system.nvls.unwrap_or(true), a.size, a.json);
    }
    let scenario = ideal_scenario(&a.scenario, &a.network.system, a.size, given)?;
    let sim = run_simulation(&scenario, false).map_err(|e| e.to_string())?;
    let report = if a.json {
        reports::simulation_json(&scenario, &sim).to_string()
    } else {
        reports::simulation_table(&scenario, &sim)
    };
    match &sim.trace.verification {
        Ok(()) => Ok(report),
        // Still print the report, then fail.
        Err(e) => Err(format!("the result did not verify: {e}\n{report}")),
    }
}

/// `sweep`. In all_reduce_perf's layout, the header and each row go to `early` as soon as they
/// are known (at 4,096 GPUs a size takes seconds) and the average is returned; JSON is returned
/// whole. When `early` fails (a reader gone, a full disk), the sweep stops and the rest is
/// returned, so that printing it meets the same failure and reports it as every command does.
pub fn sweep(a: &SweepArgs, given: &Given, early: Early) -> Result<String, String> {
    let takes: Vec<&str> = NCCL_TAKES
        .iter()
        .copied()
        .chain(["min-size", "max-size", "step-factor"])
        .collect();
    let (min, factor) = (a.sizes.min_size, a.sizes.step_factor as u64);
    if is_nccl(a.network.model, given, &takes)? {
        let sys = scenario_system(&a.scenario, &a.network.system)?;
        let max = max_size(a.sizes.max_size, NCCL_TESTS_MAX_SIZE)?;
        let nvls = a.network.system.nvls.unwrap_or(true);
        return nccl::nccl_tests_report(&sys, nvls, min, max, factor, a.json);
    }
    let max = max_size(a.sizes.max_size, SWEEP_MAX_SIZE)?;
    let mut base = ideal_scenario(&a.scenario, &a.network.system, min.max(1), given)?;
    // A scenario file's own size is replaced by the sweep's first.
    base.size_bytes = min.max(1);
    let ranks = base.validate().map_err(|e| e.to_string())?.ranks();
    if a.json {
        let rows = run_sweep(&base, min, max, factor).map_err(|e| e.to_string())?;
        return Ok(reports::sweep_json(&base, ranks, &rows).to_string());
    }
    // The header with the first row: every size is checked before the first is simulated, so an
    // error is still the only thing said.
    let mut first = true;
    let rows = sweep_each(&base, min, max, factor, |row| {
        let mut text = if first {
            reports::sweep_header(&base, ranks)
        } else {
            String::new()
        };
        first = false;
        text += &reports::sweep_row(&base, row);
        match early(&text) {
            Ok(()) => ControlFlow::Continue(()),
            Err(_) => ControlFlow::Break(()),
        }
    })
    .map_err(|e| e.to_string())?;
    Ok(reports::sweep_footer(&rows))
}

/// Where a command writes what it knows before it ends (`sweep`'s rows).
pub type Early<'a> = &'a mut dyn FnMut(&str) -> std::io::Result<()>;

/// The last size of a sweep: as given, or the default of its model.
pub fn max_size(given: Option<u64>, default: &str) -> Result<u64, String> {
    match given {
        // As every model takes (the nccl model's NVLS simulation grows with the size).
        Some(m) if m > crate::sim::scenario::MAX_SIZE_BYTES => {
            Err(format!("--max-size must be at most 1 TB, got {m} bytes"))
        }
        Some(m) => Ok(m),
        None => super::values::nccl_size(default).map_err(|e| format!("--max-size: {e}")),
    }
}

/// 1, 2, 4, … up to `max`, and `max` itself.
pub fn gpu_counts(max: usize) -> Vec<usize> {
    std::iter::successors(Some(1usize), |&n| Some(n * 2))
        .take_while(|&n| n <= max)
        .chain((!max.is_power_of_two()).then_some(max))
        .collect()
}

/// `speedup --model` split into the network model and the training model, each at most once.
fn speedup_models(
    models: &[SpeedupModel],
) -> Result<(NetworkModel, &'static crate::course::chapter::ModelPreset), String> {
    let (mut network, mut training) = (None, None);
    for m in models {
        let twice = match *m {
            SpeedupModel::Network(n) => network.replace(n).is_some(),
            SpeedupModel::Training(t) => training.replace(t).is_some(),
        };
        if twice {
            return Err(match m {
                SpeedupModel::Network(_) => {
                    "--model names the network model (ideal or nccl) twice".into()
                }
                SpeedupModel::Training(_) => "--model names the training model twice".into(),
            });
        }
    }
    Ok((
        network.unwrap_or(NetworkModel::Ideal),
        training.unwrap_or(&BERT_LARGE),
    ))
}

/// The training model of `speedup`'s flags (without `--preset`).
pub fn training(
    base: &crate::course::chapter::ModelPreset,
    t: &TrainingArgs,
) -> Result<TrainingModel, String> {
    let mut m = base.training(t.overlap, t.storage_bw.bytes_per_sec());
    if let Some(p) = t.parameters {
        m.parameters = p as u64;
    }
    if let Some(c) = t.compute {
        m.compute_secs = c;
    }
    if let Some(b) = t.gradient_bytes {
        m.bytes_per_gradient = b as u32;
    }
    if let Some(s) = t.backward_share {
        m.backward_share = s;
    }
    if let Some(i) = t.input {
        m.input_bytes_per_gpu = i as f64;
    }
    m.validate().map_err(|e| e.to_string())?;
    Ok(m)
}

/// The flags of `speedup`'s training model.
pub const TRAINING_FLAGS: [&str; 10] = [
    "model",
    "parameters",
    "compute",
    "gradient-bytes",
    "overlap",
    "backward-share",
    "input",
    "storage-bw",
    "max-gpus",
    "json",
];

pub fn speedup(a: &SpeedupArgs, given: &Given) -> Result<String, String> {
    let (network, base) = speedup_models(&a.model)?;
    if network == NetworkModel::Nccl {
        let takes: Vec<&str> = TRAINING_FLAGS
            .iter()
            .copied()
            .chain(["system", "nodes", "gpus-per-node", "nvls"])
            .collect();
        if let Some(x) = given.first_not_in(&takes) {
            return Err(format!(
                "unknown flag '--{x}' (speedup --model nccl takes --system, --nodes, --gpus-per-node, --nvls and the training flags)"
            ));
        }
        let sys = scenario_system(&a.scenario, &a.system)?;
        let model = training(base, &a.training)?;
        return nccl::speedup(
            &sys,
            a.system.nvls.unwrap_or(true),
            &model,
            a.max_gpus,
            a.json,
        );
    }
    if let Some(x) = ["system", "system-file", "nvls"]
        .into_iter()
        .find(|x| given.has(x))
    {
        return Err(format!(
            "--{x} applies to --model nccl only (speedup --model nccl --system ID)"
        ));
    }
    if a.preset.is_some() {
        // The preset sets everything else: a flag it would override is refused, not dropped.
        if let Some(other) = given.first_not_in(&["preset", "overlap", "max-gpus", "json"]) {
            return Err(format!(
                "--{other} cannot be combined with --preset, which sets the topology, model and algorithm; with --preset only --overlap, --max-gpus and --json are allowed"
            ));
        }
    }
    let (topology, mut model, algorithm, segments, gamma) = match a.preset {
        Some(p) => (p.topology(), p.training(), p.algorithm, p.segments, 0.0),
        None => {
            let m = training(base, &a.training)?;
            check_topology_flags(&a.scenario, None, given)?;
            // The scaling model runs healthy networks: a fault would be dropped.
            if let Some(f) = ["slow-link", "straggler"]
                .into_iter()
                .find(|f| given.has(f))
            {
                return Err(format!(
                    "--{f} does not apply to speedup, which models healthy networks; simulate takes it"
                ));
            }
            let sc = scenario(&a.scenario, 1)?;
            if !sc.faults.is_empty() {
                return Err(
                    "speedup models healthy networks: the scenario file's faults would be dropped; simulate takes them".into(),
                );
            }
            let gamma = sc.gamma_secs_per_byte;
            (sc.topology, m, sc.algorithm, sc.segments, gamma)
        }
    };
    if a.preset.is_some() && given.has("overlap") {
        model.overlap = a.training.overlap;
    }
    model.validate().map_err(|e| e.to_string())?;
    let full = Topology::new(&topology).map_err(|e| e.to_string())?.ranks();
    let counts = gpu_counts(a.max_gpus.unwrap_or(full).min(MAX_RANKS));
    let steps = scaling_with_gamma(&model, &topology, algorithm, segments, gamma, &counts)
        .map_err(|e| e.to_string())?;
    // The claim is checked on the run shown: with the reader's --overlap, if given.
    let verdict = match a.preset {
        Some(p) => {
            let mut shown = *p;
            shown.overlap = model.overlap;
            Some((p, evaluate(&shown).map_err(|e| e.to_string())?))
        }
        None => None,
    };
    let report = reports::Speedup {
        algorithm,
        gamma,
        model: &model,
        steps: &steps,
        verdict: verdict.as_ref().map(|(p, o)| (*p, o)),
    };
    Ok(if a.json {
        report.json().to_string()
    } else {
        report.table()
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cli::args::Cli;
    use clap::CommandFactory;

    #[test]
    fn each_topology_flag_is_in_the_table_of_the_kind_its_help_heading_names() {
        // `--help` groups the topology flags under "Uniform", "Cluster" and "Rail"; the tables
        // that refuse a flag of another kind must agree, or a new flag would be dropped without
        // a word again (or refused where it applies).
        let cli = Cli::command();
        let mut seen: Vec<String> = Vec::new();
        for name in ["simulate", "sweep"] {
            let cmd = cli.find_subcommand(name).expect("a subcommand");
            for arg in cmd.get_arguments() {
                let Some(long) = arg.get_long() else { continue };
                let table: &[&str] = match arg.get_help_heading() {
                    Some("Uniform") => &UNIFORM_FLAGS,
                    Some("Cluster") => &CLUSTER_FLAGS,
                    Some("Rail") => &RAIL_FLAGS,
                    _ => {
                        // Not a topology flag: in none of the tables.
                        let tables = [&UNIFORM_FLAGS[..], &CLUSTER_FLAGS, &RAIL_FLAGS];
                        assert!(
                            tables.iter().all(|t| !t.contains(&long)),
                            "{name} --{long}: in a topology table, but under no topology heading"
                        );
                        continue;
                    }
                };
                assert!(
                    table.contains(&long),
                    "{name} --{long}: under {:?} in --help, missing from that kind's table",
                    arg.get_help_heading()
                );
                seen.push(long.to_string());
            }
        }
        // And every flag a table names is one of them (a rail network shares the cluster's
        // GPU-link flags and its oversubscription).
        for f in UNIFORM_FLAGS
            .iter()
            .chain(&CLUSTER_FLAGS)
            .chain(&RAIL_FLAGS)
        {
            assert!(
                seen.iter().any(|s| s == f),
                "--{f} is in a table but not a flag"
            );
        }
    }

    #[test]
    fn each_scenario_flag_is_one_a_scenario_file_holds() {
        // Beside --scenario, a scenario flag is refused (the file holds the whole scenario); one
        // missing from the table would be dropped without a word.
        let cmd = <ScenarioArgs as clap::Args>::augment_args(clap::Command::new("t"));
        let flags: Vec<&str> = cmd
            .get_arguments()
            .filter(|a| a.get_help_heading().is_none())
            .filter_map(|a| a.get_long())
            .collect();
        assert!(flags.len() >= 7, "{flags:?}");
        for f in flags.into_iter().filter(|&f| f != "scenario") {
            assert!(
                SCENARIO_FILE_HOLDS.contains(&f),
                "--{f} is not in SCENARIO_FILE_HOLDS"
            );
        }
    }
}
