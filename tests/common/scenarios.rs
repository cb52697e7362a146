//! Random topologies and scenarios for the property tests, and the fixed clusters several tests
//! build.

use allreduce_lab::sim::algorithms::Algorithm;
use allreduce_lab::sim::scenario::Scenario;
use allreduce_lab::sim::topology::TopologySpec;
use allreduce_lab::sim::units::Bandwidth;
use proptest::prelude::*;

/// 1 GB/s .. 1 TB/s, log-uniform.
pub fn bandwidth() -> BoxedStrategy<Bandwidth> {
    (9.0f64..12.0)
        .prop_map(|e| Bandwidth::from_bytes_per_sec(10f64.powf(e)))
        .boxed()
}

/// None, or up to 20 µs.
pub fn latency() -> BoxedStrategy<f64> {
    prop_oneof![Just(0.0), (0.0f64..20.0).prop_map(|us| us * 1e-6)].boxed()
}

/// None (1), or up to 4 : 1.
pub fn oversubscription() -> BoxedStrategy<f64> {
    prop_oneof![Just(1.0), 1.0f64..4.0].boxed()
}

/// How the random topologies are drawn: each tier's bandwidth and latency, the uplinks'
/// oversubscription, and the most ranks.
pub struct Draw {
    pub bandwidth: BoxedStrategy<Bandwidth>,
    pub latency: BoxedStrategy<f64>,
    pub oversubscription: BoxedStrategy<f64>,
    pub max_ranks: usize,
}

impl Draw {
    /// Bandwidths, latencies and oversubscription as above; at most `max_ranks` ranks.
    pub fn up_to(max_ranks: usize) -> Draw {
        Draw {
            bandwidth: bandwidth(),
            latency: latency(),
            oversubscription: oversubscription(),
            max_ranks,
        }
    }

    /// Uniform networks, clusters of 1..8 racks × 1..8 nodes × 1..8 GPUs with 1..8 NICs per node,
    /// and rail-optimized networks of 1..64 nodes with and without PXN.
    pub fn topology(self) -> BoxedStrategy<TopologySpec> {
        let max = self.max_ranks;
        let tier = (self.bandwidth, self.latency);
        let tiers = (tier.clone(), tier.clone(), tier);
        let os = self.oversubscription;
        let uniform = (1..=max, tiers.0.clone()).prop_map(|(ranks, (bandwidth, latency_secs))| {
            TopologySpec::Uniform {
                ranks,
                bandwidth,
                latency_secs,
            }
        });
        let cluster_shape = (1usize..=8.min(max))
            .prop_flat_map(move |g| (Just(g), 1..=8.min(max / g)))
            .prop_flat_map(move |(g, racks)| (Just(g), Just(racks), 1..=8.min(max / g / racks)));
        let cluster = (cluster_shape, tiers.clone(), os.clone(), 1usize..=8).prop_map(
            |((g, racks, npr), ((ib, il), (nb, nl), (rb, rl)), os, nics)| TopologySpec::Cluster {
                racks,
                nodes_per_rack: npr,
                gpus_per_node: g,
                intra_bw: ib,
                intra_lat_secs: il,
                node_bw: nb,
                node_lat_secs: nl,
                rack_bw: rb,
                rack_lat_secs: rl,
                oversubscription: os,
                nics_per_node: nics.min(g),
            },
        );
        let rail_shape =
            (1usize..=8.min(max)).prop_flat_map(move |g| (Just(g), 1..=64.min(max / g)));
        let rail = (rail_shape, tiers, os, any::<bool>()).prop_map(
            |((g, nodes), ((ib, il), (nb, nl), (sb, sl)), os, pxn)| TopologySpec::Rail {
                nodes,
                gpus_per_node: g,
                intra_bw: ib,
                intra_lat_secs: il,
                nic_bw: nb,
                nic_lat_secs: nl,
                spine_bw: sb,
                spine_lat_secs: sl,
                oversubscription: os,
                pxn,
            },
        );
        prop_oneof![uniform, cluster, rail].boxed()
    }
}

/// A scenario without faults.
pub fn scenario_of(
    topology: TopologySpec,
    algorithm: Algorithm,
    size_bytes: u64,
    segments: usize,
    gamma_secs_per_byte: f64,
) -> Scenario {
    Scenario {
        topology,
        algorithm,
        size_bytes,
        segments,
        gamma_secs_per_byte,
        faults: Default::default(),
    }
}

/// `racks` × `nodes_per_rack` × `gpus_per_node` GPUs, NVLink 450 GB/s (1 µs) inside nodes, `nics`
/// NICs per node on links of `node_gbps` Gb/s (2 µs), racks joined at `rack_gbps` Gb/s (5 µs),
/// no oversubscription.
pub fn cluster(
    [racks, nodes_per_rack, gpus_per_node]: [usize; 3],
    node_gbps: f64,
    rack_gbps: f64,
    nics: usize,
) -> TopologySpec {
    TopologySpec::Cluster {
        racks,
        nodes_per_rack,
        gpus_per_node,
        intra_bw: Bandwidth::from_gbytes_per_sec(450.0),
        intra_lat_secs: 1e-6,
        node_bw: Bandwidth::from_gbits_per_sec(node_gbps),
        node_lat_secs: 2e-6,
        rack_bw: Bandwidth::from_gbits_per_sec(rack_gbps),
        rack_lat_secs: 5e-6,
        oversubscription: 1.0,
        nics_per_node: nics,
    }
}

/// `nodes` × `g` GPUs on rails: NVLink 450 GB/s (1 µs), NICs of 400 Gb/s (2 µs), a spine of
/// 400 Gb/s per leaf (3 µs), no oversubscription.
pub fn rail(nodes: usize, g: usize, pxn: bool) -> TopologySpec {
    TopologySpec::Rail {
        nodes,
        gpus_per_node: g,
        intra_bw: Bandwidth::from_gbytes_per_sec(450.0),
        intra_lat_secs: 1e-6,
        nic_bw: Bandwidth::from_gbits_per_sec(400.0),
        nic_lat_secs: 2e-6,
        spine_bw: Bandwidth::from_gbits_per_sec(400.0),
        spine_lat_secs: 3e-6,
        oversubscription: 1.0,
        pxn,
    }
}

/// `spec` with its uplinks oversubscribed `by` : 1 (a uniform network has none).
pub fn oversubscribed(mut spec: TopologySpec, by: f64) -> TopologySpec {
    match &mut spec {
        TopologySpec::Uniform { .. } => {}
        TopologySpec::Cluster {
            oversubscription, ..
        }
        | TopologySpec::Rail {
            oversubscription, ..
        } => *oversubscription = by,
    }
    spec
}
