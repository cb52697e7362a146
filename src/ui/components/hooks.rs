//! Hooks over browser callbacks: the animation loop and window key presses. Handles are held in
//! `use_mut_ref` and dropped to stop (pause, unmount); nothing is leaked with `forget`.

use gloo::events::{EventListener, EventListenerOptions};
use gloo::render::{AnimationFrame, request_animation_frame};
use std::cell::RefCell;
use std::rc::Rc;
use wasm_bindgen::JsCast;
use wasm_bindgen::closure::Closure;
use yew::prelude::*;

type FrameSlot = Rc<RefCell<Option<AnimationFrame>>>;

/// Requests the next frame; when it fires, schedules the one after and reports the wall-clock
/// seconds since the previous frame (0 for the first).
fn schedule(slot: FrameSlot, on_frame: Rc<RefCell<Callback<f64>>>, last_ms: Option<f64>) {
    let next_slot = slot.clone();
    let frame = request_animation_frame(move |now_ms| {
        let dt = last_ms.map_or(0.0, |l| ((now_ms - l) / 1000.0).max(0.0));
        let callback = on_frame.borrow().clone();
        schedule(next_slot, on_frame, Some(now_ms));
        callback.emit(dt);
    });
    *slot.borrow_mut() = Some(frame);
}

/// Calls `on_frame(wall_dt_secs)` on every animation frame while `active`.
#[hook]
pub fn use_animation_frames(active: bool, on_frame: Callback<f64>) {
    let slot: FrameSlot = use_mut_ref(|| None);
    let latest = use_mut_ref(|| on_frame.clone());
    *latest.borrow_mut() = on_frame;
    use_effect_with(active, move |&active| {
        if active {
            schedule(slot.clone(), latest, None);
        }
        move || {
            slot.borrow_mut().take();
        }
    });
}

/// Whether the element `node` refers to is at least partly inside the viewport, as an
/// `IntersectionObserver` reports it (`true` until it first reports, and where the browser has
/// none). It watches the element bound when the component first rendered: for an element that is
/// always rendered, as the lab's stage is (a replaced element would read as off screen for good).
/// The lab's playback waits while its stage is scrolled away: its frames compete with the
/// Web Workers for the cores (measured on this project's 2-core machine, the scaling chart's 108
/// points: 2.3-2.5 s with the lab playing, 1.7 s with it paused).
#[hook]
pub fn use_on_screen(node: NodeRef) -> bool {
    let on_screen = use_state_eq(|| true);
    let set = on_screen.setter();
    use_effect_with(node, move |node| {
        let watching = node.cast::<web_sys::Element>().and_then(|element| {
            let report = Closure::<dyn FnMut(js_sys::Array)>::new(move |entries: js_sys::Array| {
                // Several reports may come at once: the last is the latest.
                if let Some(entry) = entries.iter().last() {
                    let entry: web_sys::IntersectionObserverEntry = entry.unchecked_into();
                    set.set(entry.is_intersecting());
                }
            });
            let observer =
                web_sys::IntersectionObserver::new(report.as_ref().unchecked_ref()).ok()?;
            observer.observe(&element);
            Some((observer, report))
        });
        move || {
            if let Some((observer, _report)) = watching {
                observer.disconnect();
            }
        }
    });
    *on_screen
}

/// The section that owns the transport keys.
const LAB_SELECTOR: &str = "#lab";

/// Whether the lab's transport bar is at least partly inside the viewport.
fn transport_on_screen() -> bool {
    let Some(window) = web_sys::window() else {
        return false;
    };
    let Some(bar) = window
        .document()
        .and_then(|d| d.query_selector("#lab .transport").ok().flatten())
    else {
        return false;
    };
    let rect = bar.get_bounding_client_rect();
    let height = window
        .inner_height()
        .ok()
        .and_then(|h| h.as_f64())
        .unwrap_or(0.0);
    rect.bottom() > 0.0 && rect.top() < height
}

/// Calls `on_key(key)` for key presses inside the lab (or on the page while the lab's transport
/// bar is visible) that are not aimed at a text field or menu (sliders keep their own arrow keys).
#[hook]
pub fn use_window_keys(on_key: Callback<String>) {
    let latest = use_mut_ref(|| on_key.clone());
    *latest.borrow_mut() = on_key;
    use_effect_with((), move |_| {
        let listener = web_sys::window().map(|w| {
            // Not passive: space must not also scroll the page.
            let options = EventListenerOptions::enable_prevent_default();
            EventListener::new_with_options(&w, "keydown", options, move |e| {
                let Some(e) = e.dyn_ref::<web_sys::KeyboardEvent>() else {
                    return;
                };
                if e.ctrl_key() || e.meta_key() || e.alt_key() {
                    return;
                }
                let target = e
                    .target()
                    .and_then(|t| t.dyn_into::<web_sys::Element>().ok());
                let tag = target
                    .as_ref()
                    .map(|el| el.tag_name().to_ascii_lowercase())
                    .unwrap_or_default();
                let key = e.key();
                // The keys belong to the lab: to a focus inside it, or to the page itself while the
                // lab's transport bar is on screen. Elsewhere (reading the chapter) space scrolls.
                let in_lab = target
                    .as_ref()
                    .and_then(|el| el.closest(LAB_SELECTOR).ok().flatten())
                    .is_some();
                let on_page = matches!(tag.as_str(), "" | "body" | "html");
                if !(in_lab || on_page && transport_on_screen()) {
                    return;
                }
                // Fields keep their keys; a focused button keeps space (it clicks).
                if matches!(tag.as_str(), "input" | "select" | "textarea")
                    || (tag == "button" && key == " ")
                {
                    return;
                }
                if matches!(key.as_str(), " " | "ArrowLeft" | "ArrowRight") {
                    e.prevent_default();
                    let callback = latest.borrow().clone();
                    callback.emit(key);
                }
            })
        });
        move || drop(listener)
    });
}
