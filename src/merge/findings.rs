//! Merge findings: a winner decided only by name order (GW310), a policy that supplies nothing
//! anywhere (GW311), a `disable` that cancels nothing (GW312), PreRouting and PostRouting
//! traffic configuring the same feature (GW313).

use crate::rules;
use std::collections::BTreeSet;

use crate::fasthash::{FastMap, FastSet};

use crate::diag::Diagnostic;
use crate::model::facts::Facts;
use crate::resolve::{qualified, resource_ref};

use super::hierarchy::Hierarchy;
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

pub(super) fn findings(
    facts: &[Facts],
    h: &Hierarchy,
    effective: &[Effective<'_>],
) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    let mut ties: FastSet<(usize, usize, &str)> = FastSet::default();
    // Policies that supplied a field at some leaf, and policies seen setting a field at all.
    let mut supplied: FastSet<usize> = FastSet::default();
    let mut setters: BTreeSet<usize> = BTreeSet::new();
    // The first setting that beat each policy (for GW311's related location).
    let mut beaten_by: FastMap<usize, Setting<'_>> = FastMap::default();
    let mut disables: BTreeSet<(usize, Family, &str)> = BTreeSet::new();
    let mut disable_settings: FastMap<(usize, Family, &str), Setting<'_>> = FastMap::default();
    let mut cancelled: FastSet<(usize, Family, &str)> = FastSet::default();
    let mut overlaps: FastSet<(usize, usize, &str)> = FastSet::default();
    let mut pre: FastMap<(Place, Option<Place>), &Effective<'_>> = FastMap::default();
    for e in effective {
        if e.family == Family::AiPreRouting {
            pre.insert((e.place, e.via), e);
        }
    }
    for e in effective {
        for field in &e.fields {
            let all = std::iter::once(&field.winner)
                .chain(&field.merged)
                .chain(field.losers.iter().map(|(s, _)| s));
            for s in all.clone() {
                if let Some(p) = s.policy() {
                    setters.insert(p);
                    if s.disables() {
                        disables.insert((p, e.family, field.name));
                        disable_settings
                            .entry((p, e.family, field.name))
                            .or_insert(*s);
                    }
                }
            }
            if e.leaf {
                for s in std::iter::once(&field.winner).chain(&field.merged) {
                    supplied.extend(s.policy());
                }
                for (s, _) in &field.losers {
                    if let Some(p) = s.policy() {
                        beaten_by.entry(p).or_insert(field.winner);
                    }
                }
            }
            if let Some(p) = field.winner.policy()
                && field.winner.disables()
                && field.losers.iter().any(|(s, _)| !s.disables())
            {
                cancelled.insert((p, e.family, field.name));
            }
            for (s, loss) in &field.losers {
                let (Some(w), Some(l)) = (field.winner.policy(), s.policy()) else {
                    continue;
                };
                // BackendConfigPolicy ties are GW308's (resolve), which words the name-order case.
                if *loss == Loss::NameOrder
                    && e.family != Family::BackendConfigPolicy
                    && w != l
                    && ties.insert((w, l, field.name))
                {
                    let message = format!(
                        "{} and {} set {} at the same level with the same weight and creation time; {} wins only by name order (in a cluster, creation order decides)",
                        who(facts, &field.winner),
                        who(facts, s),
                        field.name,
                        who(facts, &field.winner),
                    );
                    let path = spec_path(facts, s, e.family, field.name);
                    if let Some(d) = at(facts, rules::GW310, s, path, message) {
                        let wid = &facts[w].id;
                        out.push(d.with_related(wid.file, field.winner.span, "the winning setting is here").with_help(
                            "set the kgateway.dev/policy-weight annotation on the policy that should win, or set the field in one policy only",
                        ));
                    }
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
                && overlaps.insert((a, b, field.name))
            {
                let message = format!(
                    "{} configures traffic.{} in PostRouting while {} configures it in PreRouting: the two phases never merge, so the feature runs twice",
                    who(facts, &field.winner),
                    field.name,
                    who(facts, &other.winner),
                );
                let path = format!("spec.traffic.{}", field.name);
                if let Some(d) = at(facts, rules::GW313, &field.winner, path, message) {
                    let pid = &facts[a].id;
                    out.push(d.with_related(
                        pid.file,
                        other.winner.span,
                        "the PreRouting setting is here",
                    ));
                }
            }
        }
    }
    let attached: FastSet<usize> = h
        .attached
        .values()
        .chain(h.extension.values())
        .flatten()
        .copied()
        .collect();
    for p in setters {
        if supplied.contains(&p) || !attached.contains(&p) {
            continue;
        }
        let Some(winner) = beaten_by.get(&p) else {
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
    for key in disables {
        if cancelled.contains(&key) {
            continue;
        }
        let (_, family, name) = key;
        let Some(s) = disable_settings.get(&key) else {
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
