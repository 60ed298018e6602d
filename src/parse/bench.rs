//! Throughput check (ignored by default; run in release):
//! `GWCTL_BENCH_DIR=/tmp/parsebench cargo test --release --lib parse::bench -- --ignored --nocapture`

use super::{Limits, parse_file};
use crate::source::SourceFile;
use std::time::Instant;

#[test]
#[ignore = "benchmark; needs a generated corpus"]
fn parse_throughput() {
    let dir = std::env::var("GWCTL_BENCH_DIR").unwrap_or_else(|_| "/tmp/parsebench".to_owned());
    let mut files = Vec::new();
    for entry in std::fs::read_dir(&dir).into_iter().flatten().flatten() {
        let path = entry.path();
        if path
            .extension()
            .is_some_and(|e| e == "yaml" || e == "yml" || e == "json")
            && let Ok(text) = std::fs::read_to_string(&path)
        {
            files.push(SourceFile::new(
                files.len(),
                path.display().to_string(),
                text,
            ));
        }
    }
    assert!(!files.is_empty(), "no YAML files in {dir}");
    let bytes: usize = files.iter().map(|f| f.text.len()).sum();
    let limits = Limits::default();
    let mut best = f64::MAX;
    let (mut docs, mut diags) = (0, 0);
    for _ in 0..5 {
        let started = Instant::now();
        (docs, diags) = (0, 0);
        for file in &files {
            let parsed = parse_file(file, &limits);
            docs += parsed.documents.len();
            diags += parsed.diagnostics.len();
        }
        best = best.min(started.elapsed().as_secs_f64());
    }
    println!(
        "{} files, {:.1} MB, {docs} documents, {diags} diagnostics: best {:.3} s = {:.1} MB/s",
        files.len(),
        bytes as f64 / 1e6,
        best,
        bytes as f64 / 1e6 / best
    );
}
