//! The index over all facts: every lookup of the resolve stage is a hash lookup, so resolution
//! stays linear in the number of references.

use crate::fasthash::{FastMap, FastSet};

use crate::model::facts::{Facts, Selector, Spec};

use super::grants::{Grant, Grants};

/// (group, kind, namespace, name)
type Key<'a> = (&'a str, &'a str, &'a str, &'a str);
/// (group, kind, namespace)
type KindKey<'a> = (&'a str, &'a str, &'a str);
type Members<'a> = FastMap<KindKey<'a>, Vec<usize>>;
/// (kind key, label key, label value) -> objects.
type Labelled<'a> = FastMap<(KindKey<'a>, &'a str, &'a str), Vec<usize>>;
/// (group, kind, name) -> objects in every namespace.
type Named<'a> = FastMap<(&'a str, &'a str, &'a str), Vec<usize>>;
type NamespaceLabels<'a> = FastMap<&'a str, &'a [(String, String)]>;

pub struct Index<'a> {
    pub facts: &'a [Facts],
    by_key: FastMap<Key<'a>, usize>,
    /// Namespaced objects whose namespace is not known (written nowhere), by (group, kind,
    /// name): applied elsewhere, each may be the object a reference to another namespace names.
    unplaced: FastMap<(&'a str, &'a str, &'a str), usize>,
    /// Objects by (group, kind, namespace): "did you mean" and selectors without labels.
    members: Members<'a>,
    /// Objects by (group, kind, namespace, label key, label value), for label selectors.
    labelled: Labelled<'a>,
    /// Objects by (group, kind, name) over every namespace, for the global policy namespace;
    /// built only when one is configured.
    by_name: Named<'a>,
    kinds: FastSet<(&'a str, &'a str)>,
    namespace_labels: NamespaceLabels<'a>,
    /// (group, kind, namespace, name) of every route filter's extensionRef.
    extension_targets: FastSet<Key<'a>>,
    grants: Grants,
}

impl<'a> Index<'a> {
    /// `by_name`: also index objects by name over all namespaces (global policy namespace).
    pub fn new(facts: &'a [Facts], by_name: bool) -> Self {
        // Three groups of maps, each filled in facts order by its own pass, side by side.
        let ((by_key, kinds, unplaced), ((members, labelled), (by_name, others))) = rayon::join(
            || Self::keys(facts),
            || rayon::join(|| Self::members(facts), || Self::others(facts, by_name)),
        );
        let (namespace_labels, grants, extension_targets) = others;
        Index {
            facts,
            by_key,
            unplaced,
            members,
            labelled,
            by_name,
            kinds,
            namespace_labels,
            extension_targets,
            grants,
        }
    }

    #[allow(clippy::type_complexity)]
    fn keys(
        facts: &'a [Facts],
    ) -> (
        FastMap<Key<'a>, usize>,
        FastSet<(&'a str, &'a str)>,
        FastMap<(&'a str, &'a str, &'a str), usize>,
    ) {
        let mut by_key = FastMap::with_capacity_and_hasher(facts.len(), Default::default());
        let mut kinds = FastSet::default();
        let mut unplaced = FastMap::default();
        for (i, f) in facts.iter().enumerate() {
            let id = &f.id;
            if !id.namespace_known {
                unplaced
                    .entry((id.group.as_str(), id.kind.as_str(), id.name.as_str()))
                    .or_insert(i);
            }
            // The lint run keeps the last of duplicates only (GW013); callers that do not filter
            // them get the first.
            by_key
                .entry((
                    id.group.as_str(),
                    id.kind.as_str(),
                    id.namespace.as_str(),
                    id.name.as_str(),
                ))
                .or_insert(i);
            kinds.insert((id.group.as_str(), id.kind.as_str()));
        }
        (by_key, kinds, unplaced)
    }

    /// An object of that kind and name whose namespace is not known, in another namespace than
    /// `namespace`: applied to `namespace`, it would be the object a reference there names.
    pub fn unplaced(
        &self,
        group: &str,
        kind: &str,
        namespace: &str,
        name: &str,
    ) -> Option<&'a Facts> {
        let f = &self.facts[*self.unplaced.get(&(group, kind, name))?];
        (f.id.namespace != namespace).then_some(f)
    }

    fn members(facts: &'a [Facts]) -> (Members<'a>, Labelled<'a>) {
        let mut members = Members::default();
        let mut labelled = Labelled::default();
        for (i, f) in facts.iter().enumerate() {
            let id = &f.id;
            let kind_key = (id.group.as_str(), id.kind.as_str(), id.namespace.as_str());
            members.entry(kind_key).or_default().push(i);
            for (k, v) in &f.labels {
                labelled
                    .entry((kind_key, k.as_str(), v.as_str()))
                    .or_default()
                    .push(i);
            }
        }
        (members, labelled)
    }

    fn others(
        facts: &'a [Facts],
        by_name: bool,
    ) -> (Named<'a>, (NamespaceLabels<'a>, Grants, FastSet<Key<'a>>)) {
        let mut named = Named::default();
        let mut namespace_labels = NamespaceLabels::default();
        let mut grants = Grants::default();
        let mut extension_targets = FastSet::default();
        for (i, f) in facts.iter().enumerate() {
            let id = &f.id;
            if by_name {
                named
                    .entry((id.group.as_str(), id.kind.as_str(), id.name.as_str()))
                    .or_default()
                    .push(i);
            }
            match &f.spec {
                Spec::Namespace => {
                    namespace_labels.insert(id.name.as_str(), f.labels.as_slice());
                }
                Spec::ReferenceGrant { from, to } => grants.add(
                    &id.namespace,
                    Grant {
                        from: from.clone(),
                        to: to.clone(),
                    },
                ),
                Spec::Route(route) => {
                    for r in &route.extension_refs {
                        let group = r.group().unwrap_or("");
                        let kind = r.kind().unwrap_or("");
                        extension_targets.insert((group, kind, id.namespace.as_str(), &*r.name));
                    }
                }
                _ => {}
            }
        }
        (named, (namespace_labels, grants, extension_targets))
    }

    /// The position in the facts of the object (group, kind, namespace, name).
    pub fn position(&self, group: &str, kind: &str, namespace: &str, name: &str) -> Option<usize> {
        self.by_key.get(&(group, kind, namespace, name)).copied()
    }

    /// Whether a route's ExtensionRef filter names the object (routes name objects in their
    /// own namespace).
    pub fn extension_referenced(
        &self,
        group: &str,
        kind: &str,
        namespace: &str,
        name: &str,
    ) -> bool {
        self.extension_targets
            .contains(&(group, kind, namespace, name))
    }

    pub fn get(&self, group: &str, kind: &str, namespace: &str, name: &str) -> Option<&'a Facts> {
        self.by_key
            .get(&(group, kind, namespace, name))
            .map(|&i| &self.facts[i])
    }

    /// Whether any object of the kind is in the inputs.
    pub fn has_kind(&self, group: &str, kind: &str) -> bool {
        self.kinds.contains(&(group, kind))
    }

    /// The labels of a Namespace in the inputs; `None` when it is not there.
    pub fn namespace_labels(&self, name: &str) -> Option<&'a [(String, String)]> {
        self.namespace_labels.get(name).copied()
    }

    /// The one name of that kind in that namespace one edit away from `name` (a fix's target).
    pub fn one_edit_away(
        &self,
        (group, kind, namespace): (&str, &str, &str),
        name: &str,
    ) -> Option<&'a str> {
        let facts = self.facts;
        let candidates = self.members.get(&(group, kind, namespace))?;
        super::fixes::one_edit_away(name, candidates.iter().map(|&i| facts[i].id.name.as_str()))
    }

    /// The closest name of that kind in that namespace, if one is close enough to be a typo.
    pub fn did_you_mean(
        &self,
        group: &str,
        kind: &str,
        namespace: &str,
        name: &str,
    ) -> Option<&'a str> {
        let candidates = self.members.get(&(group, kind, namespace))?;
        candidates
            .iter()
            .map(|&i| self.facts[i].id.name.as_str())
            .map(|c| (strsim::jaro_winkler(c, name), c))
            .filter(|(score, _)| *score >= 0.8)
            .max_by(|a, b| a.0.total_cmp(&b.0))
            .map(|(_, c)| c)
    }

    /// Objects of (group, kind) named `name` in any namespace (needs `by_name` at construction).
    pub fn named_anywhere<'s>(
        &'s self,
        group: &'s str,
        kind: &'s str,
        name: &'s str,
    ) -> &'s [usize] {
        self.by_name
            .get(&(group, kind, name))
            .map_or(&[], Vec::as_slice)
    }

    /// Objects of (group, kind) in `namespace` (every namespace when `None`) whose labels match
    /// the selector, in input order. A lookup of the rarest matchLabels pair, then a filter, so
    /// that a selector costs what it selects, not the size of the namespace.
    pub fn select(
        &self,
        group: &str,
        kind: &str,
        namespace: Option<&str>,
        selector: &Selector,
    ) -> Vec<usize> {
        let candidates: Vec<usize> = match namespace {
            Some(ns) => self.candidates(group, kind, ns, selector).to_vec(),
            None => {
                let mut all: Vec<usize> = self
                    .members
                    .iter()
                    .filter(|((g, k, _), _)| *g == group && *k == kind)
                    .flat_map(|((_, _, ns), _)| self.candidates(group, kind, ns, selector))
                    .copied()
                    .collect();
                all.sort_unstable();
                all
            }
        };
        candidates
            .into_iter()
            .filter(|&i| selector.matches(&self.facts[i].labels))
            .collect()
    }

    fn candidates<'s>(
        &'s self,
        group: &'s str,
        kind: &'s str,
        ns: &'s str,
        selector: &'s Selector,
    ) -> &'s [usize] {
        let key = (group, kind, ns);
        let mut best = self.members.get(&key).map_or(&[][..], Vec::as_slice);
        for (k, v) in &selector.labels {
            let list = self
                .labelled
                .get(&(key, k.as_str(), v.as_str()))
                .map_or(&[][..], Vec::as_slice);
            if list.len() < best.len() {
                best = list;
            }
        }
        best
    }

    /// The ReferenceGrants of the inputs.
    pub fn grants(&self) -> &Grants {
        &self.grants
    }
}
