//! Rendered configuration: per Gateway, the resources (by section and name) whose value changed,
//! each with a unified diff of its YAML. Resources are compared by name, not by position: one
//! that only moved in the list is no change.

use std::collections::{BTreeMap, BTreeSet};

use rayon::prelude::*;
use serde_json::Value;
use similar::TextDiff;

use crate::render::{Rendered, RenderedGateway};
use crate::report::yaml::to_yaml;

/// The pseudo-section a Gateway's status conditions are compared under.
const STATUSES: &str = "Statuses";
/// What is rendered for no single Gateway (the Envoy clusters, the AI data plane's backends and
/// policies) is listed under this name.
pub const SHARED: &str = "shared";

/// One side's rendered resources: Gateway (`Gateway/ns/name`, or [`SHARED`]) to (section, name)
/// to the resource as one line of JSON. Kept as text, not as a tree: a side's whole rendering is
/// held until the other side is made, and its text takes a fraction of the tree's memory.
pub type RenderedMap = BTreeMap<String, BTreeMap<(String, String), Box<str>>>;

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

/// Takes a whole rendering apart.
pub fn of_rendered(rendered: Rendered) -> RenderedMap {
    let mut out = RenderedMap::new();
    let mut rest = rendered;
    for g in std::mem::take(&mut rest.gateways) {
        add_gateway(&mut out, g);
    }
    add_rest(&mut out, rest);
    out
}

/// Adds one Gateway's rendering, as the renderer hands it on.
pub fn add_gateway(out: &mut RenderedMap, g: RenderedGateway) {
    let (key, resources) = taken_apart(g);
    out.insert(key, resources);
}

/// One Gateway's resources, by (section, name).
type Resources = BTreeMap<(String, String), Box<str>>;

/// How many Gateways' renderings are taken apart (and compared) at once, per thread. The
/// renderer hands them on one at a time, on one thread: taken apart there, they measured the
/// slowest part of a diff.
const BATCH_PER_THREAD: usize = 4;

/// A side's rendering taken apart as it is made: the renderings a batch at a time, in parallel.
#[derive(Default)]
pub struct Collect {
    map: RenderedMap,
    pending: Vec<RenderedGateway>,
}

impl Collect {
    /// One Gateway's rendering, as the renderer hands it on.
    pub fn add_gateway(&mut self, g: RenderedGateway) {
        self.pending.push(g);
        if full(&self.pending) {
            self.flush();
        }
    }

    fn flush(&mut self) {
        // In the order handed on: a Gateway rendered twice is the later rendering, as in a map.
        self.map
            .extend(take_apart_all(&mut self.pending, |key, resources| {
                (key, resources)
            }));
    }

    /// What is rendered for no single Gateway, last; the side's rendering.
    pub fn finish(mut self, rest: Rendered) -> RenderedMap {
        self.flush();
        add_rest(&mut self.map, rest);
        self.map
    }
}

/// Whether enough renderings wait to be taken apart in parallel.
fn full(pending: &[RenderedGateway]) -> bool {
    pending.len() >= BATCH_PER_THREAD * rayon::current_num_threads()
}

/// The pending renderings taken apart in parallel, each then mapped, in their order.
fn take_apart_all<T: Send>(
    pending: &mut Vec<RenderedGateway>,
    map: impl Fn(String, Resources) -> T + Sync,
) -> Vec<T> {
    std::mem::take(pending)
        .into_par_iter()
        .map(|g| {
            let (key, resources) = taken_apart(g);
            map(key, resources)
        })
        .collect()
}

/// A Gateway's key in a side's rendering.
fn gateway_key(namespace: &str, name: &str) -> String {
    format!("Gateway/{namespace}/{name}")
}

/// A Gateway's key ([`gateway_key`]) and its resources as text.
fn taken_apart(g: RenderedGateway) -> (String, Resources) {
    let key = gateway_key(&g.namespace, &g.name);
    let mut resources: Resources = BTreeMap::new();
    for r in g.resources {
        // Names are unique within a section; were one repeated, the first is what is served.
        resources
            .entry((r.section.to_string(), r.name))
            .or_insert_with(|| text(&r.value));
    }
    if !g.statuses.is_null() {
        resources.insert((STATUSES.to_string(), String::new()), text(&g.statuses));
    }
    (key, resources)
}

/// Keeps of a side's rendering what is rendered for no single Gateway and the Gateways in
/// `gateways` (namespace, name): what the other side renders when it renders only those.
pub fn keep_only(map: &mut RenderedMap, gateways: &BTreeSet<(String, String)>) {
    let keys: BTreeSet<String> = gateways
        .iter()
        .map(|(ns, name)| gateway_key(ns, name))
        .collect();
    map.retain(|key, _| !key.starts_with("Gateway/") || keys.contains(key));
}

/// Adds what is rendered for no single Gateway (the rendering without its Gateways).
pub fn add_rest(out: &mut RenderedMap, rendered: Rendered) {
    let mut shared: BTreeMap<(String, String), Box<str>> = BTreeMap::new();
    for r in rendered.clusters.into_iter().chain(rendered.shared) {
        shared
            .entry((r.section.to_string(), r.name))
            .or_insert_with(|| text(&r.value));
    }
    if !rendered.unrouted_statuses.is_null() {
        shared.insert(
            (STATUSES.to_string(), "unrouted backends".to_string()),
            text(&rendered.unrouted_statuses),
        );
    }
    if !rendered.shared_statuses.is_null() {
        shared.insert(
            (STATUSES.to_string(), String::new()),
            text(&rendered.shared_statuses),
        );
    }
    if !shared.is_empty() {
        out.insert(SHARED.to_string(), shared);
    }
}

fn text(value: &Value) -> Box<str> {
    serde_json::to_string(value)
        .unwrap_or_default()
        .into_boxed_str()
}

pub fn compare(base: &RenderedMap, head: &RenderedMap) -> Vec<GatewayChange> {
    let empty = BTreeMap::new();
    let mut gateways: Vec<&String> = base.keys().chain(head.keys()).collect();
    gateways.sort_unstable();
    gateways.dedup();
    gateways
        .into_iter()
        .filter_map(|gateway| {
            gateway_change(
                gateway,
                base.get(gateway).unwrap_or(&empty),
                head.get(gateway).unwrap_or(&empty),
            )
        })
        .collect()
}

/// The changes of one Gateway (or [`SHARED`]) between its two sides' resources.
/// How `after`, rendered under `key`, differs from the base's rendering under it (none there:
/// all of it is added).
fn against_base(base: &RenderedMap, key: &str, after: &Resources) -> Option<GatewayChange> {
    let empty = BTreeMap::new();
    gateway_change(key, base.get(key).unwrap_or(&empty), after)
}

fn gateway_change(
    gateway: &str,
    before: &BTreeMap<(String, String), Box<str>>,
    after: &BTreeMap<(String, String), Box<str>>,
) -> Option<GatewayChange> {
    let mut keys: Vec<&(String, String)> = before.keys().chain(after.keys()).collect();
    keys.sort_unstable();
    keys.dedup();
    let changes: Vec<ResourceChange> = keys
        .into_iter()
        .filter_map(|k| resource_change(k, before.get(k).map(|t| &**t), after.get(k).map(|t| &**t)))
        .collect();
    (!changes.is_empty()).then(|| GatewayChange {
        gateway: gateway.to_string(),
        changes,
    })
}

/// The other side's rendering compared with `base` as it is made, Gateway by Gateway: only the
/// changes are kept, never that side's whole rendering ([`compare`] of the two maps, without the
/// second map).
pub struct Against<'b> {
    base: &'b RenderedMap,
    changes: Vec<GatewayChange>,
    /// The Gateways (and [`SHARED`]) the other side rendered.
    seen: std::collections::BTreeSet<String>,
    /// Renderings waiting to be compared, a batch at a time in parallel.
    pending: Vec<RenderedGateway>,
}

impl<'b> Against<'b> {
    pub fn new(base: &'b RenderedMap) -> Self {
        Against {
            base,
            changes: Vec::new(),
            seen: std::collections::BTreeSet::new(),
            pending: Vec::new(),
        }
    }

    /// One Gateway's rendering, as the renderer hands it on.
    pub fn add_gateway(&mut self, g: RenderedGateway) {
        self.pending.push(g);
        if full(&self.pending) {
            self.flush();
        }
    }

    /// What is rendered for no single Gateway.
    pub fn add_rest(&mut self, rendered: Rendered) {
        self.flush();
        let mut one = RenderedMap::new();
        add_rest(&mut one, rendered);
        for (key, after) in one {
            let change = against_base(self.base, &key, &after);
            self.record(key, change);
        }
    }

    /// Compares the pending renderings with the base's (in parallel), recorded in their order.
    fn flush(&mut self) {
        let base = self.base;
        let compared = take_apart_all(&mut self.pending, |key, after| {
            let change = against_base(base, &key, &after);
            (key, change)
        });
        for (key, change) in compared {
            self.record(key, change);
        }
    }

    fn record(&mut self, key: String, change: Option<GatewayChange>) {
        // Rendered twice under one name, the later rendering is the side's (as in a map).
        if self.seen.contains(&key) {
            self.changes.retain(|c| c.gateway != key);
        }
        self.changes.extend(change);
        self.seen.insert(key);
    }

    /// The changes, in [`compare`]'s order, with what only `base` rendered as removed.
    pub fn finish(mut self) -> (Vec<GatewayChange>, std::collections::BTreeSet<String>) {
        self.flush();
        let empty = BTreeMap::new();
        let mut changes = self.changes;
        for (key, before) in self.base {
            if !self.seen.contains(key) {
                changes.extend(gateway_change(key, before, &empty));
            }
        }
        changes.sort_by(|a, b| a.gateway.cmp(&b.gateway));
        (changes, self.seen)
    }
}

fn resource_change(
    (section, name): &(String, String),
    before: Option<&str>,
    after: Option<&str>,
) -> Option<ResourceChange> {
    if before == after {
        return None;
    }
    // The text of what was rendered, read back (in the order it was written). Two texts may
    // differ only in the order of an object's keys, which is no change.
    let value = |t: Option<&str>| t.map(|t| serde_json::from_str::<Value>(t).unwrap_or_default());
    let (before, after) = (value(before), value(after));
    let change = match (&before, &after) {
        (Some(b), Some(a)) if b == a => return None,
        (Some(_), Some(_)) => Change::Changed,
        (None, Some(_)) => Change::Added,
        (Some(_), None) => Change::Removed,
        (None, None) => return None,
    };
    let yaml = |v: Option<Value>| v.as_ref().map(to_yaml).unwrap_or_default();
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
