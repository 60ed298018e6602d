//! Unit tests of config parsing; discovery and the CLI flag are tested in tests/config.rs.

use super::load::{CONFIG_SCHEMA, schema_parses};
use super::{Config, ValidationLevel, parse_config};
use crate::diag::Severity;
use crate::source::SourceFile;

fn parse(text: &str) -> Result<Config, Vec<String>> {
    let file = SourceFile::new(0, "gwctl.yaml", text);
    parse_config(&file).map_err(|diags| {
        diags
            .iter()
            .map(|d| {
                let lc = d.location.as_ref().map(|l| file.line_col(l.span.start));
                let pos = lc.map_or(String::new(), |lc| format!("{}:{} ", lc.line, lc.column));
                let help = d
                    .help
                    .as_deref()
                    .map_or(String::new(), |h| format!(" ({h})"));
                format!("{pos}{} {}{help}", d.code, d.message)
            })
            .collect()
    })
}

#[test]
fn config_schema_parses() {
    assert!(schema_parses());
}

#[test]
fn empty_file_is_the_defaults() {
    let c = parse("# nothing yet\n").expect("valid");
    assert_eq!(c.api_groups.gateway, "gateway.kgateway.dev");
    assert_eq!(c.controllers.ai, "agentgateway.dev/agentgateway");
    assert_eq!(c.cluster_domain, "kubernetes.io");
    assert_eq!(c.validation_level, ValidationLevel::Standard);
    assert!(!c.weighted_route_precedence);
}

#[test]
fn every_key_is_read() {
    let c = parse(
        "severity: {GW110: error, GW008: off, GW101: info}
ignore:
- code: GW101
  resource: HTTPRoute/shop/*
  path: legacy/**
- code: GW110
apiGroups: {gateway: gw.example.com, ai: ai.example.com}
controllers: {proxy: example.com/proxy, ai: example.com/ai}
clusterDomain: example.org
validation: {level: strict}
policyMerge: {trafficPolicy: {extAuth: DeepMerge, extProc: ShallowMerge, transformation: DeepMerge}}
globalPolicyNamespace: gateway-system
weightedRoutePrecedence: true
include: ['**/*.yaml']
exclude: [vendor/**]
crds: [crds, /opt/crds/extra.yaml]
values: chart/values.yaml
",
    )
    .expect("valid");
    assert_eq!(c.severity.get("GW110"), Some(&Some(Severity::Error)));
    assert_eq!(c.severity.get("GW008"), Some(&None));
    assert_eq!(c.severity.get("GW101"), Some(&Some(Severity::Info)));
    assert_eq!(c.ignore.len(), 2);
    let first = &c.ignore[0];
    assert_eq!(first.code, "GW101");
    let resource = first.resource.as_ref().expect("resource glob");
    assert!(resource.is_match("HTTPRoute/shop/web"));
    assert!(!resource.is_match("HTTPRoute/other/web"));
    assert!(!resource.is_match("HTTPRoute/shop/a/b"));
    assert!(
        first
            .path
            .as_ref()
            .is_some_and(|p| p.is_match("legacy/a/b.yaml"))
    );
    assert!(c.ignore[1].resource.is_none() && c.ignore[1].path.is_none());
    assert_eq!(c.api_groups.gateway, "gw.example.com");
    assert_eq!(c.api_groups.ai, "ai.example.com");
    assert_eq!(c.controllers.proxy, "example.com/proxy");
    assert_eq!(c.controllers.ai, "example.com/ai");
    assert_eq!(c.cluster_domain, "example.org");
    assert_eq!(c.validation_level, ValidationLevel::Strict);
    assert!(c.policy_merge.ext_auth_deep);
    assert!(!c.policy_merge.ext_proc_deep);
    assert!(c.policy_merge.transformation_deep);
    assert_eq!(c.global_policy_namespace.as_deref(), Some("gateway-system"));
    assert!(c.weighted_route_precedence);
    assert_eq!(c.include, ["**/*.yaml"]);
    assert_eq!(c.exclude, ["vendor/**"]);
    // As written: `load_file` puts them beside the config file (tests/config.rs).
    let crds: Vec<&str> = c.crds.iter().filter_map(|p| p.to_str()).collect();
    assert_eq!(crds, ["crds", "/opt/crds/extra.yaml"]);
    assert_eq!(
        c.values.as_deref(),
        Some(std::path::Path::new("chart/values.yaml"))
    );
}

#[test]
fn unknown_keys_are_errors_with_positions_and_suggestions() {
    let errors = parse("apiGroup:\n  gateway: x\nvalidation: {levle: strict}\n").unwrap_err();
    assert_eq!(
        errors,
        [
            r#"1:1 GW101 unknown field "apiGroup" (did you mean "apiGroups"?)"#,
            r#"3:14 GW101 unknown field "validation.levle" (did you mean "level"?)"#,
        ]
    );
}

#[test]
fn wrong_values_are_errors() {
    let errors = parse(
        "severity: {GW110: fatal}\nignore:\n- resource: x\n- code: GW1O1\nvalidation: {level: lax}\ninclude: vendor\n",
    )
    .unwrap_err();
    let text = errors.join("\n");
    for expected in [
        r#"1:19 GW104 severity.GW110: Unsupported value: "fatal""#,
        "3:3 GW102 ignore[0].code: Required value",
        "4:9 GW105 ignore[1].code",
        r#"5:21 GW104 validation.level: Unsupported value: "lax""#,
        "6:10 GW103 include: Invalid value",
    ] {
        assert!(text.contains(expected), "{expected} not in\n{text}");
    }
}

#[test]
fn unknown_codes_and_bad_globs_are_gw012() {
    let errors =
        parse("severity: {GW1011: off}\nignore:\n- {code: GW999}\n- {code: GW101, path: 'a[b'}\n")
            .unwrap_err();
    let text = errors.join("\n");
    assert!(
        text.contains(
            "1:12 GW012 severity.GW1011: no rule has the code \"GW1011\" (did you mean \"GW011\"?)"
        ),
        "{text}"
    );
    assert!(
        text.contains("3:10 GW012 ignore[0].code: no rule has the code \"GW999\""),
        "{text}"
    );
    assert!(
        text.contains("4:23 GW012 ignore[1].path: invalid glob"),
        "{text}"
    );
}

#[test]
fn syntax_errors_and_two_documents_are_errors() {
    assert!(parse("severity: [\n").unwrap_err()[0].contains("GW002"));
    assert!(parse("clusterDomain: a\n---\nclusterDomain: b\n").unwrap_err()[0].contains("GW012"));
}

#[test]
fn weighted_route_precedence_from_chart_values() {
    use super::weighted_route_precedence_in_values as on;
    let env = |v: serde_json::Value| serde_json::json!({"controller": {"extraEnv": {"KGW_WEIGHTED_ROUTE_PRECEDENCE": v}}});
    assert!(on(&env(serde_json::json!(true))));
    assert!(on(&env(serde_json::json!("true"))));
    assert!(!on(&env(serde_json::json!("false"))));
    assert!(!on(&serde_json::json!({"controller": {}})));
}

/// schemas/config.json names every declared rule under `severity` (for editors that complete keys
/// from the schema), each with the value schema of `additionalProperties`. Unknown codes stay
/// allowed by the schema: `check_codes` reports them as GW012 with "did you mean".
#[test]
fn committed_schema_lists_every_rule() {
    let committed: serde_json::Value = serde_json::from_str(CONFIG_SCHEMA).expect("parses");
    let mut fresh = committed.clone();
    let severity = &mut fresh["properties"]["severity"];
    let levels = severity["additionalProperties"].clone();
    let mut properties = serde_json::Map::new();
    for rule in crate::rules::all() {
        let mut schema = serde_json::json!({
            "description": format!("{}: {}", rule.name, rule.summary)
        });
        if let (Some(schema), Some(levels)) = (schema.as_object_mut(), levels.as_object()) {
            schema.extend(levels.clone());
        }
        properties.insert(rule.code.to_string(), schema);
    }
    severity["properties"] = serde_json::Value::Object(properties);
    if std::env::var_os("GWCTL_UPDATE_SCHEMAS").is_some() {
        let text = serde_json::to_string_pretty(&fresh).expect("serialises") + "\n";
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/schemas/config.json");
        std::fs::write(path, text).expect("writes schemas/config.json");
        return;
    }
    assert!(
        committed == fresh,
        "schemas/config.json is stale; regenerate with \
         `GWCTL_UPDATE_SCHEMAS=1 cargo test --lib committed_schema_lists_every_rule`"
    );
}

#[test]
fn a_plain_off_in_the_config_is_a_string_not_a_yaml_1_1_boolean() {
    // An error beside it, so that every finding of the file is returned: none is GW110.
    let errors =
        parse("severity: {GW008: off, GW101: yes}\nvalidation: {level: lax}\n").unwrap_err();
    assert_eq!(
        errors,
        [
            r#"1:31 GW104 severity.GW101: Unsupported value: "yes": supported values: "error", "warning", "info", "off""#,
            r#"2:21 GW104 validation.level: Unsupported value: "lax": supported values: "standard", "strict""#,
        ]
    );
}
