//! The meaning of SMV operators on single values: shared by constant folding and by anyone
//! evaluating a `lowering::program::Expr` (the state-space builder may reuse it).
//!
//! Integer arithmetic is checked (overflow is an error, not a wrap); `/` truncates toward zero
//! and `mod` is C's `%` (NuSMV ≥ 2.4); division by zero is an error.

use crate::ir::words::{self, WordError};
use crate::ir::{BinOp, Builtin, UnOp, Value};
use std::fmt;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum EvalError {
    DivisionByZero,
    Overflow,
    /// Operand values of the wrong kind (a typing bug or `EXIT` where a number was needed).
    BadOperand,
    /// A word shifted by less than 0 or more than its width.
    ShiftOutOfRange,
}

impl From<WordError> for EvalError {
    fn from(e: WordError) -> EvalError {
        match e {
            WordError::DivisionByZero => EvalError::DivisionByZero,
            WordError::ShiftOutOfRange => EvalError::ShiftOutOfRange,
            WordError::Overflow => EvalError::Overflow,
            WordError::BadOperand => EvalError::BadOperand,
        }
    }
}

impl fmt::Display for EvalError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            EvalError::DivisionByZero => "division by zero",
            EvalError::Overflow => "integer overflow",
            EvalError::BadOperand => "operand of the wrong type",
            EvalError::ShiftOutOfRange => "shift amount outside 0..width",
        })
    }
}

pub(crate) fn unary(op: UnOp, a: Value) -> Result<Value, EvalError> {
    match (op, a) {
        (_, Value::Word { .. }) => Ok(words::unary(op, a)?),
        (UnOp::Not, Value::Bool(b)) => Ok(Value::Bool(!b)),
        (UnOp::Neg, Value::Int(i)) => i.checked_neg().map(Value::Int).ok_or(EvalError::Overflow),
        _ => Err(EvalError::BadOperand),
    }
}

/// A binary operator on two single values (`In` is not handled here: it needs sets).
pub(crate) fn binary(op: BinOp, a: Value, b: Value) -> Result<Value, EvalError> {
    use BinOp::*;
    use Value::{Bool, Int};
    if matches!(a, Value::Word { .. }) {
        return Ok(words::binary(op, a, b)?);
    }
    Ok(match (op, a, b) {
        (Eq, a, b) => Bool(a == b),
        (Ne, a, b) => Bool(a != b),
        (And, Bool(x), Bool(y)) => Bool(x && y),
        (Or, Bool(x), Bool(y)) => Bool(x || y),
        (Xor, Bool(x), Bool(y)) => Bool(x != y),
        (Xnor | Iff, Bool(x), Bool(y)) => Bool(x == y),
        (Implies, Bool(x), Bool(y)) => Bool(!x || y),
        (Lt, Int(x), Int(y)) => Bool(x < y),
        (Le, Int(x), Int(y)) => Bool(x <= y),
        (Gt, Int(x), Int(y)) => Bool(x > y),
        (Ge, Int(x), Int(y)) => Bool(x >= y),
        (Add, Int(x), Int(y)) => Int(x.checked_add(y).ok_or(EvalError::Overflow)?),
        (Sub, Int(x), Int(y)) => Int(x.checked_sub(y).ok_or(EvalError::Overflow)?),
        (Mul, Int(x), Int(y)) => Int(x.checked_mul(y).ok_or(EvalError::Overflow)?),
        (Div | Mod, Int(_), Int(0)) => return Err(EvalError::DivisionByZero),
        (Div, Int(x), Int(y)) => Int(x.checked_div(y).ok_or(EvalError::Overflow)?),
        (Mod, Int(x), Int(y)) => Int(x.checked_rem(y).ok_or(EvalError::Overflow)?),
        (Shl, Int(x), Int(y)) => {
            let s = u32::try_from(y).map_err(|_| EvalError::Overflow)?;
            Int(x.checked_shl(s).filter(|r| r >> s == x).ok_or(EvalError::Overflow)?)
        }
        (Shr, Int(x), Int(y)) => Int(x >> u32::try_from(y).map_err(|_| EvalError::Overflow)?.min(63)),
        _ => return Err(EvalError::BadOperand),
    })
}

/// A built-in function on single values.
pub(crate) fn builtin(f: Builtin, args: &[Value]) -> Result<Value, EvalError> {
    use Value::{Bool, Int};
    if matches!(f, Builtin::Word1) || matches!(args, [Value::Word { .. }]) {
        return Ok(words::builtin(f, args)?);
    }
    Ok(match (f, args) {
        (Builtin::Abs, [Int(x)]) => Int(x.checked_abs().ok_or(EvalError::Overflow)?),
        (Builtin::Min, [Int(x), Int(y)]) => Int(*x.min(y)),
        (Builtin::Max, [Int(x), Int(y)]) => Int(*x.max(y)),
        (Builtin::ToInt, [Bool(b)]) => Int(*b as i64),
        (Builtin::ToInt, [Int(x)]) => Int(*x),
        (Builtin::Bool, [Int(x)]) => Bool(*x != 0),
        (Builtin::Bool, [Bool(b)]) => Bool(*b),
        (Builtin::Count, xs) => {
            let mut n = 0;
            for x in xs {
                match x {
                    Bool(b) => n += *b as i64,
                    _ => return Err(EvalError::BadOperand),
                }
            }
            Int(n)
        }
        _ => return Err(EvalError::BadOperand),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::SymId;
    use Value::*;

    #[test]
    fn c_division_semantics() {
        assert_eq!(binary(BinOp::Mod, Int(-7), Int(5)), Ok(Int(-2)));
        assert_eq!(binary(BinOp::Mod, Int(7), Int(-5)), Ok(Int(2)));
        assert_eq!(binary(BinOp::Div, Int(-7), Int(2)), Ok(Int(-3)));
        assert_eq!(binary(BinOp::Div, Int(1), Int(0)), Err(EvalError::DivisionByZero));
        assert_eq!(binary(BinOp::Add, Int(i64::MAX), Int(1)), Err(EvalError::Overflow));
    }

    #[test]
    fn logic_and_builtins() {
        assert_eq!(binary(BinOp::Implies, Bool(false), Bool(false)), Ok(Bool(true)));
        assert_eq!(binary(BinOp::Eq, Sym(SymId::new(1)), Sym(SymId::new(1))), Ok(Bool(true)));
        assert_eq!(builtin(Builtin::Count, &[Bool(true), Bool(false), Bool(true)]), Ok(Int(2)));
        assert_eq!(builtin(Builtin::ToInt, &[Bool(true)]), Ok(Int(1)));
        assert_eq!(binary(BinOp::Shl, Int(1), Int(3)), Ok(Int(8)));
    }
}
