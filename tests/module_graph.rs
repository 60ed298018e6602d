//! The shape of `src/`: no cycle between its top-level modules (a stage never reaches back into
//! one that depends on it), and no code outside the report stage that decides by reading a
//! finding's code or message text (statuses and decisions come from typed outcomes).
//!
//! The module graph is read from the source: every `crate::<module>` path (also inside
//! `use crate::{a, b}`) outside comments and test code is an edge.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

type Graph = BTreeMap<String, BTreeMap<String, BTreeSet<String>>>;

fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

/// Every `.rs` file below `dir`, with its path relative to `src/`.
fn sources(dir: &Path, out: &mut Vec<(String, String)>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            sources(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            let rel = p
                .strip_prefix(src())
                .map(|r| r.to_string_lossy().replace('\\', "/"))
                .unwrap_or_default();
            out.push((rel, std::fs::read_to_string(&p).unwrap_or_default()));
        }
    }
}

/// Test files (`tests*.rs`, `bench.rs`, `corpus_tests.rs`) may use any module.
fn is_test_file(rel: &str) -> bool {
    let name = rel.rsplit('/').next().unwrap_or(rel);
    name.starts_with("tests") || name == "bench.rs" || name == "corpus_tests.rs"
}

/// The code of a file: without its trailing `#[cfg(test)] mod` and without plain `//` comments.
/// Doc comments stay: a doc that names a module by path (or links to it) depends on it too.
fn code(text: &str) -> String {
    let text = text
        .find("#[cfg(test)]\nmod ")
        .map_or(text, |at| &text[..at]);
    text.lines()
        .map(|l| {
            let doc = l.trim_start().starts_with("///") || l.trim_start().starts_with("//!");
            if doc {
                l
            } else {
                l.split("//").next().unwrap_or("")
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// The top-level modules a piece of code names through `crate::`.
fn named_modules(code: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let ident = |s: &str| -> String {
        s.chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect()
    };
    for (at, _) in code.match_indices("crate::") {
        let rest = &code[at + "crate::".len()..];
        if let Some(group) = rest.strip_prefix('{') {
            let group = &group[..group.find('}').unwrap_or(group.len())];
            out.extend(group.split(',').map(|m| ident(m.trim())));
        } else {
            out.insert(ident(rest));
        }
    }
    out.retain(|m| !m.is_empty() && m != "self");
    out
}

fn graph() -> Graph {
    let mut files = Vec::new();
    sources(&src(), &mut files);
    assert!(files.len() > 50, "src/ not found at {}", src().display());
    let mut g = Graph::new();
    for (rel, text) in files {
        let top = rel.split('/').next().unwrap_or("").trim_end_matches(".rs");
        if matches!(top, "lib" | "main") || is_test_file(&rel) {
            continue;
        }
        for m in named_modules(&code(&text)) {
            if m != top {
                g.entry(top.to_string())
                    .or_default()
                    .entry(m)
                    .or_default()
                    .insert(rel.clone());
            }
        }
    }
    g
}

/// A path of edges from `from` back to `to`, if there is one.
fn path_to(g: &Graph, from: &str, to: &str, seen: &mut BTreeSet<String>) -> Option<Vec<String>> {
    if from == to {
        return Some(vec![to.to_string()]);
    }
    if !seen.insert(from.to_string()) {
        return None;
    }
    for next in g.get(from).into_iter().flat_map(BTreeMap::keys) {
        if let Some(mut rest) = path_to(g, next, to, seen) {
            rest.insert(0, from.to_string());
            return Some(rest);
        }
    }
    None
}

#[test]
fn no_top_level_module_depends_on_one_that_depends_on_it() {
    let g = graph();
    let mut cycles = Vec::new();
    for (a, deps) in &g {
        for (b, files) in deps {
            if let Some(back) = path_to(&g, b, a, &mut BTreeSet::new()) {
                let first: Vec<&String> = files.iter().take(3).collect();
                cycles.push(format!("{a} -> {} (from {first:?})", back.join(" -> ")));
            }
        }
    }
    assert!(cycles.is_empty(), "module cycles:\n{}", cycles.join("\n"));
}

#[test]
fn the_graph_reader_sees_imports_and_cycles() {
    let code = code(
        "use crate::{diag, parse::Node};\nlet x = crate::cel::eval();\n// crate::lint\n/// see crate::run\n",
    );
    assert_eq!(
        named_modules(&code).into_iter().collect::<Vec<_>>(),
        ["cel", "diag", "parse", "run"]
    );
    let mut g = Graph::new();
    g.entry("a".into())
        .or_default()
        .entry("b".into())
        .or_default();
    g.entry("b".into())
        .or_default()
        .entry("c".into())
        .or_default();
    assert_eq!(path_to(&g, "b", "a", &mut BTreeSet::new()), None);
    g.entry("c".into())
        .or_default()
        .entry("a".into())
        .or_default();
    assert_eq!(
        path_to(&g, "b", "a", &mut BTreeSet::new()),
        Some(vec!["b".to_string(), "c".to_string(), "a".to_string()])
    );
}

/// Files outside the report stage that still read a finding's code or message to decide
/// something (issue 16: statuses and decisions are to come from typed outcomes). The list may
/// only shrink: a new file that does it fails the test.
const READS_FINDING_TEXT: &[&str] = &[];

/// Whether `code` has `pattern` where `d` is a name of its own (`accepted.message` is no finding's).
fn reads(code: &str, pattern: &str) -> bool {
    code.match_indices(pattern).any(|(at, _)| {
        !pattern.starts_with("d.")
            || !code[..at]
                .chars()
                .next_back()
                .is_some_and(|c| c.is_ascii_alphanumeric() || c == '_')
    })
}

#[test]
fn the_finding_pattern_needs_a_name_of_its_own() {
    assert!(reads("if d.code == x", "d.code"));
    assert!(reads("(d.message)", "d.message"));
    assert!(!reads("s.accepted.message = m", "d.message"));
    assert!(reads("x.code == y", ".code =="));
}

#[test]
fn only_the_report_stage_reads_findings_codes_and_messages() {
    let mut files = Vec::new();
    sources(&src(), &mut files);
    // `d` is what every finding is called where one is inspected.
    let patterns = ["d.code", ".code ==", ".code !=", "d.message"];
    let mut found: Vec<String> = files
        .iter()
        .filter(|(rel, _)| {
            // The report stage formats findings, suppression selects them by code (its
            // purpose), diff compares them, diag defines them (and turns their typed outcomes
            // into the verdicts later stages decide on), and the secrets' scrub masks
            // values inside messages (it rewrites text and decides nothing).
            !rel.starts_with("report/")
                && rel != "secrets/scrub.rs"
                && !rel.starts_with("diag/")
                && !rel.starts_with("diff/")
                && rel != "suppress.rs"
                && !is_test_file(rel)
        })
        .filter(|(_, text)| {
            let code = code(text);
            patterns.iter().any(|p| reads(&code, p))
        })
        .map(|(rel, _)| rel.clone())
        .collect();
    found.sort();
    assert_eq!(found, READS_FINDING_TEXT);
}
