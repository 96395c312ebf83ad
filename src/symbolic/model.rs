//! The symbolic model of a flat system: initial states, the state constraint, the partitioned
//! transition relation, the reachable states with their breadth-first rings, deadlocks, and the
//! BDD of every spec atom and fairness constraint.
//!
//! Semantics follow the explicit builder (`explicit::build_flat`, `explicit::step`): a state gives
//! every state variable a value of its domain; `init(x)`/`next(x)` assignments are (possibly
//! nondeterministic) choices, `x := e` holds in every state, frozen variables keep their value,
//! unassigned variables take any value of their domain, `INIT`, `TRANS` and `INVAR` (the latter on
//! both sides of a transition) restrict; input variables are chosen afresh on every transition
//! and are not part of states (atoms reading them see the first value of their domain, as in
//! explicit states). Evaluation errors (a `case` with no true branch, a value outside the domain,
//! division by zero) are errors only when a reachable state (or transition) meets them, as in the
//! explicit builder, reported with the same codes, a state and a path to it.
//!
//! Reachable states are computed by frontier-based forward images; the rings (states first
//! reached at distance i) give the diameter and shortest paths for traces. When every spec is an
//! `INVARSPEC`, the reachability stops at the first ring where every invariant has met a bad
//! state ([`super::early_stop`]), if no evaluation error or deadlock can hide past it; the model
//! then holds the explored states only ([`SymbolicModel::stopped_early`]).

use super::cone::{Dependencies, mark_reads, reads};
use super::early_stop::{InvariantWatch, propositional};
use super::encoding::{Copy, Encoding};
use super::expr::SymEval;
use super::rings::{ModelSpace, walk_back};
use super::trans::{Part, TransRel};
use super::{Bdd, SymResult, SymbolicError};
use crate::ctl::Ctl;
use crate::diagnostics::{Diagnostic, Diagnostics};
use crate::explicit::build_diag as diag;
use crate::ir::PropId;

use crate::explicit::names::Names;
use crate::ir::{SpecKind, VarKind};
use crate::lowering::program::{Expr, LoweredProgram, SpecAtom, System, SystemId, Value, VarId};
use crate::ltl::Ltl;
use crate::source::Span;
use oxidd::{BooleanFunction, BooleanFunctionQuant};

/// One spec of the flat system for the BDD engine.
#[derive(Clone, Debug)]
pub struct SymSpec {
    /// Index into `LoweredProgram::specs`.
    pub spec: usize,
    pub invariant: bool,
    /// Atoms are indices into [`SymbolicModel::atoms`].
    pub formula: Ctl<PropId>,
    /// `LTLSPEC`: the LTL formula over the same atoms (`formula` is then `Ctl::True`, unused).
    pub ltl: Option<Ltl<PropId>>,
    /// `COMPUTE`: its two formulas over the same atoms (`formula` is then `Ctl::True`, unused).
    pub compute: Option<crate::ir::Compute<Ctl<PropId>>>,
}

/// Where an evaluation error can happen: initial states, transitions or states.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Stage {
    Init,
    Trans,
    State,
}

struct ErrorRegion {
    code: &'static str,
    message: String,
    span: Span,
    stage: Stage,
    region: Bdd,
}

/// The flat model as BDDs.
pub struct SymbolicModel {
    pub system: SystemId,
    pub(crate) enc: Encoding,
    pub(crate) init: Bdd,
    pub(crate) trans: TransRel,
    /// Reachable states, and the rings: `rings[i]` = states first reached in `i` steps (the
    /// states explored when [`SymbolicModel::stopped_early`]).
    pub(crate) reach: Bdd,
    pub(crate) rings: Vec<Bdd>,
    /// The reachability stopped at the first ring where every invariant (every spec) met a bad
    /// state ([`super::early_stop`]): `reach` and `rings` are the states explored up to it.
    pub(crate) stopped_early: bool,
    /// Spec atoms and fairness constraints over current bits, by [`PropId`].
    pub(crate) atoms: Vec<Bdd>,
    /// The variables each atom reads, by [`PropId`] (seeds of cones of influence).
    pub(crate) atom_reads: Vec<Vec<bool>>,
    /// The dependency graph for cones of influence (`symbolic::cone`).
    pub(crate) deps: Dependencies,
    /// The transition parts without the input domains, for the transition relations of cones
    /// (`symbolic::reduced`).
    pub(crate) parts: Vec<Part>,
    pub specs: Vec<SymSpec>,
    pub fairness: Vec<PropId>,
    pub deadlocks: f64,
    /// Every state within the domains has a successor by the relation's shape
    /// ([`total_by_parts`]): the deadlock search was not run.
    pub(crate) total: bool,
    pub warnings: Vec<Diagnostic>,
    /// Peak node count seen at the end of the phases (for `--stats`).
    pub peak_nodes: usize,
}

/// Apply-cache entries a model's BDD manager starts with (1.3 MB). oxidd fills the whole cache
/// when the manager is created and cannot grow it, so the model-sized cache
/// (`encoding::cache_entries`: 2^22 entries, 80 MB, from 56 BDD variables on) cost more than
/// the checking of NuSMV's small examples; 2^18 entries (5 MB) still did: the page faults of
/// filling it, and lookups spread over more memory than the processor's caches hold (whole
/// process CPU, `--engine bdd`, medians of 25 interleaved runs, 2^18 → 2^16 entries: gigamax
/// 46 → 34 ms, abp4 51 → 37 ms). A build starts again with the model-sized cache when its
/// manager passes [`SMALL_CACHE_NODES`] nodes ([`Encoding::check_growth`], between the BDD
/// operations of the expressions, the clustering and the images: at most about that many
/// nodes' work lost), or when the initial states are all states (the reachability then says
/// nothing about the BDDs the checking will build: pyboolnet's asynchronous calzone_cellfate,
/// 56 BDD variables, `INIT TRUE`, creates 5 million nodes in its preimages and needs the large
/// cache: 23.6 s with 2^18 entries, 6.6 s with 2^22). What stays a risk: a model whose build
/// stays small and whose checking (fair `EG`) builds much larger BDDs checks with the small
/// cache.
const SMALL_CACHE: usize = 1 << 16;

/// Whether `system` has a word variable of [`WORD_CACHE_WIDTH`] bits or more, whose operators
/// are circuits over its bits ([`super::word_bits`]): its BDDs then start with the model-sized
/// apply cache. (Four 8-bit words and `a + b != c + d`: 118 K nodes at the peak, 2.5 s of CPU
/// with the small cache, 0.56 s with the model's.)
fn has_wide_arithmetic(system: &System) -> bool {
    system.vars.iter().any(|v| matches!(v.domain, crate::ir::Domain::Word { width, .. } if width >= WORD_CACHE_WIDTH))
}

/// See [`has_wide_arithmetic`].
const WORD_CACHE_WIDTH: u8 = 8;

/// Nodes in the manager past which a build started with [`SMALL_CACHE`] starts again with the
/// model-sized cache.
const SMALL_CACHE_NODES: usize = 1 << 17;

/// What [`SymbolicModel::build_in`] ends with (or [`SymbolicError::outgrown`]: start again
/// with the model-sized apply cache).
enum Built {
    /// The model, or `None` when the probe gave up.
    Model(Option<Box<SymbolicModel>>),
    /// An error met by a reachable state or transition.
    Error(Diagnostic),
}

/// Node-table capacity for a memory budget: about a third of it, at ~32 bytes per node with the
/// unique table; 2^26 nodes without a budget.
fn node_capacity(max_memory: Option<u64>) -> usize {
    match max_memory {
        Some(bytes) => ((bytes / 3 / 32) as usize).clamp(1 << 16, 1 << 30),
        None => 1 << 26,
    }
}

struct Builder<'p> {
    system: &'p System,
    names: Names<'p>,
    errors: Vec<ErrorRegion>,
}

impl<'p> Builder<'p> {
    /// Files the evaluator's error regions under `span`; returns their union.
    fn collect(&mut self, ev: &mut SymEval, span: Span, stage: Stage) -> SymResult<Bdd> {
        let mut all = ev.encoding().f();
        for (message, region) in ev.take_errors() {
            all = all.or(&region)?;
            let code = if message.starts_with("case conditions") { diag::E_CASE } else { diag::E_EVAL };
            self.errors.push(ErrorRegion { code, message, span, stage, region });
        }
        Ok(all)
    }

    /// `x ∈ e` on the given copy of `x`, from the cases of `e`; values outside the domain are an
    /// error region. Error regions of the part are added to it (so that transitions through
    /// them exist and can be found); the caller collects them first.
    #[allow(clippy::too_many_arguments)]
    fn assignment(&mut self, enc: &Encoding, ev: &mut SymEval, v: VarId, e: &Expr, copy: Copy, span: Span, stage: Stage) -> SymResult<Bdd> {
        let domain = &self.system.vars[v.index()].domain;
        let value = ev.eval(e)?;
        // A word of the variable's type: equal bit by bit, never outside.
        if let Some(equal) = ev.word_equals(v, copy, &value)? {
            let failing = self.collect(ev, span, stage)?;
            return Ok(equal.or(&failing)?);
        }
        let mut r = enc.f();
        let mut outside = enc.f();
        for (value, g) in ev.as_cases(value)? {
            match domain.index_of(value).filter(|&i| i < enc.domain_len(v)) {
                Some(i) => r = r.or(&g.and(&enc.value_is(v, copy, i)?)?)?,
                None => outside = outside.or(&g)?,
            }
        }
        let failing = self.collect(ev, span, stage)?;
        if outside.satisfiable() {
            let name = &self.system.vars[v.index()].name;
            self.errors.push(ErrorRegion {
                code: diag::E_RANGE,
                message: format!("the value assigned to `{name}` is outside its range"),
                span,
                stage,
                region: outside.clone(),
            });
        }
        Ok(r.or(&outside)?.or(&failing)?)
    }

    fn error_diagnostic(&self, e: &ErrorRegion, state: &[u32], path: &[Vec<u32>]) -> Diagnostic {
        let mut d = Diagnostic::error(e.code, e.message.clone(), e.span)
            .with_label_message(e.message.clone())
            .with_note(format!("in state: {}", self.names.state(self.system, state)));
        if path.len() > 1 {
            let path: Vec<String> = path.iter().map(|s| self.names.state(self.system, s)).collect();
            d = d.with_note(diag::path_note(&path));
        }
        d
    }
}

/// A shortest path from an initial state to `state`, backwards through the rings.
fn path_to(enc: &Encoding, trans: &TransRel, rings: &[Bdd], state: &[u32]) -> SymResult<Vec<Vec<u32>>> {
    let target = enc.state_cube(state)?;
    let mut ring = None;
    for (i, r) in rings.iter().enumerate() {
        if r.and(&target)?.satisfiable() {
            ring = Some(i);
            break;
        }
    }
    let Some(ring) = ring else { return Ok(vec![state.to_vec()]) };
    walk_back(&ModelSpace { enc, trans }, &rings[..ring], state.to_vec())
}

/// A shortest path from an initial state to a state.
type PathFn<'a> = dyn Fn(&[u32]) -> SymResult<Vec<Vec<u32>>> + 'a;

/// Distinct atoms (spec atoms and fairness constraints) and their BDDs.
struct Atoms {
    exprs: Vec<Expr>,
    bdds: Vec<Bdd>,
    reads: Vec<Vec<bool>>,
    names: Vec<String>,
}

impl Atoms {
    /// The id of `expr`'s atom, computing its BDD (input variables at their first value) if new;
    /// an evaluation error in a reachable state is a diagnostic (E0506).
    #[allow(clippy::too_many_arguments)]
    fn intern(
        &mut self,
        expr: &Expr,
        span: Span,
        ev: &mut SymEval,
        b: &mut Builder,
        zero_inputs: &Bdd,
        reach: &Bdd,
        path_to: &PathFn,
    ) -> SymResult<Result<PropId, Diagnostic>> {
        if let Some(i) = self.exprs.iter().position(|x| x == expr) {
            return Ok(Ok(PropId::new(i)));
        }
        let bdd = ev.bool(expr)?.restrict(zero_inputs)?;
        let name = b.names.expr(b.system, expr);
        for (message, region) in ev.take_errors() {
            let hit = reach.and(&region.restrict(zero_inputs)?)?;
            if let Some(state) = ev_enc_pick(ev, &hit)? {
                let path = path_to(&state)?;
                let e = ErrorRegion { code: diag::E_ATOM, message: format!("{message} while evaluating `{name}`"), span, stage: Stage::State, region };
                return Ok(Err(b.error_diagnostic(&e, &state, &path)));
            }
        }
        let mut reads = vec![false; b.system.vars.len()];
        mark_reads(expr, &mut reads);
        self.reads.push(reads);
        self.exprs.push(expr.clone());
        self.bdds.push(bdd);
        self.names.push(name);
        Ok(Ok(PropId::new(self.bdds.len() - 1)))
    }
}

fn ev_enc_pick(ev: &SymEval, set: &Bdd) -> SymResult<Option<Vec<u32>>> {
    ev.encoding().pick_state(set)
}

/// The expression of a spec atom (a label names a DEFINE).
fn atom_expr(system: &System, a: &SpecAtom) -> Expr {
    match a {
        SpecAtom::State(e) => e.clone(),
        SpecAtom::Label(l) => {
            (system.define_labels.iter().position(|d| *d == Some(*l))).map_or(Expr::Const(Value::Bool(false)), |d| system.defines[d].expr.clone())
        }
    }
}

/// Whether every state within the domains has a successor whatever the inputs, by the shape of
/// the transition parts alone, so that no deadlock search is needed: every part gives the next
/// value of one variable (`owners`: a `next()` or `:=` assignment, a frozen or a free variable's
/// domain; a `TRANS` or `INVAR` constraint, `None`, makes the answer `false`), the variables'
/// parts read each other's next values without a cycle, and each variable's parts together
/// leave it a next value in its domain for every in-domain value of everything they read.
/// Taking the variables in an order of those reads then builds a successor of any state. An
/// evaluation error is part of its part (and reported when a reachable state meets it), so it
/// does not make a part partial. Cost: one existential quantification per variable.
fn total_by_parts(enc: &Encoding, system: &System, parts: &[Part], owners: &[Option<usize>]) -> SymResult<bool> {
    let n = system.vars.len();
    let mut own: Vec<Option<Bdd>> = vec![None; n];
    let mut reads_next = vec![vec![]; n];
    for (part, owner) in parts.iter().zip(owners) {
        let Some(v) = *owner else { return Ok(false) };
        own[v] = Some(match own[v].take() {
            Some(b) => b.and(&part.bdd)?,
            None => part.bdd.clone(),
        });
        reads_next[v].extend((0..n).filter(|&w| w != v && part.next[w]));
    }
    // No cycle among the reads of next values (Kahn's algorithm on "v reads next(w)").
    let mut waiting: Vec<usize> = reads_next.iter().map(Vec::len).collect();
    let mut readers = vec![vec![]; n];
    for (v, ws) in reads_next.iter().enumerate() {
        for &w in ws {
            readers[w].push(v);
        }
    }
    let mut ready: Vec<usize> = (0..n).filter(|&v| waiting[v] == 0).collect();
    let mut done = 0;
    while let Some(w) = ready.pop() {
        done += 1;
        for &v in &readers[w] {
            waiting[v] -= 1;
            if waiting[v] == 0 {
                ready.push(v);
            }
        }
    }
    if done < n {
        return Ok(false);
    }
    // Every value within the domains: current and next copies of the state variables, inputs.
    let mut domains = enc.t();
    for v in (0..n).map(VarId::new) {
        domains = domains.and(&enc.in_domain(v, Copy::Cur)?)?;
        if !enc.is_input(v) {
            domains = domains.and(&enc.in_domain(v, Copy::Next)?)?;
        }
    }
    if !domains.satisfiable() {
        return Ok(false);
    }
    for (v, part) in own.iter().enumerate() {
        let Some(part) = part else { continue };
        let bits = enc.cube_of(std::iter::once(VarId::new(v)), Copy::Next)?;
        let needed = domains.exists(&bits)?;
        if needed.and(&part.exists(&bits)?.not()?)?.satisfiable() {
            return Ok(false);
        }
    }
    Ok(true)
}

/// The [`InvariantWatch`] that may stop the reachability early, when nothing else depends on
/// the states past the stop: every spec of the system is an `INVARSPEC` (at least one), each a
/// propositional formula, and no evaluation error (of the relation, the state constraint, the
/// specs' atoms or the fairness constraints) nor deadlock (`live`: the states with a
/// successor) can occur in a state satisfying the state constraint `invar`: those are reported
/// when a reachable state meets them, and the states past the stop are not explored. Initial
/// errors do not count (the initial states are explored first). The states with a successor
/// (a preimage of the whole relation, the most expensive one there is) are computed only when
/// the specs allow a watch at all; they are returned for the deadlock check.
#[allow(clippy::too_many_arguments)]
fn invariant_watch(
    program: &LoweredProgram,
    system_id: SystemId,
    ev: &mut SymEval,
    b: &Builder,
    enc: &Encoding,
    trans: &TransRel,
    total: bool,
    invar: &Bdd,
    zero_inputs: &Bdd,
) -> SymResult<(Option<InvariantWatch>, Option<Bdd>)> {
    let system = b.system;
    let specs: Vec<_> = program.specs.iter().filter(|s| s.system == system_id).collect();
    if specs.is_empty() || specs.iter().any(|s| s.kind != SpecKind::Invar || s.ltl.is_some()) {
        return Ok((None, None));
    }
    for e in b.errors.iter().filter(|e| e.stage != Stage::Init) {
        if meets(&e.region, invar)? {
            return Ok((None, None));
        }
    }
    let live = if total { enc.t() } else { trans.preimage(enc, &enc.t())? };
    if meets(&live.not()?, invar)? {
        return Ok((None, Some(live)));
    }
    let watch = invariant_watch_atoms(specs, ev, system, invar, zero_inputs)?;
    Ok((watch, Some(live)))
}

/// Whether `region` has a state satisfying the state constraint `invar`.
fn meets(region: &Bdd, invar: &Bdd) -> SymResult<bool> {
    Ok(region.and(invar)?.satisfiable())
}

/// The rest of [`invariant_watch`]: the specs' bad states, or `None` when an atom or a fairness
/// constraint can meet an error in a state satisfying `invar`, or a spec is not propositional.
fn invariant_watch_atoms(
    specs: Vec<&crate::lowering::program::LoweredSpec>,
    ev: &mut SymEval,
    system: &System,
    invar: &Bdd,
    zero_inputs: &Bdd,
) -> SymResult<Option<InvariantWatch>> {
    // The atoms' BDDs (inputs at their first value, as `Atoms::intern`), free of errors.
    let atom_bdd = |ev: &mut SymEval, expr: &Expr| -> SymResult<Option<Bdd>> {
        let bdd = ev.bool(expr)?.restrict(zero_inputs)?;
        for (_, region) in ev.take_errors() {
            if meets(&region.restrict(zero_inputs)?, invar)? {
                return Ok(None);
            }
        }
        Ok(Some(bdd))
    };
    for e in &system.fairness {
        if atom_bdd(ev, e)?.is_none() {
            return Ok(None);
        }
    }
    let t = ev.encoding().t();
    let mut bad = vec![];
    for s in specs {
        let mut atoms = vec![];
        s.formula.map_atoms(&mut |a| atoms.push(atom_expr(system, a)));
        let mut bdds = vec![];
        for expr in &atoms {
            match atom_bdd(ev, expr)? {
                Some(bdd) => bdds.push(bdd),
                None => return Ok(None),
            }
        }
        let mut next = bdds.into_iter();
        let formula = s.formula.map_atoms(&mut |_| next.next().unwrap_or_else(|| t.clone()));
        match propositional(&formula, &t)? {
            Some(p) => bad.push(p.not()?),
            None => return Ok(None),
        }
    }
    Ok(Some(InvariantWatch::new(bad)))
}

/// The reachability probe of `--engine auto` (see `driver::flat_engine`): after each
/// breadth-first step of the reachability, `step` sees the [`ProbeFacts`] so far and says
/// whether to go on, to give up (the build returns `None`: the explicit engine is the better
/// bet) or to keep the BDDs without asking again.
#[derive(Clone, Copy)]
pub struct Probe<'a> {
    pub step: &'a dyn Fn(ProbeFacts) -> ProbeStep,
}

/// What the probe has done after a breadth-first step, counted rather than timed.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ProbeFacts {
    /// States reached so far.
    pub states: f64,
    /// Breadth-first rings so far (the initial states are the first).
    pub rings: usize,
    /// BDD nodes in the manager after the transition relation's construction, before the first
    /// image.
    pub setup_nodes: usize,
    /// BDD nodes in the manager now: nodes are reclaimed only by oxidd's garbage collection
    /// (at 95 % of the node capacity), so the growth since `setup_nodes` is the number of nodes
    /// the images created, the same on every run and for every thread count.
    pub nodes: usize,
}

/// What the [`Probe`] says after a breadth-first step.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ProbeStep {
    Continue,
    GiveUp,
    Keep,
}

impl SymbolicModel {
    /// Builds the symbolic model of `program`'s flat system and its reachable states.
    /// `threads`: oxidd's workers (0: one; oxidd's parallel apply pays off only on large BDDs and
    /// spins while waiting, which costs more than it gains on a loaded machine).
    pub fn build(program: &LoweredProgram, max_memory: Option<u64>, threads: usize) -> Result<SymbolicModel, Diagnostics> {
        match Self::build_probe(program, max_memory, threads, None) {
            Ok(Some(m)) => Ok(m),
            Ok(None) => {
                let mut d = Diagnostics::new();
                d.push(Diagnostic::error(diag::E_MEMORY, "internal error: a build without probe gave up", Default::default()));
                Err(d)
            }
            Err(d) => Err(d),
        }
    }

    /// [`SymbolicModel::build`] under a [`Probe`]: `Ok(None)` when the probe gives up.
    pub(crate) fn build_probe(
        program: &LoweredProgram,
        max_memory: Option<u64>,
        threads: usize,
        probe: Option<Probe<'_>>,
    ) -> Result<Option<SymbolicModel>, Diagnostics> {
        let mut diags = Diagnostics::new();
        let Some(system_id) = program.flat else {
            diags.push(Diagnostic::error(diag::E_PROC, "the program has no flat model to build", Default::default()));
            return Err(diags);
        };
        let system = &program.systems[system_id.index()];
        let threads = threads.max(1);
        // A small apply cache first; a build that outgrows it starts again with the model's.
        // Models with words of 8 bits or more start with the model's: their adders and
        // comparators stay under the node watch while the small cache makes each operation
        // recompute its arguments' shared parts.
        let mut cache = (!has_wide_arithmetic(system)).then_some(SMALL_CACHE);
        let built = loop {
            match Self::build_in(program, system_id, system, max_memory, threads as u32, probe, cache) {
                Err(e) if e.is_outgrown() && cache.is_some() => cache = None,
                other => break other,
            }
        };
        match built {
            Ok(Built::Model(m)) => Ok(m.map(|m| *m)),
            Ok(Built::Error(d)) => {
                diags.push(d);
                Err(diags)
            }
            Err(e) => {
                diags.push(Diagnostic::error(diag::E_MEMORY, e.0, system.span).with_label_message("in this model"));
                Err(diags)
            }
        }
    }

    fn build_in(
        program: &LoweredProgram,
        system_id: SystemId,
        system: &System,
        max_memory: Option<u64>,
        threads: u32,
        probe: Option<Probe<'_>>,
        cache: Option<usize>,
    ) -> SymResult<Built> {
        let order = super::order::static_order(system);
        let enc = Encoding::with_cache(system, &order, node_capacity(max_memory), cache, threads)?;
        // A build that outgrows the small cache it started with ([`SMALL_CACHE`]) stops.
        if enc.small_cache {
            enc.watch_growth(SMALL_CACHE_NODES);
        }
        let mut ev = SymEval::new(&enc, &system.vars);
        let mut b = Builder { system, names: Names::of(program), errors: vec![] };
        let n = system.vars.len();
        let spans = &system.spans;
        let span_of = |xs: &[Option<Span>], v: usize| xs.get(v).copied().flatten().unwrap_or(system.vars[v].span);
        let at = |xs: &[Span], i: usize| xs.get(i).copied().unwrap_or(system.span);

        // The state constraint: domains, INVAR, `x := e`; kept as conjuncts for the next side.
        // With the variable each conjunct gives a value ([`total_by_parts`]; `None`: `INVAR`).
        let mut invar_parts: Vec<(Bdd, Vec<bool>, Option<usize>)> = vec![];
        for v in 0..n {
            if system.vars[v].kind != VarKind::Input {
                let mut only = vec![false; n];
                only[v] = true;
                invar_parts.push((enc.in_domain(VarId::new(v), Copy::Cur)?, only, Some(v)));
            }
        }
        for (i, e) in system.invar.iter().enumerate() {
            let c = ev.bool(e)?;
            let c = c.or(&b.collect(&mut ev, at(&spans.invar, i), Stage::State)?)?;
            invar_parts.push((c, reads(system, e).0, None));
        }
        for v in 0..n {
            if let Some(e) = &system.invar_assign[v] {
                let c = b.assignment(&enc, &mut ev, VarId::new(v), e, Copy::Cur, span_of(&spans.invar_assign, v), Stage::State)?;
                let (mut cur, _) = reads(system, e);
                cur[v] = true;
                invar_parts.push((c, cur, Some(v)));
            }
        }
        let mut invar = enc.t();
        for (c, _, _) in &invar_parts {
            enc.check_growth()?;
            invar = invar.and(c)?;
        }

        // Initial states.
        let mut init = invar.clone();
        for v in 0..n {
            if let Some(e) = &system.init_assign[v] {
                let c = b.assignment(&enc, &mut ev, VarId::new(v), e, Copy::Cur, span_of(&spans.init_assign, v), Stage::Init)?;
                init = init.and(&c)?;
            }
        }
        for (i, e) in system.init.iter().enumerate() {
            let c = ev.bool(e)?;
            let c = c.or(&b.collect(&mut ev, at(&spans.init, i), Stage::Init)?)?;
            init = init.and(&c)?;
        }

        // Initial states that are all states (pyboolnet's `INIT TRUE`): no image will show the
        // model's size before the checking, which works on the whole space.
        if enc.small_cache && !invar.and(&init.not()?)?.satisfiable() {
            return Err(SymbolicError::outgrown());
        }

        // Transition parts, in variable order, with the variable whose next value each gives
        // (`None`: a `TRANS` or `INVAR` constraint).
        let mut parts = vec![];
        let mut owners: Vec<Option<usize>> = vec![];
        for v in 0..n {
            // Checked as the parts are built: on large models they are most of the lost work.
            enc.check_growth()?;
            let var = &system.vars[v];
            let mut next_only = vec![false; n];
            next_only[v] = true;
            let dom_next = enc.in_domain(VarId::new(v), Copy::Next)?;
            match var.kind {
                VarKind::Input => continue,
                VarKind::Frozen => {
                    let mut cur = vec![false; n];
                    cur[v] = true;
                    parts.push(Part { bdd: enc.unchanged(VarId::new(v))?.and(&dom_next)?, cur, next: next_only });
                    owners.push(Some(v));
                }
                VarKind::State => {
                    if let Some(e) = &system.next_assign[v] {
                        let c = b.assignment(&enc, &mut ev, VarId::new(v), e, Copy::Next, span_of(&spans.next_assign, v), Stage::Trans)?;
                        let (cur, mut next) = reads(system, e);
                        next[v] = true;
                        parts.push(Part { bdd: c.and(&dom_next)?, cur, next });
                        owners.push(Some(v));
                    } else if system.invar_assign[v].is_none() && !dom_next.valid() {
                        parts.push(Part { bdd: dom_next, cur: vec![false; n], next: next_only });
                        owners.push(Some(v));
                    }
                }
            }
        }
        for (i, e) in system.trans.iter().enumerate() {
            enc.check_growth()?;
            let c = ev.bool(e)?;
            let bdd = c.or(&b.collect(&mut ev, at(&spans.trans, i), Stage::Trans)?)?;
            let (cur, next) = reads(system, e);
            parts.push(Part { bdd, cur, next });
            owners.push(None);
        }
        for (c, cur, owner) in &invar_parts {
            if c.valid() {
                continue;
            }
            parts.push(Part { bdd: enc.to_next(c)?, cur: vec![false; n], next: cur.clone() });
            owners.push(*owner);
        }
        let total = total_by_parts(&enc, system, &parts, &owners)?;
        let cone_parts: Vec<Part> = parts.iter().map(|p| Part { bdd: p.bdd.clone(), cur: p.cur.clone(), next: p.next.clone() }).collect();
        let inputs: Vec<bool> = system.vars.iter().map(|v| v.kind == VarKind::Input).collect();
        let mut input_dom = enc.t();
        for v in (0..n).filter(|&v| inputs[v]) {
            input_dom = input_dom.and(&enc.in_domain(VarId::new(v), Copy::Cur)?)?;
        }
        if !input_dom.valid() {
            parts.push(Part { bdd: input_dom, cur: inputs, next: vec![false; n] });
        }
        let trans = TransRel::new(&enc, parts)?;
        enc.check_growth()?;
        let mut peak_nodes = enc.node_count();
        let setup_nodes = peak_nodes;

        // Spec atoms read input variables at their first value.
        let mut zero_inputs = enc.t();
        for v in (0..n).map(VarId::new) {
            if enc.is_input(v) {
                zero_inputs = zero_inputs.and(&enc.value_is(v, Copy::Cur, 0)?)?;
            }
        }

        // Reachable states, ring by ring.
        let mut reach = init.clone();
        let mut rings = vec![];
        if init.satisfiable() {
            rings.push(init.clone());
        }
        let mut frontier = init.clone();
        // The probe decides after each step, until it keeps the BDDs.
        let mut probing = probe;
        // Invariants stop the reachability at their first bad states ([`super::early_stop`]);
        // looked at once no probe is deciding any more (its figures stay those of the images).
        let mut watch: Option<Option<InvariantWatch>> = None;
        let mut live = None;
        let mut stopped_early = false;
        loop {
            if probing.is_none() && watch.is_none() {
                let (w, states_with_successor) = invariant_watch(program, system_id, &mut ev, &b, &enc, &trans, total, &invar, &zero_inputs)?;
                live = states_with_successor;
                let w = watch.insert(w);
                if let Some(w) = w {
                    for ring in &rings {
                        if w.ring(ring)? {
                            stopped_early = true;
                            break;
                        }
                    }
                }
                if stopped_early {
                    break;
                }
            }
            if !frontier.satisfiable() {
                break;
            }
            // Successors satisfy the state constraint (its conjuncts are transition parts on the
            // next side): once every such state is reached, no image can add one. This spares
            // the image of `INIT TRUE` models (pyboolnet's), the most expensive one there is.
            if !invar.and(&reach.not()?)?.satisfiable() {
                break;
            }
            enc.maybe_reorder();
            let image = trans.image(&enc, &frontier)?;
            frontier = image.and(&reach.not()?)?;
            if frontier.satisfiable() {
                reach = reach.or(&frontier)?;
                rings.push(frontier.clone());
                if let Some(Some(w)) = &mut watch {
                    stopped_early = w.ring(&frontier)?;
                }
            }
            let nodes = enc.node_count();
            enc.check_growth()?;
            peak_nodes = peak_nodes.max(nodes);
            if let Some(p) = probing {
                match (p.step)(ProbeFacts { states: enc.count_states(&reach), rings: rings.len(), setup_nodes, nodes }) {
                    ProbeStep::Continue => {}
                    ProbeStep::Keep => probing = None,
                    ProbeStep::GiveUp => return Ok(Built::Model(None)),
                }
            }
            if stopped_early {
                break;
            }
        }

        // Errors met by reachable states or transitions.
        let quant = enc.next_cube.and(&enc.input_cube)?;
        for e in &b.errors {
            let hit = match e.stage {
                Stage::Init => init.and(&e.region)?,
                Stage::State => reach.and(&e.region)?,
                Stage::Trans => {
                    if !trans.some_transition(&reach, &e.region)? {
                        continue;
                    }
                    // The states with an erroneous transition.
                    reach.and(&e.region.exists(&quant)?)?
                }
            };
            if let Some(state) = enc.pick_state(&hit)? {
                let path = path_to(&enc, &trans, &rings, &state)?;
                return Ok(Built::Error(b.error_diagnostic(e, &state, &path)));
            }
        }

        // Atoms of the specs and the fairness constraints.
        let mut atoms = Atoms { exprs: vec![], bdds: vec![], reads: vec![], names: vec![] };
        let mut specs = vec![];
        for (i, s) in program.specs.iter().enumerate().filter(|(_, s)| s.system == system_id) {
            let mut atoms_of = vec![];
            s.formula.map_atoms(&mut |a| atoms_of.push(a.clone()));
            atoms_of.extend(s.ltl.iter().flat_map(|l| l.atoms()).cloned());
            if let Some(c) = &s.compute {
                c.from.map_atoms(&mut |a| atoms_of.push(a.clone()));
                c.to.map_atoms(&mut |a| atoms_of.push(a.clone()));
            }
            let mut ids = vec![];
            for a in &atoms_of {
                let expr = atom_expr(system, a);
                match atoms.intern(&expr, s.span, &mut ev, &mut b, &zero_inputs, &reach, &|st| path_to(&enc, &trans, &rings, st))? {
                    Ok(id) => ids.push(id),
                    Err(d) => return Ok(Built::Error(d)),
                }
            }
            let mut next = ids.into_iter();
            let formula = s.formula.map_atoms(&mut |_| next.next().unwrap_or_default());
            let ltl = s.ltl.as_ref().map(|l| l.map_atoms(&mut |_| next.next().unwrap_or_default()));
            let compute = s.compute.as_ref().map(|c| c.map(|f| f.map_atoms(&mut |_| next.next().unwrap_or_default())));
            specs.push(SymSpec { spec: i, invariant: s.kind == SpecKind::Invar, formula, ltl, compute });
        }
        let mut fairness = vec![];
        for (i, e) in system.fairness.iter().enumerate() {
            match atoms.intern(e, at(&spans.fairness, i), &mut ev, &mut b, &zero_inputs, &reach, &|st| path_to(&enc, &trans, &rings, st))? {
                Ok(id) => fairness.push(id),
                Err(d) => return Ok(Built::Error(d)),
            }
        }
        drop(ev);

        // Warnings: no initial state, deadlocks.
        let mut warnings = vec![];
        if !init.satisfiable() {
            warnings.push(
                Diagnostic::warning(diag::W_NO_INIT, "the model has no initial state", system.span)
                    .with_label_message("in this model")
                    .with_help("every specification holds vacuously; check the INIT constraints and init assignments"),
            );
        }
        let dead = match live {
            Some(live) => reach.and(&live.not()?)?,
            // Measured against the unrestricted preimage and against conjoining the reachable
            // states after the first cluster's product (`preimage_within`): ms of this step
            // alone, `check --engine bdd`, one process per way (here / after the first /
            // unrestricted): prod-cons 491/79/8, abp8 440/340/23, msi_wtrans 1136/1362/451,
            // p-queue 2/2/1788, reactor/base 17/18/343, dartes 46/>120 s/>120 s; guidance's
            // whole `-r` run 16.5 s/22.7 s (beside other jobs)/>100 s. Only this way has no
            // case worse than half a second.
            None if total => enc.f(),
            None => reach.and(&trans.with_successor(&reach)?.not()?)?,
        };
        let deadlocks = enc.count_states(&dead);
        if let Some(state) = enc.pick_state(&dead)? {
            let path: Vec<String> = path_to(&enc, &trans, &rings, &state)?.iter().map(|s| b.names.state(system, s)).collect();
            warnings.push(diag::deadlock_warning(deadlocks as usize, system.span, &path));
        }
        peak_nodes = peak_nodes.max(enc.node_count());
        // The checking keeps whichever cache the build ended with.
        enc.watch_growth(usize::MAX);
        Ok(Built::Model(Some(Box::new(SymbolicModel {
            system: system_id,
            enc,
            init,
            trans,
            reach,
            rings,
            stopped_early,
            atoms: atoms.bdds,
            atom_reads: atoms.reads,
            deps: Dependencies::of(system),
            parts: cone_parts,
            specs,
            fairness,
            deadlocks,
            total,
            warnings,
            peak_nodes,
        }))))
    }

    /// A shortest path from an initial state to `state` (which must be reachable), by the rings.
    pub(crate) fn path_to(&self, state: &[u32]) -> SymResult<Vec<Vec<u32>>> {
        path_to(&self.enc, &self.trans, &self.rings, state)
    }

    /// The input values that take the state `from` to the state `to` (value indices), as `from`
    /// with its input slots filled: the least such inputs in the declaration order; `None` when
    /// the system has no inputs or no transition joins the two. For traces: the explicit
    /// evaluator's search enumerates every input value, which a wide input word makes endless.
    pub(crate) fn transition_inputs(&self, from: &[u32], to: &[u32]) -> Option<Vec<u32>> {
        if !self.enc.kinds.contains(&VarKind::Input) {
            return None;
        }
        let inputs = || -> SymResult<Option<Vec<u32>>> {
            let pair = self.enc.state_cube(from)?.and(&self.enc.to_next(&self.enc.state_cube(to)?)?)?;
            let inputs = self.trans.transition_inputs(&self.enc, &pair)?;
            self.enc.pick_inputs(&inputs, from)
        };
        inputs().ok().flatten()
    }

    /// Number of reachable states (NuSMV's figure, a satisfying-assignment count); the states
    /// explored when the reachability [stopped early](SymbolicModel::stopped_early).
    pub(crate) fn reachable_states(&self) -> f64 {
        self.enc.count_states(&self.reach)
    }

    /// Breadth-first layers from the initial states (NuSMV's "system diameter"); the layers
    /// explored when the reachability [stopped early](SymbolicModel::stopped_early).
    pub(crate) fn diameter(&self) -> usize {
        self.rings.len()
    }

    /// All reachable states and the diameter, the reachability run to its fixpoint from where it
    /// stopped early (computed on each call: `-r` and NuSMV mode's commands ask once).
    pub(crate) fn full_reach(&self) -> SymResult<(Bdd, usize)> {
        self.full_reach_with(|_| Ok(()))
    }

    /// [`SymbolicModel::full_reach`], showing `ring` each breadth-first ring (the states first
    /// reached at each layer, the initial states first).
    fn full_reach_with(&self, mut ring: impl FnMut(&Bdd) -> SymResult<()>) -> SymResult<(Bdd, usize)> {
        for r in &self.rings {
            ring(r)?;
        }
        let mut reach = self.reach.clone();
        let mut rings = self.rings.len();
        let Some(mut frontier) = self.rings.last().filter(|_| self.stopped_early).cloned() else { return Ok((reach, rings)) };
        while frontier.satisfiable() {
            self.enc.maybe_reorder();
            frontier = self.trans.image(&self.enc, &frontier)?.and(&reach.not()?)?;
            if frontier.satisfiable() {
                ring(&frontier)?;
                reach = reach.or(&frontier)?;
                rings += 1;
            }
        }
        Ok((reach, rings))
    }

    /// `(diameter, reachable states)` of the whole reachability ([`SymbolicModel::full_reach`]),
    /// counting states as NuSMV does ([`System::counts_in_state`]); the explored figures if it
    /// fails (the node table is full).
    pub(crate) fn full_figures(&self, system: &System) -> (usize, f64) {
        let uncounted: Vec<VarId> = system.uncounted_state_vars().collect();
        let figures = if uncounted.is_empty() {
            self.full_reach().map(|(reach, rings)| (rings, self.enc.count_states(&reach)))
        } else {
            self.counted_figures(&uncounted)
        };
        figures.unwrap_or_else(|_| (self.diameter(), self.reachable_states()))
    }

    /// The figures without the `uncounted` variables: states that differ only in them count
    /// once, at the first layer one of them is in (reachability within k steps is the same with
    /// or without them, so these are the model's figures without them).
    fn counted_figures(&self, uncounted: &[VarId]) -> SymResult<(usize, f64)> {
        let cube = self.enc.cube_of(uncounted.iter().copied(), Copy::Cur)?;
        let (mut seen, mut layer, mut diameter) = (self.enc.f(), 0, 0);
        self.full_reach_with(|ring| {
            layer += 1;
            let new = ring.exists(&cube)?.and(&seen.not()?)?;
            if new.satisfiable() {
                seen = seen.or(&new)?;
                diameter = layer;
            }
            Ok(())
        })?;
        // The uncounted bits are free in `seen`: each doubles its count.
        let free_bits: usize = uncounted.iter().map(|&v| self.enc.bits(v, Copy::Cur).len()).sum();
        Ok((diameter, self.enc.count_states(&seen) / 2f64.powi(free_bits as i32)))
    }

    /// BDD variables (current, next and input bits), transition parts and clusters.
    pub(crate) fn shape(&self) -> (u32, usize, usize) {
        (self.enc.num_bdd_vars(), self.trans.parts, self.trans.clusters())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::source::SourceFile;

    fn build(text: &str) -> SymbolicModel {
        let file = SourceFile::new("cache.smv", text);
        let program = crate::frontend::load(&file, None).0.expect("the model loads");
        SymbolicModel::build(&program, None, 1).expect("BDD build")
    }

    /// 30 state bits (60 BDD variables: a model-sized cache of 2^22 entries, larger than the
    /// small one).
    const VARS: &str = "MODULE main\nVAR c : 0..1023; d : 0..1023; e : 0..1023;\n";

    #[test]
    fn a_small_reachability_keeps_the_small_cache() {
        let m = build(&format!("{VARS}ASSIGN init(c) := 0; next(c) := (c + 1) mod 8; init(d) := 0; next(d) := d; init(e) := 5; next(e) := e;\n"));
        assert!(m.enc.small_cache);
        assert_eq!(m.reachable_states(), 8.0);
        assert_eq!(m.diameter(), 8);
    }

    #[test]
    fn a_build_past_its_node_watch_stops_inside_an_expression() {
        // The watch is read between the BDD operations of one expression, so a single large
        // constraint (NuSMV's dph35.smv: 3.9 M nodes in one part) cannot run on with the small
        // cache; once the watch is off, the same evaluation goes through.
        // (Forty disjuncts: the watch is read every 64 expression nodes.)
        let disjuncts: Vec<String> = (0..40).map(|k| format!("next(c) = (c + d + {k}) mod 16")).collect();
        let text = format!("MODULE main\nVAR c : 0..15; d : 0..15; e : 0..15;\nTRANS next(e) = c | {}\n", disjuncts.join(" | "));
        let file = SourceFile::new("watch.smv", &text);
        let program = crate::frontend::load(&file, None).0.expect("the model loads");
        let system = &program.systems[program.flat.expect("a flat model").index()];
        let order = super::super::order::static_order(system);
        let enc = Encoding::with_cache(system, &order, 1 << 20, Some(1 << 10), 1).expect("a manager");
        assert!(enc.small_cache);
        enc.watch_growth(enc.node_count() + 100);
        let result = SymEval::new(&enc, &system.vars).bool(&system.trans[0]);
        assert!(result.is_err_and(|e| e.is_outgrown()));
        assert!(enc.node_count() < 100_000, "stopped early: {} nodes", enc.node_count());
        enc.watch_growth(usize::MAX);
        let again = SymEval::new(&enc, &system.vars).bool(&system.trans[0]).map(|_| ());
        assert_eq!(again, Ok(()));
    }

    #[test]
    fn all_states_initial_starts_again_with_the_model_sized_cache() {
        // No reachability to show the model's size: the checking works on all 2^30 states.
        let m = build(&format!("{VARS}ASSIGN next(c) := (c + 1) mod 1024;\n"));
        assert!(!m.enc.small_cache);
        assert_eq!(m.reachable_states(), (1u64 << 30) as f64);
        assert_eq!(m.diameter(), 1);
    }

    #[test]
    fn assignments_make_a_total_relation_and_constraints_are_searched_for_deadlocks() {
        // next(), `:=`, frozen and free variables (a domain of 5 values: a domain part), a next
        // value read by another assignment: total, no deadlock search.
        let assigned = "MODULE main\nVAR a : 0..4; b : boolean; f : 0..4; z : boolean;\nFROZENVAR k : 0..2;\nIVAR i : boolean;\nDEFINE d := a = 2;\n\
            ASSIGN next(a) := case i : (a + 1) mod 5; TRUE : {0, a}; esac; next(b) := next(a) = 3 | d; z := b & k = 1;\n";
        let m = build(assigned);
        assert!(m.total);
        assert_eq!(m.deadlocks, 0.0);
        // A TRANS constraint may leave states without a successor: they are searched for.
        let m = build("MODULE main\nVAR a : 0..4;\nASSIGN init(a) := 0;\nTRANS next(a) = a + 1\n");
        assert!(!m.total);
        assert_eq!(m.deadlocks, 1.0);
        // So may an INVAR constraint that the assignments can break.
        let m = build("MODULE main\nVAR a : 0..4;\nASSIGN init(a) := 0; next(a) := (a + 1) mod 5;\nINVAR a < 3\n");
        assert!(!m.total);
        assert_eq!(m.deadlocks, 1.0);
        // A set assignment restricted by nothing else keeps a value: total.
        let m = build("MODULE main\nVAR a : 0..4;\nASSIGN init(a) := 0; next(a) := {a, 4};\n");
        assert!(m.total);
    }
}
