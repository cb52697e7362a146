//! §1.5: the knowledge map. The chapter's ideas as a concept map whose boxes link to the sections.

use crate::ui::i18n::{Key, Lang, tr};
use yew::prelude::*;

/// A box of the map: its text, the section it opens (if any), centre x, top y and width.
struct Node {
    id: &'static str,
    key: Key,
    href: Option<&'static str>,
    x: f64,
    y: f64,
    w: f64,
}

const NODES: [Node; 10] = [
    Node {
        id: "root",
        key: Key::MapRoot,
        href: Some("#top"),
        x: 180.0,
        y: 8.0,
        w: 170.0,
    },
    Node {
        id: "hardware",
        key: Key::MapHardware,
        href: Some("#four-layers"),
        x: 62.0,
        y: 84.0,
        w: 114.0,
    },
    Node {
        id: "topology",
        key: Key::MapTopology,
        href: Some("#ring"),
        x: 180.0,
        y: 84.0,
        w: 114.0,
    },
    Node {
        id: "parallel",
        key: Key::MapParallel,
        href: None,
        x: 298.0,
        y: 84.0,
        w: 114.0,
    },
    Node {
        id: "layers",
        key: Key::MapLayers,
        href: Some("#four-layers"),
        x: 62.0,
        y: 164.0,
        w: 114.0,
    },
    Node {
        id: "ring",
        key: Key::MapRing,
        href: Some("#ring"),
        x: 180.0,
        y: 164.0,
        w: 114.0,
    },
    Node {
        id: "tree",
        key: Key::MapTree,
        href: Some("#tree"),
        x: 298.0,
        y: 164.0,
        w: 114.0,
    },
    Node {
        id: "choose",
        key: Key::MapChoose,
        href: Some("#compare"),
        x: 180.0,
        y: 254.0,
        w: 200.0,
    },
    Node {
        id: "speedup",
        key: Key::MapSpeedup,
        href: Some("#why-not-8x"),
        x: 180.0,
        y: 326.0,
        w: 200.0,
    },
    Node {
        id: "claims",
        key: Key::MapClaims,
        href: Some("#claims"),
        x: 180.0,
        y: 398.0,
        w: 200.0,
    },
];

const EDGES: [(&str, &str); 11] = [
    ("root", "hardware"),
    ("root", "topology"),
    ("root", "parallel"),
    ("hardware", "layers"),
    ("topology", "ring"),
    ("topology", "tree"),
    ("layers", "choose"),
    ("ring", "choose"),
    ("tree", "choose"),
    ("choose", "speedup"),
    ("speedup", "claims"),
];

const LINE: f64 = 15.0;
const FONT_UNIT: f64 = 6.4;

/// Splits `text` into lines of at most `units` (a CJK character counts 2, anything else 1): at
/// spaces for words, anywhere between CJK characters.
pub fn wrap(text: &str, units: usize) -> Vec<String> {
    let width = |s: &str| {
        s.chars()
            .map(|c| if c as u32 >= 0x2E80 { 2 } else { 1 })
            .sum::<usize>()
    };
    // Tokens: a word with its trailing space, or a single CJK character.
    let mut tokens: Vec<String> = Vec::new();
    let mut word = String::new();
    for c in text.chars() {
        if c as u32 >= 0x2E80 {
            if !word.is_empty() {
                tokens.push(std::mem::take(&mut word));
            }
            tokens.push(c.to_string());
        } else {
            word.push(c);
            if c == ' ' {
                tokens.push(std::mem::take(&mut word));
            }
        }
    }
    if !word.is_empty() {
        tokens.push(word);
    }
    let mut lines: Vec<String> = vec![String::new()];
    for t in tokens {
        let cur = lines.last_mut().expect("one line at least");
        if !cur.is_empty() && width(cur.trim_end()) + width(t.trim_end()) > units {
            lines.push(t.trim_start().to_string());
        } else {
            cur.push_str(&t);
        }
    }
    lines
        .into_iter()
        .map(|l| l.trim().to_string())
        .filter(|l| !l.is_empty())
        .collect()
}

fn lines(lang: Lang, n: &Node) -> Vec<String> {
    wrap(tr(lang, n.key), ((n.w - 14.0) / FONT_UNIT) as usize)
}

fn height(lines: usize) -> f64 {
    12.0 + LINE * lines as f64
}

pub fn map_section(lang: Lang) -> Html {
    let boxes: Vec<(Vec<String>, f64)> = NODES
        .iter()
        .map(|n| {
            let l = lines(lang, n);
            let h = height(l.len());
            (l, h)
        })
        .collect();
    let find = |id: &str| NODES.iter().position(|n| n.id == id).unwrap_or(0);
    let bottom = NODES
        .iter()
        .zip(&boxes)
        .map(|(n, b)| n.y + b.1)
        .fold(0.0, f64::max)
        + 8.0;
    let edge = |(a, b): &(&str, &str)| {
        let (i, j) = (find(a), find(b));
        let (p, c) = (&NODES[i], &NODES[j]);
        let y1 = p.y + boxes[i].1;
        html! {
            <path class="ch-map-edge" d={format!("M {:.1} {:.1} C {:.1} {:.1}, {:.1} {:.1}, {:.1} {:.1}",
                p.x, y1, p.x, y1 + 24.0, c.x, c.y - 24.0, c.x, c.y)} />
        }
    };
    let node = |(n, (text, h)): (&Node, &(Vec<String>, f64))| {
        let body = html! {
            <>
                <rect x={format!("{:.1}", n.x - n.w / 2.0)} y={n.y.to_string()} width={n.w.to_string()} height={format!("{h:.1}")} rx="8" />
                <text x={n.x.to_string()} y={format!("{:.1}", n.y + 6.0 + LINE - 3.0)}>
                    { for text.iter().enumerate().map(|(i, l)| html! {
                        <tspan x={n.x.to_string()} dy={if i == 0 { "0".to_string() } else { LINE.to_string() }}>{ l.clone() }</tspan>
                    }) }
                </text>
            </>
        };
        match n.href {
            Some(href) => html! {
                <a class={classes!("ch-map-node", n.id)} href={href} data-testid={format!("map-node-{}", n.id)}>{ body }</a>
            },
            None => {
                html! { <g class={classes!("ch-map-node", "later", n.id)} data-testid={format!("map-node-{}", n.id)}>{ body }</g> }
            }
        }
    };
    html! {
        <section id="map" class="ch-section" data-testid="section-map" aria-labelledby="map-title">
            <h2 id="map-title">{ tr(lang, Key::MapTitle) }</h2>
            <p>{ tr(lang, Key::MapBody) }</p>
            <div class="ch-map-wrap">
                <svg class="ch-map" viewBox={format!("0 0 360 {bottom:.0}")} data-testid="knowledge-map" role="group" aria-label={tr(lang, Key::MapTitle)}>
                    { for EDGES.iter().map(edge) }
                    { for NODES.iter().zip(&boxes).map(node) }
                </svg>
            </div>
        </section>
    }
}
