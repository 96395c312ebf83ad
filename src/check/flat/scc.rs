//! Strongly connected components of the subgraph induced by a state set, by an iterative
//! Tarjan (an explicit call stack, so 10^5+ states cannot overflow the thread's stack).
//!
//! Only edges between states of the mask are followed. Each component also records whether it
//! is *nontrivial* — it contains a cycle (two or more states, or one state with a self-loop) —
//! which is what an infinite path needs.

use crate::explicit::csr::Csr;
use fixedbitset::FixedBitSet;

const UNVISITED: u32 = u32::MAX;

/// Component of every masked state (`NONE` outside the mask), numbered in the order Tarjan
/// completes them (reverse topological order of the condensation).
pub struct Components {
    pub of_state: Vec<u32>,
    pub nontrivial: Vec<bool>,
}

impl Components {
    pub const NONE: u32 = u32::MAX;

    pub fn count(&self) -> usize {
        self.nontrivial.len()
    }
}

struct Search {
    index: Vec<u32>,
    low: Vec<u32>,
    on_stack: FixedBitSet,
    stack: Vec<u32>,
    /// (state, position of the next edge to explore in `succ.targets`)
    calls: Vec<(u32, u32)>,
    next_index: u32,
}

impl Search {
    fn enter(&mut self, succ: &Csr, v: u32) {
        self.index[v as usize] = self.next_index;
        self.low[v as usize] = self.next_index;
        self.next_index += 1;
        self.stack.push(v);
        self.on_stack.insert(v as usize);
        self.calls.push((v, succ.offsets[v as usize]));
    }
}

pub fn components(succ: &Csr, mask: &FixedBitSet) -> Components {
    let n = succ.len();
    let mut s =
        Search { index: vec![UNVISITED; n], low: vec![0u32; n], on_stack: FixedBitSet::with_capacity(n), stack: Vec::new(), calls: Vec::new(), next_index: 0 };
    let mut of_state = vec![Components::NONE; n];
    let mut nontrivial = Vec::new();

    for root in mask.ones() {
        if s.index[root] != UNVISITED {
            continue;
        }
        s.enter(succ, root as u32);
        while let Some(&(v, pos)) = s.calls.last() {
            let end = succ.offsets[v as usize + 1];
            if pos < end {
                let w = succ.targets[pos as usize];
                if let Some(top) = s.calls.last_mut() {
                    top.1 += 1;
                }
                if !mask.contains(w as usize) {
                    continue;
                }
                if s.index[w as usize] == UNVISITED {
                    crate::check::deadline::tick(s.next_index as usize);
                    s.enter(succ, w);
                } else if s.on_stack.contains(w as usize) {
                    s.low[v as usize] = s.low[v as usize].min(s.index[w as usize]);
                }
                continue;
            }
            s.calls.pop();
            if let Some(&(parent, _)) = s.calls.last() {
                s.low[parent as usize] = s.low[parent as usize].min(s.low[v as usize]);
            }
            if s.low[v as usize] == s.index[v as usize] {
                let id = nontrivial.len() as u32;
                let mut size = 0usize;
                loop {
                    let w = s.stack.pop().expect("Tarjan stack holds the component root");
                    s.on_stack.set(w as usize, false);
                    of_state[w as usize] = id;
                    size += 1;
                    if w == v {
                        break;
                    }
                }
                let self_loop = succ.neighbours(v).contains(&v);
                nontrivial.push(size > 1 || self_loop);
            }
        }
    }
    Components { of_state, nontrivial }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn full(n: usize) -> FixedBitSet {
        let mut m = FixedBitSet::with_capacity(n);
        m.insert_range(..);
        m
    }

    #[test]
    fn cycle_chain_and_self_loop() {
        // 0 -> 1 -> 2 -> 0 (cycle), 2 -> 3, 3 -> 3 (self-loop), 4 alone
        let g = Csr::from_edges(5, &[(0, 1), (1, 2), (2, 0), (2, 3), (3, 3)]);
        let c = components(&g, &full(5));
        assert_eq!(c.count(), 3);
        assert_eq!(c.of_state[0], c.of_state[1]);
        assert_eq!(c.of_state[1], c.of_state[2]);
        assert!(c.nontrivial[c.of_state[0] as usize]);
        assert!(c.nontrivial[c.of_state[3] as usize]);
        assert!(!c.nontrivial[c.of_state[4] as usize]);
    }

    #[test]
    fn mask_cuts_edges() {
        let g = Csr::from_edges(3, &[(0, 1), (1, 2), (2, 0)]);
        let mut m = full(3);
        m.set(2, false);
        let c = components(&g, &m);
        assert_eq!(c.count(), 2);
        assert_eq!(c.of_state[2], Components::NONE);
        assert!(c.nontrivial.iter().all(|&x| !x));
    }

    #[test]
    fn long_path_is_iterative() {
        let n = 300_000u32;
        let mut edges: Vec<(u32, u32)> = (0..n - 1).map(|i| (i, i + 1)).collect();
        edges.push((n - 1, 0));
        let g = Csr::from_edges(n as usize, &edges);
        let c = components(&g, &full(n as usize));
        assert_eq!(c.count(), 1);
        assert!(c.nontrivial[0]);
    }
}
