//! GW402: inline basic-auth users whose password hash is fast to brute-force. Anyone who can read
//! the policy can run an offline guessing attack on these hashes.
//!
//! * Gateway group (TrafficPolicy `basicAuth.users`): the proxy data plane accepts only `{SHA}`
//!   (unsalted SHA-1), so the hash cannot be made stronger there; the finding asks to keep the
//!   file in a Secret (`secretRef`, readable only with Secret permissions) or to use JWT or
//!   external authentication. A warning: the configuration works, but the hashes are exposed.
//! * AI group (AiGatewayPolicy `traffic.basicAuthentication.users`): bcrypt and SHA-crypt are
//!   accepted, so MD5 (`$apr1$`, `$1$`), `{SHA}` and DES crypt are warnings with that advice.
//!
//! Plain-text passwords (a value in no known scheme) are GW124, an error, in the validate stage:
//! the scheme recogniser is shared (`htpasswd::scheme_of`) and the finding is not repeated here.

use super::{AI_GROUP, Findings, GATEWAY_GROUP, each};
use crate::rules;
use crate::validate::values::htpasswd::scheme_of;
use crate::validate::values::position::ScalarMap;

pub(super) fn check(f: &mut Findings<'_, '_>) {
    let res = f.res;
    let (pattern, gateway) = if f.is(GATEWAY_GROUP, "TrafficPolicy") {
        ("spec.basicAuth.users[]", true)
    } else if f.is(AI_GROUP, "AiGatewayPolicy") {
        ("spec.traffic.basicAuthentication.users[]", false)
    } else {
        return;
    };
    each(res.root, pattern, &mut |path, line| {
        let Some(text) = line.as_str() else {
            return;
        };
        let Some((user, hash)) = text.split_once(':') else {
            return;
        };
        let Some(scheme) = scheme_of(hash) else {
            return;
        };
        let (weakness, help) = match (scheme, gateway) {
            ("SHA-1", true) => (
                "is unsalted SHA-1 ({SHA}) written into the policy",
                "{SHA} is the only scheme the proxy data plane accepts: move the htpasswd file to a Secret (basicAuth.secretRef), or use JWT or external authentication",
            ),
            ("SHA-1", false) => (
                "is unsalted SHA-1 ({SHA})",
                "use bcrypt ($2y$), which the AI data plane accepts (htpasswd -B)",
            ),
            ("MD5", false) => ("uses MD5 ($apr1$ / $1$)", "use bcrypt ($2y$) (htpasswd -B)"),
            ("DES crypt", false) => (
                "uses DES crypt (only 8 password characters count)",
                "use bcrypt ($2y$) (htpasswd -B)",
            ),
            // The proxy data plane rejects every scheme but {SHA}: a correctness problem, not a
            // weak hash, and no stronger scheme to recommend.
            _ => return,
        };
        // Point at the hash, not the line: the user name is not the problem.
        let start = user.len() + 1;
        let span = ScalarMap::new(&res.source.text, line.span, text).span(start, text.len());
        let d = f
            .diagnostic(
                rules::GW402,
                span,
                path,
                format!("password hash of user {user:?} {weakness}, which is fast to brute-force"),
            )
            .with_help(help);
        f.report(d);
    });
}
