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
            Some(edits) => {
                let fixed = apply(&f.text, edits);
                assert_outside_kept(&f.text, &fixed, edits);
                fixed
            }
            None => f.text.to_string(),
        })
        .collect();
    (texts, titles)
}

/// The bytes of `before` outside the edited ranges are in `after`, in order, between the
/// replacements: comments, quoting and indentation elsewhere are kept byte for byte.
fn assert_outside_kept(before: &str, after: &str, edits: &[&gwctl::diag::Edit]) {
    let (mut at_before, mut at_after) = (0, 0);
    for e in edits {
        for kept in [&before[at_before..e.span.start], e.replacement.as_str()] {
            assert!(
                after[at_after..].starts_with(kept),
                "{kept:?} not kept at byte {at_after} of:\n{after}"
            );
            at_after += kept.len();
        }
        at_before = e.span.end;
    }
    assert_eq!(&after[at_after..], &before[at_before..]);
}

/// Fixes `code` in one file: asserts the finding was there, is gone after the fix, and that the
/// bytes the fix did not touch are unchanged; returns the before and after texts with the fixes'
/// titles.
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
    assert_eq!(offers(text, gwctl::rules::GW101), [false]);
}

/// Per finding of `code` in the file, whether it offers a fix.
fn offers(text: &str, code: Code) -> Vec<bool> {
    let run = lint(&[("f.yaml", text)]);
    run.diagnostics
        .iter()
        .filter(|d| d.code == code)
        .map(|d| d.fix.is_some())
        .collect()
}

/// Like [`fixed`], for a set of files: the fixed texts of the files the fix changed.
fn fixed_set(files: &[(&str, &str)], code: Code, applicability: Applicability) -> String {
    assert!(!findings(files, code).is_empty(), "no {code} finding");
    let (texts, titles) = fix_once(files, code, applicability);
    let after: Vec<(&str, &str)> = files
        .iter()
        .zip(&texts)
        .map(|((n, _), t)| (*n, t.as_str()))
        .collect();
    assert_eq!(
        findings(&after, code),
        Vec::<String>::new(),
        "{code} left after the fix"
    );
    let mut out = format!("# fixes: {}\n", titles.join("; "));
    for ((name, before), after) in files.iter().zip(&texts) {
        if before != after {
            out.push_str(&format!("# {name} after\n{after}"));
        }
    }
    out
}

const GATEWAY: &str = "\
apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata:
  name: edge
  namespace: shop
spec:
  gatewayClassName: kgateway
  listeners:
  - name: https
    protocol: HTTP
    port: 80
---
apiVersion: v1
kind: Service
metadata:
  name: checkout
  namespace: shop
spec:
  ports:
  - port: 8080
";

#[test]
fn enum_value_differing_in_case_is_a_safe_fix() {
    let text = "\
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata:
  name: web
spec:
  rules:
  - matches:
    - path: {type: pathprefix, value: /shop}  # case
    - path:
        type: \"exact\"
        value: /cart
";
    insta::assert_snapshot!(fixed(text, gwctl::rules::GW104, Applicability::Safe));
}

#[test]
fn enum_value_one_typo_away_is_an_unsafe_fix() {
    let text = "\
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata:
  name: web
spec:
  rules:
  - matches:
    - path: {type: PathPrefx, value: /shop}
";
    insta::assert_snapshot!(fixed(text, gwctl::rules::GW104, Applicability::Unsafe));
}

#[test]
fn yaml11_boolean_is_quoted_where_a_string_is_wanted() {
    let text = "\
apiVersion: v1
kind: ConfigMap
metadata:
  name: flags
data:
  debug: on     # a string to the app
  trace: 'no'
---
{\"apiVersion\": \"v1\", \"kind\": \"ConfigMap\", \"metadata\": {\"name\": \"flow\"}, \"data\": {\"a\": \"x\", \"b\": yes}}
";
    insta::assert_snapshot!(fixed(text, gwctl::rules::GW110, Applicability::Safe));
}

#[test]
fn duplicate_key_with_the_same_value_is_removed() {
    let text = "\
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata:
  name: web
  name: web   # pasted twice
  labels: {app: shop, app: shop}
spec:
  parentRefs:
  - name: public
---
{\"apiVersion\": \"v1\", \"kind\": \"ConfigMap\", \"metadata\": {\"name\": \"j\", \"name\": \"j\"}}
";
    insta::assert_snapshot!(fixed(text, gwctl::rules::GW003, Applicability::Safe));
}

#[test]
fn duplicate_key_with_another_value_has_no_fix() {
    let text = "\
apiVersion: v1
kind: ConfigMap
metadata:
  name: web
  name: shop
";
    assert_eq!(offers(text, gwctl::rules::GW003), [false]);
}

#[test]
fn stale_suppression_is_removed_from_the_annotation() {
    let text = "\
apiVersion: v1
kind: ConfigMap
metadata:
  name: one
  annotations:
    gwctl.dev/ignore: \"GW101, GW402\"   # kept for later
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: two
  annotations:
    gwctl.dev/ignore: GW101
    owner: shop
";
    // One round removes one code per annotation (a second fix of the same value overlaps).
    let once = fixed_once_text(text, gwctl::rules::GW011);
    insta::assert_snapshot!(fixed(&once, gwctl::rules::GW011, Applicability::Safe));
}

fn fixed_once_text(text: &str, code: Code) -> String {
    fix_once(&[("f.yaml", text)], code, Applicability::Safe)
        .0
        .remove(0)
}

#[test]
fn parent_ref_name_one_edit_away_is_an_unsafe_fix() {
    let route = "\
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata:
  name: checkout
  namespace: shop
spec:
  parentRefs:
  - name: egde
  - {name: edge, sectionName: htps}
  rules:
  - backendRefs:
    - name: \"checkuot\"
      port: 8080
    - name: checkout
      port: 8081
";
    let files = [("gateway.yaml", GATEWAY), ("route.yaml", route)];
    let mut out = String::new();
    for code in [
        gwctl::rules::GW201,
        gwctl::rules::GW202,
        gwctl::rules::GW205,
        gwctl::rules::GW206,
    ] {
        out.push_str(&format!(
            "## {code}\n{}",
            fixed_set(&files, code, Applicability::Unsafe)
        ));
    }
    insta::assert_snapshot!(out);
}

#[test]
fn policy_target_and_section_one_edit_away_are_unsafe_fixes() {
    let policy = "\
apiVersion: gateway.kgateway.dev/v1alpha1
kind: TrafficPolicy
metadata:
  name: retries
  namespace: shop
spec:
  targetRefs:
  - group: gateway.networking.k8s.io
    kind: Gateway
    name: egde
  - group: gateway.networking.k8s.io
    kind: Gateway
    name: edge
    sectionName: http
  timeouts:
    request: 10s
";
    let files = [("gateway.yaml", GATEWAY), ("policy.yaml", policy)];
    let mut out = String::new();
    for code in [gwctl::rules::GW301, gwctl::rules::GW302] {
        out.push_str(&format!(
            "## {code}\n{}",
            fixed_set(&files, code, Applicability::Unsafe)
        ));
    }
    insta::assert_snapshot!(out);
}

#[test]
fn missing_reference_grant_is_appended_to_the_route_file() {
    let route = "\
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata:
  name: checkout
  namespace: shop
spec:
  parentRefs:
  - name: edge
  rules:
  - backendRefs:
    - name: payments
      namespace: payments
      port: 8080
    - name: payments
      namespace: payments
      port: 8080
      weight: 2";
    let payments = "\
apiVersion: v1
kind: Service
metadata:
  name: payments
  namespace: payments
spec:
  ports:
  - port: 8080
";
    let files = [
        ("gateway.yaml", GATEWAY),
        ("payments.yaml", payments),
        ("route.yaml", route),
    ];
    let out = fixed_set(&files, gwctl::rules::GW208, Applicability::Unsafe);
    // Nothing else is found in the grant: exactly the kinds and namespaces needed.
    let (texts, _) = fix_once(&files, gwctl::rules::GW208, Applicability::Unsafe);
    let after: Vec<(&str, &str)> = files
        .iter()
        .zip(&texts)
        .map(|((n, _), t)| (*n, t.as_str()))
        .collect();
    let run = lint(&after);
    let in_grant: Vec<_> = run
        .diagnostics
        .iter()
        .filter(|d| {
            d.resource
                .as_ref()
                .is_some_and(|r| r.kind == "ReferenceGrant")
        })
        .map(|d| format!("{} {}", d.code, d.message))
        .collect();
    assert_eq!(in_grant, Vec::<String>::new());
    insta::assert_snapshot!(out);
}

#[test]
fn a_fix_that_would_show_a_secret_is_not_offered() {
    let text = "\
apiVersion: v1
kind: Secret
metadata:
  name: creds
stringData:
  password: on
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: flags
data:
  debug: on
";
    let run = lint(&[("f.yaml", text)]);
    let gw110: Vec<_> = run
        .diagnostics
        .iter()
        .filter(|d| d.code == gwctl::rules::GW110)
        .map(|d| (d.resource.as_ref().map(|r| r.kind.clone()), d.fix.is_some()))
        .collect();
    assert_eq!(
        gw110,
        [
            (Some("Secret".to_string()), false),
            (Some("ConfigMap".to_string()), true)
        ]
    );
}

#[test]
fn yaml11_boolean_is_spelt_out_where_a_boolean_is_wanted() {
    let text = "\
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata:
  name: web
spec:
  rules:
  - filters:
    - type: CORS
      cors: {allowOrigins: [\"https://a.example\"], allowCredentials: yes}
";
    insta::assert_snapshot!(fixed(text, gwctl::rules::GW110, Applicability::Safe));
}

#[test]
fn stale_suppression_in_flow_style_empties_the_value() {
    let text = "\
apiVersion: v1
kind: ConfigMap
metadata: {name: one, annotations: {gwctl.dev/ignore: GW101, owner: shop}}
";
    insta::assert_snapshot!(fixed(text, gwctl::rules::GW011, Applicability::Safe));
}
