//! ReferenceGrants (`decisions.md` section 6): which reference fields need one for a target in
//! another namespace ([`grant_required`], one table), and whether the ReferenceGrants of the
//! inputs permit a reference ([`Grants::granted`]). The resolve stage's findings, the predicted
//! statuses and the render stage all ask these two, so they cannot disagree.

use crate::fasthash::FastMap;
use crate::model::facts::RefField;

/// Per reference field: does the controller refuse a cross-namespace reference without a
/// ReferenceGrant? Fields not listed here do not need one (gwctl reports nothing it cannot
/// show the controller would refuse).
const GRANT_TABLE: &[(RefField, bool)] = &[
    // Gateway API: every route backendRef and listener certificate or CA reference.
    (RefField::RouteBackend, true),
    (RefField::ListenerCertificate, true),
    (RefField::GatewayClientCa, true),
    // The specification marks basic-auth `secretRef.namespace` so.
    (RefField::BasicAuthSecret, true),
    // The reference's translator checks a GatewayExtension's backendRef.
    (RefField::ExtensionBackend, true),
    // The reference's translator checks none for these.
    (RefField::PolicyExtension, false),
    (RefField::AiPolicyBackend, false),
    (RefField::ClassParameters, false),
    (RefField::Other, false),
];

/// Whether a reference through `field` to another namespace needs a ReferenceGrant.
pub fn grant_required(field: RefField) -> bool {
    GRANT_TABLE
        .iter()
        .find(|(f, _)| *f == field)
        .is_some_and(|(_, required)| *required)
}

/// One ReferenceGrant's `from` (group, kind, namespace) and `to` (group, kind, optional name).
#[derive(Debug, Clone, Default)]
pub struct Grant {
    pub from: Vec<(String, String, String)>,
    pub to: Vec<(String, String, Option<String>)>,
}

/// The ReferenceGrants of the inputs, by their namespace (the namespace of the objects they
/// grant access to).
#[derive(Debug, Clone, Default)]
pub struct Grants {
    by_namespace: FastMap<String, Vec<Grant>>,
}

impl Grants {
    pub fn add(&mut self, namespace: &str, grant: Grant) {
        self.by_namespace
            .entry(namespace.to_string())
            .or_default()
            .push(grant);
    }

    /// Whether a reference from an object of `from` (group, kind, namespace) to the object `to`
    /// (group, kind, namespace, name) is permitted: same namespace, or a ReferenceGrant in the
    /// target's namespace lets it.
    pub fn granted(&self, from: (&str, &str, &str), to: (&str, &str, &str, &str)) -> bool {
        let (to_group, to_kind, to_ns, to_name) = to;
        if from.2 == to_ns {
            return true;
        }
        let Some(grants) = self.by_namespace.get(to_ns) else {
            return false;
        };
        grants.iter().any(|g| {
            g.from
                .iter()
                .any(|(gr, k, ns)| gr == from.0 && k == from.1 && ns == from.2)
                && g.to.iter().any(|(gr, k, n)| {
                    gr == to_group && k == to_kind && n.as_deref().is_none_or(|n| n == to_name)
                })
        })
    }

    /// [`Self::granted`] for a reference through `field`: fields that need no grant are
    /// always permitted.
    pub fn permits(
        &self,
        field: RefField,
        from: (&str, &str, &str),
        to: (&str, &str, &str, &str),
    ) -> bool {
        !grant_required(field) || self.granted(from, to)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn grants() -> Grants {
        let mut g = Grants::default();
        g.add(
            "backend",
            Grant {
                from: vec![(
                    "gateway.networking.k8s.io".into(),
                    "HTTPRoute".into(),
                    "shop".into(),
                )],
                to: vec![("".into(), "Service".into(), Some("api".into()))],
            },
        );
        g
    }

    const ROUTE: (&str, &str, &str) = ("gateway.networking.k8s.io", "HTTPRoute", "shop");

    #[test]
    fn a_grant_permits_only_what_it_names() {
        let g = grants();
        assert!(g.granted(ROUTE, ("", "Service", "backend", "api")));
        assert!(!g.granted(ROUTE, ("", "Service", "backend", "other")));
        assert!(!g.granted(ROUTE, ("", "Secret", "backend", "api")));
        assert!(!g.granted(
            ("gateway.networking.k8s.io", "GRPCRoute", "shop"),
            ("", "Service", "backend", "api")
        ));
        assert!(g.granted(ROUTE, ("", "Service", "shop", "anything")));
    }

    #[test]
    fn fields_without_a_grant_rule_are_always_permitted() {
        let g = Grants::default();
        let to = ("gateway.kgateway.dev", "GatewayExtension", "infra", "auth");
        let from = ("gateway.kgateway.dev", "TrafficPolicy", "shop");
        assert!(g.permits(RefField::PolicyExtension, from, to));
        assert!(g.permits(RefField::AiPolicyBackend, from, to));
        assert!(!g.permits(RefField::ExtensionBackend, from, to));
        assert!(!g.permits(RefField::RouteBackend, from, to));
    }
}
