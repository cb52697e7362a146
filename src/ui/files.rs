//! Files in and out of the lab: the scenario as JSON (export and import), the run as a Chrome trace
//! (for Perfetto or chrome://tracing) and the results as CSV. Everything stays in the browser: a
//! download is a Blob behind an object URL, an import is read with `File.text()`.

use super::app::Shared;
use super::i18n::{tr, use_lang, Key};
use super::logic::Controls;
use super::share::{export_scenario, import_scenario, MAX_IMPORT_BYTES};
use crate::sim::algorithms::Algorithm;
use crate::sim::export::{chrome_trace, results_csv};
use wasm_bindgen::{JsCast, JsValue};
use web_sys::{Blob, BlobPropertyBag, HtmlAnchorElement, HtmlInputElement, Url};
use yew::prelude::*;

/// Offers `text` as a file called `name`; returns the object URL, which must stay alive until the
/// browser has read it (the caller revokes it at the next download or on unmount).
fn offer_download(name: &str, mime: &str, text: &str) -> Result<String, JsValue> {
    let parts = js_sys::Array::of1(&JsValue::from_str(text));
    let options = BlobPropertyBag::new();
    options.set_type(mime);
    let blob = Blob::new_with_str_sequence_and_options(&parts, &options)?;
    let url = Url::create_object_url_with_blob(&blob)?;
    let anchor: HtmlAnchorElement = gloo::utils::document()
        .create_element("a")?
        .dyn_into()
        .map_err(JsValue::from)?;
    anchor.set_href(&url);
    anchor.set_download(name);
    anchor.click();
    Ok(url)
}

#[derive(Properties, PartialEq)]
pub struct FilesProps {
    pub controls: Controls,
    pub sim: Shared,
    pub on_import: Callback<Controls>,
}

#[component]
pub fn Files(props: &FilesProps) -> Html {
    let lang = use_lang();
    let error = use_state(|| None::<String>);
    let last_url = use_mut_ref(|| None::<String>);
    {
        let last_url = last_url.clone();
        use_effect_with((), move |_| {
            move || {
                if let Some(url) = last_url.borrow_mut().take() {
                    let _ = Url::revoke_object_url(&url);
                }
            }
        });
    }
    let download = {
        let last_url = last_url.clone();
        move |name: String, mime: &'static str, text: String| {
            if let Ok(url) = offer_download(&name, mime, &text) {
                if let Some(old) = last_url.borrow_mut().replace(url) {
                    let _ = Url::revoke_object_url(&old);
                }
            }
        }
    };
    let algorithm: Algorithm = props
        .sim
        .0
        .result
        .as_ref()
        .map_or(props.controls.algorithm, |s| s.algorithm);

    let on_json = {
        let (controls, download) = (props.controls.clone(), download.clone());
        Callback::from(move |_: MouseEvent| {
            if let Ok(json) = export_scenario(&controls, controls.algorithm) {
                download(
                    format!("allreduce-{}.scenario.json", controls.algorithm.name()),
                    "application/json",
                    json,
                );
            }
        })
    };
    let on_trace = {
        let (sim, download) = (props.sim.clone(), download.clone());
        Callback::from(move |_: MouseEvent| {
            if let Some(trace) = sim.0.trace() {
                download(
                    format!("allreduce-{}.trace.json", algorithm.name()),
                    "application/json",
                    chrome_trace(trace, algorithm.name()),
                );
            }
        })
    };
    let on_csv = {
        let (sim, download) = (props.sim.clone(), download);
        Callback::from(move |_: MouseEvent| {
            if let Some(trace) = sim.0.trace() {
                download(
                    format!("allreduce-{}.results.csv", algorithm.name()),
                    "text/csv",
                    results_csv(trace),
                );
            }
        })
    };
    let on_file = {
        let (error, on_import) = (error.clone(), props.on_import.clone());
        Callback::from(move |e: Event| {
            let input: HtmlInputElement = e.target_unchecked_into();
            let Some(file) = input.files().and_then(|f| f.get(0)) else {
                return;
            };
            // The same file chosen again must fire `change` again.
            input.set_value("");
            if file.size() > MAX_IMPORT_BYTES as f64 {
                error.set(Some(format!(
                    "the file is larger than {} KB",
                    MAX_IMPORT_BYTES / 1024
                )));
                return;
            }
            let (error, on_import) = (error.clone(), on_import.clone());
            wasm_bindgen_futures::spawn_local(async move {
                // Bytes, not `File.text()`: the core's reader decides the encoding, as the CLI's does.
                let bytes = wasm_bindgen_futures::JsFuture::from(file.array_buffer())
                    .await
                    .ok()
                    .map(|b| js_sys::Uint8Array::new(&b).to_vec());
                match bytes.ok_or_else(|| "the file could not be read".to_string()) {
                    Ok(bytes) => match import_scenario(&bytes) {
                        Ok(controls) => {
                            error.set(None);
                            on_import.emit(controls);
                        }
                        Err(e) => error.set(Some(e)),
                    },
                    Err(e) => error.set(Some(e)),
                }
            });
        })
    };
    html! {
        <div class="files" role="group" aria-label={tr(lang, Key::FilesGroup)}>
            <button type="button" data-testid="export-json" onclick={on_json}>{ tr(lang, Key::ExportScenario) }</button>
            <label class="file-button">
                <span>{ tr(lang, Key::ImportScenario) }</span>
                <input type="file" accept="application/json,.json" data-testid="import-json" onchange={on_file} />
            </label>
            <button type="button" data-testid="export-trace" onclick={on_trace}>{ tr(lang, Key::ExportTrace) }</button>
            <button type="button" data-testid="export-csv" onclick={on_csv}>{ tr(lang, Key::ExportCsv) }</button>
            if let Some(e) = &*error {
                <p class="import-error" role="alert" data-testid="import-error">
                    { tr(lang, Key::ImportError) }<span lang="en">{ e.clone() }</span>
                </p>
            }
        </div>
    }
}
