//! Successors (and initial states) by solving constraints instead of enumerating candidates.
//!
//! Built once per plan ([`Solver::build`]): every `TRANS`/`INIT`/`INVAR` conjunct that cannot
//! fail and is decided before anything that could fail is evaluated (see below) is normalised into
//! guarded alternatives ([`super::decompose`]). Per state ([`Solver::run`]):
//!
//! 1. each decomposed conjunct's alternatives whose tests hold in the current state are
//!    collected — through an index by `x = c` tests when there are many (`Index`), so a
//!    `TRANS` of thousands of `pc = sK & …` disjuncts costs a few lookups; a conjunct with an
//!    enabled alternative without bindings or residual holds whatever is chosen and drops out;
//!    one with no enabled alternative means no successor;
//! 2. for each combination of one enabled alternative per remaining conjunct, the plan's
//!    depth-first product runs with each slot's candidates narrowed by the chosen bindings (a
//!    slot ranging over its domain takes its candidates straight from an `=` or `in` binding, so
//!    a 7000-value enumeration with `next(x) = c` costs one value), the alternatives' residuals
//!    and the remaining checks checked as early as possible, and candidate sets that depend on
//!    the current state only computed once per state;
//! 3. with several combinations the vectors are collected, sorted into the order plain
//!    enumeration emits them (slot by slot, each slot's candidate order) and deduplicated, so
//!    the state numbering is exactly the plain builder's.
//!
//! Exactness: alternatives are a disjunctive form of the conjunct, so the successor set is the
//! plain one. Evaluation errors: the solver only decomposes conjuncts that come, in the plain
//! plan's evaluation order (checks of depth 0, slot 0's candidates, checks of depth 1, …),
//! before the first check or candidate computation that may fail ([`super::fallible`]). Every
//! evaluation that may fail therefore sees exactly the partial vectors the plain plan shows it
//! (those it would reject were rejected before, by a decomposed conjunct), in the same order
//! with one combination; with several, an error makes the state be enumerated again the plain
//! way, which reports the same first error as before. A state with more than [`COMBO_LIMIT`]
//! combinations is enumerated the plain way. Procedure modules (sticky `EXIT`) always are.

use super::decompose::{Alt, Bind, Decomposer, Operand, Rel, Test};
use super::fallible::Fallible;
use super::{Check, Emit, Frame, Origin, Plan, Scratch, Slot, Source, StepError, StepErrorKind, reads};
use crate::explicit::eval::compiled::Program;
use crate::explicit::eval::{Env, EvalError, Evaluator, UNSET};
use crate::lowering::program::{ExitNameId, Expr, System, Value, VarId};
use crate::source::Span;
use std::ops::ControlFlow;

/// Most combinations of alternatives tried in one state before plain enumeration is used.
pub(super) const COMBO_LIMIT: usize = 4096;
/// Successor rows of one state from which they are sorted by integer keys ([`Solver::sort_by_keys`]).
const KEYS_FROM: usize = 8;
/// Conjuncts with at least this many alternatives are indexed by their `x = c` tests.
const INDEX_FROM: usize = 8;

#[derive(Clone, Debug)]
struct Conjunct {
    /// Its alternatives: `Solver::alts[first..end]`.
    first: u32,
    end: u32,
    index: Option<Index>,
    /// When the conjunct holds whatever is chosen (a trivial alternative's one test holds):
    /// the variable tested, whether it is read from the vector being built, and the value
    /// indices (below 64) where it holds; checked before any alternative.
    skip: Option<(VarId, bool, u64)>,
    frame: Frame,
    origin: Origin,
    span: Span,
}

/// The conjuncts [`Solver::enable`] looks at, by the value of the variable that skips most of
/// them: a process model's `running -> guard` conjuncts are all skipped but the running
/// process's, so a state tests one instead of one per process. The lists keep the conjuncts'
/// order, and a conjunct left out is one whose own skip test holds for that value: the same
/// conjuncts are tested, in the same order, as when each is looked at.
#[derive(Clone, Debug)]
struct SkipIndex {
    var: VarId,
    from_vec: bool,
    /// Per value index below 64: the conjuncts not skipped by it.
    by_value: Vec<Box<[u32]>>,
}

impl SkipIndex {
    /// Value indices indexed (the skip masks are 64 bits).
    const VALUES: usize = 64;

    /// The index by the variable that skips the most conjuncts, if it skips at least
    /// [`INDEX_FROM`] of them.
    fn build(conjuncts: &[Conjunct]) -> Option<SkipIndex> {
        #[cfg(test)]
        if super::NO_SKIP_INDEX.with(std::cell::Cell::get) {
            return None;
        }
        let mut counts: rustc_hash::FxHashMap<(VarId, bool), usize> = Default::default();
        for (var, from_vec, _) in conjuncts.iter().filter_map(|c| c.skip) {
            *counts.entry((var, from_vec)).or_default() += 1;
        }
        // The most skipping variable (ties: the lowest variable, reading `cur` first).
        let ((var, from_vec), n) = counts.into_iter().max_by_key(|&(k, n)| (n, std::cmp::Reverse(k)))?;
        // (At most 16 MiB of lists.)
        if n < INDEX_FROM || conjuncts.len() * Self::VALUES > 1 << 22 {
            return None;
        }
        let by_value = (0..Self::VALUES)
            .map(|i| {
                let skipped = |c: &Conjunct| matches!(c.skip, Some((v, f, holds)) if (v, f) == (var, from_vec) && holds >> i & 1 != 0);
                (0..conjuncts.len() as u32).filter(|&c| !skipped(&conjuncts[c as usize])).collect()
            })
            .collect();
        #[cfg(test)]
        super::SKIP_INDEXES.with(|c| c.set(c.get() + 1));
        Some(SkipIndex { var, from_vec, by_value })
    }

    /// The conjuncts to look at for the variable's value in `cur` or `vec` (`None`: every
    /// conjunct, as values from 64 on skip none).
    #[inline]
    fn conjuncts<'s>(&'s self, cur: &[u32], vec: &[u32]) -> Option<&'s [u32]> {
        let view = if self.from_vec { vec } else { cur };
        view.get(self.var.index()).and_then(|&i| self.by_value.get(i as usize)).map(|c| &**c)
    }
}

/// Alternatives by the value their `x = c` tests need, variable by variable; the others in `rest`.
#[derive(Clone, Debug)]
struct Index {
    levels: Vec<(VarId, Vec<Vec<u32>>)>,
    rest: Vec<u32>,
}

#[derive(Clone, Debug)]
struct Alternative<'p> {
    conj: u32,
    tests: Vec<Test<'p>>,
    /// Per test: its condition compiled (`Holds`/`Fails` only).
    test_progs: Vec<Option<Program>>,
    /// Sorted by slot position.
    binds: Vec<Bind<'p>>,
    /// Per binding: its right-hand side compiled (`Operand::Expr` only).
    bind_progs: Vec<Option<Program>>,
    /// With the depth at which each can be checked (and compiled), sorted by depth.
    residual: Vec<(u32, &'p Expr, Option<Program>)>,
    trivial: bool,
    /// When every test is on one variable's value index (`x = c`, or a compiled condition
    /// that is a mask read where the conjunct reads): the tests in that form.
    fast: Option<Box<[FastTest]>>,
}

/// The tests of the alternatives whose tests are all `x = c` ([`Test::Is`]; the `pc = sK & …`
/// guards of generated models), flat: [`Solver::enable`] tests such an alternative by reading a
/// few contiguous pairs, without branching on each test's outcome, instead of going through its
/// [`Alternative`] (a few cache lines away) and a test loop that leaves at the first failing test
/// (a branch the processor mispredicts for about one alternative in three on NuSMV's gas-nq7).
/// The outcome is the same as [`Solver::tests_hold`]'s, which such tests cannot make fail.
#[derive(Clone, Debug, Default)]
struct QuickTests {
    /// Per alternative: where its tests are, or `None` (tested the general way).
    spans: Vec<Option<QuickSpan>>,
    /// (variable index, value index) pairs.
    tests: Vec<(u32, u32)>,
}

/// An alternative's tests `QuickTests::tests[start..end]`, and whether it is trivial.
#[derive(Clone, Copy, Debug)]
struct QuickSpan {
    start: u32,
    end: u32,
    trivial: bool,
}

impl QuickTests {
    fn of(alts: &[Alternative<'_>]) -> QuickTests {
        let mut quick = QuickTests::default();
        for alt in alts {
            let is: Option<Vec<(u32, u32)>> = (alt.tests.iter())
                .map(|t| match *t {
                    Test::Is { var, idx } => Some((var.index() as u32, idx)),
                    _ => None,
                })
                .collect();
            quick.spans.push(is.map(|is| {
                let start = quick.tests.len() as u32;
                quick.tests.extend(is);
                QuickSpan { start, end: quick.tests.len() as u32, trivial: alt.trivial }
            }));
        }
        quick
    }

    /// Whether every `x = c` test of an alternative with `span` holds in `view`.
    #[inline]
    fn hold(&self, span: QuickSpan, view: &[u32]) -> bool {
        let mut holds = true;
        for &(var, idx) in &self.tests[span.start as usize..span.end as usize] {
            holds &= view.get(var as usize) == Some(&idx);
        }
        holds
    }
}

/// A test of an alternative on one variable's value index (see [`Alternative::fast`]).
#[derive(Clone, Copy, Debug)]
enum FastTest {
    Is {
        var: VarId,
        idx: u32,
    },
    /// Holds (or, `fails`, does not hold) where bit `i` of `holds` is set, for indices `i`
    /// below `len`; other indices: decided by the full test.
    Mask {
        var: VarId,
        len: u32,
        holds: u64,
        fails: bool,
    },
}

#[derive(Clone, Debug)]
pub(super) struct Solver<'p> {
    /// The plan's checks minus the decomposed conjuncts, by depth, in the plan's order.
    pub checks: Vec<Vec<Check<'p>>>,
    conjuncts: Vec<Conjunct>,
    /// When many conjuncts are skipped by the same variable's value ([`Conjunct::skip`], the
    /// `running -> …` of each process): per value, the conjuncts it does not skip.
    skip_index: Option<SkipIndex>,
    /// `0..conjuncts.len()`: the conjuncts [`Solver::enable`] looks at without `skip_index`.
    every_conjunct: Box<[u32]>,
    alts: Vec<Alternative<'p>>,
    /// Per alternative, its tests when they are all `x = c` ([`QuickTests`]).
    quick: QuickTests,
    selectors: Vec<&'p [(Expr, Expr)]>,
    /// Per selector: its branches' conditions compiled.
    selector_progs: Vec<Vec<Option<Program>>>,
    /// Per slot position: the rank of each value index in the slot's candidate order (`None`:
    /// index order).
    rank: Vec<Option<Vec<u32>>>,
    /// Per slot position: its candidates depend on the current state only (computed once per
    /// state).
    cur_only: Vec<bool>,
    /// Per alternative: its [`Solver::direct`] path precomputed, when it is a plain copy of
    /// the current state with constants and copies bound in ([`Simple`]).
    simple: Vec<Option<SimplePath>>,
    /// When every slot's rank fits: per slot (variable, shift, rank bound) of an integer sort
    /// key whose order is [`Solver::compare`]'s (first slot in the highest bits).
    key_fields: Option<Box<[(VarId, u32, u32)]>>,
    /// The slots' variables in slot order.
    slot_vars: Box<[VarId]>,
    /// Per variable: its slot position (`u32::MAX`: none).
    pos_of_var: Box<[u32]>,
}

/// The right-hand side of a binding in a precomputed direct path.
#[derive(Clone, Copy, Debug)]
enum Src {
    /// A constant's value index (`None`: not in the domain).
    Const(Option<u32>),
    /// The current value of a variable.
    Copy(VarId),
}

/// A precomputed direct path: (variable, what it gets) per slot, in slot order.
#[derive(Clone, Debug)]
struct SimplePath {
    ops: Box<[(VarId, Simple)]>,
    /// When no slot's candidates need computing (no [`Simple::In`], [`Simple::Out`],
    /// [`Simple::Only`]): the ops other than [`Simple::Keep`], applied to a copy of the
    /// current state made once per run ([`Scratch::row`]) instead of building the vector.
    changes: Option<Box<[(VarId, Simple)]>>,
    /// Otherwise, when no slot's candidates can fail and each fits a 64-bit mask: the path on
    /// the per-state candidate masks ([`Solver::masked`]).
    masked: Option<MaskedPath>,
}

/// A precomputed direct path with candidate slots, run on a copy of the current state with the
/// candidates of each slot as a bit set computed once per state ([`Scratch::masks`]).
#[derive(Clone, Debug)]
struct MaskedPath {
    /// Positions bound `= x` to their own current value: one bit test per state for all of them
    /// ([`Scratch::keep_ok`]).
    keep: u128,
    /// The other ops other than [`Simple::Keep`], in slot order.
    ops: Box<[(VarId, Simple)]>,
}

/// One slot of a precomputed direct path, in slot order. Exactly what [`Solver::direct_path`]
/// does for a slot that keeps its value, ranges over its domain or has candidates depending on
/// the current state only, under at most one `=` (or, for the latter, `!=`) binding to a
/// constant or to a current value, with no checks or residuals anywhere.
#[derive(Clone, Copy, Debug)]
enum Simple {
    /// A kept variable: the current value.
    Keep,
    /// A kept variable bound `= c`: the current value if it is `c`, else no successor.
    KeepIf(u32),
    /// A kept variable bound `= y`: the current value if it is `y`'s, else no successor.
    KeepIfSame(VarId),
    /// A domain bound `= c` (within the domain).
    Const(u32),
    /// A domain bound `= y` (current value): `y`'s value if within the domain.
    Copy { from: VarId, len: u32 },
    /// A slot at position `pos` whose candidates depend on the current state only (computed
    /// once per state), bound `= x`: `x` if it is a candidate, else no successor.
    In { pos: u32, x: Src },
    /// Such a slot bound `!= x`: its one candidate other than `x` (several: ambiguous).
    Out { pos: u32, x: Src },
    /// Such a slot without binding: its one candidate (several: ambiguous).
    Only { pos: u32 },
    /// A binding that no value satisfies (a constant outside the domain).
    Never,
}

/// Per-state working memory of the solver (part of [`Scratch`]).
#[derive(Clone, Debug, Default)]
pub(super) struct SolveScratch {
    stamp: u32,
    sel_gen: Vec<u32>,
    sel_pick: Vec<u32>,
    enabled: Vec<u32>,
    ranges: Vec<(u32, u32)>,
    choice: Vec<u32>,
    tmp: Vec<(u32, u32, u32)>,
    /// The chosen combination: (alternative, binding) by slot position, `bind_start[pos]..`.
    binds: Vec<(u32, u32)>,
    bind_start: Vec<u32>,
    /// (alternative, residual) by depth, `res_start[depth]..`.
    residual: Vec<(u32, u32)>,
    res_start: Vec<u32>,
    rows: Vec<u32>,
    order: Vec<u32>,
    /// Sort keys of the rows ([`Solver::sort_by_keys`]).
    keys: Vec<(u128, u32)>,
    packed: packed::PackedScratch,
}

/// The chosen combination of alternatives, as the plan's depth-first search sees it.
pub(super) struct Restrict<'a, 'p> {
    pub solver: &'a Solver<'p>,
    combo: &'a SolveScratch,
    /// Stamp of the current state for cached candidate sets.
    pub stamp: u32,
}

fn env<'a>(frame: Frame, cur: &'a [u32], vec: &'a [u32], exited: Option<ExitNameId>) -> Env<'a> {
    Plan::env(frame, cur, vec, exited)
}

impl<'p> Solver<'p> {
    /// The solver of a plan, if some conjunct decomposes usefully.
    pub(super) fn build(plan: &Plan<'p>) -> Option<Box<Solver<'p>>> {
        let system = plan.system;
        if plan.procedure || plan.checks.iter().all(Vec::is_empty) {
            return None;
        }
        let fa = Fallible { system };
        let n = plan.slots.len();
        let mut pos_of_var = vec![usize::MAX; system.vars.len()];
        for (i, s) in plan.slots.iter().enumerate() {
            pos_of_var[s.var.index()] = i;
        }
        // The first point, in the plain plan's evaluation order, that may fail.
        let mut frontier = (n + 1, 0usize);
        'scan: for d in 0..=n {
            for (i, c) in plan.checks[d].iter().enumerate() {
                if !fa.boolean(c.expr) {
                    frontier = (d, i);
                    break 'scan;
                }
            }
            if d < n && slot_may_fail(&fa, &plan.slots[d]) {
                frontier = (d, usize::MAX);
                break;
            }
        }
        let mut selectors = vec![];
        let mut checks = vec![vec![]; n + 1];
        let mut conjuncts = vec![];
        let mut alts: Vec<Alternative<'p>> = vec![];
        for (d, placed) in plan.checks.iter().enumerate() {
            for (i, c) in placed.iter().enumerate() {
                let decomposed = if (d, i) < frontier {
                    let mut dec = Decomposer::new(system, plan.domains, c.frame, &pos_of_var, &mut selectors);
                    dec.pieces(c.expr).filter(|p| !matches!(p.as_slice(), [a] if !useful(a)))
                } else {
                    None
                };
                let Some(pieces) = decomposed else {
                    checks[d].push(c.clone());
                    continue;
                };
                for found in pieces {
                    let conj = conjuncts.len() as u32;
                    let first = alts.len() as u32;
                    for a in found {
                        alts.push(finish(system, a, conj, c.frame, &pos_of_var));
                    }
                    let end = alts.len() as u32;
                    let index = (end - first >= INDEX_FROM as u32).then(|| Index::build(&alts, first..end, system.vars.len()));
                    let skip = skip_test(&alts[first as usize..end as usize], system, c.frame);
                    conjuncts.push(Conjunct { first, end, index, skip, frame: c.frame, origin: c.origin, span: c.span });
                }
            }
        }
        if conjuncts.is_empty() {
            return None;
        }
        let rank = plan.slots.iter().map(|s| value_order(plan, s)).collect();
        let cur_only: Vec<bool> = plan.slots.iter().map(|s| cur_only(s, &pos_of_var)).collect();
        // Masked paths: every candidate slot's candidates can be computed at once per state.
        let maskable =
            n <= 128 && (plan.slots.iter().zip(&cur_only)).all(|(s, &c)| !c || (!slot_may_fail(&fa, s) && system.vars[s.var.index()].domain.len() <= 64));
        let simple = simple_paths(plan, &checks, &conjuncts, &alts, &cur_only, maskable);
        // A selector's conditions are read in the frame of the conjuncts that use it.
        let mut selector_frame = vec![Frame::Trans; selectors.len()];
        for a in &alts {
            for t in &a.tests {
                if let Test::Select { sel, .. } = t {
                    selector_frame[*sel as usize] = conjuncts[a.conj as usize].frame;
                }
            }
        }
        let selector_progs = (selectors.iter().zip(&selector_frame))
            .map(|(branches, &frame)| branches.iter().map(|(c, _)| Program::condition(&system.vars, c, frame)).collect())
            .collect();
        let key_fields = sort_key_fields(plan);
        let slot_vars = plan.slots.iter().map(|s| s.var).collect();
        let pos_of_var = pos_of_var.iter().map(|&p| u32::try_from(p).unwrap_or(u32::MAX)).collect();
        let skip_index = SkipIndex::build(&conjuncts);
        let every_conjunct = (0..conjuncts.len() as u32).collect();
        let quick = QuickTests::of(&alts);
        Some(Box::new(Solver {
            checks,
            conjuncts,
            skip_index,
            every_conjunct,
            alts,
            quick,
            selectors,
            selector_progs,
            rank,
            cur_only,
            simple,
            key_fields,
            slot_vars,
            pos_of_var,
        }))
    }

    /// Emits the same vectors as [`Plan::run_plain`] (in the same order), by solving.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn run(
        &self,
        plan: &Plan<'p>,
        scratch: &mut Scratch,
        ev: &mut Evaluator,
        cur: &[u32],
        base: &[u32],
        exited: Option<ExitNameId>,
        emit: &mut Emit<'_>,
    ) -> Result<(), StepError> {
        plan.reset(scratch, base);
        let mut ss = scratch.solve.take().unwrap_or_default();
        let r = match self.enable(scratch, &mut ss, ev, cur, exited) {
            Ok(true) => self.run_with(plan, scratch, &mut ss, ev, cur, base, exited, emit),
            Ok(false) => Ok(()),
            Err(e) => Err(e),
        };
        scratch.solve = Some(ss);
        r
    }

    /// Step 1 for the current state: the enabled alternatives of each conjunct still active
    /// (`ss.enabled`, by `ss.ranges`); `false` when some conjunct has none (no successor).
    fn enable(&self, scratch: &mut Scratch, ss: &mut SolveScratch, ev: &mut Evaluator, cur: &[u32], exited: Option<ExitNameId>) -> Result<bool, StepError> {
        ss.stamp = ss.stamp.wrapping_add(1);
        if ss.stamp == 0 {
            ss.sel_gen.fill(0);
            scratch.cache_gen.fill(0);
            scratch.row_gen = 0;
            scratch.mask_gen = 0;
            ss.stamp = 1;
        }
        ss.sel_gen.resize(self.selectors.len(), 0);
        ss.sel_pick.resize(self.selectors.len(), 0);
        ss.enabled.clear();
        ss.ranges.clear();
        let listed = self.skip_index.as_ref().and_then(|ix| ix.conjuncts(cur, &scratch.vec));
        for &ci in listed.unwrap_or(&self.every_conjunct) {
            let c = &self.conjuncts[ci as usize];
            if let Some((var, from_vec, holds)) = c.skip {
                let view: &[u32] = if from_vec { &scratch.vec } else { cur };
                if view.get(var.index()).is_some_and(|&i| i < 64 && holds >> i & 1 != 0) {
                    continue;
                }
            }
            let start = ss.enabled.len();
            let view: &[u32] = if c.frame == Frame::Trans { cur } else { &scratch.vec };
            let env = env(c.frame, cur, &scratch.vec, exited);
            let mut satisfied = false;
            let mut consider = |a: u32, ss: &mut SolveScratch, ev: &mut Evaluator| -> Result<(), StepError> {
                if satisfied {
                    return Ok(());
                }
                if let Some(span) = self.quick.spans[a as usize] {
                    let holds = self.quick.hold(span, view);
                    if span.trivial {
                        satisfied = holds;
                    } else {
                        // Pushed, and kept only when it holds: no branch on the outcome.
                        let n = ss.enabled.len();
                        ss.enabled.push(a);
                        ss.enabled.truncate(n + usize::from(holds));
                    }
                    return Ok(());
                }
                let alt = &self.alts[a as usize];
                if self.tests_hold(alt, ss, ev, &env, view).map_err(|e| self.error(c, e, &scratch.vec))? {
                    if alt.trivial {
                        satisfied = true;
                    } else {
                        ss.enabled.push(a);
                    }
                }
                Ok(())
            };
            match &c.index {
                Some(ix) => {
                    for (var, buckets) in &ix.levels {
                        if let Some(bucket) = view.get(var.index()).and_then(|&i| buckets.get(i as usize)) {
                            for &a in bucket {
                                consider(a, ss, ev)?;
                            }
                        }
                    }
                    for &a in &ix.rest {
                        consider(a, ss, ev)?;
                    }
                }
                None => {
                    for a in c.first..c.end {
                        consider(a, ss, ev)?;
                    }
                }
            }
            if satisfied {
                ss.enabled.truncate(start);
                continue;
            }
            if ss.enabled.len() == start {
                return Ok(false);
            }
            ss.ranges.push((start as u32, ss.enabled.len() as u32));
        }
        Ok(true)
    }

    /// [`Solver::run`] with the successors packed into `out` ([`packed`]).
    pub(super) fn run_packed(
        &self,
        plan: &Plan<'p>,
        scratch: &mut Scratch,
        ev: &mut Evaluator,
        cur: &[u32],
        base: &[u32],
        out: &mut packed::PackedOut<'_>,
    ) -> Result<(), StepError> {
        plan.reset(scratch, base);
        let mut ss = scratch.solve.take().unwrap_or_default();
        let r = match self.enable(scratch, &mut ss, ev, cur, None) {
            // As many combinations as `run_with` solves (more: it enumerates the plain way).
            Ok(true) if ss.ranges.len() == 1 && ss.enabled.len() <= COMBO_LIMIT && packed_allowed() && self.packed(&mut ss, cur, out) => {
                #[cfg(test)]
                super::PACKED_RUNS.with(|c| c.set(c.get() + 1));
                Ok(())
            }
            Ok(true) => self.run_with(plan, scratch, &mut ss, ev, cur, base, None, &mut |state| out.push_row(state)),
            Ok(false) => Ok(()),
            Err(e) => Err(e),
        };
        scratch.solve = Some(ss);
        r
    }

    /// Steps 2 and 3, after [`Solver::enable`].
    #[allow(clippy::too_many_arguments)]
    fn run_with(
        &self,
        plan: &Plan<'p>,
        scratch: &mut Scratch,
        ss: &mut SolveScratch,
        ev: &mut Evaluator,
        cur: &[u32],
        base: &[u32],
        exited: Option<ExitNameId>,
        emit: &mut Emit<'_>,
    ) -> Result<(), StepError> {
        let mut total = 1usize;
        for &(s, e) in &ss.ranges {
            total = total.saturating_mul((e - s) as usize);
        }
        if total > COMBO_LIMIT {
            return plan.run_plain(scratch, ev, cur, base, exited, emit);
        }
        ss.choice.clear();
        ss.choice.resize(ss.ranges.len(), 0);
        let n = plan.slots.len();
        let stamp = ss.stamp;
        // With one active conjunct, each enabled alternative is tried directly first.
        let single = |ss: &SolveScratch| (ss.ranges.len() == 1).then(|| ss.enabled[(ss.ranges[0].0 + ss.choice[0]) as usize]);
        if total == 1 {
            if let Some(alt) = single(ss)
                && self.direct(plan, scratch, ev, cur, exited, stamp, alt, emit)?
            {
                return Ok(());
            }
            self.setup(ss, n);
            return plan.dfs::<true>(scratch, ev, cur, exited, Some(&Restrict { solver: self, combo: ss, stamp }), emit);
        }
        let mut rows = std::mem::take(&mut ss.rows);
        rows.clear();
        loop {
            let mut push = |v: &[u32]| {
                rows.extend_from_slice(v);
                ControlFlow::Continue(())
            };
            let r = match single(ss) {
                Some(alt) => match self.direct(plan, scratch, ev, cur, exited, stamp, alt, &mut push) {
                    Ok(true) => Ok(()),
                    Ok(false) => {
                        self.setup(ss, n);
                        plan.dfs::<true>(scratch, ev, cur, exited, Some(&Restrict { solver: self, combo: ss, stamp }), &mut push)
                    }
                    Err(e) => Err(e),
                },
                None => {
                    self.setup(ss, n);
                    plan.dfs::<true>(scratch, ev, cur, exited, Some(&Restrict { solver: self, combo: ss, stamp }), &mut push)
                }
            };
            if let Err(e) = r {
                ss.rows = rows;
                // The plain order decides which error comes first.
                return Err(plan.run_plain(scratch, ev, cur, base, exited, &mut |_| ControlFlow::Continue(())).err().unwrap_or(e));
            }
            if !advance(&mut ss.choice, &ss.ranges) {
                break;
            }
        }
        let width = base.len();
        let count = rows.len().checked_div(width).unwrap_or(0);
        let mut order = std::mem::take(&mut ss.order);
        order.clear();
        order.extend(0..count as u32);
        let row = |i: u32| &rows[i as usize * width..(i as usize + 1) * width];
        if !self.sort_by_keys(&rows, width, &mut ss.keys, &mut order) {
            order.sort_unstable_by(|&a, &b| self.compare(row(a), row(b)));
        }
        let mut last: Option<u32> = None;
        for &i in &order {
            if last.is_some_and(|l| row(l) == row(i)) {
                continue;
            }
            if emit(row(i)).is_break() {
                break;
            }
            last = Some(i);
        }
        ss.order = order;
        ss.rows = rows;
        Ok(())
    }

    /// Sorts `order` (the row numbers `0..`) into [`Solver::compare`]'s order through integer
    /// keys; `false` when the keys do not apply (`order` unchanged).
    fn sort_by_keys(&self, rows: &[u32], width: usize, keys: &mut Vec<(u128, u32)>, order: &mut [u32]) -> bool {
        // A key costs one pass over the slots per row, a comparison stops at the first slot
        // that differs: keys pay off with many rows (several alternatives of several conjuncts,
        // PyBoolNet's one alternative per gene), not with a few.
        let Some(fields) = self.key_fields.as_ref().filter(|_| rows.len() >= KEYS_FROM * width) else { return false };
        keys.clear();
        for (i, row) in rows.chunks_exact(width).enumerate() {
            let mut key = 0u128;
            for (pos, &(var, shift, bound)) in fields.iter().enumerate() {
                let x = row[var.index()];
                if x >= bound {
                    return false;
                }
                let r = match &self.rank[pos] {
                    Some(r) => r[x as usize],
                    None => x,
                };
                key |= u128::from(r) << shift;
            }
            keys.push((key, i as u32));
        }
        keys.sort_unstable();
        for (o, &(_, i)) in order.iter_mut().zip(keys.iter()) {
            *o = i;
        }
        true
    }

    /// The plain plan's emission order: slot by slot, each slot's candidate order.
    fn compare(&self, a: &[u32], b: &[u32]) -> std::cmp::Ordering {
        for (pos, &var) in self.slot_vars.iter().enumerate() {
            let (x, y) = (a[var.index()], b[var.index()]);
            if x != y {
                return match &self.rank[pos] {
                    Some(r) => r.get(x as usize).cmp(&r.get(y as usize)),
                    None => x.cmp(&y),
                };
            }
        }
        std::cmp::Ordering::Equal
    }

    fn tests_hold(&self, alt: &Alternative<'p>, ss: &mut SolveScratch, ev: &mut Evaluator, env: &Env, view: &[u32]) -> Result<bool, EvalError> {
        if let Some(fast) = &alt.fast {
            let mut decided = true;
            for &t in fast.iter() {
                match t {
                    FastTest::Is { var, idx } => {
                        if view.get(var.index()) != Some(&idx) {
                            return Ok(false);
                        }
                    }
                    FastTest::Mask { var, len, holds, fails } => match view.get(var.index()) {
                        Some(&i) if i < len => {
                            if (holds >> i & 1 != 0) == fails {
                                return Ok(false);
                            }
                        }
                        _ => {
                            decided = false;
                            break;
                        }
                    },
                }
            }
            if decided {
                return Ok(true);
            }
        }
        for (t, prog) in alt.tests.iter().zip(&alt.test_progs) {
            let holds = match *t {
                Test::Is { var, idx } => view.get(var.index()) == Some(&idx),
                Test::Holds(e) => match prog.as_ref().and_then(|p| p.holds_in(env)) {
                    Some(h) => h,
                    None => ev.bool(e, env)?,
                },
                Test::Fails(e) => !match prog.as_ref().and_then(|p| p.holds_in(env)) {
                    Some(h) => h,
                    None => ev.bool(e, env)?,
                },
                Test::NoEntry { var, entries } => view.get(var.index()).is_none_or(|&i| entries.get(i as usize).is_none_or(Option::is_none)),
                Test::Select { sel, branch } => {
                    let s = sel as usize;
                    if ss.sel_gen[s] != ss.stamp {
                        let branches = self.selectors[s];
                        let mut pick = branches.len() as u32;
                        let progs = &self.selector_progs[s];
                        for (k, ((c, _), prog)) in branches.iter().zip(progs).enumerate() {
                            let holds = match prog.as_ref().and_then(|p| p.holds_in(env)) {
                                Some(h) => h,
                                None => ev.bool(c, env)?,
                            };
                            if holds {
                                pick = k as u32;
                                break;
                            }
                        }
                        ss.sel_pick[s] = pick;
                        ss.sel_gen[s] = ss.stamp;
                    }
                    ss.sel_pick[s] == branch
                }
            };
            if !holds {
                return Ok(false);
            }
        }
        Ok(true)
    }

    #[allow(clippy::too_many_arguments)]
    fn resolve(
        &self,
        plan: &Plan<'_>,
        alt: u32,
        b: &Bind<'_>,
        prog: Option<&Program>,
        vec: &[u32],
        ev: &mut Evaluator,
        cur: &[u32],
        exited: Option<ExitNameId>,
        values: &mut Vec<Value>,
        set: &mut Vec<u32>,
    ) -> Result<Resolved, StepError> {
        let alt = &self.alts[alt as usize];
        let c = &self.conjuncts[alt.conj as usize];
        match b.rhs {
            Operand::Index(i) => Ok(Resolved::One(i)),
            Operand::Copy { var, next } => {
                let from = if next || c.frame != Frame::Trans { vec } else { cur };
                match from.get(var.index()).copied() {
                    Some(i) if i != UNSET => Ok(Resolved::One(Some(i))),
                    _ => Err(self.error(c, EvalError::Unset(var), vec)),
                }
            }
            Operand::Expr(e) => {
                let env = env(c.frame, cur, vec, exited);
                if let Some(v) = prog.and_then(|p| p.value_in(&env)) {
                    // A single value: `in` it is `=` it.
                    if b.rel == Rel::In {
                        set.clear();
                        set.extend(plan.index(b.var, v));
                        return Ok(Resolved::Set);
                    }
                    return Ok(Resolved::One(plan.index(b.var, v)));
                }
                if b.rel == Rel::In {
                    ev.values(e, &env, values).map_err(|x| self.error(c, x, vec))?;
                    set.clear();
                    set.extend(values.iter().filter_map(|&v| plan.index(b.var, v)));
                    set.sort_unstable();
                    set.dedup();
                    Ok(Resolved::Set)
                } else {
                    let v = ev.value(e, &env).map_err(|x| self.error(c, x, vec))?;
                    Ok(Resolved::One(plan.index(b.var, v)))
                }
            }
        }
    }

    /// The single successor of alternative `alt` (the only active conjunct's choice) when every
    /// slot has exactly one candidate, following the depth-first search's evaluation order along
    /// that one path. `Ok(false)`: some slot has several candidates (run the search instead).
    #[allow(clippy::too_many_arguments)]
    fn direct(
        &self,
        plan: &Plan<'p>,
        scratch: &mut Scratch,
        ev: &mut Evaluator,
        cur: &[u32],
        exited: Option<ExitNameId>,
        stamp: u32,
        alt: u32,
        emit: &mut Emit<'_>,
    ) -> Result<bool, StepError> {
        if let Some(path) = &self.simple[alt as usize] {
            if let Some(changes) = &path.changes {
                if scratch.row_gen != stamp {
                    keep_row(plan, scratch, cur);
                    scratch.row_gen = stamp;
                }
                if apply_changes(changes, &mut scratch.row, cur) {
                    let _ = emit(&scratch.row);
                }
                for &(var, _) in changes.iter() {
                    scratch.row[var.index()] = cur[var.index()];
                }
                return Ok(true);
            }
            if let Some(m) = &path.masked
                && let Some(done) = self.masked(plan, m, scratch, ev, cur, exited, stamp, emit)?
            {
                return Ok(done);
            }
            let ops = &path.ops;
            let outcome = simple_path(plan, ops, scratch, ev, cur, exited, stamp);
            if let Ok(Some(true)) = outcome {
                let _ = emit(&scratch.vec);
            }
            for &(var, _) in ops.iter() {
                scratch.vec[var.index()] = UNSET;
            }
            return outcome.map(|o| o.is_some());
        }
        if !self.alts[alt as usize].residual.is_empty() {
            return Ok(false);
        }
        let mut assigned = 0;
        let outcome = self.direct_path(plan, scratch, ev, cur, exited, stamp, alt, &mut assigned);
        if let Ok(Some(true)) = outcome {
            let _ = emit(&scratch.vec);
        }
        for s in &plan.slots[..assigned] {
            scratch.vec[s.var.index()] = UNSET;
        }
        outcome.map(|o| o.is_some())
    }

    /// Runs a [`MaskedPath`]: `Some(true)` when decided (its successor, if any, emitted),
    /// `None` when a slot has several candidates (run the unmasked path). No slot's candidates
    /// can fail and the path has no checks, so computing all of them at once per state and in
    /// another order than the search changes nothing but the cost.
    #[allow(clippy::too_many_arguments)]
    fn masked(
        &self,
        plan: &Plan<'p>,
        m: &MaskedPath,
        scratch: &mut Scratch,
        ev: &mut Evaluator,
        cur: &[u32],
        exited: Option<ExitNameId>,
        stamp: u32,
        emit: &mut Emit<'_>,
    ) -> Result<Option<bool>, StepError> {
        if scratch.mask_gen != stamp {
            self.fill_masks(plan, scratch, ev, cur, exited, stamp)?;
        }
        if scratch.keep_ok & m.keep != m.keep {
            return Ok(Some(true));
        }
        let src = |x: Src| match x {
            Src::Const(c) => c,
            Src::Copy(y) => Some(cur[y.index()]),
        };
        let bit = |x: Option<u32>| x.filter(|&x| x < 64).map_or(0, |x| 1u64 << x);
        let one = |set: u64| -> Option<Option<u32>> {
            match set.count_ones() {
                0 => Some(None),
                1 => Some(Some(set.trailing_zeros())),
                _ => None,
            }
        };
        let excluded = |op: Simple| if let Simple::Out { x, .. } = op { bit(src(x)) } else { 0 };
        let mut ok = true;
        for &(var, op) in m.ops.iter() {
            let here = cur[var.index()];
            let value = match op {
                Simple::KeepIf(c) if here == c => here,
                Simple::KeepIfSame(y) if cur[y.index()] == here => here,
                Simple::Const(c) => c,
                Simple::Copy { from, len } if cur[from.index()] < len => cur[from.index()],
                Simple::In { pos, x } => match src(x) {
                    Some(x) if bit(Some(x)) & scratch.masks[pos as usize] != 0 => x,
                    _ => {
                        ok = false;
                        break;
                    }
                },
                // The slot's one candidate (other than `x` for `Out`).
                Simple::Out { pos, .. } | Simple::Only { pos } => match one(scratch.masks[pos as usize] & !excluded(op)) {
                    Some(Some(v)) => v,
                    Some(None) => {
                        ok = false;
                        break;
                    }
                    None => {
                        restore(&m.ops, &mut scratch.row, cur);
                        return Ok(None);
                    }
                },
                _ => {
                    ok = false;
                    break;
                }
            };
            scratch.row[var.index()] = value;
        }
        if ok {
            let _ = emit(&scratch.row);
        }
        restore(&m.ops, &mut scratch.row, cur);
        Ok(Some(true))
    }

    /// The per-state candidate masks of the slots whose candidates depend on the current state
    /// only, which positions keep a candidate value, and the kept row ([`Scratch::row`]).
    fn fill_masks(
        &self,
        plan: &Plan<'p>,
        scratch: &mut Scratch,
        ev: &mut Evaluator,
        cur: &[u32],
        exited: Option<ExitNameId>,
        stamp: u32,
    ) -> Result<(), StepError> {
        if scratch.row_gen != stamp {
            keep_row(plan, scratch, cur);
            scratch.row_gen = stamp;
        }
        scratch.masks.resize(plan.slots.len(), 0);
        let mut keep_ok = 0u128;
        for (pos, s) in plan.slots.iter().enumerate() {
            let mask = if self.cur_only[pos] {
                plan.ensure_cached(pos, scratch, ev, cur, exited, stamp)?;
                // Candidates are value indices within the domain (at most 64 values here).
                scratch.cache[pos].iter().fold(0u64, |m, &x| m | 1u64.checked_shl(x).unwrap_or(0))
            } else {
                u64::MAX
            };
            scratch.masks[pos] = mask;
            if cur[s.var.index()] < 64 && mask >> cur[s.var.index()] & 1 != 0 {
                keep_ok |= 1u128 << pos;
            }
        }
        scratch.keep_ok = keep_ok;
        scratch.mask_gen = stamp;
        Ok(())
    }

    /// `Some(true)`: the vector is complete; `Some(false)`: no successor; `None`: ambiguous.
    #[allow(clippy::too_many_arguments)]
    fn direct_path(
        &self,
        plan: &Plan<'p>,
        scratch: &mut Scratch,
        ev: &mut Evaluator,
        cur: &[u32],
        exited: Option<ExitNameId>,
        stamp: u32,
        alt: u32,
        assigned: &mut usize,
    ) -> Result<Option<bool>, StepError> {
        let binds = &self.alts[alt as usize].binds;
        let bind_progs = &self.alts[alt as usize].bind_progs;
        let n = plan.slots.len();
        let mut j = 0;
        for pos in 0..=n {
            for c in &self.checks[pos] {
                let env = env(c.frame, cur, &scratch.vec, exited);
                let holds = match c.prog.as_ref().and_then(|p| p.holds_in(&env)) {
                    Some(h) => Ok(h),
                    None => ev.bool(c.expr, &env),
                };
                match holds {
                    Ok(true) => {}
                    Ok(false) => return Ok(Some(false)),
                    Err(e) => return Err(StepError { kind: StepErrorKind::Eval(e), origin: c.origin, span: c.span, partial: scratch.vec.clone() }),
                }
            }
            if pos == n {
                break;
            }
            let start = j;
            while j < binds.len() && binds[j].pos as usize == pos {
                j += 1;
            }
            let here = &binds[start..j];
            let here_progs = &bind_progs[start..j];
            let slot = &plan.slots[pos];
            let var = slot.var.index();
            let eq = here.iter().position(|b| b.rel == Rel::Eq);
            let resolve_eq = |this: &Self, scratch: &mut Scratch, ev: &mut Evaluator, k: usize| {
                this.resolve(plan, alt, &here[k], here_progs[k].as_ref(), &scratch.vec, ev, cur, exited, &mut scratch.values, &mut scratch.bindset)
            };
            let value = match (&slot.source, eq) {
                (Source::Keep, _) => cur[var],
                (Source::Domain, Some(k)) => match resolve_eq(self, scratch, ev, k)? {
                    Resolved::One(Some(x)) if (x as usize) < plan.system.vars[var].domain.len() => x,
                    _ => return Ok(Some(false)),
                },
                (Source::Domain, None) => return Ok(None),
                (_, Some(k)) => {
                    plan.fill_cached(pos, scratch, ev, cur, exited, self.cur_only[pos].then_some(stamp))?;
                    match resolve_eq(self, scratch, ev, k)? {
                        Resolved::One(Some(x)) if scratch.candidates[pos].contains(&x) => x,
                        _ => return Ok(Some(false)),
                    }
                }
                (_, None) => {
                    plan.fill_cached(pos, scratch, ev, cur, exited, self.cur_only[pos].then_some(stamp))?;
                    let mut found = None;
                    for k in 0..scratch.candidates[pos].len() {
                        let x = scratch.candidates[pos][k];
                        if self.allows(plan, alt, here, here_progs, None, x, scratch, ev, cur, exited)? {
                            if found.is_some() {
                                return Ok(None);
                            }
                            found = Some(x);
                        }
                    }
                    match found {
                        Some(x) => x,
                        None => return Ok(Some(false)),
                    }
                }
            };
            // The `=` binding that gave the value need not be checked again (a kept value must).
            let used = if matches!(slot.source, Source::Keep) { None } else { eq };
            if !self.allows(plan, alt, here, here_progs, used, value, scratch, ev, cur, exited)? {
                return Ok(Some(false));
            }
            scratch.vec[var] = value;
            *assigned = pos + 1;
        }
        Ok(Some(true))
    }

    /// Whether every binding in `binds` (but the one at `skip`) allows value index `x`.
    #[allow(clippy::too_many_arguments)]
    fn allows(
        &self,
        plan: &Plan<'p>,
        alt: u32,
        binds: &[Bind<'p>],
        progs: &[Option<Program>],
        skip: Option<usize>,
        x: u32,
        scratch: &mut Scratch,
        ev: &mut Evaluator,
        cur: &[u32],
        exited: Option<ExitNameId>,
    ) -> Result<bool, StepError> {
        for (k, (b, prog)) in binds.iter().zip(progs).enumerate() {
            if skip == Some(k) {
                continue;
            }
            let ok = match (self.resolve(plan, alt, b, prog.as_ref(), &scratch.vec, ev, cur, exited, &mut scratch.values, &mut scratch.bindset)?, b.rel) {
                (Resolved::One(y), Rel::Eq | Rel::In) => y == Some(x),
                (Resolved::One(y), Rel::Ne) => y != Some(x),
                (Resolved::Set, _) => scratch.bindset.binary_search(&x).is_ok(),
            };
            if !ok {
                return Ok(false);
            }
        }
        Ok(true)
    }

    fn error(&self, c: &Conjunct, e: EvalError, vec: &[u32]) -> StepError {
        StepError { kind: StepErrorKind::Eval(e), origin: c.origin, span: c.span, partial: vec.to_vec() }
    }

    /// Lays out the bindings and residuals of the chosen combination by slot position / depth.
    fn setup(&self, ss: &mut SolveScratch, n: usize) {
        let mut tmp = std::mem::take(&mut ss.tmp);
        tmp.clear();
        for (r, &(s, _)) in ss.ranges.iter().enumerate() {
            let a = ss.enabled[(s + ss.choice[r]) as usize];
            for (i, b) in self.alts[a as usize].binds.iter().enumerate() {
                tmp.push((b.pos, a, i as u32));
            }
        }
        tmp.sort_unstable();
        fill_starts(&mut ss.bind_start, tmp.iter().map(|t| t.0), n + 1);
        ss.binds.clear();
        ss.binds.extend(tmp.iter().map(|t| (t.1, t.2)));
        tmp.clear();
        for (r, &(s, _)) in ss.ranges.iter().enumerate() {
            let a = ss.enabled[(s + ss.choice[r]) as usize];
            for (i, (d, _, _)) in self.alts[a as usize].residual.iter().enumerate() {
                tmp.push((*d, a, i as u32));
            }
        }
        tmp.sort_unstable();
        fill_starts(&mut ss.res_start, tmp.iter().map(|t| t.0), n + 2);
        ss.residual.clear();
        ss.residual.extend(tmp.iter().map(|t| (t.1, t.2)));
        ss.tmp = tmp;
    }
}

/// Makes [`Scratch::row`] the vector where every slot keeps its current value.
fn keep_row(plan: &Plan<'_>, scratch: &mut Scratch, cur: &[u32]) {
    scratch.row.clear();
    scratch.row.extend_from_slice(&scratch.vec);
    for s in &plan.slots {
        scratch.row[s.var.index()] = cur[s.var.index()];
    }
}

/// Gives the variables of `ops` their current values again in `row`.
#[inline]
fn restore(ops: &[(VarId, Simple)], row: &mut [u32], cur: &[u32]) {
    for &(var, _) in ops {
        row[var.index()] = cur[var.index()];
    }
}

/// Applies the changes of a precomputed direct path without candidate computations to `row`
/// (the current state); `false`: no successor.
#[inline]
fn apply_changes(changes: &[(VarId, Simple)], row: &mut [u32], cur: &[u32]) -> bool {
    for &(var, op) in changes {
        let here = cur[var.index()];
        match op {
            Simple::Keep => {}
            Simple::KeepIf(c) if here == c => {}
            Simple::KeepIfSame(y) if cur[y.index()] == here => {}
            Simple::Const(c) => row[var.index()] = c,
            Simple::Copy { from, len } if cur[from.index()] < len => row[var.index()] = cur[from.index()],
            _ => return false,
        }
    }
    true
}

/// Writes the successor of a precomputed direct path into the vector, as
/// [`Solver::direct_path`] would: `Some(true)`: complete; `Some(false)`: no successor; `None`:
/// ambiguous (run the search).
#[inline]
fn simple_path(
    plan: &Plan<'_>,
    ops: &[(VarId, Simple)],
    scratch: &mut Scratch,
    ev: &mut Evaluator,
    cur: &[u32],
    exited: Option<ExitNameId>,
    stamp: u32,
) -> Result<Option<bool>, StepError> {
    let src = |x: Src| match x {
        Src::Const(c) => c,
        Src::Copy(y) => Some(cur[y.index()]),
    };
    for &(var, op) in ops {
        let here = cur[var.index()];
        let value = match op {
            Simple::Keep => here,
            Simple::KeepIf(c) if here == c => here,
            Simple::KeepIfSame(y) if cur[y.index()] == here => here,
            Simple::Const(c) => c,
            Simple::Copy { from, len } if cur[from.index()] < len => cur[from.index()],
            Simple::In { pos, x } => {
                plan.ensure_cached(pos as usize, scratch, ev, cur, exited, stamp)?;
                match src(x) {
                    Some(x) if scratch.cache[pos as usize].contains(&x) => x,
                    _ => return Ok(Some(false)),
                }
            }
            Simple::Out { pos, x } => {
                plan.ensure_cached(pos as usize, scratch, ev, cur, exited, stamp)?;
                let x = src(x);
                let mut others = scratch.cache[pos as usize].iter().filter(|&&c| Some(c) != x);
                match (others.next(), others.next()) {
                    (Some(&c), None) => c,
                    (None, _) => return Ok(Some(false)),
                    _ => return Ok(None),
                }
            }
            Simple::Only { pos } => {
                plan.ensure_cached(pos as usize, scratch, ev, cur, exited, stamp)?;
                match scratch.cache[pos as usize][..] {
                    [c] => c,
                    [] => return Ok(Some(false)),
                    _ => return Ok(None),
                }
            }
            _ => return Ok(Some(false)),
        };
        scratch.vec[var.index()] = value;
    }
    Ok(Some(true))
}

/// The precomputed direct path of each alternative, where [`Solver::direct_path`] would only
/// keep values and take constants or current values from `=` bindings: every slot keeps its
/// value or ranges over its domain, no check remains and the alternative has no residual, and
/// each slot has at most one binding, an `=` to a constant or to a current value (in a
/// transition). A domain slot without a binding makes the path ambiguous: not precomputed.
fn simple_paths(
    plan: &Plan<'_>,
    checks: &[Vec<Check<'_>>],
    conjuncts: &[Conjunct],
    alts: &[Alternative<'_>],
    cur_only: &[bool],
    maskable: bool,
) -> Vec<Option<SimplePath>> {
    let plain_slots = (plan.slots.iter().enumerate()).all(|(pos, s)| matches!(s.source, Source::Domain | Source::Keep) || cur_only[pos]);
    if !plain_slots || checks.iter().any(|c| !c.is_empty()) {
        return vec![None; alts.len()];
    }
    let path = |alt: &Alternative<'_>| -> Option<SimplePath> {
        if !alt.residual.is_empty() {
            return None;
        }
        let trans = conjuncts[alt.conj as usize].frame == Frame::Trans;
        let mut ops = Vec::with_capacity(plan.slots.len());
        for (pos, slot) in plan.slots.iter().enumerate() {
            let mut here = alt.binds.iter().filter(|b| b.pos as usize == pos);
            let bind = here.next();
            if here.next().is_some() {
                return None;
            }
            let len = plan.system.vars[slot.var.index()].domain.len() as u32;
            let keep = matches!(slot.source, Source::Keep);
            if !keep && !matches!(slot.source, Source::Domain) {
                // Candidates computed once per state (`cur_only`).
                let p = pos as u32;
                let op = match bind.map(|b| (b.rel, b.rhs)) {
                    None => Simple::Only { pos: p },
                    Some((Rel::Eq, Operand::Index(c))) => Simple::In { pos: p, x: Src::Const(c) },
                    Some((Rel::Ne, Operand::Index(c))) => Simple::Out { pos: p, x: Src::Const(c) },
                    Some((Rel::Eq, Operand::Copy { var, next: false })) if trans => Simple::In { pos: p, x: Src::Copy(var) },
                    Some((Rel::Ne, Operand::Copy { var, next: false })) if trans => Simple::Out { pos: p, x: Src::Copy(var) },
                    _ => return None,
                };
                ops.push((slot.var, op));
                continue;
            }
            let op = match bind.map(|b| (b.rel, b.rhs)) {
                None if keep => Simple::Keep,
                None => return None,
                Some((Rel::Eq, Operand::Index(None))) => Simple::Never,
                Some((Rel::Eq, Operand::Index(Some(c)))) if keep => Simple::KeepIf(c),
                Some((Rel::Eq, Operand::Index(Some(c)))) => {
                    if c < len {
                        Simple::Const(c)
                    } else {
                        Simple::Never
                    }
                }
                Some((Rel::Eq, Operand::Copy { var, next: false })) if trans => {
                    if keep {
                        Simple::KeepIfSame(var)
                    } else {
                        Simple::Copy { from: var, len }
                    }
                }
                _ => return None,
            };
            ops.push((slot.var, op));
        }
        let pure = ops.iter().all(|(_, op)| !matches!(op, Simple::In { .. } | Simple::Out { .. } | Simple::Only { .. }));
        // `next(x) = x` on a slot ranging over its domain copies a value that is in the domain
        // (the current state's) onto itself: like `Keep`, nothing to do on the kept row. Frame
        // conditions (`unchanged_except_…` of constraint-style models) bind every variable so.
        let changes = pure
            .then(|| ops.iter().copied().filter(|&(var, op)| !matches!(op, Simple::Keep) && !matches!(op, Simple::Copy { from, .. } if from == var)).collect());
        let masked = (!pure && maskable).then(|| {
            let mut keep = 0u128;
            let mut rest = vec![];
            for (pos, &(var, op)) in ops.iter().enumerate() {
                match op {
                    Simple::Keep => {}
                    Simple::In { x: Src::Copy(y), .. } if y == var => keep |= 1u128 << pos,
                    // A copy of the current value onto itself (see `changes`).
                    Simple::Copy { from, .. } if from == var => {}
                    _ => rest.push((var, op)),
                }
            }
            MaskedPath { keep, ops: rest.into_boxed_slice() }
        });
        Some(SimplePath { ops: ops.into_boxed_slice(), changes, masked })
    };
    alts.iter().map(path).collect()
}

/// The fields of [`Solver::key_fields`]: slot by slot from the highest bits, each as wide as its
/// domain's value indices (their ranks are below the domain's size); `None` beyond 128 bits.
fn sort_key_fields(plan: &Plan<'_>) -> Option<Box<[(VarId, u32, u32)]>> {
    let bits: Vec<u32> = (plan.slots.iter())
        .map(|s| {
            let len = plan.system.vars[s.var.index()].domain.len().min(u32::MAX as usize) as u32;
            32 - len.saturating_sub(1).leading_zeros()
        })
        .collect();
    if bits.iter().sum::<u32>() > 128 {
        return None;
    }
    let mut shift = 0u32;
    let mut fields = Vec::with_capacity(bits.len());
    for (s, b) in plan.slots.iter().zip(bits).rev() {
        let len = plan.system.vars[s.var.index()].domain.len().min(u32::MAX as usize) as u32;
        fields.push((s.var, shift, len));
        shift += b;
    }
    fields.reverse();
    Some(fields.into_boxed_slice())
}

/// `starts[k]..starts[k + 1]` = the entries with key `k` (keys sorted, all below `len - 1`).
fn fill_starts(starts: &mut Vec<u32>, keys: impl Iterator<Item = u32>, len: usize) {
    starts.clear();
    starts.resize(len + 1, 0);
    for k in keys {
        starts[k as usize + 1] += 1;
    }
    for k in 1..starts.len() {
        starts[k] += starts[k - 1];
    }
}

/// Next combination (odometer); `false` after the last.
fn advance(choice: &mut [u32], ranges: &[(u32, u32)]) -> bool {
    for (c, &(s, e)) in choice.iter_mut().zip(ranges) {
        *c += 1;
        if *c < e - s {
            return true;
        }
        *c = 0;
    }
    false
}

/// The skip test of a conjunct (see [`Conjunct::skip`]): the first trivial alternative with one
/// test on one variable's value.
fn skip_test(alts: &[Alternative<'_>], system: &System, frame: Frame) -> Option<(VarId, bool, u64)> {
    let a = alts.iter().find(|a| a.trivial && a.tests.len() == 1)?;
    match (a.tests[0], &a.test_progs[0]) {
        (Test::Is { var, idx }, _) => {
            let len = system.vars.get(var.index())?.domain.len();
            (idx < 64 && len <= 64).then_some((var, frame != Frame::Trans, 1u64 << idx))
        }
        (Test::Holds(_), Some(p)) => p.one_var_mask().map(|(var, vec, _, holds)| (var, vec, holds)),
        (Test::Fails(_), Some(p)) => p.one_var_mask().filter(|m| m.2 > 0).map(|(var, vec, len, holds)| (var, vec, !holds & (u64::MAX >> (64 - len)))),
        _ => None,
    }
}

/// A decomposition worth using: anything but the conjunct as its own single residual.
fn useful(alts: &[Alt<'_>]) -> bool {
    !matches!(alts, [a] if a.tests.is_empty() && a.binds.is_empty())
}

/// Whether [`Solver::run_packed`] may use [`packed`] (tests turn it off).
#[inline]
fn packed_allowed() -> bool {
    #[cfg(test)]
    if super::NO_PACKED.with(std::cell::Cell::get) {
        return false;
    }
    true
}

/// Whether slot `s`'s candidates depend on the current state only (not on other slots'
/// values in the vector being built).
/// `pos_of_var`: each variable's slot position (`usize::MAX`: none).
pub(super) fn cur_only(s: &Slot<'_>, pos_of_var: &[usize]) -> bool {
    match &s.source {
        Source::Expr(e) => no_slot_reads(e, s.frame, pos_of_var),
        // A table's evaluated entries may read `next()` of other slots (`st = sending &
        // !next(drop) : done`): then its candidates change with them and must not be
        // reused for the whole state.
        Source::MixedTable(t) => {
            s.frame == Frame::Trans
                && t.entries.iter().flatten().chain(t.fallback.as_ref()).all(|x| match x {
                    super::Entry::Expr(e) => no_slot_reads(e, s.frame, pos_of_var),
                    super::Entry::Consts(_) => true,
                })
        }
        _ => false,
    }
}

fn no_slot_reads(e: &Expr, frame: Frame, pos_of_var: &[usize]) -> bool {
    let mut vars = vec![];
    reads(e, frame, &mut vars);
    vars.iter().all(|&v| pos_of_var.get(v.index()).is_none_or(|&p| p == usize::MAX))
}

fn finish<'p>(system: &System, a: Alt<'p>, conj: u32, frame: Frame, pos_of_var: &[usize]) -> Alternative<'p> {
    let trivial = a.is_trivial();
    let mut binds = a.binds;
    binds.sort_by_key(|b| b.pos);
    let compile = |e: &Expr| Program::compile(&system.vars, e, frame);
    let condition = |e: &Expr| Program::condition(&system.vars, e, frame);
    let test_progs = (a.tests.iter())
        .map(|t| match t {
            Test::Holds(e) | Test::Fails(e) => condition(e),
            _ => None,
        })
        .collect();
    let bind_progs = (binds.iter())
        .map(|b| match b.rhs {
            Operand::Expr(e) => compile(e),
            _ => None,
        })
        .collect();
    let mut residual: Vec<(u32, &'p Expr, Option<Program>)> = (a.residual.into_iter())
        .map(|e| {
            let mut vars = vec![];
            reads(e, frame, &mut vars);
            let depth = vars.iter().filter_map(|&v| pos_of_var.get(v.index()).copied().filter(|&p| p != usize::MAX)).map(|p| p + 1).max().unwrap_or(0);
            (depth as u32, e, condition(e))
        })
        .collect();
    residual.sort_by_key(|r| r.0);
    // Tests read the current state in a transition, the vector being built otherwise.
    let in_vec = frame != Frame::Trans;
    let fast = (a.tests.iter().zip(&test_progs))
        .map(|(t, p): (&Test<'_>, &Option<Program>)| {
            let mask = |fails: bool| {
                let (var, vec, len, holds) = p.as_ref()?.one_var_mask()?;
                (vec == in_vec).then_some(FastTest::Mask { var, len, holds, fails })
            };
            match *t {
                Test::Is { var, idx } => Some(FastTest::Is { var, idx }),
                Test::Holds(_) => mask(false),
                Test::Fails(_) => mask(true),
                _ => None,
            }
        })
        .collect();
    Alternative { conj, tests: a.tests, test_progs, binds, bind_progs, residual, trivial, fast }
}

/// Whether computing a slot's candidates may fail (out of range, non-exhaustive `case`, …).
fn slot_may_fail(fa: &Fallible, s: &Slot) -> bool {
    let domain_len = |v: VarId| fa.system.vars.get(v.index()).map_or(0, |x| x.domain.len());
    match &s.source {
        Source::Domain | Source::Keep => false,
        Source::Const(c) => c.is_err(),
        Source::Table(t) => {
            let exhaustive = t.fallback.is_some() || (t.entries.len() >= domain_len(t.var) && t.entries.iter().all(Option::is_some));
            !exhaustive || t.entries.iter().flatten().chain(t.fallback.as_ref()).any(Result::is_err)
        }
        Source::MixedTable(t) => {
            let exhaustive = t.fallback.is_some() || (t.entries.len() >= domain_len(t.var) && t.entries.iter().all(Option::is_some));
            let bad = |e: &super::Entry| match e {
                super::Entry::Consts(c) => c.is_err(),
                super::Entry::Expr(e) => !fa.within(e, s.var),
            };
            !exhaustive || t.entries.iter().flatten().chain(t.fallback.as_ref()).any(bad)
        }
        Source::Expr(e) => !fa.within(e, s.var),
    }
}

/// The rank of each value index in a slot's candidate order: evaluated candidates come in
/// value order, domains in index order.
fn value_order(plan: &Plan<'_>, s: &Slot<'_>) -> Option<Vec<u32>> {
    match s.source {
        Source::Domain | Source::Keep => None,
        _ => {
            let domain = &plan.system.vars[s.var.index()].domain;
            let mut by_value: Vec<(Value, u32)> = (0..domain.len()).map(|i| (domain.value(i), i as u32)).collect();
            by_value.sort_unstable();
            let mut rank = vec![0u32; domain.len()];
            for (r, (_, i)) in by_value.into_iter().enumerate() {
                rank[i as usize] = r as u32;
            }
            Some(rank)
        }
    }
}

impl Index {
    /// Greedily: the variable most alternatives test first, then among the rest, and so on.
    fn build(alts: &[Alternative<'_>], range: std::ops::Range<u32>, num_vars: usize) -> Index {
        let mut rest: Vec<u32> = range.collect();
        let mut levels = vec![];
        loop {
            let mut count = vec![0u32; num_vars];
            for &a in &rest {
                let mut seen: Vec<VarId> = vec![];
                for t in &alts[a as usize].tests {
                    if let Test::Is { var, .. } = t
                        && !seen.contains(var)
                    {
                        seen.push(*var);
                        count[var.index()] += 1;
                    }
                }
            }
            let Some((best, &n)) = count.iter().enumerate().max_by_key(|(_, n)| **n) else { break };
            if n < 2 {
                break;
            }
            let mut buckets: Vec<Vec<u32>> = vec![];
            rest.retain(|&a| {
                let idx = alts[a as usize].tests.iter().find_map(|t| match t {
                    Test::Is { var, idx } if var.index() == best => Some(*idx),
                    _ => None,
                });
                match idx {
                    Some(i) => {
                        if buckets.len() <= i as usize {
                            buckets.resize(i as usize + 1, vec![]);
                        }
                        buckets[i as usize].push(a);
                        false
                    }
                    None => true,
                }
            });
            levels.push((VarId::new(best), buckets));
        }
        Index { levels, rest }
    }
}

/// A binding's right-hand side, resolved in the current vectors.
enum Resolved {
    /// One value index of the bound variable (`None`: not in its domain).
    One(Option<u32>),
    /// Value indices in `set`, sorted.
    Set,
}

impl Restrict<'_, '_> {
    fn binds_at(&self, pos: usize) -> &[(u32, u32)] {
        let s = &self.combo.bind_start;
        match (s.get(pos), s.get(pos + 1)) {
            (Some(&a), Some(&b)) => &self.combo.binds[a as usize..b as usize],
            _ => &[],
        }
    }

    /// Whether a remaining check or a chosen alternative's residual becomes decidable at
    /// `depth` ([`Plan::checks_hold`] has something to test there).
    #[inline]
    pub(super) fn waits_at(&self, depth: usize) -> bool {
        let s = &self.combo.res_start;
        self.solver.checks.get(depth).is_some_and(|c| !c.is_empty()) || matches!((s.get(depth), s.get(depth + 1)), (Some(a), Some(b)) if a != b)
    }

    pub(super) fn has_binds(&self, pos: usize) -> bool {
        !self.binds_at(pos).is_empty()
    }

    pub(super) fn cur_only(&self, pos: usize) -> bool {
        self.solver.cur_only[pos]
    }

    /// The residuals of the chosen alternatives that become decidable at `depth`.
    pub(super) fn residual_holds(&self, depth: usize, vec: &[u32], ev: &mut Evaluator, cur: &[u32], exited: Option<ExitNameId>) -> Result<bool, StepError> {
        let s = &self.combo.res_start;
        let (Some(&a), Some(&b)) = (s.get(depth), s.get(depth + 1)) else { return Ok(true) };
        for &(alt, k) in &self.combo.residual[a as usize..b as usize] {
            let alt = &self.solver.alts[alt as usize];
            let c = &self.solver.conjuncts[alt.conj as usize];
            let (_, e, prog) = &alt.residual[k as usize];
            let env = env(c.frame, cur, vec, exited);
            let holds = match prog.as_ref().and_then(|p| p.holds_in(&env)) {
                Some(h) => Ok(h),
                None => ev.bool(e, &env),
            };
            match holds {
                Ok(true) => {}
                Ok(false) => return Ok(false),
                Err(e) => return Err(self.solver.error(c, e, vec)),
            }
        }
        Ok(true)
    }

    /// Candidates of a slot ranging over its domain, straight from its bindings (then filtered
    /// by all of them), in index order.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn candidates_from_bindings(
        &self,
        plan: &Plan<'_>,
        pos: usize,
        domain_len: u32,
        out: &mut Vec<u32>,
        vec: &[u32],
        ev: &mut Evaluator,
        cur: &[u32],
        exited: Option<ExitNameId>,
        values: &mut Vec<Value>,
        set: &mut Vec<u32>,
    ) -> Result<(), StepError> {
        let binds = self.binds_at(pos);
        let pick = |rel: Rel| binds.iter().find(|&&(a, i)| self.solver.alts[a as usize].binds[i as usize].rel == rel);
        if let Some(&(a, i)) = pick(Rel::Eq).or_else(|| pick(Rel::In)) {
            let alt = &self.solver.alts[a as usize];
            let b = &alt.binds[i as usize];
            match self.solver.resolve(plan, a, b, alt.bind_progs[i as usize].as_ref(), vec, ev, cur, exited, values, set)? {
                Resolved::One(Some(x)) if x < domain_len => out.push(x),
                Resolved::One(_) => {}
                Resolved::Set => out.extend(set.iter().copied().filter(|&x| x < domain_len)),
            }
        } else {
            out.extend(0..domain_len);
        }
        self.filter(plan, pos, out, vec, ev, cur, exited, values, set)
    }

    /// Keeps the candidates every binding of slot `pos` allows (order unchanged).
    #[allow(clippy::too_many_arguments)]
    pub(super) fn filter(
        &self,
        plan: &Plan<'_>,
        pos: usize,
        out: &mut Vec<u32>,
        vec: &[u32],
        ev: &mut Evaluator,
        cur: &[u32],
        exited: Option<ExitNameId>,
        values: &mut Vec<Value>,
        set: &mut Vec<u32>,
    ) -> Result<(), StepError> {
        for &(a, i) in self.binds_at(pos) {
            if out.is_empty() {
                break;
            }
            let alt = &self.solver.alts[a as usize];
            let b = &alt.binds[i as usize];
            match (self.solver.resolve(plan, a, b, alt.bind_progs[i as usize].as_ref(), vec, ev, cur, exited, values, set)?, b.rel) {
                (Resolved::One(Some(x)), Rel::Eq) => out.retain(|&y| y == x),
                (Resolved::One(None), Rel::Eq) => out.clear(),
                (Resolved::One(Some(x)), Rel::Ne) => out.retain(|&y| y != x),
                (Resolved::One(None), Rel::Ne) => {}
                (Resolved::One(x), Rel::In) => out.retain(|&y| Some(y) == x),
                (Resolved::Set, _) => out.retain(|y| set.binary_search(y).is_ok()),
            }
        }
        Ok(())
    }
}

pub(crate) mod packed;
#[cfg(test)]
mod tests;
