//! How the textbook commands print a result: a table for people, one JSON object for programs
//! (`--json`). The sweep's table speaks nccl-tests' columns.

use crate::course::chapter::{ChapterScenario, Outcome};
use crate::sim::algorithms::Algorithm;
use crate::sim::scenario::{Scenario, Simulation};
use crate::sim::sweep::SweepRow;
use crate::sim::topology::Endpoint;
use crate::sim::training::{StepBreakdown, TrainingModel};
use crate::sim::units::{
    Bandwidth, format_bandwidth, format_bandwidth_bits, format_bytes, format_secs,
};
use serde_json::{Value, json};

fn endpoint_name(e: Endpoint) -> String {
    e.to_string()
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
            "tier": l.tier.name(),
            "bandwidth_GBps": l.bandwidth.gbytes_per_sec(),
            "bytes": t.links[id].bytes,
            "busy_fraction": t.busy_fraction(id),
            "utilisation": t.utilisation(id),
        })).collect::<Vec<_>>(),
        "auto": sim.auto.as_ref().map(|a| json!({
            "chosen": a.chosen.name(),
            "reason": a.reason(),
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
        out += &format!("  auto: {}\n", a.reason());
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
            link.tier.name(),
            format_bandwidth(link.bandwidth),
            format_bytes(t.links[l].bytes),
            t.utilisation(l) * 100.0,
            t.busy_fraction(l) * 100.0
        );
    }
    out
}

/// The JSON report of a sweep.
pub fn sweep_json(base: &Scenario, ranks: usize, rows: &[SweepRow]) -> Value {
    json!({
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
}

/// A sweep in all_reduce_perf's layout (and the chosen algorithm, for `auto`): its header,
/// [`sweep_row`] for each row, then [`sweep_footer`].
pub fn sweep_table(base: &Scenario, ranks: usize, rows: &[SweepRow]) -> String {
    let mut out = sweep_header(base, ranks);
    for r in rows {
        out += &sweep_row(base, r);
    }
    out + &sweep_footer(rows)
}

/// The lines above a sweep's rows.
pub fn sweep_header(base: &Scenario, ranks: usize) -> String {
    let mut out = format!(
        "# allreduce-lab sweep: {} on {ranks} ranks (simulated; columns as nccl-tests' all_reduce_perf)\n",
        base.algorithm
    );
    out += "#\n#        size         count      type   redop         time     algbw     busbw";
    if base.algorithm == Algorithm::Auto {
        out += "  algorithm";
    }
    out += "\n#         (B)    (elements)                          (us)    (GB/s)    (GB/s)\n";
    out
}

/// One row of a sweep, with its newline.
pub fn sweep_row(base: &Scenario, r: &SweepRow) -> String {
    let mut out = format!(
        "{:>13} {:>13} {:>9} {:>7} {:>12.2} {:>9.2} {:>9.2}",
        r.size_bytes,
        r.count,
        "float",
        "sum",
        r.time_secs * 1e6,
        r.algbw_bytes_per_sec / 1e9,
        r.busbw_bytes_per_sec / 1e9
    );
    if base.algorithm == Algorithm::Auto {
        out += &format!("  {}", r.algorithm);
    }
    out + "\n"
}

/// The line below a sweep's rows: their average bus bandwidth, as nccl-tests ends.
pub fn sweep_footer(rows: &[SweepRow]) -> String {
    let avg = rows.iter().map(|r| r.busbw_bytes_per_sec).sum::<f64>() / rows.len().max(1) as f64;
    format!("# Avg bus bandwidth    : {:.2} GB/s\n", avg / 1e9)
}

/// A `speedup` run: its rows, and the chapter's claim with its verdict for a preset.
pub struct Speedup<'a> {
    pub algorithm: Algorithm,
    pub gamma: f64,
    pub model: &'a TrainingModel,
    pub steps: &'a [StepBreakdown],
    pub verdict: Option<(&'a ChapterScenario, &'a Outcome)>,
}

impl Speedup<'_> {
    pub fn json(&self) -> Value {
        let p = self.verdict;
        json!({
            "algorithm": self.algorithm.name(),
            "gamma_s_per_byte": self.gamma,
            "gradient_bytes": self.model.gradient_bytes(),
            "model": self.model,
            "rows": self.steps,
            "preset": p.map(|(p, o)| json!({
                "id": p.id, "claim": p.claim, "because": p.because,
                "metric": p.metric.name(), "value": o.value,
                "expected": [p.expected.0, if p.expected.1.is_finite() { json!(p.expected.1) } else { Value::Null }],
                "holds": o.holds,
            })),
        })
    }

    pub fn table(&self) -> String {
        let mut out = String::new();
        if let Some((p, o)) = self.verdict {
            // Where the run checked differs from the chapter's scenario or from the rows below:
            // the reader's overlap, and the claim's own GPU count past the last row.
            let mut differs = String::new();
            if self.model.overlap != p.overlap {
                differs += &format!(
                    " (with --overlap {}; the chapter's scenario has {})",
                    self.model.overlap, p.overlap
                );
            }
            let shown = self.steps.last().map_or(0, |s| s.gpus);
            if shown < p.gpus() {
                differs += &format!(
                    " (at its {} GPUs; the rows below stop at {shown})",
                    p.gpus()
                );
            }
            out += &format!(
                "{}\n  because: {}\n  simulated {} = {:.3} → {}{differs}\n\n",
                p.claim,
                p.because,
                p.metric.name(),
                o.value,
                if o.holds { "holds" } else { "does not hold" },
            );
        }
        out += &format!(
            "{}, {} of gradients per GPU, compute {} per step",
            self.algorithm,
            format_bytes(self.model.gradient_bytes() as f64),
            format_secs(self.model.compute_secs)
        );
        if self.gamma > 0.0 {
            out += &format!(", reduction cost {:e} s/B", self.gamma);
        }
        out += "\n";
        out += " GPUs   allreduce    exposed  storage IO       step  speedup  efficiency  GPU util  comm share\n";
        for s in self.steps {
            out += &step_row(s);
            out += "\n";
        }
        out
    }
}

/// One GPU count's row of a speedup table (without the line end).
pub fn step_row(s: &StepBreakdown) -> String {
    format!(
        "{:>5} {:>11} {:>10} {:>11} {:>10} {:>8.2} {:>10.1}% {:>8.1}% {:>10.1}%",
        s.gpus,
        format_secs(s.comm_secs),
        format_secs(s.exposed_comm_secs),
        format_secs(s.exposed_io_secs),
        format_secs(s.step_secs),
        s.speedup,
        s.scaling_efficiency * 100.0,
        s.gpu_utilisation * 100.0,
        s.comm_share * 100.0
    )
}
