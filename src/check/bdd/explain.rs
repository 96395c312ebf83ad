//! Witness paths of the BDD engine, with the shapes of the explicit engine's
//! (`check::flat::explain`): the formula is followed from the start state — `EX a` adds a fair
//! successor in `a`, `E[a U b]` a shortest path through `a` to a fair `b` state (forward rings,
//! then backwards through them), `EG a` a lasso inside the `EG a` states that visits every
//! fairness constraint (rounds: visit each constraint, try to close the loop to the round's first
//! state; if it cannot be closed the walk has left that state's SCC, and a new round starts from
//! where it is, which ends in a bottom fair SCC); boolean nodes pick an operand that holds;
//! universal operators end the path. States are concrete value vectors picked from BDDs; the
//! path searches are `symbolic::rings`'.

use super::Labels;
use crate::check::flat::formula::{CoreNodeId, Lit, Node};
use crate::check::trace::{Trace, TraceKind};
use crate::symbolic::rings::{ModelSpace, fair_lasso, shortest_path};
use crate::symbolic::{Bdd, SymResult};
use oxidd::BooleanFunction;

type State = Vec<u32>;

/// The trace for `lit` from `start` (where it holds), with the explicit engine's lasso folding.
pub(crate) fn trace(labels: &Labels, start: State, lit: Lit, kind: TraceKind) -> SymResult<Trace> {
    let (mut states, mut loop_start) = explain(labels, start, lit)?;
    if loop_start.is_none() && states.len() > 1 {
        let last = states[states.len() - 1].clone();
        if let Some(i) = states[..states.len() - 1].iter().rposition(|s| *s == last) {
            states.pop();
            loop_start = Some(i);
        }
    }
    Ok(Trace::concrete(kind, states, loop_start))
}

fn space<'a>(labels: &Labels<'a>) -> ModelSpace<'a> {
    ModelSpace { enc: &labels.model.enc, trans: &labels.model.trans }
}

fn cube(labels: &Labels, s: &[u32]) -> SymResult<Bdd> {
    labels.model.enc.state_cube(s)
}

/// Which of two operands that hold at `s` to explain, as the explicit walker chooses
/// (`check::flat::explain`): the preferred one unless only the other extends the path.
fn operand_to_follow(labels: &Labels, s: &[u32], and: CoreNodeId, a: Lit, b: Lit) -> SymResult<Lit> {
    let (first, second) = labels.arena.follow_order(and, a, b);
    Ok(if extends(labels, s, first)? || !extends(labels, s, second)? { first } else { second })
}

/// Whether explaining `lit` (which holds at `s`) from `s` adds a state to the path: the walk of
/// [`explain`] up to its first step.
fn extends(labels: &Labels, s: &[u32], lit: Lit) -> SymResult<bool> {
    let arena = &labels.arena;
    let cube_s = cube(labels, s)?;
    let mut lit = lit;
    loop {
        if arena.surely_extends(lit) {
            return Ok(true);
        }
        lit = match (arena.node(lit.node()), !lit.is_negated()) {
            (Node::And(a, b), true) => operand_to_follow(labels, s, lit.node(), a, b)?,
            (Node::And(a, b), false) => {
                let (na, nb) = (a.negate(), b.negate());
                match (labels.holds_at(na, &cube_s)?, labels.holds_at(nb, &cube_s)?) {
                    (true, true) => operand_to_follow(labels, s, lit.node(), na, nb)?,
                    (true, false) => na,
                    _ => nb,
                }
            }
            // `E[a U b]` stays at `s` only when `s` is a fair `b` state, then explains `b`.
            (Node::EU(_, b), true) => {
                let here = labels.lit(b)?.and(&labels.fair)?.and(&cube_s)?;
                if here.satisfiable() {
                    b
                } else {
                    return Ok(true);
                }
            }
            _ => return Ok(false),
        };
    }
}

fn explain(labels: &Labels, start: State, lit: Lit) -> SymResult<(Vec<State>, Option<usize>)> {
    let mut path = vec![start];
    let mut lit = lit;
    loop {
        let s = cube(labels, path.last().map_or(&[][..], |v| v.as_slice()))?;
        let positive = !lit.is_negated();
        let next = match (labels.arena.node(lit.node()), positive) {
            (Node::True | Node::Atom(_), _) => None,
            (Node::And(a, b), true) => Some(operand_to_follow(labels, path.last().map_or(&[][..], |v| v.as_slice()), lit.node(), a, b)?),
            (Node::And(a, b), false) => {
                let (na, nb) = (a.negate(), b.negate());
                Some(match (labels.holds_at(na, &s)?, labels.holds_at(nb, &s)?) {
                    (true, true) => operand_to_follow(labels, path.last().map_or(&[][..], |v| v.as_slice()), lit.node(), na, nb)?,
                    (true, false) => na,
                    _ => nb,
                })
            }
            (Node::EX(a), true) => {
                let succ = labels.model.trans.image(&labels.model.enc, &s)?.and(&labels.fair)?.and(&labels.lit(a)?)?;
                match labels.model.enc.pick_state(&succ)? {
                    Some(t) => {
                        path.push(t);
                        Some(a)
                    }
                    None => None,
                }
            }
            (Node::EU(a, b), true) => {
                let target = labels.lit(b)?.and(&labels.fair)?;
                let inside = labels.lit(a)?.or(&target)?;
                match shortest_path(&space(labels), &s, &inside, &target, false)? {
                    Some(p) => {
                        path.extend(p.into_iter().skip(1));
                        Some(b)
                    }
                    None => None,
                }
            }
            (Node::EG(_), true) => {
                let start = path.len() - 1;
                let loop_start = fair_lasso(&space(labels), &labels.lit(lit)?, &labels.constraints, &mut path, start)?;
                return Ok((path, Some(loop_start)));
            }
            (Node::EX(_) | Node::EU(..) | Node::EG(_), false) => None,
        };
        match next {
            Some(l) => lit = l,
            None => return Ok((path, None)),
        }
    }
}
