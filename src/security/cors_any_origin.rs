//! GW404: CORS with `allowOrigins` containing `*` and `allowCredentials: true`. Browsers refuse a
//! literal `*` with credentials, so proxies answer with the request's own origin instead: every
//! website can then send requests with the user's cookies or credentials and read the answers.

use super::{AI_GROUP, Findings, GATEWAY_API_GROUP, GATEWAY_GROUP, each, is_true};
use crate::parse::Node;
use crate::rules;

/// Where each kind keeps its CORS settings.
const PLACES: &[(&str, &str, &str)] = &[
    (GATEWAY_GROUP, "TrafficPolicy", "spec.cors"),
    (AI_GROUP, "AiGatewayPolicy", "spec.traffic.cors"),
    (
        GATEWAY_API_GROUP,
        "HTTPRoute",
        "spec.rules[].filters[].cors",
    ),
    (
        GATEWAY_API_GROUP,
        "HTTPRoute",
        "spec.rules[].backendRefs[].filters[].cors",
    ),
];

pub(super) fn check(f: &mut Findings<'_, '_>) {
    let res = f.res;
    for (group, kind, pattern) in PLACES {
        if !f.is(group, kind) {
            continue;
        }
        each(res.root, pattern, &mut |path, cors| {
            if let Some((i, star)) = wildcard_with_credentials(cors) {
                let d = f
                    .diagnostic(
                        rules::GW404,
                        star.span,
                        &format!("{path}.allowOrigins[{i}]"),
                        "any origin (\"*\") is allowed together with allowCredentials: true, so every website can make credentialed requests and read the responses",
                    )
                    .with_help("list the origins that may send credentials, or drop allowCredentials");
                f.report(d);
            }
        });
    }
}

fn wildcard_with_credentials(cors: &Node) -> Option<(usize, &Node)> {
    if !is_true(cors.get("allowCredentials")) {
        return None;
    }
    cors.get("allowOrigins")?
        .as_seq()?
        .iter()
        .enumerate()
        .find(|(_, o)| o.as_str() == Some("*"))
}
