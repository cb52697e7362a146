//! On `uniform`, where an algorithm is contention-free in the α-β model, the simulated time equals
//! its closed-form α-β-γ cost (Thakur, Rabenseifner & Gropp 2005; MPICH's cost comments).
#![cfg(not(target_arch = "wasm32"))]

use allreduce_lab::sim::algorithms::{self, Algorithm};
use allreduce_lab::sim::run::{RunOptions, run};
use allreduce_lab::sim::topology::{Topology, TopologySpec};
use allreduce_lab::sim::trace::Trace;
use allreduce_lab::sim::units::Bandwidth;

/// One point of the α-β-γ model: N ranks, S bytes, α s, β s/byte (1/B), γ s/byte.
#[derive(Clone, Copy, Debug)]
struct Model {
    n: usize,
    s: f64,
    alpha: f64,
    beta: f64,
    gamma: f64,
}

fn simulate(alg: Algorithm, m: Model, segments: usize) -> Trace {
    let topo = Topology::new(&TopologySpec::Uniform {
        ranks: m.n,
        bandwidth: Bandwidth::from_bytes_per_sec(1.0 / m.beta),
        latency_secs: m.alpha,
    })
    .unwrap();
    let schedule = algorithms::schedule(alg, &topo, m.s as u64, segments);
    let trace = run(
        &topo,
        schedule,
        &RunOptions {
            gamma_secs_per_byte: m.gamma,
            record_details: false,
        },
    );
    assert!(trace.verified(), "{alg} {m:?}: {:?}", trace.verification);
    trace
}

fn assert_close(alg: Algorithm, m: Model, got: f64, want: f64) {
    let rel = ((got - want) / want).abs();
    assert!(
        rel < 1e-9,
        "{alg} {m:?}: simulated {got:e} s, closed form {want:e} s, relative error {rel:e}"
    );
}

/// Powers of two, sizes divisible by every N used, several α, β, and γ zero or not.
fn models() -> Vec<Model> {
    let mut out = Vec::new();
    for n in [2usize, 4, 8, 16, 32, 64] {
        for s in [1_048_576.0 * 64.0, 4096.0 * 1024.0, 65536.0] {
            for (alpha, beta) in [
                (5e-6, 1.0 / 100e9),
                (1e-6, 1.0 / 25e9),
                (20e-6, 1.0 / 12.5e9),
            ] {
                for gamma in [0.0, 1e-12, 2.5e-11] {
                    out.push(Model {
                        n,
                        s,
                        alpha,
                        beta,
                        gamma,
                    });
                }
            }
        }
    }
    out
}

fn log2(n: usize) -> f64 {
    (n as f64).log2()
}

#[test]
fn ring_time_is_2_n_minus_1_alpha_plus_2_n_minus_1_over_n_s_beta_plus_gamma() {
    for m in models() {
        let n = m.n as f64;
        let want = 2.0 * (n - 1.0) * m.alpha
            + 2.0 * (n - 1.0) / n * m.s * m.beta
            + (n - 1.0) / n * m.s * m.gamma;
        let t = simulate(Algorithm::Ring, m, 1);
        assert_close(Algorithm::Ring, m, t.time_secs, want);
    }
}

#[test]
fn ring_also_matches_for_n_that_are_not_powers_of_two() {
    for n in [3usize, 5, 6, 7, 12, 24] {
        let m = Model {
            n,
            s: 7_207_200.0,
            alpha: 3e-6,
            beta: 1.0 / 50e9,
            gamma: 1e-12,
        };
        let nf = n as f64;
        let want = 2.0 * (nf - 1.0) * m.alpha
            + 2.0 * (nf - 1.0) / nf * m.s * m.beta
            + (nf - 1.0) / nf * m.s * m.gamma;
        assert_close(
            Algorithm::Ring,
            m,
            simulate(Algorithm::Ring, m, 1).time_secs,
            want,
        );
    }
}

#[test]
fn recursive_doubling_time_is_log_n_alpha_plus_s_beta_plus_s_gamma() {
    for m in models() {
        let want = log2(m.n) * (m.alpha + m.s * m.beta + m.s * m.gamma);
        let t = simulate(Algorithm::RecursiveDoubling, m, 1);
        assert_close(Algorithm::RecursiveDoubling, m, t.time_secs, want);
    }
}

#[test]
fn rabenseifner_time_is_2_log_n_alpha_plus_2_n_minus_1_over_n_s_beta_plus_n_minus_1_over_n_s_gamma()
{
    for m in models() {
        let n = m.n as f64;
        let want = 2.0 * log2(m.n) * m.alpha
            + 2.0 * (n - 1.0) / n * m.s * m.beta
            + (n - 1.0) / n * m.s * m.gamma;
        let t = simulate(Algorithm::Rabenseifner, m, 1);
        assert_close(Algorithm::Rabenseifner, m, t.time_secs, want);
    }
}

#[test]
fn binomial_reduce_then_broadcast_is_log_n_times_2_alpha_2_s_beta_s_gamma() {
    for m in models() {
        // Reduce: log N rounds of (α + Sβ + Sγ); broadcast: log N rounds of (α + Sβ).
        let want = log2(m.n) * (2.0 * m.alpha + 2.0 * m.s * m.beta + m.s * m.gamma);
        let t = simulate(Algorithm::TreeBinomial, m, 1);
        assert_close(Algorithm::TreeBinomial, m, t.time_secs, want);
    }
}

#[test]
fn a_single_rank_has_nothing_to_do() {
    for alg in Algorithm::CONCRETE {
        let m = Model {
            n: 1,
            s: 1e6,
            alpha: 1e-6,
            beta: 1e-10,
            gamma: 0.0,
        };
        let t = simulate(alg, m, 2);
        assert_eq!(t.time_secs, 0.0, "{alg}");
        assert_eq!(t.schedule.len(), 0);
    }
}

#[test]
fn ring_sends_and_receives_2_n_minus_1_over_n_s_per_rank() {
    for n in [2usize, 3, 8, 10, 64] {
        let s = 1_000_000.0 * n as f64; // divisible by N
        let m = Model {
            n,
            s,
            alpha: 1e-6,
            beta: 1e-10,
            gamma: 0.0,
        };
        let t = simulate(Algorithm::Ring, m, 1);
        let want = (2 * (n - 1)) as u64 * (s as u64) / n as u64;
        for r in &t.ranks {
            assert_eq!(r.sent_bytes, want);
            assert_eq!(r.received_bytes, want);
        }
    }
}

#[test]
fn ring_per_rank_volume_is_independent_of_n_but_its_time_grows_with_latency() {
    let s = 720_720.0 * 64.0;
    let volume = |n: usize| {
        let t = simulate(
            Algorithm::Ring,
            Model {
                n,
                s,
                alpha: 10e-6,
                beta: 1e-10,
                gamma: 0.0,
            },
            1,
        );
        (t.ranks[0].sent_bytes as f64 / s, t.time_secs)
    };
    let (v8, t8) = volume(8);
    let (v64, t64) = volume(64);
    // 2(N−1)/N: 1.75 at N=8, 1.97 at N=64 — bounded by 2 whatever N is.
    assert!((v8 - 1.75).abs() < 1e-12 && (v64 - 126.0 / 64.0).abs() < 1e-12);
    assert!(
        t64 > t8 + 2.0 * 56.0 * 10e-6 * 0.99,
        "the latency term 2(N−1)α grows"
    );
}

#[test]
fn flat_tree_root_receives_and_sends_n_minus_1_times_s() {
    for n in [2usize, 4, 8, 13] {
        for k in [1, 4] {
            let s = 8_000_000.0;
            let t = simulate(
                Algorithm::TreeFlat,
                Model {
                    n,
                    s,
                    alpha: 1e-6,
                    beta: 1e-10,
                    gamma: 0.0,
                },
                k,
            );
            let want = (n as u64 - 1) * s as u64;
            assert_eq!(t.ranks[0].received_bytes, want, "n={n} k={k}");
            assert_eq!(t.ranks[0].sent_bytes, want, "n={n} k={k}");
            for r in &t.ranks[1..] {
                assert_eq!((r.sent_bytes, r.received_bytes), (s as u64, s as u64));
            }
        }
    }
}

#[test]
fn flat_tree_root_port_makes_it_n_minus_1_times_slower_than_one_message() {
    // Every child shares the root's down-link, then its up-link: (N−1)·S·β each way plus 2α.
    let m = Model {
        n: 8,
        s: 1e8,
        alpha: 2e-6,
        beta: 1e-10,
        gamma: 0.0,
    };
    let t = simulate(Algorithm::TreeFlat, m, 1);
    let want = 2.0 * (m.alpha + 7.0 * m.s * m.beta);
    assert_close(Algorithm::TreeFlat, m, t.time_secs, want);
}
