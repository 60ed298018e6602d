//! Typed model stage: which documents are Kubernetes objects, and their identity
//! (group, version, kind, namespace, name). Later stages work on [`Resource`]s.

pub mod facts;
pub mod facts_policy;
pub mod written;

/// A resource kept whole (for `render`): who it is and its JSON value (`null` for a resource
/// later stages read from the typed model alone, see [`read_typed_only`]).
#[derive(Debug, Clone)]
pub struct Object {
    pub id: facts::Ident,
    pub value: serde_json::Value,
    /// Its digest and the names its spec mentions, for `diff` (`Needs::Diff`; else `None`).
    pub written: Option<Box<written::Written>>,
}

/// Whether every stage after the model reads the resource from its typed facts alone, never
/// from its JSON (`render` then keeps no JSON of it): the policies but BackendTLSPolicies (the
/// policy facts keep their fields; the AI data plane's renderer reads a BackendTLSPolicy's
/// JSON), the routes, Gateways, GatewayClasses and Namespaces (their typed facts keep their
/// listeners, controller and labels), and the Services, Secrets and AiGatewayBackends (their
/// render-only settings keep what render reads).
pub fn read_typed_only(facts: &facts::Facts) -> bool {
    let id = &facts.id;
    match (id.group.as_str(), id.kind.as_str()) {
        (_, "BackendTLSPolicy") => false,
        (facts::GATEWAY_API, "Gateway") => matches!(
            facts.settings.as_deref(),
            Some(facts_settings::Settings::Gateway(_))
        ),
        (facts::GATEWAY_API, "GatewayClass") | ("", "Namespace") => true,
        (facts::GATEWAY_API, _) if facts.route().is_some() => matches!(
            facts.settings.as_deref(),
            Some(facts_settings::Settings::Route(_))
        ),
        ("", "Service") => matches!(
            facts.settings.as_deref(),
            Some(facts_settings::Settings::Service(_))
        ),
        ("", "Secret") => matches!(
            facts.settings.as_deref(),
            Some(facts_settings::Settings::Secret { .. })
        ),
        ("agentgateway.dev", "AiGatewayBackend") => matches!(
            facts.settings.as_deref(),
            Some(facts_settings::Settings::AiBackend(_))
        ),
        _ => facts.policy().is_some(),
    }
}
mod facts_backend;
mod facts_listeners;
mod facts_refs;
mod facts_route;
pub mod facts_rules;
pub mod facts_settings;
mod facts_status;

use crate::diag::{Diagnostic, ResourceRef};
use crate::parse::{Node, ParsedDocument};
use crate::rules;
use crate::source::{FileId, SourceFile, Span};

/// A Kubernetes object found in the input.
#[derive(Debug, Clone, Copy)]
pub struct Resource<'a> {
    pub file: FileId,
    /// The file's text, for checks that map positions inside a scalar (an expression) to the file.
    pub source: &'a SourceFile,
    pub root: &'a Node,
    pub api_version: &'a str,
    /// Empty for the core group (`apiVersion: v1`).
    pub group: &'a str,
    pub version: &'a str,
    pub kind: &'a str,
    pub name: Option<&'a str>,
    pub namespace: Option<&'a str>,
    /// Field path prefix of this object inside its document (`items[3].` inside a List, else empty).
    pub path_prefix_index: Option<usize>,
}

impl<'a> Resource<'a> {
    pub fn reference(&self) -> ResourceRef {
        ResourceRef {
            kind: self.kind.to_string(),
            namespace: self.namespace.map(str::to_string),
            name: self.name.unwrap_or("<unnamed>").to_string(),
        }
    }
}

/// The objects of one parsed document: one, or the items of a `kind: List`; findings for documents
/// that are not objects. An empty document (`---` alone, only comments) yields nothing.
pub fn resources_of<'a>(
    source: &'a SourceFile,
    doc: &'a ParsedDocument,
) -> (Vec<Resource<'a>>, Vec<Diagnostic>) {
    let mut out = Vec::new();
    let mut diags = Vec::new();
    classify(source, &doc.root, None, &mut out, &mut diags);
    (out, diags)
}

fn classify<'a>(
    source: &'a SourceFile,
    root: &'a Node,
    index: Option<usize>,
    out: &mut Vec<Resource<'a>>,
    diags: &mut Vec<Diagnostic>,
) {
    let file = source.id;
    let (api_version, kind) = match object_type(root, index) {
        Ok(Some(t)) => t,
        Ok(None) => return,
        Err((msg, span)) => {
            diags.push(Diagnostic::new(rules::GW004, msg).at(file, span));
            return;
        }
    };
    if index.is_none()
        && kind.ends_with("List")
        && api_version == "v1"
        && let Some(items) = root.get("items").and_then(Node::as_seq)
    {
        for (i, item) in items.iter().enumerate() {
            classify(source, item, Some(i), out, diags);
        }
        return;
    }
    let (group, version) = match api_version.rsplit_once('/') {
        Some((g, v)) => (g, v),
        None => ("", api_version),
    };
    let metadata = root.get("metadata");
    let meta_str = |key: &str| metadata.and_then(|m| m.get(key)).and_then(Node::as_str);
    out.push(Resource {
        file,
        source,
        root,
        api_version,
        group,
        version,
        kind,
        name: meta_str("name"),
        namespace: source
            .namespace
            .as_deref()
            .filter(|_| !facts::CLUSTER_SCOPED.contains(&kind))
            .or_else(|| meta_str("namespace")),
        path_prefix_index: index,
    });
}

/// A document's `apiVersion` and `kind`; `None` for an empty document, else why it is not a
/// Kubernetes object and where.
fn object_type(root: &Node, index: Option<usize>) -> Result<Option<(&str, &str)>, (String, Span)> {
    use crate::parse::Value;
    let where_ = match index {
        Some(i) => format!("items[{i}]: "),
        None => String::new(),
    };
    match &root.value {
        Value::Null if index.is_none() => return Ok(None),
        Value::Map(_) => {}
        _ => {
            return Err((
                format!(
                    "{where_}document is not a Kubernetes object: expected a mapping with apiVersion and kind, found {}",
                    root.type_name()
                ),
                root.span,
            ));
        }
    }
    let api_version = root.get("apiVersion").and_then(Node::as_str);
    let kind = root.get("kind").and_then(Node::as_str);
    if let (Some(api_version), Some(kind)) = (api_version, kind) {
        return Ok(Some((api_version, kind)));
    }
    let missing: Vec<&str> = [
        ("apiVersion", api_version.is_none()),
        ("kind", kind.is_none()),
    ]
    .iter()
    .filter(|(_, m)| *m)
    .map(|(n, _)| *n)
    .collect();
    let what = missing.join(" and ");
    let not_string = missing.iter().any(|k| root.get(k).is_some());
    let msg = if not_string {
        format!("{where_}document is not a Kubernetes object: {what} must be a string")
    } else {
        format!("{where_}document is not a Kubernetes object: missing {what}")
    };
    let span = missing
        .iter()
        .find_map(|k| root.entry(k))
        .map(|e| e.value.span)
        .unwrap_or(root.span);
    Err((msg, span))
}
