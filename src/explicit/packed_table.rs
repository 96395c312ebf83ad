//! `PackedTable`: interning of state vectors to dense ids, with the states bit-packed.
//!
//! The flat builder's state table. A [`Layout`] gives each variable a bit field just wide enough
//! for its domain's value indices (a boolean takes one bit; input variables, which are 0 in
//! every stored state, take none; procedure systems, whose states may hold `EXIT`, take 32 bits
//! per variable), packed into 64-bit words without straddling a word boundary. NuSMV's
//! `deadlock/gas-nq7.smv` (42 boolean-encoded variables) then takes one word per state instead
//! of 42 × 4 bytes, so hashing and comparing a state is a few word operations and the table
//! stays in cache far longer.
//!
//! All packed states live in one flat `Vec<u64>` arena (`words` words per state, id order); an
//! open-addressing hash table of ids (linear probing, load ≤ 3/4, so a growth — old and new slots live at once — stays small next to the rest; the probe loop is [`super::probe`]'s, shared with [`super::state_table::StateTable`]) maps a packed state to its id.
//! Ids are assigned in insertion order, as [`super::state_table::StateTable`] does, so the
//! numbering is the same. Both arrays grow within a [`MemoryBudget`]. A large table also keeps
//! the states it inserted or found last in a small direct-mapped array in front of the slots
//! ([`RECENT`]), which answers most of a breadth-first search's lookups from the cache.

use super::budget::{MemoryBudget, OutOfMemory};
use super::probe::{free_slot, probe};
use crate::ir::VarKind;
use crate::lowering::program::{System, VarId};

const EMPTY: u32 = u32::MAX;

/// Where each variable's value index lives in a packed state.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Layout {
    /// Per variable: (word, shift, bits).
    fields: Vec<(u32, u8, u8)>,
    words: usize,
}

impl Layout {
    /// The layout of `system`'s states.
    pub(crate) fn of(system: &System) -> Layout {
        Layout::keeping(system, |v| system.vars[v.index()].kind != VarKind::Input)
    }

    /// The layout of `system`'s states as NuSMV counts them ([`System::counts_in_state`]):
    /// the other variables take no bits.
    pub(crate) fn counted(system: &System) -> Layout {
        Layout::keeping(system, |v| system.counts_in_state(v))
    }

    fn keeping(system: &System, keep: impl Fn(VarId) -> bool) -> Layout {
        let bits = system.vars.iter().enumerate().map(|(v, var)| {
            if system.is_procedure {
                32
            } else if !keep(VarId::new(v)) {
                0
            } else {
                let max = var.domain.len().saturating_sub(1).min(u32::MAX as usize) as u64;
                (64 - max.leading_zeros()) as u8
            }
        });
        Layout::from_bits(bits)
    }

    /// A layout with the given field widths (at most 32 bits each).
    pub(crate) fn from_bits(bits: impl Iterator<Item = u8>) -> Layout {
        let mut fields = vec![];
        let (mut word, mut used) = (0u32, 0u8);
        for b in bits {
            let b = b.min(32);
            if used + b > 64 {
                word += 1;
                used = 0;
            }
            fields.push((word, used, b));
            used += b;
        }
        let words = if fields.iter().any(|f| f.2 > 0) { word as usize + 1 } else { 0 };
        Layout { fields, words }
    }

    /// Words per packed state.
    pub(crate) fn words(&self) -> usize {
        self.words
    }

    /// Whether variable `var` has a field of at least one bit (input variables and the variables
    /// a [`Layout::counted`] leaves out have none).
    pub(crate) fn stores(&self, var: usize) -> bool {
        self.fields.get(var).is_some_and(|f| f.2 > 0)
    }

    /// Variables per state.
    pub(crate) fn width(&self) -> usize {
        self.fields.len()
    }

    /// The value index of variable `var` in `packed`.
    #[inline]
    pub(crate) fn field(&self, packed: &[u64], var: usize) -> u32 {
        let (word, shift, bits) = self.fields[var];
        let w = packed.get(word as usize).copied().unwrap_or(0);
        ((w >> shift) & ((1u64 << bits) - 1)) as u32
    }

    /// Sets variable `var`'s field of `packed` to `value`; `false` (and `packed` unchanged) if
    /// the value does not fit the field.
    #[inline]
    pub(crate) fn set(&self, packed: &mut [u64], var: usize, value: u32) -> bool {
        let (word, shift, bits) = self.fields[var];
        let value = u64::from(value);
        if value >> bits != 0 {
            return false;
        }
        if let Some(w) = packed.get_mut(word as usize) {
            let mask = ((1u64 << bits) - 1) << shift;
            *w = (*w & !mask) | (value << shift);
        }
        true
    }

    /// Packs `state` into `out` (`words()` long); `false` if some value does not fit its field
    /// (`out` is then unspecified).
    #[inline]
    pub(crate) fn pack(&self, state: &[u32], out: &mut [u64]) -> bool {
        out.fill(0);
        let mut overflow = 0u64;
        for (&v, &(word, shift, bits)) in state.iter().zip(&self.fields) {
            let v = u64::from(v);
            overflow |= v >> bits;
            if let Some(w) = out.get_mut(word as usize) {
                *w |= v << shift;
            }
        }
        overflow == 0 && state.len() == self.fields.len()
    }

    /// Unpacks `packed` into `out` (one value index per variable).
    #[inline]
    pub(crate) fn unpack(&self, packed: &[u64], out: &mut [u32]) {
        for (o, &(word, shift, bits)) in out.iter_mut().zip(&self.fields) {
            let w = packed.get(word as usize).copied().unwrap_or(0);
            *o = ((w >> shift) & ((1u64 << bits) - 1)) as u32;
        }
    }
}

#[derive(Clone, Debug)]
pub(crate) struct PackedTable {
    layout: Layout,
    words: usize,
    arena: Vec<u64>,
    /// Slots hold a state's first packed word and its id (`EMPTY`: a free slot), so a lookup
    /// of a one-word state touches one cache line; the length is a power of two.
    slots: Vec<Slot>,
    len: u32,
    /// The states inserted or found last, direct-mapped by hash (see [`RECENT`]; empty until
    /// the slots reach [`RECENT_FROM`]).
    recent: Vec<Slot>,
}

/// Slots from which a table keeps [`RECENT`] states in front of them (below, the slots are in
/// cache anyway).
const RECENT_FROM: usize = if cfg!(test) { 256 } else { 1 << 20 };
/// Size of the direct-mapped array of states inserted or found last, in front of the slots: 2 MiB,
/// so it stays in the processor's cache. Most successors met in a breadth-first search are states
/// numbered shortly before (NuSMV's gas-nq7: of the 22.4 M lookups that find a state, 16.7 M find
/// it there), and a lookup answered here does not touch the slots, whose random accesses in a
/// table of 128 MiB are the interning's memory traffic. (`--engine explicit -j 2`, state space
/// 1.77–1.79 s → 1.67–1.70 s; `-j 1`, where the one thread has the memory to itself, within 2 %.)
/// A state evicted from it is still in the slots: it is only ever a shortcut.
const RECENT: usize = if cfg!(test) { 16 } else { 1 << 17 };

/// A key's place in [`PackedTable::recent`], from hash bits the slots' index does not use.
#[inline]
fn recent_index(h: u64) -> usize {
    (h >> 40) as usize & (RECENT - 1)
}

/// Hints the processor to load the cache line of `slot`.
#[inline(always)]
fn prefetch_line(slot: &Slot) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: SSE is part of every x86-64 target; a prefetch is a hint that never faults, and
    // the address is a reference's anyway.
    unsafe {
        std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>((&raw const *slot).cast::<i8>())
    };
    #[cfg(not(target_arch = "x86_64"))]
    let _ = slot;
}

#[derive(Clone, Copy, Debug)]
struct Slot {
    first: u64,
    id: u32,
}

const FREE: Slot = Slot { first: 0, id: EMPTY };

#[inline]
fn is_free(slot: Slot) -> bool {
    slot.id == EMPTY
}

impl PackedTable {
    pub(crate) fn new(layout: Layout) -> PackedTable {
        let words = layout.words();
        PackedTable { layout, words, arena: Vec::new(), slots: vec![FREE; 64], len: 0, recent: Vec::new() }
    }

    pub(crate) fn layout(&self) -> &Layout {
        &self.layout
    }

    pub(crate) fn len(&self) -> u32 {
        self.len
    }

    /// The packed state `id`.
    #[inline]
    pub(crate) fn packed(&self, id: u32) -> &[u64] {
        let start = id as usize * self.words;
        &self.arena[start..start + self.words]
    }

    /// The packed states `ids`, in id order (`layout().words()` words each).
    pub(crate) fn packed_range(&self, ids: std::ops::Range<u32>) -> &[u64] {
        &self.arena[ids.start as usize * self.words..ids.end as usize * self.words]
    }

    /// State `id` unpacked into `out`.
    #[inline]
    pub(crate) fn get_into(&self, id: u32, out: &mut [u32]) {
        self.layout.unpack(self.packed(id), out);
    }

    /// State `id` unpacked (for messages).
    pub(crate) fn unpacked(&self, id: u32) -> Vec<u32> {
        let mut out = vec![0; self.layout.fields.len()];
        self.get_into(id, &mut out);
        out
    }

    /// The id of the packed state `key`, inserting it if new (`true`), within `budget` (which
    /// must already count [`Self::reserved_bytes`]).
    #[inline]
    pub(crate) fn try_insert(&mut self, key: &[u64], budget: &mut MemoryBudget) -> Result<(u32, bool), OutOfMemory> {
        self.try_insert_hashed(key, hash(key), budget)
    }

    /// Hints the processor to load the hash slot of the key `key` with hash `h` (see
    /// [`Self::try_insert_hashed`]), unless [`Self::recent`] seems to hold it.
    #[inline]
    pub(crate) fn prefetch(&self, h: u64, key: &[u64]) {
        if let Some(r) = self.recent.get(recent_index(h))
            && key.first() == Some(&r.first)
        {
            return;
        }
        prefetch_line(&self.slots[h as usize & (self.slots.len() - 1)]);
    }

    /// Hints the processor to load the place of the key with hash `h` in [`Self::recent`], which
    /// [`Self::prefetch`] reads: called some keys before it, so that its test does not wait for
    /// memory either.
    #[inline]
    pub(crate) fn prefetch_recent(&self, h: u64) {
        if let Some(r) = self.recent.get(recent_index(h)) {
            prefetch_line(r);
        }
    }

    /// The id of the packed state `key` (whose [`hash`] is `h`), if it is in the table.
    #[inline]
    pub(crate) fn find_hashed(&self, key: &[u64], h: u64) -> Option<u32> {
        self.recent_id(key, h).or_else(|| self.slot_of(key, h).ok().map(|at| self.slots[at].id))
    }

    /// The id of `key` (whose [`hash`] is `h`) if [`Self::recent`] holds it.
    #[inline]
    fn recent_id(&self, key: &[u64], h: u64) -> Option<u32> {
        let r = *self.recent.get(recent_index(h))?;
        let first = key.first().copied().unwrap_or(0);
        (r.id != EMPTY && r.first == first && (self.words <= 1 || same(&self.packed(r.id)[1..], &key[1..]))).then_some(r.id)
    }

    /// `Ok(i)`: slot `i` holds `key` (whose [`hash`] is `h`); `Err(i)`: it is absent and would
    /// go in the free slot `i`.
    #[inline]
    fn slot_of(&self, key: &[u64], h: u64) -> Result<usize, usize> {
        debug_assert_eq!(key.len(), self.words);
        debug_assert_eq!(h, hash(key));
        let first = key.first().copied().unwrap_or(0);
        let is_key = |slot: Slot| slot.first == first && (self.words <= 1 || same(&self.packed(slot.id)[1..], &key[1..]));
        probe(&self.slots, h, is_free, is_key)
    }

    /// [`Self::try_insert`] of a key whose [`hash`] is `h`.
    #[inline]
    pub(crate) fn try_insert_hashed(&mut self, key: &[u64], h: u64, budget: &mut MemoryBudget) -> Result<(u32, bool), OutOfMemory> {
        if let Some(id) = self.recent_id(key, h) {
            return Ok((id, false));
        }
        let first = key.first().copied().unwrap_or(0);
        let ri = recent_index(h);
        let mut i = match self.slot_of(key, h) {
            Ok(at) => {
                let slot = self.slots[at];
                if let Some(r) = self.recent.get_mut(ri) {
                    *r = slot;
                }
                return Ok((slot.id, false));
            }
            Err(free) => free,
        };
        budget.reserve(&mut self.arena, self.words)?;
        if (self.len as usize + 1) * 4 > self.slots.len() * 3 {
            let slots = budget.filled(self.slots.len() * 2, FREE)?;
            budget.release(super::budget::reserved(&self.slots));
            self.grow(slots);
            i = free_slot(&self.slots, h, is_free);
            if self.recent.is_empty() && self.slots.len() >= RECENT_FROM {
                self.recent = budget.filled(RECENT, FREE)?;
            }
        }
        let id = self.len;
        self.slots[i] = Slot { first, id };
        if let Some(r) = self.recent.get_mut(ri) {
            *r = Slot { first, id };
        }
        self.arena.extend_from_slice(key);
        self.len += 1;
        Ok((id, true))
    }

    /// Bytes reserved by the arena and the hash slots.
    pub(crate) fn reserved_bytes(&self) -> u64 {
        super::budget::reserved(&self.arena) + super::budget::reserved(&self.slots) + super::budget::reserved(&self.recent)
    }

    /// Frees the hash slots (no more inserts); returns the bytes freed.
    pub(crate) fn drop_index(&mut self) -> u64 {
        let bytes = super::budget::reserved(&self.slots) + super::budget::reserved(&self.recent);
        self.slots = Vec::new();
        self.recent = Vec::new();
        bytes
    }

    /// The layout, the packed states and their count, without the hash index (no more inserts;
    /// `StateValues::from_table` keeps them as the structure's values).
    pub(crate) fn into_parts(self) -> (Layout, Vec<u64>, u32) {
        (self.layout, self.arena, self.len)
    }

    /// Rehashes every state into `slots` (all free, twice the current size).
    fn grow(&mut self, mut slots: Vec<Slot>) {
        if self.words == 1 {
            // A one-word key is its slot's `first`: walking the old slots in order, each key's
            // new home is its old one or that plus the old size, so the new array is written in
            // two ascending runs; the walk by id, below, writes it at random (NuSMV's
            // gas-nq7, 6 M states: its growths took 200–220 ms by id, 55–70 ms by slot).
            for &old in &self.slots {
                if !is_free(old) {
                    let i = free_slot(&slots, hash(&[old.first]), is_free);
                    slots[i] = old;
                }
            }
            self.slots = slots;
            return;
        }
        for id in 0..self.len {
            let key = self.packed(id);
            let i = free_slot(&slots, hash(key), is_free);
            slots[i] = Slot { first: key.first().copied().unwrap_or(0), id };
        }
        self.slots = slots;
    }
}

#[inline]
fn same(a: &[u64], b: &[u64]) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x == y)
}

/// A 64-bit mix of the packed words (murmur3's finaliser after each word).
#[inline]
pub(crate) fn hash(key: &[u64]) -> u64 {
    let mut h = 0x9e37_79b9_7f4a_7c15u64;
    for &w in key {
        h = (h ^ w).wrapping_mul(0xff51_afd7_ed55_8ccd);
        h ^= h >> 32;
    }
    h = (h ^ (h >> 33)).wrapping_mul(0xc4ce_b9fe_1a85_ec53);
    h ^ (h >> 33)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table(bits: &[u8]) -> PackedTable {
        PackedTable::new(Layout::from_bits(bits.iter().copied()))
    }

    fn insert(t: &mut PackedTable, state: &[u32]) -> (u32, bool) {
        let mut key = vec![0; t.layout().words()];
        assert!(t.layout().pack(state, &mut key));
        t.try_insert(&key, &mut MemoryBudget::new(None)).unwrap()
    }

    #[test]
    fn fields_do_not_straddle_words() {
        let l = Layout::from_bits([1, 32, 31, 1, 0, 32].into_iter());
        assert_eq!(l.fields, vec![(0, 0, 1), (0, 1, 32), (0, 33, 31), (1, 0, 1), (1, 1, 0), (1, 1, 32)]);
        assert_eq!(l.words(), 2);
        assert_eq!(Layout::from_bits([0, 0].into_iter()).words(), 0);
    }

    #[test]
    fn packs_and_unpacks_every_field() {
        let l = Layout::from_bits([1, 3, 32, 7, 0].into_iter());
        let state = [1, 5, u32::MAX - 3, 100, 0];
        let mut key = vec![0; l.words()];
        assert!(l.pack(&state, &mut key));
        let mut back = [9; 5];
        l.unpack(&key, &mut back);
        assert_eq!(back, state);
        // Values that do not fit their field are refused, not truncated.
        assert!(!l.pack(&[2, 0, 0, 0, 0], &mut key));
        assert!(!l.pack(&[0, 0, 0, 0, 1], &mut key));
    }

    #[test]
    fn set_overwrites_one_field_and_refuses_what_does_not_fit() {
        let l = Layout::from_bits([1, 32, 31, 3, 0, 32].into_iter());
        let state = [1, u32::MAX, (1 << 31) - 1, 5, 0, 7];
        let mut key = vec![0; l.words()];
        assert!(l.pack(&state, &mut key));
        for (var, value) in [(0, 0), (1, 12345), (2, 0), (3, 2), (5, u32::MAX)] {
            let mut expected = state;
            expected[var] = value;
            let mut packed = vec![0; l.words()];
            assert!(l.pack(&expected, &mut packed));
            let mut set = key.clone();
            assert!(l.set(&mut set, var, value));
            assert_eq!(set, packed, "field {var}");
        }
        // Too wide for the field: refused, the key unchanged.
        let before = key.clone();
        assert!(!l.set(&mut key, 0, 2));
        assert!(!l.set(&mut key, 3, 8));
        assert!(!l.set(&mut key, 4, 1));
        assert_eq!(key, before);
    }

    #[test]
    fn interns_densely_in_insertion_order() {
        let mut t = table(&[3, 10, 3]);
        for i in 0..1000u32 {
            assert_eq!(insert(&mut t, &[i % 7, i / 7, 5]), (i, true));
        }
        for i in 0..1000u32 {
            assert_eq!(insert(&mut t, &[i % 7, i / 7, 5]), (i, false));
            assert_eq!(t.unpacked(i), vec![i % 7, i / 7, 5]);
        }
        assert_eq!(t.len(), 1000);
        let all = crate::explicit::state_values::StateValues::from_table(t);
        assert_eq!(all.row(999), vec![999 % 7, 999 / 7, 5]);
        assert_eq!(all.value(999, 1), 999 / 7);
    }

    #[test]
    fn recent_states_are_a_shortcut_only() {
        // Two words whose first is the same for every state: the recent array must compare the
        // rest. Keys are looked up again out of insertion order, so most are evicted meanwhile.
        for (bits, words) in [(&[20u8, 20][..], 1), (&[20, 20, 32], 2)] {
            let mut t = table(bits);
            assert_eq!(t.layout().words(), words);
            let state = |i: u32| [if words == 1 { i } else { 7 }, 3, i];
            for i in 0..3000u32 {
                assert_eq!(insert(&mut t, &state(i)[..bits.len()]), (i, true));
                // Found again right away: from the recent array.
                assert_eq!(insert(&mut t, &state(i)[..bits.len()]), (i, false));
            }
            assert!(!t.recent.is_empty());
            for i in (0..3000u32).rev().step_by(7) {
                assert_eq!(insert(&mut t, &state(i)[..bits.len()]), (i, false));
                let mut key = vec![0; words];
                t.layout().pack(&state(i)[..bits.len()], &mut key);
                assert_eq!(t.find_hashed(&key, hash(&key)), Some(i));
            }
            let mut key = vec![0; words];
            t.layout().pack(&state(3000)[..bits.len()], &mut key);
            assert_eq!(t.find_hashed(&key, hash(&key)), None);
            assert_eq!(t.len(), 3000);
        }
    }

    #[test]
    fn growths_keep_every_key_for_one_and_two_word_states() {
        // One word: the growth walks the old slots; two words: it walks the ids.
        for (bits, words) in [(&[20u8, 20][..], 1), (&[20, 20, 32], 2)] {
            let mut t = table(bits);
            assert_eq!(t.layout().words(), words);
            for i in 0..5000u32 {
                let state = [i.wrapping_mul(2_654_435_761) >> 12, i, i];
                assert_eq!(insert(&mut t, &state[..bits.len()]), (i, true));
            }
            for i in 0..5000u32 {
                let state = [i.wrapping_mul(2_654_435_761) >> 12, i, i];
                assert_eq!(insert(&mut t, &state[..bits.len()]), (i, false));
            }
            assert!(t.slots.len() >= 8192);
        }
    }

    #[test]
    fn budgeted_inserts_account_what_the_table_reserves() {
        let mut t = table(&[32, 3]);
        let mut budget = MemoryBudget::new(Some(64 * 1024));
        budget.account(t.reserved_bytes());
        let mut n = 0u32;
        let mut key = [0u64; 1];
        let err = loop {
            assert!(t.layout().pack(&[n, 7], &mut key));
            match t.try_insert(&key, &mut budget) {
                Ok((id, true)) => assert_eq!(id, n),
                Ok(_) => panic!("state {n} is new"),
                Err(e) => break e,
            }
            assert_eq!(budget.used(), t.reserved_bytes());
            n += 1;
        };
        assert!(matches!(err, OutOfMemory::Budget { needed } if needed > 64 * 1024));
        assert!(budget.used() <= 64 * 1024);
        for i in 0..t.len() {
            assert_eq!(t.unpacked(i), vec![i, 7]);
        }
    }

    #[test]
    fn zero_width_states() {
        let mut t = table(&[]);
        assert_eq!(insert(&mut t, &[]), (0, true));
        assert_eq!(insert(&mut t, &[]), (0, false));
        let mut t = table(&[0, 0]);
        assert_eq!(insert(&mut t, &[0, 0]), (0, true));
        assert_eq!(insert(&mut t, &[0, 0]), (0, false));
        assert_eq!(t.unpacked(0), vec![0, 0]);
    }
}
