//! What the statuses look up many times, indexed once per Gateway: objects by kind and name,
//! the objects that target others (policies), why the controller rejects a resource, and the backends
//! routes send to.

use super::Context;
use super::messages::Written;
use crate::diag::{Rejection, ResourceRef, Verdicts};
use crate::fasthash::{FastMap, FastSet};
use crate::model::Object;
use crate::model::facts::{Facts, GATEWAY_API};

/// (kind, namespace, name); a resource reference without a namespace is in `default`.
type Key<'a> = (&'a str, &'a str, &'a str);

pub(super) struct Lookup<'a> {
    by_name: FastMap<Key<'a>, &'a Object>,
    /// Policies (objects with `spec.targetRefs`), in input order.
    targeting: Vec<&'a Object>,
    /// Indexes into `targeting` by the (kind, namespace, name) of a targetRef.
    by_target: FastMap<Key<'a>, Vec<usize>>,
    verdicts: &'a Verdicts,
    typed: super::context::Typed<'a>,
    /// Validation level strict: the proxy checks the configuration before it is sent.
    strict: bool,
    /// Backends some route of the inputs sends to.
    used_backends: FastSet<Key<'a>>,
    /// The HTTPRoutes, in input order, and by namespace (delegation looks its children up).
    http_routes: Vec<&'a Object>,
    http_routes_in: FastMap<&'a str, Vec<&'a Object>>,
}

impl<'a> Lookup<'a> {
    pub fn new(ctx: &Context<'a>) -> Self {
        let mut by_name = FastMap::default();
        let mut targeting = Vec::new();
        let mut by_target: FastMap<Key<'a>, Vec<usize>> = FastMap::default();
        let mut used_backends = FastSet::default();
        let http_routes: Vec<&Object> = ctx.inputs.of_kind(GATEWAY_API, "HTTPRoute").collect();
        let mut http_routes_in: FastMap<&str, Vec<&Object>> = FastMap::default();
        for &r in &http_routes {
            http_routes_in
                .entry(r.id.namespace.as_str())
                .or_default()
                .push(r);
        }
        for o in ctx.inputs.objects {
            let id = &o.id;
            by_name
                .entry((id.kind.as_str(), id.namespace.as_str(), id.name.as_str()))
                .or_insert(o);
            let Some(facts) = ctx.inputs.facts_at(o) else {
                continue;
            };
            if let Some(policy) = facts.policy() {
                for t in &policy.target_refs {
                    by_target
                        .entry((
                            t.kind().unwrap_or(""),
                            t.namespace().unwrap_or(&id.namespace),
                            &*t.name,
                        ))
                        .or_default()
                        .push(targeting.len());
                }
                targeting.push(o);
            }
            used_backends.extend(backend_refs(o, facts));
        }
        Lookup {
            http_routes,
            http_routes_in,
            by_name,
            targeting,
            by_target,
            verdicts: &ctx.run.verdicts,
            typed: ctx.inputs.typed(),
            strict: ctx.options.validation_level == super::ValidationLevel::Strict,
            used_backends,
        }
    }

    /// The object a resource reference names (which carries no group).
    pub fn object(&self, r: &ResourceRef) -> Option<&'a Object> {
        self.by_name.get(&key(r)).copied()
    }

    /// The typed facts of an object of the inputs.
    pub fn facts_of(&self, object: &Object) -> Option<&'a Facts> {
        self.typed.of(object)
    }

    /// The object a resource reference names, as a rejection's message reads it.
    pub fn written(&self, r: &ResourceRef) -> Option<Written<'a>> {
        self.object(r).map(|o| self.written_of(o))
    }

    /// An object as a rejection's message reads it: a policy's typed fields, else its JSON.
    pub fn written_of(&self, o: &'a Object) -> Written<'a> {
        Written::of(o, self.facts_of(o))
    }

    /// Why the controller does not accept a resource (what the merge stage marks it invalid
    /// with).
    /// With validation level strict, also an error only the proxy finds, where gwctl knows the
    /// proxy's words for it.
    pub fn rejection(&self, r: &ResourceRef) -> Option<&'a Rejection> {
        let proxy = || {
            self.verdicts
                .rejected_strict(r)
                .filter(|x| super::messages::proxy_words(x, self.written(r)).is_some())
        };
        self.verdicts
            .rejected_ref(r)
            .or_else(|| self.strict.then(proxy).flatten())
    }

    /// The objects with a targetRef naming one of `targets` (by kind, namespace and name; the
    /// caller checks the group), in input order, each once.
    pub fn targeting<'o>(&self, targets: impl IntoIterator<Item = &'o Object>) -> Vec<&'a Object> {
        let mut found: Vec<usize> = targets
            .into_iter()
            .flat_map(|o| {
                let id = &o.id;
                self.by_target
                    .get(&(id.kind.as_str(), id.namespace.as_str(), id.name.as_str()))
                    .into_iter()
                    .flatten()
                    .copied()
            })
            .collect();
        found.sort_unstable();
        found.dedup();
        found.into_iter().map(|i| self.targeting[i]).collect()
    }

    /// The HTTPRoutes of a namespace, or of every namespace with `None`, in input order.
    pub fn http_routes(&self, namespace: Option<&str>) -> &[&'a Object] {
        match namespace {
            None => &self.http_routes,
            Some(ns) => self.http_routes_in.get(ns).map_or(&[], Vec::as_slice),
        }
    }

    /// Whether some route sends to the backend.
    pub fn used(&self, backend: &Object) -> bool {
        let id = &backend.id;
        self.used_backends
            .contains(&(id.kind.as_str(), id.namespace.as_str(), id.name.as_str()))
    }
}

fn key(r: &ResourceRef) -> Key<'_> {
    (
        &r.kind,
        r.namespace.as_deref().unwrap_or("default"),
        &r.name,
    )
}

/// (kind, namespace, name) of every backendRef of a route's rules.
pub(super) fn backend_refs<'o>(o: &'o Object, facts: &'o Facts) -> impl Iterator<Item = Key<'o>> {
    let refs = facts.route().map_or(&[][..], |r| &r.backend_refs);
    refs.iter().map(|r| {
        (
            r.kind().unwrap_or("Service"),
            r.namespace().unwrap_or(&o.id.namespace),
            &*r.name,
        )
    })
}
