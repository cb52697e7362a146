//! A topology reads from JSON as serde's `kind`-tagged enum read it (the reading the app had
//! before `TopologyFields`, kept here as the oracle): the same topology from the same object, the
//! same error where it failed (serde's words, such as "missing field `racks`"), and the file
//! reader's classification of that error. Two differences, for objects that are wrong anyway: a
//! field of another kind with a value of the wrong type is now refused (the tagged enum skipped
//! it), and where both the `kind` and a field are wrong, the first in the object is the error
//! reported (the tagged enum, which read the whole object before any field, reported the `kind`).

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
    reading(json, true)
}

/// Both readings of `json`: the same topology, or both errors of the same class, in the same
/// words when `exactly`.
fn reading(json: &str, exactly: bool) -> Result<(), String> {
    let now = serde_json::from_str::<TopologySpec>(json);
    let before = serde_json::from_str::<Tagged>(json).map(TopologySpec::from);
    match (now, before) {
        (Ok(a), Ok(b)) if a == b => Ok(()),
        (Err(a), Err(b)) if !exactly && a.classify() == b.classify() => Ok(()),
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
        r#"{"kind": "uniform", "ranks": 8, "bandwidth": 1, "latency_secs": 0, "colour": "red"}"#,
        r#"{"kind": "cluster", "racks": 1, "nodes_per_rack": 1, "gpus_per_node": 1, "intra_bw": 1, "intra_lat_secs": 0, "node_bw": 1, "node_lat_secs": 0, "rack_bw": 1, "rack_lat_secs": 0, "oversubscription": null}"#,
        r#"{"kind": "rail", "nodes": 1, "gpus_per_node": 1, "intra_bw": 1, "intra_lat_secs": 0, "nic_bw": 1, "nic_lat_secs": 0, "spine_bw": 1, "spine_lat_secs": 0, "pxn": "yes"}"#,
        r#"[]"#,
        r#""uniform""#,
        r#"null"#,
    ] {
        same_reading(json).unwrap();
    }
}

/// A value for a field: valid for it, or of some wrong type.
fn value(valid: &'static str) -> impl Strategy<Value = String> {
    prop_oneof![
        4 => Just(valid.to_string()),
        1 => Just("null".to_string()),
        1 => Just("\"text\"".to_string()),
        1 => Just("-1".to_string()),
        1 => Just("true".to_string()),
        1 => Just("[1]".to_string()),
    ]
}

proptest! {
    /// Objects of a kind with any subset of its fields, any of them of a wrong type, plus other
    /// kinds' fields (valid, see the module's note) and unknown ones, in any order: both readings
    /// agree.
    #[test]
    fn any_object_reads_as_the_tagged_enum_read_it(
        kind in prop::sample::select(vec!["uniform", "cluster", "rail", "mesh"]),
        own in prop::collection::vec((any::<bool>(), any::<prop::sample::Index>()), 11),
        other in prop::collection::vec(any::<bool>(), 24),
        unknown in any::<bool>(),
        seed in any::<u64>(),
        wrong in prop::collection::vec(value("0"), 11),
    ) {
        let mut members = vec![kind_member(kind)];
        for (i, (k, v)) in fields(kind).iter().enumerate() {
            if own[i].0 {
                // Valid most often; else the generated value, maybe of a wrong type.
                let v = if own[i].1.index(3) > 0 { v.to_string() } else { wrong[i].clone() };
                members.push((k.to_string(), v));
            }
        }
        let others = UNIFORM.iter().chain(&CLUSTER).chain(&RAIL)
            .filter(|(k, _)| !fields(kind).iter().any(|(o, _)| o == k));
        for (i, (k, v)) in others.enumerate() {
            if other[i] && !members.iter().any(|(m, _)| m == k) {
                members.push((k.to_string(), v.to_string()));
            }
        }
        if unknown {
            members.push(("note".to_string(), "{\"a\": [1, null]}".to_string()));
        }
        // Any order: a rotation by the seed.
        let n = members.len();
        members.rotate_left((seed % n as u64) as usize);
        let json = object(&members);
        // An unknown kind and a wrong field: both refused, maybe for different faults.
        let exactly = kind != "mesh" || members.iter().all(|(k, v)| {
            k == "kind" || UNIFORM.iter().chain(&CLUSTER).chain(&RAIL).any(|f| f == &(k.as_str(), v.as_str()))
        });
        prop_assert!(reading(&json, exactly).is_ok(), "{}", reading(&json, exactly).unwrap_err());
    }
}
