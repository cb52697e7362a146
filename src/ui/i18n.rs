//! The app's two languages: English and Chinese (the course chapter's own).
//!
//! Every string the interface shows is a [`Key`] with its English and Chinese text side by side in
//! one table ([`strings!`] below); leaving out either text is a compile error, and so is using a key
//! the table lacks. Numbers are formatted per language ([`times`], [`percent`]); SI units (GB, µs,
//! Gbps) are the same in both.
//!
//! ```
//! use allreduce_lab::ui::i18n::{fill, times, tr, Key, Lang};
//! assert_eq!(Lang::from_tag("zh-CN"), Lang::Zh);
//! assert_eq!(Lang::from_tag("en-GB"), Lang::En);
//! assert_eq!(tr(Lang::Zh, Key::Speedup), "加速比");
//! assert_eq!(times(Lang::En, 4.0, 1), "4.0×");
//! assert_eq!(times(Lang::Zh, 4.0, 1), "4.0 倍");
//! assert_eq!(fill("{0} of {1}", &["3", "14"]), "3 of 14");
//! ```
//!
//! In the browser, [`LangProvider`] holds the current language (detected from
//! `navigator.language`, switchable with [`LangSwitch`]) and every component reads it with
//! [`use_lang`].

/// A language of the interface.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Lang {
    En,
    Zh,
}

impl Lang {
    pub const ALL: [Lang; 2] = [Lang::En, Lang::Zh];

    /// The BCP 47 tag for `<html lang>`.
    pub fn tag(self) -> &'static str {
        match self {
            Lang::En => "en",
            Lang::Zh => "zh-CN",
        }
    }

    /// The short code a shared link carries (`lang=zh`).
    pub fn code(self) -> &'static str {
        match self {
            Lang::En => "en",
            Lang::Zh => "zh",
        }
    }

    /// The language for a browser's language tag: any Chinese variant is Chinese, all else English.
    pub fn from_tag(tag: &str) -> Lang {
        let primary = tag.split(['-', '_']).next().unwrap_or("");
        if primary.eq_ignore_ascii_case("zh") {
            Lang::Zh
        } else {
            Lang::En
        }
    }

    pub fn other(self) -> Lang {
        match self {
            Lang::En => Lang::Zh,
            Lang::Zh => Lang::En,
        }
    }

    /// One of two texts.
    pub fn pick<'a>(self, en: &'a str, zh: &'a str) -> &'a str {
        match self {
            Lang::En => en,
            Lang::Zh => zh,
        }
    }
}

/// A table of texts: each key has its English and Chinese ([`strings!`] declares one per area).
pub trait Text: Copy {
    /// (English, Chinese).
    fn texts(self) -> (&'static str, &'static str);
}

/// The text of `key` in `lang`.
pub fn tr(lang: Lang, key: impl Text) -> &'static str {
    let (en, zh) = key.texts();
    lang.pick(en, zh)
}

/// Replaces `{0}`, `{1}`, … in `template` with `args`.
pub fn fill(template: &str, args: &[&str]) -> String {
    let mut out = template.to_string();
    for (i, a) in args.iter().enumerate() {
        out = out.replace(&format!("{{{i}}}"), a);
    }
    out
}

/// [`tr`] then [`fill`].
pub fn trf(lang: Lang, key: impl Text, args: &[&str]) -> String {
    fill(tr(lang, key), args)
}

/// A number with `digits` decimals.
pub fn number(x: f64, digits: usize) -> String {
    format!("{x:.digits$}")
}

/// A multiple: `6.4×` in English, `6.4 倍` in Chinese.
pub fn times(lang: Lang, x: f64, digits: usize) -> String {
    match lang {
        Lang::En => format!("{x:.digits$}×"),
        Lang::Zh => format!("{x:.digits$} 倍"),
    }
}

/// A share of 1 as a percentage: `42%` (the same sign in both languages).
pub fn percent(_lang: Lang, share: f64, digits: usize) -> String {
    format!("{:.digits$}%", share * 100.0)
}

/// A count of GPUs: `8 GPUs` / `8 张卡`.
pub fn gpus(lang: Lang, n: usize) -> String {
    match (lang, n) {
        (Lang::En, 1) => "1 GPU".to_string(),
        (Lang::En, n) => format!("{n} GPUs"),
        (Lang::Zh, n) => format!("{n} 张卡"),
    }
}

/// The name of an algorithm as the interface shows it (the CLI's name in English).
pub fn algorithm_label(lang: Lang, a: crate::sim::algorithms::Algorithm) -> &'static str {
    use crate::sim::algorithms::Algorithm as A;
    let key = match a {
        A::Ring => Key::AlgRing,
        A::TreeFlat => Key::AlgTreeFlat,
        A::TreeBinomial => Key::AlgTreeBinomial,
        A::TreeBinary => Key::AlgTreeBinary,
        A::DoubleBinaryTree => Key::AlgDoubleBinaryTree,
        A::RecursiveDoubling => Key::AlgRecursiveDoubling,
        A::Rabenseifner => Key::AlgRabenseifner,
        A::Hierarchical => Key::AlgHierarchical,
        A::NcclRing => Key::AlgNcclRing,
        A::NcclTree => Key::AlgNcclTree,
        A::Auto => Key::AlgAuto,
    };
    tr(lang, key)
}

/// The name of a place in the network drawn by the UI (`GPU 3 → node 0`, `rack 1`, `spine`), in
/// `lang`, from its typed ends.
pub fn place_name(lang: Lang, place: &crate::ui::layout::Place) -> String {
    use crate::sim::topology::Endpoint as E;
    use crate::ui::layout::Place as P;
    let n = |x: usize| x.to_string();
    match *place {
        P::Unnamed => String::new(),
        P::End(E::Rank(r)) => trf(lang, Key::PlaceGpu, &[&n(r)]),
        P::End(E::NodeSwitch(i)) => trf(lang, Key::PlaceNode, &[&n(i)]),
        P::End(E::RackSwitch(k)) => trf(lang, Key::PlaceRack, &[&n(k)]),
        P::End(E::Spine) => tr(lang, Key::PlaceSpine).to_string(),
        P::End(E::Nic(i, k)) => trf(lang, Key::PlaceNic, &[&n(i), &n(k)]),
        P::End(E::Rail(i)) => trf(lang, Key::PlaceRail, &[&n(i)]),
        P::Switch => tr(lang, Key::PlaceSwitch).to_string(),
        P::Network => tr(lang, Key::PlaceNetwork).to_string(),
        P::Ranks { first, last } => format!("{first}–{last}"),
        P::Link { from, to, uniform } => trf(
            lang,
            Key::PlaceLink,
            &[
                &place_name(lang, &P::end(from, uniform)),
                &place_name(lang, &P::end(to, uniform)),
            ],
        ),
        P::Cable(a, b) => trf(
            lang,
            Key::PlaceCable,
            &[&place_name(lang, &P::End(a)), &place_name(lang, &P::End(b))],
        ),
    }
}

/// What one box of the aggregated view stands for, in `lang`.
pub fn unit_kind_name(lang: Lang, unit: crate::ui::layout::UnitKind) -> String {
    use crate::ui::layout::UnitKind as U;
    match unit {
        U::Gpu => "GPU".to_string(),
        U::Node => tr(lang, Key::UnitNode).to_string(),
        U::Rack => tr(lang, Key::UnitRack).to_string(),
        U::Group(k) => trf(lang, Key::UnitGroup, &[&k.to_string()]),
    }
}

/// Why the lower bound is what it is, in `lang`.
pub fn bound_explain(lang: Lang, kind: crate::sim::trace::BoundKind) -> &'static str {
    use crate::sim::trace::BoundKind as B;
    tr(
        lang,
        match kind {
            B::Injection => Key::BoundInjection,
            B::NodeTier => Key::BoundNode,
            B::RackTier => Key::BoundRack,
        },
    )
}

/// The larger term of a lower bound, in `lang`.
pub fn bound_term(lang: Lang, term: crate::sim::trace::BoundTerm) -> &'static str {
    use crate::sim::trace::BoundTerm as T;
    tr(
        lang,
        match term {
            T::Latency => Key::BoundTermLatency,
            T::Bandwidth => Key::BoundTermBandwidth,
        },
    )
}

/// Why `auto` chose what it chose, rebuilt in `lang` from its candidates.
pub fn auto_reason(lang: Lang, auto: &crate::sim::scenario::AutoChoice) -> String {
    use crate::sim::units::format_secs;
    let chosen = algorithm_label(lang, auto.chosen);
    let best = auto.candidates.first().map(|c| c.1).unwrap_or(0.0);
    match auto.candidates.get(1) {
        Some(&(next, t)) if t.is_finite() && best > 0.0 => trf(
            lang,
            Key::AutoFastest,
            &[
                chosen,
                &format_secs(best),
                &format_secs(t),
                algorithm_label(lang, next),
                &percent(lang, t / best - 1.0, 1),
                &auto.candidates.len().to_string(),
            ],
        ),
        _ => trf(lang, Key::AutoNothing, &[chosen]),
    }
}

/// A chapter scenario's (button name, claim, because) in `lang`, by its id.
pub fn scenario_texts(
    lang: Lang,
    s: &crate::course::chapter::ChapterScenario,
) -> (String, &'static str, &'static str) {
    let keys = match s.id {
        "eight-gpus-6-7x" => Some((Key::ShortEight, Key::ClaimEight, Key::BecauseEight)),
        "bad-topology-under-4x" => Some((Key::ShortBad, Key::ClaimBad, Key::BecauseBad)),
        "slow-network-under-4x" => {
            Some((Key::ShortSlowNet, Key::ClaimSlowNet, Key::BecauseSlowNet))
        }
        "network-100g-over-40pct" => Some((Key::ShortNet, Key::ClaimNet, Key::BecauseNet)),
        "io-bound-30pct" => Some((Key::ShortIo, Key::ClaimIo, Key::BecauseIo)),
        "racks-800-200-tree-wins" => Some((Key::ShortRacks, Key::ClaimRacks, Key::BecauseRacks)),
        "inverted-400-800-ring-wins" => {
            Some((Key::ShortInverted, Key::ClaimInverted, Key::BecauseInverted))
        }
        _ => None,
    };
    match keys {
        Some((n, c, b)) => (tr(lang, n).to_string(), tr(lang, c), tr(lang, b)),
        None => (s.id.to_string(), s.claim, s.because),
    }
}

/// A hardware's (name, source) in `lang`, by its id; product names stay as they are.
pub fn hardware_texts(
    lang: Lang,
    h: &crate::course::chapter::Hardware,
) -> (&'static str, &'static str) {
    let (name, source) = match h.id {
        "pcie-gen4" => (Some(Key::HwPcie), Some(Key::HwPcieSource)),
        "dgx-a100" => (None, Some(Key::HwA100Source)),
        "dgx-h100" => (None, Some(Key::HwH100Source)),
        "roce" => (Some(Key::HwRoce), Some(Key::HwRoceSource)),
        "chapter-100g" => (Some(Key::Hw100g), Some(Key::Hw100gSource)),
        "one-gpu-per-server-50g" => (Some(Key::HwOnePerServer), Some(Key::HwOnePerServerSource)),
        "racks-800-200" => (Some(Key::HwRacks), Some(Key::HwRacksSource)),
        "inverted-400-800" => (Some(Key::HwInverted), Some(Key::HwInvertedSource)),
        _ => (None, None),
    };
    (
        name.map_or(h.name, |k| tr(lang, k)),
        source.map_or(h.source, |k| tr(lang, k)),
    )
}

/// A model's (name, source) in `lang`, by its id; model names stay as they are.
pub fn model_texts(
    lang: Lang,
    m: &crate::course::chapter::ModelPreset,
) -> (&'static str, &'static str) {
    let (name, source) = match m.id {
        "resnet50" => (None, Some(Key::ModelResnetSource)),
        "bert-large" => (None, Some(Key::ModelBertSource)),
        "gpt2-xl" => (None, Some(Key::ModelGpt2Source)),
        "10b" => (Some(Key::Model10b), Some(Key::Model10bSource)),
        _ => (None, None),
    };
    (
        name.map_or(m.name, |k| tr(lang, k)),
        source.map_or(m.source, |k| tr(lang, k)),
    )
}

/// A preset's (title, description) in `lang`, by its name; the core's English for unknown names.
pub fn preset_texts(
    lang: Lang,
    p: &crate::course::presets::Preset,
) -> (&'static str, &'static str) {
    let keys = match p.name {
        "nvlink-8" => Some((Key::PresetNvlinkTitle, Key::PresetNvlinkText)),
        "two-nodes-400g" => Some((Key::PresetTwoNodesTitle, Key::PresetTwoNodesText)),
        "racks-800-200" => Some((Key::PresetRacksTitle, Key::PresetRacksText)),
        "inverted-400-800" => Some((Key::PresetInvertedTitle, Key::PresetInvertedText)),
        _ => None,
    };
    match keys {
        Some((t, d)) => (tr(lang, t), tr(lang, d)),
        None => (p.title, p.description),
    }
}

/// Declares a key enum and its table: one line per key, English then Chinese. A row without both
/// texts does not parse, and a key the table lacks does not exist.
macro_rules! strings {
    ($(#[$meta:meta])* $name:ident { $($key:ident => $en:expr, $zh:expr;)* }) => {
        $(#[$meta])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum $name { $($key),* }

        impl $name {
            /// Every key, for tests that check the table.
            pub const ALL: &'static [$name] = &[$($name::$key),*];

            /// (English, Chinese).
            pub fn texts(self) -> (&'static str, &'static str) {
                match self { $($name::$key => ($en, $zh)),* }
            }
        }

        impl $crate::ui::i18n::Text for $name {
            fn texts(self) -> (&'static str, &'static str) {
                $name::texts(self)
            }
        }
    };
}
pub(crate) use strings;

strings! {
    /// A string of the interface.
    Key {
    // The real-hardware panel.
    NcclTitle => "Real hardware: what NCCL reaches", "真实硬件：NCCL 实际能达到多少";
    NcclLede => "The textbook α-β model gives the wire rate. Real NCCL moves data with protocols (LL, LL128, Simple), splits it over channels, and pays launch and per-hop latencies; on Hopper NVSwitch boxes the switch itself can add (NVLink SHARP). Switch the model and compare with published nccl-tests measurements.", "教科书式的 α-β 模型给出的是线路速率。真实的 NCCL 用协议（LL、LL128、Simple）搬运数据、把数据分到多个通道上，并要付出启动和每跳延迟；在 Hopper NVSwitch 机器上，交换机本身还能做加法（NVLink SHARP）。切换模型，并与公开的 nccl-tests 实测结果对比。";
    NcclModelSwitch => "Model", "模型";
    NcclModelIdeal => "textbook α-β", "教科书 α-β";
    NcclModelNccl => "like NCCL on this hardware", "像 NCCL 在这台硬件上一样";
    NcclSystem => "System", "系统";
    ScalingNcclSeries => "like NCCL on {0}", "像 NCCL 在 {0} 上";
    ScalingNcclNote => "Each point is the allreduce NCCL would run on that many GPUs of {0} (8 per node: one node up to 8 GPUs, then whole nodes): its algorithm, protocol and channels as the real-hardware model predicts them, up to {1} GPUs. The hardware and algorithms above belong to the textbook model.", "每个点都是 NCCL 在 {0} 的这么多张卡上会执行的 AllReduce（每节点 8 张：8 张以内在一个节点上，之后按整节点增加）：算法、协议和通道数由真实硬件模型预测，最多 {1} 张卡。上面的硬件和算法属于教科书模型。";
    LabNcclLike => "like NCCL on real hardware", "像 NCCL 在真实硬件上";
    LabNcclIntro => "What NCCL would do for this run on {0}: {1} × {2} GPUs, {3} per GPU (the real-hardware model: protocols, channels, efficiencies, latencies).", "NCCL 在 {0} 上会怎样执行这次运行：{1} × {2} 张卡，每卡 {3}（真实硬件模型：协议、通道、效率、延迟）。";
    LabNcclAlgorithm => "algorithm", "算法";
    LabNcclChannels => "channels", "个通道";
    LabNcclTime => "time", "时间";
    LabNcclWhy => "Why: {0} has the lowest predicted time, {1}, against {2} for {3} (the runner-up), of {4} candidates simulated (on more than 64 GPUs, those whose bound cannot win are skipped).", "原因：{0} 的预测时间最短，为 {1}；第二名 {3} 为 {2}；共模拟了 {4} 个候选（超过 64 张卡时，下界已无法胜出的候选会被跳过）。";
    LabNcclOnly => "Why: {0} is the only candidate here.", "原因：{0} 是这里唯一的候选。";
    LabNcclPredicting => "Simulating NCCL's candidates: {0} of {1}…", "正在模拟 NCCL 的候选：第 {0} 个，共 {1} 个…";
    LabNcclCandidates => "All {0} candidates", "全部 {0} 个候选";
    LabNcclOneGpu => "One GPU has nothing to reduce.", "一张卡没有需要归约的数据。";
    LabNcclNotWhole => "{0} GPUs on one switch do not fill whole nodes of 8 GPUs, as these systems are built; pick a multiple of 8 (or up to 8).", "一个交换机上的 {0} 张卡填不满每节点 8 张卡的整节点（这些系统就是这样组成的）；请选择 8 的倍数（或不超过 8 张）。";
    LabNcclTooMany => "The browser predicts NCCL for up to {1} GPUs (this run has {0}); the command line takes up to 1,024:", "浏览器中最多为 {1} 张卡预测 NCCL（本次运行有 {0} 张）；命令行最多支持 1,024 张：";
    LabNcclSystemError => "This system cannot take the lab's shape: ", "该系统无法容纳实验室当前的形状：";
    ScalingNcclChoices => "NCCL's choice on {0} GPUs, per size: ", "NCCL 在 {0} 张卡上按消息大小的选择：";
    NcclNvls => "NVLink SHARP (NVLS)", "NVLink SHARP（NVLS，交换机内归约）";
    NcclIntraShare => "GPU links: NCCL's copies reach {0} of the {1} datasheet rate at large sizes.", "GPU 互连：大消息时 NCCL 的拷贝能达到标称 {1} 的 {0}。";
    ParseTooFewColumns => "a row needs at least size, count, type, redop, time, algbw, busbw; found {0} columns", "一行至少需要大小、数量、类型、归约、时间、algbw、busbw；只找到 {0} 列";
    ParseNotANumber => "'{0}' is not a number where one is expected", "'{0}' 不是数字，但这里需要数字";
    ParseBadTime => "time '{0}' must be a positive number of µs", "时间 '{0}' 必须是正数（µs）";
    ParseBadBandwidth => "bandwidth '{0}' must be a non-negative number", "带宽 '{0}' 必须是非负数";
    ParseDuplicateSize => "this size already appears on line {0}", "这个大小已在第 {0} 行出现";
    FitTooFewRows => "the fit needs at least {0} rows of different sizes; the paste has {1}", "拟合至少需要 {0} 行不同大小的数据；粘贴内容只有 {1} 行";
    FitRanksMismatch => "the table's busbw/algbw ratio says {0} GPUs, but the chosen system has {1}", "表中 busbw/algbw 的比值表明有 {0} 张卡，但所选系统有 {1} 张";
    NcclBusbwAt8Gib => "busbw of an 8 GiB allreduce: ", "8 GiB AllReduce 的 busbw：";
    NcclModelNcclNote => " (like NCCL: protocols, channels, efficiencies, latencies)", "（像 NCCL：协议、通道、效率、延迟）";
    NcclModelIdealNote => " (textbook: ring at the datasheet rate)", "（教科书：按标称速率的环形算法）";
    NcclPredicted => "predicted (like NCCL)", "预测（像 NCCL）";
    NcclPublished => "published measurement", "公开实测";
    NcclChartTitle => "Virtual nccl-tests: busbw vs message size", "虚拟 nccl-tests：busbw 与消息大小";
    NcclSourceNote => "Published points: {0}", "公开实测点：{0}";
    NcclNoPublished => "No published table for this system in the tool; the curve is the model alone.", "本工具中没有该系统的公开实测表；曲线仅为模型预测。";
    NcclColSize => "size", "大小";
    NcclColMeasured => "measured", "实测";
    NcclColPredicted => "predicted", "预测";
    NcclColError => "error", "误差";
    NcclColChoice => "algorithm/protocol", "算法/协议";
    NcclChangeToLl => "Back to LL: its low latency wins again.", "回到 LL：它的低延迟重新占优。";
    NcclChangeToLl128 => "LL128 takes over: 120 of every 128 bytes are data, so it nearly reaches the wire rate while keeping a low latency.", "LL128 接手：每 128 字节中有 120 字节是数据，几乎达到线路速率，同时延迟仍低。";
    NcclChangeToSimple => "Simple takes over: full wire rate; its higher latency per step no longer matters at this size.", "Simple 接手：全线路速率；在这个大小下，它每步更高的延迟已无关紧要。";
    NcclChangeToRing => "Ring takes over: every link busy, the most bandwidth per GPU.", "环形算法接手：所有链路都在工作，每张卡的带宽最高。";
    NcclChangeToTree => "Tree takes over: fewer steps in a row, so less latency.", "树形算法接手：串行步骤更少，延迟更低。";
    NcclChangeToNvls => "NVLS takes over: the NVSwitch adds the data itself, so each GPU sends its data up once and receives the sum — busbw above the wire rate.", "NVLS 接手：由 NVSwitch 自己做加法，每张卡只需上传一次数据并接收总和——busbw 超过线路速率。";
    NcclExplainTitle => "Protocols and channels, briefly", "协议与通道简介";
    NcclExplainLl => "LL (low latency): every 8-byte store carries 4 bytes of data and a 4-byte flag, so the receiver just polls the flag — half the wire rate, the lowest latency.", "LL（低延迟）：每次 8 字节写入携带 4 字节数据和 4 字节标志，接收方只需轮询标志——只有一半线路速率，但延迟最低。";
    NcclExplainLl128 => "LL128: 128-byte lines with 120 bytes of data and an 8-byte flag; needs NVLink, so NCCL enables it only there.", "LL128：128 字节一行，其中 120 字节数据、8 字节标志；需要 NVLink，所以 NCCL 只在那里启用。";
    NcclExplainSimple => "Simple: large copies with a fence and a flag per step — the full wire rate, the highest latency.", "Simple：大块拷贝，每步一个内存屏障和一个标志——全线路速率，延迟最高。";
    NcclExplainChannels => "Channels: NCCL runs a collective on several rings or trees at once, each driven by one thread block and sharing every link; small messages use fewer channels, which is why mid sizes ramp up slowly.", "通道：NCCL 同时在多个环或树上执行一次集合通信，每个由一个线程块驱动并共享所有链路；小消息使用更少的通道，所以中等大小的带宽爬升较慢。";
    NcclExplainFigure => "The same 1 MiB ring allreduce on this system under each protocol:", "同一个 1 MiB 环形 AllReduce 在本系统上使用各协议的时间：";
    NcclProtoOff => "not enabled on this system", "本系统未启用";
    PasteTitle => "Compare with your cluster", "与你的集群对比";
    PasteNote => "Paste the output of all_reduce_perf from your cluster (with its comments, any number of rows); the same fit as the calibrate command runs on it for the system chosen above.", "粘贴你集群上 all_reduce_perf 的输出（可带注释，行数不限）；将对上面选中的系统运行与 calibrate 命令相同的拟合。";
    PasteFit => "Fit", "拟合";
    PasteFitting => "Fitting: {0} of at most {1} runs of the model over your rows…", "拟合中：已在你的数据行上运行模型 {0} 次（最多 {1} 次）…";
    PasteBadLine => "Line {0} of the paste: {1}", "粘贴内容第 {0} 行：{1}";
    PasteNoRows => "This does not look like all_reduce_perf output: no row of size, count, type, redop, time, algbw, busbw.", "这看起来不像 all_reduce_perf 的输出：没有包含大小、数量、类型、归约、时间、algbw、busbw 的行。";
    PasteFitFailed => "The fit could not run: {0}", "无法拟合：{0}";
    FitNic => "Your NICs deliver {0} of {1}.", "你的网卡发挥出 {1} 的 {0}。";
    FitIntra => "Your GPU links reach {0} of {1}.", "你的 GPU 互连达到 {1} 的 {0}。";
    FitFloor => "A message costs at least {0}.", "一条消息至少耗时 {0}。";
    FitWithin => "From {0} up you are within 5 % of what NCCL should reach.", "从 {0} 起，你与 NCCL 应达到的水平相差不到 5%。";
    FitNotWithin => "Even the largest sizes are more than 5 % away from what the fitted model predicts.", "即使是最大的消息，也与拟合模型的预测相差超过 5%。";
    FitGeomean => "The fitted model matches your rows within {0} (geometric mean).", "拟合后的模型与你的数据相差 {0}（几何平均）。";
    // The page.
    ChapterTitle => "Chapter 1 · Cluster training: an overview", "第 1 章 · 集群训练概述";
    Lede => "Why 8 GPUs are not 8× as fast as one, what a training cluster is made of, and how Ring and Tree AllReduce exchange gradients. Every figure below is a live simulation: change an input and the result follows at once.", "为什么 8 张卡不是单卡的 8 倍速度、训练集群由哪几层组成、环形和树形 AllReduce 如何交换梯度。下面每张图都是实时模拟：改一个输入，结果立刻跟着变。";
    Contents => "Contents", "目录";
    OpenLab => "Open the full lab", "打开完整实验室";
    PresentEnter => "Present", "演示模式";
    PresentLeave => "Leave presentation", "退出演示";
    PresentKey => "Presentation mode: full width, large labels, controls in a strip (key P; Esc leaves)", "演示模式：全宽、大字号、控件收成一条（按 P 键；Esc 退出）";
    LabHeading => "The full lab: every control", "完整实验室：所有控件";
    LabIntro => "Everything above, and more: ten algorithms (NCCL's own ring and tree among them), any cluster shape, several NICs per node, rail-optimized networks, play and scrub through a run.", "上面的一切，以及更多：十种算法（包括 NCCL 自己的环和树）、任意集群形状、每节点多块网卡、轨道优化网络、逐帧播放和拖动。";
    SwitchLanguage => "Language: English. Switch to Chinese", "语言：中文。切换到英文";
    OtherLanguageName => "中文", "English";
    Chapter => "The chapter", "原文";
    Simulation => "The simulation", "模拟";
    Gpus => "GPUs", "GPU 数量";
    Step => "Step", "步骤";
    Previous => "Previous step", "上一步";
    Next => "Next step", "下一步";
    Play => "Play", "播放";
    Pause => "Pause", "暂停";
    Figure => "Figure", "图";
    ComputedBy => "computed by simulating the allreduce", "由模拟 AllReduce 计算得出";

    // §1.1
    WhyTitle => "1.1 The core logic of distributed training: why 8 GPUs are not 8×", "1.1 分布式训练的核心逻辑：为什么 8 张卡不是 8 倍";
    WhyBody => "A newcomer asks: “I train on 8 GPUs — is that 8 times as fast as one?” No. After every step the GPUs must exchange their gradients: communication costs time, and synchronising means waiting. The chapter says a speedup of 6–7× is typical, and that with a badly chosen topology it may not even reach 4×. Here BERT-large trains with a fixed batch per GPU, and after every step a simulated AllReduce sums its 1.36 GB of gradients: a ring, or in the badly chosen case a flat tree on the very same server.", "常有新手问：「我用 8 张卡训练，速度是不是单卡的 8 倍？」答案是否定的。每一步之后，各卡都要交换梯度：通信有开销，同步有等待。原文说实际加速比通常在 6–7 倍左右，如果拓扑选得不好，可能连 4 倍都到不了。这里用 BERT-large 训练（每卡批量固定），每一步之后用模拟的 AllReduce 汇总 1.36 GB 的梯度：用环形；或者在拓扑选得不好的情况下，在同一台服务器上改用扁平树。";
    WhyCluster => "Cluster", "集群";
    WhyGood => "8-GPU PCIe server, ring", "8 卡 PCIe 服务器，环形";
    WhyBad => "Network too slow: one GPU per server, 50 Gbps Ethernet", "网络太慢：每台服务器一张卡，50 Gbps 以太网";
    Speedup => "Speedup", "加速比";
    SpeedupOf => "{0} of an ideal {1}", "理想值为 {1}，实际 {0}";
    StepTime => "One training step", "一个训练步";
    Compute => "Compute", "计算";
    ExposedComm => "Exposed communication", "未被掩盖的通信";
    StorageWait => "Exposed storage IO", "未被掩盖的存储 IO";
    EfficiencyTitle => "Scaling efficiency (speedup ÷ GPUs) by GPU count", "不同卡数下的扩展效率（加速比 ÷ 卡数）";
    WhyReadout => "On {0}: a speedup of {1}; communication takes {2} of every step.", "{0}：加速比 {1}；通信占每一步的 {2}。";
    WhyMoral => "The chapter: the larger the share of communication, the worse the speedup.", "原文：通信占比越大，加速比越难看。";

    // §1.2
    LayersTitle => "1.2 How a cluster is built, and its shortest stave", "1.2 集群架构组成与木桶效应";
    LayersBody => "A training cluster has four layers. A step goes only as fast as its slowest layer allows: the chapter's barrel holds water only up to its shortest stave. Pick one of the chapter's two stories, then change the storage and network bandwidth; below, slow one NIC or make one GPU late.", "一个典型的训练集群可以分成四层。训练的一步只能跑得和最慢的一层一样快：这就是原文说的木桶效应，木桶能装多少水，取决于最短的那块板。选一个原文中的故事，然后调节存储和网络带宽；在下面还可以调慢一块网卡，或者让一张卡晚到。";
    LayerCompute => "Compute layer", "计算层";
    LayerComputeParts => "GPU/NPU cards", "GPU/NPU 卡";
    LayerComputeNote => "Look beyond raw FLOPS: memory bandwidth and HBM capacity matter as much.", "别只看算力，显存带宽和 HBM 容量同样关键。";
    LayerNetwork => "Network layer", "网络层";
    LayerNetworkParts => "IB/RoCE NICs, switches", "IB/RoCE 网卡、交换机";
    LayerNetworkNote => "The physical basis of the communication topology. IB: low latency but expensive; RoCE: cheaper but harder to tune.", "通信拓扑的物理基础。IB 延迟低但贵；RoCE 性价比高但调优麻烦。";
    LayerStorage => "Storage layer", "存储层";
    LayerStorageParts => "Distributed file system (Lustre/GPFS)", "分布式文件系统（Lustre/GPFS）";
    LayerStorageNote => "Data loading is often the bottleneck.", "数据加载的瓶颈往往在这里。";
    LayerScheduling => "Scheduling layer", "调度层";
    LayerSchedulingParts => "Slurm/Kubernetes + job scheduler", "Slurm/Kubernetes + 任务调度器";
    LayerSchedulingNote => "Allocates resources and queues jobs (not simulated here).", "资源分配和任务排队（本页不模拟）。";
    ShortStave => "short stave", "短板";
    Story => "Story", "故事";
    StoryIo => "Storage saturated: ResNet-50 on 32 GPUs", "存储 IO 打满：32 卡训练 ResNet-50";
    StoryNet => "A 100 Gbps network: BERT-large on 32 GPUs", "网络只有 100 Gbps：32 卡训练 BERT-large";
    StorageBandwidth => "Storage bandwidth (total)", "存储总带宽";
    NetworkBandwidth => "Network bandwidth per node", "每节点网络带宽";
    GpuUtilisation => "GPU utilisation", "GPU 利用率";
    CommShare => "Communication share", "通信占比";
    Bottleneck => "The short stave: {0}", "短板：{0}";
    NoBottleneck => "none: the GPUs are busy", "没有：GPU 在满负荷工作";
    StoryIoQuote => "The chapter: storage IO saturated and GPU utilisation fell to 30%.", "原文：存储 IO 打满，GPU 利用率掉到 30%。";
    StoryNetQuote => "The chapter: with only 100 Gbps of network, communication took over 40% of training time.", "原文：网络带宽只有 100 Gbps，结果通信开销占了训练时间的 40% 以上。";

    // §1.3.1
    RingTitle => "1.3.1 Ring AllReduce", "1.3.1 Ring AllReduce";
    RingBody => "Arrange the GPUs in a ring and cut each GPU's data into N chunks. Scatter-Reduce (the standard name is Reduce-Scatter): in each of N−1 steps every GPU passes one chunk to the next GPU, which adds it to its own. Afterwards each GPU holds one chunk summed over all GPUs. AllGather: in N−1 more steps the finished chunks travel on round the ring until every GPU holds all of them.", "把 GPU 排成一个环，每张卡把自己的数据分成 N 份。Scatter-Reduce（标准名称是 Reduce-Scatter）：在 N−1 步中，每张卡把一份数据传给下一张卡，下一张卡把它累加到自己的数据上。之后每张卡都持有一份汇总了所有卡的数据。AllGather：再经过 N−1 步，汇总好的数据沿环继续传递，直到每张卡都拿到全部结果。";
    RingGpus => "GPUs in the ring", "环上的 GPU 数";
    RingStart => "Start: every GPU holds only its own data.", "开始：每张卡只有自己的数据。";
    RingStepScatter => "Step {0} of {1} · Scatter-Reduce: each GPU adds the chunk it receives to its own.", "第 {0}/{1} 步 · Scatter-Reduce：每张卡把收到的数据块累加到自己的数据上。";
    RingStepGather => "Step {0} of {1} · AllGather: each GPU passes a finished chunk on.", "第 {0}/{1} 步 · AllGather：每张卡把汇总好的数据块继续传下去。";
    RingDone => "Done: every GPU holds the full sum. Each GPU sent {0} × S and received as much again; 2(N−1)/N = {1} (per direction).", "完成：每张卡都得到了完整的和。每张卡发送 {0} × S，另外又接收了同样多；2(N−1)/N = {1}（单个方向）。";
    RingLegend => "Each GPU's N cells are its chunks; the darker a cell, the more GPUs' data it holds. Arrows: this step's transfers.", "每张卡的 N 个格子是它的 N 份数据；颜色越深，汇总的卡越多。箭头：这一步的传输。";
    RingTry => "Try N = 2 and N = 8: the volume per GPU stays under 2 × S whatever N is.", "试试 N = 2 和 N = 8：无论 N 多大，每张卡的通信量都低于 2 × S。";
    Sent => "Sent", "已发送";
    Received => "Received", "已接收";
    PerGpuCounters => "Bytes per GPU so far (S = {0}, the data each GPU starts with and must end up with summed)", "到目前为止每张卡的字节数（S = {0}，即每张卡开始时持有、最后要得到其总和的数据量）";

    // §1.3.2
    TreeTitle => "1.3.2 Tree AllReduce", "1.3.2 Tree AllReduce";
    TreeBody => "Organise the GPUs as a tree. Reduce: from the leaves to the root, each level adds up the gradients. Broadcast: from the root back to the leaves, each level passes the result on. The chapter says the root carries (N−1) × the data: true for a flat tree, a star in which every GPU talks to the root. A binary tree spreads that load; NCCL uses a double binary tree, two complementary binary trees that each carry half of the data.", "把 GPU 组织成树形结构。Reduce：从叶子到根，逐层累加梯度。Broadcast：从根到叶子，逐层广播结果。原文说根节点的通信量是 (N−1) × 数据量：这对扁平树（星形，每张卡都直接与根通信）成立。二叉树把这份负载分散开；NCCL 使用双二叉树：两棵互补的二叉树，各传一半数据。";
    TreeShape => "Tree shape", "树的形状";
    TreeFlat => "Flat (star)", "扁平树（星形）";
    TreeBinary => "Binary", "二叉树";
    TreeDouble => "Double binary", "双二叉树";
    TreeLoadTitle => "Bytes each GPU sends and receives, in units of S", "每张卡发送和接收的字节数（以 S 为单位）";
    TreeReadout => "Root (GPU {0}) receives {1} × S and sends {2} × S. The busiest GPU moves {3} × S each way; in a ring every GPU moves {4} × S.", "根节点（GPU {0}）接收 {1} × S、发送 {2} × S。最忙的卡单向传输 {3} × S；环形中每张卡单向只需 {4} × S。";
    TreeTime => "Allreduce time for S = {0}: tree {1} ({2} segments), ring {3}.", "S = {0} 时 AllReduce 耗时：树形 {1}（{2} 段流水线），环形 {3}。";
    SecondTree => "second tree", "第二棵树";
    FirstTree => "first tree", "第一棵树";
    Root => "root", "根";

    // §1.4
    CompareTitle => "1.4 Comparing them, and how to choose", "1.4 拓扑对比与选型建议";
    CompareTableCaption => "The chapter's comparison", "原文的对比";
    Feature => "Feature", "特性";
    RowVolume => "Communication volume", "通信量";
    RowLatency => "Latency", "延迟";
    RowUse => "Where it fits", "适用场景";
    RowComplexity => "Implementation complexity", "实现复杂度";
    RingVolume => "Fixed (about 2 × the data)", "固定（约 2 倍数据量）";
    TreeVolume => "Grows linearly with the GPU count", "随 GPU 数线性增长";
    RingLatency => "Higher (data goes all the way round)", "较高（数据要绕一圈）";
    TreeLatency => "Lower (tree structure)", "较低（树形结构）";
    RingUse => "Homogeneous clusters, inside a node", "同构集群、单节点内";
    TreeUse => "Across racks, uneven bandwidth", "跨机柜、异构带宽";
    RingComplexity => "Low (NCCL supports it natively)", "低（NCCL 原生支持）";
    TreeComplexity => "Medium (needs manual tuning)", "中（需要手动调优）";
    CompareBody => "The chapter's habit: ring inside a node, tree across nodes — but not absolutely. Its two scenarios, simulated: 2 racks × 2 nodes × 8 GPUs allreduce BERT-large's gradients; the tree is binomial and pipelined.", "原文的习惯：单节点内用 Ring，跨节点用 Tree——但这不是绝对的。下面模拟原文的两个场景：2 个机柜 × 2 个节点 × 8 张卡，同步 BERT-large 的梯度；树为流水线化的二项树。";
    Scenario => "Scenario", "场景";
    Scenario800200 => "In-rack 800 Gbps, cross-rack 200 Gbps", "机柜内 800 Gbps，机柜间 200 Gbps";
    Scenario400800 => "In-rack 400 Gbps, cross-rack 800 Gbps", "机柜内 400 Gbps，机柜间 800 Gbps";
    InRackBandwidth => "In-rack bandwidth (node NIC)", "机柜内带宽（节点网卡）";
    CrossRackBandwidth => "Cross-rack bandwidth (rack uplink)", "机柜间带宽（机柜上行）";
    AllreduceTime => "Allreduce time", "AllReduce 耗时";
    CrossRackBytes => "Bytes across the rack uplinks", "经过机柜上行链路的字节数";
    TreeWins => "The tree takes {0} of the ring's time here.", "这里树形的耗时只有环形的 {0}。";
    RingWins => "The ring takes {0} of the tree's time here.", "这里环形的耗时只有树形的 {0}。";
    CompareAdvice => "Don't trust any one topology blindly. Measure your own network with NCCL's tests (nccl-tests) before choosing; the full lab below runs a virtual version.", "不要迷信某种拓扑。实际选型前，先用 NCCL 的测试工具（nccl-tests）在你自己的网络上跑一遍；下面的完整实验室可以做虚拟测试。";

    // §1.5
    MapTitle => "1.5 Knowledge map", "1.5 知识体系总览";
    MapBody => "The chapter's ideas in one picture. Every box links to its section.", "本章的核心逻辑串成一张图。点击方框跳到对应小节。";
    MapRoot => "Cluster training", "集群训练";
    MapHardware => "Hardware architecture", "硬件架构";
    MapTopology => "Communication topology", "通信拓扑";
    MapParallel => "Parallel strategies (next chapters)", "并行策略（后续章节）";
    MapSpeedup => "Speedup: 8 GPUs ≠ 8×", "加速比：8 卡 ≠ 8 倍";
    MapLayers => "Four layers; the network is the short stave", "四层结构；网络是短板";
    MapRing => "Ring: Scatter-Reduce + AllGather", "Ring：Scatter-Reduce + AllGather";
    MapTree => "Tree: Reduce + Broadcast", "Tree：Reduce + Broadcast";
    MapChoose => "Compare and choose; measure first", "对比与选型：先测再定";
    MapClaims => "Every number, checked", "每个数字都经过核验";

    // Claims
    ClaimsTitle => "The chapter's claims, checked", "原文论断核验";
    ClaimsBody => "Every number the chapter states, next to what the simulation gives under the conditions you set. Change a condition and every verdict is computed again.", "原文中的每个数字，与模拟在你设定的条件下给出的结果并列。改变任一条件，所有结论都会重新计算。";
    Conditions => "Conditions", "条件";
    MessageSize => "Message size per GPU (S)", "每卡消息大小（S）";
    NodeNic => "Node NIC bandwidth", "节点网卡带宽";
    RackUplink => "Rack uplink bandwidth", "机柜上行带宽";
    AsInChapter => "as in the chapter", "按原文设定";
    ResetConditions => "Reset to the chapter's conditions", "恢复原文条件";
    VerdictChanged => "changed", "已改变";
    VerdictChangedNote => "Verdicts that the last change of conditions turned are marked “changed”.", "上一次改变条件后结论发生变化的行标有“已改变”。";
    ColSection => "Section", "小节";
    ColClaim => "The chapter says", "原文";
    ColValue => "Simulated", "模拟值";
    ColVerdict => "Verdict", "结论";
    ColWhy => "Why", "说明";
    VerdictHolds => "Holds", "成立";
    VerdictHoldsUnder => "Holds under these conditions", "有条件成立";
    VerdictDoesNotHold => "Does not hold", "不成立";
    ClaimError => "Cannot simulate these conditions: {0}", "无法模拟这些条件：{0}";
    ValuePerGpuVolume => "per-GPU volume", "每卡通信量";
    ValueTimeGrowth => "time, N → 2N", "时间，N → 2N";
    ValueRootVolume => "root volume", "根节点通信量";
    ValueRootOverRing => "root ÷ ring GPU", "根节点 ÷ 环形每卡";
    ValueLatencyRatio => "ring ÷ tree, 8 B message", "环形 ÷ 树形，8 字节消息";
    ValueCrossRackRatio => "ring ÷ tree, cross-rack bytes", "环形 ÷ 树形，跨机柜字节";
    ValueSpeedup => "speedup on 8 GPUs", "8 卡加速比";
    ValueCommShare => "communication share", "通信占比";
    ValueUtilisation => "GPU utilisation", "GPU 利用率";
    ValueRingOverTree => "ring time ÷ tree time", "环形耗时 ÷ 树形耗时";

    // The lab.
    LabTagline => "Watch AllReduce happen: real buffers, real reductions, a flow-level network. Every number below comes from the simulation.", "看 AllReduce 如何发生：真实的缓冲区、真实的归约、流级网络。下面每个数字都来自模拟。";
    LabFooter => "Keyboard: space plays or pauses, ← and → step between algorithm steps (while the lab is on screen). Everything runs in your browser, offline.", "键盘：空格播放或暂停，← 和 → 在算法步骤间前后移动（实验室在屏幕上时）。一切都在你的浏览器里离线运行。";
    Algorithm => "Algorithm", "算法";
    PipelineSegments => "Pipeline segments (trees, NCCL's shapes)", "流水线分段数（树形、NCCL 的形状）";
    Topology => "Topology", "拓扑";
    TopologyCluster => "cluster", "集群";
    TopologyUniform => "uniform (α-β)", "均匀（α-β 模型）";
    TopologyRail => "rail-optimized", "轨道优化";
    NicsPerNode => "NICs / node", "每节点网卡数";
    RailsPerNode => "GPUs (rails) / node", "每节点 GPU 数（轨道数）";
    Pxn => "PXN: cross rails over NVLink, not the spine", "PXN：经 NVLink 跨轨道，不走主干";
    PxnExplain => "With PXN (as NCCL does), a message for another rail first hops over NVLink to the GPU of its own node on that rail and leaves through that GPU's NIC; without it, it climbs to the spine.", "开启 PXN（NCCL 的做法）时，发往另一条轨道的消息先经 NVLink 跳到本节点位于该轨道的 GPU，再从它的网卡发出；关闭时则上行到主干交换机。";
    ShapeRail => "{0} node(s) × {1} GPU(s), one NIC per GPU on {1} rail(s)", "{0} 个节点 × {1} 张卡，每卡一块网卡，共 {1} 条轨道";
    ShapeNics => ", {0} NICs per node", "，每节点 {0} 块网卡";
    TierRailNic => "GPU ↔ rail leaf switch (its own NIC)", "GPU ↔ 轨道叶交换机（自己的网卡）";
    TierRailSpine => "Rail leaf ↔ spine", "轨道叶交换机 ↔ 主干";
    PresetSuperpodTitle => "DGX H100 SuperPOD-style: 4 nodes, 8 rails", "DGX H100 SuperPOD 式：4 个节点，8 条轨道";
    PresetSuperpodText => "4 nodes × 8 H100 (NVLink 450 GB/s), one 400 Gbps NIC per GPU; NIC i of every node on rail i, rails joined by a spine; PXN on.", "4 个节点 × 8 张 H100（NVLink 450 GB/s），每卡一块 400 Gbps 网卡；各节点的第 i 块网卡接在第 i 条轨道上，轨道之间经主干相连；开启 PXN。";
    AlgNoteNcclRing => "nccl-ring: one ring per channel, one channel per NIC (per rail). Each ring runs through a node's GPUs over NVLink and leaves and enters every node on its channel's NIC, so all NICs carry traffic at once; the textbook ring crosses each node boundary on one NIC only.", "NCCL 环：每个通道一个环，每块网卡（每条轨道）一个通道。每个环在节点内经 NVLink 走过所有 GPU，并通过本通道的网卡进出每个节点，因此所有网卡同时工作；教科书式的环每个节点边界只用一块网卡。";
    AlgNoteNcclTree => "nccl-tree: inside each node the GPUs form a chain; across nodes the chain heads form a double binary tree (two complementary trees, half the data each), pipelined. Only the heads use the network, and each node's NICs carry the least any allreduce needs, 2(M−1)/M × S; the textbook trees span every GPU.", "NCCL 树：节点内 GPU 串成一条链；节点之间由各链的首 GPU 组成双二叉树（两棵互补的树，各传一半数据），并流水线化。只有链首使用网络，每个节点网卡的流量是任何 allreduce 的最小值 2(M−1)/M × S；教科书式的树则跨越每张卡。";
    GpuCount => "GPUs", "GPU 数";
    GpusPerNode => "GPUs / node", "每节点 GPU 数";
    NodesPerRack => "Nodes / rack", "每机柜节点数";
    ShapeUniform => "{0} ranks on one ideal switch", "{0} 个进程接在一台理想交换机上";
    ShapeCluster => "{0} rack(s) × {1} node(s) × {2} GPU(s)", "{0} 个机柜 × {1} 个节点 × {2} 张卡";
    TierPort => "Port (each rank ↔ switch)", "端口（每个进程 ↔ 交换机）";
    TierGpu => "GPU ↔ node switch (NVLink)", "GPU ↔ 节点交换机（NVLink）";
    TierNode => "Node ↔ rack switch (NIC)", "节点 ↔ 机柜交换机（网卡）";
    TierRack => "Rack ↔ spine (cross-rack)", "机柜 ↔ 主干（跨机柜）";
    Bandwidth => "bandwidth", "带宽";
    Latency => "latency", "延迟";
    LatencyIdeal => "0 (ideal)", "0（理想）";
    LabMessageSize => "Message size (per rank)", "消息大小（每个进程）";
    Compare => "Compare", "对比";
    SideBySideWith => " side by side with", " 并排对比";
    CommandLine => "Same run on the command line", "命令行上的同一次运行";
    CommandLineLabel => "command", "命令";
    TimeGroup => "Time", "时间";
    PreviousStep => "Previous step", "上一步";
    PreviousStepKey => "Previous step (←)", "上一步（←）";
    NextStep => "Next step", "下一步";
    NextStepKey => "Next step (→)", "下一步（→）";
    PlayKey => "Play (space)", "播放（空格）";
    PauseKey => "Pause (space)", "暂停（空格）";
    SimulatedTime => "Simulated time", "模拟时间";
    Speed => "speed", "速度";
    ResultVerified => "✓ verified", "✓ 结果已验证";
    ResultWrong => "✗ wrong result: {0}", "✗ 结果错误：{0}";
    ResultTime => "time", "耗时";
    LowerBoundLabel => "lower bound", "下界";
    LowerBoundRun => "{0} · run at {1} of it", "{0} · 实际达到下界的 {1}";
    Result => "result", "结果";
    LowerBoundIs => "Lower bound: {0} latency + {1} bandwidth, {2} dominates: {3}; and nothing crosses before one message latency (one, not ⌈log₂N⌉: ranks here send to many peers at once).", "下界：{0} 延迟 + {1} 带宽，{2}占主导：{3}；且一条消息的延迟过去之前没有数据能通过（是一条而非 ⌈log₂N⌉ 条：这里的进程可同时向多个对端发送）。";
    BoundTermLatency => "latency", "延迟";
    BoundTermBandwidth => "bandwidth", "带宽";
    BoundInjection => "every rank must send 2(N−1)/N × S and receive as much: 2(N−1)·S over the sum of the ranks' port bandwidths", "每个进程必须发送 2(N−1)/N × S，并接收同样多：即 2(N−1)·S 除以所有进程端口带宽之和";
    BoundNode => "the nodes' NICs are the tighter cut (the links that split the cluster into parts): the nodes together must exchange 2(M−1)·S over their NICs", "节点网卡是更紧的“割”（把集群分成两部分的一组链路）：M 个节点之间必须经各自的网卡交换 2(M−1)·S";
    BoundRack => "the racks' uplinks are the tighter cut (the links that split the cluster into parts): the racks together must exchange 2(K−1)·S over K uplinks", "机柜上行链路是更紧的“割”（把集群分成两部分的一组链路）：K 个机柜之间必须经 K 条上行链路交换 2(K−1)·S";
    AutoFastest => "{0} is the fastest of the simulated algorithms here (not NCCL's own choice): {1} vs {2} for the runner-up {3} (which takes {4} longer), out of {5} algorithms simulated on this scenario", "{0} 是这里模拟的算法中最快的（并非 NCCL 自己的选择）：{1}；第二名 {3} 为 {2}（多用 {4} 的时间），共在此场景上模拟了 {5} 种算法";
    AutoNothing => "{0} is the fastest of the simulated algorithms here (nothing to exchange)", "{0} 是这里模拟的算法中最快的（没有数据要交换）";
    RankSent => "Per rank, sent: {0} to {1}", "每个进程发送：{0} 到 {1}";
    RankSentSame => "Every rank sent {0}", "每个进程都发送了 {0}";
    RankSentCompare => " (ring: 2(N−1)/N × S = {0}; a flat tree's root: (N−1) × S = {1}).", "（环形：2(N−1)/N × S = {0}；扁平树的根节点：(N−1) × S = {1}）。";
    BusiestLink => "Busiest link: {0} carried {1}, busy {2} of the run.", "最忙的链路：{0}，传输了 {1}，运行中 {2} 的时间在忙。";
    SentRow => "sent", "发送";
    ReceivedRow => "received", "接收";
    SimulatedIn => "simulated in {0} ms · {1} transfers", "模拟耗时 {0} ms · {1} 次传输";
    ChosenByAuto => " (chosen by auto)", "（由自动选择）";
    FigureAria => "{0} GPUs; {1} transfers in flight", "{0} 张卡；{1} 次传输进行中";
    LegendBusier => "thicker, darker = busier (share of capacity)", "越粗越深 = 越忙（占容量的比例）";
    LegendChunk => "a chunk in flight: its colour is the chunk (of {0}), its fill how many of {1} ranks it holds", "传输中的数据块：颜色表示第几块（共 {0} 块），填充表示已含 {1} 个进程中多少个的贡献";
    LegendUnits => "{0} GPUs: one box per {1}, filled as its buffers complete; the bar on top is its GPUs' port load", "{0} 张卡：每个{1}一个方框，缓冲区完成时填满；顶部的条是其 GPU 的端口负载";
    UnitNode => "node", "节点";
    UnitRack => "rack", "机柜";
    PlaceGpu => "GPU {0}", "GPU {0}";
    PlaceNode => "node {0}", "节点 {0}";
    PlaceRack => "rack {0}", "机柜 {0}";
    PlaceSpine => "spine", "主干交换机";
    PlaceNic => "node {0} NIC {1}", "节点 {0} 网卡 {1}";
    PlaceRail => "rail {0}", "轨道 {0}";
    PlaceSwitch => "switch", "交换机";
    PlaceNetwork => "network", "网络";
    PlaceLink => "{0} → {1}", "{0} → {1}";
    PlaceCable => "{0} ↔ {1}", "{0} ↔ {1}";
    UnitGroup => "group of {0} ranks", "{0} 个进程一组";
    LinkHint => "Hover or tap a link to see its bandwidth, the bytes it carried and how busy it was.", "把鼠标移到或点按一条链路，查看它的带宽、传输的字节数和繁忙程度。";
    LinksOf => "{0} links of {1} ({2})", "{1} 的 {0} 条链路（{2}）";
    Up => "up", "上行";
    Down => "down", "下行";
    Carried => " · carried ", " · 已传输 ";
    BusySoFar => " so far · busy ", " · 繁忙 ";
    OfTheTime => " of the time so far", "（至今的时间占比）";
    Buffers => "Buffers", "缓冲区";
    BuffersDone => "{0} of {1} chunk cells hold every rank's contribution ({2}).", "{1} 个数据块格子中有 {0} 个已含所有进程的贡献（{2}）。";
    BuffersNote => " — {0} ranks × {1} chunks; a cell darkens as it gathers contributions", " — {0} 个进程 × {1} 个数据块；格子收集到越多贡献颜色越深";
    BuffersNoteOneChunk => " — {0} ranks × 1 chunk (the whole message); a cell darkens as it gathers contributions", " — {0} 个进程 × 1 个数据块（整条消息）；格子收集到越多贡献颜色越深";
    BuffersPerCell => " ({0} chunks per cell)", "（每格 {0} 个数据块）";
    BufferRowTitle => "GPU {0}: each cell darkens as it gathers the {1} ranks' contributions", "GPU {0}：格子收集 {1} 个进程的贡献时逐渐变深";
    TimelineTitle => "When each link was busy", "每条链路何时繁忙";
    TimelineNote => " — {0} links: cross-rack uplinks first, then NICs, then GPU links, busiest first in each; darker = closer to capacity", " — {0} 条链路：先是跨机柜上行链路，再是网卡，然后是 GPU 链路，每层最繁忙的在前；越深 = 越接近容量";
    TierLegendPort => "rank port", "进程端口";
    TierLegendGpu => "NVLink (GPU ↔ node switch)", "NVLink（GPU ↔ 节点交换机）";
    TierLegendNode => "NIC (node ↔ rack switch)", "网卡（节点 ↔ 机柜交换机）";
    TierLegendRack => "uplink (rack ↔ spine)", "上行链路（机柜 ↔ 主干）";
    TierLegendRailNic => "NIC (GPU ↔ its rail's leaf switch)", "网卡（GPU ↔ 所在轨道的叶交换机）";
    TierLegendRailSpine => "uplink (rail leaf ↔ spine)", "上行链路（轨道叶交换机 ↔ 主干）";
    LegendRails => "above each rail's switch: its NICs' load now and the bytes they carried", "每条轨道交换机上方：其网卡当前的负载和已传输的字节";
    PresetNvlinkTitle => "8 GPUs on NVLink", "NVLink 上的 8 张卡";
    PresetNvlinkText => "One node: 8 H100 GPUs behind NVSwitches, 450 GB/s per direction each (A100: 300). Inside a node the ring wins.", "一个节点：8 张 H100 接在 NVSwitch 上，每张卡每个方向 450 GB/s（A100 为 300 GB/s）。节点内环形胜出。";
    PresetTwoNodesTitle => "2 nodes on 400 Gbps", "400 Gbps 上的 2 个节点";
    PresetTwoNodesText => "Two 8-GPU nodes joined by one 400 Gbps NIC each: the network is the short stave, and the hierarchical allreduce crosses it least.", "两个 8 卡节点，各用一块 400 Gbps 网卡相连：网络是短板，分层 AllReduce 跨网卡的流量最少。";
    PresetRacksTitle => "2 racks: 800 Gbps inside, 200 across", "2 个机柜：柜内 800 Gbps，跨柜 200";
    PresetRacksText => "The chapter's 2 racks × 2 nodes × 8 GPUs: fast in-rack network, slow cross-rack uplinks; a pipelined tree crosses less and wins.", "原文的 2 个机柜 × 2 个节点 × 8 张卡：柜内网络快、跨机柜上行链路慢；流水线化的树跨柜更少，胜出。";
    PresetInvertedTitle => "Inverted: 400 inside, 800 across", "反转：柜内 400，跨柜 800";
    PresetInvertedText => "The seed's inverted case on the same 2 racks × 2 nodes × 8 GPUs: in-rack 400 Gbps, cross-rack 800 Gbps; the ring wins.", "原文中的反转情形，同样是 2 个机柜 × 2 个节点 × 8 张卡：柜内 400 Gbps，跨机柜 800 Gbps；环形胜出。";
    SegmentsWinsOnlyPipelined => "The tree wins here only because it is pipelined into {0} segments: unpipelined it takes {1}, slower than {2}’s {3}.", "树在这里胜出全靠流水线（分成 {0} 段）：不分段时它要 {1}，比{2}的 {3} 慢。";
    SegmentsWouldWin => "Unpipelined the tree loses here; split into {0} segments it takes {1} and beats {2}’s {3}. Try the pipeline segments slider.", "不分段时树在这里落后；分成 {0} 段后它只要 {1}，快过{2}的 {3}。试试“流水线分段数”滑块。";
    AlgRing => "ring", "环形";
    AlgTreeFlat => "tree-flat", "扁平树";
    AlgTreeBinomial => "tree-binomial", "二项树";
    AlgTreeBinary => "tree-binary", "二叉树";
    AlgDoubleBinaryTree => "double-binary-tree", "双二叉树";
    AlgRecursiveDoubling => "recursive-doubling", "递归倍增";
    AlgRabenseifner => "rabenseifner", "Rabenseifner 算法";
    AlgHierarchical => "hierarchical", "分层";
    AlgNcclRing => "nccl-ring", "NCCL 环";
    AlgNcclTree => "nccl-tree", "NCCL 树";
    AlgAuto => "auto", "自动";
    ChangeHardware => "hardware {0} instead of {1}", "硬件改为 {0}（原为 {1}）";
    ChangeNic => "node NICs {0} Gbps instead of {1} Gbps", "节点网卡改为 {0} Gbps（原为 {1} Gbps）";
    ChangeModel => "{0} instead of {1}", "模型改为 {0}（原为 {1}）";
    ChangeOverlap => "overlap {0} instead of {1}", "重叠改为 {0}（原为 {1}）";
    TrafficTable => "Bytes sent and received per GPU", "每张卡发送和接收的字节数";
    FilesGroup => "Files", "文件";
    ExportScenario => "Export scenario (JSON)", "导出场景（JSON）";
    ImportScenario => "Import scenario (JSON)…", "导入场景（JSON）…";
    ExportTrace => "Export trace (Perfetto / chrome://tracing)", "导出时间线（Perfetto / chrome://tracing）";
    ExportCsv => "Export results (CSV)", "导出结果（CSV）";
    GpusRefusedFrom => "From {0} GPUs the algorithm(s) shown need more memory or work than the browser allows, by the core's estimate (greyed). Run them with the command line.", "按核心的估算，从 {0} 张卡起，所示算法所需的内存或计算量超出浏览器的上限（灰色部分）。请用命令行运行。";
    NothingToPlay => "— not run", "— 未运行";
    TooLargeHere => " — too large here", " — 此处规模过大";
    RefusedRun => "{0} on {1} GPUs is too large for the browser by the core's estimate ({2} transfers, about {3} of memory). Pick fewer GPUs or another algorithm, or run the command line shown in the controls.", "按核心的估算，{0} 在 {1} 张卡上对浏览器来说规模过大（{2} 次传输，约需 {3} 内存）。请减少卡数或换一种算法，或运行控制面板中显示的命令行。";
    ExportSvg => "Figure as SVG (1920×1080)", "图导出为 SVG（1920×1080）";
    ExportPng => "Figure as PNG (1920×1080)", "图导出为 PNG（1920×1080）";
    ImportError => "This file could not be imported; the scenario is unchanged. The problem: ", "无法导入此文件，场景保持不变。问题：";
    Simulating => "Simulating…", "正在模拟…";
    PreparingRun => "Preparing the run…", "正在准备运行…";
    CancelRun => "Cancel", "取消";
    RunCancelled => "Simulation cancelled.", "模拟已取消。";
    RunAgain => "Run it", "重新运行";
    UrlError => "This link's settings could not be used, so the lab shows the default scenario. The problem: ", "无法使用此链接中的设置，实验室显示的是默认场景。问题：";

    // The scaling section.
    ScalingTitle => "Speedup versus one GPU", "相对单卡的加速比";
    ScalingLede => "8 GPUs do not give 8×. Each step, every GPU computes, reads its input from shared storage and allreduces its gradients; whatever communication the backward pass cannot hide is added to the step. Pick one of the chapter's scenarios, then change the network and watch the claim hold or break. Every point below is a simulated allreduce.", "8 张卡给不了 8 倍。每一步，每张卡都要计算、从共享存储读取输入、再对梯度做 AllReduce；反向传播藏不住的通信时间都会加到这一步上。选一个原文中的场景，再改变网络，看论断成立还是被打破。下面每个点都是一次模拟的 AllReduce。";
    ChapterScenarios => "The chapter's scenarios", "原文中的场景";
    Hardware => "Hardware", "硬件";
    Model => "Model", "模型";
    NodeNics => "Node NICs (network bandwidth per node)", "节点网卡（每个节点的网络带宽）";
    Overlap => "Overlap with the backward pass", "与反向传播的重叠";
    Algorithms => "Algorithms", "算法";
    TreeSegmentsNote => "Trees are pipelined in {0} segments (fewer beyond {1} GPUs, to keep ranks × segments ≤ 1024).", "树形算法以 {0} 段流水线执行（超过 {1} 张卡时减少段数，使进程数 × 段数 ≤ 1024）。";
    SweepAt => "Sweep and highlight at", "扫描并突出显示";
    PointsDone => "{0} points simulated in {1} ms", "已模拟 {0} 个点，耗时 {1} ms";
    PointsRunning => "simulating… {0} of {1} points", "模拟中… {1} 个点中的 {0} 个";
    SpeedupVsCount => "Speedup vs GPU count", "加速比与 GPU 数";
    SpeedupNote => "{0} · {1} of gradients · N × T(1) / T(N), same per-GPU batch", "{0} · 梯度 {1} · N × T(1) / T(N)，每卡批量相同";
    SpeedupChartTitle => "Speedup versus one GPU for each algorithm, with the ideal line", "各算法相对单卡的加速比，附理想线";
    GpusLog => "GPUs (log scale)", "GPU 数（对数坐标）";
    SpeedupLog => "speedup vs 1 GPU (×, log scale)", "相对单卡的加速比（倍，对数坐标）";
    Ideal => "ideal (N×)", "理想（N 倍）";
    WhereTimeGoes => "Where a step's time goes: ", "一步的时间花在哪里：";
    BreakdownNote => "stacked: compute, exposed storage IO, exposed communication; {0} GPUs highlighted", "堆叠：计算、未被掩盖的存储 IO、未被掩盖的通信；突出显示 {0} 卡";
    BreakdownTitle => "Step time broken into compute, exposed IO and exposed communication", "一步的时间分解为计算、未被掩盖的存储 IO 和未被掩盖的通信";
    PartCompute => "compute", "计算";
    PartIo => "exposed IO", "未被掩盖的存储 IO";
    PartComm => "exposed communication", "未被掩盖的通信";
    StepTimeAxis => "step time", "每步时间";
    GpusAxis => "GPUs", "GPU 数";
    SweepTitle => "Virtual nccl-tests: time vs message size, {0} GPUs", "虚拟 nccl-tests：时间与消息大小，{0} 卡";
    SweepLike => "like ", "模拟 ";
    SweepNote => ", simulated; dashed markers: where the fastest algorithm changes", "；虚线标记：最快算法发生变化的位置";
    SweepChartTitle => "Allreduce time versus message size for each algorithm", "各算法的 AllReduce 时间与消息大小";
    SizeLog => "message size (bytes per GPU, log scale)", "消息大小（每卡字节数，对数坐标）";
    TimeLog => "time (log scale)", "时间（对数坐标）";
    BusbwTitle => "Bus bandwidth vs message size, {0} GPUs", "总线带宽与消息大小，{0} 卡";
    BusbwNote => "busbw = size / time × 2(N−1)/N, as nccl-tests reports it", "busbw = 大小 / 时间 × 2(N−1)/N，与 nccl-tests 的报告方式相同";
    BusbwChartTitle => "Bus bandwidth versus message size for each algorithm", "各算法的总线带宽与消息大小";
    BusBandwidth => "bus bandwidth", "总线带宽";
    SegmentsUsed => "Segments used at the focus count: {0}.", "该卡数下使用的分段数：{0}。";
    PerDirection => " Bandwidths are per direction; 1 GB/s = {0}.", " 带宽均为单向；1 GB/s = {0}。";
    Crossover => "fastest changes between {0} and {1}: {2} before, {3} after", "最快算法在 {0} 与 {1} 之间改变：之前是{2}，之后是{3}";
    PointAt => "{0}: {1} at {2}", "{0}：{2} 时 {1}";
    Simulated => "Simulated {0}: ", "模拟的{0}：";
    ChapterSays => " — the chapter says ", " — 原文说 ";
    Holds => "holds", "成立";
    DoesNotHold => "does not hold", "不成立";
    Because => "Because: ", "原因：";
    BecauseComputed => "{0} ({1} of fp32 gradients) on {2} GPUs of {3}: the ring sends {4} × {1} from every GPU, each step limited by {5}; {6} of the backward pass overlaps it.", "{0}（fp32 梯度 {1}）在 {2} 张 {3} 的卡上：环形 AllReduce 每张卡发送 {4} × {1}，每一步受限于{5}；反向传播的 {6} 与之重叠。";
    BecauseLargest => " The largest part of a step is {0}: {1} of {2}.", "一步中占比最大的是{0}：{2} 中的 {1}。";
    SlowestGpuLink => "the GPU links at {0}", "GPU 链路 {0}";
    SlowestNic => "the node NICs at {0}", "节点网卡 {0}";
    SlowestUplink => "the rack uplinks at {0}", "机柜上行链路 {0}";
    ChapterBecause => "In the chapter's setting: ", "原文设定：";
    ClusterLabel => "Cluster", "集群";
    TrainingLabel => "Training", "训练";
    ClusterShape => "{0} rack(s) × {1} node(s) × {2} GPUs = {3} GPUs", "{0} 个机柜 × {1} 个节点 × {2} 张卡 = {3} 张卡";
    ClusterLinks => "GPU link {0} GB/s, node NICs {1} Gbps, rack uplink {2} Gbps (per direction)", "GPU 链路 {0} GB/s，节点网卡 {1} Gbps，机柜上行 {2} Gbps（单向）";
    TrainingText => "{0} of fp32 gradients, {1} compute per step, {2} of the backward pass overlapped, storage {3}/s shared", "fp32 梯度 {0}，每步计算 {1}，反向传播重叠 {2}，共享存储 {3}/s";
    AllreduceWith => "allreduce: {0}", "AllReduce 算法：{0}";
    ChangedFrom => "Changed from the chapter's setup: ", "相对原文设置的改动：";
    RingVsTree => " (ring {0} vs pipelined binomial tree {1})", "（环形 {0}，流水线二项树 {1}）";
    StepDetail => " (step {0}: compute {1}, exposed IO {2}, exposed communication {3} of a {4} allreduce)", "（每步 {0}：计算 {1}，未被掩盖的存储 IO {2}；AllReduce 共 {4}，其中未被掩盖的通信 {3}）";
    Under => "under {0}", "低于 {0}";
    Over => "over {0}", "高于 {0}";
    MetricSpeedup => "speedup", "加速比";
    MetricCommShare => "communication share", "通信占比";
    MetricUtilisation => "GPU utilisation", "GPU 利用率";
    MetricRingOverTree => "ring time / tree time", "环形耗时 / 树形耗时";
    ShortEight => "8 GPUs give 6–7×", "8 张卡只有 6–7 倍";
    ShortBad => "Bad topology (flat tree): under 4×", "拓扑不当（扁平树）：不到 4 倍";
    ShortNet => "100 Gbps: comm over 40%", "100 Gbps：通信超过 40%";
    ShortIo => "IO-bound: 30% GPU use", "IO 瓶颈：GPU 利用率 30%";
    ShortRacks => "800 in-rack / 200 across: tree wins", "柜内 800 / 跨柜 200：树形胜出";
    ShortInverted => "400 in-rack / 800 across: ring wins", "柜内 400 / 跨柜 800：环形胜出";
    ClaimEight => "§1.1: 8 GPUs are not 8× — 6–7× is typical", "§1.1：8 张卡不是 8 倍——通常是 6–7 倍";
    BecauseEight => "BERT-large with fp32 gradients (1.36 GB) on an 8-GPU PCIe Gen4 server without peer-to-peer: the ring moves 1.75 × 1.36 GB per GPU at the 14.5 GB/s busbw such a box measures, and DDP's gradient buckets hide part of it under 60% of the backward pass. The 6–7× rests on all three: without overlap it is about 5×, with NVLink nearly 8×", "BERT-large 的 fp32 梯度（1.36 GB）在一台无 P2P 的 8 卡 PCIe Gen4 服务器上：环形每卡传输 1.75 × 1.36 GB，速度为这类机器实测的 14.5 GB/s busbw，DDP 的梯度分桶让 60% 的反向传播时间掩盖了一部分通信。6–7 倍取决于这三点：没有重叠约 5 倍，换成 NVLink 接近 8 倍";
    ClaimBad => "§1.1: with a badly chosen topology, not even 4×", "§1.1：拓扑选得不好，连 4 倍都到不了";
    BecauseBad => "The same BERT-large job on the same 8-GPU PCIe box, but the gradients flow through a flat tree (a star): the root receives 7 × 1.36 GB and sends as much back, while in the ring each GPU moves 1.75 × 1.36 GB each way", "同样的 BERT-large 任务、同一台 8 卡 PCIe 服务器，但梯度走扁平树（星形）：根节点要接收 7 × 1.36 GB，再发回同样多；而环形中每卡每个方向只传 1.75 × 1.36 GB";
    ClaimNet => "§1.2: a 100 Gbps network made communication over 40% of training time", "§1.2：100 Gbps 网络让通信占到训练时间的 40% 以上";
    BecauseNet => "BERT-large on 4 nodes × 8 GPUs with one 100 Gbps NIC per node and no overlap: the NIC is the short stave", "BERT-large 在 4 个节点 × 8 张卡上，每节点一块 100 Gbps 网卡、没有重叠：网卡就是短板";
    ClaimIo => "§1.2: storage IO saturated and GPU utilisation dropped to 30%", "§1.2：存储 IO 饱和，GPU 利用率降到 30%";
    BecauseIo => "ResNet-50 on 4 DGX A100 (32 GPUs) reading 28 MB of images per GPU per step from a Lustre system that delivers 2.8 GB/s in total: loading takes ~3× the compute", "ResNet-50 在 4 台 DGX A100（32 张卡）上，每卡每步从总共只提供 2.8 GB/s 的 Lustre 存储读取 28 MB 图片：加载时间约为计算的 3 倍";
    ClaimRacks => "§1.3.2: 800 Gbps inside racks, 200 Gbps across: the ring's cross-rack traffic is the bottleneck and a tree does better", "§1.3.2：柜内 800 Gbps、跨柜 200 Gbps：环形的跨机柜流量成为瓶颈，树形更好";
    BecauseRacks => "2 racks × 2 DGX-class nodes with 800 Gbps NICs and 200 Gbps rack uplinks; BERT-large gradients; the tree is binomial, pipelined in 32 segments", "2 个机柜 × 2 个 DGX 级节点，800 Gbps 网卡、200 Gbps 机柜上行；BERT-large 梯度；树为二项树，分 32 段流水线";
    ClaimInverted => "§1.4: in-rack 400 Gbps but cross-rack 800 Gbps — the ring wins again", "§1.4：柜内 400 Gbps 而跨柜 800 Gbps——环形再次胜出";
    BecauseInverted => "The same 2 racks × 2 nodes, now with 400 Gbps NICs and 800 Gbps uplinks: bandwidth across racks is no longer the bottleneck", "同样的 2 个机柜 × 2 个节点，现在是 400 Gbps 网卡和 800 Gbps 上行：跨机柜带宽不再是瓶颈";
    HwPcie => "8-GPU PCIe Gen4 server", "8 卡 PCIe Gen4 服务器";
    HwPcieSource => "8 GPUs on PCIe 4.0 x16 without peer-to-peer: an 8-GPU ring through the CPUs reaches about 14.5 GB/s busbw (published all_reduce_perf, 8× RTX 4090, 128 MB) — far below the ~25 GB/s of one host↔device copy; 100 Gbps NIC", "8 张卡走 PCIe 4.0 x16、无 P2P：经处理器中转的 8 卡环形约 14.5 GB/s busbw（公开的 nccl-tests 测量结果，8 张 RTX 4090，128 MB），远低于单次主机↔显卡拷贝的约 25 GB/s；100 Gbps 网卡";
    HwA100Source => "NVIDIA DGX A100 datasheet: NVLink 3 600 GB/s bidirectional (300 GB/s per direction) per GPU, 8× 200 Gbps HDR InfiniBand (about 1 µs per message)", "NVIDIA DGX A100 规格：每卡 NVLink 3 双向 600 GB/s（单向 300 GB/s），8 × 200 Gbps HDR InfiniBand（每条消息约 1 µs）";
    HwH100Source => "NVIDIA DGX H100 datasheet: NVLink 4 900 GB/s bidirectional (450 GB/s per direction) per GPU, 8× 400 Gbps NDR InfiniBand (about 1 µs per message)", "NVIDIA DGX H100 规格：每卡 NVLink 4 双向 900 GB/s（单向 450 GB/s），8 × 400 Gbps NDR InfiniBand（每条消息约 1 µs）";
    HwRoce => "RoCE cluster (8× A100, 2× 100 GbE)", "RoCE 集群（8 × A100，2 × 100 GbE）";
    HwRoceSource => "A typical Ethernet build: A100 SXM with NVLink 300 GB/s per direction, two 100 GbE RoCE NICs per node (about 2.5 µs per message through an Ethernet switch)", "典型的以太网方案：A100 SXM，NVLink 单向 300 GB/s，每节点两块 100 GbE RoCE 网卡（经以太网交换机，每条消息约 2.5 µs）";
    Hw100g => "The chapter's 100 Gbps cluster", "原文中的 100 Gbps 集群";
    Hw100gSource => "Course chapter §1.2: plenty of GPU compute, but a 100 Gbps network", "课程原文 §1.2：GPU 算力充足，但网络只有 100 Gbps";
    HwOnePerServer => "8 single-GPU servers on 50 Gbps Ethernet", "8 台单卡服务器，50 Gbps 以太网";
    HwOnePerServerSource => "A cloud-style build: one GPU per instance, 50 GbE between instances", "云上常见方案：每个实例一张卡，实例间 50 GbE";
    HwRacks => "2 racks: 800 Gbps in-rack, 200 Gbps cross-rack", "2 个机柜：柜内 800 Gbps，跨柜 200 Gbps";
    HwRacksSource => "Course chapter §1.3.2", "课程原文 §1.3.2";
    HwInverted => "2 racks: 400 Gbps in-rack, 800 Gbps cross-rack", "2 个机柜：柜内 400 Gbps，跨柜 800 Gbps";
    HwInvertedSource => "Course chapter §1.4", "课程原文 §1.4";
    ModelResnetSource => "He et al. 2015; torchvision counts 25,557,032 parameters. Batch 256 images per GPU (~110 KB JPEG each), ~0.1 s per step", "He 等，2015；torchvision 统计为 25,557,032 个参数。每卡批量 256 张图片（每张约 110 KB JPEG），每步约 0.1 秒";
    ModelBertSource => "Devlin et al. 2018: 340 M parameters. Batch 16 × 512 tokens per GPU, ~0.25 s per step", "Devlin 等，2018：3.4 亿参数。每卡批量 16 × 512 个词元，每步约 0.25 秒";
    ModelGpt2Source => "Radford et al. 2019: 1.56 B parameters (1,557,611,200). Batch 8 × 1024 tokens per GPU, ~0.8 s per step", "Radford 等，2019：15.6 亿参数（1,557,611,200）。每卡批量 8 × 1024 个词元，每步约 0.8 秒";
    Model10b => "A 10 B-parameter model", "一个 100 亿参数的模型";
    Model10bSource => "A dense 10 B transformer, batch 4 × 2048 tokens per GPU, ~3 s per step (gradients alone: 40 GB in fp32). Plain data parallelism cannot train it: weights, gradients and Adam state take about 160 GB per GPU. It needs ZeRO/FSDP, which shards that state and moves the same volume as one reduce-scatter + allgather — what is simulated here", "一个 100 亿参数的稠密 Transformer，每卡批量 4 × 2048 个词元，每步约 3 秒（仅 fp32 梯度就有 40 GB）。纯数据并行无法训练它：权重、梯度和 Adam 状态每卡约需 160 GB。它需要 ZeRO/FSDP：把这些状态分片存放，通信量与一次 Reduce-Scatter + AllGather 相同——也就是这里模拟的量";
    VsSimulatedTime => "Simulated time at this size", "当前大小的模拟耗时";
    VsTimelineTitle => "Link use over the run ({0}); darker = busier", "整个运行过程中的链路占用（{0}）；颜色越深越忙";
    WhyPredictAnswer => "Simulated: {0}. On the same server with a flat tree instead of the ring, {1}. Now slide the GPU count below.", "模拟结果：{0}。同一台服务器改用扁平树而不是环形，则是 {1}。再拖动下面的卡数看看。";
    WhyPredictQuestion => "Predict first: BERT-large on one 8-GPU PCIe server, gradients summed by a ring. What speedup over one GPU?", "先猜一猜：在一台 8 卡 PCIe 服务器上训练 BERT-large，用环形汇总梯度。相对单卡的加速比是多少？";
    GuessUnderFour => "Under 4×", "不到 4 倍";
    GuessSixSeven => "6–7×", "6–7 倍";
    GuessEight => "About 8×", "接近 8 倍";
    ChipHint => "Checked under the chapter's own conditions; change them in the claims table", "按原文自身的条件核验；可在论断核验表中修改条件";
    ClaimsHere => "What the chapter claims here, checked", "原文在这里的论断及核验";
    BarrelNote => "One slow NIC and the whole ring runs at its speed: every step waits for the chunk crossing it. The tree does no better here: all of node 1's gradients must leave through that NIC. A late GPU holds everyone up until it joins.", "只要一块网卡慢下来，整个环就以它的速度运行：每一步都要等经过它的那块数据。这里树形也好不到哪里去：节点 1 的梯度都必须经过这块网卡。一张卡晚到，所有人都要等它。";
    BarrelReadout => "The network story's allreduce (32 GPUs, 100 Gbps NICs): ring {0} (busbw {1}), pipelined double binary tree {2}. Speedup on 32 GPUs: {3} (all healthy: {4}).", "网络故事中的 AllReduce（32 张卡，100 Gbps 网卡）：环形 {0}（busbw {1}），流水线双二叉树 {2}。32 卡加速比：{3}（全部正常时：{4}）。";
    BarrelLate => "GPU {0} joins late by", "GPU {0} 晚到";
    BarrelNic => "Node 1's NIC keeps", "节点 1 的网卡保留的带宽";
    BarrelTitle => "The shortest stave, live: slow one NIC, or make one GPU late", "木桶效应：调慢一块网卡，或者让一张卡晚到";
    RestoreCable => "Restore this cable", "恢复这条线缆";
    SlowCable => "Slow this cable to 25%", "把这条线缆调慢到 25%";
    ShortestStave => "The shortest stave: ", "木桶效应：";
    FaultLate => "GPU {0} joins {1} late", "GPU {0} 晚到 {1}";
    FaultSlow => "{0} keeps {1} of its bandwidth", "{0} 只剩 {1} 的带宽";
    FaultsHint => "The shortest stave (the barrel effect): click a link, then “Slow this cable”, or click a GPU to make it join late (a straggler).", "木桶效应：点一条链路，再点“把这条线缆调慢到 25%”；或者点一张卡，让它晚到（掉队者）。";
    YourGuess => "Your guess", "你的猜测";
    NavClaims => "Claims checked", "论断核验";
    NavMap => "1.5 Map", "1.5 总览";
    NavCompare => "1.4 Compare and choose", "1.4 对比与选型";
    NavTree => "1.3.2 Tree", "1.3.2 Tree";
    NavRing => "1.3.1 Ring", "1.3.1 Ring";
    NavLayers => "1.2 Cluster layers", "1.2 集群架构";
    NavWhy => "1.1 Core logic", "1.1 核心逻辑";
    VersusNav => "Ring vs Tree", "Ring 与 Tree 对比";
    VersusMoral => "The ring is bandwidth-optimal but its latency grows linearly with N; a pipelined tree keeps latency logarithmic. That is why NCCL uses both and picks one by size.", "环形的带宽最优，但延迟随 N 线性增长；流水线化的树把延迟保持在对数级。这正是 NCCL 两者都用、按消息大小选择的原因。";
    VsNcclToggle => "Also show NCCL on real hardware (the same GPU count on a system preset)", "同时显示真实硬件上的 NCCL（相同卡数，使用系统预设）";
    VsNcclRing => "NCCL ring (best protocol)", "NCCL 环形（最佳协议）";
    VsNcclTree => "NCCL tree (best protocol)", "NCCL 树形（最佳协议）";
    VsNcclRingAbove => "Like NCCL on {0} with {1}: its tree is faster below about {2}, its ring above.", "像 NCCL 在 {0}（{1}）上：约 {2} 以下它的树形更快，以上环形更快。";
    VsNcclTreeAbove => "Like NCCL on {0} with {1}: its ring is faster below about {2}, its tree above.", "像 NCCL 在 {0}（{1}）上：约 {2} 以下它的环形更快，以上树形更快。";
    VsNcclNoCrossover => "Like NCCL on {0} with {1}: its tree and ring curves do not cross between 8 B and 8 GiB.", "像 NCCL 在 {0}（{1}）上：树形与环形曲线在 8 B 到 8 GiB 之间没有交叉。";
    VsNcclPicks => "What NCCL picks at each size (algorithm/protocol; hover for its time and busbw):", "NCCL 在各消息大小下的选择（算法/协议；悬停可见时间与 busbw）：";
    VsNcclWhy => "The textbook curves count one latency and the bandwidth per hop. NCCL's also count its protocols (LL: lowest latency at half the wire rate; LL128; Simple: full rate, highest latency), its channels, launch cost and each link's real efficiency — so its crossover sits elsewhere. On one node its \"tree\" is a chain through the GPUs, and NVLink SHARP lets the switch add the data itself.", "教科书曲线每跳只计一次延迟和带宽。NCCL 的曲线还计入协议（LL：延迟最低、只用一半线速；LL128；Simple：全速、延迟最高）、通道、启动开销和每条链路的实际效率——所以它的交叉点在别处。单节点内它的“树”是一条穿过各卡的链，而 NVLink SHARP 让交换机自己完成相加。";
    VsNcclTooMany => "The page runs the NCCL overlay for up to {1} GPUs (the figure has {0}); the command line takes more:", "页面中 NCCL 叠加最多运行 {1} 张卡（图中为 {0} 张）；命令行可以运行更多：";
    VsNcclCrossoverLabel => "NCCL crossover", "NCCL 交叉点";
    RackLatency => "Rack uplink latency", "机柜上行延迟";
    NodeLatency => "NIC latency", "网卡延迟";
    IntraLatency => "GPU link latency", "GPU 链路延迟";
    IntraBandwidth => "GPU link (NVLink/PCIe)", "GPU 链路（NVLink/PCIe）";
    NoCrossover => "One algorithm is faster at every simulated size here.", "在这里模拟的所有大小下，都是同一种算法更快。";
    CrossoverTreeAbove => "The ring is faster below about {0}, the tree above (between the simulated sizes {1} and {2}).", "约 {0} 以下环形更快，以上树形更快（交叉点位于模拟的 {1} 与 {2} 之间）。";
    CrossoverRingAbove => "The tree is faster below about {0}, the ring above (between the simulated sizes {1} and {2}).", "约 {0} 以下树形更快，以上环形更快（交叉点位于模拟的 {1} 与 {2} 之间）。";
    SimulatingOf => "simulating… {0} of {1} runs", "模拟中……已完成 {1} 次中的 {0} 次";
    BandwidthPart => "Bandwidth part (this size, no latency)", "带宽部分（当前大小，延迟为 0）";
    LatencyPart => "Latency part (an 8-byte allreduce)", "延迟部分（8 字节的 AllReduce）";
    PredictAnswer => "Simulated: ring {0}, tree {1}; the {2} is faster. Now slide the GPU count and the size below to see where that changes.", "模拟结果：环形 {0}，树形 {1}；{2}更快。再拖动下面的卡数和消息大小，看看结论在哪里改变。";
    PredictWrong => "Not this time.", "这次没猜对。";
    PredictRight => "Right.", "猜对了。";
    PredictQuestion => "Predict first: at {0} on {1}, which is faster?", "先猜一猜：{1}、消息 {0} 时，哪个更快？";
    PredictTreeShort => "Tree", "树形";
    VersusTree => "Double binary tree, up to {0} segments of at least 32 KiB", "双二叉树，最多 {0} 段流水线（每段至少 32 KiB）";
    VersusRing => "Ring", "环形";
    TierUplinks => "Rack uplinks", "机柜上行";
    TierNics => "NICs", "网卡";
    TierGpuLinks => "GPU links", "GPU 链路";
    CrossoverLabel => "crossover", "交叉点";
    VersusChartTitle => "Allreduce time versus message size, ring and tree, with the crossover", "环形与树形的 AllReduce 时间随消息大小的变化，并标出交叉点";
    VersusBody => "One set of controls for both algorithms: the ring and the tree NCCL ships (a double binary tree, pipelined). The ring pays 2(N−1) latencies but moves the least data, 2(N−1)/N × S per GPU each way; the tree pays only about 2·log₂N latencies, but matches the ring's bandwidth only when it is pipelined. Slide the GPU count and watch the crossover move to larger messages; set 1 segment, or slow the rack uplink, and see what changes.", "两种算法共用一组控件：环形，以及 NCCL 实际采用的树（双二叉树，流水线化）。环形要付出 2(N−1) 次延迟，但传输的数据最少，每卡每个方向 2(N−1)/N × S；树形只需约 2·log₂N 次延迟，但只有流水线化之后，带宽才能与环形相当。拖动卡数，看交叉点如何移向更大的消息；把分段数设为 1，或者调慢机柜上行，看看有什么变化。";
    VersusTitle => "Ring or Tree? The chapter's comparison in one figure", "Ring 还是 Tree？一张图看懂本章的对比";
    NcclComplexity => "No manual tuning needed: NCCL builds both and chooses; NCCL_ALGO overrides the choice.", "无需手动调优：NCCL 同时构建两者并自动选择；NCCL_ALGO 可以覆盖这个选择。";
    SimComplexity => "A tree must be pipelined to compete: with 1 segment it takes several times the ring's time, with 32 it comes close (§1.3.2).", "树形必须流水线化才有竞争力：只有 1 段时耗时是环形的好几倍，分 32 段时就接近环形（§1.3.2）。";
    NcclUse => "Inside a node it uses rings (or NVLink SHARP on NVSwitch systems); across nodes it chooses per message size, not by a fixed rule.", "节点内用环形（在 NVSwitch 系统上还可用 NVLink SHARP）；跨节点时按消息大小选择，而不是按固定规则。";
    SimUse => "Across slow rack uplinks the pipelined tree crosses them less and wins; with fast uplinks the ring wins again (below).", "机柜上行较慢时，流水线化的树跨柜流量少，树形胜出；上行较快时，环形再次胜出（见下）。";
    NcclLatency => "Predicts each algorithm's time from its latency and bandwidth model and picks Ring or Tree per message size and GPU count automatically.", "按每种算法的延迟与带宽模型预测耗时，根据消息大小和卡数自动选择 Ring 或 Tree。";
    SimLatency => "The ring pays 2(N−1) latencies, a tree about 2·log₂N: the tree wins for small messages, the ring for large ones; the crossover moves to larger messages as N grows (figure above).", "环形要付出 2(N−1) 次延迟，树形约 2·log₂N 次：小消息时树形更快，大消息时环形更快；N 越大，交叉点越往大消息方向移动（见上图）。";
    NcclVolume => "Ships double binary trees since NCCL 2.4 (2019), so per-GPU tree traffic stays about 2 × S.", "自 NCCL 2.4（2019 年）起提供双二叉树，树形的每卡通信量保持在约 2 × S。";
    SimVolume => "The ring moves 2(N−1)/N × S per GPU in each direction (§1.3.1). Only the flat tree's root carries (N−1) × S; in a binary tree no GPU moves more than 3 × S each way, in a double binary tree about 2 × S (§1.3.2): bounded, whatever the GPU count.", "环形每卡每个方向传输 2(N−1)/N × S（§1.3.1）。只有扁平树的根节点承担 (N−1) × S；二叉树中任何一张卡单向都不超过 3 × S，双二叉树约为 2 × S（§1.3.2）：无论卡数多少都有上限。";
    NcclDoes => "What NCCL does: ", "NCCL 的做法：";
    SimShows => "Simulated here: ", "本应用的模拟：";
    BecauseSlowNet => "The same BERT-large job on 8 GPUs, but one GPU per server on 50 Gbps Ethernet: every ring step crosses a 6.25 GB/s NIC instead of PCIe. This is different hardware, not a badly chosen topology", "同样的 BERT-large 任务、8 张卡，但每台服务器只有一张卡，走 50 Gbps 以太网：环形每一步都要经过 6.25 GB/s 的网卡而不是 PCIe。这是换了硬件，而不是选错了拓扑";
    ClaimSlowNet => "§1.1: a network too slow for the job: not even 4×", "§1.1：网络太慢，连 4 倍都到不了";
    ShortSlowNet => "Network too slow: under 4×", "网络太慢：不到 4 倍";
    TreePipelineNote => "Real tree implementations pipeline: NCCL streams a tree in small chunks, so a GPU forwards one piece while the next arrives. Every tree in this chapter runs in {0} segments; set 1 to see why it matters.", "实际的树形实现都会流水线化：NCCL 把数据切成小块在树上流动，一张卡转发一块的同时，下一块已经在路上。本章所有的树都按 {0} 段流水线运行；设为 1 段，就能看出流水线为什么重要。";
    TreeSegments => "Pipeline segments", "流水线分段数";
    VerdictApproximately => "Approximately holds", "大致成立";
    StepFormBusy => "A step takes max(storage IO, compute + exposed communication): the next batch is prefetched while the GPUs compute and communicate. Here loading ({0}) fits underneath; compute and communication set the pace.", "一步的时间 = max(存储 IO, 计算 + 未被掩盖的通信)：GPU 计算和通信时，下一批数据已在预取。此处加载（{0}）完全被掩盖，节奏由计算和通信决定。";
    StepFormIo => "A step takes max(storage IO, compute + exposed communication): the next batch is prefetched while the GPUs compute and communicate. Here loading ({0}) takes longer and sets the pace.", "一步的时间 = max(存储 IO, 计算 + 未被掩盖的通信)：GPU 计算和通信时，下一批数据已在预取。此处加载（{0}）更慢，决定了每一步的节奏。";
    WhyBadTopology => "Same server, flat tree (a badly chosen topology)", "同一台服务器，扁平树（拓扑选得不好）";
}
}

#[cfg(target_arch = "wasm32")]
mod web {
    use super::{tr, Key, Lang};
    use yew::prelude::*;

    /// The current language and a way to change it.
    #[derive(Clone, PartialEq)]
    pub struct LangContext {
        pub lang: Lang,
        pub set: Callback<Lang>,
    }

    /// The language the browser prefers.
    pub fn detect() -> Lang {
        let window = web_sys::window();
        // A shared link's `lang=` wins over the browser's language.
        let from_link = window
            .as_ref()
            .and_then(|w| w.location().search().ok())
            .and_then(|q| {
                q.trim_start_matches('?')
                    .split('&')
                    .find_map(|p| p.strip_prefix("lang=").map(Lang::from_tag))
            });
        from_link.unwrap_or_else(|| {
            window
                .and_then(|w| w.navigator().language())
                .map_or(Lang::En, |tag| Lang::from_tag(&tag))
        })
    }

    /// Tells the page (and screen readers, and font selection) which language it is in.
    fn mark_document(lang: Lang) {
        if let Some(root) = gloo::utils::document().document_element() {
            let _ = root.set_attribute("lang", lang.tag());
        }
    }

    #[derive(Properties, PartialEq)]
    pub struct LangProviderProps {
        #[prop_or_default]
        pub children: Html,
    }

    /// Holds the language for everything inside it.
    #[component]
    pub fn LangProvider(props: &LangProviderProps) -> Html {
        let lang = use_state(detect);
        use_effect_with(*lang, |&l| mark_document(l));
        let set = {
            let lang = lang.clone();
            Callback::from(move |l: Lang| lang.set(l))
        };
        let context = LangContext { lang: *lang, set };
        html! {
            <ContextProvider<LangContext> {context}>
                { props.children.clone() }
            </ContextProvider<LangContext>>
        }
    }

    /// The current language (English outside a [`LangProvider`]).
    #[hook]
    pub fn use_lang() -> Lang {
        use_context::<LangContext>().map_or(Lang::En, |c| c.lang)
    }

    /// A button that switches to the other language; it names that language in its own words.
    #[component]
    pub fn LangSwitch() -> Html {
        let Some(ctx) = use_context::<LangContext>() else {
            return Html::default();
        };
        let lang = ctx.lang;
        let onclick = Callback::from(move |_| ctx.set.emit(lang.other()));
        html! {
            <button type="button" class="lang-switch" data-testid="lang-switch"
                    aria-label={tr(lang, Key::SwitchLanguage)} {onclick}>
                <span lang={lang.other().tag()}>{ tr(lang, Key::OtherLanguageName) }</span>
            </button>
        }
    }
}

#[cfg(target_arch = "wasm32")]
pub use web::{detect, use_lang, LangContext, LangProvider, LangSwitch};

#[cfg(test)]
mod tests {
    use super::*;

    fn has_cjk(s: &str) -> bool {
        s.chars().any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c))
    }

    #[test]
    fn every_key_has_english_without_chinese_and_chinese_with_chinese() {
        for &k in Key::ALL {
            let (en, zh) = k.texts();
            assert!(!en.is_empty() && !zh.is_empty(), "{k:?}");
            // The switch names Chinese in Chinese, by design.
            if k != Key::OtherLanguageName {
                assert!(!has_cjk(en), "{k:?} English has Chinese: {en}");
            }
            // The chapter's own headings for §1.3.1 and §1.3.2 are its English terms.
            let term_only = matches!(
                k,
                Key::OtherLanguageName
                    | Key::MapRing
                    | Key::MapTree
                    | Key::RingTitle
                    | Key::TreeTitle
                    | Key::NavRing
                    | Key::NavTree
                    | Key::PlaceGpu
                    | Key::PlaceLink
                    | Key::PlaceCable
            );
            assert!(
                has_cjk(zh) || term_only,
                "{k:?} Chinese is untranslated: {zh}"
            );
        }
    }

    #[test]
    fn every_core_text_the_ui_shows_has_chinese() {
        use crate::course::chapter::{CHAPTER_SCENARIOS, MODELS};
        use crate::course::presets::PRESETS;
        for p in &PRESETS {
            let (t, d) = preset_texts(Lang::Zh, p);
            assert!(has_cjk(t) && has_cjk(d), "preset {}", p.name);
        }
        for s in &CHAPTER_SCENARIOS {
            let (n, c, b) = scenario_texts(Lang::Zh, s);
            assert!(has_cjk(&n) && has_cjk(c) && has_cjk(b), "scenario {}", s.id);
        }
        for h in crate::ui::scaling_model::hardware_choices() {
            assert!(has_cjk(hardware_texts(Lang::Zh, &h).1), "hardware {}", h.id);
        }
        for m in &MODELS {
            assert!(has_cjk(model_texts(Lang::Zh, m).1), "model {}", m.id);
        }
        for &a in crate::sim::algorithms::Algorithm::ALL.iter() {
            assert!(has_cjk(algorithm_label(Lang::Zh, a)), "{a}");
        }
    }

    #[test]
    fn placeholders_match_between_languages() {
        for &k in Key::ALL {
            let (en, zh) = k.texts();
            for i in 0..6 {
                let p = format!("{{{i}}}");
                assert_eq!(en.contains(&p), zh.contains(&p), "{k:?} {p}");
            }
        }
    }

    #[test]
    fn places_are_worded_from_their_typed_ends() {
        use crate::sim::topology::Endpoint as E;
        use crate::ui::layout::Place as P;
        let link = P::Link {
            from: E::Nic(1, 2),
            to: E::Rail(2),
            uniform: false,
        };
        assert_eq!(place_name(Lang::En, &link), "node 1 NIC 2 → rail 2");
        assert_eq!(place_name(Lang::En, &link), link.to_string());
        assert_eq!(place_name(Lang::Zh, &link), "节点 1 网卡 2 → 轨道 2");
        let to_switch = P::Link {
            from: E::Rank(3),
            to: E::Spine,
            uniform: true,
        };
        assert_eq!(place_name(Lang::Zh, &to_switch), "GPU 3 → 交换机");
        assert_eq!(
            place_name(Lang::Zh, &P::Cable(E::NodeSwitch(1), E::RackSwitch(0))),
            "节点 1 ↔ 机柜 0"
        );
        assert_eq!(place_name(Lang::Zh, &P::End(E::Spine)), "主干交换机");
    }

    #[test]
    fn chinese_browser_tags_choose_chinese() {
        for tag in ["zh", "zh-CN", "zh-TW", "zh_Hans", "ZH-hk"] {
            assert_eq!(Lang::from_tag(tag), Lang::Zh, "{tag}");
        }
        for tag in ["en", "en-US", "", "de-DE", "ja"] {
            assert_eq!(Lang::from_tag(tag), Lang::En, "{tag}");
        }
    }

    #[test]
    fn numbers_follow_the_language() {
        assert_eq!(times(Lang::En, 6.42, 1), "6.4×");
        assert_eq!(times(Lang::Zh, 6.42, 1), "6.4 倍");
        assert_eq!(percent(Lang::Zh, 0.4213, 0), "42%");
        assert_eq!(gpus(Lang::En, 8), "8 GPUs");
        assert_eq!(gpus(Lang::Zh, 8), "8 张卡");
        assert_eq!(
            trf(Lang::Zh, Key::SpeedupOf, &["6.4 倍", "8 倍"]),
            "理想值为 8 倍，实际 6.4 倍"
        );
    }
}
