//! Compiles a rule's CEL tree once into [`Op`]s: function names resolved to operations,
//! variables to stack slots and literal `matches` patterns to regexes, so that evaluating a rule
//! on each of 100,000 objects compares no names and takes no lock.

use std::sync::Arc;

use cel::IdedExpr as Expression;
use cel::common::ast::{Expr, LiteralValue, operators};
use regex::Regex;

use super::super::k8s_functions::{CACHED_MATCHES, cached_regex};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(in crate::cel) enum Cmp {
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(in crate::cel) enum StrTest {
    Contains,
    StartsWith,
    EndsWith,
    Matches,
}

#[derive(Debug)]
pub(in crate::cel) enum Lit {
    Null,
    Bool(bool),
    Int(i64),
    UInt(u64),
    Double(f64),
    Str(Box<str>),
}

#[derive(Debug)]
pub(in crate::cel) enum Op {
    /// A variable by its slot: `self` is 0; each comprehension adds its accumulator and item.
    Var(usize),
    Lit(Lit),
    List(Vec<Op>),
    /// `operand.field`, or `has(operand.field)` with `test`.
    Select {
        operand: Box<Op>,
        field: Box<str>,
        test: bool,
    },
    And(Box<[Op; 2]>),
    Or(Box<[Op; 2]>),
    Conditional(Box<[Op; 3]>),
    NotStrictlyFalse(Box<Op>),
    Not(Box<Op>),
    Negate(Box<Op>),
    Compare(Cmp, Box<[Op; 2]>),
    Add(Box<[Op; 2]>),
    Subtract(Box<[Op; 2]>),
    Index(Box<[Op; 2]>),
    In(Box<[Op; 2]>),
    Size(Box<Op>),
    /// `range.filter(v, pred).size()`, counted without collecting (see [`Count`]).
    Count(Box<Count>),
    /// `s.contains(p)` ...; `regex` is the pattern compiled ahead when it is a literal.
    Str {
        test: StrTest,
        args: Box<[Op; 2]>,
        regex: Option<Arc<Regex>>,
    },
    Comprehension(Box<Comprehension>),
}

#[derive(Debug)]
pub(in crate::cel) struct Comprehension {
    pub range: Op,
    pub accu_init: Op,
    /// The accumulator's slot; the item's is the next one.
    pub accu: usize,
    pub loop_cond: Op,
    pub loop_step: Op,
    pub result: Op,
}

/// `range.filter(v, pred).size()`: the items `pred` holds for, counted. The filter macro's
/// accumulator is a list cloned and extended on every step, which cost more than the rest of
/// such a rule. The predicate reads the item from slot `item`; the accumulator's slot below it
/// is `@result`, a name CEL source cannot spell, so the predicate never reads it.
#[derive(Debug)]
pub(in crate::cel) struct Count {
    pub range: Op,
    pub item: usize,
    pub pred: Op,
}

/// The compiled rule, or `None` when it uses a construct outside the fast subset.
pub(in crate::cel) fn compile(expr: &Expression) -> Option<Op> {
    Compiler {
        scope: vec!["self"],
    }
    .op(expr)
}

struct Compiler<'e> {
    /// Variable names by slot.
    scope: Vec<&'e str>,
}

impl<'e> Compiler<'e> {
    fn op(&mut self, expr: &'e Expression) -> Option<Op> {
        Some(match &expr.expr {
            Expr::Ident(name) => Op::Var(self.scope.iter().rposition(|n| n == name)?),
            Expr::Literal(lit) => Op::Lit(match lit {
                LiteralValue::Boolean(b) => Lit::Bool(**b),
                LiteralValue::Int(i) => Lit::Int(**i),
                LiteralValue::UInt(u) => Lit::UInt(**u),
                LiteralValue::Double(d) => Lit::Double(**d),
                LiteralValue::String(s) => Lit::Str(s.inner().into()),
                LiteralValue::Null => Lit::Null,
                LiteralValue::Bytes(_) => return None,
            }),
            Expr::List(list) if list.optional_indices.is_empty() => Op::List(
                list.elements
                    .iter()
                    .map(|e| self.op(e))
                    .collect::<Option<_>>()?,
            ),
            Expr::Select(sel) => Op::Select {
                operand: Box::new(self.op(&sel.operand)?),
                field: sel.field.as_str().into(),
                test: sel.test,
            },
            Expr::Call(call) => self.call(&call.func_name, call.target.as_deref(), &call.args)?,
            Expr::Comprehension(c) if c.iter_var2.is_none() => {
                let range = self.op(&c.iter_range)?;
                let accu_init = self.op(&c.accu_init)?;
                let accu = self.scope.len();
                self.scope.push(&c.accu_var);
                self.scope.push(&c.iter_var);
                let body = (|| Some((self.op(&c.loop_cond)?, self.op(&c.loop_step)?)))();
                // The result sees the accumulator, not the item.
                self.scope.truncate(accu + 1);
                let result = self.op(&c.result);
                self.scope.truncate(accu);
                let (loop_cond, loop_step) = body?;
                Op::Comprehension(Box::new(Comprehension {
                    range,
                    accu_init,
                    accu,
                    loop_cond,
                    loop_step,
                    result: result?,
                }))
            }
            Expr::List(_)
            | Expr::Comprehension(_)
            | Expr::Map(_)
            | Expr::Struct(_)
            | Expr::Unspecified => return None,
        })
    }

    fn two(&mut self, a: &'e Expression, b: &'e Expression) -> Option<Box<[Op; 2]>> {
        Some(Box::new([self.op(a)?, self.op(b)?]))
    }

    fn one(&mut self, a: &'e Expression) -> Option<Box<Op>> {
        self.op(a).map(Box::new)
    }

    fn call(
        &mut self,
        name: &str,
        target: Option<&'e Expression>,
        args: &'e [Expression],
    ) -> Option<Op> {
        let compare = |c| move |ops| Op::Compare(c, ops);
        Some(match (name, target, args) {
            (operators::LOGICAL_AND, None, [a, b]) => Op::And(self.two(a, b)?),
            (operators::LOGICAL_OR, None, [a, b]) => Op::Or(self.two(a, b)?),
            (operators::CONDITIONAL, None, [c, t, f]) => {
                Op::Conditional(Box::new([self.op(c)?, self.op(t)?, self.op(f)?]))
            }
            (operators::NOT_STRICTLY_FALSE, None, [a]) => Op::NotStrictlyFalse(self.one(a)?),
            (operators::LOGICAL_NOT, None, [a]) => Op::Not(self.one(a)?),
            (operators::NEGATE, None, [a]) => Op::Negate(self.one(a)?),
            (operators::EQUALS, None, [a, b]) => compare(Cmp::Eq)(self.two(a, b)?),
            (operators::NOT_EQUALS, None, [a, b]) => compare(Cmp::Ne)(self.two(a, b)?),
            (operators::LESS, None, [a, b]) => compare(Cmp::Lt)(self.two(a, b)?),
            (operators::LESS_EQUALS, None, [a, b]) => compare(Cmp::Le)(self.two(a, b)?),
            (operators::GREATER, None, [a, b]) => compare(Cmp::Gt)(self.two(a, b)?),
            (operators::GREATER_EQUALS, None, [a, b]) => compare(Cmp::Ge)(self.two(a, b)?),
            (operators::ADD, None, [a, b]) => Op::Add(self.two(a, b)?),
            (operators::SUBSTRACT, None, [a, b]) => Op::Subtract(self.two(a, b)?),
            (operators::INDEX, None, [a, i]) => Op::Index(self.two(a, i)?),
            (operators::IN, None, [e, c]) => Op::In(self.two(e, c)?),
            ("size", None, [a]) | ("size", Some(a), []) => size_of(self.op(a)?),
            ("contains" | "startsWith" | "endsWith" | CACHED_MATCHES, Some(recv), [arg])
            | (CACHED_MATCHES, None, [recv, arg]) => {
                let test = match name {
                    "contains" => StrTest::Contains,
                    "startsWith" => StrTest::StartsWith,
                    "endsWith" => StrTest::EndsWith,
                    _ => StrTest::Matches,
                };
                let regex = match (&test, &arg.expr) {
                    // A pattern that does not compile is left to the full engine, which words it.
                    (StrTest::Matches, Expr::Literal(LiteralValue::String(p))) => {
                        Some(cached_regex(p.inner()).ok()?)
                    }
                    _ => None,
                };
                Op::Str {
                    test,
                    args: self.two(recv, arg)?,
                    regex,
                }
            }
            _ => return None,
        })
    }
}

/// `size(inner)`: a count when `inner` is a filter macro's comprehension.
fn size_of(inner: Op) -> Op {
    match inner {
        Op::Comprehension(c) if is_filter(&c) => {
            let c = *c;
            match c.loop_step {
                Op::Conditional(ops) => {
                    let [pred, _, _] = *ops;
                    Op::Count(Box::new(Count {
                        range: c.range,
                        item: c.accu + 1,
                        pred,
                    }))
                }
                // Not a filter after all (`is_filter` checked): the comprehension as it was.
                loop_step => Op::Size(Box::new(Op::Comprehension(Box::new(Comprehension {
                    loop_step,
                    ..c
                })))),
            }
        }
        other => Op::Size(Box::new(other)),
    }
}

/// Whether `c` is what the filter macro expands to: accumulator `[]`, condition `true`, step
/// `pred ? accu + [item] : accu`, result `accu`.
fn is_filter(c: &Comprehension) -> bool {
    let (accu, item) = (c.accu, c.accu + 1);
    let is_accu = |op: &Op| matches!(op, Op::Var(slot) if *slot == accu);
    let step = match &c.loop_step {
        Op::Conditional(ops) => match &**ops {
            [_, Op::Add(add), keep] if is_accu(keep) => match &**add {
                [a, Op::List(l)] if is_accu(a) => {
                    matches!(l.as_slice(), [Op::Var(slot)] if *slot == item)
                }
                _ => false,
            },
            _ => false,
        },
        _ => false,
    };
    step && matches!(&c.accu_init, Op::List(l) if l.is_empty())
        && matches!(c.loop_cond, Op::Lit(Lit::Bool(true)))
        && is_accu(&c.result)
}
