//! What the Envoy renderer reads of an object beyond what resolution types: typed where it
//! decides something (a Service port's appProtocol, a Backend's type), and the few sub-values
//! it copies into its output as written (a rule's matches and filters, a Secret's data, a
//! GatewayExtension's spec). Built in the per-file pass only when a command renders, so lint
//! keeps none of it.

use serde_json::Value;

use crate::parse::{Node, Value as NodeValue};
use crate::secrets::Sensitive;

use super::Resource;
use super::facts::GATEWAY_API;

/// The group of kgateway's own kinds (Backend, GatewayExtension).
const KGATEWAY: &str = "gateway.kgateway.dev";
/// The group of agentgateway's kinds (AiGatewayBackend).
const AI_GROUP: &str = "agentgateway.dev";
/// The route kinds whose rules render as Envoy routes.
const ROUTE_KINDS: [&str; 4] = ["HTTPRoute", "GRPCRoute", "TCPRoute", "TLSRoute"];
/// The annotation that overrides a RequestRedirect's status code.
pub const REDIRECT_CODE: &str = "kgateway.dev/http-redirect-status-code";
/// The annotation that ranks GatewayExtensions (and policies) within one level.
const WEIGHT: &str = "kgateway.dev/policy-weight";
/// The annotation that sets the path of a Service's MCP targets.
pub const MCP_PATH: &str = "kgateway.dev/mcp-path";

/// The render-only facts of one object, by kind.
#[derive(Debug, Clone)]
pub enum Settings {
    Route(Box<RouteSettings>),
    Service(Box<ServiceSettings>),
    Backend(Box<BackendSettings>),
    /// A ConfigMap's `data`.
    Data(Value),
    Gateway(Box<GatewaySettings>),
    Extension(Box<ExtensionSettings>),
    /// A Secret's `data` and `stringData` (values masked as the model keeps them).
    Secret {
        data: Value,
        string_data: Value,
    },
    /// An AiGatewayBackend's `spec`, as written (the AI data plane translates it whole).
    AiBackend(Value),
}

/// A route's rules as far as render copies or checks them.
#[derive(Debug, Clone, Default)]
pub struct RouteSettings {
    /// Each item of `spec.rules`: a mapping keeps only `name`, `filters` and, when one of its
    /// backendRefs has some, its backendRefs' `filters` (each backendRef a mapping, so that
    /// positions stay those of the typed backendRefs); anything else as written.
    pub rules: Vec<Value>,
    /// Each rule's `matches` as JSON text (empty when not set): the most numerous part of the
    /// routes, held as text it takes a tenth of the memory; [`RouteSettings::matches`] reads it.
    pub matches: Vec<Box<str>>,
    /// The [`REDIRECT_CODE`] annotation.
    pub redirect_code: Option<Box<str>>,
}

impl RouteSettings {
    /// The items of a rule's `matches` (none when it is not a list).
    pub fn matches(&self, rule: usize) -> Vec<Value> {
        let text = self.matches.get(rule).map_or("", |t| &**t);
        match serde_json::from_str(text) {
            Ok(Value::Array(items)) => items,
            _ => Vec::new(),
        }
    }
}

/// A Service as render reads it (the AI data plane lists every Service with its ports).
#[derive(Debug, Clone, Default)]
pub struct ServiceSettings {
    /// Each item of `spec.ports`, in order.
    pub ports: Vec<ServicePort>,
    /// The [`MCP_PATH`] annotation, as written (copied into MCP targets).
    pub mcp_path: Option<Value>,
}

#[derive(Debug, Clone, Default)]
pub struct ServicePort {
    /// `port`, when an integer.
    pub port: Option<i64>,
    pub app_protocol: Option<Box<str>>,
    pub name: Option<Box<str>>,
    /// `targetPort`, when a non-negative integer (a named one is not copied).
    pub target_port: Option<u64>,
}

#[derive(Debug, Clone, Default)]
pub struct BackendSettings {
    /// `spec.type` (`Static`, `DynamicForwardProxy`...).
    pub kind: Option<Box<str>>,
    /// `spec.static.appProtocol`.
    pub app_protocol: Option<Box<str>>,
    /// `spec.static.hosts`: (host, port), an unset one empty or 0.
    pub hosts: Vec<(Box<str>, i64)>,
    /// `spec.dynamicForwardProxy.enableTls` is `true`.
    pub forward_proxy_tls: bool,
    /// `spec.cloud`: the cloud function the Backend invokes.
    pub cloud: Option<Box<CloudFunction>>,
}

/// A Backend's `spec.cloud`, as render reads it (defaults left to render).
#[derive(Debug, Clone, Default)]
pub struct CloudFunction {
    pub account_id: Box<str>,
    pub region: Option<Box<str>>,
    pub function_name: Box<str>,
    pub qualifier: Option<Box<str>>,
    pub endpoint_url: Option<Box<str>>,
    /// `function.invocationMode: Async`.
    pub asynchronous: bool,
    /// `function.payloadTransformMode: None`: the request is sent as it is.
    pub payload_passthrough: bool,
    /// `auth.secretRef.name`, with `auth.type: Secret`.
    pub secret: Option<Box<str>>,
}

#[derive(Debug, Clone, Default)]
pub struct GatewaySettings {
    /// `spec.tls.frontend`, as written (its validations are copied).
    pub frontend: Option<Value>,
    /// `spec.allowedListeners.namespaces` is written (the Gateway takes listener sets at all).
    pub allows_listeners: bool,
    /// `spec.addresses[0].value`, when a string (the mesh reaches a network gateway there).
    pub address: Option<Box<str>>,
    /// The [`BUFFER_LIMIT`] annotation, as written (a quantity).
    pub buffer_limit: Option<Box<str>>,
}

/// The Gateway annotation that sets every listener's per-connection buffer limit (the
/// controller's older way of setting it; a ListenerPolicy's field is the newer).
pub const BUFFER_LIMIT: &str = "kgateway.dev/per-connection-buffer-limit";

#[derive(Debug, Clone)]
pub struct ExtensionSettings {
    /// `spec`, as written (its providers are copied into filters).
    pub spec: Value,
    /// The [`WEIGHT`] annotation; 0 when absent or not an integer.
    pub weight: i64,
    /// `metadata.creationTimestamp`.
    pub created: Option<Box<str>>,
}

/// The entry of a mapping with this key that a JSON conversion keeps: the last one.
fn field<'n>(node: Option<&'n Node>, key: &str) -> Option<&'n Node> {
    node?
        .as_map()?
        .iter()
        .rev()
        .find(|e| e.key == key)
        .map(|e| &e.value)
}

fn text(node: Option<&Node>) -> Option<Box<str>> {
    node?.as_str().map(Into::into)
}

/// The render-only facts of a resource; `None` for kinds render reads nothing more of.
pub fn settings_of(res: &Resource<'_>, secrets: &Sensitive) -> Option<Box<Settings>> {
    let root = Some(res.root);
    let spec = field(root, "spec");
    let settings = match (res.group, res.kind) {
        (GATEWAY_API, kind) if ROUTE_KINDS.contains(&kind) => {
            Settings::Route(Box::new(route(root, spec, secrets)))
        }
        (GATEWAY_API, "Gateway") => Settings::Gateway(Box::new(gateway(root, spec, secrets))),
        ("", "Service") => Settings::Service(Box::new(ServiceSettings {
            ports: service_ports(spec, secrets),
            mcp_path: field(field(field(root, "metadata"), "annotations"), MCP_PATH)
                .map(|a| secrets.json(a)),
        })),
        ("", "Secret") => Settings::Secret {
            data: field(root, "data").map_or(Value::Null, |d| secrets.json(d)),
            string_data: field(root, "stringData").map_or(Value::Null, |d| secrets.json(d)),
        },
        ("", "ConfigMap") => {
            Settings::Data(field(root, "data").map_or(Value::Null, |d| secrets.json(d)))
        }
        (AI_GROUP, "AiGatewayBackend") => {
            Settings::AiBackend(spec.map_or(Value::Null, |s| secrets.json(s)))
        }
        (KGATEWAY, "Backend") => Settings::Backend(Box::new(backend(spec, secrets))),
        (KGATEWAY, "GatewayExtension") => Settings::Extension(Box::new(extension(root, secrets))),
        _ => return None,
    };
    Some(Box::new(settings))
}

fn route(root: Option<&Node>, spec: Option<&Node>, secrets: &Sensitive) -> RouteSettings {
    let annotations = field(field(root, "metadata"), "annotations");
    let rules = field(spec, "rules").and_then(Node::as_seq).unwrap_or(&[]);
    let matches = |r: &Node| match field(Some(r), "matches") {
        // Written straight from the tree when nothing in it is secret (a route's matches never
        // are): the same text, without building the JSON value first.
        Some(m) if secrets.masks_nothing() => {
            serde_json::to_string(&AsJson(m)).unwrap_or_default().into()
        }
        Some(m) => serde_json::to_string(&secrets.json(m))
            .unwrap_or_default()
            .into(),
        None => Box::default(),
    };
    RouteSettings {
        rules: rules.iter().map(|r| rule(r, secrets)).collect(),
        matches: rules.iter().map(matches).collect(),
        redirect_code: text(field(annotations, REDIRECT_CODE)),
    }
}

/// A node serialised as its [`Node::to_json`] value is, without making that value.
struct AsJson<'n>(&'n Node);

impl serde::Serialize for AsJson<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        match &self.0.value {
            NodeValue::Str(t) => s.serialize_str(&t.text),
            NodeValue::Seq(items) => s.collect_seq(items.iter().map(AsJson)),
            // A repeated key keeps its first place and its last value in the JSON value: that
            // rare case is left to it.
            NodeValue::Map(entries) if distinct_keys(entries) => {
                let mut map = s.serialize_map(Some(entries.len()))?;
                for e in entries {
                    map.serialize_entry(e.key.as_str(), &AsJson(&e.value))?;
                }
                map.end()
            }
            _ => self.0.to_json().serialize(s),
        }
    }
}

fn distinct_keys(entries: &[crate::parse::Entry]) -> bool {
    entries
        .iter()
        .enumerate()
        .all(|(i, e)| entries[..i].iter().all(|o| o.key != e.key))
}

/// A rule with only what render reads of it (see [`RouteSettings::rules`]).
fn rule(rule: &Node, secrets: &Sensitive) -> Value {
    let Some(entries) = rule.as_map() else {
        return secrets.json(rule);
    };
    let mut out = serde_json::Map::new();
    for e in entries {
        let value = match e.key.as_str() {
            "name" | "filters" => secrets.json(&e.value),
            "backendRefs" => match e.value.as_seq() {
                // Most backendRefs have no filters: then none is kept.
                Some(refs) if refs.iter().all(|b| field(Some(b), "filters").is_none()) => continue,
                Some(refs) => Value::Array(refs.iter().map(|b| backend_ref(b, secrets)).collect()),
                None => continue,
            },
            _ => continue,
        };
        out.insert(e.key.to_string(), value);
    }
    Value::Object(out)
}

fn backend_ref(b: &Node, secrets: &Sensitive) -> Value {
    let mut out = serde_json::Map::new();
    if let Some(filters) = field(Some(b), "filters") {
        out.insert("filters".into(), secrets.json(filters));
    }
    Value::Object(out)
}

fn service_ports(spec: Option<&Node>, secrets: &Sensitive) -> Vec<ServicePort> {
    let ports = field(spec, "ports").and_then(Node::as_seq).unwrap_or(&[]);
    ports
        .iter()
        .map(|p| ServicePort {
            port: field(Some(p), "port").and_then(|n| secrets.json(n).as_i64()),
            app_protocol: text(field(Some(p), "appProtocol")),
            name: text(field(Some(p), "name")),
            target_port: field(Some(p), "targetPort").and_then(|n| secrets.json(n).as_u64()),
        })
        .collect()
}

fn backend(spec: Option<&Node>, secrets: &Sensitive) -> BackendSettings {
    let fixed = field(spec, "static");
    let hosts = field(fixed, "hosts").and_then(Node::as_seq).unwrap_or(&[]);
    BackendSettings {
        kind: text(field(spec, "type")),
        app_protocol: text(field(fixed, "appProtocol")),
        hosts: hosts
            .iter()
            .map(|h| {
                let host = text(field(Some(h), "host")).unwrap_or_default();
                let port = field(Some(h), "port").and_then(|n| secrets.json(n).as_i64());
                (host, port.unwrap_or(0))
            })
            .collect(),
        forward_proxy_tls: field(field(spec, "dynamicForwardProxy"), "enableTls")
            .and_then(|n| secrets.json(n).as_bool())
            == Some(true),
        cloud: field(spec, "cloud").map(|c| Box::new(cloud(c))),
    }
}

fn cloud(cloud: &Node) -> CloudFunction {
    let function = field(Some(cloud), "function");
    let auth = field(Some(cloud), "auth");
    let by_secret = text(field(auth, "type")).as_deref() == Some("Secret");
    CloudFunction {
        account_id: text(field(Some(cloud), "accountId")).unwrap_or_default(),
        region: text(field(Some(cloud), "region")),
        function_name: text(field(function, "functionName")).unwrap_or_default(),
        qualifier: text(field(function, "qualifier")),
        endpoint_url: text(field(function, "endpointURL")),
        asynchronous: text(field(function, "invocationMode")).as_deref() == Some("Async"),
        payload_passthrough: text(field(function, "payloadTransformMode")).as_deref()
            == Some("None"),
        secret: text(field(field(auth, "secretRef"), "name")).filter(|_| by_secret),
    }
}

fn gateway(root: Option<&Node>, spec: Option<&Node>, secrets: &Sensitive) -> GatewaySettings {
    let namespaces = field(field(spec, "allowedListeners"), "namespaces");
    let annotations = field(field(root, "metadata"), "annotations");
    GatewaySettings {
        buffer_limit: text(field(annotations, BUFFER_LIMIT)),
        frontend: field(field(spec, "tls"), "frontend").map(|f| secrets.json(f)),
        allows_listeners: namespaces.is_some(),
        address: text(field(
            field(spec, "addresses")
                .and_then(Node::as_seq)
                .and_then(<[Node]>::first),
            "value",
        )),
    }
}

fn extension(root: Option<&Node>, secrets: &Sensitive) -> ExtensionSettings {
    let metadata = field(root, "metadata");
    let weight = field(field(metadata, "annotations"), WEIGHT).and_then(|w| match w.as_str() {
        Some(text) => text.trim().parse().ok(),
        None => secrets.json(w).as_i64(),
    });
    ExtensionSettings {
        spec: field(root, "spec").map_or(Value::Null, |s| secrets.json(s)),
        weight: weight.unwrap_or(0),
        created: text(field(metadata, "creationTimestamp")),
    }
}

#[cfg(test)]
mod tests {
    use super::AsJson;
    use crate::parse::{Limits, parse_file};
    use crate::source::SourceFile;

    /// The text written from the tree is the JSON value's: floats, booleans, nulls, escapes and
    /// nesting included.
    #[test]
    fn a_tree_writes_the_text_of_its_json_value() {
        let yaml = "a: [1, -2.5, .inf, true, ~, 'x\"y', {b: c, b: d, e: 1}]\nf: {g: [h, {i: j}]}\nk: yes\n";
        let file = SourceFile::new(0, "t.yaml", yaml);
        let parsed = parse_file(&file, &Limits::default());
        let Some(doc) = parsed.documents.first() else {
            panic!("no document");
        };
        let root = &doc.root;
        let streamed = serde_json::to_string(&AsJson(root)).unwrap_or_default();
        let made = serde_json::to_string(&root.to_json()).unwrap_or_default();
        assert_eq!(streamed, made);
        // The parser keeps the first of a repeated key (and reports the second).
        assert!(streamed.contains(r#""x\"y",{"b":"c","e":1}"#), "{streamed}");
    }
}
