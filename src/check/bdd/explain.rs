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
use crate::check::flat::formula::{Lit, Node};
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

fn is_temporal(labels: &Labels, lit: Lit) -> bool {
    match labels.arena.node(lit.node()) {
        Node::True | Node::Atom(_) => false,
        Node::And(..) => true,
        Node::EX(_) | Node::EU(..) | Node::EG(_) => !lit.is_negated(),
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
            (Node::And(a, b), true) => Some(if is_temporal(labels, a) || !is_temporal(labels, b) { a } else { b }),
            (Node::And(a, b), false) => {
                let (na, nb) = (a.negate(), b.negate());
                let (ha, hb) = (labels.holds_at(na, &s)?, labels.holds_at(nb, &s)?);
                Some(if ha && (is_temporal(labels, na) || !hb || !is_temporal(labels, nb)) { na } else { nb })
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
