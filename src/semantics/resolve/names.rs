//! Name lookup for the resolver: what a name, a field `a.b` or an index `a[i]` denotes in an
//! instance (a variable, a DEFINE, a sub-instance, an array of them, a parameter's actual, a
//! symbolic constant), array bounds, and DEFINE bodies resolved on first use with cycle
//! detection (E0305) and the flags their bodies carry (`next`, inputs, `EXITED`).

use super::{DefState, Flags, Resolver};
use crate::diagnostics::Diagnostic;
use crate::ir::{BinOp, Value, VarKind};
use crate::semantics::checked::{DefineId, TExpr, TKind};
use crate::semantics::consteval;
use crate::semantics::context::Ctx;
use crate::semantics::flattened::{DefBody, InstId, Member};
use crate::semantics::suggest::closest;
use crate::semantics::types::{Ty, unify};
use crate::source::Span;
use crate::syntax::ast::{Expr, ExprKind};

/// What a name or path denotes.
pub(super) enum Target {
    Expr(TExpr),
    Instance(InstId),
    Array(u32),
    Broken,
}

impl Resolver<'_, '_> {
    pub(super) fn target(&mut self, e: &Expr, inst: InstId, ctx: Ctx) -> Target {
        if self.flat.has_compound
            && matches!(e.kind, ExprKind::Dot(..) | ExprKind::Index(..))
            && let Some((owner, m)) = crate::semantics::paths::compound_key(self.flat, inst, e)
        {
            return self.member_target(m, owner, e.span, ctx);
        }
        match &e.kind {
            ExprKind::Name(name) => self.name_target(name, e.span, inst, ctx),
            ExprKind::Dot(base, field) => match self.target(base, inst, ctx) {
                Target::Instance(j) => match self.flat.instances[j].members.get(field.name.as_str()) {
                    Some(&(m, _)) => self.member_target(m, j, field.span, ctx),
                    None => {
                        let i = &self.flat.instances[j];
                        let module = &self.table.modules[i.module].name.name;
                        let mut d =
                            Diagnostic::error("E0105", format!("instance `{}` of module `{module}` has no member `{}`", i.path, field.name), field.span)
                                .with_label_message("unknown member");
                        if let Some(s) = closest(&field.name, i.members.keys().map(|k| k.as_ref())) {
                            d = d.with_help(format!("did you mean `{s}`?"));
                        }
                        self.diags.push(d);
                        Target::Broken
                    }
                },
                Target::Broken => Target::Broken,
                _ => {
                    self.diags.push(
                        Diagnostic::error("E0105", format!("cannot access `.{}`: not a module instance", field.name), base.span)
                            .with_label_message("not a module instance"),
                    );
                    Target::Broken
                }
            },
            ExprKind::Index(..) => {
                // `m[i][j]…`: the innermost non-index base, then its indices in order.
                let mut indices = vec![];
                let mut base = e;
                while let ExprKind::Index(b, index) = &base.kind {
                    indices.push(&**index);
                    base = b;
                }
                indices.reverse();
                self.index_chain(base, &indices, e.span, inst, ctx)
            }
            _ => Target::Expr(self.resolve(e, inst, ctx)),
        }
    }

    /// `base[i1][i2]…`: each index applied to the array the previous ones selected.
    pub(super) fn index_chain(&mut self, base: &Expr, indices: &[&Expr], span: Span, inst: InstId, ctx: Ctx) -> Target {
        let Some((&last, init)) = indices.split_last() else { return self.target(base, inst, ctx) };
        let Some((&first, rest)) = indices.split_first() else { return Target::Broken };
        match self.target(base, inst, ctx) {
            Target::Array(a) if init.is_empty() => self.index_target(a, last, span, inst, ctx),
            Target::Array(a) => self.index_array_of_arrays(a, first, rest, span, inst, ctx),
            Target::Broken => Target::Broken,
            _ => {
                self.diags.push(Diagnostic::error("E0106", "only arrays can be indexed", base.span).with_label_message("not an array"));
                Target::Broken
            }
        }
    }

    /// `a[i][rest…]` where the elements of `a` are arrays: each element's `[rest…]`.
    pub(super) fn index_array_of_arrays(&mut self, a: u32, index: &Expr, rest: &[&Expr], span: Span, inst: InstId, ctx: Ctx) -> Target {
        self.select(a, index, span, inst, ctx, |this, m| {
            let Member::Array(sub) = m else {
                this.diags.push(Diagnostic::error("E0106", "only arrays can be indexed", span).with_label_message("not an array"));
                return Target::Broken;
            };
            match rest.split_first() {
                Some((&next, [])) => this.index_target(sub, next, span, inst, ctx),
                Some((&next, more)) => this.index_array_of_arrays(sub, next, more, span, inst, ctx),
                None => Target::Array(sub),
            }
        })
    }

    /// `a[i]`: the element `i` selects.
    pub(super) fn index_target(&mut self, a: u32, index: &Expr, span: Span, inst: InstId, ctx: Ctx) -> Target {
        self.select(a, index, span, inst, ctx, |this, m| this.member_target(m, inst, span, ctx))
    }

    /// The element of array `a` at `index`, read by `element`: with a constant index that
    /// element (E0107 when out of bounds); with a variable one `case i = lo : e(lo); … esac`
    /// over every element, each of which must be a value of one type.
    fn select(&mut self, a: u32, index: &Expr, span: Span, inst: InstId, ctx: Ctx, mut element: impl FnMut(&mut Self, Member) -> Target) -> Target {
        let info = &self.flat.arrays[a as usize];
        let (lo, elems) = (info.lo, info.elems.clone());
        let n = elems.len() as i64;
        if let Ok(k) = consteval::const_int(self.flat, inst, index, 0) {
            let Some(&m) = k.checked_sub(lo).filter(|i| (0..n).contains(i)).and_then(|i| elems.get(i as usize)) else {
                self.diags.push(
                    Diagnostic::error("E0107", format!("index {k} is out of the array bounds {lo}..{}", lo + n - 1), index.span)
                        .with_label_message("out of bounds"),
                );
                return Target::Broken;
            };
            return element(self, m);
        }
        let idx = self.resolve(index, inst, ctx);
        self.expect_int(&idx, "[]");
        if !self.index_in_bounds(&idx, lo, n) {
            return Target::Broken;
        }
        let mut branches = vec![];
        let mut ty = Ty::Error;
        for (k, &m) in elems.iter().enumerate() {
            let elem = match element(self, m) {
                Target::Expr(t) => t,
                Target::Broken => return Target::Broken,
                _ => {
                    self.diags.push(
                        Diagnostic::error("E0106", "a variable index must select a value, not an array", index.span)
                            .with_help("give as many indices as the array has dimensions"),
                    );
                    return Target::Broken;
                }
            };
            ty = match self.element_type(ty, &elem, index.span) {
                Some(t) => t,
                None => return Target::Broken,
            };
            let value = TExpr::new(TKind::Const(Value::Int(lo + k as i64)), Ty::Int, index.span);
            let cond = TExpr::new(TKind::Binary(BinOp::Eq, Box::new(idx.clone()), Box::new(value)), Ty::Bool, index.span);
            branches.push((cond, elem));
        }
        Target::Expr(TExpr::new(TKind::Case(branches), ty, span))
    }

    /// A variable index must stay within the array's bounds for every value it may take (NuSMV
    /// 2.5.4: "array access out of bounds"), when [`int_bounds`] knows its values.
    pub(super) fn index_in_bounds(&mut self, idx: &TExpr, lo: i64, n: i64) -> bool {
        let hi = lo + n - 1;
        match crate::semantics::index_bounds::int_bounds(self.flat, idx) {
            Some((a, b)) if a < lo || b > hi => {
                self.diags.push(
                    Diagnostic::error(
                        "E0107",
                        format!("array index may be out of bounds: it ranges over {a}..{b}, the array's indices are {lo}..{hi}"),
                        idx.span,
                    )
                    .with_label_message("may be out of bounds")
                    .with_help(format!(
                        "keep the index within {lo}..{hi}: narrow its type or guard it (NuSMV 2.5.4 rejects this too: \"array access out of bounds\")"
                    )),
                );
                false
            }
            _ => true,
        }
    }

    /// The type of `a[i]` with a variable `i` so far (`ty`) joined with one more element's: the
    /// elements of an array DEFINE must have one type (NuSMV: "Type System Violation").
    pub(super) fn element_type(&mut self, ty: Ty, elem: &TExpr, index: Span) -> Option<Ty> {
        if ty == Ty::Error || elem.ty == Ty::Error {
            return Some(if ty == Ty::Error { elem.ty } else { ty });
        }
        match unify(ty, elem.ty, true) {
            Some(t) => Some(t),
            None => {
                self.diags.push(
                    Diagnostic::error("E0203", format!("the elements of this array have incompatible types {ty} and {}", elem.ty), index)
                        .with_label_message("a variable index selects any element")
                        .with_help("give every element of an array DEFINE the same type"),
                );
                None
            }
        }
    }

    pub(super) fn name_target(&mut self, name: &str, span: Span, inst: InstId, ctx: Ctx) -> Target {
        let i = &self.flat.instances[inst];
        if let Some(&(m, _)) = i.members.get(name) {
            if self.flat.module_symbols.get(&i.module).is_some_and(|s| s.contains(name)) {
                self.diags.push(
                    Diagnostic::error("E0103", format!("`{name}` is both a symbolic constant and a declared name"), span)
                        .with_label_message("ambiguous")
                        .with_help("rename the variable/DEFINE or the enumeration value; NuSMV rejects this ambiguity too"),
                );
                return Target::Broken;
            }
            return self.member_target(m, inst, span, ctx);
        }
        match name {
            "self" => return Target::Instance(inst),
            "EXIT" if self.is_procedure => {
                self.uses_exit_value = true;
                return Target::Expr(TExpr::new(TKind::Const(Value::Exit), Ty::Exit, span));
            }
            "EXITED" => {
                return match self.exited(span, ctx) {
                    Some(t) => {
                        self.diags.push(
                            Diagnostic::error("E0404", "`EXITED` must be compared with an exit name", span)
                                .with_help("write `EXITED = name` or `EXITED in {a, b}`"),
                        );
                        drop(t);
                        Target::Broken
                    }
                    None => Target::Broken,
                };
            }
            _ => {}
        }
        if let Some(&sym) = self.flat.symbols.get(name) {
            return Target::Expr(TExpr::new(TKind::Const(Value::Sym(sym)), Ty::Sym, span));
        }
        if ctx.spec && self.label_names.is_some_and(|l| l.contains(name)) {
            self.foreign_label_uses.push((name.to_string(), span));
            return Target::Expr(TExpr::new(TKind::ForeignLabel(name.to_string()), Ty::Bool, span));
        }
        let candidates = i.members.keys().map(|k| k.as_ref()).chain(self.flat.symbols.keys().map(|k| k.as_ref()));
        let mut d = Diagnostic::error("E0101", format!("`{name}` is not declared"), span).with_label_message("undeclared name");
        d = match closest(name, candidates) {
            Some(s) => d.with_help(format!("did you mean `{s}`?")),
            None if name == "EXIT" => d.with_help("`EXIT` is only a value in procedure modules (modules with CALL/EXIT)"),
            None => d.with_help("declare it in VAR, DEFINE or as an enumeration value"),
        };
        self.diags.push(d);
        Target::Broken
    }

    pub(super) fn member_target(&mut self, m: Member, inst: InstId, span: Span, ctx: Ctx) -> Target {
        match m {
            Member::Var(v) => {
                let var = &self.flat.vars[v.index()];
                if var.kind == VarKind::Input && (!ctx.input || (ctx.in_next && !ctx.next_input)) {
                    let where_ = if ctx.in_next { "inside `next(...)`" } else { ctx.where_ };
                    self.diags.push(
                        Diagnostic::error("E0206", format!("input variable `{}` is not allowed {where_}", var.name), span)
                            .with_label_message("IVAR")
                            .with_help("input variables may be read in TRANS and on the right of `next(x) :=`"),
                    );
                    return Target::Broken;
                }
                Target::Expr(TExpr::new(TKind::Var(v), self.flat.var_ty[v.index()], span))
            }
            Member::Define(d) => {
                let (ty, flags) = self.ensure_define(d, span);
                let name = &self.flat.defines[d].name;
                if flags.next && (!ctx.next || ctx.in_next) {
                    let (code, msg) = if ctx.in_next {
                        ("E0205", format!("DEFINE `{name}` uses `next` and cannot be used inside `next(...)`"))
                    } else {
                        ("E0204", format!("DEFINE `{name}` uses `next`, which is not allowed {}", ctx.where_))
                    };
                    self.diags.push(Diagnostic::error(code, msg, span));
                    return Target::Broken;
                }
                if let Some(v) = flags.input
                    && (!ctx.input || ctx.in_next)
                {
                    let where_ = if ctx.in_next { "inside `next(...)`" } else { ctx.where_ };
                    let input = &self.flat.vars[v.index()].name;
                    let help = if Some(v) == self.flat.selector {
                        "`running` is the scheduler's input for the next step; with a FAIRNESS constraint on `running` it becomes part of the state (the process that made the last step) and may be used here"
                    } else {
                        "input variables may be read in TRANS and on the right of `next(x) :=`"
                    };
                    self.diags.push(
                        Diagnostic::error("E0206", format!("DEFINE `{name}` reads input variable `{input}`, which is not allowed {where_}"), span)
                            .with_help(help),
                    );
                    return Target::Broken;
                }
                if flags.exited && !ctx.exited {
                    self.diags.push(Diagnostic::error("E0403", format!("DEFINE `{name}` uses `EXITED`, which is not allowed {}", ctx.where_), span));
                    return Target::Broken;
                }
                Target::Expr(TExpr::new(TKind::Define(d), ty, span))
            }
            Member::Instance(j) => Target::Instance(j),
            Member::Array(a) => Target::Array(a),
            Member::Param(k) => {
                let i = &self.flat.instances[inst];
                let (Some(p), Some(actual)) = (i.parent, i.args.get(k)) else { return Target::Broken };
                let actual: &Expr = actual;
                if self.params.contains(&(inst, k)) {
                    let module = self.table.modules[i.module];
                    let name = &module.params[k].name;
                    self.diags.push(
                        Diagnostic::error("E0115", format!("parameter `{name}` of instance `{}` is defined in terms of itself", i.path), actual.span)
                            .with_label_message("this argument refers back to the parameter")
                            .with_help("pass a variable or an expression that does not go through the parameter itself"),
                    );
                    return Target::Broken;
                }
                self.params.push((inst, k));
                let t = self.target(actual, p, ctx);
                self.params.pop();
                t
            }
            Member::Broken => Target::Broken,
        }
    }

    pub(super) fn ensure_define(&mut self, d: DefineId, use_span: Span) -> (Ty, Flags) {
        match &self.defines[d] {
            DefState::Done(t, f) => return (t.ty, *f),
            DefState::Active => {
                let pos = self.stack.iter().position(|&x| x == d).unwrap_or(0);
                let mut names: Vec<&str> = self.stack[pos..].iter().map(|&x| self.flat.defines[x].name.as_str()).collect();
                names.push(&self.flat.defines[d].name);
                let slot = &self.flat.defines[d];
                self.diags.push(
                    Diagnostic::error("E0305", format!("DEFINE `{}` is defined in terms of itself", slot.name), slot.span)
                        .with_label_message("circular definition")
                        .with_secondary(use_span, "used here")
                        .with_note(format!("cycle: {}", names.join(" -> ")))
                        .with_help("a DEFINE is a macro; use a variable with `next()` for recursive definitions"),
                );
                return (Ty::Error, Flags::default());
            }
            DefState::Todo => {}
        }
        self.defines[d] = DefState::Active;
        self.stack.push(d);
        let slot = &self.flat.defines[d];
        let saved_depth = self.depth;
        let t = match slot.body {
            DefBody::Ast(body) => self.resolve(body, slot.inst, Ctx::DEFINE),
            DefBody::Running(k) => self.flat.running(k, slot.span).unwrap_or_else(|| TExpr::error(slot.span)),
        };
        self.depth = saved_depth;
        let flags = self.flags_of(&t);
        self.stack.pop();
        let ty = t.ty;
        self.defines[d] = DefState::Done(t, flags);
        (ty, flags)
    }

    pub(super) fn flags_of(&self, t: &TExpr) -> Flags {
        let mut f = Flags::default();
        let mut stack = vec![t];
        while let Some(t) = stack.pop() {
            match &t.kind {
                TKind::Next(_) => f.next = true,
                TKind::Exited => f.exited = true,
                TKind::Var(v) if self.flat.vars[v.index()].kind == VarKind::Input => f.input = f.input.or(Some(*v)),
                TKind::Define(d) => {
                    if let DefState::Done(_, g) = &self.defines[*d] {
                        f.next |= g.next;
                        f.exited |= g.exited;
                        f.input = f.input.or(g.input);
                    }
                }
                _ => {}
            }
            t.for_each_child(|c| stack.push(c));
        }
        f
    }
}
