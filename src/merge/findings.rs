//! Merge findings: a winner decided only by name order (GW310), a policy that supplies nothing
//! anywhere (GW311), a `disable` that cancels nothing (GW312), PreRouting and PostRouting
//! traffic configuring the same feature (GW313).

use std::collections::BTreeSet;

use crate::fasthash::{FastMap, FastSet};
use crate::rules;

use crate::diag::Diagnostic;
use crate::model::facts::Facts;
use crate::resolve::{qualified, resource_ref};

use super::hierarchy::{Hierarchy, Names};
use super::{Effective, Family, Loss, Place, Setting};

fn who(facts: &[Facts], s: &Setting<'_>) -> String {
    super::kind_and_name(facts, s.source.object())
}

/// A finding at a policy's field key, when the setting is a policy's.
fn at(
    facts: &[Facts],
    code: rules::Code,
    s: &Setting<'_>,
    path: String,
    message: String,
) -> Option<Diagnostic> {
    let p = s.policy()?;
    let id = &facts[p].id;
    Some(
        Diagnostic::new(code, message)
            .at(id.file, s.span)
            .with_resource(Some(resource_ref(id)))
            .with_path(path),
    )
}

fn spec_path(facts: &[Facts], s: &Setting<'_>, family: Family, name: &str) -> String {
    let kind = s.policy().map(|p| facts[p].id.kind.as_str()).unwrap_or("");
    match (kind, family) {
        ("AiGatewayPolicy", Family::AiFrontend) => format!("spec.frontend.{name}"),
        ("AiGatewayPolicy", Family::AiBackend) => format!("spec.backend.{name}"),
        ("AiGatewayPolicy", _) => format!("spec.traffic.{name}"),
        _ => format!("spec.{name}"),
    }
}

/// A finding made where it is first seen, with what makes it the same as another (made again
/// at another place, it is dropped).
enum Once<'a> {
    /// GW310: (winner, loser, field).
    Tie(usize, usize, &'a str),
    /// GW313: (PreRouting winner, PostRouting winner, field).
    Overlap(usize, usize, &'a str),
}

/// What the merge findings learn from a run of places (the effective policies of a run of
/// objects, in facts order): put together in that order by [`Facts::absorb`], they give the
/// findings of the whole set ([`Facts::finish`]).
#[derive(Default)]
pub(super) struct Seen<'a> {
    /// GW310 and GW313 findings, each the first of its kind in the run.
    once: Vec<(Once<'a>, Diagnostic)>,
    /// The ties and overlaps seen (each found once).
    ties: FastSet<(usize, usize, &'a str)>,
    overlaps: FastSet<(usize, usize, &'a str)>,
    /// Policies that supplied a field at some leaf, and policies seen setting a field at all.
    supplied: FastSet<usize>,
    setters: BTreeSet<usize>,
    /// The first setting that beat each policy (for GW311's related location).
    beaten_by: FastMap<usize, Setting<'a>>,
    disables: BTreeSet<(usize, Family, &'a str)>,
    disable_settings: FastMap<(usize, Family, &'a str), Setting<'a>>,
    cancelled: FastSet<(usize, Family, &'a str)>,
}

impl<'a> Seen<'a> {
    /// Learns from the effective policies of a run of objects (every place of each).
    pub(super) fn of(facts: &[Facts], effective: &[Effective<'a>]) -> Self {
        let mut seen = Seen::default();
        // A place's PreRouting traffic, beside its PostRouting (both of the same object).
        let mut pre: FastMap<(Place, Option<Place>), &Effective<'_>> = FastMap::default();
        for e in effective {
            if e.family == Family::AiPreRouting {
                pre.insert((e.place, e.via), e);
            }
        }
        for e in effective {
            for field in &e.fields {
                seen.settings(e, field);
                for (s, loss) in &field.losers {
                    let (Some(w), Some(l)) = (field.winner.policy(), s.policy()) else {
                        continue;
                    };
                    // BackendConfigPolicy ties are GW308's (resolve), which words the name-order
                    // case.
                    if *loss == Loss::NameOrder
                        && e.family != Family::BackendConfigPolicy
                        && w != l
                        && seen.ties.insert((w, l, field.name))
                        && let Some(d) = tie(facts, e, field, s)
                    {
                        seen.once.push((Once::Tie(w, l, field.name), d));
                    }
                }
                if e.family == Family::AiPostRouting
                    && e.leaf
                    && !field.disabled()
                    && let Some(pre) = pre.get(&(e.place, e.via))
                    && let Some(other) = pre
                        .fields
                        .iter()
                        .find(|f| f.name == field.name && !f.disabled())
                    && let (Some(a), Some(b)) = (other.winner.policy(), field.winner.policy())
                    && seen.overlaps.insert((a, b, field.name))
                    && let Some(d) = overlap(facts, field, other)
                {
                    seen.once.push((Once::Overlap(a, b, field.name), d));
                }
            }
        }
        seen
    }

    /// Who sets, supplies, loses and disables in one field's outcome.
    fn settings(&mut self, e: &Effective<'a>, field: &super::FieldOutcome<'a>) {
        let all = std::iter::once(&field.winner)
            .chain(&field.merged)
            .chain(field.losers.iter().map(|(s, _)| s));
        for s in all {
            if let Some(p) = s.policy() {
                self.setters.insert(p);
                if s.disables() {
                    self.disables.insert((p, e.family, field.name));
                    self.disable_settings
                        .entry((p, e.family, field.name))
                        .or_insert(*s);
                }
            }
        }
        if e.leaf {
            for s in std::iter::once(&field.winner).chain(&field.merged) {
                self.supplied.extend(s.policy());
            }
            for (s, _) in &field.losers {
                if let Some(p) = s.policy() {
                    self.beaten_by.entry(p).or_insert(field.winner);
                }
            }
        }
        if let Some(p) = field.winner.policy()
            && field.winner.disables()
            && field.losers.iter().any(|(s, _)| !s.disables())
        {
            self.cancelled.insert((p, e.family, field.name));
        }
    }

    /// Adds what a later run of objects learnt: the first of each finding, setting and winner
    /// stays the first.
    pub(super) fn absorb(&mut self, later: Seen<'a>) {
        for (key, d) in later.once {
            let first = match key {
                Once::Tie(a, b, f) => self.ties.insert((a, b, f)),
                Once::Overlap(a, b, f) => self.overlaps.insert((a, b, f)),
            };
            if first {
                self.once.push((key, d));
            }
        }
        self.ties.extend(later.ties);
        self.overlaps.extend(later.overlaps);
        self.supplied.extend(later.supplied);
        self.setters.extend(later.setters);
        for (p, s) in later.beaten_by {
            self.beaten_by.entry(p).or_insert(s);
        }
        self.disables.extend(later.disables);
        for (k, s) in later.disable_settings {
            self.disable_settings.entry(k).or_insert(s);
        }
        self.cancelled.extend(later.cancelled);
    }

    /// The findings of the whole set, from what every run of it taught: the ties and overlaps,
    /// then the policies without effect (GW311) and the disables that cancel nothing (GW312).
    pub(super) fn finish(self, facts: &[Facts], h: &Hierarchy) -> Vec<Diagnostic> {
        let attached: FastSet<usize> = h
            .attached
            .values()
            .chain(h.extension.values())
            .flatten()
            .copied()
            .collect();
        let mut out: Vec<Diagnostic> = self.once.into_iter().map(|(_, d)| d).collect();
        for p in self.setters {
            if self.supplied.contains(&p) || !attached.contains(&p) {
                continue;
            }
            let Some(winner) = self.beaten_by.get(&p) else {
                continue;
            };
            let id = &facts[p].id;
            let message = format!(
                "{} {} has no effect: every field it sets is overridden on every target (for example by {})",
                id.kind,
                qualified(&id.namespace, &id.name),
                who(facts, winner)
            );
            let mut d = Diagnostic::new(rules::GW311, message)
                .at(id.file, id.name_span)
                .with_resource(Some(resource_ref(id)))
                .with_path("metadata.name");
            if let Some(w) = winner.policy() {
                d = d.with_related(facts[w].id.file, winner.span, "overridden by this setting");
            }
            out.push(d);
        }
        let mut names = None;
        for key in self.disables {
            if self.cancelled.contains(&key) {
                continue;
            }
            // What the inputs do not hold above the disabling policy's routes (their Gateway)
            // may well set the field: nothing is known to be cancelled or not.
            let names = names.get_or_insert_with(|| super::hierarchy::names(facts));
            if routes_parents_missing(facts, names, key.0) {
                continue;
            }
            let (_, family, name) = key;
            let Some(s) = self.disable_settings.get(&key) else {
                continue;
            };
            let message = format!(
                "{name}.disable cancels nothing: no less specific or lower-ranked policy sets {name} where {} applies",
                who(facts, s)
            );
            let path = format!("{}.disable", spec_path(facts, s, family, name));
            out.extend(at(facts, rules::GW312, s, path, message));
        }
        out
    }
}

/// GW310: `s` loses to the field's winner by name order alone.
fn tie(
    facts: &[Facts],
    e: &Effective<'_>,
    field: &super::FieldOutcome<'_>,
    s: &Setting<'_>,
) -> Option<Diagnostic> {
    let w = field.winner.policy()?;
    let message = format!(
        "{} and {} set {} at the same level with the same weight and creation time; {} wins only by name order (in a cluster, creation order decides)",
        who(facts, &field.winner),
        who(facts, s),
        field.name,
        who(facts, &field.winner),
    );
    let path = spec_path(facts, s, e.family, field.name);
    let d = at(facts, rules::GW310, s, path, message)?;
    let wid = &facts[w].id;
    Some(d.with_related(wid.file, field.winner.span, "the winning setting is here").with_help(
        "set the kgateway.dev/policy-weight annotation on the policy that should win, or set the field in one policy only",
    ))
}

/// GW313: the field's PostRouting winner configures what `pre` (PreRouting) configures too.
fn overlap(
    facts: &[Facts],
    field: &super::FieldOutcome<'_>,
    pre: &super::FieldOutcome<'_>,
) -> Option<Diagnostic> {
    let a = pre.winner.policy()?;
    let message = format!(
        "{} configures traffic.{} in PostRouting while {} configures it in PreRouting: the two phases never merge, so the feature runs twice",
        who(facts, &field.winner),
        field.name,
        who(facts, &pre.winner),
    );
    let path = format!("spec.traffic.{}", field.name);
    let d = at(facts, rules::GW313, &field.winner, path, message)?;
    let pid = &facts[a].id;
    Some(d.with_related(pid.file, pre.winner.span, "the PreRouting setting is here"))
}

/// Whether a route the policy `p` targets (by targetRefs) is missing from the inputs, or names a
/// parent (a Gateway, a listener set, a delegating route) that is.
fn routes_parents_missing(facts: &[Facts], names: &Names<'_>, p: usize) -> bool {
    let Some(policy) = facts[p].policy() else {
        return false;
    };
    let ns = facts[p].id.namespace.as_str();
    let mut routes = policy
        .target_refs
        .iter()
        .filter_map(|t| Some((t.kind().filter(|k| k.ends_with("Route"))?, t)));
    routes.any(|(kind, t)| {
        let Some(&route) = names.get(&(kind, t.namespace().unwrap_or(ns), &*t.name)) else {
            return true;
        };
        let route_ns = facts[route].id.namespace.as_str();
        facts[route].route().is_some_and(|r| {
            r.parent_refs.iter().any(|parent| {
                let kind = parent.kind().unwrap_or("Gateway");
                let parent_ns = parent.namespace().unwrap_or(route_ns);
                !names.contains_key(&(kind, parent_ns, &*parent.name))
            })
        })
    })
}
