//! A BackendConfigPolicy's `loadBalancer`: the cluster's common load balancing settings and its
//! load balancing policy (one typed extension per algorithm), as the reference writes them.

use serde_json::{Map, Value, json};

use super::{duration, typed};
use crate::render::pointer::Pointer;

/// Writes `lb` on `cluster` (whose `type` is set already); `owner` names the policy, for the
/// slow start's runtime key.
pub(super) fn apply(cluster: &mut Map<String, Value>, lb: &Value, owner: &str) {
    let mut common = Map::new();
    if let Some(b) = lb.get("closeConnectionsOnHostSetChange") {
        common.insert("closeConnectionsOnHostSetChange".into(), b.clone());
    }
    // A Percent (a double), written as the number the policy gives.
    if let Some(p) = lb.get("healthyPanicThreshold").filter(|v| v.is_number()) {
        common.insert("healthyPanicThreshold".into(), json!({"value": p}));
    }
    if let Some(w) = lb
        .get("updateMergeWindow")
        .and_then(Value::as_str)
        .and_then(duration)
    {
        common.insert("updateMergeWindow".into(), json!(w));
    }
    cluster.insert("commonLbConfig".into(), Value::Object(common));
    let policy = |name: &str, type_url: &str, config: Value| {
        json!({"policies": [{"typedExtensionConfig": {
            "name": format!("envoy.load_balancing_policies.{name}"),
            "typedConfig": typed(type_url, config),
        }}]})
    };
    let weighted = lb.get("localityType").and_then(Value::as_str) == Some("WeightedLb");
    let locality = |config: &mut Value| {
        if weighted {
            config["localityLbConfig"] = json!({"localityWeightedLbConfig": {}});
        }
    };
    let value = if let Some(lr) = lb.get("leastRequest") {
        let mut config = json!({});
        if let Some(c) = lr.get("choiceCount") {
            config["choiceCount"] = c.clone();
        }
        locality(&mut config);
        policy(
            "least_request",
            "envoy.extensions.load_balancing_policies.least_request.v3.LeastRequest",
            config,
        )
    } else if let Some(rh) = lb.get("ringHash") {
        let mut config = json!({});
        for k in ["minimumRingSize", "maximumRingSize"] {
            if let Some(v) = rh.get(k).and_then(Value::as_i64) {
                // uint64 fields are strings in proto JSON.
                config[k] = json!(v.to_string());
            }
        }
        consistent_hashing(&mut config, rh, cluster, weighted);
        policy(
            "ring_hash",
            "envoy.extensions.load_balancing_policies.ring_hash.v3.RingHash",
            config,
        )
    } else if let Some(m) = lb.get("maglev") {
        let mut config = json!({});
        consistent_hashing(&mut config, m, cluster, weighted);
        policy(
            "maglev",
            "envoy.extensions.load_balancing_policies.maglev.v3.Maglev",
            config,
        )
    } else if lb.get("random").is_some() {
        policy(
            "random",
            "envoy.extensions.load_balancing_policies.random.v3.Random",
            json!({}),
        )
    } else {
        let mut config = json!({});
        locality(&mut config);
        if let Some(slow) = lb.at("/roundRobin/slowStart") {
            config["slowStartConfig"] = slow_start(slow, owner);
        }
        policy(
            "round_robin",
            "envoy.extensions.load_balancing_policies.round_robin.v3.RoundRobin",
            config,
        )
    };
    cluster.insert("loadBalancingPolicy".into(), value);
}

/// Round robin slow start: its window, aggression (a runtime value keyed by the policy) and
/// minimum weight.
fn slow_start(slow: &Value, owner: &str) -> Value {
    let mut out = Map::new();
    if let Some(a) = slow.get("aggression") {
        let value = a
            .as_f64()
            .or_else(|| a.as_str().and_then(|t| t.parse().ok()))
            .unwrap_or(1.0);
        out.insert(
            "aggression".into(),
            json!({"defaultValue": value, "runtimeKey": format!("{owner}.slowStart.aggression")}),
        );
    }
    if let Some(m) = slow.get("minWeightPercent") {
        out.insert("minWeightPercent".into(), json!({"value": m}));
    }
    if let Some(w) = slow
        .get("window")
        .and_then(Value::as_str)
        .and_then(duration)
    {
        out.insert("slowStartWindow".into(), json!(w));
    }
    Value::Object(out)
}

/// A ring hash's or maglev's `consistentHashingLbConfig`, when `useHostnameForHashing` or
/// `hashPolicies` is written, and its locality setting (`weighted`: `localityType: WeightedLb`). Hashing on hostnames needs the
/// hostnames a STRICT_DNS cluster resolves: on another cluster the controller turns it off.
fn consistent_hashing(
    config: &mut Value,
    algorithm: &Value,
    cluster: &Map<String, Value>,
    weighted: bool,
) {
    let hostnames = algorithm
        .get("useHostnameForHashing")
        .and_then(Value::as_bool);
    let policies: Vec<Value> = algorithm
        .get("hashPolicies")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .map(hash_policy)
        .collect();
    if hostnames.is_some() || !policies.is_empty() {
        let mut hashing = Map::new();
        let strict_dns = cluster.get("type").and_then(Value::as_str) == Some("STRICT_DNS");
        // False is the field's zero value, left unwritten.
        if hostnames == Some(true) && strict_dns {
            hashing.insert("useHostnameForHashing".into(), json!(true));
        }
        if !policies.is_empty() {
            hashing.insert("hashPolicy".into(), Value::Array(policies));
        }
        config["consistentHashingLbConfig"] = Value::Object(hashing);
    }
    if weighted {
        config["localityWeightedLbConfig"] = json!({});
    }
}

/// One of `hashPolicies` as a route action's HashPolicy: a header, a cookie (with its
/// attributes), or the source IP; `terminal` as written.
fn hash_policy(p: &Value) -> Value {
    let mut out = Map::new();
    if let Some(name) = p.at("/header/name") {
        out.insert("header".into(), json!({"headerName": name}));
    } else if let Some(c) = p.get("cookie") {
        let mut cookie = Map::new();
        if let Some(name) = c.get("name") {
            cookie.insert("name".into(), name.clone());
        }
        if let Some(ttl) = c.get("ttl").and_then(Value::as_str).and_then(duration) {
            cookie.insert("ttl".into(), json!(ttl));
        }
        if let Some(path) = c.get("path") {
            cookie.insert("path".into(), path.clone());
        }
        let flag = |key: &str| c.get(key).and_then(Value::as_bool) == Some(true);
        let mut attributes = Vec::new();
        if flag("secure") {
            attributes.push(json!({"name": "Secure", "value": "true"}));
        }
        if flag("httpOnly") {
            attributes.push(json!({"name": "HttpOnly", "value": "true"}));
        }
        if let Some(same_site) = c.get("sameSite") {
            attributes.push(json!({"name": "SameSite", "value": same_site}));
        }
        if !attributes.is_empty() {
            cookie.insert("attributes".into(), Value::Array(attributes));
        }
        out.insert("cookie".into(), Value::Object(cookie));
    } else if p.get("sourceIP").is_some() {
        out.insert("connectionProperties".into(), json!({"sourceIp": true}));
    }
    if p.get("terminal").and_then(Value::as_bool) == Some(true) {
        out.insert("terminal".into(), json!(true));
    }
    Value::Object(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The typed config of the policy `lb` writes on a cluster of `cluster_type`.
    fn algorithm(lb: Value, cluster_type: &str) -> Value {
        let mut cluster = Map::new();
        cluster.insert("type".into(), json!(cluster_type));
        apply(&mut cluster, &lb, "default.p");
        cluster["loadBalancingPolicy"]["policies"][0]["typedExtensionConfig"]["typedConfig"].clone()
    }

    #[test]
    fn hostname_hashing_needs_a_strict_dns_cluster() {
        let lb = json!({"ringHash": {"minimumRingSize": 1024, "useHostnameForHashing": true}});
        let strict = algorithm(lb.clone(), "STRICT_DNS");
        assert_eq!(
            strict["consistentHashingLbConfig"],
            json!({"useHostnameForHashing": true})
        );
        assert_eq!(strict["minimumRingSize"], "1024");
        let eds = algorithm(lb, "EDS");
        assert_eq!(eds["consistentHashingLbConfig"], json!({}));
        let plain = algorithm(json!({"maglev": {}}), "STRICT_DNS");
        assert_eq!(plain.get("consistentHashingLbConfig"), None);
    }

    #[test]
    fn hash_policies_are_route_action_hash_policies() {
        let lb = json!({"maglev": {"hashPolicies": [
            {"header": {"name": "x-user"}, "terminal": true},
            {"cookie": {"name": "session", "ttl": "1h", "path": "/", "secure": true, "httpOnly": false, "sameSite": "Lax"}},
            {"sourceIP": {}},
        ]}, "localityType": "WeightedLb"});
        let maglev = algorithm(lb, "EDS");
        assert_eq!(
            maglev["consistentHashingLbConfig"]["hashPolicy"],
            json!([
                {"header": {"headerName": "x-user"}, "terminal": true},
                {"cookie": {"name": "session", "ttl": "3600s", "path": "/", "attributes": [
                    {"name": "Secure", "value": "true"}, {"name": "SameSite", "value": "Lax"},
                ]}},
                {"connectionProperties": {"sourceIp": true}},
            ])
        );
        assert_eq!(maglev["localityWeightedLbConfig"], json!({}));
    }
}
