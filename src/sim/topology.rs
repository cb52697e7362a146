//! Ranks, the directed links between them and the switches, and routes.
//!
//! Three kinds of topology:
//! - [`TopologySpec::Uniform`]: N ranks, each with one full-duplex port of bandwidth B per direction to
//!   an ideal non-blocking switch, latency α per message — the textbook α-β model.
//! - [`TopologySpec::Cluster`]: racks × nodes per rack × GPUs per node, three tiers each with its own
//!   bandwidth and latency. Every GPU has an up and a down link to its node switch (NVLink/NVSwitch or
//!   PCIe); every node has K NICs (1..8), each with an up and a down link of its own to the rack switch
//!   (IB/RoCE), and a GPU reaches the network through its nearest NIC (GPU l of G uses NIC ⌊l·K/G⌋);
//!   every rack has an up and a down link to the spine. A route goes up to the lowest common switch and
//!   down; its latency is the sum of its links' latencies.
//! - [`TopologySpec::Rail`]: a rail-optimized network as large training clusters are built. N nodes ×
//!   G GPUs, one NIC per GPU; NIC i of every node plugs into leaf switch ("rail") i, and the leaves are
//!   joined by a spine with its own bandwidth, latency and oversubscription. Inside a node, GPUs talk
//!   over NVLink. Between nodes, a GPU sends through its own NIC: on the same rail the message stays on
//!   the leaf; to another rail it either climbs to the spine and down the other leaf, or — with PXN, as
//!   NCCL does — first hops over NVLink to the GPU of its own node that sits on the destination's rail
//!   and leaves through that GPU's NIC, never touching the spine.
//!
//! ```
//! use allreduce_sim::topology::{Endpoint, Topology, TopologySpec, Tier};
//! use allreduce_sim::units::Bandwidth;
//! let spec = TopologySpec::Cluster {
//!     racks: 2, nodes_per_rack: 2, gpus_per_node: 4,
//!     intra_bw: Bandwidth::from_gbytes_per_sec(450.0), intra_lat_secs: 1e-6,
//!     node_bw: Bandwidth::from_gbits_per_sec(400.0), node_lat_secs: 2e-6,
//!     rack_bw: Bandwidth::from_gbits_per_sec(200.0), rack_lat_secs: 5e-6,
//!     oversubscription: 1.0, nics_per_node: 1,
//! };
//! let topo = Topology::new(&spec).unwrap();
//! assert_eq!(topo.ranks(), 16);
//! // Rank 0 (rack 0) to rank 15 (rack 1) climbs GPU, node and rack links, then descends.
//! let route = topo.route(0, 15);
//! assert_eq!(route.links().len(), 6);
//! assert!((route.latency_secs - 16e-6).abs() < 1e-18);
//! assert_eq!(topo.link(route.links()[2]).tier, Tier::Rack);
//!
//! // A rail-optimized cluster: 2 nodes × 4 GPUs, rails of 50 GB/s, with PXN.
//! let rail = Topology::new(&TopologySpec::Rail {
//!     nodes: 2, gpus_per_node: 4,
//!     intra_bw: Bandwidth::from_gbytes_per_sec(450.0), intra_lat_secs: 1e-6,
//!     nic_bw: Bandwidth::from_gbytes_per_sec(50.0), nic_lat_secs: 2e-6,
//!     spine_bw: Bandwidth::from_gbytes_per_sec(50.0), spine_lat_secs: 3e-6,
//!     oversubscription: 1.0, pxn: true,
//! }).unwrap();
//! // GPU 1 of node 0 to GPU 2 of node 1: NVLink to GPU 2 of node 0, then rail 2.
//! let r = rail.route(1, 6);
//! let tiers: Vec<Tier> = r.links().iter().map(|&l| rail.link(l).tier).collect();
//! assert_eq!(tiers, [Tier::Gpu, Tier::Gpu, Tier::Node, Tier::Node]);
//! assert_eq!(rail.link(r.links()[2]).to, Endpoint::Rail(2));
//! ```
//!
//! Size: over 450 lines because the three network kinds share one link numbering, one route builder
//! and one validation (with its error kinds); splitting them would spread the link-id arithmetic
//! over files.

use super::units::Bandwidth;
use serde::{Deserialize, Serialize};

/// The largest number of ranks a scenario may have. It keeps a run within a browser tab's memory.
pub const MAX_RANKS: usize = 4096;

/// What a topology is made of, as a user describes it. In JSON, an object whose `kind` names the
/// variant (`"kind": "cluster"`) beside the variant's fields; read through `TopologyFields`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", try_from = "TopologyFields")]
pub enum TopologySpec {
    Uniform {
        ranks: usize,
        bandwidth: Bandwidth,
        latency_secs: f64,
    },
    Cluster {
        racks: usize,
        nodes_per_rack: usize,
        gpus_per_node: usize,
        /// GPU ↔ node switch, per direction.
        intra_bw: Bandwidth,
        intra_lat_secs: f64,
        /// Node ↔ rack switch (all of a node's NICs together), per direction.
        node_bw: Bandwidth,
        node_lat_secs: f64,
        /// Rack ↔ spine, per direction, before oversubscription.
        rack_bw: Bandwidth,
        rack_lat_secs: f64,
        /// The rack uplink carries `rack_bw / oversubscription`. 1 means non-blocking; 1 when
        /// absent (as every default here: `TopologyFields`' conversion gives them).
        oversubscription: f64,
        /// NICs per node, 1..8, at most one per GPU; `node_bw` is each NIC's. Scenarios written
        /// before NICs per node existed read as 1, and 1 is not written out, so they stay the same.
        #[serde(skip_serializing_if = "is_one_nic")]
        nics_per_node: usize,
    },
    /// A rail-optimized cluster: NIC i of every node on leaf switch i, leaves joined by a spine.
    Rail {
        nodes: usize,
        gpus_per_node: usize,
        /// GPU ↔ node switch (NVLink), per direction.
        intra_bw: Bandwidth,
        intra_lat_secs: f64,
        /// Each GPU's NIC ↔ its rail's leaf switch, per direction.
        nic_bw: Bandwidth,
        nic_lat_secs: f64,
        /// Each leaf ↔ spine, per direction, before oversubscription.
        spine_bw: Bandwidth,
        spine_lat_secs: f64,
        /// The leaf uplink carries `spine_bw / oversubscription`. 1 means non-blocking; 1 when
        /// absent.
        oversubscription: f64,
        /// Traffic between rails hops over NVLink to the right rail first (NCCL's PXN) instead of
        /// crossing the spine; true when absent.
        pxn: bool,
    },
}

fn one() -> f64 {
    1.0
}

/// How a [`TopologySpec`] reads from JSON: its `kind` and every kind's fields at once, then the
/// fields that kind needs taken out, in the order the variant declares them (so a missing one is
/// named as serde names it), the absent optional ones given their defaults. serde's own reading
/// of a `kind`-tagged enum first copies the whole object into a buffer of its own and then reads
/// each kind's fields from that, which made the page's wasm 19 KB larger (5.7 KB by gzip).
///
/// Of objects, it accepts only what the tagged enum accepted, reading the same topology; on one
/// with a valid `kind`, no key twice and the other kinds' fields well typed, it fails where that
/// failed, in the same words (a field given as `null` refused, not read as absent), though at the
/// field rather than at the object's end. What it refuses beyond that, objects that are wrong
/// anyway: another kind's field of the wrong type or given twice (the tagged enum skipped them);
/// where the `kind` is wrong or missing and a field is wrong too, the error may name the field.
/// (An array, serde's positional form of an object, reads by this struct's order, not the
/// variant's; nobody writes one.) tests/topology_json.rs holds the tagged enum as the oracle.
#[derive(Default, Deserialize)]
#[serde(
    default,
    deny_unknown_fields,
    expecting = "internally tagged enum TopologySpec"
)]
struct TopologyFields {
    kind: Given<KindName>,
    ranks: Given<usize>,
    bandwidth: Given<Bandwidth>,
    latency_secs: Given<f64>,
    racks: Given<usize>,
    nodes_per_rack: Given<usize>,
    nodes: Given<usize>,
    gpus_per_node: Given<usize>,
    intra_bw: Given<Bandwidth>,
    intra_lat_secs: Given<f64>,
    node_bw: Given<Bandwidth>,
    node_lat_secs: Given<f64>,
    rack_bw: Given<Bandwidth>,
    rack_lat_secs: Given<f64>,
    nic_bw: Given<Bandwidth>,
    nic_lat_secs: Given<f64>,
    spine_bw: Given<Bandwidth>,
    spine_lat_secs: Given<f64>,
    oversubscription: Given<f64>,
    nics_per_node: Given<usize>,
    pxn: Given<bool>,
}

/// The kinds a topology's `kind` may name (read as serde reads an enum's tag: a name, nothing
/// else, "unknown variant `torus`, expected one of …").
#[derive(Deserialize)]
#[serde(variant_identifier, rename_all = "snake_case")]
enum KindName {
    Uniform,
    Cluster,
    Rail,
}

/// A field that was given (`Some`) or absent (`None`, by `#[serde(default)]`); unlike `Option`,
/// `null` is not absent but a value of the wrong type.
struct Given<T>(Option<T>);

impl<T> Default for Given<T> {
    fn default() -> Self {
        Given(None)
    }
}

impl<'de, T: Deserialize<'de>> Deserialize<'de> for Given<T> {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        T::deserialize(d).map(|v| Given(Some(v)))
    }
}

/// A field the topology's kind needs was absent: serde's own words.
#[derive(Debug)]
struct MissingField(&'static str);

impl std::fmt::Display for MissingField {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "missing field `{}`", self.0)
    }
}

impl<T> Given<T> {
    fn need(self, name: &'static str) -> Result<T, MissingField> {
        self.0.ok_or(MissingField(name))
    }

    fn or(self, default: T) -> T {
        self.0.unwrap_or(default)
    }
}

impl TryFrom<TopologyFields> for TopologySpec {
    type Error = MissingField;

    fn try_from(f: TopologyFields) -> Result<TopologySpec, MissingField> {
        Ok(match f.kind.need("kind")? {
            KindName::Uniform => TopologySpec::Uniform {
                ranks: f.ranks.need("ranks")?,
                bandwidth: f.bandwidth.need("bandwidth")?,
                latency_secs: f.latency_secs.need("latency_secs")?,
            },
            KindName::Cluster => TopologySpec::Cluster {
                racks: f.racks.need("racks")?,
                nodes_per_rack: f.nodes_per_rack.need("nodes_per_rack")?,
                gpus_per_node: f.gpus_per_node.need("gpus_per_node")?,
                intra_bw: f.intra_bw.need("intra_bw")?,
                intra_lat_secs: f.intra_lat_secs.need("intra_lat_secs")?,
                node_bw: f.node_bw.need("node_bw")?,
                node_lat_secs: f.node_lat_secs.need("node_lat_secs")?,
                rack_bw: f.rack_bw.need("rack_bw")?,
                rack_lat_secs: f.rack_lat_secs.need("rack_lat_secs")?,
                oversubscription: f.oversubscription.or(one()),
                nics_per_node: f.nics_per_node.or(one_nic()),
            },
            KindName::Rail => TopologySpec::Rail {
                nodes: f.nodes.need("nodes")?,
                gpus_per_node: f.gpus_per_node.need("gpus_per_node")?,
                intra_bw: f.intra_bw.need("intra_bw")?,
                intra_lat_secs: f.intra_lat_secs.need("intra_lat_secs")?,
                nic_bw: f.nic_bw.need("nic_bw")?,
                nic_lat_secs: f.nic_lat_secs.need("nic_lat_secs")?,
                spine_bw: f.spine_bw.need("spine_bw")?,
                spine_lat_secs: f.spine_lat_secs.need("spine_lat_secs")?,
                oversubscription: f.oversubscription.or(one()),
                pxn: f.pxn.or(yes()),
            },
        })
    }
}

fn one_nic() -> usize {
    1
}

fn is_one_nic(k: &usize) -> bool {
    *k == 1
}

fn yes() -> bool {
    true
}

/// Pushes `count` links of one tier up, from `lower(i)` to `upper(i)`, then the same `count`
/// down: every tier's place in the link numbering is `[up × count][down × count]`.
fn push_tier(
    links: &mut Vec<Link>,
    count: usize,
    lower: impl Fn(usize) -> Endpoint,
    upper: impl Fn(usize) -> Endpoint,
    tier: Tier,
    bandwidth: Bandwidth,
    latency_secs: f64,
) {
    let link = |from, to| Link {
        from,
        to,
        tier,
        bandwidth,
        latency_secs,
    };
    links.extend((0..count).map(|i| link(lower(i), upper(i))));
    links.extend((0..count).map(|i| link(upper(i), lower(i))));
}

impl TopologySpec {
    /// Bandwidth and latency of each tier, from the GPU outwards: GPU ↔ node switch, node (or a
    /// rail's NIC) ↔ its switch, rack (or leaf) ↔ spine; `uniform` has the one port three times.
    ///
    /// ```
    /// use allreduce_sim::topology::TopologySpec;
    /// use allreduce_sim::units::Bandwidth;
    /// let bw = Bandwidth::from_gbytes_per_sec(100.0);
    /// let spec = TopologySpec::Uniform { ranks: 8, bandwidth: bw, latency_secs: 5e-6 };
    /// assert_eq!(spec.tiers(), [(bw, 5e-6); 3]);
    /// ```
    pub fn tiers(&self) -> [(Bandwidth, f64); 3] {
        match *self {
            TopologySpec::Uniform {
                bandwidth,
                latency_secs,
                ..
            } => [(bandwidth, latency_secs); 3],
            TopologySpec::Cluster {
                intra_bw,
                intra_lat_secs,
                node_bw,
                node_lat_secs,
                rack_bw,
                rack_lat_secs,
                ..
            } => [
                (intra_bw, intra_lat_secs),
                (node_bw, node_lat_secs),
                (rack_bw, rack_lat_secs),
            ],
            TopologySpec::Rail {
                intra_bw,
                intra_lat_secs,
                nic_bw,
                nic_lat_secs,
                spine_bw,
                spine_lat_secs,
                ..
            } => [
                (intra_bw, intra_lat_secs),
                (nic_bw, nic_lat_secs),
                (spine_bw, spine_lat_secs),
            ],
        }
    }
}

/// The most NICs a node may have.
pub const MAX_NICS_PER_NODE: usize = 8;

/// Which tier a link belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Tier {
    /// A GPU's port to its node switch (NVLink/NVSwitch, PCIe); on `uniform`, a rank's port.
    Gpu,
    /// A NIC to its rack switch (on `rail`: to its rail's leaf switch).
    Node,
    /// A rack's uplink to the spine (on `rail`: a leaf's uplink).
    Rack,
}

impl Tier {
    /// Every tier, in the order a scenario lists their bandwidths and latencies
    /// ([`TopologySpec::tiers`]).
    pub const ALL: [Tier; 3] = [Tier::Gpu, Tier::Node, Tier::Rack];

    /// The tier's name, as scenario files and the CLI's reports write it.
    ///
    /// ```
    /// use allreduce_sim::topology::Tier;
    /// assert_eq!(Tier::Node.name(), "node");
    /// assert_eq!(serde_json::to_string(&Tier::Rack).unwrap(), format!("\"{}\"", Tier::Rack.name()));
    /// ```
    pub const fn name(self) -> &'static str {
        match self {
            Tier::Gpu => "gpu",
            Tier::Node => "node",
            Tier::Rack => "rack",
        }
    }
}

/// One end of a link.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", content = "index", rename_all = "snake_case")]
pub enum Endpoint {
    Rank(usize),
    NodeSwitch(usize),
    RackSwitch(usize),
    /// The spine on `cluster` and `rail`, the ideal switch on `uniform`.
    Spine,
    /// NIC `nic` of node `node` (named when a node has more than one, and on `rail`).
    Nic(usize, usize),
    /// The leaf switch of rail i on `rail`.
    Rail(usize),
}

impl std::fmt::Display for Endpoint {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Endpoint::Rank(r) => write!(f, "rank{r}"),
            Endpoint::NodeSwitch(n) => write!(f, "node{n}"),
            Endpoint::RackSwitch(k) => write!(f, "rack{k}"),
            Endpoint::Spine => write!(f, "spine"),
            Endpoint::Nic(n, k) => write!(f, "node{n}.nic{k}"),
            Endpoint::Rail(i) => write!(f, "rail{i}"),
        }
    }
}

/// A directed link.
#[derive(Clone, Debug, PartialEq)]
pub struct Link {
    pub from: Endpoint,
    pub to: Endpoint,
    pub tier: Tier,
    pub bandwidth: Bandwidth,
    pub latency_secs: f64,
}

/// The links a message crosses, in order, and the latency it waits before its first byte arrives.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Route {
    links: [u32; 6],
    len: u8,
    pub latency_secs: f64,
}

impl Route {
    /// The ids of the links crossed, in order (see [`Topology::link`]).
    ///
    /// # Examples
    ///
    /// ```
    /// use allreduce_sim::{topology::*, units::Bandwidth};
    /// let spec = TopologySpec::Uniform { ranks: 4, bandwidth: Bandwidth::from_gbytes_per_sec(100.0), latency_secs: 5e-6 };
    /// let topo = Topology::new(&spec).unwrap();
    /// // Up rank 1's port, down rank 3's.
    /// let route = topo.route(1, 3);
    /// assert_eq!(route.links().len(), 2);
    /// assert_eq!((topo.link(route.links()[0]).from, topo.link(route.links()[1]).to), (Endpoint::Rank(1), Endpoint::Rank(3)));
    /// ```
    pub fn links(&self) -> &[u32] {
        &self.links[..self.len as usize]
    }
}

/// A field of a topology spec that a [`TopologyError`] names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TopologyField {
    Ranks,
    Racks,
    Nodes,
    NodesPerRack,
    GpusPerNode,
    Bandwidth,
    Latency,
    IntraBandwidth,
    IntraLatency,
    NodeBandwidth,
    NodeLatency,
    RackBandwidth,
    RackLatency,
    NicBandwidth,
    NicLatency,
    SpineBandwidth,
    SpineLatency,
}

impl TopologyField {
    /// The English name the CLI prints.
    ///
    /// # Examples
    ///
    /// ```
    /// use allreduce_sim::{topology::*, units::Bandwidth};
    /// let spec = TopologySpec::Uniform { ranks: 0, bandwidth: Bandwidth::from_gbytes_per_sec(100.0), latency_secs: 5e-6 };
    /// let Err(TopologyError::CountOutOfRange { field, got: 0, .. }) = Topology::new(&spec) else { panic!() };
    /// assert_eq!(field.name(), "ranks");
    /// assert_eq!(TopologyField::GpusPerNode.name(), "GPUs per node");
    /// ```
    pub fn name(self) -> &'static str {
        use TopologyField as F;
        match self {
            F::Ranks => "ranks",
            F::Racks => "racks",
            F::Nodes => "nodes",
            F::NodesPerRack => "nodes per rack",
            F::GpusPerNode => "GPUs per node",
            F::Bandwidth => "bandwidth",
            F::Latency => "latency",
            F::IntraBandwidth => "intra-node bandwidth",
            F::IntraLatency => "intra-node latency",
            F::NodeBandwidth => "node bandwidth",
            F::NodeLatency => "node latency",
            F::RackBandwidth => "rack bandwidth",
            F::RackLatency => "rack latency",
            F::NicBandwidth => "NIC bandwidth",
            F::NicLatency => "NIC latency",
            F::SpineBandwidth => "spine bandwidth",
            F::SpineLatency => "spine latency",
        }
    }
}

/// Why a topology cannot be built: the kind and its values.
#[derive(Clone, Debug, PartialEq)]
pub enum TopologyError {
    /// A count (ranks, racks, nodes, …) outside `1..=max`.
    CountOutOfRange {
        field: TopologyField,
        got: usize,
        max: usize,
    },
    /// The product of the counts exceeds `max` ranks; `rail` says it is nodes × GPUs per node.
    TooManyRanks { rail: bool, max: usize },
    /// GPUs per node on a rail network outside `1..=max` (one NIC, one rail each).
    RailGpusOutOfRange { got: usize, max: usize },
    /// A bandwidth that is not positive and finite.
    BandwidthNotPositive { field: TopologyField },
    /// A bandwidth outside 1 B/s..1 PB/s.
    BandwidthOutOfRange { field: TopologyField },
    /// A latency outside 0..10 s.
    LatencyOutOfRange { field: TopologyField },
    /// Oversubscription outside 1..64.
    OversubscriptionOutOfRange,
    /// NICs per node outside `1..=max`.
    NicsOutOfRange { got: usize, max: usize },
    /// More NICs than GPUs in a node.
    NicsExceedGpus { nics: usize, gpus_per_node: usize },
}

impl std::fmt::Display for TopologyError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        use TopologyError as E;
        match *self {
            E::CountOutOfRange { field, got, max } => {
                write!(f, "{} must be between 1 and {max}, got {got}", field.name())
            }
            E::TooManyRanks { rail: false, max } => write!(
                f,
                "racks × nodes per rack × GPUs per node must be at most {max}"
            ),
            E::TooManyRanks { rail: true, max } => {
                write!(f, "nodes × GPUs per node must be at most {max}")
            }
            E::RailGpusOutOfRange { got, max } => write!(
                f,
                "GPUs per node on a rail network must be between 1 and {max} (one NIC, one rail each), got {got}"
            ),
            E::BandwidthNotPositive { field } => write!(
                f,
                "{} must be a positive bandwidth, e.g. 100GB/s or 400Gbps",
                field.name()
            ),
            E::BandwidthOutOfRange { field } => {
                write!(f, "{} must lie between 1 B/s and 1 PB/s", field.name())
            }
            E::LatencyOutOfRange { field } => {
                write!(f, "{} must be between 0 and 10 s, e.g. 5us", field.name())
            }
            E::OversubscriptionOutOfRange => {
                f.write_str("oversubscription must be between 1 (non-blocking) and 64")
            }
            E::NicsOutOfRange { got, max } => {
                write!(f, "NICs per node must be between 1 and {max}, got {got}")
            }
            E::NicsExceedGpus {
                nics,
                gpus_per_node,
            } => write!(
                f,
                "NICs per node ({nics}) cannot exceed GPUs per node ({gpus_per_node}): each GPU uses its nearest NIC"
            ),
        }
    }
}

impl std::error::Error for TopologyError {}

/// A built topology: its links and how to route between ranks.
#[derive(Clone, Debug)]
pub struct Topology {
    spec: TopologySpec,
    ranks: usize,
    gpus_per_node: usize,
    nodes_per_rack: usize,
    /// NICs per node (1 on `uniform`, G on `rail`).
    nics_per_node: usize,
    links: Vec<Link>,
}

fn check_bw(field: TopologyField, bw: Bandwidth) -> Result<(), TopologyError> {
    let b = bw.bytes_per_sec();
    if !(b.is_finite() && b > 0.0) {
        return Err(TopologyError::BandwidthNotPositive { field });
    }
    if !(1.0..=1e15).contains(&b) {
        return Err(TopologyError::BandwidthOutOfRange { field });
    }
    Ok(())
}

fn check_lat(field: TopologyField, secs: f64) -> Result<(), TopologyError> {
    if !(secs.is_finite() && (0.0..=10.0).contains(&secs)) {
        return Err(TopologyError::LatencyOutOfRange { field });
    }
    Ok(())
}

/// The product of `counts`, if it is at most [`MAX_RANKS`].
fn ranks_of(counts: &[usize], rail: bool) -> Result<usize, TopologyError> {
    (counts.iter())
        .try_fold(1usize, |n, &c| n.checked_mul(c))
        .filter(|&n| n <= MAX_RANKS)
        .ok_or(TopologyError::TooManyRanks {
            rail,
            max: MAX_RANKS,
        })
}

/// Each tier's bandwidth, then each tier's latency (inner tier first), then the uplinks'
/// oversubscription; `outer` names the fields of the two tiers above the GPUs' own.
fn check_tiers(
    spec: &TopologySpec,
    outer: [(TopologyField, TopologyField); 2],
) -> Result<(), TopologyError> {
    let fields = [
        (TopologyField::IntraBandwidth, TopologyField::IntraLatency),
        outer[0],
        outer[1],
    ];
    let tiers = spec.tiers();
    for ((bw_field, _), (bw, _)) in fields.iter().zip(tiers) {
        check_bw(*bw_field, bw)?;
    }
    for ((_, lat_field), (_, lat)) in fields.iter().zip(tiers) {
        check_lat(*lat_field, lat)?;
    }
    match *spec {
        TopologySpec::Uniform { .. } => Ok(()),
        TopologySpec::Cluster {
            oversubscription, ..
        }
        | TopologySpec::Rail {
            oversubscription, ..
        } => check_oversubscription(oversubscription),
    }
}

fn check_oversubscription(x: f64) -> Result<(), TopologyError> {
    if !(x.is_finite() && (1.0..=64.0).contains(&x)) {
        return Err(TopologyError::OversubscriptionOutOfRange);
    }
    Ok(())
}

fn check_nics(k: usize, gpus_per_node: usize) -> Result<(), TopologyError> {
    if !(1..=MAX_NICS_PER_NODE).contains(&k) {
        return Err(TopologyError::NicsOutOfRange {
            got: k,
            max: MAX_NICS_PER_NODE,
        });
    }
    if k > gpus_per_node {
        return Err(TopologyError::NicsExceedGpus {
            nics: k,
            gpus_per_node,
        });
    }
    Ok(())
}

impl Topology {
    /// Builds the links of `spec`, checking every bound.
    ///
    /// # Examples
    ///
    /// ```
    /// use allreduce_sim::{topology::*, units::Bandwidth};
    /// let bw = Bandwidth::from_gbytes_per_sec(100.0);
    /// // N ranks: an up and a down port each.
    /// let topo = Topology::new(&TopologySpec::Uniform { ranks: 8, bandwidth: bw, latency_secs: 5e-6 }).unwrap();
    /// assert_eq!(topo.links().len(), 16);
    /// let bad = Topology::new(&TopologySpec::Uniform { ranks: 8, bandwidth: bw, latency_secs: -1.0 });
    /// assert!(matches!(bad, Err(TopologyError::LatencyOutOfRange { field: TopologyField::Latency, .. })));
    /// ```
    pub fn new(spec: &TopologySpec) -> Result<Topology, TopologyError> {
        let mut links = Vec::new();
        match *spec {
            TopologySpec::Uniform {
                ranks,
                bandwidth,
                latency_secs,
            } => {
                if !(1..=MAX_RANKS).contains(&ranks) {
                    return Err(TopologyError::CountOutOfRange {
                        field: TopologyField::Ranks,
                        got: ranks,
                        max: MAX_RANKS,
                    });
                }
                check_bw(TopologyField::Bandwidth, bandwidth)?;
                check_lat(TopologyField::Latency, latency_secs)?;
                // The route latency is α; each port carries half so that the two add up to α exactly.
                push_tier(
                    &mut links,
                    ranks,
                    Endpoint::Rank,
                    |_| Endpoint::Spine,
                    Tier::Gpu,
                    bandwidth,
                    latency_secs / 2.0,
                );
                Ok(Topology {
                    spec: spec.clone(),
                    ranks,
                    gpus_per_node: ranks,
                    nodes_per_rack: 1,
                    nics_per_node: 1,
                    links,
                })
            }
            TopologySpec::Cluster {
                racks,
                nodes_per_rack,
                gpus_per_node,
                intra_bw,
                intra_lat_secs,
                node_bw,
                node_lat_secs,
                rack_bw,
                rack_lat_secs,
                oversubscription,
                nics_per_node,
            } => {
                for (field, got) in [
                    (TopologyField::Racks, racks),
                    (TopologyField::NodesPerRack, nodes_per_rack),
                    (TopologyField::GpusPerNode, gpus_per_node),
                ] {
                    if !(1..=MAX_RANKS).contains(&got) {
                        return Err(TopologyError::CountOutOfRange {
                            field,
                            got,
                            max: MAX_RANKS,
                        });
                    }
                }
                let ranks = ranks_of(&[racks, nodes_per_rack, gpus_per_node], false)?;
                use TopologyField as F;
                let node = (F::NodeBandwidth, F::NodeLatency);
                check_tiers(spec, [node, (F::RackBandwidth, F::RackLatency)])?;
                check_nics(nics_per_node, gpus_per_node)?;
                let k = nics_per_node;
                let nodes = racks * nodes_per_rack;
                let uplink =
                    Bandwidth::from_bytes_per_sec(rack_bw.bytes_per_sec() / oversubscription);
                // One NIC per node keeps the node switch as its end (and every earlier report as it was).
                let nic = |n: usize, i: usize| {
                    if k == 1 {
                        Endpoint::NodeSwitch(n)
                    } else {
                        Endpoint::Nic(n, i)
                    }
                };
                // Layout: [gpu up × N][gpu down × N][nic up × M·K][nic down × M·K][rack up × R][rack down × R]
                push_tier(
                    &mut links,
                    ranks,
                    Endpoint::Rank,
                    |r| Endpoint::NodeSwitch(r / gpus_per_node),
                    Tier::Gpu,
                    intra_bw,
                    intra_lat_secs,
                );
                push_tier(
                    &mut links,
                    nodes * k,
                    |j| nic(j / k, j % k),
                    |j| Endpoint::RackSwitch(j / k / nodes_per_rack),
                    Tier::Node,
                    node_bw,
                    node_lat_secs,
                );
                push_tier(
                    &mut links,
                    racks,
                    Endpoint::RackSwitch,
                    |_| Endpoint::Spine,
                    Tier::Rack,
                    uplink,
                    rack_lat_secs,
                );
                Ok(Topology {
                    spec: spec.clone(),
                    ranks,
                    gpus_per_node,
                    nodes_per_rack,
                    nics_per_node: k,
                    links,
                })
            }
            TopologySpec::Rail {
                nodes,
                gpus_per_node,
                intra_bw,
                intra_lat_secs,
                nic_bw,
                nic_lat_secs,
                spine_bw,
                spine_lat_secs,
                oversubscription,
                pxn: _,
            } => {
                if !(1..=MAX_RANKS).contains(&nodes) {
                    return Err(TopologyError::CountOutOfRange {
                        field: TopologyField::Nodes,
                        got: nodes,
                        max: MAX_RANKS,
                    });
                }
                if !(1..=MAX_NICS_PER_NODE).contains(&gpus_per_node) {
                    return Err(TopologyError::RailGpusOutOfRange {
                        got: gpus_per_node,
                        max: MAX_NICS_PER_NODE,
                    });
                }
                let ranks = ranks_of(&[nodes, gpus_per_node], true)?;
                use TopologyField as F;
                let nic = (F::NicBandwidth, F::NicLatency);
                check_tiers(spec, [nic, (F::SpineBandwidth, F::SpineLatency)])?;
                let g = gpus_per_node;
                let uplink =
                    Bandwidth::from_bytes_per_sec(spine_bw.bytes_per_sec() / oversubscription);
                // Layout: [gpu up × N][gpu down × N][nic up × N][nic down × N][leaf up × G][leaf down × G]
                push_tier(
                    &mut links,
                    ranks,
                    Endpoint::Rank,
                    |r| Endpoint::NodeSwitch(r / g),
                    Tier::Gpu,
                    intra_bw,
                    intra_lat_secs,
                );
                push_tier(
                    &mut links,
                    ranks,
                    |r| Endpoint::Nic(r / g, r % g),
                    |r| Endpoint::Rail(r % g),
                    Tier::Node,
                    nic_bw,
                    nic_lat_secs,
                );
                push_tier(
                    &mut links,
                    g,
                    Endpoint::Rail,
                    |_| Endpoint::Spine,
                    Tier::Rack,
                    uplink,
                    spine_lat_secs,
                );
                Ok(Topology {
                    spec: spec.clone(),
                    ranks,
                    gpus_per_node: g,
                    nodes_per_rack: nodes,
                    nics_per_node: g,
                    links,
                })
            }
        }
    }

    /// The spec it was built from.
    ///
    /// # Examples
    ///
    /// ```
    /// use allreduce_sim::{topology::*, units::Bandwidth};
    /// let spec = TopologySpec::Uniform { ranks: 4, bandwidth: Bandwidth::from_gbytes_per_sec(100.0), latency_secs: 5e-6 };
    /// assert_eq!(Topology::new(&spec).unwrap().spec(), &spec);
    /// ```
    pub fn spec(&self) -> &TopologySpec {
        &self.spec
    }
    /// The number of ranks (GPUs).
    ///
    /// # Examples
    ///
    /// ```
    /// use allreduce_sim::{topology::*, units::Bandwidth};
    /// let bw = Bandwidth::from_gbytes_per_sec(50.0);
    /// let topo = Topology::new(&TopologySpec::Cluster { racks: 2, nodes_per_rack: 3, gpus_per_node: 4,
    ///     intra_bw: bw, intra_lat_secs: 1e-6, node_bw: bw, node_lat_secs: 2e-6, rack_bw: bw, rack_lat_secs: 5e-6,
    ///     oversubscription: 1.0, nics_per_node: 2 }).unwrap();
    /// assert_eq!(topo.ranks(), 2 * 3 * 4);
    /// ```
    pub fn ranks(&self) -> usize {
        self.ranks
    }
    /// GPUs per node; on `uniform` all ranks form one node.
    ///
    /// # Examples
    ///
    /// ```
    /// use allreduce_sim::{topology::*, units::Bandwidth};
    /// let spec = TopologySpec::Uniform { ranks: 6, bandwidth: Bandwidth::from_gbytes_per_sec(100.0), latency_secs: 5e-6 };
    /// assert_eq!(Topology::new(&spec).unwrap().gpus_per_node(), 6);
    /// ```
    pub fn gpus_per_node(&self) -> usize {
        self.gpus_per_node
    }
    /// The number of nodes.
    ///
    /// # Examples
    ///
    /// ```
    /// use allreduce_sim::{topology::*, units::Bandwidth};
    /// let bw = Bandwidth::from_gbytes_per_sec(50.0);
    /// let topo = Topology::new(&TopologySpec::Cluster { racks: 2, nodes_per_rack: 3, gpus_per_node: 4,
    ///     intra_bw: bw, intra_lat_secs: 1e-6, node_bw: bw, node_lat_secs: 2e-6, rack_bw: bw, rack_lat_secs: 5e-6,
    ///     oversubscription: 1.0, nics_per_node: 2 }).unwrap();
    /// assert_eq!((topo.nodes(), topo.node_of(5)), (6, 1));
    /// ```
    pub fn nodes(&self) -> usize {
        self.ranks / self.gpus_per_node
    }
    /// Nodes in each rack (1 on `uniform`, every node on `rail`).
    ///
    /// # Examples
    ///
    /// ```
    /// use allreduce_sim::{topology::*, units::Bandwidth};
    /// let bw = Bandwidth::from_gbytes_per_sec(50.0);
    /// let topo = Topology::new(&TopologySpec::Cluster { racks: 2, nodes_per_rack: 3, gpus_per_node: 4,
    ///     intra_bw: bw, intra_lat_secs: 1e-6, node_bw: bw, node_lat_secs: 2e-6, rack_bw: bw, rack_lat_secs: 5e-6,
    ///     oversubscription: 1.0, nics_per_node: 2 }).unwrap();
    /// assert_eq!(topo.nodes_per_rack(), 3);
    /// ```
    pub fn nodes_per_rack(&self) -> usize {
        self.nodes_per_rack
    }
    /// The number of racks.
    ///
    /// # Examples
    ///
    /// ```
    /// use allreduce_sim::{topology::*, units::Bandwidth};
    /// let bw = Bandwidth::from_gbytes_per_sec(50.0);
    /// let topo = Topology::new(&TopologySpec::Cluster { racks: 2, nodes_per_rack: 3, gpus_per_node: 4,
    ///     intra_bw: bw, intra_lat_secs: 1e-6, node_bw: bw, node_lat_secs: 2e-6, rack_bw: bw, rack_lat_secs: 5e-6,
    ///     oversubscription: 1.0, nics_per_node: 2 }).unwrap();
    /// assert_eq!((topo.racks(), topo.rack_of(11), topo.rack_of(12)), (2, 0, 1));
    /// ```
    pub fn racks(&self) -> usize {
        self.nodes() / self.nodes_per_rack
    }
    /// The node a rank sits in.
    ///
    /// # Examples
    ///
    /// ```
    /// use allreduce_sim::{topology::*, units::Bandwidth};
    /// let bw = Bandwidth::from_gbytes_per_sec(50.0);
    /// let topo = Topology::new(&TopologySpec::Cluster { racks: 1, nodes_per_rack: 2, gpus_per_node: 4,
    ///     intra_bw: bw, intra_lat_secs: 1e-6, node_bw: bw, node_lat_secs: 2e-6, rack_bw: bw, rack_lat_secs: 5e-6,
    ///     oversubscription: 1.0, nics_per_node: 1 }).unwrap();
    /// assert_eq!((topo.node_of(3), topo.node_of(4)), (0, 1));
    /// ```
    pub fn node_of(&self, rank: usize) -> usize {
        rank / self.gpus_per_node
    }
    /// The rack a rank sits in.
    ///
    /// # Examples
    ///
    /// ```
    /// use allreduce_sim::{topology::*, units::Bandwidth};
    /// let bw = Bandwidth::from_gbytes_per_sec(50.0);
    /// let topo = Topology::new(&TopologySpec::Cluster { racks: 2, nodes_per_rack: 2, gpus_per_node: 4,
    ///     intra_bw: bw, intra_lat_secs: 1e-6, node_bw: bw, node_lat_secs: 2e-6, rack_bw: bw, rack_lat_secs: 5e-6,
    ///     oversubscription: 1.0, nics_per_node: 1 }).unwrap();
    /// assert_eq!((topo.rack_of(7), topo.rack_of(8)), (0, 1));
    /// ```
    pub fn rack_of(&self, rank: usize) -> usize {
        self.node_of(rank) / self.nodes_per_rack
    }
    /// Whether this is the textbook `uniform` switch.
    ///
    /// # Examples
    ///
    /// ```
    /// use allreduce_sim::{topology::*, units::Bandwidth};
    /// let spec = TopologySpec::Uniform { ranks: 4, bandwidth: Bandwidth::from_gbytes_per_sec(100.0), latency_secs: 5e-6 };
    /// let topo = Topology::new(&spec).unwrap();
    /// assert!(topo.is_uniform() && !topo.is_rail());
    /// ```
    pub fn is_uniform(&self) -> bool {
        matches!(self.spec, TopologySpec::Uniform { .. })
    }
    /// Whether this is a rail-optimized network.
    ///
    /// # Examples
    ///
    /// ```
    /// use allreduce_sim::{topology::*, units::Bandwidth};
    /// let bw = Bandwidth::from_gbytes_per_sec(50.0);
    /// let rail = Topology::new(&TopologySpec::Rail { nodes: 2, gpus_per_node: 4, intra_bw: bw, intra_lat_secs: 1e-6,
    ///     nic_bw: bw, nic_lat_secs: 2e-6, spine_bw: bw, spine_lat_secs: 3e-6, oversubscription: 1.0, pxn: true }).unwrap();
    /// assert!(rail.is_rail() && !rail.is_uniform());
    /// assert_eq!(rail.nics_per_node(), 4); // one NIC per GPU
    /// ```
    pub fn is_rail(&self) -> bool {
        matches!(self.spec, TopologySpec::Rail { .. })
    }
    /// NICs per node: 1 on `uniform`, K on `cluster`, one per GPU on `rail`.
    ///
    /// # Examples
    ///
    /// ```
    /// use allreduce_sim::{topology::*, units::Bandwidth};
    /// let bw = Bandwidth::from_gbytes_per_sec(50.0);
    /// let topo = Topology::new(&TopologySpec::Cluster { racks: 1, nodes_per_rack: 2, gpus_per_node: 8,
    ///     intra_bw: bw, intra_lat_secs: 1e-6, node_bw: bw, node_lat_secs: 2e-6, rack_bw: bw, rack_lat_secs: 5e-6,
    ///     oversubscription: 1.0, nics_per_node: 4 }).unwrap();
    /// assert_eq!(topo.nics_per_node(), 4);
    /// ```
    pub fn nics_per_node(&self) -> usize {
        self.nics_per_node
    }
    /// Which of its node's NICs a GPU uses: the nearest, ⌊l·K/G⌋ for local index l (on `rail`, its own).
    ///
    /// # Examples
    ///
    /// ```
    /// use allreduce_sim::{topology::*, units::Bandwidth};
    /// let bw = Bandwidth::from_gbytes_per_sec(50.0);
    /// let topo = Topology::new(&TopologySpec::Cluster { racks: 1, nodes_per_rack: 2, gpus_per_node: 8,
    ///     intra_bw: bw, intra_lat_secs: 1e-6, node_bw: bw, node_lat_secs: 2e-6, rack_bw: bw, rack_lat_secs: 5e-6,
    ///     oversubscription: 1.0, nics_per_node: 4 }).unwrap();
    /// // 8 GPUs on 4 NICs: GPUs 2l and 2l+1 share NIC l, in every node.
    /// assert_eq!((topo.nic_of(5), topo.nic_of(8 + 6)), (2, 3));
    /// ```
    pub fn nic_of(&self, rank: usize) -> usize {
        (rank % self.gpus_per_node) * self.nics_per_node / self.gpus_per_node
    }
    /// The first GPU of a node (its local index) whose nearest NIC is `nic`.
    ///
    /// # Examples
    ///
    /// ```
    /// use allreduce_sim::{topology::*, units::Bandwidth};
    /// let bw = Bandwidth::from_gbytes_per_sec(50.0);
    /// let topo = Topology::new(&TopologySpec::Cluster { racks: 1, nodes_per_rack: 2, gpus_per_node: 8,
    ///     intra_bw: bw, intra_lat_secs: 1e-6, node_bw: bw, node_lat_secs: 2e-6, rack_bw: bw, rack_lat_secs: 5e-6,
    ///     oversubscription: 1.0, nics_per_node: 3 }).unwrap();
    /// assert_eq!((0..3).map(|nic| topo.first_gpu_of_nic(nic)).collect::<Vec<_>>(), [0, 3, 6]);
    /// assert!((0..8).all(|l| topo.first_gpu_of_nic(topo.nic_of(l)) <= l));
    /// ```
    pub fn first_gpu_of_nic(&self, nic: usize) -> usize {
        (nic * self.gpus_per_node).div_ceil(self.nics_per_node)
    }
    /// Every directed link; a link's id is its index.
    ///
    /// # Examples
    ///
    /// ```
    /// use allreduce_sim::{topology::*, units::Bandwidth};
    /// let bw = Bandwidth::from_gbytes_per_sec(50.0);
    /// let topo = Topology::new(&TopologySpec::Cluster { racks: 2, nodes_per_rack: 2, gpus_per_node: 4,
    ///     intra_bw: bw, intra_lat_secs: 1e-6, node_bw: bw, node_lat_secs: 2e-6, rack_bw: bw, rack_lat_secs: 5e-6,
    ///     oversubscription: 1.0, nics_per_node: 1 }).unwrap();
    /// // Up and down: 16 GPU ports, 4 NICs, 2 rack uplinks.
    /// assert_eq!(topo.links().len(), 2 * (16 + 4 + 2));
    /// assert_eq!(topo.links().iter().filter(|l| l.tier == Tier::Rack).count(), 4);
    /// ```
    pub fn links(&self) -> &[Link] {
        &self.links
    }
    /// The link with id `id`.
    ///
    /// # Examples
    ///
    /// ```
    /// use allreduce_sim::{topology::*, units::Bandwidth};
    /// let spec = TopologySpec::Uniform { ranks: 4, bandwidth: Bandwidth::from_gbytes_per_sec(100.0), latency_secs: 5e-6 };
    /// let topo = Topology::new(&spec).unwrap();
    /// let up = topo.link(topo.route(0, 1).links()[0]);
    /// assert_eq!((up.from, up.tier), (Endpoint::Rank(0), Tier::Gpu));
    /// assert_eq!(up.latency_secs, 2.5e-6); // half of α on each port
    /// ```
    pub fn link(&self, id: u32) -> &Link {
        &self.links[id as usize]
    }

    /// Keeps `factor` of link `id`'s bandwidth (a slowed cable, see [`faults`](super::faults)).
    pub(crate) fn scale_link_bandwidth(&mut self, id: u32, factor: f64) {
        let l = &mut self.links[id as usize];
        l.bandwidth = Bandwidth::from_bytes_per_sec(l.bandwidth.bytes_per_sec() * factor);
    }

    /// The bandwidth of a rank's own port (its injection bandwidth).
    ///
    /// # Examples
    ///
    /// ```
    /// use allreduce_sim::{topology::*, units::Bandwidth};
    /// let bw = Bandwidth::from_gbytes_per_sec(100.0);
    /// let topo = Topology::new(&TopologySpec::Uniform { ranks: 4, bandwidth: bw, latency_secs: 5e-6 }).unwrap();
    /// assert_eq!(topo.injection_bandwidth(3), bw);
    /// ```
    pub fn injection_bandwidth(&self, rank: usize) -> Bandwidth {
        self.links[rank].bandwidth
    }

    /// The route from `src` to `dst` (distinct ranks).
    ///
    /// # Examples
    ///
    /// ```
    /// use allreduce_sim::{topology::*, units::Bandwidth};
    /// let bw = Bandwidth::from_gbytes_per_sec(50.0);
    /// let topo = Topology::new(&TopologySpec::Cluster { racks: 1, nodes_per_rack: 2, gpus_per_node: 4,
    ///     intra_bw: bw, intra_lat_secs: 1e-6, node_bw: bw, node_lat_secs: 2e-6, rack_bw: bw, rack_lat_secs: 5e-6,
    ///     oversubscription: 1.0, nics_per_node: 1 }).unwrap();
    /// // Inside a node: GPU up, GPU down (1 µs each). Across nodes: GPU, NIC, NIC, GPU.
    /// assert_eq!(topo.route(0, 3).latency_secs, 2e-6);
    /// let across = topo.route(0, 4);
    /// assert_eq!(across.links().len(), 4);
    /// assert!((across.latency_secs - 6e-6).abs() < 1e-18);
    /// ```
    pub fn route(&self, src: usize, dst: usize) -> Route {
        let n = self.ranks;
        let mut links = [0u32; 6];
        let mut len = 0;
        let mut push = |id: usize| {
            links[len] = id as u32;
            len += 1;
        };
        let (ns, nd) = (self.node_of(src), self.node_of(dst));
        if let TopologySpec::Rail { pxn, .. } = self.spec {
            let g = self.gpus_per_node;
            let (rs, rd) = (src % g, dst % g);
            if ns == nd {
                push(src);
                push(n + dst);
            } else if rs == rd {
                push(2 * n + src);
                push(3 * n + dst);
            } else if pxn {
                // NVLink to the GPU of this node on the destination's rail, then that rail.
                let relay = ns * g + rd;
                push(src);
                push(n + relay);
                push(2 * n + relay);
                push(3 * n + dst);
            } else {
                push(2 * n + src);
                push(4 * n + rs);
                push(4 * n + g + rd);
                push(3 * n + dst);
            }
        } else {
            push(src);
            if self.is_uniform() || ns == nd {
                push(n + dst);
            } else {
                let k = self.nics_per_node;
                let m = self.nodes() * k;
                push(2 * n + ns * k + self.nic_of(src));
                let (ks, kd) = (self.rack_of(src), self.rack_of(dst));
                if ks != kd {
                    let r = self.racks();
                    push(2 * n + 2 * m + ks);
                    push(2 * n + 2 * m + r + kd);
                }
                push(2 * n + m + nd * k + self.nic_of(dst));
                push(n + dst);
            }
        }
        let latency_secs = links[..len]
            .iter()
            .map(|&l| self.links[l as usize].latency_secs)
            .sum();
        Route {
            links,
            len: len as u8,
            latency_secs,
        }
    }
}
