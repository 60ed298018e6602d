//! CEL rules, defaults and combinators: real Gateway API rules, and a small CRD exercising every
//! rule option (reason, fieldPath, messageExpression, uncompilable and transition rules).

use serde_json::json;

use super::tests::lint;

#[test]
fn list_rule_failure_is_reported_at_the_list_key() {
    let yaml = "\
apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: gw}
spec:
  gatewayClassName: example
  listeners:
  - name: http
    protocol: HTTP
    port: 80
    tls: {mode: Terminate, certificateRefs: [{name: c}]}
";
    assert_eq!(
        lint(yaml),
        [
            r#"6:3 GW112 spec.listeners: Invalid value: "array": tls must not be specified for protocols ['HTTP', 'TCP', 'UDP']"#
        ]
    );
}

#[test]
fn defaults_are_visible_to_rules() {
    // tls.mode defaults to Terminate; the rule then wants certificateRefs or options.
    let yaml = "\
apiVersion: gateway.networking.k8s.io/v1
kind: ListenerSet
metadata: {name: ls}
spec:
  parentRef: {name: gw}
  listeners:
  - name: tls
    protocol: TLS
    port: 8443
    tls: {}
";
    // Neither field is set, so the rule reads an absent key: the API server reports
    // "no such key: <field> evaluating rule: <message>".
    let found = lint(yaml);
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(
        found[0].starts_with(
            r#"10:5 GW112 spec.listeners[0].tls: Invalid value: "object": no such key: "#
        ) && found[0].ends_with(
            " evaluating rule: certificateRefs or options must be specified when mode is Terminate"
        ),
        "{found:?}"
    );
    // backendRef group defaults to "" and kind to Service: a port is then required.
    let route = "\
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: r}
spec:
  rules:
  - backendRefs:
    - name: svc
";
    assert_eq!(
        lint(route),
        [
            r#"7:7 GW112 spec.rules[0].backendRefs[0]: Invalid value: "object": Must have port for Service reference"#
        ]
    );
}

#[test]
fn rule_on_a_nested_object() {
    let yaml = "\
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: r}
spec:
  rules:
  - matches:
    - path:
        type: PathPrefix
        value: foo
";
    assert_eq!(
        lint(yaml),
        [
            r#"7:7 GW112 spec.rules[0].matches[0].path: Invalid value: "object": value must be an absolute path and start with '/' when type one of ['Exact', 'PathPrefix']"#
        ]
    );
}

#[test]
fn a_blocking_error_below_skips_the_rules_above_it_only() {
    // The port type error stops the listeners' rules (as the API server would); the duplicate
    // listener name is still a list-map error, and the other listener's own checks still run.
    let yaml = "\
apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: gw}
spec:
  gatewayClassName: example
  listeners:
  - {name: a, protocol: HTTP, port: x}
  - {name: a, protocol: HTTP, port: 81}
  - {name: b, protocol: HTTPS, port: 443, tls: {}}
";
    let found = lint(yaml);
    assert_eq!(
        found[..2],
        [
            r#"7:37 GW103 spec.listeners[0].port: Invalid value: "string": spec.listeners[0].port in body must be of type integer: "string""#,
            r#"8:5 GW109 spec.listeners[1]: Duplicate value: {"name":"a"}"#,
        ]
    );
    assert_eq!(found.len(), 3, "{found:?}");
    assert!(
        found[2].starts_with(
            r#"9:43 GW112 spec.listeners[2].tls: Invalid value: "object": no such key: "#
        ),
        "{found:?}"
    );
}

#[test]
fn transition_rules_are_skipped() {
    // GatewayClass.spec.controllerName carries `self == oldSelf`.
    let yaml = "\
apiVersion: gateway.networking.k8s.io/v1
kind: GatewayClass
metadata: {name: c}
spec: {controllerName: example.com/c}
";
    assert_eq!(lint(yaml), Vec::<String>::new());
}

/// A CRD with one field per rule option.
fn widget_crd() -> serde_json::Value {
    json!({
        "apiVersion": "apiextensions.k8s.io/v1",
        "kind": "CustomResourceDefinition",
        "spec": {
            "group": "example.com",
            "names": {"kind": "Widget"},
            "scope": "Namespaced",
            "versions": [{"name": "v1", "served": true, "schema": {"openAPIV3Schema": {
                "type": "object",
                "x-kubernetes-validations": [{"rule": "self.metadata.name != 'forbidden'"}],
                "properties": {
                    "apiVersion": {"type": "string"},
                    "kind": {"type": "string"},
                    "metadata": {"type": "object"},
                    "spec": {
                        "type": "object",
                        "x-kubernetes-validations": [
                            {"rule": "!has(self.a) || self.a != 'x'", "reason": "FieldValueForbidden",
                             "fieldPath": ".a", "message": "a must not be x"},
                            {"rule": "has(self.b)", "reason": "FieldValueRequired", "message": "b is needed"},
                            {"rule": "self.n < 10", "messageExpression": "'n is ' + string(self.n)",
                             "message": "n too big"},
                            {"rule": "self.mode == 'Auto'", "message": "mode must be Auto"},
                            {"rule": "self.a == oldSelf.a", "message": "immutable"}
                        ],
                        "properties": {
                            "a": {"type": "string"},
                            "b": {"type": "string", "nullable": true},
                            "n": {"type": "integer", "multipleOf": 2, "default": 4},
                            "mode": {"type": "string", "default": "Auto"},
                            "labels": {"type": "object", "additionalProperties": {"type": "string"},
                                       "minProperties": 1, "maxProperties": 2},
                            "kind": {"type": "string", "not": {"enum": ["Forbidden"]}},
                            "free": {"type": "object", "x-kubernetes-preserve-unknown-fields": true},
                            "odd": {"type": "string", "x-kubernetes-validations": [
                                {"rule": "self.noSuchFunction()", "message": "never evaluated"}]},
                            "bad": {"type": "string", "x-kubernetes-validations": [
                                {"rule": "self ==", "message": "does not compile"}]}
                        }
                    }
                }
            }}}]
        }
    })
}

fn lint_widget(yaml: &str) -> Vec<String> {
    super::tests::lint_with_crd(&widget_crd(), yaml)
}

const WIDGET_HEAD: &str = "apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w}\n";

#[test]
fn valid_widget_with_nullable_and_preserved_fields() {
    let yaml = format!(
        "{WIDGET_HEAD}spec:\n  b: null\n  labels: {{x: z}}\n  free: {{any: [1, {{deep: true}}]}}\n"
    );
    assert_eq!(lint_widget(&yaml), Vec::<String>::new());
}

#[test]
fn rule_reasons_field_path_message_expression_and_compile_errors() {
    let yaml = format!(
        "{WIDGET_HEAD}spec:\n  a: x\n  n: 12\n  mode: Manual\n  free: {{}}\n  odd: o\n  bad: b\n"
    );
    let found = lint_widget(&yaml);
    assert_eq!(
        found[..5],
        [
            "4:1 GW112 spec: Required value: b is needed",
            r#"4:1 GW112 spec: Invalid value: "object": n is 12"#,
            r#"4:1 GW112 spec: Invalid value: "object": mode must be Auto"#,
            "5:6 GW112 spec.a: Forbidden: a must not be x",
            "9:8 GW113 spec.odd: rule not evaluated (Undeclared reference to 'noSuchFunction'); it checks: never evaluated [rule: self.noSuchFunction()]",
        ]
    );
    assert!(
        found[5].starts_with("10:8 GW113 spec.bad: rule not evaluated (1:8: Syntax error"),
        "{found:?}"
    );
}

#[test]
fn root_rule_and_object_bounds_and_not() {
    let yaml = "apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: forbidden}\nspec:\n  b: ok\n  n: 3\n  labels: {}\n  kind: Forbidden\n";
    assert_eq!(
        lint_widget(yaml),
        [
            r#"2:1 GW112 <nil>: Invalid value: "object": failed rule: self.metadata.name != 'forbidden'"#,
            "6:6 GW107 spec.n: Invalid value: 3: spec.n in body should be a multiple of 2",
            "7:11 GW108 spec.labels: Invalid value: 0: spec.labels in body should have at least 1 properties",
            r#"8:9 GW114 "spec.kind" must not validate the schema (not)"#,
        ]
    );
    let yaml = format!("{WIDGET_HEAD}spec:\n  b: ok\n  labels: {{a: '1', b: '2', c: '3'}}\n");
    assert_eq!(
        lint_widget(&yaml),
        ["6:11 GW108 spec.labels: Too many: 3: must have at most 2 items"]
    );
}

/// A CRD whose rule has three nested loops over `spec.items`: its cost grows with the cube of
/// the list, as in a CEL bomb. `max_items` bounds the list in the schema.
fn cubic_crd(max_items: Option<u64>) -> serde_json::Value {
    let mut items = json!({"type": "array", "items": {"type": "integer"}});
    if let Some(max) = max_items {
        items["maxItems"] = json!(max);
    }
    json!({
        "apiVersion": "apiextensions.k8s.io/v1",
        "kind": "CustomResourceDefinition",
        "spec": {
            "group": "example.com",
            "names": {"kind": "Cube"},
            "scope": "Namespaced",
            "versions": [{"name": "v1", "served": true, "schema": {"openAPIV3Schema": {
                "type": "object",
                "properties": {
                    "apiVersion": {"type": "string"},
                    "kind": {"type": "string"},
                    "metadata": {"type": "object"},
                    "spec": {
                        "type": "object",
                        "x-kubernetes-validations": [{
                            "rule": "self.items.all(a, self.items.all(b, self.items.all(c, a + b + c < 100)))",
                            "message": "small sums"
                        }],
                        "properties": {"items": items}
                    }
                }
            }}}]
        }
    })
}

const CUBE_HEAD: &str = "apiVersion: example.com/v1\nkind: Cube\nmetadata: {name: c}\n";

#[test]
fn a_rule_over_the_static_cost_limit_is_never_evaluated() {
    // Three items that fail the rule (40 + 40 + 40), but the list is unbounded: as many integers
    // as fit in a request, cubed, is far beyond what the API server accepts when the CRD is
    // created. The rule is not run at all.
    let few = format!("{CUBE_HEAD}spec:\n  items: [1, 2, 40]\n");
    assert_eq!(
        super::tests::lint_with_crd(&cubic_crd(None), &few),
        [
            "4:1 GW113 spec: rule not evaluated (its estimated cost from the schema, over 10^19, \
          exceeds the API server's limit of 10000000 for one rule, which \
          rejects the CRD: bound the lists, maps and strings it reads with maxItems, \
          maxProperties and maxLength); it checks: small sums [rule: self.items.all(a, \
          self.items.all(b, self.items.all(c, a + b + c < 100)))]"
        ]
    );
    // The same rule over at most 10 items is cheap: evaluated, and failing.
    assert_eq!(
        super::tests::lint_with_crd(&cubic_crd(Some(10)), &few),
        [r#"4:1 GW112 spec: Invalid value: "object": small sums"#]
    );
}

#[test]
fn a_rule_over_its_runtime_budget_is_not_evaluated() {
    // 60 items at most: within the static limit, and run on small lists.
    let few = format!("{CUBE_HEAD}spec:\n  items: [1, 2, 40]\n");
    assert_eq!(
        super::tests::lint_with_crd(&cubic_crd(Some(60)), &few),
        [r#"4:1 GW112 spec: Invalid value: "object": small sums"#]
    );
    // 60 items: 60^3 loops of the whole expression exceed the limit of one evaluation.
    let items: Vec<String> = (0..60).map(|i| i.to_string()).collect();
    let many = format!("{CUBE_HEAD}spec:\n  items: [{}]\n", items.join(", "));
    let found = super::tests::lint_with_crd(&cubic_crd(Some(60)), &many);
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(
        found[0].starts_with("4:1 GW113 spec: rule not evaluated (its estimated cost, ")
            && found[0].contains(
                ", exceeds the limit of 1000000 for one evaluation); it checks: small sums"
            ),
        "{found:?}"
    );
}
