//! The registry and the rule table agree; per-rule behaviour is tested through the examples
//! (`src/diag/examples_security.rs`) and `tests/security.rs`.

use super::CHECKS;
use crate::diag::RULES;

#[test]
fn every_gw4xx_code_has_one_check() {
    let table: Vec<&str> = RULES
        .iter()
        .map(|r| r.code)
        .filter(|c| c.starts_with("GW4"))
        .collect();
    let registry: Vec<&str> = CHECKS.iter().map(|(c, _)| *c).collect();
    assert_eq!(table, registry);
}
