//! A kind that the API group of its apiVersion does not have (GW006). The group is one gwctl
//! knows, so the kind is either a typo of one of the group's kinds (an error, with "did you
//! mean") or a kind of another release of the group, which gwctl cannot check without its CRD
//! (a warning that it was not checked).

use crate::diag::{Diagnostic, Edit, Fix, Severity};
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
    let renamed = registry.renamed_kind(res.group, res.kind);
    let close = kinds
        .iter()
        .filter(|(group, _, _)| group == res.group)
        .map(|(_, kind, _)| (typo_distance(kind, res.kind), kind.as_str()))
        .filter(|(d, kind)| is_typo(*d, kind) && !other_acronym(kind, res.kind))
        .min_by_key(|(d, _)| *d)
        .map(|(_, kind)| kind);
    let d = match (renamed, close) {
        // The reference's name of a kind this API renamed: the API server has no such kind.
        (Some(kind), _) => {
            let edit = Edit::rename_scalar(res.file, &res.source.text, span, kind);
            Diagnostic::new(
                rules::GW006,
                format!("no kind {:?} in API group {:?}", res.kind, res.group),
            )
            .with_help(format!(
                "renamed in this API: {kind:?} (was {:?})",
                res.kind
            ))
            .with_fix(Fix::safe(
                format!("rename the kind to {kind:?}"),
                vec![edit],
            ))
        }
        (None, Some(kind)) => Diagnostic::new(
            rules::GW006,
            format!("no kind {:?} in API group {:?}", res.kind, res.group),
        )
        .with_help(format!("did you mean {kind:?}?")),
        (None, None) => Diagnostic::new(
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
    (d, close.is_none() && renamed.is_none())
}

/// The finding for `res`, whose API group gwctl does not know, when that group is a typo of a
/// known group that has the kind (`gateway.kgateway.io` for `gateway.kgateway.dev`): the API
/// server has no such group, so the object cannot be applied. `None` otherwise (another
/// project's group: not checked).
pub fn mistyped_group(res: &Resource<'_>, registry: &Registry) -> Option<Diagnostic> {
    if let Some(d) = retired_group(res, registry) {
        return Some(d);
    }
    let close = registry
        .groups_with_kind(res.kind)
        .filter(|group| !group.is_empty())
        .map(|group| (strsim::levenshtein(group, res.group), group))
        .filter(|(d, group)| *d > 0 && *d <= 3 && d * 5 <= group.len())
        .min_by_key(|&(d, group)| (d, group))?;
    let d = Diagnostic::new(
        rules::GW006,
        format!(
            "no kind {:?} in API group {:?}, which gwctl does not know",
            res.kind, res.group
        ),
    )
    .with_help(format!("did you mean API group {:?}?", close.1));
    Some(at_api_version(res, d))
}

/// A finding on the object's apiVersion.
fn at_api_version(res: &Resource<'_>, d: Diagnostic) -> Diagnostic {
    let span = res
        .root
        .get("apiVersion")
        .map(|n| n.span)
        .unwrap_or(res.root.span);
    d.at(res.file, span)
        .with_resource(Some(res.reference()))
        .with_path("apiVersion")
}

/// API groups a project served before it moved its kinds to another group, with that group.
const RETIRED_GROUPS: &[(&str, &str, &str)] = &[(
    "networking.x-k8s.io",
    crate::model::facts::GATEWAY_API,
    "the Gateway API's group before v0.4.0",
)];

/// The finding for `res` when its group is one its project retired (the Gateway API's
/// `networking.x-k8s.io`) and the group that replaced it has the kind: no current release
/// serves it, and the kind's fields changed since.
fn retired_group(res: &Resource<'_>, registry: &Registry) -> Option<Diagnostic> {
    let &(_, now, what) = RETIRED_GROUPS.iter().find(|(g, ..)| *g == res.group)?;
    registry.groups_with_kind(res.kind).find(|g| *g == now)?;
    let d = Diagnostic::new(
        rules::GW006,
        format!(
            "API group {:?} is {what}: no current release serves kind {:?} in it",
            res.group, res.kind
        ),
    )
    .with_help(format!(
        "move it to API group {now:?}; its fields changed since, so check it against that group's kind"
    ));
    Some(at_api_version(res, d))
}

/// Edit distance between two kind names, ignoring case (`HttpRoute` is `HTTPRoute` mistyped).
fn typo_distance(known: &str, written: &str) -> usize {
    strsim::levenshtein(&known.to_lowercase(), &written.to_lowercase())
}

/// Close enough to be a typo: two edits at most, and at most one per four characters.
fn is_typo(distance: usize, kind: &str) -> bool {
    distance <= 2 && distance * 4 <= kind.chars().count()
}

/// Whether `written` is `known` with one of its acronyms put for another (`BackendLBPolicy`,
/// `BackendTLSPolicy`): another kind, as a group's releases name them, not a misspelling of
/// this one. An acronym with its letters in another order (`GRCPRoute`) is a misspelling.
fn other_acronym(known: &str, written: &str) -> bool {
    let (known, written) = (words(known), words(written));
    if known.len() != written.len() {
        return false;
    }
    let mut differing = known.iter().zip(&written).filter(|(k, w)| k != w);
    let acronym = |w: &str| w.len() >= 2 && w.chars().all(|c| c.is_ascii_uppercase());
    let letters = |w: &str| {
        let mut l: Vec<char> = w.chars().collect();
        l.sort_unstable();
        l
    };
    match (differing.next(), differing.next()) {
        (Some((k, w)), None) => acronym(k) && acronym(w) && letters(k) != letters(w),
        _ => false,
    }
}

/// A kind's words: each capital with the small letters after it, a run of capitals (an
/// acronym, but for the capital starting the next word) as one.
fn words(kind: &str) -> Vec<&str> {
    let chars: Vec<(usize, char)> = kind.char_indices().collect();
    let mut out = Vec::new();
    let mut start = 0;
    for (i, &(at, c)) in chars.iter().enumerate().skip(1) {
        let prev = chars[i - 1].1;
        let next_small = chars
            .get(i + 1)
            .is_some_and(|(_, n)| n.is_ascii_lowercase());
        // A capital after a small letter starts a word; so does the last capital of a run
        // when a small letter follows it (`TLSPolicy`: `TLS`, `Policy`).
        let starts = c.is_ascii_uppercase()
            && (prev.is_ascii_lowercase() || (prev.is_ascii_uppercase() && next_small));
        if starts {
            out.push(&kind[start..at]);
            start = at;
        }
    }
    out.push(&kind[start..]);
    out
}

#[cfg(test)]
mod tests {
    use super::{is_typo, other_acronym, typo_distance, words};

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

    #[test]
    fn an_acronym_put_for_another_is_another_kind() {
        assert_eq!(words("BackendTLSPolicy"), ["Backend", "TLS", "Policy"]);
        assert_eq!(words("HTTPRoute"), ["HTTP", "Route"]);
        assert_eq!(words("XListenerSet"), ["X", "Listener", "Set"]);
        assert_eq!(words("GRPC"), ["GRPC"]);
        assert!(other_acronym("BackendTLSPolicy", "BackendLBPolicy"));
        assert!(other_acronym("TCPRoute", "UDPRoute"));
        // Misspellings: a word's letters mistyped, moved or in another case.
        assert!(!other_acronym("GRPCRoute", "GRCPRoute"));
        assert!(!other_acronym("HTTPRoute", "HttpRoute"));
        assert!(!other_acronym("TrafficPolicy", "TrafficPolcy"));
        assert!(!other_acronym("HTTPRoute", "HTTPRoutes"));
    }
}
