//! String formats as the API server checks them (kube-openapi's format registry).

use std::net::Ipv6Addr;

use crate::schema::compile::Format;

/// The name the API server prints in "must be of type <format>".
pub fn name(f: Format) -> &'static str {
    match f {
        Format::Ipv4 => "ipv4",
        Format::Ipv6 => "ipv6",
        Format::Cidr => "cidr",
        Format::DateTime => "date-time",
        Format::Date => "date",
        Format::Byte => "byte",
        Format::Hostname => "hostname",
        Format::Uuid => "uuid",
        Format::Mac => "mac",
    }
}

pub fn is_valid(f: Format, s: &str) -> bool {
    match f {
        // Kubernetes parses IPs "sloppily" (leading zeros allowed) and tells the families apart
        // by the presence of '.' or ':'.
        Format::Ipv4 => s.contains('.') && parse_ip(s),
        Format::Ipv6 => s.contains(':') && parse_ip(s),
        Format::Cidr => match s.split_once('/') {
            Some((ip, bits)) => {
                let max = if ip.contains(':') { 128 } else { 32 };
                parse_ip(ip)
                    && !bits.is_empty()
                    && bits.len() <= 3
                    && bits.bytes().all(|b| b.is_ascii_digit())
                    && bits.parse::<u32>().is_ok_and(|b| b <= max)
            }
            None => false,
        },
        Format::DateTime => is_date_time(s),
        Format::Date => is_date(s),
        Format::Byte => is_base64(s),
        Format::Hostname => is_hostname(s),
        Format::Uuid => is_uuid(s),
        Format::Mac => is_mac(s),
    }
}

fn parse_ip(s: &str) -> bool {
    parse_ipv4(s) || s.parse::<Ipv6Addr>().is_ok() || parse_ipv6_with_sloppy_v4(s)
}

fn parse_ipv4(s: &str) -> bool {
    let mut parts = 0;
    for part in s.split('.') {
        parts += 1;
        if part.is_empty()
            || part.len() > 3
            || !part.bytes().all(|b| b.is_ascii_digit())
            || part.parse::<u16>().map_or(true, |n| n > 255)
        {
            return false;
        }
    }
    parts == 4
}

/// `::ffff:001.2.3.4`: an embedded IPv4 with leading zeros, which the sloppy parser accepts.
fn parse_ipv6_with_sloppy_v4(s: &str) -> bool {
    let Some(colon) = s.rfind(':') else {
        return false;
    };
    let (head, v4) = (&s[..=colon], &s[colon + 1..]);
    if !v4.contains('.') || !parse_ipv4(v4) {
        return false;
    }
    format!("{head}0.0.0.0").parse::<Ipv6Addr>().is_ok()
}

fn digits(s: &str, n: usize) -> Option<u32> {
    (s.len() == n && s.bytes().all(|b| b.is_ascii_digit()))
        .then(|| s.parse().ok())
        .flatten()
}

fn is_date(s: &str) -> bool {
    let mut it = s.splitn(3, '-');
    let (Some(y), Some(m), Some(d)) = (it.next(), it.next(), it.next()) else {
        return false;
    };
    digits(y, 4).is_some()
        && digits(m, 2).is_some_and(|m| (1..=12).contains(&m))
        && digits(d, 2).is_some_and(|d| (1..=31).contains(&d))
}

/// RFC 3339: `2006-01-02T15:04:05[.fraction](Z|±hh:mm)`.
fn is_date_time(s: &str) -> bool {
    let Some((date, rest)) = s.split_once('T') else {
        return false;
    };
    if !is_date(date) || rest.len() < 9 {
        return false;
    }
    let (time, zone) = match rest.find(['Z', 'z', '+', '-']) {
        Some(i) => rest.split_at(i),
        None => return false,
    };
    let (hms, frac) = match time.split_once('.') {
        Some((hms, frac)) => (hms, Some(frac)),
        None => (time, None),
    };
    let mut p = hms.split(':');
    let ok_time = matches!(
        (p.next(), p.next(), p.next(), p.next()),
        (Some(h), Some(m), Some(sec), None)
            if digits(h, 2).is_some_and(|h| h < 24)
                && digits(m, 2).is_some_and(|m| m < 60)
                && digits(sec, 2).is_some_and(|s| s < 60)
    );
    let ok_frac =
        frac.is_none_or(|f| !f.is_empty() && f.len() <= 9 && f.bytes().all(|b| b.is_ascii_digit()));
    let ok_zone = zone == "Z"
        || zone == "z"
        || (zone.len() == 6
            && zone.as_bytes()[3] == b':'
            && digits(&zone[1..3], 2).is_some_and(|h| h < 24)
            && digits(&zone[4..6], 2).is_some_and(|m| m < 60));
    ok_time && ok_frac && ok_zone
}

/// Standard base64 with padding; line breaks are ignored, as Go's decoder does.
fn is_base64(s: &str) -> bool {
    let bytes: Vec<u8> = s.bytes().filter(|b| *b != b'\n' && *b != b'\r').collect();
    if !bytes.len().is_multiple_of(4) {
        return false;
    }
    let body_end = bytes.iter().rposition(|b| *b != b'=').map_or(0, |i| i + 1);
    let padding = bytes.len() - body_end;
    padding <= 2
        && bytes[..body_end]
            .iter()
            .all(|b| b.is_ascii_alphanumeric() || *b == b'+' || *b == b'/')
}

fn is_hostname(s: &str) -> bool {
    let s = s.strip_suffix('.').unwrap_or(s);
    !s.is_empty()
        && s.len() <= 255
        && s.split('.').all(|label| {
            !label.is_empty()
                && label.chars().count() <= 63
                && !label.starts_with('-')
                && !label.ends_with('-')
                && label.chars().all(|c| c.is_alphanumeric() || c == '-')
        })
}

fn is_uuid(s: &str) -> bool {
    let groups: Vec<&str> = s.split('-').collect();
    groups.len() == 5
        && groups
            .iter()
            .zip([8, 4, 4, 4, 12])
            .all(|(g, n)| g.len() == n && g.bytes().all(|b| b.is_ascii_hexdigit()))
}

fn is_mac(s: &str) -> bool {
    let sep = if s.contains(':') { ':' } else { '-' };
    let groups: Vec<&str> = s.split(sep).collect();
    matches!(groups.len(), 6 | 8 | 20)
        && groups
            .iter()
            .all(|g| g.len() == 2 && g.bytes().all(|b| b.is_ascii_hexdigit()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats() {
        use Format::*;
        for (f, ok, bad) in [
            (Ipv4, "1.2.3.4", "1.2.3.4:8080"),
            (Ipv4, "010.1.1.1", "256.255.255.255"),
            (Ipv4, "10.0.0.1", "1.1.1"),
            (Ipv6, "2001:db8::1", "2001:db8:3c4d:15:0:d234:3eee:"),
            (Ipv6, "::ffff:1.2.3.4", ":::1234::"),
            (Ipv6, "1200:0000:AB00:1234:0000:2552:7777:1313", "1.2.3.4"),
            (Cidr, "10.0.0.0/8", "10.0.0.0/33"),
            (DateTime, "2024-01-02T03:04:05Z", "2024-01-02 03:04:05"),
            (
                DateTime,
                "2024-01-02T03:04:05.123+02:00",
                "2024-13-02T03:04:05Z",
            ),
            (Date, "2024-01-02", "2024-1-2"),
            (Byte, "aGVsbG8=", "hello!"),
            (Byte, "", "aGVsbG8"),
            (Hostname, "example.com", "-bad.com"),
            (Uuid, "123e4567-e89b-12d3-a456-426614174000", "123e4567"),
            (Mac, "00:1a:2b:3c:4d:5e", "00:1a:2b"),
        ] {
            assert!(is_valid(f, ok), "{f:?} {ok}");
            assert!(!is_valid(f, bad), "{f:?} {bad}");
        }
    }
}
