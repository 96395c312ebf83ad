//! The procedure-module rules of name resolution: `EXITED` (allowed only where a callee's exit
//! is known: `next()` assignments and `TRANS` of a module with a `CALL` section) and its
//! comparisons with exit names (`EXITED = name`, `EXITED in {…}`), codes E0403 and E0404.

use super::Resolver;
use crate::diagnostics::Diagnostic;
use crate::ir::Value;
use crate::semantics::checked::{TExpr, TKind};
use crate::semantics::context::Ctx;
use crate::semantics::operators::lowered;
use crate::semantics::suggest::closest;
use crate::semantics::types::{Scalar, Ty};
use crate::source::Span;
use crate::syntax::ast::{BinaryOp, Expr, ExprKind};

/// Whether `e` is the name `EXITED`.
pub(super) fn is_exited(e: &Expr) -> bool {
    matches!(&e.kind, ExprKind::Name(n) if n == "EXITED")
}

impl Resolver<'_, '_> {
    pub(super) fn exited_comparison(&mut self, op: BinaryOp, exited: &Expr, other: &Expr, span: Span, ctx: Ctx) -> TExpr {
        let Some(lhs) = self.exited(exited.span, ctx) else { return TExpr::error(span) };
        let rhs = match (&other.kind, op) {
            (ExprKind::Name(n), _) => self.exit_name(n, other.span),
            (ExprKind::Set(xs), BinaryOp::In) => {
                let mut out = vec![];
                for x in xs {
                    match &x.kind {
                        ExprKind::Name(n) => out.push(self.exit_name(n, x.span)),
                        _ => out.push(self.not_exit_name(x.span)),
                    }
                }
                TExpr::new(TKind::Set(out), Ty::Set(Scalar::ExitName), other.span)
            }
            _ => self.not_exit_name(other.span),
        };
        let Some(bop) = lowered(op) else { unreachable!("an `EXITED` comparison is `=`, `!=` or `in`") };
        TExpr::new(TKind::Binary(bop, Box::new(lhs), Box::new(rhs)), Ty::Bool, span)
    }

    pub(super) fn not_exit_name(&mut self, span: Span) -> TExpr {
        self.diags.push(
            Diagnostic::error("E0404", "`EXITED` can only be compared with exit names", span)
                .with_help("write `EXITED = name` where `name` is an exit of a called module"),
        );
        TExpr::error(span)
    }

    pub(super) fn exited(&mut self, span: Span, ctx: Ctx) -> Option<TExpr> {
        if self.callee_exits.is_none() {
            self.diags.push(
                Diagnostic::error("E0403", "`EXITED` used in a module without CALL", span)
                    .with_help("`EXITED` is the exit through which a callee returned; add a CALL section"),
            );
            return None;
        }
        if !ctx.exited {
            self.diags.push(
                Diagnostic::error("E0403", format!("`EXITED` is not allowed {}", ctx.where_), span)
                    .with_help("`EXITED` may only be used in `next()` assignments and TRANS"),
            );
            return None;
        }
        Some(TExpr::new(TKind::Exited, Ty::ExitName, span))
    }

    pub(super) fn exit_name(&mut self, name: &str, span: Span) -> TExpr {
        let exits = self.callee_exits.as_deref().unwrap_or(&[]);
        if let Some(&(_, id)) = exits.iter().find(|(n, _)| n == name) {
            return TExpr::new(TKind::Const(Value::ExitName(id)), Ty::ExitName, span);
        }
        let names: Vec<&str> = exits.iter().map(|(n, _)| n.as_str()).collect();
        let mut d = Diagnostic::error("E0404", format!("`{name}` is not an exit of any module called here"), span).with_label_message("unknown exit name");
        if let Some(s) = closest(name, names.iter().copied()) {
            d = d.with_help(format!("did you mean `{s}`?"));
        }
        d = d.with_note(if names.is_empty() {
            "the called modules have no exits".to_string()
        } else {
            format!("exits of the called modules: {}", names.join(", "))
        });
        self.diags.push(d);
        TExpr::error(span)
    }
}
