//! Stage 2, name resolution and typing: module flattening, DEFINE expansion with cycle detection,
//! scoping of procedure modules, type checking.
//!
//! [`check`] turns an [`ast::Program`] into a [`CheckedProgram`]: one [`checked::CheckedSystem`]
//! for the flat model (`main`, or the file's only module) and one per procedure module, each
//! with resolved, typed expressions. The passes, one module each:
//!
//! | module | job |
//! |---|---|
//! | [`modules`] | module table, procedure classification, instantiation checks and cycles, choice of the flat model |
//! | [`flattened`] | what flattening produces: instances and their members, variables, DEFINE slots, arrays |
//! | [`instances`] | flattening an instance tree: qualified names, domains, arrays, processes |
//! | [`paths`] | declarations named by a path (`p.x := e`, `x[3] : boolean`) |
//! | [`consteval`] | constant integer expressions for bounds and indices |
//! | [`resolve`] | names → ids, typing, DEFINE cycle detection, `next`/input/`EXITED`/CTL placement; its submodule `words` types word expressions (NuSMV 2.5.4's rules) |
//! | [`operators`] | source operators → lowered operators (`ir::BinOp`), one exhaustive match |
//! | [`assign`] | single-assignment rules and combinational cycles |
//! | [`system`] | one system: sections, calls, exits, specs |
//! | [`print`] | specifications printed as NuSMV prints them |
//! | [`flat_model`] | the flattened model as NuSMV's `write_flat_model` writes it (drop-in `-ofm`) |
//!
//! Imports go one way: `flattened` ← `paths`, `consteval` ← `instances` ← `system`, and
//! `resolve` reads all of them; the types shared with later stages come from [`crate::ir`].
//!
//! All diagnostics of a file are collected (duplicates from several instances of one module are
//! reported once); the caller stops before lowering when there are errors.

pub(crate) mod assign;
pub(crate) mod checked;
pub(crate) mod consteval;
pub(crate) mod context;
pub(crate) mod flat_model;
pub(crate) mod flattened;
pub(crate) mod index_bounds;
pub(crate) mod instances;
pub(crate) mod interner;
pub(crate) mod modules;
pub(crate) mod operators;
pub(crate) mod paths;
pub(crate) mod print;
pub(crate) mod psl;
pub(crate) mod resolve;
pub(crate) mod suggest;
pub(crate) mod system;
pub(crate) mod types;

pub(crate) use checked::CheckedProgram;

/// The name of the process selector variable of models with `process` instances (NuSMV's).
pub(crate) const PROCESS_SELECTOR: &str = "_process_selector_";

use crate::diagnostics::Diagnostic;
use crate::ir::SystemId;
use crate::syntax::ast::{self, Section, TerminationRule, TypeSpec};
use interner::Interner;
use modules::ModuleTable;
use rustc_hash::{FxHashMap, FxHashSet};
use system::Globals;

/// Choices of NuSMV's language that its command line makes (the drop-in mode's options).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct LanguageOptions {
    /// NuSMV's `-old_div_op`: integer `/` rounds down when the remainder is negative
    /// (`a / b - (a mod b < 0)`) and `mod` adds the divisor to a negative remainder, instead of
    /// ANSI C's truncation; words keep their semantics. Applied when resolving, so every engine
    /// and the constant folder see plain ANSI operators.
    pub old_div_op: bool,
}

/// Checks a parsed program. Diagnostics come back deduplicated, in the order found.
pub fn check(program: &ast::Program) -> (CheckedProgram, Vec<Diagnostic>) {
    check_with(program, LanguageOptions::default())
}

/// [`check`] with NuSMV's language options.
pub(crate) fn check_with(program: &ast::Program, language: LanguageOptions) -> (CheckedProgram, Vec<Diagnostic>) {
    let mut diags = vec![];
    let table = modules::build(program, &mut diags);
    let mut g = Globals {
        symbols: Interner::default(),
        labels: Interner::default(),
        exit_names: Interner::default(),
        procedure_system: FxHashMap::default(),
        module_exits: FxHashMap::default(),
        label_names: Default::default(),
        foreign_label_uses: vec![],
        language,
    };
    g.exit_names.intern("EXIT");
    let mut label_names = FxHashSet::default();
    let mut roots: Vec<modules::ModId> = table.flat.into_iter().collect();
    for m in table.procedures() {
        g.procedure_system.insert(m, SystemId::new(roots.len()));
        roots.push(m);
        let mut exits = vec![];
        for s in &table.modules[m].sections {
            if let Section::Exit { exits: list, .. } = s {
                for e in list {
                    if e.name.name != "EXIT" && !exits.iter().any(|(n, _): &(String, crate::ir::ExitNameId)| n == &e.name.name) {
                        exits.push((e.name.name.clone(), g.exit_names.intern(&e.name.name)));
                    }
                }
            }
        }
        if table.mentions_exit[m] {
            exits.push(("EXIT".to_string(), crate::ir::ExitNameId::EXIT));
        }
        g.module_exits.insert(m, exits);
        for s in &table.modules[m].sections {
            if let Section::Define { defs, .. } = s {
                label_names.extend(defs.iter().filter(|d| !matches!(d.expr.kind, crate::syntax::ast::ExprKind::Array(_))).map(|d| d.name.name.as_str()));
            }
        }
    }
    g.label_names = label_names;
    // Flatten in system order (symbol ids), resolve in parallel, intern labels in system order:
    // the same ids and diagnostics as building the systems one after the other.
    let mut flattened = Vec::with_capacity(roots.len());
    for (id, &root) in roots.iter().enumerate() {
        let mut flatten_diags = vec![];
        let flat = system::flatten_root(&table, root, &mut g, &mut flatten_diags);
        flattened.push((SystemId::new(id), root, flat, flatten_diags));
    }
    let resolved = crate::par::map_ordered(&flattened, 2, |(id, root, flat, _)| system::resolve_system(&table, *root, *id, flat, &g));
    let mut systems = vec![];
    let mut specs = vec![];
    for ((_, _, _, mut flatten_diags), mut r) in flattened.into_iter().zip(resolved) {
        diags.append(&mut flatten_diags);
        system::intern_globals(&mut r, &mut g);
        diags.append(&mut r.diags);
        systems.push(r.sys);
        specs.append(&mut r.specs);
    }
    if !roots.is_empty() {
        warn_unused(&table, &roots, &program.included, &mut diags);
    }
    for (name, span) in std::mem::take(&mut g.foreign_label_uses) {
        if g.labels.get(&name).is_none() {
            diags.push(
                Diagnostic::error("E0114", format!("`{name}` is not a label: no procedure module defines it as a boolean DEFINE"), span)
                    .with_help("labels are boolean DEFINEs; make the DEFINE boolean or declare the name in this module"),
            );
        }
    }
    let termination = termination(program, &mut diags);
    let checked = CheckedProgram {
        systems,
        flat: table.flat.map(|_| SystemId::new(0)),
        symbols: g.symbols.names.into_raw(),
        labels: g.labels.names.into_raw(),
        exit_names: g.exit_names.names.into_raw(),
        specs,
        termination,
    };
    (checked, dedup(diags))
}

fn termination(program: &ast::Program, diags: &mut Vec<Diagnostic>) -> TerminationRule {
    let mut rule: Option<&ast::TerminationDirective> = None;
    for d in &program.termination {
        match rule {
            Some(first) if first.rule != d.rule => diags.push(
                Diagnostic::error("E0409", "conflicting TERMINATION directives", d.span)
                    .with_secondary(first.span, "first directive")
                    .with_help("keep one `TERMINATION trap;` or `TERMINATION loop;`; `--termination` on the command line overrides it"),
            ),
            Some(_) => {}
            None => rule = Some(d),
        }
    }
    rule.map_or(TerminationRule::Trap, |d| d.rule)
}

fn warn_unused(table: &ModuleTable, roots: &[modules::ModId], included: &[String], diags: &mut Vec<Diagnostic>) {
    let mut seen: FxHashSet<modules::ModId> = roots.iter().copied().collect();
    let mut stack: Vec<modules::ModId> = roots.to_vec();
    while let Some(m) = stack.pop() {
        for (ty, _) in modules::instance_decls(table.modules[m]) {
            if let TypeSpec::Instance { module, .. } = ty
                && let Some(t) = table.get(&module.name)
                && seen.insert(t)
            {
                stack.push(t);
            }
        }
    }
    for (m, module) in table.modules.iter_enumerated() {
        if !seen.contains(&m) && !included.contains(&module.name.name) {
            diags.push(
                Diagnostic::warning("W0003", format!("module `{}` is never used", module.name.name), module.name.span)
                    .with_help("it is not instantiated from the checked model, so it is not checked; instantiate it in VAR or remove it"),
            );
        }
    }
}

fn dedup(diags: Vec<Diagnostic>) -> Vec<Diagnostic> {
    let mut seen = FxHashSet::default();
    diags.into_iter().filter(|d| seen.insert((d.code, d.primary_span(), d.message.clone()))).collect()
}
