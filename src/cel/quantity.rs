//! The Kubernetes quantity library: `quantity("4Gi")`, `isQuantity`, comparisons and
//! arithmetic. Values are exact decimals (an `i128` mantissa and a power of ten), which
//! covers every realistic quantity; a quantity needing more than 36 significant digits is
//! rejected as unparseable rather than rounded.

use std::cmp::Ordering;

use cel::common::types::{self, CelBool, CelDouble, CelInt, Type};
use cel::common::value::{CowVal, StaticVal, Val};
use cel::{DeclarationError, Env, ExecutionError};

use super::k8s_functions::str_arg;
use super::owned;

type Args<'b, 'v> = Vec<CowVal<'b, 'v>>;
type Ret<'b, 'v> = Result<CowVal<'b, 'v>, ExecutionError>;

static QUANTITY_TYPE: Type = Type::new_unspecified_type("kubernetes.Quantity");

/// `mantissa * 10^exp`.
#[derive(Debug, Clone, Copy)]
pub(super) struct Quantity {
    mantissa: i128,
    exp: i32,
}

impl PartialEq for Quantity {
    fn eq(&self, other: &Self) -> bool {
        self.cmp_value(other) == Ordering::Equal
    }
}

impl Val for Quantity {
    fn get_type(&self) -> &Type {
        &QUANTITY_TYPE
    }
    fn cel_type() -> &'static Type {
        &QUANTITY_TYPE
    }
    fn equals(&self, other: &dyn Val) -> bool {
        other.downcast_ref::<Quantity>().is_some_and(|o| o == self)
    }
    fn clone_as_boxed<'v>(&self) -> Box<dyn Val + 'v> {
        Box::new(*self)
    }
    fn as_any(&self) -> Option<&dyn std::any::Any> {
        Some(self)
    }
}
impl StaticVal for Quantity {}

impl Quantity {
    pub(super) fn parse(s: &str) -> Result<Quantity, String> {
        let bad = || {
            format!(
                "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$': {s:?}"
            )
        };
        let (negative, rest) = match s.as_bytes().first() {
            Some(b'-') => (true, &s[1..]),
            Some(b'+') => (false, &s[1..]),
            _ => (false, s),
        };
        let number_end = rest
            .find(|c: char| !(c.is_ascii_digit() || c == '.'))
            .unwrap_or(rest.len());
        let (number, suffix) = rest.split_at(number_end);
        let (int_part, frac_part) = number.split_once('.').unwrap_or((number, ""));
        if (int_part.is_empty() && frac_part.is_empty()) || frac_part.contains('.') {
            return Err(bad());
        }
        let digits = format!("{int_part}{frac_part}");
        let digits = digits.trim_start_matches('0');
        if digits.len() > 36 {
            return Err(bad());
        }
        let mut mantissa: i128 = if digits.is_empty() {
            0
        } else {
            digits.parse().map_err(|_| bad())?
        };
        let mut exp = -(frac_part.len() as i32);
        let binary = |power: u32| 1024i128.checked_pow(power);
        let factor = match suffix {
            "" => None,
            "Ki" => binary(1),
            "Mi" => binary(2),
            "Gi" => binary(3),
            "Ti" => binary(4),
            "Pi" => binary(5),
            "Ei" => binary(6),
            _ => {
                exp += decimal_suffix(suffix).ok_or_else(bad)?;
                None
            }
        };
        if let Some(f) = factor {
            mantissa = mantissa.checked_mul(f).ok_or_else(bad)?;
        }
        if negative {
            mantissa = -mantissa;
        }
        Ok(Quantity { mantissa, exp })
    }

    /// Same value with exponent `exp` (<= self.exp), if it fits.
    fn rescaled(&self, exp: i32) -> Option<i128> {
        let shift = u32::try_from(self.exp - exp).ok()?;
        10i128.checked_pow(shift)?.checked_mul(self.mantissa)
    }

    fn cmp_value(&self, other: &Quantity) -> Ordering {
        let exp = self.exp.min(other.exp);
        match (self.rescaled(exp), other.rescaled(exp)) {
            (Some(a), Some(b)) => a.cmp(&b),
            _ => self
                .as_f64()
                .partial_cmp(&other.as_f64())
                .unwrap_or(Ordering::Equal),
        }
    }

    fn as_f64(&self) -> f64 {
        self.mantissa as f64 * 10f64.powi(self.exp)
    }

    fn as_integer(&self) -> Option<i64> {
        if self.exp >= 0 {
            return i64::try_from(self.rescaled(0)?).ok();
        }
        let divisor = 10i128.checked_pow(u32::try_from(-self.exp).ok()?)?;
        if self.mantissa % divisor != 0 {
            return None;
        }
        i64::try_from(self.mantissa / divisor).ok()
    }

    fn add(&self, other: &Quantity, sign: i128) -> Option<Quantity> {
        let exp = self.exp.min(other.exp);
        let sum = self
            .rescaled(exp)?
            .checked_add(other.rescaled(exp)?.checked_mul(sign)?)?;
        Some(Quantity { mantissa: sum, exp })
    }
}

fn decimal_suffix(suffix: &str) -> Option<i32> {
    Some(match suffix {
        "n" => -9,
        "u" => -6,
        "m" => -3,
        "k" => 3,
        "M" => 6,
        "G" => 9,
        "T" => 12,
        "P" => 15,
        "E" => 18,
        _ => {
            let e = suffix.strip_prefix(['e', 'E'])?;
            let digits = e.strip_prefix(['+', '-']).unwrap_or(e);
            if digits.is_empty() || !digits.chars().all(|c| c.is_ascii_digit()) || digits.len() > 4
            {
                return None;
            }
            e.parse().ok()?
        }
    })
}

pub(super) fn register(env: &mut Env) -> Result<(), DeclarationError> {
    let s = || types::STRING_TYPE.to_owned();
    let q = || QUANTITY_TYPE.to_owned();
    let int = || types::INT_TYPE.to_owned();
    env.add_type(q())?;
    env.add_overload("quantity", "string_to_quantity", vec![s()], to_quantity)?;
    env.add_overload("isQuantity", "is_quantity_string", vec![s()], is_quantity)?;
    env.add_member_overload(
        "isGreaterThan",
        "quantity_is_greater_than",
        q(),
        vec![q()],
        is_greater,
    )?;
    env.add_member_overload(
        "isLessThan",
        "quantity_is_less_than",
        q(),
        vec![q()],
        is_less,
    )?;
    env.add_member_overload(
        "compareTo",
        "quantity_compare_to",
        q(),
        vec![q()],
        compare_to,
    )?;
    env.add_member_overload("sign", "quantity_sign", q(), vec![], sign)?;
    env.add_member_overload("isInteger", "quantity_is_integer", q(), vec![], is_integer)?;
    env.add_member_overload("asInteger", "quantity_as_integer", q(), vec![], as_integer)?;
    env.add_member_overload(
        "asApproximateFloat",
        "quantity_as_float",
        q(),
        vec![],
        as_float,
    )?;
    env.add_member_overload("add", "quantity_add", q(), vec![q()], add)?;
    env.add_member_overload("add", "quantity_add_int", q(), vec![int()], add)?;
    env.add_member_overload("sub", "quantity_sub", q(), vec![q()], sub)?;
    env.add_member_overload("sub", "quantity_sub_int", q(), vec![int()], sub)?;
    Ok(())
}

fn fail(f: &str, msg: impl ToString) -> ExecutionError {
    ExecutionError::function_error(f, msg)
}

fn q_arg(args: &[CowVal<'_, '_>], i: usize, f: &str) -> Result<Quantity, ExecutionError> {
    let arg = args.get(i).ok_or_else(|| fail(f, "missing argument"))?;
    if let Some(q) = arg.downcast_ref::<Quantity>() {
        return Ok(*q);
    }
    if let Some(n) = arg.downcast_ref::<CelInt>() {
        return Ok(Quantity {
            mantissa: i128::from(*n.inner()),
            exp: 0,
        });
    }
    Err(fail(f, "expected a quantity"))
}

fn to_quantity<'b, 'v>(args: Args<'b, 'v>) -> Ret<'b, 'v> {
    let q = Quantity::parse(str_arg(&args, 0, "quantity")?).map_err(|e| fail("quantity", e))?;
    Ok(owned(q))
}

fn is_quantity<'b, 'v>(args: Args<'b, 'v>) -> Ret<'b, 'v> {
    let ok = Quantity::parse(str_arg(&args, 0, "isQuantity")?).is_ok();
    Ok(owned(CelBool::from(ok)))
}

fn ordering<'b, 'v>(args: &Args<'b, 'v>, f: &str) -> Result<Ordering, ExecutionError> {
    Ok(q_arg(args, 0, f)?.cmp_value(&q_arg(args, 1, f)?))
}

fn is_greater<'b, 'v>(args: Args<'b, 'v>) -> Ret<'b, 'v> {
    let o = ordering(&args, "isGreaterThan")?;
    Ok(owned(CelBool::from(o == Ordering::Greater)))
}

fn is_less<'b, 'v>(args: Args<'b, 'v>) -> Ret<'b, 'v> {
    let o = ordering(&args, "isLessThan")?;
    Ok(owned(CelBool::from(o == Ordering::Less)))
}

fn compare_to<'b, 'v>(args: Args<'b, 'v>) -> Ret<'b, 'v> {
    let o = ordering(&args, "compareTo")?;
    Ok(owned(CelInt::from(o as i64)))
}

fn sign<'b, 'v>(args: Args<'b, 'v>) -> Ret<'b, 'v> {
    let q = q_arg(&args, 0, "sign")?;
    Ok(owned(CelInt::from(q.mantissa.signum() as i64)))
}

fn is_integer<'b, 'v>(args: Args<'b, 'v>) -> Ret<'b, 'v> {
    let q = q_arg(&args, 0, "isInteger")?;
    Ok(owned(CelBool::from(q.as_integer().is_some())))
}

fn as_integer<'b, 'v>(args: Args<'b, 'v>) -> Ret<'b, 'v> {
    let q = q_arg(&args, 0, "asInteger")?;
    let i = q
        .as_integer()
        .ok_or_else(|| fail("asInteger", "cannot convert value to integer"))?;
    Ok(owned(CelInt::from(i)))
}

fn as_float<'b, 'v>(args: Args<'b, 'v>) -> Ret<'b, 'v> {
    let q = q_arg(&args, 0, "asApproximateFloat")?;
    Ok(owned(CelDouble::from(q.as_f64())))
}

fn add<'b, 'v>(args: Args<'b, 'v>) -> Ret<'b, 'v> {
    let sum = q_arg(&args, 0, "add")?
        .add(&q_arg(&args, 1, "add")?, 1)
        .ok_or_else(|| fail("add", "quantity overflow"))?;
    Ok(owned(sum))
}

fn sub<'b, 'v>(args: Args<'b, 'v>) -> Ret<'b, 'v> {
    let diff = q_arg(&args, 0, "sub")?
        .add(&q_arg(&args, 1, "sub")?, -1)
        .ok_or_else(|| fail("sub", "quantity overflow"))?;
    Ok(owned(diff))
}
