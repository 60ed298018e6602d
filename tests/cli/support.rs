//! Manifests and helpers shared by the tests in tests/cli.rs.

use std::path::{Path, PathBuf};

use assert_cmd::Command;

#[path = "../common/cli.rs"]
mod cli;
pub use cli::*;

pub const VALID_ROUTE: &str = "\
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata:
  name: web
  namespace: default
spec:
  parentRefs:
  - name: gw
  rules:
  - backendRefs:
    - name: web
      port: 80
  hostnames:
  - web.example.com
";

/// [`VALID_ROUTE`] under another name: valid routes that can be linted together (one name
/// twice is the same object twice, GW013).
pub fn valid_route_named(name: &str) -> String {
    VALID_ROUTE.replacen("name: web\n", &format!("name: {name}\n"), 1)
}

pub const JSON_ROUTE: &str = r#"{"apiVersion": "gateway.networking.k8s.io/v1", "kind": "HTTPRoute",
 "metadata": {"name": "j"}, "spec": {"parentRefs": [{"name": "gw"}]}}"#;

pub const DUPLICATE_KEY: &str = "\
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata:
  name: web
  name: web2
spec:
  parentRefs:
  - name: gw
";

pub const UNKNOWN_FIELD: &str = "\
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata:
  name: web
spec:
  foo: 1
";

pub const NO_KIND: &str = "\
apiVersion: v1
metadata:
  name: x
";

/// `hostname: yes` is a YAML 1.1 boolean: a warning (GW110), not an error.
pub const YAML11_BOOLEAN: &str = "\
apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata:
  name: gw
spec:
  gatewayClassName: example
  listeners:
  - name: http
    protocol: HTTP
    port: 80
    hostname: yes
";

pub fn json_of(cmd: &mut Command, expected_code: i32) -> serde_json::Value {
    let out = stdout_of(cmd, expected_code);
    serde_json::from_str(&out).unwrap_or_else(|e| panic!("not JSON ({e}): {out}"))
}

/// Files of a directory (not recursive), sorted, with their contents.
pub fn listing(dir: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    let mut files: Vec<(PathBuf, Vec<u8>)> = std::fs::read_dir(dir)
        .map(|rd| {
            rd.filter_map(Result::ok)
                .map(|e| e.path())
                .filter(|p| p.is_file())
                .map(|p| {
                    let text = std::fs::read(&p).unwrap_or_default();
                    (p, text)
                })
                .collect()
        })
        .unwrap_or_default();
    files.sort();
    files
}

pub fn names(files: &[(PathBuf, Vec<u8>)]) -> Vec<String> {
    files
        .iter()
        .filter_map(|(p, _)| p.file_name())
        .map(|n| n.to_string_lossy().into_owned())
        .collect()
}
