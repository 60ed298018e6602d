//! Graphviz DOT: one cluster per namespace, node ids by position (`n0`, `n1`...), every name in
//! a quoted string.

use std::fmt::Write;

use crate::graph::{Graph, NodeKind};

use super::{
    Stroke, by_namespace, color, edge_label, fill, full_name, label_lines, namespace_title, stroke,
};

/// A DOT quoted string: `"` and `\` escaped (a backslash would start a label escape such as
/// `\N`); names reach here with line breaks and controls already escaped as text.
fn quoted(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        if c == '"' || c == '\\' {
            out.push('\\');
        }
        out.push(c);
    }
    out.push('"');
    out
}

/// Lines of a label, joined with DOT's centred line break (added after quoting the lines).
fn label(lines: &[String]) -> String {
    let quoted: Vec<String> = lines.iter().map(|l| quoted(l)).collect();
    let inner: Vec<&str> = quoted.iter().map(|q| &q[1..q.len() - 1]).collect();
    format!("\"{}\"", inner.join("\\n"))
}

/// The graph as DOT.
pub fn dot(graph: &Graph) -> String {
    let mut out = String::from(
        "digraph gwctl {\n  rankdir=LR;\n  node [shape=box, style=\"rounded,filled\", fontname=\"Helvetica\", fontsize=11];\n  edge [fontname=\"Helvetica\", fontsize=9];\n",
    );
    for (n, (ns, members)) in by_namespace(graph).into_iter().enumerate() {
        let _ = writeln!(out, "  subgraph cluster_{n} {{");
        let _ = writeln!(out, "    label={};", quoted(&namespace_title(ns)));
        for i in members {
            let node = &graph.nodes[i];
            let shape = match node.id.kind {
                NodeKind::Policy => "hexagon",
                NodeKind::Listener | NodeKind::Provider => "ellipse",
                _ => "box",
            };
            let mut attrs = format!(
                "label={}, tooltip={}, shape={shape}, fillcolor=\"{}\"",
                label(&label_lines(node)),
                quoted(&full_name(node)),
                fill(node.id.kind)
            );
            if node.errors > 0 {
                attrs.push_str(", color=\"#c62828\", penwidth=3");
            }
            if node.missing {
                attrs.push_str(", style=\"rounded,dashed\"");
            }
            let _ = writeln!(out, "    n{i} [{attrs}];");
        }
        out.push_str("  }\n");
    }
    for e in &graph.edges {
        let (from, to) = (e.from, e.to);
        let mut attrs = format!("color=\"{}\"", color(e.kind));
        match stroke(e.kind) {
            Stroke::Solid => {}
            Stroke::Thick => attrs.push_str(", penwidth=2"),
            Stroke::Dashed => attrs.push_str(", style=dashed"),
        }
        let text = edge_label(e);
        if !text.is_empty() {
            let _ = write!(attrs, ", label={}", quoted(&text));
        }
        let _ = writeln!(out, "  n{from} -> n{to} [{attrs}];");
    }
    out.push_str("}\n");
    out
}
