//! Every parser of untrusted input answers with a value or an error, never a panic, whatever the
//! input: units, scenario files (bytes, any encoding), links, imports and command-line flags.
#![cfg(not(target_arch = "wasm32"))]

use allreduce_lab::cli::scenario_from_args;
use allreduce_lab::sim::scenario_file::{decode_text, read_scenario};
use allreduce_lab::sim::units::{parse_bandwidth, parse_duration, parse_size};
use allreduce_lab::ui::model::share::{decode, import_scenario};
use proptest::prelude::*;
use std::ffi::OsString;
use std::os::unix::ffi::OsStringExt;

const BYTE_ORDER_MARK: char = '\u{feff}';

/// Strings that look like quantities (a number, then one of the units or something near them) as
/// well as any string at all.
fn quantity() -> impl Strategy<Value = String> {
    prop_oneof![
        any::<String>(),
        (
            "[-+]?[0-9_.eE+-]{0,12}",
            prop::sample::select(vec![
                "", "B", "KB", "GiB", "GB/s", "Gbps", "b/s", "us", "\u{b5}s", "\u{3bc}s", "ms",
                "ns", "s", "e", "é", " ", "\u{0}",
            ]),
            ".{0,3}"
        )
            .prop_map(|(n, u, tail)| format!("{n}{u}{tail}")),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn unit_parsers_never_panic(text in quantity()) {
        let _ = parse_size(&text);
        let _ = parse_duration(&text);
        if let Ok(bw) = parse_bandwidth(&text) {
            prop_assert!(bw.bytes_per_sec() > 0.0 && bw.bytes_per_sec().is_finite());
        }
    }

    #[test]
    fn scenario_files_of_any_bytes_are_read_or_refused(
        bom in prop::sample::select(vec![&[][..], &[0xEF, 0xBB, 0xBF][..], &[0xFF, 0xFE][..], &[0xFE, 0xFF][..], &[0xFF, 0xFE, 0, 0][..]]),
        body in prop::collection::vec(any::<u8>(), 0..300),
    ) {
        let bytes = [bom, &body[..]].concat();
        let _ = read_scenario(&bytes);
        let _ = import_scenario(&bytes);
        let _ = decode_text(&bytes);
    }

    #[test]
    fn text_files_in_every_accepted_encoding_decode_to_the_same_text(text in any::<String>()) {
        let text = text.trim_start_matches(BYTE_ORDER_MARK).replace('\u{0}', "");
        let le: Vec<u8> = [0xFF, 0xFE].into_iter().chain(text.encode_utf16().flat_map(u16::to_le_bytes)).collect();
        let be: Vec<u8> = [0xFE, 0xFF].into_iter().chain(text.encode_utf16().flat_map(u16::to_be_bytes)).collect();
        let bom = [&[0xEF, 0xBB, 0xBF][..], text.as_bytes()].concat();
        prop_assert_eq!(decode_text(text.as_bytes()).unwrap(), text.clone());
        prop_assert_eq!(decode_text(&bom).unwrap(), text.clone());
        prop_assert_eq!(decode_text(&le).unwrap(), text.clone());
        prop_assert_eq!(decode_text(&be).unwrap(), text);
    }

    #[test]
    fn links_of_any_text_are_read_or_refused(query in any::<String>()) {
        let _ = decode(&query);
    }

    #[test]
    fn command_line_flags_of_any_bytes_are_parsed_or_refused(
        args in prop::collection::vec(
            prop_oneof![
                prop::collection::vec(any::<u8>(), 0..12),
                prop::sample::select(vec!["--ranks", "--scenario", "--json", "--json=x", "--size=", "--", "-"]).prop_map(|s| s.as_bytes().to_vec()),
            ],
            0..6,
        )
    ) {
        let args: Vec<OsString> = args.into_iter().map(OsString::from_vec).collect();
        let _ = scenario_from_args(&args);
    }
}
