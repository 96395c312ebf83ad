//! `COMPUTE MIN [a, b]` and `COMPUTE MAX [a, b]` on the explicit state graph, with NuSMV
//! 2.5.4's definitions (`mcMc.c`: `minu`, `maxu`), in time linear in the graph.
//!
//! Assumes the Kripke structure holds the reachable states only (every state is reachable, as
//! NuSMV restricts both operators to the reachable states) and that `a`, `b` and `fair` are sets
//! of its states (`a` and `b` labelled with fair CTL semantics, `fair` the fair states).
//!
//! - `MIN`: the length of a shortest path from a fair `a` state to a fair `b` state through fair
//!   states (0 when one state is both), `infinity` when there is none. NuSMV searches forward
//!   layer by layer; here a breadth-first search from all fair `a` states at once.
//! - `MAX`: `undefined` when no reachable state satisfies `a`, or none satisfies `b` (restricted
//!   to the fair states when there are any). Otherwise, with `N` the fair states outside `b`,
//!   NuSMV's layers `R₀ = N`, `Rᵢ₊₁ = N ∧ EX Rᵢ` are the states that start a path of `i + 1`
//!   states inside `N`; the result is the first `i` where `Rᵢ` has no `a` state, `infinity` when
//!   the layers stop shrinking first. That is 0 when no `a` state is in `N`, `infinity` when one
//!   starts an infinite path inside `N`, else one more than the longest path inside `N` from an
//!   `a` state. The longest paths are computed by counting each `N` state's successors in `N`
//!   and settling a state when all of them are settled (its length is one more than their
//!   longest): the states never settled are those with an infinite path inside `N`.

use crate::explicit::kripke::{KripkeStructure, StateId};
use crate::ir::{ComputeOperand, Distance};
use fixedbitset::FixedBitSet;
use std::collections::VecDeque;

/// `MIN [a, b]`.
pub(crate) fn min_distance(kripke: &KripkeStructure, fair: &FixedBitSet, a: &FixedBitSet, b: &FixedBitSet) -> Distance {
    let n = kripke.num_states as usize;
    let mut seen = FixedBitSet::with_capacity(n);
    let mut frontier: Vec<StateId> = a.ones().filter(|&s| fair.contains(s)).map(StateId::new).collect();
    frontier.iter().for_each(|&s| seen.insert(s.index()));
    let mut next = vec![];
    let mut steps = 0u64;
    while !frontier.is_empty() {
        if frontier.iter().any(|&s| b.contains(s.index())) {
            return Distance::Steps(steps);
        }
        next.clear();
        for &s in &frontier {
            for &t in kripke.succ.neighbours(s) {
                if fair.contains(t.index()) && !seen.put(t.index()) {
                    next.push(t);
                }
            }
        }
        std::mem::swap(&mut frontier, &mut next);
        steps += 1;
    }
    Distance::Infinity
}

/// `MAX [a, b]`.
pub(crate) fn max_distance(kripke: &KripkeStructure, fair: &FixedBitSet, a: &FixedBitSet, b: &FixedBitSet) -> Distance {
    let n = kripke.num_states as usize;
    // NuSMV restricts the emptiness tests to the fair states only when there are some.
    let any_fair = !fair.is_clear();
    let empty = |set: &FixedBitSet| if any_fair { set.is_disjoint(fair) } else { set.is_clear() };
    if empty(a) {
        return Distance::Undefined(ComputeOperand::From);
    }
    if empty(b) {
        return Distance::Undefined(ComputeOperand::To);
    }
    let mut inside = fair.clone();
    inside.difference_with(b);
    if a.is_disjoint(&inside) {
        return Distance::Steps(0);
    }
    // Successors inside `N` not yet settled, and the longest path inside `N` of settled states.
    let mut open = vec![0u32; n];
    for s in inside.ones() {
        open[s] = kripke.succ.neighbours(StateId::new(s)).iter().filter(|t| inside.contains(t.index())).count() as u32;
    }
    let mut longest = vec![0u64; n];
    let mut settled = FixedBitSet::with_capacity(n);
    let mut queue: VecDeque<usize> = inside.ones().filter(|&s| open[s] == 0).collect();
    let pred = kripke.pred();
    while let Some(t) = queue.pop_front() {
        settled.insert(t);
        for p in pred.neighbours(StateId::new(t)).iter().map(|p| p.index()) {
            if inside.contains(p) {
                longest[p] = longest[p].max(longest[t] + 1);
                open[p] -= 1;
                if open[p] == 0 {
                    queue.push_back(p);
                }
            }
        }
    }
    let mut starts = a.clone();
    starts.intersect_with(&inside);
    if !starts.is_subset(&settled) {
        return Distance::Infinity;
    }
    Distance::Steps(starts.ones().map(|s| longest[s]).max().unwrap_or(0) + 1)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::explicit::test_support::kripke;

    fn set(n: usize, states: &[usize]) -> FixedBitSet {
        let mut s = FixedBitSet::with_capacity(n);
        states.iter().for_each(|&x| s.insert(x));
        s
    }

    #[test]
    fn min_is_the_shortest_path_through_fair_states() {
        // 0 → 1 → 2 → 3 ⟲, 0 → 3 is missing; 2 → 2.
        let k = kripke(4, &[(0, 1), (1, 2), (2, 3), (2, 2), (3, 3)]);
        let all = set(4, &[0, 1, 2, 3]);
        assert_eq!(min_distance(&k, &all, &set(4, &[0]), &set(4, &[3])), Distance::Steps(3));
        assert_eq!(min_distance(&k, &all, &set(4, &[0, 2]), &set(4, &[3])), Distance::Steps(1));
        assert_eq!(min_distance(&k, &all, &set(4, &[3]), &set(4, &[3])), Distance::Steps(0));
        assert_eq!(min_distance(&k, &all, &set(4, &[3]), &set(4, &[0])), Distance::Infinity);
        // Through fair states only: without 2 fair, 3 is out of reach.
        assert_eq!(min_distance(&k, &set(4, &[0, 1, 3]), &set(4, &[0]), &set(4, &[3])), Distance::Infinity);
    }

    #[test]
    fn max_is_one_more_than_the_longest_path_before_the_target() {
        // 0 → 1 → 3, 0 → 2 → 4 → 3, 3 ⟲.
        let k = kripke(5, &[(0, 1), (0, 2), (1, 3), (2, 4), (4, 3), (3, 3)]);
        let all = set(5, &[0, 1, 2, 3, 4]);
        assert_eq!(max_distance(&k, &all, &set(5, &[0]), &set(5, &[3])), Distance::Steps(3));
        assert_eq!(max_distance(&k, &all, &set(5, &[3]), &set(5, &[3])), Distance::Steps(0));
        assert_eq!(max_distance(&k, &all, &set(5, &[0]), &set(5, &[])), Distance::Undefined(ComputeOperand::To));
        assert_eq!(max_distance(&k, &all, &set(5, &[]), &set(5, &[3])), Distance::Undefined(ComputeOperand::From));
        // A loop before the target: 2 → 2.
        let k = kripke(5, &[(0, 1), (0, 2), (1, 3), (2, 4), (2, 2), (4, 3), (3, 3)]);
        assert_eq!(max_distance(&k, &all, &set(5, &[0]), &set(5, &[3])), Distance::Infinity);
        assert_eq!(max_distance(&k, &all, &set(5, &[1]), &set(5, &[3])), Distance::Steps(1));
    }
}
