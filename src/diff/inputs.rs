//! Which Gateways' renderings can differ between the two sides of a diff, without rendering
//! them. A Gateway's inputs are the objects its rendering reads: itself, its GatewayClass and
//! what that names, the ListenerSets and routes naming it (delegated children too), everything
//! those name (backends, Services, Secrets, extensions, parameters), the policies targeting any
//! of them (by targetRefs; by targetSelectors, every selecting policy of the namespace, so that
//! a label change counts), and the ReferenceGrants and Namespace of every namespace they are in.
//! A Gateway whose inputs are the same objects with the same content and the same verdicts on
//! both sides renders the same, so neither side renders it.
//!
//! Conservative by construction: names are matched without their kind (an object of another
//! kind with the name is an input too), and a changed object of a kind not listed in [`KNOWN`]
//! (one whose reads by the renderers are not known here) counts as a change of every Gateway.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::hash::{DefaultHasher, Hash, Hasher};
use std::sync::OnceLock;

use rayon::prelude::*;

use crate::fasthash::FastMap;
use crate::lint::LintRun;
use crate::model::Object;
use crate::model::facts::{Facts, GATEWAY_API, GATEWAY_API_X, ObjRef, Spec};
use crate::model::written::Written;
use crate::render::{self, RenderOptions};

/// The kinds whose reads by the renderers are known (by reference, by the namespace, or by a
/// policy's target): a change of any other kind's object changes every Gateway.
const KNOWN: &[(&str, &[&str])] = &[
    (
        GATEWAY_API,
        &[
            "Gateway",
            "GatewayClass",
            "HTTPRoute",
            "GRPCRoute",
            "TCPRoute",
            "TLSRoute",
            "UDPRoute",
            "ReferenceGrant",
            "BackendTLSPolicy",
            "ListenerSet",
        ],
    ),
    (GATEWAY_API_X, &["XListenerSet"]),
    (
        "gateway.kgateway.dev",
        &[
            "TrafficPolicy",
            "HTTPListenerPolicy",
            "ListenerPolicy",
            "BackendConfigPolicy",
            "Backend",
            "GatewayExtension",
            "DirectResponse",
            "GatewayParameters",
        ],
    ),
    ("agentgateway.dev", &["AiGatewayBackend", "AiGatewayPolicy"]),
    ("", &["Service", "Secret", "ConfigMap", "Namespace"]),
];

/// An object by group, kind, namespace and name.
type Key = (String, String, String, String);

/// One side's inputs, reduced to digests.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Inputs {
    /// Each selected Gateway (namespace, name) with a digest of its inputs.
    pub gateways: BTreeMap<(String, String), u64>,
    /// The objects of kinds not in [`KNOWN`], with their content's digest.
    pub unknown: BTreeMap<Key, Vec<u64>>,
}

/// The Gateways whose inputs differ between the sides (present on one side only included);
/// `None` when every Gateway may differ (an object of an unknown kind changed).
pub fn changed(base: &Inputs, head: &Inputs) -> Option<BTreeSet<(String, String)>> {
    if base.unknown != head.unknown {
        return None;
    }
    let mut out = BTreeSet::new();
    for (g, digest) in &base.gateways {
        if head.gateways.get(g) != Some(digest) {
            out.insert(g.clone());
        }
    }
    for g in head.gateways.keys() {
        if !base.gateways.contains_key(g) {
            out.insert(g.clone());
        }
    }
    Some(out)
}

impl Inputs {
    /// The inputs of the Gateways a render of the run selects (a run made with
    /// `render::diff_options`); `global_policy_namespace` is the config's: its policies
    /// apply in every namespace.
    pub fn of_run(
        run: &LintRun,
        options: &RenderOptions,
        global_policy_namespace: Option<&str>,
    ) -> Inputs {
        let Some(model) = &run.model else {
            return Inputs::default();
        };
        let mut phases = crate::lint::Phases::start();
        let discovery = !options.discovery_namespace_selectors.is_empty()
            || model
                .values
                .as_ref()
                .is_some_and(|v| v.get("discoveryNamespaceSelectors").is_some());
        let tables = Tables::new(
            run,
            &model.facts,
            &model.objects,
            global_policy_namespace,
            discovery,
        );
        let graph = Graph::new(&tables);
        let by_key: FastMap<(&str, &str), usize> = model
            .facts
            .iter()
            .enumerate()
            .filter(|(_, f)| f.id.group == GATEWAY_API && f.id.kind == "Gateway")
            .map(|(i, f)| ((f.id.namespace.as_str(), f.id.name.as_str()), i))
            .collect();
        phases.mark("inputs graph");
        let selected = render::selected_gateways(run, options);
        phases.mark("inputs selected");
        let gateways = selected
            .into_par_iter()
            .filter_map(|(ns, name)| {
                let &at = by_key.get(&(ns.as_str(), name.as_str()))?;
                let digest = graph.digest(at);
                Some(((ns, name), digest))
            })
            .collect();
        let mut unknown: BTreeMap<Key, Vec<u64>> = BTreeMap::new();
        for (i, f) in model.facts.iter().enumerate() {
            if !known(&f.id.group, &f.id.kind) {
                let (group, kind, namespace, name) = f.id.key();
                let key = (group.into(), kind.into(), namespace.into(), name.into());
                unknown.entry(key).or_default().push(graph.fingerprint(i));
            }
        }
        for digests in unknown.values_mut() {
            // Two objects of one name: which came first is no change.
            digests.sort_unstable();
        }
        phases.mark("inputs digests");
        Inputs { gateways, unknown }
    }
}

fn known(group: &str, kind: &str) -> bool {
    KNOWN
        .iter()
        .any(|(g, kinds)| *g == group && kinds.contains(&kind))
}

fn is_route(kind: &str) -> bool {
    kind.ends_with("Route")
}

/// Kinds that attach to others by a parentRef: what reads them is above them.
fn attaches(kind: &str) -> bool {
    matches!(kind, "Gateway" | "ListenerSet" | "XListenerSet") || is_route(kind)
}

/// Who names whom, over one side's objects (positions of the model's facts and objects).
struct Tables<'a> {
    run: &'a LintRun,
    facts: &'a [Facts],
    objects: &'a [Object],
    by_name: FastMap<(&'a str, &'a str), Vec<usize>>,
    /// Routes and ListenerSets by the (namespace, name) their parentRefs name.
    children: FastMap<(&'a str, &'a str), Vec<usize>>,
    /// Policies by the (namespace, name) their targetRefs name.
    targeting: FastMap<(&'a str, &'a str), Vec<usize>>,
    /// Per namespace: its policies with targetSelectors, ReferenceGrants and routes.
    selecting: FastMap<&'a str, Vec<usize>>,
    /// ReferenceGrants by (their namespace, a namespace they let refer to it).
    grants: FastMap<(&'a str, &'a str), Vec<usize>>,
    routes: FastMap<&'a str, Vec<usize>>,
    /// Policies of the global policy namespace (they apply in every namespace).
    global: Vec<usize>,
    /// The controller watches only the namespaces selectors pick (a namespace's labels are
    /// then an input of everything in it).
    discovery: bool,
}

/// The walk over [`Tables`], with what it finds per object kept: most objects are read by
/// several Gateways.
struct Graph<'a, 't> {
    t: &'t Tables<'a>,
    /// Per object: what reading it reads next (made when first needed) and its content's
    /// digest.
    edges: Vec<OnceLock<Edges<'t>>>,
    fingerprints: Vec<OnceLock<u64>>,
    identified: Vec<OnceLock<u64>>,
}

impl<'a> std::ops::Deref for Graph<'a, '_> {
    type Target = Tables<'a>;

    fn deref(&self) -> &Tables<'a> {
        self.t
    }
}

impl<'a> Tables<'a> {
    fn new(
        run: &'a LintRun,
        facts: &'a [Facts],
        objects: &'a [Object],
        global_policy_namespace: Option<&str>,
        discovery: bool,
    ) -> Self {
        let mut g = Tables {
            run,
            facts,
            objects,
            by_name: FastMap::default(),
            children: FastMap::default(),
            targeting: FastMap::default(),
            selecting: FastMap::default(),
            grants: FastMap::default(),
            routes: FastMap::default(),
            global: Vec::new(),
            discovery,
        };
        for (i, f) in facts.iter().enumerate() {
            let ns = f.id.namespace.as_str();
            g.by_name.entry((ns, &f.id.name)).or_default().push(i);
            match &f.spec {
                Spec::Route(r) => {
                    g.routes.entry(ns).or_default().push(i);
                    for p in &r.parent_refs {
                        g.children.entry(target(p, ns)).or_default().push(i);
                    }
                }
                Spec::ListenerSet { parent, .. } => {
                    g.children.entry(target(parent, ns)).or_default().push(i);
                }
                Spec::ReferenceGrant { from, .. } => {
                    let mut froms: Vec<&str> = from.iter().map(|(_, _, n)| n.as_str()).collect();
                    froms.sort_unstable();
                    froms.dedup();
                    for from in froms {
                        g.grants.entry((ns, from)).or_default().push(i);
                    }
                }
                Spec::Policy(p) => {
                    for t in &p.target_refs {
                        g.targeting.entry(target(t, ns)).or_default().push(i);
                    }
                    if !p.target_selectors.is_empty() {
                        g.selecting.entry(ns).or_default().push(i);
                    }
                    if global_policy_namespace == Some(ns) {
                        g.global.push(i);
                    }
                }
                _ => {}
            }
        }
        g
    }
}

impl<'a, 't> Graph<'a, 't> {
    fn new(t: &'t Tables<'a>) -> Self {
        let n = t.facts.len();
        Graph {
            t,
            edges: (0..n).map(|_| OnceLock::new()).collect(),
            fingerprints: (0..n).map(|_| OnceLock::new()).collect(),
            identified: (0..n).map(|_| OnceLock::new()).collect(),
        }
    }

    /// The digest of a Gateway's inputs: each input's identity and content. Summed rather than
    /// hashed in name order: the inputs are a set (each once), so the sum is the same in any
    /// order, and sorting a large Gateway's thousands of inputs by name cost more than the walk.
    fn digest(&self, gateway: usize) -> u64 {
        // Marks in a bit set, not a hash set: every Gateway's walk starts afresh, and hashing
        // each object reached cost more than the rest of the walk.
        let mut seen = vec![0u64; self.facts.len().div_ceil(64)];
        let mut mark = |i: usize| {
            let (word, bit) = (i / 64, 1u64 << (i % 64));
            let new = seen[word] & bit == 0;
            seen[word] |= bit;
            new
        };
        // The global policies apply to everything: read by every Gateway.
        let mut queue: Vec<usize> = std::iter::once(gateway)
            .chain(self.global.iter().copied())
            .filter(|&i| mark(i))
            .collect();
        let mut sum = 0u64;
        while let Some(i) = queue.pop() {
            sum = sum.wrapping_add(self.identified(i));
            for &j in self.edges(i).iter() {
                if mark(j) {
                    queue.push(j);
                }
            }
        }
        sum
    }

    /// The digest of an object's identity and of its [`Graph::fingerprint`].
    fn identified(&self, i: usize) -> u64 {
        *self.identified[i].get_or_init(|| {
            let mut h = DefaultHasher::new();
            (self.facts[i].id.key(), self.fingerprint(i)).hash(&mut h);
            h.finish()
        })
    }

    /// What the rendering of something that reads object `i` reads next (looked up once per
    /// object: most are read by several Gateways).
    fn edges(&self, i: usize) -> &Edges<'t> {
        let t = self.t;
        self.edges[i].get_or_init(|| {
            let f = &t.facts[i];
            let ns = f.id.namespace.as_str();
            let kind = f.id.kind.as_str();
            let name = (ns, f.id.name.as_str());
            let list = |v: Option<&'t Vec<usize>>| v.map_or(&[][..], Vec::as_slice);
            Edges {
                named: self.named(i),
                // Up the hierarchy: what attaches to a Gateway, a listener set or a
                // (delegating) route; then the policies that target or select it.
                children: list(t.children.get(&name).filter(|_| attaches(kind))),
                targeting: list(t.targeting.get(&name)),
                selecting: list(t.selecting.get(ns)),
                // The namespace's labels: a route's for the allowedRoutes selectors, any
                // object's when the controller watches the namespaces a selector picks.
                namespace: list(
                    t.by_name
                        .get(&("", ns))
                        .filter(|_| t.discovery || attaches(kind)),
                ),
            }
        })
    }

    /// The objects object `i` names in its spec (never its parentRefs or targetRefs: those
    /// point up, at what reads it).
    fn named(&self, i: usize) -> Vec<usize> {
        let f = &self.facts[i];
        let ns = f.id.namespace.as_str();
        let mut out = Vec::new();
        // What attaches (a Gateway, a route) is named by a parentRef, never read down: a
        // backend or a Secret of the same name is what a name in a spec means.
        let down = |j: &&usize| !attaches(&self.facts[**j].id.kind);
        let mut name = |namespace: &str, name: &str, route: bool| {
            // A reference to another namespace asks its ReferenceGrants.
            if namespace != ns && !namespace.is_empty() {
                out.extend(self.grants.get(&(namespace, ns)).into_iter().flatten());
            }
            let named = self.by_name.get(&(namespace, name)).into_iter().flatten();
            out.extend(named.filter(down));
            // A cluster-scoped target (GatewayClass parameters) has no namespace.
            let cluster = self.by_name.get(&("", name)).into_iter().flatten();
            out.extend(cluster.filter(down));
            // A delegating backendRef (`kind: HTTPRoute`, a name or `*`, or labels): every
            // route there.
            if route {
                out.extend(self.routes.get(namespace).into_iter().flatten());
            }
        };
        for n in self.written(i).map_or(&[][..], |w| &w.names) {
            name(n.namespace.as_deref().unwrap_or(ns), &n.name, n.route);
        }
        for r in refs_of(f) {
            let (namespace, n) = target(r, ns);
            name(namespace, n, r.kind().is_some_and(is_route));
        }
        out.sort_unstable();
        out.dedup();
        out
    }

    /// What object `i` is as written (a run made with `render::diff_options` has it).
    fn written(&self, i: usize) -> Option<&'a Written> {
        self.objects.get(i)?.written.as_deref()
    }

    /// The digest of an object's content and of the controller's verdict on it.
    fn fingerprint(&self, i: usize) -> u64 {
        *self.fingerprints[i].get_or_init(|| {
            let mut h = DefaultHasher::new();
            let facts = &self.facts[i];
            // An object read from its typed facts alone is its text but its labels, and the
            // labels its facts keep (those some stage reads): a label nothing selects by is no
            // input.
            if crate::model::read_typed_only(facts) {
                self.written(i).map(|w| w.unlabelled).hash(&mut h);
                facts.labels.hash(&mut h);
            } else {
                self.written(i).map(|w| w.digest).hash(&mut h);
            }
            let id = &facts.id;
            let verdicts = &self.run.verdicts;
            for ns in [id.namespace.as_str(), "default"] {
                let any = verdicts.any_error(&id.kind, ns, &id.name);
                let rejected = verdicts.rejected(&id.kind, ns, &id.name);
                // Hashed as written, without a string of its own for each (most are `None`).
                for verdict in [any, rejected] {
                    let _ = write!(HashWrite(&mut h), "{verdict:?}");
                    h.write_u8(0xff);
                }
            }
            h.finish()
        })
    }
}

/// Text written into a hasher.
struct HashWrite<'h>(&'h mut DefaultHasher);

impl std::fmt::Write for HashWrite<'_> {
    fn write_str(&mut self, s: &str) -> std::fmt::Result {
        self.0.write(s.as_bytes());
        Ok(())
    }
}

/// What reading an object reads next: what it names, and the lists of the graph's tables that
/// its name and namespace pick.
struct Edges<'a> {
    named: Vec<usize>,
    children: &'a [usize],
    targeting: &'a [usize],
    selecting: &'a [usize],
    namespace: &'a [usize],
}

impl Edges<'_> {
    fn iter(&self) -> impl Iterator<Item = &usize> {
        self.named
            .iter()
            .chain(self.children)
            .chain(self.targeting)
            .chain(self.selecting)
            .chain(self.namespace)
    }
}

/// The (namespace, name) a reference names.
fn target<'r>(r: &'r ObjRef, from: &'r str) -> (&'r str, &'r str) {
    (r.namespace().unwrap_or(from), &r.name)
}

/// Every reference of an object that points down (what it reads), from its typed facts.
fn refs_of(f: &Facts) -> impl Iterator<Item = &ObjRef> {
    let (listeners, route) = match &f.spec {
        Spec::Gateway { listeners, .. } | Spec::ListenerSet { listeners, .. } => {
            (listeners.as_slice(), None)
        }
        Spec::Route(r) => (&[][..], Some(r)),
        _ => (&[][..], None),
    };
    let class = match &f.spec {
        Spec::Gateway { class, .. } => class.as_deref(),
        _ => None,
    };
    f.refs
        .iter()
        .map(|r| &r.target)
        .chain(listeners.iter().flat_map(|l| &l.certificate_refs))
        .chain(route.into_iter().flat_map(|r| &r.backend_refs))
        .chain(route.into_iter().flat_map(|r| &r.extension_refs))
        .chain(class)
}
