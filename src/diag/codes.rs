//! The one table of rule codes. Adding a rule means adding a row here and emitting the code
//! from the stage that detects it; docs, `gwctl rules` and SARIF rule lists are generated from it.

use super::Severity;

pub struct Rule {
    pub code: &'static str,
    /// Kebab-case name, for people and for SARIF `name`.
    pub name: &'static str,
    pub severity: Severity,
    /// One line: what the finding means.
    pub summary: &'static str,
    /// Why it matters and how to fix it.
    pub explanation: &'static str,
}

const fn r(
    code: &'static str,
    name: &'static str,
    severity: Severity,
    summary: &'static str,
    explanation: &'static str,
) -> Rule {
    Rule {
        code,
        name,
        severity,
        summary,
        explanation,
    }
}

use Severity::{Error, Info, Warning};

pub static RULES: &[Rule] = &[
    // GW0xx: input
    r(
        "GW001",
        "unreadable-input",
        Error,
        "A path could not be read",
        "The path does not exist, is not readable, or is not a file or directory. The other inputs are still linted; the run exits with code 2.",
    ),
    r(
        "GW002",
        "syntax-error",
        Error,
        "The file is not valid YAML or JSON",
        "The parser stopped at the position shown. Documents after the next `---` separator are still read. Common causes: tabs used for indentation, a value indented less than its key, an unterminated quote.",
    ),
    r(
        "GW003",
        "duplicate-key",
        Error,
        "A mapping has the same key twice",
        "The API server and kubectl keep only one of the values (which one depends on the client), so half of what was written is silently lost. Remove or merge one of the entries.",
    ),
    r(
        "GW004",
        "not-an-object",
        Error,
        "A document is not a Kubernetes object",
        "Every document must be a mapping with `apiVersion` and `kind` strings. Empty documents are ignored.",
    ),
    r(
        "GW005",
        "input-limit",
        Error,
        "An input exceeded a safety limit",
        "A YAML alias expansion, nesting depth or document size limit was hit (for example a \"billion laughs\" document). The document is not linted further; the limit is named in the message.",
    ),
    r(
        "GW006",
        "unknown-kind",
        Error,
        "A known API group has no such kind",
        "The apiVersion names an API group gwctl knows, but the kind does not exist in it. Check the spelling and capitalisation of `kind`.",
    ),
    r(
        "GW007",
        "unknown-version",
        Error,
        "The kind exists but not in this version",
        "The API server would reject the object: no schema is served for this version of the kind. The message lists the versions that exist.",
    ),
    r(
        "GW008",
        "not-checked",
        Info,
        "A document gwctl does not check",
        "The object's kind is outside the API groups gwctl knows (or a tool file such as kustomization.yaml), so it is not validated. Supply its CRD with `--crds` to check it.",
    ),
    r(
        "GW009",
        "invalid-encoding",
        Error,
        "A file is not UTF-8 text",
        "The file contains invalid UTF-8 or binary data and is skipped; the other files are still linted.",
    ),
    r(
        "GW010",
        "invalid-crd",
        Error,
        "A CustomResourceDefinition given with --crds cannot be used",
        "The document is a CustomResourceDefinition but lacks what gwctl needs to check objects against it (spec.group, spec.names.kind, spec.versions with names). Objects of its kind are not checked with it; fix the CRD or leave it out.",
    ),
    r(
        "GW011",
        "unused-suppression",
        Info,
        "A suppression annotation suppresses nothing",
        "The resource's `gwctl.dev/ignore` annotation names a code that has no finding on this resource (or no rule at all). Remove the code from the annotation so that stale suppressions do not hide future findings.",
    ),
    r(
        "GW012",
        "invalid-config",
        Error,
        "The config file has a value gwctl cannot use",
        "The config file (gwctl.yaml, .gwctl.yaml or --config) names an unknown rule code or has an invalid glob. A bad config file is a usage error: gwctl prints its findings and exits with code 2 without linting.",
    ),
    // GW1xx: schema
    r(
        "GW101",
        "unknown-field",
        Error,
        "A field that the schema does not declare",
        "With strict field validation (kubectl's default) the API server rejects the object; with lax validation the field is silently dropped, so the setting has no effect. Usually a typo or a field at the wrong level.",
    ),
    r(
        "GW102",
        "required-field",
        Error,
        "A required field is missing",
        "The API server rejects the object with `Required value`.",
    ),
    r(
        "GW103",
        "invalid-type",
        Error,
        "A value has the wrong type",
        "The schema wants another JSON type here (string, integer, boolean, object, array). Quote numbers meant as strings; do not quote numbers meant as integers.",
    ),
    r(
        "GW104",
        "unsupported-value",
        Error,
        "A value outside the field's enumeration",
        "The field accepts only the listed values; matching is case-sensitive.",
    ),
    r(
        "GW105",
        "pattern-mismatch",
        Error,
        "A string does not match the field's pattern",
        "The API server checks the value against a regular expression; the message shows it.",
    ),
    r(
        "GW106",
        "string-length",
        Error,
        "A string is too short or too long",
        "The field has a minimum or maximum length.",
    ),
    r(
        "GW107",
        "number-range",
        Error,
        "A number is outside the field's range",
        "The field has a minimum or maximum value.",
    ),
    r(
        "GW108",
        "collection-size",
        Error,
        "A list or map has too few or too many entries",
        "The field has a minimum or maximum number of items or properties.",
    ),
    r(
        "GW109",
        "duplicate-item",
        Error,
        "A list has the same item or key twice",
        "The list is a set (items unique) or a map keyed by the named fields; the API server rejects duplicates.",
    ),
    r(
        "GW110",
        "yaml11-boolean",
        Warning,
        "A plain scalar that Kubernetes reads as a boolean",
        "The API server parses YAML 1.1, where unquoted `yes`, `no`, `on`, `off`, `y` and `n` are booleans, not strings. Quote the value if a string is meant; write `true` or `false` if a boolean is meant.",
    ),
    r(
        "GW111",
        "invalid-format",
        Error,
        "A string does not have the field's format",
        "The field has a format (IPv4, IPv6, date-time, ...) and the value does not parse as one.",
    ),
    r(
        "GW112",
        "validation-rule",
        Error,
        "A validation rule of the schema fails",
        "The schema's CEL rule (x-kubernetes-validations) rejects the value, with the message the API server would print.",
    ),
    r(
        "GW113",
        "rule-not-evaluated",
        Warning,
        "A validation rule could not be evaluated",
        "gwctl could not evaluate a CEL rule of the schema on this value, so the check was skipped. This is a gwctl limitation; the API server may still reject the object.",
    ),
    r(
        "GW114",
        "schema-combinator",
        Error,
        "The value matches none of the allowed shapes",
        "The schema allows one of several shapes (oneOf / anyOf) or forbids one (not), and the value does not fit.",
    ),
    r(
        "GW115",
        "invalid-metadata",
        Error,
        "metadata.name, namespace, labels or annotations are invalid",
        "The API server checks object names (RFC 1123), that labels and annotations are maps of strings, and label syntax.",
    ),
];

/// The rule with this code, if any.
pub fn rule(code: &str) -> Option<&'static Rule> {
    RULES.iter().find(|r| r.code == code)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_unique_and_sorted() {
        for pair in RULES.windows(2) {
            assert!(
                pair[0].code < pair[1].code,
                "{} before {}",
                pair[0].code,
                pair[1].code
            );
        }
    }
}
