//! The nesting pre-scan: what it counts, shape by shape.

use super::nesting::first_beyond;

/// The depth the pre-scan assigns: the smallest limit that accepts the expression.
fn depth(expr: &str) -> usize {
    (0..=expr.len())
        .find(|&max| first_beyond(expr, max).is_none())
        .unwrap_or(usize::MAX)
}

#[test]
fn brackets_count_one_each() {
    assert_eq!(depth("1"), 0);
    assert_eq!(depth("((1))"), 2);
    assert_eq!(depth("[[1], {'a': [2]}]"), 3);
    assert_eq!(depth("f(g(h(1)))"), 3);
}

#[test]
fn chains_nest() {
    // Binary operators: the left operand of each is the chain so far.
    assert_eq!(depth("1 + 2 + 3 + 4"), 3);
    assert_eq!(depth("a == b"), 1);
    assert_eq!(depth("x in y"), 1);
    // Selections, calls and indexes of one operand.
    assert_eq!(depth("a.b.c"), 2);
    assert_eq!(depth("a[0][1]"), 3);
    assert_eq!(depth("a.size().b"), 2);
    // Unary operators, and ternaries, which nest to the right.
    assert_eq!(depth("!!!x"), 3);
    assert_eq!(depth("- -1"), 2);
    assert_eq!(depth("a ? 1 : b ? 2 : 3"), 2);
    // An operand's selections do not add to the next operand's.
    assert_eq!(depth("a.b.c + d.e"), 2);
}

#[test]
fn siblings_do_not_nest() {
    assert_eq!(depth("a.b && c.d && e.f || g.h"), 1);
    assert_eq!(depth("f(a.b.c, d.e.f)"), 3);
    assert_eq!(depth("(a.b.c) + 1"), 3);
}

#[test]
fn literals_are_not_operators() {
    assert_eq!(depth("'((((' + \"a.b.c\""), 1);
    assert_eq!(depth("r'\\(' == '''((('''"), 1);
    assert_eq!(depth("1.5 + 2e-3"), 2);
    assert_eq!(depth("a - b"), 1);
    assert_eq!(depth("a != b"), 1);
    assert_eq!(depth("items.index"), 1);
}

#[test]
fn position_is_where_the_limit_is_passed() {
    assert_eq!(first_beyond("a.b.c", 1), Some(3));
    assert_eq!(first_beyond("((1))", 1), Some(1));
    assert_eq!(first_beyond("x && 1 + 2 + 3", 1), Some(11));
    assert_eq!(first_beyond("'(((' + 1", 0), Some(6));
}
