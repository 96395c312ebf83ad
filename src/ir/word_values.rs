//! Value indices of word variables wider than [`super::words::MAX_VAR_WIDTH`] bits.
//!
//! A state stores one 32-bit value index per variable. For words of at most 31 bits the index is
//! the bit pattern itself; a wider word (up to 64 bits) cannot be stored that way, so its values
//! are numbered in the order the front end and the state-space builder meet them: a shared,
//! append-only table (bit pattern ↔ index) behind a lock, owned by the variable's
//! [`super::value::Domain::Word`]. A `word[32]` counter with a handful of reachable values
//! costs a handful of entries; one whose reachable values are many hits the state limit first.
//!
//! Indices stay below [`MAX_WIDE_VALUES`], clear of the state vector's reserved indices
//! (unset slots, `EXIT`). Numbering depends on the order values are met, which is the
//! builder's deterministic exploration order; only indices (never printed) depend on it.

use rustc_hash::FxHashMap;
use std::sync::RwLock;

/// Most distinct values one wide word variable may take (indices 0 .. this).
pub(crate) const MAX_WIDE_VALUES: usize = (u32::MAX - 2) as usize;

#[derive(Debug, Default)]
struct Table {
    bits: Vec<u64>,
    index: FxHashMap<u64, u32>,
}

/// The values met so far of one wide word variable.
#[derive(Debug, Default)]
pub struct WordValues {
    table: RwLock<Table>,
}

impl WordValues {
    /// The bit pattern with index `i`, if that index was handed out.
    pub(crate) fn bits(&self, i: usize) -> Option<u64> {
        let t = self.table.read().unwrap_or_else(|e| e.into_inner());
        t.bits.get(i).copied()
    }

    /// The index of `bits`, numbering it if it is new; `None` once the table is full.
    pub(crate) fn index(&self, bits: u64) -> Option<usize> {
        if let Some(&i) = self.table.read().unwrap_or_else(|e| e.into_inner()).index.get(&bits) {
            return Some(i as usize);
        }
        let mut t = self.table.write().unwrap_or_else(|e| e.into_inner());
        if let Some(&i) = t.index.get(&bits) {
            return Some(i as usize);
        }
        let i = t.bits.len();
        if i >= MAX_WIDE_VALUES {
            return None;
        }
        t.bits.push(bits);
        t.index.insert(bits, i as u32);
        Some(i)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_are_numbered_in_order_of_arrival() {
        let v = WordValues::default();
        assert_eq!(v.index(u64::MAX), Some(0));
        assert_eq!(v.index(7), Some(1));
        assert_eq!(v.index(u64::MAX), Some(0));
        assert_eq!(v.bits(1), Some(7));
        assert_eq!(v.bits(2), None);
    }
}
