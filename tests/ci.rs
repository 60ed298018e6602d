//! gwctl where CI already lives: the formats other CI systems read (validated against their own
//! published schemas), `lint --watch`, `--version`, the pre-commit hook and the GitHub Action.

#[allow(dead_code)]
#[path = "cli/support.rs"]
mod support;

#[path = "ci/action.rs"]
mod action;
#[path = "ci/formats.rs"]
mod formats;
#[path = "ci/precommit.rs"]
mod precommit;
#[path = "ci/version.rs"]
mod version;
#[path = "ci/watch.rs"]
mod watch;
