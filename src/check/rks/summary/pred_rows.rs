//! Bit rows of the predecessor and return relations of a dense component, for the summary
//! engine.
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
//! [`ReturnRows`] do the same for the continuations of each (call, callee exit) pair, which the
//! call contexts test against the caller's vectors ("does some continuation of exit `k`
//! satisfy it"): on the grid ~40 continuations per pair, tested bit by bit, were 40 % of the
//! instructions of cell 40/46 before.
//!
//! Assumes what [`Component`] promises: predecessor lists and continuations hold nodes of the
//! same component.

use crate::explicit::rks::{Component, NodeId};
use smallvec::SmallVec;

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
        Self::of(c, &c.pred)
    }

    /// The same rows of the successor relation: row `m` holds `m`'s successors. Built under the
    /// same rule (the relations have the same edges), so a component has both or neither.
    pub(crate) fn successors(c: &Component) -> Option<PredRows> {
        Self::of(c, &c.succ)
    }

    fn of(c: &Component, rel: &crate::explicit::csr::Csr<NodeId>) -> Option<PredRows> {
        let n = c.num_nodes as usize;
        let words = n.div_ceil(BITS);
        if n == 0 || n.checked_mul(words)? > MAX_BLOCKS || rel.edge_count() < n * words * MIN_DEGREE_PER_WORD {
            return None;
        }
        let bits = bit_rows((0..n).map(|m| rel.neighbours(NodeId::new(m))), words);
        Some(PredRows { words, bits })
    }

    /// The predecessors (successors, for [`PredRows::successors`]) of `m` as bits.
    #[inline]
    pub(crate) fn row(&self, m: NodeId) -> &[usize] {
        let m = m.index();
        &self.bits[m * self.words..(m + 1) * self.words]
    }
}

/// One row of `words` words per list of `lists`, with the bits of the list's nodes set.
fn bit_rows<'c>(lists: impl ExactSizeIterator<Item = &'c [NodeId]>, words: usize) -> Vec<usize> {
    let mut bits = vec![0usize; lists.len() * words];
    for (row, list) in bits.chunks_exact_mut(words).zip(lists) {
        for &v in list {
            row[v.index() / BITS] |= 1 << (v.index() % BITS);
        }
    }
    bits
}

/// The continuations of every (call, callee exit) pair of a dense component as bit rows, in
/// the order of [`Component::returns`]' flattening (`return_offsets[call] + k`).
pub(crate) struct ReturnRows {
    words: usize,
    bits: Vec<usize>,
    /// Per call (position in `Component::calls`): the first call with the same continuations
    /// for every callee exit. Such calls get the same call context from the same vectors; on
    /// the grid they are the calls of one box to the per-entry copies of its callee (~6 each).
    class: Vec<u32>,
    /// The pairs of the calls that are the first of their class, in order: [`Self::meets_all`]
    /// tests only these.
    first_pairs: Vec<u32>,
}

impl ReturnRows {
    /// The rows of `c`, or `None` where testing the continuations one by one is cheaper (fewer
    /// continuations per pair than words per row, or rows past [`MAX_BLOCKS`] words).
    pub(crate) fn new(c: &Component) -> Option<ReturnRows> {
        let n = c.num_nodes as usize;
        let words = n.div_ceil(BITS);
        let pairs = c.returns.len();
        if pairs == 0 || words == 0 || pairs.checked_mul(words)? > MAX_BLOCKS || c.returns.edge_count() < pairs * words * MIN_DEGREE_PER_WORD {
            return None;
        }
        let bits = bit_rows((0..pairs).map(|j| c.returns.neighbours(j as u32)), words);
        let mut first_with: rustc_hash::FxHashMap<&[usize], u32> = rustc_hash::FxHashMap::default();
        let class = (0..c.calls.len())
            .map(|i| {
                let lo = c.return_offsets[i] as usize;
                let hi = c.return_offsets.get(i + 1).map_or(pairs, |&o| o as usize);
                *first_with.entry(&bits[lo * words..hi * words]).or_insert(i as u32)
            })
            .collect::<Vec<u32>>();
        let first_pairs = (0..c.calls.len())
            .filter(|&i| class[i] as usize == i)
            .flat_map(|i| c.return_offsets[i]..c.return_offsets.get(i + 1).map_or(pairs as u32, |&o| o))
            .collect();
        Some(ReturnRows { words, bits, class, first_pairs })
    }

    /// The first call (position in `Component::calls`) whose continuations are those of call
    /// position `i`, for every callee exit.
    #[inline]
    pub(crate) fn class(&self, i: usize) -> usize {
        self.class[i] as usize
    }

    /// The continuations of (call, exit) pair `j` (`return_offsets[call] + k`) as bits.
    #[inline]
    pub(crate) fn row(&self, j: usize) -> &[usize] {
        &self.bits[j * self.words..(j + 1) * self.words]
    }

    /// How many continuations of (call, exit) pair `j` (`return_offsets[call] + k`) are in `set`
    /// (the blocks of a [`fixedbitset::FixedBitSet`] over the component's nodes).
    #[inline]
    pub(crate) fn count_in(&self, j: usize, set: &[usize]) -> u32 {
        self.bits[j * self.words..(j + 1) * self.words].iter().zip(set).map(|(a, b)| (a & b).count_ones()).sum()
    }

    /// For (call, exit) pair `j` of a call that is the first of its class: bit `j` set iff some
    /// continuation of the pair is in `set` (the blocks of a [`fixedbitset::FixedBitSet`] over
    /// the component's nodes). The bits of the other calls' pairs are clear: read a call's pairs
    /// at its class's first call ([`Self::class`]), whose continuations are the same (on the
    /// grid, one call in six is tested). At least one word.
    pub(crate) fn meets_all(&self, set: &[usize]) -> SmallVec<[u64; 2]> {
        let pairs = self.bits.len() / self.words;
        let mut out: SmallVec<[u64; 2]> = smallvec::smallvec![0; pairs.div_ceil(64)];
        for &j in &self.first_pairs {
            let j = j as usize;
            if self.row(j).iter().zip(set).any(|(a, b)| a & b != 0) {
                out[j / 64] |= 1 << (j % 64);
            }
        }
        out
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

/// Adds to `into` the positions of `x & y & !into` that `admit` accepts, word by word, calling
/// `f` on each in increasing order (backward reachability through `y`: `x` a predecessor row,
/// `into` the set reached so far): the members already in are skipped a word at a time.
#[inline]
pub(crate) fn add_common(into: &mut [usize], x: &[usize], y: &[usize], mut admit: impl FnMut(NodeId) -> bool, mut f: impl FnMut(NodeId)) {
    for (i, ((t, &a), &b)) in into.iter_mut().zip(x).zip(y).enumerate() {
        let mut w = a & b & !*t;
        while w != 0 {
            let bit = w.trailing_zeros() as usize;
            w &= w - 1;
            let p = NodeId::new(i * BITS + bit);
            if admit(p) {
                *t |= 1 << bit;
                f(p);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::explicit::rks_builder::RksBuilder;
    use fixedbitset::FixedBitSet;

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
    fn return_rows_equal_the_continuations_and_classes_group_equal_ones() {
        // `main` calls `p` (two exits) from c0, c1, c2: c0 and c2 continue alike, c1 differs
        // at exit Y. 40 locations, one row word; 3 calls × 2 exits, 4-5 continuations each.
        let mut b = RksBuilder::new();
        let p = b.component("p");
        b.loc(p, "p0", &[]).loc(p, "x", &[]).loc(p, "y", &[]);
        b.edge(p, "p0", "x").edge(p, "p0", "y").exit(p, "X", "x").exit(p, "Y", "y");
        let m = b.component("main");
        for i in 0..40 {
            b.loc(m, &format!("l{i}"), &[]);
        }
        for i in 0..39 {
            b.edge(m, &format!("l{i}"), &format!("l{}", i + 1));
        }
        b.edge(m, "l39", "l39");
        for c in ["c0", "c1", "c2"] {
            b.call(m, c, "p");
            b.edge(m, "l0", c);
            for (exit, first) in [("X", 10), ("Y", if c == "c1" { 30 } else { 20 })] {
                for j in first..first + 5 {
                    b.ret(m, c, exit, &format!("l{j}"));
                }
            }
        }
        let rks = b.build().expect("valid structure");
        let c = rks.components.iter().find(|c| c.calls.len() == 3).expect("main");
        let rows = ReturnRows::new(c).expect("five continuations per pair, one word per row");
        for (i, &call) in c.calls.iter().enumerate() {
            for k in 0..2 {
                let mut set = FixedBitSet::with_capacity(c.num_nodes as usize);
                for &r in c.returns(call, k) {
                    set.insert(r.index());
                    let mut one = FixedBitSet::with_capacity(c.num_nodes as usize);
                    one.insert(r.index());
                    assert!(bit_of(&rows.meets_all(one.as_slice()), c, rows.class(i), k), "call {i} exit {k} meets its continuation");
                }
                set.toggle_range(..);
                assert!(!bit_of(&rows.meets_all(set.as_slice()), c, rows.class(i), k), "call {i} exit {k} meets nothing else");
            }
        }
        let name = |i: usize| c.node_names[c.calls[i].index()].clone();
        let classes: Vec<(String, String)> = (0..3).map(|i| (name(i), name(rows.class(i)))).collect();
        let same = |a: &str, b: &str| classes.iter().any(|(x, y)| x.contains(a) && y.contains(b));
        assert!(same("c2", "c0") || same("c0", "c2"), "c0 and c2 share a class: {classes:?}");
        assert!(same("c1", "c1"), "c1 is alone: {classes:?}");
    }

    fn bit_of(meets: &[u64], c: &Component, i: usize, k: usize) -> bool {
        let j = c.return_offsets[i] as usize + k;
        meets[j / 64] >> (j % 64) & 1 == 1
    }

    #[test]
    fn add_common_adds_only_new_common_positions() {
        let (x, y) = ([0b1111usize, 1 << 3], [0b0110usize, usize::MAX]);
        let mut into = [0b0010usize, 0];
        let mut added = Vec::new();
        add_common(&mut into, &x, &y, |_| true, |p| added.push(p));
        assert_eq!(added, vec![NodeId::new(2), NodeId::new(BITS + 3)]);
        assert_eq!(into, [0b0110, 1 << 3]);
        let (mut into, mut added) = ([0b0010usize, 0], Vec::new());
        add_common(&mut into, &x, &y, |p| p != NodeId::new(2), |p| added.push(p));
        assert_eq!(added, vec![NodeId::new(BITS + 3)]);
        assert_eq!(into, [0b0010, 1 << 3]);
    }
}
