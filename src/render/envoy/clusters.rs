//! Clusters: as the reference does, every Service port of the inputs is an EDS cluster
//! `kube_<ns>_<svc>_<port>` and every Backend a cluster `backend_<ns>_<name>_0`, whether
//! a route reaches it or not; routes name them, or `blackhole-cluster` when a backendRef
//! cannot be resolved.

use std::collections::BTreeMap;

use serde_json::{Value, json};

use crate::render::pointer::Pointer;

use super::super::Context;
use super::{ads_source, backend_config, settings, typed};
use crate::model::Object;
use crate::model::facts::{GATEWAY_API, ObjRef};
use crate::model::facts_settings::BackendSettings;
use crate::text::{Decimal, join};

/// Where a backendRef that cannot be resolved sends traffic (its requests fail with 500).
pub const BLACKHOLE: &str = "blackhole-cluster";

pub const GATEWAY_GROUP: &str = "gateway.kgateway.dev";

/// What a backendRef reaches.
pub struct Target {
    pub cluster: String,
    /// `kubernetes.io/ws` and such: what the route must allow (upgrades).
    pub app_protocol: Option<String>,
    /// Found and permitted.
    pub resolved: bool,
    /// A dynamic forward proxy Backend: the listener needs the filter that resolves hosts.
    pub dynamic_forward_proxy: bool,
}

/// The name of the cluster of a Service port (`kube_<ns>_<name>_<port>`) or of a Backend
/// (`backend_<ns>_<name>_0`: a Backend is one cluster whatever port refers to it); `None` for
/// other kinds. Every place that names a cluster (routes, filters, JWKS providers) and the
/// clusters themselves take the name from here.
pub fn cluster_name(group: &str, kind: &str, ns: &str, name: &str, port: i64) -> Option<String> {
    match (group, kind) {
        ("", "Service") => {
            let port = Decimal::signed(port);
            Some(join(&["kube_", ns, "_", name, "_", port.as_str()]))
        }
        (GATEWAY_GROUP, "Backend") => Some(join(&["backend_", ns, "_", name, "_0"])),
        _ => None,
    }
}

impl Target {
    fn blackhole() -> Self {
        Target {
            cluster: BLACKHOLE.to_string(),
            app_protocol: None,
            resolved: false,
            dynamic_forward_proxy: false,
        }
    }
}

/// What [`target`] reads of a backendRef.
#[derive(Debug, Clone, Copy)]
pub struct BackendRef<'r> {
    /// Empty for the core group.
    pub group: &'r str,
    pub kind: &'r str,
    /// `None`: the route's namespace.
    pub namespace: Option<&'r str>,
    pub name: &'r str,
    pub port: Option<i64>,
}

impl<'r> BackendRef<'r> {
    /// A backendRef of the typed model (a rule's).
    pub fn typed(r: &'r ObjRef) -> Self {
        BackendRef {
            group: r.group().unwrap_or(""),
            kind: r.kind().unwrap_or("Service"),
            namespace: r.namespace(),
            name: &r.name,
            port: r.port,
        }
    }

    /// A backendRef as written in a filter (a request mirror's), which the typed model does not
    /// keep: filters are inherited by delegated rules as JSON.
    pub fn json(v: &'r Value) -> Self {
        let text = |key: &str| v.get(key).and_then(Value::as_str);
        BackendRef {
            group: text("group").unwrap_or(""),
            kind: text("kind").unwrap_or("Service"),
            namespace: text("namespace"),
            name: text("name").unwrap_or(""),
            port: v.field("port").and_then(Value::as_i64),
        }
    }
}

/// The cluster a route's backendRef reaches.
pub fn target(ctx: &Context<'_>, route: &Object, backend_ref: BackendRef<'_>) -> Target {
    let BackendRef {
        group,
        kind,
        name,
        port,
        ..
    } = backend_ref;
    let ns = backend_ref.namespace.unwrap_or(&route.id.namespace);
    let from = (
        GATEWAY_API,
        route.id.kind.as_str(),
        route.id.namespace.as_str(),
    );
    if ns != route.id.namespace && !ctx.inputs.granted(from, (group, kind, ns, name)) {
        return Target::blackhole();
    }
    match (group, kind) {
        ("", "Service") => {
            let Some(ports) = settings::service_ports_of(ctx, ns, name) else {
                return Target::blackhole();
            };
            let Some(port) = port else {
                return Target::blackhole();
            };
            let Some(p) = ports.iter().find(|p| p.port == Some(port)) else {
                return Target::blackhole();
            };
            Target {
                cluster: cluster_name(group, kind, ns, name, port).unwrap_or_default(),
                app_protocol: p.app_protocol.as_deref().map(str::to_string),
                resolved: true,
                dynamic_forward_proxy: false,
            }
        }
        (GATEWAY_GROUP, "Backend") => {
            // A Backend's ports are its own: a reference setting one is refused.
            if port.is_some() {
                return Target::blackhole();
            }
            let Some(backend) = ctx.inputs.get(GATEWAY_GROUP, "Backend", ns, name) else {
                return Target::blackhole();
            };
            let settings = settings::backend(ctx, backend);
            // A Backend no cluster is rendered for (no type: the API server refuses it) is as
            // good as missing: the route must not name a cluster that is not there.
            if settings.is_none_or(|s| backend_cluster(ctx, backend, s).is_none()) {
                return Target::blackhole();
            }
            Target {
                cluster: cluster_name(group, kind, ns, name, 0).unwrap_or_default(),
                app_protocol: settings
                    .and_then(|b| b.app_protocol.as_deref())
                    .map(str::to_string),
                resolved: true,
                dynamic_forward_proxy: settings.and_then(|b| b.kind.as_deref())
                    == Some("DynamicForwardProxy"),
            }
        }
        _ => Target::blackhole(),
    }
}

/// Every cluster, sorted by name.
pub fn render(ctx: &Context<'_>) -> Vec<(String, Value)> {
    let mut out: BTreeMap<String, Value> = BTreeMap::new();
    for svc in ctx.inputs.of_kind("", "Service") {
        for (pi, p) in settings::service_ports(ctx, svc).iter().enumerate() {
            let Some(port) = p.port else {
                continue;
            };
            let name = cluster_name("", "Service", &svc.id.namespace, &svc.id.name, port)
                .unwrap_or_default();
            if backend_config::rejected(ctx, svc, Some(pi)) {
                out.insert(name.clone(), backend_config::without_endpoints(&name));
                continue;
            }
            let app = p.app_protocol.as_deref();
            let mut cluster = service_cluster(&name, app);
            let policy = backend_config::effective(ctx, svc, Some(pi));
            if let Value::Object(fields) = &mut cluster {
                backend_config::apply(ctx, fields, &policy, speaks_h2(app), svc);
            }
            out.insert(name, cluster);
        }
    }
    for b in ctx.inputs.of_kind(GATEWAY_GROUP, "Backend") {
        let Some(settings) = settings::backend(ctx, b) else {
            continue;
        };
        if let Some((name, mut value)) = backend_cluster(ctx, b, settings) {
            if backend_config::rejected(ctx, b, None) {
                out.insert(name.clone(), backend_config::without_endpoints(&name));
                continue;
            }
            let policy = backend_config::effective(ctx, b, None);
            let app = settings.app_protocol.as_deref();
            if let Value::Object(fields) = &mut value {
                backend_config::apply(ctx, fields, &policy, speaks_h2(app), b);
            }
            out.insert(name, value);
        }
    }
    out.into_iter().collect()
}

fn service_cluster(name: &str, app_protocol: Option<&str>) -> Value {
    let mut c = json!({
        "connectTimeout": "5s",
        "edsClusterConfig": {"edsConfig": ads_source()},
        "ignoreHealthOnHostRemoval": true,
        "name": name,
        "type": "EDS",
    });
    if let Some(options) = protocol_options(app_protocol) {
        c["typedExtensionProtocolOptions"] = options;
    }
    c
}

/// The HTTP filter a route to a dynamic forward proxy Backend needs on its listener.
pub fn forward_proxy_filter() -> (String, Value) {
    let name = "envoy.filters.http.dynamic_forward_proxy";
    (
        name.to_string(),
        json!({
            "name": name,
            "typedConfig": typed(
                "envoy.extensions.filters.http.dynamic_forward_proxy.v3.FilterConfig",
                json!({"subClusterConfig": {}}),
            ),
        }),
    )
}

/// `h2c` and gRPC application protocols: HTTP/2 to the upstream.
fn speaks_h2(app_protocol: Option<&str>) -> bool {
    matches!(
        app_protocol,
        Some("kubernetes.io/h2c" | "h2c" | "grpc" | "http2")
    )
}

fn protocol_options(app_protocol: Option<&str>) -> Option<Value> {
    speaks_h2(app_protocol).then(|| {
        json!({
            "envoy.extensions.upstreams.http.v3.HttpProtocolOptions": typed(
                "envoy.extensions.upstreams.http.v3.HttpProtocolOptions",
                json!({"explicitHttpConfig": {"http2ProtocolOptions": {}}}),
            )
        })
    })
}

fn backend_cluster(
    ctx: &Context<'_>,
    b: &Object,
    spec: &BackendSettings,
) -> Option<(String, Value)> {
    let cluster = cluster_name(GATEWAY_GROUP, "Backend", &b.id.namespace, &b.id.name, 0)?;
    match spec.kind.as_deref()? {
        "Cloud" => {
            let c = super::cloud::cluster(ctx, b, &cluster, spec.cloud.as_deref()?)?;
            Some((cluster, c))
        }
        "DynamicForwardProxy" => {
            let mut c = json!({
                "clusterType": {
                    "name": "envoy.clusters.dynamic_forward_proxy",
                    "typedConfig": typed(
                        "envoy.extensions.clusters.dynamic_forward_proxy.v3.ClusterConfig",
                        json!({"subClustersConfig": {"lbPolicy": "LEAST_REQUEST"}}),
                    ),
                },
                "connectTimeout": "5s",
                "lbPolicy": "CLUSTER_PROVIDED",
                "name": cluster,
            });
            if spec.forward_proxy_tls {
                c["transportSocket"] = super::upstream_tls(json!({"commonTlsContext": {
                    "combinedValidationContext": {
                        "defaultValidationContext": {},
                        "validationContextSdsSecretConfig": {"name": "SYSTEM_CA_CERT"},
                    }
                }}));
            }
            Some((cluster, c))
        }
        "Static" => {
            let endpoints: Vec<Value> = spec
                .hosts
                .iter()
                .map(|(host, port)| {
                    json!({"endpoint": {
                        "address": {"socketAddress": {"address": host, "portValue": port}},
                        "healthCheckConfig": {"hostname": host},
                        "hostname": host,
                    }})
                })
                .collect();
            let app = spec.app_protocol.as_deref();
            let mut c = json!({
                "connectTimeout": "5s",
                "dnsLookupFamily": "V4_PREFERRED",
                "loadAssignment": {
                    "clusterName": cluster,
                    "endpoints": [{"lbEndpoints": endpoints}],
                },
                "name": cluster,
                "type": "STRICT_DNS",
            });
            if let Some(options) = protocol_options(app) {
                c["typedExtensionProtocolOptions"] = options;
            }
            Some((cluster, c))
        }
        _ => None,
    }
}
