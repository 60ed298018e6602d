//! Unit tests of config parsing; discovery and the CLI flag are tested in tests/config.rs.
