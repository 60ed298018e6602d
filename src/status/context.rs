//! The run as the status and render stages read it: the inputs the controller sees, looked up by
//! key, the effective policies and the options of the run. Defined here, the earlier of the two
//! stages, so that render builds on the status stage and never the other way round.

use serde_json::Value;

use super::discovery;
use crate::fasthash::FastMap;
use crate::lint::LintRun;
use crate::merge::Merged;
use crate::model::Object;
use crate::model::facts::{Facts, RouteFacts};
use crate::model::facts_settings::{GatewaySettings, RouteSettings, Settings};
use crate::resolve::Grants;

/// What `standard` and `strict` do with an invalid route rule (decisions.md section 7). Neither
/// refuses a Gateway whole.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum ValidationLevel {
    /// A rule the controller finds invalid becomes a direct response 500; what only the proxy
    /// would reject (a regex RE2 refuses, a template that does not compile) is rendered as
    /// written.
    #[default]
    Standard,
    /// The proxy's validation too: a rule whose matcher the proxy rejects is dropped (the route
    /// not Accepted, reason `RouteRuleDropped`); anything else either rejects is a direct
    /// response 500, as in standard.
    Strict,
}

#[derive(Debug, Clone, Default)]
pub struct RenderOptions {
    /// Only this Gateway (namespace, name); every Gateway when `None`.
    pub gateway: Option<(String, String)>,
    pub validation_level: ValidationLevel,
    /// The AI data plane's controllerName (config `controllers.ai`).
    pub ai_controller: String,
    /// The proxy-based controller's name (config `controllers.proxy`), written as the
    /// `controllerName` of route parents; empty is the default, `kgateway.dev/kgateway`.
    pub proxy_controller: String,
    /// The controller setting WeightedRoutePrecedence (config `weightedRoutePrecedence`, chart
    /// value `controller.extraEnv.KGW_WEIGHTED_ROUTE_PRECEDENCE`): routes ordered by their
    /// `kgateway.dev/route-weight` annotation first.
    pub weighted_route_precedence: bool,
    /// The controller setting discoveryNamespaceSelectors (chart value
    /// `discoveryNamespaceSelectors`): label selectors of the namespaces it watches; empty
    /// watches every namespace.
    pub discovery_namespace_selectors: Vec<Value>,
    /// Of the selected Gateways, only these (namespace, name) are rendered (`diff`: those whose
    /// inputs differ); what belongs to no single Gateway is rendered whole all the same.
    pub only: Option<std::sync::Arc<std::collections::BTreeSet<(String, String)>>>,
}

impl RenderOptions {
    /// The options of a `render` or `diff` run: the controllers' names from the config file.
    pub fn new(
        config: &crate::config::Config,
        gateway: Option<(String, String)>,
        validation_level: ValidationLevel,
    ) -> Self {
        RenderOptions {
            gateway,
            validation_level,
            ai_controller: config.controllers.ai.clone(),
            proxy_controller: config.controllers.proxy.clone(),
            weighted_route_precedence: config.weighted_route_precedence,
            discovery_namespace_selectors: Vec::new(),
            only: None,
        }
    }
}

/// A generated route the controller replaced because its check of the route failed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReplacedRoute {
    /// The route (kind, namespace, name) and the index of the match within its rule.
    pub kind: String,
    pub namespace: String,
    pub name: String,
    pub match_index: usize,
    /// Why, in the controller's words (it names the generated route).
    pub message: String,
}

/// The inputs, looked up by group, kind, namespace and name.
pub struct Inputs<'a> {
    pub objects: &'a [Object],
    /// The typed model of the same objects, position for position.
    facts: &'a [Facts],
    by_key: FastMap<(&'a str, &'a str, &'a str, &'a str), usize>,
    /// Objects by (group, kind), in input order: a kind's objects without a scan of all.
    by_kind: FastMap<(&'a str, &'a str), Vec<usize>>,
    /// The resolve stage's ReferenceGrants: each cross-namespace reference asks its target's.
    grants: &'a Grants,
    /// Positions of the objects in namespaces the controller does not watch.
    unseen: crate::fasthash::FastSet<usize>,
    /// Those namespaces (a ReferenceGrant in one is not seen either).
    unseen_namespaces: crate::fasthash::FastSet<&'a str>,
}

impl<'a> Inputs<'a> {
    /// The objects the controller sees: those of the namespaces `discovery` watches.
    fn new(
        objects: &'a [Object],
        facts: &'a [Facts],
        grants: &'a Grants,
        discovery: &discovery::Discovery<'_>,
    ) -> Self {
        let mut by_key = FastMap::default();
        let mut by_kind: FastMap<(&'a str, &'a str), Vec<usize>> = FastMap::default();
        let mut unseen = crate::fasthash::FastSet::default();
        let mut unseen_namespaces = crate::fasthash::FastSet::default();
        for (i, o) in objects.iter().enumerate() {
            if !discovery.sees(&o.id.namespace) {
                unseen.insert(i);
                unseen_namespaces.insert(o.id.namespace.as_str());
                continue;
            }
            by_kind
                .entry((o.id.group.as_str(), o.id.kind.as_str()))
                .or_default()
                .push(i);
            // The first of two objects with one name wins, as the first apply would.
            by_key.entry(o.id.key()).or_insert(i);
        }
        Inputs {
            objects,
            facts,
            by_key,
            by_kind,
            grants,
            unseen,
            unseen_namespaces,
        }
    }

    /// The object at a position of the inputs (a position of the model's facts), if the
    /// controller watches its namespace.
    pub fn at(&self, i: usize) -> Option<&'a Object> {
        self.objects.get(i).filter(|_| !self.unseen.contains(&i))
    }

    /// The typed facts of the object (group, kind, namespace, name).
    pub fn facts_of(
        &self,
        group: &str,
        kind: &str,
        namespace: &str,
        name: &str,
    ) -> Option<&'a Facts> {
        let i = *self.by_key.get(&(group, kind, namespace, name))?;
        self.facts.get(i)
    }

    /// The typed facts of an object of the inputs: those at its position (objects and facts are
    /// position for position; the position is found from the address, as an object may share
    /// its name with another). `None` for an object that is not one of them.
    pub fn facts_at(&self, object: &Object) -> Option<&'a Facts> {
        self.typed().of(object)
    }

    /// A Gateway's render-only settings (`tls.frontend`, `allowedListeners`); `None` for
    /// another kind.
    pub fn gateway_settings(&self, gateway: &Object) -> Option<&'a GatewaySettings> {
        match self.facts_at(gateway)?.settings.as_deref()? {
            Settings::Gateway(g) => Some(g),
            _ => None,
        }
    }

    /// A route's typed facts (hostnames, backendRefs with weights, timeouts) and render-only
    /// settings (its rules' names, filters and matches): the route as the later stages read it,
    /// as render keeps no JSON of it. Empty ones for an object that is not a route.
    pub fn route(&self, route: &Object) -> (&'a RouteFacts, &'a RouteSettings) {
        static NO_FACTS: std::sync::LazyLock<RouteFacts> =
            std::sync::LazyLock::new(RouteFacts::default);
        static NO_SETTINGS: std::sync::LazyLock<RouteSettings> =
            std::sync::LazyLock::new(RouteSettings::default);
        let facts = self.facts_at(route);
        let settings = match facts.and_then(|f| f.settings.as_deref()) {
            Some(Settings::Route(r)) => r,
            _ => &*NO_SETTINGS,
        };
        (facts.and_then(Facts::route).unwrap_or(&*NO_FACTS), settings)
    }

    /// The objects and their facts, to find an object's facts without the rest of the inputs.
    pub(super) fn typed(&self) -> Typed<'a> {
        Typed {
            objects: self.objects,
            facts: self.facts,
        }
    }

    pub fn get(&self, group: &str, kind: &str, namespace: &str, name: &str) -> Option<&'a Object> {
        self.by_key
            .get(&(group, kind, namespace, name))
            .map(|&i| &self.objects[i])
    }

    /// Whether a ReferenceGrant in the target's namespace lets `from` (group, kind, namespace)
    /// refer to `to` (group, kind, namespace, name): the resolve stage's check, over the
    /// ReferenceGrants of the namespaces the controller watches.
    pub fn granted(&self, from: (&str, &str, &str), to: (&str, &str, &str, &str)) -> bool {
        self.grants.granted(from, to) && (from.2 == to.2 || !self.unseen_namespaces.contains(to.2))
    }

    /// The ReferenceGrants of every namespace (the statuses ask these).
    pub fn grants(&self) -> &'a Grants {
        self.grants
    }

    pub fn of_kind<'s>(
        &'s self,
        group: &'s str,
        kind: &'s str,
    ) -> impl Iterator<Item = &'a Object> + 's {
        let objects = self.objects;
        self.by_kind
            .get(&(group, kind))
            .into_iter()
            .flatten()
            .map(move |&i| &objects[i])
    }
}

/// The inputs' objects and their typed facts, position for position.
#[derive(Clone, Copy)]
pub(super) struct Typed<'a> {
    objects: &'a [Object],
    facts: &'a [Facts],
}

impl<'a> Typed<'a> {
    /// The facts at the object's position (found from its address, as an object may share its
    /// name with another); `None` for an object that is not one of the inputs.
    pub fn of(&self, object: &Object) -> Option<&'a Facts> {
        let offset =
            (std::ptr::from_ref(object) as usize).wrapping_sub(self.objects.as_ptr() as usize);
        let i = offset / std::mem::size_of::<Object>().max(1);
        self.objects
            .get(i)
            .filter(|o| std::ptr::eq(*o, object))
            .and_then(|_| self.facts.get(i))
    }
}

static NO_GRANTS: std::sync::LazyLock<Grants> = std::sync::LazyLock::new(Grants::default);

/// Everything the status stage and a data plane's renderer read.
pub struct Context<'a> {
    pub run: &'a LintRun,
    pub inputs: Inputs<'a>,
    /// The effective policies; `None` when the run kept no model.
    pub merged: Option<&'a Merged<'a>>,
    /// The model's facts (which the merge stage's places count in) by kind, namespace and name.
    facts: FastMap<(&'a str, &'a str, &'a str), usize>,
    pub options: &'a RenderOptions,
}

impl<'a> Context<'a> {
    pub fn new(
        run: &'a LintRun,
        merged: Option<&'a Merged<'a>>,
        options: &'a RenderOptions,
    ) -> Self {
        Context::of(Lookups::new(run, options), merged)
    }

    /// The context of lookups made beforehand (beside the merge: they do not read it).
    pub fn of(lookups: Lookups<'a>, merged: Option<&'a Merged<'a>>) -> Self {
        let Lookups {
            run,
            inputs,
            facts,
            options,
        } = lookups;
        Context {
            run,
            inputs,
            merged,
            options,
            facts,
        }
    }
}

/// What a [`Context`] looks the run's objects up by: all of it but the effective policies.
pub struct Lookups<'a> {
    run: &'a LintRun,
    inputs: Inputs<'a>,
    facts: FastMap<(&'a str, &'a str, &'a str), usize>,
    options: &'a RenderOptions,
}

impl<'a> Lookups<'a> {
    pub fn new(run: &'a LintRun, options: &'a RenderOptions) -> Self {
        let all_facts = run.model.as_ref().map_or(&[][..], |m| &m.facts);
        let objects = run.model.as_ref().map_or(&[][..], |m| &m.objects);
        let grants: &Grants = run.model.as_ref().map_or(&NO_GRANTS, |m| &m.grants);
        // Two scans of every object, independent of each other.
        let (facts, inputs) = rayon::join(
            || {
                let mut facts = FastMap::default();
                for (i, f) in all_facts.iter().enumerate() {
                    let id = &f.id;
                    let key = (id.kind.as_str(), id.namespace.as_str(), id.name.as_str());
                    facts.entry(key).or_insert(i);
                }
                facts
            },
            || {
                let selectors = &options.discovery_namespace_selectors;
                let discovery = discovery::Discovery::new(all_facts, selectors);
                Inputs::new(objects, all_facts, grants, &discovery)
            },
        );
        Lookups {
            run,
            inputs,
            facts,
            options,
        }
    }
}

impl Context<'_> {
    /// The resolve stage's route attachment: every accepted parentRef with its listeners.
    pub fn route_attachments(&self) -> &[crate::resolve::RouteAttachment] {
        self.run
            .model
            .as_ref()
            .map_or(&[], |m| &m.route_attachments)
    }

    /// The ResolvedRefs condition of a route's own backendRefs, from the resolve stage's outcome
    /// (a delegated child route has no parentRef, so no route status carries it).
    pub fn backends_condition(&self, route: &Object) -> crate::resolve::Condition {
        let unresolved = self.run.model.as_ref().and_then(|m| {
            let at = self.fact_of(route)?;
            let i = m
                .unresolved_backends
                .binary_search_by_key(&at, |(r, _)| *r)
                .ok()?;
            Some(m.unresolved_backends[i].1.clone())
        });
        unresolved.unwrap_or_else(|| crate::resolve::Condition {
            status: true,
            reason: "ResolvedRefs",
            message: String::new(),
        })
    }

    /// The index of an object's facts in the model (the first of its kind, namespace and name).
    pub fn fact_of(&self, object: &Object) -> Option<usize> {
        let id = &object.id;
        self.facts
            .get(&(id.kind.as_str(), id.namespace.as_str(), id.name.as_str()))
            .copied()
    }
}
