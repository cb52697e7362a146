//! Chart arithmetic with no web types: axes (linear or log) with ticks labelled in their unit, and
//! the point nearest a pointer. The SVG pieces in `charts` draw what these compute.
//!
//! ```
//! use allreduce_lab::ui::model::chart_math::{Axis, Unit};
//! let x = Axis::log(Unit::Count, 1.0, 1024.0);
//! assert_eq!(x.fraction(32.0), 0.5);
//! let labels: Vec<_> = x.ticks().into_iter().filter_map(|t| t.label).collect();
//! assert_eq!(labels.first().map(String::as_str), Some("1"));
//! assert_eq!(labels.last().map(String::as_str), Some("1024"));
//! ```

use crate::sim::units::{Bandwidth, format_bandwidth, format_secs};

/// What an axis measures, which decides its tick labels.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unit {
    /// GPUs: plain integers.
    Count,
    /// A speedup: `64×`.
    Times,
    Secs,
    /// Message sizes, in binary units as nccl-tests prints them: `32 KiB`.
    Bytes,
    BytesPerSec,
}

/// `4096` → `"4 KiB"`, `8 << 30` → `"8 GiB"`, `12` → `"12 B"`.
///
/// ```
/// use allreduce_lab::ui::model::chart_math::format_bytes_binary;
/// assert_eq!(format_bytes_binary(4096.0), "4 KiB");
/// assert_eq!(format_bytes_binary(8.0 * (1u64 << 30) as f64), "8 GiB");
/// assert_eq!(format_bytes_binary(1536.0), "1.5 KiB");
/// assert_eq!(format_bytes_binary(512.0), "512 B");
/// ```
pub fn format_bytes_binary(bytes: f64) -> String {
    const UNITS: [(&str, f64); 4] = [
        ("TiB", 1_099_511_627_776.0),
        ("GiB", 1_073_741_824.0),
        ("MiB", 1_048_576.0),
        ("KiB", 1024.0),
    ];
    for (name, scale) in UNITS {
        if bytes >= scale {
            return format!("{} {name}", trim(bytes / scale));
        }
    }
    format!("{} B", trim(bytes))
}

/// An axis title without its parenthesis, to name the axis in a tooltip: `"GPUs (log scale)"` →
/// `"GPUs"`, and the same before a Chinese full-width parenthesis.
///
/// ```
/// use allreduce_lab::ui::model::chart_math::axis_name;
/// assert_eq!(axis_name("GPUs (log scale)"), "GPUs");
/// assert_eq!(axis_name("每卡消息大小（对数坐标）"), "每卡消息大小");
/// assert_eq!(axis_name("bus bandwidth"), "bus bandwidth");
/// ```
pub fn axis_name(title: &str) -> &str {
    let end = [" (", "（"].iter().filter_map(|p| title.find(p)).min();
    &title[..end.unwrap_or(title.len())]
}

/// Up to three significant digits, without trailing zeros (the core's formatting).
fn trim(x: f64) -> String {
    crate::sim::units::sig3(x)
}

/// A value in an axis' unit, for ticks and tooltips.
///
/// ```
/// use allreduce_lab::ui::model::chart_math::{format_value, Unit};
/// assert_eq!(format_value(Unit::Times, 6.51), "6.51×");
/// assert_eq!(format_value(Unit::Secs, 0.0123), "12.3 ms");
/// assert_eq!(format_value(Unit::BytesPerSec, 25e9), "25 GB/s");
/// assert_eq!(format_value(Unit::BytesPerSec, 0.0), "0");
/// ```
pub fn format_value(unit: Unit, v: f64) -> String {
    if v == 0.0 && unit != Unit::Count {
        return "0".into();
    }
    match unit {
        Unit::Count => format!("{}", v.round() as i64),
        Unit::Times => format!("{}×", trim(v)),
        Unit::Secs => format_secs(v),
        Unit::Bytes => format_bytes_binary(v),
        Unit::BytesPerSec => format_bandwidth(Bandwidth::from_bytes_per_sec(v)),
    }
}

/// One tick: where it is, and its label if it has one (minor ticks have none).
#[derive(Clone, Debug, PartialEq)]
pub struct Tick {
    pub value: f64,
    pub label: Option<String>,
}

/// A chart axis from `min` to `max`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Axis {
    pub unit: Unit,
    pub log: bool,
    pub min: f64,
    pub max: f64,
}

/// The base a log axis steps in: powers of 2 for counts and sizes (the data doubles), 10 otherwise.
fn log_base(unit: Unit) -> f64 {
    match unit {
        Unit::Count | Unit::Times | Unit::Bytes => 2.0,
        Unit::Secs | Unit::BytesPerSec => 10.0,
    }
}

/// The most labelled ticks an axis gets.
const MAX_LABELS: usize = 7;

impl Axis {
    pub fn linear(unit: Unit, min: f64, max: f64) -> Axis {
        Axis {
            unit,
            log: false,
            min,
            max,
        }
    }

    pub fn log(unit: Unit, min: f64, max: f64) -> Axis {
        Axis {
            unit,
            log: true,
            min,
            max,
        }
    }

    /// A linear axis from 0 to a round value at or above every value.
    ///
    /// ```
    /// use allreduce_lab::ui::model::chart_math::{Axis, Unit};
    /// assert_eq!(Axis::linear_fit(Unit::Secs, [0.31, 0.12]).max, 0.4);
    /// ```
    pub fn linear_fit(unit: Unit, values: impl IntoIterator<Item = f64>) -> Axis {
        let top = values
            .into_iter()
            .filter(|v| v.is_finite())
            .fold(0.0_f64, f64::max);
        Axis::linear(unit, 0.0, nice_ceil(top))
    }

    /// A log axis spanning every positive value, widened to whole steps of its base.
    ///
    /// ```
    /// use allreduce_lab::ui::model::chart_math::{Axis, Unit};
    /// let a = Axis::log_fit(Unit::Secs, [3e-5, 0.2]);
    /// assert_eq!((a.min, a.max), (1e-5, 1.0));
    /// ```
    pub fn log_fit(unit: Unit, values: impl IntoIterator<Item = f64>) -> Axis {
        let base = log_base(unit);
        let (lo, hi) = values
            .into_iter()
            .filter(|v| v.is_finite() && *v > 0.0)
            .fold((f64::INFINITY, 0.0_f64), |(lo, hi), v| {
                (lo.min(v), hi.max(v))
            });
        if hi <= 0.0 {
            return Axis::log(unit, 1.0, base);
        }
        let down = base.powf((lo.log(base) + 1e-9).floor());
        let mut up = base.powf((hi.log(base) - 1e-9).ceil());
        if up <= down {
            up = down * base;
        }
        Axis::log(unit, down, up)
    }

    /// Where `v` falls, from 0 (min) to 1 (max); values outside are clamped a little beyond.
    pub fn fraction(&self, v: f64) -> f64 {
        let f = if self.log {
            let (a, b) = (self.min.ln(), self.max.ln());
            (v.max(self.min * 1e-3).ln() - a) / (b - a)
        } else {
            (v - self.min) / (self.max - self.min)
        };
        if f.is_finite() {
            f.clamp(-0.05, 1.05)
        } else {
            0.0
        }
    }

    /// Ticks from min to max: every step of the base on a log axis (labelled every k-th step so
    /// that at most seven carry labels), or 1-2-5 steps on a linear one.
    pub fn ticks(&self) -> Vec<Tick> {
        if self.log {
            let base = log_base(self.unit);
            let steps = ((self.max / self.min).log(base).round() as usize).max(1);
            let every = steps.div_ceil(MAX_LABELS - 1).max(1);
            (0..=steps)
                .map(|i| {
                    let value = self.min * base.powi(i as i32);
                    let label = (i % every == 0).then(|| format_value(self.unit, value));
                    Tick { value, label }
                })
                .collect()
        } else {
            let step = nice_step((self.max - self.min) / 5.0);
            let mut out = Vec::new();
            let mut i = (self.min / step).ceil() as i64;
            while (i as f64) * step <= self.max * (1.0 + 1e-9) {
                let value = i as f64 * step;
                out.push(Tick {
                    value,
                    label: Some(format_value(self.unit, value)),
                });
                i += 1;
            }
            out
        }
    }
}

/// The 1-2-2.5-5 × 10^k value nearest above `x` (for a step between ticks).
fn nice_step(x: f64) -> f64 {
    if !(x.is_finite() && x > 0.0) {
        return 1.0;
    }
    let e = 10f64.powf(x.log10().floor());
    [1.0, 2.0, 2.5, 5.0, 10.0]
        .into_iter()
        .map(|m| m * e)
        .find(|&s| s >= x * (1.0 - 1e-9))
        .unwrap_or(10.0 * e)
}

/// A round axis end at or above `x`: a whole number of 1-2-2.5-5 steps.
///
/// ```
/// use allreduce_lab::ui::model::chart_math::nice_ceil;
/// assert_eq!(nice_ceil(0.31), 0.4);
/// assert_eq!(nice_ceil(23.0), 25.0);
/// assert_eq!(nice_ceil(0.0), 1.0);
/// ```
pub fn nice_ceil(x: f64) -> f64 {
    if !(x.is_finite() && x > 0.0) {
        return 1.0;
    }
    let step = nice_step(x / 5.0);
    let top = (x / step - 1e-9).ceil() * step;
    // Round away float noise such as 0.30000000000000004.
    let digits = (-step.log10().floor()).max(0.0) as i32 + 2;
    let p = 10f64.powi(digits);
    (top * p).round() / p
}

/// The index of the x fraction nearest `pointer` (all in 0..1), if any.
///
/// ```
/// use allreduce_lab::ui::model::chart_math::nearest;
/// assert_eq!(nearest(&[0.0, 0.5, 1.0], 0.6), Some(1));
/// assert_eq!(nearest(&[], 0.6), None);
/// ```
pub fn nearest(fractions: &[f64], pointer: f64) -> Option<usize> {
    (0..fractions.len()).min_by(|&a, &b| {
        (fractions[a] - pointer)
            .abs()
            .total_cmp(&(fractions[b] - pointer).abs())
    })
}

/// Two drawn points within half a pixel of each other.
pub fn same_spot(a: (f64, f64), b: (f64, f64)) -> bool {
    (a.0 - b.0).abs() < 0.5 && (a.1 - b.1).abs() < 0.5
}

/// Where line `j` of a chart runs along others, stretch by stretch (a stretch: two consecutive
/// drawn points). `lines` are every line's drawn points; `data[i]` whether line `i` is a data line
/// (a reference line piles on nothing and nothing piles on it). For each stretch of line `j`:
/// `None` when no earlier data line has it (drawn solid), else `Some((k, n))`: it is the `k`-th
/// above the first of `n` data lines that have it, so that its dash can take the `k`-th of the
/// gaps the first leaves (with one dash pattern for all, a third line would hide the second).
///
/// ```
/// use allreduce_lab::ui::model::chart_math::pile;
/// let a = vec![(0.0, 0.0), (10.0, 0.0), (20.0, 5.0)];
/// let b = vec![(0.0, 0.0), (10.0, 0.0), (20.0, 9.0)]; // along `a` up to x = 10
/// let lines = [a.clone(), b, a];
/// let data = [true; 3];
/// assert_eq!(pile(&lines, &data, 0), [None, None]);
/// assert_eq!(pile(&lines, &data, 1), [Some((1, 3)), None]);
/// assert_eq!(pile(&lines, &data, 2), [Some((2, 3)), Some((1, 2))]);
/// ```
pub fn pile(lines: &[Vec<(f64, f64)>], data: &[bool], j: usize) -> Vec<Option<(usize, usize)>> {
    let has = |other: &Vec<(f64, f64)>, w: &[(f64, f64)]| {
        other
            .windows(2)
            .any(|v| same_spot(v[0], w[0]) && same_spot(v[1], w[1]))
    };
    let count = |range: std::ops::Range<usize>, w: &[(f64, f64)]| {
        range.filter(|&i| data[i] && has(&lines[i], w)).count()
    };
    lines[j]
        .windows(2)
        .map(|w| {
            let below = if data[j] { count(0..j, w) } else { 0 };
            (below > 0).then(|| (below, below + 1 + count(j + 1..lines.len(), w)))
        })
        .collect()
}

/// Of the horizontal bands `rows` (each `(top, bottom)` in drawn units), the first that no line
/// of `lines` crosses between `x0` and `x1`, else the first. A chart's marker puts its words in
/// it, off the lines they name.
///
/// ```
/// use allreduce_lab::ui::model::chart_math::clear_band;
/// // A line climbing from y = 100 to y = 10 across x = 0..100.
/// let lines = [vec![(0.0, 100.0), (100.0, 10.0)]];
/// let (high, low) = ((5.0, 20.0), (80.0, 95.0));
/// assert_eq!(clear_band(&lines, 60.0, 90.0, &[high, low]), 1); // the line is high there
/// assert_eq!(clear_band(&lines, 0.0, 20.0, &[high, low]), 0); // and low here
/// assert_eq!(clear_band(&lines, 0.0, 100.0, &[high, low]), 0); // crossed everywhere
/// // An upright stretch crosses every band it spans.
/// assert_eq!(clear_band(&[vec![(50.0, 100.0), (50.0, 0.0)]], 40.0, 60.0, &[high, low]), 0);
/// assert_eq!(clear_band(&[vec![(50.0, 30.0), (50.0, 0.0)]], 40.0, 60.0, &[high, low]), 1);
/// ```
pub fn clear_band(lines: &[Vec<(f64, f64)>], x0: f64, x1: f64, rows: &[(f64, f64)]) -> usize {
    rows.iter()
        .position(|&r| !enters(lines, x0, x1, r))
        .unwrap_or(0)
}

/// Whether a stretch of `lines` between `x0` and `x1` enters the band `(top, bottom)`.
fn enters(lines: &[Vec<(f64, f64)>], x0: f64, x1: f64, (top, bottom): (f64, f64)) -> bool {
    lines.iter().flat_map(|line| line.windows(2)).any(|w| {
        let ((ax, ay), (bx, by)) = (w[0], w[1]);
        let (lo, hi) = (ax.min(bx).max(x0), ax.max(bx).min(x1));
        if lo > hi {
            return false;
        }
        // The y range the stretch spans between x0 and x1 (all of it when upright).
        let (y0, y1) = if bx == ax {
            (ay, by)
        } else {
            let at = |x: f64| ay + (by - ay) * (x - ax) / (bx - ax);
            (at(lo), at(hi))
        };
        y0.min(y1) <= bottom && y0.max(y1) >= top
    })
}

/// Where the words of an upright marker line at `at` go, `width` long: `(left, row)`, on the
/// left or the right of the line ([`LABEL_GAP`] off it) and in one of the bands `rows`. Each
/// spot considered (by row, the side `prefer_left` asks for first) lies within `bounds` and
/// meets none of the words already placed (`taken`: `(x0, x1, row)`); of those, the first that
/// meets no `other` marker line, no `soft` upright line (one that names no crossing, as the
/// chosen size's) and no line of `lines`; else the first that only a soft line crosses; else
/// the first that only the lines cross (soft or not); else the first anywhere; else the
/// preferred side in the first row. Two markers side by side each keep their words off the
/// other's line (in the Ring vs Tree chart "crossover" and "NCCL crossover" each sat on the
/// other's line).
///
/// ```
/// use allreduce_lab::ui::model::chart_math::marker_label_spot;
/// let rows = [(13.0, 25.0), (25.0, 37.0)];
/// let spot = |prefer_left: bool, other: &[f64], soft: &[f64], lines: &[Vec<(f64, f64)>]| {
///     marker_label_spot(100.0, 40.0, prefer_left, other, soft, lines, &rows, &[], (0.0, 500.0))
/// };
/// // Another marker 6 units to the right: the words go left.
/// assert_eq!(spot(false, &[106.0], &[], &[]), (true, 0));
/// // A line crossing the first row on both sides: the second row.
/// let low = vec![(0.0, 20.0), (500.0, 20.0)];
/// assert_eq!(spot(false, &[], &[], &[low]), (false, 1));
/// // A curve through the first row on the right and the second on both sides, a soft line on
/// // the left: over the soft line, not the curve.
/// let curve = vec![vec![(100.0, 20.0), (500.0, 20.0)], vec![(0.0, 30.0), (500.0, 30.0)]];
/// assert_eq!(spot(false, &[], &[80.0], &curve), (true, 0));
/// // Another marker on the left instead: over the curve, not the other marker's line.
/// assert_eq!(spot(true, &[80.0], &[], &curve), (false, 0));
/// // Nowhere clear of it: words stay within the chart.
/// assert_eq!(marker_label_spot(480.0, 40.0, false, &[440.0], &[], &[], &rows, &[], (0.0, 500.0)), (true, 0));
/// ```
#[allow(clippy::too_many_arguments)]
pub fn marker_label_spot(
    at: f64,
    width: f64,
    prefer_left: bool,
    other: &[f64],
    soft: &[f64],
    lines: &[Vec<(f64, f64)>],
    rows: &[(f64, f64)],
    taken: &[(f64, f64, usize)],
    bounds: (f64, f64),
) -> (bool, usize) {
    /// How near another marker's line may come to the words.
    const CLEAR: f64 = 2.0;
    // The best spot so far and its rank: 0 clear of all, 1 over a soft line, 2 over the lines
    // too, 3 over another marker's line.
    let mut best = ((prefer_left, 0), 4);
    for (row, &band) in rows.iter().enumerate() {
        for left in [prefer_left, !prefer_left] {
            let (x0, x1) = marker_label_extent(at, width, left);
            let meets = |marks: &[f64]| marks.iter().any(|&o| o >= x0 - CLEAR && o <= x1 + CLEAR);
            let room = x0 >= bounds.0
                && x1 <= bounds.1
                && !taken
                    .iter()
                    .any(|&(t0, t1, r)| r == row && t0 <= x1 + LABEL_GAP && t1 >= x0 - LABEL_GAP);
            if !room {
                continue;
            }
            let rank = if meets(other) {
                3
            } else if enters(lines, x0, x1, band) {
                2
            } else {
                usize::from(meets(soft))
            };
            if rank < best.1 {
                best = ((left, row), rank);
            }
        }
    }
    best.0
}

/// The stretch `(x0, x1)` that words `width` long take on the `left` or the right of a marker
/// line at `at` ([`marker_label_spot`]'s spot).
pub fn marker_label_extent(at: f64, width: f64, left: bool) -> (f64, f64) {
    if left {
        (at - LABEL_GAP - width, at - LABEL_GAP)
    } else {
        (at + LABEL_GAP, at + LABEL_GAP + width)
    }
}

/// How far a marker's words stand off its line.
pub const LABEL_GAP: f64 = 4.0;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn piled_lines_take_turns_in_the_gaps_of_the_first() {
        let line = vec![(0.0, 0.0), (10.0, 0.0), (20.0, 0.0)];
        let apart = vec![(0.0, 30.0), (10.0, 30.0), (20.0, 30.0)];
        // Within half a pixel is the same spot; a reference line piles on nothing.
        let near = vec![(0.0, 0.4), (10.0, -0.4), (20.0, 0.0)];
        let lines = [line.clone(), apart, near, line.clone(), line];
        let data = [true, true, true, false, true];
        assert_eq!(pile(&lines, &data, 0), [None, None]);
        assert_eq!(pile(&lines, &data, 1), [None, None]);
        assert_eq!(pile(&lines, &data, 2), [Some((1, 3)); 2]);
        assert_eq!(pile(&lines, &data, 3), [None, None]);
        assert_eq!(pile(&lines, &data, 4), [Some((2, 3)); 2]);
        assert!(!same_spot((0.0, 0.0), (0.5, 0.0)));
    }

    #[test]
    fn log_gpu_axis_labels_every_power_of_two_it_can_fit() {
        let ticks = Axis::log(Unit::Count, 1.0, 1024.0).ticks();
        assert_eq!(ticks.len(), 11);
        let labels: Vec<_> = ticks.iter().filter_map(|t| t.label.clone()).collect();
        assert_eq!(labels, ["1", "4", "16", "64", "256", "1024"]);
    }

    #[test]
    fn size_axis_from_8_bytes_to_8_gib_uses_binary_units() {
        let a = Axis::log_fit(Unit::Bytes, [8.0, 8.0 * (1u64 << 30) as f64]);
        assert_eq!((a.min, a.max), (8.0, 8.0 * (1u64 << 30) as f64));
        let labels: Vec<_> = a.ticks().into_iter().filter_map(|t| t.label).collect();
        assert!(labels.len() <= MAX_LABELS, "{labels:?}");
        assert_eq!(labels.first().unwrap(), "8 B");
        assert_eq!(labels.last().unwrap(), "8 GiB");
    }

    #[test]
    fn linear_ticks_are_round_and_cover_the_axis() {
        let a = Axis::linear_fit(Unit::BytesPerSec, [23e9]);
        assert_eq!(a.max, 25e9);
        let labels: Vec<_> = a.ticks().into_iter().filter_map(|t| t.label).collect();
        assert_eq!(
            labels,
            ["0", "5 GB/s", "10 GB/s", "15 GB/s", "20 GB/s", "25 GB/s"]
        );
    }

    #[test]
    fn fractions_are_linear_in_the_log_on_log_axes() {
        let a = Axis::log(Unit::Secs, 1e-6, 1.0);
        assert!((a.fraction(1e-3) - 0.5).abs() < 1e-12);
        assert_eq!(a.fraction(1e-6), 0.0);
        assert_eq!(a.fraction(10.0), 1.05);
        assert_eq!(Axis::linear(Unit::Secs, 0.0, 2.0).fraction(0.5), 0.25);
    }

    #[test]
    fn degenerate_data_still_gives_a_drawable_axis() {
        let a = Axis::log_fit(Unit::Secs, []);
        assert!(a.max > a.min);
        let b = Axis::log_fit(Unit::Times, [4.0]);
        assert_eq!((b.min, b.max), (4.0, 8.0));
        assert_eq!(Axis::linear_fit(Unit::Secs, [f64::NAN]).max, 1.0);
    }
}
