//! [`to_yaml`](super::yaml::to_yaml) of a value held as compact JSON text, written from the text
//! without reading the value back: `diff` holds a side's rendering as text and writes the YAML
//! of the few resources that changed, each hundreds of KB.

use std::borrow::Cow;

use super::yaml::{pad, plain, quoted};

/// The YAML `to_yaml` writes for the value `text` holds, when `text` is JSON as
/// `serde_json::to_string` writes it (no whitespace between tokens); `None` when it is not.
pub fn json_text_to_yaml(text: &str) -> Option<String> {
    let mut reader = Reader { text, pos: 0 };
    // YAML has the text's scalars with a little more around them.
    let mut out = String::with_capacity(text.len() + text.len() / 2);
    match reader.container()? {
        Some(b'{') => reader.map(&mut out, 0)?,
        Some(_) => reader.seq(&mut out, 0)?,
        None => {
            reader.scalar(&mut out)?;
            out.push('\n');
        }
    }
    (reader.pos == text.len()).then_some(out)
}

struct Reader<'t> {
    text: &'t str,
    pos: usize,
}

impl<'t> Reader<'t> {
    fn peek(&self) -> Option<u8> {
        self.text.as_bytes().get(self.pos).copied()
    }

    fn expect(&mut self, byte: u8) -> Option<()> {
        (self.peek()? == byte).then(|| self.pos += 1)
    }

    /// The opening byte of a non-empty object or array next, `None` for anything else (which
    /// is written as a scalar).
    fn container(&self) -> Option<Option<u8>> {
        let bytes = self.text.as_bytes();
        let open = *bytes.get(self.pos)?;
        let next = bytes.get(self.pos + 1).copied();
        Some(match (open, next) {
            (b'{', Some(b'}')) | (b'[', Some(b']')) => None,
            (b'{' | b'[', _) => Some(open),
            _ => None,
        })
    }

    /// A non-empty object's entries at `indent` (`write_map`).
    fn map(&mut self, out: &mut String, indent: usize) -> Option<()> {
        self.expect(b'{')?;
        loop {
            pad(out, indent);
            self.entry(out, indent)?;
            if self.closes(b'}')? {
                return Some(());
            }
        }
    }

    /// `key: value` without the indent before the key (`write_entry`).
    fn entry(&mut self, out: &mut String, indent: usize) -> Option<()> {
        let key = self.string()?;
        if plain(&key) {
            out.push_str(&key);
        } else {
            out.push_str(&quoted(&key));
        }
        self.expect(b':')?;
        out.push(':');
        self.child(out, indent)
    }

    /// A non-empty array's items at `indent` (`write_seq`).
    fn seq(&mut self, out: &mut String, indent: usize) -> Option<()> {
        self.expect(b'[')?;
        loop {
            pad(out, indent);
            out.push('-');
            if self.container()? == Some(b'{') {
                // The first key on the dash's line, the others under it.
                self.expect(b'{')?;
                out.push(' ');
                self.entry(out, indent + 2)?;
                while !self.closes(b'}')? {
                    pad(out, indent + 2);
                    self.entry(out, indent + 2)?;
                }
            } else {
                self.child(out, indent)?;
            }
            if self.closes(b']')? {
                return Some(());
            }
        }
    }

    /// Past a `,` (false) or the closing byte (true).
    fn closes(&mut self, close: u8) -> Option<bool> {
        let next = self.peek()?;
        self.pos += 1;
        match next {
            b',' => Some(false),
            _ if next == close => Some(true),
            _ => None,
        }
    }

    /// A value after its key or dash (`write_child`).
    fn child(&mut self, out: &mut String, indent: usize) -> Option<()> {
        match self.container()? {
            Some(open) => {
                out.push('\n');
                if open == b'{' {
                    self.map(out, indent + 2)
                } else {
                    self.seq(out, indent + 2)
                }
            }
            None => {
                out.push(' ');
                self.scalar(out)?;
                out.push('\n');
                Some(())
            }
        }
    }

    /// A string, number, `true`, `false`, `null`, `{}` or `[]` (`scalar`).
    fn scalar(&mut self, out: &mut String) -> Option<()> {
        let rest = self.text.get(self.pos..)?;
        if rest.starts_with('"') {
            let s = self.string()?;
            if plain(&s) {
                out.push_str(&s);
            } else {
                out.push_str(&quoted(&s));
            }
            return Some(());
        }
        let word = ["{}", "[]", "true", "false", "null"]
            .into_iter()
            .find(|w| rest.starts_with(w));
        // A number as serde_json writes it is how it writes it again once read back.
        let len = match word {
            Some(w) => w.len(),
            None => rest
                .bytes()
                .take_while(|b| b.is_ascii_digit() || b"-+.eE".contains(b))
                .count(),
        };
        if len == 0 {
            return None;
        }
        out.push_str(&rest[..len]);
        self.pos += len;
        Some(())
    }

    /// A string token's value (escapes read by serde_json, when there are any).
    fn string(&mut self) -> Option<Cow<'t, str>> {
        self.expect(b'"')?;
        let start = self.pos;
        let bytes = self.text.as_bytes();
        let mut escaped = false;
        let mut at = start;
        loop {
            at += memchr::memchr2(b'"', b'\\', bytes.get(at..)?)?;
            if bytes[at] == b'"' {
                break;
            }
            escaped = true;
            // Past the backslash and the byte it escapes (`\"` is not the end).
            at += 2;
        }
        self.pos = at + 1;
        if escaped {
            let token = self.text.get(start - 1..=at)?;
            serde_json::from_str::<String>(token).ok().map(Cow::Owned)
        } else {
            self.text.get(start..at).map(Cow::Borrowed)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::yaml::to_yaml;

    #[test]
    fn writes_what_to_yaml_writes_of_the_value_read_back() {
        let values = [
            serde_json::json!({
                "a": {"b": [1, {"c": "x", "d": "true"}], "e": {}},
                "f": "1s", "g": "10", "h": "", "i": "a: b", "j": [], "k": null,
                "l": [[1, 2], [], {}, [{"m": [3]}], -4.5e-7, 1e300, 0.1, -0, 12345678901234567890u64],
                "n\u{1b}": "a\u{1b}[31mb\u{7}\u{85}\u{202e}", "o": "q\"u\\o\nte\t", "p": false,
                "é": "ü €", "yes": "no", "-x": "-", "r": {"s": {"t": {"u": [{"v": {}}]}}},
            }),
            serde_json::json!([{"a": 1, "b": [{"c": 2}]}, "x", [[[]]]]),
            serde_json::json!({}),
            serde_json::json!([]),
            serde_json::json!("text"),
            serde_json::json!("true"),
            serde_json::json!(1.5),
            serde_json::json!(null),
        ];
        for value in values {
            let text = serde_json::to_string(&value).unwrap_or_default();
            assert_eq!(json_text_to_yaml(&text), Some(to_yaml(&value)), "{text}");
        }
    }

    #[test]
    fn text_that_is_not_compact_json_is_refused() {
        for text in [
            "",
            "{",
            "{\"a\":1",
            "{\"a\" :1}",
            "[1,]x",
            "[1] ",
            "\"a",
            "nul",
            "{}x",
        ] {
            assert_eq!(json_text_to_yaml(text), None, "{text}");
        }
    }
}
