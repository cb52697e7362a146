//! Faults: one cable slower than the rest, one rank that joins late (a straggler). They are part
//! of a [`Scenario`](super::scenario::Scenario) and go through the same simulation: a slowed cable
//! keeps a fraction of its bandwidth in both directions (the flow network shares what is left), a
//! straggler's transfers — to it and from it — cannot start before it joins.
//!
//! A cable is named by its two ends as the JSON report names a link's ends: `rank3-spine` on
//! `uniform`, `rank0-node0`, `node0-rack0`, `rack1-spine` on `cluster`; either order.
//!
//! ```
//! use allreduce_sim::faults::{Cable, Faults, SlowLink, Straggler};
//! use allreduce_sim::topology::{Endpoint, Topology, TopologySpec};
//! use allreduce_sim::units::Bandwidth;
//! let cable: Cable = "node0-rack0".parse().unwrap();
//! assert_eq!(cable.ends(), (Endpoint::NodeSwitch(0), Endpoint::RackSwitch(0)));
//! let topo = Topology::new(&TopologySpec::Uniform {
//!     ranks: 4, bandwidth: Bandwidth::from_gbytes_per_sec(100.0), latency_secs: 0.0 }).unwrap();
//! let faults = Faults {
//!     slow_links: vec![SlowLink { cable: "rank3-spine".parse().unwrap(), factor: 0.25 }],
//!     stragglers: vec![Straggler { rank: 1, delay_secs: 200e-6 }],
//! };
//! let slowed = faults.apply(&topo).unwrap();
//! // Both directions of rank 3's cable keep a quarter of 100 GB/s.
//! assert_eq!(slowed.links()[3].bandwidth.gbytes_per_sec(), 25.0);
//! assert_eq!(slowed.links()[4 + 3].bandwidth.gbytes_per_sec(), 25.0);
//! assert_eq!(faults.start_delays(4), vec![0.0, 200e-6, 0.0, 0.0]);
//! ```
//!
//! Size: just over 450 lines with its doc examples and unit tests (about 200 of them); the code
//! itself (cables, slowed links, stragglers, their parsing and checks) is under 300.

use super::topology::{Endpoint, Topology};
use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// The longest a straggler may be late: 10 s.
pub const MAX_DELAY_SECS: f64 = 10.0;
/// The most faults of each kind a scenario may carry.
pub const MAX_FAULTS: usize = 4096;

/// A cable: the two directed links between two ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct Cable {
    a: Endpoint,
    b: Endpoint,
}

impl Cable {
    /// The cable between ends `a` and `b` (either order names the same cable).
    ///
    /// # Examples
    ///
    /// ```
    /// use allreduce_sim::{faults::Cable, topology::Endpoint};
    /// let cable = Cable::new(Endpoint::Rank(3), Endpoint::Spine);
    /// assert_eq!(cable.to_string(), "rank3-spine");
    /// assert_eq!("rank3-spine".parse::<Cable>(), Ok(cable));
    /// ```
    pub fn new(a: Endpoint, b: Endpoint) -> Cable {
        Cable { a, b }
    }
    /// Its two ends, as given.
    ///
    /// # Examples
    ///
    /// ```
    /// use allreduce_sim::{faults::Cable, topology::Endpoint};
    /// let cable: Cable = "rack1-spine".parse().unwrap();
    /// assert_eq!(cable.ends(), (Endpoint::RackSwitch(1), Endpoint::Spine));
    /// assert_eq!("node0.nic2-rack0".parse::<Cable>().unwrap().ends().0, Endpoint::Nic(0, 2));
    /// ```
    pub fn ends(&self) -> (Endpoint, Endpoint) {
        (self.a, self.b)
    }
    /// Whether the directed link `from → to` belongs to this cable.
    ///
    /// # Examples
    ///
    /// ```
    /// use allreduce_sim::{faults::Cable, topology::Endpoint};
    /// let cable: Cable = "node0-rack0".parse().unwrap();
    /// assert!(cable.carries(Endpoint::NodeSwitch(0), Endpoint::RackSwitch(0)));
    /// assert!(cable.carries(Endpoint::RackSwitch(0), Endpoint::NodeSwitch(0))); // both directions
    /// assert!(!cable.carries(Endpoint::NodeSwitch(1), Endpoint::RackSwitch(0)));
    /// ```
    pub fn carries(&self, from: Endpoint, to: Endpoint) -> bool {
        (from, to) == (self.a, self.b) || (from, to) == (self.b, self.a)
    }
}

impl fmt::Display for Cable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}-{}", self.a, self.b)
    }
}

impl From<Cable> for String {
    fn from(c: Cable) -> String {
        c.to_string()
    }
}

impl TryFrom<String> for Cable {
    type Error = CableError;
    fn try_from(s: String) -> Result<Cable, CableError> {
        s.parse()
    }
}

/// Why a text is not a cable: the kind and the text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CableError {
    /// Not `FROM-TO`.
    NotALink { text: String },
    /// One end is not `rankN`, `nodeN`, `nodeN.nicK`, `rackN`, `railN` or `spine`.
    NotAnEnd { text: String },
}

impl fmt::Display for CableError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CableError::NotALink { text } => {
                write!(
                    f,
                    "'{text}' is not a link; expected FROM-TO, e.g. node0-rack0"
                )
            }
            CableError::NotAnEnd { text } => write!(
                f,
                "'{text}' is not a link end; expected rankN, nodeN, nodeN.nicK, rackN, railN or spine"
            ),
        }
    }
}

impl std::error::Error for CableError {}

fn parse_endpoint(text: &str) -> Result<Endpoint, CableError> {
    let t = text.trim();
    let not_an_end = || CableError::NotAnEnd {
        text: t.to_string(),
    };
    if t == "spine" {
        return Ok(Endpoint::Spine);
    }
    if let Some((node, nic)) = t.split_once(".nic") {
        let node = node.strip_prefix("node").and_then(|n| n.parse().ok());
        return match (node, nic.parse()) {
            (Some(n), Ok(k)) => Ok(Endpoint::Nic(n, k)),
            _ => Err(not_an_end()),
        };
    }
    let split = t.find(|c: char| c.is_ascii_digit()).unwrap_or(t.len());
    let (kind, index) = t.split_at(split);
    let index: usize = index.parse().map_err(|_| not_an_end())?;
    match kind {
        "rank" => Ok(Endpoint::Rank(index)),
        "node" => Ok(Endpoint::NodeSwitch(index)),
        "rack" => Ok(Endpoint::RackSwitch(index)),
        "rail" => Ok(Endpoint::Rail(index)),
        _ => Err(not_an_end()),
    }
}

impl FromStr for Cable {
    type Err = CableError;
    /// `FROM-TO`, the ends as the JSON report names them (`node0-rack0`, `rank3-spine`).
    fn from_str(s: &str) -> Result<Cable, CableError> {
        let (a, b) = s.split_once('-').ok_or_else(|| CableError::NotALink {
            text: s.to_string(),
        })?;
        Ok(Cable {
            a: parse_endpoint(a)?,
            b: parse_endpoint(b)?,
        })
    }
}

/// A cable that keeps `factor` of its bandwidth, in both directions.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SlowLink {
    pub cable: Cable,
    /// In [[`MIN_FACTOR`], 1]: 1 leaves the cable as it is, 0.25 keeps a quarter.
    pub factor: f64,
}

/// The least share of its bandwidth a slowed cable keeps, a millionth: any factor above 0 passed,
/// and 5e-324 made a run's time infinite (1e-300, hundreds of digits long).
pub const MIN_FACTOR: f64 = 1e-6;

/// Whether `factor` is one a slowed cable may keep: [`MIN_FACTOR`] to 1.
///
/// ```
/// use allreduce_sim::faults::factor_in_range;
/// assert!(factor_in_range(0.25) && factor_in_range(1.0) && factor_in_range(1e-6));
/// assert!(!factor_in_range(0.0) && !factor_in_range(5e-324) && !factor_in_range(f64::NAN));
/// ```
pub fn factor_in_range(factor: f64) -> bool {
    (MIN_FACTOR..=1.0).contains(&factor)
}

/// A rank that joins `delay_secs` after the others.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Straggler {
    pub rank: usize,
    pub delay_secs: f64,
}

/// Every fault of a scenario; the default has none.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Faults {
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub slow_links: Vec<SlowLink>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub stragglers: Vec<Straggler>,
}

/// `x` as written for a person: plainly from 0.001 to 10^6, in exponent form beyond.
///
/// ```
/// use allreduce_sim::faults::short;
/// assert_eq!((short(0.25), short(1.5), short(5e-324), short(1e300)), ("0.25".into(), "1.5".into(), "5e-324".into(), "1e300".into()));
/// ```
pub fn short(x: f64) -> String {
    if x == 0.0 || !x.is_finite() || (1e-3..1e6).contains(&x.abs()) {
        format!("{x}")
    } else {
        format!("{x:e}")
    }
}

/// Why a fault cannot apply, with its data; [`fmt::Display`] words it.
#[derive(Clone, Debug, PartialEq)]
pub enum FaultError {
    FactorOutOfRange {
        cable: Cable,
        factor: f64,
    },
    NoSuchCable {
        cable: Cable,
        /// A cable of each tier the topology has, to name as it names them.
        examples: Vec<Cable>,
    },
    CableTwice {
        cable: Cable,
    },
    RankOutOfRange {
        rank: usize,
        ranks: usize,
    },
    DelayOutOfRange {
        rank: usize,
        delay_secs: f64,
    },
    RankTwice {
        rank: usize,
    },
    TooMany {
        count: usize,
    },
    /// A text that names no cable.
    Cable(CableError),
}

impl From<CableError> for FaultError {
    fn from(e: CableError) -> Self {
        FaultError::Cable(e)
    }
}

/// Cables as a message lists them: `rank0-node0, node0-rack0`.
///
/// ```
/// use allreduce_sim::faults::{Cable, cable_list};
/// let cables: Vec<Cable> = ["rank0-node0", "rack0-spine"].iter().map(|c| c.parse().unwrap()).collect();
/// assert_eq!(cable_list(&cables), "rank0-node0, rack0-spine");
/// ```
pub fn cable_list(cables: &[Cable]) -> String {
    cables
        .iter()
        .map(Cable::to_string)
        .collect::<Vec<_>>()
        .join(", ")
}

/// The first cable of each tier of `topo` (its links' order: GPU links, then NICs, then uplinks),
/// named as a slow link names them.
fn cable_examples(topo: &Topology) -> Vec<Cable> {
    let mut seen = Vec::new();
    let mut out = Vec::new();
    for l in topo.links() {
        if !seen.contains(&l.tier) {
            seen.push(l.tier);
            out.push(Cable::new(l.from, l.to));
        }
    }
    out
}

impl fmt::Display for FaultError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            // In exponent form when tiny or huge (5e-324 printed 324 digits).
            FaultError::FactorOutOfRange { cable, factor } => write!(
                f,
                "slow link {cable}: factor {} is out of range; expected a number from 0.000001 to 1, e.g. 0.25",
                short(*factor)
            ),
            FaultError::NoSuchCable { cable, examples } => write!(
                f,
                "slow link {cable}: this topology has no such link (name its ends as the JSON 'links' do: here, e.g. {})",
                cable_list(examples)
            ),
            FaultError::CableTwice { cable } => write!(f, "slow link {cable} is given twice"),
            FaultError::RankOutOfRange { rank, ranks } => write!(
                f,
                "straggler rank {rank} does not exist; expected 0..{}",
                ranks.saturating_sub(1)
            ),
            FaultError::DelayOutOfRange { rank, delay_secs } => write!(
                f,
                "straggler rank {rank}: delay {} s is out of range; expected 0..{MAX_DELAY_SECS} s, e.g. 200us",
                short(*delay_secs)
            ),
            FaultError::RankTwice { rank } => write!(f, "straggler rank {rank} is given twice"),
            FaultError::TooMany { count } => write!(
                f,
                "{count} faults of one kind; at most {MAX_FAULTS} are allowed"
            ),
            FaultError::Cable(e) => e.fmt(f),
        }
    }
}

impl Faults {
    /// Whether there is no fault at all (the default).
    ///
    /// # Examples
    ///
    /// ```
    /// use allreduce_sim::faults::{Faults, Straggler};
    /// assert!(Faults::default().is_empty());
    /// let late = Faults { stragglers: vec![Straggler { rank: 1, delay_secs: 1e-3 }], ..Faults::default() };
    /// assert!(!late.is_empty());
    /// ```
    pub fn is_empty(&self) -> bool {
        self.slow_links.is_empty() && self.stragglers.is_empty()
    }

    /// Checks every fault against `topo`.
    ///
    /// # Examples
    ///
    /// ```
    /// use allreduce_sim::{faults::*, topology::{Topology, TopologySpec}, units::Bandwidth};
    /// let topo = Topology::new(&TopologySpec::Uniform {
    ///     ranks: 4, bandwidth: Bandwidth::from_gbytes_per_sec(100.0), latency_secs: 0.0 }).unwrap();
    /// let late = |rank| Faults { stragglers: vec![Straggler { rank, delay_secs: 1e-3 }], ..Faults::default() };
    /// assert_eq!(late(3).validate(&topo), Ok(()));
    /// assert_eq!(late(4).validate(&topo), Err(FaultError::RankOutOfRange { rank: 4, ranks: 4 }));
    /// let cable: Cable = "rank0-node0".parse().unwrap(); // no node switch on `uniform`
    /// let slow = Faults { slow_links: vec![SlowLink { cable, factor: 0.5 }], ..Faults::default() };
    /// let examples = vec!["rank0-spine".parse().unwrap()]; // how `uniform` names its cables
    /// assert_eq!(slow.validate(&topo), Err(FaultError::NoSuchCable { cable, examples }));
    /// ```
    pub fn validate(&self, topo: &Topology) -> Result<(), FaultError> {
        for count in [self.slow_links.len(), self.stragglers.len()] {
            if count > MAX_FAULTS {
                return Err(FaultError::TooMany { count });
            }
        }
        for (i, s) in self.slow_links.iter().enumerate() {
            if !factor_in_range(s.factor) {
                return Err(FaultError::FactorOutOfRange {
                    cable: s.cable,
                    factor: s.factor,
                });
            }
            if !topo.links().iter().any(|l| s.cable.carries(l.from, l.to)) {
                return Err(FaultError::NoSuchCable {
                    cable: s.cable,
                    examples: cable_examples(topo),
                });
            }
            let (a, b) = s.cable.ends();
            if self.slow_links[..i].iter().any(|o| o.cable.carries(a, b)) {
                return Err(FaultError::CableTwice { cable: s.cable });
            }
        }
        for (i, s) in self.stragglers.iter().enumerate() {
            if s.rank >= topo.ranks() {
                return Err(FaultError::RankOutOfRange {
                    rank: s.rank,
                    ranks: topo.ranks(),
                });
            }
            if !(s.delay_secs.is_finite() && (0.0..=MAX_DELAY_SECS).contains(&s.delay_secs)) {
                return Err(FaultError::DelayOutOfRange {
                    rank: s.rank,
                    delay_secs: s.delay_secs,
                });
            }
            if self.stragglers[..i].iter().any(|o| o.rank == s.rank) {
                return Err(FaultError::RankTwice { rank: s.rank });
            }
        }
        Ok(())
    }

    /// `topo` with every slowed cable's links carrying their share of the bandwidth; checks first.
    ///
    /// # Examples
    ///
    /// ```
    /// use allreduce_sim::{faults::*, topology::{Topology, TopologySpec}, units::Bandwidth};
    /// let topo = Topology::new(&TopologySpec::Uniform {
    ///     ranks: 2, bandwidth: Bandwidth::from_gbytes_per_sec(100.0), latency_secs: 0.0 }).unwrap();
    /// let slow = |factor| Faults { slow_links: vec![SlowLink { cable: "rank0-spine".parse().unwrap(), factor }], ..Faults::default() };
    /// let gbs: Vec<f64> = slow(0.5).apply(&topo).unwrap().links().iter().map(|l| l.bandwidth.gbytes_per_sec()).collect();
    /// assert_eq!(gbs, [50.0, 100.0, 50.0, 100.0]); // rank 0 up, rank 1 up, rank 0 down, rank 1 down
    /// assert!(matches!(slow(0.0).apply(&topo), Err(FaultError::FactorOutOfRange { .. })));
    /// ```
    pub fn apply(&self, topo: &Topology) -> Result<Topology, FaultError> {
        self.validate(topo)?;
        let mut out = topo.clone();
        for s in &self.slow_links {
            let ids: Vec<u32> = topo
                .links()
                .iter()
                .enumerate()
                .filter(|(_, l)| s.cable.carries(l.from, l.to))
                .map(|(i, _)| i as u32)
                .collect();
            for id in ids {
                out.scale_link_bandwidth(id, s.factor);
            }
        }
        Ok(out)
    }

    /// When each of `ranks` ranks joins (0 for all but the stragglers).
    ///
    /// # Examples
    ///
    /// ```
    /// use allreduce_sim::faults::{Faults, Straggler};
    /// let faults = Faults { stragglers: vec![Straggler { rank: 2, delay_secs: 5e-3 }], ..Faults::default() };
    /// assert_eq!(faults.start_delays(3), [0.0, 0.0, 5e-3]);
    /// ```
    pub fn start_delays(&self, ranks: usize) -> Vec<f64> {
        let mut d = vec![0.0; ranks];
        for s in &self.stragglers {
            if let Some(x) = d.get_mut(s.rank) {
                *x = s.delay_secs;
            }
        }
        d
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cluster() -> Topology {
        crate::fixtures::cluster(2, 2, 2)
    }

    #[test]
    fn cable_names_round_trip_and_either_order_names_the_same_cable() {
        for name in ["rank3-node1", "node0-rack0", "rack1-spine", "rank0-spine"] {
            let c: Cable = name.parse().unwrap();
            assert_eq!(c.to_string(), name);
        }
        let a: Cable = "node0-rack0".parse().unwrap();
        let b: Cable = "rack0-node0".parse().unwrap();
        let (x, y) = a.ends();
        assert!(b.carries(x, y) && b.carries(y, x));
        for bad in ["node0", "gpu0-node0", "node-rack0", "node0-rackx", ""] {
            assert!(bad.parse::<Cable>().is_err(), "{bad}");
        }
    }

    #[test]
    fn a_slowed_cable_slows_both_directions_and_nothing_else() {
        let topo = cluster();
        let f = Faults {
            slow_links: vec![SlowLink {
                cable: "rack0-node1".parse().unwrap(),
                factor: 0.5,
            }],
            stragglers: vec![],
        };
        let slowed = f.apply(&topo).unwrap();
        let mut changed = 0;
        for (before, after) in topo.links().iter().zip(slowed.links()) {
            if f.slow_links[0].cable.carries(before.from, before.to) {
                assert_eq!(
                    after.bandwidth.bytes_per_sec(),
                    before.bandwidth.bytes_per_sec() * 0.5
                );
                changed += 1;
            } else {
                assert_eq!(after, before);
            }
        }
        assert_eq!(changed, 2);
    }

    #[test]
    fn bad_faults_are_refused_with_their_data() {
        let topo = cluster();
        let slow = |name: &str, factor: f64| Faults {
            slow_links: vec![SlowLink {
                cable: name.parse().unwrap(),
                factor,
            }],
            stragglers: vec![],
        };
        for factor in [
            0.0,
            -0.5,
            1.5,
            f64::NAN,
            f64::INFINITY,
            5e-324,
            1e-300,
            9.99e-7,
        ] {
            assert!(matches!(
                slow("node0-rack0", factor).validate(&topo),
                Err(FaultError::FactorOutOfRange { .. })
            ));
        }
        // node2 sits in rack 1, not rack 0; rank 0 has no direct cable to the spine.
        for name in ["node2-rack0", "rank0-spine", "rank9-node4"] {
            assert!(matches!(
                slow(name, 0.5).validate(&topo),
                Err(FaultError::NoSuchCable { .. })
            ));
        }
        let mut twice = slow("node0-rack0", 0.5);
        twice.slow_links.push(SlowLink {
            cable: "rack0-node0".parse().unwrap(),
            factor: 0.9,
        });
        assert!(matches!(
            twice.validate(&topo),
            Err(FaultError::CableTwice { .. })
        ));
        let late = |rank, delay_secs| Faults {
            slow_links: vec![],
            stragglers: vec![Straggler { rank, delay_secs }],
        };
        assert!(matches!(
            late(8, 1e-3).validate(&topo),
            Err(FaultError::RankOutOfRange { rank: 8, ranks: 8 })
        ));
        for d in [-1e-6, 11.0, f64::NAN] {
            assert!(matches!(
                late(1, d).validate(&topo),
                Err(FaultError::DelayOutOfRange { .. })
            ));
        }
        assert!(late(7, 10.0).validate(&topo).is_ok());
        // A huge delay is echoed in exponent form (1e308 printed 309 digits).
        let e = late(1, 1e308).validate(&topo).unwrap_err().to_string();
        assert!(e.contains("delay 1e308 s is out of range"), "{e}");
    }
}
