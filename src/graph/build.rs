//! The graph of a run, from its model, the resolve stage's route attachments and statuses, and
//! one merge (hierarchy and predicted policy statuses).

use crate::diag::{Diagnostic, Severity};
use crate::fasthash::{FastMap, FastSet};
use crate::lint::{LintRun, Model};
use crate::merge::{Hierarchy, Merged, Place, PolicyStatus, rule_of};
use crate::model::facts::{Facts, GATEWAY_API, Spec};
use crate::resolve::{RouteAttachment, RouteStatus};

use super::{Edge, EdgeKind, Graph, Ids, Node, NodeId, NodeKind, Outcome};

/// The delegation group of a backendRef that selects child routes by label.
const DELEGATION_LABEL_GROUP: &str = "delegation.kgateway.dev";

/// The graph of a run made with the model kept (`Needs::Model` or `Needs::Diff`) and its
/// merge; empty without a model.
pub fn build(run: &LintRun, merged: &Merged<'_>) -> Graph {
    let Some(model) = &run.model else {
        return Graph::default();
    };
    let statuses = Model::statuses(merged, run);
    let facts = &model.facts;
    let mut b = Builder {
        facts,
        index: facts
            .iter()
            .enumerate()
            .map(|(i, f)| {
                (
                    (
                        f.id.kind.as_str(),
                        f.id.namespace.as_str(),
                        f.id.name.as_str(),
                    ),
                    i,
                )
            })
            .collect(),
        errors: error_counts(&run.diagnostics),
        nodes: Vec::new(),
        ids: Ids::default(),
        edges: Vec::new(),
    };
    b.objects(&merged.hierarchy);
    b.attachments(&model.route_attachments);
    b.refusals(&run.route_statuses);
    b.backend_refs();
    b.delegation(&merged.hierarchy);
    b.policies(&merged.hierarchy, &statuses, &model.merge_options.rejected);
    let (mut nodes, ids, edges) = (b.nodes, b.ids, b.edges);
    prune_unused_services(&mut nodes, &ids);
    Graph::new(nodes, ids, edges)
}

/// Error-level findings per object (kind, namespace, name), from the findings' resources.
fn error_counts(diagnostics: &[Diagnostic]) -> FastMap<(&str, &str, &str), usize> {
    let mut out: FastMap<(&str, &str, &str), usize> = FastMap::default();
    for d in diagnostics.iter().filter(|d| d.severity == Severity::Error) {
        if let Some(r) = &d.resource {
            let ns = r.namespace.as_deref().unwrap_or("");
            *out.entry((r.kind.as_str(), ns, r.name.as_str()))
                .or_default() += 1;
        }
    }
    out
}

struct Builder<'a> {
    facts: &'a [Facts],
    /// (kind, namespace, name) -> position in the facts.
    index: FastMap<(&'a str, &'a str, &'a str), usize>,
    errors: FastMap<(&'a str, &'a str, &'a str), usize>,
    nodes: Vec<Node>,
    /// The edges' ends, numbered.
    ids: Ids,
    /// The edges so far, by their ends' numbers.
    edges: Vec<Edge>,
}

impl<'a> Builder<'a> {
    /// The node of an object, for the kinds the graph draws.
    fn object_id(&self, i: usize) -> Option<NodeId> {
        let f = &self.facts[i];
        let kind = match &f.spec {
            Spec::Gateway { .. } => NodeKind::Gateway,
            Spec::ListenerSet { .. } => NodeKind::ListenerSet,
            Spec::GatewayClass { .. } => NodeKind::GatewayClass,
            Spec::Route(_) => NodeKind::Route,
            Spec::Service { .. } | Spec::Backend { .. } => NodeKind::Backend,
            Spec::Policy(_) => NodeKind::Policy,
            _ => return None,
        };
        Some(NodeId::object(
            kind,
            &f.id.kind,
            &f.id.namespace,
            &f.id.name,
        ))
    }

    fn listener_id(&self, owner: usize, i: usize) -> Option<NodeId> {
        let (Spec::Gateway { listeners, .. } | Spec::ListenerSet { listeners, .. }) =
            &self.facts[owner].spec
        else {
            return None;
        };
        let l = listeners.get(i)?;
        Some(
            self.object_id(owner)?
                .section(NodeKind::Listener, i, &l.name),
        )
    }

    fn rule_id(&self, route: usize, i: usize) -> Option<NodeId> {
        let Spec::Route(r) = &self.facts[route].spec else {
            return None;
        };
        let name = r.rules.get(i)?.as_deref().unwrap_or("");
        Some(self.object_id(route)?.section(NodeKind::Rule, i, name))
    }

    fn provider_id(&self, backend: usize, i: usize) -> Option<NodeId> {
        let Spec::Backend { sections, .. } = &self.facts[backend].spec else {
            return None;
        };
        let name = sections.get(i)?;
        Some(
            self.object_id(backend)?
                .section(NodeKind::Provider, i, name),
        )
    }

    fn node(&mut self, id: NodeId, detail: String) {
        let errors = if id.kind == NodeKind::Listener
            || id.kind == NodeKind::Rule
            || id.kind == NodeKind::Provider
        {
            0
        } else {
            let count = |ns: &str| {
                self.errors
                    .get(&(id.object_kind.as_str(), ns, id.name.as_str()))
                    .copied()
                    .unwrap_or(0)
            };
            // A finding names an object written without a namespace with none; the facts
            // put it in `default`.
            count(&id.namespace)
                + if id.namespace == "default" {
                    count("")
                } else {
                    0
                }
        };
        self.nodes.push(Node {
            id,
            errors,
            missing: false,
            detail,
        });
    }

    fn edge(&mut self, from: NodeId, to: NodeId, kind: EdgeKind, label: String) {
        let edge = self.ids.edge(from, to, kind, label);
        self.edges.push(edge);
    }

    /// A node for every object the graph draws, with its sections and the edges of structure.
    fn objects(&mut self, h: &Hierarchy) {
        for i in 0..self.facts.len() {
            let Some(id) = self.object_id(i) else {
                continue;
            };
            let f = &self.facts[i];
            match &f.spec {
                Spec::GatewayClass { controller } => self.node(id, controller.clone()),
                Spec::Gateway {
                    class, listeners, ..
                } => {
                    if let Some(class) = class
                        && let Some(&c) = self.index.get(&("GatewayClass", "", &*class.name))
                        && let Some(cid) = self.object_id(c)
                    {
                        self.edge(cid, id.clone(), EdgeKind::Contains, String::new());
                    }
                    self.listeners(&id, listeners);
                    self.node(id, String::new());
                }
                Spec::ListenerSet { listeners, .. } => {
                    if let Some(&g) = h.set_parent.get(&i)
                        && let Some(gid) = self.object_id(g)
                    {
                        self.edge(gid, id.clone(), EdgeKind::Contains, String::new());
                    }
                    self.listeners(&id, listeners);
                    self.node(id, String::new());
                }
                Spec::Route(route) => {
                    for (r, name) in route.rules.iter().enumerate() {
                        let rid = id.section(NodeKind::Rule, r, name.as_deref().unwrap_or(""));
                        self.edge(id.clone(), rid.clone(), EdgeKind::Contains, String::new());
                        self.node(rid, String::new());
                    }
                    self.node(id, route.hostnames.join(" "));
                }
                Spec::Backend { sections, variant } => {
                    for (s, name) in sections.iter().enumerate() {
                        let pid = id.section(NodeKind::Provider, s, name);
                        self.edge(id.clone(), pid.clone(), EdgeKind::Contains, String::new());
                        self.node(pid, String::new());
                    }
                    self.node(id, variant.unwrap_or("").to_string());
                }
                _ => self.node(id, String::new()),
            }
        }
    }

    fn listeners(&mut self, owner: &NodeId, listeners: &[crate::model::facts::Listener]) {
        for (n, l) in listeners.iter().enumerate() {
            let lid = owner.section(NodeKind::Listener, n, &l.name);
            let mut detail = l.protocol.clone();
            if let Some(port) = l.port {
                detail.push_str(&format!(" :{port}"));
            }
            if let Some(host) = &l.hostname {
                detail.push(' ');
                detail.push_str(host);
            }
            self.edge(
                owner.clone(),
                lid.clone(),
                EdgeKind::Contains,
                String::new(),
            );
            self.node(lid, detail);
        }
    }

    /// Accepted parentRefs: the resolve stage's attachment, listener by listener.
    fn attachments(&mut self, routes: &[RouteAttachment]) {
        for a in routes {
            let Some(route) = self.object_id(a.route) else {
                continue;
            };
            for &l in &a.listeners {
                if let Some(lid) = self.listener_id(a.parent, l) {
                    self.edge(lid, route.clone(), EdgeKind::Attached, String::new());
                }
            }
        }
    }

    /// parentRefs the resolve stage did not accept, with its reason.
    fn refusals(&mut self, statuses: &[RouteStatus]) {
        for s in statuses.iter().filter(|s| !s.accepted.status) {
            let ns = s.route.namespace.as_deref().unwrap_or("");
            let Some(&r) = self
                .index
                .get(&(s.route.kind.as_str(), ns, s.route.name.as_str()))
            else {
                continue;
            };
            let (Spec::Route(route), Some(rid)) = (&self.facts[r].spec, self.object_id(r)) else {
                continue;
            };
            let Some(p) = route.parent_refs.get(s.parent) else {
                continue;
            };
            let kind = p.kind().unwrap_or("Gateway");
            if !matches!(kind, "Gateway" | "ListenerSet" | "XListenerSet") {
                continue;
            }
            let pns = p.namespace().unwrap_or(ns);
            let parent = match self.index.get(&(kind, pns, &*p.name)) {
                Some(&g) => self.parent_node(g, p.section()),
                None => self.missing(NodeKind::Gateway, kind, pns, &p.name),
            };
            if let Some(parent) = parent {
                let reason = s.accepted.reason.to_string();
                self.edge(parent, rid, EdgeKind::Refused, reason);
            }
        }
    }

    /// The listener a parentRef's sectionName names, else the Gateway (or listener set).
    fn parent_node(&self, g: usize, section: Option<&str>) -> Option<NodeId> {
        if let (Some(s), Spec::Gateway { listeners, .. } | Spec::ListenerSet { listeners, .. }) =
            (section, &self.facts[g].spec)
            && let Some(l) = listeners.iter().position(|l| l.name == s)
        {
            return self.listener_id(g, l);
        }
        self.object_id(g)
    }

    fn missing(
        &mut self,
        kind: NodeKind,
        object_kind: &str,
        ns: &str,
        name: &str,
    ) -> Option<NodeId> {
        let id = NodeId::object(kind, object_kind, ns, name);
        self.nodes.push(Node {
            id: id.clone(),
            errors: 0,
            missing: true,
            detail: String::new(),
        });
        Some(id)
    }

    /// Each rule's backendRefs (not the ones that delegate: see [`Builder::delegation`]).
    fn backend_refs(&mut self) {
        for r in 0..self.facts.len() {
            let f = &self.facts[r];
            let Spec::Route(route) = &f.spec else {
                continue;
            };
            for (j, b) in route.backend_refs.iter().enumerate() {
                let group = b.group().unwrap_or("");
                let kind = b.kind().unwrap_or("Service");
                let delegates = (group == GATEWAY_API && kind == "HTTPRoute")
                    || group == DELEGATION_LABEL_GROUP;
                let Some(rule) = rule_of(&b.path) else {
                    continue;
                };
                let (false, Some(rid)) = (delegates, self.rule_id(r, rule)) else {
                    continue;
                };
                let ns = b.namespace().unwrap_or(&f.id.namespace);
                let target = match self.index.get(&(kind, ns, &*b.name)) {
                    Some(&t) => self.object_id(t),
                    None => self.missing(NodeKind::Backend, kind, ns, &b.name),
                };
                let weight = route
                    .backend_weights
                    .iter()
                    .find(|(k, _)| usize::try_from(*k).is_ok_and(|k| k == j))
                    .map(|(_, w)| format!("weight {w}"))
                    .unwrap_or_default();
                if let Some(target) = target {
                    self.edge(rid, target, EdgeKind::BackendRef, weight);
                }
            }
        }
    }

    fn delegation(&mut self, h: &Hierarchy) {
        for (place, children) in &h.delegates {
            let Place::Rule(p, rule) = *place else {
                continue;
            };
            let Some(from) = self.rule_id(p, rule) else {
                continue;
            };
            for &c in children {
                if let Some(to) = self.object_id(c) {
                    self.edge(from.clone(), to, EdgeKind::Delegates, String::new());
                }
            }
        }
    }

    /// The node a policy attached at a place points at, and what to add to its label (a
    /// Service port, drawn on the Service).
    fn place_node(&self, place: Place) -> Option<(NodeId, String)> {
        Some(match place {
            Place::Gateway(g) | Place::Backend(g) | Place::Route(g) => {
                (self.object_id(g)?, String::new())
            }
            Place::Listener(g, l) => (self.listener_id(g, l)?, String::new()),
            Place::Rule(r, i) => (self.rule_id(r, i)?, String::new()),
            Place::Provider(b, i) => (self.provider_id(b, i)?, String::new()),
            Place::Port(s, i) => {
                let Spec::Service { ports } = &self.facts[s].spec else {
                    return None;
                };
                let port = ports.get(i)?;
                let name = port.0.clone().unwrap_or_else(|| port.1.to_string());
                (self.object_id(s)?, format!(" port {name}"))
            }
        })
    }

    fn policies(&mut self, h: &Hierarchy, statuses: &[PolicyStatus], rejected: &FastSet<usize>) {
        let outcomes = outcomes(statuses, rejected);
        let attached = h.attached.iter().map(|(p, v)| (p, v, ""));
        let extension = h.extension.iter().map(|(p, v)| (p, v, " (extensionRef)"));
        let all: Vec<_> = attached.chain(extension).collect();
        for (&place, policies, via) in all {
            let Some((target, port)) = self.place_node(place) else {
                continue;
            };
            for &p in policies {
                let Some(pid) = self.object_id(p) else {
                    continue;
                };
                let outcome = if rejected.contains(&p) {
                    Outcome::Invalid
                } else {
                    outcomes.get(&p).copied().unwrap_or(Outcome::Applies)
                };
                let label = format!("{}{port}{via}", outcome.label());
                self.edge(pid, target.clone(), EdgeKind::Policy(outcome), label);
            }
        }
    }
}

/// Each policy's outcome from its predicted statuses (one per ancestor): Invalid when it is not
/// accepted, Overridden when it is overridden at every ancestor, else it applies.
fn outcomes(statuses: &[PolicyStatus], rejected: &FastSet<usize>) -> FastMap<usize, Outcome> {
    let mut out: FastMap<usize, Outcome> = FastMap::default();
    for s in statuses {
        let this = if !s.accepted.status || rejected.contains(&s.policy_index) {
            Outcome::Invalid
        } else if s.attached.reason == "Overridden" {
            Outcome::Overridden
        } else {
            Outcome::Applies
        };
        out.entry(s.policy_index)
            .and_modify(|o| *o = (*o).min(this))
            .or_insert(this);
    }
    // Not accepted anywhere is not accepted at all, whatever an ancestor's tally said.
    for (p, o) in &mut out {
        if rejected.contains(p) {
            *o = Outcome::Invalid;
        }
    }
    out
}

/// Services no route or policy refers to are left out: a manifest set holds many (for
/// Deployments, mesh traffic) that have nothing to do with the gateways.
fn prune_unused_services(nodes: &mut Vec<Node>, ends: &Ids) {
    nodes.retain(|n| {
        !(n.id.kind == NodeKind::Backend && n.id.object_kind == "Service") || ends.contains(&n.id)
    });
}
