//! The real-hardware commands: `nccl-tests`, `calibrate`, and the `--model nccl` spellings of
//! `simulate`, `sweep` and `speedup` (like NCCL on a named system), with their reports.

use super::args::{CalibrateArgs, NCCL_TESTS_MAX_SIZE, NcclTestsArgs, NetworkModel};
use super::commands::{at_most, gpu_counts, max_size, read_text, system};
use super::reports::step_row;
use crate::sim::nccl::calibrate::{Calibration, FitParam, calibrate as fit};
use crate::sim::nccl::model::{Choice, predict, predict_fast};
use crate::sim::nccl::nccl_tests_parse::parse;
use crate::sim::nccl::scaling::{MAX_SCALING_GPUS, nccl_scaling};
use crate::sim::nccl::system::System;
use crate::sim::sweep::sizes;
use crate::sim::training::TrainingModel;
use crate::sim::units::format_secs;
use serde_json::{Value, json};

/// `nccl-tests`.
pub fn nccl_tests(a: &NcclTestsArgs) -> Result<String, String> {
    if a.model == Some(NetworkModel::Ideal) {
        return Err(
            "--model: nccl-tests runs the nccl model; for 'ideal' use 'allreduce-lab sweep --model ideal'"
                .into(),
        );
    }
    let sys = system(&a.system.named, a.system.nodes, a.system.gpus_per_node)?;
    let max = max_size(a.sizes.max_size, NCCL_TESTS_MAX_SIZE)?;
    let factor = a.sizes.step_factor as u64;
    let nvls = a.system.named.nvls.unwrap_or(true);
    nccl_tests_report(&sys, nvls, a.sizes.min_size, max, factor, a.json)
}

/// The report of a virtual nccl-tests (`sweep --model nccl` comes here too).
pub fn nccl_tests_report(
    sys: &System,
    nvls: bool,
    min: u64,
    max: u64,
    factor: u64,
    json: bool,
) -> Result<String, String> {
    let rows = nccl_sweep(sys, nvls, min, max, factor)?;
    if json {
        return Ok(json!({
            "system": sys,
            "model": "nccl",
            "nvls": nvls,
            "ranks": sys.ranks(),
            "rows": rows.iter().map(row_json).collect::<Vec<_>>(),
        })
        .to_string());
    }
    Ok(table(sys, nvls, &rows))
}

/// `calibrate`.
pub fn calibrate(a: &CalibrateArgs) -> Result<String, String> {
    let sys = system(&a.system.named, a.system.nodes, a.system.gpus_per_node)?;
    let nvls = a.system.named.nvls.unwrap_or(true);
    let path = a
        .measured
        .as_ref()
        .ok_or("--measured FILE is required: an all_reduce_perf output")?;
    let shown = path.display();
    // An all_reduce_perf table is a few KB; its most rows (`MAX_ROWS`) fit in a megabyte.
    let text = read_text("--measured", path, 1 << 20)?;
    let table = parse(&text).map_err(|e| format!("--measured '{shown}': {e}"))?;
    let cal = fit(&sys, nvls, &table).map_err(|e| format!("--measured '{shown}': {e}"))?;
    if let Some(out) = &a.out {
        // Written over the measured file, the measurements were lost without a word.
        let same = |p: &std::path::Path| std::fs::canonicalize(p).ok();
        if out == path || same(out).is_some_and(|o| Some(o) == same(path)) {
            return Err(format!(
                "--out '{}' is the --measured file: it would be overwritten; write the fit elsewhere",
                out.display()
            ));
        }
        let text = serde_json::to_string_pretty(&cal.system).map_err(|e| e.to_string())?;
        std::fs::write(out, text + "\n")
            .map_err(|e| format!("--out: cannot write '{}': {e}", out.display()))?;
    }
    if a.json {
        return Ok(calibration_json(&cal).to_string());
    }
    Ok(calibration_text(&cal))
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
        .map_err(|e| e.to_string())?
        .into_iter()
        .map(|s| predict_fast(sys, s, nvls).map_err(|e| e.to_string()))
        .collect()
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
        if nvls && sys.nvls_available() {
            "on"
        } else {
            "off"
        }
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

/// Why this (algorithm, protocol) won, in one sentence; candidates as fast tie.
pub fn reason(c: &Choice) -> String {
    let tied: Vec<String> = c
        .tied()
        .map(|t| format!("{}/{}", t.algorithm, t.protocol))
        .collect();
    if !tied.is_empty() {
        return format!(
            "{}/{} ties with {} for the lowest time NCCL's tuner predicts (every channel busy), {} each, of {} candidates",
            c.algorithm,
            c.protocol,
            tied.join(", "),
            format_secs(c.candidates[0].tuner_secs),
            c.candidates.len()
        );
    }
    match c.runner_up() {
        Some(r) => format!(
            "{}/{} has the lowest time NCCL's tuner predicts (every channel busy), {} against {} for {}/{} (the runner-up), of {} candidates",
            c.algorithm,
            c.protocol,
            format_secs(c.candidates[0].tuner_secs),
            format_secs(r.tuner_secs),
            r.algorithm,
            r.protocol,
            c.candidates.len()
        ),
        None => format!("{}/{} is the only candidate", c.algorithm, c.protocol),
    }
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

/// `simulate --model nccl`: one size, the choice and why.
pub fn simulate(sys: &System, nvls: bool, size: u64, json: bool) -> Result<String, String> {
    if size == 0 {
        return Err("--size must be at least 1 byte".into());
    }
    // Every candidate is simulated on small clusters; on large ones, those that cannot win are
    // skipped (their bound is above the best time).
    let c = if sys.ranks() <= 64 {
        predict(sys, size, nvls)
    } else {
        predict_fast(sys, size, nvls)
    }
    .map_err(|e| e.to_string())?;
    if json {
        let mut v = row_json(&c);
        v["model"] = json!("nccl");
        v["system"] = json!(sys);
        v["ranks"] = json!(sys.ranks());
        v["time_s"] = json!(c.time_secs);
        v["reason"] = json!(reason(&c));
        v["candidates"] = json!(
            c.candidates
                .iter()
                .map(|k| json!({
                    "algorithm": k.algorithm.name(),
                    "protocol": k.protocol.name(),
                    "channels": k.channels,
                    "time_us": k.time_secs * 1e6,
                    "tuner_us": k.tuner_secs * 1e6,
                    "gpu_link_GBps": k.gpu_link_bytes_per_sec / 1e9,
                    "nic_GBps": k.nic_bytes_per_sec / 1e9,
                }))
                .collect::<Vec<_>>()
        );
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
    out += "\n  candidate         tuner        time   channels  GPU link   NICs\n";
    for k in &c.candidates {
        out += &format!(
            "  {:<13} {:>10} {:>10} {:>9}  {:>6.1} GB/s {}\n",
            format!("{}/{}", k.algorithm, k.protocol),
            format_secs(k.tuner_secs),
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

/// `speedup --model nccl`: data-parallel speedup on 1, 2, 4, … GPUs of a system, each count's
/// allreduce as the nccl model predicts NCCL runs it there.
pub fn speedup(
    sys: &System,
    nvls: bool,
    model: &TrainingModel,
    max_gpus: Option<usize>,
    json: bool,
) -> Result<String, String> {
    let g = sys.gpus_per_node;
    let max_gpus = at_most(
        "max-gpus",
        max_gpus.unwrap_or(sys.ranks()),
        MAX_SCALING_GPUS,
    )?;
    let counts = gpu_counts(max_gpus);
    let rows = nccl_scaling(model, &sys.name, g, nvls, &counts).map_err(|e| e.to_string())?;
    if json {
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
        out += &format!(
            "{}  {}\n",
            step_row(&r.step),
            r.choice.as_ref().map_or("-".to_string(), |c| format!(
                "{}/{} × {} channels",
                c.algorithm, c.protocol, c.channels
            ))
        );
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_reason_calls_equal_times_a_tie() {
        let sys = crate::sim::nccl::system::System::preset("dgx-h100", 1, 8).unwrap();
        let mut c = crate::sim::nccl::model::predict(&sys, 1 << 20, false).unwrap();
        assert!(reason(&c).contains("has the lowest time NCCL's tuner predicts"));
        c.candidates[1].tuner_secs = c.candidates[0].tuner_secs;
        let r = reason(&c);
        assert!(
            r.contains(" ties with ") && !r.contains("has the lowest"),
            "{r}"
        );
    }
}
