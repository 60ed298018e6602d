//! One AiGatewayBackend: a static host, a dynamic forward proxy, LLM provider groups or MCP
//! targets, with its inline policies. A backend whose own policies (or an MCP target's) cannot
//! be translated is not programmed at all, and its status says why; a provider's policy that
//! cannot be translated is left out of that provider only (as the reference does).

use serde_json::{Map, Value, json};

use super::backends::service;
use super::policies::{Policy, inline_policies};
use super::{AI_GROUP, Context, condition, labels_match_typed, pick, service_host};
use crate::model::Object;
use crate::model::facts_settings::Settings;
use crate::render::json::{object, single};

const MCP: &str = "kgateway.dev/mcp";
const MCP_SSE: &str = "kgateway.dev/mcp-sse";

/// The backend's resources (itself, then one per static MCP target) and its status.
pub(super) fn translate(ctx: &Context<'_>, o: &Object) -> (Vec<Value>, Value) {
    let owner = Policy::new(o);
    let resources = resources(ctx, o, &owner);
    let problems = owner.problems();
    let condition = if problems.is_empty() {
        condition(
            "Accepted",
            true,
            "Accepted",
            "Backend successfully accepted",
        )
    } else {
        condition(
            "Accepted",
            false,
            "TranslationError",
            &format!("failed to translate backend: {}", problems.join("\n")),
        )
    };
    let status = object([
        ("apiVersion", format!("{AI_GROUP}/v1alpha1").into()),
        ("kind", o.id.kind.clone().into()),
        ("metadata", name_of(o)),
        ("spec", Value::Null),
        ("status", single("conditions", vec![condition])),
    ]);
    if problems.is_empty() {
        (resources, status)
    } else {
        (Vec::new(), status)
    }
}

fn name_of(o: &Object) -> Value {
    json!({"name": o.id.name, "namespace": o.id.namespace})
}

/// The backend itself, then a backend of its own for each static MCP target.
fn resources(ctx: &Context<'_>, o: &Object, owner: &Policy<'_>) -> Vec<Value> {
    // The render-only facts keep the spec (render keeps no JSON of an AiGatewayBackend).
    let spec = match ctx.inputs.facts_at(o).and_then(|f| f.settings.as_deref()) {
        Some(Settings::AiBackend(spec)) => spec,
        _ => &Value::Null,
    };
    let key = format!("{}/{}", o.id.namespace, o.id.name);
    let mut backend = Map::new();
    backend.insert("key".into(), key.clone().into());
    backend.insert("name".into(), name_of(o));
    let mut extra = Vec::new();
    if let Some(s) = spec.get("static") {
        backend.insert("static".into(), Value::Object(pick(s, &["host", "port"])));
    }
    if spec.get("dynamicForwardProxy").is_some() {
        backend.insert("dynamic".into(), json!({}));
    }
    if let Some(ai) = spec.get("ai") {
        backend.insert("ai".into(), provider_groups(ctx, o, ai));
    }
    if let Some(mcp) = spec.get("mcp") {
        backend.insert(
            "mcp".into(),
            mcp_targets(ctx, o, owner, &key, mcp, &mut extra),
        );
    }
    let inline = inline_policies(ctx, owner, &spec["policies"]);
    if !inline.is_empty() {
        backend.insert("inlinePolicies".into(), inline.into());
    }
    let mut out = vec![Value::Object(backend)];
    out.extend(extra);
    out
}

/// `ai`: the provider groups as written, or the single `provider` as a group of one.
fn provider_groups(ctx: &Context<'_>, o: &Object, ai: &Value) -> Value {
    let groups: Vec<Value> = match ai.get("groups").and_then(Value::as_array) {
        Some(groups) => groups
            .iter()
            .map(|g| {
                let providers: Vec<Value> = g["providers"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .filter_map(|p| Some(provider(ctx, o, p, p["name"].as_str()?)))
                    .collect();
                single("providers", providers)
            })
            .collect(),
        None => vec![single(
            "providers",
            vec![provider(ctx, o, &ai["provider"], "backend")],
        )],
    };
    single("providerGroups", groups)
}

/// `mcp`: its targets and session mode. A static target is reached through a backend of its
/// own, pushed to `extra`.
fn mcp_targets(
    ctx: &Context<'_>,
    o: &Object,
    owner: &Policy<'_>,
    key: &str,
    mcp: &Value,
    extra: &mut Vec<Value>,
) -> Value {
    let mut targets = Vec::new();
    for t in mcp["targets"].as_array().into_iter().flatten() {
        let name = t["name"].as_str().unwrap_or("");
        if let Some(s) = t.get("static") {
            let (target, target_backend) = static_target(ctx, o, owner, key, name, s);
            targets.push(target);
            extra.push(target_backend);
        } else if let Some(selector) = t.get("selector") {
            targets.extend(selected_targets(ctx, &o.id.namespace, selector));
        }
    }
    let mut m = Map::new();
    m.insert("targets".into(), targets.into());
    if mcp["sessionRouting"].as_str() == Some("Stateless") {
        m.insert("statefulMode".into(), "STATELESS".into());
    }
    m.into()
}

/// A static MCP target `name` (written as `s`): the target, and the backend it points to, keyed
/// `<backend key>/<name>`, with the target's inline policies.
fn static_target(
    ctx: &Context<'_>,
    o: &Object,
    owner: &Policy<'_>,
    key: &str,
    name: &str,
    s: &Value,
) -> (Value, Value) {
    let target_key = format!("{key}/{name}");
    let mut target = Map::new();
    target.insert("name".into(), name.into());
    target.insert("backend".into(), json!({ "backend": target_key }));
    if let Some(path) = s.get("path") {
        target.insert("path".into(), path.clone());
    }
    if let Some(p) = s["protocol"].as_str().and_then(mcp_protocol) {
        target.insert("protocol".into(), p.into());
    }
    let mut target_backend = Map::new();
    target_backend.insert("key".into(), target_key.into());
    target_backend.insert("name".into(), name_of(o));
    target_backend.insert("static".into(), pick(s, &["host", "port"]).into());
    let inline = inline_policies(ctx, owner, &s["policies"]);
    if !inline.is_empty() {
        target_backend.insert("inlinePolicies".into(), inline.into());
    }
    (Value::Object(target), Value::Object(target_backend))
}

fn mcp_protocol(written: &str) -> Option<&'static str> {
    match written {
        "StreamableHTTP" => Some("STREAMABLE_HTTP"),
        "SSE" => Some("SSE"),
        _ => None,
    }
}

/// The MCP targets a selector finds: every port of a selected Service whose appProtocol is
/// MCP, named `<service>-<port name, else number>`.
fn selected_targets(ctx: &Context<'_>, ns: &str, selector: &Value) -> Vec<Value> {
    let services = &selector["services"]["matchLabels"];
    let namespaces = &selector["namespaces"]["matchLabels"];
    if !services.is_object() && !namespaces.is_object() {
        return Vec::new();
    }
    let mut out = Vec::new();
    for svc in ctx.inputs.of_kind("", "Service") {
        let in_scope = if namespaces.is_object() {
            ctx.inputs
                .facts_of("", "Namespace", "", &svc.id.namespace)
                .is_some_and(|n| labels_match_typed(&n.labels, namespaces))
        } else {
            svc.id.namespace == ns
        };
        let labels = ctx.inputs.facts_at(svc).map_or(&[][..], |f| &f.labels);
        if !in_scope || (services.is_object() && !labels_match_typed(labels, services)) {
            continue;
        }
        let settings = service(ctx, svc);
        for port in &settings.ports {
            let protocol = match port.app_protocol.as_deref() {
                Some(MCP) => "STREAMABLE_HTTP",
                Some(MCP_SSE) => "SSE",
                _ => continue,
            };
            let number = port.port.map_or(Value::Null, Value::from);
            let port_name = match port.name.as_deref() {
                Some(n) => n.to_string(),
                None => number.to_string(),
            };
            let mut target = Map::new();
            target.insert("name".into(), format!("{}-{port_name}", svc.id.name).into());
            target.insert(
                "backend".into(),
                json!({
                    "port": number,
                    "service": {
                        "hostname": service_host(&svc.id.namespace, &svc.id.name),
                        "namespace": svc.id.namespace,
                    },
                }),
            );
            if let Some(path) = &settings.mcp_path {
                target.insert("path".into(), path.clone());
            }
            target.insert("protocol".into(), protocol.into());
            out.push(Value::Object(target));
        }
    }
    out
}

/// One provider of a group: its name, its vendor's settings, its own inline policies.
fn provider(ctx: &Context<'_>, o: &Object, p: &Value, name: &str) -> Value {
    let mut out = Map::new();
    out.insert("name".into(), name.into());
    for vendor in [
        "chatCompletionsVendor",
        "messagesVendor",
        "generativeVendor",
    ] {
        if let Some(c) = p.get(vendor) {
            out.insert(vendor.into(), pick(c, &["model"]).into());
        }
    }
    if let Some(c) = p.get("hostedDeploymentVendor") {
        let mut v = Map::new();
        if let Some(e) = c["endpoint"].as_str() {
            // A scheme, if written, is not part of the host.
            let host = e.split_once("://").map_or(e, |(_, h)| h);
            v.insert("host".into(), host.into());
        }
        if let Some(d) = c.get("deploymentName") {
            v.insert("model".into(), d.clone());
        }
        if let Some(a) = c.get("apiVersion") {
            v.insert("apiVersion".into(), a.clone());
        }
        out.insert("hostedDeploymentVendor".into(), v.into());
    }
    if let Some(c) = p.get("cloudPlatformVendor") {
        // The data plane's name for this provider kind is `vertex`.
        out.insert(
            "vertex".into(),
            pick(c, &["model", "projectId", "region"]).into(),
        );
    }
    if let Some(c) = p.get("cloudManagedVendor") {
        let mut v = pick(c, &["model", "region"]);
        if let Some(g) = c.get("guardrail") {
            if let Some(i) = g.get("identifier") {
                v.insert("guardrailIdentifier".into(), i.clone());
            }
            if let Some(i) = g.get("version") {
                v.insert("guardrailVersion".into(), i.clone());
            }
        }
        out.insert("cloudManagedVendor".into(), v.into());
    }
    // What fails in a provider's own policies is left out of that provider only.
    let inline = inline_policies(ctx, &Policy::new(o), &p["policies"]);
    if !inline.is_empty() {
        out.insert("inlinePolicies".into(), inline.into());
    }
    Value::Object(out)
}
