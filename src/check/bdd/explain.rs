//! Witness paths of the BDD engine, with the shapes of the explicit engine's
//! (`check::flat::explain`): the formula is followed from the start state — `EX a` adds a fair
//! successor in `a`, `E[a U b]` a shortest path through `a` to a fair `b` state (forward rings,
//! then backwards through them), `EG a` a lasso inside the `EG a` states that visits every
//! fairness constraint (rounds: visit each constraint, try to close the loop to the round's first
//! state; if it cannot be closed the walk has left that state's SCC, and a new round starts from
//! where it is, which ends in a bottom fair SCC); boolean nodes pick an operand that holds;
//! universal operators end the path. States are concrete value vectors picked from BDDs.

use super::Labels;
use crate::check::flat::formula::{Lit, Node};
use crate::check::trace::{Trace, TraceKind};
use crate::symbolic::{Bdd, SymResult, SymbolicError};
use oxidd::BooleanFunction;

/// Most rounds a lasso may take (each leaves an SCC for a lower one; far more than any model has).
const MAX_ROUNDS: usize = 1 << 16;

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
                match shortest_path(labels, &s, &inside, &target, false)? {
                    Some(p) => {
                        path.extend(p.into_iter().skip(1));
                        Some(b)
                    }
                    None => None,
                }
            }
            (Node::EG(_), true) => {
                let loop_start = lasso(labels, lit, &mut path)?;
                return Ok((path, loop_start));
            }
            (Node::EX(_) | Node::EU(..) | Node::EG(_), false) => None,
        };
        match next {
            Some(l) => lit = l,
            None => return Ok((path, None)),
        }
    }
}

/// A shortest path from `start` (a state cube) to a `target` state, every state after the first
/// in `inside`, expanding only non-target states; `nonempty`: at least one step.
fn shortest_path(labels: &Labels, start: &Bdd, inside: &Bdd, target: &Bdd, nonempty: bool) -> SymResult<Option<Vec<State>>> {
    let (enc, trans) = (&labels.model.enc, &labels.model.trans);
    if !nonempty && let Some(s) = enc.pick_state(&start.and(target)?)? {
        return Ok(Some(vec![s]));
    }
    let mut rings = vec![start.clone()];
    let mut visited = start.clone();
    let mut frontier = start.clone();
    loop {
        let expand = if rings.len() == 1 { frontier.clone() } else { frontier.and(&target.not()?)? };
        let next = trans.image(enc, &expand)?.and(inside)?;
        let hit = next.and(target)?;
        if let Some(t) = enc.pick_state(&hit)? {
            let mut path = vec![t.clone()];
            let mut cur = enc.state_cube(&t)?;
            for ring in rings.iter().rev() {
                let pre = trans.preimage(enc, &cur)?.and(ring)?;
                let p = enc.pick_state(&pre)?.ok_or_else(|| SymbolicError("internal error: a ring without predecessor".into()))?;
                cur = enc.state_cube(&p)?;
                path.push(p);
            }
            path.reverse();
            return Ok(Some(path));
        }
        frontier = next.and(&visited.not()?)?;
        if !frontier.satisfiable() {
            return Ok(None);
        }
        visited = visited.or(&frontier)?;
        rings.push(frontier.clone());
    }
}

/// Extends `path` (ending in a state of the positive `EG` literal `eg`) into a fair lasso inside
/// the `eg` states; returns the loop start.
fn lasso(labels: &Labels, eg: Lit, path: &mut Vec<State>) -> SymResult<Option<usize>> {
    let (enc, trans) = (&labels.model.enc, &labels.model.trans);
    let inside = labels.lit(eg)?;
    let mut loop_start = path.len() - 1;
    for _ in 0..MAX_ROUNDS {
        let round_start = cube(labels, &path[loop_start])?;
        for f in &labels.constraints {
            let here = cube(labels, &path[path.len() - 1])?;
            let target = inside.and(f)?;
            let Some(step) = shortest_path(labels, &here, &inside, &target, false)? else {
                return Err(SymbolicError("internal error: a fair EG state cannot reach a fairness constraint".into()));
            };
            path.extend(step.into_iter().skip(1));
        }
        let here = cube(labels, &path[path.len() - 1])?;
        if let Some(back) = shortest_path(labels, &here, &inside, &round_start, true)? {
            // `back` ends with the round's first state: the loop closes onto it.
            let k = back.len();
            path.extend(back.into_iter().take(k - 1).skip(1));
            return Ok(Some(loop_start));
        }
        // The round's first state is out of reach: start again one step further.
        let succ = trans.image(enc, &here)?.and(&inside)?;
        let t = enc.pick_state(&succ)?.ok_or_else(|| SymbolicError("internal error: an EG state without successor in EG".into()))?;
        path.push(t);
        loop_start = path.len() - 1;
    }
    Err(SymbolicError("internal error: no fair loop found".into()))
}
