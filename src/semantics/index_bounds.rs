//! The integer values an array index may take, for the static bounds check of variable indices
//! (`a[x]` where `x : -1..2` and `a` has indices 0..2): NuSMV 2.5.4 rejects such an index with
//! "array access out of bounds" whether or not the bad value is reachable, and so does xmv-rs.
//!
//! [`int_bounds`] is a small interval analysis over resolved expressions: variables with integer
//! domains, integer constants, `next`, unary minus, `+ - *`, `mod` by a positive constant, and
//! `case` / `? :` (the union of their values). Anything else (DEFINEs, built-ins, words, `/`)
//! has unknown bounds, and then no static check is made: a bad value met in a reachable state is
//! reported by the state-space builder (the index becomes a `case` without a branch for it).

use crate::ir::{BinOp, Domain, UnOp, Value};
use crate::semantics::checked::{TExpr, TKind};
use crate::semantics::flattened::Flattened;

/// The least and greatest value `e` may take, when the analysis knows them.
pub(crate) fn int_bounds(flat: &Flattened, e: &TExpr) -> Option<(i64, i64)> {
    match &e.kind {
        TKind::Const(Value::Int(k)) => Some((*k, *k)),
        TKind::Var(v) => match &flat.vars.get(v.index())?.domain {
            Domain::Range { lo, hi } => Some((*lo, *hi)),
            Domain::Enum(values) => {
                let ints: Option<Vec<i64>> = values.iter().map(|v| if let Value::Int(k) = v { Some(*k) } else { None }).collect();
                let ints = ints?;
                Some((*ints.iter().min()?, *ints.iter().max()?))
            }
            _ => None,
        },
        TKind::Next(a) => int_bounds(flat, a),
        TKind::Unary(UnOp::Neg, a) => {
            let (lo, hi) = int_bounds(flat, a)?;
            Some((hi.checked_neg()?, lo.checked_neg()?))
        }
        TKind::Binary(op, a, b) => {
            let (al, ah) = int_bounds(flat, a)?;
            let (bl, bh) = int_bounds(flat, b)?;
            match op {
                BinOp::Add => Some((al.checked_add(bl)?, ah.checked_add(bh)?)),
                BinOp::Sub => Some((al.checked_sub(bh)?, ah.checked_sub(bl)?)),
                BinOp::Mul => {
                    let products = [al.checked_mul(bl)?, al.checked_mul(bh)?, ah.checked_mul(bl)?, ah.checked_mul(bh)?];
                    Some((*products.iter().min()?, *products.iter().max()?))
                }
                // C semantics: the result has the dividend's sign and is smaller than the divisor.
                BinOp::Mod if bl == bh && bl > 0 => {
                    let m = bl - 1;
                    Some((if al < 0 { -(m.min(al.saturating_neg())) } else { 0 }, if ah > 0 { m.min(ah) } else { 0 }))
                }
                _ => None,
            }
        }
        TKind::Ite(_, a, b) => union(int_bounds(flat, a)?, int_bounds(flat, b)?),
        TKind::Case(branches) => {
            let mut acc: Option<(i64, i64)> = None;
            for (_, v) in branches {
                let b = int_bounds(flat, v)?;
                acc = Some(match acc {
                    None => b,
                    Some(a) => union(a, b)?,
                });
            }
            acc
        }
        _ => None,
    }
}

fn union(a: (i64, i64), b: (i64, i64)) -> Option<(i64, i64)> {
    Some((a.0.min(b.0), a.1.max(b.1)))
}
