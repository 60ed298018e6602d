//! The resolve stage: findings that need more than one resource (a parentRef to a listener that
//! does not exist, a backendRef to a missing Service, a cross-namespace reference without a
//! ReferenceGrant). Works on the compact [`Facts`] collected by the per-file pass, never on trees.

mod catch_all;
mod conflicts;
mod duplicates;
mod effects;
mod filters;
pub use filters::DirectResponses;
mod fixes;
mod grants;
mod index;
mod listener_sets;
mod policies;
mod refs;
mod route_conflicts;
mod routes;

use std::collections::BTreeMap;

use rayon::prelude::*;

use crate::diag::{Diagnostic, ResourceRef};
use crate::model::facts::{Facts, GATEWAY_API, Ident, ObjRef};
use crate::rules;

pub use duplicates::duplicates;
pub use grants::{Grant, Grants, grant_required};
pub use index::Index;
pub use policies::{Attachment, Via};
pub(crate) use routes::host_match;

/// What the resolve stage needs to know of the run's options.
#[derive(Debug, Clone, Default)]
pub struct ResolveOptions {
    /// References to kinds that are not in the inputs at all are errors, not one note per kind.
    pub strict_refs: bool,
    /// Policies in this namespace attach to targets in every namespace.
    pub global_policy_namespace: Option<String>,
    /// The controllerName of AI-data-plane GatewayClasses; `None` is the default
    /// (`agentgateway.dev/agentgateway`).
    pub ai_controller: Option<String>,
    /// The controllerName of proxy-based GatewayClasses; `None` is the default
    /// (`kgateway.dev/kgateway`). A GatewayClass naming neither is another controller's.
    pub proxy_controller: Option<String>,
    /// The input files' texts by file id, for fixes that add a document at a file's end.
    pub sources: Vec<std::sync::Arc<str>>,
}

/// One condition of a route's status for one parent, as a controller would set it.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Condition {
    pub status: bool,
    /// The Gateway API reason (`Accepted`, `NotAllowedByListeners`, `BackendNotFound`...).
    pub reason: &'static str,
    pub message: String,
}

impl Condition {
    fn ok(reason: &'static str) -> Self {
        Condition {
            status: true,
            reason,
            message: String::new(),
        }
    }
}

/// The predicted status of a route for one of its parentRefs.
#[derive(Debug, Clone, serde::Serialize)]
pub struct RouteStatus {
    pub route: ResourceRef,
    /// Index into the route's `spec.parentRefs`.
    pub parent: usize,
    pub accepted: Condition,
    pub resolved_refs: Condition,
    /// The names of the parent's listeners the route attaches to (none when not accepted).
    pub listeners: Vec<String>,
}

/// An accepted parentRef of a route: the Gateway or ListenerSet it names and the listeners the
/// route attaches to there (after sectionName, port, allowedRoutes and hostname intersection).
/// Every later stage that hangs a route from a listener (merge, explain, render) takes it from
/// here, so that they agree.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RouteAttachment {
    /// The route's position in the facts.
    pub route: usize,
    /// Index into the route's `spec.parentRefs`.
    pub parent_ref: usize,
    /// The Gateway's or ListenerSet's position in the facts.
    pub parent: usize,
    /// Positions of the parent's listeners (in its `spec.listeners`), never empty.
    pub listeners: Vec<usize>,
}

#[derive(Default)]
pub struct Resolved {
    pub diagnostics: Vec<Diagnostic>,
    pub route_statuses: Vec<RouteStatus>,
    /// Every policy attachment, in facts order of the policies.
    pub attachments: Vec<Attachment>,
    /// Every accepted parentRef, in facts order of the routes.
    pub route_attachments: Vec<RouteAttachment>,
    /// The routes (by position in the facts) whose backendRefs do not all resolve, with the
    /// ResolvedRefs condition of the first that does not: a delegated child route, which has no
    /// parentRef and so no [`RouteStatus`], gets its condition from here.
    pub unresolved_backends: Vec<(usize, Condition)>,
    /// The ReferenceGrants of the inputs, for the stages after this one (render, statuses).
    pub grants: Grants,
}

/// Resolves every reference of the facts against each other.
pub fn resolve(facts: &[Facts], options: &ResolveOptions) -> Resolved {
    let index = Index::new(facts, options.global_policy_namespace.is_some());
    let new_ctx = || Ctx {
        index: &index,
        options: options.clone(),
        out: Vec::new(),
        unchecked: BTreeMap::new(),
    };
    // Routes and references do not depend on policy attachment, nor one object's on another's:
    // they run side by side, in runs of the facts, and their findings are put together in the
    // order a sequential run gives (routes, route conflicts, references, then policies with
    // their effects and conflicts). The route conflicts (serial) run beside the policy checks.
    let chunk = facts
        .len()
        .div_ceil(4 * rayon::current_num_threads())
        .max(1);
    let (routes, (policy_ctx, attachments)) = rayon::join(
        || {
            let chunks = facts
                .par_chunks(chunk)
                .enumerate()
                .map(|(n, part)| {
                    let mut routes_ctx = new_ctx();
                    let (mut statuses, attached, accepted) =
                        routes::attach(&mut routes_ctx, part, n * chunk);
                    let mut refs_ctx = new_ctx();
                    let unresolved = refs::check(&mut refs_ctx, part, n * chunk, &mut statuses);
                    (
                        routes_ctx,
                        refs_ctx,
                        (statuses, attached, accepted, unresolved),
                    )
                })
                .collect::<Vec<_>>();
            RoutesDone::of(chunks, new_ctx)
        },
        || {
            // Each policy's attachment is its own: in runs too, put together in order.
            let runs = facts
                .par_chunks(chunk)
                .enumerate()
                .map(|(n, part)| {
                    let mut ctx = new_ctx();
                    let attachments = policies::attach(&mut ctx, part, n * chunk);
                    (ctx, attachments)
                })
                .collect::<Vec<_>>();
            let mut ctx = new_ctx();
            let mut attachments = Vec::new();
            for (run_ctx, part) in runs {
                ctx.absorb(run_ctx);
                attachments.extend(part);
            }
            effects::check(&mut ctx, &attachments);
            conflicts::check(&mut ctx, &attachments);
            (ctx, attachments)
        },
    );
    let mut ctx = routes.ctx;
    ctx.absorb(policy_ctx);
    ctx.finish();
    Resolved {
        diagnostics: ctx.out,
        route_statuses: routes.statuses,
        attachments,
        route_attachments: routes.attachments,
        unresolved_backends: routes.unresolved_backends,
        grants: index.grants().clone(),
    }
}

/// The routes' and references' side of [`resolve`], put together in facts order: one context
/// with the findings of the routes, their conflicts and the references, in that order.
struct RoutesDone<'a> {
    ctx: Ctx<'a>,
    statuses: Vec<RouteStatus>,
    attachments: Vec<RouteAttachment>,
    unresolved_backends: Vec<(usize, Condition)>,
}

/// What one run of the facts yields: its routes' and references' contexts, route statuses,
/// attached routes, accepted attachments and unresolved backends.
type Chunk<'a> = (
    Ctx<'a>,
    Ctx<'a>,
    (
        Vec<RouteStatus>,
        Vec<routes::Attached<'a>>,
        Vec<RouteAttachment>,
        Vec<(usize, Condition)>,
    ),
);

impl<'a> RoutesDone<'a> {
    fn of(chunks: Vec<Chunk<'a>>, new_ctx: impl Fn() -> Ctx<'a>) -> Self {
        let mut done = RoutesDone {
            ctx: new_ctx(),
            statuses: Vec::new(),
            attachments: Vec::new(),
            unresolved_backends: Vec::new(),
        };
        let mut refs_ctxs = Vec::with_capacity(chunks.len());
        let mut attached = Vec::new();
        for (routes_ctx, refs_ctx, (statuses, part, accepted, unresolved)) in chunks {
            done.ctx.absorb(routes_ctx);
            done.statuses.extend(statuses);
            done.attachments.extend(accepted);
            done.unresolved_backends.extend(unresolved);
            refs_ctxs.push(refs_ctx);
            attached.extend(part);
        }
        route_conflicts::check(&mut done.ctx, &attached);
        for refs_ctx in refs_ctxs {
            done.ctx.absorb(refs_ctx);
        }
        done
    }
}

pub(crate) struct Ctx<'a> {
    pub index: &'a Index<'a>,
    pub options: ResolveOptions,
    pub out: Vec<Diagnostic>,
    /// References to kinds absent from the inputs: kind -> (count, first reference).
    unchecked: BTreeMap<String, (usize, Ident, ObjRef)>,
}

impl Ctx<'_> {
    /// Whether a reference to (group, kind) can be checked; when it cannot (no object of the kind
    /// anywhere) and `--strict-refs` is off, it is counted for one note instead.
    pub fn checkable(&mut self, group: &str, kind: &str, owner: &Ident, r: &ObjRef) -> bool {
        if self.checks_kind(group, kind) {
            return true;
        }
        let entry = self
            .unchecked
            .entry(kind.to_string())
            .or_insert_with(|| (0, owner.clone(), r.clone()));
        entry.0 += 1;
        false
    }

    /// Whether references to (group, kind) are checked ([`Ctx::checkable`] without counting the
    /// reference for the note): `--strict-refs`, or an object of the kind is in the inputs.
    pub fn checks_kind(&self, group: &str, kind: &str) -> bool {
        self.options.strict_refs || self.index.has_kind(group, kind)
    }

    /// Takes the findings and unchecked references of a context that ran after this one.
    fn absorb(&mut self, later: Ctx<'_>) {
        self.out.extend(later.out);
        for (kind, (count, owner, r)) in later.unchecked {
            self.unchecked
                .entry(kind)
                .and_modify(|e| e.0 += count)
                .or_insert((count, owner, r));
        }
    }

    fn finish(&mut self) {
        // Without a Gateway the inputs are a fragment (a route or a policy linted alone), where a
        // note on every run would be noise; with one they look like a whole configuration, and
        // a kind missing from it is worth saying.
        if !self.index.has_kind(GATEWAY_API, "Gateway") {
            return;
        }
        for (kind, (count, owner, r)) in std::mem::take(&mut self.unchecked) {
            let what = if count == 1 {
                "1 reference".to_string()
            } else {
                format!("{count} references")
            };
            self.out.push(
                diag(
                    rules::GW212,
                    if kind == "ReferenceGrant" {
                        format!("{what} needing a ReferenceGrant not checked: no ReferenceGrant and no referenced object in the inputs")
                    } else {
                        format!("{what} to {kind} objects not checked: none in the inputs")
                    },
                    &owner,
                    &r,
                )
                .with_help("add the referenced objects to the inputs, or use --strict-refs to report each reference as missing"),
            );
        }
    }
}

pub(crate) fn resource_ref(id: &Ident) -> ResourceRef {
    ResourceRef {
        kind: id.kind.clone(),
        namespace: (!id.namespace.is_empty()).then(|| id.namespace.clone()),
        name: id.name.clone(),
    }
}

/// A finding at a reference of a resource.
pub(crate) fn diag(code: rules::Code, message: String, owner: &Ident, r: &ObjRef) -> Diagnostic {
    Diagnostic::new(code, message)
        .at(owner.file, r.span)
        .with_resource(Some(resource_ref(owner)))
        .with_path(r.path.to_string())
}

/// A finding at the value of a reference that is wrong (its `field`: name, sectionName, port),
/// with the whole reference as a secondary label; at the reference when the value is not
/// written.
pub(crate) fn diag_at_value(
    code: rules::Code,
    message: String,
    owner: &Ident,
    r: &ObjRef,
    (field, value): (&str, crate::source::Span),
) -> Diagnostic {
    if value.end <= value.start {
        return diag(code, message, owner, r);
    }
    Diagnostic::new(code, message)
        .at(owner.file, value)
        .with_resource(Some(resource_ref(owner)))
        .with_path(format!("{}.{field}", r.path))
        .with_related(owner.file, r.span, "in this reference")
}

/// `ns/name`, or `name` for cluster-scoped objects.
pub(crate) fn qualified(namespace: &str, name: &str) -> String {
    if namespace.is_empty() {
        name.to_string()
    } else {
        format!("{namespace}/{name}")
    }
}
