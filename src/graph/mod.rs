//! The topology as data (`gwctl graph`, and the picture of `gwctl diff -o markdown`): Gateways,
//! listeners, routes, rules, backends, AI providers and policies, with the edges between them.
//! Drawn from the resolve stage's route attachments and statuses, the merge stage's hierarchy
//! (delegation, policy attachment) and the predicted policy statuses; nothing is resolved again
//! here. Nodes and edges are sorted by name, never by input order, so that the same manifests
//! give the same graph whatever order they were read in. The writers (mermaid, dot, svg) are in
//! the report stage.

mod build;
mod change;
mod select;
#[cfg(test)]
mod tests;

pub use build::build;
pub use change::{GraphChange, Mark, change};
pub use select::{Selection, select};

/// What a node stands for; the derived order is the drawing order (left to right).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum NodeKind {
    Policy,
    GatewayClass,
    Gateway,
    ListenerSet,
    Listener,
    Route,
    Rule,
    /// A Service, Backend or AiGatewayBackend.
    Backend,
    /// An AI provider or MCP target of an AiGatewayBackend.
    Provider,
}

/// Who a node is: its object, and the section of it (listener, rule, provider) when it is one.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct NodeId {
    pub kind: NodeKind,
    /// Empty for cluster-scoped objects (GatewayClass).
    pub namespace: String,
    /// The object's Kubernetes kind (`HTTPRoute`, `TrafficPolicy`, `Gateway` for a listener).
    pub object_kind: String,
    pub name: String,
    /// Position of the section in its object (listeners, rules, providers); 0 for objects.
    pub index: usize,
    /// The section's name (a rule without one: empty).
    pub section: String,
}

impl NodeId {
    fn object(kind: NodeKind, object_kind: &str, namespace: &str, name: &str) -> Self {
        NodeId {
            kind,
            namespace: namespace.to_string(),
            object_kind: object_kind.to_string(),
            name: name.to_string(),
            index: 0,
            section: String::new(),
        }
    }

    fn section(&self, kind: NodeKind, index: usize, section: &str) -> Self {
        NodeId {
            kind,
            index,
            section: section.to_string(),
            ..self.clone()
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Node {
    pub id: NodeId,
    /// Error-level findings on the node's object (counted on the object's node only).
    pub errors: usize,
    /// Referred to but not in the inputs (a parentRef's or backendRef's target).
    pub missing: bool,
    /// Facts worth showing beside the name: a listener's `HTTP :80 *.example.com`, a
    /// GatewayClass's controller.
    pub detail: String,
}

/// How a policy fares at its target, as its predicted status says.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Outcome {
    /// Attached or Merged: it supplies at least one field somewhere.
    Applies,
    /// Every field it sets is supplied by a higher-ranked policy.
    Overridden,
    /// Not accepted (an error the controller detects): it supplies nothing.
    Invalid,
}

impl Outcome {
    pub fn label(self) -> &'static str {
        match self {
            Outcome::Applies => "applies",
            Outcome::Overridden => "Overridden",
            Outcome::Invalid => "Invalid",
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum EdgeKind {
    /// Structure: a class to its Gateways, a Gateway to its listeners (and listener sets), a
    /// route to its rules, a backend to its providers.
    Contains,
    /// A listener to a route attached to it.
    Attached,
    /// A parentRef that is not accepted: from the Gateway (or the listener it names) to the
    /// route, labelled with the reason.
    Refused,
    /// A rule's backendRef, labelled with the weight when one is written.
    BackendRef,
    /// A rule delegating to a child route.
    Delegates,
    /// A policy to its target.
    Policy(Outcome),
}

/// An edge between two nodes of its graph, by their positions in [`Graph::nodes`]: a large
/// repository's graph has hundreds of thousands, each of which would otherwise hold both its
/// ends' ids (four strings each).
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Edge {
    pub from: usize,
    pub to: usize,
    pub kind: EdgeKind,
    pub label: String,
}

/// Nodes and edges, each sorted and without duplicates; every edge's ends are nodes. Edges are
/// sorted by their ends' positions, which is their ends' ids' order too.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Graph {
    pub nodes: Vec<Node>,
    pub edges: Vec<Edge>,
}

/// The ids of the edges' ends as a graph is built, each numbered once: an edge is made with its
/// ends' numbers ([`Ids::edge`]) rather than holding copies of their ids until the nodes are
/// placed (a large repository's graph has hundreds of thousands of edges).
#[derive(Debug, Default)]
pub(crate) struct Ids {
    numbers: crate::fasthash::FastMap<NodeId, usize>,
}

impl Ids {
    /// An edge between `from` and `to`, by their numbers ([`Graph::new`] places them).
    pub(crate) fn edge(&mut self, from: NodeId, to: NodeId, kind: EdgeKind, label: String) -> Edge {
        Edge {
            from: self.number(from),
            to: self.number(to),
            kind,
            label,
        }
    }

    fn number(&mut self, id: NodeId) -> usize {
        let next = self.numbers.len();
        *self.numbers.entry(id).or_insert(next)
    }

    /// Whether some edge has an end of this id.
    pub(crate) fn contains(&self, id: &NodeId) -> bool {
        self.numbers.contains_key(id)
    }
}

/// An edge as its ends' ids, comparable across graphs.
pub(crate) type EdgeKey<'g> = (&'g NodeId, &'g NodeId, EdgeKind, &'g str);

impl Graph {
    /// The graph of `nodes` and `edges` (whose ends are numbered by `ids`): the nodes sorted,
    /// one of each id (the most errors, and missing only where each is), the edges placed
    /// between them (those whose ends are not nodes dropped), sorted and unique.
    pub(crate) fn new(mut nodes: Vec<Node>, ids: Ids, edges: Vec<Edge>) -> Graph {
        nodes.sort_by(|a, b| a.id.cmp(&b.id));
        nodes.dedup_by(|b, a| {
            if a.id == b.id {
                a.errors = a.errors.max(b.errors);
                a.missing &= b.missing;
                true
            } else {
                false
            }
        });
        let mut graph = Graph {
            nodes,
            edges: Vec::new(),
        };
        // Each number's node position, looked up once per id rather than once per edge end.
        let mut at: Vec<Option<usize>> = vec![None; ids.numbers.len()];
        for (id, n) in ids.numbers {
            at[n] = graph.position(&id);
        }
        graph.edges = edges
            .into_iter()
            .filter_map(|e| {
                Some(Edge {
                    from: at[e.from]?,
                    to: at[e.to]?,
                    ..e
                })
            })
            .collect();
        graph.edges.sort_unstable();
        graph.edges.dedup();
        graph
    }

    /// The position of a node, by id.
    pub fn position(&self, id: &NodeId) -> Option<usize> {
        self.nodes.binary_search_by(|n| n.id.cmp(id)).ok()
    }

    /// The ids of an edge's ends: its edge as another graph would have it.
    pub(crate) fn key<'g>(&'g self, e: &'g Edge) -> EdgeKey<'g> {
        (
            &self.nodes[e.from].id,
            &self.nodes[e.to].id,
            e.kind,
            e.label.as_str(),
        )
    }

    /// The nodes `keep` holds (by position) and the edges between them.
    pub(crate) fn induced(self, keep: &[bool]) -> Graph {
        let kept = |i: usize| keep.get(i).copied().unwrap_or(false);
        // The new position of each node kept.
        let mut at = vec![usize::MAX; self.nodes.len()];
        let mut nodes = Vec::new();
        for (i, n) in self.nodes.into_iter().enumerate() {
            if kept(i) {
                at[i] = nodes.len();
                nodes.push(n);
            }
        }
        let edges = self
            .edges
            .into_iter()
            .filter(|e| kept(e.from) && kept(e.to))
            .map(|e| Edge {
                from: at[e.from],
                to: at[e.to],
                ..e
            })
            .collect();
        Graph { nodes, edges }
    }

    /// The namespaces of the nodes, sorted (the empty one, of cluster-scoped objects, first).
    pub fn namespaces(&self) -> Vec<&str> {
        let mut out: Vec<&str> = self.nodes.iter().map(|n| n.id.namespace.as_str()).collect();
        out.sort_unstable();
        out.dedup();
        out
    }
}
