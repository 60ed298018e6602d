//! `gwctl lsp` as an editor sees it: the server runs as a process and the tests speak JSON-RPC
//! to it (tests/lsp/client.rs), on a copy of `testdata/quickstart/`.

#[path = "lsp/client.rs"]
mod client;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use client::{Client, position, uri};
use serde_json::{Value, json};

/// A copy of the quickstart workspace (gateway.yaml, routes.yaml, policies.yaml).
fn workspace() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().expect("temp dir");
    let root = dir.path().canonicalize().expect("canonical temp dir");
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata/quickstart");
    for name in ["gateway.yaml", "routes.yaml", "policies.yaml"] {
        std::fs::copy(src.join(name), root.join(name)).expect("copy");
    }
    (dir, root)
}

/// One finding as both sides can say it: file name, code, severity, 0-based range, message.
type Key = (String, String, String, (u64, u64, u64, u64), String);

/// `gwctl lint` of the folder from inside it (where it finds the config file), the findings with a
/// place (the ones a server can publish).
fn lint_json(root: &Path) -> BTreeSet<Key> {
    let out = std::process::Command::new(assert_cmd::cargo::cargo_bin!("gwctl"))
        .args(["lint", "--format", "json", "."])
        .current_dir(root)
        .output()
        .expect("gwctl lint");
    let json: Value = serde_json::from_slice(&out.stdout).expect("json report");
    json["findings"]
        .as_array()
        .expect("findings")
        .iter()
        .filter(|f| !f["file"].is_null())
        .map(|f| {
            let n = |k: &str| f[k].as_u64().expect("position") - 1;
            let mut message = f["message"].as_str().unwrap_or("").to_string();
            if let Some(help) = f["help"].as_str() {
                message.push_str(&format!("\nhelp: {help}"));
            }
            (
                name_of(f["file"].as_str().expect("file")),
                f["code"].as_str().unwrap_or("").to_string(),
                f["severity"].as_str().unwrap_or("").to_string(),
                (n("line"), n("column"), n("endLine"), n("endColumn")),
                message,
            )
        })
        .collect()
}

fn name_of(path: &str) -> String {
    path.rsplit('/').next().unwrap_or(path).to_string()
}

fn keys(file: &str, diagnostics: &[Value]) -> BTreeSet<Key> {
    diagnostics
        .iter()
        .map(|d| {
            let r = &d["range"];
            let n = |p: &str, k: &str| r[p][k].as_u64().expect("position");
            let severity = match d["severity"].as_u64() {
                Some(1) => "error",
                Some(2) => "warning",
                _ => "info",
            };
            (
                file.to_string(),
                d["code"].as_str().unwrap_or("").to_string(),
                severity.to_string(),
                (
                    n("start", "line"),
                    n("start", "character"),
                    n("end", "line"),
                    n("end", "character"),
                ),
                d["message"].as_str().unwrap_or("").to_string(),
            )
        })
        .collect()
}

fn text_document(path: &Path, at: Value) -> Value {
    json!({"textDocument": {"uri": uri(path)}, "position": at})
}

fn hover_text(client: &mut Client, path: &Path, at: Value) -> String {
    let result = client.request("textDocument/hover", text_document(path, at));
    result["contents"]["value"]
        .as_str()
        .unwrap_or("")
        .to_string()
}

#[test]
fn diagnostics_equal_lint_json_and_follow_changes_in_other_files() {
    let (_dir, root) = workspace();
    let expected = lint_json(&root);
    assert!(
        expected.len() >= 3,
        "the quickstart has findings: {expected:?}"
    );
    let mut client = Client::start(Some(&root));
    let mut got = BTreeSet::new();
    for name in ["routes.yaml", "policies.yaml"] {
        let list = client.diagnostics_where(&uri(&root.join(name)), |_| true);
        got.extend(keys(name, &list));
        for d in &list {
            let code = d["code"].as_str().unwrap_or("");
            assert_eq!(
                d["codeDescription"]["href"],
                format!(
                    "https://github.com/gwctl/gwctl/blob/main/docs/rules.md#{}",
                    code.to_lowercase()
                )
            );
            assert_eq!(d["source"], "gwctl");
        }
    }
    assert_eq!(got, expected);

    // The listener renamed in gateway.yaml (unsaved): routes.yaml's parentRefs no longer find
    // it; named back, their findings clear.
    let gateway = root.join("gateway.yaml");
    let routes_uri = uri(&root.join("routes.yaml"));
    let text = std::fs::read_to_string(&gateway).expect("gateway.yaml");
    client.open(&gateway, &text);
    client.change(&gateway, 2, &text.replace("- name: https", "- name: http2"));
    let broken = client.diagnostics_where(&routes_uri, |l| {
        l.iter()
            .any(|d| d["message"].as_str().unwrap_or("").contains("\"https\""))
    });
    assert!(broken.len() > expected.iter().filter(|k| k.0 == "routes.yaml").count());
    client.change(&gateway, 3, &text);
    let fixed = client.diagnostics_where(&routes_uri, |l| {
        !l.iter()
            .any(|d| d["message"].as_str().unwrap_or("").contains("\"https\""))
    });
    assert_eq!(
        keys("routes.yaml", &fixed),
        expected
            .iter()
            .filter(|k| k.0 == "routes.yaml")
            .cloned()
            .collect()
    );
    assert_eq!(client.shutdown(), Some(0));
}

#[test]
fn hover_definition_references_symbols() {
    let (_dir, root) = workspace();
    let mut client = Client::start(Some(&root));
    let policies = root.join("policies.yaml");
    let routes = root.join("routes.yaml");
    let gateway = root.join("gateway.yaml");
    let policies_text = std::fs::read_to_string(&policies).expect("policies");
    let routes_text = std::fs::read_to_string(&routes).expect("routes");
    let gateway_text = std::fs::read_to_string(&gateway).expect("gateway");

    // A targetRef: the route it names, and where.
    let on_target = position(&policies_text, "kind: HTTPRoute", 0, "checkout", 2);
    let text = hover_text(&mut client, &policies, on_target);
    assert!(text.contains("→ HTTPRoute shop/checkout"), "{text}");
    assert!(text.contains("routes.yaml:6"), "{text}");
    // The mistyped one: nothing, and the finding that says so.
    let on_typo = position(&policies_text, "kind: HTTPRoute", 2, "checkuot", 2);
    let text = hover_text(&mut client, &policies, on_typo);
    assert!(
        text.contains("HTTPRoute shop/checkuot**: not among"),
        "{text}"
    );
    assert!(text.contains("GW301"), "{text}");

    // A route's name: its effective policy, what won and what lost.
    let on_route = position(&routes_text, "metadata:", 0, "checkout", 1);
    let text = hover_text(&mut client, &routes, on_route);
    assert!(text.contains("Effective policy"), "{text}");
    assert!(text.contains("HTTPRoute shop/checkout"), "{text}");
    assert!(text.contains("timeouts"), "{text}");
    assert!(text.contains("checkout-timeouts-old"), "{text}");

    // A policy: where it attaches and its predicted status.
    let on_policy = position(&policies_text, "metadata:", 1, "checkout-timeouts", 1);
    let text = hover_text(&mut client, &policies, on_policy);
    assert!(
        text.contains("Attaches to:\n- HTTPRoute shop/checkout"),
        "{text}"
    );
    assert!(text.contains("Predicted status"), "{text}");

    // A field: its schema's bounds.
    let on_port = position(&gateway_text, "port: 443", 0, "port", 1);
    let text = hover_text(&mut client, &gateway, on_port);
    assert!(
        text.contains("**spec.listeners[0].port**: integer"),
        "{text}"
    );
    assert!(text.contains("maximum: `65535`"), "{text}");

    // Definition: the parentRef's name goes to the Gateway's name.
    let on_parent = position(&routes_text, "parentRefs:", 0, "edge", 1);
    let def = client.request("textDocument/definition", text_document(&routes, on_parent));
    assert_eq!(def["uri"], uri(&gateway));
    assert_eq!(def["range"]["start"], json!({"line": 11, "character": 8}));

    // References: both routes name the Gateway.
    let on_gateway = position(&gateway_text, "name: edge", 0, "edge", 1);
    let mut params = text_document(&gateway, on_gateway);
    params["context"] = json!({"includeDeclaration": false});
    let refs = client.request("textDocument/references", params);
    let lines: Vec<(String, u64)> = refs
        .as_array()
        .expect("locations")
        .iter()
        .map(|l| {
            (
                name_of(l["uri"].as_str().unwrap_or("")),
                l["range"]["start"]["line"].as_u64().unwrap_or(0),
            )
        })
        .collect();
    assert_eq!(
        lines,
        [
            ("routes.yaml".to_string(), 9),
            ("routes.yaml".to_string(), 39)
        ]
    );

    // Symbols: the objects of the file.
    let symbols = client.request(
        "textDocument/documentSymbol",
        json!({"textDocument": {"uri": uri(&gateway)}}),
    );
    let names: Vec<(&str, &str)> = symbols
        .as_array()
        .expect("symbols")
        .iter()
        .map(|s| {
            (
                s["detail"].as_str().unwrap_or(""),
                s["name"].as_str().unwrap_or(""),
            )
        })
        .collect();
    assert_eq!(
        names,
        [
            ("GatewayClass", "kgateway"),
            ("Gateway", "shop/edge"),
            ("Secret", "shop/shop-tls")
        ]
    );
    assert_eq!(client.shutdown(), Some(0));
}

fn labels(result: &Value) -> Vec<String> {
    let items = result.get("items").unwrap_or(result);
    items
        .as_array()
        .expect("completion items")
        .iter()
        .filter_map(|i| i["label"].as_str().map(str::to_string))
        .collect()
}

#[test]
fn completion_of_fields_values_and_reference_names() {
    let (_dir, root) = workspace();
    let mut client = Client::start(Some(&root));
    let new = root.join("new.yaml");
    let text = "apiVersion: gateway.networking.k8s.io/v1\nkind: HTTPRoute\nmetadata:\n  name: new\n  namespace: shop\nspec:\n  parentRefs:\n  - name: \n    sectionName: \n  ho\n";
    client.open(&new, text);
    let complete = |client: &mut Client, line: u64, character: u64| {
        client.request(
            "textDocument/completion",
            text_document(&new, json!({"line": line, "character": character})),
        )
    };
    // A field of spec: its schema's fields (those not written yet).
    let fields = labels(&complete(&mut client, 9, 4));
    assert!(fields.contains(&"hostnames".to_string()), "{fields:?}");
    assert!(fields.contains(&"rules".to_string()), "{fields:?}");
    assert!(!fields.contains(&"parentRefs".to_string()), "{fields:?}");
    // A parentRef's name: the Gateways; its sectionName: their listeners.
    assert_eq!(labels(&complete(&mut client, 7, 10)), ["edge"]);
    assert_eq!(labels(&complete(&mut client, 8, 17)), ["https"]);
    // kind: the kinds gwctl knows.
    let kinds = labels(&complete(&mut client, 1, 6));
    assert!(
        kinds.contains(&"HTTPRoute".to_string()) && kinds.contains(&"TrafficPolicy".to_string()),
        "{kinds:?}"
    );
    assert_eq!(client.shutdown(), Some(0));
}

#[test]
fn bad_input_gets_errors_or_empty_results_never_a_crash() {
    let (_dir, root) = workspace();
    let mut client = Client::start(Some(&root));
    // A malformed document: its syntax error, and empty answers inside it.
    let bad = root.join("bad.yaml");
    client.open(&bad, "kind: [\n  : : :\n\t-");
    let list = client.diagnostics_where(&uri(&bad), |l| !l.is_empty());
    assert_eq!(list[0]["severity"], 1, "{list:?}");
    let hover = client.request(
        "textDocument/hover",
        text_document(&bad, json!({"line": 1, "character": 3})),
    );
    assert_eq!(hover, Value::Null);
    // Requests for files the server does not know, and a position past the end.
    for (method, extra) in [
        ("textDocument/hover", json!({})),
        ("textDocument/definition", json!({})),
        (
            "textDocument/references",
            json!({"context": {"includeDeclaration": true}}),
        ),
        ("textDocument/completion", json!({})),
    ] {
        for target in ["file:///no/such/file.yaml", "untitled:Untitled-1"] {
            let mut params =
                json!({"textDocument": {"uri": target}, "position": {"line": 99, "character": 99}});
            params
                .as_object_mut()
                .expect("object")
                .extend(extra.as_object().expect("object").clone());
            assert_eq!(
                client.request(method, params),
                Value::Null,
                "{method} {target}"
            );
        }
    }
    let far = client.request(
        "textDocument/hover",
        text_document(
            &root.join("routes.yaml"),
            json!({"line": 9999, "character": 9999}),
        ),
    );
    assert_eq!(far, Value::Null);
    // Parameters that are not the method's, and a method the server does not have: errors.
    let wrong = client.call("textDocument/hover", json!({"nothing": 1}));
    assert_eq!(wrong["error"]["code"], -32602, "{wrong}");
    let unknown = client.call("gwctl/unknown", json!({}));
    assert_eq!(unknown["error"]["code"], -32601, "{unknown}");

    // A file deleted on disk: its findings cleared.
    let routes = root.join("routes.yaml");
    std::fs::remove_file(&routes).expect("delete routes.yaml");
    client.notify(
        "workspace/didChangeWatchedFiles",
        json!({"changes": [{"uri": uri(&routes), "type": 3}]}),
    );
    client.diagnostics_where(&uri(&routes), <[Value]>::is_empty);
    let gone = client.request(
        "textDocument/hover",
        text_document(&routes, json!({"line": 5, "character": 9})),
    );
    assert_eq!(gone, Value::Null);

    // A document of 10 MB (a route, and a ConfigMap of 10 MB): linted, and answered.
    let big = root.join("big.yaml");
    let mut text = String::from(
        "apiVersion: gateway.networking.k8s.io/v1\nkind: HTTPRoute\nmetadata:\n  name: big\n  namespace: shop\nspec:\n  parentRefs:\n  - name: edge\n  rules:\n  - backendRefs:\n    - name: nowhere\n      port: 8080\n---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: big\n  namespace: shop\ndata:\n",
    );
    let mut i = 0;
    while text.len() < 10 * 1024 * 1024 {
        text.push_str(&format!("  key{i}: \"{}\"\n", "x".repeat(200)));
        i += 1;
    }
    client.open(&big, &text);
    let list = client.diagnostics_where(&uri(&big), |l| !l.is_empty());
    // The backendRef (routes.yaml, with the Services, is gone): not checked, said once.
    assert_eq!(list[0]["code"], "GW212", "{list:?}");
    assert_eq!(
        list[0]["range"]["start"],
        json!({"line": 10, "character": 6})
    );
    let hover = hover_text(&mut client, &big, json!({"line": 3, "character": 9}));
    assert!(hover.contains("Effective policy"), "{hover}");
    assert_eq!(client.shutdown(), Some(0));
}

#[test]
fn a_quick_fix_renames_a_mistyped_field() {
    let (_dir, root) = workspace();
    let mut client = Client::start(Some(&root));
    let routes = root.join("routes.yaml");
    let text = std::fs::read_to_string(&routes).expect("routes").replacen(
        "    backendRefs:\n    - name: catalog",
        "    backendRef:\n    - name: catalog",
        1,
    );
    client.open(&routes, &text);
    let list = client.diagnostics_where(&uri(&routes), |l| l.iter().any(|d| d["code"] == "GW101"));
    let typo = list
        .iter()
        .find(|d| d["code"] == "GW101")
        .expect("GW101")
        .clone();
    let actions = client.request(
        "textDocument/codeAction",
        json!({"textDocument": {"uri": uri(&routes)}, "range": typo["range"], "context": {"diagnostics": [typo]}}),
    );
    let action = &actions[0];
    assert_eq!(action["kind"], "quickfix", "{actions}");
    assert_eq!(action["isPreferred"], true, "{actions}");
    assert_eq!(action["diagnostics"][0]["code"], "GW101", "{actions}");
    let edits = action["edit"]["changes"][uri(&routes)]
        .as_array()
        .expect("edits of routes.yaml");
    assert_eq!(edits.len(), 1, "{actions}");
    assert_eq!(edits[0]["newText"], "backendRefs");
    assert_eq!(edits[0]["range"], typo["range"]);
    // Applied as the editor would: the finding goes.
    let line = typo["range"]["start"]["line"].as_u64().expect("line") as usize;
    let fixed: Vec<String> = text
        .lines()
        .enumerate()
        .map(|(i, l)| {
            if i == line {
                l.replace("backendRef:", "backendRefs:")
            } else {
                l.to_string()
            }
        })
        .collect();
    client.change(&routes, 2, &(fixed.join("\n") + "\n"));
    client.diagnostics_where(&uri(&routes), |l| !l.iter().any(|d| d["code"] == "GW101"));
    assert_eq!(client.shutdown(), Some(0));
}

#[test]
fn shutdown_then_hang_up_ends_cleanly_and_exit_alone_does_not() {
    let (_dir, root) = workspace();
    // Neovim 0.7 quits with a second shutdown and closes the pipe without `exit`: status 0.
    let mut client = Client::start(Some(&root));
    assert_eq!(client.request("shutdown", Value::Null), Value::Null);
    assert_eq!(client.request("shutdown", Value::Null), Value::Null);
    let late = client.call(
        "textDocument/hover",
        text_document(
            &root.join("routes.yaml"),
            json!({"line": 9, "character": 10}),
        ),
    );
    assert_eq!(late["error"]["code"], -32600, "{late}");
    assert_eq!(client.hang_up(), Some(0));
    // `exit` without a shutdown first: status 1, as the protocol asks.
    let mut client = Client::start(Some(&root));
    client.notify("exit", Value::Null);
    assert_eq!(client.hang_up(), Some(1));
}

#[test]
fn the_workspace_is_what_lint_reads_with_the_config_files_exclude_and_values() {
    let (_dir, root) = workspace();
    let here = Path::new(env!("CARGO_MANIFEST_DIR"));
    std::fs::create_dir_all(root.join("chart")).expect("chart/");
    std::fs::create_dir_all(root.join("vendor")).expect("vendor/");
    std::fs::copy(
        here.join("testdata/values/invalid-values.yaml"),
        root.join("chart/values.yaml"),
    )
    .expect("values");
    // Excluded by the config: a route with an unknown field, never linted.
    let vendored = root.join("vendor/routes.yaml");
    let text = std::fs::read_to_string(root.join("routes.yaml")).expect("routes");
    let typo = text.replacen("backendRefs:", "backendRef:", 1);
    std::fs::write(&vendored, &typo).expect("vendor/routes.yaml");
    std::fs::write(
        root.join("gwctl.yaml"),
        "values: chart/values.yaml\nexclude: ['vendor/**']\n",
    )
    .expect("gwctl.yaml");
    let expected = lint_json(&root);
    assert!(
        expected
            .iter()
            .any(|k| k.0 == "values.yaml" && k.1 == "GW101"),
        "{expected:?}"
    );
    assert!(
        !expected
            .iter()
            .any(|k| k.1 == "GW101" && k.0 == "routes.yaml")
    );

    let mut client = Client::start(Some(&root));
    let values = root.join("chart/values.yaml");
    let mut got = BTreeSet::new();
    for path in [
        root.join("routes.yaml"),
        root.join("policies.yaml"),
        values.clone(),
    ] {
        let list = client.diagnostics_where(&uri(&path), |_| true);
        got.extend(keys(&name_of(&path.display().to_string()), &list));
    }
    assert_eq!(got, expected);

    // The excluded file opened: still not linted, as `gwctl lint` would not read it.
    client.open(&vendored, &typo);
    let symbols = client.request(
        "textDocument/documentSymbol",
        json!({"textDocument": {"uri": uri(&vendored)}}),
    );
    assert_eq!(symbols, Value::Null);
    assert!(
        !client
            .notifications
            .iter()
            .any(|m| m["params"]["uri"] == uri(&vendored)),
        "{:?}",
        client.notifications
    );

    // The values buffer edited: its findings follow, and it is not linted as a manifest.
    let values_text = std::fs::read_to_string(&values).expect("values");
    client.open(&values, &values_text);
    client.change(&values, 2, &values_text.replace("logLevl", "logLevel"));
    let list = client.diagnostics_where(&uri(&values), |l| !l.iter().any(|d| d["code"] == "GW101"));
    assert!(!list.is_empty());
    assert!(!list.iter().any(|d| d["code"] == "GW004"), "{list:?}");
    assert_eq!(client.shutdown(), Some(0));
}

#[test]
fn watched_files_registered_and_a_changed_config_file_applied() {
    let (_dir, root) = workspace();
    let capabilities =
        json!({"workspace": {"didChangeWatchedFiles": {"dynamicRegistration": true}}});
    let mut client = Client::start_with(Some(&root), capabilities);
    let routes = uri(&root.join("routes.yaml"));
    let before = client.diagnostics_where(&routes, |_| true);
    assert!(before.iter().any(|d| d["code"] == "GW208"), "{before:?}");
    let register = client
        .notifications
        .iter()
        .find(|m| m["method"] == "client/registerCapability")
        .cloned()
        .expect("a registration request");
    let registration = &register["params"]["registrations"][0];
    assert_eq!(registration["method"], "workspace/didChangeWatchedFiles");
    assert_eq!(
        registration["registerOptions"]["watchers"][0]["globPattern"],
        "**/*.{yaml,yml,json}"
    );
    client.send(&json!({"jsonrpc": "2.0", "id": register["id"], "result": null}));

    // A config file created outside the editor: its severities apply at once.
    let config = root.join("gwctl.yaml");
    std::fs::write(&config, "severity: {GW208: off}\n").expect("gwctl.yaml");
    client.notify(
        "workspace/didChangeWatchedFiles",
        json!({"changes": [{"uri": uri(&config), "type": 1}]}),
    );
    let after = client.diagnostics_where(&routes, |l| !l.iter().any(|d| d["code"] == "GW208"));
    assert_eq!(after.len(), before.len() - 1, "{after:?}");
    // An invalid one: said, and the defaults used.
    std::fs::write(&config, "severity: {GW208: loud}\n").expect("gwctl.yaml");
    client.notify(
        "workspace/didChangeWatchedFiles",
        json!({"changes": [{"uri": uri(&config), "type": 2}]}),
    );
    client.diagnostics_where(&routes, |l| l.iter().any(|d| d["code"] == "GW208"));
    let shown = client
        .notifications
        .iter()
        .filter(|m| m["method"] == "window/showMessage")
        .map(|m| m["params"]["message"].as_str().unwrap_or("").to_string())
        .collect::<Vec<_>>();
    assert!(
        shown.iter().any(|m| m.starts_with("invalid config file")),
        "{shown:?}"
    );
    assert_eq!(client.shutdown(), Some(0));
}

#[test]
fn ranged_changes_are_applied_to_the_buffer() {
    let (_dir, root) = workspace();
    let mut client = Client::start(Some(&root));
    let routes = root.join("routes.yaml");
    let text = std::fs::read_to_string(&routes).expect("routes");
    client.open(&routes, &text);
    let before = client.diagnostics_where(&uri(&routes), |_| true);
    // The first `sectionName: https` made `http2` by a range (the server asks for whole texts;
    // some clients send ranges all the same), then a line appended past the end.
    let (line, col) = text
        .lines()
        .enumerate()
        .find_map(|(i, l)| l.find("sectionName: https").map(|c| (i, c + 13)))
        .expect("a sectionName");
    let at = |c: usize| json!({"line": line, "character": c});
    client.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": uri(&routes), "version": 2}, "contentChanges": [
            {"range": {"start": at(col), "end": at(col + 5)}, "text": "http2"},
            {"range": {"start": {"line": 9999, "character": 0}, "end": {"line": 9999, "character": 0}},
             "text": "# appended\n"},
        ]}),
    );
    let broken = client.diagnostics_where(&uri(&routes), |l| {
        l.iter()
            .any(|d| d["message"].as_str().unwrap_or("").contains("\"http2\""))
    });
    assert_eq!(broken.len(), before.len() + 1, "{broken:?}");
    let symbols = client.request(
        "textDocument/documentSymbol",
        json!({"textDocument": {"uri": uri(&routes)}}),
    );
    assert!(
        symbols.as_array().is_some_and(|s| !s.is_empty()),
        "{symbols}"
    );
    // Put back: the finding goes.
    client.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": uri(&routes), "version": 3}, "contentChanges": [
            {"range": {"start": at(col), "end": at(col + 5)}, "text": "https"},
        ]}),
    );
    let fixed = client.diagnostics_where(&uri(&routes), |l| l.len() == before.len());
    assert_eq!(keys("routes.yaml", &fixed), keys("routes.yaml", &before));
    assert_eq!(client.shutdown(), Some(0));
}

#[test]
fn unreadable_crds_of_the_config_are_said_once_and_the_manifests_still_linted() {
    let (_dir, root) = workspace();
    std::fs::write(root.join("gwctl.yaml"), "crds: [no-such-dir]\n").expect("gwctl.yaml");
    let mut client = Client::start(Some(&root));
    let routes_path = root.join("routes.yaml");
    let routes = client.diagnostics_where(&uri(&routes_path), |_| true);
    assert!(routes.iter().any(|d| d["code"] == "GW208"), "{routes:?}");
    // Answered after everything the server sent before it.
    let sync = |client: &mut Client| {
        client.request(
            "textDocument/documentSymbol",
            json!({"textDocument": {"uri": uri(&routes_path)}}),
        );
    };
    sync(&mut client);
    let shown = |client: &Client| -> Vec<String> {
        client
            .notifications
            .iter()
            .filter(|m| m["method"] == "window/showMessage")
            .map(|m| m["params"]["message"].as_str().unwrap_or("").to_string())
            .collect()
    };
    let said = shown(&client);
    assert!(
        said.iter()
            .any(|m| m.starts_with("gwctl: error[GW001] ") && m.contains("no-such-dir")),
        "{said:?}"
    );
    // An edit elsewhere: not said again.
    client.notifications.clear();
    let gateway = root.join("gateway.yaml");
    let text = std::fs::read_to_string(&gateway).expect("gateway.yaml");
    client.open(&gateway, &text);
    client.change(&gateway, 2, &text.replace("- name: https", "- name: http2"));
    client.diagnostics_where(&uri(&routes_path), |l| l.len() > routes.len());
    sync(&mut client);
    assert_eq!(shown(&client), Vec::<String>::new());
    assert_eq!(client.shutdown(), Some(0));
}
