//! Why a policy is not accepted, in the controller's words: the run's first error on it, with
//! the wording the controller uses for the reference failures it reports itself.

use crate::diag::Diagnostic;
use crate::rules;

/// The controller's message for a finding, where it has its own words for it; else the
/// finding's message.
pub(super) fn controller_message(d: &Diagnostic) -> String {
    let path = d.path.as_deref().unwrap_or("");
    let missing = d.message.strip_suffix(" not found");
    match (d.code, missing) {
        // The extension a policy's feature names is looked up when the policy is translated.
        (rules::GW209, Some(what)) if path.starts_with("spec.extAuth.") => {
            let name = what.strip_prefix("GatewayExtension ").unwrap_or(what);
            format!("extauth: gateway extension {name} not found")
        }
        // A backend TLS secret is read when the cluster's TLS context is built.
        (rules::GW209, Some(_)) if path == "spec.tls.secretRef" => {
            format!("failed to extract TLS data: {}", d.message)
        }
        _ => d.message.clone(),
    }
}
