//! The page's deferred sections in headless Chromium, in a page of their own (a test binary of its
//! own: the app's tests complete the page, after which a section no longer waits for a turn).
//!
//! `CHROMEDRIVER=/usr/bin/chromedriver cargo test --target wasm32-unknown-unknown --features probes --test web_deferred`
#![cfg(target_arch = "wasm32")]

use allreduce_lab::ui::probes::{mount_deferred_pair, page_complete};
use wasm_bindgen_test::*;

mod wasm;
use wasm::sleep;

wasm_bindgen_test_configure!(run_in_browser);

#[wasm_bindgen_test]
async fn a_section_taken_away_before_its_turn_leaves_the_page_complete() {
    let document = web_sys::window().unwrap().document().unwrap();
    let host = document.create_element("div").unwrap();
    document.body().unwrap().append_child(&host).unwrap();
    assert!(!page_complete(), "a fresh page: no section is in place yet");
    let app = mount_deferred_pair(host.clone());
    for _ in 0..100 {
        if host.query_selector("p.first").unwrap().is_some() && page_complete() {
            break;
        }
        sleep(20).await;
    }
    assert!(
        host.query_selector("p.first").unwrap().is_some(),
        "the first section mounted"
    );
    assert!(
        host.query_selector("p.second").unwrap().is_none(),
        "the second was taken away"
    );
    assert!(host.query_selector("[data-deferred]").unwrap().is_none());
    assert!(page_complete(), "the page counts as complete");
    app.destroy();
}
