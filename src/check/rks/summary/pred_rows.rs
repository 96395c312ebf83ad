//! Bit rows of the predecessor relation of a dense component, for the summary worklists.
//!
//! Row `m` holds the locations with an edge to node `m`, one bit per node of the component, in
//! the block layout of [`FixedBitSet`](fixedbitset::FixedBitSet) (`usize` words), so that a
//! worklist step intersects it with the frame's `a` vector (and with the complement of what is
//! already solved) a word at a time instead of filtering `m`'s predecessor list edge by edge.
//! Built only where that pays: the average in-degree at least [`MIN_DEGREE_PER_WORD`] per word
//! of a row and the rows of the component at most [`MAX_BLOCKS`] words in all. On the random RSMs
//! of the scalability grid (20 % edge density) a 424-node component has ~85 predecessors per
//! location and rows of 7 words; the avrora models' sparse 90,137-location component (about one
//! predecessor per location, rows of 1,409 words) keeps its edge lists.
//!
//! Assumes what [`Component`] promises: predecessor lists hold nodes of the same component.

use crate::explicit::rks::{Component, NodeId};

/// Bits per row word (the [`fixedbitset::Block`] size).
const BITS: usize = usize::BITS as usize;

/// Rows are built if the component's edges are at least this many per node and row word.
/// Measured on the grid (`row summary 50 1 60 10 43`, ~85 predecessors per node and 7 words per row):
/// a step over a row costs about as much as one over 2–3 edges of a list.
const MIN_DEGREE_PER_WORD: usize = 1;

/// At most this many words of rows per component (16 MB).
const MAX_BLOCKS: usize = 1 << 21;

/// See the module documentation.
pub(crate) struct PredRows {
    words: usize,
    bits: Vec<usize>,
}

impl PredRows {
    /// The rows of `c`, or `None` where the edge lists are cheaper (see the module documentation).
    pub(crate) fn new(c: &Component) -> Option<PredRows> {
        let n = c.num_nodes as usize;
        let words = n.div_ceil(BITS);
        if n == 0 || n.checked_mul(words)? > MAX_BLOCKS || c.pred.edge_count() < n * words * MIN_DEGREE_PER_WORD {
            return None;
        }
        let mut bits = vec![0usize; n * words];
        for m in 0..n {
            let row = &mut bits[m * words..(m + 1) * words];
            for &p in c.pred.neighbours(NodeId::new(m)) {
                row[p.index() / BITS] |= 1 << (p.index() % BITS);
            }
        }
        Some(PredRows { words, bits })
    }

    /// The predecessors of `m` as bits.
    #[inline]
    pub(crate) fn row(&self, m: NodeId) -> &[usize] {
        let m = m.index();
        &self.bits[m * self.words..(m + 1) * self.words]
    }
}

/// Calls `f` on each position set in both `x` and `y` (word slices of the same length), in
/// increasing order.
#[inline]
pub(crate) fn for_each_common(x: &[usize], y: &[usize], mut f: impl FnMut(NodeId)) {
    for (i, (&a, &b)) in x.iter().zip(y).enumerate() {
        let mut w = a & b;
        while w != 0 {
            f(NodeId::new(i * BITS + w.trailing_zeros() as usize));
            w &= w - 1;
        }
    }
}

/// `into |= x & y & !into` word by word; calls `f` on each position that was added, in
/// increasing order (backward reachability through `y`: `x` a predecessor row, `into` the set
/// reached so far).
#[inline]
pub(crate) fn add_common(into: &mut [usize], x: &[usize], y: &[usize], mut f: impl FnMut(NodeId)) {
    for (i, ((t, &a), &b)) in into.iter_mut().zip(x).zip(y).enumerate() {
        let mut w = a & b & !*t;
        *t |= w;
        while w != 0 {
            f(NodeId::new(i * BITS + w.trailing_zeros() as usize));
            w &= w - 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::explicit::rks_builder::RksBuilder;

    /// A component of `n` locations `l0 … l{n-1}` with the edges `li -> lj` for which `edge(i, j)`,
    /// except out of its exit `l{n-1}` (an exit has no successor).
    fn component(n: usize, edge: impl Fn(usize, usize) -> bool) -> Component {
        let mut b = RksBuilder::new();
        let c = b.component("main");
        for i in 0..n {
            b.loc(c, &format!("l{i}"), &[]);
        }
        for i in 0..n {
            for j in 0..n {
                if i != n - 1 && edge(i, j) {
                    b.edge(c, &format!("l{i}"), &format!("l{j}"));
                }
            }
        }
        b.exit(c, "EXIT", &format!("l{}", n - 1));
        b.build().expect("valid structure").components.swap_remove(0)
    }

    #[test]
    fn dense_components_get_rows_equal_to_their_predecessor_lists() {
        // 100 locations (2 words per row), every third pair an edge: ~33 predecessors per location.
        let c = component(100, |i, j| (i + 2 * j) % 3 == 0);
        let rows = PredRows::new(&c).expect("dense enough");
        for m in 0..c.num_nodes {
            let mut from_row = Vec::new();
            for_each_common(rows.row(NodeId::from_u32(m)), &vec![usize::MAX; rows.words], |p| from_row.push(p));
            let mut from_list = c.pred.neighbours(NodeId::from_u32(m)).to_vec();
            from_list.sort_unstable();
            assert_eq!(from_row, from_list, "predecessors of {m}");
        }
    }

    #[test]
    fn sparse_components_keep_their_edge_lists() {
        // A chain of 300 locations: one predecessor per location, rows of 5 words.
        assert!(PredRows::new(&component(300, |i, j| j == i + 1)).is_none());
    }

    #[test]
    fn add_common_adds_only_new_common_positions() {
        let (x, y) = ([0b1111usize, 1 << 3], [0b0110usize, usize::MAX]);
        let mut into = [0b0010usize, 0];
        let mut added = Vec::new();
        add_common(&mut into, &x, &y, |p| added.push(p));
        assert_eq!(added, vec![NodeId::new(2), NodeId::new(BITS + 3)]);
        assert_eq!(into, [0b0110, 1 << 3]);
    }
}
