//! Graph kernels shared by the explicit engines, each linear in nodes + edges:
//!
//! * [`backward_closure`]: least fixpoints `μZ. seed ∨ (admit ∧ EX Z)` (`EU`): a worklist over
//!   predecessors;
//! * [`greatest_fixpoint`] / [`peel`]: greatest fixpoints `νZ. cand ∧ (keep ∨ EX Z)` (`EG`)
//!   by successor counting: a node whose count of successors in the set drops to zero leaves it
//!   (unless `keep` holds there), and its predecessors' counts drop;
//! * [`scc`]: strongly connected components of an induced subgraph (fair `EG`).
//!
//! The graph is anything with predecessor lists ([`Preds`]; [`Graph`] adds successor lists): a
//! pair of [`Csr`]s ([`CsrGraph`]: the flat engine's state graph, an RKS component's
//! locations), or an engine's own numbering of nodes (the ternary engine's copies, the summary
//! engine's frames of one group). The engines keep their own rules of which nodes may join or
//! leave a set (calls, exits, known values) as the `admit` / `keep` predicates. Sets are
//! [`NodeSet`]s over the node numbers (bit sets, or a byte per node); results are sets, so they
//! do not depend on the order the worklists are processed in. Long loops poll the check's
//! deadline.

pub(crate) mod scc;

use crate::deadline;
use crate::explicit::csr::{Csr, CsrIndex};
use fixedbitset::FixedBitSet;
use smallvec::SmallVec;

/// A directed graph over nodes numbered `0..n`, read through its predecessor lists: all that
/// [`backward_closure`] and [`peel`] need. A node is handed out as [`Preds::Node`]: its number
/// plus whatever the graph already knows about it (the ternary engine's copy and location, the
/// summary engine's frame), so that the engines' `admit`/`keep` predicates and the graph itself
/// need not look the number up again.
pub(crate) trait Preds {
    type Node: Copy;
    /// The node's number: its bit in the kernels' sets.
    fn number(v: Self::Node) -> usize;
    fn for_each_pred(&self, v: Self::Node, f: impl FnMut(Self::Node));

    /// One step of [`backward_closure`]: puts into `set` every predecessor of `v` outside it
    /// that `admit` accepts, calling `added` on each. A graph that keeps its predecessors as bit
    /// rows overrides it to skip the members of `set` a word at a time (the summary engine's
    /// dense components, through [`NodeSet::blocks_mut`]).
    #[inline]
    fn add_preds<S: NodeSet>(&self, v: Self::Node, set: &mut S, mut admit: impl FnMut(Self::Node) -> bool, mut added: impl FnMut(Self::Node)) {
        self.for_each_pred(v, |u| {
            let i = Self::number(u);
            if !set.contains(i) && admit(u) {
                set.insert(i);
                added(u);
            }
        });
    }
}

/// A [`Preds`] graph that also lists successors, for [`greatest_fixpoint`], which counts them.
pub(crate) trait Graph: Preds {
    /// The node numbered `i` (`i < n`).
    fn node(&self, i: usize) -> Self::Node;
    fn for_each_succ(&self, v: Self::Node, f: impl FnMut(Self::Node));
}

/// A graph given by its successor lists and their transpose.
#[derive(Clone, Copy)]
pub(crate) struct CsrGraph<'a, I = u32> {
    pub(crate) succ: &'a Csr<I>,
    pub(crate) pred: &'a Csr<I>,
}

/// The kernels number nodes by `u32`: the node types convert for free.
impl<I: CsrIndex> Preds for CsrGraph<'_, I> {
    type Node = u32;
    #[inline]
    fn number(v: u32) -> usize {
        v as usize
    }
    #[inline]
    fn for_each_pred(&self, v: u32, mut f: impl FnMut(u32)) {
        for &u in self.pred.neighbours(I::from_u32(v)) {
            f(u.as_u32());
        }
    }
}

impl<I: CsrIndex> Graph for CsrGraph<'_, I> {
    #[inline]
    fn node(&self, i: usize) -> u32 {
        i as u32
    }
    #[inline]
    fn for_each_succ(&self, v: u32, mut f: impl FnMut(u32)) {
        for &w in self.succ.neighbours(I::from_u32(v)) {
            f(w.as_u32());
        }
    }
}

/// A stack of nodes still to expand: a `Vec` for large graphs, a `SmallVec` for small ones
/// (an RKS component's locations), which then needs no allocation.
pub(crate) trait Worklist<T> {
    fn push(&mut self, v: T);
    fn pop(&mut self) -> Option<T>;
}

impl<T> Worklist<T> for Vec<T> {
    #[inline]
    fn push(&mut self, v: T) {
        Vec::push(self, v);
    }
    #[inline]
    fn pop(&mut self) -> Option<T> {
        Vec::pop(self)
    }
}

impl<T, A: smallvec::Array<Item = T>> Worklist<T> for SmallVec<A> {
    #[inline]
    fn push(&mut self, v: T) {
        SmallVec::push(self, v);
    }
    #[inline]
    fn pop(&mut self) -> Option<T> {
        SmallVec::pop(self)
    }
}

/// A set of node numbers that the kernels grow or shrink: a [`FixedBitSet`] (an eighth of the
/// memory; the flat and RKS engines), or a `Vec<bool>` (one byte per node: no bit arithmetic
/// where the sets are visited at random, the ternary engine's graph of all copies, on which the
/// bit sets cost it 5–15 % in session 24's measurements).
pub(crate) trait NodeSet {
    fn contains(&self, i: usize) -> bool;
    fn insert(&mut self, i: usize);
    fn remove(&mut self, i: usize);
    /// The members, ascending.
    fn members(&self) -> impl Iterator<Item = usize> + '_;
    /// The set as bit blocks (bit `i % usize::BITS` of block `i / usize::BITS`), if it is one.
    fn blocks_mut(&mut self) -> Option<&mut [usize]> {
        None
    }
}

impl NodeSet for FixedBitSet {
    #[inline]
    fn contains(&self, i: usize) -> bool {
        FixedBitSet::contains(self, i)
    }
    #[inline]
    fn insert(&mut self, i: usize) {
        FixedBitSet::insert(self, i);
    }
    #[inline]
    fn remove(&mut self, i: usize) {
        self.set(i, false);
    }
    fn members(&self) -> impl Iterator<Item = usize> + '_ {
        self.ones()
    }
    #[inline]
    fn blocks_mut(&mut self) -> Option<&mut [usize]> {
        Some(self.as_mut_slice())
    }
}

impl NodeSet for Vec<bool> {
    #[inline]
    fn contains(&self, i: usize) -> bool {
        self[i]
    }
    #[inline]
    fn insert(&mut self, i: usize) {
        self[i] = true;
    }
    #[inline]
    fn remove(&mut self, i: usize) {
        self[i] = false;
    }
    fn members(&self) -> impl Iterator<Item = usize> + '_ {
        self.iter().enumerate().filter(|&(_, &b)| b).map(|(i, _)| i)
    }
}

/// Least fixpoint: adds to `set` every node with a path of admitted nodes into it, i.e. the
/// closure of `set` under "a predecessor `u` with `admit(u)`". `work` must hold the nodes of
/// `set` whose predecessors are still to be visited (all of `set`, or a frontier of it).
/// Returns the number of nodes expanded (the worklist's steps).
#[inline]
pub(crate) fn backward_closure<G: Preds, S: NodeSet, W: Worklist<G::Node>>(g: &G, set: &mut S, mut work: W, mut admit: impl FnMut(G::Node) -> bool) -> usize {
    let mut steps = 0usize;
    while let Some(v) = work.pop() {
        deadline::tick(steps);
        steps += 1;
        g.add_preds(v, set, &mut admit, |u| work.push(u));
    }
    steps
}

/// Greatest fixpoint: shrinks `set` to its largest subset in which every node has a successor
/// in the subset or satisfies `keep`. `count` (at least one entry per node, any contents) is
/// scratch space for the successor counts.
#[inline]
pub(crate) fn greatest_fixpoint<G: Graph, S: NodeSet>(g: &G, set: &mut S, count: &mut [u32], mut keep: impl FnMut(G::Node) -> bool) {
    let mut dead: Vec<G::Node> = Vec::new();
    for i in set.members() {
        let v = g.node(i);
        let mut c = 0u32;
        g.for_each_succ(v, |w| c += set.contains(G::number(w)) as u32);
        count[i] = c;
        if c == 0 && !keep(v) {
            dead.push(v);
        }
    }
    for &v in &dead {
        set.remove(G::number(v));
    }
    peel(g, set, count, dead, keep);
}

/// The peeling loop of [`greatest_fixpoint`], for callers that count successors themselves:
/// `count[v]` is the number of successors of `v` in `set` (nodes of `dead` included) for every
/// `v` in `set`, and `dead` holds the nodes already taken out of `set` whose predecessors'
/// counts are still to be lowered. Returns the number of nodes expanded.
#[inline]
pub(crate) fn peel<G: Preds, S: NodeSet, W: Worklist<G::Node>>(
    g: &G,
    set: &mut S,
    count: &mut [u32],
    mut dead: W,
    mut keep: impl FnMut(G::Node) -> bool,
) -> usize {
    let mut steps = 0usize;
    while let Some(v) = dead.pop() {
        deadline::tick(steps);
        steps += 1;
        g.for_each_pred(v, |u| {
            let i = G::number(u);
            if set.contains(i) {
                count[i] -= 1;
                if count[i] == 0 && !keep(u) {
                    set.remove(i);
                    dead.push(u);
                }
            }
        });
    }
    steps
}

#[cfg(test)]
mod tests {
    use super::*;

    fn set(n: usize, nodes: &[usize]) -> FixedBitSet {
        let mut s = FixedBitSet::with_capacity(n);
        for &v in nodes {
            s.insert(v);
        }
        s
    }

    #[test]
    fn closure_and_greatest_fixpoint_on_a_small_graph() {
        // 0 -> 1 -> 2 -> 1, 0 -> 3 (deadlock), 4 -> 4
        let succ = Csr::from_edges(5, &[(0, 1), (1, 2), (2, 1), (0, 3), (4, 4)]);
        let pred = succ.transpose();
        let g = CsrGraph { succ: &succ, pred: &pred };
        let mut s = set(5, &[3]);
        backward_closure(&g, &mut s, vec![3u32], |u| u != 4);
        assert_eq!(s, set(5, &[0, 3]));
        let mut s = set(5, &[2]);
        backward_closure(&g, &mut s, SmallVec::<[u32; 4]>::from_slice(&[2]), |_| true);
        assert_eq!(s, set(5, &[0, 1, 2]));
        let mut count = vec![0; 5];
        let mut s = set(5, &[0, 1, 2, 3, 4]);
        greatest_fixpoint(&g, &mut s, &mut count, |_| false);
        assert_eq!(s, set(5, &[0, 1, 2, 4]));
        let mut s = set(5, &[0, 2, 3]);
        greatest_fixpoint(&g, &mut s, &mut count, |v| v == 3);
        assert_eq!(s, set(5, &[0, 3]));
    }

    /// The same graph with nodes handed out as (number, number × 10) and byte sets: the
    /// kernels give the same sets, and the predicates see the graph's handles.
    #[test]
    fn kernels_over_node_handles_and_byte_sets() {
        struct Tagged<'a>(CsrGraph<'a>);
        impl Preds for Tagged<'_> {
            type Node = (u32, u32);
            fn number(v: (u32, u32)) -> usize {
                v.0 as usize
            }
            fn for_each_pred(&self, v: (u32, u32), mut f: impl FnMut((u32, u32))) {
                self.0.for_each_pred(v.0, |u| f((u, u * 10)));
            }
        }
        impl Graph for Tagged<'_> {
            fn node(&self, i: usize) -> (u32, u32) {
                (i as u32, i as u32 * 10)
            }
            fn for_each_succ(&self, v: (u32, u32), mut f: impl FnMut((u32, u32))) {
                self.0.for_each_succ(v.0, |w| f((w, w * 10)));
            }
        }
        let succ = Csr::from_edges(5, &[(0, 1), (1, 2), (2, 1), (0, 3), (4, 4)]);
        let pred = succ.transpose();
        let g = Tagged(CsrGraph { succ: &succ, pred: &pred });
        let bytes = |nodes: &[usize]| (0..5).map(|v| nodes.contains(&v)).collect::<Vec<bool>>();
        let mut s = bytes(&[3]);
        let steps = backward_closure(&g, &mut s, vec![(3, 30)], |u| {
            assert_eq!(u.1, u.0 * 10);
            u.0 != 4
        });
        assert_eq!((s, steps), (bytes(&[0, 3]), 2));
        let mut s = bytes(&[0, 2, 3]);
        greatest_fixpoint(&g, &mut s, &mut [0; 5], |v| v.0 == 3);
        assert_eq!(s, bytes(&[0, 3]));
        assert_eq!(s.members().collect::<Vec<_>>(), vec![0, 3]);
    }
}
