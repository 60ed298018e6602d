//! A self-contained SVG picture (inline style, no scripts, no external references), laid out by
//! [`super::layout`]: one `<g class="node">` per node, with its full name as a `<title>`
//! tooltip and long names shortened on the picture.

use std::fmt::Write;

use crate::graph::Graph;
use crate::report::junit::xml;

use super::layout::{Layout, NODE_H, NODE_W, layout};
use super::{
    Stroke, color, edge_label, errors_text, fill, full_name, kind_line, name_line, namespace_title,
    stroke,
};

/// Characters of a name that fit a node's width.
const NAME_CHARS: usize = 28;

/// A name cut in the middle to `max` characters, the cut marked with `…`.
fn shortened(s: &str, max: usize) -> String {
    let count = s.chars().count();
    if count <= max {
        return s.to_string();
    }
    let head = (max - 1) / 2;
    let tail = max - 1 - head;
    let start: String = s.chars().take(head).collect();
    let end: String = s.chars().skip(count - tail).collect();
    format!("{start}…{end}")
}

const STYLE: &str = "text{font-family:Helvetica,Arial,sans-serif}\
.kind{font-size:10px;fill:#555}.name{font-size:12px;fill:#111}.errors{font-size:10px;fill:#c62828;font-weight:bold}\
.band rect{fill:#fafafa;stroke:#ddd}.band text{font-size:12px;fill:#777}\
.edge{fill:none}.edge-label{font-size:9px;fill:#333}";

/// The graph as an SVG document.
pub fn svg(graph: &Graph) -> String {
    let Layout {
        at,
        bands,
        width,
        height,
    } = layout(graph);
    let mut out = format!(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width}\" height=\"{height}\" viewBox=\"0 0 {width} {height}\">\n<style>{STYLE}</style>\n<defs><marker id=\"arrow\" viewBox=\"0 0 10 10\" refX=\"10\" refY=\"5\" markerWidth=\"6\" markerHeight=\"6\" orient=\"auto-start-reverse\"><path d=\"M0,0 L10,5 L0,10 z\" fill=\"#555\"/></marker></defs>\n"
    );
    for b in &bands {
        let _ = writeln!(
            out,
            "<g class=\"band\"><rect x=\"4\" y=\"{}\" width=\"{}\" height=\"{}\" rx=\"6\"/><text x=\"12\" y=\"{}\">{}</text></g>",
            b.y,
            width - 8.0,
            b.height,
            b.y + 16.0,
            xml(&namespace_title(&b.namespace))
        );
    }
    write_edges(&mut out, graph, &at);
    write_nodes(&mut out, graph, &at);
    out.push_str("</svg>\n");
    out
}

/// Each edge as a curve from the right side of one box to the left side of the other, with its
/// label at the middle and its two ends in a tooltip.
fn write_edges(out: &mut String, graph: &Graph, at: &[(f64, f64)]) {
    for e in &graph.edges {
        let (a, b) = (e.from, e.to);
        let (x1, y1) = (at[a].0 + NODE_W, at[a].1 + NODE_H / 2.0);
        let (x2, y2) = (at[b].0, at[b].1 + NODE_H / 2.0);
        let bend = ((x2 - x1).abs() / 2.0).max(60.0);
        let dash = match stroke(e.kind) {
            Stroke::Dashed => " stroke-dasharray=\"5 4\"",
            Stroke::Thick => " stroke-width=\"2\"",
            Stroke::Solid => "",
        };
        let label = edge_label(e);
        let title = format!(
            "{} -> {}{}",
            full_name(&graph.nodes[a]),
            full_name(&graph.nodes[b]),
            if label.is_empty() {
                String::new()
            } else {
                format!(": {label}")
            }
        );
        let _ = write!(
            out,
            "<g><title>{}</title><path class=\"edge\" d=\"M{x1},{y1} C{},{y1} {},{y2} {x2},{y2}\" stroke=\"{}\"{dash} marker-end=\"url(#arrow)\"/>",
            xml(&title),
            x1 + bend,
            x2 - bend,
            color(e.kind)
        );
        if !label.is_empty() {
            let _ = write!(
                out,
                "<text class=\"edge-label\" x=\"{}\" y=\"{}\" text-anchor=\"middle\">{}</text>",
                (x1 + x2) / 2.0,
                (y1 + y2) / 2.0 - 3.0,
                xml(&shortened(&label, 40))
            );
        }
        out.push_str("</g>\n");
    }
}

/// Each node as one `<g class="node">`: tooltip, box, kind, name, and the detail or error count.
fn write_nodes(out: &mut String, graph: &Graph, at: &[(f64, f64)]) {
    for (i, n) in graph.nodes.iter().enumerate() {
        let (x, y) = at[i];
        let border = if n.errors > 0 {
            " stroke=\"#c62828\" stroke-width=\"3\""
        } else if n.missing {
            " stroke=\"#555\" stroke-dasharray=\"4 3\""
        } else {
            " stroke=\"#555\""
        };
        let _ = write!(
            out,
            "<g class=\"node\" id=\"n{i}\"><title>{}</title><rect x=\"{x}\" y=\"{y}\" width=\"{NODE_W}\" height=\"{NODE_H}\" rx=\"8\" fill=\"{}\"{border}/><text class=\"kind\" x=\"{}\" y=\"{}\">{}</text><text class=\"name\" x=\"{}\" y=\"{}\">{}</text>",
            xml(&full_name(n)),
            fill(n.id.kind),
            x + 8.0,
            y + 15.0,
            xml(&shortened(&kind_line(n), NAME_CHARS + 4)),
            x + 8.0,
            y + 32.0,
            xml(&shortened(&name_line(n), NAME_CHARS)),
        );
        let mut extra = shortened(&super::plain(&n.detail), NAME_CHARS + 4);
        if n.errors > 0 {
            extra = errors_text(n.errors);
        }
        if !extra.is_empty() {
            let class = if n.errors > 0 { "errors" } else { "kind" };
            let _ = write!(
                out,
                "<text class=\"{class}\" x=\"{}\" y=\"{}\">{}</text>",
                x + 8.0,
                y + 46.0,
                xml(&extra)
            );
        }
        out.push_str("</g>\n");
    }
}
