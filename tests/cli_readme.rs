//! The README's first command, run exactly as written (its gwctl arguments, from the README
//! itself), prints the example set's intended findings: the insta snapshot is what a new user
//! sees.

use std::path::Path;

#[path = "cli/support.rs"]
#[allow(dead_code)]
mod support;

/// The gwctl arguments of the README's first command (`cargo run --release -- ARGS; ...`).
fn first_command_args() -> Vec<String> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let readme = std::fs::read_to_string(root.join("README.md")).expect("README.md");
    let block = readme
        .split("```sh\n")
        .nth(1)
        .expect("README has a sh code block");
    let first = block.lines().next().expect("the block has a first line");
    let args = first
        .split_once("-- ")
        .and_then(|(_, rest)| rest.split(';').next())
        .unwrap_or_else(|| panic!("first command is `cargo run ... -- ARGS; ...`: {first}"));
    args.split_whitespace().map(str::to_string).collect()
}

#[test]
fn readme_first_command_shows_the_quickstart_findings() {
    let args = first_command_args();
    assert_eq!(args, ["lint", "testdata/quickstart/"]);
    let out = support::gwctl()
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env("COLUMNS", "100")
        .args(&args)
        .output()
        .expect("gwctl runs");
    assert_eq!(out.status.code(), Some(1), "the example set has errors");
    let text = String::from_utf8(out.stdout).expect("UTF-8 output");
    // The summary's wall time is the one part that changes between runs.
    let (body, summary) = text.trim_end().rsplit_once('\n').expect("a summary line");
    let summary = summary
        .rsplit_once(" (")
        .map_or(summary, |(counts, _)| counts);
    insta::assert_snapshot!(format!("{body}\n{summary}"));
}
