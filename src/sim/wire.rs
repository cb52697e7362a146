//! A finished [`Simulation`] as a few flat arrays, to carry it from the thread that ran it to the
//! one that shows it (the lab's Web Worker copies them once into typed arrays, which its message
//! then hands over without another copy): [`to_sections`] takes the simulation apart, moving most
//! of its vectors out as they are (the links' timelines concatenated; the transfers are packed in
//! four words each as they are copied out, a piece at a time: [`pack_transfers`]);
//! [`Decoding`] puts it together again over the scenario's topology, which the receiver builds
//! itself (it is small and its construction is deterministic), and checks the sections against
//! the scenario and every index the trace and its replay will read, so that what comes back is
//! either the same simulation or an error, not a panic later.
//!
//! ```
//! use allreduce_sim::{scenario::*, algorithms::Algorithm, topology::TopologySpec, units::Bandwidth, wire};
//! let s = Scenario { topology: TopologySpec::Uniform { ranks: 4,
//!     bandwidth: Bandwidth::from_gbytes_per_sec(10.0), latency_secs: 1e-6 },
//!     algorithm: Algorithm::Ring, size_bytes: 4000, segments: 1, gamma_secs_per_byte: 0.0,
//!     faults: Default::default() };
//! let sim = simulate(&s, true).unwrap();
//! let again = wire::from_sections(wire::to_sections(sim.clone()), &s).unwrap();
//! assert_eq!(again.trace.time_secs, sim.trace.time_secs);
//! assert_eq!(again.trace.timings, sim.trace.timings);
//! ```

use super::algorithms::Algorithm;
use super::records::{CellChanges, Timeline, TimelineParts, Timings};
use super::scenario::{AutoChoice, Scenario, Simulation};
use super::schedule::{DepLists, Entries, JOIN, MAX_DEPS, Schedule, ScheduleParts, Transfer};
use super::starts::Starts;
use super::topology::Topology;
use super::trace::{LinkReport, RankTraffic, Trace, lower_bound};
use std::fmt;
use std::sync::Arc;

/// One flat array.
#[derive(Clone, Debug, PartialEq)]
pub enum Section {
    U32(Vec<u32>),
    F64(Vec<f64>),
    U8(Vec<u8>),
    /// The transfers' section ([`TRANSFERS`]) as the transfers themselves, in place of their
    /// words: [`to_sections`] gives them so, and a sender packs them as it copies them out
    /// ([`pack_transfers`]), a receiver unpacks them as it copies them in
    /// ([`unpack_transfers`]), a piece at a time. Neither holds all the words beside all the
    /// transfers in its own (wasm) memory, which never shrinks (a 1,024-GPU NCCL ring's are 134 MB
    /// each); the typed array between them holds the words.
    Transfers(Vec<Transfer>),
}

/// The place of the transfers among the sections: as they are after [`to_sections`] and a
/// receiver's unpacking ([`Section::Transfers`]), as their words on the way between.
pub const TRANSFERS: usize = 2;

/// Bumped whenever the layout changes (the page and its worker are built together, but a cached
/// worker script could be older than the page).
const VERSION: u32 = 6;

/// In a link's shape (its second word): its rates are as they are, not palette indexes.
const RAW_RATES: u32 = 1;
/// In a link's shape: its instants are a word each, not in blocks.
const RAW_AT: u32 = 2;

/// What was wrong with the sections: the part that could not be read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WireError(pub &'static str);

impl fmt::Display for WireError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "a simulation that came back unreadable ({})", self.0)
    }
}

fn algorithm_code(a: Algorithm) -> u32 {
    match a {
        Algorithm::Ring => 0,
        Algorithm::TreeFlat => 1,
        Algorithm::TreeBinomial => 2,
        Algorithm::TreeBinary => 3,
        Algorithm::DoubleBinaryTree => 4,
        Algorithm::RecursiveDoubling => 5,
        Algorithm::Rabenseifner => 6,
        Algorithm::Hierarchical => 7,
        Algorithm::NcclRing => 8,
        Algorithm::NcclTree => 9,
        Algorithm::Auto => 10,
    }
}

fn algorithm_of(code: u32) -> Option<Algorithm> {
    Algorithm::CONCRETE
        .into_iter()
        .chain([Algorithm::Auto])
        .find(|&a| algorithm_code(a) == code)
}

/// Words per transfer.
pub const TRANSFER_WORDS: usize = 4;

fn split(v: u64) -> [u32; 2] {
    [v as u32, (v >> 32) as u32]
}

fn join(lo: u32, hi: u32) -> u64 {
    u64::from(lo) | (u64::from(hi) << 32)
}

/// `transfers` in [`TRANSFER_WORDS`] words each ([`Transfer::words`]), as the [`TRANSFERS`]
/// section holds them.
///
/// ```
/// use allreduce_sim::schedule::{Op, Phase, Transfer};
/// use allreduce_sim::wire;
/// let t = Transfer::new(1, 2, 3..4, Op::Copy, 5, Phase::AllGather);
/// let words = wire::pack_transfers(&[t]);
/// assert_eq!(words, [1 | 2 << 16, 3, 4, 5 | 1 << 24 | 1 << 25]);
/// let mut back = Vec::new();
/// wire::unpack_transfers(&words, &mut back).unwrap();
/// assert_eq!(back, [t]);
/// ```
pub fn pack_transfers(transfers: &[Transfer]) -> Vec<u32> {
    let mut packed = Vec::with_capacity(transfers.len() * TRANSFER_WORDS);
    for t in transfers {
        packed.extend_from_slice(&t.words());
    }
    packed
}

/// The transfer packed in `w` ([`TRANSFER_WORDS`] words); its ranks and chunks are checked
/// against the run once the head is read ([`Decoding`]).
fn unpack_transfer(w: &[u32]) -> Result<Transfer, WireError> {
    Transfer::from_words([w[0], w[1], w[2], w[3]]).ok_or(WireError("transfers"))
}

/// Appends the transfers packed in `words` (whole transfers) to `into`, as a receiver copying the
/// [`TRANSFERS`] section in a piece at a time does; [`Decoding`] takes the result as
/// [`Section::Transfers`].
///
/// ```
/// use allreduce_sim::{scenario::*, algorithms::Algorithm, topology::TopologySpec, units::Bandwidth, wire};
/// let s = Scenario { topology: TopologySpec::Uniform { ranks: 4,
///     bandwidth: Bandwidth::from_gbytes_per_sec(10.0), latency_secs: 1e-6 },
///     algorithm: Algorithm::Ring, size_bytes: 4000, segments: 1, gamma_secs_per_byte: 0.0,
///     faults: Default::default() };
/// let sim = simulate(&s, true).unwrap();
/// let mut sections = wire::to_sections(sim.clone());
/// // What a sender copies out: the transfers' words.
/// let wire::Section::Transfers(sent) = &sections[wire::TRANSFERS] else { unreachable!() };
/// let words = wire::pack_transfers(sent);
/// let mut transfers = Vec::new();
/// for piece in words.chunks(5 * wire::TRANSFER_WORDS) {
///     wire::unpack_transfers(piece, &mut transfers).unwrap();
/// }
/// assert_eq!(wire::unpack_transfers(&[0; 5], &mut transfers), Err(wire::WireError("transfers")));
/// // A rank past what a transfer can name.
/// let far = [u32::from(u16::MAX), 0, 1, 0];
/// assert_eq!(wire::unpack_transfers(&far, &mut transfers), Err(wire::WireError("transfers")));
/// sections[wire::TRANSFERS] = wire::Section::Transfers(transfers);
/// let again = wire::from_sections(sections, &s).unwrap();
/// assert_eq!(again.trace.schedule.transfers(), sim.trace.schedule.transfers());
/// ```
pub fn unpack_transfers(words: &[u32], into: &mut Vec<Transfer>) -> Result<(), WireError> {
    check(words.len() % TRANSFER_WORDS == 0, "transfers")?;
    let start = into.len();
    for w in words.chunks_exact(TRANSFER_WORDS) {
        match unpack_transfer(w) {
            Ok(t) => into.push(t),
            Err(e) => {
                // Nothing of a piece that cannot be read is kept.
                into.truncate(start);
                return Err(e);
            }
        }
    }
    Ok(())
}

/// `sim` as sections: most of its vectors moved out as they are, the transfers among them
/// ([`Section::Transfers`], which a sender packs a piece at a time as it copies them out:
/// packing them all here held their words beside them, 16 B a transfer); the links' timelines
/// and the ranks' traffic concatenated.
///
/// ```
/// use allreduce_sim::{scenario::*, algorithms::Algorithm, topology::TopologySpec, units::Bandwidth, wire};
/// let s = Scenario { topology: TopologySpec::Uniform { ranks: 4,
///     bandwidth: Bandwidth::from_gbytes_per_sec(10.0), latency_secs: 1e-6 },
///     algorithm: Algorithm::Ring, size_bytes: 4000, segments: 1, gamma_secs_per_byte: 0.0,
///     faults: Default::default() };
/// let sections = wire::to_sections(simulate(&s, true).unwrap());
/// // The head first: the layout's version, the algorithm, ranks, chunks…
/// assert!(matches!(&sections[0], wire::Section::U32(head) if head[2] == 4 && head[3] == 4));
/// assert_eq!(sections.len(), 25);
/// ```
pub fn to_sections(sim: Simulation) -> Vec<Section> {
    let Simulation {
        algorithm,
        trace,
        auto,
    } = sim;
    let Trace {
        schedule,
        timings,
        ranks,
        links,
        time_secs,
        verification,
        cell_changes,
        step_end_secs,
        ..
    } = trace;
    let ScheduleParts {
        ranks: rank_count,
        chunks,
        size_bytes,
        transfers,
        mut deps,
    } = schedule.into_parts();
    let [size_lo, size_hi] = split(size_bytes);
    // The entries as the schedule keeps them (distances, or as they are).
    let (near_deps, dep_words) = std::mem::take(&mut deps.deps).into_words();
    // And the lists' starts (blocked distances, or as they are).
    let (blocked_starts, start_words) = std::mem::take(&mut deps.dep_start).into_words();
    let (instants, small_gaps, [start, gaps_or_first, none_or_last, done]) = timings.into_parts();
    let head = vec![
        VERSION,
        algorithm_code(algorithm),
        rank_count as u32,
        chunks as u32,
        size_lo,
        size_hi,
        links.len() as u32,
        u32::from(verification.is_ok()),
        u32::from(auto.is_some()),
        auto.as_ref().map_or(0, |a| algorithm_code(a.chosen)),
        u32::from(near_deps),
        u32::from(blocked_starts),
        u32::from(small_gaps),
    ];
    let traffic: Vec<u32> = ranks
        .iter()
        .flat_map(|r| {
            let [a, b] = split(r.sent_bytes);
            let [c, d] = split(r.received_bytes);
            [a, b, c, d]
        })
        .collect();
    let mut carried = Vec::with_capacity(2 * links.len());
    let mut shape = Vec::with_capacity(3 * links.len());
    // The concatenated timelines, made room for exactly: grown as they filled, they held up to
    // twice their length (a run's sections were 18 % larger than the run itself, and building
    // them took a third more than the run at its peak).
    let lens = links.iter().fold([0; 4], |mut sum, link| {
        let lens = link.timeline.part_lens();
        (0..4).for_each(|k| sum[k] += lens[k]);
        sum
    });
    let (mut at, mut indexed, mut raw, mut palettes) = (
        Vec::with_capacity(lens[0]),
        Vec::with_capacity(lens[1]),
        Vec::with_capacity(lens[2]),
        Vec::with_capacity(lens[3]),
    );
    for link in links {
        carried.extend_from_slice(&[link.bytes, link.busy_secs]);
        let changes = link.timeline.len() as u32;
        let parts = link.timeline.into_parts_onto(&mut at);
        shape.extend_from_slice(&[
            changes,
            u32::from(parts.rates.is_err()) | u32::from(parts.raw_at) << 1,
            parts.palette.len() as u32,
        ]);
        match parts.rates {
            Ok(v) => indexed.extend_from_slice(&v),
            Err(v) => raw.extend_from_slice(&v),
        }
        palettes.extend_from_slice(&parts.palette);
    }
    // After the links, which share the instants: they come out without a copy.
    let (cell_transfers, contributors) = cell_changes.into_parts();
    let (candidates, times) = match auto {
        Some(a) => (
            a.candidates
                .iter()
                .map(|&(c, _)| algorithm_code(c))
                .collect(),
            a.candidates.iter().map(|&(_, t)| t).collect(),
        ),
        None => (Vec::new(), Vec::new()),
    };
    vec![
        Section::U32(head),
        Section::F64(vec![time_secs]),
        Section::Transfers(transfers),
        Section::U32(start_words),
        Section::U32(dep_words),
        Section::U32(deps.join_start),
        Section::U32(deps.join_members),
        Section::F64(Arc::unwrap_or_clone(instants)),
        Section::U32(start),
        Section::U32(gaps_or_first),
        Section::U32(none_or_last),
        Section::U32(done),
        Section::U32(traffic),
        Section::F64(carried),
        Section::U32(shape),
        Section::U32(at),
        Section::U8(indexed),
        Section::F64(raw),
        Section::F64(palettes),
        Section::U32(cell_transfers),
        Section::U32(contributors),
        Section::U8(verification.err().unwrap_or_default().into_bytes()),
        Section::U32(candidates),
        Section::F64(times),
        Section::F64(step_end_secs),
    ]
}

/// The sections' places.
const SECTIONS: usize = 25;

/// Takes section `i` out as the kind `T` names.
trait Kind: Sized {
    fn of(s: Section) -> Option<Self>;
}

impl Kind for Vec<u32> {
    fn of(s: Section) -> Option<Self> {
        match s {
            Section::U32(v) => Some(v),
            _ => None,
        }
    }
}

impl Kind for Vec<f64> {
    fn of(s: Section) -> Option<Self> {
        match s {
            Section::F64(v) => Some(v),
            _ => None,
        }
    }
}

impl Kind for Vec<u8> {
    fn of(s: Section) -> Option<Self> {
        match s {
            Section::U8(v) => Some(v),
            _ => None,
        }
    }
}

/// Reads sections in order.
struct Reader(std::vec::IntoIter<Section>);

impl Reader {
    fn take<T: Kind>(&mut self, what: &'static str) -> Result<T, WireError> {
        self.0.next().and_then(T::of).ok_or(WireError(what))
    }

    fn text(&mut self, what: &'static str) -> Result<String, WireError> {
        String::from_utf8(self.take(what)?).map_err(|_| WireError(what))
    }
}

/// Fails with `what` unless `ok`.
fn check(ok: bool, what: &'static str) -> Result<(), WireError> {
    if ok { Ok(()) } else { Err(WireError(what)) }
}

/// Whether `start` delimits `len` entries in CSR form at its ends (from 0 to `len`); that it never
/// goes back is checked entry by entry.
fn delimits(start: &[u32], len: usize) -> bool {
    start.first() == Some(&0) && start.last().map(|&e| e as usize) == Some(len)
}

/// Cuts `v` to its first `len` entries and, once what is cut is at least an eighth of what is
/// left (and 64 KiB), gives that memory back to the allocator (which shrinks a block in place, so
/// the next allocations can take it).
fn give_back<T>(v: &mut Vec<T>, len: usize) {
    v.truncate(len);
    let slack = (v.capacity() - len) * std::mem::size_of::<T>();
    if slack >= (64 << 10).max(len * std::mem::size_of::<T>() / 8) {
        v.shrink_to_fit();
    }
}

/// Where a [`Decoding`] is: each stage reads its part entry by entry, from `pos`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Stage {
    Transfers,
    Dependencies,
    Joins,
    Instants,
    Timings,
    Cells,
    Links,
    Done,
}

/// A simulation being put together again from its sections a bounded piece at a time (a page
/// does a piece per slice of a frame: a 1,024-GPU run's sections are some 100 MB). Every index
/// the trace will be read by is checked on the way.
///
/// ```
/// use allreduce_sim::{scenario::*, algorithms::Algorithm, topology::TopologySpec, units::Bandwidth, wire};
/// let s = Scenario { topology: TopologySpec::Uniform { ranks: 8,
///     bandwidth: Bandwidth::from_gbytes_per_sec(10.0), latency_secs: 1e-6 },
///     algorithm: Algorithm::Ring, size_bytes: 8000, segments: 1, gamma_secs_per_byte: 0.0,
///     faults: Default::default() };
/// let sim = simulate(&s, true).unwrap();
/// let mut d = wire::Decoding::new(wire::to_sections(sim.clone()), &s).unwrap();
/// let mut steps = 0;
/// while !d.step(10).unwrap() {
///     steps += 1;
/// }
/// assert!(steps > 10); // 112 transfers, read ten entries a step
/// assert_eq!(d.finish().unwrap().trace.timings, sim.trace.timings);
/// ```
pub struct Decoding {
    topology: Topology,
    algorithm: Algorithm,
    ranks: usize,
    chunks: usize,
    size_bytes: u64,
    time_secs: f64,
    /// The transfers' words, unpacked into `transfers` as they are read; empty where the
    /// transfers came unpacked ([`Section::Transfers`]) and `transfers` holds them all already.
    packed: Vec<u32>,
    transfers: Vec<Transfer>,
    deps: DepLists,
    instants: Arc<Vec<f64>>,
    times: [Vec<u32>; 4],
    /// Whether `times` holds the first and last bytes' distances two transfers to a word.
    small_gaps: bool,
    traffic: Vec<u32>,
    carried: Vec<f64>,
    shape: Vec<u32>,
    /// The timelines' vectors, and how much of each the links not built yet read (the links are
    /// built from the last, see [`Decoding::read_link`]).
    at: Vec<u32>,
    indexed: Vec<u8>,
    raw: Vec<f64>,
    palettes: Vec<f64>,
    read: [usize; 4],
    /// The timelines' changes in all.
    changes: usize,
    links: Vec<LinkReport>,
    cell_transfers: Vec<u32>,
    /// The contributor counts, two to a word.
    contributors: Vec<u32>,
    /// Contributor counts the cell changes read so far need.
    cell_counts: usize,
    verification: Result<(), String>,
    auto: Option<AutoChoice>,
    step_end_secs: Vec<f64>,
    steps: u32,
    stage: Stage,
    pos: usize,
    done: usize,
}

impl Decoding {
    /// Takes the sections of [`to_sections`] for a run of `scenario` and checks their sizes
    /// against it, to be read with [`step`](Self::step) over the scenario's topology (as
    /// [`Scenario::validate`] builds it): the algorithm and size it names, and no more transfers
    /// or buffer cells than its cost estimate counts.
    ///
    /// ```
    /// use allreduce_sim::{scenario::*, algorithms::Algorithm, topology::TopologySpec, units::Bandwidth, wire};
    /// let s = Scenario { topology: TopologySpec::Uniform { ranks: 4,
    ///     bandwidth: Bandwidth::from_gbytes_per_sec(10.0), latency_secs: 1e-6 },
    ///     algorithm: Algorithm::Ring, size_bytes: 4000, segments: 1, gamma_secs_per_byte: 0.0,
    ///     faults: Default::default() };
    /// let sections = wire::to_sections(simulate(&s, true).unwrap());
    /// // Sections of a 4-rank run are not those of a run of 4 kB more.
    /// let other = Scenario { size_bytes: 8000, ..s.clone() };
    /// assert_eq!(wire::Decoding::new(sections.clone(), &other).err(), Some(wire::WireError("size")));
    /// assert!(wire::Decoding::new(sections, &s).is_ok());
    /// ```
    pub fn new(sections: Vec<Section>, scenario: &Scenario) -> Result<Decoding, WireError> {
        check(sections.len() == SECTIONS, "sections")?;
        let topology = scenario.validate().map_err(|_| WireError("scenario"))?;
        let cost = scenario.cost_on(&topology);
        let mut r = Reader(sections.into_iter());
        let head: Vec<u32> = r.take("head")?;
        let &[
            version,
            algorithm,
            rank_count,
            chunks,
            size_lo,
            size_hi,
            link_count,
            verified,
            has_auto,
            chosen,
            near_deps,
            blocked_starts,
            small_gaps,
        ] = head.as_slice()
        else {
            return Err(WireError("head"));
        };
        check(version == VERSION, "version")?;
        let algorithm = algorithm_of(algorithm).ok_or(WireError("algorithm"))?;
        // The algorithm asked for ran, or `auto` chose a concrete one and says so.
        check(
            if scenario.algorithm == Algorithm::Auto {
                has_auto != 0
                    && algorithm != Algorithm::Auto
                    && algorithm_of(chosen) == Some(algorithm)
            } else {
                has_auto == 0 && algorithm == scenario.algorithm
            },
            "algorithm",
        )?;
        check(join(size_lo, size_hi) == scenario.size_bytes, "size")?;
        let time: Vec<f64> = r.take("time")?;
        let &[time_secs] = time.as_slice() else {
            return Err(WireError("time"));
        };
        // The transfers' words, or the transfers a receiver unpacked from them.
        let (packed, unpacked) = match r.0.next() {
            Some(Section::U32(words)) => (words, None),
            Some(Section::Transfers(transfers)) => (Vec::new(), Some(transfers)),
            _ => return Err(WireError("transfers")),
        };
        check(packed.len() % TRANSFER_WORDS == 0, "transfers")?;
        let n = unpacked
            .as_ref()
            .map_or(packed.len() / TRANSFER_WORDS, Vec::len);
        check(rank_count as usize == topology.ranks(), "ranks")?;
        // What the run holds is what the scenario's estimate counts at most (the replay keeps a
        // cell per rank and chunk).
        check(n as u64 <= cost.transfers, "transfers")?;
        check(
            chunks >= 1 && u64::from(rank_count) * u64::from(chunks) <= cost.cells,
            "chunks",
        )?;
        let start_words: Vec<u32> = r.take("dependencies")?;
        let dep_words: Vec<u32> = r.take("dependencies")?;
        check(near_deps <= 1 && blocked_starts <= 1, "dependencies")?;
        let dep_start = Starts::from_words(blocked_starts == 1, start_words, n + 1)
            .ok_or(WireError("dependencies"))?;
        let entries = dep_start.last().map_or(0, |e| e as usize);
        let deps = Entries::from_words(near_deps == 1, dep_words, entries)
            .ok_or(WireError("dependencies"))?;
        check(dep_start.get(0) == 0, "dependencies")?;
        let deps = DepLists {
            deps,
            dep_start,
            join_start: r.take("joins")?,
            join_members: r.take("joins")?,
        };
        check(
            if deps.join_start.is_empty() {
                deps.join_members.is_empty()
            } else {
                delimits(&deps.join_start, deps.join_members.len())
            },
            "joins",
        )?;
        let instants: Vec<f64> = r.take("instants")?;
        // A run's distinct times, from 0 (that they increase is checked entry by entry).
        check(instants.first() == Some(&0.0), "instants")?;
        let times: [Vec<u32>; 4] = [
            r.take("timings")?,
            r.take("timings")?,
            r.take("timings")?,
            r.take("timings")?,
        ];
        check(small_gaps <= 1, "timings")?;
        let small_gaps = small_gaps == 1;
        check(Timings::parts_fit(&times, small_gaps, n), "timings")?;
        let traffic: Vec<u32> = r.take("ranks")?;
        check(traffic.len() == 4 * topology.ranks(), "ranks")?;
        let link_count = link_count as usize;
        let carried: Vec<f64> = r.take("links")?;
        let shape: Vec<u32> = r.take("links")?;
        check(
            link_count == topology.links().len()
                && carried.len() == 2 * link_count
                && shape.len() == 3 * link_count,
            "links",
        )?;
        let (at, indexed, raw, palettes): (Vec<u32>, Vec<u8>, Vec<f64>, Vec<f64>) = (
            r.take("timelines")?,
            r.take("timelines")?,
            r.take("timelines")?,
            r.take("timelines")?,
        );
        // Every entry read by exactly one link (summed in 64 bits: the counts are 32-bit each,
        // and so is a wasm32 `usize`).
        let mut need = [0u64; 4];
        let mut changes = 0u64;
        for s in shape.chunks_exact(3) {
            check(s[1] <= (RAW_RATES | RAW_AT), "timelines")?;
            let (n, raw_rates, colours) = (s[0] as usize, s[1] & RAW_RATES != 0, s[2]);
            need[0] += Timeline::at_words(n, s[1] & RAW_AT != 0) as u64;
            if raw_rates {
                need[2] += n as u64;
            } else {
                need[1] += Timeline::index_bytes(n) as u64;
            }
            need[3] += u64::from(colours);
            changes += n as u64;
        }
        let have = [at.len(), indexed.len(), raw.len(), palettes.len()].map(|l| l as u64);
        check(need == have, "timelines")?;
        let cell_transfers: Vec<u32> = r.take("cell changes")?;
        let contributors: Vec<u32> = r.take("cell changes")?;
        let message = r.text("verification")?;
        let verification = match (verified != 0, message.is_empty()) {
            (true, true) => Ok(()),
            (false, _) => Err(message),
            (true, false) => return Err(WireError("verification")),
        };
        let candidates: Vec<u32> = r.take("auto")?;
        let times_of: Vec<f64> = r.take("auto")?;
        let auto = if has_auto != 0 {
            check(candidates.len() == times_of.len(), "auto")?;
            let candidates = candidates
                .iter()
                .zip(times_of)
                .map(|(&c, t)| Some((algorithm_of(c)?, t)))
                .collect::<Option<Vec<_>>>()
                .ok_or(WireError("auto"))?;
            Some(AutoChoice {
                chosen: algorithm_of(chosen).ok_or(WireError("auto"))?,
                candidates,
            })
        } else {
            check(candidates.is_empty() && times_of.is_empty(), "auto")?;
            None
        };
        let step_end_secs: Vec<f64> = r.take("steps")?;
        let read = [at.len(), indexed.len(), raw.len(), palettes.len()];
        Ok(Decoding {
            topology,
            algorithm,
            ranks: rank_count as usize,
            chunks: chunks as usize,
            size_bytes: join(size_lo, size_hi),
            time_secs,
            packed,
            transfers: unpacked.unwrap_or_else(|| Vec::with_capacity(n)),
            deps,
            instants: Arc::new(instants),
            times,
            small_gaps,
            traffic,
            carried,
            shape,
            at,
            indexed,
            raw,
            palettes,
            read,
            // As many as the rates' entries, checked above.
            changes: changes as usize,
            links: Vec::with_capacity(link_count),
            cell_transfers,
            contributors,
            cell_counts: 0,
            verification,
            auto,
            step_end_secs,
            steps: 0,
            stage: Stage::Transfers,
            pos: 0,
            done: 0,
        })
    }

    /// Entries read so far, and in all.
    ///
    /// ```
    /// use allreduce_sim::{scenario::*, algorithms::Algorithm, topology::TopologySpec, units::Bandwidth, wire};
    /// let s = Scenario { topology: TopologySpec::Uniform { ranks: 4,
    ///     bandwidth: Bandwidth::from_gbytes_per_sec(10.0), latency_secs: 1e-6 },
    ///     algorithm: Algorithm::Ring, size_bytes: 4000, segments: 1, gamma_secs_per_byte: 0.0,
    ///     faults: Default::default() };
    /// let mut d = wire::Decoding::new(wire::to_sections(simulate(&s, true).unwrap()), &s).unwrap();
    /// assert_eq!(d.progress().0, 0);
    /// d.step(5).unwrap();
    /// assert_eq!(d.progress().0, 5);
    /// ```
    pub fn progress(&self) -> (usize, usize) {
        let n = self.times[0].len();
        let total = 3 * n
            + self.deps.join_start.len().saturating_sub(1)
            + self.instants.len()
            + self.cell_transfers.len()
            + self.changes
            + self.carried.len() / 2;
        (self.done, total)
    }

    /// How many entries the current stage reads.
    fn stage_len(&self) -> usize {
        match self.stage {
            Stage::Transfers | Stage::Dependencies | Stage::Timings => self.times[0].len(),
            Stage::Joins => self.deps.join_start.len().saturating_sub(1),
            Stage::Instants => self.instants.len(),
            Stage::Cells => self.cell_transfers.len(),
            Stage::Links => self.carried.len() / 2,
            Stage::Done => 0,
        }
    }

    /// Reads about `budget` more entries (at least one, and a whole link's timeline); `Ok(true)`
    /// once every part is read.
    ///
    /// ```
    /// use allreduce_sim::{scenario::*, algorithms::Algorithm, topology::TopologySpec, units::Bandwidth, wire};
    /// let s = Scenario { topology: TopologySpec::Uniform { ranks: 4,
    ///     bandwidth: Bandwidth::from_gbytes_per_sec(10.0), latency_secs: 1e-6 },
    ///     algorithm: Algorithm::Ring, size_bytes: 4000, segments: 1, gamma_secs_per_byte: 0.0,
    ///     faults: Default::default() };
    /// let mut d = wire::Decoding::new(wire::to_sections(simulate(&s, true).unwrap()), &s).unwrap();
    /// assert_eq!(d.step(1), Ok(false)); // 24 transfers to read, and more
    /// assert_eq!(d.step(usize::MAX), Ok(true));
    /// ```
    pub fn step(&mut self, budget: usize) -> Result<bool, WireError> {
        let mut left = budget.max(1);
        while self.stage != Stage::Done && left > 0 {
            let len = self.stage_len();
            if self.pos >= len {
                // Nothing (left) to read in this stage.
                self.next_stage()?;
                continue;
            }
            let end = len.min(self.pos.saturating_add(left));
            let (from, to) = (self.pos, end);
            let read = match self.stage {
                Stage::Transfers => self.read_transfers(from, to)?,
                Stage::Dependencies => self.read_dependencies(from, to)?,
                Stage::Joins => self.read_joins(from, to)?,
                Stage::Instants => {
                    let v = &self.instants;
                    // Strictly: the replay orders starts by their instants' indexes
                    // (`ReplayBuilder`'s counting sort), which is their times' order only so.
                    check((from.max(1)..to).all(|i| v[i - 1] < v[i]), "instants")?;
                    to - from
                }
                Stage::Timings => {
                    let count = self.instants.len();
                    check(
                        Timings::parts_name(&self.times, self.small_gaps, from..to, count),
                        "timings",
                    )?;
                    to - from
                }
                Stage::Cells => self.read_cells(from, to)?,
                Stage::Links => self.read_link(from)?,
                Stage::Done => 0,
            };
            let entries = read.max(1);
            self.done += read;
            left = left.saturating_sub(entries);
            self.pos = if self.stage == Stage::Links {
                from + 1
            } else {
                to
            };
            if self.pos >= len {
                self.next_stage()?;
            }
        }
        Ok(self.stage == Stage::Done)
    }

    fn next_stage(&mut self) -> Result<(), WireError> {
        self.pos = 0;
        self.stage = match self.stage {
            Stage::Transfers => {
                self.packed = Vec::new();
                Stage::Dependencies
            }
            Stage::Dependencies => Stage::Joins,
            Stage::Joins => Stage::Instants,
            Stage::Instants => Stage::Timings,
            Stage::Timings => Stage::Cells,
            Stage::Cells => {
                check(
                    CellChanges::counts_fit(&self.contributors, self.cell_counts),
                    "cell changes",
                )?;
                Stage::Links
            }
            Stage::Links | Stage::Done => Stage::Done,
        };
        Ok(())
    }

    fn read_transfers(&mut self, from: usize, to: usize) -> Result<usize, WireError> {
        if !self.packed.is_empty() {
            let words = &self.packed[from * TRANSFER_WORDS..to * TRANSFER_WORDS];
            unpack_transfers(words, &mut self.transfers)?;
        }
        let (ranks, chunks) = (self.ranks, self.chunks);
        for t in &self.transfers[from..to] {
            check(
                (t.src() as usize) < ranks
                    && (t.dst() as usize) < ranks
                    && t.chunk_lo() <= t.chunk_hi()
                    && (t.chunk_hi() as usize) <= chunks,
                "transfers",
            )?;
            self.steps = self.steps.max(t.step() + 1);
        }
        Ok(to - from)
    }

    fn read_dependencies(&mut self, from: usize, to: usize) -> Result<usize, WireError> {
        let (n, joins) = (
            self.times[0].len(),
            self.deps.join_start.len().saturating_sub(1),
        );
        let d = &self.deps;
        for t in from..to {
            let (a, b) = (d.dep_start.get(t) as usize, d.dep_start.get(t + 1) as usize);
            check(
                a <= b && b <= d.deps.len() && b - a <= MAX_DEPS,
                "dependencies",
            )?;
            let named = (a..b).all(|k| match d.deps.checked_get(t as u32, k) {
                Some(x) if x & JOIN != 0 => ((x & !JOIN) as usize) < joins,
                Some(x) => (x as usize) < n,
                None => false,
            });
            check(named, "dependencies")?;
        }
        Ok(to - from)
    }

    fn read_joins(&mut self, from: usize, to: usize) -> Result<usize, WireError> {
        let n = self.times[0].len();
        let d = &self.deps;
        for j in from..to {
            let (a, b) = (d.join_start[j] as usize, d.join_start[j + 1] as usize);
            check(
                a <= b && b <= d.join_members.len() && b - a <= MAX_DEPS,
                "joins",
            )?;
            check(
                d.join_members[a..b].iter().all(|&m| (m as usize) < n),
                "joins",
            )?;
        }
        Ok(to - from)
    }

    fn read_cells(&mut self, from: usize, to: usize) -> Result<usize, WireError> {
        for &t in &self.cell_transfers[from..to] {
            let chunks = self
                .transfers
                .get(t as usize)
                .ok_or(WireError("cell changes"))?
                .chunks()
                .len();
            check(chunks > 0, "cell changes")?;
            self.cell_counts += chunks;
            // Never past the counts sent (nor wrapping around a 32-bit `usize`).
            check(
                self.cell_counts <= self.contributors.len().saturating_mul(2),
                "cell changes",
            )?;
        }
        Ok(to - from)
    }

    /// Builds the report of the `k`-th link from the last; says how many changes its timeline
    /// has. The links are read from the last so that what each copies out of the concatenated
    /// timelines is given back at once ([`give_back`]), not held twice until the end (perf: the
    /// timelines of NCCL's rings on 1,024 GPUs of a rail network are some 190 MB).
    fn read_link(&mut self, k: usize) -> Result<usize, WireError> {
        let l = self.carried.len() / 2 - 1 - k;
        let s = &self.shape[3 * l..3 * l + 3];
        let (n, raw_rates, raw_at, colours) = (
            s[0] as usize,
            s[1] & RAW_RATES != 0,
            s[1] & RAW_AT != 0,
            s[2] as usize,
        );
        let [at, indexed, raw, palettes] = &mut self.read;
        // Each `read` is the length of its vector not read yet: this link's entries end there.
        let span = |left: &mut usize, len: usize| {
            *left -= len;
            *left..*left + len
        };
        let parts = TimelineParts {
            at: self.at[span(at, Timeline::at_words(n, raw_at))].to_vec(),
            raw_at,
            rates: if raw_rates {
                Err(self.raw[span(raw, n)].to_vec())
            } else {
                Ok(self.indexed[span(indexed, Timeline::index_bytes(n))].to_vec())
            },
            palette: self.palettes[span(palettes, colours)].to_vec(),
        };
        give_back(&mut self.at, self.read[0]);
        give_back(&mut self.indexed, self.read[1]);
        give_back(&mut self.raw, self.read[2]);
        give_back(&mut self.palettes, self.read[3]);
        self.links.push(LinkReport {
            bytes: self.carried[2 * l],
            busy_secs: self.carried[2 * l + 1],
            timeline: Timeline::from_parts(n, parts, &self.instants)
                .ok_or(WireError("timelines"))?,
        });
        if l == 0 {
            self.links.reverse();
        }
        Ok(n + 1)
    }

    /// The simulation, once [`step`](Self::step) has read everything.
    ///
    /// ```
    /// use allreduce_sim::{scenario::*, algorithms::Algorithm, topology::TopologySpec, units::Bandwidth, wire};
    /// let s = Scenario { topology: TopologySpec::Uniform { ranks: 4,
    ///     bandwidth: Bandwidth::from_gbytes_per_sec(10.0), latency_secs: 1e-6 },
    ///     algorithm: Algorithm::Ring, size_bytes: 4000, segments: 1, gamma_secs_per_byte: 0.0,
    ///     faults: Default::default() };
    /// let sim = simulate(&s, true).unwrap();
    /// let mut d = wire::Decoding::new(wire::to_sections(sim.clone()), &s).unwrap();
    /// while !d.step(1000).unwrap() {}
    /// assert_eq!(d.finish().unwrap().trace.time_secs, sim.trace.time_secs);
    /// ```
    pub fn finish(self) -> Result<Simulation, WireError> {
        check(self.stage == Stage::Done, "not read yet")?;
        check(self.step_end_secs.len() == self.steps as usize, "steps")?;
        let schedule = Schedule::from_parts(ScheduleParts {
            ranks: self.ranks,
            chunks: self.chunks,
            size_bytes: self.size_bytes,
            transfers: self.transfers,
            deps: self.deps,
        });
        let timings = Timings::from_parts(&self.instants, self.small_gaps, self.times);
        let ranks = self
            .traffic
            .chunks_exact(4)
            .map(|w| RankTraffic {
                sent_bytes: join(w[0], w[1]),
                received_bytes: join(w[2], w[3]),
            })
            .collect();
        let trace = Trace {
            lower_bound: lower_bound(&self.topology, self.size_bytes),
            topology: self.topology,
            schedule,
            timings,
            ranks,
            links: self.links,
            time_secs: self.time_secs,
            verification: self.verification,
            cell_changes: CellChanges::from_parts(
                self.cell_transfers,
                self.contributors,
                self.cell_counts,
            ),
            step_end_secs: self.step_end_secs,
        };
        Ok(Simulation {
            algorithm: self.algorithm,
            trace,
            auto: self.auto,
        })
    }
}

/// The simulation of [`to_sections`] for a run of `scenario` again, read at once (see
/// [`Decoding`]).
///
/// ```
/// use allreduce_sim::{scenario::*, algorithms::Algorithm, topology::TopologySpec, units::Bandwidth, wire};
/// let s = Scenario { topology: TopologySpec::Uniform { ranks: 4,
///     bandwidth: Bandwidth::from_gbytes_per_sec(10.0), latency_secs: 1e-6 },
///     algorithm: Algorithm::Ring, size_bytes: 4000, segments: 1, gamma_secs_per_byte: 0.0,
///     faults: Default::default() };
/// let sim = simulate(&s, true).unwrap();
/// let again = wire::from_sections(wire::to_sections(sim.clone()), &s).unwrap();
/// assert_eq!(again.trace.links, sim.trace.links);
/// ```
pub fn from_sections(sections: Vec<Section>, scenario: &Scenario) -> Result<Simulation, WireError> {
    let mut d = Decoding::new(sections, scenario)?;
    while !d.step(super::FINISH_SLICE)? {}
    d.finish()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::faults::{Faults, SlowLink, Straggler};
    use crate::scenario::{Scenario, simulate};
    use crate::topology::TopologySpec;
    use crate::units::Bandwidth;

    /// Every part of two simulations, compared bit for bit where they are numbers.
    fn assert_same(a: &Simulation, b: &Simulation) {
        assert_eq!(a.algorithm, b.algorithm);
        assert_eq!(format!("{:?}", a.auto), format!("{:?}", b.auto));
        let (a, b) = (&a.trace, &b.trace);
        assert_eq!(a.time_secs.to_bits(), b.time_secs.to_bits());
        assert_eq!(format!("{:?}", a.schedule), format!("{:?}", b.schedule));
        assert_eq!(a.timings, b.timings);
        assert_eq!(a.ranks, b.ranks);
        assert_eq!(a.links, b.links);
        assert_eq!(a.cell_changes, b.cell_changes);
        assert_eq!(a.verification, b.verification);
        assert_eq!(a.lower_bound, b.lower_bound);
        assert_eq!(a.step_end_secs, b.step_end_secs);
        assert_eq!(format!("{:?}", a.topology), format!("{:?}", b.topology));
    }

    fn cluster(algorithm: Algorithm, faults: Faults) -> Scenario {
        Scenario {
            topology: TopologySpec::Cluster {
                racks: 2,
                nodes_per_rack: 2,
                gpus_per_node: 8,
                intra_bw: Bandwidth::from_gbytes_per_sec(300.0),
                intra_lat_secs: 1e-6,
                node_bw: Bandwidth::from_gbytes_per_sec(25.0),
                node_lat_secs: 5e-6,
                rack_bw: Bandwidth::from_gbytes_per_sec(12.5),
                rack_lat_secs: 1e-5,
                oversubscription: 2.0,
                nics_per_node: 2,
            },
            algorithm,
            size_bytes: 3_000_001,
            segments: 4,
            gamma_secs_per_byte: 1e-11,
            faults,
        }
    }

    #[test]
    fn every_algorithm_comes_back_as_it_ran() {
        let faults = Faults {
            slow_links: Vec::new(),
            stragglers: vec![Straggler {
                rank: 5,
                delay_secs: 2e-5,
            }],
        };
        for a in Algorithm::CONCRETE.into_iter().chain([Algorithm::Auto]) {
            let s = cluster(a, faults.clone());
            let sim = simulate(&s, true).unwrap();
            let back = from_sections(to_sections(sim.clone()), &s).unwrap();
            assert_same(&sim, &back);
        }
    }

    #[test]
    fn contended_links_keep_their_raw_rates() {
        // A slowed cable and a tree's pipelined segments give links many distinct rates.
        let cable = "rank0-node0".parse().unwrap();
        let faults = Faults {
            slow_links: vec![SlowLink {
                cable,
                factor: 0.37,
            }],
            stragglers: Vec::new(),
        };
        let mut s = cluster(Algorithm::DoubleBinaryTree, faults);
        s.segments = 32;
        let sim = simulate(&s, true).unwrap();
        let sections = to_sections(sim.clone());
        let Section::F64(raw) = &sections[17] else {
            panic!("raw rates");
        };
        assert!(!raw.is_empty(), "some link keeps its rates raw");
        assert_same(&sim, &from_sections(sections, &s).unwrap());
    }

    #[test]
    fn instants_and_bytes_sent_as_they_are_come_back_the_same() {
        // A run's sections with every link's instants one a word and every transfer's first and
        // last byte as they are: the forms of links and runs whose instants are far apart.
        let s = cluster(Algorithm::Hierarchical, Faults::default());
        let sim = simulate(&s, true).unwrap();
        let mut sections = to_sections(sim.clone());
        let u32s = |s: &Section| match s {
            Section::U32(v) => v.clone(),
            _ => panic!("words"),
        };
        let Section::F64(instants) = &sections[7] else {
            panic!("the instants");
        };
        let index = |at: f64| instants.partition_point(|&t| t < at) as u32;
        let mut shape = u32s(&sections[14]);
        let mut at = Vec::new();
        for (k, link) in sim.trace.links.iter().enumerate() {
            assert_eq!(
                shape[3 * k + 1] & RAW_AT,
                0,
                "link {k}'s instants in blocks"
            );
            shape[3 * k + 1] |= RAW_AT;
            at.extend(link.timeline.iter().map(|c| index(c.at_secs)));
        }
        assert!(u32s(&sections[10]).is_empty(), "the bytes as distances");
        let timings = &sim.trace.timings;
        let first = timings.iter().map(|t| index(t.first_byte_secs)).collect();
        let last = timings.iter().map(|t| index(t.last_byte_secs)).collect();
        let mut head = u32s(&sections[0]);
        head[12] = 0; // not two transfers' distances to a word
        sections[0] = Section::U32(head);
        sections[14] = Section::U32(shape);
        sections[15] = Section::U32(at);
        sections[9] = Section::U32(first);
        sections[10] = Section::U32(last);
        assert_same(&sim, &from_sections(sections, &s).unwrap());
    }

    #[test]
    fn read_in_pieces_of_any_size_it_is_the_same_simulation() {
        let s = cluster(Algorithm::NcclTree, Faults::default());
        let sim = simulate(&s, true).unwrap();
        // The transfers unpacked (as the page gives them) or as their words.
        let as_words = || {
            let mut sections = to_sections(sim.clone());
            let Section::Transfers(t) = &sections[TRANSFERS] else {
                panic!("the transfers");
            };
            sections[TRANSFERS] = Section::U32(pack_transfers(t));
            sections
        };
        for (budget, words) in [(1, false), (7, true), (100, false), (5000, true)] {
            let sections = if words {
                as_words()
            } else {
                to_sections(sim.clone())
            };
            let mut d = Decoding::new(sections, &s).unwrap();
            assert_eq!(d.progress().0, 0);
            let mut steps = 0;
            while !d.step(budget).unwrap() {
                steps += 1;
                let (done, total) = d.progress();
                assert!(done <= total, "{done} of {total}");
            }
            let (done, total) = d.progress();
            assert_eq!(done, total, "every entry read, once");
            // About `budget` entries a step (a link's timeline is read whole).
            assert!(
                steps + 1 >= total / budget.max(1) / 2,
                "{steps} steps of {budget}"
            );
            assert_same(&sim, &d.finish().unwrap());
        }
        // Finishing before everything is read is refused.
        let d = Decoding::new(to_sections(sim), &s).unwrap();
        assert_eq!(d.finish().err(), Some(WireError("not read yet")));
    }

    #[test]
    fn a_failed_verification_comes_back_with_its_message() {
        let s = cluster(Algorithm::Ring, Faults::default());
        let mut sim = simulate(&s, true).unwrap();
        sim.trace.verification = Err("rank 3 chunk 2: counted twice".into());
        let back = from_sections(to_sections(sim.clone()), &s).unwrap();
        assert_eq!(back.trace.verification, sim.trace.verification);
    }

    #[test]
    fn damaged_sections_are_refused_not_read() {
        let s = cluster(Algorithm::Hierarchical, Faults::default());
        // The transfers as a sender gives them and a receiver unpacks them, and as their words.
        let unpacked = to_sections(simulate(&s, true).unwrap());
        let mut sections = unpacked.clone();
        let Section::Transfers(transfers) = &unpacked[TRANSFERS] else {
            panic!("the transfers");
        };
        sections[TRANSFERS] = Section::U32(pack_transfers(transfers));
        // Each section in turn: emptied, given one more entry, or made of another kind.
        for sections in [&sections, &unpacked] {
            for i in 0..sections.len() {
                let mut changed = Vec::new();
                let mut grown = sections.clone();
                match &mut grown[i] {
                    Section::U32(v) => v.push(u32::MAX),
                    Section::F64(v) => v.push(f64::NAN),
                    Section::U8(v) => v.push(0xff),
                    Section::Transfers(v) => v.push(v[0]),
                }
                changed.push(grown);
                let mut other = sections.clone();
                other[i] = match &sections[i] {
                    Section::U32(_) => Section::U8(Vec::new()),
                    _ => Section::U32(Vec::new()),
                };
                changed.push(other);
                for bad in changed {
                    assert!(from_sections(bad, &s).is_err(), "section {i} changed");
                }
            }
        }
        // An unpacked transfer from a rank the run does not have, or into chunks it has not.
        for damage in [
            |w: &mut [u32; 4]| w[0] = 4095,
            |w: &mut [u32; 4]| w[0] = 4095 << 16,
            |w: &mut [u32; 4]| w[2] = 1 << 20,
            |w: &mut [u32; 4]| w[1] = w[2] + 1,
        ] {
            let mut bad = unpacked.clone();
            let Section::Transfers(v) = &mut bad[TRANSFERS] else {
                panic!("unpacked");
            };
            let last = v.last_mut().unwrap();
            let mut words = last.words();
            damage(&mut words);
            *last = Transfer::from_words(words).unwrap();
            assert_eq!(from_sections(bad, &s).err(), Some(WireError("transfers")));
        }
        assert!(from_sections(unpacked, &s).is_ok());
        let mut short = sections.clone();
        short.pop();
        assert!(from_sections(short, &s).is_err());
        let mut long = sections.clone();
        long.push(Section::U8(Vec::new()));
        assert_eq!(from_sections(long, &s).err(), Some(WireError("sections")));
        let refused = |change: &dyn Fn(&mut Vec<Section>)| {
            let mut bad = sections.clone();
            change(&mut bad);
            from_sections(bad, &s).err()
        };
        let u32s = |bad: &mut Vec<Section>, i: usize| match &mut bad[i] {
            Section::U32(v) => std::mem::take(v),
            _ => panic!("section {i} holds words"),
        };
        // A dependency on a transfer that does not exist.
        let dangling = refused(&|bad| {
            let mut deps = u32s(bad, 4);
            deps[0] = 1 << 30;
            bad[4] = Section::U32(deps);
        });
        assert_eq!(dangling, Some(WireError("dependencies")));
        // Links whose changes add up to 2³² (0 in a 32-bit sum), with no change sent.
        let wrapped = refused(&|bad| {
            let mut shape = u32s(bad, 14);
            shape.iter_mut().for_each(|w| *w = 0);
            (shape[0], shape[3]) = (1 << 31, 1 << 31);
            bad[14] = Section::U32(shape);
            for i in [15, 16, 17, 18] {
                bad[i] = match &bad[i] {
                    Section::U32(_) => Section::U32(Vec::new()),
                    Section::U8(_) => Section::U8(Vec::new()),
                    _ => Section::F64(Vec::new()),
                };
            }
        });
        assert_eq!(wrapped, Some(WireError("timelines")));
        // A link's shape with a flag it cannot have, or its instants said to be a word each when
        // they came in blocks.
        for flags in [RAW_AT << 1, RAW_AT] {
            let reflagged = refused(&|bad| {
                let mut shape = u32s(bad, 14);
                let k = shape
                    .chunks(3)
                    .position(|l| l[0] > 1)
                    .expect("a link that changed");
                assert_eq!(shape[3 * k + 1] & RAW_AT, 0, "its instants in blocks");
                shape[3 * k + 1] |= flags;
                bad[14] = Section::U32(shape);
            });
            assert_eq!(reflagged, Some(WireError("timelines")));
        }
        // A transfer's first byte, as a distance from its start, past the last instant: the
        // start the last instant, the distance at least 1 (whether the distances are two
        // transfers' to a word or one's, the first's first byte is in the low bits).
        let far = refused(&|bad| {
            assert_eq!(u32s(bad, 10), Vec::<u32>::new(), "the bytes as distances");
            let Section::F64(instants) = &bad[7] else {
                panic!("the instants");
            };
            let count = instants.len() as u32;
            let mut start = u32s(bad, 8);
            start[0] = count - 1;
            bad[8] = Section::U32(start);
            let mut gaps = u32s(bad, 9);
            gaps[0] |= 1;
            bad[9] = Section::U32(gaps);
        });
        assert_eq!(far, Some(WireError("timings")));
        // More chunks than the scenario's run has (a buffer of ranks × chunks cells).
        let chunky = refused(&|bad| {
            let mut head = u32s(bad, 0);
            head[3] = 1 << 22;
            bad[0] = Section::U32(head);
        });
        assert_eq!(chunky, Some(WireError("chunks")));
        // Another size, another algorithm than the scenario's.
        let resized = refused(&|bad| {
            let mut head = u32s(bad, 0);
            head[4] += 1;
            bad[0] = Section::U32(head);
        });
        assert_eq!(resized, Some(WireError("size")));
        let renamed = refused(&|bad| {
            let mut head = u32s(bad, 0);
            head[1] = algorithm_code(Algorithm::Ring);
            bad[0] = Section::U32(head);
        });
        assert_eq!(renamed, Some(WireError("algorithm")));
        // Cell changes naming one transfer more often than the counts sent allow.
        let recounted = refused(&|bad| {
            let mut cells = u32s(bad, 19);
            let first = cells[0];
            cells.iter_mut().for_each(|t| *t = first);
            cells.extend(std::iter::repeat_n(first, 1 << 16));
            bad[19] = Section::U32(cells);
        });
        assert_eq!(recounted, Some(WireError("cell changes")));
        // A word of contributor counts more, or fewer, than the changes take.
        for more in [true, false] {
            let miscounted = refused(&|bad| {
                let mut counts = u32s(bad, 20);
                if more {
                    counts.push(0);
                } else {
                    counts.pop();
                }
                bad[20] = Section::U32(counts);
            });
            assert_eq!(miscounted, Some(WireError("cell changes")), "more: {more}");
        }
        // Instants out of order.
        let unordered = refused(&|bad| {
            if let Section::F64(v) = &mut bad[7] {
                v.swap(1, 2);
            }
        });
        assert_eq!(unordered, Some(WireError("instants")));
        // Another topology than the run's.
        let mut other = s.clone();
        other.topology = TopologySpec::Uniform {
            ranks: 32,
            bandwidth: Bandwidth::from_gbytes_per_sec(1.0),
            latency_secs: 1e-6,
        };
        assert!(from_sections(sections, &other).is_err());
    }
}
