//! `--values FILE` (decisions.md section 9): the control-plane chart's values, checked against
//! `schemas/chart-values.json` (written from the installation-values table of the spec) by the
//! structural walk, plus the rules a schema cannot say: `validation.level` in any case,
//! inference routing without the AI gateway, xDS TLS without its Secret in the inputs.

use std::sync::{Arc, OnceLock};

use crate::diag::{Diagnostic, ResourceRef};
use crate::parse::{Node, Value};
use crate::rules;
use crate::schema::KindSchema;
use crate::schema::compile::compile;
use crate::source::{FileId, SourceFile, Span};

use super::messages::go_quote;

const SCHEMA: &str = include_str!("../../schemas/chart-values.json");

/// The Secret the xDS servers read when `controller.xds.tls.enabled` is true. The spec names it
/// only by a placeholder; this is the control plane's name for it (kgateway v2.2).
pub const XDS_CERT_SECRET: &str = "kgateway-xds-cert";
const XDS_CERT_KEYS: &[&str] = &["tls.crt", "tls.key", "ca.crt"];

/// A Secret found among the linted manifests (for the xDS TLS rule).
#[derive(Debug, Clone)]
pub struct SecretSeen {
    pub file: FileId,
    pub span: Span,
    pub name: String,
    pub namespace: Option<String>,
    pub type_: Option<String>,
    /// Keys of `data` and `stringData`.
    pub keys: Vec<String>,
}

impl SecretSeen {
    /// The Secret described by a resource's tree, when it is one.
    pub fn of(file: FileId, root: &Node, name: &str, namespace: Option<&str>) -> SecretSeen {
        let mut keys = Vec::new();
        for field in ["data", "stringData"] {
            if let Some(entries) = root.get(field).and_then(Node::as_map) {
                keys.extend(entries.iter().map(|e| e.key.to_string()));
            }
        }
        let span = root
            .get("metadata")
            .and_then(|m| m.get("name"))
            .map_or(root.span, |n| n.span);
        SecretSeen {
            file,
            span,
            name: name.to_string(),
            namespace: namespace.map(str::to_string),
            type_: root.get("type").and_then(Node::as_str).map(str::to_string),
            keys,
        }
    }
}

/// The compiled values schema (built into the binary; compiled on first use).
pub fn schema() -> &'static KindSchema {
    static S: OnceLock<KindSchema> = OnceLock::new();
    S.get_or_init(|| {
        // The file is part of the build and tested; an unparsable one would check nothing.
        let json = serde_json::from_str(SCHEMA).unwrap_or(serde_json::Value::Null);
        KindSchema {
            group: String::new(),
            version: String::new(),
            kind: "values".to_string(),
            cluster_scoped: true,
            status_subresource: false,
            schema: Arc::new(compile(&json)),
        }
    })
}

/// All findings of a values document. `secrets` are the Secrets of the other inputs.
pub fn check(file: &SourceFile, root: &Node, secrets: &[SecretSeen]) -> Vec<Diagnostic> {
    let label = ResourceRef {
        kind: "values".to_string(),
        namespace: None,
        name: file.name.clone(),
    };
    if matches!(root.value, Value::Null) {
        return Vec::new();
    }
    let mut out = super::validate_document(file, root, schema(), label.clone());
    let finder = Finder {
        file,
        label: &label,
    };
    out.extend(level_in_any_case(&finder, root));
    out.extend(inference_routing_without_ai_gateway(&finder, root));
    out.extend(xds_tls_without_its_secret(&finder, root, secrets));
    out
}

/// Makes the values document's findings: in its file, with the document as their resource.
struct Finder<'a> {
    file: &'a SourceFile,
    label: &'a ResourceRef,
}

impl Finder<'_> {
    fn at(&self, code: rules::Code, node: &Node, path: &str, message: String) -> Diagnostic {
        Diagnostic::new(code, message)
            .at(self.file.id, node.span)
            .with_resource(Some(self.label.clone()))
            .with_path(path)
    }
}

/// A boolean setting, when it is set to a boolean.
fn flag(root: &Node, path: &str) -> Option<bool> {
    match root.lookup(path).map(|n| &n.value) {
        Some(Value::Bool(b)) => Some(*b),
        _ => None,
    }
}

/// `validation.level` is `standard` or `strict`, in any case (which the schema's enum cannot say).
fn level_in_any_case(finder: &Finder<'_>, root: &Node) -> Option<Diagnostic> {
    let level = root.lookup("validation.level")?;
    let text = level.as_str()?;
    if ["standard", "strict"].contains(&text.to_ascii_lowercase().as_str()) {
        return None;
    }
    Some(finder.at(
        rules::GW104,
        level,
        "validation.level",
        format!(
            "validation.level: Unsupported value: {}: supported values: \"standard\", \"strict\" (in any case)",
            go_quote(text)
        ),
    ))
}

/// Inference routing with the AI gateway explicitly disabled.
fn inference_routing_without_ai_gateway(finder: &Finder<'_>, root: &Node) -> Option<Diagnostic> {
    if flag(root, "inferenceRouting.enabled") != Some(true)
        || flag(root, "aiGateway.enabled") != Some(false)
    {
        return None;
    }
    let node = root.lookup("inferenceRouting.enabled")?;
    let mut d = finder.at(
        rules::GW125,
        node,
        "inferenceRouting.enabled",
        "inferenceRouting.enabled: inference routing without the AI gateway (aiGateway.enabled is false) is deprecated in v2.1 and unsupported in v2.2".to_string(),
    )
    .with_help("set aiGateway.enabled to true, or disable inferenceRouting");
    if let Some(ai) = root.lookup("aiGateway.enabled") {
        d = d.with_related(finder.file.id, ai.span, "the AI gateway is disabled here");
    }
    Some(d)
}

/// xDS TLS enabled without a usable xDS certificate Secret among the inputs.
fn xds_tls_without_its_secret(
    finder: &Finder<'_>,
    root: &Node,
    secrets: &[SecretSeen],
) -> Option<Diagnostic> {
    let path = "controller.xds.tls.enabled";
    if flag(root, path) != Some(true) {
        return None;
    }
    let node = root.lookup(path)?;
    let Some(secret) = secrets.iter().find(|s| s.name == XDS_CERT_SECRET) else {
        return Some(
            finder
                .at(
                    rules::GW126,
                    node,
                    path,
                    format!(
                        "{path}: xDS TLS needs the Secret {} (type kubernetes.io/tls, keys tls.crt, tls.key, ca.crt) in the installation namespace; it is not in the inputs",
                        go_quote(XDS_CERT_SECRET)
                    ),
                )
                .with_help("add the Secret to the linted manifests, or ignore GW126 if it is created elsewhere"),
        );
    };
    let problems = xds_secret_problems(secret)?;
    Some(
        finder
            .at(
                rules::GW126,
                node,
                path,
                format!(
                    "{path}: the Secret {} cannot serve xDS TLS: {problems}",
                    go_quote(XDS_CERT_SECRET)
                ),
            )
            .with_related(secret.file, secret.span, "the Secret"),
    )
}

/// Why the xDS certificate Secret cannot serve (wrong type, missing keys); None when it can.
fn xds_secret_problems(secret: &SecretSeen) -> Option<String> {
    let missing: Vec<&str> = XDS_CERT_KEYS
        .iter()
        .copied()
        .filter(|k| !secret.keys.iter().any(|s| s == k))
        .collect();
    let wrong_type = secret.type_.as_deref() != Some("kubernetes.io/tls");
    if missing.is_empty() && !wrong_type {
        return None;
    }
    let mut problems = Vec::new();
    if wrong_type {
        problems.push("its type is not kubernetes.io/tls".to_string());
    }
    if !missing.is_empty() {
        problems.push(format!("it lacks the keys {}", missing.join(", ")));
    }
    Some(problems.join("; "))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse::{Limits, parse_file};
    use crate::validate::tests::render;

    fn lint_values(yaml: &str, secrets: &[SecretSeen]) -> Vec<String> {
        let file = SourceFile::new(0, "values.yaml", yaml);
        let parsed = parse_file(&file, &Limits::default());
        assert!(parsed.diagnostics.is_empty(), "{:?}", parsed.diagnostics);
        let mut out = check(&file, &parsed.documents[0].root, secrets);
        out.sort_by_key(|d| d.location.as_ref().map(|l| l.span.start));
        render(&file, &out)
    }

    #[test]
    fn the_schema_compiles() {
        assert!(
            schema().schema.problems.is_empty(),
            "{:?}",
            schema().schema.problems
        );
    }

    #[test]
    fn valid_values() {
        let yaml = "\
controller:
  replicaCount: 2
  service: {type: ClusterIP, ports: {grpc: 9977}}
  strategy: {type: RollingUpdate, rollingUpdate: {maxSurge: 25%}}
  extraEnv: {ANY: thing}
validation: {level: STRICT}
discoveryNamespaceSelectors:
- matchLabels: {team: a}
- matchExpressions: [{key: env, operator: In, values: [prod]}]
gatewayClassParametersRefs:
  proxy: {name: p, namespace: ns}
policyMerge: {trafficPolicy: {extProc: DeepMerge}}
inferenceRouting: {enabled: true}
global: {anything: 1}
";
        assert_eq!(lint_values(yaml, &[]), Vec::<String>::new());
    }

    #[test]
    fn unknown_keys_types_enums_and_level() {
        let yaml = "\
controler: {}
controller:
  replicaCount: two
  service: {type: Internal}
validation: {level: lenient}
gatewayClassParametersRefs:
  proxy: {name: p}
";
        assert_eq!(
            lint_values(yaml, &[]),
            [
                r#"1:1 GW101 unknown field "controler" [did you mean "controller"?]"#,
                r#"3:17 GW103 controller.replicaCount: Invalid value: "string": controller.replicaCount in body must be of type integer: "string""#,
                r#"4:19 GW104 controller.service.type: Unsupported value: "Internal": supported values: "ClusterIP", "NodePort", "LoadBalancer""#,
                r#"5:21 GW104 validation.level: Unsupported value: "lenient": supported values: "standard", "strict" (in any case)"#,
                "7:3 GW102 gatewayClassParametersRefs.proxy.namespace: Required value",
            ]
        );
    }

    #[test]
    fn inference_routing_needs_the_ai_gateway() {
        let yaml = "aiGateway: {enabled: false}\ninferenceRouting:\n  enabled: true\n";
        assert_eq!(
            lint_values(yaml, &[]),
            [
                "3:12 GW125 inferenceRouting.enabled: inference routing without the AI gateway (aiGateway.enabled is false) is deprecated in v2.1 and unsupported in v2.2 [set aiGateway.enabled to true, or disable inferenceRouting]"
            ]
        );
    }

    #[test]
    fn xds_tls_needs_its_secret() {
        let yaml = "controller: {xds: {tls: {enabled: true}}}\n";
        let found = lint_values(yaml, &[]);
        assert_eq!(
            found,
            [
                r#"1:35 GW126 controller.xds.tls.enabled: xDS TLS needs the Secret "kgateway-xds-cert" (type kubernetes.io/tls, keys tls.crt, tls.key, ca.crt) in the installation namespace; it is not in the inputs [add the Secret to the linted manifests, or ignore GW126 if it is created elsewhere]"#
            ]
        );
        let mut secret = SecretSeen {
            file: 1,
            span: Span::new(0, 1),
            name: XDS_CERT_SECRET.to_string(),
            namespace: Some("gw".to_string()),
            type_: Some("kubernetes.io/tls".to_string()),
            keys: vec!["tls.crt".into(), "tls.key".into(), "ca.crt".into()],
        };
        assert_eq!(
            lint_values(yaml, std::slice::from_ref(&secret)),
            Vec::<String>::new()
        );
        secret.keys.pop();
        assert_eq!(
            lint_values(yaml, &[secret]),
            [
                r#"1:35 GW126 controller.xds.tls.enabled: the Secret "kgateway-xds-cert" cannot serve xDS TLS: it lacks the keys ca.crt"#
            ]
        );
    }
}
