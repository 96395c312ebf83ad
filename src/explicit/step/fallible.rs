//! Static check that evaluating an expression cannot fail, for the constraint solver of
//! [`super::solve`].
//!
//! The solver restricts the candidate vectors a plan enumerates. That is invisible as long as no
//! evaluation the plan performs before a restricting constraint could raise an error (a `case`
//! without a true branch, division by zero, overflow, a value out of a variable's range, a set
//! where one value is needed). This module answers, conservatively, "can this never fail?": a
//! `false` answer only means the solver leaves that part to plain enumeration.
//!
//! Assumes the expression was type checked by the front end only as far as it says so itself: an
//! operand whose type it cannot establish makes the answer `false`. Variables are read through
//! their declared domains (values outside the domain never occur in a state vector).

use crate::lowering::program::{BinOp, Builtin, Domain, Expr, System, UnOp, Value, VarId};

/// What a single-valued (or set-valued) expression that cannot fail may evaluate to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Ty {
    Bool,
    /// Integers within these bounds.
    Int(i64, i64),
    /// Anything else (symbols, mixed enumerations): fine for `=`, `!=`, `in`, never arithmetic.
    Other,
}

fn join(a: Ty, b: Ty) -> Ty {
    match (a, b) {
        (Ty::Bool, Ty::Bool) => Ty::Bool,
        (Ty::Int(a, b), Ty::Int(c, d)) => Ty::Int(a.min(c), b.max(d)),
        _ => Ty::Other,
    }
}

fn domain_ty(domain: &Domain) -> Ty {
    match domain {
        Domain::Boolean => Ty::Bool,
        Domain::Range { lo, hi } => Ty::Int(*lo, *hi),
        Domain::Enum(values) => {
            let mut ty: Option<Ty> = None;
            for v in values {
                let t = const_ty(*v);
                ty = Some(ty.map_or(t, |x| join(x, t)));
            }
            ty.unwrap_or(Ty::Other)
        }
        // Words compare with `=`/`!=`/`in` without failing; their arithmetic is left to enumeration.
        Domain::Word { .. } => Ty::Other,
    }
}

fn const_ty(v: Value) -> Ty {
    match v {
        Value::Bool(_) => Ty::Bool,
        Value::Int(i) => Ty::Int(i, i),
        _ => Ty::Other,
    }
}

/// Largest constant range `lo..hi` accepted as a set (the evaluator's own limit is 2^20).
const MAX_RANGE: i64 = 1 << 16;

/// Conservative "cannot fail" analysis over one system's variables.
pub(super) struct Fallible<'s> {
    pub system: &'s System,
}

impl<'s> Fallible<'s> {
    fn var_ty(&self, v: VarId) -> Option<Ty> {
        self.system.vars.get(v.index()).map(|x| domain_ty(&x.domain))
    }

    /// A boolean condition that cannot fail.
    pub(super) fn boolean(&self, e: &Expr) -> bool {
        self.scalar(e) == Some(Ty::Bool)
    }

    /// The type of a single-valued expression that cannot fail, or `None`.
    pub(super) fn scalar(&self, e: &Expr) -> Option<Ty> {
        stacker::maybe_grow(64 * 1024, 1024 * 1024, || self.scalar_inner(e))
    }

    fn scalar_inner(&self, e: &Expr) -> Option<Ty> {
        match e {
            Expr::Const(v) => Some(const_ty(*v)),
            Expr::Var(v) | Expr::Next(v) => self.var_ty(*v),
            Expr::Exited => None,
            Expr::Unary(UnOp::Not, a) => self.boolean(a).then_some(Ty::Bool),
            Expr::Unary(UnOp::Neg, a) => match self.scalar(a)? {
                Ty::Int(lo, hi) => Some(Ty::Int(hi.checked_neg()?, lo.checked_neg()?)),
                _ => None,
            },
            Expr::Binary(op, a, b) => self.binary(*op, a, b),
            Expr::Ite(..) | Expr::Case { .. } | Expr::Table { .. } => self.branches(e, Self::scalar),
            Expr::Set(items) if items.len() == 1 => self.scalar(&items[0]),
            Expr::Set(_) | Expr::Range(..) => None,
            Expr::Builtin(f, args) => self.builtin(*f, args),
            Expr::Shared(inner) => self.scalar(inner),
        }
    }

    /// A choice (`?:`, `case`, table) whose conditions cannot fail and that always has a branch
    /// to take: the join of its branches' types under `each` (single- or set-valued).
    fn branches(&self, e: &Expr, each: fn(&Self, &Expr) -> Option<Ty>) -> Option<Ty> {
        let mut ty: Option<Ty> = None;
        let mut add = |x: &Expr| -> Option<()> {
            let t = each(self, x)?;
            ty = Some(ty.map_or(t, |y| join(y, t)));
            Some(())
        };
        match e {
            Expr::Ite(c, a, b) => {
                if !self.boolean(c) {
                    return None;
                }
                add(a)?;
                add(b)?;
            }
            Expr::Case { branches, .. } => {
                if !matches!(branches.last(), Some((Expr::Const(Value::Bool(true)), _))) {
                    return None;
                }
                for (c, v) in branches {
                    if !self.boolean(c) {
                        return None;
                    }
                    add(v)?;
                }
            }
            Expr::Table { var, entries, fallback, .. } => {
                if !self.table_exhaustive(*var, entries, fallback.is_some()) {
                    return None;
                }
                for x in entries.iter().flatten().chain(fallback.as_deref()) {
                    add(x)?;
                }
            }
            _ => return None,
        }
        ty
    }

    fn table_exhaustive(&self, var: VarId, entries: &[Option<Expr>], has_fallback: bool) -> bool {
        has_fallback || self.system.vars.get(var.index()).is_some_and(|v| entries.len() >= v.domain.len() && entries.iter().all(Option::is_some))
    }

    fn binary(&self, op: BinOp, a: &Expr, b: &Expr) -> Option<Ty> {
        match op {
            BinOp::And | BinOp::Or | BinOp::Implies | BinOp::Xor | BinOp::Xnor | BinOp::Iff => (self.boolean(a) && self.boolean(b)).then_some(Ty::Bool),
            BinOp::Eq | BinOp::Ne => {
                self.scalar(a)?;
                self.scalar(b)?;
                Some(Ty::Bool)
            }
            BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge => match (self.scalar(a)?, self.scalar(b)?) {
                (Ty::Int(..), Ty::Int(..)) => Some(Ty::Bool),
                _ => None,
            },
            BinOp::In => {
                self.values(a)?;
                self.values(b)?;
                Some(Ty::Bool)
            }
            BinOp::Add | BinOp::Sub | BinOp::Mul => {
                let (Ty::Int(a0, a1), Ty::Int(b0, b1)) = (self.scalar(a)?, self.scalar(b)?) else { return None };
                let f = match op {
                    BinOp::Add => i64::checked_add,
                    BinOp::Sub => i64::checked_sub,
                    _ => i64::checked_mul,
                };
                let corners = [f(a0, b0)?, f(a0, b1)?, f(a1, b0)?, f(a1, b1)?];
                Some(Ty::Int(*corners.iter().min()?, *corners.iter().max()?))
            }
            BinOp::Div | BinOp::Mod => {
                let (Ty::Int(a0, a1), Expr::Const(Value::Int(c))) = (self.scalar(a)?, b) else { return None };
                let c = *c;
                if c == 0 || (c == -1 && a0 == i64::MIN) {
                    return None;
                }
                if op == BinOp::Div {
                    let (x, y) = (a0 / c, a1 / c);
                    return Some(Ty::Int(x.min(y), x.max(y)));
                }
                let m = c.checked_abs()? - 1;
                Some(if a0 >= 0 { Ty::Int(0, m.min(a1)) } else { Ty::Int(-m, m) })
            }
            // Shifts fail on amounts out of range; concatenation is left to enumeration with the other word operators.
            BinOp::Shl | BinOp::Shr | BinOp::Concat => None,
        }
    }

    fn builtin(&self, f: Builtin, args: &[Expr]) -> Option<Ty> {
        let int = |i: usize| match self.scalar(args.get(i)?)? {
            Ty::Int(lo, hi) => Some((lo, hi)),
            _ => None,
        };
        match f {
            Builtin::Count => args.iter().all(|a| self.boolean(a)).then_some(Ty::Int(0, args.len() as i64)),
            Builtin::Abs => {
                let (lo, hi) = int(0)?;
                let (a, b) = (lo.checked_abs()?, hi.checked_abs()?);
                Some(if lo <= 0 && hi >= 0 { Ty::Int(0, a.max(b)) } else { Ty::Int(a.min(b), a.max(b)) })
            }
            Builtin::Min | Builtin::Max => {
                let ((a0, a1), (b0, b1)) = (int(0)?, int(1)?);
                Some(if f == Builtin::Min { Ty::Int(a0.min(b0), a1.min(b1)) } else { Ty::Int(a0.max(b0), a1.max(b1)) })
            }
            Builtin::ToInt => match self.scalar(args.first()?)? {
                Ty::Bool => Some(Ty::Int(0, 1)),
                t @ Ty::Int(..) => Some(t),
                Ty::Other => None,
            },
            Builtin::Bool => match self.scalar(args.first()?)? {
                Ty::Bool | Ty::Int(..) => Some(Ty::Bool),
                Ty::Other => None,
            },
            // Word conversions: not analysed (conservatively "may fail").
            Builtin::Resize(_) | Builtin::Signed | Builtin::Unsigned | Builtin::Word1 | Builtin::Select(..) => None,
        }
    }

    /// The type of the members of a possibly set-valued expression that cannot fail.
    pub(super) fn values(&self, e: &Expr) -> Option<Ty> {
        stacker::maybe_grow(64 * 1024, 1024 * 1024, || self.values_inner(e))
    }

    fn values_inner(&self, e: &Expr) -> Option<Ty> {
        match e {
            Expr::Set(items) => {
                let mut ty: Option<Ty> = None;
                for x in items {
                    let t = self.values(x)?;
                    ty = Some(ty.map_or(t, |y| join(y, t)));
                }
                Some(ty.unwrap_or(Ty::Other))
            }
            Expr::Range(lo, hi) => match (&**lo, &**hi) {
                (Expr::Const(Value::Int(lo)), Expr::Const(Value::Int(hi))) if hi.saturating_sub(*lo) < MAX_RANGE => Some(Ty::Int(*lo, *hi)),
                _ => None,
            },
            Expr::Ite(..) | Expr::Case { .. } | Expr::Table { .. } => self.branches(e, Self::values),
            _ => self.scalar(e),
        }
    }

    /// Whether `e` (possibly set-valued) cannot fail and every value it may take is in the
    /// domain of `var`: an assignment `var := e` that can never be out of range.
    pub(super) fn within(&self, e: &Expr, var: VarId) -> bool {
        self.values(e).is_some() && self.members_within(e, var)
    }

    fn members_within(&self, e: &Expr, var: VarId) -> bool {
        let Some(target) = self.system.vars.get(var.index()).map(|v| &v.domain) else { return false };
        match e {
            Expr::Const(v) => target.index_of(*v).is_some(),
            Expr::Var(w) | Expr::Next(w) => match self.system.vars.get(w.index()) {
                Some(x) if x.domain == *target => true,
                Some(x) => x.domain.len() <= MAX_RANGE as usize && (0..x.domain.len()).all(|i| target.index_of(x.domain.value(i)).is_some()),
                None => false,
            },
            Expr::Set(items) => items.iter().all(|x| self.members_within(x, var)),
            Expr::Ite(_, a, b) => self.members_within(a, var) && self.members_within(b, var),
            Expr::Case { branches, .. } => branches.iter().all(|(_, v)| self.members_within(v, var)),
            Expr::Table { entries, fallback, .. } => entries.iter().flatten().chain(fallback.as_deref()).all(|x| self.members_within(x, var)),
            _ => match self.values(e) {
                Some(Ty::Bool) => target.index_of(Value::Bool(false)).is_some() && target.index_of(Value::Bool(true)).is_some(),
                Some(Ty::Int(lo, hi)) => match target {
                    Domain::Range { lo: a, hi: b } => *a <= lo && hi <= *b,
                    _ => hi.saturating_sub(lo) < MAX_RANGE && (lo..=hi).all(|i| target.index_of(Value::Int(i)).is_some()),
                },
                _ => false,
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::explicit::test_support::*;

    #[test]
    fn arithmetic_is_safe_only_within_bounds() {
        let mut m = system("main", &[("x", Domain::Range { lo: 0, hi: 3 }), ("b", Domain::Boolean)]);
        m.vars[0].domain = Domain::Range { lo: 0, hi: 3 };
        let f = Fallible { system: &m };
        let plus = bin(BinOp::Add, var(0), int(1));
        assert_eq!(f.scalar(&plus), Some(Ty::Int(1, 4)));
        assert!(!f.within(&plus, VarId::new(0)), "x + 1 may be 4");
        assert!(f.within(&bin(BinOp::Mod, plus.clone(), int(4)), VarId::new(0)));
        assert!(f.boolean(&eq(next(0), plus)));
        assert!(!f.boolean(&bin(BinOp::Div, int(4), var(0))), "x may be 0");
        assert!(f.scalar(&bin(BinOp::Div, var(0), int(2))).is_some());
        // a case without a TRUE branch may fail, one with it may not
        assert!(!f.boolean(&case(vec![(var(1), boolean(true))], Default::default())));
        assert!(f.boolean(&case(vec![(var(1), boolean(true)), (boolean(true), eq(var(0), int(2)))], Default::default())));
        // a set where one value is needed
        assert!(!f.boolean(&eq(var(0), set(vec![int(1), int(2)]))));
        assert!(f.boolean(&bin(BinOp::In, next(0), set(vec![int(1), int(2)]))));
        assert!(f.within(&set(vec![var(0), int(2)]), VarId::new(0)));
        assert!(!f.within(&set(vec![var(0), int(5)]), VarId::new(0)));
        assert!(f.boolean(&eq(Expr::Builtin(Builtin::Count, vec![var(1), not(var(1))]), int(1))));
    }
}
