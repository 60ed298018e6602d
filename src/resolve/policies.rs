//! Policy attachment (`decisions.md` section 5): each policy's targetRefs and targetSelectors
//! resolved to objects of the inputs, with sectionName resolved against the target's listeners,
//! rule names, port names, providers or MCP targets. The attachments are data for the merge
//! stage; the findings are for a target that does not exist, a sectionName or selector that
//! matches nothing, and a policy that attaches to nothing at all.

use crate::model::facts::{Facts, GATEWAY_API, ObjRef, Spec};
use crate::model::facts_policy::{PolicyFacts, TargetSelector, default_group};
use crate::rules;

use super::{Ctx, diag, diag_at_value, qualified, resource_ref};
use crate::source::Span;

/// How a policy reached its target.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Via {
    /// `spec.targetRefs[i]`.
    Ref(usize),
    /// `spec.targetSelectors[i]`.
    Selector(usize),
}

/// One policy attached to one object (and section of it).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Attachment {
    /// Index of the policy in the facts.
    pub policy: usize,
    /// Index of the target in the facts.
    pub target: usize,
    /// The listener, rule, port, provider or MCP target named by sectionName; it exists.
    pub section: Option<String>,
    pub via: Via,
}

/// The attachments of the policies among `facts` (a run of the index's facts from `offset`).
pub(super) fn attach(ctx: &mut Ctx<'_>, facts: &[Facts], offset: usize) -> Vec<Attachment> {
    let mut out = Vec::new();
    for (at, f) in facts.iter().enumerate() {
        let i = offset + at;
        let Spec::Policy(p) = &f.spec else { continue };
        let (before, told) = (out.len(), ctx.out.len());
        // Whether a target could not be checked (kind absent from the inputs): then "attaches
        // to nothing" is not known either.
        let mut unknown = false;
        for (n, r) in p.target_refs.iter().enumerate() {
            unknown |= !target_ref(ctx, i, f, r, n, &mut out);
        }
        for (n, s) in p.target_selectors.iter().enumerate() {
            unknown |= !target_selector(ctx, i, f, s, n, &mut out);
        }
        // Without a Gateway the inputs are a fragment (a policy linted alone): what it attaches
        // to is elsewhere. A target reported on its own (not found, a missing section) says why
        // already: "attaches to nothing" would be the same cause twice.
        if out.len() == before
            && !unknown
            && ctx.out.len() == told
            && ctx.index.has_kind(GATEWAY_API, "Gateway")
            && !referenced_by_route(ctx, f, p)
        {
            nothing_attached(ctx, f, p);
        }
    }
    out
}

/// Resolves one targetRef; `false` when its kind could not be checked.
fn target_ref(
    ctx: &mut Ctx<'_>,
    policy: usize,
    f: &Facts,
    r: &ObjRef,
    n: usize,
    out: &mut Vec<Attachment>,
) -> bool {
    let Some(kind) = r.kind() else { return true };
    let group = r.group().unwrap_or_else(|| default_group(kind));
    if !ctx.checkable(group, kind, &f.id, r) {
        return false;
    }
    let ns = f.id.namespace.as_str();
    let mut targets: Vec<usize> = ctx
        .index
        .position(group, kind, ns, &r.name)
        .into_iter()
        .collect();
    if global(ctx, ns) {
        for &t in ctx.index.named_anywhere(group, kind, &r.name) {
            if !targets.contains(&t) {
                targets.push(t);
            }
        }
    }
    if targets.is_empty() {
        let mut d = diag_at_value(
            rules::GW301,
            format!(
                "policy target {kind} {} not found{}",
                qualified(ns, &r.name),
                hint(ctx, group, kind, ns, &r.name)
            ),
            &f.id,
            r,
            ("name", r.name_span),
        );
        if let Some(close) = ctx.index.did_you_mean(group, kind, ns, &r.name)
            && let Some(t) = ctx.index.get(group, kind, ns, close)
        {
            d = d.with_related(t.id.file, t.id.name_span, format!("{kind} {close} is here"));
        }
        if let Some(fix) = ctx
            .index
            .one_edit_away((group, kind, ns), &r.name)
            .and_then(|n| super::fixes::change(f.id.file, r.name_span, "name", &r.name, n))
        {
            d = d.with_fix(fix);
        }
        ctx.out.push(d);
        return true;
    }
    for t in targets {
        let at = Place {
            path: &r.path,
            item: r.span,
            value: r.section_span(),
        };
        if let Some(section) = section(ctx, f, r.section(), t, &at) {
            out.push(Attachment {
                policy,
                target: t,
                section,
                via: Via::Ref(n),
            });
        }
    }
    true
}

/// Resolves one targetSelector; `false` when its kind could not be checked.
fn target_selector(
    ctx: &mut Ctx<'_>,
    policy: usize,
    f: &Facts,
    s: &TargetSelector,
    n: usize,
    out: &mut Vec<Attachment>,
) -> bool {
    let group = s.group.as_deref().unwrap_or_else(|| default_group(&s.kind));
    let at = ObjRef::at(s.span, s.path.as_str());
    if !ctx.checkable(group, &s.kind, &f.id, &at) {
        return false;
    }
    let ns = f.id.namespace.as_str();
    let scope = if global(ctx, ns) { None } else { Some(ns) };
    let selected = ctx.index.select(group, &s.kind, scope, &s.selector);
    if selected.is_empty() {
        let labels: Vec<String> = s
            .selector
            .labels
            .iter()
            .map(|(k, v)| format!("{k}={v}"))
            .collect();
        let place = match scope {
            Some(ns) => format!("in namespace {ns}"),
            None => "in any namespace".to_string(),
        };
        ctx.out.push(diag(
            rules::GW303,
            format!(
                "targetSelector selects no {} {place} (matchLabels: {})",
                s.kind,
                if labels.is_empty() {
                    "none".to_string()
                } else {
                    labels.join(", ")
                }
            ),
            &f.id,
            &at,
        ));
        return true;
    }
    for t in selected {
        let at = Place {
            path: &s.path,
            item: s.span,
            value: None,
        };
        if let Some(section) = section(ctx, f, s.section.as_deref(), t, &at) {
            out.push(Attachment {
                policy,
                target: t,
                section,
                via: Via::Selector(n),
            });
        }
    }
    true
}

/// Where a targetRef or targetSelector is: its path, its list item and its sectionName value.
struct Place<'p> {
    path: &'p str,
    item: Span,
    value: Option<Span>,
}

/// Checks a sectionName against the target: `Some(section)` when the policy attaches (no
/// sectionName, or one that names a part of the target), `None` after a GW302 finding.
fn section(
    ctx: &mut Ctx<'_>,
    f: &Facts,
    name: Option<&str>,
    target: usize,
    place: &Place<'_>,
) -> Option<Option<String>> {
    let Some(name) = name else { return Some(None) };
    let t = &ctx.index.facts[target];
    // A kind gwctl does not model (a mesh's ServiceEntry): its sections cannot be known, so
    // the policy is taken to attach as written (decisions.md section 6).
    let Some((what, names)) = sections(t) else {
        return Some(Some(name.to_string()));
    };
    if names.contains(&name) {
        return Some(Some(name.to_string()));
    }
    let have = if names.is_empty() {
        format!("it has no named {what}s")
    } else {
        format!("it has: {}", names.join(", "))
    };
    let at = ObjRef::at(
        place.value.unwrap_or(place.item),
        format!("{}.sectionName", place.path),
    );
    let mut d = diag(
        rules::GW302,
        format!(
            "sectionName {name:?} matches no {what} of {} {}; {have}",
            t.id.kind,
            qualified(&t.id.namespace, &t.id.name)
        ),
        &f.id,
        &at,
    );
    if place.value.is_some() {
        d = d.with_related(f.id.file, place.item, "in this reference");
    }
    if let Some(span) = place.value
        && let Some(fix) = super::fixes::one_edit_away(name, names.iter().copied())
            .and_then(|n| super::fixes::change(f.id.file, span, "sectionName", name, n))
    {
        d = d.with_fix(fix);
    }
    ctx.out.push(d.with_related(
        t.id.file,
        t.id.name_span,
        format!("the {} is here", t.id.kind),
    ));
    None
}

/// What a sectionName names on a target of this kind, and the names it has; `None` for kinds
/// whose sections gwctl does not know.
fn sections(t: &Facts) -> Option<(&'static str, Vec<&str>)> {
    Some(match &t.spec {
        Spec::Gateway { listeners, .. } | Spec::ListenerSet { listeners, .. } => (
            "listener",
            listeners.iter().map(|l| l.name.as_str()).collect(),
        ),
        Spec::Route(route) => (
            "rule",
            route.rule_names.iter().map(String::as_str).collect(),
        ),
        Spec::Service { ports } => (
            "port",
            ports.iter().filter_map(|(n, _)| n.as_deref()).collect(),
        ),
        Spec::Backend { sections, .. } => (
            "provider or MCP target",
            sections.iter().map(String::as_str).collect(),
        ),
        // Kinds of the groups gwctl checks have no sections beyond those above.
        _ if KNOWN_GROUPS.contains(&t.id.group.as_str()) => ("section", Vec::new()),
        _ => return None,
    })
}

/// API groups whose kinds gwctl models (section names of their other kinds do not exist).
const KNOWN_GROUPS: &[&str] = &[
    "",
    GATEWAY_API,
    crate::model::facts::GATEWAY_API_X,
    "gateway.kgateway.dev",
    "agentgateway.dev",
];

/// Whether the policy's namespace is the configured global policy namespace.
fn global(ctx: &Ctx<'_>, ns: &str) -> bool {
    ctx.options.global_policy_namespace.as_deref() == Some(ns)
}

/// A TrafficPolicy without targets can still take effect through a route's ExtensionRef filter.
fn referenced_by_route(ctx: &Ctx<'_>, f: &Facts, p: &PolicyFacts) -> bool {
    p.target_refs.is_empty()
        && p.target_selectors.is_empty()
        && ctx
            .index
            .extension_referenced(&f.id.group, &f.id.kind, &f.id.namespace, &f.id.name)
}

fn nothing_attached(ctx: &mut Ctx<'_>, f: &Facts, p: &PolicyFacts) {
    let why = if p.target_refs.is_empty() && p.target_selectors.is_empty() {
        if f.id.kind == "TrafficPolicy" {
            "it has no targetRefs or targetSelectors and no route's ExtensionRef filter names it"
        } else {
            "it has no targetRefs or targetSelectors"
        }
    } else {
        "none of its targetRefs or targetSelectors resolves"
    };
    ctx.out.push(
        crate::diag::Diagnostic::new(
            rules::GW304,
            format!(
                "{} {} attaches to nothing: {why}",
                f.id.kind,
                qualified(&f.id.namespace, &f.id.name)
            ),
        )
        .at(f.id.file, f.id.name_span)
        .with_resource(Some(resource_ref(&f.id)))
        .with_path("metadata.name"),
    );
}

fn hint(ctx: &Ctx<'_>, group: &str, kind: &str, ns: &str, name: &str) -> String {
    match ctx.index.did_you_mean(group, kind, ns, name) {
        Some(close) => format!(" (did you mean {close:?}?)"),
        None => String::new(),
    }
}
