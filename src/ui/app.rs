//! The app: state, the two simulations (A and, when comparing, B), the animation loop, keyboard
//! shortcuts, and the page layout.

use super::figure::{Buffers, FaultsLine, Figure, LinkInfo, LinkTimeline};
use super::files::Files;
use super::hooks::{use_animation_frames, use_window_keys};
use super::i18n::{tr, use_lang, Key};
use super::logic::Controls;
use super::panels::{ControlsPanel, Results, Transport};
use super::scaling::ScalingSection;
use super::share;
use super::state::{Action, AppState, Side};
use super::view::SimView;
use crate::sim::algorithms::Algorithm;
use crate::sim::replay::{next_step_end, previous_step_end};
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

fn now_ms() -> f64 {
    web_sys::window()
        .and_then(|w| w.performance())
        .map_or(0.0, |p| p.now())
}

/// The page's query string (`?…`), or nothing.
fn location_search() -> String {
    web_sys::window()
        .and_then(|w| w.location().search().ok())
        .unwrap_or_default()
}

/// Replaces the address's query without a new history entry (or a reload).
fn replace_query(query: &str) {
    let Some(window) = web_sys::window() else {
        return;
    };
    let hash = window.location().hash().unwrap_or_default();
    if window.location().search().ok().as_deref() == Some(query) {
        return;
    }
    if let Ok(history) = window.history() {
        // Failing to update the address only loses the shareable link, never the lab.
        let _ = history.replace_state_with_url(
            &wasm_bindgen::JsValue::NULL,
            "",
            Some(&format!("{query}{hash}")),
        );
    }
}

#[hook]
fn use_simulation(controls: &Controls, algorithm: Algorithm, shown: bool) -> Shared {
    let view = use_memo((controls.clone(), algorithm, shown), |(c, a, shown)| {
        if !*shown {
            return SimView::idle(*a);
        }
        let started = now_ms();
        let mut view = SimView::build(c, *a);
        view.sim_ms = now_ms() - started;
        view
    });
    Shared(view)
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

#[component]
pub fn App() -> Html {
    let lang = use_lang();
    // A shared link, read once: its scenario (or the error that replaced it by the default).
    let link = use_memo((), |_| share::decode(&location_search()));
    let state = {
        let link = link.clone();
        use_reducer(move || match &*link {
            Ok(Some(s)) => AppState {
                controls: s.controls.clone(),
                compare: s.compare.is_some(),
                algorithm_b: s.compare.unwrap_or(AppState::default().algorithm_b),
                playing: false,
                ..AppState::default()
            },
            _ => AppState::default(),
        })
    };
    let sim_a = use_simulation(&state.controls, state.controls.algorithm, true);
    // B is simulated only while the comparison is on.
    let sim_b = use_simulation(&state.controls, state.algorithm_b, state.compare);
    let b = state.compare.then_some(&*sim_b.0);
    let end = end_secs(&sim_a.0, b);
    let t = state.t_secs.min(end);

    {
        let dispatch = state.dispatcher();
        use_animation_frames(
            state.playing,
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
    // The link's step, once the first run exists.
    {
        let dispatch = state.dispatcher();
        let target = match &*link {
            Ok(Some(s)) if s.step > 0 => Some(share::step_time(step_ends, s.step)),
            _ => None,
        };
        use_effect_with((), move |_| {
            if let Some(t) = target {
                dispatch.dispatch(Action::Seek(t));
            }
        });
    }
    // The address follows the lab (while paused, so not on every frame).
    {
        let shared = share::Shared {
            controls: state.controls.clone(),
            compare: state.compare.then_some(state.algorithm_b),
            step: share::step_at(step_ends, t),
        };
        let playing = state.playing;
        use_effect_with((shared, playing, lang), move |(shared, playing, lang)| {
            if !*playing {
                replace_query(&format!("{}&lang={}", share::encode(shared), lang.code()));
            }
        });
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
        use_callback((), move |play: bool, _| {
            d.dispatch(if play { Action::Play } else { Action::Pause })
        })
    };
    let on_hover = {
        let d = dispatcher.clone();
        use_callback((), move |h: Option<(Side, usize)>, _| {
            d.dispatch(Action::Hover(h))
        })
    };

    let panel = |side: Side, sim: &Shared| {
        let testid = if side == Side::A {
            "figure-a"
        } else {
            "figure-b"
        };
        let hover = state.hover.filter(|h| h.0 == side).map(|h| h.1);
        let faults = state.controls.faults_for_shape();
        let stragglers: Vec<usize> = faults.stragglers.iter().map(|s| s.rank).collect();
        let on_gpu = {
            let (c, on) = (state.controls.clone(), on_controls.clone());
            // A clicked GPU joins late by half of this run's time (at least 1 µs), enough to see.
            let delay = ((end / 2.0) * 1e6).round().max(1.0) / 1e6;
            Callback::from(move |rank: usize| {
                let late = c.faults.stragglers.iter().any(|s| s.rank == rank);
                on.emit(c.with_straggler(rank, if late { 0.0 } else { delay }));
            })
        };
        html! {
            <section class="run" data-testid={testid}>
                <Figure sim={sim.clone()} t_secs={t} side={side} hover={hover} on_hover={on_hover.clone()}
                        on_gpu={on_gpu} stragglers={stragglers} />
                <FaultsLine faults={faults} />
                <LinkInfo sim={sim.clone()} t_secs={t} line={hover}
                          controls={Some(state.controls.clone())} on_change={on_controls.clone()} />
                <Results sim={sim.clone()} />
                <Buffers sim={sim.clone()} t_secs={t} />
                <LinkTimeline sim={sim.clone()} t_secs={t} end_secs={end} />
            </section>
        }
    };

    html! {
        <div class="app">
            <header class="masthead">
                <h1>{ "allreduce-lab" }</h1>
                <p class="tagline">{ tr(lang, Key::LabTagline) }</p>
            </header>
            if let Err(e) = &*link {
                <p class="url-error" role="alert" data-testid="url-error">
                    { tr(lang, Key::UrlError) }<span lang="en">{ e.clone() }</span>
                </p>
            }
            <div class="layout">
                <ControlsPanel
                    controls={state.controls.clone()}
                    compare={state.compare}
                    algorithm_b={state.algorithm_b}
                    on_change={on_controls.clone()}
                    on_compare={on_compare}
                    on_algorithm_b={on_algorithm_b}
                    cli_a={sim_a.0.cli.clone()}
                    cli_b={state.compare.then(|| sim_b.0.cli.clone())}
                />
                <main class="stage">
                    <Transport
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
                    <div class={classes!("runs", state.compare.then_some("compare"))}>
                        { panel(Side::A, &sim_a) }
                        if state.compare { { panel(Side::B, &sim_b) } }
                    </div>
                    <Files controls={state.controls.clone()} sim={sim_a.clone()} on_import={on_controls.clone()} />
                </main>
            </div>
            <ScalingSection />
            <footer class="foot">
                { tr(lang, Key::LabFooter) }
            </footer>
        </div>
    }
}
