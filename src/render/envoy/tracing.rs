//! HTTPListenerPolicy `tracing`: the HTTP connection manager's tracing, an OpenTelemetry
//! tracer sending to a Service port over gRPC, with custom tags and sampling.

use crate::render::pointer::Pointer;
use serde_json::{Map, Value, json};

use super::listener_policy::grpc_cluster;
use super::{duration, typed};

/// The `tracing` of the HttpConnectionManager; `service_name` (the Gateway's `<name>.<namespace>`,
/// as its access logs report) when the provider names no service.
pub(super) fn tracing(v: &Value, ns: &str, service_name: &str) -> Value {
    let mut out = Map::new();
    if let Some(otel) = v.at("/provider/openTelemetry") {
        out.insert("provider".into(), open_telemetry(otel, ns, service_name));
    }
    let tags: Vec<Value> = v
        .get("attributes")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(custom_tag)
        .collect();
    if !tags.is_empty() {
        out.insert("customTags".into(), Value::Array(tags));
    }
    for key in ["clientSampling", "randomSampling", "overallSampling"] {
        if let Some(percent) = v.get(key).and_then(Value::as_f64) {
            out.insert(key.into(), json!({"value": percent}));
        }
    }
    for key in ["spawnUpstreamSpan", "verbose", "maxPathTagLength"] {
        if let Some(value) = v.get(key) {
            out.insert(key.into(), value.clone());
        }
    }
    Value::Object(out)
}

fn open_telemetry(otel: &Value, ns: &str, service_name: &str) -> Value {
    let mut config = Map::new();
    if let Some(grpc) = otel.get("grpcService") {
        config.insert("grpcService".into(), grpc_service(grpc, ns));
    }
    let service = otel
        .get("serviceName")
        .and_then(Value::as_str)
        .unwrap_or(service_name);
    config.insert("serviceName".into(), json!(service));
    let detectors: Vec<Value> = otel
        .get("resourceDetectors")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter(|d| d.get("environmentResourceDetector").is_some())
        .map(|_| {
            json!({
                "name": "envoy.tracers.opentelemetry.resource_detectors.environment",
                "typedConfig": typed(
                    "envoy.extensions.tracers.opentelemetry.resource_detectors.v3.EnvironmentResourceDetectorConfig",
                    json!({}),
                ),
            })
        })
        .collect();
    if !detectors.is_empty() {
        config.insert("resourceDetectors".into(), Value::Array(detectors));
    }
    if otel.at("/sampler/alwaysOnConfig").is_some() {
        config.insert(
            "sampler".into(),
            json!({
                "name": "envoy.tracers.opentelemetry.samplers.always_on",
                "typedConfig": typed(
                    "envoy.extensions.tracers.opentelemetry.samplers.v3.AlwaysOnSamplerConfig",
                    json!({}),
                ),
            }),
        );
    }
    json!({
        "name": "envoy.tracers.opentelemetry",
        "typedConfig": typed("envoy.config.trace.v3.OpenTelemetryConfig", Value::Object(config)),
    })
}

/// The tracer's collector as an Envoy gRPC service.
fn grpc_service(grpc: &Value, ns: &str) -> Value {
    let mut envoy_grpc = Map::new();
    envoy_grpc.insert("clusterName".into(), json!(grpc_cluster(grpc, ns)));
    if let Some(authority) = grpc.get("authority") {
        envoy_grpc.insert("authority".into(), authority.clone());
    }
    if let Some(n) = grpc.get("maxReceiveMessageLength") {
        envoy_grpc.insert("maxReceiveMessageLength".into(), n.clone());
    }
    if let Some(skip) = grpc.get("skipProxyHeaders") {
        envoy_grpc.insert("skipEnvoyHeaders".into(), skip.clone());
    }
    if let Some(retry) = grpc.get("retryPolicy") {
        let mut policy = Map::new();
        if let Some(n) = retry.get("numRetries") {
            policy.insert("numRetries".into(), n.clone());
        }
        let mut backoff = Map::new();
        for key in ["baseInterval", "maxInterval"] {
            if let Some(d) = retry
                .at(&format!("/retryBackOff/{key}"))
                .and_then(Value::as_str)
                .and_then(duration)
            {
                backoff.insert(key.into(), json!(d));
            }
        }
        if !backoff.is_empty() {
            policy.insert("retryBackOff".into(), Value::Object(backoff));
        }
        envoy_grpc.insert("retryPolicy".into(), Value::Object(policy));
    }
    let mut out = Map::new();
    out.insert("envoyGrpc".into(), Value::Object(envoy_grpc));
    if let Some(t) = grpc
        .get("timeout")
        .and_then(Value::as_str)
        .and_then(duration)
    {
        out.insert("timeout".into(), json!(t));
    }
    let metadata: Vec<Value> = grpc
        .get("initialMetadata")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .map(|m| json!({"key": m.get("key").cloned().unwrap_or_default(), "value": m.get("value").cloned().unwrap_or(json!(""))}))
        .collect();
    if !metadata.is_empty() {
        out.insert("initialMetadata".into(), Value::Array(metadata));
    }
    Value::Object(out)
}

/// One `attributes` entry as a custom tag: a literal, an environment variable, a request
/// header or a metadata value.
fn custom_tag(a: &Value) -> Option<Value> {
    let tag = a.get("name")?.clone();
    let with_default = |source: &Value| {
        let mut out = Map::new();
        for key in ["name", "defaultValue"] {
            if let Some(v) = source.get(key) {
                out.insert(key.into(), v.clone());
            }
        }
        Value::Object(out)
    };
    let mut out = Map::new();
    out.insert("tag".into(), tag);
    if let Some(literal) = a.get("literal") {
        out.insert("literal".into(), json!({"value": literal.get("value")?}));
    } else if let Some(env) = a.get("environment") {
        out.insert("environment".into(), with_default(env));
    } else if let Some(header) = a.get("requestHeader") {
        out.insert("requestHeader".into(), with_default(header));
    } else if let Some(m) = a.get("metadata") {
        let kind = match m.get("kind").and_then(Value::as_str)? {
            "Request" => "request",
            "Route" => "route",
            "Cluster" => "cluster",
            "Host" => "host",
            _ => return None,
        };
        let mut metadata = Map::new();
        metadata.insert("kind".into(), json!({kind: {}}));
        metadata.insert("metadataKey".into(), m.get("metadataKey")?.clone());
        if let Some(d) = m.get("defaultValue") {
            metadata.insert("defaultValue".into(), d.clone());
        }
        out.insert("metadata".into(), Value::Object(metadata));
    } else {
        return None;
    }
    Some(Value::Object(out))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn open_telemetry_tracer_with_tags_and_sampling() {
        let policy = json!({
            "provider": {"openTelemetry": {
                "grpcService": {"backendRef": {"name": "otel", "port": 4317}, "timeout": "2s"},
                "sampler": {"alwaysOnConfig": {}},
            }},
            "attributes": [
                {"name": "env", "environment": {"name": "POD", "defaultValue": "none"}},
                {"name": "route", "metadata": {"kind": "Route", "metadataKey": {"key": "k", "path": [{"key": "a"}]}}},
            ],
            "randomSampling": 25,
            "verbose": true,
        });
        assert_eq!(
            tracing(&policy, "apps", "web.apps"),
            json!({
                "provider": {"name": "envoy.tracers.opentelemetry", "typedConfig": {
                    "@type": "type.googleapis.com/envoy.config.trace.v3.OpenTelemetryConfig",
                    "grpcService": {"envoyGrpc": {"clusterName": "kube_apps_otel_4317"}, "timeout": "2s"},
                    "serviceName": "web.apps",
                    "sampler": {"name": "envoy.tracers.opentelemetry.samplers.always_on", "typedConfig": {
                        "@type": "type.googleapis.com/envoy.extensions.tracers.opentelemetry.samplers.v3.AlwaysOnSamplerConfig"}},
                }},
                "customTags": [
                    {"tag": "env", "environment": {"name": "POD", "defaultValue": "none"}},
                    {"tag": "route", "metadata": {"kind": {"route": {}}, "metadataKey": {"key": "k", "path": [{"key": "a"}]}}},
                ],
                "randomSampling": {"value": 25.0},
                "verbose": true,
            })
        );
    }
}
