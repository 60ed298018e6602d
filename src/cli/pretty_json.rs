//! `render -o json`'s pretty printer: the text `serde_json::to_writer_pretty` writes (two spaces a
//! level), with a pad after every line break for a document nested in the output, written into a
//! buffer. serde_json's serializer makes a call into the writer per token and per indent level; on
//! a large rendering (half a gigabyte, half of it indentation) that was a tenth of render's CPU.

use serde_json::Value;

/// Appends `value` to `out` as `serde_json::to_writer_pretty` writes it, with `pad` after every
/// line break.
pub fn write(out: &mut Vec<u8>, value: &Value, pad: &[u8]) {
    let mut line = Vec::with_capacity(1 + pad.len() + 32);
    line.push(b'\n');
    line.extend_from_slice(pad);
    Pretty { out, line }.value(value);
}

/// [`write`] of an array into `out`, taking its items: they are encoded (and dropped) in
/// parallel a chunk at a time, for a long list (the AI data plane's statuses); neither the
/// whole text nor every item's is held at once.
pub fn write_array(
    out: &mut impl std::io::Write,
    items: Vec<Value>,
    pad: &[u8],
) -> std::io::Result<()> {
    use rayon::prelude::*;
    const CHUNK: usize = 256;
    if items.is_empty() {
        return out.write_all(b"[]");
    }
    // An item is written at the array's inner level: as a document padded two spaces more.
    let mut inner = pad.to_vec();
    inner.extend_from_slice(b"  ");
    out.write_all(b"[")?;
    let mut items = items.into_iter();
    let mut first = true;
    loop {
        let chunk: Vec<Value> = items.by_ref().take(CHUNK).collect();
        if chunk.is_empty() {
            break;
        }
        let texts: Vec<Vec<u8>> = chunk
            .into_par_iter()
            .map(|item| {
                let mut text = Vec::new();
                write(&mut text, &item, &inner);
                text
            })
            .collect();
        for text in &texts {
            if !first {
                out.write_all(b",")?;
            }
            first = false;
            out.write_all(b"\n")?;
            out.write_all(&inner)?;
            out.write_all(text)?;
        }
    }
    out.write_all(b"\n")?;
    out.write_all(pad)?;
    out.write_all(b"]")
}

struct Pretty<'o> {
    out: &'o mut Vec<u8>,
    /// A line break, the pad and the current level's indentation.
    line: Vec<u8>,
}

impl Pretty<'_> {
    fn value(&mut self, value: &Value) {
        match value {
            Value::Null => self.out.extend_from_slice(b"null"),
            Value::Bool(true) => self.out.extend_from_slice(b"true"),
            Value::Bool(false) => self.out.extend_from_slice(b"false"),
            // serde_json's own number format (writing into a Vec cannot fail).
            Value::Number(n) => {
                let _ = serde_json::to_writer(&mut *self.out, n);
            }
            Value::String(s) => string(self.out, s),
            Value::Array(items) if items.is_empty() => self.out.extend_from_slice(b"[]"),
            Value::Array(items) => {
                self.out.push(b'[');
                self.line.extend_from_slice(b"  ");
                for (i, item) in items.iter().enumerate() {
                    self.next(i);
                    self.value(item);
                }
                self.close(b']');
            }
            Value::Object(fields) if fields.is_empty() => self.out.extend_from_slice(b"{}"),
            Value::Object(fields) => {
                self.out.push(b'{');
                self.line.extend_from_slice(b"  ");
                for (i, (key, item)) in fields.iter().enumerate() {
                    self.next(i);
                    string(self.out, key);
                    self.out.extend_from_slice(b": ");
                    self.value(item);
                }
                self.close(b'}');
            }
        }
    }

    /// The separator before the `i`th item of a container: a comma after the first, then a
    /// line at the container's inner level.
    fn next(&mut self, i: usize) {
        if i > 0 {
            self.out.push(b',');
        }
        self.out.extend_from_slice(&self.line);
    }

    /// Ends a non-empty container on a line of its own level.
    fn close(&mut self, bracket: u8) {
        self.line.truncate(self.line.len() - 2);
        self.out.extend_from_slice(&self.line);
        self.out.push(bracket);
    }
}

/// A JSON string as serde_json escapes it: quotes, backslashes and control characters (the
/// short forms where JSON has them, else `\u00XX` in lowercase hex); the rest as it is.
fn string(out: &mut Vec<u8>, s: &str) {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    out.push(b'"');
    let bytes = s.as_bytes();
    // Most strings of a rendering (names, paths) have nothing to escape.
    if !needs_escape(bytes) {
        out.extend_from_slice(bytes);
        out.push(b'"');
        return;
    }
    let mut start = 0;
    for (i, &b) in bytes.iter().enumerate() {
        let escape: &[u8] = match b {
            b'"' => b"\\\"",
            b'\\' => b"\\\\",
            b'\n' => b"\\n",
            b'\r' => b"\\r",
            b'\t' => b"\\t",
            0x08 => b"\\b",
            0x0c => b"\\f",
            0..=0x1f => &[
                b'\\',
                b'u',
                b'0',
                b'0',
                HEX[usize::from(b >> 4)],
                HEX[usize::from(b & 0xf)],
            ],
            _ => continue,
        };
        out.extend_from_slice(&bytes[start..i]);
        out.extend_from_slice(escape);
        start = i + 1;
    }
    out.extend_from_slice(&bytes[start..]);
    out.push(b'"');
}

/// Whether some byte is a quote, a backslash or a control character, looked for eight bytes at a
/// time.
fn needs_escape(bytes: &[u8]) -> bool {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    // Some byte of `x` is zero: the classic word-at-a-time test (exact as to whether one is).
    let zero_byte = |x: u64| x.wrapping_sub(ONES) & !x & HIGH != 0;
    let mut words = bytes.chunks_exact(8);
    for word in &mut words {
        let mut eight = [0u8; 8];
        eight.copy_from_slice(word);
        let x = u64::from_le_bytes(eight);
        let control = x.wrapping_sub(ONES * 0x20) & !x & HIGH != 0;
        if control || zero_byte(x ^ (ONES * u64::from(b'"'))) || zero_byte(x ^ (ONES * 0x5c)) {
            return true;
        }
    }
    words
        .remainder()
        .iter()
        .any(|&b| b < 0x20 || b == b'"' || b == b'\\')
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    /// serde_json's pretty text with `pad` after every line break.
    fn expected(value: &serde_json::Value, pad: &str) -> String {
        let text = serde_json::to_string_pretty(value).unwrap_or_default();
        text.replace('\n', &format!("\n{pad}"))
    }

    #[test]
    fn writes_what_serde_json_writes_pretty() {
        let value = json!({
            "a": [1, -2, 3.5, 1e300, 0.1, u64::MAX, null, true, false],
            "empty": {"list": [], "map": {}},
            "nested": [[{"x": [[]]}], {"y": {"z": "w"}}],
            "text": "quote \" backslash \\ newline \n tab \t cr \r bs \u{8} ff \u{c} nul \u{0} us \u{1f} del \u{7f} é ✓",
            "key \"escaped\"\n": "",
        });
        for pad in ["", "  ", "      "] {
            let mut out = Vec::new();
            super::write(&mut out, &value, pad.as_bytes());
            assert_eq!(String::from_utf8_lossy(&out), expected(&value, pad));
        }
        for s in [
            "",
            "plain text of some length",
            "0123456789abcdef\"",
            "12345678\\",
            "\u{1f}abcdefgh",
            "ÿ~\u{7f}",
        ] {
            let mut out = Vec::new();
            super::write(&mut out, &json!(s), b"");
            assert_eq!(
                String::from_utf8_lossy(&out),
                expected(&json!(s), ""),
                "{s:?}"
            );
        }
        let long = json!(
            (0..600)
                .map(|i| json!({"i": i, "s": [i]}))
                .collect::<Vec<_>>()
        );
        for list in [json!([]), json!([1]), value["nested"].clone(), long] {
            for pad in ["", "    "] {
                let mut out = Vec::new();
                let items = list.as_array().cloned().unwrap_or_default();
                let written = super::write_array(&mut out, items, pad.as_bytes());
                assert!(written.is_ok());
                assert_eq!(String::from_utf8_lossy(&out), expected(&list, pad));
            }
        }
        for scalar in [json!(null), json!("s"), json!([]), json!({}), json!(7)] {
            let mut out = Vec::new();
            super::write(&mut out, &scalar, b"  ");
            assert_eq!(String::from_utf8_lossy(&out), expected(&scalar, "  "));
        }
    }
}
