//! CEL: compiles schema validation rules (x-kubernetes-validations) once and evaluates them
//! against values built from the spanned tree. Owns the Kubernetes CEL function library.
//!
//! Design:
//! * One process-wide [`cel::Env`] (standard library, the strings extension and the Kubernetes
//!   libraries of [`k8s_functions`] and [`quantity`]) is built once and shared through an `Arc`;
//!   evaluating only builds a cheap `Context` that points at it.
//! * A rule is parsed into an AST which [`rewrite`] adjusts once: escaped property names
//!   (`__namespace__`, `a__dash__b`) are unescaped, and `matches` calls go to a
//!   regex-caching implementation. Maps therefore keep their keys verbatim, which keeps
//!   `self.all(key, ...)` over label maps seeing the real keys.
//! * `CompiledRule` holds only the AST and an `Arc<Env>`, both `Send + Sync`.
//!
//! Measured cost (release, 3-element list of maps): about 0.6 us per evaluation of a trivial
//! rule (context plus borrowing conversion of `self`) and 8 us for
//! `self.all(l1, self.exists_one(l2, l1.name == l2.name))` (nine inner iterations).
//!
//! Known differences from the API server: there is no type checker, so a rule naming a field
//! the schema lacks fails when evaluated ("No such key") rather than when compiled; the
//! compile-time estimate ([`CompiledRule::estimated_cost`]) approximates cel-go's units rather
//! than reproducing them, and the runtime budget ([`CompiledRule::cost_bound`]) covers nested
//! loops only and bounds them by the data's largest collection; unescaping also applies to selections on `additionalProperties` maps; `url()` is an
//! approximation of Go's `ParseRequestURI`; the lists/sets/semver/authz libraries are absent.

mod cost;
mod estimate;
mod fast;
mod formats;
mod k8s_functions;
mod nesting;
pub(crate) use nesting::skip_string;
mod net;
mod quantity;
mod rewrite;
mod syntax;
mod values;

#[cfg(test)]
mod corpus_tests;
#[cfg(test)]
mod tests;
#[cfg(test)]
mod tests_fast;
#[cfg(test)]
mod tests_nesting;
#[cfg(test)]
mod tests_syntax;

use std::sync::{Arc, LazyLock};

use cel::common::value::CowVal;
use cel::{Context, Env, Value};

pub use cost::PER_CALL_LIMIT;
pub use estimate::{MAX_REQUEST_BYTES, STATIC_COST_LIMIT, SizeView};
pub use fast::SchemaView;
pub use rewrite::escape as escape_property_name;
pub use syntax::{
    CelLimits, LimitHit, SyntaxError, check_limits, check_syntax, check_syntax_with,
    parse_with_source_info,
};
pub use values::{from_json, list_value, map_value, string_value};

/// `self` converted and bound once, for evaluating several rules on the same value: the
/// conversion walks the whole value, so doing it per rule made validation quadratic-ish in the
/// number of rules of a node.
pub struct BoundSelf<'v> {
    context: Context<'v, 'v>,
}

impl<'v> BoundSelf<'v> {
    /// `Err` only when the shared environment could not be built (reported by every compile too).
    pub fn new(value: &'v CelValue) -> Result<BoundSelf<'v>, String> {
        let mut context = Context::with_env(Arc::clone(env()?));
        context.add_variable_as_val("self", values::to_val(value));
        Ok(BoundSelf { context })
    }
}

/// The value type rules are evaluated on. Schema validation builds these bottom-up.
pub type CelValue = cel::Value;

/// The shared environment; `None` only if registering the library failed (a bug, reported
/// by every compile rather than by a panic).
static ENV: LazyLock<Result<Arc<Env>, String>> = LazyLock::new(build_env);

fn build_env() -> Result<Arc<Env>, String> {
    let mut env = Env::stdlib();
    env.add_extension(cel::extensions::strings)
        .map_err(|e| format!("strings library: {e}"))?;
    k8s_functions::register(&mut env).map_err(|e| format!("kubernetes library: {e}"))?;
    net::register(&mut env).map_err(|e| format!("ip/cidr/url library: {e}"))?;
    quantity::register(&mut env).map_err(|e| format!("quantity library: {e}"))?;
    Ok(Arc::new(env))
}

fn env() -> Result<&'static Arc<Env>, String> {
    ENV.as_ref().map_err(Clone::clone)
}

/// A compiled rule, shareable across threads.
pub struct CompiledRule {
    source: String,
    expr: cel::parser::Expression,
    transition: bool,
    /// The rule compiled for [`fast`], when it uses only what that evaluates: it can then run on
    /// the tree directly.
    fast: Option<fast::Program>,
    cost: cost::CostShape,
    env: Arc<Env>,
}

impl std::fmt::Debug for CompiledRule {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CompiledRule")
            .field("source", &self.source)
            .finish_non_exhaustive()
    }
}

impl CompiledRule {
    /// [`Self::compile_with`] under the default limits.
    pub fn compile(rule: &str) -> Result<CompiledRule, String> {
        Self::compile_with(rule, &CelLimits::default())
    }

    /// Compiles a rule once. `Err` carries a message naming the problem (syntax error, unsupported
    /// function, a limit exceeded).
    pub fn compile_with(rule: &str, limits: &CelLimits) -> Result<CompiledRule, String> {
        let env = env()?;
        let mut expr = syntax::parse_guarded(env, rule, limits).map_err(|e| e.to_string())?;
        rewrite::rewrite(&mut expr).map_err(|e| format!("{rule}: {e}"))?;
        let transition = syntax::references_variable(&expr, "oldSelf");
        let fast = if transition {
            None
        } else {
            fast::compile(&expr)
        };
        Ok(CompiledRule {
            source: rule.to_string(),
            cost: cost::CostShape::of(&expr),
            expr,
            transition,
            fast,
            env: Arc::clone(env),
        })
    }

    pub fn source(&self) -> &str {
        &self.source
    }

    /// True when the rule reads `oldSelf` (a transition rule: skipped offline).
    pub fn is_transition_rule(&self) -> bool {
        self.transition
    }

    /// The bound on one evaluation's cost when no list, map or string of the data has more than
    /// `largest` items, for a rule whose cost can grow faster than its data (nested loops);
    /// `None` for the others, whose cost is linear in the data. A bound over
    /// [`PER_CALL_LIMIT`] means the rule is not evaluated.
    pub fn cost_bound(&self, largest: impl FnOnce() -> usize) -> Option<u64> {
        self.cost.superlinear().then(|| self.cost.bound(largest()))
    }

    /// The API server's estimate of one evaluation's cost when `self` is any value `schema`
    /// admits (see [`estimate`]); over [`STATIC_COST_LIMIT`] the rule is not evaluated.
    pub fn estimated_cost(&self, schema: &dyn SizeView) -> u64 {
        estimate::estimate(&self.expr, schema)
    }

    /// True when [`Self::eval_node`] can evaluate the rule on the tree without a CEL value.
    pub fn is_fast(&self) -> bool {
        self.fast.is_some()
    }

    /// Evaluates on the spanned tree directly, with `schema` supplying defaults. `None` means
    /// "not decided here" (a construct outside the fast subset, or an evaluation error): evaluate
    /// with [`Self::eval`] instead, which also words any error.
    pub fn eval_node(
        &self,
        node: &crate::parse::Node,
        schema: Option<&dyn SchemaView>,
    ) -> Option<bool> {
        fast::eval(self.fast.as_ref()?, node, schema)
    }

    /// Evaluates with `self` bound to `value`. `Ok(false)` means the rule fails.
    pub fn eval(&self, value: &CelValue) -> Result<bool, String> {
        self.with_result(value, |result| match result {
            Value::Bool(b) => Ok(b),
            other => Err(format!("rule evaluated to {}, not a bool", other.type_of())),
        })
    }

    /// Evaluates a `messageExpression`: the result must be a string.
    pub fn eval_string(&self, value: &CelValue) -> Result<String, String> {
        self.with_result(value, |result| match result {
            Value::String(s) => Ok(s.as_ref().clone()),
            other => Err(format!(
                "expression evaluated to {}, not a string",
                other.type_of()
            )),
        })
    }

    /// Evaluates against `self` already bound by [`BoundSelf::new`]: the way to run every rule of
    /// one schema node, converting its value once rather than once per rule.
    pub fn eval_bound(&self, bound: &BoundSelf<'_>) -> Result<bool, String> {
        let result = Value::resolve_val(&self.expr, &bound.context).map_err(|e| e.to_string())?;
        let converted =
            Value::try_from(&*result as &dyn cel::common::value::Val).map_err(|e| e.to_string())?;
        match converted {
            Value::Bool(b) => Ok(b),
            other => Err(format!("rule evaluated to {}, not a bool", other.type_of())),
        }
    }

    fn with_result<T>(
        &self,
        value: &CelValue,
        then: impl FnOnce(Value) -> Result<T, String>,
    ) -> Result<T, String> {
        let mut context = Context::with_env(Arc::clone(&self.env));
        // Borrowing conversion: strings and keys are not copied.
        context.add_variable_as_val("self", values::to_val(value));
        let result = Value::resolve_val(&self.expr, &context).map_err(|e| e.to_string())?;
        let converted =
            Value::try_from(&*result as &dyn cel::common::value::Val).map_err(|e| e.to_string())?;
        then(converted)
    }
}

/// Convenience for the k8s libraries: a value owned by the interpreter.
pub(crate) fn owned<'b, 'v, T: cel::common::value::Val + 'v>(v: T) -> CowVal<'b, 'v> {
    CowVal::owned(v)
}
