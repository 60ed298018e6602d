//! Why a policy is not accepted, in the controller's words: the run's verdict on it, with the
//! wording the controller uses for the reference failures it reports itself.

use crate::diag::Rejection;

/// The controller's message for a rejection, where it has its own words for it; else gwctl's.
pub(super) fn controller_message(r: &Rejection) -> String {
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
