//! One document linted with the model kept, merged, and every place of every object explained
//! in the three formats: no panic, the data formats parse, no masked value is shown.
#![no_main]

use gwctl::lint::{LintOptions, Model, Needs, lint_sources};
use gwctl::merge::explain::{explain, status_index};
use gwctl::merge::view::places_of;
use gwctl::report::{ExplainFormat, render_explanation};
use gwctl::source::SourceFile;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let options = LintOptions {
        needs: Needs::Model,
        ..LintOptions::default()
    };
    let run = lint_sources(vec![SourceFile::new(0, "fuzz.yaml", text)], &options);
    let Some(model) = &run.model else {
        return;
    };
    let merged = model.merge();
    let statuses = status_index(&Model::statuses(&merged, &run));
    for i in 0..model.facts.len() {
        for place in places_of(&model.facts, i, None) {
            let e = explain(&model.facts, &merged, &statuses, place);
            for format in [
                ExplainFormat::Human,
                ExplainFormat::Yaml,
                ExplainFormat::Json,
            ] {
                let out = render_explanation(&e, format, format == ExplainFormat::Human);
                if format == ExplainFormat::Json {
                    let parsed: Result<serde_json::Value, _> = serde_json::from_str(&out);
                    assert!(parsed.is_ok(), "explain json is not JSON:\n{out}");
                }
                gwctl_fuzz::assert_no_secret(&run, &out);
            }
        }
    }
});
