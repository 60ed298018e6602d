//! The ExtensionRef filters of an HTTPRoute's rules: what they name exists and is a kind a
//! filter can name (GW209), and a rule has at most one DirectResponse (GW217).

use crate::model::facts::{Facts, ObjRef};
use crate::rules;

use super::refs::{AI_GROUP, GATEWAY_GROUP, exists};
use super::{Ctx, diag};

/// Checks a route's filter extensionRefs.
pub(super) fn check(ctx: &mut Ctx<'_>, owner: &Facts, refs: &[ObjRef]) {
    for e in refs {
        filter_ref(ctx, owner, e);
    }
    second_direct_responses(ctx, owner, refs);
}

/// A rule's DirectResponse filters the controller cannot apply (GW217): each that exists after
/// the first that exists ([`DirectResponses`]). One the inputs show missing is GW209's.
fn second_direct_responses(ctx: &mut Ctx<'_>, owner: &Facts, refs: &[ObjRef]) {
    let mut rules: Vec<(&str, DirectResponses)> = Vec::new();
    for r in refs {
        if r.group() != Some(GATEWAY_GROUP) || r.kind() != Some("DirectResponse") {
            continue;
        }
        // `spec.rules[N]`, the rule whose own filters hold it (a backendRef's filters apply
        // to that backend only).
        let Some((rule, rest)) = r.path.split_once("].") else {
            continue;
        };
        if !rest.starts_with("filters[") {
            continue;
        }
        // One the inputs cannot tell about (not checked: a fragment) is taken to exist.
        let ns = &owner.id.namespace;
        let kind = "DirectResponse";
        if ctx.checks_kind(GATEWAY_GROUP, kind)
            && ctx.index.get(GATEWAY_GROUP, kind, ns, &r.name).is_none()
        {
            continue;
        }
        let position = match rules.iter().position(|(r, _)| *r == rule) {
            Some(i) => i,
            None => {
                rules.push((rule, DirectResponses::default()));
                rules.len() - 1
            }
        };
        if rules[position].1.apply() {
            continue;
        }
        ctx.out.push(diag(
            rules::GW217,
            format!(
                "DirectResponse {} is the rule's second DirectResponse filter: the controller cannot apply it after the first and replaces the rule with a direct response 500",
                r.name
            ),
            &owner.id,
            r,
        ));
    }
}

/// The DirectResponse filters of one route rule as the controller applies them, in filter
/// order: the first that exists sets the rule's action (the response); one after it cannot be
/// applied over that action, and the rule is replaced with a direct response 500. One that does
/// not exist sets nothing. The finding (GW217), the route's status and the rendering each ask
/// this.
#[derive(Debug, Default)]
pub struct DirectResponses {
    applied: bool,
}

impl DirectResponses {
    /// Whether the next DirectResponse filter of the rule, one that exists, can be applied.
    pub fn apply(&mut self) -> bool {
        !std::mem::replace(&mut self.applied, true)
    }
}

/// An HTTPRoute filter's extensionRef: a local object of the gateway or AI group.
fn filter_ref(ctx: &mut Ctx<'_>, owner: &Facts, r: &ObjRef) {
    let group = r.group().unwrap_or("");
    let Some(kind) = r.kind() else {
        return;
    };
    // Of the gateway group, a filter can name only these kinds: the controller replaces a rule
    // naming another with a direct response 500, whatever is in the cluster.
    if group == GATEWAY_GROUP && !FILTER_KINDS.contains(&kind) {
        ctx.out.push(diag(
            rules::GW209,
            format!(
                "an ExtensionRef filter names kind {kind} of group {group}, which a filter cannot name (it can name {})",
                FILTER_KINDS.join(" or ")
            ),
            &owner.id,
            r,
        ));
        return;
    }
    if group == GATEWAY_GROUP || group == AI_GROUP {
        exists(ctx, owner, r, (group, kind, &owner.id.namespace));
    }
}

/// The kinds of the gateway group an HTTPRoute filter's extensionRef can name.
const FILTER_KINDS: &[&str] = &["DirectResponse", "TrafficPolicy"];
