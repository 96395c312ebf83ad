//! Constant folding on lowered expressions: operators over constants are evaluated (with
//! [`super::ops`]), and boolean identities (`TRUE & e = e`, `FALSE -> e = TRUE`, `case` branches
//! with constant conditions, `c ? a : b` with constant `c`) are simplified. Parameters, CONSTANTS
//! and DEFINEs reach this stage already substituted, so their constant values fold too.

use crate::lowering::ops::{self, EvalError};
use crate::lowering::program::{BinOp, Builtin, Expr, UnOp, Value};
use rustc_hash::FxHashSet;

const TRUE: Expr = Expr::Const(Value::Bool(true));
const FALSE: Expr = Expr::Const(Value::Bool(false));

pub(crate) fn unary(op: UnOp, a: Expr) -> Result<Expr, EvalError> {
    Ok(match (op, a) {
        (op, Expr::Const(v)) => Expr::Const(ops::unary(op, v)?),
        (UnOp::Not, Expr::Unary(UnOp::Not, inner)) => *inner,
        (op, a) => Expr::Unary(op, Box::new(a)),
    })
}

pub(crate) fn binary(op: BinOp, a: Expr, b: Expr) -> Result<Expr, EvalError> {
    use BinOp::*;
    if let (Expr::Const(x), Expr::Const(y)) = (&a, &b)
        && op != In
    {
        return Ok(Expr::Const(ops::binary(op, *x, *y)?));
    }
    let is = |e: &Expr, v: bool| *e == Expr::Const(Value::Bool(v));
    Ok(match op {
        And if is(&a, false) || is(&b, false) => FALSE,
        And if is(&a, true) => b,
        And if is(&b, true) => a,
        Or if is(&a, true) || is(&b, true) => TRUE,
        Or if is(&a, false) => b,
        Or if is(&b, false) => a,
        Implies if is(&a, false) || is(&b, true) => TRUE,
        Implies if is(&a, true) => b,
        // The set's values are only needed for a constant left side (`pc in {…}` is not).
        In => match (&a, matches!(a, Expr::Const(_)).then(|| const_set(&b)).flatten()) {
            (Expr::Const(x), Some(set)) => Expr::Const(Value::Bool(set.contains(x))),
            _ => Expr::Binary(In, Box::new(a), Box::new(b)),
        },
        _ => Expr::Binary(op, Box::new(a), Box::new(b)),
    })
}

/// The values of a constant set expression (`{1, 2}`, `3`, `0..4`), if it is constant.
pub(crate) fn const_set(e: &Expr) -> Option<Vec<Value>> {
    match e {
        Expr::Const(v) => Some(vec![*v]),
        Expr::Set(xs) => {
            let mut out = vec![];
            for x in xs {
                out.extend(const_set(x)?);
            }
            Some(out)
        }
        Expr::Range(lo, hi) => match (&**lo, &**hi) {
            (Expr::Const(Value::Int(lo)), Expr::Const(Value::Int(hi))) if hi.checked_sub(*lo).is_some_and(|n| n < 1 << 16) => {
                Some((*lo..=*hi).map(Value::Int).collect())
            }
            _ => None,
        },
        _ => None,
    }
}

pub(crate) fn ite(c: Expr, a: Expr, b: Expr) -> Expr {
    match c {
        Expr::Const(Value::Bool(true)) => a,
        Expr::Const(Value::Bool(false)) => b,
        c => Expr::Ite(Box::new(c), Box::new(a), Box::new(b)),
    }
}

/// Drops branches whose condition is constant `FALSE` and everything after a constant `TRUE`
/// condition. `Ok(e)` if the first remaining branch is unconditional, else the branches.
pub(crate) fn case(branches: Vec<(Expr, Expr)>) -> Result<Expr, Vec<(Expr, Expr)>> {
    let mut out: Vec<(Expr, Expr)> = Vec::with_capacity(branches.len());
    for (c, v) in branches {
        match c {
            Expr::Const(Value::Bool(false)) => {}
            Expr::Const(Value::Bool(true)) => {
                if out.is_empty() {
                    return Ok(v);
                }
                out.push((TRUE, v));
                break;
            }
            c => out.push((c, v)),
        }
    }
    Err(out)
}

/// `{a, {b, c}}` → `{a, b, c}`, duplicate constants removed (linear time for constants).
pub(crate) fn set(xs: Vec<Expr>) -> Expr {
    let mut out: Vec<Expr> = Vec::with_capacity(xs.len());
    let mut consts: FxHashSet<Value> = FxHashSet::with_capacity_and_hasher(xs.len(), Default::default());
    let mut add = |x: Expr, out: &mut Vec<Expr>| {
        let fresh = match &x {
            Expr::Const(v) => consts.insert(*v),
            x => !out.contains(x),
        };
        if fresh {
            out.push(x);
        }
    };
    for x in xs {
        match x {
            Expr::Set(inner) => inner.into_iter().for_each(|y| add(y, &mut out)),
            x => add(x, &mut out),
        }
    }
    Expr::Set(out)
}

pub(crate) fn builtin(f: Builtin, args: Vec<Expr>) -> Result<Expr, EvalError> {
    let consts: Option<Vec<Value>> = args.iter().map(|a| if let Expr::Const(v) = a { Some(*v) } else { None }).collect();
    Ok(match consts {
        Some(vs) => Expr::Const(ops::builtin(f, &vs)?),
        None => Expr::Builtin(f, args),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::VarId;
    use Value::*;

    fn int(i: i64) -> Expr {
        Expr::Const(Int(i))
    }

    #[test]
    fn folds_arithmetic_and_logic() {
        let e = binary(BinOp::Add, int(2), int(3)).unwrap();
        assert_eq!(e, int(5));
        assert_eq!(binary(BinOp::And, Expr::Var(VarId::new(0)), TRUE).unwrap(), Expr::Var(VarId::new(0)));
        assert_eq!(binary(BinOp::And, Expr::Var(VarId::new(0)), FALSE).unwrap(), FALSE);
        assert_eq!(binary(BinOp::Implies, FALSE, Expr::Var(VarId::new(1))).unwrap(), TRUE);
        assert_eq!(binary(BinOp::In, int(3), Expr::Range(Box::new(int(0)), Box::new(int(5)))).unwrap(), TRUE);
        assert_eq!(binary(BinOp::Div, int(1), int(0)), Err(EvalError::DivisionByZero));
        assert_eq!(unary(UnOp::Not, unary(UnOp::Not, Expr::Var(VarId::new(2))).unwrap()).unwrap(), Expr::Var(VarId::new(2)));
    }

    #[test]
    fn folds_case_branches() {
        assert_eq!(case(vec![(FALSE, int(1)), (TRUE, int(2)), (Expr::Var(VarId::new(0)), int(3))]), Ok(int(2)));
        let r = case(vec![(Expr::Var(VarId::new(0)), int(1)), (TRUE, int(2)), (Expr::Var(VarId::new(1)), int(3))]);
        assert_eq!(r, Err(vec![(Expr::Var(VarId::new(0)), int(1)), (TRUE, int(2))]));
        assert_eq!(set(vec![int(1), Expr::Set(vec![int(1), int(2)])]), Expr::Set(vec![int(1), int(2)]));
    }
}
