//! Reading a scenario file: the one reader behind the CLI's `--scenario FILE` and the lab's import.
//!
//! A file is bytes. Editors save JSON as UTF-8, sometimes with a byte-order mark (Notepad), or as
//! UTF-16 with one (PowerShell's `>`); all three are read. Anything else — UTF-16 without a mark,
//! UTF-32, invalid UTF-8, binary — is refused with a message saying what was found.
//!
//! ```
//! use allreduce_sim::scenario_file::{decode_text, read_scenario};
//! let json = r#"{"topology":{"kind":"uniform","ranks":4,"bandwidth":1e10,"latency_secs":1e-6},"algorithm":"ring","size_bytes":4000}"#;
//! // UTF-16 LE with its byte-order mark, as PowerShell writes it:
//! let utf16: Vec<u8> = [0xFF, 0xFE].into_iter()
//!     .chain(json.encode_utf16().flat_map(u16::to_le_bytes)).collect();
//! assert_eq!(decode_text(&utf16).unwrap(), json);
//! assert_eq!(read_scenario(&utf16).unwrap(), read_scenario(json.as_bytes()).unwrap());
//! assert!(read_scenario(b"\x00\x01garbage").is_err());
//! ```

use super::scenario::{Scenario, ScenarioError};

/// The largest scenario file read, in bytes (a scenario is a few hundred).
pub const MAX_SCENARIO_FILE_BYTES: usize = 64 * 1024;

const UTF8_BOM: &[u8] = &[0xEF, 0xBB, 0xBF];
const UTF16_LE_BOM: &[u8] = &[0xFF, 0xFE];
const UTF16_BE_BOM: &[u8] = &[0xFE, 0xFF];
const UTF32_LE_BOM: &[u8] = &[0xFF, 0xFE, 0x00, 0x00];
const UTF32_BE_BOM: &[u8] = &[0x00, 0x00, 0xFE, 0xFF];

/// Which UTF-16 a file's byte-order mark announced.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Utf16 {
    Le,
    Be,
}

impl Utf16 {
    /// The encoding's usual name.
    ///
    /// # Examples
    ///
    /// ```
    /// use allreduce_sim::scenario_file::{decode_text, FileError, Utf16};
    /// // A byte-order mark (FE FF: big-endian), then an odd byte.
    /// let err = decode_text(&[0xFE, 0xFF, 0x00]).unwrap_err();
    /// assert_eq!(err, FileError::OddUtf16 { encoding: Utf16::Be });
    /// assert_eq!(Utf16::Be.name(), "UTF-16 BE");
    /// ```
    pub fn name(self) -> &'static str {
        match self {
            Utf16::Le => "UTF-16 LE",
            Utf16::Be => "UTF-16 BE",
        }
    }
}

/// Why a file's bytes are not a scenario: the kind and its values.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FileError {
    /// Larger than [`MAX_SCENARIO_FILE_BYTES`] (`max_kb` KB).
    TooLarge {
        max_kb: usize,
    },
    Utf32,
    /// A UTF-16 file with an odd number of bytes.
    OddUtf16 {
        encoding: Utf16,
    },
    /// A UTF-16 file holding an unpaired surrogate code unit.
    UnpairedSurrogate {
        encoding: Utf16,
        unit: u16,
    },
    /// NUL bytes: binary, or UTF-16 without a mark.
    NulBytes,
    /// Invalid UTF-8 at byte `at`.
    NotUtf8 {
        at: usize,
    },
    /// Text that is not a scenario's JSON: where, what kind of problem, and the JSON reader's own
    /// (English) account in `detail`.
    NotAScenario {
        line: usize,
        column: usize,
        problem: JsonProblem,
        detail: String,
    },
}

/// What was wrong with a scenario file's JSON, in terms a message can be worded in any language.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum JsonProblem {
    /// Not JSON here: a stray or missing character, comma, bracket or quote.
    Syntax,
    /// The text ends before the JSON does.
    Truncated,
    /// A field the scenario needs is absent.
    MissingField(String),
    /// A name (an algorithm, a topology kind) no scenario knows.
    UnknownName(String),
    /// A field no scenario has (a misspelt one was ignored, and its value with it).
    UnknownField(String),
    /// A value of the wrong kind (a text for a number, a negative count…).
    WrongValue,
}

impl JsonProblem {
    /// Classifies the JSON reader's error.
    ///
    /// # Examples
    /// ```
    /// use allreduce_sim::scenario_file::JsonProblem;
    /// let e = serde_json::from_str::<serde_json::Value>("{\"a\": ").unwrap_err();
    /// assert_eq!(JsonProblem::of(&e), JsonProblem::Truncated);
    /// ```
    pub fn of(e: &serde_json::Error) -> JsonProblem {
        use serde_json::error::Category;
        let text = e.to_string();
        // serde names the field or variant between backticks: "missing field `size_bytes`".
        let named = |prefix: &str| {
            let rest = text.strip_prefix(prefix)?;
            Some(cut(
                rest.split('`').next().unwrap_or(rest),
                MAX_QUOTED_CHARS,
            ))
        };
        match e.classify() {
            Category::Eof => JsonProblem::Truncated,
            // A number too large for a float is a value out of range, not a stray character.
            Category::Syntax if text.starts_with("number out of range") => JsonProblem::WrongValue,
            Category::Syntax | Category::Io => JsonProblem::Syntax,
            Category::Data => named("missing field `")
                .map(JsonProblem::MissingField)
                .or_else(|| named("unknown variant `").map(JsonProblem::UnknownName))
                .or_else(|| named("unknown field `").map(JsonProblem::UnknownField))
                .unwrap_or(JsonProblem::WrongValue),
        }
    }
}

/// The longest piece of a file quoted in a message, in characters: a 60,000-character name was
/// quoted whole.
const MAX_QUOTED_CHARS: usize = 80;

/// Whether a character of untrusted text is shown escaped (`\u{1b}`, `\n`) rather than as
/// itself wherever the text is printed: control characters, which reach a terminal as commands
/// (an escape sequence coloured it, a newline broke a one-line header), and the bidirectional
/// overrides, isolates and marks and the line and paragraph separators, which reorder or break
/// what is shown around them.
///
/// ```
/// use allreduce_sim::scenario_file::hidden;
/// assert!(hidden('\u{1b}') && hidden('\n') && hidden('\u{202e}') && hidden('\u{2067}'));
/// assert!(hidden('\u{200f}') && hidden('\u{61c}') && hidden('\u{2028}'));
/// assert!(!hidden('a') && !hidden(' ') && !hidden('é') && !hidden('环'));
/// ```
pub fn hidden(c: char) -> bool {
    c.is_control()
        || matches!(
            c,
            '\u{202a}'..='\u{202e}'
                | '\u{2066}'..='\u{2069}'
                | '\u{200e}'
                | '\u{200f}'
                | '\u{061c}'
                | '\u{2028}'
                | '\u{2029}'
        )
}

/// Untrusted `text` as a message or a page quotes it: at most `most` of its characters (then `…`),
/// [`hidden`] ones escaped (after the cut, which so never splits an escape).
///
/// ```
/// use allreduce_sim::scenario_file::quoted;
/// assert_eq!(quoted("evil\u{1b}[31m\u{202e}x", 80), "evil\\u{1b}[31m\\u{202e}x");
/// assert_eq!(quoted("abcdef", 3), "abc…");
/// assert_eq!(quoted("ab\u{1b}cd", 3), "ab\\u{1b}…");
/// ```
pub fn quoted(text: &str, most: usize) -> String {
    let short = cut(text, most);
    let mut escaped = String::with_capacity(short.len());
    for c in short.chars() {
        if hidden(c) {
            escaped.extend(c.escape_default());
        } else {
            escaped.push(c);
        }
    }
    escaped
}

/// `text` as a message quotes it: at most `most` characters, then `…`.
pub(crate) fn cut(text: &str, most: usize) -> String {
    match text.char_indices().nth(most) {
        Some((at, _)) => format!("{}…", &text[..at]),
        None => text.to_string(),
    }
}

impl std::fmt::Display for FileError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            FileError::TooLarge { max_kb } => write!(f, "the file is larger than {max_kb} KB"),
            FileError::Utf32 => {
                f.write_str("the file is UTF-32 text; save it as UTF-8 (or UTF-16)")
            }
            FileError::OddUtf16 { encoding } => write!(
                f,
                "the file says it is {} but has an odd number of bytes",
                encoding.name()
            ),
            FileError::UnpairedSurrogate { encoding, unit } => write!(
                f,
                "the file says it is {} but holds an unpaired surrogate 0x{unit:04X}",
                encoding.name()
            ),
            FileError::NulBytes => f.write_str(
                "the file holds NUL bytes: it is binary, or UTF-16 without a byte-order mark; save it as UTF-8",
            ),
            FileError::NotUtf8 { at } => write!(
                f,
                "the file is not UTF-8 text (byte {at} is not valid); save it as UTF-8"
            ),
            FileError::NotAScenario { detail, .. } => write!(f, "not a scenario file: {detail}"),
        }
    }
}

impl std::error::Error for FileError {}

/// UTF-16 code units from `bytes` (without the mark), then text; an odd length or an unpaired
/// surrogate is refused.
fn utf16(bytes: &[u8], unit: fn([u8; 2]) -> u16, encoding: Utf16) -> Result<String, FileError> {
    if bytes.len() % 2 != 0 {
        return Err(FileError::OddUtf16 { encoding });
    }
    let units = bytes.chunks_exact(2).map(|p| unit([p[0], p[1]]));
    char::decode_utf16(units)
        .collect::<Result<String, _>>()
        .map_err(|e| FileError::UnpairedSurrogate {
            encoding,
            unit: e.unpaired_surrogate(),
        })
}

/// The text of a file: UTF-8 (with or without a byte-order mark) or UTF-16 LE/BE with a
/// byte-order mark. The mark is not part of the text.
///
/// # Examples
///
/// ```
/// use allreduce_sim::scenario_file::{decode_text, FileError};
/// assert_eq!(decode_text(b"\xEF\xBB\xBF{}").unwrap(), "{}"); // the UTF-8 mark is dropped
/// assert_eq!(decode_text(&[0xFF, 0xFE, b'{', 0, b'}', 0]).unwrap(), "{}");
/// assert_eq!(decode_text(b"{\0}"), Err(FileError::NulBytes));
/// assert_eq!(decode_text(b"ok\xFF"), Err(FileError::NotUtf8 { at: 2 }));
/// ```
pub fn decode_text(bytes: &[u8]) -> Result<String, FileError> {
    if bytes.len() > MAX_SCENARIO_FILE_BYTES {
        return Err(FileError::TooLarge {
            max_kb: MAX_SCENARIO_FILE_BYTES / 1024,
        });
    }
    if bytes.starts_with(UTF32_LE_BOM) || bytes.starts_with(UTF32_BE_BOM) {
        return Err(FileError::Utf32);
    }
    if let Some(rest) = bytes.strip_prefix(UTF8_BOM) {
        return utf8(rest);
    }
    if let Some(rest) = bytes.strip_prefix(UTF16_LE_BOM) {
        return utf16(rest, u16::from_le_bytes, Utf16::Le);
    }
    if let Some(rest) = bytes.strip_prefix(UTF16_BE_BOM) {
        return utf16(rest, u16::from_be_bytes, Utf16::Be);
    }
    if bytes.contains(&0) {
        return Err(FileError::NulBytes);
    }
    utf8(bytes)
}

fn utf8(bytes: &[u8]) -> Result<String, FileError> {
    String::from_utf8(bytes.to_vec()).map_err(|e| FileError::NotUtf8 {
        at: e.utf8_error().valid_up_to(),
    })
}

/// A scenario from a file's bytes: [`decode_text`], then the JSON the core's serde reads. The
/// result is not validated yet (every run validates it; see [`Scenario::validate`]).
///
/// # Examples
///
/// ```
/// use allreduce_sim::{scenario::ScenarioError, scenario_file::{read_scenario, FileError}};
/// let json = br#"{"topology":{"kind":"uniform","ranks":4,"bandwidth":1e10,"latency_secs":1e-6},"algorithm":"ring","size_bytes":4000}"#;
/// let s = read_scenario(json).unwrap();
/// assert_eq!((s.size_bytes, s.segments), (4000, 1)); // segments default to 1
/// let err = read_scenario(b"{\n  \"size_bytes\": }").unwrap_err();
/// assert!(matches!(err, ScenarioError::File(FileError::NotAScenario { line: 2, .. })));
/// ```
pub fn read_scenario(bytes: &[u8]) -> Result<Scenario, ScenarioError> {
    let text = decode_text(bytes)?;
    serde_json::from_str(&text).map_err(|e| {
        ScenarioError::File(FileError::NotAScenario {
            line: e.line(),
            column: e.column(),
            problem: JsonProblem::of(&e),
            detail: cut_detail(&e.to_string()),
        })
    })
}

/// The reader's message with any quoted piece of the file cut short (see [`cut`]): serde quotes
/// a wrong name whole, between backticks, and a wrong string value between quotes.
fn cut_detail(detail: &str) -> String {
    if detail.chars().count() <= 2 * MAX_QUOTED_CHARS + 120 {
        return detail.to_string();
    }
    // serde ends with where: " at line L column C", kept whatever is cut before it.
    let (detail, at) = match detail.rsplit_once(" at line ") {
        Some((head, tail)) => (head, format!(" at line {tail}")),
        None => (detail, String::new()),
    };
    let mut out = String::new();
    for (i, piece) in detail.split('`').enumerate() {
        if i > 0 {
            out.push('`');
        }
        // Odd pieces are quoted; the others are serde's words, which name "expected one of" lists.
        out.push_str(&if i % 2 == 1 {
            cut(piece, MAX_QUOTED_CHARS)
        } else {
            piece.to_string()
        });
    }
    // Anything still too long (a quoted string value) cut to a readable line.
    cut(&out, 4 * MAX_QUOTED_CHARS) + &at
}

#[cfg(test)]
mod tests {
    use super::*;

    const JSON: &str = r#"{"topology":{"kind":"uniform","ranks":4,"bandwidth":1e10,"latency_secs":1e-6},"algorithm":"ring","size_bytes":4000}"#;

    #[test]
    fn each_json_problem_is_named() {
        let p = |b: &[u8]| match read_scenario(b) {
            Err(ScenarioError::File(FileError::NotAScenario { problem, .. })) => problem,
            other => panic!("{other:?}"),
        };
        assert_eq!(p(b"{"), JsonProblem::Truncated);
        assert_eq!(p(b"}"), JsonProblem::Syntax);
        let no_topology = br#"{"algorithm": "ring", "size_bytes": 8}"#;
        assert_eq!(p(no_topology), JsonProblem::MissingField("topology".into()));
        let odd = JSON.replace("\"ring\"", "\"spiral\"");
        assert_eq!(p(odd.as_bytes()), JsonProblem::UnknownName("spiral".into()));
        assert_eq!(p(br#"{"topology": 1}"#), JsonProblem::WrongValue);
        // A misspelt field is refused by name, at the top and inside the faults (it was ignored,
        // and the scenario ran without its value).
        let typo = JSON.replace("\"size_bytes\"", "\"segmets\":8,\"size_bytes\"");
        assert_eq!(
            p(typo.as_bytes()),
            JsonProblem::UnknownField("segmets".into())
        );
        let late = JSON.replace(
            r#""size_bytes":4000"#,
            r#""size_bytes":4000,"faults":{"stragglers":[{"rank":1,"delay":1}]}"#,
        );
        assert!(matches!(p(late.as_bytes()), JsonProblem::UnknownField(f) if f == "delay"));
        // A number past a float's range is a wrong value, not a stray character.
        let huge = JSON.replace("4000", "1e999");
        assert_eq!(p(huge.as_bytes()), JsonProblem::WrongValue);
        // A quoted name is cut short, and so is the reader's message.
        let long = JSON.replace("\"ring\"", &format!("\"{}\"", "x".repeat(60_000)));
        let Err(ScenarioError::File(e @ FileError::NotAScenario { .. })) =
            read_scenario(long.as_bytes())
        else {
            panic!("read a 60,000-character algorithm");
        };
        let FileError::NotAScenario {
            problem: JsonProblem::UnknownName(name),
            ..
        } = &e
        else {
            panic!("{e:?}");
        };
        assert_eq!(name.chars().count(), MAX_QUOTED_CHARS + 1);
        assert!(
            e.to_string().chars().count() < 600,
            "{} characters",
            e.to_string().len()
        );
        // Where it is stays at the end, whatever was cut before it.
        assert!(e.to_string().contains("` at line 1 column 600"), "{e}");
    }

    fn with(prefix: &[u8], body: impl IntoIterator<Item = u8>) -> Vec<u8> {
        prefix.iter().copied().chain(body).collect()
    }

    #[test]
    fn utf8_with_and_without_a_mark_and_utf16_both_ways_read_the_same_scenario() {
        let plain = read_scenario(JSON.as_bytes()).unwrap();
        let bom = with(UTF8_BOM, JSON.bytes());
        let le = with(UTF16_LE_BOM, JSON.encode_utf16().flat_map(u16::to_le_bytes));
        let be = with(UTF16_BE_BOM, JSON.encode_utf16().flat_map(u16::to_be_bytes));
        for bytes in [bom, le, be] {
            assert_eq!(read_scenario(&bytes).unwrap(), plain);
        }
    }

    #[test]
    fn other_encodings_and_junk_are_refused_saying_what_they_are() {
        let cases: [(Vec<u8>, &str); 6] = [
            (
                JSON.encode_utf16().flat_map(u16::to_le_bytes).collect(),
                "NUL",
            ),
            (with(UTF32_LE_BOM, [b'{', 0, 0, 0]), "UTF-32"),
            (with(UTF16_LE_BOM, [b'{']), "odd number"),
            (
                with(UTF16_BE_BOM, [0xD8, 0x00, 0x00, b'{']),
                "unpaired surrogate",
            ),
            (vec![b'{', 0xFF, b'}'], "byte 1"),
            (vec![b' '; MAX_SCENARIO_FILE_BYTES + 1], "larger than 64 KB"),
        ];
        for (bytes, needle) in cases {
            let err = read_scenario(&bytes).unwrap_err().to_string();
            assert!(err.contains(needle), "{err} lacks {needle}");
        }
        assert!(
            read_scenario(b"{\"topology\": 1}")
                .unwrap_err()
                .to_string()
                .starts_with("not a scenario file")
        );
    }
}
