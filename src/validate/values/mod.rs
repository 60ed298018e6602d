//! Strings checked for what they are (schema extension `x-gwctl-format`): CEL expressions,
//! regexes, header names, durations, quantities, JWKS, htpasswd lines, transformation
//! templates and TLS parameter names. Each checker is a pure
//! function from the decoded text to findings with byte ranges in that text; the walker maps the
//! ranges to the file through [`position::ScalarMap`] (built only when there is a finding).

mod cel_expr;
pub(crate) mod htpasswd;
mod jwks;
pub(crate) mod position;
mod re2;
mod scalars;
mod template;
pub(crate) mod tls_names;

#[cfg(test)]
mod tests;
#[cfg(test)]
mod tests_template;

use std::ops::Range;

use crate::cel::CelLimits;
use crate::diag::Diagnostic;
use crate::parse::Node;
use crate::rules;
use crate::schema::compile::ValueFormat;

use super::{Walker, display_path};

/// A problem inside a string value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Finding {
    pub code: rules::Code,
    /// Without the field path (the walker prefixes it).
    pub message: String,
    /// Byte range in the decoded string; `None` is the whole value.
    pub range: Option<Range<usize>>,
    pub help: Option<String>,
    /// Only the proxy finds it, when it loads the configuration (the controller accepts it).
    pub proxy_only: Option<crate::diag::ProxyCheck>,
}

impl Finding {
    pub(crate) fn new(code: rules::Code, message: String, range: Option<Range<usize>>) -> Self {
        Finding {
            code,
            message,
            range,
            help: None,
            proxy_only: None,
        }
    }

    pub(crate) fn proxy_only(mut self, check: crate::diag::ProxyCheck) -> Self {
        self.proxy_only = Some(check);
        self
    }

    pub(crate) fn with_help(mut self, help: impl Into<String>) -> Self {
        self.help = Some(help.into());
        self
    }
}

/// The findings of one format on one string.
#[cfg(test)]
pub(crate) fn check(format: ValueFormat, text: &str) -> Vec<Finding> {
    let limits = crate::parse::Limits::default();
    check_with(format, text, &limits)
}

/// The findings of a regular expression as the proxy's RE2 compiles it (the render asks whether
/// the proxy refuses a match).
pub(crate) fn regex_findings(pattern: &str, size_limit: usize) -> Vec<Finding> {
    re2::check(pattern, size_limit)
}

/// The findings of one format on one string, under the regex and CEL bounds of `limits`.
pub(crate) fn check_with(
    format: ValueFormat,
    text: &str,
    limits: &crate::parse::Limits,
) -> Vec<Finding> {
    match format {
        ValueFormat::CelExpression => cel_expr::check(text, &CelLimits::from(limits)),
        ValueFormat::Regex => re2::check(text, limits.max_regex_size),
        ValueFormat::HeaderName => scalars::header_name(text),
        ValueFormat::Duration => scalars::duration(text),
        ValueFormat::Quantity => scalars::quantity(text),
        ValueFormat::ByteSize => scalars::byte_size(text),
        ValueFormat::Jwks => jwks::check(text),
        ValueFormat::Htpasswd => htpasswd::check(text),
        ValueFormat::Template => template::check(text),
        ValueFormat::TlsCipherSuite => tls_names::cipher_suite(text),
        ValueFormat::TlsCurve => tls_names::curve(text),
    }
}

impl Walker<'_> {
    /// Runs the format's checker on a string node and reports at the exact place in the file.
    pub(super) fn check_value_format(&mut self, node: &Node, text: &str, format: ValueFormat) {
        let findings = check_with(format, text, &self.limits);
        if findings.is_empty() {
            return;
        }
        let map = position::ScalarMap::new(self.source, node.span, text);
        let path = self.path_string();
        for f in findings {
            let span = match &f.range {
                Some(r) => map.span(r.start, r.end),
                None => node.span,
            };
            let mut d = Diagnostic::new(f.code, format!("{}: {}", display_path(&path), f.message))
                .at(self.file, span)
                .with_resource(Some(self.resource.clone()))
                .with_path(path.clone());
            if let Some(h) = f.help {
                d = d.with_help(h);
            }
            if let Some(check) = f.proxy_only {
                d = d.with_outcome(crate::diag::Outcome::ProxyOnly(check));
            }
            self.emit_diag(d);
        }
    }
}
