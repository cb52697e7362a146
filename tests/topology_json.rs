//! A topology reads from JSON as serde's `kind`-tagged enum read it (the reading the app had
//! before `TopologyFields`, kept here as the oracle): of objects it accepts only what that
//! accepted, reading the same topology, and on an object with a valid `kind`, no key twice and
//! the other kinds' fields well typed, it fails where that failed, in the same words (serde's,
//! such as "missing field `racks`") and of the same class for the file reader. Beyond that it may
//! refuse what is wrong anyway: another kind's field of the wrong type or given twice, a field no
//! kind has, or, where the `kind` is wrong, name a wrong field instead.

#![cfg(not(target_arch = "wasm32"))]

use allreduce_lab::sim::scenario_file::JsonProblem;
use allreduce_lab::sim::topology::TopologySpec;
use allreduce_lab::sim::units::Bandwidth;
use proptest::prelude::*;
use serde::Deserialize;

#[derive(Debug, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
enum Tagged {
    Uniform {
        ranks: usize,
        bandwidth: Bandwidth,
        latency_secs: f64,
    },
    Cluster {
        racks: usize,
        nodes_per_rack: usize,
        gpus_per_node: usize,
        intra_bw: Bandwidth,
        intra_lat_secs: f64,
        node_bw: Bandwidth,
        node_lat_secs: f64,
        rack_bw: Bandwidth,
        rack_lat_secs: f64,
        #[serde(default = "one")]
        oversubscription: f64,
        #[serde(default = "one_nic")]
        nics_per_node: usize,
    },
    Rail {
        nodes: usize,
        gpus_per_node: usize,
        intra_bw: Bandwidth,
        intra_lat_secs: f64,
        nic_bw: Bandwidth,
        nic_lat_secs: f64,
        spine_bw: Bandwidth,
        spine_lat_secs: f64,
        #[serde(default = "one")]
        oversubscription: f64,
        #[serde(default = "yes")]
        pxn: bool,
    },
}

fn one() -> f64 {
    1.0
}
fn one_nic() -> usize {
    1
}
fn yes() -> bool {
    true
}

impl From<Tagged> for TopologySpec {
    fn from(t: Tagged) -> TopologySpec {
        match t {
            Tagged::Uniform {
                ranks,
                bandwidth,
                latency_secs,
            } => TopologySpec::Uniform {
                ranks,
                bandwidth,
                latency_secs,
            },
            Tagged::Cluster {
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
            } => TopologySpec::Cluster {
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
            },
            Tagged::Rail {
                nodes,
                gpus_per_node,
                intra_bw,
                intra_lat_secs,
                nic_bw,
                nic_lat_secs,
                spine_bw,
                spine_lat_secs,
                oversubscription,
                pxn,
            } => TopologySpec::Rail {
                nodes,
                gpus_per_node,
                intra_bw,
                intra_lat_secs,
                nic_bw,
                nic_lat_secs,
                spine_bw,
                spine_lat_secs,
                oversubscription,
                pxn,
            },
        }
    }
}

/// Each kind's fields: (name, a valid value).
const UNIFORM: [(&str, &str); 3] = [
    ("ranks", "8"),
    ("bandwidth", "1e10"),
    ("latency_secs", "1e-6"),
];
const CLUSTER: [(&str, &str); 11] = [
    ("racks", "2"),
    ("nodes_per_rack", "4"),
    ("gpus_per_node", "8"),
    ("intra_bw", "4.5e11"),
    ("intra_lat_secs", "1e-6"),
    ("node_bw", "5e10"),
    ("node_lat_secs", "2e-6"),
    ("rack_bw", "2e11"),
    ("rack_lat_secs", "5e-6"),
    ("oversubscription", "2"),
    ("nics_per_node", "4"),
];
const RAIL: [(&str, &str); 10] = [
    ("nodes", "4"),
    ("gpus_per_node", "8"),
    ("intra_bw", "4.5e11"),
    ("intra_lat_secs", "1e-6"),
    ("nic_bw", "5e10"),
    ("nic_lat_secs", "2e-6"),
    ("spine_bw", "2e11"),
    ("spine_lat_secs", "5e-6"),
    ("oversubscription", "1.5"),
    ("pxn", "false"),
];

fn fields(kind: &str) -> &'static [(&'static str, &'static str)] {
    match kind {
        "uniform" => &UNIFORM,
        "cluster" => &CLUSTER,
        _ => &RAIL,
    }
}

/// serde_json's message without its position (the two readings fail at different characters of
/// the same object: the tagged one at its end, having buffered it).
fn words(e: &serde_json::Error) -> String {
    // The oracle's name is not the app's.
    let text = e.to_string().replace("enum Tagged", "enum TopologySpec");
    match text.find(" at line ") {
        Some(at) => text[..at].to_string(),
        None => text,
    }
}

/// Both readings of `json`: the same topology, or errors in the same words and of the same class.
fn same_reading(json: &str) -> Result<(), String> {
    let now = serde_json::from_str::<TopologySpec>(json);
    let before = serde_json::from_str::<Tagged>(json).map(TopologySpec::from);
    match (now, before) {
        (Ok(a), Ok(b)) if a == b => Ok(()),
        (Err(a), Err(b))
            if words(&a) == words(&b)
                && a.classify() == b.classify()
                && JsonProblem::of(&a) == JsonProblem::of(&b) =>
        {
            Ok(())
        }
        (a, b) => Err(format!("{json}\n now:    {a:?}\n before: {b:?}")),
    }
}

fn object(members: &[(String, String)]) -> String {
    let inner: Vec<String> = members
        .iter()
        .map(|(k, v)| format!("\"{k}\": {v}"))
        .collect();
    format!("{{{}}}", inner.join(", "))
}

fn kind_member(kind: &str) -> (String, String) {
    ("kind".to_string(), format!("\"{kind}\""))
}

#[test]
fn every_kind_reads_whole_with_and_without_its_defaults_and_in_any_order() {
    for kind in ["uniform", "cluster", "rail"] {
        let mut members = vec![kind_member(kind)];
        members.extend(
            fields(kind)
                .iter()
                .map(|(k, v)| (k.to_string(), v.to_string())),
        );
        same_reading(&object(&members)).unwrap();
        let parsed: TopologySpec = serde_json::from_str(&object(&members)).unwrap();
        // Written back and read again: the same topology (the writer is serde's tagged one).
        let again: TopologySpec =
            serde_json::from_str(&serde_json::to_string(&parsed).unwrap()).unwrap();
        assert_eq!(again, parsed);
        members.reverse();
        same_reading(&object(&members)).unwrap();
        let without_defaults: Vec<_> = members
            .iter()
            .filter(|(k, _)| !["oversubscription", "nics_per_node", "pxn"].contains(&k.as_str()))
            .cloned()
            .collect();
        same_reading(&object(&without_defaults)).unwrap();
    }
    let defaults: TopologySpec = serde_json::from_str(
        r#"{"kind":"rail","nodes":2,"gpus_per_node":8,"intra_bw":1,"intra_lat_secs":0,"nic_bw":1,"nic_lat_secs":0,"spine_bw":1,"spine_lat_secs":0}"#,
    )
    .unwrap();
    assert!(matches!(
        defaults,
        TopologySpec::Rail { oversubscription, pxn: true, .. } if oversubscription == 1.0
    ));
}

#[test]
fn each_missing_field_is_named_as_serde_named_it() {
    for kind in ["uniform", "cluster", "rail"] {
        for (gone, _) in fields(kind) {
            let mut members = vec![kind_member(kind)];
            members.extend(
                fields(kind)
                    .iter()
                    .filter(|(k, _)| k != gone)
                    .map(|(k, v)| (k.to_string(), v.to_string())),
            );
            same_reading(&object(&members)).unwrap();
        }
    }
    let e = serde_json::from_str::<TopologySpec>(r#"{"kind":"cluster","racks":2}"#).unwrap_err();
    assert_eq!(
        JsonProblem::of(&e),
        JsonProblem::MissingField("nodes_per_rack".into())
    );
}

#[test]
fn odd_objects_fail_or_read_as_before() {
    for json in [
        r#"{}"#,
        r#"{"ranks": 8}"#,
        r#"{"kind": "torus", "ranks": 8}"#,
        r#"{"kind": 3}"#,
        r#"{"kind": null}"#,
        r#"{"kind": "uniform", "kind": "uniform", "ranks": 8, "bandwidth": 1, "latency_secs": 0}"#,
        r#"{"kind": "uniform", "ranks": 8, "ranks": 9, "bandwidth": 1, "latency_secs": 0}"#,
        r#"{"kind": "uniform", "ranks": -8, "bandwidth": 1, "latency_secs": 0}"#,
        r#"{"kind": "uniform", "ranks": 8.5, "bandwidth": 1, "latency_secs": 0}"#,
        r#"{"kind": "uniform", "ranks": "8", "bandwidth": 1, "latency_secs": 0}"#,
        r#"{"kind": "uniform", "ranks": 8, "bandwidth": null, "latency_secs": 0}"#,
        r#"{"kind": "cluster", "racks": 1, "nodes_per_rack": 1, "gpus_per_node": 1, "intra_bw": 1, "intra_lat_secs": 0, "node_bw": 1, "node_lat_secs": 0, "rack_bw": 1, "rack_lat_secs": 0, "oversubscription": null}"#,
        r#"{"kind": "rail", "nodes": 1, "gpus_per_node": 1, "intra_bw": 1, "intra_lat_secs": 0, "nic_bw": 1, "nic_lat_secs": 0, "spine_bw": 1, "spine_lat_secs": 0, "pxn": "yes"}"#,
        r#"[]"#,
        r#""uniform""#,
        r#"null"#,
    ] {
        same_reading(json).unwrap();
    }
    // A field no kind has is refused by name (the tagged enum skipped it: a misspelt
    // `latency_sec` read as absent and its value was lost).
    for json in [
        r#"{"kind": "uniform", "ranks": 8, "bandwidth": 1, "latency_secs": 0, "colour": "red"}"#,
        r#"{"kind": "uniform", "ranks": 8, "bandwidth": 1, "latency_secs": 0, "latency_sec": 5}"#,
    ] {
        let e = serde_json::from_str::<TopologySpec>(json).unwrap_err();
        assert!(
            matches!(JsonProblem::of(&e), JsonProblem::UnknownField(_)),
            "{e}"
        );
    }
}

/// A value of a wrong type for any field (`-1`: not a count; `true`: a bool only for `pxn`).
fn wrong_value() -> impl Strategy<Value = String> {
    prop::sample::select(vec!["null", "\"text\"", "-1", "true", "[1]", "{}"]).prop_map(String::from)
}

proptest! {
    // Quick cases (about 10 µs each): enough that a kind with two given fields absent, the case
    // that tells whether the missing one is named in serde's order, comes up many times.
    #![proptest_config(ProptestConfig::with_cases(4096))]

    /// Objects of any `kind` (valid, unknown, of the wrong type or absent) with any subset of its
    /// fields, some of the wrong type or given twice, plus other kinds' fields (some wrong, some
    /// twice) and an unknown field, in any order: the new reading accepts only what the tagged enum
    /// accepted, with the same topology, and where the object is well formed in the sense of the
    /// module's note, fails in the same words.
    #[test]
    fn any_object_reads_as_the_tagged_enum_read_it(
        kind in prop::sample::select(vec!["uniform", "cluster", "rail", "mesh", "3", ""]),
        own in prop::collection::vec(0u8..8, 11),
        other in prop::collection::vec(0u8..6, 24),
        messy in prop::bool::weighted(0.3),
        unknown in any::<bool>(),
        wrong in prop::collection::vec(wrong_value(), 35),
        order in Just((0..80usize).collect::<Vec<_>>()).prop_shuffle(),
    ) {
        let mut members = Vec::new();
        match kind {
            "" => {}
            "3" => members.push(("kind".to_string(), "3".to_string())),
            k => members.push(kind_member(k)),
        }
        let mut faulty = !matches!(kind, "uniform" | "cluster" | "rail");
        // Own fields: 0-1 absent, 2-5 valid, 6 of a wrong type, 7 given twice (valid).
        for (i, (k, v)) in fields(kind).iter().enumerate() {
            match own[i] {
                0 | 1 => {}
                2..=5 => members.push((k.to_string(), v.to_string())),
                6 => members.push((k.to_string(), wrong[i].clone())),
                _ => {
                    members.push((k.to_string(), v.to_string()));
                    members.push((k.to_string(), v.to_string()));
                }
            }
        }
        // Other kinds' fields: 0-2 absent, 3 valid, and where `messy`, 4 of a wrong type, 5 given
        // twice.
        let others: Vec<_> = UNIFORM.iter().chain(&CLUSTER).chain(&RAIL)
            .filter(|(k, _)| !fields(kind).iter().any(|(o, _)| o == k))
            .collect();
        let mut seen = Vec::new();
        for (i, (k, v)) in others.into_iter().enumerate() {
            if seen.contains(k) {
                continue;
            }
            seen.push(*k);
            match if messy { other[i] } else { other[i] % 4 } {
                0..=2 => {}
                3 => members.push((k.to_string(), v.to_string())),
                4 => {
                    faulty = true;
                    members.push((k.to_string(), wrong[11 + i].clone()));
                }
                _ => {
                    faulty = true;
                    members.push((k.to_string(), v.to_string()));
                    members.push((k.to_string(), v.to_string()));
                }
            }
        }
        if unknown {
            // Refused now, by name (a misspelt field was read as absent, its value lost).
            faulty = true;
            members.push(("note".to_string(), "{\"a\": [1, null]}".to_string()));
        }
        // Any order: the members sorted by a shuffled rank.
        let mut ranked: Vec<_> = members.into_iter().enumerate().map(|(i, m)| (order[i], m)).collect();
        ranked.sort_by_key(|(r, _)| *r);
        let members: Vec<_> = ranked.into_iter().map(|(_, m)| m).collect();
        let json = object(&members);
        let now = serde_json::from_str::<TopologySpec>(&json);
        let before = serde_json::from_str::<Tagged>(&json).map(TopologySpec::from);
        if let Ok(topology) = &now {
            prop_assert!(
                matches!(&before, Ok(b) if b == topology),
                "accepted what the tagged enum did not read so: {json}\n before: {before:?}"
            );
        }
        if !faulty {
            prop_assert!(same_reading(&json).is_ok(), "{}", same_reading(&json).unwrap_err());
        }
    }
}
