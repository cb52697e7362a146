//! What happened in a run: when every transfer moved, what every link and rank carried, the totals
//! (time, algbw, busbw as nccl-tests defines them) and the bandwidth lower bound.

use super::network::RateChange;
use super::schedule::{Schedule, Transfer};
use super::topology::{Endpoint, Route, Tier, Topology, TopologySpec};
use serde::Serialize;

/// When one transfer moved.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct TransferTiming {
    /// Its dependencies were done; the payload left the sender's buffer.
    pub start_secs: f64,
    /// The route latency has passed; bytes begin to stream.
    pub first_byte_secs: f64,
    /// The last byte has arrived.
    pub last_byte_secs: f64,
    /// The receiver has reduced (or stored) it; dependents may start.
    pub done_secs: f64,
}

/// Bytes a rank sent and received.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct RankTraffic {
    pub sent_bytes: u64,
    pub received_bytes: u64,
}

/// What a link carried.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct LinkReport {
    pub bytes: f64,
    /// Seconds during which at least one transfer streamed over it.
    pub busy_secs: f64,
    /// Its total rate over time (empty unless recorded).
    pub timeline: Vec<RateChange>,
}

/// Which bound limits an allreduce the most.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum BoundKind {
    /// Every rank's port: 2(N−1)·S over the sum of the ranks' injection bandwidths.
    Injection,
    /// The node↔rack tier: 2(M−1)·S over the M nodes' NIC bandwidth.
    NodeTier,
    /// The rack↔spine tier: 2(K−1)·S over the K racks' uplink bandwidth.
    RackTier,
}

/// The time no allreduce algorithm can beat on this topology, from bandwidth alone.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct LowerBound {
    pub secs: f64,
    pub kind: BoundKind,
}

impl LowerBound {
    /// A sentence saying where the bound comes from.
    pub fn explain(&self) -> &'static str {
        match self.kind {
            BoundKind::Injection => {
                "every rank must send and receive 2(N−1)/N × S in total: 2(N−1)·S over the sum of the ranks' port bandwidths"
            }
            BoundKind::NodeTier => {
                "the nodes' NICs are the tighter cut: the nodes together must exchange 2(M−1)·S over M NICs"
            }
            BoundKind::RackTier => {
                "the racks' uplinks are the tighter cut: the racks together must exchange 2(K−1)·S over K uplinks"
            }
        }
    }
}

/// The bandwidth lower bound of an allreduce of `size_bytes` per rank on `topo`.
///
/// An allreduce among P parties moves at least 2(P−1)·S bytes out of them in total; applied to the
/// ranks and to each tier's units (nodes, racks) it gives one bound per tier; the largest wins.
///
/// ```
/// use allreduce_lab::sim::{topology::*, trace::*, units::Bandwidth};
/// let topo = Topology::new(&TopologySpec::Uniform {
///     ranks: 8, bandwidth: Bandwidth::from_gbytes_per_sec(100.0), latency_secs: 5e-6 }).unwrap();
/// let lb = lower_bound(&topo, 1_000_000_000);
/// // 2(N−1)/N × S / B = 1.75 × 1 GB / 100 GB/s
/// assert!((lb.secs - 0.0175).abs() < 1e-15);
/// assert_eq!(lb.kind, BoundKind::Injection);
/// ```
pub fn lower_bound(topo: &Topology, size_bytes: u64) -> LowerBound {
    let s = size_bytes as f64;
    let n = topo.ranks();
    let injection: f64 = (0..n)
        .map(|r| topo.injection_bandwidth(r).bytes_per_sec())
        .sum();
    let mut best = LowerBound {
        secs: 2.0 * (n as f64 - 1.0) * s / injection,
        kind: BoundKind::Injection,
    };
    if let TopologySpec::Cluster { .. } = topo.spec() {
        for (tier, kind, units) in [
            (Tier::Node, BoundKind::NodeTier, topo.nodes()),
            (Tier::Rack, BoundKind::RackTier, topo.racks()),
        ] {
            if units < 2 {
                continue;
            }
            // The up-links of this tier: one per unit.
            let up: f64 = topo
                .links()
                .iter()
                .filter(|l| {
                    l.tier == tier
                        && match tier {
                            Tier::Node => matches!(l.to, Endpoint::RackSwitch(_)),
                            _ => l.to == Endpoint::Spine,
                        }
                })
                .map(|l| l.bandwidth.bytes_per_sec())
                .sum();
            let secs = 2.0 * (units as f64 - 1.0) * s / up;
            if secs > best.secs {
                best = LowerBound { secs, kind };
            }
        }
    }
    best
}

/// One rank's chunk changed: it now holds `contributors` ranks' contributions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CellChange {
    pub transfer: u32,
    pub rank: u32,
    pub chunk: u32,
    pub contributors: u32,
}

/// Everything a run produced.
#[derive(Clone, Debug)]
pub struct Trace {
    pub topology: Topology,
    pub schedule: Schedule,
    pub timings: Vec<TransferTiming>,
    pub ranks: Vec<RankTraffic>,
    pub links: Vec<LinkReport>,
    /// When the last transfer was done.
    pub time_secs: f64,
    pub lower_bound: LowerBound,
    /// `Ok` when every rank ends with every contribution exactly once.
    pub verification: Result<(), String>,
    /// Every change of a buffer cell's contributor count, in the order the run made them (empty
    /// unless the run recorded details).
    pub cell_changes: Vec<CellChange>,
    /// The end time of every algorithm step (the latest `done` among its transfers), in step order.
    pub step_end_secs: Vec<f64>,
}

impl Trace {
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn new(
        topology: Topology,
        schedule: Schedule,
        timings: Vec<TransferTiming>,
        ranks: Vec<RankTraffic>,
        links: Vec<LinkReport>,
        cell_changes: Vec<CellChange>,
        time_secs: f64,
        verification: Result<(), String>,
    ) -> Trace {
        let lower_bound = lower_bound(&topology, schedule.size_bytes());
        let mut step_end_secs = vec![0.0f64; schedule.steps() as usize];
        for (t, timing) in schedule.transfers().iter().zip(&timings) {
            let e = &mut step_end_secs[t.step as usize];
            *e = e.max(timing.done_secs);
        }
        // Steps overlap in a pipelined schedule; keep the boundaries increasing.
        for i in 1..step_end_secs.len() {
            step_end_secs[i] = step_end_secs[i].max(step_end_secs[i - 1]);
        }
        Trace {
            topology,
            schedule,
            timings,
            ranks,
            links,
            time_secs,
            lower_bound,
            verification,
            cell_changes,
            step_end_secs,
        }
    }

    /// S: the bytes each rank contributes.
    pub fn size_bytes(&self) -> u64 {
        self.schedule.size_bytes()
    }

    pub fn verified(&self) -> bool {
        self.verification.is_ok()
    }

    /// algbw = S / t (nccl-tests), in bytes per second. Zero for an empty run.
    pub fn algbw_bytes_per_sec(&self) -> f64 {
        if self.time_secs > 0.0 {
            self.size_bytes() as f64 / self.time_secs
        } else {
            0.0
        }
    }

    /// busbw = algbw × 2(N−1)/N (nccl-tests): comparable with the links' bandwidth.
    pub fn busbw_bytes_per_sec(&self) -> f64 {
        let n = self.topology.ranks() as f64;
        self.algbw_bytes_per_sec() * 2.0 * (n - 1.0) / n
    }

    /// How close the run came to the lower bound: bound / time, in (0, 1].
    pub fn efficiency(&self) -> f64 {
        if self.time_secs > 0.0 {
            self.lower_bound.secs / self.time_secs
        } else {
            1.0
        }
    }

    /// Share of the run during which `link` carried data.
    pub fn busy_fraction(&self, link: usize) -> f64 {
        if self.time_secs > 0.0 {
            self.links[link].busy_secs / self.time_secs
        } else {
            0.0
        }
    }

    /// Bytes carried over what the link could have carried in the whole run, in [0, 1].
    pub fn utilisation(&self, link: usize) -> f64 {
        let cap = self.topology.links()[link].bandwidth.bytes_per_sec();
        if self.time_secs > 0.0 {
            self.links[link].bytes / (cap * self.time_secs)
        } else {
            0.0
        }
    }

    /// The link with the highest utilisation (ties: the lowest id).
    pub fn busiest_link(&self) -> Option<usize> {
        (0..self.links.len()).fold(None, |best: Option<usize>, l| match best {
            Some(b) if self.utilisation(b) >= self.utilisation(l) => Some(b),
            _ => Some(l),
        })
    }

    pub fn transfer(&self, id: usize) -> &Transfer {
        self.schedule.transfer(id)
    }

    pub fn route(&self, id: usize) -> Route {
        let t = self.schedule.transfer(id);
        self.topology.route(t.src as usize, t.dst as usize)
    }

    /// The total rate of `link` at time `t` (0 without a recorded timeline).
    pub fn link_rate_at(&self, link: usize, t: f64) -> f64 {
        let tl = &self.links[link].timeline;
        let i = tl.partition_point(|c| c.at_secs <= t);
        if i == 0 {
            0.0
        } else {
            tl[i - 1].bytes_per_sec
        }
    }

    /// Bytes of `link` carried up to time `t`, integrating its timeline.
    pub fn link_bytes_until(&self, link: usize, t: f64) -> f64 {
        let tl = &self.links[link].timeline;
        let mut total = 0.0;
        for (i, c) in tl.iter().enumerate() {
            if c.at_secs >= t {
                break;
            }
            let end = tl.get(i + 1).map_or(t, |n| n.at_secs.min(t));
            total += c.bytes_per_sec * (end - c.at_secs);
        }
        total
    }

    /// The seconds `link` was busy up to time `t`.
    pub fn link_busy_until(&self, link: usize, t: f64) -> f64 {
        let tl = &self.links[link].timeline;
        let mut total = 0.0;
        for (i, c) in tl.iter().enumerate() {
            if c.at_secs >= t {
                break;
            }
            if c.bytes_per_sec > 0.0 {
                let end = tl.get(i + 1).map_or(t, |n| n.at_secs.min(t));
                total += end - c.at_secs;
            }
        }
        total
    }
}
