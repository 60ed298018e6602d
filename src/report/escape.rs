//! Control characters in names and values (ESC, BEL, CR, bidi overrides) would act on the terminal
//! or break a line-based format: every text format writes them escaped, as `\x1b` or `\u{202e}`.

use std::borrow::Cow;

/// Whether `c` must not be written raw into a text report. Tab and line feed are layout.
pub fn is_unsafe(c: char) -> bool {
    (c.is_control() && c != '\t' && c != '\n')
        || matches!(c, '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
}

/// `s` with every unsafe character escaped (borrowed when there is none).
pub fn escape_controls(s: &str) -> Cow<'_, str> {
    if !s.chars().any(is_unsafe) {
        return Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len() + 8);
    for c in s.chars() {
        push_escaped(&mut out, c);
    }
    Cow::Owned(out)
}

/// Appends `c`, escaped when it is unsafe.
pub fn push_escaped(out: &mut String, c: char) {
    use std::fmt::Write;
    if !is_unsafe(c) {
        out.push(c);
    } else if (c as u32) < 0x100 {
        let _ = write!(out, "\\x{:02x}", c as u32);
    } else {
        let _ = write!(out, "\\u{{{:x}}}", c as u32);
    }
}

/// Bytes `c` takes once escaped.
pub fn escaped_len(c: char) -> usize {
    match c {
        c if !is_unsafe(c) => c.len_utf8(),
        c if (c as u32) < 0x100 => 4,
        c => format!("\\u{{{:x}}}", c as u32).len(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_terminal_controls_and_keeps_layout() {
        assert_eq!(escape_controls("a\x1b[31mb\x07\r"), "a\\x1b[31mb\\x07\\x0d");
        assert_eq!(escape_controls("x\u{202e}y\u{85}"), "x\\u{202e}y\\x85");
        assert!(matches!(
            escape_controls("tab\there\nok é"),
            Cow::Borrowed(_)
        ));
        for c in ['\x1b', '\u{202e}', '\u{7f}', 'a', 'é'] {
            let mut s = String::new();
            push_escaped(&mut s, c);
            assert_eq!(s.len(), escaped_len(c), "{c:?}");
        }
    }
}
