//! Small grammars: HTTP header names (RFC 7230 tokens), Go durations (`time.ParseDuration`, what
//! metav1.Duration fields are decoded with) and Kubernetes quantities (`resource.ParseQuantity`).

use super::Finding;
use crate::rules;
use crate::validate::messages::go_quote;

/// HTTP/2 pseudo-headers, which header matchers of the data plane accept by name.
const PSEUDO_HEADERS: &[&str] = &[
    ":authority",
    ":method",
    ":path",
    ":scheme",
    ":status",
    ":protocol",
];

fn is_tchar(c: char) -> bool {
    c.is_ascii_alphanumeric() || "!#$%&'*+-.^_`|~".contains(c)
}

pub(crate) fn header_name(name: &str) -> Vec<Finding> {
    if name.is_empty() {
        return vec![Finding::new(
            rules::GW119,
            "header name must not be empty".into(),
            None,
        )];
    }
    if PSEUDO_HEADERS.contains(&name) {
        return Vec::new();
    }
    match name.char_indices().find(|(_, c)| !is_tchar(*c)) {
        None => Vec::new(),
        Some((at, c)) => vec![Finding::new(
            rules::GW119,
            format!(
                "invalid header name: {} is not allowed (RFC 7230 token: letters, digits and !#$%&'*+-.^_`|~)",
                describe_char(c)
            ),
            Some(at..at + c.len_utf8()),
        )],
    }
}

fn describe_char(c: char) -> String {
    match c {
        ' ' => "a space".to_string(),
        '\t' => "a tab".to_string(),
        c if c.is_control() => format!("the control character U+{:04X}", c as u32),
        c => format!("{:?}", c),
    }
}

const NANOS: &[(&str, u64)] = &[
    ("ns", 1),
    ("us", 1_000),
    ("\u{b5}s", 1_000),
    ("\u{3bc}s", 1_000),
    ("ms", 1_000_000),
    ("s", 1_000_000_000),
    ("m", 60_000_000_000),
    ("h", 3_600_000_000_000),
];

/// Go's `time.ParseDuration`, with its error messages; the range points at the offending part.
pub(crate) fn duration(text: &str) -> Vec<Finding> {
    match parse_duration(text) {
        Ok(_) => Vec::new(),
        Err((message, range)) => vec![Finding::new(
            rules::GW120,
            format!("Invalid value: {}: {message}", go_quote(text)),
            range,
        )],
    }
}

type DurationError = (String, Option<std::ops::Range<usize>>);

/// Go's bound on a duration's magnitude, in nanoseconds.
const DURATION_LIMIT: u64 = 1 << 63;

/// Nanoseconds (sign dropped) of a Go duration.
pub(crate) fn parse_duration(orig: &str) -> Result<u64, DurationError> {
    let invalid = || (format!("time: invalid duration {}", go_quote(orig)), None);
    let b = orig.as_bytes();
    let mut i = usize::from(matches!(b.first(), Some(b'-' | b'+')));
    let neg = b.first() == Some(&b'-');
    if &orig[i..] == "0" {
        return Ok(0);
    }
    if i == b.len() {
        return Err(invalid());
    }
    let mut total: u64 = 0;
    while i < b.len() {
        if !(b[i] == b'.' || b[i].is_ascii_digit()) {
            return Err(invalid());
        }
        let int_start = i;
        let (v, end) = leading_int(b, i).ok_or_else(invalid)?;
        i = end;
        let pre = i > int_start;
        let (f, scale, post) = if i < b.len() && b[i] == b'.' {
            let (f, scale, end) = leading_fraction(b, i + 1);
            let post = end > i + 1;
            i = end;
            (f, scale, post)
        } else {
            (0, 1.0, false)
        };
        if !pre && !post {
            return Err(invalid());
        }
        let (unit, end) = unit_at(orig, i)?;
        i = end;
        // Go adds in uint64, which wraps: two parts of 2^63 ns each make 0, not an error.
        total = total.wrapping_add(in_unit(v, f, scale, unit).ok_or_else(invalid)?);
        if total > DURATION_LIMIT {
            return Err(invalid());
        }
    }
    if !neg && total > DURATION_LIMIT - 1 {
        return Err(invalid());
    }
    Ok(total)
}

/// Go's `leadingInt`: the digits from `i` as a number, and where they end; None past the limit.
fn leading_int(b: &[u8], mut i: usize) -> Option<(u64, usize)> {
    let mut v: u64 = 0;
    while i < b.len() && b[i].is_ascii_digit() {
        if v > DURATION_LIMIT / 10 {
            return None;
        }
        v = v * 10 + u64::from(b[i] - b'0');
        if v > DURATION_LIMIT {
            return None;
        }
        i += 1;
    }
    Some((v, i))
}

/// Go's `leadingFraction`: the digits from `i` as the fraction `f / scale`, and where they end.
fn leading_fraction(b: &[u8], mut i: usize) -> (u64, f64, usize) {
    let (mut f, mut scale) = (0u64, 1f64);
    let mut overflow = false;
    while i < b.len() && b[i].is_ascii_digit() {
        // Digits beyond what fits are ignored, as Go does.
        if !overflow {
            match f
                .checked_mul(10)
                .and_then(|y| y.checked_add(u64::from(b[i] - b'0')))
            {
                Some(y) if y <= DURATION_LIMIT => {
                    f = y;
                    scale *= 10.0;
                }
                _ => overflow = true,
            }
        }
        i += 1;
    }
    (f, scale, i)
}

/// The unit from `start` (up to the next number) in nanoseconds, and where it ends.
fn unit_at(orig: &str, start: usize) -> Result<(u64, usize), DurationError> {
    let b = orig.as_bytes();
    let mut i = start;
    while i < b.len() && !(b[i] == b'.' || b[i].is_ascii_digit()) {
        i += 1;
    }
    if i == start {
        return Err((
            format!("time: missing unit in duration {}", go_quote(orig)),
            None,
        ));
    }
    let unit_text = &orig[start..i];
    let Some(&(_, unit)) = NANOS.iter().find(|(u, _)| *u == unit_text) else {
        return Err((
            format!(
                "time: unknown unit {} in duration {}",
                go_quote(unit_text),
                go_quote(orig)
            ),
            Some(start..i),
        ));
    };
    Ok((unit, i))
}

/// Nanoseconds of `v` and the fraction `f / scale` of a unit; None past the limit.
fn in_unit(v: u64, f: u64, scale: f64, unit: u64) -> Option<u64> {
    if v > DURATION_LIMIT / unit {
        return None;
    }
    let mut v = v * unit;
    if f > 0 {
        v += (f as f64 * (unit as f64 / scale)) as u64;
        if v > DURATION_LIMIT {
            return None;
        }
    }
    Some(v)
}

const QUANTITY_FORMAT: &str =
    "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";

/// `resource.ParseQuantity`'s grammar and suffixes (not its value range).
pub(crate) fn quantity(text: &str) -> Vec<Finding> {
    let message = match quantity_error(text) {
        None => return Vec::new(),
        Some(m) => m,
    };
    vec![Finding::new(
        rules::GW121,
        format!("Invalid value: {}: {message}", go_quote(text)),
        None,
    )]
}

/// A quantity counting bytes: a valid quantity, and no milli suffix (`100m` is a tenth of a
/// byte, where `100Mi` or `100M` was meant).
pub(crate) fn byte_size(text: &str) -> Vec<Finding> {
    let invalid = quantity(text);
    if !invalid.is_empty() {
        return invalid;
    }
    let Some(number) = text.strip_suffix('m') else {
        return Vec::new();
    };
    let at = number.len();
    vec![
        Finding::new(
            rules::GW129,
            format!(
                "{} is {number} thousandths of a byte: the suffix m means milli",
                go_quote(text)
            ),
            Some(at..at + 1),
        )
        .with_help(format!(
            "write {number}Mi for mebibytes or {number}M for megabytes"
        )),
    ]
}

fn quantity_error(s: &str) -> Option<&'static str> {
    if s.is_empty() {
        return Some(QUANTITY_FORMAT);
    }
    if s == "0" {
        return None;
    }
    let b = s.as_bytes();
    let digits = |mut i: usize| {
        while i < b.len() && b[i].is_ascii_digit() {
            i += 1;
        }
        i
    };
    let mut i = usize::from(matches!(b[0], b'+' | b'-'));
    i = digits(i);
    if i < b.len() && b[i] == b'.' {
        i = digits(i + 1);
    }
    // The suffix: letters of the set, then an optional sign and digits; anything after is wrong.
    let suffix_start = i;
    while i < b.len() && b"eEinumkKMGTP".contains(&b[i]) {
        i += 1;
    }
    if i < b.len() && matches!(b[i], b'+' | b'-') {
        i += 1;
    }
    if digits(i) != b.len() {
        return Some(QUANTITY_FORMAT);
    }
    let suffix = &s[suffix_start..];
    let known = matches!(
        suffix,
        "" | "Ki"
            | "Mi"
            | "Gi"
            | "Ti"
            | "Pi"
            | "Ei"
            | "n"
            | "u"
            | "m"
            | "k"
            | "M"
            | "G"
            | "T"
            | "P"
            | "E"
    ) || (suffix.len() > 1
        && suffix.starts_with(['e', 'E'])
        && suffix[1..].parse::<i64>().is_ok());
    (!known).then_some("unable to parse quantity's suffix")
}
