//! `--diff`: the fixes as a unified diff that `git apply` (and `patch -p1`) accept.

use similar::TextDiff;

use super::Changed;

/// One `--- a/NAME` / `+++ b/NAME` section per changed file, three lines of context. Stdin is
/// `<stdin>` on both sides.
pub fn unified(changed: &[Changed]) -> String {
    let mut out = String::new();
    for c in changed {
        let name = c.name.strip_prefix("./").unwrap_or(&c.name);
        let diff = TextDiff::from_lines(&*c.original, &*c.fixed);
        let text = diff
            .unified_diff()
            .context_radius(3)
            .header(&format!("a/{name}"), &format!("b/{name}"))
            .to_string();
        out.push_str(&text);
    }
    out
}
