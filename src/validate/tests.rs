//! Validation tests.
