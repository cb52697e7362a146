//! What several test files share: the binary run as a user would, and the random scenarios of the
//! property tests. Each test file includes it with `mod common;` and uses its own part.
#![allow(dead_code)]

pub mod digest;
pub mod scenarios;

use std::ffi::OsStr;
use std::process::Command;

/// Runs the command line: (exit status, stdout, stderr).
pub fn cli<S: AsRef<OsStr>>(args: &[S]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_allreduce-lab"))
        .args(args)
        .output()
        .expect("the binary runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// A command line's words, split at white space as a shell does; `'…'` keeps its spaces.
pub fn words(line: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut rest = line.trim_start();
    while !rest.is_empty() {
        let (word, after) = match rest.strip_prefix('\'') {
            Some(quoted) => quoted.split_once('\'').expect("a closing quote"),
            None => rest.split_once(char::is_whitespace).unwrap_or((rest, "")),
        };
        out.push(word);
        rest = after.trim_start();
    }
    out
}

/// The command `line` exits 2 with nothing on stdout and one line on stderr containing every needle.
pub fn refused(line: &str, needles: &[&str]) {
    let (code, out, err) = cli(&words(line));
    assert_eq!(code, 2, "{line} should exit 2: {out}{err}");
    assert!(out.is_empty(), "{line} printed to stdout: {out}");
    assert_eq!(err.trim().lines().count(), 1, "{line}: {err}");
    for n in needles {
        assert!(err.contains(n), "{line}: '{err}' lacks '{n}'");
    }
}

/// Every `(command line, needle)` is refused as [`refused`] says.
pub fn all_refused(cases: &[(&str, &str)]) {
    for (line, needle) in cases {
        refused(line, &[needle]);
    }
}

#[test]
fn words_split_like_a_shell_and_quotes_keep_spaces() {
    assert_eq!(
        words(" simulate --size '12 parsecs'  --json "),
        ["simulate", "--size", "12 parsecs", "--json"]
    );
    assert_eq!(words(""), Vec::<&str>::new());
}
