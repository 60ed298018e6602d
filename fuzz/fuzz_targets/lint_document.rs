//! One document through the whole lint pipeline (model, schemas, CEL rules, suppressions) and the
//! human report, which slices the text with every span: no panic, every location in bounds.
#![no_main]

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
    gwctl_fuzz::assert_diagnostics(&run.files, &run.suppressed);
    for r in &run.resources {
        gwctl_fuzz::assert_span(text, r.span, "resource");
        if let Some((_, span)) = &r.ignore {
            gwctl_fuzz::assert_span(text, *span, "ignore annotation");
        }
    }
    render(&run, Format::Human, &RenderOptions::default());
});
