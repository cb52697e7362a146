//! The app's two languages: English and Chinese (the course chapter's own).
//!
//! Every string the interface shows is a [`Key`] with its English and Chinese text side by side in
//! one table, kept in one file per area (`page.rs`, `chapter.rs`, `lab.rs`,
//! `scaling.rs`, `nccl.rs`; each area's macro adds its rows and hands them on, and the last
//! declares `Key`). The core's errors are worded in [`errors`], with their own table. Leaving out
//! either text of a row is a compile error, and so is using a key no table has. Numbers are
//! formatted per language ([`times`], [`percent`]); SI units (GB, µs, Gbps) are the same in both.
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
//! In the browser, the `LangProvider` component holds the current language (detected from
//! `navigator.language`, switchable with `lang_switch`) and every component reads it with
//! `use_lang` (all three in this module's wasm32-only part).

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

/// A table of texts: each key has its English and Chinese (`strings!` declares one per area).
pub trait Text: Copy {
    /// (English, Chinese).
    fn texts(self) -> (&'static str, &'static str);
}

/// The text of `key` in `lang`.
pub fn tr(lang: Lang, key: impl Text) -> &'static str {
    let (en, zh) = key.texts();
    lang.pick(en, zh)
}

/// Replaces `{0}`, `{1}`, … in `template` with `args`, in one pass (an argument's own `{1}`, from
/// a file's name say, stays as it is). Where a Chinese template's character meets a Latin letter
/// or a digit of the argument it receives, a space goes between them, as the templates write
/// their own ("本应用把6 倍–7 倍" and "再是GPU 链路" became "把 6 倍–7 倍" and "再是 GPU 链路").
///
/// ```
/// use allreduce_lab::ui::i18n::fill;
/// assert_eq!(fill("先是{0}，再是{1}", &["网卡", "GPU 链路"]), "先是网卡，再是 GPU 链路");
/// assert_eq!(fill("本应用把{0}算作一致", &["6 倍"]), "本应用把 6 倍算作一致");
/// assert_eq!(fill("受限于{0}时", &["NIC"]), "受限于 NIC 时");
/// assert_eq!(fill("{0} and {1}", &["{1}", "b"]), "{1} and b");
/// assert_eq!(fill("ring {0} ({1})", &["8 GB", "x"]), "ring 8 GB (x)");
/// ```
pub fn fill(template: &str, args: &[&str]) -> String {
    let han = |c: Option<char>| c.is_some_and(|c| ('\u{3400}'..='\u{9fff}').contains(&c));
    let latin = |c: Option<char>| c.is_some_and(|c| c.is_ascii_alphanumeric() || c == '%');
    let mut out =
        String::with_capacity(template.len() + args.iter().map(|a| a.len()).sum::<usize>());
    let mut rest = template;
    while let Some(open) = rest.find('{') {
        let close = rest[open..].find('}').map(|c| open + c);
        let arg = close
            .and_then(|c| rest[open + 1..c].parse::<usize>().ok())
            .and_then(|i| args.get(i));
        let (Some(close), Some(arg)) = (close, arg) else {
            out.push_str(&rest[..=open]);
            rest = &rest[open + 1..];
            continue;
        };
        out.push_str(&rest[..open]);
        if han(out.chars().next_back()) && latin(arg.chars().next()) {
            out.push(' ');
        }
        out.push_str(arg);
        rest = &rest[close + 1..];
        if latin(arg.chars().next_back()) && han(rest.chars().next()) {
            out.push(' ');
        }
    }
    out.push_str(rest);
    out
}

/// [`tr`] then [`fill`].
pub fn trf(lang: Lang, key: impl Text, args: &[&str]) -> String {
    fill(tr(lang, key), args)
}

/// A whole number in groups of three digits: `2,095,104` (as both languages' tables write a count).
///
/// ```
/// use allreduce_lab::ui::i18n::grouped;
/// assert_eq!((grouped(7), grouped(1000), grouped(2_095_104)), ("7".into(), "1,000".into(), "2,095,104".into()));
/// ```
pub fn grouped(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, d) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(d);
    }
    out
}

/// A number with `digits` decimals.
pub fn number(x: f64, digits: usize) -> String {
    format!("{x:.digits$}")
}

/// A quantity a reader reads: in groups of three digits from 1,000, else three significant digits.
///
/// ```
/// use allreduce_lab::ui::i18n::amount;
/// assert_eq!((amount(62.06), amount(1820.4), amount(0.9998)), ("62.1".into(), "1,820".into(), "1".into()));
/// ```
pub fn amount(x: f64) -> String {
    if x >= 999.5 {
        grouped(x.round() as usize)
    } else {
        crate::sim::units::sig3(x)
    }
}

/// A large number in scientific form, the same in both languages: `1.2 × 10²¹`.
///
/// ```
/// use allreduce_lab::ui::i18n::scientific;
/// assert_eq!(scientific(1.2e21), "1.2 × 10²¹");
/// assert_eq!(scientific(1.56e14), "1.56 × 10¹⁴");
/// assert_eq!(scientific(999.0), "999");
/// ```
pub fn scientific(x: f64) -> String {
    if !(x.is_finite() && x >= 1000.0) {
        return crate::sim::units::sig3(x);
    }
    let mut e = x.log10().floor() as i32;
    let mut m = x / 10f64.powi(e);
    // Rounded to three figures, a mantissa may reach 10.
    if crate::sim::units::sig3(m) == "10" {
        e += 1;
        m /= 10.0;
    }
    const DIGITS: [char; 10] = ['⁰', '¹', '²', '³', '⁴', '⁵', '⁶', '⁷', '⁸', '⁹'];
    let power: String = e
        .to_string()
        .chars()
        .map(|c| DIGITS[c as usize - '0' as usize])
        .collect();
    format!("{} × 10{power}", crate::sim::units::sig3(m))
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

/// [`percent`], except that a share above zero never reads as zero: where its digits would all be
/// zeros it reads `< 0.1%` (`< 1%` with no decimals).
pub fn percent_above_zero(lang: Lang, share: f64, digits: usize) -> String {
    let shown = percent(lang, share, digits);
    if share > 0.0 && shown.bytes().all(|b| matches!(b, b'0' | b'.' | b'%')) {
        format!("< {:.digits$}%", 0.1f64.powi(digits as i32))
    } else {
        shown
    }
}

/// A count of GPUs: `8 GPUs` / `8 张卡`.
pub fn gpus(lang: Lang, n: usize) -> String {
    match (lang, n) {
        (Lang::En, 1) => "1 GPU".to_string(),
        (Lang::En, n) => format!("{n} GPUs"),
        (Lang::Zh, n) => format!("{n} 张卡"),
    }
}

/// A system preset as its menus name it: the machine, not the command line's id (which the
/// sentences about it keep, as the command line takes it), and its nodes when more than one.
///
/// ```
/// use allreduce_lab::ui::i18n::{Lang, system_title};
/// assert_eq!(system_title(Lang::En, "dgx-h100", 1), "DGX H100 · NVSwitch");
/// assert_eq!(system_title(Lang::En, "dgx-a100", 2), "DGX A100 · NVSwitch, 2 nodes");
/// assert_eq!(system_title(Lang::Zh, "dgx-a100", 2), "DGX A100 · NVSwitch，2 台");
/// assert_eq!(system_title(Lang::En, "pcie-gen4-8", 1), "8× RTX 4090 · PCIe Gen4, no P2P");
/// assert_eq!(system_title(Lang::En, "my-box", 1), "my-box");
/// ```
pub fn system_title(lang: Lang, id: &str, nodes: usize) -> String {
    let machine = match (lang, id) {
        (Lang::Zh, "pcie-gen4-8") => "8× RTX 4090 · PCIe Gen4，无 P2P",
        (_, id) => machine_name(id),
    };
    if nodes > 1 {
        trf(lang, Key::SystemNodes, &[machine, &nodes.to_string()])
    } else {
        machine.to_string()
    }
}

fn machine_name(id: &str) -> &str {
    match id {
        "dgx-a100" => "DGX A100 · NVSwitch",
        "dgx-h100" => "DGX H100 · NVSwitch",
        "dgx-h200" => "DGX H200 · NVSwitch",
        "dgx-b200" => "DGX B200 · NVSwitch",
        "pcie-gen4-8" => "8× RTX 4090 · PCIe Gen4, no P2P",
        "pcie-gen5-8" => "8× H100 PCIe · PCIe Gen5",
        other => other,
    }
}

/// A scaling chart's point as a learner reads it, naming a point that failed: `ring, 64 GPUs`,
/// `ring, 16 MB`, `NCCL, 64 GPUs`.
pub fn job_label(lang: Lang, job: &crate::ui::model::scaling_work::Job) -> String {
    use crate::sim::units::format_bytes;
    use crate::ui::model::scaling_work::Job;
    let (what, at) = match *job {
        Job::Speedup { algorithm, gpus: n } => (algorithm_label(lang, algorithm), gpus(lang, n)),
        Job::Sweep {
            algorithm,
            size_bytes,
        } => (
            algorithm_label(lang, algorithm),
            format_bytes(size_bytes as f64),
        ),
        Job::NcclSpeedup { gpus: n } => ("NCCL", gpus(lang, n)),
        Job::NcclSweep { size_bytes } => ("NCCL", format_bytes(size_bytes as f64)),
    };
    match lang {
        Lang::En => format!("{what}, {at}"),
        Lang::Zh => format!("{what}，{at}"),
    }
}

/// The scaling charts' failed points in one line, each its [`job_label`] and why:
/// `ring, 64 GPUs: why; NCCL, 8 GPUs: why` (in Chinese with `：` and `；`).
pub fn failed_points(
    lang: Lang,
    failed: &[(crate::ui::model::scaling_work::Job, String)],
) -> String {
    let (colon, semicolon) = match lang {
        Lang::En => (": ", "; "),
        Lang::Zh => ("：", "；"),
    };
    failed
        .iter()
        .map(|(job, why)| format!("{}{colon}{why}", job_label(lang, job)))
        .collect::<Vec<_>>()
        .join(semicolon)
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
pub fn place_name(lang: Lang, place: &crate::ui::model::layout::Place) -> String {
    use crate::sim::topology::Endpoint as E;
    use crate::ui::model::layout::Place as P;
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
pub fn unit_kind_name(lang: Lang, unit: crate::ui::model::layout::UnitKind) -> String {
    use crate::ui::model::layout::UnitKind as U;
    match unit {
        U::Gpu => "GPU".to_string(),
        U::Node => tr(lang, Key::UnitNode).to_string(),
        U::Rack => tr(lang, Key::UnitRack).to_string(),
        U::Group(k) => trf(lang, Key::UnitGroup, &[&k.to_string()]),
    }
}

/// Why the lower bound is what it is, in `lang`.
pub fn bound_explain(lang: Lang, bound: &crate::sim::trace::LowerBound) -> &'static str {
    use crate::sim::trace::{BoundKind as B, BoundTerm as T};
    tr(
        lang,
        match (bound.kind, bound.dominant()) {
            (B::Injection, T::Bandwidth) => Key::BoundInjection,
            (B::InjectionWithNics, T::Bandwidth) => Key::BoundInjectionNics,
            (B::InjectionWithNics, T::Latency) => Key::BoundInjectionNicsLatency,
            (B::NodeTier, T::Bandwidth) => Key::BoundNode,
            (B::RackTier, T::Bandwidth) => Key::BoundRack,
            // Where latency dominates, the cut is the one whose route is longest, not the
            // tighter in bandwidth: the words say so.
            (B::Injection, T::Latency) => Key::BoundInjectionLatency,
            (B::NodeTier, T::Latency) => Key::BoundNodeLatency,
            (B::RackTier, T::Latency) => Key::BoundRackLatency,
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
    let tied: Vec<&str> = auto.tied().map(|a| algorithm_label(lang, a)).collect();
    match auto.candidates.get(1) {
        Some(_) if best > 0.0 && !tied.is_empty() => trf(
            lang,
            Key::AutoTie,
            &[
                chosen,
                &format_secs(best),
                &tied.join(lang.pick(", ", "、")),
                &auto.candidates.len().to_string(),
            ],
        ),
        Some(&(next, t)) if t.is_finite() && best > 0.0 => trf(
            lang,
            Key::AutoFastest,
            &[
                chosen,
                &format_secs(best),
                &format_secs(t),
                algorithm_label(lang, next),
                &percent_above_zero(lang, t / best - 1.0, 1),
                &auto.candidates.len().to_string(),
            ],
        ),
        _ => trf(lang, Key::AutoNothing, &[chosen]),
    }
}

/// A chapter scenario's (button name, claim, because) in `lang`, by its kind.
pub fn scenario_texts(
    lang: Lang,
    s: &crate::course::chapter::ChapterScenario,
) -> (String, &'static str, &'static str) {
    use crate::course::chapter::ScenarioKind as K;
    let (n, c, b) = match s.kind {
        K::EightGpus => (Key::ShortEight, Key::ClaimEight, Key::BecauseEight),
        K::BadTopology => (Key::ShortBad, Key::ClaimBad, Key::BecauseBad),
        K::SlowNetwork => (Key::ShortSlowNet, Key::ClaimSlowNet, Key::BecauseSlowNet),
        K::Network100g => (Key::ShortNet, Key::ClaimNet, Key::BecauseNet),
        K::IoBound => (Key::ShortIo, Key::ClaimIo, Key::BecauseIo),
        K::Racks800Over200 => (Key::ShortRacks, Key::ClaimRacks, Key::BecauseRacks),
        K::Inverted400Over800 => (Key::ShortInverted, Key::ClaimInverted, Key::BecauseInverted),
    };
    (tr(lang, n).to_string(), tr(lang, c), tr(lang, b))
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

/// Declares one area's rows as a link of the chain: `area! { $ lab_rows { Key => "en", "zh"; … } }`
/// defines `lab_rows!`, which appends these rows to those gathered so far and hands them all to
/// the next link (the last is [`key_table`]). `$` is passed in so that the inner macro can have
/// its own variables.
macro_rules! area {
    ($d:tt $name:ident { $($rows:tt)* }) => {
        macro_rules! $name {
            ([$d next:ident $d(, $d rest:ident)*] $d($d acc:tt)*) => {
                $d next! { [$d($d rest),*] $d($d acc)* $($rows)* }
            };
        }
    };
}

#[macro_use]
mod page;
#[macro_use]
mod chapter;
#[macro_use]
mod lab;
#[macro_use]
mod scaling;
#[macro_use]
mod nccl;
pub mod errors;

/// The end of the chain: every area's rows, declared as [`Key`].
macro_rules! key_table {
    ([] $($key:ident => $en:expr, $zh:expr;)*) => {
        strings! {
            /// A string of the interface (its rows live in this module's files, one per area).
            Key {
                $($key => $en, $zh;)*
            }
        }
    };
}

page_rows! { [chapter_rows, lab_rows, scaling_rows, nccl_rows, key_table] }

#[cfg(target_arch = "wasm32")]
mod web;

#[cfg(target_arch = "wasm32")]
pub use web::{LangContext, LangProvider, detect, lang_switch, use_lang};

#[cfg(test)]
mod tests;
