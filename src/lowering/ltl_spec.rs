//! `LTLSPEC` formulas as [`Ltl`] over [`SpecAtom`]s: every maximal subformula without an LTL
//! operator becomes one `SpecAtom::State` (`G (x = 1 -> F y)` has atoms `x = 1` and `y`), the
//! boolean connectives above LTL operators stay LTL connectives. Only flat models reach this
//! (LTLSPEC in procedure modules is warned about and dropped by the front end).

use crate::lowering::expr::Lowerer;
use crate::lowering::program::{BinOp, Expr, SpecAtom, UnOp, Value};
use crate::ltl::Ltl;
use crate::semantics::checked::{TExpr, TKind};

/// The LTL formula of a spec body.
pub fn to_ltl(l: &mut Lowerer, t: &TExpr) -> Ltl<SpecAtom> {
    if !has_ltl_operator(t) {
        return match l.lower(t) {
            Expr::Const(Value::Bool(true)) => Ltl::True,
            Expr::Const(Value::Bool(false)) => Ltl::False,
            e => Ltl::Atom(SpecAtom::State(e)),
        };
    }
    let mut sub = |x: &TExpr| Box::new(to_ltl(l, x));
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
        // has_ltl_operator only answers true for the shapes above.
        _ => Ltl::Atom(SpecAtom::State(l.lower(t))),
    }
}

/// Whether `t` contains an LTL operator below boolean connectives only (the resolver rejects
/// LTL operators under any other operator: they have boolean operands and results, and the
/// only boolean-to-boolean operators are the connectives).
fn has_ltl_operator(t: &TExpr) -> bool {
    match &t.kind {
        TKind::Ltl(..) => true,
        TKind::Unary(UnOp::Not, a) => has_ltl_operator(a),
        TKind::Binary(BinOp::And | BinOp::Or | BinOp::Xor | BinOp::Xnor | BinOp::Implies | BinOp::Iff, a, b) => has_ltl_operator(a) || has_ltl_operator(b),
        _ => false,
    }
}
