//! Enumeration of a system's initial states, input valuations and successor states.
//!
//! A [`Plan`] is an ordered list of variable slots, each with a source of candidate values (an
//! assignment evaluated in some frame, the whole domain, or the current value for frozen
//! variables), plus constraints (`INIT`, `TRANS`, `INVAR` conjuncts) attached to the earliest slot
//! after which everything they read is known. Running a plan is a depth-first product over the
//! slots' candidate sets that prunes with each constraint as soon as it can be decided, emitting
//! every complete vector. Slots are ordered so an assignment reading `next(y)` (or, for `x := e`,
//! reading `y`) comes after `y`'s slot; a cycle is reported as an error.
//!
//! Frames say what `Var`/`Next` mean while evaluating: `Init` reads the vector being built,
//! `Trans` reads the current state for `Var` and the vector being built for `Next`, `NextInvar`
//! (invariants and `x := e` in the next state) reads the vector being built for `Var`.
//!
//! Constraint-style models (`TRANS` as a disjunction of guarded updates, unassigned variables)
//! would make that product range over whole domains: the plan's [`solve::Solver`] (built once per
//! plan when some conjunct decomposes) instead normalises such conjuncts into guarded
//! alternatives of bindings ([`decompose`]) and narrows each slot's candidates per state to what
//! the enabled alternatives allow, with the same result, state order and errors as the plain
//! product (see [`solve`] for the algorithm and why errors cannot change).
//!
//! Free variables that nothing reads (an unassigned `lock : boolean` of a process model) would
//! multiply the product's work below them when they come early in the order; a plan without
//! constraints takes such slots out of the product when only single-valued slots precede them,
//! and emits each vector of the rest once per combination of their values, in the same order
//! ([`Plan::run_deferred`]).
//!
//! Procedure modules: a variable that is `EXIT` in the current state stays `EXIT` (its `next` is
//! not evaluated), and `Value::Exit` is an allowed assignment value. Input variables are never
//! part of stored states: their slots are 0 in every emitted state vector and are enumerated by
//! [`Plan::inputs`] into a copy of the current state before the transition plan runs.

use super::eval::compiled::Program;
use super::eval::{EXIT_INDEX, Env, EvalError, Evaluator, UNSET};
use crate::ir::VarKind;
use crate::lowering::program::{BinOp, Domain, ExitNameId, Expr, System, Value, VarId};
use crate::source::Span;
use rustc_hash::FxHashMap;
use std::ops::ControlFlow;

/// What a plan calls with each complete vector; `Break` stops the enumeration (a state budget
/// reached while enumerating initial states, a search that found what it looked for).
pub(crate) type Emit<'a> = dyn FnMut(&[u32]) -> ControlFlow<()> + 'a;

mod decompose;
mod fallible;
#[cfg(test)]
mod hoist_tests;
mod memo;
mod solve;
pub(crate) use solve::packed::PackedOut;

#[cfg(test)]
thread_local! {
    /// Tests: build plans without the solver (plain enumeration only).
    pub(crate) static PLAIN_ONLY: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
    /// Tests: build plans without memoised evaluation.
    pub(crate) static NO_MEMO: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
    /// Tests: never write successors straight into packed keys ([`solve::packed`]).
    pub(crate) static NO_PACKED: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
    /// Tests: look at every conjunct in each state (no index by the variable that skips them).
    pub(crate) static NO_SKIP_INDEX: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
    /// Tests: the solvers built with an index of their conjuncts by a skipping variable.
    pub(crate) static SKIP_INDEXES: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
    /// Tests: build plans in dependency order only (no single-valued slots moved earlier).
    pub(crate) static NO_HOIST: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
    /// Tests: the plans built with some single-valued slot moved earlier ([`Plan::order`]).
    pub(crate) static HOISTED_PLANS: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
    /// Tests: compute every slot's candidates at every visit (no [`Plan::reuse`]).
    pub(crate) static NO_REUSE: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
    /// Tests: the slot visits that kept the candidates of the run's first ([`Plan::reuse`]).
    pub(crate) static REUSED_FILLS: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
    /// Tests: evaluate process-guarded slots for every selector value (no [`keeps_unless`]).
    pub(crate) static NO_IDLE: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
    /// Tests: the slot visits that kept the current value of an idle process's variable.
    pub(crate) static IDLE_FILLS: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
    /// Tests: the plan runs whose successors were written straight into packed keys.
    pub(crate) static PACKED_RUNS: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
    /// Tests: keep free slots that nothing reads in the product (no [`Plan::deferred`]).
    pub(crate) static NO_DEFER: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
    /// Tests: the plan runs that emitted a product computed once for every combination of
    /// [`Plan::deferred`] slots.
    pub(crate) static DEFERRED_RUNS: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
    /// Tests: the plan runs that computed the product once per combination of
    /// [`Plan::deferred`] slots (past [`DEFERRED_ROWS_MAX`]).
    pub(crate) static EACH_COMBINATION_RUNS: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
    /// Tests: [`DEFERRED_ROWS_MAX`] instead, when not zero.
    pub(crate) static DEFERRED_ROWS_CAP: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

/// The most vectors of the product without the [`Plan::deferred`] slots that a run keeps to
/// emit once per combination of theirs; a run with more computes the product once per
/// combination instead, so that the buffer does not grow with the successors (whose room the
/// caller bounds by breaking the emission).
const DEFERRED_ROWS_MAX: usize = 1 << 12;

/// [`DEFERRED_ROWS_MAX`], or in tests [`DEFERRED_ROWS_CAP`] when set.
fn deferred_rows_max() -> usize {
    #[cfg(test)]
    if let n @ 1.. = DEFERRED_ROWS_CAP.with(std::cell::Cell::get) {
        return n;
    }
    DEFERRED_ROWS_MAX
}

/// The cursor of a depth whose slot [`Plan::dfs`] assigned without candidates (an idle
/// process's variable): past the end of any candidate list.
const IDLE: usize = usize::MAX;

/// How `Var` and `Next` are read (defined by the evaluator, which reads them).
pub(crate) use super::eval::Frame;

/// Which statement an assignment or constraint is (for messages).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Origin {
    InitAssign,
    NextAssign,
    InvarAssign,
    Init,
    Trans,
    Invar,
    Input,
}

impl Origin {
    pub(crate) fn describe(self) -> &'static str {
        match self {
            Origin::InitAssign => "init assignment",
            Origin::NextAssign => "next assignment",
            Origin::InvarAssign => "invariant assignment",
            Origin::Init => "INIT constraint",
            Origin::Trans => "TRANS constraint",
            Origin::Invar => "INVAR constraint",
            Origin::Input => "input variable",
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum StepErrorKind {
    Eval(EvalError),
    /// An assignment produced a value outside the variable's domain.
    OutOfRange {
        var: VarId,
        value: Value,
    },
    /// Assignments depend on each other in a cycle (the front end should have rejected this).
    Cycle {
        var: VarId,
    },
    /// The buffers' step budget ([`Scratch::limit_steps`]) ran out: a build under a work budget
    /// (`--engine auto`'s first attempt) stops inside a state whose expansion costs too much.
    Budget,
}

/// An error while enumerating: what, where (the statement's span), and the partial vector.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct StepError {
    pub kind: StepErrorKind,
    pub origin: Origin,
    pub span: Span,
    /// The vector being built when it happened (`UNSET` where not yet computed).
    pub partial: Vec<u32>,
}

/// Value → index maps of each variable's domain (hash maps for enumerations).
#[derive(Clone, Debug)]
pub(crate) struct DomainIndex {
    enums: Vec<Option<FxHashMap<Value, u32>>>,
}

impl DomainIndex {
    pub(crate) fn new(system: &System) -> DomainIndex {
        let enums = system
            .vars
            .iter()
            .map(|v| match &v.domain {
                Domain::Enum(values) => Some(values.iter().enumerate().map(|(i, &x)| (x, i as u32)).collect()),
                _ => None,
            })
            .collect();
        DomainIndex { enums }
    }

    pub(crate) fn index_of(&self, system: &System, var: VarId, value: Value) -> Option<u32> {
        match &self.enums[var.index()] {
            Some(map) => map.get(&value).copied(),
            None => system.vars[var.index()].domain.index_of(value).map(|i| i as u32),
        }
    }
}

#[derive(Clone, Debug)]
enum Source<'p> {
    Expr(&'p Expr),
    Domain,
    Keep,
    /// A constant value or set, precomputed as value indices (or the first value out of range).
    Const(Consts),
    /// A `case` table over one variable whose entries are all constant (the usual control-flow
    /// `next(pc)`), precomputed: one lookup per state, no evaluation.
    Table(Box<ConstTable>),
    /// A `case` table over one variable with some constant entries (a procedure's `next(pc)`,
    /// whose call states choose their return by `EXITED`): the constant entries are
    /// precomputed, the others evaluated, exactly as evaluating the whole table would.
    MixedTable(Box<MixedTable<'p>>),
}

impl Source<'_> {
    /// Whether the slot always gets one candidate (conservative: [`single_valued`]).
    fn is_single_valued(&self) -> bool {
        match self {
            Source::Keep => true,
            Source::Const(Ok(c)) => c.len() <= 1,
            Source::Expr(e) => single_valued(e),
            _ => false,
        }
    }
}

type Consts = Result<Vec<u32>, Value>;

#[derive(Clone, Debug)]
enum Entry<'p> {
    Consts(Consts),
    Expr(&'p Expr),
}

#[derive(Clone, Debug)]
struct MixedTable<'p> {
    var: VarId,
    entries: Vec<Option<Entry<'p>>>,
    fallback: Option<Entry<'p>>,
    span: Span,
}

#[derive(Clone, Debug)]
struct ConstTable {
    var: VarId,
    entries: Vec<Option<Consts>>,
    fallback: Option<Consts>,
    span: Span,
}

#[derive(Clone, Debug)]
struct Slot<'p> {
    var: VarId,
    source: Source<'p>,
    frame: Frame,
    origin: Origin,
    span: Span,
}

#[derive(Clone, Debug)]
struct Check<'p> {
    expr: &'p Expr,
    frame: Frame,
    origin: Origin,
    span: Span,
    /// `expr` compiled ([`Program`]), tried before the tree evaluator.
    prog: Option<std::sync::Arc<Program>>,
}

/// Reusable buffers for running plans (one per plan per thread).
#[derive(Clone, Debug, Default)]
pub(crate) struct Scratch {
    vec: Vec<u32>,
    candidates: Vec<Vec<u32>>,
    pos: Vec<usize>,
    values: Vec<Value>,
    /// Value indices of a binding's set (solver).
    bindset: Vec<u32>,
    /// Per slot: candidates depending on the current state only, and the state stamp they were
    /// computed for (solver).
    cache: Vec<Vec<u32>>,
    cache_gen: Vec<u32>,
    /// Plain runs: per slot, the run whose candidates `candidates[d]` holds for a slot that
    /// [`Plan::reuse`] marks, and the current run's number.
    filled_in: Vec<u32>,
    run: u32,
    /// The current state with the plan's slots keeping their values, and the state stamp it
    /// was made for (solver's precomputed paths).
    row: Vec<u32>,
    row_gen: u32,
    /// Per slot position: the candidates depending on the current state only as a bit set of
    /// value indices; `keep_ok`: the positions whose current value is a candidate; the state
    /// stamp they were made for (solver's masked paths).
    masks: Vec<u64>,
    keep_ok: u128,
    mask_gen: u32,
    /// Boxed so that taking it out for a run moves a pointer, not the buffers' headers.
    solve: Option<Box<solve::SolveScratch>>,
    /// The vectors of a run's product without its [`Plan::deferred`] slots, one after another.
    deferred_rows: Vec<u32>,
    /// Cached candidates and verdicts of the plan last run ([`memo`]).
    memo: memo::Memo,
    /// Plan runs and slot candidates tried with these buffers: a deterministic measure of the
    /// enumeration's work (`--engine auto` estimates the explicit build's cost by it).
    steps: u64,
    /// Past this many steps a run stops with [`StepErrorKind::Budget`] (0: no limit).
    step_limit: u64,
}

impl Scratch {
    /// [`Scratch::steps`] so far.
    pub(crate) fn steps(&self) -> u64 {
        self.steps
    }

    /// Stops runs with these buffers once they have taken more than `limit` steps in all.
    pub(crate) fn limit_steps(&mut self, limit: u64) {
        self.step_limit = limit;
    }
}

#[derive(Clone, Debug)]
pub(crate) struct Plan<'p> {
    system: &'p System,
    domains: &'p DomainIndex,
    slots: Vec<Slot<'p>>,
    /// `checks[d]` run once the first `d` slots are assigned.
    checks: Vec<Vec<Check<'p>>>,
    /// Procedure semantics: `EXIT` is sticky and assignable.
    procedure: bool,
    /// Successors by solving the constraints that decompose ([`solve`]); `None`: plain
    /// enumeration.
    solver: Option<Box<solve::Solver<'p>>>,
    /// Distinguishes plans for [`memo::Memo`].
    id: u64,
    /// Per slot (`Source::Expr` only) and per check: the key of its memo table ([`memo`]).
    slot_memo: Vec<Option<memo::MemoKey>>,
    check_memo: Vec<Vec<Option<memo::MemoKey>>>,
    memo_tables: usize,
    /// Per slot (`Source::Expr` only): its expression compiled ([`Program`]).
    slot_prog: Vec<Option<Program>>,
    /// Per slot: [`keeps_unless`]'s selector and bit set of its value indices when the slot's
    /// expression is a process's guarded assignment: any other value of the selector keeps
    /// the variable's current value, without evaluating the expression.
    slot_keep_unless: Vec<Option<Idle>>,
    /// Per slot: `slot_keep_unless`, where no check waits for the slot: a plain run assigns
    /// the current value of such a slot without computing candidates when the selector says
    /// its process does not make the step, and goes on to the next slot ([`Plan::dfs`]).
    idle_skip: Vec<Option<Idle>>,
    /// Per slot whose expression is a set literal of single values (`{g, g_IMAGE}`): each
    /// item compiled.
    slot_set: Vec<Option<Box<[Program]>>>,
    /// Per slot: its candidates depend on the current state only and take an evaluation to
    /// compute, so a plain run computes them once, at the slot's first visit, and keeps them
    /// for every later branch of the depth-first product (the same values in the same order).
    reuse: Vec<bool>,
    /// Some slot is marked in `reuse`.
    reuses: bool,
    /// Slots that take their whole domain, that nothing reads and that only single-valued slots
    /// precede in the order ([`free_leaders`]), in a plan without checks, taken out of `slots`:
    /// [`Plan::run_deferred`] computes the product of `slots` once and emits each of its
    /// vectors once per combination of their values, which is the order of the product with
    /// them in their places.
    deferred: Vec<Slot<'p>>,
    /// When [`Plan::order`] moved single-valued slots earlier: the slots and checks it was given,
    /// to rebuild the plan in dependency order and report the error that order meets first
    /// ([`Plan::first_error_in_dependency_order`]).
    unhoisted: Option<std::sync::Arc<(Vec<Slot<'p>>, Vec<Check<'p>>)>>,
}

impl<'p> Plan<'p> {
    /// Initial states: `init(x)`/`x :=` assignments or the domain, filtered by `INIT` and `INVAR`.
    pub(crate) fn init(system: &'p System, domains: &'p DomainIndex) -> Result<Plan<'p>, StepError> {
        let spans = &system.spans;
        let mut slots = vec![];
        for (v, var) in system.vars.iter().enumerate() {
            if var.kind == VarKind::Input {
                continue;
            }
            let var_span = var.span;
            let slot = if let Some(e) = &system.init_assign[v] {
                Slot {
                    var: VarId::new(v),
                    source: Source::Expr(e),
                    frame: Frame::Init,
                    origin: Origin::InitAssign,
                    span: opt_span(&spans.init_assign, v, var_span),
                }
            } else if let Some(e) = &system.invar_assign[v] {
                Slot {
                    var: VarId::new(v),
                    source: Source::Expr(e),
                    frame: Frame::Init,
                    origin: Origin::InvarAssign,
                    span: opt_span(&spans.invar_assign, v, var_span),
                }
            } else {
                Slot { var: VarId::new(v), source: Source::Domain, frame: Frame::Init, origin: Origin::InitAssign, span: var_span }
            };
            slots.push(slot);
        }
        let mut checks = vec![];
        push_conjuncts(&mut checks, &system.init, &spans.init, Frame::Init, Origin::Init, system.span);
        push_conjuncts(&mut checks, &system.invar, &spans.invar, Frame::Init, Origin::Invar, system.span);
        Plan::order(system, domains, slots, checks)
    }

    /// Successors of a state (whose input slots hold the chosen inputs): `next(x)` assignments,
    /// `x :=` assignments in the next state, the current value for frozen variables, the domain
    /// otherwise; filtered by `TRANS` and `INVAR`.
    pub(crate) fn next(system: &'p System, domains: &'p DomainIndex) -> Result<Plan<'p>, StepError> {
        let spans = &system.spans;
        let mut slots = vec![];
        for (v, var) in system.vars.iter().enumerate() {
            let var_span = var.span;
            let slot = match var.kind {
                VarKind::Input => continue,
                VarKind::Frozen => Slot { var: VarId::new(v), source: Source::Keep, frame: Frame::Trans, origin: Origin::NextAssign, span: var_span },
                VarKind::State => {
                    if let Some(e) = &system.next_assign[v] {
                        Slot {
                            var: VarId::new(v),
                            source: Source::Expr(e),
                            frame: Frame::Trans,
                            origin: Origin::NextAssign,
                            span: opt_span(&spans.next_assign, v, var_span),
                        }
                    } else if let Some(e) = &system.invar_assign[v] {
                        Slot {
                            var: VarId::new(v),
                            source: Source::Expr(e),
                            frame: Frame::NextInvar,
                            origin: Origin::InvarAssign,
                            span: opt_span(&spans.invar_assign, v, var_span),
                        }
                    } else {
                        Slot { var: VarId::new(v), source: Source::Domain, frame: Frame::Trans, origin: Origin::NextAssign, span: var_span }
                    }
                }
            };
            slots.push(slot);
        }
        let mut checks = vec![];
        push_conjuncts(&mut checks, &system.trans, &spans.trans, Frame::Trans, Origin::Trans, system.span);
        push_conjuncts(&mut checks, &system.invar, &spans.invar, Frame::NextInvar, Origin::Invar, system.span);
        Plan::order(system, domains, slots, checks)
    }

    /// Input valuations: every combination of the input variables' domains.
    pub(crate) fn inputs(system: &'p System, domains: &'p DomainIndex) -> Plan<'p> {
        let slots = (system.vars.iter().enumerate())
            .filter(|(_, var)| var.kind == VarKind::Input)
            .map(|(v, var)| Slot { var: VarId::new(v), source: Source::Domain, frame: Frame::Init, origin: Origin::Input, span: var.span })
            .collect::<Vec<_>>();
        let checks = vec![vec![]; slots.len() + 1];
        Plan::new(system, domains, slots, checks)
    }

    fn new(system: &'p System, domains: &'p DomainIndex, slots: Vec<Slot<'p>>, checks: Vec<Vec<Check<'p>>>) -> Plan<'p> {
        static NEXT_ID: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);
        let id = NEXT_ID.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        Plan {
            system,
            domains,
            slots,
            checks,
            procedure: system.is_procedure,
            solver: None,
            id,
            slot_memo: vec![],
            slot_keep_unless: vec![],
            idle_skip: vec![],
            check_memo: vec![],
            memo_tables: 0,
            slot_prog: vec![],
            slot_set: vec![],
            reuse: vec![],
            reuses: false,
            deferred: vec![],
            unhoisted: None,
        }
    }

    /// Chooses the expressions to memoise (all that fit, in slot then check order).
    fn plan_memo(&mut self) {
        self.slot_memo = vec![None; self.slots.len()];
        self.check_memo = self.checks.iter().map(|c| vec![None; c.len()]).collect();
        if self.procedure {
            return;
        }
        #[cfg(test)]
        if NO_MEMO.with(std::cell::Cell::get) {
            return;
        }
        let mut total = 0usize;
        let mut tables = 0u32;
        let mut take = |key: Option<memo::MemoKey>| {
            let mut key = key?;
            if total + key.size() > memo::TOTAL_ENTRIES {
                return None;
            }
            total += key.size();
            key.table = tables;
            tables += 1;
            Some(key)
        };
        for (d, slot) in self.slots.iter().enumerate() {
            if let Source::Expr(e) = slot.source {
                self.slot_memo[d] = take(memo::MemoKey::of(self.system, e, slot.frame));
            }
        }
        for (d, checks) in self.checks.iter().enumerate() {
            for (i, c) in checks.iter().enumerate() {
                self.check_memo[d][i] = take(memo::MemoKey::of(self.system, c.expr, c.frame));
            }
        }
        self.memo_tables = tables as usize;
    }

    /// Whether successors come from the constraint solver (tests).
    #[cfg(test)]
    pub(crate) fn solves(&self) -> bool {
        self.solver.is_some()
    }

    /// Whether the system has input variables.
    pub(crate) fn is_empty(&self) -> bool {
        self.slots.is_empty() && self.deferred.is_empty()
    }

    /// Orders slots by their dependencies (stable otherwise), moves single-valued slots before
    /// the free ones they do not read ([`hoist_single_valued`]), takes free slots that nothing
    /// reads out of the product when only single-valued slots precede them ([`free_leaders`]),
    /// and attaches each check to the earliest depth at which everything it reads is assigned.
    fn order(system: &'p System, domains: &'p DomainIndex, slots: Vec<Slot<'p>>, checks: Vec<Check<'p>>) -> Result<Plan<'p>, StepError> {
        #[cfg(test)]
        let hoist = !NO_HOIST.with(std::cell::Cell::get);
        #[cfg(not(test))]
        let hoist = true;
        Plan::order_with(system, domains, slots, checks, hoist && !system.is_procedure)
    }

    fn order_with(system: &'p System, domains: &'p DomainIndex, slots: Vec<Slot<'p>>, checks: Vec<Check<'p>>, hoist: bool) -> Result<Plan<'p>, StepError> {
        let given = hoist.then(|| (slots.clone(), checks.clone()));
        let n = system.vars.len();
        let mut slot_of_var = vec![usize::MAX; n];
        for (i, s) in slots.iter().enumerate() {
            slot_of_var[s.var.index()] = i;
        }
        let deps_of = |e: &Expr, frame: Frame| -> Vec<usize> {
            let mut vars = vec![];
            reads(e, frame, &mut vars);
            let mut ds: Vec<usize> = vars.into_iter().map(|v| slot_of_var.get(v.index()).copied().unwrap_or(usize::MAX)).filter(|&i| i != usize::MAX).collect();
            ds.sort_unstable();
            ds.dedup();
            ds
        };
        let deps: Vec<Vec<usize>> = slots
            .iter()
            .map(|s| match s.source {
                Source::Expr(e) => deps_of(e, s.frame),
                _ => vec![],
            })
            .collect();
        // Kahn's algorithm, smallest slot index first among the ready ones.
        let mut remaining: Vec<usize> = deps.iter().map(Vec::len).collect();
        let mut users = vec![vec![]; slots.len()];
        for (i, ds) in deps.iter().enumerate() {
            for &d in ds {
                users[d].push(i);
            }
        }
        let mut ready: std::collections::BTreeSet<usize> = (0..slots.len()).filter(|&i| remaining[i] == 0).collect();
        let mut order = Vec::with_capacity(slots.len());
        while let Some(i) = ready.pop_first() {
            order.push(i);
            for &u in &users[i] {
                remaining[u] -= 1;
                if remaining[u] == 0 {
                    ready.insert(u);
                }
            }
        }
        if order.len() < slots.len() {
            let stuck = (0..slots.len()).find(|&i| remaining[i] > 0).unwrap_or(0);
            let s = &slots[stuck];
            return Err(StepError { kind: StepErrorKind::Cycle { var: s.var }, origin: s.origin, span: s.span, partial: vec![] });
        }
        let mut unhoisted = None;
        let mut deferred = vec![];
        if let Some(given) = given {
            let given = std::sync::Arc::new(given);
            let mut constrained = vec![false; slots.len()];
            for c in &checks {
                deps_of(c.expr, c.frame).into_iter().for_each(|i| constrained[i] = true);
            }
            // Slot `i` may move before slot `j` when no check reads `j` and `j` gives at least one
            // candidate or fails; if `j` can fail, `i` must not be read by a check either (else
            // a check at `i`'s new depth could prune before `j` fails).
            let never_empty = |j: usize| match slots[j].source {
                Source::Domain | Source::Keep => Some(true),
                Source::Expr(e) => (!may_be_empty(e)).then_some(false),
                _ => None,
            };
            let passes = |i: usize, j: usize| !constrained[j] && never_empty(j).is_some_and(|infallible| infallible || !constrained[i]);
            let single = |i: usize| slots[i].source.is_single_valued();
            let hoisted = hoist_single_valued(&order, &deps, passes, single);
            if hoisted != order {
                order = hoisted;
                unhoisted = Some(given.clone());
                #[cfg(test)]
                HOISTED_PLANS.with(|c| c.set(c.get() + 1));
            }
            #[cfg(test)]
            let defer = !NO_DEFER.with(std::cell::Cell::get);
            #[cfg(not(test))]
            let defer = true;
            if defer && checks.is_empty() && !system.is_procedure {
                let (kept, free) = free_leaders(&order, |i| matches!(slots[i].source, Source::Domain) && users[i].is_empty(), single);
                if !free.is_empty() && !kept.is_empty() {
                    order = kept;
                    deferred = free.into_iter().map(|i| slots[i].clone()).collect();
                    // A single-valued slot before a deferred one may fail: then the product
                    // in dependency order says which error, with which partial vector.
                    unhoisted = Some(given);
                }
            }
        }
        let mut depth_of_slot = vec![0usize; slots.len()];
        for (depth, &i) in order.iter().enumerate() {
            depth_of_slot[i] = depth + 1;
        }
        let mut placed = vec![vec![]; slots.len() + 1];
        for mut c in checks {
            c.prog = Program::condition(&system.vars, c.expr, c.frame).map(std::sync::Arc::new);
            let depth = deps_of(c.expr, c.frame).iter().map(|&i| depth_of_slot[i]).max().unwrap_or(0);
            placed[depth].push(c);
        }
        placed.truncate(order.len() + 1);
        let mut plan = Plan::new(system, domains, vec![], placed);
        plan.deferred = deferred;
        plan.slots = (order.into_iter())
            .map(|i| {
                let mut slot = slots[i].clone();
                if let Source::Expr(e) = slot.source {
                    slot.source = plan.precompute(slot.var, e).unwrap_or(slot.source);
                }
                slot
            })
            .collect();
        plan.slot_prog = (plan.slots.iter())
            .map(|s| match s.source {
                Source::Expr(e) => Program::compile(&system.vars, e, s.frame),
                _ => None,
            })
            .collect();
        plan.slot_set = (plan.slots.iter()).map(|s| compile_set(&system.vars, s)).collect();
        let mut pos_of_var = vec![usize::MAX; n];
        for (i, s) in plan.slots.iter().enumerate() {
            pos_of_var[s.var.index()] = i;
        }
        plan.slot_keep_unless = (plan.slots.iter().enumerate())
            .map(|(d, s)| match &s.source {
                Source::Expr(e) if !plan.procedure && s.frame == Frame::Trans => keeps_unless(system, s.var, e, |var, value| plan.index(var, value))
                    .filter(|g| g.in_cur || pos_of_var.get(g.sel.index()).is_some_and(|&at| at < d)),
                Source::MixedTable(t) if !plan.procedure && s.frame == Frame::Trans => {
                    let keeps = matches!(t.fallback, Some(Entry::Expr(Expr::Var(x))) if *x == s.var);
                    keeps.then(|| table_keeps_unless(system, t.var, t.entries.iter().map(Option::is_some))).flatten()
                }
                _ => None,
            })
            .collect();
        #[cfg(test)]
        if NO_IDLE.with(std::cell::Cell::get) {
            plan.slot_keep_unless.fill(None);
        }
        plan.idle_skip = (plan.slot_keep_unless.iter().enumerate()).map(|(d, k)| k.filter(|_| plan.checks[d + 1].is_empty())).collect();
        let evaluated = |s: &Slot<'_>| matches!(s.source, Source::Expr(_) | Source::MixedTable(_));
        // A slot is visited again in a run only below one that may give several candidates.
        let first_branch = plan.slots.iter().position(|s| !s.source.is_single_valued()).unwrap_or(plan.slots.len());
        plan.reuse =
            (plan.slots.iter().enumerate()).map(|(d, s)| !plan.procedure && d > first_branch && evaluated(s) && solve::cur_only(s, &pos_of_var)).collect();
        #[cfg(test)]
        if NO_REUSE.with(std::cell::Cell::get) {
            plan.reuse.fill(false);
        }
        plan.reuses = plan.reuse.contains(&true);
        plan.plan_memo();
        plan.unhoisted = unhoisted;
        #[cfg(test)]
        if PLAIN_ONLY.with(std::cell::Cell::get) {
            return Ok(plan);
        }
        plan.solver = solve::Solver::build(&plan);
        Ok(plan)
    }

    /// A precomputed source for constant assignments and constant case tables.
    fn precompute(&self, var: VarId, e: &'p Expr) -> Option<Source<'p>> {
        match e {
            Expr::Table { var: on, entries, fallback, span } => {
                // Outer `None`: not constant; inner `None`: no entry (falls through).
                let optional = |x: Option<&Expr>| match x {
                    None => Some(None),
                    Some(e) => self.consts(var, e).map(Some),
                };
                let all_constant = entries.iter().flatten().chain(fallback.as_deref()).all(|x| matches!(x, Expr::Const(_) | Expr::Set(_)));
                if all_constant && let Some(entries) = entries.iter().map(|x| optional(x.as_ref())).collect::<Option<Vec<_>>>() {
                    let fallback = optional(fallback.as_deref())?;
                    return Some(Source::Table(Box::new(ConstTable { var: *on, entries, fallback, span: *span })));
                }
                let entry = |x: &'p Expr| self.consts(var, x).map_or(Entry::Expr(x), Entry::Consts);
                let entries: Vec<Option<Entry<'p>>> = entries.iter().map(|x| x.as_ref().map(entry)).collect();
                if !entries.iter().flatten().any(|x| matches!(x, Entry::Consts(_))) {
                    return None;
                }
                let fallback = fallback.as_deref().map(entry);
                Some(Source::MixedTable(Box::new(MixedTable { var: *on, entries, fallback, span: *span })))
            }
            _ => self.consts(var, e).map(Source::Const),
        }
    }

    /// The value indices of a constant (set) expression assigned to `var`, in the order the
    /// evaluator would produce them; `None` if `e` is not constant.
    fn consts(&self, var: VarId, e: &Expr) -> Option<Consts> {
        if let Expr::Const(v) = e {
            // The usual table entry: one value, no intermediate list.
            return Some(self.index(var, *v).map(|i| vec![i]).ok_or(*v));
        }
        let mut values: Vec<Value> = match e {
            Expr::Const(v) => vec![*v],
            Expr::Set(items) => items.iter().map(|i| if let Expr::Const(v) = i { Some(*v) } else { None }).collect::<Option<_>>()?,
            _ => return None,
        };
        values.sort_unstable();
        values.dedup();
        let mut out = Vec::with_capacity(values.len());
        if self.to_indices(var, &values, &mut out).is_err() {
            let bad = values.into_iter().find(|&v| self.index(var, v).is_none());
            return bad.map(Err);
        }
        Some(Ok(out))
    }

    /// Emits every complete vector until `emit` breaks (then returns `Ok`). `cur` is the current state (with inputs) for `Trans`
    /// frames; `base` gives the values of the slots the plan does not assign; `exited` is the
    /// value of `EXITED` (returns of calls).
    pub(crate) fn run(
        &self,
        scratch: &mut Scratch,
        ev: &mut Evaluator,
        cur: &[u32],
        base: &[u32],
        exited: Option<ExitNameId>,
        emit: &mut Emit<'_>,
    ) -> Result<(), StepError> {
        scratch.memo.bind(self.id, self.memo_tables);
        scratch.steps += 1;
        let r = match &self.solver {
            Some(solver) => solver.run(self, scratch, ev, cur, base, exited, emit),
            None => self.run_plain(scratch, ev, cur, base, exited, emit),
        };
        r.map_err(|e| self.first_error_in_dependency_order(e, cur, base, exited))
    }

    /// [`Plan::run`] of a transition plan (no `EXITED`), its successors packed into `out`:
    /// straight from the current state's key where the solver's paths allow
    /// ([`solve::packed`]), else by packing each vector the search emits. The same keys in
    /// the same order either way.
    pub(crate) fn run_packed(&self, scratch: &mut Scratch, ev: &mut Evaluator, cur: &[u32], base: &[u32], out: &mut PackedOut<'_>) -> Result<(), StepError> {
        scratch.memo.bind(self.id, self.memo_tables);
        scratch.steps += 1;
        let r = match &self.solver {
            Some(solver) => solver.run_packed(self, scratch, ev, cur, base, out),
            None => self.run_plain(scratch, ev, cur, base, None, &mut |state| out.push_row(state)),
        };
        r.map_err(|e| self.first_error_in_dependency_order(e, cur, base, None))
    }

    /// The error a run reports. A plan whose single-valued slots were moved earlier meets an
    /// evaluation error in the same runs as the plan in dependency order
    /// ([`hoist_single_valued`]: the slots it moved past never prune, nor does anything moved
    /// before one that can fail), but possibly another one first and with less of the vector
    /// computed; so the plan in dependency order is rebuilt and run, and its first error is the
    /// one reported (errors end the build: this runs at most once). A step budget error is the
    /// run's own.
    #[cold]
    fn first_error_in_dependency_order(&self, e: StepError, cur: &[u32], base: &[u32], exited: Option<ExitNameId>) -> StepError {
        let Some(given) = self.unhoisted.as_deref() else { return e };
        if e.kind == StepErrorKind::Budget {
            return e;
        }
        let Ok(plan) = Plan::order_with(self.system, self.domains, given.0.clone(), given.1.clone(), false) else { return e };
        let mut scratch = Scratch::default();
        let mut ev = Evaluator::new(&self.system.vars);
        plan.run(&mut scratch, &mut ev, cur, base, exited, &mut |_| ControlFlow::Continue(())).err().unwrap_or(e)
    }

    /// [`Plan::run`] by plain enumeration: the depth-first product of the slots' candidates.
    fn run_plain(
        &self,
        scratch: &mut Scratch,
        ev: &mut Evaluator,
        cur: &[u32],
        base: &[u32],
        exited: Option<ExitNameId>,
        emit: &mut Emit<'_>,
    ) -> Result<(), StepError> {
        self.reset(scratch, base);
        if self.deferred.is_empty() {
            return self.dfs::<false>(scratch, ev, cur, exited, None, emit);
        }
        self.run_deferred(scratch, ev, cur, exited, emit)
    }

    /// How many distinct vectors a [`Plan::run`] from `cur` and `base` will emit at least, when
    /// that is known without emitting any: a plan without a solver whose product without its
    /// [`Plan::deferred`] slots has a vector and fits [`Plan::run_deferred`]'s buffer emits
    /// each of those vectors once per combination of the deferred slots' values (vectors that
    /// differ in those slots) and meets no error, so it emits at least that many combinations.
    /// `None` otherwise (no deferred slots, a solver, an error or an empty product, a product
    /// past the buffer). Runs the product once more; the steps it counts are not kept.
    pub(crate) fn emits_at_least(&self, scratch: &mut Scratch, ev: &mut Evaluator, cur: &[u32], base: &[u32]) -> Option<u64> {
        if self.solver.is_some() || self.deferred.is_empty() {
            return None;
        }
        let steps = scratch.steps;
        scratch.memo.bind(self.id, self.memo_tables);
        self.reset(scratch, base);
        let cap = deferred_rows_max();
        let mut rows = 0usize;
        let product = self.dfs::<false>(scratch, ev, cur, None, None, &mut |_| {
            rows += 1;
            if rows > cap { ControlFlow::Break(()) } else { ControlFlow::Continue(()) }
        });
        scratch.steps = steps;
        let combinations = self.deferred.iter().map(|s| self.system.vars[s.var.index()].domain.len() as u64).fold(1, u64::saturating_mul);
        (product.is_ok() && (1..=cap).contains(&rows)).then_some(combinations)
    }

    /// [`Plan::run_plain`] of a plan with [`Plan::deferred`] slots: the product of the other
    /// slots once (at most [`DEFERRED_ROWS_MAX`] vectors), then each of its vectors once per
    /// combination of the deferred slots' values, the first deferred slot varying slowest.
    /// Nothing the other slots compute reads a deferred slot, so the product with the
    /// deferred slots in their places would emit the same vectors in this order, and meet an
    /// error in its first combination (which error, and with which partial vector, the run in
    /// dependency order says: [`Plan::first_error_in_dependency_order`]; the vectors emitted
    /// before an error are not used). A product past that many vectors is run
    /// once per combination instead (the work of the product with the deferred slots in
    /// their places, without a buffer that grows with the successors).
    #[inline(never)]
    fn run_deferred(&self, scratch: &mut Scratch, ev: &mut Evaluator, cur: &[u32], exited: Option<ExitNameId>, emit: &mut Emit<'_>) -> Result<(), StepError> {
        let lens: smallvec::SmallVec<[u32; 4]> = self.deferred.iter().map(|s| self.system.vars[s.var.index()].domain.len() as u32).collect();
        if lens.contains(&0) {
            return Ok(());
        }
        let mut combo: smallvec::SmallVec<[u32; 4]> = smallvec::smallvec![0; lens.len()];
        let width = scratch.vec.len();
        let cap = deferred_rows_max() * width;
        let mut rows = std::mem::take(&mut scratch.deferred_rows);
        rows.clear();
        let mut overflow = false;
        let product = self.dfs::<false>(scratch, ev, cur, exited, None, &mut |v| {
            if rows.len() >= cap {
                overflow = true;
                return ControlFlow::Break(());
            }
            rows.extend_from_slice(v);
            ControlFlow::Continue(())
        });
        if product.is_err() || overflow {
            scratch.deferred_rows = rows;
            product?;
            return self.run_each_combination(scratch, ev, cur, exited, &lens, emit);
        }
        #[cfg(test)]
        DEFERRED_RUNS.with(|c| c.set(c.get() + 1));
        let mut result = Ok(());
        'combinations: loop {
            for row in rows.chunks_exact_mut(width) {
                for (s, &c) in self.deferred.iter().zip(&combo) {
                    row[s.var.index()] = c;
                }
                scratch.steps += 1;
                if scratch.step_limit != 0 && scratch.steps > scratch.step_limit {
                    let s = &self.deferred[0];
                    result = Err(StepError { kind: StepErrorKind::Budget, origin: s.origin, span: s.span, partial: vec![] });
                    break 'combinations;
                }
                if emit(row).is_break() {
                    break 'combinations;
                }
            }
            if !next_combination(&mut combo, &lens) {
                break;
            }
        }
        scratch.deferred_rows = rows;
        result
    }

    /// The product of the other slots once per combination of the [`Plan::deferred`] slots'
    /// values, emitted as it goes (see [`Plan::run_deferred`]).
    #[cold]
    fn run_each_combination(
        &self,
        scratch: &mut Scratch,
        ev: &mut Evaluator,
        cur: &[u32],
        exited: Option<ExitNameId>,
        lens: &[u32],
        emit: &mut Emit<'_>,
    ) -> Result<(), StepError> {
        #[cfg(test)]
        EACH_COMBINATION_RUNS.with(|c| c.set(c.get() + 1));
        let mut combo: smallvec::SmallVec<[u32; 4]> = smallvec::smallvec![0; lens.len()];
        loop {
            for (s, &c) in self.deferred.iter().zip(&combo) {
                scratch.vec[s.var.index()] = c;
            }
            let mut stopped = false;
            self.dfs::<false>(scratch, ev, cur, exited, None, &mut |v| {
                let flow = emit(v);
                stopped = flow.is_break();
                flow
            })?;
            if stopped || !next_combination(&mut combo, lens) {
                return Ok(());
            }
        }
    }

    /// Starts a run: the vector is `base` with the plan's slots unset.
    fn reset(&self, scratch: &mut Scratch, base: &[u32]) {
        let n = self.slots.len();
        scratch.vec.clear();
        scratch.vec.extend_from_slice(base);
        for s in &self.slots {
            scratch.vec[s.var.index()] = UNSET;
        }
        if scratch.candidates.len() < n {
            scratch.candidates.resize_with(n, Vec::new);
            scratch.pos.resize(n, 0);
            scratch.cache.resize_with(n, Vec::new);
            scratch.cache_gen.resize(n, 0);
            scratch.filled_in.resize(n, 0);
        }
        scratch.run = scratch.run.wrapping_add(1);
        if scratch.run == 0 {
            scratch.filled_in.fill(0);
            scratch.run = 1;
        }
    }

    /// The depth-first product over the slots from a reset vector, pruning with the checks (the
    /// plan's own, or with `restrict` the solver's remaining ones plus the chosen alternatives'
    /// residuals, and candidates narrowed by their bindings). Compiled once for plain runs
    /// (`RESTRICTED` false: `restrict` is taken as `None`, and the walk has no trace of the
    /// solver's tests) and once under the solver's restriction.
    fn dfs<const RESTRICTED: bool>(
        &self,
        scratch: &mut Scratch,
        ev: &mut Evaluator,
        cur: &[u32],
        exited: Option<ExitNameId>,
        restrict: Option<&solve::Restrict<'_, 'p>>,
        emit: &mut Emit<'_>,
    ) -> Result<(), StepError> {
        let restrict = if RESTRICTED { restrict } else { None };
        let n = self.slots.len();
        if !self.checks_hold(0, scratch, ev, cur, exited, restrict)? {
            return Ok(());
        }
        if n == 0 {
            let _ = emit(&scratch.vec);
            return Ok(());
        }
        self.fill(0, scratch, ev, cur, exited, restrict)?;
        let mut d = 0;
        loop {
            // (`IDLE` depths are past their one value too.)
            if scratch.pos[d] >= scratch.candidates[d].len() {
                scratch.vec[(self.slots[d].var).index()] = UNSET;
                if d == 0 {
                    return Ok(());
                }
                d -= 1;
                continue;
            }
            let value = scratch.candidates[d][scratch.pos[d]];
            scratch.pos[d] += 1;
            scratch.steps += 1;
            if scratch.step_limit != 0 && scratch.steps > scratch.step_limit {
                return Err(StepError { kind: StepErrorKind::Budget, origin: self.slots[d].origin, span: self.slots[d].span, partial: vec![] });
            }
            scratch.vec[self.slots[d].var.index()] = value;
            // (Most depths have no checks: no call.)
            let checked = restrict.map_or(!self.checks[d + 1].is_empty(), |r| r.waits_at(d + 1));
            if checked && !self.checks_hold(d + 1, scratch, ev, cur, exited, restrict)? {
                continue;
            }
            if d + 1 == n {
                if emit(&scratch.vec).is_break() {
                    for s in &self.slots {
                        scratch.vec[s.var.index()] = UNSET;
                    }
                    return Ok(());
                }
                continue;
            }
            d += 1;
            // The slots of a process that does not make the step keep their current values
            // ([`Plan::idle_at`]): assigned here, without candidates, marked `IDLE`.
            while d < n && self.idle_at(d, cur, &scratch.vec, restrict) {
                #[cfg(test)]
                IDLE_FILLS.with(|c| c.set(c.get() + 1));
                scratch.steps += 1;
                if scratch.step_limit != 0 && scratch.steps > scratch.step_limit {
                    return Err(StepError { kind: StepErrorKind::Budget, origin: self.slots[d].origin, span: self.slots[d].span, partial: vec![] });
                }
                let v = self.slots[d].var.index();
                scratch.vec[v] = cur[v];
                scratch.pos[d] = IDLE;
                d += 1;
            }
            if d == n {
                // The last slots were idle: the vector is complete.
                if emit(&scratch.vec).is_break() {
                    for s in &self.slots {
                        scratch.vec[s.var.index()] = UNSET;
                    }
                    return Ok(());
                }
                d -= 1;
                continue;
            }
            self.fill(d, scratch, ev, cur, exited, restrict)?;
        }
    }

    /// Whether the slot at depth `d` belongs to a process that does not make the step (in the
    /// current state `cur` or the vector `vec` being built) and nothing tests it before the next
    /// slot: no check (a plain run: [`Plan::idle_skip`]), or under the solver's restriction no
    /// binding narrows its candidates and no check or residual waits for it.
    #[inline]
    fn idle_at(&self, d: usize, cur: &[u32], vec: &[u32], restrict: Option<&solve::Restrict<'_, 'p>>) -> bool {
        let guard = match restrict {
            None => self.idle_skip.get(d),
            Some(_) => self.slot_keep_unless.get(d),
        };
        guard.copied().flatten().is_some_and(|guard| idle_in(guard, cur, vec)) && restrict.is_none_or(|r| !r.has_binds(d) && !r.waits_at(d + 1))
    }

    fn env<'a>(frame: Frame, cur: &'a [u32], vec: &'a [u32], exited: Option<ExitNameId>) -> Env<'a> {
        match frame {
            Frame::Init | Frame::NextInvar => Env { cur: vec, next: None, exited: None },
            Frame::Trans => Env { cur, next: Some(vec), exited },
        }
    }

    fn checks_hold(
        &self,
        depth: usize,
        scratch: &mut Scratch,
        ev: &mut Evaluator,
        cur: &[u32],
        exited: Option<ExitNameId>,
        restrict: Option<&solve::Restrict<'_, 'p>>,
    ) -> Result<bool, StepError> {
        let checks = restrict.map_or(&self.checks, |r| &r.solver.checks);
        for (i, c) in checks[depth].iter().enumerate() {
            if let Some(holds) = c.prog.as_ref().and_then(|p| p.holds_in(&Self::env(c.frame, cur, &scratch.vec, exited))) {
                if holds {
                    continue;
                }
                return Ok(false);
            }
            // The plan's own checks are memoised ([`memo`]).
            let memo = restrict.is_none().then(|| self.check_memo.get(depth).and_then(|c| c.get(i)).and_then(Option::as_ref)).flatten();
            let at = memo.and_then(|m| m.index(cur, &scratch.vec).map(|k| (m, k)));
            if let Some((m, k)) = at {
                match scratch.memo.verdict(m, k) {
                    Some(true) => continue,
                    Some(false) => return Ok(false),
                    None => {}
                }
            }
            let env = Self::env(c.frame, cur, &scratch.vec, exited);
            if let Some((m, k)) = at
                && let Ok(holds) = ev.bool(c.expr, &env)
            {
                scratch.memo.set_verdict(m, k, holds);
                if holds {
                    continue;
                }
                return Ok(false);
            }
            match ev.bool(c.expr, &env) {
                Ok(true) => {}
                Ok(false) => return Ok(false),
                Err(e) => return Err(StepError { kind: StepErrorKind::Eval(e), origin: c.origin, span: c.span, partial: scratch.vec.clone() }),
            }
        }
        match restrict {
            Some(r) => r.residual_holds(depth, &scratch.vec, ev, cur, exited),
            None => Ok(true),
        }
    }

    /// Computes the candidate value indices of slot `d` and resets its cursor.
    fn fill(
        &self,
        d: usize,
        scratch: &mut Scratch,
        ev: &mut Evaluator,
        cur: &[u32],
        exited: Option<ExitNameId>,
        restrict: Option<&solve::Restrict<'_, 'p>>,
    ) -> Result<(), StepError> {
        let Some(r) = restrict else {
            return if self.reuses { self.fill_reusing(d, scratch, ev, cur, exited) } else { self.fill_plain(d, scratch, ev, cur, exited) };
        };
        let bound = r.has_binds(d);
        if !bound
            && let Some(guard) = self.slot_keep_unless.get(d).copied().flatten()
            && idle_in(guard, cur, &scratch.vec)
        {
            // Another process makes the step (see `fill_plain`), before any cache.
            #[cfg(test)]
            IDLE_FILLS.with(|c| c.set(c.get() + 1));
            let v = self.slots[d].var.index();
            let out = &mut scratch.candidates[d];
            out.clear();
            out.push(cur[v]);
            scratch.pos[d] = 0;
            return Ok(());
        }
        if bound && matches!(self.slots[d].source, Source::Domain) {
            let len = self.system.vars[(self.slots[d].var).index()].domain.len() as u32;
            let mut out = std::mem::take(&mut scratch.candidates[d]);
            out.clear();
            scratch.pos[d] = 0;
            let result = r.candidates_from_bindings(self, d, len, &mut out, &scratch.vec, ev, cur, exited, &mut scratch.values, &mut scratch.bindset);
            scratch.candidates[d] = out;
            return result;
        }
        self.fill_cached(d, scratch, ev, cur, exited, r.cur_only(d).then_some(r.stamp))?;
        if bound {
            let mut out = std::mem::take(&mut scratch.candidates[d]);
            let result = r.filter(self, d, &mut out, &scratch.vec, ev, cur, exited, &mut scratch.values, &mut scratch.bindset);
            scratch.candidates[d] = out;
            return result;
        }
        Ok(())
    }

    /// [`Plan::fill_plain`] in a plain run of a plan with [`Plan::reuse`] slots: such a slot's
    /// candidates are computed at its first visit in the run and kept for the later ones. (Out
    /// of line: plans without such slots keep `fill`'s tail call.)
    #[inline(never)]
    fn fill_reusing(&self, d: usize, scratch: &mut Scratch, ev: &mut Evaluator, cur: &[u32], exited: Option<ExitNameId>) -> Result<(), StepError> {
        // Only the slots that `reuse` marks are ever stamped with a run.
        if scratch.filled_in[d] == scratch.run {
            scratch.pos[d] = 0;
            #[cfg(test)]
            REUSED_FILLS.with(|c| c.set(c.get() + 1));
            return Ok(());
        }
        self.fill_plain(d, scratch, ev, cur, exited)?;
        if self.reuse[d] {
            scratch.filled_in[d] = scratch.run;
        }
        Ok(())
    }

    /// [`Plan::fill_plain`], reusing the candidates computed for the same state stamp when given
    /// (for slots whose candidates depend on the current state only).
    fn fill_cached(
        &self,
        d: usize,
        scratch: &mut Scratch,
        ev: &mut Evaluator,
        cur: &[u32],
        exited: Option<ExitNameId>,
        stamp: Option<u32>,
    ) -> Result<(), StepError> {
        match stamp {
            Some(st) if scratch.cache_gen[d] == st => {
                let mut out = std::mem::take(&mut scratch.candidates[d]);
                out.clear();
                out.extend_from_slice(&scratch.cache[d]);
                scratch.candidates[d] = out;
                scratch.pos[d] = 0;
                Ok(())
            }
            Some(st) => self.ensure_cached(d, scratch, ev, cur, exited, st),
            None => self.fill_plain(d, scratch, ev, cur, exited),
        }
    }

    /// Makes `scratch.cache[d]` hold slot `d`'s candidates for state stamp `st` (computing them
    /// unless already done for it), for slots whose candidates depend on the current state only.
    fn ensure_cached(&self, d: usize, scratch: &mut Scratch, ev: &mut Evaluator, cur: &[u32], exited: Option<ExitNameId>, st: u32) -> Result<(), StepError> {
        if scratch.cache_gen[d] != st {
            self.fill_plain(d, scratch, ev, cur, exited)?;
            let (cache, out) = (&mut scratch.cache[d], &scratch.candidates[d]);
            cache.clear();
            cache.extend_from_slice(out);
            scratch.cache_gen[d] = st;
        }
        Ok(())
    }

    /// Computes the candidate value indices of slot `d` from its source and resets its cursor.
    fn fill_plain(&self, d: usize, scratch: &mut Scratch, ev: &mut Evaluator, cur: &[u32], exited: Option<ExitNameId>) -> Result<(), StepError> {
        let slot = &self.slots[d];
        let v = slot.var.index();
        let mut out = std::mem::take(&mut scratch.candidates[d]);
        out.clear();
        scratch.pos[d] = 0;
        let sticky = self.procedure && slot.frame != Frame::Init && cur.get(v) == Some(&EXIT_INDEX);
        let idle = self.slot_keep_unless.get(d).copied().flatten().is_some_and(|guard| idle_in(guard, cur, &scratch.vec));
        let result = if sticky {
            out.push(EXIT_INDEX);
            Ok(())
        } else if idle {
            // Another process makes the step: the `TRUE : x` branch (see `keeps_unless`).
            #[cfg(test)]
            IDLE_FILLS.with(|c| c.set(c.get() + 1));
            out.push(cur[v]);
            Ok(())
        } else {
            match &slot.source {
                Source::Const(c) => extend(&mut out, slot.var, c),
                Source::Table(t) => {
                    let on = t.var.index();
                    let idx = if slot.frame == Frame::Trans { cur.get(on) } else { scratch.vec.get(on) }.copied().unwrap_or(UNSET);
                    match t.entries.get(idx as usize).and_then(Option::as_ref).or(t.fallback.as_ref()) {
                        Some(c) => extend(&mut out, slot.var, c),
                        None if idx == UNSET => Err(StepErrorKind::Eval(EvalError::Unset(t.var))),
                        None => Err(StepErrorKind::Eval(EvalError::NonExhaustiveCase { span: t.span })),
                    }
                }
                Source::MixedTable(t) => {
                    // As `Evaluator::eval` on the whole `Expr::Table`.
                    let on = t.var.index();
                    let idx = if slot.frame == Frame::Trans { cur.get(on) } else { scratch.vec.get(on) }.copied().unwrap_or(UNSET);
                    let entry = match t.entries.get(idx as usize) {
                        _ if idx == UNSET => Err(StepErrorKind::Eval(EvalError::Unset(t.var))),
                        Some(Some(entry)) => Ok(entry),
                        _ => t.fallback.as_ref().ok_or(StepErrorKind::Eval(EvalError::NonExhaustiveCase { span: t.span })),
                    };
                    match entry {
                        Ok(Entry::Consts(c)) => extend(&mut out, slot.var, c),
                        Ok(Entry::Expr(e)) => {
                            let env = Self::env(slot.frame, cur, &scratch.vec, exited);
                            match ev.values(e, &env, &mut scratch.values) {
                                Ok(()) => self.to_indices(slot.var, &scratch.values, &mut out),
                                Err(err) => Err(StepErrorKind::Eval(err)),
                            }
                        }
                        Err(err) => Err(err),
                    }
                }
                Source::Keep => {
                    out.push(cur[v]);
                    Ok(())
                }
                Source::Domain => {
                    out.extend(0..self.system.vars[v].domain.len() as u32);
                    Ok(())
                }
                Source::Expr(e) => {
                    let at = self.slot_memo.get(d).and_then(Option::as_ref).and_then(|m| m.index(cur, &scratch.vec).map(|k| (m, k)));
                    match at {
                        Some((m, k)) if scratch.memo.candidates(m, k, &mut out) => Ok(()),
                        _ => {
                            let env = Self::env(slot.frame, cur, &scratch.vec, exited);
                            let compiled = self.slot_prog.get(d).and_then(Option::as_ref).and_then(|p| p.value_in(&env));
                            if let Some(i) = compiled.and_then(|v| self.index(slot.var, v)) {
                                out.push(i);
                                if let Some((m, k)) = at {
                                    scratch.memo.set_candidates(m, k, &out);
                                }
                                scratch.candidates[d] = out;
                                return Ok(());
                            }
                            let items = self.slot_set.get(d).and_then(Option::as_ref);
                            let r = match items.is_some_and(|items| set_values(items, &env, &mut scratch.values)) {
                                true => self.to_indices(slot.var, &scratch.values, &mut out),
                                false => match ev.values(e, &env, &mut scratch.values) {
                                    Ok(()) => self.to_indices(slot.var, &scratch.values, &mut out),
                                    Err(err) => Err(StepErrorKind::Eval(err)),
                                },
                            };
                            if let (Ok(()), Some((m, k))) = (&r, at) {
                                scratch.memo.set_candidates(m, k, &out);
                            }
                            r
                        }
                    }
                }
            }
        };
        scratch.candidates[d] = out;
        result.map_err(|kind| StepError { kind, origin: slot.origin, span: slot.span, partial: scratch.vec.clone() })
    }

    fn index(&self, var: VarId, value: Value) -> Option<u32> {
        match value {
            Value::Exit if self.procedure => Some(EXIT_INDEX),
            _ => self.domains.index_of(self.system, var, value),
        }
    }

    fn to_indices(&self, var: VarId, values: &[Value], out: &mut Vec<u32>) -> Result<(), StepErrorKind> {
        for &value in values {
            match self.index(var, value) {
                Some(i) => out.push(i),
                None => return Err(StepErrorKind::OutOfRange { var, value }),
            }
        }
        Ok(())
    }
}

/// The items of a slot's set literal compiled, when every item compiles to a single value.
fn compile_set(vars: &[crate::lowering::program::Variable], slot: &Slot<'_>) -> Option<Box<[Program]>> {
    let Source::Expr(e) = slot.source else { return None };
    let Expr::Set(items) = e.unshared() else { return None };
    items.iter().map(|item| Program::compile(vars, item, slot.frame)).collect()
}

/// The values of a compiled set literal as [`Evaluator::values`] gives them (sorted, without
/// duplicates) into `out`; `false` where the evaluator might fail (evaluate the tree instead).
fn set_values(items: &[Program], env: &Env, out: &mut Vec<Value>) -> bool {
    out.clear();
    for p in items {
        match p.value_in(env) {
            Some(v) => out.push(v),
            None => return false,
        }
    }
    out.sort_unstable();
    out.dedup();
    true
}

/// `order` split into the slots that stay in the product and the free ones taken out of it
/// ([`Plan::deferred`]): those that `free` accepts (a whole domain, read by no slot) and that
/// only single-valued or other such slots precede. The single-valued slots before them give
/// one vector or fail, so the product with the free slots in their places would emit the same
/// vectors in the same order.
fn free_leaders(order: &[usize], free: impl Fn(usize) -> bool, single: impl Fn(usize) -> bool) -> (Vec<usize>, Vec<usize>) {
    let (mut kept, mut taken) = (Vec::with_capacity(order.len()), vec![]);
    let mut leading = true;
    for &i in order {
        if leading && free(i) {
            taken.push(i);
        } else {
            leading &= single(i);
            kept.push(i);
        }
    }
    (kept, taken)
}

/// Advances `combo` (each position below its `lens`) to the next combination, the last
/// position fastest; false after the last.
fn next_combination(combo: &mut [u32], lens: &[u32]) -> bool {
    for (c, &len) in combo.iter_mut().zip(lens).rev() {
        *c += 1;
        if *c < len {
            return true;
        }
        *c = 0;
    }
    false
}

/// A process's guarded assignment ([`keeps_unless`]): the selector, the bit set of the value
/// indices whose branches are evaluated, and where the selector is read.
#[derive(Clone, Copy, Debug)]
struct Idle {
    sel: VarId,
    runs: u64,
    /// The selector is an input, read in the current state (with its inputs); otherwise a
    /// state variable read in the vector being built (`next(sel)`).
    in_cur: bool,
}

/// Whether the selector's value (in `cur` or `vec`, see [`Idle::in_cur`]) is none of those whose
/// branches [`keeps_unless`] found: the process does not make the step.
#[inline]
fn idle_in(g: Idle, cur: &[u32], vec: &[u32]) -> bool {
    let view = if g.in_cur { cur } else { vec };
    view.get(g.sel.index()).is_some_and(|&k| k < 64 && g.runs >> k & 1 == 0)
}

/// A process's guarded assignment, as `semantics::system` writes `next(x) := e` of processes
/// (`case sel = k1 : e1; …; TRUE : x; esac`): the selector and the bit set of the value indices
/// of `k1, …` (all below 64) whose branches are evaluated. Any other value of the selector gives
/// `x`'s current value, since every condition before `TRUE` is then false and none can fail.
/// The selector is `next(sel)` when it is a state variable (`FAIRNESS running`: the caller makes
/// sure its slot comes first, so it is set) and `sel` itself when it is an input (brp's
/// scheduler: read in the current state, which holds the inputs of the step).
fn keeps_unless(system: &System, var: VarId, e: &Expr, index: impl Fn(VarId, Value) -> Option<u32>) -> Option<Idle> {
    if let Expr::Table { var: on, entries, fallback: Some(keep), .. } = e {
        return match &**keep {
            Expr::Var(x) if *x == var => table_keeps_unless(system, *on, entries.iter().map(Option::is_some)),
            _ => None,
        };
    }
    let Expr::Case { branches, .. } = e else { return None };
    let ((last_cond, last_value), guarded) = branches.split_last()?;
    if guarded.is_empty() || !matches!(last_cond, Expr::Const(Value::Bool(true))) || !matches!(last_value, Expr::Var(x) if *x == var) {
        return None;
    }
    let mut selector = None;
    let mut runs = 0u64;
    for (cond, _) in guarded {
        let Expr::Binary(BinOp::Eq, a, b) = cond else { return None };
        let (sel, in_cur, k) = match (&**a, &**b) {
            (Expr::Next(sel), Expr::Const(k)) => (*sel, false, k),
            (Expr::Var(sel), Expr::Const(k)) if system.vars[sel.index()].kind == VarKind::Input => (*sel, true, k),
            _ => return None,
        };
        if selector.is_some_and(|s| s != (sel, in_cur)) {
            return None;
        }
        selector = Some((sel, in_cur));
        let k = index(sel, *k).filter(|&k| k < 64)?;
        runs |= 1 << k;
    }
    let (sel, in_cur) = selector?;
    Some(Idle { sel, runs, in_cur })
}

/// [`keeps_unless`] of a `case` that lowering compiled into a table over an input selector
/// `on` (`entries`: which of its value indices have a branch) whose fallback is the variable's
/// current value: the selector's other values keep it.
fn table_keeps_unless(system: &System, on: VarId, entries: impl Iterator<Item = bool>) -> Option<Idle> {
    if system.vars[on.index()].kind != VarKind::Input {
        return None;
    }
    let mut runs = 0u64;
    for (k, present) in entries.enumerate() {
        if present {
            if k >= 64 {
                return None;
            }
            runs |= 1 << k;
        }
    }
    Some(Idle { sel: on, runs, in_cur: true })
}

/// Appends precomputed candidates (or reports the value out of range).
fn extend(out: &mut Vec<u32>, var: VarId, c: &Consts) -> Result<(), StepErrorKind> {
    match c {
        Ok(indices) => {
            out.extend_from_slice(indices);
            Ok(())
        }
        Err(value) => Err(StepErrorKind::OutOfRange { var, value: *value }),
    }
}

fn opt_span(spans: &[Option<Span>], v: usize, fallback: Span) -> Span {
    spans.get(v).copied().flatten().unwrap_or(fallback)
}

/// Splits each constraint into its top-level conjuncts (so each can be checked as early as
/// possible) and appends them as checks.
fn push_conjuncts<'p>(checks: &mut Vec<Check<'p>>, exprs: &'p [Expr], spans: &[Span], frame: Frame, origin: Origin, fallback: Span) {
    for (i, e) in exprs.iter().enumerate() {
        let span = spans.get(i).copied().unwrap_or(fallback);
        let mut stack = vec![e];
        while let Some(e) = stack.pop() {
            match e {
                Expr::Binary(BinOp::And, a, b) => {
                    stack.push(b);
                    stack.push(a);
                }
                Expr::Const(Value::Bool(true)) => {}
                _ => checks.push(Check { expr: e, frame, origin, span, prog: None }),
            }
        }
    }
}

/// Whether `e` always evaluates to one value (no set or range anywhere in it; conservative:
/// `x in {a, b}` counts as set-valued).
fn single_valued(e: &Expr) -> bool {
    !e.any(|e| matches!(e, Expr::Set(_) | Expr::Range(..)))
}

/// Whether `e` has a range `lo .. hi` (empty when `lo > hi`) or an empty set anywhere.
fn may_be_empty(e: &Expr) -> bool {
    e.any(|e| matches!(e, Expr::Range(..)) || matches!(e, Expr::Set(items) if items.is_empty()))
}

/// `order` (a dependency order of slot positions) with every single-valued slot `i` moved before
/// the slots `j` that precede it, that it does not depend on (`deps[i]`: the slots `i` reads)
/// and that it `passes(i, j)`: no check reads `j` and `j` gives at least one candidate or
/// fails, so `j` never prunes (and a `j` that can fail is passed only by an `i` that no check
/// reads, so nothing is pruned before `j` is evaluated that was not before); a single-valued
/// slot contributes one candidate wherever it stands. The depth-first
/// product then emits the same vectors in the same order (the multi-valued slots keep their
/// relative order), but computes each single-valued slot once per combination of the slots
/// before it rather than once per combination of the free slots it was behind: in a model with
/// `k` unassigned booleans interleaved with assigned variables, once per state instead of up
/// to `2^k` times. Which of two failing slots fails first can change, so a failing run is
/// repeated in dependency order for its error ([`Plan::first_error_in_dependency_order`]).
fn hoist_single_valued(order: &[usize], deps: &[Vec<usize>], passes: impl Fn(usize, usize) -> bool, single: impl Fn(usize) -> bool) -> Vec<usize> {
    let mut out: Vec<usize> = Vec::with_capacity(order.len());
    for &i in order {
        let mut at = out.len();
        if single(i) {
            while at > 0 && passes(i, out[at - 1]) && !deps[i].contains(&out[at - 1]) {
                at -= 1;
            }
        }
        out.insert(at, i);
    }
    out
}

/// The variables whose slot must be assigned before `e` can be evaluated in `frame`.
fn reads(e: &Expr, frame: Frame, out: &mut Vec<VarId>) {
    let mut stack = vec![e];
    while let Some(e) = stack.pop() {
        match e {
            Expr::Var(v) if frame != Frame::Trans => out.push(*v),
            Expr::Next(v) if frame == Frame::Trans => out.push(*v),
            Expr::Table { var, .. } if frame != Frame::Trans => out.push(*var),
            _ => {}
        }
        e.push_children(&mut stack);
    }
}
