//! One effective TrafficPolicy field as Envoy configuration: the filter it declares on the
//! listeners and its per-route config, or the RouteAction fields it sets.

use serde_json::{Map, Value, json};

use super::super::{duration, typed};
use super::features::{
    self, cors, csrf, csrf_filter, header_mutations, local_rate_limit, quantity, retry,
};
use super::{Applied, LOCAL_RATE_LIMIT, Policies, declare, rbac};
use crate::merge::FieldOutcome;

const BASIC_AUTH: &str = "envoy.extensions.filters.http.basic_auth.v3.BasicAuth";
const BASIC_AUTH_PER_ROUTE: &str = "envoy.extensions.filters.http.basic_auth.v3.BasicAuthPerRoute";
const BUFFER: &str = "envoy.extensions.filters.http.buffer.v3.Buffer";
const BUFFER_PER_ROUTE: &str = "envoy.extensions.filters.http.buffer.v3.BufferPerRoute";
const HEADER_MUTATION: &str =
    "envoy.extensions.filters.http.header_mutation.v3.HeaderMutationPerRoute";

impl Policies<'_> {
    /// Renders one effective field; returns its metadata keys (none when gwctl does not render the
    /// feature).
    pub(super) fn feature(
        &self,
        out: &mut Applied,
        f: &FieldOutcome<'_>,
    ) -> Result<Vec<String>, String> {
        let value = f.value();
        let disabled = f.disabled();
        let key = f.name.to_string();
        match f.name {
            "buffer" => buffer(out, &value, disabled)?,
            "headerModifiers" => header_modifiers(out, &value),
            "compression" => return Ok(compression(out, &value)),
            "basicAuth" => self.basic_auth(out, f, &value, disabled)?,
            "csrf" => {
                let name = "envoy.filters.http.csrf";
                declare(out, name, true, csrf_filter());
                out.per_filter.insert(name.into(), csrf(&value));
            }
            "cors" => {
                let name = "envoy.filters.http.cors";
                declare(
                    out,
                    name,
                    true,
                    typed("envoy.extensions.filters.http.cors.v3.Cors", json!({})),
                );
                out.per_filter.insert(name.into(), cors(&value));
            }
            "transformation" => transformation(out, f, value),
            "rateLimit" => return self.rate_limit(out, f, &value),
            "timeouts" | "retry" | "urlRewrite" | "autoHostRewrite" => {
                if !route_action(out, f.name, &value) {
                    return Ok(Vec::new());
                }
            }
            "extAuth" => self.ext_auth(out, f, &value)?,
            "extProc" => self.ext_proc(out, f, &value)?,
            "jwt" => self.jwt(out, f, &value)?,
            "rbac" => rbac::rbac(out, &value)?,
            _ => return Ok(Vec::new()),
        }
        Ok(vec![key])
    }

    /// basicAuth: the users written inline, else the `.htpasswd` of its Secret.
    fn basic_auth(
        &self,
        out: &mut Applied,
        f: &FieldOutcome<'_>,
        value: &Value,
        disabled: bool,
    ) -> Result<(), String> {
        let name = "envoy.filters.http.basic_auth";
        // The listener's declaration needs some users; `#` is a comment line.
        declare(
            out,
            name,
            true,
            typed(BASIC_AUTH, json!({"users": {"inlineString": "#"}})),
        );
        let config = if disabled {
            features::disabled()
        } else {
            // The model keeps the users (password hashes) as one digest.
            let users: Vec<&str> = match value.get("users") {
                Some(Value::String(digest)) => vec![digest.as_str()],
                users => users
                    .and_then(Value::as_array)
                    .into_iter()
                    .flatten()
                    .filter_map(Value::as_str)
                    .collect(),
            };
            let text = if users.is_empty() {
                self.htpasswd(f, value)?
            } else {
                users.join("\n")
            };
            // Password hashes are secret material: printed as their digest.
            typed(
                BASIC_AUTH_PER_ROUTE,
                json!({"users": {"inlineString": super::super::secret_digest(&text)}}),
            )
        };
        out.per_filter.insert(name.into(), config);
        Ok(())
    }

    /// rateLimit: the local token bucket and the global rate limit service; returns the metadata
    /// keys of the parts set.
    fn rate_limit(
        &self,
        out: &mut Applied,
        f: &FieldOutcome<'_>,
        value: &Value,
    ) -> Result<Vec<String>, String> {
        let mut keys = Vec::new();
        if let Some(local) = value.get("local") {
            let name = "ratelimit/local";
            declare(
                out,
                name,
                true,
                typed(
                    LOCAL_RATE_LIMIT,
                    json!({"statPrefix": "http_local_rate_limiter"}),
                ),
            );
            out.per_filter.insert(name.into(), local_rate_limit(local)?);
            keys.push("rateLimit.local".to_string());
        }
        if let Some(global) = value.get("global") {
            self.global_rate_limit(out, f, global)?;
            keys.push("rateLimit.global".to_string());
        }
        Ok(keys)
    }
}

fn buffer(out: &mut Applied, value: &Value, disabled: bool) -> Result<(), String> {
    let name = "envoy.filters.http.buffer";
    declare(
        out,
        name,
        true,
        typed(BUFFER, json!({"maxRequestBytes": 4294967295u64})),
    );
    let config = if disabled {
        typed(BUFFER_PER_ROUTE, json!({"disabled": true}))
    } else {
        let size = quantity(&value["maxRequestSize"]).ok_or_else(|| {
            format!(
                "buffer.maxRequestSize {} is not a size",
                value["maxRequestSize"]
            )
        })?;
        typed(
            BUFFER_PER_ROUTE,
            json!({"buffer": {"maxRequestBytes": size}}),
        )
    };
    out.per_filter.insert(name.into(), config);
    Ok(())
}

fn header_modifiers(out: &mut Applied, value: &Value) {
    let name = "envoy.extensions.filters.http.header_mutation";
    declare(out, name, true, typed(HEADER_MUTATION, json!({})));
    let mut mutations = Map::new();
    for (side, field) in [
        ("request", "requestMutations"),
        ("response", "responseMutations"),
    ] {
        let list = header_mutations(&value[side]);
        if !list.is_empty() {
            mutations.insert(field.into(), Value::Array(list));
        }
    }
    out.per_filter.insert(
        name.into(),
        typed(HEADER_MUTATION, json!({"mutations": mutations})),
    );
}

/// compression: the response compressor and the request decompressor; returns the metadata keys
/// of the parts set.
fn compression(out: &mut Applied, value: &Value) -> Vec<String> {
    let mut keys = Vec::new();
    let parts = [
        (
            "responseCompression",
            "compression",
            "envoy.filters.http.compressor",
        ),
        (
            "requestDecompression",
            "decompression",
            "envoy.filters.http.decompressor",
        ),
    ];
    for (field, key, name) in parts {
        let Some(part) = value.get(field) else {
            continue;
        };
        declare(out, name, true, compression_filter(name));
        let config = if part.get("disable").is_some() {
            json!({"disabled": true})
        } else {
            features::enabled()
        };
        out.per_filter.insert(name.into(), config);
        keys.push(key.to_string());
    }
    keys
}

fn transformation(out: &mut Applied, f: &FieldOutcome<'_>, value: Value) {
    let name = "dynamic_modules/simple_mutations";
    // Combined (DeepMerge) transformations: the reference applies the lower-ranked policies'
    // first, so the winner's come last.
    let value = if f.merged.is_empty() {
        value
    } else {
        let mut all = Value::Null;
        for s in f.merged.iter().rev().chain(std::iter::once(&f.winner)) {
            crate::merge::rank::concat(&mut all, s.value);
        }
        all
    };
    declare(
        out,
        name,
        true,
        typed(
            "envoy.extensions.filters.http.dynamic_modules.v3.DynamicModuleFilter",
            json!({
                "dynamicModuleConfig": {"name": "rust_module"},
                "filterConfig": typed("google.protobuf.StringValue", json!({"value": "{}"})),
                "filterName": "http_simple_mutations",
            }),
        ),
    );
    out.per_filter.insert(
        name.into(),
        typed(
            "envoy.extensions.filters.http.dynamic_modules.v3.DynamicModuleFilterPerRoute",
            json!({
                "dynamicModuleConfig": {"name": "rust_module"},
                "filterConfig": typed("google.protobuf.StringValue", json!({"value": value.to_string()})),
                "perRouteConfigName": "http_simple_mutations",
            }),
        ),
    );
}

/// The fields that set RouteAction fields (timeouts, retries, rewrites); `false` when the value
/// sets nothing gwctl renders.
fn route_action(out: &mut Applied, field: &str, value: &Value) -> bool {
    match field {
        "timeouts" => {
            if let Some(t) = value
                .get("request")
                .and_then(Value::as_str)
                .and_then(duration)
            {
                out.action.insert("timeout".into(), json!(t));
            }
            if let Some(t) = value
                .get("streamIdle")
                .and_then(Value::as_str)
                .and_then(duration)
            {
                out.action.insert("idleTimeout".into(), json!(t));
            }
        }
        "retry" => {
            out.action.insert("retryPolicy".into(), retry(value));
        }
        "urlRewrite" => {
            let Some(p) = value.get("pathRegex") else {
                return false;
            };
            out.action.insert(
                "regexRewrite".into(),
                json!({"pattern": {"regex": p["pattern"]}, "substitution": p["substitution"]}),
            );
        }
        "autoHostRewrite" => {
            let Some(on) = value.as_bool() else {
                return false;
            };
            out.action.insert("autoHostRewrite".into(), json!(on));
        }
        _ => return false,
    }
    true
}

/// The gzip compressor or decompressor, declared for responses or requests only.
fn compression_filter(name: &str) -> Value {
    if name == "envoy.filters.http.compressor" {
        typed(
            "envoy.extensions.filters.http.compressor.v3.Compressor",
            json!({
                "compressorLibrary": {
                    "name": "envoy.compression.gzip.compressor",
                    "typedConfig": typed("envoy.extensions.compression.gzip.compressor.v3.Gzip", json!({})),
                },
                "requestDirectionConfig": {"commonConfig": {"enabled": {"defaultValue": false}}},
            }),
        )
    } else {
        typed(
            "envoy.extensions.filters.http.decompressor.v3.Decompressor",
            json!({
                "decompressorLibrary": {
                    "name": "envoy.compression.gzip.decompressor",
                    "typedConfig": typed("envoy.extensions.compression.gzip.decompressor.v3.Gzip", json!({})),
                },
                "responseDirectionConfig": {"commonConfig": {"enabled": {"defaultValue": false}}},
            }),
        )
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::super::super::testing::resource;

    #[test]
    fn basic_auth_switched_off_on_a_route_is_the_generic_filter_config() {
        let docs = "
apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: gw, namespace: default}
spec:
  gatewayClassName: kgateway
  listeners: [{name: http, protocol: HTTP, port: 8080}]
---
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: open, namespace: default}
spec:
  parentRefs: [{name: gw}]
  rules: [{backendRefs: [{name: svc, port: 80}]}]
---
apiVersion: v1
kind: Service
metadata: {name: svc, namespace: default}
spec: {ports: [{port: 80}]}
---
apiVersion: gateway.kgateway.dev/v1alpha1
kind: TrafficPolicy
metadata: {name: everyone, namespace: default}
spec:
  targetRefs: [{group: gateway.networking.k8s.io, kind: Gateway, name: gw}]
  basicAuth: {users: ['alice:{SHA}qUqP5cyxm6YcTAhz05Hph5gvu9M=']}
---
apiVersion: gateway.kgateway.dev/v1alpha1
kind: TrafficPolicy
metadata: {name: open, namespace: default}
spec:
  targetRefs: [{group: gateway.networking.k8s.io, kind: HTTPRoute, name: open}]
  basicAuth: {disable: {}}
";
        let rc = resource(docs, "listener~8080", "virtualHosts");
        assert_eq!(
            rc["virtualHosts"][0]["routes"][0]["typedPerFilterConfig"]["envoy.filters.http.basic_auth"],
            json!({"@type": "type.googleapis.com/envoy.config.route.v3.FilterConfig", "config": {}, "disabled": true})
        );
    }
}
