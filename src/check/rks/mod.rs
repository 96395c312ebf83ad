//! CTL checking of recursive Kripke structures with call contexts (Finis 2012; multi-exit
//! contexts after Dubslaff et al. 2024), without unfolding the call stack; and the summary
//! engine, the same contexts without the fixpoints' own assumption (exit summaries instead).
//!
//! Semantics (README, finis-2012-digest.md §1.4): calls are transparent; leaving a callee
//! through exit `k` continues at the call's continuations for `k`; when the initial component
//! exits with an empty stack the run either moves to a label-free looping termination state
//! (`Trap`) or the exit configuration loops with its own labels (`Loop`). CTL is read over
//! infinite paths through the fixpoint characterisations (`EX` needs a successor, `EG` an
//! infinite path, `EU` a finite one), so a configuration without successors (an exit whose call
//! has no continuation for it, or a location without successors) satisfies no `EX`/`EG`.
//!
//! Modules (ternary values are [`crate::check::kleene`]): [`formula`] the core formula DAG and which assumptions a
//! context keeps, [`context`] contexts and interning, [`kb`] the knowledge base, [`local`] local
//! checking and the shared fixpoint, [`global`] the chapter-3 engine, [`incremental`] the
//! chapter-4 engine, [`summary`] the summary engine (the default), [`trace`] witnesses and
//! counterexamples.

pub(crate) mod context;
pub mod formula;
pub mod global;
pub mod incremental;
pub(crate) mod kb;
pub(crate) mod lanes;
pub mod local;
pub(crate) mod summary;
pub(crate) mod trace;

use crate::check::kleene::Kleene;
use crate::check::trace::Trace;
use crate::ctl::Ctl;
use crate::explicit::rks::{ComponentId, RecursiveKripkeStructure};
use crate::ir::PropId;
use crate::ir::TerminationRule;
use formula::{FId, Formula};
use local::Core;
use rayon::prelude::*;
use summary::{ModelIndex, Summary};

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum RksEngine {
    /// Exit summaries instead of context tops ([`summary`]): one exact solution per frame.
    #[default]
    Summary,
    /// Chapter 4: local, vertical and horizontal checking from the initial context.
    Incremental,
    /// Chapter 3: collect all reachable context pairs, then label by fixpoint.
    Global,
}

#[derive(Clone, Copy, Debug, Default)]
pub struct RksOptions {
    pub engine: RksEngine,
    pub want_trace: bool,
}

/// Work counters of one check (`--stats`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RksStats {
    /// Context pairs (formula node, component, `T`/`F` context) allocated in the knowledge base.
    pub context_pairs_created: u64,
    /// Of these, pairs on which local checking ran at least once.
    pub context_pairs_checked: u64,
    /// Local checking passes (one pass labels one pair, or all completions of an `M` top).
    pub local_checks: u64,
    /// `labelByFixpoint` invocations (loops of undecided `EG`/`EU` pairs solved).
    pub fixpoint_rounds: u64,
}

impl RksStats {
    /// Adds `other`'s counts.
    pub fn add(&mut self, other: &RksStats) {
        self.context_pairs_created += other.context_pairs_created;
        self.context_pairs_checked += other.context_pairs_checked;
        self.local_checks += other.local_checks;
        self.fixpoint_rounds += other.fixpoint_rounds;
    }

    /// The counters by name, as `--stats` prints them.
    pub(crate) fn counters(&self) -> Vec<(&'static str, u64)> {
        vec![
            ("context pairs created", self.context_pairs_created),
            ("context pairs checked", self.context_pairs_checked),
            ("local checks", self.local_checks),
            ("fixpoint rounds", self.fixpoint_rounds),
        ]
    }

    /// The work counted since `before` (counters only grow).
    pub(crate) fn since(&self, before: &RksStats) -> RksStats {
        RksStats {
            context_pairs_created: self.context_pairs_created - before.context_pairs_created,
            context_pairs_checked: self.context_pairs_checked - before.context_pairs_checked,
            local_checks: self.local_checks - before.local_checks,
            fixpoint_rounds: self.fixpoint_rounds - before.fixpoint_rounds,
        }
    }
}

#[derive(Clone, Debug)]
pub struct RksResult {
    pub holds: bool,
    pub stats: RksStats,
    /// Witness (true existential top-level spec) or counterexample (false universal one), when
    /// asked for and the spec has that shape.
    pub trace: Option<Trace>,
}

/// The context of the initial configuration for node `f`: per exit of `init`, the values in the
/// termination state (`Trap`: no labels, loops) or in the looping exit configuration (`Loop`).
pub fn initial_context(rks: &RecursiveKripkeStructure, fm: &Formula, init: ComponentId, f: FId) -> Vec<Kleene> {
    let comp = &rks.components[init.index()];
    let mut out = Vec::with_capacity(comp.exits.len() * fm.width(f));
    for &x in &comp.exits {
        let has = |p: PropId| rks.termination == TerminationRule::Loop && comp.props.get(p).is_some_and(|b| b.contains(x.index()));
        for &g in &fm.deps[f] {
            out.push(Kleene::from_bool(fm.value_in_loop(g, &has)));
        }
    }
    out
}

/// Checks `formula` at the initial configuration of component `initial`.
pub fn check(rks: &RecursiveKripkeStructure, initial: ComponentId, formula: &Ctl<PropId>, opts: &RksOptions) -> RksResult {
    check_many(rks, &[(initial, formula.clone())], opts).pop().expect("one result per spec")
}

/// A model prepared for checking: what the summary engine knows about it beyond the structure
/// (the reverse index of return edges per component, the exit reachability of `true`), built
/// on first use per component and shared by every spec checked through it. [`check_many`]
/// prepares the model once per call; a caller that checks one model in many calls (the
/// scalability grid times each formula alone) keeps one `PreparedModel` so that the index is
/// built once per model, not once per call.
pub struct PreparedModel<'a> {
    rks: &'a RecursiveKripkeStructure,
    index: ModelIndex<'a>,
}

impl<'a> PreparedModel<'a> {
    pub fn new(rks: &'a RecursiveKripkeStructure) -> PreparedModel<'a> {
        PreparedModel { rks, index: ModelIndex::new(rks) }
    }

    /// [`check`] on the prepared model.
    pub fn check(&self, initial: ComponentId, formula: &Ctl<PropId>, opts: &RksOptions) -> RksResult {
        self.check_many(&[(initial, formula.clone())], opts).pop().expect("one result per spec")
    }

    /// [`check_many`] on the prepared model.
    pub fn check_many(&self, specs: &[(ComponentId, Ctl<PropId>)], opts: &RksOptions) -> Vec<RksResult> {
        check_many_in(self, specs, opts)
    }
}

/// The two engines that label a knowledge base of context pairs ([`Core`]).
#[derive(Clone, Copy, Debug)]
enum Labeller {
    Global,
    Incremental,
}

/// Checks the spec rooted at `root` of `core`'s formula DAG, reusing what `core`'s knowledge
/// base already holds; the statistics are the work done for this spec.
fn check_in(core: &mut Core, labeller: Labeller, root: FId, initial: ComponentId, formula: &Ctl<PropId>, want_trace: bool) -> RksResult {
    let (rks, fm) = (core.rks, core.fm);
    let before = core.finish_stats();
    let icc = |f: FId| initial_context(rks, fm, initial, f);
    let v = match labeller {
        Labeller::Global => global::run_root(core, root, initial, &icc),
        Labeller::Incremental => incremental::run_root(core, root, initial, &icc(root)),
    };
    assert!(v.is_known(), "RKS engine left the initial configuration undecided (engine bug)");
    let holds = v == Kleene::True;
    let trace = if want_trace { trace::explain(rks, fm, root, initial, formula, holds, &icc) } else { None };
    let stats = core.finish_stats().since(&before);
    RksResult { holds, stats, trace }
}

/// [`check_in`] for the summary engine.
fn check_summary(engine: &mut Summary, root: FId, initial: ComponentId, formula: &Ctl<PropId>, want_trace: bool) -> RksResult {
    let (rks, fm) = (engine.rks, engine.fm);
    let before = engine.stats.clone();
    let icc = |f: FId| initial_context(rks, fm, initial, f);
    let holds = engine.run_root(root, initial, &icc(root));
    let stats = engine.stats.since(&before);
    let trace =
        if want_trace { trace::explain_with(&summary::SummaryLabels(std::cell::RefCell::new(engine)), root, initial, formula, holds, &icc) } else { None };
    RksResult { holds, stats, trace }
}

/// The formula DAG of `ctls`. Without traces, atoms that label no location of `rks` are folded
/// to `false` (the traces follow the spec's own shape, so they keep it).
fn formula_dag(rks: &RecursiveKripkeStructure, ctls: &[&Ctl<PropId>], opts: &RksOptions) -> (Formula, Vec<FId>) {
    if opts.want_trace {
        return Formula::from_ctls(ctls);
    }
    let mut labelled = vec![false; rks.prop_names.len()];
    for comp in &rks.components {
        for &p in comp.props.ids() {
            if let Some(l) = labelled.get_mut(p.index()) {
                *l = true; // `Labels` keeps only non-empty sets
            }
        }
    }
    Formula::from_ctls_folded(ctls, &|p| !labelled.get(p.index()).copied().unwrap_or(false))
}

/// Specs per shared knowledge base in [`check_many`] (specs checked one at a time). Fixed, so
/// that the work split (and hence every statistic) does not depend on the number of threads.
pub(crate) const SPECS_PER_BATCH: usize = 32;

/// Checks many specs on one model. With the summary engine, specs of the same shape are solved
/// together, up to 64 per [`lanes::LaneSummary`] (see [`lanes::plan`]); the other specs (and
/// every spec with the other engines) are cut, in order, into batches of [`SPECS_PER_BATCH`]
/// that share one formula DAG (common subformulas are one node) and one knowledge base: a value
/// of a (node, component, context) key holds for every stack with that context, whatever the
/// initial component (Finis Lemma 3.3.3), so reusing it across specs is sound. All batches run
/// in parallel (rayon). Results and statistics are the same whatever the thread count; verdicts
/// and traces are those of one-at-a-time checking (a lane-batched spec with a trace is
/// re-checked alone for it; the batch's work is counted on its first spec).
pub fn check_many(rks: &RecursiveKripkeStructure, specs: &[(ComponentId, Ctl<PropId>)], opts: &RksOptions) -> Vec<RksResult> {
    check_many_in(&PreparedModel::new(rks), specs, opts)
}

/// [`check_many`] on a model whose summary index may already hold components built by earlier calls.
fn check_many_in(model: &PreparedModel, specs: &[(ComponentId, Ctl<PropId>)], opts: &RksOptions) -> Vec<RksResult> {
    let rks = model.rks;
    let prepared = match opts.engine {
        RksEngine::Summary => Prepared::Summary(&model.index),
        RksEngine::Global => Prepared::Context(Labeller::Global),
        RksEngine::Incremental => Prepared::Context(Labeller::Incremental),
    };
    let (lane_batches, single) = match prepared {
        Prepared::Summary(_) => lanes::plan::plan(specs),
        Prepared::Context(_) => (Vec::new(), (0..specs.len()).collect()),
    };
    crate::cpu_trace::mark("lanes planned");
    let tasks: Vec<Task> = (lane_batches.iter().map(Task::Lanes)).chain(single.chunks(SPECS_PER_BATCH).map(Task::Single)).collect();
    let done: Vec<Vec<(usize, RksResult)>> = tasks
        .par_iter()
        .map(|task| match task {
            Task::Single(batch) => check_batch(rks, specs, batch, &prepared, opts),
            Task::Lanes(batch) => match &prepared {
                Prepared::Summary(index) => check_lanes(rks, specs, batch, index, opts),
                Prepared::Context(_) => unreachable!("lane batches are planned for the summary engine only"),
            },
        })
        .collect();
    crate::cpu_trace::mark("batches checked");
    let mut out: Vec<Option<RksResult>> = vec![None; specs.len()];
    for (i, r) in done.into_iter().flatten() {
        out[i] = Some(r);
    }
    out.into_iter().map(|r| r.expect("every spec is in one batch")).collect()
}

/// One unit of [`check_many`]'s work.
enum Task<'p> {
    /// Specs checked one at a time on a shared knowledge base (positions, increasing).
    Single(&'p [usize]),
    /// Specs of one shape solved together.
    Lanes(&'p lanes::plan::LaneBatch),
}

/// The specs at positions `batch`, one at a time on one shared knowledge base.
fn check_batch(
    rks: &RecursiveKripkeStructure,
    specs: &[(ComponentId, Ctl<PropId>)],
    batch: &[usize],
    prepared: &Prepared,
    opts: &RksOptions,
) -> Vec<(usize, RksResult)> {
    let ctls: Vec<&Ctl<PropId>> = batch.iter().map(|&i| &specs[i].1).collect();
    let (fm, roots) = formula_dag(rks, &ctls, opts);
    let todo = batch.iter().zip(roots);
    match prepared {
        Prepared::Summary(index) => {
            let mut engine = Summary::new(rks, &fm, index);
            todo.map(|(&i, root)| (i, check_summary(&mut engine, root, specs[i].0, &specs[i].1, opts.want_trace))).collect()
        }
        Prepared::Context(labeller) => {
            let mut core = Core::new(rks, &fm);
            todo.map(|(&i, root)| (i, check_in(&mut core, *labeller, root, specs[i].0, &specs[i].1, opts.want_trace))).collect()
        }
    }
}

/// The specs of one lane batch solved together; those whose verdict has a trace are re-checked
/// one at a time for it (when traces are wanted), so that traces are the per-spec engine's.
fn check_lanes(
    rks: &RecursiveKripkeStructure,
    specs: &[(ComponentId, Ctl<PropId>)],
    batch: &lanes::plan::LaneBatch,
    index: &ModelIndex,
    opts: &RksOptions,
) -> Vec<(usize, RksResult)> {
    let (fm, roots) = Formula::from_ctls(&[&batch.shape]);
    let mut engine = lanes::LaneSummary::new(rks, &fm, index, &batch.atoms, batch.specs.len());
    let holds = engine.run_root(roots[0], batch.init);
    let mut out: Vec<(usize, RksResult)> =
        (batch.specs.iter().enumerate()).map(|(l, &i)| (i, RksResult { holds: holds >> l & 1 == 1, stats: RksStats::default(), trace: None })).collect();
    out[0].1.stats = engine.stats.clone();
    if opts.want_trace {
        let explain: Vec<usize> = (0..out.len()).filter(|&l| trace::has_trace(&specs[out[l].0].1, out[l].1.holds)).collect();
        if !explain.is_empty() {
            let ctls: Vec<&Ctl<PropId>> = explain.iter().map(|&l| &specs[out[l].0].1).collect();
            let (fm, roots) = Formula::from_ctls(&ctls);
            let mut alone = Summary::new(rks, &fm, index);
            for (&l, root) in explain.iter().zip(roots) {
                let i = out[l].0;
                let r = check_summary(&mut alone, root, specs[i].0, &specs[i].1, true);
                assert_eq!(r.holds, out[l].1.holds, "lane-batched and one-at-a-time summary engines disagree (engine bug)");
                out[l].1.stats.add(&r.stats);
                out[l].1.trace = r.trace;
            }
        }
    }
    out
}

/// What [`check_many`] sets up once per model for its engine.
enum Prepared<'p, 'a> {
    /// The summary engine's index of the model, shared by all batches.
    Summary(&'p ModelIndex<'a>),
    /// A context engine: each batch labels its own knowledge base.
    Context(Labeller),
}
