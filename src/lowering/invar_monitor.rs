//! `INVARSPEC`s that read input variables or `next()`, and `LTLSPEC` atoms that read input
//! variables: NuSMV 2.5.4's monitor.
//!
//! NuSMV 2.5.4 accepts such an invariant (`Prop_needs_rewriting`) and checks it on the product
//! of the model with a fresh boolean state variable, the monitor `m`: `init(m) := TRUE;
//! next(m) := φ;` (φ read on the transition: current state, its input, next state), and the
//! invariant becomes `m` (`Mc_rewrite_invar_get_sexp_fsm`). So φ must hold on every transition
//! leaving a reachable state (a state without successor is not constrained), and a
//! counterexample is a path to a reachable state followed by one transition that violates φ.
//!
//! xmv-rs adds the same monitor to the lowered system, after the model's own variables, so both
//! engines check it unchanged and a trace's input is one that violates φ (the monitor's value
//! in the last state tells the trace printer which input led there). Monitors are hidden from
//! traces and state listings (`program::is_monitor`). Differences from NuSMV, which builds the product
//! for that one check only: the monitors stay in the model for every spec, so `--stats` counts
//! (state, monitor values) pairs; `-r` counts states without them, as NuSMV does
//! (`System::counts_in_state`).
//!
//! `LTLSPEC` atoms ([`transition_monitor`]): NuSMV 2.5.4 reads an input variable in an LTL atom
//! as the input of the step leaving the state (its tableau evaluates atoms in its `TRANS`), so
//! atom φ at position k of a path is φ on step k → k+1, which is the same monitor at position
//! k+1: the atom becomes `X monitor`. Paths are infinite in LTL, so every position has that
//! step. Below a past operator this puts a future operator inside a past one, which only the
//! BDD engine checks (the explicit engine says E0601; `auto` picks the BDD engine).

use crate::ir::{Domain, VarKind};
use crate::lowering::expr::Lowerer;
use crate::lowering::program::{Expr, System, Value, VarId, Variable};
use crate::semantics::checked::TExpr;
use crate::source::Span;

use crate::lowering::program::MONITOR_PREFIX;
use crate::lowering::program::is_monitor;

/// The atom an `INVARSPEC` body `t` of `system` is checked as: `t` itself when it is a state
/// predicate, else a new monitor variable of `system` (see the module doc).
pub(crate) fn monitor_atom(l: &mut Lowerer, system: &mut System, t: &TExpr, span: Span) -> Expr {
    transition_monitor(l, system, t, span).unwrap_or_else(|| l.lower(t))
}

/// `LTLSPEC` atoms over inputs (NuSMV 2.5.4 reads an input in an LTL atom as the input of the
/// step leaving the state): `None` when `t` is a state predicate, else the monitor variable
/// whose value in a state is `t` on the step that led there, so that `t` at a position of a
/// path is the monitor one position later (`X monitor`; paths are infinite in LTL). Atoms
/// with the same lowered body share one monitor, with each other and with `INVARSPEC`s.
pub(crate) fn transition_monitor(l: &mut Lowerer, system: &mut System, t: &TExpr, span: Span) -> Option<Expr> {
    let on_step = l.lower_step(t);
    if !reads_transition(&on_step, system) {
        return None;
    }
    let existing = (system.vars.iter().enumerate()).find(|(i, v)| is_monitor(v) && system.next_assign.get(*i).and_then(Option::as_ref) == Some(&on_step));
    if let Some((i, _)) = existing {
        return Some(Expr::Var(VarId::new(i)));
    }
    let v = VarId::new(system.vars.len());
    let k = system.vars.iter().filter(|x| is_monitor(x)).count();
    system.vars.push(Variable { name: format!("{MONITOR_PREFIX}{k}"), domain: Domain::Boolean, kind: VarKind::State, span });
    system.init_assign.push(Some(Expr::Const(Value::Bool(true))));
    system.next_assign.push(Some(on_step));
    system.invar_assign.push(None);
    system.spans.init_assign.push(Some(span));
    system.spans.next_assign.push(Some(span));
    system.spans.invar_assign.push(None);
    Some(Expr::Var(v))
}

/// Whether `e` reads a `next()` value or an input variable.
fn reads_transition(e: &Expr, system: &System) -> bool {
    let mut stack = vec![e];
    while let Some(x) = stack.pop() {
        match x {
            Expr::Next(_) => return true,
            Expr::Var(v) if system.vars.get(v.index()).is_some_and(|x| x.kind == VarKind::Input) => return true,
            Expr::Table { var, .. } if system.vars.get(var.index()).is_some_and(|x| x.kind == VarKind::Input) => return true,
            _ => x.push_children(&mut stack),
        }
    }
    false
}
