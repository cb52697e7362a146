//! What happened in a run: when every transfer moved, what every link and rank carried, the totals
//! (time, algbw, busbw as nccl-tests defines them) and the bandwidth lower bound.
//!
//! Size: over 450 lines because about 40% of it is documentation and examples.

use super::records::{CellChanges, Timeline, Timings};
use super::schedule::{Schedule, Transfer};
use super::topology::{Endpoint, Route, Tier, Topology};
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
    pub timeline: Timeline,
}

/// Which bound limits an allreduce the most.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum BoundKind {
    /// Every rank's ports: 2(N−1)·S over the sum of the bandwidths by which data leave the ranks.
    Injection,
    /// The same on a rail network of several nodes, where data leave a rank by its port and by its
    /// own NIC: 2(N−1)·S over the sum of both.
    InjectionWithNics,
    /// The NIC tier: 2(M−1)·S over the M nodes' NIC bandwidth.
    NodeTier,
    /// The rack↔spine tier: 2(K−1)·S over the K racks' uplink bandwidth.
    RackTier,
}

/// Which of a bound's two terms is the larger.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum BoundTerm {
    /// The message latency any allreduce must wait before its first byte crosses the cut.
    Latency,
    /// The bytes that must cross the cut, over its bandwidth.
    Bandwidth,
}

/// The time no allreduce algorithm can beat on this topology: for the tightest cut, the latency
/// of the quickest message across it plus the bytes that must cross it over its bandwidth.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct LowerBound {
    /// `latency_secs + bandwidth_secs`.
    pub secs: f64,
    pub kind: BoundKind,
    /// One message latency: the shortest route across the cut. Nothing crosses a cut before a
    /// message has waited its route's latency.
    pub latency_secs: f64,
    /// The bytes that must cross the cut over the cut's total bandwidth.
    pub bandwidth_secs: f64,
}

impl LowerBound {
    /// The larger term (ties: bandwidth).
    ///
    /// ```
    /// use allreduce_sim::{topology::*, trace::*, units::Bandwidth};
    /// let topo = Topology::new(&TopologySpec::Uniform {
    ///     ranks: 8, bandwidth: Bandwidth::from_gbytes_per_sec(100.0), latency_secs: 5e-6 }).unwrap();
    /// assert_eq!(lower_bound(&topo, 1 << 30).dominant(), BoundTerm::Bandwidth);
    /// assert_eq!(lower_bound(&topo, 8).dominant(), BoundTerm::Latency); // 8 bytes: α wins
    /// ```
    pub fn dominant(&self) -> BoundTerm {
        if self.latency_secs > self.bandwidth_secs {
            BoundTerm::Latency
        } else {
            BoundTerm::Bandwidth
        }
    }

    /// A sentence saying where the bound comes from.
    ///
    /// ```
    /// use allreduce_sim::{topology::*, trace::*, units::Bandwidth};
    /// let topo = Topology::new(&TopologySpec::Uniform {
    ///     ranks: 8, bandwidth: Bandwidth::from_gbytes_per_sec(100.0), latency_secs: 5e-6 }).unwrap();
    /// let lb = lower_bound(&topo, 1 << 30);
    /// assert_eq!(lb.kind, BoundKind::Injection);
    /// assert!(lb.explain().starts_with("bandwidth dominates: every rank must send"));
    /// ```
    pub fn explain(&self) -> &'static str {
        match (self.kind, self.dominant()) {
            (BoundKind::Injection, BoundTerm::Bandwidth) => {
                "bandwidth dominates: every rank must send and receive 2(N−1)/N × S in total, 2(N−1)·S over the sum of the ranks' port bandwidths, after one message latency"
            }
            (BoundKind::Injection, BoundTerm::Latency) => {
                "latency dominates: at least one message latency between ranks, plus 2(N−1)·S over the sum of the ranks' port bandwidths"
            }
            (BoundKind::InjectionWithNics, BoundTerm::Bandwidth) => {
                "bandwidth dominates: every rank must send and receive 2(N−1)/N × S in total, 2(N−1)·S over the sum of the ranks' ports and their own NICs (on rails data leave a GPU by both), after one message latency"
            }
            (BoundKind::InjectionWithNics, BoundTerm::Latency) => {
                "latency dominates: at least one message latency between ranks, plus 2(N−1)·S over the sum of the ranks' ports and their own NICs"
            }
            (BoundKind::NodeTier, BoundTerm::Bandwidth) => {
                "bandwidth dominates: the nodes' NICs are the tighter cut, the nodes together must exchange 2(M−1)·S over their NICs, after one message latency between nodes"
            }
            (BoundKind::NodeTier, BoundTerm::Latency) => {
                "latency dominates: at least one message latency between nodes, plus 2(M−1)·S over the nodes' NICs"
            }
            (BoundKind::RackTier, BoundTerm::Bandwidth) => {
                "bandwidth dominates: the racks' uplinks are the tighter cut, the racks together must exchange 2(K−1)·S over K uplinks, after one message latency between racks"
            }
            (BoundKind::RackTier, BoundTerm::Latency) => {
                "latency dominates: at least one message latency between racks, plus 2(K−1)·S over K uplinks"
            }
        }
    }
}

/// The lower bound of an allreduce of `size_bytes` per rank on `topo`: latency and bandwidth.
///
/// An allreduce among P parties moves at least 2(P−1)·S bytes out of them in total. Applied to the
/// ranks (over every link by which data leave a rank) and to each tier's units (nodes, racks: over
/// their NICs and uplinks) it gives one cut per tier. No byte crosses a cut before a message has
/// waited the latency of a route across it, so each cut's bound is that latency plus its bytes over
/// its bandwidth; the largest wins.
///
/// The latency term is one message latency, not ⌈log₂N⌉: ranks here send and receive many messages
/// at once, and an allreduce in which every rank sends its whole buffer straight to every other
/// needs a single one (the ⌈log₂N⌉ bound holds where a rank talks to one peer at a time).
///
/// ```
/// use allreduce_sim::{topology::*, trace::*, units::Bandwidth};
/// let topo = Topology::new(&TopologySpec::Uniform {
///     ranks: 8, bandwidth: Bandwidth::from_gbytes_per_sec(100.0), latency_secs: 5e-6 }).unwrap();
/// let lb = lower_bound(&topo, 1_000_000_000);
/// // 2(N−1)/N × S / B = 1.75 × 1 GB / 100 GB/s, after α = 5 µs
/// assert!((lb.bandwidth_secs - 0.0175).abs() < 1e-15);
/// assert_eq!(lb.latency_secs, 5e-6);
/// assert_eq!(lb.secs, lb.latency_secs + lb.bandwidth_secs);
/// assert_eq!((lb.kind, lb.dominant()), (BoundKind::Injection, BoundTerm::Bandwidth));
/// // 1 KB: the latency dominates.
/// assert_eq!(lower_bound(&topo, 1000).dominant(), BoundTerm::Latency);
/// ```
pub fn lower_bound(topo: &Topology, size_bytes: u64) -> LowerBound {
    let s = size_bytes as f64;
    let n = topo.ranks();
    let zero = LowerBound {
        secs: 0.0,
        kind: BoundKind::Injection,
        latency_secs: 0.0,
        bandwidth_secs: 0.0,
    };
    if n < 2 {
        return zero;
    }
    // Every rank is alike, so the quickest route across a cut starts at rank 0.
    let quickest = |crosses: &dyn Fn(usize) -> bool| {
        (1..n)
            .filter(|&d| crosses(d))
            .map(|d| topo.route(0, d).latency_secs)
            .fold(f64::INFINITY, f64::min)
    };
    let capacity = |leaves: &dyn Fn(&super::topology::Link) -> bool| -> f64 {
        topo.links()
            .iter()
            .filter(|l| leaves(l))
            .map(|l| l.bandwidth.bytes_per_sec())
            .sum()
    };
    // Data leave a rank by its port, and on `rail` also by its own NIC, when there is another
    // node to reach by it (within one node every route keeps to the switch).
    let nics = topo.is_rail() && topo.nodes() > 1;
    let injection = capacity(&|l| {
        matches!(l.from, Endpoint::Rank(_))
            || (nics && l.tier == Tier::Node && matches!(l.to, Endpoint::Rail(_)))
    });
    let cut = |kind, units: usize, cap: f64, lat: f64| {
        let bandwidth_secs = 2.0 * (units as f64 - 1.0) * s / cap;
        LowerBound {
            secs: lat + bandwidth_secs,
            kind,
            latency_secs: lat,
            bandwidth_secs,
        }
    };
    let kind = if nics {
        BoundKind::InjectionWithNics
    } else {
        BoundKind::Injection
    };
    let mut best = cut(kind, n, injection, quickest(&|_| true));
    if !topo.is_uniform() {
        let tiers: [(BoundKind, usize, f64, f64); 2] = [
            (
                BoundKind::NodeTier,
                topo.nodes(),
                capacity(&|l| {
                    l.tier == Tier::Node
                        && matches!(l.to, Endpoint::RackSwitch(_) | Endpoint::Rail(_))
                }),
                quickest(&|d| topo.node_of(d) != 0),
            ),
            (
                BoundKind::RackTier,
                topo.racks(),
                capacity(&|l| l.tier == Tier::Rack && l.to == Endpoint::Spine),
                quickest(&|d| topo.rack_of(d) != 0),
            ),
        ];
        for (kind, units, cap, lat) in tiers {
            if units < 2 {
                continue;
            }
            let b = cut(kind, units, cap, lat);
            if b.secs > best.secs {
                best = b;
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

/// algbw = S / t (nccl-tests) of `size_bytes` allreduced in `time_secs`, in bytes per second;
/// zero for no time.
///
/// ```
/// use allreduce_sim::trace::algbw;
/// assert_eq!(algbw(4_000_000, 4e-3), 1e9);
/// assert_eq!(algbw(4_000_000, 0.0), 0.0);
/// ```
pub fn algbw(size_bytes: u64, time_secs: f64) -> f64 {
    if time_secs > 0.0 {
        size_bytes as f64 / time_secs
    } else {
        0.0
    }
}

/// busbw = algbw × 2(N−1)/N (nccl-tests) among `ranks` ranks.
///
/// ```
/// use allreduce_sim::trace::busbw;
/// assert_eq!(busbw(1e9, 4), 1.5e9);
/// ```
pub fn busbw(algbw_bytes_per_sec: f64, ranks: usize) -> f64 {
    let n = ranks as f64;
    algbw_bytes_per_sec * 2.0 * (n - 1.0) / n
}

/// Everything a run produced.
#[derive(Clone, Debug)]
pub struct Trace {
    pub topology: Topology,
    pub schedule: Schedule,
    /// Per transfer, when it moved (see [`Trace::timing`]).
    pub timings: Timings,
    pub ranks: Vec<RankTraffic>,
    pub links: Vec<LinkReport>,
    /// When the last transfer was done.
    pub time_secs: f64,
    pub lower_bound: LowerBound,
    /// `Ok` when every rank ends with every contribution exactly once.
    pub verification: Result<(), String>,
    /// Every change of a buffer cell's contributor count, in the order the run made them (empty
    /// unless the run recorded details).
    pub cell_changes: CellChanges,
    /// The end time of every algorithm step (the latest `done` among its transfers), in step order.
    pub step_end_secs: Vec<f64>,
}

impl Trace {
    /// A run's trace, from what the run kept.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn from_run(
        topology: Topology,
        schedule: Schedule,
        timings: Timings,
        ranks: Vec<RankTraffic>,
        links: Vec<LinkReport>,
        cell_changes: CellChanges,
        time_secs: f64,
        verification: Result<(), String>,
        step_end_secs: Vec<f64>,
    ) -> Trace {
        let lower_bound = lower_bound(&topology, schedule.size_bytes());
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
    ///
    /// ```
    /// use allreduce_sim::{algorithms::{self, Algorithm}, run::*, topology::*, units::Bandwidth};
    /// let topo = Topology::new(&TopologySpec::Uniform {
    ///     ranks: 4, bandwidth: Bandwidth::from_gbytes_per_sec(1.0), latency_secs: 0.0 }).unwrap();
    /// let trace = run(&topo, algorithms::schedule(Algorithm::Ring, &topo, 4_000_000, 1), &RunOptions::default());
    /// assert_eq!(trace.size_bytes(), 4_000_000);
    /// ```
    pub fn size_bytes(&self) -> u64 {
        self.schedule.size_bytes()
    }

    /// Whether every rank ended with every contribution exactly once.
    ///
    /// ```
    /// use allreduce_sim::{algorithms::{self, Algorithm}, run::*, topology::*, units::Bandwidth};
    /// let topo = Topology::new(&TopologySpec::Uniform {
    ///     ranks: 5, bandwidth: Bandwidth::from_gbytes_per_sec(1.0), latency_secs: 1e-6 }).unwrap();
    /// for alg in Algorithm::CONCRETE {
    ///     let trace = run(&topo, algorithms::schedule(alg, &topo, 10_000, 2), &RunOptions::default());
    ///     assert!(trace.verified(), "{alg}");
    /// }
    /// ```
    pub fn verified(&self) -> bool {
        self.verification.is_ok()
    }

    /// algbw = S / t (nccl-tests), in bytes per second. Zero for an empty run.
    ///
    /// ```
    /// use allreduce_sim::{algorithms::{self, Algorithm}, run::*, topology::*, units::Bandwidth};
    /// let topo = Topology::new(&TopologySpec::Uniform {
    ///     ranks: 4, bandwidth: Bandwidth::from_gbytes_per_sec(1.0), latency_secs: 0.0 }).unwrap();
    /// let trace = run(&topo, algorithms::schedule(Algorithm::Ring, &topo, 4_000_000, 1), &RunOptions::default());
    /// // The ring takes 2(N−1)/N · S/B = 6 ms: algbw = 4 MB / 6 ms.
    /// assert!((trace.time_secs - 6e-3).abs() < 1e-12);
    /// assert!((trace.algbw_bytes_per_sec() - 4e6 / 6e-3).abs() < 1e-3);
    /// ```
    pub fn algbw_bytes_per_sec(&self) -> f64 {
        algbw(self.size_bytes(), self.time_secs)
    }

    /// busbw = algbw × 2(N−1)/N (nccl-tests): comparable with the links' bandwidth.
    ///
    /// ```
    /// use allreduce_sim::{algorithms::{self, Algorithm}, run::*, topology::*, units::Bandwidth};
    /// let topo = Topology::new(&TopologySpec::Uniform {
    ///     ranks: 4, bandwidth: Bandwidth::from_gbytes_per_sec(1.0), latency_secs: 0.0 }).unwrap();
    /// let trace = run(&topo, algorithms::schedule(Algorithm::Ring, &topo, 4_000_000, 1), &RunOptions::default());
    /// // Without latency the ring's busbw is the links' bandwidth.
    /// assert!((trace.busbw_bytes_per_sec() - 1e9).abs() < 1e-3);
    /// ```
    pub fn busbw_bytes_per_sec(&self) -> f64 {
        busbw(self.algbw_bytes_per_sec(), self.topology.ranks())
    }

    /// How close the run came to the lower bound: bound / time, in (0, 1].
    ///
    /// ```
    /// use allreduce_sim::{algorithms::{self, Algorithm}, run::*, topology::*, units::Bandwidth};
    /// let topo = Topology::new(&TopologySpec::Uniform {
    ///     ranks: 4, bandwidth: Bandwidth::from_gbytes_per_sec(1.0), latency_secs: 0.0 }).unwrap();
    /// let ring = run(&topo, algorithms::schedule(Algorithm::Ring, &topo, 4_000_000, 1), &RunOptions::default());
    /// assert!((ring.efficiency() - 1.0).abs() < 1e-9); // the ring meets the bound
    /// let flat = run(&topo, algorithms::schedule(Algorithm::TreeFlat, &topo, 4_000_000, 1), &RunOptions::default());
    /// assert!(flat.efficiency() < 0.5); // the root's port carries (N−1)·S each way
    /// ```
    pub fn efficiency(&self) -> f64 {
        if self.time_secs > 0.0 {
            self.lower_bound.secs / self.time_secs
        } else {
            1.0
        }
    }

    /// Share of the run during which `link` carried data.
    ///
    /// ```
    /// use allreduce_sim::{algorithms::{self, Algorithm}, run::*, topology::*, units::Bandwidth};
    /// let topo = Topology::new(&TopologySpec::Uniform {
    ///     ranks: 4, bandwidth: Bandwidth::from_gbytes_per_sec(1.0), latency_secs: 0.0 }).unwrap();
    /// let trace = run(&topo, algorithms::schedule(Algorithm::Ring, &topo, 4_000_000, 1), &RunOptions::default());
    /// // Every rank sends and receives at every step: each up and down link is busy all the time.
    /// assert_eq!(trace.links.len(), 8);
    /// assert!((0..8).all(|l| (trace.busy_fraction(l) - 1.0).abs() < 1e-9));
    /// ```
    pub fn busy_fraction(&self, link: usize) -> f64 {
        if self.time_secs > 0.0 {
            self.links[link].busy_secs / self.time_secs
        } else {
            0.0
        }
    }

    /// Bytes carried over what the link could have carried in the whole run, in [0, 1].
    ///
    /// ```
    /// use allreduce_sim::{algorithms::{self, Algorithm}, run::*, topology::*, units::Bandwidth};
    /// let topo = Topology::new(&TopologySpec::Uniform {
    ///     ranks: 4, bandwidth: Bandwidth::from_gbytes_per_sec(1.0), latency_secs: 0.0 }).unwrap();
    /// let trace = run(&topo, algorithms::schedule(Algorithm::Ring, &topo, 4_000_000, 1), &RunOptions::default());
    /// // Each link carries 2(N−1)/N · S = 6 MB in 6 ms at 1 GB/s.
    /// assert!((0..8).all(|l| (trace.utilisation(l) - 1.0).abs() < 1e-9));
    /// ```
    pub fn utilisation(&self, link: usize) -> f64 {
        let cap = self.topology.links()[link].bandwidth.bytes_per_sec();
        if self.time_secs > 0.0 {
            self.links[link].bytes / (cap * self.time_secs)
        } else {
            0.0
        }
    }

    /// The link with the highest utilisation (ties: the lowest id).
    ///
    /// ```
    /// use allreduce_sim::{algorithms::{self, Algorithm}, run::*, topology::*, units::Bandwidth};
    /// let topo = Topology::new(&TopologySpec::Uniform {
    ///     ranks: 4, bandwidth: Bandwidth::from_gbytes_per_sec(1.0), latency_secs: 0.0 }).unwrap();
    /// let trace = run(&topo, algorithms::schedule(Algorithm::TreeFlat, &topo, 3_000_000, 1), &RunOptions::default());
    /// let busiest = trace.busiest_link().unwrap();
    /// assert!((0..trace.links.len()).all(|l| trace.utilisation(l) <= trace.utilisation(busiest)));
    /// // The flat tree's root takes in (N−1)·S: 9 MB, three times any other rank.
    /// assert!((trace.links[busiest].bytes - 9e6).abs() < 1e-3);
    /// ```
    pub fn busiest_link(&self) -> Option<usize> {
        (0..self.links.len()).fold(None, |best: Option<usize>, l| match best {
            Some(b) if self.utilisation(b) >= self.utilisation(l) => Some(b),
            _ => Some(l),
        })
    }

    /// Transfer `id` of the run's schedule.
    ///
    /// ```
    /// use allreduce_sim::{algorithms::{self, Algorithm}, run::*, schedule::*, topology::*, units::Bandwidth};
    /// let topo = Topology::new(&TopologySpec::Uniform {
    ///     ranks: 4, bandwidth: Bandwidth::from_gbytes_per_sec(1.0), latency_secs: 0.0 }).unwrap();
    /// let trace = run(&topo, algorithms::schedule(Algorithm::Ring, &topo, 4_000, 1), &RunOptions::default());
    /// let (first, last) = (trace.transfer(0), trace.transfer(23));
    /// assert_eq!((first.phase(), first.op(), first.step()), (Phase::ReduceScatter, Op::Reduce, 0));
    /// assert_eq!((last.phase(), last.op(), last.step()), (Phase::AllGather, Op::Copy, 5));
    /// ```
    pub fn transfer(&self, id: usize) -> &Transfer {
        self.schedule.transfer(id)
    }

    /// When transfer `id` moved.
    ///
    /// ```
    /// use allreduce_sim::{algorithms::{self, Algorithm}, run::*, topology::*, units::Bandwidth};
    /// let topo = Topology::new(&TopologySpec::Uniform {
    ///     ranks: 4, bandwidth: Bandwidth::from_gbytes_per_sec(1.0), latency_secs: 0.0 }).unwrap();
    /// let trace = run(&topo, algorithms::schedule(Algorithm::Ring, &topo, 4_000_000, 1), &RunOptions::default());
    /// // The ring's first step: 1 MB at 1 GB/s, from 0 to 1 ms.
    /// let t = trace.timing(0);
    /// assert_eq!((t.start_secs, t.first_byte_secs, t.done_secs), (0.0, 0.0, 1e-3));
    /// ```
    pub fn timing(&self, id: usize) -> TransferTiming {
        self.timings.get(id)
    }

    /// The links transfer `id` crossed, from its sender to its receiver.
    ///
    /// ```
    /// use allreduce_sim::{algorithms::{self, Algorithm}, run::*, topology::*, units::Bandwidth};
    /// let topo = Topology::new(&TopologySpec::Uniform {
    ///     ranks: 4, bandwidth: Bandwidth::from_gbytes_per_sec(1.0), latency_secs: 0.0 }).unwrap();
    /// let trace = run(&topo, algorithms::schedule(Algorithm::Ring, &topo, 4_000, 1), &RunOptions::default());
    /// // On `uniform`: up from the sender to the switch, down to the receiver.
    /// assert!((0..trace.schedule.len()).all(|id| trace.route(id).links().len() == 2));
    /// ```
    pub fn route(&self, id: usize) -> Route {
        let t = self.schedule.transfer(id);
        self.topology.route(t.src() as usize, t.dst() as usize)
    }

    /// The total rate of `link` at time `t` (0 without a recorded timeline).
    pub fn link_rate_at(&self, link: usize, t: f64) -> f64 {
        let tl = &self.links[link].timeline;
        let i = tl.partition_point(|c| c.at_secs <= t);
        match i.checked_sub(1).and_then(|i| tl.get(i)) {
            Some(c) => c.bytes_per_sec,
            None => 0.0,
        }
    }

    /// Bytes of `link` carried up to time `t`, integrating its timeline.
    ///
    /// ```
    /// use allreduce_sim::{algorithms::{self, Algorithm}, run::*, topology::*, units::Bandwidth};
    /// let topo = Topology::new(&TopologySpec::Uniform {
    ///     ranks: 4, bandwidth: Bandwidth::from_gbytes_per_sec(1.0), latency_secs: 0.0 }).unwrap();
    /// let trace = run(&topo, algorithms::schedule(Algorithm::Ring, &topo, 4_000_000, 1), &RunOptions::default());
    /// // The ring keeps every link at 1 GB/s: 3 MB by half time, all 6 MB at the end.
    /// assert!((trace.link_bytes_until(0, 3e-3) - 3e6).abs() < 1e-3);
    /// assert!((trace.link_bytes_until(0, trace.time_secs) - trace.links[0].bytes).abs() < 1e-3);
    /// ```
    pub fn link_bytes_until(&self, link: usize, t: f64) -> f64 {
        let tl = &self.links[link].timeline;
        let mut total = 0.0;
        let mut changes = tl.iter().peekable();
        while let Some(c) = changes.next() {
            if c.at_secs >= t {
                break;
            }
            let end = changes.peek().map_or(t, |n| n.at_secs.min(t));
            total += c.bytes_per_sec * (end - c.at_secs);
        }
        total
    }

    /// The seconds `link` was busy up to time `t`.
    ///
    /// ```
    /// use allreduce_sim::{algorithms::{self, Algorithm}, run::*, topology::*, units::Bandwidth};
    /// let topo = Topology::new(&TopologySpec::Uniform {
    ///     ranks: 4, bandwidth: Bandwidth::from_gbytes_per_sec(1.0), latency_secs: 0.0 }).unwrap();
    /// let trace = run(&topo, algorithms::schedule(Algorithm::Ring, &topo, 4_000_000, 1), &RunOptions::default());
    /// assert!((trace.link_busy_until(5, 2e-3) - 2e-3).abs() < 1e-12);
    /// assert!((trace.link_busy_until(5, trace.time_secs) - trace.links[5].busy_secs).abs() < 1e-12);
    /// ```
    pub fn link_busy_until(&self, link: usize, t: f64) -> f64 {
        let tl = &self.links[link].timeline;
        let mut total = 0.0;
        let mut changes = tl.iter().peekable();
        while let Some(c) = changes.next() {
            if c.at_secs >= t {
                break;
            }
            if c.bytes_per_sec > 0.0 {
                let end = changes.peek().map_or(t, |n| n.at_secs.min(t));
                total += end - c.at_secs;
            }
        }
        total
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::topology::TopologySpec;
    use crate::units::Bandwidth;

    fn rail(nodes: usize) -> Topology {
        Topology::new(&TopologySpec::Rail {
            nodes,
            gpus_per_node: 8,
            intra_bw: Bandwidth::from_gbytes_per_sec(450.0),
            intra_lat_secs: 1e-6,
            nic_bw: Bandwidth::from_gbytes_per_sec(50.0),
            nic_lat_secs: 2e-6,
            spine_bw: Bandwidth::from_gbytes_per_sec(50.0),
            spine_lat_secs: 3e-6,
            oversubscription: 1.0,
            pxn: true,
        })
        .unwrap()
    }

    #[test]
    fn a_rails_injection_counts_each_gpus_nic_only_where_another_node_is_reached_by_it() {
        let s = 100e6;
        // 2 nodes × 8: 2·15·S over 16 × (450 + 50) GB/s, and the words name the NICs.
        let two = lower_bound(&rail(2), s as u64);
        assert_eq!(two.kind, BoundKind::InjectionWithNics);
        assert_eq!(two.bandwidth_secs, 2.0 * 15.0 * s / (16.0 * 500e9));
        assert!(two.explain().contains("their own NICs"));
        // One node: every route keeps to NVLink, so only the ports count.
        let one = lower_bound(&rail(1), s as u64);
        assert_eq!(one.kind, BoundKind::Injection);
        assert_eq!(one.bandwidth_secs, 2.0 * 7.0 * s / (8.0 * 450e9));
        assert!(one.explain().contains("port bandwidths"));
    }
}
