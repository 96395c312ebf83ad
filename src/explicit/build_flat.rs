//! The reachable state space of the flat model as a [`KripkeStructure`].
//!
//! Initial states come from the init plan (`init`/invariant assignments × domains of the other
//! variables, filtered by `INIT` and `INVAR`); successors from the transition plan for every input
//! valuation (see [`super::step`]). States are numbered densely in breadth-first order (so the
//! BFS tree gives shortest paths for diagnostics), interned bit-packed in a [`PackedTable`]; edges go straight
//! into CSR arrays as states are expanded in id order. Each atom of the flat model's specs and
//! fairness constraints becomes one proposition bitset ([`super::atoms`]).
//!
//! Assumes the program passed the front end: assignments are acyclic and well typed. Evaluation
//! errors in reachable states (non-exhaustive `case`, values out of range, division by zero) are
//! errors naming the state and a path to it; deadlock states are a warning.

use super::atoms::{AtomLabeller, StateSet};
use super::budget::{MemoryBudget, OutOfMemory};
use super::build_diag::{self as diag, BuildSize, ErrorContext};
use super::csr::Csr;
use super::eval::Evaluator;
use super::kripke::{KripkeStructure, StateId};
use super::names::Names;
use super::packed_table::{Layout, PackedTable};
use super::step::{DomainIndex, Plan, Scratch};
use crate::ctl::Ctl;
use crate::diagnostics::{Diagnostic, Diagnostics};
use crate::ir::PropId;
use crate::ir::SpecKind;
use crate::lowering::program::{Expr, LoweredProgram, SpecAtom, System, SystemId};
use expand::{Chunk, Expander, NOT_FOUND, Source, bytes_per_successor, expand_batch};
use rustc_hash::FxHashMap;
use std::ops::ControlFlow;

/// Limits on state-space construction.
#[derive(Clone, Copy, Debug, Default)]
pub struct BuildLimits {
    /// Stop with an error when more states than this are reachable.
    pub max_states: Option<u64>,
    /// Stop with an error when the state space needs more bytes than this (see
    /// [`super::budget`]); `None`: only the allocator limits it (its refusal is still an error).
    pub max_memory: Option<u64>,
    /// Stop with an error (E0505) when more successors than this have been generated (before
    /// duplicates are removed): the work budget of `--engine auto`'s explicit attempt, whose cost
    /// grows with the transitions as much as with the states (no CLI flag).
    pub max_transitions: Option<u64>,
}

/// A flat model ready for checking.
#[derive(Clone, Debug)]
pub struct FlatModel {
    pub system: SystemId,
    pub kripke: KripkeStructure,
    /// The specs of the flat system, in file order.
    pub specs: Vec<FlatSpec>,
    /// One proposition per `FAIRNESS`/`JUSTICE` constraint.
    pub fairness: Vec<PropId>,
    /// Number of states without successors.
    pub deadlocks: u32,
    /// Warnings produced while building (deadlocks, no initial state).
    pub warnings: Vec<Diagnostic>,
}

#[derive(Clone, Debug)]
pub struct FlatSpec {
    /// Index into `LoweredProgram::specs`.
    pub spec: usize,
    /// `INVARSPEC`: `formula` is the invariant's atom, checked by reachability.
    pub invariant: bool,
    pub formula: Ctl<PropId>,
    /// `LTLSPEC`: the LTL formula over propositions (`formula` is then `Ctl::True`, unused).
    pub ltl: Option<crate::ltl::Ltl<PropId>>,
    /// `COMPUTE`: its two formulas over propositions (`formula` is then `Ctl::True`, unused).
    pub compute: Option<crate::ir::Compute<Ctl<PropId>>>,
}

/// The work an explicit build did, counted rather than timed (the same figures on every run and
/// for every `-j`): `--engine auto` estimates the cost of an explicit build from them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct BuildWork {
    /// Initial states enumerated (one past the state budget when it stopped there).
    pub initial: u64,
    /// States expanded (their successors computed).
    pub expanded: u64,
    /// Successors generated (before duplicates are removed).
    pub generated: u64,
    /// Plan runs and slot candidates tried by the plans.
    pub steps: u64,
    /// The lengths of the compiled programs the expansions ran (`eval::compiled::ops_run`).
    pub ops: u64,
    /// Expression nodes the expansions' tree evaluators evaluated.
    pub nodes: u64,
}

impl BuildWork {
    /// The work in one figure, weighted by what each part costs (fitted on CPU seconds of whole
    /// explicit runs of NuSMV's examples — dme1/2, brp, p-queue, gigamax, periodic — where one
    /// unit is about 25 ns): a plan step or a generated successor 1, a tree-evaluated node 2, a
    /// compiled operation 1/32, an expanded state 32 (interning, edges, labelling, checking: what
    /// the solver's precomputed successors of constraint-style models such as gas-nq7 leave).
    pub(crate) fn units(&self) -> u64 {
        32 * self.expanded + self.generated + self.steps + self.ops / 32 + 2 * self.nodes
    }
}

/// Builds the flat model of `program` (its `flat` system).
pub fn build_flat(program: &LoweredProgram, limits: &BuildLimits) -> Result<FlatModel, Diagnostics> {
    build_flat_in(program, limits, &mut BuildWork::default(), None, None)
}

/// The hold `--engine auto` keeps on an explicit build that it runs beside the BDD probe
/// (`driver::flat_engine`): between batches, once the build has passed its first stage and then
/// each time its work reaches the allowance, [`Gate::pause`] sees the work so far and returns the
/// next allowance (work units, [`BuildWork::units`]) or `None` to stop the build (E0505).
///
/// So that the work is the same figure for every `-j`, a gated build expands its first stage
/// with one worker (the memo tables of several workers miss differently) and afterwards counts
/// the evaluation work (compiled operations, tree nodes) by the first stage's rate per plan step,
/// plan steps, states and successors being the same however the states are split. One state's
/// expansion may take at most [`Gate::state_steps`] plan steps (a state that costs seconds, as in
/// NuSMV's `deadlock/dph35.smv`): past them the build stops with E0505.
pub(crate) struct Gate<'g> {
    /// The first stage ends (the first pause) at the first batch boundary where the build has found
    /// more than `first.states` states, generated more than `first.transitions` successors or done
    /// `first.work` units, or (after 64 states) generates `first.wide` successors per state; or,
    /// when the initial states alone are more than `first.states`, as soon as it has found one
    /// more (its work then counts one plan step per initial state, and the next pause measures
    /// the first stage's rate per plan step), or before enumerating them when the initial
    /// states' plan says that many are there ([`Plan::emits_at_least`]), with the same figures.
    pub(crate) first: FirstStage,
    pub(crate) state_steps: u64,
    /// [`UNGATED`] as the allowance: no more pauses; the rest is built as an ungated build is
    /// (with `-j 2` or more, pipelined), its work still counted.
    pub(crate) pause: &'g mut dyn FnMut(&BuildWork) -> Option<u64>,
}

/// The allowance by which [`Gate::pause`] lets a build go on to its end.
pub(crate) const UNGATED: u64 = u64::MAX;

/// See [`Gate::first`].
#[derive(Clone, Copy, Debug)]
pub(crate) struct FirstStage {
    pub(crate) states: u64,
    pub(crate) transitions: u64,
    pub(crate) work: u64,
    pub(crate) wide: u64,
}

impl FirstStage {
    /// The states expanded before the successors per state decide [`FirstStage::wide`].
    const WIDE_AFTER: u64 = 64;

    fn over(&self, work: &BuildWork, found: u64) -> bool {
        let wide = work.expanded >= Self::WIDE_AFTER && work.generated >= self.wide.saturating_mul(work.expanded);
        found > self.states || work.generated > self.transitions || work.units() >= self.work || wide
    }
}

/// [`build_flat`] under `auto`'s [`Gate`], counting its work into `work` (also when it stops).
pub(crate) fn build_flat_gated(program: &LoweredProgram, limits: &BuildLimits, work: &mut BuildWork, gate: Gate<'_>) -> Result<FlatModel, Diagnostics> {
    build_flat_in(program, limits, work, None, Some(gate))
}

/// [`build_flat`], counting its work into `work` (also when it stops with an error), and
/// stopping with E0505 once that work ([`BuildWork::units`]) passes `max_work` (checked between
/// batches, which under this budget start at one state and at most double). When the initial
/// states alone pass the state budget, up to [`MEASURED_ON_INIT_LIMIT`] of them are still
/// expanded (within `max_work`) before the error, so that `work` says what expanding a state costs.
pub(crate) fn build_flat_measured(program: &LoweredProgram, limits: &BuildLimits, work: &mut BuildWork, max_work: u64) -> Result<FlatModel, Diagnostics> {
    build_flat_in(program, limits, work, Some(max_work), None)
}

/// The initial states [`build_flat_measured`] expands when they alone pass the state budget.
pub(crate) const MEASURED_ON_INIT_LIMIT: u32 = 64;

fn build_flat_in(
    program: &LoweredProgram,
    limits: &BuildLimits,
    work: &mut BuildWork,
    max_work: Option<u64>,
    gate: Option<Gate<'_>>,
) -> Result<FlatModel, Diagnostics> {
    let mut diags = Diagnostics::new();
    let Some(system_id) = program.flat else {
        diags.push(Diagnostic::error(diag::E_PROC, "the program has no flat model to build", Default::default()));
        return Err(diags);
    };
    let system = &program.systems[system_id.index()];
    let mut too_wide = vec![];
    crate::lowering::checks::enumerated_words(system, &mut too_wide);
    if !too_wide.is_empty() {
        too_wide.into_iter().for_each(|d| diags.push(d));
        return Err(diags);
    }
    let names = Names::of(program);
    let explored = match explore(system, &names, limits, &crate::progress::Progress::build("states"), work, max_work, gate) {
        Ok(x) => x,
        Err(d) => {
            diags.push(d);
            return Err(diags);
        }
    };
    let mut warnings = vec![];
    if explored.initial.is_empty() {
        warnings.push(
            Diagnostic::warning(diag::W_NO_INIT, "the model has no initial state", system.span)
                .with_label_message("in this model")
                .with_help("every specification holds vacuously; check the INIT constraints and init assignments"),
        );
    }
    let Explored { mut table, initial, succ, parent, mut budget } = explored;
    let n = table.len() as usize;
    let width = system.vars.len();
    // The packed states stay as the structure's values (for labelling and traces); the hash
    // index is freed.
    budget.release(table.drop_index());
    let arena = table.reserved_bytes();
    let values = super::state_values::StateValues::from_table(table);
    budget.release(arena);
    budget.account(values.bytes());
    let row = |s: u32| values.row(s);
    let dead: Vec<u32> = (0..n as u32).filter(|&s| succ.neighbours(StateId::from_u32(s)).is_empty()).collect();
    if let Some(&first) = dead.first() {
        let path: Vec<String> = bfs_path(&parent, first).iter().map(|&s| names.state(system, &row(s))).collect();
        warnings.push(diag::deadlock_warning(dead.len(), system.span, &path));
    }

    // Propositions: one per distinct atom of the flat specs and fairness constraints.
    let mut props = PropTable::default();
    let specs: Vec<FlatSpec> = (program.specs.iter().enumerate())
        .filter(|(_, s)| s.system == system_id)
        .map(|(i, s)| FlatSpec {
            spec: i,
            invariant: s.kind == SpecKind::Invar,
            formula: s.formula.map_atoms(&mut |a| props.intern(system, a, &names)),
            ltl: s.ltl.as_ref().map(|f| f.map_atoms(&mut |a| props.intern(system, a, &names))),
            compute: s.compute.as_ref().map(|c| c.map(|f| f.map_atoms(&mut |a| props.intern(system, a, &names)))),
        })
        .collect();
    let fairness: Vec<PropId> = system.fairness.iter().map(|e| props.intern(system, &SpecAtom::State(e.clone()), &names)).collect();
    let n64 = n as u64;
    let edges = succ.edge_count() as u64;
    // Still to allocate: the labels (a bitset per proposition) and the reverse edges (offsets,
    // fill pointers and targets).
    let after = props.atoms.len() as u64 * n64.div_ceil(64) * 8 + edges * 4 + (n64 + 1) * 8;
    if let Err(e) = budget.need(after) {
        let size = BuildSize { count: n64, what: "states", bytes: budget.used(), limit: budget.limit() };
        diags.push(
            diag::out_of_memory(e, &size, system.span).with_note(format!("labelling and the reverse edges need {} more", super::budget::format_size(after))),
        );
        return Err(diags);
    }
    let domains = DomainIndex::new(system);
    let states = StateSet::Packed(&values);
    let mut labeller = AtomLabeller::new(system, &domains, states);
    let mut bitsets = Vec::with_capacity(props.atoms.len());
    for (p, atom) in props.atoms.iter().enumerate() {
        match labeller.label(atom) {
            Ok(bits) => bitsets.push(bits),
            Err((s, e)) => {
                let span = props.spans_of(p, program, system_id, system);
                let path: Vec<String> = bfs_path(&parent, s as u32).iter().map(|&s| names.state(system, &row(s))).collect();
                let mut d = Diagnostic::error(diag::E_ATOM, format!("{} while evaluating `{}`", e.describe(&system.vars), props.names[p]), span)
                    .with_label_message(e.describe(&system.vars))
                    .with_note(format!("in state: {}", names.state(system, &row(s as u32))));
                if path.len() > 1 {
                    d = d.with_note(diag::path_note(&path));
                }
                diags.push(d);
                return Err(diags);
            }
        }
    }
    let pred = Default::default();
    let kripke = KripkeStructure { num_states: n as u32, initial, succ, pred, props: bitsets, prop_names: props.names, values, num_vars: width as u32 };
    Ok(FlatModel { system: system_id, kripke, specs, fairness, deadlocks: dead.len() as u32, warnings })
}

/// Distinct atoms → proposition ids (structural hashing, no per-use formatting or cloning).
#[derive(Default)]
struct PropTable {
    ids: FxHashMap<u64, Vec<PropId>>,
    atoms: Vec<Expr>,
    names: Vec<String>,
}

impl PropTable {
    fn intern(&mut self, system: &System, atom: &SpecAtom, names: &Names) -> PropId {
        let label_expr;
        let expr = match atom {
            SpecAtom::State(e) => e,
            // A global label in a flat model: the DEFINE that carries it, or FALSE.
            SpecAtom::Label(l) => {
                label_expr = (system.define_labels.iter().position(|d| *d == Some(*l)))
                    .map_or(Expr::Const(crate::lowering::program::Value::Bool(false)), |d| system.defines[d].expr.clone());
                &label_expr
            }
        };
        let key = super::names::expr_hash(expr);
        let bucket = self.ids.entry(key).or_default();
        if let Some(&id) = bucket.iter().find(|&&id| self.atoms[id.index()] == *expr) {
            return id;
        }
        let id = PropId::new(self.atoms.len());
        bucket.push(id);
        self.names.push(names.expr(system, expr));
        self.atoms.push(expr.clone());
        id
    }

    /// Where proposition `p` comes from: the first spec using it, else the module.
    fn spans_of(&self, p: usize, program: &LoweredProgram, system_id: SystemId, system: &System) -> crate::source::Span {
        let atom = &self.atoms[p];
        let mut uses = false;
        for spec in program.specs.iter().filter(|s| s.system == system_id) {
            spec.formula.map_atoms(&mut |a| uses |= matches!(a, SpecAtom::State(e) if e == atom));
            if uses {
                return spec.span;
            }
        }
        (system.fairness.iter().position(|e| e == atom)).and_then(|i| system.spans.fairness.get(i).copied()).unwrap_or(system.span)
    }
}

/// The explored state space before labelling.
struct Explored {
    table: PackedTable,
    initial: Vec<StateId>,
    succ: Csr<StateId>,
    /// BFS tree: the state each state was discovered from (`u32::MAX` for initial states).
    parent: Vec<u32>,
    /// What the arrays above reserved.
    budget: MemoryBudget,
}

/// The growing arrays of one exploration, within the memory budget.
struct Growing {
    table: PackedTable,
    parent: Vec<u32>,
    budget: MemoryBudget,
    /// The packed form of the state being added.
    key: Vec<u64>,
}

impl Growing {
    /// The id of the packed state `key` (whose hash is `h`), adding it (discovered from `from`)
    /// if new.
    #[inline]
    fn add_hashed(&mut self, key: &[u64], h: u64, from: u32) -> Result<u32, OutOfMemory> {
        let (id, new) = self.table.try_insert_hashed(key, h, &mut self.budget)?;
        if new {
            self.budget.push(&mut self.parent, from)?;
        }
        Ok(id)
    }

    /// The id of `state`, adding it (discovered from `from`) if new.
    fn add(&mut self, state: &[u32], from: u32) -> Result<u32, OutOfMemory> {
        let fits = self.table.layout().pack(state, &mut self.key);
        // The plans emit value indices within each variable's domain (inputs 0), whatever the input.
        assert!(fits, "a state value outside its variable's domain");
        let (id, new) = self.table.try_insert(&self.key, &mut self.budget)?;
        if new {
            self.budget.push(&mut self.parent, from)?;
        }
        Ok(id)
    }

    fn size(&self) -> BuildSize {
        BuildSize { count: self.table.len() as u64, what: "states", bytes: self.budget.used(), limit: self.budget.limit() }
    }
}

/// The states from an initial state to `s` along the BFS tree.
fn bfs_path(parent: &[u32], s: u32) -> Vec<u32> {
    let mut path = vec![s];
    let mut cur = s;
    while parent[cur as usize] != u32::MAX {
        cur = parent[cur as usize];
        path.push(cur);
    }
    path.reverse();
    path
}

fn explore(
    system: &System,
    names: &Names,
    limits: &BuildLimits,
    progress: &crate::progress::Progress,
    work: &mut BuildWork,
    max_work: Option<u64>,
    mut gate: Option<Gate<'_>>,
) -> Result<Explored, Diagnostic> {
    let width = system.vars.len();
    let domains = DomainIndex::new(system);
    let no_ctx = ErrorContext { state: None, path: vec![], during: None };
    let init_plan = Plan::init(system, &domains).map_err(|e| diag::step_error(&e, system, names, &no_ctx))?;
    let next_plan = Plan::next(system, &domains).map_err(|e| diag::step_error(&e, system, names, &no_ctx))?;
    let input_plan = Plan::inputs(system, &domains);
    let max = limits.max_states.unwrap_or(u64::MAX);
    let max_transitions = limits.max_transitions.unwrap_or(u64::MAX);
    let mut generated = 0u64;
    let layout = Layout::of(system);
    let key = vec![0u64; layout.words()];
    let mut g = Growing { table: PackedTable::new(layout), parent: vec![], budget: MemoryBudget::new(limits.max_memory), key };
    g.budget.account(g.table.reserved_bytes());
    let mut oom: Option<OutOfMemory> = None;
    let mut ev = Evaluator::new(&system.vars);
    let mut scratch = Scratch::default();
    let zeros = vec![0u32; width];
    // A gated build: the allowance (`None` during the first stage).
    let mut allowance: Option<u64> = None;
    // A gated build whose gate said stop before or while the initial states were enumerated.
    let mut stopped = false;

    // Initial states known to pass the first stage before any is enumerated (a product of
    // free variables, NuSMV's abp4): the first stage ends at once, with the figures the
    // enumeration would report on finding one more than the first stage (see below).
    if let Some(gate) = gate.as_mut()
        && let Some(known) = init_plan.emits_at_least(&mut scratch, &mut ev, &zeros, &zeros)
        && known > gate.first.states
        && gate.first.states < max
    {
        allowance = pause_in_initial_states(gate, gate.first.states + 1);
        stopped = allowance.is_none();
    }

    if !stopped {
        init_plan
            .run(&mut scratch, &mut ev, &zeros, &zeros, None, &mut |v| {
                if let Err(e) = g.add(v, u32::MAX) {
                    oom = Some(e);
                    return ControlFlow::Break(());
                }
                let found = g.table.len() as u64;
                // Initial states alone past the first stage: the first stage ends here, before
                // the rest are enumerated (the race rarely lets a build go on whose first stage
                // expanded no state).
                if let Some(gate) = gate.as_mut()
                    && allowance.is_none()
                    && found > gate.first.states
                {
                    allowance = pause_in_initial_states(gate, found);
                    if allowance.is_none() {
                        stopped = true;
                        return ControlFlow::Break(());
                    }
                }
                // One state past the budget is enough to report it: stop enumerating.
                if found > max { ControlFlow::Break(()) } else { ControlFlow::Continue(()) }
            })
            .map_err(|e| diag::step_error(&e, system, names, &no_ctx))?;
    }
    work.initial = g.table.len().into();
    work.steps = scratch.steps();
    let init_steps = work.steps;
    if let Some(e) = oom {
        return Err(diag::out_of_memory(e, &g.size(), system.span));
    }
    if stopped {
        return Err(diag::transition_limit(max_transitions.min(work.generated), &g.size(), system.span));
    }
    if g.table.len() as u64 > max {
        if let Some(max_work) = max_work {
            // What expanding a state costs, on the first initial states (errors ignored).
            let layout = g.table.layout().clone();
            let mut expander = [Expander::new(system, &next_plan, &input_plan, &layout)];
            expander[0].limit_steps(max_work.max(1));
            let mut chunks = vec![];
            for s in 0..g.table.len().min(MEASURED_ON_INIT_LIMIT) {
                expand_batch(&mut expander, &mut chunks, Source::table(&g.table), None, s..s + 1, batch_room(&g.budget, true));
                work.expanded += 1;
                work.generated += chunks.iter().map(|c| c.hashes.len() as u64).sum::<u64>();
                work.steps = init_steps + expander[0].steps();
                (work.ops, work.nodes) = expander[0].evaluated();
                if work.units() > max_work {
                    break;
                }
            }
        }
        return Err(diag::state_limit(max, &g.size(), system.span));
    }
    let initial: Vec<StateId> = (0..g.table.len()).map(StateId::from_u32).collect();

    let offsets = vec![0u32];
    let targets: Vec<u32> = vec![];
    g.budget.account(super::budget::reserved(&offsets));
    let layout = g.table.layout().clone();
    // Measured and gated builds count their work with one worker (see [`Gate`]).
    let workers = if max_work.is_some() || gate.is_some() { 1 } else { rayon::current_num_threads().max(1) };
    let state_steps = gate.as_ref().map(|gate| gate.state_steps);
    let new_expanders = |workers: usize| -> Vec<Expander> {
        let mut expanders: Vec<Expander> = (0..workers).map(|_| Expander::new(system, &next_plan, &input_plan, &layout)).collect();
        if let Some(max_work) = max_work {
            // A plan's steps are part of the work: past the budget inside a state, stop there.
            expanders.iter_mut().for_each(|e| e.limit_steps(max_work.max(1)));
        }
        if let Some(limit) = state_steps {
            expanders.iter_mut().for_each(|e| e.limit_steps_per_state(limit.max(1)));
        }
        expanders
    };
    // The pipeline (below) needs several workers and no budget on work or transitions; a gated
    // build uses it once the gate lets it go on to the end ([`Gate::pause`]).
    let can_pipeline = rayon::current_num_threads() >= 2 && max_work.is_none() && max_transitions == u64::MAX;
    let mut pipelined = can_pipeline && gate.is_none();
    let mut expanders = new_expanders(if pipelined { workers * PIPELINE_PARTS } else { workers });
    // A gated build, after its first stage: the work of the first stage's worker (steps,
    // compiled operations, tree nodes), the rate by which the later evaluation work is counted.
    // (When the initial states ended the first stage, the next pause measures it.)
    let mut first_stage: Option<(u64, u64, u64)> = None;
    // Plan steps of the expanders replaced after the first stage (when the gate lets go).
    let mut retired_steps = 0u64;
    let mut chunks: Vec<Chunk> = vec![];
    // The pipeline: with several workers and no budget on work or transitions, the states of
    // the next batch (when they are all in the table already) are copied out and expanded by the
    // workers while the current batch is interned, so that the serial interning does not leave
    // the other cores idle. The next batch is interned only after the current one, so the
    // numbering, edges and errors are those of the one-by-one search; an expansion ahead is
    // dropped when the current batch ends early (a full buffer; a failure ends the build). The
    // batch ahead's buffers are not counted against the budget while they are filled, so the
    // pipeline runs only while the budget has far more left than a batch's buffers may take.
    // Expanded ahead, the keys are not looked up in the table (it is being written), so their
    // interning probes each of them.
    let mut spare: Vec<Chunk> = vec![];
    let mut pending: Option<Pending> = None;
    // The packed states of the batch expanded ahead (a buffer reused batch after batch).
    let mut ahead_states: Vec<u64> = vec![];
    let words = layout.words();
    let mut edges = Edges { offsets, targets };
    let mut s = 0u32;
    // After a batch whose first state alone filled the successor buffers: expand one state.
    let mut one_state = false;
    while s < g.table.len() {
        if let Some(gate) = gate.as_mut() {
            let due = match allowance {
                None => s > 0 && gate.first.over(work, g.table.len().into()),
                Some(a) => work.units() >= a,
            };
            if due {
                let Some(next) = (gate.pause)(work) else {
                    return Err(diag::transition_limit(max_transitions.min(work.generated), &g.size(), system.span));
                };
                allowance = Some(next);
                let ending_first = first_stage.is_none();
                if ending_first {
                    first_stage = Some((work.steps - init_steps, work.ops, work.nodes));
                }
                // Let go: no pause will come, the batches' sizes no longer decide anything, and
                // the rest is built as an ungated build is.
                let let_go = next == UNGATED && can_pipeline && !pipelined;
                if ending_first || let_go {
                    // The first stage is measured: from now on, all the workers (with the
                    // pipeline's parts once let go). The first stage's steps are in `first_stage`.
                    if !ending_first {
                        retired_steps += expanders.iter().map(Expander::steps).sum::<u64>();
                    }
                    pipelined |= let_go;
                    let parts = if pipelined { PIPELINE_PARTS } else { 1 };
                    expanders = new_expanders(rayon::current_num_threads().max(1) * parts);
                }
            }
        }
        let budget = max_work.or(gate.as_ref().map(|gate| allowance.unwrap_or(gate.first.work)));
        let most = if pipelined { PIPELINE_BATCH } else { BATCH };
        let mut size =
            if pipelined { (s / PIPELINE_RAMP).clamp(BATCH, most) } else { batch_size(s, generated, max_transitions).min(work_batch_size(s, work, budget)) };
        if one_state {
            size = 1;
        } else if s > 0 {
            // As many states as the successors seen so far per state say fit in the buffers.
            let per_state = generated.div_ceil(u64::from(s)).max(1) * bytes_per_successor(words);
            size = size.min((batch_room(&g.budget, false) / per_state).clamp(1, u64::from(most)) as u32);
        }
        let start = s;
        let (end, room) = match pending.take() {
            // Expanded while the previous batch was interned.
            Some(p) if p.range.start == s && !one_state => {
                std::mem::swap(&mut chunks, &mut spare);
                (p.range.end, p.room)
            }
            _ => {
                let end = g.table.len().min(s.saturating_add(size));
                let room = batch_room(&g.budget, end - start == 1);
                expand_batch(&mut expanders, &mut chunks, Source::table(&g.table), Some(&g.table), s..end, room);
                (end, room)
            }
        };
        // The successors' buffers count against the budget while the batch is interned.
        let held: u64 = chunks.iter().map(Chunk::reserved).sum();
        g.budget.account(held);
        if let Err(e) = g.budget.need(0) {
            return Err(diag::out_of_memory(e, &g.size(), system.span));
        }
        work.expanded += u64::from(end - s);
        work.generated += chunks.iter().map(|c| c.hashes.len() as u64).sum::<u64>();
        let steps = retired_steps + expanders.iter().map(Expander::steps).sum::<u64>();
        match first_stage {
            None => {
                work.steps = init_steps + steps;
                (work.ops, work.nodes) = expanders.iter().map(Expander::evaluated).fold((0, 0), |(a, b), (c, d)| (a + c, b + d));
            }
            Some((first_steps, first_ops, first_nodes)) => {
                work.steps = init_steps + first_steps + steps;
                let by_rate = |x: u64| (u128::from(x) * u128::from(steps) / u128::from(first_steps.max(1))) as u64;
                (work.ops, work.nodes) = (first_ops + by_rate(first_ops), first_nodes + by_rate(first_nodes));
            }
        }
        if max_work.is_some_and(|m| work.units() > m) {
            return Err(diag::transition_limit(max_transitions.min(work.generated), &g.size(), system.span));
        }
        let batch = Batch { start, end, room, max, max_transitions, words };
        let ctx = InternContext { system, names, progress };
        // The next batch, when its states are all in the table already and the budget leaves
        // the largest room to two batches' buffers (near the budget, one batch at a time).
        let roomy = batch_room(&g.budget, false) == MAX_BATCH_ROOM;
        let ahead = (pipelined && roomy && !one_state).then(|| end..g.table.len().min(end.saturating_add(size))).filter(|r| !r.is_empty());
        let next = match ahead {
            Some(range) => {
                ahead_states.clear();
                ahead_states.extend_from_slice(g.table.packed_range(range.clone()));
                let source = Source { packed: &ahead_states, first: range.start };
                let ahead_room = batch_room(&g.budget, range.len() == 1);
                let (next, ()) = rayon::join(
                    || intern_batch(&chunks, &mut g, &mut edges, &mut generated, &batch, &ctx),
                    || expand_batch(&mut expanders, &mut spare, source, None, range.clone(), ahead_room),
                );
                pending = Some(Pending { range, room: ahead_room });
                next?
            }
            None => intern_batch(&chunks, &mut g, &mut edges, &mut generated, &batch, &ctx)?,
        };
        one_state = next == start;
        g.budget.release(held);
        let share = usize::try_from(room / chunks.len().max(1) as u64).unwrap_or(usize::MAX);
        chunks.iter_mut().for_each(|c| c.shrink_to(share, words));
        s = next;
    }
    let Edges { offsets, targets } = edges;
    let Growing { table, parent, budget, .. } = g;
    Ok(Explored { table, initial, succ: Csr::from_parts(offsets, targets.into_iter().map(StateId::from_u32).collect()), parent, budget })
}

/// The successor rows built so far: state `s`'s successors are `targets[offsets[s]..offsets[s + 1]]`.
struct Edges {
    offsets: Vec<u32>,
    targets: Vec<u32>,
}

/// A batch's states `start..end`, the room its successor buffers had, and the limits.
struct Batch {
    start: u32,
    end: u32,
    room: u64,
    max: u64,
    max_transitions: u64,
    words: usize,
}

/// A batch expanded ahead (`explore`'s pipeline) whose chunks wait in the spare buffers.
struct Pending {
    range: std::ops::Range<u32>,
    room: u64,
}

/// What the interning's messages need.
struct InternContext<'a> {
    system: &'a System,
    names: &'a Names<'a>,
    progress: &'a crate::progress::Progress,
}

/// Interns the successors of `batch`'s states (in `chunks`, in order) into `g`, appending their
/// rows to `edges`; returns the first state not done (the batch's end, or earlier when a chunk
/// was cut short by its buffer room), or the build's error.
fn intern_batch(chunks: &[Chunk], g: &mut Growing, edges: &mut Edges, generated: &mut u64, batch: &Batch, ctx: &InternContext<'_>) -> Result<u32, Diagnostic> {
    let InternContext { system, names, progress } = *ctx;
    let Batch { start, end, room, max, max_transitions, words } = *batch;
    let Edges { offsets, targets } = edges;
    let mut next = end;
    for chunk in chunks {
        *generated += chunk.hashes.len() as u64;
        if *generated > max_transitions {
            return Err(diag::transition_limit(max_transitions, &g.size(), system.span));
        }
        let mut from = 0usize;
        for (k, &to) in chunk.ends.iter().enumerate() {
            let to = to as usize;
            let s = chunk.first + k as u32;
            if u64::from(s) & (crate::progress::EVERY - 1) == 0 {
                progress.states(g.table.len().into(), (g.table.len() - s).into());
            }
            let first = targets.len();
            let mut oom: Option<OutOfMemory> = None;
            for i in from..to {
                // Keys the expanders found (see `expand`) have their ids: no probe.
                let absent = |i: usize| chunk.found.get(i).is_none_or(|&id| id == NOT_FOUND);
                if let Some(&h) = chunk.hashes.get(i + 2 * PREFETCH).filter(|_| absent(i + 2 * PREFETCH)) {
                    g.table.prefetch_recent(h);
                }
                if let Some(&h) = chunk.hashes.get(i + PREFETCH).filter(|_| absent(i + PREFETCH)) {
                    g.table.prefetch(h, &chunk.keys[(i + PREFETCH) * words..(i + PREFETCH + 1) * words]);
                }
                let id = if absent(i) { g.add_hashed(&chunk.keys[i * words..(i + 1) * words], chunk.hashes[i], s) } else { Ok(chunk.found[i]) };
                if let Err(e) = id.and_then(|id| g.budget.push(targets, id)) {
                    oom = Some(e);
                    break;
                }
            }
            from = to;
            let row = &mut targets[first..];
            row.sort_unstable();
            let kept = dedup_sorted(row);
            targets.truncate(first + kept);
            if let Some(e) = oom.or_else(|| g.budget.push(offsets, targets.len() as u32).err()) {
                return Err(diag::out_of_memory(e, &g.size(), system.span));
            }
            if g.table.len() as u64 > max {
                return Err(diag::state_limit(max, &g.size(), system.span));
            }
        }
        if let Some(e) = &chunk.failure {
            let s = chunk.first + chunk.ends.len() as u32;
            let path: Vec<String> = bfs_path(&g.parent, s).iter().map(|&p| names.state(system, &g.table.unpacked(p))).collect();
            let ctx = ErrorContext { state: Some(names.state(system, &g.table.unpacked(s))), path, during: None };
            return Err(diag::step_error(e, system, names, &ctx));
        }
        if chunk.truncated {
            // The next batch starts with the state that did not fit (the later chunks are
            // expanded again); when it was the batch's first, it gets the buffers alone, and
            // when it was alone, its successors do not fit in the budget.
            next = chunk.first + chunk.ends.len() as u32;
            if next == start && end - start == 1 {
                let needed = g.budget.used().saturating_add(room);
                return Err(diag::out_of_memory(OutOfMemory::Budget { needed }, &g.size(), system.span));
            }
            break;
        }
    }
    Ok(next)
}

/// Expanders per worker in the pipeline (see `explore`): the batch expanded ahead is split into
/// this many chunks per worker, so that the thread that finishes interning first takes chunks
/// the other has not started (with one chunk per worker, it waited for the other's). gas-nq7,
/// `--engine explicit -j 2`, state space in wall ms, three rounds: 1 part 2,878/3,168/3,525,
/// 8 parts 2,575/3,119/3,125, 16 parts 2,511/2,708/3,334; 4 keeps the evaluators' memo tables
/// (one set per expander) fewer.
const PIPELINE_PARTS: usize = 4;

/// The first stage's pause of a gated build whose initial states alone pass it, `found` of them
/// found (or known to be there): their plan steps cannot be read during the enumeration, so its
/// work counts one step per state, at least what it took. The next allowance, or `None` (stop).
fn pause_in_initial_states(gate: &mut Gate<'_>, found: u64) -> Option<u64> {
    (gate.pause)(&BuildWork { initial: found, steps: found, ..BuildWork::default() })
}

/// States expanded per batch (see [`expand`]).
const BATCH: u32 = 4096;

/// States expanded per batch in the pipeline at most (see `explore`; no work or transition
/// budget there). Each batch ends in a join of the two sides, where the side done first waits
/// for the other; with fewer, larger batches the waits are fewer, but a batch expanded ahead
/// holds only states already found, so early in a build (a small frontier) large batches leave
/// a side idle: a batch is an eighth of the states expanded so far ([`PIPELINE_RAMP`]), between
/// [`BATCH`] and this. `--engine explicit -j 2` state space in wall ms, medians of interleaved
/// rounds on a slow phase of the 2-core VM: gas-nq7 (6.0 M states) 4,096 states 4,343, 65,536
/// states 3,841, this 3,695; prod-cons (307,608 states) 586, 596 and 565. The buffers hold a
/// batch's successors and stay within the budget's room (`batch_room`).
const PIPELINE_BATCH: u32 = 16384;

/// See [`PIPELINE_BATCH`].
const PIPELINE_RAMP: u32 = 8;

/// Bytes the successor buffers of one batch may take ([`expand_batch`]): a quarter of what the
/// memory budget has left, between [`MIN_BATCH_ROOM`] and [`MAX_BATCH_ROOM`]. Without a budget,
/// [`MAX_BATCH_ROOM`], and no limit for a batch of one state.
fn batch_room(budget: &MemoryBudget, one_state: bool) -> u64 {
    match budget.limit() {
        None if one_state => u64::MAX,
        None => MAX_BATCH_ROOM,
        Some(limit) => (limit.saturating_sub(budget.used()) / 4).clamp(MIN_BATCH_ROOM, MAX_BATCH_ROOM),
    }
}

/// See [`batch_room`].
const MIN_BATCH_ROOM: u64 = 1 << 20;
/// See [`batch_room`].
const MAX_BATCH_ROOM: u64 = 1 << 30;
/// States to expand in the next batch: [`BATCH`], or under a transition budget no more than the
/// successors seen so far per state say the budget has left room for (so that a model with a
/// thousand successors per state stops after about the budget's work, not a batch's).
fn batch_size(expanded: u32, generated: u64, max_transitions: u64) -> u32 {
    if max_transitions == u64::MAX {
        return BATCH;
    }
    if expanded == 0 {
        return 64;
    }
    let per_state = generated.div_ceil(u64::from(expanded)).max(1);
    let room = max_transitions.saturating_sub(generated) / per_state;
    room.clamp(1, u64::from(BATCH)) as u32
}

/// States to expand in the next batch under a work budget (`max_work`, see
/// [`build_flat_measured`]): one at first, then no more than the work per state so far says the
/// budget has left room for, and at most as many as are expanded already (a state that costs
/// seconds stops the build after about the budget's work, not a batch's).
fn work_batch_size(expanded: u32, work: &BuildWork, max_work: Option<u64>) -> u32 {
    let Some(max_work) = max_work else { return BATCH };
    if expanded == 0 {
        return 1;
    }
    let per_state = work.units().div_ceil(u64::from(expanded)).max(1);
    let room = max_work.saturating_sub(work.units()) / per_state;
    room.clamp(1, u64::from(expanded.min(BATCH))) as u32
}

/// How many keys ahead the interning prefetches hash slots; it prefetches the entries of the
/// table's recent array (`PackedTable::prefetch_recent`) twice as far ahead, because the slot's
/// prefetch first reads that entry to skip keys it holds. Without that, the read waited for
/// memory (the array is 2 MiB) and was half of `intern_batch`'s samples on gas-nq7: whole
/// process, `--engine explicit -j 1`, CPU ms, medians of 9 interleaved runs, 6,733 → 6,028.
const PREFETCH: usize = 8;

/// Removes adjacent duplicates in place; returns the number kept.
fn dedup_sorted(row: &mut [u32]) -> usize {
    let mut kept = 0;
    for i in 0..row.len() {
        if kept == 0 || row[i] != row[kept - 1] {
            row[kept] = row[i];
            kept += 1;
        }
    }
    kept
}

/// An input valuation that takes `from` to `to` (input variables' value indices, in variable
/// order), for printing traces; `None` if the system has no inputs or no such valuation exists.
pub(crate) fn transition_inputs(system: &System, from: &[u32], to: &[u32]) -> Option<Vec<u32>> {
    let domains = DomainIndex::new(system);
    let input_plan = Plan::inputs(system, &domains);
    if input_plan.is_empty() {
        return None;
    }
    let next_plan = Plan::next(system, &domains).ok()?;
    let (mut ev, mut ev_inputs) = (Evaluator::new(&system.vars), Evaluator::new(&system.vars));
    let (mut scratch, mut scratch_inputs) = (Scratch::default(), Scratch::default());
    let zeros = vec![0u32; system.vars.len()];
    let mut found: Option<Vec<u32>> = None;
    let _ = input_plan.run(&mut scratch_inputs, &mut ev_inputs, from, from, None, &mut |with_inputs| {
        if found.is_some() {
            return ControlFlow::Break(());
        }
        let mut hit = false;
        let _ = next_plan.run(&mut scratch, &mut ev, with_inputs, &zeros, None, &mut |next| {
            hit = next == to;
            if hit { ControlFlow::Break(()) } else { ControlFlow::Continue(()) }
        });
        if hit {
            found = Some(with_inputs.to_vec());
            return ControlFlow::Break(());
        }
        ControlFlow::Continue(())
    });
    found
}

mod expand;
#[cfg(test)]
pub(crate) mod tests;
