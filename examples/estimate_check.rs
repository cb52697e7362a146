//! One lab setting's cost as the core estimates it against what its run really allocates and
//! records, with details (a counting allocator): to see how far an estimate is from real runs
//! before changing it.
//! `cargo run --release --example estimate_check -- KIND GPUS GPUS_PER_NODE SEGMENTS ALGORITHM`,
//! e.g. `-- rail 32 8 32 nccl-ring` (KIND: uniform, cluster or rail; then, in this order if both,
//! `no-pxn` turns a rail network's PXN off and `nics=K` gives a cluster's nodes K NICs).

use allreduce_lab::heap::{Counting, peak_during};

#[global_allocator]
static A: Counting = Counting;

fn main() {
    use allreduce_lab::sim::algorithms::Algorithm;
    use allreduce_lab::sim::scenario::simulate;
    use allreduce_lab::ui::model::logic::{Controls, TopologyKind};
    use allreduce_lab::ui::model::view::UI_BUDGET;
    let usage =
        "usage: estimate_check KIND GPUS GPUS_PER_NODE SEGMENTS ALGORITHM [no-pxn] [nics=K]";
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let nics = args
        .last()
        .and_then(|a| a.strip_prefix("nics=")?.parse::<usize>().ok());
    if nics.is_some() {
        args.pop();
    }
    let no_pxn = args.last().is_some_and(|a| a == "no-pxn");
    if no_pxn {
        args.pop();
    }
    let [kind, gpus, g, k, alg] = args.as_slice() else {
        eprintln!("{usage}");
        std::process::exit(2);
    };
    let kind = match kind.as_str() {
        "uniform" => TopologyKind::Uniform,
        "cluster" => TopologyKind::Cluster,
        "rail" => TopologyKind::Rail,
        other => {
            eprintln!("unknown kind {other:?}; {usage}");
            std::process::exit(2);
        }
    };
    let number = |s: &String| {
        s.parse::<usize>().unwrap_or_else(|_| {
            eprintln!("not a count: {s:?}; {usage}");
            std::process::exit(2)
        })
    };
    let algorithm: Algorithm = alg.parse().unwrap_or_else(|e| {
        eprintln!("{e}");
        std::process::exit(2)
    });
    let controls = Controls {
        kind,
        gpus: number(gpus),
        gpus_per_node: number(g),
        segments: number(k),
        ..Controls::default()
    };
    let controls = Controls {
        pxn: controls.pxn && !no_pxn,
        nics_per_node: nics.unwrap_or(controls.nics_per_node),
        ..controls
    };
    let scenario = controls.scenario(algorithm);
    let cost = match scenario.cost() {
        Ok(cost) => cost,
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(1);
        }
    };
    let mb = |b: u64| b as f64 / 1e6;
    let per = |n: u64| n as f64 / cost.transfers.max(1) as f64;
    println!("{} transfers", cost.transfers);
    println!(
        "estimate with details: {:.0} MB (bound), {:.0} MB as the lab counts it",
        mb(cost.peak_bytes_with_details),
        mb(cost.peak_bytes_for(&UI_BUDGET))
    );
    let (sim, peak) = peak_during(|| simulate(&scenario, true));
    let sim = match sim {
        Ok(sim) => sim,
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(1);
        }
    };
    let recorded: usize = sim.trace.links.iter().map(|l| l.timeline.len()).sum();
    println!("real peak with details: {:.0} MB", mb(peak as u64));
    println!(
        "rate changes per transfer: bound {:.2}, expected {:.2}, recorded {:.2}",
        per(cost.rate_changes),
        per(cost.rate_changes_expected),
        per(recorded as u64)
    );
}
