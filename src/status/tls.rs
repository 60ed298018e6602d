//! A listener's TLS as the controller checks it before programming the listener: its
//! certificates, and the Gateway's client certificate validation for its port.

use serde_json::Value;

use super::Context;
use super::listeners::Failure;
use crate::model::Object;
use crate::model::facts::{Listener, Spec};
use crate::resolve::Grants;

/// The first certificateRef of a listener that cannot be used: in another namespace without a
/// ReferenceGrant, or a Secret that is not in the inputs.
pub(super) fn certificate_failure(
    ctx: &Context<'_>,
    grants: Option<&Grants>,
    owner: &Object,
    spec: &Listener,
) -> Option<Failure> {
    for r in &spec.certificate_refs {
        let group = r.group().unwrap_or("");
        let kind = r.kind().unwrap_or("Secret");
        let ns = r.namespace().unwrap_or(&owner.id.namespace);
        let name = &*r.name;
        let id = &owner.id;
        if ns != id.namespace
            && grants.is_some_and(|grants| {
                !grants.granted(
                    (&id.group, &id.kind, &id.namespace),
                    (group, kind, ns, name),
                )
            })
        {
            return Some(Failure::new(
                "RefNotPermitted",
                "Reference not permitted by ReferenceGrant.",
            ));
        }
        if group.is_empty() && kind == "Secret" && ctx.inputs.get("", kind, ns, name).is_none() {
            return Some(Failure::new(
                "InvalidCertificateRef",
                format!("Secret {ns}/{name} not found."),
            ));
        }
        if group.is_empty()
            && kind == "Secret"
            && let Some(message) = key_pair_failure(ctx, ns, name)
        {
            return Some(Failure::new("InvalidCertificateRef", message));
        }
    }
    None
}

/// Why the controller cannot load the certificate and key of a listener's Secret (in the
/// inputs): `tls.crt`, then `tls.key`, holds no PEM data. In the words it reports, Go's
/// `crypto/tls` error after the Secret's name.
pub fn key_pair_failure(ctx: &Context<'_>, ns: &str, name: &str) -> Option<String> {
    let facts = ctx.inputs.facts_of("", "Secret", ns, name)?;
    let Spec::Keys { pem, .. } = &facts.spec else {
        return None;
    };
    let holds = |key: &str| pem.iter().any(|k| k == key);
    let input = if !holds("tls.crt") {
        "certificate"
    } else if !holds("tls.key") {
        "key"
    } else {
        return None;
    };
    Some(format!(
        "invalid TLS secret {ns}/{name}: tls: failed to find any PEM data in {input} input"
    ))
}

/// The Gateway's client certificate validation for a listener's port (`spec.tls.frontend`: the
/// port's entry, else the default): a CA reference in another namespace without a ReferenceGrant,
/// or subject alt names to verify with no CA to verify against.
pub(super) fn client_validation_failure(
    ctx: &Context<'_>,
    grants: Option<&Grants>,
    owner: &Object,
    spec: &Listener,
) -> Option<Failure> {
    let validation = frontend_validation(ctx, owner, spec.port);
    // With the insecure fallback a client that fails validation is still served: the CA is
    // not required for the listener to be programmed.
    let fallback = validation
        .and_then(|v| v.get("mode"))
        .and_then(Value::as_str)
        == Some("AllowInsecureFallback");
    let ca_refs = validation
        .filter(|_| !fallback)
        .and_then(|v| v.get("caCertificateRefs"))
        .and_then(Value::as_array)
        .map(Vec::as_slice)
        .unwrap_or_default();
    let id = &owner.id;
    for r in ca_refs {
        let text = |key: &str| r.get(key).and_then(Value::as_str);
        let ns = text("namespace").unwrap_or(&id.namespace);
        let to = (
            text("group").unwrap_or(""),
            text("kind").unwrap_or("ConfigMap"),
            ns,
            text("name").unwrap_or(""),
        );
        if ns != id.namespace
            && grants
                .is_some_and(|grants| !grants.granted((&id.group, &id.kind, &id.namespace), to))
        {
            return Some(Failure::new(
                "RefNotPermitted",
                "Reference not permitted by ReferenceGrant.",
            ));
        }
    }
    let verifies_names = spec
        .tls
        .as_ref()
        .is_some_and(|t| t.written(VERIFY_SUBJECT_ALT_NAMES).is_some());
    if verifies_names && ca_refs.is_empty() {
        return Some(Failure::new(
            "InvalidCertificateRef",
            "verify-subject-alt-names annotation requires a trusted CA to be configured",
        ));
    }
    None
}

/// The Gateway's `tls.frontend` validation for a port, as written: its `perPort` entry's, else
/// the default. Render programs what the status stage judges from it.
pub fn frontend_validation<'a>(
    ctx: &Context<'a>,
    gateway: &Object,
    port: Option<i64>,
) -> Option<&'a Value> {
    let frontend = ctx.inputs.gateway_settings(gateway)?.frontend.as_ref()?;
    frontend
        .get("perPort")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .find(|p| p.get("port").and_then(Value::as_i64) == port)
        .and_then(|p| p.pointer("/tls/validation"))
        .or_else(|| frontend.pointer("/default/validation"))
}

/// The TLS option naming the client certificate subject alt names a listener accepts.
const VERIFY_SUBJECT_ALT_NAMES: &str = "kgateway.dev/verify-subject-alt-names";

/// Whether an object's TLS settings name an object in another namespace (a certificate, a CA).
pub(super) fn refers_elsewhere(ctx: &Context<'_>, owner: &Object) -> bool {
    let ns = owner.id.namespace.as_str();
    let listeners = ctx
        .inputs
        .facts_at(owner)
        .map_or(&[][..], |f| f.listeners());
    let certificates = listeners
        .iter()
        .flat_map(|l| &l.certificate_refs)
        .any(|r| r.namespace().is_some_and(|n| n != ns));
    let elsewhere = |refs: Option<&Value>| {
        refs.and_then(Value::as_array)
            .into_iter()
            .flatten()
            .any(|r| {
                r.get("namespace")
                    .and_then(Value::as_str)
                    .is_some_and(|n| n != ns)
            })
    };
    let frontend = ctx
        .inputs
        .gateway_settings(owner)
        .and_then(|g| g.frontend.as_ref());
    let per_port = frontend
        .and_then(|f| f.get("perPort"))
        .and_then(Value::as_array);
    certificates
        || elsewhere(frontend.and_then(|f| f.pointer("/default/validation/caCertificateRefs")))
        || per_port
            .into_iter()
            .flatten()
            .any(|p| elsewhere(p.pointer("/tls/validation/caCertificateRefs")))
}
