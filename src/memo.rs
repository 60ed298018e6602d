//! Per-thread memory of texts already found valid (regexes, data-plane CEL expressions): a
//! repository repeats them across resources, and checking one means compiling it, which costs as
//! much as parsing a few hundred lines of YAML. Only acceptances are remembered, under the limits
//! they were checked with; a rejected text is checked again, so its findings are worded afresh.

use crate::fasthash::FastMap;

/// How many texts each thread remembers, and the longest it remembers.
const ENTRIES: usize = 4096;
const TEXT_BYTES: usize = 1024;

pub struct Accepted<L, V> {
    /// The limits the remembered texts were checked under.
    limits: Option<L>,
    seen: FastMap<Box<str>, V>,
}

impl<L, V> Default for Accepted<L, V> {
    fn default() -> Self {
        Accepted {
            limits: None,
            seen: FastMap::default(),
        }
    }
}

impl<L: PartialEq + Copy, V: Clone> Accepted<L, V> {
    /// What checking `text` under `limits` gave, if it was accepted before.
    pub fn get(&self, limits: L, text: &str) -> Option<V> {
        if self.limits != Some(limits) {
            return None;
        }
        self.seen.get(text).cloned()
    }

    pub fn remember(&mut self, limits: L, text: &str, value: V) {
        if self.limits != Some(limits) {
            self.limits = Some(limits);
            self.seen.clear();
        }
        if text.len() <= TEXT_BYTES && self.seen.len() < ENTRIES {
            self.seen.insert(text.into(), value);
        }
    }
}
