//! GW213: two HTTPRoute rules attached to the same listener and hostname with the same match.
//! Gateway API conflict resolution gives the match to the oldest route (creationTimestamp), then
//! to the first by `namespace/name`, and within one route to the first rule; a rule all of whose
//! matches lose everywhere it attaches never receives traffic. Only rules that lose every match
//! are reported: one that still wins somewhere carries traffic.

use crate::rules;
use std::cmp::Ordering;

use rayon::prelude::*;

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
    /// The route by its address (a rule's identity within one run), and the rule.
    fn key(self) -> (usize, usize) {
        (std::ptr::from_ref(self.route).addr(), self.rule)
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

/// Where a place or a rule comes in the walk over the attachments, their hosts, the rules and
/// their matches: (attachment, host, rule, match) of its first sight, then its position among
/// the place's contenders. The walk of one listener's attachments sees them in this order too.
type Seq = (usize, usize, usize, usize, usize);

/// Per rule: how many (listener, host, match) places it takes part in, and the first place it
/// loses with the rule that wins there.
struct Standing<'a> {
    rule: RuleId<'a>,
    /// When the rule is first seen (the order of the findings).
    seen: Seq,
    places: usize,
    lost: usize,
    /// The first lost place: when, and (listener, host, match, winner).
    first_loss: Option<(Seq, Loss<'a>)>,
}

type Loss<'a> = (&'a Attached<'a>, String, &'a str, RuleId<'a>);

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

/// (host, match): one place where the rules on one listener compete.
type Place<'a, 'p> = (&'p str, &'a str);

/// Each rule's standing, by rule.
type Standings<'a> = FastMap<(usize, usize), Standing<'a>>;

pub(super) fn check<'a>(ctx: &mut Ctx<'_>, attached: &'a [Attached<'a>]) {
    // Rules compete only on one listener of one parent: each listener's places are judged on
    // their own, in parallel, so that the places (millions at 100,000 routes) are never all
    // held at once.
    let mut listeners: FastMap<(usize, &str), usize> = FastMap::default();
    let mut groups: Vec<Vec<usize>> = Vec::new();
    for (i, a) in attached.iter().enumerate() {
        let n = *listeners
            .entry((a.parent, a.listener.name.as_str()))
            .or_insert_with(|| {
                groups.push(Vec::new());
                groups.len() - 1
            });
        groups[n].push(i);
    }
    let parts: Vec<Standings<'a>> = groups
        .par_iter()
        .map(|group| standings(attached, group))
        .collect();
    let mut standing = Standings::default();
    for part in parts {
        for (key, s) in part {
            match standing.entry(key) {
                std::collections::hash_map::Entry::Vacant(v) => {
                    v.insert(s);
                }
                std::collections::hash_map::Entry::Occupied(mut o) => o.get_mut().add(s),
            }
        }
    }
    let mut losers: Vec<Standing<'a>> = standing
        .into_values()
        .filter(|s| s.lost == s.places)
        .collect();
    losers.sort_unstable_by_key(|s| s.seen);
    for s in losers {
        if let Some((_, (a, host, matched, winner))) = &s.first_loss {
            report(ctx, s.rule, a, host, matched, *winner);
        }
    }
}

impl<'a> Standing<'a> {
    /// The same rule's standing on another listener.
    fn add(&mut self, other: Standing<'a>) {
        self.seen = self.seen.min(other.seen);
        self.places += other.places;
        self.lost += other.lost;
        self.first_loss = match (self.first_loss.take(), other.first_loss) {
            (Some(a), Some(b)) => Some(if b.0 < a.0 { b } else { a }),
            (a, b) => a.or(b),
        };
    }
}

/// The standings of the rules of the attachments `group` (positions in `attached`, in order)
/// to one listener.
fn standings<'a>(attached: &'a [Attached<'a>], group: &[usize]) -> Standings<'a> {
    // The hosts each attachment serves, made first so that the places below borrow them: a
    // place's key then costs no allocation.
    let served: Vec<Vec<String>> = group
        .iter()
        .map(|&i| match &attached[i].route.spec {
            Spec::Route(route) => hosts(&route.hostnames, attached[i].listener.hostname.as_deref()),
            _ => Vec::new(),
        })
        .collect();
    let order = contenders(attached, group, &served);
    let mut standing = Standings::default();
    for (seq, key, list) in &order {
        let Some(&(winner, _)) = list.iter().min_by(|x, y| precedence(x.0, y.0)) else {
            continue;
        };
        for (n, &(id, a)) in list.iter().enumerate() {
            let s = standing.entry(id.key()).or_insert_with(|| Standing {
                rule: id,
                seen: (seq.0, seq.1, seq.2, seq.3, n),
                places: 0,
                lost: 0,
                first_loss: None,
            });
            s.places += 1;
            if winner.key() != id.key() {
                s.lost += 1;
                if s.first_loss.is_none() {
                    let loss = (a, key.0.to_string(), key.1, winner);
                    s.first_loss = Some(((seq.0, seq.1, seq.2, seq.3, 0), loss));
                }
            }
        }
    }
    standing
}

/// Every place of one listener with the rules that have its match there, in the order first
/// seen (with when).
fn contenders<'a, 'p>(
    attached: &'a [Attached<'a>],
    group: &[usize],
    served: &'p [Vec<String>],
) -> Vec<(Seq, Place<'a, 'p>, Contenders<'a>)> {
    // Place -> its position in `order`.
    let mut places: FastMap<Place<'a, 'p>, usize> = FastMap::default();
    let mut order: Vec<(Seq, Place<'a, 'p>, Contenders<'a>)> = Vec::new();
    for (&ai, hosts) in group.iter().zip(served) {
        let a = &attached[ai];
        let Spec::Route(route) = &a.route.spec else {
            continue;
        };
        for (hi, host) in hosts.iter().enumerate() {
            for (i, rule) in route.http_rules.iter().enumerate() {
                for (mi, (m, _)) in rule.matches.iter().enumerate() {
                    let key = (host.as_str(), &**m);
                    let id = RuleId {
                        route: a.route,
                        rule: i,
                    };
                    match places.entry(key) {
                        std::collections::hash_map::Entry::Vacant(v) => {
                            v.insert(order.len());
                            let first = Contenders {
                                first: (id, a),
                                more: Vec::new(),
                            };
                            order.push(((ai, hi, i, mi, 0), key, first));
                        }
                        std::collections::hash_map::Entry::Occupied(o) => {
                            let Some((_, _, list)) = order.get_mut(*o.get()) else {
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
