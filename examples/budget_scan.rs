//! Every run the lab's sliders reach (kinds × GPU counts × GPUs per node × segments × algorithms,
//! default sizes): its detailed peak estimate as the lab counts it and whether a budget admits it, to set `UI_BUDGET`.
//! `cargo run --release --example budget_scan [budget bytes]`
fn main() {
    use allreduce_lab::sim::algorithms::Algorithm;
    use allreduce_lab::ui::model::logic::{
        Controls, GPU_COUNTS, GPUS_PER_NODE, SEGMENTS, TopologyKind,
    };
    let budget: u64 = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(1_500_000_000);
    let (mut max_in, mut min_out) = (0u64, u64::MAX);
    let mut lines = Vec::new();
    for kind in [
        TopologyKind::Uniform,
        TopologyKind::Cluster,
        TopologyKind::Rail,
    ] {
        for &gpus in &GPU_COUNTS {
            for &g in &GPUS_PER_NODE {
                for &k in &SEGMENTS {
                    for alg in Algorithm::ALL {
                        let c = Controls {
                            kind,
                            gpus,
                            gpus_per_node: g,
                            segments: k,
                            ..Controls::default()
                        };
                        let s = c.scenario(alg);
                        let Ok(topo) = s.validate() else { continue };
                        let Ok(cost) = s.cost() else { continue };
                        let _ = topo;
                        let b = cost.peak_bytes_for(&allreduce_lab::ui::model::view::UI_BUDGET);
                        if b <= budget {
                            max_in = max_in.max(b)
                        } else {
                            min_out = min_out.min(b)
                        }
                        let lab = allreduce_lab::ui::model::view::refusal(&c, alg)
                            .map_or("admitted".to_string(), |o| format!("{:?}", o.exceeded));
                        lines.push(format!(
                            "{kind:?} {gpus} {g} {k} {alg} {b} {} {lab}",
                            b <= budget
                        ));
                    }
                }
            }
        }
    }
    for l in &lines {
        println!("{l}");
    }
    eprintln!("admitted up to {max_in}, refused from {min_out}");
}
