//! Records the commit gwctl is built from, for `gwctl --version`: from git when the crate is a
//! git checkout (a clone, `cargo install --path .`, pre-commit's build), else from the
//! `.cargo_vcs_info.json` that `cargo package` writes into a published crate, else nothing, which
//! `--version` then says.

use std::path::{Path, PathBuf};
use std::process::Command;

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    let dir = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").unwrap_or_default());
    let commit = from_git(&dir).or_else(|| from_vcs_info(&dir));
    let text = match commit {
        Some(sha) => format!("commit {sha}"),
        None => "commit unknown: built without git metadata".to_string(),
    };
    println!("cargo:rustc-env=GWCTL_COMMIT={text}");
}

fn git(dir: &Path, args: &[&str]) -> Option<String> {
    let out = Command::new("git")
        .arg("-C")
        .arg(dir)
        .args(args)
        .output()
        .ok()?;
    let text = String::from_utf8(out.stdout).ok()?;
    out.status.success().then(|| text.trim().to_string())
}

/// HEAD's commit, when `dir` is the top of a git work tree (not a crate unpacked somewhere inside
/// another repository). Reruns when HEAD moves: a commit, a checkout, a merge.
fn from_git(dir: &Path) -> Option<String> {
    let top = git(dir, &["rev-parse", "--show-toplevel"])?;
    let same = |a: &Path, b: &Path| match (a.canonicalize(), b.canonicalize()) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    };
    if !same(Path::new(&top), dir) {
        return None;
    }
    let sha = git(dir, &["rev-parse", "HEAD"])?;
    let mut watched = vec!["HEAD".to_string(), "packed-refs".to_string()];
    if let Some(branch) = git(dir, &["symbolic-ref", "-q", "HEAD"]) {
        watched.push(branch);
    }
    for name in watched {
        if let Some(path) = git(dir, &["rev-parse", "--git-path", &name]) {
            let path = dir.join(path);
            if path.exists() {
                println!("cargo:rerun-if-changed={}", path.display());
            }
        }
    }
    Some(sha)
}

/// `"sha1": "<hex>"` of `.cargo_vcs_info.json`, read without a JSON parser (a build dependency
/// for one field is not worth its build time).
fn from_vcs_info(dir: &Path) -> Option<String> {
    let text = std::fs::read_to_string(dir.join(".cargo_vcs_info.json")).ok()?;
    let rest = &text[text.find("\"sha1\"")? + "\"sha1\"".len()..];
    let rest = rest
        .trim_start()
        .strip_prefix(':')?
        .trim_start()
        .strip_prefix('"')?;
    let sha: String = rest.chars().take_while(char::is_ascii_hexdigit).collect();
    (sha.len() >= 7).then_some(sha)
}
