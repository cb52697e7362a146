use allreduce_lab::sim::{
    algorithms::{self, Algorithm},
    run::*,
    topology::*,
    units::*,
};

#[test]
fn smoke_every_algorithm_verifies() {
    for n in 1..=20usize {
        for alg in Algorithm::CONCRETE {
            for spec in [TopologySpec::Uniform {
                ranks: n,
                bandwidth: Bandwidth::from_gbytes_per_sec(1.0),
                latency_secs: 1e-6,
            }] {
                let topo = Topology::new(&spec).unwrap();
                for k in [1, 3] {
                    let s = algorithms::schedule(alg, &topo, 1000, k);
                    let t = run(&topo, s, &RunOptions::default());
                    assert!(t.verified(), "{alg} n={n} k={k}: {:?}", t.verification);
                }
            }
        }
    }
}
