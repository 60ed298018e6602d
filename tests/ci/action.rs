//! action.yml (the composite GitHub Action) and .pre-commit-hooks.yaml are valid, and the README's
//! examples use them as they are declared.

use std::collections::BTreeSet;
use std::path::Path;

use gwctl::parse::{Limits, parse_file};
use gwctl::source::SourceFile;
use serde_json::Value;

fn read(name: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// One YAML document as JSON, with no syntax error or duplicate key.
fn yaml(name: &str, text: &str) -> Value {
    let file = SourceFile::new(0, name, text);
    let parsed = parse_file(&file, &Limits::default());
    let problems: Vec<&str> = parsed
        .diagnostics
        .iter()
        .map(|d| d.message.as_str())
        .collect();
    assert!(problems.is_empty(), "{name}: {problems:?}");
    assert_eq!(parsed.documents.len(), 1, "{name}: one document");
    parsed.documents[0].root.to_json()
}

/// The fenced ```yaml blocks of README.md that contain `needle`.
fn readme_yaml_blocks(needle: &str) -> Vec<String> {
    let readme = read("README.md");
    readme
        .split("```yaml\n")
        .skip(1)
        .filter_map(|rest| rest.split("\n```").next())
        .filter(|block| block.contains(needle))
        .map(str::to_string)
        .collect()
}

fn keys(v: &Value) -> BTreeSet<String> {
    v.as_object()
        .map(|m| m.keys().cloned().collect())
        .unwrap_or_default()
}

/// Every `${{ inputs.NAME }}` (or `inputs.NAME` in an `if:`) in `text`.
fn input_references(text: &str) -> BTreeSet<String> {
    text.match_indices("inputs.")
        .map(|(i, m)| {
            text[i + m.len()..]
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '-' || *c == '_')
                .collect()
        })
        .collect()
}

#[test]
fn action_is_a_valid_composite_action_matching_the_readme() {
    let text = read("action.yml");
    let action = yaml("action.yml", &text);
    for field in ["name", "description"] {
        assert!(action[field].is_string(), "action.yml needs {field}");
    }
    assert_eq!(action["runs"]["using"], "composite");
    let inputs = keys(&action["inputs"]);
    assert_eq!(
        inputs,
        ["args", "diff-base", "github-token", "paths", "sarif"]
            .map(String::from)
            .into(),
    );
    for name in &inputs {
        let input = &action["inputs"][name];
        assert!(
            input["description"].is_string(),
            "input {name} needs a description"
        );
        assert!(
            input.get("default").is_some(),
            "input {name} needs a default"
        );
    }
    // Every input is used, and nothing uses an input that is not declared.
    assert_eq!(input_references(&action["runs"].to_string()), inputs);

    let steps = action["runs"]["steps"].as_array().expect("runs.steps");
    let step_text: Vec<String> = steps.iter().map(Value::to_string).collect();
    for step in steps {
        assert!(step["name"].is_string(), "every step is named: {step}");
        // A composite action's `run` steps must say their shell.
        if step.get("run").is_some() {
            assert!(
                step["shell"].is_string(),
                "a run step without shell: {step}"
            );
        }
    }
    let position = |needle: &str| {
        step_text
            .iter()
            .position(|s| s.contains(needle))
            .unwrap_or_else(|| panic!("no step with {needle:?}"))
    };
    let cache = position("actions/cache@");
    let install = position("cargo install --locked --path \\\"$GITHUB_ACTION_PATH\\\"");
    let lint = position("gwctl lint --format github");
    let sarif = position("github/codeql-action/upload-sarif@");
    let diff = position("gwctl diff --git \\\"$GWCTL_BASE\\\"");
    let fail = position("exit ${{ steps.lint.outputs.exit-code }}");
    assert!(cache < install && install < lint && lint < sarif && sarif < fail && diff < fail);
    assert!(step_text[diff].contains("-o markdown"));
    assert_eq!(
        steps[install]["if"],
        "steps.cache.outputs.cache-hit != 'true'"
    );
    assert_eq!(steps[sarif]["if"], "inputs.sarif == 'true'");

    // The README's example workflow uses the action with declared inputs, and grants what the
    // inputs it sets need.
    let blocks = readme_yaml_blocks("uses: gwctl/gwctl@");
    assert_eq!(blocks.len(), 1, "one example workflow in README.md");
    let workflow = yaml("README.md example", &blocks[0]);
    let job_steps: Vec<&Value> = workflow["jobs"]
        .as_object()
        .expect("jobs")
        .values()
        .flat_map(|job| job["steps"].as_array().into_iter().flatten())
        .collect();
    let uses_action = job_steps
        .iter()
        .find(|s| {
            s["uses"]
                .as_str()
                .is_some_and(|u| u.starts_with("gwctl/gwctl@"))
        })
        .expect("a step uses the action");
    let used = keys(&uses_action["with"]);
    assert!(used.is_subset(&inputs), "{used:?} not all in {inputs:?}");
    let permissions = &workflow["permissions"];
    if used.contains("sarif") {
        assert_eq!(permissions["security-events"], "write");
    }
    if used.contains("diff-base") {
        assert_eq!(permissions["pull-requests"], "write");
        // gwctl diff --git reads the base revision: the checkout must have history.
        let checkout = job_steps
            .iter()
            .find(|s| {
                s["uses"]
                    .as_str()
                    .is_some_and(|u| u.starts_with("actions/checkout@"))
            })
            .expect("a checkout step");
        assert_eq!(checkout["with"]["fetch-depth"], 0);
    }
}

#[test]
fn pre_commit_hooks_are_declared_as_the_readme_uses_them() {
    let hooks = yaml(".pre-commit-hooks.yaml", &read(".pre-commit-hooks.yaml"));
    let hooks = hooks.as_array().expect("a list of hooks");
    let lint = hooks
        .iter()
        .find(|h| h["id"] == "gwctl-lint")
        .expect("hook gwctl-lint");
    assert_eq!(lint["language"], "rust");
    assert_eq!(lint["entry"], "gwctl lint");
    assert_eq!(lint["require_serial"], true);
    let files = regex::Regex::new(lint["files"].as_str().expect("files")).expect("files regex");
    let exclude = regex::Regex::new(lint["exclude"].as_str().expect("exclude")).expect("regex");
    let picked = |p: &str| files.is_match(p) && !exclude.is_match(p);
    for p in ["a.yaml", "deploy/b.yml", "c.json"] {
        assert!(picked(p), "{p}");
    }
    for p in ["README.md", "gwctl.yaml", "sub/.gwctl.yaml", "a.yaml.bak"] {
        assert!(!picked(p), "{p}");
    }
    for hook in hooks {
        for field in ["id", "name", "entry", "language"] {
            assert!(hook[field].is_string(), "{hook}: {field}");
        }
    }
    let blocks = readme_yaml_blocks("- id: gwctl-lint");
    assert_eq!(blocks.len(), 1, "one pre-commit example in README.md");
    let config = yaml("README.md pre-commit example", &blocks[0]);
    let ids: Vec<&Value> = config["repos"][0]["hooks"]
        .as_array()
        .expect("hooks")
        .iter()
        .map(|h| &h["id"])
        .collect();
    assert!(!ids.is_empty());
    for id in ids {
        assert!(hooks.iter().any(|h| &h["id"] == id), "{id} is not declared");
    }
}
