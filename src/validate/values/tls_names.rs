//! TLS parameter names the proxy's TLS library (BoringSSL) knows: a cipher suite or curve it
//! does not know makes the proxy reject the cluster or listener that names it. The controller
//! passes the names on unchecked.

use super::Finding;
use crate::diag::ProxyCheck;
use crate::rules;

/// Cipher suites by their IANA names (TLS 1.3 and 1.2) and the OpenSSL names of TLS 1.2 ones.
const CIPHER_SUITES: &[&str] = &[
    "TLS_AES_128_GCM_SHA256",
    "TLS_AES_256_GCM_SHA384",
    "TLS_CHACHA20_POLY1305_SHA256",
    "TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256",
    "TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384",
    "TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256",
    "TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384",
    "TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256",
    "TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256",
    "TLS_ECDHE_PSK_WITH_CHACHA20_POLY1305_SHA256",
    "TLS_ECDHE_PSK_WITH_AES_128_GCM_SHA256",
    "TLS_ECDHE_PSK_WITH_AES_256_GCM_SHA384",
    "TLS_ECDHE_ECDSA_WITH_AES_128_CBC_SHA",
    "TLS_ECDHE_ECDSA_WITH_AES_256_CBC_SHA",
    "TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA",
    "TLS_ECDHE_RSA_WITH_AES_256_CBC_SHA",
    "TLS_ECDHE_ECDSA_WITH_AES_128_CBC_SHA256",
    "TLS_ECDHE_ECDSA_WITH_AES_256_CBC_SHA384",
    "TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA256",
    "TLS_ECDHE_RSA_WITH_AES_256_CBC_SHA384",
    "ECDHE-ECDSA-AES128-GCM-SHA256",
    "ECDHE-ECDSA-AES256-GCM-SHA384",
    "ECDHE-RSA-AES128-GCM-SHA256",
    "ECDHE-RSA-AES256-GCM-SHA384",
    "ECDHE-ECDSA-CHACHA20-POLY1305",
    "ECDHE-RSA-CHACHA20-POLY1305",
    "ECDHE-PSK-CHACHA20-POLY1305",
    "ECDHE-PSK-AES128-GCM-SHA256",
    "ECDHE-PSK-AES256-GCM-SHA384",
    "ECDHE-ECDSA-AES128-SHA",
    "ECDHE-ECDSA-AES256-SHA",
    "ECDHE-RSA-AES128-SHA",
    "ECDHE-RSA-AES256-SHA",
    "ECDHE-ECDSA-AES128-SHA256",
    "ECDHE-ECDSA-AES256-SHA384",
    "ECDHE-RSA-AES128-SHA256",
    "ECDHE-RSA-AES256-SHA384",
    "AES128-GCM-SHA256",
    "AES256-GCM-SHA384",
    "AES128-SHA",
    "AES256-SHA",
    "AES128-SHA256",
    "AES256-SHA256",
];

/// Key exchange curves (and hybrid groups).
const CURVES: &[&str] = &[
    "X25519",
    "X25519MLKEM768",
    "X25519Kyber768Draft00",
    "P-256",
    "P-384",
    "P-521",
];

/// A cipher suite name the proxy does not know (surrounding space aside).
pub(crate) fn cipher_suite(name: &str) -> Vec<Finding> {
    unknown(name, CIPHER_SUITES, "cipher suite")
}

/// A curve name the proxy does not know (surrounding space aside).
pub(crate) fn curve(name: &str) -> Vec<Finding> {
    unknown(name, CURVES, "ECDH curve")
}

fn unknown(name: &str, known: &[&str], what: &str) -> Vec<Finding> {
    if known.contains(&name.trim()) {
        return Vec::new();
    }
    let finding = Finding::new(
        rules::GW131,
        format!(
            "unsupported {what} {:?}: the proxy's TLS library (BoringSSL) does not know it",
            name.trim()
        ),
        None,
    )
    .with_help(format!("one of: {}", known.join(", ")))
    .proxy_only(ProxyCheck::TlsParameter);
    vec![finding]
}

/// The controller's words (with validation level strict, where the proxy checks first) for a
/// TLS parameter the proxy does not know, at the field `path` holding `value`.
pub(crate) fn refusal(path: &str, value: &str) -> String {
    let what = if path.contains("cipherSuites") {
        "cipher suite"
    } else {
        "ECDH curve"
    };
    format!(
        "unsupported {what}: {:?} (ensure you are using a BoringSSL-supported name)",
        value.trim()
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_names_pass_and_others_are_named() {
        assert!(cipher_suite("ECDHE-RSA-AES128-GCM-SHA256").is_empty());
        assert!(cipher_suite(" TLS_AES_128_GCM_SHA256 ").is_empty());
        assert!(curve("X25519").is_empty());
        let bogus = cipher_suite("BOGUS_CIPHER_SUITE_1");
        assert_eq!(
            bogus[0].message,
            "unsupported cipher suite \"BOGUS_CIPHER_SUITE_1\": the proxy's TLS library (BoringSSL) does not know it"
        );
        assert_eq!(bogus[0].proxy_only, Some(ProxyCheck::TlsParameter));
        assert_eq!(
            curve("secp256r1-typo")[0].message,
            "unsupported ECDH curve \"secp256r1-typo\": the proxy's TLS library (BoringSSL) does not know it"
        );
        assert_eq!(
            refusal("spec.tls.parameters.cipherSuites[0]", "BOGUS"),
            "unsupported cipher suite: \"BOGUS\" (ensure you are using a BoringSSL-supported name)"
        );
    }
}
