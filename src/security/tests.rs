//! The registry and the rule declarations agree; per-rule behaviour is tested through the
//! examples (`src/rules/security/`, tests/rule_examples.rs) and `tests/security.rs`.

use super::CHECKS;
use crate::rules;

#[test]
fn every_gw4xx_code_has_one_check() {
    let declared: Vec<rules::Code> = rules::all()
        .map(|r| r.code)
        .filter(|c| c.as_str().starts_with("GW4"))
        // Checked by the resolve stage, which knows the route's listeners.
        .filter(|c| *c != rules::GW406)
        .collect();
    let registry: Vec<rules::Code> = CHECKS.iter().map(|(c, _)| *c).collect();
    assert_eq!(declared, registry);
}

#[test]
fn entry_paths_name_list_items_by_index() {
    use crate::source::SourceFile;
    let file = SourceFile::new(
        0,
        "t.yaml",
        "a:\n- b: 1\n- c: [x, {d: 2}]\n- {}\n- {}\n- {}\n- {}\n- {}\n- {}\n- {}\n- {}\n- e: 3\n",
    );
    let parsed = crate::parse::parse_file(&file, &crate::parse::Limits::default());
    let mut paths = Vec::new();
    super::each_entry(&parsed.documents[0].root, "spec", &mut |path, _| {
        paths.push(path.to_string());
    });
    assert_eq!(
        paths,
        [
            "spec.a",
            "spec.a[0].b",
            "spec.a[1].c",
            "spec.a[1].c[1].d",
            "spec.a[10].e"
        ]
    );
}
