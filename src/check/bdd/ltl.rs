//! `LTLSPEC` on the BDD engine: fair `EG true` on the product of the model with the symbolic
//! tableau of the negated spec ([`super::tableau`], NuSMV 2.5.4's method), restricted to the
//! product's initial states.
//!
//! Semantics are the explicit LTL engine's (`check::ltl`): a spec holds iff no infinite path from
//! an initial state that visits every `FAIRNESS`/`JUSTICE` constraint infinitely often violates
//! it; finite paths (ending in a deadlock) are not paths; past operators see the path from its
//! first state.
//!
//! A false spec's counterexample is a fair lasso of the product, projected on the model: from an
//! initial product state with a fair path, rounds that visit every fairness constraint by
//! shortest paths inside the fair states and then try to close the loop onto the round's first
//! state; a round that cannot close has left that state's SCC, and the next one starts a step
//! further (ending in a fair SCC, the same scheme as the CTL `EG` witnesses of `super::explain`).
//! The lasso is then shortened as the explicit engine's are: the prefix's last state rotated into
//! the loop while it equals the loop's last one, the loop cut to its period — on product states,
//! so that past operators keep their values. The trace is a [`Trace`] of concrete model states
//! with its loop start, printed by the same report code as every other trace.

use super::tableau::{ProductState, Tableau};
use crate::check::trace::{SpecOutcome, Trace, TraceKind};
use crate::explicit::kripke::PropId;
use crate::ltl::Ltl;
use crate::symbolic::{Bdd, SymResult, SymbolicError, SymbolicModel};
use oxidd::BooleanFunction;

/// Most rounds a lasso may take (each leaves an SCC for a lower one).
const MAX_ROUNDS: usize = 1 << 16;

/// The verdict of one LTL spec and the size of its tableau.
pub(crate) struct LtlChecked {
    pub outcome: SpecOutcome,
    /// Tableau variables (elementary subformulas and past memories).
    pub tableau_vars: usize,
}

/// Checks `spec` on `model`; `traces` asks for a counterexample when it is false.
pub(crate) fn check(model: &SymbolicModel, spec: &Ltl<PropId>, traces: bool) -> SymResult<LtlChecked> {
    let tableau = Tableau::build(model, spec)?;
    let fair = tableau.fair_states()?;
    let bad = tableau.init.and(&fair)?;
    let outcome = match tableau.pick(&bad)? {
        None => SpecOutcome { holds: true, trace: None },
        Some(start) if traces => {
            let (states, loop_start) = lasso(&tableau, &fair, start)?;
            let (states, loop_start) = shortest_form(states, loop_start);
            let trace = Trace::concrete(TraceKind::Counterexample, states.into_iter().map(|s| s.model).collect(), Some(loop_start));
            SpecOutcome { holds: false, trace: Some(trace) }
        }
        Some(_) => SpecOutcome { holds: false, trace: None },
    };
    Ok(LtlChecked { outcome, tableau_vars: tableau.variables() })
}

/// A fair lasso of the product from `start` inside `fair`: the states and the loop start.
fn lasso(t: &Tableau, fair: &Bdd, start: ProductState) -> SymResult<(Vec<ProductState>, usize)> {
    let mut path = vec![start];
    let mut loop_start = 0;
    for _ in 0..MAX_ROUNDS {
        let round_start = t.cube(&path[loop_start])?;
        for f in &t.fairness {
            let here = t.cube(&path[path.len() - 1])?;
            let target = fair.and(f)?;
            let Some(step) = shortest_path(t, &here, fair, &target, false)? else {
                return Err(SymbolicError("internal error: a fair product state cannot reach a fairness constraint".into()));
            };
            path.extend(step.into_iter().skip(1));
        }
        let here = t.cube(&path[path.len() - 1])?;
        if let Some(back) = shortest_path(t, &here, fair, &round_start, true)? {
            // `back` runs from the last state to the round's first one: the loop closes there.
            let k = back.len();
            path.extend(back.into_iter().take(k - 1).skip(1));
            return Ok((path, loop_start));
        }
        let succ = t.image(&here)?.and(fair)?;
        let next = t.pick(&succ)?.ok_or_else(|| SymbolicError("internal error: a fair product state without a fair successor".into()))?;
        path.push(next);
        loop_start = path.len() - 1;
    }
    Err(SymbolicError("internal error: no fair loop found in the LTL product".into()))
}

/// A shortest product path from `start` (a cube) to a `target` state, every state after the first
/// in `inside`; `nonempty`: at least one step.
fn shortest_path(t: &Tableau, start: &Bdd, inside: &Bdd, target: &Bdd, nonempty: bool) -> SymResult<Option<Vec<ProductState>>> {
    if !nonempty && let Some(s) = t.pick(&start.and(target)?)? {
        return Ok(Some(vec![s]));
    }
    let mut rings = vec![start.clone()];
    let mut visited = start.clone();
    let mut frontier = start.clone();
    loop {
        let next = t.image(&frontier)?.and(inside)?;
        if let Some(hit) = t.pick(&next.and(target)?)? {
            let mut path = vec![hit];
            let mut cur = t.cube(&path[0])?;
            for ring in rings.iter().rev() {
                let pre = t.preimage(&cur)?.and(ring)?;
                let p = t.pick(&pre)?.ok_or_else(|| SymbolicError("internal error: a ring without predecessor in the LTL product".into()))?;
                cur = t.cube(&p)?;
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

/// The same infinite run as a shorter lasso: the prefix's last state rotated into the loop while
/// it equals the loop's last state (`u a · (w a)^ω = u · (a w)^ω`), then the loop cut to its
/// smallest period. States are product states, so past variables are kept.
fn shortest_form(mut states: Vec<ProductState>, mut loop_start: usize) -> (Vec<ProductState>, usize) {
    while loop_start > 0 && states[loop_start - 1] == states[states.len() - 1] {
        states.pop();
        loop_start -= 1;
    }
    let cycle = states.len() - loop_start;
    if let Some(d) = (1..cycle).find(|&d| cycle.is_multiple_of(d) && (loop_start + d..states.len()).all(|i| states[i] == states[i - d])) {
        states.truncate(loop_start + d);
    }
    (states, loop_start)
}

#[cfg(test)]
mod tests {
    use super::{ProductState, shortest_form};

    fn s(m: u32, p: bool) -> ProductState {
        ProductState { model: vec![m], tableau: vec![p] }
    }

    #[test]
    fn lassos_are_rotated_and_cut_on_product_states() {
        // 7 · (5 7)^ω = (7 5)^ω
        assert_eq!(shortest_form(vec![s(7, false), s(5, false), s(7, false)], 1), (vec![s(7, false), s(5, false)], 0));
        // 1 · (2 3 2 3)^ω = 1 · (2 3)^ω
        let v = vec![s(1, false), s(2, false), s(3, false), s(2, false), s(3, false)];
        assert_eq!(shortest_form(v, 1), (vec![s(1, false), s(2, false), s(3, false)], 1));
        // Equal model states with different tableau values are not folded.
        assert_eq!(shortest_form(vec![s(7, false), s(5, true), s(7, true)], 1), (vec![s(7, false), s(5, true), s(7, true)], 1));
    }
}
