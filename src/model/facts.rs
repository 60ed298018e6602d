//! Typed facts: what the resolve stage needs to know about each resource, extracted in the
//! per-file pass so that the spanned trees can be dropped after each file (memory stays bounded
//! by the largest file, not by the whole input).

use crate::parse::{Node, Value};
use crate::secrets::Sensitive;
use crate::source::{FileId, Span};

use super::Resource;
use super::facts_backend::{backend_sections, backend_variant, inline_policies};
use super::facts_listeners::listeners;
pub use super::facts_listeners::{ListenerTls, Selector};
use super::facts_policy::{PolicyFacts, is_policy_kind, is_target_kind, policy_facts};
use super::facts_refs::field_refs;
pub use super::facts_route::RouteFacts;
use super::facts_route::route_facts;

pub const GATEWAY_API: &str = "gateway.networking.k8s.io";
pub const GATEWAY_API_X: &str = "gateway.networking.x-k8s.io";
/// A delegating route's annotation (see [`RouteFacts::inherited_priority`]).
pub const INHERITED_PRIORITY: &str = "kgateway.dev/inherited-policy-priority";
/// A route's annotation (see [`RouteFacts::weight`]).
pub const ROUTE_WEIGHT: &str = "kgateway.dev/route-weight";
/// A delegated route's annotation (see [`RouteFacts::inherits_matcher`]).
pub const INHERIT_MATCHER: &str = "delegation.kgateway.dev/inherit-parent-matcher";

/// Who a resource is and where it is.
#[derive(Debug, Clone)]
pub struct Ident {
    pub group: String,
    pub kind: String,
    /// `default` for namespaced kinds without one; empty for cluster-scoped kinds.
    pub namespace: String,
    /// Whether the namespace is known: written, or set by a kustomization or a Flux
    /// Kustomization (else it is `default` here, and the one the object is applied to there).
    pub namespace_known: bool,
    pub name: String,
    pub file: FileId,
    pub span: Span,
    /// The span of `metadata.name`, else of the object.
    pub name_span: Span,
}

impl Ident {
    /// (group, kind, namespace, name): what tells one object from another, the key every index
    /// of objects is built on.
    pub fn key(&self) -> (&str, &str, &str, &str) {
        (&self.group, &self.kind, &self.namespace, &self.name)
    }
}

/// A reference to another object, as written, with the span of its node. There are many (ten
/// backendRefs a route is common), so it is kept small: the fields most references leave unset
/// are in one optional box.
#[derive(Debug, Clone, Default)]
pub struct ObjRef {
    pub name: Box<str>,
    pub port: Option<i64>,
    pub span: Span,
    /// Field path inside the resource (`spec.parentRefs[0]`).
    pub path: Box<str>,
    /// The spans of the `name` and `port` values (empty when not written): a finding about a
    /// wrong name or port points there.
    pub name_span: Span,
    pub port_span: Span,
    extra: Option<Box<RefExtra>>,
}

#[derive(Debug, Clone, Default)]
struct RefExtra {
    group: Option<Box<str>>,
    kind: Option<Box<str>>,
    namespace: Option<Box<str>>,
    section: Option<Box<str>>,
    section_span: Span,
}

impl ObjRef {
    /// A location only (no target): where a finding about a selector or a field is placed.
    pub fn at(span: Span, path: impl Into<Box<str>>) -> Self {
        ObjRef {
            span,
            path: path.into(),
            ..ObjRef::default()
        }
    }
    /// `None` when the field was not set (defaults depend on the field).
    pub fn group(&self) -> Option<&str> {
        self.extra.as_ref()?.group.as_deref()
    }
    pub fn kind(&self) -> Option<&str> {
        self.extra.as_ref()?.kind.as_deref()
    }
    pub fn namespace(&self) -> Option<&str> {
        self.extra.as_ref()?.namespace.as_deref()
    }
    pub fn section(&self) -> Option<&str> {
        self.extra.as_ref()?.section.as_deref()
    }
    /// The span of the `sectionName` value, when written.
    pub fn section_span(&self) -> Option<Span> {
        self.extra
            .as_ref()
            .filter(|e| e.section.is_some())
            .map(|e| e.section_span)
    }
    /// Sets the group and kind a field implies (a `secretRef` names a Secret); with `keep`, only
    /// where the reference did not set them.
    pub fn set_target(&mut self, group: &str, kind: &str, keep: bool) {
        let extra = self.extra.get_or_insert_with(Box::default);
        if !keep || extra.group.is_none() {
            extra.group = Some(group.into());
        }
        if !keep || extra.kind.is_none() {
            extra.kind = Some(kind.into());
        }
    }
}

#[derive(Debug, Clone, Default)]
pub struct Listener {
    pub name: String,
    pub port: Option<i64>,
    pub protocol: String,
    pub hostname: Option<String>,
    /// `Same` (default), `All`, `Selector`.
    pub from: String,
    pub selector: Option<Selector>,
    /// Allowed route kinds as (group, kind); empty means the protocol's defaults.
    pub kinds: Vec<(String, String)>,
    pub certificate_refs: Vec<ObjRef>,
    /// What render reads of `tls`, when it is written.
    pub tls: Option<Box<ListenerTls>>,
    pub span: Span,
    pub path: String,
}

/// What a secretRef / configMapRef / extensionRef / backendRef / parametersRef of a policy needs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Need {
    /// The object exists.
    Exists,
    /// The object exists and holds these keys.
    Keys(Vec<String>),
    /// A GatewayExtension providing this field (`extAuth`, `extProc`, `rateLimit`, `jwt`).
    Provider(&'static str),
}

/// Which reference field a reference is written in: what decides whether a target in another
/// namespace needs a ReferenceGrant (`resolve::grant_required`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RefField {
    /// A route's (or a route filter's) backendRef.
    RouteBackend,
    /// A Gateway or ListenerSet listener's `tls.certificateRefs`.
    ListenerCertificate,
    /// A Gateway's client certificate validation `caCertificateRefs`.
    GatewayClientCa,
    /// TrafficPolicy `basicAuth.secretRef`.
    BasicAuthSecret,
    /// A GatewayExtension's backendRef (extAuth, extProc, rate limit, JWKS service).
    ExtensionBackend,
    /// A policy's `extensionRef` to a GatewayExtension.
    PolicyExtension,
    /// An AiGatewayPolicy's backendRef (global rate limit, extAuth, extProc, tracing).
    AiPolicyBackend,
    /// A GatewayClass's parametersRef.
    ClassParameters,
    /// Any other reference field.
    Other,
}

#[derive(Debug, Clone)]
pub struct FieldRef {
    pub target: ObjRef,
    pub need: Need,
    pub field: RefField,
}

#[derive(Debug, Clone)]
pub enum Spec {
    Gateway {
        /// `spec.gatewayClassName`.
        class: Option<Box<ObjRef>>,
        listeners: Vec<Listener>,
        /// `spec.allowedListeners.namespaces`: which namespaces' ListenerSets it takes.
        allowed_listeners: AllowedListeners,
    },
    ListenerSet {
        parent: Box<ObjRef>,
        listeners: Vec<Listener>,
    },
    GatewayClass {
        controller: String,
    },
    Route(Box<RouteFacts>),
    Service {
        /// (name, port)
        ports: Vec<(Option<String>, i64)>,
    },
    /// Secret or ConfigMap: the keys of its data; of a Secret's, those whose value holds PEM
    /// data (a consumer of a certificate or key reads nothing else; the values are not kept).
    Keys {
        keys: Vec<String>,
        pem: Vec<String>,
    },
    Namespace,
    ReferenceGrant {
        /// (group, kind, namespace)
        from: Vec<(String, String, String)>,
        /// (group, kind, name)
        to: Vec<(String, String, Option<String>)>,
    },
    /// Backend, AiGatewayBackend: section names (providers, MCP targets).
    Backend {
        sections: Vec<String>,
        /// Which kind of destination it is: the variant field the spec sets (`ai`, `mcp`,
        /// `static`, `dynamicForwardProxy`, `cloud`); a cloud function Backend is supported only
        /// by the proxy-based data plane, `backend.ai` / `backend.mcp` policies need `ai` / `mcp`.
        variant: Option<&'static str>,
    },
    /// GatewayExtension: which provider fields are set, and the `extAuth.httpService.pathPrefix`
    /// value with its span (the proxy checks it when it loads the configuration).
    Extension {
        providers: Vec<String>,
        path_prefix: Option<(String, Span)>,
    },
    /// A policy kind (TrafficPolicy, AiGatewayPolicy, BackendConfigPolicy...): its targets and fields.
    Policy(Box<PolicyFacts>),
    /// A DirectResponse: the answer a route's ExtensionRef filter names.
    DirectResponse {
        status: Option<i64>,
        body: Option<Box<str>>,
    },
    Other,
}

/// Everything resolution needs about one resource.
#[derive(Debug, Clone)]
pub struct Facts {
    pub id: Ident,
    /// Kept for Namespaces (listener selectors) and the kinds policies select by label.
    pub labels: Vec<(String, String)>,
    pub spec: Spec,
    /// References found in the spec that point at other objects (policies, GatewayClass
    /// parametersRef, Backend secrets...).
    pub refs: Vec<FieldRef>,
    /// An AiGatewayBackend's own `spec.policies` and its providers' or MCP targets' inline
    /// `policies` (the two most specific levels of the AI backend merge); `None` for other kinds.
    pub inline_policies: Option<Box<InlinePolicies>>,
    /// What only the renderer reads (kept when a command renders; `None` otherwise).
    pub settings: Option<Box<super::facts_settings::Settings>>,
}

/// The policy fields an AiGatewayBackend carries itself: each is (field name, value).
#[derive(Debug, Clone, Default)]
pub struct InlinePolicies {
    pub backend: Vec<(String, serde_json::Value)>,
    /// (provider or MCP target name, its fields).
    pub sections: Vec<(String, Vec<(String, serde_json::Value)>)>,
}

/// Kinds without a namespace (those gwctl may meet beside gateway manifests).
pub const CLUSTER_SCOPED: &[&str] = &[
    "Namespace",
    "GatewayClass",
    "ClusterRole",
    "ClusterRoleBinding",
    "Node",
    "CustomResourceDefinition",
    "PersistentVolume",
    "StorageClass",
    "PriorityClass",
    "IngressClass",
    "ValidatingWebhookConfiguration",
    "MutatingWebhookConfiguration",
    "APIService",
    "ClusterIssuer",
];

pub(crate) fn s(node: Option<&Node>) -> Option<String> {
    node.and_then(Node::as_str).map(str::to_string)
}

pub(crate) fn int(node: Option<&Node>) -> Option<i64> {
    match node.map(|n| &n.value) {
        Some(Value::Int(i)) => Some(*i),
        _ => None,
    }
}

pub(super) fn seq(node: Option<&Node>) -> &[Node] {
    node.and_then(Node::as_seq).unwrap_or(&[])
}

pub(super) fn string_map(node: Option<&Node>) -> Vec<(String, String)> {
    node.and_then(Node::as_map)
        .unwrap_or(&[])
        .iter()
        .filter_map(|e| Some((e.key.to_string(), e.value.as_str()?.to_string())))
        .collect()
}

/// A reference node (`{group, kind, namespace, name, sectionName, port}`).
pub(crate) fn obj_ref(node: &Node, path: String) -> ObjRef {
    let boxed = |key| node.get(key).and_then(Node::as_str).map(Box::<str>::from);
    let span_of = |key| node.get(key).map(|n| n.span).unwrap_or_default();
    let extra = RefExtra {
        group: boxed("group"),
        kind: boxed("kind"),
        namespace: boxed("namespace"),
        section: boxed("sectionName"),
        section_span: span_of("sectionName"),
    };
    let any = extra.group.is_some()
        || extra.kind.is_some()
        || extra.namespace.is_some()
        || extra.section.is_some();
    ObjRef {
        name: node.get("name").and_then(Node::as_str).unwrap_or("").into(),
        port: int(node.get("port")),
        span: node.span,
        path: path.into_boxed_str(),
        name_span: span_of("name"),
        port_span: span_of("port"),
        extra: any.then(|| Box::new(extra)),
    }
}

/// The facts of one resource; `None` for objects without a name (nothing can refer to them).
/// Values the facts keep (policy fields, inline policies) are built through `secrets`, so they hold
/// digests where the object holds secrets.
pub fn facts_of(res: &Resource<'_>, secrets: &Sensitive) -> Option<Facts> {
    let name = res.name?;
    let root = res.root;
    let metadata = root.get("metadata");
    let name_span = metadata
        .and_then(|m| m.get("name"))
        .map(|n| n.span)
        .unwrap_or(root.span);
    let namespace = match res.namespace {
        Some(ns) => ns.to_string(),
        None if CLUSTER_SCOPED.contains(&res.kind) => String::new(),
        None => "default".to_string(),
    };
    let spec_node = root.get("spec");
    let spec = spec_of(res, secrets, metadata, spec_node);
    // Route and Gateway references are typed in their specs; the generic walk is for the kinds of the
    // two seed groups and GatewayClass (parametersRef). Other kinds (a Deployment's pod spec)
    // are not walked: nothing of theirs is resolved, and the walk would cost time.
    let walk = matches!(res.group, "gateway.kgateway.dev" | "agentgateway.dev")
        || (res.group == GATEWAY_API && res.kind == "GatewayClass");
    let mut refs = match spec_node {
        Some(n) if walk => field_refs(res.group, res.kind, n),
        _ => Vec::new(),
    };
    refs.shrink_to_fit();
    // Labels are read by listener selectors (Namespaces) and policy targetSelectors; for other
    // kinds they would be kept for nothing.
    let mut labels = if res.kind == "Namespace" || is_target_kind(res.kind) {
        string_map(metadata.and_then(|m| m.get("labels")))
    } else {
        Vec::new()
    };
    if res.group.is_empty() && res.kind == "Namespace" {
        // The API server labels every Namespace with its own name (over any value written),
        // which is how a selector picks one namespace by name.
        labels.retain(|(k, _)| k != NAMESPACE_NAME_LABEL);
        labels.push((NAMESPACE_NAME_LABEL.to_string(), name.to_string()));
    }
    Some(Facts {
        id: Ident {
            group: res.group.to_string(),
            kind: res.kind.to_string(),
            namespace_known: res.namespace.is_some() || CLUSTER_SCOPED.contains(&res.kind),
            namespace,
            name: name.to_string(),
            file: res.file,
            span: root.span,
            name_span,
        },
        labels,
        spec,
        refs,
        inline_policies: (res.kind == "AiGatewayBackend")
            .then(|| inline_policies(spec_node, secrets))
            .flatten(),
        settings: None,
    })
}

/// What the facts keep of a resource's spec, by kind.
fn spec_of(
    res: &Resource<'_>,
    secrets: &Sensitive,
    metadata: Option<&Node>,
    spec_node: Option<&Node>,
) -> Spec {
    let root = res.root;
    match (res.group, res.kind) {
        (GATEWAY_API, "Gateway") => gateway(spec_node),
        (GATEWAY_API | GATEWAY_API_X, "ListenerSet" | "XListenerSet") => Spec::ListenerSet {
            parent: Box::new(
                spec_node
                    .and_then(|n| n.get("parentRef"))
                    .map(|n| obj_ref(n, "spec.parentRef".into()))
                    .unwrap_or_default(),
            ),
            listeners: listeners(spec_node),
        },
        (GATEWAY_API, "GatewayClass") => Spec::GatewayClass {
            controller: s(spec_node.and_then(|n| n.get("controllerName"))).unwrap_or_default(),
        },
        (GATEWAY_API, "HTTPRoute" | "GRPCRoute" | "TLSRoute" | "TCPRoute" | "UDPRoute") => {
            Spec::Route(Box::new(route_facts(res.kind, metadata, spec_node)))
        }
        ("", "Service") => Spec::Service {
            ports: seq(spec_node.and_then(|n| n.get("ports")))
                .iter()
                .filter_map(|p| Some((s(p.get("name")), int(p.get("port"))?)))
                .collect(),
        },
        ("", kind @ ("Secret" | "ConfigMap")) => data_keys(root, kind == "Secret"),
        ("", "Namespace") => Spec::Namespace,
        (GATEWAY_API, "ReferenceGrant") => reference_grant(spec_node),
        (_, "Backend" | "AiGatewayBackend") => Spec::Backend {
            sections: backend_sections(spec_node),
            variant: backend_variant(spec_node),
        },
        (_, "GatewayExtension") => extension(spec_node),
        ("gateway.kgateway.dev", "DirectResponse") => Spec::DirectResponse {
            status: int(spec_node.and_then(|n| n.get("status"))),
            body: spec_node
                .and_then(|n| n.get("body")?.as_str())
                .map(Box::from),
        },
        (group, kind) if is_policy_kind(group, kind) => {
            Spec::Policy(Box::new(policy_facts(kind, root, spec_node, secrets)))
        }
        _ => Spec::Other,
    }
}

/// A Gateway's class (as a reference to it) and listeners.
fn gateway(spec_node: Option<&Node>) -> Spec {
    Spec::Gateway {
        class: spec_node
            .and_then(|n| n.get("gatewayClassName"))
            .and_then(|n| {
                Some(Box::new(ObjRef {
                    name: n.as_str()?.into(),
                    span: n.span,
                    path: "spec.gatewayClassName".into(),
                    ..ObjRef::default()
                }))
            }),
        listeners: listeners(spec_node),
        allowed_listeners: allowed_listeners(spec_node),
    }
}

/// A Gateway's `spec.allowedListeners.namespaces`.
#[derive(Debug, Clone, Default)]
pub struct AllowedListeners {
    /// `from` as written; `None` when not written (the Gateway API's default: `None`, no
    /// ListenerSet is taken).
    pub from: Option<Box<str>>,
    pub selector: Option<Box<Selector>>,
    /// The field's position (the Gateway's, when not written).
    pub span: Span,
}

impl AllowedListeners {
    /// Whether a ListenerSet of `namespace` is taken by the Gateway of `gateway_namespace`;
    /// `labels`, the set's Namespace's when it is in the inputs (else a selector is not judged:
    /// `None`).
    pub fn admits(
        &self,
        gateway_namespace: &str,
        namespace: &str,
        labels: Option<&[(String, String)]>,
    ) -> Option<bool> {
        match self.from.as_deref().unwrap_or("None") {
            "All" => Some(true),
            "Same" => Some(namespace == gateway_namespace),
            "Selector" => {
                let selector = self.selector.as_deref()?;
                Some(selector.matches(labels?))
            }
            _ => Some(false),
        }
    }
}

fn allowed_listeners(spec: Option<&Node>) -> AllowedListeners {
    let field = spec.and_then(|n| n.get("allowedListeners"));
    let namespaces = field.and_then(|n| n.get("namespaces"));
    AllowedListeners {
        from: s(namespaces.and_then(|n| n.get("from"))).map(String::into_boxed_str),
        selector: namespaces
            .and_then(|n| n.get("selector"))
            .map(|n| Box::new(super::facts_listeners::selector(n))),
        span: field.map_or_else(|| spec.map_or(Span::default(), |n| n.span), |n| n.span),
    }
}

/// The label the API server gives every Namespace: its own name.
pub const NAMESPACE_NAME_LABEL: &str = "kubernetes.io/metadata.name";

/// A Secret's or ConfigMap's keys, of all its data fields; with `secret`, also those whose value
/// holds PEM data (`data` is base64, `stringData` text).
fn data_keys(root: &Node, secret: bool) -> Spec {
    let mut keys = Vec::new();
    let mut pem = Vec::new();
    for field in ["data", "stringData", "binaryData"] {
        let Some(m) = root.get(field).and_then(Node::as_map) else {
            continue;
        };
        for e in m {
            keys.push(e.key.to_string());
            if !secret {
                continue;
            }
            let text = e.value.as_str().unwrap_or("");
            let holds_pem = match field {
                "data" => crate::base64::decode(text).is_some_and(|b| has_pem_block(&b)),
                "stringData" => has_pem_block(text.as_bytes()),
                _ => false,
            };
            if holds_pem {
                pem.push(e.key.to_string());
            }
        }
    }
    Spec::Keys { keys, pem }
}

/// Whether bytes hold a PEM block: a `-----BEGIN ` line and, after it, its `-----END ` line
/// (what Go's `pem.Decode`, which the controller's TLS loading uses, looks for first).
fn has_pem_block(bytes: &[u8]) -> bool {
    let find = |from: usize, needle: &[u8]| {
        bytes
            .get(from..)?
            .windows(needle.len())
            .position(|w| w == needle)
            .map(|i| from + i)
    };
    find(0, b"-----BEGIN ").is_some_and(|at| find(at, b"-----END ").is_some())
}

/// A GatewayExtension's provider fields and its extAuth HTTP service's path prefix.
fn extension(spec_node: Option<&Node>) -> Spec {
    Spec::Extension {
        providers: spec_node
            .and_then(Node::as_map)
            .unwrap_or(&[])
            .iter()
            .map(|e| e.key.to_string())
            .filter(|k| k != "type")
            .collect(),
        path_prefix: spec_node
            .and_then(|n| n.get("extAuth")?.get("httpService")?.get("pathPrefix"))
            .and_then(|n| Some((n.as_str()?.to_string(), n.span))),
    }
}

fn reference_grant(spec: Option<&Node>) -> Spec {
    Spec::ReferenceGrant {
        from: seq(spec.and_then(|n| n.get("from")))
            .iter()
            .filter_map(|f| {
                Some((
                    s(f.get("group")).unwrap_or_default(),
                    s(f.get("kind"))?,
                    s(f.get("namespace"))?,
                ))
            })
            .collect(),
        to: seq(spec.and_then(|n| n.get("to")))
            .iter()
            .filter_map(|t| {
                Some((
                    s(t.get("group")).unwrap_or_default(),
                    s(t.get("kind"))?,
                    s(t.get("name")),
                ))
            })
            .collect(),
    }
}
