//! What the controller refuses in a BackendConfigPolicy's `tls.files`: it reads `tlsCertificate`
//! and `tlsKey` as PEM data rather than as the files they name, and checks the pair before it
//! programs the backend, so a client certificate given as files never passes (GW314).

use crate::diag::{Diagnostic, Outcome};
use crate::model::Resource;
use crate::parse::{Node, Value};
use crate::rules;

/// The controller's words when the pair is given (Go's `tls.X509KeyPair` on a path).
const NO_PEM: &str =
    "invalid certificate and key pair: tls: failed to find any PEM data in certificate input";
/// Its words when only one of the two is.
const HALF: &str = "invalid TLS config: for if providing a client certificate, both certChain and privateKey must be provided";

/// The finding on a BackendConfigPolicy whose `tls.files` gives a client certificate; none for
/// other resources, or when the certificate is not used (`simpleTLS`, `insecureSkipVerify`).
pub(super) fn check(resource: &Resource<'_>) -> Vec<Diagnostic> {
    if resource.group != "gateway.kgateway.dev" || resource.kind != "BackendConfigPolicy" {
        return Vec::new();
    }
    let Some(tls) = resource.root.get("spec").and_then(|s| s.get("tls")) else {
        return Vec::new();
    };
    let on = |key: &str| matches!(tls.get(key).map(|n| &n.value), Some(Value::Bool(true)));
    if on("simpleTLS") || on("insecureSkipVerify") {
        return Vec::new();
    }
    let Some(files) = tls.get("files") else {
        return Vec::new();
    };
    let given = |key: &str| {
        files
            .get(key)
            .and_then(Node::as_str)
            .is_some_and(|s| !s.is_empty())
    };
    let words = match (given("tlsCertificate"), given("tlsKey")) {
        (true, true) => NO_PEM,
        (false, false) => return Vec::new(),
        _ => HALF,
    };
    let prefix = resource
        .path_prefix_index
        .map_or(String::new(), |i| format!("items[{i}]."));
    vec![
        Diagnostic::new(
            rules::GW314,
            format!(
                "the controller reads tlsCertificate and tlsKey as PEM data, not as the files they name, and refuses the policy ({words}): its backends get no endpoints"
            ),
        )
        .at(resource.file, files.span)
        .with_resource(Some(resource.reference()))
        .with_path(format!("{prefix}spec.tls.files"))
        .with_help("give the client certificate in a Secret (tls.secretRef)")
        .with_outcome(Outcome::Refused {
            words: words.to_string(),
        }),
    ]
}
