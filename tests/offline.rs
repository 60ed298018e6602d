//! gwctl never uses the network: results are the same in a process that cannot connect anywhere,
//! and no network client is among the dependencies.

use std::process::Command;

/// The JSON report over `testdata/` with the timing left out (the one field that varies).
fn normalized(stdout: &[u8]) -> String {
    let text = String::from_utf8_lossy(stdout);
    let mut json: serde_json::Value = serde_json::from_str(&text).expect("json report");
    json["summary"]["elapsedMs"] = serde_json::Value::Null;
    json.to_string()
}

fn lint_args() -> [&'static str; 4] {
    ["lint", "--format", "json", "testdata"]
}

fn baseline() -> String {
    let out = Command::new(assert_cmd::cargo::cargo_bin!("gwctl"))
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(lint_args())
        .output()
        .expect("run gwctl");
    assert_eq!(out.status.code(), Some(1), "testdata/invalid has findings");
    normalized(&out.stdout)
}

/// Runs gwctl through `wrapper` (e.g. `unshare --net`); `None` when the wrapper itself cannot run.
fn wrapped(wrapper: &[&str], envs: &[(&str, &str)]) -> Option<(i32, String, String)> {
    let out = Command::new(wrapper[0])
        .args(&wrapper[1..])
        .arg(assert_cmd::cargo::cargo_bin!("gwctl"))
        .args(lint_args())
        .envs(envs.iter().copied())
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .ok()?;
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    if out.stdout.is_empty() {
        eprintln!("{wrapper:?} could not run gwctl: {stderr}");
        return None;
    }
    Some((out.status.code()?, normalized(&out.stdout), stderr))
}

#[cfg(target_os = "linux")]
#[test]
fn same_results_without_network() {
    let expected = baseline();
    // A new network namespace has no interfaces but loopback, which is down: every connect fails.
    if let Some((code, got, _)) = wrapped(&["unshare", "--net", "--"], &[]) {
        assert_eq!(code, 1);
        assert_eq!(got, expected, "results differ without network");
        return;
    }
    // Fallback: proxies pointed at a closed port, and strace to see that no connect is tried.
    let proxies = [
        ("HTTP_PROXY", "http://127.0.0.1:9"),
        ("HTTPS_PROXY", "http://127.0.0.1:9"),
        ("ALL_PROXY", "http://127.0.0.1:9"),
        ("http_proxy", "http://127.0.0.1:9"),
        ("https_proxy", "http://127.0.0.1:9"),
    ];
    let trace = tempfile::NamedTempFile::new().expect("temp file");
    let trace_path = trace.path().to_string_lossy().into_owned();
    let strace = [
        "strace",
        "-f",
        "-e",
        "trace=connect",
        "-o",
        trace_path.as_str(),
        "--",
    ];
    match wrapped(&strace, &proxies) {
        Some((code, got, _)) => {
            assert_eq!(code, 1);
            assert_eq!(
                got, expected,
                "results differ with proxies pointing nowhere"
            );
            let calls = std::fs::read_to_string(trace.path()).unwrap_or_default();
            let inet: Vec<&str> = calls.lines().filter(|l| l.contains("AF_INET")).collect();
            assert!(inet.is_empty(), "gwctl tried to connect: {inet:?}");
        }
        None => eprintln!(
            "same_results_without_network: skipped: neither unshare --net nor strace works here"
        ),
    }
}

/// Network client crates gwctl must never depend on (checked in gwctl's whole dependency tree,
/// build and dev dependencies included; the workspace's xtask, which fetches Envoy's protos, is
/// not gwctl).
const NETWORK_CRATES: &[&str] = &[
    "reqwest",
    "hyper",
    "ureq",
    "curl",
    "isahc",
    "attohttpc",
    "surf",
    "h2",
    "tokio",
    "async-std",
    "minreq",
    "http_req",
    "native-tls",
    "rustls",
];

#[test]
fn no_network_crate_in_the_dependency_tree() {
    let out = std::process::Command::new(env!("CARGO"))
        .args([
            "tree",
            "-p",
            "gwctl",
            "-e",
            "normal,build,dev",
            "--prefix",
            "none",
        ])
        .args(["--format", "{p}"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("cargo tree");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let tree = String::from_utf8_lossy(&out.stdout);
    let names: Vec<&str> = tree.lines().filter_map(|l| l.split(' ').next()).collect();
    assert!(
        names.contains(&"serde_json"),
        "not a dependency tree: {tree}"
    );
    let found: Vec<&str> = names
        .into_iter()
        .filter(|name| NETWORK_CRATES.contains(name))
        .collect();
    assert!(
        found.is_empty(),
        "network crates in gwctl's dependencies: {found:?}"
    );
}
