//! A kind that the API group of its apiVersion does not have (GW006). The group is one gwctl
//! knows, so the kind is either a typo of one of the group's kinds (an error, with "did you
//! mean") or a kind of a newer release of the group, which gwctl cannot check without its CRD
//! (a warning that it was not checked).

use crate::diag::{Diagnostic, Severity};
use crate::model::Resource;
use crate::rules;
use crate::schema::Registry;

/// The finding for `res`, whose kind its group does not have; `true` with it when the object
/// is counted as not checked (not a typo).
pub fn unknown_kind(res: &Resource<'_>, registry: &Registry) -> (Diagnostic, bool) {
    let span = res
        .root
        .get("kind")
        .map(|n| n.span)
        .unwrap_or(res.root.span);
    let kinds = registry.kinds();
    let close = kinds
        .iter()
        .filter(|(group, _, _)| group == res.group)
        .map(|(_, kind, _)| (typo_distance(kind, res.kind), kind.as_str()))
        .filter(|(d, kind)| is_typo(*d, kind))
        .min_by_key(|(d, _)| *d)
        .map(|(_, kind)| kind);
    let d = match close {
        Some(kind) => Diagnostic::new(
            rules::GW006,
            format!("no kind {:?} in API group {:?}", res.kind, res.group),
        )
        .with_help(format!("did you mean {kind:?}?")),
        None => Diagnostic::new(
            rules::GW006,
            format!(
                "kind {:?} of API group {:?} is not checked: gwctl does not know this kind",
                res.kind, res.group
            ),
        )
        .with_severity(Severity::Warning)
        .with_help("pass its CustomResourceDefinition with --crds to check it"),
    };
    let d = d
        .at(res.file, span)
        .with_resource(Some(res.reference()))
        .with_path("kind");
    (d, close.is_none())
}

/// Edit distance between two kind names, ignoring case (`HttpRoute` is `HTTPRoute` mistyped).
fn typo_distance(known: &str, written: &str) -> usize {
    strsim::levenshtein(&known.to_lowercase(), &written.to_lowercase())
}

/// Close enough to be a typo: two edits at most, and at most one per four characters.
fn is_typo(distance: usize, kind: &str) -> bool {
    distance <= 2 && distance * 4 <= kind.chars().count()
}

#[cfg(test)]
mod tests {
    use super::{is_typo, typo_distance};

    #[test]
    fn typos_are_close_and_other_kinds_are_not() {
        let close = |known: &str, written: &str| is_typo(typo_distance(known, written), known);
        assert!(close("HTTPRoute", "HttpRoute"));
        assert!(close("TrafficPolicy", "TrafficPolcy"));
        assert!(close("HTTPRoute", "HTTPRoutes"));
        assert!(!close("GatewayParameters", "AgentgatewayParameters"));
        assert!(!close("AiGatewayPolicy", "AgentgatewayPolicy"));
        assert!(!close("Backend", "Bakcnd"));
    }
}
