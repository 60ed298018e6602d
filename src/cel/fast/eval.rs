//! The evaluator of compiled [`Op`]s, one function per kind of expression: values, field
//! selection, boolean logic, comparisons, arithmetic, indexing, string tests and comprehensions.
//!
//! Why two entry points: most of a rule is boolean logic over comparisons, so [`Scope::truth`]
//! evaluates those to a `bool` directly, without wrapping each step in a value; [`Scope::eval`]
//! makes the values the rest needs. A field of `self` or of a loop variable is read in place,
//! without copying the variable first.

use std::borrow::Cow;

use super::compile::{self, Cmp, Lit, Op, StrTest};
use super::{
    Fallback, R, V, boolean, compare, equal, field, has_field, item, items, len, size, string,
};
use crate::cel::k8s_functions::cached_regex;

pub(super) struct Scope<'a> {
    /// `self` (slot 0).
    pub(super) this: V<'a>,
    /// The comprehensions' variables by slot - 1 (see [`Op::Var`]).
    pub(super) vars: Vec<V<'a>>,
}

type Truth = Result<bool, Fallback>;

impl<'a> Scope<'a> {
    pub(super) fn eval(&mut self, op: &'a Op) -> R<'a> {
        match op {
            Op::Var(slot) => self.var(*slot).cloned(),
            Op::Lit(lit) => Ok(literal(lit)),
            Op::List(elements) => elements
                .iter()
                .map(|e| self.eval(e))
                .collect::<Result<_, _>>()
                .map(V::List),
            Op::Select {
                operand,
                field: name,
                test: false,
            } => self.select(operand, name),
            Op::Comprehension(c) => self.comprehension(c),
            Op::Conditional(ops) => {
                let [c, t, f] = &**ops;
                if self.truth(c)? {
                    self.eval(t)
                } else {
                    self.eval(f)
                }
            }
            Op::Negate(a) => match self.eval(a)? {
                V::Int(i) => i.checked_neg().map(V::Int).ok_or(Fallback),
                V::Double(d) => Ok(V::Double(-d)),
                _ => Err(Fallback),
            },
            Op::Add(ops) => self.add(ops),
            Op::Subtract(ops) => self.subtract(ops),
            Op::Index(ops) => self.index(ops),
            Op::Size(a) => size(&self.eval(a)?),
            Op::Count(c) => self.count(c),
            // The boolean operators.
            Op::Select { test: true, .. }
            | Op::And(_)
            | Op::Or(_)
            | Op::NotStrictlyFalse(_)
            | Op::Not(_)
            | Op::Compare(..)
            | Op::In(_)
            | Op::Str { .. } => self.truth(op).map(V::Bool),
        }
    }

    /// `op` evaluated as a condition: `Err` when it is not a boolean (or not decided here).
    pub(super) fn truth(&mut self, op: &'a Op) -> Truth {
        match op {
            Op::Select {
                operand,
                field: name,
                test: true,
            } => self.has(operand, name),
            Op::And(ops) => self.and(ops),
            Op::Or(ops) => self.or(ops),
            Op::NotStrictlyFalse(a) => Ok(!matches!(self.truth(a), Ok(false))),
            Op::Not(a) => Ok(!self.truth(a)?),
            Op::Compare(cmp, ops) => self.compare(*cmp, ops),
            Op::In(ops) => self.contains(ops),
            Op::Str { test, args, regex } => self.string_test(*test, args, regex.as_deref()),
            Op::Conditional(ops) => {
                let [c, t, f] = &**ops;
                if self.truth(c)? {
                    self.truth(t)
                } else {
                    self.truth(f)
                }
            }
            Op::Lit(Lit::Bool(b)) => Ok(*b),
            _ => boolean(&self.eval(op)?),
        }
    }

    fn var(&self, slot: usize) -> Result<&V<'a>, Fallback> {
        match slot {
            0 => Ok(&self.this),
            _ => self.vars.get(slot - 1).ok_or(Fallback),
        }
    }

    /// `operand.name`: a variable's field is read without copying the variable.
    fn select(&mut self, operand: &'a Op, name: &str) -> R<'a> {
        match operand {
            Op::Var(slot) => field(self.var(*slot)?, name)?.ok_or(Fallback),
            _ => field(&self.eval(operand)?, name)?.ok_or(Fallback),
        }
    }

    /// `has(operand.name)`.
    fn has(&mut self, operand: &'a Op, name: &str) -> Truth {
        match operand {
            Op::Var(slot) => has_field(self.var(*slot)?, name),
            _ => has_field(&self.eval(operand)?, name),
        }
    }

    /// CEL's `&&`: false wins over an error on either side.
    fn and(&mut self, ops: &'a [Op; 2]) -> Truth {
        let [a, b] = ops;
        let left = self.truth(a);
        if matches!(left, Ok(false)) {
            return Ok(false);
        }
        match (left, self.truth(b)) {
            (_, Ok(false)) => Ok(false),
            (Ok(true), Ok(true)) => Ok(true),
            _ => Err(Fallback),
        }
    }

    /// CEL's `||`: true wins over an error on either side.
    fn or(&mut self, ops: &'a [Op; 2]) -> Truth {
        let [a, b] = ops;
        let left = self.truth(a);
        if matches!(left, Ok(true)) {
            return Ok(true);
        }
        match (left, self.truth(b)) {
            (_, Ok(true)) => Ok(true),
            (Ok(false), Ok(false)) => Ok(false),
            _ => Err(Fallback),
        }
    }

    fn compare(&mut self, cmp: Cmp, ops: &'a [Op; 2]) -> Truth {
        let [a, b] = ops;
        let (a, b) = (self.eval(a)?, self.eval(b)?);
        Ok(match cmp {
            Cmp::Eq => equal(&a, &b)?,
            Cmp::Ne => !equal(&a, &b)?,
            Cmp::Lt => compare(&a, &b)?.is_lt(),
            Cmp::Le => compare(&a, &b)?.is_le(),
            Cmp::Gt => compare(&a, &b)?.is_gt(),
            Cmp::Ge => compare(&a, &b)?.is_ge(),
        })
    }

    /// `elem in container`.
    fn contains(&mut self, ops: &'a [Op; 2]) -> Truth {
        let [elem, container] = ops;
        let elem = self.eval(elem)?;
        let mut found = false;
        if let Op::List(elements) = container {
            // `x in ['A', 'B']`: compared one by one, no list built.
            for e in elements {
                found |= match e {
                    Op::Lit(lit) => equal(&elem, &literal(lit))?,
                    _ => equal(&elem, &self.eval(e)?)?,
                };
            }
        } else {
            let container = self.eval(container)?;
            for index in 0..len(&container)? {
                found |= equal(&elem, &item(&container, index)?)?;
            }
        }
        Ok(found)
    }

    fn string_test(
        &mut self,
        test: StrTest,
        args: &'a [Op; 2],
        regex: Option<&regex::Regex>,
    ) -> Truth {
        let [recv, arg] = args;
        let recv = self.eval(recv)?;
        let s = string(&recv)?;
        // A literal argument (nearly always) is read where it is.
        let evaluated;
        let p = match arg {
            Op::Lit(Lit::Str(p)) => &**p,
            _ => {
                evaluated = self.eval(arg)?;
                string(&evaluated)?
            }
        };
        Ok(match test {
            StrTest::Contains => s.contains(p),
            StrTest::StartsWith => s.starts_with(p),
            StrTest::EndsWith => s.ends_with(p),
            StrTest::Matches => match regex {
                Some(re) => re.is_match(s),
                None => cached_regex(p).map_err(|_| Fallback)?.is_match(s),
            },
        })
    }

    fn add(&mut self, ops: &'a [Op; 2]) -> R<'a> {
        let [a, b] = ops;
        match (self.eval(a)?, self.eval(b)?) {
            (V::Int(x), V::Int(y)) => x.checked_add(y).map(V::Int).ok_or(Fallback),
            (V::UInt(x), V::UInt(y)) => x.checked_add(y).map(V::UInt).ok_or(Fallback),
            (V::Double(x), V::Double(y)) => Ok(V::Double(x + y)),
            (V::Str(x), V::Str(y)) => Ok(V::Str(Cow::Owned(format!("{x}{y}")))),
            (x @ (V::List(_) | V::Node(..) | V::Json(..)), y) => {
                let mut out = items(x)?;
                out.extend(items(y)?);
                Ok(V::List(out))
            }
            _ => Err(Fallback),
        }
    }

    fn subtract(&mut self, ops: &'a [Op; 2]) -> R<'a> {
        let [a, b] = ops;
        match (self.eval(a)?, self.eval(b)?) {
            (V::Int(x), V::Int(y)) => x.checked_sub(y).map(V::Int).ok_or(Fallback),
            (V::Double(x), V::Double(y)) => Ok(V::Double(x - y)),
            _ => Err(Fallback),
        }
    }

    /// `list[index]` or `map[key]`.
    fn index(&mut self, ops: &'a [Op; 2]) -> R<'a> {
        let [a, i] = ops;
        let container = self.eval(a)?;
        match self.eval(i)? {
            V::Int(idx) => item(&container, usize::try_from(idx).map_err(|_| Fallback)?),
            V::Str(key) => field(&container, &key)?.ok_or(Fallback),
            _ => Err(Fallback),
        }
    }

    fn comprehension(&mut self, c: &'a compile::Comprehension) -> R<'a> {
        // Items are read one at a time: no vector of them. Reading one can fall back (a YAML 1.1
        // boolean) only if the loop gets that far, which is when its value matters.
        let range = self.eval(&c.range)?;
        let count = len(&range)?;
        let accu = self.eval(&c.accu_init);
        // `self` is slot 0, so the accumulator's slot c.accu is vars[c.accu - 1]; slots below
        // it belong to enclosing scopes.
        let at = c.accu.checked_sub(1).ok_or(Fallback)?;
        self.vars.truncate(at);
        self.vars.push(accu.unwrap_or(V::Null));
        let mut result = Ok(());
        for index in 0..count {
            let item = match item(&range, index) {
                Ok(item) => item,
                Err(e) => {
                    result = Err(e);
                    break;
                }
            };
            self.vars.truncate(at + 1);
            self.vars.push(item);
            match self.truth(&c.loop_cond) {
                Ok(true) => {}
                Ok(false) => break,
                Err(e) => {
                    result = Err(e);
                    break;
                }
            }
            match self.eval(&c.loop_step) {
                Ok(v) => self.vars[at] = v,
                Err(e) => {
                    result = Err(e);
                    break;
                }
            }
        }
        self.vars.truncate(at + 1);
        let out = result.and_then(|()| self.eval(&c.result));
        self.vars.truncate(at);
        out
    }
}

impl<'a> Scope<'a> {
    /// [`Op::Count`]: every item read and tested as the filter would (any error falls back),
    /// none collected.
    fn count(&mut self, c: &'a compile::Count) -> R<'a> {
        // The accumulator's slot is c.item - 1, vars[c.item - 2] (slot 0 is `self`).
        let at = c.item.checked_sub(2).ok_or(Fallback)?;
        let counted = self.count_items(c, at);
        self.vars.truncate(at);
        i64::try_from(counted?).map(V::Int).map_err(|_| Fallback)
    }

    fn count_items(&mut self, c: &'a compile::Count, at: usize) -> Result<usize, Fallback> {
        let mut n = 0;
        let mut test = |scope: &mut Self, item: V<'a>| -> Result<(), Fallback> {
            // Bound after the item is made: making it may run a comprehension of its own
            // in these slots.
            scope.vars.truncate(at);
            scope.vars.push(V::Null);
            scope.vars.push(item);
            n += usize::from(scope.truth(&c.pred)?);
            Ok(())
        };
        if let Op::List(elements) = &c.range {
            // `[a, b].filter(...)`: no list built for the range either.
            for e in elements {
                let item = self.eval(e)?;
                test(self, item)?;
            }
        } else {
            let range = self.eval(&c.range)?;
            for index in 0..len(&range)? {
                test(self, item(&range, index)?)?;
            }
        }
        Ok(n)
    }
}

fn literal(lit: &Lit) -> V<'_> {
    match lit {
        Lit::Null => V::Null,
        Lit::Bool(b) => V::Bool(*b),
        Lit::Int(i) => V::Int(*i),
        Lit::UInt(u) => V::UInt(*u),
        Lit::Double(d) => V::Double(*d),
        Lit::Str(s) => V::Str(Cow::Borrowed(s)),
    }
}
