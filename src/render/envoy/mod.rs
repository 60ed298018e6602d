//! Proxy-based Gateways: Envoy v3 Listeners, RouteConfigurations and Clusters, named as the
//! reference names them (decisions.md section 7).
//!
//! [`plan`] works out which routes reach which Gateway (or ListenerSet) listener; [`listeners`]
//! renders one Listener per port, [`routes`] the RouteConfigurations of its HTTP filter chains
//! (their entries, with route delegation, from [`entries`]), and [`clusters`] one Cluster per
//! Service port and Backend. Policies: TrafficPolicy as HTTP filters ([`policy`]),
//! HTTPListenerPolicy and ListenerPolicy on the Listener ([`listener_policy`]),
//! BackendConfigPolicy and BackendTLSPolicy on the Cluster ([`backend_config`]). An invalid rule
//! or policy is replaced by a direct response 500, never the whole Gateway (decisions.md section
//! 7); secret material is printed as [`secret_digest`]s.

mod backend_config;
mod backend_tls;
mod cloud;
mod clusters;
mod entries;
mod filters;
mod formatter;
mod listener_policy;
mod listeners;
mod load_balancer;
mod matches;
mod plan;
mod policy;
mod route;
mod route_check;
mod route_memo;
mod routes;
mod settings;
mod tls_options;
mod tracing;

use serde_json::{Value, json};

pub(crate) use super::secret_digest;
use super::{Context, DataPlane, RenderedGateway, RenderedResource};
use crate::model::Object;
use crate::status::proxy::XDS;

/// What every proxy-based Gateway's rendering shares, made once per render: the policy index,
/// the routes by parent, and the clusters (every Service port and Backend, the same for each
/// Gateway, so listed once in [`super::Rendered::clusters`]). Made per Gateway, they cost more
/// than the rest of its rendering in a repository of many Gateways.
pub struct Prepared<'c> {
    policies: policy::Policies<'c>,
    clusters: Vec<(String, Value)>,
    routes: plan::Routes,
}

impl<'c> Prepared<'c> {
    pub fn new(ctx: &'c Context<'c>) -> Self {
        Prepared {
            policies: policy::Policies::new(ctx),
            clusters: clusters::render(ctx),
            routes: plan::Routes::new(ctx),
        }
    }

    /// The clusters, as the rendering's shared resources.
    pub fn into_clusters(self) -> Vec<RenderedResource> {
        self.clusters
            .into_iter()
            .map(|(name, value)| resource("Clusters", "cluster", name, value))
            .collect()
    }
}

/// The routes by parent, as [`served`] needs them (without the rest of [`Prepared`]).
pub fn served_routes(ctx: &Context<'_>) -> plan::Routes {
    plan::Routes::new(ctx)
}

/// The listeners a Gateway programs and the routes each serves.
pub fn served<'c>(
    ctx: &Context<'c>,
    routes: &plan::Routes,
    gateway: &'c Object,
) -> Vec<super::ServedListener> {
    let plan = plan::Plan::new(ctx, routes, gateway);
    plan.listeners
        .iter()
        .map(|l| super::ServedListener {
            owner: super::kind_and_name(l.set.unwrap_or(gateway)),
            listener: l.name.to_string(),
            routes: l.routes.iter().map(|r| super::kind_and_name(r)).collect(),
        })
        .collect()
}

pub fn render_gateway<'c>(
    ctx: &'c Context<'c>,
    prepared: &Prepared<'c>,
    gateway: &Object,
) -> RenderedGateway {
    let mut out = RenderedGateway::new(gateway, DataPlane::Envoy);
    let plan = plan::Plan::new(ctx, &prepared.routes, gateway);
    let policies = &prepared.policies;
    // An invalid Gateway-level policy answers 500 on its route configurations (routes::render)
    // and programs nothing of its own.
    let gateway_policy = match policies.invalid_on_gateway(gateway, None) {
        Some(_) => policy::Applied::default(),
        None => policies.gateway(gateway).unwrap_or_default(),
    };
    let shared = routes::Shared {
        policies,
        gateway: &gateway_policy,
    };
    let (mut route_configs, filters_of) = route_configs(ctx, &plan, &shared, &mut out.replaced);
    let http_filters = |name: &str| {
        filters_of
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, f)| f.clone())
            .unwrap_or_default()
    };
    let listener_policies = listener_policy::ListenerPolicies::new(ctx, gateway);
    let metadata = gateway_policy.metadata_value();
    let mut listeners: Vec<Value> = plan
        .ports
        .iter()
        .filter_map(|port| {
            // A ListenerPolicy reaches a port through the Gateway's own listeners on it.
            let own = port
                .listeners
                .iter()
                .map(|&i| &plan.listeners[i])
                .find(|l| l.set.is_none())
                .map(|l| l.index);
            let settings = listener_policies.settings(own);
            listeners::render_port(
                ctx,
                &plan,
                port,
                &http_filters,
                metadata.as_ref(),
                &settings,
            )
        })
        .collect();
    for resource in listeners.iter_mut().chain(route_configs.iter_mut()) {
        if let Value::Object(fields) = resource {
            listener_policies.write_metadata(fields);
        }
    }
    for l in listeners {
        let name = l["name"].as_str().unwrap_or_default().to_string();
        out.resources
            .push(resource("Listeners", "listener", name, l));
    }
    for rc in route_configs {
        let name = rc["name"].as_str().unwrap_or_default().to_string();
        out.resources.push(resource("Routes", "route", name, rc));
    }
    out
}

/// The Gateway's RouteConfigurations, and the HTTP filters each declares (by its name).
type RouteConfigs = (Vec<Value>, Vec<(String, Vec<Value>)>);

/// The RouteConfigurations of every port of the plan; the routes the controller's check replaced
/// are added to `replaced`.
fn route_configs(
    ctx: &Context<'_>,
    plan: &plan::Plan<'_>,
    shared: &routes::Shared<'_, '_>,
    replaced: &mut Vec<super::ReplacedRoute>,
) -> RouteConfigs {
    let configs: Vec<listeners::RouteConfig> = plan
        .ports
        .iter()
        .flat_map(|port| listeners::route_configs(plan, port))
        .collect();
    // Every configuration's entries first: a route repeated among them is rendered once.
    let mut entries = route_memo::EntryMemo::default();
    let collected: Vec<routes::Collected<'_>> = configs
        .iter()
        .map(|rc| routes::collect(ctx, plan, rc, shared, &mut entries))
        .collect();
    drop(entries);
    let mut memo = route_memo::RouteMemo::counting(collected.iter().flat_map(|c| c.entries()));
    let mut values = Vec::new();
    let mut filters_of = Vec::new();
    for (rc, collected) in configs.iter().zip(collected) {
        let rendered = routes::render(ctx, plan, rc, collected, shared, &mut memo);
        replaced.extend(rendered.replaced);
        let filters = shared.policies.ordered(&rendered.declarations);
        filters_of.push((rc.name.clone(), filters));
        values.push(rendered.value);
    }
    (values, filters_of)
}

fn resource(
    section: &'static str,
    kind: &'static str,
    name: String,
    value: Value,
) -> RenderedResource {
    RenderedResource {
        section,
        kind,
        name,
        value,
    }
}

/// An `ads` config source, as every dynamic resource of the reference names its origin.
fn ads_source() -> Value {
    json!({"ads": {}, "resourceApiVersion": "V3"})
}

/// A typed config with its `@type`.
fn typed(type_url: &str, mut config: Value) -> Value {
    let mut out = serde_json::Map::new();
    out.insert(
        "@type".into(),
        Value::String(format!("type.googleapis.com/{type_url}")),
    );
    if let Value::Object(fields) = config.take() {
        out.extend(fields);
    }
    Value::Object(out)
}

/// The transport socket of a cluster that speaks TLS to its endpoints, with its
/// `UpstreamTlsContext`.
pub(crate) fn upstream_tls(context: Value) -> Value {
    json!({
        "name": "envoy.transport_sockets.tls",
        "typedConfig": typed("envoy.extensions.transport_sockets.tls.v3.UpstreamTlsContext", context),
    })
}

/// `ns_name` style pieces of resource names: dots become underscores.
fn underscored(host: &str) -> String {
    host.replace('.', "_")
}

/// A Kubernetes duration (`10s`, `1m30s`, `500ms`) as a protobuf Duration string (`10s`,
/// `90s`, `0.500s`); `None` when it does not parse.
fn duration(text: &str) -> Option<String> {
    let mut total_ms: u64 = 0;
    let mut rest = text.trim();
    if rest.is_empty() {
        return None;
    }
    while !rest.is_empty() {
        let digits = rest
            .find(|c: char| !c.is_ascii_digit() && c != '.')
            .unwrap_or(rest.len());
        let number: f64 = rest[..digits].parse().ok()?;
        rest = &rest[digits..];
        let unit_len = rest
            .find(|c: char| c.is_ascii_digit())
            .unwrap_or(rest.len());
        let factor = match &rest[..unit_len] {
            "h" => 3_600_000.0,
            "m" => 60_000.0,
            "s" => 1000.0,
            "ms" => 1.0,
            _ => return None,
        };
        rest = &rest[unit_len..];
        total_ms += (number * factor).round() as u64;
    }
    Some(if total_ms.is_multiple_of(1000) {
        format!("{}s", total_ms / 1000)
    } else {
        format!("{}.{:03}s", total_ms / 1000, total_ms % 1000)
    })
}

/// Rendering inline manifests, for the tests of the Envoy renderers.
#[cfg(test)]
pub(crate) mod testing {
    use serde_json::Value;

    use crate::lint::{LintOptions, lint_sources};
    use crate::render::{RenderOptions, render, render_options};
    use crate::source::SourceFile;

    /// The resource named `name` with a field `field` (a listener's `filterChains`, a route
    /// configuration's `virtualHosts`) of the first Gateway rendered from `docs`; `Null` when
    /// there is none.
    pub fn resource(docs: &str, name: &str, field: &str) -> Value {
        let run = lint_sources(
            vec![SourceFile::new(0, "test.yaml", docs.to_string())],
            &render_options(LintOptions::default()),
        );
        let rendered = render(&run, &RenderOptions::default());
        let resources = rendered.gateways.first().map(|g| &g.resources[..]);
        resources
            .into_iter()
            .flatten()
            .find(|r| r.value["name"] == name && r.value.get(field).is_some())
            .map(|r| r.value.clone())
            .unwrap_or_default()
    }

    #[test]
    fn the_gateway_annotation_sets_every_listeners_buffer_limit() {
        let gateway = |annotation: &str| {
            format!(
                "apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {{name: gw, namespace: default{annotation}}}
spec:
  gatewayClassName: kgateway
  listeners: [{{name: a, protocol: HTTP, port: 80}}, {{name: b, protocol: HTTP, port: 3000}}]"
            )
        };
        let annotated = gateway(", annotations: {kgateway.dev/per-connection-buffer-limit: 64Ki}");
        for port in [80, 3000] {
            let name = format!("listener~{port}");
            let listener = resource(&annotated, &name, "filterChains");
            assert_eq!(listener["perConnectionBufferLimitBytes"], 65536);
            let plain = resource(&gateway(""), &name, "filterChains");
            assert!(plain.get("perConnectionBufferLimitBytes").is_none());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations() {
        assert_eq!(duration("10s").as_deref(), Some("10s"));
        assert_eq!(duration("1m30s").as_deref(), Some("90s"));
        assert_eq!(duration("500ms").as_deref(), Some("0.500s"));
        assert_eq!(duration("1h").as_deref(), Some("3600s"));
        assert_eq!(duration("ten"), None);
        assert_eq!(duration(""), None);
    }
}
