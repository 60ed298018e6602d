//! Whether what attaches can take effect on the data plane that serves it (`decisions.md`
//! section 1: a Gateway's data plane is the AI one when its GatewayClass's controllerName is the
//! AI controller name, else the proxy-based one). Each policy family configures one data plane;
//! the other ignores it without a status saying so. Findings: a policy of the other family
//! (GW305), a data plane that cannot be known because no GatewayClass is in the inputs (GW306,
//! a note), a cloud function Backend behind
//! an AI Gateway (GW307), `backend.ai` / `backend.mcp` on an AiGatewayBackend of another
//! kind (GW309).

use std::collections::BTreeSet;

use crate::fasthash::FastMap;
use crate::rules;

use crate::diag::Diagnostic;
use crate::model::facts::{Facts, GATEWAY_API, GATEWAY_API_X, ObjRef, Spec};
use crate::model::facts_policy::{PolicyFacts, route_only_field};

use super::policies::{Attachment, Via};
use super::{Ctx, diag, qualified};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Plane {
    Proxy,
    Ai,
}

impl Plane {
    fn describe(self) -> &'static str {
        match self {
            Plane::Proxy => "the proxy-based data plane",
            Plane::Ai => "the AI data plane",
        }
    }
}

/// The data plane a policy kind configures; `None` for kinds both understand.
fn family(kind: &str) -> Option<Plane> {
    match kind {
        "AiGatewayPolicy" => Some(Plane::Ai),
        "TrafficPolicy" | "HTTPListenerPolicy" | "ListenerPolicy" => Some(Plane::Proxy),
        _ => None,
    }
}

/// Data planes of Gateways, each looked up once.
struct Planes<'c> {
    ai_controller: &'c str,
    /// Gateway -> its data plane, `None` when its GatewayClass is not in the inputs.
    known: FastMap<usize, Option<Plane>>,
}

impl Planes<'_> {
    fn of(&mut self, ctx: &Ctx<'_>, gateway: usize) -> Option<Plane> {
        if let Some(&p) = self.known.get(&gateway) {
            return p;
        }
        let f = &ctx.index.facts[gateway];
        let plane = match &f.spec {
            Spec::Gateway {
                class: Some(class), ..
            } => match ctx.index.get(GATEWAY_API, "GatewayClass", "", &class.name) {
                Some(Facts {
                    spec: Spec::GatewayClass { controller },
                    ..
                }) if controller == self.ai_controller => Some(Plane::Ai),
                Some(_) => Some(Plane::Proxy),
                None => None,
            },
            _ => None,
        };
        self.known.insert(gateway, plane);
        plane
    }
}

pub(super) fn check(ctx: &mut Ctx<'_>, attachments: &[Attachment]) {
    let ai_controller = ctx
        .options
        .ai_controller
        .clone()
        .unwrap_or_else(|| crate::config::DEFAULT_AI_CONTROLLER.to_string());
    let mut planes = Planes {
        ai_controller: &ai_controller,
        known: FastMap::default(),
    };
    // Gateways whose data plane decides whether some policy takes effect but is unknown: one
    // note each, not one per policy.
    let mut unknown: BTreeSet<usize> = BTreeSet::new();
    for a in attachments {
        let p = &ctx.index.facts[a.policy];
        let Some(want) = family(&p.id.kind) else {
            continue;
        };
        let Spec::Policy(pf) = &p.spec else { continue };
        let gateways = gateways_of(ctx, a.target);
        if gateways.is_empty() {
            continue;
        }
        let mut other = None;
        let mut any_unknown = false;
        let mut served = false;
        for &g in &gateways {
            match planes.of(ctx, g) {
                Some(plane) if plane == want => served = true,
                Some(_) => other = other.or(Some(g)),
                None => {
                    any_unknown = true;
                    unknown.insert(g);
                }
            }
        }
        if served || any_unknown {
            continue;
        }
        if let Some(g) = other {
            wrong_plane(ctx, a, pf, want, g);
        }
    }
    // With other GatewayClasses in the inputs, the missing one already has a GW209 note.
    if !ctx.index.has_kind(GATEWAY_API, "GatewayClass") {
        for g in unknown {
            unknown_plane(ctx, g);
        }
    }
    cloud_behind_ai(ctx, &mut planes);
    backend_fields(ctx, attachments);
    route_only_fields(ctx, attachments);
}

/// The Gateways that serve an object: itself, a ListenerSet's parent, a route's parents (through
/// ListenerSets too). Empty for kinds no Gateway is known for (Services, backends).
fn gateways_of(ctx: &Ctx<'_>, target: usize) -> Vec<usize> {
    let f = &ctx.index.facts[target];
    match &f.spec {
        Spec::Gateway { .. } => vec![target],
        Spec::ListenerSet { parent, .. } => parent_gateway(ctx, &f.id.namespace, parent)
            .into_iter()
            .collect(),
        Spec::Route(route) => {
            let mut out = Vec::new();
            for r in &route.parent_refs {
                let kind = r.kind().unwrap_or("Gateway");
                let ns = r.namespace().unwrap_or(&f.id.namespace);
                let found = match kind {
                    "Gateway" => parent_gateway(ctx, &f.id.namespace, r),
                    "ListenerSet" | "XListenerSet" => {
                        let group = r.group().unwrap_or(if kind == "XListenerSet" {
                            GATEWAY_API_X
                        } else {
                            GATEWAY_API
                        });
                        ctx.index.position(group, kind, ns, &r.name).and_then(|ls| {
                            match &ctx.index.facts[ls].spec {
                                Spec::ListenerSet { parent, .. } => parent_gateway(ctx, ns, parent),
                                _ => None,
                            }
                        })
                    }
                    _ => None,
                };
                if let Some(g) = found
                    && !out.contains(&g)
                {
                    out.push(g);
                }
            }
            out
        }
        _ => Vec::new(),
    }
}

/// The Gateway a parentRef names (a ListenerSet's parentRef or a route's).
fn parent_gateway(ctx: &Ctx<'_>, own_ns: &str, r: &ObjRef) -> Option<usize> {
    if r.kind().is_some_and(|k| k != "Gateway") {
        return None;
    }
    let ns = r.namespace().unwrap_or(own_ns);
    ctx.index
        .position(r.group().unwrap_or(GATEWAY_API), "Gateway", ns, &r.name)
}

/// The span and path of the targetRef or targetSelector an attachment came through.
fn via_ref(pf: &PolicyFacts, via: Via) -> Option<ObjRef> {
    match via {
        Via::Ref(n) => pf.target_refs.get(n).cloned(),
        Via::Selector(n) => pf
            .target_selectors
            .get(n)
            .map(|s| ObjRef::at(s.span, s.path.as_str())),
    }
}

fn wrong_plane(ctx: &mut Ctx<'_>, a: &Attachment, pf: &PolicyFacts, want: Plane, gateway: usize) {
    let p = &ctx.index.facts[a.policy];
    let t = &ctx.index.facts[a.target];
    let g = &ctx.index.facts[gateway];
    let Some(at) = via_ref(pf, a.via) else { return };
    let has = match want {
        Plane::Ai => Plane::Proxy,
        Plane::Proxy => Plane::Ai,
    };
    let through = if a.target == gateway {
        format!(" (Gateway {})", qualified(&g.id.namespace, &g.id.name))
    } else {
        format!(
            " ({} {} is served by Gateway {})",
            t.id.kind,
            qualified(&t.id.namespace, &t.id.name),
            qualified(&g.id.namespace, &g.id.name)
        )
    };
    let mut d = diag(
        rules::GW305,
        format!(
            "{} configures {} but its target uses {}{through}: the policy has no effect there",
            p.id.kind,
            want.describe(),
            has.describe()
        ),
        &p.id,
        &at,
    )
    .with_related(
        g.id.file,
        g.id.name_span,
        format!("Gateway {} uses {}", g.id.name, has.describe()),
    );
    if a.target != gateway {
        d = d.with_related(
            t.id.file,
            t.id.name_span,
            format!("the {} is here", t.id.kind),
        );
    }
    ctx.out.push(d);
}

fn unknown_plane(ctx: &mut Ctx<'_>, gateway: usize) {
    let g = &ctx.index.facts[gateway];
    let Spec::Gateway { class, .. } = &g.spec else {
        return;
    };
    let at = class
        .as_deref()
        .cloned()
        .unwrap_or_else(|| ObjRef::at(g.id.name_span, "metadata.name"));
    let d = diag(
        rules::GW306,
        format!(
            "data plane of Gateway {} unknown: GatewayClass {:?} is not in the inputs, so policies of both families are assumed to take effect",
            qualified(&g.id.namespace, &g.id.name),
            &*at.name
        ),
        &g.id,
        &at,
    )
    .with_related(g.id.file, g.id.name_span, "the Gateway is here");
    ctx.out.push(d);
}

/// A route served by an AI Gateway with a backendRef to a cloud function Backend.
fn cloud_behind_ai(ctx: &mut Ctx<'_>, planes: &mut Planes<'_>) {
    let facts = ctx.index.facts;
    let mut found = Vec::new();
    for (i, f) in facts.iter().enumerate() {
        let Spec::Route(route) = &f.spec else {
            continue;
        };
        let clouds: Vec<(&ObjRef, usize)> = route
            .backend_refs
            .iter()
            .filter(|r| r.kind() == Some("Backend"))
            .filter_map(|r| {
                let group = r.group().unwrap_or("gateway.kgateway.dev");
                let ns = r.namespace().unwrap_or(&f.id.namespace);
                let b = ctx.index.position(group, "Backend", ns, &r.name)?;
                matches!(
                    facts[b].spec,
                    Spec::Backend {
                        variant: Some("cloud"),
                        ..
                    }
                )
                .then_some((r, b))
            })
            .collect();
        if clouds.is_empty() {
            continue;
        }
        let Some(gateway) = gateways_of(ctx, i)
            .into_iter()
            .find(|&g| planes.of(ctx, g) == Some(Plane::Ai))
        else {
            continue;
        };
        for (r, b) in clouds {
            found.push((i, r, b, gateway));
        }
    }
    for (i, r, b, gateway) in found {
        let f = &facts[i];
        let backend = &facts[b];
        let g = &facts[gateway];
        let d: Diagnostic = diag(
            rules::GW307,
            format!(
                "Backend {} is a cloud function backend, which the AI data plane of Gateway {} does not support",
                qualified(&backend.id.namespace, &backend.id.name),
                qualified(&g.id.namespace, &g.id.name)
            ),
            &f.id,
            r,
        )
        .with_related(backend.id.file, backend.id.name_span, "the Backend is here")
        .with_related(
            g.id.file,
            g.id.name_span,
            format!("Gateway {} uses the AI data plane", g.id.name),
        );
        ctx.out.push(d);
    }
}

/// A field that configures only routes (`route_only_field`) in a policy attached to a Gateway, a
/// listener or a listener set: it configures nothing there.
fn route_only_fields(ctx: &mut Ctx<'_>, attachments: &[Attachment]) {
    let facts = ctx.index.facts;
    for a in attachments {
        let (p, t) = (&facts[a.policy], &facts[a.target]);
        if !matches!(t.spec, Spec::Gateway { .. } | Spec::ListenerSet { .. }) {
            continue;
        }
        let Spec::Policy(pf) = &p.spec else { continue };
        for field in pf
            .fields
            .iter()
            .filter(|f| route_only_field(&p.id.kind, &f.name))
        {
            let at = ObjRef::at(field.key_span, format!("spec.{}", field.name));
            let d = diag(
                rules::GW309,
                format!(
                    "{} applies only to HTTPRoute targets: on {} {} it configures nothing",
                    field.name,
                    t.id.kind,
                    qualified(&t.id.namespace, &t.id.name)
                ),
                &p.id,
                &at,
            )
            .with_related(
                t.id.file,
                t.id.name_span,
                format!("the {} is here", t.id.kind),
            )
            .with_help("target the HTTPRoutes (or their rules) the timeouts are for");
            ctx.out.push(d);
        }
    }
}

/// An AiGatewayPolicy's `backend.ai` or `backend.mcp` on an AiGatewayBackend of another kind:
/// the CRD's rules can only forbid Service targets, not look at the backend targeted.
fn backend_fields(ctx: &mut Ctx<'_>, attachments: &[Attachment]) {
    let facts = ctx.index.facts;
    for a in attachments {
        let p = &facts[a.policy];
        let t = &facts[a.target];
        if p.id.kind != "AiGatewayPolicy" || t.id.kind != "AiGatewayBackend" {
            continue;
        }
        let (Spec::Policy(pf), Spec::Backend { variant, .. }) = (&p.spec, &t.spec) else {
            continue;
        };
        for field in &pf.fields {
            let needs = match field.name.as_str() {
                "backend.ai" => "ai",
                "backend.mcp" => "mcp",
                _ => continue,
            };
            if *variant == Some(needs) {
                continue;
            }
            let what = match needs {
                "ai" => "an LLM provider (ai)",
                _ => "an MCP (mcp)",
            };
            let is = variant.map_or_else(
                || "it sets no destination".to_string(),
                |v| format!("it is a {v} backend"),
            );
            let at = ObjRef::at(field.key_span, format!("spec.{}", field.name));
            let d = diag(
                rules::GW309,
                format!(
                    "{} applies only to {what} backend, but AiGatewayBackend {} is not one ({is}): the field has no effect there",
                    field.name,
                    qualified(&t.id.namespace, &t.id.name)
                ),
                &p.id,
                &at,
            )
            .with_related(t.id.file, t.id.name_span, "the AiGatewayBackend is here");
            ctx.out.push(d);
        }
    }
}
