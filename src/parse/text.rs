//! The strings of the tree (scalars and keys): up to [`INLINE`] bytes are kept inline, longer
//! ones in one exact-size box. Most keys and values are short, and a heap `String` per scalar
//! cost its 24 bytes plus an allocation of 32 or more: a one-line flow sequence of 10 MB held
//! 3.3 million of them. The spare bits also hold whether the scalar was plain (unquoted), so a
//! [`super::Str`] is no larger than the text.

use std::fmt;
use std::ops::Deref;

/// Bytes kept inline.
const INLINE: usize = 22;

/// An immutable string of the tree, 24 bytes.
#[derive(Clone)]
pub struct Text(Repr);

#[derive(Clone)]
enum Repr {
    /// The length in the low bits, the flag in the high bit.
    Inline {
        len_flag: u8,
        bytes: [u8; INLINE],
    },
    /// Two variants rather than a field: a flag beside the box would make the type 32 bytes.
    Heap(Box<str>),
    FlaggedHeap(Box<str>),
}

const FLAG: u8 = 0x80;

impl Text {
    /// `s` with a flag (the plain style of a scalar; keys do not use it).
    pub fn with_flag(s: &str, flag: bool) -> Text {
        Text(if s.len() <= INLINE {
            let mut bytes = [0; INLINE];
            bytes[..s.len()].copy_from_slice(s.as_bytes());
            let len = s.len() as u8;
            Repr::Inline {
                len_flag: if flag { len | FLAG } else { len },
                bytes,
            }
        } else if flag {
            Repr::FlaggedHeap(Box::from(s))
        } else {
            Repr::Heap(Box::from(s))
        })
    }

    pub fn as_str(&self) -> &str {
        match &self.0 {
            Repr::Inline { len_flag, bytes } => {
                let bytes = &bytes[..usize::from(len_flag & !FLAG)];
                debug_assert!(std::str::from_utf8(bytes).is_ok());
                // SAFETY: `with_flag` is the only constructor of `Inline`; it copies a whole
                // `&str` and records its length, and the bytes are never changed after. So
                // `bytes` is that `&str`'s UTF-8. Validating again on every read cost 5% of
                // lint's CPU time (keys are compared on every lookup).
                unsafe { std::str::from_utf8_unchecked(bytes) }
            }
            Repr::Heap(text) | Repr::FlaggedHeap(text) => text,
        }
    }

    /// The same text with the flag cleared, without copying it (a scalar become a key).
    pub(super) fn without_flag(self) -> Text {
        Text(match self.0 {
            Repr::Inline { len_flag, bytes } => Repr::Inline {
                len_flag: len_flag & !FLAG,
                bytes,
            },
            Repr::Heap(text) | Repr::FlaggedHeap(text) => Repr::Heap(text),
        })
    }

    pub(super) fn flag(&self) -> bool {
        match &self.0 {
            Repr::Inline { len_flag, .. } => len_flag & FLAG != 0,
            Repr::Heap(_) => false,
            Repr::FlaggedHeap(_) => true,
        }
    }
}

impl Default for Text {
    fn default() -> Self {
        Text::from("")
    }
}

impl Deref for Text {
    type Target = str;
    fn deref(&self) -> &str {
        self.as_str()
    }
}

impl AsRef<str> for Text {
    fn as_ref(&self) -> &str {
        self.as_str()
    }
}

impl std::borrow::Borrow<str> for Text {
    fn borrow(&self) -> &str {
        self.as_str()
    }
}

impl From<&str> for Text {
    fn from(s: &str) -> Text {
        Text::with_flag(s, false)
    }
}

impl From<String> for Text {
    fn from(s: String) -> Text {
        Text::with_flag(&s, false)
    }
}

impl From<&Text> for String {
    fn from(t: &Text) -> String {
        t.as_str().to_string()
    }
}

impl PartialEq for Text {
    fn eq(&self, other: &Text) -> bool {
        self.as_str() == other.as_str()
    }
}

impl Eq for Text {}

impl std::hash::Hash for Text {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.as_str().hash(state);
    }
}

impl PartialEq<str> for Text {
    fn eq(&self, other: &str) -> bool {
        self.as_str() == other
    }
}

impl PartialEq<&str> for Text {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

impl PartialEq<String> for Text {
    fn eq(&self, other: &String) -> bool {
        self.as_str() == other
    }
}

impl PartialEq<Text> for str {
    fn eq(&self, other: &Text) -> bool {
        self == other.as_str()
    }
}

impl PartialEq<Text> for &str {
    fn eq(&self, other: &Text) -> bool {
        *self == other.as_str()
    }
}

impl fmt::Debug for Text {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.as_str(), f)
    }
}

impl fmt::Display for Text {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self.as_str(), f)
    }
}

#[cfg(test)]
mod tests {
    use super::Text;

    #[test]
    fn short_and_long_texts_keep_their_bytes_and_flag() {
        for s in [
            "",
            "a",
            "ünïcödé",
            &"x".repeat(22),
            &"y".repeat(23),
            &"é".repeat(40),
        ] {
            let t = Text::with_flag(s, true);
            assert_eq!(t.as_str(), s);
            assert!(t.flag());
            let key = t.clone().without_flag();
            assert_eq!(key.as_str(), s);
            assert!(!key.flag());
            assert!(!Text::from(s).flag());
        }
        assert_eq!(std::mem::size_of::<Text>(), 24);
        assert_eq!(std::mem::size_of::<Option<Text>>(), 24);
        // What a node of the tree costs: its span and a value no larger than the text.
        assert_eq!(std::mem::size_of::<super::super::Value>(), 24);
        assert_eq!(std::mem::size_of::<super::super::Node>(), 40);
    }
}
