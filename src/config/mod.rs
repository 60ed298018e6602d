//! The config file (`gwctl.yaml` or `.gwctl.yaml`, found by walking up from the current
//! directory, or `--config FILE`). Read with our own parser and checked against
//! `schemas/config.json` by the schema engine, so its findings look like any manifest's.
//!
//! Keys used by later stages (groups, controllers, policy merge...) are parsed and kept here.

mod load;
#[cfg(test)]
mod tests;

use std::collections::BTreeMap;
use std::path::PathBuf;

use globset::GlobMatcher;

use crate::diag::Severity;

pub use load::{CONFIG_FILE_NAMES, ConfigError, discover, load_file, parse_config};

/// Settings from the config file; `Default` is the behaviour without one.
#[derive(Debug, Clone)]
pub struct Config {
    /// The file the settings came from, if any.
    pub path: Option<PathBuf>,
    /// Severity per rule code; `None` turns the rule off.
    pub severity: BTreeMap<String, Option<Severity>>,
    pub ignore: Vec<IgnoreEntry>,
    pub api_groups: ApiGroups,
    pub controllers: Controllers,
    /// Cluster domain of appProtocol values (`kubernetes.io/h2c`).
    pub cluster_domain: String,
    pub validation_level: ValidationLevel,
    pub policy_merge: PolicyMerge,
    /// A policy in this namespace attaches to targets in every namespace.
    pub global_policy_namespace: Option<String>,
    /// The controller setting WeightedRoutePrecedence: a virtual host's routes are ordered by
    /// their `kgateway.dev/route-weight` annotation (higher first) before match precedence.
    pub weighted_route_precedence: bool,
    /// Globs added to `--include` / `--exclude`.
    pub include: Vec<String>,
    pub exclude: Vec<String>,
    /// `crds` and `values`, relative to the config file's directory: used when the command
    /// line names none (`--crds`, `--values`), and by the language server.
    pub crds: Vec<PathBuf>,
    pub values: Option<PathBuf>,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            path: None,
            severity: BTreeMap::new(),
            ignore: Vec::new(),
            api_groups: ApiGroups::default(),
            controllers: Controllers::default(),
            cluster_domain: "kubernetes.io".to_string(),
            validation_level: ValidationLevel::Standard,
            policy_merge: PolicyMerge::default(),
            global_policy_namespace: None,
            weighted_route_precedence: false,
            include: Vec::new(),
            exclude: Vec::new(),
            crds: Vec::new(),
            values: None,
        }
    }
}

/// An `ignore` entry: findings of `code`, optionally only on matching resources and files.
#[derive(Debug, Clone)]
pub struct IgnoreEntry {
    pub code: String,
    /// Over `Kind/namespace/name` (`Kind/name` for objects without a namespace); `*` stays
    /// within one segment.
    pub resource: Option<GlobMatcher>,
    /// Over the file name as reported (leading `./` removed).
    pub path: Option<GlobMatcher>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ApiGroups {
    pub gateway: String,
    pub ai: String,
}

impl Default for ApiGroups {
    fn default() -> Self {
        ApiGroups {
            gateway: "gateway.kgateway.dev".to_string(),
            ai: "agentgateway.dev".to_string(),
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Controllers {
    pub proxy: String,
    pub ai: String,
}

/// The controllerName of the proxy-based data plane's GatewayClasses unless configured.
pub const DEFAULT_PROXY_CONTROLLER: &str = "kgateway.dev/kgateway";
/// The controllerName of the AI data plane's GatewayClasses unless configured.
pub const DEFAULT_AI_CONTROLLER: &str = "agentgateway.dev/agentgateway";

impl Default for Controllers {
    fn default() -> Self {
        Controllers {
            proxy: DEFAULT_PROXY_CONTROLLER.to_string(),
            ai: DEFAULT_AI_CONTROLLER.to_string(),
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ValidationLevel {
    #[default]
    Standard,
    Strict,
}

/// Which TrafficPolicy fields of policies on the same level are deep-merged.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct PolicyMerge {
    pub ext_auth_deep: bool,
    pub ext_proc_deep: bool,
    pub transformation_deep: bool,
}

/// Whether the control-plane chart's values (`--values`) turn WeightedRoutePrecedence on: the
/// controller reads it from `controller.extraEnv.KGW_WEIGHTED_ROUTE_PRECEDENCE`.
pub fn weighted_route_precedence_in_values(values: &serde_json::Value) -> bool {
    match values.pointer("/controller/extraEnv/KGW_WEIGHTED_ROUTE_PRECEDENCE") {
        Some(serde_json::Value::Bool(on)) => *on,
        Some(serde_json::Value::String(text)) => text.eq_ignore_ascii_case("true"),
        _ => false,
    }
}
