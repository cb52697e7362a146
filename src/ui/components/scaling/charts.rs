//! The section's charts: speedup over the GPU counts, where a step's time goes, and a virtual
//! nccl-tests sweep (time and bus bandwidth) at the focus count, with its crossovers. Each card
//! reads the setup and the points computed so far; none computes a point.

use super::algorithm_class;
use super::points::Points;
use crate::sim::algorithms::Algorithm;
use crate::sim::nccl::model::Choice;
use crate::sim::sweep::{SweepRow, crossovers};
use crate::sim::training::StepBreakdown;
use crate::sim::units::{Bandwidth, format_bytes};
use crate::ui::components::charts::{Bar, LineChart, Marker, Series, SeriesPoint, StackedBars};
use crate::ui::components::inputs::select_value;
use crate::ui::i18n::{Key, Lang, algorithm_label, hardware_texts, tr, trf, use_lang};
use crate::ui::model::chart_math::{Axis, Unit, format_bytes_binary, format_value};
use crate::ui::model::scaling::{
    Point, SWEEP_FACTOR, SWEEP_MAX_BYTES, SWEEP_MIN_BYTES, Setup, segments,
};
use crate::ui::model::versus::MIN_SEGMENT_BYTES;
use std::rc::Rc;
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct ChartProps {
    pub setup: Setup,
    pub points: Points,
}

/// Speedup against the GPU count, per algorithm (or NCCL's), with the ideal line. (This card,
/// the sweep's and the notes are functions of the section's render: each Yew component type costs
/// the page about 470 B of mount, create and reuse code, and the line charts inside are
/// components, which redraw only when their series change.)
pub fn speedup_card(lang: Lang, setup: &Setup, points: &Points) -> Html {
    let nccl = setup.nccl;
    let counts = setup.gpu_counts();
    let max_count = counts.last().copied().unwrap_or(1) as f64;
    let mut series = vec![Series {
        label: tr(lang, Key::Ideal).into(),
        class: "ideal".into(),
        points: counts
            .iter()
            .map(|&n| SeriesPoint {
                x: n as f64,
                y: n as f64,
                testid: None,
            })
            .collect(),
        reference: true,
    }];
    let nccl_steps = nccl_speedups(points);
    if let Some(pick) = nccl {
        series.push(Series {
            label: trf(lang, Key::ScalingNcclSeries, &[pick.system]).into(),
            class: "model-nccl".into(),
            points: nccl_steps
                .iter()
                .map(|(s, _)| SeriesPoint {
                    x: s.gpus as f64,
                    y: s.speedup,
                    testid: Some(format!("speedup-point-nccl-{}", s.gpus).into()),
                })
                .collect(),
            reference: false,
        });
    }
    for &a in setup.algorithms.iter().filter(|_| nccl.is_none()) {
        series.push(Series {
            label: algorithm_label(lang, a).into(),
            class: algorithm_class(a),
            points: speedups(points, a)
                .iter()
                .map(|s| SeriesPoint {
                    x: s.gpus as f64,
                    y: s.speedup,
                    testid: Some(format!("speedup-point-{}-{}", a.name(), s.gpus).into()),
                })
                .collect(),
            reference: false,
        });
    }
    let speedup_axis = Axis::log(Unit::Times, 1.0, max_count);
    let gpu_axis = Axis::log(Unit::Count, 1.0, max_count);
    html! {
        <div class="chart-card">
            <h3>{ tr(lang, Key::SpeedupVsCount) }</h3>
            <p class="chart-note">{ trf(lang, Key::SpeedupNote, &[nccl.map_or(hardware_texts(lang, &setup.hardware).0, |p| p.system), &format_bytes(setup.training().gradient_bytes() as f64)]) }</p>
            <LineChart testid="speedup-chart" title={tr(lang, Key::SpeedupChartTitle)}
                x={gpu_axis} y={speedup_axis} x_label={tr(lang, Key::GpusLog)} y_label={tr(lang, Key::SpeedupLog)}
                series={Rc::new(series)} value_attr="data-speedup" />
        </div>
    }
}

/// A step broken into compute, exposed IO and exposed communication, for one algorithm.
#[component]
pub fn BreakdownCard(props: &ChartProps) -> Html {
    let lang = use_lang();
    let (setup, points) = (&props.setup, &props.points);
    let nccl = setup.nccl;
    let breakdown_alg = use_state(|| Algorithm::Ring);
    let nccl_steps = nccl_speedups(points);
    let shown_breakdown = if setup.algorithms.contains(&breakdown_alg) {
        *breakdown_alg
    } else {
        setup.algorithms[0]
    };
    let steps: Vec<StepBreakdown> = if nccl.is_some() {
        nccl_steps.iter().map(|(s, _)| *s).collect()
    } else {
        speedups(points, shown_breakdown)
    };
    let focus = setup.sweep_gpus();
    let bars: Vec<Bar> = steps
        .iter()
        .map(|s| Bar {
            label: s.gpus.to_string().into(),
            parts: vec![s.compute_secs, s.exposed_io_secs, s.exposed_comm_secs],
            highlight: s.gpus == focus,
            testid: format!("breakdown-bar-{}", s.gpus).into(),
        })
        .collect();
    let step_axis = Axis::linear_fit(Unit::Secs, steps.iter().map(|s| s.step_secs));
    let on_breakdown = {
        let breakdown_alg = breakdown_alg.clone();
        Callback::from(move |e: Event| {
            if let Ok(a) = select_value(&e).parse::<Algorithm>() {
                breakdown_alg.set(a);
            }
        })
    };
    html! {
        <div class="chart-card">
            <h3>
                { tr(lang, Key::WhereTimeGoes) }
                <select data-testid="breakdown-algorithm" aria-label={tr(lang, Key::Algorithm)} onchange={on_breakdown} key={shown_breakdown.name()} hidden={nccl.is_some()}>
                    { for setup.algorithms.iter().map(|a| html! {
                        <option value={a.name()} selected={*a == shown_breakdown}>{ algorithm_label(lang, *a) }</option>
                    }) }
                </select>
            </h3>
            <p class="chart-note">{ trf(lang, Key::BreakdownNote, &[&focus.to_string()]) }</p>
            <StackedBars testid="breakdown-chart" title={tr(lang, Key::BreakdownTitle)}
                parts={Rc::new(vec![(tr(lang, Key::PartCompute).into(), "part-compute".into()), (tr(lang, Key::PartIo).into(), "part-io".into()), (tr(lang, Key::PartComm).into(), "part-comm".into())])}
                bars={Rc::new(bars)} y={step_axis} x_label={tr(lang, Key::GpusAxis)} y_label={tr(lang, Key::StepTimeAxis)} />
        </div>
    }
}

/// The virtual nccl-tests sweep at the focus count: time and bus bandwidth against the size, the
/// crossovers between algorithms, NCCL's choices and the segments each tree uses.
pub fn sweep_cards(lang: Lang, setup: &Setup, points: &Points) -> Html {
    let nccl = setup.nccl;
    let focus = setup.sweep_gpus();
    let rows: Vec<Vec<SweepRow>> = setup
        .algorithms
        .iter()
        .map(|&a| sweep_rows(points, a))
        .collect();
    let nccl_rows = nccl_sweep_rows(points);
    let sweep_series = |value: fn(&SweepRow) -> f64, attr: &str| -> Rc<Vec<Series>> {
        if let Some(pick) = nccl {
            let point = |c: &Choice| SweepRow {
                size_bytes: c.size_bytes,
                count: c.size_bytes / 4,
                time_secs: c.time_secs,
                algbw_bytes_per_sec: c.algbw_bytes_per_sec(),
                busbw_bytes_per_sec: c.busbw_bytes_per_sec(),
                algorithm: Algorithm::Ring,
            };
            return Rc::new(vec![Series {
                label: trf(lang, Key::ScalingNcclSeries, &[pick.system]).into(),
                class: "model-nccl".into(),
                points: nccl_rows
                    .iter()
                    .map(|c| SeriesPoint {
                        x: c.size_bytes as f64,
                        y: value(&point(c)),
                        testid: Some(format!("{attr}-point-nccl-{}", c.size_bytes).into()),
                    })
                    .collect(),
                reference: false,
            }]);
        }
        Rc::new(
            setup
                .algorithms
                .iter()
                .zip(&rows)
                .map(|(&a, rs)| Series {
                    label: algorithm_label(lang, a).into(),
                    class: algorithm_class(a),
                    points: rs
                        .iter()
                        .map(|r| SeriesPoint {
                            x: r.size_bytes as f64,
                            y: value(r),
                            testid: Some(
                                format!("{attr}-point-{}-{}", a.name(), r.size_bytes).into(),
                            ),
                        })
                        .collect(),
                    reference: false,
                })
                .collect(),
        )
    };
    let n_sizes = crate::sim::sweep::sizes(SWEEP_MIN_BYTES, SWEEP_MAX_BYTES, SWEEP_FACTOR)
        .map_or(0, |s| s.len());
    let sweep_done = rows.iter().all(|r| r.len() == n_sizes);
    let markers: Rc<Vec<Marker>> = Rc::new(
        if nccl.is_none() && sweep_done && setup.algorithms.len() > 1 {
            crossovers(&setup.algorithms, &rows)
                .into_iter()
                .map(|(before, after, a, b)| Marker {
                    x: ((before as f64) * (after as f64)).sqrt(),
                    label: format!(
                        "{} → {}",
                        algorithm_label(lang, a),
                        algorithm_label(lang, b)
                    )
                    .into(),
                    testid: "crossover".into(),
                    title: trf(
                        lang,
                        Key::Crossover,
                        &[
                            &format_value(Unit::Bytes, before as f64),
                            &format_value(Unit::Bytes, after as f64),
                            algorithm_label(lang, a),
                            algorithm_label(lang, b),
                        ],
                    )
                    .into(),
                })
                .collect()
        } else {
            Vec::new()
        },
    );
    let size_axis = Axis::log(Unit::Bytes, SWEEP_MIN_BYTES as f64, SWEEP_MAX_BYTES as f64);
    let time_axis = if nccl.is_some() {
        Axis::log_fit(Unit::Secs, nccl_rows.iter().map(|c| c.time_secs))
    } else {
        Axis::log_fit(Unit::Secs, rows.iter().flatten().map(|r| r.time_secs))
    };
    let busbw_axis = if nccl.is_some() {
        Axis::linear_fit(
            Unit::BytesPerSec,
            nccl_rows.iter().map(|c| c.busbw_bytes_per_sec()),
        )
    } else {
        Axis::linear_fit(
            Unit::BytesPerSec,
            rows.iter().flatten().map(|r| r.busbw_bytes_per_sec),
        )
    };
    html! {
        <>
        <div class="chart-card">
            <h3>{ trf(lang, Key::SweepTitle, &[&focus.to_string()]) }</h3>
            <p class="chart-note">{ tr(lang, Key::SweepLike) }<code lang="en" translate="no">{ format!("all_reduce_perf -b {SWEEP_MIN_BYTES} -e {}G -f {SWEEP_FACTOR}", SWEEP_MAX_BYTES >> 30) }</code>{ tr(lang, Key::SweepNote) }</p>
            <LineChart testid="sweep-chart" title={tr(lang, Key::SweepChartTitle)}
                x={size_axis} y={time_axis} x_label={tr(lang, Key::SizeLog)} y_label={tr(lang, Key::TimeLog)}
                series={sweep_series(|r| r.time_secs, "time")} markers={markers.clone()} value_attr="data-secs" />
        </div>
        <div class="chart-card">
            <h3>{ trf(lang, Key::BusbwTitle, &[&focus.to_string()]) }</h3>
            <p class="chart-note">{ tr(lang, Key::BusbwNote) }</p>
            <LineChart testid="busbw-chart" title={tr(lang, Key::BusbwChartTitle)}
                x={size_axis} y={busbw_axis} x_label={tr(lang, Key::SizeLog)} y_label={tr(lang, Key::BusBandwidth)}
                series={sweep_series(|r| r.busbw_bytes_per_sec, "busbw")} markers={markers} value_attr="data-busbw" />
        </div>
        </>
    }
}

/// Under the charts: NCCL's choice per size at the focus count, or the segments each tree uses.
pub fn sweep_notes(lang: Lang, setup: &Setup, points: &Points) -> Html {
    let nccl = setup.nccl;
    let focus = setup.sweep_gpus();
    // NCCL's choice at the focus count, per size.
    let nccl_choices = nccl_sweep_rows(points)
        .iter()
        .map(|c| format!("{} {}", format_bytes(c.size_bytes as f64), choice_label(c)))
        .collect::<Vec<_>>()
        .join(", ");
    html! {
        <>
        if nccl.is_some() && !nccl_choices.is_empty() {
            <p class="chart-note" data-testid="scaling-nccl-choices">{ trf(lang, Key::ScalingNcclChoices, &[&focus.to_string()]) }<span lang="en" translate="no">{ nccl_choices }</span></p>
        }
        <p class="chart-note" hidden={nccl.is_some()}>{ trf(lang, Key::SegmentsUsed, &[&setup.algorithms.iter().map(|&a| format!("{} {}", algorithm_label(lang, a), segments(a, focus))).collect::<Vec<_>>().join(", "), &format_bytes_binary(MIN_SEGMENT_BYTES as f64)]) }
            { trf(lang, Key::PerDirection, &[&crate::sim::units::format_bandwidth_bits(Bandwidth::from_gbytes_per_sec(1.0))]) }</p>
        </>
    }
}

/// Speedup points by algorithm, in GPU order.
fn speedups(points: &Points, algorithm: Algorithm) -> Vec<StepBreakdown> {
    let mut v: Vec<StepBreakdown> = points
        .items
        .iter()
        .filter_map(|p| match p {
            Point::Speedup(a, s) if *a == algorithm => Some(*s),
            _ => None,
        })
        .collect();
    crate::sim::order::sort_by_key(&mut v, |s| s.gpus as f64);
    v
}

/// The nccl model's speedup points (with NCCL's choice), in GPU order.
fn nccl_speedups(points: &Points) -> Vec<(StepBreakdown, Option<Choice>)> {
    let mut v: Vec<(StepBreakdown, Option<Choice>)> = points
        .items
        .iter()
        .filter_map(|p| match p {
            Point::NcclSpeedup(s, c) => Some((*s, c.clone())),
            _ => None,
        })
        .collect();
    crate::sim::order::sort_by_key(&mut v, |(s, _)| s.gpus as f64);
    v
}

/// The nccl model's sweep rows, in size order.
fn nccl_sweep_rows(points: &Points) -> Vec<Choice> {
    let mut v: Vec<Choice> = points
        .items
        .iter()
        .filter_map(|p| match p {
            Point::NcclSweep(c) => Some(c.clone()),
            _ => None,
        })
        .collect();
    crate::sim::order::sort_by_key(&mut v, |c| c.size_bytes as f64);
    v
}

/// What NCCL chose, as a point's tooltip: "Ring/Simple, 32 channels".
fn choice_label(c: &Choice) -> String {
    format!("{}/{} × {}", c.algorithm, c.protocol, c.channels)
}

fn sweep_rows(points: &Points, algorithm: Algorithm) -> Vec<SweepRow> {
    let mut v: Vec<SweepRow> = points
        .items
        .iter()
        .filter_map(|p| match p {
            Point::Sweep(a, r) if *a == algorithm => Some(*r),
            _ => None,
        })
        .collect();
    crate::sim::order::sort_by_key(&mut v, |r| r.size_bytes as f64);
    v
}
