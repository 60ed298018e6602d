//! CEL rule tests.
