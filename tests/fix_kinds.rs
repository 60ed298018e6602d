//! Per fix kind: the text before, the fixed text (a snapshot), and a re-lint without the
//! finding. The fixes are applied by the library (`gwctl::fix`) to text in memory; the CLI tests
//! (`tests/fix_cli.rs`) write files.

use gwctl::diag::Applicability;
use gwctl::fix::{apply, choose};
use gwctl::lint::{LintOptions, lint_sources};
use gwctl::rules::Code;
use gwctl::source::SourceFile;

/// The findings of `code` in the files, as `file:line:col code message`.
fn findings(files: &[(&str, &str)], code: Code) -> Vec<String> {
    let run = lint(files);
    run.diagnostics
        .iter()
        .filter(|d| d.code == code)
        .map(|d| {
            let at = d.location.as_ref().map(|l| {
                let f = &run.files[l.file];
                let lc = f.line_col(l.span.start);
                format!("{}:{}:{}", f.name, lc.line, lc.column)
            });
            format!("{} {} {}", at.unwrap_or_default(), d.code, d.message)
        })
        .collect()
}

fn lint(files: &[(&str, &str)]) -> gwctl::lint::LintRun {
    let sources = files
        .iter()
        .enumerate()
        .map(|(i, (name, text))| SourceFile::new(i, *name, *text))
        .collect();
    lint_sources(sources, &LintOptions::default())
}

/// One round: the fixes of `code`'s findings (of the given applicability) applied; the fixed
/// texts, with the titles of the fixes.
fn fix_once(
    files: &[(&str, &str)],
    code: Code,
    applicability: Applicability,
) -> (Vec<String>, Vec<String>) {
    let run = lint(files);
    let offered: Vec<_> = run
        .diagnostics
        .iter()
        .filter(|d| d.code == code)
        .filter_map(|d| d.fix.as_ref())
        .collect();
    assert!(
        !offered.is_empty(),
        "no {code} fix offered: {:#?}",
        run.diagnostics
    );
    assert!(
        offered.iter().all(|f| f.applicability == applicability),
        "{code}: {offered:#?}"
    );
    let titles = offered.iter().map(|f| f.title.clone()).collect();
    let chosen = choose(offered.iter().copied(), |id| {
        run.files.get(id).map(|f| f.text.len())
    });
    let texts = run
        .files
        .iter()
        .map(|f| match chosen.edits.get(&f.id) {
            Some(edits) => apply(&f.text, edits),
            None => f.text.to_string(),
        })
        .collect();
    (texts, titles)
}

/// Fixes `code` in one file: asserts the finding was there, is gone after the fix, and that the
/// lines the fix did not touch are unchanged; returns the fixed text and the fixes' titles.
fn fixed(text: &str, code: Code, applicability: Applicability) -> String {
    let before = findings(&[("f.yaml", text)], code);
    assert!(!before.is_empty(), "no {code} finding");
    let (texts, titles) = fix_once(&[("f.yaml", text)], code, applicability);
    let after = findings(&[("f.yaml", &texts[0])], code);
    assert_eq!(
        after,
        Vec::<String>::new(),
        "{code} left after the fix:\n{}",
        texts[0]
    );
    format!(
        "# before\n{text}# fixes: {}\n# after\n{}",
        titles.join("; "),
        texts[0]
    )
}

#[test]
fn unknown_field_renamed_to_the_one_close_name() {
    let text = "\
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata:
  name: web   # the shop
spec:
  parentRefs:
  - name: gw
  rules:
  - backendRef:
    - {name: web, port: 80}
    matchs: [{path: {type: PathPrefix, value: /}}]
";
    insta::assert_snapshot!(fixed(text, gwctl::rules::GW101, Applicability::Safe));
}

#[test]
fn unknown_field_in_json_keeps_its_quotes() {
    let text = r#"{"apiVersion": "gateway.networking.k8s.io/v1", "kind": "HTTPRoute",
 "metadata": {"name": "web"},
 "spec": {"parentRefs": [{"name": "gw"}], "rules": [{"backendRef": [{"name": "web", "port": 80}]}]}}
"#;
    insta::assert_snapshot!(fixed(text, gwctl::rules::GW101, Applicability::Safe));
}

#[test]
fn unknown_field_with_two_close_names_or_taken_name_has_no_fix() {
    let text = "\
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata:
  name: web
spec:
  parentRefs:
  - name: gw
  rules:
  - backendRefs: []
    backendRef: []
";
    let run = lint(&[("f.yaml", text)]);
    let gw101: Vec<_> = run
        .diagnostics
        .iter()
        .filter(|d| d.code == gwctl::rules::GW101)
        .collect();
    assert_eq!(gw101.len(), 1);
    assert_eq!(gw101[0].fix, None);
}
