//! The "like NCCL on real hardware" model: real transfers in the flow simulation, run with NCCL's
//! protocols, channels and latencies on a [`System`].
//!
//! For one message size:
//! 1. **Candidates.** Ring and Tree with each enabled protocol (LL, LL128 where NCCL enables it,
//!    Simple), and NVLS/Simple where the switch can reduce and `nvls` is on.
//! 2. **Channels.** Each candidate uses [`channels_for`] channels (their copy rate grows with the
//!    size until all are busy). All channels run the same pattern
//!    over the same links, so by symmetry they are simulated as one pattern whose GPU links carry the
//!    channels' total: the lesser of the link's effective rate and `channels × per-channel cap`.
//! 3. **Rates.** A GPU link carries `datasheet × link efficiency × protocol wire share`; a node's
//!    NICs `line rate × NIC efficiency × protocol wire share`; LL is also capped by NCCL's `llMaxBw`.
//! 4. **Latency.** Each route waits NCCL's per-hop latency for its link type and protocol (network
//!    hops add the system's latency per message); each collective pays the system's launch cost plus
//!    NCCL's base-latency difference for its (algorithm, protocol).
//! 5. **Choice.** Each candidate is run twice where the two differ: as NCCL's tuner sees it, every
//!    channel busy (`tuner.cc` rates an algorithm by its graph's channels; `enqueue.cc` drops
//!    channels for a small message only once the algorithm is chosen), and on the channels it
//!    then gets. The lowest tuner time wins and the choice takes the time it runs in; the
//!    [`Choice`] keeps every candidate so the reason can be shown. (Ranked by the times they run
//!    in, a tree with 8 channels beat a ring whose LL threshold, N times a tree's, left it one:
//!    Tree/LL inside one node at 16–64 KiB, where NCCL's tuner logs Ring/LL.)
//!
//! NVLS is its own transfer pattern on the NVSwitch: every GPU sends its data up once and the switch
//! returns the sum. It is cut into pipelined chunks; per chunk, each GPU sends its share up (the switch
//! reduces it into the chunk's owner, which receives `1/N` of it), then the owner stores the sum
//! once and the switch multicasts it (each GPU receives the whole chunk). busbw therefore exceeds the
//! wire rate: each link carries `S (1 + 1/N)` instead of the ring's `2 S (N − 1)/N`.
//!
//! ```
//! use allreduce_sim::nccl::{model::predict, system::System, protocol::NcclAlgorithm};
//! let h100 = System::preset("dgx-h100", 1, 8).unwrap();
//! let big = predict(&h100, 8 << 30, true).unwrap();
//! assert_eq!(big.algorithm, NcclAlgorithm::Nvls);
//! assert!(big.busbw_bytes_per_sec() > 450e9); // above NVLink's 450 GB/s
//! let ring = predict(&h100, 8 << 30, false).unwrap();
//! assert_eq!(ring.algorithm, NcclAlgorithm::Ring);
//! assert!((ring.busbw_bytes_per_sec() / 1e9 - 365.0).abs() < 10.0);
//! ```
//!
//! Size: over 450 lines because a third of it is documentation and examples.

use super::channels::channels_for;
use super::protocol::{HopKind, NcclAlgorithm, Protocol};
use super::system::{System, SystemError};
use crate::algorithms::{self, Algorithm, nccl_double_tree};
use crate::network::FlowNetwork;
use crate::run::{RunOptions, run};
use crate::topology::{Topology, TopologySpec};
use crate::units::Bandwidth;
use serde::Serialize;

/// NVLS moves each channel's data in chunks of at most this size (`NCCL_STEPS` × 128 KiB steps).
pub const NVLS_CHUNK_BYTES: u64 = 1 << 20;
/// NVLS always pipelines at least this many chunks per channel.
pub const NVLS_MIN_CHUNKS: u64 = 4;
/// A tree channel pipelines its data in chunks of this size.
pub const TREE_CHUNK_BYTES: u64 = 128 << 10;
/// At most this many pipelined segments per tree: beyond, the pipeline fill is a few per cent.
pub const TREE_MAX_SEGMENTS: u64 = 32;
/// Bound on a tree run's transfers, which sets how finely it is pipelined.
const TREE_MAX_TRANSFERS: usize = 200_000;

/// One (algorithm, protocol) NCCL could use at a size, with its time.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Candidate {
    pub algorithm: NcclAlgorithm,
    pub protocol: Protocol,
    pub channels: usize,
    /// The time it runs in at this size, on its `channels`.
    pub time_secs: f64,
    /// The time NCCL's tuner ranks it by: the same run with every channel busy (equal to
    /// `time_secs` once the message fills them all). The lowest wins.
    pub tuner_secs: f64,
    /// The GPU link rate this candidate streams at, bytes/s (after efficiency, protocol and caps).
    pub gpu_link_bytes_per_sec: f64,
    /// The NIC rate per node, bytes/s (after efficiency and protocol); 0 on one node.
    pub nic_bytes_per_sec: f64,
    /// The fixed part: launch and base latency, µs.
    pub fixed_us: f64,
    /// The busiest link's bytes over its rate, seconds: no run of these transfers can be faster
    /// than `fixed_us` plus this.
    pub busiest_link_secs: f64,
}

/// What was chosen at one size, and against what.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Choice {
    pub size_bytes: u64,
    pub ranks: usize,
    pub time_secs: f64,
    pub algorithm: NcclAlgorithm,
    pub protocol: Protocol,
    pub channels: usize,
    /// Every candidate, lowest tuner time first (the first is the choice).
    pub candidates: Vec<Candidate>,
}

impl Choice {
    /// algbw = S / t (nccl-tests).
    ///
    /// ```
    /// use allreduce_sim::nccl::{model::predict, system::System};
    /// let sys = System::preset("dgx-h100", 1, 8).unwrap();
    /// let c = predict(&sys, 1 << 20, false).unwrap();
    /// assert_eq!(c.algbw_bytes_per_sec(), (1 << 20) as f64 / c.time_secs);
    /// ```
    pub fn algbw_bytes_per_sec(&self) -> f64 {
        self.size_bytes as f64 / self.time_secs
    }
    /// busbw = algbw × 2(N−1)/N (nccl-tests).
    ///
    /// ```
    /// use allreduce_sim::nccl::{model::predict, system::System};
    /// let sys = System::preset("dgx-h100", 1, 8).unwrap();
    /// let c = predict(&sys, 1 << 20, false).unwrap();
    /// // 2(N−1)/N = 1.75 on 8 GPUs.
    /// assert!((c.busbw_bytes_per_sec() / c.algbw_bytes_per_sec() - 1.75).abs() < 1e-12);
    /// ```
    pub fn busbw_bytes_per_sec(&self) -> f64 {
        let n = self.ranks as f64;
        self.algbw_bytes_per_sec() * 2.0 * (n - 1.0) / n
    }
    /// The runner-up, if any.
    ///
    /// ```
    /// use allreduce_sim::nccl::{model::predict, system::System};
    /// let sys = System::preset("dgx-h100", 1, 8).unwrap();
    /// let c = predict(&sys, 1 << 20, false).unwrap();
    /// let second = c.runner_up().unwrap();
    /// assert_eq!(second, &c.candidates[1]);
    /// assert!(second.tuner_secs >= c.candidates[0].tuner_secs);
    /// ```
    pub fn runner_up(&self) -> Option<&Candidate> {
        self.candidates.get(1)
    }

    /// The other candidates the tuner rates as fast as the choice, to rounding
    /// ([`as_fast`](crate::order::as_fast), `auto`'s rule too): a tie, which the reasons call so
    /// rather than one having the lowest tuner time.
    ///
    /// ```
    /// use allreduce_sim::nccl::{model::predict, system::System};
    /// let sys = System::preset("dgx-h100", 1, 8).unwrap();
    /// let mut c = predict(&sys, 1 << 20, false).unwrap();
    /// assert_eq!(c.tied().count(), 0);
    /// c.candidates[1].tuner_secs = c.candidates[0].tuner_secs;
    /// assert_eq!(c.tied().count(), 1);
    /// ```
    pub fn tied(&self) -> impl Iterator<Item = &Candidate> + '_ {
        let best = self
            .candidates
            .first()
            .map_or(self.time_secs, |c| c.tuner_secs);
        self.candidates
            .iter()
            .skip(1)
            .filter(move |c| crate::order::as_fast(c.tuner_secs, best))
    }
}

/// The candidates NCCL considers on `sys`.
///
/// ```
/// use allreduce_sim::nccl::{model::candidates, protocol::*, system::System};
/// let sys = System::preset("dgx-h100", 1, 8).unwrap();
/// let protocols = if sys.ll128 { 3 } else { 2 };
/// // Ring and Tree with each protocol, and NVLS/Simple only when asked for.
/// assert_eq!(candidates(&sys, false).len(), 2 * protocols);
/// assert_eq!(candidates(&sys, true).len(), 2 * protocols + 1);
/// assert_eq!(candidates(&sys, true).last(), Some(&(NcclAlgorithm::Nvls, Protocol::Simple)));
/// ```
pub fn candidates(sys: &System, nvls: bool) -> Vec<(NcclAlgorithm, Protocol)> {
    let mut out = Vec::new();
    for a in [NcclAlgorithm::Ring, NcclAlgorithm::Tree] {
        for p in Protocol::ALL {
            if p == Protocol::Ll128 && !sys.ll128 {
                continue;
            }
            out.push((a, p));
        }
    }
    if nvls && sys.nvls_available() {
        out.push((NcclAlgorithm::Nvls, Protocol::Simple));
    }
    out
}

/// The rates, channels and fixed latency of one candidate at one size; with `tuner`, as NCCL's
/// tuner rates it, every channel busy.
fn shape(sys: &System, size: u64, a: NcclAlgorithm, p: Protocol, tuner: bool) -> Candidate {
    let ranks = sys.ranks();
    let arch = sys.arch;
    if a == NcclAlgorithm::Nvls {
        let ch = sys.nvls_channels;
        let link = (sys.intra_effective_bytes_per_sec() * arch.nvls_efficiency())
            .min(ch as f64 * arch.simple_channel_gbytes() * 1e9);
        return Candidate {
            algorithm: a,
            protocol: p,
            channels: ch,
            time_secs: 0.0,
            tuner_secs: 0.0,
            gpu_link_bytes_per_sec: link,
            nic_bytes_per_sec: 0.0,
            fixed_us: sys.launch_us + HopKind::NvLink.latency_us(a, p),
            busiest_link_secs: 0.0,
        };
    }
    let ch = if tuner {
        sys.channels.max(1)
    } else {
        channels_for(size, sys.channels, a, p, ranks)
    };
    let per_channel = match (a, p) {
        (NcclAlgorithm::Tree, _) => arch.tree_channel_gbytes(sys.nodes),
        (_, Protocol::Ll128) => arch.ll128_channel_gbytes(),
        _ => arch.simple_channel_gbytes(),
    } * p.wire_efficiency();
    // NCCL adds a channel for every `threads × threshold` bytes; a partly filled last channel still
    // works at its share, so the copy rate grows in proportion to the size until every channel is
    // busy (and a larger message is never faster).
    let busy_channels = if tuner {
        sys.channels.max(1) as f64
    } else {
        channel_share(size, sys.channels, a, p, ranks)
    };
    let mut link = (sys.intra_effective_bytes_per_sec() * p.wire_efficiency())
        .min(busy_channels * per_channel * 1e9);
    let mut nic = if sys.nodes > 1 {
        sys.nic_effective_bytes_per_sec() * p.wire_efficiency()
    } else {
        0.0
    };
    if p == Protocol::Ll {
        let cap = arch.ll_max_gbytes(sys.nodes) * 1e9;
        link = link.min(cap);
        if nic > 0.0 {
            nic = nic.min(cap);
        }
    }
    let fixed_us =
        sys.launch_us + a.base_latency_us(p) - NcclAlgorithm::Ring.base_latency_us(Protocol::Ll);
    Candidate {
        algorithm: a,
        protocol: p,
        channels: ch,
        time_secs: 0.0,
        tuner_secs: 0.0,
        gpu_link_bytes_per_sec: link,
        nic_bytes_per_sec: nic,
        fixed_us,
        busiest_link_secs: 0.0,
    }
}

/// How many channels' worth of copying a message of `size` keeps busy: NCCL's channel count
/// ([`channels_for`]) without rounding down, between 1 and all of them.
fn channel_share(
    size: u64,
    max_channels: usize,
    a: NcclAlgorithm,
    p: Protocol,
    ranks: usize,
) -> f64 {
    let per_channel = (p.max_threads() * p.thread_threshold(a, ranks.max(1))) as f64;
    (size as f64 / per_channel).clamp(1.0, max_channels.max(1) as f64)
}

/// Runs one candidate at one size: the fixed latency plus the flow simulation of its transfers.
///
/// ```
/// use allreduce_sim::nccl::{model::run_candidate, protocol::*, system::System};
/// let sys = System::preset("dgx-h100", 1, 8).unwrap();
/// let c = run_candidate(&sys, 1 << 20, NcclAlgorithm::Ring, Protocol::Simple).unwrap();
/// assert_eq!((c.algorithm, c.protocol), (NcclAlgorithm::Ring, Protocol::Simple));
/// // No run beats its fixed latency plus its busiest link's bytes over the link's rate.
/// assert!(c.time_secs >= (c.fixed_us * 1e-6 + c.busiest_link_secs) * (1.0 - 1e-9));
/// assert!(run_candidate(&sys, 0, NcclAlgorithm::Ring, Protocol::Simple).is_err());
/// // Above 1 TB, as the textbook model (NVLS's chunks grow with the size).
/// let too_large = run_candidate(&sys, 1_000_000_000_001, NcclAlgorithm::Nvls, Protocol::Simple);
/// assert!(too_large.unwrap_err().to_string().contains("at most 1 TB"));
/// ```
pub fn run_candidate(
    sys: &System,
    size: u64,
    a: NcclAlgorithm,
    p: Protocol,
) -> Result<Candidate, SystemError> {
    sys.validate()?;
    check_size(size)?;
    let mut c = shape(sys, size, a, p, false);
    let (time, busiest) = simulate(sys, size, &c)?;
    c.time_secs = time;
    c.busiest_link_secs = busiest;
    let full = shape(sys, size, a, p, true);
    c.tuner_secs =
        if (full.channels, full.gpu_link_bytes_per_sec) == (c.channels, c.gpu_link_bytes_per_sec) {
            time
        } else {
            simulate(sys, size, &full)?.0
        };
    Ok(c)
}

/// One run of a candidate's shape: its fixed latency plus the flow simulation, and its busiest
/// link's bytes over the link's rate.
fn simulate(sys: &System, size: u64, c: &Candidate) -> Result<(f64, f64), SystemError> {
    let (flow_secs, busiest) = match c.algorithm {
        NcclAlgorithm::Nvls => nvls_secs(
            sys.gpus_per_node,
            size,
            c.gpu_link_bytes_per_sec,
            c.channels,
        ),
        _ => ring_or_tree_secs(sys, size, c)?,
    };
    Ok((c.fixed_us.max(0.0) * 1e-6 + flow_secs, busiest))
}

fn ring_or_tree_secs(sys: &System, size: u64, c: &Candidate) -> Result<(f64, f64), SystemError> {
    let intra_hop = sys.intra_link.hop().latency_us(c.algorithm, c.protocol);
    // A network hop: NCCL's latency for it plus the network's own; Simple also flushes once more.
    let mut net_hop = HopKind::Net.latency_us(c.algorithm, c.protocol) + sys.net_latency_us;
    if c.protocol == Protocol::Simple {
        net_hop += sys.net_latency_us;
    }
    let spec = TopologySpec::Cluster {
        racks: 1,
        nodes_per_rack: sys.nodes,
        gpus_per_node: sys.gpus_per_node,
        intra_bw: Bandwidth::from_bytes_per_sec(c.gpu_link_bytes_per_sec),
        intra_lat_secs: intra_hop * 0.5e-6,
        node_bw: Bandwidth::from_bytes_per_sec(c.nic_bytes_per_sec.max(1.0)),
        node_lat_secs: ((net_hop - intra_hop) * 0.5e-6).max(0.0),
        rack_bw: Bandwidth::from_bytes_per_sec(1e15),
        rack_lat_secs: 0.0,
        oversubscription: 1.0,
        // The node's NICs as one link of their total rate (NCCL spreads channels over them).
        nics_per_node: 1,
    };
    let topo = Topology::new(&spec)?;
    let schedule = match c.algorithm {
        NcclAlgorithm::Tree => {
            let n = sys.ranks();
            let per_channel = size / c.channels as u64;
            let max_k = (TREE_MAX_TRANSFERS / (4 * (n - 1))).max(1) as u64;
            let k = per_channel
                .div_ceil(TREE_CHUNK_BYTES)
                .clamp(1, max_k.min(TREE_MAX_SEGMENTS));
            nccl_double_tree(sys.nodes, sys.gpus_per_node, size, k as usize)
        }
        _ => algorithms::schedule(Algorithm::Ring, &topo, size, 1),
    };
    let trace = run(
        &topo,
        schedule,
        &RunOptions {
            gamma_secs_per_byte: 0.0,
            record_details: false,
        },
    );
    if let Err(e) = &trace.verification {
        return Err(SystemError::Unverified {
            detail: e.to_string(),
        });
    }
    let busiest = topo
        .links()
        .iter()
        .zip(&trace.links)
        .map(|(l, r)| r.bytes / l.bandwidth.bytes_per_sec())
        .fold(0.0, f64::max);
    Ok((trace.time_secs, busiest))
}

/// A message of 1 B..=1 TB, as the textbook model takes (NVLS's chunks, and the memory and time
/// its simulation takes, grow with the size: 10^18 B asked for a terabyte of chunk records).
fn check_size(size: u64) -> Result<(), SystemError> {
    match size {
        0 => Err(SystemError::EmptyMessage),
        s if s > crate::scenario::MAX_SIZE_BYTES => Err(SystemError::MessageTooLarge { bytes: s }),
        _ => Ok(()),
    }
}

/// NVLS on one NVSwitch with `n` GPUs whose links stream at `link` bytes/s: pipelined chunks, each
/// first sent up and reduced into its owner, then stored once and multicast down.
fn nvls_secs(n: usize, size: u64, link: f64, channels: usize) -> (f64, f64) {
    let per_channel = size.div_ceil(channels.max(1) as u64);
    let k = per_channel
        .div_ceil(NVLS_CHUNK_BYTES)
        .max(NVLS_MIN_CHUNKS)
        .min(size.max(1)) as usize;
    let chunk = size as f64 / k as f64;
    let nf = n as f64;
    // Links: [up × n][down × n].
    let mut net = FlowNetwork::new(&vec![link; 2 * n], false);
    // Flow ids: (chunk, stage) encoded; stages: 0 = up and reduce, 1 = store and multicast.
    let mut pending = vec![[0usize; 2]; k];
    let start_stage =
        |net: &mut FlowNetwork, j: usize, stage: usize, now: f64, pending: &mut Vec<[usize; 2]>| {
            let (up, down) = if stage == 0 {
                (chunk, chunk / nf)
            } else {
                (chunk / nf, chunk)
            };
            for g in 0..n {
                let id = (j * 2 + stage) as u32;
                net.start(id, &[g as u32], up, now);
                net.start(id, &[(n + g) as u32], down, now);
            }
            pending[j][stage] = 2 * n;
        };
    start_stage(&mut net, 0, 0, 0.0, &mut pending);
    let mut end = 0.0;
    while let Some((t, slot)) = net.next_finish() {
        let id = net.id(slot) as usize;
        net.finish(slot, t);
        end = t;
        let (j, stage) = (id / 2, id % 2);
        pending[j][stage] -= 1;
        if pending[j][stage] == 0 && stage == 0 {
            start_stage(&mut net, j, 1, t, &mut pending);
            if j + 1 < k {
                start_stage(&mut net, j + 1, 0, t, &mut pending);
            }
        }
    }
    let busiest = net.link_bytes().iter().fold(0.0, |m: f64, b| m.max(*b)) / link;
    (end, busiest)
}

/// Simulates every candidate at `size` and keeps the one NCCL's tuner predicts fastest (every
/// channel busy; see the module's step 5), which then runs on its own channels. Every candidate's
/// times are kept (for showing the choice and its reason).
///
/// ```
/// use allreduce_sim::nccl::{model::predict, system::System};
/// let sys = System::preset("dgx-h100", 1, 8).unwrap();
/// let c = predict(&sys, 64 << 10, true).unwrap();
/// // The choice is the tuner's fastest candidate, listed first; it runs in its own time.
/// assert_eq!((c.algorithm, c.protocol), (c.candidates[0].algorithm, c.candidates[0].protocol));
/// assert!(c.candidates.windows(2).all(|w| w[0].tuner_secs <= w[1].tuner_secs));
/// assert_eq!(c.time_secs, c.candidates[0].time_secs);
/// assert!(c.candidates.iter().all(|k| k.tuner_secs <= k.time_secs));
/// ```
pub fn predict(sys: &System, size: u64, nvls: bool) -> Result<Choice, SystemError> {
    choose(sys, size, nvls, true)
}

/// Like [`predict`], but skips simulating a candidate whose lower bound (its fixed latency plus
/// [`bandwidth_bound_secs`]) cannot beat the best tuner time found so far: the same choice and time, for
/// much less work on large clusters. Skipped candidates are left out of [`Choice::candidates`].
///
/// ```
/// use allreduce_sim::nccl::{model::{predict, predict_fast}, system::System};
/// let sys = System::preset("dgx-a100", 2, 8).unwrap();
/// let (all, fast) = (predict(&sys, 1 << 20, true).unwrap(), predict_fast(&sys, 1 << 20, true).unwrap());
/// assert_eq!((fast.algorithm, fast.protocol, fast.time_secs), (all.algorithm, all.protocol, all.time_secs));
/// assert!(fast.candidates.len() <= all.candidates.len());
/// ```
pub fn predict_fast(sys: &System, size: u64, nvls: bool) -> Result<Choice, SystemError> {
    choose(sys, size, nvls, false)
}

fn choose(sys: &System, size: u64, nvls: bool, all: bool) -> Result<Choice, SystemError> {
    Choosing::new(sys, size, nvls, all)?.finish()
}

/// A prediction in progress, one candidate simulated per step (so that a page can run it between
/// frames): [`predict`] (`all`) or [`predict_fast`] (skipping a candidate whose lower bound cannot
/// beat the best tuner time found so far) run to the end.
///
/// ```
/// use allreduce_sim::nccl::{model::{predict_fast, Choosing}, system::System};
/// let sys = System::preset("dgx-h100", 2, 8).unwrap();
/// let mut c = Choosing::new(&sys, 1 << 20, true, false).unwrap();
/// while !c.step().unwrap() {}
/// assert_eq!(c.finish().unwrap(), predict_fast(&sys, 1 << 20, true).unwrap());
/// ```
pub struct Choosing {
    sys: System,
    size: u64,
    all: bool,
    /// (lower bound, algorithm, protocol), lowest bound first.
    queue: Vec<(f64, NcclAlgorithm, Protocol)>,
    next: usize,
    best: f64,
    done: Vec<Candidate>,
}

impl Choosing {
    /// Starts a prediction of `size` bytes on `sys` (see [`predict`] for `all`, [`predict_fast`] without); nothing is simulated yet.
    ///
    /// ```
    /// use allreduce_sim::nccl::{model::{candidates, Choosing}, system::System};
    /// let sys = System::preset("dgx-h100", 1, 8).unwrap();
    /// let c = Choosing::new(&sys, 1 << 20, true, true).unwrap();
    /// assert_eq!(c.progress(), (0, candidates(&sys, true).len()));
    /// assert!(Choosing::new(&sys, 0, true, true).is_err());
    /// assert!(Choosing::new(&sys, u64::MAX, true, true).is_err());
    /// ```
    pub fn new(sys: &System, size: u64, nvls: bool, all: bool) -> Result<Choosing, SystemError> {
        sys.validate()?;
        check_size(size)?;
        let mut queue: Vec<(f64, NcclAlgorithm, Protocol)> = candidates(sys, nvls)
            .into_iter()
            .map(|(a, p)| {
                // A bound on the tuner's time, by which candidates are ranked.
                let c = shape(sys, size, a, p, true);
                let floor = bandwidth_bound_secs(sys, &c, size).max(latency_bound_secs(sys, a, p));
                (c.fixed_us.max(0.0) * 1e-6 + floor, a, p)
            })
            .collect();
        crate::order::sort_by_key(&mut queue, |x| x.0);
        Ok(Choosing {
            sys: sys.clone(),
            size,
            all,
            queue,
            next: 0,
            best: f64::INFINITY,
            done: Vec::new(),
        })
    }

    /// Simulates the next candidate that can still win; true once none is left.
    ///
    /// ```
    /// use allreduce_sim::nccl::{model::Choosing, system::System};
    /// let sys = System::preset("dgx-h100", 1, 8).unwrap();
    /// let mut c = Choosing::new(&sys, 1 << 20, false, true).unwrap();
    /// let mut steps = 1;
    /// while !c.step().unwrap() { steps += 1; }
    /// assert_eq!(steps, c.progress().1); // with `all`, one candidate per step
    /// ```
    pub fn step(&mut self) -> Result<bool, SystemError> {
        while let Some(&(bound, a, p)) = self.queue.get(self.next) {
            self.next += 1;
            if !self.all && bound >= self.best {
                continue;
            }
            let c = run_candidate(&self.sys, self.size, a, p)?;
            self.best = self.best.min(c.tuner_secs);
            self.done.push(c);
            break;
        }
        Ok(self.next >= self.queue.len())
    }

    /// (candidates considered, all candidates).
    ///
    /// ```
    /// use allreduce_sim::nccl::{model::Choosing, system::System};
    /// let sys = System::preset("dgx-h100", 1, 8).unwrap();
    /// let mut c = Choosing::new(&sys, 1 << 20, false, true).unwrap();
    /// c.step().unwrap();
    /// assert_eq!(c.progress().0, 1);
    /// ```
    pub fn progress(&self) -> (usize, usize) {
        (self.next, self.queue.len())
    }

    /// Runs what is left and returns NCCL's choice.
    ///
    /// ```
    /// use allreduce_sim::nccl::{model::{predict, Choosing}, system::System};
    /// let sys = System::preset("dgx-h100", 1, 8).unwrap();
    /// let mut c = Choosing::new(&sys, 1 << 20, true, true).unwrap();
    /// c.step().unwrap();
    /// assert_eq!(c.finish().unwrap(), predict(&sys, 1 << 20, true).unwrap());
    /// ```
    pub fn finish(mut self) -> Result<Choice, SystemError> {
        while !self.step()? {}
        Choice::among(&self.sys, self.size, self.done).ok_or(SystemError::NoCandidate)
    }
}

impl Choice {
    /// NCCL's rule: of the candidates run at `size` (see [`run_candidate`]), the one with the lowest
    /// tuner time, in the time it runs in. `None` when there is none. This is how [`predict`] chooses, for callers that run the
    /// candidates themselves (one at a time, between frames).
    ///
    /// ```
    /// use allreduce_sim::nccl::model::{candidates, predict, run_candidate, Choice};
    /// use allreduce_sim::nccl::system::System;
    /// let sys = System::preset("dgx-a100", 1, 8).unwrap();
    /// let ran: Vec<_> = candidates(&sys, false)
    ///     .into_iter()
    ///     .map(|(a, p)| run_candidate(&sys, 1 << 20, a, p).unwrap())
    ///     .collect();
    /// let choice = Choice::among(&sys, 1 << 20, ran).unwrap();
    /// assert_eq!(choice, predict(&sys, 1 << 20, false).unwrap());
    /// ```
    pub fn among(sys: &System, size: u64, mut ran: Vec<Candidate>) -> Option<Choice> {
        crate::order::sort_by_key(&mut ran, |x| x.tuner_secs);
        let first = *ran.first()?;
        Some(Choice {
            size_bytes: size,
            ranks: sys.ranks(),
            time_secs: first.time_secs,
            algorithm: first.algorithm,
            protocol: first.protocol,
            channels: first.channels,
            candidates: ran,
        })
    }
}

/// The latency every run of a candidate pays along its longest chain of dependent hops: a ring's
/// chunk passes 2(N−1) ranks in turn, crossing the node boundary at least 2(M−1) times; a tree's
/// segment climbs the chain and the tree between nodes and comes back down.
///
/// # Examples
///
/// ```
/// use allreduce_sim::nccl::{model::latency_bound_secs, protocol::{NcclAlgorithm, Protocol}, system::System};
/// // One DGX A100, Ring/LL: a chunk passes 2(N−1) = 14 NVLink hops of 0.6 µs.
/// let a100 = System::preset("dgx-a100", 1, 8).unwrap();
/// assert!((latency_bound_secs(&a100, NcclAlgorithm::Ring, Protocol::Ll) - 8.4e-6).abs() < 1e-18);
/// // Two nodes, Tree/LL: down and up a chain of 7 NVLink hops and one network level (5 + 4 µs).
/// let two = System::preset("dgx-a100", 2, 8).unwrap();
/// assert!((latency_bound_secs(&two, NcclAlgorithm::Tree, Protocol::Ll) - 26.4e-6).abs() < 1e-18);
/// ```
pub fn latency_bound_secs(sys: &System, a: NcclAlgorithm, p: Protocol) -> f64 {
    let (n, m, g) = (sys.ranks(), sys.nodes, sys.gpus_per_node);
    let intra = sys.intra_link.hop().latency_us(a, p);
    let net = (HopKind::Net.latency_us(a, p) + sys.net_latency_us).max(intra);
    let us = match a {
        NcclAlgorithm::Ring => 2.0 * (n - m) as f64 * intra + 2.0 * (m - 1) as f64 * net,
        NcclAlgorithm::Tree => {
            let levels = usize::BITS - (m.max(1)).leading_zeros() - 1;
            2.0 * ((g - 1) as f64 * intra + levels as f64 * net)
        }
        NcclAlgorithm::Nvls => 0.0,
    };
    us * 1e-6
}

/// A bandwidth bound of one candidate from its own effective rates, before running it: no run can
/// beat streaming what its links must carry at their rates.
///
/// # Examples
///
/// ```
/// use allreduce_sim::nccl::{model::*, protocol::{NcclAlgorithm, Protocol}, system::System};
/// let a100 = System::preset("dgx-a100", 1, 8).unwrap();
/// let ring = Candidate { algorithm: NcclAlgorithm::Ring, protocol: Protocol::Simple, channels: 24, time_secs: 0.0,
///     tuner_secs: 0.0, gpu_link_bytes_per_sec: 100e9, nic_bytes_per_sec: 0.0, fixed_us: 0.0, busiest_link_secs: 0.0 };
/// // Each rank sends 2(N−1)/N × 8 GB = 14 GB over its 100 GB/s link.
/// assert!((bandwidth_bound_secs(&a100, &ring, 8_000_000_000) - 0.14).abs() < 1e-15);
/// let c = predict(&a100, 1 << 30, true).unwrap();
/// assert!(c.candidates.iter().all(|k| k.time_secs >= bandwidth_bound_secs(&a100, k, 1 << 30)));
/// ```
pub fn bandwidth_bound_secs(sys: &System, c: &Candidate, size: u64) -> f64 {
    let n = sys.ranks() as f64;
    let m = sys.nodes as f64;
    let s = size as f64;
    let nic = |bytes: f64| {
        if sys.nodes > 1 {
            bytes / c.nic_bytes_per_sec
        } else {
            0.0
        }
    };
    match c.algorithm {
        // Each GPU link carries S(1 + 1/N) each way.
        NcclAlgorithm::Nvls => s * (1.0 + 1.0 / n) / c.gpu_link_bytes_per_sec,
        // Every rank sends 2(N−1)/N·S, every node as much through its NICs.
        NcclAlgorithm::Ring => {
            let share = 2.0 * (n - 1.0) / n * s;
            (share / c.gpu_link_bytes_per_sec).max(nic(share))
        }
        // Every rank but a root sends its half of each tree up: at least S/2; every node with a
        // parent in either tree sends at least S/2 across the network, and with two nodes S.
        NcclAlgorithm::Tree => {
            let across = if sys.nodes == 2 { s } else { s / 2.0 };
            (s / 2.0 / c.gpu_link_bytes_per_sec).max(nic(across) * (m > 1.0) as u8 as f64)
        }
    }
}
