//! Cardinality constraints over boolean terms: `count(b₁, …, bₙ)` as BDDs.
//!
//! `count` is the number of its (boolean) arguments that are true. Its BDDs are built by the
//! standard dynamic programme over the terms, one `ite` per (term, threshold): with
//! `le[j]` = "at most `j` of the terms seen so far are true", adding a term `b` gives
//! `le'[j] = ite(b, le[j-1], le[j])` (`le[-1]` = false, all `le[j]` true before the first term).
//! The BDDs are symmetric functions of the terms, of `O(n·k)` nodes over the terms for the
//! thresholds up to `k`, so nothing is enumerated.
//!
//! A comparison of a count with an integer constant (`count(…) = k`, `!=`, `<`, `<=`, `>`,
//! `>=`, either side) needs only the thresholds up to `k`: this is what makes pyboolnet's
//! asynchronous models cheap, whose `TRANS` says `count(next(x) != x, …) = 1` and whose
//! steady-state condition is `count(x_IMAGE != x, …) = 0` over 20 to 100 genes (the full
//! distribution of 28 terms computed to compare it with 0 took 4.5 s; the threshold 0 alone is
//! a conjunction). Elsewhere (`count` in arithmetic) the whole distribution is built, as
//! `(value, guard)` pairs with disjoint guards, by the same programme.
//!
//! Assumes the terms are already BDDs of booleans (the evaluator reports non-boolean
//! arguments as evaluation errors before they get here).

use super::encoding::Encoding;
use super::{Bdd, SymResult};
use crate::lowering::program::{BinOp, Builtin, Expr, Value};
use oxidd::BooleanFunction;

/// `le[j]` for `j` in `0..=max`: where at most `j` of `terms` are true.
fn at_most(enc: &Encoding, terms: &[Bdd], max: usize) -> SymResult<Vec<Bdd>> {
    let mut le = vec![enc.t(); max + 1];
    for b in terms {
        // Downwards, so that `le[j - 1]` is still the old one when `le[j]` is replaced.
        for j in (0..=max).rev() {
            let below = if j == 0 { enc.f() } else { le[j - 1].clone() };
            le[j] = b.ite(&below, &le[j])?;
        }
    }
    Ok(le)
}

/// The distribution of `count(terms)`: `(k, exactly k terms true)` for every `k` that can
/// happen, guards disjoint and covering.
pub(crate) fn distribution(enc: &Encoding, terms: &[Bdd]) -> SymResult<Vec<(Value, Bdd)>> {
    // exact[k] after a term b: ite(b, exact[k - 1], exact[k]).
    let mut exact = vec![enc.t()];
    for b in terms {
        exact.push(enc.f());
        for k in (0..exact.len()).rev() {
            let below = if k == 0 { enc.f() } else { exact[k - 1].clone() };
            exact[k] = b.ite(&below, &exact[k])?;
        }
    }
    Ok(exact.into_iter().enumerate().filter(|(_, g)| g.satisfiable()).map(|(k, g)| (Value::Int(k as i64), g)).collect())
}

/// The arguments of a `count` (through shared DEFINE bodies).
pub(crate) fn count_args(e: &Expr) -> Option<&[Expr]> {
    match e {
        Expr::Shared(inner) => count_args(inner),
        Expr::Builtin(Builtin::Count, args) => Some(args),
        _ => None,
    }
}

/// An integer literal (through shared DEFINE bodies).
fn int_const(e: &Expr) -> Option<i64> {
    match e {
        Expr::Shared(inner) => int_const(inner),
        Expr::Const(Value::Int(i)) => Some(*i),
        _ => None,
    }
}

/// The comparison operators.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Cmp {
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
}

/// A comparison of a `count` with a constant, normalised to `count OP k`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Threshold {
    pub op: Cmp,
    pub k: i64,
}

/// `a OP b` as `count(args) OP' k` when one side is a `count` and the other an integer literal.
pub(crate) fn recognise<'e>(op: BinOp, a: &'e Expr, b: &'e Expr) -> Option<(&'e [Expr], Threshold)> {
    let (op, mirrored) = match op {
        BinOp::Eq => (Cmp::Eq, Cmp::Eq),
        BinOp::Ne => (Cmp::Ne, Cmp::Ne),
        BinOp::Lt => (Cmp::Lt, Cmp::Gt),
        BinOp::Le => (Cmp::Le, Cmp::Ge),
        BinOp::Gt => (Cmp::Gt, Cmp::Lt),
        BinOp::Ge => (Cmp::Ge, Cmp::Le),
        _ => return None,
    };
    if let (Some(args), Some(k)) = (count_args(a), int_const(b)) {
        return Some((args, Threshold { op, k }));
    }
    if let (Some(k), Some(args)) = (int_const(a), count_args(b)) {
        return Some((args, Threshold { op: mirrored, k }));
    }
    None
}

/// Where `count(terms) OP k` holds, building only the thresholds up to `k`.
pub(crate) fn compare(enc: &Encoding, terms: &[Bdd], t: Threshold) -> SymResult<Bdd> {
    let n = terms.len() as i64;
    // count ≤ j, for any integer j.
    let le = |j: i64| -> SymResult<Bdd> {
        if j < 0 {
            return Ok(enc.f());
        }
        if j >= n {
            return Ok(enc.t());
        }
        Ok(at_most(enc, terms, j as usize)?.pop().unwrap_or_else(|| enc.t()))
    };
    let k = t.k;
    Ok(match t.op {
        Cmp::Le => le(k)?,
        Cmp::Lt => le(k.saturating_sub(1))?,
        Cmp::Gt => le(k)?.not()?,
        Cmp::Ge => le(k.saturating_sub(1))?.not()?,
        Cmp::Eq | Cmp::Ne => {
            let eq = if k < 0 || k > n {
                enc.f()
            } else {
                // Both thresholds from one run of the programme.
                let le = at_most(enc, terms, (k as usize).min(terms.len()))?;
                let upto = &le[k as usize];
                if k == 0 { upto.clone() } else { upto.and(&le[k as usize - 1].not()?)? }
            };
            if t.op == Cmp::Ne { eq.not()? } else { eq }
        }
    })
}
