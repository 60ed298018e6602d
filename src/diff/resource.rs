//! One resource of a rendering on two sides: whether it changed, and the unified diff of its
//! YAML when it did.

use std::borrow::Cow;
use std::hash::{Hash, Hasher};

use serde_json::Value;

use super::rendered::{Change, ResourceChange};
use super::unified::Lines;
use crate::fasthash::WordHasher;
use crate::report::yaml::to_yaml;
use crate::report::yaml_text::json_text_to_yaml;

/// A resource of the side compared with a base's text: text too, or the value as rendered.
pub(super) trait Resource {
    /// Whether it is written as `text` (the cheap test: equal text is no change).
    fn written_as(&self, text: &str) -> bool;
    /// Its value.
    fn value(&self) -> Cow<'_, Value>;
    /// Its YAML.
    fn yaml(&self) -> String;
}

impl Resource for Box<str> {
    fn written_as(&self, text: &str) -> bool {
        **self == *text
    }

    fn value(&self) -> Cow<'_, Value> {
        Cow::Owned(read_back(self))
    }

    fn yaml(&self) -> String {
        yaml_of_text(self)
    }
}

impl Resource for Value {
    fn written_as(&self, text: &str) -> bool {
        // Serialised against the text, never into a string of its own; stops at the first
        // difference.
        let mut against = SameAs {
            rest: text.as_bytes(),
        };
        serde_json::to_writer(&mut against, self).is_ok() && against.rest.is_empty()
    }

    fn value(&self) -> Cow<'_, Value> {
        Cow::Borrowed(self)
    }

    fn yaml(&self) -> String {
        to_yaml(self)
    }
}

/// Compares what is written to it with a text, failing at the first byte that differs.
struct SameAs<'t> {
    rest: &'t [u8],
}

impl std::io::Write for SameAs<'_> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        match self.rest.strip_prefix(buf) {
            Some(rest) => {
                self.rest = rest;
                Ok(buf.len())
            }
            None => Err(std::io::ErrorKind::InvalidData.into()),
        }
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// The text of what was rendered, read back (in the order it was written).
fn read_back(text: &str) -> Value {
    serde_json::from_str::<Value>(text).unwrap_or_default()
}

/// The YAML of what was rendered, from its text (read back only if it is not serde_json's).
fn yaml_of_text(text: &str) -> String {
    json_text_to_yaml(text).unwrap_or_else(|| to_yaml(&read_back(text)))
}

pub(super) fn resource_change<A: Resource>(
    (section, name): &(String, String),
    before: Option<&str>,
    after: Option<&A>,
) -> Option<ResourceChange> {
    let change = match (before, after) {
        (Some(b), Some(a)) if a.written_as(b) => return None,
        (Some(_), Some(_)) => Change::Changed,
        (None, Some(_)) => Change::Added,
        (Some(_), None) => Change::Removed,
        (None, None) => return None,
    };
    let old = before.map(yaml_of_text).unwrap_or_default();
    let new = after.map(Resource::yaml).unwrap_or_default();
    let lines = Lines::new(&old, &new);
    // Two texts may differ only in the order of an object's keys, which is no change: read
    // back only when the lines that differ could be such a reordering.
    if let (Some(b), Some(a), true) = (before, after, may_be_reordered(&lines))
        && read_back(b) == *a.value()
    {
        return None;
    }
    let path = if name.is_empty() {
        section.clone()
    } else {
        format!("{section}/{name}")
    };
    let diff = lines.unified(&format!("a/{path}"), &format!("b/{path}"));
    Some(ResourceChange {
        section: section.clone(),
        name: name.clone(),
        change,
        diff,
    })
}

/// Whether the lines that differ between two YAML texts could come of equal values with their
/// objects' keys in another order. Reordering keys moves each key's block of lines, and moves
/// the dash of a list's item from its first key's line to another's: the lines, each without
/// its indent and dash (but with their width), are the same lines in another order, so the
/// same count, sum and xor of their hashes.
fn may_be_reordered(lines: &Lines<'_, '_>) -> bool {
    let (old, new) = lines.differing();
    old.len() == new.len() && hashes(old) == hashes(new)
}

/// The sum and xor of the lines' hashes, each line without its indent and dash.
fn hashes(lines: &[&str]) -> (u64, u64) {
    lines.iter().fold((0, 0), |(sum, xor), line| {
        let mut hasher = WordHasher::default();
        unindented(line).hash(&mut hasher);
        let h = hasher.finish();
        (sum.wrapping_add(h), xor ^ h)
    })
}

/// A YAML line without its indent and dash, and their width. A key never starts with a space
/// or a dash (it is quoted then), so a list item's first key, on the dash's line, is the line
/// its other keys would be.
fn unindented(line: &str) -> (usize, &str) {
    let body = line.trim_start_matches([' ', '-']);
    (line.len() - body.len(), body)
}

#[cfg(test)]
mod tests {
    use super::*;
    use similar::TextDiff;

    fn key() -> (String, String) {
        ("Routes".to_string(), "http".to_string())
    }

    /// What the change was before the lines were compared first: the values read back, and
    /// `similar`'s diff of their whole YAML.
    fn as_before(before: &Value, after: &Value) -> Option<String> {
        (before != after).then(|| {
            TextDiff::from_lines(&to_yaml(before), &to_yaml(after))
                .unified_diff()
                .context_radius(3)
                .header("a/Routes/http", "b/Routes/http")
                .to_string()
        })
    }

    fn change(before: &Value, after: &Value) -> Option<String> {
        let text = serde_json::to_string(before).unwrap_or_default();
        resource_change(&key(), Some(&text), Some(after)).map(|c| c.diff)
    }

    #[test]
    fn keys_in_another_order_are_no_change() {
        let before = serde_json::json!({
            "routes": [{"name": "a", "match": {"prefix": "/", "headers": [1]}, "timeout": "1s"}],
            "x": {"y": 1, "z": [{"k": "v", "l": {"m": 2}}]},
        });
        let after = serde_json::json!({
            "x": {"z": [{"l": {"m": 2}, "k": "v"}], "y": 1},
            "routes": [{"timeout": "1s", "match": {"headers": [1], "prefix": "/"}, "name": "a"}],
        });
        assert_eq!(change(&before, &after), None);
        let text: Box<str> = serde_json::to_string(&after).unwrap_or_default().into();
        let before_text = serde_json::to_string(&before).unwrap_or_default();
        assert_eq!(
            resource_change(&key(), Some(&before_text), Some(&text)),
            None
        );
    }

    #[test]
    fn lines_in_another_order_that_are_a_change_say_what_similar_says() {
        let items: Vec<Value> = (0..300)
            .map(|i| serde_json::json!({"name": format!("r{i}"), "prefix": "/"}))
            .collect();
        // Two items swapped: the same lines in another order, and a change.
        let mut swapped = items.clone();
        swapped.swap(3, 4);
        // Keys moved between two maps: the same lines too.
        let mut moved = items.clone();
        moved[0] = serde_json::json!({"name": "r0", "x": {"a": 1}, "y": {"b": 2}});
        let mut moved_back = moved.clone();
        moved_back[0] = serde_json::json!({"name": "r0", "x": {"b": 2}, "y": {"a": 1}});
        let near_end = {
            let mut items = items.clone();
            items[298] = serde_json::json!({"name": "r298", "prefix": "/x"});
            items
        };
        let cases = [
            (items.clone(), swapped),
            (moved, moved_back),
            (items.clone(), near_end),
            (items.clone(), items[1..].to_vec()),
            (items.clone(), items[..299].to_vec()),
        ];
        for (before, after) in cases {
            let before = serde_json::json!({ "routes": before });
            let after = serde_json::json!({ "routes": after });
            let expected = as_before(&before, &after);
            assert!(expected.is_some());
            assert_eq!(change(&before, &after), expected);
        }
    }

    #[test]
    fn an_added_or_removed_resource_is_all_its_lines() {
        let value = serde_json::json!({"a": [1, {"b": "c"}]});
        let text = serde_json::to_string(&value).unwrap_or_default();
        let added = resource_change(&key(), None, Some(&value));
        let removed = resource_change::<Value>(&key(), Some(&text), None);
        assert_eq!(
            added.map(|c| (c.change, c.diff)),
            Some((
                Change::Added,
                "--- a/Routes/http\n+++ b/Routes/http\n@@ -0,0 +1,3 @@\n+a:\n+  - 1\n+  - b: c\n"
                    .to_string()
            ))
        );
        assert_eq!(removed.map(|c| c.change), Some(Change::Removed));
    }
}
