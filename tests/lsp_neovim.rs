//! `gwctl lsp` in a real editor: Neovim's built-in LSP client, headless, on a copy of
//! `testdata/quickstart/` (tests/lsp/neovim.lua reads the diagnostics and a hover through the
//! Lua API). Neovim is `$GWCTL_NEOVIM` or `nvim` on the PATH; `.ci/run` installs the Debian
//! package when it is absent. Without it the test is skipped, except under `CI=true`, where it
//! fails.

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn neovim() -> Option<PathBuf> {
    let exe = std::env::var_os("GWCTL_NEOVIM").map_or_else(|| PathBuf::from("nvim"), PathBuf::from);
    let works = Command::new(&exe)
        .arg("--version")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    if works {
        return Some(exe);
    }
    assert!(
        std::env::var("CI").as_deref() != Ok("true"),
        "neovim_client: {} is not a Neovim executable (CI requires it; .ci/run installs the neovim package)",
        exe.display()
    );
    eprintln!("neovim_client: skipped: install neovim or set GWCTL_NEOVIM to run it");
    None
}

#[test]
fn neovim_client_shows_diagnostics_and_hover() {
    let Some(nvim) = neovim() else { return };
    let dir = tempfile::tempdir().expect("temp dir");
    let root = dir.path().canonicalize().expect("canonical temp dir");
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata/quickstart");
    for name in ["gateway.yaml", "routes.yaml", "policies.yaml"] {
        std::fs::copy(src.join(name), root.join(name)).expect("copy");
    }
    let out = root.join("result.txt");
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/lsp/neovim.lua");
    let mut child = Command::new(nvim)
        .args(["--headless", "--clean", "-n", "-c"])
        .arg(format!("luafile {}", script.display()))
        .env("GWCTL_WS", &root)
        .env("GWCTL_OUT", &out)
        .env("GWCTL_BIN", assert_cmd::cargo::cargo_bin!("gwctl"))
        .env("HOME", &root)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start nvim");
    let deadline = Instant::now() + Duration::from_secs(180);
    let status = loop {
        if let Some(status) = child.try_wait().expect("wait for nvim") {
            break status;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            panic!("nvim did not finish");
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    let result = std::fs::read_to_string(&out).unwrap_or_default();
    let mut stderr = String::new();
    if let Some(mut pipe) = child.stderr.take() {
        let _ = pipe.read_to_string(&mut stderr);
    }
    assert!(status.success(), "nvim: {status}; wrote: {result}");
    // Neovim reports a server that ends badly ("Client 1 quit with exit code 2").
    assert!(!stderr.contains("quit with exit code"), "{stderr}");
    let lines: Vec<&str> = result.lines().collect();
    assert!(!lines.iter().any(|l| l.starts_with("error")), "{result}");
    // The payments backendRef of the `pay` rule: another namespace, no ReferenceGrant.
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("diagnostic 28:6 GW208 ")),
        "{result}"
    );
    let hover = lines
        .iter()
        .find(|l| l.starts_with("hover "))
        .copied()
        .unwrap_or("");
    assert!(hover.contains("→ Gateway shop/edge"), "{result}");
    assert!(hover.contains("gateway.yaml:12"), "{result}");
}
