//! Two BackendConfigPolicies on one Service or Backend that set the same top-level field: merge
//! is per top-level field (`decisions.md` section 5), so the first-ranked policy supplies the
//! whole field and the other's value is silently dropped. Ranking within the level: higher
//! `kgateway.dev/policy-weight` first, then older creationTimestamp (a policy without one after
//! every one that has it), then `namespace/name`.

use crate::fasthash::FastMap;
use crate::rules;
use std::cmp::Ordering;

use crate::model::facts::{Facts, ObjRef, Spec};
use crate::model::facts_policy::{PolicyFacts, WEIGHT_ANNOTATION};

use super::policies::Attachment;
use super::{Ctx, diag, qualified};

pub(super) fn check(ctx: &mut Ctx<'_>, attachments: &[Attachment]) {
    let facts = ctx.index.facts;
    // (target, section) -> policies, in facts order; grouped once, so that the work is linear in
    // the attachments plus the pairs that really share a target.
    let mut by_target: FastMap<(usize, Option<&str>), Vec<usize>> = FastMap::default();
    for a in attachments {
        if facts[a.policy].id.kind != "BackendConfigPolicy" {
            continue;
        }
        let list = by_target
            .entry((a.target, a.section.as_deref()))
            .or_default();
        // A policy can reach one target through a targetRef and a selector.
        if !list.contains(&a.policy) {
            list.push(a.policy);
        }
    }
    let mut groups: Vec<_> = by_target.into_iter().filter(|(_, p)| p.len() > 1).collect();
    // Findings in a stable order, whatever the hash order.
    groups.sort_unstable_by_key(|((t, s), _)| (*t, s.map(str::to_string)));
    for ((target, _), mut policies) in groups {
        policies.sort_by(|&a, &b| rank(&facts[a], &facts[b]));
        conflicts(ctx, target, &policies);
    }
}

fn policy(f: &Facts) -> Option<&PolicyFacts> {
    match &f.spec {
        Spec::Policy(p) => Some(p),
        _ => None,
    }
}

/// The order of two policies on one level, first-ranked first.
fn rank(a: &Facts, b: &Facts) -> Ordering {
    let (Some(pa), Some(pb)) = (policy(a), policy(b)) else {
        return Ordering::Equal;
    };
    pb.weight
        .cmp(&pa.weight)
        .then_with(|| match (&pa.created, &pb.created) {
            (Some(x), Some(y)) => x.cmp(y),
            (Some(_), None) => Ordering::Less,
            (None, Some(_)) => Ordering::Greater,
            (None, None) => Ordering::Equal,
        })
        .then_with(|| {
            (a.id.namespace.as_str(), a.id.name.as_str())
                .cmp(&(b.id.namespace.as_str(), b.id.name.as_str()))
        })
}

/// Why `winner` ranks before `loser`.
fn reason(winner: &PolicyFacts, loser: &PolicyFacts) -> String {
    if winner.weight != loser.weight {
        return format!(
            "its {WEIGHT_ANNOTATION} {} is higher than {}",
            winner.weight, loser.weight
        );
    }
    match (&winner.created, &loser.created) {
        (Some(w), Some(l)) if w != l => format!("it is older ({w} before {l})"),
        (Some(_), None) => "it has a creationTimestamp and this one has none".to_string(),
        _ => "of name order only; the controller orders by creation time, which the manifests do not fix".to_string(),
    }
}

fn conflicts(ctx: &mut Ctx<'_>, target: usize, ranked: &[usize]) {
    let facts = ctx.index.facts;
    let t = &facts[target];
    // field name -> the first-ranked policy setting it.
    let mut winners: FastMap<&str, usize> = FastMap::default();
    for &p in ranked {
        let f = &facts[p];
        let Some(pf) = policy(f) else { continue };
        for field in &pf.fields {
            let Some(&w) = winners.get(field.name.as_str()) else {
                winners.insert(&field.name, p);
                continue;
            };
            let wf = &facts[w];
            let Some(wp) = policy(wf) else { continue };
            let Some(wfield) = wp.fields.iter().find(|x| x.name == field.name) else {
                continue;
            };
            // The same value twice loses nothing.
            if wfield.value == field.value {
                continue;
            }
            let at = ObjRef::at(field.key_span, format!("spec.{}", field.name));
            let d = diag(
                rules::GW308,
                format!(
                    "{} on {} {} is not applied: BackendConfigPolicy {} also sets it and ranks first because {}",
                    field.name,
                    t.id.kind,
                    qualified(&t.id.namespace, &t.id.name),
                    qualified(&wf.id.namespace, &wf.id.name),
                    reason(wp, pf)
                ),
                &f.id,
                &at,
            )
            .with_related(
                wf.id.file,
                wfield.key_span,
                format!("the {} applied, from {}", field.name, wf.id.name),
            )
            .with_related(
                t.id.file,
                t.id.name_span,
                format!("the {} both policies target", t.id.kind),
            );
            ctx.out.push(d);
        }
    }
}
