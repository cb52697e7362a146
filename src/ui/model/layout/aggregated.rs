//! The aggregated view: beyond [`super::DETAILED_MAX_RANKS`] GPUs, ranks are drawn as nodes, racks
//! or equal groups, and each drawn line stands for the links it aggregates.

use super::*;

impl Layout {
    pub(super) fn aggregated(topo: &Topology) -> Layout {
        let ids = LinkIds::new(topo);
        let n = topo.ranks();
        let g = topo.gpus_per_node();
        let npr = topo.nodes_per_rack();
        let (m, k) = (topo.nodes(), topo.racks());
        let uniform = topo.is_uniform();
        // The unit: a node if they fit, else a rack, else equal groups of ranks.
        let (unit_ranks, unit_name) = if !uniform && m <= DETAILED_MAX_RANKS {
            (g, UnitKind::Node)
        } else if !uniform && k <= DETAILED_MAX_RANKS {
            (g * npr, UnitKind::Rack)
        } else {
            let per = n.div_ceil(DETAILED_MAX_RANKS);
            (per, UnitKind::Group(per))
        };
        let units_count = n.div_ceil(unit_ranks);
        let slot = if units_count <= 16 {
            48.0
        } else if units_count <= 32 {
            30.0
        } else {
            20.0
        };
        let gap = if unit_name == UnitKind::Node {
            slot * 0.5
        } else {
            0.0
        };
        let mut x = MARGIN;
        let mut units = Vec::with_capacity(units_count);
        for u in 0..units_count {
            if u > 0 && unit_name == UnitKind::Node && u % npr == 0 {
                x += gap;
            }
            let first_rank = u * unit_ranks;
            units.push(Unit {
                rect: Rect {
                    x: x + 2.0,
                    y: Y_NODE,
                    w: slot - 4.0,
                    h: Y_GPU - Y_NODE + 20.0,
                },
                first_rank,
                ranks: unit_ranks.min(n - first_rank),
                label: match unit_name {
                    UnitKind::Node => Place::End(Endpoint::NodeSwitch(u)),
                    UnitKind::Rack => Place::End(Endpoint::RackSwitch(u)),
                    _ => Place::Ranks {
                        first: first_rank,
                        last: (first_rank + unit_ranks).min(n) - 1,
                    },
                },
            });
            x += slot;
        }
        let width = (x + MARGIN).max(360.0);
        let mut layout = Layout {
            width,
            height: Y_GPU + 60.0,
            detailed: false,
            units,
            unit_name,
            ..Layout::default()
        };
        let unit_top = |u: &Unit| Point {
            x: u.rect.x + u.rect.w / 2.0,
            y: u.rect.y,
        };
        let spine = spine_at(width);
        let units = layout.units.clone();
        match unit_name {
            UnitKind::Node if topo.is_rail() => {
                layout.switches.push(Switch::spine(spine));
                for rail in 0..g {
                    let at = layout.push_rail_switch(&ids, g, rail, spine);
                    let mut own = Vec::with_capacity(2 * m);
                    for (node, unit) in units.iter().enumerate() {
                        let (up, down) =
                            (ids.nic_up(topo, node, rail), ids.nic_down(topo, node, rail));
                        own.extend([up, down]);
                        pair(
                            &mut layout.lines,
                            Tier::Node,
                            unit_top(unit),
                            at,
                            vec![up],
                            vec![down],
                        );
                    }
                    layout.rails.push(RailMark {
                        rail,
                        at,
                        links: own,
                    });
                }
            }
            UnitKind::Node => {
                layout.switches.push(Switch::spine(spine));
                for rack in 0..k {
                    let (lo, hi) = (rack * npr, ((rack + 1) * npr).min(units.len()));
                    let at = Point {
                        x: (unit_top(&units[lo]).x + unit_top(&units[hi - 1]).x) / 2.0,
                        y: Y_RACK,
                    };
                    layout.switches.push(Switch {
                        at,
                        label: Place::End(Endpoint::RackSwitch(rack)),
                    });
                    pair(
                        &mut layout.lines,
                        Tier::Rack,
                        at,
                        spine,
                        vec![ids.uplink_up(rack)],
                        vec![ids.uplink_down(rack)],
                    );
                    for (node, unit) in units.iter().enumerate().take(hi).skip(lo) {
                        let nics = 0..topo.nics_per_node();
                        pair(
                            &mut layout.lines,
                            Tier::Node,
                            unit_top(unit),
                            at,
                            nics.clone().map(|j| ids.nic_up(topo, node, j)).collect(),
                            nics.map(|j| ids.nic_down(topo, node, j)).collect(),
                        );
                    }
                }
            }
            UnitKind::Rack => {
                layout.switches.push(Switch::spine(spine));
                for (rack, u) in units.iter().enumerate() {
                    pair(
                        &mut layout.lines,
                        Tier::Rack,
                        unit_top(u),
                        spine,
                        vec![ids.uplink_up(rack)],
                        vec![ids.uplink_down(rack)],
                    );
                }
            }
            _ => {
                // Groups of ranks: one line per group aggregating its ranks' own ports.
                let sw = Point {
                    x: width / 2.0,
                    y: Y_RACK,
                };
                layout.switches.push(Switch {
                    at: sw,
                    label: if uniform {
                        Place::Switch
                    } else {
                        Place::Network
                    },
                });
                for u in &units {
                    let rs = u.first_rank..u.first_rank + u.ranks;
                    pair(
                        &mut layout.lines,
                        Tier::Gpu,
                        unit_top(u),
                        sw,
                        rs.clone().collect(),
                        rs.map(|r| n + r).collect(),
                    );
                }
            }
        }
        layout
    }
}
