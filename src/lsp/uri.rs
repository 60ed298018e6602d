//! `file:` URIs and paths: the protocol names documents by URI, the run names files by path.

use std::path::{Path, PathBuf};

use lsp_types::Uri;

/// The path of a `file:` URI (percent-decoded); `None` for another scheme or a malformed one.
pub fn to_path(uri: &Uri) -> Option<PathBuf> {
    let rest = uri.as_str().strip_prefix("file://")?;
    // `file://host/path` is not a local file; `file:///path` has an empty host.
    let path = rest.strip_prefix("localhost").unwrap_or(rest);
    if !path.starts_with('/') {
        return None;
    }
    let bytes = path.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = |b: u8| (b as char).to_digit(16);
        match bytes[i] {
            b'%' if i + 2 < bytes.len() => {
                let (hi, lo) = (hex(bytes[i + 1])?, hex(bytes[i + 2])?);
                out.push(u8::try_from(hi * 16 + lo).ok()?);
                i += 3;
            }
            b'?' | b'#' => break,
            b => {
                out.push(b);
                i += 1;
            }
        }
    }
    String::from_utf8(out).ok().map(PathBuf::from)
}

/// The `file:` URI of an absolute path; `None` for a relative one (or one not UTF-8).
pub fn from_path(path: &Path) -> Option<Uri> {
    let text = path.to_str()?;
    if !text.starts_with('/') {
        return None;
    }
    let mut out = String::from("file://");
    for b in text.bytes() {
        if b.is_ascii_alphanumeric() || b"/-._~".contains(&b) {
            out.push(char::from(b));
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_round_trip_through_uris() {
        let path = Path::new("/tmp/a dir/ré:x.yaml");
        let uri = from_path(path).map(|u| u.as_str().to_string());
        assert_eq!(uri.as_deref(), Some("file:///tmp/a%20dir/r%C3%A9%3Ax.yaml"));
        let back = from_path(path).and_then(|u| to_path(&u));
        assert_eq!(back.as_deref(), Some(path));
        let other: Option<Uri> = "untitled:Untitled-1".parse().ok();
        assert_eq!(other.and_then(|u| to_path(&u)), None);
        assert_eq!(
            from_path(Path::new("rel.yaml")).map(|u| u.as_str().to_string()),
            None
        );
    }
}
