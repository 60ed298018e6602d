//! Validate stage: walks a resource's spanned tree against its kind's schema and returns findings
//! in the API server's wording, each at the exact key or value.

use crate::diag::Diagnostic;
use crate::model::Resource;
use crate::schema::KindSchema;

/// All schema findings for one resource (types, unknown fields, bounds, enums, patterns, list keys,
/// combinators, CEL rules, metadata).
pub fn validate_resource(_resource: &Resource<'_>, _schema: &KindSchema) -> Vec<Diagnostic> {
    Vec::new()
}
