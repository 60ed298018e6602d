use serde_json::json;

use super::*;

fn eval(rule: &str, input: serde_json::Value) -> Result<bool, String> {
    let compiled = CompiledRule::compile(rule).map_err(|e| format!("compile: {e}"))?;
    compiled.eval(&from_json(&input))
}

/// (rule, self, expected result)
const TABLE: &[(&str, &str, bool)] = &[
    // has / select / size / macros
    ("has(self.a)", r#"{"a": 1}"#, true),
    ("has(self.a)", r#"{"b": 1}"#, false),
    ("size(self) == 2 && self.size() == 2", r#"[1, 2]"#, true),
    ("size(self.s) == 3", r#"{"s": "abc"}"#, true),
    ("self.all(x, x > 0)", r#"[1, 2]"#, true),
    ("self.all(x, x > 1)", r#"[1, 2]"#, false),
    ("self.exists(x, x == 2)", r#"[1, 2]"#, true),
    ("self.exists_one(x, x > 0)", r#"[1, 2]"#, false),
    ("self.filter(x, x > 1) == [2, 3]", r#"[1, 2, 3]"#, true),
    ("self.map(x, x * 2) == [2, 4]", r#"[1, 2]"#, true),
    (
        "self.all(k, k.startsWith('app'))",
        r#"{"app.io/a": "x", "app": "y"}"#,
        true,
    ),
    ("'b' in self && !('z' in self)", r#"["a", "b"]"#, true),
    ("'k' in self", r#"{"k": 1}"#, true),
    // strings
    ("self.matches('^[a-z]+$')", r#""abc""#, true),
    ("self.matches('^[a-z]+$')", r#""aBc""#, false),
    (
        "matches(self, '^([0-9]{1,5}(h|m|s|ms)){1,4}$')",
        r#""10s""#,
        true,
    ),
    (
        "matches(self, '^([0-9]{1,5}(h|m|s|ms)){1,4}$')",
        r#""10x""#,
        false,
    ),
    (
        r#"self.matches(r"""^(\*\.)?[a-z]+$""")"#,
        r#""*.abc""#,
        true,
    ),
    (r#"self.matches(r"^\d+$")"#, r#""123""#, true),
    // RE2's \d is ASCII only.
    (r#"self.matches(r"^\d+$")"#, r#""١٢٣""#, false),
    (
        "self.startsWith('ab') && self.endsWith('yz')",
        r#""abxyz""#,
        true,
    ),
    ("self.contains('x')", r#""abc""#, false),
    ("self.split('/')[1] == 'b'", r#""a/b/c""#, true),
    (
        "self.substring(2) == 'c' && self.substring(0, 2) == 'ab'",
        r#""abc""#,
        true,
    ),
    (
        "self.lowerAscii() == 'abc' && self.upperAscii() == 'ABC'",
        r#""aBc""#,
        true,
    ),
    ("self.trim() == 'a b'", r#""  a b  ""#, true),
    (
        "self.indexOf('b') == 1 && self.lastIndexOf('b') == 3",
        r#""abab""#,
        true,
    ),
    ("self.replace('a', 'x') == 'xbxb'", r#""abab""#, true),
    ("self.join('-') == 'a-b'", r#"["a", "b"]"#, true),
    ("self.find('[0-9]+') == '42'", r#""ab42cd7""#, true),
    (
        "self.findAll('[0-9]+') == ['42', '7']",
        r#""ab42cd7""#,
        true,
    ),
    // durations and timestamps
    ("duration(self) >= duration('1s')", r#""1m30s""#, true),
    ("duration(self) >= duration('1s')", r#""100ms""#, false),
    (
        "duration(self) + duration('1s') == duration('2s')",
        r#""1s""#,
        true,
    ),
    (
        "!(duration(self) < duration('1s') || duration(self) > duration('1h'))",
        r#""2h""#,
        false,
    ),
    (
        "timestamp(self) < timestamp('2030-01-01T00:00:00Z')",
        r#""2024-05-01T10:00:00Z""#,
        true,
    ),
    // conversions and types
    (
        "int(self) == 42 && string(self) == '42' && double(self) == 42.0",
        "42",
        true,
    ),
    ("int(self.s) + 1 == 8", r#"{"s": "7"}"#, true),
    ("type(self) == int", "3", true),
    ("type(self) == string", "3", false),
    // networking
    ("isIP(self)", r#""10.0.0.1""#, true),
    ("isIP(self)", r#""::1""#, true),
    ("isIP(self)", r#""010.0.0.1""#, false),
    ("isIP(self)", r#""::ffff:10.0.0.1""#, false),
    (
        "self.all(h, !isIP(h))",
        r#"["example.com", "1.2.3.4"]"#,
        false,
    ),
    (
        "ip(self).family() == 6 && ip(self).isLoopback()",
        r#""::1""#,
        true,
    ),
    (
        "isCIDR(self) && cidr(self).containsIP('10.1.2.3')",
        r#""10.0.0.0/8""#,
        true,
    ),
    (
        "cidr(self).containsCIDR('10.0.0.0/8')",
        r#""10.0.0.0/16""#,
        false,
    ),
    (
        "cidr(self).prefixLength() == 16 && string(cidr(self).masked()) == '10.1.0.0/16'",
        r#""10.1.2.3/16""#,
        true,
    ),
    (
        "isURL(self) && url(self).getHostname() == 'example.com' && url(self).getPort() == '8080'",
        r#""https://example.com:8080/x""#,
        true,
    ),
    ("isURL(self)", r#""not a url""#, false),
    // format library: optional.none() when valid
    (
        "!format.dns1123Label().validate(self).hasValue()",
        r#""my-name""#,
        true,
    ),
    (
        "format.dns1123Label().validate(self).hasValue()",
        r#""My_Name""#,
        true,
    ),
    (
        "format.dns1123Subdomain().validate(self) == optional.none()",
        r#""a.b.c""#,
        true,
    ),
    (
        "format.qualifiedName().validate(self).hasValue()",
        r#""example.com/My.Name""#,
        false,
    ),
    (
        "format.named('labelValue').value().validate(self).hasValue()",
        r#""-bad""#,
        true,
    ),
    (
        "format.uuid().validate(self).hasValue()",
        r#""123e4567-e89b-12d3-a456-426614174000""#,
        false,
    ),
    (
        "format.date().validate(self).hasValue()",
        r#""2023-02-29""#,
        true,
    ),
    // As on the API server, an optional is never equal to null: this upstream rule (XBackend
    // port names) therefore rejects every non-empty name.
    (
        "size(self) == 0 || format.dns1123Label().validate(self) == null",
        r#""http""#,
        false,
    ),
    (
        "size(self) == 0 || format.dns1123Label().validate(self) == null",
        r#""""#,
        true,
    ),
    // quantities
    (
        "quantity(self).isGreaterThan(quantity('65534')) && quantity(self).isLessThan(quantity('2147483648'))",
        r#""64Ki""#,
        true,
    ),
    (
        "quantity(self).isLessThan(quantity('4Gi'))",
        r#""5G""#,
        false,
    ),
    (
        "quantity(self).compareTo(quantity('1000m')) == 0 && quantity(self).asInteger() == 1",
        r#""1""#,
        true,
    ),
    ("isQuantity(self)", r#""1.5x""#, false),
    (
        "(type(self) == int && int(self) > 0 && int(self) < 4294967296) || (type(self) == string && quantity(self).isGreaterThan(quantity('0')) && quantity(self).isLessThan(quantity('4Gi')))",
        r#""1Gi""#,
        true,
    ),
    (
        "(type(self) == int && int(self) > 0 && int(self) < 4294967296) || (type(self) == string && quantity(self).isGreaterThan(quantity('0')) && quantity(self).isLessThan(quantity('4Gi')))",
        "0",
        false,
    ),
    // optionals
    ("self.?a.orValue(5) == 5", r#"{"b": 1}"#, true),
    ("self.?b.hasValue()", r#"{"b": 1}"#, true),
    ("optional.of(1).value() == 1", "null", true),
    // escaping of property names
    ("self.__namespace__ == 'ns'", r#"{"namespace": "ns"}"#, true),
    ("has(self.__namespace__)", r#"{"namespace": "ns"}"#, true),
    ("has(self.__namespace__)", r#"{"name": "ns"}"#, false),
    (
        "self.x__dash__y == 1 && self.a__dot__b == 2 && self.c__slash__d == 3",
        r#"{"x-y": 1, "a.b": 2, "c/d": 3}"#,
        true,
    ),
    ("self.a__underscores__b == 1", r#"{"a__b": 1}"#, true),
    (
        "self.__if__ && self.__in__",
        r#"{"if": true, "in": true}"#,
        true,
    ),
    // Gateway API: listener names unique
    (
        "self.all(l1, self.exists_one(l2, l1.name == l2.name))",
        r#"[{"name": "a"}, {"name": "b"}]"#,
        true,
    ),
    (
        "self.all(l1, self.exists_one(l2, l1.name == l2.name))",
        r#"[{"name": "a"}, {"name": "a"}]"#,
        false,
    ),
    // Must have port for Service reference
    (
        "(size(self.group) == 0 && self.kind == 'Service') ? has(self.port) : true",
        r#"{"group": "", "kind": "Service", "name": "s"}"#,
        false,
    ),
    (
        "(size(self.group) == 0 && self.kind == 'Service') ? has(self.port) : true",
        r#"{"group": "", "kind": "Service", "name": "s", "port": 80}"#,
        true,
    ),
    // tls mode must be Terminate for protocol HTTPS
    (
        "self.all(l, (l.protocol == 'HTTPS' && has(l.tls)) ? (l.tls.mode == '' || l.tls.mode == 'Terminate') : true)",
        r#"[{"protocol": "HTTPS", "tls": {"mode": "Passthrough"}}]"#,
        false,
    ),
    (
        "self.all(l, (l.protocol == 'HTTPS' && has(l.tls)) ? (l.tls.mode == '' || l.tls.mode == 'Terminate') : true)",
        r#"[{"protocol": "HTTPS", "tls": {"mode": "Terminate"}}]"#,
        true,
    ),
    (
        "self.all(l, l.protocol in ['HTTP', 'TCP', 'UDP'] ? !has(l.tls) : true)",
        r#"[{"protocol": "TCP", "tls": {}}]"#,
        false,
    ),
    // HTTPRoute path rules
    (
        "(self.type in ['Exact','PathPrefix']) ? self.value.startsWith('/') : true",
        r#"{"type": "PathPrefix", "value": "foo"}"#,
        false,
    ),
    (
        "(self.type in ['Exact','PathPrefix']) ? !self.value.contains('//') : true",
        r#"{"type": "Exact", "value": "/a//b"}"#,
        false,
    ),
    (
        "(self.type in ['Exact','PathPrefix']) ? self.value.matches(r\"\"\"^(?:[-A-Za-z0-9/._~!$&'()*+,;=:@]|[%][0-9a-fA-F]{2})+$\"\"\") : true",
        r#"{"type": "Exact", "value": "/a%2Fb"}"#,
        true,
    ),
    (
        "(self.type in ['Exact','PathPrefix']) ? self.value.matches(r\"\"\"^(?:[-A-Za-z0-9/._~!$&'()*+,;=:@]|[%][0-9a-fA-F]{2})+$\"\"\") : true",
        r#"{"type": "Exact", "value": "/a b"}"#,
        false,
    ),
    (
        "(self.type in ['Exact','PathPrefix']) ? !self.value.endsWith('/..') : true",
        r#"{"type": "RegularExpression", "value": "/x/.."}"#,
        true,
    ),
    // retry / timeouts
    (
        "!(has(self.request) && has(self.backendRequest) && duration(self.request) != duration('0s') && duration(self.backendRequest) > duration(self.request))",
        r#"{"request": "10s", "backendRequest": "20s"}"#,
        false,
    ),
    (
        "!(has(self.request) && has(self.backendRequest) && duration(self.request) != duration('0s') && duration(self.backendRequest) > duration(self.request))",
        r#"{"request": "10s", "backendRequest": "5s"}"#,
        true,
    ),
    // kgateway one-of
    (
        "[has(self.a),has(self.b)].filter(x,x==true).size() == 1",
        r#"{"a": 1}"#,
        true,
    ),
    (
        "[has(self.a),has(self.b)].filter(x,x==true).size() == 1",
        r#"{"a": 1, "b": 2}"#,
        false,
    ),
    // parentRefs with namespace
    (
        "self.all(p1, self.exists_one(p2, p1.name == p2.name && (has(p1.__namespace__) ? p1.__namespace__ : '') == (has(p2.__namespace__) ? p2.__namespace__ : '')))",
        r#"[{"name": "a", "namespace": "x"}, {"name": "a", "namespace": "y"}]"#,
        true,
    ),
    (
        "self.all(p1, self.exists_one(p2, p1.name == p2.name && (has(p1.__namespace__) ? p1.__namespace__ : '') == (has(p2.__namespace__) ? p2.__namespace__ : '')))",
        r#"[{"name": "a", "namespace": "x"}, {"name": "a", "namespace": "x"}]"#,
        false,
    ),
    (
        "!self.startsWith(':') || self in [':authority', ':method', ':path', ':scheme', ':status']",
        r#"":foo""#,
        false,
    ),
    (
        "self.all(key, key.split(\"/\")[0].size() < 253)",
        r#"{"example.com/a": "1"}"#,
        true,
    ),
];

#[test]
fn table() {
    let mut failures = Vec::new();
    for (rule, input, expected) in TABLE {
        let input: serde_json::Value = match serde_json::from_str(input) {
            Ok(v) => v,
            Err(e) => {
                failures.push(format!("bad test input {input}: {e}"));
                continue;
            }
        };
        match eval(rule, input.clone()) {
            Ok(got) if got == *expected => {}
            other => failures.push(format!("{rule} on {input}: {other:?}, want {expected}")),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn errors_are_errors() {
    // A select on a missing key is an error, has() is not.
    let err = eval("self.a == 1", json!({"b": 1})).unwrap_err();
    assert!(err.contains("No such key"), "{err}");
    let err = eval("self + 1", json!("x")).unwrap_err();
    assert!(!err.is_empty());
    let err = eval("self", json!(1)).unwrap_err();
    assert!(err.contains("not a bool"), "{err}");
    let err = eval("undefinedFn(self)", json!(1)).unwrap_err();
    assert!(err.contains("undefinedFn"), "{err}");
    assert!(CompiledRule::compile("self.matches('[')").is_err());
    assert!(eval("duration(self) > duration('1s')", json!("soon")).is_err());
}

#[test]
fn eval_string_for_message_expressions() {
    let rule = CompiledRule::compile("'name ' + self.name + ' is taken'").unwrap();
    let value = from_json(&json!({"name": "web"}));
    assert_eq!(rule.eval_string(&value).unwrap(), "name web is taken");
    assert!(rule.eval(&value).is_err());
    let not_string = CompiledRule::compile("size(self)").unwrap();
    assert!(not_string.eval_string(&value).is_err());
}

#[test]
fn transition_rules() {
    assert!(
        CompiledRule::compile("self == oldSelf")
            .unwrap()
            .is_transition_rule()
    );
    // A comprehension variable named like it is not a transition rule, nor is a string.
    let r = CompiledRule::compile("self.all(oldSelf, oldSelf > 0) && 'oldSelf' != ''").unwrap();
    assert!(!r.is_transition_rule());
    assert_eq!(
        r.source(),
        "self.all(oldSelf, oldSelf > 0) && 'oldSelf' != ''"
    );
}

#[test]
fn constructors_and_from_json() {
    let v = from_json(&json!({"i": 1, "f": 1.5, "big": 18446744073709551615u64, "n": null}));
    let rule = CompiledRule::compile(
        "type(self.i) == int && type(self.f) == double && type(self.big) == uint && self.n == null",
    )
    .unwrap();
    assert_eq!(rule.eval(&v), Ok(true));
    let built = map_value(vec![
        ("namespace".to_string(), string_value("ns")),
        ("items".to_string(), list_value(vec![string_value("a")])),
    ]);
    let rule = CompiledRule::compile("self.__namespace__ == 'ns' && self.items == ['a']").unwrap();
    assert_eq!(rule.eval(&built), Ok(true));
}

#[test]
fn escape_round_trip() {
    for name in ["namespace", "a-b", "a.b", "a/b", "a__b", "__dot__", "plain"] {
        let escaped = escape_property_name(name).unwrap();
        let back = rewrite::unescape(&escaped).unwrap_or(escaped.clone());
        assert_eq!(back, name, "{escaped}");
    }
    assert_eq!(escape_property_name("1abc"), None);
}

/// The tree evaluator agrees with the full engine on every table entry it decides, and decides the
/// common shapes (so the fast path is really taken).
#[test]
fn tree_evaluator_agrees_with_the_engine() {
    use crate::source::SourceFile;
    let mut decided = 0;
    let mut failures = Vec::new();
    for (rule, input, expected) in TABLE {
        let Ok(compiled) = CompiledRule::compile(rule) else {
            continue;
        };
        let file = SourceFile::new(0, "t.json", format!("{input}\n"));
        let parsed = crate::parse::parse_file(&file, &crate::parse::Limits::default());
        let Some(doc) = parsed.documents.first() else {
            // Scalar documents such as "abc" are documents too; only null ones are absent.
            continue;
        };
        if let Some(got) = compiled.eval_node(&doc.root, None) {
            decided += 1;
            if got != *expected {
                failures.push(format!(
                    "{rule} on {input}: tree evaluator says {got}, want {expected}"
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(
        decided >= 40,
        "tree evaluator decided only {decided} table entries"
    );
}

#[test]
fn tree_evaluator_reads_defaults_and_falls_back_on_errors() {
    use crate::source::SourceFile;
    struct Obj(serde_json::Value);
    struct Field(serde_json::Value);
    impl SchemaView for Obj {
        fn property(&self, name: &str) -> Option<&dyn SchemaView> {
            static KIND: std::sync::LazyLock<Field> =
                std::sync::LazyLock::new(|| Field(serde_json::json!("Service")));
            (name == "kind").then(|| &*KIND as &dyn SchemaView)
        }
        fn items(&self) -> Option<&dyn SchemaView> {
            None
        }
        fn default_value(&self) -> Option<&serde_json::Value> {
            Some(&self.0)
        }
        fn nullable(&self) -> bool {
            false
        }
    }
    impl SchemaView for Field {
        fn property(&self, _: &str) -> Option<&dyn SchemaView> {
            None
        }
        fn items(&self) -> Option<&dyn SchemaView> {
            None
        }
        fn default_value(&self) -> Option<&serde_json::Value> {
            Some(&self.0)
        }
        fn nullable(&self) -> bool {
            false
        }
    }
    let schema = Obj(serde_json::Value::Null);
    let file = SourceFile::new(0, "t.yaml", "name: svc\n");
    let parsed = crate::parse::parse_file(&file, &crate::parse::Limits::default());
    let root = &parsed.documents[0].root;
    let rule = |r: &str| CompiledRule::compile(r).expect("compiles");
    // `kind` is absent but defaulted: the rule sees the default, as after API-server defaulting.
    assert_eq!(
        rule("self.kind == 'Service' && has(self.kind)").eval_node(root, Some(&schema)),
        Some(true)
    );
    // Without the schema there is no default: reading it is an error, left to the full engine.
    assert_eq!(rule("self.kind == 'Service'").eval_node(root, None), None);
    // Absorbed errors: `false && error` is false, `true || error` is true.
    assert_eq!(
        rule("false && self.missing == 1").eval_node(root, None),
        Some(false)
    );
    assert_eq!(
        rule("self.missing == 1 || true").eval_node(root, None),
        Some(true)
    );
    // Outside the subset (duration): not decided here.
    assert_eq!(
        rule("duration('1s') < duration('2s')").eval_node(root, None),
        None
    );
}

/// Shapes the compiled tree evaluator resolves ahead (variables by slot, indexes, literal
/// lists): decided, and decided right.
#[test]
fn tree_evaluator_resolves_scopes_indexes_and_literal_lists() {
    use crate::source::SourceFile;
    let file = SourceFile::new(
        0,
        "t.yaml",
        "rules:\n- name: a\n  matches: [1, 2]\n- name: b\n  matches: [3]\nkind: Gateway\n",
    );
    let parsed = crate::parse::parse_file(&file, &crate::parse::Limits::default());
    let root = &parsed.documents[0].root;
    let eval = |r: &str| {
        CompiledRule::compile(r)
            .expect("compiles")
            .eval_node(root, None)
    };
    // An inner comprehension reads the outer one's variable; names shadow outward in.
    assert_eq!(
        eval("self.rules.all(r, self.rules.exists_one(o, o.name == r.name))"),
        Some(true)
    );
    assert_eq!(
        eval("self.rules.all(x, x.matches.all(x, x > 0))"),
        Some(true)
    );
    assert_eq!(
        eval("self.rules.exists(r, r.matches.exists(m, m == size(self.rules) + 1))"),
        Some(true)
    );
    // Indexing reads one item; past the end is an error left to the full engine.
    assert_eq!(eval("self.rules[1].name == 'b'"), Some(true));
    assert_eq!(eval("self.rules[2].name == 'b'"), None);
    assert_eq!(
        eval(
            "(size(self.rules) > 0 ? size(self.rules[0].matches) : 0) + (size(self.rules) > 1 ? size(self.rules[1].matches) : 0) == 3"
        ),
        Some(true)
    );
    // `in` a literal list compares item by item; a list built at run time still works.
    assert_eq!(eval("self.kind in ['HTTPRoute', 'Gateway']"), Some(true));
    assert_eq!(eval("self.kind in ['HTTPRoute', 'GRPCRoute']"), Some(false));
    assert_eq!(eval("'b' in self.rules.map(r, r.name)"), Some(true));
    // A name that no scope binds is not compiled for the tree evaluator.
    assert_eq!(eval("unknown == 1"), None);
}
