//! The lab's request to its Web Worker: the controls and the algorithm to simulate, as one line
//! of text that says them exactly (every number as an integer; a fault's factor and delay by
//! their bits), so that the worker runs the very scenario the page would have run.
//!
//! ```
//! use allreduce_lab::sim::algorithms::Algorithm;
//! use allreduce_lab::ui::model::{lab_job, logic::Controls};
//! let c = Controls { gpus: 1024, ..Controls::default() };
//! let line = lab_job::encode(&c, Algorithm::NcclRing);
//! assert!(line.starts_with("lab-run "));
//! assert_eq!(lab_job::decode(&line), Some((c, Algorithm::NcclRing)));
//! assert_eq!(lab_job::decode("lab-run 1 cluster ring"), None);
//! ```

use crate::sim::algorithms::Algorithm;
use crate::sim::faults::{Faults, SlowLink, Straggler};
use crate::ui::model::logic::{Controls, TopologyKind};

/// The first word of a request (the workers also answer other messages).
pub const PREFIX: &str = "lab-run";

/// Bumped when the line's layout changes.
const VERSION: &str = "1";

fn kind_name(k: TopologyKind) -> &'static str {
    match k {
        TopologyKind::Uniform => "uniform",
        TopologyKind::Cluster => "cluster",
        TopologyKind::Rail => "rail",
    }
}

/// The request for `controls` run with `algorithm`.
pub fn encode(controls: &Controls, algorithm: Algorithm) -> String {
    let c = controls;
    let mut words: Vec<String> = vec![
        PREFIX.into(),
        VERSION.into(),
        kind_name(c.kind).into(),
        algorithm.name().into(),
        c.algorithm.name().into(),
    ];
    let numbers = [
        c.gpus as u64,
        c.gpus_per_node as u64,
        c.nodes_per_rack as u64,
        c.bandwidth_mbps[0],
        c.bandwidth_mbps[1],
        c.bandwidth_mbps[2],
        c.latency_ns[0],
        c.latency_ns[1],
        c.latency_ns[2],
        c.size_bytes,
        c.segments as u64,
        c.nics_per_node as u64,
        u64::from(c.pxn),
    ];
    words.extend(numbers.iter().map(u64::to_string));
    for s in &c.faults.slow_links {
        words.push(format!("slow:{}:{:x}", s.cable, s.factor.to_bits()));
    }
    for s in &c.faults.stragglers {
        words.push(format!("late:{}:{:x}", s.rank, s.delay_secs.to_bits()));
    }
    words.join(" ")
}

/// The controls and algorithm of a request; `None` for anything [`encode`] does not write.
pub fn decode(line: &str) -> Option<(Controls, Algorithm)> {
    let mut words = line.split(' ');
    if words.next()? != PREFIX || words.next()? != VERSION {
        return None;
    }
    let kind = match words.next()? {
        "uniform" => TopologyKind::Uniform,
        "cluster" => TopologyKind::Cluster,
        "rail" => TopologyKind::Rail,
        _ => return None,
    };
    let algorithm: Algorithm = words.next()?.parse().ok()?;
    let named: Algorithm = words.next()?.parse().ok()?;
    let mut n = [0u64; 13];
    for v in &mut n {
        *v = words.next()?.parse().ok()?;
    }
    let size = |v: u64| usize::try_from(v).ok();
    let mut faults = Faults::default();
    for word in words {
        let (what, rest) = word.split_once(':')?;
        let (a, bits) = rest.rsplit_once(':')?;
        let value = f64::from_bits(u64::from_str_radix(bits, 16).ok()?);
        match what {
            "slow" => faults.slow_links.push(SlowLink {
                cable: a.parse().ok()?,
                factor: value,
            }),
            "late" => faults.stragglers.push(Straggler {
                rank: a.parse().ok()?,
                delay_secs: value,
            }),
            _ => return None,
        }
    }
    let controls = Controls {
        kind,
        algorithm: named,
        gpus: size(n[0])?,
        gpus_per_node: size(n[1])?,
        nodes_per_rack: size(n[2])?,
        bandwidth_mbps: [n[3], n[4], n[5]],
        latency_ns: [n[6], n[7], n[8]],
        size_bytes: n[9],
        segments: size(n[10])?,
        nics_per_node: size(n[11])?,
        pxn: match n[12] {
            0 => false,
            1 => true,
            _ => return None,
        },
        faults,
    };
    Some((controls, algorithm))
}

// Property tests use proptest, which is native only.
#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use super::*;
    use crate::sim::faults::Cable;
    use crate::sim::topology::Endpoint;
    use proptest::prelude::*;

    fn any_algorithm() -> impl Strategy<Value = Algorithm> {
        prop::sample::select(
            Algorithm::CONCRETE
                .into_iter()
                .chain([Algorithm::Auto])
                .collect::<Vec<_>>(),
        )
    }

    fn any_cable() -> impl Strategy<Value = Cable> {
        (0usize..2000, 0usize..300, 0usize..8).prop_map(|(r, n, k)| {
            let ends = [
                Cable::new(Endpoint::Rank(r), Endpoint::NodeSwitch(n)),
                Cable::new(Endpoint::RackSwitch(n), Endpoint::Spine),
                Cable::new(Endpoint::Nic(n, k), Endpoint::Rail(k)),
                Cable::new(Endpoint::Rank(r), Endpoint::Spine),
            ];
            ends[(r + k) % 4]
        })
    }

    proptest! {
        /// Any controls come back exactly, their faults' numbers bit for bit (NaN and −0 too).
        #[test]
        fn every_request_comes_back_as_sent(
            kind in prop::sample::select(vec![TopologyKind::Uniform, TopologyKind::Cluster, TopologyKind::Rail]),
            named in any_algorithm(),
            algorithm in any_algorithm(),
            n in prop::array::uniform13(any::<u32>()),
            big in any::<u64>(),
            pxn in any::<bool>(),
            slow in prop::collection::vec((any_cable(), any::<u64>()), 0..3),
            late in prop::collection::vec((0usize..5000, any::<u64>()), 0..3),
        ) {
            let c = Controls {
                kind,
                algorithm: named,
                gpus: n[0] as usize,
                gpus_per_node: n[1] as usize,
                nodes_per_rack: n[2] as usize,
                bandwidth_mbps: [big, u64::from(n[3]), u64::from(n[4])],
                latency_ns: [u64::from(n[5]), u64::from(n[6]), big],
                size_bytes: big,
                segments: n[9] as usize,
                nics_per_node: n[10] as usize,
                pxn,
                faults: Faults {
                    slow_links: slow.iter().map(|&(cable, b)| SlowLink { cable, factor: f64::from_bits(b) }).collect(),
                    stragglers: late.iter().map(|&(rank, b)| Straggler { rank, delay_secs: f64::from_bits(b) }).collect(),
                },
            };
            let line = encode(&c, algorithm);
            let (back, a) = decode(&line).expect("decodes");
            prop_assert_eq!(a, algorithm);
            // Compared by the line again: NaN factors are not equal to themselves.
            prop_assert_eq!(encode(&back, a), line);
            prop_assert_eq!(back.gpus, c.gpus);
            prop_assert_eq!(back.faults.slow_links.len(), c.faults.slow_links.len());
        }

        /// Any other text is refused, never a panic; so is a request cut short.
        #[test]
        fn anything_else_is_refused(text in ".{0,200}", cut in 0usize..60) {
            let line = encode(&Controls::default(), Algorithm::Ring);
            prop_assert_eq!(decode(&line[..cut.min(line.len() - 2)]), None);
            if !text.starts_with(PREFIX) {
                prop_assert_eq!(decode(&text), None);
            }
        }
    }

    #[test]
    fn a_straggler_and_a_slowed_cable_run_the_same_scenario_after_the_trip() {
        let c = Controls::default()
            .with_slow_cable(Cable::new(Endpoint::Rank(1), Endpoint::NodeSwitch(0)), 0.3)
            .with_straggler(2, 1.5e-5);
        let (back, a) = decode(&encode(&c, Algorithm::Rabenseifner)).unwrap();
        assert_eq!(back, c);
        assert_eq!(
            format!("{:?}", back.scenario(a)),
            format!("{:?}", c.scenario(Algorithm::Rabenseifner))
        );
    }
}
