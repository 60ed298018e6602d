//! `--git REV`: the manifests of some paths as a git revision has them, read from the object
//! store (`git ls-tree`, then `git cat-file --batch`), without a checkout. Run in the current
//! directory: paths are taken as git takes them there, and each file is named as a walk of the
//! working tree names it, so that findings quoting a file name are the same on both sides.

use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Component, Path, PathBuf};
use std::process::{Command, Stdio};

use crate::input::{self, Filters, Loaded};

/// Every manifest below `paths` at `rev`, named by its path from the current directory; the
/// filters apply below directories, as in a walk.
pub fn read_revision(
    rev: &str,
    paths: &[PathBuf],
    filters: &Filters,
    max_total_bytes: u64,
) -> Result<Loaded, String> {
    let wanted = input::filter(filters)?;
    let names: Vec<String> = list(rev, paths)?
        .into_iter()
        .filter(|n| below_directory(n, paths).is_none_or(&wanted))
        .collect();
    let (read, skipped) = cat(rev, &names, max_total_bytes)?;
    let mut loaded = input::from_memory(read);
    loaded.diagnostics.extend(
        skipped
            .iter()
            .map(|name| input::over_budget(name, max_total_bytes)),
    );
    Ok(loaded)
}

/// The files below `paths` at `rev` that a directory walk would read, sorted.
fn list(rev: &str, paths: &[PathBuf]) -> Result<Vec<String>, String> {
    let out = Command::new("git")
        .args(["ls-tree", "-r", "-z", "--name-only", rev, "--"])
        .args(paths)
        .output()
        .map_err(|e| format!("cannot run git: {e}"))?;
    if !out.status.success() {
        return Err(format!(
            "git ls-tree {rev}: {}",
            String::from_utf8_lossy(&out.stderr).trim()
        ));
    }
    let mut names: Vec<String> = out
        .stdout
        .split(|&b| b == 0)
        .filter(|n| !n.is_empty())
        .map(|n| String::from_utf8_lossy(n).into_owned())
        .filter(|n| {
            let p = Path::new(n);
            // Hidden entries are skipped, as the walk of a directory skips them.
            input::is_candidate(p)
                && !p.components().any(|c| match c {
                    Component::Normal(c) => c.to_string_lossy().starts_with('.'),
                    _ => false,
                })
        })
        .collect();
    names.sort_unstable();
    names.dedup();
    Ok(names)
}

/// The path of a listed file relative to the argument it was found below; `None` when it is an
/// argument itself (a file named on the command line is read whatever the filters say).
fn below_directory<'a>(name: &'a str, paths: &[PathBuf]) -> Option<&'a Path> {
    let name = Path::new(name);
    paths.iter().find_map(|p| {
        let p = p.strip_prefix(".").unwrap_or(p);
        if name == p {
            return None;
        }
        name.strip_prefix(p).ok()
    })
}

/// What `cat` read: each file's name and bytes, and the files skipped for the byte budget.
type Blobs = (Vec<(String, Vec<u8>)>, Vec<String>);

/// The bytes of each file at `rev`, through one `git cat-file --batch`, at most `max` in all:
/// the files beyond are skipped (`--max-total-bytes`, as on disk).
fn cat(rev: &str, names: &[String], max: u64) -> Result<Blobs, String> {
    if names.is_empty() {
        return Ok((Vec::new(), Vec::new()));
    }
    let mut child = Command::new("git")
        .args(["cat-file", "--batch"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot run git: {e}"))?;
    let (Some(mut stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
        return Err("git cat-file: no pipes".to_string());
    };
    // `REV:./path` is relative to the current directory, as ls-tree listed it.
    let requests: String = names
        .iter()
        .map(|n| {
            if n.starts_with("../") {
                format!("{rev}:{n}\n")
            } else {
                format!("{rev}:./{n}\n")
            }
        })
        .collect();
    // Written from another thread: git answers while it reads, and both pipes are bounded.
    let writer = std::thread::spawn(move || stdin.write_all(requests.as_bytes()));
    let mut reader = BufReader::new(stdout);
    let mut out = Vec::with_capacity(names.len());
    let mut skipped = Vec::new();
    let mut left = max;
    for name in names {
        let mut header = String::new();
        reader
            .read_line(&mut header)
            .map_err(|e| format!("git cat-file: {e}"))?;
        // `<oid> blob <size>`, or `<object> missing`.
        let size = match header.split_whitespace().collect::<Vec<_>>()[..] {
            [_, "blob", size] => size.parse::<usize>().ok(),
            _ => None,
        }
        .ok_or_else(|| format!("git cat-file {rev}:{name}: {}", header.trim()))?;
        let failed = |e: std::io::Error| format!("git cat-file {rev}:{name}: {e}");
        if size as u64 > left {
            // Read past, never held: a file over the budget costs no memory.
            std::io::copy(&mut (&mut reader).take(size as u64), &mut std::io::sink())
                .map_err(failed)?;
            skipped.push(name.clone());
        } else {
            left -= size as u64;
            let mut bytes = vec![0; size];
            reader.read_exact(&mut bytes).map_err(failed)?;
            out.push((name.clone(), bytes));
        }
        let mut newline = [0u8; 1];
        reader.read_exact(&mut newline).map_err(failed)?;
    }
    drop(reader);
    let _ = writer.join();
    let _ = child.wait();
    Ok((out, skipped))
}
