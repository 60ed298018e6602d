//! GW403: secret material in a ConfigMap. ConfigMaps are readable by far more principals than
//! Secrets (views, dashboards, `kubectl describe`), are not encrypted at rest by the usual
//! encryption configuration, and end up in logs and support bundles. Two signals, each enough:
//! the key is named like a credential (`api-key`, `apiKey`, `token`, `password`, `secret`, ...),
//! or the value has the shape of one (a PEM private key, a well-known key prefix such as `sk-`,
//! a JSON Web Token, a long hex or base64 string). Only `data` is read: `binaryData` is base64 of
//! arbitrary bytes by design.

use super::Findings;
use crate::rules;
use crate::secrets::credential::{credential_key, value_shape};

pub(super) fn check(f: &mut Findings<'_, '_>) {
    let res = f.res;
    if !(res.group.is_empty() && res.kind == "ConfigMap") {
        return;
    }
    let Some(data) = res.root.get("data").and_then(|d| d.as_map()) else {
        return;
    };
    for e in data {
        let Some(value) = e.value.as_str() else {
            continue;
        };
        let what = match (credential_key(&e.key, value), value_shape(value)) {
            (_, Some(shape)) => format!("the value looks like {shape}"),
            (true, None) => "the key is named like a credential and has a value".to_string(),
            (false, None) => continue,
        };
        let d = f
            .diagnostic(
                rules::GW403,
                e.value.span,
                &format!("data.{}", e.key),
                format!("ConfigMap holds what looks like secret material: {what}"),
            )
            .with_help("move the value to a Secret and reference it from there; rotate it if this manifest was shared");
        f.report(d);
    }
}
