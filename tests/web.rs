//! Component tests in headless Chromium (wasm-bindgen-test): the app's own logic as the browser runs
//! it — unit formatting, the log sliders, the time cursor — plus one mounted page.
//!
//! `CHROMEDRIVER=/usr/bin/chromedriver cargo test --target wasm32-unknown-unknown --test web`
#![cfg(target_arch = "wasm32")]

use allreduce_lab::sim::algorithms::Algorithm;
use allreduce_lab::sim::replay::{next_step_end, previous_step_end, Replay};
use allreduce_lab::sim::units::{parse_bandwidth, parse_duration};
use allreduce_lab::ui::logic::*;
use allreduce_lab::ui::view::SimView;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

#[wasm_bindgen_test]
fn bandwidths_show_in_bytes_and_bits() {
    assert_eq!(bandwidth_label(400_000), "50 GB/s · 400 Gbps");
    assert_eq!(bandwidth_label(3_200_000), "400 GB/s · 3.2 Tbps");
    assert_eq!(bandwidth_label(1_000), "125 MB/s · 1 Gbps");
}

#[wasm_bindgen_test]
fn latencies_and_sizes_read_naturally() {
    assert_eq!(latency_label(0), "0 (ideal)");
    assert_eq!(latency_label(5_000), "5 µs");
    assert_eq!(latency_label(1_250), "1.25 µs");
    assert_eq!(size_label(1_000), "1 KB");
    assert_eq!(size_label(16_000_000_000), "16 GB");
}

#[wasm_bindgen_test]
fn sliders_are_logarithmic_and_round_trip() {
    let l = bandwidth_ladder_mbps();
    for w in l.windows(2) {
        let ratio = w[1] as f64 / w[0] as f64;
        assert!((1.1..1.3).contains(&ratio), "{w:?}");
    }
    for (i, &v) in l.iter().enumerate() {
        assert_eq!(slider_position(&l, v), i);
        assert_eq!(slider_value(&l, i), v);
    }
    let sizes = size_ladder_bytes();
    assert_eq!((sizes[0], *sizes.last().unwrap()), (1_000, 16_000_000_000));
}

#[wasm_bindgen_test]
fn slider_values_become_exact_cli_flags() {
    for mbps in bandwidth_ladder_mbps() {
        let bw = parse_bandwidth(&bandwidth_flag(mbps)).unwrap();
        assert_eq!(bw.bytes_per_sec(), mbps as f64 * 1e6 / 8.0);
    }
    for ns in latency_ladder_ns() {
        assert!(parse_duration(&latency_flag(ns)).is_ok());
    }
}

#[wasm_bindgen_test]
fn the_cursor_plays_scrubs_and_steps() {
    assert_eq!(
        advance(0.0, 0.5, 1.0, 6.0),
        (0.1 * 6.0 / DEFAULT_PLAY_WALL_SECS, false)
    );
    assert_eq!(advance(5.99, 0.05, 8.0, 6.0), (6.0, true));
    assert_eq!(scrub_to_secs(SCRUB_STEPS, 3.5), 3.5);
    assert_eq!(secs_to_scrub(1.75, 3.5), SCRUB_STEPS / 2);

    let view = SimView::build(&Controls::default(), Algorithm::Ring);
    let trace = view.trace().unwrap();
    let mut t = 0.0;
    let mut boundaries = vec![];
    while t < trace.time_secs {
        t = next_step_end(trace, t);
        boundaries.push(t);
    }
    assert_eq!(boundaries.len(), 2 * (16 - 1));
    assert_eq!(previous_step_end(trace, boundaries[1]), boundaries[0]);
    let replay = Replay::new(trace);
    assert!(replay
        .cells_at(trace, trace.time_secs)
        .iter()
        .all(|&c| c == 16));
}

#[wasm_bindgen_test]
fn every_algorithm_simulates_and_verifies_in_the_browser() {
    let controls = Controls::default();
    for a in Algorithm::ALL {
        let view = SimView::build(&controls, a);
        assert!(view.trace().unwrap().verified(), "{a}");
    }
}
