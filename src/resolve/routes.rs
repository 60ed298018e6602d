//! Route attachment (decisions.md section 6): each parentRef of each route resolved to a Gateway
//! or ListenerSet and its listeners, with the Gateway API's rules for sectionName, port,
//! allowedRoutes namespaces and kinds, and hostnames.

use crate::diag::Severity;
use crate::model::facts::{
    Facts, GATEWAY_API, GATEWAY_API_X, Ident, Listener, ObjRef, RouteFacts, Spec,
};
use crate::rules;

use super::{
    Condition, Ctx, RouteAttachment, RouteStatus, diag, diag_at_value, fixes, qualified,
    resource_ref,
};

/// Why a parentRef was not accepted: the code, the Gateway API reason, the message, and where
/// the related location is (the parent, or the listener that came closest).
struct Rejection {
    /// The value of the parentRef that is wrong (sectionName, port), when one is.
    value: Option<(&'static str, crate::source::Span)>,
    code: rules::Code,
    reason: &'static str,
    message: String,
    related: Option<(Ident, crate::source::Span, String)>,
    fix: Option<crate::diag::Fix>,
    /// A note rather than a finding of the route's severity: whether the reference misses is
    /// not known (the object it names may be applied to that namespace).
    note: bool,
}

/// One listener an HTTPRoute with rules attaches to (what route conflicts are judged on).
pub(super) struct Attached<'a> {
    pub route: &'a Facts,
    /// The Gateway or ListenerSet, by its position in the facts.
    pub parent: usize,
    pub listener: &'a Listener,
}

/// What [`attach`] yields for a run of the facts: route statuses, the listeners HTTPRoutes with
/// rules attach to, and the accepted parentRefs.
#[derive(Default)]
struct Outcomes<'a> {
    statuses: Vec<RouteStatus>,
    attached: Vec<Attached<'a>>,
    attachments: Vec<RouteAttachment>,
}

/// The statuses of the routes among `facts` (a run of the index's facts), and where their
/// HTTPRoutes attach.
pub(super) fn attach<'a>(
    ctx: &mut Ctx<'a>,
    facts: &'a [Facts],
    offset: usize,
) -> (Vec<RouteStatus>, Vec<Attached<'a>>, Vec<RouteAttachment>) {
    let mut out = Outcomes::default();
    for (at, f) in facts.iter().enumerate() {
        let Spec::Route(route) = &f.spec else {
            continue;
        };
        let first_attached = out.attached.len();
        let (rejections, accepted_any) = out.route(ctx, f, route, offset + at);
        report_rejections(ctx, f, rejections, accepted_any);
        super::catch_all::check(ctx, f, route, &out.attached[first_attached..]);
    }
    (out.statuses, out.attached, out.attachments)
}

impl<'a> Outcomes<'a> {
    /// One route's parentRefs: a status for each that can be checked, and an attachment for each
    /// accepted one. Returns the rejected parentRefs and whether any parentRef was accepted (or
    /// cannot be checked).
    fn route(
        &mut self,
        ctx: &mut Ctx<'a>,
        f: &'a Facts,
        route: &'a RouteFacts,
        position: usize,
    ) -> (Vec<(&'a ObjRef, Rejection)>, bool) {
        let mut rejections = Vec::new();
        let mut accepted_any = false;
        for (i, parent) in route.parent_refs.iter().enumerate() {
            let (accepted, listeners) = match parent_outcome(ctx, f, route, parent) {
                // The parent's kind is nowhere in the inputs: nothing to predict.
                None => {
                    accepted_any = true;
                    continue;
                }
                Some(Ok((parent_position, listeners))) => {
                    accepted_any = true;
                    self.accepted(ctx, (f, route, position), (i, parent_position), &listeners);
                    let names = listeners.iter().map(|l| l.name.clone()).collect();
                    (Condition::ok("Accepted"), names)
                }
                Some(Err(r)) => {
                    let c = Condition {
                        status: false,
                        reason: r.reason,
                        message: r.message.clone(),
                    };
                    rejections.push((parent, r));
                    (c, Vec::new())
                }
            };
            self.statuses.push(RouteStatus {
                route: resource_ref(&f.id),
                parent: i,
                accepted,
                resolved_refs: Condition::ok("ResolvedRefs"),
                listeners,
            });
        }
        (rejections, accepted_any)
    }

    /// An accepted parentRef (`parent_ref`, naming the parent at `parent` in the facts): its
    /// attachment, and for an HTTPRoute with rules the listeners route conflicts are judged on.
    fn accepted(
        &mut self,
        ctx: &Ctx<'a>,
        (f, route, position): (&'a Facts, &RouteFacts, usize),
        (parent_ref, parent): (usize, usize),
        listeners: &[&'a Listener],
    ) {
        self.attachments.push(RouteAttachment {
            route: position,
            parent_ref,
            parent,
            listeners: positions(ctx, parent, listeners),
        });
        if !route.http_rules.is_empty() {
            self.attached
                .extend(listeners.iter().map(|&listener| Attached {
                    route: f,
                    parent,
                    listener,
                }));
        }
    }
}

/// The findings of a route's rejected parentRefs. Accepted by no parent, the route carries no
/// traffic: an error. Accepted by some, a parentRef is dead weight or a typo: a warning.
fn report_rejections(
    ctx: &mut Ctx<'_>,
    f: &Facts,
    rejections: Vec<(&ObjRef, Rejection)>,
    accepted_any: bool,
) {
    let severity = if accepted_any {
        Severity::Warning
    } else {
        Severity::Error
    };
    for (parent, r) in rejections {
        let mut d = match r.value {
            Some(value) => diag_at_value(r.code, r.message, &f.id, parent, value),
            None => diag(r.code, r.message, &f.id, parent),
        }
        .with_severity(if r.note { Severity::Info } else { severity });
        if let Some((owner, span, what)) = r.related {
            d = d.with_related(owner.file, span, what);
        }
        if let Some(fix) = r.fix {
            d = d.with_fix(fix);
        }
        ctx.out.push(d);
    }
}

/// The positions of listeners in their Gateway's or ListenerSet's `spec.listeners`.
fn positions(ctx: &Ctx<'_>, parent: usize, listeners: &[&Listener]) -> Vec<usize> {
    let (Spec::Gateway { listeners: all, .. } | Spec::ListenerSet { listeners: all, .. }) =
        &ctx.index.facts[parent].spec
    else {
        return Vec::new();
    };
    listeners
        .iter()
        .filter_map(|l| all.iter().position(|x| std::ptr::eq(x, *l)))
        .collect()
}

/// The parent's position in the facts and its listeners the route attaches to; `None` when the
/// parent cannot be checked (its kind is not in the inputs, or it is not a Gateway or
/// ListenerSet).
fn parent_outcome<'a>(
    ctx: &mut Ctx<'a>,
    route: &Facts,
    facts: &RouteFacts,
    parent: &ObjRef,
) -> Option<Result<(usize, Vec<&'a Listener>), Rejection>> {
    let group = parent.group().unwrap_or(GATEWAY_API);
    let kind = parent.kind().unwrap_or("Gateway");
    let namespace = parent.namespace().unwrap_or(&route.id.namespace);
    let listener_set = matches!(
        (group, kind),
        (GATEWAY_API | GATEWAY_API_X, "ListenerSet" | "XListenerSet")
    );
    let gateway = group == GATEWAY_API && kind == "Gateway";
    if !(gateway || listener_set) {
        // Routes as parents (delegation) and other kinds are not Gateway API attachment.
        return None;
    }
    if !ctx.checkable(group, kind, &route.id, parent) {
        return None;
    }
    let index = ctx.index;
    let Some(position) = index.position(group, kind, namespace, &parent.name) else {
        return Some(Err(missing_parent(
            index,
            route,
            parent,
            (group, kind, namespace),
        )));
    };
    let target = &index.facts[position];
    let (Spec::Gateway { listeners, .. } | Spec::ListenerSet { listeners, .. }) = &target.spec
    else {
        return None;
    };
    let what = format!("{kind} {}", qualified(namespace, &parent.name));
    let by_ref: Vec<&Listener> = listeners
        .iter()
        .filter(|l| parent.section().is_none_or(|s| s == l.name))
        .filter(|l| parent.port.is_none_or(|p| l.port == Some(p)))
        .collect();
    if by_ref.is_empty() {
        return Some(Err(no_listener(route, parent, target, listeners, &what)));
    }
    let parent = Parent {
        namespace,
        target,
        what: &what,
    };
    let admitted = admitting(ctx, route, facts, &parent, by_ref);
    Some(
        admitted
            .map(|attached| (position, attached))
            .map_err(|r| *r),
    )
}

/// The Gateway or ListenerSet a parentRef names: the namespace written (or the route's), its
/// facts, and `Gateway ns/name` as messages name it.
struct Parent<'p> {
    namespace: &'p str,
    target: &'p Facts,
    what: &'p str,
}

impl Parent<'_> {
    /// The listener that came closest, as a rejection's related location.
    fn listener(&self, l: &Listener) -> Option<(Ident, crate::source::Span, String)> {
        Some((
            self.target.id.clone(),
            l.span,
            format!("listener {:?} is here", l.name),
        ))
    }
}

/// A parentRef to a Gateway or ListenerSet that is not in the inputs (GW201).
fn missing_parent(
    index: &super::Index<'_>,
    route: &Facts,
    parent: &ObjRef,
    (group, kind, namespace): (&str, &str, &str),
) -> Rejection {
    let hint = index
        .did_you_mean(group, kind, namespace, &parent.name)
        .map(|n| format!("; did you mean {n:?}?"))
        .unwrap_or_default();
    let fix = index
        .one_edit_away((group, kind, namespace), &parent.name)
        .and_then(|n| fixes::change(route.id.file, parent.name_span, "name", &parent.name, n));
    let unplaced = index.unplaced(group, kind, namespace, &parent.name);
    Rejection {
        fix,
        value: Some(("name", parent.name_span)),
        code: rules::GW201,
        reason: "NoMatchingParent",
        message: format!(
            "parentRef names {kind} {} which is not in the inputs{}",
            qualified(namespace, &parent.name),
            unplaced.map_or(hint, |u| super::refs::unplaced(u, namespace))
        ),
        related: unplaced.map(|u| {
            (
                u.id.clone(),
                u.id.name_span,
                "written without a namespace".to_string(),
            )
        }),
        note: unplaced.is_some(),
    }
}

/// A parentRef whose sectionName or port names no listener of `target` (GW202), pointing at the
/// value that is likely wrong.
fn no_listener(
    route: &Facts,
    parent: &ObjRef,
    target: &Facts,
    listeners: &[Listener],
    what: &str,
) -> Rejection {
    let mut wanted = Vec::new();
    if let Some(s) = parent.section() {
        wanted.push(format!("named {s:?}"));
    }
    if let Some(p) = parent.port {
        wanted.push(format!("on port {p}"));
    }
    let names: Vec<&str> = listeners.iter().map(|l| l.name.as_str()).collect();
    let hint = parent
        .section()
        .and_then(|s| {
            names
                .iter()
                .map(|n| (strsim::jaro_winkler(n, s), *n))
                .filter(|(score, _)| *score >= 0.8)
                .max_by(|a, b| a.0.total_cmp(&b.0))
        })
        .map(|(_, n)| format!("; did you mean {n:?}?"))
        .unwrap_or_default();
    // A sectionName that names no listener is the likely mistake; else the port.
    let value = match parent.section_span() {
        Some(span) if !names.contains(&parent.section().unwrap_or("")) => ("sectionName", span),
        _ if parent.port.is_some() => ("port", parent.port_span),
        Some(span) => ("sectionName", span),
        None => ("port", parent.port_span),
    };
    let fix = match value {
        ("sectionName", span) => parent.section().and_then(|s| {
            let n = fixes::one_edit_away(s, names.iter().copied())?;
            fixes::change(route.id.file, span, "sectionName", s, n)
        }),
        (_, span) => parent.port.and_then(|p| {
            let ports: Vec<i64> = listeners.iter().filter_map(|l| l.port).collect();
            fixes::port(route.id.file, span, p, &ports)
        }),
    };
    Rejection {
        fix,
        value: Some(value),
        code: rules::GW202,
        reason: "NoMatchingParent",
        message: format!(
            "{what} has no listener {} (listeners: {}){hint}",
            wanted.join(" "),
            names.join(", ")
        ),
        related: Some((
            target.id.clone(),
            target.id.name_span,
            format!("{what} is here"),
        )),
        note: false,
    }
}

/// The listeners of those the parentRef names that admit the route: its kind and namespace
/// (GW203), then its hostnames (GW204); a rejection points at the listener that came closest.
fn admitting<'a>(
    ctx: &Ctx<'_>,
    route: &Facts,
    facts: &RouteFacts,
    parent: &Parent<'_>,
    by_ref: Vec<&'a Listener>,
) -> Result<Vec<&'a Listener>, Box<Rejection>> {
    let (namespace, what) = (parent.namespace, parent.what);
    let route_kind = route.id.kind.as_str();
    let allowed: Vec<&Listener> = by_ref
        .iter()
        .copied()
        .filter(|l| kind_allowed(l, route_kind) && namespace_allowed(ctx, l, namespace, route))
        .collect();
    let Some(&first_allowed) = allowed.first() else {
        let l = by_ref[0];
        return Err(Box::new(Rejection {
            fix: None,
            note: false,
            value: None,
            code: rules::GW203,
            reason: "NotAllowedByListeners",
            message: format!(
                "no listener of {what} allows this {route_kind} ({})",
                why_not_allowed(ctx, l, namespace, route)
            ),
            related: parent.listener(l),
        }));
    };
    let attached: Vec<&Listener> = allowed
        .into_iter()
        .filter(|l| hostnames_intersect(l.hostname.as_deref(), &facts.hostnames))
        .collect();
    if attached.is_empty() {
        let l = first_allowed;
        return Err(Box::new(Rejection {
            fix: None,
            note: false,
            value: None,
            code: rules::GW204,
            reason: "NoMatchingListenerHostname",
            message: format!(
                "no hostname of the route matches a listener of {what} (listener {:?} has hostname {:?})",
                l.name,
                l.hostname.as_deref().unwrap_or("*")
            ),
            related: parent.listener(l),
        }));
    }
    Ok(attached)
}

/// The route kinds a listener admits: its `allowedRoutes.kinds`, else its protocol's defaults.
fn kind_allowed(l: &Listener, route_kind: &str) -> bool {
    if !l.kinds.is_empty() {
        return l
            .kinds
            .iter()
            .any(|(g, k)| g == GATEWAY_API && k == route_kind);
    }
    match l.protocol.as_str() {
        "HTTP" | "HTTPS" => matches!(route_kind, "HTTPRoute" | "GRPCRoute"),
        // A TLS listener terminating TLS also carries TCPRoutes (the reference admits both).
        "TLS" => matches!(route_kind, "TLSRoute" | "TCPRoute"),
        "TCP" => route_kind == "TCPRoute",
        "UDP" => route_kind == "UDPRoute",
        // Implementation-specific protocols: the controller decides.
        _ => true,
    }
}

fn namespace_allowed(ctx: &Ctx<'_>, l: &Listener, parent_ns: &str, route: &Facts) -> bool {
    match l.from.as_str() {
        "All" => true,
        "Selector" => match ctx.index.namespace_labels(&route.id.namespace) {
            Some(labels) => l.selector.as_ref().is_some_and(|s| s.matches(labels)),
            // The Namespace is not in the inputs: its labels are unknown, so no finding.
            None => true,
        },
        _ => route.id.namespace == parent_ns,
    }
}

fn why_not_allowed(ctx: &Ctx<'_>, l: &Listener, parent_ns: &str, route: &Facts) -> String {
    if !kind_allowed(l, &route.id.kind) {
        return format!(
            "listener {:?} ({}) does not admit {}",
            l.name, l.protocol, route.id.kind
        );
    }
    match l.from.as_str() {
        "Selector" => format!(
            "listener {:?} admits namespaces by label selector, and the labels of Namespace {} do not match",
            l.name, route.id.namespace
        ),
        _ if !namespace_allowed(ctx, l, parent_ns, route) => format!(
            "listener {:?} admits routes from namespace {parent_ns} only (allowedRoutes.namespaces.from: Same), the route is in {}",
            l.name, route.id.namespace
        ),
        _ => format!("listener {:?}", l.name),
    }
}

/// Gateway API hostname intersection: no hostname on either side matches everything; a
/// wildcard `*.x` matches any name with at least one more label ending in `.x`.
fn hostnames_intersect(listener: Option<&str>, route: &[String]) -> bool {
    let Some(l) = listener else { return true };
    route.is_empty() || route.iter().any(|r| host_match(l, r))
}

/// Compared ignoring ASCII case in place: called per route hostname and listener, lowercased
/// copies would be two allocations a call.
pub(crate) fn host_match(a: &str, b: &str) -> bool {
    if a.eq_ignore_ascii_case(b) {
        return true;
    }
    let covers = |wild: &str, other: &str| {
        wild.strip_prefix('*').is_some_and(|suffix| {
            other.len() > suffix.len()
                && other.as_bytes()[other.len() - suffix.len()..]
                    .eq_ignore_ascii_case(suffix.as_bytes())
        })
    };
    covers(a, b) || covers(b, a)
}

#[cfg(test)]
mod tests {
    use super::host_match;

    #[test]
    fn hostnames() {
        assert!(host_match("*.example.com", "a.example.com"));
        assert!(host_match("*.example.com", "a.b.example.com"));
        assert!(!host_match("*.example.com", "example.com"));
        assert!(host_match("a.example.com", "*.example.com"));
        assert!(host_match("*.example.com", "*.b.example.com"));
        assert!(!host_match("a.example.com", "b.example.com"));
        assert!(host_match("A.Example.COM", "a.example.com"));
        assert!(host_match("*.EXAMPLE.com", "a.example.COM"));
        assert!(!host_match("*.example.com", "EXAMPLE.COM"));
    }
}
