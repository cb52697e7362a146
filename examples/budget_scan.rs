//! Every run the lab's sliders reach (kinds × GPU counts × GPUs per node × NICs per node or PXN ×
//! segments × algorithms, default sizes and bandwidths): its detailed estimate as the lab counts
//! it, whether the lab admits it, and whether the CLI does (its budget, without details). Prints
//! each setting, then counts; to set `UI_BUDGET`.
//! `cargo run --release --example budget_scan [all]` (`all`: every line, not only the refused).
fn main() {
    use allreduce_lab::sim::algorithms::Algorithm;
    use allreduce_lab::sim::cost::RUN_BUDGET;
    use allreduce_lab::ui::model::logic::{
        Controls, GPU_COUNTS, GPUS_PER_NODE, NICS_PER_NODE, SEGMENTS, TopologyKind,
    };
    use allreduce_lab::ui::model::view::{UI_BUDGET, beyond_the_cli, refusal};
    let all = std::env::args().nth(1).as_deref() == Some("all");
    let (mut both, mut lab_only, mut admitted) = (0, 0, 0);
    for kind in [
        TopologyKind::Uniform,
        TopologyKind::Cluster,
        TopologyKind::Rail,
    ] {
        // NICs per node shape a cluster; PXN a rail network.
        let variants: Vec<(usize, bool)> = match kind {
            TopologyKind::Cluster => NICS_PER_NODE.iter().map(|&k| (k, false)).collect(),
            TopologyKind::Rail => vec![(1, false), (1, true)],
            TopologyKind::Uniform => vec![(1, false)],
        };
        for &gpus in &GPU_COUNTS {
            for &g in &GPUS_PER_NODE {
                for &(nics, pxn) in &variants {
                    for &k in &SEGMENTS {
                        for alg in Algorithm::ALL {
                            let base = Controls::default();
                            let c = Controls {
                                kind,
                                gpus,
                                gpus_per_node: g,
                                nics_per_node: nics,
                                pxn,
                                segments: k,
                                ..base
                            };
                            let s = c.scenario(alg);
                            let Ok(cost) = s.cost() else { continue };
                            let typical = cost.peak_bytes_for(&UI_BUDGET);
                            let verdict = match refusal(&c, alg) {
                                None => {
                                    admitted += 1;
                                    "admitted".to_string()
                                }
                                Some(over) if beyond_the_cli(&over) => {
                                    both += 1;
                                    format!("refused by the CLI too ({:?})", over.exceeded)
                                }
                                Some(over) => {
                                    lab_only += 1;
                                    format!(
                                        "refused by the lab only ({:?}; the CLI's check: {})",
                                        over.exceeded,
                                        cost.check(&RUN_BUDGET).is_ok()
                                    )
                                }
                            };
                            if all || verdict != "admitted" {
                                println!(
                                    "{kind:?} {gpus} GPUs, {g}/node, {nics} NICs, pxn {pxn}, {k} segments, {alg}: {} transfers, typically {typical} B, work {}: {verdict}",
                                    cost.transfers, cost.sharing_work
                                );
                            }
                        }
                    }
                }
            }
        }
    }
    eprintln!(
        "admitted {admitted}; refused by the lab only {lab_only}; refused by the CLI too {both}"
    );
}
