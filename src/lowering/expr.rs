//! Lowering one system's typed expressions ([`TExpr`]) to [`Expr`]: DEFINEs are expanded
//! (each body lowered once per current/next context and reused), `next(e)` is pushed down to
//! `Next(x)` on variables, constants are folded and `case` chains become tables.

use crate::diagnostics::Diagnostic;
use crate::lowering::ops::EvalError;
use crate::lowering::program::{Expr, Value};
use crate::lowering::{fold, table};
use crate::semantics::checked::{CheckedSystem, TExpr, TKind};
use crate::source::Span;

pub struct Lowerer<'c> {
    pub sys: &'c CheckedSystem,
    /// Global labels (`LoweredProgram::labels`).
    pub labels: &'c [String],
    /// Lowered DEFINE bodies: `[current, next]`.
    memo: Vec<[Option<Expr>; 2]>,
    pub diags: Vec<Diagnostic>,
}

impl<'c> Lowerer<'c> {
    pub fn new(sys: &'c CheckedSystem, labels: &'c [String]) -> Self {
        Lowerer { sys, labels, memo: vec![[None, None]; sys.defines.len()], diags: vec![] }
    }

    pub fn lower(&mut self, t: &TExpr) -> Expr {
        self.lower_in(t, false)
    }

    /// The lowered body of DEFINE `d`.
    pub fn define(&mut self, d: u32, in_next: bool) -> Expr {
        let slot = in_next as usize;
        if let Some(e) = &self.memo[d as usize][slot] {
            return e.clone();
        }
        let body = &self.sys.defines[d as usize].expr;
        let e = self.lower_in(body, in_next);
        self.memo[d as usize][slot] = Some(e.clone());
        e
    }

    fn lower_in(&mut self, t: &TExpr, in_next: bool) -> Expr {
        match &t.kind {
            TKind::Const(v) => Expr::Const(*v),
            TKind::Var(v) => {
                if in_next {
                    Expr::Next(*v)
                } else {
                    Expr::Var(*v)
                }
            }
            TKind::Define(d) => self.define(*d, in_next),
            TKind::Next(a) => self.lower_in(a, true),
            TKind::Exited => Expr::Exited,
            TKind::ForeignLabel(name) => {
                self.diags.push(
                    Diagnostic::error("E0219", format!("label `{name}` of another module cannot be used inside an expression"), t.span)
                        .with_label_message("not defined in this module")
                        .with_help("use it as a proposition (with !, &, |, ->, <-> and CTL operators), or define it in this module"),
                );
                Expr::Const(Value::Bool(false))
            }
            TKind::Unary(op, a) => {
                let a = self.lower_in(a, in_next);
                self.check(fold::unary(*op, a), t.span)
            }
            TKind::Binary(op, a, b) => {
                let (a, b) = (self.lower_in(a, in_next), self.lower_in(b, in_next));
                self.check(fold::binary(*op, a, b), t.span)
            }
            TKind::Ite(c, a, b) => {
                let c = self.lower_in(c, in_next);
                let (a, b) = (self.lower_in(a, in_next), self.lower_in(b, in_next));
                fold::ite(c, a, b)
            }
            TKind::Case(bs) => {
                let branches = bs.iter().map(|(c, v)| (self.lower_in(c, in_next), self.lower_in(v, in_next))).collect();
                match fold::case(branches) {
                    Ok(e) => e,
                    Err(branches) => table::compile(branches, t.span, &self.sys.vars),
                }
            }
            TKind::Set(xs) => {
                let xs = xs.iter().map(|x| self.lower_in(x, in_next)).collect();
                fold::set(xs)
            }
            TKind::Range(a, b) => {
                let (a, b) = (self.lower_in(a, in_next), self.lower_in(b, in_next));
                Expr::Range(Box::new(a), Box::new(b))
            }
            TKind::Builtin(f, xs) => {
                let xs = xs.iter().map(|x| self.lower_in(x, in_next)).collect();
                self.check(fold::builtin(*f, xs), t.span)
            }
            // CTL operators only occur in specifications, which `spec` splits before lowering
            // their non-temporal parts; `Error` never reaches lowering (errors stop the
            // pipeline). Both are kept total rather than panicking on a broken invariant.
            TKind::Ctl(..) | TKind::Until { .. } | TKind::Error => {
                self.diags.push(Diagnostic::error("E0299", "internal error: unexpected temporal or erroneous expression in lowering", t.span));
                Expr::Const(Value::Bool(false))
            }
        }
    }

    fn check(&mut self, r: Result<Expr, EvalError>, span: Span) -> Expr {
        r.unwrap_or_else(|e| {
            self.diags.push(
                Diagnostic::error("E0218", format!("constant expression fails: {e}"), span)
                    .with_label_message(e.to_string())
                    .with_help("this expression is constant and cannot be evaluated; fix the operands"),
            );
            Expr::Const(Value::Int(0))
        })
    }
}
