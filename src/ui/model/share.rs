//! The lab's state in the page's address, so that a link shows the same run at the same step.
//!
//! The query speaks the CLI's values (`400Gbps`, `5us`, sizes in bytes): `?alg=ring&topo=cluster&
//! gpus=32&gpn=8&npr=2&bw=400Gbps,400Gbps,800Gbps&lat=1us,2us,5us&size=100000000&step=5`. Reading
//! one back checks every value against what the controls offer and then builds and validates the
//! scenario with the core, like every other input; any problem is an error for the reader, never a
//! half-applied state.
//!
//! ```
//! use allreduce_lab::ui::model::logic::Controls;
//! use allreduce_lab::ui::model::share::{decode, encode, Shared};
//! let shared = Shared { controls: Controls::default(), compare: None, step: 5, nccl: None };
//! let query = encode(&shared);
//! assert_eq!(decode(&query).unwrap(), Some(shared));
//! assert!(decode("?gpus=99999999").is_err());
//! assert_eq!(decode("").unwrap(), None);
//! ```
//!
//! Size: over 450 lines because the URL and file formats and their hostile-input handling; about
//! 140 lines are tests.

use crate::sim::algorithms::Algorithm;
use crate::sim::faults::{Faults, SlowLink, Straggler, short};
use crate::sim::scenario::ScenarioError;
use crate::sim::scenario_file::read_scenario;
use crate::sim::topology::{Tier, TopologySpec};
use crate::sim::units::{UnitError, parse_bandwidth, parse_duration};
use crate::ui::model::ladders::{
    bandwidth_flag, bandwidth_ladder_mbps, latency_flag, latency_ladder_ns, size_ladder_bytes,
};
use crate::ui::model::logic::{
    Controls, GPU_COUNTS, GPUS_PER_NODE, NICS_PER_NODE, NODES_PER_RACK, NcclPick, SEGMENTS,
    TopologyKind,
};

/// The largest scenario file read, in bytes: the core's, the same as the CLI's.
pub use crate::sim::scenario_file::MAX_SCENARIO_FILE_BYTES as MAX_IMPORT_BYTES;

/// Why a link or an imported file cannot set the lab: the kind and its values. The app words it
/// in the learner's language ([`crate::ui::i18n::errors::share_error`]); `Display` gives English.
#[derive(Clone, Debug, PartialEq)]
pub enum ShareError {
    /// The core refused the scenario (file, validation).
    Scenario(ScenarioError),
    /// A bandwidth or latency in a link that is not one.
    Unit(UnitError),
    /// The lab's controls cannot show a reduction cost.
    CannotShowGamma,
    CannotShowOversubscription,
    CannotShowShape,
    CannotShowRailShape,
    /// More segments than the lab runs at the file's GPU count
    /// ([`max_segments`](crate::ui::model::logic::max_segments)).
    CannotShowSegments {
        asked: usize,
        max: usize,
        gpus: usize,
    },
    /// A bandwidth or latency between the values the controls hold (whole Mbps, whole
    /// nanoseconds): the file's (in `Mbps` or `ns`), and what the controls would round it to.
    CannotShowValue {
        tier: Tier,
        latency: bool,
        file: f64,
        rounded: u64,
    },
    /// The file holds no lab state.
    NoScenario,
    /// A query longer than `max` characters.
    TooLong {
        max: usize,
    },
    /// A parameter given twice.
    Twice {
        key: String,
    },
    /// A parameter whose value is not in the list.
    NotOneOf {
        key: &'static str,
        allowed: Vec<String>,
    },
    /// `nvls`/`pxn` that is neither `on` nor `off`.
    OnOrOff {
        key: &'static str,
    },
    /// `topo` that is not cluster, rail or uniform.
    NotATopology,
    /// A value outside the slider's range.
    OutOfRange {
        key: &'static str,
        /// The least and the greatest value the lab takes, as the link would write them.
        lo: String,
        hi: String,
    },
    /// A file's value that the lab's controls cannot show (found by writing the file's scenario
    /// as a link and reading it back): the reason, in the link's words.
    NotInTheLab(Box<ShareError>),
    /// `alg`/`cmp` that is no algorithm.
    NotAnAlgorithm {
        key: &'static str,
    },
    /// `size` that is not a number of bytes.
    SizeNotBytes,
    /// `bw`/`lat` listing no or more than three values.
    ListLength {
        key: &'static str,
    },
    /// `step` that is not a whole number up to `max`.
    BadStep {
        max: usize,
    },
    /// A parameter the lab does not know.
    UnknownKey {
        /// Its first 40 characters.
        key: String,
    },
    /// `nvls` without `nccl`.
    NvlsWithoutNccl,
    /// A `slow` entry that is not `CABLE:FACTOR` or a `late` one that is not `RANK:DELAY`.
    BadFault {
        key: &'static str,
        text: String,
    },
    /// The browser could not read the file.
    Unreadable,
}

impl std::fmt::Display for ShareError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        use ShareError as E;
        match self {
            E::Scenario(e) => e.fmt(f),
            E::Unit(e) => e.fmt(f),
            E::CannotShowGamma => {
                f.write_str("the lab's controls cannot show a reduction cost (gamma)")
            }
            E::CannotShowOversubscription => {
                f.write_str("the lab's controls cannot show oversubscription")
            }
            E::CannotShowShape => f.write_str("the lab's controls cannot show this cluster shape"),
            E::CannotShowSegments { asked, max, gpus } => write!(
                f,
                "on {gpus} GPUs the lab's segments go up to {max}; this file asks for {asked}"
            ),
            E::CannotShowRailShape => f.write_str("the lab's controls cannot show this rail shape"),
            E::CannotShowValue {
                tier,
                latency,
                file,
                rounded,
            } => {
                let unit = if *latency { "ns" } else { "Mbps" };
                write!(
                    f,
                    "the lab's controls hold whole {unit}: a {} of {} {unit} for the {} would be \
                     rounded to {rounded} {unit}; the command line takes it as it is",
                    if *latency { "latency" } else { "bandwidth" },
                    decimals(*file),
                    match tier {
                        Tier::Gpu => "GPU links",
                        Tier::Node => "NICs",
                        Tier::Rack => "rack uplinks",
                    },
                )
            }
            E::NoScenario => f.write_str("the file describes no scenario"),
            E::TooLong { max } => write!(f, "the link is longer than {max} characters"),
            E::Twice { key } => write!(f, "{key} is given twice"),
            E::NotOneOf { key, allowed } => {
                write!(f, "{key} must be one of {}", allowed.join(", "))
            }
            E::OnOrOff { key } => write!(f, "{key} must be on or off"),
            E::NotATopology => f.write_str("topo must be cluster, rail or uniform"),
            E::OutOfRange { key, lo, hi } => write!(f, "{key} must be from {lo} to {hi}"),
            E::NotInTheLab(e) => write!(
                f,
                "the lab's controls cannot show this file (the command line runs it as it is): {e}"
            ),
            E::NotAnAlgorithm { key } => write!(
                f,
                "{key} is not an algorithm; it is one of: {}",
                algorithm_names()
            ),
            E::SizeNotBytes => f.write_str("size must be a number of bytes"),
            E::ListLength { key } => write!(f, "{key} must list one to three values"),
            E::BadStep { max } => write!(f, "step must be a whole number up to {max}"),
            E::UnknownKey { key } => {
                write!(f, "the link has a parameter the lab does not know: '{key}'")
            }
            E::NvlsWithoutNccl => f.write_str("nvls needs nccl (the system it applies to)"),
            E::BadFault { key, text } => write!(
                f,
                "{key}: '{text}' is not {}",
                if *key == "slow" {
                    "CABLE:FACTOR (e.g. node0-rack0:0.25)"
                } else {
                    "RANK:DELAY (e.g. 3:200us)"
                }
            ),
            E::Unreadable => f.write_str("the file could not be read"),
        }
    }
}

/// `x` with at most 6 decimals, trailing zeros dropped (`1234.5`, not `1234.4999999999998`).
pub fn decimals(x: f64) -> String {
    let s = format!("{x:.6}");
    s.trim_end_matches('0').trim_end_matches('.').to_string()
}

impl From<ScenarioError> for ShareError {
    fn from(e: ScenarioError) -> Self {
        ShareError::Scenario(e)
    }
}

/// The scenario the lab exports for `controls` running `algorithm`, as pretty JSON.
pub fn export_scenario(controls: &Controls, algorithm: Algorithm) -> Result<String, String> {
    let scenario = controls.scenario(algorithm);
    serde_json::to_string_pretty(&scenario).map_err(|e| e.to_string())
}

/// Reads a scenario file's bytes with the core's reader (the CLI's `--scenario` uses the same:
/// UTF-8 with or without a byte-order mark, UTF-16 with one), then checks that
/// `Scenario::validate` accepts it and that the lab's controls can show it exactly (checked as a
/// link would be).
///
/// ```
/// use allreduce_lab::ui::model::logic::Controls;
/// use allreduce_lab::ui::model::share::{export_scenario, import_scenario};
/// let c = Controls::default();
/// let json = export_scenario(&c, c.algorithm).unwrap();
/// assert_eq!(import_scenario(json.as_bytes()).unwrap(), c);
/// assert!(import_scenario(b"{\"topology\": 1}").is_err());
/// ```
pub fn import_scenario(bytes: &[u8]) -> Result<Controls, ShareError> {
    let scenario = read_scenario(bytes)?;
    scenario.validate()?;
    if scenario.gamma_secs_per_byte != 0.0 {
        return Err(ShareError::CannotShowGamma);
    }
    let controls = Controls::from_scenario(&scenario);
    // The controls hold whole Mbps and whole nanoseconds: a value between is refused, not rounded
    // (the lab would run another network than the file's, without a word). Equal to 1e-12: a
    // file's `2.5e-6` and the controls' 2,500 ns may be a last bit apart.
    let shown = controls.scenario(scenario.algorithm).topology.tiers();
    for (i, ((bw, lat), (bw_shown, lat_shown))) in
        scenario.topology.tiers().into_iter().zip(shown).enumerate()
    {
        let tier = Tier::ALL[i];
        let same = |a: f64, b: f64| (a - b).abs() <= 1e-12 * a.abs().max(b.abs());
        if !same(bw.bytes_per_sec(), bw_shown.bytes_per_sec()) {
            return Err(ShareError::CannotShowValue {
                tier,
                latency: false,
                file: bw.bytes_per_sec() * 8.0 / 1e6,
                rounded: controls.bandwidth_mbps[i],
            });
        }
        if !same(lat, lat_shown) {
            return Err(ShareError::CannotShowValue {
                tier,
                latency: true,
                file: lat * 1e9,
                rounded: controls.latency_ns[i],
            });
        }
    }
    // A link carries only as many faults as fit in it; a file carries them all (the round trip
    // below would lose the others without a word).
    let faults = controls.faults.clone();
    // The lab would run fewer segments than the file asks for (and the CLI runs), silently; only
    // where they count (a ring ignores them, in the lab as in the CLI).
    if scenario.algorithm.pipelines() && controls.segments > controls.effective_segments() {
        return Err(ShareError::CannotShowSegments {
            asked: controls.segments,
            max: controls.effective_segments(),
            gpus: controls.gpus,
        });
    }
    if let TopologySpec::Cluster {
        racks,
        nodes_per_rack,
        gpus_per_node,
        oversubscription,
        ..
    } = scenario.topology
    {
        if oversubscription != 1.0 {
            return Err(ShareError::CannotShowOversubscription);
        }
        if controls.shape() != (racks, nodes_per_rack, gpus_per_node) {
            return Err(ShareError::CannotShowShape);
        }
    }
    if let TopologySpec::Rail {
        nodes,
        gpus_per_node,
        oversubscription,
        ..
    } = scenario.topology
    {
        if oversubscription != 1.0 {
            return Err(ShareError::CannotShowOversubscription);
        }
        if controls.rail_shape() != (nodes, gpus_per_node) {
            return Err(ShareError::CannotShowRailShape);
        }
    }
    let shared = Shared {
        controls,
        compare: None,
        step: 0,
        nccl: None,
    };
    match decode(&encode(&shared)).map_err(|e| ShareError::NotInTheLab(Box::new(e)))? {
        Some(mut checked) => {
            checked.controls.faults = faults;
            Ok(checked.controls)
        }
        None => Err(ShareError::NoScenario),
    }
}

/// The longest query read; anything longer is refused unread. Room for the controls (about 150
/// characters) and a few dozen faults (about 20 characters each).
pub const MAX_QUERY_LEN: usize = 2000;
/// The most characters the faults take in a link; more are left out of it (the lab says so, and
/// a scenario file keeps them: [`faults_fit_a_link`]).
const MAX_FAULTS_LEN: usize = 1500;

/// The faults as a link writes them: `slow=node1-rack0:0.25,rank3-spine:0.5` and
/// `late=3:200us` (empty when there are none).
fn fault_parts(faults: &Faults) -> Vec<String> {
    let mut parts = Vec::new();
    if !faults.slow_links.is_empty() {
        let items: Vec<String> = faults
            .slow_links
            .iter()
            .map(|s| format!("{}:{}", s.cable, short(s.factor)))
            .collect();
        parts.push(format!("slow={}", items.join(",")));
    }
    if !faults.stragglers.is_empty() {
        let items: Vec<String> = faults
            .stragglers
            .iter()
            .map(|s| format!("{}:{}", s.rank, delay_text(s.delay_secs)))
            .collect();
        parts.push(format!("late={}", items.join(",")));
    }
    parts
}

/// A delay as the shortest text that reads back as these very seconds (`200us`, `1.5ms`,
/// `7590us`), else in seconds: a clicked GPU's 7.59 ms (7,590,000 ns) was written
/// `7.590000000000001ms`, as "7.59ms" reads back one bit away.
fn delay_text(secs: f64) -> String {
    let mut best: Option<String> = None;
    for (unit, per_sec) in [("s", 1.0), ("ms", 1e3), ("us", 1e6), ("ns", 1e9)] {
        let value = secs * per_sec;
        if !(1.0..1e7).contains(&value) {
            continue;
        }
        for decimals in 0..=17 {
            let text = format!("{value:.decimals$}{unit}");
            if parse_duration(&text) == Ok(secs) {
                if best.as_ref().is_none_or(|b| text.len() < b.len()) {
                    best = Some(text);
                }
                break;
            }
        }
    }
    best.unwrap_or_else(|| format!("{}s", short(secs)))
}

/// Whether a link can carry these faults; when it cannot, it carries none of them.
///
/// ```
/// use allreduce_lab::sim::faults::{Faults, Straggler};
/// use allreduce_lab::ui::model::share::faults_fit_a_link;
/// let late = |n| Faults {
///     stragglers: (0..n).map(|rank| Straggler { rank, delay_secs: 2e-4 }).collect(),
///     ..Faults::default()
/// };
/// assert!(faults_fit_a_link(&late(8)) && !faults_fit_a_link(&late(1000)));
/// ```
pub fn faults_fit_a_link(faults: &Faults) -> bool {
    fault_parts(faults)
        .iter()
        .map(|p| p.len() + 1)
        .sum::<usize>()
        <= MAX_FAULTS_LEN
}
/// The highest step a link may ask for.
pub const MAX_STEP: usize = 100_000;

/// What a link carries.
#[derive(Clone, Debug, PartialEq)]
pub struct Shared {
    pub controls: Controls,
    /// The second algorithm when comparing side by side.
    pub compare: Option<Algorithm>,
    /// The cursor, as the number of algorithm steps completed.
    pub step: usize,
    /// The model switch: "like NCCL" on this system (`nccl=dgx-h100`, `nvls=off`).
    pub nccl: Option<NcclPick>,
}

/// The query string (with its `?`) for `shared`.
pub fn encode(shared: &Shared) -> String {
    let c = &shared.controls;
    let mut parts = vec![
        format!("alg={}", c.algorithm.name()),
        format!(
            "topo={}",
            match c.kind {
                TopologyKind::Cluster => "cluster",
                TopologyKind::Uniform => "uniform",
                TopologyKind::Rail => "rail",
            }
        ),
        format!("gpus={}", c.gpus),
    ];
    match c.kind {
        TopologyKind::Cluster => {
            parts.push(format!("gpn={}", c.gpus_per_node));
            parts.push(format!("npr={}", c.nodes_per_rack));
            if c.nics_per_node != 1 {
                parts.push(format!("nics={}", c.nics_per_node));
            }
        }
        TopologyKind::Rail => {
            parts.push(format!("gpn={}", c.gpus_per_node));
            parts.push(format!("pxn={}", if c.pxn { "on" } else { "off" }));
        }
        TopologyKind::Uniform => {}
    }
    let tiers = if c.kind == TopologyKind::Uniform {
        1
    } else {
        3
    };
    let list = |f: &dyn Fn(usize) -> String| (0..tiers).map(f).collect::<Vec<_>>().join(",");
    parts.push(format!(
        "bw={}",
        list(&|i| bandwidth_flag(c.bandwidth_mbps[i]))
    ));
    parts.push(format!("lat={}", list(&|i| latency_flag(c.latency_ns[i]))));
    parts.push(format!("size={}", c.size_bytes));
    parts.push(format!("seg={}", c.segments));
    // Only those that apply to the shown shape, as the run does, and only when they are valid
    // (a link the reader's page would refuse whole); all or none (see `faults_fit_a_link`). Those
    // of another shape, which the lab keeps for a return to it, are left out. Nothing to build
    // without faults (this runs on every frame of a playing run).
    if !c.faults.is_empty() {
        let scenario = c.scenario(c.algorithm);
        let valid = crate::sim::topology::Topology::new(&scenario.topology)
            .is_ok_and(|topo| scenario.faults.validate(&topo).is_ok());
        if valid && faults_fit_a_link(&scenario.faults) {
            parts.extend(fault_parts(&scenario.faults));
        }
    }
    if let Some(b) = shared.compare {
        parts.push(format!("cmp={}", b.name()));
    }
    if let Some(p) = shared.nccl {
        parts.push(format!("nccl={}", p.system));
        if !p.nvls {
            parts.push("nvls=off".into());
        }
    }
    parts.push(format!("step={}", shared.step));
    format!("?{}", parts.join("&"))
}

fn one_of<T: Copy + PartialEq + std::fmt::Display>(
    key: &'static str,
    value: &str,
    allowed: &[T],
    parse: impl Fn(&str) -> Option<T>,
) -> Result<T, ShareError> {
    parse(value)
        .filter(|v| allowed.contains(v))
        .ok_or_else(|| ShareError::NotOneOf {
            key,
            allowed: allowed.iter().map(T::to_string).collect(),
        })
}

fn in_range(key: &'static str, value: u64, ladder: &[u64]) -> Result<u64, ShareError> {
    let (lo, hi) = (ladder[0], ladder[ladder.len() - 1]);
    if (lo..=hi).contains(&value) {
        Ok(value)
    } else {
        Err(out_of_range(key, ladder))
    }
}

/// `key`'s value is not within `ladder`: the error names its ends, in the link's units.
fn out_of_range(key: &'static str, ladder: &[u64]) -> ShareError {
    use crate::sim::units::{Bandwidth, bandwidth_arg, duration_arg, format_bytes, secs_from_ns};
    let show = |v: u64| match key {
        "bw" => bandwidth_arg(Bandwidth::from_mbps(v)),
        "lat" => duration_arg(secs_from_ns(v)),
        "size" => format_bytes(v as f64),
        _ => v.to_string(),
    };
    ShareError::OutOfRange {
        key,
        lo: show(ladder[0]),
        hi: show(ladder[ladder.len() - 1]),
    }
}

/// Every algorithm's name, as a link or a file writes it, for a message listing them.
pub fn algorithm_names() -> String {
    Algorithm::ALL.map(|a| a.name()).join(", ")
}

fn algorithm(key: &'static str, value: &str) -> Result<Algorithm, ShareError> {
    value
        .parse::<Algorithm>()
        .map_err(|_| ShareError::NotAnAlgorithm { key })
}

fn bad_fault(key: &'static str, item: &str) -> ShareError {
    ShareError::BadFault {
        key,
        text: item.to_string(),
    }
}

/// A fault list's `A:B` entries (`slow`'s cables hold no `:`, nor `late`'s delays), each with
/// its whole text for an error.
fn fault_entries<'a>(
    key: &'static str,
    value: &'a str,
) -> Result<Vec<(&'a str, &'a str, &'a str)>, ShareError> {
    value
        .split(',')
        .map(|item| {
            item.rsplit_once(':')
                .map(|(a, b)| (item, a, b))
                .ok_or_else(|| bad_fault(key, item))
        })
        .collect()
}

/// `text` with its `%XX` escapes decoded; as it is when they do not make UTF-8 (the value's own
/// check then says what is wrong with it).
///
/// ```
/// use allreduce_lab::ui::model::share::percent_decoded;
/// assert_eq!(percent_decoded("200%C2%B5s"), "200µs");
/// assert_eq!(percent_decoded("400%20Gbps"), "400 Gbps");
/// assert_eq!(percent_decoded("5%ZZ"), "5%ZZ");
/// assert_eq!(percent_decoded("%FF"), "%FF");
/// ```
pub fn percent_decoded(text: &str) -> String {
    if !text.contains('%') {
        return text.to_string();
    }
    let b = text.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        let hex = |c: u8| (c as char).to_digit(16);
        match (
            b[i],
            b.get(i + 1).copied().and_then(hex),
            b.get(i + 2).copied().and_then(hex),
        ) {
            (b'%', Some(h), Some(l)) => {
                out.push((h * 16 + l) as u8);
                i += 3;
            }
            (c, _, _) => {
                out.push(c);
                i += 1;
            }
        }
    }
    String::from_utf8(out).unwrap_or_else(|_| text.to_string())
}

/// Reads a query (with or without its `?`): `Ok(None)` when it says nothing about the lab.
pub fn decode(query: &str) -> Result<Option<Shared>, ShareError> {
    let query = query.strip_prefix('?').unwrap_or(query);
    if query.len() > MAX_QUERY_LEN {
        return Err(ShareError::TooLong { max: MAX_QUERY_LEN });
    }
    // As the browser sends them: `late=3:200µs` arrives as `200%C2%B5s`, `bw=400 Gbps` as
    // `400%20Gbps`.
    let decoded: Vec<(String, String)> = query
        .split('&')
        .filter(|p| !p.is_empty())
        .map(|p| p.split_once('=').unwrap_or((p, "")))
        .map(|(k, v)| (percent_decoded(k), percent_decoded(v)))
        .collect();
    let pairs: Vec<(&str, &str)> = decoded
        .iter()
        .map(|(k, v)| (k.as_str(), v.as_str()))
        .collect();
    // The language is the language switch's business and the guided figures read their own keys;
    // nothing else here means no lab state.
    let pairs: Vec<(&str, &str)> = pairs
        .into_iter()
        .filter(|(k, _)| !crate::ui::model::query::CHAPTER_KEYS.contains(k))
        .collect();
    if pairs.iter().all(|(k, _)| *k == "lang") {
        return Ok(None);
    }
    let mut c = Controls::default();
    let mut compare = None;
    let mut nccl: Option<NcclPick> = None;
    let mut nvls: Option<bool> = None;
    let mut step = 0;
    let mut seen: Vec<&str> = Vec::new();
    for &(key, value) in &pairs {
        if seen.contains(&key) {
            return Err(ShareError::Twice {
                key: key.to_string(),
            });
        }
        seen.push(key);
        match key {
            "alg" => c.algorithm = algorithm("alg", value)?,
            "nccl" => {
                let system = crate::sim::nccl::system::PRESETS
                    .iter()
                    .find(|s| **s == value)
                    .ok_or_else(|| ShareError::NotOneOf {
                        key: "nccl",
                        allowed: crate::sim::nccl::system::PRESETS
                            .iter()
                            .map(|s| s.to_string())
                            .collect(),
                    })?;
                nccl = Some(NcclPick {
                    system,
                    ..nccl.unwrap_or_default()
                });
            }
            "nvls" => {
                nvls = Some(match value {
                    "on" => true,
                    "off" => false,
                    _ => return Err(ShareError::OnOrOff { key: "nvls" }),
                })
            }
            "cmp" => compare = Some(algorithm("cmp", value)?),
            "topo" => {
                c.kind = match value {
                    "cluster" => TopologyKind::Cluster,
                    "uniform" => TopologyKind::Uniform,
                    "rail" => TopologyKind::Rail,
                    _ => return Err(ShareError::NotATopology),
                }
            }
            "gpus" => c.gpus = one_of("gpus", value, &GPU_COUNTS, |v| v.parse().ok())?,
            "gpn" => c.gpus_per_node = one_of("gpn", value, &GPUS_PER_NODE, |v| v.parse().ok())?,
            "npr" => c.nodes_per_rack = one_of("npr", value, &NODES_PER_RACK, |v| v.parse().ok())?,
            "seg" => c.segments = one_of("seg", value, &SEGMENTS, |v| v.parse().ok())?,
            "nics" => c.nics_per_node = one_of("nics", value, &NICS_PER_NODE, |v| v.parse().ok())?,
            "pxn" => {
                c.pxn = match value {
                    "on" => true,
                    "off" => false,
                    _ => return Err(ShareError::OnOrOff { key: "pxn" }),
                }
            }
            "size" => {
                let bytes = value.parse().map_err(|_| ShareError::SizeNotBytes)?;
                c.size_bytes = in_range("size", bytes, &size_ladder_bytes())?;
            }
            "bw" | "lat" => {
                let items: Vec<&str> = value.split(',').collect();
                if items.is_empty() || items.len() > 3 {
                    return Err(ShareError::ListLength {
                        key: if key == "bw" { "bw" } else { "lat" },
                    });
                }
                for (i, item) in items.iter().enumerate() {
                    // Whole Mbps and nanoseconds, as the controls hold them: a value between is
                    // refused by name, as in a file, not rounded.
                    let whole = |x: f64, latency: bool| {
                        if (x - x.round()).abs() > 1e-9 * x.abs().max(1.0) {
                            return Err(ShareError::CannotShowValue {
                                tier: Tier::ALL[i],
                                latency,
                                file: x,
                                rounded: x.round() as u64,
                            });
                        }
                        Ok(x.round() as u64)
                    };
                    if key == "bw" {
                        let bw = parse_bandwidth(item).map_err(ShareError::Unit)?;
                        let mbps = bw.bytes_per_sec() * 8.0 / 1e6;
                        if !mbps.is_finite() || mbps < 0.0 {
                            return Err(out_of_range("bw", &bandwidth_ladder_mbps()));
                        }
                        c.bandwidth_mbps[i] =
                            in_range("bw", whole(mbps, false)?, &bandwidth_ladder_mbps())?;
                    } else {
                        let secs = parse_duration(item).map_err(ShareError::Unit)?;
                        let ns = secs * 1e9;
                        if !ns.is_finite() || ns < 0.0 {
                            return Err(out_of_range("lat", &latency_ladder_ns()));
                        }
                        c.latency_ns[i] = in_range("lat", whole(ns, true)?, &latency_ladder_ns())?;
                    }
                }
                if items.len() == 1 {
                    let copy = |a: &mut [u64; 3]| *a = [a[0]; 3];
                    if key == "bw" {
                        copy(&mut c.bandwidth_mbps);
                    } else {
                        copy(&mut c.latency_ns);
                    }
                }
            }
            "step" => {
                step = value
                    .parse::<usize>()
                    .ok()
                    .filter(|&s| s <= MAX_STEP)
                    .ok_or(ShareError::BadStep { max: MAX_STEP })?
            }
            "slow" => {
                for (item, cable, factor) in fault_entries("slow", value)? {
                    c.faults.slow_links.push(SlowLink {
                        cable: cable.parse().map_err(|_| bad_fault("slow", item))?,
                        factor: factor.parse().map_err(|_| bad_fault("slow", item))?,
                    });
                }
            }
            "late" => {
                for (item, rank, delay) in fault_entries("late", value)? {
                    c.faults.stragglers.push(Straggler {
                        rank: rank.parse().map_err(|_| bad_fault("late", item))?,
                        delay_secs: parse_duration(delay).map_err(ShareError::Unit)?,
                    });
                }
            }
            "lang" => {}
            _ => {
                return Err(ShareError::UnknownKey {
                    key: key.chars().take(40).collect(),
                });
            }
        }
    }
    // A link's faults are on cables and GPUs of its own shape (the lab drops the others from a
    // run without a word; a link that names them is refused, as the CLI refuses them).
    if c.scenario(c.algorithm).faults != c.faults {
        let mut with_all = c.scenario(c.algorithm);
        with_all.faults = c.faults.clone();
        with_all.validate()?;
    }
    // The same validation as every other scenario.
    for alg in std::iter::once(c.algorithm).chain(compare) {
        let scenario = c.scenario(alg);
        scenario.validate()?;
    }
    if let Some(on) = nvls {
        let p = nccl.ok_or(ShareError::NvlsWithoutNccl)?;
        nccl = Some(NcclPick { nvls: on, ..p });
    }
    Ok(Some(Shared {
        controls: c,
        compare,
        step,
        nccl,
    }))
}

/// The time of the end of step `step` (0 is the start), within `step_ends`.
pub fn step_time(step_ends: &[f64], step: usize) -> f64 {
    match step {
        0 => 0.0,
        k => step_ends
            .get(k - 1)
            .or(step_ends.last())
            .copied()
            .unwrap_or(0.0),
    }
}

/// The number of steps completed at `t` (with a little slack for rounding).
pub fn step_at(step_ends: &[f64], t: f64) -> usize {
    let eps = step_ends.last().map_or(0.0, |e| e * 1e-9);
    step_ends.iter().take_while(|&&e| e <= t + eps).count()
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_clicked_gpus_delay_is_written_with_the_fewest_decimals_that_read_back() {
        use crate::sim::faults::{Faults, Straggler};
        // A clicked GPU joins late by whole nanoseconds (half of a 15.18 ms run here).
        let delay_secs = crate::sim::units::secs_from_ns(7_590_000);
        let faults = Faults {
            stragglers: vec![Straggler {
                rank: 9,
                delay_secs,
            }],
            ..Faults::default()
        };
        assert_eq!(super::fault_parts(&faults), vec!["late=9:7590us"]);
        // Whatever the value, what is written reads back as the same seconds.
        for ns in [
            1u64,
            999,
            1_000,
            1_234_567,
            7_590_001,
            123_456_789,
            9_999_999_999,
        ] {
            let secs = crate::sim::units::secs_from_ns(ns);
            let text = super::delay_text(secs);
            assert_eq!(parse_duration(&text), Ok(secs), "{ns} ns as {text}");
            assert!(text.len() <= 14, "{text}");
        }
    }

    use super::*;

    fn ring_at_step_5_on_2_racks() -> &'static str {
        "?alg=ring&topo=cluster&gpus=32&gpn=8&npr=2&bw=400Gbps,400Gbps,200Gbps&lat=1us,2us,5us&size=100000000&step=5"
    }

    #[test]
    fn a_shared_link_reads_back_what_was_written() {
        let s = decode(ring_at_step_5_on_2_racks()).unwrap().unwrap();
        assert_eq!(s.controls.shape(), (2, 2, 8));
        assert_eq!(s.step, 5);
        assert_eq!(s.controls.bandwidth_mbps, [400_000, 400_000, 200_000]);
        assert_eq!(decode(&encode(&s)).unwrap(), Some(s));
    }

    #[test]
    fn the_model_switch_round_trips_through_a_link_and_bad_values_are_refused() {
        let s = Shared {
            controls: Controls::default(),
            compare: None,
            step: 0,
            nccl: Some(NcclPick {
                system: "dgx-a100",
                nvls: false,
            }),
        };
        let q = encode(&s);
        assert!(q.contains("nccl=dgx-a100&nvls=off"), "{q}");
        assert_eq!(decode(&q).unwrap(), Some(s.clone()));
        let on = Shared {
            nccl: Some(NcclPick::default()),
            ..s
        };
        let q = encode(&on);
        assert!(q.contains("nccl=dgx-h100") && !q.contains("nvls"), "{q}");
        assert_eq!(decode(&q).unwrap(), Some(on));
        assert!(
            decode("?nccl=cray-1")
                .unwrap_err()
                .to_string()
                .contains("dgx-h100")
        );
        assert!(
            decode("?nvls=off")
                .unwrap_err()
                .to_string()
                .contains("nccl")
        );
        assert!(decode("?nccl=dgx-h100&nvls=maybe").is_err());
    }

    #[test]
    fn nics_per_node_rail_and_pxn_round_trip_through_a_link() {
        let c = Controls {
            nics_per_node: 8,
            ..Controls::default()
        };
        let s = Shared {
            controls: c,
            compare: Some(Algorithm::NcclTree),
            step: 3,
            nccl: None,
        };
        let q = encode(&s);
        assert!(q.contains("nics=8"), "{q}");
        assert_eq!(decode(&q).unwrap(), Some(s));
        let rail = "?alg=nccl-ring&topo=rail&gpus=32&gpn=8&pxn=off&bw=3600Gbps,400Gbps,400Gbps&lat=1us,2us,3us&size=100000000&seg=4&step=0";
        let s = decode(rail).unwrap().unwrap();
        assert_eq!(s.controls.kind, TopologyKind::Rail);
        assert_eq!(s.controls.rail_shape(), (4, 8));
        assert!(!s.controls.pxn);
        assert_eq!(encode(&s), rail);
        for bad in [
            "?nics=3",
            "?nics=16",
            "?topo=rail&pxn=maybe",
            "?topo=rail&pxn=",
        ] {
            assert!(decode(bad).is_err(), "{bad}");
        }
        // A rail scenario file reads back into the same controls.
        let json = export_scenario(&s.controls, Algorithm::NcclRing).unwrap();
        assert_eq!(import_scenario(json.as_bytes()).unwrap(), s.controls);
    }

    #[test]
    fn a_scenario_file_keeps_its_faults() {
        // Exported, then imported (a straggler vanished on the way, with no message).
        let c = with_two_faults();
        let scenario = c.scenario(c.algorithm);
        assert_eq!(scenario.faults, c.faults, "the default cluster has both");
        let json = export_scenario(&c, c.algorithm).unwrap();
        let back = import_scenario(json.as_bytes()).unwrap();
        assert_eq!(back, c);
        assert_eq!(back.scenario(back.algorithm), scenario);
    }

    /// The default cluster with a slowed cable and a late GPU, as clicking the figure sets them.
    fn with_two_faults() -> Controls {
        use crate::sim::faults::{Cable, Faults, SlowLink, Straggler};
        use crate::sim::topology::Endpoint;
        Controls {
            faults: Faults {
                slow_links: vec![SlowLink {
                    cable: Cable::new(Endpoint::Rank(1), Endpoint::NodeSwitch(0)),
                    factor: 0.25,
                }],
                stragglers: vec![Straggler {
                    rank: 3,
                    delay_secs: 2e-4,
                }],
            },
            ..Controls::default()
        }
    }

    #[test]
    fn a_link_carries_the_faults_and_refuses_bad_ones() {
        // A reload lost them: the link had no place for faults.
        let shared = Shared {
            controls: with_two_faults(),
            compare: None,
            step: 3,
            nccl: None,
        };
        let query = encode(&shared);
        assert!(
            query.contains("&slow=rank1-node0:0.25&late=3:200us&"),
            "{query}"
        );
        assert_eq!(decode(&query).unwrap(), Some(shared.clone()));
        // Written by hand, in any unit the CLI takes; a tiny delay round-trips exactly.
        let mut tiny = shared.clone();
        tiny.controls.faults.stragglers[0].delay_secs = 1e-300;
        assert_eq!(decode(&encode(&tiny)).unwrap(), Some(tiny));
        // As a browser sends what was typed: µ and spaces percent-encoded.
        let typed = query
            .replace("late=3:200us", "late=3:200%C2%B5s")
            .replace("slow=rank1-node0:0.25", "slow=rank1-node0%3A0.25");
        assert_eq!(decode(&typed).unwrap(), Some(shared.clone()));
        let by_hand = decode(&query.replace("late=3:200us", "late=3:0.2ms"))
            .unwrap()
            .unwrap();
        assert_eq!(by_hand.controls.faults, shared.controls.faults);
        // Refused, each with its reason: not CABLE:FACTOR, no such end, a factor out of range, a
        // GPU the link's cluster does not have, a cable it does not have, a delay too long.
        let with = |slow: &str, late: &str| {
            query
                .replace("slow=rank1-node0:0.25", slow)
                .replace("late=3:200us", late)
        };
        for (q, says) in [
            (
                with("slow=rank1-node0", "late=3:1us"),
                "slow: 'rank1-node0' is not CABLE:FACTOR",
            ),
            (
                with("slow=rank1-moon0:0.5", "late=3:1us"),
                "slow: 'rank1-moon0:0.5' is not",
            ),
            (with("slow=rank1-node0:0", "late=3:1us"), "factor"),
            (
                with("slow=rank1-node0:0.5", "late=3"),
                "late: '3' is not RANK:DELAY",
            ),
            (with("slow=rank1-node0:0.5", "late=3:soon"), "soon"),
            (with("slow=rank1-node0:0.5", "late=99:1us"), "99"),
            (with("slow=rank1-node5:0.5", "late=3:1us"), "node5"),
            (with("slow=rank1-node0:0.5", "late=3:11s"), "11"),
        ] {
            let e = decode(&q).expect_err(&q);
            assert!(e.to_string().contains(says), "{q}: {e}");
        }
    }

    #[test]
    fn a_clicked_delay_reads_as_typed_and_an_invalid_one_stays_out_of_the_link() {
        use crate::ui::model::logic::Edit;
        // Clicked GPUs join 1 µs and 13 µs late: the link says so (`1.0000000000000002us` and
        // `1.3000000000000001e-5s` when the nanoseconds were multiplied, not divided).
        let mut c = Controls::default();
        c.apply(Edit::ToggleStraggler {
            rank: 1,
            delay_ns: 1_000,
        });
        c.apply(Edit::ToggleStraggler {
            rank: 3,
            delay_ns: 13_000,
        });
        let shared = Shared {
            controls: c.clone(),
            compare: None,
            step: 0,
            nccl: None,
        };
        let query = encode(&shared);
        assert!(query.contains("&late=1:1us,3:13us&"), "{query}");
        assert_eq!(decode(&query).unwrap(), Some(shared));
        // A delay the run refuses (a 128 s run's half: 64 s, over the 10 s a fault may be) stays
        // out of the link, which the reader's page would otherwise refuse whole, losing the rest.
        c.apply(Edit::ToggleStraggler {
            rank: 3,
            delay_ns: 0,
        });
        c.apply(Edit::ToggleStraggler {
            rank: 3,
            delay_ns: 64_000_000_000,
        });
        let query = encode(&Shared {
            controls: c,
            compare: None,
            step: 0,
            nccl: None,
        });
        assert!(!query.contains("late="), "{query}");
        assert!(decode(&query).unwrap().is_some());
    }

    #[test]
    fn faults_that_do_not_fit_a_link_are_left_out_whole() {
        use crate::sim::faults::Straggler;
        // 128 GPUs, every one late: more than the address takes; the link keeps the rest of the
        // lab and none of the faults (the lab says so), and stays short enough to read back.
        let mut c = Controls {
            gpus: 128,
            ..Controls::default()
        };
        c.faults.stragglers = (0..128)
            .map(|rank| Straggler {
                rank,
                delay_secs: 1.2345678e-4,
            })
            .collect();
        assert!(!faults_fit_a_link(&c.faults));
        let shared = Shared {
            controls: c.clone(),
            compare: None,
            step: 0,
            nccl: None,
        };
        let back = decode(&encode(&shared)).unwrap().unwrap();
        assert!(back.controls.faults.is_empty());
        assert_eq!(
            back.controls,
            Controls {
                faults: Default::default(),
                ..c.clone()
            }
        );
        // A dozen fit, and come back.
        c.faults.stragglers.truncate(12);
        assert!(faults_fit_a_link(&c.faults));
        let shared = Shared {
            controls: c,
            ..shared
        };
        assert_eq!(decode(&encode(&shared)).unwrap(), Some(shared));
    }

    #[test]
    fn a_scenario_file_asking_more_segments_than_the_lab_runs_is_refused_with_the_numbers() {
        // 1,024 GPUs: the lab runs 1 segment; the file asks for 256, which the CLI would run (the
        // lab ran 1 without a word).
        let c = Controls {
            kind: TopologyKind::Uniform,
            gpus: 1024,
            algorithm: Algorithm::TreeBinary,
            ..Controls::default()
        };
        let json = export_scenario(&c, c.algorithm).unwrap();
        assert!(json.contains("\"segments\": 1,"), "{json}");
        assert_eq!(import_scenario(json.as_bytes()).unwrap().segments, 1);
        let asks = json.replace("\"segments\": 1,", "\"segments\": 256,");
        let e = import_scenario(asks.as_bytes()).unwrap_err();
        assert_eq!(
            e,
            ShareError::CannotShowSegments {
                asked: 256,
                max: 1,
                gpus: 1024
            }
        );
        assert!(
            e.to_string()
                .contains("on 1024 GPUs the lab's segments go up to 1; this file asks for 256"),
            "{e}"
        );
        // A ring ignores segments, in the lab as in the CLI: the same file with a ring imports.
        let ring = asks.replace("\"tree-binary\"", "\"ring\"");
        assert_ne!(ring, asks);
        assert_eq!(
            import_scenario(ring.as_bytes()).unwrap().algorithm,
            Algorithm::Ring
        );
    }

    #[test]
    fn hostile_links_are_errors_not_states() {
        let long = format!("?alg={}", "a".repeat(5000));
        for q in [
            "?garbage",
            "?gpus=99999999",
            "?bw=-5Gbps",
            "?bw=NaNGbps",
            "?size=NaN",
            "?lat=1e308s",
            "?alg=<script>alert(1)</script>",
            "?alg=%3Cscript%3E",
            "?step=-1",
            "?step=1e9",
            "?alg=ring&alg=tree-flat",
            "?bw=1Gbps,2Gbps,3Gbps,4Gbps",
            long.as_str(),
        ] {
            assert!(decode(q).is_err(), "{q}");
        }
        // A key the lab does not know is named (in any case it was written or escaped).
        for q in ["?ALG=ring", "?%61lgo=ring"] {
            let e = decode(q).unwrap_err();
            assert!(
                matches!(&e, ShareError::UnknownKey { key } if key == &q[1..q.len() - 5].replace("%61", "a")),
                "{e:?}"
            );
        }
    }

    #[test]
    fn a_file_value_the_controls_would_round_is_refused_by_name() {
        use crate::sim::scenario::Scenario;
        use crate::sim::units::Bandwidth;
        let good = export_scenario(&Controls::default(), Algorithm::Ring).unwrap();
        let with = |f: &dyn Fn(&mut f64, &mut Bandwidth)| {
            let mut s: Scenario = serde_json::from_str(&good).unwrap();
            let TopologySpec::Cluster {
                intra_lat_secs,
                node_bw,
                ..
            } = &mut s.topology
            else {
                panic!("the default is a cluster")
            };
            f(intra_lat_secs, node_bw);
            serde_json::to_string(&s).unwrap()
        };
        // Half a nanosecond more on the GPU links: refused, not run as the whole nanosecond.
        let asked = Controls::default().latency_ns[0] as f64;
        let half = with(&|lat, _| *lat += 0.5e-9);
        let e = import_scenario(half.as_bytes()).unwrap_err();
        let ShareError::CannotShowValue {
            tier: Tier::Gpu,
            latency: true,
            file,
            rounded,
        } = e
        else {
            panic!("{e:?}")
        };
        assert!((file - (asked + 0.5)).abs() < 1e-6, "{file} {asked}");
        assert_eq!(rounded as f64, (asked + 0.5).round());
        assert!(
            e.to_string()
                .contains(&format!("of {} ns for the GPU links", decimals(file))),
            "{e}"
        );
        // A NIC bandwidth a tenth of a Mbps off.
        let tenth =
            with(&|_, bw| *bw = Bandwidth::from_bytes_per_sec(bw.bytes_per_sec() + 0.1e6 / 8.0));
        assert!(
            matches!(
                import_scenario(tenth.as_bytes()),
                Err(ShareError::CannotShowValue {
                    tier: Tier::Node,
                    latency: false,
                    ..
                })
            ),
            "{:?}",
            import_scenario(tenth.as_bytes())
        );
        // 2.5 µs written as a person would: the controls' 2,500 ns, a last bit apart at most.
        let person = with(&|lat, _| *lat = "2.5e-6".parse().unwrap());
        assert_eq!(
            import_scenario(person.as_bytes()).unwrap().latency_ns[0],
            2500
        );
        assert_eq!(decimals(1234.4999999999998), "1234.5");
        assert_eq!(decimals(3.0), "3");
    }

    #[test]
    fn a_file_the_lab_cannot_show_says_so_and_gives_the_range() {
        // Read back through a link, a file's values were refused in the link's words alone:
        // "lat is out of range", as if the file had a `lat`.
        let uniform = |ranks: usize, size: u64, latency: f64| {
            format!(
                r#"{{"topology":{{"kind":"uniform","ranks":{ranks},"bandwidth":1e10,"latency_secs":{latency}}},"algorithm":"ring","size_bytes":{size}}}"#
            )
        };
        let e = import_scenario(uniform(4, 1 << 20, 10.0).as_bytes()).unwrap_err();
        assert!(
            matches!(&e, ShareError::NotInTheLab(inner) if matches!(**inner, ShareError::OutOfRange { key: "lat", .. })),
            "{e:?}"
        );
        let said = e.to_string();
        assert!(said.starts_with("the lab's controls cannot show this file (the command line runs it as it is): lat must be from "), "{said}");
        assert!(said.ends_with("lat must be from 0ns to 10ms"), "{said}");
        let e = import_scenario(uniform(4, 32_000_000_000, 1e-6).as_bytes()).unwrap_err();
        assert!(
            e.to_string().ends_with("size must be from 1 B to 16 GB"),
            "{e}"
        );
        // 1 B, where only latency counts, is the lab's as the command line's.
        assert!(import_scenario(uniform(4, 1, 1e-6).as_bytes()).is_ok());
        let e = import_scenario(uniform(5, 1 << 20, 1e-6).as_bytes()).unwrap_err();
        assert!(e.to_string().contains("cannot show this file (the command line runs it as it is): gpus must be one of 1, 2, 3, 4, 6,"), "{e}");
        // In a link the words are the link's own, with the range.
        assert_eq!(
            decode("?lat=11s").unwrap_err().to_string(),
            "lat must be from 0ns to 10ms"
        );
    }

    #[test]
    fn a_link_value_between_whole_units_is_refused_by_name() {
        let e = decode("?lat=1us,2.0004us,5us").unwrap_err();
        assert!(
            matches!(
                e,
                ShareError::CannotShowValue {
                    tier: Tier::Node,
                    latency: true,
                    rounded: 2000,
                    ..
                }
            ),
            "{e:?}"
        );
        assert!(matches!(
            decode("?bw=400.0005Gbps"),
            Err(ShareError::CannotShowValue {
                tier: Tier::Gpu,
                latency: false,
                rounded: 400_001,
                ..
            })
        ));
        // Whole values written with decimals are the same values.
        assert!(decode("?lat=1.5us,2.000us,5us").is_ok());
        assert!(decode("?bw=0.4Tbps").is_ok());
    }

    #[test]
    fn hostile_scenario_files_are_errors() {
        let good = export_scenario(&Controls::default(), Algorithm::Ring).unwrap();
        for bad in [
            String::new(),
            "not json".into(),
            "{}".into(),
            "[1,2,3]".into(),
            good.replace("\"ring\"", "\"<script>\""),
            good.replace("100000000", "-1"),
            good.replace("100000000", "1e400"),
            good.replace("\"racks\": 1", "\"racks\": 99999999"),
            " ".repeat(MAX_IMPORT_BYTES + 1),
        ] {
            assert!(import_scenario(bad.as_bytes()).is_err(), "{bad}");
        }
        assert_eq!(
            import_scenario(good.as_bytes()).unwrap(),
            Controls::default()
        );
    }

    #[test]
    fn no_lab_parameters_means_no_state() {
        assert_eq!(decode("").unwrap(), None);
        assert_eq!(decode("?lang=zh").unwrap(), None);
    }

    #[test]
    fn steps_map_to_step_ends_and_back() {
        let ends = [1.0, 2.0, 3.0];
        assert_eq!(step_time(&ends, 0), 0.0);
        assert_eq!(step_time(&ends, 2), 2.0);
        assert_eq!(step_time(&ends, 9), 3.0);
        assert_eq!(step_at(&ends, 2.0), 2);
        assert_eq!(step_at(&ends, 2.5), 2);
        assert_eq!(step_at(&ends, 0.0), 0);
    }
}
