//! The app: state, the two simulations (A and, when comparing, B), the animation loop, keyboard
//! shortcuts, and the page layout.

use crate::sim::algorithms::Algorithm;
use crate::sim::replay::{next_step_end, previous_step_end};
use crate::sim::units::format_secs;
use crate::ui::components::hooks::{use_animation_frames, use_on_screen, use_window_keys};
use crate::ui::components::lab::buffers::Buffers;
use crate::ui::components::lab::figure::{FaultsLine, Figure, LinkInfo};
use crate::ui::components::lab::files::Files;
use crate::ui::components::lab::panels::{ControlsPanel, Results, Transport};
use crate::ui::components::lab::simulation::{SimHandle, now_ms, use_simulation};
use crate::ui::components::lab::timeline::LinkTimeline;
use crate::ui::components::root::Deferred;
use crate::ui::components::scaling::ScalingSection;
use crate::ui::i18n::{Key, Lang, algorithm_label, tr, trf, use_lang};
use crate::ui::model::logic::{Controls, Edit};
use crate::ui::model::query;
use crate::ui::model::share;
use crate::ui::model::state::{Action, AppState, Side};
use crate::ui::model::view::{
    Plan, SegmentsNote, SimView, Status, Verdict, segments_note, verdict,
};
use std::rc::Rc;
use yew::prelude::*;

/// A simulation shared between components; compared by identity so that unchanged runs are not
/// re-rendered.
#[derive(Clone)]
pub struct Shared(pub Rc<SimView>);

impl PartialEq for Shared {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.0, &other.0)
    }
}

/// The app's reducer: [`AppState::next`], which is pure; an action that changes nothing keeps
/// the same state, so nothing re-renders.
impl Reducible for AppState {
    type Action = Action;

    fn reduce(self: Rc<Self>, action: Action) -> Rc<Self> {
        match self.next(action) {
            Some(next) => Rc::new(next),
            None => self,
        }
    }
}

/// The address is rewritten at most this often while a run plays: browsers throttle
/// `replaceState` beyond about 100 calls in 10 s, and each call blocks a frame (measured in headless
/// Chromium while playing at 64 GPUs: 2.5–26 ms a call; at every 400 ms, the frames that wrote the
/// address were most of the slowest 5 %).
const ADDRESS_EVERY_MS: f64 = 1500.0;
/// Changes the learner makes (not playback's step) are written at most this often: a slider
/// dragged writes a burst of them.
const ADDRESS_EDIT_MS: f64 = 250.0;

/// Compared figures at least this many times as wide as tall are stacked (see `stacked`): below
/// it, a figure as tall as both may be (about a third of the screen each) would be no wider than
/// beside the other.
const STACK_ASPECT: f64 = 2.2;

/// Writes the lab's part of the address: every key but the guided figures' (they keep theirs).
fn write_lab_query(query: &str) {
    let updates: Vec<(&str, String)> = query
        .trim_start_matches('?')
        .split('&')
        .filter_map(|p| p.split_once('='))
        .map(|(k, v)| (k, v.to_string()))
        .collect();
    query::web::write_all_but(&query::CHAPTER_KEYS, &updates);
}

/// Keeps the address current, always with the latest state (a pending write is replaced, never
/// lost): playback's step at most every [`ADDRESS_EVERY_MS`], anything else the learner changes
/// (a preset, a slider) at most every [`ADDRESS_EDIT_MS`], whether a run plays or not (a slider
/// dragged wrote the address at every input event); what is still pending when the page is
/// hidden or left is written then.
#[hook]
fn use_address(query: String, playing: bool) {
    let pending = use_mut_ref(|| None::<gloo::timers::callback::Timeout>);
    // When the address was last written.
    let last_ms = use_mut_ref(|| f64::NEG_INFINITY);
    let written = use_mut_ref(String::new);
    // The address waiting for its turn, written at once if the page goes away first (a reload
    // 0.5 s after a preset clicked during playback came back one preset behind).
    let unwritten = use_mut_ref(|| None::<String>);
    {
        let unwritten = unwritten.clone();
        use_effect_with((), move |_| {
            let flush = move || {
                if let Some(q) = unwritten.borrow_mut().take() {
                    write_lab_query(&q);
                }
            };
            let listeners = web_sys::window().map(|w| {
                let hidden = {
                    let flush = flush.clone();
                    gloo::events::EventListener::new(&w, "visibilitychange", move |_| {
                        let doc = web_sys::window().and_then(|w| w.document());
                        if doc.is_some_and(|d| d.hidden()) {
                            flush();
                        }
                    })
                };
                (
                    hidden,
                    gloo::events::EventListener::new(&w, "pagehide", move |_| flush()),
                )
            });
            move || drop(listeners)
        });
    }
    use_effect_with((query, playing), move |(query, playing)| {
        if *written.borrow() == *query {
            // Only play or pause changed (or a newer state came back to the written one).
            pending.borrow_mut().take();
            unwritten.borrow_mut().take();
            return;
        }
        // Only playback moves the step many times a second: it waits longer.
        let step_only = *playing && without_step(&written.borrow()).eq(without_step(query));
        let write = {
            let (query, last_ms) = (query.clone(), last_ms.clone());
            let (unwritten, written) = (unwritten.clone(), written.clone());
            move || {
                write_lab_query(&query);
                *last_ms.borrow_mut() = now_ms();
                unwritten.borrow_mut().take();
                *written.borrow_mut() = query;
            }
        };
        let every = if step_only {
            ADDRESS_EVERY_MS
        } else {
            ADDRESS_EDIT_MS
        };
        let wait = every - (now_ms() - *last_ms.borrow());
        if wait <= 0.0 {
            pending.borrow_mut().take();
            write();
        } else {
            *unwritten.borrow_mut() = Some(query.clone());
            *pending.borrow_mut() = Some(gloo::timers::callback::Timeout::new(
                wait.ceil() as u32,
                write,
            ));
        }
    });
}

/// The address without its `step=`: what the learner chose, apart from where playback is.
fn without_step(query: &str) -> impl Iterator<Item = &str> + '_ {
    query
        .trim_start_matches('?')
        .split('&')
        .filter(|kv| !kv.starts_with("step="))
}

/// A large run's progress, with a button to stop it; or, once stopped, a button to run it.
fn progress_bar(lang: crate::ui::i18n::Lang, handle: &SimHandle) -> Html {
    let cancel = handle.cancel.reform(|_: MouseEvent| ());
    let restart = handle.restart.reform(|_: MouseEvent| ());
    match handle.view.0.status {
        Status::Done => Html::default(),
        Status::Waiting | Status::Preparing { .. } | Status::Running { .. } => {
            let (done, total, phase, label) = match handle.view.0.status {
                Status::Running { done, total } => (done, total.max(1), "running", Key::Simulating),
                Status::Preparing { done, total } => {
                    (done, total.max(1), "preparing", Key::PreparingRun)
                }
                _ => (0, 1, "waiting", Key::Simulating),
            };
            let share = done as f64 / total as f64;
            html! {
                <div class="sim-progress" role="status" data-testid="sim-progress" data-phase={phase} data-done={done.to_string()} data-total={total.to_string()}>
                    <span>{ tr(lang, label) }</span>
                    <progress max="1" value={format!("{share:.3}")} aria-label={tr(lang, label)}></progress>
                    <span class="muted">{ crate::ui::i18n::percent(lang, share, 0) }</span>
                    <button type="button" data-testid="sim-cancel" onclick={cancel}>{ tr(lang, Key::CancelRun) }</button>
                </div>
            }
        }
        Status::Cancelled => html! {
            <div class="sim-progress" role="status" data-testid="sim-cancelled">
                <span>{ tr(lang, Key::RunCancelled) }</span>
                <button type="button" data-testid="sim-restart" onclick={restart}>{ tr(lang, Key::RunAgain) }</button>
            </div>
        },
    }
}

/// The end of the shared cursor: the longer of the runs on screen.
fn end_secs(a: &SimView, b: Option<&SimView>) -> f64 {
    a.end_secs().max(b.map_or(0.0, |b| b.end_secs()))
}

/// The next (or previous) step boundary of any run on screen.
fn step_target(a: &SimView, b: Option<&SimView>, t: f64, forward: bool) -> f64 {
    let one = |v: &SimView| {
        v.trace().map(|tr| {
            if forward {
                next_step_end(tr, t)
            } else {
                previous_step_end(tr, t)
            }
        })
    };
    let targets = [Some(one(a)), b.map(one)];
    let found = targets.into_iter().flatten().flatten();
    if forward {
        found
            .filter(|&x| x > t)
            .fold(None, |m: Option<f64>, x| Some(m.map_or(x, |m| m.min(x))))
            .unwrap_or(end_secs(a, b))
    } else {
        found
            .filter(|&x| x < t)
            .fold(None, |m: Option<f64>, x| Some(m.map_or(x, |m| m.max(x))))
            .unwrap_or(0.0)
    }
}

/// Whether the lab's first run (the address's, or the default) will run in slices: the page then
/// mounts the lab after its other sections, whose first renders would otherwise stall the run's
/// frames (see `root::Page`).
pub fn first_run_is_sliced() -> bool {
    match share::decode(&query::web::current()) {
        Ok(Some(s)) => {
            let c = &s.controls;
            Plan::is_sliced(c, c.algorithm) || s.compare.is_some_and(|b| Plan::is_sliced(c, b))
        }
        _ => false,
    }
}

#[component]
pub fn App() -> Html {
    let lang = use_lang();
    // A shared link, read once: its scenario (or the error that replaced it by the default).
    let link = use_memo((), |_| share::decode(&query::web::current()));
    let state = {
        let link = link.clone();
        use_reducer(move || match &*link {
            Ok(Some(s)) => AppState {
                controls: s.controls.clone(),
                compare: s.compare.is_some(),
                algorithm_b: s.compare.unwrap_or(AppState::default().algorithm_b),
                nccl: s.nccl,
                playing: false,
                ..AppState::default()
            },
            _ => AppState::default(),
        })
    };
    // The network-model card's last prediction, kept here: the card moves when runs are compared.
    let nccl_cache = use_memo((), |_| {
        crate::ui::components::lab::nccl::PredictionCache::default()
    });
    let handle_a = use_simulation(&state.controls, state.controls.algorithm, true);
    // B is simulated only while the comparison is on.
    let handle_b = use_simulation(&state.controls, state.algorithm_b, state.compare);
    let (sim_a, sim_b) = (handle_a.view.clone(), handle_b.view.clone());
    let b = state.compare.then_some(&*sim_b.0);
    let end = end_secs(&sim_a.0, b);
    let t = state.t_secs.min(end);

    // Playback advances only while its stage is on screen: scrolled away, it stays where it was
    // and leaves the main thread (and the cores) to the rest of the page.
    let stage = use_node_ref();
    let stage_on_screen = use_on_screen(stage.clone());
    {
        let dispatch = state.dispatcher();
        use_animation_frames(
            state.playing && stage_on_screen,
            Callback::from(move |wall_dt_secs: f64| {
                dispatch.dispatch(Action::Tick {
                    wall_dt_secs,
                    end_secs: end,
                })
            }),
        );
    }

    // Borrowed, not cloned: this runs on every animation frame.
    let step_ends: &[f64] = sim_a.0.trace().map_or(&[], |t| &t.step_end_secs);
    // The link's step, once the first run exists (a large one arrives a few frames later).
    {
        let dispatch = state.dispatcher();
        let target = match &*link {
            Ok(Some(s)) if s.step > 0 => Some(share::step_time(step_ends, s.step)),
            _ => None,
        };
        let applied = use_mut_ref(|| false);
        use_effect_with(!step_ends.is_empty(), move |&ready| {
            if ready && !*applied.borrow() {
                *applied.borrow_mut() = true;
                if let Some(t) = target {
                    dispatch.dispatch(Action::Seek(t));
                }
            }
        });
    }
    // The address follows the lab, also while a run plays (throttled).
    {
        let shared = share::Shared {
            controls: state.controls.clone(),
            compare: state.compare.then_some(state.algorithm_b),
            step: share::step_at(step_ends, t),
            nccl: state.nccl,
        };
        use_address(
            format!("{}&lang={}", share::encode(&shared), lang.code()),
            state.playing,
        );
    }

    let step = {
        let (a, bv, dispatch) = (sim_a.clone(), sim_b.clone(), state.dispatcher());
        let compare = state.compare;
        Callback::from(move |forward: bool| {
            let b = compare.then_some(&*bv.0);
            dispatch.dispatch(Action::Seek(step_target(&a.0, b, t, forward)));
        })
    };
    let toggle = {
        let dispatch = state.dispatcher();
        Callback::from(move |_| dispatch.dispatch(Action::TogglePlay { end_secs: end }))
    };
    {
        let (step, toggle) = (step.clone(), toggle.clone());
        use_window_keys(Callback::from(move |key: String| match key.as_str() {
            " " => toggle.emit(()),
            "ArrowRight" => step.emit(true),
            "ArrowLeft" => step.emit(false),
            _ => {}
        }));
    }

    // Stable callbacks (they only dispatch), so that panels whose inputs did not change skip
    // re-rendering on every animation frame.
    let dispatcher = state.dispatcher();
    let on_controls = {
        let d = dispatcher.clone();
        use_callback((), move |c: Controls, _| d.dispatch(Action::Controls(c)))
    };
    let on_edit = {
        let d = dispatcher.clone();
        use_callback((), move |e: Edit, _| d.dispatch(Action::Edit(e)))
    };
    let on_preset = {
        let d = dispatcher.clone();
        use_callback((), move |i: usize, _| d.dispatch(Action::Preset(i)))
    };
    let on_compare = {
        let d = dispatcher.clone();
        use_callback((), move |on: bool, _| d.dispatch(Action::Compare(on)))
    };
    let on_algorithm_b = {
        let d = dispatcher.clone();
        use_callback((), move |a: Algorithm, _| d.dispatch(Action::AlgorithmB(a)))
    };
    let on_seek = {
        let d = dispatcher.clone();
        use_callback((), move |t: f64, _| d.dispatch(Action::Seek(t)))
    };
    let on_speed = {
        let d = dispatcher.clone();
        use_callback((), move |i: usize, _| d.dispatch(Action::Speed(i)))
    };
    let on_play = {
        let d = dispatcher.clone();
        use_callback(end, move |play: bool, &end_secs| {
            d.dispatch(if play {
                Action::Play { end_secs }
            } else {
                Action::Pause
            })
        })
    };
    let on_hover = {
        let d = dispatcher.clone();
        use_callback((), move |h: Option<(Side, usize)>, _| {
            d.dispatch(Action::Hover(h))
        })
    };
    let on_pin = {
        let d = dispatcher.clone();
        use_callback((), move |p: (Side, usize), _| d.dispatch(Action::Pin(p)))
    };

    // Whether a tree beside another run wins or loses because of its pipeline segments.
    let note = {
        let (a, b) = (sim_a.clone(), sim_b.clone());
        use_memo(
            (state.controls.clone(), state.compare, a, b),
            |(controls, compare, a, b)| {
                if !*compare {
                    return None;
                }
                let (ta, tb) = (a.0.trace()?.time_secs, b.0.trace()?.time_secs);
                let (alg_a, alg_b) = (a.0.requested, b.0.requested);
                let side = if alg_b.is_tree() && !alg_a.is_tree() {
                    (Side::B, alg_b, tb, alg_a, ta)
                } else if alg_a.is_tree() && !alg_b.is_tree() {
                    (Side::A, alg_a, ta, alg_b, tb)
                } else {
                    return None;
                };
                let (s, tree, t_tree, other, t_other) = side;
                segments_note(controls, tree, t_tree, t_other).map(|n| (s, n, other, t_other))
            },
        )
    };
    let note_html = |side: Side| match *note {
        Some((s, n, other, t_other)) if s == side => {
            let other = algorithm_label(lang, other);
            let text = match n {
                SegmentsNote::WinsOnlyPipelined {
                    segments,
                    unpipelined_secs,
                } => trf(
                    lang,
                    Key::SegmentsWinsOnlyPipelined,
                    &[
                        &segments.to_string(),
                        &format_secs(unpipelined_secs),
                        other,
                        &format_secs(t_other),
                    ],
                ),
                SegmentsNote::WouldWinWith {
                    from,
                    segments,
                    secs,
                } => trf(
                    lang,
                    Key::SegmentsWouldWin,
                    &[
                        &segments.to_string(),
                        &format_secs(secs),
                        other,
                        &format_secs(t_other),
                        &match (lang, from) {
                            (_, 1) => lang.pick("Unpipelined", "不分段时").to_string(),
                            (Lang::En, k) => format!("In {k} segments"),
                            (Lang::Zh, k) => format!("分成 {k} 段时"),
                        },
                    ],
                ),
            };
            html! { <p class="segments-note" data-testid="segments-note">{ text }</p> }
        }
        _ => Html::default(),
    };

    // Which compared run finished first, and by how much: above both, where both times meet.
    let verdict_html = {
        let (a, b) = (sim_a.clone(), sim_b.clone());
        let v = use_memo((state.compare, a, b), |(compare, a, b)| {
            compare.then(|| verdict(&a.0, &b.0)).flatten()
        });
        let name = |alg| algorithm_label(lang, alg);
        match *v {
            Some(Verdict::Faster {
                faster,
                secs,
                slower,
                slower_secs,
                ratio,
            }) => {
                let text = trf(
                    lang,
                    Key::CompareFaster,
                    &[
                        name(faster),
                        &format_secs(secs),
                        name(slower),
                        &format_secs(slower_secs),
                        &crate::sim::units::sig3(ratio),
                    ],
                );
                html! { <p class="compare-verdict" data-testid="compare-verdict" data-ratio={format!("{ratio}")}>{ text }</p> }
            }
            Some(Verdict::Tie {
                a,
                a_secs,
                b,
                b_secs,
            }) => {
                let text = if a == b {
                    trf(lang, Key::CompareSame, &[&format_secs(a_secs)])
                } else {
                    trf(
                        lang,
                        Key::CompareTie,
                        &[name(a), name(b), &format_secs(a_secs), &format_secs(b_secs)],
                    )
                };
                html! { <p class="compare-verdict" data-testid="compare-verdict" data-ratio="1">{ text }</p> }
            }
            None => Html::default(),
        }
    };

    // Compared figures much wider than tall go one above the other, each across the stage, and
    // the rest of the two runs under them: side by side at 1440 × 900, the 2-rack figure (1080 ×
    // 324 units) was drawn at 0.47 of its size, its GPU numbers 4.7 px; stacked, at 0.83 (see
    // style.css for the height each may take, so that both stay on screen).
    let stacked = state.compare && {
        let layout = &sim_a.0.layout;
        layout.height > 0.0 && layout.width >= STACK_ASPECT * layout.height
    };

    // The model switch and NCCL's card: beside the run's results, or under both runs compared (in
    // run A's column it pushed A's buffers 80 px below B's); its textbook column is run A's.
    let lab_nccl = || {
        html! {
            <crate::ui::components::lab::nccl::LabNccl controls={state.controls.clone()} pick={state.nccl}
                textbook={sim_a.0.trace().map(|t| (t.time_secs, t.algbw_bytes_per_sec(), t.busbw_bytes_per_sec()))}
                on_edit={on_edit.clone()} cache={(*nccl_cache).clone()} />
        }
    };
    let panel = |side: Side, handle: &SimHandle| {
        let sim = &handle.view;
        let testid = if side == Side::A {
            "figure-a"
        } else {
            "figure-b"
        };
        // The link under the pointer, else the one last clicked or tapped.
        let hover = state
            .hover
            .or(state.pinned)
            .filter(|h| h.0 == side)
            .map(|h| h.1);
        let faults = sim.0.faults.clone();
        let stragglers: Vec<usize> = faults.stragglers.iter().map(|s| s.rank).collect();
        let on_gpu = {
            let on = on_edit.clone();
            // A clicked GPU joins late by half of this run's time (at least 1 µs), enough to see,
            // and no more than a fault may be (10 s: a 128 s run asked for 64 s, which the run
            // refused and a link then refused whole).
            let max_us = crate::sim::faults::MAX_DELAY_SECS * 1e6;
            let delay_ns = (((end / 2.0) * 1e6).round().clamp(1.0, max_us) * 1e3) as u64;
            Callback::from(move |rank: usize| on.emit(Edit::ToggleStraggler { rank, delay_ns }))
        };
        html! {
            <section class="run" data-testid={testid}>
                // The figure and what is said of it, then the rest: two boxes that a comparison
                // of wide figures lays out apart (see `stacked`).
                <div class="run-main">
                    { progress_bar(lang, handle) }
                    <Figure sim={sim.clone()} t_secs={t} side={side} hover={hover} on_hover={on_hover.clone()} on_pin={on_pin.clone()}
                            on_gpu={on_gpu.clone()} stragglers={stragglers} />
                    <FaultsLine faults={faults.clone()} />
                    <LinkInfo sim={sim.clone()} t_secs={t} line={hover}
                              faults={Some(faults)} on_edit={on_edit.clone()} on_gpu={on_gpu.clone()} />
                </div>
                <div class="run-more">
                    // Under stacked figures this box is no longer under its figure's title: its own.
                    <h2 class="run-title run-more-title">{ algorithm_label(lang, sim.0.shown_algorithm()) }</h2>
                    <Results sim={sim.clone()} recalled={handle.recalled} />
                    if side == Side::A && !state.compare {
                        // The model switch, and what NCCL would do for this run beside its results.
                        { lab_nccl() }
                    }
                    // Below the figure: mounted in the turn after it (see `root::Deferred`).
                    <Deferred order={0} placeholder={classes!("deferred-panel")}>
                        <Buffers sim={sim.clone()} t_secs={t} playing={state.playing} narrow={state.compare} />
                        <LinkTimeline sim={sim.clone()} t_secs={t} end_secs={end} narrow={state.compare} />
                    </Deferred>
                </div>
            </section>
        }
    };

    html! {
        <div class="app">
            // The section's heading is the chapter's (root.rs): no second title (a second h1,
            // "allreduce-lab", stood under "The full lab: every control").
            <header class="masthead">
                <div class="masthead-row">
                    <p class="tagline">{ tr(lang, Key::LabTagline) }</p>
                    <crate::ui::components::root::PresentButton testid="present-toggle-lab" />
                </div>
            </header>
            if let Err(e) = &*link {
                <p class="url-error" role="alert" data-testid="url-error">
                    { tr(lang, Key::UrlError) }{ crate::ui::i18n::errors::share_error(lang, e) }
                </p>
            }
            <div class="layout">
                <ControlsPanel
                    controls={state.controls.clone()}
                    compare={state.compare}
                    algorithm_b={state.algorithm_b}
                    on_edit={on_edit.clone()}
                    on_preset={on_preset}
                    on_compare={on_compare}
                    on_algorithm_b={on_algorithm_b}
                    cli_a={sim_a.0.cli.clone()}
                    cli_b={state.compare.then(|| sim_b.0.cli.clone())}
                />
                <main class="stage" ref={stage} data-on-screen={stage_on_screen.to_string()}>
                    <Transport
                        runnable={sim_a.0.trace().is_some() || b.is_some_and(|b| b.trace().is_some())}
                        t_secs={t}
                        end_secs={end}
                        playing={state.playing}
                        speed={state.speed}
                        on_toggle={toggle}
                        on_play={on_play}
                        on_step={step}
                        on_seek={on_seek}
                        on_speed={on_speed}
                    />
                    // Above both runs: who finished first, and the tree's segments note (inside
                    // the tree's run it pushed that figure 85 px below the other).
                    { verdict_html }{ note_html(Side::A) }{ note_html(Side::B) }
                    <div class={classes!("runs", state.compare.then_some("compare"), stacked.then_some("stacked"))}
                         data-testid="runs">
                        { panel(Side::A, &handle_a) }
                        if state.compare { { panel(Side::B, &handle_b) } }
                    </div>
                    if state.compare { { lab_nccl() } }
                    <Files controls={state.controls.clone()} sim={sim_a.clone()} sim_b={state.compare.then(|| sim_b.clone())} on_import={on_controls} />
                </main>
            </div>
            // Below the lab's figure: mounted in a turn of its own (see `root::Deferred`).
            <Deferred order={10} placeholder={classes!("deferred-section")}><ScalingSection /></Deferred>
            <footer class="foot">
                { tr(lang, Key::LabFooter) }
            </footer>
        </div>
    }
}
