//! `case` chains over one variable compiled to lookup tables (Finis 2012 §5.2): when every
//! condition is `x = c`, `c = x`, `x in {c1, …}` (or, for a boolean `x`, `x` / `!x`) for the same
//! variable `x`, optionally followed by `TRUE : e`, the `case` becomes an [`Expr::Table`] indexed by
//! the value index of `x`. The first branch matching a value wins (NuSMV's first-match
//! semantics); the `TRUE` branch becomes the fallback. A test may also be one conjunct of a
//! condition (`pc = c & EXITED = done`): the entry for that value is then the smaller `case` of
//! the remaining conditions. Conditions mentioning `EXIT` are left as a `case` (the table has no
//! entry for `EXIT`).

use crate::lowering::fold::const_set;
use crate::lowering::program::{BinOp, Domain, Expr, UnOp, Value, VarId, Variable};
use crate::source::Span;
use rustc_hash::FxHashMap;

/// The variable and the values a condition tests for, if it has a table-able form.
fn test_of(cond: &Expr, vars: &[Variable]) -> Option<(VarId, Vec<Value>)> {
    match cond {
        Expr::Binary(BinOp::Eq, a, b) => match (&**a, &**b) {
            (Expr::Var(x), Expr::Const(c)) | (Expr::Const(c), Expr::Var(x)) => Some((*x, vec![*c])),
            _ => None,
        },
        Expr::Binary(BinOp::In, a, b) => match &**a {
            Expr::Var(x) => Some((*x, const_set(b)?)),
            _ => None,
        },
        Expr::Var(x) if vars.get(x.index())?.domain == Domain::Boolean => Some((*x, vec![Value::Bool(true)])),
        Expr::Unary(UnOp::Not, a) => match &**a {
            Expr::Var(x) if vars.get(x.index())?.domain == Domain::Boolean => Some((*x, vec![Value::Bool(false)])),
            _ => None,
        },
        _ => None,
    }
}

/// A condition split into a test of one variable and the rest: `x = c & rest` (the test may be
/// anywhere in a left-nested chain of `&`). `rest` is `None` when the test is the whole condition.
fn split_test(cond: &Expr, vars: &[Variable]) -> Option<(VarId, Vec<Value>, Option<Expr>)> {
    if let Some((x, values)) = test_of(cond, vars) {
        return Some((x, values, None));
    }
    let Expr::Binary(BinOp::And, a, b) = cond else { return None };
    let and = |l: Option<Expr>, r: &Expr| match l {
        Some(l) => Expr::Binary(BinOp::And, Box::new(l), Box::new(r.clone())),
        None => r.clone(),
    };
    if let Some((x, values, rest)) = split_test(a, vars) {
        return Some((x, values, Some(and(rest, b))));
    }
    let (x, values, rest) = split_test(b, vars)?;
    let rest = match rest {
        Some(r) => Expr::Binary(BinOp::And, a.clone(), Box::new(r)),
        None => (**a).clone(),
    };
    Some((x, values, Some(rest)))
}

/// A range or narrow word domain wider than [`crate::ir::MAX_TABLE_DOMAIN`] gets a table when the `case`
/// tests at least one value in this many.
const MIN_DENSITY: usize = 8;

/// Whether a table over `domain` (one entry per value) is linear in the size of the model: any
/// domain of at most [`crate::ir::MAX_TABLE_DOMAIN`] values; an enumeration of any size (its values are
/// written in the model); a wider range or narrow word when the `case` tests (`tested` values) at
/// least one value in [`MIN_DENSITY`]. Without a table, each evaluation walks the branches, so a
/// `case` with a branch per value of a variable costs O(values) per state and O(states × values)
/// for the whole state space: the 100,000-location control-flow models of
/// `tools/gen_cfg_model` took half a minute instead of a fraction of a second.
fn affordable(domain: &Domain, tested: usize) -> bool {
    match domain {
        _ if domain.table_len().is_some() => true,
        Domain::Enum(_) => true,
        Domain::Range { .. } | Domain::Word { wide: None, .. } => domain.len() / MIN_DENSITY <= tested,
        Domain::Boolean | Domain::Word { wide: Some(_), .. } => false,
    }
}

/// Compiles folded `case` branches to a table, or gives them back unchanged.
///
/// Every branch but a final `TRUE` one must test the same variable `x`, possibly in a conjunction
/// (`x = c & rest`). The entry for a value `v` of `x` is then the first branch admitting `v`
/// whose rest is absent, preceded by the branches admitting `v` whose rest must still be checked
/// (a smaller `case`, compiled again), followed by the `TRUE` branch. Values no branch admits
/// have no entry and use the fallback.
pub(crate) fn compile(branches: Vec<(Expr, Expr)>, span: Span, vars: &[Variable]) -> Expr {
    let (conditional, has_default) = match branches.last() {
        Some((Expr::Const(Value::Bool(true)), _)) => (branches.len() - 1, true),
        _ => (branches.len(), false),
    };
    if conditional == 0 {
        return Expr::Case { branches, span };
    }
    let mut var = None;
    let mut tests = Vec::with_capacity(conditional);
    for (c, _) in &branches[..conditional] {
        let Some((x, values, rest)) = split_test(c, vars) else { return Expr::Case { branches, span } };
        if var.is_some_and(|v| v != x) || values.contains(&Value::Exit) {
            return Expr::Case { branches, span };
        }
        var = Some(x);
        tests.push((values, rest));
    }
    let Some(var) = var else { return Expr::Case { branches, span } };
    let domain = &vars[var.index()].domain;
    if !affordable(domain, tests.iter().map(|(values, _)| values.len()).sum()) {
        return Expr::Case { branches, span };
    }
    let index: FxHashMap<Value, usize> = match domain {
        Domain::Enum(vs) => vs.iter().enumerate().map(|(i, v)| (*v, i)).collect(),
        _ => FxHashMap::default(),
    };
    let index_of = |v: Value| if index.is_empty() { domain.index_of(v) } else { index.get(&v).copied() };
    let mut branches = branches;
    let fallback = if has_default { branches.pop().map(|(_, v)| v) } else { None };
    // Per value: the branches admitting it, in order, up to the first unconditional one.
    let mut chains: Vec<Vec<(Expr, Expr)>> = vec![vec![]; domain.len()];
    let mut closed = vec![false; domain.len()];
    for ((_, value), (values, rest)) in branches.into_iter().zip(tests) {
        for v in values {
            let Some(i) = index_of(v) else { continue };
            if closed[i] {
                continue;
            }
            let cond = rest.clone().unwrap_or(Expr::Const(Value::Bool(true)));
            closed[i] = rest.is_none();
            chains[i].push((cond, value.clone()));
        }
    }
    let entries = chains
        .into_iter()
        .zip(closed)
        .map(|(mut chain, closed)| match chain.len() {
            0 => None,
            1 if closed => chain.pop().map(|(_, v)| v),
            _ => {
                if !closed && let Some(f) = &fallback {
                    chain.push((Expr::Const(Value::Bool(true)), f.clone()));
                }
                Some(compile(chain, span, vars))
            }
        })
        .collect();
    Expr::Table { var, entries, fallback: fallback.map(Box::new), span }
}

#[cfg(test)]
mod tests {
    //! A table must give, for every value of its variable, what first-match evaluation of the
    //! original `case` gives. A tiny evaluator over the `case`/table subset is the oracle.
    use super::*;
    use crate::ir::SymId;
    use crate::ir::VarKind;
    use proptest::prelude::*;

    /// `Some(v)` for a value, `None` for "no branch holds".
    fn eval(e: &Expr, state: &[Value], vars: &[Variable]) -> Option<Value> {
        Some(match e {
            Expr::Const(v) => *v,
            Expr::Var(x) => state[x.index()],
            Expr::Unary(UnOp::Not, a) => match eval(a, state, vars)? {
                Value::Bool(b) => Value::Bool(!b),
                v => v,
            },
            Expr::Binary(BinOp::Eq, a, b) => Value::Bool(eval(a, state, vars)? == eval(b, state, vars)?),
            Expr::Binary(BinOp::And, a, b) => Value::Bool(eval(a, state, vars)? == Value::Bool(true) && eval(b, state, vars)? == Value::Bool(true)),
            Expr::Binary(BinOp::In, a, b) => Value::Bool(const_set(b).is_some_and(|s| eval(a, state, vars).is_some_and(|v| s.contains(&v)))),
            Expr::Case { branches, .. } => {
                let (_, v) = branches.iter().find(|(c, _)| eval(c, state, vars) == Some(Value::Bool(true)))?;
                eval(v, state, vars)?
            }
            Expr::Table { var, entries, fallback, .. } => {
                let i = vars[var.index()].domain.index_of(state[var.index()])?;
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
            (1u32..6).prop_map(|n| Domain::Enum((0..n).map(|i| Value::Sym(SymId::from_u32(i))).collect())),
        ]
    }

    /// A condition over variable 0 (or, with `other`, over variable 1) testing some values.
    fn condition(domain: &Domain, picks: &[usize], form: u8, other: bool) -> Expr {
        let values: Vec<Value> = picks.iter().map(|&i| domain.value(i % domain.len())).collect();
        let x = Box::new(Expr::Var(VarId::new(usize::from(other))));
        match (form % 4, domain) {
            (0, _) => Expr::Binary(BinOp::Eq, x, Box::new(Expr::Const(values[0]))),
            (1, _) => Expr::Binary(BinOp::Eq, Box::new(Expr::Const(values[0])), x),
            (2, Domain::Boolean) if values[0] == Value::Bool(true) => *x,
            (2, Domain::Boolean) => Expr::Unary(UnOp::Not, x),
            _ => Expr::Binary(BinOp::In, x, Box::new(Expr::Set(values.into_iter().map(Expr::Const).collect()))),
        }
    }

    /// `x = c : e` branches for the values `picks` of `domain` (entry `i` gives `Int(i)`).
    fn chain(domain: &Domain, picks: impl Iterator<Item = usize>) -> Vec<(Expr, Expr)> {
        picks.map(|i| (condition(domain, &[i], 0, false), Expr::Const(Value::Int(i as i64)))).collect()
    }

    /// Regression: a `case` with a branch per value of a 100,000-value enumeration (the control
    /// flow of `tools/gen_cfg_model --states 100000`) stayed a `case`, walked branch by branch in
    /// every state: O(states²), half a minute of CPU at 65,537 locations. It is a table now, with
    /// one entry per value, each the branch's value.
    #[test]
    fn enumerations_wider_than_the_table_limit_get_tables() {
        let n = crate::ir::MAX_TABLE_DOMAIN + 34_464;
        let domain = Domain::Enum((0..n as u32).map(|s| Value::Sym(crate::ir::SymId::from_u32(s))).collect());
        let vars = [variable(domain.clone())];
        let Expr::Table { entries, fallback, .. } = compile(chain(&domain, 0..n), Span::default(), &vars) else { panic!("no table over {n} values") };
        assert!(fallback.is_none());
        assert_eq!(entries.len(), n);
        assert!(entries.iter().enumerate().all(|(i, e)| e == &Some(Expr::Const(Value::Int(i as i64)))));
        // A few branches over the same wide enumeration: still linear in the model (its values are written out).
        assert!(matches!(compile(chain(&domain, [3, 5].into_iter()), Span::default(), &vars), Expr::Table { .. }));
    }

    /// Ranges (and narrow words) wider than the limit get a table only when the `case` tests at
    /// least one value in `MIN_DENSITY`: `x : 0..999999` with two branches stays a `case`.
    #[test]
    fn wide_ranges_get_tables_only_when_densely_tested() {
        let n = 1_000_000usize;
        let domain = Domain::Range { lo: 0, hi: n as i64 - 1 };
        let vars = [variable(domain.clone())];
        let dense = compile(chain(&domain, 0..n / MIN_DENSITY), Span::default(), &vars);
        assert!(matches!(&dense, Expr::Table { entries, .. } if entries.len() == n));
        let sparse = compile(chain(&domain, 0..n / MIN_DENSITY - 1), Span::default(), &vars);
        assert!(matches!(sparse, Expr::Case { .. }));
        let word = Domain::Word { width: 20, signed: false, wide: None };
        let vars = [variable(word.clone())];
        assert!(matches!(compile(chain(&word, 0..word.len() / 2), Span::default(), &vars), Expr::Table { .. }));
        assert!(matches!(compile(chain(&word, 0..2), Span::default(), &vars), Expr::Case { .. }));
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 256, rng_seed: proptest::test_runner::RngSeed::Fixed(7), ..ProptestConfig::default() })]

        #[test]
        fn table_agrees_with_first_match_case(
            domain in domain_strategy(),
            raw in proptest::collection::vec((proptest::collection::vec(0usize..8, 1..4), any::<u8>(), -5i64..5, proptest::option::of((0usize..8, any::<bool>()))), 1..8),
            with_default in any::<bool>(),
            foreign in proptest::option::of(0usize..8),
        ) {
            let vars = vec![variable(domain.clone()), variable(domain.clone())];
            let mut branches: Vec<(Expr, Expr)> = raw
                .iter()
                .enumerate()
                .map(|(k, (picks, form, result, rest))| {
                    let test = condition(&domain, picks, *form, foreign == Some(k));
                    // Optionally a conjunct over the other variable, before or after the test.
                    let cond = match rest {
                        Some((pick, before)) => {
                            let other = Box::new(condition(&domain, &[*pick], 0, foreign != Some(k)));
                            if *before { Expr::Binary(BinOp::And, other, Box::new(test)) } else { Expr::Binary(BinOp::And, Box::new(test), other) }
                        }
                        None => test,
                    };
                    (cond, Expr::Const(Value::Int(*result)))
                })
                .collect();
            if with_default {
                branches.push((Expr::Const(Value::Bool(true)), Expr::Const(Value::Int(99))));
            }
            let original = Expr::Case { branches: branches.clone(), span: Span::default() };
            let compiled = compile(branches, Span::default(), &vars);
            let mixed = foreign.is_some_and(|k| k < raw.len()) && raw.len() > 1;
            if !mixed && raw.iter().all(|r| r.3.is_none()) {
                prop_assert!(matches!(compiled, Expr::Table { .. }), "plain tests over one variable give a table");
            }
            for i in 0..domain.len() {
                for j in 0..domain.len() {
                    let state = [domain.value(i), domain.value(j)];
                    prop_assert_eq!(eval(&compiled, &state, &vars), eval(&original, &state, &vars));
                }
            }
        }
    }
}
