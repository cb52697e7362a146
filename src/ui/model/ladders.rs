//! The sliders' values and how they read: log-scale ladders of round numbers (every value one a
//! person can type on the command line), a slider position ↔ value, the exact CLI flag for a
//! value, and its label in both units the field uses.

use crate::sim::units::{
    Bandwidth, bandwidth_arg, duration_arg, format_bandwidth, format_bandwidth_bits, format_bytes,
    format_secs, secs_from_ns,
};

/// The R10-like mantissas (×100) of one decade: each step is about ×1.26, so a slider over a ladder
/// of them is logarithmic, and every value is a round number a person can type on the command line.
const MANTISSAS: [u64; 10] = [100, 125, 160, 200, 250, 320, 400, 500, 640, 800];

/// Every ladder value `m × 10^e / 100` between `min` and `max` inclusive, ascending.
///
/// ```
/// use allreduce_lab::ui::model::ladders::ladder;
/// assert_eq!(ladder(1000, 2000), vec![1000, 1250, 1600, 2000]);
/// ```
pub fn ladder(min: u64, max: u64) -> Vec<u64> {
    let mut out = Vec::new();
    let mut scale: u64 = 1;
    while scale <= max {
        for m in MANTISSAS {
            let v = m * scale;
            if v % 100 == 0 && (min..=max).contains(&(v / 100)) {
                out.push(v / 100);
            }
        }
        scale *= 10;
    }
    out.sort_unstable();
    out.dedup();
    out
}

/// The slider position whose value is closest to `value` on a log scale.
///
/// ```
/// use allreduce_lab::ui::model::ladders::{ladder, slider_position};
/// let l = ladder(1000, 10_000);
/// assert_eq!(l[slider_position(&l, 1600)], 1600);
/// assert_eq!(l[slider_position(&l, 1700)], 1600);
/// assert_eq!(slider_position(&l, 1), 0);
/// assert_eq!(slider_position(&l, u64::MAX), l.len() - 1);
/// ```
pub fn slider_position(ladder: &[u64], value: u64) -> usize {
    let log = |v: u64| (v.max(1) as f64).ln();
    (0..ladder.len())
        .min_by(|&a, &b| {
            (log(ladder[a]) - log(value))
                .abs()
                .total_cmp(&(log(ladder[b]) - log(value)).abs())
        })
        .unwrap_or(0)
}

/// The value at slider position `pos`, clamped into the ladder.
pub fn slider_value(ladder: &[u64], pos: usize) -> u64 {
    ladder[pos.min(ladder.len().saturating_sub(1))]
}

/// Bandwidth ladder, in Mbps: 1 Gbps to 16 Tbps (2 TB/s).
pub fn bandwidth_ladder_mbps() -> Vec<u64> {
    ladder(1_000, 16_000_000)
}

/// Latency ladder, in ns: 0 (an ideal switch), then 100 ns to 10 ms.
pub fn latency_ladder_ns() -> Vec<u64> {
    let mut l = vec![0];
    l.extend(ladder(100, 10_000_000));
    l
}

/// Message-size ladder, in bytes: 1 B (as the command line takes, where only latency counts) to
/// 16 GB.
pub fn size_ladder_bytes() -> Vec<u64> {
    ladder(1, 16_000_000_000)
}

/// `3_200_000` Mbps → `"3200Gbps"`; a string `units::parse_bandwidth` reads back exactly.
pub fn bandwidth_flag(mbps: u64) -> String {
    bandwidth_arg(Bandwidth::from_mbps(mbps))
}

/// `5000` ns → `"5us"`; a string `units::parse_duration` reads back exactly.
pub fn latency_flag(ns: u64) -> String {
    duration_arg(secs_from_ns(ns))
}

/// A bandwidth in both units the field uses: `"50 GB/s · 400 Gbps"`.
pub fn bandwidth_label(mbps: u64) -> String {
    let bw = Bandwidth::from_bytes_per_sec(mbps as f64 * 1e6 / 8.0);
    format!("{} · {}", format_bandwidth(bw), format_bandwidth_bits(bw))
}

/// A latency for display: `"5 µs"`, or `"0 (ideal)"`.
pub fn latency_label(ns: u64) -> String {
    if ns == 0 {
        "0 (ideal)".into()
    } else {
        format_secs(ns as f64 * 1e-9)
    }
}

/// A size for display: `"100 MB"`.
pub fn size_label(bytes: u64) -> String {
    format_bytes(bytes as f64)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::units::{parse_bandwidth, parse_duration};

    #[test]
    fn ladders_are_increasing_and_span_their_bounds() {
        for (l, lo, hi) in [
            (bandwidth_ladder_mbps(), 1_000, 16_000_000),
            (size_ladder_bytes(), 1, 16_000_000_000),
        ] {
            assert_eq!(l[0], lo);
            assert_eq!(*l.last().unwrap(), hi);
            // Fine steps from 100 on; below, only the whole numbers of the mantissas (1, 2, 4,
            // 5, 8, 10, 16, …), at most doubling.
            assert!(l.windows(2).all(|w| {
                let r = w[1] as f64 / w[0] as f64;
                w[0] < w[1] && (r < 1.3 || (w[0] < 100 && r <= 2.0))
            }));
        }
        assert_eq!(latency_ladder_ns()[0], 0);
        assert!(bandwidth_ladder_mbps().contains(&400_000));
        assert!(bandwidth_ladder_mbps().contains(&3_200_000));
    }

    #[test]
    fn slider_positions_round_trip_every_ladder_value() {
        let l = size_ladder_bytes();
        for (i, &v) in l.iter().enumerate() {
            assert_eq!(slider_position(&l, v), i);
            assert_eq!(slider_value(&l, i), v);
        }
        assert_eq!(slider_value(&l, 10_000), *l.last().unwrap());
    }

    #[test]
    fn flags_parse_back_to_the_exact_values() {
        for mbps in bandwidth_ladder_mbps() {
            let bw = parse_bandwidth(&bandwidth_flag(mbps)).unwrap();
            assert_eq!(bw.bytes_per_sec(), mbps as f64 * 1e6 / 8.0, "{mbps}");
        }
        for ns in latency_ladder_ns() {
            let secs = parse_duration(&latency_flag(ns)).unwrap();
            assert!((secs - ns as f64 * 1e-9).abs() <= 1e-18, "{ns}");
        }
        assert_eq!(latency_flag(5000), "5us");
        assert_eq!(bandwidth_flag(400_000), "400Gbps");
        assert_eq!(bandwidth_flag(1_250), "1250Mbps");
    }

    #[test]
    fn labels_show_both_bandwidth_units() {
        assert_eq!(bandwidth_label(400_000), "50 GB/s · 400 Gbps");
        assert_eq!(latency_label(0), "0 (ideal)");
        assert_eq!(latency_label(1500), "1.5 µs");
        assert_eq!(size_label(100_000_000), "100 MB");
    }
}
