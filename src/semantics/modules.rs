//! The module table: which modules exist, which are procedure modules, which instantiations
//! are legal, and which module is the flat model.
//!
//! A module is a procedure module (README, "recursive procedure modules") if it has a `CALL` or
//! `EXIT` section, mentions the `EXIT` value, or is the target of some `CALL`. Instantiation
//! (`v : m(args)` in `VAR`) is checked here for every module, used or not: the target must
//! exist, must not be a procedure, must get as many arguments as it has parameters, and the
//! instantiation graph must be acyclic (NuSMV: forward references allowed, circular ones not).

use crate::diagnostics::Diagnostic;
use crate::ir::id::IdVec;
use crate::semantics::suggest::closest;
use crate::source::Span;
use crate::syntax::ast::{Expr, ExprKind, Module, Program, Section, TypeSpec};
use rustc_hash::FxHashMap;

crate::index_type! {
    /// A module of the file (index into `ModuleTable::modules`, in file order; a module defined
    /// twice keeps its first definition).
    pub(crate) struct ModId;
}

pub(crate) struct ModuleTable<'a> {
    pub modules: IdVec<ModId, &'a Module>,
    pub by_name: FxHashMap<&'a str, ModId>,
    pub is_procedure: IdVec<ModId, bool>,
    /// Whether the module's expressions mention the value `EXIT` (computed once per module).
    pub mentions_exit: IdVec<ModId, bool>,
    /// The flat model's root module.
    pub flat: Option<ModId>,
}

impl<'a> ModuleTable<'a> {
    pub(crate) fn get(&self, name: &str) -> Option<ModId> {
        self.by_name.get(name).copied()
    }
    pub(crate) fn names(&self) -> impl Iterator<Item = &'a str> + '_ {
        self.modules.iter().map(|m| m.name.name.as_str())
    }
    pub(crate) fn procedures(&self) -> impl Iterator<Item = ModId> + '_ {
        self.modules.indices().filter(|&m| self.is_procedure[m])
    }
}

/// Builds the table, reporting duplicate modules, bad instantiations and instantiation cycles.
pub(crate) fn build<'a>(program: &'a Program, diags: &mut Vec<Diagnostic>) -> ModuleTable<'a> {
    let mut modules = IdVec::new();
    let mut by_name: FxHashMap<&str, ModId> = FxHashMap::default();
    for m in &program.modules {
        if let Some(&first) = by_name.get(m.name.name.as_str()) {
            let first: &Module = modules[first];
            diags.push(
                Diagnostic::error("E0108", format!("module `{}` is defined twice", m.name.name), m.name.span)
                    .with_label_message("second definition")
                    .with_secondary(first.name.span, "first defined here")
                    .with_help("rename one of the modules"),
            );
            continue;
        }
        by_name.insert(m.name.name.as_str(), modules.push(m));
    }
    // A walk over every expression of the file: in parallel over the modules.
    let mentions_exit = IdVec::from_raw(crate::par::map_ordered(modules.raw(), 16, |m| module_mentions_exit_value(m)));
    let mut table = ModuleTable { is_procedure: IdVec::from_elem(false, modules.len()), mentions_exit, modules, by_name, flat: None };
    classify_procedures(&mut table);
    check_instantiations(&table, diags);
    choose_flat(&mut table, diags);
    table
}

fn classify_procedures(table: &mut ModuleTable) {
    for id in table.modules.indices() {
        let m = table.modules[id];
        let mut proc = false;
        for s in &m.sections {
            match s {
                Section::Call { calls, .. } => {
                    proc = true;
                    for c in calls {
                        if let Some(t) = table.get(&c.target.name) {
                            table.is_procedure[t] = true;
                        }
                    }
                }
                Section::Exit { .. } => proc = true,
                _ => {}
            }
        }
        if proc || table.mentions_exit[id] {
            table.is_procedure[id] = true;
        }
    }
}

/// Every expression written in a module (assignments, constraints, defines, specs, calls).
pub(crate) fn module_exprs(m: &Module) -> impl Iterator<Item = &Expr> {
    m.sections.iter().flat_map(|s| -> Vec<&Expr> {
        match s {
            Section::Define { defs, .. } => defs.iter().map(|d| &d.expr).collect(),
            Section::Assign { assigns, .. } => assigns.iter().flat_map(|a| [&a.target, &a.value]).collect(),
            Section::Init { expr, .. } | Section::Trans { expr, .. } | Section::Invar { expr, .. } => vec![expr],
            Section::Fairness { expr, .. } => vec![expr],
            Section::Compassion { p, q, .. } => vec![p, q],
            Section::Spec(spec) => spec.formulas().collect(),
            Section::Call { calls, .. } => calls.iter().map(|c| &c.condition).collect(),
            Section::Exit { exits, .. } => exits.iter().map(|e| &e.condition).collect(),
            Section::Var { .. } | Section::Constants { .. } => vec![],
        }
    })
}

/// Whether any expression of `m` mentions `EXIT` (one walk stack for the whole module).
pub(crate) fn module_mentions_exit_value(m: &Module) -> bool {
    let mut stack = Vec::new();
    module_exprs(m).any(|e| mentions_exit_with(e, &mut stack))
}

fn mentions_exit_with<'e>(e: &'e Expr, stack: &mut Vec<&'e Expr>) -> bool {
    // Iterative walk: no recursion on user-controlled depth.
    stack.clear();
    stack.push(e);
    while let Some(e) = stack.pop() {
        match &e.kind {
            ExprKind::Name(n) if n == "EXIT" => return true,
            _ => push_children(e, stack),
        }
    }
    false
}

/// Pushes the direct subexpressions of an AST expression (for iterative walks).
pub(crate) fn push_children<'e>(e: &'e Expr, stack: &mut Vec<&'e Expr>) {
    match &e.kind {
        ExprKind::Bool(_) | ExprKind::Int(_) | ExprKind::Word { .. } | ExprKind::Name(_) | ExprKind::Error => {}
        ExprKind::BitSelect(w, h, l) => {
            stack.push(w);
            stack.push(h);
            stack.push(l)
        }
        ExprKind::Dot(a, _) | ExprKind::Unary(_, a) | ExprKind::Next(a) | ExprKind::Init(a) | ExprKind::Ctl(_, a) => stack.push(a),
        ExprKind::Index(a, b) | ExprKind::Binary(_, a, b) | ExprKind::Range(a, b) => {
            stack.push(a);
            stack.push(b)
        }
        ExprKind::Until { lhs, rhs, .. } => {
            stack.push(lhs);
            stack.push(rhs)
        }
        ExprKind::Ite(a, b, c) => {
            stack.push(a);
            stack.push(b);
            stack.push(c)
        }
        ExprKind::Case(bs) => bs.iter().for_each(|b| {
            stack.push(&b.condition);
            stack.push(&b.value)
        }),
        ExprKind::Set(xs) | ExprKind::Array(xs) | ExprKind::Call(_, xs) | ExprKind::Ltl(_, xs) => xs.iter().for_each(|x| stack.push(x)),
    }
}

/// `(instance name span, module name, args, target)` of every module instance declared in `m`.
pub(crate) fn instance_decls(m: &Module) -> impl Iterator<Item = (&TypeSpec, Span)> {
    m.sections.iter().flat_map(|s| match s {
        Section::Var { decls, .. } => decls.iter().map(|d| (&d.ty, d.name.span)).collect::<Vec<_>>(),
        _ => vec![],
    })
}

fn check_instantiations(table: &ModuleTable, diags: &mut Vec<Diagnostic>) {
    let mut edges: IdVec<ModId, Vec<(ModId, Span)>> = IdVec::from_elem(vec![], table.modules.len());
    for (id, &m) in table.modules.iter_enumerated() {
        for (ty, _) in instance_decls(m) {
            let mut ty = ty;
            while let TypeSpec::Array { elem, .. } = ty {
                ty = elem;
            }
            let TypeSpec::Instance { module, args, span, .. } = ty else { continue };
            let Some(target) = table.get(&module.name) else {
                let mut d =
                    Diagnostic::error("E0102", format!("module `{}` is not defined", module.name), module.span).with_label_message("no MODULE with this name");
                if let Some(s) = closest(&module.name, table.names()) {
                    d = d.with_help(format!("did you mean `{s}`?"));
                }
                diags.push(d);
                continue;
            };
            if table.is_procedure[target] {
                diags.push(
                    Diagnostic::error("E0402", format!("procedure module `{}` cannot be instantiated as a variable", module.name), *span)
                        .with_label_message("instance of a procedure module")
                        .with_secondary(table.modules[target].name.span, "a procedure module (it has CALL/EXIT or is called)")
                        .with_help(format!("call it instead: `CALL {} := condition;`", module.name)),
                );
                continue;
            }
            let params = &table.modules[target].params;
            if params.len() != args.len() {
                diags.push(
                    Diagnostic::error(
                        "E0109",
                        format!(
                            "module `{}` takes {} argument{} but {} {} given",
                            module.name,
                            params.len(),
                            if params.len() == 1 { "" } else { "s" },
                            args.len(),
                            if args.len() == 1 { "was" } else { "were" }
                        ),
                        *span,
                    )
                    .with_secondary(table.modules[target].name.span, "module declared here"),
                );
                continue;
            }
            edges[id].push((target, module.span));
        }
    }
    report_cycles(table, &edges, diags);
}

/// Reports each instantiation cycle once (at the edge that closes it).
fn report_cycles(table: &ModuleTable, edges: &IdVec<ModId, Vec<(ModId, Span)>>, diags: &mut Vec<Diagnostic>) {
    #[derive(Clone, Copy, PartialEq)]
    enum Mark {
        New,
        Active,
        Done,
    }
    let mut mark = IdVec::from_elem(Mark::New, edges.len());
    for root in edges.indices() {
        if mark[root] != Mark::New {
            continue;
        }
        // Iterative DFS with an explicit path.
        let mut path: Vec<(ModId, usize)> = vec![(root, 0)];
        mark[root] = Mark::Active;
        while let Some(&mut (m, ref mut next)) = path.last_mut() {
            if *next < edges[m].len() {
                let (t, span) = edges[m][*next];
                *next += 1;
                match mark[t] {
                    Mark::New => {
                        mark[t] = Mark::Active;
                        path.push((t, 0));
                    }
                    Mark::Active => {
                        let start = path.iter().position(|&(p, _)| p == t).unwrap_or(0);
                        let mut names: Vec<&str> = path[start..].iter().map(|&(p, _)| table.modules[p].name.name.as_str()).collect();
                        names.push(table.modules[t].name.name.as_str());
                        diags.push(
                            Diagnostic::error("E0304", "circular module instantiation", span)
                                .with_label_message(format!("`{}` instantiates itself through this instance", table.modules[t].name.name))
                                .with_note(format!("cycle: {}", names.join(" -> ")))
                                .with_help("NuSMV modules cannot instantiate themselves; for recursion use a procedure module and CALL"),
                        );
                    }
                    Mark::Done => {}
                }
            } else {
                mark[m] = Mark::Done;
                path.pop();
            }
        }
    }
}

fn choose_flat(table: &mut ModuleTable, diags: &mut Vec<Diagnostic>) {
    if let Some(main) = table.get("main") {
        if !table.is_procedure[main] {
            table.flat = Some(main);
            let m = table.modules[main];
            if let Some(p) = m.params.first() {
                diags.push(Diagnostic::error("E0112", "module `main` cannot have parameters", p.span).with_help("remove the parameter list of `main`"));
            }
        }
        return;
    }
    let procedures = table.procedures().count();
    if procedures > 0 {
        return;
    }
    match table.modules.len() {
        1 => table.flat = Some(ModId::new(0)),
        0 => diags.push(
            Diagnostic::error("E0111", "the file defines no module", Span::default())
                .with_help("add `MODULE main` with the model's variables and specifications"),
        ),
        _ => diags.push(
            Diagnostic::error("E0111", "no `MODULE main` among several modules", table.modules[ModId::new(0)].name.span)
                .with_label_message("first module")
                .with_help("name the top-level module `main`; xmv-rs checks `main` as the flat model"),
        ),
    }
}
