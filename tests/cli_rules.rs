//! `gwctl rules`: examples and the generated docs/rules.md. The examples themselves are run by
//! tests/rule_examples.rs.

use std::path::Path;

#[allow(dead_code)]
#[path = "cli/support.rs"]
mod support;

use support::*;

const REGENERATE_DOCS: &str = "cargo run -- rules --markdown > docs/rules.md";

#[test]
fn rules_show_examples() {
    let out = stdout_of(gwctl().args(["rules", "GW101"]), 0);
    assert!(
        out.contains("Failing example:") && out.contains("Fixed example:"),
        "{out}"
    );
    assert!(out.contains("    - backendRef:"), "{out}");
}

#[test]
fn committed_rules_doc_is_current() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let fresh = stdout_of(gwctl().args(["rules", "--markdown"]), 0);
    let committed = std::fs::read_to_string(root.join("docs/rules.md")).unwrap_or_default();
    assert!(
        fresh == committed,
        "docs/rules.md is stale; regenerate with `{REGENERATE_DOCS}`"
    );
}
