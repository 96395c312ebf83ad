//! Builds one [`CheckedSystem`]: flattens the instance tree of a root module, resolves and types
//! every section of every instance, applies the assignment rules, and collects the specs.

use crate::diagnostics::Diagnostic;
use crate::ir::id::IdVec;
use crate::ir::{Compute, ExitNameId, LabelId, SymId, SystemId, Value, VarId};
use crate::semantics::assign::{self, Assignments, Reads, Slot};
use crate::semantics::checked::{CheckedCall, CheckedDefine, CheckedExit, CheckedSpec, CheckedSystem, DefineId, TExpr, TKind};
use crate::semantics::context::Ctx;
use crate::semantics::instances::{self, Flattened, InstId};
use crate::semantics::interner::Interner;
use crate::semantics::modules::{ModId, ModuleTable};
use crate::semantics::print;
use crate::semantics::resolve::{Flags, Resolver};
use crate::semantics::suggest::closest;
use crate::semantics::types::Ty;
use crate::syntax::ast::{Section, Spec, SpecKind, VarKind};
use rustc_hash::FxHashMap;

/// Program-wide tables shared by all systems.
pub(crate) struct Globals<'a> {
    pub symbols: Interner<SymId>,
    pub labels: Interner<LabelId>,
    pub exit_names: Interner<ExitNameId>,
    /// System id of each procedure module.
    pub procedure_system: FxHashMap<ModId, SystemId>,
    /// Exit names of each procedure module (named exits, plus `EXIT` if it uses the value).
    pub module_exits: FxHashMap<ModId, Vec<(String, ExitNameId)>>,
    /// Top-level DEFINE names of procedure modules: candidate global labels.
    /// Shared, not copied, by every system (it holds every label name of the program).
    pub label_names: rustc_hash::FxHashSet<&'a str>,
    /// Labels of other modules used in procedure specs, verified at the end.
    pub foreign_label_uses: Vec<(String, crate::source::Span)>,
    pub language: super::LanguageOptions,
}

/// Step 1 of a system, run for all systems in order before the others: the procedure-parameter
/// check and flattening. Flattening is the only step that interns symbols, so running the
/// flattenings in system order gives the same symbol ids as building systems one by one.
pub(crate) fn flatten_root<'a>(table: &ModuleTable<'a>, root: ModId, g: &mut Globals<'_>, diags: &mut Vec<Diagnostic>) -> Flattened<'a> {
    let is_procedure = table.is_procedure[root];
    let module = table.modules[root];
    if is_procedure && let Some(p) = module.params.first() {
        diags.push(
            Diagnostic::error("E0411", format!("procedure module `{}` cannot have parameters", module.name.name), p.span)
                .with_help("CALL passes no arguments; share data through labels or make it a plain module"),
        );
    }
    instances::flatten(table, root, is_procedure, &mut g.symbols, diags)
}

/// A system resolved by [`resolve_system`], before its global names are interned.
pub(crate) struct Resolved {
    pub sys: CheckedSystem,
    pub specs: Vec<CheckedSpec>,
    /// In diagnostic order.
    pub diags: Vec<Diagnostic>,
    /// Per DEFINE: whether it is a global label (a top-level boolean DEFINE of a procedure).
    label_wanted: Vec<bool>,
    /// Exits whose name was not interned yet: (index in `sys.exits`, name).
    new_exit_names: Vec<(usize, String)>,
    foreign_label_uses: Vec<(String, crate::source::Span)>,
}

/// Step 2: resolution, typing and assignment checks of one flattened system. It only reads
/// the program-wide tables, so systems can be resolved in parallel.
pub(crate) fn resolve_system(table: &ModuleTable, root: ModId, id: SystemId, flat: &Flattened, g: &Globals<'_>) -> Resolved {
    let is_procedure = table.is_procedure[root];
    let module = table.modules[root];
    let mut diags = vec![];
    let mut r = Resolver::new(flat, table, is_procedure, &mut diags);
    if is_procedure {
        r.label_names = Some(&g.label_names);
    }
    r.old_div_op = g.language.old_div_op;
    let calls = if is_procedure { callee_exits(table, root, g, &mut r) } else { vec![] };
    let mut assigns = Assignments::new(flat.vars.len());
    let mut sys = CheckedSystem {
        name: module.name.name.clone(),
        span: module.name.span,
        is_procedure,
        vars: vec![],
        init_assign: vec![],
        next_assign: vec![],
        invar_assign: vec![],
        init: vec![],
        trans: vec![],
        invar: vec![],
        fairness: vec![],
        defines: IdVec::new(),
        calls,
        exits: vec![],
        uses_exit_value: false,
        step_inputs: vec![],
        has_init_constraints: false,
        spans: Default::default(),
    };
    let mut specs = vec![];
    let mut spec_inst = vec![];
    let mut new_exit_names = vec![];
    for inst in flat.instances.indices() {
        sections(table, flat, inst, id, g, &mut r, &mut assigns, &mut sys, &mut specs, &mut new_exit_names);
        spec_inst.resize(specs.len(), inst);
    }
    let specs = in_nusmv_order(flat, specs, &spec_inst);
    let defines = r.finish_defines();
    sys.uses_exit_value = r.uses_exit_value;
    let foreign_label_uses = std::mem::take(&mut r.foreign_label_uses);
    drop(r);
    let label_wanted = finish(flat, defines, assigns, &mut sys, &mut diags);
    Resolved { sys, specs, diags, label_wanted, new_exit_names, foreign_label_uses }
}

/// Step 3, in system order: interns the system's labels and new exit names (the ids are those
/// of building the systems one by one) and records its uses of foreign labels.
pub(crate) fn intern_globals(r: &mut Resolved, g: &mut Globals<'_>) {
    for (d, wanted) in r.sys.defines.iter_mut().zip(&r.label_wanted) {
        if *wanted {
            d.label = Some(g.labels.intern(&d.name));
        }
    }
    for (i, name) in std::mem::take(&mut r.new_exit_names) {
        r.sys.exits[i].name = g.exit_names.intern(&name);
    }
    g.foreign_label_uses.append(&mut r.foreign_label_uses);
}

/// Resolves the CALL section of a procedure module's root and sets up `EXITED`'s names.
fn callee_exits(table: &ModuleTable, root: ModId, g: &Globals<'_>, r: &mut Resolver) -> Vec<CheckedCall> {
    let mut has_calls = false;
    let mut names: Vec<(String, ExitNameId)> = vec![];
    let mut out = vec![];
    for s in &table.modules[root].sections {
        let Section::Call { calls, .. } = s else { continue };
        has_calls = true;
        for c in calls {
            let condition = r.resolve(&c.condition, InstId::ROOT, Ctx::CALL);
            if !condition.ty.is_bool() {
                r.diags.push(bool_expected(&condition, "a CALL condition"));
            }
            let Some(target) = table.get(&c.target.name) else {
                let mut d = Diagnostic::error("E0401", format!("CALL target `{}` is not a defined module", c.target.name), c.target.span)
                    .with_label_message("no MODULE with this name");
                if let Some(s) = closest(&c.target.name, table.names()) {
                    d = d.with_help(format!("did you mean `{s}`?"));
                }
                r.diags.push(d);
                continue;
            };
            for (n, id) in g.module_exits.get(&target).into_iter().flatten() {
                if !names.iter().any(|(m, _)| m == n) {
                    names.push((n.clone(), *id));
                }
            }
            if let Some(&sys) = g.procedure_system.get(&target) {
                out.push(CheckedCall { target: sys, condition, span: c.span });
            }
        }
    }
    if has_calls {
        r.callee_exits = Some(names);
    }
    out
}

fn bool_expected(t: &TExpr, what: &str) -> Diagnostic {
    Diagnostic::error("E0201", format!("{what} must be boolean, found {}", t.ty), t.span).with_label_message(format!("this is {}", t.ty))
}

#[allow(clippy::too_many_arguments)]
fn sections(
    table: &ModuleTable,
    flat: &Flattened,
    inst: InstId,
    system: SystemId,
    g: &Globals<'_>,
    r: &mut Resolver,
    assigns: &mut Assignments,
    sys: &mut CheckedSystem,
    specs: &mut Vec<CheckedSpec>,
    new_exit_names: &mut Vec<(usize, String)>,
) {
    let instance = &flat.instances[inst];
    let module = table.modules[instance.module];
    for s in &module.sections {
        match s {
            Section::Assign { assigns: list, .. } => {
                for a in list {
                    let ctx = match a.kind {
                        crate::syntax::ast::AssignKind::Init => Ctx::INIT_RHS,
                        crate::syntax::ast::AssignKind::Next => Ctx::NEXT_RHS,
                        crate::syntax::ast::AssignKind::Invariant => Ctx::INVAR_RHS,
                    };
                    let target = r.resolve_target_var(&a.target, inst);
                    let value = r.resolve(&a.value, inst, ctx);
                    if let Some((v, tspan)) = target {
                        let slot = Slot { value, span: a.span, process: instance.process };
                        assigns.record(flat, v, a.kind, slot, tspan, &mut *r.diags);
                    }
                }
            }
            Section::Init { expr, span } => {
                sys.spans.init.push(*span);
                sys.has_init_constraints = true;
                let t = constraint(r, expr, inst, Ctx::INIT, "INIT");
                sys.init.push(t);
            }
            Section::Trans { expr, span } => {
                sys.spans.trans.push(*span);
                let t = constraint(r, expr, inst, Ctx::TRANS, "TRANS");
                sys.trans.push(t);
            }
            Section::Invar { expr, span } => {
                sys.spans.invar.push(*span);
                let t = constraint(r, expr, inst, Ctx::INVAR, "INVAR");
                sys.invar.push(t);
            }
            Section::Fairness { expr, justice, span } => {
                sys.spans.fairness.push(*span);
                let keyword = if *justice { "JUSTICE" } else { "FAIRNESS" };
                let t = constraint(r, expr, inst, Ctx::FAIRNESS, keyword);
                sys.fairness.push(t);
                if r.is_procedure {
                    r.diags.push(procedure_fairness_ignored(*span, keyword));
                }
            }
            Section::Compassion { span, .. } => r.diags.push(
                Diagnostic::warning("W0002", "COMPASSION constraints are not supported; this one is ignored", keyword_span(*span, "COMPASSION"))
                    .with_help("use FAIRNESS/JUSTICE, or check the model with NuSMV's LTL engine"),
            ),
            Section::Exit { exits, .. } if inst == InstId::ROOT => {
                for e in exits {
                    let condition = constraint(r, &e.condition, inst, Ctx::EXIT, "an EXIT condition");
                    // The names of the exits so far (pending ones are not interned yet).
                    let declared = |i: usize| match new_exit_names.iter().find(|(j, _)| *j == i) {
                        Some((_, n)) => n.as_str(),
                        None => g.exit_names.names.get(sys.exits[i].name).map_or("", String::as_str),
                    };
                    if e.name.name == "EXIT" || (0..sys.exits.len()).any(|i| declared(i) == e.name.name) {
                        r.diags.push(Diagnostic::error("E0407", format!("exit `{}` is declared twice", e.name.name), e.name.span).with_help(
                            if e.name.name == "EXIT" { "`EXIT` is the implicit all-EXIT exit; choose another name" } else { "give each exit its own name" },
                        ));
                        continue;
                    }
                    // Exit names of procedure modules were interned up front; a new one gets its id
                    // in `intern_globals`.
                    let name = match g.exit_names.get(&e.name.name) {
                        Some(id) => id,
                        None => {
                            new_exit_names.push((sys.exits.len(), e.name.name.clone()));
                            ExitNameId::EXIT
                        }
                    };
                    sys.exits.push(CheckedExit { name, condition, span: e.span });
                }
            }
            Section::Spec(spec) => spec_entry(r, spec, inst, &instance.path, system, specs),
            _ => {}
        }
    }
}

/// The specs in NuSMV 2.5.4's order: the instance tree is walked depth first, each module body
/// in text order, and the specs of an instance come at the place where it is declared (so with
/// `VAR a : m; SPEC p; VAR b : m;` the specs of `a` come before `p`, those of `b` after it).
/// `spec_inst[i]` is the instance that declared `specs[i]`. Compares, per spec, the positions of
/// the declarations on its instance path, then the spec's own position: every pair of positions
/// compared lies in the same module body.
fn in_nusmv_order(flat: &Flattened, specs: Vec<CheckedSpec>, spec_inst: &[InstId]) -> Vec<CheckedSpec> {
    let n = flat.instances.len();
    let mut declared_at: IdVec<InstId, u32> = IdVec::from_elem(0, n);
    for inst in &flat.instances {
        for (member, span) in inst.members.values() {
            if let instances::Member::Instance(child) = member {
                declared_at[*child] = span.start;
            }
        }
    }
    // Parents come before their children in `instances`, so one pass builds every path.
    let mut paths: IdVec<InstId, Vec<u32>> = IdVec::from_raw(Vec::with_capacity(n));
    for (i, inst) in flat.instances.iter_enumerated() {
        let mut path = inst.parent.map_or_else(Vec::new, |p| paths[p].clone());
        if inst.parent.is_some() {
            path.push(declared_at[i]);
        }
        paths.push(path);
    }
    let mut keyed: Vec<(Vec<u32>, CheckedSpec)> = (specs.into_iter().zip(spec_inst))
        .map(|(s, &inst)| {
            let mut key = paths[inst].clone();
            key.push(s.span.start);
            (key, s)
        })
        .collect();
    keyed.sort_by(|a, b| a.0.cmp(&b.0));
    keyed.into_iter().map(|(_, s)| s).collect()
}

fn constraint(r: &mut Resolver, e: &crate::syntax::ast::Expr, inst: InstId, ctx: Ctx, what: &str) -> TExpr {
    let t = r.resolve(e, inst, ctx);
    if !t.ty.is_bool() {
        r.diags.push(bool_expected(&t, what));
    }
    t
}

fn spec_entry(r: &mut Resolver, spec: &Spec, inst: InstId, path: &str, system: SystemId, specs: &mut Vec<CheckedSpec>) {
    // A PSL body is checked as LTL or as CTL (see `psl`), or skipped: not parsed (SEREs and
    // other PSL beyond NuSMV's foundation language), or not checkable.
    let psl = match (&spec.expr, spec.kind) {
        (Some(e), SpecKind::Psl) => Some(super::psl::prepare(e)),
        _ => None,
    };
    if let Some(Err((message, help))) = &psl {
        r.diags.push(Diagnostic::error("E0235", message.clone(), spec.expr.as_ref().map_or(spec.span, |e| e.span)).with_help(*help));
        return;
    }
    let keyword = match (spec.kind, &psl) {
        (SpecKind::Psl, Some(Ok(_))) => "",
        (SpecKind::Psl, _) => "PSLSPEC",
        (SpecKind::Compute, _) if r.is_procedure => "COMPUTE",
        (SpecKind::Ctl | SpecKind::Invar | SpecKind::Ltl | SpecKind::Compute, _) => "",
    };
    let in_path = |f: String| if path.is_empty() { f } else { format!("{f} IN {path}") };
    let text = match &spec.compute {
        Some(c) => Some(in_path(print::compute(c))),
        None => spec.expr.as_ref().map(|e| in_path(print::formula(e))),
    };
    if !keyword.is_empty() {
        let what = match (&spec.name, &text) {
            (Some(n), _) => format!("{keyword} `{}`", n.name),
            (None, Some(t)) => format!("{keyword} `{}`", t.trim()),
            (None, None) => keyword.to_string(),
        };
        let (message, help) = match spec.kind {
            SpecKind::Psl => (
                format!("{what} is not supported and is skipped"),
                "xmv-rs checks PSL's foundation language without SEREs (`always`, `never`, `eventually!`, `next`, `until`, `before`, `X`, `F`, `G`, `forall`) and its CTL operators; `{…}`, `|->`, `|=>`, `within`, `whilenot`, `next_a`/`next_e`/`next_event`, `abort` are not",
            ),
            SpecKind::Compute => (
                format!("{what} in a model with procedure modules is not supported and is skipped"),
                "COMPUTE is checked on flat models only: the engines for procedure modules compute no path lengths",
            ),
            _ => (
                format!("{what} is not supported and is skipped"),
                "xmv-rs checks CTL (SPEC/CTLSPEC), COMPUTE, INVARSPEC and LTLSPEC; the other specifications are ignored",
            ),
        };
        r.diags.push(Diagnostic::warning("W0001", message, spec.keyword).with_help(help));
        return;
    }
    if let Some(c) = &spec.compute {
        let operand = |r: &mut Resolver, e| {
            let t = r.resolve(e, inst, Ctx::SPEC);
            if !t.ty.is_bool() {
                r.diags.push(bool_expected(&t, "an operand of COMPUTE"));
            }
            t
        };
        let compute = Compute { extremum: c.extremum, from: operand(r, &c.from), to: operand(r, &c.to) };
        specs.push(CheckedSpec {
            kind: spec.kind,
            name: spec.name.as_ref().map(|n| n.name.clone()),
            system,
            expr: TExpr::new(TKind::Const(Value::Bool(true)), Ty::Bool, spec.span),
            compute: Some(compute),
            text: text.unwrap_or_default(),
            span: spec.span,
            linear: false,
        });
        return;
    }
    let Some(expr) = &spec.expr else { return };
    let expanded;
    let (expr, psl_logic) = match psl {
        Some(Ok((e, logic))) => {
            expanded = e;
            (&expanded, Some(logic))
        }
        _ => (expr, None),
    };
    let ctx = match (spec.kind, psl_logic) {
        (SpecKind::Psl, Some(super::psl::PslLogic::Ctl)) => Ctx::SPEC,
        (SpecKind::Psl, _) if r.is_procedure => Ctx::LTLSPEC,
        (SpecKind::Psl, _) => Ctx::LTLSPEC_FLAT,
        (SpecKind::Ctl, _) => Ctx::SPEC,
        (SpecKind::Ltl, _) if r.is_procedure => Ctx::LTLSPEC,
        (SpecKind::Ltl, _) => Ctx::LTLSPEC_FLAT,
        _ if r.is_procedure => Ctx::INVARSPEC,
        _ => Ctx::INVARSPEC_FLAT,
    };
    let t = r.resolve(expr, inst, ctx);
    if !t.ty.is_bool() {
        r.diags.push(bool_expected(&t, "a specification"));
    }
    if spec.kind == SpecKind::Ltl || psl_logic == Some(super::psl::PslLogic::Ltl) {
        ltl_below_connectives(&t, None, r.diags);
        if r.is_procedure {
            future_below_past(&t, None, r.diags);
        }
    }
    specs.push(CheckedSpec {
        kind: spec.kind,
        name: spec.name.as_ref().map(|n| n.name.clone()),
        system,
        expr: t,
        compute: None,
        text: text.unwrap_or_default(),
        span: spec.span,
        linear: spec.kind == SpecKind::Ltl || psl_logic == Some(super::psl::PslLogic::Ltl),
    });
}

/// NuSMV accepts LTL operators only below boolean connectives and other LTL operators
/// (`(X a) = b`, `case … X b …` are its "unexpected LTL operator"): E0215 at each offender.
/// `inside` is the span of the nearest enclosing non-connective, if any.
fn ltl_below_connectives(t: &crate::semantics::checked::TExpr, inside: Option<crate::source::Span>, diags: &mut Vec<Diagnostic>) {
    use crate::ir::{BinOp, UnOp};
    use crate::semantics::checked::TKind;
    match (&t.kind, inside) {
        (TKind::Ltl(op, _), Some(outer)) => {
            diags.push(
                Diagnostic::error("E0215", format!("LTL operator `{op:?}` below an operator that is not a boolean connective"), t.span)
                    .with_label_message("this LTL formula")
                    .with_secondary(outer, "is an operand here")
                    .with_help("LTL operators combine with `!`, `&`, `|`, `xor`, `xnor`, `->`, `<->` and other LTL operators only; write `(X a) <-> b` instead of `(X a) = b`"),
            );
        }
        (TKind::Ltl(..) | TKind::Unary(UnOp::Not, _), None)
        | (TKind::Binary(BinOp::And | BinOp::Or | BinOp::Xor | BinOp::Xnor | BinOp::Implies | BinOp::Iff, ..), None) => {
            t.for_each_child(|c| ltl_below_connectives(c, None, diags))
        }
        (_, None) => t.for_each_child(|c| ltl_below_connectives(c, Some(t.span), diags)),
        (_, Some(outer)) => t.for_each_child(|c| ltl_below_connectives(c, Some(outer), diags)),
    }
}

/// The LTL checkers of procedure modules monitor past operators deterministically, so their
/// operands must be past or propositional: E0221 at a future operator (`X G F U V`) below a past
/// one (`O (F p)`), which NuSMV accepts and the BDD engine checks on flat models (flat models are
/// not refused here). `past` is the span of the nearest enclosing past operator.
fn future_below_past(t: &crate::semantics::checked::TExpr, past: Option<crate::source::Span>, diags: &mut Vec<Diagnostic>) {
    use crate::semantics::checked::TKind;
    match (&t.kind, past) {
        (TKind::Ltl(op, _), Some(outer)) if !op.is_past() => diags.push(
            Diagnostic::error("E0221", format!("future operator `{op:?}` below a past operator is not supported in procedure modules"), t.span)
                .with_label_message("a future formula")
                .with_secondary(outer, "inside this past operator")
                .with_help("the procedure modules' LTL engines read past operators (Y Z H O S T) over past and propositional operands only (the BDD engine of flat models reads any operand); rewrite the spec without a future operator inside a past one"),
        ),
        (TKind::Ltl(op, _), None) if op.is_past() => t.for_each_child(|c| future_below_past(c, Some(t.span), diags)),
        _ => t.for_each_child(|c| future_below_past(c, past, diags)),
    }
}

/// Cycle checks and the system's final tables; returns, per DEFINE, whether it is a global label.
fn finish(flat: &Flattened, defines: IdVec<DefineId, (TExpr, Flags)>, assigns: Assignments, sys: &mut CheckedSystem, diags: &mut Vec<Diagnostic>) -> Vec<bool> {
    let bodies: IdVec<DefineId, TExpr> = defines.into_raw().into_iter().map(|(t, _)| t).collect();
    check_cycles(flat, &bodies, &assigns, diags);
    let step_inputs = inputs_in_fairness(flat, &bodies, &sys.fairness);
    let label_wanted: Vec<bool> =
        (bodies.iter().zip(&flat.defines)).map(|(expr, slot)| sys.is_procedure && slot.inst == InstId::ROOT && expr.ty == Ty::Bool).collect();
    sys.defines = (bodies.into_raw().into_iter().zip(&flat.defines))
        .map(|(expr, slot)| CheckedDefine { name: slot.name.clone(), expr, span: slot.span, scope: slot.inst.as_u32(), label: None })
        .collect();
    sys.vars = flat.vars.clone();
    let spans = |l: &[Option<Slot>]| l.iter().map(|s| s.as_ref().map(|s| s.span)).collect::<Vec<_>>();
    sys.spans.init_assign = spans(&assigns.init);
    sys.spans.next_assign = spans(&assigns.next);
    sys.spans.invar_assign = spans(&assigns.invar);
    sys.init_assign = assigns.init.into_iter().map(|s| s.map(|s| s.value)).collect();
    if let (Some(sel), true) = (flat.selector, flat.selector_in_state) {
        // Initially no process has moved: the selector starts at `main`.
        if let Some(main) = flat.symbols.get("main") {
            sys.init_assign[sel.index()] = Some(TExpr::new(TKind::Const(Value::Sym(*main)), Ty::Sym, sys.span));
            sys.spans.init_assign[sel.index()] = Some(sys.span);
        }
    }
    record_step_inputs(flat, &step_inputs, sys);
    if let (Some(sel), true) = (flat.selector, flat.selector_in_state) {
        // The selector in the state is the process of the step that led there: a recorded
        // step input too (a transition reads `running` as the step's process).
        sys.step_inputs[sel.index()] = true;
    }
    sys.invar_assign = assigns.invar.into_iter().map(|s| s.map(|s| s.value)).collect();
    let mut others = assigns.other_processes_next;
    sys.next_assign =
        assigns.next.into_iter().enumerate().map(|(v, s)| s.map(|s| guard_by_process(flat, VarId::new(v), s, std::mem::take(&mut others[v])))).collect();
    label_wanted
}

/// The input variables FAIRNESS constraints read (through DEFINEs too).
fn inputs_in_fairness(flat: &Flattened, defines: &IdVec<DefineId, TExpr>, fairness: &[TExpr]) -> Vec<VarId> {
    let mut reads = Reads::new(defines);
    let mut inputs: Vec<VarId> = fairness.iter().flat_map(|t| reads.of(t).0).filter(|&v| flat.vars[v.index()].kind == VarKind::Input).collect();
    inputs.sort_unstable();
    inputs.dedup();
    inputs
}

/// Input variables read by FAIRNESS constraints become state variables holding the input of the
/// step that led to the state (initially their first value); see `CheckedSystem::step_inputs`.
fn record_step_inputs(flat: &Flattened, inputs: &[VarId], sys: &mut CheckedSystem) {
    sys.step_inputs = vec![false; sys.vars.len()];
    for &v in inputs {
        let var = &mut sys.vars[v.index()];
        var.kind = VarKind::State;
        sys.step_inputs[v.index()] = true;
        sys.init_assign[v.index()] = Some(TExpr::new(TKind::Const(var.domain.value(0)), flat.var_ty[v.index()], var.span));
        sys.spans.init_assign[v.index()] = Some(var.span);
    }
}

fn check_cycles(flat: &Flattened, defines: &IdVec<DefineId, TExpr>, assigns: &Assignments, diags: &mut Vec<Diagnostic>) {
    let mut reads = Reads::new(defines);
    let n = flat.vars.len();
    let mut now_edges = vec![vec![]; n];
    let mut next_edges = vec![vec![]; n];
    for v in 0..n {
        if let Some(s) = &assigns.invar[v] {
            let (cur, _) = reads.of(&s.value);
            now_edges[v] = cur.into_iter().filter(|&y| assigns.invar[y.index()].is_some()).collect();
        }
        for s in assigns.next[v].iter().chain(&assigns.other_processes_next[v]) {
            let (_, nxt) = reads.of(&s.value);
            next_edges[v].extend(nxt.into_iter().filter(|&y| assigns.next[y.index()].is_some()));
        }
    }
    let spans = |l: &[Option<Slot>]| l.iter().map(|s| s.as_ref().map(|s| s.span)).collect::<Vec<_>>();
    assign::report_cycles(&flat.vars, &now_edges, &spans(&assigns.invar), "invariant", diags);
    assign::report_cycles(&flat.vars, &next_edges, &spans(&assigns.next), "next", diags);
}

/// With processes, `next(x) := e` written in process k means
/// `next(x) := case _process_selector_ = k : e; TRUE : x; esac` (NuSMV's interleaving); a
/// variable assigned in several processes gets one branch per process.
fn guard_by_process(flat: &Flattened, v: VarId, first: Slot, others: Vec<Slot>) -> TExpr {
    if flat.selector.is_none() {
        return first.value;
    }
    let span = first.value.span;
    let mut ty = first.value.ty;
    let mut branches = vec![];
    for s in std::iter::once(first).chain(others) {
        let mut running = flat.running(s.process, span).unwrap_or_else(|| TExpr::error(span));
        if flat.selector_in_state {
            // The selector holds the process that made the last step: the step being taken is
            // by process k when the next state's selector is k.
            if let TKind::Binary(_, sel, _) = &mut running.kind {
                let current = std::mem::replace(&mut **sel, TExpr::error(span));
                **sel = TExpr::new(TKind::Next(Box::new(current)), Ty::Sym, span);
            }
        }
        ty = crate::semantics::types::unify(ty, s.value.ty, true).unwrap_or(ty);
        branches.push((running, s.value));
    }
    let keep = TExpr::new(TKind::Var(v), flat.var_ty[v.index()], span);
    let otherwise = TExpr::new(TKind::Const(Value::Bool(true)), Ty::Bool, span);
    branches.push((otherwise, keep));
    TExpr::new(TKind::Case(branches), ty, span)
}

/// W0005: the RKS engines that check procedure modules have no fairness; a `FAIRNESS`/`JUSTICE`
/// constraint of a procedure module (or of an instance inside one) is resolved and type-checked
/// but not used by any verdict.
fn procedure_fairness_ignored(span: crate::source::Span, keyword: &str) -> Diagnostic {
    Diagnostic::warning(
        "W0005",
        format!("{keyword} constraints of procedure modules are ignored: specs are checked on every path"),
        keyword_span(span, keyword),
    )
    .with_help(
        "the engines for procedure modules (CALL/EXIT) do not restrict paths to fair ones; verdicts of E/A specs and LTLSPEC hold for all paths, fair or not",
    )
}

/// The span of a section's leading keyword.
fn keyword_span(section: crate::source::Span, keyword: &str) -> crate::source::Span {
    crate::source::Span { start: section.start, end: section.start + keyword.len() as u32 }
}
