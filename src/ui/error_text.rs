//! The core's errors in the learner's language: one function per error type, one row per kind.
//!
//! The core's errors are kinds with their values (no prose); their `Display` is the CLI's English.
//! Here each kind has an English and a Chinese sentence, filled with the values, so that a Chinese
//! page shows no English from the core.
//!
//! ```
//! use allreduce_lab::sim::units::parse_bandwidth;
//! use allreduce_lab::ui::error_text::unit_error;
//! use allreduce_lab::ui::i18n::Lang;
//! let e = parse_bandwidth("-4Gbps").unwrap_err();
//! assert_eq!(unit_error(Lang::Zh, &e), "带宽“-4Gbps”必须为正数；应形如 '100GB/s', '800Gbps' (B/s KB/s MB/s GB/s TB/s; bps Kbps Mbps Gbps Tbps, Gb/s)");
//! ```

use super::i18n::{algorithm_label, strings, tr, trf, Lang};
use super::scaling_model::JobError;
use super::share::ShareError;
use crate::sim::cost::{Exceeded, OverBudget};
use crate::sim::faults::{CableError, FaultError, MAX_DELAY_SECS, MAX_FAULTS};
use crate::sim::nccl::calibrate::CalibrateError;
use crate::sim::nccl::system::{SystemError, PRESETS};
use crate::sim::scenario::{ScenarioError, Share};
use crate::sim::scenario_file::FileError;
use crate::sim::topology::{TopologyError, TopologyField};
use crate::sim::units::{format_bytes, Quantity, UnitError};

strings! {
    /// The sentences of the core's errors.
    ErrorKey {
        // Names the sentences use.
        QSize => "size", "大小";
        QBandwidth => "bandwidth", "带宽";
        QDuration => "duration", "时长";
        FRanks => "ranks", "进程数";
        FRacks => "racks", "机柜数";
        FNodes => "nodes", "节点数";
        FNodesPerRack => "nodes per rack", "每机柜节点数";
        FGpusPerNode => "GPUs per node", "每节点 GPU 数";
        FBandwidth => "bandwidth", "带宽";
        FLatency => "latency", "延迟";
        FIntraBandwidth => "intra-node bandwidth", "节点内带宽";
        FIntraLatency => "intra-node latency", "节点内延迟";
        FNodeBandwidth => "node bandwidth", "节点带宽";
        FNodeLatency => "node latency", "节点延迟";
        FRackBandwidth => "rack bandwidth", "机柜带宽";
        FRackLatency => "rack latency", "机柜延迟";
        FNicBandwidth => "NIC bandwidth", "网卡带宽";
        FNicLatency => "NIC latency", "网卡延迟";
        FSpineBandwidth => "spine bandwidth", "主干带宽";
        FSpineLatency => "spine latency", "主干延迟";
        ShareBackward => "backward share", "反向传播占比";
        ShareOverlap => "overlap", "重叠比例";
        // Units.
        UnitNotANumber => "{0} '{1}' is not a number with a unit; expected e.g. {2}", "{0}“{1}”不是带单位的数字；应形如 {2}";
        UnitNotFinite => "{0} '{1}' is not finite", "{0}“{1}”不是有限的数";
        UnitMissing => "{0} '{1}' needs a unit; expected e.g. {2}", "{0}“{1}”缺少单位；应形如 {2}";
        UnitUnknown => "{0} '{1}' has an unknown unit '{3}'; expected e.g. {2}", "{0}“{1}”的单位“{3}”无法识别；应形如 {2}";
        UnitNegative => "{0} '{1}' must not be negative", "{0}“{1}”不能为负数";
        UnitIsNegative => "{0} '{1}' is negative", "{0}“{1}”是负数";
        UnitNotPositive => "{0} '{1}' must be positive; expected e.g. {2}", "{0}“{1}”必须为正数；应形如 {2}";
        UnitTooLarge => "{0} '{1}' is too large", "{0}“{1}”太大";
        // Topology.
        TopoCount => "{0} must be between 1 and {1}, got {2}", "{0}必须在 1 到 {1} 之间，实际为 {2}";
        TopoTooManyRanks => "racks × nodes per rack × GPUs per node must be at most {0}", "机柜数 × 每机柜节点数 × 每节点 GPU 数不能超过 {0}";
        TopoTooManyRailRanks => "nodes × GPUs per node must be at most {0}", "节点数 × 每节点 GPU 数不能超过 {0}";
        TopoRailGpus => "GPUs per node on a rail network must be between 1 and {0} (one NIC, one rail each), got {1}", "轨道网络的每节点 GPU 数必须在 1 到 {0} 之间（每张卡一张网卡、一条轨道），实际为 {1}";
        TopoBandwidthNotPositive => "{0} must be a positive bandwidth, e.g. 100GB/s or 400Gbps", "{0}必须是正的带宽，如 100GB/s 或 400Gbps";
        TopoBandwidthRange => "{0} must lie between 1 B/s and 1 PB/s", "{0}必须在 1 B/s 到 1 PB/s 之间";
        TopoLatencyRange => "{0} must be a latency between 0 and 10 s, e.g. 5us", "{0}必须在 0 到 10 s 之间，如 5us";
        TopoOversubscription => "oversubscription must be between 1 (non-blocking) and 64", "超额订阅比必须在 1（无阻塞）到 64 之间";
        TopoNics => "NICs per node must be between 1 and {0}, got {1}", "每节点网卡数必须在 1 到 {0} 之间，实际为 {1}";
        TopoNicsExceedGpus => "NICs per node ({0}) cannot exceed GPUs per node ({1}): each GPU uses its nearest NIC", "每节点网卡数（{0}）不能超过每节点 GPU 数（{1}）：每张卡使用离它最近的网卡";
        // Faults.
        FaultFactor => "slow link {0}: factor {1} is out of range; expected a number in (0, 1], e.g. 0.25", "慢链路 {0}：系数 {1} 超出范围；应在 (0, 1] 之间，如 0.25";
        FaultNoSuchCable => "slow link {0}: this topology has no such link", "慢链路 {0}：此拓扑中没有这条链路";
        FaultCableTwice => "slow link {0} is given twice", "慢链路 {0} 出现了两次";
        FaultRank => "straggler rank {0} does not exist; expected 0..{1}", "迟到的进程 {0} 不存在；应为 0..{1}";
        FaultDelay => "straggler rank {0}: delay {1} s is out of range; expected 0..{2} s", "迟到的进程 {0}：延迟 {1} s 超出范围；应为 0..{2} s";
        FaultRankTwice => "straggler rank {0} is given twice", "迟到的进程 {0} 出现了两次";
        FaultTooMany => "{0} faults of one kind; at most {1} are allowed", "同一类故障有 {0} 个；最多允许 {1} 个";
        CableNotALink => "'{0}' is not a link; expected FROM-TO, e.g. node0-rack0", "“{0}”不是链路；应写成 起点-终点，如 node0-rack0";
        CableNotAnEnd => "'{0}' is not a link end; expected rankN, nodeN, nodeN.nicK, rackN, railN or spine", "“{0}”不是链路端点；应为 rankN、nodeN、nodeN.nicK、rackN、railN 或 spine";
        // Scenario files.
        FileTooLarge => "the file is larger than {0} KB", "文件超过 {0} KB";
        FileUtf32 => "the file is UTF-32 text; save it as UTF-8 (or UTF-16)", "文件是 UTF-32 文本；请另存为 UTF-8（或 UTF-16）";
        FileOddUtf16 => "the file says it is {0} but has an odd number of bytes", "文件标明是 {0}，但字节数为奇数";
        FileSurrogate => "the file says it is {0} but holds an unpaired surrogate 0x{1}", "文件标明是 {0}，但含有未配对的代理码元 0x{1}";
        FileNul => "the file holds NUL bytes: it is binary, or UTF-16 without a byte-order mark; save it as UTF-8", "文件含有 NUL 字节：它是二进制文件，或是没有字节顺序标记的 UTF-16；请另存为 UTF-8";
        FileNotUtf8 => "the file is not UTF-8 text (byte {0} is not valid); save it as UTF-8", "文件不是 UTF-8 文本（第 {0} 个字节无效）；请另存为 UTF-8";
        FileNotAScenario => "not a scenario file (line {0}, column {1}): {2}", "不是场景文件（第 {0} 行第 {1} 列）：内容不符合场景的 JSON 格式{2}";
        // Scenarios.
        ScSize => "size must be between 1 B and 1 TB, got {0} bytes", "大小必须在 1 B 到 1 TB 之间，实际为 {0} 字节";
        ScSegments => "segments must be between 1 and {0}, got {1}", "分段数必须在 1 到 {0} 之间，实际为 {1}";
        ScGamma => "gamma (reduction cost) must be between 0 and {0} seconds per byte", "γ（归约开销）必须在每字节 0 到 {0} s 之间";
        ScOverMemory => "{0} on {1} ranks{2} would need about {3} of memory ({4} transfers, {5} buffer cells); the limit is {6}.", "{0} 在 {1} 个进程上{2}约需 {3} 内存（{4} 次传输，{5} 个缓冲单元）；上限为 {6}。";
        ScOverWork => "{0} on {1} ranks{2} would re-share links about {3} times ({4} transfers, many sharing one link); the limit is {5}.", "{0} 在 {1} 个进程上{2}约需重新分配链路带宽 {3} 次（{4} 次传输，许多共用一条链路）；上限为 {5}。";
        ScWithSegments => " with {0} segments", "（{0} 段）";
        ScShrink => " To shrink the run use {0}.", "要缩小规模，可用{0}。";
        ScShrinkSegments => "at most {0} segments", "最多 {0} 段";
        ScShrinkRanks => "at most {0} ranks", "最多 {0} 个进程";
        ScShrinkAlgorithm => "another algorithm", "另一种算法";
        ScOr => ", or ", "，或";
        ScAutoStep => "auto runs every algorithm; it cannot be stepped as one run", "auto 会运行每一种算法，不能作为一次运行逐步推进";
        ScNoRun => "the simulation ended without a run (a bug: please report it)", "模拟结束时没有运行结果（这是缺陷，请报告）";
        ScCannotTake => "the topology cannot take {0} GPUs", "该拓扑无法容纳 {0} 张卡";
        ScParameters => "parameters must be between 1 and 10^13", "参数量必须在 1 到 10^13 之间";
        ScBytesPerGradient => "bytes per gradient must be 1, 2, 4 or 8", "每个梯度的字节数必须是 1、2、4 或 8";
        ScCompute => "compute time must be between 0 and 1 hour", "计算时间必须在 0 到 1 小时之间";
        ScShare => "{0} must be between 0 and 1", "{0}必须在 0 到 1 之间";
        ScInputBytes => "input bytes per GPU must be 0 or more", "每张卡的输入字节数不能为负";
        ScStorage => "storage bandwidth must be positive", "存储带宽必须为正数";
        ScSweepSizes => "sizes must satisfy 1 ≤ min ≤ max, got min {0} and max {1}", "大小必须满足 1 ≤ 最小值 ≤ 最大值，实际最小值 {0}、最大值 {1}";
        ScSweepFactor => "the step factor must be at least 2, got {0}", "步进倍数至少为 2，实际为 {0}";
        ScUnknownClaim => "unknown claim '{0}'", "未知的论断“{0}”";
        // Systems (the nccl model).
        SysUnknown => "unknown system '{0}'; expected one of: {1}", "未知的系统“{0}”；应为以下之一：{1}";
        SysNotAFile => "not a system file (line {0}, column {1})", "不是系统文件（第 {0} 行第 {1} 列）";
        SysNodes => "nodes must be between 1 and {0}, got {1}", "节点数必须在 1 到 {0} 之间，实际为 {1}";
        SysGpusPerNode => "GPUs per node must be between 2 and 8, got {0}", "每节点 GPU 数必须在 2 到 8 之间，实际为 {0}";
        SysField => "{0} must lie between {1} and {2}, got {3}", "{0} 必须在 {1} 到 {2} 之间，实际为 {3}";
        SysNics => "nics_per_node must be between 1 and 64, got {0}", "nics_per_node 必须在 1 到 64 之间，实际为 {0}";
        SysChannels => "channels must be between 1 and 64 (nvls_channels between 0 and 64)", "channels 必须在 1 到 64 之间（nvls_channels 在 0 到 64 之间）";
        SysLl128 => "ll128 needs NVLink (NCCL enables LL128 only up to NVLink paths)", "ll128 需要 NVLink（NCCL 只在 NVLink 路径上启用 LL128）";
        SysEmpty => "size must be at least 1 byte", "大小至少为 1 字节";
        SysNoCandidate => "no candidate could run", "没有可运行的候选方案";
        SysScaling => "the nccl model predicts speedup up to {0} GPUs, got {1}", "NCCL 模型只预测最多 {0} 张卡的加速比，实际为 {1}";
        SysOneGpu => "one GPU has no allreduce", "一张卡没有 AllReduce 可做";
        SysUnverified => "internal: the schedule did not verify (a bug: please report it)", "内部错误：调度未通过校验（这是缺陷，请报告）";
        // The nccl-tests fit.
        FitTooFew => "the fit needs at least {0} rows of different sizes; the paste has {1}", "拟合至少需要 {0} 行不同大小的数据；粘贴内容只有 {1} 行";
        FitRanks => "the table's busbw/algbw ratio says {0} GPUs, but the chosen system has {1}", "表中 busbw/algbw 的比值表明有 {0} 张卡，但所选系统有 {1} 张";
        // Links and imported files (the lab's own checks).
        ShGamma => "the lab's controls cannot show a reduction cost (gamma)", "实验室的控件无法显示归约开销（γ）";
        ShOversubscription => "the lab's controls cannot show oversubscription", "实验室的控件无法显示超额订阅";
        ShShape => "the lab's controls cannot show this cluster shape", "实验室的控件无法显示这种集群形状";
        ShRailShape => "the lab's controls cannot show this rail shape", "实验室的控件无法显示这种轨道网络形状";
        ShNoScenario => "the file describes no scenario", "文件没有描述任何场景";
        ShTooLong => "the link is longer than {0} characters", "链接超过 {0} 个字符";
        ShTwice => "{0} is given twice", "{0} 出现了两次";
        ShNotOneOf => "{0} must be one of {1}", "{0} 必须是以下之一：{1}";
        ShOnOrOff => "{0} must be on or off", "{0} 必须是 on 或 off";
        ShTopo => "topo must be cluster, rail or uniform", "topo 必须是 cluster、rail 或 uniform";
        ShOutOfRange => "{0} is out of range", "{0} 超出范围";
        ShNotAnAlgorithm => "{0} is not an algorithm", "{0} 不是算法";
        ShSizeNotBytes => "size must be a number of bytes", "size 必须是字节数";
        ShListLength => "{0} must list one to three values", "{0} 必须列出一到三个值";
        ShStep => "step must be a whole number up to {0}", "step 必须是不超过 {0} 的整数";
        ShUnknownKey => "the link has a parameter the lab does not know", "链接中有实验室不认识的参数";
        ShNvls => "nvls needs nccl (the system it applies to)", "nvls 需要 nccl（它所作用的系统）";
        // A point of the speedup charts.
        ShUnreadable => "the file could not be read", "无法读取该文件";
        JobUnverified => "a run did not verify (a bug: please report it)", "一次运行未通过校验（这是缺陷，请报告）";
    }
}

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
            &[&cable.to_string(), &factor.to_string()],
        ),
        E::NoSuchCable { cable } => trf(lang, K::FaultNoSuchCable, &[&cable.to_string()]),
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
                &delay_secs.to_string(),
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
            detail,
        } => {
            // serde's account ends with " at line L column C", which the sentence already gives.
            let detail = detail.split(" at line ").next().unwrap_or(detail);
            trf(
                lang,
                K::FileNotAScenario,
                &[
                    &line.to_string(),
                    &column.to_string(),
                    if lang == Lang::En { detail } else { "" },
                ],
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
                &format_bytes(if over.budget.details {
                    over.cost.peak_bytes_with_details
                } else {
                    over.cost.peak_bytes
                } as f64),
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
        E::AutoCannotStep => tr(lang, K::ScAutoStep).to_string(),
        E::NoRun => tr(lang, K::ScNoRun).to_string(),
        E::CannotTakeGpus { gpus } => trf(lang, K::ScCannotTake, &[&s(gpus)]),
        E::ParametersOutOfRange => tr(lang, K::ScParameters).to_string(),
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
        E::UnknownClaim { id } => trf(lang, K::ScUnknownClaim, &[id]),
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
        E::FieldOutOfRange { field, got, lo, hi } => {
            trf(lang, K::SysField, &[field.name(), &s(lo), &s(hi), &s(got)])
        }
        E::NicsOutOfRange { got } => trf(lang, K::SysNics, &[&s(got)]),
        E::ChannelsOutOfRange => tr(lang, K::SysChannels).to_string(),
        E::Ll128NeedsNvlink => tr(lang, K::SysLl128).to_string(),
        E::EmptyMessage => tr(lang, K::SysEmpty).to_string(),
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

/// Why a link or an imported file cannot set the lab.
pub fn share_error(lang: Lang, e: &ShareError) -> String {
    use ShareError as E;
    match e {
        E::Scenario(s) => scenario_error(lang, s),
        E::Unit(u) => unit_error(lang, u),
        E::CannotShowGamma => tr(lang, K::ShGamma).to_string(),
        E::CannotShowOversubscription => tr(lang, K::ShOversubscription).to_string(),
        E::CannotShowShape => tr(lang, K::ShShape).to_string(),
        E::CannotShowRailShape => tr(lang, K::ShRailShape).to_string(),
        E::NoScenario => tr(lang, K::ShNoScenario).to_string(),
        E::TooLong { max } => trf(lang, K::ShTooLong, &[&max.to_string()]),
        E::Twice { key } => trf(lang, K::ShTwice, &[key]),
        E::NotOneOf { key, allowed } => trf(lang, K::ShNotOneOf, &[key, &allowed.join(", ")]),
        E::OnOrOff { key } => trf(lang, K::ShOnOrOff, &[key]),
        E::NotATopology => tr(lang, K::ShTopo).to_string(),
        E::OutOfRange { key } => trf(lang, K::ShOutOfRange, &[key]),
        E::NotAnAlgorithm { key } => trf(lang, K::ShNotAnAlgorithm, &[key]),
        E::SizeNotBytes => tr(lang, K::ShSizeNotBytes).to_string(),
        E::ListLength { key } => trf(lang, K::ShListLength, &[key]),
        E::BadStep { max } => trf(lang, K::ShStep, &[&max.to_string()]),
        E::UnknownKey => tr(lang, K::ShUnknownKey).to_string(),
        E::NvlsWithoutNccl => tr(lang, K::ShNvls).to_string(),
        E::Unreadable => tr(lang, K::ShUnreadable).to_string(),
    }
}

/// Why a point of the speedup charts could not be computed.
pub fn job_error(lang: Lang, e: &JobError) -> String {
    match e {
        JobError::Scenario(s) => scenario_error(lang, s),
        JobError::System(s) => system_error(lang, s),
        JobError::Unverified(_) => tr(lang, K::JobUnverified).to_string(),
    }
}

#[cfg(test)]
mod tests;
