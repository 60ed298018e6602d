//! What changed between two graphs (the picture of `gwctl diff -o markdown`): the edges one
//! side has and the other not (attachments, refusals, backendRefs and their weights,
//! delegation, policies and their outcome), the nodes at their ends, and the edges between
//! those nodes that did not change, for context.

use std::collections::BTreeSet;

use super::{Edge, EdgeKey, Graph, NodeId};
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

/// The change from `base` to `head` (each as [`Graph::new`] makes it: nodes and edges sorted
/// and unique); `None` when the graphs are alike.
pub fn change(base: &Graph, head: &Graph) -> Option<GraphChange> {
    // Both sides' lists are sorted (edges by their ends' ids, as their positions are): walked
    // side by side, never put in sets (a large repository's graphs have millions of edges).
    let (base_edges, head_edges) = (keys(base), keys(head));
    let edges = || side_by_side(&base_edges, &head_edges, |k| k);
    let mut around: BTreeSet<&NodeId> = BTreeSet::new();
    for (k, in_base, in_head) in edges() {
        if in_base != in_head {
            around.extend([k.0, k.1]);
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
    let mut nodes = Vec::new();
    let mut marks = Vec::new();
    for id in &around {
        let at = |g: &'_ Graph| g.position(id);
        let (b, h) = (at(base), at(head));
        let node = h.map(|i| &head.nodes[i]).or(b.map(|i| &base.nodes[i]));
        if let Some(node) = node {
            nodes.push(node.clone());
            marks.push(mark(b.is_some(), h.is_some()));
        }
    }
    // The nodes are `around`'s, in its order: an edge's ends are found there.
    let mut graph = Graph {
        nodes,
        edges: Vec::new(),
    };
    let mut edge_marks = Vec::new();
    for (k, in_base, in_head) in edges() {
        if let (Some(from), Some(to)) = (graph.position(k.0), graph.position(k.1)) {
            graph.edges.push(Edge {
                from,
                to,
                kind: k.2,
                label: k.3.to_string(),
            });
            edge_marks.push(mark(in_base, in_head));
        }
    }
    Some(GraphChange {
        graph,
        nodes: marks,
        edges: edge_marks,
    })
}

/// A graph's edges by their ends' ids (in the graph's order, which is theirs).
fn keys(g: &Graph) -> Vec<EdgeKey<'_>> {
    g.edges.iter().map(|e| g.key(e)).collect()
}
