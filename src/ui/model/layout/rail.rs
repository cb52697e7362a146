//! A rail-optimized network drawn in detail: nodes side by side, each node's NVSwitch below its
//! GPUs, the rails' leaf switches above them, the spine on top.

use super::*;

impl Layout {
    /// A rail network: nodes of GPUs side by side, each node's NVSwitch below its GPUs, the rails'
    /// leaf switches above them (GPU i of every node wired up to rail i), the spine on top.
    pub(super) fn detailed_rail(topo: &Topology) -> Layout {
        let ids = LinkIds::new(topo);
        let (n, g, m) = (topo.ranks(), topo.gpus_per_node(), topo.nodes());
        let slot = slot_for(n);
        let node_gap = slot * 0.6;
        let mut x = MARGIN + slot / 2.0;
        let mut gpus = Vec::with_capacity(n);
        for r in 0..n {
            if r > 0 && r % g == 0 {
                x += node_gap;
            }
            gpus.push(Point { x, y: Y_GPU });
            x += slot;
        }
        let width = (x - slot / 2.0 + MARGIN).max(360.0);
        let gpu_size = slot * 0.62;
        let y_nvswitch = Y_GPU + 52.0;
        let mut layout = Layout {
            width,
            height: y_nvswitch + 30.0,
            detailed: true,
            gpu_size,
            unit_name: UnitKind::Gpu,
            ..Layout::default()
        };
        let spine = spine_at(width);
        layout.switches.push(Switch::spine(spine));
        for rail in 0..g {
            let at = layout.push_rail_switch(&ids, g, rail, spine);
            let mut own = Vec::with_capacity(2 * m);
            for node in 0..m {
                let (up, down) = (ids.nic_up(topo, node, rail), ids.nic_down(topo, node, rail));
                own.extend([up, down]);
                layout.link_pair(
                    Tier::Node,
                    top(gpus[node * g + rail], gpu_size),
                    at,
                    up,
                    down,
                );
            }
            layout.rails.push(RailMark {
                rail,
                at,
                links: own,
            });
        }
        for node in 0..m {
            let (lo, hi) = (node * g, (node + 1) * g);
            let at = Point {
                x: (gpus[lo].x + gpus[hi - 1].x) / 2.0,
                y: y_nvswitch,
            };
            layout.nodes.push(GroupBox {
                rect: Rect {
                    x: gpus[lo].x - slot / 2.0 + 2.0,
                    y: Y_GPU - slot * 0.5 - 6.0,
                    w: gpus[hi - 1].x - gpus[lo].x + slot - 4.0,
                    h: y_nvswitch - Y_GPU + slot * 0.5 + 18.0,
                },
                label: Place::End(Endpoint::NodeSwitch(node)),
            });
            layout.switches.push(Switch {
                at,
                label: Place::End(Endpoint::NodeSwitch(node)),
            });
            for (r, p) in gpus.iter().enumerate().take(hi).skip(lo) {
                let bottom = Point {
                    x: p.x,
                    y: p.y + gpu_size / 2.0,
                };
                layout.link_pair(Tier::Gpu, bottom, at, r, n + r);
            }
        }
        layout.gpus = gpus;
        layout.index_lines(topo.links().len());
        layout
    }
}
