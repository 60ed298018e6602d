//! Validation cost relative to parsing (ignored by default; run in release):
//! `cargo test --release --lib validate::bench -- --ignored --nocapture`

use std::time::Instant;

use crate::model::resources_of;
use crate::parse::{Limits, parse_file};
use crate::schema::{Lookup, Registry};
use crate::source::SourceFile;

/// A realistic HTTPRoute: parent refs, hostnames, matches, filters, weighted backends.
fn route(i: usize) -> String {
    format!(
        "apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata:
  name: route-{i}
  namespace: team-{ns}
  labels: {{app: web-{i}, tier: frontend}}
spec:
  parentRefs:
  - name: gateway
    namespace: infra
    sectionName: https
  hostnames: [\"app{i}.example.com\", \"*.app{i}.example.org\"]
  rules:
  - matches:
    - path: {{type: PathPrefix, value: /api/v1}}
      headers:
      - {{name: X-Version, value: \"2\"}}
      method: GET
    filters:
    - type: RequestHeaderModifier
      requestHeaderModifier:
        set: [{{name: X-Route, value: route-{i}}}]
        remove: [X-Debug]
    backendRefs:
    - {{name: api-{i}, port: 8080, weight: 90}}
    - {{name: api-canary-{i}, port: 8080, weight: 10}}
    timeouts: {{request: 10s}}
  - matches:
    - path: {{type: Exact, value: /healthz}}
    backendRefs:
    - {{name: health, port: 80}}
",
        ns = i % 50
    )
}

#[test]
#[ignore = "benchmark"]
fn validation_cost_relative_to_parsing() {
    let n: usize = std::env::var("GWCTL_BENCH_ROUTES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(20_000);
    let per_file = 100;
    let files: Vec<SourceFile> = (0..n / per_file)
        .map(|f| {
            let text: Vec<String> = (0..per_file).map(|i| route(f * per_file + i)).collect();
            SourceFile::new(f, format!("f{f}.yaml"), text.join("---\n"))
        })
        .collect();
    let registry = Registry::builtin();
    let Lookup::Found(_) = registry.lookup("gateway.networking.k8s.io", "v1", "HTTPRoute") else {
        panic!("HTTPRoute schema");
    };
    let limits = Limits::default();
    let started = Instant::now();
    let parsed: Vec<_> = files.iter().map(|f| parse_file(f, &limits)).collect();
    let parse_time = started.elapsed().as_secs_f64();
    let started = Instant::now();
    let mut findings = 0;
    for (f, p) in files.iter().zip(&parsed) {
        for doc in &p.documents {
            for r in resources_of(f, doc).0 {
                if let Lookup::Found(s) = registry.lookup(r.group, r.version, r.kind) {
                    findings += super::validate_resource(&r, s).len();
                }
            }
        }
    }
    let validate_time = started.elapsed().as_secs_f64();
    println!(
        "{n} routes: parse {parse_time:.3} s, validate {validate_time:.3} s ({:.2}x parse), {findings} findings",
        validate_time / parse_time
    );
    assert_eq!(findings, 0);
}
