//! The output documents of a rendering: one per Gateway, then those of what belongs to no single
//! Gateway (`Shared: envoy`, the clusters and the statuses of unrouted backends' policies;
//! `Shared: ai`, the AI data plane's backends and policies). The rendering is consumed: its
//! values move into the documents, which matters when they hold a large repository's output.

use serde_json::{Map, Value};

use super::{Rendered, RenderedGateway, RenderedResource};

impl Rendered {
    /// Every output document, selecting resources by `kinds` (`listener`, `route`, `cluster`,
    /// and the AI data plane's) and adding statuses when `with_statuses`.
    pub fn into_documents(self, kinds: &[&str], with_statuses: bool) -> Vec<Value> {
        let mut docs: Vec<Value> = self
            .gateways
            .into_iter()
            .map(|g| g.into_document(kinds, with_statuses))
            .collect();
        let unrouted = Some(self.unrouted_statuses).filter(|s| with_statuses && !s.is_null());
        docs.extend(shared("envoy", self.clusters, unrouted, kinds));
        let ai_statuses = Some(self.shared_statuses)
            .filter(|s| with_statuses && s.as_array().is_some_and(|a| !a.is_empty()));
        docs.extend(shared("ai", self.shared, ai_statuses, kinds));
        docs
    }
}

impl RenderedGateway {
    /// The output document: the resources by section (in the order given), then `Statuses`.
    pub fn document(&self, kinds: &[&str], with_statuses: bool) -> Value {
        self.clone().into_document(kinds, with_statuses)
    }

    /// [`RenderedGateway::document`], moving the values.
    pub fn into_document(self, kinds: &[&str], with_statuses: bool) -> Value {
        let mut doc = Map::new();
        doc.insert(
            "Gateway".into(),
            Value::String(format!("{}/{}", self.namespace, self.name)),
        );
        doc.insert(
            "DataPlane".into(),
            serde_json::to_value(self.data_plane).unwrap_or_default(),
        );
        by_section(&mut doc, self.resources, kinds);
        if with_statuses {
            doc.insert("Statuses".into(), self.statuses);
        }
        Value::Object(doc)
    }
}

/// A `Shared: NAME` document of `resources` and `statuses`; `None` when it would hold nothing.
fn shared(
    name: &str,
    resources: Vec<RenderedResource>,
    statuses: Option<Value>,
    kinds: &[&str],
) -> Option<Value> {
    let mut doc = Map::new();
    doc.insert("Shared".into(), Value::String(name.into()));
    by_section(&mut doc, resources, kinds);
    if let Some(statuses) = statuses {
        doc.insert("Statuses".into(), statuses);
    }
    (doc.len() > 1).then_some(Value::Object(doc))
}

/// Adds the resources of the selected kinds, listed under their sections in their order.
fn by_section(doc: &mut Map<String, Value>, resources: Vec<RenderedResource>, kinds: &[&str]) {
    for r in resources.into_iter().filter(|r| kinds.contains(&r.kind)) {
        if let Value::Array(items) = doc
            .entry(r.section)
            .or_insert_with(|| Value::Array(Vec::new()))
        {
            items.push(r.value);
        }
    }
}
