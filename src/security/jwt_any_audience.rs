//! GW407: a JWT provider without `audiences` accepts a token of its issuer that was minted for
//! any other service: a token leaked by (or issued to) one application opens this one too. Both
//! groups check the `aud` claim only when audiences are listed.

use super::{AI_GROUP, Findings, GATEWAY_GROUP, each};
use crate::rules;

/// Where each kind lists JWT providers (the MCP `authentication` block is one provider).
const PLACES: &[(&str, &str, &str)] = &[
    (GATEWAY_GROUP, "GatewayExtension", "spec.jwt.providers[]"),
    (
        AI_GROUP,
        "AiGatewayPolicy",
        "spec.traffic.jwtAuthentication.providers[]",
    ),
    (
        AI_GROUP,
        "AiGatewayPolicy",
        "spec.backend.mcp.authentication",
    ),
    (
        AI_GROUP,
        "AiGatewayBackend",
        "spec.policies.mcp.authentication",
    ),
    (
        AI_GROUP,
        "AiGatewayBackend",
        "spec.mcp.targets[].static.policies.mcp.authentication",
    ),
];

pub(super) fn check(f: &mut Findings<'_, '_>) {
    let res = f.res;
    for (group, kind, pattern) in PLACES {
        if !f.is(group, kind) {
            continue;
        }
        each(res.root, pattern, &mut |path, provider| {
            if provider.as_map().is_none()
                || provider
                    .get("audiences")
                    .and_then(|a| a.as_seq())
                    .is_some_and(|a| !a.is_empty())
            {
                return;
            }
            // Point at what names the provider, so the line says which one is meant.
            let named = |key: &str| {
                provider
                    .get(key)
                    .and_then(|n| n.as_str().map(|s| (n.span, s)))
            };
            let (span, what) = if let Some((span, name)) = named("name") {
                (span, format!("JWT provider {name:?}"))
            } else if let Some((span, issuer)) = named("issuer") {
                (span, format!("JWT provider of issuer {issuer:?}"))
            } else {
                (provider.span, "JWT provider".to_string())
            };
            let d = f
                .diagnostic(
                    rules::GW407,
                    span,
                    path,
                    format!("{what} has no audiences, so tokens issued for any other service are accepted"),
                )
                .with_help("list the audiences (aud claim) this gateway's tokens are issued for");
            f.report(d);
        });
    }
}
