//! The cluster names a rendered Gateway refers to (routes, TCP proxies, mirrors, filters' gRPC
//! and HTTP services, JWKS providers) that no rendered cluster has: part of `render --check`,
//! since Envoy would reject the listener or answer 503 where the reference's output works.

use serde_json::Value;

use super::proto::Failure;
use super::{DataPlane, RenderedGateway, RenderedResource};
use crate::fasthash::FastSet;

/// Where routes go when a backendRef cannot be resolved: the reference names this cluster on
/// purpose without programming it (with `clusterNotFoundResponseCode`), so it never dangles.
const BLACKHOLE: &str = "blackhole-cluster";

/// One cluster name a resource of a Gateway refers to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClusterRef {
    /// `Gateway namespace/name`.
    pub owner: String,
    pub section: &'static str,
    pub resource: String,
    /// Where in the resource: `virtualHosts[0].routes[1].route.cluster`.
    pub path: String,
    pub cluster: String,
}

/// The cluster names an Envoy Gateway's Listeners and Routes refer to (none for the AI data
/// plane, whose resources are not Envoy's).
pub fn cluster_refs(gateway: &RenderedGateway) -> Vec<ClusterRef> {
    let mut out = Vec::new();
    if gateway.data_plane != DataPlane::Envoy {
        return out;
    }
    let owner = format!("Gateway {}/{}", gateway.namespace, gateway.name);
    for r in &gateway.resources {
        let mut found = Vec::new();
        walk(&r.value, &mut String::new(), &mut found);
        out.extend(found.into_iter().map(|(path, cluster)| ClusterRef {
            owner: owner.clone(),
            section: r.section,
            resource: r.name.clone(),
            path,
            cluster,
        }));
    }
    out
}

/// The references among `refs` to a cluster that `clusters` does not hold.
pub fn dangling(refs: &[ClusterRef], clusters: &[RenderedResource]) -> Vec<Failure> {
    let names: FastSet<&str> = clusters.iter().map(|c| c.name.as_str()).collect();
    refs.iter()
        .filter(|r| r.cluster != BLACKHOLE && !names.contains(r.cluster.as_str()))
        .map(|r| Failure {
            owner: r.owner.clone(),
            section: r.section,
            resource: r.resource.clone(),
            reason: format!(
                "{}: cluster {:?} is not among the rendered clusters",
                r.path, r.cluster
            ),
        })
        .collect()
}

/// Collects (path, name) of every cluster reference below `v`: a string `cluster` (route
/// actions, TCP proxies, mirrors, HTTP URIs), a string `clusterName` outside a cluster's own
/// `loadAssignment` (gRPC services), and the `name`s of `weightedClusters.clusters`.
fn walk(v: &Value, path: &mut String, out: &mut Vec<(String, String)>) {
    let len = path.len();
    match v {
        Value::Object(map) => {
            for (key, x) in map {
                if !path.is_empty() {
                    path.push('.');
                }
                path.push_str(key);
                match (key.as_str(), x) {
                    ("cluster" | "clusterName", Value::String(name)) => {
                        if !path.ends_with("loadAssignment.clusterName") {
                            out.push((path.clone(), name.clone()));
                        }
                    }
                    ("weightedClusters", _) => {
                        let clusters = x.get("clusters").and_then(Value::as_array);
                        for (i, c) in clusters.into_iter().flatten().enumerate() {
                            if let Some(name) = c.get("name").and_then(Value::as_str) {
                                out.push((format!("{path}.clusters[{i}].name"), name.to_string()));
                            }
                        }
                    }
                    _ => walk(x, path, out),
                }
                path.truncate(len);
            }
        }
        Value::Array(items) => {
            for (i, x) in items.iter().enumerate() {
                path.push_str(&format!("[{i}]"));
                walk(x, path, out);
                path.truncate(len);
            }
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn gateway(value: Value) -> RenderedGateway {
        RenderedGateway {
            namespace: "infra".into(),
            name: "edge".into(),
            data_plane: DataPlane::Envoy,
            resources: vec![RenderedResource {
                section: "Routes",
                kind: "route",
                name: "listener~80".into(),
                value,
            }],
            statuses: Value::Null,
            replaced: Vec::new(),
        }
    }

    fn cluster(name: &str) -> RenderedResource {
        RenderedResource {
            section: "Clusters",
            kind: "cluster",
            name: name.into(),
            value: json!({"name": name}),
        }
    }

    #[test]
    fn a_reference_to_a_cluster_not_rendered_names_gateway_resource_path_and_cluster() {
        let g = gateway(json!({"virtualHosts": [{"routes": [
            {"route": {"cluster": "kube_a_web_80"}},
            {"route": {"weightedClusters": {"clusters": [{"name": "kube_a_web_80"}, {"name": "kube_a_gone_80"}]}}},
            {"route": {"cluster": "blackhole-cluster"}},
        ]}], "typedPerFilterConfig": {"jwt": {"httpUri": {"cluster": "kube_a_idp_0"}},
            "ext": {"grpcService": {"envoyGrpc": {"clusterName": "kube_a_authz_9000"}}}}}));
        let refs = cluster_refs(&g);
        assert_eq!(refs.len(), 6);
        let failures: Vec<String> = dangling(
            &refs,
            &[cluster("kube_a_web_80"), cluster("kube_a_authz_9000")],
        )
        .iter()
        .map(ToString::to_string)
        .collect();
        assert_eq!(
            failures,
            [
                "Gateway infra/edge: Routes listener~80: virtualHosts[0].routes[1].route.weightedClusters.clusters[1].name: cluster \"kube_a_gone_80\" is not among the rendered clusters",
                "Gateway infra/edge: Routes listener~80: typedPerFilterConfig.jwt.httpUri.cluster: cluster \"kube_a_idp_0\" is not among the rendered clusters",
            ]
        );
    }

    #[test]
    fn a_clusters_own_load_assignment_and_the_ai_data_plane_refer_to_nothing() {
        let g = gateway(json!({"loadAssignment": {"clusterName": "x"}}));
        assert_eq!(cluster_refs(&g), []);
        let mut ai = gateway(json!({"route": {"cluster": "x"}}));
        ai.data_plane = DataPlane::Ai;
        assert_eq!(cluster_refs(&ai), []);
    }
}
