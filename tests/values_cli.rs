//! `gwctl lint --values FILE`: the control-plane chart's values, through the binary.

use std::path::{Path, PathBuf};

use assert_cmd::Command;

fn testdata(sub: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("testdata")
        .join(sub)
}

fn gwctl() -> Command {
    let mut c = Command::cargo_bin("gwctl").expect("binary built");
    c.current_dir(env!("CARGO_MANIFEST_DIR"));
    c
}

fn short(args: &[&str], code: i32) -> Vec<String> {
    let out = gwctl()
        .args(["lint", "--format", "short"])
        .args(args)
        .assert()
        .code(code)
        .get_output()
        .stdout
        .clone();
    String::from_utf8_lossy(&out)
        .lines()
        .map(str::to_string)
        .collect()
}

#[test]
fn valid_values_file_has_no_findings() {
    assert!(testdata("values/values.yaml").exists());
    let lines = short(
        &["--values", "testdata/values/values.yaml", "testdata/valid"],
        0,
    );
    assert_eq!(lines, Vec::<String>::new());
}

#[test]
fn invalid_values_file_findings_with_positions() {
    let lines = short(
        &[
            "--values",
            "testdata/values/invalid-values.yaml",
            "testdata/valid",
        ],
        1,
    );
    let f = "testdata/values/invalid-values.yaml";
    assert_eq!(
        lines,
        [
            format!(
                r#"{f}:5:17: error[GW103] controller.replicaCount: Invalid value: "string": controller.replicaCount in body must be of type integer: "string""#
            ),
            format!(
                r#"{f}:7:11: error[GW104] controller.service.type: Unsupported value: "Internal": supported values: "ClusterIP", "NodePort", "LoadBalancer""#
            ),
            format!(
                "{f}:9:13: error[GW107] controller.service.ports.grpc: Invalid value: 99770: controller.service.ports.grpc in body should be less than or equal to 65535"
            ),
            format!(
                r#"{f}:12:16: warning[GW126] controller.xds.tls.enabled: xDS TLS needs the Secret "kgateway-xds-cert" (type kubernetes.io/tls, keys tls.crt, tls.key, ca.crt) in the installation namespace; it is not in the inputs"#
            ),
            format!(r#"{f}:13:3: error[GW101] unknown field "controller.logLevl""#),
            format!(
                "{f}:15:12: error[GW125] inferenceRouting.enabled: inference routing without the AI gateway (aiGateway.enabled is false) is deprecated in v2.1 and unsupported in v2.2"
            ),
            format!(
                r#"{f}:17:25: error[GW103] podAnnotations.prometheus.io/scrape: Invalid value: "boolean": podAnnotations.prometheus.io/scrape in body must be of type string: "boolean""#
            ),
            format!(
                r#"{f}:19:10: error[GW104] validation.level: Unsupported value: "paranoid": supported values: "standard", "strict" (in any case)"#
            ),
        ]
    );
}

#[test]
fn the_xds_secret_in_the_inputs_satisfies_the_rule() {
    let dir = tempfile::tempdir().expect("temp dir");
    let values = dir.path().join("values.yaml");
    std::fs::write(
        &values,
        "controller:\n  xds:\n    tls:\n      enabled: true\n",
    )
    .expect("write");
    let secret = dir.path().join("secret.yaml");
    std::fs::write(
        &secret,
        "apiVersion: v1\nkind: Secret\nmetadata: {name: kgateway-xds-cert, namespace: gateway-system}\ntype: kubernetes.io/tls\ndata: {tls.crt: QQ==, tls.key: QQ==, ca.crt: QQ==}\n",
    )
    .expect("write");
    let v = values.to_string_lossy().to_string();
    // The directory holds the values file too: it is linted once, as values (no GW004).
    let d = dir.path().to_string_lossy().to_string();
    assert_eq!(short(&["--values", &v, &d], 0), Vec::<String>::new());
    let lines = short(&["--values", &v, &values.to_string_lossy()], 0);
    assert_eq!(lines.len(), 1, "{lines:?}");
    assert!(lines[0].contains(":4:16: warning[GW126]"), "{lines:?}");
}

#[test]
fn a_missing_values_file_is_an_input_error() {
    let lines = short(
        &["--values", "testdata/values/nope.yaml", "testdata/valid"],
        2,
    );
    assert_eq!(
        lines,
        ["gwctl: error[GW001] testdata/values/nope.yaml: no such file or directory"]
    );
}

#[test]
fn values_are_counted_and_reported_in_json() {
    let out = gwctl()
        .args([
            "lint",
            "--format",
            "json",
            "--values",
            "testdata/values/invalid-values.yaml",
        ])
        .arg("testdata/valid")
        .assert()
        .code(1)
        .get_output()
        .stdout
        .clone();
    let json: serde_json::Value = serde_json::from_slice(&out).expect("json report");
    // The six files of testdata/valid, and the values file.
    assert_eq!(json["summary"]["files"], 7);
    let first = &json["findings"][0];
    assert_eq!(first["file"], "testdata/values/invalid-values.yaml");
    assert_eq!(first["path"], "controller.replicaCount");
    assert_eq!(first["line"], 5);
}
