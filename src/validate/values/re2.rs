//! Regular expressions as the data plane compiles them: RE2 syntax (Envoy `safe_regex`).
//!
//! The Rust `regex` parser is close to RE2 but not equal (research/crates.md): both reject
//! backreferences and look-around, but RE2 also rejects possessive or doubled repetition (`a++`,
//! `a**`), repeat counts above 1000, the `x`/`u`/`R` flags and `\<` `\>` `\b{..}`; and RE2 accepts
//! `\Q..\E` and `\C`, which Rust does not. A pre-scan handles those differences; the rest is
//! parsed by `regex-syntax` (for the error's position) and compiled with a size limit.

use std::cell::RefCell;
use std::ops::Range;

use super::Finding;
use crate::memo::Accepted;
use crate::rules;

/// RE2's largest repeat count.
const MAX_REPEAT: u32 = 1000;

thread_local! {
    static ACCEPTED: RefCell<Accepted<usize, ()>> = RefCell::default();
}

/// `size_limit`: compiled size accepted (bytes of the regex program), `--max-regex-size`.
pub(crate) fn check(pattern: &str, size_limit: usize) -> Vec<Finding> {
    if ACCEPTED.with_borrow(|memo| memo.get(size_limit, pattern).is_some()) {
        return Vec::new();
    }
    let found = check_uncached(pattern, size_limit);
    if found.is_empty() {
        ACCEPTED.with_borrow_mut(|memo| memo.remember(size_limit, pattern, ()));
    }
    found
}

fn check_uncached(pattern: &str, size_limit: usize) -> Vec<Finding> {
    let rewritten = match prescan(pattern) {
        Ok(r) => r,
        Err((message, range)) => return vec![finding(message, Some(range))],
    };
    if let Err(e) = regex_syntax::Parser::new().parse(&rewritten.text) {
        let (kind, span) = match &e {
            regex_syntax::Error::Parse(a) => (a.kind().to_string(), *a.span()),
            regex_syntax::Error::Translate(h) => (h.kind().to_string(), *h.span()),
            _ => (
                e.to_string(),
                regex_syntax::ast::Span::splat(regex_syntax::ast::Position::new(0, 1, 1)),
            ),
        };
        let range = rewritten.original(span.start.offset)..rewritten.original(span.end.offset);
        return vec![finding(kind, Some(range))];
    }
    match regex::RegexBuilder::new(&rewritten.text)
        .size_limit(size_limit)
        .build()
    {
        Ok(_) => Vec::new(),
        Err(regex::Error::CompiledTooBig(limit)) => vec![
            finding(
                format!("the compiled expression exceeds the size limit of {limit} bytes"),
                None,
            )
            .with_help("raise the limit with --max-regex-size if the expression is meant"),
        ],
        Err(e) => vec![finding(e.to_string(), None)],
    }
}

/// The proxy's RE2 compiles the expression when it loads the configuration: the controller
/// sends it on (with validation level strict the proxy checks it first).
fn finding(message: String, range: Option<Range<usize>>) -> Finding {
    Finding::new(
        rules::GW118,
        format!("invalid regular expression: {message}"),
        range,
    )
    .proxy_only(crate::diag::ProxyCheck::Regex)
}

/// The pattern with RE2-only constructs rewritten for the Rust parser, and where each byte came from.
struct Rewritten {
    text: String,
    /// Original offset of each byte of `text` (plus one past the end).
    origin: Vec<usize>,
}

impl Rewritten {
    fn push(&mut self, s: &str, at: usize) {
        self.text.push_str(s);
        self.origin.extend(std::iter::repeat_n(at, s.len()));
    }

    fn original(&self, offset: usize) -> usize {
        self.origin
            .get(offset)
            .copied()
            .unwrap_or_else(|| self.origin.last().map_or(0, |l| l + 1))
    }
}

type ScanError = (String, Range<usize>);

/// One pass over the pattern: RE2 rejections with their range, and the rewriting.
fn prescan(p: &str) -> Result<Rewritten, ScanError> {
    let b = p.as_bytes();
    let mut out = Rewritten {
        text: String::with_capacity(p.len()),
        origin: Vec::with_capacity(p.len() + 1),
    };
    let mut i = 0;
    let mut repeats = Repeats::default();
    while i < b.len() {
        let c = b[i];
        if matches!(c, b'*' | b'+' | b'?' | b'{') {
            i = repeats.operator(p, i, &mut out)?;
            continue;
        }
        repeats.after = false;
        i = match c {
            b'\\' => escape(p, i, &mut out)?,
            b'[' => {
                let end = class_end(b, i);
                out.push(&p[i..end], i);
                end
            }
            b'(' if b.get(i + 1) == Some(&b'?') => {
                check_flags(p, i)?;
                out.push("(?", i);
                i + 2
            }
            _ => {
                let len = p[i..].chars().next().map_or(1, char::len_utf8);
                out.push(&p[i..i + len], i);
                i + len
            }
        };
    }
    out.origin.push(b.len());
    Ok(out)
}

/// The escape at `i` (a backslash): rewritten or rejected; returns where the scan goes on.
fn escape(p: &str, i: usize, out: &mut Rewritten) -> Result<usize, ScanError> {
    let b = p.as_bytes();
    match b.get(i + 1) {
        Some(b'Q') => {
            // Literal text up to `\E` (or the end), as escaped characters.
            let body_start = i + 2;
            let end = p[body_start..]
                .find("\\E")
                .map_or(b.len(), |e| body_start + e);
            for (k, ch) in p[body_start..end].char_indices() {
                let lit = regex_syntax::escape(ch.encode_utf8(&mut [0; 4]));
                out.push(&lit, body_start + k);
            }
            Ok((end + 2).min(b.len()))
        }
        Some(b'C') => {
            out.push("(?s:.)", i);
            Ok(i + 2)
        }
        Some(b'<') | Some(b'>') => Err((
            "RE2 does not support \\< and \\> word boundaries".into(),
            i..i + 2,
        )),
        Some(b'b') if b.get(i + 2) == Some(&b'{') => Err((
            "RE2 does not support \\b{...} word boundaries".into(),
            i..i + 3,
        )),
        _ => {
            let len = p[i + 1..].chars().next().map_or(1, |ch| 1 + ch.len_utf8());
            out.push(&p[i..i + len], i);
            Ok(i + len)
        }
    }
}

/// Where the scan stands with repetition operators: RE2 rejects one right after another, but
/// for a single lazy `?`.
#[derive(Default)]
struct Repeats {
    /// The last thing read was a repetition operator (and its optional lazy `?`).
    after: bool,
    lazy_seen: bool,
}

impl Repeats {
    /// The `*`, `+`, `?` or `{` at `i`; returns where the scan goes on.
    fn operator(&mut self, p: &str, i: usize, out: &mut Rewritten) -> Result<usize, ScanError> {
        let c = p.as_bytes()[i];
        let rep_end = if c == b'{' {
            counted_repeat(p, i)?
        } else {
            Some(i + 1)
        };
        let Some(rep_end) = rep_end else {
            // Not a counted repetition: RE2 reads the brace as a literal, Rust would not.
            self.after = false;
            out.push("\\{", i);
            return Ok(i + 1);
        };
        if c == b'?' && self.after && !self.lazy_seen {
            self.lazy_seen = true;
        } else if self.after {
            return Err((
                format!(
                    "RE2 rejects the repetition operator {:?} after another one",
                    &p[i..rep_end]
                ),
                i..rep_end,
            ));
        } else {
            self.after = true;
            self.lazy_seen = false;
        }
        out.push(&p[i..rep_end], i);
        Ok(rep_end)
    }
}

/// End of the character class starting at `start` (a leading `]` is literal; `[:alpha:]` nests).
fn class_end(b: &[u8], start: usize) -> usize {
    let mut i = start + 1;
    if b.get(i) == Some(&b'^') {
        i += 1;
    }
    if b.get(i) == Some(&b']') {
        i += 1;
    }
    while i < b.len() {
        match b[i] {
            b'\\' => i += 2,
            b'[' if b.get(i + 1) == Some(&b':') => {
                i = b[i + 2..]
                    .windows(2)
                    .position(|w| w == b":]")
                    .map_or(b.len(), |e| i + 2 + e + 2);
            }
            b']' => return i + 1,
            _ => i += 1,
        }
    }
    b.len()
}

/// `{n}`, `{n,}`, `{n,m}` at `i`: its end, or `None` when the brace is a literal (as in RE2).
fn counted_repeat(p: &str, i: usize) -> Result<Option<usize>, ScanError> {
    let Some(close) = p[i..].find('}').map(|c| i + c) else {
        return Ok(None);
    };
    let body = &p[i + 1..close];
    let (min, max) = body.split_once(',').unwrap_or((body, body));
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|c| c.is_ascii_digit());
    if !digits(min) || !(max.is_empty() || digits(max)) {
        return Ok(None);
    }
    for n in [min, max] {
        if n.parse::<u64>()
            .map_or(!n.is_empty(), |v| v > u64::from(MAX_REPEAT))
        {
            return Err((
                format!("RE2 allows repeat counts up to {MAX_REPEAT}, not {n}"),
                i..close + 1,
            ));
        }
    }
    Ok(Some(close + 1))
}

/// `(?flags)` and `(?flags:...)`: RE2 knows only `i`, `m`, `s` and `U`.
fn check_flags(p: &str, i: usize) -> Result<(), ScanError> {
    let rest = &p[i + 2..];
    let end = rest.find([')', ':']).unwrap_or(rest.len());
    let flags = &rest[..end];
    if flags.starts_with(['P', '<', '=', '!']) {
        // Named group or look-around; the parser reports what it does not support.
        return Ok(());
    }
    if let Some(k) = flags.find(|c: char| !matches!(c, 'i' | 'm' | 's' | 'U' | '-')) {
        let at = i + 2 + k;
        let ch = flags[k..].chars().next().unwrap_or('?');
        return Err((
            format!("RE2 does not support the flag {ch:?}"),
            at..at + ch.len_utf8(),
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::check;

    /// A remembered pattern is remembered under its size limit only, and a rejected one is
    /// never remembered.
    #[test]
    fn accepted_patterns_are_remembered_per_size_limit() {
        let big = r"\w{100}";
        assert!(check(big, 10 << 20).is_empty());
        assert!(check(big, 10 << 20).is_empty());
        assert_eq!(check(big, 1000).len(), 1, "too big under a small limit");
        assert!(check(big, 10 << 20).is_empty());
        for _ in 0..2 {
            assert_eq!(check("a**", 10 << 20).len(), 1);
        }
    }
}
