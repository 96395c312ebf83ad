//! The flattened model as NuSMV 2.5.4's `write_flat_model` (and `-ofm FILE`) writes it: one
//! `MODULE main` with every variable, DEFINE, assignment, constraint and property of the flat
//! model's instance tree under its qualified name (`c0.val`), parameters replaced by their
//! actuals, in NuSMV's order and layout (`compile/compileWrite.c`, with the daggifier off).
//!
//! Built from the parse tree and the instance tree of [`super::instances`] (the flat system
//! only; a file with procedure modules has no NuSMV flat model). What NuSMV does and this
//! module repeats:
//! * order: the instance tree is walked as NuSMV's `compile_instantiate` walks it: an
//!   instance's DEFINEs when it is entered (each `DEFINE` section's entries last to first, as
//!   NuSMV's parser lists them), then its sections in order, a sub-instance at its `VAR`
//!   declaration; variables are listed by kind (`IVAR`, `VAR`, `FROZENVAR`), each kind in that
//!   order; constraints, fairness and properties in that order too;
//! * processes: the input variable `_process_selector_` (`main`, then the processes last to
//!   first), the `running` DEFINEs, `next()` assignments guarded by the running process;
//! * expressions: flattened without simplification and printed by [`super::print`]; DEFINE
//!   bodies and the expressions of `ASSIGN`, `INIT`, `INVAR`, `TRANS` and `FAIRNESS`/`JUSTICE`
//!   have each DEFINE name replaced by its body (a chain of DEFINEs followed to the first body
//!   that is no DEFINE, one level deep, as `compile_get_rid_of_define_chain`); properties and
//!   `COMPASSION` keep DEFINE names; `INIT`/`INVAR`/`TRANS` are split at their top-level `&`,
//!   `TRUE` parts dropped; `FAIRNESS` is written `JUSTICE` when there are `COMPASSION`s.
//!
//! Not repeated (the model written means the same; its text differs):
//! * the daggifier: NuSMV's default shares repeated subexpressions as `__exprN` DEFINEs, listed
//!   in a pointer-hashed order; the output here is NuSMV's with `-disable_daggifier`;
//! * `PSLSPEC`s are written, in NuSMV's comment block, as their source text on one line (with
//!   NuSMV's ` IN inst`), not reprinted by NuSMV's PSL printer;
//! * chains of more than 64 operands of `&`, `|`, `xor`, `xnor` are nested to the left
//!   whatever their brackets in the source ([`crate::syntax::chains`]), NuSMV keeps them;
//! * NuSMV's parser rewrites `toint(b)` of a boolean to `case b : 1; TRUE : 0; esac` and drops
//!   `bool(b)` of a boolean; they are written as in the source here (`count` is expanded as
//!   NuSMV does).

use crate::ir::{Domain, SymId, Value, VarId};
use crate::semantics::checked::DefineId;
use crate::semantics::flattened::{DefBody, Flattened, InstId, Member};
use crate::semantics::instances;
use crate::semantics::interner::Interner;
use crate::semantics::modules::{self, ModuleTable};
use crate::semantics::print;
use crate::source::Span;
use crate::syntax::ast::{AssignKind, BinaryOp, CaseBranch, Compute, EnumValue, Expr, ExprKind, Program, Section, SpecKind, TypeSpec, VarKind};
use rustc_hash::FxHashMap;

/// How many parameter or DEFINE hops are followed (cycles were rejected by the resolver).
const MAX_HOPS: usize = 256;

/// The flat model written: the file's text and NuSMV's warnings for stderr.
pub(crate) struct FlatModelText {
    pub text: String,
    pub warnings: String,
}

/// Writes the flat model of `program` (an error-free program) read from `input_name`
/// (`source` is its text, for the `PSLSPEC` bodies the parse tree keeps as text).
pub(crate) fn write(program: &Program, source: &str, input_name: &str) -> Result<FlatModelText, String> {
    let mut diags = vec![];
    let table = modules::build(program, &mut diags);
    if table.procedures().next().is_some() {
        return Err("xmv-rs: a model with procedure modules has no NuSMV flat model to write".into());
    }
    let Some(root) = table.flat else { return Err("xmv-rs: the file has no module to flatten".into()) };
    let mut syms = Interner::default();
    let flat = instances::flatten(&table, root, false, &mut syms, &mut diags);
    let mut defines_by_body = FxHashMap::default();
    for (id, d) in flat.defines.iter_enumerated() {
        if let DefBody::Ast(body) = d.body {
            defines_by_body.insert((d.inst, body as *const Expr), id);
        }
    }
    let mut w = Writer { table: &table, flat: &flat, syms: &syms, source, walk: Walk::default(), defines_by_body };
    w.visit(InstId::ROOT);
    Ok(w.render(input_name))
}

/// A variable declaration line: a variable or a whole array.
enum VarEntry {
    Single(VarId),
    Array { name: String, array: u32 },
}

/// What the walk collects, in NuSMV's order.
#[derive(Default)]
struct Walk<'a> {
    vars: Vec<(VarKind, VarEntry)>,
    /// Variables one by one (array elements too): the order of `ASSIGN` blocks.
    assign_order: Vec<VarId>,
    defines: Vec<(String, DefineText<'a>)>,
    constants: Vec<String>,
    /// Per variable: its `init()`, invariant and `next()` assignments (several `next()`s when
    /// processes assign one variable through parameters).
    assigns: FxHashMap<VarId, [Vec<(&'a Expr, InstId)>; 3]>,
    init: Vec<(&'a Expr, InstId)>,
    invar: Vec<(&'a Expr, InstId)>,
    trans: Vec<(&'a Expr, InstId)>,
    justice: Vec<(&'a Expr, InstId)>,
    compassion: Vec<(&'a Expr, &'a Expr, InstId)>,
    /// Properties: kind, qualified name, body (or source text), instance.
    specs: Vec<(SpecKind, Option<String>, SpecBody<'a>, InstId)>,
}

enum DefineText<'a> {
    Define(DefineId),
    /// An array DEFINE: its body, read in its instance.
    Array(&'a Expr, InstId),
}

enum SpecBody<'a> {
    Expr(&'a Expr),
    Compute(&'a Compute<Expr>),
    /// `PSLSPEC`: the source text after the keyword (and the name).
    Text(Span),
}

struct Writer<'a, 't> {
    table: &'t ModuleTable<'a>,
    flat: &'t Flattened<'a>,
    syms: &'t Interner<SymId>,
    source: &'t str,
    walk: Walk<'a>,
    /// The DEFINE declared in an instance by a body of the parse tree.
    defines_by_body: FxHashMap<(InstId, *const Expr), DefineId>,
}

impl<'a, 't> Writer<'a, 't> {
    fn member(&self, inst: InstId, name: &str) -> Option<Member> {
        self.flat.instances[inst].members.get(name).map(|&(m, _)| m)
    }

    fn constant(&mut self, name: &str) {
        if !self.walk.constants.iter().any(|c| c == name) {
            self.walk.constants.push(name.to_string());
        }
    }

    /// NuSMV's `compile_instantiate` order (see the module comment).
    fn visit(&mut self, inst: InstId) {
        let module = self.table.modules[self.flat.instances[inst].module];
        for s in &module.sections {
            if let Section::Define { defs, .. } = s {
                for d in defs.iter().rev() {
                    let qualified = self.flat.qualified(inst, &d.name.name);
                    // A DEFINE named by a path (`left.ack := e`) is a member of another instance.
                    let by_body = self.defines_by_body.get(&(inst, &d.expr as *const Expr)).map(|&id| Member::Define(id));
                    match by_body.or_else(|| self.member(inst, &d.name.name)) {
                        Some(Member::Define(id)) => self.walk.defines.push((self.flat.defines[id].name.clone(), DefineText::Define(id))),
                        Some(Member::Array(_)) => self.walk.defines.push((qualified, DefineText::Array(&d.expr, inst))),
                        _ => {}
                    }
                }
            }
        }
        for s in &module.sections {
            match s {
                Section::Var { kind, decls, .. } => {
                    for d in decls {
                        let member = self.member(inst, &d.name.name);
                        match (&d.ty, member) {
                            (TypeSpec::Instance { .. }, Some(Member::Instance(child))) => self.visit(child),
                            (_, Some(Member::Var(v))) => {
                                self.enum_constants(&d.ty);
                                self.walk.vars.push((*kind, VarEntry::Single(v)));
                                self.walk.assign_order.push(v);
                            }
                            (_, Some(Member::Array(a))) => {
                                self.enum_constants(&d.ty);
                                self.walk.vars.push((*kind, VarEntry::Array { name: self.flat.qualified(inst, &d.name.name), array: a }));
                                self.array_elements(a);
                            }
                            _ => {}
                        }
                    }
                }
                Section::Constants { names, .. } => names.iter().for_each(|n| self.constant(&n.name)),
                Section::Assign { assigns, .. } => {
                    for a in assigns {
                        if let Some((Member::Var(v), _)) = self.resolve(&a.target, inst, 0) {
                            let slot = match a.kind {
                                AssignKind::Init => 0,
                                AssignKind::Invariant => 1,
                                AssignKind::Next => 2,
                            };
                            self.walk.assigns.entry(v).or_default()[slot].push((&a.value, inst));
                        }
                    }
                }
                Section::Init { expr, .. } => self.walk.init.push((expr, inst)),
                Section::Invar { expr, .. } => self.walk.invar.push((expr, inst)),
                Section::Trans { expr, .. } => self.walk.trans.push((expr, inst)),
                Section::Fairness { expr, .. } => self.walk.justice.push((expr, inst)),
                Section::Compassion { p, q, .. } => self.walk.compassion.push((p, q, inst)),
                Section::Spec(spec) => {
                    let name = spec.name.as_ref().map(|n| self.flat.qualified(inst, &n.name));
                    let body = match (&spec.expr, &spec.compute) {
                        (_, Some(c)) => SpecBody::Compute(c),
                        (Some(e), None) if spec.kind != SpecKind::Psl => SpecBody::Expr(e),
                        _ => {
                            let after = spec.name.as_ref().map_or(spec.keyword.end, |n| n.span.end);
                            SpecBody::Text(Span::new(after as usize, spec.span.end as usize))
                        }
                    };
                    self.walk.specs.push((spec.kind, name, body, inst));
                }
                _ => {}
            }
        }
    }

    fn array_elements(&mut self, a: u32) {
        for &m in &self.flat.arrays[a as usize].elems {
            match m {
                Member::Var(v) => self.walk.assign_order.push(v),
                Member::Array(b) => self.array_elements(b),
                _ => {}
            }
        }
    }

    fn enum_constants(&mut self, ty: &TypeSpec) {
        match ty {
            TypeSpec::Enum { values, .. } => {
                for v in values {
                    if let EnumValue::Symbol(s) = v {
                        self.constant(&s.name);
                    }
                }
            }
            TypeSpec::Array { elem, .. } => self.enum_constants(elem),
            _ => {}
        }
    }

    /// The member `e` names in `inst` (parameters followed to their actuals), with the instance
    /// it was found in.
    fn resolve(&self, e: &Expr, inst: InstId, hops: usize) -> Option<(Member, InstId)> {
        if hops > MAX_HOPS {
            return None;
        }
        let found = match &e.kind {
            ExprKind::Name(n) if n == "self" => Some((Member::Instance(inst), inst)),
            ExprKind::Name(n) => self.member(inst, n).map(|m| (m, inst)),
            ExprKind::Dot(a, f) => match self.resolve(a, inst, hops + 1) {
                Some((Member::Instance(j), _)) => self.member(j, &f.name).map(|m| (m, j)),
                _ => None,
            },
            ExprKind::Index(a, i) => match (self.resolve(a, inst, hops + 1), &i.kind) {
                (Some((Member::Array(id), owner)), ExprKind::Int(k)) => {
                    let info = &self.flat.arrays[id as usize];
                    k.checked_sub(info.lo).and_then(|at| usize::try_from(at).ok()).and_then(|at| info.elems.get(at)).map(|&m| (m, owner))
                }
                _ => None,
            },
            _ => None,
        };
        let found = match found {
            None if self.flat.has_compound && matches!(e.kind, ExprKind::Dot(..) | ExprKind::Index(..)) => {
                crate::semantics::paths::compound_key(self.flat, inst, e).map(|(owner, m)| (m, owner))
            }
            other => other,
        };
        match found {
            Some((Member::Param(i), owner)) => {
                let instance = &self.flat.instances[owner];
                let (parent, arg) = (instance.parent?, instance.args.get(i)?);
                self.resolve(arg, parent, hops + 1)
            }
            other => other,
        }
    }

    /// `e` read in `inst`, flattened: qualified names, parameters replaced by their actuals;
    /// with `expand`, a DEFINE name is replaced by its body ([`Self::define_body`]).
    fn flatten(&self, e: &Expr, inst: InstId, expand: bool, hops: usize) -> Expr {
        let span = e.span;
        let name = |n: &str| Expr { kind: ExprKind::Name(n.to_string()), span };
        if hops > MAX_HOPS {
            return e.clone();
        }
        if matches!(e.kind, ExprKind::Name(_) | ExprKind::Dot(..) | ExprKind::Index(..)) {
            // A parameter: its actual, read in the parent.
            if let ExprKind::Name(n) = &e.kind
                && let Some(Member::Param(i)) = self.member(inst, n)
            {
                let instance = &self.flat.instances[inst];
                if let (Some(parent), Some(arg)) = (instance.parent, instance.args.get(i)) {
                    return self.flatten(arg, parent, expand, hops + 1);
                }
            }
            match self.resolve(e, inst, hops) {
                Some((Member::Var(v), _)) => return name(&self.flat.vars[v.index()].name),
                Some((Member::Define(d), _)) if expand => return self.define_body(d, span),
                Some((Member::Define(d), _)) => return name(&self.flat.defines[d].name),
                Some((Member::Instance(j), _)) => return name(&self.flat.instances[j].path),
                _ => {}
            }
        }
        let f = |x: &Expr| Box::new(self.flatten(x, inst, expand, hops + 1));
        let all = |xs: &[Expr]| xs.iter().map(|x| self.flatten(x, inst, expand, hops + 1)).collect::<Vec<_>>();
        let kind = match &e.kind {
            ExprKind::Name(n) => match self.member(inst, n) {
                Some(Member::Array(_)) => ExprKind::Name(self.flat.qualified(inst, n)),
                _ => ExprKind::Name(n.clone()),
            },
            ExprKind::Dot(a, field) => match self.resolve(a, inst, hops) {
                Some((Member::Instance(j), _)) => ExprKind::Name(self.flat.qualified(j, &field.name)),
                _ => ExprKind::Dot(f(a), field.clone()),
            },
            ExprKind::Index(a, i) => ExprKind::Index(f(a), f(i)),
            ExprKind::BitSelect(w, h, l) => ExprKind::BitSelect(f(w), f(h), f(l)),
            ExprKind::Unary(op, a) => ExprKind::Unary(*op, f(a)),
            ExprKind::Binary(op, a, b) => ExprKind::Binary(*op, f(a), f(b)),
            ExprKind::Ite(c, a, b) => ExprKind::Ite(f(c), f(a), f(b)),
            ExprKind::Case(bs) => ExprKind::Case(
                bs.iter()
                    .map(|b| CaseBranch {
                        condition: self.flatten(&b.condition, inst, expand, hops + 1),
                        value: self.flatten(&b.value, inst, expand, hops + 1),
                        span: b.span,
                    })
                    .collect(),
            ),
            ExprKind::Set(xs) => ExprKind::Set(all(xs)),
            ExprKind::Array(xs) => ExprKind::Array(all(xs)),
            ExprKind::Range(a, b) => ExprKind::Range(f(a), f(b)),
            ExprKind::Next(a) => ExprKind::Next(f(a)),
            ExprKind::Init(a) => ExprKind::Init(f(a)),
            ExprKind::Call(g, xs) if g.name == "count" && !xs.is_empty() => return count_as_sum(all(xs), span),
            ExprKind::Call(g, xs) => ExprKind::Call(g.clone(), all(xs)),
            ExprKind::Ctl(op, a) => ExprKind::Ctl(*op, f(a)),
            ExprKind::Until { universal, lhs, rhs, bound } => ExprKind::Until { universal: *universal, lhs: f(lhs), rhs: f(rhs), bound: *bound },
            ExprKind::Ltl(op, xs) => ExprKind::Ltl(op.clone(), all(xs)),
            k @ (ExprKind::Bool(_) | ExprKind::Int(_) | ExprKind::Word { .. } | ExprKind::Error) => k.clone(),
        };
        Expr { kind, span }
    }

    /// The body of DEFINE `d`, flattened, following a chain of DEFINEs whose body is another
    /// DEFINE's name (NuSMV's `CompileFlatten_resolve_define_chains`); not expanded further.
    fn define_body(&self, mut d: DefineId, span: Span) -> Expr {
        for _ in 0..MAX_HOPS {
            let slot = &self.flat.defines[d];
            match slot.body {
                DefBody::Running(k) => return self.running(k, span),
                DefBody::Ast(body) => match self.resolve(body, slot.inst, 0) {
                    Some((Member::Define(next), _)) if matches!(body.kind, ExprKind::Name(_) | ExprKind::Dot(..) | ExprKind::Index(..)) => d = next,
                    _ => return self.flatten(body, slot.inst, false, 0),
                },
            }
        }
        Expr { kind: ExprKind::Name(self.flat.defines[d].name.clone()), span }
    }

    /// `_process_selector_ = <process k>`.
    fn running(&self, k: u32, span: Span) -> Expr {
        let name = |n: String| Box::new(Expr { kind: ExprKind::Name(n), span });
        Expr { kind: ExprKind::Binary(BinaryOp::Eq, name(super::PROCESS_SELECTOR.into()), name(self.flat.process_name(k))), span }
    }

    /// Process names in NuSMV's order: `main`, then the processes last to first.
    fn process_names(&self) -> Vec<String> {
        let n = self.flat.processes.len() as u32;
        std::iter::once(0).chain((1..=n).rev()).map(|k| self.flat.process_name(k)).collect()
    }

    /// The top-level `&` parts of `e` read in `inst` (parameters followed).
    fn conjuncts(&self, e: &'a Expr, inst: InstId, out: &mut Vec<(&'a Expr, InstId)>, hops: usize) {
        match &e.kind {
            ExprKind::Binary(BinaryOp::And, a, b) => {
                self.conjuncts(a, inst, out, hops + 1);
                self.conjuncts(b, inst, out, hops + 1);
            }
            ExprKind::Name(n) if hops < MAX_HOPS => match self.member(inst, n) {
                Some(Member::Param(i)) => {
                    let instance = &self.flat.instances[inst];
                    match (instance.parent, instance.args.get(i)) {
                        (Some(parent), Some(arg)) => self.conjuncts(arg, parent, out, hops + 1),
                        _ => out.push((e, inst)),
                    }
                }
                _ => out.push((e, inst)),
            },
            _ => out.push((e, inst)),
        }
    }

    fn type_text(&self, domain: &Domain) -> String {
        match domain {
            Domain::Boolean => "boolean".into(),
            Domain::Range { lo, hi } => format!("{{{}}}", (*lo..=*hi).map(|i| i.to_string()).collect::<Vec<_>>().join(", ")),
            Domain::Word { width, signed, .. } => format!("{} word[{width}]", if *signed { "signed" } else { "unsigned" }),
            Domain::Enum(values) => format!("{{{}}}", values.iter().map(|v| self.value_text(v)).collect::<Vec<_>>().join(", ")),
        }
    }

    fn value_text(&self, v: &Value) -> String {
        match v {
            Value::Sym(s) => self.syms.names.get(*s).cloned().unwrap_or_default(),
            Value::Int(i) => i.to_string(),
            Value::Bool(b) => (if *b { "TRUE" } else { "FALSE" }).into(),
            other => format!("{other:?}"),
        }
    }

    fn member_type(&self, m: Member) -> String {
        match m {
            Member::Var(v) => self.type_text(&self.flat.vars[v.index()].domain),
            Member::Array(a) => {
                let info = &self.flat.arrays[a as usize];
                let hi = info.lo + info.elems.len() as i64 - 1;
                let elem = info.elems.first().map(|&e| self.member_type(e)).unwrap_or_default();
                format!("array {}..{hi} of {elem}", info.lo)
            }
            _ => String::new(),
        }
    }

    fn render(&self, input_name: &str) -> FlatModelText {
        let mut o = format!("-- Flattened FSM model generated from {input_name}\n-- Dumped layers are: model \n\nMODULE main\n");
        let has_processes = !self.flat.processes.is_empty();
        for (kind, title, keyword) in [(VarKind::Input, "Input", "IVAR"), (VarKind::State, "State", "VAR"), (VarKind::Frozen, "Frozen", "FROZENVAR")] {
            o.push_str(&format!("-- {title} variables from layer 'model'\n"));
            let mut lines = vec![];
            for (k, entry) in &self.walk.vars {
                if *k != kind {
                    continue;
                }
                lines.push(match entry {
                    VarEntry::Single(v) => format!("{} : {};\n", self.flat.vars[v.index()].name, self.member_type(Member::Var(*v))),
                    VarEntry::Array { name, array } => format!("{name} : {};\n", self.member_type(Member::Array(*array))),
                });
            }
            if kind == VarKind::Input && has_processes {
                lines.push(format!("_process_selector_ : {{{}}};\n", self.process_names().join(", ")));
            }
            if !lines.is_empty() {
                o.push_str(keyword);
                o.push('\n');
                lines.iter().for_each(|l| o.push_str(l));
                o.push('\n');
            }
        }
        o.push_str("-- Defines from layer 'model'\n");
        let mut defines: Vec<(String, Expr)> = vec![];
        for (name, body) in &self.walk.defines {
            let span = Span::new(0, 0);
            let expr = match body {
                DefineText::Define(d) => self.define_body(*d, span),
                DefineText::Array(e, inst) => self.flatten(e, *inst, false, 0),
            };
            defines.push((name.clone(), expr));
        }
        if has_processes {
            let n = self.flat.processes.len() as u32;
            for k in std::iter::once(0).chain((1..=n).rev()) {
                let inst = if k == 0 { InstId::ROOT } else { self.flat.processes[k as usize - 1] };
                defines.push((self.flat.qualified(inst, "running"), self.running(k, Span::new(0, 0))));
            }
        }
        if !defines.is_empty() {
            o.push_str("DEFINE\n");
            for (name, e) in &defines {
                o.push_str(&format!("{name} := {};\n", print::formula(e)));
            }
            o.push('\n');
        }
        let mut constants = self.walk.constants.clone();
        if has_processes {
            for p in self.process_names() {
                if !constants.contains(&p) {
                    constants.push(p);
                }
            }
        }
        if !constants.is_empty() {
            o.push_str(&format!("CONSTANTS\n {} ;\n\n", constants.join(", ")));
        }
        o.push_str("-- Assignments from layer 'model'\n");
        for &v in &self.walk.assign_order {
            let Some(slots) = self.walk.assigns.get(&v) else { continue };
            let var = &self.flat.vars[v.index()].name;
            o.push_str("ASSIGN\n");
            for (slot, lhs) in [(0, format!("init({var})")), (1, var.clone()), (2, format!("next({var})"))] {
                let Some(&(e, inst)) = slots[slot].last() else { continue };
                let mut rhs = self.flatten(e, inst, true, 0);
                if slot == 2 && has_processes {
                    // One branch per process assigning it, the last assignment first (NuSMV).
                    let span = rhs.span;
                    let mut branches: Vec<CaseBranch> = (slots[slot].iter().rev())
                        .map(|&(e, inst)| CaseBranch {
                            condition: self.running(self.flat.instances[inst].process, span),
                            value: self.flatten(e, inst, true, 0),
                            span,
                        })
                        .collect();
                    let keep = Expr { kind: ExprKind::Name(var.clone()), span };
                    branches.push(CaseBranch { condition: Expr { kind: ExprKind::Bool(true), span }, value: keep, span });
                    rhs = Expr { kind: ExprKind::Case(branches), span };
                }
                o.push_str(&format!("{lhs} := {};\n", print::formula(&rhs)));
            }
            o.push('\n');
        }
        o.push('\n');
        for (list, keyword) in [(&self.walk.init, "INIT"), (&self.walk.invar, "INVAR"), (&self.walk.trans, "TRANS")] {
            let mut parts = vec![];
            for &(e, inst) in list.iter() {
                self.conjuncts(e, inst, &mut parts, 0);
            }
            for (e, inst) in &parts {
                let flat = self.flatten(e, *inst, true, 0);
                if !matches!(flat.kind, ExprKind::Bool(true)) {
                    o.push_str(&format!("{keyword}\n {}\n\n", print::formula(&flat)));
                }
            }
            if !list.is_empty() {
                o.push('\n');
            }
        }
        let justice = if self.walk.compassion.is_empty() { "FAIRNESS" } else { "JUSTICE" };
        for &(e, inst) in &self.walk.justice {
            let flat = self.flatten(e, inst, true, 0);
            if !matches!(flat.kind, ExprKind::Bool(true)) {
                o.push_str(&format!("{justice}\n {}\n\n\n", print::formula(&flat)));
            }
        }
        for &(p, q, inst) in &self.walk.compassion {
            let (p, q) = (self.flatten(p, inst, false, 0), self.flatten(q, inst, false, 0));
            o.push_str(&format!("COMPASSION\n ({}, {})\n\n", print::formula(&p), print::formula(&q)));
        }
        if !self.walk.compassion.is_empty() {
            o.push('\n');
        }
        let mut warnings = String::new();
        for (kind, keyword) in [(SpecKind::Ctl, "CTLSPEC"), (SpecKind::Compute, "COMPUTE"), (SpecKind::Ltl, "LTLSPEC"), (SpecKind::Invar, "INVARSPEC")] {
            let mut any = false;
            for (k, name, body, inst) in &self.walk.specs {
                if *k != kind {
                    continue;
                }
                any = true;
                o.push_str(keyword);
                o.push_str("\n ");
                if let Some(n) = name {
                    o.push_str(&format!("NAME {n} := "));
                }
                match body {
                    SpecBody::Expr(e) => o.push_str(&print::formula(&self.flatten(e, *inst, false, 0))),
                    SpecBody::Compute(c) => o.push_str(&print::compute(&c.map(|e| self.flatten(e, *inst, false, 0)))),
                    SpecBody::Text(span) => o.push_str(&self.body_text(*span)),
                }
                o.push_str(";\n\n");
            }
            if any {
                o.push('\n');
            }
        }
        let psl: Vec<_> = self.walk.specs.iter().filter(|s| s.0 == SpecKind::Psl).collect();
        if !psl.is_empty() {
            warnings.push_str(
                "\n********   WARNING   ********\n\
                 This version does not support the flattening of PSL properties.\n\
                 However, for user's convenience all the PSL properties will be dumped\n\
                 as comments in the output file.\n\
                 ******** END WARNING ********\n\n",
            );
            o.push_str(
                "--- Dumping of PSL properties is not supported by this version of the system.\n\
                 --- However, the PSL properties had been dumped here for user's convenience,\n\
                 --- as the occurred in the original model. \n",
            );
            for (_, name, body, inst) in psl {
                o.push_str("-- PSLSPEC\n--   ");
                if let Some(n) = name {
                    o.push_str(&format!("NAME {n} := "));
                }
                if let SpecBody::Text(span) = body {
                    o.push_str(&self.body_text(*span));
                }
                if *inst != InstId::ROOT {
                    o.push_str(&format!(" IN {}", self.flat.instances[*inst].path));
                }
                o.push_str("\n\n");
            }
        }
        FlatModelText { text: o, warnings }
    }

    /// The source text of a `PSLSPEC` body on one line, without its `:=` and `;`.
    fn body_text(&self, span: Span) -> String {
        let text = self.source.get(span.start as usize..span.end as usize).unwrap_or_default();
        let code: Vec<&str> = text.lines().map(|l| l.split_once("--").map_or(l, |(code, _)| code)).collect();
        let text = code.join(" ");
        let text = text.trim().trim_start_matches(":=").trim().trim_end_matches(';');
        text.split_whitespace().collect::<Vec<_>>().join(" ")
    }
}

/// `count(a, b, c)` as NuSMV's parser writes it: `case c : 1; TRUE : 0; esac + (case b : 1; …
/// esac + case a : 1; … esac)`.
fn count_as_sum(args: Vec<Expr>, span: Span) -> Expr {
    let one = |c: Expr| Expr {
        kind: ExprKind::Case(vec![
            CaseBranch { condition: c, value: Expr { kind: ExprKind::Int(1), span }, span },
            CaseBranch { condition: Expr { kind: ExprKind::Bool(true), span }, value: Expr { kind: ExprKind::Int(0), span }, span },
        ]),
        span,
    };
    let mut args = args.into_iter();
    let first = args.next().map(one).unwrap_or(Expr { kind: ExprKind::Int(0), span });
    args.fold(first, |sum, a| Expr { kind: ExprKind::Binary(BinaryOp::Add, Box::new(one(a)), Box::new(sum)), span })
}
