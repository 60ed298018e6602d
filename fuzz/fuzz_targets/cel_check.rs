//! Arbitrary text as a CEL expression: the syntax check (data-plane expressions) and a schema
//! rule compiled and evaluated against a small fixed object. No panic; error positions inside the
//! expression; a syntax error also fails the compile; and where the tree evaluator (the fast path)
//! decides a rule, the full engine agrees.
#![no_main]

use std::sync::LazyLock;

use gwctl::cel::{CelValue, CompiledRule, check_syntax, from_json};
use gwctl::parse::{Limits, Node, parse_file};
use gwctl::source::SourceFile;
use libfuzzer_sys::fuzz_target;

const SELF_YAML: &str = r#"
name: web
port: 8080
weight: -3
ratio: 0.5
enabled: true
nothing: null
labels: {app: web, "a.b/c-d": x}
items: [1, 2, 3]
rules:
- name: a
  matches: [{path: {type: PathPrefix, value: /x}}]
- name: b
"#;

static SELF: LazyLock<(Node, CelValue)> = LazyLock::new(|| {
    let file = SourceFile::new(0, "self.yaml", SELF_YAML);
    let parsed = parse_file(&file, &Limits::default());
    let root = parsed
        .documents
        .into_iter()
        .next()
        .expect("fixed value")
        .root;
    let value = from_json(&root.to_json());
    (root, value)
});

fuzz_target!(|data: &[u8]| {
    let Ok(expr) = std::str::from_utf8(data) else {
        return;
    };
    let syntax = check_syntax(expr);
    if let Err(e) = &syntax {
        assert!(
            e.offset <= expr.len() && expr.is_char_boundary(e.offset),
            "syntax error offset {} outside the expression",
            e.offset
        );
        assert!(e.line >= 1 && e.column >= 1);
    }
    let compiled = CompiledRule::compile(expr);
    if syntax.is_err() {
        assert!(compiled.is_err(), "a syntax error compiled");
    }
    let Ok(rule) = compiled else {
        return;
    };
    let (node, value) = &*SELF;
    let full = rule.eval(value);
    let _ = rule.eval_string(value);
    if let (Some(fast), Ok(full)) = (rule.eval_node(node, None), &full) {
        assert_eq!(
            fast, *full,
            "tree evaluator and engine disagree on {expr:?}"
        );
    }
});
