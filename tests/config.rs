//! The binary with a config file, suppression annotations, every output format and `--output`.

use std::path::Path;

use predicates::prelude::*;

#[allow(dead_code)]
#[path = "cli/support.rs"]
mod support;

use support::*;

/// An HTTPRoute in namespace `shop` with an unknown field (GW101, an error).
const SHOP_ROUTE: &str = "\
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata:
  name: web
  namespace: shop
spec:
  parentRefs:
  - name: gw
  legacy: true
";

fn codes(json: &serde_json::Value, key: &str) -> Vec<String> {
    json[key]
        .as_array()
        .map(|a| {
            a.iter()
                .map(|f| {
                    format!(
                        "{} {}",
                        f["code"].as_str().unwrap_or(""),
                        f["severity"].as_str().unwrap_or("")
                    )
                })
                .collect()
        })
        .unwrap_or_default()
}

#[test]
fn config_is_found_by_walking_up_from_the_current_directory() {
    for name in ["gwctl.yaml", ".gwctl.yaml"] {
        let dir = dir_with(&[
            (name, b"severity: {GW101: warning}\n"),
            ("deploy/apps/route.yaml", SHOP_ROUTE.as_bytes()),
        ]);
        let json = json_of(
            gwctl()
                .current_dir(dir.path().join("deploy/apps"))
                .args(["lint", "--format", "json", "."]),
            0,
        );
        assert_eq!(codes(&json, "findings"), ["GW101 warning"], "{name}");
    }
}

#[test]
fn explicit_config_wins_over_discovery() {
    let dir = dir_with(&[
        ("gwctl.yaml", b"severity: {GW101: warning}\n"),
        ("other.yaml", b"severity: {GW101: info}\n"),
        ("route.yaml", SHOP_ROUTE.as_bytes()),
    ]);
    let json = json_of(
        gwctl().current_dir(dir.path()).args([
            "lint",
            "--format",
            "json",
            "--config",
            "other.yaml",
            "route.yaml",
        ]),
        0,
    );
    assert_eq!(codes(&json, "findings"), ["GW101 info"]);
}

#[test]
fn severity_off_and_ignore_entries_suppress() {
    let configs: [(&str, bool); 6] = [
        ("severity: {GW101: off}\n", true),
        ("ignore: [{code: GW101}]\n", true),
        (
            "ignore: [{code: GW101, resource: 'HTTPRoute/shop/*'}]\n",
            true,
        ),
        (
            "ignore: [{code: GW101, resource: 'HTTPRoute/other/*'}]\n",
            false,
        ),
        ("ignore: [{code: GW101, path: 'manifests/**'}]\n", true),
        ("ignore: [{code: GW102, path: 'manifests/**'}]\n", false),
    ];
    for (config, hidden) in configs {
        let dir = dir_with(&[
            ("gwctl.yaml", config.as_bytes()),
            ("manifests/route.yaml", SHOP_ROUTE.as_bytes()),
        ]);
        let json = json_of(
            gwctl().current_dir(dir.path()).args([
                "lint",
                "--format",
                "json",
                "--show-suppressed",
                "manifests",
            ]),
            if hidden { 0 } else { 1 },
        );
        let (active, suppressed) = (codes(&json, "findings"), codes(&json, "suppressed"));
        if hidden {
            assert!(
                active.is_empty() && suppressed == ["GW101 error"],
                "{config}: {json}"
            );
        } else {
            assert!(
                active == ["GW101 error"] && suppressed.is_empty(),
                "{config}: {json}"
            );
        }
    }
}

#[test]
fn include_and_exclude_from_the_config_file() {
    let dir = dir_with(&[
        ("gwctl.yaml", b"exclude: ['vendor/**']\n"),
        ("vendor/route.yaml", SHOP_ROUTE.as_bytes()),
        ("ok.yaml", VALID_ROUTE.as_bytes()),
    ]);
    let json = json_of(
        gwctl()
            .current_dir(dir.path())
            .args(["lint", "--format", "json", "."]),
        0,
    );
    assert_eq!(
        json["summary"]["files"], 1,
        "gwctl.yaml is a skipped tool file, vendor/ is excluded: {json}"
    );
    let dir = dir_with(&[
        ("gwctl.yaml", b"include: ['apps/**']\n"),
        ("vendor/route.yaml", SHOP_ROUTE.as_bytes()),
        ("apps/ok.yaml", VALID_ROUTE.as_bytes()),
    ]);
    let json = json_of(
        gwctl()
            .current_dir(dir.path())
            .args(["lint", "--format", "json", "."]),
        0,
    );
    assert_eq!(json["summary"]["files"], 1, "{json}");
}

#[test]
fn bad_config_is_a_usage_error_with_its_findings() {
    let dir = dir_with(&[
        (
            "gwctl.yaml",
            b"apiGroup: {gateway: x}\nseverity: {GW101: fatal}\n",
        ),
        ("route.yaml", VALID_ROUTE.as_bytes()),
    ]);
    gwctl()
        .current_dir(dir.path())
        .args(["lint", "route.yaml"])
        .assert()
        .code(2)
        .stdout("")
        .stderr(predicate::str::contains("error[GW101]"))
        .stderr(predicate::str::contains("did you mean \"apiGroups\"?"))
        .stderr(predicate::str::contains("gwctl.yaml:1:1"))
        .stderr(predicate::str::contains("Unsupported value: \"fatal\""))
        .stderr(predicate::str::contains("invalid config file"));
    gwctl()
        .args(["lint", "--config", "no-such-config.yaml"])
        .arg(dir.path().join("route.yaml"))
        .assert()
        .code(2)
        .stderr(predicate::str::contains("cannot read config file"));
}

#[test]
fn annotation_suppresses_and_reports_unused_codes() {
    let route = SHOP_ROUTE.replace(
        "  namespace: shop\n",
        "  namespace: shop\n  annotations:\n    gwctl.dev/ignore: \"GW101, GW999,GW115\"\n",
    );
    let dir = dir_with(&[("route.yaml", route.as_bytes())]);
    let json = json_of(
        gwctl().args(["lint", "--format", "json"]).arg(dir.path()),
        0,
    );
    assert_eq!(
        codes(&json, "findings"),
        ["GW011 info", "GW011 info"],
        "{json}"
    );
    let messages: Vec<&str> = json["findings"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|f| f["message"].as_str())
        .collect();
    assert_eq!(
        messages,
        [
            "gwctl.dev/ignore: GW115 suppresses nothing on this resource",
            "gwctl.dev/ignore: GW999 is not a rule code"
        ]
    );
    assert_eq!(json["findings"][0]["line"], 7);
    assert!(json.get("suppressed").is_none());
    let shown = stdout_of(
        gwctl()
            .args(["lint", "--format", "short", "--show-suppressed"])
            .arg(dir.path()),
        0,
    );
    assert!(
        shown.contains("error[GW101] (suppressed: annotation) unknown field"),
        "{shown}"
    );
    // The note itself follows the config file's severities.
    let strict = dir_with(&[("gwctl.yaml", b"severity: {GW011: error}\n")]);
    gwctl()
        .args(["lint", "--config"])
        .arg(strict.path().join("gwctl.yaml"))
        .arg(dir.path())
        .assert()
        .code(1);
}

#[test]
fn exit_codes_are_the_same_in_every_format() {
    let cases: [(&[u8], &[&str], i32); 4] = [
        (VALID_ROUTE.as_bytes(), &[], 0),
        (SHOP_ROUTE.as_bytes(), &[], 1),
        (YAML11_BOOLEAN.as_bytes(), &[], 0),
        (YAML11_BOOLEAN.as_bytes(), &["--fail-on", "warning"], 1),
    ];
    for (text, flags, code) in cases {
        let dir = dir_with(&[("in.yaml", text)]);
        for format in ["human", "json", "short", "sarif", "github", "junit"] {
            gwctl()
                .args(["lint", "--format", format])
                .args(flags)
                .arg(dir.path())
                .assert()
                .code(code);
        }
        let missing = dir.path().join("missing.yaml");
        for format in ["human", "json", "short", "sarif", "github", "junit"] {
            gwctl()
                .args(["lint", "--format", format])
                .arg(dir.path())
                .arg(&missing)
                .assert()
                .code(2);
        }
    }
}

#[test]
fn output_file_gets_the_format_and_the_terminal_gets_human() {
    let dir = dir_with(&[("route.yaml", SHOP_ROUTE.as_bytes())]);
    let report = dir.path().join("report.sarif");
    let out = stdout_of(
        gwctl()
            .args(["lint", "--format", "sarif", "--output"])
            .arg(&report)
            .arg(dir.path().join("route.yaml")),
        1,
    );
    assert!(
        out.contains("error[GW101]") && out.contains("1 file, 1 resource"),
        "{out}"
    );
    let sarif = std::fs::read_to_string(&report).expect("report written");
    let log: serde_sarif::sarif::Sarif = serde_json::from_str(&sarif).expect("SARIF");
    assert_eq!(log.runs.len(), 1);
}

#[test]
fn statistics_go_to_stderr_in_line_formats() {
    let dir = dir_with(&[("route.yaml", SHOP_ROUTE.as_bytes())]);
    gwctl()
        .args(["lint", "--format", "github", "--statistics"])
        .arg(dir.path())
        .assert()
        .code(1)
        .stdout(predicate::str::starts_with("::error "))
        .stderr(predicate::str::contains("    1  GW101  unknown-field"));
}

#[test]
fn no_progress_bar_when_piped() {
    // stderr is a pipe here: even a large input draws nothing.
    let many: Vec<(String, Vec<u8>)> = (0..2100)
        .map(|i| {
            (
                format!("r{i}.yaml"),
                valid_route_named(&format!("r{i}")).into_bytes(),
            )
        })
        .collect();
    let files: Vec<(&str, &[u8])> = many
        .iter()
        .map(|(n, t)| (n.as_str(), t.as_slice()))
        .collect();
    let dir = dir_with(&files);
    gwctl()
        .args(["lint", "--format", "short"])
        .arg(dir.path())
        .assert()
        .code(0)
        .stderr("");
}

#[test]
fn sarif_of_testdata_has_what_the_schema_requires() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let out = stdout_of(
        gwctl()
            .current_dir(root)
            .args(["lint", "--format", "sarif", "testdata/"]),
        1,
    );
    let log: serde_sarif::sarif::Sarif = serde_json::from_str(&out).expect("SARIF 2.1.0 types");
    assert_eq!(log.version, "2.1.0");
    let json: serde_json::Value = serde_json::from_str(&out).expect("JSON");
    let runs = json["runs"].as_array().expect("runs");
    assert_eq!(runs.len(), 1);
    let driver = &runs[0]["tool"]["driver"];
    assert_eq!(driver["name"], "gwctl");
    let rules = driver["rules"].as_array().expect("rules");
    let ids: Vec<&str> = rules.iter().filter_map(|r| r["id"].as_str()).collect();
    assert_eq!(ids.len(), rules.len());
    for rule in rules {
        assert!(
            rule["help"]["text"].is_string() && rule["helpUri"].is_string(),
            "{rule}"
        );
    }
    let results = runs[0]["results"].as_array().expect("results");
    assert!(!results.is_empty());
    for r in results {
        let id = r["ruleId"].as_str().expect("ruleId");
        assert!(ids.contains(&id));
        assert_eq!(
            r["ruleIndex"]
                .as_u64()
                .and_then(|i| ids.get(i as usize).copied()),
            Some(id)
        );
        assert!(r["message"]["text"].is_string());
        let loc = &r["locations"][0]["physicalLocation"];
        assert!(
            loc["artifactLocation"]["uri"]
                .as_str()
                .is_some_and(|u| u.starts_with("testdata/"))
        );
        assert!(
            loc["region"]["startLine"].as_u64().is_some_and(|l| l >= 1),
            "{r}"
        );
        assert!(
            loc["region"]["startColumn"]
                .as_u64()
                .is_some_and(|c| c >= 1),
            "{r}"
        );
    }
}
