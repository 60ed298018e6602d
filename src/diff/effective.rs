//! Effective policy: per target (Gateway, listener, route, rule, backend, port, provider), the
//! fields whose effective value or source changed. Targets are known by `kind/ns/name[:section]`
//! and sources by the policies' names, so the comparison holds across files and their order.

use std::collections::BTreeMap;
use std::sync::Arc;

use serde_json::Value;

use crate::fasthash::FastMap;
use crate::merge::view::{place_parts, source_view};
use crate::merge::{Effective, Level, Merged, Place, Source};
use crate::model::facts::Facts;
use crate::sorted::side_by_side;

/// An effective field on one side: its value and the policies it came from.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct FieldState {
    pub value: Value,
    /// The winner, then those merged with it (policyMerge DeepMerge), as
    /// `TrafficPolicy shop/a @route`.
    pub sources: Vec<String>,
    /// The winner turned the feature off (`disable`).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub disabled: bool,
}

impl FieldState {
    /// The value as one line of JSON, `(disabled)` when the winner turned the feature off.
    pub fn value_text(&self) -> String {
        let value = serde_json::to_string(&self.value).unwrap_or_default();
        if self.disabled {
            format!("{value} (disabled)")
        } else {
            value
        }
    }

    /// `TrafficPolicy shop/a @route + TrafficPolicy shop/b @route`.
    pub fn sources_text(&self) -> String {
        self.sources.join(" + ")
    }
}

/// Family, the listener a route is reached through, field name.
type FieldKey = (&'static str, Option<String>, String);

/// One side's effective fields, by target, compactly: there are millions of (target, field)
/// pairs in a large set but few distinct field keys and few distinct states (a setting
/// inherited by every listener, route and rule below a Gateway is one state), so each pair is
/// two numbers into those tables.
#[derive(Debug, Default)]
pub struct EffectiveMap {
    keys: Vec<FieldKey>,
    states: Vec<Arc<FieldState>>,
    /// Per target: (key, state) indices.
    targets: BTreeMap<String, Vec<(u32, u32)>>,
}

impl EffectiveMap {
    /// A target's fields, by key.
    fn fields(&self, target: &str) -> BTreeMap<&FieldKey, &FieldState> {
        self.targets
            .get(target)
            .into_iter()
            .flatten()
            .map(|&(k, s)| (&self.keys[k as usize], &*self.states[s as usize]))
            .collect()
    }
}

#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct FieldChange {
    pub family: &'static str,
    /// The listener a route or rule is reached through (`Gateway/shop/public:http`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub via: Option<String>,
    pub field: String,
    /// `None`: the field was not set on that side.
    pub before: Option<FieldState>,
    pub after: Option<FieldState>,
}

#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct PlaceChange {
    /// `kind/ns/name[:section]`, such as `HTTPRoute/shop/checkout:pay`.
    pub target: String,
    pub changes: Vec<FieldChange>,
}

/// `kind/ns/name[:section]` (`kind/name` for cluster-scoped objects).
pub fn place_key(facts: &[Facts], place: Place) -> String {
    let (i, section) = place_parts(facts, place);
    let id = &facts[i].id;
    let mut key = if id.namespace.is_empty() {
        format!("{}/{}", id.kind, id.name)
    } else {
        format!("{}/{}/{}", id.kind, id.namespace, id.name)
    };
    if let Some(s) = section {
        key.push(':');
        key.push_str(&s);
    }
    key
}

/// A side's effective fields, made in `parts` runs of places in parallel. One part allocates
/// everything on one thread: parallel parts take half the time, but leave the map's memory
/// spread over the threads' heaps, about 50 MB more resident on the 100,000-resource benchmark
/// (what matters for a map held while the other side is linted, at the diff's peak).
pub fn of_merged(facts: &[Facts], merged: &Merged<'_>, parts: usize) -> EffectiveMap {
    use rayon::prelude::*;
    let parts = place_runs(&merged.effective, parts);
    let maps: Vec<EffectiveMap> = parts
        .into_par_iter()
        .map(|entries| of_entries(facts, entries))
        .collect();
    let mut maps = maps.into_iter();
    let mut out = maps.next().unwrap_or_default();
    for map in maps {
        out.append(map);
    }
    out
}

/// The entries cut into about `n` parts, never between two entries of one place.
fn place_runs<'e, 'a>(entries: &'e [Effective<'a>], n: usize) -> Vec<&'e [Effective<'a>]> {
    let mut parts = Vec::with_capacity(n);
    let mut rest = entries;
    for left in (1..=n.max(1)).rev() {
        let mut cut = rest.len() / left;
        while cut > 0 && cut < rest.len() && rest[cut].place == rest[cut - 1].place {
            cut += 1;
        }
        let (part, after) = rest.split_at(cut);
        parts.push(part);
        rest = after;
    }
    parts
}

/// The map of one part of the entries, with tables of its own.
fn of_entries(facts: &[Facts], entries: &[Effective<'_>]) -> EffectiveMap {
    let mut out = EffectiveMap::default();
    // Looked up by borrowed parts (the `via` by its place): a field key's text is made once.
    let mut key_ids: FastMap<(&'static str, Option<Place>, &str), u32> = FastMap::default();
    let mut key_values: FastMap<FieldKey, u32> = FastMap::default();
    // The settings of a field (which value of which source at which level) make its state; a
    // field without merged settings (most) is looked up without a list.
    type Setting = (*const Value, Source, Level);
    let mut one_ids: FastMap<Setting, u32> = FastMap::default();
    let mut state_ids: FastMap<Vec<Setting>, u32> = FastMap::default();
    // The entries of one place follow each other: its target key is made once per run of them.
    let mut current: Option<(Place, Vec<(u32, u32)>)> = None;
    for e in entries {
        if current.as_ref().is_none_or(|(place, _)| *place != e.place) {
            if let Some((place, fields)) = current.take() {
                out.add_target(facts, place, fields);
            }
            current = Some((e.place, Vec::new()));
        }
        let Some((_, fields)) = &mut current else {
            continue;
        };
        fields.reserve(e.fields.len());
        for f in &e.fields {
            let family = e.family.label();
            let k = *key_ids.entry((family, e.via, f.name)).or_insert_with(|| {
                let key = (
                    family,
                    e.via.map(|v| place_key(facts, v)),
                    f.name.to_string(),
                );
                *key_values.entry(key).or_insert_with_key(|key| {
                    out.keys.push(key.clone());
                    (out.keys.len() - 1) as u32
                })
            });
            let settings = || std::iter::once(&f.winner).chain(&f.merged);
            let setting =
                |s: &crate::merge::Setting<'_>| (std::ptr::from_ref(s.value), s.source, s.level);
            let states = &mut out.states;
            let new_state = || {
                states.push(Arc::new(FieldState {
                    value: f.value(),
                    sources: settings().map(|s| source_view(facts, s).label()).collect(),
                    disabled: f.disabled(),
                }));
                (states.len() - 1) as u32
            };
            let s = if f.merged.is_empty() {
                *one_ids.entry(setting(&f.winner)).or_insert_with(new_state)
            } else {
                let state = settings().map(setting).collect();
                *state_ids.entry(state).or_insert_with(new_state)
            };
            fields.push((k, s));
        }
    }
    if let Some((place, fields)) = current {
        out.add_target(facts, place, fields);
    }
    out
}

impl EffectiveMap {
    /// Adds another map's targets after this one's (its fields after this one's of a target
    /// both have), with its keys and states appended to the tables.
    fn append(&mut self, other: EffectiveMap) {
        let (keys, states) = (self.keys.len() as u32, self.states.len() as u32);
        self.keys.extend(other.keys);
        self.states.extend(other.states);
        for (target, fields) in other.targets {
            let fields = fields.into_iter().map(|(k, s)| (k + keys, s + states));
            self.targets.entry(target).or_default().extend(fields);
        }
    }

    fn add_target(&mut self, facts: &[Facts], place: Place, fields: Vec<(u32, u32)>) {
        match self.targets.entry(place_key(facts, place)) {
            std::collections::btree_map::Entry::Occupied(mut o) => o.get_mut().extend(fields),
            std::collections::btree_map::Entry::Vacant(v) => {
                v.insert(fields);
            }
        }
    }

    /// A target's fields as written, in order.
    fn listed(&self, target: &str) -> impl Iterator<Item = (&FieldKey, &FieldState)> {
        self.targets
            .get(target)
            .into_iter()
            .flatten()
            .map(|&(k, s)| (&self.keys[k as usize], &*self.states[s as usize]))
    }
}

/// Whether a target has the very same fields, in the same order, on both sides (most targets):
/// then it has no change, without its fields sorted.
fn same_fields(base: &EffectiveMap, head: &EffectiveMap, target: &str) -> bool {
    let (mut before, mut after) = (base.listed(target), head.listed(target));
    loop {
        match (before.next(), after.next()) {
            (None, None) => return true,
            (Some((kb, sb)), Some((ka, sa))) if kb == ka && (std::ptr::eq(sb, sa) || sb == sa) => {}
            _ => return false,
        }
    }
}

pub fn compare(base: &EffectiveMap, head: &EffectiveMap) -> Vec<PlaceChange> {
    use rayon::prelude::*;
    let targets = union_sorted(base.targets.keys(), head.targets.keys());
    targets
        .into_par_iter()
        .filter_map(|target| target_change(base, head, target))
        .collect()
}

/// The keys of two sorted, unique lists, each once, in order (a merge of the two).
fn union_sorted<'a>(
    a: impl Iterator<Item = &'a String>,
    b: impl Iterator<Item = &'a String>,
) -> Vec<&'a String> {
    side_by_side(a, b, |k| k).map(|(k, ..)| k).collect()
}

/// How one target's effective fields differ between the sides, if they do.
fn target_change(base: &EffectiveMap, head: &EffectiveMap, target: &str) -> Option<PlaceChange> {
    if same_fields(base, head, target) {
        return None;
    }
    let (before, after) = (base.fields(target), head.fields(target));
    let mut keys: Vec<&FieldKey> = before.keys().chain(after.keys()).copied().collect();
    keys.sort_unstable();
    keys.dedup();
    let changes: Vec<FieldChange> = keys
        .into_iter()
        .filter_map(|k| {
            let (b, a) = (before.get(k).copied(), after.get(k).copied());
            (b != a).then(|| FieldChange {
                family: k.0,
                via: k.1.clone(),
                field: k.2.clone(),
                before: b.cloned(),
                after: a.cloned(),
            })
        })
        .collect();
    (!changes.is_empty()).then(|| PlaceChange {
        target: target.to_string(),
        changes,
    })
}

/// Targets with the very same changes (a route and its rules, every listener of a Gateway),
/// for printing them once: each group's targets in order, and their changes.
pub fn grouped(places: &[PlaceChange]) -> Vec<(Vec<&str>, &[FieldChange])> {
    let mut out: Vec<(Vec<&str>, &[FieldChange])> = Vec::new();
    let mut index: FastMap<String, usize> = FastMap::default();
    for p in places {
        let key = serde_json::to_string(&p.changes).unwrap_or_default();
        match index.get(&key) {
            Some(&i) => out[i].0.push(&p.target),
            None => {
                index.insert(key, out.len());
                out.push((vec![&p.target], &p.changes));
            }
        }
    }
    out
}

/// At most `shown` targets, then how many more: `A, B and 3 more`.
pub fn targets_text(targets: &[&str], shown: usize, quote: impl Fn(&str) -> String) -> String {
    let mut text: Vec<String> = targets.iter().take(shown).map(|t| quote(t)).collect();
    if targets.len() > shown {
        let last = format!("{} more", targets.len() - shown);
        text.push(last);
    }
    match text.len() {
        0 | 1 => text.concat(),
        n => format!("{} and {}", text[..n - 1].join(", "), text[n - 1]),
    }
}

#[cfg(test)]
mod tests {
    use super::{EffectiveMap, compare, of_merged, place_runs, union_sorted};
    use crate::lint::{LintOptions, LintRun, lint_sources};
    use crate::source::SourceFile;

    const SHOP: &str = include_str!("../../testdata/explain/shop.yaml");

    fn run(text: &str) -> LintRun {
        let options = crate::render::diff_options(LintOptions::default());
        let file = SourceFile::new(0, "shop.yaml".to_string(), text);
        lint_sources(vec![file], &options)
    }

    fn map(run: &LintRun, parts: usize) -> EffectiveMap {
        let model = run.model.as_ref().expect("a diff run keeps its model");
        of_merged(&model.facts, &model.merge(), parts)
    }

    #[test]
    fn parts_never_cut_a_place_and_keep_every_entry() {
        let run = run(SHOP);
        let model = run.model.as_ref().expect("a diff run keeps its model");
        let merged = model.merge();
        let entries = &merged.effective;
        assert!(entries.len() > 4, "{}", entries.len());
        for n in 1..=entries.len() + 1 {
            let parts = place_runs(entries, n);
            assert_eq!(parts.iter().map(|p| p.len()).sum::<usize>(), entries.len());
            for pair in parts.windows(2) {
                if let (Some(last), Some(first)) = (pair[0].last(), pair[1].first()) {
                    assert!(last.place != first.place, "{n} parts cut a place");
                }
            }
        }
    }

    #[test]
    fn a_map_made_in_parts_compares_as_the_one_made_whole() {
        let (base, head) = (
            run(SHOP),
            run(&SHOP.replacen("request: 10s", "request: 11s", 1)),
        );
        let (whole, changed) = (map(&base, 1), map(&head, 1));
        let expected = compare(&whole, &changed);
        assert!(!expected.is_empty());
        for parts in 2..=9 {
            let split = map(&base, parts);
            assert_eq!(compare(&whole, &split), vec![], "{parts} parts");
            assert_eq!(compare(&split, &changed), expected, "{parts} parts");
            assert_eq!(
                compare(&whole, &map(&head, parts)),
                expected,
                "{parts} parts"
            );
        }
    }

    #[test]
    fn the_targets_of_both_sides_are_listed_once_in_order() {
        let list = |names: &[&str]| names.iter().map(|n| n.to_string()).collect::<Vec<_>>();
        let base = list(&["a", "c", "d", "f"]);
        let head = list(&["b", "c", "f", "g", "h"]);
        let union: Vec<&str> = union_sorted(base.iter(), head.iter())
            .into_iter()
            .map(String::as_str)
            .collect();
        assert_eq!(union, ["a", "b", "c", "d", "f", "g", "h"]);
        let none: Vec<String> = Vec::new();
        assert_eq!(union_sorted(none.iter(), head.iter()).len(), head.len());
        assert_eq!(union_sorted(base.iter(), none.iter()).len(), base.len());
    }
}
