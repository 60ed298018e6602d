//! The compile-time cost estimate of a rule, as the API server makes it when a CRD is created:
//! the worst case over every value the schema admits. A list, map or string without `maxItems`,
//! `maxProperties` or `maxLength` is as large as fits in one request (3 MiB), so three nested
//! loops over an unbounded list of integers are about (1.5 million)^3 steps. A rule whose
//! estimate exceeds [`STATIC_COST_LIMIT`] is refused by the API server (the CRD is rejected),
//! and gwctl does not run it.
//!
//! The units follow cel-go's estimator closely enough for its verdicts: a variable or field
//! read costs 1, a call 1 plus its arguments, a string or list traversal (equality, `contains`,
//! concatenation) a tenth of its length, `s.matches(re)` the traversal times a quarter of the pattern's
//! length, a list literal 10 and a map literal 30; a loop costs its range's size times its body.

use cel::common::ast::{EntryExpr, Expr, LiteralValue, operators};
use cel::parser::Expression;

use super::k8s_functions::CACHED_MATCHES;

/// The API server's limit on one rule's estimated cost (`StaticEstimatedCostLimit`).
pub const STATIC_COST_LIMIT: u64 = 10_000_000;

/// Request size the API server assumes for unbounded values (`MaxRequestSizeBytes`).
pub const MAX_REQUEST_BYTES: u64 = 3 * 1024 * 1024;

/// The length a map key counts for.
const MAP_KEY_BYTES: u64 = 63;

/// What the estimate reads of a schema: how large each value can be.
pub trait SizeView {
    /// The schema of an object's field (declared, or of an `additionalProperties` map).
    fn field(&self, name: &str) -> Option<&dyn SizeView>;
    /// The schema of a list's items or a map's values.
    fn element(&self) -> Option<&dyn SizeView>;
    /// The most items, entries or characters a value of this schema can have.
    fn max_size(&self) -> u64;
    /// True for a map: iterating it yields its keys, not its values.
    fn is_map(&self) -> bool;
}

/// What is known of an expression: its cost, and how large its value can be.
#[derive(Clone, Copy)]
struct Estimate<'s> {
    cost: u64,
    size: u64,
    schema: Option<&'s dyn SizeView>,
}

impl<'s> Estimate<'s> {
    fn scalar(cost: u64) -> Self {
        Estimate {
            cost,
            size: 1,
            schema: None,
        }
    }

    fn of(schema: Option<&'s dyn SizeView>, cost: u64) -> Self {
        Estimate {
            cost,
            size: schema.map_or(1, SizeView::max_size),
            schema,
        }
    }
}

/// The estimated cost of one evaluation of `expr` with `self` described by `schema`.
pub fn estimate(expr: &Expression, schema: &dyn SizeView) -> u64 {
    let mut scope = vec![("self".to_string(), Estimate::of(Some(schema), 0))];
    Estimator { scope: &mut scope }.expr(expr).cost
}

/// A tenth of a length, rounded up: cel-go's cost of traversing a string or list.
fn traversal(len: u64) -> u64 {
    len.div_ceil(10)
}

struct Estimator<'a, 's> {
    /// Variables in scope, innermost last.
    scope: &'a mut Vec<(String, Estimate<'s>)>,
}

impl<'s> Estimator<'_, 's> {
    /// Walks the expression (its depth is bounded by the CEL nesting limit checked before parsing).
    fn expr(&mut self, expr: &Expression) -> Estimate<'s> {
        match &expr.expr {
            Expr::Ident(name) => {
                let var = self.scope.iter().rev().find(|(n, _)| n == name);
                Estimate {
                    cost: 1,
                    ..var.map_or(Estimate::scalar(1), |(_, e)| *e)
                }
            }
            Expr::Literal(LiteralValue::String(s)) => Estimate {
                cost: 0,
                size: s.inner().len() as u64,
                schema: None,
            },
            Expr::Literal(_) | Expr::Unspecified => Estimate::scalar(0),
            Expr::Select(select) => {
                let operand = self.expr(&select.operand);
                let cost = operand.cost.saturating_add(1);
                if select.test {
                    return Estimate::scalar(cost);
                }
                Estimate::of(operand.schema.and_then(|s| s.field(&select.field)), cost)
            }
            Expr::List(list) => {
                let cost = list
                    .elements
                    .iter()
                    .fold(10u64, |c, e| c.saturating_add(self.expr(e).cost));
                Estimate {
                    cost,
                    size: list.elements.len() as u64,
                    schema: None,
                }
            }
            Expr::Map(map) => self.entries(&map.entries),
            Expr::Struct(s) => self.entries(&s.entries),
            Expr::Call(call) => self.call(&call.func_name, call.target.as_deref(), &call.args),
            Expr::Comprehension(c) => {
                let range = self.expr(&c.iter_range);
                let init = self.expr(&c.accu_init);
                // The loop variable. A map's keys count as short strings: the API server's
                // estimate does not charge their length (label maps bounded by maxProperties
                // and checked key by key with `matches` pass it).
                let item = match range.schema {
                    Some(s) if s.is_map() => Estimate {
                        cost: 0,
                        size: MAP_KEY_BYTES,
                        schema: None,
                    },
                    Some(s) => Estimate::of(s.element(), 0),
                    None => Estimate::scalar(0),
                };
                let accu = Estimate {
                    cost: 0,
                    size: range.size,
                    schema: None,
                };
                let depth = self.scope.len();
                self.scope.push((c.iter_var.clone(), item));
                if let Some(second) = &c.iter_var2 {
                    self.scope.push((second.clone(), item));
                }
                self.scope.push((c.accu_var.clone(), accu));
                let body = self
                    .expr(&c.loop_cond)
                    .cost
                    .saturating_add(self.expr(&c.loop_step).cost);
                let result = self.expr(&c.result);
                self.scope.truncate(depth);
                let cost = range
                    .cost
                    .saturating_add(init.cost)
                    .saturating_add(range.size.saturating_mul(body))
                    .saturating_add(result.cost);
                Estimate { cost, ..result }
            }
        }
    }

    fn entries(&mut self, entries: &[cel::common::ast::IdedEntryExpr]) -> Estimate<'s> {
        let mut cost = 30u64;
        for e in entries {
            let parts = match &e.expr {
                EntryExpr::StructField(f) => self.expr(&f.value).cost,
                EntryExpr::MapEntry(m) => self
                    .expr(&m.key)
                    .cost
                    .saturating_add(self.expr(&m.value).cost),
            };
            cost = cost.saturating_add(parts);
        }
        Estimate {
            cost,
            size: entries.len() as u64,
            schema: None,
        }
    }

    fn call(
        &mut self,
        name: &str,
        target: Option<&Expression>,
        args: &[Expression],
    ) -> Estimate<'s> {
        let target = target.map(|t| self.expr(t));
        let args: Vec<Estimate<'s>> = args.iter().map(|a| self.expr(a)).collect();
        let operands = target.iter().chain(&args);
        let sum = operands.clone().fold(0u64, |c, e| c.saturating_add(e.cost));
        let subject = target.or_else(|| args.first().copied());
        let subject_size = subject.map_or(1, |s| s.size);
        match (name, args.as_slice()) {
            (operators::CONDITIONAL, [c, t, f]) => {
                let branch = t.cost.max(f.cost);
                let larger = if t.size >= f.size { t } else { f };
                Estimate {
                    cost: c.cost.saturating_add(branch),
                    ..*larger
                }
            }
            (operators::LOGICAL_AND | operators::LOGICAL_OR, _) => Estimate::scalar(sum),
            (operators::INDEX, [container, _]) => Estimate::of(
                container.schema.and_then(SizeView::element),
                sum.saturating_add(1),
            ),
            (operators::EQUALS | operators::NOT_EQUALS, [a, b]) => {
                Estimate::scalar(sum.saturating_add(1 + traversal(a.size.min(b.size))))
            }
            (operators::ADD, [a, b]) => Estimate {
                cost: sum.saturating_add(1 + traversal(a.size.saturating_add(b.size))),
                size: a.size.saturating_add(b.size),
                schema: None,
            },
            (operators::IN, [_, container]) => {
                let scan = match container.schema {
                    Some(s) if s.is_map() => 1,
                    _ => container.size,
                };
                Estimate::scalar(sum.saturating_add(scan))
            }
            // Only the method form is charged for the regex: cel-go prices the function form
            // `matches(s, re)` as an ordinary call, and CRDs in use rely on that.
            ("matches" | CACHED_MATCHES, _) if target.is_some() => {
                let pattern = args.last().map_or(1, |p| p.size);
                let steps =
                    (1 + traversal(subject_size)).saturating_mul(pattern.div_ceil(4).max(1));
                Estimate::scalar(sum.saturating_add(steps))
            }
            // Functions that read their subject string through once; some return a string or
            // list about as long.
            (
                "contains" | "startsWith" | "endsWith" | "indexOf" | "lastIndexOf" | "lowerAscii"
                | "upperAscii" | "trim" | "replace" | "split" | "substring" | "join" | "reverse"
                | "quote" | "format" | "isURL" | "url" | "isIP" | "ip" | "isCIDR" | "cidr"
                | "isQuantity" | "quantity" | "isSemver" | "semver" | "charAt",
                _,
            ) => Estimate {
                cost: sum.saturating_add(1 + traversal(subject_size)),
                size: subject_size,
                schema: None,
            },
            _ => Estimate::scalar(sum.saturating_add(1)),
        }
    }
}
