//! References from one object to another: route backendRefs and filter extensionRefs, Gateway
//! certificateRefs and class names, and the reference fields of policies and backends (secrets,
//! config maps, extensions, parameters), each with the ReferenceGrant a cross-namespace reference
//! needs.

use crate::model::facts::{
    Facts, FieldRef, GATEWAY_API, Ident, Need, ObjRef, RefField, RouteFacts, Spec,
};
use crate::rules;

use crate::diag::{Diagnostic, Outcome};
use crate::source::Span;

use super::{Condition, Ctx, RouteStatus, qualified};

/// Every finding here is a reference the controller cannot resolve.
fn diag(code: rules::Code, message: String, owner: &Ident, r: &ObjRef) -> Diagnostic {
    super::diag(code, message, owner, r).with_outcome(Outcome::Reference { missing: None })
}

fn diag_at_value(
    code: rules::Code,
    message: String,
    owner: &Ident,
    r: &ObjRef,
    value: (&str, Span),
) -> Diagnostic {
    super::diag_at_value(code, message, owner, r, value)
        .with_outcome(Outcome::Reference { missing: None })
}

pub(super) const GATEWAY_GROUP: &str = "gateway.kgateway.dev";
pub(super) const AI_GROUP: &str = "agentgateway.dev";

/// Backend kinds gwctl cannot look into but the reference's controller accepts: route delegation
/// (a child HTTPRoute by name, or by label) is one of them; it is not modelled here.
const OPAQUE_BACKENDS: &[(&str, &str)] = &[
    (GATEWAY_API, "HTTPRoute"),
    ("delegation.kgateway.dev", "label"),
    ("networking.istio.io", "ServiceEntry"),
    ("networking.istio.io", "Hostname"),
    ("inference.networking.k8s.io", "InferencePool"),
];

/// Checks the references of `facts` (a run of the index's facts from `offset`); `statuses` are
/// theirs. Returns the routes (by position) whose backendRefs do not all resolve, with why.
pub(super) fn check(
    ctx: &mut Ctx<'_>,
    facts: &[Facts],
    offset: usize,
    statuses: &mut [RouteStatus],
) -> Vec<(usize, Condition)> {
    let mut next_status = 0;
    let mut unresolved = Vec::new();
    for (at, f) in facts.iter().enumerate() {
        match &f.spec {
            Spec::Route(route) => {
                let mut resolved = Condition::ok("ResolvedRefs");
                // A route only other controllers' Gateways serve may name their backend kinds,
                // and a kind of another API group is judged only on a route this API's
                // controllers are known to serve: elsewhere it may be that implementation's own
                // backend (looked up only for such a kind: most routes name none).
                let (mut others, mut ours) = (None, None);
                for b in &route.backend_refs {
                    if !known_backend(b)
                        && (*others.get_or_insert_with(|| served_by_others(ctx, f, route))
                            || (foreign_group(b)
                                && !*ours.get_or_insert_with(|| served_by_ours(ctx, f, route))))
                    {
                        continue;
                    }
                    if let Some(c) = backend(ctx, f, b, RefField::RouteBackend)
                        && resolved.status
                    {
                        resolved = c;
                    }
                }
                super::filters::check(ctx, f, &route.extension_refs);
                if !resolved.status {
                    unresolved.push((offset + at, resolved.clone()));
                }
                // Statuses are in facts order, one per checked parentRef.
                while next_status < statuses.len()
                    && statuses[next_status].route.name == f.id.name
                    && statuses[next_status].route.kind == f.id.kind
                    && statuses[next_status].route.namespace.as_deref()
                        == Some(f.id.namespace.as_str())
                {
                    statuses[next_status].resolved_refs = resolved.clone();
                    next_status += 1;
                }
            }
            Spec::Gateway {
                class, listeners, ..
            } => {
                if let Some(r) = class {
                    gateway_class(ctx, f, r);
                }
                for l in listeners {
                    for c in &l.certificate_refs {
                        certificate(ctx, f, c);
                    }
                }
            }
            Spec::ListenerSet { parent, .. } if !parent.name.is_empty() => {
                let ns = parent.namespace().unwrap_or(&f.id.namespace);
                let group = parent.group().unwrap_or(GATEWAY_API);
                let kind = parent.kind().unwrap_or("Gateway");
                if let Some(gateway) = exists(ctx, f, parent, (group, kind, ns)) {
                    super::listener_sets::check(ctx, f, parent, gateway);
                }
            }
            _ => {}
        }
        for r in &f.refs {
            field_ref(ctx, f, r);
        }
    }
    unresolved
}

/// Whether a backendRef names a kind this API's controllers route to.
fn known_backend(r: &ObjRef) -> bool {
    matches!(
        (r.group().unwrap_or(""), r.kind().unwrap_or("Service")),
        ("", "Service") | (GATEWAY_GROUP, "Backend") | (AI_GROUP, "AiGatewayBackend")
    )
}

/// Whether a backendRef's group belongs to neither Kubernetes itself (the core group, a dotless
/// one such as `apps`, a `*.k8s.io` one) nor this API: another project's, whose kinds may be
/// that implementation's backends.
fn foreign_group(r: &ObjRef) -> bool {
    let group = r.group().unwrap_or("");
    let kubernetes = !group.contains('.') || group.ends_with(".k8s.io");
    !kubernetes && ![GATEWAY_GROUP, AI_GROUP].contains(&group)
}

/// Whether every parent of a route is a Gateway in the inputs whose GatewayClass (in the inputs
/// too) names a controller other than this API's two: those controllers alone read the route.
fn served_by_others(ctx: &Ctx<'_>, owner: &Facts, route: &RouteFacts) -> bool {
    !route.parent_refs.is_empty()
        && route
            .parent_refs
            .iter()
            .all(|p| parent_controller(ctx, owner, p).is_some_and(|c| !ours(ctx).contains(&c)))
}

/// Whether this API's controllers are known to serve a route: one of its parents is a Gateway
/// in the inputs whose GatewayClass (in the inputs too) names one of them. A render takes the
/// inputs as all the controller sees: there every route is theirs.
fn served_by_ours(ctx: &Ctx<'_>, owner: &Facts, route: &RouteFacts) -> bool {
    ctx.options.strict_refs
        || route
            .parent_refs
            .iter()
            .any(|p| parent_controller(ctx, owner, p).is_some_and(|c| ours(ctx).contains(&c)))
}

/// The controller names of this API's two controllers.
fn ours<'c>(ctx: &'c Ctx<'_>) -> [&'c str; 2] {
    [
        ctx.options
            .proxy_controller
            .as_deref()
            .unwrap_or(crate::config::DEFAULT_PROXY_CONTROLLER),
        ctx.options
            .ai_controller
            .as_deref()
            .unwrap_or(crate::config::DEFAULT_AI_CONTROLLER),
    ]
}

/// The controller of a parentRef's Gateway, when the Gateway and its GatewayClass are both in
/// the inputs.
fn parent_controller<'a>(ctx: &Ctx<'a>, owner: &Facts, p: &ObjRef) -> Option<&'a str> {
    let gateway = (
        p.group().unwrap_or(GATEWAY_API),
        p.kind().unwrap_or("Gateway"),
    ) == (GATEWAY_API, "Gateway");
    let ns = p.namespace().unwrap_or(&owner.id.namespace);
    let class = match ctx.index.get(GATEWAY_API, "Gateway", ns, &p.name) {
        Some(Facts {
            spec: Spec::Gateway { class: Some(c), .. },
            ..
        }) if gateway => ctx.index.get(GATEWAY_API, "GatewayClass", "", &c.name),
        _ => None,
    }?;
    match &class.spec {
        Spec::GatewayClass { controller } => Some(controller.as_str()),
        _ => None,
    }
}

/// Checks one backendRef written in `field`; the failed ResolvedRefs condition, if any.
fn backend(ctx: &mut Ctx<'_>, owner: &Facts, r: &ObjRef, field: RefField) -> Option<Condition> {
    let group = r.group().unwrap_or("");
    let kind = r.kind().unwrap_or("Service");
    let ns = r.namespace().unwrap_or(&owner.id.namespace);
    if !known_backend(r) {
        if OPAQUE_BACKENDS.contains(&(group, kind)) {
            return None;
        }
        let mut d = diag(
            rules::GW207,
            format!(
                "backendRef kind {kind:?} in group {group:?} is not a backend kind (Service, Backend or AiGatewayBackend)"
            ),
            &owner.id,
            r,
        );
        // The reference's name of a kind this API renamed (AgentgatewayBackend).
        if let Some(renamed) = crate::schema::Registry::builtin().renamed_kind(group, kind) {
            d = d.with_help(format!("renamed in this API: {renamed:?} (was {kind:?})"));
        }
        ctx.out.push(d);
        return Some(fail("InvalidKind", "unknown backend kind"));
    }
    if let Some(c) = grant(ctx, owner, r, field, (group, kind, ns)) {
        return Some(c);
    }
    if matches!(field, RefField::RouteBackend)
        && (group, kind) == (GATEWAY_GROUP, "Backend")
        && let Some(port) = r.port
    {
        return Some(port_on_backend(ctx, owner, r, port));
    }
    if !ctx.checkable(group, kind, &owner.id, r) {
        return None;
    }
    let Some(target) = ctx.index.get(group, kind, ns, &r.name) else {
        if unplaced_note(ctx, owner, r, rules::GW205, (group, kind, ns)) {
            return None;
        }
        let message = format!("{kind} {} not found", qualified(ns, &r.name));
        let mut d = diag(
            rules::GW205,
            format!("{message}{}", hint(ctx, group, kind, ns, &r.name)),
            &owner.id,
            r,
        );
        if let Some(fix) = ctx
            .index
            .one_edit_away((group, kind, ns), &r.name)
            .and_then(|n| super::fixes::change(owner.id.file, r.name_span, "name", &r.name, n))
        {
            d = d.with_fix(fix);
        }
        ctx.out.push(d);
        return Some(fail("BackendNotFound", &message));
    };
    if let (Spec::Service { ports }, Some(port)) = (&target.spec, r.port)
        && !ports.iter().any(|(_, p)| *p == port)
    {
        let list: Vec<String> = ports.iter().map(|(_, p)| p.to_string()).collect();
        let message = format!(
            "Service {} has no port {port} (ports: {})",
            qualified(ns, &r.name),
            list.join(", ")
        );
        let mut d = diag_at_value(
            rules::GW206,
            message.clone(),
            &owner.id,
            r,
            ("port", r.port_span),
        )
        .with_related(target.id.file, target.id.name_span, "the Service is here");
        let numbers: Vec<i64> = ports.iter().map(|(_, p)| *p).collect();
        if let Some(fix) = super::fixes::port(owner.id.file, r.port_span, port, &numbers) {
            d = d.with_fix(fix);
        }
        ctx.out.push(d);
        // The controller looks a backend up by Service and port together: a port the Service
        // does not have is, in its words, the Service not found.
        let words = format!("Service {} not found", qualified(ns, &r.name));
        return Some(fail("BackendNotFound", &words));
    }
    None
}

/// A backendRef to a Backend with a port (GW215): the controller refuses it whether or not the
/// Backend exists, as its ports are the Backend's own.
fn port_on_backend(ctx: &mut Ctx<'_>, owner: &Facts, r: &ObjRef, port: i64) -> Condition {
    ctx.out.push(diag_at_value(
        rules::GW215,
        format!(
            "backendRef to Backend {} sets port {port}: a Backend's ports are its own, so the controller refuses the reference",
            r.name
        ),
        &owner.id,
        r,
        ("port", r.port_span),
    ));
    fail(
        "BackendNotFound",
        &format!(
            "BackendRef to \"{}\" includes a port. Do not specify a port when referencing a Backend resource, as it defines its own port configuration",
            r.name
        ),
    )
}

fn fail(reason: &'static str, message: &str) -> Condition {
    Condition {
        status: false,
        reason,
        message: message.to_string(),
    }
}

/// The ReferenceGrant check of a reference written in `field`; the failed condition when the
/// field needs a grant and none permits the reference.
fn grant(
    ctx: &mut Ctx<'_>,
    owner: &Facts,
    r: &ObjRef,
    field: RefField,
    (group, kind, ns): (&str, &str, &str),
) -> Option<Condition> {
    let id = &owner.id;
    if ctx.index.grants().permits(
        field,
        (&id.group, &id.kind, &id.namespace),
        (group, kind, ns, &r.name),
    ) {
        return None;
    }
    // Neither the target nor any ReferenceGrant is in the inputs (a fragment of what is
    // applied): whether a grant exists is not known, so it is one note (GW212), as for a
    // missing kind.
    if !grant_knowable(ctx, group, kind) {
        // Counted among the references not checked (one note).
        ctx.checkable(GATEWAY_API, "ReferenceGrant", id, r);
        return None;
    }
    let message = format!(
        "reference to {kind} {} from namespace {} needs a ReferenceGrant in namespace {ns}",
        qualified(ns, &r.name),
        id.namespace
    );
    let mut d = diag(rules::GW208, message.clone(), id, r).with_help(format!(
        "add a ReferenceGrant in {ns} with from {{group: {:?}, kind: {}, namespace: {}}} and to {{group: {group:?}, kind: {kind}}}",
        id.group, id.kind, id.namespace
    ));
    if let Some(fix) = super::fixes::reference_grant(ctx, id, (group, kind, ns)) {
        d = d.with_fix(fix);
    }
    ctx.out.push(d);
    Some(fail("RefNotPermitted", &message))
}

/// Whether a reference to a `group`/`kind` object is known to lack a grant when none in the
/// inputs permits it: with neither an object of that kind nor any ReferenceGrant in the inputs
/// (a fragment of what is applied) it is not known (`--strict-refs` says it is).
fn grant_knowable(ctx: &Ctx<'_>, group: &str, kind: &str) -> bool {
    ctx.checks_kind(group, kind) || ctx.index.has_kind(GATEWAY_API, "ReferenceGrant")
}

/// What a reference to namespace `ns` that finds nothing there says of `f`, an object of the
/// kind and name whose namespace is not known: it is the one named if applied to `ns`.
pub(super) fn unplaced(f: &Facts, ns: &str) -> String {
    format!(
        "; {} {} writes no namespace: applied to namespace {ns}, it is the one named",
        f.id.kind, f.id.name
    )
}

/// The note for a reference that finds nothing in `ns` while an object of the kind and name
/// whose namespace is not known is in the inputs; `true` when given.
fn unplaced_note(
    ctx: &mut Ctx<'_>,
    owner: &Facts,
    r: &ObjRef,
    code: rules::Code,
    (group, kind, ns): (&str, &str, &str),
) -> bool {
    let Some(u) = ctx.index.unplaced(group, kind, ns, &r.name) else {
        return false;
    };
    let message = format!(
        "{kind} {} not found{}",
        qualified(ns, &r.name),
        unplaced(u, ns)
    );
    ctx.out.push(
        diag(code, message, &owner.id, r)
            .with_severity(crate::diag::Severity::Info)
            .with_related(u.id.file, u.id.name_span, "written without a namespace"),
    );
    true
}

fn hint(ctx: &Ctx<'_>, group: &str, kind: &str, ns: &str, name: &str) -> String {
    ctx.index
        .did_you_mean(group, kind, ns, name)
        .map(|n| format!("; did you mean {n:?}?"))
        .unwrap_or_default()
}

/// The target exists (GW209); returns it.
pub(super) fn exists<'a>(
    ctx: &mut Ctx<'a>,
    owner: &Facts,
    r: &ObjRef,
    (group, kind, ns): (&str, &str, &str),
) -> Option<&'a Facts> {
    if r.name.is_empty() || !ctx.checkable(group, kind, &owner.id, r) {
        return None;
    }
    let found = ctx.index.get(group, kind, ns, &r.name);
    if found.is_none() && !unplaced_note(ctx, owner, r, rules::GW209, (group, kind, ns)) {
        let message = format!(
            "{kind} {} not found{}",
            qualified(ns, &r.name),
            hint(ctx, group, kind, ns, &r.name)
        );
        let missing = Some((kind.to_string(), qualified(ns, &r.name)));
        ctx.out.push(
            diag(rules::GW209, message, &owner.id, r).with_outcome(Outcome::Reference { missing }),
        );
    }
    found
}

/// A GatewayClass that is not in the inputs only makes the data plane unknown (decisions.md
/// section 1), so this is a note, given only when other classes are there (then likely a typo).
fn gateway_class(ctx: &mut Ctx<'_>, owner: &Facts, r: &ObjRef) {
    let index = ctx.index;
    if !index.has_kind(GATEWAY_API, "GatewayClass")
        || index
            .get(GATEWAY_API, "GatewayClass", "", &r.name)
            .is_some()
    {
        return;
    }
    let message = format!(
        "GatewayClass {} not found: the Gateway's data plane is unknown{}",
        r.name,
        hint(ctx, GATEWAY_API, "GatewayClass", "", &r.name)
    );
    ctx.out
        .push(diag(rules::GW209, message, &owner.id, r).with_severity(crate::diag::Severity::Info));
}

fn certificate(ctx: &mut Ctx<'_>, owner: &Facts, r: &ObjRef) {
    let group = r.group().unwrap_or("");
    let kind = r.kind().unwrap_or("Secret");
    let ns = r.namespace().unwrap_or(&owner.id.namespace);
    if grant(
        ctx,
        owner,
        r,
        RefField::ListenerCertificate,
        (group, kind, ns),
    )
    .is_some()
    {
        return;
    }
    if let Some(t) = exists(ctx, owner, r, (group, kind, ns))
        && kind == "Secret"
    {
        keys(ctx, owner, r, t, &["tls.crt".into(), "tls.key".into()]);
        pem(ctx, owner, r, t);
    }
}

/// A listener certificate Secret whose `tls.crt` or `tls.key` is there but holds no PEM data
/// (GW216): the controller cannot load the key pair. A missing key is GW210's.
fn pem(ctx: &mut Ctx<'_>, owner: &Facts, r: &ObjRef, target: &Facts) {
    let Spec::Keys { keys, pem } = &target.spec else {
        return;
    };
    let has = |list: &[String], key: &str| list.iter().any(|k| k == key);
    let not_pem: Vec<&str> = ["tls.crt", "tls.key"]
        .into_iter()
        .filter(|k| has(keys, k) && !has(pem, k))
        .collect();
    if not_pem.is_empty() {
        return;
    }
    let id: &Ident = &target.id;
    ctx.out.push(
        diag(
            rules::GW216,
            format!(
                "Secret {}: {} {} no PEM data, so the controller cannot load the listener's certificate",
                qualified(&id.namespace, &id.name),
                not_pem.join(" and "),
                if not_pem.len() == 1 { "holds" } else { "hold" }
            ),
            &owner.id,
            r,
        )
        .with_related(id.file, id.name_span, "the Secret is here"),
    );
}

fn field_ref(ctx: &mut Ctx<'_>, owner: &Facts, fr: &FieldRef) {
    let r = &fr.target;
    let group = r.group().unwrap_or("");
    let Some(kind) = r.kind() else {
        return;
    };
    let ns = r.namespace().unwrap_or(&owner.id.namespace);
    if grant(ctx, owner, r, fr.field, (group, kind, ns)).is_some() {
        return;
    }
    if kind == "Service" || kind == "Backend" || kind == "AiGatewayBackend" {
        // The grant is checked above, for this field.
        backend(ctx, owner, r, RefField::Other);
        return;
    }
    let Some(target) = exists(ctx, owner, r, (group, kind, ns)) else {
        return;
    };
    if fr.field == RefField::PolicyExtension {
        extension_backends(ctx, owner, r, target);
    }
    match &fr.need {
        Need::Exists => {}
        Need::Keys(k) => keys(ctx, owner, r, target, k),
        Need::Provider(p) => {
            if *p == "extAuth" {
                refused_by_proxy(ctx, owner, r, target);
            }
            if let Spec::Extension { providers, .. } = &target.spec
                && !providers.iter().any(|x| x == p)
            {
                ctx.out.push(
                    diag(
                        rules::GW211,
                        format!(
                            "GatewayExtension {} does not provide {p} (it sets: {})",
                            qualified(ns, &r.name),
                            providers.join(", ")
                        ),
                        &owner.id,
                        r,
                    )
                    .with_related(
                        target.id.file,
                        target.id.name_span,
                        "the GatewayExtension is here",
                    ),
                );
            }
        }
    }
}

/// A GatewayExtension used for extAuth whose `httpService.pathPrefix` does not start with `/`:
/// the controller sends it on, the proxy refuses it (only strict validation lets it check first).
fn refused_by_proxy(ctx: &mut Ctx<'_>, owner: &Facts, r: &ObjRef, extension: &Facts) {
    let Spec::Extension {
        path_prefix: Some((prefix, span)),
        ..
    } = &extension.spec
    else {
        return;
    };
    if prefix.starts_with('/') {
        return;
    }
    let id = &extension.id;
    ctx.out.push(
        super::diag(
            rules::GW214,
            format!(
                "GatewayExtension {} has extAuth httpService.pathPrefix {prefix:?}, which the proxy refuses (it must start with /)",
                qualified(&id.namespace, &id.name)
            ),
            &owner.id,
            r,
        )
        .with_related(id.file, *span, "the path prefix")
        .with_outcome(Outcome::ProxyOnly(crate::diag::ProxyCheck::PathPrefix)),
    );
}

/// A GatewayExtension whose backendRef in another namespace has no ReferenceGrant cannot be
/// used: the controller rejects every policy that refers to it (its own reference gets GW208).
fn extension_backends(ctx: &mut Ctx<'_>, owner: &Facts, r: &ObjRef, extension: &Facts) {
    let id = &extension.id;
    let refused = extension.refs.iter().find(|b| {
        let t = &b.target;
        let (group, kind) = (t.group().unwrap_or(""), t.kind().unwrap_or("Service"));
        b.field == RefField::ExtensionBackend
            && grant_knowable(ctx, group, kind)
            && !ctx.index.grants().permits(
                b.field,
                (&id.group, &id.kind, &id.namespace),
                (group, kind, t.namespace().unwrap_or(&id.namespace), &t.name),
            )
    });
    let Some(b) = refused else {
        missing_extension_backend(ctx, owner, r, extension);
        return;
    };
    let t = &b.target;
    ctx.out.push(
        diag(
            rules::GW208,
            format!(
                "GatewayExtension {} cannot be used: its reference to {} {} needs a ReferenceGrant in namespace {}, so the controller does not accept this policy",
                qualified(&id.namespace, &id.name),
                t.kind().unwrap_or("Service"),
                qualified(t.namespace().unwrap_or(&id.namespace), &t.name),
                t.namespace().unwrap_or(&id.namespace)
            ),
            &owner.id,
            r,
        )
        .with_related(id.file, t.span, "the reference without a ReferenceGrant")
        .with_outcome(Outcome::ExtensionBackend {
            path: t.path.to_string(),
        }),
    );
}

/// A GatewayExtension whose external service (extAuth, extProc, rate limit) is not there cannot
/// be used either: the controller resolves the service when it translates each policy that
/// refers to the extension, and rejects the policy in the words of that feature (the extension's
/// own reference gets GW205).
fn missing_extension_backend(ctx: &mut Ctx<'_>, owner: &Facts, r: &ObjRef, extension: &Facts) {
    let id = &extension.id;
    let missing = extension.refs.iter().find_map(|b| {
        let t = &b.target;
        let (group, kind) = (t.group().unwrap_or(""), t.kind().unwrap_or("Service"));
        let ns = t.namespace().unwrap_or(&id.namespace);
        let checked = ctx.checks_kind(group, kind);
        let feature = SERVICE_FEATURES
            .iter()
            .find(|(prefix, _)| t.path.starts_with(prefix))?;
        (b.field == RefField::ExtensionBackend
            && !t.name.is_empty()
            && checked
            && ctx.index.get(group, kind, ns, &t.name).is_none())
        .then_some((t, kind, ns, feature.1))
    });
    let Some((t, kind, ns, wrap)) = missing else {
        return;
    };
    let words = format!("{wrap}{kind} {} not found", qualified(ns, &t.name));
    ctx.out.push(
        diag(
            rules::GW209,
            format!(
                "GatewayExtension {} cannot be used: its backend {kind} {} is not in the inputs, so the controller does not accept this policy",
                qualified(&id.namespace, &id.name),
                qualified(ns, &t.name),
            ),
            &owner.id,
            r,
        )
        .with_related(id.file, t.span, "the backend that is not there")
        .with_outcome(Outcome::Refused { words }),
    );
}

/// The GatewayExtension features whose service the controller resolves per policy, by the path
/// of the extension's backendRef, with the words its error is wrapped in.
const SERVICE_FEATURES: &[(&str, &str)] = &[
    (
        "spec.extAuth.",
        "extauth: failed to resolve ExtAuth backend: ",
    ),
    (
        "spec.extProc.",
        "extproc: failed to resolve ExtProc backend: ",
    ),
    ("spec.rateLimit.", "ratelimit: ratelimit: "),
];

fn keys(ctx: &mut Ctx<'_>, owner: &Facts, r: &ObjRef, target: &Facts, needed: &[String]) {
    let Spec::Keys { keys: present, .. } = &target.spec else {
        return;
    };
    let missing: Vec<&str> = needed
        .iter()
        .filter(|k| !present.contains(k))
        .map(String::as_str)
        .collect();
    if missing.is_empty() {
        return;
    }
    let id: &Ident = &target.id;
    ctx.out.push(
        diag(
            rules::GW210,
            format!(
                "{} {} has no key {} (keys: {})",
                id.kind,
                qualified(&id.namespace, &id.name),
                missing.join(", "),
                present.join(", ")
            ),
            &owner.id,
            r,
        )
        .with_related(id.file, id.name_span, format!("the {} is here", id.kind)),
    );
}
