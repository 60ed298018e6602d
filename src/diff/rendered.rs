//! Rendered configuration: per Gateway, the resources (by section and name) whose value changed,
//! each with a unified diff of its YAML. Resources are compared by name, not by position: one
//! that only moved in the list is no change.

use std::collections::BTreeMap;

use serde_json::Value;
use similar::TextDiff;

use crate::render::{Rendered, RenderedGateway};
use crate::report::yaml::to_yaml;

/// The pseudo-section a Gateway's status conditions are compared under.
const STATUSES: &str = "Statuses";
/// What is rendered for no single Gateway (the Envoy clusters, the AI data plane's backends and
/// policies) is listed under this name.
pub const SHARED: &str = "shared";

/// One side's rendered resources: Gateway (`Gateway/ns/name`, or [`SHARED`]) to (section, name).
pub type RenderedMap = BTreeMap<String, BTreeMap<(String, String), Value>>;

#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Change {
    Added,
    Removed,
    Changed,
}

#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct ResourceChange {
    pub section: String,
    pub name: String,
    pub change: Change,
    /// Unified diff of the resource's YAML (`--- a/SECTION/NAME`, `+++ b/SECTION/NAME`).
    pub diff: String,
}

#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct GatewayChange {
    pub gateway: String,
    pub changes: Vec<ResourceChange>,
}

/// Takes the rendering apart (the values are moved, not copied).
pub fn of_rendered(rendered: Rendered) -> RenderedMap {
    let mut out = RenderedMap::new();
    for g in rendered.gateways {
        out.insert(format!("Gateway/{}/{}", g.namespace, g.name), resources(g));
    }
    let mut shared: BTreeMap<(String, String), Value> = BTreeMap::new();
    for r in rendered.clusters.into_iter().chain(rendered.shared) {
        shared
            .entry((r.section.to_string(), r.name))
            .or_insert(r.value);
    }
    if !rendered.unrouted_statuses.is_null() {
        shared.insert(
            (STATUSES.to_string(), "unrouted backends".to_string()),
            rendered.unrouted_statuses,
        );
    }
    if !rendered.shared_statuses.is_null() {
        shared.insert(
            (STATUSES.to_string(), String::new()),
            rendered.shared_statuses,
        );
    }
    if !shared.is_empty() {
        out.insert(SHARED.to_string(), shared);
    }
    out
}

fn resources(g: RenderedGateway) -> BTreeMap<(String, String), Value> {
    let mut out: BTreeMap<(String, String), Value> = BTreeMap::new();
    for r in g.resources {
        // Names are unique within a section; were one repeated, the first is what is served.
        out.entry((r.section.to_string(), r.name))
            .or_insert(r.value);
    }
    if !g.statuses.is_null() {
        out.insert((STATUSES.to_string(), String::new()), g.statuses);
    }
    out
}

pub fn compare(base: &RenderedMap, head: &RenderedMap) -> Vec<GatewayChange> {
    let empty = BTreeMap::new();
    let mut gateways: Vec<&String> = base.keys().chain(head.keys()).collect();
    gateways.sort_unstable();
    gateways.dedup();
    let mut out = Vec::new();
    for gateway in gateways {
        let before = base.get(gateway).unwrap_or(&empty);
        let after = head.get(gateway).unwrap_or(&empty);
        let mut keys: Vec<&(String, String)> = before.keys().chain(after.keys()).collect();
        keys.sort_unstable();
        keys.dedup();
        let changes: Vec<ResourceChange> = keys
            .into_iter()
            .filter_map(|k| resource_change(k, before.get(k), after.get(k)))
            .collect();
        if !changes.is_empty() {
            out.push(GatewayChange {
                gateway: gateway.clone(),
                changes,
            });
        }
    }
    out
}

fn resource_change(
    (section, name): &(String, String),
    before: Option<&Value>,
    after: Option<&Value>,
) -> Option<ResourceChange> {
    let change = match (before, after) {
        (Some(b), Some(a)) if b == a => return None,
        (Some(_), Some(_)) => Change::Changed,
        (None, Some(_)) => Change::Added,
        (Some(_), None) => Change::Removed,
        (None, None) => return None,
    };
    let yaml = |v: Option<&Value>| v.map(to_yaml).unwrap_or_default();
    let (old, new) = (yaml(before), yaml(after));
    let path = if name.is_empty() {
        section.clone()
    } else {
        format!("{section}/{name}")
    };
    let diff = TextDiff::from_lines(&old, &new)
        .unified_diff()
        .context_radius(3)
        .header(&format!("a/{path}"), &format!("b/{path}"))
        .to_string();
    Some(ResourceChange {
        section: section.clone(),
        name: name.clone(),
        change,
        diff,
    })
}
