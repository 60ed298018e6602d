//! One document through lint and every report format (human with and without colour, narrow
//! and wide, with suppressed findings and statistics; json, short, sarif, github, junit): no
//! panic, structured formats stay valid, and no format shows a value the run masked.
#![no_main]

use gwctl::diag::Severity;
use gwctl::lint::{LintOptions, lint_sources};
use gwctl::report::{Format, RenderOptions, render};
use gwctl::source::SourceFile;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let run = lint_sources(
        vec![SourceFile::new(0, "fuzz.yaml", text)],
        &LintOptions::default(),
    );
    gwctl_fuzz::assert_diagnostics(&run.files, &run.diagnostics);
    let plain = RenderOptions::default();
    let loud = RenderOptions {
        color: true,
        width: 40,
        show_suppressed: true,
        statistics: true,
        fail_on: Severity::Info,
        ..RenderOptions::default()
    };
    for options in [&plain, &loud] {
        for format in [
            Format::Human,
            Format::Json,
            Format::Short,
            Format::Sarif,
            Format::Github,
            Format::Junit,
        ] {
            let out = render(&run, format, options);
            if matches!(format, Format::Json | Format::Sarif) {
                let parsed: Result<serde_json::Value, _> = serde_json::from_str(&out);
                assert!(parsed.is_ok(), "{format:?} is not JSON:\n{out}");
            }
            gwctl_fuzz::assert_no_secret(&run, &out);
        }
    }
});
