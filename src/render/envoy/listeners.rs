//! One Envoy Listener per port: the HTTP listeners of the port share one filter chain
//! `listener~<port>`; each HTTPS listener has its own, named after it and matched by SNI; TCP
//! and TLS listeners have one chain per route rule, a TCP proxy to its backends.

use crate::render::base64;
use crate::render::pointer::Pointer;
use serde_json::{Value, json};

use super::super::Context;
use super::clusters::{self, Target};
use super::listener_policy::Settings;
use super::plan::{GwListener, Plan, Port, array, domains};
use super::{ads_source, secret_digest, tls_options, typed};
use crate::render::json::object;

/// A RouteConfiguration to render: its name and the listeners whose routes it holds.
pub struct RouteConfig {
    pub name: String,
    pub listeners: Vec<usize>,
    /// An HTTPS listener's own configuration (not the port's shared HTTP one).
    pub https: bool,
    /// Every virtual host requires TLS.
    pub tls: bool,
}

/// The route configurations of a port's HTTP filter chains.
pub fn route_configs(plan: &Plan<'_>, port: &Port) -> Vec<RouteConfig> {
    let mut out = Vec::new();
    let http: Vec<usize> = port
        .listeners
        .iter()
        .copied()
        .filter(|&i| plan.listeners[i].protocol == "HTTP")
        .collect();
    if !http.is_empty() {
        out.push(RouteConfig {
            name: format!("listener~{}", port.port),
            listeners: http,
            https: false,
            tls: false,
        });
    }
    for &i in &port.listeners {
        let l = &plan.listeners[i];
        if l.protocol == "HTTPS" {
            out.push(RouteConfig {
                name: match l.set {
                    None => l.name.to_string(),
                    Some(set) => format!("{}/{}/{}", set.id.namespace, set.id.name, l.name),
                },
                listeners: vec![i],
                https: true,
                // Virtual hosts require TLS where the listener terminates it.
                tls: l.typed.tls.as_ref().is_some_and(|t| t.certificates),
            });
        }
    }
    out
}

/// The Listener of a port, with the Gateway's HTTP filters on its HTTP chains and the metadata
/// of its Gateway-level policies.
/// `None` when it would have no filter chain (only TCP or TLS listeners without routes).
pub fn render_port(
    ctx: &Context<'_>,
    plan: &Plan<'_>,
    port: &Port,
    http_filters: &dyn Fn(&str) -> Vec<Value>,
    metadata: Option<&Value>,
    settings: &Settings,
) -> Option<Value> {
    let mut chains: Vec<Value> = Vec::new();
    for rc in route_configs(plan, port) {
        let mut filters = settings.first_filters.clone();
        filters.extend(http_filters(&rc.name));
        let mut chain = object([
            (
                "filters",
                Value::Array(vec![hcm(&rc.name, filters, settings)]),
            ),
            ("name", Value::String(rc.name.clone())),
        ]);
        if rc.https {
            let l = &plan.listeners[rc.listeners[0]];
            if let Some(host) = l.hostname {
                chain["filterChainMatch"] = json!({"serverNames": [host]});
            }
            if l.typed.tls.as_ref().is_some_and(|t| t.certificates) {
                chain["transportSocket"] = downstream_tls(ctx, plan, l, true);
            }
        }
        chains.push(chain);
    }
    for &i in &port.listeners {
        let l = &plan.listeners[i];
        if matches!(l.protocol, "TCP" | "TLS") {
            tcp_chains(ctx, port.port, l, &mut chains, plan);
        }
    }
    if chains.is_empty() {
        return None;
    }
    chains.sort_by(|a, b| a["name"].as_str().cmp(&b["name"].as_str()));
    let mut listener = object([
        (
            "address",
            json!({"socketAddress": {"address": "::", "ipv4Compat": true, "portValue": port.port}}),
        ),
        ("filterChains", Value::Array(chains)),
        ("name", Value::String(format!("listener~{}", port.port))),
    ]);
    let http = listener["filterChains"].as_array().is_some_and(|cs| {
        cs.iter()
            .any(|c| c.at("/filters/0/typedConfig/rds").is_some())
    });
    if let (true, Some(m)) = (http, metadata) {
        listener["metadata"] = m.clone();
    }
    let sni = listener["filterChains"].as_array().is_some_and(|cs| {
        cs.iter()
            .any(|c| c.at("/filterChainMatch/serverNames").is_some())
    });
    let mut listener_filters = settings.listener_filters.clone();
    if sni {
        listener_filters.push(json!({
            "name": "envoy.filters.listener.tls_inspector",
            "typedConfig": typed("envoy.extensions.filters.listener.tls_inspector.v3.TlsInspector", json!({})),
        }));
    }
    if !listener_filters.is_empty() {
        listener["listenerFilters"] = Value::Array(listener_filters);
    }
    if let Value::Object(fields) = &mut listener {
        // The Gateway's annotation first: a ListenerPolicy's own limit replaces it.
        let annotated = ctx
            .inputs
            .gateway_settings(plan.gateway)
            .and_then(|g| g.buffer_limit.as_deref())
            .and_then(|q| super::policy::quantity(&Value::String(q.to_string())));
        if let Some(limit) = annotated {
            fields.insert("perConnectionBufferLimitBytes".into(), json!(limit));
        }
        fields.extend(settings.listener.clone());
    }
    Some(listener)
}

fn hcm(route_config: &str, mut http_filters: Vec<Value>, settings: &Settings) -> Value {
    http_filters.push(json!({
        "name": "envoy.filters.http.router",
        "typedConfig": typed("envoy.extensions.filters.http.router.v3.Router", json!({})),
    }));
    let mut config = object([
        ("httpFilters", Value::Array(http_filters)),
        ("mergeSlashes", Value::Bool(true)),
        ("normalizePath", Value::Bool(true)),
        (
            "rds",
            json!({"configSource": ads_source(), "routeConfigName": route_config}),
        ),
        ("statPrefix", json!("http")),
        ("useRemoteAddress", Value::Bool(true)),
    ]);
    if let Value::Object(fields) = &mut config {
        fields.extend(settings.hcm.clone());
    }
    object([
        (
            "name",
            json!("envoy.filters.network.http_connection_manager"),
        ),
        (
            "typedConfig",
            typed(
                "envoy.extensions.filters.network.http_connection_manager.v3.HttpConnectionManager",
                config,
            ),
        ),
    ])
}

/// TCP and TLS listeners: a chain per rule of each attached TCPRoute or TLSRoute.
fn tcp_chains(
    ctx: &Context<'_>,
    port: i64,
    l: &GwListener<'_>,
    chains: &mut Vec<Value>,
    plan: &Plan<'_>,
) {
    let terminate = crate::status::terminates_tls(l.typed);
    for route in &l.routes {
        if !matches!(route.id.kind.as_str(), "TCPRoute" | "TLSRoute") {
            continue;
        }
        let typed_route = super::entries::typed_route(ctx, route);
        let hostnames: Vec<&str> = typed_route.hostnames.iter().map(String::as_str).collect();
        for ri in 0..typed_route.rules.len() {
            let name = format!(
                "listener~{port}-{}.{}-rule-{ri}",
                route.id.namespace, route.id.name
            );
            let mut proxy = json!({"statPrefix": name});
            let targets: Vec<(Target, i64)> = typed_route
                .rule_backends(ri)
                .map(|(b, weight)| {
                    let b = clusters::BackendRef::typed(b);
                    (clusters::target(ctx, route, b), weight)
                })
                .collect();
            match targets.as_slice() {
                [] => proxy["cluster"] = json!(clusters::BLACKHOLE),
                [(t, _)] => proxy["cluster"] = json!(t.cluster),
                many => {
                    let list: Vec<Value> = many
                        .iter()
                        .filter(|(_, w)| *w > 0)
                        .map(|(t, w)| json!({"name": t.cluster, "weight": w}))
                        .collect();
                    proxy["weightedClusters"] = json!({"clusters": list});
                }
            }
            let mut chain = json!({
                "filters": [{
                    "name": "envoy.filters.network.tcp_proxy",
                    "typedConfig": typed("envoy.extensions.filters.network.tcp_proxy.v3.TcpProxy", proxy),
                }],
                "name": name,
            });
            if l.protocol == "TLS" {
                let names = if route.id.kind == "TLSRoute" {
                    domains(l.hostname, &hostnames)
                } else {
                    l.hostname.map(|h| vec![h.to_string()]).unwrap_or_default()
                };
                let names: Vec<String> = names.into_iter().filter(|n| n != "*").collect();
                if !names.is_empty() {
                    chain["filterChainMatch"] = json!({"serverNames": names});
                }
            }
            // A TLSRoute passes TLS through whatever the listener's mode.
            if terminate && route.id.kind == "TCPRoute" {
                chain["transportSocket"] = downstream_tls(ctx, plan, l, false);
            }
            chains.push(chain);
        }
    }
}

/// The TLS context of a terminating listener: its certificates, options and client validation.
fn downstream_tls(ctx: &Context<'_>, plan: &Plan<'_>, l: &GwListener<'_>, http: bool) -> Value {
    let certs = certificates(ctx, plan, l);
    let mut common = json!({"tlsCertificates": certs, "tlsParams": {}});
    let option = |key: &str| l.typed.tls.as_ref().and_then(|t| t.option(key));
    tls_params(&mut common, option, http);
    let mut validation = serde_json::Map::new();
    if let Some(names) = option("kgateway.dev/verify-subject-alt-names") {
        let sans: Vec<Value> = tls_options::split_list(names, ',')
            .into_iter()
            .map(|n| json!({"matcher": {"exact": n}, "sanType": "DNS"}))
            .collect();
        validation.insert("matchTypedSubjectAltNames".into(), Value::Array(sans));
    }
    // Client certificates (the Gateway's frontend TLS validation for the port).
    let client = frontend_validation(ctx, plan, l);
    if let Some((Some(ca), _)) = &client {
        validation.insert(
            "trustedCa".into(),
            // The digest of the bundle's bytes, as of any bytes shown.
            json!({"inlineBytes": base64::decode(ca)
                .map_or_else(|| secret_digest(ca), |b| crate::secrets::digest_bytes(&b))}),
        );
    }
    if let Some(hashes) = option("kgateway.dev/verify-certificate-hash") {
        validation.insert(
            "verifyCertificateHash".into(),
            json!(tls_options::certificate_hashes(hashes)),
        );
    }
    if !validation.is_empty() {
        common["validationContext"] = Value::Object(validation);
    }
    let mut context = json!({"commonTlsContext": common});
    // Without a CA to check them with, client certificates are neither asked for nor required.
    if let Some((Some(_), require)) = client {
        context["requireClientCertificate"] = json!(require);
    }
    json!({
        "name": "envoy.transport_sockets.tls",
        "typedConfig": typed(
            "envoy.extensions.transport_sockets.tls.v3.DownstreamTlsContext",
            context,
        ),
    })
}

/// A terminating listener's certificates, the secret material replaced by digests.
fn certificates(ctx: &Context<'_>, plan: &Plan<'_>, l: &GwListener<'_>) -> Vec<Value> {
    let gw_ns = l.set.unwrap_or(plan.gateway).id.namespace.as_str();
    let mut certs = Vec::new();
    for r in &l.typed.certificate_refs {
        let ns = r.namespace().unwrap_or(gw_ns);
        let name = &*r.name;
        if ctx.inputs.get("", "Secret", ns, name).is_none() {
            continue;
        }
        let data = |key: &str| {
            super::settings::data(ctx, "Secret", ns, name, key)
                .and_then(Value::as_str)
                .map(secret_digest)
                .unwrap_or_default()
        };
        certs.push(json!({
            "certificateChain": {"inlineBytes": data("tls.crt")},
            "privateKey": {"inlineBytes": data("tls.key")},
        }));
    }
    certs
}

/// The listener's TLS options (ALPN, cipher suites, curves, protocol versions) as the common
/// TLS context's parameters; an HTTP listener offers h2 and http/1.1 unless told otherwise.
fn tls_params<'o>(common: &mut Value, option: impl Fn(&str) -> Option<&'o str>, http: bool) {
    match option("kgateway.dev/alpn-protocols") {
        Some("allow-empty") => {}
        Some(list) => common["alpnProtocols"] = json!(tls_options::split_list(list, ',')),
        None if http => common["alpnProtocols"] = json!(["h2", "http/1.1"]),
        None => {}
    }
    for (field, value) in tls_options::params(option) {
        common["tlsParams"][field.as_str()] = value;
    }
}

/// The Gateway's `tls.frontend` validation for a listener's port (its `perPort` entry, else the
/// default): the CA bundle (base64, as Envoy's inline bytes) and whether a client certificate
/// is required (`AllowValidOnly`) or only checked when sent (`AllowInsecureFallback`).
fn frontend_validation(
    ctx: &Context<'_>,
    plan: &Plan<'_>,
    l: &GwListener<'_>,
) -> Option<(Option<String>, bool)> {
    let validation = crate::status::frontend_validation(ctx, plan.gateway, Some(l.port))?;
    let gw = &plan.gateway.id;
    let mut bundle = String::new();
    for r in array(validation, "/caCertificateRefs") {
        let ns = r
            .get("namespace")
            .and_then(Value::as_str)
            .unwrap_or(&gw.namespace);
        let name = r.get("name").and_then(Value::as_str).unwrap_or("");
        // A CA in another namespace needs a ReferenceGrant; without it, it is left out.
        let from = (gw.group.as_str(), gw.kind.as_str(), gw.namespace.as_str());
        if ns != gw.namespace && !ctx.inputs.granted(from, ("", "ConfigMap", ns, name)) {
            continue;
        }
        if let Some(ca) =
            super::settings::data(ctx, "ConfigMap", ns, name, "ca.crt").and_then(Value::as_str)
        {
            bundle.push_str(ca);
        }
    }
    let require = validation.get("mode").and_then(Value::as_str) != Some("AllowInsecureFallback");
    let ca = (!bundle.is_empty()).then(|| base64::encode(bundle.as_bytes()));
    Some((ca, require))
}
