//! Every kind of every error the app shows, in both languages.

use super::*;
use crate::sim::algorithms::Algorithm;
use crate::sim::cost::{Budget, RunCost};
use crate::sim::faults::Cable;
use crate::sim::nccl::system::SystemField;
use crate::sim::scenario_file::Utf16;
use crate::sim::topology::Endpoint;

/// Latin words allowed in Chinese text: units, identifiers (file fields, URL keys, link ends,
/// encodings), product and algorithm names.
const KEEP: &str = "B KB MB GB TB PB KiB MiB GiB TiB B/s KB/s MB/s GB/s TB/s PB/s bps Kbps Mbps Gbps Tbps Gb/s
    ns us µs ms s e NCCL NVLink LL128 ll128 UTF LE BE NUL JSON algbw busbw AllReduce Ring auto
    intra_gbytes_per_sec intra_efficiency nic_gbits_per_sec nic_efficiency net_latency_us launch_us
    nics_per_node channels nvls_channels nvls nccl topo cluster rail uniform on off size step bw lat gpus
    rankN nodeN nodeN.nicK rackN railN spine node rack rank FROM TO dgx pcie gen a100 h100 h200 b200
    gen4 gen5 X x0 x12 D800 GPU alg cmp topology";

fn cable() -> Cable {
    Cable::new(Endpoint::NodeSwitch(1), Endpoint::RackSwitch(0))
}

fn over(exceeded: Exceeded) -> Box<OverBudget> {
    Box::new(OverBudget {
        cost: RunCost {
            transfers: 123_456,
            cells: 789,
            peak_bytes: 3_000_000_000,
            peak_bytes_with_details: 4_000_000_000,
            peak_bytes_typical: 4_000_000_000,
            sharing_work: 5_000_000_000,
            dependencies: 0,
            cell_changes: 0,
            rate_changes: 0,
            rate_changes_expected: 0,
        },
        budget: Budget {
            bytes: 2_000_000_000,
            details: false,
            typical: false,
            sharing_work: 4_000_000_000,
        },
        exceeded,
        max_ranks: Some(64),
        max_segments: Some(8),
    })
}

fn units() -> Vec<UnitError> {
    use crate::sim::units::{parse_bandwidth, parse_duration, parse_size};
    vec![
        parse_size("x12").unwrap_err(),
        parse_size("1e999").unwrap_err(),
        parse_bandwidth("12").unwrap_err(),
        parse_size("12 X").unwrap_err(),
        parse_size("-12").unwrap_err(),
        parse_duration("-12").unwrap_err(),
        parse_bandwidth("-4Gbps").unwrap_err(),
        parse_size("1e19").unwrap_err(),
    ]
}

fn topologies() -> Vec<TopologyError> {
    use TopologyError as E;
    let mut v = vec![
        E::TooManyRanks {
            rail: false,
            max: 8,
        },
        E::TooManyRanks { rail: true, max: 8 },
        E::RailGpusOutOfRange { got: 9, max: 8 },
        E::OversubscriptionOutOfRange,
        E::NicsOutOfRange { got: 9, max: 8 },
        E::NicsExceedGpus {
            nics: 4,
            gpus_per_node: 2,
        },
    ];
    use TopologyField as F;
    for field in [
        F::Ranks,
        F::Racks,
        F::Nodes,
        F::NodesPerRack,
        F::GpusPerNode,
    ] {
        v.push(E::CountOutOfRange {
            field,
            got: 0,
            max: 8,
        });
    }
    for field in [
        F::Bandwidth,
        F::IntraBandwidth,
        F::NodeBandwidth,
        F::RackBandwidth,
        F::NicBandwidth,
        F::SpineBandwidth,
    ] {
        v.push(E::BandwidthNotPositive { field });
        v.push(E::BandwidthOutOfRange { field });
    }
    for field in [
        F::Latency,
        F::IntraLatency,
        F::NodeLatency,
        F::RackLatency,
        F::NicLatency,
        F::SpineLatency,
    ] {
        v.push(E::LatencyOutOfRange { field });
    }
    v
}

fn faults() -> Vec<FaultError> {
    use FaultError as E;
    vec![
        E::FactorOutOfRange {
            cable: cable(),
            factor: 2.0,
        },
        E::NoSuchCable {
            cable: cable(),
            examples: vec![cable()],
        },
        E::CableTwice { cable: cable() },
        E::RankOutOfRange { rank: 8, ranks: 8 },
        E::DelayOutOfRange {
            rank: 3,
            delay_secs: 20.0,
        },
        E::RankTwice { rank: 3 },
        E::TooMany { count: 5000 },
        E::Cable(CableError::NotALink { text: "x0".into() }),
        E::Cable(CableError::NotAnEnd { text: "x0".into() }),
    ]
}

fn files() -> Vec<FileError> {
    use FileError as E;
    vec![
        E::TooLarge { max_kb: 64 },
        E::Utf32,
        E::OddUtf16 {
            encoding: Utf16::Le,
        },
        E::UnpairedSurrogate {
            encoding: Utf16::Be,
            unit: 0xD800,
        },
        E::NulBytes,
        E::NotUtf8 { at: 1 },
    ]
    .into_iter()
    .chain(
        [
            // One of each JsonProblem, as the JSON reader reports it.
            &br#"{"topology": 1}"#[..],
            b"{",
            b"}",
            br#"{"algorithm": "ring", "size_bytes": 8}"#,
            br#"{"topology": {"kind": "uniform", "ranks": 2, "bandwidth": 1e9, "latency_secs": 0}, "algorithm": "x0", "size_bytes": 8}"#,
        ]
        .map(|bytes| match crate::sim::scenario_file::read_scenario(bytes) {
            Err(ScenarioError::File(f)) => f,
            other => panic!("{other:?}"),
        }),
    )
    .collect()
}

fn scenarios() -> Vec<ScenarioError> {
    use ScenarioError as E;
    let mut v: Vec<E> = vec![
        E::SizeOutOfRange { bytes: 0 },
        E::SegmentsOutOfRange { got: 0, max: 64 },
        E::GammaOutOfRange { max: 1e-3 },
        E::AutoCannotStep,
        E::MemoryOverLimit {
            limit_bytes: 2_000_000_000,
        },
        E::NoRun,
        E::Unverified("rank 3 holds the wrong sum".into()),
        E::CannotTakeGpus { gpus: 12 },
        E::ParametersOutOfRange,
        E::GradientsTooLarge {
            parameters: 300_000_000_000,
            bytes_per_gradient: 4,
        },
        E::BytesPerGradient,
        E::ComputeOutOfRange,
        E::ShareOutOfRange {
            share: Share::Backward,
        },
        E::ShareOutOfRange {
            share: Share::Overlap,
        },
        E::InputBytesNegative,
        E::StorageNotPositive,
        E::SweepSizes { min: 0, max: 1 },
        E::SweepFactor { factor: 1 },
        E::SweepOverBudget {
            sizes: 41,
            times: 5,
        },
    ];
    for (exceeded, segments) in [(Exceeded::Memory, Some(8)), (Exceeded::Work, None)] {
        v.push(E::OverBudget {
            algorithm: Algorithm::Ring,
            ranks: 1024,
            segments,
            over: over(exceeded),
        });
    }
    v.extend(topologies().into_iter().map(E::Topology));
    v.extend(faults().into_iter().map(E::Fault));
    v.extend(files().into_iter().map(E::File));
    v
}

fn systems() -> Vec<SystemError> {
    use SystemError as E;
    let mut v = vec![
        E::UnknownPreset { id: "x0".into() },
        crate::sim::nccl::system::System::from_json("{").unwrap_err(),
        E::NodesOutOfRange { got: 0, max: 8 },
        E::GpusPerNodeOutOfRange { got: 16 },
        E::NicsOutOfRange { got: 0 },
        E::ChannelsOutOfRange,
        E::Ll128NeedsNvlink,
        E::EmptyMessage,
        E::MessageTooLarge { bytes: 1 << 50 },
        E::NoCandidate,
        E::TooManyGpusForScaling {
            got: 2048,
            max: 1024,
        },
        E::OneGpu,
        E::Unverified {
            detail: "rank 3 holds the wrong sum".into(),
        },
        E::Topology(TopologyError::OversubscriptionOutOfRange),
        E::Training(Box::new(ScenarioError::BytesPerGradient)),
    ];
    for field in [
        SystemField::IntraGbytesPerSec,
        SystemField::IntraEfficiency,
        SystemField::NicGbitsPerSec,
        SystemField::NicEfficiency,
        SystemField::NetLatencyUs,
        SystemField::LaunchUs,
    ] {
        v.push(E::FieldOutOfRange {
            field,
            got: -1.0,
            lo: 0.0,
            hi: 1.0,
        });
    }
    v
}

fn shares() -> Vec<ShareError> {
    use ShareError as E;
    vec![
        E::Scenario(ScenarioError::NoRun),
        E::Unit(units().remove(0)),
        E::CannotShowGamma,
        E::CannotShowOversubscription,
        E::CannotShowShape,
        E::CannotShowSegments {
            asked: 256,
            max: 1,
            gpus: 1024,
        },
        E::CannotShowRailShape,
        E::CannotShowValue {
            tier: crate::sim::topology::Tier::Node,
            latency: true,
            file: 1234.5,
            rounded: 1235,
        },
        E::NoScenario,
        E::TooLong { max: 1000 },
        E::Twice { key: "gpus".into() },
        E::NotOneOf {
            key: "nccl",
            allowed: PRESETS.iter().map(|s| s.to_string()).collect(),
        },
        E::OnOrOff { key: "nvls" },
        E::NotATopology,
        E::OutOfRange {
            key: "bw",
            lo: "1Mbps".into(),
            hi: "16000000Mbps".into(),
        },
        E::NotInTheLab(Box::new(E::NotATopology)),
        E::NotAnAlgorithm { key: "alg" },
        E::SizeNotBytes,
        E::ListLength { key: "lat" },
        E::BadStep { max: 100 },
        E::UnknownKey { key: "42".into() },
        E::NvlsWithoutNccl,
        E::Unreadable,
    ]
}

/// Every kind, rendered in (English, Chinese).
fn every_rendering() -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut both = |f: &dyn Fn(Lang) -> String| out.push((f(Lang::En), f(Lang::Zh)));
    for e in units() {
        both(&|l| unit_error(l, &e));
    }
    for e in scenarios() {
        both(&|l| scenario_error(l, &e));
    }
    for e in systems() {
        both(&|l| system_error(l, &e));
    }
    for e in [
        CalibrateError::TooFewRows {
            found: 1,
            needed: 3,
        },
        CalibrateError::RanksMismatch {
            table: 8,
            system: 16,
        },
        CalibrateError::Model(SystemError::OneGpu),
    ] {
        both(&|l| calibrate_error(l, &e));
    }
    for e in shares() {
        both(&|l| share_error(l, &e));
    }
    for e in [
        JobError::Scenario(ScenarioError::NoRun),
        JobError::System(SystemError::OneGpu),
    ] {
        both(&|l| job_error(l, &e));
    }
    out
}

fn latin_words(s: &str) -> Vec<&str> {
    s.split(|c: char| !(c.is_ascii_alphanumeric() || "_./-µ".contains(c)))
        .map(|w| w.trim_matches(|c: char| ".-/".contains(c)))
        .filter(|w| w.chars().any(|c| c.is_ascii_alphabetic()))
        .collect()
}

#[test]
fn every_kind_of_every_error_reads_in_chinese_without_english_words() {
    // The system presets' ids are identifiers too.
    let keep: Vec<&str> = KEEP.split_whitespace().chain(PRESETS).collect();
    let cases = every_rendering();
    assert!(cases.len() > 100, "{} cases", cases.len());
    let mut bad = Vec::new();
    for (en, zh) in &cases {
        assert!(
            zh.chars().any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c)),
            "no Chinese in {zh}"
        );
        assert!(
            !en.chars().any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c)),
            "{en}"
        );
        // A link's `alg` that is no algorithm lists the algorithms' names, as a link writes them
        // (`a_link_naming_no_algorithm_lists_the_algorithms`): only the words before the list.
        let zh = zh.split("应为以下之一：").next().unwrap_or(zh);
        for w in latin_words(zh) {
            // Words of the values (a preset list, a number like 1.0e9) and the kept identifiers.
            let ok = keep.contains(&w)
                || w.split(['-', '.', '/']).all(|p| {
                    let stem = p.trim_end_matches(|c: char| c.is_ascii_digit());
                    keep.contains(&stem) || stem.is_empty()
                })
                || w.chars().all(|c| c.is_ascii_hexdigit())
                || w.starts_with(|c: char| c.is_ascii_digit());
            if !ok {
                bad.push(format!("'{w}' in {zh}"));
            }
        }
    }
    assert!(
        bad.is_empty(),
        "English words in Chinese:\n{}",
        bad.join("\n")
    );
}

#[test]
fn the_english_of_the_core_kinds_is_what_the_cli_prints() {
    // The app's English and the CLI's Display agree where they say the same thing.
    for e in units() {
        assert_eq!(unit_error(Lang::En, &e), e.to_string());
    }
    for e in topologies() {
        assert_eq!(topology_error(Lang::En, &e), e.to_string());
    }
}

#[test]
fn placeholders_match_between_languages() {
    for &k in ErrorKey::ALL {
        let (en, zh) = k.texts();
        for i in 0..8 {
            let p = format!("{{{i}}}");
            assert_eq!(en.contains(&p), zh.contains(&p), "{k:?} {p}");
        }
    }
}

#[test]
fn a_link_naming_no_algorithm_lists_the_algorithms() {
    let e = crate::ui::model::share::ShareError::NotAnAlgorithm { key: "alg" };
    for lang in [Lang::En, Lang::Zh] {
        let text = share_error(lang, &e);
        for a in Algorithm::ALL {
            assert!(text.contains(a.name()), "{text}");
        }
    }
    assert!(e.to_string().ends_with("nccl-ring, nccl-tree, auto"), "{e}");
}
