//! The registry: (group, version, kind) -> compiled schema, compiled lazily on first use.

use std::collections::{HashMap, HashSet};
use std::sync::{Arc, OnceLock};

use serde_json::Value;

use super::bundle::{BundleKind, read_bundle};
use super::compile::{CompiledSchema, compile, compile_with};
use super::import::import_crd;
use crate::cel::CelLimits;

const GATEWAY_API_BUNDLE: &str = include_str!("../../schemas/gateway-api.json");
const CORE_BUNDLE: &str = include_str!("../../schemas/core.json");
const KGATEWAY_BUNDLE: &str = include_str!("../../schemas/kgateway.json");

/// The API groups of the gateway and AI kinds. The bundle is generated with the reference's group
/// names; a configuration may register it under other names (decisions.md section 1).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ApiGroups {
    pub gateway: String,
    pub ai: String,
}

/// The group names of `schemas/kgateway.json`.
const BUNDLE_GATEWAY_GROUP: &str = "gateway.kgateway.dev";
const BUNDLE_AI_GROUP: &str = "agentgateway.dev";

impl Default for ApiGroups {
    fn default() -> Self {
        ApiGroups {
            gateway: BUNDLE_GATEWAY_GROUP.to_string(),
            ai: BUNDLE_AI_GROUP.to_string(),
        }
    }
}

/// The compiled schema of one version of one kind.
pub struct KindSchema {
    pub group: String,
    pub version: String,
    pub kind: String,
    /// Cluster-scoped kinds have no namespace.
    pub cluster_scoped: bool,
    /// The API server drops `status` on create, so it is not validated.
    pub status_subresource: bool,
    pub schema: Arc<CompiledSchema>,
}

pub enum Lookup<'r> {
    Found(&'r KindSchema),
    /// The kind exists in other versions only.
    UnknownVersion {
        known: Vec<String>,
    },
    /// The group is known but has no such kind.
    UnknownKind,
    /// The group is not one gwctl checks.
    UnknownGroup,
}

struct SchemaSlot {
    json: Value,
    compiled: OnceLock<Arc<CompiledSchema>>,
    /// The user's `--max-cel-*` for a `--crds` schema; the defaults for a built-in one.
    cel_limits: CelLimits,
}

struct VersionSlot {
    name: String,
    served: bool,
    status_subresource: bool,
    schema: usize,
    kind_schema: OnceLock<KindSchema>,
}

struct KindEntry {
    kind: String,
    group: String,
    cluster_scoped: bool,
    versions: Vec<VersionSlot>,
}

#[derive(Default)]
pub struct Registry {
    /// group -> kind -> entry.
    groups: HashMap<String, HashMap<String, KindEntry>>,
    schemas: Vec<SchemaSlot>,
    /// Known groups whose objects are not checked (not an error).
    unchecked_groups: HashSet<String>,
}

impl Registry {
    /// The schemas built into gwctl (Gateway API, core kinds, the gateway and AI groups under their
    /// default names), compiled lazily per kind.
    pub fn builtin() -> &'static Registry {
        static R: OnceLock<Registry> = OnceLock::new();
        R.get_or_init(|| Registry::with_groups(&ApiGroups::default()))
    }

    /// The built-in schemas with the gateway and AI groups under the given names. Use
    /// [`Registry::builtin`] for the defaults: it is built once and shared.
    pub fn with_groups(groups: &ApiGroups) -> Registry {
        let mut r = Registry::default();
        for text in [GATEWAY_API_BUNDLE, CORE_BUNDLE] {
            // The bundles are part of the build and tested; a broken one leaves its kinds unchecked.
            if let Ok(bundle) = serde_json::from_str(text) {
                let _ = r.add_bundle(bundle);
            }
        }
        if let Ok(bundle) = serde_json::from_str(KGATEWAY_BUNDLE) {
            let _ = r.add_bundle_in_groups(
                bundle,
                &[
                    (BUNDLE_GATEWAY_GROUP, groups.gateway.as_str()),
                    (BUNDLE_AI_GROUP, groups.ai.as_str()),
                ],
            );
        }
        r
    }

    /// Adds the kinds of a bundle (see [`super::bundle`]); later kinds replace earlier ones.
    pub fn add_bundle(&mut self, bundle: Value) -> Result<(), String> {
        self.add_bundle_in_groups(bundle, &[])
    }

    /// Adds the kinds of a bundle, registering the kinds of group `from` under group `to` for each
    /// `(from, to)` pair.
    pub fn add_bundle_in_groups(
        &mut self,
        bundle: Value,
        groups: &[(&str, &str)],
    ) -> Result<(), String> {
        let (mut kinds, schemas) = read_bundle(bundle)?;
        for k in &mut kinds {
            if let Some((_, to)) = groups.iter().find(|(from, _)| *from == k.group) {
                k.group = to.to_string();
            }
        }
        let base = self.schemas.len();
        self.schemas
            .extend(schemas.into_iter().map(|json| SchemaSlot {
                json,
                compiled: OnceLock::new(),
                cel_limits: CelLimits::default(),
            }));
        for k in kinds {
            self.insert_kind(k, base);
        }
        Ok(())
    }

    /// Adds a user CRD (`--crds`) under the default CEL limits.
    pub fn add_crd(&mut self, crd: &Value) -> Result<(), String> {
        self.add_crd_with(crd, &CelLimits::default())
    }

    /// Adds a user CRD (`--crds`); its CEL rules are compiled under `cel_limits`.
    pub fn add_crd_with(&mut self, crd: &Value, cel_limits: &CelLimits) -> Result<(), String> {
        let versions = import_crd(crd)?;
        let Some(first) = versions.first() else {
            return Ok(());
        };
        let base = self.schemas.len();
        let kind = BundleKind {
            group: first.group.clone(),
            kind: first.kind.clone(),
            scope: first.scope.clone(),
            versions: versions
                .iter()
                .enumerate()
                .map(|(i, v)| super::bundle::BundleVersion {
                    name: v.version.clone(),
                    served: v.served,
                    status_subresource: v.status_subresource,
                    schema: i,
                })
                .collect(),
        };
        self.schemas
            .extend(versions.into_iter().map(|v| SchemaSlot {
                json: v.schema,
                compiled: OnceLock::new(),
                cel_limits: *cel_limits,
            }));
        self.insert_kind(kind, base);
        Ok(())
    }

    fn insert_kind(&mut self, k: BundleKind, schema_base: usize) {
        self.unchecked_groups.remove(&k.group);
        let entry = KindEntry {
            kind: k.kind.clone(),
            group: k.group.clone(),
            cluster_scoped: k.scope == "Cluster",
            versions: k
                .versions
                .into_iter()
                .map(|v| VersionSlot {
                    name: v.name,
                    served: v.served,
                    status_subresource: v.status_subresource,
                    schema: schema_base + v.schema,
                    kind_schema: OnceLock::new(),
                })
                .collect(),
        };
        self.groups
            .entry(k.group)
            .or_default()
            .insert(k.kind, entry);
    }

    /// The groups that have `kind`, without listing every kind (asked once per object of a group
    /// gwctl does not know).
    pub fn groups_with_kind<'r>(&'r self, kind: &'r str) -> impl Iterator<Item = &'r str> + 'r {
        self.groups
            .iter()
            .filter(move |(_, kinds)| kinds.contains_key(kind))
            .map(|(group, _)| group.as_str())
    }

    /// Every (group, kind, served versions) known, sorted (for `gwctl` listings and tests).
    pub fn kinds(&self) -> Vec<(String, String, Vec<String>)> {
        let mut out: Vec<_> = self
            .groups
            .values()
            .flat_map(|kinds| kinds.values())
            .map(|e| (e.group.clone(), e.kind.clone(), served_versions(e)))
            .collect();
        out.sort();
        out
    }

    /// The OpenAPI schema (JSON, as embedded or imported) of one served version of a kind.
    pub fn schema_json(&self, group: &str, version: &str, kind: &str) -> Option<&Value> {
        let entry = self.groups.get(group)?.get(kind)?;
        let slot = entry
            .versions
            .iter()
            .find(|v| v.name == version && v.served)?;
        self.schemas.get(slot.schema).map(|s| &s.json)
    }

    /// The kind of `group` that this API renamed from the reference's `kind`.
    pub fn renamed_kind(&self, group: &str, kind: &str) -> Option<&str> {
        let renamed_from = |e: &KindEntry| {
            e.versions.iter().any(|v| {
                let json = self.schemas.get(v.schema).map(|s| &s.json);
                json.and_then(|j| j.get(super::transform::RENAMED_FROM))
                    .and_then(Value::as_str)
                    == Some(kind)
            })
        };
        self.groups
            .get(group)?
            .values()
            .find(|e| renamed_from(e))
            .map(|e| e.kind.as_str())
    }

    pub fn lookup(&self, group: &str, version: &str, kind: &str) -> Lookup<'_> {
        if self.unchecked_groups.contains(group) {
            return Lookup::UnknownGroup;
        }
        let Some(kinds) = self.groups.get(group) else {
            return Lookup::UnknownGroup;
        };
        let Some(entry) = kinds.get(kind) else {
            // The core group is known only for the kinds gwctl checks; the others are not errors.
            return if group.is_empty() {
                Lookup::UnknownGroup
            } else {
                Lookup::UnknownKind
            };
        };
        let Some(slot) = entry
            .versions
            .iter()
            .find(|v| v.name == version && v.served)
        else {
            return Lookup::UnknownVersion {
                known: served_versions(entry),
            };
        };
        Lookup::Found(slot.kind_schema.get_or_init(|| KindSchema {
            group: entry.group.clone(),
            version: slot.name.clone(),
            kind: entry.kind.clone(),
            cluster_scoped: entry.cluster_scoped,
            status_subresource: slot.status_subresource,
            schema: self.compiled(slot.schema),
        }))
    }

    fn compiled(&self, index: usize) -> Arc<CompiledSchema> {
        match self.schemas.get(index) {
            Some(slot) => slot
                .compiled
                .get_or_init(|| Arc::new(compile_with(&slot.json, &slot.cel_limits)))
                .clone(),
            None => Arc::new(compile(&Value::Null)),
        }
    }
}

fn served_versions(e: &KindEntry) -> Vec<String> {
    e.versions
        .iter()
        .filter(|v| v.served)
        .map(|v| v.name.clone())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builtin_kinds_versions_and_groups() {
        let r = Registry::builtin();
        let found = |g, v, k| matches!(r.lookup(g, v, k), Lookup::Found(_));
        for (g, v, k) in [
            ("gateway.networking.k8s.io", "v1", "Gateway"),
            ("gateway.networking.k8s.io", "v1beta1", "Gateway"),
            ("gateway.networking.k8s.io", "v1", "HTTPRoute"),
            ("gateway.networking.k8s.io", "v1", "GRPCRoute"),
            ("gateway.networking.k8s.io", "v1beta1", "ReferenceGrant"),
            ("gateway.networking.k8s.io", "v1", "ReferenceGrant"),
            ("gateway.networking.k8s.io", "v1", "BackendTLSPolicy"),
            ("gateway.networking.k8s.io", "v1", "ListenerSet"),
            ("gateway.networking.k8s.io", "v1alpha2", "TCPRoute"),
            ("gateway.networking.k8s.io", "v1alpha2", "UDPRoute"),
            ("gateway.networking.k8s.io", "v1alpha3", "TLSRoute"),
            ("gateway.networking.k8s.io", "v1", "TLSRoute"),
            ("gateway.networking.x-k8s.io", "v1alpha1", "XListenerSet"),
            ("gateway.kgateway.dev", "v1alpha1", "Backend"),
            ("gateway.kgateway.dev", "v1alpha1", "BackendConfigPolicy"),
            ("gateway.kgateway.dev", "v1alpha1", "DirectResponse"),
            ("gateway.kgateway.dev", "v1alpha1", "GatewayExtension"),
            ("gateway.kgateway.dev", "v1alpha1", "GatewayParameters"),
            ("gateway.kgateway.dev", "v1alpha1", "HTTPListenerPolicy"),
            ("gateway.kgateway.dev", "v1alpha1", "ListenerPolicy"),
            ("gateway.kgateway.dev", "v1alpha1", "TrafficPolicy"),
            ("agentgateway.dev", "v1alpha1", "AiGatewayBackend"),
            ("agentgateway.dev", "v1alpha1", "AiGatewayPolicy"),
            ("", "v1", "Service"),
            ("", "v1", "Namespace"),
            ("", "v1", "Secret"),
            ("", "v1", "ConfigMap"),
        ] {
            assert!(found(g, v, k), "{g}/{v} {k}");
        }
        match r.lookup("gateway.networking.k8s.io", "v2", "HTTPRoute") {
            Lookup::UnknownVersion { known } => assert_eq!(known, ["v1", "v1beta1"]),
            _ => panic!("expected UnknownVersion"),
        }
        assert!(matches!(
            r.lookup("gateway.networking.k8s.io", "v1", "HttpRoute"),
            Lookup::UnknownKind
        ));
        assert!(matches!(
            r.lookup("agentgateway.dev", "v1alpha1", "AgentgatewayPolicy"),
            Lookup::UnknownKind
        ));
        assert!(matches!(
            r.lookup("agentgateway.dev", "v1alpha1", "AgentgatewayParameters"),
            Lookup::UnknownKind
        ));
        assert!(matches!(r.lookup("", "v1", "Pod"), Lookup::UnknownGroup));
        assert!(matches!(
            r.lookup("apps", "v1", "Deployment"),
            Lookup::UnknownGroup
        ));
        let Lookup::Found(gc) = r.lookup("gateway.networking.k8s.io", "v1", "GatewayClass") else {
            panic!("GatewayClass");
        };
        assert!(gc.cluster_scoped && gc.status_subresource);
        assert!(gc.schema.problems.is_empty(), "{:?}", gc.schema.problems);
    }

    #[test]
    fn group_names_are_a_parameter() {
        let r = Registry::with_groups(&ApiGroups {
            gateway: "gw.example.com".into(),
            ai: "ai.example.com".into(),
        });
        assert!(matches!(
            r.lookup("gw.example.com", "v1alpha1", "TrafficPolicy"),
            Lookup::Found(_)
        ));
        assert!(matches!(
            r.lookup("ai.example.com", "v1alpha1", "AiGatewayPolicy"),
            Lookup::Found(_)
        ));
        assert!(matches!(
            r.lookup("gateway.kgateway.dev", "v1alpha1", "TrafficPolicy"),
            Lookup::UnknownGroup
        ));
    }

    #[test]
    fn every_builtin_pattern_compiles() {
        let r = Registry::builtin();
        for (g, k, versions) in r.kinds() {
            for v in versions {
                if let Lookup::Found(s) = r.lookup(&g, &v, &k) {
                    assert!(
                        s.schema.problems.is_empty(),
                        "{k} {v}: {:?}",
                        s.schema.problems
                    );
                }
            }
        }
    }
}
