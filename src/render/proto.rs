//! The proto check of rendered Envoy resources (`gwctl render --check`): each one must read as its
//! proto type in the proto3 JSON mapping, with no unknown field, no unknown enum value and no
//! malformed well-known value (durations ...), also inside `google.protobuf.Any` (`typedConfig`),
//! whose `@type` is resolved from the same descriptor set.
//!
//! The descriptor set is `assets/envoy.descriptor.bin`, compiled from the `.proto` files of the
//! `envoy-types` crate by `cargo run -p xtask -- descriptors`.

use std::borrow::Cow;
use std::sync::OnceLock;

use prost_reflect::{DescriptorPool, DynamicMessage, Kind, MessageDescriptor};
use rayon::prelude::*;
use serde_json::Value;
use serde_path_to_error::{Deserializer, Path, Segment, Track};

use super::{DataPlane, Rendered, RenderedGateway, RenderedResource};

static DESCRIPTORS: &[u8] = include_bytes!("../../assets/envoy.descriptor.bin");

/// The message type of each Envoy section of the output (and of the reference's golden files).
const SECTIONS: &[(&str, &str)] = &[
    ("Listeners", "envoy.config.listener.v3.Listener"),
    ("Routes", "envoy.config.route.v3.RouteConfiguration"),
    ("Clusters", "envoy.config.cluster.v3.Cluster"),
    (
        "Secrets",
        "envoy.extensions.transport_sockets.tls.v3.Secret",
    ),
];

/// The pool decoded once, on first use: decoding takes a few milliseconds that a render without
/// `--check` should not pay.
fn pool() -> Result<&'static DescriptorPool, String> {
    static POOL: OnceLock<Result<DescriptorPool, String>> = OnceLock::new();
    POOL.get_or_init(|| {
        DescriptorPool::decode(DESCRIPTORS).map_err(|e| format!("Envoy descriptor set: {e}"))
    })
    .as_ref()
    .map_err(Clone::clone)
}

/// The proto message type of an output section (`Listeners` ...), if it has one.
pub fn message_type(section: &str) -> Option<&'static str> {
    SECTIONS
        .iter()
        .find(|(s, _)| *s == section)
        .map(|(_, t)| *t)
}

/// What an empty `google.protobuf.Any` (`{}`, as Go's protojson writes and reads one) is checked
/// as: prost-reflect requires `@type` in every Any.
const EMPTY_ANY: &str = "type.googleapis.com/google.protobuf.Empty";

/// `@type`s of real configuration whose protos are not in the descriptor set: an Any of one of
/// them is accepted without checking its content. Any other unknown `@type` is an error (a
/// misspelled type URL).
pub const UNCHECKED: &[(&str, &str)] = &[
    (
        "xds.type.matcher.v3.CelMatcher",
        "cncf/xds matcher (RBAC CEL matching); envoy-types ships no xds/type/matcher/v3/cel.proto",
    ),
    (
        "xds.type.matcher.v3.HttpAttributesCelMatchInput",
        "cncf/xds matcher input; envoy-types ships no xds/type/matcher/v3/http_inputs.proto",
    ),
    (
        "envoy.api.v2.filter.http.FilterTransformations",
        "envoy-gloo's transformation filter (the reference's Envoy build), not upstream Envoy",
    ),
    (
        "envoy.api.v2.filter.http.RouteTransformations",
        "envoy-gloo's transformation filter (the reference's Envoy build), not upstream Envoy",
    ),
];

/// Whether a message type is one of [`UNCHECKED`].
fn unchecked_type(name: &str) -> bool {
    UNCHECKED.iter().any(|(t, _)| *t == name)
}

/// Whether a string is what the renderer prints in place of secret material (`<secret
/// hmac:HEX>`, the `render` help: secrets are never printed): it stands for bytes it does not
/// show, so it is checked as empty bytes (valid base64, and a valid string) rather than as itself.
fn is_secret_placeholder(text: &str) -> bool {
    crate::secrets::is_digest(text)
}

fn blank_secret_placeholders(value: &mut Value) {
    match value {
        Value::String(text) if is_secret_placeholder(text) => text.clear(),
        Value::Array(items) => items.iter_mut().for_each(blank_secret_placeholders),
        Value::Object(map) => map.values_mut().for_each(blank_secret_placeholders),
        _ => {}
    }
}

fn has_secret_placeholder(value: &Value) -> bool {
    match value {
        Value::String(text) => is_secret_placeholder(text),
        Value::Array(items) => items.iter().any(has_secret_placeholder),
        Value::Object(map) => map.values().any(has_secret_placeholder),
        _ => false,
    }
}

/// Checks `value` as the message of `section_or_type`: an output section (`Listeners`, `Routes`,
/// `Clusters`, `Secrets`) or a full message name (`envoy.config.listener.v3.Listener`). The error
/// names the field path (`filterChains[0].filters[0].typedConfig.statPrefx`) and the reason.
pub fn check(section_or_type: &str, value: &Value) -> Result<(), String> {
    let name = message_type(section_or_type).unwrap_or(section_or_type);
    let desc = pool()?
        .get_message_by_name(name)
        .ok_or_else(|| format!("no message type {name} in the Envoy descriptor set"))?;
    let mut value = Cow::Borrowed(value);
    if has_secret_placeholder(&value) {
        blank_secret_placeholders(value.to_mut());
    }
    // The Anys checked as empty ones, found in one walk: the loop below finds them one full
    // deserialization at a time (a RouteConfiguration of many virtual hosts has one per host).
    let mut spots = Vec::new();
    accepted_anys(pool()?, &desc, &value, &mut String::new(), &mut spots);
    if !spots.is_empty() {
        let value = value.to_mut();
        for spot in spots {
            if let Some(any) = value.pointer_mut(&spot) {
                *any = empty_any();
            }
        }
    }
    // Path tracking costs; most resources pass, so it is paid only after a failure.
    if DynamicMessage::deserialize(desc.clone(), value.as_ref()).is_ok() {
        return Ok(());
    }
    // Each round replaces one Any (empty, or of an `UNCHECKED` type) by an empty Any with a type
    // URL, so the loop ends.
    loop {
        let (path, reason) = match tracked(&desc, &value) {
            Ok(()) => return Ok(()),
            Err(failure) => failure,
        };
        let unchecked = reason
            .strip_prefix("message '")
            .and_then(|r| r.strip_suffix("' not found"))
            .is_some_and(unchecked_type);
        let empty = reason == "expected '@type' field";
        if (unchecked || empty)
            && let Some(any) = at_mut(value.to_mut(), &path)
            && any.as_object().is_some_and(|o| unchecked || o.is_empty())
        {
            *any = empty_any();
            continue;
        }
        let at = path.to_string();
        return Err(if at.is_empty() || at == "." {
            reason
        } else {
            format!("{at}: {reason}")
        });
    }
}

/// What an Any the check accepts without reading it is checked as.
fn empty_any() -> Value {
    serde_json::json!({ "@type": EMPTY_ANY, "value": {} })
}

/// The JSON pointers (under `at`) of the Anys of `value`, read as `desc`, that the check accepts
/// as empty ones: `{}` where an Any goes, and an Any of an [`UNCHECKED`] type. Fields are found
/// by their JSON or proto name, as the deserializer finds them; the well-known types' own JSON
/// forms are not walked into.
fn accepted_anys(
    pool: &DescriptorPool,
    desc: &MessageDescriptor,
    value: &Value,
    at: &mut String,
    out: &mut Vec<String>,
) {
    let Some(fields) = value.as_object() else {
        return;
    };
    for (key, v) in fields {
        let field = desc
            .get_field_by_json_name(key)
            .or_else(|| desc.get_field_by_name(key));
        let Some(field) = field else {
            continue;
        };
        let Kind::Message(message) = field.kind() else {
            continue;
        };
        let len = at.len();
        push_segment(at, key);
        if field.is_map() {
            if let Kind::Message(item) = message.map_entry_value_field().kind() {
                for (k, entry) in v.as_object().into_iter().flatten() {
                    let len = at.len();
                    push_segment(at, k);
                    accepted_in(pool, &item, entry, at, out);
                    at.truncate(len);
                }
            }
        } else if field.is_list() {
            for (i, entry) in v.as_array().into_iter().flatten().enumerate() {
                let len = at.len();
                push_segment(at, &i.to_string());
                accepted_in(pool, &message, entry, at, out);
                at.truncate(len);
            }
        } else {
            accepted_in(pool, &message, v, at, out);
        }
        at.truncate(len);
    }
}

/// [`accepted_anys`] of one message value (an Any's, by its `@type`).
fn accepted_in(
    pool: &DescriptorPool,
    desc: &MessageDescriptor,
    value: &Value,
    at: &mut String,
    out: &mut Vec<String>,
) {
    const ANY: &str = "google.protobuf.Any";
    const WELL_KNOWN: &str = "google.protobuf.";
    if desc.full_name() != ANY {
        if !desc.full_name().starts_with(WELL_KNOWN) {
            accepted_anys(pool, desc, value, at, out);
        }
        return;
    }
    let Some(any) = value.as_object() else {
        return;
    };
    if any.is_empty() {
        out.push(at.clone());
        return;
    }
    let Some(url) = any.get("@type").and_then(Value::as_str) else {
        return;
    };
    let name = url.rsplit('/').next().unwrap_or(url);
    if unchecked_type(name) {
        out.push(at.clone());
    } else if !name.starts_with(WELL_KNOWN)
        && let Some(inner) = pool.get_message_by_name(name)
    {
        // The Any's other fields are its message's.
        accepted_anys(pool, &inner, value, at, out);
    }
}

/// A JSON pointer's segment for a key (`~` and `/` escaped).
fn push_segment(at: &mut String, key: &str) {
    at.push('/');
    at.push_str(&key.replace('~', "~0").replace('/', "~1"));
}

fn tracked(desc: &MessageDescriptor, value: &Value) -> Result<(), (Path, String)> {
    let mut track = Track::new();
    DynamicMessage::deserialize(desc.clone(), Deserializer::new(value, &mut track))
        .map(drop)
        .map_err(|e| (track.path(), e.to_string()))
}

fn at_mut<'v>(mut value: &'v mut Value, path: &Path) -> Option<&'v mut Value> {
    for segment in path {
        value = match segment {
            Segment::Seq { index } => value.get_mut(*index)?,
            Segment::Map { key } => value.get_mut(key.as_str())?,
            Segment::Enum { .. } | Segment::Unknown => return None,
        };
    }
    Some(value)
}

/// A rendered resource that failed the check.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Failure {
    /// Whose resource it is: `Gateway namespace/name`, or `shared` for the clusters every
    /// proxy-based Gateway shares.
    pub owner: String,
    pub section: &'static str,
    pub resource: String,
    pub reason: String,
}

impl std::fmt::Display for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{}: {} {}: {}",
            self.owner, self.section, self.resource, self.reason
        )
    }
}

/// Checks every Envoy resource of a rendered Gateway (the AI data plane's resources are not
/// Envoy's and are not checked).
pub fn check_gateway(gateway: &RenderedGateway) -> Vec<Failure> {
    if gateway.data_plane != DataPlane::Envoy {
        return Vec::new();
    }
    check_resources(
        &format!("Gateway {}/{}", gateway.namespace, gateway.name),
        &gateway.resources,
    )
}

/// Checks the Envoy resources of a list, in parallel (one list may hold most of the resources).
fn check_resources(owner: &str, resources: &[RenderedResource]) -> Vec<Failure> {
    resources
        .par_iter()
        .filter(|r| message_type(r.section).is_some())
        .filter_map(|r| {
            check(r.section, &r.value).err().map(|reason| Failure {
                owner: owner.to_string(),
                section: r.section,
                resource: r.name.clone(),
                reason,
            })
        })
        .collect()
}

/// [`check_gateway`] of every rendered Gateway, in the Gateways' order, then the shared
/// clusters, then the cluster names the Gateways refer to that no cluster has.
pub fn check_rendered(rendered: &Rendered) -> Vec<Failure> {
    let mut failures: Vec<Failure> = rendered
        .gateways
        .par_iter()
        .flat_map_iter(check_gateway)
        .collect();
    failures.extend(check_resources("shared", &rendered.clusters));
    let refs: Vec<_> = rendered
        .gateways
        .iter()
        .flat_map(super::dangling::cluster_refs)
        .collect();
    failures.extend(super::dangling::dangling(&refs, &rendered.clusters));
    failures
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_descriptor_set_decodes_and_has_the_section_types() {
        for (_, name) in SECTIONS {
            assert!(
                pool()
                    .ok()
                    .and_then(|p| p.get_message_by_name(name))
                    .is_some(),
                "{name}"
            );
        }
    }

    #[test]
    fn an_unknown_field_is_named_with_its_path() {
        let cluster = json!({"name": "c", "connectTimeout": "5s", "lbPolicyy": "ROUND_ROBIN"});
        assert_eq!(
            check("Clusters", &cluster),
            Err("unrecognized field name 'lbPolicyy'".to_string())
        );
        assert_eq!(
            check("Clusters", &json!({"name": "c", "lbPolicy": "ROUND_ROBIN"})),
            Ok(())
        );
    }

    /// A RouteConfiguration whose virtual hosts each carry a per-filter config with an empty
    /// Any (as Go's protojson writes one) under a key holding `/`, the last host with `extra`.
    fn hosts_with_empty_anys(extra: Value) -> Value {
        let host = |i: usize| {
            json!({
                "name": format!("h{i}"),
                "domains": ["*"],
                "typedPerFilterConfig": {"ext_auth/ns/a~b": {
                    "@type": "type.googleapis.com/envoy.config.route.v3.FilterConfig",
                    "config": {}
                }},
                "routes": [{"match": {"prefix": "/"}, "typedPerFilterConfig": {"t": {
                    "@type": "type.googleapis.com/envoy.config.route.v3.FilterConfig",
                    "config": {"@type": "type.googleapis.com/envoy.api.v2.filter.http.RouteTransformations", "x": 1}
                }}}]
            })
        };
        let mut hosts: Vec<Value> = (0..3).map(host).collect();
        if let (Some(last), Some(extra)) = (hosts[2].as_object_mut(), extra.as_object()) {
            last.extend(extra.clone());
        }
        json!({"name": "r", "virtualHosts": hosts})
    }

    #[test]
    fn empty_and_unchecked_anys_are_accepted_and_an_error_after_them_named() {
        // Found in one walk, before the value is read (not one deserialization each).
        let (Ok(pool), Some(routes)) = (pool(), message_type("Routes")) else {
            panic!("the descriptor set");
        };
        let Some(desc) = pool.get_message_by_name(routes) else {
            panic!("{routes}");
        };
        let mut spots = Vec::new();
        accepted_anys(
            pool,
            &desc,
            &hosts_with_empty_anys(json!({})),
            &mut String::new(),
            &mut spots,
        );
        let host = |i: usize| {
            [
                format!("/virtualHosts/{i}/typedPerFilterConfig/ext_auth~1ns~1a~0b/config"),
                format!("/virtualHosts/{i}/routes/0/typedPerFilterConfig/t/config"),
            ]
        };
        assert_eq!(spots, [host(0), host(1), host(2)].concat());
        assert_eq!(check("Routes", &hosts_with_empty_anys(json!({}))), Ok(()));
        assert_eq!(
            check("Routes", &hosts_with_empty_anys(json!({"domainz": []}))),
            Err("virtualHosts[2]: unrecognized field name 'domainz'".to_string())
        );
        // An empty object where a message that is not an Any goes is that message, empty.
        let route = json!({"name": "r", "virtualHosts": [{"name": "h", "domains": ["*"], "routes": [{"match": {}}]}]});
        assert_eq!(check("Routes", &route), Ok(()));
    }

    #[test]
    fn failures_name_the_gateway_and_resource_and_skip_the_ai_data_plane() {
        let mut gateway = RenderedGateway {
            namespace: "infra".into(),
            name: "public".into(),
            data_plane: DataPlane::Envoy,
            resources: vec![
                super::super::RenderedResource {
                    section: "Clusters",
                    kind: "cluster",
                    name: "kube_default_web_80".into(),
                    value: json!({"name": "kube_default_web_80", "type": "EDSS"}),
                },
                super::super::RenderedResource {
                    section: "Clusters",
                    kind: "cluster",
                    name: "fine".into(),
                    value: json!({"name": "fine", "type": "EDS"}),
                },
            ],
            statuses: Value::Null,
            replaced: Vec::new(),
        };
        let failures = check_gateway(&gateway);
        assert_eq!(
            failures.iter().map(ToString::to_string).collect::<Vec<_>>(),
            [
                "Gateway infra/public: Clusters kube_default_web_80: type: unrecognized enum value 'EDSS'"
            ]
        );
        gateway.data_plane = DataPlane::Ai;
        assert_eq!(check_gateway(&gateway), []);
    }

    #[test]
    fn shared_clusters_are_checked_once() {
        let rendered = Rendered {
            clusters: vec![super::super::RenderedResource {
                section: "Clusters",
                kind: "cluster",
                name: "c".into(),
                value: json!({"name": "c", "lbPolicyy": "ROUND_ROBIN"}),
            }],
            ..Rendered::default()
        };
        assert_eq!(
            check_rendered(&rendered)
                .iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>(),
            ["shared: Clusters c: unrecognized field name 'lbPolicyy'"]
        );
    }

    #[test]
    fn an_unknown_section_or_type_is_an_error() {
        assert_eq!(
            check("envoy.config.nothing.v3.Nothing", &json!({})),
            Err(
                "no message type envoy.config.nothing.v3.Nothing in the Envoy descriptor set"
                    .into()
            )
        );
    }
}
