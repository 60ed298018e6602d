//! Mermaid flowcharts (GitHub and GitLab draw them inline): one subgraph per namespace, node
//! ids by position (`n0`, `n1`...), so a name never has to be an identifier.

use std::fmt::Write;

use crate::graph::{Graph, GraphChange, Mark, NodeKind};

use super::{Stroke, by_namespace, color, edge_label, fill, label_lines, namespace_title, stroke};

/// The graph as a Mermaid flowchart.
pub fn mermaid(graph: &Graph) -> String {
    write(graph, None)
}

/// A change as a Mermaid flowchart: added nodes and edges green, removed ones red.
pub fn mermaid_change(change: &GraphChange) -> String {
    write(&change.graph, Some(change))
}

/// Text in a quoted Mermaid label: every character that could end the string or be read as
/// markup is written as an entity code (`#34;`).
fn text(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        if c.is_ascii_alphanumeric() || " ._-/:()*,".contains(c) {
            out.push(c);
        } else {
            let _ = write!(out, "#{};", c as u32);
        }
    }
    out
}

fn node_label(lines: &[String]) -> String {
    lines
        .iter()
        .map(|l| text(l))
        .collect::<Vec<_>>()
        .join("<br/>")
}

fn write(graph: &Graph, change: Option<&GraphChange>) -> String {
    let mut out = String::from("flowchart LR\n");
    for (n, (ns, members)) in by_namespace(graph).into_iter().enumerate() {
        let _ = writeln!(out, "  subgraph ns{n}[\"{}\"]", text(&namespace_title(ns)));
        for i in members {
            let node = &graph.nodes[i];
            let label = node_label(&label_lines(node));
            let (open, close) = match node.id.kind {
                NodeKind::Policy => ("{{", "}}"),
                NodeKind::Listener | NodeKind::Provider => ("(", ")"),
                NodeKind::Rule => ("([", "])"),
                _ => ("[", "]"),
            };
            let _ = writeln!(out, "    n{i}{open}\"{label}\"{close}");
        }
        out.push_str("  end\n");
    }
    let mut styles = String::new();
    for (i, e) in graph.edges.iter().enumerate() {
        let (from, to) = (e.from, e.to);
        let arrow = match stroke(e.kind) {
            Stroke::Solid => "-->",
            Stroke::Thick => "==>",
            Stroke::Dashed => "-.->",
        };
        let label = edge_label(e);
        if label.is_empty() {
            let _ = writeln!(out, "  n{from} {arrow} n{to}");
        } else {
            let _ = writeln!(out, "  n{from} {arrow}|\"{}\"| n{to}", text(&label));
        }
        let paint = match change.map(|c| c.edges[i]) {
            Some(Mark::Added) => "#2e7d32",
            Some(Mark::Removed) => "#c62828",
            Some(Mark::Same) => "#9e9e9e",
            None => color(e.kind),
        };
        let _ = writeln!(styles, "  linkStyle {i} stroke:{paint}");
    }
    out.push_str(&styles);
    classes(graph, change, &mut out);
    out
}

/// Fills by kind, and the marks: errors, nodes not in the inputs, and a change's additions and
/// removals.
fn classes(graph: &Graph, change: Option<&GraphChange>, out: &mut String) {
    let kinds = [
        ("policy", NodeKind::Policy),
        ("gateway", NodeKind::Gateway),
        ("listener", NodeKind::Listener),
        ("route", NodeKind::Route),
        ("backend", NodeKind::Backend),
    ];
    for (name, kind) in kinds {
        let _ = writeln!(out, "  classDef {name} fill:{}", fill(kind));
    }
    out.push_str("  classDef error stroke:#c62828,stroke-width:3px\n");
    out.push_str("  classDef missing stroke-dasharray:4 4\n");
    out.push_str("  classDef added fill:#c8e6c9,stroke:#2e7d32,stroke-width:2px\n");
    out.push_str("  classDef removed fill:#ffcdd2,stroke:#c62828,stroke-width:2px\n");
    for (i, node) in graph.nodes.iter().enumerate() {
        let kind = match node.id.kind {
            NodeKind::Policy => "policy",
            NodeKind::GatewayClass | NodeKind::Gateway | NodeKind::ListenerSet => "gateway",
            NodeKind::Listener => "listener",
            NodeKind::Route | NodeKind::Rule => "route",
            NodeKind::Backend | NodeKind::Provider => "backend",
        };
        let mark = match change.map(|c| c.nodes[i]) {
            Some(Mark::Added) => "added",
            Some(Mark::Removed) => "removed",
            _ if node.errors > 0 => "error",
            _ if node.missing => "missing",
            _ => kind,
        };
        let _ = writeln!(out, "  class n{i} {mark}");
    }
}
