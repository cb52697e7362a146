//! The all_reduce_perf parser on hostile text: never a panic, a clear error with a line.
#![cfg(not(target_arch = "wasm32"))]

use allreduce_lab::sim::nccl::nccl_tests_parse::parse;
use proptest::prelude::*;

fn shared() -> Vec<String> {
    let dir = format!("{}/src/sim/nccl/published", env!("CARGO_MANIFEST_DIR"));
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.extension().is_some_and(|x| x == "txt") {
            out.push(std::fs::read_to_string(p).unwrap());
        }
    }
    out.sort();
    out
}

fn check(text: &str) {
    match parse(text) {
        Ok(t) => {
            assert!(!t.rows.is_empty());
            for r in &t.rows {
                assert!(r.time_us.is_finite() && r.time_us > 0.0);
                assert!(r.line >= 1 && r.line <= text.lines().count());
            }
        }
        Err(e) => {
            let msg = e.to_string();
            assert!(!msg.is_empty());
            if let Some(l) = e.line {
                assert!(msg.starts_with(&format!("line {l}: ")));
                assert!(l >= 1 && l <= text.lines().count());
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn arbitrary_text_never_panics(text in any::<String>()) {
        check(&text);
    }

    #[test]
    fn row_like_text_never_panics(text in "([0-9 .eE+-]{0,12}(float|sum|-1|NaN|inf|N/A|#)?[ \t]{0,3}){0,14}(\n|\r\n)?") {
        check(&text);
    }

    #[test]
    fn truncated_and_edited_tables_parse_or_name_the_line(which in 0usize..4, cut in any::<prop::sample::Index>(), junk in "[a-zA-Z#.\\-]{0,3}") {
        let tables = shared();
        let text = &tables[which % tables.len()];
        let chars: Vec<char> = text.chars().collect();
        let at = cut.index(chars.len() + 1);
        let mut edited: String = chars[..at].iter().collect();
        check(&edited);
        edited.push_str(&junk);
        edited.extend(&chars[at..]);
        check(&edited);
    }
}

#[test]
fn every_shared_table_reads_whole() {
    for t in shared() {
        assert!(parse(&t).unwrap().rows.len() >= 6);
    }
}
