//! The backends (AiGatewayBackends: see [`ai_backend`]), the Services the data plane reaches,
//! and the backend-side policies that come with them (A2A ports, InferencePools,
//! BackendTLSPolicy).

use crate::render::base64;
use serde_json::{Map, Value, json};

use super::ai_backend;
use super::secrets::config_map_text;
use super::{AI_GROUP, Context, service_host};
use crate::model::Object;
use crate::model::facts::GATEWAY_API;
use crate::model::facts_settings::{ServicePort, ServiceSettings, Settings};

/// The appProtocol of a Service port that speaks A2A.
const A2A: &str = "kgateway.dev/a2a";
pub(super) const INFERENCE_GROUP: &str = "inference.networking.k8s.io";

/// Every backend and backend-side policy, as (kind, value) handed to `emit` in output order;
/// returns the AiGatewayBackends' statuses.
pub(super) fn backends(ctx: &Context<'_>, emit: &mut dyn FnMut(&'static str, Value)) -> Vec<Value> {
    let backends: Vec<&Object> = ctx.inputs.of_kind(AI_GROUP, "AiGatewayBackend").collect();
    let statuses = super::translate_each(
        &backends,
        |backend| ai_backend::translate(ctx, backend),
        &mut |v| emit("backend", v),
    );
    for service in ctx.inputs.of_kind("", "Service") {
        for v in a2a_policies(ctx, service) {
            emit("policy", v);
        }
    }
    for pool in ctx.inputs.of_kind(INFERENCE_GROUP, "InferencePool") {
        for v in inference_policies(pool) {
            emit("policy", v);
        }
    }
    for policy in ctx.inputs.of_kind(GATEWAY_API, "BackendTLSPolicy") {
        for v in backend_tls_policies(ctx, policy) {
            emit("policy", v);
        }
    }
    statuses
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
            let ports: Vec<Value> = service(ctx, svc)
                .ports
                .iter()
                .map(|p| {
                    let mut port = Map::new();
                    port.insert("servicePort".into(), written_port(p));
                    if let Some(t) = p.target_port {
                        port.insert("targetPort".into(), t.into());
                    }
                    if let Some(a) = p.app_protocol.as_deref().and_then(app_protocol) {
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
    let svc = ctx.inputs.get("", "Service", ns, service)?;
    let port = self::service(ctx, svc)
        .ports
        .iter()
        .find(|p| p.name.as_deref() == Some(section))?;
    u64::try_from(port.port?).ok()
}

static NO_SERVICE: ServiceSettings = ServiceSettings {
    ports: Vec::new(),
    mcp_path: None,
};

/// A Service's ports and MCP path, from the render-only facts (render keeps no JSON of it).
pub(super) fn service<'a>(ctx: &Context<'a>, svc: &Object) -> &'a ServiceSettings {
    match ctx.inputs.facts_at(svc).and_then(|f| f.settings.as_deref()) {
        Some(Settings::Service(s)) => s,
        _ => &NO_SERVICE,
    }
}

/// A port's `port` as the output copies it (the facts keep it when an integer).
fn written_port(p: &ServicePort) -> Value {
    p.port.map_or(Value::Null, Value::from)
}

/// A Service port with the A2A appProtocol: a backend policy enabling A2A on it.
fn a2a_policies(ctx: &Context<'_>, svc: &Object) -> Vec<Value> {
    let (ns, name) = (&svc.id.namespace, &svc.id.name);
    service(ctx, svc)
        .ports
        .iter()
        .filter(|p| p.app_protocol.as_deref() == Some(A2A))
        .map(|p| {
            let port = &written_port(p);
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
            base64::encode(roots.join("\n").as_bytes()).into(),
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
