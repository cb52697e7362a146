//! Exports of a trace: Chrome trace event format (opens in Perfetto and chrome://tracing) and CSV.
//!
//! ```
//! use allreduce_sim::{export::*, scenario::*, algorithms::Algorithm, topology::TopologySpec, units::Bandwidth};
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

use super::schedule::Transfer;
use super::trace::{Trace, TransferTiming};
use serde_json::json;
use std::fmt::Write;

/// The trace as Chrome trace events: every rank is a track (thread) showing, for each transfer it
/// sends, the time from its start to its arrival (and reduction); times in microseconds.
///
/// # Examples
///
/// ```
/// use allreduce_sim::{export::chrome_trace, scenario::*, algorithms::Algorithm, topology::TopologySpec, units::Bandwidth};
/// let trace = simulate(&Scenario {
///     topology: TopologySpec::Uniform { ranks: 4, bandwidth: Bandwidth::from_gbytes_per_sec(10.0), latency_secs: 1e-6 },
///     algorithm: Algorithm::Ring, size_bytes: 4000, segments: 1, gamma_secs_per_byte: 0.0, faults: Default::default(),
/// }, false).unwrap().trace;
/// let json: serde_json::Value = serde_json::from_str(&chrome_trace(&trace, "ring")).unwrap();
/// assert_eq!(json["traceEvents"][0]["args"]["name"], "allreduce-lab: ring on 4 ranks");
/// // A 1000-byte chunk at 10 GB/s after 1 µs: every transfer lasts 1.1 µs.
/// let x = json["traceEvents"].as_array().unwrap().iter().find(|e| e["ph"] == "X").unwrap();
/// assert!((x["dur"].as_f64().unwrap() - 1.1).abs() < 1e-9);
/// ```
pub fn chrome_trace(trace: &Trace, label: &str) -> String {
    chrome_traces(&[(trace, label)])
}

/// Several runs in one Chrome trace, one process each (in order, from pid 0), so that runs
/// compared side by side open side by side in Perfetto.
///
/// ```
/// use allreduce_sim::{export::*, scenario::*, algorithms::Algorithm, topology::TopologySpec, units::Bandwidth};
/// let run = |algorithm| simulate(&Scenario {
///     topology: TopologySpec::Uniform { ranks: 4, bandwidth: Bandwidth::from_gbytes_per_sec(10.0), latency_secs: 1e-6 },
///     algorithm, size_bytes: 4000, segments: 1, gamma_secs_per_byte: 0.0, faults: Default::default(),
/// }, false).unwrap().trace;
/// let (ring, rd) = (run(Algorithm::Ring), run(Algorithm::RecursiveDoubling));
/// let json: serde_json::Value = serde_json::from_str(&chrome_traces(&[(&ring, "ring"), (&rd, "rd")])).unwrap();
/// let events = json["traceEvents"].as_array().unwrap();
/// let transfers_of = |pid: u64| events.iter().filter(|e| e["ph"] == "X" && e["pid"] == pid).count();
/// // The ring's 24 transfers in process 0; recursive doubling's log₂4 rounds of 4 in process 1.
/// assert_eq!((transfers_of(0), transfers_of(1)), (24, 8));
/// ```
pub fn chrome_traces(runs: &[(&Trace, &str)]) -> String {
    let mut events = Vec::new();
    for (pid, (trace, label)) in runs.iter().enumerate() {
        push_events(&mut events, pid, trace, label);
    }
    json!({ "traceEvents": events, "displayTimeUnit": "ns" }).to_string()
}

/// Each transfer of the run, numbered, with its timing.
fn timed(trace: &Trace) -> impl Iterator<Item = (usize, (&Transfer, TransferTiming))> {
    let transfers = trace.schedule.transfers().iter();
    transfers.zip(trace.timings.iter()).enumerate()
}

fn push_events(events: &mut Vec<serde_json::Value>, pid: usize, trace: &Trace, label: &str) {
    events.reserve(trace.timings.len() + trace.topology.ranks() + 1);
    events.push(json!({
        "name": "process_name", "ph": "M", "pid": pid,
        "args": { "name": format!("allreduce-lab: {label} on {} ranks", trace.topology.ranks()) }
    }));
    for r in 0..trace.topology.ranks() {
        events.push(json!({
            "name": "thread_name", "ph": "M", "pid": pid, "tid": r,
            "args": { "name": format!("rank {r} (sends)") }
        }));
    }
    for (i, (t, tm)) in timed(trace) {
        let chunks = if t.chunk_hi() == t.chunk_lo() + 1 {
            format!("chunk {}", t.chunk_lo())
        } else {
            format!("chunks {}–{}", t.chunk_lo(), t.chunk_hi() - 1)
        };
        events.push(json!({
            "name": format!("{} → {} {chunks}", t.src(), t.dst()),
            "cat": t.phase().name(),
            "ph": "X",
            "pid": pid,
            "tid": t.src(),
            "ts": tm.start_secs * 1e6,
            "dur": (tm.done_secs - tm.start_secs) * 1e6,
            "args": {
                "transfer": i,
                "step": t.step(),
                "op": t.op().name(),
                "bytes": trace.schedule.bytes(i),
                "first_byte_us": tm.first_byte_secs * 1e6,
                "last_byte_us": tm.last_byte_secs * 1e6,
            }
        }));
    }
}

/// One row per transfer, times in seconds. Numbers are plain decimals (`0.000025445`, never
/// `2.5445e-5`): Rust's `Display` for `f64` is the shortest text that reads back to the same
/// value and never uses an exponent, so spreadsheets and slides show what the run computed.
///
/// # Examples
///
/// ```
/// use allreduce_sim::{export::transfers_csv, scenario::*, algorithms::Algorithm, topology::TopologySpec, units::Bandwidth};
/// let trace = simulate(&Scenario {
///     topology: TopologySpec::Uniform { ranks: 4, bandwidth: Bandwidth::from_gbytes_per_sec(10.0), latency_secs: 1e-6 },
///     algorithm: Algorithm::Ring, size_bytes: 4000, segments: 1, gamma_secs_per_byte: 0.0, faults: Default::default(),
/// }, false).unwrap().trace;
/// let csv = transfers_csv(&trace);
/// assert_eq!(csv.lines().count(), 1 + 24); // a header, then 2N(N−1) transfers
/// // Every ring transfer carries one chunk: S/N = 1000 bytes.
/// assert!(csv.lines().skip(1).all(|row| row.split(',').nth(5) == Some("1000")));
/// ```
pub fn transfers_csv(trace: &Trace) -> String {
    let mut out = String::from(
        "transfer,src,dst,chunk_lo,chunk_hi,bytes,step,phase,op,start_s,first_byte_s,last_byte_s,done_s\n",
    );
    for (i, (t, tm)) in timed(trace) {
        let _ = writeln!(
            out,
            "{i},{},{},{},{},{},{},{},{},{},{},{},{}",
            t.src(),
            t.dst(),
            t.chunk_lo(),
            t.chunk_hi(),
            trace.schedule.bytes(i),
            t.step(),
            t.phase().name(),
            t.op().name(),
            tm.start_secs,
            tm.first_byte_secs,
            tm.last_byte_secs,
            tm.done_secs
        );
    }
    out
}

/// The results: totals, then one row per rank and one per link.
///
/// # Examples
///
/// ```
/// use allreduce_sim::{export::results_csv, scenario::*, algorithms::Algorithm, topology::TopologySpec, units::Bandwidth};
/// let trace = simulate(&Scenario {
///     topology: TopologySpec::Uniform { ranks: 4, bandwidth: Bandwidth::from_gbytes_per_sec(10.0), latency_secs: 1e-6 },
///     algorithm: Algorithm::Ring, size_bytes: 4000, segments: 1, gamma_secs_per_byte: 0.0, faults: Default::default(),
/// }, false).unwrap().trace;
/// let csv = results_csv(&trace);
/// // Each rank sends and receives 2(N−1)/N × 4000 = 6000 bytes.
/// assert!(csv.lines().any(|l| l == "rank,0,,,6000,6000,,,"));
/// assert!(csv.lines().any(|l| l == "total,verified,,,,,,,1"));
/// assert_eq!(csv.lines().count(), 1 + 6 + 4 + 8); // header, totals, ranks, links
/// ```
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
        let _ = writeln!(out, "total,{name},,,,,,,{v}");
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

/// Several runs' results in one CSV: [`results_csv`]'s rows, each prefixed by its run's label.
///
/// ```
/// use allreduce_sim::{export::*, scenario::*, algorithms::Algorithm, topology::TopologySpec, units::Bandwidth};
/// let run = |algorithm| simulate(&Scenario {
///     topology: TopologySpec::Uniform { ranks: 4, bandwidth: Bandwidth::from_gbytes_per_sec(10.0), latency_secs: 1e-6 },
///     algorithm, size_bytes: 4000, segments: 1, gamma_secs_per_byte: 0.0, faults: Default::default(),
/// }, false).unwrap().trace;
/// let (ring, flat) = (run(Algorithm::Ring), run(Algorithm::TreeFlat));
/// let csv = compared_results_csv(&[(&ring, "ring"), (&flat, "flat")]);
/// assert!(csv.starts_with("run,kind,id,from,to,"));
/// // One header, then per run 6 totals, 4 ranks and 8 links.
/// assert_eq!(csv.lines().count(), 1 + 2 * (6 + 4 + 8));
/// assert!(csv.lines().any(|l| l == "flat,total,verified,,,,,,,1"));
/// ```
pub fn compared_results_csv(runs: &[(&Trace, &str)]) -> String {
    let mut out = String::new();
    for (i, (trace, label)) in runs.iter().enumerate() {
        let csv = results_csv(trace);
        let mut lines = csv.lines();
        let header = lines.next().unwrap_or_default();
        if i == 0 {
            let _ = writeln!(out, "run,{header}");
        }
        for line in lines {
            let _ = writeln!(out, "{label},{line}");
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::algorithms::Algorithm;
    use crate::scenario::{Scenario, simulate};
    use crate::topology::TopologySpec;
    use crate::units::Bandwidth;

    /// A 3-rank ring of 3000 bytes at 1 GB/s, no latency.
    fn scenario() -> Scenario {
        Scenario {
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
        }
    }

    fn trace() -> Trace {
        simulate(&scenario(), false).unwrap().trace
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

    /// Every numeric field of both CSVs, as text.
    fn numeric_fields(csv: &str) -> Vec<String> {
        csv.lines()
            .skip(1)
            .flat_map(|l| l.split(',').map(str::to_string).collect::<Vec<_>>())
            .filter(|f| f.starts_with(|c: char| c.is_ascii_digit() || c == '-'))
            .collect()
    }

    #[test]
    fn csv_numbers_are_plain_decimals_that_read_back_exactly() {
        // 1 µs latency and 7 ranks: times like 2.544529262086514e-5 that `{:e}` wrote in
        // scientific notation.
        let t = simulate(
            &Scenario {
                topology: TopologySpec::Uniform {
                    ranks: 7,
                    bandwidth: Bandwidth::from_gbytes_per_sec(3.3),
                    latency_secs: 1e-6,
                },
                algorithm: Algorithm::Ring,
                size_bytes: 7777,
                segments: 1,
                gamma_secs_per_byte: 0.0,
                faults: Default::default(),
            },
            false,
        )
        .unwrap()
        .trace;
        let transfers = transfers_csv(&t);
        let results = results_csv(&t);
        let fields: Vec<String> = numeric_fields(&transfers)
            .into_iter()
            .chain(numeric_fields(&results))
            .collect();
        assert!(fields.len() > 100);
        for f in &fields {
            assert!(
                f.chars()
                    .all(|c| c.is_ascii_digit() || c == '.' || c == '-'),
                "not a plain decimal: {f}"
            );
        }
        // The run's time reads back to the very f64 the trace holds.
        let time = results
            .lines()
            .find_map(|l| l.strip_prefix("total,time_s,,,,,,,"))
            .unwrap();
        assert_eq!(time.parse::<f64>().unwrap(), t.time_secs);
        assert!(time.starts_with("0.0000"), "{time}");
        // And the last transfer's done time is the run's end.
        let last = transfers
            .lines()
            .last()
            .unwrap()
            .rsplit(',')
            .next()
            .unwrap();
        assert_eq!(
            last.parse::<f64>().unwrap(),
            t.timings.last().unwrap().done_secs
        );
    }

    #[test]
    fn compared_exports_hold_both_runs() {
        let a = trace();
        let b = simulate(
            &Scenario {
                algorithm: Algorithm::TreeBinary,
                ..scenario()
            },
            false,
        )
        .unwrap()
        .trace;
        let csv = compared_results_csv(&[(&a, "ring"), (&b, "tree-binary")]);
        assert!(csv.starts_with("run,kind,id,"));
        assert!(csv.contains("\nring,total,time_s,"));
        assert!(csv.contains("\ntree-binary,total,time_s,"));
        let rows = |label: &str| csv.lines().filter(|l| l.starts_with(label)).count();
        assert_eq!(rows("ring,"), results_csv(&a).lines().count() - 1);
        assert_eq!(rows("tree-binary,"), results_csv(&b).lines().count() - 1);
        let v: serde_json::Value =
            serde_json::from_str(&chrome_traces(&[(&a, "ring"), (&b, "tree-binary")])).unwrap();
        let spans = |pid: u64| {
            v["traceEvents"]
                .as_array()
                .unwrap()
                .iter()
                .filter(|e| e["ph"] == "X" && e["pid"] == pid)
                .count()
        };
        assert_eq!(spans(0), a.schedule.len());
        assert_eq!(spans(1), b.schedule.len());
        // One run alone is exactly the single-run export.
        assert_eq!(chrome_traces(&[(&a, "ring")]), chrome_trace(&a, "ring"));
    }
}
