//! Facts of a policy: its targets (targetRefs and targetSelectors, as written), the fields it
//! sets (values kept as JSON, for merge and `explain`) and what orders it within one level of
//! precedence (weight annotation, creation time). `decisions.md` section 5 is the authority.

use crate::parse::Node;
use crate::secrets::Sensitive;
use crate::source::Span;

use super::facts::{GATEWAY_API, GATEWAY_API_X, ObjRef, Selector, int, obj_ref, string_map};
use super::facts_listeners::selector;

/// The annotation that ranks policies within one level (higher first).
pub const WEIGHT_ANNOTATION: &str = "kgateway.dev/policy-weight";

/// The kinds whose `targetRefs` / `targetSelectors` attach them to other objects.
pub fn is_policy_kind(group: &str, kind: &str) -> bool {
    match kind {
        "TrafficPolicy"
        | "BackendConfigPolicy"
        | "HTTPListenerPolicy"
        | "ListenerPolicy"
        | "AiGatewayPolicy" => group != GATEWAY_API && group != GATEWAY_API_X && !group.is_empty(),
        "BackendTLSPolicy" => group == GATEWAY_API,
        _ => false,
    }
}

/// The kinds a policy can select by label: their labels are kept in the facts.
/// Whether a policy kind's field configures only routes: on a Gateway or a listener it
/// configures nothing (TrafficPolicy `timeouts` applies to HTTPRoute targets and is ignored on
/// others, as its CRD says).
pub fn route_only_field(kind: &str, field: &str) -> bool {
    kind == "TrafficPolicy" && field == "timeouts"
}

pub fn is_target_kind(kind: &str) -> bool {
    matches!(
        kind,
        "Gateway"
            | "HTTPRoute"
            | "GRPCRoute"
            | "ListenerSet"
            | "XListenerSet"
            | "Service"
            | "Backend"
            | "AiGatewayBackend"
    )
}

/// A `targetSelectors[]` entry.
#[derive(Debug, Clone)]
pub struct TargetSelector {
    pub group: Option<String>,
    pub kind: String,
    pub selector: Selector,
    pub section: Option<String>,
    pub span: Span,
    /// `spec.targetSelectors[i]`.
    pub path: String,
    /// `matchLabels` as written (string values), `None` when it is not a mapping: the AI data
    /// plane selects by these alone, and nothing without them.
    pub match_labels: Option<Vec<(String, String)>>,
}

/// One field a policy sets, at the granularity merge works on: a top-level field of the spec,
/// or of `traffic` / `backend` / `frontend` in an AiGatewayPolicy.
#[derive(Debug, Clone)]
pub struct PolicyField {
    /// `timeouts`, or `traffic.extAuth` in an AiGatewayPolicy.
    pub name: String,
    pub value: serde_json::Value,
    /// The span of the field's key.
    pub key_span: Span,
}

#[derive(Debug, Clone, Default)]
pub struct PolicyFacts {
    pub target_refs: Vec<ObjRef>,
    pub target_selectors: Vec<TargetSelector>,
    pub fields: Vec<PolicyField>,
    /// `kgateway.dev/policy-weight`; 0 when absent or not an integer.
    pub weight: i64,
    /// `metadata.creationTimestamp` as written (RFC 3339 sorts as text).
    pub created: Option<String>,
    /// `metadata.generation`, which the policy's status conditions echo.
    pub generation: Option<i64>,
}

impl PolicyFacts {
    /// The value of a field the policy sets; of a field written twice, the last (as a JSON
    /// conversion of the spec keeps it).
    pub fn field(&self, name: &str) -> Option<&serde_json::Value> {
        self.fields
            .iter()
            .rev()
            .find(|f| f.name == name)
            .map(|f| &f.value)
    }
}

/// The sections of an AiGatewayPolicy whose sub-fields merge separately.
const AI_SECTIONS: &[&str] = &["traffic", "backend", "frontend"];

pub fn policy_facts(
    kind: &str,
    root: &Node,
    spec: Option<&Node>,
    secrets: &Sensitive,
) -> PolicyFacts {
    let metadata = root.get("metadata");
    let weight = metadata
        .and_then(|m| m.get("annotations"))
        .and_then(|a| a.get(WEIGHT_ANNOTATION))
        .and_then(|w| match w.as_str() {
            Some(text) => text.trim().parse().ok(),
            None => int(Some(w)),
        })
        .unwrap_or(0);
    let created = metadata
        .and_then(|m| m.get("creationTimestamp"))
        .and_then(Node::as_str)
        .map(str::to_string);
    let mut out = PolicyFacts {
        weight,
        created,
        generation: int(metadata.and_then(|m| m.get("generation"))),
        ..PolicyFacts::default()
    };
    let Some(entries) = spec.and_then(Node::as_map) else {
        return out;
    };
    for e in entries {
        match e.key.as_str() {
            "targetRefs" => {
                for (i, r) in e.value.as_seq().unwrap_or(&[]).iter().enumerate() {
                    out.target_refs
                        .push(obj_ref(r, format!("spec.targetRefs[{i}]")));
                }
            }
            "targetSelectors" => {
                for (i, r) in e.value.as_seq().unwrap_or(&[]).iter().enumerate() {
                    let Some(kind) = r.get("kind").and_then(Node::as_str) else {
                        continue;
                    };
                    out.target_selectors.push(TargetSelector {
                        group: r.get("group").and_then(Node::as_str).map(str::to_string),
                        kind: kind.to_string(),
                        selector: selector(r),
                        section: r
                            .get("sectionName")
                            .and_then(Node::as_str)
                            .map(str::to_string),
                        span: r.span,
                        path: format!("spec.targetSelectors[{i}]"),
                        match_labels: r
                            .get("matchLabels")
                            .filter(|m| m.as_map().is_some())
                            .map(|m| string_map(Some(m))),
                    });
                }
            }
            section if kind == "AiGatewayPolicy" && AI_SECTIONS.contains(&section) => {
                for sub in e.value.as_map().unwrap_or(&[]) {
                    out.fields.push(PolicyField {
                        name: format!("{section}.{}", sub.key),
                        value: secrets.json(&sub.value),
                        key_span: sub.key_span,
                    });
                }
            }
            _ => out.fields.push(PolicyField {
                name: e.key.to_string(),
                value: secrets.json(&e.value),
                key_span: e.key_span,
            }),
        }
    }
    out.fields.shrink_to_fit();
    out
}

/// The group a target reference means when it leaves `group` out.
pub fn default_group(kind: &str) -> &'static str {
    match kind {
        "Service" => "",
        "XListenerSet" => GATEWAY_API_X,
        "Backend" => "gateway.kgateway.dev",
        "AiGatewayBackend" => "agentgateway.dev",
        _ => GATEWAY_API,
    }
}
