//! Why a policy is not accepted, in the controller's words: the run's verdict on it, with the
//! wording the controller uses for the reference failures it reports itself.

use crate::diag::Rejection;

/// How the proxy's check of the configuration (validation level strict) begins its error.
const XDS: &str = "invalid xds configuration: error initializing configuration '/dev/fd/0': ";

/// The proxy's words for an error only it finds, where they do not depend on the proxy's
/// parser: a transformation template is compiled by the transformation dynamic module, which
/// reports only that it failed to start. `None` where gwctl cannot say them.
pub(super) fn proxy_words(r: &Rejection) -> Option<String> {
    let path = r.path.as_deref().unwrap_or("");
    (r.proxy_only && path.starts_with("spec.transformation.")).then(|| {
        format!(
            "{XDS}Failed to create pre-route filter config: Failed to initialize per-route dynamic module"
        )
    })
}

/// The controller's message for a rejection, where it has its own words for it; else gwctl's.
pub(super) fn controller_message(r: &Rejection) -> String {
    if let Some(words) = proxy_words(r) {
        return words;
    }
    let path = r.path.as_deref().unwrap_or("");
    match r.missing() {
        // The extension a policy's feature names is looked up when the policy is translated.
        Some((_, name)) if path.starts_with("spec.extAuth.") => {
            format!("extauth: gateway extension {name} not found")
        }
        // A backend TLS secret is read when the cluster's TLS context is built.
        Some((kind, name)) if path == "spec.tls.secretRef" => {
            format!("failed to extract TLS data: {kind} {name} not found")
        }
        _ => match r.extension_backend() {
            // A JWT provider's remote JWKS is resolved when the policy is translated.
            Some(p) if p.starts_with("spec.jwt.") && p.contains(".jwks.remote.") => {
                "jwt: jwt: remote jwks: unresolved backend ref: missing reference grant".into()
            }
            _ => r.message.clone(),
        },
    }
}
