//! GW213: two HTTPRoute rules attached to the same listener and hostname with the same match.
//! Gateway API conflict resolution gives the match to the oldest route (creationTimestamp), then
//! to the first by `namespace/name`, and within one route to the first rule; a rule all of whose
//! matches lose everywhere it attaches never receives traffic. Only rules that lose every match
//! are reported: one that still wins somewhere carries traffic.

use crate::rules;
use std::cmp::Ordering;

use crate::fasthash::FastMap;
use crate::model::facts::{Facts, ObjRef, Spec};

use super::routes::{Attached, host_match};
use super::{Ctx, diag, qualified};

/// A rule of a route: the route and the rule's index.
#[derive(Clone, Copy)]
struct RuleId<'a> {
    route: &'a Facts,
    rule: usize,
}

impl RuleId<'_> {
    fn key(self) -> (*const Facts, usize) {
        (std::ptr::from_ref(self.route), self.rule)
    }
}

fn created(f: &Facts) -> Option<&str> {
    match &f.spec {
        Spec::Route(r) => r.created.as_deref(),
        _ => None,
    }
}

/// Which of two rules with the same match wins it (`Less`: `a`).
fn precedence(a: RuleId<'_>, b: RuleId<'_>) -> Ordering {
    let by_time = match (created(a.route), created(b.route)) {
        (Some(x), Some(y)) => x.cmp(y),
        (Some(_), None) => Ordering::Less,
        (None, Some(_)) => Ordering::Greater,
        (None, None) => Ordering::Equal,
    };
    fn id<'r>(r: RuleId<'r>) -> (&'r str, &'r str) {
        (r.route.id.namespace.as_str(), r.route.id.name.as_str())
    }
    by_time
        .then_with(|| id(a).cmp(&id(b)))
        .then_with(|| a.rule.cmp(&b.rule))
}

/// Why `winner` takes the match from `loser`.
fn reason(winner: RuleId<'_>, loser: RuleId<'_>) -> String {
    if std::ptr::eq(winner.route, loser.route) {
        return "it comes first in the route's rules".to_string();
    }
    match (created(winner.route), created(loser.route)) {
        (Some(w), Some(l)) if w != l => format!("its route is older ({w} before {l})"),
        (Some(_), None) => {
            "its route has a creationTimestamp and this one has none".to_string()
        }
        _ => "its route comes first by namespace/name; the controller orders by creation time first, which the manifests do not fix".to_string(),
    }
}

/// The hostnames a route serves on a listener: the route's hostnames that the listener admits
/// (the more specific of the two names), else the listener's hostname, else any (`*`).
fn hosts(route: &[String], listener: Option<&str>) -> Vec<String> {
    if route.is_empty() {
        return vec![listener.unwrap_or("*").to_ascii_lowercase()];
    }
    route
        .iter()
        .filter_map(|h| {
            let h = h.to_ascii_lowercase();
            match listener {
                None => Some(h),
                Some(l) if host_match(l, &h) => {
                    let l = l.to_ascii_lowercase();
                    // A wildcard on one side: the other (more specific) name is served.
                    Some(
                        if h.starts_with('*') && (!l.starts_with('*') || l.len() > h.len()) {
                            l
                        } else {
                            h
                        },
                    )
                }
                Some(_) => None,
            }
        })
        .collect()
}

/// Per rule: how many (listener, host, match) places it takes part in, and the first place it
/// loses with the rule that wins there.
struct Standing<'a> {
    rule: RuleId<'a>,
    places: usize,
    lost: usize,
    /// The first lost place: (listener, host, match, winner).
    first_loss: Option<(&'a Attached<'a>, String, &'a str, RuleId<'a>)>,
}

/// The rules that share one (parent, listener, host, match) place, in input order: the first
/// inline (most places have one rule), the others after it.
struct Contenders<'a> {
    first: (RuleId<'a>, &'a Attached<'a>),
    more: Vec<(RuleId<'a>, &'a Attached<'a>)>,
}

impl<'a> Contenders<'a> {
    fn iter(&self) -> impl Iterator<Item = &(RuleId<'a>, &'a Attached<'a>)> {
        std::iter::once(&self.first).chain(&self.more)
    }
}

/// (parent, listener, host, match): one place where rules compete.
type Place<'a, 'p> = (usize, &'a str, &'p str, &'a str);

pub(super) fn check<'a>(ctx: &mut Ctx<'_>, attached: &'a [Attached<'a>]) {
    // The hosts each attachment serves, made first so that the places below borrow them: a
    // place's key then costs no allocation (there are millions of places at 100,000 routes).
    let served: Vec<Vec<String>> = attached
        .iter()
        .map(|a| match &a.route.spec {
            Spec::Route(route) => hosts(&route.hostnames, a.listener.hostname.as_deref()),
            _ => Vec::new(),
        })
        .collect();
    let order = contenders(attached, &served);
    let (standing, rules_in_order) = standings(&order);
    for key in rules_in_order {
        let Some(s) = standing.get(&key) else {
            continue;
        };
        if s.lost < s.places {
            continue;
        }
        let Some((a, host, matched, winner)) = &s.first_loss else {
            continue;
        };
        report(ctx, s.rule, a, host, matched, *winner);
    }
}

/// Every place with the rules that have its match there, in the order first seen.
fn contenders<'a, 'p>(
    attached: &'a [Attached<'a>],
    served: &'p [Vec<String>],
) -> Vec<(Place<'a, 'p>, Contenders<'a>)> {
    let capacity = attached
        .iter()
        .zip(served)
        .map(|(a, hosts)| match &a.route.spec {
            Spec::Route(route) => {
                hosts.len()
                    * route
                        .http_rules
                        .iter()
                        .map(|r| r.matches.len())
                        .sum::<usize>()
            }
            _ => 0,
        })
        .sum();
    // Place -> its position in `order`.
    let mut places: FastMap<Place<'a, 'p>, usize> = FastMap::default();
    places.reserve(capacity);
    let mut order: Vec<(Place<'a, 'p>, Contenders<'a>)> = Vec::new();
    for (a, hosts) in attached.iter().zip(served) {
        let Spec::Route(route) = &a.route.spec else {
            continue;
        };
        for host in hosts {
            for (i, rule) in route.http_rules.iter().enumerate() {
                for (m, _) in &rule.matches {
                    let key = (a.parent, a.listener.name.as_str(), host.as_str(), &**m);
                    let id = RuleId {
                        route: a.route,
                        rule: i,
                    };
                    match places.entry(key) {
                        std::collections::hash_map::Entry::Vacant(v) => {
                            v.insert(order.len());
                            order.push((
                                key,
                                Contenders {
                                    first: (id, a),
                                    more: Vec::new(),
                                },
                            ));
                        }
                        std::collections::hash_map::Entry::Occupied(o) => {
                            let Some((_, list)) = order.get_mut(*o.get()) else {
                                continue;
                            };
                            // One route attached twice to one listener (two parentRefs) is one
                            // place.
                            if !list.iter().any(|(r, _)| r.key() == id.key()) {
                                list.more.push((id, a));
                            }
                        }
                    }
                }
            }
        }
    }
    order
}

/// Each rule's standing over the places, and the rules in the order first seen.
type Standings<'a> = (
    FastMap<(*const Facts, usize), Standing<'a>>,
    Vec<(*const Facts, usize)>,
);

fn standings<'a>(order: &[(Place<'a, '_>, Contenders<'a>)]) -> Standings<'a> {
    let mut standing: FastMap<(*const Facts, usize), Standing<'a>> = FastMap::default();
    let mut rules_in_order = Vec::new();
    for (key, list) in order {
        let Some(&(winner, _)) = list.iter().min_by(|x, y| precedence(x.0, y.0)) else {
            continue;
        };
        for &(id, a) in list.iter() {
            let s = standing.entry(id.key()).or_insert_with(|| {
                rules_in_order.push(id.key());
                Standing {
                    rule: id,
                    places: 0,
                    lost: 0,
                    first_loss: None,
                }
            });
            s.places += 1;
            if winner.key() != id.key() {
                s.lost += 1;
                if s.first_loss.is_none() {
                    s.first_loss = Some((a, key.2.to_string(), key.3, winner));
                }
            }
        }
    }
    (standing, rules_in_order)
}

fn report(
    ctx: &mut Ctx<'_>,
    loser: RuleId<'_>,
    a: &Attached<'_>,
    host: &str,
    matched: &str,
    winner: RuleId<'_>,
) {
    let (Spec::Route(lr), Spec::Route(wr)) = (&loser.route.spec, &winner.route.spec) else {
        return;
    };
    let (Some(lrule), Some(wrule)) = (
        lr.http_rules.get(loser.rule),
        wr.http_rules.get(winner.rule),
    ) else {
        return;
    };
    let parent = &ctx.index.facts[a.parent].id;
    let w = &winner.route.id;
    let at = ObjRef::at(lrule.span, format!("spec.rules[{}]", loser.rule));
    let d = diag(
        rules::GW213,
        format!(
            "this rule never receives traffic: its match ({matched}) on listener {:?} of {} {} for host {host:?} is also a match of HTTPRoute {} spec.rules[{}], which wins because {}",
            a.listener.name,
            parent.kind,
            qualified(&parent.namespace, &parent.name),
            qualified(&w.namespace, &w.name),
            winner.rule,
            reason(winner, loser)
        ),
        &loser.route.id,
        &at,
    )
    .with_related(w.file, wrule.span, "the rule that receives the traffic")
    .with_help("change or remove one of the matches, or give the rules different hostnames");
    ctx.out.push(d);
}

#[cfg(test)]
mod tests {
    use super::hosts;

    #[test]
    fn a_route_serves_the_more_specific_of_its_and_the_listeners_hostname() {
        let route = |h: &[&str]| h.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert_eq!(hosts(&[], None), ["*"]);
        assert_eq!(hosts(&[], Some("Shop.example.com")), ["shop.example.com"]);
        assert_eq!(
            hosts(
                &route(&["a.example.com", "b.other.org"]),
                Some("*.example.com")
            ),
            ["a.example.com"]
        );
        assert_eq!(
            hosts(&route(&["*.example.com"]), Some("shop.example.com")),
            ["shop.example.com"]
        );
        assert_eq!(hosts(&route(&["A.example.com"]), None), ["a.example.com"]);
    }
}
