//! No output format shows a secret value: Secret data, htpasswd lines, inline JWKS, API keys.
//! Every value below holds a `MARKER...` string and sits on a field with a finding, so that a
//! snippet or a message quoting it would print the marker.

use predicates::prelude::*;

#[allow(dead_code)] // each test file uses a part of the helpers
#[path = "cli/support.rs"]
mod support;

use support::*;

const SECRETS: &str = r#"apiVersion: v1
kind: Secret
metadata:
  name: creds
type: Opaque
data:
  token: MARKERDATA!!
  other: [MARKERLIST]
stringData:
  password: "MARKERSTRING"
  notes: 42
---
apiVersion: gateway.kgateway.dev/v1alpha1
kind: TrafficPolicy
metadata:
  name: web
spec:
  targetRefs:
  - group: gateway.networking.k8s.io
    kind: HTTPRoute
    name: web
  basicAuth:
    users:
    - "alice:MARKERHTPASSWD"
    - 12345678
---
apiVersion: agentgateway.dev/v1alpha1
kind: AiGatewayPolicy
metadata:
  name: llm
spec:
  targetRefs:
  - group: gateway.networking.k8s.io
    kind: HTTPRoute
    name: llm
  traffic:
    jwtAuthentication:
      providers:
      - issuer: https://issuer.example.com
        jwks:
          inline: '{"keys": [{"kty": "EC", "crv": "P-256", "x": "f83OJ3D2xF1Bg8vub9tLe1gHMzV76e8Tus9uPHvRVEU", "y": "x_FEzRu9m36HLN_tue659LNpXW6pCyStikYjKIWI5a0", "d": "MARKERPRIVATE"}]}'
"#;

/// The findings on the secret-bearing fields, as `short` prints them: still reported, just masked.
const EXPECTED: &[&str] = &[
    "s.yaml:7:10: error[GW111]",
    "s.yaml:8:10: error[GW103]",
    "s.yaml:11:10: error[GW103]",
    "s.yaml:24:8: error[GW124]",
    "s.yaml:25:7: error[GW103]",
    "s.yaml:41:19: warning[GW123]",
];

/// What the tree does not hold: the second value of a duplicate key, a Secret that does not parse.
const BROKEN: &str = "apiVersion: v1
kind: Secret
metadata:
  name: dup
data:
  token: MARKERFIRST
  token: MARKERSECOND
---
apiVersion: v1
kind: Secret
metadata:
  name: broken
stringData:
  password: |
    MARKERBLOCK
  apiKey: [MARKERUNCLOSED
";

#[test]
fn no_format_prints_a_secret() {
    let dir = dir_with(&[
        ("s.yaml", SECRETS.as_bytes()),
        ("broken.yaml", BROKEN.as_bytes()),
    ]);
    for format in ["human", "json", "short", "sarif", "github", "junit"] {
        let out = stdout_of(
            gwctl()
                .args(["lint", "--color", "never", "--format", format])
                .arg(dir.path()),
            1,
        );
        assert!(!out.contains("MARKER"), "{format} leaks a secret:\n{out}");
        assert!(
            out.contains("GW124") && out.contains("GW123"),
            "{format}:\n{out}"
        );
    }
    let short = stdout_of(
        gwctl().args(["lint", "--format", "short"]).arg(dir.path()),
        1,
    );
    for want in EXPECTED {
        assert!(short.contains(want), "missing {want}:\n{short}");
    }
}

#[test]
fn human_snippet_shows_the_key_and_masks_the_value() {
    let dir = dir_with(&[("s.yaml", SECRETS.as_bytes())]);
    gwctl()
        .args(["lint", "--color", "never"])
        .arg(dir.path())
        .assert()
        .code(1)
        .stdout(predicate::str::contains("token: ************"))
        .stdout(predicate::str::contains("MARKER").not());
}

#[test]
fn selector_keys_are_not_masked() {
    // `key` outside `auth` is a label selector's key, not a credential.
    let text = "apiVersion: v1\nkind: Secret\nmetadata:\n  name: s\nimmutable: nope\nselector:\n  key: visiblekey\n";
    let dir = dir_with(&[("s.yaml", text.as_bytes())]);
    let out = stdout_of(
        gwctl().args(["lint", "--color", "never"]).arg(dir.path()),
        1,
    );
    assert!(out.contains("  key: visiblekey"), "{out}");
    assert!(out.contains("immutable: nope"), "{out}");
}
