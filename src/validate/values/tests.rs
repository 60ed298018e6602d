//! Value checkers through the whole walk (exact code, message and line:column, positions inside
//! scalars of every style), and the checkers' edge cases directly.

use serde_json::json;

use super::{check, scalars};
use crate::rules;
use crate::schema::compile::ValueFormat;

/// A CRD with one field per `x-gwctl-format`.
fn gadget_crd() -> serde_json::Value {
    let f = |name: &str| json!({"type": "string", "x-gwctl-format": name});
    json!({
        "apiVersion": "apiextensions.k8s.io/v1",
        "kind": "CustomResourceDefinition",
        "spec": {
            "group": "example.com",
            "names": {"kind": "Gadget"},
            "scope": "Namespaced",
            "versions": [{"name": "v1", "served": true, "schema": {"openAPIV3Schema": {
                "type": "object",
                "properties": {
                    "apiVersion": {"type": "string"},
                    "kind": {"type": "string"},
                    "metadata": {"type": "object"},
                    "spec": {"type": "object", "properties": {
                        "expr": f("cel-expression"),
                        "pattern": f("regex"),
                        "header": f("header-name"),
                        "timeout": f("duration"),
                        "size": f("quantity"),
                        "jwks": f("jwks"),
                        "users": {"type": "array", "items": f("htpasswd")},
                        "plain": {"type": "string"}
                    }}
                }
            }}}]
        }
    })
}

fn lint_gadget(spec: &str) -> Vec<String> {
    let yaml =
        format!("apiVersion: example.com/v1\nkind: Gadget\nmetadata: {{name: g}}\nspec:\n{spec}");
    crate::validate::tests::lint_with_crd(&gadget_crd(), &yaml)
}

const EOF_EXPECTING: &str = "mismatched input '<EOF>' expecting";

#[test]
fn valid_values_have_no_findings() {
    let spec = "  expr: |\n    request.headers['x-a'] == 'b' &&\n      jwt.sub.startsWith('u')\n  pattern: '^/api/v[0-9]+/\\Qa.b\\E$'\n  header: X-Request-Id\n  timeout: 1h30m0.5s\n  size: 1.5Gi\n  jwks: '{\"keys\": [{\"kty\": \"EC\", \"crv\": \"P-256\", \"x\": \"AA\", \"y\": \"BB\"}]}'\n  users: ['alice:{SHA}W6ph5Mm5Pz8GgiULbPgzG37mj9g=']\n  plain: 'request.'\n";
    assert_eq!(lint_gadget(spec), Vec::<String>::new());
}

#[test]
fn cel_syntax_error_inside_a_literal_block_scalar() {
    // The error is the `*` on the expression's third line: file line 8, column 11.
    let spec = "  expr: |\n    request.path == '/a' ||\n      request.path == '/b' ||\n      (1 +* 2) > 0\n";
    let found = lint_gadget(spec);
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(
        found[0]
            .starts_with("8:11 GW116 spec.expr: CEL syntax error: extraneous input '*' expecting"),
        "{found:?}"
    );
}

#[test]
fn cel_syntax_error_in_a_folded_and_a_stripped_block() {
    let found = lint_gadget("  expr: >-\n    request.path ==\n    \n    'a' && (\n");
    assert_eq!(found.len(), 1, "{found:?}");
    // End of input: just after the last character, `(` at line 8 column 12.
    assert!(
        found[0].starts_with("8:13 GW116 spec.expr: CEL syntax error: "),
        "{found:?}"
    );
    assert!(found[0].contains(EOF_EXPECTING), "{found:?}");
}

#[test]
fn cel_syntax_error_after_escapes_in_a_double_quoted_scalar() {
    // Decoded: request.headers["x"] == "\u00e9"\n&& ) ; the `)` is at file column 51.
    let spec = "  expr: \"request.headers[\\\"x\\\"] == \\\"\\u00e9\\\"\\n&& )\"\n";
    let found = lint_gadget(spec);
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(
        found[0].starts_with("5:51 GW116 spec.expr: CEL syntax error: "),
        "{found:?}"
    );
}

#[test]
fn cel_error_in_single_quoted_and_plain_scalars() {
    let found = lint_gadget("  expr: 'request.path == ''a'' +* 1'\n");
    assert!(found[0].starts_with("5:33 GW116 "), "{found:?}");
    let found = lint_gadget("  expr: request.size >\n    10 +* 1\n");
    assert!(found[0].starts_with("6:9 GW116 "), "{found:?}");
}

#[test]
fn unknown_top_level_name_with_suggestion() {
    let found =
        lint_gadget("  expr: |\n    request.path == '/' &&\n      reqest.method == 'GET' && x.y\n");
    assert_eq!(
        found,
        [
            r#"7:7 GW117 spec.expr: CEL expression reads "reqest", which is not a variable of the data plane [did you mean "request"?]"#,
            r#"7:33 GW117 spec.expr: CEL expression reads "x", which is not a variable of the data plane [the data plane provides: request, response, source, destination, jwt, apiKey, basicAuth, llm, llmRequest, mcp, backend, extauthz, extproc, metadata, env, proxy]"#,
        ]
    );
    // Comprehension variables, fields after `.` and names in strings are not variables.
    let ok =
        "  expr: \"request.headers.exists(h, h == 'reqest') && type(1) == int && jwt.reqest\"\n";
    assert_eq!(lint_gadget(ok), Vec::<String>::new());
}

#[test]
fn cel_nesting_limit() {
    let deep = format!("  expr: '{}1{}'\n", "(".repeat(70), ")".repeat(70));
    let found = lint_gadget(&deep);
    assert_eq!(
        found,
        [
            "5:74 GW116 spec.expr: CEL expression nests deeper than --max-cel-depth (64) [raise the limit with --max-cel-depth if the expression is meant]"
        ]
    );
}

#[test]
fn regex_errors_point_inside_the_pattern() {
    assert_eq!(
        lint_gadget("  pattern: '^/api/(v[0-9]+/'\n"),
        ["5:19 GW118 spec.pattern: invalid regular expression: unclosed group"]
    );
    assert_eq!(
        lint_gadget("  pattern: \"(a)\\\\1\"\n"),
        ["5:16 GW118 spec.pattern: invalid regular expression: backreferences are not supported"]
    );
    assert_eq!(
        lint_gadget("  pattern: foo(?=bar)\n"),
        [
            "5:15 GW118 spec.pattern: invalid regular expression: look-around, including look-ahead and look-behind, is not supported"
        ]
    );
    assert_eq!(
        lint_gadget("  pattern: ab++\n"),
        [
            r#"5:15 GW118 spec.pattern: invalid regular expression: RE2 rejects the repetition operator "+" after another one"#
        ]
    );
    assert_eq!(
        lint_gadget("  pattern: x{1001}\n"),
        [
            "5:13 GW118 spec.pattern: invalid regular expression: RE2 allows repeat counts up to 1000, not 1001"
        ]
    );
    assert_eq!(
        lint_gadget("  pattern: (?x)a b\n"),
        ["5:14 GW118 spec.pattern: invalid regular expression: RE2 does not support the flag 'x'"]
    );
    // After a rewritten \Q..\E the position still maps to the original pattern.
    assert_eq!(
        lint_gadget("  pattern: '\\Q.*\\E(x'\n"),
        ["5:19 GW118 spec.pattern: invalid regular expression: unclosed group"]
    );
}

#[test]
fn regex_re2_only_syntax_and_lazy_repetition_are_accepted() {
    for ok in [
        r"\Qa.b\E", r"a\Cb", "a*?b", "a{2,5}?", "x{1000}", "[a+*]+", "(?i:ab)", "(?P<n>a)", "a{,",
    ] {
        assert_eq!(check(ValueFormat::Regex, ok), vec![], "{ok}");
    }
    for bad in ["a**", "a{2}{3}", "a?+", r"\<a", r"\b{start}a", "a{1,2000}"] {
        assert_eq!(check(ValueFormat::Regex, bad).len(), 1, "{bad}");
    }
}

#[test]
fn regex_size_limit() {
    let found = check(ValueFormat::Regex, r"\w{1000}\w{1000}\w{1000}");
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(
        found[0].message.contains("exceeds the size limit"),
        "{found:?}"
    );
}

#[test]
fn header_names() {
    assert_eq!(
        lint_gadget("  header: 'X Request'\n"),
        [
            "5:13 GW119 spec.header: invalid header name: a space is not allowed (RFC 7230 token: letters, digits and !#$%&'*+-.^_`|~)"
        ]
    );
    assert_eq!(
        lint_gadget("  header: ''\n"),
        ["5:11 GW119 spec.header: header name must not be empty"]
    );
    assert_eq!(check(ValueFormat::HeaderName, ":authority"), vec![]);
    assert_eq!(check(ValueFormat::HeaderName, "x:y").len(), 1);
}

#[test]
fn durations_follow_go() {
    assert_eq!(
        lint_gadget("  timeout: 10x\n"),
        [
            r#"5:14 GW120 spec.timeout: Invalid value: "10x": time: unknown unit "x" in duration "10x""#
        ]
    );
    assert_eq!(
        lint_gadget("  timeout: '30'\n"),
        [r#"5:12 GW120 spec.timeout: Invalid value: "30": time: missing unit in duration "30""#]
    );
    for ok in [
        "0",
        "-1.5h",
        "+.5s",
        "1h2m3s4ms5us6ns",
        "1\u{b5}s",
        "2562047h47m16.854775807s",
    ] {
        assert!(scalars::parse_duration(ok).is_ok(), "{ok}");
    }
    for bad in [
        "",
        "1",
        ".s",
        "1.2.3s",
        "2562047h47m16.854775808s",
        "1 s",
        "s",
    ] {
        assert!(scalars::parse_duration(bad).is_err(), "{bad}");
    }
    assert_eq!(scalars::parse_duration("1m30s"), Ok(90_000_000_000));
    // Go sums the parts in uint64: 2^63 ns twice wraps to 0 (accepted), where it once
    // overflowed here (a panic in a debug build).
    assert_eq!(
        scalars::parse_duration("9223372036854775808ns9223372036854775808ns"),
        Ok(0)
    );
    assert!(scalars::parse_duration("9223372036854775808ns1ns").is_err());
}

#[test]
fn quantities_follow_kubernetes() {
    assert_eq!(
        lint_gadget("  size: 1ki\n"),
        [r#"5:9 GW121 spec.size: Invalid value: "1ki": unable to parse quantity's suffix"#]
    );
    assert_eq!(
        lint_gadget("  size: 1 Gi\n"),
        [
            r#"5:9 GW121 spec.size: Invalid value: "1 Gi": quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'"#
        ]
    );
    for ok in ["0", "1", "1.5Gi", "100m", "1e3", "1E-3", ".5", "1.G", "+2k"] {
        assert_eq!(check(ValueFormat::Quantity, ok), vec![], "{ok}");
    }
    for bad in ["", "1Gib", "1e", "1Gi1", "1.2.3", "1MB"] {
        assert_eq!(check(ValueFormat::Quantity, bad).len(), 1, "{bad}");
    }
}

#[test]
fn a_byte_size_in_milli_is_a_fraction_of_a_byte() {
    let milli = check(ValueFormat::ByteSize, "100m");
    assert_eq!(milli.len(), 1);
    assert_eq!(milli[0].code, rules::GW129);
    assert_eq!(
        milli[0].message,
        r#""100m" is 100 thousandths of a byte: the suffix m means milli"#
    );
    assert_eq!(milli[0].range, Some(3..4));
    for ok in ["100Mi", "100M", "1024", "0"] {
        assert_eq!(check(ValueFormat::ByteSize, ok), vec![], "{ok}");
    }
    // An invalid quantity is that, not a milli one.
    assert_eq!(check(ValueFormat::ByteSize, "1MB")[0].code, rules::GW121);
}

#[test]
fn jwks_structure_and_private_members() {
    assert_eq!(
        lint_gadget(
            "  jwks: |\n    {\"keys\": [\n      {\"kty\": \"RSA\", \"n\": \"AQAB\",}\n    ]}\n"
        ),
        ["7:34 GW122 spec.jwks: JWKS is not valid JSON: trailing comma"]
    );
    let found = lint_gadget(
        "  jwks: '{\"keys\": [{\"kty\": \"RSA\", \"n\": \"AQAB\"}, {\"kty\": \"EC\", \"crv\": \"P-256\", \"x\": \"a\", \"y\": \"b\", \"d\": \"SECRETVALUE\"}, {\"kty\": \"XX\"}]}'\n",
    );
    assert_eq!(
        found,
        [
            r#"5:9 GW122 spec.jwks: keys[0] (RSA) lacks "e""#,
            r#"5:9 GW123 spec.jwks: keys[1] has private key members ("d") [publish only public keys; treat the private key as compromised and rotate it]"#,
            r#"5:9 GW122 spec.jwks: keys[2] has the unknown key type "XX"; known: RSA, EC, OKP, oct"#,
        ]
    );
    assert!(found.iter().all(|f| !f.contains("SECRETVALUE")));
    assert_eq!(check(ValueFormat::Jwks, r#"{"keys": []}"#).len(), 1);
    assert_eq!(
        check(
            ValueFormat::Jwks,
            r#"{"kty": "OKP", "crv": "Ed25519", "x": "a"}"#
        ),
        vec![]
    );
    let oct = check(
        ValueFormat::Jwks,
        r#"{"keys": [{"kty": "oct", "k": "c2VjcmV0"}]}"#,
    );
    assert_eq!(oct.len(), 1);
    assert_eq!(oct[0].code, crate::rules::GW123);
    assert!(!oct[0].message.contains("c2VjcmV0"));
    let pem = "-----BEGIN PUBLIC KEY-----\nMFkw\n-----END PUBLIC KEY-----\n";
    assert_eq!(check(ValueFormat::Jwks, pem), vec![]);
    let private = "-----BEGIN PRIVATE KEY-----\nMIIE\n-----END PRIVATE KEY-----\n";
    assert_eq!(
        check(ValueFormat::Jwks, private)[0].code,
        crate::rules::GW123
    );
}

#[test]
fn htpasswd_lines() {
    let found = lint_gadget(
        "  users:\n  - 'alice:{SHA}W6ph5Mm5Pz8GgiULbPgzG37mj9g='\n  - 'bob:hunter2'\n  - 'carol'\n  - 'dave:$apr1$short$x'\n",
    );
    assert_eq!(
        found,
        [
            r#"7:6 GW124 spec.users[1]: htpasswd hash of user "bob" is in no known scheme (a plain-text password?); use {SHA}, $apr1$, bcrypt ($2y$), $5$/$6$ or crypt"#,
            "8:6 GW124 spec.users[2]: htpasswd line is not <user>:<hash> (no ':')",
            r#"9:6 GW124 spec.users[3]: htpasswd hash of user "dave" is not a well-formed MD5 ($apr1$) hash"#,
        ]
    );
    assert!(
        found
            .iter()
            .all(|f| !f.contains("hunter2") && !f.contains("short"))
    );
    for ok in [
        "u:$apr1$saltsalt$yAAkm4libquA.ZWLHbSBq/",
        "u:$2y$05$abcdefghijklmnopqrstuuVhgnz0e1Em6BDybp1PSd0rHaBJ6gW3O",
        "u:$6$salt$IxDD3jeSOb5eB1CX5LBsqZFVkJdido3OUILO5Ifz5iwMuTS4XMS130MTSuDDl3aCI6WouIL9AjRbLCelDCy.g.",
        "u:abJnggxhB/yWI",
        "# comment\n\nu:abJnggxhB/yWI\n",
    ] {
        assert_eq!(check(ValueFormat::Htpasswd, ok), vec![], "{ok}");
    }
}

#[test]
fn unknown_extension_value_is_a_schema_problem() {
    let c = crate::schema::compile::compile(&json!({"type": "string", "x-gwctl-format": "nope"}));
    assert_eq!(c.problems, [": unknown x-gwctl-format \"nope\""]);
    for f in ValueFormat::ALL {
        assert_eq!(ValueFormat::parse(f.name()), Some(f));
    }
}
