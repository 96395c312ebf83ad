//! Printing values, states and lowered expressions in NuSMV syntax (for traces, proposition
//! names and diagnostics).
//!
//! Expressions are printed with the fewest parentheses NuSMV's precedence table allows; a lowered
//! `Table` is printed back as the `case` it came from.

use super::eval::{EXIT_INDEX, UNSET};
use crate::lowering::program::{BinOp, Builtin, Expr, LoweredProgram, System, UnOp, Value, VarId, Variable};
use std::fmt::Write;

/// The name tables needed to print values.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Names<'a> {
    pub symbols: &'a [String],
    pub exit_names: &'a [String],
}

impl<'a> Names<'a> {
    pub(crate) fn of(program: &'a LoweredProgram) -> Names<'a> {
        Names { symbols: &program.symbols, exit_names: &program.exit_names }
    }

    pub(crate) fn value(&self, v: Value) -> String {
        let mut s = String::new();
        self.write_value(&mut s, v);
        s
    }

    pub(crate) fn write_value(&self, out: &mut String, v: Value) {
        let mut name = |names: &[String], i: u32| match names.get(i as usize) {
            Some(name) => out.push_str(name),
            None => {
                let _ = write!(out, "#{i}");
            }
        };
        match v {
            Value::Bool(true) => out.push_str("TRUE"),
            Value::Bool(false) => out.push_str("FALSE"),
            Value::Int(i) => {
                let _ = write!(out, "{i}");
            }
            Value::Sym(s) => name(self.symbols, s.as_u32()),
            Value::Exit => out.push_str("EXIT"),
            Value::ExitName(x) => name(self.exit_names, x.as_u32()),
            Value::Word { bits, width, signed } => crate::ir::words::write_word(out, bits, width, signed),
        }
    }

    /// The value of variable `var` stored as index `idx` in a state vector.
    pub(crate) fn var_value(&self, var: &Variable, idx: u32) -> String {
        let mut s = String::new();
        self.write_var_value(&mut s, var, idx);
        s
    }

    /// [`Names::var_value`], appended to `out`.
    pub(crate) fn write_var_value(&self, out: &mut String, var: &Variable, idx: u32) {
        match idx {
            EXIT_INDEX => out.push_str("EXIT"),
            UNSET => out.push('?'),
            i if (i as usize) < var.domain.len() => self.write_value(out, var.domain.value(i as usize)),
            i => {
                let _ = write!(out, "#{i}");
            }
        }
    }

    /// `x = 1, state = s2` for the given variables of a state vector (all state variables when
    /// `only` is `None`; input variables are skipped).
    pub(crate) fn state(&self, system: &System, values: &[u32]) -> String {
        let mut out = String::new();
        for (i, var) in system.vars.iter().enumerate() {
            if var.kind == crate::ir::VarKind::Input || values.get(i) == Some(&UNSET) || crate::lowering::program::is_monitor(var) {
                continue;
            }
            if !out.is_empty() {
                out.push_str(", ");
            }
            out.push_str(&var.name);
            out.push_str(" = ");
            self.write_var_value(&mut out, var, values.get(i).copied().unwrap_or(UNSET));
        }
        if out.is_empty() {
            out.push_str("(no variables)");
        }
        out
    }

    /// An expression of `system` in NuSMV syntax.
    pub(crate) fn expr(&self, system: &System, e: &Expr) -> String {
        let mut out = String::new();
        self.write_expr(&mut out, system, e, LOWEST);
        out
    }

    fn write_expr(&self, out: &mut String, sys: &System, e: &Expr, context: u8) {
        let var_name = |v: VarId| sys.vars.get(v.index()).map_or_else(|| format!("#var{v}"), |x| x.name.clone());
        let prec = precedence(e);
        let paren = prec > context;
        if paren {
            out.push('(');
        }
        match e {
            Expr::Const(v) => self.write_value(out, *v),
            Expr::Var(v) => out.push_str(&var_name(*v)),
            Expr::Next(v) => {
                let _ = write!(out, "next({})", var_name(*v));
            }
            Expr::Exited => out.push_str("EXITED"),
            // `paren` above already used the inner expression's precedence.
            Expr::Shared(inner) => self.write_expr(out, sys, inner, LOWEST),
            Expr::Unary(op, a) => {
                out.push_str(if *op == UnOp::Not { "!" } else { "-" });
                self.write_expr(out, sys, a, prec);
            }
            Expr::Binary(op, a, b) => {
                // Left-associative except `->`.
                let (lctx, rctx) = if *op == BinOp::Implies { (prec - 1, prec) } else { (prec, prec - 1) };
                self.write_expr(out, sys, a, lctx);
                let _ = write!(out, " {} ", binop_text(*op));
                self.write_expr(out, sys, b, rctx);
            }
            Expr::Ite(c, a, b) => {
                self.write_expr(out, sys, c, prec - 1);
                out.push_str(" ? ");
                self.write_expr(out, sys, a, prec - 1);
                out.push_str(" : ");
                self.write_expr(out, sys, b, prec);
            }
            Expr::Case { branches, .. } => {
                out.push_str("case ");
                for (c, v) in branches {
                    self.write_expr(out, sys, c, LOWEST);
                    out.push_str(" : ");
                    self.write_expr(out, sys, v, LOWEST);
                    out.push_str("; ");
                }
                out.push_str("esac");
            }
            Expr::Table { var, entries, fallback, .. } => {
                out.push_str("case ");
                for (i, entry) in entries.iter().enumerate() {
                    if let (Some(v), Some(var)) = (entry, sys.vars.get(var.index())) {
                        let _ = write!(out, "{} = {} : ", var.name, self.var_value(var, i as u32));
                        self.write_expr(out, sys, v, LOWEST);
                        out.push_str("; ");
                    }
                }
                if let Some(f) = fallback {
                    out.push_str("TRUE : ");
                    self.write_expr(out, sys, f, LOWEST);
                    out.push_str("; ");
                }
                out.push_str("esac");
            }
            Expr::Set(items) => {
                out.push('{');
                for (i, item) in items.iter().enumerate() {
                    if i > 0 {
                        out.push_str(", ");
                    }
                    self.write_expr(out, sys, item, LOWEST);
                }
                out.push('}');
            }
            Expr::Range(lo, hi) => {
                self.write_expr(out, sys, lo, prec - 1);
                out.push_str(" .. ");
                self.write_expr(out, sys, hi, prec - 1);
            }
            Expr::Builtin(Builtin::Select(hi, lo), args) => {
                if let Some(a) = args.first() {
                    self.write_expr(out, sys, a, 0);
                }
                let _ = write!(out, "[{hi} : {lo}]");
            }
            Expr::Builtin(Builtin::Resize(width), args) => {
                out.push_str("resize(");
                if let Some(a) = args.first() {
                    self.write_expr(out, sys, a, LOWEST);
                }
                let _ = write!(out, ", {width})");
            }
            Expr::Builtin(f, args) => {
                out.push_str(builtin_text(*f));
                out.push('(');
                for (i, a) in args.iter().enumerate() {
                    if i > 0 {
                        out.push_str(", ");
                    }
                    self.write_expr(out, sys, a, LOWEST);
                }
                out.push(')');
            }
        }
        if paren {
            out.push(')');
        }
    }
}

const LOWEST: u8 = 100;

/// A structural hash of an expression (equal expressions hash equally), for interning atoms.
pub(crate) fn expr_hash(e: &Expr) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut h = rustc_hash::FxHasher::default();
    let mut stack = vec![e];
    while let Some(e) = stack.pop() {
        std::mem::discriminant(e).hash(&mut h);
        match e {
            Expr::Const(v) => v.hash(&mut h),
            Expr::Var(v) | Expr::Next(v) => v.hash(&mut h),
            Expr::Exited => {}
            // One DEFINE instance's body is one `Arc`: hashing the pointer keeps this linear.
            Expr::Shared(inner) => std::sync::Arc::as_ptr(inner).hash(&mut h),
            Expr::Unary(op, a) => {
                op.hash(&mut h);
                stack.push(a);
            }
            Expr::Binary(op, a, b) => {
                op.hash(&mut h);
                stack.push(a);
                stack.push(b);
            }
            Expr::Range(a, b) => {
                stack.push(a);
                stack.push(b);
            }
            Expr::Ite(c, a, b) => stack.extend([&**c, &**a, &**b]),
            Expr::Case { branches, span } => {
                span.hash(&mut h);
                branches.len().hash(&mut h);
                for (c, v) in branches {
                    stack.push(c);
                    stack.push(v);
                }
            }
            Expr::Table { var, entries, fallback, span } => {
                (var, span, entries.len(), fallback.is_some()).hash(&mut h);
                for entry in entries {
                    entry.is_some().hash(&mut h);
                    stack.extend(entry.as_ref());
                }
                stack.extend(fallback.as_deref());
            }
            Expr::Set(items) | Expr::Builtin(_, items) => {
                if let Expr::Builtin(f, _) = e {
                    f.hash(&mut h);
                }
                items.len().hash(&mut h);
                stack.extend(items.iter());
            }
        }
    }
    h.finish()
}

/// Binding strength: smaller binds tighter (NuSMV 2.6 manual's table).
fn precedence(e: &Expr) -> u8 {
    match e {
        Expr::Unary(..) => 1,
        Expr::Binary(op, ..) => match op {
            BinOp::Concat => 2,
            BinOp::Mul | BinOp::Div | BinOp::Mod => 3,
            BinOp::Add | BinOp::Sub => 4,
            BinOp::Shl | BinOp::Shr => 5,
            BinOp::In => 8,
            BinOp::Eq | BinOp::Ne | BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge => 9,
            BinOp::And => 10,
            BinOp::Or | BinOp::Xor | BinOp::Xnor => 11,
            BinOp::Iff => 13,
            BinOp::Implies => 14,
        },
        Expr::Range(..) => 6,
        Expr::Ite(..) => 12,
        Expr::Shared(inner) => precedence(inner),
        _ => 0,
    }
}

fn binop_text(op: BinOp) -> &'static str {
    match op {
        BinOp::And => "&",
        BinOp::Or => "|",
        BinOp::Xor => "xor",
        BinOp::Xnor => "xnor",
        BinOp::Implies => "->",
        BinOp::Iff => "<->",
        BinOp::Eq => "=",
        BinOp::Ne => "!=",
        BinOp::Lt => "<",
        BinOp::Le => "<=",
        BinOp::Gt => ">",
        BinOp::Ge => ">=",
        BinOp::Add => "+",
        BinOp::Sub => "-",
        BinOp::Mul => "*",
        BinOp::Div => "/",
        BinOp::Mod => "mod",
        BinOp::Shl => "<<",
        BinOp::Shr => ">>",
        BinOp::In => "in",
        BinOp::Concat => "::",
    }
}

fn builtin_text(f: Builtin) -> &'static str {
    match f {
        Builtin::Abs => "abs",
        Builtin::Min => "min",
        Builtin::Max => "max",
        Builtin::ToInt => "toint",
        Builtin::Bool => "bool",
        Builtin::Count => "count",
        Builtin::Resize(_) => "resize",
        Builtin::Signed => "signed",
        Builtin::Unsigned => "unsigned",
        Builtin::Word1 => "word1",
        Builtin::Select(..) => "select",
    }
}
