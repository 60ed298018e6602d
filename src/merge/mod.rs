//! The merge stage (`decisions.md` section 5): for every Gateway, listener, route, route rule,
//! Backend, Service port, AI provider and MCP target, the effective policy of each family, with
//! per field the setting that won, the settings that lost and why, and the predicted status of
//! every policy. Works on the facts and the resolve stage's attachments; returns data.

mod chains;
mod delegation;
pub mod explain;
mod findings;
mod hierarchy;
pub(crate) mod rank;
mod status;
#[cfg(test)]
mod tests;
#[cfg(test)]
mod tests_delegation;
#[cfg(test)]
mod tests_fixture;
#[cfg(test)]
mod tests_listener_set;
#[cfg(test)]
mod tests_status;
pub mod view;

use crate::fasthash::FastMap;

use rayon::prelude::*;

use serde_json::Value;

use crate::diag::Diagnostic;
use crate::model::facts::Facts;
use crate::resolve::{Attachment, RouteAttachment};
use crate::source::Span;

pub use delegation::{delegates, delegates_to, selects_itself};
pub(crate) use hierarchy::rule_of;
pub use hierarchy::{Hierarchy, Layout};
pub use status::{
    MSG_ACCEPTED, MSG_ATTACHED, PolicyCondition, PolicyStatus, mark_invalid, rejected,
};

/// The chart value `policyMerge`: which TrafficPolicy fields of one level are combined.
#[derive(Debug, Clone, Default)]
pub struct MergeOptions {
    pub deep_ext_auth: bool,
    pub deep_ext_proc: bool,
    pub deep_transformation: bool,
    /// Policies the controller would not accept (see [`rejected`]): they supply nothing.
    pub rejected: crate::fasthash::FastSet<usize>,
}

impl MergeOptions {
    pub fn from_config(p: &crate::config::PolicyMerge) -> Self {
        MergeOptions {
            deep_ext_auth: p.ext_auth_deep,
            deep_ext_proc: p.ext_proc_deep,
            deep_transformation: p.transformation_deep,
            rejected: Default::default(),
        }
    }

    /// Adds what the chart values file says (`policyMerge.trafficPolicy.X: DeepMerge`).
    pub fn with_values(mut self, values: &Value) -> Self {
        let deep = |field: &str| {
            values
                .pointer(&format!("/policyMerge/trafficPolicy/{field}"))
                .and_then(Value::as_str)
                == Some("DeepMerge")
        };
        self.deep_ext_auth |= deep("extAuth");
        self.deep_ext_proc |= deep("extProc");
        self.deep_transformation |= deep("transformation");
        self
    }

    fn deep(&self, family: Family, field: &str) -> bool {
        family == Family::TrafficPolicy
            && match field {
                "extAuth" => self.deep_ext_auth,
                "extProc" => self.deep_ext_proc,
                "transformation" => self.deep_transformation,
                _ => false,
            }
    }
}

/// A set of fields that merge with each other and never with another family's.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize)]
pub enum Family {
    TrafficPolicy,
    #[serde(rename = "AiGatewayPolicy frontend")]
    AiFrontend,
    #[serde(rename = "AiGatewayPolicy traffic PreRouting")]
    AiPreRouting,
    #[serde(rename = "AiGatewayPolicy traffic PostRouting")]
    AiPostRouting,
    #[serde(rename = "AiGatewayPolicy backend")]
    AiBackend,
    BackendConfigPolicy,
    HTTPListenerPolicy,
    ListenerPolicy,
}

impl Family {
    pub fn label(self) -> &'static str {
        match self {
            Family::TrafficPolicy => "TrafficPolicy",
            Family::AiFrontend => "AiGatewayPolicy frontend",
            Family::AiPreRouting => "AiGatewayPolicy traffic (PreRouting)",
            Family::AiPostRouting => "AiGatewayPolicy traffic (PostRouting)",
            Family::AiBackend => "AiGatewayPolicy backend",
            Family::BackendConfigPolicy => "BackendConfigPolicy",
            Family::HTTPListenerPolicy => "HTTPListenerPolicy",
            Family::ListenerPolicy => "ListenerPolicy",
        }
    }
}

/// Precedence levels, least specific first (the derived order is the precedence).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub enum Level {
    Gateway,
    Listener,
    Route,
    Rule,
    /// A route rule's ExtensionRef filter naming a TrafficPolicy.
    ExtensionRef,
    /// A policy targeting the Service or Backend, with or without a sectionName (a port, a
    /// provider or an MCP target): one level.
    Backend,
    /// The AiGatewayBackend's own `spec.policies`.
    BackendSpec,
    /// A provider's or MCP target's inline `policies`.
    Provider,
}

impl Level {
    pub fn label(self) -> &'static str {
        match self {
            Level::Gateway => "gateway",
            Level::Listener => "listener",
            Level::Route => "route",
            Level::Rule => "rule",
            Level::ExtensionRef => "extensionRef",
            Level::Backend => "backend",
            Level::BackendSpec => "backend spec.policies",
            Level::Provider => "provider policies",
        }
    }

    /// Levels merged into one resource by the controller (its status counts them together).
    fn tier(self) -> u8 {
        match self {
            Level::Gateway => 0,
            Level::Listener => 1,
            Level::Route | Level::Rule | Level::ExtensionRef => 2,
            _ => 3,
        }
    }
}

/// A node of the hierarchy a policy can apply to; indices are into the facts (and, for the
/// second number, into the object's listeners, rules, ports or sections).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Place {
    /// A Gateway, or a ListenerSet (XListenerSet) as a whole.
    Gateway(usize),
    /// A listener of a Gateway or of a ListenerSet.
    Listener(usize, usize),
    Route(usize),
    Rule(usize, usize),
    /// A Service, Backend or AiGatewayBackend.
    Backend(usize),
    Port(usize, usize),
    /// A provider or MCP target of an AiGatewayBackend.
    Provider(usize, usize),
}

impl Place {
    /// The object (index into the facts) the place is, or is a part of.
    pub fn object(self) -> usize {
        match self {
            Place::Gateway(i)
            | Place::Listener(i, _)
            | Place::Route(i)
            | Place::Rule(i, _)
            | Place::Backend(i)
            | Place::Port(i, _)
            | Place::Provider(i, _) => i,
        }
    }
}

impl Source {
    /// The object (index into the facts) that holds the setting.
    pub fn object(self) -> usize {
        match self {
            Source::Policy(i) | Source::BackendSpec(i) | Source::Provider(i, _) => i,
        }
    }
}

/// `Kind ns/name` of an object, as merge findings and `explain` name it.
pub(crate) fn kind_and_name(facts: &[Facts], i: usize) -> String {
    let id = &facts[i].id;
    format!(
        "{} {}",
        id.kind,
        crate::resolve::qualified(&id.namespace, &id.name)
    )
}

/// Who wrote a setting.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Source {
    /// A policy (index into the facts).
    Policy(usize),
    /// The AiGatewayBackend's `spec.policies` (index of the backend).
    BackendSpec(usize),
    /// A provider's inline `policies` (backend index, index in its inline sections).
    Provider(usize, usize),
}

/// One value of one field, as a source wrote it at one level.
#[derive(Debug, Clone, Copy)]
pub struct Setting<'a> {
    pub source: Source,
    pub level: Level,
    pub value: &'a Value,
    /// The field's key in the source's file.
    pub span: Span,
    /// Where in a delegation chain it comes from (the route itself unless delegated).
    pub inherited: Inherited,
}

/// How a delegating route's policies combine with those of its child routes: the annotation
/// `kgateway.dev/inherited-policy-priority` of the parent route. Deep merges combine only
/// transformations; other fields go to the preferred side whole.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Serialize)]
pub enum InheritedPriority {
    #[default]
    ShallowMergePreferChild,
    ShallowMergePreferParent,
    DeepMergePreferChild,
    DeepMergePreferParent,
}

impl InheritedPriority {
    /// The annotation's value; an unknown one (or none) is the default, as the controller reads it.
    pub fn parse(value: Option<&str>) -> Self {
        match value {
            Some("ShallowMergePreferParent") => Self::ShallowMergePreferParent,
            Some("DeepMergePreferChild") => Self::DeepMergePreferChild,
            Some("DeepMergePreferParent") => Self::DeepMergePreferParent,
            _ => Self::ShallowMergePreferChild,
        }
    }

    pub fn prefers_parent(self) -> bool {
        matches!(
            self,
            Self::ShallowMergePreferParent | Self::DeepMergePreferParent
        )
    }

    pub fn deep(self) -> bool {
        matches!(
            self,
            Self::DeepMergePreferChild | Self::DeepMergePreferParent
        )
    }
}

/// A setting's place in a route delegation chain.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Inherited {
    /// 0: the route the rule belongs to; 1: the rule that delegates to it (and its route); 2:
    /// the rule that delegates to that one...
    pub depth: u8,
    /// The annotation of the route at that depth (how its policies meet the ones below).
    pub priority: InheritedPriority,
}

impl Setting<'_> {
    /// `disable: {}` (PolicyDisable): the feature is off here and below in precedence.
    pub fn disables(&self) -> bool {
        self.value.get("disable").is_some()
    }
    pub fn policy(&self) -> Option<usize> {
        match self.source {
            Source::Policy(p) => Some(p),
            _ => None,
        }
    }
}

/// Why a setting lost to the winner: the first rule of the order that separates them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub enum Loss {
    MoreSpecificLevel,
    HeavierWeight,
    Older,
    NameOrder,
    /// Delegation: the child route's setting wins over its parent route's (the parent's
    /// `inherited-policy-priority` is ShallowMergePreferChild, the default).
    ChildRoutePreferred,
    /// Delegation: the parent route's setting wins (its `inherited-policy-priority` prefers
    /// the parent).
    ParentRoutePreferred,
}

impl Loss {
    pub fn label(self) -> &'static str {
        match self {
            Loss::MoreSpecificLevel => "more specific level",
            Loss::HeavierWeight => "heavier weight",
            Loss::Older => "older",
            Loss::NameOrder => "name order",
            Loss::ChildRoutePreferred => "child route preferred (inherited-policy-priority)",
            Loss::ParentRoutePreferred => "parent route preferred (inherited-policy-priority)",
        }
    }
}

/// One effective field.
#[derive(Debug, Clone)]
pub struct FieldOutcome<'a> {
    pub name: &'a str,
    pub winner: Setting<'a>,
    /// Settings combined with the winner (policyMerge DeepMerge), in rank order.
    pub merged: Vec<Setting<'a>>,
    pub losers: Vec<(Setting<'a>, Loss)>,
}

impl FieldOutcome<'_> {
    /// The winner is a `disable`: the feature is off.
    pub fn disabled(&self) -> bool {
        self.winner.disables()
    }

    /// The effective value: the winner's, or with DeepMerge every provider kept (extAuth,
    /// extProc) or the transformations concatenated.
    pub fn value(&self) -> Value {
        if self.merged.is_empty() {
            return self.winner.value.clone();
        }
        let all = std::iter::once(&self.winner).chain(&self.merged);
        if self.name == "transformation" {
            let mut out = Value::Null;
            for s in all {
                rank::concat(&mut out, s.value);
            }
            out
        } else {
            Value::Array(all.map(|s| s.value.clone()).collect())
        }
    }
}

/// The effective policy of one family at one place, reached through `via` (the listener a
/// route is attached to; a route on two listeners has one of these per listener; for a rule
/// of a delegated child route, the parent rule that delegates to it).
#[derive(Debug, Clone)]
pub struct Effective<'a> {
    pub place: Place,
    pub via: Option<Place>,
    pub family: Family,
    pub fields: Vec<FieldOutcome<'a>>,
    /// Nothing more specific lies below the place (a rule, a port, a provider...).
    pub leaf: bool,
}

pub struct Merged<'a> {
    pub hierarchy: Hierarchy,
    pub effective: Vec<Effective<'a>>,
    pub statuses: Vec<PolicyStatus>,
    pub diagnostics: Vec<Diagnostic>,
    by_place: FastMap<Place, Vec<usize>>,
}

impl<'a> Merged<'a> {
    /// The effective policies of one place (every family, every `via`).
    pub fn of(&self, place: Place) -> impl Iterator<Item = &Effective<'a>> {
        self.by_place
            .get(&place)
            .map(Vec::as_slice)
            .unwrap_or(&[])
            .iter()
            .map(|&i| &self.effective[i])
    }
}

/// Computes every place's effective policies, the policy statuses and the merge findings, from
/// the facts' [`Plan`] (made beside the lint stages).
pub fn merge<'a>(facts: &'a [Facts], plan: Plan, options: &MergeOptions) -> Merged<'a> {
    let (runs, seen, tally) = by_runs(facts, &plan, options, true);
    let Plan {
        hierarchy,
        reached,
        judged,
    } = plan;
    // The rest of the plan (hundreds of thousands of small vectors) is freed while the caller
    // goes on.
    rayon::spawn(move || drop((reached, judged)));
    // Sized once: grown by doubling, the list would be copied and held twice over.
    let mut effective: Vec<Effective<'a>> = Vec::with_capacity(runs.iter().map(Vec::len).sum());
    for run in runs {
        effective.extend(run);
    }
    // The index serves the callers; the findings and statuses are made from the runs' own.
    let (by_place, (diagnostics, statuses)) = rayon::join(
        || {
            let mut by_place: FastMap<Place, Vec<usize>> = FastMap::default();
            for (i, e) in effective.iter().enumerate() {
                by_place.entry(e.place).or_default().push(i);
            }
            by_place
        },
        || rayon::join(|| seen.finish(facts, &hierarchy), || tally.statuses(facts)),
    );
    Merged {
        hierarchy,
        effective,
        statuses,
        diagnostics,
        by_place,
    }
}

/// What the merge makes before it needs to know the policies the controller rejects (the
/// hierarchy, the rules reaching each backend, the places each policy is judged at): `lint`
/// makes it beside the work that finds those.
pub struct Plan {
    hierarchy: Hierarchy,
    reached: chains::Reached,
    judged: status::Judged,
}

impl Plan {
    /// The plan of the facts, from their [`Layout`] (made beforehand) and the attachments.
    pub fn new(
        facts: &[Facts],
        layout: Layout,
        attachments: &[Attachment],
        routes: &[RouteAttachment],
    ) -> Self {
        Plan::of(facts, Hierarchy::of(layout, facts, attachments, routes))
    }

    /// The plan of the facts without a [`Layout`] made beforehand (the layout and the
    /// attachments' part made side by side).
    pub fn whole(facts: &[Facts], attachments: &[Attachment], routes: &[RouteAttachment]) -> Self {
        Plan::of(facts, Hierarchy::new(facts, attachments, routes))
    }

    fn of(facts: &[Facts], hierarchy: Hierarchy) -> Self {
        let (reached, judged) = rayon::join(
            || chains::reached(&hierarchy),
            || status::Judged::new(facts, &hierarchy),
        );
        Plan {
            hierarchy,
            reached,
            judged,
        }
    }
}

/// The merge findings and the policy statuses alone (`lint`): each run of objects' effective
/// policies is dropped as soon as it is judged, so that they are never held all at once.
/// `plan` is the facts' [`Plan`].
pub fn findings_and_statuses(
    facts: &[Facts],
    plan: Plan,
    options: &MergeOptions,
) -> (Vec<Diagnostic>, Vec<PolicyStatus>) {
    let (_, seen, tally) = by_runs(facts, &plan, options, false);
    let hierarchy = &plan.hierarchy;
    let (diagnostics, statuses) =
        rayon::join(|| seen.finish(facts, hierarchy), || tally.statuses(facts));
    // Hundreds of thousands of small vectors, freed while the caller goes on.
    rayon::spawn(move || drop(plan));
    (diagnostics, statuses)
}

/// Objects per run: small enough that a run's effective policies stay in cache and that two
/// cores share the work evenly, large enough that putting runs together costs little.
const RUN: usize = 512;

/// The effective policies of every run of objects (kept when `keep`, in facts order), and what
/// the findings and statuses learnt from them, made in parallel and put together in order.
fn by_runs<'a>(
    facts: &'a [Facts],
    plan: &Plan,
    options: &MergeOptions,
    keep: bool,
) -> (Vec<Vec<Effective<'a>>>, findings::Seen<'a>, status::Tally) {
    let (hierarchy, judged) = (&plan.hierarchy, &plan.judged);
    let chains = chains::Chains::new(facts, hierarchy, options, &plan.reached);
    let runs: Vec<_> = (0..facts.len().div_ceil(RUN))
        .into_par_iter()
        .map(|n| {
            let objects = n * RUN..((n + 1) * RUN).min(facts.len());
            let effective: Vec<Effective<'a>> =
                objects.clone().flat_map(|i| chains.of_object(i)).collect();
            let seen = findings::Seen::of(facts, &effective);
            let tally = status::Tally::of(facts, hierarchy, judged, objects, &effective);
            (keep.then_some(effective), seen, tally)
        })
        .collect();
    let mut kept = Vec::with_capacity(if keep { runs.len() } else { 0 });
    let mut seen = findings::Seen::default();
    let mut tally = status::Tally::default();
    for (effective, s, t) in runs {
        kept.extend(effective);
        seen.absorb(s);
        tally.absorb(t);
    }
    (kept, seen, tally)
}
