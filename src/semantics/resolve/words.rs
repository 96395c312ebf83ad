//! The resolver's typing of word expressions, with NuSMV 2.5.4's rules (`compile/type_checking`):
//!
//! - arithmetic `+ - * / mod`, bitwise `& | xor xnor -> <->` and comparisons `< <= > >= = !=`
//!   need two words of the same width and signedness; a word never mixes with an integer or a
//!   boolean (NuSMV refuses `w + 1` and `w = 0` too);
//! - `<<`, `>>` shift a word by an integer or a word; a constant amount must lie in 0..=width;
//! - `::` concatenates two words of any signedness into an unsigned word (at most 64 bits);
//! - `w[h : l]` needs constant bounds with width > h ≥ l ≥ 0 and gives `unsigned word[h−l+1]`;
//! - `extend(w, n)`, `resize(w, n)` (n constant), `signed(w)` of an unsigned word, `unsigned(w)`
//!   of a signed one, `word1(b)`, `bool(w)` of an `unsigned word[1]`, `toint(w)`, `sizeof(w)`,
//!   `uwconst(v, n)` and `swconst(v, n)` (constant arguments; the last three are folded here).
//!
//! Sets of words and `in` on words, which NuSMV 2.5.4 rejects, are accepted (one word type per
//! set). Errors name both types and say how to convert (codes E0230–E0233).

use super::Resolver;
use crate::diagnostics::Diagnostic;
use crate::ir::words::mask;
use crate::ir::{BinOp, Builtin, UnOp, Value};
use crate::semantics::checked::{TExpr, TKind};
use crate::semantics::consteval;
use crate::semantics::context::Ctx;
use crate::semantics::flattened::InstId;
use crate::semantics::types::Ty;
use crate::source::Span;
use crate::syntax::ast::{BinaryOp, Expr, Ident};
use crate::syntax::words::MAX_WORD_WIDTH;

/// Whether `toint`/`bool` accept a word of this type (`bool` only of `unsigned word[1]`).
pub(crate) fn converts(f: Builtin, ty: Ty) -> bool {
    match f {
        Builtin::ToInt => ty.word().is_some(),
        Builtin::Bool => ty.word() == Some((1, false)),
        _ => false,
    }
}

fn word_ty(width: u8, signed: bool) -> Ty {
    Ty::Word { width, signed }
}

impl Resolver<'_, '_> {
    fn mismatch(&mut self, sym: &str, a: &TExpr, b: &TExpr, span: Span, what: &str) {
        let mut d = Diagnostic::error("E0230", format!("`{sym}` needs {what}, found `{}` and `{}`", a.ty, b.ty), span)
            .with_secondary(a.span, format!("{}", a.ty))
            .with_secondary(b.span, format!("{}", b.ty));
        if let (Some((wa, sa)), Some((wb, sb))) = (a.ty.word(), b.ty.word()) {
            let mut steps = vec![];
            if wa != wb {
                let (narrow, wide) = if wa < wb { (a.ty, b.ty) } else { (b.ty, a.ty) };
                let (lo, hi) = (wa.min(wb), wa.max(wb));
                steps.push(format!("widen the `{narrow}` operand with `extend(…, {})` or narrow the `{wide}` one with `resize(…, {lo})`", hi - lo));
            }
            if sa != sb {
                steps.push("reinterpret one operand with `signed(…)` or `unsigned(…)`".to_string());
            }
            d = d.with_help(format!("NuSMV does not convert words implicitly: {}", steps.join("; ")));
        } else if let Some(help) = crate::semantics::types::conversion_help(b.ty, a.ty).or_else(|| crate::semantics::types::conversion_help(a.ty, b.ty)) {
            d = d.with_help(help);
        }
        self.diags.push(d);
    }

    /// A binary operator of which at least one operand is a word; both are resolved.
    pub(crate) fn word_binary(&mut self, op: BinaryOp, a: TExpr, b: TExpr, span: Span, inst: InstId, rhs: &Expr) -> TExpr {
        let sym = op.symbol();
        if a.ty.is_error() || b.ty.is_error() {
            return TExpr::error(span);
        }
        let (bop, ty) = match op {
            BinaryOp::Shl | BinaryOp::Shr => {
                let Some((width, _)) = a.ty.word() else {
                    self.mismatch(sym, &a, &b, span, "a word on its left");
                    return TExpr::error(span);
                };
                if !(b.ty == Ty::Int || b.ty.word().is_some()) {
                    self.mismatch(sym, &a, &b, span, "an integer or word shift amount");
                    return TExpr::error(span);
                }
                if b.ty == Ty::Int
                    && let Ok(n) = consteval::const_int(self.flat, inst, rhs, 0)
                    && !(0..=i64::from(width)).contains(&n)
                {
                    self.diags.push(
                        Diagnostic::error("E0233", format!("shift amount {n} is out of range for `{}`", a.ty), b.span)
                            .with_label_message(format!("must lie in 0..{width}"))
                            .with_help("a word can be shifted by 0 up to its width"),
                    );
                    return TExpr::error(span);
                }
                (if op == BinaryOp::Shl { BinOp::Shl } else { BinOp::Shr }, a.ty)
            }
            BinaryOp::Concat => {
                let (Some((wa, _)), Some((wb, _))) = (a.ty.word(), b.ty.word()) else {
                    self.mismatch(sym, &a, &b, span, "two words");
                    return TExpr::error(span);
                };
                if u32::from(wa) + u32::from(wb) > MAX_WORD_WIDTH {
                    self.diags.push(
                        Diagnostic::error("E0232", format!("`::` would give a word of {} bits", u32::from(wa) + u32::from(wb)), span)
                            .with_label_message("words have at most 64 bits")
                            .with_help("select fewer bits of the operands before concatenating them"),
                    );
                    return TExpr::error(span);
                }
                (BinOp::Concat, word_ty(wa + wb, false))
            }
            BinaryOp::Union | BinaryOp::In => unreachable!("handled by the caller"),
            _ => {
                if a.ty != b.ty || a.ty.word().is_none() {
                    self.mismatch(sym, &a, &b, span, "operands of the same word type");
                    return TExpr::error(span);
                }
                match op {
                    BinaryOp::Eq => (BinOp::Eq, Ty::Bool),
                    BinaryOp::Ne => (BinOp::Ne, Ty::Bool),
                    BinaryOp::Lt => (BinOp::Lt, Ty::Bool),
                    BinaryOp::Le => (BinOp::Le, Ty::Bool),
                    BinaryOp::Gt => (BinOp::Gt, Ty::Bool),
                    BinaryOp::Ge => (BinOp::Ge, Ty::Bool),
                    BinaryOp::Add => (BinOp::Add, a.ty),
                    BinaryOp::Sub => (BinOp::Sub, a.ty),
                    BinaryOp::Mul => (BinOp::Mul, a.ty),
                    BinaryOp::Div => (BinOp::Div, a.ty),
                    BinaryOp::Mod => (BinOp::Mod, a.ty),
                    BinaryOp::And => (BinOp::And, a.ty),
                    BinaryOp::Or => (BinOp::Or, a.ty),
                    BinaryOp::Xor => (BinOp::Xor, a.ty),
                    BinaryOp::Xnor => (BinOp::Xnor, a.ty),
                    BinaryOp::Implies => (BinOp::Implies, a.ty),
                    _ => (BinOp::Iff, a.ty),
                }
            }
        };
        TExpr::new(TKind::Binary(bop, Box::new(a), Box::new(b)), ty, span)
    }

    /// `bool(w)` of a word other than `unsigned word[1]`.
    pub(crate) fn bad_word_conversion(&mut self, name: &str, t: &TExpr) {
        self.diags.push(
            Diagnostic::error("E0230", format!("`{name}` needs a boolean, an integer or an `unsigned word[1]`, found `{}`", t.ty), t.span)
                .with_label_message(format!("this is {}", crate::semantics::types::with_article(t.ty)))
                .with_help("compare the word instead (`w != 0ud8_0`), or select one bit: `bool(w[0 : 0])`"),
        );
    }

    /// `!w` and `-w`.
    pub(crate) fn word_unary(&mut self, op: UnOp, a: TExpr, span: Span) -> TExpr {
        let ty = a.ty;
        TExpr::new(TKind::Unary(op, Box::new(a)), ty, span)
    }

    /// `w[hi : lo]`.
    pub(crate) fn bit_select(&mut self, w: &Expr, hi: &Expr, lo: &Expr, span: Span, inst: InstId, ctx: Ctx) -> TExpr {
        let t = self.resolve(w, inst, ctx);
        if t.ty.is_error() {
            return t;
        }
        let Some((width, _)) = t.ty.word() else {
            self.diags.push(
                Diagnostic::error("E0231", format!("bit selection applies to words, found {}", t.ty), t.span)
                    .with_label_message(format!("this is {}", crate::semantics::types::with_article(t.ty)))
                    .with_help("only words have bits: declare the variable as `word[N]`"),
            );
            return TExpr::error(span);
        };
        let bound = |this: &mut Self, e: &Expr| match consteval::const_int(this.flat, inst, e, 0) {
            Ok(v) => Some(v),
            Err(_) => {
                this.diags.push(
                    Diagnostic::error("E0231", "the bounds of a bit selection must be constants", e.span)
                        .with_label_message("not a constant")
                        .with_help("write `w[high : low]` with integer constants (or constant DEFINEs); shift and select for a variable position"),
                );
                None
            }
        };
        let (Some(h), Some(l)) = (bound(self, hi), bound(self, lo)) else { return TExpr::error(span) };
        if !(0 <= l && l <= h && h < i64::from(width)) {
            self.diags.push(
                Diagnostic::error("E0231", format!("bit selection [{h} : {l}] is outside `{}`", t.ty), hi.span.to(lo.span))
                    .with_label_message(format!("needs {} ≥ high ≥ low ≥ 0", width - 1))
                    .with_help(format!("the bits of a {}-bit word are numbered {} (most significant) down to 0", width, width - 1)),
            );
            return TExpr::error(span);
        }
        let (h, l) = (h as u8, l as u8);
        TExpr::new(TKind::Builtin(Builtin::Select(h, l), vec![t]), word_ty(h - l + 1, false), span)
    }

    /// The word functions (`extend resize signed unsigned word1 sizeof uwconst swconst`);
    /// `None` for any other name.
    pub(crate) fn word_builtin(&mut self, f: &Ident, args: &[Expr], span: Span, inst: InstId, ctx: Ctx) -> Option<TExpr> {
        let name = f.name.as_str();
        let arity = match name {
            "extend" | "resize" | "uwconst" | "swconst" => 2,
            "signed" | "unsigned" | "word1" | "sizeof" => 1,
            _ => return None,
        };
        if args.len() != arity {
            self.diags.push(Diagnostic::error(
                "E0217",
                format!("`{name}` takes {arity} argument{}, {} given", if arity == 1 { "" } else { "s" }, args.len()),
                span,
            ));
            return Some(TExpr::error(span));
        }
        Some(match name {
            "uwconst" | "swconst" => self.word_constant(name == "swconst", &args[0], &args[1], span, inst),
            _ => {
                let t = self.resolve(&args[0], inst, ctx);
                if t.ty.is_error() {
                    return Some(TExpr::error(span));
                }
                let word = t.ty.word();
                let expected = match (name, word) {
                    ("word1", _) if t.ty == Ty::Bool => return Some(TExpr::new(TKind::Builtin(Builtin::Word1, vec![t]), word_ty(1, false), span)),
                    ("word1", _) => "a boolean",
                    ("signed", Some((w, false))) => return Some(TExpr::new(TKind::Builtin(Builtin::Signed, vec![t]), word_ty(w, true), span)),
                    ("signed", _) => "an unsigned word",
                    ("unsigned", Some((w, true))) => return Some(TExpr::new(TKind::Builtin(Builtin::Unsigned, vec![t]), word_ty(w, false), span)),
                    ("unsigned", _) => "a signed word",
                    ("sizeof", Some((w, _))) => return Some(TExpr::new(TKind::Const(Value::Int(i64::from(w))), Ty::Int, span)),
                    (_, Some((w, s))) => return Some(self.resize(name == "extend", t, w, s, &args[1], span, inst)),
                    _ => "a word",
                };
                self.diags.push(
                    Diagnostic::error("E0230", format!("`{name}` needs {expected}, found {}", t.ty), t.span)
                        .with_label_message(format!("this is {}", crate::semantics::types::with_article(t.ty)))
                        .with_help(match name {
                            "signed" | "unsigned" => "`signed(…)` applies to unsigned words and `unsigned(…)` to signed ones".to_string(),
                            "word1" => "`word1(b)` turns a boolean into an `unsigned word[1]`".to_string(),
                            _ => format!("`{name}` applies to words"),
                        }),
                );
                TExpr::error(span)
            }
        })
    }

    fn constant_arg(&mut self, e: &Expr, inst: InstId, what: &str) -> Option<i64> {
        match consteval::const_int(self.flat, inst, e, 0) {
            Ok(v) => Some(v),
            Err(_) => {
                self.diags.push(
                    Diagnostic::error("E0210", format!("{what} must be a constant integer"), e.span)
                        .with_label_message("not a constant")
                        .with_help("write an integer constant, or a DEFINE or parameter with a constant value"),
                );
                None
            }
        }
    }

    fn width_arg(&mut self, width: i64, span: Span, what: &str) -> Option<u8> {
        if (1..=i64::from(MAX_WORD_WIDTH)).contains(&width) {
            return Some(width as u8);
        }
        self.diags.push(
            Diagnostic::error("E0232", format!("{what} gives a word of {width} bits"), span)
                .with_label_message("words have 1 to 64 bits")
                .with_help("choose a width between 1 and 64"),
        );
        None
    }

    /// `extend(w, n)` (`n` more bits) or `resize(w, n)` (`n` bits).
    #[allow(clippy::too_many_arguments)]
    fn resize(&mut self, extend: bool, t: TExpr, width: u8, signed: bool, n: &Expr, span: Span, inst: InstId) -> TExpr {
        let what = if extend { "the number of bits to add" } else { "the new width" };
        let Some(n) = self.constant_arg(n, inst, what) else { return TExpr::error(span) };
        // `extend` by a negative number is an error (NuSMV), not a narrowing.
        let target = if !extend || n < 0 { n } else { i64::from(width) + n };
        let fname = if extend { "extend" } else { "resize" };
        let Some(to) = self.width_arg(target, span, &format!("`{fname}`")) else { return TExpr::error(span) };
        TExpr::new(TKind::Builtin(Builtin::Resize(to), vec![t]), word_ty(to, signed), span)
    }

    /// `uwconst(v, n)` / `swconst(v, n)`, folded to a word constant.
    fn word_constant(&mut self, signed: bool, value: &Expr, width: &Expr, span: Span, inst: InstId) -> TExpr {
        let (Some(v), Some(n)) = (self.constant_arg(value, inst, "the value"), self.constant_arg(width, inst, "the width")) else {
            return TExpr::error(span);
        };
        let name = if signed { "swconst" } else { "uwconst" };
        let Some(width) = self.width_arg(n, width.span, &format!("`{name}`")) else { return TExpr::error(span) };
        let (lo, hi) = if signed { (-(1i128 << (width - 1)), (1i128 << (width - 1)) - 1) } else { (0, i128::from(mask(width))) };
        if !(lo..=hi).contains(&i128::from(v)) {
            self.diags.push(
                Diagnostic::error(
                    "E0233",
                    format!("{v} is not representable as {} word[{width}]", if signed { "a signed" } else { "an unsigned" }),
                    value.span,
                )
                .with_label_message(format!("must lie in {lo}..{hi}"))
                .with_help("use a wider word or a smaller value"),
            );
            return TExpr::error(span);
        }
        TExpr::new(TKind::Const(Value::Word { bits: (v as u64) & mask(width), width, signed }), word_ty(width, signed), span)
    }
}
