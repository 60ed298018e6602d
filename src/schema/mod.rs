//! Schema stage data: each known kind's OpenAPI v3 schema (embedded, generated from CRDs) and the
//! registry that finds the schema of a (group, version, kind).

pub mod bundle;
pub mod compile;
mod cost;
pub mod import;
mod registry;
pub mod transform;

pub use compile::{CompiledSchema, JsonType, SchemaNode};
pub use registry::{ApiGroups, KindSchema, Lookup, Registry};
