//! HTTPListenerPolicy and ListenerPolicy: settings of the HTTP connection manager and of the
//! Listener, from the effective policy of the Gateway (the merge stage), with the reference's
//! merge metadata (`merge.<Kind>.gateway.kgateway.dev`) on every Listener and RouteConfiguration.

use std::collections::BTreeMap;

use serde_json::{Map, Value, json};

use super::super::Context;
use super::{duration, typed};
use crate::merge::{Family, FieldOutcome, Place};
use crate::model::Object;

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
pub struct ListenerPolicies<'a> {
    /// (family, field, `<ns>_<name>` of the policy that won) of every effective field at the
    /// Gateway.
    fields: Vec<(Family, FieldOutcome<'a>, String)>,
    /// Metadata namespace -> key -> policy references (the same on every resource).
    pub metadata: BTreeMap<String, BTreeMap<String, Vec<String>>>,
}

impl<'a> ListenerPolicies<'a> {
    pub fn new(ctx: &Context<'a>, gateway: &Object) -> Self {
        let mut out = ListenerPolicies {
            fields: Vec::new(),
            metadata: BTreeMap::new(),
        };
        let (Some(model), Some(merged)) = (&ctx.run.model, &ctx.merged) else {
            return out;
        };
        let Some(g) = model.facts.iter().position(|f| {
            f.id.kind == "Gateway"
                && f.id.namespace == gateway.id.namespace
                && f.id.name == gateway.id.name
        }) else {
            return out;
        };
        for e in merged.of(Place::Gateway(g)) {
            let (kind, prefix) = match e.family {
                Family::HTTPListenerPolicy => ("HTTPListenerPolicy", ""),
                Family::ListenerPolicy => ("ListenerPolicy", "default."),
                _ => continue,
            };
            let namespace = format!("merge.{kind}.gateway.kgateway.dev");
            for f in &e.fields {
                let id = &model.facts[f.winner.source.object()].id;
                let reference = format!("{}/{}/{}/{}", id.group, id.kind, id.namespace, id.name);
                let keys = metadata_keys(e.family, f, prefix);
                let entry = out.metadata.entry(namespace.clone()).or_default();
                for k in keys {
                    entry.entry(k).or_default().push(reference.clone());
                }
                out.fields
                    .push((e.family, f.clone(), format!("{}_{}", id.namespace, id.name)));
            }
        }
        out
    }

    /// The settings on one port: a ListenerPolicy's `perPort` entry replaces its `default`.
    pub fn settings(&self, port: i64) -> Settings {
        let mut out = Settings::default();
        for (family, f, owner) in &self.fields {
            let value = f.value();
            match family {
                Family::HTTPListenerPolicy => http_setting(&mut out, f.name, &value),
                Family::ListenerPolicy => {
                    let per_port = self
                        .fields
                        .iter()
                        .filter(|(fam, pf, _)| {
                            *fam == Family::ListenerPolicy && pf.name == "perPort"
                        })
                        .flat_map(|(_, pf, _)| pf.value().as_array().cloned().unwrap_or_default())
                        .find(|p| p.get("port").and_then(Value::as_i64) == Some(port));
                    let listener = match (&per_port, f.name) {
                        (Some(p), "default") => p.get("listener").cloned().unwrap_or_default(),
                        (None, "default") => value,
                        _ => continue,
                    };
                    listener_setting(&mut out, &listener, owner);
                }
                _ => {}
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

/// The metadata keys the reference writes for a field.
fn metadata_keys(family: Family, f: &FieldOutcome<'_>, prefix: &str) -> Vec<String> {
    let renamed = |k: &str| match k {
        "healthCheck" => "healthCheckPolicy".to_string(),
        "streamIdleTimeout" => "mergeStreamIdleTimeout".to_string(),
        "idleTimeout" => "mergeIdleTimeout".to_string(),
        other => other.to_string(),
    };
    match (family, f.name) {
        (Family::ListenerPolicy, "default") => {
            let v = f.winner.value;
            let mut keys = Vec::new();
            for (k, sub) in v.as_object().into_iter().flatten() {
                if k == "httpSettings" {
                    for hk in sub.as_object().into_iter().flatten().map(|(k, _)| k) {
                        keys.push(format!("{prefix}httpSettings.{}", renamed(hk)));
                    }
                } else {
                    keys.push(format!("{prefix}{k}"));
                }
            }
            keys
        }
        (Family::ListenerPolicy, "perPort") => f
            .winner
            .value
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|p| p.get("port").and_then(Value::as_i64))
            .map(|p| format!("perPortPolicy[{p}]"))
            .collect(),
        (_, name) => vec![renamed(name)],
    }
}

/// A ListenerPolicy's listener settings (`default`, or a port's).
fn listener_setting(out: &mut Settings, listener: &Value, owner: &str) {
    for (k, v) in listener.as_object().into_iter().flatten() {
        match k.as_str() {
            "httpSettings" => {
                for (hk, hv) in v.as_object().into_iter().flatten() {
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
                out.listener.insert(k.clone(), v.clone());
            }
            _ => {}
        }
    }
}

/// One HTTP connection manager setting.
fn http_setting(out: &mut Settings, name: &str, v: &Value) {
    let hcm = &mut out.hcm;
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
        "acceptHttp10" | "defaultHostForHttp10" => {
            protocol_option(hcm, name, v.clone());
        }
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
        "upgradeConfig" => {
            let list: Vec<Value> = v
                .get("enabledUpgrades")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
                .map(|u| json!({"upgradeType": u}))
                .collect();
            hcm.insert("upgradeConfigs".into(), Value::Array(list));
        }
        "healthCheck" => {
            let path = v.get("path").and_then(Value::as_str).unwrap_or("/");
            out.first_filters.push(json!({
                "name": "envoy.filters.http.health_check",
                "typedConfig": typed(
                    "envoy.extensions.filters.http.health_check.v3.HealthCheck",
                    json!({
                        "headers": [{"name": ":path", "stringMatch": {"exact": path}}],
                        "passThroughMode": false,
                    }),
                ),
            }));
        }
        _ => {}
    }
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
