//! Small controls and bars the sections share: a labelled slider over a ladder of values, a group
//! of toggle buttons, a horizontal bar and a stacked bar. Plain HTML, so text stays readable on a
//! phone.

use crate::ui::components::inputs::input_value;
use crate::ui::i18n::{Key, Lang, trf};
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct LadderProps {
    pub testid: AttrValue,
    pub label: AttrValue,
    /// The values in slider order.
    pub values: Vec<u64>,
    pub value: u64,
    /// The current value as the reader sees it.
    pub text: AttrValue,
    pub on_change: Callback<u64>,
    /// Why moving it changes nothing here (a network tier no transfer crosses): said under it,
    /// and the slider greyed (still movable).
    #[prop_or_default]
    pub idle: Option<AttrValue>,
}

/// A slider over a list of values.
#[component]
pub fn Ladder(props: &LadderProps) -> Html {
    let pos = props
        .values
        .iter()
        .position(|&v| v == props.value)
        .unwrap_or(0);
    let max = props.values.len().saturating_sub(1);
    let oninput = {
        let (values, on) = (props.values.clone(), props.on_change.clone());
        Callback::from(move |e: InputEvent| {
            let i: usize = input_value::<usize>(&e);
            if let Some(&v) = values.get(i) {
                on.emit(v);
            }
        })
    };
    let listed = props
        .values
        .iter()
        .map(u64::to_string)
        .collect::<Vec<_>>()
        .join(",");
    // The note is the slider's description, not part of its name; above the slider, so that the
    // sliders of a row still line up near its bottom.
    let idle_id = format!("{}-idle", props.testid);
    html! {
        <label class={classes!("ch-field", props.idle.is_some().then_some("idle"))}>
            <span class="ch-field-name">{ props.label.clone() }</span>
            if let Some(idle) = &props.idle {
                <span class="ch-field-idle" id={idle_id.clone()} data-testid={idle_id.clone()} aria-hidden="true">{ idle.clone() }</span>
            }
            <input type="range" min="0" max={max.to_string()} step="1" value={pos.to_string()}
                   data-testid={props.testid.clone()} data-values={listed}
                   aria-valuetext={props.text.clone()} aria-describedby={props.idle.is_some().then_some(idle_id)} {oninput} />
            <output class="ch-field-value" aria-hidden="true">{ props.text.clone() }</output>
        </label>
    }
}

/// Mutually exclusive toggle buttons (`aria-pressed`), `selected` pressed. A function of its
/// section's render, not a component (a component type costs the page about 470 B of Yew's code).
pub fn choice(
    testid: &'static str,
    label: &'static str,
    options: &[&'static str],
    selected: usize,
    on_select: &Callback<usize>,
) -> Html {
    html! {
        <div class="ch-choice" role="group" aria-label={label} data-testid={testid}>
            <span class="ch-field-name" aria-hidden="true">{ label }</span>
            <div class="ch-choice-buttons">
                { for options.iter().enumerate().map(|(i, &text)| {
                    let on = on_select.clone();
                    let pressed = i == selected;
                    html! {
                        <button type="button" class={classes!("ch-toggle", pressed.then_some("on"))}
                                aria-pressed={if pressed { "true" } else { "false" }}
                                data-testid={format!("{testid}-{i}")}
                                onclick={Callback::from(move |_| on.emit(i))}>
                            { text }
                        </button>
                    }
                }) }
            </div>
        </div>
    }
}

/// A width for CSS from a share of 1.
pub fn width(share: f64) -> String {
    format!("width: {:.2}%", (share.clamp(0.0, 1.0) * 100.0))
}

/// A labelled horizontal bar: `share` of the track filled.
pub fn bar(label: &str, share: f64, value: &str, class: &str, testid: &str) -> Html {
    html! {
        <div class={classes!("ch-bar", class.to_string())} data-testid={testid.to_string()}>
            <span class="ch-bar-label">{ label.to_string() }</span>
            <span class="ch-track" aria-hidden="true"><span class="ch-fill" style={width(share)}></span></span>
            <span class="ch-bar-value">{ value.to_string() }</span>
        </div>
    }
}

/// One part of a stacked bar.
pub struct Part {
    pub label: String,
    pub secs: f64,
    pub class: &'static str,
}

impl Part {
    /// The three parts of a training step: compute, waiting for storage, exposed communication.
    pub fn of_step(
        lang: crate::ui::i18n::Lang,
        s: &crate::sim::training::StepBreakdown,
    ) -> [Part; 3] {
        use crate::ui::i18n::{Key, tr};
        [
            Part {
                label: tr(lang, Key::Compute).into(),
                secs: s.compute_secs,
                class: "compute",
            },
            Part {
                label: tr(lang, Key::StorageWait).into(),
                secs: s.exposed_io_secs,
                class: "io",
            },
            Part {
                label: tr(lang, Key::ExposedComm).into(),
                secs: s.exposed_comm_secs,
                class: "comm",
            },
        ]
    }
}

/// A stacked bar of the parts of a step, with a legend that names each part and its time.
pub fn stacked(title: &str, parts: &[Part], testid: &str) -> Html {
    let total: f64 = parts.iter().map(|p| p.secs).sum();
    let share = |s: f64| if total > 0.0 { s / total } else { 0.0 };
    let total_text = crate::sim::units::format_secs(total);
    // A part of none in the total's unit ("0 s" beside "250 ms" read as another scale).
    let unit = total_text.split_once(' ').map_or("s", |(_, u)| u);
    let secs = |s: f64| {
        if s == 0.0 {
            format!("0 {unit}")
        } else {
            crate::sim::units::format_secs(s)
        }
    };
    html! {
        <div class="ch-stacked" data-testid={testid.to_string()}>
            <div class="ch-stacked-title">{ title.to_string() }{ " · " }{ total_text.clone() }</div>
            <div class="ch-stack" aria-hidden="true">
                { for parts.iter().filter(|p| p.secs > 0.0).map(|p| html! {
                    <span class={classes!("ch-part", p.class)} style={width(share(p.secs))}></span>
                }) }
            </div>
            <ul class="ch-legend">
                { for parts.iter().map(|p| html! {
                    <li><span class={classes!("ch-swatch", p.class)}></span>
                        { format!("{} {}", p.label, secs(p.secs)) }</li>
                }) }
            </ul>
        </div>
    }
}

/// A guided figure's state as read from a shared link, once when the figure mounts: `key`'s
/// `count` numbers when `valid` accepts them; else, if the link has the key, its value as the
/// figure should quote it in [`link_refused`] (such a value was dropped without a word).
#[hook]
pub fn use_link_state(
    key: &'static str,
    count: usize,
    valid: fn(&[u64]) -> bool,
) -> (Option<Vec<u64>>, Option<String>) {
    let read = use_memo((), move |_| {
        let query = crate::ui::model::query::web::current();
        let values = crate::ui::model::query::numbers(&query, key, count).filter(|v| valid(v));
        let refused = match values {
            Some(_) => None,
            // Untrusted: quoted escaped, and at most 40 characters.
            None => crate::ui::model::query::get(&query, key)
                .map(|raw| crate::sim::scenario_file::quoted(raw, 40)),
        };
        (values, refused)
    });
    (*read).clone()
}

/// A slider's callback that sets `state` to the value it sends.
pub fn setter<T: 'static>(state: &UseStateHandle<T>) -> Callback<T> {
    let state = state.clone();
    Callback::from(move |v| state.set(v))
}

/// Says that a link's value for `key` was not one of the figure's settings (see
/// [`use_link_state`]); nothing when it was, or when there was none.
pub fn link_refused(lang: Lang, key: &'static str, refused: Option<&str>) -> Html {
    match refused {
        Some(raw) => html! {
            <p class="ch-note ch-link-refused" role="status" data-testid={format!("link-refused-{key}")}>
                { trf(lang, Key::LinkRefused, &[key, raw]) }
            </p>
        },
        None => Html::default(),
    }
}

/// A guided figure kept in the link under `key`: the note when the link's value was refused, then
/// its title and controls on one side and what they show on the other.
pub fn linked_figure(
    lang: Lang,
    key: &'static str,
    refused: Option<&str>,
    title: &'static str,
    controls: Html,
    plot: Html,
) -> Html {
    html! {
        <>
        { link_refused(lang, key, refused) }
        <div class="ch-figure" data-testid={key}>
            <div class="ch-controls">
                <p class="ch-field-name"><strong>{ title }</strong></p>
                { controls }
            </div>
            <div class="ch-plot">{ plot }</div>
        </div>
        </>
    }
}

/// Keeps a guided figure's state in the address under `key`: its numbers, or no key at all while
/// the figure shows its default (so an untouched page keeps a clean address).
#[hook]
pub fn use_link_writer(key: &'static str, values: Vec<u64>, default: Vec<u64>) {
    use_effect_with(values, move |values| {
        let updates: Vec<(&str, String)> = if *values == default {
            Vec::new()
        } else {
            let text: Vec<String> = values.iter().map(u64::to_string).collect();
            vec![(key, text.join("."))]
        };
        crate::ui::model::query::web::write(&[key], &updates);
    });
}
