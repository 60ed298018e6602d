//! A line-based safety net for what the tree does not hold: documents that failed to parse (their
//! snippet is still shown) and the second value of a duplicate key. Block YAML is read line by
//! line; a JSON or flow-style document (one that starts with `{` or `[`) is read by its tokens
//! (`flow`).

use super::{Masked, SECRET_KEYS, flow, normalized};
use crate::source::{FileId, Span};

/// The secret-looking values of `text`, document by document.
pub(super) fn of_text(file: FileId, text: &str) -> Vec<Masked> {
    let mut out = Vec::new();
    let mut lines = Vec::new();
    let mut start = 0;
    for line in text.split_inclusive('\n') {
        let content = line.trim_end_matches(['\n', '\r']);
        if content.starts_with("---") || content.starts_with("...") {
            document(file, text, &lines, &mut out);
            lines.clear();
        } else {
            lines.push((start, content));
        }
        start += line.len();
    }
    document(file, text, &lines, &mut out);
    out
}

fn document(file: FileId, text: &str, lines: &[(usize, &str)], out: &mut Vec<Masked>) {
    if let Some(from) = flow_start(lines) {
        let to = lines.last().map_or(from, |(s, l)| s + l.len());
        flow::document(file, text, from, to, out);
        return;
    }
    let clues = Clues::of(lines);
    let mut mask = |from: usize, to: usize| out.extend(masked_at(file, text, from, to));
    // Below a Secret's `data` (a section) and, inside it or alone, below a credential (a block).
    let mut section: Option<usize> = None;
    let mut block: Option<usize> = None;
    for &(start, line) in lines {
        let indent = line.len() - line.trim_start_matches(' ').len();
        let trimmed = &line[indent..];
        let end = start + line.len();
        if below(block, indent, trimmed) {
            mask(start + indent, end);
            continue;
        }
        block = None;
        if below(section, indent, trimmed) {
            match key_value(line, indent) {
                Some((_, key_col, value_col)) => {
                    mask(start + value_col, end);
                    let value = line[value_col..].trim();
                    if value.is_empty() || value.starts_with(['|', '>']) {
                        block = Some(key_col);
                    }
                }
                None => mask(start + indent, end),
            }
            continue;
        }
        section = None;
        let Some((key, key_col, value_col)) = key_value(line, indent) else {
            continue;
        };
        let k = normalized(key);
        if clues.secret && key_col == 0 && (k == "data" || k == "stringdata") {
            mask(start + value_col, end);
            section = Some(key_col);
        } else if clues.credential(&k) {
            mask(start + value_col, end);
            block = Some(key_col);
        }
    }
}

/// The value at `from..to` of `text`, trimmed; `None` when there is nothing but spaces.
fn masked_at(file: FileId, text: &str, from: usize, to: usize) -> Option<Masked> {
    let raw = text.get(from..to).unwrap_or("").trim();
    (!raw.is_empty()).then(|| Masked {
        file,
        span: Span::new(from, to),
        text: raw.trim_matches(['"', '\'']).to_string(),
    })
}

/// Where a JSON or flow-style document starts (its first significant line opens with `{` or
/// `[`); `None` for block YAML.
fn flow_start(lines: &[(usize, &str)]) -> Option<usize> {
    let &(start, line) = lines.iter().find(|(_, l)| {
        let t = l.trim_start();
        !t.is_empty() && !t.starts_with('#')
    })?;
    line.trim_start()
        .starts_with(['{', '['])
        .then(|| start + (line.len() - line.trim_start().len()))
}

/// What a document's lines tell of where its secrets are.
struct Clues {
    /// It is a Secret (its `data` and `stringData` are masked).
    secret: bool,
    /// It mentions `basicAuth` (its `users` are credentials).
    basic_auth: bool,
    /// It mentions `jwks` (its `inline` keys are credentials).
    jwks: bool,
}

impl Clues {
    fn of(lines: &[(usize, &str)]) -> Self {
        Clues {
            secret: lines.iter().any(|(_, l)| {
                l.strip_prefix("kind:")
                    .is_some_and(|v| v.trim().trim_matches(['"', '\'']) == "Secret")
            }),
            basic_auth: lines.iter().any(|(_, l)| l.contains("basicAuth")),
            jwks: lines.iter().any(|(_, l)| l.contains("jwks")),
        }
    }

    /// Whether the (normalized) key `k` holds a credential, whose block is masked.
    fn credential(&self, k: &str) -> bool {
        (self.basic_auth && k == "users")
            || SECRET_KEYS.contains(&k)
            || (self.jwks && k == "inline")
    }
}

/// Whether a line (its indentation and trimmed text) is inside what the key at `key_col` holds.
fn below(key_col: Option<usize>, indent: usize, trimmed: &str) -> bool {
    key_col.is_some_and(|i| {
        trimmed.is_empty()
            || trimmed.starts_with('#')
            || indent > i
            // A list may sit at its key's indentation.
            || (indent == i && trimmed.starts_with("- "))
    })
}

/// `key: value` (after any `- ` list markers): the key without quotes, the key's column and the
/// value's column.
fn key_value(line: &str, indent: usize) -> Option<(&str, usize, usize)> {
    let mut col = indent;
    while line[col..].starts_with("- ") {
        col += 2;
        col += line[col..].len() - line[col..].trim_start_matches(' ').len();
    }
    let rest = &line[col..];
    let colon = rest
        .char_indices()
        .find(|&(i, c)| c == ':' && rest[i + 1..].chars().next().is_none_or(|n| n == ' '))
        .map(|(i, _)| i)?;
    let key = rest[..colon].trim().trim_matches(['"', '\'']);
    if key.is_empty() || key.contains(' ') {
        return None;
    }
    let after = col + colon + 1;
    let value_col = after + (line[after..].len() - line[after..].trim_start().len());
    Some((key, col, value_col))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn masked(text: &str) -> String {
        let spans: Vec<Span> = of_text(0, text).iter().map(|m| m.span).collect();
        super::super::mask_text(text, &spans)
    }

    #[test]
    fn unparsed_secret_data_is_masked_keys_kept() {
        let t = "kind: Secret\ndata:\n  a: abc\n  b: |\n    line1\n    k: v\n  c: [oops\nmetadata:\n  name: x\n";
        assert_eq!(
            masked(t),
            "kind: Secret\ndata:\n  a: ***\n  b: *\n    *****\n    ****\n  c: *****\nmetadata:\n  name: x\n"
        );
    }

    #[test]
    fn credential_keys_and_users() {
        let t = "kind: TrafficPolicy\nspec:\n  basicAuth:\n    users:\n    - alice:hash\n  password: pw # c\n  name: keep\n";
        assert_eq!(
            masked(t),
            "kind: TrafficPolicy\nspec:\n  basicAuth:\n    users:\n    ************\n  password: ******\n  name: keep\n"
        );
    }

    #[test]
    fn data_of_other_kinds_is_kept() {
        let t = "kind: ConfigMap\ndata:\n  a: visible\n";
        assert_eq!(masked(t), t);
    }
}
