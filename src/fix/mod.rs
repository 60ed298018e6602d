//! `gwctl lint --fix`: applies the fixes findings carry (see [`crate::diag::Fix`]) in rounds of
//! lint, choose, edit, until no fix is left or the bound is reached; then writes the changed files
//! atomically ([`write`]) or prints them as a unified diff ([`diff`]).

pub mod diff;
pub mod edits;
mod rounds;
pub mod write;

pub use edits::{Selection, apply, choose};
pub use rounds::{Changed, FixOutcome, MAX_ROUNDS, fix_paths};
