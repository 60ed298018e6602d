//! TrafficPolicy features served by a GatewayExtension: ExtAuth and ExtProc.

use crate::render::pointer::Pointer;
use serde_json::{Map, Value, json};

use super::super::{duration, settings, typed};
use super::features::{disable_switch, enabled};
use super::{Applied, Policies, declare};
use crate::merge::FieldOutcome;

/// The providers of an extAuth or extProc value (a list of them with DeepMerge) that name a
/// GatewayExtension, each with its `extensionRef`.
fn providers(value: &Value) -> impl Iterator<Item = (&Value, &Value)> {
    let list = match value {
        Value::Array(items) => items.as_slice(),
        one => std::slice::from_ref(one),
    };
    list.iter()
        .filter_map(|p| p.get("extensionRef").map(|ext| (p, ext)))
}

/// The GatewayExtension a provider field's `extensionRef` names.
pub(super) struct Extension<'c> {
    pub ns: String,
    pub name: String,
    /// Its `spec.<field>` (null when unset).
    pub spec: &'c Value,
}

impl<'c> Policies<'c> {
    /// Declares the `global_disable/<feature>` switch a provider feature sits behind; `true` when
    /// the field is a `disable`, which turns the switch on for the route and sets nothing else.
    pub(super) fn switch(&self, out: &mut Applied, f: &FieldOutcome<'_>, feature: &str) -> bool {
        let switch = format!("global_disable/{feature}");
        declare(
            out,
            &switch,
            true,
            disable_switch(&format!("dev.kgateway.disable_{feature}")),
        );
        if f.disabled() {
            out.per_filter.insert(switch, enabled());
        }
        f.disabled()
    }

    /// The GatewayExtension `ext_ref` names (in the policy's namespace unless it says), with its
    /// `spec.<field>`.
    pub(super) fn extension(
        &self,
        f: &FieldOutcome<'_>,
        ext_ref: &Value,
        field: &str,
    ) -> Result<Extension<'c>, String> {
        let name = ext_ref.get("name").and_then(Value::as_str).unwrap_or("");
        let ns = ext_ref
            .get("namespace")
            .and_then(Value::as_str)
            .unwrap_or(self.namespace(f));
        let Some(extension) = settings::extension(self.ctx, ns, name) else {
            return Err(format!("GatewayExtension {ns}/{name} not found"));
        };
        Ok(Extension {
            ns: ns.to_string(),
            name: name.to_string(),
            spec: extension.spec.get(field).unwrap_or(&Value::Null),
        })
    }

    /// ExtAuth: one filter per GatewayExtension, `ext_auth/<ns>/<name>`, behind the
    /// `global_disable/ext_auth` switch that `disable` turns on.
    pub(super) fn ext_auth(
        &self,
        out: &mut Applied,
        f: &FieldOutcome<'_>,
        value: &Value,
    ) -> Result<(), String> {
        if self.switch(out, f, "ext_auth") {
            return Ok(());
        }
        for (p, ext) in providers(value) {
            let Extension { ns, name, spec } = self.extension(f, ext, "extAuth")?;
            let ns = ns.as_str();
            let filter = format!("ext_auth/{ns}/{name}");
            declare(
                out,
                &filter,
                true,
                typed(EXT_AUTHZ, self.ext_authz(spec, ns)?),
            );
            // Per-route check settings; without any, the filter is only switched on.
            let mut check = Map::new();
            for key in ["contextExtensions", "withRequestBody"] {
                if let Some(v) = p.get(key) {
                    check.insert(key.into(), v.clone());
                }
            }
            let config = if check.is_empty() {
                enabled()
            } else {
                typed(
                    "envoy.extensions.filters.http.ext_authz.v3.ExtAuthzPerRoute",
                    json!({"checkSettings": check}),
                )
            };
            out.per_filter.insert(filter, config);
        }
        Ok(())
    }

    /// ExtProc: one filter per GatewayExtension, `ext_proc/<ns>/<name>`, a composite filter that
    /// runs the external processor unless the `global_disable/ext_proc` switch is on.
    pub(super) fn ext_proc(
        &self,
        out: &mut Applied,
        f: &FieldOutcome<'_>,
        value: &Value,
    ) -> Result<(), String> {
        if self.switch(out, f, "ext_proc") {
            return Ok(());
        }
        for (_, ext) in providers(value) {
            let Extension { ns, name, spec } = self.extension(f, ext, "extProc")?;
            let ns = ns.as_str();
            let filter = format!("ext_proc/{ns}/{name}");
            declare(out, &filter, true, self.ext_processor(spec, ns)?);
            out.per_filter.insert(
                filter,
                typed(
                    "envoy.extensions.filters.http.ext_proc.v3.ExtProcPerRoute",
                    json!({"overrides": {}}),
                ),
            );
        }
        Ok(())
    }

    /// Global rate limiting: one filter per GatewayExtension, `ratelimit/<ns>/<name>`, with the
    /// rule's descriptors per route.
    pub(super) fn global_rate_limit(
        &self,
        out: &mut Applied,
        f: &FieldOutcome<'_>,
        global: &Value,
    ) -> Result<(), String> {
        let ext = global
            .get("extensionRef")
            .ok_or("rateLimit.global has no extensionRef")?;
        let name = ext.get("name").and_then(Value::as_str).unwrap_or("");
        let ns = ext
            .get("namespace")
            .and_then(Value::as_str)
            .unwrap_or(self.namespace(f));
        let Some(extension) = settings::extension(self.ctx, ns, name) else {
            return Err(format!("GatewayExtension {ns}/{name} not found"));
        };
        let spec = extension.spec.get("rateLimit").unwrap_or(&Value::Null);
        let filter = format!("ratelimit/{ns}/{name}");
        declare(
            out,
            &filter,
            true,
            typed(
                "envoy.extensions.filters.http.ratelimit.v3.RateLimit",
                self.rate_limit_service(spec, ns)?,
            ),
        );
        let limits = vec![json!({"actions": descriptor_actions(global)?})];
        out.per_filter.insert(
            filter,
            typed(
                "envoy.extensions.filters.http.ratelimit.v3.RateLimitPerRoute",
                json!({"rateLimits": limits}),
            ),
        );
        Ok(())
    }

    /// The RateLimit filter's configuration from a GatewayExtension's `rateLimit`.
    fn rate_limit_service(&self, spec: &Value, ns: &str) -> Result<Value, String> {
        let mut config = Map::new();
        config.insert(
            "domain".into(),
            spec.get("domain").cloned().unwrap_or(json!("")),
        );
        if let Some(h) = spec.get("xRateLimitHeaders").and_then(Value::as_str)
            && h == "DraftVersion03"
        {
            config.insert("enableXRatelimitHeaders".into(), json!("DRAFT_VERSION_03"));
        }
        if spec.get("failOpen").and_then(Value::as_bool) == Some(false) {
            config.insert("failureModeDeny".into(), json!(true));
        }
        let grpc = spec.get("grpcService").unwrap_or(&Value::Null);
        config.insert(
            "rateLimitService".into(),
            json!({"grpcService": self.grpc_service(grpc, ns)?, "transportApiVersion": "V3"}),
        );
        let timeout = spec
            .get("timeout")
            .and_then(Value::as_str)
            .and_then(duration)
            .unwrap_or_else(|| "0.100s".to_string());
        config.insert("timeout".into(), json!(timeout));
        Ok(Value::Object(config))
    }

    /// The composite filter around the ExternalProcessor of a GatewayExtension's `extProc`.
    fn ext_processor(&self, spec: &Value, ns: &str) -> Result<Value, String> {
        let mut processor = Map::new();
        if spec.get("failOpen").and_then(Value::as_bool) != Some(false) {
            processor.insert("failureModeAllow".into(), json!(true));
        }
        let grpc = spec.get("grpcService").unwrap_or(&Value::Null);
        processor.insert("grpcService".into(), self.grpc_service(grpc, ns)?);
        for (key, field) in [
            ("maxMessageTimeout", "maxMessageTimeout"),
            ("messageTimeout", "messageTimeout"),
        ] {
            if let Some(d) = spec.get(key).and_then(Value::as_str).and_then(duration) {
                processor.insert(field.into(), json!(d));
            }
        }
        if let Some(typed_ns) = spec.at("/metadataOptions/forwarding/typed") {
            processor.insert(
                "metadataOptions".into(),
                json!({"forwardingNamespaces": {"typed": typed_ns}}),
            );
        }
        if let Some(mode) = spec.get("processingMode") {
            processor.insert("processingMode".into(), mode.clone());
        }
        if let Some(a) = spec.get("routeCacheAction").and_then(Value::as_str) {
            processor.insert("routeCacheAction".into(), json!(a.to_ascii_uppercase()));
        }
        if let Some(p) = spec.get("statPrefix").and_then(Value::as_str) {
            processor.insert("statPrefix".into(), json!(p));
        }
        Ok(composite(
            "composite_ext_proc",
            "envoy.filters.http.ext_proc",
            typed(
                "envoy.extensions.filters.http.ext_proc.v3.ExternalProcessor",
                Value::Object(processor),
            ),
            "dev.kgateway.disable_ext_proc",
        ))
    }

    /// The ExtAuthz filter of a GatewayExtension's `extAuth`.
    fn ext_authz(&self, spec: &Value, ns: &str) -> Result<Value, String> {
        let mut out = Map::new();
        if let Some(headers) = spec.get("headersToForward").and_then(Value::as_array) {
            out.insert(
                "allowedHeaders".into(),
                json!({"patterns": exact_patterns(headers)}),
            );
        }
        if let Some(b) = spec.get("clearRouteCache").and_then(Value::as_bool) {
            out.insert("clearRouteCache".into(), json!(b));
        }
        if let Some(b) = spec.get("failOpen").and_then(Value::as_bool) {
            out.insert("failureModeAllow".into(), json!(b));
        }
        out.insert(
            "filterEnabledMetadata".into(),
            json!({
                "filter": "dev.kgateway.disable_ext_auth",
                "invert": true,
                "path": [{"key": "disable"}],
                "value": {"boolMatch": true},
            }),
        );
        if let Some(grpc) = spec.get("grpcService") {
            out.insert("grpcService".into(), self.grpc_service(grpc, ns)?);
        } else if let Some(http) = spec.get("httpService") {
            let cluster = self.backend_cluster(http.get("backendRef"), ns)?;
            let timeout = http
                .get("requestTimeout")
                .and_then(Value::as_str)
                .and_then(duration)
                .unwrap_or_else(|| "2s".into());
            let mut service = Map::new();
            if let Some(add) = http
                .at("/authorizationRequest/headersToAdd")
                .and_then(Value::as_object)
            {
                let list: Vec<Value> = add
                    .iter()
                    .map(|(k, v)| json!({"key": k, "value": v}))
                    .collect();
                service.insert("authorizationRequest".into(), json!({"headersToAdd": list}));
            }
            if let Some(h) = http
                .at("/authorizationResponse/headersToBackend")
                .and_then(Value::as_array)
            {
                service.insert(
                    "authorizationResponse".into(),
                    json!({"allowedUpstreamHeaders": {"patterns": exact_patterns(h)}}),
                );
            }
            // As written: one the proxy refuses (GW214) makes the policy invalid only with
            // strict validation, where the proxy checks the configuration first.
            if let Some(prefix) = http.get("pathPrefix").and_then(Value::as_str) {
                service.insert("pathPrefix".into(), json!(prefix));
            }
            if let Some(r) = http.get("retry") {
                service.insert("retryPolicy".into(), service_retry(r));
            }
            service.insert(
                "serverUri".into(),
                json!({"cluster": cluster, "timeout": timeout, "uri": cluster}),
            );
            out.insert("httpService".into(), Value::Object(service));
        }
        if let Some(p) = spec.get("statPrefix").and_then(Value::as_str) {
            out.insert("statPrefix".into(), json!(p));
        }
        let code = spec
            .get("statusOnError")
            .and_then(Value::as_i64)
            .unwrap_or(403);
        out.insert("statusOnError".into(), json!({"code": status_name(code)}));
        if let Some(body) = spec.get("withRequestBody") {
            out.insert("withRequestBody".into(), body.clone());
        }
        Ok(Value::Object(out))
    }

    /// A gRPC service of a GatewayExtension: the backend's cluster, its timeout and retries.
    fn grpc_service(&self, grpc: &Value, ns: &str) -> Result<Value, String> {
        let cluster = self.backend_cluster(grpc.get("backendRef"), ns)?;
        let mut out = Map::new();
        out.insert("envoyGrpc".into(), json!({"clusterName": cluster}));
        if let Some(authority) = grpc.get("authority").and_then(Value::as_str) {
            out["envoyGrpc"]["authority"] = json!(authority);
        }
        if let Some(r) = grpc.get("retry") {
            out.insert("retryPolicy".into(), service_retry(r));
        }
        if let Some(t) = grpc
            .get("requestTimeout")
            .and_then(Value::as_str)
            .and_then(duration)
        {
            out.insert("timeout".into(), json!(t));
        }
        Ok(Value::Object(out))
    }

    /// The cluster of a GatewayExtension's backendRef (a Service port or a Backend, of its
    /// namespace unless it names one).
    fn backend_cluster(&self, backend: Option<&Value>, ns: &str) -> Result<String, String> {
        let b = backend.ok_or("the GatewayExtension has no backendRef")?;
        super::super::listener_policy::backend_ref_cluster(b, ns)
    }
}

/// The actions of a global rate limit: the reference writes the entries of every descriptor as
/// the actions of one rate limit.
fn descriptor_actions(global: &Value) -> Result<Vec<Value>, String> {
    let descriptors = global.get("descriptors").and_then(Value::as_array);
    let entries = descriptors.into_iter().flatten().flat_map(|d| {
        d.get("entries")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
    });
    entries.map(descriptor_action).collect()
}

/// One rate limit descriptor entry as an Envoy rate limit action.
fn descriptor_action(e: &Value) -> Result<Value, String> {
    Ok(match e.get("type").and_then(Value::as_str).unwrap_or("") {
        "Path" => json!({"requestHeaders": {"descriptorKey": "path", "headerName": ":path"}}),
        "RemoteAddress" => json!({"remoteAddress": {}}),
        "Header" => {
            let h = e.get("header").and_then(Value::as_str).unwrap_or("");
            json!({"requestHeaders": {"descriptorKey": h, "headerName": h}})
        }
        "Generic" => {
            let key = e.at("/generic/key").cloned().unwrap_or_default();
            let value = e.at("/generic/value").cloned().unwrap_or_default();
            json!({"genericKey": {"descriptorKey": key, "descriptorValue": value}})
        }
        other => {
            return Err(format!(
                "unknown rate limit descriptor entry type {other:?}"
            ));
        }
    })
}

const EXT_AUTHZ: &str = "envoy.extensions.filters.http.ext_authz.v3.ExtAuthz";

/// A composite filter that runs `filter` unless the metadata `disable_namespace` says
/// `disable: true` (what the `global_disable/<kind>` switch sets).
pub(super) fn composite(
    extension: &str,
    filter: &str,
    config: Value,
    disable_namespace: &str,
) -> Value {
    let execute = typed(
        "envoy.extensions.filters.http.composite.v3.ExecuteFilterAction",
        json!({"typedConfig": {"name": filter, "typedConfig": config}}),
    );
    typed(
        "envoy.extensions.common.matching.v3.ExtensionWithMatcher",
        json!({
            "extensionConfig": {
                "name": extension,
                "typedConfig": typed("envoy.extensions.filters.http.composite.v3.Composite", json!({})),
            },
            "xdsMatcher": {"matcherList": {"matchers": [{
                "onMatch": {"action": {"name": "composite-action", "typedConfig": execute}},
                "predicate": {"singlePredicate": {
                    "customMatch": {
                        "name": "envoy.matching.matchers.metadata_matcher",
                        "typedConfig": typed(
                            "envoy.extensions.matching.input_matchers.metadata.v3.Metadata",
                            json!({"invert": true, "value": {"boolMatch": true}}),
                        ),
                    },
                    "input": {
                        "name": "disable",
                        "typedConfig": typed(
                            "envoy.extensions.matching.common_inputs.network.v3.DynamicMetadataInput",
                            json!({"filter": disable_namespace, "path": [{"key": "disable"}]}),
                        ),
                    },
                }},
            }]}},
        }),
    )
}

fn exact_patterns(items: &[Value]) -> Vec<Value> {
    items.iter().map(|h| json!({"exact": h})).collect()
}

fn service_retry(r: &Value) -> Value {
    let mut out = json!({"numRetries": r.get("attempts").and_then(Value::as_i64).unwrap_or(1)});
    let mut backoff = Map::new();
    for (key, field) in [
        ("baseInterval", "baseInterval"),
        ("maxInterval", "maxInterval"),
    ] {
        if let Some(d) = r
            .at(&format!("/backoff/{key}"))
            .and_then(Value::as_str)
            .and_then(duration)
        {
            backoff.insert(field.into(), json!(d));
        }
    }
    if !backoff.is_empty() {
        out["retryBackOff"] = Value::Object(backoff);
    }
    out
}

/// Envoy's StatusCode enum names.
fn status_name(code: i64) -> &'static str {
    match code {
        400 => "BadRequest",
        401 => "Unauthorized",
        403 => "Forbidden",
        404 => "NotFound",
        429 => "TooManyRequests",
        500 => "InternalServerError",
        502 => "BadGateway",
        503 => "ServiceUnavailable",
        504 => "GatewayTimeout",
        _ => "Forbidden",
    }
}
