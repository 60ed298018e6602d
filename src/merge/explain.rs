//! What `gwctl explain` shows of one place, as data: where the place sits in the hierarchy, the
//! policies attached along its chain with their predicted status, and its effective policies.

use crate::fasthash::FastMap;

use crate::model::facts::{Facts, Spec};

use super::status::PolicyStatus;
use super::view::{EffectiveView, SourceView, effective_view, place_label, source_view};
use super::{Hierarchy, Level, Merged, Place, kind_and_name};

#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct AttachedView {
    pub level: Level,
    pub policy: SourceView,
    /// `Accepted/Attached` reasons, such as `Valid/Merged`; absent for inline backend policies.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub status: Option<String>,
}

#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Explanation {
    pub target: String,
    /// One line per path from the top of the hierarchy to the place and what hangs below it:
    /// `Gateway infra/gw > listener http > HTTPRoute infra/r > rule a > Service infra/svc`.
    pub hierarchy: Vec<String>,
    /// Least specific level first.
    pub attached: Vec<AttachedView>,
    pub effective: Vec<EffectiveView>,
}

/// Each policy's status as `explain` shows it (`Valid/Merged`), from its first ancestor; built
/// once for any number of explanations.
pub fn status_index(statuses: &[PolicyStatus]) -> FastMap<usize, String> {
    let mut out = FastMap::default();
    for s in statuses {
        out.entry(s.policy_index)
            .or_insert_with(|| format!("{}/{}", s.accepted.reason, s.attached.reason));
    }
    out
}

pub fn explain(
    facts: &[Facts],
    merged: &Merged<'_>,
    status_of: &FastMap<usize, String>,
    place: Place,
) -> Explanation {
    let effective: Vec<_> = merged.of(place).collect();
    let mut attached: Vec<AttachedView> = Vec::new();
    for e in &effective {
        for f in &e.fields {
            let all = std::iter::once(&f.winner)
                .chain(&f.merged)
                .chain(f.losers.iter().map(|(s, _)| s));
            for s in all {
                let view = AttachedView {
                    level: s.level,
                    policy: source_view(facts, s),
                    status: s.policy().and_then(|p| status_of.get(&p).cloned()),
                };
                if !attached.contains(&view) {
                    attached.push(view);
                }
            }
        }
    }
    // A policy attached here that supplies nothing (every field it sets configures nothing at
    // this kind of place) is listed all the same.
    if let Some(level) = own_level(place) {
        for &p in merged.hierarchy.attached.get(&place).into_iter().flatten() {
            let id = &facts[p].id;
            let view = AttachedView {
                level,
                policy: SourceView {
                    kind: id.kind.clone(),
                    namespace: id.namespace.clone(),
                    name: id.name.clone(),
                    level,
                    inline: None,
                    inherited: 0,
                },
                status: status_of.get(&p).cloned(),
            };
            if !attached.contains(&view) {
                attached.push(view);
            }
        }
    }
    attached.sort_by(|a, b| {
        (a.level, &a.policy.namespace, &a.policy.name).cmp(&(
            b.level,
            &b.policy.namespace,
            &b.policy.name,
        ))
    });
    Explanation {
        target: place_label(facts, place),
        hierarchy: hierarchy(facts, merged, place),
        attached,
        effective: effective.iter().map(|e| effective_view(facts, e)).collect(),
    }
}

/// The level of the policies attached at a place itself.
fn own_level(place: Place) -> Option<Level> {
    match place {
        Place::Gateway(_) => Some(Level::Gateway),
        Place::Listener(..) => Some(Level::Listener),
        Place::Route(_) => Some(Level::Route),
        Place::Rule(..) => Some(Level::Rule),
        Place::Backend(_) | Place::Port(..) | Place::Provider(..) => None,
    }
}

fn section(facts: &[Facts], place: Place) -> String {
    super::view::place_parts(facts, place).1.unwrap_or_default()
}

fn listener_name(facts: &[Facts], g: usize, l: usize) -> String {
    match &facts[g].spec {
        Spec::Gateway { listeners, .. } | Spec::ListenerSet { listeners, .. } => {
            listeners.get(l).map(|x| x.name.clone())
        }
        _ => None,
    }
    .unwrap_or_default()
}

fn rule_name(facts: &[Facts], r: usize, k: usize) -> String {
    match &facts[r].spec {
        Spec::Route(route) => route.rules.get(k).cloned().flatten(),
        _ => None,
    }
    .unwrap_or_else(|| k.to_string())
}

/// The hierarchy lines of one place: one per path down to it, with what hangs below it.
fn hierarchy(facts: &[Facts], merged: &Merged<'_>, place: Place) -> Vec<String> {
    let h = &merged.hierarchy;
    match place {
        Place::Gateway(g) => (0..listener_count(facts, g))
            .map(|l| listener_line(facts, h, g, l))
            .collect(),
        Place::Listener(g, l) => vec![listener_line(facts, h, g, l)],
        Place::Route(r) => route_lines(facts, h, r),
        Place::Rule(r, k) => rule_lines(facts, h, r, k),
        Place::Backend(b) => vec![backend_line(facts, b)],
        Place::Port(b, _) => vec![section_line(facts, b, "port", place)],
        Place::Provider(b, _) => vec![section_line(facts, b, "provider", place)],
    }
}

fn listener_count(facts: &[Facts], g: usize) -> usize {
    match &facts[g].spec {
        Spec::Gateway { listeners, .. } | Spec::ListenerSet { listeners, .. } => listeners.len(),
        _ => 0,
    }
}

/// `Gateway ns/gw > listener http`.
fn listener_path(facts: &[Facts], g: usize, l: usize) -> String {
    format!(
        "{} > listener {}",
        kind_and_name(facts, g),
        listener_name(facts, g, l)
    )
}

/// A listener and the routes hanging from it.
fn listener_line(facts: &[Facts], h: &Hierarchy, g: usize, l: usize) -> String {
    format!(
        "{}{}",
        listener_path(facts, g, l),
        names_below(facts, &h.children, Place::Listener(g, l))
    )
}

/// ` > Kind ns/a, Kind ns/b` for the objects `below` lists under a place; empty when none.
fn names_below(facts: &[Facts], below: &FastMap<Place, Vec<usize>>, place: Place) -> String {
    let names: Vec<String> = below
        .get(&place)
        .map(Vec::as_slice)
        .unwrap_or(&[])
        .iter()
        .map(|&i| kind_and_name(facts, i))
        .collect();
    if names.is_empty() {
        String::new()
    } else {
        format!(" > {}", names.join(", "))
    }
}

/// The `listener path > ` prefix of each listener a route hangs from; one empty prefix for a
/// route with no parents, so it still gets a line.
fn parent_prefixes(facts: &[Facts], h: &Hierarchy, r: usize) -> Vec<String> {
    let ps = h.parents.get(&r).map(Vec::as_slice).unwrap_or(&[]);
    if ps.is_empty() {
        return vec![String::new()];
    }
    ps.iter()
        .filter_map(|p| match *p {
            Place::Listener(g, l) => Some(format!("{} > ", listener_path(facts, g, l))),
            _ => None,
        })
        .collect()
}

/// A route under each of its parents, with its rules.
fn route_lines(facts: &[Facts], h: &Hierarchy, r: usize) -> Vec<String> {
    let rules = match &facts[r].spec {
        Spec::Route(route) => (0..route.rules.len())
            .map(|k| rule_name(facts, r, k))
            .collect::<Vec<_>>(),
        _ => Vec::new(),
    };
    parent_prefixes(facts, h, r)
        .into_iter()
        .map(|p| {
            format!(
                "{p}{} > rules {}",
                kind_and_name(facts, r),
                rules.join(", ")
            )
        })
        .collect()
}

/// A rule under each of its route's parents, with its backends.
fn rule_lines(facts: &[Facts], h: &Hierarchy, r: usize, k: usize) -> Vec<String> {
    parent_prefixes(facts, h, r)
        .into_iter()
        .map(|p| {
            format!(
                "{p}{} > rule {}{}",
                kind_and_name(facts, r),
                rule_name(facts, r, k),
                names_below(facts, &h.backends, Place::Rule(r, k))
            )
        })
        .collect()
}

/// A backend with its ports (Service) or providers (anything else), when it has any.
fn backend_line(facts: &[Facts], b: usize) -> String {
    let what = match &facts[b].spec {
        Spec::Service { .. } => "ports",
        _ => "providers",
    };
    let names: Vec<String> = super::view::places_of(facts, b, None)
        .into_iter()
        .skip(1)
        .map(|p| section(facts, p))
        .collect();
    if names.is_empty() {
        kind_and_name(facts, b)
    } else {
        format!("{} > {what} {}", kind_and_name(facts, b), names.join(", "))
    }
}

/// A backend's port or provider: `Service ns/svc > port http`.
fn section_line(facts: &[Facts], b: usize, what: &str, place: Place) -> String {
    format!(
        "{} > {what} {}",
        kind_and_name(facts, b),
        section(facts, place)
    )
}
