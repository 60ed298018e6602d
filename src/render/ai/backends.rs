//! AiGatewayBackends (static hosts, LLM provider groups, MCP targets), the Services the data
//! plane reaches, and the policies that come with them (A2A ports, BackendTLSPolicy).

use serde_json::{Map, Value, json};

use super::secrets::{base64_encode, config_map_text, secret_bytes, shown};
use super::{AI_GROUP, Context, condition, labels_match, pick, service_host, str_at};
use crate::model::Object;
use crate::model::facts::GATEWAY_API;

/// `kgateway.dev/a2a`, `kgateway.dev/mcp`, `kgateway.dev/mcp-sse`: the appProtocols with a
/// meaning to the AI data plane.
const A2A: &str = "kgateway.dev/a2a";
const MCP: &str = "kgateway.dev/mcp";
const MCP_SSE: &str = "kgateway.dev/mcp-sse";
const MCP_PATH_ANNOTATION: &str = "kgateway.dev/mcp-path";
pub(super) const INFERENCE_GROUP: &str = "inference.networking.k8s.io";

/// Every backend and backend-side policy, as (kind, value).
pub(super) fn backends(ctx: &Context<'_>) -> Vec<(&'static str, Value)> {
    let mut out = Vec::new();
    for backend in ctx.inputs.of_kind(AI_GROUP, "AiGatewayBackend") {
        out.extend(ai_backend(ctx, backend).into_iter().map(|v| ("backend", v)));
    }
    for service in ctx.inputs.of_kind("", "Service") {
        out.extend(a2a_policies(service).into_iter().map(|v| ("policy", v)));
    }
    for pool in ctx.inputs.of_kind(INFERENCE_GROUP, "InferencePool") {
        out.extend(inference_policies(pool).into_iter().map(|v| ("policy", v)));
    }
    for policy in ctx.inputs.of_kind(GATEWAY_API, "BackendTLSPolicy") {
        out.extend(
            backend_tls_policies(ctx, policy)
                .into_iter()
                .map(|v| ("policy", v)),
        );
    }
    out
}

fn name_of(o: &Object) -> Value {
    json!({"name": o.id.name, "namespace": o.id.namespace})
}

/// Every AiGatewayBackend's status: accepted (the schema and the lint stage say what is wrong
/// with one; the controller accepts what the API server admitted).
pub(super) fn statuses(ctx: &Context<'_>) -> Vec<Value> {
    ctx.inputs
        .of_kind(AI_GROUP, "AiGatewayBackend")
        .map(|b| {
            json!({
                "apiVersion": format!("{AI_GROUP}/v1alpha1"),
                "kind": b.id.kind,
                "metadata": name_of(b),
                "spec": null,
                "status": {"conditions": [
                    condition("Accepted", true, "Accepted", "Backend successfully accepted"),
                ]},
            })
        })
        .collect()
}

/// One AiGatewayBackend: its backend, plus one backend per static MCP target.
fn ai_backend(ctx: &Context<'_>, o: &Object) -> Vec<Value> {
    let ns = o.id.namespace.as_str();
    let spec = &o.value["spec"];
    let key = format!("{ns}/{}", o.id.name);
    let mut backend = Map::new();
    backend.insert("key".into(), key.clone().into());
    backend.insert("name".into(), name_of(o));
    let mut extra = Vec::new();
    if let Some(s) = spec.get("static") {
        backend.insert("static".into(), Value::Object(pick(s, &["host", "port"])));
    }
    if let Some(ai) = spec.get("ai") {
        let groups: Vec<Value> = match ai.get("groups").and_then(Value::as_array) {
            Some(groups) => groups
                .iter()
                .map(|g| {
                    let providers: Vec<Value> = g["providers"]
                        .as_array()
                        .into_iter()
                        .flatten()
                        .filter_map(|p| Some(provider(ctx, ns, p, p["name"].as_str()?)))
                        .collect();
                    json!({ "providers": providers })
                })
                .collect(),
            None => vec![json!({ "providers": [provider(ctx, ns, &ai["provider"], "backend")] })],
        };
        backend.insert("ai".into(), json!({ "providerGroups": groups }));
    }
    if let Some(mcp) = spec.get("mcp") {
        let mut targets = Vec::new();
        for t in mcp["targets"].as_array().into_iter().flatten() {
            let name = t["name"].as_str().unwrap_or("");
            if let Some(s) = t.get("static") {
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
                targets.push(Value::Object(target));
                extra.push(json!({
                    "key": target_key,
                    "name": name_of(o),
                    "static": pick(s, &["host", "port"]),
                }));
            } else if let Some(selector) = t.get("selector") {
                targets.extend(selected_targets(ctx, ns, selector));
            }
        }
        backend.insert("mcp".into(), json!({ "targets": targets }));
    }
    let inline = inline_policies(ctx, ns, &spec["policies"]);
    if !inline.is_empty() {
        backend.insert("inlinePolicies".into(), inline.into());
    }
    let mut out = vec![Value::Object(backend)];
    out.extend(extra);
    out
}

fn mcp_protocol(written: &str) -> Option<&'static str> {
    match written {
        "StreamableHTTP" => Some("STREAMABLE_HTTP"),
        "SSE" => Some("SSE"),
        _ => None,
    }
}

/// The MCP targets a selector finds: every port of a selected Service whose appProtocol is
/// MCP, named `<service>-<port>`.
fn selected_targets(ctx: &Context<'_>, ns: &str, selector: &Value) -> Vec<Value> {
    let Some(services) = selector.get("services") else {
        return Vec::new();
    };
    let namespaces = &selector["namespaces"]["matchLabels"];
    let mut out = Vec::new();
    for svc in ctx.inputs.of_kind("", "Service") {
        let in_scope = if namespaces.is_object() {
            ctx.inputs
                .get("", "Namespace", "", &svc.id.namespace)
                .is_some_and(|n| labels_match(&n.value, namespaces))
        } else {
            svc.id.namespace == ns
        };
        if !in_scope || !labels_match(&svc.value, &services["matchLabels"]) {
            continue;
        }
        let path = svc
            .value
            .pointer("/metadata/annotations")
            .and_then(|a| a.get(MCP_PATH_ANNOTATION))
            .cloned();
        for port in svc.value["spec"]["ports"].as_array().into_iter().flatten() {
            let protocol = match port["appProtocol"].as_str() {
                Some(MCP) => "STREAMABLE_HTTP",
                Some(MCP_SSE) => "SSE",
                _ => continue,
            };
            let number = port["port"].clone();
            let mut target = Map::new();
            target.insert("name".into(), format!("{}-{}", svc.id.name, number).into());
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
            if let Some(path) = &path {
                target.insert("path".into(), path.clone());
            }
            target.insert("protocol".into(), protocol.into());
            out.push(Value::Object(target));
        }
    }
    out
}

/// One provider of a group: its name, its vendor's settings, its own inline policies.
fn provider(ctx: &Context<'_>, ns: &str, p: &Value, name: &str) -> Value {
    let mut out = Map::new();
    out.insert("name".into(), name.into());
    if let Some(c) = p.get("chatCompletionsVendor") {
        out.insert("chatCompletionsVendor".into(), pick(c, &["model"]).into());
    }
    if let Some(c) = p.get("messagesVendor") {
        out.insert("messagesVendor".into(), pick(c, &["model"]).into());
    }
    if let Some(c) = p.get("generativeVendor") {
        out.insert("generativeVendor".into(), pick(c, &["model"]).into());
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
    let inline = inline_policies(ctx, ns, &p["policies"]);
    if !inline.is_empty() {
        out.insert("inlinePolicies".into(), inline.into());
    }
    Value::Object(out)
}

/// A backend's own `policies` (or a provider's), one entry per feature.
pub(super) fn inline_policies(ctx: &Context<'_>, ns: &str, policies: &Value) -> Vec<Value> {
    let mut out = Vec::new();
    if let Some(auth) = policies.get("auth").and_then(|a| backend_auth(ctx, ns, a)) {
        out.push(json!({ "auth": auth }));
    }
    out
}

/// A backend auth setting; `None` when the Secret it names is missing.
pub(super) fn backend_auth(ctx: &Context<'_>, ns: &str, auth: &Value) -> Option<Value> {
    if let Some(key) = auth["key"].as_str() {
        return Some(json!({ "key": { "secret": shown(ctx, key.to_string()) } }));
    }
    if let Some(name) = str_at(auth, "/secretRef/name") {
        let bytes = secret_bytes(ctx, ns, name, "Authorization")?;
        let text = String::from_utf8_lossy(&bytes);
        let key = text
            .strip_prefix("Bearer ")
            .unwrap_or(&text)
            .trim()
            .to_string();
        return Some(json!({ "key": { "secret": shown(ctx, key) } }));
    }
    if auth.get("passthrough").is_some() {
        return Some(json!({ "passthrough": {} }));
    }
    None
}

/// An InferencePool's hostname: pools are addressed like Services, in their own domain.
pub(super) fn pool_host(namespace: &str, name: &str) -> String {
    format!("{name}.{namespace}.inference.cluster.local")
}

/// An InferencePool: inference routing through its endpoint picker, and the picker reached over
/// TLS without verification (it serves a self-signed certificate).
fn inference_policies(pool: &Object) -> Vec<Value> {
    let (ns, name) = (&pool.id.namespace, &pool.id.name);
    let picker = &pool.value["spec"]["endpointPickerRef"];
    let Some(picker_name) = picker["name"].as_str() else {
        return Vec::new();
    };
    let picker_host = service_host(ns, picker_name);
    let port = picker["port"]["number"].clone();
    let failure_mode = match picker["failureMode"].as_str() {
        Some("FailOpen") => "FAIL_OPEN",
        _ => "FAIL_CLOSED",
    };
    let owner = json!({"kind": "InferencePool", "name": name, "namespace": ns});
    vec![
        json!({
            "key": format!("{ns}/{name}:inference"),
            "name": owner,
            "target": {"service": {"hostname": pool_host(ns, name), "namespace": ns}},
            "backend": {"inferenceRouting": {
                "endpointPicker": {
                    "port": port,
                    "service": {"hostname": picker_host, "namespace": ns},
                },
                "failureMode": failure_mode,
            }},
        }),
        json!({
            "key": format!("{ns}/{name}:inferencetls"),
            "name": owner,
            "target": {"service": {"hostname": picker_host, "namespace": ns, "port": port}},
            "backend": {"backendTls": {"verification": "INSECURE_ALL"}},
        }),
    ]
}

/// The Services the data plane reaches (and the InferencePools, addressed like Services), with
/// their ports.
pub(super) fn services(ctx: &Context<'_>) -> Vec<Value> {
    let pools = ctx.inputs.of_kind(INFERENCE_GROUP, "InferencePool").map(|p| {
        let ports: Vec<Value> = p.value["spec"]["targetPorts"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|t| json!({"appProtocol": "HTTP11", "servicePort": t["number"], "targetPort": t["number"]}))
            .collect();
        json!({
            "hostname": pool_host(&p.id.namespace, &p.id.name),
            "name": p.id.name,
            "namespace": p.id.namespace,
            "ports": ports,
        })
    });
    let services: Vec<Value> = ctx
        .inputs
        .of_kind("", "Service")
        .map(|svc| {
            let ports: Vec<Value> = svc.value["spec"]["ports"]
                .as_array()
                .into_iter()
                .flatten()
                .map(|p| {
                    let mut port = Map::new();
                    port.insert("servicePort".into(), p["port"].clone());
                    if p["targetPort"].is_u64() {
                        port.insert("targetPort".into(), p["targetPort"].clone());
                    }
                    if let Some(a) = p["appProtocol"].as_str().and_then(app_protocol) {
                        port.insert("appProtocol".into(), a.into());
                    }
                    Value::Object(port)
                })
                .collect();
            json!({
                "hostname": service_host(&svc.id.namespace, &svc.id.name),
                "name": svc.id.name,
                "namespace": svc.id.namespace,
                "ports": ports,
            })
        })
        .collect();
    services.into_iter().chain(pools).collect()
}

/// The data plane's protocol for a Service port's appProtocol, when it has one.
fn app_protocol(written: &str) -> Option<&'static str> {
    match written.to_ascii_lowercase().as_str() {
        "http" | "http1" | "http/1.1" => Some("HTTP11"),
        "http2" | "grpc" | "kubernetes.io/h2c" | "h2c" => Some("HTTP2"),
        _ => None,
    }
}

/// The port a sectionName picks on a Service: its number written out, or the name of one of
/// its ports.
pub(super) fn service_port(
    ctx: &Context<'_>,
    ns: &str,
    service: &str,
    section: &str,
) -> Option<u64> {
    if let Ok(port) = section.parse::<u64>() {
        return Some(port);
    }
    ctx.inputs.get("", "Service", ns, service)?.value["spec"]["ports"]
        .as_array()?
        .iter()
        .find(|p| p["name"].as_str() == Some(section))?["port"]
        .as_u64()
}

/// A Service port with the A2A appProtocol: a backend policy enabling A2A on it.
fn a2a_policies(svc: &Object) -> Vec<Value> {
    let (ns, name) = (&svc.id.namespace, &svc.id.name);
    svc.value["spec"]["ports"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|p| p["appProtocol"].as_str() == Some(A2A))
        .map(|p| {
            let port = &p["port"];
            json!({
                "key": format!("a2a/{ns}/{name}/{port}"),
                "name": {"kind": "Service", "name": name, "namespace": ns},
                "target": {"service": {
                    "hostname": service_host(ns, name),
                    "namespace": ns,
                    "port": port,
                }},
                "backend": {"a2a": {}},
            })
        })
        .collect()
}

/// A BackendTLSPolicy: one backend policy per target.
fn backend_tls_policies(ctx: &Context<'_>, o: &Object) -> Vec<Value> {
    let ns = o.id.namespace.as_str();
    let validation = &o.value["spec"]["validation"];
    let mut tls = Map::new();
    if let Some(h) = validation.get("hostname") {
        tls.insert("hostname".into(), h.clone());
    }
    let roots: Vec<String> = validation["caCertificateRefs"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|r| r["kind"].as_str().unwrap_or("ConfigMap") == "ConfigMap")
        .filter_map(|r| config_map_text(ctx, ns, r["name"].as_str()?, "ca.crt"))
        .map(|pem| format!("{pem}\n"))
        .collect();
    if !roots.is_empty() {
        tls.insert(
            "root".into(),
            base64_encode(roots.join("\n").as_bytes()).into(),
        );
    }
    let prefix = format!("{ns}/{}:backend-tls", o.id.name);
    let mut out = Vec::new();
    for t in o.value["spec"]["targetRefs"]
        .as_array()
        .into_iter()
        .flatten()
    {
        let name = t["name"].as_str().unwrap_or("");
        let section = t["sectionName"].as_str();
        let (suffix, target) = match (t["group"].as_str().unwrap_or(""), t["kind"].as_str()) {
            ("", Some("Service")) => {
                let hostname = service_host(ns, name);
                let mut service = json!({"hostname": hostname, "namespace": ns});
                let mut suffix = hostname;
                if let Some(port) = section.and_then(|s| service_port(ctx, ns, name, s)) {
                    service["port"] = port.into();
                    suffix = format!("{suffix}/{port}");
                }
                (suffix, json!({ "service": service }))
            }
            (AI_GROUP, Some("AiGatewayBackend")) => {
                let mut backend = json!({"name": name, "namespace": ns});
                let mut suffix = name.to_string();
                if let Some(s) = section {
                    backend["section"] = s.into();
                    suffix = format!("{suffix}/{s}");
                }
                (suffix, json!({ "backend": backend }))
            }
            (INFERENCE_GROUP, Some("InferencePool")) => {
                let hostname = pool_host(ns, name);
                (
                    hostname.clone(),
                    json!({"service": {"hostname": hostname, "namespace": ns}}),
                )
            }
            _ => continue,
        };
        out.push(json!({
            "key": format!("{prefix}:{ns}/{suffix}"),
            "name": {"kind": "BackendTLSPolicy", "name": o.id.name, "namespace": ns},
            "target": target,
            "backend": {"backendTls": tls.clone()},
        }));
    }
    out
}
