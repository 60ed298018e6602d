//! Finding, reading and checking the config file.

use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};

use globset::{GlobBuilder, GlobMatcher};

use super::{Config, IgnoreEntry, PolicyMerge, ValidationLevel};
use crate::diag::ResourceRef;
use crate::diag::{Diagnostic, Severity};
use crate::parse::{Limits, Node, parse_file};
use crate::rules;
use crate::rules::rule;
use crate::schema::KindSchema;
use crate::schema::compile::compile;
use crate::source::SourceFile;
use crate::validate::validate_yaml12_document;

/// Names looked for in each directory, in this order.
pub const CONFIG_FILE_NAMES: &[&str] = &["gwctl.yaml", ".gwctl.yaml"];

/// Its `severity` keys are generated from the rule declarations (`committed_schema_lists_every_rule`).
pub(super) const CONFIG_SCHEMA: &str = include_str!("../../schemas/config.json");

/// Why a config file cannot be used: a usage error (exit 2).
#[derive(Debug)]
pub enum ConfigError {
    /// The file could not be read.
    Unreadable(String),
    /// The file has findings; `file` is its text for the report.
    Invalid {
        file: Box<SourceFile>,
        diagnostics: Vec<Diagnostic>,
    },
}

/// The nearest config file in `start` or one of its ancestors.
pub fn discover(start: &Path) -> Option<PathBuf> {
    start.ancestors().find_map(|dir| {
        CONFIG_FILE_NAMES
            .iter()
            .map(|name| dir.join(name))
            .find(|p| p.is_file())
    })
}

/// Reads and checks a config file.
pub fn load_file(path: &Path) -> Result<Config, ConfigError> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| ConfigError::Unreadable(format!("{}: {e}", path.display())))?;
    let file = SourceFile::new(0, path.display().to_string(), text);
    match parse_config(&file) {
        Ok(mut config) => {
            // Its paths name files beside it, wherever gwctl runs.
            let dir = path.parent().unwrap_or(Path::new(""));
            config.crds = config.crds.iter().map(|p| dir.join(p)).collect();
            config.values = config.values.map(|p| dir.join(p));
            config.path = Some(path.to_path_buf());
            Ok(config)
        }
        Err(diagnostics) => Err(ConfigError::Invalid {
            file: Box::new(file),
            diagnostics,
        }),
    }
}

/// The settings of a config file's text, or its findings (errors and the warnings beside them).
pub fn parse_config(file: &SourceFile) -> Result<Config, Vec<Diagnostic>> {
    let parsed = parse_file(file, &Limits::default());
    let mut diags = parsed.diagnostics;
    let docs: Vec<&Node> = parsed.documents.iter().map(|d| &d.root).collect();
    if let Some(second) = docs.get(1) {
        diags.push(
            Diagnostic::new(rules::GW012, "a config file holds one YAML document")
                .at(file.id, second.span),
        );
    }
    let root = docs.first().copied();
    if let Some(root) = root.filter(|r| !matches!(r.value, crate::parse::Value::Null)) {
        let label = ResourceRef {
            kind: "gwctl config".to_string(),
            namespace: None,
            name: file.name.clone(),
        };
        // The config file is not a resource: its findings name the file, not an object.
        let mut found = validate_yaml12_document(file, root, config_schema(), label);
        for d in &mut found {
            d.resource = None;
        }
        diags.extend(found);
        check_codes(file, root, &mut diags);
    }
    let mut config = Config::default();
    if let Some(root) = root {
        extract(file, root, &mut config, &mut diags);
    }
    if diags.iter().any(|d| d.severity == Severity::Error) {
        diags.sort_by_key(|d| d.location.as_ref().map(|l| l.span.start));
        return Err(diags);
    }
    Ok(config)
}

fn config_schema() -> &'static KindSchema {
    static SCHEMA: OnceLock<KindSchema> = OnceLock::new();
    SCHEMA.get_or_init(|| {
        // Part of the build and tested (`config_schema_parses`); an unparsable one checks nothing.
        let json = serde_json::from_str(CONFIG_SCHEMA).unwrap_or(serde_json::Value::Null);
        KindSchema {
            group: "gwctl.dev".to_string(),
            version: "v1".to_string(),
            kind: "Config".to_string(),
            cluster_scoped: true,
            status_subresource: false,
            schema: Arc::new(compile(&json)),
        }
    })
}

#[cfg(test)]
pub(super) fn schema_parses() -> bool {
    serde_json::from_str::<serde_json::Value>(CONFIG_SCHEMA).is_ok()
}

/// Rule codes must exist: the schema only checks their shape.
fn check_codes(file: &SourceFile, root: &Node, diags: &mut Vec<Diagnostic>) {
    let unknown = |code: &str, span, path: String, diags: &mut Vec<Diagnostic>| {
        if rule(code).is_some() || !code.starts_with("GW") {
            return;
        }
        let mut d = Diagnostic::new(
            rules::GW012,
            format!("{path}: no rule has the code {code:?}"),
        )
        .at(file.id, span)
        .with_path(path);
        if let Some(near) = nearest_code(code) {
            d = d.with_help(format!("did you mean {near:?}?"));
        }
        diags.push(d);
    };
    if let Some(entries) = root.get("severity").and_then(Node::as_map) {
        for e in entries {
            if !e.key.starts_with("GW") {
                diags.push(
                    Diagnostic::new(rules::GW012, format!("severity.{}: not a rule code", e.key))
                        .at(file.id, e.key_span)
                        .with_path(format!("severity.{}", e.key))
                        .with_help("keys are rule codes such as GW101 (`gwctl rules` lists them)"),
                );
            }
            unknown(&e.key, e.key_span, format!("severity.{}", e.key), diags);
        }
    }
    if let Some(items) = root.get("ignore").and_then(Node::as_seq) {
        for (i, item) in items.iter().enumerate() {
            if let Some(code) = item.get("code").filter(|c| c.as_str().is_some()) {
                let text = code.as_str().unwrap_or_default();
                unknown(text, code.span, format!("ignore[{i}].code"), diags);
            }
        }
    }
}

fn nearest_code(code: &str) -> Option<&'static str> {
    rules::all()
        .map(|r| (strsim::levenshtein(code, r.code.as_str()), r.code.as_str()))
        .filter(|(d, _)| *d <= 1)
        .min()
        .map(|(_, c)| c)
}

/// Copies validated values into `config`; values of the wrong shape were reported already.
fn extract(file: &SourceFile, root: &Node, config: &mut Config, diags: &mut Vec<Diagnostic>) {
    let text = |path: &[&str]| -> Option<String> {
        let mut node = root;
        for key in path {
            node = node.get(key)?;
        }
        node.as_str().map(str::to_string)
    };
    if let Some(entries) = root.get("severity").and_then(Node::as_map) {
        for e in entries {
            let level = match e.value.as_str() {
                Some("error") => Some(Severity::Error),
                Some("warning") => Some(Severity::Warning),
                Some("info") => Some(Severity::Info),
                Some("off") => None,
                _ => continue,
            };
            config.severity.insert(e.key.to_string(), level);
        }
    }
    for (i, item) in root
        .get("ignore")
        .and_then(Node::as_seq)
        .unwrap_or_default()
        .iter()
        .enumerate()
    {
        let Some(code) = item.get("code").and_then(Node::as_str) else {
            continue;
        };
        let mut glob = |key: &str| {
            let node = item.get(key)?;
            let pattern = node.as_str()?;
            match matcher(pattern) {
                Ok(m) => Some(m),
                Err(e) => {
                    diags.push(
                        Diagnostic::new(
                            rules::GW012,
                            format!("ignore[{i}].{key}: invalid glob: {e}"),
                        )
                        .at(file.id, node.span)
                        .with_path(format!("ignore[{i}].{key}")),
                    );
                    None
                }
            }
        };
        let resource = glob("resource");
        let path = glob("path");
        config.ignore.push(IgnoreEntry {
            code: code.to_string(),
            resource,
            path,
        });
    }
    if let Some(g) = text(&["apiGroups", "gateway"]) {
        config.api_groups.gateway = g;
    }
    if let Some(g) = text(&["apiGroups", "ai"]) {
        config.api_groups.ai = g;
    }
    if let Some(c) = text(&["controllers", "proxy"]) {
        config.controllers.proxy = c;
    }
    if let Some(c) = text(&["controllers", "ai"]) {
        config.controllers.ai = c;
    }
    if let Some(d) = text(&["clusterDomain"]) {
        config.cluster_domain = d;
    }
    if text(&["validation", "level"]).as_deref() == Some("strict") {
        config.validation_level = ValidationLevel::Strict;
    }
    let deep = |field: &str| {
        text(&["policyMerge", "trafficPolicy", field]).as_deref() == Some("DeepMerge")
    };
    config.policy_merge = PolicyMerge {
        ext_auth_deep: deep("extAuth"),
        ext_proc_deep: deep("extProc"),
        transformation_deep: deep("transformation"),
    };
    config.global_policy_namespace = text(&["globalPolicyNamespace"]);
    config.weighted_route_precedence = matches!(
        root.get("weightedRoutePrecedence").map(|n| &n.value),
        Some(crate::parse::Value::Bool(true))
    );
    let globs = |key: &str| -> Vec<String> {
        root.get(key)
            .and_then(Node::as_seq)
            .unwrap_or_default()
            .iter()
            .filter_map(|n| n.as_str().map(str::to_string))
            .collect()
    };
    config.include = globs("include");
    config.exclude = globs("exclude");
    config.crds = globs("crds").into_iter().map(PathBuf::from).collect();
    config.values = text(&["values"]).map(PathBuf::from);
}

/// `*` does not cross `/` (resource segments, path components); `**` does.
pub(crate) fn matcher(pattern: &str) -> Result<GlobMatcher, globset::Error> {
    GlobBuilder::new(pattern)
        .literal_separator(true)
        .build()
        .map(|g| g.compile_matcher())
}
