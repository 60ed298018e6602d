//! The index over all facts: every lookup of the resolve stage is a hash lookup, so resolution
//! stays linear in the number of references.

use std::collections::{HashMap, HashSet};

use crate::model::facts::{Facts, Spec};

/// (group, kind, namespace, name)
type Key<'a> = (&'a str, &'a str, &'a str, &'a str);

pub struct Index<'a> {
    pub facts: &'a [Facts],
    by_key: HashMap<Key<'a>, usize>,
    /// Names by (group, kind, namespace), for "did you mean".
    names: HashMap<(&'a str, &'a str, &'a str), Vec<&'a str>>,
    kinds: HashSet<(&'a str, &'a str)>,
    namespace_labels: HashMap<&'a str, &'a [(String, String)]>,
    /// ReferenceGrants by their namespace (the namespace of the objects they grant access to).
    grants: HashMap<&'a str, Vec<usize>>,
}

impl<'a> Index<'a> {
    pub fn new(facts: &'a [Facts]) -> Self {
        let mut index = Index {
            facts,
            by_key: HashMap::with_capacity(facts.len()),
            names: HashMap::new(),
            kinds: HashSet::new(),
            namespace_labels: HashMap::new(),
            grants: HashMap::new(),
        };
        for (i, f) in facts.iter().enumerate() {
            let id = &f.id;
            // The first of duplicates wins; duplicates are not this stage's finding.
            index
                .by_key
                .entry((&id.group, &id.kind, &id.namespace, &id.name))
                .or_insert(i);
            index
                .names
                .entry((&id.group, &id.kind, &id.namespace))
                .or_default()
                .push(&id.name);
            index.kinds.insert((&id.group, &id.kind));
            match &f.spec {
                Spec::Namespace => {
                    index.namespace_labels.insert(&id.name, &f.labels);
                }
                Spec::ReferenceGrant { .. } => {
                    index.grants.entry(&id.namespace).or_default().push(i);
                }
                _ => {}
            }
        }
        index
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

    /// The closest name of that kind in that namespace, if one is close enough to be a typo.
    pub fn did_you_mean(
        &self,
        group: &str,
        kind: &str,
        namespace: &str,
        name: &str,
    ) -> Option<&'a str> {
        let candidates = self.names.get(&(group, kind, namespace))?;
        candidates
            .iter()
            .map(|c| (strsim::jaro_winkler(c, name), *c))
            .filter(|(score, _)| *score >= 0.8)
            .max_by(|a, b| a.0.total_cmp(&b.0))
            .map(|(_, c)| c)
    }

    /// Whether a ReferenceGrant in `to_ns` lets objects of (group, kind) in `from_ns` refer to
    /// the object (to_group, to_kind, name).
    pub fn granted(&self, from: (&str, &str, &str), to: (&str, &str, &str), to_ns: &str) -> bool {
        let Some(grants) = self.grants.get(to_ns) else {
            return false;
        };
        grants.iter().any(|&i| {
            let Spec::ReferenceGrant { from: f, to: t } = &self.facts[i].spec else {
                return false;
            };
            f.iter()
                .any(|(g, k, ns)| g == from.0 && k == from.1 && ns == from.2)
                && t.iter().any(|(g, k, n)| {
                    g == to.0 && k == to.1 && n.as_deref().is_none_or(|n| n == to.2)
                })
        })
    }
}
