//! Predicted policy status, per policy and ancestor, in the words the controller writes:
//! Accepted (`Valid`, or `Invalid` with the validation error) and Attached: `Overridden` when it
//! supplies no field, `Merged` when a field it sets is also set by another policy (whichever
//! wins), `Attached` otherwise; settings combined by DeepMerge are no conflict (the reference's
//! deep-merge cases say Attached). A policy is judged where it attaches; a policy on a route is
//! judged on each of the route's rules, with the other policies of the route's levels (the
//! controller merges a route's levels into one route configuration).

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

#[derive(Default, Clone, Copy)]
struct Tally {
    supplied: usize,
    lost: usize,
    /// The policy won a field another policy of its tier also set.
    conflicts: bool,
}

/// The effective policy of a delegated child's rule, reached through a delegating rule.
fn delegated(e: &Effective<'_>) -> bool {
    matches!(e.via, Some(Place::Rule(..)))
}

/// How each policy of a delegated rule's effective policy fares there, as the controller
/// judges a route's merged policy: it supplies every field (Attached), some (Merged, other
/// policies supply the rest), or none (Overridden). Combined (deep-merged) settings supply the
/// field for each of their policies.
fn delegated_tallies(e: &Effective<'_>) -> Vec<(usize, Tally)> {
    let mut policies: Vec<usize> = Vec::new();
    for f in &e.fields {
        let all = std::iter::once(&f.winner)
            .chain(&f.merged)
            .chain(f.losers.iter().map(|(s, _)| s));
        for p in all.filter_map(|s| s.policy()) {
            if !policies.contains(&p) {
                policies.push(p);
            }
        }
    }
    policies
        .into_iter()
        .map(|p| {
            let supplies = e
                .fields
                .iter()
                .filter(|f| {
                    std::iter::once(&f.winner)
                        .chain(&f.merged)
                        .any(|s| s.policy() == Some(p))
                })
                .count();
            let tally = match supplies {
                0 => Tally {
                    lost: 1,
                    ..Tally::default()
                },
                n => Tally {
                    supplied: 1,
                    lost: 0,
                    conflicts: n < e.fields.len(),
                },
            };
            (p, tally)
        })
        .collect()
}

/// The places a policy attached at `place` is judged on.
fn judged_at(facts: &[Facts], place: Place) -> Vec<Place> {
    match place {
        Place::Route(r) => match &facts[r].spec {
            Spec::Route(route) if !route.rules.is_empty() => {
                (0..route.rules.len()).map(|i| Place::Rule(r, i)).collect()
            }
            _ => vec![place],
        },
        _ => vec![place],
    }
}

pub(super) fn statuses(
    facts: &[Facts],
    h: &Hierarchy,
    effective: &[Effective<'_>],
) -> Vec<PolicyStatus> {
    let mut by_place: FastMap<Place, Vec<&Effective<'_>>> = FastMap::default();
    for e in effective {
        by_place.entry(e.place).or_default().push(e);
    }
    // (policy, ancestor) -> tally, in a stable order.
    let mut tallies: Vec<((usize, usize), Tally)> = Vec::new();
    let mut slot: FastMap<(usize, usize), usize> = FastMap::default();
    let mut attached: Vec<(Place, usize, u8)> = Vec::new();
    for (&place, policies) in &h.attached {
        let tier = match place {
            // A listener set's policies are listener-level (its listeners are the Gateway's).
            Place::Gateway(g) if matches!(facts[g].spec, Spec::ListenerSet { .. }) => 1,
            Place::Gateway(_) => 0,
            Place::Listener(..) => 1,
            Place::Route(_) | Place::Rule(..) => 2,
            _ => 3,
        };
        attached.extend(policies.iter().map(|&p| (place, p, tier)));
    }
    for (&place, policies) in &h.extension {
        attached.extend(policies.iter().map(|&p| (place, p, 2)));
    }
    attached.sort();
    attached.dedup();
    for (place, p, tier) in attached {
        let mut tally = Tally::default();
        for at in judged_at(facts, place) {
            // Delegated rules are judged below, per delegation chain.
            let own = by_place.get(&at).map(Vec::as_slice).unwrap_or(&[]);
            for e in own.iter().filter(|e| !delegated(e)) {
                for field in &e.fields {
                    let in_tier = |s: &super::Setting<'_>| s.level.tier() == tier;
                    let supplied = std::iter::once(&field.winner).chain(&field.merged);
                    let mine = supplied
                        .filter(|s| in_tier(s))
                        .any(|s| s.policy() == Some(p));
                    let lost = field
                        .losers
                        .iter()
                        .any(|(s, _)| in_tier(s) && s.policy() == Some(p));
                    // A conflict: another policy of the tier set the field too and one of
                    // the two lost (combined settings, DeepMerge, are no conflict).
                    let other_lost = field
                        .losers
                        .iter()
                        .any(|(s, _)| in_tier(s) && s.policy().is_some_and(|q| q != p));
                    // Listener policies are merged into one listener configuration: there any
                    // other policy supplying a field makes each of them Merged.
                    let shared = matches!(
                        e.family,
                        super::Family::HTTPListenerPolicy | super::Family::ListenerPolicy
                    ) && std::iter::once(&field.winner)
                        .chain(&field.merged)
                        .any(|s| in_tier(s) && s.policy().is_some_and(|q| q != p));
                    tally.conflicts |= shared;
                    if mine {
                        tally.supplied += 1;
                        tally.conflicts |= other_lost;
                    } else if lost {
                        tally.lost += 1;
                    }
                }
            }
        }
        let ancestors = match place {
            Place::Backend(b) | Place::Port(b, _) | Place::Provider(b, _) => vec![b],
            _ => h.gateways(place),
        };
        for a in ancestors {
            let i = *slot.entry((p, a)).or_insert_with(|| {
                tallies.push(((p, a), Tally::default()));
                tallies.len() - 1
            });
            let t = &mut tallies[i].1;
            t.supplied += tally.supplied;
            t.lost += tally.lost;
            t.conflicts |= tally.conflicts;
        }
    }
    for e in effective.iter().filter(|e| delegated(e)) {
        for (p, t) in delegated_tallies(e) {
            for a in h.gateways(e.place) {
                let i = *slot.entry((p, a)).or_insert_with(|| {
                    tallies.push(((p, a), Tally::default()));
                    tallies.len() - 1
                });
                let into = &mut tallies[i].1;
                into.supplied += t.supplied;
                into.lost += t.lost;
                into.conflicts |= t.conflicts;
            }
        }
    }
    tallies.sort_by_key(|((p, a), _)| (*p, *a));
    tallies
        .into_iter()
        .map(|((p, a), t)| {
            let attached = if t.supplied == 0 && t.lost > 0 {
                ("Overridden", MSG_OVERRIDDEN)
            } else if t.lost == 0 && !t.conflicts {
                ("Attached", MSG_ATTACHED)
            } else {
                ("Merged", MSG_MERGED)
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
        })
        .collect()
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
