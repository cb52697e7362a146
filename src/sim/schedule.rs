//! A schedule: the transfers an algorithm makes, each with the transfers it must wait for.
//!
//! The buffer of S bytes every rank contributes is cut into `chunks` pieces; chunk `c` covers bytes
//! `[c·S/C, (c+1)·S/C)` (rounded down), so chunks differ by at most one byte. A transfer moves a
//! contiguous range of chunks from one rank to another and either reduces them into the receiver's
//! buffer ([`Op::Reduce`]) or overwrites it ([`Op::Copy`]).
//!
//! Dependencies are data flow, not barriers: a transfer starts as soon as every transfer it depends
//! on has been received (and reduced) at its destination.
//!
//! "Wait for all of these" over many transfers is a *join* ([`ScheduleBuilder::join`]): one entry in
//! each waiting transfer's dependencies instead of the whole list, so that a root whose k segments
//! wait for N−1 reductions each costs k·N edges, not k·N².
//!
//! ```
//! use allreduce_sim::schedule::{ScheduleBuilder, Op, Phase};
//! let mut b = ScheduleBuilder::new(2, 1, 100);
//! let t0 = b.add(0, 1, 0..1, Op::Reduce, 0, Phase::ReduceScatter, &[]);
//! let t1 = b.add(1, 0, 0..1, Op::Copy, 1, Phase::AllGather, &[t0]);
//! let s = b.build();
//! assert_eq!(s.len(), 2);
//! assert_eq!(s.deps(t1 as usize).collect::<Vec<_>>(), [t0]);
//! assert_eq!(s.bytes(t1 as usize), 100);
//! ```
//!
//! Size: over 450 lines because about 45% of it is documentation and examples.

use super::halves;
use super::starts::Starts;
use serde::{Deserialize, Serialize};
use std::ops::Range;

/// What the receiver does with the chunks it gets.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Op {
    /// Add the chunks into the receiver's buffer (the contributor sets must be disjoint).
    Reduce,
    /// Overwrite the receiver's chunks.
    Copy,
}

impl Op {
    /// The name used in traces and exports.
    ///
    /// ```
    /// use allreduce_sim::schedule::Op;
    /// assert_eq!((Op::Reduce.name(), Op::Copy.name()), ("reduce", "copy"));
    /// ```
    pub fn name(self) -> &'static str {
        match self {
            Op::Reduce => "reduce",
            Op::Copy => "copy",
        }
    }
}

/// Which part of an algorithm a transfer belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Phase {
    /// Ring or recursive-halving reduce-scatter.
    ReduceScatter,
    /// Ring or recursive-doubling allgather.
    AllGather,
    /// Reduce towards a tree's root.
    Reduce,
    /// Broadcast away from a tree's root.
    Broadcast,
    /// Recursive doubling: exchange and reduce whole buffers.
    Exchange,
    /// Folding the ranks beyond a power of two in, or sending the result back out to them.
    Fold,
    /// Hierarchical: the allreduce between nodes.
    InterNode,
}

impl Phase {
    /// The name used in traces and exports.
    ///
    /// ```
    /// use allreduce_sim::schedule::Phase;
    /// assert_eq!(Phase::ReduceScatter.name(), "reduce-scatter");
    /// assert_eq!(Phase::InterNode.name(), "inter-node");
    /// ```
    pub fn name(self) -> &'static str {
        match self {
            Phase::ReduceScatter => "reduce-scatter",
            Phase::AllGather => "allgather",
            Phase::Reduce => "reduce",
            Phase::Broadcast => "broadcast",
            Phase::Exchange => "exchange",
            Phase::Fold => "fold",
            Phase::InterNode => "inter-node",
        }
    }
}

/// One message: `chunks` of rank `src`'s buffer go to rank `dst`.
///
/// Kept in 12 bytes (a 1024-rank ring has two million of them, and a run keeps its schedule to
/// the end): three words,
///
/// | word | bits 0–24 | bits 25–31 |
/// |---|---|---|
/// | 0 | `src` (0–11), `dst` (12–23), the op (24) | the phase (25–27), the step's bits 14–17 (28–31) |
/// | 1 | the first chunk | the step's bits 0–6 |
/// | 2 | one past the last chunk | the step's bits 7–13 |
///
/// Ranks fit 12 bits ([`MAX_RANKS`](super::topology::MAX_RANKS) is 4,096), chunk bounds 25
/// ([`MAX_CHUNKS`]: NCCL's rings, the most chunked, have at most 8 channels × 256 slices × 4,096
/// ranks = 2²³) and steps 18 ([`MAX_STEPS`], far above any algorithm's: a ring of 4,096 ranks
/// takes 8,190 steps; NCCL's rings and the pipelined trees add a few hundred for their segments
/// and a tree's depth).
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct Transfer {
    w: [u32; 3],
}

/// Bits of a [`Transfer`]'s ranks.
const RANK_BITS: u32 = 12;
const RANK_MASK: u32 = (1 << RANK_BITS) - 1;
/// Bits of a [`Transfer`]'s chunk bounds, and their mask.
const CHUNK_BITS: u32 = 25;
const CHUNK_MASK: u32 = (1 << CHUNK_BITS) - 1;
/// The step's bits kept above each chunk bound.
const STEP_SPLIT: u32 = 32 - CHUNK_BITS;
const OP_SHIFT: u32 = 2 * RANK_BITS;
const PHASE_SHIFT: u32 = OP_SHIFT + 1;
const STEP_HIGH_SHIFT: u32 = PHASE_SHIFT + 3;

/// Steps of a schedule are numbered below this.
pub const MAX_STEPS: u32 = 1 << (2 * STEP_SPLIT + 32 - STEP_HIGH_SHIFT);

/// A transfer's chunk bounds are at most this.
pub const MAX_CHUNKS: u32 = CHUNK_MASK;

const _: () = assert!(super::topology::MAX_RANKS <= RANK_MASK as usize + 1);
const _: () = assert!(std::mem::size_of::<Transfer>() == 12);
const _: () = assert!(MAX_STEPS == 1 << 18);
// A variant's discriminant is its code (`Transfer::new` stores it, the accessors index `ALL` by
// it), and the phases' codes fit their three bits.
const _: () = {
    let mut i = 0;
    while i < Op::ALL.len() {
        assert!(Op::ALL[i] as usize == i);
        i += 1;
    }
    let mut i = 0;
    while i < Phase::ALL.len() {
        assert!(Phase::ALL[i] as usize == i);
        i += 1;
    }
    assert!(Op::ALL.len() <= 2 && Phase::ALL.len() <= 8);
};

impl Op {
    /// Both ops, by their code in a [`Transfer`]'s word.
    pub const ALL: [Op; 2] = [Op::Reduce, Op::Copy];
}

impl Phase {
    /// Every phase, by its code in a [`Transfer`]'s word.
    pub const ALL: [Phase; 7] = [
        Phase::ReduceScatter,
        Phase::AllGather,
        Phase::Reduce,
        Phase::Broadcast,
        Phase::Exchange,
        Phase::Fold,
        Phase::InterNode,
    ];
}

impl Transfer {
    /// A transfer of `chunks` from `src` to `dst`. Ranks must be below
    /// [`MAX_RANKS`](super::topology::MAX_RANKS), chunk bounds at most [`MAX_CHUNKS`] and `step`
    /// below [`MAX_STEPS`]; an algorithm that broke this would be wrong, so it panics rather than
    /// wrap.
    ///
    /// ```
    /// use allreduce_sim::schedule::{Op, Phase, Transfer, MAX_CHUNKS, MAX_STEPS};
    /// let t = Transfer::new(1, 2, 3..4, Op::Copy, 5, Phase::AllGather);
    /// assert_eq!((t.src(), t.dst(), t.chunk_lo(), t.chunk_hi(), t.step()), (1, 2, 3, 4, 5));
    /// assert_eq!((t.op(), t.phase()), (Op::Copy, Phase::AllGather));
    /// assert_eq!(std::mem::size_of::<Transfer>(), 12);
    /// // Every field at its largest, and each keeps to its bits.
    /// let (c, s) = (MAX_CHUNKS as usize, MAX_STEPS - 1);
    /// let t = Transfer::new(4095, 4094, c - 1..c, Op::Reduce, s, Phase::InterNode);
    /// assert_eq!((t.src(), t.dst(), t.chunk_lo(), t.chunk_hi(), t.step()), (4095, 4094, c as u32 - 1, c as u32, s));
    /// assert_eq!((t.op(), t.phase()), (Op::Reduce, Phase::InterNode));
    /// ```
    #[cfg_attr(not(target_arch = "wasm32"), inline)]
    pub fn new(
        src: usize,
        dst: usize,
        chunks: Range<usize>,
        op: Op,
        step: u32,
        phase: Phase,
    ) -> Self {
        assert!(
            src <= RANK_MASK as usize
                && dst <= RANK_MASK as usize
                && chunks.start <= MAX_CHUNKS as usize
                && chunks.end <= MAX_CHUNKS as usize
                && step < MAX_STEPS,
            "a transfer's ranks fit 12 bits, its chunks 25 and its step 18"
        );
        // Declared in the order of `ALL`, so a variant's discriminant is its code.
        let (op, phase) = (op as u32, phase as u32);
        let low = (1 << STEP_SPLIT) - 1;
        Transfer {
            w: [
                src as u32
                    | (dst as u32) << RANK_BITS
                    | op << OP_SHIFT
                    | phase << PHASE_SHIFT
                    | (step >> (2 * STEP_SPLIT)) << STEP_HIGH_SHIFT,
                chunks.start as u32 | (step & low) << CHUNK_BITS,
                chunks.end as u32 | ((step >> STEP_SPLIT) & low) << CHUNK_BITS,
            ],
        }
    }

    /// The transfer whose [`words`](Self::words) these are, or `None` if a rank, a chunk bound or
    /// the step does not fit its bits, or they name no phase (ranks and chunks are the caller's to
    /// check against the run).
    ///
    /// ```
    /// use allreduce_sim::schedule::{Op, Phase, Transfer, MAX_STEPS};
    /// let t = Transfer::new(7, 3, 0..9, Op::Reduce, 12, Phase::Fold);
    /// assert_eq!(Transfer::from_words(t.words()), Some(t));
    /// assert_eq!(Transfer::from_words([0, 0, 1, 7 << 25]), None); // no eighth phase
    /// assert_eq!(Transfer::from_words([0, 0, 1, 1 << 31]), None);
    /// assert_eq!(Transfer::from_words([4096, 0, 1, 0]), None); // a rank past 12 bits
    /// assert_eq!(Transfer::from_words([0, 1 << 25, 1, 0]), None); // a chunk past 25 bits
    /// assert_eq!(Transfer::from_words([0, 0, 1, MAX_STEPS]), None);
    /// ```
    pub fn from_words([ranks, chunk_lo, chunk_hi, kind]: [u32; 4]) -> Option<Self> {
        let (src, dst) = (ranks & 0xFFFF, ranks >> 16);
        let step = kind & 0xFF_FFFF;
        let (op, phase) = ((kind >> 24) & 1, kind >> 25);
        let fits = src <= RANK_MASK
            && dst <= RANK_MASK
            && chunk_lo <= MAX_CHUNKS
            && chunk_hi <= MAX_CHUNKS
            && step < MAX_STEPS
            && (phase as usize) < Phase::ALL.len();
        fits.then(|| {
            Transfer::new(
                src as usize,
                dst as usize,
                chunk_lo as usize..chunk_hi as usize,
                Op::ALL[op as usize],
                step,
                Phase::ALL[phase as usize],
            )
        })
    }

    /// The transfer in four words: the ranks (`src` low 16 bits, `dst` high), the chunks' bounds,
    /// and the step (low 24 bits) with the op's code (bit 24) and the phase's (bits 25–27).
    pub fn words(&self) -> [u32; 4] {
        [
            self.src() | (self.dst() << 16),
            self.chunk_lo(),
            self.chunk_hi(),
            self.step() | (self.op() as u32) << 24 | (self.phase() as u32) << 25,
        ]
    }

    /// The sending rank.
    ///
    /// ```
    /// use allreduce_sim::schedule::{Op, Phase, Transfer};
    /// assert_eq!(Transfer::new(7, 3, 0..2, Op::Copy, 0, Phase::AllGather).src(), 7);
    /// ```
    pub fn src(&self) -> u32 {
        self.w[0] & RANK_MASK
    }

    /// The receiving rank.
    ///
    /// ```
    /// use allreduce_sim::schedule::{Op, Phase, Transfer};
    /// assert_eq!(Transfer::new(7, 3, 0..2, Op::Copy, 0, Phase::AllGather).dst(), 3);
    /// ```
    pub fn dst(&self) -> u32 {
        (self.w[0] >> RANK_BITS) & RANK_MASK
    }

    /// The first chunk carried.
    ///
    /// ```
    /// use allreduce_sim::schedule::{Op, Phase, Transfer};
    /// assert_eq!(Transfer::new(7, 3, 4..6, Op::Copy, 0, Phase::AllGather).chunk_lo(), 4);
    /// ```
    pub fn chunk_lo(&self) -> u32 {
        self.w[1] & CHUNK_MASK
    }

    /// One past the last chunk carried.
    ///
    /// ```
    /// use allreduce_sim::schedule::{Op, Phase, Transfer};
    /// assert_eq!(Transfer::new(7, 3, 4..6, Op::Copy, 0, Phase::AllGather).chunk_hi(), 6);
    /// ```
    pub fn chunk_hi(&self) -> u32 {
        self.w[2] & CHUNK_MASK
    }

    /// The algorithm's step (round) this transfer belongs to, counted from 0.
    ///
    /// ```
    /// use allreduce_sim::schedule::{Op, Phase, Transfer};
    /// assert_eq!(Transfer::new(7, 3, 0..2, Op::Copy, 9, Phase::AllGather).step(), 9);
    /// ```
    pub fn step(&self) -> u32 {
        self.w[1] >> CHUNK_BITS
            | (self.w[2] >> CHUNK_BITS) << STEP_SPLIT
            | (self.w[0] >> STEP_HIGH_SHIFT) << (2 * STEP_SPLIT)
    }

    /// What the receiver does with the chunks.
    ///
    /// ```
    /// use allreduce_sim::schedule::{Op, Phase, Transfer};
    /// assert_eq!(Transfer::new(7, 3, 0..2, Op::Reduce, 0, Phase::Fold).op(), Op::Reduce);
    /// ```
    pub fn op(&self) -> Op {
        Op::ALL[((self.w[0] >> OP_SHIFT) & 1) as usize]
    }

    /// Which part of the algorithm the transfer belongs to.
    ///
    /// ```
    /// use allreduce_sim::schedule::{Op, Phase, Transfer};
    /// assert_eq!(Transfer::new(7, 3, 0..2, Op::Reduce, 0, Phase::Fold).phase(), Phase::Fold);
    /// ```
    pub fn phase(&self) -> Phase {
        Phase::ALL[(self.w[0] >> PHASE_SHIFT) as usize & 7]
    }

    /// The chunks the transfer carries, as a range of chunk indexes.
    ///
    /// ```
    /// use allreduce_sim::schedule::{Op, Phase, ScheduleBuilder};
    /// let mut b = ScheduleBuilder::new(2, 8, 800);
    /// let t = b.add(0, 1, 2..5, Op::Copy, 0, Phase::Broadcast, &[]);
    /// let s = b.build();
    /// assert_eq!(s.transfer(t as usize).chunks(), 2..5);
    /// assert_eq!(s.bytes(t as usize), 300);
    /// ```
    pub fn chunks(&self) -> Range<usize> {
        self.chunk_lo() as usize..self.chunk_hi() as usize
    }
}

impl std::fmt::Debug for Transfer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Transfer")
            .field("src", &self.src())
            .field("dst", &self.dst())
            .field("chunks", &self.chunks())
            .field("step", &self.step())
            .field("op", &self.op())
            .field("phase", &self.phase())
            .finish()
    }
}

/// A transfer waits for at most this many others (transfers or joins), and a join for at most this
/// many transfers: a run counts them down in 16 bits (an algorithm's transfer waits for a few; the
/// flat tree's root joins N − 1 ≤ 4,095).
pub const MAX_DEPS: usize = u16::MAX as usize;

/// A dependency naming a join rather than a transfer has this bit set; the rest is the join's index.
pub const JOIN: u32 = 1 << 31;

/// The transfers of one allreduce, with their dependencies.
#[derive(Clone, Debug, Default)]
pub struct Schedule {
    ranks: usize,
    chunks: usize,
    size_bytes: u64,
    transfers: Vec<Transfer>,
    /// Where each transfer's list starts in `deps` (2 B a transfer where lists are short).
    dep_start: Starts,
    deps: Entries,
    /// Joins: join j is done when the transfers `join_members[join_start[j]..join_start[j + 1]]` are.
    join_start: Vec<u32>,
    join_members: Vec<u32>,
}

impl Schedule {
    /// How many ranks take part.
    ///
    /// ```
    /// use allreduce_sim::schedule::ScheduleBuilder;
    /// assert_eq!(ScheduleBuilder::new(6, 6, 600).build().ranks(), 6);
    /// ```
    pub fn ranks(&self) -> usize {
        self.ranks
    }
    /// How many chunks the buffer is cut into.
    ///
    /// ```
    /// use allreduce_sim::schedule::ScheduleBuilder;
    /// assert_eq!(ScheduleBuilder::new(4, 16, 1000).build().chunks(), 16);
    /// assert_eq!(ScheduleBuilder::new(4, 0, 1000).build().chunks(), 1); // at least one
    /// ```
    pub fn chunks(&self) -> usize {
        self.chunks
    }
    /// S: the bytes every rank contributes.
    ///
    /// ```
    /// use allreduce_sim::schedule::ScheduleBuilder;
    /// let s = ScheduleBuilder::new(4, 3, 1000).build();
    /// assert_eq!(s.size_bytes(), 1000);
    /// // Chunks of 333, 333 and 334 bytes.
    /// assert_eq!((s.chunk_offset(1), s.chunk_offset(2), s.chunk_offset(3)), (333, 666, 1000));
    /// ```
    pub fn size_bytes(&self) -> u64 {
        self.size_bytes
    }
    /// How many transfers the schedule has.
    ///
    /// ```
    /// use allreduce_sim::{algorithms::{self, Algorithm}, topology::*, units::Bandwidth};
    /// let topo = Topology::new(&TopologySpec::Uniform {
    ///     ranks: 5, bandwidth: Bandwidth::from_bytes_per_sec(1e9), latency_secs: 0.0 }).unwrap();
    /// // The ring: 2(N−1) steps of N transfers.
    /// assert_eq!(algorithms::schedule(Algorithm::Ring, &topo, 5_000, 1).len(), 2 * 4 * 5);
    /// ```
    pub fn len(&self) -> usize {
        self.transfers.len()
    }
    /// Whether the schedule has no transfer (a single rank has nothing to send).
    ///
    /// ```
    /// use allreduce_sim::schedule::ScheduleBuilder;
    /// assert!(ScheduleBuilder::new(1, 1, 1000).build().is_empty());
    /// ```
    pub fn is_empty(&self) -> bool {
        self.transfers.is_empty()
    }
    /// Every transfer, in the order they were added (a transfer's id is its index).
    ///
    /// ```
    /// use allreduce_sim::{algorithms::{self, Algorithm}, schedule::*, topology::*, units::Bandwidth};
    /// let topo = Topology::new(&TopologySpec::Uniform {
    ///     ranks: 4, bandwidth: Bandwidth::from_bytes_per_sec(1e9), latency_secs: 0.0 }).unwrap();
    /// let ring = algorithms::schedule(Algorithm::Ring, &topo, 4_000, 1);
    /// let reduced = ring.transfers().iter().filter(|t| t.op() == Op::Reduce).count();
    /// assert_eq!(reduced, 12); // the reduce-scatter half: (N−1)·N
    /// ```
    pub fn transfers(&self) -> &[Transfer] {
        &self.transfers
    }
    /// Transfer `id`.
    ///
    /// ```
    /// use allreduce_sim::schedule::{Op, Phase, ScheduleBuilder};
    /// let mut b = ScheduleBuilder::new(3, 3, 300);
    /// let id = b.add(2, 0, 1..2, Op::Reduce, 0, Phase::Reduce, &[]);
    /// let s = b.build();
    /// let t = s.transfer(id as usize);
    /// assert_eq!((t.src(), t.dst(), t.op(), t.phase()), (2, 0, Op::Reduce, Phase::Reduce));
    /// ```
    pub fn transfer(&self, id: usize) -> &Transfer {
        &self.transfers[id]
    }
    /// What `id` waits for: transfer ids, and joins (with the [`JOIN`] bit; see
    /// [`join_members`](Self::join_members)).
    ///
    /// # Examples
    ///
    /// ```
    /// use allreduce_sim::schedule::{Op, Phase, ScheduleBuilder, JOIN};
    /// let mut b = ScheduleBuilder::new(3, 1, 100);
    /// let a = b.add(1, 0, 0..1, Op::Reduce, 0, Phase::Reduce, &[]);
    /// let c = b.add(2, 0, 0..1, Op::Reduce, 0, Phase::Reduce, &[]);
    /// let both = b.join(&[a, c]);
    /// let d = b.add(0, 1, 0..1, Op::Copy, 1, Phase::Broadcast, &[both, a]);
    /// let s = b.build();
    /// assert_eq!(s.deps(d as usize).collect::<Vec<_>>(), [JOIN, a]); // join 0, then transfer a
    /// assert_eq!(s.deps(d as usize).len(), 2);
    /// ```
    pub fn deps(&self, id: usize) -> impl ExactSizeIterator<Item = u32> + Clone + '_ {
        self.dep_start
            .range(id)
            .map(move |k| self.deps.get(id as u32, k))
    }
    /// How many joins the schedule has.
    ///
    /// # Examples
    ///
    /// ```
    /// use allreduce_sim::schedule::{Op, Phase, ScheduleBuilder};
    /// let mut b = ScheduleBuilder::new(3, 1, 100);
    /// let a = b.add(1, 0, 0..1, Op::Reduce, 0, Phase::Reduce, &[]);
    /// let c = b.add(2, 0, 0..1, Op::Reduce, 0, Phase::Reduce, &[]);
    /// b.join(&[a, c]);
    /// assert_eq!(b.build().joins(), 1);
    /// ```
    pub fn joins(&self) -> usize {
        self.join_start.len().saturating_sub(1)
    }
    /// The transfers join `j` (without the [`JOIN`] bit) waits for.
    ///
    /// # Examples
    ///
    /// ```
    /// use allreduce_sim::schedule::{Op, Phase, ScheduleBuilder, JOIN};
    /// let mut b = ScheduleBuilder::new(3, 1, 100);
    /// let a = b.add(1, 0, 0..1, Op::Reduce, 0, Phase::Reduce, &[]);
    /// let c = b.add(2, 0, 0..1, Op::Reduce, 0, Phase::Reduce, &[]);
    /// let j = b.join(&[a, c]);
    /// assert_eq!(b.build().join_members((j & !JOIN) as usize), &[a, c]);
    /// ```
    pub fn join_members(&self, j: usize) -> &[u32] {
        &self.join_members[self.join_start[j] as usize..self.join_start[j + 1] as usize]
    }
    /// Every transfer `id` waits for, directly or through a join.
    ///
    /// # Examples
    ///
    /// ```
    /// use allreduce_sim::schedule::{Op, Phase, ScheduleBuilder};
    /// let mut b = ScheduleBuilder::new(4, 1, 100);
    /// let ins: Vec<u32> = (1..3).map(|r| b.add(r, 0, 0..1, Op::Reduce, 0, Phase::Reduce, &[])).collect();
    /// let last = b.add(3, 0, 0..1, Op::Reduce, 0, Phase::Reduce, &[]);
    /// let all = b.join(&ins);
    /// let out = b.add(0, 1, 0..1, Op::Copy, 1, Phase::Broadcast, &[all, last]);
    /// // The join's members, then the direct dependency.
    /// assert_eq!(b.build().waits_for(out as usize).collect::<Vec<_>>(), [0, 1, 2]);
    /// ```
    pub fn waits_for(&self, id: usize) -> impl Iterator<Item = u32> + '_ {
        self.deps(id).flat_map(move |d| {
            let (members, itself) = if d & JOIN != 0 {
                (self.join_members((d & !JOIN) as usize), None)
            } else {
                (&[][..], Some(d))
            };
            members.iter().copied().chain(itself)
        })
    }
    /// Whether the transfers' entries are kept as distances (see [`Entries`]).
    pub(crate) fn deps_are_near(&self) -> bool {
        self.deps.is_near()
    }
    /// Dependency edges held: every entry of every transfer's list and every join's member.
    ///
    /// # Examples
    ///
    /// ```
    /// use allreduce_sim::schedule::{Op, Phase, ScheduleBuilder};
    /// let mut b = ScheduleBuilder::new(4, 1, 100);
    /// let ins: Vec<u32> = (1..4).map(|r| b.add(r, 0, 0..1, Op::Reduce, 0, Phase::Reduce, &[])).collect();
    /// let all = b.join(&ins);
    /// b.add(0, 1, 0..1, Op::Copy, 1, Phase::Broadcast, &[all]);
    /// b.add(0, 2, 0..1, Op::Copy, 1, Phase::Broadcast, &[all]);
    /// // Two entries naming the join, and its three members once.
    /// assert_eq!(b.build().dependency_count(), 2 + 3);
    /// ```
    pub fn dependency_count(&self) -> usize {
        self.deps.len() + self.join_members.len()
    }
    /// First byte of chunk `c`.
    ///
    /// # Examples
    ///
    /// ```
    /// use allreduce_sim::schedule::ScheduleBuilder;
    /// // 10 bytes in 4 chunks: ⌊10·c/4⌋, so chunks of 2, 3, 2 and 3 bytes.
    /// let s = ScheduleBuilder::new(2, 4, 10).build();
    /// assert_eq!((0..=4).map(|c| s.chunk_offset(c)).collect::<Vec<_>>(), [0, 2, 5, 7, 10]);
    /// ```
    pub fn chunk_offset(&self, c: usize) -> u64 {
        chunk_offset(self.size_bytes, self.chunks, c)
    }
    /// Bytes that transfer `id` carries.
    ///
    /// ```
    /// use allreduce_sim::schedule::{Op, Phase, ScheduleBuilder};
    /// let mut b = ScheduleBuilder::new(2, 3, 1000);
    /// let t = b.add(0, 1, 1..3, Op::Copy, 0, Phase::AllGather, &[]);
    /// // Chunks 1 and 2 span bytes 333..1000.
    /// assert_eq!(b.build().bytes(t as usize), 667);
    /// ```
    pub fn bytes(&self, id: usize) -> u64 {
        let t = &self.transfers[id];
        self.chunk_offset(t.chunk_hi() as usize) - self.chunk_offset(t.chunk_lo() as usize)
    }
    /// The number of algorithm steps (the largest step + 1).
    ///
    /// ```
    /// use allreduce_sim::schedule::{Op, Phase, ScheduleBuilder};
    /// let mut b = ScheduleBuilder::new(2, 1, 100);
    /// assert_eq!(b.len(), 0);
    /// let t = b.add(0, 1, 0..1, Op::Reduce, 0, Phase::Reduce, &[]);
    /// b.add(1, 0, 0..1, Op::Copy, 4, Phase::Broadcast, &[t]);
    /// assert_eq!(b.build().steps(), 5);
    /// ```
    pub fn steps(&self) -> u32 {
        self.transfers
            .iter()
            .map(|t| t.step() + 1)
            .max()
            .unwrap_or(0)
    }
}

/// A schedule's parts, to carry it to another thread and back (see [`wire`](super::wire)).
pub(crate) struct ScheduleParts {
    pub ranks: usize,
    pub chunks: usize,
    pub size_bytes: u64,
    pub transfers: Vec<Transfer>,
    pub deps: DepLists,
}

impl Schedule {
    pub(crate) fn into_parts(mut self) -> ScheduleParts {
        let deps = self.take_deps();
        ScheduleParts {
            ranks: self.ranks,
            chunks: self.chunks,
            size_bytes: self.size_bytes,
            transfers: self.transfers,
            deps,
        }
    }

    /// The schedule of `parts`, which the caller has checked (see [`wire`](super::wire)): every
    /// transfer between its ranks and within its chunks, every dependency list in CSR form
    /// naming transfers and joins of the schedule.
    pub(crate) fn from_parts(parts: ScheduleParts) -> Schedule {
        let ScheduleParts {
            ranks,
            chunks,
            size_bytes,
            transfers,
            deps,
        } = parts;
        let mut s = Schedule {
            ranks,
            chunks,
            size_bytes,
            transfers,
            ..Schedule::default()
        };
        s.put_deps(deps);
        s
    }
}

/// A schedule's dependency lists, in the CSR form [`Schedule`] keeps them: a run with details takes
/// them out while it holds them reversed (see `run`), and puts them back.
#[derive(Debug, Default)]
pub(crate) struct DepLists {
    pub dep_start: Starts,
    pub deps: Entries,
    pub join_start: Vec<u32>,
    pub join_members: Vec<u32>,
}

impl Schedule {
    /// Takes the dependency lists out, leaving the transfers: until [`put_deps`](Self::put_deps),
    /// the schedule has no dependency and no join.
    pub(crate) fn take_deps(&mut self) -> DepLists {
        DepLists {
            dep_start: std::mem::take(&mut self.dep_start),
            deps: std::mem::take(&mut self.deps),
            join_start: std::mem::take(&mut self.join_start),
            join_members: std::mem::take(&mut self.join_members),
        }
    }

    /// Puts dependency lists back (those [`take_deps`](Self::take_deps) took, or equal ones).
    pub(crate) fn put_deps(&mut self, lists: DepLists) {
        debug_assert_eq!(lists.dep_start.len(), self.transfers.len() + 1);
        self.dep_start = lists.dep_start;
        self.deps = lists.deps;
        self.join_start = lists.join_start;
        self.join_members = lists.join_members;
    }
}

/// A schedule's dependency entries, its transfers' lists one after another: while every entry
/// names a transfer at most 65,535 ids before the one that waits (a ring's, N ids before), each
/// as that distance in half a word (two to a word, the earlier in the low half; the high half of
/// a last word of its own is 0: a 1024-rank ring's 4.2 M entries, 16.8 → 8.4 MB), else each as
/// it is, a word ([`JOIN`]s too).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Entries {
    Near { words: Vec<u32>, len: usize },
    Far(Vec<u32>),
}

impl Default for Entries {
    fn default() -> Self {
        Entries::Near {
            words: Vec::new(),
            len: 0,
        }
    }
}

impl Entries {
    /// `count` entries to be [`set`](Self::set), kept as distances if `near`.
    pub(crate) fn zeroed(near: bool, count: usize) -> Entries {
        if near {
            Entries::Near {
                words: super::huge_pages::filled(count.div_ceil(2), 0),
                len: count,
            }
        } else {
            Entries::Far(super::huge_pages::filled(count, 0))
        }
    }

    /// Whether the entries are kept as distances.
    pub(crate) fn is_near(&self) -> bool {
        matches!(self, Entries::Near { .. })
    }

    pub(crate) fn len(&self) -> usize {
        match self {
            Entries::Near { len, .. } => *len,
            Entries::Far(v) => v.len(),
        }
    }

    /// Entry `k`, which is in transfer `t`'s list.
    #[inline]
    pub(crate) fn get(&self, t: u32, k: usize) -> u32 {
        match self {
            Entries::Near { words, .. } => t - halves::get(words, k),
            Entries::Far(v) => v[k],
        }
    }

    /// [`get`](Self::get), or `None` if a distance does not name a transfer before `t` (the
    /// entries came from another thread).
    pub(crate) fn checked_get(&self, t: u32, k: usize) -> Option<u32> {
        match self {
            Entries::Near { words, .. } => {
                let x = halves::get(words, k);
                t.checked_sub(x).filter(|_| x > 0)
            }
            Entries::Far(v) => Some(v[k]),
        }
    }

    /// The distance that keeps entry `d` of transfer `t`'s list, if it names a transfer before
    /// `t` and near enough.
    fn distance(t: u32, d: u32) -> Option<u32> {
        if d & JOIN != 0 {
            return None;
        }
        t.checked_sub(d).filter(|&x| x > 0 && x <= 0xFFFF)
    }

    /// Sets entry `k`, of transfer `t`'s list, to `d`; kept as distances, `d` must be near.
    pub(crate) fn set(&mut self, k: usize, t: u32, d: u32) {
        match self {
            Entries::Near { words, .. } => {
                let x = Self::distance(t, d).expect("a near entry where every entry is near");
                halves::set(words, k, x);
            }
            Entries::Far(v) => v[k] = d,
        }
    }

    /// Appends `list`, transfer `t`'s (`dep_start` delimits the lists before it).
    fn push_list(&mut self, t: u32, list: &[u32], dep_start: &Starts) {
        if let Entries::Near { words, len } = self {
            if list.iter().all(|&d| Self::distance(t, d).is_some()) {
                for &d in list {
                    halves::push(words, *len, t - d);
                    *len += 1;
                }
                return;
            }
            *self = Entries::Far(std::mem::take(self).into_far(dep_start));
        }
        if let Entries::Far(v) = self {
            v.extend_from_slice(list);
        }
    }

    /// Every entry as it is (`dep_start` delimits the lists).
    fn into_far(self, dep_start: &Starts) -> Vec<u32> {
        if let Entries::Far(v) = self {
            return v;
        }
        let mut far = Vec::with_capacity(2 * self.len());
        for t in 0..dep_start.len().saturating_sub(1) {
            far.extend(dep_start.range(t).map(|k| self.get(t as u32, k)));
        }
        far
    }

    /// The words that carry the entries, and whether they are distances.
    pub(crate) fn into_words(self) -> (bool, Vec<u32>) {
        match self {
            Entries::Near { words, .. } => (true, words),
            Entries::Far(v) => (false, v),
        }
    }

    /// The `len` entries `words` carry ([`into_words`](Self::into_words)), or `None` unless
    /// there are as many words as they take (distances: a lone last one's high half 0). What the
    /// entries name is the caller's to check ([`checked_get`](Self::checked_get)).
    pub(crate) fn from_words(near: bool, words: Vec<u32>, len: usize) -> Option<Entries> {
        if !near {
            return (words.len() == len).then_some(Entries::Far(words));
        }
        halves::fit(&words, len).then_some(Entries::Near { words, len })
    }

    fn reserve(&mut self, more: usize) {
        match self {
            Entries::Near { words, .. } => words.reserve(more.div_ceil(2)),
            Entries::Far(v) => v.reserve(more),
        }
    }

    fn advise(&self) {
        match self {
            Entries::Near { words, .. } => super::huge_pages::advise(words),
            Entries::Far(v) => super::huge_pages::advise(v),
        }
    }

    fn shrink_to_fit(&mut self) {
        match self {
            Entries::Near { words, .. } => words.shrink_to_fit(),
            Entries::Far(v) => v.shrink_to_fit(),
        }
    }
}

/// First byte of chunk `c` when `size` bytes are cut into `chunks` pieces.
///
/// The product is taken in 64 bits when its factors' bits fit there, which needs no overflow check:
/// on WebAssembly `checked_mul` is a call to a 128-bit multiplication (perf, the chart's 1,024-GPU
/// ring in Node's V8: `__multi3`, from every transfer's byte count, was 0.9 % of the run).
pub(crate) fn chunk_offset(size: u64, chunks: usize, c: usize) -> u64 {
    let c = c as u64;
    if size.leading_zeros() + c.leading_zeros() >= 64 {
        // Below 2^(64 - zeros of size) times 2^(64 - zeros of c): at most 2⁶⁴ - 1.
        size * c / chunks as u64
    } else {
        ((u128::from(size) * u128::from(c)) / chunks as u128) as u64
    }
}

/// Builds a [`Schedule`] transfer by transfer.
#[derive(Debug)]
pub struct ScheduleBuilder {
    s: Schedule,
}

impl ScheduleBuilder {
    /// A schedule for `ranks` ranks whose `size_bytes` buffers are cut into `chunks` chunks.
    ///
    /// ```
    /// use allreduce_sim::schedule::ScheduleBuilder;
    /// let s = ScheduleBuilder::new(8, 8, 1 << 20).build();
    /// assert_eq!((s.ranks(), s.chunks(), s.size_bytes(), s.len()), (8, 8, 1 << 20, 0));
    /// ```
    pub fn new(ranks: usize, chunks: usize, size_bytes: u64) -> Self {
        ScheduleBuilder {
            s: Schedule {
                ranks,
                chunks: chunks.max(1),
                size_bytes,
                transfers: Vec::new(),
                dep_start: Starts::from_slice(&[0]),
                deps: Entries::default(),
                join_start: vec![0],
                join_members: Vec::new(),
            },
        }
    }

    /// A builder that continues `schedule`.
    pub(crate) fn from_schedule(schedule: Schedule) -> Self {
        ScheduleBuilder { s: schedule }
    }

    /// Reserves room for `n` transfers with about `deps_each` dependencies each.
    ///
    /// ```
    /// use allreduce_sim::schedule::{Op, Phase, ScheduleBuilder};
    /// let mut b = ScheduleBuilder::new(2, 1, 100).with_capacity(2, 1);
    /// assert!(b.is_empty()); // room, not transfers
    /// let t = b.add(0, 1, 0..1, Op::Reduce, 0, Phase::Reduce, &[]);
    /// b.add(1, 0, 0..1, Op::Copy, 1, Phase::Broadcast, &[t]);
    /// assert_eq!(b.len(), 2);
    /// ```
    pub fn with_capacity(mut self, n: usize, deps_each: usize) -> Self {
        self.s.transfers.reserve(n);
        self.s.dep_start.reserve_exact(n);
        self.s.deps.reserve(n * deps_each);
        super::huge_pages::advise(&self.s.transfers);
        self.s.dep_start.advise();
        self.s.deps.advise();
        self
    }

    /// A join of `members` (transfers already added): put the returned id in a transfer's `deps` to
    /// make it wait for all of them at the cost of one entry.
    ///
    /// ```
    /// use allreduce_sim::schedule::{Op, Phase, ScheduleBuilder, JOIN};
    /// let mut b = ScheduleBuilder::new(4, 1, 100);
    /// let ins: Vec<u32> = (1..4).map(|r| b.add(r, 0, 0..1, Op::Reduce, 0, Phase::Reduce, &[])).collect();
    /// let all = b.join(&ins);
    /// assert_eq!(all, JOIN); // join 0
    /// let out = b.add(0, 1, 0..1, Op::Copy, 1, Phase::Broadcast, &[all]);
    /// let s = b.build();
    /// assert_eq!(s.deps(out as usize).len(), 1);
    /// assert_eq!(s.waits_for(out as usize).collect::<Vec<_>>(), ins);
    /// ```
    pub fn join(&mut self, members: &[u32]) -> u32 {
        assert!(
            members.len() <= MAX_DEPS,
            "a join of at most MAX_DEPS transfers"
        );
        debug_assert!(!members.is_empty());
        debug_assert!(
            members
                .iter()
                .all(|&m| (m as usize) < self.s.transfers.len())
        );
        let j = (self.s.join_start.len() - 1) as u32;
        self.s.join_members.extend_from_slice(members);
        self.s.join_start.push(self.s.join_members.len() as u32);
        j | JOIN
    }

    // Inlined natively (the builder's share of a 1024-rank ring: 1.3 % more instructions
    // without), left to the optimizer in the size-optimized wasm.
    /// Adds a transfer and returns its id. `deps` must name transfers already added, or joins.
    ///
    /// ```
    /// use allreduce_sim::schedule::{Op, Phase, ScheduleBuilder};
    /// let mut b = ScheduleBuilder::new(3, 3, 300);
    /// let a = b.add(0, 1, 0..1, Op::Reduce, 0, Phase::ReduceScatter, &[]);
    /// let c = b.add(1, 2, 0..1, Op::Reduce, 1, Phase::ReduceScatter, &[a]);
    /// assert_eq!((a, c), (0, 1)); // ids in order
    /// assert_eq!(b.build().deps(1).collect::<Vec<_>>(), [0]);
    /// ```
    #[allow(clippy::too_many_arguments)]
    #[cfg_attr(not(target_arch = "wasm32"), inline)]
    pub fn add(
        &mut self,
        src: usize,
        dst: usize,
        chunks: Range<usize>,
        op: Op,
        step: u32,
        phase: Phase,
        deps: &[u32],
    ) -> u32 {
        debug_assert!(src != dst, "a rank does not send to itself");
        debug_assert!(chunks.start < chunks.end && chunks.end <= self.s.chunks);
        assert!(
            deps.len() <= MAX_DEPS,
            "a transfer waits for at most MAX_DEPS others"
        );
        let id = self.s.transfers.len() as u32;
        debug_assert!(deps.iter().all(|&d| if d & JOIN != 0 {
            ((d & !JOIN) as usize) < self.s.join_start.len() - 1
        } else {
            d < id
        }));
        self.s
            .transfers
            .push(Transfer::new(src, dst, chunks, op, step, phase));
        self.s.deps.push_list(id, deps, &self.s.dep_start);
        self.s.dep_start.push(self.s.deps.len() as u32);
        id
    }

    /// Like [`add`](Self::add), with the dependencies given as optional ids.
    ///
    /// # Examples
    ///
    /// ```
    /// use allreduce_sim::schedule::{Op, Phase, ScheduleBuilder};
    /// let mut b = ScheduleBuilder::new(3, 1, 100);
    /// let a = b.add(1, 0, 0..1, Op::Reduce, 0, Phase::Reduce, &[]);
    /// // No dependency on the first step; a repeated one is kept once.
    /// let c = b.add_after(0, 2, 0..1, Op::Copy, 1, Phase::Broadcast, [None, Some(a), Some(a)]);
    /// assert_eq!(b.build().deps(c as usize).collect::<Vec<_>>(), [a]);
    /// ```
    #[allow(clippy::too_many_arguments)]
    pub fn add_after(
        &mut self,
        src: usize,
        dst: usize,
        chunks: Range<usize>,
        op: Op,
        step: u32,
        phase: Phase,
        deps: impl IntoIterator<Item = Option<u32>>,
    ) -> u32 {
        let mut ds: [u32; 8] = [0; 8];
        let mut n = 0;
        let mut extra = Vec::new();
        for d in deps.into_iter().flatten() {
            if ds[..n].contains(&d) || extra.contains(&d) {
                continue;
            }
            if n < ds.len() {
                ds[n] = d;
                n += 1;
            } else {
                extra.push(d);
            }
        }
        if extra.is_empty() {
            self.add(src, dst, chunks, op, step, phase, &ds[..n])
        } else {
            extra.extend_from_slice(&ds[..n]);
            self.add(src, dst, chunks, op, step, phase, &extra)
        }
    }

    /// How many transfers were added so far.
    ///
    /// ```
    /// use allreduce_sim::schedule::{Op, Phase, ScheduleBuilder};
    /// let mut b = ScheduleBuilder::new(2, 2, 100);
    /// b.add(0, 1, 0..2, Op::Reduce, 0, Phase::Exchange, &[]);
    /// b.add(1, 0, 0..2, Op::Reduce, 0, Phase::Exchange, &[]);
    /// assert_eq!(b.len(), 2);
    /// ```
    pub fn len(&self) -> usize {
        self.s.transfers.len()
    }

    /// Whether no transfer was added yet.
    ///
    /// ```
    /// use allreduce_sim::schedule::ScheduleBuilder;
    /// assert!(ScheduleBuilder::new(2, 2, 100).is_empty());
    /// ```
    pub fn is_empty(&self) -> bool {
        self.s.transfers.is_empty()
    }

    /// The finished schedule.
    ///
    /// ```
    /// use allreduce_sim::schedule::{Op, Phase, ScheduleBuilder};
    /// let mut b = ScheduleBuilder::new(2, 1, 64);
    /// b.add(0, 1, 0..1, Op::Copy, 0, Phase::Broadcast, &[]);
    /// let s = b.build();
    /// assert_eq!((s.len(), s.steps(), s.bytes(0)), (1, 1, 64));
    /// ```
    pub fn build(mut self) -> Schedule {
        // Reserved room not used is given back: a run keeps the schedule to its end.
        self.s.transfers.shrink_to_fit();
        self.s.dep_start.shrink_to_fit();
        self.s.deps.shrink_to_fit();
        self.s.join_start.shrink_to_fit();
        self.s.join_members.shrink_to_fit();
        self.s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_chunk_offset_is_the_exact_quotient_whether_or_not_the_product_fits_64_bits() {
        // Sizes and chunk indexes around the powers of two where the 64-bit shortcut stops.
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        for _ in 0..20_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let size = x >> (x % 64);
            let chunks = 1 + (x >> 40) as usize % 4096;
            let c = ((x >> 20) as usize % (chunks + 1)) << (x % 23);
            let want = (u128::from(size) * c as u128 / chunks as u128) as u64;
            assert_eq!(chunk_offset(size, chunks, c), want, "{size} {chunks} {c}");
        }
        assert_eq!(chunk_offset(u64::MAX, 7, 7), u64::MAX);
        assert_eq!(chunk_offset(1 << 32, 3, 1 << 31), (1u64 << 63) / 3);
    }

    fn lists(s: &Schedule) -> Vec<Vec<u32>> {
        (0..s.len()).map(|t| s.deps(t).collect()).collect()
    }

    #[test]
    fn entries_stay_distances_while_they_are_near_and_come_back_as_they_were_beyond() {
        // Transfer t waits for t − 1 and t − 65,535 (the farthest a distance reaches) while
        // there are such transfers; then one entry 65,536 back, or a join, makes them words.
        for far in [Some(65_536u32), None] {
            let mut b = ScheduleBuilder::new(2, 1, 100);
            let mut want = Vec::new();
            for t in 0..70_000u32 {
                let mut deps: Vec<u32> = [1, 65_535]
                    .iter()
                    .filter_map(|&x| t.checked_sub(x))
                    .collect();
                if t == 69_999 {
                    match far {
                        Some(x) => deps.push(t - x),
                        None => deps.push(b.join(&[0, 5])),
                    }
                }
                b.add(0, 1, 0..1, Op::Copy, 0, Phase::Broadcast, &deps);
                want.push(deps);
                if t == 69_998 {
                    assert!(b.s.deps.is_near(), "near until the last transfer");
                }
            }
            let s = b.build();
            assert!(!s.deps.is_near());
            assert_eq!(lists(&s), want);
        }
    }

    #[test]
    fn near_entries_go_two_to_a_word_and_are_read_back_only_as_they_were_written() {
        let mut e = Entries::zeroed(true, 3);
        // Transfer 9's list is entries 0..2, transfer 10's entry 2; both halves set twice.
        for (k, t, d) in [(0, 9, 8), (1, 9, 2), (2, 10, 1), (0, 9, 0), (1, 9, 7)] {
            e.set(k, t, d);
        }
        assert_eq!([e.get(9, 0), e.get(9, 1), e.get(10, 2)], [0, 7, 1]);
        let (near, words) = e.clone().into_words();
        assert!(near);
        assert_eq!(words, [9 | 2 << 16, 9]);
        assert_eq!(Entries::from_words(true, words.clone(), 3), Some(e.clone()));
        // One word short or long, or a lone last entry with a high half.
        assert_eq!(Entries::from_words(true, words[..1].to_vec(), 3), None);
        assert_eq!(Entries::from_words(true, vec![1, 1, 1], 3), None);
        assert_eq!(Entries::from_words(true, vec![1, 1 | 1 << 16], 3), None);
        assert_eq!(Entries::from_words(false, vec![1, 2], 3), None);
        // A distance of 0, or past the transfer's own id, names no transfer before it.
        let bad = Entries::from_words(true, vec![11 << 16, 10], 3).unwrap();
        assert_eq!(bad.checked_get(10, 0), None);
        assert_eq!(bad.checked_get(10, 1), None);
        assert_eq!(bad.checked_get(10, 2), Some(0));
        let starts = Starts::from_slice(&[0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 3]);
        assert_eq!(e.into_far(&starts), [0, 7, 1]);
    }
}
