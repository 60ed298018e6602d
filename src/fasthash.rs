//! Hash maps for the hot paths: keys are short names and small integers from the inputs, where
//! SipHash's setup costs more than the lookup ([`FastMap`]), and long keys such as lines of text
//! ([`WordMap`]). Not keyed: a crafted input can make collisions, which slows a run down but
//! changes no result.

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

/// A word at a time (FxHash's mix): for long keys such as lines of text, where FNV's byte at a
/// time is the cost.
#[derive(Default)]
pub struct WordHasher(u64);

impl WordHasher {
    const SEED: u64 = 0x51_7c_c1_b7_27_22_0a_95;

    fn add(&mut self, word: u64) {
        self.0 = (self.0.rotate_left(5) ^ word).wrapping_mul(Self::SEED);
    }
}

impl Hasher for WordHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        let mut words = bytes.chunks_exact(8);
        for w in &mut words {
            let mut word = [0u8; 8];
            word.copy_from_slice(w);
            self.add(u64::from_le_bytes(word));
        }
        let rest = words.remainder();
        if !rest.is_empty() {
            let mut word = [0u8; 8];
            word[..rest.len()].copy_from_slice(rest);
            // The length keeps `ab` and `ab\0` apart.
            self.add(u64::from_le_bytes(word) ^ ((rest.len() as u64) << 59));
        }
    }
}

pub type WordMap<K, V> = HashMap<K, V, BuildHasherDefault<WordHasher>>;
