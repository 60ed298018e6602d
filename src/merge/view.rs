//! The effective policies as plain data (names instead of indices): what `explain -o yaml|json`
//! prints and what the human report lays out.

use serde_json::Value;

use crate::model::facts::{Facts, Spec};

use super::{Effective, FieldOutcome, Level, Loss, Place, Setting, Source};

#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct SourceView {
    pub kind: String,
    pub namespace: String,
    pub name: String,
    pub level: Level,
    /// `spec.policies` or the provider's `policies` of an AiGatewayBackend.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub inline: Option<String>,
    /// Route delegation: how many delegating routes up the setting comes from (0: the route's
    /// own).
    #[serde(skip_serializing_if = "is_zero")]
    pub inherited: u8,
}

fn is_zero(n: &u8) -> bool {
    *n == 0
}

impl SourceView {
    /// `TrafficPolicy infra/a @route`.
    pub fn label(&self) -> String {
        let who = if self.namespace.is_empty() {
            self.name.clone()
        } else {
            format!("{}/{}", self.namespace, self.name)
        };
        match (&self.inline, self.inherited) {
            (Some(what), _) => format!("{} {who} {what}", self.kind),
            (None, 0) => format!("{} {who} @{}", self.kind, self.level.label()),
            (None, n) => format!(
                "{} {who} @{} (inherited, {n} up)",
                self.kind,
                self.level.label()
            ),
        }
    }
}

#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct LoserView {
    pub source: SourceView,
    pub reason: Loss,
    pub value: Value,
}

#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct FieldView {
    pub field: String,
    pub value: Value,
    /// The winner turned the feature off (`disable`).
    pub disabled: bool,
    pub source: SourceView,
    /// Combined with the winner (policyMerge DeepMerge).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub merged: Vec<SourceView>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub losers: Vec<LoserView>,
}

#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct EffectiveView {
    pub family: super::Family,
    /// The listener the route is reached through (`Gateway infra/gw:http`), for routes and rules.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub via: Option<String>,
    pub fields: Vec<FieldView>,
}

pub fn source_view(facts: &[Facts], s: &Setting<'_>) -> SourceView {
    let (i, inline) = match s.source {
        Source::Policy(p) => (p, None),
        Source::BackendSpec(b) => (b, Some("spec.policies".to_string())),
        Source::Provider(b, k) => {
            let name = facts[b]
                .inline_policies
                .as_deref()
                .and_then(|x| x.sections.get(k))
                .map(|(n, _)| n.as_str())
                .unwrap_or("?");
            (b, Some(format!("provider {name} policies")))
        }
    };
    let id = &facts[i].id;
    SourceView {
        kind: id.kind.clone(),
        namespace: id.namespace.clone(),
        name: id.name.clone(),
        level: s.level,
        inline,
        inherited: s.inherited.depth,
    }
}

pub fn field_view(facts: &[Facts], f: &FieldOutcome<'_>) -> FieldView {
    FieldView {
        field: f.name.to_string(),
        value: f.value(),
        disabled: f.disabled(),
        source: source_view(facts, &f.winner),
        merged: f.merged.iter().map(|s| source_view(facts, s)).collect(),
        losers: f
            .losers
            .iter()
            .map(|(s, reason)| LoserView {
                source: source_view(facts, s),
                reason: *reason,
                value: s.value.clone(),
            })
            .collect(),
    }
}

pub fn effective_view(facts: &[Facts], e: &Effective<'_>) -> EffectiveView {
    EffectiveView {
        family: e.family,
        via: e.via.map(|p| place_label(facts, p)),
        fields: e.fields.iter().map(|f| field_view(facts, f)).collect(),
    }
}

/// `Gateway infra/gw:http`, `HTTPRoute shop/checkout:rule 0`.
pub fn place_label(facts: &[Facts], place: Place) -> String {
    let (i, section) = place_parts(facts, place);
    let id = &facts[i].id;
    let who = if id.namespace.is_empty() {
        id.name.clone()
    } else {
        format!("{}/{}", id.namespace, id.name)
    };
    match section {
        Some(s) => format!("{} {who}:{s}", id.kind),
        None => format!("{} {who}", id.kind),
    }
}

/// The object of a place and the name of its section (a rule without a name is `rule N`).
pub fn place_parts(facts: &[Facts], place: Place) -> (usize, Option<String>) {
    match place {
        Place::Gateway(i) | Place::Route(i) | Place::Backend(i) => (i, None),
        Place::Listener(i, k) | Place::Rule(i, k) | Place::Port(i, k) | Place::Provider(i, k) => {
            (i, Some(section_name(&facts[i].spec, k)))
        }
    }
}

fn section_name(spec: &Spec, k: usize) -> String {
    let named = match spec {
        Spec::Gateway { listeners, .. } | Spec::ListenerSet { listeners, .. } => {
            listeners.get(k).map(|l| l.name.clone())
        }
        Spec::Route(r) => r.rules.get(k).cloned().flatten(),
        Spec::Service { ports } => ports
            .get(k)
            .map(|(n, p)| n.clone().unwrap_or_else(|| p.to_string())),
        Spec::Backend { sections, .. } => sections.get(k).cloned(),
        _ => None,
    };
    named.unwrap_or_else(|| format!("rule {k}"))
}

/// The places of an object, itself first: its listeners, rules, ports or providers; `section`
/// picks one (by name, or `N` / `rule N` for a rule without a name).
pub fn places_of(facts: &[Facts], i: usize, section: Option<&str>) -> Vec<Place> {
    let (whole, count, part): (Place, usize, fn(usize, usize) -> Place) = match &facts[i].spec {
        Spec::Gateway { listeners, .. } | Spec::ListenerSet { listeners, .. } => {
            (Place::Gateway(i), listeners.len(), Place::Listener)
        }
        Spec::Route(r) => (Place::Route(i), r.rules.len(), Place::Rule),
        Spec::Service { ports } => (Place::Backend(i), ports.len(), Place::Port),
        Spec::Backend { sections, .. } => (Place::Backend(i), sections.len(), Place::Provider),
        _ => return Vec::new(),
    };
    match section {
        None => std::iter::once(whole)
            .chain((0..count).map(|k| part(i, k)))
            .collect(),
        Some(s) => (0..count)
            .filter(|&k| {
                let name = section_name(&facts[i].spec, k);
                name == s || name == format!("rule {s}")
            })
            .map(|k| part(i, k))
            .take(1)
            .collect(),
    }
}

/// The level a place's own policies attach at (for "attached policies per level").
pub fn own_level(place: Place) -> Level {
    match place {
        Place::Gateway(_) => Level::Gateway,
        Place::Listener(..) => Level::Listener,
        Place::Route(_) => Level::Route,
        Place::Rule(..) => Level::Rule,
        Place::Backend(_) | Place::Port(..) | Place::Provider(..) => Level::Backend,
    }
}
