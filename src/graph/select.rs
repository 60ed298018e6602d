//! Parts of a graph: one Gateway's component (`--gateway`), one namespace (`--namespace`).

use std::collections::BTreeSet;

use super::{EdgeKind, Graph, NodeId, NodeKind};

/// What `gwctl graph` is asked to draw.
#[derive(Debug, Clone, Default)]
pub struct Selection {
    /// (namespace, name) of a Gateway.
    pub gateway: Option<(String, String)>,
    pub namespace: Option<String>,
}

/// The part of the graph a selection asks for; `Err` names a Gateway that is not in it.
pub fn select(graph: Graph, selection: &Selection) -> Result<Graph, String> {
    let mut graph = graph;
    if let Some((ns, name)) = &selection.gateway {
        let start = NodeId::object(NodeKind::Gateway, "Gateway", ns, name);
        if graph
            .position(&start)
            .is_none_or(|i| graph.nodes[i].missing)
        {
            return Err(format!("no Gateway {ns}/{name} in the inputs"));
        }
        let keep = component(&graph, start);
        graph = induced(graph, |id| keep.contains(id));
    }
    if let Some(ns) = &selection.namespace {
        // The namespace's nodes and their neighbours, so that an edge out of the namespace
        // still shows where it goes.
        let mut keep: BTreeSet<NodeId> = BTreeSet::new();
        let mut edges = std::mem::take(&mut graph.edges);
        edges.retain(|e| e.from.namespace == *ns || e.to.namespace == *ns);
        for e in &edges {
            keep.insert(e.from.clone());
            keep.insert(e.to.clone());
        }
        graph
            .nodes
            .retain(|n| n.id.namespace == *ns || keep.contains(&n.id));
        graph.edges = edges;
    }
    Ok(graph)
}

/// A Gateway's component: the Gateway and everything it reaches (listeners, listener sets,
/// routes, refused routes, rules, backends, providers, delegated routes), and what points at
/// those (policies, the GatewayClass). Other Gateways reached through a shared backend or class
/// are not followed.
fn component(graph: &Graph, start: NodeId) -> BTreeSet<NodeId> {
    // Edges are sorted by their start: the edges out of a node are one run of them.
    let out_of = |id: &NodeId| {
        let first = graph.edges.partition_point(|e| e.from < *id);
        let last = first + graph.edges[first..].partition_point(|e| e.from == *id);
        &graph.edges[first..last]
    };
    let mut keep = BTreeSet::new();
    let mut todo = vec![start];
    while let Some(id) = todo.pop() {
        if keep.contains(&id) {
            continue;
        }
        for e in out_of(&id) {
            let forward = !matches!(e.kind, EdgeKind::Policy(_));
            if forward && !keep.contains(&e.to) {
                todo.push(e.to.clone());
            }
        }
        keep.insert(id);
    }
    let pointing: Vec<NodeId> = graph
        .edges
        .iter()
        .filter(|e| keep.contains(&e.to) && !keep.contains(&e.from))
        .filter(|e| matches!(e.kind, EdgeKind::Policy(_)) || e.from.kind == NodeKind::GatewayClass)
        .map(|e| e.from.clone())
        .collect();
    keep.extend(pointing);
    keep
}

/// The nodes `keep` holds and the edges between them.
fn induced(mut graph: Graph, keep: impl Fn(&NodeId) -> bool) -> Graph {
    graph.nodes.retain(|n| keep(&n.id));
    graph.edges.retain(|e| keep(&e.from) && keep(&e.to));
    graph
}
