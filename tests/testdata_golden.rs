//! Golden test over the repository's own examples: `testdata/valid` is clean, and the findings for
//! `testdata/invalid` are the reviewed snapshot (`cargo insta review` after a deliberate change).

mod common;

use std::path::Path;

use common::describe;
use gwctl::lint::{LintOptions, lint_paths};

fn testdata(sub: &str) -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("testdata")
        .join(sub)
}

#[test]
fn valid_examples_have_no_findings() {
    let run = lint_paths(&[testdata("valid")], &LintOptions::default()).expect("lint runs");
    assert_eq!(describe(&run), Vec::<String>::new());
    assert_eq!(run.stats.files, 6);
    // The Deployment is the one object of a kind gwctl does not check.
    assert_eq!(run.stats.not_checked.get("apps/v1/Deployment"), Some(&1));
}

#[test]
fn invalid_examples_findings() {
    let run = lint_paths(&[testdata("invalid")], &LintOptions::default()).expect("lint runs");
    let root = format!("{}/", env!("CARGO_MANIFEST_DIR"));
    let lines: Vec<String> = describe(&run)
        .into_iter()
        .map(|l| l.replace(&root, ""))
        .collect();
    insta::assert_snapshot!(lines.join("\n"));
}
