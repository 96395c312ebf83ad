//! The graph algorithms behind the core operators, each linear in states + transitions:
//! existential predecessors (`EX`), backward breadth-first search (`EU`), and `EG` — by
//! successor counting when there are no fairness constraints, by SCC decomposition otherwise.
//!
//! The closure and peeling loops are the shared kernels of [`crate::check::graph`] (and the
//! SCCs its [`crate::check::graph::scc`]); this module chooses how to seed them for the state
//! graph (dense or sparse sets) and adds fairness.
//!
//! These functions know nothing about fairness restrictions of `EX`/`EU` targets: callers
//! intersect targets with the fair states first (see `eval.rs`).

use crate::check::graph::scc::{Components, components};
use crate::check::graph::{self, CsrGraph};
use crate::explicit::kripke::{KripkeStructure, StateId};
use fixedbitset::FixedBitSet;

/// A `FAIRNESS`/`JUSTICE` constraint: a fair path must visit the set infinitely often.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Constraint<'a> {
    /// A set of states.
    States(&'a FixedBitSet),
    /// A set of transitions, as indices into `succ.targets` (NuSMV's constraints over inputs,
    /// such as `FAIRNESS running`, hold on transitions).
    Transitions(&'a FixedBitSet),
}

pub(crate) fn num_states(k: &KripkeStructure) -> usize {
    k.num_states as usize
}

fn state_graph(k: &KripkeStructure) -> CsrGraph<'_, StateId> {
    CsrGraph { succ: &k.succ, pred: k.pred() }
}

/// States with at least one successor in `target`. When `target` is most of the graph, the
/// states outside it are visited instead: a state is dropped once all its successors are outside.
pub(crate) fn predecessors(k: &KripkeStructure, target: &FixedBitSet, out_degree: &[u32]) -> FixedBitSet {
    let n = num_states(k);
    let mut result = FixedBitSet::with_capacity(n);
    if target.count_ones(..) * 2 < n {
        for v in target.ones() {
            for &u in k.pred().neighbours(StateId::new(v)) {
                result.insert(u.index());
            }
        }
        return result;
    }
    let mut count = out_degree.to_vec();
    for (u, &d) in out_degree.iter().enumerate() {
        result.set(u, d > 0);
    }
    for v in target.zeroes() {
        for &u in k.pred().neighbours(StateId::new(v)) {
            count[u.index()] -= 1;
            if count[u.index()] == 0 {
                result.set(u.index(), false);
            }
        }
    }
    result
}

/// `E[hold U target]` without fairness: `target` plus every `hold` state with a path through
/// `hold` states into `target`. When the candidates (`hold ∖ target`) are fewer than the targets,
/// they are scanned for a successor in the result and newly added states wake up their
/// candidate predecessors; otherwise a backward breadth-first search runs from the targets.
pub(crate) fn until(k: &KripkeStructure, hold: &FixedBitSet, target: FixedBitSet) -> FixedBitSet {
    let mut candidates = hold.clone();
    candidates.difference_with(&target);
    if candidates.count_ones(..) < target.count_ones(..) {
        let mut result = target;
        let mut queue: Vec<u32> = Vec::new();
        for u in candidates.ones() {
            if k.succ.neighbours(StateId::new(u)).iter().any(|&v| result.contains(v.index())) {
                queue.push(u as u32);
            }
        }
        for &u in &queue {
            result.insert(u as usize);
        }
        if queue.is_empty() {
            return result;
        }
        graph::backward_closure(&state_graph(k), &mut result, queue, |u| candidates.contains(u as usize));
        return result;
    }
    let mut result = target;
    let queue: Vec<u32> = result.ones().map(|v| v as u32).collect();
    if queue.is_empty() {
        return result;
    }
    graph::backward_closure(&state_graph(k), &mut result, queue, |u| hold.contains(u as usize));
    result
}

/// States of `mask` reaching `seeds` backwards within `mask` (seeds must lie inside `mask`).
fn backward_within(k: &KripkeStructure, mask: &FixedBitSet, seeds: FixedBitSet) -> FixedBitSet {
    until(k, mask, seeds)
}

/// `EG mask` without fairness constraints: the greatest set `Z ⊆ mask` in which every state has
/// a successor in `Z`, i.e. the states with an infinite path inside `mask`. Computed by counting
/// each state's successors in the candidate set and peeling states whose count drops to zero.
/// `out_degree[v]` is the number of successors of `v`; when `mask` is most of the graph the
/// counts start from it and only the states outside `mask` are visited.
pub(crate) fn always_infinite(k: &KripkeStructure, mask: &FixedBitSet, out_degree: &[u32]) -> FixedBitSet {
    let n = num_states(k);
    let mut result = mask.clone();
    if mask.count_ones(..) * 2 < n {
        graph::greatest_fixpoint(&state_graph(k), &mut result, &mut vec![0u32; n], |_| false);
        return result;
    }
    let mut dead: Vec<u32> = Vec::new();
    let mut count = out_degree.to_vec();
    for v in mask.zeroes() {
        for &u in k.pred().neighbours(StateId::new(v)) {
            count[u.index()] -= 1;
            if count[u.index()] == 0 && mask.contains(u.index()) {
                dead.push(u.as_u32());
            }
        }
    }
    dead.extend(mask.ones().filter(|&u| out_degree[u] == 0).map(|u| u as u32));
    for &v in &dead {
        result.set(v as usize, false);
    }
    if dead.is_empty() {
        // Nothing to peel (`EG TRUE` on a model without deadlocks): the reverse edges need not
        // be built.
        return result;
    }
    graph::peel(&state_graph(k), &mut result, &mut count, dead, |_| false);
    result
}

/// Fair `EG mask` (Emerson–Lei via SCCs): the states of `mask` that can reach, inside `mask`, a
/// nontrivial strongly connected component of the `mask` subgraph that meets every constraint.
/// From such a component a path can cycle forever visiting each constraint infinitely often.
pub(crate) fn always_fair(k: &KripkeStructure, mask: &FixedBitSet, constraints: &[Constraint]) -> FixedBitSet {
    let sccs = components(&k.succ, mask);
    let fair = fair_components(k, &sccs, constraints);
    let mut seeds = FixedBitSet::with_capacity(num_states(k));
    for v in mask.ones() {
        if fair[sccs.of_state[v] as usize] {
            seeds.insert(v);
        }
    }
    backward_within(k, mask, seeds)
}

/// For each component: nontrivial and meeting every constraint (a fair path can cycle in it). A
/// component meets a transition constraint through a transition with both ends inside it.
pub(crate) fn fair_components(k: &KripkeStructure, sccs: &Components, constraints: &[Constraint]) -> Vec<bool> {
    // met[c] = number of leading constraints (in order) that component c meets.
    let mut met = vec![0u32; sccs.count()];
    let mut meet = |c: u32, i: usize| {
        if c != Components::NONE && met[c as usize] == i as u32 {
            met[c as usize] = i as u32 + 1;
        }
    };
    for (i, constraint) in constraints.iter().enumerate() {
        match constraint {
            Constraint::States(set) => {
                for v in set.ones() {
                    meet(sccs.of_state.get(v).copied().unwrap_or(Components::NONE), i);
                }
            }
            Constraint::Transitions(set) => {
                for (u, &c) in sccs.of_state.iter().enumerate() {
                    let (from, to) = (k.succ.offsets[u] as usize, k.succ.offsets[u + 1] as usize);
                    if (from..to).any(|e| set.contains(e) && sccs.of_state[k.succ.targets[e].index()] == c) {
                        meet(c, i);
                    }
                }
            }
        }
    }
    (0..sccs.count()).map(|c| sccs.nontrivial[c] && met[c] == constraints.len() as u32).collect()
}

/// Fair `EG mask` under the given constraints (no constraints: every infinite path is fair).
pub(crate) fn always(k: &KripkeStructure, mask: &FixedBitSet, constraints: &[Constraint], out_degree: &[u32]) -> FixedBitSet {
    if constraints.is_empty() { always_infinite(k, mask, out_degree) } else { always_fair(k, mask, constraints) }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::explicit::test_support::kripke;

    fn set(n: usize, states: &[usize]) -> FixedBitSet {
        let mut s = FixedBitSet::with_capacity(n);
        for &v in states {
            s.insert(v);
        }
        s
    }

    #[test]
    fn counting_and_scc_agree_without_constraints() {
        // 0 -> 1 -> 2 -> 1, 0 -> 3 (deadlock), 4 -> 4
        let k = kripke(5, &[(0, 1), (1, 2), (2, 1), (0, 3), (4, 4)]);
        let deg = [2, 1, 1, 0, 1];
        for mask in [set(5, &[0, 1, 2, 3, 4]), set(5, &[0, 1, 3, 4]), set(5, &[0, 2, 1]), set(5, &[4])] {
            assert_eq!(always_infinite(&k, &mask, &deg), always_fair(&k, &mask, &[]));
        }
        assert_eq!(always_infinite(&k, &set(5, &[0, 1, 2, 3, 4]), &deg), set(5, &[0, 1, 2, 4]));
    }

    #[test]
    fn fair_eg_needs_every_constraint_on_the_cycle() {
        // two cycles: 0 <-> 1 and 2 <-> 3, 1 -> 2
        let k = kripke(4, &[(0, 1), (1, 0), (1, 2), (2, 3), (3, 2)]);
        let all = set(4, &[0, 1, 2, 3]);
        let f1 = set(4, &[0]);
        let f2 = set(4, &[3]);
        let (c1, c2) = (Constraint::States(&f1), Constraint::States(&f2));
        assert_eq!(always_fair(&k, &all, &[c1]), set(4, &[0, 1]));
        assert_eq!(always_fair(&k, &all, &[c2]), all);
        assert_eq!(always_fair(&k, &all, &[c1, c2]), set(4, &[]));
        // Transition 1 -> 0 is index 1 (edges: 0 -> 1, then 1 -> 0 and 1 -> 2, …); 1 -> 2 leaves the cycle.
        let t = set(5, &[1]);
        assert_eq!(always_fair(&k, &all, &[Constraint::Transitions(&t)]), set(4, &[0, 1]));
        let exit_edge = set(5, &[2]);
        assert_eq!(always_fair(&k, &all, &[Constraint::Transitions(&exit_edge)]), set(4, &[]));
    }

    #[test]
    fn until_is_backward_reachability_through_hold() {
        let k = kripke(4, &[(0, 1), (1, 2), (3, 2)]);
        let r = until(&k, &set(4, &[0, 1]), set(4, &[2]));
        assert_eq!(r, set(4, &[0, 1, 2]));
        assert_eq!(predecessors(&k, &set(4, &[2]), &[1, 1, 0, 1]), set(4, &[1, 3]));
        assert_eq!(predecessors(&k, &set(4, &[1, 2, 3]), &[1, 1, 0, 1]), set(4, &[0, 1, 3]));
    }

    #[test]
    fn searches_from_no_state_do_not_build_the_reverse_edges() {
        // 0 -> 1 -> 2 -> 0: no deadlock, so `EG TRUE` peels nothing and `AG EX TRUE` searches
        // back from no state (NuSMV's deadlock examples; gas-nq7: −57 MB peak).
        let k = kripke(3, &[(0, 1), (1, 2), (2, 0)]);
        let all = set(3, &[0, 1, 2]);
        assert_eq!(always_infinite(&k, &all, &[1, 1, 1]), all);
        assert_eq!(until(&k, &all, set(3, &[])), set(3, &[]));
        assert_eq!(until(&k, &set(3, &[]), set(3, &[])), set(3, &[]));
        assert!(k.pred.get().is_none());
        // A search that moves builds them, once.
        assert_eq!(until(&k, &all, set(3, &[0])), all);
        assert_eq!(k.pred().edge_count(), 3);
    }
}
