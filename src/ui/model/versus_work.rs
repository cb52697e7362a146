//! The Ring-vs-Tree figure's simulations as work for a Web Worker: the message the page sends
//! ([`VersusAsk`]) and the numbers a worker answers with ([`VersusAnswer`]). [`answer_versus`] is
//! all a worker does for the figure; it is pure, so `cargo test` checks that a job that went
//! through a worker gives the page bit for bit what the page's own run gives.
//!
//! ```
//! use allreduce_lab::ui::model::versus::{VersusJob, VersusSetup};
//! use allreduce_lab::ui::model::versus_work::{VersusAnswer, VersusAsk, answer_versus};
//! let setup = VersusSetup::default();
//! let job = setup.jobs()[0];
//! let ask = VersusAsk { generation: 3, index: 0, setup, job };
//! let reply = VersusAnswer::decode(&answer_versus(&ask.encode()).unwrap()).unwrap();
//! assert_eq!((reply.generation, reply.index), (3, 0));
//! let trace = setup.run(job).unwrap();
//! assert_eq!(reply.result.unwrap().time_secs, trace.time_secs);
//! ```

use crate::sim::topology::Tier;
use crate::ui::model::scaling_work::{Numbers, Reader, position};
use crate::ui::model::versus::{
    LinkUse, Side, TIMELINE_BUCKETS, VERSUS_GPUS, VERSUS_SEGMENTS, VersusJob, VersusSetup, link_use,
};

/// What starts a Ring-vs-Tree message to a worker (the scaling charts' are JSON, the lab's
/// [`lab_job::PREFIX`](crate::ui::model::lab_job::PREFIX)).
pub const PREFIX: &str = "versus:";

/// What the page sends a worker: one job of the figure's `generation` (a newer setup has a higher
/// one), the `index`-th of [`VersusSetup::jobs`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct VersusAsk {
    pub generation: u64,
    pub index: usize,
    pub setup: VersusSetup,
    pub job: VersusJob,
}

/// A finished job: its simulated time, and the link use of a run drawn as a timeline.
#[derive(Clone, Debug, PartialEq)]
pub struct VersusResult {
    pub time_secs: f64,
    pub link_use: Option<LinkUse>,
}

/// What a worker answers: the job's result, or `None` if it could not run (the page then finds
/// out why itself, to show the error).
#[derive(Clone, Debug, PartialEq)]
pub struct VersusAnswer {
    pub generation: u64,
    pub index: usize,
    pub result: Option<VersusResult>,
}

impl VersusAsk {
    /// The message's text: [`PREFIX`], then whole numbers, the setup's bandwidths and latencies by
    /// their bits, so that every value crosses exactly (and the worker parses no JSON for it).
    pub fn encode(&self) -> String {
        let s = &self.setup;
        let (kind, side, size) = match self.job {
            VersusJob::Point { side, size_bytes } => (0, side, size_bytes),
            VersusJob::Bandwidth { side } => (1, side, 0),
        };
        let numbers = [
            self.generation,
            self.index as u64,
            s.gpus as u64,
            s.size_bytes,
            s.segments as u64,
            s.intra_gbytes_per_sec.to_bits(),
            s.intra_lat_secs.to_bits(),
            s.node_gbits_per_sec.to_bits(),
            s.node_lat_secs.to_bits(),
            s.rack_gbits_per_sec.to_bits(),
            s.rack_lat_secs.to_bits(),
            kind,
            position(&Side::BOTH, side),
            size,
        ];
        let mut text = String::from(PREFIX);
        for n in numbers {
            text.push(' ');
            text.push_str(&n.to_string());
        }
        text
    }

    /// Reads [`encode`](Self::encode)'s text; `None` if it is not an ask, or asks for a setup the
    /// figure does not offer (more GPUs or segments than its sliders reach).
    pub fn decode(text: &str) -> Option<VersusAsk> {
        let numbers: Vec<u64> = (text.strip_prefix(PREFIX)?.split_whitespace())
            .map(|w| w.parse().ok())
            .collect::<Option<_>>()?;
        let &[
            generation,
            index,
            gpus,
            size_bytes,
            segments,
            a,
            b,
            c,
            d,
            e,
            f,
            kind,
            side,
            size,
        ] = &numbers[..]
        else {
            return None;
        };
        let gpus = usize::try_from(gpus).ok()?;
        let segments = usize::try_from(segments).ok()?;
        if gpus > VERSUS_GPUS[VERSUS_GPUS.len() - 1] as usize
            || segments > VERSUS_SEGMENTS[VERSUS_SEGMENTS.len() - 1] as usize
        {
            return None;
        }
        let side = *Side::BOTH.get(usize::try_from(side).ok()?)?;
        let job = match kind {
            0 => VersusJob::Point {
                side,
                size_bytes: size,
            },
            1 => VersusJob::Bandwidth { side },
            _ => return None,
        };
        let setup = VersusSetup {
            gpus,
            size_bytes,
            segments,
            intra_gbytes_per_sec: f64::from_bits(a),
            intra_lat_secs: f64::from_bits(b),
            node_gbits_per_sec: f64::from_bits(c),
            node_lat_secs: f64::from_bits(d),
            rack_gbits_per_sec: f64::from_bits(e),
            rack_lat_secs: f64::from_bits(f),
        };
        Some(VersusAsk {
            generation,
            index: usize::try_from(index).ok()?,
            setup,
            job,
        })
    }
}

impl VersusAnswer {
    /// The answer as numbers (a `Float64Array` on the wire, every bit kept).
    pub fn encode(&self) -> Vec<f64> {
        let mut n = Numbers(Vec::new());
        n.u(self.generation);
        n.u(self.index as u64);
        match &self.result {
            None => n.u(0),
            Some(r) => {
                n.u(1);
                n.f(r.time_secs);
                match &r.link_use {
                    None => n.u(0),
                    Some(lu) => {
                        n.u(1 + lu.tiers.len() as u64);
                        n.f(lu.time_secs);
                        for (tier, buckets) in &lu.tiers {
                            n.u(position(&Tier::ALL, *tier));
                            for &x in buckets {
                                n.f(x);
                            }
                        }
                    }
                }
            }
        }
        n.0
    }

    /// Reads [`encode`](Self::encode)'s numbers; `None` if they are not an answer (a wrong kind,
    /// cut short or left over).
    pub fn decode(numbers: &[f64]) -> Option<VersusAnswer> {
        let mut r = Reader(numbers.iter());
        let generation = r.u()?;
        let index = r.size()?;
        let result = match r.u()? {
            0 => None,
            1 => {
                let time_secs = r.f()?;
                let link_use = match r.size()? {
                    0 => None,
                    n if n - 1 <= Tier::ALL.len() => {
                        let time_secs = r.f()?;
                        let tiers = (1..n)
                            .map(|_| {
                                let tier = r.of(&Tier::ALL)?;
                                let buckets = (0..TIMELINE_BUCKETS)
                                    .map(|_| r.f())
                                    .collect::<Option<Vec<_>>>()?;
                                Some((tier, buckets))
                            })
                            .collect::<Option<Vec<_>>>()?;
                        Some(LinkUse { time_secs, tiers })
                    }
                    _ => return None,
                };
                Some(VersusResult {
                    time_secs,
                    link_use,
                })
            }
            _ => return None,
        };
        r.0.as_slice().is_empty().then_some(VersusAnswer {
            generation,
            index,
            result,
        })
    }
}

/// A worker's whole work for the figure: the answer to a [`VersusAsk`]'s text, as numbers
/// ([`VersusAnswer::encode`]); `None` if the text is not an ask.
pub fn answer_versus(ask: &str) -> Option<Vec<f64>> {
    let ask = VersusAsk::decode(ask)?;
    let result = ask.setup.run(ask.job).ok().map(|trace| VersusResult {
        time_secs: trace.time_secs,
        link_use: ask.setup.details(ask.job).then(|| link_use(&trace)),
    });
    let reply = VersusAnswer {
        generation: ask.generation,
        index: ask.index,
        result,
    };
    Some(reply.encode())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ui::model::scaling_work::answer_header;

    /// Every job of `setup` through the wire gives the page's own time and link use, bit for bit.
    fn through_worker_is_exact(setup: VersusSetup) {
        let jobs = setup.jobs();
        for (index, job) in jobs.into_iter().enumerate() {
            let ask = VersusAsk {
                generation: 9,
                index,
                setup,
                job,
            };
            assert_eq!(VersusAsk::decode(&ask.encode()), Some(ask));
            let numbers = answer_versus(&ask.encode()).unwrap();
            // What the page's pool reads first, as of a scaling point's answer.
            assert_eq!(answer_header(&numbers), Some((9, index)));
            let reply = VersusAnswer::decode(&numbers).unwrap();
            assert_eq!((reply.generation, reply.index), (9, index));
            let trace = setup.run(job).unwrap();
            let result = reply.result.unwrap();
            assert_eq!(
                result.time_secs.to_bits(),
                trace.time_secs.to_bits(),
                "{job:?}"
            );
            match result.link_use {
                Some(lu) => {
                    assert!(setup.details(job), "{job:?}");
                    let page = link_use(&trace);
                    assert_eq!(format!("{lu:?}"), format!("{page:?}"));
                    assert!(!lu.tiers.is_empty());
                }
                None => assert!(!setup.details(job), "{job:?}"),
            }
        }
    }

    #[test]
    fn a_job_through_a_worker_is_the_pages_own_run() {
        through_worker_is_exact(VersusSetup::default());
        // Odd numbers in every field the ask carries by its bits.
        through_worker_is_exact(VersusSetup {
            gpus: 16,
            size_bytes: 512,
            segments: 4,
            intra_gbytes_per_sec: 0.1 + 0.2,
            intra_lat_secs: 1.0 / 3.0 * 1e-6,
            node_gbits_per_sec: 123.456,
            node_lat_secs: 0.0,
            rack_gbits_per_sec: 1e-3,
            rack_lat_secs: 7.77e-6,
        });
    }

    #[test]
    fn a_setup_that_cannot_run_answers_none() {
        let setup = VersusSetup {
            intra_gbytes_per_sec: -1.0,
            ..VersusSetup::default()
        };
        let job = setup.jobs()[0];
        assert!(setup.run(job).is_err());
        let ask = VersusAsk {
            generation: 1,
            index: 0,
            setup,
            job,
        };
        let reply = VersusAnswer::decode(&answer_versus(&ask.encode()).unwrap()).unwrap();
        assert_eq!(reply.result, None);
    }

    #[test]
    fn what_is_not_an_ask_or_an_answer_is_refused() {
        let ask = VersusAsk {
            generation: 1,
            index: 2,
            setup: VersusSetup::default(),
            job: VersusJob::Bandwidth { side: Side::Tree },
        };
        let text = ask.encode();
        assert_eq!(VersusAsk::decode(&text), Some(ask));
        for bad in [
            String::new(),
            "versus:".into(),
            text.replace(PREFIX, "vs:"),
            format!("{text} 1"),
            text.rsplit_once(' ').unwrap().0.to_string(),
            text.replacen(" 8 ", " 2048 ", 1),
            text.replacen(" 32 ", " 129 ", 1),
            text.replace(" 1 1 0", " 1 2 0"),
            text.replace(" 1 1 0", " 1 1 x"),
        ] {
            assert_eq!(VersusAsk::decode(&bad), None, "{bad}");
        }
        assert_eq!(answer_versus("{\"generation\": 1}"), None);
        let numbers = answer_versus(&text).unwrap();
        assert!(VersusAnswer::decode(&numbers).is_some());
        assert_eq!(VersusAnswer::decode(&numbers[..numbers.len() - 1]), None);
        let mut more = numbers.clone();
        more.push(0.0);
        assert_eq!(VersusAnswer::decode(&more), None);
        let mut kind = numbers;
        kind[2] = f64::from_bits(7);
        assert_eq!(VersusAnswer::decode(&kind), None);
    }
}
