//! Specifications as CTL formulas over [`SpecAtom`]s.
//!
//! Flat models: every maximal non-temporal subformula becomes one `SpecAtom::State(expr)`
//! (`AG (x = 1 -> AF y)` has atoms `x = 1` and `y`). Procedure modules: a DEFINE that is a
//! global label becomes `SpecAtom::Label` (labels are shared across modules), so boolean
//! connectives above a label stay CTL connectives; label-free subformulas are still one
//! `State` atom, evaluated in the spec's module.

use crate::ctl::{Bound, Ctl};
use crate::lowering::expr::Lowerer;
use crate::lowering::program::{BinOp, LabelId, SpecAtom, UnOp, Value};
use crate::semantics::checked::{TExpr, TKind};
use crate::syntax::ast::{CtlOp, TimeBound};

pub(crate) fn to_ctl(l: &mut Lowerer, t: &TExpr) -> Ctl<SpecAtom> {
    if let Some(label) = bare_label(l, t) {
        return Ctl::Atom(SpecAtom::Label(label));
    }
    if !needs_split(l, t) {
        return match l.lower(t) {
            crate::lowering::program::Expr::Const(Value::Bool(true)) => Ctl::True,
            crate::lowering::program::Expr::Const(Value::Bool(false)) => Ctl::False,
            e => Ctl::Atom(SpecAtom::State(e)),
        };
    }
    let mut sub = |x: &TExpr| Box::new(to_ctl(l, x));
    match &t.kind {
        TKind::Ctl(op, a) => {
            let a = sub(a);
            match op {
                CtlOp::EX => Ctl::EX(a),
                CtlOp::AX => Ctl::AX(a),
                CtlOp::EF => Ctl::EF(a),
                CtlOp::AF => Ctl::AF(a),
                CtlOp::EG => Ctl::EG(a),
                CtlOp::AG => Ctl::AG(a),
                CtlOp::EBF(k) => Ctl::EBF(a, checked(*k)),
                CtlOp::ABF(k) => Ctl::ABF(a, checked(*k)),
                CtlOp::EBG(k) => Ctl::EBG(a, checked(*k)),
                CtlOp::ABG(k) => Ctl::ABG(a, checked(*k)),
            }
        }
        TKind::Until { universal, lhs, rhs, bound } => {
            let (a, b) = (sub(lhs), sub(rhs));
            match (bound, universal) {
                (None, true) => Ctl::AU(a, b),
                (None, false) => Ctl::EU(a, b),
                (Some(k), true) => Ctl::ABU(a, b, checked(*k)),
                (Some(k), false) => Ctl::EBU(a, b, checked(*k)),
            }
        }
        TKind::Unary(UnOp::Not, a) => Ctl::Not(sub(a)),
        TKind::Binary(op, a, b) => {
            let (a, b) = (sub(a), sub(b));
            match op {
                BinOp::And => Ctl::And(a, b),
                BinOp::Or => Ctl::Or(a, b),
                BinOp::Xor => Ctl::Xor(a, b),
                BinOp::Xnor => Ctl::Xnor(a, b),
                BinOp::Implies => Ctl::Implies(a, b),
                _ => Ctl::Iff(a, b),
            }
        }
        // needs_split only answers true for the shapes above.
        _ => Ctl::Atom(SpecAtom::State(l.lower(t))),
    }
}

/// An RTCTL bound the resolver accepted (it reports every other one, E0222).
fn checked(b: TimeBound) -> Bound {
    Bound::new(b.lo, b.hi).expect("the resolver rejects RTCTL bounds outside 0 <= lo <= hi <= MAX_TIME_BOUND (E0222)")
}

/// The label of a bare DEFINE name in a procedure module.
pub(crate) fn bare_label(l: &Lowerer, t: &TExpr) -> Option<LabelId> {
    match &t.kind {
        TKind::Define(d) if l.sys.is_procedure => l.sys.defines[*d].label,
        TKind::ForeignLabel(name) => l.labels.iter().position(|x| x == name).map(LabelId::new),
        _ => None,
    }
}

/// Whether `t` must be split into CTL connectives: it contains a temporal operator, or (in a
/// procedure module) a label below a boolean connective.
fn needs_split(l: &Lowerer, t: &TExpr) -> bool {
    match &t.kind {
        TKind::Ctl(..) | TKind::Until { .. } => true,
        TKind::Unary(UnOp::Not, a) => bare_label(l, a).is_some() || needs_split(l, a),
        TKind::Binary(BinOp::And | BinOp::Or | BinOp::Xor | BinOp::Xnor | BinOp::Implies | BinOp::Iff, a, b) => {
            bare_label(l, a).is_some() || bare_label(l, b).is_some() || needs_split(l, a) || needs_split(l, b)
        }
        _ => false,
    }
}
