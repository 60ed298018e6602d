//! Parts of a graph: one Gateway's component (`--gateway`), one namespace (`--namespace`).

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
        let Some(start) = graph.position(&start).filter(|&i| !graph.nodes[i].missing) else {
            return Err(format!("no Gateway {ns}/{name} in the inputs"));
        };
        let keep = component(&graph, start);
        graph = graph.induced(&keep);
    }
    if let Some(ns) = &selection.namespace {
        // The namespace's nodes and their neighbours, so that an edge out of the namespace
        // still shows where it goes; only the edges that touch the namespace.
        let in_ns = |i: usize| graph.nodes[i].id.namespace == *ns;
        let mut keep: Vec<bool> = (0..graph.nodes.len()).map(in_ns).collect();
        let touching: Vec<bool> = graph
            .edges
            .iter()
            .map(|e| in_ns(e.from) || in_ns(e.to))
            .collect();
        for (e, _) in graph.edges.iter().zip(&touching).filter(|(_, t)| **t) {
            keep[e.from] = true;
            keep[e.to] = true;
        }
        let mut touching = touching.into_iter();
        graph.edges.retain(|_| touching.next().unwrap_or(false));
        graph = graph.induced(&keep);
    }
    Ok(graph)
}

/// A Gateway's component: the Gateway and everything it reaches (listeners, listener sets,
/// routes, refused routes, rules, backends, providers, delegated routes), and what points at
/// those (policies, the GatewayClass), by position. Other Gateways reached through a shared
/// backend or class are not followed.
fn component(graph: &Graph, start: usize) -> Vec<bool> {
    // Edges are sorted by their start: the edges out of a node are one run of them.
    let out_of = |i: usize| {
        let first = graph.edges.partition_point(|e| e.from < i);
        let last = first + graph.edges[first..].partition_point(|e| e.from == i);
        &graph.edges[first..last]
    };
    let mut keep = vec![false; graph.nodes.len()];
    let mut todo = vec![start];
    while let Some(i) = todo.pop() {
        if keep[i] {
            continue;
        }
        for e in out_of(i) {
            let forward = !matches!(e.kind, EdgeKind::Policy(_));
            if forward && !keep[e.to] {
                todo.push(e.to);
            }
        }
        keep[i] = true;
    }
    let pointing: Vec<usize> = graph
        .edges
        .iter()
        .filter(|e| keep[e.to] && !keep[e.from])
        .filter(|e| {
            matches!(e.kind, EdgeKind::Policy(_))
                || graph.nodes[e.from].id.kind == NodeKind::GatewayClass
        })
        .map(|e| e.from)
        .collect();
    for i in pointing {
        keep[i] = true;
    }
    keep
}
