//! The order of settings of one field: the more specific level first; within a level the
//! heavier `kgateway.dev/policy-weight`, then the older creationTimestamp (none ranks last),
//! then `namespace/name`. The first supplies the field.

use crate::fasthash::FastMap;
use std::cmp::Ordering;

use serde_json::Value;

use crate::model::facts::{Facts, Spec};

use super::{Family, FieldOutcome, Loss, MergeOptions, Setting, Source};

/// What orders sources within one level.
struct Key<'a> {
    weight: i64,
    created: Option<&'a str>,
    namespace: &'a str,
    name: &'a str,
}

fn key(facts: &[Facts], source: Source) -> Key<'_> {
    let i = source.object();
    let (weight, created) = match (source, &facts[i].spec) {
        (Source::Policy(_), Spec::Policy(pf)) => (pf.weight, pf.created.as_deref()),
        _ => (0, None),
    };
    Key {
        weight,
        created,
        namespace: &facts[i].id.namespace,
        name: &facts[i].id.name,
    }
}

/// How `a` and `b` compare (Less: `a` first), and the rule that decided.
fn compare(facts: &[Facts], a: &Setting<'_>, b: &Setting<'_>) -> (Ordering, Loss) {
    let by_level = b.level.cmp(&a.level);
    if by_level != Ordering::Equal {
        return (by_level, Loss::MoreSpecificLevel);
    }
    within_level(facts, a.source, b.source)
}

/// How two policies of one level compare (Less: `a` first): by weight, age, then name.
pub fn policy_order(facts: &[Facts], a: usize, b: usize) -> Ordering {
    within_level(facts, Source::Policy(a), Source::Policy(b)).0
}

/// How two sources of one level compare, and the rule that decided.
fn within_level(facts: &[Facts], a: Source, b: Source) -> (Ordering, Loss) {
    let (ka, kb) = (key(facts, a), key(facts, b));
    let by_weight = kb.weight.cmp(&ka.weight);
    if by_weight != Ordering::Equal {
        return (by_weight, Loss::HeavierWeight);
    }
    let by_age = match (ka.created, kb.created) {
        (Some(x), Some(y)) => x.cmp(y),
        (Some(_), None) => Ordering::Less,
        (None, Some(_)) => Ordering::Greater,
        (None, None) => Ordering::Equal,
    };
    if by_age != Ordering::Equal {
        return (by_age, Loss::Older);
    }
    let by_name = (ka.namespace, ka.name).cmp(&(kb.namespace, kb.name));
    (by_name, Loss::NameOrder)
}

/// The outcome of every field of one family, given its settings in chain order.
pub(super) fn outcomes<'a>(
    facts: &'a [Facts],
    family: Family,
    settings: Vec<(&'a str, Setting<'a>)>,
    options: &MergeOptions,
) -> Vec<FieldOutcome<'a>> {
    // Most places have one setting per field (one policy per family): each is its own winner,
    // and the maps below would only cost allocations.
    let distinct = settings
        .iter()
        .enumerate()
        .all(|(i, (name, _))| settings[..i].iter().all(|(other, _)| other != name));
    if distinct {
        return settings
            .into_iter()
            .map(|(name, winner)| FieldOutcome {
                name,
                winner,
                merged: Vec::new(),
                losers: Vec::new(),
            })
            .collect();
    }
    // Fields keep the order they first appear in (least specific first), as written.
    let mut order: Vec<&'a str> = Vec::new();
    let mut by_field: FastMap<&'a str, Vec<Setting<'a>>> = FastMap::default();
    for (name, s) in settings {
        let list = by_field.entry(name).or_default();
        if list.is_empty() {
            order.push(name);
        }
        // A policy attached twice at one level (two targetRefs) counts once.
        if !list
            .iter()
            .any(|x| x.source == s.source && x.level == s.level && x.inherited == s.inherited)
        {
            list.push(s);
        }
    }
    order
        .into_iter()
        .filter_map(|name| {
            let mut list = by_field.remove(name)?;
            // Delegation: each depth of the chain is ranked on its own, nearest first, then the
            // depths are combined (see `inherit`).
            list.sort_by(|a, b| {
                a.inherited
                    .depth
                    .cmp(&b.inherited.depth)
                    .then_with(|| compare(facts, a, b).0)
            });
            let mut groups = Vec::new();
            let mut rest = list.as_slice();
            while let Some(first) = rest.first() {
                let n = rest
                    .iter()
                    .take_while(|s| s.inherited.depth == first.inherited.depth)
                    .count();
                groups.push(one_depth(facts, family, name, &rest[..n], options)?);
                rest = &rest[n..];
            }
            let mut groups = groups.into_iter();
            let nearest = groups.next()?;
            Some(groups.fold(nearest, inherit))
        })
        .collect()
}

/// The outcome of a field among the settings of one depth of a delegation chain (all of them
/// when there is no delegation), ranked.
fn one_depth<'a>(
    facts: &[Facts],
    family: Family,
    name: &'a str,
    ranked: &[Setting<'a>],
    options: &MergeOptions,
) -> Option<FieldOutcome<'a>> {
    let (&winner, others) = ranked.split_first()?;
    let deep = options.deep(family, name) && !winner.disables();
    let mut merged = Vec::new();
    let mut losers = Vec::new();
    for &s in others {
        if deep && s.level == winner.level && !s.disables() {
            merged.push(s);
        } else {
            losers.push((s, compare(facts, &winner, &s).1));
        }
    }
    Some(FieldOutcome {
        name,
        winner,
        merged,
        losers,
    })
}

/// Combines a field's outcome so far (the nearer depths of a delegation chain) with the
/// outcome of the next depth up, as the parent route's `inherited-policy-priority` says: the
/// preferred side's winner supplies the field; with a deep merge, transformations are
/// combined (the preferred side's winner first, then the rest in rank order) instead.
fn inherit<'a>(near: FieldOutcome<'a>, far: FieldOutcome<'a>) -> FieldOutcome<'a> {
    let priority = far.winner.inherited.priority;
    let deep = priority.deep() && near.name == "transformation";
    let (mut kept, other, loss) = if priority.prefers_parent() {
        (far, near, Loss::ParentRoutePreferred)
    } else {
        (near, far, Loss::ChildRoutePreferred)
    };
    if deep {
        kept.merged.push(other.winner);
        kept.merged.extend(other.merged);
    } else {
        kept.losers.push((other.winner, loss));
        kept.losers
            .extend(other.merged.into_iter().map(|s| (s, loss)));
    }
    kept.losers.extend(other.losers);
    kept
}

/// Appends `add` to `out`: objects key by key, arrays concatenated, other values kept first.
pub(crate) fn concat(out: &mut Value, add: &Value) {
    match (out, add) {
        (out @ Value::Null, add) => *out = add.clone(),
        (Value::Object(o), Value::Object(a)) => {
            for (k, v) in a {
                concat(o.entry(k.clone()).or_insert(Value::Null), v);
            }
        }
        (Value::Array(o), Value::Array(a)) => o.extend(a.iter().cloned()),
        _ => {}
    }
}
