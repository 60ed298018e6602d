//! A bound on what one evaluation of a rule costs, in the spirit of the API server's CEL cost
//! limit: nested comprehensions (`all`, `exists`, `map`, ...) multiply, so a rule with three
//! nested loops over 1,000 items does 10^9 steps. The shape of the expression is measured once
//! when it is compiled; the data's size is known only when the rule is evaluated.

use cel::common::ast::{EntryExpr, Expr};
use cel::parser::Expression;

/// Units one evaluation may cost: the API server's per-call limit (`celconfig.PerCallLimit`).
pub const PER_CALL_LIMIT: u64 = 1_000_000;

/// How an expression's cost grows with its data.
#[derive(Debug, Clone, Copy, Default)]
pub struct CostShape {
    /// Comprehensions nested inside each other, at the deepest.
    pub nesting: u32,
    /// Nodes of the expression: the cost of one pass through it.
    pub size: u64,
}

impl CostShape {
    pub fn of(expr: &Expression) -> CostShape {
        let mut shape = CostShape::default();
        measure(expr, 0, &mut shape);
        shape
    }

    /// Whether the cost can grow faster than the data (two loops or more, one inside the other).
    /// A rule with one loop costs its data's size times its own: linear in the input, which the
    /// size limits bound already.
    pub fn superlinear(&self) -> bool {
        self.nesting >= 2
    }

    /// The cost bound when no list, map or string in the data has more than `largest` items:
    /// each loop runs at most `largest` times.
    pub fn bound(&self, largest: usize) -> u64 {
        let per_loop = (largest as u64).max(1);
        (0..self.nesting).fold(self.size.max(1), |cost, _| cost.saturating_mul(per_loop))
    }
}

/// Walks the expression (its depth is bounded by the CEL nesting limit checked before parsing).
fn measure(expr: &Expression, depth: u32, shape: &mut CostShape) {
    shape.size += 1;
    shape.nesting = shape.nesting.max(depth);
    match &expr.expr {
        Expr::Call(call) => {
            if let Some(target) = &call.target {
                measure(target, depth, shape);
            }
            for arg in &call.args {
                measure(arg, depth, shape);
            }
        }
        Expr::Select(select) => measure(&select.operand, depth, shape),
        Expr::List(list) => {
            for e in &list.elements {
                measure(e, depth, shape);
            }
        }
        Expr::Map(map) => entries(&map.entries, depth, shape),
        Expr::Struct(s) => entries(&s.entries, depth, shape),
        Expr::Comprehension(c) => {
            measure(&c.iter_range, depth, shape);
            measure(&c.accu_init, depth, shape);
            measure(&c.loop_cond, depth + 1, shape);
            measure(&c.loop_step, depth + 1, shape);
            measure(&c.result, depth, shape);
        }
        Expr::Ident(_) | Expr::Literal(_) | Expr::Unspecified => {}
    }
}

fn entries(entries: &[cel::common::ast::IdedEntryExpr], depth: u32, shape: &mut CostShape) {
    for e in entries {
        match &e.expr {
            EntryExpr::StructField(f) => measure(&f.value, depth, shape),
            EntryExpr::MapEntry(m) => {
                measure(&m.key, depth, shape);
                measure(&m.value, depth, shape);
            }
        }
    }
}
