//! `LTLSPEC` formulas as [`Ltl`] over [`SpecAtom`]s: every maximal subformula without an LTL
//! operator becomes one `SpecAtom::State` (`G (x = 1 -> F y)` has atoms `x = 1` and `y`), the
//! boolean connectives above LTL operators stay LTL connectives. In procedure modules a DEFINE
//! that is a global label becomes `SpecAtom::Label` (labels are shared across modules), as in
//! CTL specs (`lowering::spec`), so connectives above a label stay LTL connectives. An atom
//! that reads an input variable (flat models) becomes `X monitor` (`lowering::invar_monitor`).

use crate::lowering::expr::Lowerer;
use crate::lowering::invar_monitor::transition_monitor;
use crate::lowering::program::{BinOp, Expr, SpecAtom, System, UnOp, Value};
use crate::lowering::spec::bare_label;
use crate::ltl::{Ltl, LtlOp};
use crate::semantics::checked::{TExpr, TKind};
use crate::source::Span;

/// The LTL formula of a spec body (at `span`) of `system`; monitors of atoms over inputs are
/// added to `system`.
pub(crate) fn to_ltl(l: &mut Lowerer, system: &mut System, t: &TExpr, span: Span) -> Ltl<SpecAtom> {
    if let Some(label) = bare_label(l, t) {
        return Ltl::Atom(SpecAtom::Label(label));
    }
    if !needs_split(l, t) {
        return atom(l, system, t, span);
    }
    let mut sub = |x: &TExpr| Box::new(to_ltl(l, system, x, span));
    match &t.kind {
        TKind::Ltl(op, args) => match args.as_slice() {
            [a] => Ltl::Unary(*op, sub(a)),
            [a, b] => {
                let a = sub(a);
                Ltl::Binary(*op, a, sub(b))
            }
            // The resolver builds LTL nodes with one or two operands only.
            _ => Ltl::False,
        },
        TKind::Unary(UnOp::Not, a) => Ltl::Not(sub(a)),
        TKind::Binary(op, a, b) => {
            let (a, b) = (sub(a), sub(b));
            match op {
                BinOp::And => Ltl::And(a, b),
                BinOp::Or => Ltl::Or(a, b),
                BinOp::Xor => Ltl::Xor(a, b),
                BinOp::Xnor => Ltl::Xnor(a, b),
                BinOp::Implies => Ltl::Implies(a, b),
                _ => Ltl::Iff(a, b),
            }
        }
        // needs_split only answers true for the shapes above.
        _ => atom(l, system, t, span),
    }
}

/// An atom: a state predicate, or `X monitor` for one that reads the step leaving the state.
fn atom(l: &mut Lowerer, system: &mut System, t: &TExpr, span: Span) -> Ltl<SpecAtom> {
    if let Some(monitor) = transition_monitor(l, system, t, span) {
        return Ltl::Unary(LtlOp::X, Box::new(Ltl::Atom(SpecAtom::State(monitor))));
    }
    match l.lower(t) {
        Expr::Const(Value::Bool(true)) => Ltl::True,
        Expr::Const(Value::Bool(false)) => Ltl::False,
        e => Ltl::Atom(SpecAtom::State(e)),
    }
}

/// Whether `t` must be split into LTL connectives: it contains an LTL operator below boolean
/// connectives only (the resolver rejects LTL operators under any other operator: they have
/// boolean operands and results, and the only boolean-to-boolean operators are the
/// connectives), or (in a procedure module) a label below a boolean connective.
fn needs_split(l: &Lowerer, t: &TExpr) -> bool {
    match &t.kind {
        TKind::Ltl(..) => true,
        TKind::Unary(UnOp::Not, a) => bare_label(l, a).is_some() || needs_split(l, a),
        TKind::Binary(BinOp::And | BinOp::Or | BinOp::Xor | BinOp::Xnor | BinOp::Implies | BinOp::Iff, a, b) => {
            bare_label(l, a).is_some() || bare_label(l, b).is_some() || needs_split(l, a) || needs_split(l, b)
        }
        _ => false,
    }
}
