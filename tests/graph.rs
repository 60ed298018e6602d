//! `gwctl graph` end to end: mermaid and dot snapshots of sets with a refused route, an
//! overridden policy, delegation and an AI Gateway with providers; the DOT read back by a small
//! parser, the SVG read as XML, both checked against the graph data; names that hold quotes,
//! brackets and control characters; byte-identical output on repeated runs and on inputs in
//! another order; `--gateway` and `--namespace`.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use assert_cmd::cargo::CommandCargoExt;
use gwctl::graph::{EdgeKind, Graph, NodeKind, Outcome, build};
use gwctl::lint::{LintOptions, Needs, lint_paths};

fn testdata(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("testdata")
        .join(rel)
}

/// Runs `gwctl graph ARGS` from the repository root; (exit code, stdout, stderr).
fn gwctl_graph(args: &[&str]) -> (i32, String, String) {
    let out = Command::cargo_bin("gwctl")
        .map(|mut c| {
            c.current_dir(env!("CARGO_MANIFEST_DIR"))
                .arg("graph")
                .args(args)
                .output()
        })
        .unwrap_or_else(|e| panic!("gwctl binary: {e}"))
        .unwrap_or_else(|e| panic!("gwctl ran: {e}"));
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn graph_ok(args: &[&str]) -> String {
    let (code, stdout, stderr) = gwctl_graph(args);
    assert_eq!((code, stderr.as_str()), (0, ""), "gwctl graph {args:?}");
    stdout
}

/// The graph data of a set, as the command builds it.
fn graph_of(paths: &[PathBuf]) -> Graph {
    let options = LintOptions {
        needs: Needs::Model,
        ..LintOptions::default()
    };
    let run = lint_paths(paths, &options).unwrap_or_else(|e| panic!("lint: {e}"));
    let model = run.model.as_ref().unwrap_or_else(|| panic!("no model"));
    let merged = model.merge();
    build(&run, &merged)
}

const SETS: &[(&str, &str)] = &[
    ("refused", "resolve/attachment.yaml"),
    ("overridden", "quickstart"),
    ("delegation", "render/delegation.yaml"),
    ("ai", "graph/ai.yaml"),
];

#[test]
fn mermaid_snapshots() {
    for (name, set) in SETS {
        let path = format!("testdata/{set}");
        insta::assert_snapshot!(format!("mermaid_{name}"), graph_ok(&[&path]));
    }
}

#[test]
fn dot_snapshots() {
    for (name, set) in SETS {
        let path = format!("testdata/{set}");
        insta::assert_snapshot!(format!("dot_{name}"), graph_ok(&[&path, "-o", "dot"]));
    }
}

/// The sets show what they are for: the refused parentRefs with their reasons, the overridden
/// policy, the delegation, the providers and the policy on one of them.
#[test]
fn sets_hold_the_edges_they_are_for() {
    let has = |g: &Graph, kind: EdgeKind, label: &str, to: &str| {
        g.edges
            .iter()
            .any(|e| e.kind == kind && e.label == label && g.nodes[e.to].id.name == to)
    };
    let refused = graph_of(&[testdata("resolve/attachment.yaml")]);
    assert!(has(
        &refused,
        EdgeKind::Refused,
        "NotAllowedByListeners",
        "not-selected"
    ));
    assert!(has(
        &refused,
        EdgeKind::Refused,
        "NoMatchingParent",
        "typo-parent"
    ));
    let quickstart = graph_of(&[testdata("quickstart")]);
    let overridden = EdgeKind::Policy(Outcome::Overridden);
    assert!(has(&quickstart, overridden, "Overridden", "checkout"));
    let delegation = graph_of(&[testdata("render/delegation.yaml")]);
    assert!(has(&delegation, EdgeKind::Delegates, "", "cart"));
    let ai = graph_of(&[testdata("graph/ai.yaml")]);
    let providers: Vec<&str> = ai
        .nodes
        .iter()
        .filter(|n| n.id.kind == NodeKind::Provider)
        .map(|n| n.id.section.as_str())
        .collect();
    assert_eq!(providers, ["primary", "fallback", "search"]);
    assert!(ai.edges.iter().any(|e| e.kind == overridden
        && ai.nodes[e.from].id.name == "primary-timeout"
        && ai.nodes[e.to].id.section == "primary"));
}

/// Error counts come from the findings' objects: the quickstart's misspelt policy has one, and
/// a second misspelt target gives it two.
#[test]
fn error_counts_per_node() {
    let g = graph_of(&[testdata("quickstart")]);
    let errors: BTreeMap<&str, usize> = g
        .nodes
        .iter()
        .filter(|n| n.errors > 0)
        .map(|n| (n.id.name.as_str(), n.errors))
        .collect();
    assert_eq!(
        errors,
        BTreeMap::from([("checkout", 1), ("checkout-retries", 1)])
    );
    let dir = tempfile::tempdir().expect("temp dir");
    for f in ["gateway.yaml", "routes.yaml", "policies.yaml"] {
        let text = std::fs::read_to_string(testdata("quickstart").join(f)).expect("readable");
        let text = text.replace(
            "    name: checkuot\n",
            "    name: checkuot\n  - group: gateway.networking.k8s.io\n    kind: HTTPRoute\n    name: chekout\n",
        );
        std::fs::write(dir.path().join(f), text).expect("written");
    }
    let g = graph_of(&[dir.path().to_path_buf()]);
    let retries = g.nodes.iter().find(|n| n.id.name == "checkout-retries");
    assert_eq!(retries.map(|n| n.errors), Some(2));
}

// ---- DOT read back -------------------------------------------------------------------------

/// A DOT statement's attributes, with quoted values unescaped.
type Attrs = BTreeMap<String, String>;

/// The statements of a DOT graph: nodes by id, edges in order.
struct Dot {
    nodes: BTreeMap<String, Attrs>,
    edges: Vec<(String, String, Attrs)>,
}

/// A quoted string's text, after its opening quote: `\"`, `\\` and `\n` unescaped, other
/// escapes kept as written. Marked with a leading '"' to tell it from a bare word.
fn quoted_token(chars: &mut std::iter::Peekable<std::str::Chars<'_>>) -> String {
    let mut s = String::from("\"");
    while let Some(c) = chars.next() {
        match c {
            '\\' => match chars.next() {
                Some('"') => s.push('"'),
                Some('\\') => s.push('\\'),
                Some('n') => s.push('\n'),
                Some(other) => {
                    s.push('\\');
                    s.push(other);
                }
                None => panic!("unterminated escape"),
            },
            '"' => return s,
            c => s.push(c),
        }
    }
    panic!("unterminated string")
}

/// Tokens: quoted strings, words, `->` and punctuation.
fn dot_tokens(text: &str) -> Vec<String> {
    let mut chars = text.chars().peekable();
    let mut tokens = Vec::new();
    while let Some(c) = chars.next() {
        match c {
            '"' => tokens.push(quoted_token(&mut chars)),
            c if c.is_whitespace() => {}
            '[' | ']' | ',' | ';' | '=' | '{' | '}' => tokens.push(c.to_string()),
            '-' if chars.peek() == Some(&'>') => {
                chars.next();
                tokens.push("->".to_string());
            }
            c => {
                let mut s = c.to_string();
                while let Some(&n) = chars.peek() {
                    if !(n.is_alphanumeric() || n == '_' || n == '#' || n == '.') {
                        break;
                    }
                    s.push(n);
                    chars.next();
                }
                tokens.push(s);
            }
        }
    }
    tokens
}

/// An attribute list `[key=value, ...]` at `tokens[*i]`, if there is one.
fn dot_attrs(tokens: &[String], i: &mut usize) -> Attrs {
    let mut out = Attrs::new();
    if tokens.get(*i).map(String::as_str) != Some("[") {
        return out;
    }
    *i += 1;
    while tokens[*i] != "]" {
        let key = tokens[*i].clone();
        assert_eq!(tokens[*i + 1], "=", "attribute {key}");
        out.insert(key, tokens[*i + 2].trim_start_matches('"').to_string());
        *i += 3;
        if tokens[*i] == "," {
            *i += 1;
        }
    }
    *i += 1;
    out
}

/// Reads the node and edge statements of the DOT gwctl writes (ids `nN`, attribute lists with
/// quoted or bare values); `subgraph`, `label=` lines and defaults are skipped.
fn parse_dot(text: &str) -> Dot {
    let tokens = dot_tokens(text);
    let mut dot = Dot {
        nodes: BTreeMap::new(),
        edges: Vec::new(),
    };
    let mut i = 0;
    while i < tokens.len() {
        let t = tokens[i].clone();
        let is_id = t.len() > 1 && t.starts_with('n') && t[1..].chars().all(|c| c.is_ascii_digit());
        i += 1;
        if !is_id {
            continue;
        }
        if tokens.get(i).map(String::as_str) == Some("->") {
            let to = tokens[i + 1].clone();
            i += 2;
            let attrs = dot_attrs(&tokens, &mut i);
            dot.edges.push((t, to, attrs));
        } else {
            let attrs = dot_attrs(&tokens, &mut i);
            assert!(
                dot.nodes.insert(t.clone(), attrs).is_none(),
                "node {t} twice"
            );
        }
    }
    dot
}

/// Every node of the graph is in the DOT with its name in its label, and every edge between
/// the right two nodes; nothing more.
fn check_dot(paths: &[PathBuf], dot: &str) {
    let g = graph_of(paths);
    let Dot { nodes, edges } = parse_dot(dot);
    assert_eq!(nodes.len(), g.nodes.len(), "{dot}");
    for (i, n) in g.nodes.iter().enumerate() {
        let attrs = &nodes[&format!("n{i}")];
        let shown = match n.id.kind {
            NodeKind::Listener | NodeKind::Provider | NodeKind::Rule => &n.id.section,
            _ => &n.id.name,
        };
        // Control characters, tabs and line breaks are written as escapes (`\x1b`, `\n`).
        let expected: String = shown
            .chars()
            .filter(|c| !c.is_control() && !matches!(c, '\u{202a}'..='\u{202e}'))
            .collect();
        let label: String = attrs["label"].chars().filter(|c| !c.is_control()).collect();
        let mut rest = label.as_str();
        for c in expected.chars() {
            let at = rest
                .find(c)
                .unwrap_or_else(|| panic!("{c:?} of {shown:?} in {label:?}"));
            rest = &rest[at + c.len_utf8()..];
        }
    }
    let mut expected: Vec<(String, String)> = g
        .edges
        .iter()
        .map(|e| (format!("n{}", e.from), format!("n{}", e.to)))
        .collect();
    let mut found: Vec<(String, String)> = edges.into_iter().map(|(a, b, _)| (a, b)).collect();
    expected.sort();
    found.sort();
    assert_eq!(found, expected);
}

#[test]
fn dot_reads_back_to_every_node_and_edge() {
    let mut sets: Vec<&str> = SETS.iter().map(|(_, s)| *s).collect();
    sets.push("graph/hostile-names.yaml");
    for set in sets {
        let path = format!("testdata/{set}");
        check_dot(&[testdata(set)], &graph_ok(&[&path, "-o", "dot"]));
    }
}

// ---- SVG -----------------------------------------------------------------------------------

fn check_svg(paths: &[PathBuf], svg: &str) {
    let g = graph_of(paths);
    let doc = roxmltree::Document::parse(svg).unwrap_or_else(|e| panic!("SVG is not XML: {e}"));
    let nodes: Vec<roxmltree::Node<'_, '_>> = doc
        .descendants()
        .filter(|n| n.has_tag_name("g") && n.attribute("class") == Some("node"))
        .collect();
    assert_eq!(nodes.len(), g.nodes.len());
    for (i, (element, node)) in nodes.iter().zip(&g.nodes).enumerate() {
        assert_eq!(element.attribute("id"), Some(format!("n{i}").as_str()));
        let title = element
            .children()
            .find(|c| c.has_tag_name("title"))
            .and_then(|t| t.text())
            .unwrap_or_default();
        assert!(title.contains(&node.id.object_kind), "{title}");
        assert!(!title.chars().any(char::is_control), "{title:?}");
        let rects = element
            .children()
            .filter(|c| c.has_tag_name("rect"))
            .count();
        assert_eq!(rects, 1, "one box per node");
    }
    assert!(!svg.contains("href"), "self-contained: no references out");
}

#[test]
fn svg_is_xml_with_one_element_per_node() {
    let mut sets: Vec<&str> = SETS.iter().map(|(_, s)| *s).collect();
    sets.push("graph/hostile-names.yaml");
    for set in sets {
        let path = format!("testdata/{set}");
        check_svg(&[testdata(set)], &graph_ok(&[&path, "-o", "svg"]));
    }
}

/// Long names are shortened on the picture, whole in the tooltip.
#[test]
fn svg_shortens_long_names() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let long = "a-very-long-gateway-name-that-goes-on-and-on-and-on";
    let file = dir.path().join("gw.yaml");
    let text = format!(
        "apiVersion: gateway.networking.k8s.io/v1\nkind: Gateway\nmetadata:\n  name: {long}\n  namespace: infra\nspec:\n  gatewayClassName: x\n  listeners:\n  - name: http\n    protocol: HTTP\n    port: 80\n"
    );
    std::fs::write(&file, text).unwrap_or_else(|e| panic!("{e}"));
    let svg = graph_ok(&[&file.to_string_lossy(), "-o", "svg"]);
    assert!(
        svg.contains(&format!("<title>Gateway infra/{long}</title>")),
        "{svg}"
    );
    assert!(svg.contains(">a-very-long-g…-and-on-and-on<"), "{svg}");
}

// ---- escaping ------------------------------------------------------------------------------

#[test]
fn hostile_names_are_escaped_in_every_format() {
    let path = "testdata/graph/hostile-names.yaml";
    let mermaid = graph_ok(&[path]);
    insta::assert_snapshot!("mermaid_hostile_names", mermaid);
    for line in mermaid.lines() {
        // Inside a quoted label nothing that ends it or starts markup; no control character.
        assert!(!line.chars().any(|c| c.is_control()), "{line:?}");
        // A quoted label (node or edge) holds only letters, digits, a few plain punctuation
        // marks and entity codes (`#34;`), joined by `<br/>`.
        if let (Some(open), Some(close)) = (line.find('"'), line.rfind('"'))
            && open < close
        {
            let inner = line[open + 1..close].replace("<br/>", "");
            assert!(
                inner
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || " ._-/:()*,#;".contains(c)),
                "{line}"
            );
        }
    }
    let dot = graph_ok(&[path, "-o", "dot"]);
    assert!(!dot.chars().any(|c| c.is_control() && c != '\n'), "{dot:?}");
    assert!(dot.contains(r#"edge\"]{x}|<b>&amp;"#), "{dot}");
    let svg = graph_ok(&[path, "-o", "svg"]);
    assert!(svg.contains("edge&quot;]{x}|&lt;b&gt;&amp;amp;"), "{svg}");
    assert!(svg.contains(r"http\x1b[31mred\x07"), "{svg}");
}

// ---- stable output -------------------------------------------------------------------------

#[test]
fn output_is_byte_identical_across_runs_and_input_orders() {
    let files = ["gateway.yaml", "policies.yaml", "routes.yaml"];
    let forward: Vec<String> = files
        .iter()
        .map(|f| format!("testdata/quickstart/{f}"))
        .chain(["testdata/graph/ai.yaml".to_string()])
        .collect();
    let mut backward = forward.clone();
    backward.reverse();
    for format in ["mermaid", "dot", "svg"] {
        let run = |paths: &[String]| {
            let mut args: Vec<&str> = paths.iter().map(String::as_str).collect();
            args.extend(["-o", format]);
            graph_ok(&args)
        };
        let first = run(&forward);
        assert_eq!(first, run(&forward), "{format}: a second run");
        assert_eq!(first, run(&backward), "{format}: inputs in reverse order");
    }
}

// ---- selection -----------------------------------------------------------------------------

#[test]
fn gateway_limits_to_its_component() {
    let both = ["testdata/quickstart", "testdata/graph/ai.yaml"];
    let all = graph_ok(&[both[0], both[1]]);
    assert!(all.contains("Gateway<br/>edge") && all.contains("Gateway<br/>ai"));
    let ai = graph_ok(&[both[0], both[1], "--gateway", "default/ai", "-o", "dot"]);
    assert!(ai.contains("Gateway\\nai\""), "{ai}");
    assert!(ai.contains("provider\\nprimary"), "{ai}");
    assert!(ai.contains("AiGatewayPolicy\\nprimary-timeout"), "{ai}");
    assert!(
        !ai.contains("Gateway\\nedge") && !ai.contains("checkout"),
        "{ai}"
    );
    let edge = graph_ok(&[both[0], both[1], "--gateway", "shop/edge"]);
    assert!(
        edge.contains("checkout-timeouts-old") && !edge.contains("llm"),
        "{edge}"
    );
    // The misspelt policy attaches to nothing: it is no part of the Gateway's component.
    assert!(!edge.contains("checkout-retries"), "{edge}");
}

#[test]
fn unknown_gateway_is_a_usage_error() {
    let (code, stdout, stderr) = gwctl_graph(&["testdata/quickstart", "--gateway", "shop/edg"]);
    assert_eq!(code, 2);
    assert_eq!(stdout, "");
    assert_eq!(stderr, "gwctl: error: no Gateway shop/edg in the inputs\n");
    let (code, _, stderr) = gwctl_graph(&["testdata/quickstart", "--gateway", "a/b/c"]);
    assert_eq!(
        (code, stderr.as_str()),
        (
            2,
            "gwctl: error: --gateway \"a/b/c\" is not NAMESPACE/NAME\n"
        )
    );
}

#[test]
fn namespace_keeps_its_objects_and_their_neighbours() {
    let out = graph_ok(&["testdata/quickstart", "-n", "payments", "-o", "dot"]);
    let Dot { nodes, edges } = parse_dot(&out);
    let labels: Vec<&str> = nodes.values().map(|a| a["label"].as_str()).collect();
    assert_eq!(labels, ["rule\npay", "Service\npayments"]);
    assert_eq!(edges.len(), 1);
}

#[test]
fn unreadable_path_is_a_usage_error() {
    let (code, stdout, stderr) = gwctl_graph(&["testdata/graph/missing.yaml"]);
    assert_eq!((code, stdout.as_str()), (2, ""));
    assert!(stderr.starts_with("gwctl: error: "), "{stderr}");
}
