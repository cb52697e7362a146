//! Where the bytes of a 1024-rank run go, by a counting allocator: live bytes after each stage
//! and the trace's records by structure. `cargo run --release --example mem_breakdown [ring|dbt]`

// The benchmarks' cluster (4 racks × 32 nodes × 8 GPUs), shared rather than written again.
#[path = "../benches/common/mod.rs"]
#[allow(dead_code)]
mod common;

use allreduce_lab::heap::{Counting, live_bytes, peak_bytes};

#[global_allocator]
static A: Counting = Counting;

fn mb(b: usize) -> String {
    format!("{:7.1} MB", b as f64 / 1e6)
}

fn main() {
    use allreduce_lab::sim::algorithms::{self, Algorithm};
    use allreduce_lab::sim::run::{PreparingRun, RunOptions};
    let which = std::env::args().nth(1).unwrap_or("ring".into());
    let (alg, k) = if which == "dbt" {
        (Algorithm::DoubleBinaryTree, 64)
    } else {
        (Algorithm::Ring, 1)
    };
    let topo = common::cluster_1024();
    let base = live_bytes();
    println!("topology etc.            {}", mb(base));
    let schedule = algorithms::schedule(alg, &topo, 1 << 30, k);
    println!(
        "schedule built           {} (peak while building {})",
        mb(live_bytes() - base),
        mb(peak_bytes() - base)
    );
    let n = schedule.len();
    println!(
        "  {} transfers, {} deps, {} joins, {} chunks",
        n,
        schedule.dependency_count(),
        schedule.joins(),
        schedule.chunks()
    );
    let options = RunOptions {
        gamma_secs_per_byte: 0.0,
        record_details: true,
    };
    let prep = PreparingRun::new(&topo, schedule, &options);
    let mut run = prep.finish();
    println!(
        "run assembled            {} (peak so far {})",
        mb(live_bytes() - base),
        mb(peak_bytes() - base)
    );
    while !run.step(1 << 20) {}
    println!(
        "run to its last event    {} (peak so far {})",
        mb(live_bytes() - base),
        mb(peak_bytes() - base)
    );
    let trace = run.finish();
    println!(
        "trace                    {} (peak {})",
        mb(live_bytes() - base),
        mb(peak_bytes() - base)
    );
    println!(
        "  timings                {}",
        mb(trace.timings.heap_bytes())
    );
    println!(
        "  cell_changes           {} ({} changes)",
        mb(trace.cell_changes.heap_bytes()),
        trace.cell_changes.len()
    );
    let tl_len: usize = trace.links.iter().map(|l| l.timeline.len()).sum();
    let tl_cap: usize = trace.links.iter().map(|l| l.timeline.heap_bytes()).sum();
    println!(
        "  timelines              {} ({} changes on {} links)",
        mb(tl_cap),
        tl_len,
        trace.links.len()
    );
    let mut instants: Vec<u64> = trace
        .links
        .iter()
        .flat_map(|l| l.timeline.iter().map(|c| c.at_secs.to_bits()))
        .chain(trace.timings.iter().flat_map(|t| {
            [
                t.start_secs,
                t.first_byte_secs,
                t.last_byte_secs,
                t.done_secs,
            ]
            .map(f64::to_bits)
        }))
        .collect();
    instants.sort_unstable();
    instants.dedup();
    println!("  distinct instants      {}", instants.len());
    let mut rates: Vec<(usize, u64)> = trace
        .links
        .iter()
        .enumerate()
        .flat_map(|(i, l)| {
            l.timeline
                .iter()
                .map(move |c| (i, c.bytes_per_sec.to_bits()))
        })
        .collect();
    rates.sort_unstable();
    rates.dedup();
    println!("  distinct (link, rate)  {}", rates.len());
    let zero = trace
        .links
        .iter()
        .flat_map(|l| l.timeline.iter())
        .filter(|c| c.bytes_per_sec == 0.0)
        .count();
    println!("  zero-rate changes      {zero}");
    let same_done = trace
        .timings
        .iter()
        .filter(|t| t.done_secs == t.last_byte_secs)
        .count();
    println!("  done == last byte      {same_done} of {n}");
    let fb = trace
        .timings
        .iter()
        .enumerate()
        .filter(|(i, t)| t.first_byte_secs == t.start_secs + trace.route(*i).latency_secs)
        .count();
    println!("  first = start + lat    {fb} of {n}");
    // Sized from the types (a `Transfer` record each; the buffers as a run builds them), so a
    // change of layout shows here.
    let record = std::mem::size_of::<allreduce_lab::sim::schedule::Transfer>();
    println!(
        "  schedule transfers     {} ({record} B each)",
        mb(n * record)
    );
    let buffers = allreduce_lab::sim::buffers::Buffers::new(1024, trace.schedule.chunks());
    println!("  buffers (cells)        {}", mb(buffers.heap_bytes()));
}
