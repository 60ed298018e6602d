//! GW401: `insecureSkipVerify` turns off the check of the backend's certificate, so anyone on the
//! path to the backend can impersonate it. The gateway group has it as a boolean
//! (BackendConfigPolicy `tls`), the AI group as a mode (`All`, `Hostname`) in every `tls` block of
//! its backends and policies; the whole `spec` is searched so that nested TLS blocks (prompt-guard
//! moderation, MCP targets) are covered without listing them.

use super::{AI_GROUP, Findings, GATEWAY_API_GROUP, GATEWAY_GROUP, each_entry};
use crate::parse::Value;
use crate::rules;

pub(super) fn check(f: &mut Findings<'_, '_>) {
    let res = f.res;
    let known = [
        GATEWAY_GROUP,
        AI_GROUP,
        GATEWAY_API_GROUP,
        "gateway.networking.x-k8s.io",
    ];
    if !known.contains(&res.group) {
        return;
    }
    let Some(spec) = res.root.get("spec") else {
        return;
    };
    each_entry(spec, "spec", &mut |path, e| {
        if e.key != "insecureSkipVerify" {
            return;
        }
        let what = match &e.value.value {
            Value::Bool(true) => "certificate verification of the backend is disabled",
            Value::Str(s) if s.text == "All" => {
                "certificate verification of the backend is disabled (All)"
            }
            Value::Str(s) if s.text == "Hostname" => {
                "the backend certificate's hostname is not verified (Hostname), so any certificate of a trusted CA is accepted"
            }
            _ => return,
        };
        let d = f
            .diagnostic(rules::GW401, e.value.span, path, what)
            .with_help("remove insecureSkipVerify and configure the CA (and the SNI / subject alt names) of the backend");
        f.report(d);
    });
}
