//! Procedure modules → a [`RecursiveKripkeStructure`] (one [`Component`] per procedure system).
//!
//! Each component's nodes are the valuations reachable from its single entry (the one initial
//! state; node 0), explored breadth-first with the same plans as flat models ([`super::step`]),
//! where `EXIT` is sticky. A node is classified when it is expanded:
//! - an *exit* if all variables are `EXIT` (exit `EXIT`, when the module uses the `EXIT` value)
//!   or it satisfies a named exit's condition: no successors;
//! - a *call* of module `T` if it satisfies `CALL T := condition`: no intra-module successors;
//!   for every exit name `n` through which `T` can return, its return successors are its
//!   successors computed with `EXITED = n`;
//! - otherwise a location with its ordinary successors.
//!
//! Which exit names a module can return through is only known once it is explored, and modules
//! call each other recursively, so exploration is one worklist over all components: when a
//! component reaches a new exit name, the returns of every call to it found so far are computed
//! for that name (adding nodes to the callers), and a newly found call immediately gets returns
//! for the names its target already has. Only reachable valuations become nodes.
//!
//! Well-formedness errors (`E0507`): the entry is a call or not exactly one state, a node matches
//! two `CALL`s or two exits or is both, a call returns to a call, a call has other than exactly
//! one return successor per exit of its target. A label holding at a call is a warning (`W0503`;
//! calls carry no labels). Locations without successors are a deadlock warning (`W0501`).
//!
//! Propositions: the program's global labels (`PropId = LabelId`), then one extra proposition per
//! distinct `SpecAtom::State` atom of a procedure spec, true only in locations of that spec's
//! module.

use super::atoms::{AtomLabeller, StateSet};
use super::budget::{MemoryBudget, OutOfMemory};
use super::build_diag::{self as diag, BuildSize, ErrorContext};
use super::build_flat::BuildLimits;
use super::conditions::ConditionIndex;
use super::csr::Csr;
use super::eval::{EXIT_INDEX, Env, Evaluator};
use super::names::Names;
use super::rks::{Component, ComponentId, Labels, NO_CALL, NodeId, RecursiveKripkeStructure};
use super::state_table::StateTable;
use super::step::{DomainIndex, Plan, Scratch, StepError};
use crate::ctl::Ctl;
use crate::diagnostics::{Diagnostic, Diagnostics};
use crate::ir::PropId;
use crate::lowering::program::{ExitNameId, Expr, LoweredProgram, SpecAtom, System, SystemId};
use fixedbitset::FixedBitSet;
use rustc_hash::FxHashMap;
use std::ops::ControlFlow;

/// The recursive model of a program's procedure modules, ready for checking.
#[derive(Clone, Debug)]
pub struct RksModel {
    pub rks: RecursiveKripkeStructure,
    /// Indexed by `SystemId`: the component of each procedure system.
    pub component_of: Vec<Option<ComponentId>>,
    /// Indexed by `ComponentId`: its system.
    pub system_of: Vec<SystemId>,
    /// Indexed by `ComponentId`: row-major node valuations (one value index per variable of the
    /// system; `EXIT_INDEX` for `EXIT`).
    pub values: Vec<Vec<u32>>,
    /// The procedure specs, in file order.
    pub specs: Vec<RksSpec>,
    pub warnings: Vec<Diagnostic>,
}

#[derive(Clone, Debug)]
pub struct RksSpec {
    /// Index into `LoweredProgram::specs`.
    pub spec: usize,
    /// The spec's initial component.
    pub component: ComponentId,
    /// `INVARSPEC`: `formula` is the invariant's atom (it must hold in every reachable
    /// configuration, i.e. `AG formula`).
    pub invariant: bool,
    pub formula: Ctl<PropId>,
    /// `LTLSPEC`: the formula (`formula` is then `Ctl::True`, unused), over the same propositions.
    pub ltl: Option<crate::ltl::Ltl<PropId>>,
}

impl RksModel {
    /// The valuation of node `n` of component `c`.
    pub(crate) fn node_values(&self, program: &LoweredProgram, c: ComponentId, n: NodeId) -> &[u32] {
        let w = program.systems[self.system_of[c.index()].index()].vars.len();
        &self.values[c.index()][n as usize * w..(n as usize + 1) * w]
    }
}

/// What a node is, decided when it is expanded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum NodeKind {
    Location,
    Call { target: ComponentId, entry: usize },
    Exit(ExitNameId),
}

/// Exploration state of one component.
struct Explorer<'p> {
    system: &'p System,
    next_plan: Plan<'p>,
    input_plan: Plan<'p>,
    /// The exit conditions, and the `CALL` conditions, by value where possible.
    exit_conditions: ConditionIndex,
    call_conditions: ConditionIndex,
    table: StateTable,
    /// BFS tree for diagnostics (`u32::MAX` at the entry).
    parent: Vec<u32>,
    kinds: Vec<NodeKind>,
    expanded: u32,
    edges: Vec<(u32, u32)>,
    /// (call node, exit name) → return successors.
    returns: FxHashMap<(NodeId, ExitNameId), Vec<NodeId>>,
    /// Exit names reached so far, in discovery order.
    exit_names: Vec<ExitNameId>,
    /// Calls to this component found so far: (caller component, call node).
    callers: Vec<(ComponentId, NodeId)>,
}

/// Builds the recursive Kripke structure of all procedure modules of `program`.
pub fn build_rks(program: &LoweredProgram, limits: &BuildLimits) -> Result<RksModel, Diagnostics> {
    let mut diags = Diagnostics::new();
    let names = Names::of(program);
    let system_of: Vec<SystemId> = (0..program.systems.len()).filter(|&s| program.systems[s].is_procedure).map(SystemId::new).collect();
    let mut component_of = vec![None; program.systems.len()];
    for (c, &s) in system_of.iter().enumerate() {
        component_of[s.index()] = Some(ComponentId::new(c));
    }
    let domains: Vec<DomainIndex> = system_of.iter().map(|&s| DomainIndex::new(&program.systems[s.index()])).collect();
    let mut explorers = vec![];
    for (c, &s) in system_of.iter().enumerate() {
        let system = &program.systems[s.index()];
        match entry_explorer(system, &domains[c], &names) {
            Ok(e) => explorers.push(e),
            Err(d) => diags.push(d),
        }
    }
    if diags.has_errors() {
        return Err(diags);
    }
    crate::cpu_trace::mark("rks explorers");
    let nodes = explorers.iter().map(|e| e.table.len() as u64).sum();
    let mut budget = MemoryBudget::new(limits.max_memory);
    budget.account(explorers.iter().map(|e| e.table.reserved_bytes() + super::budget::reserved(&e.parent)).sum());
    let mut worklist =
        Worklist { names: &names, component_of: &component_of, explorers, jobs: vec![], max: limits.max_states.unwrap_or(u64::MAX), nodes, budget };
    let progress = crate::progress::Progress::build("locations");
    if let Err(d) = worklist.run(&progress) {
        diags.push(d);
        return Err(diags);
    }
    drop(progress);
    crate::cpu_trace::mark("rks explored");
    // Still to allocate per component: labels (a bitset per proposition the component defines:
    // its labelled DEFINEs and at most one per state atom of the specs on its module; the
    // others are not stored, see `rks::Labels`) and the CSR arrays of its edges and returns.
    let mut state_atoms = vec![0u64; worklist.explorers.len()];
    for spec in &program.specs {
        if let Some(c) = component_of.get(spec.system.index()).copied().flatten() {
            let mut count = |a: &SpecAtom| {
                if matches!(a, SpecAtom::State(_)) {
                    state_atoms[c.index()] += 1;
                }
            };
            let _ = spec.formula.map_atoms(&mut count);
            if let Some(ltl) = &spec.ltl {
                let _ = ltl.map_atoms(&mut count);
            }
        }
    }
    let after: u64 = (worklist.explorers.iter().zip(&state_atoms))
        .map(|(e, &atoms)| {
            let props = e.system.define_labels.iter().flatten().count() as u64 + atoms;
            props * (e.table.len() as u64).div_ceil(64) * 8 + e.edges.len() as u64 * 12 + (e.table.len() as u64 + 1) * 8
        })
        .sum();
    if let Err(e) = worklist.budget.need(after) {
        let d = diag::out_of_memory(e, &worklist.size(), worklist.span());
        diags.push(d.with_note(format!("labelling and the successor arrays need {} more", super::budget::format_size(after))));
        return Err(diags);
    }
    let explorers = worklist.explorers;
    let mut warnings = vec![];
    for e in &explorers {
        check_calls(e, &explorers, &names, &mut diags);
        deadlock(e, &names, &mut warnings);
    }
    if diags.has_errors() {
        return Err(diags);
    }

    // Propositions: global labels first, then the state atoms of procedure specs.
    let mut extra: Vec<(ComponentId, Expr)> = vec![];
    let mut extra_ids: FxHashMap<(ComponentId, String), PropId> = FxHashMap::default();
    let num_labels = program.labels.len();
    let mut specs = vec![];
    for (i, spec) in program.specs.iter().enumerate() {
        let Some(c) = component_of.get(spec.system.index()).copied().flatten() else { continue };
        let mut prop = |a: &SpecAtom| match a {
            SpecAtom::Label(l) => PropId::from_u32(l.as_u32()),
            SpecAtom::State(e) => *extra_ids.entry((c, format!("{e:?}"))).or_insert_with(|| {
                extra.push((c, e.clone()));
                PropId::new(num_labels + extra.len() - 1)
            }),
        };
        let formula = spec.formula.map_atoms(&mut prop);
        let ltl = spec.ltl.as_ref().map(|f| f.map_atoms(&mut prop));
        specs.push(RksSpec { spec: i, component: c, invariant: spec.kind == crate::ir::SpecKind::Invar, formula, ltl });
    }
    let mut prop_names = program.labels.clone();
    for (c, e) in &extra {
        let system = &program.systems[system_of[c.index()].index()];
        prop_names.push(format!("{} IN {}", names.expr(system, e), system.name));
    }

    // Per component: the names of its exit nodes, in node order (its calls' return rows).
    let exits_in_order: Vec<Vec<ExitNameId>> =
        explorers.iter().map(|e| e.kinds.iter().filter_map(|k| if let NodeKind::Exit(x) = k { Some(*x) } else { None }).collect()).collect();
    // The components are finished independently (in parallel with the front end's workers);
    // warnings and errors are collected in component order.
    crate::cpu_trace::mark("rks specs");
    let ids: Vec<usize> = (0..explorers.len()).collect();
    let finished = crate::par::map_ordered(&ids, 2, |&c| {
        let e = &explorers[c];
        let mut warnings = vec![];
        let done = component_props(program, ComponentId::new(c), system_of[c], e, &domains[c], &extra, &names, &mut warnings)
            .map(|props| (finish_component(e, &exits_in_order, props, &names), e.table.arena().to_vec()));
        (done, warnings)
    });
    let mut components = vec![];
    let mut values = vec![];
    for (done, mut component_warnings) in finished {
        warnings.append(&mut component_warnings);
        match done {
            Ok((component, arena)) => {
                components.push(component);
                values.push(arena);
            }
            Err(d) => diags.push(d),
        }
    }
    if diags.has_errors() {
        return Err(diags);
    }
    let rks = RecursiveKripkeStructure { components, prop_names, termination: program.termination };
    Ok(RksModel { rks, component_of, system_of, values, specs, warnings })
}

/// Computes the single entry of a procedure module.
fn entry_explorer<'p>(system: &'p System, domains: &'p DomainIndex, names: &Names) -> Result<Explorer<'p>, Diagnostic> {
    let no_ctx = ErrorContext { state: None, path: vec![], during: None };
    let init_plan = Plan::init(system, domains).map_err(|e| diag::step_error(&e, system, names, &no_ctx))?;
    let next_plan = Plan::next(system, domains).map_err(|e| diag::step_error(&e, system, names, &no_ctx))?;
    let input_plan = Plan::inputs(system, domains);
    let width = system.vars.len();
    let zeros = vec![0u32; width];
    let mut initial = StateTable::new(width);
    init_plan
        .run(&mut Scratch::default(), &mut Evaluator::new(&system.vars), &zeros, &zeros, None, &mut |v| {
            initial.insert(v);
            // Eight are enough to tell that there is not exactly one.
            if initial.len() < 8 { ControlFlow::Continue(()) } else { ControlFlow::Break(()) }
        })
        .map_err(|e| diag::step_error(&e, system, names, &no_ctx))?;
    if initial.len() != 1 {
        let span = system.spans.init_assign.iter().flatten().next().copied().unwrap_or(system.span);
        // Same code as the front end's static check of the same rule.
        let mut d = Diagnostic::error("E0405", format!("procedure module `{}` must have exactly one initial state", system.name), span)
            .with_label_message(if initial.is_empty() { "no initial state" } else { "several initial states" })
            .with_help("give every variable one initial value with `init(x) := value;` (the entry of a procedure is a single location)");
        for s in 0..initial.len().min(3) {
            d = d.with_note(format!("initial state: {}", names.state(system, initial.get(s))));
        }
        return Err(d);
    }
    let mut table = StateTable::new(width);
    table.insert(initial.get(0));
    Ok(Explorer {
        system,
        next_plan,
        input_plan,
        exit_conditions: ConditionIndex::new(system, domains, system.exits.iter().map(|x| &x.condition)),
        call_conditions: ConditionIndex::new(system, domains, system.calls.iter().map(|c| &c.condition)),
        table,
        parent: vec![u32::MAX],
        kinds: vec![],
        expanded: 0,
        edges: vec![],
        returns: FxHashMap::default(),
        exit_names: vec![],
        callers: vec![],
    })
}

struct Worklist<'p, 'n> {
    names: &'n Names<'p>,
    component_of: &'n [Option<ComponentId>],
    explorers: Vec<Explorer<'p>>,
    /// Returns to compute: (caller component, call node, exit name).
    jobs: Vec<(ComponentId, NodeId, ExitNameId)>,
    max: u64,
    /// Nodes of all components so far.
    nodes: u64,
    /// Bytes reserved by the explorers' tables, parent arrays, kinds and edges.
    budget: MemoryBudget,
}

impl<'p, 'n> Worklist<'p, 'n> {
    fn run(&mut self, progress: &crate::progress::Progress) -> Result<(), Diagnostic> {
        let bar = progress;
        let mut ev_scratch: Vec<(Evaluator<'p>, Evaluator<'p>, Scratch, Scratch)> =
            self.explorers.iter().map(|e| (Evaluator::new(&e.system.vars), Evaluator::new(&e.system.vars), Scratch::default(), Scratch::default())).collect();
        loop {
            let mut progress = false;
            for (c, scratch) in ev_scratch.iter_mut().enumerate() {
                while self.explorers[c].expanded < self.explorers[c].table.len() {
                    let n = self.explorers[c].expanded;
                    self.expand(ComponentId::new(c), n, scratch)?;
                    self.explorers[c].expanded += 1;
                    progress = true;
                    self.check_limit()?;
                    if self.nodes & (crate::progress::EVERY - 1) == 0 {
                        let queued: u32 = self.explorers.iter().map(|e| e.table.len() - e.expanded).sum();
                        bar.states(self.nodes, queued.into());
                    }
                }
            }
            for (c, call, exit) in std::mem::take(&mut self.jobs) {
                let succs = self.successors(c, call, Some(exit), &mut ev_scratch[c.index()])?;
                self.explorers[c.index()].returns.insert((call, exit), succs);
                progress = true;
            }
            self.check_limit()?;
            if !progress {
                return Ok(());
            }
        }
    }

    fn check_limit(&self) -> Result<(), Diagnostic> {
        if self.nodes > self.max {
            return Err(diag::state_limit(self.max, &self.size(), self.span()));
        }
        Ok(())
    }

    /// The span limit diagnostics point at: the first procedure module.
    fn span(&self) -> crate::source::Span {
        self.explorers.first().map_or(Default::default(), |e| e.system.span)
    }

    fn size(&self) -> BuildSize {
        BuildSize { count: self.nodes, what: "locations", bytes: self.budget.used(), limit: self.budget.limit() }
    }

    fn out_of_memory(&self, e: OutOfMemory) -> Diagnostic {
        diag::out_of_memory(e, &self.size(), self.span())
    }

    /// The path from the entry to node `n` of component `c`, as valuations.
    fn path(&self, c: ComponentId, n: NodeId) -> Vec<String> {
        let e = &self.explorers[c.index()];
        let mut path = vec![];
        let mut cur = n;
        loop {
            path.push(self.names.state(e.system, e.table.get(cur)));
            match e.parent.get(cur as usize) {
                Some(&p) if p != u32::MAX => cur = p,
                _ => break,
            }
        }
        path.reverse();
        path
    }

    fn error_at(&self, c: ComponentId, n: NodeId, err: &StepError, during: Option<String>) -> Diagnostic {
        let e = &self.explorers[c.index()];
        let ctx = ErrorContext { state: Some(self.names.state(e.system, e.table.get(n))), path: self.path(c, n), during };
        diag::step_error(err, e.system, self.names, &ctx)
    }

    fn expand(&mut self, c: ComponentId, n: NodeId, evs: &mut (Evaluator<'p>, Evaluator<'p>, Scratch, Scratch)) -> Result<(), Diagnostic> {
        let kind = self.classify(c, n, &mut evs.0)?;
        let e = &mut self.explorers[c.index()];
        if let Err(err) = self.budget.push(&mut e.kinds, kind) {
            return Err(self.out_of_memory(err));
        }
        match kind {
            NodeKind::Exit(name) => {
                if !e.exit_names.contains(&name) {
                    e.exit_names.push(name);
                    for &(caller, call) in &e.callers {
                        self.jobs.push((caller, call, name));
                    }
                }
            }
            NodeKind::Call { target, entry } => {
                if n == 0 {
                    let system = e.system;
                    return Err(Diagnostic::error(
                        diag::E_PROC,
                        format!("the entry of procedure module `{}` is a call", system.name),
                        system.calls[entry].span,
                    )
                    .with_label_message("the initial state satisfies this call condition")
                    .with_note(format!("entry: {}", self.names.state(system, e.table.get(0))))
                    .with_help("start the module in an ordinary location and step to the call from there"));
                }
                let t = &mut self.explorers[target.index()];
                t.callers.push((c, n));
                for &name in &t.exit_names {
                    self.jobs.push((c, n, name));
                }
            }
            NodeKind::Location => {
                let succs = self.successors(c, n, None, evs)?;
                let e = &mut self.explorers[c.index()];
                if let Err(err) = self.budget.reserve(&mut e.edges, succs.len()) {
                    return Err(self.out_of_memory(err));
                }
                e.edges.extend(succs.into_iter().map(|t| (n, t)));
            }
        }
        Ok(())
    }

    fn classify(&self, c: ComponentId, n: NodeId, ev: &mut Evaluator<'p>) -> Result<NodeKind, Diagnostic> {
        let e = &self.explorers[c.index()];
        let system = e.system;
        let state = e.table.get(n);
        let env = Env::state(state);
        let fail = |span, err: super::eval::EvalError, what: &str| {
            let step = StepError { kind: super::step::StepErrorKind::Eval(err), origin: super::step::Origin::Invar, span, partial: vec![] };
            self.error_at(c, n, &step, Some(format!("while evaluating the {what} condition at `{}`", system.name)))
        };
        let mut exit: Option<(ExitNameId, Option<crate::source::Span>)> = None;
        if system.uses_exit_value && !state.is_empty() && state.iter().all(|&v| v == EXIT_INDEX) {
            exit = Some((ExitNameId::EXIT, None));
        }
        e.exit_conditions.for_each_holding(
            state,
            |i| ev.bool(&system.exits[i].condition, &env).map_err(|err| fail(system.exits[i].span, err, "EXIT")),
            |i| {
                let x = &system.exits[i];
                if let Some((other, span)) = exit {
                    let mut d = Diagnostic::error(diag::E_PROC, "a location satisfies two exit conditions", x.span)
                        .with_label_message(format!("exit `{}`", self.names.value(crate::lowering::program::Value::ExitName(x.name))))
                        .with_note(format!("location: {}", self.names.state(system, state)))
                        .with_help("make the exit conditions mutually exclusive");
                    if let Some(s) = span {
                        d = d.with_secondary(s, "also satisfies this exit");
                    } else {
                        d = d.with_note(format!("it is also the all-EXIT exit `{}`", self.names.value(crate::lowering::program::Value::ExitName(other))));
                    }
                    return Err(d);
                }
                exit = Some((x.name, Some(x.span)));
                Ok(())
            },
        )?;
        let mut call: Option<(usize, ComponentId)> = None;
        e.call_conditions.for_each_holding(
            state,
            |i| ev.bool(&system.calls[i].condition, &env).map_err(|err| fail(system.calls[i].span, err, "CALL")),
            |i| {
                let entry = &system.calls[i];
                if let Some((first, _)) = call {
                    return Err(Diagnostic::error(diag::E_PROC, "a state satisfies two CALL conditions", entry.span)
                        .with_label_message("this call condition holds")
                        .with_secondary(system.calls[first].span, "and so does this one")
                        .with_note(format!("state: {}", self.names.state(system, state)))
                        .with_note(diag::path_note(&self.path(c, n)))
                        .with_help("make the CALL conditions mutually exclusive"));
                }
                let Some(target) = self.component_of.get(entry.target.index()).copied().flatten() else {
                    return Err(Diagnostic::error(diag::E_PROC, "CALL target is not a procedure module", entry.span));
                };
                call = Some((i, target));
                Ok(())
            },
        )?;
        match (exit, call) {
            (Some(_), Some((i, _))) => Err(Diagnostic::error(diag::E_PROC, "an exit location satisfies a CALL condition", system.calls[i].span)
                .with_label_message("this call condition holds at an exit")
                .with_note(format!("location: {}", self.names.state(system, state)))
                .with_help("an exit cannot be a call; exclude exit locations from the CALL condition")),
            (Some((name, _)), None) => Ok(NodeKind::Exit(name)),
            (None, Some((entry, target))) => Ok(NodeKind::Call { target, entry }),
            (None, None) => Ok(NodeKind::Location),
        }
    }

    /// Successors of node `n` (with `EXITED = exited` for the returns of a call), inserted as
    /// nodes of component `c`; sorted, without duplicates.
    fn successors(
        &mut self,
        c: ComponentId,
        n: NodeId,
        exited: Option<ExitNameId>,
        evs: &mut (Evaluator<'p>, Evaluator<'p>, Scratch, Scratch),
    ) -> Result<Vec<NodeId>, Diagnostic> {
        let e = &mut self.explorers[c.index()];
        let width = e.system.vars.len();
        let cur = e.table.get(n).to_vec();
        let zeros = vec![0u32; width];
        let mut out = vec![];
        let mut added = 0;
        let mut failure = None;
        let mut oom = None;
        let budget = &mut self.budget;
        let (ev, ev_inputs, scratch, scratch_inputs) = evs;
        let (table, parent, next_plan) = (&mut e.table, &mut e.parent, &e.next_plan);
        let outer = e.input_plan.run(scratch_inputs, ev_inputs, &cur, &cur, None, &mut |with_inputs| {
            if failure.is_some() || oom.is_some() {
                return ControlFlow::Break(());
            }
            let r = next_plan.run(scratch, ev, with_inputs, &zeros, exited, &mut |next| {
                match table.try_insert(next, budget) {
                    Ok((id, new)) => {
                        if new {
                            oom = budget.push(parent, n).err();
                            added += 1;
                        }
                        out.push(id);
                    }
                    Err(err) => oom = Some(err),
                }
                if oom.is_some() { ControlFlow::Break(()) } else { ControlFlow::Continue(()) }
            });
            if let Err(err) = r {
                failure = Some(err);
            }
            ControlFlow::Continue(())
        });
        if let Some(err) = outer.err().or(failure) {
            let during = exited.map(|x| {
                let target = match self.explorers[c.index()].kinds.get(n as usize) {
                    Some(NodeKind::Call { target, .. }) => self.explorers[target.index()].system.name.clone(),
                    _ => "the callee".into(),
                };
                format!(
                    "while computing the return of this call from `{target}` through exit `{}`",
                    self.names.value(crate::lowering::program::Value::ExitName(x))
                )
            });
            return Err(self.error_at(c, n, &err, during));
        }
        self.nodes += added;
        if let Some(err) = oom {
            return Err(self.out_of_memory(err));
        }
        out.sort_unstable();
        out.dedup();
        Ok(out)
    }
}

/// Calls must return to exactly one location per exit of their target.
fn check_calls(e: &Explorer, explorers: &[Explorer], names: &Names, diags: &mut Diagnostics) {
    for (n, kind) in e.kinds.iter().enumerate() {
        let NodeKind::Call { target, entry } = *kind else { continue };
        let t = &explorers[target.index()];
        let span = e.system.calls[entry].span;
        for &x in &t.exit_names {
            let exit = names.value(crate::lowering::program::Value::ExitName(x));
            let succs = e.returns.get(&(n as NodeId, x)).map_or(&[][..], |v| v.as_slice());
            let state = || names.state(e.system, e.table.get(n as u32));
            if succs.len() != 1 {
                let mut d = Diagnostic::error(
                    diag::E_PROC,
                    format!("a call has {} successor locations when `{}` returns through exit `{exit}`", succs.len(), t.system.name),
                    span,
                )
                .with_label_message("this call")
                .with_note(format!("call state: {}", state()))
                .with_help("`next()` must give exactly one location at a call state for each exit of the callee (use `EXITED` to tell the exits apart)");
                for &s in succs.iter().take(4) {
                    d = d.with_note(format!("successor: {}", names.state(e.system, e.table.get(s))));
                }
                diags.push(d);
                continue;
            }
            if let Some(NodeKind::Call { target: t2, entry: e2 }) = e.kinds.get(succs[0] as usize) {
                diags.push(
                    Diagnostic::error(diag::E_PROC, "a call returns directly to another call", span)
                        .with_label_message("this call")
                        .with_secondary(e.system.calls[*e2].span, format!("returns to a call of `{}`", explorers[t2.index()].system.name))
                        .with_note(format!("call state: {}", state()))
                        .with_note(format!(
                            "successor (a call) when `{}` returns through `{exit}`: {}",
                            t.system.name,
                            names.state(e.system, e.table.get(succs[0]))
                        ))
                        .with_help("insert an ordinary location between the two calls"),
                );
            }
        }
    }
}

/// A warning for the first location (in BFS order) without successors.
fn deadlock(e: &Explorer, names: &Names, warnings: &mut Vec<Diagnostic>) {
    let mut has_succ = vec![false; e.kinds.len()];
    for &(s, _) in &e.edges {
        has_succ[s as usize] = true;
    }
    let dead: Vec<usize> = (0..e.kinds.len()).filter(|&n| e.kinds[n] == NodeKind::Location && !has_succ[n]).collect();
    if let Some(&first) = dead.first() {
        let mut path = vec![];
        let mut cur = first as u32;
        loop {
            path.push(names.state(e.system, e.table.get(cur)));
            match e.parent[cur as usize] {
                u32::MAX => break,
                p => cur = p,
            }
        }
        path.reverse();
        let mut d = diag::deadlock_warning(dead.len(), e.system.span, &path);
        d.message = format!("{} (in procedure module `{}`)", d.message, e.system.name);
        warnings.push(d);
    }
}

/// Proposition bitsets of a component: its labelled DEFINEs and the state atoms of its specs,
/// never at calls (a label holding at a call is a warning).
#[allow(clippy::too_many_arguments)] // the component, its program context and the warning sink: no struct groups them elsewhere
fn component_props(
    program: &LoweredProgram,
    c: ComponentId,
    system_id: SystemId,
    e: &Explorer,
    domains: &DomainIndex,
    extra: &[(ComponentId, Expr)],
    names: &Names,
    warnings: &mut Vec<Diagnostic>,
) -> Result<Labels, Diagnostic> {
    let system = e.system;
    let n = e.table.len() as usize;
    let states = StateSet::Rows { arena: e.table.arena(), width: system.vars.len(), count: n };
    let mut labeller = AtomLabeller::new(system, domains, states);
    // Labels are global but each component defines few of them: only those are collected.
    let mut props: Vec<(PropId, FixedBitSet)> = Vec::new();
    let mut calls = FixedBitSet::with_capacity(n);
    calls.extend((0..n).filter(|&i| matches!(e.kinds[i], NodeKind::Call { .. })));
    let atom_error = |s: usize, err: super::eval::EvalError, what: String, span| {
        Diagnostic::error(diag::E_ATOM, format!("{} while evaluating {what}", err.describe(&system.vars)), span)
            .with_label_message(err.describe(&system.vars))
            .with_note(format!("in location: {}", names.state(system, e.table.get(s as u32))))
    };
    for (d, label) in system.define_labels.iter().enumerate() {
        let Some(label) = *label else { continue };
        let define = &system.defines[d];
        let mut bits = labeller.label(&define.expr).map_err(|(s, err)| atom_error(s, err, format!("label `{}`", define.name), define.span))?;
        if let Some(call) = bits.intersection(&calls).next() {
            warnings.push(
                Diagnostic::warning(
                    diag::W_CALL_LABEL,
                    format!("label `{}` holds at a call state; calls carry no labels, so it is ignored there", define.name),
                    define.span,
                )
                .with_label_message("this label")
                .with_note(format!("call state in `{}`: {}", system.name, names.state(system, e.table.get(call as u32))))
                .with_help("exclude call states from the label's condition"),
            );
        }
        bits.difference_with(&calls);
        props.push((PropId::from_u32(label.as_u32()), bits));
    }
    for (i, (owner, atom)) in extra.iter().enumerate() {
        if *owner != c {
            continue;
        }
        let span = program.specs.iter().find(|s| s.system == system_id).map_or(system.span, |s| s.span);
        let mut bits = labeller.label(atom).map_err(|(s, err)| atom_error(s, err, format!("`{}`", names.expr(system, atom)), span))?;
        bits.difference_with(&calls);
        props.push((PropId::new(program.labels.len() + i), bits));
    }
    Ok(Labels::from_sets(props))
}

/// Assembles the `Component` arrays from an explored component.
fn finish_component(e: &Explorer, exits_in_order: &[Vec<ExitNameId>], props: Labels, names: &Names) -> Component {
    let n = e.table.len() as usize;
    let mut edges = e.edges.clone();
    edges.sort_unstable();
    let succ = Csr::from_edges(n, &edges);
    let pred = succ.transpose();
    let mut call_target = vec![NO_CALL; n];
    let mut calls = vec![];
    let mut call_index = vec![u32::MAX; n];
    let mut exits = vec![];
    let mut exit_names = vec![];
    for (i, kind) in e.kinds.iter().enumerate() {
        match *kind {
            NodeKind::Call { target, .. } => {
                call_target[i] = target;
                call_index[i] = calls.len() as u32;
                calls.push(i as NodeId);
            }
            NodeKind::Exit(x) => {
                exits.push(i as NodeId);
                exit_names.push(names.value(crate::lowering::program::Value::ExitName(x)));
            }
            NodeKind::Location => {}
        }
    }
    // Return rows: call i, exit k of its target (the target's exits in node order).
    let mut return_offsets = vec![];
    let mut rows = 0u32;
    let mut return_edges = vec![];
    for &call in &calls {
        return_offsets.push(rows);
        for &x in &exits_in_order[call_target[call as usize].index()] {
            for &s in e.returns.get(&(call, x)).map_or(&[][..], |v| v.as_slice()) {
                return_edges.push((rows, s));
            }
            rows += 1;
        }
    }
    let returns = Csr::from_edges(rows as usize, &return_edges);
    let node_names = (0..n).map(|i| names.state(e.system, e.table.get(i as u32))).collect();
    Component {
        name: e.system.name.clone(),
        num_nodes: n as u32,
        succ,
        pred,
        call_target,
        calls,
        call_index,
        exits,
        exit_names,
        returns,
        return_offsets,
        props,
        node_names,
    }
}

#[cfg(test)]
mod tests;
