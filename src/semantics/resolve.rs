//! Name resolution and type checking of expressions: AST → [`TExpr`].
//!
//! A name is looked up in the instance's members (variables, DEFINEs, sub-instances, arrays,
//! parameters), then as `self`, `EXIT` (procedure modules), `EXITED`, and finally as a
//! symbolic constant visible in the system. Parameters are call-by-reference: a parameter
//! stands for its actual expression, resolved in the parent instance. DEFINEs are resolved on
//! first use (memoised) with cycle detection; a use site checks what the DEFINE's body contains
//! (`next`, inputs, `EXITED`) against the context ([`Ctx`]). Types follow [`super::types`].

use crate::ctl::MAX_TIME_BOUND;
use crate::diagnostics::Diagnostic;
use crate::ir::id::IdVec;
use crate::ir::{BinOp, Builtin, UnOp, Value, VarId};
use crate::semantics::checked::{TExpr, TKind};
use crate::semantics::context::Ctx;
use crate::semantics::flattened::{Flattened, InstId};
use crate::semantics::modules::ModuleTable;
use crate::semantics::operators::lowered;
use crate::semantics::suggest::closest;
use crate::semantics::types::{Scalar, Ty, unify};
use crate::source::Span;
use crate::syntax::ast::{BinaryOp, CtlOp, Expr, ExprKind, TimeBound, UnaryOp};

mod names;
mod procedures;
mod words;

use names::Target;
use procedures::is_exited;

/// Deeper expressions are rejected instead of risking the stack.
pub(crate) const MAX_DEPTH: usize = 1000;

#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Flags {
    pub next: bool,
    pub input: Option<VarId>,
    pub exited: bool,
}

enum DefState {
    Todo,
    Active,
    Done(TExpr, Flags),
}

pub(crate) struct Resolver<'a, 'f> {
    pub flat: &'f Flattened<'a>,
    pub table: &'f ModuleTable<'a>,
    pub is_procedure: bool,
    /// Exit names of the callees (`None` if the module has no CALL section).
    pub callee_exits: Option<Vec<(String, crate::ir::ExitNameId)>>,
    pub uses_exit_value: bool,
    /// Top-level DEFINE names of all procedure modules (candidate global labels).
    pub label_names: Option<&'f rustc_hash::FxHashSet<&'f str>>,
    /// NuSMV's `-old_div_op` (see [`crate::semantics::LanguageOptions`]).
    pub old_div_op: bool,
    /// Foreign labels used in specs, checked once all modules are known to define them.
    pub foreign_label_uses: Vec<(String, Span)>,
    pub diags: &'f mut Vec<Diagnostic>,
    defines: IdVec<crate::semantics::checked::DefineId, DefState>,
    stack: Vec<crate::semantics::checked::DefineId>,
    /// Parameters being resolved (instance, index): a parameter whose actual leads back to
    /// itself is an error, not an endless recursion.
    params: Vec<(InstId, usize)>,
    depth: usize,
    depth_reported: bool,
}

impl<'a, 'f> Resolver<'a, 'f> {
    pub(crate) fn new(flat: &'f Flattened<'a>, table: &'f ModuleTable<'a>, is_procedure: bool, diags: &'f mut Vec<Diagnostic>) -> Self {
        let defines = flat.defines.iter().map(|_| DefState::Todo).collect();
        Resolver {
            flat,
            table,
            is_procedure,
            callee_exits: None,
            uses_exit_value: false,
            label_names: None,
            old_div_op: false,
            foreign_label_uses: vec![],
            diags,
            defines,
            stack: vec![],
            params: vec![],
            depth: 0,
            depth_reported: false,
        }
    }

    /// Resolves every DEFINE and returns them in declaration order.
    pub(crate) fn finish_defines(&mut self) -> IdVec<crate::semantics::checked::DefineId, (TExpr, Flags)> {
        for d in self.defines.indices() {
            self.ensure_define(d, self.flat.defines[d].span);
        }
        std::mem::take(&mut self.defines)
            .into_raw()
            .into_iter()
            .zip(&self.flat.defines)
            .map(|(s, slot)| match s {
                DefState::Done(t, f) => (t, f),
                _ => (TExpr::error(slot.span), Flags::default()),
            })
            .collect()
    }

    /// Resolves a variable reference used as an assignment target.
    pub(crate) fn resolve_target_var(&mut self, e: &Expr, inst: InstId) -> Option<(VarId, Span)> {
        match self.target(e, inst, Ctx::TARGET) {
            Target::Expr(TExpr { kind: TKind::Var(v), span, .. }) => Some((v, span)),
            Target::Broken | Target::Expr(TExpr { kind: TKind::Error, .. }) => None,
            other => {
                let what = match other {
                    Target::Instance(_) => "a module instance",
                    Target::Array(_) => "an array (assign its elements)",
                    Target::Expr(TExpr { kind: TKind::Define(_), .. }) => "a DEFINE",
                    Target::Expr(TExpr { kind: TKind::Const(_), .. }) => "a constant",
                    _ => "not a variable",
                };
                self.diags.push(
                    Diagnostic::error("E0306", "only variables can be assigned", e.span)
                        .with_label_message(format!("this is {what}"))
                        .with_help("declare it in VAR"),
                );
                None
            }
        }
    }

    pub(crate) fn resolve(&mut self, e: &Expr, inst: InstId, ctx: Ctx) -> TExpr {
        if self.depth >= MAX_DEPTH {
            if !self.depth_reported {
                self.depth_reported = true;
                self.diags.push(
                    Diagnostic::error("E0216", format!("expression nested more than {MAX_DEPTH} levels deep"), e.span)
                        .with_help("DEFINE expansion counts too: shorten the chain of nested DEFINEs or split the expression"),
                );
            }
            return TExpr::error(e.span);
        }
        self.depth += 1;
        let t = self.resolve_inner(e, inst, ctx);
        self.depth -= 1;
        t
    }

    fn resolve_inner(&mut self, e: &Expr, inst: InstId, ctx: Ctx) -> TExpr {
        let span = e.span;
        match &e.kind {
            ExprKind::Bool(b) => TExpr::new(TKind::Const(Value::Bool(*b)), Ty::Bool, span),
            ExprKind::Int(i) => TExpr::new(TKind::Const(Value::Int(*i)), Ty::Int, span),
            ExprKind::Word { bits, width, signed } => {
                TExpr::new(TKind::Const(Value::Word { bits: *bits, width: *width, signed: *signed }), Ty::Word { width: *width, signed: *signed }, span)
            }
            ExprKind::BitSelect(w, hi, lo) => self.bit_select(w, hi, lo, span, inst, ctx),
            ExprKind::Name(_) | ExprKind::Dot(..) | ExprKind::Index(..) => match self.target(e, inst, ctx) {
                Target::Expr(mut t) => {
                    t.span = span;
                    t
                }
                Target::Broken => TExpr::error(span),
                Target::Instance(_) => {
                    self.diags.push(
                        Diagnostic::error("E0113", "a module instance is not a value", span)
                            .with_help("refer to one of its variables or DEFINEs: `instance.name`"),
                    );
                    TExpr::error(span)
                }
                Target::Array(_) => {
                    self.diags.push(Diagnostic::error("E0113", "an array is not a value", span).with_help("index it: `a[i]`"));
                    TExpr::error(span)
                }
            },
            ExprKind::Unary(op, a) => {
                let a = self.resolve(a, inst, ctx);
                if a.ty.word().is_some() {
                    return self.word_unary(if *op == UnaryOp::Not { UnOp::Not } else { UnOp::Neg }, a, span);
                }
                let (op, ty) = match op {
                    UnaryOp::Not => {
                        self.expect_bool(&a, "!");
                        (UnOp::Not, Ty::Bool)
                    }
                    UnaryOp::Neg => {
                        self.expect_int(&a, "-");
                        (UnOp::Neg, Ty::Int)
                    }
                };
                TExpr::new(TKind::Unary(op, Box::new(a)), ty, span)
            }
            ExprKind::Binary(op, a, b) => self.binary(*op, a, b, span, inst, ctx),
            ExprKind::Ite(c, a, b) => {
                let c = self.resolve(c, inst, ctx);
                self.expect_bool(&c, "? :");
                let (a, b) = (self.resolve(a, inst, ctx), self.resolve(b, inst, ctx));
                let ty = self.unify_values(&[&a, &b], span, "the branches of `? :`");
                TExpr::new(TKind::Ite(Box::new(c), Box::new(a), Box::new(b)), ty, span)
            }
            ExprKind::Case(branches) => {
                let mut out = Vec::with_capacity(branches.len());
                for b in branches {
                    let c = self.resolve(&b.condition, inst, ctx);
                    self.expect_bool(&c, "case condition");
                    let v = self.resolve(&b.value, inst, ctx);
                    out.push((c, v));
                }
                let values: Vec<&TExpr> = out.iter().map(|(_, v)| v).collect();
                let ty = self.unify_values(&values, span, "the branches of `case`");
                TExpr::new(TKind::Case(out), ty, span)
            }
            ExprKind::Set(xs) => {
                let xs: Vec<TExpr> = xs.iter().map(|x| self.resolve(x, inst, ctx)).collect();
                let refs: Vec<&TExpr> = xs.iter().collect();
                let ty = self.unify_values(&refs, span, "the elements of the set").to_set();
                TExpr::new(TKind::Set(xs), ty, span)
            }
            ExprKind::Range(lo, hi) => {
                let (lo, hi) = (self.resolve(lo, inst, ctx), self.resolve(hi, inst, ctx));
                self.expect_int(&lo, "..");
                self.expect_int(&hi, "..");
                TExpr::new(TKind::Range(Box::new(lo), Box::new(hi)), Ty::Set(Scalar::Int), span)
            }
            ExprKind::Next(a) => {
                if !ctx.next {
                    self.diags.push(
                        Diagnostic::error("E0204", format!("`next` is not allowed {}", ctx.where_), span).with_help(if ctx.ltl {
                            "in LTLSPEC the next state's value is `X x` (NuSMV 2.5.4 rejects `next` in LTL too); input variables are read on the step leaving the state"
                        } else {
                            "`next` may be used in TRANS, in `next(x) := …` and in DEFINEs used there"
                        }),
                    );
                    return TExpr::error(span);
                }
                if ctx.in_next {
                    self.diags.push(Diagnostic::error("E0205", "`next` cannot be nested", span).with_help("write `next(x)` around variables only once"));
                    return TExpr::error(span);
                }
                let a = self.resolve(a, inst, Ctx { in_next: true, ..ctx });
                let ty = a.ty;
                TExpr::new(TKind::Next(Box::new(a)), ty, span)
            }
            ExprKind::Init(_) => {
                self.diags.push(
                    Diagnostic::error("E0204", format!("`init` is not allowed {}", ctx.where_), span)
                        .with_help("`init(x)` may only appear on the left of `:=` in ASSIGN"),
                );
                TExpr::error(span)
            }
            ExprKind::Call(f, args) => self.builtin(f, args, span, inst, ctx),
            ExprKind::Ctl(op, a) => {
                if !self.ctl_allowed(ctx, span) {
                    return TExpr::error(span);
                }
                if let CtlOp::EBF(b) | CtlOp::ABF(b) | CtlOp::EBG(b) | CtlOp::ABG(b) = *op
                    && !self.time_bound_ok(b, &op.spelling(), span)
                {
                    return TExpr::error(span);
                }
                let a = self.resolve(a, inst, ctx);
                self.expect_bool(&a, "a CTL operator");
                TExpr::new(TKind::Ctl(*op, Box::new(a)), Ty::Bool, span)
            }
            ExprKind::Until { universal, lhs, rhs, bound } => {
                if !self.ctl_allowed(ctx, span) {
                    return TExpr::error(span);
                }
                if let Some(b) = *bound
                    && !self.time_bound_ok(b, &format!("BU {}..{}", b.lo, b.hi), span)
                {
                    return TExpr::error(span);
                }
                let (l, r) = (self.resolve(lhs, inst, ctx), self.resolve(rhs, inst, ctx));
                self.expect_bool(&l, "U");
                self.expect_bool(&r, "U");
                TExpr::new(TKind::Until { universal: *universal, lhs: Box::new(l), rhs: Box::new(r), bound: *bound }, Ty::Bool, span)
            }
            ExprKind::Ltl(op, args) if ctx.ltl => self.ltl(op, args, span, inst, ctx),
            ExprKind::Ltl(op, _) => {
                self.diags.push(
                    Diagnostic::error("E0214", format!("LTL operator `{op}` outside LTLSPEC"), span).with_help("LTL operators may only appear in LTLSPEC"),
                );
                TExpr::error(span)
            }
            // Flattening turns array DEFINE bodies into arrays of DEFINEs; nothing else holds one.
            ExprKind::Array(_) => {
                self.diags.push(Diagnostic::error("E0113", "an array is not a value", span).with_help("index it: `a[i]`"));
                TExpr::error(span)
            }
            ExprKind::Error => TExpr::error(span),
        }
    }

    fn ctl_allowed(&mut self, ctx: Ctx, span: Span) -> bool {
        if !ctx.ctl {
            self.diags.push(Diagnostic::error("E0207", format!("CTL operators are not allowed {}", ctx.where_), span).with_help(if ctx.ltl {
                "LTLSPEC takes LTL operators (X G F U V Y Z H O S T); CTL operators belong in SPEC/CTLSPEC"
            } else {
                "temporal operators may only appear in SPEC/CTLSPEC"
            }));
        }
        ctx.ctl
    }

    /// The `lo..hi` of an RTCTL operator: NuSMV 2.5.4 requires `0 <= lo <= hi` ("Invalid range
    /// in expression"); xmv-rs unfolds the operator into `hi` steps of `EX`/`AX` over the
    /// formula DAG, so `hi` is also capped at [`MAX_TIME_BOUND`]. E0222 otherwise.
    fn time_bound_ok(&mut self, b: TimeBound, op: &str, span: Span) -> bool {
        let why = if b.lo < 0 {
            "the lower bound is negative"
        } else if b.lo > b.hi {
            "the lower bound is greater than the upper bound"
        } else if b.hi > MAX_TIME_BOUND {
            "the upper bound is too large"
        } else {
            return true;
        };
        self.diags.push(
            Diagnostic::error("E0222", format!("invalid range in `{op}`: {why}"), span)
                .with_label_message("in this bounded operator")
                .with_help(format!("write `lo..hi` with 0 <= lo <= hi <= {MAX_TIME_BOUND}: the bounds count steps along a path")),
        );
        false
    }

    /// An LTL operator inside `LTLSPEC`: boolean operands, a boolean result.
    fn ltl(&mut self, op: &str, args: &[Expr], span: Span, inst: InstId, ctx: Ctx) -> TExpr {
        if let Some(t) = self.psl_operator(op, args, span, inst, ctx) {
            return t;
        }
        let Some(ltl_op) = crate::ltl::LtlOp::from_word(op) else {
            self.diags.push(Diagnostic::error("E0214", format!("unknown LTL operator `{op}`"), span));
            return TExpr::error(span);
        };
        let targs: Vec<TExpr> = args.iter().map(|a| self.resolve(a, inst, ctx)).collect();
        for a in &targs {
            self.expect_bool(a, op);
        }
        TExpr::new(TKind::Ltl(ltl_op, targs), Ty::Bool, span)
    }

    /// A PSL operator of a `PSLSPEC` (as the parser names them) in LTL: on the infinite paths
    /// that NuSMV checks, `always p` is `G p`, `never p` is `G !p`, `eventually! p` is `F p`,
    /// `next p`, `next! p`, `X p` and `X! p` are `X p`; `p until! q` is `p U q`, `p until q`
    /// the weak `(p U q) | G p`, the `_` forms end with `p & q` instead of `q`; `p before! q`
    /// is `!q U (p & !q)`, `p before q` its weak form `(!q U (p & !q)) | G !q`, and `before!_`,
    /// `before_` take `p` for `p & !q`. `None` for any other operator.
    fn psl_operator(&mut self, op: &str, args: &[Expr], span: Span, inst: InstId, ctx: Ctx) -> Option<TExpr> {
        use crate::ltl::LtlOp;
        let bool_node = |kind: TKind| TExpr::new(kind, Ty::Bool, span);
        let not = |t: TExpr| bool_node(TKind::Unary(UnOp::Not, Box::new(t)));
        let and = |a: TExpr, b: TExpr| bool_node(TKind::Binary(BinOp::And, Box::new(a), Box::new(b)));
        let or = |a: TExpr, b: TExpr| bool_node(TKind::Binary(BinOp::Or, Box::new(a), Box::new(b)));
        let unary = |o: LtlOp, t: TExpr| bool_node(TKind::Ltl(o, vec![t]));
        let until = |a: TExpr, b: TExpr| bool_node(TKind::Ltl(LtlOp::U, vec![a, b]));
        let unary_op = matches!(op, "always" | "never" | "eventually!" | "next" | "next!" | "X(" | "X!(");
        let binary_op = op.starts_with("until") || op.starts_with("before");
        if !unary_op && !binary_op {
            return None;
        }
        let targs: Vec<TExpr> = args.iter().map(|a| self.resolve(a, inst, ctx)).collect();
        for a in &targs {
            self.expect_bool(a, op.trim_end_matches('('));
        }
        Some(match (op, <[TExpr; 1]>::try_from(targs.clone()), <[TExpr; 2]>::try_from(targs)) {
            ("always", Ok([p]), _) => unary(LtlOp::G, p),
            ("never", Ok([p]), _) => unary(LtlOp::G, not(p)),
            ("eventually!", Ok([p]), _) => unary(LtlOp::F, p),
            (_, Ok([p]), _) => unary(LtlOp::X, p),
            (_, _, Ok([p, q])) => {
                let weak = !op.contains('!');
                let inclusive = op.ends_with('_');
                let strong = if op.starts_with("until") {
                    let target = if inclusive { and(p.clone(), q.clone()) } else { q.clone() };
                    until(p.clone(), target)
                } else {
                    let target = if inclusive { p.clone() } else { and(p.clone(), not(q.clone())) };
                    until(not(q.clone()), target)
                };
                match (weak, op.starts_with("until")) {
                    (false, _) => strong,
                    (true, true) => or(strong, unary(LtlOp::G, p)),
                    (true, false) => or(strong, unary(LtlOp::G, not(q))),
                }
            }
            _ => TExpr::error(span),
        })
    }

    fn binary(&mut self, op: BinaryOp, a: &Expr, b: &Expr, span: Span, inst: InstId, ctx: Ctx) -> TExpr {
        if matches!(op, BinaryOp::Eq | BinaryOp::Ne | BinaryOp::In) {
            if is_exited(a) {
                return self.exited_comparison(op, a, b, span, ctx);
            }
            if is_exited(b) && op != BinaryOp::In {
                return self.exited_comparison(op, b, a, span, ctx);
            }
        }
        let (ta, tb) = (self.resolve(a, inst, ctx), self.resolve(b, inst, ctx));
        if (ta.ty.word().is_some() || tb.ty.word().is_some() || op == BinaryOp::Concat) && !matches!(op, BinaryOp::Union | BinaryOp::In) {
            return self.word_binary(op, ta, tb, span, inst, b);
        }
        let sym = op.symbol();
        let (bop, ty) = match op {
            BinaryOp::And | BinaryOp::Or | BinaryOp::Xor | BinaryOp::Xnor | BinaryOp::Implies | BinaryOp::Iff => {
                self.expect_bool(&ta, sym);
                self.expect_bool(&tb, sym);
                (lowered(op), Ty::Bool)
            }
            BinaryOp::Eq | BinaryOp::Ne => {
                for t in [&ta, &tb] {
                    if t.ty.is_set() {
                        self.diags.push(
                            Diagnostic::error("E0203", format!("`{sym}` compares single values, not sets"), t.span)
                                .with_label_message(format!("this is a {}", t.ty))
                                .with_help("use `in` to test membership: `x in {a, b}`"),
                        );
                        return TExpr::error(span);
                    }
                }
                self.check_compatible(&ta, &tb, span, sym);
                (lowered(op), Ty::Bool)
            }
            BinaryOp::Lt | BinaryOp::Le | BinaryOp::Gt | BinaryOp::Ge => {
                self.expect_int(&ta, sym);
                self.expect_int(&tb, sym);
                (lowered(op), Ty::Bool)
            }
            BinaryOp::Add | BinaryOp::Sub | BinaryOp::Mul | BinaryOp::Div | BinaryOp::Mod | BinaryOp::Shl | BinaryOp::Shr => {
                self.expect_int(&ta, sym);
                self.expect_int(&tb, sym);
                (lowered(op), Ty::Int)
            }
            BinaryOp::Union => {
                let ty = self.unify_values(&[&ta, &tb], span, "the operands of `union`").to_set();
                return TExpr::new(TKind::Set(flatten_union(ta, tb)), ty, span);
            }
            BinaryOp::In => {
                self.check_compatible(&ta, &tb, span, "in");
                (lowered(op), Ty::Bool)
            }
            BinaryOp::Concat => unreachable!("`::` is typed by word_binary"),
        };
        match bop {
            Some(bop @ (BinOp::Div | BinOp::Mod)) if self.old_div_op && ta.ty == Ty::Int && tb.ty == Ty::Int => old_div_op(bop, ta, tb, span),
            Some(bop) => TExpr::new(TKind::Binary(bop, Box::new(ta), Box::new(tb)), ty, span),
            None => unreachable!("`union` builds a set (its arm returns)"),
        }
    }

    fn check_compatible(&mut self, a: &TExpr, b: &TExpr, span: Span, sym: &str) {
        if unify(a.ty, b.ty, sym == "in").is_none() {
            self.diags.push(
                Diagnostic::error("E0203", format!("operands of `{sym}` have incompatible types"), span)
                    .with_secondary(a.span, format!("{}", a.ty))
                    .with_secondary(b.span, format!("{}", b.ty))
                    .with_help(incompatible_help(a.ty, b.ty)),
            );
        }
    }

    /// The common type of several values (case branches, set elements…).
    fn unify_values(&mut self, values: &[&TExpr], span: Span, what: &str) -> Ty {
        let mut ty = Ty::Error;
        let mut first: Option<&TExpr> = None;
        for v in values {
            match unify(ty, v.ty, true) {
                Some(t) => {
                    ty = t;
                    if first.is_none() && !v.ty.is_error() {
                        first = Some(v);
                    }
                }
                None => {
                    let mut d = Diagnostic::error("E0203", format!("{what} have incompatible types"), v.span).with_label_message(format!("this is {}", v.ty));
                    if let Some(f) = first {
                        d = d.with_secondary(f.span, format!("this is {}", f.ty));
                    }
                    let _ = span;
                    self.diags.push(d.with_help(incompatible_help(ty, v.ty)));
                    return Ty::Error;
                }
            }
        }
        ty
    }

    fn expect_bool(&mut self, t: &TExpr, op: &str) {
        if t.ty.is_bool() {
            return;
        }
        let mut d =
            Diagnostic::error("E0201", format!("expected a boolean operand of `{op}`, found {}", t.ty), t.span).with_label_message(format!("this is {}", t.ty));
        if t.ty == Ty::Int {
            d = d.with_help("there is no implicit integer-to-boolean conversion (NuSMV ≥ 2.5.1): compare it, e.g. `x != 0`, or use `bool(x)`");
        }
        self.diags.push(d);
    }

    fn expect_int(&mut self, t: &TExpr, op: &str) {
        if t.ty.is_int() {
            return;
        }
        let mut d = Diagnostic::error("E0202", format!("expected an integer operand of `{op}`, found {}", t.ty), t.span)
            .with_label_message(format!("this is {}", t.ty));
        if t.ty == Ty::Bool {
            d = d.with_help("there is no implicit boolean-to-integer conversion: use `toint(b)`");
        }
        self.diags.push(d);
    }

    fn builtin(&mut self, f: &crate::syntax::ast::Ident, args: &[Expr], span: Span, inst: InstId, ctx: Ctx) -> TExpr {
        if let Some(t) = self.word_builtin(f, args, span, inst, ctx) {
            return t;
        }
        let (b, arity, result): (Builtin, Option<usize>, Ty) = match f.name.as_str() {
            "abs" => (Builtin::Abs, Some(1), Ty::Int),
            "min" => (Builtin::Min, Some(2), Ty::Int),
            "max" => (Builtin::Max, Some(2), Ty::Int),
            "toint" => (Builtin::ToInt, Some(1), Ty::Int),
            "bool" => (Builtin::Bool, Some(1), Ty::Bool),
            "count" => (Builtin::Count, None, Ty::Int),
            other => {
                let known = ["abs", "min", "max", "toint", "bool", "count", "extend", "resize", "signed", "unsigned", "word1", "sizeof", "uwconst", "swconst"];
                let mut d = Diagnostic::error("E0214", format!("function `{other}` is not supported"), f.span);
                d = match closest(other, known) {
                    Some(s) => d.with_help(format!("did you mean `{s}`?")),
                    None => d.with_help(format!("supported functions: {}", known.join(", "))),
                };
                self.diags.push(d);
                return TExpr::error(span);
            }
        };
        if arity.is_some_and(|n| n != args.len()) || args.is_empty() {
            self.diags.push(Diagnostic::error(
                "E0217",
                format!("`{}` takes {} argument{}, {} given", f.name, arity.unwrap_or(1), if arity == Some(1) { "" } else { "s" }, args.len()),
                span,
            ));
            return TExpr::error(span);
        }
        let targs: Vec<TExpr> = args.iter().map(|a| self.resolve(a, inst, ctx)).collect();
        for t in &targs {
            match b {
                Builtin::Abs | Builtin::Min | Builtin::Max => self.expect_int(t, &f.name),
                Builtin::Count => self.expect_bool(t, &f.name),
                Builtin::ToInt | Builtin::Bool => {
                    if t.ty.word().is_some() && !words::converts(b, t.ty) {
                        self.bad_word_conversion(&f.name, t);
                    } else if !(t.ty.is_bool() || t.ty.is_int() || words::converts(b, t.ty)) {
                        self.expect_int(t, &f.name)
                    }
                }
                // The word functions are typed by `word_builtin`.
                Builtin::Resize(_) | Builtin::Signed | Builtin::Unsigned | Builtin::Word1 | Builtin::Select(..) => {}
            }
        }
        TExpr::new(TKind::Builtin(b, targs), result, span)
    }
}

fn flatten_union(a: TExpr, b: TExpr) -> Vec<TExpr> {
    let mut out = vec![];
    for t in [a, b] {
        match t.kind {
            TKind::Set(xs) => out.extend(xs),
            _ => out.push(t),
        }
    }
    out
}

fn incompatible_help(a: Ty, b: Ty) -> String {
    let pair = |x: Ty, y: Ty| (a == x && b == y) || (a == y && b == x);
    if let Some(help) = crate::semantics::types::conversion_help(a.scalar().map_or(a, Ty::from_scalar), b.scalar().map_or(b, Ty::from_scalar)) {
        help
    } else if pair(Ty::Int, Ty::Bool) || pair(Ty::Set(Scalar::Int), Ty::Bool) {
        "integers and booleans do not mix (NuSMV ≥ 2.5.1): use TRUE/FALSE for booleans, or `toint`/`bool` to convert".into()
    } else if pair(Ty::Int, Ty::Sym) {
        "an integer is never equal to a symbolic constant; check the variable's type".into()
    } else {
        format!("{a} and {b} values cannot be mixed here")
    }
}

/// NuSMV's old integer `/` and `mod` (`-old_div_op`, NuSMV 2.5.4's `node_divide`/`node_mod`)
/// written with ANSI C's: `a / b - (a mod b < 0 ? 1 : 0)` and `(a mod b < 0) ? a mod b + b : a mod b`.
fn old_div_op(op: BinOp, a: TExpr, b: TExpr, span: Span) -> TExpr {
    let int = |k: i64| TExpr::new(TKind::Const(Value::Int(k)), Ty::Int, span);
    let bin = |op: BinOp, x: TExpr, y: TExpr, ty: Ty| TExpr::new(TKind::Binary(op, Box::new(x), Box::new(y)), ty, span);
    let rem = bin(BinOp::Mod, a.clone(), b.clone(), Ty::Int);
    let negative = bin(BinOp::Lt, rem.clone(), int(0), Ty::Bool);
    let ite = |c: TExpr, x: TExpr, y: TExpr| TExpr::new(TKind::Ite(Box::new(c), Box::new(x), Box::new(y)), Ty::Int, span);
    match op {
        BinOp::Div => bin(BinOp::Sub, bin(BinOp::Div, a, b, Ty::Int), ite(negative, int(1), int(0)), Ty::Int),
        _ => ite(negative, bin(BinOp::Add, rem.clone(), b, Ty::Int), rem),
    }
}
