//! The native command line: `allreduce-lab simulate …` on the same core as the app.
//!
//! Every flag is checked; a bad one ends the program with one line saying what is wrong and what is
//! allowed, and a non-zero exit code.

use crate::sim::algorithms::{Algorithm, MAX_SEGMENTS};
use crate::sim::chapter::{evaluate, ModelPreset, CHAPTER_SCENARIOS};
use crate::sim::faults::{Cable, Faults, SlowLink, Straggler, MAX_DELAY_SECS};
use crate::sim::scenario::{simulate, Scenario, Simulation};
use crate::sim::sweep::sweep;
use crate::sim::topology::{Endpoint, Tier, TopologySpec, MAX_RANKS};
use crate::sim::training::scaling;
use crate::sim::units::{
    format_bandwidth, format_bandwidth_bits, format_bytes, format_secs, parse_bandwidth,
    parse_duration, parse_size, Bandwidth,
};
use serde_json::{json, Value};
use std::collections::BTreeMap;

pub const HELP: &str = "\
allreduce-lab — simulate AllReduce on simulated GPU ranks over a flow-level network

USAGE:
  allreduce-lab simulate [OPTIONS]     run one allreduce and report time, bandwidth and traffic
  allreduce-lab sweep [OPTIONS]        a virtual nccl-tests: time, algbw, busbw over message sizes
  allreduce-lab speedup [OPTIONS]      data-parallel training: speedup and step breakdown, 1..N GPUs
  allreduce-lab help                   this text

SIMULATE OPTIONS:
  --algorithm NAME     ring | tree-flat | tree-binomial | tree-binary | double-binary-tree |
                       recursive-doubling | rabenseifner | hierarchical | auto   (default ring)
  --topology KIND      uniform | cluster                                         (default uniform)
  --size SIZE          bytes each rank contributes: 1024, 4KB, 100MB, 1GiB       (default 1GiB)
  --segments K         pipeline segments for the tree algorithms, 1..256          (default 1)
  --gamma SECS         reduction cost in seconds per byte, e.g. 1e-12            (default 0)
  --json               print one JSON object instead of a table
  --slow-link FROM-TO=FACTOR   that cable keeps FACTOR (0..1] of its bandwidth, both directions;
                       ends as the JSON 'links' name them: node0-rack0=0.25, rank3-spine=0.5
                       (repeatable)
  --straggler RANK=DELAY       that rank joins DELAY late: 3=200us (repeatable)
  --scenario FILE      read the whole scenario from a JSON file (other flags ignored)
 uniform:
  --ranks N            1..4096                                                   (default 8)
  --bandwidth BW       each rank's port, per direction: 100GB/s, 800Gbps         (default 100GB/s)
  --latency T          per message: 5us, 1ms, 0                                  (default 5us)
 cluster (racks × nodes per rack × GPUs per node ≤ 4096):
  --racks N --nodes-per-rack N --gpus-per-node N                                 (default 1, 2, 8)
  --intra-bw BW --intra-lat T     GPU ↔ node switch (NVLink, PCIe)               (default 450GB/s, 1us)
  --node-bw BW  --node-lat T      node ↔ rack switch, all NICs of a node         (default 400Gbps, 2us)
  --rack-bw BW  --rack-lat T      rack ↔ spine                                   (default 200Gbps, 5us)
  --oversubscription X            rack uplink carries rack-bw / X, 1..64         (default 1)

SWEEP OPTIONS (plus the scenario options above, without --size):
  --min-size SIZE --max-size SIZE      first and last message size                (default 8B, 1GB)
  --step-factor F                      multiply the size by F each row, 2..1024   (default 2)

SPEEDUP OPTIONS (plus the scenario options above, without --size):
  --preset ID          one of the course chapter's scenarios (sets topology, model and algorithm):
                       eight-gpus-6-7x, bad-topology-under-4x, network-100g-over-40pct,
                       io-bound-30pct, racks-800-200-tree-wins, inverted-400-800-ring-wins,
                       slow-network-under-4x
  --model ID           resnet50 | bert-large | gpt2-xl | 10b                       (default bert-large)
  --parameters N       instead of --model: parameter count
  --compute T          forward + backward on one GPU per step                      (default: the model's)
  --gradient-bytes B   4 (fp32) or 2 (bf16/fp16)                                   (default 4)
  --overlap X          share of the backward pass that hides communication, 0..1   (default 0)
  --backward-share X   share of compute in the backward pass, 0..1                 (default 0.667)
  --input SIZE         bytes each GPU reads per step                               (default: the model's)
  --storage-bw BW      shared storage read bandwidth                               (default 10GB/s)
  --max-gpus N         largest GPU count (counts double from 1)                    (default: the topology's)

Units: B KB MB GB TB are powers of 1000, KiB MiB GiB TiB powers of 1024; GB/s is 10^9 bytes/s,
Gbps (Gb/s) 10^9 bits/s; ns us ms s.

EXAMPLES:
  allreduce-lab simulate --algorithm ring --topology uniform --ranks 8 --bandwidth 100GB/s --latency 5us --size 1GiB --json
  allreduce-lab simulate --algorithm hierarchical --topology cluster --racks 2 --nodes-per-rack 2 \\
      --gpus-per-node 8 --intra-bw 450GB/s --intra-lat 1us --node-bw 400Gbps --node-lat 2us \\
      --rack-bw 200Gbps --rack-lat 5us --size 100MB --json
";

/// Flags as given: `--name value`, `--name=value`, or a bare switch.
#[derive(Debug, Default)]
pub struct Flags {
    values: BTreeMap<String, String>,
    switches: Vec<String>,
    /// The values of repeatable flags, in order.
    lists: BTreeMap<String, Vec<String>>,
}

const SWITCHES: [&str; 2] = ["json", "help"];
/// Flags that may be given more than once.
const REPEATABLE: [&str; 2] = ["slow-link", "straggler"];

impl Flags {
    pub fn parse(args: &[String], known: &[&str]) -> Result<Flags, String> {
        let mut flags = Flags::default();
        let mut i = 0;
        while i < args.len() {
            let a = &args[i];
            let Some(body) = a.strip_prefix("--") else {
                return Err(format!(
                    "unexpected argument '{a}'; flags start with -- (see 'allreduce-lab help')"
                ));
            };
            let (name, inline) = match body.split_once('=') {
                Some((n, v)) => (n.to_string(), Some(v.to_string())),
                None => (body.to_string(), None),
            };
            if SWITCHES.contains(&name.as_str()) {
                flags.switches.push(name);
                i += 1;
                continue;
            }
            if !known.contains(&name.as_str()) {
                return Err(format!(
                    "unknown flag '--{name}'; allowed: {}",
                    known
                        .iter()
                        .chain(SWITCHES.iter())
                        .map(|k| format!("--{k}"))
                        .collect::<Vec<_>>()
                        .join(" ")
                ));
            }
            let value = match inline {
                Some(v) => v,
                None => {
                    i += 1;
                    args.get(i)
                        .cloned()
                        .ok_or_else(|| format!("flag '--{name}' needs a value"))?
                }
            };
            if REPEATABLE.contains(&name.as_str()) {
                flags.lists.entry(name).or_default().push(value);
                i += 1;
                continue;
            }
            if flags.values.insert(name.clone(), value).is_some() {
                return Err(format!("flag '--{name}' is given twice"));
            }
            i += 1;
        }
        Ok(flags)
    }

    pub fn has(&self, switch: &str) -> bool {
        self.switches.iter().any(|s| s == switch)
    }

    pub fn get(&self, name: &str) -> Option<&str> {
        self.values.get(name).map(String::as_str)
    }

    /// Every value of a repeatable flag, in the order given.
    pub fn all(&self, name: &str) -> &[String] {
        self.lists.get(name).map(Vec::as_slice).unwrap_or(&[])
    }

    fn parsed<T>(
        &self,
        name: &str,
        default: &str,
        parse: impl Fn(&str) -> Result<T, String>,
    ) -> Result<T, String> {
        let text = self.get(name).unwrap_or(default);
        parse(text).map_err(|e| format!("--{name}: {e}"))
    }

    pub fn count(&self, name: &str, default: usize, max: usize) -> Result<usize, String> {
        self.parsed(name, &default.to_string(), |t| {
            let n: i64 = t
                .trim()
                .parse()
                .map_err(|_| format!("'{t}' is not a whole number; expected 1..{max}"))?;
            if n < 1 || n > max as i64 {
                return Err(format!("{n} is out of range; expected 1..{max}"));
            }
            Ok(n as usize)
        })
    }

    pub fn bandwidth(&self, name: &str, default: &str) -> Result<Bandwidth, String> {
        self.parsed(name, default, |t| parse_bandwidth(t).map_err(|e| e.0))
    }

    pub fn duration(&self, name: &str, default: &str) -> Result<f64, String> {
        self.parsed(name, default, |t| parse_duration(t).map_err(|e| e.0))
    }

    pub fn size(&self, name: &str, default: &str) -> Result<u64, String> {
        self.parsed(name, default, |t| parse_size(t).map_err(|e| e.0))
    }

    pub fn number(&self, name: &str, default: &str, lo: f64, hi: f64) -> Result<f64, String> {
        self.parsed(name, default, |t| {
            let x: f64 = t
                .trim()
                .parse()
                .map_err(|_| format!("'{t}' is not a number; expected {lo}..{hi}"))?;
            if !(x.is_finite() && (lo..=hi).contains(&x)) {
                return Err(format!("{t} is out of range; expected {lo}..{hi}"));
            }
            Ok(x)
        })
    }
}

/// The flags every scenario-taking command knows.
pub const SCENARIO_FLAGS: [&str; 22] = [
    "algorithm",
    "topology",
    "size",
    "segments",
    "gamma",
    "scenario",
    "ranks",
    "bandwidth",
    "latency",
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
    "json",
    "slow-link",
    "straggler",
];

/// Reads the topology flags.
pub fn topology_from_flags(f: &Flags) -> Result<TopologySpec, String> {
    match f.get("topology").unwrap_or("uniform") {
        "uniform" => Ok(TopologySpec::Uniform {
            ranks: f.count("ranks", 8, MAX_RANKS)?,
            bandwidth: f.bandwidth("bandwidth", "100GB/s")?,
            latency_secs: f.duration("latency", "5us")?,
        }),
        "cluster" => Ok(TopologySpec::Cluster {
            racks: f.count("racks", 1, MAX_RANKS)?,
            nodes_per_rack: f.count("nodes-per-rack", 2, MAX_RANKS)?,
            gpus_per_node: f.count("gpus-per-node", 8, MAX_RANKS)?,
            intra_bw: f.bandwidth("intra-bw", "450GB/s")?,
            intra_lat_secs: f.duration("intra-lat", "1us")?,
            node_bw: f.bandwidth("node-bw", "400Gbps")?,
            node_lat_secs: f.duration("node-lat", "2us")?,
            rack_bw: f.bandwidth("rack-bw", "200Gbps")?,
            rack_lat_secs: f.duration("rack-lat", "5us")?,
            oversubscription: f.number("oversubscription", "1", 1.0, 64.0)?,
        }),
        other => Err(format!(
            "--topology: unknown kind '{other}'; expected uniform or cluster"
        )),
    }
}

/// Reads a whole scenario from the flags (or from `--scenario FILE`).
pub fn scenario_from_flags(f: &Flags) -> Result<Scenario, String> {
    if let Some(path) = f.get("scenario") {
        let text = std::fs::read_to_string(path)
            .map_err(|e| format!("--scenario: cannot read '{path}': {e}"))?;
        return serde_json::from_str(&text)
            .map_err(|e| format!("--scenario: '{path}' is not a valid scenario: {e}"));
    }
    let algorithm: Algorithm = f
        .get("algorithm")
        .unwrap_or("ring")
        .parse()
        .map_err(|e| format!("--algorithm: {e}"))?;
    Ok(Scenario {
        topology: topology_from_flags(f)?,
        algorithm,
        size_bytes: f.size("size", "1GiB")?,
        segments: f.count("segments", 1, MAX_SEGMENTS)?,
        gamma_secs_per_byte: f.number("gamma", "0", 0.0, crate::sim::scenario::MAX_GAMMA)?,
        faults: faults_from_flags(f)?,
    })
}

/// Reads `--slow-link FROM-TO=FACTOR` and `--straggler RANK=DELAY` (each repeatable). Whether the
/// link and the rank exist is checked with the rest of the scenario.
pub fn faults_from_flags(f: &Flags) -> Result<Faults, String> {
    let mut faults = Faults::default();
    for v in f.all("slow-link") {
        let (cable, factor) = v.rsplit_once('=').ok_or_else(|| {
            format!(
                "--slow-link: '{v}' lacks =FACTOR; expected FROM-TO=FACTOR, e.g. node0-rack0=0.25"
            )
        })?;
        let cable: Cable = cable.parse().map_err(|e| format!("--slow-link: {e}"))?;
        let factor: f64 = factor.trim().parse().map_err(|_| {
            format!(
                "--slow-link: '{factor}' is not a number; expected a factor in (0, 1], e.g. 0.25"
            )
        })?;
        if !(factor.is_finite() && factor > 0.0 && factor <= 1.0) {
            return Err(format!(
                "--slow-link: factor {factor} is out of range; expected a number in (0, 1], e.g. 0.25"
            ));
        }
        faults.slow_links.push(SlowLink { cable, factor });
    }
    for v in f.all("straggler") {
        let (rank, delay) = v.split_once('=').ok_or_else(|| {
            format!("--straggler: '{v}' lacks =DELAY; expected RANK=DELAY, e.g. 3=200us")
        })?;
        let rank: usize = rank.trim().parse().map_err(|_| {
            format!("--straggler: '{rank}' is not a rank number; expected RANK=DELAY, e.g. 3=200us")
        })?;
        let delay_secs = parse_duration(delay).map_err(|e| format!("--straggler: {}", e.0))?;
        if delay_secs > MAX_DELAY_SECS {
            return Err(format!(
                "--straggler: delay {delay} is out of range; expected 0..{MAX_DELAY_SECS} s"
            ));
        }
        faults.stragglers.push(Straggler { rank, delay_secs });
    }
    Ok(faults)
}

fn endpoint_name(e: Endpoint) -> String {
    e.to_string()
}

fn tier_name(t: Tier) -> &'static str {
    match t {
        Tier::Gpu => "gpu",
        Tier::Node => "node",
        Tier::Rack => "rack",
    }
}

/// The JSON report of a simulation.
pub fn simulation_json(scenario: &Scenario, sim: &Simulation) -> Value {
    let t = &sim.trace;
    let topo = &t.topology;
    json!({
        "algorithm": sim.algorithm.name(),
        "requested_algorithm": scenario.algorithm.name(),
        "ranks": topo.ranks(),
        "size_bytes": t.size_bytes(),
        "segments": scenario.segments,
        "gamma_s_per_byte": scenario.gamma_secs_per_byte,
        "time_s": t.time_secs,
        "algbw_GBps": t.algbw_bytes_per_sec() / 1e9,
        "busbw_GBps": t.busbw_bytes_per_sec() / 1e9,
        "lower_bound_s": t.lower_bound.secs,
        "lower_bound_kind": t.lower_bound.kind,
        "lower_bound_explained": t.lower_bound.explain(),
        "efficiency": t.efficiency(),
        "verified": t.verified(),
        "verification_error": t.verification.as_ref().err(),
        "transfers": t.schedule.len(),
        "steps": t.schedule.steps(),
        "per_rank": t.ranks.iter().enumerate().map(|(r, x)| json!({
            "rank": r, "sent_bytes": x.sent_bytes, "received_bytes": x.received_bytes
        })).collect::<Vec<_>>(),
        "links": topo.links().iter().enumerate().map(|(id, l)| json!({
            "id": id,
            "from": endpoint_name(l.from),
            "to": endpoint_name(l.to),
            "tier": tier_name(l.tier),
            "bandwidth_GBps": l.bandwidth.gbytes_per_sec(),
            "bytes": t.links[id].bytes,
            "busy_fraction": t.busy_fraction(id),
            "utilisation": t.utilisation(id),
        })).collect::<Vec<_>>(),
        "auto": sim.auto.as_ref().map(|a| json!({
            "chosen": a.chosen.name(),
            "reason": a.reason,
            "candidates": a.candidates.iter().map(|(alg, secs)| json!({
                "algorithm": alg.name(),
                "time_s": if secs.is_finite() { json!(secs) } else { Value::Null },
            })).collect::<Vec<_>>(),
        })),
        "scenario": scenario,
    })
}

/// The human-readable report of a simulation.
pub fn simulation_table(scenario: &Scenario, sim: &Simulation) -> String {
    let faults = &scenario.faults;
    let t = &sim.trace;
    let topo = &t.topology;
    let mut out = String::new();
    let n = topo.ranks();
    out += &format!(
        "{} on {} ranks, {} per rank\n",
        sim.algorithm,
        n,
        format_bytes(t.size_bytes() as f64)
    );
    if let Some(a) = &sim.auto {
        out += &format!("  auto: {}\n", a.reason);
    }
    for s in &faults.slow_links {
        out += &format!(
            "  slow link    {} keeps {}% of its bandwidth\n",
            s.cable,
            s.factor * 100.0
        );
    }
    for s in &faults.stragglers {
        out += &format!(
            "  straggler    rank {} joins {} late\n",
            s.rank,
            format_secs(s.delay_secs)
        );
    }
    let bw = |b: f64| {
        let b = Bandwidth::from_bytes_per_sec(b);
        format!("{} ({})", format_bandwidth(b), format_bandwidth_bits(b))
    };
    out += &format!("  time         {}\n", format_secs(t.time_secs));
    out += &format!("  algbw        {}\n", bw(t.algbw_bytes_per_sec()));
    out += &format!("  busbw        {}\n", bw(t.busbw_bytes_per_sec()));
    out += &format!(
        "  lower bound  {} ({:.1}% of it reached): {}\n",
        format_secs(t.lower_bound.secs),
        t.efficiency() * 100.0,
        t.lower_bound.explain()
    );
    out += &format!(
        "  verified     {}\n",
        match &t.verification {
            Ok(()) => "yes: every rank holds every contribution exactly once".to_string(),
            Err(e) => format!("NO: {e}"),
        }
    );
    out += &format!(
        "  transfers    {} in {} steps\n\n",
        t.schedule.len(),
        t.schedule.steps()
    );
    out += "  rank        sent    received\n";
    let shown: Vec<usize> = if n <= 16 {
        (0..n).collect()
    } else {
        vec![0, 1, 2, n - 1]
    };
    for r in shown {
        out += &format!(
            "  {:>4} {:>11} {:>11}\n",
            r,
            format_bytes(t.ranks[r].sent_bytes as f64),
            format_bytes(t.ranks[r].received_bytes as f64)
        );
    }
    if n > 16 {
        out += &format!("  ({} ranks; --json lists all)\n", n);
    }
    if let Some(l) = t.busiest_link() {
        let link = &topo.links()[l];
        out += &format!(
            "\n  busiest link {} → {} ({}, {}): {} carried, {:.1}% utilised, busy {:.1}% of the time\n",
            link.from,
            link.to,
            tier_name(link.tier),
            format_bandwidth(link.bandwidth),
            format_bytes(t.links[l].bytes),
            t.utilisation(l) * 100.0,
            t.busy_fraction(l) * 100.0
        );
    }
    out
}

/// Runs the CLI on `args` (without the program name). Returns the text to print and the exit code.
pub fn run_cli(args: &[String]) -> (String, i32) {
    let Some(cmd) = args.first() else {
        return (HELP.to_string(), 0);
    };
    let rest = &args[1..];
    let result = match cmd.as_str() {
        "help" | "--help" | "-h" => Ok(HELP.to_string()),
        "simulate" => cmd_simulate(rest),
        "sweep" => cmd_sweep(rest),
        "speedup" => cmd_speedup(rest),
        other => Err(format!(
            "unknown command '{other}'; expected simulate, sweep, speedup or help"
        )),
    };
    match result {
        Ok(text) => (text, 0),
        Err(e) => (format!("error: {e}"), 2),
    }
}

fn cmd_simulate(args: &[String]) -> Result<String, String> {
    let flags = Flags::parse(args, &SCENARIO_FLAGS)?;
    if flags.has("help") {
        return Ok(HELP.to_string());
    }
    let scenario = scenario_from_flags(&flags)?;
    let sim = simulate(&scenario, false).map_err(|e| e.0)?;
    if !sim.trace.verified() {
        // Still print the report, then fail.
        let report = if flags.has("json") {
            simulation_json(&scenario, &sim).to_string()
        } else {
            simulation_table(&scenario, &sim)
        };
        return Err(format!(
            "the result did not verify: {}\n{report}",
            sim.trace
                .verification
                .as_ref()
                .err()
                .cloned()
                .unwrap_or_default()
        ));
    }
    Ok(if flags.has("json") {
        simulation_json(&scenario, &sim).to_string()
    } else {
        simulation_table(&scenario, &sim)
    })
}

fn flags_with(extra: &[&'static str]) -> Vec<&'static str> {
    SCENARIO_FLAGS
        .iter()
        .copied()
        .filter(|f| *f != "size")
        .chain(extra.iter().copied())
        .collect()
}

fn cmd_sweep(args: &[String]) -> Result<String, String> {
    let known = flags_with(&["min-size", "max-size", "step-factor"]);
    let flags = Flags::parse(args, &known)?;
    if flags.has("help") {
        return Ok(HELP.to_string());
    }
    let mut base = scenario_from_flags(&flags)?;
    let min = flags.size("min-size", "8B")?;
    let max = flags.size("max-size", "1GB")?;
    let factor = flags.count("step-factor", 2, 1024)? as u64;
    base.size_bytes = min.max(1);
    let rows = sweep(&base, min, max, factor).map_err(|e| e.0)?;
    let ranks = base.validate().map_err(|e| e.0)?.ranks();
    if flags.has("json") {
        return Ok(json!({
            "algorithm": base.algorithm.name(),
            "ranks": ranks,
            "rows": rows.iter().map(|r| json!({
                "size_bytes": r.size_bytes,
                "count": r.count,
                "type": "float",
                "redop": "sum",
                "time_us": r.time_secs * 1e6,
                "algbw_GBps": r.algbw_bytes_per_sec / 1e9,
                "busbw_GBps": r.busbw_bytes_per_sec / 1e9,
                "algorithm": r.algorithm.name(),
            })).collect::<Vec<_>>(),
        })
        .to_string());
    }
    let mut out = format!(
        "# allreduce-lab sweep: {} on {ranks} ranks (simulated; columns as nccl-tests' all_reduce_perf)\n",
        base.algorithm
    );
    out += "#\n#        size         count      type   redop         time     algbw     busbw";
    let auto = base.algorithm == Algorithm::Auto;
    if auto {
        out += "  algorithm";
    }
    out += "\n#         (B)    (elements)                          (us)    (GB/s)    (GB/s)\n";
    for r in &rows {
        out += &format!(
            "{:>13} {:>13} {:>9} {:>7} {:>12.2} {:>9.2} {:>9.2}",
            r.size_bytes,
            r.count,
            "float",
            "sum",
            r.time_secs * 1e6,
            r.algbw_bytes_per_sec / 1e9,
            r.busbw_bytes_per_sec / 1e9
        );
        if auto {
            out += &format!("  {}", r.algorithm);
        }
        out += "\n";
    }
    let avg = rows.iter().map(|r| r.busbw_bytes_per_sec).sum::<f64>() / rows.len().max(1) as f64;
    out += &format!("# Avg bus bandwidth    : {:.2} GB/s\n", avg / 1e9);
    Ok(out)
}

fn cmd_speedup(args: &[String]) -> Result<String, String> {
    let known = flags_with(&[
        "preset",
        "model",
        "parameters",
        "compute",
        "gradient-bytes",
        "overlap",
        "backward-share",
        "input",
        "storage-bw",
        "max-gpus",
    ]);
    let flags = Flags::parse(args, &known)?;
    if flags.has("help") {
        return Ok(HELP.to_string());
    }
    let preset = match flags.get("preset") {
        Some(id) => Some(
            CHAPTER_SCENARIOS
                .iter()
                .find(|s| s.id == id)
                .ok_or_else(|| {
                    let ids: Vec<_> = CHAPTER_SCENARIOS.iter().map(|s| s.id).collect();
                    format!(
                        "--preset: unknown scenario '{id}'; expected one of: {}",
                        ids.join(", ")
                    )
                })?,
        ),
        None => None,
    };
    let (topology, mut model, algorithm, segments) = match preset {
        Some(p) => (p.topology(), p.training(), p.algorithm, p.segments),
        None => {
            let base = ModelPreset::find(flags.get("model").unwrap_or("bert-large"))
                .map_err(|e| format!("--model: {e}"))?;
            let mut m = base.training(0.0, 10e9);
            if flags.get("parameters").is_some() {
                m.parameters = flags.number("parameters", "1", 1.0, 1e13)? as u64;
            }
            if flags.get("compute").is_some() {
                m.compute_secs = flags.duration("compute", "0.25")?;
            }
            m.bytes_per_gradient = flags.count("gradient-bytes", 4, 8)? as u32;
            m.overlap = flags.number("overlap", "0", 0.0, 1.0)?;
            m.backward_share = flags.number("backward-share", "0.6666666666666666", 0.0, 1.0)?;
            if flags.get("input").is_some() {
                m.input_bytes_per_gpu = flags.size("input", "0")? as f64;
            }
            m.storage_bytes_per_sec = flags.bandwidth("storage-bw", "10GB/s")?.bytes_per_sec();
            let sc = scenario_from_flags(&flags)?;
            (sc.topology, m, sc.algorithm, sc.segments)
        }
    };
    if preset.is_some() && flags.get("overlap").is_some() {
        model.overlap = flags.number("overlap", "0", 0.0, 1.0)?;
    }
    model.validate().map_err(|e| e.0)?;
    let full = crate::sim::topology::Topology::new(&topology)
        .map_err(|e| e.0)?
        .ranks();
    let max_gpus = flags.count("max-gpus", full, MAX_RANKS)?;
    let counts: Vec<usize> = std::iter::successors(Some(1usize), |&n| Some(n * 2))
        .take_while(|&n| n <= max_gpus)
        .chain((!max_gpus.is_power_of_two()).then_some(max_gpus))
        .collect();
    let steps = scaling(&model, &topology, algorithm, segments, &counts).map_err(|e| e.0)?;
    let verdict = match preset {
        Some(p) => Some((p, evaluate(p).map_err(|e| e.0)?)),
        None => None,
    };
    if flags.has("json") {
        return Ok(json!({
            "algorithm": algorithm.name(),
            "gradient_bytes": model.gradient_bytes(),
            "model": model,
            "rows": steps,
            "preset": verdict.as_ref().map(|(p, o)| json!({
                "id": p.id, "claim": p.claim, "because": p.because,
                "metric": p.metric.name(), "value": o.value,
                "expected": [p.expected.0, if p.expected.1.is_finite() { json!(p.expected.1) } else { Value::Null }],
                "holds": o.holds,
            })),
        })
        .to_string());
    }
    let mut out = String::new();
    if let Some((p, o)) = &verdict {
        out += &format!(
            "{}\n  because: {}\n  simulated {} = {:.3} → {}\n\n",
            p.claim,
            p.because,
            p.metric.name(),
            o.value,
            if o.holds { "holds" } else { "does not hold" }
        );
    }
    out += &format!(
        "{algorithm}, {} of gradients per GPU, compute {} per step\n",
        format_bytes(model.gradient_bytes() as f64),
        format_secs(model.compute_secs)
    );
    out += " GPUs   allreduce    exposed  storage IO       step  speedup  efficiency  GPU util  comm share\n";
    for s in &steps {
        out += &format!(
            "{:>5} {:>11} {:>10} {:>11} {:>10} {:>8.2} {:>10.1}% {:>8.1}% {:>10.1}%\n",
            s.gpus,
            format_secs(s.comm_secs),
            format_secs(s.exposed_comm_secs),
            format_secs(s.exposed_io_secs),
            format_secs(s.step_secs),
            s.speedup,
            s.scaling_efficiency * 100.0,
            s.gpu_utilisation * 100.0,
            s.comm_share * 100.0
        );
    }
    Ok(out)
}
