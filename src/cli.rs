//! The native command line: `allreduce-lab simulate …` on the same core as the app.
//!
//! Every flag is checked; a bad one ends the program with one line saying what is wrong and what is
//! allowed, and a non-zero exit code.

use crate::course::chapter::{evaluate, ModelPreset, CHAPTER_SCENARIOS};
use crate::sim::algorithms::{Algorithm, MAX_SEGMENTS};
use crate::sim::faults::{Cable, Faults, SlowLink, Straggler, MAX_DELAY_SECS};
use crate::sim::scenario::{simulate, Scenario, Simulation};
use crate::sim::scenario_file::{read_scenario, MAX_SCENARIO_FILE_BYTES};
use crate::sim::sweep::sweep;
use crate::sim::topology::{Endpoint, Tier, TopologySpec, MAX_NICS_PER_NODE, MAX_RANKS};
use crate::sim::training::scaling_with_gamma;
use crate::sim::units::{
    format_bandwidth, format_bandwidth_bits, format_bytes, format_secs, parse_bandwidth,
    parse_duration, parse_size, Bandwidth,
};
use serde_json::{json, Value};
use std::collections::BTreeMap;
use std::ffi::{OsStr, OsString};
use std::path::Path;

pub const HELP: &str = "\
allreduce-lab — simulate AllReduce on simulated GPU ranks over a flow-level network

USAGE:
  allreduce-lab simulate [OPTIONS]     run one allreduce and report time, bandwidth and traffic
  allreduce-lab sweep [OPTIONS]        a virtual nccl-tests: time, algbw, busbw over message sizes
  allreduce-lab speedup [OPTIONS]      data-parallel training: speedup and step breakdown, 1..N GPUs
  allreduce-lab help                   this text

SIMULATE OPTIONS:
  --algorithm NAME     ring | tree-flat | tree-binomial | tree-binary | double-binary-tree |
                       recursive-doubling | rabenseifner | hierarchical | nccl-ring | nccl-tree |
                       auto (the fastest of the simulated algorithms)            (default ring)
  --topology KIND      uniform | cluster | rail                                  (default uniform)
  --size SIZE          bytes each rank contributes: 1024, 4KB, 100MB, 1GiB       (default 1GiB)
  --segments K         pipeline segments for the trees and NCCL's shapes, 1..256  (default 1)
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
  --nics-per-node K               NICs per node, 1..8 and at most the GPUs per node; node-bw is
                                  each NIC's, a GPU uses its nearest NIC         (default 1)
 rail (rail-optimized: one NIC per GPU, NIC i of every node on leaf switch i; nodes × GPUs ≤ 4096):
  --nodes N --gpus-per-node G     G is 1..8, one rail per GPU                    (default 2, 8)
  --intra-bw BW --intra-lat T     GPU ↔ node switch (NVLink)                     (default 450GB/s, 1us)
  --nic-bw BW   --nic-lat T       each GPU's NIC ↔ its rail's leaf switch        (default 400Gbps, 2us)
  --spine-bw BW --spine-lat T     each leaf ↔ spine                              (default 400Gbps, 3us)
  --oversubscription X            leaf uplink carries spine-bw / X, 1..64        (default 1)
  --pxn on|off                    between rails, hop over NVLink to the right rail first (on)
                                  or cross the spine (off)                       (default on)

SWEEP OPTIONS (plus the scenario options above, without --size):
  --min-size SIZE --max-size SIZE      first and last message size                (default 8B, 1GB)
  --step-factor F                      multiply the size by F each row, 2..1024   (default 2)

SPEEDUP OPTIONS (plus the scenario options above, without --size):
  --preset ID          one of the course chapter's scenarios (sets topology, model and algorithm;
                       only --overlap, --max-gpus and --json may be added):
                       eight-gpus-6-7x, bad-topology-under-4x, network-100g-over-40pct,
                       io-bound-30pct, racks-800-200-tree-wins, inverted-400-800-ring-wins,
                       slow-network-under-4x
  --model ID           resnet50 | bert-large | gpt2-xl | 10b                       (default bert-large)
                       or the network model: ideal | nccl (give --model twice for both);
                       with nccl: --system ID [--nodes K] [--gpus-per-node G] [--nvls on|off],
                       each GPU count's allreduce as NCCL would run it on that system
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
  allreduce-lab simulate --algorithm nccl-ring --topology cluster --nodes-per-rack 2 --nics-per-node 8
  allreduce-lab simulate --algorithm nccl-ring --topology rail --nodes 4 --gpus-per-node 8 --pxn off
";

/// `--name=value` → (`name`, `value`), `--name` → (`name`, none); `None` unless it starts with `--`.
/// On Unix it works on bytes, so that a file name that is not UTF-8 can be split off its flag.
#[cfg(unix)]
fn split_flag(arg: &OsStr) -> Option<(&OsStr, Option<&OsStr>)> {
    use std::os::unix::ffi::OsStrExt;
    let body = arg.as_bytes().strip_prefix(b"--")?;
    Some(match body.iter().position(|&c| c == b'=') {
        Some(eq) => (
            OsStr::from_bytes(&body[..eq]),
            Some(OsStr::from_bytes(&body[eq + 1..])),
        ),
        None => (OsStr::from_bytes(body), None),
    })
}

/// Elsewhere an argument that is not Unicode is reported whole (as a flag that is not text).
#[cfg(not(unix))]
fn split_flag(arg: &OsStr) -> Option<(&OsStr, Option<&OsStr>)> {
    let Some(text) = arg.to_str() else {
        return Some((arg, None));
    };
    let body = text.strip_prefix("--")?;
    Some(match body.split_once('=') {
        Some((n, v)) => (OsStr::new(n), Some(OsStr::new(v))),
        None => (OsStr::new(body), None),
    })
}

/// Flags as given: `--name value`, `--name=value`, or a bare switch.
#[derive(Debug, Default)]
pub struct Flags {
    values: BTreeMap<String, String>,
    /// Values of [`PATH_FLAGS`], kept as the OS gave them: a file name need not be UTF-8.
    paths: BTreeMap<String, OsString>,
    switches: Vec<String>,
    /// The values of repeatable flags, in order.
    lists: BTreeMap<String, Vec<String>>,
}

const SWITCHES: [&str; 2] = ["json", "help"];
/// Flags that may be given more than once.
const REPEATABLE: [&str; 2] = ["slow-link", "straggler"];
/// Flags whose value is a file name, taken as bytes rather than text.
const PATH_FLAGS: [&str; 1] = ["scenario"];

/// An argument as text, or a message saying which one is not.
fn utf8<'a>(arg: &'a OsStr, what: &str) -> Result<&'a str, String> {
    arg.to_str().ok_or_else(|| {
        format!(
            "{what} '{}' is not valid UTF-8 text",
            arg.to_string_lossy().escape_debug()
        )
    })
}

impl Flags {
    pub fn parse<A: AsRef<OsStr>>(args: &[A], known: &[&str]) -> Result<Flags, String> {
        let mut flags = Flags::default();
        let mut i = 0;
        while i < args.len() {
            let raw = args[i].as_ref();
            // The flag's name must be text; a path flag's value may be any bytes.
            let (name, inline): (String, Option<&OsStr>) = match split_flag(raw) {
                Some((name, inline)) => (utf8(name, "flag")?.to_string(), inline),
                None => {
                    return Err(format!(
                        "unexpected argument '{}'; flags start with -- (see 'allreduce-lab help')",
                        raw.to_string_lossy().escape_debug()
                    ))
                }
            };
            if SWITCHES.contains(&name.as_str()) {
                if inline.is_some() {
                    return Err(format!(
                        "flag '--{name}' is a switch and takes no value: give '--{name}' alone or leave it out"
                    ));
                }
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
            let value: &OsStr = match inline {
                Some(v) => v,
                None => {
                    i += 1;
                    args.get(i)
                        .map(AsRef::as_ref)
                        .ok_or_else(|| format!("flag '--{name}' needs a value"))?
                }
            };
            if REPEATABLE.contains(&name.as_str()) {
                let text = utf8(value, &format!("--{name}: the value"))?;
                flags.lists.entry(name).or_default().push(text.to_string());
                i += 1;
                continue;
            }
            let twice = if PATH_FLAGS.contains(&name.as_str()) {
                flags.paths.insert(name.clone(), value.to_owned()).is_some()
            } else {
                let text = utf8(value, &format!("--{name}: the value"))?;
                flags
                    .values
                    .insert(name.clone(), text.to_string())
                    .is_some()
            };
            if twice {
                return Err(format!("flag '--{name}' is given twice"));
            }
            i += 1;
        }
        Ok(flags)
    }

    /// The names of the flags given with a value, in order of name.
    pub fn given(&self) -> impl Iterator<Item = &str> {
        self.values
            .keys()
            .chain(self.paths.keys())
            .chain(self.lists.keys())
            .map(String::as_str)
    }

    /// The value of a file-name flag, as given.
    pub fn path(&self, name: &str) -> Option<&Path> {
        self.paths.get(name).map(Path::new)
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
pub const SCENARIO_FLAGS: [&str; 29] = [
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
    "nics-per-node",
    "nodes",
    "nic-bw",
    "nic-lat",
    "spine-bw",
    "spine-lat",
    "pxn",
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
            nics_per_node: f.count("nics-per-node", 1, MAX_NICS_PER_NODE)?,
        }),
        "rail" => Ok(TopologySpec::Rail {
            nodes: f.count("nodes", 2, MAX_RANKS)?,
            gpus_per_node: f.count("gpus-per-node", 8, MAX_NICS_PER_NODE)?,
            intra_bw: f.bandwidth("intra-bw", "450GB/s")?,
            intra_lat_secs: f.duration("intra-lat", "1us")?,
            nic_bw: f.bandwidth("nic-bw", "400Gbps")?,
            nic_lat_secs: f.duration("nic-lat", "2us")?,
            spine_bw: f.bandwidth("spine-bw", "400Gbps")?,
            spine_lat_secs: f.duration("spine-lat", "3us")?,
            oversubscription: f.number("oversubscription", "1", 1.0, 64.0)?,
            pxn: match f.get("pxn").unwrap_or("on") {
                "on" => true,
                "off" => false,
                other => return Err(format!("--pxn: '{other}' is neither on nor off")),
            },
        }),
        other => Err(format!(
            "--topology: unknown kind '{other}'; expected uniform, cluster or rail"
        )),
    }
}

/// A file's bytes, at most one more than [`MAX_SCENARIO_FILE_BYTES`] (so that `/dev/zero` or a
/// huge file is refused by size, not read whole).
fn read_bounded(path: &Path) -> std::io::Result<Vec<u8>> {
    use std::io::Read;
    let mut bytes = Vec::new();
    std::fs::File::open(path)?
        .take(MAX_SCENARIO_FILE_BYTES as u64 + 1)
        .read_to_end(&mut bytes)?;
    Ok(bytes)
}

/// Reads a whole scenario from the flags (or from `--scenario FILE`).
pub fn scenario_from_flags(f: &Flags) -> Result<Scenario, String> {
    if let Some(path) = f.path("scenario") {
        let shown = path.display();
        let bytes =
            read_bounded(path).map_err(|e| format!("--scenario: cannot read '{shown}': {e}"))?;
        return read_scenario(&bytes)
            .map_err(|e| format!("--scenario: '{shown}' is not a valid scenario: {e}"));
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
        "lower_bound_latency_s": t.lower_bound.latency_secs,
        "lower_bound_bandwidth_s": t.lower_bound.bandwidth_secs,
        "lower_bound_dominant": t.lower_bound.dominant(),
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
        "  lower bound  {} = {} latency + {} bandwidth ({:.1}% of it reached): {}\n",
        format_secs(t.lower_bound.secs),
        format_secs(t.lower_bound.latency_secs),
        format_secs(t.lower_bound.bandwidth_secs),
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

/// Runs the CLI on `args` (without the program name), as the OS gave them: only a file name may
/// be other than UTF-8. Returns the text to print and the exit code.
pub fn run_cli<A: AsRef<OsStr>>(args: &[A]) -> (String, i32) {
    let Some(cmd) = args.first() else {
        return (HELP.to_string(), 0);
    };
    let rest: Vec<&OsStr> = args[1..].iter().map(AsRef::as_ref).collect();
    let result = match utf8(cmd.as_ref(), "command") {
        Err(e) => Err(e),
        Ok("help" | "--help" | "-h") => Ok(format!("{HELP}\n{}", crate::cli_nccl::HELP)),
        Ok("simulate") => cmd_simulate(&rest),
        Ok("sweep") => cmd_sweep(&rest),
        Ok("speedup") => cmd_speedup(&rest),
        Ok("nccl-tests") => crate::cli_nccl::cmd_nccl_tests(&rest),
        Ok("calibrate") => crate::cli_nccl::cmd_calibrate(&rest),
        Ok(other) => Err(format!(
            "unknown command '{other}'; expected simulate, sweep, speedup, nccl-tests, calibrate or help"
        )),
    };
    match result {
        Ok(text) => (text, 0),
        Err(e) => (format!("error: {e}"), 2),
    }
}

/// Prints what [`run_cli`] returned: the text on stdout (status 0) or stderr (otherwise). A reader
/// that stops early (`| head`) is a normal end: status 0, nothing more said. Any other failure to
/// write (`> /dev/full`) is one line on stderr and status 1. Returns the exit status.
pub fn print_result(text: &str, code: i32) -> i32 {
    use std::io::{ErrorKind, Write};
    let text = text.trim_end();
    if code != 0 {
        // Nothing better to do if stderr itself is gone.
        let _ = writeln!(std::io::stderr().lock(), "{text}");
        return code;
    }
    let mut out = std::io::stdout().lock();
    match writeln!(out, "{text}").and_then(|()| out.flush()) {
        Ok(()) => 0,
        Err(e) if e.kind() == ErrorKind::BrokenPipe => 0,
        Err(e) => {
            let _ = writeln!(
                std::io::stderr().lock(),
                "error: cannot write the output: {e}"
            );
            1
        }
    }
}

fn cmd_simulate(args: &[&OsStr]) -> Result<String, String> {
    let known = flags_with_size(&crate::cli_nccl::MODEL_FLAGS);
    let flags = Flags::parse(args, &known)?;
    if flags.has("help") {
        return Ok(HELP.to_string());
    }
    if crate::cli_nccl::model_is_nccl(&flags)? {
        return crate::cli_nccl::cmd_simulate_nccl(&flags);
    }
    let scenario = match crate::cli_nccl::ideal_scenario_for_system(&flags)? {
        Some(s) => s,
        None => scenario_from_flags(&flags)?,
    };
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

fn flags_with_size(extra: &[&'static str]) -> Vec<&'static str> {
    SCENARIO_FLAGS
        .iter()
        .copied()
        .chain(extra.iter().copied())
        .collect()
}

fn flags_with(extra: &[&'static str]) -> Vec<&'static str> {
    SCENARIO_FLAGS
        .iter()
        .copied()
        .filter(|f| *f != "size")
        .chain(extra.iter().copied())
        .collect()
}

fn cmd_sweep(args: &[&OsStr]) -> Result<String, String> {
    let mut extra = vec!["min-size", "max-size", "step-factor"];
    extra.extend(crate::cli_nccl::MODEL_FLAGS);
    let known = flags_with(&extra);
    let flags = Flags::parse(args, &known)?;
    if flags.has("help") {
        return Ok(HELP.to_string());
    }
    if crate::cli_nccl::model_is_nccl(&flags)? {
        return crate::cli_nccl::nccl_tests_report(&flags);
    }
    let mut base = match crate::cli_nccl::ideal_scenario_for_system(&flags)? {
        Some(s) => s,
        None => scenario_from_flags(&flags)?,
    };
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

/// `speedup`'s `--model` names the training model (resnet50 …) or the network model (ideal |
/// nccl); given twice, one of each. Returns the arguments without the network model's `--model`,
/// and that model if one was given.
fn split_network_model<'a>(
    args: &[&'a OsStr],
) -> Result<(Vec<&'a OsStr>, Option<&'a str>), String> {
    let mut rest = Vec::with_capacity(args.len());
    let mut network: Option<&'a str> = None;
    let mut i = 0;
    while i < args.len() {
        let (value, used) = match args[i].to_str() {
            Some("--model") => (args.get(i + 1).and_then(|v| v.to_str()), 2),
            Some(a) if a.starts_with("--model=") => (Some(&a["--model=".len()..]), 1),
            _ => (None, 1),
        };
        match value {
            Some(v @ ("ideal" | "nccl")) => {
                if network.replace(v).is_some() {
                    return Err("--model names the network model (ideal or nccl) twice".into());
                }
                i += used;
            }
            _ => {
                rest.push(args[i]);
                i += 1;
            }
        }
    }
    Ok((rest, network))
}

/// The training model of `speedup`'s flags (without `--preset`).
pub fn training_from_flags(flags: &Flags) -> Result<crate::sim::training::TrainingModel, String> {
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
    m.validate().map_err(|e| e.0)?;
    Ok(m)
}

/// The flags of `speedup`'s training model.
pub const TRAINING_FLAGS: [&str; 9] = [
    "model",
    "parameters",
    "compute",
    "gradient-bytes",
    "overlap",
    "backward-share",
    "input",
    "storage-bw",
    "max-gpus",
];

fn cmd_speedup(args: &[&OsStr]) -> Result<String, String> {
    let (args, network) = split_network_model(args)?;
    let args = &args[..];
    if network == Some("nccl") {
        return crate::cli_nccl::cmd_speedup_nccl(args);
    }
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
    if preset.is_some() {
        // The preset sets everything else: a flag it would override is refused, not dropped.
        const WITH_PRESET: [&str; 3] = ["preset", "overlap", "max-gpus"];
        if let Some(other) = flags.given().find(|f| !WITH_PRESET.contains(f)) {
            return Err(format!(
                "--{other} cannot be combined with --preset, which sets the topology, model and algorithm; with --preset only --overlap, --max-gpus and --json are allowed"
            ));
        }
    }
    let (topology, mut model, algorithm, segments, gamma) = match preset {
        Some(p) => (p.topology(), p.training(), p.algorithm, p.segments, 0.0),
        None => {
            let m = training_from_flags(&flags)?;
            let sc = scenario_from_flags(&flags)?;
            (
                sc.topology,
                m,
                sc.algorithm,
                sc.segments,
                sc.gamma_secs_per_byte,
            )
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
    let steps = scaling_with_gamma(&model, &topology, algorithm, segments, gamma, &counts)
        .map_err(|e| e.0)?;
    let verdict = match preset {
        Some(p) => Some((p, evaluate(p).map_err(|e| e.0)?)),
        None => None,
    };
    if flags.has("json") {
        return Ok(json!({
            "algorithm": algorithm.name(),
            "gamma_s_per_byte": gamma,
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
        "{algorithm}, {} of gradients per GPU, compute {} per step",
        format_bytes(model.gradient_bytes() as f64),
        format_secs(model.compute_secs)
    );
    if gamma > 0.0 {
        out += &format!(", reduction cost {gamma:e} s/B");
    }
    out += "\n";
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
