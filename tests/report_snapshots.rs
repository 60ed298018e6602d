//! Snapshots of every report format for one hand-made run, independent of the other stages.
//! Review changes with `cargo insta review` (or `INSTA_UPDATE=always cargo test --test report_snapshots`
//! and `git diff tests/snapshots`).

use std::collections::BTreeMap;
use std::time::Duration;

use gwctl::diag::{Diagnostic, Edit, Fix, ResourceRef, Severity};
use gwctl::lint::{LintRun, ResourceEntry, Stats};
use gwctl::report::{Format, RenderOptions, render};
use gwctl::rules;
use gwctl::source::{SourceFile, Span};

const ROUTE: &str = "\
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata:
  name: café
  namespace: default
  annotations: {note: \"naïve ünïcode\", x: 1}
spec:
  parentRefs:
  - name: gw
    name: other
  rules:
  - matches:
    - path: {type: PathPrefix, value: /}
    foo: 1
";

const GATEWAY: &str = "\
apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata:
  name: gw
  namespace: default
spec:
  gatewayClassName: example
  listeners:
  - name: http
    protocol: HTTP
    port: 80
    hostname: yes
---
apiVersion: example.com/v1
kind: Widget
metadata: {name: w}
";

/// The byte span of the `nth` (0-based) occurrence of `needle` in `text`.
fn span_of(text: &str, needle: &str, nth: usize) -> Span {
    let start = text
        .match_indices(needle)
        .nth(nth)
        .map(|(i, _)| i)
        .unwrap_or_else(|| panic!("fixture has no occurrence {nth} of {needle:?}"));
    Span::new(start, start + needle.len())
}

/// The span of `needle` inside the first occurrence of `context`.
fn span_in(text: &str, context: &str, needle: &str) -> Span {
    let outer = span_of(text, context, 0);
    let inner = span_of(context, needle, 0);
    Span::new(outer.start + inner.start, outer.start + inner.end)
}

fn route_ref() -> Option<ResourceRef> {
    Some(ResourceRef {
        kind: "HTTPRoute".into(),
        namespace: Some("default".into()),
        name: "café".into(),
    })
}

fn fixture() -> LintRun {
    let files = vec![
        SourceFile::new(0, "routes/route.yaml", ROUTE),
        SourceFile::new(1, "gateway.yaml", GATEWAY),
    ];
    let diagnostics = vec![
        Diagnostic::new(rules::GW001, "missing.yaml: no such file or directory"),
        Diagnostic::new(rules::GW115, "annotation values must be strings")
            .at(0, span_in(ROUTE, "x: 1", "1"))
            .with_resource(route_ref())
            .with_path("metadata.annotations.x")
            .with_help("quote the value: \"1\""),
        Diagnostic::new(rules::GW003, "duplicate key \"name\"")
            .at(0, span_of(ROUTE, "name", 3))
            .with_resource(route_ref())
            .with_path("spec.parentRefs[0].name")
            .with_related(0, span_of(ROUTE, "name", 2), "first defined here"),
        Diagnostic::new(rules::GW101, "unknown field \"spec.rules[0].foo\"")
            .at(0, span_of(ROUTE, "foo", 0))
            .with_resource(route_ref())
            .with_path("spec.rules[0].foo")
            .with_help("did you mean \"filters\"?")
            .with_fix(Fix::safe(
                "rename to \"filters\"",
                vec![Edit::replace(0, span_of(ROUTE, "foo", 0), "filters")],
            )),
        Diagnostic::new(
            rules::GW110,
            "plain `yes` is a boolean to Kubernetes, not the string \"yes\"",
        )
        .at(1, span_of(GATEWAY, "yes", 0))
        .with_resource(Some(ResourceRef {
            kind: "Gateway".into(),
            namespace: Some("default".into()),
            name: "gw".into(),
        }))
        .with_path("spec.listeners[0].hostname")
        .with_help("quote it if a string is meant")
        .with_fix(Fix::unsafe_(
            "quote it, and say why in the route",
            vec![
                Edit::replace(1, span_of(GATEWAY, "yes", 0), "\"yes\""),
                Edit::replace(0, Span::new(0, 0), "# the Gateway's hostname is a string\n"),
            ],
        ))
        .with_related(
            0,
            span_of(ROUTE, "gw", 0),
            "the route attached to this Gateway",
        ),
        Diagnostic::new(rules::GW008, "example.com/v1 Widget is not checked")
            .at(1, span_of(GATEWAY, "example.com/v1", 0))
            .with_resource(Some(ResourceRef {
                kind: "Widget".into(),
                namespace: None,
                name: "w".into(),
            })),
    ];
    let stats = Stats {
        files: 2,
        documents: 3,
        resources: 3,
        not_checked: BTreeMap::from([("example.com/v1/Widget".to_string(), 1)]),
        elapsed: Duration::from_millis(123),
    };
    let resources = vec![
        ResourceEntry {
            file: 0,
            span: Span::new(0, ROUTE.len()),
            reference: route_ref().expect("fixture resource"),
            ignore: None,
        },
        ResourceEntry {
            file: 1,
            span: Span::new(0, GATEWAY.find("---").unwrap_or(GATEWAY.len())),
            reference: ResourceRef {
                kind: "Gateway".into(),
                namespace: Some("default".into()),
                name: "gw".into(),
            },
            ignore: None,
        },
        ResourceEntry {
            file: 1,
            span: Span::new(GATEWAY.find("---").unwrap_or(0), GATEWAY.len()),
            reference: ResourceRef {
                kind: "Widget".into(),
                namespace: None,
                name: "w".into(),
            },
            ignore: None,
        },
    ];
    LintRun {
        files,
        diagnostics,
        resources,
        stats,
        input_error: true,
        ..LintRun::default()
    }
}

fn plain() -> RenderOptions {
    RenderOptions {
        color: false,
        width: 100,
        quiet: false,
        ..RenderOptions::default()
    }
}

#[test]
fn human() {
    let out = render(&fixture(), Format::Human, &plain());
    assert!(
        !out.contains('\x1b'),
        "escape sequence in colourless output"
    );
    insta::assert_snapshot!(out);
}

#[test]
fn json() {
    let out = render(&fixture(), Format::Json, &plain());
    insta::assert_snapshot!(out);
}

#[test]
fn short() {
    let out = render(&fixture(), Format::Short, &plain());
    insta::assert_snapshot!(out);
}

#[test]
fn columns_count_characters_not_bytes() {
    let out = render(&fixture(), Format::Short, &plain());
    // `  annotations: {note: "naïve ünïcode", x: 1}`: the `1` is character 43 but byte 46;
    // the human header must agree (miette alone would say 46).
    assert!(
        out.contains("routes/route.yaml:6:43: error[GW115]"),
        "{out}"
    );
    let json: serde_json::Value =
        serde_json::from_str(&render(&fixture(), Format::Json, &plain())).expect("valid JSON");
    let f = &json["findings"][1];
    assert_eq!(
        (f["line"].as_u64(), f["column"].as_u64()),
        (Some(6), Some(43))
    );
    assert_eq!(f["endColumn"].as_u64(), Some(44));
    let human = render(&fixture(), Format::Human, &plain());
    assert!(human.contains("[routes/route.yaml:6:43]"), "{human}");
}

#[test]
fn human_colour_and_quiet() {
    let run = fixture();
    let coloured = render(
        &run,
        Format::Human,
        &RenderOptions {
            color: true,
            ..plain()
        },
    );
    assert!(coloured.contains("\x1b["), "no colour: {coloured}");
    let quiet = render(
        &run,
        Format::Human,
        &RenderOptions {
            quiet: true,
            ..plain()
        },
    );
    assert!(!quiet.contains("resources:"), "{quiet}");
    assert!(quiet.contains("error[GW101]"), "{quiet}");
}

#[test]
fn summary_counts_by_severity() {
    let out = render(&fixture(), Format::Human, &plain());
    let last = out.lines().last().unwrap_or_default();
    assert_eq!(
        last,
        "2 files, 3 resources: 4 errors, 1 warning, 1 info (0.12s)"
    );
}

#[test]
fn spans_outside_the_text_do_not_panic() {
    let mut run = fixture();
    let mid_e = span_of(ROUTE, "é", 0).start + 1;
    run.diagnostics = vec![
        Diagnostic::new(rules::GW002, "past the end").at(0, Span::new(10_000, 20_000)),
        // Inside the two bytes of `é`.
        Diagnostic::new(rules::GW002, "mid-character")
            .at(0, Span::new(mid_e, mid_e + 1))
            .with_severity(Severity::Warning),
    ];
    for format in [
        Format::Human,
        Format::Json,
        Format::Short,
        Format::Sarif,
        Format::Github,
        Format::Junit,
        Format::Gitlab,
        Format::Rdjson,
    ] {
        let out = render(&run, format, &plain());
        assert!(out.contains("past the end") && out.contains("mid-character"));
    }
}

#[test]
fn github() {
    let out = render(&fixture(), Format::Github, &plain());
    insta::assert_snapshot!(out);
}

#[test]
fn github_escapes_properties_and_message() {
    let mut run = fixture();
    run.files[0].name = "dir,a:b%c.yaml".to_string();
    run.diagnostics = vec![
        Diagnostic::new(rules::GW101, "50% of\r\nlines: a,b")
            .at(0, span_of(ROUTE, "foo", 0))
            .with_severity(Severity::Info),
    ];
    let out = render(&run, Format::Github, &plain());
    assert_eq!(
        out,
        "::notice file=dir%2Ca%3Ab%25c.yaml,line=14,col=5,endLine=14,endColumn=8,title=GW101::50%25 of%0D%0Alines: a,b\n"
    );
}

#[test]
fn gitlab() {
    let out = render(&fixture(), Format::Gitlab, &plain());
    insta::assert_snapshot!(out);
}

#[test]
fn gitlab_fingerprints_tell_twins_apart() {
    let mut run = fixture();
    // The same finding twice in one file, at different places: alike in every named part.
    let twin = |nth| {
        Diagnostic::new(rules::GW003, "duplicate key \"name\"")
            .at(0, span_of(ROUTE, "name", nth))
            .with_resource(route_ref())
    };
    run.diagnostics = vec![twin(2), twin(3)];
    let report: serde_json::Value =
        serde_json::from_str(&render(&run, Format::Gitlab, &plain())).expect("JSON");
    let prints: Vec<&str> = report
        .as_array()
        .expect("array")
        .iter()
        .filter_map(|i| i["fingerprint"].as_str())
        .collect();
    assert_eq!(prints.len(), 2);
    assert_ne!(prints[0], prints[1]);
    assert_eq!(prints[0].len(), 32, "{prints:?}");
}

#[test]
fn rdjson() {
    let out = render(&fixture(), Format::Rdjson, &plain());
    insta::assert_snapshot!(out);
}

#[test]
fn junit() {
    let out = render(&fixture(), Format::Junit, &plain());
    let doc = roxmltree::Document::parse(&out).expect("JUnit output is XML");
    let root = doc.root_element();
    assert_eq!(root.tag_name().name(), "testsuites");
    let cases: Vec<_> = root
        .descendants()
        .filter(|n| n.has_tag_name("testcase"))
        .map(|n| n.attribute("name").unwrap_or_default().to_string())
        .collect();
    assert_eq!(
        cases,
        [
            "(inputs)",
            "HTTPRoute default/café",
            "Gateway default/gw",
            "Widget w"
        ]
    );
    insta::assert_snapshot!(out);
}

#[test]
fn sarif_has_rules_and_results() {
    let out = render(&fixture(), Format::Sarif, &plain());
    let log: serde_sarif::sarif::Sarif = serde_json::from_str(&out).expect("SARIF types");
    assert_eq!(log.runs[0].results.as_ref().map(Vec::len), Some(6));
    let json: serde_json::Value = serde_json::from_str(&out).expect("JSON");
    let result = &json["runs"][0]["results"][1];
    assert_eq!(result["ruleId"], "GW115");
    assert_eq!(
        result["locations"][0]["physicalLocation"]["region"],
        serde_json::json!({"startLine": 6, "startColumn": 43, "endLine": 6, "endColumn": 44})
    );
    assert_eq!(
        result["locations"][0]["physicalLocation"]["artifactLocation"]["uri"],
        "routes/route.yaml"
    );
    // A fix: one artifact change per file, a replacement per edit, the applicability in the
    // description.
    let fix = &json["runs"][0]["results"][3]["fixes"][0];
    assert_eq!(
        fix,
        &serde_json::json!({
            "description": {"text": "[safe] rename to \"filters\""},
            "artifactChanges": [{
                "artifactLocation": {"uri": "routes/route.yaml"},
                "replacements": [{
                    "deletedRegion": {"startLine": 14, "startColumn": 5, "endLine": 14, "endColumn": 8},
                    "insertedContent": {"text": "filters"}
                }]
            }]
        })
    );
    let files: Vec<&serde_json::Value> =
        json["runs"][0]["results"][4]["fixes"][0]["artifactChanges"]
            .as_array()
            .map(|a| a.iter().map(|c| &c["artifactLocation"]["uri"]).collect())
            .unwrap_or_default();
    assert_eq!(files, ["routes/route.yaml", "gateway.yaml"]);
}

#[test]
fn suppressed_findings_are_listed_only_when_asked() {
    let mut run = fixture();
    let mut hidden = run.diagnostics.remove(3);
    hidden.suppressed = Some(gwctl::diag::Suppressed::Annotation);
    run.suppressed.push(hidden);
    let shown = RenderOptions {
        show_suppressed: true,
        ..plain()
    };
    for format in [Format::Human, Format::Short, Format::Github, Format::Junit] {
        assert!(
            !render(&run, format, &plain()).contains("suppressed"),
            "{format:?}"
        );
        let out = render(&run, format, &shown);
        // GitHub escapes the colon of the title property.
        assert!(
            out.contains("(suppressed: annotation)") || out.contains("(suppressed%3A annotation)"),
            "{format:?}: {out}"
        );
    }
    let json: serde_json::Value =
        serde_json::from_str(&render(&run, Format::Json, &shown)).expect("JSON");
    assert_eq!(json["suppressed"][0]["code"], "GW101");
    assert_eq!(json["suppressed"][0]["suppressedBy"], "annotation");
    let sarif: serde_json::Value =
        serde_json::from_str(&render(&run, Format::Sarif, &shown)).expect("JSON");
    let results = sarif["runs"][0]["results"].as_array().expect("results");
    assert!(
        results
            .iter()
            .any(|r| r["suppressions"][0]["kind"] == "inSource")
    );
}

#[test]
fn statistics_in_human_and_json() {
    let run = fixture();
    let options = RenderOptions {
        statistics: true,
        ..plain()
    };
    let human = render(&run, Format::Human, &options);
    assert!(
        human.contains("COUNT  CODE   NAME\n    1  GW001  unreadable-input\n"),
        "{human}"
    );
    let json: serde_json::Value =
        serde_json::from_str(&render(&run, Format::Json, &options)).expect("JSON");
    assert_eq!(json["summary"]["statistics"]["GW101"], 1);
    let plain_json: serde_json::Value =
        serde_json::from_str(&render(&run, Format::Json, &plain())).expect("JSON");
    assert!(plain_json["summary"].get("statistics").is_none());
}
