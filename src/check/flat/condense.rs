//! The condensation of the whole transition graph (its SCCs and the DAG between them), computed
//! once per model so that `EF b` — reachability through *all* states, the most common operator
//! in static-analysis specs (`EF`, `AG`) — costs one pass over the components plus one pass over
//! the states instead of a breadth-first search over every transition.

use super::scc::components;
use crate::explicit::csr::Csr;
use fixedbitset::FixedBitSet;

pub struct Condensation {
    comp_of: Vec<u32>,
    /// Component successor lists; Tarjan numbers components so that successors have smaller ids.
    dag: Csr,
}

impl Condensation {
    pub fn new(succ: &Csr) -> Condensation {
        let n = succ.len();
        let mut all = FixedBitSet::with_capacity(n);
        all.insert_range(..);
        let sccs = components(succ, &all);
        let mut edges: Vec<(u32, u32)> = Vec::new();
        for v in 0..n as u32 {
            let c = sccs.of_state[v as usize];
            for &w in succ.neighbours(v) {
                let d = sccs.of_state[w as usize];
                if c != d {
                    edges.push((c, d));
                }
            }
        }
        edges.sort_unstable();
        edges.dedup();
        Condensation { dag: Csr::from_edges(sccs.count(), &edges), comp_of: sccs.of_state }
    }

    /// The states with a path (of length ≥ 0) to a state of `targets`.
    pub fn can_reach(&self, targets: &FixedBitSet) -> FixedBitSet {
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
}
