//! A regular expression the proxy's RE2 refuses, as the proxy reports it: RE2's error text
//! (`missing ]`, `invalid named capture group` ...) and the part of the pattern it names. The
//! controller quotes it in the route's status when strict validation drops the rule.
//!
//! Whether RE2 refuses a pattern is decided where lint decides it (GW118, `validate::values`),
//! so a rendering and the findings never disagree; only the wording is RE2's.

use regex_syntax::ast::ErrorKind;

/// RE2's words for a pattern it refuses; `None` when it accepts it.
pub fn rejected(pattern: &str) -> Option<String> {
    let limit = crate::parse::Limits::default().max_regex_size;
    let finding = crate::validate::values::regex_findings(pattern, limit)
        .into_iter()
        .next()?;
    Some(worded(pattern).unwrap_or_else(|| {
        // A refusal regex-syntax does not see (RE2-only rules): gwctl's own words.
        finding
            .message
            .trim_start_matches("invalid regular expression: ")
            .to_string()
    }))
}

/// The error RE2 reports, for the errors regex-syntax finds at the same place.
fn worded(pattern: &str) -> Option<String> {
    let e = regex_syntax::ast::parse::Parser::new()
        .parse(pattern)
        .err()?;
    let span = e.span();
    let from = pattern.get(span.start.offset..).unwrap_or("");
    let spanned = pattern
        .get(span.start.offset..span.end.offset)
        .unwrap_or("");
    let (text, arg) = match e.kind() {
        ErrorKind::ClassUnclosed => ("missing ]", from),
        ErrorKind::GroupUnclosed => ("missing )", pattern),
        ErrorKind::GroupUnopened => ("unexpected )", pattern),
        ErrorKind::RepetitionMissing => ("no argument for repetition operator", spanned),
        ErrorKind::ClassRangeInvalid => ("invalid character class range", spanned),
        ErrorKind::UnsupportedBackreference
        | ErrorKind::EscapeUnrecognized
        | ErrorKind::EscapeUnexpectedEof => ("invalid escape sequence", spanned),
        // `(?<` opens a named group in RE2: a look-behind is a bad name, up to the end.
        ErrorKind::UnsupportedLookAround if from.starts_with("(?<") => {
            ("invalid named capture group", from)
        }
        ErrorKind::UnsupportedLookAround => ("invalid perl operator", from.get(..3)?),
        ErrorKind::GroupNameInvalid
        | ErrorKind::GroupNameEmpty
        | ErrorKind::GroupNameUnexpectedEof => ("invalid named capture group", from),
        _ => return None,
    };
    Some(format!("{text}: {arg}"))
}

#[cfg(test)]
mod tests {
    use super::rejected;

    #[test]
    fn refusals_in_re2_words() {
        assert_eq!(
            rejected("[invalid-regex").as_deref(),
            Some("missing ]: [invalid-regex")
        );
        assert_eq!(
            rejected("/a/[b").as_deref(),
            Some("missing ]: [b"),
            "from the open bracket on"
        );
        assert_eq!(
            rejected("(?<=foo)bar").as_deref(),
            Some("invalid named capture group: (?<=foo)bar")
        );
        assert_eq!(
            rejected("a(?=b)").as_deref(),
            Some("invalid perl operator: (?=")
        );
        assert_eq!(rejected("(ab").as_deref(), Some("missing ): (ab"));
        assert_eq!(rejected("ab)").as_deref(), Some("unexpected ): ab)"));
        assert_eq!(
            rejected(r"(a)\1").as_deref(),
            Some(r"invalid escape sequence: \1")
        );
    }

    #[test]
    fn accepted_patterns_are_not_refused() {
        for p in ["/api/v[0-9]+/.*", r"\Qa.b\E", "(?P<x>a)", "^/$"] {
            assert_eq!(rejected(p), None, "{p}");
        }
    }

    #[test]
    fn re2_only_refusals_keep_gwctls_words() {
        let why = rejected("a**").unwrap_or_default();
        assert!(!why.is_empty() && !why.starts_with("invalid regular expression"));
    }
}
