//! The tables' completeness and the formatting of numbers.

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
    for h in crate::ui::model::scaling::hardware_choices() {
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
    use crate::ui::model::layout::Place as P;
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

#[test]
fn a_failed_point_is_named_as_the_charts_show_it() {
    use crate::sim::algorithms::Algorithm;
    use crate::ui::model::scaling_work::Job;
    let speedup = Job::Speedup {
        algorithm: Algorithm::Ring,
        gpus: 64,
    };
    assert_eq!(job_label(Lang::En, &speedup), "ring, 64 GPUs");
    assert_eq!(
        job_label(Lang::Zh, &speedup),
        format!("{}，64 张卡", algorithm_label(Lang::Zh, Algorithm::Ring))
    );
    let sweep = Job::Sweep {
        algorithm: Algorithm::DoubleBinaryTree,
        size_bytes: 16_000_000,
    };
    assert_eq!(
        job_label(Lang::En, &sweep),
        format!(
            "{}, 16 MB",
            algorithm_label(Lang::En, Algorithm::DoubleBinaryTree)
        )
    );
    assert_eq!(
        job_label(Lang::En, &Job::NcclSpeedup { gpus: 1 }),
        "NCCL, 1 GPU"
    );
    assert_eq!(
        job_label(
            Lang::En,
            &Job::NcclSweep {
                size_bytes: 1_000_000_000
            }
        ),
        "NCCL, 1 GB"
    );
}

#[test]
fn failed_points_read_as_one_line_in_each_language() {
    use crate::sim::algorithms::Algorithm;
    use crate::ui::model::scaling_work::Job;
    let failed = [
        (
            Job::Speedup {
                algorithm: Algorithm::Ring,
                gpus: 64,
            },
            "too big".to_string(),
        ),
        (Job::NcclSpeedup { gpus: 8 }, "no system".to_string()),
    ];
    assert_eq!(
        failed_points(Lang::En, &failed),
        "ring, 64 GPUs: too big; NCCL, 8 GPUs: no system"
    );
    let zh = failed_points(Lang::Zh, &failed);
    assert!(
        zh.ends_with("64 张卡：too big；NCCL，8 张卡：no system"),
        "{zh}"
    );
    assert_eq!(failed_points(Lang::En, &[]), "");
}

#[test]
fn the_lower_bound_sentence_follows_its_dominant_term() {
    use crate::sim::topology::{Topology, TopologySpec};
    use crate::sim::trace::{BoundKind, BoundTerm, lower_bound};
    use crate::sim::units::Bandwidth;
    // 2 racks of fast uplinks: the racks' cut wins on its route's latency at 8 bytes (it is not
    // the tighter in bandwidth), and on bandwidth at 1 GiB over slow uplinks.
    let cluster = |rack_gbits: f64| {
        Topology::new(&TopologySpec::Cluster {
            racks: 2,
            nodes_per_rack: 2,
            gpus_per_node: 8,
            intra_bw: Bandwidth::from_gbytes_per_sec(450.0),
            intra_lat_secs: 1e-6,
            node_bw: Bandwidth::from_gbits_per_sec(3200.0),
            node_lat_secs: 2e-6,
            rack_bw: Bandwidth::from_gbits_per_sec(rack_gbits),
            rack_lat_secs: 5e-6,
            oversubscription: 1.0,
            nics_per_node: 1,
        })
        .unwrap()
    };
    let small = lower_bound(&cluster(3200.0), 8);
    assert_eq!(
        (small.kind, small.dominant()),
        (BoundKind::RackTier, BoundTerm::Latency)
    );
    let en = bound_explain(Lang::En, &small);
    assert!(
        en.starts_with("at least one message latency between racks"),
        "{en}"
    );
    assert!(!en.contains("tighter cut"), "{en}");
    assert!(bound_explain(Lang::Zh, &small).starts_with("至少要等一条消息在机柜之间的延迟"));
    let large = lower_bound(&cluster(100.0), 1 << 30);
    assert_eq!(
        (large.kind, large.dominant()),
        (BoundKind::RackTier, BoundTerm::Bandwidth)
    );
    assert!(bound_explain(Lang::En, &large).starts_with("the racks' uplinks are the tighter cut"));
}

#[test]
fn a_share_above_zero_never_reads_as_zero() {
    for lang in [Lang::En, Lang::Zh] {
        assert_eq!(percent_above_zero(lang, 0.004, 0), "< 1%");
        // Exactly half the last digit rounds to even: 0.5 % would read "0%".
        assert_eq!(percent_above_zero(lang, 0.005, 0), "< 1%");
        assert_eq!(percent_above_zero(lang, 0.0004, 1), "< 0.1%");
        assert_eq!(percent_above_zero(lang, 0.0, 0), "0%");
        assert_eq!(percent_above_zero(lang, 0.006, 0), "1%");
        assert_eq!(percent_above_zero(lang, 0.5, 1), "50.0%");
    }
}

#[test]
fn auto_names_a_tie_as_a_tie_and_a_tiny_lead_as_under_a_tenth_of_a_percent() {
    use crate::sim::algorithms::Algorithm as A;
    use crate::sim::scenario::AutoChoice;
    let choice = |times: [f64; 3]| AutoChoice {
        chosen: A::Ring,
        candidates: vec![
            (A::Ring, times[0]),
            (A::Hierarchical, times[1]),
            (A::TreeBinary, times[2]),
        ],
    };
    // Float noise between equal times (4e-16 of 417 µs) is a tie.
    let tie = choice([417e-6, 417e-6 * (1.0 + 1e-15), 500e-6]);
    let en = auto_reason(Lang::En, &tie);
    assert!(
        en.starts_with("ring ties with hierarchical for the fastest"),
        "{en}"
    );
    assert!(!en.contains("0.0%"), "{en}");
    let zh = auto_reason(Lang::Zh, &tie);
    assert!(
        zh.contains("并列") && zh.contains("共在此场景上模拟了 3 种算法"),
        "{zh}"
    );
    let close = auto_reason(Lang::En, &choice([417e-6, 417.1e-6, 500e-6]));
    assert!(close.contains("(which takes < 0.1% longer)"), "{close}");
    let clear = auto_reason(Lang::En, &choice([400e-6, 500e-6, 600e-6]));
    assert!(
        clear.contains("is the fastest") && clear.contains("25.0% longer"),
        "{clear}"
    );
}

#[test]
fn a_chart_point_says_its_gpu_count_or_size_as_chinese_writes_it() {
    // No space between a Chinese unit and 时, one after a Latin one (fill's rule).
    assert_eq!(
        trf(Lang::Zh, Key::PointAt, &["环形", "6.37 倍", "8 张卡"]),
        "环形：8 张卡时 6.37 倍"
    );
    assert_eq!(
        trf(Lang::Zh, Key::PointAt, &["环形", "1 ms", "16 MiB"]),
        "环形：16 MiB 时 1 ms"
    );
}
