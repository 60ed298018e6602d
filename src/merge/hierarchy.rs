//! The hierarchy, built once: which policies attach to which place, which listeners each route
//! hangs from, which TrafficPolicies a rule's ExtensionRef filters name, which routes delegate to
//! which, and the Gateway each listener set belongs to.

use crate::fasthash::FastMap;
use crate::model::facts::{Facts, GATEWAY_API, Spec};
use crate::resolve::{Attachment, RouteAttachment};

use super::Place;

/// The places policies attach to and how they hang together.
pub struct Hierarchy {
    /// Policies attached to each place, in facts order.
    pub attached: FastMap<Place, Vec<usize>>,
    /// TrafficPolicies named by a rule's ExtensionRef filters.
    pub extension: FastMap<Place, Vec<usize>>,
    /// The listeners each route hangs from, per route (facts index).
    pub parents: FastMap<usize, Vec<Place>>,
    /// The routes hanging from each listener.
    pub children: FastMap<Place, Vec<usize>>,
    /// Rule places of each route, per rule: the (kind, namespace, name) of its backendRefs.
    pub backends: FastMap<Place, Vec<usize>>,
    /// Route delegation: per child route, the rules that delegate to it.
    pub delegators: FastMap<usize, Vec<Place>>,
    /// Route delegation: per delegating rule, the routes it delegates to.
    pub delegates: FastMap<Place, Vec<usize>>,
    /// The Gateway each ListenerSet (or XListenerSet) names as its parent, when it is in the
    /// inputs. A listener set is a place as a Gateway is (`Place::Gateway(set)` for the whole
    /// set, `Place::Listener(set, i)` for one of its listeners): its listeners are the parent
    /// Gateway's listeners.
    pub set_parent: FastMap<usize, usize>,
}

/// The part of the [`Hierarchy`] the facts alone decide (delegation, listener sets, what each
/// rule names): made before the resolve stage's attachments are known, so that `lint` builds it
/// beside the resolve stage instead of after it.
pub struct Layout {
    extension: FastMap<Place, Vec<usize>>,
    backends: FastMap<Place, Vec<usize>>,
    delegators: FastMap<usize, Vec<Place>>,
    delegates: FastMap<Place, Vec<usize>>,
    set_parent: FastMap<usize, usize>,
}

impl Layout {
    pub fn new(facts: &[Facts]) -> Self {
        // The name index and the delegation links do not depend on each other.
        let (by_name, (delegators, delegates)) =
            rayon::join(|| names(facts), || super::delegation::links(facts));
        let (set_parent, (extension, backends)) = rayon::join(
            || set_parents(facts, &by_name),
            || rule_targets(facts, &by_name),
        );
        Layout {
            extension,
            backends,
            delegators,
            delegates,
            set_parent,
        }
    }
}

/// The part of the [`Hierarchy`] the resolve stage's attachments decide: the policies on each
/// place and the listeners each route hangs from.
struct Attached {
    policies: FastMap<Place, Vec<usize>>,
    parents: FastMap<usize, Vec<Place>>,
    children: FastMap<Place, Vec<usize>>,
}

impl Attached {
    fn new(facts: &[Facts], attachments: &[Attachment], routes: &[RouteAttachment]) -> Self {
        let ((parents, children), policies) =
            rayon::join(|| hang(routes), || attached_places(facts, attachments));
        Attached {
            policies,
            parents,
            children,
        }
    }
}

impl Hierarchy {
    pub fn new(facts: &[Facts], attachments: &[Attachment], routes: &[RouteAttachment]) -> Self {
        // The layout does not depend on the attachments.
        let (layout, attached) = rayon::join(
            || Layout::new(facts),
            || Attached::new(facts, attachments, routes),
        );
        Hierarchy::assemble(layout, attached)
    }

    /// The hierarchy of a [`Layout`] made earlier from the same facts.
    pub fn of(
        layout: Layout,
        facts: &[Facts],
        attachments: &[Attachment],
        routes: &[RouteAttachment],
    ) -> Self {
        Hierarchy::assemble(layout, Attached::new(facts, attachments, routes))
    }

    fn assemble(layout: Layout, attached: Attached) -> Self {
        Hierarchy {
            attached: attached.policies,
            extension: layout.extension,
            parents: attached.parents,
            children: attached.children,
            backends: layout.backends,
            delegators: layout.delegators,
            delegates: layout.delegates,
            set_parent: layout.set_parent,
        }
    }

    /// The Gateway (or listener set) above a listener, route or rule place (the status
    /// ancestors); above a delegated child route, those of the routes delegating to it.
    pub fn gateways(&self, place: Place) -> Vec<usize> {
        let route = match place {
            Place::Gateway(g) | Place::Listener(g, _) => return vec![g],
            Place::Route(r) | Place::Rule(r, _) => r,
            _ => return Vec::new(),
        };
        let mut out: Vec<usize> = Vec::new();
        let mut seen = Vec::new();
        self.route_gateways(route, &mut seen, &mut out);
        out
    }

    fn route_gateways(&self, route: usize, seen: &mut Vec<usize>, out: &mut Vec<usize>) {
        if seen.contains(&route) {
            return;
        }
        seen.push(route);
        for p in self.parents.get(&route).map(Vec::as_slice).unwrap_or(&[]) {
            if let Place::Listener(g, _) = p
                && !out.contains(g)
            {
                out.push(*g);
            }
        }
        for p in self
            .delegators
            .get(&route)
            .map(Vec::as_slice)
            .unwrap_or(&[])
        {
            if let Place::Rule(parent, _) = p {
                self.route_gateways(*parent, seen, out);
            }
        }
    }
}

/// (kind, namespace, name) -> position in the facts (the first of duplicates).
pub(super) type Names<'a> = FastMap<(&'a str, &'a str, &'a str), usize>;

pub(super) fn names(facts: &[Facts]) -> Names<'_> {
    let mut by_name: Names<'_> = FastMap::with_capacity_and_hasher(facts.len(), Default::default());
    for (i, f) in facts.iter().enumerate() {
        let id = &f.id;
        by_name
            .entry((id.kind.as_str(), id.namespace.as_str(), id.name.as_str()))
            .or_insert(i);
    }
    by_name
}

/// The policies attached to each place, in facts order.
fn attached_places(facts: &[Facts], attachments: &[Attachment]) -> FastMap<Place, Vec<usize>> {
    let mut attached: FastMap<Place, Vec<usize>> = FastMap::default();
    for a in attachments {
        if let Some(place) = place_of(&facts[a.target], a.target, a.section.as_deref()) {
            attached.entry(place).or_default().push(a.policy);
        }
    }
    attached
}

/// The Gateway each ListenerSet names as its parent, when it is in the inputs.
fn set_parents(facts: &[Facts], by_name: &Names<'_>) -> FastMap<usize, usize> {
    let mut set_parent = FastMap::default();
    for (i, f) in facts.iter().enumerate() {
        if let Spec::ListenerSet { parent, .. } = &f.spec
            && parent.kind().is_none_or(|k| k == "Gateway")
            && parent.group().is_none_or(|g| g == GATEWAY_API)
        {
            let ns = parent.namespace().unwrap_or(&f.id.namespace);
            if let Some(&g) = by_name.get(&("Gateway", ns, &*parent.name)) {
                set_parent.insert(i, g);
            }
        }
    }
    set_parent
}

/// Per rule place, the TrafficPolicies its ExtensionRef filters name and the objects its
/// backendRefs name (those in the inputs).
fn rule_targets(
    facts: &[Facts],
    by_name: &Names<'_>,
) -> (FastMap<Place, Vec<usize>>, FastMap<Place, Vec<usize>>) {
    let mut extension: FastMap<Place, Vec<usize>> = FastMap::default();
    let mut backends: FastMap<Place, Vec<usize>> = FastMap::default();
    for (i, f) in facts.iter().enumerate() {
        let Spec::Route(route) = &f.spec else {
            continue;
        };
        let ns = f.id.namespace.as_str();
        for r in &route.extension_refs {
            let (Some(rule), Some("TrafficPolicy")) = (rule_of(&r.path), r.kind()) else {
                continue;
            };
            if let Some(&p) = by_name.get(&("TrafficPolicy", ns, &*r.name)) {
                extension.entry(Place::Rule(i, rule)).or_default().push(p);
            }
        }
        for b in &route.backend_refs {
            let Some(rule) = rule_of(&b.path) else {
                continue;
            };
            let kind = b.kind().unwrap_or("Service");
            let bns = b.namespace().unwrap_or(ns);
            if let Some(&t) = by_name.get(&(kind, bns, &*b.name)) {
                backends.entry(Place::Rule(i, rule)).or_default().push(t);
            }
        }
    }
    (extension, backends)
}

/// The listeners each route hangs from, and the routes hanging from each listener. They are the
/// resolve stage's attachment (hostnames, namespaces and kinds checked): explain and render show
/// the same ones.
type Hung = (FastMap<usize, Vec<Place>>, FastMap<Place, Vec<usize>>);

fn hang(routes: &[RouteAttachment]) -> Hung {
    let (mut parents, mut children): Hung = Default::default();
    for a in routes {
        for &li in &a.listeners {
            let listener = Place::Listener(a.parent, li);
            let hung: &mut Vec<Place> = parents.entry(a.route).or_default();
            if !hung.contains(&listener) {
                hung.push(listener);
                children.entry(listener).or_default().push(a.route);
            }
        }
    }
    (parents, children)
}

/// The place an attachment names.
fn place_of(t: &Facts, target: usize, section: Option<&str>) -> Option<Place> {
    let Some(s) = section else {
        return match &t.spec {
            Spec::Gateway { .. } | Spec::ListenerSet { .. } => Some(Place::Gateway(target)),
            Spec::Route(_) => Some(Place::Route(target)),
            Spec::Service { .. } | Spec::Backend { .. } => Some(Place::Backend(target)),
            _ => None,
        };
    };
    Some(match &t.spec {
        Spec::Gateway { listeners, .. } | Spec::ListenerSet { listeners, .. } => {
            Place::Listener(target, listeners.iter().position(|l| l.name == s)?)
        }
        Spec::Route(route) => Place::Rule(
            target,
            route.rules.iter().position(|r| r.as_deref() == Some(s))?,
        ),
        Spec::Service { ports } => Place::Port(
            target,
            ports.iter().position(|p| p.0.as_deref() == Some(s))?,
        ),
        Spec::Backend { sections, .. } => {
            Place::Provider(target, sections.iter().position(|n| n == s)?)
        }
        _ => return None,
    })
}

/// `spec.rules[3].filters[0].extensionRef` -> 3.
pub(crate) fn rule_of(path: &str) -> Option<usize> {
    let rest = path.strip_prefix("spec.rules[")?;
    rest[..rest.find(']')?].parse().ok()
}
