//! Schema stage data: each known kind's OpenAPI v3 schema (embedded, generated from CRDs) and the
//! registry that finds the schema of a (group, version, kind).
//!
//! INTERFACE STUB: replaced by the real registry.

/// The compiled schema of one version of one kind.
pub struct KindSchema {
    pub group: String,
    pub version: String,
    pub kind: String,
}

pub enum Lookup<'r> {
    Found(&'r KindSchema),
    /// The kind exists in other versions only.
    UnknownVersion {
        known: Vec<String>,
    },
    /// The group is known but has no such kind.
    UnknownKind,
    /// The group is not one gwctl checks.
    UnknownGroup,
}

pub struct Registry {}

impl Registry {
    /// The schemas built into gwctl (Gateway API, core kinds), compiled lazily per kind.
    pub fn builtin() -> &'static Registry {
        static R: Registry = Registry {};
        &R
    }

    pub fn lookup(&self, _group: &str, _version: &str, _kind: &str) -> Lookup<'_> {
        Lookup::UnknownGroup
    }
}
