//! For every claim of the chapter, a case where its verdict must flip away from the one it has
//! under the chapter's own conditions, with both verdicts asserted exactly. A claim whose verdict
//! cannot flip by design says why, asserts that it stays, and asserts that the numbers it rests on
//! move (so the check is not a constant).

use allreduce_lab::course::chapter::{ChapterScenario, DGX_A100, DGX_H100};
use allreduce_lab::course::claims::{
    CLAIMS, Claim, ClaimKind, Conditions, Evidence, Finding, Verdict, check,
};
use allreduce_lab::sim::algorithms::Algorithm;
use allreduce_lab::ui::model::chapter::claim_sizes;

fn at(claim: &Claim, c: Conditions) -> Finding {
    check(claim, &c).unwrap()
}

/// The NIC and uplink values the claims panel offers, at its two ends.
const LADDER_ENDS: [f64; 2] = [25.0, 3200.0];

/// `claim` checked with its chapter scenario changed by `change` (conditions the panel does not
/// offer: hardware, overlap, algorithm).
fn with_scenario(claim: &Claim, change: impl FnOnce(&mut ChapterScenario)) -> Finding {
    let ClaimKind::Scenario(base) = claim.kind else {
        panic!("{} is no scenario claim", claim.id)
    };
    let mut s = *base;
    change(&mut s);
    let changed = Claim {
        kind: ClaimKind::Scenario(Box::leak(Box::new(s))),
        ..*claim
    };
    check(&changed, &Conditions::default()).unwrap()
}

#[test]
fn every_claims_verdict_flips_under_some_conditions_or_says_why_it_cannot() {
    let d = Conditions::default();
    for claim in &CLAIMS {
        let default = at(claim, d);
        match claim.id {
            "ring-2-n-minus-1-over-n" => {
                // Cannot flip by design: 2(N−1)/N · S per direction is what the ring's schedule
                // moves at every N and size (chunks round by at most a byte a step, which the
                // check's tolerance of 2N bytes covers); bandwidth and latency change no volume.
                // It holds under one condition, read per direction (the chapter says "total").
                assert_eq!(default.verdict, Verdict::HoldsUnder);
                for (gpus, size_bytes) in [(2, 100_000_000), (3, 3), (7, 999), (64, 1)] {
                    let f = at(
                        claim,
                        Conditions {
                            gpus,
                            size_bytes,
                            ..d
                        },
                    );
                    assert_eq!(
                        f.verdict,
                        Verdict::HoldsUnder,
                        "{gpus} GPUs, {size_bytes} B"
                    );
                }
                // The number moves with N: 2(N−1)/N.
                assert_eq!(default.value(), 1.75);
                assert_eq!(at(claim, Conditions { gpus: 2, ..d }).value(), 1.0);
                assert_eq!(at(claim, Conditions { gpus: 16, ..d }).value(), 1.875);
            }
            "ring-independent-of-n" => {
                // 100 MB: doubling N adds 2N latency-bound steps, ~11% more time.
                assert_eq!(default.verdict, Verdict::HoldsUnder);
                let large = Conditions {
                    size_bytes: 10_000_000_000,
                    ..d
                };
                assert_eq!(at(claim, large).verdict, Verdict::Holds);
            }
            "tree-root-n-minus-1" => {
                // Cannot flip by design: (N−1)·S is exactly the flat tree's root at every N, and
                // never true of trees in general (a binary tree's busiest GPU moves at most 3·S):
                // the verdict is "holds under" (for the star) whatever the conditions.
                assert_eq!(default.verdict, Verdict::HoldsUnder);
                for gpus in [2, 3, 16, 64] {
                    let f = at(claim, Conditions { gpus, ..d });
                    assert_eq!(f.verdict, Verdict::HoldsUnder, "{gpus}");
                    assert_eq!(f.value(), (gpus - 1) as f64, "{gpus}");
                }
                assert_eq!(default.value(), 7.0);
            }
            "tree-3.5x-ring" => {
                // Cannot flip by design: the claim names its N = 8, where the exact ratio is N/2 =
                // 4× (the chapter's 3.5× is its own rounding), at every size the panel offers;
                // the reader's GPU count does not move it.
                assert_eq!(
                    (default.verdict, default.value()),
                    (Verdict::Approximately, 4.0)
                );
                for gpus in [2, 16, 32] {
                    let f = at(claim, Conditions { gpus, ..d });
                    assert_eq!(
                        (f.verdict, f.value()),
                        (Verdict::Approximately, 4.0),
                        "{gpus}"
                    );
                }
                for size_bytes in claim_sizes() {
                    let f = at(claim, Conditions { size_bytes, ..d });
                    assert_eq!(f.verdict, Verdict::Approximately, "{size_bytes} B");
                }
                // The numbers it rests on are simulated: a message that does not split evenly
                // into 8 chunks moves the ring's share (1 B: the ring moves 2 B per GPU).
                let value = |size_bytes| at(claim, Conditions { size_bytes, ..d }).value();
                assert_eq!((value(1), value(9)), (3.5, 3.9375));
            }
            "tree-lower-latency" => {
                // 100 MB: the tree is quicker for 8 B but slower for the message itself.
                assert_eq!(default.verdict, Verdict::HoldsUnder);
                // 8 kB: latency decides both, the tree wins both.
                let small = Conditions {
                    size_bytes: 8_000,
                    ..d
                };
                assert_eq!(at(claim, small).verdict, Verdict::Holds);
                // 2 GPUs: both take 2 steps; the tree's are no fewer, and not quicker.
                let two = at(claim, Conditions { gpus: 2, ..d });
                assert_eq!(two.verdict, Verdict::DoesNotHold);
                assert!(two.value() < 1.0, "{}", two.value());
            }
            "tree-fewer-cross-rack" => {
                // Cannot flip by design: on 2 racks the binomial tree has one edge across them
                // (S each way: reduced up it, broadcast down it), the ring two crossings of
                // 2(N−1)/N·S each, at every size and bandwidth (bandwidth changes times, not
                // bytes). A byte is counted once, on its way up to the spine, not again on its
                // way down into the other rack. It holds for that shape only: NCCL's tree crosses
                // a little more than the ring.
                assert_eq!(default.verdict, Verdict::HoldsUnder);
                for (size_bytes, node, rack) in [
                    (1, None, None),
                    (10_000_000_000, None, None),
                    (100_000_000, Some(LADDER_ENDS[0]), Some(LADDER_ENDS[1])),
                    (100_000_000, Some(LADDER_ENDS[1]), Some(LADDER_ENDS[0])),
                ] {
                    let c = Conditions {
                        size_bytes,
                        node_gbits_per_sec: node,
                        rack_gbits_per_sec: rack,
                        ..d
                    };
                    assert_eq!(at(claim, c).verdict, Verdict::HoldsUnder, "{c:?}");
                }
                // The bytes it rests on move with the size (and the ratio with chunk rounding).
                let Evidence::CrossRack {
                    ring_bytes,
                    tree_bytes,
                    nccl_tree_bytes,
                    hierarchical_bytes,
                } = default.evidence
                else {
                    panic!("{default:?}")
                };
                assert_eq!((ring_bytes, tree_bytes), (387_500_000.0, 200_000_000.0));
                // NCCL's tree: each of its two trees over the 4 nodes has 2 edges between the
                // racks, S/2 up and S/2 down each: 2 × S per tree, 4 × S in all. Hierarchical:
                // its ring over the 4 nodes crosses between the racks twice, with 2(M−1)/M × S
                // = 1.5 × S each.
                assert_eq!(nccl_tree_bytes, 400_000_000.0);
                assert_eq!(hierarchical_bytes, 300_000_000.0);
                let tiny = at(claim, Conditions { size_bytes: 1, ..d });
                let Evidence::CrossRack {
                    ring_bytes,
                    tree_bytes,
                    ..
                } = tiny.evidence
                else {
                    panic!("{tiny:?}")
                };
                assert_eq!((ring_bytes, tree_bytes), (4.0, 2.0));
            }
            "eight-gpus-6-7x" | "bad-topology-under-4x" => {
                // regression guard: fixture tuned to the chapter's 8-GPU PCIe box (14.5 GB/s
                // busbw, BERT-large, 60% overlap) so that 6–7× and < 4× hold.
                assert_eq!(default.verdict, Verdict::Holds);
                // The panel's conditions cannot reach it: one box, no NIC or uplink on the path.
                for g in LADDER_ENDS {
                    let c = Conditions {
                        node_gbits_per_sec: Some(g),
                        rack_gbits_per_sec: Some(g),
                        ..d
                    };
                    assert_eq!(at(claim, c).value(), default.value(), "{g}");
                }
                // Its check flips with the scenario it reads: NVLink instead of PCIe.
                let nvlink = with_scenario(claim, |s| s.hardware = DGX_A100);
                assert_eq!(nvlink.verdict, Verdict::DoesNotHold);
                if claim.id == "eight-gpus-6-7x" {
                    assert!(nvlink.value() > 7.0, "{}", nvlink.value());
                    // No overlap: about 5×, under the band.
                    let f = with_scenario(claim, |s| s.overlap = 0.0);
                    assert_eq!(f.verdict, Verdict::DoesNotHold);
                    assert!((4.5..5.0).contains(&f.value()), "{}", f.value());
                    let f = with_scenario(claim, |s| s.hardware = DGX_H100);
                    assert_eq!(f.verdict, Verdict::DoesNotHold);
                } else {
                    assert!(nvlink.value() >= 4.0, "{}", nvlink.value());
                    // The same box with the ring is no bad topology: 6–7×.
                    let ring = with_scenario(claim, |s| s.algorithm = Algorithm::Ring);
                    assert_eq!(ring.verdict, Verdict::DoesNotHold);
                    assert!((6.0..=7.0).contains(&ring.value()), "{}", ring.value());
                }
            }
            "network-100g-over-40pct" => {
                // regression guard: fixture tuned to the chapter's 100 Gbps cluster.
                assert_eq!(default.verdict, Verdict::Holds);
                let f = at(
                    claim,
                    Conditions {
                        node_gbits_per_sec: Some(400.0),
                        ..d
                    },
                );
                assert_eq!(f.verdict, Verdict::DoesNotHold);
                assert!(f.value() < 0.4, "{}", f.value());
            }
            "io-bound-30pct" => {
                // regression guard: fixture tuned to ResNet-50 on 2.8 GB/s Lustre (util ≈ 31%).
                assert_eq!(default.verdict, Verdict::Holds);
                // Storage is the short stave: loading hides every NIC the panel offers, so the
                // utilisation does not move at all...
                for g in LADDER_ENDS {
                    let c = Conditions {
                        node_gbits_per_sec: Some(g),
                        ..d
                    };
                    assert_eq!(at(claim, c).value(), default.value(), "{g}");
                }
                // ...until the network is slower than storage: at 2 Gbps communication outlasts
                // loading and the GPUs idle for it instead.
                let f = at(
                    claim,
                    Conditions {
                        node_gbits_per_sec: Some(2.0),
                        ..d
                    },
                );
                assert_eq!(f.verdict, Verdict::DoesNotHold);
                assert!(f.value() < 0.25, "{}", f.value());
            }
            "racks-800-200-tree-wins" => {
                // regression guard: fixture tuned to 800 Gbps NICs, 200 Gbps uplinks.
                assert_eq!(default.verdict, Verdict::Holds);
                let f = at(
                    claim,
                    Conditions {
                        rack_gbits_per_sec: Some(1600.0),
                        ..d
                    },
                );
                assert_eq!(f.verdict, Verdict::DoesNotHold);
                assert!(f.value() < 1.05, "{}", f.value());
            }
            "inverted-400-800-ring-wins" => {
                // regression guard: fixture tuned to 400 Gbps NICs, 800 Gbps uplinks.
                assert_eq!(default.verdict, Verdict::Holds);
                // Slow uplinks again: the tree wins, as in §1.3.2.
                let f = at(
                    claim,
                    Conditions {
                        rack_gbits_per_sec: Some(25.0),
                        ..d
                    },
                );
                assert_eq!(f.verdict, Verdict::DoesNotHold);
                assert!(f.value() > 1.0, "{}", f.value());
            }
            id => panic!("claim {id} has no case where its verdict flips"),
        }
    }
}
