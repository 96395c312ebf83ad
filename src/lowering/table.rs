//! `case` chains over one variable compiled to lookup tables (Finis 2012 §5.2): when every
//! condition is `x = c`, `c = x`, `x in {c1, …}` (or, for a boolean `x`, `x` / `!x`) for the same
//! variable `x`, optionally followed by `TRUE : e`, the `case` becomes an [`Expr::Table`] indexed by
//! the value index of `x`. The first branch matching a value wins (NuSMV's first-match
//! semantics); the `TRUE` branch becomes the fallback. Conditions mentioning `EXIT` are left as
//! a `case` (the table has no entry for `EXIT`).

use crate::lowering::fold::const_set;
use crate::lowering::program::{BinOp, Domain, Expr, UnOp, Value, Variable};
use crate::source::Span;
use rustc_hash::FxHashMap;

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
    let index: FxHashMap<Value, usize> = match domain {
        Domain::Enum(vs) => vs.iter().enumerate().map(|(i, v)| (*v, i)).collect(),
        _ => FxHashMap::default(),
    };
    let index_of = |v: Value| if index.is_empty() { domain.index_of(v) } else { index.get(&v).copied() };
    let mut entries: Vec<Option<Expr>> = vec![None; domain.len()];
    let mut branches = branches;
    let fallback = if fallback { branches.pop().map(|(_, v)| Box::new(v)) } else { None };
    for ((_, value), values) in branches.into_iter().zip(tests) {
        for v in values {
            if let Some(i) = index_of(v)
                && entries[i].is_none()
            {
                entries[i] = Some(value.clone());
            }
        }
    }
    Expr::Table { var, entries, fallback, span }
}

#[cfg(test)]
mod tests {
    //! A table must give, for every value of its variable, what first-match evaluation of the
    //! original `case` gives. A tiny evaluator over the `case`/table subset is the oracle.
    use super::*;
    use crate::syntax::ast::VarKind;
    use proptest::prelude::*;

    /// `Some(v)` for a value, `None` for "no branch holds".
    fn eval(e: &Expr, state: &[Value], vars: &[Variable]) -> Option<Value> {
        Some(match e {
            Expr::Const(v) => *v,
            Expr::Var(x) => state[*x as usize],
            Expr::Unary(UnOp::Not, a) => match eval(a, state, vars)? {
                Value::Bool(b) => Value::Bool(!b),
                v => v,
            },
            Expr::Binary(BinOp::Eq, a, b) => Value::Bool(eval(a, state, vars)? == eval(b, state, vars)?),
            Expr::Binary(BinOp::In, a, b) => Value::Bool(const_set(b).is_some_and(|s| eval(a, state, vars).is_some_and(|v| s.contains(&v)))),
            Expr::Case { branches, .. } => {
                let (_, v) = branches.iter().find(|(c, _)| eval(c, state, vars) == Some(Value::Bool(true)))?;
                eval(v, state, vars)?
            }
            Expr::Table { var, entries, fallback, .. } => {
                let i = vars[*var as usize].domain.index_of(state[*var as usize])?;
                match (&entries[i], fallback) {
                    (Some(e), _) => eval(e, state, vars)?,
                    (None, Some(f)) => eval(f, state, vars)?,
                    (None, None) => return None,
                }
            }
            _ => unreachable!("not generated: {e:?}"),
        })
    }

    fn variable(domain: Domain) -> Variable {
        Variable { name: "x".into(), domain, kind: VarKind::State, span: Span::default() }
    }

    fn domain_strategy() -> impl Strategy<Value = Domain> {
        prop_oneof![
            Just(Domain::Boolean),
            (-3i64..3, 0i64..6).prop_map(|(lo, n)| Domain::Range { lo, hi: lo + n }),
            (1u32..6).prop_map(|n| Domain::Enum((0..n).map(Value::Sym).collect())),
        ]
    }

    /// A condition over variable 0 (or, with `other`, over variable 1) testing some values.
    fn condition(domain: &Domain, picks: &[usize], form: u8, other: bool) -> Expr {
        let values: Vec<Value> = picks.iter().map(|&i| domain.value(i % domain.len())).collect();
        let x = Box::new(Expr::Var(other as u32));
        match (form % 4, domain) {
            (0, _) => Expr::Binary(BinOp::Eq, x, Box::new(Expr::Const(values[0]))),
            (1, _) => Expr::Binary(BinOp::Eq, Box::new(Expr::Const(values[0])), x),
            (2, Domain::Boolean) if values[0] == Value::Bool(true) => *x,
            (2, Domain::Boolean) => Expr::Unary(UnOp::Not, x),
            _ => Expr::Binary(BinOp::In, x, Box::new(Expr::Set(values.into_iter().map(Expr::Const).collect()))),
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 256, rng_seed: proptest::test_runner::RngSeed::Fixed(7), ..ProptestConfig::default() })]

        #[test]
        fn table_agrees_with_first_match_case(
            domain in domain_strategy(),
            raw in proptest::collection::vec((proptest::collection::vec(0usize..8, 1..4), any::<u8>(), -5i64..5), 1..8),
            with_default in any::<bool>(),
            foreign in proptest::option::of(0usize..8),
        ) {
            let vars = vec![variable(domain.clone()), variable(domain.clone())];
            let mut branches: Vec<(Expr, Expr)> = raw
                .iter()
                .enumerate()
                .map(|(k, (picks, form, result))| (condition(&domain, picks, *form, foreign == Some(k)), Expr::Const(Value::Int(*result))))
                .collect();
            if with_default {
                branches.push((Expr::Const(Value::Bool(true)), Expr::Const(Value::Int(99))));
            }
            let original = Expr::Case { branches: branches.clone(), span: Span::default() };
            let compiled = compile(branches, Span::default(), &vars);
            let mixed = foreign.is_some_and(|k| k < raw.len()) && raw.len() > 1;
            prop_assert_eq!(matches!(compiled, Expr::Table { .. }), !mixed, "table iff all conditions test one variable");
            for i in 0..domain.len() {
                for j in [0, domain.len() - 1] {
                    let state = [domain.value(i), domain.value(j)];
                    prop_assert_eq!(eval(&compiled, &state, &vars), eval(&original, &state, &vars));
                }
            }
        }
    }
}
