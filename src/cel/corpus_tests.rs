//! Every `rule:` of the corpus CRDs compiles. Rules are read by a small scanner of the two
//! YAML scalar styles they use (plain and single-quoted, both possibly folded over lines);
//! block scalars (`|`, `>`) are handled too in case they appear.

use std::path::{Path, PathBuf};

use super::CompiledRule;

/// `$GWCTL_CORPUS`, else `../shared/corpus` from the crate root; from a worktree under
/// `wt/<name>` the shared folder is one level further up, so that is tried second.
fn corpus_root() -> PathBuf {
    if let Some(p) = std::env::var_os("GWCTL_CORPUS") {
        return PathBuf::from(p);
    }
    let crate_root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let primary = crate_root.join("../shared/corpus");
    let worktree = crate_root.join("../../shared/corpus");
    if !primary.is_dir() && worktree.is_dir() {
        worktree
    } else {
        primary
    }
}

fn yaml_files(dir: &Path, recursive: bool, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut paths: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
    paths.sort();
    for path in paths {
        if path.is_dir() {
            if recursive {
                yaml_files(&path, true, out);
            }
        } else if path.extension().is_some_and(|e| e == "yaml") {
            out.push(path);
        }
    }
}

/// Leading spaces of a line.
fn indent(line: &str) -> usize {
    line.len() - line.trim_start_matches(' ').len()
}

/// Joins folded continuation lines as YAML does: a single line break becomes a space, each
/// empty line a newline.
fn fold(lines: &[&str]) -> String {
    let mut out = String::new();
    let mut pending_newlines = 0;
    for (i, line) in lines.iter().enumerate() {
        let line = line.trim();
        if line.is_empty() {
            pending_newlines += 1;
            continue;
        }
        if i > 0 {
            if pending_newlines > 0 {
                out.push_str(&"\n".repeat(pending_newlines));
            } else if !out.is_empty() {
                out.push(' ');
            }
        }
        pending_newlines = 0;
        out.push_str(line);
    }
    out
}

/// Extracts the values of `rule:` keys.
pub(super) fn extract_rules(text: &str) -> Vec<String> {
    let lines: Vec<&str> = text.lines().collect();
    let mut rules = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let line = lines[i];
        let trimmed = line.trim_start();
        let key_indent = indent(line) + usize::from(trimmed.starts_with("- ")) * 2;
        let body = trimmed.strip_prefix("- ").unwrap_or(trimmed);
        let Some(value) = body.strip_prefix("rule:") else {
            i += 1;
            continue;
        };
        let value = value.trim();
        // Continuation lines: more indented than the key, or empty.
        let mut end = i + 1;
        while end < lines.len() && (lines[end].trim().is_empty() || indent(lines[end]) > key_indent)
        {
            end += 1;
        }
        let continuation = &lines[i + 1..end];
        if let Some(quoted) = value.strip_prefix('\'') {
            let mut parts = vec![quoted];
            parts.extend(continuation.iter().copied());
            let joined = fold(&parts);
            let joined = joined.trim_end().strip_suffix('\'').unwrap_or(&joined);
            rules.push(joined.replace("''", "'"));
        } else if value.starts_with('"') {
            // Double-quoted: decode the JSON-compatible subset by way of serde_json.
            let mut parts = vec![value];
            parts.extend(continuation.iter().copied());
            let joined = fold(&parts);
            rules.push(serde_json::from_str::<String>(&joined).unwrap_or(joined));
        } else if value.starts_with('|') || value.starts_with('>') {
            let block: Vec<&str> = continuation
                .iter()
                .map(|l| l.get(key_indent + 2..).unwrap_or("").trim_end())
                .collect();
            let text = if value.starts_with('|') {
                block.join("\n")
            } else {
                fold(&block)
            };
            rules.push(text.trim_end().to_string());
        } else {
            let mut parts = vec![value];
            parts.extend(continuation.iter().copied());
            rules.push(fold(&parts));
        }
        i = end;
    }
    rules
}

#[test]
fn scanner_handles_the_scalar_styles() {
    let yaml = "    - message: m\n      rule: 'a == ''x'' &&\n        b'\n    - rule: self.all(l,\n        l > 0)\n      message: n\n    - rule: >-\n        x\n        y\n";
    assert_eq!(
        extract_rules(yaml),
        vec!["a == 'x' && b", "self.all(l, l > 0)", "x y"]
    );
}

#[test]
fn every_corpus_rule_compiles() {
    let root = corpus_root();
    if !root.is_dir() {
        println!("skipped: corpus not found at {}", root.display());
        return;
    }
    let mut files = Vec::new();
    yaml_files(
        &root.join("gateway-api/config/crd/experimental"),
        false,
        &mut files,
    );
    yaml_files(
        &root.join("gateway-api/config/crd/standard"),
        false,
        &mut files,
    );
    yaml_files(&root.join("kgateway/crds"), true, &mut files);
    let mut total = 0;
    let mut failures = Vec::new();
    let mut unique = std::collections::BTreeSet::new();
    for file in &files {
        let Ok(text) = std::fs::read_to_string(file) else {
            failures.push(format!("{}: unreadable", file.display()));
            continue;
        };
        for rule in extract_rules(&text) {
            total += 1;
            if unique.insert(rule.clone())
                && let Err(e) = CompiledRule::compile(&rule)
            {
                failures.push(format!("{}: {rule}\n  {e}", file.display()));
            }
        }
    }
    println!(
        "corpus rules compiled: {}/{total} ({} unique) from {} files",
        total - failures.len(),
        unique.len(),
        files.len()
    );
    assert!(total > 1000, "expected the corpus rules, found {total}");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
