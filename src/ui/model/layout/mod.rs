//! Where things go in the cluster figure: GPUs grouped in nodes and racks, switches above them, and
//! every directed link as a line (up-links and down-links side by side); over 32 GPUs, the racks in
//! two rows, the first upside down above the spine (`Rows`). Up to
//! [`DETAILED_MAX_RANKS`] GPUs every GPU is drawn; beyond, ranks are aggregated into nodes, racks or
//! equal groups, and each drawn line stands for the links it aggregates. Pure geometry, no web types.
//!
//! Size: over 450 lines because about 140 lines are tests; the aggregated and rail drawings are in
//! their own files.

use crate::sim::topology::{Endpoint, Tier, Topology};
use crate::ui::model::logic::DETAILED_MAX_RANKS;

mod aggregated;
mod rail;

#[derive(Clone, Copy, Debug, PartialEq, Default)]
pub struct Point {
    pub x: f64,
    pub y: f64,
}

#[derive(Clone, Copy, Debug, PartialEq, Default)]
pub struct Rect {
    pub x: f64,
    pub y: f64,
    pub w: f64,
    pub h: f64,
}

/// A place the figure names, typed: the text layer words it in the learner's language
/// ([`crate::ui::i18n::place_name`]); `Display` gives the English (`"GPU 3 → node 0"`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Place {
    /// An unnamed marker (a rail's switch is named with its load instead).
    #[default]
    Unnamed,
    /// A link's end in a `cluster` or `rail` topology.
    End(Endpoint),
    /// The one ideal switch of a `uniform` topology.
    Switch,
    /// The whole network drawn as one marker (aggregated view).
    Network,
    /// Ranks `first..=last`, drawn as one box.
    Ranks { first: usize, last: usize },
    /// A directed link (on `uniform` the spine is the one switch).
    Link {
        from: Endpoint,
        to: Endpoint,
        uniform: bool,
    },
    /// A cable: both directions between two ends.
    Cable(Endpoint, Endpoint),
}

/// What one box of the aggregated view stands for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum UnitKind {
    #[default]
    Gpu,
    Node,
    Rack,
    /// Equal groups of this many ranks.
    Group(usize),
}

impl Place {
    /// A link's end: on `uniform` the spine is the one switch.
    pub fn end(e: Endpoint, uniform: bool) -> Place {
        match e {
            Endpoint::Spine if uniform => Place::Switch,
            e => Place::End(e),
        }
    }
}

impl std::fmt::Display for Place {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match *self {
            Place::Unnamed => Ok(()),
            Place::End(Endpoint::Rank(r)) => write!(f, "GPU {r}"),
            Place::End(Endpoint::NodeSwitch(n)) => write!(f, "node {n}"),
            Place::End(Endpoint::RackSwitch(k)) => write!(f, "rack {k}"),
            Place::End(Endpoint::Spine) => f.write_str("spine"),
            Place::End(Endpoint::Nic(n, k)) => write!(f, "node {n} NIC {k}"),
            Place::End(Endpoint::Rail(i)) => write!(f, "rail {i}"),
            Place::Switch => f.write_str("switch"),
            Place::Network => f.write_str("network"),
            Place::Ranks { first, last } => write!(f, "{first}–{last}"),
            Place::Link { from, to, uniform } => write!(
                f,
                "{} → {}",
                Place::end(from, uniform),
                Place::end(to, uniform)
            ),
            Place::Cable(a, b) => write!(f, "{} ↔ {}", Place::End(a), Place::End(b)),
        }
    }
}

/// A box drawn for a group (node, rack) or, aggregated, for a unit of ranks.
#[derive(Clone, Debug, PartialEq)]
pub struct GroupBox {
    pub rect: Rect,
    pub label: Place,
}

/// A line in the figure: one link, or several aggregated ones of the same tier.
#[derive(Clone, Debug, PartialEq)]
pub struct DrawnLink {
    pub links: Vec<usize>,
    pub tier: Tier,
    pub from: Point,
    pub to: Point,
    /// Whether it points towards the spine (drawn on one side) or away (the other side).
    pub up: bool,
}

impl DrawnLink {
    /// Points along the line from `from` to `to`, at most a unit apart, both ends included.
    pub fn points(&self) -> impl Iterator<Item = Point> + '_ {
        let (dx, dy) = (self.to.x - self.from.x, self.to.y - self.from.y);
        let n = dx.hypot(dy).ceil().max(1.0) as usize;
        (0..=n).map(move |i| {
            let t = i as f64 / n as f64;
            Point {
                x: self.from.x + dx * t,
                y: self.from.y + dy * t,
            }
        })
    }
}

/// A unit of the aggregated view: a run of consecutive ranks drawn as one box.
#[derive(Clone, Debug, PartialEq)]
pub struct Unit {
    pub rect: Rect,
    pub first_rank: usize,
    pub ranks: usize,
    pub label: Place,
}

/// A switch marker.
#[derive(Clone, Debug, PartialEq)]
pub struct Switch {
    pub at: Point,
    pub label: Place,
}

#[derive(Clone, Debug, PartialEq, Default)]
pub struct Layout {
    pub width: f64,
    pub height: f64,
    /// Every GPU is drawn (else `units` stand for groups of them).
    pub detailed: bool,
    /// Detailed: the centre of each rank's box.
    pub gpus: Vec<Point>,
    pub gpu_size: f64,
    pub units: Vec<Unit>,
    pub nodes: Vec<GroupBox>,
    pub racks: Vec<GroupBox>,
    pub switches: Vec<Switch>,
    pub lines: Vec<DrawnLink>,
    /// Detailed: for each link id, its index in `lines`.
    pub line_of_link: Vec<usize>,
    /// What one unit stands for in the aggregated view ("node", "rack", "group of N ranks").
    pub unit_name: UnitKind,
    /// On a rail network: each rail's leaf switch and the NIC links on it (every node's NIC i, up
    /// and down), for the per-rail load.
    pub rails: Vec<RailMark>,
    /// The spine drawn as a bar this wide (two rows of racks); 0: a switch like the others.
    pub spine_width: f64,
    /// Nodes too narrow for their names beside their switches: each name goes under its node's
    /// box instead (over it in a row drawn upside down), where no link runs.
    pub node_names_under: bool,
}

/// About how long a switch's name is drawn, in figure units (10-px text: a CJK character is as
/// wide as the text is high, other characters a little over half that).
pub fn name_width(name: &str) -> f64 {
    name.chars()
        .map(|c| if c >= '\u{2E80}' { 10.0 } else { 5.6 })
        .sum()
}

/// How far a switch's name starts right of its marker's centre (half the marker, and a gap).
pub const NAME_AFTER: f64 = 13.0;

/// The largest letters a switch's name is drawn in, in the figure's units: 10 on the page, 13 in
/// presentation mode (present.css).
pub const NAME_LETTERS_MAX: f64 = 13.0;

/// Half the thickness of a link's line at its busiest (the figure draws 1.2 + 5 × load units),
/// with a unit to spare.
pub const WIRE_HALF: f64 = 4.1;

/// How a name is anchored at its spot, as SVG's `text-anchor`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Anchor {
    Start,
    Middle,
    End,
}

/// Where a switch's name is written: its anchor point (on the baseline) and how it hangs there.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct NameSpot {
    pub x: f64,
    pub y: f64,
    pub anchor: Anchor,
}

impl NameSpot {
    /// The box a name takes there, (left, right, top, bottom), at its largest: `width` wide in
    /// the figure's 10-unit letters ([`name_width`]), drawn at [`NAME_LETTERS_MAX`] units.
    pub fn text_box(&self, width: f64) -> (f64, f64, f64, f64) {
        let k = NAME_LETTERS_MAX / 10.0;
        let width = width * k;
        let left = match self.anchor {
            Anchor::Start => self.x,
            Anchor::Middle => self.x - width / 2.0,
            Anchor::End => self.x - width,
        };
        (left, left + width, self.y - 8.0 * k, self.y + 2.5 * k)
    }
}

/// The room a node's name takes under its box.
const NAME_UNDER: f64 = 12.0;

/// How far the spine's bar reaches beyond the outermost uplinks.
const SPINE_BAR_END: f64 = 12.0;

/// A rail of a rail-optimized network: where its leaf switch is drawn (the figure names it and shows
/// its load just above) and which links are its own.
#[derive(Clone, Debug, PartialEq)]
pub struct RailMark {
    pub rail: usize,
    pub at: Point,
    pub links: Vec<usize>,
}

/// The ids of the NIC and uplink links, laid out alike on `cluster` (K NICs per node) and `rail`
/// (one NIC per GPU, one uplink per rail): [gpu up][gpu down][nic up][nic down][uplink up][uplink down].
struct LinkIds {
    n: usize,
    nics: usize,
    uplinks: usize,
}

impl LinkIds {
    fn new(topo: &Topology) -> LinkIds {
        let n = topo.ranks();
        let nics = topo.nodes() * topo.nics_per_node();
        LinkIds {
            n,
            nics,
            uplinks: topo.links().len().saturating_sub(2 * n + 2 * nics) / 2,
        }
    }
    fn nic_up(&self, topo: &Topology, node: usize, j: usize) -> usize {
        2 * self.n + node * topo.nics_per_node() + j
    }
    fn nic_down(&self, topo: &Topology, node: usize, j: usize) -> usize {
        2 * self.n + self.nics + node * topo.nics_per_node() + j
    }
    fn uplink_up(&self, u: usize) -> usize {
        2 * self.n + 2 * self.nics + u
    }
    fn uplink_down(&self, u: usize) -> usize {
        2 * self.n + 2 * self.nics + self.uplinks + u
    }
}

const MARGIN: f64 = 24.0;
const Y_SPINE: f64 = 34.0;
const Y_RACK: f64 = 110.0;
const Y_NODE: f64 = 190.0;
const Y_GPU: f64 = 280.0;
/// Half the gap between a link's up and down lines.
const LANE: f64 = 2.6;

fn offset(a: Point, b: Point, by: f64) -> (Point, Point) {
    let (dx, dy) = (b.x - a.x, b.y - a.y);
    let len = (dx * dx + dy * dy).sqrt().max(1e-9);
    let (nx, ny) = (-dy / len * by, dx / len * by);
    (
        Point {
            x: a.x + nx,
            y: a.y + ny,
        },
        Point {
            x: b.x + nx,
            y: b.y + ny,
        },
    )
}

/// The space each GPU takes across a detailed figure: less as there are more.
fn slot_for(ranks: usize) -> f64 {
    if ranks <= 16 {
        44.0
    } else if ranks <= 32 {
        30.0
    } else {
        22.0
    }
}

impl Layout {
    /// One link each way between `child` and `parent`, a line each.
    fn link_pair(&mut self, tier: Tier, child: Point, parent: Point, up: usize, down: usize) {
        pair(&mut self.lines, tier, child, parent, vec![up], vec![down]);
    }

    /// Which line draws each of the topology's `links`, once every line is pushed.
    fn index_lines(&mut self, links: usize) {
        self.line_of_link = vec![0; links];
        for (i, line) in self.lines.iter().enumerate() {
            for &l in &line.links {
                self.line_of_link[l] = i;
            }
        }
    }

    /// Rail `rail`'s leaf switch, unnamed here (its `RailMark` names it with its load, where the
    /// wires do not cross), and its uplink to the spine; returns where the switch stands.
    fn push_rail_switch(&mut self, ids: &LinkIds, g: usize, rail: usize, spine: Point) -> Point {
        let at = rail_at(self.width, g, rail);
        self.switches.push(Switch {
            at,
            label: Place::Unnamed,
        });
        let (up, down) = (ids.uplink_up(rail), ids.uplink_down(rail));
        self.link_pair(Tier::Rack, at, spine, up, down);
        at
    }
}

/// The up and down lines between a child at `child` and its parent at `parent`.
fn pair(
    lines: &mut Vec<DrawnLink>,
    tier: Tier,
    child: Point,
    parent: Point,
    up: Vec<usize>,
    down: Vec<usize>,
) {
    let (a, b) = offset(child, parent, LANE);
    lines.push(DrawnLink {
        links: up,
        tier,
        from: a,
        to: b,
        up: true,
    });
    let (a, b) = offset(child, parent, -LANE);
    lines.push(DrawnLink {
        links: down,
        tier,
        from: b,
        to: a,
        up: false,
    });
}

impl Layout {
    pub fn new(topo: &Topology) -> Layout {
        if topo.ranks() <= DETAILED_MAX_RANKS {
            Layout::detailed(topo)
        } else {
            Layout::aggregated(topo)
        }
    }

    fn detailed(topo: &Topology) -> Layout {
        if topo.is_rail() {
            return Layout::detailed_rail(topo);
        }
        let ids = LinkIds::new(topo);
        let n = topo.ranks();
        let g = topo.gpus_per_node();
        let npr = topo.nodes_per_rack();
        let uniform = topo.is_uniform();
        let mut rows = Rows::new(topo);
        let slot = slot_for(rows.widest(g * npr, n));
        // Beside its switch a node's name has half its box, less the marker: "node 15" (the
        // longest in a detailed figure, as long as "节点 15") did not fit two GPUs of 30 units.
        let longest = name_width(&format!("node {}", topo.nodes().saturating_sub(1)));
        let node_names_under = !uniform && g as f64 * slot / 2.0 - 2.0 - NAME_AFTER < longest + 2.0;
        if node_names_under {
            rows.under = NAME_UNDER;
        }
        let node_gap = if uniform { 0.0 } else { slot * 0.5 };
        let rack_gap = if uniform { 0.0 } else { slot * 0.9 };
        // Each row's GPUs from the left, then each row centred on the widest.
        let mut gpus = Vec::with_capacity(n);
        let mut ends = [0.0; 2];
        let mut x = MARGIN + slot / 2.0;
        for r in 0..n {
            let row = rows.of(r / (g * npr));
            if r > 0 && row != rows.of((r - 1) / (g * npr)) {
                x = MARGIN + slot / 2.0;
            } else if r > 0 && !uniform {
                if r % (g * npr) == 0 {
                    x += rack_gap + node_gap;
                } else if r % g == 0 {
                    x += node_gap;
                }
            }
            gpus.push(Point {
                x,
                y: rows.y(row, Y_GPU, slot),
            });
            ends[row] = x + slot / 2.0 + MARGIN;
            x += slot;
        }
        let width = ends[0].max(ends[1]).max(360.0);
        for (r, p) in gpus.iter_mut().enumerate() {
            let row = rows.of(r / (g * npr));
            p.x += (width - ends[row]) / 2.0;
        }
        let gpu_size = slot * 0.62;
        let mut layout = Layout {
            width,
            height: rows.height(slot),
            detailed: true,
            gpu_size,
            node_names_under,
            unit_name: UnitKind::Gpu,
            ..Layout::default()
        };
        let centre = |lo: usize, hi: usize| (gpus[lo].x + gpus[hi - 1].x) / 2.0;
        if uniform {
            let sw = Point {
                x: width / 2.0,
                y: Y_NODE - 40.0,
            };
            layout.switches.push(Switch {
                at: sw,
                label: Place::Switch,
            });
            for (r, &p) in gpus.iter().enumerate() {
                layout.link_pair(Tier::Gpu, top(p, gpu_size), sw, r, n + r);
            }
        } else {
            let m = topo.nodes();
            let k = topo.racks();
            // Between two rows the spine is a bar under (and over) the racks' switches, each
            // uplink straight into it: a point there put the uplinks of opposite racks on one
            // line, which read as a cable from rack to rack.
            let rack_x = |rack: usize| centre(rack * npr * g, (rack + 1) * npr * g);
            let spine = if rows.two {
                let (lo, hi) = (0..k)
                    .map(rack_x)
                    .fold((f64::INFINITY, 0.0f64), |(a, b), x| (a.min(x), b.max(x)));
                layout.spine_width = hi - lo + SPINE_BAR_END * 2.0;
                Point {
                    x: (lo + hi) / 2.0,
                    y: rows.spine(slot),
                }
            } else {
                Point {
                    x: width / 2.0,
                    y: Y_SPINE,
                }
            };
            layout.switches.push(Switch::spine(spine));
            for rack in 0..k {
                let (lo, hi) = (rack * npr * g, (rack + 1) * npr * g);
                let row = rows.of(rack);
                let at = Point {
                    x: centre(lo, hi),
                    y: rows.y(row, Y_RACK, slot),
                };
                // Room for the rack's name at its top: above the switch, or above the GPUs of a
                // row drawn upside down.
                let (y, h) = rows.span(
                    row,
                    Y_RACK - 18.0,
                    Y_GPU + slot * 0.5 + rows.under + if rows.flipped(row) { 22.0 } else { 12.0 },
                    slot,
                );
                layout.racks.push(GroupBox {
                    rect: Rect {
                        x: gpus[lo].x - slot / 2.0 - node_gap * 0.5,
                        y,
                        w: gpus[hi - 1].x - gpus[lo].x + slot + node_gap,
                        h,
                    },
                    label: Place::End(Endpoint::RackSwitch(rack)),
                });
                layout.switches.push(Switch {
                    at,
                    label: Place::End(Endpoint::RackSwitch(rack)),
                });
                let into = if rows.two {
                    Point {
                        x: at.x,
                        y: spine.y + if rows.flipped(row) { -6.0 } else { 6.0 },
                    }
                } else {
                    spine
                };
                layout.link_pair(
                    Tier::Rack,
                    at,
                    into,
                    ids.uplink_up(rack),
                    ids.uplink_down(rack),
                );
            }
            for node in 0..m {
                let (lo, hi) = (node * g, (node + 1) * g);
                let row = rows.of(node / npr);
                let at = Point {
                    x: centre(lo, hi),
                    y: rows.y(row, Y_NODE, slot),
                };
                let (y, h) = rows.span(row, Y_NODE - 14.0, Y_GPU + slot * 0.5 + 4.0, slot);
                layout.nodes.push(GroupBox {
                    rect: Rect {
                        x: gpus[lo].x - slot / 2.0 + 2.0,
                        y,
                        w: gpus[hi - 1].x - gpus[lo].x + slot - 4.0,
                        h,
                    },
                    label: Place::End(Endpoint::NodeSwitch(node)),
                });
                layout.switches.push(Switch {
                    at,
                    label: Place::End(Endpoint::NodeSwitch(node)),
                });
                let rack_at = Point {
                    x: centre(node / npr * npr * g, (node / npr + 1) * npr * g),
                    y: rows.y(row, Y_RACK, slot),
                };
                // One NIC: from the node switch. Several: each from above the GPUs that use it.
                let nics = topo.nics_per_node();
                for j in 0..nics {
                    let from = if nics == 1 {
                        at
                    } else {
                        let (a, b) = (topo.first_gpu_of_nic(j), topo.first_gpu_of_nic(j + 1));
                        Point {
                            x: centre(lo + a, lo + b),
                            y: at.y,
                        }
                    };
                    layout.link_pair(
                        Tier::Node,
                        from,
                        rack_at,
                        ids.nic_up(topo, node, j),
                        ids.nic_down(topo, node, j),
                    );
                }
                for (r, &p) in gpus.iter().enumerate().take(hi).skip(lo) {
                    // The GPU's side that faces its node's switch.
                    let toward = if rows.flipped(row) {
                        Point {
                            x: p.x,
                            y: p.y + gpu_size / 2.0,
                        }
                    } else {
                        top(p, gpu_size)
                    };
                    layout.link_pair(Tier::Gpu, toward, at, r, n + r);
                }
            }
        }
        layout.gpus = gpus;
        layout.index_lines(topo.links().len());
        layout
    }

    /// Where the name of the switch at `at` (its marker `marker` wide, the name `width` wide in
    /// 10-unit letters) is written: the first of these spots that no drawn link comes near at its
    /// thickest (a link busy to capacity, [`WIRE_HALF`] each side of its line), the name at its
    /// largest ([`NameSpot::text_box`]): beside it, on the side away from its uplinks, then the
    /// other side, the same a little lower, above it to either side, centred above (the spine's
    /// first: its uplinks leave it on both sides), then under it to either side; else the first.
    /// The spine's and the racks' names beside them were struck through by their uplinks.
    /// Where no spot is clear, the first inside the figure and off the other switches, even if a
    /// link runs by.
    pub fn name_spot(&self, label: &Place, at: Point, marker: f64, width: f64) -> NameSpot {
        self.spot(label, at, marker, width, true)
            .or_else(|| self.spot(label, at, marker, width, false))
            .unwrap_or_else(|| self.name_spots(label, at, marker)[0])
    }

    /// [`name_spot`](Self::name_spot)'s first spot that is also inside the figure and off every
    /// other switch's marker, or `None` when there is none (many racks side by side: their names
    /// ran into the next switch and off the figure's edges).
    pub fn clear_name_spot(
        &self,
        label: &Place,
        at: Point,
        marker: f64,
        width: f64,
    ) -> Option<NameSpot> {
        self.spot(label, at, marker, width, true)
    }

    /// The first of the spots inside the figure and off the other switches, and with `off_links`
    /// off every drawn link.
    fn spot(
        &self,
        label: &Place,
        at: Point,
        marker: f64,
        width: f64,
        off_links: bool,
    ) -> Option<NameSpot> {
        let (x, y, half) = (at.x, at.y, marker / 2.0);
        let near = |p: Point, (x0, x1, y0, y1): (f64, f64, f64, f64)| {
            p.x > x0 - WIRE_HALF
                && p.x < x1 + WIRE_HALF
                && p.y > y0 - WIRE_HALF
                && p.y < y1 + WIRE_HALF
        };
        let clear = |spot: &NameSpot| {
            let r = spot.text_box(width);
            let inside = r.0 >= 0.0 && r.1 <= self.width;
            let off_switches = self.switches.iter().all(|o| {
                let w = if o.label == Place::End(Endpoint::Spine) {
                    self.spine_width.max(18.0)
                } else {
                    18.0
                } / 2.0;
                o.at == at
                    || r.1 <= o.at.x - w
                    || r.0 >= o.at.x + w
                    || r.3 <= o.at.y - 6.0
                    || r.2 >= o.at.y + 6.0
            });
            inside
                && off_switches
                && (!off_links
                    || self.lines.iter().flat_map(DrawnLink::points).all(|p| {
                        // Under the switch's marker a line is hidden.
                        let hidden = (p.x - x).abs() <= half && (p.y - y).abs() <= 6.0;
                        hidden || !near(p, r)
                    }))
        };
        self.name_spots(label, at, marker)
            .into_iter()
            .find(|s| clear(s))
    }

    /// Whether the racks' switches are too close side by side for their names, as `name` spells
    /// them, anywhere clear ([`clear_name_spot`](Self::clear_name_spot)): then each is numbered.
    pub fn rack_names_crowded(&self, name: impl Fn(&Place) -> String) -> bool {
        self.switches.iter().any(|s| {
            matches!(s.label, Place::End(Endpoint::RackSwitch(_)))
                && self
                    .clear_name_spot(&s.label, s.at, 18.0, name_width(&name(&s.label)))
                    .is_none()
        })
    }

    /// The spots [`name_spot`](Self::name_spot) tries, in its order.
    fn name_spots(&self, label: &Place, at: Point, marker: f64) -> [NameSpot; 9] {
        let (x, y, half) = (at.x, at.y, marker / 2.0);
        let beside_right = NameSpot {
            x: x + half + 6.0,
            y: y + 2.0,
            anchor: Anchor::Start,
        };
        let beside_left = NameSpot {
            x: x - half - 6.0,
            y: y + 2.0,
            anchor: Anchor::End,
        };
        // Clear of an uplink straight up (its two lines a lane either side of the centre).
        let above_right = NameSpot {
            x: x + 8.0,
            y: y - 9.0,
            anchor: Anchor::Start,
        };
        let above_left = NameSpot {
            x: x - 8.0,
            y: y - 9.0,
            anchor: Anchor::End,
        };
        let above = NameSpot {
            x,
            y: y - 9.0,
            anchor: Anchor::Middle,
        };
        // Beside it and lower: under links that fan out upwards (a rail network's node switch,
        // under its GPUs).
        let low = |s: NameSpot| NameSpot { y: y + 6.0, ..s };
        let (r, l) = (beside_right, beside_left);
        // Under it: a rack drawn upside down (over a spine bar), its nodes above it.
        let below = |s: NameSpot| NameSpot { y: y + 18.0, ..s };
        let (ar, al) = (above_right, above_left);
        if *label == Place::End(Endpoint::Spine) {
            [above, r, l, low(r), low(l), ar, al, below(ar), below(al)]
        } else if self.uplinks_go_right(at) {
            [l, r, low(l), low(r), al, ar, above, below(al), below(ar)]
        } else {
            [r, l, low(r), low(l), ar, al, above, below(ar), below(al)]
        }
    }

    /// Whether every link from the switch at `at` to a point higher in the figure runs to the
    /// right of it (towards the spine, or towards the GPUs of a rack drawn upside down)
    /// (and there is one): its name, written beside it, goes on its left, off the uplink.
    ///
    /// ```
    /// use allreduce_lab::sim::topology::{Endpoint, Topology, TopologySpec};
    /// use allreduce_lab::sim::units::Bandwidth;
    /// use allreduce_lab::ui::model::layout::{Layout, Place};
    /// let spec = TopologySpec::Cluster {
    ///     racks: 2, nodes_per_rack: 2, gpus_per_node: 8,
    ///     intra_bw: Bandwidth::from_gbytes_per_sec(450.0), intra_lat_secs: 1e-6,
    ///     node_bw: Bandwidth::from_gbits_per_sec(400.0), node_lat_secs: 2e-6,
    ///     rack_bw: Bandwidth::from_gbits_per_sec(200.0), rack_lat_secs: 5e-6,
    ///     oversubscription: 1.0, nics_per_node: 1,
    /// };
    /// let layout = Layout::new(&Topology::new(&spec).unwrap());
    /// let at = |e| layout.switches.iter().find(|s| s.label == Place::End(e)).unwrap().at;
    /// // Rack 0 and its first node lean towards the middle; rack 1 and rack 0's second node not.
    /// assert!(layout.uplinks_go_right(at(Endpoint::RackSwitch(0))));
    /// assert!(!layout.uplinks_go_right(at(Endpoint::RackSwitch(1))));
    /// assert!(layout.uplinks_go_right(at(Endpoint::NodeSwitch(0))));
    /// assert!(!layout.uplinks_go_right(at(Endpoint::NodeSwitch(1))));
    /// assert!(!layout.uplinks_go_right(at(Endpoint::Spine))); // nothing above it
    /// ```
    pub fn uplinks_go_right(&self, at: Point) -> bool {
        // A link's two lines are drawn a lane to either side of the switch's centre.
        let same = |p: Point| (p.x - at.x).hypot(p.y - at.y) <= LANE + 0.5;
        let mut above = self.lines.iter().filter_map(|l| {
            let other = if same(l.from) {
                l.to
            } else if same(l.to) {
                l.from
            } else {
                return None;
            };
            (other.y < at.y - 1.0).then_some(other.x)
        });
        let first = above.next();
        first.is_some_and(|x| x > at.x) && above.all(|x| x > at.x)
    }

    /// Where node `node`'s name is written when [`node_names_under`](Self::node_names_under):
    /// centred under its box, or over it in a row drawn upside down (its GPUs above its switch);
    /// the text's baseline.
    pub fn name_under(&self, node: usize) -> Point {
        let r = self.nodes[node].rect;
        let g = self.gpus.len() / self.nodes.len().max(1);
        let upside_down = self.gpus[node * g].y < r.y + r.h / 2.0;
        Point {
            x: r.x + r.w / 2.0,
            y: if upside_down {
                r.y - 4.0
            } else {
                r.y + r.h + 10.0
            },
        }
    }

    /// Where a transfer on `route` is after `progress` (0..=1) of its path (detailed view only),
    /// its path's two ends moved in by `inset` (at most a quarter of its length each): a chunk
    /// drawn `inset` across then leaves its sender's box whole and stops short of its receiver's,
    /// instead of covering their numbers.
    pub fn along_route(&self, route: &[u32], progress: f64, inset: f64) -> Option<Point> {
        if !self.detailed || route.is_empty() {
            return None;
        }
        let segs: Vec<(Point, Point)> = route
            .iter()
            .map(|&l| {
                let line = &self.lines[self.line_of_link[l as usize]];
                (line.from, line.to)
            })
            .collect();
        let len = |(a, b): &(Point, Point)| ((b.x - a.x).powi(2) + (b.y - a.y).powi(2)).sqrt();
        let total: f64 = segs.iter().map(len).sum();
        let inset = inset.clamp(0.0, total / 4.0);
        let mut left = inset + progress.clamp(0.0, 1.0) * (total - 2.0 * inset);
        for s in &segs {
            let l = len(s);
            if left <= l || l == 0.0 {
                let f = if l > 0.0 { left / l } else { 0.0 };
                return Some(Point {
                    x: s.0.x + (s.1.x - s.0.x) * f,
                    y: s.0.y + (s.1.y - s.0.y) * f,
                });
            }
            left -= l;
        }
        segs.last().map(|s| s.1)
    }
}

/// The rows a detailed cluster is drawn in: one, as wide as the cluster, or (with more than one
/// rack) two, the first half of the racks upside down above the spine and the rest below it.
/// Two rows when the cluster has more than 32 GPUs, or when one row would draw its names at
/// a quarter smaller in a typical lab figure (the 64-GPU figure in one row drew its names
/// 6.6-7.3 px high on a 1,440-px page; 32 GPUs in 2 racks of 8 two-GPU nodes, 7.1 px at 1,280).
struct Rows {
    /// Racks in the first row (all of them when there is one row).
    first: usize,
    two: bool,
    /// The room under the nodes' boxes for their names (`Layout::node_names_under`).
    under: f64,
}

/// The room a lab figure typically has on a laptop's page, in pixels: how wide, and how high.
const TYPICAL_BOX: (f64, f64) = (900.0, 600.0);

impl Rows {
    fn new(topo: &Topology) -> Rows {
        let (one, two) = (Rows::with(topo, false), Rows::with(topo, true));
        if two.two && (topo.ranks() > 32 || two.text_scale(topo) > one.text_scale(topo) * 1.25) {
            two
        } else {
            one
        }
    }

    /// In one row, or in two where there are racks for two.
    fn with(topo: &Topology, two: bool) -> Rows {
        let k = if topo.is_uniform() { 1 } else { topo.racks() };
        let two = two && k >= 2;
        Rows {
            first: if two { k.div_ceil(2) } else { k },
            two,
            under: 0.0,
        }
    }

    /// How large the figure's text comes out in [`TYPICAL_BOX`] (1: as written), for this choice
    /// of rows.
    fn text_scale(&self, topo: &Topology) -> f64 {
        let (g, npr) = (topo.gpus_per_node(), topo.nodes_per_rack());
        let per_rack = g * npr;
        let slot = slot_for(self.widest(per_rack, topo.ranks()));
        let racks = self.first;
        // As `Layout::detailed` spaces them: a node's gap after every node, a rack's after every rack.
        let width = (2.0 * MARGIN
            + (racks * per_rack) as f64 * slot
            + (racks * npr - 1) as f64 * slot * 0.5
            + (racks - 1) as f64 * slot * 0.9)
            .max(360.0);
        (TYPICAL_BOX.0 / width).min(TYPICAL_BOX.1 / self.height(slot))
    }

    /// The row of `rack`.
    fn of(&self, rack: usize) -> usize {
        usize::from(self.two && rack >= self.first)
    }

    /// GPUs in the widest row, of `per_rack` each (`n` in all).
    fn widest(&self, per_rack: usize, n: usize) -> usize {
        if self.two { self.first * per_rack } else { n }
    }

    /// Drawn upside down: the first of two rows.
    fn flipped(&self, row: usize) -> bool {
        self.two && row == 0
    }

    /// Where the spine is drawn: at the top, or between the two rows.
    fn spine(&self, slot: f64) -> f64 {
        if self.two {
            Y_GPU + slot * 0.5 + 30.0 + self.under
        } else {
            Y_SPINE
        }
    }

    /// The height `y` of a one-row drawing in `row`.
    fn y(&self, row: usize, y: f64, slot: f64) -> f64 {
        let spine = self.spine(slot);
        if self.flipped(row) {
            spine - (y - Y_SPINE)
        } else {
            spine + (y - Y_SPINE)
        }
    }

    /// A box from `top` to `bottom` in a one-row drawing, in `row`: its top and height.
    fn span(&self, row: usize, top: f64, bottom: f64, slot: f64) -> (f64, f64) {
        let (a, b) = (self.y(row, top, slot), self.y(row, bottom, slot));
        (a.min(b), (b - a).abs())
    }

    fn height(&self, slot: f64) -> f64 {
        self.y(1, Y_GPU, slot) + 44.0 + self.under
    }
}

/// Where the spine (or a uniform network's one switch) is drawn: centred at the top.
fn spine_at(width: f64) -> Point {
    Point {
        x: width / 2.0,
        y: Y_SPINE,
    }
}

impl Switch {
    /// The spine's switch at `at`, named.
    fn spine(at: Point) -> Switch {
        Switch {
            at,
            label: Place::End(Endpoint::Spine),
        }
    }
}

/// Where rail `rail` of `rails` has its leaf switch: spread evenly across the figure.
fn rail_at(width: f64, rails: usize, rail: usize) -> Point {
    let span = width - 2.0 * MARGIN - 60.0;
    Point {
        x: MARGIN + 30.0 + span * (rail as f64 + 0.5) / rails as f64,
        y: Y_RACK,
    }
}

fn top(p: Point, size: f64) -> Point {
    Point {
        x: p.x,
        y: p.y - size / 2.0,
    }
}

/// A link, by its ends: `"GPU 3 → node 0"` in English.
pub fn link_place(topo: &Topology, link: usize) -> Place {
    let l = &topo.links()[link];
    Place::Link {
        from: l.from,
        to: l.to,
        uniform: topo.is_uniform(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::fixtures::{cluster, rail};
    use crate::sim::topology::TopologySpec;
    use crate::sim::units::Bandwidth;

    /// The detailed view draws every link of `topo` once, on a line of its own tier.
    fn draws_every_link_once(topo: &Topology) -> Layout {
        let layout = Layout::new(topo);
        assert!(layout.detailed);
        let mut seen: Vec<usize> = layout.lines.iter().flat_map(|l| l.links.clone()).collect();
        seen.sort_unstable();
        assert_eq!(seen, (0..topo.links().len()).collect::<Vec<_>>());
        for (id, &i) in layout.line_of_link.iter().enumerate() {
            assert_eq!(layout.lines[i].links, vec![id]);
            assert_eq!(layout.lines[i].tier, topo.links()[id].tier);
        }
        layout
    }

    #[test]
    fn every_link_is_drawn_once_in_the_detailed_view() {
        for (k, m, g) in [(1, 1, 8), (2, 2, 4), (4, 4, 4), (1, 8, 8)] {
            draws_every_link_once(&cluster(k, m, g));
        }
    }

    #[test]
    fn several_nics_and_rails_draw_every_link_once_and_rails_carry_their_own_nics() {
        let mut spec = cluster(2, 2, 8).spec().clone();
        if let TopologySpec::Cluster { nics_per_node, .. } = &mut spec {
            *nics_per_node = 4;
        }
        draws_every_link_once(&Topology::new(&spec).unwrap());
        draws_every_link_once(&rail(2, 3));
        // Rail i's own links are NIC i of every node, and its leaf switch is named for it.
        let topo = rail(4, 8);
        let layout = draws_every_link_once(&topo);
        assert_eq!(layout.rails.len(), 8);
        for mark in &layout.rails {
            assert_eq!(mark.links.len(), 2 * 4);
            for &l in &mark.links {
                let link = &topo.links()[l];
                assert_eq!(link.tier, Tier::Node);
                assert!(
                    link.to == Endpoint::Rail(mark.rail) || link.from == Endpoint::Rail(mark.rail)
                );
            }
            // Its switch is drawn there; the figure names it, with its load, just above.
            assert!(
                layout
                    .switches
                    .iter()
                    .any(|s| s.at == mark.at && s.label == Place::Unnamed)
            );
        }
        // A route across rails with PXN: from the sender, over NVLink, up its neighbour's rail, to the receiver.
        let route = topo.route(1, 10);
        let start = layout.along_route(route.links(), 0.0, 0.0).unwrap();
        let end = layout.along_route(route.links(), 1.0, 0.0).unwrap();
        assert!((start.x - layout.gpus[1].x).abs() < 5.0);
        assert!((end.x - layout.gpus[10].x).abs() < 5.0);
        // 16 nodes × 8 rails is drawn by node, still with its rails.
        let big = rail(16, 8);
        let layout = Layout::new(&big);
        assert!(!layout.detailed);
        assert_eq!(layout.rails.len(), 8);
        let mut seen: Vec<usize> = layout.lines.iter().flat_map(|l| l.links.clone()).collect();
        seen.sort_unstable();
        assert_eq!(seen, (2 * 128..big.links().len()).collect::<Vec<_>>());
    }

    #[test]
    fn large_clusters_aggregate_by_node_then_rack() {
        let by_node = Layout::new(&cluster(2, 8, 8));
        assert!(!by_node.detailed);
        assert_eq!(by_node.unit_name, UnitKind::Node);
        assert_eq!(by_node.units.len(), 16);
        let by_rack = Layout::new(&cluster(8, 32, 1));
        assert_eq!(by_rack.unit_name, UnitKind::Rack);
        assert_eq!(by_rack.units.len(), 8);
        let uniform = Topology::new(&TopologySpec::Uniform {
            ranks: 1000,
            bandwidth: Bandwidth::from_gbytes_per_sec(1.0),
            latency_secs: 0.0,
        })
        .unwrap();
        let l = Layout::new(&uniform);
        assert!(l.units.len() <= DETAILED_MAX_RANKS);
        assert_eq!(l.units.iter().map(|u| u.ranks).sum::<usize>(), 1000);
    }

    /// Racks too close for their names are numbered; a name's clear spot is inside the figure
    /// and off every other switch (at 512 GPUs the names ran into the next switch and off the
    /// edges: "ack 0").
    #[test]
    fn crowded_racks_are_numbered_and_a_clear_name_stays_inside_and_off_other_switches() {
        let name = |p: &Place| p.to_string();
        assert!(!Layout::new(&cluster(2, 2, 8)).rack_names_crowded(name));
        for (racks, crowded) in [(2, false), (16, true), (32, true)] {
            let l = Layout::new(&cluster(racks, 2, 8));
            assert_eq!(l.rack_names_crowded(name), crowded, "{racks} racks");
            for s in &l.switches {
                let w = name_width(&name(&s.label));
                let Some(spot) = l.clear_name_spot(&s.label, s.at, 18.0, w) else {
                    continue;
                };
                let (x0, x1, y0, y1) = spot.text_box(w);
                assert!(
                    x0 >= 0.0 && x1 <= l.width,
                    "{racks} racks: {} at {x0}..{x1}",
                    s.label
                );
                for o in l.switches.iter().filter(|o| o.at != s.at) {
                    let apart = x1 <= o.at.x - 9.0
                        || x0 >= o.at.x + 9.0
                        || y1 <= o.at.y - 6.0
                        || y0 >= o.at.y + 6.0;
                    assert!(
                        apart || o.label == Place::End(Endpoint::Spine),
                        "{racks} racks: {} on {}",
                        s.label,
                        o.label
                    );
                }
            }
            // Numbered, every rack's number is inside the figure and off the other switches
            // (its neighbours' uplinks to the spine may run by it).
            for s in l.switches.iter().filter(|_| crowded) {
                let Place::End(Endpoint::RackSwitch(r)) = s.label else {
                    continue;
                };
                let w = name_width(&r.to_string());
                let (x0, x1, y0, y1) = l.name_spot(&s.label, s.at, 18.0, w).text_box(w);
                assert!(x0 >= 0.0 && x1 <= l.width, "{racks} racks: rack {r}");
                assert!(
                    l.switches.iter().filter(|o| o.at != s.at).all(|o| {
                        x1 <= o.at.x - 9.0
                            || x0 >= o.at.x + 9.0
                            || y1 <= o.at.y - 6.0
                            || y0 >= o.at.y + 6.0
                    }),
                    "{racks} racks: rack {r}"
                );
            }
        }
    }

    #[test]
    fn no_link_comes_near_a_switchs_name() {
        // The spine's name over it, rack 0's on the left (its uplink leaves to the right).
        let mut checked = 0;
        let shapes = [
            (2, 2, 8),
            (1, 2, 8),
            (2, 1, 8),
            (4, 2, 4),
            (3, 2, 2),
            (2, 4, 8),
        ];
        let topologies = (shapes
            .iter()
            .map(|&(k, m, g)| (format!("{k}x{m}x{g}"), cluster(k, m, g))))
        .chain([
            ("rail 4x8".to_string(), rail(4, 8)),
            ("rail 2x4".to_string(), rail(2, 4)),
        ]);
        for (name, topo) in topologies {
            let layout = draws_every_link_once(&topo);
            checked += 1;
            for s in &layout.switches {
                // The spine drawn as a bar (two rows of racks) has its name after its right end.
                if s.label == Place::End(Endpoint::Spine) && layout.spine_width > 0.0 {
                    continue;
                }
                if matches!(s.label, Place::End(Endpoint::NodeSwitch(_))) && layout.node_names_under
                {
                    continue;
                }
                let width = name_width(&s.label.to_string());
                let spot = layout.name_spot(&s.label, s.at, 18.0, width);
                let (x0, x1, y0, y1) = spot.text_box(width);
                for Point { x, y } in layout.lines.iter().flat_map(DrawnLink::points) {
                    let hidden = (x - s.at.x).abs() <= 9.0 && (y - s.at.y).abs() <= 6.0;
                    assert!(
                        hidden || !(x > x0 - 3.1 && x < x1 + 3.1 && y > y0 - 3.1 && y < y1 + 3.1),
                        "{name}: {} at {spot:?} meets a link at ({x}, {y})",
                        s.label
                    );
                }
                if s.label == Place::End(Endpoint::Spine) {
                    assert_eq!(spot.anchor, Anchor::Middle, "{name}");
                }
                if name == "2x2x8" && s.label == Place::End(Endpoint::RackSwitch(0)) {
                    assert_eq!(spot.anchor, Anchor::End);
                }
            }
        }
        assert!(checked >= 8);
    }

    #[test]
    fn over_32_gpus_the_racks_are_drawn_in_two_rows_around_the_spine() {
        let inside =
            |r: &Rect, p: Point| p.x > r.x && p.x < r.x + r.w && p.y > r.y && p.y < r.y + r.h;
        let overlap = |a: &Rect, b: &Rect| {
            a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h
        };
        // 4 racks of 16, and 2 of 32: the first half of the racks above the spine, upside down.
        for (k, m, g) in [(4, 2, 8), (2, 4, 8), (3, 2, 8)] {
            let topo = cluster(k, m, g);
            let layout = draws_every_link_once(&topo);
            let spine = &layout.switches[0];
            assert_eq!(spine.label, Place::End(Endpoint::Spine));
            let first = k.div_ceil(2) * m * g;
            for (r, p) in layout.gpus.iter().enumerate() {
                assert_eq!(p.y < spine.at.y, r < first, "GPU {r} of {k}x{m}x{g}");
                let rack = &layout.racks[r / (m * g)].rect;
                let node = &layout.nodes[r / g].rect;
                assert!(
                    inside(rack, *p) && inside(node, *p),
                    "GPU {r} of {k}x{m}x{g}"
                );
            }
            assert!(layout.gpus.iter().all(|p| p.y > 0.0 && p.y < layout.height));
            for (i, a) in layout.racks.iter().enumerate() {
                assert!(a.rect.y >= 0.0 && a.rect.y + a.rect.h <= layout.height);
                assert!(a.rect.x >= 0.0 && a.rect.x + a.rect.w <= layout.width);
                for b in &layout.racks[i + 1..] {
                    assert!(!overlap(&a.rect, &b.rect), "{k}x{m}x{g}");
                }
            }
            // Every GPU's links leave from its side that faces its node's switch.
            for (r, p) in layout.gpus.iter().enumerate() {
                let line = &layout.lines[layout.line_of_link[r]];
                let switch = layout.nodes[r / g].rect;
                assert!((line.from.y - p.y).abs() <= layout.gpu_size / 2.0 + LANE);
                assert_eq!(line.to.y > p.y, r < first, "GPU {r}: toward {switch:?}");
            }
            // A route from the first row to the last starts and ends at its GPUs.
            let route = topo.route(0, topo.ranks() - 1);
            let start = layout.along_route(route.links(), 0.0, 0.0).unwrap();
            let end = layout.along_route(route.links(), 1.0, 0.0).unwrap();
            let (a, b) = (layout.gpus[0], layout.gpus[topo.ranks() - 1]);
            let near = layout.gpu_size / 2.0 + LANE + 1e-9;
            assert!((start.x - a.x).abs() < 5.0 && (start.y - a.y).abs() <= near);
            assert!((end.x - b.x).abs() < 5.0 && (end.y - b.y).abs() <= near);
        }
        // The spine is a bar between the rows; each uplink goes straight into it, so that no two
        // racks' uplinks make one line through it.
        let topo = cluster(4, 2, 8);
        let layout = Layout::new(&topo);
        let spine = &layout.switches[0];
        assert!(layout.spine_width > 100.0);
        for rack in 0..4 {
            let line = &layout.lines[layout.line_of_link[LinkIds::new(&topo).uplink_up(rack)]];
            assert!((line.from.x - line.to.x).abs() <= 2.0 * LANE, "{line:?}");
            assert!((line.to.x - spine.at.x).abs() <= layout.spine_width / 2.0);
        }
        assert_eq!(Layout::new(&cluster(2, 2, 8)).spine_width, 0.0);
        // Two rows are about half as wide as one was (64 GPUs at 22 units each, with gaps).
        let wide = Layout::new(&cluster(4, 2, 8));
        assert!(wide.width < 64.0 * 22.0 * 0.8, "{}", wide.width);
        assert!(wide.height > 2.0 * (Y_GPU - Y_SPINE));
        // Up to 32 GPUs, one row under the spine, unless one row draws the names a quarter
        // smaller than two: 32 GPUs in 2 racks of 8 two-GPU nodes, 1,260 units wide in one row.
        let one = Layout::new(&cluster(2, 2, 8));
        assert!(one.gpus.iter().all(|p| p.y == Y_GPU));
        assert_eq!(one.height, Y_GPU + 44.0);
        assert!(!Rows::new(&cluster(2, 2, 8)).two);
        let topo = cluster(2, 8, 2);
        let (one, two) = (Rows::with(&topo, false), Rows::with(&topo, true));
        assert!(two.text_scale(&topo) > 1.25 * one.text_scale(&topo));
        let narrow = Layout::new(&topo);
        assert!(narrow.gpus[..16].iter().all(|p| p.y < narrow.gpus[16].y));
        assert!(narrow.width < 1000.0, "{}", narrow.width);
    }

    #[test]
    fn every_node_name_fits_where_it_is_written() {
        let inside = |r: &Rect, x0: f64, x1: f64, y0: f64, y1: f64| {
            x0 >= r.x && x1 <= r.x + r.w && y0 >= r.y && y1 <= r.y + r.h
        };
        let meets = |r: &Rect, x0: f64, x1: f64, y0: f64, y1: f64| {
            x0 < r.x + r.w && x1 > r.x && y0 < r.y + r.h && y1 > r.y
        };
        // (racks, nodes per rack, GPUs per node): two nodes of two GPUs were too narrow for
        // "node 15" beside their switch, in one row and in two.
        for (spec, under) in [
            ((2, 2, 4), false),
            ((2, 2, 8), false),
            ((4, 2, 8), false),
            ((2, 8, 2), true),
            ((4, 8, 2), true),
            ((8, 8, 1), true),
        ] {
            let topo = cluster(spec.0, spec.1, spec.2);
            let layout = Layout::new(&topo);
            assert_eq!(layout.node_names_under, under, "{spec:?}");
            let npr = topo.nodes_per_rack();
            for (node, b) in layout.nodes.iter().enumerate() {
                let name = format!("node {node}");
                let rack = &layout.racks[node / npr].rect;
                let (x0, x1, y0, y1) = if under {
                    let at = layout.name_under(node);
                    let w = if name_width(&name) <= b.rect.w - 4.0 {
                        name_width(&name)
                    } else {
                        name_width(&node.to_string())
                    };
                    (at.x - w / 2.0, at.x + w / 2.0, at.y - 8.0, at.y + 2.0)
                } else {
                    let s = layout
                        .switches
                        .iter()
                        .find(|s| s.label == Place::End(Endpoint::NodeSwitch(node)))
                        .unwrap();
                    let w = name_width(&name);
                    layout.name_spot(&s.label, s.at, 18.0, w).text_box(w)
                };
                assert!(
                    inside(rack, x0, x1, y0, y1),
                    "{spec:?} node {node}: {:?} outside its rack {rack:?}",
                    (x0, x1, y0, y1)
                );
                if under {
                    // Clear of every node's box and of every line.
                    assert!(
                        layout.nodes.iter().all(|o| !meets(&o.rect, x0, x1, y0, y1)),
                        "{spec:?} node {node}"
                    );
                    for line in &layout.lines {
                        for Point { x, y } in line.points() {
                            assert!(
                                !(x > x0 && x < x1 && y > y0 && y < y1),
                                "{spec:?} node {node}: {line:?}"
                            );
                        }
                    }
                } else {
                    // Beside or over its switch (`name_spot`): on no other node's box.
                    let mut others = layout.nodes.iter().enumerate().filter(|&(o, _)| o != node);
                    assert!(
                        others.all(|(_, o)| !meets(&o.rect, x0, x1, y0, y1)),
                        "{spec:?} node {node}: on another node's box"
                    );
                }
            }
        }
    }

    #[test]
    fn a_chunk_drawn_inset_clears_its_gpus_numbers() {
        // A chunk is drawn as a square of side 11 (`tokens::SIDE`) centred on its place; a GPU's
        // number is 10-px text on the GPU's centre, about 4 units either side of it. Drawn at its
        // route's ends, a chunk covered the number of its sender (at its start) and receiver.
        let side = 11.0;
        for topo in [cluster(2, 2, 4), cluster(2, 8, 2), cluster(4, 2, 8)] {
            let layout = Layout::new(&topo);
            let n = topo.ranks();
            for a in 0..n {
                for b in [(a + 1) % n, n - 1 - a] {
                    if a == b {
                        continue;
                    }
                    let route = topo.route(a, b);
                    for (progress, gpu) in [(0.0, a), (1.0, b)] {
                        let at = layout.along_route(route.links(), progress, side).unwrap();
                        let p = layout.gpus[gpu];
                        assert!(
                            (at.y - p.y).abs() >= 4.0 + side / 2.0,
                            "{n} GPUs, {a} -> {b} at {progress}: {at:?} over GPU {gpu} at {p:?}"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn a_route_starts_at_the_sender_and_ends_at_the_receiver() {
        let topo = cluster(2, 2, 4);
        let layout = Layout::new(&topo);
        let route = topo.route(0, 15);
        let start = layout.along_route(route.links(), 0.0, 0.0).unwrap();
        let end = layout.along_route(route.links(), 1.0, 0.0).unwrap();
        assert!((start.x - layout.gpus[0].x).abs() < 5.0);
        assert!((end.x - layout.gpus[15].x).abs() < 5.0);
        assert_eq!(link_place(&topo, 0).to_string(), "GPU 0 → node 0");
    }
}
