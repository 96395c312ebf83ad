//! `StateTable`: interning of fixed-width state vectors to dense ids.
//!
//! All vectors live in one flat `Vec<u32>` arena (`width` words per state, row-major, id order);
//! an open-addressing hash table of ids (linear probing with [`super::probe`]'s loop, Fx hash of the vector, load ≤ 1/2) maps a
//! vector to its id without storing a separate key per state. Ids are assigned in insertion order.
//! [`StateTable::try_insert`] grows both arrays within a [`MemoryBudget`].

use super::budget::{MemoryBudget, OutOfMemory};
use super::probe::{free_slot, probe};
use rustc_hash::FxHasher;
use std::hash::Hasher;

const EMPTY: u32 = u32::MAX;

#[derive(Clone, Debug)]
pub(crate) struct StateTable {
    width: usize,
    arena: Vec<u32>,
    /// Slots hold state ids or `EMPTY`; the length is a power of two.
    slots: Vec<u32>,
    len: u32,
}

impl StateTable {
    pub(crate) fn new(width: usize) -> StateTable {
        StateTable { width, arena: Vec::new(), slots: vec![EMPTY; 64], len: 0 }
    }

    pub(crate) fn len(&self) -> u32 {
        self.len
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The vector of state `id`.
    pub(crate) fn get(&self, id: u32) -> &[u32] {
        let start = id as usize * self.width;
        &self.arena[start..start + self.width]
    }

    /// All vectors, row-major in id order.
    pub(crate) fn arena(&self) -> &[u32] {
        &self.arena
    }

    /// The id of `state` if present (the tests' lookup; `insert` finds states while inserting).
    #[cfg(test)]
    pub(crate) fn find(&self, state: &[u32]) -> Option<u32> {
        let at = probe(&self.slots, hash(state), |id| id == EMPTY, |id| self.get(id) == state).ok()?;
        Some(self.slots[at])
    }

    /// The id of `state`, inserting it if new; `true` when it was inserted.
    pub(crate) fn insert(&mut self, state: &[u32]) -> (u32, bool) {
        debug_assert_eq!(state.len(), self.width);
        if (self.len as usize + 1) * 2 > self.slots.len() {
            self.grow(vec![EMPTY; self.slots.len() * 2]);
        }
        self.insert_with_room(state)
    }

    /// [`StateTable::insert`] within `budget` (which must already count [`Self::reserved_bytes`]).
    #[inline]
    pub(crate) fn try_insert(&mut self, state: &[u32], budget: &mut MemoryBudget) -> Result<(u32, bool), OutOfMemory> {
        debug_assert_eq!(state.len(), self.width);
        if (self.len as usize + 1) * 2 > self.slots.len() {
            let slots = budget.filled(self.slots.len() * 2, EMPTY)?;
            budget.release(super::budget::reserved(&self.slots));
            self.grow(slots);
        }
        budget.reserve(&mut self.arena, self.width)?;
        Ok(self.insert_with_room(state))
    }

    /// Bytes reserved by the arena and the hash slots.
    pub(crate) fn reserved_bytes(&self) -> u64 {
        super::budget::reserved(&self.arena) + super::budget::reserved(&self.slots)
    }

    fn insert_with_room(&mut self, state: &[u32]) -> (u32, bool) {
        let i = match probe(&self.slots, hash(state), |id| id == EMPTY, |id| self.get(id) == state) {
            Ok(at) => return (self.slots[at], false),
            Err(free) => free,
        };
        let id = self.len;
        self.slots[i] = id;
        self.arena.extend_from_slice(state);
        self.len += 1;
        (id, true)
    }

    /// Rehashes every state into `slots` (all `EMPTY`, twice the current size).
    fn grow(&mut self, mut slots: Vec<u32>) {
        for id in 0..self.len {
            let i = free_slot(&slots, hash(self.get(id)), |s| s == EMPTY);
            slots[i] = id;
        }
        self.slots = slots;
    }
}

fn hash(state: &[u32]) -> u64 {
    let mut h = FxHasher::default();
    for &w in state {
        h.write_u32(w);
    }
    // Fx leaves the low bits weak for small inputs; mix the high bits down.
    let x = h.finish();
    x ^ (x >> 29) ^ (x >> 47)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn interns_vectors_densely_in_insertion_order() {
        let mut t = StateTable::new(3);
        let mut ids = vec![];
        for i in 0..1000u32 {
            let (id, new) = t.insert(&[i % 7, i / 7, 5]);
            assert!(new);
            ids.push(id);
        }
        assert_eq!(ids, (0..1000).collect::<Vec<_>>());
        for i in 0..1000u32 {
            assert_eq!(t.insert(&[i % 7, i / 7, 5]), (i, false));
            assert_eq!(t.find(&[i % 7, i / 7, 5]), Some(i));
            assert_eq!(t.get(i), &[i % 7, i / 7, 5]);
        }
        assert_eq!(t.find(&[0, 0, 4]), None);
        assert_eq!(t.len(), 1000);
    }

    #[test]
    fn budgeted_inserts_account_what_the_table_reserves() {
        let mut t = StateTable::new(2);
        let mut budget = MemoryBudget::new(Some(64 * 1024));
        budget.account(t.reserved_bytes());
        let mut n = 0u32;
        let err = loop {
            match t.try_insert(&[n, 7], &mut budget) {
                Ok((id, true)) => assert_eq!(id, n),
                Ok(_) => panic!("state {n} is new"),
                Err(e) => break e,
            }
            assert_eq!(budget.used(), t.reserved_bytes());
            n += 1;
        };
        assert!(matches!(err, OutOfMemory::Budget { needed } if needed > 64 * 1024));
        assert!(budget.used() <= 64 * 1024);
        // Everything inserted before the refusal is still there.
        for i in 0..t.len() {
            assert_eq!(t.find(&[i, 7]), Some(i));
        }
    }

    #[test]
    fn zero_width_states() {
        let mut t = StateTable::new(0);
        assert_eq!(t.insert(&[]), (0, true));
        assert_eq!(t.insert(&[]), (0, false));
        assert_eq!(t.len(), 1);
    }
}
