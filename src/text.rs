//! Short texts made from parts without `format!`: for those made for every route and backendRef
//! of every Gateway (route names, cluster names) or every list item of every object (paths), the
//! formatting machinery and the string's growing cost several times the copying.

/// The parts one after the other, in a string allocated once at their length.
pub fn join(parts: &[&str]) -> String {
    let mut out = String::with_capacity(parts.iter().map(|p| p.len()).sum());
    for p in parts {
        out.push_str(p);
    }
    out
}

/// An integer's decimal text as `Display` writes it, on the stack.
pub struct Decimal {
    /// Room for `u64::MAX` (20 digits) and for `i64::MIN` (a sign and 19 digits).
    buf: [u8; 20],
    start: usize,
}

impl Decimal {
    pub fn signed(n: i64) -> Self {
        let mut d = Decimal::unsigned(n.unsigned_abs());
        if n < 0 {
            d.start -= 1;
            d.buf[d.start] = b'-';
        }
        d
    }

    pub fn unsigned(mut n: u64) -> Self {
        let mut buf = [0u8; 20];
        let mut start = buf.len();
        loop {
            start -= 1;
            buf[start] = b'0' + (n % 10) as u8;
            n /= 10;
            if n == 0 {
                break;
            }
        }
        Decimal { buf, start }
    }

    pub fn as_str(&self) -> &str {
        // Only ASCII digits and a sign are ever written.
        std::str::from_utf8(&self.buf[self.start..]).unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::{Decimal, join};

    #[test]
    fn decimals_read_as_display_writes_them() {
        for n in [0, 1, -1, 9, 10, -10, 443, 65535, i64::MAX, i64::MIN] {
            assert_eq!(Decimal::signed(n).as_str(), n.to_string());
        }
        for n in [0, 7, 10, 1234567890, u64::MAX] {
            assert_eq!(Decimal::unsigned(n).as_str(), n.to_string());
        }
    }

    #[test]
    fn joins_in_order() {
        assert_eq!(join(&[]), "");
        assert_eq!(
            join(&["kube_", "ns", "_", "svc", "_", "80"]),
            "kube_ns_svc_80"
        );
    }
}
