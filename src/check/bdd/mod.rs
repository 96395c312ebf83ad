//! The BDD engine for flat models: fair CTL and `INVARSPEC` on a [`SymbolicModel`], with the
//! semantics of the explicit engine (`check::flat`, NuSMV 2.5.4's `mcMc.c`), on BDDs.
//!
//! All specs are lowered into one shared DAG of `And`/`EX`/`EU`/`EG` literals (the explicit
//! engine's [`Arena`], via `check::rewrite`); every node gets the BDD of the reachable states
//! satisfying it, bottom-up:
//! - fair states = `E_f G true` under the `FAIRNESS`/`JUSTICE` constraints (Emerson–Lei:
//!   `Z = νZ. S ∧ ⋀ₖ EX E[S U (Z ∧ Fₖ)]`; without constraints `νZ. S ∧ EX Z`);
//! - `EX a` = predecessors of `a ∧ fair`; `E[a U b]` = backward least fixpoint from `b ∧ fair`
//!   through `a`; `EG a` = fair `EG` of `a ∧ fair`;
//! - a spec holds iff every fair initial state satisfies it (deadlocks are not fair: NuSMV's
//!   vacuous verdicts); `INVARSPEC` holds iff no reachable state violates it (fairness ignored).
//!
//! `COMPUTE MIN`/`MAX`: NuSMV's forward and backward layer searches ([`distance`]).
//!
//! `LTLSPEC`: fair `EG true` on the product with the symbolic tableau of the negated spec
//! ([`ltl`], [`tableau`]), one product per spec.
//!
//! Everything is restricted to the reachable states, which changes no verdict (a state's CTL
//! value depends only on the states it can reach). Traces ([`explain`]) are concrete states
//! picked from BDDs, in the same [`Trace`] type as the explicit engine's, carrying their values.

mod cone;
mod distance;
mod explain;
mod ltl;
mod tableau;

use crate::check::engine::{Checked, Checker, RunOptions, Stats};
use crate::check::flat::formula::{Arena, CoreNodeId, Lit, Node};
use crate::check::flat::has_existential_top;
use crate::check::trace::{SpecOutcome, Trace, TraceKind};
use crate::ir::id::IdVec;
use crate::symbolic::model::SymSpec;
use crate::symbolic::trans::TransRel;
use crate::symbolic::{Bdd, SymResult, SymbolicError, SymbolicModel};
use oxidd::BooleanFunction;

/// Fair CTL and invariants on BDDs.
#[derive(Clone, Copy, Debug, Default)]
pub struct Symbolic;

impl Checker for Symbolic {
    type Model = SymbolicModel;
    type Spec = SymSpec;

    fn check(&self, model: &SymbolicModel, specs: &[SymSpec], options: &RunOptions) -> Result<Checked, String> {
        check(model, specs, options, true).map_err(|e| e.0)
    }
}

/// The same checks with every spec on the whole model (no cone of influence): the reference the
/// cones are tested and measured against (`tests/bdd_coi.rs`). Outcomes are [`Symbolic`]'s.
#[derive(Clone, Copy, Debug, Default)]
pub struct SymbolicWholeModel;

impl Checker for SymbolicWholeModel {
    type Model = SymbolicModel;
    type Spec = SymSpec;

    fn check(&self, model: &SymbolicModel, specs: &[SymSpec], options: &RunOptions) -> Result<Checked, String> {
        check(model, specs, options, false).map_err(|e| e.0)
    }
}

/// Satisfaction sets of the formula DAG's nodes, on the model or on one of its cones of
/// influence (a `symbolic::reduced::Reduced` model: its transition relation and reachable states).
pub(crate) struct Labels<'m> {
    pub model: &'m SymbolicModel,
    pub arena: &'m Arena,
    trans: &'m TransRel,
    reach: Bdd,
    /// Fair states (the reachable states when not asked for).
    pub fair: Bdd,
    /// Fairness constraints restricted to the reachable states.
    pub constraints: Vec<Bdd>,
    /// Sets of the nodes below the roots asked for (`None` elsewhere).
    sets: IdVec<CoreNodeId, Option<Bdd>>,
}

impl<'m> Labels<'m> {
    /// The sets of the nodes below `roots`, with `trans` and `reach` (the model's or a cone's);
    /// `fair`: compute the fair states (else only propositional nodes may be asked for).
    fn new(model: &'m SymbolicModel, arena: &'m Arena, trans: &'m TransRel, reach: &Bdd, roots: &[Lit], fair: bool) -> SymResult<Labels<'m>> {
        let constraints = model.fairness.iter().map(|&p| model.atoms[p.index()].and(reach)).collect::<Result<Vec<_>, _>>()?;
        let mut l = Labels { model, arena, trans, reach: reach.clone(), fair: reach.clone(), constraints, sets: IdVec::from_elem(None, arena.len()) };
        let mut needed: IdVec<CoreNodeId, bool> = IdVec::from_elem(false, arena.len());
        let mut stack: Vec<CoreNodeId> = roots.iter().map(|r| r.node()).collect();
        while let Some(id) = stack.pop() {
            if !std::mem::replace(&mut needed[id], true) {
                stack.extend(arena.node(id).operands().map(|o| o.node()));
            }
        }
        let temporal = |id: CoreNodeId| matches!(arena.node(id), Node::EX(_) | Node::EU(..) | Node::EG(_));
        // Without fairness constraints the fair states are `EG TRUE`: on the model's own
        // reachable states without a deadlock (every successor of one is one), all of them.
        let all_fair = l.constraints.is_empty() && model.deadlocks == 0.0 && !model.stopped_early && *reach == model.reach;
        if (fair || arena.ids().any(|id| needed[id] && temporal(id))) && !all_fair {
            l.fair = l.eg_fair(reach)?;
        }
        for id in arena.ids().filter(|&id| needed[id]) {
            crate::deadline::poll();
            let set = l.compute(id)?;
            l.sets[id] = Some(set);
        }
        Ok(l)
    }

    /// The reachable states with a successor in `s`.
    fn pre(&self, s: &Bdd) -> SymResult<Bdd> {
        self.pre_within(s, &self.reach)
    }

    /// The states of `within` (reachable states) with a successor in `s`.
    fn pre_within(&self, s: &Bdd, within: &Bdd) -> SymResult<Bdd> {
        self.trans.preimage_within(&self.model.enc, s, within)
    }

    fn compute(&self, id: CoreNodeId) -> SymResult<Bdd> {
        let reach = &self.reach;
        Ok(match self.arena.node(id) {
            Node::True => reach.clone(),
            Node::Atom(p) => self.model.atoms[p.index()].and(reach)?,
            Node::And(a, b) => self.lit(a)?.and(&self.lit(b)?)?,
            Node::EX(a) => self.pre(&self.lit(a)?.and(&self.fair)?)?,
            Node::EU(a, b) => self.until(&self.lit(a)?, &self.lit(b)?.and(&self.fair)?)?,
            Node::EG(a) => self.eg_fair(&self.lit(a)?.and(&self.fair)?)?,
        })
    }

    /// The states satisfying a literal.
    pub(crate) fn lit(&self, lit: Lit) -> SymResult<Bdd> {
        let Some(set) = &self.sets[lit.node()] else {
            return Err(SymbolicError("internal error: a subformula's set was not computed".into()));
        };
        if lit.is_negated() { Ok(self.reach.and(&set.not()?)?) } else { Ok(set.clone()) }
    }

    /// `E[hold U target]` without fairness (backward, frontier by frontier).
    pub(crate) fn until(&self, hold: &Bdd, target: &Bdd) -> SymResult<Bdd> {
        let mut z = target.clone();
        let mut frontier = target.clone();
        while frontier.satisfiable() {
            crate::deadline::poll();
            self.model.enc.maybe_reorder();
            let new = self.pre_within(&frontier, &hold.and(&z.not()?)?)?;
            z = z.or(&new)?;
            frontier = new;
        }
        Ok(z)
    }

    /// Fair `EG s`: states with an infinite path in `s` visiting every constraint infinitely often.
    pub(crate) fn eg_fair(&self, s: &Bdd) -> SymResult<Bdd> {
        let mut z = s.clone();
        loop {
            crate::deadline::poll();
            self.model.enc.maybe_reorder();
            let mut next = s.clone();
            if self.constraints.is_empty() {
                next = self.pre_within(&z, &next)?;
            } else {
                for f in &self.constraints {
                    let reach_f = self.until(s, &z.and(f)?)?;
                    next = self.pre_within(&reach_f, &next)?;
                    if !next.satisfiable() {
                        break;
                    }
                }
            }
            if next == z {
                return Ok(z);
            }
            z = next;
        }
    }

    pub(crate) fn holds_at(&self, lit: Lit, state: &Bdd) -> SymResult<bool> {
        Ok(self.lit(lit)?.and(state)?.satisfiable())
    }
}

fn check(model: &SymbolicModel, specs: &[SymSpec], options: &RunOptions, cones: bool) -> SymResult<Checked> {
    let mut arena = Arena::new();
    let roots: Vec<Lit> = specs.iter().map(|s| arena.lower(&s.formula)).collect();
    let computes: Vec<Option<(Lit, Lit)>> = specs.iter().map(|s| s.compute.as_ref().map(|c| (arena.lower(&c.from), arena.lower(&c.to)))).collect();
    let distinct = arena.len();
    let is_ctl = |s: &SymSpec| !s.invariant && s.ltl.is_none() && s.compute.is_none();
    let has_ctl = specs.iter().any(is_ctl);
    // CTL verdicts on cones of influence that leave variables out.
    let on_cones = if cones { cone::verdicts(model, &arena, specs, &roots)? } else { cone::ConeVerdicts::none(specs.len()) };
    let wants_trace = |i: usize, holds: bool| options.traces && (!holds || (options.witnesses && has_existential_top(&specs[i].formula)));
    let on_model = |i: usize| match on_cones.verdicts[i] {
        _ if !is_ctl(&specs[i]) => specs[i].invariant,
        Some(holds) => wants_trace(i, holds),
        None => true,
    };
    let compute_roots = computes.iter().flatten().flat_map(|&(from, to)| [from, to]);
    let model_roots: Vec<Lit> = (0..specs.len()).filter(|&i| on_model(i) && computes[i].is_none()).map(|i| roots[i]).chain(compute_roots).collect();
    let model_ctl = (0..specs.len()).any(|i| on_model(i) && is_ctl(&specs[i])) || computes.iter().any(Option::is_some);
    let labels = Labels::new(model, &arena, &model.trans, &model.reach, &model_roots, model_ctl)?;
    let fair_initial = model.init.and(&labels.fair)?;
    let mut outcomes = Vec::with_capacity(specs.len());
    let mut tableau_vars = None;
    let (ltl_cone, ltl_cones) = if cones { cone::ltl_cones(model, specs)? } else { (vec![None; specs.len()], vec![]) };
    let mut ltl_on_cones = 0u64;
    for (i, (spec, &root)) in specs.iter().zip(&roots).enumerate() {
        let outcome = if let (Some(c), Some((from, to))) = (&spec.compute, computes[i]) {
            let distance = distance::compute(&labels, c.extremum, &labels.lit(from)?, &labels.lit(to)?)?;
            SpecOutcome { holds: true, trace: None, distance: Some(distance) }
        } else if let Some(f) = &spec.ltl {
            let checked = ltl::check(model, ltl_cone[i].map(|c| &ltl_cones[c]), f, options.traces)?;
            *tableau_vars.get_or_insert(0) += checked.tableau_vars as u64;
            ltl_on_cones += checked.on_cone as u64;
            checked.outcome
        } else if spec.invariant {
            invariant(model, &labels, root, options.traces)?
        } else if let (Some(holds), false) = (on_cones.verdicts[i], on_model(i)) {
            SpecOutcome { holds, trace: None, distance: None }
        } else {
            ctl(&labels, &fair_initial, spec, root, options)?
        };
        outcomes.push(outcome);
    }
    // Whether fair (initial) states exist is the same on the model and on every cone.
    let (any_fair, any_fair_initial) = match on_cones.fairness {
        Some(seen) if !model_ctl => seen,
        _ => (labels.fair.satisfiable(), fair_initial.satisfiable()),
    };
    let mut warnings = vec![];
    if has_ctl && !any_fair {
        warnings.push("no state has an infinite fair path: every CTL specification holds vacuously".to_string());
    } else if has_ctl && !any_fair_initial {
        warnings.push("no initial state has an infinite fair path: every CTL specification holds vacuously".to_string());
    }
    let (bdd_vars, parts, clusters) = model.shape();
    let mut counters = vec![
        ("distinct subformulas", distinct as u64),
        ("bdd variables", u64::from(bdd_vars)),
        ("variables moved by the static order", model.enc.moved_vars as u64),
        ("transition parts", parts as u64),
        ("transition clusters", clusters as u64),
        ("relation total by its parts (no deadlock search)", u64::from(model.total)),
        ("cones of influence", on_cones.cones as u64),
        ("specs decided on a cone", on_cones.verdicts.iter().flatten().count() as u64),
        ("peak bdd nodes", model.peak_nodes.max(model.enc.node_count()) as u64),
    ];
    if let Some((runs, after)) = model.enc.reorderings() {
        counters.push(("dynamic reorderings", runs as u64));
        counters.push(("live bdd nodes after the last reordering", after as u64));
    }
    counters.extend(tableau_vars.map(|n| ("LTL tableau variables", n)));
    if tableau_vars.is_some() {
        counters.push(("LTL cones of influence", ltl_cones.len() as u64));
        counters.push(("LTL specs decided on a cone", ltl_on_cones));
    }
    let stats = Stats::counters(counters);
    Ok(Checked { outcomes, stats, warnings })
}

fn ctl(labels: &Labels, fair_initial: &Bdd, spec: &SymSpec, root: Lit, options: &RunOptions) -> SymResult<SpecOutcome> {
    let enc = &labels.model.enc;
    let violating = fair_initial.and(&labels.lit(root.negate())?)?;
    if let Some(start) = enc.pick_state(&violating)? {
        let trace = if options.traces { Some(explain::trace(labels, start, root.negate(), TraceKind::Counterexample)?) } else { None };
        return Ok(SpecOutcome { holds: false, trace, distance: None });
    }
    let witness = options.traces && options.witnesses && has_existential_top(&spec.formula);
    let trace = match witness.then(|| enc.pick_state(fair_initial)).transpose()?.flatten() {
        Some(start) => Some(explain::trace(labels, start, root, TraceKind::Witness)?),
        None => None,
    };
    Ok(SpecOutcome { holds: true, trace, distance: None })
}

fn invariant(model: &SymbolicModel, labels: &Labels, root: Lit, traces: bool) -> SymResult<SpecOutcome> {
    let bad = labels.lit(root.negate())?;
    for ring in &model.rings {
        let here = ring.and(&bad)?;
        if let Some(state) = model.enc.pick_state(&here)? {
            let trace = if traces { Some(Trace::concrete(TraceKind::Counterexample, model.path_to(&state)?, None)) } else { None };
            return Ok(SpecOutcome { holds: false, trace, distance: None });
        }
    }
    Ok(SpecOutcome { holds: true, trace: None, distance: None })
}
