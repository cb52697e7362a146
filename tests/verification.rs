//! A broken algorithm fails loudly: the run's buffer check catches double counting and missing data.
#![cfg(not(target_arch = "wasm32"))]

use allreduce_lab::sim::run::{RunOptions, run};
use allreduce_lab::sim::schedule::{Op, Phase, ScheduleBuilder};
use allreduce_lab::sim::topology::{Topology, TopologySpec};
use allreduce_lab::sim::units::Bandwidth;

fn topo(n: usize) -> Topology {
    Topology::new(&TopologySpec::Uniform {
        ranks: n,
        bandwidth: Bandwidth::from_gbytes_per_sec(10.0),
        latency_secs: 1e-6,
    })
    .unwrap()
}

#[test]
fn a_reduction_that_counts_a_contribution_twice_is_an_error() {
    let mut b = ScheduleBuilder::new(2, 1, 1000);
    let first = b.add(0, 1, 0..1, Op::Reduce, 0, Phase::Reduce, &[]);
    // Rank 0's data arrives at rank 1 a second time.
    b.add(0, 1, 0..1, Op::Reduce, 1, Phase::Reduce, &[first]);
    let t = run(&topo(2), b.build(), &RunOptions::default());
    let err = t.verification.unwrap_err();
    assert!(err.contains("second time"), "{err}");
}

#[test]
fn a_rank_left_without_the_result_is_an_error() {
    let mut b = ScheduleBuilder::new(3, 1, 1000);
    let a = b.add(0, 1, 0..1, Op::Reduce, 0, Phase::Reduce, &[]);
    let c = b.add(2, 1, 0..1, Op::Reduce, 0, Phase::Reduce, &[]);
    // Rank 1 holds the sum, but only rank 0 gets it back.
    b.add(1, 0, 0..1, Op::Copy, 1, Phase::Broadcast, &[a, c]);
    let t = run(&topo(3), b.build(), &RunOptions::default());
    let err = t.verification.unwrap_err();
    assert!(err.contains("rank 2"), "{err}");
}

#[test]
fn a_ring_missing_one_allgather_step_is_an_error() {
    // A correct 3-rank ring, but the allgather stops one step short.
    let n = 3;
    let mut b = ScheduleBuilder::new(n, n, 3000);
    let mut last: Vec<Option<u32>> = vec![None; n];
    for step in 0..(2 * (n - 1) - 1) {
        let prev = last.clone();
        for r in 0..n {
            let (op, chunk) = if step < n - 1 {
                (Op::Reduce, (r + n - step) % n)
            } else {
                (Op::Copy, (r + 1 + n - (step - (n - 1))) % n)
            };
            let id = b.add_after(
                r,
                (r + 1) % n,
                chunk..chunk + 1,
                op,
                step as u32,
                Phase::ReduceScatter,
                [prev[r]],
            );
            last[(r + 1) % n] = Some(id);
        }
    }
    let t = run(&topo(n), b.build(), &RunOptions::default());
    assert!(t.verification.is_err());
}
