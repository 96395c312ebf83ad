//! Witness paths for existential core formulas, used both for counterexamples (a path for the
//! negation of a false spec) and for witnesses (a path for a true existential spec).
//!
//! Like NuSMV's `explain` (`mcExplain.c`), a path is built by following the formula from the
//! first state: `EX a` adds a fair successor in `a`, `E[a U b]` a shortest path through `a` to a
//! fair `b` state, `EG a` a lasso into a fair SCC of the `EG a` states that visits every fairness
//! constraint before looping; then the explanation continues from the last state with the
//! operand (`a` for `EX`, `b` for `EU`), so `EF (p & EG q)` yields a path to `p` followed by a
//! `q`-lasso. Boolean nodes pick an operand that holds (preferring one with a temporal operator);
//! universal operators (negated `EX`/`EU`/`EG`) end the path, as there is no single path to show.
//! Unlike NuSMV, the walk follows negations with their polarity, so it never explains an
//! existential that does not hold.

use super::eval::Labelling;
use super::formula::{Lit, Node};
use super::paths::shortest_path;
use super::fixpoint::fair_components;
use super::scc::components;
use crate::explicit::kripke::StateId;

/// A path from `start` (where `lit` must hold) and its optional loop start.
pub fn explain(lab: &Labelling, start: StateId, lit: Lit) -> (Vec<StateId>, Option<usize>) {
    let arena = lab.arena();
    let mut path = vec![start];
    let mut lit = lit;
    loop {
        let s = *path.last().expect("paths start with one state");
        let positive = !lit.is_negated();
        let next = match (arena.node(lit.node()), positive) {
            (Node::True | Node::Atom(_), _) => None,
            (Node::And(a, b), true) => Some(if is_temporal(lab, a) || !is_temporal(lab, b) { a } else { b }),
            (Node::And(a, b), false) => {
                let (na, nb) = (a.negate(), b.negate());
                let (ha, hb) = (lab.holds_at(na, s), lab.holds_at(nb, s));
                Some(if ha && (is_temporal(lab, na) || !hb || !is_temporal(lab, nb)) { na } else { nb })
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
                let loop_start = lasso(lab, lit, &mut path);
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

/// Whether a literal's top is an existential temporal operator worth following.
fn is_temporal(lab: &Labelling, lit: Lit) -> bool {
    match lab.arena().node(lit.node()) {
        Node::True | Node::Atom(_) => false,
        Node::And(..) => true,
        Node::EX(_) | Node::EU(..) | Node::EG(_) => !lit.is_negated(),
    }
}

/// Extends `path` (ending in a state of `eg`, a positive `EG` literal) into a lasso through a fair
/// SCC of the `eg` states; returns the loop start index.
fn lasso(lab: &Labelling, eg: Lit, path: &mut Vec<StateId>) -> Option<usize> {
    let k = lab.kripke();
    let inside = lab.node_set(eg.node());
    let sccs = components(&k.succ, inside);
    let fair = fair_components(&sccs, lab.constraints());
    let in_fair_scc = |v: StateId| inside.contains(v as usize) && fair[sccs.of_state[v as usize] as usize];
    let start = *path.last()?;
    let prefix = shortest_path(k, start, |v| inside.contains(v as usize), &in_fair_scc, false)?;
    path.extend_from_slice(&prefix[1..]);
    let entry = *path.last()?;
    let component = sccs.of_state[entry as usize];
    let loop_start = path.len() - 1;
    let in_component = |v: StateId| inside.contains(v as usize) && sccs.of_state[v as usize] == component;
    for constraint in lab.constraints() {
        let here = *path.last()?;
        let step = shortest_path(k, here, in_component, |v| constraint.contains(v as usize), false)?;
        path.extend_from_slice(&step[1..]);
    }
    let here = *path.last()?;
    let back = shortest_path(k, here, in_component, |v| v == entry, true)?;
    // `back` ends with `entry` again: the loop closes onto `path[loop_start]`.
    path.extend_from_slice(&back[1..back.len() - 1]);
    Some(loop_start)
}
