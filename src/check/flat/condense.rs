//! The condensation of the whole transition graph (its SCCs and the DAG between them), computed
//! once per model so that `EF b` — reachability through *all* states, the most common operator
//! in static-analysis specs (`EF`, `AG`) — costs one pass over the components plus one pass over
//! the states instead of a breadth-first search over every transition.
//!
//! Built lazily: the first query is answered by a backward search over the predecessor lists
//! (its visited set is a bitset, which stays in cache, where Tarjan's search touches a 32-bit
//! word per state at random: on NuSMV's `gas-nq7.smv`, 6 M states and 28 M edges, the search
//! is several times cheaper than the condensation), and the condensation is built on the second
//! query, when it starts to pay off. Both give the same set.

use crate::check::graph::scc::components;
use crate::explicit::csr::{Csr, CsrIndex};
use fixedbitset::FixedBitSet;
use std::sync::OnceLock;
use std::sync::atomic::{AtomicBool, Ordering};

/// `EF` answers over one transition graph: a search for the first query, the condensation after.
#[derive(Default)]
pub(crate) struct Reachability {
    queried: AtomicBool,
    condensation: OnceLock<Condensation>,
}

impl Reachability {
    /// The states of the graph (`succ`, with `pred` giving its reverse) with a path (of length
    /// ≥ 0) to a state of `targets`. No target: no state, and neither the reverse edges
    /// (`pred` is not called) nor the condensation are built.
    pub(crate) fn can_reach<'g, I: CsrIndex + 'g>(&self, succ: &'g Csr<I>, pred: impl FnOnce() -> &'g Csr<I>, targets: &FixedBitSet) -> FixedBitSet {
        if targets.is_clear() {
            return targets.clone();
        }
        if let Some(c) = self.condensation.get() {
            return c.can_reach(targets);
        }
        if !self.queried.swap(true, Ordering::Relaxed) {
            return backward(pred(), targets);
        }
        self.condensation.get_or_init(|| Condensation::new(succ)).can_reach(targets)
    }
}

/// The states with a path to `targets`, by a search over the predecessor lists.
fn backward<I: CsrIndex>(pred: &Csr<I>, targets: &FixedBitSet) -> FixedBitSet {
    let mut reach = targets.clone();
    let mut stack: Vec<I> = targets.ones().map(|v| I::from_u32(v as u32)).collect();
    while let Some(v) = stack.pop() {
        for &u in pred.neighbours(v) {
            if !reach.put(u.at()) {
                stack.push(u);
            }
        }
    }
    reach
}

pub(crate) struct Condensation {
    comp_of: Vec<u32>,
    /// Component successor lists; Tarjan numbers components so that successors have smaller ids.
    dag: Csr<u32>,
}

impl Condensation {
    pub(crate) fn new<I: CsrIndex>(succ: &Csr<I>) -> Condensation {
        let n = succ.len();
        let mut all = FixedBitSet::with_capacity(n);
        all.insert_range(..);
        let sccs = components(succ, &all);
        let count = sccs.count();
        // The states of each component (a counting sort by component), then each component's
        // distinct successor components, marked per component: no edge list, no sort of it.
        let mut first = vec![0u32; count + 1];
        for &c in &sccs.of_state {
            first[c as usize + 1] += 1;
        }
        for c in 0..count {
            first[c + 1] += first[c];
        }
        let mut fill = first.clone();
        let mut members = vec![I::from_u32(0); n];
        for (v, &c) in sccs.of_state.iter().enumerate() {
            members[fill[c as usize] as usize] = I::from_u32(v as u32);
            fill[c as usize] += 1;
        }
        drop(fill);
        let mut seen = vec![u32::MAX; count];
        let mut offsets = Vec::with_capacity(count + 1);
        offsets.push(0u32);
        let mut targets: Vec<u32> = Vec::new();
        for c in 0..count {
            let row = targets.len();
            for &v in &members[first[c] as usize..first[c + 1] as usize] {
                for &w in succ.neighbours(v) {
                    let d = sccs.of_state[w.at()];
                    if d != c as u32 && seen[d as usize] != c as u32 {
                        seen[d as usize] = c as u32;
                        targets.push(d);
                    }
                }
            }
            targets[row..].sort_unstable();
            offsets.push(targets.len() as u32);
        }
        Condensation { dag: Csr::from_parts(offsets, targets), comp_of: sccs.of_state }
    }

    /// The states with a path (of length ≥ 0) to a state of `targets`.
    pub(crate) fn can_reach(&self, targets: &FixedBitSet) -> FixedBitSet {
        let n = self.comp_of.len();
        let mut reach = vec![false; self.dag.len()];
        for v in targets.ones() {
            reach[self.comp_of[v] as usize] = true;
        }
        let mut any = false;
        for c in 0..self.dag.len() {
            if !reach[c] {
                reach[c] = self.dag.neighbours(c as u32).iter().any(|&d| reach[d as usize]);
            }
            any |= reach[c];
        }
        let mut result = FixedBitSet::with_capacity(n);
        if !any {
            return result;
        }
        if reach.iter().all(|&r| r) {
            result.insert_range(..);
            return result;
        }
        for (v, &c) in self.comp_of.iter().enumerate() {
            if reach[c as usize] {
                result.insert(v);
            }
        }
        result
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reachability_through_the_dag() {
        // 0 <-> 1 -> 2 -> 3, 4 -> 3, 5 alone
        let g = Csr::from_edges(6, &[(0, 1), (1, 0), (1, 2), (2, 3), (4, 3)]);
        let c = Condensation::new(&g);
        let mut t = FixedBitSet::with_capacity(6);
        t.insert(2);
        let r = c.can_reach(&t);
        assert_eq!(r.ones().collect::<Vec<_>>(), vec![0, 1, 2]);
        t.insert(3);
        assert_eq!(c.can_reach(&t).ones().collect::<Vec<_>>(), vec![0, 1, 2, 3, 4]);
        assert!(c.can_reach(&FixedBitSet::with_capacity(6)).is_clear());
    }

    #[test]
    fn search_and_condensation_agree() {
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        let mut rand = |m: u64| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed % m
        };
        for _ in 0..200 {
            let n = 1 + rand(30) as usize;
            let edges: Vec<(u32, u32)> = (0..rand(3 * n as u64 + 1)).map(|_| (rand(n as u64) as u32, rand(n as u64) as u32)).collect();
            let g = Csr::from_edges(n, &edges);
            let pred = g.transpose();
            let r = Reachability::default();
            let mut searched = 0;
            for _ in 0..3 {
                let mut t = FixedBitSet::with_capacity(n);
                for v in 0..n {
                    t.set(v, rand(5) == 0);
                }
                searched += usize::from(!t.is_clear());
                assert_eq!(r.can_reach(&g, || &pred, &t), Condensation::new(&g).can_reach(&t), "{edges:?}");
            }
            // No target costs nothing: neither the reverse edges nor the condensation.
            assert!(r.can_reach(&g, || unreachable!("reverse edges asked for"), &FixedBitSet::with_capacity(n)).is_clear());
            assert_eq!(r.condensation.get().is_some(), searched >= 2, "{edges:?}");
        }
    }
}
