//! Every rule gwctl reports, each declared once, in a file of its own under its family's folder
//! (`src/rules/schema/gw101_unknown_field.rs`, with its examples in the folder of the same name).
//!
//! A check emits a finding with the rule's code constant (`Diagnostic::new(rules::GW101, ..)`): a
//! [`Code`] exists only for a declared rule, so an undeclared code does not compile. `gwctl rules`,
//! docs/rules.md, the SARIF rule list, the config schema's `severity` keys and the completions are
//! generated from the declarations; tests/rule_examples.rs lints every rule's examples.
//!
//! Adding a rule: a file `<family>/gwNNN_<name>.rs` with one `declare_rule!`, its example files,
//! one line in the family's `mod.rs`, then the regenerated docs (see README, "Rules").

use std::sync::OnceLock;

/// How much a finding matters; a rule has a default, the config file can change it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    Info,
    Warning,
    Error,
}

impl Severity {
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Info => "info",
            Severity::Warning => "warning",
            Severity::Error => "error",
        }
    }
}

/// A declared rule's code (`GW101`). Only `declare_rule!` makes one (the fields are private to this
/// module and its family folders), so a check cannot emit an undeclared code.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Code {
    id: &'static str,
    /// The rule's default severity, carried along so that a finding needs no lookup.
    severity: Severity,
}

impl Code {
    pub fn as_str(self) -> &'static str {
        self.id
    }

    pub fn default_severity(self) -> Severity {
        self.severity
    }
}

/// As written (`GW101`), in test failures too.
impl std::fmt::Debug for Code {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.id)
    }
}

impl std::fmt::Display for Code {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.pad(self.id)
    }
}

impl serde::Serialize for Code {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.id)
    }
}

/// A rule: what `gwctl rules CODE` prints.
#[derive(Debug)]
pub struct Rule {
    pub code: Code,
    /// Kebab-case name, for people and for SARIF `name`.
    pub name: &'static str,
    pub severity: Severity,
    /// One line: what the finding means.
    pub summary: &'static str,
    /// What the rule checks, why it matters, how to fix it and when to ignore it.
    pub explanation: &'static str,
    /// The fix its findings offer to `gwctl lint --fix` (a finding's `Fix`), starting with
    /// its applicability (`Safe:` or `Unsafe:`); `None` when they offer none.
    pub fix: Option<&'static str>,
    pub example: Example,
    /// The file that declares the rule; its examples (and the failing example's snapshot) are in
    /// the folder of the same name.
    pub declared_in: &'static str,
}

/// A failing and a fixed example: the failing one has the rule's finding, the fixed one has not.
#[derive(Debug)]
pub struct Example {
    pub kind: ExampleKind,
    pub failing: &'static str,
    pub fixed: &'static str,
}

/// How an example is checked.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ExampleKind {
    /// One YAML file linted with the built-in schemas.
    Manifest,
    /// Like `Manifest`, but the file's `CustomResourceDefinition` documents are registered as
    /// schemas first (the rule needs a schema gwctl does not ship).
    Crd,
    /// Config files (`gwctl.yaml`).
    Config,
    /// The first document is the chart's values file (`--values`); the documents after the first
    /// `---` line are the manifests linted with it.
    Values,
    /// The finding is about the input itself (a path, a file name, bytes), not a document: the
    /// examples are command lines, run by tests/cli_rules.rs.
    Cli,
}

/// A rule's optional `fix:` text as an `Option`.
macro_rules! optional_fix {
    () => {
        None
    };
    ($fix:literal) => {
        Some($fix)
    };
}

/// Declares one rule: `code` is the constant checks emit (and the rule's code, as written).
macro_rules! declare_rule {
    (
        code: $code:ident,
        name: $name:literal,
        severity: $severity:ident,
        summary: $summary:literal,
        explanation: $explanation:literal,
        $(fix: $fix:literal,)?
        example: $kind:ident {
            failing: $failing:expr,
            fixed: $fixed:expr $(,)?
        } $(,)?
    ) => {
        pub const $code: $crate::rules::Code = $crate::rules::Code {
            id: stringify!($code),
            severity: $crate::rules::Severity::$severity,
        };

        pub(super) static RULE: $crate::rules::Rule = $crate::rules::Rule {
            code: $code,
            name: $name,
            severity: $crate::rules::Severity::$severity,
            summary: $summary,
            explanation: $explanation,
            fix: optional_fix!($($fix)?),
            example: $crate::rules::Example {
                kind: $crate::rules::ExampleKind::$kind,
                failing: $failing,
                fixed: $fixed,
            },
            declared_in: file!(),
        };
    };
}

/// A family's list: one `module => CODE` line per rule file, in code order.
macro_rules! family {
    ($($module:ident => $code:ident),* $(,)?) => {
        $(
            mod $module;
            pub use $module::$code;
        )*

        pub(super) static RULES: &[&$crate::rules::Rule] = &[$(&$module::RULE),*];
    };
}

mod input;
mod policies;
mod references;
mod render;
mod schema;
mod security;

pub use input::*;
pub use policies::*;
pub use references::*;
#[allow(unused_imports)] // the family declares no rule yet
pub use render::*;
pub use schema::*;
pub use security::*;

/// A family of rules: codes `GW<digit>xx`, declared in `src/rules/<name>/`.
pub struct Family {
    pub name: &'static str,
    /// The hundreds digit of the family's codes (`'1'` for GW1xx).
    pub digit: char,
    pub rules: &'static [&'static Rule],
}

pub static FAMILIES: &[Family] = &[
    Family {
        name: "input",
        digit: '0',
        rules: input::RULES,
    },
    Family {
        name: "schema",
        digit: '1',
        rules: schema::RULES,
    },
    Family {
        name: "references",
        digit: '2',
        rules: references::RULES,
    },
    Family {
        name: "policies",
        digit: '3',
        rules: policies::RULES,
    },
    Family {
        name: "security",
        digit: '4',
        rules: security::RULES,
    },
    Family {
        name: "render",
        digit: '5',
        rules: render::RULES,
    },
];

/// Every rule, in family order (which is code order).
pub fn all() -> impl Iterator<Item = &'static Rule> + Clone {
    FAMILIES.iter().flat_map(|f| f.rules.iter().copied())
}

/// The rule with this code (as written, `GW101`), if one is declared.
pub fn rule(code: &str) -> Option<&'static Rule> {
    static SORTED: OnceLock<Vec<&'static Rule>> = OnceLock::new();
    let sorted = SORTED.get_or_init(|| {
        let mut v: Vec<_> = all().collect();
        v.sort_by_key(|r| r.code);
        v
    });
    sorted
        .binary_search_by(|r| r.code.as_str().cmp(code))
        .ok()
        .map(|i| sorted[i])
}
