//! Flattening: the instance tree of one system (the flat model or one procedure module).
//!
//! Starting from the root module, every `VAR` instance of a non-procedure module is
//! instantiated recursively with a qualified path (`proc1`, `a.b`), as NuSMV's
//! `flatten_hierarchy` does. Each instance gets a member table (variables, DEFINEs, sub-instances,
//! arrays, parameters) in the single namespace NuSMV uses for them. Variables get their final
//! qualified names (`proc1.state`, `a[2]`) and domains (range bounds are evaluated as constant
//! expressions here). `process` instances get a process index; when there are processes, the
//! `_process_selector_` variable and the `running` DEFINEs are added. The selector is an input
//! variable, as in NuSMV, unless a FAIRNESS constraint mentions `running`: fairness in xmv-rs is
//! over states, so then the selector becomes a state variable holding the process that made the
//! last step (initially `main`), and `next(x)` of process k is guarded by
//! `next(_process_selector_) = k`. "Process k runs infinitely often" means the same on both
//! encodings; only traces differ (the selector is shown with the state).
//!
//! Errors already reported by [`super::modules`] (unknown module, procedure instance, arity,
//! cycles) leave a [`Member::Broken`] so later uses do not cascade.

use crate::diagnostics::Diagnostic;
use crate::ir::id::IdVec;
use crate::ir::{Domain, SymId, Value, VarId, Variable};
use crate::semantics::consteval;
pub(crate) use crate::semantics::flattened::{ArrayInfo, DefBody, DefineSlot, Flattened, InstId, Instance, Member, domain_type};
use crate::semantics::interner::Interner;
use crate::semantics::modules::{ModId, ModuleTable};
use crate::semantics::paths;
use crate::semantics::types::Ty;
use crate::source::Span;
use crate::syntax::ast::{EnumValue, Expr, ExprKind, Section, TypeSpec, VarKind};
use crate::syntax::words::MAX_WORD_WIDTH;
use rustc_hash::{FxHashMap, FxHashSet};
use std::borrow::Cow;

/// Largest number of values of a range variable, and of elements of an array.
pub(crate) const MAX_DOMAIN: i64 = 1 << 24;
const MAX_ARRAY: i64 = 1 << 20;

/// The width of a declared word variable (`word[N]`), checked: 1..=64 as in NuSMV.
pub(crate) fn variable_word(width: i64, signed: bool, span: Span, diags: &mut Vec<Diagnostic>) -> Option<(u8, bool)> {
    if !(1..=i64::from(MAX_WORD_WIDTH)).contains(&width) {
        diags.push(
            Diagnostic::error("E0232", format!("word width {width} is out of range"), span)
                .with_label_message("a word has 1 to 64 bits")
                .with_help("write the width as a constant between 1 and 64, e.g. `word[8]`"),
        );
        return None;
    }
    Some((width as u8, signed))
}

pub(crate) struct Flattener<'a, 't> {
    pub table: &'t ModuleTable<'a>,
    pub syms: &'t mut Interner<SymId>,
    pub diags: &'t mut Vec<Diagnostic>,
    pub is_procedure: bool,
    pub out: Flattened<'a>,
    stack: Vec<ModId>,
    /// Declarations named by a path, declared once the instance tree is complete.
    pending: Vec<(InstId, &'a str, Member, Span)>,
}

/// Flattens the instance tree rooted at `root`.
pub(crate) fn flatten<'a>(table: &ModuleTable<'a>, root: ModId, is_procedure: bool, syms: &mut Interner<SymId>, diags: &mut Vec<Diagnostic>) -> Flattened<'a> {
    let out = Flattened {
        instances: IdVec::new(),
        vars: vec![],
        var_ty: vec![],
        var_inst: vec![],
        defines: IdVec::new(),
        arrays: vec![],
        processes: vec![],
        selector: None,
        selector_in_state: false,
        symbols: FxHashMap::default(),
        module_symbols: FxHashMap::default(),
        has_compound: false,
    };
    let mut f = Flattener { table, syms, diags, is_procedure, out, stack: vec![], pending: vec![] };
    f.instantiate(root, String::new(), None, &[], 0);
    f.declare_paths();
    if !f.out.processes.is_empty() {
        f.out.selector_in_state = f.fairness_mentions_running();
        f.add_process_selector();
    }
    f.out
}

impl<'a, 't> Flattener<'a, 't> {
    fn instantiate(&mut self, module: ModId, path: String, parent: Option<InstId>, args: &'a [Expr], process: u32) -> InstId {
        let id = self.out.instances.next_id();
        let m = self.table.modules[module];
        // Sized for every declaration up front (a big procedure has thousands of DEFINEs).
        let declared = m.params.len()
            + (m.sections.iter())
                .map(|s| match s {
                    Section::Define { defs, .. } => defs.len(),
                    Section::Var { decls, .. } => decls.len(),
                    _ => 0,
                })
                .sum::<usize>();
        let members = FxHashMap::with_capacity_and_hasher(declared, Default::default());
        self.out.instances.push(Instance { module, path, parent, args, members, process });
        self.stack.push(module);
        for (i, p) in m.params.iter().enumerate() {
            self.declare(id, &p.name, Member::Param(i), p.span);
        }
        self.collect_symbols(module);
        // DEFINEs first so range bounds and array bounds may refer to them.
        for s in &m.sections {
            if let Section::Define { defs, .. } = s {
                for d in defs {
                    let name = self.out.qualified(id, &d.name.name);
                    let member = self.define_member(id, name, &d.expr, d.name.span);
                    self.declare_or_defer(id, &d.name.name, member, d.name.span);
                }
            }
        }
        let mut children = vec![];
        for s in &m.sections {
            if let Section::Var { kind, decls, .. } = s {
                for d in decls {
                    let qualified = self.out.qualified(id, &d.name.name);
                    let member = match &d.ty {
                        TypeSpec::Instance { span, .. } if paths::is_path(&d.name.name) => {
                            self.diags.push(
                                Diagnostic::error("E0116", format!("a module instance cannot be named by the path `{}`", d.name.name), d.name.span)
                                    .with_label_message("path name")
                                    .with_secondary(*span, "module instance")
                                    .with_help("name instances with a plain identifier; paths may name variables and DEFINEs"),
                            );
                            Member::Broken
                        }
                        TypeSpec::Instance { module: target, args, process: is_process, span } => {
                            self.instance_member(id, *kind, &qualified, target, args, *is_process, *span, &mut children)
                        }
                        ty => self.data_member(id, *kind, qualified, ty, d.name.span),
                    };
                    self.declare_or_defer(id, &d.name.name, member, d.name.span);
                }
            }
        }
        for (slot, target, path, args, proc_index) in children {
            let child = self.instantiate(target, path, Some(id), args, proc_index);
            if let Some((Member::Broken, s)) = self.out.instances[id].members.get(slot.as_str()).copied() {
                self.out.instances[id].members.insert(Cow::Owned(slot), (Member::Instance(child), s));
            }
        }
        self.stack.pop();
        id
    }

    #[allow(clippy::too_many_arguments)]
    fn instance_member(
        &mut self,
        id: InstId,
        kind: VarKind,
        qualified: &str,
        target: &crate::syntax::ast::Ident,
        args: &'a [Expr],
        is_process: bool,
        span: Span,
        children: &mut Vec<(String, ModId, String, &'a [Expr], u32)>,
    ) -> Member {
        if kind != VarKind::State {
            self.diags.push(
                Diagnostic::error("E0310", "module instances must be declared in VAR", span)
                    .with_label_message(if kind == VarKind::Input { "instance declared in IVAR" } else { "instance declared in FROZENVAR" })
                    .with_help("move the instance to a VAR section"),
            );
            return Member::Broken;
        }
        let Some(t) = self.table.get(&target.name) else { return Member::Broken };
        let ok = !self.table.is_procedure[t] && self.table.modules[t].params.len() == args.len() && !self.stack.contains(&t);
        if !ok {
            return Member::Broken;
        }
        let mut process = self.out.instances[id].process;
        if is_process {
            if self.is_procedure {
                self.diags.push(
                    Diagnostic::error("E0408", "processes are not supported inside procedure modules", span)
                        .with_help("remove `process`; a procedure module is one sequential state machine"),
                );
            } else {
                self.out.processes.push(InstId::from_u32(u32::MAX)); // patched once the child exists
                process = self.out.processes.len() as u32;
            }
        }
        let local = qualified.rsplit('.').next().unwrap_or(qualified).to_string();
        children.push((local, t, qualified.to_string(), args, process));
        // Registered as Broken until the child is built, then replaced.
        Member::Broken
    }

    /// A DEFINE named `name` (qualified) with body `body`: an array DEFINE `[e0, e1, …]` (NuSMV
    /// 2.5) becomes an array indexed from 0 whose elements are DEFINEs `name[0]`, `name[1]`, …
    /// (or arrays again, for `[[…], […]]`), so that indexing works as for arrays of variables.
    fn define_member(&mut self, id: InstId, name: String, body: &'a Expr, span: Span) -> Member {
        if let ExprKind::Array(elems) = &body.kind {
            let elems = elems.iter().enumerate().map(|(i, e)| self.define_member(id, format!("{name}[{i}]"), e, span)).collect();
            let aid = self.out.arrays.len() as u32;
            self.out.arrays.push(ArrayInfo { lo: 0, elems });
            return Member::Array(aid);
        }
        Member::Define(self.out.defines.push(DefineSlot { name, inst: id, body: DefBody::Ast(body), span }))
    }

    fn data_member(&mut self, id: InstId, kind: VarKind, qualified: String, ty: &TypeSpec, span: Span) -> Member {
        if let TypeSpec::Array { lo, hi, elem, span: arr_span } = ty {
            let (Some(lo), Some(hi)) = (self.const_bound(id, lo), self.const_bound(id, hi)) else { return Member::Broken };
            let problem = if lo > hi {
                Some(("empty", "the lower bound must not exceed the upper bound".to_string()))
            } else if hi.checked_sub(lo).is_none_or(|n| n >= MAX_ARRAY) {
                Some(("too large", format!("arrays have at most {MAX_ARRAY} elements")))
            } else {
                None
            };
            if let Some((what, help)) = problem {
                self.diags.push(Diagnostic::error("E0210", format!("array bounds {lo}..{hi} are {what}"), *arr_span).with_help(help));
                return Member::Broken;
            }
            if matches!(**elem, TypeSpec::Instance { .. }) {
                self.diags
                    .push(Diagnostic::error("E0211", "arrays of module instances are not supported", *arr_span).with_help("declare the instances one by one"));
                return Member::Broken;
            }
            let elems = (lo..=hi).map(|i| self.data_member(id, kind, format!("{qualified}[{i}]"), elem, span)).collect();
            let aid = self.out.arrays.len() as u32;
            self.out.arrays.push(ArrayInfo { lo, elems });
            return Member::Array(aid);
        }
        let Some(domain) = self.domain(id, ty) else { return Member::Broken };
        let v = VarId::new(self.out.vars.len());
        self.out.var_ty.push(domain_type(&domain));
        self.out.vars.push(Variable { name: qualified, domain, kind, span });
        self.out.var_inst.push(id);
        Member::Var(v)
    }

    fn domain(&mut self, id: InstId, ty: &TypeSpec) -> Option<Domain> {
        match ty {
            TypeSpec::Boolean(_) => Some(Domain::Boolean),
            TypeSpec::Range { lo, hi, span } => {
                let (lo, hi) = (self.const_bound(id, lo)?, self.const_bound(id, hi)?);
                if lo > hi {
                    self.diags.push(
                        Diagnostic::error("E0210", format!("the range {lo}..{hi} is empty"), *span)
                            .with_help("the lower bound must not exceed the upper bound"),
                    );
                    return None;
                }
                if hi.checked_sub(lo).is_none_or(|n| n >= MAX_DOMAIN) {
                    self.diags.push(
                        Diagnostic::error("E0210", format!("the range {lo}..{hi} is too large"), *span)
                            .with_label_message(format!("more than {MAX_DOMAIN} values"))
                            .with_help("xmv-rs enumerates every value of a variable: use a smaller range"),
                    );
                    return None;
                }
                Some(Domain::Range { lo, hi })
            }
            TypeSpec::Enum { values, .. } => {
                let mut vs: Vec<Value> = Vec::with_capacity(values.len());
                let mut seen = FxHashSet::with_capacity_and_hasher(values.len(), Default::default());
                for v in values {
                    let value = match v {
                        EnumValue::Symbol(s) => Value::Sym(self.syms.intern(&s.name)),
                        EnumValue::Int(i, _) => Value::Int(*i),
                    };
                    if seen.insert(value) {
                        vs.push(value);
                    }
                }
                Some(Domain::Enum(vs))
            }
            TypeSpec::Word { signed, width, span } => {
                let width = self.const_bound(id, width)?;
                let (width, signed) = variable_word(width, *signed, *span, self.diags)?;
                let wide = (width > crate::ir::words::MAX_VAR_WIDTH).then(crate::ir::WideValues::default);
                Some(Domain::Word { width, signed, wide })
            }
            TypeSpec::Unsupported { what, span } => {
                self.diags.push(
                    Diagnostic::error("E0211", format!("type `{what}` is not supported"), *span)
                        .with_label_message("unsupported type")
                        .with_help("xmv-rs is explicit-state: use `boolean`, a range `lo..hi`, an enumeration `{a, b}` or a word `word[N]`"),
                );
                None
            }
            TypeSpec::Array { .. } | TypeSpec::Instance { .. } => None,
        }
    }

    fn const_bound(&mut self, id: InstId, e: &Expr) -> Option<i64> {
        match consteval::const_int(&self.out, id, e, 0) {
            Ok(v) => Some(v),
            Err(d) => {
                self.diags.push(d);
                None
            }
        }
    }

    /// Declares a member now, or once the instance tree exists when it is named by a path.
    fn declare_or_defer(&mut self, id: InstId, name: &'a str, member: Member, span: Span) {
        if paths::is_path(name) {
            self.pending.push((id, name, member, span));
        } else {
            self.declare(id, name, member, span);
        }
    }

    /// Declares the members named by paths in the instance their path leads to (see
    /// [`super::paths`]); variables and DEFINEs take that instance's qualified name.
    fn declare_paths(&mut self) {
        let mut declared_by: FxHashMap<(InstId, String), InstId> = FxHashMap::default();
        for (id, name, member, span) in std::mem::take(&mut self.pending) {
            let (owner, key) = paths::declaration_owner(&self.out, id, name);
            let qualified = self.out.qualified(owner, &key);
            if let Some(&(_, first)) = self.out.instances[owner].members.get(key.as_str()) {
                let by = |i: InstId| match self.out.instances[i].path.as_str() {
                    "" => "the main module".to_string(),
                    p => format!("instance `{p}`"),
                };
                let first_by = declared_by.get(&(owner, key.clone())).copied();
                let mut d = Diagnostic::error("E0104", format!("`{qualified}` is declared twice"), span)
                    .with_label_message(format!("second declaration, by {}", by(id)))
                    .with_secondary(first, "first declared here")
                    .with_help("each variable or DEFINE is declared once; when a parameter names an instance, `param.x := …` declares `x` in that instance");
                if let Some(f) = first_by {
                    d = d.with_note(format!("declared by {} and by {}", by(f), by(id)));
                }
                self.diags.push(d);
                continue;
            }
            declared_by.insert((owner, key.clone()), id);
            match member {
                Member::Var(v) => self.out.vars[v.index()].name = qualified,
                Member::Define(d) => self.out.defines[d].name = qualified,
                _ => {}
            }
            self.out.has_compound |= paths::is_path(&key);
            self.declare(owner, key, member, span);
        }
    }

    fn declare(&mut self, id: InstId, name: impl Into<Cow<'a, str>>, member: Member, span: Span) {
        let name: Cow<'a, str> = name.into();
        let inst = &mut self.out.instances[id];
        if let Some(&(_, first)) = inst.members.get(name.as_ref()) {
            self.diags.push(
                Diagnostic::error("E0104", format!("`{name}` is declared twice in module `{}`", self.table.modules[inst.module].name.name), span)
                    .with_label_message("second declaration")
                    .with_secondary(first, "first declared here")
                    .with_help("variables, DEFINEs, instances and parameters share one namespace; rename one of them"),
            );
            return;
        }
        inst.members.insert(name, (member, span));
    }

    fn collect_symbols(&mut self, module: ModId) {
        if self.out.module_symbols.contains_key(&module) {
            return;
        }
        // Declaration order, so symbol ids are stable and readable.
        let mut names: Vec<&'a str> = vec![];
        for s in &self.table.modules[module].sections {
            match s {
                Section::Var { decls, .. } => {
                    for d in decls {
                        let mut ty = &d.ty;
                        while let TypeSpec::Array { elem, .. } = ty {
                            ty = elem;
                        }
                        if let TypeSpec::Enum { values, .. } = ty {
                            names.extend(values.iter().filter_map(|v| if let EnumValue::Symbol(s) = v { Some(s.name.as_str()) } else { None }));
                        }
                    }
                }
                Section::Constants { names: list, .. } => names.extend(list.iter().map(|n| n.name.as_str())),
                _ => {}
            }
        }
        let mut set = FxHashSet::with_capacity_and_hasher(names.len(), Default::default());
        self.out.symbols.reserve(names.len());
        for name in names {
            let id = self.syms.intern(name);
            self.out.symbols.insert(Cow::Borrowed(name), id);
            set.insert(name);
        }
        self.out.module_symbols.insert(module, set);
    }

    /// Whether some FAIRNESS/JUSTICE constraint of an instantiated module names `running`.
    fn fairness_mentions_running(&self) -> bool {
        let mut modules: Vec<ModId> = self.out.instances.iter().map(|i| i.module).collect();
        modules.sort_unstable();
        modules.dedup();
        modules.into_iter().any(|m| {
            self.table.modules[m].sections.iter().any(|s| match s {
                Section::Fairness { expr, .. } => mentions_running(expr),
                _ => false,
            })
        })
    }

    fn add_process_selector(&mut self) {
        // Patch process indices to instance ids: processes were numbered in creation order.
        let mut procs: Vec<(u32, InstId)> = vec![];
        for (i, inst) in self.out.instances.iter_enumerated() {
            if inst.process != 0 && !procs.iter().any(|&(p, _)| p == inst.process) {
                procs.push((inst.process, i));
            }
        }
        procs.sort();
        for (p, i) in procs {
            self.out.processes[p as usize - 1] = i;
        }
        let n = self.out.processes.len() as u32;
        let names: Vec<String> = (0..=n).map(|k| self.out.process_name(k)).collect();
        let values = names.iter().map(|s| Value::Sym(self.syms.intern(s))).collect();
        for s in &names {
            let id = self.syms.get(s).unwrap_or_default();
            self.out.symbols.insert(Cow::Owned(s.clone()), id);
        }
        let v = VarId::new(self.out.vars.len());
        let span = self.table.modules[self.out.instances[InstId::ROOT].module].name.span;
        let kind = if self.out.selector_in_state { VarKind::State } else { VarKind::Input };
        self.out.vars.push(Variable { name: super::PROCESS_SELECTOR.into(), domain: Domain::Enum(values), kind, span });
        self.out.var_ty.push(Ty::Sym);
        self.out.var_inst.push(InstId::ROOT);
        self.out.selector = Some(v);
        for k in 0..=n {
            let inst = if k == 0 { InstId::ROOT } else { self.out.processes[k as usize - 1] };
            let name = self.out.qualified(inst, "running");
            let did = self.out.defines.push(DefineSlot { name, inst, body: DefBody::Running(k), span });
            self.declare(inst, "running", Member::Define(did), span);
        }
    }
}

fn mentions_running(e: &Expr) -> bool {
    let mut stack = vec![e];
    while let Some(e) = stack.pop() {
        match &e.kind {
            crate::syntax::ast::ExprKind::Name(n) if n == "running" => return true,
            crate::syntax::ast::ExprKind::Dot(_, f) if f.name == "running" => return true,
            _ => crate::semantics::modules::push_children(e, &mut stack),
        }
    }
    false
}
