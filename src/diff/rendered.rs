//! Rendered configuration: per Gateway, the resources (by section and name) whose value changed,
//! each with a unified diff of its YAML. Resources are compared by name, not by position: one
//! that only moved in the list is no change.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::{Arc, Mutex, PoisonError};

use rayon::prelude::*;
use serde_json::Value;

use super::resource::{Resource, resource_change};
use crate::render::{self, Rendered, RenderedGateway, RenderedResource};

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

/// One Gateway's resources as text, by (section, name).
type Resources = BTreeMap<(String, String), Box<str>>;

/// One Gateway's resources as rendered (the side compared with a base's text), by (section,
/// name).
type Made = BTreeMap<(String, String), Value>;

/// A side's rendering taken apart as it is made (a [`render::Sink`]): each Gateway's resources
/// made text on the thread that rendered them, and what is rendered for no single Gateway (the
/// AI data plane's tens of thousands of shared resources) made text as it comes, never held as
/// trees.
#[derive(Default)]
pub struct Collect {
    map: RenderedMap,
    /// What is rendered for no single Gateway, so far.
    shared: Resources,
}

impl Collect {
    /// A chunk of Gateways' renderings, as the renderer hands them on (in input order).
    pub fn add_gateways(&mut self, chunk: Vec<RenderedGateway>) {
        let taken: Vec<(String, Resources)> = chunk.into_par_iter().map(taken_apart).collect();
        render::Sink::gateways(self, taken);
    }

    /// What is rendered for no single Gateway, last; the side's rendering.
    pub fn finish(mut self, rest: Rendered) -> RenderedMap {
        render::Sink::rest(&mut self, rest);
        self.into_map()
    }

    /// The side's rendering, once the renderer handed everything on.
    pub fn into_map(mut self) -> RenderedMap {
        if !self.shared.is_empty() {
            self.map.insert(SHARED.to_string(), self.shared);
        }
        self.map
    }
}

impl render::Sink for Collect {
    type Gateway = (String, Resources);
    type Settings = ();

    fn settings(&self) {}

    fn make((): &(), gateway: RenderedGateway) -> (String, Resources) {
        taken_apart(gateway)
    }

    fn gateways(&mut self, chunk: Vec<(String, Resources)>) {
        // In the order handed on: a Gateway rendered twice is the later rendering, as in a map.
        self.map.extend(chunk);
    }

    fn rest(&mut self, rest: Rendered) {
        // Thousands of clusters: written as text in parallel, kept in order.
        let texts: Vec<((String, String), Box<str>, Keep)> = rest_apart(rest)
            .into_par_iter()
            .map(|(key, value, how)| (key, text(&value), how))
            .collect();
        for (key, text, how) in texts {
            match how {
                Keep::First => {
                    self.shared.entry(key).or_insert(text);
                }
                Keep::Last => {
                    self.shared.insert(key, text);
                }
            }
        }
    }

    fn shared(&mut self, resource: RenderedResource) {
        self.shared_batch(vec![resource]);
    }

    fn shared_batch(&mut self, batch: Vec<RenderedResource>) {
        // Written as text in parallel, kept in order (the first of a name is what is served).
        let texts: Vec<((String, String), Box<str>)> = batch
            .into_par_iter()
            .map(|r| ((r.section.to_string(), r.name), text(&r.value)))
            .collect();
        for (key, text) in texts {
            self.shared.entry(key).or_insert(text);
        }
    }

    fn shared_statuses(&mut self, statuses: Value) {
        if !statuses.is_null() {
            self.shared
                .insert((STATUSES.to_string(), String::new()), text(&statuses));
        }
    }
}

/// A Gateway's key in a side's rendering.
pub(super) fn gateway_key(namespace: &str, name: &str) -> String {
    format!("Gateway/{namespace}/{name}")
}

/// A Gateway's key ([`gateway_key`]) and its resources as text.
fn taken_apart(g: RenderedGateway) -> (String, Resources) {
    let (key, made) = made_apart(g);
    let resources = made.into_iter().map(|(k, v)| (k, text(&v))).collect();
    (key, resources)
}

/// A Gateway's key ([`gateway_key`]) and its resources as rendered.
fn made_apart(g: RenderedGateway) -> (String, Made) {
    let key = gateway_key(&g.namespace, &g.name);
    let mut resources: Made = BTreeMap::new();
    for r in g.resources {
        // Names are unique within a section; were one repeated, the first is what is served.
        resources
            .entry((r.section.to_string(), r.name))
            .or_insert(r.value);
    }
    if !g.statuses.is_null() {
        resources.insert((STATUSES.to_string(), String::new()), g.statuses);
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
    let mut collect = Collect::default();
    render::Sink::rest(&mut collect, rendered);
    out.extend(collect.into_map());
}

/// Which of two resources of one (section, name) a side's rendering keeps.
#[derive(Clone, Copy)]
enum Keep {
    /// The first: names are unique within a section; were one repeated, the first is served.
    First,
    /// The last (the statuses, written after the resources).
    Last,
}

/// What is rendered for no single Gateway, by (section, name), in the order it is kept: the
/// clusters, the AI data plane's shared resources, then the statuses.
fn rest_apart(rendered: Rendered) -> Vec<((String, String), Value, Keep)> {
    let mut out: Vec<((String, String), Value, Keep)> = rendered
        .clusters
        .into_iter()
        .chain(rendered.shared)
        .map(|r| ((r.section.to_string(), r.name), r.value, Keep::First))
        .collect();
    if !rendered.unrouted_statuses.is_null() {
        let key = (STATUSES.to_string(), "unrouted backends".to_string());
        out.push((key, rendered.unrouted_statuses, Keep::Last));
    }
    if !rendered.shared_statuses.is_null() {
        let key = (STATUSES.to_string(), String::new());
        out.push((key, rendered.shared_statuses, Keep::Last));
    }
    out
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
fn gateway_change<A: Resource + Sync>(
    gateway: &str,
    before: &Resources,
    after: &BTreeMap<(String, String), A>,
) -> Option<GatewayChange> {
    let mut keys: Vec<&(String, String)> = before.keys().chain(after.keys()).collect();
    keys.sort_unstable();
    keys.dedup();
    // In parallel: what is rendered for no single Gateway is tens of thousands of resources.
    let changes: Vec<ResourceChange> = keys
        .into_par_iter()
        .filter_map(|k| resource_change(k, before.get(k).map(|t| &**t), after.get(k)))
        .collect();
    (!changes.is_empty()).then(|| GatewayChange {
        gateway: gateway.to_string(),
        changes,
    })
}

/// The other side's rendering compared with `base` as it is made (a [`render::Sink`]): each
/// Gateway on the thread that rendered it, the resources rendered for no single Gateway as they
/// come. Only the changes are kept, never that side's rendering ([`compare`] of the two maps,
/// without the second map); and the base's rendering of what is compared is freed then, so
/// that the two sides' renderings are never in memory whole at once.
pub struct Against {
    /// The base's Gateways, each taken when compared (one of `repeated` is copied): shared
    /// with the threads comparing them while this sink takes the previous chunk.
    gateways: Arc<Slots>,
    /// The base's resources rendered for no single Gateway, each removed once compared.
    base_shared: Resources,
    /// The Gateways the other side renders more than once: their base rendering is kept.
    repeated: Arc<BTreeSet<String>>,
    changes: Vec<GatewayChange>,
    /// The Gateways (and [`SHARED`]) the other side rendered.
    seen: BTreeSet<String>,
    /// What is rendered for no single Gateway so far: each (section, name) with its change.
    shared: BTreeMap<(String, String), Option<ResourceChange>>,
}

impl Against {
    /// Against `base`; `repeated`, the keys ([`gateway_key`]) of the Gateways the other side
    /// renders more than once (a Gateway defined twice), whose base rendering each compares with.
    pub fn new(mut base: RenderedMap, repeated: BTreeSet<String>) -> Self {
        let base_shared = base.remove(SHARED).unwrap_or_default();
        Against {
            gateways: Arc::new(
                base.into_iter()
                    .map(|(key, resources)| (key, Mutex::new(Some(resources))))
                    .collect(),
            ),
            base_shared,
            repeated: Arc::new(repeated),
            changes: Vec::new(),
            seen: BTreeSet::new(),
            shared: BTreeMap::new(),
        }
    }

    /// A chunk of Gateways' renderings, as the renderer hands them on (in input order),
    /// compared with the base's in parallel.
    pub fn add_gateways(&mut self, chunk: Vec<RenderedGateway>) {
        let settings = render::Sink::settings(self);
        let compared = chunk
            .into_par_iter()
            .map(|g| <Self as render::Sink>::make(&settings, g))
            .collect();
        render::Sink::gateways(self, compared);
    }

    /// What is rendered for no single Gateway.
    pub fn add_rest(&mut self, rendered: Rendered) {
        render::Sink::rest(self, rendered);
    }

    /// Resources rendered for no single Gateway, in order, compared with the base's in
    /// parallel.
    fn add_shared(&mut self, resources: Vec<((String, String), Value, Keep)>) {
        let before = &self.base_shared;
        let compared: Vec<((String, String), Option<ResourceChange>, Keep)> = resources
            .into_par_iter()
            .map(|(key, value, how)| {
                let text = before.get(&key).map(|t| &**t);
                let change = resource_change(&key, text, Some(&value));
                (key, change, how)
            })
            .collect();
        for (key, change, how) in compared {
            match how {
                Keep::First => {
                    // Only the first of a name is kept: a later one's comparison is not
                    // needed, and the base's text can go.
                    self.base_shared.remove(&key);
                    self.shared.entry(key).or_insert(change);
                }
                Keep::Last => {
                    self.shared.insert(key, change);
                }
            }
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
    pub fn finish(mut self) -> (Vec<GatewayChange>, BTreeSet<String>) {
        let shared = std::mem::take(&mut self.shared);
        if !shared.is_empty() {
            let change = self.shared_change(shared);
            self.record(SHARED.to_string(), change);
        }
        let empty: Made = BTreeMap::new();
        let mut changes = self.changes;
        for (key, before) in self.gateways.iter() {
            let before = before.lock().unwrap_or_else(PoisonError::into_inner).take();
            if let Some(before) = before.filter(|_| !self.seen.contains(key)) {
                changes.extend(gateway_change(key, &before, &empty));
            }
        }
        changes.sort_by(|a, b| a.gateway.cmp(&b.gateway));
        (changes, self.seen)
    }

    /// The changes of what is rendered for no single Gateway, with what only the base
    /// rendered as removed.
    fn shared_change(
        &self,
        mut shared: BTreeMap<(String, String), Option<ResourceChange>>,
    ) -> Option<GatewayChange> {
        let before = self.base_shared.iter();
        let removed: Vec<(&(String, String), &Box<str>)> =
            before.filter(|(k, _)| !shared.contains_key(*k)).collect();
        let removed: Vec<ResourceChange> = removed
            .into_par_iter()
            .filter_map(|(k, text)| resource_change::<Value>(k, Some(text), None))
            .collect();
        for change in removed {
            let key = (change.section.clone(), change.name.clone());
            shared.insert(key, Some(change));
        }
        let changes: Vec<ResourceChange> = shared.into_values().flatten().collect();
        (!changes.is_empty()).then(|| GatewayChange {
            gateway: SHARED.to_string(),
            changes,
        })
    }
}

/// The base's Gateways by key, each until it is compared.
type Slots = BTreeMap<String, Mutex<Option<Resources>>>;

/// What comparing a Gateway reads: the base's Gateways and which of them are repeated.
pub struct Base {
    gateways: Arc<Slots>,
    repeated: Arc<BTreeSet<String>>,
}

impl Base {
    /// The base's rendering of a Gateway, taken (a repeated one copied); none when the base
    /// has not rendered it.
    fn take(&self, key: &str) -> Option<Resources> {
        let mut slot = self
            .gateways
            .get(key)?
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        if self.repeated.contains(key) {
            slot.clone()
        } else {
            slot.take()
        }
    }
}

impl render::Sink for Against {
    type Gateway = (String, Option<GatewayChange>);
    type Settings = Base;

    fn settings(&self) -> Base {
        Base {
            gateways: Arc::clone(&self.gateways),
            repeated: Arc::clone(&self.repeated),
        }
    }

    fn make(base: &Base, g: RenderedGateway) -> (String, Option<GatewayChange>) {
        let (key, after) = made_apart(g);
        let before = base.take(&key).unwrap_or_default();
        let change = gateway_change(&key, &before, &after);
        (key, change)
    }

    fn gateways(&mut self, chunk: Vec<(String, Option<GatewayChange>)>) {
        for (key, change) in chunk {
            self.record(key, change);
        }
    }

    fn rest(&mut self, rest: Rendered) {
        self.add_shared(rest_apart(rest));
    }

    fn shared(&mut self, resource: RenderedResource) {
        self.shared_batch(vec![resource]);
    }

    fn shared_batch(&mut self, batch: Vec<RenderedResource>) {
        let resources = batch
            .into_iter()
            .map(|r| ((r.section.to_string(), r.name), r.value, Keep::First))
            .collect();
        self.add_shared(resources);
    }

    fn shared_statuses(&mut self, statuses: Value) {
        if !statuses.is_null() {
            let key = (STATUSES.to_string(), String::new());
            self.add_shared(vec![(key, statuses, Keep::Last)]);
        }
    }
}
