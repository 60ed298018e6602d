//! `metadata`, validated natively as the API server's ObjectMeta validation does (CRD schemas only
//! say `type: object`): name, namespace, labels, annotations, unknown fields.

use crate::cel::{CelValue, map_value, string_value};
use crate::diag::{Diagnostic, Severity};
use crate::parse::{Entry, Node, Value};
use crate::rules;
use crate::source::Span;

use super::Walker;
use super::messages::{go_quote, go_value, suggest};

const OBJECT_META_FIELDS: &[&str] = &[
    "annotations",
    "creationTimestamp",
    "deletionGracePeriodSeconds",
    "deletionTimestamp",
    "finalizers",
    "generateName",
    "generation",
    "labels",
    "managedFields",
    "name",
    "namespace",
    "ownerReferences",
    "resourceVersion",
    "selfLink",
    "uid",
];

const SUBDOMAIN_MSG: &str = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
const LABEL_MSG: &str = "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";
const DNS1035_MSG: &str = "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')";
const NAME_PART_MSG: &str = "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
const QUALIFIED_MSG: &str = "a qualified name must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')";
const LABEL_VALUE_MSG: &str = "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";
const ANNOTATIONS_MAX_BYTES: usize = 256 * 1024;

fn is_dns_label(s: &str) -> bool {
    let b = s.as_bytes();
    !b.is_empty()
        && b.iter()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || *c == b'-')
        && b[0] != b'-'
        && b[b.len() - 1] != b'-'
}

fn is_subdomain(s: &str) -> bool {
    s.split('.').all(is_dns_label)
}

fn is_dns1035_label(s: &str) -> bool {
    is_dns_label(s) && s.as_bytes()[0].is_ascii_lowercase()
}

/// `([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]`
fn is_name_part(s: &str) -> bool {
    let b = s.as_bytes();
    !b.is_empty()
        && b.iter()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, b'-' | b'_' | b'.'))
        && b[0].is_ascii_alphanumeric()
        && b[b.len() - 1].is_ascii_alphanumeric()
}

/// Problems of a qualified name (label and annotation keys), in the API server's words.
fn qualified_name_errors(key: &str) -> Vec<String> {
    let parts: Vec<&str> = key.split('/').collect();
    let (prefix, name) = match parts.as_slice() {
        [name] => (None, *name),
        [prefix, name] => (Some(*prefix), *name),
        _ => return vec![QUALIFIED_MSG.to_string()],
    };
    let mut errs = Vec::new();
    if let Some(prefix) = prefix {
        if prefix.is_empty() {
            errs.push("prefix part must be non-empty".to_string());
        } else {
            if prefix.len() > 253 {
                errs.push("prefix part must be no more than 253 characters".to_string());
            }
            if !is_subdomain(prefix) {
                errs.push(format!("prefix part {SUBDOMAIN_MSG}"));
            }
        }
    }
    if name.is_empty() {
        errs.push("name part must be non-empty".to_string());
    } else {
        if name.len() > 63 {
            errs.push("name part must be no more than 63 characters".to_string());
        }
        if !is_name_part(name) {
            errs.push(NAME_PART_MSG.to_string());
        }
    }
    errs
}

impl<'v> Walker<'v> {
    /// `metadata.name: Required value` (no metadata, or neither name nor generateName).
    pub(super) fn missing_name(&mut self, span: Span) {
        self.blocking += 1;
        self.emit(
            rules::GW102,
            span,
            "metadata.name".to_string(),
            "metadata.name: Required value: name or generateName is required".to_string(),
        );
    }

    /// Validates the root's `metadata` entry; returns its CEL value (name and generateName, all
    /// that rules may read of it).
    pub(super) fn check_metadata(&mut self, e: &'v Entry, want: bool) -> Option<CelValue> {
        let Value::Map(fields) = &e.value.value else {
            if matches!(e.value.value, Value::Null) {
                self.missing_name(e.key_span);
                return None;
            }
            let actual = e.value.type_name();
            self.emit_blocking_meta(
                rules::GW103,
                e.value.span,
                "metadata",
                format!("metadata: Invalid value: \"{actual}\": metadata in body must be of type object: \"{actual}\""),
            );
            return None;
        };
        let mut cel: Vec<(String, CelValue)> = Vec::new();
        let mut has_name = false;
        for f in fields {
            let text = f.value.as_str();
            let path = format!("metadata.{}", f.key);
            match f.key.as_str() {
                "name" | "generateName" | "namespace" | "uid" | "resourceVersion" | "selfLink"
                    if text.is_none() && !matches!(f.value.value, Value::Null) =>
                {
                    let actual = f.value.type_name();
                    self.emit_blocking_meta(rules::GW103, f.value.span, &path, format!(
                        "{path}: Invalid value: \"{actual}\": {path} in body must be of type string: \"{actual}\""
                    ));
                }
                "name" | "generateName" => {
                    if let Some(t) = text {
                        has_name = true;
                        if want {
                            cel.push((f.key.to_string(), string_value(t)));
                        }
                        if f.key == "name" {
                            self.check_name(t, f.value.span);
                        }
                    }
                }
                "namespace" => {
                    if let Some(ns) = text {
                        self.check_namespace(ns, f);
                    }
                }
                "labels" => self.check_string_map(f, true),
                "annotations" => self.check_string_map(f, false),
                k if OBJECT_META_FIELDS.contains(&k) => {}
                _ => {
                    let mut d =
                        Diagnostic::new(rules::GW101, format!("unknown field {}", go_quote(&path)))
                            .at(self.file, f.key_span)
                            .with_resource(Some(self.resource.clone()))
                            .with_path(path);
                    if let Some(s) = suggest(&f.key, OBJECT_META_FIELDS.iter().copied()) {
                        d = d.with_help(format!("did you mean {}?", go_quote(s)));
                    }
                    self.emit_diag(d);
                }
            }
        }
        if !has_name {
            self.missing_name(e.key_span);
        }
        want.then(|| map_value(cel))
    }

    fn emit_blocking_meta(&mut self, code: rules::Code, span: Span, path: &str, message: String) {
        self.blocking += 1;
        self.emit(code, span, path.to_string(), message);
    }

    fn check_name(&mut self, name: &str, span: Span) {
        let kind = self.kind.kind.as_str();
        let core = self.kind.group.is_empty();
        let (max, ok, msg) = match kind {
            "Namespace" if core => (63, is_dns_label(name), LABEL_MSG),
            "Service" if core => (63, is_dns1035_label(name), DNS1035_MSG),
            _ => (253, is_subdomain(name), SUBDOMAIN_MSG),
        };
        // Quoted only for a finding: this runs for every object.
        let shown = || go_quote(name);
        if name.len() > max {
            self.meta_invalid(
                span,
                "metadata.name",
                &shown(),
                &format!("must be no more than {max} characters"),
            );
        }
        if !ok {
            self.meta_invalid(span, "metadata.name", &shown(), msg);
        }
    }

    fn check_namespace(&mut self, ns: &str, f: &Entry) {
        if self.kind.cluster_scoped {
            let d = Diagnostic::new(
                rules::GW115,
                format!(
                    "metadata.namespace: {} is cluster-scoped; the API server ignores the namespace",
                    self.kind.kind
                ),
            )
            .with_severity(Severity::Warning)
            .at(self.file, f.key_span)
            .with_resource(Some(self.resource.clone()))
            .with_path("metadata.namespace");
            self.emit_diag(d);
            return;
        }
        let shown = || go_quote(ns);
        if ns.len() > 63 {
            self.meta_invalid(
                f.value.span,
                "metadata.namespace",
                &shown(),
                "must be no more than 63 characters",
            );
        }
        if !is_dns_label(ns) {
            self.meta_invalid(f.value.span, "metadata.namespace", &shown(), LABEL_MSG);
        }
    }

    fn meta_invalid(&mut self, span: Span, path: &str, shown: &str, detail: &str) {
        self.emit(
            rules::GW115,
            span,
            path.to_string(),
            format!("{path}: Invalid value: {shown}: {detail}"),
        );
    }

    /// labels / annotations: a map of strings with qualified-name keys; label values are limited.
    fn check_string_map(&mut self, f: &'v Entry, labels: bool) {
        let base = format!("metadata.{}", f.key);
        let entries = match &f.value.value {
            Value::Map(entries) => entries,
            Value::Null => return,
            _ => {
                let actual = f.value.type_name();
                self.emit_blocking_meta(rules::GW103, f.value.span, &base, format!(
                    "{base}: Invalid value: \"{actual}\": {base} in body must be of type object: \"{actual}\""
                ));
                return;
            }
        };
        let mut total = 0usize;
        for e in entries {
            let key_to_check: std::borrow::Cow<'_, str> = if labels {
                std::borrow::Cow::Borrowed(&e.key)
            } else {
                std::borrow::Cow::Owned(e.key.to_ascii_lowercase())
            };
            for msg in qualified_name_errors(&key_to_check) {
                self.meta_invalid(e.key_span, &base, &go_quote(&e.key), &msg);
            }
            let Some(value) = e.value.as_str() else {
                self.string_value_required(&base, e, &e.value);
                continue;
            };
            total += e.key.len() + value.len();
            if labels {
                let shown = || go_quote(value);
                if value.len() > 63 {
                    self.meta_invalid(
                        e.value.span,
                        &base,
                        &shown(),
                        "must be no more than 63 characters",
                    );
                }
                if !value.is_empty() && !is_name_part(value) {
                    self.meta_invalid(e.value.span, &base, &shown(), LABEL_VALUE_MSG);
                }
            }
        }
        if !labels && total > ANNOTATIONS_MAX_BYTES {
            self.emit(
                rules::GW115,
                f.key_span,
                base.clone(),
                format!("{base}: Too long: may not be more than {ANNOTATIONS_MAX_BYTES} bytes"),
            );
        }
    }

    fn string_value_required(&mut self, base: &str, e: &'v Entry, value: &Node) {
        let path = format!("{base}.{}", e.key);
        let shown = go_value(value);
        self.blocking += 1;
        self.emit(
            rules::GW115,
            value.span,
            path.clone(),
            format!("{path}: Invalid value: {shown}: must be of type string"),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names() {
        assert!(is_subdomain("example.com") && is_subdomain("a-b.c1"));
        assert!(!is_subdomain("Foo_bar") && !is_subdomain("-a") && !is_subdomain("a..b"));
        assert!(is_dns1035_label("web") && !is_dns1035_label("1web"));
        assert!(qualified_name_errors("app.kubernetes.io/name").is_empty());
        assert_eq!(
            qualified_name_errors("a/b/c"),
            vec![QUALIFIED_MSG.to_string()]
        );
        assert_eq!(
            qualified_name_errors("bad key"),
            vec![NAME_PART_MSG.to_string()]
        );
    }
}
