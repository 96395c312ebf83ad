//! Witness paths for existential core formulas, used both for counterexamples (a path for the
//! negation of a false spec) and for witnesses (a path for a true existential spec).
//!
//! Like NuSMV's `explain` (`mcExplain.c`), a path is built by following the formula from the
//! first state: `EX a` adds a fair successor in `a`, `E[a U b]` a shortest path through `a` to a
//! fair `b` state, `EG a` a lasso inside the `EG a` states (without fairness constraints a
//! depth-first walk closing the first loop it meets; with constraints a shortest path into a fair
//! SCC, then through every constraint and back); then the explanation continues from the last state with the
//! operand (`a` for `EX`, `b` for `EU`), so `EF (p & EG q)` yields a path to `p` followed by a
//! `q`-lasso. Boolean nodes pick an operand that holds (preferring one whose explanation extends
//! the path, as NuSMV's `explain_and` does: `Arena::follow_order`);
//! universal operators (negated `EX`/`EU`/`EG`) end the path, as there is no single path to show.
//! Unlike NuSMV, the walk follows negations with their polarity, so it never explains an
//! existential that does not hold.

use super::eval::Labelling;
use super::fixpoint::{Constraint, fair_components};
use super::formula::{CoreNodeId, Lit, Node};
use super::paths::{closed_walk, shortest_path};
use crate::check::graph::scc::{Components, components};
use crate::explicit::kripke::StateId;
use crate::ir::id::IdVec;
use std::sync::OnceLock;

/// Builds explanations; caches, per `EG` node, the SCCs of its satisfaction set (shared by all
/// traces and threads).
pub(crate) struct Explainer<'l, 'k> {
    lab: &'l Labelling<'k>,
    eg_cycles: IdVec<CoreNodeId, OnceLock<FairCycles>>,
}

/// The SCCs of an `EG` node's states and which of them a fair path can cycle in.
struct FairCycles {
    sccs: Components,
    fair: Vec<bool>,
}

impl<'l, 'k> Explainer<'l, 'k> {
    pub(crate) fn new(lab: &'l Labelling<'k>) -> Self {
        Explainer { lab, eg_cycles: lab.arena().ids().map(|_| OnceLock::new()).collect() }
    }

    /// A path from `start` (where `lit` must hold) and its optional loop start.
    pub(crate) fn explain(&self, start: StateId, lit: Lit) -> (Vec<StateId>, Option<usize>) {
        explain(self, start, lit)
    }

    fn cycles(&self, eg: Lit) -> &FairCycles {
        self.eg_cycles[eg.node()].get_or_init(|| {
            let sccs = components(&self.lab.kripke().succ, self.lab.node_set(eg.node()));
            let fair = fair_components(self.lab.kripke(), &sccs, self.lab.constraints());
            FairCycles { sccs, fair }
        })
    }
}

fn explain(ex: &Explainer, start: StateId, lit: Lit) -> (Vec<StateId>, Option<usize>) {
    let lab = ex.lab;
    let arena = lab.arena();
    let mut path = vec![start];
    let mut lit = lit;
    loop {
        let s = *path.last().expect("paths start with one state");
        let positive = !lit.is_negated();
        let next = match (arena.node(lit.node()), positive) {
            (Node::True | Node::Atom(_), _) => None,
            (Node::And(a, b), true) => Some(operand_to_follow(ex, s, lit.node(), a, b)),
            (Node::And(a, b), false) => {
                let (na, nb) = (a.negate(), b.negate());
                Some(match (lab.holds_at(na, s), lab.holds_at(nb, s)) {
                    (true, true) => operand_to_follow(ex, s, lit.node(), na, nb),
                    (true, false) => na,
                    _ => nb,
                })
            }
            (Node::EX(a), true) => {
                let k = lab.kripke();
                let t = k.succ.neighbours(s).iter().copied().find(|&t| lab.is_fair(t) && lab.holds_at(a, t));
                t.map(|t| {
                    path.push(t);
                    a
                })
            }
            (Node::EU(a, b), true) => {
                let found = shortest_path(
                    lab.kripke(),
                    s,
                    |v| lab.holds_at(a, v) || (lab.holds_at(b, v) && lab.is_fair(v)),
                    |v| lab.holds_at(b, v) && lab.is_fair(v),
                    false,
                );
                // From a non-target state the search may only leave through `a` states.
                found.map(|p| {
                    path.extend_from_slice(&p[1..]);
                    b
                })
            }
            (Node::EG(_), true) => {
                let loop_start = lasso(ex, lit, &mut path);
                return (path, loop_start);
            }
            (Node::EX(_) | Node::EU(..) | Node::EG(_), false) => None,
        };
        match next {
            Some(l) => lit = l,
            None => return (path, None),
        }
    }
}

/// Which of two operands of the `And` node `and` (as they are to be explained) that hold at
/// `s` to explain: the preferred one ([`super::formula::Arena::follow_order`]) unless only
/// the other extends the path.
fn operand_to_follow(ex: &Explainer, s: StateId, and: CoreNodeId, a: Lit, b: Lit) -> Lit {
    let (first, second) = ex.lab.arena().follow_order(and, a, b);
    if extends(ex, s, first) || !extends(ex, s, second) { first } else { second }
}

/// Whether explaining `lit` (which holds at `s`) from `s` adds a state to the path: the walk of
/// [`explain`] up to its first step.
fn extends(ex: &Explainer, s: StateId, lit: Lit) -> bool {
    let lab = ex.lab;
    let arena = lab.arena();
    let mut lit = lit;
    loop {
        if arena.surely_extends(lit) {
            return true;
        }
        lit = match (arena.node(lit.node()), !lit.is_negated()) {
            (Node::And(a, b), true) => operand_to_follow(ex, s, lit.node(), a, b),
            (Node::And(a, b), false) => {
                let (na, nb) = (a.negate(), b.negate());
                match (lab.holds_at(na, s), lab.holds_at(nb, s)) {
                    (true, true) => operand_to_follow(ex, s, lit.node(), na, nb),
                    (true, false) => na,
                    _ => nb,
                }
            }
            // `E[a U b]` stays at `s` only when `s` is a fair `b` state, then explains `b`.
            (Node::EU(_, b), true) if lab.holds_at(b, s) && lab.is_fair(s) => b,
            (Node::EU(..), true) => return true,
            _ => return false,
        };
    }
}

/// Extends `path` (ending in a state of `eg`, a positive `EG` literal) into a lasso through a fair
/// SCC of the `eg` states; returns the loop start index.
fn lasso(ex: &Explainer, eg: Lit, path: &mut Vec<StateId>) -> Option<usize> {
    let lab = ex.lab;
    let k = lab.kripke();
    let inside = lab.node_set(eg.node());
    if lab.constraints().is_empty() {
        let start = *path.last()?;
        let (walk, loop_start) = closed_walk(k, start, |v| inside.contains(v.index()))?;
        let offset = path.len() - 1;
        path.extend_from_slice(&walk[1..]);
        return Some(offset + loop_start);
    }
    let FairCycles { sccs, fair } = ex.cycles(eg);
    let in_fair_scc = |v: StateId| inside.contains(v.index()) && fair[sccs.of_state[v.index()] as usize];
    let start = *path.last()?;
    let prefix = shortest_path(k, start, |v| inside.contains(v.index()), in_fair_scc, false)?;
    path.extend_from_slice(&prefix[1..]);
    let entry = *path.last()?;
    let component = sccs.of_state[entry.index()];
    let loop_start = path.len() - 1;
    let in_component = |v: StateId| inside.contains(v.index()) && sccs.of_state[v.index()] == component;
    for constraint in lab.constraints() {
        let here = *path.last()?;
        match *constraint {
            Constraint::States(set) => {
                let step = shortest_path(k, here, in_component, |v| set.contains(v.index()), false)?;
                path.extend_from_slice(&step[1..]);
            }
            Constraint::Transitions(set) => {
                // Walk to the source of a constraint transition inside the component, take it.
                let fair_edge = |u: StateId| {
                    let (from, to) = (k.succ.offsets[u.index()] as usize, k.succ.offsets[u.index() + 1] as usize);
                    (from..to).find(|&e| set.contains(e) && in_component(k.succ.targets[e]))
                };
                let step = shortest_path(k, here, in_component, |u| fair_edge(u).is_some(), false)?;
                path.extend_from_slice(&step[1..]);
                let source = *path.last()?;
                path.push(k.succ.targets[fair_edge(source)?]);
            }
        }
    }
    let here = *path.last()?;
    let back = shortest_path(k, here, in_component, |v| v == entry, true)?;
    // `back` ends with `entry` again: the loop closes onto `path[loop_start]`.
    path.extend_from_slice(&back[1..back.len() - 1]);
    Some(loop_start)
}
