//! The real-hardware commands: `nccl-tests`, `calibrate`, and the `--model nccl` spellings of
//! `sweep` and `simulate`. Kept apart from `cli.rs` so that the textbook commands stay as they are.

use crate::cli::Flags;
use crate::sim::nccl::calibrate::{calibrate, Calibration, FitParam};
use crate::sim::nccl::model::{predict, predict_fast, Choice};
use crate::sim::nccl::nccl_tests_parse::parse;
use crate::sim::nccl::system::{System, MAX_NODES, PRESETS};
use crate::sim::sweep::sizes;
use crate::sim::units::{format_secs, parse_size};
use serde_json::{json, Value};
use std::ffi::OsStr;

pub const HELP: &str = "\
REAL-HARDWARE MODEL (like NCCL on a named system):
  allreduce-lab nccl-tests --system ID [--nodes K] [--gpus-per-node G] [--nvls on|off] \\
      -b 8 -e 16GiB -f 2 [--json]
  allreduce-lab nccl-tests --system-file my-cluster.json -b 8 -e 8GiB -f 2 [--json]
  allreduce-lab calibrate --system ID --nodes K --measured all_reduce_perf.txt [--out my-cluster.json] [--json]
  allreduce-lab sweep --model nccl --system ID ...      (the same as nccl-tests, with sweep's flags)
  allreduce-lab simulate --model nccl --system ID --size 1GiB [--nvls on|off] [--json]

  --system ID          dgx-a100 | dgx-h100 | dgx-h200 | dgx-b200 | pcie-gen4-8 | pcie-gen5-8
  --system-file FILE   a system written by calibrate --out (instead of --system)
  --nodes K            1..128                                                     (default 1)
  --gpus-per-node G    2..8                                                       (default 8)
  --nvls on|off        let NCCL use NVLink SHARP where the switch can reduce       (default on)
  -b, -e SIZE          first and last size: 8, 1KiB, 16GiB, or nccl-tests' 128M (K M G = 1024^n)
  -f F                 multiply the size by F each row, 2..1024                    (default 2)
  --measured FILE      all_reduce_perf output as printed (comments, in-place columns, any rows)
";

/// Flags of the nccl model, in addition to a command's own.
pub const NCCL_FLAGS: [&str; 5] = ["system", "system-file", "nodes", "gpus-per-node", "nvls"];

/// nccl-tests' short flags and long names, as this CLI's flags.
fn translate<'a>(args: &[&'a OsStr]) -> Vec<&'a OsStr> {
    args.iter()
        .map(|&a| match a.to_str() {
            Some("-b" | "--minbytes") => OsStr::new("--min-size"),
            Some("-e" | "--maxbytes") => OsStr::new("--max-size"),
            Some("-f" | "--stepfactor") => OsStr::new("--step-factor"),
            _ => a,
        })
        .collect()
}

/// A size as nccl-tests writes it (`128M`, `16G`, `1K`: powers of 1024) or as this project does.
pub fn parse_nccl_size(text: &str) -> Result<u64, String> {
    let t = text.trim();
    let scale = match t.chars().last() {
        Some('K' | 'k') => Some(1u64 << 10),
        Some('M' | 'm') => Some(1 << 20),
        Some('G' | 'g') => Some(1 << 30),
        Some('T' | 't') => Some(1 << 40),
        _ => None,
    };
    if let Some(scale) = scale {
        let num = &t[..t.len() - 1];
        if let Ok(v) = num.trim().parse::<u64>() {
            return v
                .checked_mul(scale)
                .ok_or_else(|| format!("size '{text}' is too large"));
        }
    }
    parse_size(t).map_err(|e| e.0)
}

/// The system the flags name: `--system-file`, or `--system` with `--nodes` and `--gpus-per-node`.
pub fn system_from_flags(f: &Flags) -> Result<System, String> {
    if let Some(path) = f.get("system-file") {
        if f.get("system").is_some() {
            return Err("give either --system or --system-file, not both".into());
        }
        let text = std::fs::read_to_string(path)
            .map_err(|e| format!("--system-file: cannot read '{path}': {e}"))?;
        return System::from_json(&text).map_err(|e| format!("--system-file '{path}': {e}"));
    }
    let id = f.get("system").ok_or_else(|| {
        format!(
            "--system is required: one of {} (or --system-file FILE)",
            PRESETS.join(", ")
        )
    })?;
    let nodes = f.count("nodes", 1, MAX_NODES)?;
    let g = f.count("gpus-per-node", 8, 8)?;
    System::preset(id, nodes, g).map_err(|e| format!("--system: {e}"))
}

/// `--nvls on|off`.
pub fn nvls_from_flags(f: &Flags) -> Result<bool, String> {
    match f.get("nvls").unwrap_or("on") {
        "on" => Ok(true),
        "off" => Ok(false),
        other => Err(format!("--nvls: '{other}' must be on or off")),
    }
}

fn size_flag(f: &Flags, name: &str, default: &str) -> Result<u64, String> {
    parse_nccl_size(f.get(name).unwrap_or(default)).map_err(|e| format!("--{name}: {e}"))
}

/// The rows of a virtual nccl-tests run on `sys`.
pub fn nccl_sweep(
    sys: &System,
    nvls: bool,
    min: u64,
    max: u64,
    factor: u64,
) -> Result<Vec<Choice>, String> {
    sizes(min, max, factor)
        .map_err(|e| e.0)?
        .into_iter()
        .map(|s| predict_fast(sys, s, nvls).map_err(|e| e.0))
        .collect()
}

/// `nccl-tests` and `sweep --model nccl`: one implementation.
pub fn cmd_nccl_tests(args: &[&OsStr]) -> Result<String, String> {
    let args = translate(args);
    let known: Vec<&str> = NCCL_FLAGS
        .iter()
        .copied()
        .chain(["min-size", "max-size", "step-factor", "model"])
        .collect();
    let flags = Flags::parse(&args, &known)?;
    if flags.has("help") {
        return Ok(HELP.to_string());
    }
    if let Some(m) = flags.get("model") {
        if m != "nccl" {
            return Err(format!(
                "--model: nccl-tests runs the nccl model; for '{m}' use 'allreduce-lab sweep --model {m}'"
            ));
        }
    }
    nccl_tests_report(&flags)
}

/// The report of a virtual nccl-tests from parsed flags (`sweep --model nccl` comes here too).
pub fn nccl_tests_report(flags: &Flags) -> Result<String, String> {
    let sys = system_from_flags(flags)?;
    let nvls = nvls_from_flags(flags)?;
    let min = size_flag(flags, "min-size", "8")?;
    let max = size_flag(flags, "max-size", "8GiB")?;
    let factor = flags.count("step-factor", 2, 1024)? as u64;
    let rows = nccl_sweep(&sys, nvls, min, max, factor)?;
    if flags.has("json") {
        return Ok(json!({
            "system": sys,
            "model": "nccl",
            "nvls": nvls,
            "ranks": sys.ranks(),
            "rows": rows.iter().map(row_json).collect::<Vec<_>>(),
        })
        .to_string());
    }
    Ok(table(&sys, nvls, &rows))
}

fn row_json(c: &Choice) -> Value {
    json!({
        "size_bytes": c.size_bytes,
        "time_us": c.time_secs * 1e6,
        "algbw_GBps": c.algbw_bytes_per_sec() / 1e9,
        "busbw_GBps": c.busbw_bytes_per_sec() / 1e9,
        "algorithm": c.algorithm.name(),
        "protocol": c.protocol.name(),
        "channels": c.channels,
    })
}

/// The table in all_reduce_perf's layout, plus the chosen algorithm, protocol and channels.
pub fn table(sys: &System, nvls: bool, rows: &[Choice]) -> String {
    let mut out = format!(
        "# allreduce-lab nccl-tests: {} × {} GPUs on {} (model: like NCCL; NVLS {}; simulated, not measured)\n",
        sys.nodes,
        sys.gpus_per_node,
        sys.name,
        if nvls && sys.nvls_available() { "on" } else { "off" }
    );
    out += "#\n#                                                              out-of-place\n";
    out += "#       size         count      type   redop    root     time   algbw   busbw  algorithm protocol channels\n";
    out += "#        (B)    (elements)                               (us)  (GB/s)  (GB/s)\n";
    for c in rows {
        out += &format!(
            "{:>12}  {:>12}  {:>8}  {:>6}  {:>6}  {:>7}  {:>6.2}  {:>6.2}  {:>9} {:>8} {:>8}\n",
            c.size_bytes,
            c.size_bytes / 4,
            "float",
            "sum",
            -1,
            time_cell(c.time_secs * 1e6),
            c.algbw_bytes_per_sec() / 1e9,
            c.busbw_bytes_per_sec() / 1e9,
            c.algorithm.name(),
            c.protocol.name(),
            c.channels
        );
    }
    let avg = rows.iter().map(|c| c.busbw_bytes_per_sec()).sum::<f64>() / rows.len().max(1) as f64;
    out += &format!("# Avg bus bandwidth    : {:.2} GB/s\n", avg / 1e9);
    out
}

/// all_reduce_perf prints times with two decimals below 10 ms, fewer above.
fn time_cell(us: f64) -> String {
    if us < 1e4 {
        format!("{us:.2}")
    } else if us < 1e5 {
        format!("{us:.1}")
    } else {
        format!("{us:.0}")
    }
}

/// `simulate --model nccl`: one size, the choice and why.
pub fn cmd_simulate_nccl(flags: &Flags) -> Result<String, String> {
    let sys = system_from_flags(flags)?;
    let nvls = nvls_from_flags(flags)?;
    let size = size_flag(flags, "size", "1GiB")?;
    if size == 0 {
        return Err("--size must be at least 1 byte".into());
    }
    // Every candidate is simulated on small clusters; on large ones, those that cannot win are
    // skipped (their bound is above the best time).
    let c = if sys.ranks() <= 64 {
        predict(&sys, size, nvls)
    } else {
        predict_fast(&sys, size, nvls)
    }
    .map_err(|e| e.0)?;
    if flags.has("json") {
        let mut v = row_json(&c);
        v["model"] = json!("nccl");
        v["system"] = json!(sys);
        v["ranks"] = json!(sys.ranks());
        v["time_s"] = json!(c.time_secs);
        v["reason"] = json!(reason(&c));
        v["candidates"] = json!(c
            .candidates
            .iter()
            .map(|k| json!({
                "algorithm": k.algorithm.name(),
                "protocol": k.protocol.name(),
                "channels": k.channels,
                "time_us": k.time_secs * 1e6,
                "gpu_link_GBps": k.gpu_link_bytes_per_sec / 1e9,
                "nic_GBps": k.nic_bytes_per_sec / 1e9,
            }))
            .collect::<Vec<_>>());
        return Ok(v.to_string());
    }
    let mut out = format!(
        "{}/{} on {} ({} × {} GPUs), {} per rank, {} channels (model: like NCCL)\n",
        c.algorithm,
        c.protocol,
        sys.name,
        sys.nodes,
        sys.gpus_per_node,
        crate::sim::units::format_bytes(size as f64),
        c.channels
    );
    out += &format!("  why          {}\n", reason(&c));
    out += &format!("  time         {}\n", format_secs(c.time_secs));
    out += &format!("  algbw        {:.2} GB/s\n", c.algbw_bytes_per_sec() / 1e9);
    out += &format!("  busbw        {:.2} GB/s\n", c.busbw_bytes_per_sec() / 1e9);
    out += &format!(
        "  GPU links    {:.0} % of {} GB/s reach NCCL's copies: {}\n",
        sys.intra_efficiency * 100.0,
        sys.intra_gbytes_per_sec,
        sys.intra_efficiency_reason
    );
    out += "\n  candidate          time   channels  GPU link   NICs\n";
    for k in &c.candidates {
        out += &format!(
            "  {:<13} {:>10} {:>9}  {:>6.1} GB/s {}\n",
            format!("{}/{}", k.algorithm, k.protocol),
            format_secs(k.time_secs),
            k.channels,
            k.gpu_link_bytes_per_sec / 1e9,
            if k.nic_bytes_per_sec > 0.0 {
                format!("{:.1} GB/s", k.nic_bytes_per_sec / 1e9)
            } else {
                "-".into()
            }
        );
    }
    Ok(out)
}

/// Why this (algorithm, protocol) won, in one sentence.
pub fn reason(c: &Choice) -> String {
    match c.runner_up() {
        Some(r) => format!(
            "{}/{} has the lowest predicted time, {} against {} for {}/{} (the runner-up), of {} candidates",
            c.algorithm,
            c.protocol,
            format_secs(c.time_secs),
            format_secs(r.time_secs),
            r.algorithm,
            r.protocol,
            c.candidates.len()
        ),
        None => format!("{}/{} is the only candidate", c.algorithm, c.protocol),
    }
}

/// `calibrate`.
pub fn cmd_calibrate(args: &[&OsStr]) -> Result<String, String> {
    let known: Vec<&str> = NCCL_FLAGS
        .iter()
        .copied()
        .chain(["measured", "out"])
        .collect();
    let flags = Flags::parse(args, &known)?;
    if flags.has("help") {
        return Ok(HELP.to_string());
    }
    let sys = system_from_flags(&flags)?;
    let nvls = nvls_from_flags(&flags)?;
    let path = flags
        .get("measured")
        .ok_or("--measured FILE is required: an all_reduce_perf output")?;
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("--measured: cannot read '{path}': {e}"))?;
    let table = parse(&text).map_err(|e| format!("--measured '{path}': {e}"))?;
    let cal = calibrate(&sys, nvls, &table).map_err(|e| format!("--measured '{path}': {e}"))?;
    if let Some(out) = flags.get("out") {
        let text = serde_json::to_string_pretty(&cal.system).map_err(|e| e.to_string())?;
        std::fs::write(out, text + "\n")
            .map_err(|e| format!("--out: cannot write '{out}': {e}"))?;
    }
    if flags.has("json") {
        return Ok(calibration_json(&cal).to_string());
    }
    Ok(calibration_text(&cal))
}

/// What a fitted number means, in words.
pub fn param_meaning(p: FitParam) -> &'static str {
    match p {
        FitParam::LaunchUs => {
            "latency floor: the fixed cost of one collective (launch, first handshake), µs"
        }
        FitParam::IntraEfficiency => "share of the GPU link's datasheet rate NCCL's copies reach",
        FitParam::NicEfficiency => "share of the NICs' line rate delivered to NCCL",
        FitParam::NetLatencyUs => "latency a message pays crossing the network, µs",
    }
}

fn calibration_json(cal: &Calibration) -> Value {
    json!({
        "system": cal.system,
        "fitted": cal.fitted.iter().map(|f| json!({
            "name": f.param.name(), "preset": f.preset, "fitted": f.fitted, "meaning": param_meaning(f.param),
        })).collect::<Vec<_>>(),
        "rows": cal.rows.iter().map(|r| json!({
            "line": r.line,
            "size_bytes": r.size_bytes,
            "measured_us": r.measured_us,
            "predicted_us": r.predicted_us,
            "error": r.error(),
            "algorithm": r.algorithm.name(),
            "protocol": r.protocol.name(),
        })).collect::<Vec<_>>(),
        "geomean_error": cal.geomean_error(),
        "preset_geomean_error": cal.preset_geomean_error,
    })
}

fn calibration_text(cal: &Calibration) -> String {
    let mut out = format!(
        "# calibrate: {} ({} × {} GPUs) fitted to {} measured rows\n#\n# fitted values\n",
        cal.system.name,
        cal.system.nodes,
        cal.system.gpus_per_node,
        cal.rows.len()
    );
    for f in &cal.fitted {
        out += &format!(
            "#   {:<18} {:>10.4} (preset {:>8.4})  {}\n",
            f.param.name(),
            f.fitted,
            f.preset,
            param_meaning(f.param)
        );
    }
    out += "#\n#        size   measured (us)  predicted (us)   error  algorithm/protocol\n";
    for r in &cal.rows {
        out += &format!(
            "{:>13} {:>15.2} {:>15.2} {:>+7.1}%  {}/{}\n",
            r.size_bytes,
            r.measured_us,
            r.predicted_us,
            r.error() * 100.0,
            r.algorithm,
            r.protocol
        );
    }
    out += &format!(
        "# geometric-mean error: {:.1} % fitted (the preset as shipped: {:.1} %)\n",
        cal.geomean_error() * 100.0,
        cal.preset_geomean_error * 100.0
    );
    out
}

/// Flags `simulate` and `sweep` gain for the two models.
pub const MODEL_FLAGS: [&str; 5] = ["model", "system", "system-file", "nodes", "nvls"];

/// Flags of the textbook scenario that mean nothing to the nccl model.
const IDEAL_ONLY: [&str; 15] = [
    "algorithm",
    "topology",
    "segments",
    "gamma",
    "scenario",
    "ranks",
    "bandwidth",
    "latency",
    "racks",
    "nodes-per-rack",
    "intra-bw",
    "intra-lat",
    "node-bw",
    "node-lat",
    "oversubscription",
];

/// `--model ideal|nccl` (default ideal); refuses textbook-only flags with `nccl`.
pub fn model_is_nccl(f: &Flags) -> Result<bool, String> {
    match f.get("model").unwrap_or("ideal") {
        "ideal" => {
            if f.get("nvls").is_some() {
                return Err("--nvls applies to --model nccl only".into());
            }
            Ok(false)
        }
        "nccl" => {
            if let Some(x) = IDEAL_ONLY.iter().find(|x| f.get(x).is_some()) {
                return Err(format!(
                    "--{x} belongs to the textbook model; --model nccl takes --system (or --system-file), --nodes, --gpus-per-node and --nvls"
                ));
            }
            Ok(true)
        }
        other => Err(format!("--model: '{other}' must be ideal or nccl")),
    }
}

/// With `--system` under the textbook model: [`System::ideal_scenario`] with the flags' algorithm,
/// size, segments and γ. `None` without `--system`.
pub fn ideal_scenario_for_system(
    f: &Flags,
) -> Result<Option<crate::sim::scenario::Scenario>, String> {
    use crate::sim::algorithms::{Algorithm, MAX_SEGMENTS};
    if f.get("system").is_none() && f.get("system-file").is_none() {
        return Ok(None);
    }
    let sys = system_from_flags(f)?;
    let algorithm: Algorithm = f
        .get("algorithm")
        .unwrap_or("ring")
        .parse()
        .map_err(|e| format!("--algorithm: {e}"))?;
    let mut scenario = sys.ideal_scenario(algorithm, f.size("size", "1GiB")?);
    scenario.segments = f.count("segments", 1, MAX_SEGMENTS)?;
    scenario.gamma_secs_per_byte = f.number("gamma", "0", 0.0, crate::sim::scenario::MAX_GAMMA)?;
    Ok(Some(scenario))
}

/// `speedup --model nccl`: data-parallel speedup on 1, 2, 4, … GPUs of a system, each count's
/// allreduce as the nccl model predicts NCCL runs it there.
pub fn cmd_speedup_nccl(args: &[&OsStr]) -> Result<String, String> {
    use crate::sim::nccl::scaling::{nccl_scaling, MAX_SCALING_GPUS};
    let known: Vec<&str> = crate::cli::TRAINING_FLAGS
        .iter()
        .copied()
        .chain(["system", "nodes", "gpus-per-node", "nvls"])
        .collect();
    let flags = Flags::parse(args, &known).map_err(|e| {
        format!("{e} (speedup --model nccl takes --system, --nodes, --gpus-per-node, --nvls and the training flags)")
    })?;
    if flags.has("help") {
        return Ok(crate::cli::HELP.to_string());
    }
    let sys = system_from_flags(&flags)?;
    let nvls = nvls_from_flags(&flags)?;
    let model = crate::cli::training_from_flags(&flags)?;
    let g = sys.gpus_per_node;
    let max_gpus = flags.count("max-gpus", sys.ranks(), MAX_SCALING_GPUS)?;
    let counts: Vec<usize> = std::iter::successors(Some(1usize), |&n| Some(n * 2))
        .take_while(|&n| n <= max_gpus)
        .chain((!max_gpus.is_power_of_two()).then_some(max_gpus))
        .collect();
    let rows = nccl_scaling(&model, &sys.name, g, nvls, &counts).map_err(|e| e.0)?;
    if flags.has("json") {
        return Ok(json!({
            "model": "nccl",
            "system": sys.name,
            "gpus_per_node": g,
            "nvls": nvls,
            "gradient_bytes": model.gradient_bytes(),
            "training": model,
            "rows": rows.iter().map(|r| {
                let mut v = json!(r.step);
                if let Some(c) = &r.choice {
                    v["algorithm"] = json!(c.algorithm.name());
                    v["protocol"] = json!(c.protocol.name());
                    v["channels"] = json!(c.channels);
                }
                v
            }).collect::<Vec<_>>(),
        })
        .to_string());
    }
    let mut out = format!(
        "like NCCL on {} ({g} GPUs per node, NVLS {}), {} of gradients per GPU, compute {} per step\n",
        sys.name,
        if nvls { "on where available" } else { "off" },
        crate::sim::units::format_bytes(model.gradient_bytes() as f64),
        format_secs(model.compute_secs)
    );
    out += " GPUs   allreduce    exposed  storage IO       step  speedup  efficiency  GPU util  comm share  NCCL's choice\n";
    for r in &rows {
        let s = &r.step;
        out += &format!(
            "{:>5} {:>11} {:>10} {:>11} {:>10} {:>8.2} {:>10.1}% {:>8.1}% {:>10.1}%  {}\n",
            s.gpus,
            format_secs(s.comm_secs),
            format_secs(s.exposed_comm_secs),
            format_secs(s.exposed_io_secs),
            format_secs(s.step_secs),
            s.speedup,
            s.scaling_efficiency * 100.0,
            s.gpu_utilisation * 100.0,
            s.comm_share * 100.0,
            r.choice.as_ref().map_or("-".to_string(), |c| format!(
                "{}/{} × {} channels",
                c.algorithm, c.protocol, c.channels
            ))
        );
    }
    Ok(out)
}
