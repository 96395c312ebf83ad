//! Lowering one system's typed expressions ([`TExpr`]) to [`Expr`]: DEFINEs are expanded
//! (each body lowered once per current/next context and reused), `next(e)` is pushed down to
//! `Next(x)` on variables, constants are folded and `case` chains become tables.
//!
//! Expansion copies DEFINE bodies, so a chain of DEFINEs that each use the previous one twice
//! grows exponentially. The lowered program of a system is therefore limited to
//! [`NODE_BUDGET`] expression nodes in total and every expanded DEFINE to [`MAX_EXPANDED_DEPTH`]
//! levels (later stages evaluate expressions recursively); beyond that the model is rejected
//! with a diagnostic instead of exhausting memory or the stack.

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
    /// Lowered DEFINE bodies with their node counts: `[current, next]`.
    memo: Vec<[Option<(Expr, usize)>; 2]>,
    /// Expression nodes produced so far by DEFINE expansion.
    nodes: usize,
    budget_reported: bool,
    pub diags: Vec<Diagnostic>,
}

/// Largest number of expression nodes DEFINE expansion may produce for one system.
pub const NODE_BUDGET: usize = 4_000_000;
/// Deepest expression a DEFINE may expand to.
pub const MAX_EXPANDED_DEPTH: usize = 2000;

/// Node count and depth of `e`, counting at most `limit` nodes (iterative: `e` may be deep).
fn measure(e: &Expr, limit: usize) -> (usize, usize) {
    let (mut nodes, mut depth) = (0, 0);
    let mut stack = vec![(e, 1usize)];
    while let Some((e, d)) = stack.pop() {
        nodes += 1;
        depth = depth.max(d);
        if nodes > limit {
            break;
        }
        match e {
            Expr::Const(_) | Expr::Var(_) | Expr::Next(_) | Expr::Exited => {}
            Expr::Unary(_, a) => stack.push((a, d + 1)),
            Expr::Binary(_, a, b) | Expr::Range(a, b) => {
                stack.push((a, d + 1));
                stack.push((b, d + 1));
            }
            Expr::Ite(a, b, c) => {
                for x in [a, b, c] {
                    stack.push((x, d + 1));
                }
            }
            Expr::Case { branches, .. } => {
                for (c, v) in branches {
                    stack.push((c, d + 1));
                    stack.push((v, d + 1));
                }
            }
            Expr::Table { entries, fallback, .. } => {
                stack.extend(entries.iter().flatten().map(|x| (x, d + 1)));
                stack.extend(fallback.iter().map(|x| (&**x, d + 1)));
            }
            Expr::Set(xs) | Expr::Builtin(_, xs) => stack.extend(xs.iter().map(|x| (x, d + 1))),
        }
    }
    (nodes, depth)
}

impl<'c> Lowerer<'c> {
    pub fn new(sys: &'c CheckedSystem, labels: &'c [String]) -> Self {
        Lowerer { sys, labels, memo: vec![[None, None]; sys.defines.len()], nodes: 0, budget_reported: false, diags: vec![] }
    }

    pub fn lower(&mut self, t: &TExpr) -> Expr {
        self.lower_in(t, false)
    }

    /// The lowered body of DEFINE `d` (a copy, counted against [`NODE_BUDGET`]).
    pub fn define(&mut self, d: u32, in_next: bool) -> Expr {
        let slot = in_next as usize;
        if let Some((e, n)) = &self.memo[d as usize][slot] {
            let (e, n) = (e.clone(), *n);
            return self.spend(n, d, e);
        }
        let body = &self.sys.defines[d as usize].expr;
        let e = self.lower_in(body, in_next);
        let (n, depth) = measure(&e, NODE_BUDGET);
        let e = if depth > MAX_EXPANDED_DEPTH && n <= NODE_BUDGET {
            let def = &self.sys.defines[d as usize];
            self.diags.push(
                Diagnostic::error(
                    "E0216",
                    format!("DEFINE `{}` expands to an expression nested more than {MAX_EXPANDED_DEPTH} levels deep", def.name),
                    def.span,
                )
                .with_help("DEFINEs are macros: shorten the chain of DEFINEs that use each other"),
            );
            Expr::Const(Value::Bool(false))
        } else {
            e
        };
        self.memo[d as usize][slot] = Some((e.clone(), n));
        self.spend(n, d, e)
    }

    fn spend(&mut self, n: usize, d: u32, e: Expr) -> Expr {
        self.nodes = self.nodes.saturating_add(n);
        if self.nodes <= NODE_BUDGET {
            return e;
        }
        if !self.budget_reported {
            self.budget_reported = true;
            let def = &self.sys.defines[d as usize];
            self.diags.push(
                Diagnostic::error("E0220", format!("expanding DEFINE `{}` exceeds {NODE_BUDGET} expression nodes", def.name), def.span)
                    .with_label_message("expanded here")
                    .with_help("DEFINEs are macros copied into every use: reuse a value through a variable, or simplify the chain of DEFINEs"),
            );
        }
        // Keep memory bounded: the program is rejected anyway.
        for m in self.memo.iter_mut().flatten() {
            *m = Some((Expr::Const(Value::Bool(false)), 1));
        }
        Expr::Const(Value::Bool(false))
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
            TKind::Ctl(..) | TKind::Until { .. } | TKind::Ltl(..) | TKind::Error => {
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
