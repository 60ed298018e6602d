//! TrafficPolicy: the effective policy of the merge stage (`ctx.merged`) as Envoy HTTP filters.
//! Each feature's filter is declared once on every HTTP listener of the Gateway (disabled unless
//! it must always run) and configured through `typedPerFilterConfig`: Gateway- and
//! listener-level settings on the RouteConfiguration, route- and rule-level ones on the Route.
//! Who supplied each feature is written as metadata under [`METADATA`], as the reference does.

use std::collections::BTreeMap;

use serde_json::{Map, Value, json};

use super::super::Context;
use super::clusters::GATEWAY_GROUP;
use super::{duration, typed};
use crate::fasthash::FastMap;
use crate::merge::{Effective, Family, FieldOutcome, Level, Place, Source};
use crate::model::Object;

pub const METADATA: &str = "merge.TrafficPolicy.gateway.kgateway.dev";

/// The listener's HTTP filters in the order the reference declares them (by name prefix).
const ORDER: &[&str] = &[
    "envoy.filters.http.cors",
    "envoy.filters.http.oauth2",
    "global_disable/jwt",
    "jwt",
    "envoy.filters.http.basic_auth",
    "envoy.filters.http.api_key_auth",
    "global_disable/ext_auth",
    "ext_auth",
    "envoy.filters.http.rbac",
    "global_disable/ext_proc",
    "ext_proc",
    "ratelimit/local",
    "ratelimit",
    "envoy.filters.http.csrf",
    "dynamic_modules/simple_mutations",
    "envoy.filters.http.buffer",
    "envoy.extensions.filters.http.header_mutation",
    "envoy.filters.http.compressor",
    "envoy.filters.http.decompressor",
];

/// The TrafficPolicy settings that apply at one place, ready to render.
#[derive(Default, Clone)]
pub struct Applied {
    /// `typedPerFilterConfig` entries.
    pub per_filter: Map<String, Value>,
    /// Fields of the RouteAction (timeouts, retries).
    pub action: Map<String, Value>,
    /// Who supplied what: metadata key -> policy references.
    pub metadata: BTreeMap<String, Vec<String>>,
    /// Listener declarations of the filters used: name -> filter.
    pub declarations: BTreeMap<String, Value>,
}

impl Applied {
    /// Adds the filter declarations of another place.
    pub fn declare_into(&self, into: &mut BTreeMap<String, Value>) {
        for (k, v) in &self.declarations {
            into.entry(k.clone()).or_insert_with(|| v.clone());
        }
    }

    pub fn metadata_value(&self) -> Option<Value> {
        (!self.metadata.is_empty()).then(|| json!({"filterMetadata": {METADATA: self.metadata}}))
    }

    /// Adds the settings to a resource's object (`typedPerFilterConfig`, `metadata`).
    pub fn write(&self, into: &mut Map<String, Value>) {
        if let Some(m) = self.metadata_value() {
            into.insert("metadata".into(), m);
        }
        if !self.per_filter.is_empty() {
            into.insert(
                "typedPerFilterConfig".into(),
                Value::Object(self.per_filter.clone()),
            );
        }
    }
}

/// The facts of the run, looked up by object, and the merge stage's results.
pub struct Policies<'c> {
    ctx: &'c Context<'c>,
    by_id: FastMap<(&'c str, &'c str, &'c str), usize>,
}

impl<'c> Policies<'c> {
    pub fn new(ctx: &'c Context<'c>) -> Self {
        let mut by_id = FastMap::default();
        if let Some(model) = &ctx.run.model {
            for (i, f) in model.facts.iter().enumerate() {
                by_id
                    .entry((
                        f.id.kind.as_str(),
                        f.id.namespace.as_str(),
                        f.id.name.as_str(),
                    ))
                    .or_insert(i);
            }
        }
        Policies { ctx, by_id }
    }

    fn index(&self, o: &Object) -> Option<usize> {
        self.by_id
            .get(&(
                o.id.kind.as_str(),
                o.id.namespace.as_str(),
                o.id.name.as_str(),
            ))
            .copied()
    }

    fn effective(&self, place: Place) -> Option<&Effective<'c>> {
        self.ctx
            .merged
            .as_ref()?
            .of(place)
            .find(|e| e.family == Family::TrafficPolicy)
    }

    fn reference(&self, source: Source) -> String {
        let Some(model) = &self.ctx.run.model else {
            return String::new();
        };
        let id = &model.facts[source.object()].id;
        format!("{}/{}/{}/{}", id.group, id.kind, id.namespace, id.name)
    }

    /// Gateway-level settings (for the RouteConfigurations and the Listener's metadata).
    pub fn gateway(&self, gateway: &Object) -> Result<Applied, String> {
        let Some(g) = self.index(gateway) else {
            return Ok(Applied::default());
        };
        self.applied(Place::Gateway(g), |l| l <= Level::Listener)
    }

    /// The settings of one of the Gateway's own listeners: with `only_listener`, those set at
    /// the listener level; else every Gateway- and listener-level one that wins there.
    pub fn listener(
        &self,
        gateway: &Object,
        listener: usize,
        only_listener: bool,
    ) -> Result<Applied, String> {
        let Some(g) = self.index(gateway) else {
            return Ok(Applied::default());
        };
        self.applied(Place::Listener(g, listener), |l| {
            if only_listener {
                l == Level::Listener
            } else {
                l <= Level::Listener
            }
        })
    }

    /// Route- and rule-level settings of one rule.
    pub fn rule(&self, route: &Object, rule: usize) -> Result<Applied, String> {
        let Some(r) = self.index(route) else {
            return Ok(Applied::default());
        };
        self.applied(Place::Rule(r, rule), |l| l >= Level::Route)
    }

    fn applied(&self, place: Place, levels: impl Fn(Level) -> bool) -> Result<Applied, String> {
        let mut out = Applied::default();
        let Some(e) = self.effective(place) else {
            return Ok(out);
        };
        for f in &e.fields {
            if !levels(f.winner.level) {
                continue;
            }
            let refs: Vec<String> = std::iter::once(&f.winner)
                .chain(&f.merged)
                .map(|s| self.reference(s.source))
                .collect();
            let keys = self.feature(&mut out, f)?;
            for key in keys {
                out.metadata.entry(key).or_default().extend(refs.clone());
            }
        }
        Ok(out)
    }
}

impl Policies<'_> {
    /// The namespace of the policy that supplied a field.
    fn namespace(&self, f: &FieldOutcome<'_>) -> &str {
        self.ctx.run.model.as_ref().map_or("", |m| {
            m.facts[f.winner.source.object()].id.namespace.as_str()
        })
    }

    /// Renders one effective field; returns its metadata keys (none when gwctl does not render the
    /// feature).
    fn feature(&self, out: &mut Applied, f: &FieldOutcome<'_>) -> Result<Vec<String>, String> {
        let value = f.value();
        let disabled = f.disabled();
        let key = f.name.to_string();
        match f.name {
            "buffer" => {
                let name = "envoy.filters.http.buffer";
                declare(
                    out,
                    name,
                    true,
                    typed(BUFFER, json!({"maxRequestBytes": 4294967295u64})),
                );
                let config = if disabled {
                    json!({"disabled": true})
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
            }
            "headerModifiers" => {
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
            "cors" => {
                let name = "envoy.filters.http.cors";
                declare(
                    out,
                    name,
                    false,
                    typed("envoy.extensions.filters.http.cors.v3.Cors", json!({})),
                );
                out.per_filter.insert(name.into(), cors(&value));
            }
            "transformation" => {
                let name = "dynamic_modules/simple_mutations";
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
            "rateLimit" => {
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
                return Ok(keys);
            }
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
                out.action.insert("retryPolicy".into(), retry(&value));
            }
            "extAuth" => self.ext_auth(out, f, &value)?,
            "extProc" => self.ext_proc(out, f, &value)?,
            _ => return Ok(Vec::new()),
        }
        Ok(vec![key])
    }

    /// ExtAuth: one filter per GatewayExtension, `ext_auth/<ns>/<name>`, behind the
    /// `global_disable/ext_auth` switch that `disable` turns on.
    fn ext_auth(
        &self,
        out: &mut Applied,
        f: &FieldOutcome<'_>,
        value: &Value,
    ) -> Result<(), String> {
        let switch = "global_disable/ext_auth";
        declare(
            out,
            switch,
            true,
            disable_switch("dev.kgateway.disable_ext_auth"),
        );
        if f.disabled() {
            out.per_filter.insert(switch.into(), enabled());
            return Ok(());
        }
        // With DeepMerge the value is a list of providers.
        let providers: Vec<&Value> = match value {
            Value::Array(items) => items.iter().collect(),
            one => vec![one],
        };
        for p in providers {
            let Some(ext) = p.get("extensionRef") else {
                continue;
            };
            let name = ext.get("name").and_then(Value::as_str).unwrap_or("");
            let ns = ext
                .get("namespace")
                .and_then(Value::as_str)
                .unwrap_or(self.namespace(f));
            let Some(extension) = self
                .ctx
                .inputs
                .get(GATEWAY_GROUP, "GatewayExtension", ns, name)
            else {
                return Err(format!("GatewayExtension {ns}/{name} not found"));
            };
            let spec = extension
                .value
                .pointer("/spec/extAuth")
                .unwrap_or(&Value::Null);
            let filter = format!("ext_auth/{ns}/{name}");
            declare(
                out,
                &filter,
                true,
                typed(EXT_AUTHZ, self.ext_authz(spec, ns)?),
            );
            let config = match p.get("withRequestBody") {
                Some(body) => typed(
                    "envoy.extensions.filters.http.ext_authz.v3.ExtAuthzPerRoute",
                    json!({"checkSettings": {"withRequestBody": body}}),
                ),
                None => enabled(),
            };
            out.per_filter.insert(filter, config);
        }
        Ok(())
    }

    /// ExtProc: one filter per GatewayExtension, `ext_proc/<ns>/<name>`, a composite filter that
    /// runs the external processor unless the `global_disable/ext_proc` switch is on.
    fn ext_proc(
        &self,
        out: &mut Applied,
        f: &FieldOutcome<'_>,
        value: &Value,
    ) -> Result<(), String> {
        let switch = "global_disable/ext_proc";
        declare(
            out,
            switch,
            true,
            disable_switch("dev.kgateway.disable_ext_proc"),
        );
        if f.disabled() {
            out.per_filter.insert(switch.into(), enabled());
            return Ok(());
        }
        let providers: Vec<&Value> = match value {
            Value::Array(items) => items.iter().collect(),
            one => vec![one],
        };
        for p in providers {
            let Some(ext) = p.get("extensionRef") else {
                continue;
            };
            let name = ext.get("name").and_then(Value::as_str).unwrap_or("");
            let ns = ext
                .get("namespace")
                .and_then(Value::as_str)
                .unwrap_or(self.namespace(f));
            let Some(extension) = self
                .ctx
                .inputs
                .get(GATEWAY_GROUP, "GatewayExtension", ns, name)
            else {
                return Err(format!("GatewayExtension {ns}/{name} not found"));
            };
            let spec = extension
                .value
                .pointer("/spec/extProc")
                .unwrap_or(&Value::Null);
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
        if let Some(typed_ns) = spec.pointer("/metadataOptions/forwarding/typed") {
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
        let execute = typed(
            "envoy.extensions.filters.http.composite.v3.ExecuteFilterAction",
            json!({"typedConfig": {
                "name": "envoy.filters.http.ext_proc",
                "typedConfig": typed("envoy.extensions.filters.http.ext_proc.v3.ExternalProcessor", Value::Object(processor)),
            }}),
        );
        Ok(typed(
            "envoy.extensions.common.matching.v3.ExtensionWithMatcher",
            json!({
                "extensionConfig": {
                    "name": "composite_ext_proc",
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
                                json!({"filter": "dev.kgateway.disable_ext_proc", "path": [{"key": "disable"}]}),
                            ),
                        },
                    }},
                }]}},
            }),
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
                .pointer("/authorizationRequest/headersToAdd")
                .and_then(Value::as_object)
            {
                let list: Vec<Value> = add
                    .iter()
                    .map(|(k, v)| json!({"key": k, "value": v}))
                    .collect();
                service.insert("authorizationRequest".into(), json!({"headersToAdd": list}));
            }
            if let Some(h) = http
                .pointer("/authorizationResponse/headersToBackend")
                .and_then(Value::as_array)
            {
                service.insert(
                    "authorizationResponse".into(),
                    json!({"allowedUpstreamHeaders": {"patterns": exact_patterns(h)}}),
                );
            }
            if let Some(prefix) = http.get("pathPrefix").and_then(Value::as_str) {
                if !prefix.starts_with('/') {
                    return Err(format!(
                        "extAuth httpService.pathPrefix {prefix:?} does not start with /"
                    ));
                }
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

    /// The cluster of a GatewayExtension's backendRef (a Service port of its namespace).
    fn backend_cluster(&self, backend: Option<&Value>, ns: &str) -> Result<String, String> {
        let b = backend.ok_or("the GatewayExtension has no backendRef")?;
        let name = b.get("name").and_then(Value::as_str).unwrap_or("");
        let ns = b.get("namespace").and_then(Value::as_str).unwrap_or(ns);
        let port = b.get("port").and_then(Value::as_i64).unwrap_or(0);
        Ok(format!("kube_{ns}_{name}_{port}"))
    }
}

const EXT_AUTHZ: &str = "envoy.extensions.filters.http.ext_authz.v3.ExtAuthz";

/// A filter enabled on a route or route configuration where the listener declares it disabled.
fn enabled() -> Value {
    typed("envoy.config.route.v3.FilterConfig", json!({"config": {}}))
}

/// The set_metadata filter that, enabled, switches every filter of a kind off.
fn disable_switch(namespace: &str) -> Value {
    typed(
        "envoy.extensions.filters.http.set_metadata.v3.Config",
        json!({"metadata": [{"metadataNamespace": namespace, "value": {"disable": true}}]}),
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
            .pointer(&format!("/backoff/{key}"))
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

const BUFFER: &str = "envoy.extensions.filters.http.buffer.v3.Buffer";
const BUFFER_PER_ROUTE: &str = "envoy.extensions.filters.http.buffer.v3.BufferPerRoute";
const HEADER_MUTATION: &str =
    "envoy.extensions.filters.http.header_mutation.v3.HeaderMutationPerRoute";
const LOCAL_RATE_LIMIT: &str = "envoy.extensions.filters.http.local_ratelimit.v3.LocalRateLimit";

fn declare(out: &mut Applied, name: &str, disabled: bool, config: Value) {
    let mut filter = Map::new();
    if disabled {
        filter.insert("disabled".into(), json!(true));
    }
    filter.insert("name".into(), json!(name));
    filter.insert("typedConfig".into(), config);
    out.declarations
        .entry(name.to_string())
        .or_insert(Value::Object(filter));
}

/// The listener's HTTP filters, in the reference's order, from every place's declarations.
pub fn ordered(declarations: &BTreeMap<String, Value>) -> Vec<Value> {
    let rank = |name: &str| {
        ORDER
            .iter()
            .position(|p| name == *p || name.starts_with(&format!("{p}/")))
            .unwrap_or(ORDER.len())
    };
    let mut list: Vec<(&String, &Value)> = declarations.iter().collect();
    list.sort_by_key(|(n, _)| rank(n));
    list.into_iter().map(|(_, v)| v.clone()).collect()
}

/// A Kubernetes quantity (`65536`, `64Ki`, `1Mi`, `1k`) in bytes.
fn quantity(v: &Value) -> Option<u64> {
    if let Some(n) = v.as_u64() {
        return Some(n);
    }
    let text = v.as_str()?.trim();
    let split = text
        .find(|c: char| !c.is_ascii_digit())
        .unwrap_or(text.len());
    let number: u64 = text[..split].parse().ok()?;
    let factor: u64 = match &text[split..] {
        "" => 1,
        "k" => 1000,
        "M" => 1000 * 1000,
        "G" => 1000 * 1000 * 1000,
        "Ki" => 1 << 10,
        "Mi" => 1 << 20,
        "Gi" => 1 << 30,
        _ => return None,
    };
    number.checked_mul(factor)
}

fn header_mutations(side: &Value) -> Vec<Value> {
    let mut out = Vec::new();
    for (list, overwrite) in [("add", false), ("set", true)] {
        for h in side
            .get(list)
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            let mut append = json!({"header": {
                "key": h.get("name").cloned().unwrap_or_default(),
                "value": h.get("value").cloned().unwrap_or_default(),
            }});
            if overwrite {
                append["appendAction"] = json!("OVERWRITE_IF_EXISTS_OR_ADD");
            }
            out.push(json!({"append": append}));
        }
    }
    for r in side
        .get("remove")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        out.push(json!({"remove": r}));
    }
    out
}

fn cors(v: &Value) -> Value {
    let mut out = Map::new();
    let list = |key: &str| -> Vec<Value> {
        v.get(key)
            .and_then(Value::as_array)
            .cloned()
            .unwrap_or_default()
    };
    let origins: Vec<Value> = list("allowOrigins")
        .iter()
        .filter_map(Value::as_str)
        .map(|o| {
            if o == "*" {
                json!({"prefix": ""})
            } else if o.contains('*') {
                json!({"safeRegex": {"googleRe2": {}, "regex": regex::escape(o).replace("\\*", "[^.]+")}})
            } else {
                json!({"exact": o})
            }
        })
        .collect();
    if !origins.is_empty() {
        out.insert("allowOriginStringMatch".into(), Value::Array(origins));
    }
    for (key, field) in [
        ("allowMethods", "allowMethods"),
        ("allowHeaders", "allowHeaders"),
        ("exposeHeaders", "exposeHeaders"),
    ] {
        let items: Vec<String> = list(key)
            .iter()
            .filter_map(Value::as_str)
            .map(str::to_string)
            .collect();
        if !items.is_empty() {
            out.insert(field.into(), json!(items.join(",")));
        }
    }
    if let Some(b) = v.get("allowCredentials").and_then(Value::as_bool) {
        out.insert("allowCredentials".into(), json!(b));
    }
    if let Some(age) = v.get("maxAge").and_then(Value::as_i64) {
        out.insert("maxAge".into(), json!(age.to_string()));
    }
    typed(
        "envoy.extensions.filters.http.cors.v3.CorsPolicy",
        Value::Object(out),
    )
}

fn local_rate_limit(local: &Value) -> Result<Value, String> {
    let bucket = local.get("tokenBucket").unwrap_or(&Value::Null);
    let fill = bucket
        .get("fillInterval")
        .and_then(Value::as_str)
        .and_then(duration)
        .ok_or("rateLimit.local.tokenBucket.fillInterval is not a duration")?;
    let max = bucket.get("maxTokens").and_then(Value::as_i64).unwrap_or(1);
    let per_fill = bucket
        .get("tokensPerFill")
        .and_then(Value::as_i64)
        .unwrap_or(1);
    let percent = |key: &str| json!({"defaultValue": {"numerator": 100}, "runtimeKey": key});
    Ok(typed(
        LOCAL_RATE_LIMIT,
        json!({
            "filterEnabled": percent("local_rate_limit_enabled"),
            "filterEnforced": percent("local_rate_limit_enforced"),
            "statPrefix": "http_local_rate_limiter",
            "tokenBucket": {"fillInterval": fill, "maxTokens": max, "tokensPerFill": per_fill},
        }),
    ))
}

fn retry(v: &Value) -> Value {
    let mut out = Map::new();
    out.insert(
        "numRetries".into(),
        json!(v.get("attempts").and_then(Value::as_i64).unwrap_or(1)),
    );
    if let Some(t) = v
        .get("perTryTimeout")
        .and_then(Value::as_str)
        .and_then(duration)
    {
        out.insert("perTryTimeout".into(), json!(t));
    }
    let codes: Vec<Value> = v
        .get("statusCodes")
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default();
    if let Some(b) = v
        .get("backoffBaseInterval")
        .and_then(Value::as_str)
        .and_then(duration)
    {
        out.insert("retryBackOff".into(), json!({"baseInterval": b}));
    }
    let mut on: Vec<String> = v
        .get("retryOn")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .map(str::to_string)
        .collect();
    if !codes.is_empty() {
        on.push("retriable-status-codes".into());
        out.insert("retriableStatusCodes".into(), Value::Array(codes));
    }
    if !on.is_empty() {
        out.insert("retryOn".into(), json!(on.join(",")));
    }
    Value::Object(out)
}
