//! Graph kernels shared by the explicit engines, each linear in nodes + edges:
//!
//! * [`backward_closure`]: least fixpoints `μZ. seed ∨ (admit ∧ EX Z)` (`EU`): a worklist over
//!   predecessors;
//! * [`greatest_fixpoint`] / [`peel`]: greatest fixpoints `νZ. cand ∧ (keep ∨ EX Z)` (`EG`)
//!   by successor counting: a node whose count of successors in the set drops to zero leaves it
//!   (unless `keep` holds there), and its predecessors' counts drop;
//! * [`scc`]: strongly connected components of an induced subgraph (fair `EG`).
//!
//! The graph is anything with successor and predecessor lists ([`Graph`]): a pair of [`Csr`]s
//! ([`CsrGraph`]: the flat engine's state graph, an RKS component's locations), or an engine's
//! own numbering of nodes (the ternary engine's copies). The engines keep their own rules of
//! which nodes may join or leave a set (calls, exits, known values) as the `admit` / `keep`
//! predicates. Sets are [`FixedBitSet`]s over the node numbers; results are sets, so they do not
//! depend on the order the worklists are processed in. Long loops poll the check's deadline.

pub(crate) mod scc;

use crate::deadline;
use crate::explicit::csr::{Csr, CsrIndex};
use fixedbitset::FixedBitSet;
use smallvec::SmallVec;

/// A directed graph over nodes `0..n`, read through its successor and predecessor lists.
pub(crate) trait Graph {
    fn for_each_succ(&self, v: u32, f: impl FnMut(u32));
    fn for_each_pred(&self, v: u32, f: impl FnMut(u32));
}

/// A graph given by its successor lists and their transpose.
#[derive(Clone, Copy)]
pub(crate) struct CsrGraph<'a, I = u32> {
    pub(crate) succ: &'a Csr<I>,
    pub(crate) pred: &'a Csr<I>,
}

/// The kernels number nodes by `u32`: the node types convert for free.
impl<I: CsrIndex> Graph for CsrGraph<'_, I> {
    #[inline]
    fn for_each_succ(&self, v: u32, mut f: impl FnMut(u32)) {
        for &w in self.succ.neighbours(I::from_u32(v)) {
            f(w.as_u32());
        }
    }
    #[inline]
    fn for_each_pred(&self, v: u32, mut f: impl FnMut(u32)) {
        for &u in self.pred.neighbours(I::from_u32(v)) {
            f(u.as_u32());
        }
    }
}

/// A stack of nodes still to expand: a `Vec` for large graphs, a `SmallVec` for small ones
/// (an RKS component's locations), which then needs no allocation.
pub(crate) trait Worklist {
    fn push(&mut self, v: u32);
    fn pop(&mut self) -> Option<u32>;
}

impl Worklist for Vec<u32> {
    #[inline]
    fn push(&mut self, v: u32) {
        Vec::push(self, v);
    }
    #[inline]
    fn pop(&mut self) -> Option<u32> {
        Vec::pop(self)
    }
}

impl<A: smallvec::Array<Item = u32>> Worklist for SmallVec<A> {
    #[inline]
    fn push(&mut self, v: u32) {
        SmallVec::push(self, v);
    }
    #[inline]
    fn pop(&mut self) -> Option<u32> {
        SmallVec::pop(self)
    }
}

/// Least fixpoint: adds to `set` every node with a path of admitted nodes into it, i.e. the
/// closure of `set` under "a predecessor `u` with `admit(u)`". `work` must hold the nodes of
/// `set` whose predecessors are still to be visited (all of `set`, or a frontier of it).
#[inline]
pub(crate) fn backward_closure<G: Graph, W: Worklist>(g: &G, set: &mut FixedBitSet, mut work: W, mut admit: impl FnMut(u32) -> bool) {
    let mut steps = 0usize;
    while let Some(v) = work.pop() {
        deadline::tick(steps);
        steps += 1;
        g.for_each_pred(v, |u| {
            if !set.contains(u as usize) && admit(u) {
                set.insert(u as usize);
                work.push(u);
            }
        });
    }
}

/// Greatest fixpoint: shrinks `set` to its largest subset in which every node has a successor
/// in the subset or satisfies `keep`. `count` (at least one entry per node, any contents) is
/// scratch space for the successor counts.
#[inline]
pub(crate) fn greatest_fixpoint<G: Graph>(g: &G, set: &mut FixedBitSet, count: &mut [u32], mut keep: impl FnMut(u32) -> bool) {
    let mut dead: Vec<u32> = Vec::new();
    for v in set.ones() {
        let mut c = 0u32;
        g.for_each_succ(v as u32, |w| c += set.contains(w as usize) as u32);
        count[v] = c;
        if c == 0 && !keep(v as u32) {
            dead.push(v as u32);
        }
    }
    for &v in &dead {
        set.set(v as usize, false);
    }
    peel(g, set, count, dead, keep);
}

/// The peeling loop of [`greatest_fixpoint`], for callers that count successors themselves:
/// `count[v]` is the number of successors of `v` in `set` (nodes of `dead` included) for every
/// `v` in `set`, and `dead` holds the nodes already taken out of `set` whose predecessors'
/// counts are still to be lowered.
#[inline]
pub(crate) fn peel<G: Graph, W: Worklist>(g: &G, set: &mut FixedBitSet, count: &mut [u32], mut dead: W, mut keep: impl FnMut(u32) -> bool) {
    let mut steps = 0usize;
    while let Some(v) = dead.pop() {
        deadline::tick(steps);
        steps += 1;
        g.for_each_pred(v, |u| {
            let i = u as usize;
            if set.contains(i) {
                count[i] -= 1;
                if count[i] == 0 && !keep(u) {
                    set.set(i, false);
                    dead.push(u);
                }
            }
        });
    }
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
}
