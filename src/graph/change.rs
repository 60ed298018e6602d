//! What changed between two graphs (the picture of `gwctl diff -o markdown`): the edges one
//! side has and the other not (attachments, refusals, backendRefs and their weights,
//! delegation, policies and their outcome), the nodes at their ends, and the edges between
//! those nodes that did not change, for context.

use std::collections::{BTreeMap, BTreeSet};

use super::{Edge, Graph, Node, NodeId};

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

/// The change from `base` to `head`; `None` when the graphs are alike.
pub fn change(base: &Graph, head: &Graph) -> Option<GraphChange> {
    let base_edges: BTreeSet<&Edge> = base.edges.iter().collect();
    let head_edges: BTreeSet<&Edge> = head.edges.iter().collect();
    let changed: Vec<&Edge> = base_edges
        .symmetric_difference(&head_edges)
        .copied()
        .collect();
    let mut around: BTreeSet<&NodeId> = changed.iter().flat_map(|e| [&e.from, &e.to]).collect();
    let base_nodes: BTreeMap<&NodeId, &Node> = base.nodes.iter().map(|n| (&n.id, n)).collect();
    let head_nodes: BTreeMap<&NodeId, &Node> = head.nodes.iter().map(|n| (&n.id, n)).collect();
    // Objects added or removed without an edge (a policy that attaches to nothing).
    for (id, _) in base_nodes.iter().chain(head_nodes.iter()) {
        if base_nodes.contains_key(id) != head_nodes.contains_key(id) {
            around.insert(id);
        }
    }
    if around.is_empty() {
        return None;
    }
    let mut graph = Graph::default();
    let mut nodes = Vec::new();
    for id in &around {
        let (b, h) = (base_nodes.get(id), head_nodes.get(id));
        if let Some(node) = h.or(b) {
            graph.nodes.push((*node).clone());
            nodes.push(mark(b.is_some(), h.is_some()));
        }
    }
    let mut edges = Vec::new();
    let all: BTreeSet<&Edge> = base_edges.union(&head_edges).copied().collect();
    for e in all {
        if around.contains(&e.from) && around.contains(&e.to) {
            graph.edges.push(e.clone());
            edges.push(mark(base_edges.contains(e), head_edges.contains(e)));
        }
    }
    Some(GraphChange {
        graph,
        nodes,
        edges,
    })
}
