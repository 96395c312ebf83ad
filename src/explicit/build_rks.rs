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
//! call each other recursively, so exploration goes in rounds over all components: when a
//! component reaches a new exit name, the returns of every call to it found so far are computed
//! for that name (adding nodes to the callers), and a newly found call gets returns for the
//! names its target already has. Only reachable valuations become nodes. Within a round each
//! component expands its own nodes without reading the others, and what it found (new exit
//! names, calls) is replayed in component order; so with several front-end workers the
//! components expand in parallel, each charging its own node count and memory, and the result
//! is the same as one worklist's. The parallel run gives up when an error or a limit could
//! arise, and the one-worklist run then says which error comes first.
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

impl RksSpec {
    /// The CTL formula the procedure engines check: `AG formula` for an `INVARSPEC`, else
    /// `formula`.
    pub(crate) fn checked_formula(&self) -> Ctl<PropId> {
        if self.invariant { Ctl::AG(Box::new(self.formula.clone())) } else { self.formula.clone() }
    }
}

impl RksModel {
    /// The valuation of node `n` of component `c`.
    pub(crate) fn node_values(&self, program: &LoweredProgram, c: ComponentId, n: NodeId) -> &[u32] {
        let w = program.systems[self.system_of[c.index()].index()].vars.len();
        &self.values[c.index()][n.index() * w..(n.index() + 1) * w]
    }
}

/// The parent of the entry in [`Explorer::parent`].
const NO_PARENT: NodeId = NodeId::from_u32(u32::MAX);

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
    /// BFS tree for diagnostics ([`NO_PARENT`] at the entry).
    parent: Vec<NodeId>,
    kinds: Vec<NodeKind>,
    expanded: u32,
    edges: Vec<(NodeId, NodeId)>,
    /// (call node, exit name) → return successors.
    returns: FxHashMap<(NodeId, ExitNameId), Vec<NodeId>>,
    /// Exit names reached so far, in discovery order.
    exit_names: Vec<ExitNameId>,
    /// Calls to this component found so far: (caller component, call node).
    callers: Vec<(ComponentId, NodeId)>,
    /// Exit names and calls found in this round, not yet replayed ([`replay`]).
    found: Vec<Found>,
    /// How many of `exit_names` the replay has reached.
    exits_replayed: usize,
    /// Returns to compute in this round of [`Worklist::run_parallel`]: (call node, exit name).
    pending_returns: Vec<(NodeId, ExitNameId)>,
    /// This component's nodes and reservations in [`Worklist::run_parallel`].
    tally: Tally,
    /// Made when the component is first expanded.
    evaluators: Option<Box<Evaluators<'p>>>,
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
    let domains: Vec<DomainIndex> = crate::par::map_ordered(&system_of, 2, |&s| DomainIndex::new(&program.systems[s.index()]));
    // The entries are computed in parallel; errors are reported in component order.
    let ids: Vec<usize> = (0..system_of.len()).collect();
    let entries = || crate::par::map_ordered(&ids, 2, |&c| entry_explorer(&program.systems[system_of[c].index()], &domains[c], &names));
    let mut explorers = vec![];
    for entry in entries() {
        match entry {
            Ok(e) => explorers.push(e),
            Err(d) => diags.push(d),
        }
    }
    if diags.has_errors() {
        return Err(diags);
    }
    crate::cpu_trace::mark("rks explorers");
    let initial_tally = |explorers: &[Explorer]| {
        let mut budget = MemoryBudget::new(limits.max_memory);
        budget.account(explorers.iter().map(|e| e.table.reserved_bytes() + super::budget::reserved(&e.parent)).sum());
        Tally { nodes: explorers.iter().map(|e| e.table.len() as u64).sum(), budget }
    };
    let tally = initial_tally(&explorers);
    let cx = Context {
        names: &names,
        component_of: &component_of,
        systems: system_of.iter().map(|&s| &program.systems[s.index()]).collect(),
        max: limits.max_states.unwrap_or(u64::MAX),
    };
    let mut worklist = Worklist { cx, explorers, jobs: vec![], tally };
    let progress = crate::progress::Progress::build("locations");
    // The parallel exploration only gives up where the one-worklist run may fail: that run then
    // starts again from the entries and says where.
    if !(crate::par::is_parallel() && worklist.explorers.len() >= 2 && worklist.run_parallel(&progress)) {
        if crate::par::is_parallel() && worklist.explorers.len() >= 2 {
            worklist.explorers = entries().into_iter().flatten().collect();
            worklist.jobs.clear();
        }
        worklist.tally = initial_tally(&worklist.explorers);
        if let Err(d) = worklist.run(&progress) {
            diags.push(d);
            return Err(diags);
        }
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
    if let Err(e) = worklist.tally.budget.need(after) {
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
        parent: vec![NO_PARENT],
        kinds: vec![],
        expanded: 0,
        edges: vec![],
        returns: FxHashMap::default(),
        exit_names: vec![],
        callers: vec![],
        found: vec![],
        exits_replayed: 0,
        pending_returns: vec![],
        tally: Tally::default(),
        evaluators: None,
    })
}

/// The evaluators and scratch buffers of one component's plans: (next, inputs).
type Evaluators<'p> = (Evaluator<'p>, Evaluator<'p>, Scratch, Scratch);

fn evaluators(system: &System) -> Evaluators<'_> {
    (Evaluator::new(&system.vars), Evaluator::new(&system.vars), Scratch::default(), Scratch::default())
}

/// What expanding a component's nodes found that concerns other components, in node order:
/// replayed in component order after each round ([`replay`]).
#[derive(Clone, Copy, Debug)]
enum Found {
    /// The component reached an exit name it had not reached before.
    Exit(ExitNameId),
    /// Node `node` calls component `target`.
    Call { node: NodeId, target: ComponentId },
}

/// What exploration has used: nodes and reserved bytes, of all components (one run) or of one
/// component (one attempt at [`Worklist::run_parallel`]).
#[derive(Clone, Debug, Default)]
struct Tally {
    nodes: u64,
    /// Bytes reserved by the explorers' tables, parent arrays, kinds and edges.
    budget: MemoryBudget,
}

/// What the components' explorations read and never change.
struct Context<'p, 'n> {
    names: &'n Names<'p>,
    component_of: &'n [Option<ComponentId>],
    /// By component: its system (for messages about other components).
    systems: Vec<&'p System>,
    max: u64,
}

struct Worklist<'p, 'n> {
    cx: Context<'p, 'n>,
    explorers: Vec<Explorer<'p>>,
    /// Returns to compute: (caller component, call node, exit name).
    jobs: Vec<(ComponentId, NodeId, ExitNameId)>,
    tally: Tally,
}

impl<'p, 'n> Worklist<'p, 'n> {
    /// Explores all components to the end. Rounds: expand every component's unexpanded nodes
    /// (each component on its own), replay what they found in component order (new exit names
    /// and calls, which make return jobs), compute the returns in job order; until a round
    /// finds nothing. Components share nothing while they expand, so this numbers nodes and
    /// reports errors exactly as expanding them one after the other in one worklist.
    fn run(&mut self, progress: &crate::progress::Progress) -> Result<(), Diagnostic> {
        loop {
            let mut grew = false;
            for c in 0..self.explorers.len() {
                let before = self.tally.nodes / crate::progress::EVERY;
                grew |= expand_pending(&mut self.explorers[c], &self.cx, &mut self.tally)?;
                if self.tally.nodes / crate::progress::EVERY != before {
                    let queued: u32 = self.explorers.iter().map(|e| e.table.len() - e.expanded).sum();
                    progress.states(self.tally.nodes, queued.into());
                }
            }
            replay(&mut self.explorers, &mut self.jobs);
            for (c, call, exit) in std::mem::take(&mut self.jobs) {
                let e = &mut self.explorers[c.index()];
                let succs = successors(e, call, Some(exit), &self.cx, &mut self.tally)?;
                e.returns.insert((call, exit), succs);
                grew = true;
            }
            self.cx.check_limit(&self.tally)?;
            if !grew {
                return Ok(());
            }
        }
    }

    /// [`Self::run`] with each round's expansions and returns spread over the front end's
    /// workers, every component charging its own [`Tally`]. Gives up (`false`, the explorers
    /// are then half-built) on any error, or when the components' nodes or the sum of their
    /// peak reservations exceed the limits: only then can the one-worklist run fail, and it
    /// alone says where. When it succeeds, the explorers and the tally are those of [`Self::run`].
    fn run_parallel(&mut self, progress: &crate::progress::Progress) -> bool {
        let done = self.explore_parallel(progress);
        #[cfg(test)]
        PARALLEL_RUNS.with(|runs| runs.set((runs.get().0 + u32::from(done), runs.get().1 + u32::from(!done))));
        done
    }

    fn explore_parallel(&mut self, progress: &crate::progress::Progress) -> bool {
        let limit = self.tally.budget.limit();
        for e in &mut self.explorers {
            let mut budget = MemoryBudget::new(limit);
            budget.account(e.table.reserved_bytes() + super::budget::reserved(&e.parent));
            e.tally = Tally { nodes: e.table.len().into(), budget };
        }
        let (mut nodes, mut peak) = (0, 0);
        for e in &self.explorers {
            nodes += e.tally.nodes;
            peak += e.tally.budget.peak();
        }
        let cx = &self.cx;
        // Components with nodes to expand: all at first, then those that got returns.
        let mut active: Vec<usize> = (0..self.explorers.len()).collect();
        loop {
            let work: u64 = active.iter().map(|&c| u64::from(self.explorers[c].table.len() - self.explorers[c].expanded)).sum();
            let ok = on_each(&mut self.explorers, &active, work, (&mut nodes, &mut peak), |e, tally| expand_pending(e, cx, tally).map(drop));
            if !ok {
                return false;
            }
            replay(&mut self.explorers, &mut self.jobs);
            let grew = work > 0 || !self.jobs.is_empty();
            active.clear();
            for (c, call, exit) in std::mem::take(&mut self.jobs) {
                self.explorers[c.index()].pending_returns.push((call, exit));
                active.push(c.index());
            }
            active.sort_unstable();
            active.dedup();
            let work: u64 = active.iter().map(|&c| self.explorers[c].pending_returns.len() as u64).sum();
            let ok = on_each(&mut self.explorers, &active, work, (&mut nodes, &mut peak), |e, tally| {
                (std::mem::take(&mut e.pending_returns).into_iter()).try_for_each(|(call, exit)| {
                    let succs = successors(e, call, Some(exit), cx, tally)?;
                    e.returns.insert((call, exit), succs);
                    Ok(())
                })
            });
            if !ok || nodes > cx.max || limit.is_some_and(|l| peak > l) {
                return false;
            }
            if !grew {
                break;
            }
            let queued: u64 = active.iter().map(|&c| u64::from(self.explorers[c].table.len() - self.explorers[c].expanded)).sum();
            progress.states(nodes, queued);
        }
        let mut budget = MemoryBudget::new(limit);
        budget.account(self.explorers.iter().map(|e| e.tally.budget.used()).sum());
        self.tally = Tally { nodes, budget };
        true
    }

    fn size(&self) -> BuildSize {
        self.cx.size(&self.tally)
    }

    /// The span limit diagnostics point at: the first procedure module.
    fn span(&self) -> crate::source::Span {
        self.cx.span()
    }
}

/// Turns what the components found in this round into return jobs, in component order and
/// within a component in node order: a new exit name of `t` gets a job for every call of `t`
/// known so far, a new call one for every exit name its target had reached by then.
fn replay(explorers: &mut [Explorer], jobs: &mut Vec<(ComponentId, NodeId, ExitNameId)>) {
    for c in 0..explorers.len() {
        let found = std::mem::take(&mut explorers[c].found);
        for &f in &found {
            match f {
                Found::Exit(name) => {
                    let e = &mut explorers[c];
                    e.exits_replayed += 1;
                    jobs.extend(e.callers.iter().map(|&(caller, call)| (caller, call, name)));
                }
                Found::Call { node, target } => {
                    let t = &mut explorers[target.index()];
                    t.callers.push((ComponentId::new(c), node));
                    jobs.extend(t.exit_names[..t.exits_replayed].iter().map(|&name| (ComponentId::new(c), node, name)));
                }
            }
        }
        explorers[c].found = found;
        explorers[c].found.clear();
    }
}

#[cfg(test)]
thread_local! {
    /// Runs of [`Worklist::run_parallel`] on this thread: (succeeded, gave up).
    static PARALLEL_RUNS: std::cell::Cell<(u32, u32)> = const { std::cell::Cell::new((0, 0)) };
}

/// Below this many nodes or returns, a round's step runs on the calling thread: waking the
/// workers costs more.
const PARALLEL_MIN_WORK: u64 = 64;

/// Runs `step` on the components `active` (ascending), each with its own tally, in parallel
/// when there are at least [`PARALLEL_MIN_WORK`] nodes or returns (`work`) to share; adds the
/// changes of their nodes and peak reservations to `totals`. Whether no step failed.
fn on_each<'p>(
    explorers: &mut [Explorer<'p>],
    active: &[usize],
    work: u64,
    totals: (&mut u64, &mut u64),
    step: impl Fn(&mut Explorer<'p>, &mut Tally) -> Result<(), Diagnostic> + Sync + Send,
) -> bool {
    let mut wanted = active.iter().copied().peekable();
    let mut slots: Vec<&mut Explorer<'p>> = Vec::with_capacity(active.len());
    for (c, e) in explorers.iter_mut().enumerate() {
        if wanted.peek() == Some(&c) {
            wanted.next();
            slots.push(e);
        }
    }
    let min_items = if work >= PARALLEL_MIN_WORK { 2 } else { usize::MAX };
    let results = crate::par::map_ordered_mut(&mut slots, min_items, |_, e| {
        let mut tally = std::mem::take(&mut e.tally);
        let before = (tally.nodes, tally.budget.peak());
        let r = step(e, &mut tally);
        let grown = (tally.nodes - before.0, tally.budget.peak() - before.1);
        e.tally = tally;
        r.map(|()| grown)
    });
    for r in results {
        let Ok((nodes, peak)) = r else { return false };
        *totals.0 += nodes;
        *totals.1 += peak;
    }
    true
}

impl<'p> Context<'p, '_> {
    fn check_limit(&self, tally: &Tally) -> Result<(), Diagnostic> {
        if tally.nodes > self.max {
            return Err(diag::state_limit(self.max, &self.size(tally), self.span()));
        }
        Ok(())
    }

    /// The span limit diagnostics point at: the first procedure module.
    fn span(&self) -> crate::source::Span {
        self.systems.first().map_or(Default::default(), |s| s.span)
    }

    fn size(&self, tally: &Tally) -> BuildSize {
        BuildSize { count: tally.nodes, what: "locations", bytes: tally.budget.used(), limit: tally.budget.limit() }
    }

    fn out_of_memory(&self, e: OutOfMemory, tally: &Tally) -> Diagnostic {
        diag::out_of_memory(e, &self.size(tally), self.span())
    }

    /// The path from the entry to node `n` of `e`, as valuations.
    fn path(&self, e: &Explorer, n: NodeId) -> Vec<String> {
        let mut path = vec![];
        let mut cur = n;
        loop {
            path.push(self.names.state(e.system, e.table.get(cur.as_u32())));
            match e.parent.get(cur.index()) {
                Some(&p) if p != NO_PARENT => cur = p,
                _ => break,
            }
        }
        path.reverse();
        path
    }

    fn error_at(&self, e: &Explorer, n: NodeId, err: &StepError, during: Option<String>) -> Diagnostic {
        let ctx = ErrorContext { state: Some(self.names.state(e.system, e.table.get(n.as_u32()))), path: self.path(e, n), during };
        diag::step_error(err, e.system, self.names, &ctx)
    }
}

/// Expands the nodes of `e`'s component that are not expanded yet (and those they add); whether
/// there were any.
fn expand_pending<'p>(e: &mut Explorer<'p>, cx: &Context<'p, '_>, tally: &mut Tally) -> Result<bool, Diagnostic> {
    let mut evs = std::mem::take(&mut e.evaluators);
    let system = e.system;
    let evs_ref = evs.get_or_insert_with(|| Box::new(evaluators(system)));
    let mut grew = false;
    let r = loop {
        if e.expanded >= e.table.len() {
            break Ok(grew);
        }
        let n = NodeId::from_u32(e.expanded);
        if let Err(d) = expand(e, n, cx, tally, evs_ref) {
            break Err(d);
        }
        e.expanded += 1;
        grew = true;
        if let Err(d) = cx.check_limit(tally) {
            break Err(d);
        }
    };
    e.evaluators = evs;
    r
}

fn expand<'p>(e: &mut Explorer<'p>, n: NodeId, cx: &Context<'p, '_>, tally: &mut Tally, evs: &mut Evaluators<'p>) -> Result<(), Diagnostic> {
    let kind = classify(e, n, cx, &mut evs.0)?;
    if let Err(err) = tally.budget.push(&mut e.kinds, kind) {
        return Err(cx.out_of_memory(err, tally));
    }
    match kind {
        NodeKind::Exit(name) => {
            if !e.exit_names.contains(&name) {
                e.exit_names.push(name);
                e.found.push(Found::Exit(name));
            }
        }
        NodeKind::Call { target, entry } => {
            if n == NodeId::ENTRY {
                let system = e.system;
                return Err(Diagnostic::error(diag::E_PROC, format!("the entry of procedure module `{}` is a call", system.name), system.calls[entry].span)
                    .with_label_message("the initial state satisfies this call condition")
                    .with_note(format!("entry: {}", cx.names.state(system, e.table.get(0))))
                    .with_help("start the module in an ordinary location and step to the call from there"));
            }
            e.found.push(Found::Call { node: n, target });
        }
        NodeKind::Location => {
            let succs = successors_with(e, n, None, cx, tally, evs)?;
            if let Err(err) = tally.budget.reserve(&mut e.edges, succs.len()) {
                return Err(cx.out_of_memory(err, tally));
            }
            e.edges.extend(succs.into_iter().map(|t| (n, t)));
        }
    }
    Ok(())
}

fn classify<'p>(e: &Explorer<'p>, n: NodeId, cx: &Context<'p, '_>, ev: &mut Evaluator<'p>) -> Result<NodeKind, Diagnostic> {
    let system = e.system;
    let state = e.table.get(n.as_u32());
    let env = Env::state(state);
    let fail = |span, err: super::eval::EvalError, what: &str| {
        let step = StepError { kind: super::step::StepErrorKind::Eval(err), origin: super::step::Origin::Invar, span, partial: vec![] };
        cx.error_at(e, n, &step, Some(format!("while evaluating the {what} condition at `{}`", system.name)))
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
                    .with_label_message(format!("exit `{}`", cx.names.value(crate::lowering::program::Value::ExitName(x.name))))
                    .with_note(format!("location: {}", cx.names.state(system, state)))
                    .with_help("make the exit conditions mutually exclusive");
                if let Some(s) = span {
                    d = d.with_secondary(s, "also satisfies this exit");
                } else {
                    d = d.with_note(format!("it is also the all-EXIT exit `{}`", cx.names.value(crate::lowering::program::Value::ExitName(other))));
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
                    .with_note(format!("state: {}", cx.names.state(system, state)))
                    .with_note(diag::path_note(&cx.path(e, n)))
                    .with_help("make the CALL conditions mutually exclusive"));
            }
            let Some(target) = cx.component_of.get(entry.target.index()).copied().flatten() else {
                return Err(Diagnostic::error(diag::E_PROC, "CALL target is not a procedure module", entry.span));
            };
            call = Some((i, target));
            Ok(())
        },
    )?;
    match (exit, call) {
        (Some(_), Some((i, _))) => Err(Diagnostic::error(diag::E_PROC, "an exit location satisfies a CALL condition", system.calls[i].span)
            .with_label_message("this call condition holds at an exit")
            .with_note(format!("location: {}", cx.names.state(system, state)))
            .with_help("an exit cannot be a call; exclude exit locations from the CALL condition")),
        (Some((name, _)), None) => Ok(NodeKind::Exit(name)),
        (None, Some((entry, target))) => Ok(NodeKind::Call { target, entry }),
        (None, None) => Ok(NodeKind::Location),
    }
}

/// Successors of node `n` of `e`'s component (with `EXITED = exited` for the returns of a
/// call), inserted as nodes of the component; sorted, without duplicates.
fn successors<'p>(e: &mut Explorer<'p>, n: NodeId, exited: Option<ExitNameId>, cx: &Context<'p, '_>, tally: &mut Tally) -> Result<Vec<NodeId>, Diagnostic> {
    let mut evs = std::mem::take(&mut e.evaluators);
    let system = e.system;
    let evs_ref = evs.get_or_insert_with(|| Box::new(evaluators(system)));
    let r = successors_with(e, n, exited, cx, tally, evs_ref);
    e.evaluators = evs;
    r
}

/// [`successors`] with the component's evaluators.
fn successors_with<'p>(
    e: &mut Explorer<'p>,
    n: NodeId,
    exited: Option<ExitNameId>,
    cx: &Context<'p, '_>,
    tally: &mut Tally,
    evs: &mut Evaluators<'p>,
) -> Result<Vec<NodeId>, Diagnostic> {
    let width = e.system.vars.len();
    let cur = e.table.get(n.as_u32()).to_vec();
    let zeros = vec![0u32; width];
    let mut out = vec![];
    let mut added = 0;
    let mut failure = None;
    let mut oom = None;
    let budget = &mut tally.budget;
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
                    out.push(NodeId::from_u32(id));
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
            let target = match e.kinds.get(n.index()) {
                Some(NodeKind::Call { target, .. }) => cx.systems[target.index()].name.clone(),
                _ => "the callee".into(),
            };
            format!("while computing the return of this call from `{target}` through exit `{}`", cx.names.value(crate::lowering::program::Value::ExitName(x)))
        });
        return Err(cx.error_at(e, n, &err, during));
    }
    tally.nodes += added;
    if let Some(err) = oom {
        return Err(cx.out_of_memory(err, tally));
    }
    out.sort_unstable();
    out.dedup();
    Ok(out)
}

/// Calls must return to exactly one location per exit of their target.
fn check_calls(e: &Explorer, explorers: &[Explorer], names: &Names, diags: &mut Diagnostics) {
    for (n, kind) in e.kinds.iter().enumerate() {
        let NodeKind::Call { target, entry } = *kind else { continue };
        let t = &explorers[target.index()];
        let span = e.system.calls[entry].span;
        for &x in &t.exit_names {
            let exit = names.value(crate::lowering::program::Value::ExitName(x));
            let succs = e.returns.get(&(NodeId::new(n), x)).map_or(&[][..], |v| v.as_slice());
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
                    d = d.with_note(format!("successor: {}", names.state(e.system, e.table.get(s.as_u32()))));
                }
                diags.push(d);
                continue;
            }
            if let Some(NodeKind::Call { target: t2, entry: e2 }) = e.kinds.get(succs[0].index()) {
                diags.push(
                    Diagnostic::error(diag::E_PROC, "a call returns directly to another call", span)
                        .with_label_message("this call")
                        .with_secondary(e.system.calls[*e2].span, format!("returns to a call of `{}`", explorers[t2.index()].system.name))
                        .with_note(format!("call state: {}", state()))
                        .with_note(format!(
                            "successor (a call) when `{}` returns through `{exit}`: {}",
                            t.system.name,
                            names.state(e.system, e.table.get(succs[0].as_u32()))
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
        has_succ[s.index()] = true;
    }
    let dead: Vec<usize> = (0..e.kinds.len()).filter(|&n| e.kinds[n] == NodeKind::Location && !has_succ[n]).collect();
    if let Some(&first) = dead.first() {
        let mut path = vec![];
        let mut cur = NodeId::new(first);
        loop {
            path.push(names.state(e.system, e.table.get(cur.as_u32())));
            match e.parent[cur.index()] {
                NO_PARENT => break,
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
                calls.push(NodeId::new(i));
            }
            NodeKind::Exit(x) => {
                exits.push(NodeId::new(i));
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
        for &x in &exits_in_order[call_target[call.index()].index()] {
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
