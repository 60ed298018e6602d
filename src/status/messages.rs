//! Why a policy is not accepted, in the controller's words: the run's verdict on it, with the
//! wording the controller uses for the reference failures it reports itself.

use serde_json::Value;

use super::proxy::XDS;
use crate::diag::{ProxyCheck, Rejection};
use crate::model::Object;
use crate::model::facts::Facts;
use crate::model::facts_policy::PolicyFacts;

/// The resource a rejection is on, as a later stage reads it: a policy's typed fields, or the
/// JSON value of another kind.
#[derive(Clone, Copy)]
pub(super) enum Written<'a> {
    Policy(&'a PolicyFacts),
    Json(&'a Value),
}

impl<'a> Written<'a> {
    /// An object of the inputs, with its typed facts: a policy's fields, else its JSON.
    pub(super) fn of(object: &'a Object, facts: Option<&'a Facts>) -> Self {
        match facts.and_then(Facts::policy) {
            Some(p) => Written::Policy(p),
            None => Written::Json(&object.value),
        }
    }

    /// The text at a field path (`spec.a[1].b`).
    fn text_at(self, path: &str) -> Option<&'a str> {
        match self {
            Written::Json(v) => v.pointer(&pointer(path)?)?.as_str(),
            Written::Policy(p) => {
                let in_spec = path.strip_prefix("spec.")?;
                p.fields.iter().rev().find_map(|f| {
                    let rest = in_spec.strip_prefix(f.name.as_str())?;
                    if !(rest.is_empty() || rest.starts_with(['.', '['])) {
                        return None;
                    }
                    // The pointer of the rest, as a path under a field named `x`.
                    let inner = pointer(&format!("x{rest}"))?;
                    f.value.pointer(inner.strip_prefix("/x")?)?.as_str()
                })
            }
        }
    }
}

/// The proxy's words for an error only it finds, where they do not depend on more than gwctl
/// knows: a transformation template is compiled by the transformation dynamic module, which
/// reports only that it failed to start; a regular expression is RE2's (`object` is the
/// resource the error is on, whose value RE2 names). `None` where gwctl cannot say them.
pub(super) fn proxy_words(r: &Rejection, object: Option<Written<'_>>) -> Option<String> {
    let path = r.path.as_deref().unwrap_or("");
    match r.proxy? {
        ProxyCheck::Template if path.starts_with("spec.transformation.") => Some(format!(
            "{XDS}Failed to create pre-route filter config: Failed to initialize per-route dynamic module"
        )),
        ProxyCheck::Regex => {
            let pattern = object?.text_at(path)?;
            Some(format!("{XDS}{}", super::proxy::re2_refusal(pattern)?))
        }
        ProxyCheck::PathPrefix => Some(format!("{XDS}path_prefix should start with \"/\".")),
        // Checked by the controller itself when the proxy checks first.
        ProxyCheck::TlsParameter => Some(crate::validate::values::tls_names::refusal(
            path,
            object?.text_at(path)?,
        )),
        ProxyCheck::Template => None,
    }
}

/// The JSON pointer of a field path (`spec.a[1].b` -> `/spec/a/1/b`).
fn pointer(path: &str) -> Option<String> {
    let mut out = String::new();
    for part in path.split('.') {
        let (name, index) = match part.split_once('[') {
            Some((n, rest)) => (n, Some(rest.strip_suffix(']')?)),
            None => (part, None),
        };
        out.push('/');
        out.push_str(&name.replace('~', "~0").replace('/', "~1"));
        if let Some(i) = index {
            out.push('/');
            out.push_str(i);
        }
    }
    Some(out)
}

/// The controller's message for a rejection, where it has its own words for it; else gwctl's.
pub(super) fn controller_message(r: &Rejection, object: Option<Written<'_>>) -> String {
    if let Some(words) = proxy_words(r, object).or_else(|| r.words.clone()) {
        return words;
    }
    let path = r.path.as_deref().unwrap_or("");
    match r.missing() {
        // The extension a policy's feature names is looked up when the policy is translated.
        Some((_, name)) if path.starts_with("spec.extAuth.") => {
            format!("extauth: gateway extension {name} not found")
        }
        Some((_, name)) if path.starts_with("spec.extProc.") => {
            format!("extproc: gateway extension {name} not found")
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
            // The extension's service is resolved when each policy using it is translated,
            // each plugin wrapping the error in its own words.
            Some(p) if p.starts_with("spec.extProc.") => {
                "extproc: failed to resolve ExtProc backend: missing reference grant".into()
            }
            Some(p) if p.starts_with("spec.extAuth.") => {
                "extauth: failed to resolve ExtAuth backend: missing reference grant".into()
            }
            Some(p) if p.starts_with("spec.rateLimit.") => {
                "ratelimit: ratelimit: missing reference grant".into()
            }
            _ => r.message.clone(),
        },
    }
}
