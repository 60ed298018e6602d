//! The checks behind the `format` library (`format.dns1123Label().validate(s)`), with the
//! messages of Kubernetes' apimachinery validators.

use std::sync::LazyLock;

use regex::Regex;

use super::net::parse_url;

fn re(pattern: &str) -> Regex {
    // The patterns below are constants known to compile; an impossible-to-match fallback
    // keeps this panic-free.
    Regex::new(pattern)
        .unwrap_or_else(|_| Regex::new("[^\\s\\S]").unwrap_or_else(|_| unreachable!()))
}

static DNS1123_LABEL: LazyLock<Regex> = LazyLock::new(|| re("^[a-z0-9]([-a-z0-9]*[a-z0-9])?$"));
static DNS1123_SUBDOMAIN: LazyLock<Regex> =
    LazyLock::new(|| re("^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$"));
static DNS1035_LABEL: LazyLock<Regex> = LazyLock::new(|| re("^[a-z]([-a-z0-9]*[a-z0-9])?$"));
static QUALIFIED_NAME: LazyLock<Regex> =
    LazyLock::new(|| re("^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$"));
static LABEL_VALUE: LazyLock<Regex> =
    LazyLock::new(|| re("^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$"));
static UUID: LazyLock<Regex> = LazyLock::new(|| {
    re("(?i)^(?:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|[0-9a-f]{32})$")
});
static BASE64: LazyLock<Regex> =
    LazyLock::new(|| re("^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$"));
static DATETIME: LazyLock<Regex> = LazyLock::new(|| {
    re("^(\\d{4}-\\d{2}-\\d{2})[Tt ]\\d{2}:\\d{2}(:\\d{2}(\\.\\d+)?)?([Zz]|[+-]\\d{2}:?\\d{2})?$")
});

fn max_len(s: &str, n: usize) -> Option<String> {
    (s.len() > n).then(|| format!("must be no more than {n} characters"))
}

fn label(s: &str) -> Vec<String> {
    let mut errs: Vec<String> = max_len(s, 63).into_iter().collect();
    if !DNS1123_LABEL.is_match(s) {
        errs.push("a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')".to_string());
    }
    errs
}

fn subdomain(s: &str) -> Vec<String> {
    let mut errs: Vec<String> = max_len(s, 253).into_iter().collect();
    if !DNS1123_SUBDOMAIN.is_match(s) {
        errs.push("a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')".to_string());
    }
    errs
}

fn label1035(s: &str) -> Vec<String> {
    let mut errs: Vec<String> = max_len(s, 63).into_iter().collect();
    if !DNS1035_LABEL.is_match(s) {
        errs.push("a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')".to_string());
    }
    errs
}

/// For the `...Prefix` formats a trailing dash is allowed (the name is a generateName prefix).
fn mask_trailing_dash(s: &str) -> String {
    match s.strip_suffix('-') {
        Some(head) if s.len() > 1 => format!("{head}a"),
        _ => s.to_string(),
    }
}

fn qualified_name(s: &str) -> Vec<String> {
    let parts: Vec<&str> = s.split('/').collect();
    let (prefix, name) = match parts.as_slice() {
        [name] => (None, *name),
        [prefix, name] => (Some(*prefix), *name),
        _ => {
            return vec!["a qualified name must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')".to_string()];
        }
    };
    let mut errs = Vec::new();
    if let Some(prefix) = prefix {
        if prefix.is_empty() {
            errs.push("prefix part must be non-empty".to_string());
        } else {
            errs.extend(
                subdomain(prefix)
                    .into_iter()
                    .map(|e| format!("prefix part {e}")),
            );
        }
    }
    if name.is_empty() {
        errs.push("name part must be non-empty".to_string());
    } else if name.len() > 63 {
        errs.push("name part must be no more than 63 characters".to_string());
    }
    if !QUALIFIED_NAME.is_match(name) {
        errs.push("name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')".to_string());
    }
    errs
}

fn valid_date(s: &str) -> bool {
    let parts: Vec<&str> = s.split('-').collect();
    let [y, m, d] = parts.as_slice() else {
        return false;
    };
    if y.len() != 4 || m.len() != 2 || d.len() != 2 {
        return false;
    }
    let (Ok(y), Ok(m), Ok(d)) = (y.parse::<u32>(), m.parse::<u32>(), d.parse::<u32>()) else {
        return false;
    };
    let leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
    let days = match m {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if leap => 29,
        2 => 28,
        _ => return false,
    };
    (1..=days).contains(&d)
}

/// Error messages for `format.<name>().validate(s)`, indexed like `FORMAT_NAMES`.
pub(super) fn validate_format(kind: u8, s: &str) -> Vec<String> {
    match kind {
        0 => label(s),
        1 => subdomain(s),
        2 => label1035(s),
        3 => qualified_name(s),
        4 => label(&mask_trailing_dash(s)),
        5 => subdomain(&mask_trailing_dash(s)),
        6 => label1035(&mask_trailing_dash(s)),
        7 => {
            let mut errs: Vec<String> = max_len(s, 63).into_iter().collect();
            if !LABEL_VALUE.is_match(s) {
                errs.push("a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')".to_string());
            }
            errs
        }
        8 => parse_url(s).err().into_iter().collect(),
        9 => (!UUID.is_match(s))
            .then(|| "does not match the UUID format".to_string())
            .into_iter()
            .collect(),
        10 => (!BASE64.is_match(s))
            .then(|| "invalid base64".to_string())
            .into_iter()
            .collect(),
        11 => (!valid_date(s))
            .then(|| "invalid date".to_string())
            .into_iter()
            .collect(),
        _ => {
            let ok = DATETIME
                .captures(s)
                .and_then(|c| c.get(1))
                .is_some_and(|d| valid_date(d.as_str()));
            (!ok)
                .then(|| "invalid datetime".to_string())
                .into_iter()
                .collect()
        }
    }
}
