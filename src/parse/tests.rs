//! Parse-stage tests: exact spans, scalar typing, duplicates, multi-document streams.

use super::*;
use crate::source::{SourceFile, Span};

pub(super) fn parse_with(text: &str, limits: &Limits) -> (SourceFile, ParsedFile) {
    let file = SourceFile::new(0, "test.yaml", text);
    let parsed = parse_file(&file, limits);
    (file, parsed)
}

pub(super) fn parse(text: &str) -> (SourceFile, ParsedFile) {
    parse_with(text, &Limits::default())
}

pub(super) fn slice(file: &SourceFile, span: Span) -> &str {
    &file.text[span.start..span.end]
}

pub(super) fn codes(parsed: &ParsedFile) -> Vec<&'static str> {
    parsed.diagnostics.iter().map(|d| d.code.as_str()).collect()
}

fn str_val(text: &str, plain: bool) -> Value {
    Value::Str(Str::new(text, plain))
}

#[test]
fn key_and_value_spans_after_non_ascii_text_in_a_second_document() {
    let text = "name: gw-ünïcode-✓\n---\nspec:\n  targetRefs:\n  - name: \"my-route\"\n";
    let (file, parsed) = parse(text);
    assert!(parsed.diagnostics.is_empty(), "{:?}", parsed.diagnostics);
    assert_eq!(parsed.documents.len(), 2);
    let doc = &parsed.documents[1];
    assert_eq!(doc.index, 1);
    let refs = doc
        .root
        .get("spec")
        .and_then(|s| s.get("targetRefs"))
        .unwrap();
    let entry = refs.as_seq().unwrap()[0].entry("name").unwrap();
    assert_eq!(slice(&file, entry.key_span), "name");
    assert_eq!(slice(&file, entry.value.span), "\"my-route\"");
    let key_at = file.line_col(entry.key_span.start);
    assert_eq!((key_at.line, key_at.column), (5, 5));
    let value_at = file.line_col(entry.value.span.start);
    assert_eq!((value_at.line, value_at.column), (5, 11));
    assert_eq!(entry.value.value, str_val("my-route", false));
    // The non-ASCII value of document 0 is exact too.
    let first = parsed.documents[0].root.get("name").unwrap();
    assert_eq!(slice(&file, first.span), "gw-ünïcode-✓");
}

#[test]
fn scalar_spans_exclude_comments_and_properties() {
    let text = "a: \"q\\\"x\"   # note\nb: 'it''s' # c\nc: &anc plain value  # c\nd: !!str 12\n";
    let (file, parsed) = parse(text);
    let root = &parsed.documents[0].root;
    assert_eq!(slice(&file, root.get("a").unwrap().span), "\"q\\\"x\"");
    assert_eq!(slice(&file, root.get("b").unwrap().span), "'it''s'");
    assert_eq!(slice(&file, root.get("c").unwrap().span), "plain value");
    let d = root.get("d").unwrap();
    assert_eq!(slice(&file, d.span), "12");
    assert_eq!(d.value, str_val("12", false));
}

#[test]
fn block_scalar_span_runs_from_indicator_to_content_end() {
    let text = "a: |\n  line1\n  line2\n\n\nb: >-  # folded\n\n  folded\n  text\nc: 1\n";
    let (file, parsed) = parse(text);
    let root = &parsed.documents[0].root;
    let a = root.get("a").unwrap();
    assert_eq!(slice(&file, a.span), "|\n  line1\n  line2");
    assert_eq!(a.value, str_val("line1\nline2\n", false));
    let b = root.get("b").unwrap();
    assert_eq!(slice(&file, b.span), ">-  # folded\n\n  folded\n  text");
    assert_eq!(b.value, str_val("\nfolded text", false));
}

#[test]
fn collection_spans_are_trimmed() {
    let text = "spec:\n  a: 1\n  b: [1, 2]  \n  # trailing comment\n\nnext: {x: y}\n";
    let (file, parsed) = parse(text);
    let root = &parsed.documents[0].root;
    let spec = root.get("spec").unwrap();
    assert_eq!(slice(&file, spec.span), "a: 1\n  b: [1, 2]");
    assert_eq!(slice(&file, spec.get("b").unwrap().span), "[1, 2]");
    assert_eq!(slice(&file, root.get("next").unwrap().span), "{x: y}");
    assert_eq!(slice(&file, parsed.documents[0].span), text.trim_end());
}

#[test]
fn core_schema_scalars() {
    let text = "n1: ~\nn2: null\nn3:\nb1: true\nb2: FALSE\ni1: -42\ni2: 0o17\ni3: 0xff\ni4: 012\n\
                big: 123456789012345678901234567890\nf1: 1.5\nf2: 1e3\nf3: .inf\nf4: -.Inf\nf5: .NaN\n\
                s1: on\ns2: yes\ns3: \"on\"\ns4: 1_000\ns5: 0x\ns6: inf\ns7: 1.2.3\n";
    let (_, parsed) = parse(text);
    let root = &parsed.documents[0].root;
    let v = |k: &str| root.get(k).unwrap().value.clone();
    assert_eq!(v("n1"), Value::Null);
    assert_eq!(v("n2"), Value::Null);
    assert_eq!(v("n3"), Value::Null);
    assert_eq!(v("b1"), Value::Bool(true));
    assert_eq!(v("b2"), Value::Bool(false));
    assert_eq!(v("i1"), Value::Int(-42));
    assert_eq!(v("i2"), Value::Int(15));
    assert_eq!(v("i3"), Value::Int(255));
    assert_eq!(v("i4"), Value::Int(12));
    assert_eq!(v("big"), Value::Float(1.2345678901234568e29));
    assert_eq!(v("f1"), Value::Float(1.5));
    assert_eq!(v("f2"), Value::Float(1000.0));
    assert_eq!(v("f3"), Value::Float(f64::INFINITY));
    assert_eq!(v("f4"), Value::Float(f64::NEG_INFINITY));
    assert!(matches!(v("f5"), Value::Float(f) if f.is_nan()));
    assert_eq!(v("s1"), str_val("on", true));
    assert_eq!(v("s2"), str_val("yes", true));
    assert_eq!(v("s3"), str_val("on", false));
    assert_eq!(v("s4"), str_val("1_000", true));
    assert_eq!(v("s5"), str_val("0x", true));
    assert_eq!(v("s6"), str_val("inf", true));
    assert_eq!(v("s7"), str_val("1.2.3", true));
}

#[test]
fn non_string_keys_use_their_text() {
    let (_, parsed) = parse("1: a\ntrue: b\n~: c\n");
    let keys: Vec<&str> = parsed.documents[0]
        .root
        .as_map()
        .unwrap()
        .iter()
        .map(|e| e.key.as_str())
        .collect();
    assert_eq!(keys, ["1", "true", "null"]);
}

#[test]
fn complex_key_is_an_error_and_dropped() {
    let (_, parsed) = parse("? [a, b]\n: 1\nc: 2\n");
    assert_eq!(codes(&parsed), ["GW002"]);
    assert_eq!(
        parsed.diagnostics[0].message,
        "complex mapping keys are not supported"
    );
    let root = &parsed.documents[0].root;
    assert_eq!(root.as_map().unwrap().len(), 1);
    assert_eq!(root.get("c").unwrap().value, Value::Int(2));
}

#[test]
fn duplicate_keys_are_reported_at_the_second_key_and_the_first_value_is_kept() {
    let text = "metadata:\n  name: a\n  name: b\ndata:\n  x: 1\n  y: 2\n  x: 3\n";
    let (file, parsed) = parse(text);
    assert_eq!(codes(&parsed), ["GW003", "GW003"]);
    let d = &parsed.diagnostics[0];
    assert_eq!(
        d.message,
        "duplicate key \"name\": already set at line 2 column 3"
    );
    let loc = d.location.as_ref().unwrap();
    let at = file.line_col(loc.span.start);
    assert_eq!((at.line, at.column), (3, 3));
    assert_eq!(slice(&file, loc.span), "name");
    assert_eq!(d.related.len(), 1);
    let first = file.line_col(d.related[0].location.span.start);
    assert_eq!((first.line, first.column), (2, 3));
    assert_eq!(d.related[0].message, "first set here");
    assert_eq!(
        parsed.diagnostics[1].message,
        "duplicate key \"x\": already set at line 5 column 3"
    );
    let root = &parsed.documents[0].root;
    assert_eq!(root.lookup("metadata.name").unwrap().as_str(), Some("a"));
    assert_eq!(root.lookup("data.x").unwrap().value, Value::Int(1));
    assert_eq!(root.get("data").unwrap().as_map().unwrap().len(), 2);
}

#[test]
fn duplicate_keys_in_a_large_map_use_the_index() {
    let mut text: String = (0..40).map(|i| format!("k{i}: {i}\n")).collect();
    text.push_str("k7: again\nk39: again\n");
    let (_, parsed) = parse(&text);
    assert_eq!(codes(&parsed), ["GW003", "GW003"]);
    assert!(parsed.diagnostics[0].message.contains("line 8 column 1"));
    assert!(parsed.diagnostics[1].message.contains("line 40 column 1"));
    assert_eq!(
        parsed.documents[0].root.get("k7").unwrap().value,
        Value::Int(7)
    );
}

#[test]
fn multi_document_indices_skip_empty_documents() {
    let text = "a: 1\n---\n---\n# only a comment\n---\nb: 2\n...\n---\nc: 3\n";
    let (_, parsed) = parse(text);
    let indices: Vec<usize> = parsed.documents.iter().map(|d| d.index).collect();
    assert_eq!(indices, [0, 3, 4]);
    assert!(parsed.diagnostics.is_empty());
}

#[test]
fn empty_inputs_give_no_documents() {
    for text in [
        "",
        "# just a comment\n# another\n",
        "---\n",
        "---\n...\n",
        "\n\n",
    ] {
        let (_, parsed) = parse(text);
        assert!(parsed.documents.is_empty(), "{text:?}");
        assert!(parsed.diagnostics.is_empty(), "{text:?}");
    }
}

#[test]
fn sequence_spans_start_at_the_dash() {
    let text = "a:\n- |\n  x\n- y\nb:\n  - 1\n  - - 2\n";
    let (file, parsed) = parse(text);
    let root = &parsed.documents[0].root;
    assert_eq!(slice(&file, root.get("a").unwrap().span), "- |\n  x\n- y");
    let b = root.get("b").unwrap();
    assert_eq!(slice(&file, b.span), "- 1\n  - - 2");
    assert_eq!(slice(&file, b.as_seq().unwrap()[1].span), "- 2");
}
