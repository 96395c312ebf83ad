//! `StateValues`: the variable values of every state of a built flat model, bit-packed.
//!
//! The [`super::kripke::KripkeStructure`] keeps each state's value indices for labelling,
//! traces and the interactive session. Stored one `u32` per variable and state they took most of
//! a large model's memory (NuSMV's `deadlock/gas-nq7.smv`: 6.0 M states × 43 variables × 4 bytes
//! ≈ 1 GB); here they stay in the builder's packed form (see [`super::packed_table::Layout`]:
//! a bit field per variable just wide enough for its domain, a boolean one bit, inputs none),
//! so the same model takes one 64-bit word per state. Reading a state unpacks it into a caller's
//! buffer; reading one variable is a shift and a mask.
//!
//! Assumes every stored value fits its field (the builder packs only such states; for rows given
//! directly, [`StateValues::from_rows`] sizes the fields from the largest value of each column).

use super::packed_table::{Layout, PackedTable};

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct StateValues {
    layout: Layout,
    /// `layout.words()` words per state, in id order.
    arena: Vec<u64>,
    count: u32,
}

// `len` without `is_empty`: nothing asks whether it is empty (an `is_empty` would be dead code
// once the type is `pub(crate)`, tools/visibility/sweep.sh).
#[allow(clippy::len_without_is_empty)]
impl StateValues {
    /// The packed states `arena` (`layout.words()` words each, `count` states).
    pub(crate) fn new(layout: Layout, mut arena: Vec<u64>, count: u32) -> StateValues {
        debug_assert_eq!(arena.len(), count as usize * layout.words());
        arena.shrink_to_fit();
        StateValues { layout, arena, count }
    }

    /// The states of a finished table, without its hash index.
    pub(crate) fn from_table(table: PackedTable) -> StateValues {
        let (layout, arena, count) = table.into_parts();
        StateValues::new(layout, arena, count)
    }

    /// Row-major value indices, `width` per state (tests and hand-built structures).
    pub fn from_rows(width: usize, rows: &[u32]) -> StateValues {
        let count = rows.len().checked_div(width).unwrap_or(0);
        let mut max = vec![0u32; width];
        for row in rows.chunks_exact(width.max(1)).take(count) {
            for (m, &v) in max.iter_mut().zip(row) {
                *m = (*m).max(v);
            }
        }
        let layout = Layout::from_bits(max.iter().map(|&m| (32 - m.leading_zeros()) as u8));
        let mut arena = vec![0u64; count * layout.words()];
        if layout.words() > 0 {
            for (row, key) in rows.chunks_exact(width.max(1)).zip(arena.chunks_exact_mut(layout.words())) {
                let fits = layout.pack(row, key);
                debug_assert!(fits, "fields are sized from the largest value");
            }
        }
        StateValues { layout, arena, count: count as u32 }
    }

    /// Number of states.
    pub(crate) fn len(&self) -> usize {
        self.count as usize
    }

    #[cfg(test)]
    pub fn is_empty(&self) -> bool {
        self.count == 0
    }

    /// Variables per state.
    pub(crate) fn width(&self) -> usize {
        self.layout.width()
    }

    /// State `s`'s value indices written into `out` (`width()` long).
    #[inline]
    pub(crate) fn get_into(&self, s: u32, out: &mut [u32]) {
        let w = self.layout.words();
        let start = s as usize * w;
        self.layout.unpack(&self.arena[start..start + w], out);
    }

    /// State `s`'s value indices.
    pub(crate) fn row(&self, s: u32) -> Vec<u32> {
        let mut out = vec![0; self.width()];
        self.get_into(s, &mut out);
        out
    }

    /// The value index of variable `var` in state `s`.
    #[inline]
    pub(crate) fn value(&self, s: u32, var: usize) -> u32 {
        let w = self.layout.words();
        self.layout.field(&self.arena[s as usize * w..(s as usize + 1) * w], var)
    }

    /// Bytes held.
    pub(crate) fn bytes(&self) -> u64 {
        super::budget::reserved(&self.arena)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_round_trip_with_fields_sized_by_the_largest_value() {
        let rows = [0, 5, 1, u32::MAX, 3, 0, 0, 7, 1, 2, 1, 0];
        let v = StateValues::from_rows(4, &rows);
        assert_eq!(v.len(), 3);
        assert_eq!(v.width(), 4);
        for s in 0..3u32 {
            assert_eq!(v.row(s), rows[s as usize * 4..(s as usize + 1) * 4]);
            for var in 0..4 {
                assert_eq!(v.value(s, var), rows[s as usize * 4 + var]);
            }
        }
        // 2 + 3 + 1 + 32 bits: one word per state.
        assert_eq!(v.bytes(), 3 * 8);
    }

    #[test]
    fn zero_width_and_constant_columns() {
        let v = StateValues::from_rows(2, &[0, 0, 0, 0]);
        assert_eq!(v.len(), 2);
        assert_eq!(v.row(1), vec![0, 0]);
        assert_eq!(v.bytes(), 0);
        let e = StateValues::from_rows(0, &[]);
        assert!(e.is_empty());
    }
}
