//! One document rendered (both validation levels), printed as YAML and JSON, and checked
//! against Envoy's protos: no panic, the JSON parses, no masked value is shown.
#![no_main]

use gwctl::lint::{LintOptions, lint_sources};
use gwctl::render::{self, RenderOptions, ValidationLevel};
use gwctl::report::yaml::to_yaml;
use gwctl::source::SourceFile;
use libfuzzer_sys::fuzz_target;

const KINDS: &[&str] = &["listener", "route", "cluster"];

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let options = render::render_options(LintOptions::default());
    let run = lint_sources(vec![SourceFile::new(0, "fuzz.yaml", text)], &options);
    for level in [ValidationLevel::Standard, ValidationLevel::Strict] {
        let render_options = RenderOptions {
            validation_level: level,
            ..RenderOptions::default()
        };
        let mut rendered = render::render(&run, &render_options);
        let mut docs = Vec::new();
        for g in std::mem::take(&mut rendered.gateways) {
            let _ = render::proto::check_gateway(&g);
            docs.push(g.into_document(KINDS, true));
        }
        let _ = render::proto::check_rendered(&rendered);
        docs.extend(rendered.into_documents(KINDS, true));
        for doc in &docs {
            let json = serde_json::to_string(doc).unwrap_or_default();
            let parsed: Result<serde_json::Value, _> = serde_json::from_str(&json);
            assert!(parsed.is_ok(), "render json is not JSON:\n{json}");
            gwctl_fuzz::assert_no_secret(&run, &json);
            gwctl_fuzz::assert_no_secret(&run, &to_yaml(doc));
        }
    }
});
