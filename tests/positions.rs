//! Position tests: for each kind of finding, the exact line and column of its label
//! (the key for unknown fields and missing fields, the value for value checks).

mod common;

use common::{describe, lint_text};
use gwctl::rules::{self, Code};

/// Asserts that linting `text` gives a finding with `code` at `line:col` whose message contains `fragment`.
#[track_caller]
fn assert_at(text: &str, code: Code, line: usize, col: usize, fragment: &str) {
    let run = lint_text(text);
    let found = run.diagnostics.iter().any(|d| {
        d.code == code
            && d.message.contains(fragment)
            && d.location.as_ref().is_some_and(|l| {
                let lc = run.files[l.file].line_col(l.span.start);
                (lc.line, lc.column) == (line, col)
            })
    });
    assert!(
        found,
        "expected {code} at {line}:{col} containing {fragment:?}; got {:#?}",
        describe(&run)
    );
}

const GATEWAY_HEAD: &str = "apiVersion: gateway.networking.k8s.io/v1\nkind: Gateway\nmetadata:\n  name: gw\nspec:\n  gatewayClassName: example\n";

fn gateway(listeners: &str) -> String {
    format!("{GATEWAY_HEAD}  listeners:\n{listeners}")
}

fn route(spec: &str) -> String {
    format!(
        "apiVersion: gateway.networking.k8s.io/v1\nkind: HTTPRoute\nmetadata:\n  name: r\nspec:\n{spec}"
    )
}

#[test]
fn syntax_error_points_at_the_parser_position() {
    // A tab where indentation is expected.
    assert_at(
        "apiVersion: v1\nkind: Namespace\nmetadata:\n\tname: x\n",
        rules::GW002,
        4,
        1,
        "",
    );
}

#[test]
fn unterminated_quote_is_a_syntax_error() {
    let run = lint_text("apiVersion: v1\nkind: Namespace\nmetadata:\n  name: \"x\n");
    assert!(
        run.diagnostics
            .iter()
            .any(|d| d.code == gwctl::rules::GW002),
        "{:#?}",
        describe(&run)
    );
}

#[test]
fn duplicate_key_points_at_the_second_key() {
    assert_at(
        "apiVersion: v1\nkind: Namespace\nmetadata:\n  name: a\n  name: b\n",
        rules::GW003,
        5,
        3,
        "duplicate key \"name\"",
    );
}

#[test]
fn document_without_kind_points_at_the_document() {
    assert_at(
        "---\napiVersion: v1\nmetadata:\n  name: a\n",
        rules::GW004,
        2,
        1,
        "missing kind",
    );
}

#[test]
fn scalar_document_is_not_an_object() {
    assert_at(
        "just a string\n",
        rules::GW004,
        1,
        1,
        "not a Kubernetes object",
    );
}

#[test]
fn unknown_kind_in_known_group_points_at_kind() {
    assert_at(
        "apiVersion: gateway.networking.k8s.io/v1\nkind: HttpRoute\nmetadata:\n  name: a\n",
        rules::GW006,
        2,
        7,
        "HttpRoute",
    );
}

#[test]
fn unknown_version_points_at_api_version() {
    assert_at(
        "apiVersion: gateway.networking.k8s.io/v9\nkind: HTTPRoute\nmetadata:\n  name: a\n",
        rules::GW007,
        1,
        13,
        "no schema for version v9 of kind HTTPRoute; known:",
    );
}

#[test]
fn unknown_field_points_at_the_key() {
    let text = gateway("  - name: http\n    port: 80\n    protocl: HTTP\n");
    assert_at(
        &text,
        rules::GW101,
        10,
        5,
        "unknown field \"spec.listeners[0].protocl\"",
    );
}

#[test]
fn unknown_field_suggests_the_closest_name() {
    let run = lint_text(&gateway(
        "  - name: http\n    port: 80\n    protocl: HTTP\n",
    ));
    let d = run
        .diagnostics
        .iter()
        .find(|d| d.code == gwctl::rules::GW101)
        .expect("a GW101 finding");
    assert_eq!(d.help.as_deref(), Some("did you mean \"protocol\"?"));
    assert_eq!(d.path.as_deref(), Some("spec.listeners[0].protocl"));
}

#[test]
fn missing_required_field_points_at_the_object() {
    // listeners[0] lacks `protocol`: the label is on the list item's first key.
    assert_at(
        &gateway("  - name: http\n    port: 80\n"),
        rules::GW102,
        8,
        5,
        "spec.listeners[0].protocol: Required value",
    );
}

#[test]
fn missing_spec_points_at_the_kind_key() {
    // A missing top-level field is labelled at `kind`, which names what the object is.
    assert_at(
        "apiVersion: gateway.networking.k8s.io/v1\nkind: HTTPRoute\nmetadata:\n  name: r\n",
        rules::GW102,
        2,
        1,
        "spec: Required value",
    );
}

#[test]
fn wrong_type_points_at_the_value() {
    assert_at(
        &gateway("  - name: http\n    port: \"80\"\n    protocol: HTTP\n"),
        rules::GW103,
        9,
        11,
        "spec.listeners[0].port in body must be of type integer: \"string\"",
    );
}

#[test]
fn enum_value_points_at_the_value() {
    let text = route("  rules:\n  - matches:\n    - method: FETCH\n");
    assert_at(
        &text,
        rules::GW104,
        8,
        15,
        "spec.rules[0].matches[0].method: Unsupported value: \"FETCH\": supported values: \"GET\"",
    );
}

#[test]
fn pattern_mismatch_points_at_the_value() {
    let text = gateway("  - name: bad>\n    port: 80\n    protocol: HTTP\n");
    assert_at(
        &text,
        rules::GW105,
        8,
        11,
        "spec.listeners[0].name: Invalid value: \"bad>\": spec.listeners[0].name in body should match",
    );
}

#[test]
fn string_too_short_points_at_the_value() {
    let text = format!(
        "{GATEWAY_HEAD}  listeners:\n  - name: http\n    port: 80\n    protocol: HTTP\n    hostname: \"\"\n"
    );
    assert_at(
        &text,
        rules::GW106,
        11,
        15,
        "spec.listeners[0].hostname in body should be at least 1 chars long",
    );
}

#[test]
fn string_too_long_points_at_the_value() {
    let long = "a".repeat(300);
    let text = format!("apiVersion: v1\nkind: Namespace\nmetadata:\n  name: {long}\n");
    assert_at(&text, rules::GW115, 4, 9, "metadata.name");
}

#[test]
fn number_out_of_range_points_at_the_value() {
    assert_at(
        &gateway("  - name: http\n    port: 0\n    protocol: HTTP\n"),
        rules::GW107,
        9,
        11,
        "should be greater than or equal to 1",
    );
}

#[test]
fn too_many_items_points_at_the_list() {
    // The label is on the list value (its first item), as for every value check.
    let refs: String = (0..33).map(|i| format!("  - name: gw{i}\n")).collect();
    let text = route(&format!("  parentRefs:\n{refs}"));
    assert_at(
        &text,
        rules::GW108,
        7,
        3,
        "spec.parentRefs: Too many: 33: must have at most 32 items",
    );
}

#[test]
fn duplicate_list_map_key_points_at_the_second_item() {
    let text = gateway(
        "  - name: http\n    port: 80\n    protocol: HTTP\n  - name: http\n    port: 81\n    protocol: HTTP\n",
    );
    assert_at(
        &text,
        rules::GW109,
        11,
        5,
        "spec.listeners[1]: Duplicate value",
    );
}

#[test]
fn duplicate_set_item_points_at_the_second_item() {
    let text = route(
        "  rules:\n  - filters:\n    - type: RequestHeaderModifier\n      requestHeaderModifier:\n        remove: [foo, foo]\n",
    );
    assert_at(&text, rules::GW109, 10, 23, "Duplicate value: \"foo\"");
}

#[test]
fn yaml11_boolean_in_a_string_field_is_a_warning_at_the_value() {
    let text = format!(
        "{GATEWAY_HEAD}  listeners:\n  - name: http\n    port: 80\n    protocol: HTTP\n    hostname: on\n"
    );
    assert_at(&text, rules::GW110, 11, 15, "\"on\"");
}

#[test]
fn invalid_ip_format_points_at_the_value() {
    let text = format!(
        "{GATEWAY_HEAD}  addresses:\n  - type: IPAddress\n    value: 1.2.3\n  listeners:\n  - name: http\n    port: 80\n    protocol: HTTP\n"
    );
    assert_at(&text, rules::GW111, 9, 12, "spec.addresses[0].value");
}

#[test]
fn cel_rule_on_a_list_points_at_the_list_key() {
    let text = gateway("  - name: a\n    port: 80\n    protocol: TCP\n    hostname: example.com\n");
    assert_at(
        &text,
        rules::GW112,
        7,
        3,
        "hostname must not be specified for protocols ['TCP', 'UDP']",
    );
}

#[test]
fn cel_rule_on_a_list_item_points_at_the_item() {
    let text = route("  rules:\n  - backendRefs:\n    - name: svc\n");
    assert_at(
        &text,
        rules::GW112,
        8,
        7,
        "Must have port for Service reference",
    );
}

#[test]
fn metadata_name_must_be_a_dns_subdomain() {
    assert_at(
        "apiVersion: v1\nkind: Namespace\nmetadata:\n  name: Not_Valid\n",
        rules::GW115,
        4,
        9,
        "metadata.name: Invalid value: \"Not_Valid\"",
    );
}

#[test]
fn label_values_must_be_strings() {
    let text =
        "apiVersion: v1\nkind: Namespace\nmetadata:\n  name: a\n  labels:\n    enabled: true\n";
    assert_at(text, rules::GW115, 6, 14, "metadata.labels");
}

#[test]
fn positions_count_characters_after_multibyte_text() {
    // The comment holds multi-byte characters: columns count characters, spans count bytes.
    let text = gateway("  - name: http # ünïcödé ✓\n    port: 80\n    protocl: HTTP\n");
    assert_at(&text, rules::GW101, 10, 5, "protocl");
}

#[test]
fn positions_in_a_later_document_of_a_stream() {
    let text = format!(
        "apiVersion: v1\nkind: Namespace\nmetadata:\n  name: a\n---\n{}",
        gateway("  - name: http\n    port: 80\n    protocl: HTTP\n")
    );
    assert_at(&text, rules::GW101, 15, 5, "protocl");
}

#[test]
fn positions_inside_a_list_object_in_json() {
    let text = r#"{"apiVersion": "v1", "kind": "List", "items": [
  {"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": "a", "labelz": {}}}
]}"#;
    assert_at(
        text,
        rules::GW101,
        2,
        71,
        "unknown field \"metadata.labelz\"",
    );
}

#[test]
fn crlf_line_endings_keep_positions() {
    let text = gateway("  - name: http\n    port: 80\n    protocl: HTTP\n").replace('\n', "\r\n");
    assert_at(&text, rules::GW101, 10, 5, "protocl");
}

#[test]
fn valid_documents_have_no_findings() {
    let text = gateway("  - name: http\n    port: 80\n    protocol: HTTP\n");
    let run = lint_text(&text);
    assert_eq!(describe(&run), Vec::<String>::new());
}
