//! The core's errors in the learner's language: one function per error type, one row per kind.
//!
//! The core's errors are kinds with their values (no prose); their `Display` is the CLI's English.
//! Here each kind has an English and a Chinese sentence, filled with the values, so that a Chinese
//! page shows no English from the core.
//!
//! ```
//! use allreduce_lab::sim::units::parse_bandwidth;
//! use allreduce_lab::ui::i18n::errors::unit_error;
//! use allreduce_lab::ui::i18n::Lang;
//! let e = parse_bandwidth("-4Gbps").unwrap_err();
//! assert_eq!(unit_error(Lang::Zh, &e), "带宽“-4Gbps”必须为正数；应形如 '100GB/s', '800Gbps' (B/s KB/s MB/s GB/s TB/s; bps Kbps Mbps Gbps Tbps, Gb/s)");
//! ```

use super::{Lang, algorithm_label, tr, trf};
use crate::sim::cost::{Exceeded, OverBudget};
use crate::sim::faults::{CableError, FaultError, MAX_DELAY_SECS, MAX_FAULTS};
use crate::sim::nccl::calibrate::CalibrateError;
use crate::sim::nccl::system::{PRESETS, SystemError};
use crate::sim::scenario::{ScenarioError, Share};
use crate::sim::scenario_file::{FileError, JsonProblem};
use crate::sim::topology::{TopologyError, TopologyField};
use crate::sim::units::{Quantity, UnitError, format_bytes};
use crate::ui::model::scaling::JobError;
use crate::ui::model::share::ShareError;

mod table;
pub use table::ErrorKey;

use ErrorKey as K;

fn quantity(lang: Lang, q: Quantity) -> &'static str {
    tr(
        lang,
        match q {
            Quantity::Size => K::QSize,
            Quantity::Bandwidth => K::QBandwidth,
            Quantity::Duration => K::QDuration,
        },
    )
}

/// A unit parse error (`'-4Gbps'`, `'5 parsecs'`).
pub fn unit_error(lang: Lang, e: &UnitError) -> String {
    let (q, text) = e.input();
    let args = |unit: &str| -> [String; 4] {
        [
            quantity(lang, q).to_string(),
            text.to_string(),
            match lang {
                Lang::En => q.allowed_en(),
                Lang::Zh => q.examples(),
            }
            .to_string(),
            unit.to_string(),
        ]
    };
    let (key, a) = match e {
        UnitError::NotANumber { .. } => (K::UnitNotANumber, args("")),
        UnitError::NotFinite { .. } => (K::UnitNotFinite, args("")),
        UnitError::MissingUnit { .. } => (K::UnitMissing, args("")),
        UnitError::UnknownUnit { unit, .. } => (K::UnitUnknown, args(unit)),
        UnitError::Negative { .. } if q == Quantity::Duration => (K::UnitNegative, args("")),
        UnitError::Negative { .. } => (K::UnitIsNegative, args("")),
        UnitError::NotPositive { .. } => (K::UnitNotPositive, args("")),
        UnitError::TooLarge { .. } => (K::UnitTooLarge, args("")),
    };
    let a: Vec<&str> = a.iter().map(String::as_str).collect();
    trf(lang, key, &a)
}

/// The name of a topology field.
pub fn topology_field(lang: Lang, f: TopologyField) -> &'static str {
    use TopologyField as F;
    tr(
        lang,
        match f {
            F::Ranks => K::FRanks,
            F::Racks => K::FRacks,
            F::Nodes => K::FNodes,
            F::NodesPerRack => K::FNodesPerRack,
            F::GpusPerNode => K::FGpusPerNode,
            F::Bandwidth => K::FBandwidth,
            F::Latency => K::FLatency,
            F::IntraBandwidth => K::FIntraBandwidth,
            F::IntraLatency => K::FIntraLatency,
            F::NodeBandwidth => K::FNodeBandwidth,
            F::NodeLatency => K::FNodeLatency,
            F::RackBandwidth => K::FRackBandwidth,
            F::RackLatency => K::FRackLatency,
            F::NicBandwidth => K::FNicBandwidth,
            F::NicLatency => K::FNicLatency,
            F::SpineBandwidth => K::FSpineBandwidth,
            F::SpineLatency => K::FSpineLatency,
        },
    )
}

/// Why a topology cannot be built.
pub fn topology_error(lang: Lang, e: &TopologyError) -> String {
    use TopologyError as E;
    let s = |x: usize| x.to_string();
    match *e {
        E::CountOutOfRange { field, got, max } => trf(
            lang,
            K::TopoCount,
            &[topology_field(lang, field), &s(max), &s(got)],
        ),
        E::TooManyRanks { rail: false, max } => trf(lang, K::TopoTooManyRanks, &[&s(max)]),
        E::TooManyRanks { rail: true, max } => trf(lang, K::TopoTooManyRailRanks, &[&s(max)]),
        E::RailGpusOutOfRange { got, max } => trf(lang, K::TopoRailGpus, &[&s(max), &s(got)]),
        E::BandwidthNotPositive { field } => trf(
            lang,
            K::TopoBandwidthNotPositive,
            &[topology_field(lang, field)],
        ),
        E::BandwidthOutOfRange { field } => {
            trf(lang, K::TopoBandwidthRange, &[topology_field(lang, field)])
        }
        E::LatencyOutOfRange { field } => {
            trf(lang, K::TopoLatencyRange, &[topology_field(lang, field)])
        }
        E::OversubscriptionOutOfRange => tr(lang, K::TopoOversubscription).to_string(),
        E::NicsOutOfRange { got, max } => trf(lang, K::TopoNics, &[&s(max), &s(got)]),
        E::NicsExceedGpus {
            nics,
            gpus_per_node,
        } => trf(lang, K::TopoNicsExceedGpus, &[&s(nics), &s(gpus_per_node)]),
    }
}

/// A text that names no cable.
pub fn cable_error(lang: Lang, e: &CableError) -> String {
    match e {
        CableError::NotALink { text } => trf(lang, K::CableNotALink, &[text]),
        CableError::NotAnEnd { text } => trf(lang, K::CableNotAnEnd, &[text]),
    }
}

/// Why a fault cannot apply.
pub fn fault_error(lang: Lang, e: &FaultError) -> String {
    use FaultError as E;
    match e {
        E::FactorOutOfRange { cable, factor } => trf(
            lang,
            K::FaultFactor,
            &[&cable.to_string(), &crate::sim::faults::short(*factor)],
        ),
        E::NoSuchCable { cable, examples } => trf(
            lang,
            K::FaultNoSuchCable,
            &[
                &cable.to_string(),
                &crate::sim::faults::cable_list(examples),
            ],
        ),
        E::CableTwice { cable } => trf(lang, K::FaultCableTwice, &[&cable.to_string()]),
        E::RankOutOfRange { rank, ranks } => trf(
            lang,
            K::FaultRank,
            &[&rank.to_string(), &ranks.saturating_sub(1).to_string()],
        ),
        E::DelayOutOfRange { rank, delay_secs } => trf(
            lang,
            K::FaultDelay,
            &[
                &rank.to_string(),
                &crate::sim::faults::short(*delay_secs),
                &MAX_DELAY_SECS.to_string(),
            ],
        ),
        E::RankTwice { rank } => trf(lang, K::FaultRankTwice, &[&rank.to_string()]),
        E::TooMany { count } => trf(
            lang,
            K::FaultTooMany,
            &[&count.to_string(), &MAX_FAULTS.to_string()],
        ),
        E::Cable(c) => cable_error(lang, c),
    }
}

/// Why a file's bytes are not a scenario. The JSON reader's own account of a malformed file
/// is English: it is shown in the English page only.
pub fn file_error(lang: Lang, e: &FileError) -> String {
    match e {
        FileError::TooLarge { max_kb } => trf(lang, K::FileTooLarge, &[&max_kb.to_string()]),
        FileError::Utf32 => tr(lang, K::FileUtf32).to_string(),
        FileError::OddUtf16 { encoding } => trf(lang, K::FileOddUtf16, &[encoding.name()]),
        FileError::UnpairedSurrogate { encoding, unit } => trf(
            lang,
            K::FileSurrogate,
            &[encoding.name(), &format!("{unit:04X}")],
        ),
        FileError::NulBytes => tr(lang, K::FileNul).to_string(),
        FileError::NotUtf8 { at } => trf(lang, K::FileNotUtf8, &[&at.to_string()]),
        FileError::NotAScenario {
            line,
            column,
            problem,
            ..
        } => {
            let what = match problem {
                JsonProblem::Syntax => tr(lang, K::JsonSyntax).to_string(),
                JsonProblem::Truncated => tr(lang, K::JsonTruncated).to_string(),
                JsonProblem::MissingField(name) => trf(lang, K::JsonMissingField, &[name]),
                JsonProblem::UnknownName(name) => trf(lang, K::JsonUnknownName, &[name]),
                JsonProblem::UnknownField(name) => trf(lang, K::JsonUnknownField, &[name]),
                JsonProblem::WrongValue => tr(lang, K::JsonWrongValue).to_string(),
            };
            trf(
                lang,
                K::FileNotAScenario,
                &[&line.to_string(), &column.to_string(), &what],
            )
        }
    }
}

/// A run over its budget, and how to make it fit.
pub fn over_budget(
    lang: Lang,
    algorithm: crate::sim::algorithms::Algorithm,
    ranks: usize,
    segments: Option<usize>,
    over: &OverBudget,
) -> String {
    let with = segments.map_or(String::new(), |k| {
        trf(lang, K::ScWithSegments, &[&k.to_string()])
    });
    let (alg, n) = (algorithm_label(lang, algorithm), ranks.to_string());
    let transfers = over.cost.transfers.to_string();
    let mut out = match over.exceeded {
        Exceeded::Memory => trf(
            lang,
            K::ScOverMemory,
            &[
                alg,
                &n,
                &with,
                &format_bytes(over.cost.peak_bytes_for(&over.budget) as f64),
                &transfers,
                &over.cost.cells.to_string(),
                &format_bytes(over.budget.bytes as f64),
            ],
        ),
        Exceeded::Work => trf(
            lang,
            K::ScOverWork,
            &[
                alg,
                &n,
                &with,
                &format!("{:.1e}", over.cost.sharing_work as f64),
                &transfers,
                &format!("{:.1e}", over.budget.sharing_work as f64),
            ],
        ),
    };
    let mut ways = Vec::new();
    if let Some(k) = over.max_segments {
        ways.push(trf(lang, K::ScShrinkSegments, &[&k.to_string()]));
    }
    if let Some(n) = over.max_ranks {
        ways.push(trf(lang, K::ScShrinkRanks, &[&n.to_string()]));
    }
    ways.push(tr(lang, K::ScShrinkAlgorithm).to_string());
    out.push_str(&trf(lang, K::ScShrink, &[&ways.join(tr(lang, K::ScOr))]));
    out
}

/// Why a scenario (a training model, a sweep, a file) cannot run.
pub fn scenario_error(lang: Lang, e: &ScenarioError) -> String {
    use ScenarioError as E;
    let s = |x: &dyn ToString| x.to_string();
    match e {
        E::Topology(t) => topology_error(lang, t),
        E::Fault(f) => fault_error(lang, f),
        E::File(f) => file_error(lang, f),
        E::SizeOutOfRange { bytes } => trf(lang, K::ScSize, &[&s(bytes)]),
        E::SegmentsOutOfRange { got, max } => trf(lang, K::ScSegments, &[&s(max), &s(got)]),
        E::GammaOutOfRange { max } => trf(lang, K::ScGamma, &[&s(max)]),
        E::OverBudget {
            algorithm,
            ranks,
            segments,
            over,
        } => over_budget(lang, *algorithm, *ranks, *segments, over),
        E::MemoryOverLimit { limit_bytes } => {
            trf(lang, K::ScMemoryOver, &[&format_bytes(*limit_bytes as f64)])
        }
        E::AutoCannotStep => tr(lang, K::ScAutoStep).to_string(),
        E::NoRun => tr(lang, K::ScNoRun).to_string(),
        // The verifier's account is English (the CLI's Display keeps it); the page's Chinese
        // holds no English words (tested), so neither language shows it.
        E::Unverified(_) => tr(lang, K::ScUnverified).to_string(),
        E::CannotTakeGpus { gpus } => trf(lang, K::ScCannotTake, &[&s(gpus)]),
        E::ParametersOutOfRange => tr(lang, K::ScParameters).to_string(),
        E::GradientsTooLarge {
            parameters,
            bytes_per_gradient,
        } => trf(
            lang,
            K::ScGradients,
            &[
                &parameters.to_string(),
                &bytes_per_gradient.to_string(),
                &(crate::sim::scenario::MAX_SIZE_BYTES / u64::from((*bytes_per_gradient).max(1)))
                    .to_string(),
            ],
        ),
        E::BytesPerGradient => tr(lang, K::ScBytesPerGradient).to_string(),
        E::ComputeOutOfRange => tr(lang, K::ScCompute).to_string(),
        E::ShareOutOfRange { share } => trf(
            lang,
            K::ScShare,
            &[tr(
                lang,
                match share {
                    Share::Backward => K::ShareBackward,
                    Share::Overlap => K::ShareOverlap,
                },
            )],
        ),
        E::InputBytesNegative => tr(lang, K::ScInputBytes).to_string(),
        E::StorageNotPositive => tr(lang, K::ScStorage).to_string(),
        E::SweepSizes { min, max } => trf(lang, K::ScSweepSizes, &[&s(min), &s(max)]),
        E::SweepFactor { factor } => trf(lang, K::ScSweepFactor, &[&s(factor)]),
        E::SweepOverBudget { sizes, times } => {
            trf(lang, K::ScSweepOverBudget, &[&sizes.to_string(), &s(times)])
        }
    }
}

/// Why a system (the nccl model) cannot be used.
pub fn system_error(lang: Lang, e: &SystemError) -> String {
    use SystemError as E;
    let s = |x: &dyn ToString| x.to_string();
    match e {
        E::UnknownPreset { id } => trf(lang, K::SysUnknown, &[id, &PRESETS.join(", ")]),
        E::NotASystemFile { line, column, .. } => {
            trf(lang, K::SysNotAFile, &[&s(line), &s(column)])
        }
        E::NodesOutOfRange { got, max } => trf(lang, K::SysNodes, &[&s(max), &s(got)]),
        E::GpusPerNodeOutOfRange { got } => trf(lang, K::SysGpusPerNode, &[&s(got)]),
        E::FieldOutOfRange { field, got, lo, hi } => trf(
            lang,
            K::SysField,
            &[
                field.name(),
                &s(lo),
                &s(hi),
                &crate::sim::faults::short(*got),
            ],
        ),
        E::NicsOutOfRange { got } => trf(lang, K::SysNics, &[&s(got)]),
        E::ChannelsOutOfRange => tr(lang, K::SysChannels).to_string(),
        E::Ll128NeedsNvlink => tr(lang, K::SysLl128).to_string(),
        E::EmptyMessage => tr(lang, K::SysEmpty).to_string(),
        E::MessageTooLarge { bytes } => trf(lang, K::SysTooLarge, &[&bytes.to_string()]),
        E::NoCandidate => tr(lang, K::SysNoCandidate).to_string(),
        E::TooManyGpusForScaling { got, max } => trf(lang, K::SysScaling, &[&s(max), &s(got)]),
        E::OneGpu => tr(lang, K::SysOneGpu).to_string(),
        E::Unverified { .. } => tr(lang, K::SysUnverified).to_string(),
        E::Topology(t) => topology_error(lang, t),
        E::Training(t) => scenario_error(lang, t),
    }
}

/// Why a fit of a pasted table cannot run.
pub fn calibrate_error(lang: Lang, e: &CalibrateError) -> String {
    match e {
        CalibrateError::TooFewRows { found, needed } => trf(
            lang,
            K::FitTooFew,
            &[&needed.to_string(), &found.to_string()],
        ),
        CalibrateError::RanksMismatch { table, system } => trf(
            lang,
            K::FitRanks,
            &[&table.to_string(), &system.to_string()],
        ),
        CalibrateError::Model(m) => system_error(lang, m),
    }
}

/// A tier's links, inside a sentence.
fn tier_words(lang: Lang, tier: crate::sim::topology::Tier) -> &'static str {
    use crate::sim::topology::Tier;
    match tier {
        Tier::Gpu => lang.pick("GPU links", "GPU 链路"),
        Tier::Node => lang.pick("NICs", "网卡"),
        Tier::Rack => lang.pick("rack uplinks", "机柜上行链路"),
    }
}

/// Why a link or an imported file cannot set the lab.
pub fn share_error(lang: Lang, e: &ShareError) -> String {
    use ShareError as E;
    match e {
        E::Scenario(s) => scenario_error(lang, s),
        E::Unit(u) => unit_error(lang, u),
        E::CannotShowGamma => tr(lang, K::ShGamma).to_string(),
        E::CannotShowOversubscription => tr(lang, K::ShOversubscription).to_string(),
        E::CannotShowShape => tr(lang, K::ShShape).to_string(),
        E::CannotShowSegments { asked, max, gpus } => trf(
            lang,
            K::ShSegments,
            &[&max.to_string(), &gpus.to_string(), &asked.to_string()],
        ),
        E::CannotShowRailShape => tr(lang, K::ShRailShape).to_string(),
        E::CannotShowValue {
            tier,
            latency,
            file,
            rounded,
        } => trf(
            lang,
            K::ShValue,
            &[
                tier_words(lang, *tier),
                if *latency {
                    lang.pick("latency", "时延")
                } else {
                    lang.pick("bandwidth", "带宽")
                },
                &crate::ui::model::share::decimals(*file),
                if *latency { "ns" } else { "Mbps" },
                &rounded.to_string(),
            ],
        ),
        E::NoScenario => tr(lang, K::ShNoScenario).to_string(),
        E::TooLong { max } => trf(lang, K::ShTooLong, &[&max.to_string()]),
        E::Twice { key } => trf(lang, K::ShTwice, &[key]),
        E::NotOneOf { key, allowed } => trf(lang, K::ShNotOneOf, &[key, &allowed.join(", ")]),
        E::OnOrOff { key } => trf(lang, K::ShOnOrOff, &[key]),
        E::NotATopology => tr(lang, K::ShTopo).to_string(),
        E::OutOfRange { key, lo, hi } => trf(lang, K::ShOutOfRange, &[key, lo, hi]),
        E::NotInTheLab(e) => trf(lang, K::ShNotInTheLab, &[&share_error(lang, e)]),
        E::NotAnAlgorithm { key } => trf(
            lang,
            K::ShNotAnAlgorithm,
            &[key, &crate::ui::model::share::algorithm_names()],
        ),
        E::SizeNotBytes => tr(lang, K::ShSizeNotBytes).to_string(),
        E::ListLength { key } => trf(lang, K::ShListLength, &[key]),
        E::BadStep { max } => trf(lang, K::ShStep, &[&max.to_string()]),
        E::UnknownKey { key } => trf(lang, K::ShUnknownKey, &[key]),
        E::NvlsWithoutNccl => tr(lang, K::ShNvls).to_string(),
        E::BadFault { key, text } => trf(
            lang,
            if *key == "slow" {
                K::ShBadSlow
            } else {
                K::ShBadLate
            },
            &[text],
        ),
        E::Unreadable => tr(lang, K::ShUnreadable).to_string(),
    }
}

/// Why a point of the speedup charts could not be computed.
pub fn job_error(lang: Lang, e: &JobError) -> String {
    match e {
        JobError::Scenario(s) => scenario_error(lang, s),
        JobError::System(s) => system_error(lang, s),
    }
}

#[cfg(test)]
mod tests;
