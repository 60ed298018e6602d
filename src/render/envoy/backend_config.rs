//! BackendConfigPolicy: the effective policy of a Service port or Backend (the merge stage) as
//! fields of its Cluster.

use crate::render::pointer::Pointer;
use serde_json::{Map, Value, json};

use super::super::Context;
use super::{duration, typed};
use crate::merge::{Family, Place};
use crate::model::Object;

const HTTP_OPTIONS: &str = "envoy.extensions.upstreams.http.v3.HttpProtocolOptions";

/// The effective BackendConfigPolicy fields of a Service port (`port` = index in its
/// `spec.ports`) or of a Backend (`port` = `None`), by name.
pub fn effective(ctx: &Context<'_>, target: &Object, port: Option<usize>) -> Map<String, Value> {
    let mut out = Map::new();
    let (Some(model), Some(merged)) = (&ctx.run.model, &ctx.merged) else {
        return out;
    };
    let Some(i) = ctx.fact_of(target) else {
        return out;
    };
    let place = match port {
        Some(pi) => Place::Port(i, pi),
        None => Place::Backend(i),
    };
    for e in merged.of(place) {
        if e.family == Family::BackendConfigPolicy {
            for f in &e.fields {
                out.insert(f.name.to_string(), f.value());
                if f.name == "loadBalancer" {
                    // Slow start's runtime key names the policy that set it.
                    let id = &model.facts[f.winner.source.object()].id;
                    out.insert(OWNER.into(), json!(format!("{}.{}", id.name, id.namespace)));
                }
            }
        }
    }
    out
}

/// Whether a BackendConfigPolicy the controller rejects (a validation error, a Secret that is
/// not there; with validation level strict also what the proxy refuses, such as a cipher suite
/// it does not know) is attached to a Service (any of its ports) or Backend: the controller then
/// programs its cluster without endpoints ([`without_endpoints`]) rather than without the policy.
pub fn rejected(ctx: &Context<'_>, target: &Object, port: Option<usize>) -> bool {
    let (Some(model), Some(merged)) = (&ctx.run.model, &ctx.merged) else {
        return false;
    };
    let Some(i) = ctx.fact_of(target) else {
        return false;
    };
    let places = [Some(Place::Backend(i)), port.map(|p| Place::Port(i, p))];
    let attached = places
        .into_iter()
        .flatten()
        .filter_map(|p| merged.hierarchy.attached.get(&p))
        .flatten();
    let strict = ctx.options.validation_level == crate::render::ValidationLevel::Strict;
    let verdicts = &ctx.run.verdicts;
    attached.map(|&p| &model.facts[p].id).any(|id| {
        id.kind == "BackendConfigPolicy"
            && (verdicts
                .rejected(&id.kind, &id.namespace, &id.name)
                .is_some()
                || strict
                    && verdicts
                        .any_error(&id.kind, &id.namespace, &id.name)
                        .is_some_and(|r| r.proxy.is_some()))
    })
}

/// The cluster of a backend whose BackendConfigPolicy was rejected: static, with no endpoints.
pub fn without_endpoints(name: &str) -> Value {
    json!({"loadAssignment": {"clusterName": name}, "name": name, "type": "STATIC"})
}

/// Where [`effective`] notes `<policy>.<namespace>` of the winning loadBalancer setting.
const OWNER: &str = "$loadBalancerPolicy";

/// Applies the policy fields to a cluster; `h2` says whether the upstream speaks HTTP/2;
/// `target` is the Service or Backend (a TLS `secretRef` is in its namespace; without a
/// policy `tls`, a BackendTLSPolicy on it gives the upstream TLS).
pub fn apply(
    ctx: &Context<'_>,
    cluster: &mut Map<String, Value>,
    policy: &Map<String, Value>,
    h2: bool,
    target: &Object,
) {
    let namespace = target.id.namespace.as_str();
    if policy.get("tls").is_none()
        && let Some(socket) = super::backend_tls::policy(ctx, target)
    {
        cluster.insert("transportSocket".into(), socket);
    }
    if let Some(tls) = policy.get("tls") {
        if let Some(name) = tls.at("/secretRef/name").and_then(Value::as_str)
            && ctx.inputs.get("", "Secret", namespace, name).is_none()
        {
            // Without its client certificate the cluster has no endpoints, as the reference
            // renders it: requests to it fail rather than go out without TLS.
            let name = cluster.get("name").cloned().unwrap_or_default();
            cluster.clear();
            cluster.insert("loadAssignment".into(), json!({"clusterName": name}));
            cluster.insert("name".into(), name);
            cluster.insert("type".into(), json!("STATIC"));
            return;
        }
        cluster.insert("transportSocket".into(), upstream_tls(ctx, tls, namespace));
    }
    if let Some(t) = policy
        .get("connectTimeout")
        .and_then(Value::as_str)
        .and_then(duration)
    {
        cluster.insert("connectTimeout".into(), json!(t));
    }
    if let Some(b) = policy.get("perConnectionBufferLimitBytes") {
        cluster.insert("perConnectionBufferLimitBytes".into(), b.clone());
    }
    if let Some(k) = policy.get("tcpKeepalive") {
        cluster.insert("upstreamConnectionOptions".into(), tcp_keepalive(k));
    }
    protocol_options(cluster, policy, h2);
    if let Some(lb) = policy.get("loadBalancer") {
        let owner = policy.get(OWNER).and_then(Value::as_str).unwrap_or("");
        super::load_balancer::apply(cluster, lb, owner);
    }
    if let Some(o) = policy.get("outlierDetection") {
        cluster.insert("outlierDetection".into(), outlier_detection(o));
    }
    if let Some(hc) = policy.get("healthCheck") {
        cluster.insert("healthChecks".into(), json!([health_check(hc)]));
    }
    if let Some(cb) = policy.get("circuitBreakers") {
        cluster.insert("circuitBreakers".into(), json!({"thresholds": [cb]}));
    }
}

/// The policy's tcpKeepalive as the cluster's upstream connection options (times in seconds).
fn tcp_keepalive(k: &Value) -> Value {
    let mut keepalive = Map::new();
    for (from, to) in [
        ("keepAliveProbes", "keepaliveProbes"),
        ("keepAliveTime", "keepaliveTime"),
        ("keepAliveInterval", "keepaliveInterval"),
    ] {
        if let Some(v) = k.get(from) {
            let seconds = v.as_i64().or_else(|| v.as_str().and_then(seconds));
            if let Some(s) = seconds {
                keepalive.insert(to.into(), json!(s));
            }
        }
    }
    json!({"tcpKeepalive": keepalive})
}

/// The policy's outlierDetection over Envoy's defaults as kgateway sets them; durations as
/// Envoy writes them, other fields as written.
fn outlier_detection(o: &Value) -> Value {
    let mut od = Map::new();
    od.insert("baseEjectionTime".into(), json!("30s"));
    od.insert("consecutive5xx".into(), json!(5));
    od.insert("interval".into(), json!("10s"));
    od.insert("maxEjectionPercent".into(), json!(10));
    for (k, v) in o.as_object().into_iter().flatten() {
        let v = match v.as_str().and_then(duration) {
            Some(d) => json!(d),
            None => v.clone(),
        };
        od.insert(k.clone(), v);
    }
    Value::Object(od)
}

/// An active health check: its timings and thresholds, and the HTTP or gRPC check.
fn health_check(hc: &Value) -> Value {
    let mut out = Map::new();
    for (k, v) in hc.as_object().into_iter().flatten() {
        match k.as_str() {
            "timeout" | "interval" => {
                if let Some(d) = v.as_str().and_then(duration) {
                    out.insert(k.clone(), json!(d));
                }
            }
            "unhealthyThreshold" | "healthyThreshold" => {
                out.insert(k.clone(), v.clone());
            }
            "http" => {
                out.insert("httpHealthCheck".into(), v.clone());
            }
            "grpc" => {
                out.insert("grpcHealthCheck".into(), v.clone());
            }
            _ => {}
        }
    }
    Value::Object(out)
}

/// `30s` as whole seconds.
fn seconds(text: &str) -> Option<i64> {
    let d = duration(text)?;
    d.strip_suffix('s')?.split('.').next()?.parse().ok()
}

fn protocol_options(cluster: &mut Map<String, Value>, policy: &Map<String, Value>, h2: bool) {
    let common = policy.get("commonHttpProtocolOptions");
    let http1 = policy.get("http1ProtocolOptions");
    let http2 = policy.get("http2ProtocolOptions");
    if common.is_none() && http1.is_none() && !(h2 && http2.is_some()) {
        return;
    }
    let mut options = Map::new();
    if let Some(c) = common {
        let mut out = Map::new();
        for (k, v) in c.as_object().into_iter().flatten() {
            let v = match v.as_str().and_then(duration) {
                Some(d) => json!(d),
                None => v.clone(),
            };
            out.insert(k.clone(), v);
        }
        options.insert("commonHttpProtocolOptions".into(), Value::Object(out));
    }
    let explicit = if h2 {
        let mut out = Map::new();
        for (k, v) in http2.and_then(Value::as_object).into_iter().flatten() {
            let v = match (k.as_str(), v.as_str()) {
                ("initialStreamWindowSize" | "initialConnectionWindowSize", Some(q)) => {
                    super::policy::bytes(q).map_or(v.clone(), |b| json!(b))
                }
                _ => v.clone(),
            };
            out.insert(k.clone(), v);
        }
        json!({"http2ProtocolOptions": out})
    } else {
        let mut out = Map::new();
        for (k, v) in http1.and_then(Value::as_object).into_iter().flatten() {
            if k == "preserveHttp1HeaderCase" {
                if v.as_bool() == Some(true) {
                    out.insert(
                        "headerKeyFormat".into(),
                        json!({"statefulFormatter": {
                            "name": "envoy.http.stateful_header_formatters.preserve_case",
                            "typedConfig": typed(
                                "envoy.extensions.http.header_formatters.preserve_case.v3.PreserveCaseFormatterConfig",
                                json!({}),
                            ),
                        }}),
                    );
                }
            } else {
                out.insert(k.clone(), v.clone());
            }
        }
        json!({"httpProtocolOptions": out})
    };
    options.insert("explicitHttpConfig".into(), explicit);
    cluster.insert(
        "typedExtensionProtocolOptions".into(),
        json!({HTTP_OPTIONS: typed(HTTP_OPTIONS, Value::Object(options))}),
    );
}

/// The UpstreamTlsContext of a BackendConfigPolicy's `tls`: SNI, client certificate and CA from
/// a Secret (their contents printed as digests) or files (their paths), the system CAs,
/// subject alternative names.
fn upstream_tls(ctx: &Context<'_>, tls: &Value, namespace: &str) -> Value {
    let mut context = Map::new();
    if let Some(b) = tls.get("allowRenegotiation") {
        context.insert("allowRenegotiation".into(), b.clone());
    }
    let mut common = Map::new();
    let sans: Vec<Value> = tls
        .get("verifySubjectAltNames")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .map(|n| json!({"matcher": {"exact": n}, "sanType": "DNS"}))
        .collect();
    let mut validation = Map::new();
    if !sans.is_empty() {
        validation.insert("matchTypedSubjectAltNames".into(), Value::Array(sans));
    }
    key_material(ctx, tls, namespace, &mut common, &mut validation);
    // Simple TLS: the proxy verifies the backend and presents no client certificate.
    if tls.get("simpleTLS").and_then(Value::as_bool) == Some(true) {
        common.remove("tlsCertificates");
    }
    if let Some(alpn) = tls.get("alpnProtocols").filter(|v| v.is_array()) {
        common.insert("alpnProtocols".into(), alpn.clone());
    }
    if tls.get("wellKnownCACertificates").and_then(Value::as_str) == Some("System") {
        common.insert(
            "combinedValidationContext".into(),
            json!({
                "defaultValidationContext": validation,
                "validationContextSdsSecretConfig": {"name": "SYSTEM_CA_CERT"},
            }),
        );
    } else if tls.get("insecureSkipVerify").and_then(Value::as_bool) == Some(true) {
        common.insert("validationContext".into(), json!({}));
    } else if !validation.is_empty() {
        common.insert("validationContext".into(), Value::Object(validation));
    }
    if let Some(params) = tls.get("parameters") {
        common.insert("tlsParams".into(), tls_params(params));
    }
    context.insert("commonTlsContext".into(), Value::Object(common));
    if let Some(sni) = tls.get("sni") {
        context.insert("sni".into(), sni.clone());
    }
    super::upstream_tls(Value::Object(context))
}

/// The client certificate and trusted CA of a BackendConfigPolicy's `tls`: from its Secret
/// (printed as digests) or from files on the proxy (their paths).
fn key_material(
    ctx: &Context<'_>,
    tls: &Value,
    namespace: &str,
    common: &mut Map<String, Value>,
    validation: &mut Map<String, Value>,
) {
    if let Some(name) = tls.at("/secretRef/name").and_then(Value::as_str)
        && ctx.inputs.get("", "Secret", namespace, name).is_some()
    {
        let data = |key: &str| {
            super::settings::data(ctx, "Secret", namespace, name, key)
                .and_then(Value::as_str)
                .map(|b64| {
                    let text = crate::render::secret_data(b64).unwrap_or_else(|| b64.to_string());
                    json!({"inlineString": super::secret_digest(&text)})
                })
        };
        if let (Some(chain), Some(key)) = (data("tls.crt"), data("tls.key")) {
            common.insert(
                "tlsCertificates".into(),
                json!([{"certificateChain": chain, "privateKey": key}]),
            );
        }
        if let Some(ca) = data("ca.crt") {
            validation.insert("trustedCa".into(), ca);
        }
    }
    // Files on the proxy's filesystem: their paths as written (gwctl cannot read the proxy's
    // files; the reference reads them and rejects the policy when they are missing).
    if let Some(files) = tls.get("files") {
        let file = |key: &str| {
            files
                .get(key)
                .and_then(Value::as_str)
                .map(|path| json!({"filename": path}))
        };
        if let (Some(chain), Some(key)) = (file("tlsCertificate"), file("tlsKey")) {
            common.insert(
                "tlsCertificates".into(),
                json!([{"certificateChain": chain, "privateKey": key}]),
            );
        }
        if let Some(ca) = file("rootCA") {
            validation.insert("trustedCa".into(), ca);
        }
    }
}

/// `tls.parameters`: cipher suites, curves and protocol versions in Envoy's names.
fn tls_params(params: &Value) -> Value {
    let mut out = Map::new();
    for key in ["cipherSuites", "ecdhCurves"] {
        if let Some(v) = params.get(key) {
            out.insert(key.into(), v.clone());
        }
    }
    for (key, field) in [
        ("maxVersion", "tlsMaximumProtocolVersion"),
        ("minVersion", "tlsMinimumProtocolVersion"),
    ] {
        if let Some(v) = params.get(key).and_then(Value::as_str) {
            out.insert(field.into(), json!(super::tls_options::tls_version(v)));
        }
    }
    Value::Object(out)
}
