//! Explicit CTL model checking of flat models (`check::flat`): bitset labelling of a
//! [`KripkeStructure`] with NuSMV 2.5.4's fair CTL semantics, plus `INVARSPEC` by reachability.
//!
//! Pipeline: all specs are lowered into one hash-consed DAG of `EX`/`EU`/`EG`/`And` nodes
//! ([`formula`]), so a subformula shared by many specs is computed once; the DAG is labelled
//! bottom-up, level by level in parallel ([`eval`], [`fixpoint`], [`crate::check::graph::scc`]); verdicts and traces
//! are then computed per spec in parallel ([`explain`]). Results are identical for any thread
//! count.
//!
//! Semantics (what NuSMV 2.5.4 does, read from its `mcMc.c`/`mcEval.c`):
//! - fair states = `E_f G true`: states with an infinite path visiting every `FAIRNESS`/`JUSTICE`
//!   constraint infinitely often; with no constraints, states with any infinite path. NuSMV's
//!   constraints hold on state–input pairs; those over state variables are state sets here, those
//!   over inputs (`FAIRNESS running`) are transition sets ([`Fairness::transitions`]);
//! - `EX`/`EU` targets are restricted to fair states, `EG` needs a fair path, and `A` operators are
//!   the duals (`AX a = ¬EX ¬a`, `AG a = ¬EF ¬a`, `AF a = ¬EG ¬a`, `A[a U b]` as in NuSMV);
//! - a spec holds iff it holds in every initial *fair* state. Deadlock states (no successor) are
//!   not fair, so on models with deadlocks NuSMV gives vacuous verdicts: at a deadlock `AX false`,
//!   `AG p` and `AF p` hold, `EX true` and `EF p` do not, and an initial state that can only reach
//!   deadlocks is ignored. When no initial state is fair every spec holds;
//!   [`CtlReport::fair_states_empty`] / [`CtlReport::no_fair_initial_state`] let the report warn
//!   (NuSMV prints "Fair states set of the finite state machine is empty" in the first case).
//!
//! Traces ([`crate::check::trace::Trace`] of state ids from an initial state, optionally a lasso):
//! - every false spec gets a counterexample: the explanation of its negation from the first fair
//!   initial state that violates it. For `AG`, `AF`, `AX`, `A[U]` (and negated existentials)
//!   this is a path to the violation, a lasso for `AF`/`A[U]` violated by an infinite path, and so
//!   on into nested existential subformulas; for a false `EF`/`EG`/`EX`/`E[U]` it is just the
//!   initial state, as in NuSMV;
//! - a true spec whose top operator is existential (`EX`, `EF`, `EG`, `E[U]`, or a negated
//!   universal) gets a witness from the first fair initial state; other true specs get none.
//! - a finite path whose last state occurs earlier is returned as the lasso it is (NuSMV prints
//!   `-- Loop starts here` for such paths too).

pub(crate) mod checker;
pub(crate) mod condense;
pub(crate) mod distance;
pub(crate) mod eval;
pub(crate) mod explain;
pub(crate) mod fixpoint;
pub(crate) mod formula;
pub(crate) mod invar;
pub(crate) mod paths;

use crate::check::trace::{SpecOutcome, Trace, TraceKind};
use crate::ctl::Ctl;
use crate::explicit::kripke::{KripkeStructure, StateId};
use crate::ir::{Compute, Distance, Extremum, PropId};
use eval::Labelling;
use explain::Explainer;
use fixedbitset::FixedBitSet;
use formula::{Arena, Lit};
use rayon::prelude::*;

pub use invar::check_invariants;

#[derive(Clone, Debug)]
pub struct CheckOptions {
    /// Worker threads (`-j N`); 0 = rayon's default (all cores).
    pub threads: usize,
    /// Compute counterexamples (`--no-trace` turns them off).
    pub traces: bool,
    /// Also witnesses of true existential specs (NuSMV 2.5.4 prints none; `--witnesses`).
    pub witnesses: bool,
}

impl Default for CheckOptions {
    fn default() -> Self {
        CheckOptions { threads: 0, traces: true, witnesses: true }
    }
}

#[derive(Clone, Debug)]
pub struct CtlReport {
    /// One verdict per spec, in input order.
    pub verdicts: Vec<SpecOutcome>,
    /// No state is fair (NuSMV warns; every spec is then vacuously true).
    pub fair_states_empty: bool,
    /// No initial state is fair (every spec is vacuously true).
    pub no_fair_initial_state: bool,
    /// Distinct core subformulas computed (after sharing).
    pub distinct_subformulas: usize,
}

/// `FAIRNESS`/`JUSTICE` constraints: a fair path visits each set infinitely often.
#[derive(Clone, Copy, Debug, Default)]
pub struct Fairness<'a> {
    /// Constraints on states (propositions of the Kripke structure).
    pub states: &'a [PropId],
    /// Constraints on transitions, each a set of indices into `kripke.succ.targets` — for
    /// constraints that read input variables, e.g. `FAIRNESS running` of a process (a transition
    /// belongs to the set if some input producing it satisfies the constraint).
    pub transitions: &'a [FixedBitSet],
}

/// Checks CTL specs on `kripke` under the state fairness constraints `fairness`.
pub fn check_ctl(kripke: &KripkeStructure, specs: &[Ctl<PropId>], fairness: &[PropId], options: &CheckOptions) -> CtlReport {
    check_ctl_fair(kripke, specs, &Fairness { states: fairness, transitions: &[] }, options)
}

/// Checks CTL specs on `kripke` under state and transition fairness constraints.
pub fn check_ctl_fair(kripke: &KripkeStructure, specs: &[Ctl<PropId>], fairness: &Fairness, options: &CheckOptions) -> CtlReport {
    run_in_pool(options.threads, || check_ctl_here(kripke, specs, fairness, options.traces, options.witnesses))
}

/// The set of states satisfying `spec` under fair semantics (for tests and tools).
pub fn satisfying_states(kripke: &KripkeStructure, spec: &Ctl<PropId>, fairness: &Fairness) -> FixedBitSet {
    let mut arena = Arena::new();
    let lit = arena.lower(spec);
    let mut lab = Labelling::new(kripke, arena, fairness);
    lab.compute_all();
    lab.lit_set(lit)
}

/// The results of `COMPUTE` bodies (`MIN`/`MAX` of two formulas).
pub(crate) fn check_computes(kripke: &KripkeStructure, computes: &[&Compute<Ctl<PropId>>], fairness: &Fairness) -> Vec<Distance> {
    let mut arena = Arena::new();
    let roots: Vec<(Lit, Lit)> = computes.iter().map(|c| (arena.lower(&c.from), arena.lower(&c.to))).collect();
    let mut lab = Labelling::new(kripke, arena, fairness);
    lab.compute_all();
    let fair = lab.fair();
    (computes.iter().zip(roots))
        .map(|(c, (from, to))| {
            let (from, to) = (lab.lit_set(from), lab.lit_set(to));
            match c.extremum {
                Extremum::Min => distance::min_distance(kripke, fair, &from, &to),
                Extremum::Max => distance::max_distance(kripke, fair, &from, &to),
            }
        })
        .collect()
}

/// The fair states: those with an infinite path visiting every constraint infinitely often.
pub fn fair_states(kripke: &KripkeStructure, fairness: &Fairness) -> FixedBitSet {
    Labelling::new(kripke, Arena::new(), fairness).fair().clone()
}

pub(crate) fn run_in_pool<T: Send>(threads: usize, job: impl FnOnce() -> T + Send) -> T {
    if threads == 0 {
        return job();
    }
    match crate::deadline::pool_builder().num_threads(threads).build() {
        Ok(pool) => pool.install(job),
        Err(_) => job(),
    }
}

fn check_ctl_here(kripke: &KripkeStructure, specs: &[Ctl<PropId>], fairness: &Fairness, traces: bool, witnesses: bool) -> CtlReport {
    let mut arena = Arena::new();
    let roots: Vec<Lit> = specs.iter().map(|s| arena.lower(s)).collect();
    let distinct_subformulas = arena.len();
    let mut lab = Labelling::new(kripke, arena, fairness);
    lab.compute_all();
    let fair_initial: Vec<StateId> = kripke.initial.iter().copied().filter(|&s| lab.is_fair(s)).collect();
    let explainer = Explainer::new(&lab);
    let verdicts = roots
        .par_iter()
        .zip(specs.par_iter())
        .map(|(&root, spec)| verdict(&explainer, &lab, &fair_initial, root, traces && witnesses && has_existential_top(spec), traces))
        .collect();
    CtlReport { verdicts, fair_states_empty: lab.fair().is_clear(), no_fair_initial_state: fair_initial.is_empty(), distinct_subformulas }
}

fn verdict(explainer: &Explainer, lab: &Labelling, fair_initial: &[StateId], root: Lit, witness: bool, traces: bool) -> SpecOutcome {
    let violating = fair_initial.iter().copied().find(|&s| !lab.holds_at(root, s));
    let trace = match violating {
        Some(s) if traces => Some(make_trace(explainer, s, root.negate(), TraceKind::Counterexample)),
        None if witness => fair_initial.first().map(|&s| make_trace(explainer, s, root, TraceKind::Witness)),
        _ => None,
    };
    SpecOutcome { holds: violating.is_none(), trace, distance: None }
}

fn make_trace(explainer: &Explainer, start: StateId, lit: Lit, kind: TraceKind) -> Trace {
    let (mut states, mut loop_start) = explainer.explain(start, lit);
    // A finite path that returns to a state it visited is a lasso; NuSMV marks it as one too
    // (`-- Loop starts here`), e.g. `AX FALSE` on a self-loop.
    if loop_start.is_none() && states.len() > 1 {
        let last = states[states.len() - 1];
        if let Some(i) = states[..states.len() - 1].iter().rposition(|&s| s == last) {
            states.pop();
            loop_start = Some(i);
        }
    }
    Trace::flat(kind, &states, loop_start)
}

/// Whether a spec's top operator, under its leading negations, is existential (`EX EF EG E[U]`
/// and RTCTL's `EBF EBG E[BU]`, or a negated universal one): the specs whose truth a single
/// path can show.
pub fn has_existential_top<A>(spec: &Ctl<A>) -> bool {
    let mut negated = false;
    let mut f = spec;
    while let Ctl::Not(inner) = f {
        negated = !negated;
        f = inner;
    }
    match f {
        Ctl::EX(_) | Ctl::EF(_) | Ctl::EG(_) | Ctl::EU(..) | Ctl::EBF(..) | Ctl::EBG(..) | Ctl::EBU(..) => !negated,
        Ctl::AX(_) | Ctl::AF(_) | Ctl::AG(_) | Ctl::AU(..) | Ctl::ABF(..) | Ctl::ABG(..) | Ctl::ABU(..) => negated,
        _ => false,
    }
}
