//! Two sets of manifests from one input (split at the first NUL byte, or the input against
//! itself changed by one byte), diffed and printed as human, markdown (with a small cap) and
//! JSON: no panic, the JSON parses, an input against itself is no change, no masked value is
//! shown.
#![no_main]

use gwctl::diff::{self, Side};
use gwctl::lint::{LintOptions, lint_sources};
use gwctl::render::{self, RenderOptions};
use gwctl::source::SourceFile;
use libfuzzer_sys::fuzz_target;

fn side(text: &str) -> (gwctl::lint::LintRun, Side) {
    let options = render::diff_options(LintOptions::default());
    let run = lint_sources(vec![SourceFile::new(0, "fuzz.yaml", text)], &options);
    // With the topology: the markdown output below draws it.
    let side = Side::of_run(&run, &RenderOptions::default(), true);
    (run, side)
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let (base, head) = text.split_once('\0').unwrap_or((text, text));
    let (base_run, base_side) = side(base);
    let (head_run, head_side) = side(head);
    if base == head {
        let same = diff::diff(&base_side, &head_side);
        assert!(!same.changes_effect(), "an input differs from itself");
    }
    let d = diff::diff(&base_side, &head_side);
    let json = diff::json(&d);
    let parsed: Result<serde_json::Value, _> = serde_json::from_str(&json);
    assert!(parsed.is_ok(), "diff json is not JSON:\n{json}");
    for out in [
        diff::human(&d, true),
        diff::human(&d, false),
        diff::markdown(&d, 2000),
        json,
    ] {
        gwctl_fuzz::assert_no_secret(&base_run, &out);
        gwctl_fuzz::assert_no_secret(&head_run, &out);
    }
});
