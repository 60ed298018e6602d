//! HTTPListenerPolicy and ListenerPolicy: settings of the HTTP connection manager and of the
//! Listener, from the effective policy of the Gateway (the merge stage), with the reference's
//! merge metadata (`merge.<Kind>.gateway.kgateway.dev`) on every Listener and RouteConfiguration.

use crate::render::pointer::Pointer;
use std::collections::BTreeMap;

use serde_json::{Map, Value, json};

use super::super::Context;
use super::{duration, typed};
use crate::merge::rank::policy_order;
use crate::merge::{Family, Place};
use crate::model::Object;
use crate::model::facts::Spec;

/// What the listener policies set, for one port.
#[derive(Default)]
pub struct Settings {
    /// Fields of the HttpConnectionManager.
    pub hcm: Map<String, Value>,
    /// HTTP filters that run before the policy filters (the health check).
    pub first_filters: Vec<Value>,
    /// Fields of the Listener.
    pub listener: Map<String, Value>,
    pub listener_filters: Vec<Value>,
}

/// The listener policies of a Gateway.
pub struct ListenerPolicies<'c> {
    ctx: &'c Context<'c>,
    /// The Gateway's index in the facts.
    gateway: Option<usize>,
    /// `<name>.<namespace>` of the Gateway: the service name its telemetry reports.
    service_name: String,
    /// Metadata namespace -> key -> policy references (the same on every resource).
    pub metadata: BTreeMap<String, BTreeMap<String, Vec<String>>>,
}

impl<'c> ListenerPolicies<'c> {
    pub fn new(ctx: &'c Context<'c>, gateway: &Object) -> Self {
        let mut out = ListenerPolicies {
            ctx,
            gateway: None,
            service_name: format!("{}.{}", gateway.id.name, gateway.id.namespace),
            metadata: BTreeMap::new(),
        };
        let (Some(model), Some(merged)) = (&ctx.run.model, &ctx.merged) else {
            return out;
        };
        let Some(g) = ctx.fact_of(gateway) else {
            return out;
        };
        out.gateway = Some(g);
        let reference = |i: usize| {
            let id = &model.facts[i].id;
            format!("{}/{}/{}/{}", id.group, id.kind, id.namespace, id.name)
        };
        let mut places = vec![Place::Gateway(g)];
        let listeners = match &model.facts[g].spec {
            crate::model::facts::Spec::Gateway { listeners, .. } => listeners.len(),
            _ => 0,
        };
        places.extend((0..listeners).map(|li| Place::Listener(g, li)));
        let mut per_port_first: BTreeMap<String, usize> = BTreeMap::new();
        for place in places {
            for e in merged.of(place) {
                for f in &e.fields {
                    let owner = f.winner.source.object();
                    let (namespace, keys) = match e.family {
                        Family::HTTPListenerPolicy if f.name == "accessLog" => (
                            "HTTPListenerPolicy",
                            vec!["accessLog".to_string(), "accessLogConfig".to_string()],
                        ),
                        Family::HTTPListenerPolicy => ("HTTPListenerPolicy", vec![renamed(f.name)]),
                        Family::ListenerPolicy => {
                            ("ListenerPolicy", listener_policy_keys(ctx, owner))
                        }
                        _ => continue,
                    };
                    let entry = out
                        .metadata
                        .entry(format!("merge.{namespace}.gateway.kgateway.dev"))
                        .or_default();
                    for k in keys {
                        if k.starts_with("perPortPolicy[") {
                            // A port's entries merge into one: the reference names only the
                            // first policy (by rank) with an entry for the port.
                            let first = per_port_first.entry(k).or_insert(owner);
                            if policy_order(&model.facts, owner, *first).is_lt() {
                                *first = owner;
                            }
                            continue;
                        }
                        let refs = entry.entry(k).or_default();
                        let r = reference(owner);
                        if !refs.contains(&r) {
                            refs.push(r);
                        }
                    }
                }
            }
        }
        if !per_port_first.is_empty() {
            let entry = out
                .metadata
                .entry("merge.ListenerPolicy.gateway.kgateway.dev".to_string())
                .or_default();
            for (k, owner) in per_port_first {
                entry.insert(k, vec![reference(owner)]);
            }
        }
        out
    }

    /// The settings on one port, reached through one of the Gateway's own listeners on it.
    pub fn settings(&self, listener: Option<usize>) -> Settings {
        let mut out = Settings::default();
        let (Some(g), Some(merged)) = (self.gateway, &self.ctx.merged) else {
            return out;
        };
        for e in merged.of(Place::Gateway(g)) {
            if e.family == Family::HTTPListenerPolicy {
                for f in &e.fields {
                    let ns = self.ctx.run.model.as_ref().map_or("", |m| {
                        m.facts[f.winner.source.object()].id.namespace.as_str()
                    });
                    if f.name == "accessLog" {
                        let logs = access_logs(&f.value(), ns, &self.service_name);
                        out.hcm.insert("accessLog".into(), Value::Array(logs));
                        continue;
                    }
                    if f.name == "tracing" {
                        let config = super::tracing::tracing(&f.value(), ns, &self.service_name);
                        out.hcm.insert("tracing".into(), config);
                        continue;
                    }
                    http_setting(&mut out, f.name, &f.value());
                }
            }
        }
        let Some(li) = listener else { return out };
        for e in merged.of(Place::Listener(g, li)) {
            if e.family != Family::ListenerPolicy {
                continue;
            }
            // Each setting names the policy that supplies it (a port's entries merge).
            for f in &e.fields {
                let owner = self.ctx.run.model.as_ref().map(|m| {
                    let id = &m.facts[f.winner.source.object()].id;
                    format!("{}_{}", id.namespace, id.name)
                });
                listener_setting(&mut out, f.name, &f.value(), &owner.unwrap_or_default());
            }
        }
        out
    }

    /// Adds the metadata to a resource's object.
    pub fn write_metadata(&self, into: &mut Map<String, Value>) {
        if self.metadata.is_empty() {
            return;
        }
        let metadata = into
            .entry("metadata")
            .or_insert_with(|| json!({"filterMetadata": {}}));
        if let Some(Value::Object(fm)) = metadata.get_mut("filterMetadata") {
            for (ns, keys) in &self.metadata {
                fm.insert(ns.clone(), json!(keys));
            }
        }
    }
}

fn renamed(k: &str) -> String {
    match k {
        "healthCheck" => "healthCheckPolicy".to_string(),
        "streamIdleTimeout" => "mergeStreamIdleTimeout".to_string(),
        "idleTimeout" => "mergeIdleTimeout".to_string(),
        "earlyRequestHeaderModifier" => "earlyHeaderMutationExtensions".to_string(),
        other => other.to_string(),
    }
}

/// The metadata keys the reference writes for a ListenerPolicy: its `default` fields and one
/// per `perPort` entry.
fn listener_policy_keys(ctx: &Context<'_>, owner: usize) -> Vec<String> {
    let Some(model) = &ctx.run.model else {
        return Vec::new();
    };
    let Some(facts) = model.facts.get(owner) else {
        return Vec::new();
    };
    let id = &facts.id;
    if ctx
        .inputs
        .get(&id.group, &id.kind, &id.namespace, &id.name)
        .is_none()
    {
        return Vec::new();
    }
    let spec = |name: &str| match &facts.spec {
        Spec::Policy(p) => p.field(name),
        _ => None,
    };
    let mut keys = Vec::new();
    for (k, sub) in spec("default")
        .and_then(Value::as_object)
        .into_iter()
        .flatten()
    {
        if k == "httpSettings" {
            for hk in sub.as_object().into_iter().flatten().map(|(k, _)| k) {
                keys.push(format!("default.httpSettings.{}", renamed(hk)));
            }
        } else {
            keys.push(format!("default.{k}"));
        }
    }
    for p in spec("perPort")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        if let Some(port) = p.get("port").and_then(Value::as_i64) {
            keys.push(format!("perPortPolicy[{port}]"));
        }
    }
    keys
}

/// One listener setting of a ListenerPolicy (of `default`, or a port's), supplied by `owner`.
fn listener_setting(out: &mut Settings, name: &str, value: &Value, owner: &str) {
    match name {
        "httpSettings" => {
            for (hk, hv) in value.as_object().into_iter().flatten() {
                http_setting(out, hk, hv);
            }
        }
        "proxyProtocol" => {
            out.listener_filters.push(json!({
                "name": "envoy.filters.listener.proxy_protocol",
                "typedConfig": typed(
                    "envoy.extensions.filters.listener.proxy_protocol.v3.ProxyProtocol",
                    json!({"statPrefix": owner}),
                ),
            }));
        }
        "perConnectionBufferLimitBytes" => {
            out.listener.insert(name.to_string(), value.clone());
        }
        _ => {}
    }
}

/// HTTPListenerPolicy `accessLog`: gRPC and OpenTelemetry access log services (their
/// backendRef a Service port in `ns` unless it names a namespace) and file sinks.
fn access_logs(list: &Value, ns: &str, service_name: &str) -> Vec<Value> {
    let cluster = |grpc: &Value| grpc_cluster(grpc, ns);
    let common = |grpc: &Value| {
        let mut c = json!({
            "grpcService": {"envoyGrpc": {"clusterName": cluster(grpc)}},
            "transportApiVersion": "V3",
        });
        if let Some(name) = grpc.get("logName") {
            c["logName"] = name.clone();
        }
        c
    };
    let mut out = Vec::new();
    for entry in list.as_array().into_iter().flatten() {
        let mut log = if let Some(grpc) = entry.get("grpcService") {
            json!({
                "name": "envoy.access_loggers.http_grpc",
                "typedConfig": typed(
                    "envoy.extensions.access_loggers.grpc.v3.HttpGrpcAccessLogConfig",
                    json!({"commonConfig": common(grpc)}),
                ),
            })
        } else if let Some(otel) = entry.get("openTelemetry") {
            let mut config = json!({
                "commonConfig": common(otel.get("grpcService").unwrap_or(&Value::Null)),
                "resourceAttributes": {"values": [
                    {"key": "service.name", "value": {"stringValue": service_name}},
                ]},
            });
            if let Some(body) = otel.get("body").and_then(Value::as_str) {
                config["body"] = json!({"stringValue": body});
            }
            if let Some(attributes) = otel.get("attributes") {
                config["attributes"] = attributes.clone();
            }
            json!({
                "name": "envoy.access_loggers.open_telemetry",
                "typedConfig": typed(
                    "envoy.extensions.access_loggers.open_telemetry.v3.OpenTelemetryAccessLogConfig",
                    config,
                ),
            })
        } else if let Some(file) = entry.get("fileSink") {
            let mut config = json!({"path": file.get("path").cloned().unwrap_or_default()});
            if let Some(format) = file.get("stringFormat").and_then(Value::as_str) {
                config["logFormat"] = json!({"textFormatSource": {"inlineString": format}});
            } else if let Some(format) = file.get("jsonFormat") {
                config["logFormat"] = json!({"jsonFormat": format});
            }
            json!({
                "name": "envoy.access_loggers.file",
                "typedConfig": typed(
                    "envoy.extensions.access_loggers.file.v3.FileAccessLog",
                    config,
                ),
            })
        } else {
            continue;
        };
        if let Some(header) = entry.at("/filter/headerFilter/header") {
            let value = header.get("value").cloned().unwrap_or_default();
            let matcher = match header.get("type").and_then(Value::as_str) {
                Some("RegularExpression") => {
                    json!({"safeRegex": {"googleRe2": {}, "regex": value}})
                }
                _ => json!({"exact": value}),
            };
            log["filter"] = json!({"headerFilter": {"header": {
                "name": header.get("name").cloned().unwrap_or_default(),
                "stringMatch": matcher,
            }}});
        }
        out.push(log);
    }
    out
}

/// The cluster of a gRPC service's backendRef: a Service port or a Backend, in `ns` unless it
/// names one (empty for a kind that is no cluster: `render --check` reports the dangling name).
pub(super) fn grpc_cluster(grpc: &Value, ns: &str) -> String {
    let b = grpc.get("backendRef").unwrap_or(&Value::Null);
    backend_ref_cluster(b, ns).unwrap_or_default()
}

/// The cluster a filter's or provider's `backendRef` names (`Err` for a kind that is none).
pub(super) fn backend_ref_cluster(b: &Value, ns: &str) -> Result<String, String> {
    let text = |key: &str, default| b.get(key).and_then(Value::as_str).unwrap_or(default);
    let kind = text("kind", "Service");
    super::clusters::cluster_name(
        text("group", ""),
        kind,
        text("namespace", ns),
        text("name", ""),
        b.get("port").and_then(Value::as_i64).unwrap_or(0),
    )
    .ok_or_else(|| format!("a backendRef of kind {kind} is no cluster"))
}

/// One HTTP connection manager setting.
fn http_setting(out: &mut Settings, name: &str, v: &Value) {
    match name {
        "acceptHttp10" | "defaultHostForHttp10" | "preserveHttp1HeaderCase" => {
            http1_setting(&mut out.hcm, name, v)
        }
        "upgradeConfig" | "earlyRequestHeaderModifier" => hcm_extension(&mut out.hcm, name, v),
        "healthCheck" => out.first_filters.push(health_check(v)),
        _ => hcm_field(&mut out.hcm, name, v),
    }
}

/// A setting that is one field of the HTTP connection manager, as written or converted.
fn hcm_field(hcm: &mut Map<String, Value>, name: &str, v: &Value) {
    match name {
        "useRemoteAddress"
        | "xffNumTrustedHops"
        | "preserveExternalRequestId"
        | "generateRequestId" => {
            hcm.insert(name.into(), v.clone());
        }
        "serverHeaderTransformation" => {
            if let Some(s) = v.as_str() {
                hcm.insert(name.into(), json!(screaming_snake(s)));
            }
        }
        "streamIdleTimeout" => {
            if let Some(d) = v.as_str().and_then(duration) {
                hcm.insert(name.into(), json!(d));
            }
        }
        "idleTimeout" => {
            if let Some(d) = v.as_str().and_then(duration) {
                hcm.insert(
                    "commonHttpProtocolOptions".into(),
                    json!({"idleTimeout": d}),
                );
            }
        }
        _ => {}
    }
}

/// A setting of the HTTP/1 protocol options.
fn http1_setting(hcm: &mut Map<String, Value>, name: &str, v: &Value) {
    match name {
        "acceptHttp10" | "defaultHostForHttp10" => protocol_option(hcm, name, v.clone()),
        "preserveHttp1HeaderCase" if v.as_bool() == Some(true) => {
            protocol_option(
                hcm,
                "headerKeyFormat",
                json!({"statefulFormatter": {
                    "name": "envoy.http.stateful_header_formatters.preserve_case",
                    "typedConfig": typed(
                        "envoy.extensions.http.header_formatters.preserve_case.v3.PreserveCaseFormatterConfig",
                        json!({}),
                    ),
                }}),
            );
        }
        _ => {}
    }
}

/// A setting that adds to the HTTP connection manager's lists: upgrades, early header
/// mutations.
fn hcm_extension(hcm: &mut Map<String, Value>, name: &str, v: &Value) {
    if name == "upgradeConfig" {
        let list: Vec<Value> = v
            .get("enabledUpgrades")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .map(|u| json!({"upgradeType": u}))
            .collect();
        hcm.insert("upgradeConfigs".into(), Value::Array(list));
    } else {
        hcm.insert(
            "earlyHeaderMutationExtensions".into(),
            json!([{
                "name": "envoy.http.early_header_mutation.header_mutation",
                "typedConfig": typed(
                    "envoy.extensions.http.early_header_mutation.header_mutation.v3.HeaderMutation",
                    json!({"mutations": super::policy::mutations(v)}),
                ),
            }]),
        );
    }
}

/// The health check filter, answering on `path` (`/` unless set) without the upstream.
fn health_check(v: &Value) -> Value {
    let path = v.get("path").and_then(Value::as_str).unwrap_or("/");
    json!({
        "name": "envoy.filters.http.health_check",
        "typedConfig": typed(
            "envoy.extensions.filters.http.health_check.v3.HealthCheck",
            json!({
                "headers": [{"name": ":path", "stringMatch": {"exact": path}}],
                "passThroughMode": false,
            }),
        ),
    })
}

/// Sets one field of the HTTP/1 protocol options.
fn protocol_option(hcm: &mut Map<String, Value>, key: &str, value: Value) {
    let mut options = match hcm.remove("httpProtocolOptions") {
        Some(Value::Object(m)) => m,
        _ => Map::new(),
    };
    options.insert(key.into(), value);
    hcm.insert("httpProtocolOptions".into(), Value::Object(options));
}

/// `AppendIfAbsent` -> `APPEND_IF_ABSENT`.
fn screaming_snake(s: &str) -> String {
    let mut out = String::new();
    for (i, c) in s.chars().enumerate() {
        if c.is_ascii_uppercase() && i > 0 {
            out.push('_');
        }
        out.push(c.to_ascii_uppercase());
    }
    out
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::super::testing::resource;

    /// Two ListenerPolicies on one Gateway, each with settings for port 9000: `edge` (first by
    /// name) limits the buffer there, `tuning` turns on the PROXY protocol there.
    const DOCS: &str = "apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: gw, namespace: default}
spec:
  gatewayClassName: kgateway
  listeners: [{name: a, protocol: HTTP, port: 80}, {name: b, protocol: HTTP, port: 9000}]
---
apiVersion: gateway.kgateway.dev/v1alpha1
kind: ListenerPolicy
metadata: {name: edge, namespace: default}
spec:
  targetRefs: [{group: gateway.networking.k8s.io, kind: Gateway, name: gw}]
  default: {proxyProtocol: {}}
  perPort: [{port: 9000, listener: {perConnectionBufferLimitBytes: 4096}}]
---
apiVersion: gateway.kgateway.dev/v1alpha1
kind: ListenerPolicy
metadata: {name: tuning, namespace: default}
spec:
  targetRefs: [{group: gateway.networking.k8s.io, kind: Gateway, name: gw}]
  default: {perConnectionBufferLimitBytes: 2048}
  perPort: [{port: 9000, listener: {proxyProtocol: {}}}]
";

    fn stat_prefix(listener: &serde_json::Value) -> &serde_json::Value {
        &listener["listenerFilters"][0]["typedConfig"]["statPrefix"]
    }

    #[test]
    fn a_ports_entries_of_two_policies_merge_and_each_setting_names_its_policy() {
        let on_port = resource(DOCS, "listener~9000", "filterChains");
        assert_eq!(on_port["perConnectionBufferLimitBytes"], 4096);
        assert_eq!(stat_prefix(&on_port), "default_tuning");
        let by_default = resource(DOCS, "listener~80", "filterChains");
        assert_eq!(by_default["perConnectionBufferLimitBytes"], 2048);
        assert_eq!(stat_prefix(&by_default), "default_edge");
    }

    #[test]
    fn a_ports_merged_entry_is_credited_to_the_first_policy_with_one() {
        let listener = resource(DOCS, "listener~9000", "filterChains");
        let merged =
            &listener["metadata"]["filterMetadata"]["merge.ListenerPolicy.gateway.kgateway.dev"];
        let edge = "gateway.kgateway.dev/ListenerPolicy/default/edge";
        let tuning = "gateway.kgateway.dev/ListenerPolicy/default/tuning";
        assert_eq!(
            *merged,
            json!({
                "default.perConnectionBufferLimitBytes": [tuning],
                "default.proxyProtocol": [edge],
                "perPortPolicy[9000]": [edge],
            })
        );
    }

    #[test]
    fn policies_merged_on_a_port_are_both_merged() {
        let run = crate::lint::lint_sources(
            vec![crate::source::SourceFile::new(
                0,
                "test.yaml",
                DOCS.to_string(),
            )],
            &crate::render::render_options(crate::lint::LintOptions::default()),
        );
        let rendered = crate::render::render(&run, &Default::default());
        let policies = &rendered.gateways[0].statuses["policies"];
        for name in ["edge", "tuning"] {
            let attached = &policies[format!("ListenerPolicy/default/{name}")]["ancestors"][0]["conditions"]
                [1];
            assert_eq!(attached["reason"], "Merged", "{name}");
        }
    }
}
