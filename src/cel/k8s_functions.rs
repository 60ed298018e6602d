//! The Kubernetes CEL libraries the rules need beyond the standard library and the strings
//! extension: a regex cache behind `matches` (plus `find`/`findAll`), and the `format`
//! library (`format.dns1123Label().validate(s)` and friends).

use std::collections::HashMap;
use std::sync::{Arc, LazyLock, RwLock};

use cel::common::types::{self, CelBool, CelList, CelOptional, CelString, Type};
use cel::common::value::{CowVal, StaticVal, Val};
use cel::{DeclarationError, Env, ExecutionError};
use regex::Regex;

use super::owned;

/// Internal name the `matches` calls are renamed to (not writable in CEL source).
pub(super) const CACHED_MATCHES: &str = "@matches";

type Args<'b, 'v> = Vec<CowVal<'b, 'v>>;
type Ret<'b, 'v> = Result<CowVal<'b, 'v>, ExecutionError>;

pub(super) fn register(env: &mut Env) -> Result<(), DeclarationError> {
    let s = || types::STRING_TYPE.to_owned();
    env.add_overload(CACHED_MATCHES, "@matches_string", vec![s(), s()], matches)?;
    env.add_member_overload(CACHED_MATCHES, "@string_matches", s(), vec![s()], matches)?;
    env.add_member_overload("find", "string_find_string", s(), vec![s()], find)?;
    env.add_member_overload("findAll", "string_find_all", s(), vec![s()], find_all)?;
    env.add_member_overload(
        "findAll",
        "string_find_all_n",
        s(),
        vec![s(), types::INT_TYPE.to_owned()],
        find_all,
    )?;
    register_format(env)
}

// ---------------------------------------------------------------------------------------
// Arguments

pub(super) fn str_arg<'a>(
    args: &'a [CowVal<'_, '_>],
    i: usize,
    f: &str,
) -> Result<&'a str, ExecutionError> {
    args.get(i)
        .and_then(|a| a.downcast_ref::<CelString>())
        .map(|s| s.inner())
        .ok_or_else(|| ExecutionError::function_error(f, "expected a string argument"))
}

pub(super) fn int_arg(args: &[CowVal<'_, '_>], i: usize, f: &str) -> Result<i64, ExecutionError> {
    args.get(i)
        .and_then(|a| a.downcast_ref::<types::CelInt>())
        .map(|n| *n.inner())
        .ok_or_else(|| ExecutionError::function_error(f, "expected an int argument"))
}

pub(super) fn string_list<'b, 'v>(items: Vec<String>) -> CowVal<'b, 'v> {
    let items: Vec<Box<dyn Val + 'v>> = items
        .into_iter()
        .map(|s| Box::new(CelString::from(s)) as Box<dyn Val + 'v>)
        .collect();
    owned(CelList::from(items))
}

// ---------------------------------------------------------------------------------------
// Regular expressions

/// Compiled regexes by pattern. Bounded: past the limits, patterns are compiled per call.
static REGEX_CACHE: LazyLock<RwLock<HashMap<String, Arc<Regex>>>> =
    LazyLock::new(|| RwLock::new(HashMap::new()));
/// The patterns of a rule set are a few dozen short literals. Patterns that come from the data
/// (`self.matches(self.pattern)`) are distinct per object, and one compiled regex can take
/// megabytes: with 4096 entries and no length bound, the `cel_check` fuzz target's memory kept
/// growing until the cache was full (to 1 GB, where the other targets stay near 500 MB).
const REGEX_CACHE_LIMIT: usize = 256;
const REGEX_CACHE_PATTERN_BYTES: usize = 256;

/// The compiled form of an RE2 pattern, from the cache when possible.
pub(super) fn cached_regex(pattern: &str) -> Result<Arc<Regex>, String> {
    if let Ok(cache) = REGEX_CACHE.read()
        && let Some(re) = cache.get(pattern)
    {
        return Ok(Arc::clone(re));
    }
    let re = Arc::new(
        Regex::new(&re2_to_rust(pattern))
            .map_err(|e| format!("invalid regular expression {pattern:?}: {e}"))?,
    );
    if pattern.len() <= REGEX_CACHE_PATTERN_BYTES
        && let Ok(mut cache) = REGEX_CACHE.write()
        && cache.len() < REGEX_CACHE_LIMIT
    {
        cache.insert(pattern.to_string(), Arc::clone(&re));
    }
    Ok(re)
}

/// RE2's Perl classes (`\d`, `\w`, `\s`, `\b`) are ASCII-only, while the regex crate's are
/// Unicode-aware: spell them out. Negated classes inside brackets (`[\D]`) are left alone.
fn re2_to_rust(pattern: &str) -> String {
    let mut out = String::with_capacity(pattern.len() + 16);
    let mut chars = pattern.chars();
    let mut in_class = false;
    while let Some(c) = chars.next() {
        match c {
            '\\' => {
                let Some(next) = chars.next() else {
                    out.push('\\');
                    break;
                };
                let replacement = match (in_class, next) {
                    (false, 'd') => Some("[0-9]"),
                    (false, 'D') => Some("[^0-9]"),
                    (false, 'w') => Some("[0-9A-Za-z_]"),
                    (false, 'W') => Some("[^0-9A-Za-z_]"),
                    (false, 's') => Some("[\\t\\n\\x0C\\r ]"),
                    (false, 'S') => Some("[^\\t\\n\\x0C\\r ]"),
                    (false, 'b') => Some("(?-u:\\b)"),
                    (false, 'B') => Some("(?-u:\\B)"),
                    (true, 'd') => Some("0-9"),
                    (true, 'w') => Some("0-9A-Za-z_"),
                    (true, 's') => Some("\\t\\n\\x0C\\r "),
                    _ => None,
                };
                match replacement {
                    Some(r) => out.push_str(r),
                    None => {
                        out.push('\\');
                        out.push(next);
                    }
                }
            }
            '[' if !in_class => {
                in_class = true;
                out.push('[');
                // A `]` right after `[` or `[^` is a literal member, not the end.
                let rest = chars.as_str();
                let skip = if rest.starts_with("^]") {
                    2
                } else if rest.starts_with(']') || rest.starts_with('^') {
                    1
                } else {
                    0
                };
                for _ in 0..skip {
                    if let Some(n) = chars.next() {
                        out.push(n);
                    }
                }
            }
            '[' if in_class && chars.as_str().starts_with(':') => {
                // `[:alpha:]` inside a class.
                out.push('[');
                for n in chars.by_ref() {
                    out.push(n);
                    if n == ']' {
                        break;
                    }
                }
            }
            ']' if in_class => {
                in_class = false;
                out.push(']');
            }
            _ => out.push(c),
        }
    }
    out
}

fn regex_for(pattern: &str, f: &str) -> Result<Arc<Regex>, ExecutionError> {
    cached_regex(pattern).map_err(|e| ExecutionError::function_error(f, e))
}

fn matches<'b, 'v>(args: Args<'b, 'v>) -> Ret<'b, 'v> {
    let text = str_arg(&args, 0, "matches")?;
    let re = regex_for(str_arg(&args, 1, "matches")?, "matches")?;
    Ok(owned(CelBool::from(re.is_match(text))))
}

fn find<'b, 'v>(args: Args<'b, 'v>) -> Ret<'b, 'v> {
    let text = str_arg(&args, 0, "find")?;
    let re = regex_for(str_arg(&args, 1, "find")?, "find")?;
    let found = re.find(text).map(|m| m.as_str()).unwrap_or("");
    Ok(owned(CelString::from(found.to_string())))
}

fn find_all<'b, 'v>(args: Args<'b, 'v>) -> Ret<'b, 'v> {
    let text = str_arg(&args, 0, "findAll")?;
    let re = regex_for(str_arg(&args, 1, "findAll")?, "findAll")?;
    let limit = if args.len() > 2 {
        int_arg(&args, 2, "findAll")?
    } else {
        -1
    };
    let take = if limit < 0 {
        usize::MAX
    } else {
        limit as usize
    };
    let found = re
        .find_iter(text)
        .take(take)
        .map(|m| m.as_str().to_string())
        .collect();
    Ok(string_list(found))
}

// ---------------------------------------------------------------------------------------
// format library

static FORMAT_TYPE: Type = Type::new_unspecified_type("kubernetes.NamedFormat");

/// Named formats, in the order of [`FORMAT_NAMES`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Format(u8);

const FORMAT_NAMES: [&str; 13] = [
    "dns1123Label",
    "dns1123Subdomain",
    "dns1035Label",
    "qualifiedName",
    "dns1123LabelPrefix",
    "dns1123SubdomainPrefix",
    "dns1035LabelPrefix",
    "labelValue",
    "uri",
    "uuid",
    "byte",
    "date",
    "datetime",
];

impl Val for Format {
    fn get_type(&self) -> &Type {
        &FORMAT_TYPE
    }
    fn cel_type() -> &'static Type {
        &FORMAT_TYPE
    }
    fn equals(&self, other: &dyn Val) -> bool {
        other.downcast_ref::<Format>().is_some_and(|o| o == self)
    }
    fn clone_as_boxed<'v>(&self) -> Box<dyn Val + 'v> {
        Box::new(*self)
    }
    fn as_any(&self) -> Option<&dyn std::any::Any> {
        Some(self)
    }
}
impl StaticVal for Format {}

fn make_format<'b, 'v, const K: u8>(_args: Args<'b, 'v>) -> Ret<'b, 'v> {
    Ok(owned(Format(K)))
}

fn register_format(env: &mut Env) -> Result<(), DeclarationError> {
    let constructors: [cel::common::functions::Function; 13] = [
        make_format::<0>,
        make_format::<1>,
        make_format::<2>,
        make_format::<3>,
        make_format::<4>,
        make_format::<5>,
        make_format::<6>,
        make_format::<7>,
        make_format::<8>,
        make_format::<9>,
        make_format::<10>,
        make_format::<11>,
        make_format::<12>,
    ];
    for (name, constructor) in FORMAT_NAMES.iter().zip(constructors) {
        let qualified = format!("format.{name}");
        env.add_overload(&qualified, &qualified, vec![], constructor)?;
    }
    env.add_overload(
        "format.named",
        "format-named",
        vec![types::STRING_TYPE.to_owned()],
        format_named,
    )?;
    env.add_member_overload(
        "validate",
        "format-validate",
        FORMAT_TYPE.to_owned(),
        vec![types::STRING_TYPE.to_owned()],
        format_validate,
    )
}

fn format_named<'b, 'v>(args: Args<'b, 'v>) -> Ret<'b, 'v> {
    let name = str_arg(&args, 0, "format.named")?;
    Ok(owned(match FORMAT_NAMES.iter().position(|n| *n == name) {
        Some(i) => CelOptional::of(Box::new(Format(i as u8))),
        None => CelOptional::none(),
    }))
}

/// `optional.none()` when valid, else `optional.of([errors...])`.
fn format_validate<'b, 'v>(args: Args<'b, 'v>) -> Ret<'b, 'v> {
    let format = args
        .first()
        .and_then(|a| a.downcast_ref::<Format>())
        .copied()
        .ok_or_else(|| ExecutionError::function_error("validate", "expected a format"))?;
    let text = str_arg(&args, 1, "validate")?;
    let errors = super::formats::validate_format(format.0, text);
    Ok(owned(if errors.is_empty() {
        CelOptional::none()
    } else {
        let list: Vec<Box<dyn Val + 'v>> = errors
            .into_iter()
            .map(|s| Box::new(CelString::from(s)) as Box<dyn Val + 'v>)
            .collect();
        CelOptional::of(Box::new(CelList::from(list)))
    }))
}
