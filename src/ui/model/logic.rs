//! The lab's controls, with no web types: their model ([`Controls`]), the edits that change it
//! ([`Edit`]), and the [`Scenario`] they stand for (built with the core's typed constructors; the
//! command line shown beside a run is printed from that scenario by [`crate::sim::command`]). The
//! sliders' ladders and labels are [`super::ladders`]; the time cursor is [`super::cursor`].
//! Tested natively and in the browser.
//!
//! Size: over 450 lines because about 140 lines are tests.

use crate::course::presets::Preset;
use crate::sim::algorithms::Algorithm;
use crate::sim::command::{simulate_args, simulate_command};
use crate::sim::faults::{Cable, Faults, SlowLink, Straggler};
use crate::sim::scenario::Scenario;
use crate::sim::shape::{Unfilled, fit};
use crate::sim::topology::{Tier, Topology, TopologySpec};
use crate::sim::units::{Bandwidth, secs_from_ns};

/// GPU counts the slider offers: powers of two and 1.5× them, up to 1024.
pub const GPU_COUNTS: [usize; 20] = [
    1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64, 96, 128, 192, 256, 384, 512, 768, 1024,
];
/// GPUs per node the menu offers.
pub const GPUS_PER_NODE: [usize; 5] = [1, 2, 4, 8, 16];
/// Nodes per rack the menu offers.
pub const NODES_PER_RACK: [usize; 6] = [1, 2, 4, 8, 16, 32];
/// Pipeline segments the tree algorithms' slider offers.
pub const SEGMENTS: [usize; 9] = [1, 2, 4, 8, 16, 32, 64, 128, 256];

/// Pipelined trees cost the simulator about ranks × segments concurrent flows; the app keeps that
/// product at most this so that every slider change re-simulates quickly.
pub const MAX_RANK_SEGMENTS: usize = 1024;

/// The most segments the app uses with `gpus` GPUs: a power of two, at least 1.
///
/// ```
/// use allreduce_lab::ui::model::logic::max_segments;
/// assert_eq!(max_segments(8), 128);
/// assert_eq!(max_segments(256), 4);
/// assert_eq!(max_segments(1024), 1);
/// ```
pub fn max_segments(gpus: usize) -> usize {
    let cap = (MAX_RANK_SEGMENTS / gpus.max(1)).max(1);
    1 << (usize::BITS - 1 - cap.leading_zeros())
}

/// Above this many GPUs the figure aggregates ranks into nodes or racks.
pub const DETAILED_MAX_RANKS: usize = 64;

/// Uniform (one ideal switch, the α-β model), a cluster of racks, nodes and GPUs, or a
/// rail-optimized network (one NIC per GPU, rail i joins GPU i of every node).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TopologyKind {
    Uniform,
    Cluster,
    Rail,
}

/// NICs per node the menu offers (cluster).
pub const NICS_PER_NODE: [usize; 4] = [1, 2, 4, 8];

/// The tiers in menu order, with their display names.
pub const TIERS: [(Tier, &str, &str); 3] = [
    (Tier::Gpu, "gpu", "GPU ↔ node switch (NVLink)"),
    (Tier::Node, "node", "Node ↔ rack switch (NIC)"),
    (Tier::Rack, "rack", "Rack ↔ spine (cross-rack)"),
];

/// What a GPU count leaves unfilled ([`Controls::uneven`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Uneven {
    /// A cluster's nodes: fewer GPUs each than "GPUs / node".
    Nodes,
    /// A cluster's racks (its nodes full): fewer nodes each than "Nodes / rack".
    Racks,
    /// A rail network's nodes: fewer GPUs (rails) each than the choice.
    RailNodes,
}

/// Every input of the controls panel, in the units the sliders use.
#[derive(Clone, Debug, PartialEq)]
pub struct Controls {
    pub kind: TopologyKind,
    pub algorithm: Algorithm,
    pub gpus: usize,
    pub gpus_per_node: usize,
    pub nodes_per_rack: usize,
    /// Per tier (gpu, node, rack), Mbps per direction.
    pub bandwidth_mbps: [u64; 3],
    /// Per tier, nanoseconds.
    pub latency_ns: [u64; 3],
    pub size_bytes: u64,
    pub segments: usize,
    /// Cluster: NICs per node (at most the GPUs per node the run uses).
    pub nics_per_node: usize,
    /// Rail: traffic between rails hops over NVLink first (PXN) instead of crossing the spine.
    pub pxn: bool,
    /// A slowed cable or a late GPU set by clicking in the figure; kept only while the topology
    /// has them (see [`Controls::scenario`]).
    pub faults: Faults,
}

impl Default for Controls {
    fn default() -> Self {
        Controls::from_preset(&crate::course::presets::PRESETS[1])
    }
}

/// One change a control makes, sent to the reducer and applied there to the controls of that
/// moment, never to a copy from the control's last render: two inputs in one task (or a drag and
/// a click between renders) both land.
///
/// ```
/// use allreduce_lab::ui::model::logic::{Controls, Edit};
/// let mut c = Controls::default();
/// // Two edits, each made from the same render, both apply.
/// c.apply(Edit::Gpus(1024));
/// c.apply(Edit::Size(4_000_000));
/// assert_eq!((c.gpus, c.size_bytes), (1024, 4_000_000));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Edit {
    Algorithm(Algorithm),
    Kind(TopologyKind),
    Gpus(usize),
    GpusPerNode(usize),
    NodesPerRack(usize),
    /// Per tier (0 gpu, 1 node, 2 rack), Mbps.
    Bandwidth {
        tier: usize,
        mbps: u64,
    },
    /// Per tier, nanoseconds.
    Latency {
        tier: usize,
        ns: u64,
    },
    Size(u64),
    Segments(usize),
    /// The rail-optimized SuperPOD-style preset: it sets the network; the algorithm and segments
    /// stay the learner's. (The course's presets are [`crate::ui::model::state::Action::Preset`].)
    Superpod,
    NicsPerNode(usize),
    /// Rail: PXN on or off.
    Pxn(bool),
    /// A cable clicked in the figure: slowed to [`SLOW_FACTOR`] of its bandwidth, or restored if
    /// it was slowed.
    ToggleCable(Cable),
    /// A GPU clicked in the figure: it joins `delay_ns` late, or on time again if it was late.
    ToggleStraggler {
        rank: usize,
        delay_ns: u64,
    },
    /// The model switch: like NCCL (on, with the last system picked) or the textbook model.
    /// This and the next two change the lab's [`NcclPick`] ([`apply_nccl`]), not the controls.
    NcclModel(bool),
    /// The system the nccl model runs on (a preset id; an unknown one changes nothing).
    NcclSystem(&'static str),
    NcclNvls(bool),
}

/// Applies a model-switch edit to the lab's pick; other edits leave it as it is.
///
/// ```
/// use allreduce_lab::ui::model::logic::{apply_nccl, Edit, NcclPick};
/// let on = apply_nccl(None, Edit::NcclModel(true)).unwrap();
/// assert_eq!(on, NcclPick::default());
/// let a100 = apply_nccl(Some(on), Edit::NcclSystem("dgx-a100")).unwrap();
/// assert_eq!((a100.system, a100.nvls), ("dgx-a100", true));
/// assert_eq!(apply_nccl(Some(a100), Edit::NcclNvls(false)).unwrap().nvls, false);
/// assert_eq!(apply_nccl(Some(a100), Edit::NcclSystem("cray-1")), Some(a100));
/// assert_eq!(apply_nccl(Some(a100), Edit::NcclModel(false)), None);
/// assert_eq!(apply_nccl(None, Edit::NcclNvls(false)), None);
/// ```
pub fn apply_nccl(pick: Option<NcclPick>, edit: Edit) -> Option<NcclPick> {
    match (pick, edit) {
        (_, Edit::NcclModel(false)) => None,
        (None, Edit::NcclModel(true)) => Some(NcclPick::default()),
        (Some(p), Edit::NcclSystem(id)) => {
            let known = crate::sim::nccl::system::PRESETS
                .iter()
                .find(|s| **s == id)
                .copied();
            Some(NcclPick {
                system: known.unwrap_or(p.system),
                ..p
            })
        }
        (Some(p), Edit::NcclNvls(nvls)) => Some(NcclPick { nvls, ..p }),
        (p, _) => p,
    }
}

/// The lab's GPUs as the nccl model's systems have them, (nodes, GPUs per node): the cluster's
/// or rail network's own shape; on one switch, up to a box's 8 GPUs on one node and beyond in
/// nodes of 8. `None` when the count does not fill whole nodes of 8.
pub fn nccl_shape(c: &Controls) -> Option<(usize, usize)> {
    match c.kind {
        TopologyKind::Cluster => {
            let (racks, npr, g) = c.shape();
            Some((racks * npr, g))
        }
        TopologyKind::Rail => Some(c.rail_shape()),
        TopologyKind::Uniform => {
            if c.gpus <= 8 {
                Some((1, c.gpus))
            } else {
                (c.gpus % 8 == 0).then_some((c.gpus / 8, 8))
            }
        }
    }
}

/// "Like NCCL on this system": the lab's and the charts' model switch. With it, allreduce
/// times come from the nccl model ([`crate::sim::nccl`]) instead of the textbook simulation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NcclPick {
    /// A preset id of [`crate::sim::nccl::system::PRESETS`]; 8 GPUs per node.
    pub system: &'static str,
    /// Let NCCL use NVLink SHARP where the switch can reduce.
    pub nvls: bool,
}

impl Default for NcclPick {
    fn default() -> Self {
        NcclPick {
            system: "dgx-h100",
            nvls: true,
        }
    }
}

/// What a clicked cable keeps of its bandwidth.
pub const SLOW_FACTOR: f64 = 0.25;

impl Controls {
    /// Applies one edit (an unknown tier or preset changes nothing).
    pub fn apply(&mut self, edit: Edit) {
        match edit {
            Edit::Algorithm(a) => self.algorithm = a,
            Edit::Kind(k) => self.kind = k,
            Edit::Gpus(n) => self.gpus = n,
            Edit::GpusPerNode(n) => self.gpus_per_node = n,
            Edit::NodesPerRack(n) => self.nodes_per_rack = n,
            Edit::Bandwidth { tier, mbps } => {
                if let Some(b) = self.bandwidth_mbps.get_mut(tier) {
                    *b = mbps;
                }
            }
            Edit::Latency { tier, ns } => {
                if let Some(l) = self.latency_ns.get_mut(tier) {
                    *l = ns;
                }
            }
            Edit::Size(bytes) => self.size_bytes = bytes,
            Edit::Segments(k) => self.segments = k,
            Edit::Superpod => {
                *self = Controls {
                    algorithm: self.algorithm,
                    segments: self.segments,
                    ..Controls::from_scenario(&crate::sim::rail_preset::SUPERPOD.scenario())
                };
            }
            Edit::NicsPerNode(k) => self.nics_per_node = k,
            Edit::Pxn(on) => self.pxn = on,
            Edit::ToggleCable(cable) => {
                let (a, b) = cable.ends();
                let slowed = self.faults.slow_links.iter().any(|s| s.cable.carries(a, b));
                *self = self.with_slow_cable(cable, if slowed { 1.0 } else { SLOW_FACTOR });
            }
            Edit::ToggleStraggler { rank, delay_ns } => {
                let late = self.faults.stragglers.iter().any(|s| s.rank == rank);
                // Divided, as a typed delay is read: `1.0000000000000002us` in links otherwise.
                let delay = if late {
                    0.0
                } else {
                    crate::sim::units::secs_from_ns(delay_ns)
                };
                *self = self.with_straggler(rank, delay);
            }
            // The model switch is the lab's, not the controls' (see [`apply_nccl`]).
            Edit::NcclModel(_) | Edit::NcclSystem(_) | Edit::NcclNvls(_) => {}
        }
    }

    /// The controls showing a preset: its network and message, the first algorithm of its
    /// comparison and the segments its tree uses.
    pub fn from_preset(preset: &Preset) -> Controls {
        let promise = preset.promise;
        Controls {
            segments: promise.segments,
            ..Controls::from_scenario(&preset.scenario_with(promise.a, promise.segments))
        }
    }

    /// Whether the lab shows what `preset` sets: its controls, untouched since, and its two
    /// algorithms compared (the preset's button says so; a slider moved since, and it no longer
    /// does).
    pub fn shows_preset(&self, preset: &Preset, compare: bool, algorithm_b: Algorithm) -> bool {
        compare && algorithm_b == preset.promise.b && *self == Controls::from_preset(preset)
    }

    /// Whether these are the SuperPOD preset's controls ([`Edit::Superpod`] keeps the algorithm
    /// and the segments).
    pub fn shows_superpod(&self) -> bool {
        let mut superpod = self.clone();
        superpod.apply(Edit::Superpod);
        *self == superpod
    }

    /// The controls for a scenario (bandwidths rounded to Mbps, latencies to ns); whether the
    /// sliders can show it is [`crate::ui::model::share::import_scenario`]'s question.
    pub fn from_scenario(scenario: &Scenario) -> Controls {
        let scenario = scenario.clone();
        let mbps = |bw: Bandwidth| (bw.bytes_per_sec() * 8.0 / 1e6).round() as u64;
        let ns = |secs: f64| (secs * 1e9).round() as u64;
        let tiers = scenario.topology.tiers();
        // What differs between the kinds: (kind, GPUs, GPUs per node, nodes per rack, NICs, PXN).
        let (kind, gpus, gpus_per_node, nodes_per_rack, nics_per_node, pxn) = match scenario
            .topology
        {
            TopologySpec::Cluster {
                racks,
                nodes_per_rack,
                gpus_per_node,
                nics_per_node,
                ..
            } => (
                TopologyKind::Cluster,
                racks * nodes_per_rack * gpus_per_node,
                gpus_per_node,
                nodes_per_rack,
                nics_per_node,
                true,
            ),
            TopologySpec::Rail {
                nodes,
                gpus_per_node,
                pxn,
                ..
            } => (
                TopologyKind::Rail,
                nodes * gpus_per_node,
                gpus_per_node,
                2,
                1,
                pxn,
            ),
            TopologySpec::Uniform { ranks, .. } => (TopologyKind::Uniform, ranks, 8, 2, 1, true),
        };
        Controls {
            kind,
            algorithm: scenario.algorithm,
            gpus,
            gpus_per_node,
            nodes_per_rack,
            bandwidth_mbps: tiers.map(|(bw, _)| mbps(bw)),
            latency_ns: tiers.map(|(_, lat)| ns(lat)),
            size_bytes: scenario.size_bytes,
            segments: scenario.segments,
            nics_per_node,
            pxn,
            faults: scenario.faults,
        }
    }

    /// (racks, nodes per rack, GPUs per node) as the simulation will use them.
    pub fn shape(&self) -> (usize, usize, usize) {
        let s = fit(self.gpus, self.gpus_per_node, self.nodes_per_rack);
        (s.racks, s.nodes_per_rack, s.gpus_per_node)
    }

    /// What of the machine the GPU count does not fill, when it does not: the count is then
    /// split evenly ([`shape`](Self::shape), [`rail_shape`](Self::rail_shape)) into smaller nodes
    /// or racks than the choices name, and the lab says so.
    pub fn uneven(&self) -> Option<Uneven> {
        match self.kind {
            TopologyKind::Cluster => fit(self.gpus, self.gpus_per_node, self.nodes_per_rack)
                .unfilled(self.gpus_per_node, self.nodes_per_rack)
                .map(|u| match u {
                    Unfilled::Nodes => Uneven::Nodes,
                    Unfilled::Racks => Uneven::Racks,
                }),
            TopologyKind::Rail => (fit(self.gpus, self.rails(), 1).unfilled(self.rails(), 1))
                .map(|_| Uneven::RailNodes),
            TopologyKind::Uniform => None,
        }
    }

    /// (nodes, GPUs per node) of a rail network, at most 8 GPUs (rails) a node, by the same rule
    /// as a cluster's nodes ([`fit`]).
    pub fn rail_shape(&self) -> (usize, usize) {
        let s = fit(self.gpus, self.rails(), 1);
        (s.racks, s.gpus_per_node)
    }

    /// The most GPUs (rails) a rail network's node has: the choice, at most 8.
    pub fn rails(&self) -> usize {
        self.gpus_per_node.clamp(1, 8)
    }

    /// NICs per node as the run uses them: at most one per GPU of a node.
    pub fn effective_nics(&self) -> usize {
        self.nics_per_node.clamp(1, self.shape().2)
    }

    /// The segments the run uses: the chosen ones, within [`max_segments`].
    pub fn effective_segments(&self) -> usize {
        self.segments.clamp(1, max_segments(self.gpus))
    }

    /// The `simulate` flags of the CLI for this configuration with `algorithm`.
    pub fn cli_args(&self, algorithm: Algorithm) -> Vec<String> {
        simulate_args(&self.scenario(algorithm))
    }

    /// The faults that still apply to `topology` (a slowed cable it has, a straggler within its
    /// GPU count); a fault of another shape is dropped, not an error.
    fn faults_on(&self, topology: &TopologySpec) -> Faults {
        let Ok(topo) = Topology::new(topology) else {
            return Faults::default();
        };
        let mut f = self.faults.clone();
        f.slow_links
            .retain(|s| topo.links().iter().any(|l| s.cable.carries(l.from, l.to)));
        f.stragglers.retain(|s| s.rank < topo.ranks());
        f
    }

    /// The faults with the cable `cable` slowed to `factor` (1 restores it).
    pub fn with_slow_cable(&self, cable: Cable, factor: f64) -> Controls {
        let mut c = self.clone();
        let (a, b) = cable.ends();
        c.faults.slow_links.retain(|s| !s.cable.carries(a, b));
        if factor < 1.0 {
            c.faults.slow_links.push(SlowLink { cable, factor });
        }
        c
    }

    /// The faults with GPU `rank` joining `delay_secs` late (0 makes it punctual again).
    pub fn with_straggler(&self, rank: usize, delay_secs: f64) -> Controls {
        let mut c = self.clone();
        c.faults.stragglers.retain(|s| s.rank != rank);
        if delay_secs > 0.0 {
            c.faults.stragglers.push(Straggler { rank, delay_secs });
        }
        c
    }

    /// The equivalent command line.
    pub fn cli_command(&self, algorithm: Algorithm) -> String {
        simulate_command(&self.scenario(algorithm))
    }

    /// The scenario the controls show, with the faults that apply to its shape. Whether it can
    /// run is [`Scenario::validate`]'s question.
    pub fn scenario(&self, algorithm: Algorithm) -> Scenario {
        let mut s = self.scenario_without_faults(algorithm);
        s.faults = self.faults_on(&s.topology);
        s
    }

    fn scenario_without_faults(&self, algorithm: Algorithm) -> Scenario {
        let bw = |i: usize| Bandwidth::from_mbps(self.bandwidth_mbps[i]);
        let lat = |i: usize| secs_from_ns(self.latency_ns[i]);
        let topology = match self.kind {
            TopologyKind::Uniform => TopologySpec::Uniform {
                ranks: self.gpus,
                bandwidth: bw(0),
                latency_secs: lat(0),
            },
            TopologyKind::Cluster => {
                let (racks, nodes_per_rack, gpus_per_node) = self.shape();
                TopologySpec::Cluster {
                    racks,
                    nodes_per_rack,
                    gpus_per_node,
                    intra_bw: bw(0),
                    intra_lat_secs: lat(0),
                    node_bw: bw(1),
                    node_lat_secs: lat(1),
                    rack_bw: bw(2),
                    rack_lat_secs: lat(2),
                    oversubscription: 1.0,
                    nics_per_node: self.effective_nics(),
                }
            }
            TopologyKind::Rail => {
                let (nodes, gpus_per_node) = self.rail_shape();
                TopologySpec::Rail {
                    nodes,
                    gpus_per_node,
                    intra_bw: bw(0),
                    intra_lat_secs: lat(0),
                    nic_bw: bw(1),
                    nic_lat_secs: lat(1),
                    spine_bw: bw(2),
                    spine_lat_secs: lat(2),
                    oversubscription: 1.0,
                    pxn: self.pxn,
                }
            }
        };
        Scenario {
            topology,
            algorithm,
            size_bytes: self.size_bytes,
            segments: if algorithm.pipelines() {
                self.effective_segments()
            } else {
                1
            },
            gamma_secs_per_byte: 0.0,
            faults: Default::default(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::course::presets::PRESETS;

    #[test]
    fn presets_round_trip_through_the_controls() {
        // The controls hold whole Mbps and nanoseconds; every preset's numbers are whole in those
        // units, so the lab's scenario simulates to the preset's time exactly.
        for p in &PRESETS {
            let c = Controls::from_preset(p);
            let ours = crate::sim::scenario::simulate(&c.scenario(Algorithm::Ring), false);
            let theirs = crate::sim::scenario::simulate(&p.scenario(), false);
            let (a, b) = (
                ours.unwrap().trace.time_secs,
                theirs.unwrap().trace.time_secs,
            );
            assert_eq!(a.to_bits(), b.to_bits(), "{}: {a} vs {b}", p.name);
            assert_eq!(c.shape(), {
                let TopologySpec::Cluster {
                    racks,
                    nodes_per_rack,
                    gpus_per_node,
                    ..
                } = p.scenario().topology
                else {
                    unreachable!()
                };
                (racks, nodes_per_rack, gpus_per_node)
            });
        }
    }

    #[test]
    fn every_gpu_count_gives_an_exact_cluster_shape() {
        for &n in &GPU_COUNTS {
            for &g in &GPUS_PER_NODE {
                for &npr in &NODES_PER_RACK {
                    let c = Controls {
                        gpus: n,
                        gpus_per_node: g,
                        nodes_per_rack: npr,
                        ..Controls::default()
                    };
                    let (k, m, gg) = c.shape();
                    assert_eq!(k * m * gg, n);
                    assert!(gg <= g && m <= npr);
                }
            }
        }
    }

    #[test]
    fn a_count_that_does_not_fill_the_machine_says_what_it_leaves_unfilled() {
        let cluster = |gpus| Controls {
            kind: TopologyKind::Cluster,
            gpus,
            gpus_per_node: 8,
            nodes_per_rack: 2,
            ..Controls::default()
        };
        // 12 GPUs: 3 racks × 1 node × 4; 24: 3 racks × 1 node × 8; 4: half a node; 32: as built.
        assert_eq!(cluster(12).uneven(), Some(Uneven::Nodes));
        assert_eq!(cluster(24).uneven(), Some(Uneven::Racks));
        assert_eq!(cluster(4).uneven(), None);
        assert_eq!(cluster(32).uneven(), None);
        let rail = |gpus| Controls {
            kind: TopologyKind::Rail,
            ..cluster(gpus)
        };
        assert_eq!(rail(12).uneven(), Some(Uneven::RailNodes));
        assert_eq!(rail(4).uneven(), None);
        assert_eq!(rail(32).uneven(), None);
    }

    #[test]
    fn a_preset_is_shown_until_a_control_moves() {
        use crate::course::presets::PRESETS;
        for (i, p) in PRESETS.iter().enumerate() {
            let c = Controls::from_preset(p);
            assert!(c.shows_preset(p, true, p.promise.b), "{}", p.name);
            // Only its own: no two presets set the same lab.
            for (j, q) in PRESETS.iter().enumerate() {
                assert_eq!(
                    c.shows_preset(q, true, q.promise.b),
                    i == j,
                    "{} {}",
                    p.name,
                    q.name
                );
            }
            assert!(!c.shows_preset(p, false, p.promise.b), "not compared");
            assert!(!c.shows_preset(p, true, p.promise.a), "the other algorithm");
            let mut moved = c.clone();
            moved.apply(Edit::Size(c.size_bytes / 2));
            assert!(
                !moved.shows_preset(p, true, p.promise.b),
                "{} after a slider",
                p.name
            );
            assert!(!c.shows_superpod());
        }
        let mut c = Controls::default();
        assert!(!c.shows_superpod());
        c.apply(Edit::Superpod);
        assert!(c.shows_superpod());
        c.apply(Edit::Pxn(!c.pxn));
        assert!(!c.shows_superpod());
    }

    #[test]
    fn the_cli_command_names_every_parameter() {
        let c = Controls::default();
        let cmd = c.cli_command(Algorithm::TreeBinary);
        for flag in [
            "--topology cluster",
            "--intra-bw",
            "--rack-lat",
            "--size 100000000",
            "--segments 1",
        ] {
            assert!(cmd.contains(flag), "{cmd}");
        }
        assert!(!c.cli_command(Algorithm::Ring).contains("--segments"));
    }

    #[cfg(not(target_arch = "wasm32"))]
    #[test]
    fn rail_and_nics_controls_build_the_scenario_the_cli_reads_from_their_command() {
        use crate::sim::rail_preset::SUPERPOD;
        let rail = Controls::from_scenario(&SUPERPOD.scenario());
        assert_eq!(rail.kind, TopologyKind::Rail);
        assert_eq!(rail.rail_shape(), (4, 8));
        let nics = Controls {
            nics_per_node: 8,
            ..Controls::default()
        };
        let no_pxn = Controls {
            pxn: false,
            ..rail.clone()
        };
        for (c, alg) in [
            (rail, Algorithm::NcclRing),
            (no_pxn, Algorithm::Ring),
            (nics, Algorithm::NcclTree),
        ] {
            let args = c.cli_args(alg);
            let from_cli = crate::cli::scenario_from_args(&args).unwrap();
            assert_eq!(from_cli, c.scenario(alg), "{}", c.cli_command(alg));
        }
        // NICs per node never exceed the GPUs per node the run uses.
        let small = Controls {
            nics_per_node: 8,
            gpus: 4,
            ..Controls::default()
        };
        assert_eq!(small.effective_nics(), 4);
        assert!(small.scenario(Algorithm::NcclRing).validate().is_ok());
    }

    #[test]
    fn a_clicked_cable_and_a_clicked_gpu_become_faults_of_the_scenario_and_the_cli() {
        use crate::sim::scenario::simulate;
        let c = Controls::default();
        let healthy = simulate(&c.scenario(Algorithm::Ring), false).unwrap().trace;
        let cable: Cable = "rack0-node1".parse().unwrap();
        let slowed = c.with_slow_cable(cable, 0.25).with_straggler(3, 1e-4);
        let s = slowed.scenario(Algorithm::Ring);
        assert_eq!(s.faults.slow_links.len(), 1);
        assert_eq!(
            s.faults.stragglers,
            vec![Straggler {
                rank: 3,
                delay_secs: 1e-4
            }]
        );
        let cmd = slowed.cli_command(Algorithm::Ring);
        assert!(cmd.contains("--slow-link rack0-node1=0.25"), "{cmd}");
        assert!(cmd.contains("--straggler 3=100us"), "{cmd}");
        // The ring runs at the slowed NIC's speed: time up, and the busiest link is that NIC.
        let t = simulate(&s, false).unwrap().trace;
        assert!(t.time_secs > 3.0 * healthy.time_secs);
        let busiest = &t.topology.links()[t.busiest_link().unwrap()];
        assert!(cable.carries(busiest.from, busiest.to), "{busiest:?}");
        assert_ne!(healthy.busiest_link(), t.busiest_link());
        // Restoring and making punctual give the healthy scenario back.
        let back = slowed.with_slow_cable(cable, 1.0).with_straggler(3, 0.0);
        assert_eq!(back.scenario(Algorithm::Ring), c.scenario(Algorithm::Ring));
        // A shape without that cable or that GPU drops the faults instead of failing.
        let small = Controls {
            gpus: 2,
            ..slowed.clone()
        };
        assert!(small.scenario(Algorithm::Ring).faults.is_empty());
    }
}
