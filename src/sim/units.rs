//! Units: sizes in bytes, durations in seconds, bandwidths in bytes per second.
//!
//! Parsing follows the conventions of the field: `KB, MB, GB, TB` are powers of 1000 and `KiB, MiB,
//! GiB, TiB` powers of 1024; `GB/s` is 10^9 bytes per second and `Gbps` (or `Gb/s`) 10^9 *bits* per
//! second; durations take `ns, us, ms, s`.
//!
//! ```
//! use allreduce_sim::units::{parse_size, parse_bandwidth, parse_duration};
//! assert_eq!(parse_size("1GiB"), Ok(1 << 30));
//! assert_eq!(parse_size("100MB"), Ok(100_000_000));
//! assert_eq!(parse_bandwidth("100GB/s").unwrap().bytes_per_sec(), 100e9);
//! assert_eq!(parse_bandwidth("800Gbps").unwrap().bytes_per_sec(), 100e9);
//! assert_eq!(parse_duration("5us"), Ok(5e-6));
//! ```
//!
//! Size: over 450 lines because every parser and constructor carries a doc example (a third of the
//! file) and the unit tests sit at the end; the units share one number reader and one error kind.

use serde::{Deserialize, Serialize};
use std::fmt;

/// A link or port bandwidth, stored in bytes per second.
#[derive(Clone, Copy, Debug, PartialEq, PartialOrd, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Bandwidth(f64);

impl Bandwidth {
    /// A bandwidth of `b` bytes per second.
    ///
    /// # Examples
    ///
    /// ```
    /// use allreduce_sim::units::Bandwidth;
    /// let bw = Bandwidth::from_bytes_per_sec(25e9);
    /// assert_eq!(bw.gbytes_per_sec(), 25.0);
    /// assert_eq!(bw.gbits_per_sec(), 200.0);
    /// ```
    pub const fn from_bytes_per_sec(b: f64) -> Self {
        Bandwidth(b)
    }
    /// `gb` × 10^9 bytes per second (GB/s).
    ///
    /// # Examples
    ///
    /// ```
    /// use allreduce_sim::units::{parse_bandwidth, Bandwidth};
    /// assert_eq!(Bandwidth::from_gbytes_per_sec(100.0).bytes_per_sec(), 100e9);
    /// assert_eq!(Bandwidth::from_gbytes_per_sec(100.0), parse_bandwidth("800Gbps").unwrap());
    /// ```
    pub fn from_gbytes_per_sec(gb: f64) -> Self {
        Bandwidth(gb * 1e9)
    }
    /// `gbit` × 10^9 bits per second (Gbps).
    ///
    /// # Examples
    ///
    /// ```
    /// use allreduce_sim::units::Bandwidth;
    /// // 8 bits to the byte: 400 Gbps is 50 GB/s.
    /// assert_eq!(Bandwidth::from_gbits_per_sec(400.0).bytes_per_sec(), 50e9);
    /// ```
    pub fn from_gbits_per_sec(gbit: f64) -> Self {
        Bandwidth(gbit * 1e9 / 8.0)
    }
    /// `mbps` × 10^6 bits per second: exactly what parsing `"{mbps}Mbps"` (or the same in Gbps)
    /// gives.
    ///
    /// ```
    /// use allreduce_sim::units::{parse_bandwidth, Bandwidth};
    /// assert_eq!(Bandwidth::from_mbps(400_000), parse_bandwidth("400Gbps").unwrap());
    /// assert_eq!(Bandwidth::from_mbps(1_234), parse_bandwidth("1234Mbps").unwrap());
    /// ```
    pub fn from_mbps(mbps: u64) -> Self {
        Bandwidth(mbps as f64 * (1e6 / 8.0))
    }
    /// In bytes per second, as stored.
    ///
    /// # Examples
    ///
    /// ```
    /// use allreduce_sim::units::Bandwidth;
    /// assert_eq!(Bandwidth::from_gbits_per_sec(8.0).bytes_per_sec(), 1e9);
    /// ```
    pub const fn bytes_per_sec(self) -> f64 {
        self.0
    }
    /// In GB/s (10^9 bytes per second).
    ///
    /// # Examples
    ///
    /// ```
    /// use allreduce_sim::units::Bandwidth;
    /// assert_eq!(Bandwidth::from_gbits_per_sec(200.0).gbytes_per_sec(), 25.0);
    /// ```
    pub fn gbytes_per_sec(self) -> f64 {
        self.0 / 1e9
    }
    /// In Gbps (10^9 bits per second).
    ///
    /// # Examples
    ///
    /// ```
    /// use allreduce_sim::units::Bandwidth;
    /// assert_eq!(Bandwidth::from_gbytes_per_sec(50.0).gbits_per_sec(), 400.0);
    /// ```
    pub fn gbits_per_sec(self) -> f64 {
        self.0 * 8.0 / 1e9
    }
}

impl fmt::Display for Bandwidth {
    /// Both units the field uses: `100 GB/s (800 Gbps)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} ({})",
            format_bandwidth(*self),
            format_bandwidth_bits(*self)
        )
    }
}

/// What kind of quantity a text was read as.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Quantity {
    Size,
    Bandwidth,
    Duration,
}

impl Quantity {
    /// The English name the CLI prints (`size`, `bandwidth`, `duration`).
    ///
    /// # Examples
    ///
    /// ```
    /// use allreduce_sim::units::{parse_duration, Quantity};
    /// assert_eq!(Quantity::Bandwidth.name(), "bandwidth");
    /// assert_eq!(parse_duration("5 parsecs").unwrap_err().input().0.name(), "duration");
    /// ```
    pub fn name(self) -> &'static str {
        match self {
            Quantity::Size => "size",
            Quantity::Bandwidth => "bandwidth",
            Quantity::Duration => "duration",
        }
    }

    /// Examples of what is accepted, with the units only (no words: for any language).
    ///
    /// # Examples
    ///
    /// ```
    /// use allreduce_sim::units::{parse_size, Quantity};
    /// // Every example it shows parses.
    /// for e in ["1024", "4KB", "1GiB"] {
    ///     assert!(Quantity::Size.examples().contains(&format!("'{e}'")));
    ///     assert!(parse_size(e).is_ok());
    /// }
    /// ```
    pub fn examples(self) -> &'static str {
        match self {
            Quantity::Size => {
                "'1024', '4KB', '1GiB' (B, KB, MB, GB, TB = 10^3..; KiB, MiB, GiB, TiB = 2^10..)"
            }
            Quantity::Bandwidth => {
                "'100GB/s', '800Gbps' (B/s KB/s MB/s GB/s TB/s; bps Kbps Mbps Gbps Tbps, Gb/s)"
            }
            Quantity::Duration => "'5us', '1.5ms', '100ns', '0' (ns, us, µs, ms, s)",
        }
    }

    /// What the English message lists as allowed, with English words (as the CLI prints it).
    ///
    /// # Examples
    ///
    /// ```
    /// use allreduce_sim::units::{parse_bandwidth, Quantity};
    /// let allowed = Quantity::Bandwidth.allowed_en();
    /// assert!(allowed.starts_with("'100GB/s' or '800Gbps'"));
    /// assert_eq!(parse_bandwidth("100GB/s"), parse_bandwidth("800Gbps"));
    /// ```
    pub fn allowed_en(self) -> &'static str {
        match self {
            Quantity::Size => {
                "'1024', '4KB', '1GiB' (units B, KB, MB, GB, TB = 10^3..; KiB, MiB, GiB, TiB = 2^10..)"
            }
            Quantity::Bandwidth => {
                "'100GB/s' or '800Gbps' (bytes: B/s KB/s MB/s GB/s TB/s; bits: bps Kbps Mbps Gbps Tbps or Gb/s)"
            }
            Quantity::Duration => "'5us', '1.5ms', '100ns', '0' (units ns, us, µs, ms, s)",
        }
    }
}

/// Why a quantity could not be parsed: the kind, what was read as, and the text given.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum UnitError {
    /// No number at the start of the text.
    NotANumber { quantity: Quantity, text: String },
    /// The number is infinite or NaN.
    NotFinite { quantity: Quantity, text: String },
    /// A bandwidth given without a unit.
    MissingUnit { quantity: Quantity, text: String },
    /// A unit the quantity does not know.
    UnknownUnit {
        quantity: Quantity,
        text: String,
        unit: String,
    },
    /// Below zero (sizes, durations).
    Negative { quantity: Quantity, text: String },
    /// Zero or below (bandwidths).
    NotPositive { quantity: Quantity, text: String },
    /// Above 10^18 bytes; a bandwidth beyond what a float holds (1e300GB/s).
    TooLarge { quantity: Quantity, text: String },
}

impl UnitError {
    /// The quantity and the text given.
    ///
    /// # Examples
    ///
    /// ```
    /// use allreduce_sim::units::{parse_size, Quantity, UnitError};
    /// let err = parse_size("5 furlongs").unwrap_err();
    /// assert!(matches!(&err, UnitError::UnknownUnit { unit, .. } if unit == "furlongs"));
    /// assert_eq!(err.input(), (Quantity::Size, "5 furlongs"));
    /// ```
    pub fn input(&self) -> (Quantity, &str) {
        match self {
            UnitError::NotANumber { quantity, text }
            | UnitError::NotFinite { quantity, text }
            | UnitError::MissingUnit { quantity, text }
            | UnitError::UnknownUnit { quantity, text, .. }
            | UnitError::Negative { quantity, text }
            | UnitError::NotPositive { quantity, text }
            | UnitError::TooLarge { quantity, text } => (*quantity, text),
        }
    }
}

impl fmt::Display for UnitError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (q, text) = self.input();
        let (what, allowed) = (q.name(), q.allowed_en());
        match self {
            UnitError::NotANumber { .. } => write!(
                f,
                "{what} '{text}' is not a number with a unit; expected e.g. {allowed}"
            ),
            UnitError::NotFinite { .. } => write!(f, "{what} '{text}' is not finite"),
            UnitError::MissingUnit { .. } => {
                write!(f, "{what} '{text}' needs a unit; expected e.g. {allowed}")
            }
            UnitError::UnknownUnit { unit, .. } => write!(
                f,
                "{what} '{text}' has an unknown unit '{unit}'; expected e.g. {allowed}"
            ),
            UnitError::Negative { .. } if q == Quantity::Duration => {
                write!(f, "{what} '{text}' must not be negative")
            }
            UnitError::Negative { .. } => write!(f, "{what} '{text}' is negative"),
            UnitError::NotPositive { .. } => write!(
                f,
                "{what} '{text}' must be positive; expected e.g. {allowed}"
            ),
            UnitError::TooLarge { .. } => write!(f, "{what} '{text}' is too large"),
        }
    }
}

impl std::error::Error for UnitError {}

/// Splits `"100 GB/s"` into `(100.0, "GB/s")`. The number must be finite.
fn split_number(text: &str, quantity: Quantity) -> Result<(f64, String), UnitError> {
    let t = text.trim();
    let end = t
        .char_indices()
        .find(|&(i, c)| {
            !(c.is_ascii_digit()
                || c == '.'
                || c == '_'
                || ((c == 'e' || c == 'E')
                    && t[i + 1..]
                        .starts_with(|d: char| d.is_ascii_digit() || d == '-' || d == '+'))
                || ((c == '-' || c == '+') && (i == 0 || t[..i].ends_with(['e', 'E']))))
        })
        .map(|(i, _)| i)
        .unwrap_or(t.len());
    let (num, unit) = t.split_at(end);
    let num: String = num.chars().filter(|&c| c != '_').collect();
    let text = text.to_string();
    let value: f64 = num.parse().map_err(|_| UnitError::NotANumber {
        quantity,
        text: text.clone(),
    })?;
    if !value.is_finite() {
        return Err(UnitError::NotFinite { quantity, text });
    }
    Ok((value, unit.trim().to_string()))
}

/// Parses a size: `1024`, `4KB`, `1.5 GiB`, `100MB`. Plain numbers are bytes.
/// Fractional results are rounded to the nearest byte; negative sizes are rejected.
///
/// # Examples
///
/// ```
/// use allreduce_sim::units::{parse_size, UnitError};
/// assert_eq!(parse_size("1.5 GiB"), Ok(3 << 29));
/// assert_eq!(parse_size("4KB"), Ok(4_000));
/// assert_eq!(parse_size("1024"), Ok(1024));
/// assert!(matches!(parse_size("-1MB"), Err(UnitError::Negative { .. })));
/// assert!(matches!(parse_size("lots"), Err(UnitError::NotANumber { .. })));
/// ```
pub fn parse_size(text: &str) -> Result<u64, UnitError> {
    let quantity = Quantity::Size;
    let (value, unit) = split_number(text, quantity)?;
    let text = text.to_string();
    let scale = match unit.as_str() {
        "" | "B" => 1.0,
        "KB" | "kB" => 1e3,
        "MB" => 1e6,
        "GB" => 1e9,
        "TB" => 1e12,
        "KiB" => 1024.0,
        "MiB" => 1024.0 * 1024.0,
        "GiB" => 1024.0 * 1024.0 * 1024.0,
        "TiB" => 1024.0 * 1024.0 * 1024.0 * 1024.0,
        _ => {
            return Err(UnitError::UnknownUnit {
                quantity,
                text,
                unit,
            });
        }
    };
    let bytes = value * scale;
    if bytes < 0.0 {
        return Err(UnitError::Negative { quantity, text });
    }
    if bytes > 1e18 {
        return Err(UnitError::TooLarge { quantity, text });
    }
    Ok(bytes.round() as u64)
}

/// Parses a bandwidth: `100GB/s`, `800Gbps`, `200 Gb/s`, `25MB/s`. Must be positive.
///
/// # Examples
///
/// ```
/// use allreduce_sim::units::{parse_bandwidth, Bandwidth, UnitError};
/// assert_eq!(parse_bandwidth("200 Gb/s"), Ok(Bandwidth::from_gbytes_per_sec(25.0)));
/// assert_eq!(parse_bandwidth("25MB/s").unwrap().bytes_per_sec(), 25e6);
/// assert!(matches!(parse_bandwidth("100"), Err(UnitError::MissingUnit { .. })));
/// assert!(matches!(parse_bandwidth("0Gbps"), Err(UnitError::NotPositive { .. })));
/// assert!(matches!(parse_bandwidth("1e300GB/s"), Err(UnitError::TooLarge { .. })));
/// ```
pub fn parse_bandwidth(text: &str) -> Result<Bandwidth, UnitError> {
    let quantity = Quantity::Bandwidth;
    let (value, unit) = split_number(text, quantity)?;
    let text = text.to_string();
    let bytes_per_sec = match unit.as_str() {
        "B/s" => 1.0,
        "KB/s" | "kB/s" => 1e3,
        "MB/s" => 1e6,
        "GB/s" => 1e9,
        "TB/s" => 1e12,
        "KiB/s" => 1024.0,
        "MiB/s" => 1024.0 * 1024.0,
        "GiB/s" => 1024.0 * 1024.0 * 1024.0,
        "bps" | "b/s" => 1.0 / 8.0,
        "Kbps" | "kbps" | "Kb/s" | "kb/s" => 1e3 / 8.0,
        "Mbps" | "Mb/s" => 1e6 / 8.0,
        "Gbps" | "Gb/s" => 1e9 / 8.0,
        "Tbps" | "Tb/s" => 1e12 / 8.0,
        "" => return Err(UnitError::MissingUnit { quantity, text }),
        _ => {
            return Err(UnitError::UnknownUnit {
                quantity,
                text,
                unit,
            });
        }
    };
    let b = value * bytes_per_sec;
    if b <= 0.0 {
        return Err(UnitError::NotPositive { quantity, text });
    }
    if !b.is_finite() {
        // 1e300GB/s overflows: it was taken, then refused as "not a positive bandwidth".
        return Err(UnitError::TooLarge { quantity, text });
    }
    Ok(Bandwidth(b))
}

/// Parses a duration: `5us`, `1.5ms`, `0`, `2s`, `100ns`. Plain numbers are seconds. Must not be negative.
///
/// # Examples
///
/// ```
/// use allreduce_sim::units::{parse_duration, UnitError};
/// assert_eq!(parse_duration("1.5ms"), Ok(1.5e-3));
/// assert_eq!(parse_duration("5µs"), parse_duration("5us"));
/// assert_eq!(parse_duration("2"), Ok(2.0));
/// assert!(matches!(parse_duration("-1s"), Err(UnitError::Negative { .. })));
/// ```
pub fn parse_duration(text: &str) -> Result<f64, UnitError> {
    let quantity = Quantity::Duration;
    // Two code points look like µ: the micro sign U+00B5 (what keyboards type) and the Greek
    // small letter mu U+03BC (what NFKC normalisation and many fonts' pickers produce). Both mean micro.
    let (value, unit) = split_number(text, quantity)?;
    let text = text.to_string();
    // Divide rather than multiply by 1e-6: 5 / 1e6 is the double nearest 5 µs, 5 × 1e-6 is not.
    let per_sec = match unit.as_str() {
        "" | "s" => 1.0,
        "ms" => 1e3,
        "us" | "\u{b5}s" | "\u{3bc}s" => 1e6,
        "ns" => 1e9,
        _ => {
            return Err(UnitError::UnknownUnit {
                quantity,
                text,
                unit,
            });
        }
    };
    let secs = value / per_sec;
    if secs < 0.0 {
        return Err(UnitError::Negative { quantity, text });
    }
    Ok(secs)
}

/// Seconds in `ns` nanoseconds: the double nearest the exact value, which is also what parsing
/// `"{ns}ns"`, `"{ns/1000}us"` or `"{ns/10^6}ms"` gives (each divides exact numbers once).
///
/// ```
/// use allreduce_sim::units::{parse_duration, secs_from_ns};
/// assert_eq!(secs_from_ns(5_000), parse_duration("5us").unwrap());
/// assert_eq!(secs_from_ns(1_500_000), parse_duration("1.5ms").unwrap());
/// ```
pub fn secs_from_ns(ns: u64) -> f64 {
    ns as f64 / 1e9
}

/// A bandwidth as a command-line value that [`parse_bandwidth`] reads back exactly: whole Gbps or
/// Mbps where that is exact, else bytes per second.
///
/// ```
/// use allreduce_sim::units::{bandwidth_arg, parse_bandwidth, Bandwidth};
/// assert_eq!(bandwidth_arg(Bandwidth::from_gbits_per_sec(400.0)), "400Gbps");
/// assert_eq!(bandwidth_arg(Bandwidth::from_mbps(1_234)), "1234Mbps");
/// let odd = Bandwidth::from_bytes_per_sec(1.0 / 3.0);
/// assert_eq!(parse_bandwidth(&bandwidth_arg(odd)).unwrap(), odd);
/// ```
pub fn bandwidth_arg(bw: Bandwidth) -> String {
    let b = bw.bytes_per_sec();
    for (unit, per) in [("Gbps", 1e9 / 8.0), ("Mbps", 1e6 / 8.0)] {
        let n = b / per;
        if n.fract() == 0.0 && n >= 1.0 && n < 2f64.powi(53) && n * per == b {
            return format!("{n}{unit}");
        }
    }
    format!("{b}B/s")
}

/// A duration as a command-line value that [`parse_duration`] reads back exactly: whole ms, µs or
/// ns where that is exact (`0ns` for 0), else seconds.
///
/// ```
/// use allreduce_sim::units::{duration_arg, parse_duration, secs_from_ns};
/// assert_eq!(duration_arg(secs_from_ns(5_000)), "5us");
/// assert_eq!(duration_arg(0.0), "0ns");
/// let odd = 1e-7 / 3.0;
/// assert_eq!(parse_duration(&duration_arg(odd)).unwrap(), odd);
/// ```
pub fn duration_arg(secs: f64) -> String {
    if secs == 0.0 {
        return "0ns".into();
    }
    for (unit, per) in [("ms", 1e3), ("us", 1e6), ("ns", 1e9)] {
        let n = (secs * per).round();
        if n >= 1.0 && n < 2f64.powi(53) && n / per == secs {
            return format!("{n}{unit}");
        }
    }
    format!("{secs}s")
}

/// Formats a number with up to 3 significant digits, trimming trailing zeros.
///
/// ```
/// use allreduce_sim::units::sig3;
/// assert_eq!(sig3(12.34), "12.3");
/// assert_eq!(sig3(2.0), "2");
/// ```
pub fn sig3(x: f64) -> String {
    let digits = if x.abs() >= 100.0 {
        0
    } else if x.abs() >= 10.0 {
        1
    } else {
        2
    };
    let s = format!("{x:.digits$}");
    if s.contains('.') {
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        s
    }
}

/// `1536` → `"1.54 KB"`; decimal units, as nccl-tests and the network world use them.
///
/// ```
/// use allreduce_sim::units::format_bytes;
/// assert_eq!(format_bytes(1_000_000_000.0), "1 GB");
/// assert_eq!(format_bytes(875e6), "875 MB");
/// assert_eq!(format_bytes(12.0), "12 B");
/// ```
pub fn format_bytes(bytes: f64) -> String {
    const UNITS: [(&str, f64); 5] = [
        ("TB", 1e12),
        ("GB", 1e9),
        ("MB", 1e6),
        ("KB", 1e3),
        ("B", 1.0),
    ];
    for (name, scale) in UNITS {
        if bytes.abs() >= scale * 0.9995 {
            return format!("{} {name}", sig3(bytes / scale));
        }
    }
    format!("{} B", sig3(bytes))
}

/// `0.0000123` → `"12.3 µs"`.
///
/// ```
/// use allreduce_sim::units::format_secs;
/// assert_eq!(format_secs(0.0123), "12.3 ms");
/// assert_eq!(format_secs(2.0), "2 s");
/// assert_eq!(format_secs(5e-6), "5 µs");
/// // Never "0" for a time that is not zero: picoseconds, then powers of ten.
/// assert_eq!(format_secs(4e-10), "400 ps");
/// assert_eq!(format_secs(2.5e-16), "2.5e-16 s");
/// assert_eq!(format_secs(9.9999e-17), "1e-16 s");
/// assert_eq!(format_secs(1e-300), "1e-300 s");
/// assert_eq!(format_secs(5e-324), "4.94e-324 s"); // the least float, as near 5e-324 as it is
/// assert_eq!(format_secs(f64::NAN), "NaN s");
/// ```
pub fn format_secs(secs: f64) -> String {
    if secs == 0.0 {
        return "0 s".to_string();
    }
    const UNITS: [(&str, f64); 5] = [
        ("s", 1.0),
        ("ms", 1e-3),
        ("µs", 1e-6),
        ("ns", 1e-9),
        ("ps", 1e-12),
    ];
    for (name, scale) in UNITS {
        if secs.abs() >= scale * 0.9995 {
            return format!("{} {name}", sig3(secs / scale));
        }
    }
    if !secs.is_finite() {
        return format!("{secs} s");
    }
    // Three significant digits in Rust's exponent form, which rounds the mantissa and its power
    // together (9.9999e-17 is 1e-16, not "10e-17"; 5e-324 was "infe-324").
    let text = format!("{secs:.2e}");
    let (mantissa, exp) = text.split_once('e').unwrap_or((&text, "0"));
    let mantissa = mantissa.trim_end_matches('0').trim_end_matches('.');
    format!("{mantissa}e{exp} s")
}

/// `100e9 B/s` → `"100 GB/s"`.
///
/// # Examples
///
/// ```
/// use allreduce_sim::units::{format_bandwidth, Bandwidth};
/// assert_eq!(format_bandwidth(Bandwidth::from_gbits_per_sec(800.0)), "100 GB/s");
/// assert_eq!(format_bandwidth(Bandwidth::from_bytes_per_sec(12.5e6)), "12.5 MB/s");
/// ```
pub fn format_bandwidth(bw: Bandwidth) -> String {
    let b = bw.bytes_per_sec();
    for (name, scale) in [("TB/s", 1e12), ("GB/s", 1e9), ("MB/s", 1e6), ("KB/s", 1e3)] {
        if b >= scale * 0.9995 {
            return format!("{} {name}", sig3(b / scale));
        }
    }
    format!("{} B/s", sig3(b))
}

/// `100e9 B/s` → `"800 Gbps"`.
///
/// # Examples
///
/// ```
/// use allreduce_sim::units::{format_bandwidth_bits, Bandwidth};
/// assert_eq!(format_bandwidth_bits(Bandwidth::from_gbytes_per_sec(100.0)), "800 Gbps");
/// assert_eq!(format_bandwidth_bits(Bandwidth::from_gbytes_per_sec(0.05)), "400 Mbps");
/// ```
pub fn format_bandwidth_bits(bw: Bandwidth) -> String {
    let bits = bw.bytes_per_sec() * 8.0;
    for (name, scale) in [("Tbps", 1e12), ("Gbps", 1e9), ("Mbps", 1e6), ("Kbps", 1e3)] {
        if bits >= scale * 0.9995 {
            return format!("{} {name}", sig3(bits / scale));
        }
    }
    format!("{} bps", sig3(bits))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_use_decimal_and_binary_prefixes() {
        assert_eq!(parse_size("1KB"), Ok(1000));
        assert_eq!(parse_size("1KiB"), Ok(1024));
        assert_eq!(parse_size("2 MiB"), Ok(2 * 1024 * 1024));
        assert_eq!(parse_size("1.5GB"), Ok(1_500_000_000));
        assert_eq!(parse_size("4096"), Ok(4096));
        assert_eq!(parse_size("1e3"), Ok(1000));
    }

    #[test]
    fn bits_and_bytes_per_second_differ_by_eight() {
        let a = parse_bandwidth("200Gbps").unwrap();
        let b = parse_bandwidth("200Gb/s").unwrap();
        let c = parse_bandwidth("25GB/s").unwrap();
        assert_eq!(a, b);
        assert_eq!(a, c);
        assert_eq!(a.gbits_per_sec(), 200.0);
    }

    #[test]
    fn bad_quantities_are_explained() {
        for bad in [
            "",
            "abc",
            "GB/s",
            "-5GB/s",
            "0Gbps",
            "10 furlongs",
            "nanGB/s",
        ] {
            let err = parse_bandwidth(bad).unwrap_err();
            assert!(err.to_string().contains("bandwidth"), "{bad}: {err}");
        }
        assert!(parse_size("-1KB").is_err());
        assert!(parse_size("1 parsec").is_err());
        assert!(parse_duration("-1us").is_err());
        assert!(parse_duration("5 fortnights").is_err());
        assert!(parse_size("1e400").is_err());
    }

    #[test]
    fn durations_parse_every_unit() {
        assert_eq!(parse_duration("2s"), Ok(2.0));
        assert_eq!(parse_duration("3ms"), Ok(3e-3));
        assert_eq!(parse_duration("7\u{b5}s"), Ok(7e-6), "micro sign");
        assert_eq!(
            parse_duration("7\u{3bc}s"),
            Ok(7e-6),
            "Greek small letter mu"
        );
        assert_eq!(parse_duration("9ns"), Ok(9e-9));
        assert_eq!(parse_duration("0"), Ok(0.0));
    }

    #[test]
    fn bandwidth_formats_in_both_units() {
        let bw = Bandwidth::from_gbits_per_sec(400.0);
        assert_eq!(bw.to_string(), "50 GB/s (400 Gbps)");
        assert_eq!(
            format_bandwidth(Bandwidth::from_gbytes_per_sec(0.5)),
            "500 MB/s"
        );
    }
}
