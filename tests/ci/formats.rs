//! `--format gitlab` and `--format rdjson` on real lint output: valid against the consumers'
//! vendored schemas (tests/fixtures/schemas, see SOURCE.md there), fingerprints stable and
//! distinct, the same exit codes as every other format.

use std::collections::HashSet;
use std::path::Path;

use serde_json::Value;

use crate::support::*;

fn schema(file: &str) -> (boon::Schemas, boon::SchemaIndex) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/schemas")
        .join(file);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let value: Value =
        serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let url = format!("file:///fixtures/{file}");
    let mut schemas = boon::Schemas::new();
    let mut compiler = boon::Compiler::new();
    compiler
        .add_resource(&url, value)
        .unwrap_or_else(|e| panic!("{file}: {e}"));
    let index = compiler
        .compile(&url, &mut schemas)
        .unwrap_or_else(|e| panic!("{file}: {e:#}"));
    (schemas, index)
}

fn lint_invalid(format: &str) -> Value {
    let mut cmd = gwctl();
    cmd.current_dir(env!("CARGO_MANIFEST_DIR")).args([
        "lint",
        "--format",
        format,
        "testdata/invalid",
    ]);
    json_of(&mut cmd, 1)
}

/// The keys of every object in `value`, with their paths, that `allowed` does not list for that
/// path's shape: reviewdog's protobuf parser rejects undeclared fields, which the schema permits.
fn undeclared_keys(
    value: &Value,
    path: &str,
    allowed: &dyn Fn(&str) -> &'static [&'static str],
) -> Vec<String> {
    let mut out = Vec::new();
    match value {
        Value::Object(map) => {
            let keys = allowed(path);
            for (k, v) in map {
                if !keys.contains(&k.as_str()) {
                    out.push(format!("{path}.{k}"));
                }
                out.extend(undeclared_keys(v, &format!("{path}.{k}"), allowed));
            }
        }
        Value::Array(items) => {
            for v in items {
                out.extend(undeclared_keys(v, &format!("{path}[]"), allowed));
            }
        }
        _ => {}
    }
    out
}

#[test]
fn gitlab_report_validates_against_gitlabs_schema() {
    let report = lint_invalid("gitlab");
    let issues = report.as_array().expect("a JSON array of issues");
    assert!(issues.len() > 10, "{report}");
    let (schemas, index) = schema("gitlab-codeclimate.json");
    for issue in issues {
        if let Err(e) = schemas.validate(issue, index) {
            panic!("{issue}: {e:#}");
        }
        // Required by GitLab's documentation beyond the schema.
        assert!(
            issue["check_name"]
                .as_str()
                .is_some_and(|c| c.starts_with("GW")),
            "{issue}"
        );
        assert!(issue["location"]["path"].is_string(), "{issue}");
        let begin = issue["location"]["lines"]["begin"]
            .as_u64()
            .expect("lines.begin");
        assert!(begin >= 1, "{issue}");
        assert!(
            ["info", "minor", "major", "critical", "blocker"]
                .contains(&issue["severity"].as_str().unwrap_or_default()),
            "{issue}"
        );
    }
    // The schema itself must be able to fail.
    let broken = serde_json::json!({"description": "x", "severity": "major", "location": {}});
    assert!(schemas.validate(&broken, index).is_err());
}

#[test]
fn gitlab_fingerprints_are_stable_and_distinct() {
    let first = lint_invalid("gitlab");
    let second = lint_invalid("gitlab");
    let prints = |r: &Value| -> Vec<String> {
        r.as_array()
            .expect("array")
            .iter()
            .map(|i| i["fingerprint"].as_str().expect("fingerprint").to_string())
            .collect()
    };
    assert_eq!(
        prints(&first),
        prints(&second),
        "fingerprints changed between runs"
    );
    let all = prints(&first);
    let distinct: HashSet<&String> = all.iter().collect();
    assert_eq!(
        distinct.len(),
        all.len(),
        "two findings share a fingerprint: {all:?}"
    );
}

#[test]
fn gitlab_fingerprint_survives_a_line_inserted_above() {
    let route = "\
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata:
  name: web
spec:
  foo: 1
";
    let shifted = format!("# a comment\n\n{route}");
    let print = |text: &str| {
        let dir = dir_with(&[("route.yaml", text.as_bytes())]);
        let mut cmd = gwctl();
        cmd.current_dir(dir.path())
            .args(["lint", "--format", "gitlab", "route.yaml"]);
        let report = json_of(&mut cmd, 1);
        let issue = report
            .as_array()
            .and_then(|a| a.iter().find(|i| i["check_name"] == "GW101").cloned())
            .unwrap_or_else(|| panic!("no GW101: {report}"));
        (
            issue["fingerprint"]
                .as_str()
                .unwrap_or_default()
                .to_string(),
            issue["location"]["lines"]["begin"].as_u64(),
        )
    };
    let (before, line_before) = print(route);
    let (after, line_after) = print(&shifted);
    assert_eq!((line_before, line_after), (Some(6), Some(8)));
    assert_eq!(before, after);
}

#[test]
fn rdjson_report_validates_against_reviewdogs_schema() {
    let report = lint_invalid("rdjson");
    let (schemas, index) = schema("reviewdog-DiagnosticResult.json");
    if let Err(e) = schemas.validate(&report, index) {
        panic!("{report}: {e:#}");
    }
    let diagnostics = report["diagnostics"].as_array().expect("diagnostics");
    assert!(diagnostics.len() > 10, "{report}");
    let allowed = |path: &str| -> &'static [&'static str] {
        match path {
            "$" => &["diagnostics", "source", "severity"],
            "$.source" => &["name", "url"],
            "$.diagnostics[]" => &[
                "message",
                "location",
                "severity",
                "source",
                "code",
                "suggestions",
                "original_output",
            ],
            "$.diagnostics[].location" => &["path", "range"],
            "$.diagnostics[].location.range" => &["start", "end"],
            "$.diagnostics[].location.range.start"
            | "$.diagnostics[].location.range.end"
            | "$.diagnostics[].suggestions[].range.start"
            | "$.diagnostics[].suggestions[].range.end" => &["line", "column"],
            "$.diagnostics[].suggestions[]" => &["range", "text"],
            "$.diagnostics[].suggestions[].range" => &["start", "end"],
            "$.diagnostics[].code" => &["value", "url"],
            _ => &[],
        }
    };
    assert_eq!(
        undeclared_keys(&report, "$", &allowed),
        Vec::<String>::new()
    );
    let broken = serde_json::json!({"diagnostics": [{"severity": "FATAL"}]});
    assert!(schemas.validate(&broken, index).is_err());
}

#[test]
fn rdjson_columns_count_bytes() {
    // `é` is two bytes: the unknown field after it starts at character 10 but byte 11.
    let route = "\
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata:
  name: web
spec:
  {a: é, foo: 1}
";
    let dir = dir_with(&[("route.yaml", route.as_bytes())]);
    let mut cmd = gwctl();
    cmd.current_dir(dir.path())
        .args(["lint", "--format", "rdjson", "route.yaml"]);
    let report = json_of(&mut cmd, 1);
    let d = report["diagnostics"]
        .as_array()
        .and_then(|a| {
            a.iter()
                .find(|d| {
                    d["code"]["value"] == "GW101"
                        && d["message"].as_str().is_some_and(|m| m.contains("foo"))
                })
                .cloned()
        })
        .unwrap_or_else(|| panic!("no GW101 on foo: {report}"));
    assert_eq!(
        d["location"],
        serde_json::json!({"path": "route.yaml", "range": {"start": {"line": 6, "column": 11}, "end": {"line": 6, "column": 14}}})
    );
    assert_eq!(d["severity"], "ERROR");
    assert_eq!(
        d["code"]["url"],
        format!("{}#gw101", gwctl::report::RULES_DOC_URL)
    );
}

#[test]
fn new_formats_have_the_same_exit_codes() {
    let clean = dir_with(&[("route.yaml", VALID_ROUTE.as_bytes())]);
    let bad = dir_with(&[("route.yaml", UNKNOWN_FIELD.as_bytes())]);
    let warning = dir_with(&[("gw.yaml", YAML11_BOOLEAN.as_bytes())]);
    for format in ["gitlab", "rdjson"] {
        let lint = |dir: &Path, extra: &[&str], code: i32| {
            let mut cmd = gwctl();
            cmd.args(["lint", "--format", format]).args(extra).arg(dir);
            json_of(&mut cmd, code)
        };
        let empty = lint(clean.path(), &[], 0);
        assert!(
            empty.as_array().is_some_and(Vec::is_empty)
                || empty["diagnostics"].as_array().is_some_and(Vec::is_empty),
            "{format}: {empty}"
        );
        lint(bad.path(), &[], 1);
        lint(warning.path(), &[], 0);
        lint(warning.path(), &["--fail-on", "warning"], 1);
        lint(&clean.path().join("missing.yaml"), &[], 2);
    }
}
