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
//! further (ending in a fair SCC: `symbolic::rings::fair_lasso`, which the CTL `EG` witnesses of
//! `super::explain` use too).
//! A spec whose cone of influence leaves variables out is decided on the cone first
//! ([`crate::symbolic::reduced`], the exactness argument of `symbolic::cone` holds for LTL: the
//! whole model's fair paths project onto the cone's and every fair path of the cone lifts back):
//! a true verdict, or a false one without a trace asked for, is the answer; a counterexample is
//! built on the whole model, as CTL traces are, so that it shows every variable.
//! The lasso is then shortened as the explicit engine's are: the prefix's last state rotated into
//! the loop while it equals the loop's last one, the loop cut to its period — on product states,
//! so that past operators keep their values. The trace is a [`Trace`] of concrete model states
//! with its loop start, printed by the same report code as every other trace.

use super::tableau::{ProductState, Space, Tableau};
use crate::check::trace::{SpecOutcome, Trace, TraceKind};
use crate::ir::PropId;

use crate::ltl::Ltl;
use crate::symbolic::reduced::Reduced;
use crate::symbolic::rings::fair_lasso;
use crate::symbolic::{SymResult, SymbolicModel};
use oxidd::BooleanFunction;

/// The verdict of one LTL spec and the size of its tableau.
pub(crate) struct LtlChecked {
    pub outcome: SpecOutcome,
    /// Tableau variables (elementary subformulas and past memories).
    pub tableau_vars: usize,
    /// Whether the spec's cone of influence decided the verdict.
    pub on_cone: bool,
}

/// Checks `spec` on `model`, first on `cone` when given (the spec's cone of influence, when it
/// leaves variables out); `traces` asks for a counterexample when it is false.
pub(crate) fn check(model: &SymbolicModel, cone: Option<&Reduced>, spec: &Ltl<PropId>, traces: bool) -> SymResult<LtlChecked> {
    if let Some(c) = cone {
        let tableau = Tableau::build_on(model, Space { trans: &c.trans, init: &c.init, reach: &c.reach }, spec)?;
        let holds = !tableau.init.and(&tableau.fair_states()?)?.satisfiable();
        if holds || !traces {
            return Ok(LtlChecked { outcome: SpecOutcome { holds, trace: None, distance: None }, tableau_vars: tableau.variables(), on_cone: true });
        }
    }
    let tableau = Tableau::build(model, spec)?;
    let fair = tableau.fair_states()?;
    let bad = tableau.init.and(&fair)?;
    let outcome = match tableau.pick(&bad)? {
        None => SpecOutcome { holds: true, trace: None, distance: None },
        Some(start) if traces => {
            let mut states = vec![start];
            let loop_start = fair_lasso(&tableau, &fair, &tableau.fairness, &mut states, 0)?;
            let (states, loop_start) = shortest_form(states, loop_start);
            let trace = Trace::concrete(TraceKind::Counterexample, states.into_iter().map(|s| s.model).collect(), Some(loop_start));
            SpecOutcome { holds: false, trace: Some(trace), distance: None }
        }
        Some(_) => SpecOutcome { holds: false, trace: None, distance: None },
    };
    Ok(LtlChecked { outcome, tableau_vars: tableau.variables(), on_cone: false })
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
