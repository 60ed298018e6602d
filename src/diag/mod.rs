//! Diagnostics are values: every stage returns them, only the report stage formats them.

pub use crate::rules::{Code, Severity};

use crate::source::{FileId, Span};

mod fix;
pub use fix::{Applicability, Edit, Fix, plain_as_string};

/// The resource a finding belongs to, as `kind namespace/name`.
#[derive(Debug, Clone, PartialEq, Eq, Hash, serde::Serialize)]
pub struct ResourceRef {
    pub kind: String,
    pub namespace: Option<String>,
    pub name: String,
}

impl std::fmt::Display for ResourceRef {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.namespace {
            Some(ns) => write!(f, "{} {}/{}", self.kind, ns, self.name),
            None => write!(f, "{} {}", self.kind, self.name),
        }
    }
}

/// A place in a file, with what it has to do with the finding.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Location {
    pub file: FileId,
    pub span: Span,
}

#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Related {
    pub location: Location,
    pub message: String,
}

/// One finding, of a declared rule (see `crate::rules`); its default severity comes from there.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Diagnostic {
    pub code: Code,
    pub severity: Severity,
    pub message: String,
    /// Where the finding points; `None` only for findings about no file (a missing path).
    pub location: Option<Location>,
    pub resource: Option<ResourceRef>,
    /// Field path inside the resource, as the API server prints it (`spec.listeners[2].port`).
    pub path: Option<String>,
    pub help: Option<String>,
    pub related: Vec<Related>,
    /// Set when a suppression hid the finding; it then counts for nothing (an
    /// annotation or the config's suppressions: the suppression stage sets it).
    pub suppressed: Option<Suppressed>,
    /// Edits that make the finding go away, when the rule knows them (`gwctl lint --fix`).
    pub fix: Option<Fix>,
    /// What the finding means to the controller, set where it is made: later stages decide on
    /// this (through [`Verdicts`]), never on the code or the message.
    #[serde(skip)]
    pub outcome: Outcome,
}

/// What a finding means to the controller that programs the proxy.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub enum Outcome {
    /// As its severity says: an error is one the API server or the controller detects, and the
    /// resource is not accepted.
    #[default]
    BySeverity,
    /// A reference the controller cannot resolve when it translates the resource (it is not
    /// accepted); `missing` names the object (`kind`, `namespace/name`) when it is not there.
    Reference { missing: Option<(String, String)> },
    /// A GatewayExtension the resource names cannot be used: its reference at `path` (in the
    /// extension) needs a ReferenceGrant that is not there. The controller rejects the resource.
    ExtensionBackend { path: String },
    /// An error only the proxy finds when it loads the configuration: the controller accepts the
    /// resource (with validation level strict the proxy checks the configuration first).
    ProxyOnly(ProxyCheck),
    /// On a definition the inputs replace with a later one: the controller never sees it.
    Replaced,
    /// An error the controller finds when it translates the resource (it is not accepted), which
    /// its status reports in these words.
    Refused { words: String },
}

/// What the proxy checks when it loads the configuration, that the controller does not.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ProxyCheck {
    /// A transformation template, compiled by the transformation module.
    Template,
    /// A regular expression, compiled by RE2.
    Regex,
    /// An HTTP authorization service's path prefix, which must start with `/`.
    PathPrefix,
    /// A TLS cipher suite or curve name, which the proxy's TLS library must know.
    TlsParameter,
}

/// What hid a finding: shown with `--show-suppressed`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub enum Suppressed {
    /// The resource's `gwctl.dev/ignore` annotation.
    Annotation,
    /// An `ignore` entry of the config file.
    ConfigIgnore,
    /// `severity: off` for the code in the config file.
    SeverityOff,
}

impl Suppressed {
    pub fn as_str(self) -> &'static str {
        match self {
            Suppressed::Annotation => "annotation",
            Suppressed::ConfigIgnore => "config ignore",
            Suppressed::SeverityOff => "severity off",
        }
    }
}

impl Diagnostic {
    /// A finding with the rule's default severity.
    pub fn new(code: Code, message: impl Into<String>) -> Self {
        Diagnostic {
            code,
            severity: code.default_severity(),
            message: message.into(),
            location: None,
            resource: None,
            path: None,
            help: None,
            related: Vec::new(),
            suppressed: None,
            fix: None,
            outcome: Outcome::BySeverity,
        }
    }

    pub fn with_outcome(mut self, outcome: Outcome) -> Self {
        self.outcome = outcome;
        self
    }

    pub fn at(mut self, file: FileId, span: Span) -> Self {
        self.location = Some(Location { file, span });
        self
    }

    pub fn with_resource(mut self, resource: Option<ResourceRef>) -> Self {
        self.resource = resource;
        self
    }

    pub fn with_path(mut self, path: impl Into<String>) -> Self {
        self.path = Some(path.into());
        self
    }

    pub fn with_help(mut self, help: impl Into<String>) -> Self {
        self.help = Some(help.into());
        self
    }

    pub fn with_severity(mut self, severity: Severity) -> Self {
        self.severity = severity;
        self
    }

    pub fn with_fix(mut self, fix: Fix) -> Self {
        self.fix = Some(fix);
        self
    }

    pub fn with_related(mut self, file: FileId, span: Span, message: impl Into<String>) -> Self {
        self.related.push(Related {
            location: Location { file, span },
            message: message.into(),
        });
        self
    }
}

mod verdicts;
pub use verdicts::{Rejection, Verdicts};
