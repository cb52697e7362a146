//! The page: the language provider around the guided chapter and, below it, the full lab. The
//! sections that simulate on mount are [`Deferred`]: the first frame shows the page's text at
//! once, then the sections mount one at a time, each in a task of its own and lowest `order`
//! first (the page stays responsive and can paint between them), and once all are in place a
//! link's `#anchor` is scrolled to.

use crate::ui::components::app::App;
use crate::ui::components::chapter::chapter_guide;
use crate::ui::components::nccl::NcclSection;
use crate::ui::i18n::{Key, Lang, LangContext, LangProvider, tr, use_lang};
use gloo::timers::callback::Timeout;
use std::cell::{Cell, RefCell};
use std::rc::Rc;
use yew::prelude::*;

thread_local! {
    /// Deferred sections not yet mounted; `None` once the page is complete.
    static PENDING: Cell<Option<usize>> = const { Cell::new(Some(0)) };
    /// Deferred sections waiting for their turn: (order, id, how to mount it).
    static QUEUE: RefCell<Vec<(u32, u64, Callback<()>)>> = const { RefCell::new(Vec::new()) };
    /// The section mounting now (until it has rendered), whose task the next one waits for.
    static MOUNTING: Cell<Option<u64>> = const { Cell::new(None) };
    /// Whether a turn is scheduled.
    static SCHEDULED: Cell<bool> = const { Cell::new(false) };
    static NEXT_ID: Cell<u64> = const { Cell::new(0) };
}

/// Schedules the next section's turn in a task of its own, unless one is scheduled or mounting.
/// (Yew renders every component whose state changed before it next yields, so sections made
/// visible at once would render in one long task: they take turns instead.)
fn schedule_turn() {
    if SCHEDULED.get() || MOUNTING.get().is_some() {
        return;
    }
    SCHEDULED.set(true);
    Timeout::new(0, take_turn).forget();
}

/// Mounts the waiting section with the lowest order (the first to ask among equals).
fn take_turn() {
    SCHEDULED.set(false);
    if MOUNTING.get().is_some() {
        return;
    }
    let next = QUEUE.with(|q| {
        let mut q = q.borrow_mut();
        let i = (0..q.len()).min_by_key(|&i| (q[i].0, q[i].1))?;
        Some(q.swap_remove(i))
    });
    if let Some((_, id, mount)) = next {
        MOUNTING.set(Some(id));
        mount.emit(());
    }
}

/// The section `id` has rendered (or is gone): the next may take its turn.
fn turn_done(id: u64) {
    if MOUNTING.get() == Some(id) {
        MOUNTING.set(None);
    }
    schedule_turn();
}

/// The section `id`'s content is in place: the next section may take its turn, and once every
/// section is in place a link's `#anchor` is scrolled to.
fn finish_turn(id: u64) {
    turn_done(id);
    let all = PENDING.with(|p| {
        let left = p.get().map(|n| n.saturating_sub(1));
        p.set(if left == Some(0) { None } else { left });
        left == Some(0)
    });
    if all {
        scroll_to_hash();
    }
}

/// A [`Deferred`]'s turn, for a [`Lazy`] inside it: the turn lasts until the lazily loaded
/// content is in place, so that the sections still mount in their order.
#[derive(Clone, PartialEq)]
struct Turn {
    id: u64,
    /// Mounted at once: it took no turn.
    eager: bool,
    /// A `Lazy` inside ends the turn (set as it first renders, before the section's effects).
    held: Rc<Cell<bool>>,
    /// Ended already (a turn ends once, whoever ends it).
    ended: Rc<Cell<bool>>,
}

impl Turn {
    /// Ends the turn, once: the next section may take its own.
    fn end(&self) {
        if !self.eager && !self.ended.replace(true) {
            finish_turn(self.id);
        }
    }
}

/// How long a section's module may take before the sections after it take their turns all the
/// same (it fills in when it arrives): a stalled fetch held up every later section.
const MODULE_WAIT_MS: u32 = 10_000;

/// The address's `#anchor`, with its `#` ("" when there is none).
fn location_hash() -> String {
    web_sys::window()
        .and_then(|w| w.location().hash().ok())
        .unwrap_or_default()
}

/// The lab's turn among the [`Deferred`] sections (see `Page`): 12 (last) when its first run runs
/// in slices, whatever the address; else 0 for a link to the lab (`#lab`), and 2 (after §1.1's
/// figure, at the top of the page) otherwise, links to the chapter's sections included: the page
/// scrolls to those once every section is in place.
fn lab_order(first_run_sliced: bool, hash: &str) -> u32 {
    if first_run_sliced {
        12
    } else if hash == "#lab" {
        0
    } else {
        2
    }
}

/// Scrolls to the address's `#anchor` (the browser tried before the content existed).
fn scroll_to_hash() {
    let hash = location_hash();
    let id = hash.trim_start_matches('#');
    if id.is_empty() {
        return;
    }
    if let Some(el) = gloo::utils::document().get_element_by_id(id) {
        // At once, as the browser goes to an anchor, not smoothly (the stylesheet's
        // `scroll-behavior`): a section above that grows while a smooth scroll runs (a simulation
        // finishing) left the anchor off by its growth; after an instant one the browser's scroll
        // anchoring keeps the anchor in place.
        if !instantly(&el, "scrollIntoView", None) {
            el.scroll_into_view();
        }
    }
}

/// Calls `target.method({behavior: "instant", top})` (`top` if given), whatever the stylesheet's
/// `scroll-behavior`; whether it could. Through `Reflect`: the options' web-sys types are a
/// feature (and code) more for two calls.
fn instantly(target: &wasm_bindgen::JsValue, method: &str, top: Option<f64>) -> bool {
    use wasm_bindgen::JsCast;
    let opts = js_sys::Object::new();
    let _ = js_sys::Reflect::set(&opts, &"behavior".into(), &"instant".into());
    if let Some(top) = top {
        let _ = js_sys::Reflect::set(&opts, &"top".into(), &top.into());
    }
    js_sys::Reflect::get(target, &method.into())
        .ok()
        .and_then(|f| f.dyn_into::<js_sys::Function>().ok())
        .is_some_and(|f| f.call1(target, &opts).is_ok())
}

/// What the reader is looking at: the element a third of the way down the window, then its
/// section (should the element itself be hidden in the other mode), each with how far down the
/// window it starts.
fn reading_place() -> Vec<(web_sys::Element, f64)> {
    let Some(window) = web_sys::window() else {
        return Vec::new();
    };
    let size = |v: Result<wasm_bindgen::JsValue, _>| v.ok().and_then(|v| v.as_f64()).unwrap_or(0.0);
    let (w, h) = (size(window.inner_width()), size(window.inner_height()));
    let el = gloo::utils::document().element_from_point((w / 2.0) as f32, (h / 3.0) as f32);
    let section = el
        .as_ref()
        .and_then(|e| e.closest("section").ok().flatten());
    el.into_iter()
        .chain(section)
        .map(|e| {
            let top = e.get_bounding_client_rect().top();
            (e, top)
        })
        .collect()
}

/// Scrolls so that the first of `place` still shown starts where it did in the window.
fn keep_reading_place(place: Vec<(web_sys::Element, f64)>) {
    let shown = place.into_iter().find_map(|(e, before)| {
        let r = e.get_bounding_client_rect();
        (r.width() > 0.0 || r.height() > 0.0).then(|| r.top() - before)
    });
    if let (Some(moved), Some(window)) = (shown, web_sys::window()) {
        if moved.abs() >= 1.0 {
            instantly(&window, "scrollBy", Some(moved));
        }
    }
}

#[derive(Properties, PartialEq)]
pub struct DeferredProps {
    /// Mount order: lower first.
    pub order: u32,
    /// The placeholder's class (it reserves the section's height so the page does not jump).
    #[prop_or_default]
    pub placeholder: Classes,
    /// The section's content, in the page's own module…
    #[prop_or_default]
    pub children: Html,
    /// …or in a module of its own, loaded by this ([`Lazy`]): the turn then lasts until it is in
    /// place.
    #[prop_or_default]
    pub load: Option<Loader>,
}

/// Renders its children after the first frame, in a task of its own: the sections take turns,
/// lowest `order` first, each once the one before has rendered. One created while no other
/// section waits for a turn (once the page is complete, or inside the last section to mount)
/// renders at once: there is nothing to give way to.
#[component]
pub fn Deferred(props: &DeferredProps) -> Html {
    let eager = *use_memo((), |_| {
        PENDING.get().is_none()
            || (MOUNTING.get().is_some() && QUEUE.with(|q| q.borrow().is_empty()))
    });
    let mounted = use_state(|| eager);
    let id = *use_memo((), |_| {
        let id = NEXT_ID.get();
        NEXT_ID.set(id + 1);
        id
    });
    let turn = (*use_memo((), |_| Turn {
        id,
        eager,
        held: Rc::new(Cell::new(false)),
        ended: Rc::new(Cell::new(false)),
    }))
    .clone();
    {
        let mounted = mounted.clone();
        let order = props.order;
        let turn = turn.clone();
        use_effect_with((), move |_| {
            if !eager {
                PENDING.with(|p| p.set(p.get().map(|n| n + 1)));
                let mount = Callback::from(move |()| mounted.set(true));
                QUEUE.with(|q| q.borrow_mut().push((order, id, mount)));
                schedule_turn();
            }
            move || {
                QUEUE.with(|q| q.borrow_mut().retain(|e| e.1 != id));
                // Gone before its content was in place (a compared run's panel closed while the
                // page loads): its turn ends, or the page never counted as complete and a link's
                // #anchor was never scrolled to.
                turn.end();
                turn_done(id);
            }
        });
    }
    {
        let done = *mounted;
        let turn = turn.clone();
        use_effect_with(done, move |&done| {
            if done && !turn.held.get() {
                turn.end();
            }
        });
    }
    if *mounted {
        let content = match props.load {
            Some(load) => html! { <Lazy {load} placeholder={props.placeholder.clone()} /> },
            None => props.children.clone(),
        };
        html! { <ContextProvider<Turn> context={turn}>{ content }</ContextProvider<Turn>> }
    } else {
        html! { <div class={classes!("deferred", props.placeholder.clone())} data-deferred="pending" aria-busy="true"></div> }
    }
}

/// Whether every [`Deferred`] section has its content in place.
#[cfg(feature = "probes")]
pub fn page_complete() -> bool {
    PENDING.get().is_none()
}

/// Two [`Deferred`] sections, the second taken away before its turn comes (the component tests
/// check that the page still completes).
#[cfg(feature = "probes")]
#[component]
pub fn DeferredProbe() -> Html {
    let second = use_state(|| true);
    {
        let second = second.clone();
        // After the first render, before the first section's turn (a task of its own).
        use_effect_with((), move |_| second.set(false));
    }
    html! {
        <>
            <Deferred order={0} placeholder={classes!("probe")}><p class="first">{ "first" }</p></Deferred>
            if *second {
                <Deferred order={1} placeholder={classes!("probe")}><p class="second">{ "second" }</p></Deferred>
            }
        </>
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
        // The lab's own button hides in presentation mode (present.css): its focus goes to the
        // page's, the way out, rather than to nothing.
        let hands_over = !p.on && props.testid != "present-toggle";
        Callback::from(move |_: MouseEvent| {
            toggle.emit(());
            if hands_over {
                let main = gloo::utils::document()
                    .query_selector("[data-testid=present-toggle]")
                    .ok()
                    .flatten()
                    .and_then(|el| wasm_bindgen::JsCast::dyn_into::<web_sys::HtmlElement>(el).ok());
                if let Some(main) = main {
                    let _ = main.focus();
                }
            }
        })
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
            // Every size changes, the page's height by thousands of pixels: what the reader looked
            // at is kept where it was in the window (at the same scroll offset it went sections
            // away, both ways).
            let place = reading_place();
            let _ = if on {
                root.set_attribute("data-present", "")
            } else {
                root.remove_attribute("data-present")
            };
            keep_reading_place(place);
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
    // The language and the way to switch it (the guide's button).
    let ctx = use_context::<LangContext>();
    let lang = ctx.as_ref().map_or(Lang::En, |c| c.lang);
    // What the learner looks at mounts first. At the top of the page that is §1.1's figure (order
    // 1); the lab's figure comes next (2), then the chapter's other sections from the top (3–9),
    // the scaling charts (10), and last the NCCL section, whose chart simulates every candidate
    // (the longest of them). A link to the lab (`#lab`, where the page scrolls once it is
    // complete) mounts the lab first. A first run too large to simulate at once has no figure to
    // show soon: the lab then comes last, so that no section's first render stalls the run's
    // frames.
    let lab_order = *use_memo((), |_| {
        lab_order(
            crate::ui::components::app::first_run_is_sliced(),
            &location_hash(),
        )
    });
    let loaders = loaders();
    // Every module is fetched (and compiled) at once, not at its section's turn: the turns then
    // find them ready.
    use_effect_with((), move |_| {
        for (load, arg) in [(loaders.lab, 0), (loaders.chapter, 3), (loaders.nccl, 0)] {
            wasm_bindgen_futures::spawn_local(async move {
                drop(load(arg).await);
            });
        }
    });
    html! {
        <>
            { chapter_guide(lang, ctx.as_ref()) }
            <section id="lab" class="ch-lab" tabindex="-1" aria-labelledby="lab-title" data-testid="lab">
                <div class="ch-lab-intro">
                    <h2 id="lab-title">{ tr(lang, Key::LabHeading) }</h2>
                    <p>{ tr(lang, Key::LabIntro) }</p>
                </div>
                <Deferred order={lab_order} placeholder={classes!("deferred-lab")} load={Loader(loaders.lab, 0)} />
            </section>
            <Deferred order={11} placeholder={classes!("deferred-section")} load={Loader(loaders.nccl, 0)} />
        </>
    }
}

// The lab, the NCCL section and the chapter's sections after §1.1 live in wasm modules of their
// own (scripts/wasm_split.py), fetched as the page starts and mounted at their `Deferred` turns.
// Their loaders are the page binary's (src/main.rs: a `#[no_mangle]` function in the library would
// be exported by the worker's binary too, and pull the lab into it), handed to the views here
// before the first render; `ui::mount` (the component tests) hands loaders that render at once.
thread_local! {
    static LOADERS: Cell<Option<Loaders>> = const { Cell::new(None) };
}

/// A section's loader: fetches its module (the first time) and renders the section its argument
/// picks (the chapter's sections share one); `None`: its module could not be fetched or
/// instantiated.
pub type LoadFn = fn(u32) -> std::pin::Pin<Box<dyn std::future::Future<Output = Option<Html>>>>;

/// The lab's, the NCCL section's and the chapter's later sections' loaders.
#[derive(Clone, Copy)]
pub struct Loaders {
    pub lab: LoadFn,
    pub nccl: LoadFn,
    pub chapter: LoadFn,
}

/// Set before the page renders.
pub fn set_loaders(loaders: Loaders) {
    LOADERS.set(Some(loaders));
}

/// The loaders `ui::start`/`ui::mount` set (none set: every section says it could not be loaded).
pub fn loaders() -> Loaders {
    LOADERS.get().unwrap_or(Loaders {
        lab: |_| Box::pin(async { None }),
        nccl: |_| Box::pin(async { None }),
        chapter: |_| Box::pin(async { None }),
    })
}

/// The lab, for its loader.
pub fn lab_html() -> Html {
    html! { <App /> }
}

/// The NCCL section, for its loader.
pub fn nccl_html() -> Html {
    html! { <NcclSection /> }
}

/// How a [`Lazy`] gets its content: a loader and its argument.
#[derive(Clone, Copy)]
pub struct Loader(pub LoadFn, pub u32);
impl PartialEq for Loader {
    fn eq(&self, other: &Self) -> bool {
        std::ptr::fn_addr_eq(self.0, other.0) && self.1 == other.1
    }
}

#[derive(Properties, PartialEq)]
struct LazyProps {
    pub load: Loader,
    #[prop_or_default]
    pub placeholder: Classes,
}

/// Fetches its content's wasm module (once per page), then renders the content; inside a
/// [`Deferred`], its turn ends once the content is in place.
#[component]
fn Lazy(props: &LazyProps) -> Html {
    let lang = use_lang();
    // `Some(None)`: the module did not load.
    let content = use_state(|| None::<Option<Html>>);
    let turn = use_context::<Turn>();
    if let Some(turn) = &turn {
        turn.held.set(true);
    }
    {
        let content = content.clone();
        let load = props.load;
        use_effect_with((), move |_| {
            wasm_bindgen_futures::spawn_local(async move {
                content.set(Some((load.0)(load.1).await));
            });
        });
    }
    {
        let turn = turn.clone();
        use_effect_with((), move |_| {
            let waited = turn.map(|t| Timeout::new(MODULE_WAIT_MS, move || t.end()));
            move || drop(waited)
        });
    }
    {
        let arrived = content.is_some();
        use_effect_with(arrived, move |&arrived| {
            if let Some(turn) = turn.filter(|_| arrived) {
                turn.end();
            }
        });
    }
    match &*content {
        Some(Some(html)) => html.clone(),
        Some(None) => {
            html! { <p class="ch-error" role="alert" data-testid="section-not-loaded">{ tr(lang, Key::SectionNotLoaded) }</p> }
        }
        None => {
            html! { <div class={classes!("deferred", props.placeholder.clone())} data-deferred="loading" aria-busy="true"></div> }
        }
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
