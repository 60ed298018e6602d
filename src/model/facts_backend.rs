//! Facts of Backends and AiGatewayBackends: which kind of destination each is, the section
//! names policies may target, and the policies an AiGatewayBackend carries inline.

use crate::parse::Node;
use crate::secrets::Sensitive;

use super::facts::{InlinePolicies, s, seq};

fn fields_of(node: Option<&Node>, secrets: &Sensitive) -> Vec<(String, serde_json::Value)> {
    node.and_then(Node::as_map)
        .unwrap_or(&[])
        .iter()
        .map(|e| (e.key.to_string(), secrets.json(&e.value)))
        .collect()
}

pub(super) fn inline_policies(
    spec: Option<&Node>,
    secrets: &Sensitive,
) -> Option<Box<InlinePolicies>> {
    let spec = spec?;
    let mut out = InlinePolicies {
        backend: fields_of(spec.get("policies"), secrets),
        sections: Vec::new(),
    };
    let providers = spec
        .get("ai")
        .map(|ai| {
            seq(ai.get("groups"))
                .iter()
                .flat_map(|g| seq(g.get("providers")))
        })
        .into_iter()
        .flatten();
    let targets = spec
        .get("mcp")
        .map(|m| seq(m.get("targets")))
        .unwrap_or(&[]);
    for p in providers.chain(targets.iter()) {
        if let (Some(name), Some(_)) = (s(p.get("name")), p.get("policies")) {
            out.sections
                .push((name, fields_of(p.get("policies"), secrets)));
        }
    }
    (!out.backend.is_empty() || !out.sections.is_empty()).then(|| Box::new(out))
}

/// Which kind of destination a Backend is (see [`Spec::Backend`]).
pub(super) fn backend_variant(spec: Option<&Node>) -> Option<&'static str> {
    let spec = spec?;
    if s(spec.get("type")).as_deref() == Some("Cloud") {
        return Some("cloud");
    }
    ["ai", "mcp", "static", "dynamicForwardProxy", "cloud"]
        .into_iter()
        .find(|k| spec.get(k).is_some())
}

/// Names a policy's `sectionName` may use on a backend: AI providers and MCP targets.
pub(super) fn backend_sections(spec: Option<&Node>) -> Vec<String> {
    let mut out = Vec::new();
    let Some(spec) = spec else { return out };
    if let Some(ai) = spec.get("ai") {
        for g in seq(ai.get("groups")) {
            for p in seq(g.get("providers")) {
                out.extend(s(p.get("name")));
            }
        }
    }
    if let Some(mcp) = spec.get("mcp") {
        for t in seq(mcp.get("targets")) {
            out.extend(s(t.get("name")));
        }
    }
    out
}
