//! GW013: the same object (group, kind, namespace, name) defined twice in the inputs. Applied
//! together, the last definition replaces the others (as `kubectl apply -f` of a directory
//! leaves it), so the later stages keep only the last in input order; each earlier definition
//! gets one finding pointing at the one that is used.

use crate::diag::Diagnostic;
use crate::fasthash::FastMap;
use crate::model::facts::Facts;
use crate::rules;

use super::{qualified, resource_ref};

/// Which facts the later stages use (`false` for a definition a later one replaces), and the
/// findings on the replaced ones. Linear in the number of facts.
pub fn duplicates(facts: &[Facts]) -> (Vec<bool>, Vec<Diagnostic>) {
    // Sized once: grown by doubling it would be hashed again at every step.
    let mut last: FastMap<(&str, &str, &str, &str), usize> =
        FastMap::with_capacity_and_hasher(facts.len(), Default::default());
    for (i, f) in facts.iter().enumerate() {
        let id = &f.id;
        last.insert((&id.group, &id.kind, &id.namespace, &id.name), i);
    }
    let mut keep = vec![true; facts.len()];
    let mut out = Vec::new();
    if last.len() == facts.len() {
        return (keep, out);
    }
    for (i, f) in facts.iter().enumerate() {
        let id = &f.id;
        let Some(&used) = last.get(&(
            id.group.as_str(),
            id.kind.as_str(),
            id.namespace.as_str(),
            id.name.as_str(),
        )) else {
            continue;
        };
        if used == i {
            continue;
        }
        keep[i] = false;
        let other = &facts[used].id;
        out.push(
            Diagnostic::new(
                rules::GW013,
                format!(
                    "{} {} is defined more than once; only the last definition in input order is used (as kubectl apply would leave it), this one is ignored",
                    id.kind,
                    qualified(&id.namespace, &id.name)
                ),
            )
            .at(id.file, id.name_span)
            .with_resource(Some(resource_ref(id)))
            .with_path("metadata.name")
            .with_related(other.file, other.name_span, "the definition that is used")
            .with_help("remove one of the definitions, or rename one if both are meant")
            .with_outcome(crate::diag::Outcome::Replaced),
        );
    }
    (keep, out)
}
