//! Per place, the chain of places whose policies apply to it, least specific first (from the
//! [`Hierarchy`]), and the settings each policy of the chain gives.

use crate::fasthash::FastMap;
use crate::model::facts::{Facts, RouteFacts, Spec};
use crate::model::facts_policy::route_only_field;

use super::hierarchy::Hierarchy;
use super::rank::outcomes;
use super::{
    Effective, Family, Inherited, InheritedPriority, Level, MergeOptions, Place, Setting, Source,
};

/// The family of a policy field, and its name within the family.
fn family_of<'a>(kind: &str, field: &'a str, phase: Option<&str>) -> Option<(Family, &'a str)> {
    Some(match kind {
        "TrafficPolicy" => (Family::TrafficPolicy, field),
        "BackendConfigPolicy" => (Family::BackendConfigPolicy, field),
        "HTTPListenerPolicy" => (Family::HTTPListenerPolicy, field),
        "AiGatewayPolicy" => {
            let (section, name) = field.split_once('.')?;
            match section {
                "frontend" => (Family::AiFrontend, name),
                "backend" => (Family::AiBackend, name),
                // The phase selects the set; it is not a setting of its own.
                "traffic" if name == "phase" => return None,
                "traffic" if phase == Some("PreRouting") => (Family::AiPreRouting, name),
                "traffic" => (Family::AiPostRouting, name),
                _ => return None,
            }
        }
        _ => return None,
    })
}

/// Per family, the named settings of every place of a chain. A place sees a handful of
/// families: a list searched in place costs less than a hash map made for each place.
#[derive(Default, Clone)]
struct Gathered<'a>(Vec<(Family, Vec<(&'a str, Setting<'a>)>)>);

impl<'a> Gathered<'a> {
    fn entry(&mut self, family: Family) -> &mut Vec<(&'a str, Setting<'a>)> {
        let i = match self.0.iter().position(|(f, _)| *f == family) {
            Some(i) => i,
            None => {
                self.0.push((family, Vec::new()));
                self.0.len() - 1
            }
        };
        &mut self.0[i].1
    }
}

fn gather_policy<'a>(
    facts: &'a [Facts],
    p: usize,
    (level, inherited): (Level, Inherited),
    port: Option<i64>,
    out: &mut Gathered<'a>,
) {
    let f = &facts[p];
    let Spec::Policy(pf) = &f.spec else { return };
    if f.id.kind == "ListenerPolicy" {
        listener_policy(pf, p, level, port, out);
        return;
    }
    // Only an AiGatewayPolicy's traffic has a phase.
    let phase = (f.id.kind == "AiGatewayPolicy")
        .then(|| pf.fields.iter().find(|x| x.name == "traffic.phase"))
        .flatten()
        .and_then(|x| x.value.as_str());
    for field in &pf.fields {
        if let Some((family, name)) = family_of(&f.id.kind, &field.name, phase) {
            out.entry(family).push((
                name,
                Setting {
                    source: Source::Policy(p),
                    level,
                    value: &field.value,
                    span: field.key_span,
                    inherited,
                },
            ));
        }
    }
}

/// A ListenerPolicy applies per port: a `perPort` entry for the port replaces `default` whole.
fn listener_policy<'a>(
    pf: &'a crate::model::facts_policy::PolicyFacts,
    p: usize,
    level: Level,
    port: Option<i64>,
    out: &mut Gathered<'a>,
) {
    let Some(port) = port else { return };
    let field = |n: &str| pf.fields.iter().find(|x| x.name == n);
    let per_port = field("perPort").and_then(|f| {
        f.value
            .as_array()?
            .iter()
            .find(|e| e.get("port").and_then(serde_json::Value::as_i64) == Some(port))
            .and_then(|e| e.get("listener"))
            .map(|v| (f, v))
    });
    let Some((key, config)) = per_port.or_else(|| field("default").map(|f| (f, &f.value))) else {
        return;
    };
    for (name, value) in config.as_object().into_iter().flatten() {
        out.entry(Family::ListenerPolicy).push((
            name,
            Setting {
                source: Source::Policy(p),
                level,
                value,
                span: key.key_span,
                inherited: Inherited::default(),
            },
        ));
    }
}

fn gather_inline<'a>(facts: &'a [Facts], source: Source, out: &mut Gathered<'a>) {
    let (b, level) = match source {
        Source::BackendSpec(b) => (b, Level::BackendSpec),
        Source::Provider(b, _) => (b, Level::Provider),
        Source::Policy(_) => return,
    };
    let Some(inline) = facts[b].inline_policies.as_deref() else {
        return;
    };
    let fields = match source {
        Source::Provider(_, s) => match inline.sections.get(s) {
            Some((_, fields)) => fields,
            None => return,
        },
        _ => &inline.backend,
    };
    for (name, value) in fields {
        out.entry(Family::AiBackend).push((
            name,
            Setting {
                source,
                level,
                value,
                span: facts[b].id.name_span,
                inherited: Inherited::default(),
            },
        ));
    }
}

/// One step of a chain: the policies attached at a place, at a level.
#[derive(Clone, Copy)]
enum Step {
    Attached(Place, Level),
    Extension(Place),
    Inline(Source),
    /// The steps that follow belong to this depth of a delegation chain.
    Inherit(Inherited),
}

/// The steps of a listener place, least specific first: the Gateway, then the listener; for a
/// listener set's listener, the parent Gateway, then the whole set and the listener, both at the
/// listener level (the set's listeners are the Gateway's listeners).
fn listener_steps(h: &Hierarchy, lp: Place) -> Vec<Step> {
    let Place::Listener(owner, _) = lp else {
        return Vec::new();
    };
    match h.set_parent.get(&owner) {
        Some(&g) => vec![
            Step::Attached(Place::Gateway(g), Level::Gateway),
            Step::Attached(Place::Gateway(owner), Level::Listener),
            Step::Attached(lp, Level::Listener),
        ],
        None => vec![
            Step::Attached(Place::Gateway(owner), Level::Gateway),
            Step::Attached(lp, Level::Listener),
        ],
    }
}

/// Delegation chain steps above a child route reached through `parent` (a rule of the route
/// that delegates to it): that rule, its ExtensionRefs and its route at depth 1, then the rule
/// delegating to that route (its first) at depth 2, and so on; a cycle or a chain deeper than
/// the render follows ends it.
fn delegation_steps(facts: &[Facts], h: &Hierarchy, child: usize, parent: Place) -> Vec<Step> {
    const MAX_DEPTH: u8 = 8;
    let mut steps = Vec::new();
    let mut seen = vec![child];
    let mut at = Some(parent);
    let mut depth = 1;
    while let Some(rule @ Place::Rule(r, _)) = at {
        if depth > MAX_DEPTH || seen.contains(&r) {
            break;
        }
        seen.push(r);
        let priority = match &facts[r].spec {
            Spec::Route(route) => InheritedPriority::parse(route.inherited_priority.as_deref()),
            _ => InheritedPriority::default(),
        };
        steps.push(Step::Inherit(Inherited { depth, priority }));
        steps.push(Step::Attached(Place::Route(r), Level::Route));
        steps.push(Step::Attached(rule, Level::Rule));
        steps.push(Step::Extension(rule));
        at = h.delegators.get(&r).and_then(|p| p.first()).copied();
        depth += 1;
    }
    steps
}

/// What every object's effective policies are computed from: the facts, the hierarchy, the
/// options, and the rules each backend is reached from.
pub(super) struct Chains<'a, 'h> {
    facts: &'a [Facts],
    h: &'h Hierarchy,
    options: &'h MergeOptions,
    reached: &'h Reached,
}

/// The rules each backend is reached from: the AI backend family of a backend, provider or MCP
/// target is computed once more per such rule, with the rule's levels below the backend's own
/// (decisions.md: Gateway < ... < Route rule < Service/AiGatewayBackend targetRef <
/// spec.policies < inline policies).
pub(super) type Reached = FastMap<usize, Vec<Place>>;

/// [`Reached`], from the rules' backends.
pub(super) fn reached(h: &Hierarchy) -> Reached {
    let mut reached: Reached = FastMap::default();
    for (&rule, backends) in &h.backends {
        for &b in backends {
            let rules = reached.entry(b).or_default();
            if !rules.contains(&rule) {
                rules.push(rule);
            }
        }
    }
    for rules in reached.values_mut() {
        rules.sort();
    }
    reached
}

impl<'a, 'h> Chains<'a, 'h> {
    pub(super) fn new(
        facts: &'a [Facts],
        h: &'h Hierarchy,
        options: &'h MergeOptions,
        reached: &'h Reached,
    ) -> Self {
        Chains {
            facts,
            h,
            options,
            reached,
        }
    }

    /// The effective policies of the places of object `i`: each object's depend on no other
    /// object's, so that callers compute them in parallel, in runs of the facts.
    pub(super) fn of_object(&self, i: usize) -> Vec<Effective<'a>> {
        let (facts, h) = (self.facts, self.h);
        let f = &facts[i];
        let reached = self.reached;
        let rule_steps = |rule: Place| rule_steps(h, rule);
        let no_rules: &[Place] = &[];
        let mut out = Vec::new();
        let mut emit = |place: Place,
                        via: Option<Place>,
                        leaf: bool,
                        steps: &[Step],
                        port: Option<i64>,
                        only: Option<Family>| {
            self.emit(&mut out, (place, via, leaf), steps, port, only);
        };
        match &f.spec {
            Spec::Gateway { listeners, .. } => {
                let g = Place::Gateway(i);
                emit(
                    g,
                    None,
                    listeners.is_empty(),
                    &[Step::Attached(g, Level::Gateway)],
                    None,
                    None,
                );
                for (li, l) in listeners.iter().enumerate() {
                    let lp = Place::Listener(i, li);
                    let leaf = !h.children.contains_key(&lp);
                    emit(lp, None, leaf, &listener_steps(h, lp), l.port, None);
                }
            }
            Spec::ListenerSet { listeners, .. } => {
                let set = Place::Gateway(i);
                let mut steps = Vec::with_capacity(2);
                if let Some(&g) = h.set_parent.get(&i) {
                    steps.push(Step::Attached(Place::Gateway(g), Level::Gateway));
                }
                steps.push(Step::Attached(set, Level::Listener));
                emit(set, None, listeners.is_empty(), &steps, None, None);
                for (li, l) in listeners.iter().enumerate() {
                    let lp = Place::Listener(i, li);
                    let leaf = !h.children.contains_key(&lp);
                    emit(lp, None, leaf, &listener_steps(h, lp), l.port, None);
                }
            }
            Spec::Route(route) => self.route_places(i, route, &mut out),
            Spec::Service { ports } => {
                let b = Place::Backend(i);
                emit(
                    b,
                    None,
                    ports.is_empty(),
                    &[Step::Attached(b, Level::Backend)],
                    None,
                    None,
                );
                for &rule in reached.get(&i).map(Vec::as_slice).unwrap_or(no_rules) {
                    let mut chain = rule_steps(rule);
                    chain.push(Step::Attached(b, Level::Backend));
                    emit(b, Some(rule), true, &chain, None, Some(Family::AiBackend));
                }
                for pi in 0..ports.len() {
                    let port = Place::Port(i, pi);
                    // One level with the Service's (decisions.md: "Service/AiGatewayBackend
                    // targetRef"), as for providers.
                    let steps = [
                        Step::Attached(b, Level::Backend),
                        Step::Attached(port, Level::Backend),
                    ];
                    emit(port, None, true, &steps, None, None);
                }
            }
            Spec::Backend { sections, .. } => self.backend_places(i, sections, &mut out),
            _ => {}
        }
        out
    }

    /// The effective policies of one place (every family, or `only` one), from the policies of
    /// the steps of its chain, least specific first; `port` selects a ListenerPolicy's entry.
    fn emit(
        &self,
        out: &mut Vec<Effective<'a>>,
        at: (Place, Option<Place>, bool),
        steps: &[Step],
        port: Option<i64>,
        only: Option<Family>,
    ) {
        let mut gathered = Gathered::default();
        self.gather(&mut gathered, steps, port);
        self.effective(out, at, gathered, only);
    }

    /// A route's or rule's settings without the fields that configure only routes set above
    /// them (`route_only_field`): a Gateway's or listener's are merged there (and recorded
    /// there), but configure no route.
    fn without_route_only(&self, gathered: &mut Gathered<'a>) {
        for (_, settings) in &mut gathered.0 {
            settings.retain(|(name, s)| {
                s.level >= Level::Route
                    || !route_only_field(&self.facts[s.source.object()].id.kind, name)
            });
        }
        gathered.0.retain(|(_, settings)| !settings.is_empty());
    }

    /// Adds the settings of the policies of `steps` to `gathered`, in order.
    fn gather(&self, gathered: &mut Gathered<'a>, steps: &[Step], port: Option<i64>) {
        let (facts, h, options) = (self.facts, self.h, self.options);
        let mut inherited = Inherited::default();
        for step in steps {
            match *step {
                Step::Attached(at, level) => {
                    let policies = h.attached.get(&at).map(Vec::as_slice).unwrap_or(&[]);
                    for &p in policies.iter().filter(|p| !options.rejected.contains(p)) {
                        gather_policy(facts, p, (level, inherited), port, gathered);
                    }
                }
                Step::Extension(at) => {
                    let policies = h.extension.get(&at).map(Vec::as_slice).unwrap_or(&[]);
                    for &p in policies.iter().filter(|p| !options.rejected.contains(p)) {
                        let level = (Level::ExtensionRef, inherited);
                        gather_policy(facts, p, level, port, gathered);
                    }
                }
                Step::Inline(source) => gather_inline(facts, source, gathered),
                Step::Inherit(i) => inherited = i,
            }
        }
    }

    /// The effective policies of one place (every family, or `only` one) from the settings of
    /// its chain.
    fn effective(
        &self,
        out: &mut Vec<Effective<'a>>,
        (place, via, leaf): (Place, Option<Place>, bool),
        gathered: Gathered<'a>,
        only: Option<Family>,
    ) {
        let (facts, h, options) = (self.facts, self.h, self.options);
        let mut gathered = gathered;
        if matches!(place, Place::Route(_) | Place::Rule(..)) {
            self.without_route_only(&mut gathered);
        }
        let mut families: Vec<_> = gathered
            .0
            .into_iter()
            .filter(|(f, _)| only.is_none_or(|o| o == *f))
            .collect();
        families.sort_by_key(|(f, _)| *f);
        // A rule's AI backend settings go on to its backends: the rule is not the end.
        let rule_with_backends =
            matches!(place, Place::Rule(..)) && h.backends.contains_key(&place);
        for (family, settings) in families {
            out.push(Effective {
                place,
                via,
                family,
                fields: outcomes(facts, family, settings, options),
                leaf: leaf && !(rule_with_backends && family == Family::AiBackend),
            });
        }
    }

    /// A route's places: the route and its rules through each listener it hangs from, and a
    /// delegated child's rules through each rule delegating to it.
    fn route_places(&self, i: usize, route: &RouteFacts, out: &mut Vec<Effective<'a>>) {
        let (facts, h) = (self.facts, self.h);
        let rp = Place::Route(i);
        let parents = h.parents.get(&i).map(Vec::as_slice).unwrap_or(&[]);
        let vias: Vec<Option<Place>> = if parents.is_empty() {
            vec![None]
        } else {
            parents.iter().copied().map(Some).collect()
        };
        for via in vias {
            let mut steps = via.map_or_else(Vec::new, |lp| listener_steps(h, lp));
            steps.push(Step::Attached(rp, Level::Route));
            // The route's chain begins each of its rules' chains: gathered once for them all.
            let mut above = Gathered::default();
            self.gather(&mut above, &steps, None);
            // A route reached only by delegation has its rules' policies through the
            // rules delegating to it (below), not on their own.
            let own_rules = !(parents.is_empty() && h.delegators.contains_key(&i));
            let rules = if own_rules { route.rules.len() } else { 0 };
            let at = (rp, via, route.rules.is_empty());
            if rules == 0 {
                self.effective(out, at, above, None);
                continue;
            }
            self.effective(out, at, above.clone(), None);
            for ri in 0..rules {
                let rule = Place::Rule(i, ri);
                let mut gathered = if ri + 1 < rules {
                    above.clone()
                } else {
                    std::mem::take(&mut above)
                };
                let steps = [Step::Attached(rule, Level::Rule), Step::Extension(rule)];
                self.gather(&mut gathered, &steps, None);
                self.effective(out, (rule, via, true), gathered, None);
            }
        }
        // A delegated child's rules, once per rule that delegates to the route: its own
        // levels, then each delegating rule and its route above, nearest first.
        for &parent in h.delegators.get(&i).map(Vec::as_slice).unwrap_or(&[]) {
            let above = delegation_steps(facts, h, i, parent);
            for ri in 0..route.rules.len() {
                let rule = Place::Rule(i, ri);
                let mut steps = vec![
                    Step::Attached(rp, Level::Route),
                    Step::Attached(rule, Level::Rule),
                    Step::Extension(rule),
                ];
                steps.extend(above.iter().copied());
                self.emit(out, (rule, Some(parent), true), &steps, None, None);
            }
        }
    }

    /// An AiGatewayBackend's places: the backend, its providers or MCP targets, each also
    /// through every rule that reaches it.
    fn backend_places(&self, i: usize, sections: &[String], out: &mut Vec<Effective<'a>>) {
        let inline = self.facts[i].inline_policies.as_deref();
        let b = Place::Backend(i);
        let own = Step::Inline(Source::BackendSpec(i));
        let at = (b, None, sections.is_empty());
        self.emit(
            out,
            at,
            &[Step::Attached(b, Level::Backend), own],
            None,
            None,
        );
        // Each reaching rule's chain begins the backend's and every section's chain through it:
        // gathered once per rule, its AI backend settings alone (the only family kept there).
        let reaching = self.reaching(i);
        for (si, name) in sections.iter().enumerate() {
            let p = Place::Provider(i, si);
            let mut steps = vec![
                Step::Attached(b, Level::Backend),
                Step::Attached(p, Level::Backend),
                Step::Inline(Source::BackendSpec(i)),
            ];
            if let Some(k) = inline.and_then(|x| x.sections.iter().position(|(n, _)| n == name)) {
                steps.push(Step::Inline(Source::Provider(i, k)));
            }
            self.emit(out, (p, None, true), &steps, None, None);
            for (rule, above) in &reaching {
                let mut gathered = above.clone();
                self.gather(&mut gathered, &steps, None);
                let at = (p, Some(*rule), true);
                self.effective(out, at, gathered, Some(Family::AiBackend));
            }
        }
        if sections.is_empty() {
            for (rule, mut gathered) in reaching {
                self.gather(
                    &mut gathered,
                    &[Step::Attached(b, Level::Backend), own],
                    None,
                );
                let at = (b, Some(rule), true);
                self.effective(out, at, gathered, Some(Family::AiBackend));
            }
        }
    }

    /// The rules that reach backend `b`, each with the AI backend settings of its chain.
    fn reaching(&self, b: usize) -> Vec<(Place, Gathered<'a>)> {
        let rules = self.reached.get(&b).map(Vec::as_slice).unwrap_or(&[]);
        rules
            .iter()
            .map(|&rule| {
                let mut gathered = Gathered::default();
                self.gather(&mut gathered, &rule_steps(self.h, rule), None);
                gathered.0.retain(|(f, _)| *f == Family::AiBackend);
                (rule, gathered)
            })
            .collect()
    }
}

/// The steps of a rule's chain down to the rule: its route's first listener's, the route's, the
/// rule's.
fn rule_steps(h: &Hierarchy, rule: Place) -> Vec<Step> {
    let mut steps = Vec::with_capacity(8);
    let Place::Rule(r, _) = rule else {
        return steps;
    };
    // The first listener the route hangs from (a route on several is rare for AI routes).
    if let Some(&lp) = h.parents.get(&r).and_then(|p| p.first()) {
        steps.extend(listener_steps(h, lp));
    }
    steps.push(Step::Attached(Place::Route(r), Level::Route));
    steps.push(Step::Attached(rule, Level::Rule));
    steps
}

#[cfg(test)]
#[path = "tests_chains.rs"]
mod tests;
