//! Writing fixed files: all or none, each atomically (a temporary file in the same directory,
//! renamed over the file), and only while the file still holds the text the fixes were made on.

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};

use super::Changed;

/// Why the fixed files were not written; nothing was.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WriteError {
    pub file: String,
    pub reason: String,
}

impl std::fmt::Display for WriteError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.file, self.reason)
    }
}

/// A fixed text waiting in its temporary file beside the target.
struct Staged {
    target: PathBuf,
    temp: PathBuf,
    change: usize,
}

/// Writes every changed file, or none: each is checked (still the text that was read, writable)
/// and staged in a temporary file first; only when all are staged are they renamed into place,
/// each after one more check. `<stdin>` is never written (its fixed text is printed).
pub fn write_all(changed: &[Changed]) -> Result<usize, Vec<WriteError>> {
    let mut staged = Vec::new();
    let mut errors = Vec::new();
    for (i, c) in changed.iter().enumerate() {
        if c.name == "<stdin>" {
            continue;
        }
        match stage(c, i) {
            Ok(s) => staged.push(s),
            Err(reason) => errors.push(WriteError {
                file: c.name.clone(),
                reason,
            }),
        }
    }
    if errors.is_empty() {
        // The last look before the rename: a write in between is refused, not overwritten.
        for s in &staged {
            if let Err(reason) = unchanged(&s.target, &changed[s.change]) {
                errors.push(WriteError {
                    file: changed[s.change].name.clone(),
                    reason,
                });
            }
        }
    }
    if !errors.is_empty() {
        for s in &staged {
            let _ = fs::remove_file(&s.temp);
        }
        return Err(errors);
    }
    let mut written = 0;
    for s in &staged {
        if let Err(e) = fs::rename(&s.temp, &s.target) {
            let _ = fs::remove_file(&s.temp);
            errors.push(WriteError {
                file: changed[s.change].name.clone(),
                reason: format!("cannot replace the file: {e}"),
            });
        } else {
            written += 1;
        }
    }
    if errors.is_empty() {
        Ok(written)
    } else {
        Err(errors)
    }
}

/// Checks the file and writes its fixed text to a temporary file beside it.
fn stage(c: &Changed, index: usize) -> Result<Staged, String> {
    // Through a symbolic link the file it points to is replaced, not the link.
    let target = fs::canonicalize(&c.name).map_err(|e| format!("cannot read the file: {e}"))?;
    unchanged(&target, c)?;
    let meta = fs::metadata(&target).map_err(|e| format!("cannot read the file: {e}"))?;
    if meta.permissions().readonly() {
        return Err("the file is read-only; not fixed (no file was written)".to_string());
    }
    let dir = target.parent().unwrap_or(Path::new("."));
    let base = target
        .file_name()
        .map_or_else(String::new, |n| n.to_string_lossy().into_owned());
    let temp = dir.join(format!(".{base}.gwctl-fix-{}-{index}", std::process::id()));
    let written = fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&temp)
        .and_then(|mut f| {
            f.write_all(c.fixed.as_bytes())?;
            f.set_permissions(meta.permissions())?;
            f.sync_all()
        });
    if let Err(e) = written {
        let _ = fs::remove_file(&temp);
        return Err(format!(
            "cannot write a temporary file in {}: {e}; not fixed (no file was written)",
            dir.display()
        ));
    }
    Ok(Staged {
        target,
        temp,
        change: index,
    })
}

/// `Err` when the file no longer holds the text the fixes were made on.
fn unchanged(target: &Path, c: &Changed) -> Result<(), String> {
    let now = fs::read(target).map_err(|e| format!("cannot read the file: {e}"))?;
    if now == c.original.as_bytes() {
        Ok(())
    } else {
        Err("the file changed on disk since it was read; not fixed (no file was written): run gwctl again".to_string())
    }
}
