//! Evaluation of constant integer expressions on the AST, during flattening: range bounds
//! (`0..N-1`), array bounds and constant array indices. Names may be DEFINEs and parameters
//! whose values are constant; anything else is "not a constant".

use crate::diagnostics::Diagnostic;
use crate::ir::Value;
use crate::ir::ops;
use crate::semantics::flattened::{DefBody, Flattened, InstId, Member};
use crate::semantics::operators::arith_op;
use crate::syntax::ast::{Expr, ExprKind, UnaryOp};

const MAX_DEPTH: usize = 200;

fn not_constant(e: &Expr, why: &str) -> Diagnostic {
    Diagnostic::error("E0210", "expected a constant integer expression", e.span)
        .with_label_message(why.to_string())
        .with_help("bounds and indices must be integer constants, or DEFINEs/parameters with constant values")
}

/// Evaluates `e` in instance `inst` to an integer.
pub(crate) fn const_int(flat: &Flattened, inst: InstId, e: &Expr, depth: usize) -> Result<i64, Diagnostic> {
    if depth > MAX_DEPTH {
        return Err(not_constant(e, "too deeply nested"));
    }
    let d = depth + 1;
    match &e.kind {
        ExprKind::Int(i) => Ok(*i),
        ExprKind::Unary(UnaryOp::Neg, a) => {
            let a = const_int(flat, inst, a, d)?;
            a.checked_neg().ok_or_else(|| not_constant(e, "integer overflow"))
        }
        ExprKind::Binary(op, a, b) => {
            let op = arith_op(*op).ok_or_else(|| not_constant(e, "not an integer operation"))?;
            let (a, b) = (const_int(flat, inst, a, d)?, const_int(flat, inst, b, d)?);
            match ops::binary(op, Value::Int(a), Value::Int(b)) {
                Ok(Value::Int(v)) => Ok(v),
                Ok(_) => Err(not_constant(e, "not an integer")),
                Err(err) => Err(not_constant(e, &err.to_string())),
            }
        }
        ExprKind::Name(name) => {
            let Some(&(member, _)) = flat.instances[inst].members.get(name.as_str()) else {
                return Err(not_constant(e, "not a DEFINE or parameter"));
            };
            member_value(flat, inst, member, e, d)
        }
        _ => Err(not_constant(e, "not a constant")),
    }
}

fn member_value(flat: &Flattened, inst: InstId, member: Member, e: &Expr, depth: usize) -> Result<i64, Diagnostic> {
    match member {
        Member::Define(id) => match &flat.defines[id].body {
            DefBody::Ast(body) => const_int(flat, flat.defines[id].inst, body, depth),
            DefBody::Running(_) => Err(not_constant(e, "not constant")),
        },
        Member::Param(k) => {
            let i = &flat.instances[inst];
            match (i.parent, i.args.get(k)) {
                (Some(p), Some(actual)) => const_int(flat, p, actual, depth),
                _ => Err(not_constant(e, "parameter without a value")),
            }
        }
        _ => Err(not_constant(e, "a variable is not a constant")),
    }
}
