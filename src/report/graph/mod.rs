//! Writers of the topology graph (`gwctl graph -o mermaid|dot|svg`, and the picture of `gwctl
//! diff -o markdown`). Each writes the same nodes and edges, in the graph's order; names are
//! escaped for each format, as they can hold any character.

mod dot;
mod layout;
mod mermaid;
mod svg;

use crate::graph::{EdgeKind, Graph, Node, NodeKind, Outcome};
use crate::report::escape::escape_controls;

pub use dot::dot;
pub use mermaid::{mermaid, mermaid_change};
pub use svg::svg;

/// How `gwctl graph` prints.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum GraphFormat {
    /// Mermaid flowchart: renders inline in GitHub and GitLab Markdown
    Mermaid,
    /// Graphviz DOT
    Dot,
    /// A self-contained SVG picture, laid out by gwctl
    Svg,
}

/// The graph in a format.
pub fn render_graph(graph: &Graph, format: GraphFormat) -> String {
    match format {
        GraphFormat::Mermaid => mermaid(graph),
        GraphFormat::Dot => dot(graph),
        GraphFormat::Svg => svg(graph),
    }
}

/// A name as text: control characters, tabs and line breaks written escaped, so that a name
/// never breaks a line of any format.
fn plain(s: &str) -> String {
    escape_controls(s).replace('\n', "\\n").replace('\t', "\\t")
}

/// What kind of thing a node is, as its first line says.
fn kind_line(n: &Node) -> String {
    let kind = match n.id.kind {
        NodeKind::Listener => "listener".to_string(),
        NodeKind::Rule => "rule".to_string(),
        NodeKind::Provider => "provider".to_string(),
        _ => n.id.object_kind.clone(),
    };
    if n.missing {
        format!("{kind} (not in the inputs)")
    } else {
        kind
    }
}

/// The node's own name: the object's, or its section's (a rule without a name by position).
fn name_line(n: &Node) -> String {
    match n.id.kind {
        NodeKind::Listener | NodeKind::Provider => plain(&n.id.section),
        NodeKind::Rule if n.id.section.is_empty() => format!("#{}", n.id.index),
        NodeKind::Rule => plain(&n.id.section),
        _ => plain(&n.id.name),
    }
}

/// The full name, for a tooltip: `HTTPRoute shop/checkout rule pay`.
fn full_name(n: &Node) -> String {
    let object = if n.id.namespace.is_empty() {
        plain(&n.id.name)
    } else {
        format!("{}/{}", plain(&n.id.namespace), plain(&n.id.name))
    };
    let mut out = format!("{} {object}", n.id.object_kind);
    if matches!(
        n.id.kind,
        NodeKind::Listener | NodeKind::Rule | NodeKind::Provider
    ) {
        out.push(' ');
        out.push_str(&kind_line(n));
        out.push(' ');
        out.push_str(&name_line(n));
    }
    if n.missing {
        out.push_str(" (not in the inputs)");
    }
    out
}

/// The lines of a node's label: kind, name, detail, error count.
fn label_lines(n: &Node) -> Vec<String> {
    let mut lines = vec![kind_line(n), name_line(n)];
    if !n.detail.is_empty() {
        lines.push(plain(&n.detail));
    }
    if n.errors > 0 {
        lines.push(errors_text(n.errors));
    }
    lines
}

fn errors_text(n: usize) -> String {
    if n == 1 {
        "1 error".to_string()
    } else {
        format!("{n} errors")
    }
}

/// The nodes of each namespace (by position), namespaces in order.
fn by_namespace(graph: &Graph) -> std::collections::BTreeMap<&str, Vec<usize>> {
    let mut out: std::collections::BTreeMap<&str, Vec<usize>> = Default::default();
    for (i, n) in graph.nodes.iter().enumerate() {
        out.entry(n.id.namespace.as_str()).or_default().push(i);
    }
    out
}

/// The namespace's heading (cluster-scoped objects have none).
fn namespace_title(ns: &str) -> String {
    if ns.is_empty() {
        "cluster-scoped".to_string()
    } else {
        format!("namespace {}", plain(ns))
    }
}

/// How an edge is drawn, alike in every format.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Stroke {
    Solid,
    Thick,
    Dashed,
}

fn stroke(kind: EdgeKind) -> Stroke {
    match kind {
        EdgeKind::Refused | EdgeKind::Policy(Outcome::Overridden | Outcome::Invalid) => {
            Stroke::Dashed
        }
        EdgeKind::Policy(Outcome::Applies) | EdgeKind::Delegates => Stroke::Thick,
        _ => Stroke::Solid,
    }
}

/// The colour of an edge (CSS and Graphviz both take these names).
fn color(kind: EdgeKind) -> &'static str {
    match kind {
        EdgeKind::Refused | EdgeKind::Policy(Outcome::Invalid) => "#c62828",
        EdgeKind::Policy(Outcome::Overridden) => "#9e9e9e",
        EdgeKind::Policy(Outcome::Applies) => "#1565c0",
        EdgeKind::Delegates => "#6a1b9a",
        _ => "#424242",
    }
}

/// An edge's label: what it says beyond its kind.
fn edge_label(e: &crate::graph::Edge) -> String {
    let base = match e.kind {
        EdgeKind::Delegates => "delegates",
        EdgeKind::Refused => "refused: ",
        _ => "",
    };
    format!("{base}{}", plain(&e.label))
}

/// The fill of a node of a kind.
fn fill(kind: NodeKind) -> &'static str {
    match kind {
        NodeKind::Policy => "#fff8e1",
        NodeKind::GatewayClass | NodeKind::Gateway | NodeKind::ListenerSet => "#e3f2fd",
        NodeKind::Listener => "#e8eaf6",
        NodeKind::Route | NodeKind::Rule => "#e8f5e9",
        NodeKind::Backend | NodeKind::Provider => "#f3e5f5",
    }
}
