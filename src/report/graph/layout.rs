//! gwctl's own layered layout for the SVG picture: one column per kind of node (policies,
//! classes, Gateways, listener sets, listeners, routes, rules, backends, providers; empty
//! columns dropped), one horizontal band per namespace, and inside a band each column ordered
//! by the average row of its neighbours (two sweeps), so that edges mostly run straight. Linear
//! in the edges per sweep, where a general layered layout (crossing minimisation over long
//! edges) grows much faster with thousands of nodes; the bands are what keep 50 Gateways
//! readable.

use std::collections::BTreeMap;

use crate::graph::{Graph, NodeKind};

pub const NODE_W: f64 = 200.0;
pub const NODE_H: f64 = 52.0;
pub const COL_W: f64 = 280.0;
pub const ROW_H: f64 = 68.0;
pub const MARGIN: f64 = 20.0;
/// Most lanes a column is wrapped into.
pub const MAX_LANES: usize = 4;
/// Room for a band's heading.
pub const BAND_HEAD: f64 = 24.0;

pub struct Band {
    pub namespace: String,
    pub y: f64,
    pub height: f64,
}

pub struct Layout {
    /// Top-left corner of each node, in the graph's node order.
    pub at: Vec<(f64, f64)>,
    pub bands: Vec<Band>,
    pub width: f64,
    pub height: f64,
}

fn column_of(kind: NodeKind) -> usize {
    kind as usize
}

/// Column of each kind (empty columns dropped), and how many columns there are.
fn columns(graph: &Graph) -> ([usize; 9], usize) {
    let mut used = [false; 9];
    for node in &graph.nodes {
        used[column_of(node.id.kind)] = true;
    }
    let mut col_x = [0usize; 9];
    let mut next = 0;
    for (c, u) in used.iter().enumerate() {
        col_x[c] = next;
        next += usize::from(*u);
    }
    (col_x, next.max(1))
}

/// (band, column) -> the nodes there, in the graph's order.
type Cells = BTreeMap<(usize, usize), Vec<usize>>;

/// Orders each cell by the average row of its nodes' neighbours, left to right and back.
fn sweep(graph: &Graph, cells: &mut Cells) {
    let n = graph.nodes.len();
    let mut neighbours: Vec<Vec<usize>> = vec![Vec::new(); n];
    for e in &graph.edges {
        neighbours[e.from].push(e.to);
        neighbours[e.to].push(e.from);
    }
    let mut row = vec![0f64; n];
    for nodes in cells.values() {
        for (r, &i) in nodes.iter().enumerate() {
            row[i] = r as f64;
        }
    }
    let forward: Vec<(usize, usize)> = cells.keys().copied().collect();
    let backward: Vec<(usize, usize)> = forward.iter().rev().copied().collect();
    for key in forward.into_iter().chain(backward) {
        let Some(nodes) = cells.get_mut(&key) else {
            continue;
        };
        let mut keyed: Vec<(f64, usize)> = nodes
            .iter()
            .map(|&i| {
                let ns = &neighbours[i];
                let centre = if ns.is_empty() {
                    row[i]
                } else {
                    ns.iter().map(|&j| row[j]).sum::<f64>() / ns.len() as f64
                };
                (centre, i)
            })
            .collect();
        keyed.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
        *nodes = keyed.into_iter().map(|(_, i)| i).collect();
        for (r, &i) in nodes.iter().enumerate() {
            row[i] = r as f64;
        }
    }
}

pub fn layout(graph: &Graph) -> Layout {
    let (col_x, columns) = columns(graph);
    let namespaces = graph.namespaces();
    let band_of: BTreeMap<&str, usize> = namespaces
        .iter()
        .enumerate()
        .map(|(i, ns)| (*ns, i))
        .collect();
    let mut cells = Cells::new();
    for (i, node) in graph.nodes.iter().enumerate() {
        let band = band_of
            .get(node.id.namespace.as_str())
            .copied()
            .unwrap_or(0);
        cells
            .entry((band, col_x[column_of(node.id.kind)]))
            .or_default()
            .push(i);
    }
    sweep(graph, &mut cells);
    let lanes = lanes(&cells, namespaces.len(), columns);
    // Left edge of each column: the columns before it, each as wide as its lanes.
    let mut left = vec![MARGIN; columns + 1];
    for c in 0..columns {
        left[c + 1] = left[c] + lanes.iter().map(|l| l[c]).max().unwrap_or(1) as f64 * COL_W;
    }
    let mut at = vec![(0.0, 0.0); graph.nodes.len()];
    let mut bands = Vec::new();
    let mut y = MARGIN;
    for (b, ns) in namespaces.iter().enumerate() {
        let band = cells.range((b, 0)..(b + 1, 0));
        let mut rows = 0;
        for ((_, col), nodes) in band {
            let l = lanes[b][*col];
            rows = rows.max(nodes.len().div_ceil(l));
            for (r, &i) in nodes.iter().enumerate() {
                let x = left[*col] + (r % l) as f64 * COL_W + (COL_W - NODE_W) / 2.0;
                let row = (r / l) as f64;
                at[i] = (x, y + BAND_HEAD + row * ROW_H + (ROW_H - NODE_H) / 2.0);
            }
        }
        let height = BAND_HEAD + rows as f64 * ROW_H;
        bands.push(Band {
            namespace: ns.to_string(),
            y,
            height,
        });
        y += height + MARGIN / 2.0;
    }
    Layout {
        at,
        bands,
        width: MARGIN + left[columns],
        height: y + MARGIN / 2.0,
    }
}

/// Lanes of each (band, column): a column much fuller than the band's average is wrapped into
/// up to [`MAX_LANES`] lanes side by side (row by row, so the order stays), which keeps a
/// namespace of hundreds of rules from making the picture hundreds of rows tall.
fn lanes(cells: &Cells, bands: usize, columns: usize) -> Vec<Vec<usize>> {
    let mut out = vec![vec![1; columns]; bands];
    for (b, lanes) in out.iter_mut().enumerate() {
        let band: Vec<(usize, usize)> = cells
            .range((b, 0)..(b + 1, 0))
            .map(|((_, c), v)| (*c, v.len()))
            .collect();
        let total: usize = band.iter().map(|(_, n)| n).sum();
        let even = total.div_ceil(band.len().max(1)).max(1);
        for (c, n) in band {
            lanes[c] = n.div_ceil(even).clamp(1, MAX_LANES);
        }
    }
    out
}
