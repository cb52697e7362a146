//! Reading all_reduce_perf output as people paste it.
//!
//! Comment lines (`#`), blank lines and log lines (anything not starting with a number) are skipped.
//! A data row is `size count type redop [root] time algbw busbw #wrong` for the out-of-place run,
//! optionally followed by the same four columns for the in-place run. Every number is checked; a bad
//! row is an error naming its line.
//!
//! ```
//! use allreduce_sim::nccl::nccl_tests_parse::parse;
//! let text = "# nThread 1 nGpus 1\n#  size count type redop root time algbw busbw #wrong time algbw busbw #wrong\n\
//!             8 2 float sum -1 18.75 0.00 0.00 0 18.80 0.00 0.00 0\n\
//!             1048576 262144 float sum -1 37.33 28.09 49.16 0 37.40 28.04 49.07 0\n";
//! let table = parse(text).unwrap();
//! assert_eq!(table.rows.len(), 2);
//! assert_eq!(table.rows[1].size_bytes, 1 << 20);
//! assert_eq!(table.rows[1].time_us, 37.33);
//! assert_eq!(table.rows[1].in_place_time_us, Some(37.40));
//! assert_eq!(table.rows[1].line, 4);
//! let e = parse("8 2 float sum -1 NaN 0 0 0\n").unwrap_err();
//! assert_eq!(e.line, Some(1));
//! ```

use crate::scenario::MAX_SIZE_BYTES;
use serde::Serialize;

/// One measured row.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct MeasuredRow {
    /// 1-based line in the pasted text.
    pub line: usize,
    pub size_bytes: u64,
    pub count: u64,
    pub data_type: String,
    pub redop: String,
    /// Out-of-place time, µs.
    pub time_us: f64,
    pub algbw_gbytes_per_sec: f64,
    pub busbw_gbytes_per_sec: f64,
    pub in_place_time_us: Option<f64>,
}

/// A parsed table.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct MeasuredTable {
    pub rows: Vec<MeasuredRow>,
}

/// What is wrong with a paste, and where.
#[derive(Clone, Debug, PartialEq)]
pub struct ParseError {
    /// 1-based line, when one line is at fault.
    pub line: Option<usize>,
    pub kind: ParseErrorKind,
}

#[derive(Clone, Debug, PartialEq)]
pub enum ParseErrorKind {
    /// No line looks like an all_reduce_perf row.
    NoRows,
    /// A row has too few columns.
    TooFewColumns { found: usize },
    /// A column is not a number of the right kind.
    NotANumber { column: &'static str, text: String },
    /// A time is not a number in [`TIME_RANGE_US`] (NaN, infinite, zero, negative, absurd).
    BadTime { text: String },
    /// A bandwidth is NaN, infinite or negative.
    BadBandwidth { text: String },
    /// The same size appears twice.
    DuplicateSize { size_bytes: u64, first_line: usize },
    /// A size above 1 TB ([`MAX_SIZE_BYTES`]), more than the model predicts.
    SizeTooLarge { size_bytes: u64 },
    /// More rows than [`MAX_ROWS`]: no nccl-tests sweep has that many.
    TooManyRows { max: usize },
}

/// The most rows a table may have (nccl-tests' default sweep, 8 B to 8 GiB by factors of 2, has
/// 31): a pasted megabyte of rows is refused at once instead of fitted row by row.
pub const MAX_ROWS: usize = 1_000;

impl std::fmt::Display for ParseError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if let Some(l) = self.line {
            write!(f, "line {l}: ")?;
        }
        match &self.kind {
            ParseErrorKind::NoRows => f.write_str(
                "not all_reduce_perf output: no row of the form 'size count type redop root time algbw busbw #wrong'",
            ),
            ParseErrorKind::TooFewColumns { found } => write!(
                f,
                "a row needs at least 'size count type redop time algbw busbw', this one has {found}"
            ),
            ParseErrorKind::NotANumber { column, text } => {
                write!(f, "{column} '{text}' is not a number")
            }
            ParseErrorKind::BadTime { text } => {
                write!(f, "time '{text}' must be a number of µs from 0.001 to 1e10")
            }
            ParseErrorKind::BadBandwidth { text } => {
                write!(f, "bandwidth '{text}' must be a non-negative number")
            }
            ParseErrorKind::DuplicateSize {
                size_bytes,
                first_line,
            } => write!(f, "size {size_bytes} already appears on line {first_line}"),
            ParseErrorKind::SizeTooLarge { size_bytes } => {
                write!(f, "size {size_bytes} is above 1 TB, the largest the model predicts")
            }
            ParseErrorKind::TooManyRows { max } => {
                write!(f, "more than {max} rows: not one nccl-tests sweep")
            }
        }
    }
}

impl std::error::Error for ParseError {}

fn err(line: usize, kind: ParseErrorKind) -> ParseError {
    ParseError {
        line: Some(line),
        kind,
    }
}

fn int(line: usize, column: &'static str, t: &str) -> Result<u64, ParseError> {
    t.parse::<u64>().map_err(|_| {
        err(
            line,
            ParseErrorKind::NotANumber {
                column,
                text: t.chars().take(40).collect(),
            },
        )
    })
}

/// The times a row may give, µs: a nanosecond to three hours (a terabyte, the largest size, at
/// 100 MB/s). Outside them a row is a typo, and a fit to it was an infinite error (1e308 µs).
pub const TIME_RANGE_US: std::ops::RangeInclusive<f64> = 1e-3..=1e10;

fn time(line: usize, t: &str) -> Result<f64, ParseError> {
    match t.parse::<f64>() {
        Ok(v) if TIME_RANGE_US.contains(&v) => Ok(v),
        _ => Err(err(
            line,
            ParseErrorKind::BadTime {
                text: t.chars().take(40).collect(),
            },
        )),
    }
}

fn bw(line: usize, t: &str) -> Result<f64, ParseError> {
    match t.parse::<f64>() {
        Ok(v) if v.is_finite() && v >= 0.0 => Ok(v),
        _ => Err(err(
            line,
            ParseErrorKind::BadBandwidth {
                text: t.chars().take(40).collect(),
            },
        )),
    }
}

/// Parses all_reduce_perf output.
///
/// # Examples
///
/// ```
/// use allreduce_sim::nccl::nccl_tests_parse::{parse, ParseErrorKind};
/// // Without the root column (nccl-tests 1.x), in-place columns absent.
/// let t = parse("# log line\n33554432 8388608 float sum 301.1 111.44 195.02 0\n").unwrap();
/// assert_eq!((t.rows[0].line, t.rows[0].time_us, t.rows[0].busbw_gbytes_per_sec), (2, 301.1, 195.02));
/// assert_eq!(t.rows[0].in_place_time_us, None);
/// assert_eq!(parse("nothing here").unwrap_err().kind, ParseErrorKind::NoRows);
/// assert_eq!(parse("8 2 float sum\n").unwrap_err().kind, ParseErrorKind::TooFewColumns { found: 4 });
/// ```
pub fn parse(text: &str) -> Result<MeasuredTable, ParseError> {
    let mut rows: Vec<MeasuredRow> = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = i + 1;
        let l = raw.trim();
        if l.is_empty() || l.starts_with('#') || !l.starts_with(|c: char| c.is_ascii_digit()) {
            continue;
        }
        let cols: Vec<&str> = l.split_whitespace().collect();
        if cols.len() < 7 {
            return Err(err(
                line,
                ParseErrorKind::TooFewColumns { found: cols.len() },
            ));
        }
        let size_bytes = int(line, "size", cols[0])?;
        let count = int(line, "count", cols[1])?;
        let data_type = cols[2].chars().take(20).collect::<String>();
        let redop = cols[3].chars().take(20).collect::<String>();
        if data_type.parse::<f64>().is_ok() || redop.parse::<f64>().is_ok() {
            return Err(err(
                line,
                ParseErrorKind::NotANumber {
                    column: "type/redop (a name such as 'float sum')",
                    text: format!("{data_type} {redop}"),
                },
            ));
        }
        // The root column (-1 for allreduce) exists from nccl-tests 2.x on; older tables lack it.
        let rest = &cols[4..];
        let rest = if rest.len() >= 4 && rest[0].parse::<i64>().is_ok() && rest[0].starts_with('-')
        {
            &rest[1..]
        } else {
            rest
        };
        if rest.len() < 3 {
            return Err(err(
                line,
                ParseErrorKind::TooFewColumns { found: cols.len() },
            ));
        }
        let time_us = time(line, rest[0])?;
        let algbw = bw(line, rest[1])?;
        let busbw = bw(line, rest[2])?;
        // In-place columns follow `#wrong`; words there (e.g. an algorithm name) are not times.
        let in_place_time_us = match rest.get(4) {
            Some(t) if t.parse::<f64>().is_ok() => Some(time(line, t)?),
            _ => None,
        };
        if size_bytes == 0 {
            continue;
        }
        if size_bytes > MAX_SIZE_BYTES {
            return Err(err(line, ParseErrorKind::SizeTooLarge { size_bytes }));
        }
        if rows.len() == MAX_ROWS {
            return Err(err(line, ParseErrorKind::TooManyRows { max: MAX_ROWS }));
        }
        if let Some(first) = rows.iter().find(|r| r.size_bytes == size_bytes) {
            return Err(err(
                line,
                ParseErrorKind::DuplicateSize {
                    size_bytes,
                    first_line: first.line,
                },
            ));
        }
        rows.push(MeasuredRow {
            line,
            size_bytes,
            count,
            data_type,
            redop,
            time_us,
            algbw_gbytes_per_sec: algbw,
            busbw_gbytes_per_sec: busbw,
            in_place_time_us,
        });
    }
    if rows.is_empty() {
        return Err(ParseError {
            line: None,
            kind: ParseErrorKind::NoRows,
        });
    }
    Ok(MeasuredTable { rows })
}

impl MeasuredTable {
    /// The number of ranks the table's busbw/algbw ratio implies (busbw = algbw × 2(N−1)/N), from
    /// its row with the highest algbw (the most digits), if that is at least 1 GB/s. Beyond about 40
    /// ranks the ratio's printed digits cannot tell N from N + 1, and this is `None`.
    ///
    /// # Examples
    ///
    /// ```
    /// use allreduce_sim::nccl::nccl_tests_parse::parse;
    /// // busbw = algbw × 2(N−1)/N: 1.75 for 8 ranks.
    /// let t = parse("1073741824 268435456 float sum -1 8000 134.22 234.89 0\n").unwrap();
    /// assert_eq!(t.implied_ranks(), Some(8));
    /// // Below 1 GB/s algbw the printed digits say too little.
    /// assert_eq!(parse("8 2 float sum -1 18.75 0.00 0.00 0\n").unwrap().implied_ranks(), None);
    /// ```
    pub fn implied_ranks(&self) -> Option<usize> {
        let best = self
            .rows
            .iter()
            .max_by(|a, b| a.algbw_gbytes_per_sec.total_cmp(&b.algbw_gbytes_per_sec))?;
        if best.algbw_gbytes_per_sec < 1.0 {
            return None;
        }
        let r = best.busbw_gbytes_per_sec / best.algbw_gbytes_per_sec;
        if !(r.is_finite() && (0.9..1.95).contains(&r)) {
            return None;
        }
        Some((2.0 / (2.0 - r)).round() as usize)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_size_above_1_tb_or_a_thousand_and_one_rows_are_refused_at_their_line() {
        let row = |size: u64| format!("{size} {} float sum -1 37.33 28.09 49.16 0\n", size / 4);
        let ok = format!("{}{}", row(1 << 20), row(MAX_SIZE_BYTES));
        assert_eq!(parse(&ok).unwrap().rows.len(), 2);
        // (u64::MAX made the model ask for 17.6 TB; 10^14 ran for minutes.)
        for big in [MAX_SIZE_BYTES + 1, u64::MAX] {
            let text = format!("{}{}", row(1 << 20), row(big));
            let e = parse(&text).unwrap_err();
            assert_eq!(e.line, Some(2), "{big}");
            assert_eq!(e.kind, ParseErrorKind::SizeTooLarge { size_bytes: big });
            assert!(e.to_string().contains("above 1 TB"), "{e}");
        }
        // As many rows as allowed parse; one more is refused on its own line.
        let rows: String = (1..=MAX_ROWS as u64 + 1).map(|k| row(8 * k)).collect();
        let last = rows.lines().count();
        let most: String = rows
            .lines()
            .take(MAX_ROWS)
            .map(|l| format!("{l}\n"))
            .collect();
        assert_eq!(parse(&most).unwrap().rows.len(), MAX_ROWS);
        let e = parse(&rows).unwrap_err();
        assert_eq!(
            (e.line, e.kind),
            (Some(last), ParseErrorKind::TooManyRows { max: MAX_ROWS })
        );
    }

    #[test]
    fn every_shared_table_parses_with_its_rows() {
        for (file, text, rows, ranks) in [
            (
                "dgx-a100-1node.txt",
                include_str!("published/dgx-a100-1node.txt"),
                9,
                8,
            ),
            (
                "dgx-a100-2nodes-ib-hdr.txt",
                include_str!("published/dgx-a100-2nodes-ib-hdr.txt"),
                8,
                16,
            ),
            (
                "dgx-h100-1node.txt",
                include_str!("published/dgx-h100-1node.txt"),
                11,
                8,
            ),
            (
                "pcie-gen4-8-rtx4090-no-p2p.txt",
                include_str!("published/pcie-gen4-8-rtx4090-no-p2p.txt"),
                6,
                8,
            ),
        ] {
            let t = parse(text).unwrap();
            assert_eq!(t.rows.len(), rows, "{file}");
            assert_eq!(t.implied_ranks(), Some(ranks), "{file}");
            assert_eq!(t.rows[0].size_bytes, 8);
        }
    }

    #[test]
    fn old_tables_without_a_root_column_parse() {
        let t =
            parse("  1024  256 float sum 20.35 0.05 0.09 0e+00 20.3 0.05 0.09 0e+00\n").unwrap();
        assert_eq!(t.rows[0].time_us, 20.35);
        assert_eq!(t.rows[0].in_place_time_us, Some(20.3));
    }

    #[test]
    fn words_after_busbw_are_not_in_place_times() {
        let t = parse("8 2 float sum -1 13.70 0.00 0.00 Ring LL 1\n").unwrap();
        assert_eq!(t.rows[0].in_place_time_us, None);
    }

    #[test]
    fn hostile_rows_name_their_line() {
        let cases = [
            ("#c\n8 2 float sum -1 -5 0 0 0\n", 2),
            ("8 2 float sum -1 1 0 0 0\n8 2 float sum -1 1 0 0 0\n", 2),
            ("\n\n123abc 2 float sum -1 1 0 0 0\n", 3),
            ("8 2 float\n", 1),
            ("8 2 float sum -1 1 inf 0 0\n", 1),
            ("8 2 float sum -1 1 0 0 0 NaN 0 0 0\n", 1),
        ];
        for (text, line) in cases {
            let e = parse(text).unwrap_err();
            assert_eq!(e.line, Some(line), "{text:?}: {e}");
        }
        assert_eq!(
            parse("hello\nworld").unwrap_err().kind,
            ParseErrorKind::NoRows
        );
    }
}
