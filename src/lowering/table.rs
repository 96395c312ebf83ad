//! `case` chains over one variable compiled to lookup tables (Finis 2012 §5.2): when every
//! condition is `x = c`, `c = x`, `x in {c1, …}` (or, for a boolean `x`, `x` / `!x`) for the same
//! variable `x`, optionally followed by `TRUE : e`, the `case` becomes an [`Expr::Table`] indexed by
//! the value index of `x`. The first branch matching a value wins (NuSMV's first-match
//! semantics); the `TRUE` branch becomes the fallback. Conditions mentioning `EXIT` are left as
//! a `case` (the table has no entry for `EXIT`).

use crate::lowering::fold::const_set;
use crate::lowering::program::{BinOp, Domain, Expr, UnOp, Value, Variable};
use crate::source::Span;

/// The variable and the values a condition tests for, if it has a table-able form.
fn test_of(cond: &Expr, vars: &[Variable]) -> Option<(u32, Vec<Value>)> {
    match cond {
        Expr::Binary(BinOp::Eq, a, b) => match (&**a, &**b) {
            (Expr::Var(x), Expr::Const(c)) | (Expr::Const(c), Expr::Var(x)) => Some((*x, vec![*c])),
            _ => None,
        },
        Expr::Binary(BinOp::In, a, b) => match &**a {
            Expr::Var(x) => Some((*x, const_set(b)?)),
            _ => None,
        },
        Expr::Var(x) if vars.get(*x as usize)?.domain == Domain::Boolean => Some((*x, vec![Value::Bool(true)])),
        Expr::Unary(UnOp::Not, a) => match &**a {
            Expr::Var(x) if vars.get(*x as usize)?.domain == Domain::Boolean => Some((*x, vec![Value::Bool(false)])),
            _ => None,
        },
        _ => None,
    }
}

/// Compiles folded `case` branches to a table, or gives them back unchanged.
pub fn compile(branches: Vec<(Expr, Expr)>, span: Span, vars: &[Variable]) -> Expr {
    let (conditional, fallback) = match branches.last() {
        Some((Expr::Const(Value::Bool(true)), _)) => (branches.len() - 1, true),
        _ => (branches.len(), false),
    };
    if conditional == 0 {
        return Expr::Case { branches, span };
    }
    let mut var = None;
    let mut tests = Vec::with_capacity(conditional);
    for (c, _) in &branches[..conditional] {
        let Some((x, values)) = test_of(c, vars) else { return Expr::Case { branches, span } };
        if var.is_some_and(|v| v != x) || values.contains(&Value::Exit) {
            return Expr::Case { branches, span };
        }
        var = Some(x);
        tests.push(values);
    }
    let Some(var) = var else { return Expr::Case { branches, span } };
    let domain = &vars[var as usize].domain;
    let mut entries: Vec<Option<Expr>> = vec![None; domain.len()];
    let mut branches = branches;
    let fallback = if fallback { branches.pop().map(|(_, v)| Box::new(v)) } else { None };
    for ((_, value), values) in branches.into_iter().zip(tests) {
        for v in values {
            if let Some(i) = domain.index_of(v)
                && entries[i].is_none() {
                    entries[i] = Some(value.clone());
                }
        }
    }
    Expr::Table { var, entries, fallback, span }
}
