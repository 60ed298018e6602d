//! Predicted policy status, per policy and ancestor, in the words the controller writes:
//! Accepted (`Valid`, or `Invalid` with why) and Attached, as the reference records it: where
//! policies are merged (a route's and its rules' on each rule; a Gateway's; a listener's, with
//! the Gateway's on an HTTPS listener's own route configuration; a backend's), each policy
//! supplies all fields of the merged result
//! (`Attached`), some (`Merged`) or none (`Overridden`); settings combined by DeepMerge supply
//! the field for each of their policies. Over all places of one ancestor the worst counts:
//! Overridden anywhere, else Merged anywhere, else Attached.

use crate::fasthash::{FastMap, FastSet};

use crate::diag::{ResourceRef, Verdicts};
use crate::model::facts::{Facts, Spec};
use crate::resolve::resource_ref as resource_ref_of;

use super::hierarchy::Hierarchy;
use super::{Effective, Place};

#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct PolicyCondition {
    pub status: bool,
    pub reason: &'static str,
    pub message: String,
}

/// The status of one policy for one ancestor (the Gateway, or the Service / Backend it targets).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct PolicyStatus {
    #[serde(skip)]
    pub policy_index: usize,
    pub policy: ResourceRef,
    pub ancestor: ResourceRef,
    pub accepted: PolicyCondition,
    pub attached: PolicyCondition,
}

pub const MSG_ACCEPTED: &str = "Policy accepted";
pub const MSG_ATTACHED: &str = "Attached to all targets";
pub const MSG_MERGED: &str = "Merged with other policies in target(s) and attached";
pub const MSG_OVERRIDDEN: &str =
    "Overridden due to conflict with higher priority policy in target(s)";

/// What a policy's attachments to one ancestor add up to, as the controller records it: at each
/// place where policies are merged, a policy that supplies every field of the merged result is
/// attached there, one that supplies some is merged, one that supplies none is overridden. The
/// condition is the worst of them: Overridden anywhere, else Merged anywhere, else Attached.
#[derive(Default, Clone, Copy)]
struct State {
    attached: bool,
    merged: bool,
    overridden: bool,
}

impl State {
    /// The state at one place: `mine` of the merged result's `total` fields are the policy's.
    fn at(mine: usize, total: usize) -> State {
        State {
            attached: mine == total,
            merged: mine > 0 && mine < total,
            overridden: mine == 0,
        }
    }

    fn add(&mut self, other: State) {
        self.attached |= other.attached;
        self.merged |= other.merged;
        self.overridden |= other.overridden;
    }
}

/// The effective policy of a delegated child's rule, reached through a delegating rule.
fn delegated(e: &Effective<'_>) -> bool {
    matches!(e.via, Some(Place::Rule(..)))
}

/// The policies of an effective policy's fields that take part in the merge of `groups` (all of
/// them with `None`), each with its state there. Combined (deep-merged) settings supply the field
/// for each of their policies.
fn states(e: &Effective<'_>, groups: Option<&[Group]>) -> Vec<(usize, State)> {
    let in_group =
        |s: &super::Setting<'_>| groups.is_none_or(|g| g.contains(&Group::of(s.level.tier())));
    let supplied = |f: &super::FieldOutcome<'_>| {
        std::iter::once(&f.winner)
            .chain(&f.merged)
            .filter(|s| in_group(s))
            .filter_map(|s| s.policy())
            .collect::<Vec<_>>()
    };
    let mut policies: Vec<usize> = Vec::new();
    let mut total = 0;
    for f in &e.fields {
        let all = std::iter::once(&f.winner)
            .chain(&f.merged)
            .chain(f.losers.iter().map(|(s, _)| s));
        for p in all.filter(|s| in_group(s)).filter_map(|s| s.policy()) {
            if !policies.contains(&p) {
                policies.push(p);
            }
        }
        // A field of the merged result, whoever supplies it (a backend's own settings too).
        if std::iter::once(&f.winner).chain(&f.merged).any(in_group) {
            total += 1;
        }
    }
    if total == 0 {
        return Vec::new();
    }
    policies
        .into_iter()
        .map(|p| {
            let mine = e.fields.iter().filter(|f| supplied(f).contains(&p)).count();
            (p, State::at(mine, total))
        })
        .collect()
}

/// The policies merged together: a Gateway's, a listener's (a listener set's are its listeners'),
/// a route's and its rules', a backend's.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Group {
    Gateway,
    Listener,
    Route,
    Backend,
}

impl Group {
    fn of(tier: u8) -> Group {
        match tier {
            0 => Group::Gateway,
            1 => Group::Listener,
            2 => Group::Route,
            _ => Group::Backend,
        }
    }
}

/// The places a policy attached at `place` is judged on, with the groups merged there: a route's
/// policy on each of its rules; a Gateway's also on each of its HTTPS listeners, where the
/// Gateway's policies and the listener's merge into the listener's own route configuration (an
/// HTTP listener shares its port's, where the listener's policies apply per virtual host).
///
/// A policy that applies per port (a ListenerPolicy) is merged on each listener's port only, the
/// Gateway's policies with the listener's: it is judged on each listener of its Gateway.
fn judged_at(
    facts: &[Facts],
    place: Place,
    group: Group,
    per_port: bool,
) -> Vec<(Place, Vec<Group>)> {
    let together = vec![Group::Gateway, Group::Listener];
    match place {
        Place::Gateway(g) if per_port => match &facts[g].spec {
            Spec::Gateway { listeners, .. } => (0..listeners.len())
                .map(|li| (Place::Listener(g, li), together.clone()))
                .collect(),
            _ => vec![(place, vec![group])],
        },
        Place::Listener(..) if per_port => vec![(place, together)],
        Place::Route(r) => match &facts[r].spec {
            Spec::Route(route) if !route.rules.is_empty() => (0..route.rules.len())
                .map(|i| (Place::Rule(r, i), vec![group]))
                .collect(),
            _ => vec![(place, vec![group])],
        },
        Place::Gateway(g) if group == Group::Gateway => std::iter::once((place, vec![group]))
            .chain(https_listeners(facts, g).map(|li| (Place::Listener(g, li), together.clone())))
            .collect(),
        Place::Listener(g, li) if https_listeners(facts, g).any(|i| i == li) => {
            vec![(place, together)]
        }
        _ => vec![(place, vec![group])],
    }
}

/// Whether policy `p` applies per port (its settings are merged on each listener).
fn per_port(facts: &[Facts], p: usize) -> bool {
    facts.get(p).is_some_and(|f| f.id.kind == "ListenerPolicy")
}

/// The indexes of a Gateway's HTTPS listeners (none for other objects).
fn https_listeners(facts: &[Facts], g: usize) -> impl Iterator<Item = usize> + '_ {
    let listeners = match &facts[g].spec {
        Spec::Gateway { listeners, .. } => listeners.as_slice(),
        _ => &[],
    };
    listeners
        .iter()
        .enumerate()
        .filter(|(_, l)| l.protocol == "HTTPS")
        .map(|(i, _)| i)
}

/// Every (place, policy) attachment once, with the group of sections that judges it, ordered by
/// the object the place belongs to: a run of objects judges a run of these.
pub(super) struct Judged(Vec<(Place, usize, Group)>);

impl Judged {
    pub(super) fn new(facts: &[Facts], h: &Hierarchy) -> Self {
        let mut attached = attachments(facts, h);
        attached.sort_by_key(|&(place, p, _)| (place.object(), place, p));
        Judged(attached)
    }

    /// The attachments to places of the objects `objects` (positions in the facts).
    fn of(&self, objects: std::ops::Range<usize>) -> &[(Place, usize, Group)] {
        let from = self
            .0
            .partition_point(|(place, ..)| place.object() < objects.start);
        let to = self
            .0
            .partition_point(|(place, ..)| place.object() < objects.end);
        &self.0[from..to]
    }
}

/// The states of policies on ancestors: (policy, ancestor) -> state. What each run of objects
/// adds is independent of the others' (the places a policy is judged at and a delegated rule's
/// effective policies belong to the object of the place), and states only add up.
#[derive(Default)]
pub(super) struct Tally(FastMap<(usize, usize), State>);

impl Tally {
    /// What the places of the objects `objects` add: `effective` holds every effective policy of
    /// those objects.
    pub(super) fn of(
        facts: &[Facts],
        h: &Hierarchy,
        judged: &Judged,
        objects: std::ops::Range<usize>,
        effective: &[Effective<'_>],
    ) -> Self {
        let mut by_place: FastMap<Place, Vec<usize>> = FastMap::default();
        for (i, e) in effective.iter().enumerate() {
            by_place.entry(e.place).or_default().push(i);
        }
        let mut tally = Tally::default();
        for &(place, p, group) in judged.of(objects) {
            let mut state = State::default();
            for (at, groups) in judged_at(facts, place, group, per_port(facts, p)) {
                // Delegated rules are judged below, per delegation chain.
                let own = by_place.get(&at).map(Vec::as_slice).unwrap_or(&[]);
                let own = own.iter().filter_map(|&i| effective.get(i));
                for e in own.filter(|e| !delegated(e)) {
                    for (q, s) in states(e, Some(&groups)) {
                        if q == p {
                            state.add(s);
                        }
                    }
                }
            }
            let ancestors = match place {
                Place::Backend(b) | Place::Port(b, _) | Place::Provider(b, _) => vec![b],
                _ => h.gateways(place),
            };
            for a in ancestors {
                tally.record(p, a, state);
            }
        }
        for e in effective.iter().filter(|e| delegated(e)) {
            for (p, s) in states(e, None) {
                for a in h.gateways(e.place) {
                    tally.record(p, a, s);
                }
            }
        }
        tally
    }

    fn record(&mut self, p: usize, a: usize, state: State) {
        self.0.entry((p, a)).or_default().add(state);
    }

    pub(super) fn absorb(&mut self, other: Tally) {
        for ((p, a), state) in other.0 {
            self.record(p, a, state);
        }
    }

    /// The statuses, by policy and ancestor.
    pub(super) fn statuses(self, facts: &[Facts]) -> Vec<PolicyStatus> {
        let mut tallies: Vec<_> = self.0.into_iter().collect();
        tallies.sort_unstable_by_key(|&(key, _)| key);
        tallies
            .into_iter()
            .map(|((p, a), t)| policy_status(facts, p, a, t))
            .collect()
    }
}

/// Every (place, policy) attachment once, with the group of sections that judges it.
fn attachments(facts: &[Facts], h: &Hierarchy) -> Vec<(Place, usize, Group)> {
    let mut attached: Vec<(Place, usize, Group)> = Vec::new();
    for (&place, policies) in &h.attached {
        let group = match place {
            Place::Gateway(g) if matches!(facts[g].spec, Spec::ListenerSet { .. }) => {
                Group::Listener
            }
            Place::Gateway(_) => Group::Gateway,
            Place::Listener(..) => Group::Listener,
            Place::Route(_) | Place::Rule(..) => Group::Route,
            _ => Group::Backend,
        };
        attached.extend(policies.iter().map(|&p| (place, p, group)));
    }
    for (&place, policies) in &h.extension {
        attached.extend(policies.iter().map(|&p| (place, p, Group::Route)));
    }
    attached.sort_by_key(|&(place, p, _)| (place, p));
    attached.dedup_by_key(|&mut (place, p, _)| (place, p));
    attached
}

/// The predicted conditions of one policy on one ancestor, from its tally.
fn policy_status(facts: &[Facts], p: usize, a: usize, t: State) -> PolicyStatus {
    let attached = if t.overridden {
        ("Overridden", MSG_OVERRIDDEN)
    } else if t.merged {
        ("Merged", MSG_MERGED)
    } else {
        ("Attached", MSG_ATTACHED)
    };
    PolicyStatus {
        policy_index: p,
        policy: resource_ref_of(&facts[p].id),
        ancestor: resource_ref_of(&facts[a].id),
        accepted: PolicyCondition {
            status: true,
            reason: "Valid",
            message: MSG_ACCEPTED.to_string(),
        },
        // An overridden policy is not attached: the controller says so with False.
        attached: PolicyCondition {
            status: attached.0 != "Overridden",
            reason: attached.0,
            message: attached.1.to_string(),
        },
    }
}

/// Policies the controller does not accept (a validation error or a reference it cannot
/// resolve, as the run's verdicts say): they take no part in the merge.
pub fn rejected(facts: &[Facts], verdicts: &Verdicts) -> FastSet<usize> {
    facts
        .iter()
        .enumerate()
        .filter(|(_, f)| matches!(f.spec, Spec::Policy(_)))
        .filter(|(_, f)| {
            verdicts
                .rejected(&f.id.kind, &f.id.namespace, &f.id.name)
                .is_some()
        })
        .map(|(i, _)| i)
        .collect()
}

/// A policy the controller does not accept is `Invalid`, with why, and then attaches nowhere.
pub fn mark_invalid(statuses: &mut [PolicyStatus], verdicts: &Verdicts) {
    for s in statuses {
        if let Some(r) = verdicts.rejected_ref(&s.policy) {
            s.accepted = PolicyCondition {
                status: false,
                reason: "Invalid",
                message: r.message.clone(),
            };
            // The controller writes no message with Pending.
            s.attached = PolicyCondition {
                status: false,
                reason: "Pending",
                message: String::new(),
            };
        }
    }
}
