//! TrafficPolicy: the effective policy of the merge stage (`ctx.merged`) as Envoy HTTP filters.
//! Each feature's filter is declared on the HTTP filter chains whose routes use it (disabled
//! unless it must always run) and configured through `typedPerFilterConfig`: Gateway- and
//! listener-level settings on the RouteConfiguration (or virtual host), route- and rule-level
//! ones on the Route.
//! Who supplied each feature is written as metadata under [`METADATA`], as the reference does.

mod extensions;
mod feature;
mod features;
pub(crate) use features::quantity;
mod jwt;
mod order;
mod rbac;

use crate::render::pointer::Pointer;
use std::collections::BTreeMap;

use serde_json::{Map, Value, json};

use super::super::{Context, ValidationLevel};

use crate::merge::{Effective, Family, FieldOutcome, Level, Place, Source};
use crate::model::Object;
use features::header_mutations;

pub const METADATA: &str = "merge.TrafficPolicy.gateway.kgateway.dev";

/// The TrafficPolicy settings that apply at one place, ready to render.
#[derive(Default, Clone)]
pub struct Applied {
    /// `typedPerFilterConfig` entries.
    pub per_filter: Map<String, Value>,
    /// Fields of the RouteAction (timeouts, retries).
    pub action: Map<String, Value>,
    /// Who supplied what: metadata key -> policy references.
    pub metadata: BTreeMap<String, Vec<String>>,
    /// Listener declarations of the filters used: name -> filter.
    pub declarations: BTreeMap<String, Value>,
}

impl Applied {
    /// Adds the filter declarations of another place.
    pub fn declare_into(&self, into: &mut BTreeMap<String, Value>) {
        for (k, v) in &self.declarations {
            into.entry(k.clone()).or_insert_with(|| v.clone());
        }
    }

    pub fn metadata_value(&self) -> Option<Value> {
        (!self.metadata.is_empty()).then(|| json!({"filterMetadata": {METADATA: self.metadata}}))
    }

    /// Adds the settings to a resource's object (`typedPerFilterConfig`, `metadata`).
    pub fn write(&self, into: &mut Map<String, Value>) {
        if let Some(m) = self.metadata_value() {
            into.insert("metadata".into(), m);
        }
        if !self.per_filter.is_empty() {
            into.insert(
                "typedPerFilterConfig".into(),
                Value::Object(self.per_filter.clone()),
            );
        }
    }
}

/// The facts of the run, looked up by object, and the merge stage's results.
pub struct Policies<'c> {
    ctx: &'c Context<'c>,
    /// With strict validation the proxy checks the configuration first: then an error only the
    /// proxy finds makes a TrafficPolicy invalid too.
    strict: bool,
}

impl<'c> Policies<'c> {
    pub fn new(ctx: &'c Context<'c>) -> Self {
        let strict = ctx.options.validation_level == ValidationLevel::Strict;
        Policies { ctx, strict }
    }

    /// The object's index in the run's facts.
    pub(super) fn index(&self, o: &Object) -> Option<usize> {
        self.ctx.fact_of(o)
    }

    /// The TrafficPolicy of a place; of a delegated child's rule, as reached through the
    /// delegating rule `via` (`None`: the place on its own or through a listener).
    fn effective(&self, place: Place, via: Option<Place>) -> Option<&Effective<'c>> {
        self.ctx.merged.as_ref()?.of(place).find(|e| {
            e.family == Family::TrafficPolicy
                && match via {
                    Some(_) => e.via == via,
                    None => !matches!(e.via, Some(Place::Rule(..))),
                }
        })
    }

    fn reference(&self, source: Source) -> String {
        let Some(model) = &self.ctx.run.model else {
            return String::new();
        };
        let id = &model.facts[source.object()].id;
        format!("{}/{}/{}/{}", id.group, id.kind, id.namespace, id.name)
    }

    /// Gateway-level settings (for the RouteConfigurations and the Listener's metadata).
    pub fn gateway(&self, gateway: &Object) -> Result<Applied, String> {
        let Some(g) = self.index(gateway) else {
            return Ok(Applied::default());
        };
        self.applied(Place::Gateway(g), None, |l| l <= Level::Listener)
    }

    /// The settings of one of the Gateway's own listeners: with `only_listener`, those set at
    /// the listener level; else every Gateway- and listener-level one that wins there.
    pub fn listener(
        &self,
        gateway: &Object,
        listener: usize,
        only_listener: bool,
    ) -> Result<Applied, String> {
        let Some(g) = self.index(gateway) else {
            return Ok(Applied::default());
        };
        self.applied(Place::Listener(g, listener), None, |l| {
            if only_listener {
                l == Level::Listener
            } else {
                l <= Level::Listener
            }
        })
    }

    /// Route- and rule-level settings of one rule, with what a delegated child's rule inherits
    /// through `parent` (the rule delegating to its route); `Err` when a TrafficPolicy on the
    /// route, the rule or its ExtensionRef filters is invalid (the reference replaces the rule).
    pub fn rule(
        &self,
        route: &Object,
        rule: usize,
        parent: Option<(&Object, usize)>,
    ) -> Result<Applied, String> {
        let Some(r) = self.index(route) else {
            return Ok(Applied::default());
        };
        for place in [Place::Route(r), Place::Rule(r, rule)] {
            if let Some(why) = self.invalid_at(place) {
                return Err(why);
            }
        }
        let via = parent.and_then(|(p, pr)| Some(Place::Rule(self.index(p)?, pr)));
        self.applied(Place::Rule(r, rule), via, |l| l >= Level::Route)
    }

    /// Why the Gateway, or one of its own listeners, has an invalid TrafficPolicy attached.
    pub fn invalid_on_gateway(&self, gateway: &Object, listener: Option<usize>) -> Option<String> {
        let g = self.index(gateway)?;
        self.invalid_at(Place::Gateway(g))
            .or_else(|| listener.and_then(|li| self.invalid_at(Place::Listener(g, li))))
    }

    /// Why one listener of a Gateway or listener set has an invalid TrafficPolicy attached.
    pub fn invalid_on_listener(&self, owner: &Object, listener: usize) -> Option<String> {
        self.invalid_at(Place::Listener(self.index(owner)?, listener))
    }

    /// An invalid TrafficPolicy attached at a place (or named by a rule's ExtensionRef): one
    /// with an error-level finding of gwctl's.
    fn invalid_at(&self, place: Place) -> Option<String> {
        let merged = self.ctx.merged.as_ref()?;
        let model = self.ctx.run.model.as_ref()?;
        let attached = merged.hierarchy.attached.get(&place).into_iter().flatten();
        let named = merged.hierarchy.extension.get(&place).into_iter().flatten();
        for &p in attached.chain(named) {
            let id = &model.facts[p].id;
            if id.kind != "TrafficPolicy" {
                continue;
            }
            let verdicts = &self.ctx.run.verdicts;
            let error = if self.strict {
                verdicts.any_error(&id.kind, &id.namespace, &id.name)
            } else {
                verdicts.rejected(&id.kind, &id.namespace, &id.name)
            };
            if let Some(r) = error {
                return Some(format!(
                    "TrafficPolicy {}/{} is invalid: {}",
                    id.namespace, id.name, r.message
                ));
            }
        }
        None
    }

    fn applied(
        &self,
        place: Place,
        via: Option<Place>,
        levels: impl Fn(Level) -> bool,
    ) -> Result<Applied, String> {
        let mut out = Applied::default();
        let Some(e) = self.effective(place, via) else {
            return Ok(out);
        };
        for f in &e.fields {
            if !levels(f.winner.level) {
                continue;
            }
            let mut refs: Vec<String> = std::iter::once(&f.winner)
                .chain(&f.merged)
                .map(|s| self.reference(s.source))
                .collect();
            // Combined (DeepMerge) settings: the reference lists their policies by name.
            refs.sort();
            let keys = self.feature(&mut out, f)?;
            for key in keys {
                out.metadata.entry(key).or_default().extend(refs.clone());
            }
        }
        Ok(out)
    }
}

impl Policies<'_> {
    /// The users of a basicAuth `secretRef`: the Secret's `.htpasswd`, without its final newline.
    fn htpasswd(&self, f: &FieldOutcome<'_>, value: &Value) -> Result<String, String> {
        let name = value
            .at("/secretRef/name")
            .and_then(Value::as_str)
            .ok_or("basicAuth has neither users nor a secretRef")?;
        let ns = self.namespace(f);
        let encoded = super::settings::data(self.ctx, "Secret", ns, name, ".htpasswd")
            .and_then(Value::as_str)
            .ok_or_else(|| format!("Secret {ns}/{name} has no .htpasswd"))?;
        let text = crate::render::secret_data(encoded)
            .ok_or_else(|| format!("Secret {ns}/{name}: .htpasswd is not base64"))?;
        Ok(text.trim_end_matches('\n').to_string())
    }

    /// The namespace of the policy that supplied a field.
    pub(super) fn namespace(&self, f: &FieldOutcome<'_>) -> &str {
        self.ctx.run.model.as_ref().map_or("", |m| {
            m.facts[f.winner.source.object()].id.namespace.as_str()
        })
    }
}

pub(super) const LOCAL_RATE_LIMIT: &str =
    "envoy.extensions.filters.http.local_ratelimit.v3.LocalRateLimit";

pub(super) fn declare(out: &mut Applied, name: &str, disabled: bool, config: Value) {
    let mut filter = Map::new();
    if disabled {
        filter.insert("disabled".into(), json!(true));
    }
    filter.insert("name".into(), json!(name));
    filter.insert("typedConfig".into(), config);
    out.declarations
        .entry(name.to_string())
        .or_insert(Value::Object(filter));
}

/// Header mutations (`add`, `set`, `remove`) in the HeaderMutation filters' shape.
pub fn mutations(modifier: &Value) -> Vec<Value> {
    header_mutations(modifier)
}

/// A Kubernetes quantity string (`64Ki`) in bytes.
pub fn bytes(text: &str) -> Option<u64> {
    quantity(&Value::String(text.to_string()))
}
