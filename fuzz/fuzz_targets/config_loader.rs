//! Arbitrary text as a config file (`gwctl.yaml`): settings or findings, never a panic, and
//! every finding located in the file.
#![no_main]

use gwctl::config::parse_config;
use gwctl::source::SourceFile;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let file = SourceFile::new(0, "gwctl.yaml", text);
    match parse_config(&file) {
        Ok(config) => {
            // Globs compiled by the loader must be usable.
            for entry in &config.ignore {
                if let Some(m) = &entry.resource {
                    m.is_match("HTTPRoute/default/web");
                }
                if let Some(m) = &entry.path {
                    m.is_match("routes/route.yaml");
                }
            }
        }
        Err(diagnostics) => {
            assert!(!diagnostics.is_empty(), "rejected without a finding");
            gwctl_fuzz::assert_diagnostics(std::slice::from_ref(&file), &diagnostics);
        }
    }
});
