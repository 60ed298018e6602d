//! Why the controller does not accept a resource, per resource: made once from the run's
//! findings by their typed [`Outcome`], so that the status and render stages decide on typed
//! data rather than on a finding's code or wording.

use crate::fasthash::FastMap;

use super::{Diagnostic, Outcome, ProxyCheck, ResourceRef, Severity};

/// Why a resource is not accepted.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rejection {
    /// The error as gwctl words it (the status message where the controller has no own words).
    pub message: String,
    /// The field path of the error, when known.
    pub path: Option<String>,
    /// A reference the controller cannot resolve (`None`: a validation error).
    pub reference: Option<Outcome>,
    /// Only the proxy finds the error, in this check (the controller accepts the resource unless
    /// the proxy checks the configuration first, with validation level strict).
    pub proxy: Option<ProxyCheck>,
    /// The controller's own words for the error, where gwctl knows them.
    pub words: Option<String>,
}

impl Rejection {
    /// Whether the controller fails on a reference (rather than on a field's value).
    pub fn is_reference(&self) -> bool {
        self.reference.is_some()
    }

    /// The path, in the GatewayExtension the resource names, of the extension's reference that
    /// has no ReferenceGrant.
    pub fn extension_backend(&self) -> Option<&str> {
        match &self.reference {
            Some(Outcome::ExtensionBackend { path }) => Some(path),
            _ => None,
        }
    }

    /// The object a reference names that is not in the inputs: (kind, `namespace/name`).
    pub fn missing(&self) -> Option<(&str, &str)> {
        match &self.reference {
            Some(Outcome::Reference {
                missing: Some((kind, name)),
            }) => Some((kind, name)),
            _ => None,
        }
    }
}

/// The first rejection of each resource, by kind, namespace (`default` when the finding names
/// none) and name: the one the controller detects, and the one of any error (what the proxy
/// refuses too, which matters with validation level strict).
#[derive(Debug, Clone, Default)]
pub struct Verdicts {
    controller: ByResource,
    any: ByResource,
}

/// Rejections by name, then by kind and namespace: a lookup with borrowed names allocates
/// nothing (the stages after resolve ask once per resource, the merge for every policy).
#[derive(Debug, Clone, Default)]
struct ByResource(FastMap<String, Vec<(String, String, Rejection)>>);

impl ByResource {
    fn get(&self, kind: &str, namespace: &str, name: &str) -> Option<&Rejection> {
        self.0
            .get(name)?
            .iter()
            .find(|(k, ns, _)| k == kind && ns == namespace)
            .map(|(_, _, r)| r)
    }

    fn get_ref(&self, r: &ResourceRef) -> Option<&Rejection> {
        self.get(&r.kind, namespace(r), &r.name)
    }

    /// Keeps the first rejection of each resource.
    fn insert_first(&mut self, r: &ResourceRef, rejection: impl FnOnce() -> Rejection) {
        if self.get_ref(r).is_some() {
            return;
        }
        let entry = (r.kind.clone(), namespace(r).to_string(), rejection());
        self.0.entry(r.name.clone()).or_default().push(entry);
    }

    fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

fn namespace(r: &ResourceRef) -> &str {
    r.namespace.as_deref().unwrap_or("default")
}

impl Verdicts {
    /// The verdicts of a run's findings, in their order (the first error of a resource counts).
    pub fn of(diagnostics: &[Diagnostic]) -> Self {
        let mut out = Verdicts::default();
        for d in diagnostics {
            let Some(r) = &d.resource else {
                continue;
            };
            if d.severity != Severity::Error || d.outcome == Outcome::Replaced {
                continue;
            }
            let rejection = || Rejection {
                message: d.message.clone(),
                path: d.path.clone(),
                reference: matches!(
                    d.outcome,
                    Outcome::Reference { .. } | Outcome::ExtensionBackend { .. }
                )
                .then(|| d.outcome.clone()),
                proxy: match d.outcome {
                    Outcome::ProxyOnly(check) => Some(check),
                    _ => None,
                },
                words: match &d.outcome {
                    Outcome::Refused { words } => Some(words.clone()),
                    _ => None,
                },
            };
            if !matches!(d.outcome, Outcome::ProxyOnly(_)) {
                out.controller.insert_first(r, rejection);
            }
            out.any.insert_first(r, rejection);
        }
        out
    }

    /// Why the controller does not accept the resource.
    pub fn rejected(&self, kind: &str, namespace: &str, name: &str) -> Option<&Rejection> {
        if self.controller.is_empty() {
            return None;
        }
        self.controller.get(kind, namespace, name)
    }

    /// [`Self::rejected`] of a resource reference.
    pub fn rejected_ref(&self, r: &ResourceRef) -> Option<&Rejection> {
        self.controller.get_ref(r)
    }

    /// Why the controller does not accept the resource when the proxy checks the configuration
    /// first (validation level strict): its own verdict, else the first error only the proxy finds.
    pub fn rejected_strict(&self, r: &ResourceRef) -> Option<&Rejection> {
        self.rejected_ref(r)
            .or_else(|| self.any.get_ref(r).filter(|x| x.proxy.is_some()))
    }

    /// The first error of the resource, of the controller's or only the proxy's.
    pub fn any_error(&self, kind: &str, namespace: &str, name: &str) -> Option<&Rejection> {
        if self.any.is_empty() {
            return None;
        }
        self.any.get(kind, namespace, name)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules;

    fn on(d: Diagnostic, name: &str) -> Diagnostic {
        d.with_resource(Some(ResourceRef {
            kind: "TrafficPolicy".into(),
            namespace: Some("shop".into()),
            name: name.into(),
        }))
    }

    #[test]
    fn the_first_error_of_a_resource_is_its_verdict_by_outcome() {
        let missing = Outcome::Reference {
            missing: Some(("GatewayExtension".into(), "shop/auth".into())),
        };
        let findings = [
            on(Diagnostic::new(rules::GW013, "defined twice"), "a").with_outcome(Outcome::Replaced),
            on(Diagnostic::new(rules::GW127, "template: x"), "b")
                .with_outcome(Outcome::ProxyOnly(ProxyCheck::Template)),
            on(
                Diagnostic::new(rules::GW209, "GatewayExtension shop/auth not found"),
                "c",
            )
            .with_outcome(missing.clone())
            .with_path("spec.extAuth.extensionRef"),
            on(Diagnostic::new(rules::GW101, "second error"), "c"),
            on(Diagnostic::new(rules::GW311, "a warning"), "d"),
        ];
        let v = Verdicts::of(&findings);
        // A replaced definition is not what the controller sees.
        assert_eq!(v.rejected("TrafficPolicy", "shop", "a"), None);
        assert_eq!(v.any_error("TrafficPolicy", "shop", "a"), None);
        // Only the proxy finds the template error: strict refuses it, the controller does not.
        assert_eq!(v.rejected("TrafficPolicy", "shop", "b"), None);
        assert_eq!(
            v.any_error("TrafficPolicy", "shop", "b")
                .map(|r| r.message.as_str()),
            Some("template: x")
        );
        let c = v.rejected("TrafficPolicy", "shop", "c");
        assert_eq!(
            c.and_then(Rejection::missing),
            Some(("GatewayExtension", "shop/auth"))
        );
        assert_eq!(c.map(Rejection::is_reference), Some(true));
        assert_eq!(v.rejected("TrafficPolicy", "shop", "d"), None);
    }
}
