//! A failing and a fixed example for every rule, keyed by code. Kept beside `codes.rs` rather
//! than as fields of `Rule`, so that rows added to `RULES` in the old form still compile; a test
//! (`every_rule_has_examples`) fails until the new code has its row here, and
//! `src/diag/tests_examples.rs` lints every example to prove it.

/// How an example is checked.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ExampleKind {
    /// One YAML file linted with the built-in schemas: `bad` has the finding, `good` has not.
    Manifest,
    /// Like `Manifest`, but the file's `CustomResourceDefinition` documents are registered as
    /// schemas first (the rule needs a schema gwctl does not ship).
    Crd,
    /// `bad` and `good` are config files (`gwctl.yaml`).
    Config,
    /// The first document is the chart's values file (`--values`); the documents after the first
    /// `---` line are the manifests linted with it.
    Values,
    /// The finding is about the input itself (a path, a file name, bytes), not a document: `bad`
    /// and `good` describe command lines, and tests/cli_rules.rs checks them.
    Cli,
}

pub struct Example {
    pub code: &'static str,
    pub kind: ExampleKind,
    pub bad: &'static str,
    pub good: &'static str,
}

pub(super) const fn e(
    code: &'static str,
    kind: ExampleKind,
    bad: &'static str,
    good: &'static str,
) -> Example {
    Example {
        code,
        kind,
        bad,
        good,
    }
}

use ExampleKind::{Cli, Config, Manifest};

/// GW0xx, sorted by code like `RULES`; the schema family is in `examples_schema.rs`, the
/// security family in `examples_security.rs`.
static INPUT_EXAMPLES: &[Example] = &[
    e(
        "GW001",
        Cli,
        "gwctl lint manifests/route.yaml   # no such file",
        "gwctl lint manifests/             # a path that exists",
    ),
    e(
        "GW002",
        Manifest,
        r#"apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata:
  name: "web
"#,
        r#"apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata:
  name: "web"
"#,
    ),
    e(
        "GW003",
        Manifest,
        "apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata:
  name: web
  name: shop
",
        "apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata:
  name: web
",
    ),
    e(
        "GW004",
        Manifest,
        "apiVersion: gateway.networking.k8s.io/v1
metadata:
  name: web
",
        "apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata:
  name: web
",
    ),
    e(
        "GW005",
        Manifest,
        "apiVersion: v1
kind: ConfigMap
metadata: {name: laughs}
a: &a [x, x, x, x, x, x, x, x, x, x]
b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]
c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]
d: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c, *c]
e: &e [*d, *d, *d, *d, *d, *d, *d, *d, *d, *d]
f: [*e, *e, *e, *e, *e, *e, *e, *e, *e, *e]
",
        "apiVersion: v1
kind: ConfigMap
metadata: {name: laughs}
data:
  a: x
",
    ),
    e(
        "GW006",
        Manifest,
        "apiVersion: gateway.networking.k8s.io/v1
kind: HttpRoute
metadata:
  name: web
",
        "apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata:
  name: web
",
    ),
    e(
        "GW007",
        Manifest,
        "apiVersion: gateway.networking.k8s.io/v3
kind: HTTPRoute
metadata:
  name: web
",
        "apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata:
  name: web
",
    ),
    e(
        "GW008",
        Cli,
        "gwctl lint overlays/          # overlays/kustomization.yaml is a tool file",
        "gwctl lint --exclude kustomization.yaml overlays/",
    ),
    e(
        "GW009",
        Cli,
        "gwctl lint route.yaml         # saved as UTF-16 or binary",
        "iconv -f UTF-16 -t UTF-8 route.yaml > route.utf8.yaml && gwctl lint route.utf8.yaml",
    ),
    e(
        "GW010",
        Cli,
        "gwctl lint --crds crds/widget-no-group.yaml manifests/   # a CRD without spec.group",
        "gwctl lint --crds crds/widget.yaml manifests/            # spec.group, names.kind and versions set",
    ),
    e(
        "GW011",
        Manifest,
        r#"apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata:
  name: web
  annotations:
    gwctl.dev/ignore: "GW101"
spec:
  parentRefs:
  - name: gw
"#,
        r#"apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata:
  name: web
  annotations:
    gwctl.dev/ignore: "GW101"
spec:
  parentRefs:
  - name: gw
  legacyField: true
"#,
    ),
    e(
        "GW012",
        Config,
        "severity:
  GW999: error
",
        "severity:
  GW110: error
",
    ),
];

/// Every example, in code order.
pub fn examples() -> impl Iterator<Item = &'static Example> {
    INPUT_EXAMPLES
        .iter()
        .chain(super::examples_duplicates::DUPLICATE_EXAMPLES)
        .chain(super::examples_schema::SCHEMA_EXAMPLES)
        .chain(super::examples_values::VALUE_EXAMPLES)
        .chain(super::examples_resolve::RESOLVE_EXAMPLES)
        .chain(super::examples_refs::REFS_EXAMPLES)
        .chain(super::examples_duplicates::CONFLICT_EXAMPLES)
        .chain(super::examples_policies::POLICY_EXAMPLES)
        .chain(super::examples_effects::EFFECT_EXAMPLES)
        .chain(super::examples_merge::MERGE_EXAMPLES)
        .chain(super::examples_security::SECURITY_EXAMPLES)
}

/// The examples of a rule, if it has them.
pub fn example(code: &str) -> Option<&'static Example> {
    examples().find(|e| e.code == code)
}
