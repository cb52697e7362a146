//! Component tests in headless Chromium (wasm-bindgen-test): the app's own logic as the browser runs
//! it — unit formatting, the log sliders, the time cursor — and the whole page mounted at a fixed
//! URL, asserted on its DOM.
//!
//! `CHROMEDRIVER=/usr/bin/chromedriver cargo test --target wasm32-unknown-unknown --test web`
#![cfg(target_arch = "wasm32")]

use allreduce_lab::sim::algorithms::Algorithm;
use allreduce_lab::sim::replay::{Replay, next_step_end, previous_step_end};
use allreduce_lab::sim::units::{parse_bandwidth, parse_duration};
use allreduce_lab::ui::model::cursor::*;
use allreduce_lab::ui::model::ladders::*;
use allreduce_lab::ui::model::logic::*;
use allreduce_lab::ui::model::view::SimView;
use wasm_bindgen_test::*;

mod wasm;
use wasm::sleep;

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
    assert_eq!((sizes[0], *sizes.last().unwrap()), (1, 16_000_000_000));
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
    assert!(
        replay
            .cells_at(trace, trace.time_secs)
            .iter()
            .all(|&c| c == 16)
    );
}

#[wasm_bindgen_test]
fn every_algorithm_simulates_and_verifies_in_the_browser() {
    let controls = Controls::default();
    for a in Algorithm::ALL {
        let view = SimView::build(&controls, a);
        assert!(view.trace().unwrap().verified(), "{a}");
    }
}

/// Polls until `selector` matches inside `host` (up to ~10 s), then returns the element.
async fn wait_for(host: &web_sys::Element, selector: &str) -> web_sys::Element {
    for _ in 0..200 {
        if let Some(e) = host.query_selector(selector).unwrap() {
            return e;
        }
        sleep(50).await;
    }
    panic!("{selector} never rendered");
}

/// Puts `query` in the address, as a shared link would, and mounts the whole app in a new element.
fn mount_at(query: &str) -> (web_sys::Element, allreduce_lab::ui::MountedApp) {
    let window = web_sys::window().unwrap();
    window
        .history()
        .unwrap()
        .replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(query))
        .unwrap();
    let document = window.document().unwrap();
    let host = document.create_element("div").unwrap();
    document.body().unwrap().append_child(&host).unwrap();
    let app = allreduce_lab::ui::mount(host.clone());
    (host, app)
}

#[wasm_bindgen_test]
async fn the_mounted_app_shows_a_shared_link_as_the_learner_sees_it() {
    use allreduce_lab::ui::model::share::{Shared, encode};
    let controls = Controls {
        algorithm: Algorithm::TreeBinary,
        gpus: 8,
        ..Controls::default()
    };
    let query = encode(&Shared {
        controls: controls.clone(),
        compare: None,
        step: 0,
        nccl: None,
    });
    let (host, app) = mount_at(&query);

    let lab = wait_for(&host, "[data-testid=lab]").await;
    let shown = wait_for(&lab, "[data-testid=figure-algorithm]").await;
    assert_eq!(
        shown.get_attribute("data-algorithm").as_deref(),
        Some("tree-binary")
    );
    let gpus = lab
        .query_selector_all("[data-testid=cluster-figure] [data-testid^=gpu-]")
        .unwrap();
    assert_eq!(gpus.length(), 8, "one box per GPU of the link");
    let cli = wait_for(&lab, "[data-testid=cli-command]").await;
    assert_eq!(
        cli.text_content().unwrap(),
        controls.cli_command(Algorithm::TreeBinary),
        "the command line shown is the one for the link's scenario"
    );
    assert!(
        lab.query_selector("[data-testid=url-error]")
            .unwrap()
            .is_none(),
        "a valid link shows no error"
    );
    // The guided chapter's sections mount one after another after the first frame.
    let claims = wait_for(&host, "[data-testid=claims]").await;
    assert!(
        claims.compare_document_position(&lab) & web_sys::Node::DOCUMENT_POSITION_FOLLOWING != 0,
        "the guided chapter renders above the lab"
    );
    app.unmount();
    host.remove();
}

#[wasm_bindgen_test]
async fn a_hostile_link_shows_a_message_and_the_default_lab() {
    let (host, app) = mount_at("?alg=ring&gpus=99999999&size=-1");
    let lab = wait_for(&host, "[data-testid=lab]").await;
    let error = wait_for(&lab, "[data-testid=url-error]").await;
    assert!(!error.text_content().unwrap().is_empty());
    let shown = wait_for(&lab, "[data-testid=figure-algorithm]").await;
    assert_eq!(
        shown.get_attribute("data-algorithm").as_deref(),
        Some(Controls::default().algorithm.name())
    );
    app.unmount();
    host.remove();
}
