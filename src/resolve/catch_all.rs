//! GW406: an HTTPRoute without `hostnames` whose rule matches every request, attached to a
//! listener without a hostname. Only there does the rule serve `/` on every hostname: a
//! listener's hostname limits the route to it, a Service parentRef (mesh) has no listener, and a
//! delegated child route is reached only through its parent route's hostnames and matches.
//! Direct responses attached by an AiGatewayPolicy `directResponse` are not checked.

use crate::diag::Diagnostic;
use crate::model::facts::{Facts, RouteFacts};
use crate::rules;

use super::routes::Attached;
use super::{Ctx, qualified, resource_ref};

/// `attached`: the listeners the route attaches to.
pub(super) fn check(ctx: &mut Ctx<'_>, f: &Facts, route: &RouteFacts, attached: &[Attached<'_>]) {
    if !route.hostnames.is_empty() {
        return;
    }
    let Some(open) = attached.iter().find(|a| a.listener.hostname.is_none()) else {
        return;
    };
    let parent = &ctx.index.facts[open.parent].id;
    for rule in &route.http_rules {
        let Some(c) = &rule.catch_all else { continue };
        ctx.out.push(
            Diagnostic::new(
                rules::GW406,
                format!(
                    "{}: the route has no hostnames and this rule matches every path, so it {} for \"/\" on every hostname of listener {:?} of {} {}",
                    c.path,
                    c.answer,
                    open.listener.name,
                    parent.kind,
                    qualified(&parent.namespace, &parent.name)
                ),
            )
            .at(f.id.file, c.span)
            .with_resource(Some(resource_ref(&f.id)))
            .with_path(c.path.to_string())
            .with_related(
                parent.file,
                open.listener.span,
                format!("listener {:?} has no hostname", open.listener.name),
            )
            .with_help("set spec.hostnames, narrow the match, or set the listener's hostname"),
        );
    }
}
