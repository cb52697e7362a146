//! Exports of a trace: Chrome trace event format (opens in Perfetto and chrome://tracing) and CSV.
//!
//! ```
//! use allreduce_lab::sim::{export::*, scenario::*, algorithms::Algorithm, topology::TopologySpec, units::Bandwidth};
//! let sim = simulate(&Scenario {
//!     topology: TopologySpec::Uniform { ranks: 4, bandwidth: Bandwidth::from_gbytes_per_sec(10.0), latency_secs: 1e-6 },
//!     algorithm: Algorithm::Ring, size_bytes: 4000, segments: 1, gamma_secs_per_byte: 0.0,
//!     faults: Default::default(),
//! }, false).unwrap();
//! let json: serde_json::Value = serde_json::from_str(&chrome_trace(&sim.trace, "ring")).unwrap();
//! // One complete ("X") event per transfer, plus a name for every rank's track.
//! let events = json["traceEvents"].as_array().unwrap();
//! assert_eq!(events.iter().filter(|e| e["ph"] == "X").count(), 24);
//! assert!(transfers_csv(&sim.trace).starts_with("transfer,src,dst,"));
//! ```

use super::trace::Trace;
use serde_json::json;
use std::fmt::Write;

/// The trace as Chrome trace events: every rank is a track (thread) showing, for each transfer it
/// sends, the time from its start to its arrival (and reduction); times in microseconds.
pub fn chrome_trace(trace: &Trace, label: &str) -> String {
    let mut events = Vec::with_capacity(trace.timings.len() + trace.topology.ranks() + 1);
    events.push(json!({
        "name": "process_name", "ph": "M", "pid": 0,
        "args": { "name": format!("allreduce-lab: {label} on {} ranks", trace.topology.ranks()) }
    }));
    for r in 0..trace.topology.ranks() {
        events.push(json!({
            "name": "thread_name", "ph": "M", "pid": 0, "tid": r,
            "args": { "name": format!("rank {r} (sends)") }
        }));
    }
    for (i, (t, tm)) in trace
        .schedule
        .transfers()
        .iter()
        .zip(&trace.timings)
        .enumerate()
    {
        let chunks = if t.chunk_hi == t.chunk_lo + 1 {
            format!("chunk {}", t.chunk_lo)
        } else {
            format!("chunks {}–{}", t.chunk_lo, t.chunk_hi - 1)
        };
        events.push(json!({
            "name": format!("{} → {} {chunks}", t.src, t.dst),
            "cat": t.phase.name(),
            "ph": "X",
            "pid": 0,
            "tid": t.src,
            "ts": tm.start_secs * 1e6,
            "dur": (tm.done_secs - tm.start_secs) * 1e6,
            "args": {
                "transfer": i,
                "step": t.step,
                "op": t.op.name(),
                "bytes": trace.schedule.bytes(i),
                "first_byte_us": tm.first_byte_secs * 1e6,
                "last_byte_us": tm.last_byte_secs * 1e6,
            }
        }));
    }
    json!({ "traceEvents": events, "displayTimeUnit": "ns" }).to_string()
}

/// One row per transfer, times in seconds.
pub fn transfers_csv(trace: &Trace) -> String {
    let mut out = String::from(
        "transfer,src,dst,chunk_lo,chunk_hi,bytes,step,phase,op,start_s,first_byte_s,last_byte_s,done_s\n",
    );
    for (i, (t, tm)) in trace
        .schedule
        .transfers()
        .iter()
        .zip(&trace.timings)
        .enumerate()
    {
        let _ = writeln!(
            out,
            "{i},{},{},{},{},{},{},{},{},{:e},{:e},{:e},{:e}",
            t.src,
            t.dst,
            t.chunk_lo,
            t.chunk_hi,
            trace.schedule.bytes(i),
            t.step,
            t.phase.name(),
            t.op.name(),
            tm.start_secs,
            tm.first_byte_secs,
            tm.last_byte_secs,
            tm.done_secs
        );
    }
    out
}

/// The results: totals, then one row per rank and one per link.
pub fn results_csv(trace: &Trace) -> String {
    let mut out =
        String::from("kind,id,from,to,sent_bytes,received_bytes,bytes,busy_fraction,value\n");
    let totals = [
        ("time_s", trace.time_secs),
        ("algbw_GBps", trace.algbw_bytes_per_sec() / 1e9),
        ("busbw_GBps", trace.busbw_bytes_per_sec() / 1e9),
        ("lower_bound_s", trace.lower_bound.secs),
        ("size_bytes", trace.size_bytes() as f64),
        ("verified", if trace.verified() { 1.0 } else { 0.0 }),
    ];
    for (name, v) in totals {
        let _ = writeln!(out, "total,{name},,,,,,,{v:e}");
    }
    for (r, x) in trace.ranks.iter().enumerate() {
        let _ = writeln!(out, "rank,{r},,,{},{},,,", x.sent_bytes, x.received_bytes);
    }
    for (l, link) in trace.topology.links().iter().enumerate() {
        let _ = writeln!(
            out,
            "link,{l},{},{},,,{},{:.6},",
            link.from,
            link.to,
            trace.links[l].bytes,
            trace.busy_fraction(l)
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::algorithms::Algorithm;
    use crate::sim::scenario::{simulate, Scenario};
    use crate::sim::topology::TopologySpec;
    use crate::sim::units::Bandwidth;

    fn trace() -> Trace {
        simulate(
            &Scenario {
                topology: TopologySpec::Uniform {
                    ranks: 3,
                    bandwidth: Bandwidth::from_gbytes_per_sec(1.0),
                    latency_secs: 0.0,
                },
                algorithm: Algorithm::Ring,
                size_bytes: 3000,
                segments: 1,
                gamma_secs_per_byte: 0.0,
                faults: Default::default(),
            },
            false,
        )
        .unwrap()
        .trace
    }

    #[test]
    fn chrome_events_carry_microseconds_and_the_senders_track() {
        let t = trace();
        let v: serde_json::Value = serde_json::from_str(&chrome_trace(&t, "ring")).unwrap();
        let x: Vec<_> = v["traceEvents"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|e| e["ph"] == "X")
            .collect();
        assert_eq!(x.len(), 12);
        // Each ring step moves 1000 bytes at 1 GB/s: 1 µs.
        assert!((x[0]["dur"].as_f64().unwrap() - 1.0).abs() < 1e-9);
        // The first transfer is rank 0 → 1, drawn on rank 0's track.
        assert_eq!(
            (x[0]["tid"].as_u64(), x[0]["name"].as_str()),
            (Some(0), Some("0 → 1 chunk 0"))
        );
    }

    #[test]
    fn csv_rows_match_the_trace() {
        let t = trace();
        assert_eq!(transfers_csv(&t).lines().count(), 1 + 12);
        let results = results_csv(&t);
        assert_eq!(
            results.lines().filter(|l| l.starts_with("rank,")).count(),
            3
        );
        assert!(results.contains("rank,0,,,4000,4000,,,"));
        assert_eq!(
            results.lines().filter(|l| l.starts_with("link,")).count(),
            6
        );
    }
}
