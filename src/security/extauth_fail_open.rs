//! GW405: an external authorization provider with `failOpen: true` lets every request through
//! while the authorization service is down or erroring, so an outage (or an attacker who can
//! cause one) disables authentication. Only the gateway group's GatewayExtension has the field.

use super::{Findings, GATEWAY_GROUP, is_true};
use crate::rules;

pub(super) fn check(f: &mut Findings<'_, '_>) {
    if !f.is(GATEWAY_GROUP, "GatewayExtension") {
        return;
    }
    let Some(ext_auth) = f.res.root.get("spec").and_then(|s| s.get("extAuth")) else {
        return;
    };
    let Some(fail_open) = ext_auth.get("failOpen") else {
        return;
    };
    if !is_true(Some(fail_open)) {
        return;
    }
    let d = f
        .diagnostic(
            rules::GW405,
            fail_open.span,
            "spec.extAuth.failOpen",
            "requests are allowed without authorization when the authorization service is unavailable or fails",
        )
        .with_help("remove failOpen (the default denies with statusOnError), and make the authorization service highly available");
    f.report(d);
}
