//! Compressed sparse rows: the adjacency lists of explicit graphs as two flat arrays.
//!
//! Typed by its rows and targets ([`CsrIndex`]: an index newtype made with
//! [`crate::index_type!`]): `Csr<StateId>` is the flat Kripke structure's state graph,
//! `Csr<NodeId>` an RKS component's. `u32` is a [`CsrIndex`] too, for rows that are positions
//! rather than ids (an RKS component's return rows, numbered by call; the condensation DAG's
//! SCCs). The offsets stay raw `u32` positions into `targets` (the flat engine names transitions
//! by them).

use crate::ir::id::Idx;
use std::marker::PhantomData;

/// The row and target types of a [`Csr`]: a `u32` index, converted for free.
pub trait CsrIndex: Copy + Eq {
    /// The index with this raw number.
    fn from_u32(i: u32) -> Self;
    /// The raw number.
    fn as_u32(self) -> u32;
    /// The position this index names.
    #[inline]
    fn at(self) -> usize {
        self.as_u32() as usize
    }
}

impl<I: Idx> CsrIndex for I {
    #[inline]
    fn from_u32(i: u32) -> Self {
        I::new(i as usize)
    }
    #[inline]
    fn as_u32(self) -> u32 {
        self.index() as u32
    }
    #[inline]
    fn at(self) -> usize {
        self.index()
    }
}

impl CsrIndex for u32 {
    #[inline]
    fn from_u32(i: u32) -> Self {
        i
    }
    #[inline]
    fn as_u32(self) -> u32 {
        self
    }
}

/// `targets[offsets[v]..offsets[v+1]]` are the neighbours of row `v`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Csr<I, T = I> {
    pub offsets: Vec<u32>,
    pub targets: Vec<T>,
    rows: PhantomData<fn(I) -> I>,
}

impl<I, T> Default for Csr<I, T> {
    fn default() -> Self {
        Csr { offsets: Vec::new(), targets: Vec::new(), rows: PhantomData }
    }
}

// `len` without `is_empty`: nothing asks whether it is empty (an `is_empty` would be dead code
// once the type is `pub(crate)`, tools/visibility/sweep.sh).
#[allow(clippy::len_without_is_empty)]
impl<I: CsrIndex, T: CsrIndex> Csr<I, T> {
    /// From the arrays themselves: `offsets` has one entry per row plus one, increasing, the
    /// last one `targets.len()`.
    pub(crate) fn from_parts(offsets: Vec<u32>, targets: Vec<T>) -> Csr<I, T> {
        debug_assert_eq!(offsets.last().map_or(0, |&o| o as usize), targets.len());
        Csr { offsets, targets, rows: PhantomData }
    }

    /// Builds from an edge list over `n` rows; neighbours of each row keep the input order.
    pub fn from_edges(n: usize, edges: &[(I, T)]) -> Csr<I, T> {
        let mut offsets = vec![0u32; n + 1];
        for &(s, _) in edges {
            offsets[s.at() + 1] += 1;
        }
        for i in 0..n {
            offsets[i + 1] += offsets[i];
        }
        let mut fill = offsets.clone();
        let mut targets = vec![T::from_u32(0); edges.len()];
        for &(s, t) in edges {
            targets[fill[s.at()] as usize] = t;
            fill[s.at()] += 1;
        }
        Csr::from_parts(offsets, targets)
    }

    /// The reverse graph over `n` nodes of the target type (each target's rows in ascending
    /// order, as an edge list sorted by row would give), counted and filled in place: no edge
    /// list.
    pub(crate) fn transpose_into(&self, n: usize) -> Csr<T, I> {
        let mut offsets = vec![0u32; n + 1];
        for &w in &self.targets {
            offsets[w.at() + 1] += 1;
        }
        for i in 0..n {
            offsets[i + 1] += offsets[i];
        }
        let mut fill: Vec<u32> = offsets[..n].to_vec();
        let mut targets = vec![I::from_u32(0); self.targets.len()];
        for v in 0..self.len() {
            let v = I::from_u32(v as u32);
            for &w in self.neighbours(v) {
                targets[fill[w.at()] as usize] = v;
                fill[w.at()] += 1;
            }
        }
        Csr::from_parts(offsets, targets)
    }

    /// The number of rows.
    pub fn len(&self) -> usize {
        self.offsets.len().saturating_sub(1)
    }
    #[inline]
    pub fn neighbours(&self, v: I) -> &[T] {
        let v = v.at();
        &self.targets[self.offsets[v] as usize..self.offsets[v + 1] as usize]
    }
    pub fn edge_count(&self) -> usize {
        self.targets.len()
    }
}

impl<I: CsrIndex> Csr<I> {
    /// The reverse graph (see [`Csr::transpose_into`]) of a graph whose targets are its rows.
    pub fn transpose(&self) -> Csr<I> {
        self.transpose_into(self.len())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    crate::index_type! {
        /// A node of the test graphs.
        struct V;
    }

    #[test]
    fn transpose_is_the_reverse_edge_list_in_source_order() {
        let edges: Vec<(V, V)> = [(0, 2), (0, 1), (2, 0), (1, 2), (2, 2), (3, 0)].iter().map(|&(s, t)| (V::from_u32(s), V::from_u32(t))).collect();
        let g = Csr::from_edges(4, &edges);
        let mut reversed: Vec<(V, V)> = edges.iter().map(|&(s, t)| (t, s)).collect();
        reversed.sort_by_key(|&(_, s)| s);
        assert_eq!(g.transpose(), Csr::from_edges(4, &reversed));
        assert_eq!(Csr::<V>::from_edges(0, &[]).transpose(), Csr::from_edges(0, &[]));
    }
}
