//! Specialisations of the tree evaluator, pinned against the full engine.

use super::*;
use crate::source::SourceFile;

/// The tree evaluator's result and the full engine's for `rule` on the YAML document `doc`.
fn both(rule: &str, doc: &str) -> (Option<bool>, Result<bool, String>) {
    let compiled = CompiledRule::compile(rule).expect("compiles");
    let file = SourceFile::new(0, "t.yaml", doc);
    let parsed = crate::parse::parse_file(&file, &crate::parse::Limits::default());
    let root = &parsed.documents[0].root;
    (
        compiled.eval_node(root, None),
        compiled.eval(&from_json(&root.to_json())),
    )
}

/// `filter(...).size()` is counted without building the list: the same results as the full
/// engine, errors still left to it, and comprehensions nested in the range or the predicate
/// keep their own variables.
#[test]
fn filter_size_counts_as_the_engine_does() {
    let doc = "f:\n- type: A\n- type: B\n- type: A\n  x: [1, 2]\ng: []\nh: [1, 'a']\n";
    let decided = [
        ("self.f.filter(f, f.type == 'A').size() == 2", true),
        ("size(self.f.filter(f, f.type == 'C')) == 0", true),
        ("self.g.filter(x, x > 0).size() == 0", true),
        (
            "[has(self.f), has(self.z), has(self.g)].filter(x, x == true).size() == 2",
            true,
        ),
        // A range element and the predicate each running a comprehension of their own.
        (
            "[self.f.exists(f, f.type == 'B'), false].filter(x, x).size() == 1",
            true,
        ),
        (
            "self.f.filter(f, self.f.filter(o, o.type == f.type).size() > 1).size() == 2",
            true,
        ),
        // The outer variable stays readable inside the count.
        (
            "self.f.all(o, self.f.filter(f, f.type == o.type).size() >= 1)",
            true,
        ),
        // A three-argument map with the item itself as the value is a filter too.
        ("self.f.map(f, f.type == 'B', f).size() == 1", true),
        ("self.f.map(f, f.type == 'B', 1).size() == 1", true),
    ];
    for (rule, want) in decided {
        let (fast, engine) = both(rule, doc);
        assert_eq!(fast, Some(want), "{rule}");
        assert_eq!(engine, Ok(want), "{rule}");
    }
    // An item the predicate cannot test (`'a' > 0`) is an error for the engine: left to it.
    let (fast, engine) = both("self.h.filter(x, x > 0).size() == 1", doc);
    assert_eq!(fast, None);
    assert!(engine.is_err(), "{engine:?}");
    // A missing field in the predicate: not decided here either.
    let (fast, _) = both("self.f.filter(f, f.x.size() > 1).size() == 1", doc);
    assert_eq!(fast, None);
}

/// Only the filter macro's exact shape becomes a count.
#[test]
fn only_filters_become_counts() {
    use super::fast::Program;
    let compile = |rule: &str| {
        let compiled = CompiledRule::compile(rule).expect("compiles");
        compiled.fast.expect("in the subset")
    };
    let is_count = |p: &Program| match p {
        Program::Compare(_, ops) => matches!(ops[0], Program::Count(_)),
        _ => false,
    };
    assert!(is_count(&compile("self.filter(x, x > 1).size() == 1")));
    assert!(!is_count(&compile("self.map(x, x + 1).size() == 1")));
    assert!(!is_count(&compile("self.size() == 1")));
}
