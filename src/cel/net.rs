//! Kubernetes string validators and the IP / CIDR / URL libraries: `isIP`, `ip()`, `isCIDR`,
//! `cidr()`, `isURL`, `url()`, and the checks behind the `format` library.

use std::net::IpAddr;

use cel::common::types::{self, CelBool, CelInt, CelString, Type};
use cel::common::value::{CowVal, StaticVal, Val};
use cel::{DeclarationError, Env, ExecutionError};

use super::k8s_functions::str_arg;
use super::owned;

type Args<'b, 'v> = Vec<CowVal<'b, 'v>>;
type Ret<'b, 'v> = Result<CowVal<'b, 'v>, ExecutionError>;

static IP_TYPE: Type = Type::new_unspecified_type("net.IP");
static CIDR_TYPE: Type = Type::new_unspecified_type("net.CIDR");
static URL_TYPE: Type = Type::new_unspecified_type("kubernetes.URL");

pub(super) fn register(env: &mut Env) -> Result<(), DeclarationError> {
    let s = || types::STRING_TYPE.to_owned();
    let ip = || IP_TYPE.to_owned();
    let cidr = || CIDR_TYPE.to_owned();
    let url = || URL_TYPE.to_owned();
    env.add_type(ip())?;
    env.add_type(cidr())?;
    env.add_overload("isIP", "is_ip", vec![s()], is_ip)?;
    env.add_overload("ip", "string_to_ip", vec![s()], to_ip)?;
    env.add_overload(
        "ip.isCanonical",
        "ip_is_canonical",
        vec![s()],
        ip_is_canonical,
    )?;
    env.add_overload("string", "ip_to_string", vec![ip()], ip_to_string)?;
    env.add_member_overload("family", "ip_family", ip(), vec![], ip_family)?;
    for (name, f) in [
        (
            "isUnspecified",
            ip_pred::<0> as cel::common::functions::Function,
        ),
        ("isLoopback", ip_pred::<1>),
        ("isLinkLocalMulticast", ip_pred::<2>),
        ("isLinkLocalUnicast", ip_pred::<3>),
        ("isGlobalUnicast", ip_pred::<4>),
    ] {
        env.add_member_overload(name, &format!("ip_{name}"), ip(), vec![], f)?;
    }
    env.add_overload("isCIDR", "is_cidr", vec![s()], is_cidr)?;
    env.add_overload("cidr", "string_to_cidr", vec![s()], to_cidr)?;
    env.add_overload("string", "cidr_to_string", vec![cidr()], cidr_to_string)?;
    env.add_member_overload(
        "containsIP",
        "cidr_contains_ip",
        cidr(),
        vec![ip()],
        cidr_contains,
    )?;
    env.add_member_overload(
        "containsIP",
        "cidr_contains_ip_string",
        cidr(),
        vec![s()],
        cidr_contains,
    )?;
    env.add_member_overload(
        "containsCIDR",
        "cidr_contains_cidr",
        cidr(),
        vec![cidr()],
        cidr_contains,
    )?;
    env.add_member_overload(
        "containsCIDR",
        "cidr_contains_cidr_string",
        cidr(),
        vec![s()],
        cidr_contains,
    )?;
    env.add_member_overload("ip", "cidr_ip", cidr(), vec![], cidr_ip)?;
    env.add_member_overload("masked", "cidr_masked", cidr(), vec![], cidr_masked)?;
    env.add_member_overload(
        "prefixLength",
        "cidr_prefix_length",
        cidr(),
        vec![],
        cidr_prefix,
    )?;
    env.add_overload("isURL", "is_url", vec![s()], is_url)?;
    env.add_overload("url", "string_to_url", vec![s()], to_url)?;
    for (name, f) in [
        (
            "getScheme",
            url_part::<0> as cel::common::functions::Function,
        ),
        ("getHost", url_part::<1>),
        ("getHostname", url_part::<2>),
        ("getPort", url_part::<3>),
        ("getEscapedPath", url_part::<4>),
    ] {
        env.add_member_overload(name, &format!("url_{name}"), url(), vec![], f)?;
    }
    Ok(())
}

macro_rules! simple_val {
    ($ty:ident, $cel:ident) => {
        impl Val for $ty {
            fn get_type(&self) -> &Type {
                &$cel
            }
            fn cel_type() -> &'static Type {
                &$cel
            }
            fn equals(&self, other: &dyn Val) -> bool {
                other.downcast_ref::<$ty>().is_some_and(|o| o == self)
            }
            fn clone_as_boxed<'v>(&self) -> Box<dyn Val + 'v> {
                Box::new(self.clone())
            }
            fn as_any(&self) -> Option<&dyn std::any::Any> {
                Some(self)
            }
        }
        impl StaticVal for $ty {}
    };
}

#[derive(Debug, Clone, PartialEq)]
struct Ip(IpAddr);
simple_val!(Ip, IP_TYPE);

#[derive(Debug, Clone, PartialEq)]
struct Cidr {
    ip: IpAddr,
    prefix: u8,
}
simple_val!(Cidr, CIDR_TYPE);

#[derive(Debug, Clone, PartialEq)]
pub(super) struct Url {
    scheme: String,
    host: String,
    path: String,
}
simple_val!(Url, URL_TYPE);

fn fail(f: &str, msg: impl ToString) -> ExecutionError {
    ExecutionError::function_error(f, msg)
}

// ---------------------------------------------------------------------------------------
// IP and CIDR

/// Parses an address as Kubernetes does: no zones, no IPv4-mapped IPv6, no leading zeros
/// (the standard parser already rejects zones and leading zeros).
fn parse_ip(s: &str) -> Result<IpAddr, String> {
    let addr: IpAddr = s
        .parse()
        .map_err(|_| format!("IP Address {s:?} parse error"))?;
    if let IpAddr::V6(v6) = addr
        && v6.to_ipv4_mapped().is_some()
    {
        return Err(format!("IPv4-mapped IPv6 address {s:?} is not allowed"));
    }
    Ok(addr)
}

fn parse_cidr(s: &str) -> Result<Cidr, String> {
    let (addr, prefix) = s
        .split_once('/')
        .ok_or_else(|| format!("network address {s:?} parse error"))?;
    let ip = parse_ip(addr)?;
    let max = if ip.is_ipv4() { 32 } else { 128 };
    let prefix: u8 = prefix
        .parse()
        .ok()
        .filter(|p| {
            *p <= max && !prefix.starts_with('+') && (prefix == "0" || !prefix.starts_with('0'))
        })
        .ok_or_else(|| format!("network address {s:?} parse error"))?;
    Ok(Cidr { ip, prefix })
}

fn ip_bits(ip: &IpAddr) -> (u128, u8) {
    match ip {
        IpAddr::V4(v4) => (u128::from(u32::from(*v4)), 32),
        IpAddr::V6(v6) => (u128::from(*v6), 128),
    }
}

fn masked(c: &Cidr) -> IpAddr {
    let (bits, width) = ip_bits(&c.ip);
    let host_bits = u32::from(width - c.prefix);
    let mask = if host_bits >= 128 {
        0
    } else {
        !0u128 << host_bits
    };
    let value = bits & mask;
    match c.ip {
        IpAddr::V4(_) => IpAddr::from(std::net::Ipv4Addr::from(value as u32)),
        IpAddr::V6(_) => IpAddr::from(std::net::Ipv6Addr::from(value)),
    }
}

fn contains(outer: &Cidr, inner: &Cidr) -> bool {
    if outer.ip.is_ipv4() != inner.ip.is_ipv4() || inner.prefix < outer.prefix {
        return false;
    }
    masked(outer)
        == masked(&Cidr {
            ip: inner.ip,
            prefix: outer.prefix,
        })
}

fn is_ip<'b, 'v>(args: Args<'b, 'v>) -> Ret<'b, 'v> {
    Ok(owned(CelBool::from(
        parse_ip(str_arg(&args, 0, "isIP")?).is_ok(),
    )))
}

fn to_ip<'b, 'v>(args: Args<'b, 'v>) -> Ret<'b, 'v> {
    let ip = parse_ip(str_arg(&args, 0, "ip")?).map_err(|e| fail("ip", e))?;
    Ok(owned(Ip(ip)))
}

fn ip_is_canonical<'b, 'v>(args: Args<'b, 'v>) -> Ret<'b, 'v> {
    let s = str_arg(&args, 0, "ip.isCanonical")?;
    let ip = parse_ip(s).map_err(|e| fail("ip.isCanonical", e))?;
    Ok(owned(CelBool::from(ip.to_string() == s)))
}

fn ip_of<'a>(args: &'a [CowVal<'_, '_>], f: &str) -> Result<&'a Ip, ExecutionError> {
    args.first()
        .and_then(|a| a.downcast_ref::<Ip>())
        .ok_or_else(|| fail(f, "expected an IP"))
}

fn cidr_of(args: &[CowVal<'_, '_>], i: usize, f: &str) -> Result<Cidr, ExecutionError> {
    let arg = args.get(i).ok_or_else(|| fail(f, "missing argument"))?;
    if let Some(c) = arg.downcast_ref::<Cidr>() {
        return Ok(c.clone());
    }
    if let Some(ip) = arg.downcast_ref::<Ip>() {
        let prefix = ip_bits(&ip.0).1;
        return Ok(Cidr { ip: ip.0, prefix });
    }
    let s = str_arg(args, i, f)?;
    // A string argument to containsIP is an address; to containsCIDR a prefix.
    if s.contains('/') {
        parse_cidr(s).map_err(|e| fail(f, e))
    } else {
        let ip = parse_ip(s).map_err(|e| fail(f, e))?;
        Ok(Cidr {
            ip,
            prefix: ip_bits(&ip).1,
        })
    }
}

fn ip_to_string<'b, 'v>(args: Args<'b, 'v>) -> Ret<'b, 'v> {
    Ok(owned(CelString::from(
        ip_of(&args, "string")?.0.to_string(),
    )))
}

fn ip_family<'b, 'v>(args: Args<'b, 'v>) -> Ret<'b, 'v> {
    let ip = ip_of(&args, "family")?;
    Ok(owned(CelInt::from(if ip.0.is_ipv4() { 4 } else { 6 })))
}

fn ip_pred<'b, 'v, const P: u8>(args: Args<'b, 'v>) -> Ret<'b, 'v> {
    let ip = ip_of(&args, "ip")?.0;
    let result = match (P, ip) {
        (0, ip) => ip.is_unspecified(),
        (1, ip) => ip.is_loopback(),
        (2, IpAddr::V4(v4)) => v4.octets()[..3] == [224, 0, 0],
        (2, IpAddr::V6(v6)) => v6.segments()[0] & 0xff0f == 0xff02,
        (3, IpAddr::V4(v4)) => v4.is_link_local(),
        (3, IpAddr::V6(v6)) => v6.segments()[0] & 0xffc0 == 0xfe80,
        (_, IpAddr::V4(v4)) => {
            !(v4.is_unspecified()
                || v4.is_loopback()
                || v4.is_multicast()
                || v4.is_link_local()
                || v4.is_broadcast())
        }
        (_, IpAddr::V6(v6)) => {
            let first = v6.segments()[0];
            !(v6.is_unspecified()
                || v6.is_loopback()
                || v6.is_multicast()
                || first & 0xffc0 == 0xfe80)
        }
    };
    Ok(owned(CelBool::from(result)))
}

fn is_cidr<'b, 'v>(args: Args<'b, 'v>) -> Ret<'b, 'v> {
    Ok(owned(CelBool::from(
        parse_cidr(str_arg(&args, 0, "isCIDR")?).is_ok(),
    )))
}

fn to_cidr<'b, 'v>(args: Args<'b, 'v>) -> Ret<'b, 'v> {
    let c = parse_cidr(str_arg(&args, 0, "cidr")?).map_err(|e| fail("cidr", e))?;
    Ok(owned(c))
}

fn cidr_to_string<'b, 'v>(args: Args<'b, 'v>) -> Ret<'b, 'v> {
    let c = cidr_of(&args, 0, "string")?;
    Ok(owned(CelString::from(format!("{}/{}", c.ip, c.prefix))))
}

fn cidr_contains<'b, 'v>(args: Args<'b, 'v>) -> Ret<'b, 'v> {
    let outer = cidr_of(&args, 0, "containsCIDR")?;
    let inner = cidr_of(&args, 1, "containsCIDR")?;
    Ok(owned(CelBool::from(contains(&outer, &inner))))
}

fn cidr_ip<'b, 'v>(args: Args<'b, 'v>) -> Ret<'b, 'v> {
    Ok(owned(Ip(cidr_of(&args, 0, "ip")?.ip)))
}

fn cidr_masked<'b, 'v>(args: Args<'b, 'v>) -> Ret<'b, 'v> {
    let c = cidr_of(&args, 0, "masked")?;
    Ok(owned(Cidr {
        ip: masked(&c),
        prefix: c.prefix,
    }))
}

fn cidr_prefix<'b, 'v>(args: Args<'b, 'v>) -> Ret<'b, 'v> {
    Ok(owned(CelInt::from(i64::from(
        cidr_of(&args, 0, "prefixLength")?.prefix,
    ))))
}

// ---------------------------------------------------------------------------------------
// URL

/// A subset of Go's `url.ParseRequestURI`: an absolute URI (`scheme:...`) or an absolute
/// path; no spaces or control characters; for `scheme://authority`, a valid port if any.
pub(super) fn parse_url(s: &str) -> Result<Url, String> {
    let bad = || format!("parse {s:?}: invalid URI for request");
    if s.is_empty() || s.chars().any(|c| c.is_control() || c == ' ') {
        return Err(bad());
    }
    let without_fragment = s;
    let (scheme, rest) = if without_fragment.starts_with('/') {
        (String::new(), without_fragment)
    } else {
        let colon = without_fragment.find(':').ok_or_else(bad)?;
        let scheme = &without_fragment[..colon];
        let valid = scheme
            .chars()
            .next()
            .is_some_and(|c| c.is_ascii_alphabetic())
            && scheme
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'));
        if !valid {
            return Err(bad());
        }
        (scheme.to_ascii_lowercase(), &without_fragment[colon + 1..])
    };
    let rest = rest.split_once('?').map_or(rest, |(p, _)| p);
    let (host, path) = match rest.strip_prefix("//") {
        Some(after) => {
            let end = after.find('/').unwrap_or(after.len());
            let authority = &after[..end];
            let host = authority.rsplit_once('@').map_or(authority, |(_, h)| h);
            (host.to_string(), after[end..].to_string())
        }
        None => (String::new(), rest.to_string()),
    };
    if let Some((_, port)) = host.rsplit_once(':')
        && !host.ends_with(']')
        && !port.chars().all(|c| c.is_ascii_digit())
    {
        return Err(bad());
    }
    Ok(Url { scheme, host, path })
}

fn is_url<'b, 'v>(args: Args<'b, 'v>) -> Ret<'b, 'v> {
    Ok(owned(CelBool::from(
        parse_url(str_arg(&args, 0, "isURL")?).is_ok(),
    )))
}

fn to_url<'b, 'v>(args: Args<'b, 'v>) -> Ret<'b, 'v> {
    let url = parse_url(str_arg(&args, 0, "url")?).map_err(|e| fail("url", e))?;
    Ok(owned(url))
}

fn url_part<'b, 'v, const P: u8>(args: Args<'b, 'v>) -> Ret<'b, 'v> {
    let url = args
        .first()
        .and_then(|a| a.downcast_ref::<Url>())
        .ok_or_else(|| fail("url", "expected a URL"))?;
    let (hostname, port) = split_host_port(&url.host);
    let part = match P {
        0 => url.scheme.clone(),
        1 => url.host.clone(),
        2 => hostname,
        3 => port,
        _ => url.path.clone(),
    };
    Ok(owned(CelString::from(part)))
}

fn split_host_port(host: &str) -> (String, String) {
    if let Some(rest) = host.strip_prefix('[') {
        let (h, after) = rest.split_once(']').unwrap_or((rest, ""));
        return (
            h.to_string(),
            after.strip_prefix(':').unwrap_or("").to_string(),
        );
    }
    match host.rsplit_once(':') {
        Some((h, p)) => (h.to_string(), p.to_string()),
        None => (host.to_string(), String::new()),
    }
}
