//! Istio ServiceEntries, as the AI data plane receives them: one service per host (routes reach
//! it by `Hostname` backendRefs), one workload per endpoint, and the mesh's network gateways
//! (Gateways labelled with a network) that endpoints on another network are reached through.

use crate::render::base64;
use std::net::IpAddr;

use serde_json::{Map, Value, json};

use super::Context;
use crate::model::Object;
use crate::model::facts::{GATEWAY_API, Spec};

pub(super) const ISTIO_NETWORKING: &str = "networking.istio.io";
const NETWORK_LABEL: &str = "topology.istio.io/network";
/// The cluster the workloads are in, as the mesh names it.
const CLUSTER_ID: &str = "Kubernetes";

/// The services, workloads and network gateways, as output items.
pub(super) fn mesh(ctx: &Context<'_>) -> Vec<Value> {
    let gateways = network_gateways(ctx);
    let mut out = Vec::new();
    for entry in ctx.inputs.of_kind(ISTIO_NETWORKING, "ServiceEntry") {
        out.extend(workloads(entry, &gateways));
        out.extend(services(entry));
    }
    out.extend(gateways.iter().map(|g| g.item.clone()));
    out
}

/// An IP address as the data plane holds it: its bytes, base64.
fn address_bytes(ip: &str) -> Option<String> {
    Some(match ip.parse::<IpAddr>().ok()? {
        IpAddr::V4(v4) => base64::encode(&v4.octets()),
        IpAddr::V6(v6) => base64::encode(&v6.octets()),
    })
}

struct NetworkGateway {
    network: String,
    address: String,
    hbone_port: u64,
    item: Value,
}

/// Gateways labelled with a mesh network, with an address and an HBONE listener.
fn network_gateways(ctx: &Context<'_>) -> Vec<NetworkGateway> {
    let mut out = Vec::new();
    for gw in ctx.inputs.of_kind(GATEWAY_API, "Gateway") {
        let Some(facts) = ctx.inputs.facts_at(gw) else {
            continue;
        };
        // A label written twice has its last value, as in JSON.
        let Some((_, network)) = facts.labels.iter().rev().find(|(k, _)| k == NETWORK_LABEL) else {
            continue;
        };
        let Some(ip) = ctx
            .inputs
            .gateway_settings(gw)
            .and_then(|g| g.address.as_deref())
        else {
            continue;
        };
        let Some(port) = facts
            .listeners()
            .iter()
            .find(|l| l.protocol == "HBONE")
            .and_then(super::gateway::port)
        else {
            continue;
        };
        let Some(address) = address_bytes(ip) else {
            continue;
        };
        let name = format!("NetworkGateway/{network}/{ip}/{port}");
        let class = match &facts.spec {
            Spec::Gateway { class: Some(c), .. } => &*c.name,
            _ => "",
        };
        out.push(NetworkGateway {
            network: network.to_string(),
            address: address.clone(),
            hbone_port: port,
            item: json!({
                "addresses": [address],
                "name": name,
                "namespace": gw.id.namespace,
                "network": network,
                "serviceAccount": format!("{}-{class}", gw.id.name),
                "uid": name,
            }),
        });
    }
    out
}

/// The entry's ports toward one endpoint: each service port and the endpoint's port for it
/// (the endpoint's own mapping by port name, else the entry's targetPort, else the same).
fn ports(entry: &Value, endpoint: Option<&Value>) -> Vec<Value> {
    entry["spec"]["ports"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|p| {
            let number = &p["number"];
            let target = p["name"]
                .as_str()
                .and_then(|n| endpoint.and_then(|e| e["ports"].get(n)))
                .or_else(|| p.get("targetPort"))
                .unwrap_or(number);
            json!({"servicePort": number, "targetPort": target})
        })
        .collect()
}

fn workloads(entry: &Object, gateways: &[NetworkGateway]) -> Vec<Value> {
    let (ns, name) = (&entry.id.namespace, &entry.id.name);
    let hosts: Vec<&str> = entry.value["spec"]["hosts"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .collect();
    let mut out = Vec::new();
    for e in entry.value["spec"]["endpoints"]
        .as_array()
        .into_iter()
        .flatten()
    {
        let Some(address) = e["address"].as_str() else {
            continue;
        };
        let mut w = Map::new();
        match address_bytes(address) {
            Some(bytes) => w.insert("addresses".into(), json!([bytes])),
            None => w.insert("hostname".into(), address.into()),
        };
        w.insert("canonicalName".into(), name.as_str().into());
        w.insert("canonicalRevision".into(), "latest".into());
        w.insert("clusterId".into(), CLUSTER_ID.into());
        if let Some((region, zone)) = e["locality"].as_str().and_then(|l| l.split_once('/')) {
            // region/zone[/subzone]
            let (zone, subzone) = zone
                .split_once('/')
                .map_or((zone, None), |(z, s)| (z, Some(s)));
            let mut locality = json!({"region": region, "zone": zone});
            if let Some(s) = subzone {
                locality["subzone"] = s.into();
            }
            w.insert("locality".into(), locality);
        }
        w.insert("name".into(), name.as_str().into());
        w.insert("namespace".into(), ns.as_str().into());
        if let Some(network) = e["network"].as_str() {
            w.insert("network".into(), network.into());
            if let Some(g) = gateways.iter().find(|g| g.network == network) {
                w.insert(
                    "networkGateway".into(),
                    json!({
                        "address": {"address": g.address, "network": network},
                        "hboneMtlsPort": g.hbone_port,
                    }),
                );
            }
        }
        if let Some(sa) = e.get("serviceAccount") {
            w.insert("serviceAccount".into(), sa.clone());
        }
        let services: Map<String, Value> = hosts
            .iter()
            .map(|h| {
                (
                    format!("{ns}/{h}"),
                    json!({ "ports": ports(&entry.value, Some(e)) }),
                )
            })
            .collect();
        w.insert("services".into(), services.into());
        w.insert(
            "uid".into(),
            format!("{CLUSTER_ID}/{ISTIO_NETWORKING}/ServiceEntry/{ns}/{name}/{address}").into(),
        );
        w.insert("workloadName".into(), name.as_str().into());
        w.insert("workloadType".into(), "POD".into());
        out.push(Value::Object(w));
    }
    out
}

/// One service per host of the entry, with the entry's virtual addresses.
fn services(entry: &Object) -> Vec<Value> {
    let spec = &entry.value["spec"];
    let addresses: Vec<Value> = spec["addresses"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|a| address_bytes(a.as_str()?))
        .map(|b| json!({ "address": b }))
        .collect();
    let ports: Vec<Value> = ports(&entry.value, None)
        .into_iter()
        .zip(spec["ports"].as_array().into_iter().flatten())
        .map(|(mut port, p)| {
            if let Some(a) = p["protocol"].as_str().and_then(protocol) {
                port["appProtocol"] = a.into();
            }
            port
        })
        .collect();
    spec["hosts"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .map(|host| {
            let mut s = Map::new();
            if !addresses.is_empty() {
                s.insert("addresses".into(), addresses.clone().into());
            }
            s.insert("hostname".into(), host.into());
            s.insert("name".into(), entry.id.name.as_str().into());
            s.insert("namespace".into(), entry.id.namespace.as_str().into());
            s.insert("ports".into(), ports.clone().into());
            Value::Object(s)
        })
        .collect()
}

/// The data plane's protocol for a ServiceEntry port's protocol, when it has one.
fn protocol(written: &str) -> Option<&'static str> {
    match written.to_ascii_uppercase().as_str() {
        "HTTP" => Some("HTTP11"),
        "HTTP2" | "GRPC" => Some("HTTP2"),
        _ => None,
    }
}
