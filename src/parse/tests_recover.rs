//! Parse-stage tests: aliases and merges, limits, syntax errors and recovery, encodings, JSON.

use super::tests::{codes, parse, parse_with, slice};
use super::*;
use crate::source::Span;

#[test]
fn aliases_copy_the_anchored_node() {
    let text = "base: &b\n  port: 80\n  name: x\nuse: *b\nlist: [&s str, *s]\n";
    let (file, parsed) = parse(text);
    assert!(parsed.diagnostics.is_empty(), "{:?}", parsed.diagnostics);
    let root = &parsed.documents[0].root;
    let used = root.get("use").unwrap();
    assert_eq!(used.lookup("port").unwrap().value, Value::Int(80));
    // The copy is located at the alias; its children at the anchored source.
    assert_eq!(slice(&file, used.span), "*b");
    assert_eq!(
        slice(&file, root.get("base").unwrap().span),
        "port: 80\n  name: x"
    );
    let list = root.get("list").unwrap().as_seq().unwrap();
    assert_eq!(list[1].as_str(), Some("str"));
    assert_eq!(slice(&file, list[0].span), "str");
}

#[test]
fn merge_keys_merge_maps_and_explicit_keys_win() {
    let text = "a: &a {x: 1, y: 2}\nb: &b {y: 3, z: 4}\n\
                m1:\n  x: 0\n  <<: *a\nm2:\n  <<: [*b, *a]\n  w: 5\n\"<<\": quoted\n";
    let (_, parsed) = parse(text);
    assert!(parsed.diagnostics.is_empty(), "{:?}", parsed.diagnostics);
    let root = &parsed.documents[0].root;
    let m1 = root.get("m1").unwrap();
    assert_eq!(m1.get("x").unwrap().value, Value::Int(0));
    assert_eq!(m1.get("y").unwrap().value, Value::Int(2));
    assert!(m1.get("<<").is_none());
    let m2 = root.get("m2").unwrap();
    let json = m2.to_json();
    assert_eq!(json, serde_json::json!({"w": 5, "y": 3, "z": 4, "x": 1}));
    // A quoted `<<` is an ordinary key.
    assert_eq!(root.get("<<").unwrap().as_str(), Some("quoted"));
}

#[test]
fn merge_of_a_scalar_is_an_error() {
    let (_, parsed) = parse("a:\n  <<: 3\n  b: 1\n");
    assert_eq!(codes(&parsed), ["GW002"]);
    assert!(parsed.diagnostics[0].message.contains("merge key"));
}

#[test]
fn undefined_alias_is_a_syntax_error() {
    // saphyr resolves anchor names across documents; the tree must not.
    let (_, parsed) = parse("a: &x 1\n---\nb: *x\n---\nc: 2\n");
    assert_eq!(codes(&parsed), ["GW002"]);
    let indices: Vec<usize> = parsed.documents.iter().map(|d| d.index).collect();
    assert_eq!(indices, [0, 2]);
    let (_, parsed) = parse("b: *nope\n");
    assert_eq!(codes(&parsed), ["GW002"]);
    assert!(parsed.documents.is_empty());
}

fn billion_laughs() -> String {
    let mut text = String::from(
        "a: &a [\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\"]\n",
    );
    let names = ["a", "b", "c", "d", "e", "f", "g", "h", "i"];
    for pair in names.windows(2) {
        let refs = vec![format!("*{}", pair[0]); 10].join(",");
        text.push_str(&format!("{n}: &{n} [{refs}]\n", n = pair[1]));
    }
    text
}

#[test]
fn billion_laughs_is_rejected_quickly() {
    let text = format!("ok: 1\n---\n{}---\nafter: 1\n", billion_laughs());
    let (file, parsed) = parse(&text);
    assert_eq!(codes(&parsed), ["GW005"]);
    let d = &parsed.diagnostics[0];
    assert_eq!(
        d.message,
        "YAML alias expansion exceeds the limit of 100000 nodes in this file (a \"billion laughs\" document?); \
         raise it with --max-alias-nodes"
    );
    // The work stays bounded: the budget is checked before an alias is copied, so the expansion
    // stops at a `*d` of `e`, at most 100,000 copied nodes in, not at `i` (10^9 nodes).
    let span = d.location.as_ref().unwrap().span;
    assert_eq!(slice(&file, span), "*d");
    let indices: Vec<usize> = parsed.documents.iter().map(|d| d.index).collect();
    assert_eq!(indices, [0, 2]);
}

#[test]
fn alias_limit_is_configurable() {
    let text = "a: &a [1, 2, 3]\nb: [*a, *a]\n";
    let limits = Limits {
        max_alias_nodes: 7,
        ..Limits::default()
    };
    let (_, parsed) = parse_with(text, &limits);
    assert_eq!(codes(&parsed), ["GW005"]);
    assert!(parsed.diagnostics[0].message.contains("limit of 7 nodes"));
    let limits = Limits {
        max_alias_nodes: 8,
        ..Limits::default()
    };
    let (_, parsed) = parse_with(text, &limits);
    assert!(parsed.diagnostics.is_empty());
    assert_eq!(parsed.documents.len(), 1);
}

#[test]
fn depth_limit() {
    let deep = format!("{}1{}", "[".repeat(20), "]".repeat(20));
    let limits = Limits {
        max_depth: 10,
        ..Limits::default()
    };
    let (file, parsed) = parse_with(&format!("a: {deep}\n---\nb: 1\n"), &limits);
    assert_eq!(codes(&parsed), ["GW005"]);
    let d = &parsed.diagnostics[0];
    assert_eq!(
        d.message,
        "nesting deeper than the limit of 10 levels; raise it with --max-depth"
    );
    let at = file.line_col(d.location.as_ref().unwrap().span.start);
    assert_eq!((at.line, at.column), (1, 13));
    assert_eq!(parsed.documents.len(), 1);
    assert_eq!(parsed.documents[0].index, 1);
    // Block nesting is limited the same way, and deep input does not overflow the stack.
    let block: String = (0..5000)
        .map(|i| format!("{}k:\n", " ".repeat(i)))
        .collect();
    let (_, parsed) = parse(&block);
    assert_eq!(codes(&parsed), ["GW005"]);
    assert!(
        parsed.diagnostics[0]
            .message
            .contains("limit of 128 levels")
    );
}

#[test]
fn document_size_and_count_limits() {
    let limits = Limits {
        max_document_bytes: 20,
        ..Limits::default()
    };
    let text = "a: 1\n---\nlong: [1, 2, 3, 4, 5, 6, 7, 8, 9]\n---\nb: 2\n";
    let (_, parsed) = parse_with(text, &limits);
    assert_eq!(codes(&parsed), ["GW005"]);
    assert!(
        parsed.diagnostics[0]
            .message
            .contains("--max-document-bytes")
    );
    let indices: Vec<usize> = parsed.documents.iter().map(|d| d.index).collect();
    assert_eq!(indices, [0, 2]);

    let limits = Limits {
        max_documents: 2,
        ..Limits::default()
    };
    let (_, parsed) = parse_with("a: 1\n---\nb: 2\n---\nc: 3\n---\nd: 4\n", &limits);
    assert_eq!(codes(&parsed), ["GW005"]);
    assert_eq!(
        parsed.diagnostics[0].message,
        "more than 2 documents in the file; the rest are skipped; raise the limit with --max-documents"
    );
    assert_eq!(parsed.documents.len(), 2);
}

#[test]
fn syntax_error_in_the_second_of_three_documents() {
    let text = "a: 1\n---\nb: [1, 2\nc: 3\n---\nd: 4\n";
    let (file, parsed) = parse(text);
    assert_eq!(codes(&parsed), ["GW002"]);
    let d = &parsed.diagnostics[0];
    assert!(!d.message.contains("line"), "{}", d.message);
    let span = d.location.as_ref().unwrap().span;
    assert!(span.len() <= 1);
    assert!(span.start > 9 && span.start <= 20, "{span:?}");
    let indices: Vec<usize> = parsed.documents.iter().map(|d| d.index).collect();
    assert_eq!(indices, [0, 2]);
    let last = parsed.documents[1].root.entry("d").unwrap();
    assert_eq!(file.line_col(last.key_span.start).line, 6);
}

#[test]
fn tabs_as_indentation_are_reported() {
    let (file, parsed) = parse("a:\n\tb: 1\n");
    assert_eq!(codes(&parsed), ["GW002"]);
    let d = &parsed.diagnostics[0];
    assert!(d.message.contains("tabs"), "{}", d.message);
    let at = file.line_col(d.location.as_ref().unwrap().span.start);
    assert_eq!(at.line, 2);
    assert!(parsed.documents.is_empty());
}

#[test]
fn unterminated_quote_is_reported_and_later_documents_kept() {
    let text = "a: \"open\nb: 1\n---\nc: 2\n";
    let (_, parsed) = parse(text);
    assert_eq!(codes(&parsed), ["GW002"]);
    assert_eq!(parsed.documents.len(), 1);
    assert_eq!(parsed.documents[0].index, 1);
    let (_, parsed) = parse("a: 'never closed");
    assert_eq!(codes(&parsed), ["GW002"]);
}

#[test]
fn bom_is_skipped_and_spans_index_the_original_text() {
    let text = "\u{feff}kind: Gateway\nname: ü\n";
    let (file, parsed) = parse(text);
    assert!(parsed.diagnostics.is_empty());
    let entry = parsed.documents[0].root.entry("kind").unwrap();
    assert_eq!(entry.key_span, Span::new(3, 7));
    assert_eq!(slice(&file, entry.value.span), "Gateway");
    assert_eq!(
        slice(&file, parsed.documents[0].root.get("name").unwrap().span),
        "ü"
    );
}

#[test]
fn crlf_line_endings() {
    let text = "a: 1\r\nb: \"x\"\r\nc: |\r\n  text\r\n\r\nd:\r\n  - e\r\n";
    let (file, parsed) = parse(text);
    assert!(parsed.diagnostics.is_empty(), "{:?}", parsed.diagnostics);
    let root = &parsed.documents[0].root;
    let b = root.entry("b").unwrap();
    assert_eq!(slice(&file, b.key_span), "b");
    assert_eq!(slice(&file, b.value.span), "\"x\"");
    assert_eq!(file.line_col(b.key_span.start).line, 2);
    assert_eq!(slice(&file, root.get("c").unwrap().span), "|\r\n  text");
    assert_eq!(slice(&file, root.get("d").unwrap().span), "- e");
    assert_eq!(root.get("c").unwrap().as_str(), Some("text\n"));
}

#[test]
fn json_input() {
    let text = "{\n  \"kind\": \"Gateway\",\n  \"n\": 18446744073709551616,\n  \"i\": -5,\n  \"kind\": \"Other\"\n}\n";
    let (file, parsed) = parse(text);
    assert_eq!(codes(&parsed), ["GW003"]);
    let d = &parsed.diagnostics[0];
    assert_eq!(
        d.message,
        "duplicate key \"kind\": already set at line 2 column 3"
    );
    assert_eq!(slice(&file, d.location.as_ref().unwrap().span), "\"kind\"");
    let root = &parsed.documents[0].root;
    assert_eq!(root.get("kind").unwrap().as_str(), Some("Gateway"));
    assert_eq!(
        root.get("n").unwrap().value,
        Value::Float(18446744073709551616.0)
    );
    assert_eq!(root.get("i").unwrap().value, Value::Int(-5));
    assert_eq!(slice(&file, parsed.documents[0].span), text.trim_end());
}

#[test]
fn a_document_that_is_one_flow_collection_keeps_its_positions() {
    // Parsed behind a `--- ` marker (so saphyr streams it); every span still indexes the file.
    let text = "  \n {\"kind\": [1, {\"a\": 'x'}], \"kind\": \"Gateway\"}\n---\n[1, 2\n";
    let (file, parsed) = parse(text);
    assert_eq!(codes(&parsed), ["GW003", "GW002"]);
    let dup = parsed.diagnostics[0].location.as_ref().unwrap().span;
    assert_eq!((dup.start, slice(&file, dup)), (30, "\"kind\""));
    let doc = &parsed.documents[0];
    assert_eq!(slice(&file, doc.span), &text[4..48]);
    let a = doc.root.get("kind").unwrap().as_seq().unwrap()[1].get("a");
    assert_eq!(slice(&file, a.unwrap().span), "'x'");
    let err = parsed.diagnostics[1].location.as_ref().unwrap().span;
    assert_eq!(err.start, text.len());
}

#[test]
fn a_flow_collection_as_a_mapping_key_is_still_read_as_a_key() {
    // Not given the `--- ` marker (that would make `: b` a syntax error): the key is read and
    // refused as complex, and the rest of the mapping is kept.
    for (text, key) in [
        ("[a]: b\nc: d\n", "[a]"),
        ("{a: 1, 'q''}': \"]\"}: b\nc: d\n", "{a: 1, 'q''}': \"]\"}"),
    ] {
        let (file, parsed) = parse(text);
        assert_eq!(codes(&parsed), ["GW002"], "{text}");
        let d = &parsed.diagnostics[0];
        assert_eq!(d.message, "complex mapping keys are not supported");
        assert_eq!(slice(&file, d.location.as_ref().unwrap().span), key);
        let root = &parsed.documents[0].root;
        assert_eq!(root.get("c").and_then(|v| v.as_str()), Some("d"), "{text}");
    }
}

#[test]
fn int_beyond_i64_becomes_float() {
    let (_, parsed) =
        parse("a: 9223372036854775807\nb: 9223372036854775808\nc: 0xffffffffffffffff\n");
    let root = &parsed.documents[0].root;
    assert_eq!(root.get("a").unwrap().value, Value::Int(i64::MAX));
    assert_eq!(
        root.get("b").unwrap().value,
        Value::Float(9223372036854775808.0)
    );
    assert_eq!(
        root.get("c").unwrap().value,
        Value::Float(18446744073709551615.0)
    );
}

#[test]
fn explicit_tags() {
    let (_, parsed) = parse(
        "a: !!str 123\nb: !!int \"7\"\nc: !!float 1\nd: !!bool \"true\"\ne: !!null x\nf: ! 12\n",
    );
    let root = &parsed.documents[0].root;
    let v = |k: &str| root.get(k).unwrap().value.clone();
    assert_eq!(v("a"), Value::Str(Str::new("123", false)));
    assert_eq!(v("b"), Value::Int(7));
    assert_eq!(v("c"), Value::Float(1.0));
    assert_eq!(v("d"), Value::Bool(true));
    assert_eq!(v("e"), Value::Null);
    assert_eq!(v("f"), Value::Str(Str::new("12", false)));
}

#[test]
fn never_panics_on_truncated_or_mangled_input() {
    let sample = "a: &x {b: [1, \"two\", 'thr''ee'], c: |\n  block ü\n}\n---\n- *x\n- <<: *x\n  ? k\n  : v\n";
    let limits = Limits::default();
    for end in (0..=sample.len()).filter(|i| sample.is_char_boundary(*i)) {
        let _ = parse_with(&sample[..end], &limits);
        let mangled = format!("{}\t]}}\"{}", &sample[..end], &sample[end..]);
        let _ = parse_with(&mangled, &limits);
    }
}
