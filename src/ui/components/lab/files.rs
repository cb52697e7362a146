//! Files in and out of the lab: the scenario as JSON (export and import), the run as a Chrome trace
//! (for Perfetto or chrome://tracing) and the results as CSV. Everything stays in the browser: a
//! download is a Blob behind an object URL, an import is read with `File.text()`.

use crate::sim::algorithms::Algorithm;
use crate::sim::export::{chrome_traces, compared_results_csv};
use crate::sim::scenario::ScenarioError;
use crate::sim::scenario_file::FileError;
use crate::sim::trace::Trace;
use crate::sim::units::{Bandwidth, format_bandwidth, format_bytes, format_secs};
use crate::ui::components::app::Shared;
use crate::ui::components::lab::figure::fault_words;
use crate::ui::i18n::{Key, algorithm_label, gpus, tr, use_lang};
use crate::ui::model::logic::Controls;
use crate::ui::model::share::{MAX_IMPORT_BYTES, ShareError, export_scenario, import_scenario};
use wasm_bindgen::prelude::wasm_bindgen;
use wasm_bindgen::{JsCast, JsValue};
use web_sys::{Blob, BlobPropertyBag, HtmlAnchorElement, HtmlInputElement, Url};
use yew::prelude::*;

/// The size of an exported figure: a full-HD slide.
pub const SLIDE_WIDTH: u32 = 1920;
pub const SLIDE_HEIGHT: u32 = 1080;

// Serialising what the browser drew needs its computed styles (the figure's colours and sizes
// come from the stylesheet and its variables), and a PNG needs a canvas: both are a few lines of
// DOM code, kept here rather than in a web-sys translation.
#[wasm_bindgen(inline_js = r#"
const NS = 'http://www.w3.org/2000/svg';
const PROPS = ['fill', 'fill-opacity', 'stroke', 'stroke-width', 'stroke-opacity', 'stroke-dasharray',
  'stroke-linecap', 'stroke-linejoin', 'opacity', 'font-size', 'font-family', 'font-weight', 'font-style',
  'text-anchor', 'dominant-baseline', 'display', 'visibility', 'paint-order', 'color', 'filter'];
function inline(src, dst) {
  const cs = getComputedStyle(src);
  // A slowed cable's red halo is a filter (a slide without it showed no slow link); most
  // elements have none, said by leaving it out.
  dst.setAttribute('style', PROPS.map((p) => [p, cs.getPropertyValue(p)])
    .filter(([p, v]) => p !== 'filter' || v !== 'none').map(([p, v]) => `${p}:${v}`).join(';'));
  dst.removeAttribute('class');
  for (let i = 0; i < src.children.length; i++) inline(src.children[i], dst.children[i]);
}
// A caption at a fixed size ran off both sides of a narrow figure's slide: each line is drawn at
// most at its size and shrunk to fit its width (`fitted`, measured in the page).
function line(text, x, y, width, size, style) {
  const t = document.createElementNS(NS, 'text');
  t.setAttribute('x', x); t.setAttribute('y', y);
  t.setAttribute('text-anchor', 'middle');
  t.setAttribute('style', `${style};font-size:${size}px`);
  t.dataset.fit = `${width * 0.96} ${size}`;
  t.textContent = text;
  return t;
}
// Shrinks each line of `out` wider than its room, as the browser measures it in these fonts.
function fitted(out) {
  out.style.position = 'absolute'; out.style.visibility = 'hidden';
  document.body.appendChild(out);
  for (const t of out.querySelectorAll('text[data-fit]')) {
    const [room, size] = t.dataset.fit.split(' ').map(Number);
    const len = t.getComputedTextLength();
    if (len > room) t.style.fontSize = `${(size * room) / len}px`;
    delete t.dataset.fit;
  }
  out.remove();
  out.style.removeProperty('position'); out.style.removeProperty('visibility');
  if (!out.getAttribute('style')) out.removeAttribute('style');
}
export function slide_svg(selector, captions, note, width, height) {
  const svgs = [...document.querySelectorAll(selector)];
  if (svgs.length === 0) return undefined;
  const body = getComputedStyle(document.body);
  const bg = body.backgroundColor, ink = body.color, font = body.fontFamily;
  const gap = 40, head = captions.length ? 56 : 0, top = head + (note ? 40 : 0);
  let x = 0, h = 0;
  const parts = svgs.map((s) => {
    const vb = s.viewBox.baseVal;
    const w = vb && vb.width ? vb.width : s.clientWidth;
    const hh = vb && vb.height ? vb.height : s.clientHeight;
    const part = { s, x, w, h: hh, vb };
    x += w + gap; h = Math.max(h, hh);
    return part;
  });
  const total = x - gap;
  const out = document.createElementNS(NS, 'svg');
  out.setAttribute('xmlns', NS);
  out.setAttribute('width', width);
  out.setAttribute('height', height);
  out.setAttribute('viewBox', `0 0 ${total} ${h + top}`);
  out.setAttribute('preserveAspectRatio', 'xMidYMid meet');
  const back = document.createElementNS(NS, 'rect');
  back.setAttribute('x', -total); back.setAttribute('y', -(h + top));
  back.setAttribute('width', 3 * total); back.setAttribute('height', 3 * (h + top));
  back.setAttribute('fill', bg);
  out.appendChild(back);
  parts.forEach((p, i) => {
    if (captions[i]) {
      out.appendChild(line(captions[i], p.x + p.w / 2, 36, p.w, 30, `fill:${ink};font-family:${font};font-weight:600`));
    }
    const copy = p.s.cloneNode(true);
    inline(p.s, copy);
    copy.setAttribute('x', p.x); copy.setAttribute('y', top);
    copy.setAttribute('width', p.w); copy.setAttribute('height', p.h);
    if (p.vb && p.vb.width) copy.setAttribute('viewBox', `${p.vb.x} ${p.vb.y} ${p.vb.width} ${p.vb.height}`);
    copy.removeAttribute('style');
    // The chunks in flight are painted on a canvas over the figure (lab/tokens.rs): its bitmap
    // maps onto the viewBox, so it goes in on top as an image of the viewBox's size.
    const tokens = p.s.parentElement && p.s.parentElement.querySelector('canvas.figure-tokens');
    if (tokens && tokens.dataset.drawn !== '0' && p.vb && p.vb.width) {
      const img = document.createElementNS(NS, 'image');
      img.setAttribute('x', p.vb.x); img.setAttribute('y', p.vb.y);
      img.setAttribute('width', p.vb.width); img.setAttribute('height', p.vb.height);
      img.setAttribute('preserveAspectRatio', 'none');
      img.setAttribute('href', tokens.toDataURL('image/png'));
      copy.appendChild(img);
    }
    out.appendChild(copy);
  });
  if (note) out.appendChild(line(note, total / 2, head + 28, total, 22, `fill:${ink};font-family:${font}`));
  fitted(out);
  return '<?xml version="1.0" encoding="UTF-8"?>' + String.fromCharCode(10) + new XMLSerializer().serializeToString(out);
}
export async function svg_to_png(svg, width, height) {
  const url = URL.createObjectURL(new Blob([svg], { type: 'image/svg+xml' }));
  try {
    const img = new Image();
    img.src = url;
    await img.decode();
    const canvas = document.createElement('canvas');
    canvas.width = width; canvas.height = height;
    canvas.getContext('2d').drawImage(img, 0, 0, width, height);
    return await new Promise((resolve) => canvas.toBlob(resolve, 'image/png'));
  } finally {
    URL.revokeObjectURL(url);
  }
}
"#)]
extern "C" {
    /// The figures matching `selector`, side by side with `captions` above them, as one SVG of
    /// `width` × `height` with the page's computed styles inlined; `None` when there is none.
    fn slide_svg(
        selector: &str,
        captions: Vec<String>,
        note: &str,
        width: u32,
        height: u32,
    ) -> Option<String>;
    /// `svg` rendered to a PNG blob of `width` × `height`.
    #[wasm_bindgen(catch)]
    async fn svg_to_png(svg: &str, width: u32, height: u32) -> Result<JsValue, JsValue>;
}

/// Offers `text` as a file called `name`; returns the object URL, which must stay alive until the
/// browser has read it (the caller revokes it at the next download or on unmount).
fn offer_download(name: &str, mime: &str, text: &str) -> Result<String, JsValue> {
    let parts = js_sys::Array::of1(&JsValue::from_str(text));
    let options = BlobPropertyBag::new();
    options.set_type(mime);
    let blob = Blob::new_with_str_sequence_and_options(&parts, &options)?;
    offer_blob(name, &blob)
}

/// Offers `blob` as a file called `name`; returns its object URL (see [`offer_download`]).
fn offer_blob(name: &str, blob: &Blob) -> Result<String, JsValue> {
    let url = Url::create_object_url_with_blob(blob)?;
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
    /// The run beside it, when comparing: every export then holds both.
    pub sim_b: Option<Shared>,
    pub on_import: Callback<Controls>,
}

/// The runs to export: (trace, label) for each run on screen that ran.
fn runs(sims: &[&Shared]) -> Vec<(std::rc::Rc<crate::ui::model::view::SimView>, String)> {
    sims.iter()
        .filter(|s| s.0.trace().is_some())
        .map(|s| {
            let alg = s.0.result.as_ref().map_or(s.0.requested, |r| r.algorithm);
            (s.0.clone(), alg.name().to_string())
        })
        .collect()
}

#[component]
pub fn Files(props: &FilesProps) -> Html {
    let lang = use_lang();
    let error = use_state(|| None::<ShareError>);
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
    let sims: Vec<Shared> = std::iter::once(props.sim.clone())
        .chain(props.sim_b.clone())
        .collect();
    // Both runs' names when comparing: `allreduce-ring-vs-tree-binary`.
    let stem = {
        let names: Vec<String> = runs(&sims.iter().collect::<Vec<_>>())
            .into_iter()
            .map(|r| r.1)
            .collect();
        if names.is_empty() {
            format!("allreduce-{}", algorithm.name())
        } else {
            format!("allreduce-{}", names.join("-vs-"))
        }
    };
    let exportable = sims.iter().any(|s| s.0.trace().is_some());
    // Downloads every run's trace written by `write`, as `{stem}.{suffix}`.
    let export =
        |suffix: &'static str, mime: &'static str, write: fn(&[(&Trace, &str)]) -> String| {
            let (sims, download, stem) = (sims.clone(), download.clone(), stem.clone());
            Callback::from(move |_: MouseEvent| {
                let runs = runs(&sims.iter().collect::<Vec<_>>());
                let list: Vec<_> = runs
                    .iter()
                    .filter_map(|(v, l)| Some((v.trace()?, l.as_str())))
                    .collect();
                if !list.is_empty() {
                    download(format!("{stem}.{suffix}"), mime, write(&list));
                }
            })
        };
    let on_trace = export("trace.json", "application/json", chrome_traces);
    let on_csv = export("results.csv", "text/csv", compared_results_csv);
    // The figure(s) on screen, captioned: a single run with what a slide needs to stand alone
    // (it had no caption: the lecturer wrote the algorithm, GPUs, size and time by hand), each
    // compared run with its algorithm and time (they share the rest).
    let captions: Vec<String> = if sims.len() == 1 {
        sims[0]
            .0
            .result
            .as_ref()
            .ok()
            .map(|r| {
                let t = &r.trace;
                let busbw = Bandwidth::from_bytes_per_sec(t.busbw_bytes_per_sec());
                format!(
                    "{} · {} · {} · {}{}",
                    algorithm_label(lang, r.algorithm),
                    gpus(lang, t.topology.ranks()),
                    format_bytes(t.size_bytes() as f64),
                    format_secs(t.time_secs),
                    if t.topology.ranks() > 1 {
                        format!(" (busbw {})", format_bandwidth(busbw))
                    } else {
                        String::new()
                    }
                )
            })
            .into_iter()
            .collect()
    } else if sims.len() > 1 {
        runs(&sims.iter().collect::<Vec<_>>())
            .iter()
            .map(|(v, _)| {
                let alg = v.shown_algorithm();
                format!(
                    "{} · {}",
                    algorithm_label(lang, alg),
                    format_secs(v.end_secs())
                )
            })
            .collect()
    } else {
        Vec::new()
    };
    // The faults the runs share, on a line of their own under the captions.
    let note = fault_words(lang, &props.controls.faults).join(lang.pick("; ", "；"));
    let figure_svg = move || {
        slide_svg(
            "#lab .runs [data-testid=cluster-figure]",
            captions.clone(),
            &note,
            SLIDE_WIDTH,
            SLIDE_HEIGHT,
        )
    };
    let on_svg = {
        let (download, stem, figure_svg) = (download.clone(), stem.clone(), figure_svg.clone());
        Callback::from(move |_: MouseEvent| {
            if let Some(svg) = figure_svg() {
                download(format!("{stem}.figure.svg"), "image/svg+xml", svg);
            }
        })
    };
    let on_png = {
        let (last_url, stem) = (last_url.clone(), stem.clone());
        Callback::from(move |_: MouseEvent| {
            let Some(svg) = figure_svg() else {
                return;
            };
            let (last_url, stem) = (last_url.clone(), stem.clone());
            wasm_bindgen_futures::spawn_local(async move {
                let Ok(blob) = svg_to_png(&svg, SLIDE_WIDTH, SLIDE_HEIGHT).await else {
                    return;
                };
                let Ok(blob) = blob.dyn_into::<Blob>() else {
                    return;
                };
                if let Ok(url) = offer_blob(&format!("{stem}.figure.png"), &blob) {
                    if let Some(old) = last_url.borrow_mut().replace(url) {
                        let _ = Url::revoke_object_url(&old);
                    }
                }
            });
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
                error.set(Some(ShareError::Scenario(ScenarioError::File(
                    FileError::TooLarge {
                        max_kb: MAX_IMPORT_BYTES / 1024,
                    },
                ))));
                return;
            }
            let (error, on_import) = (error.clone(), on_import.clone());
            wasm_bindgen_futures::spawn_local(async move {
                // Bytes, not `File.text()`: the core's reader decides the encoding, as the CLI's does.
                let bytes = wasm_bindgen_futures::JsFuture::from(file.array_buffer())
                    .await
                    .ok()
                    .map(|b| js_sys::Uint8Array::new(&b).to_vec());
                match bytes.ok_or(ShareError::Unreadable) {
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
            <button type="button" data-testid="export-trace" disabled={!exportable} onclick={on_trace}>{ tr(lang, Key::ExportTrace) }</button>
            <button type="button" data-testid="export-csv" disabled={!exportable} onclick={on_csv}>{ tr(lang, Key::ExportCsv) }</button>
            <button type="button" data-testid="export-svg" disabled={!exportable} onclick={on_svg}>{ tr(lang, Key::ExportSvg) }</button>
            <button type="button" data-testid="export-png" disabled={!exportable} onclick={on_png}>{ tr(lang, Key::ExportPng) }</button>
            if let Some(e) = &*error {
                <p class="import-error" role="alert" data-testid="import-error">
                    { tr(lang, Key::ImportError) }{ crate::ui::i18n::errors::share_error(lang, e) }
                </p>
            }
        </div>
    }
}
