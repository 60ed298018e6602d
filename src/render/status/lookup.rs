//! What the statuses look up many times, indexed once per Gateway: objects by kind and name,
//! the objects that target others (policies), each resource's first error, and the backends
//! routes send to.

use serde_json::Value;

use super::Context;
use crate::diag::{Diagnostic, ResourceRef, Severity};
use crate::fasthash::{FastMap, FastSet};
use crate::model::Object;

/// (kind, namespace, name); a resource reference without a namespace is in `default`.
type Key<'a> = (&'a str, &'a str, &'a str);

pub(super) struct Lookup<'a> {
    by_name: FastMap<Key<'a>, &'a Object>,
    /// Objects with `spec.targetRefs`, in input order.
    pub targeting: Vec<&'a Object>,
    first_errors: FastMap<Key<'a>, &'a Diagnostic>,
    /// Backends some route of the inputs sends to.
    used_backends: FastSet<Key<'a>>,
}

impl<'a> Lookup<'a> {
    pub fn new(ctx: &Context<'a>) -> Self {
        let mut by_name = FastMap::default();
        let mut targeting = Vec::new();
        let mut used_backends = FastSet::default();
        for o in ctx.inputs.objects {
            let id = &o.id;
            by_name
                .entry((id.kind.as_str(), id.namespace.as_str(), id.name.as_str()))
                .or_insert(o);
            if o.value.pointer("/spec/targetRefs").is_some() {
                targeting.push(o);
            }
            used_backends.extend(backend_refs(o));
        }
        let mut first_errors = FastMap::default();
        for d in &ctx.run.diagnostics {
            if d.severity == Severity::Error
                && let Some(r) = &d.resource
            {
                first_errors.entry(key(r)).or_insert(d);
            }
        }
        Lookup {
            by_name,
            targeting,
            first_errors,
            used_backends,
        }
    }

    /// The object a resource reference names (which carries no group).
    pub fn object(&self, r: &ResourceRef) -> Option<&'a Object> {
        self.by_name.get(&key(r)).copied()
    }

    /// The first error-level finding on a resource (the one the merge stage marks it invalid
    /// with).
    pub fn first_error(&self, r: &ResourceRef) -> Option<&'a Diagnostic> {
        self.first_errors.get(&key(r)).copied()
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

/// (kind, namespace, name) of every backendRef of an object's `spec.rules` (a route's).
pub(super) fn backend_refs(o: &Object) -> impl Iterator<Item = (&str, &str, &str)> {
    o.value
        .pointer("/spec/rules")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(|r| r.get("backendRefs").and_then(Value::as_array))
        .flatten()
        .map(|r| {
            let text = |key: &str| r.get(key).and_then(Value::as_str);
            (
                text("kind").unwrap_or("Service"),
                text("namespace").unwrap_or(&o.id.namespace),
                text("name").unwrap_or(""),
            )
        })
}
