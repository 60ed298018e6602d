//! Arbitrary bytes -> the YAML reader. It must never panic, and every span it returns must index
//! the text on character boundaries.
#![no_main]

use gwctl::parse::{Limits, parse_file};
use gwctl::source::SourceFile;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let file = SourceFile::new(0, "fuzz.yaml", text);
    // Small limits so that the limit paths (GW005) are reached too.
    let limits = Limits {
        max_alias_nodes: 1000,
        max_depth: 32,
        max_document_bytes: 2048,
        max_documents: 16,
        ..Limits::default()
    };
    for limits in [Limits::default(), limits] {
        let parsed = parse_file(&file, &limits);
        gwctl_fuzz::assert_parsed(&file, &parsed);
    }
});
