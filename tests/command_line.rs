//! The command line printed from a scenario (what the lab shows beside a run) is read back by the
//! CLI as exactly the same scenario: every topology, algorithm, size, segment count, γ,
//! oversubscription, slowed cable and straggler, to the last bit of every float.
#![cfg(not(target_arch = "wasm32"))]

use allreduce_lab::cli::scenario_from_args;
use allreduce_lab::sim::algorithms::Algorithm;
use allreduce_lab::sim::command::{simulate_args, simulate_command};
use allreduce_lab::sim::faults::{Cable, Faults, SlowLink, Straggler};
use allreduce_lab::sim::scenario::Scenario;
use allreduce_lab::sim::topology::{Topology, TopologySpec};
use allreduce_lab::sim::units::{Bandwidth, secs_from_ns};
use allreduce_lab::ui::model::logic::Controls;
use proptest::prelude::*;

mod common;
use common::scenarios::Draw;

/// Round values (as the lab's sliders make) and arbitrary ones (as an imported file may hold).
fn bandwidth() -> impl Strategy<Value = Bandwidth> {
    prop_oneof![
        (1u64..10_000_000).prop_map(Bandwidth::from_mbps),
        (6.0f64..13.0).prop_map(|e| Bandwidth::from_bytes_per_sec(10f64.powf(e))),
    ]
}

fn latency() -> impl Strategy<Value = f64> {
    prop_oneof![
        Just(0.0),
        (0u64..10_000_000).prop_map(secs_from_ns),
        (0.0f64..1e-2),
    ]
}

fn oversubscription() -> impl Strategy<Value = f64> {
    prop_oneof![Just(1.0), 1.0f64..64.0]
}

fn topology() -> impl Strategy<Value = TopologySpec> {
    Draw {
        bandwidth: bandwidth().boxed(),
        latency: latency().boxed(),
        oversubscription: oversubscription().boxed(),
        max_ranks: 4096,
    }
    .topology()
}

fn scenario() -> impl Strategy<Value = Scenario> {
    (
        topology(),
        prop::sample::select(Algorithm::ALL.to_vec()),
        1u64..1_000_000_000_000,
        1usize..=256,
        prop_oneof![Just(0.0), 0.0f64..1e-3],
        (any::<prop::sample::Index>(), 0.001f64..=1.0, any::<bool>()),
        (any::<prop::sample::Index>(), 0.0f64..10.0, any::<bool>()),
    )
        .prop_map(
            |(topology, algorithm, size_bytes, segments, gamma, slow, late)| {
                let topo = Topology::new(&topology).unwrap();
                let mut faults = Faults::default();
                if slow.2 {
                    let l = &topo.links()[slow.0.index(topo.links().len())];
                    faults.slow_links.push(SlowLink {
                        cable: Cable::new(l.from, l.to),
                        factor: slow.1,
                    });
                }
                if late.2 {
                    faults.stragglers.push(Straggler {
                        rank: late.0.index(topo.ranks()),
                        delay_secs: late.1,
                    });
                }
                Scenario {
                    topology,
                    algorithm,
                    size_bytes,
                    segments,
                    gamma_secs_per_byte: gamma,
                    faults,
                }
            },
        )
}

fn parse_back(args: &[String]) -> Result<Scenario, String> {
    scenario_from_args(args)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    #[test]
    fn the_printed_command_reads_back_as_the_same_scenario(sc in scenario()) {
        let args = simulate_args(&sc);
        let back = parse_back(&args);
        prop_assert_eq!(back.as_ref(), Ok(&sc), "{}", simulate_command(&sc));
    }

    /// The lab's controls: the command it shows is its scenario's, and reads back as it.
    #[test]
    fn the_labs_command_is_its_scenario(gpus in 1usize..=1024, gpn in 1usize..=8, npr in 1usize..=8,
                                         alg in prop::sample::select(Algorithm::ALL.to_vec()),
                                         size in 1u64..10_000_000_000, seg in 1usize..=64) {
        let c = Controls { gpus, gpus_per_node: gpn, nodes_per_rack: npr, size_bytes: size, segments: seg, ..Controls::default() };
        let sc = c.scenario(alg);
        prop_assert_eq!(c.cli_args(alg), simulate_args(&sc));
        prop_assert_eq!(parse_back(&c.cli_args(alg)), Ok(sc));
    }
}

#[test]
fn a_full_cluster_scenario_prints_as_this_command_and_reads_back() {
    // A cluster scenario with every optional part: NICs, oversubscription, segments, γ, faults.
    let sc = Scenario {
        topology: TopologySpec::Cluster {
            racks: 2,
            nodes_per_rack: 2,
            gpus_per_node: 8,
            intra_bw: Bandwidth::from_gbytes_per_sec(450.0),
            intra_lat_secs: 1e-6,
            node_bw: Bandwidth::from_gbits_per_sec(400.0),
            node_lat_secs: 2e-6,
            rack_bw: Bandwidth::from_gbits_per_sec(200.0),
            rack_lat_secs: 5e-6,
            oversubscription: 2.0,
            nics_per_node: 4,
        },
        algorithm: Algorithm::DoubleBinaryTree,
        size_bytes: 1 << 30,
        segments: 32,
        gamma_secs_per_byte: 1e-12,
        faults: Faults {
            slow_links: vec![SlowLink {
                cable: "node1.nic0-rack0".parse().unwrap(),
                factor: 0.25,
            }],
            stragglers: vec![Straggler {
                rank: 3,
                delay_secs: 2e-4,
            }],
        },
    };
    let cmd = simulate_command(&sc);
    assert_eq!(
        cmd,
        "allreduce-lab simulate --algorithm double-binary-tree --topology cluster --racks 2 \
         --nodes-per-rack 2 --gpus-per-node 8 --intra-bw 3600Gbps --intra-lat 1us --node-bw 400Gbps \
         --node-lat 2us --rack-bw 200Gbps --rack-lat 5us --nics-per-node 4 --oversubscription 2 \
         --size 1073741824 --segments 32 --gamma 0.000000000001 --slow-link node1.nic0-rack0=0.25 \
         --straggler 3=200us"
    );
    assert_eq!(parse_back(&simulate_args(&sc)), Ok(sc));
}
