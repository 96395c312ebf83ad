//! Strongly connected components of the subgraph induced by a state set: Pearce's
//! space-efficient variant of Tarjan's algorithm ("A space-efficient algorithm for finding
//! strongly connected components", 2016), iterative (an explicit call stack, so 10^5+ states
//! cannot overflow the thread's stack).
//!
//! One `u32` per state serves as Tarjan's index and low-link while the state is on the stack
//! and as its component once the component is complete (completed components take numbers
//! counting down from the top of the range, above every live index, so no on-stack flag is
//! needed); no allocation per state. Components are numbered in the order they complete, as
//! Tarjan's algorithm does (reverse topological order of the condensation).
//!
//! Only edges between states of the mask are followed. Each component also records whether it
//! is *nontrivial* — it contains a cycle (two or more states, or one state with a self-loop) —
//! which is what an infinite path needs.

use crate::explicit::csr::{Csr, CsrIndex};
use fixedbitset::FixedBitSet;

/// Not visited yet (live indices start at 1).
const UNVISITED: u32 = 0;
/// The number given to the first completed component; later ones count down.
const FIRST_DONE: u32 = u32::MAX - 1;

/// Component of every masked state (`NONE` outside the mask), numbered in the order Tarjan
/// completes them (reverse topological order of the condensation).
pub(crate) struct Components {
    pub of_state: Vec<u32>,
    pub nontrivial: Vec<bool>,
}

impl Components {
    pub(crate) const NONE: u32 = u32::MAX;

    pub(crate) fn count(&self) -> usize {
        self.nontrivial.len()
    }
}

/// A state being explored: its index when entered and the position of its next edge in
/// `succ.targets`.
struct Frame {
    v: u32,
    index: u32,
    edge: u32,
}

pub(crate) fn components<I: CsrIndex>(succ: &Csr<I>, mask: &FixedBitSet) -> Components {
    let n = succ.len();
    assert!(n < (FIRST_DONE / 2) as usize, "too many states for 32-bit component numbers");
    // rindex[v]: UNVISITED; a live index ≤ n; or FIRST_DONE - (its component).
    let mut rindex = vec![UNVISITED; n];
    let mut stack: Vec<u32> = Vec::new();
    let mut calls: Vec<Frame> = Vec::new();
    let mut nontrivial = Vec::new();
    let mut next_index = 1u32;
    let mut done = FIRST_DONE;

    for root in mask.ones() {
        if rindex[root] != UNVISITED {
            continue;
        }
        rindex[root] = next_index;
        calls.push(Frame { v: root as u32, index: next_index, edge: succ.offsets[root] });
        next_index += 1;
        while let Some(top) = calls.last_mut() {
            let v = top.v as usize;
            let end = succ.offsets[v + 1];
            if top.edge < end {
                let w = succ.targets[top.edge as usize].at();
                top.edge += 1;
                if !mask.contains(w) {
                    continue;
                }
                if rindex[w] == UNVISITED {
                    crate::deadline::tick(next_index as usize);
                    rindex[w] = next_index;
                    calls.push(Frame { v: w as u32, index: next_index, edge: succ.offsets[w] });
                    next_index += 1;
                } else if rindex[w] < rindex[v] {
                    rindex[v] = rindex[w];
                }
                continue;
            }
            let Frame { index, .. } = calls.pop().expect("a frame is on top");
            let low = rindex[v];
            if let Some(parent) = calls.last() {
                let p = parent.v as usize;
                if low < rindex[p] {
                    rindex[p] = low;
                }
            }
            if low != index {
                // Not a root: it stays on the stack until its root completes.
                stack.push(v as u32);
                continue;
            }
            // `v` roots a component: it and the states above it on the stack with an index at
            // least its own.
            let mut size = 1usize;
            next_index -= 1;
            while let Some(&w) = stack.last() {
                if rindex[w as usize] < index {
                    break;
                }
                stack.pop();
                rindex[w as usize] = done;
                next_index -= 1;
                size += 1;
            }
            rindex[v] = done;
            done -= 1;
            let self_loop = succ.neighbours(I::from_u32(v as u32)).contains(&I::from_u32(v as u32));
            nontrivial.push(size > 1 || self_loop);
        }
    }
    for r in &mut rindex {
        *r = if *r == UNVISITED { Components::NONE } else { FIRST_DONE - *r };
    }
    Components { of_state: rindex, nontrivial }
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

    /// Textbook recursive Tarjan (index, low-link, on-stack flags), numbering components as
    /// they complete.
    fn reference(succ: &Csr<u32>, mask: &FixedBitSet) -> (Vec<u32>, Vec<bool>) {
        struct T<'a> {
            succ: &'a Csr<u32>,
            mask: &'a FixedBitSet,
            index: Vec<Option<u32>>,
            low: Vec<u32>,
            on: Vec<bool>,
            stack: Vec<u32>,
            next: u32,
            comp: Vec<u32>,
            nontrivial: Vec<bool>,
        }
        fn visit(t: &mut T, v: u32) {
            t.index[v as usize] = Some(t.next);
            t.low[v as usize] = t.next;
            t.next += 1;
            t.stack.push(v);
            t.on[v as usize] = true;
            for &w in t.succ.neighbours(v) {
                if !t.mask.contains(w as usize) {
                    continue;
                }
                match t.index[w as usize] {
                    None => {
                        visit(t, w);
                        t.low[v as usize] = t.low[v as usize].min(t.low[w as usize]);
                    }
                    Some(i) if t.on[w as usize] => t.low[v as usize] = t.low[v as usize].min(i),
                    Some(_) => {}
                }
            }
            if Some(t.low[v as usize]) == t.index[v as usize] {
                let id = t.nontrivial.len() as u32;
                let mut size = 0;
                loop {
                    let w = t.stack.pop().unwrap();
                    t.on[w as usize] = false;
                    t.comp[w as usize] = id;
                    size += 1;
                    if w == v {
                        break;
                    }
                }
                t.nontrivial.push(size > 1 || t.succ.neighbours(v).contains(&v));
            }
        }
        let n = succ.len();
        let mut t = T {
            succ,
            mask,
            index: vec![None; n],
            low: vec![0; n],
            on: vec![false; n],
            stack: vec![],
            next: 0,
            comp: vec![Components::NONE; n],
            nontrivial: vec![],
        };
        for v in mask.ones() {
            if t.index[v].is_none() {
                visit(&mut t, v as u32);
            }
        }
        (t.comp, t.nontrivial)
    }

    #[test]
    fn same_components_and_numbering_as_textbook_tarjan() {
        let mut seed = 0x1234_5678_9abc_def0u64;
        let mut rand = |m: u64| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed % m
        };
        for case in 0..500 {
            let n = 1 + rand(40) as usize;
            let m = rand(3 * n as u64 + 1) as usize;
            let edges: Vec<(u32, u32)> = (0..m).map(|_| (rand(n as u64) as u32, rand(n as u64) as u32)).collect();
            let g = Csr::from_edges(n, &edges);
            let mut mask = full(n);
            if case % 2 == 1 {
                for v in 0..n {
                    if rand(4) == 0 {
                        mask.set(v, false);
                    }
                }
            }
            let c = components(&g, &mask);
            let (comp, nontrivial) = reference(&g, &mask);
            assert_eq!(c.of_state, comp, "case {case}: {edges:?}");
            assert_eq!(c.nontrivial, nontrivial, "case {case}: {edges:?}");
        }
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
