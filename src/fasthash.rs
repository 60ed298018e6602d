//! Hash maps for the hot paths: keys are short names and small integers from the inputs, where
//! SipHash's setup costs more than the lookup. Not keyed: a crafted input can make collisions,
//! which slows a run down but changes no result.

use std::collections::{HashMap, HashSet};
use std::hash::{BuildHasherDefault, Hasher};

/// FNV-1a: property names are short, and SipHash's setup dominates lookups of short keys.
#[derive(Default)]
pub struct FnvHasher(u64);

impl Hasher for FnvHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        let mut h = if self.0 == 0 {
            0xcbf2_9ce4_8422_2325
        } else {
            self.0
        };
        for b in bytes {
            h ^= u64::from(*b);
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
        self.0 = h;
    }
}

pub type FastMap<K, V> = HashMap<K, V, BuildHasherDefault<FnvHasher>>;
pub type FastSet<K> = HashSet<K, BuildHasherDefault<FnvHasher>>;
