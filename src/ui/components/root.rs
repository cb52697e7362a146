//! The page: the language provider around the guided chapter and, below it, the full lab. The
//! sections that simulate on mount are [`Deferred`]: the first frame shows the page's text at
//! once, then each section computes in its own task (the page stays responsive between them), and
//! once all are in place a link's `#anchor` is scrolled to.

use crate::ui::components::app::App;
use crate::ui::components::chapter::ChapterGuide;
use crate::ui::components::nccl::NcclSection;
use crate::ui::i18n::{Key, LangProvider, tr, use_lang};
use std::cell::Cell;
use yew::prelude::*;

thread_local! {
    /// Deferred sections not yet mounted; `None` once the page is complete.
    static PENDING: Cell<Option<usize>> = const { Cell::new(Some(0)) };
}

/// Scrolls to the address's `#anchor` (the browser tried before the content existed).
fn scroll_to_hash() {
    let Some(window) = web_sys::window() else {
        return;
    };
    let hash = window.location().hash().unwrap_or_default();
    let id = hash.trim_start_matches('#');
    if id.is_empty() {
        return;
    }
    if let Some(el) = window.document().and_then(|d| d.get_element_by_id(id)) {
        el.scroll_into_view();
    }
}

#[derive(Properties, PartialEq)]
pub struct DeferredProps {
    /// Mount order: lower first.
    pub order: u32,
    /// The placeholder's class (it reserves the section's height so the page does not jump).
    #[prop_or_default]
    pub placeholder: Classes,
    pub children: Html,
}

/// Renders its children after the first frame, in a task of its own.
#[component]
pub fn Deferred(props: &DeferredProps) -> Html {
    let mounted = use_state(|| false);
    {
        let mounted = mounted.clone();
        let order = props.order;
        use_effect_with((), move |_| {
            PENDING.with(|p| p.set(p.get().map(|n| n + 1)));
            // A timeout per section: each one's work is its own task, so input and painting
            // happen between them.
            let timeout = gloo::timers::callback::Timeout::new(order, move || mounted.set(true));
            move || drop(timeout)
        });
    }
    {
        let done = *mounted;
        use_effect_with(done, move |&done| {
            if done {
                let all = PENDING.with(|p| {
                    let left = p.get().map(|n| n.saturating_sub(1));
                    p.set(if left == Some(0) { None } else { left });
                    left == Some(0)
                });
                if all {
                    scroll_to_hash();
                }
            }
        });
    }
    if *mounted {
        props.children.clone()
    } else {
        html! { <div class={classes!("deferred", props.placeholder.clone())} data-deferred="pending" aria-busy="true"></div> }
    }
}

/// Presentation mode: on or off, and how to switch it. Provided by [`Root`].
#[derive(Clone, PartialEq)]
pub struct Presenting {
    pub on: bool,
    pub toggle: Callback<()>,
}

/// Whether a key press belongs to a field (which keeps its keys).
fn typing_in_field(e: &web_sys::KeyboardEvent) -> bool {
    use wasm_bindgen::JsCast;
    e.target()
        .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
        .is_some_and(|el| {
            matches!(
                el.tag_name().to_ascii_lowercase().as_str(),
                "input" | "select" | "textarea"
            )
        })
}

/// The button that switches presentation mode (the key P does the same, Escape leaves it).
#[component]
pub fn PresentButton(props: &PresentButtonProps) -> Html {
    let lang = use_lang();
    let Some(p) = use_context::<Presenting>() else {
        return Html::default();
    };
    let onclick = {
        let toggle = p.toggle.clone();
        Callback::from(move |_: MouseEvent| toggle.emit(()))
    };
    let label = tr(
        lang,
        if p.on {
            Key::PresentLeave
        } else {
            Key::PresentEnter
        },
    );
    html! {
        <button type="button" class={classes!("present-toggle", p.on.then_some("on"))} data-testid={props.testid.clone()}
                aria-pressed={if p.on { "true" } else { "false" }} aria-keyshortcuts="p" title={tr(lang, Key::PresentKey)} {onclick}>
            { label }
        </button>
    }
}

#[derive(Properties, PartialEq)]
pub struct PresentButtonProps {
    pub testid: AttrValue,
}

/// Holds presentation mode: marks `<html data-present>` (the stylesheets do the rest) and listens
/// for P and Escape.
#[component]
fn PresentProvider(props: &DeferredChildren) -> Html {
    let on = use_state(|| false);
    let latest = use_mut_ref(|| false);
    *latest.borrow_mut() = *on;
    let toggle = {
        let on = on.clone();
        let latest = latest.clone();
        use_callback((), move |_: (), _| on.set(!*latest.borrow()))
    };
    use_effect_with(*on, |&on| {
        if let Some(root) = gloo::utils::document().document_element() {
            let _ = if on {
                root.set_attribute("data-present", "")
            } else {
                root.remove_attribute("data-present")
            };
        }
    });
    {
        let on = on.clone();
        use_effect_with((), move |_| {
            let listener = web_sys::window().map(|w| {
                gloo::events::EventListener::new(&w, "keydown", move |e| {
                    use wasm_bindgen::JsCast;
                    let Some(e) = e.dyn_ref::<web_sys::KeyboardEvent>() else {
                        return;
                    };
                    if e.ctrl_key() || e.meta_key() || e.alt_key() || typing_in_field(e) {
                        return;
                    }
                    match e.key().as_str() {
                        "p" | "P" => on.set(!*latest.borrow()),
                        "Escape" if *latest.borrow() => on.set(false),
                        _ => {}
                    }
                })
            });
            move || drop(listener)
        });
    }
    let ctx = Presenting { on: *on, toggle };
    html! {
        <ContextProvider<Presenting> context={ctx}>
            { props.children.clone() }
        </ContextProvider<Presenting>>
    }
}

#[derive(Properties, PartialEq)]
pub struct DeferredChildren {
    pub children: Html,
}

#[component]
fn Page() -> Html {
    let lang = use_lang();
    html! {
        <>
            <ChapterGuide />
            <section id="lab" class="ch-lab" tabindex="-1" aria-labelledby="lab-title" data-testid="lab">
                <div class="ch-lab-intro">
                    <h2 id="lab-title">{ tr(lang, Key::LabHeading) }</h2>
                    <p>{ tr(lang, Key::LabIntro) }</p>
                </div>
                <Deferred order={5} placeholder={classes!("deferred-lab")}>
                    <App />
                </Deferred>
            </section>
            <NcclSection />
        </>
    }
}
/// The root component: everything inside reads the language with `use_lang`.
#[component]
pub fn Root() -> Html {
    html! {
        <LangProvider>
            <PresentProvider>
                <Page />
            </PresentProvider>
        </LangProvider>
    }
}
