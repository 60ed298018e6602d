//! What changed between two graphs (the picture of `gwctl diff -o markdown`): the edges one
//! side has and the other not (attachments, refusals, backendRefs and their weights,
//! delegation, policies and their outcome), the nodes at their ends, and the edges between
//! those nodes that did not change, for context.

use std::collections::BTreeSet;

use super::{Graph, NodeId};
use crate::sorted::side_by_side;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mark {
    Added,
    Removed,
    Same,
}

/// The subgraph around a change; `nodes` and `edges` mark the graph's nodes and edges in order.
#[derive(Debug, Clone, Default)]
pub struct GraphChange {
    pub graph: Graph,
    pub nodes: Vec<Mark>,
    pub edges: Vec<Mark>,
}

fn mark(in_base: bool, in_head: bool) -> Mark {
    match (in_base, in_head) {
        (false, true) => Mark::Added,
        (true, false) => Mark::Removed,
        _ => Mark::Same,
    }
}

/// The change from `base` to `head` (each normalized: nodes and edges sorted and unique);
/// `None` when the graphs are alike.
pub fn change(base: &Graph, head: &Graph) -> Option<GraphChange> {
    // Both sides' lists are sorted: walked side by side, never put in sets (a large repository's
    // graphs have millions of edges).
    let mut around: BTreeSet<&NodeId> = BTreeSet::new();
    for (e, in_base, in_head) in side_by_side(&base.edges, &head.edges, |e| e) {
        if in_base != in_head {
            around.extend([&e.from, &e.to]);
        }
    }
    // Objects added or removed without an edge (a policy that attaches to nothing).
    for (n, in_base, in_head) in side_by_side(&base.nodes, &head.nodes, |n| &n.id) {
        if in_base != in_head {
            around.insert(&n.id);
        }
    }
    if around.is_empty() {
        return None;
    }
    let mut graph = Graph::default();
    let mut nodes = Vec::new();
    for id in &around {
        let at = |g: &'_ Graph| g.position(id);
        let (b, h) = (at(base), at(head));
        let node = h.map(|i| &head.nodes[i]).or(b.map(|i| &base.nodes[i]));
        if let Some(node) = node {
            graph.nodes.push(node.clone());
            nodes.push(mark(b.is_some(), h.is_some()));
        }
    }
    let mut edges = Vec::new();
    for (e, in_base, in_head) in side_by_side(&base.edges, &head.edges, |e| e) {
        if around.contains(&e.from) && around.contains(&e.to) {
            graph.edges.push(e.clone());
            edges.push(mark(in_base, in_head));
        }
    }
    Some(GraphChange {
        graph,
        nodes,
        edges,
    })
}
