//! FNV-1a over 64-bit words: how the stored-totals tests fingerprint the exact bits of a run.

#[derive(Clone, Copy)]
pub struct Digest(pub u64);

impl Digest {
    pub fn new() -> Self {
        Digest(0xcbf2_9ce4_8422_2325)
    }

    pub fn word(&mut self, w: u64) {
        for b in w.to_le_bytes() {
            self.0 ^= u64::from(b);
            self.0 = self.0.wrapping_mul(0x0100_0000_01b3);
        }
    }

    pub fn f(&mut self, x: f64) {
        self.word(x.to_bits());
    }
}

use allreduce_lab::sim::trace::Trace;

/// Every transfer's start, first byte, last byte and done times.
pub fn timings(t: &Trace) -> u64 {
    let mut d = Digest::new();
    for x in &t.timings {
        for s in [
            x.start_secs,
            x.first_byte_secs,
            x.last_byte_secs,
            x.done_secs,
        ] {
            d.f(s);
        }
    }
    d.0
}

/// Every link's timeline (its length, then each change's time and rate).
pub fn timelines(t: &Trace) -> u64 {
    let mut d = Digest::new();
    for l in &t.links {
        d.word(l.timeline.len() as u64);
        for c in &l.timeline {
            d.f(c.at_secs);
            d.f(c.bytes_per_sec);
        }
    }
    d.0
}

/// Every buffer change: transfer, rank, chunk and contributors.
pub fn cells(t: &Trace) -> u64 {
    let mut d = Digest::new();
    for c in t.cell_changes.iter(&t.schedule) {
        d.word(u64::from(c.transfer) << 32 | u64::from(c.rank));
        d.word(u64::from(c.chunk) << 32 | u64::from(c.contributors));
    }
    d.0
}
