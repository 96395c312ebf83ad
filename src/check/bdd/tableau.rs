//! The symbolic tableau of an `LTLSPEC` and its product with the BDD model, as NuSMV 2.5.4 builds
//! it (Clarke, Grumberg and Hamaguchi, "Another look at LTL model checking", CAV 1994).
//!
//! Why this and not the explicit engine's GPVW automaton (`check::ltl::tableau`) in binary
//! variables: the GPVW automaton is built state by state and can be exponential in the formula
//! before any BDD sees it, while this tableau has one BDD variable per elementary subformula, its
//! transition relation is a conjunction of one equivalence per variable, and the whole product
//! stays symbolic; it is also NuSMV's construction, so verdicts and lasso shapes follow the same
//! product. The formula front end is shared with the explicit engine: `¬φ` in negation normal form
//! over `X U R` with the same simplifications (`check::ltl::formula`), pure-past subformulas as
//! the same monitor nodes (`check::ltl::past`).
//!
//! Variables (each with a current and a next copy, added below the model's variables in the
//! order): per `X a` node, `x` ≡ "`X a` holds"; per `a U b` and `a R b` node, `x` ≡ "`X (a U b)`"
//! (resp. `X (a R b)`); per past `Y a`/`Z a` node, `p` ≡ its value (`a` at the previous
//! position); per `a S b`/`a T b` node, `p` ≡ its value at the previous position. Every node
//! `g` has the BDD `sat(g)` over the model's current bits and these variables:
//! `sat(X a) = x`, `sat(a U b) = sat(b) ∨ (sat(a) ∧ x)`, `sat(a R b) = sat(b) ∧ (sat(a) ∨ x)`,
//! `sat(Y a) = p`, `sat(a S b) = sat(b) ∨ (sat(a) ∧ p)`, `sat(a T b) = sat(b) ∧ (sat(a) ∨ p)`.
//! The product's transition relation is the model's and, per future variable,
//! `x ↔ sat(operand)'` (the next position's value), per past variable `p' ↔ sat(operand)`.
//! Initial states: the model's, `sat(¬φ)`, and past variables at their value before the first
//! position (`Y`, `S`: false; `Z`, `T`: true). Fairness: per `a U b`, `¬sat(a U b) ∨ sat(b)` (a
//! promised `b` is not postponed forever), then the model's `FAIRNESS`/`JUSTICE` constraints.
//! `φ` is false iff some initial product state has a fair infinite path (fair `EG true`).
//!
//! The future part of the relation reads the next model state and the past part the current one,
//! so an image or preimage is the model's (`symbolic::trans`) with the tableau's conjunct
//! applied before or after it: the future conjunct with the model bits standing for the next
//! state (`future`), the past conjunct with them standing for the current one (`past`). Product
//! states range over the model's reachable states (`domain`) and any tableau values.

use crate::check::ltl::formula::{Arena, Atom, NnfId, Node};
use crate::check::ltl::past::{PastMonitor, PastNode};
use crate::ir::PropId;

use crate::ltl::Ltl;
use crate::symbolic::rings::StateSpace;
use crate::symbolic::trans::TransRel;
use crate::symbolic::{Bdd, SymResult, SymbolicError, SymbolicModel};
use oxidd::{BooleanFunction, BooleanFunctionQuant, BooleanOperator, FunctionSubst, Manager, ManagerRef, Subst, VarNo};
use rustc_hash::FxHashMap;

/// What the product is built on: the model's transition relation, initial and reachable states,
/// or those of a cone of influence (`symbolic::reduced`).
#[derive(Clone, Copy)]
pub(crate) struct Space<'m> {
    pub trans: &'m TransRel,
    pub init: &'m Bdd,
    pub reach: &'m Bdd,
}

/// A state of the product: the model's value indices and the tableau variables' values.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct ProductState {
    pub model: Vec<u32>,
    pub tableau: Vec<bool>,
}

/// The product of the symbolic model with the tableau of one spec's negation.
pub(crate) struct Tableau<'m> {
    pub model: &'m SymbolicModel,
    /// The transition relation of the model or of the cone the product is built on.
    trans: &'m TransRel,
    /// Initial product states.
    pub init: Bdd,
    /// Fairness constraints of the product (the tableau's, then the model's), inside `domain`.
    pub fairness: Vec<Bdd>,
    /// The product states considered: reachable model states, any tableau values.
    pub domain: Bdd,
    /// `x ↔ sat(operand)` per future variable, model bits for the next state, tableau bits next.
    future: Bdd,
    /// `p' ↔ sat(operand)` per past variable, over the current model bits.
    past: Bdd,
    future_cur: Bdd,
    future_next: Bdd,
    past_cur: Bdd,
    past_next: Bdd,
    to_next: Subst<Bdd>,
    to_cur: Subst<Bdd>,
    /// Current and next copies of the variables (future ones first), as BDD variable numbers.
    cur_vars: Vec<VarNo>,
    cur: Vec<Bdd>,
}

/// The future nodes reachable from `roots`, in increasing id order (children first: an arena
/// interns operands before the nodes using them).
fn reachable(arena: &Arena, roots: &[NnfId]) -> Vec<NnfId> {
    let mut seen = vec![];
    for &r in roots {
        if !seen.contains(&r) {
            seen.push(r);
        }
    }
    let mut stack = seen.clone();
    while let Some(id) = stack.pop() {
        let children: &[NnfId] = match arena.node(id) {
            Node::True | Node::False | Node::Lit(..) => &[],
            Node::X(a) => &[a],
            Node::And(a, b) | Node::Or(a, b) | Node::U(a, b) | Node::R(a, b) => &[a, b],
        };
        for &c in children {
            if !seen.contains(&c) {
                seen.push(c);
                stack.push(c);
            }
        }
    }
    seen.sort_unstable();
    seen
}

/// Makes sure the manager has `k` tableau variable pairs after the model's variables and returns
/// their (current, next) functions and numbers. Tableau variables of earlier specs are reused.
fn allocate(model: &SymbolicModel, k: usize) -> SymResult<Vec<(Bdd, Bdd, VarNo, VarNo)>> {
    let base = model.enc.num_bdd_vars();
    model.enc.manager.with_manager_exclusive(|m| -> SymResult<Vec<(Bdd, Bdd, VarNo, VarNo)>> {
        let need = base + 2 * k as VarNo;
        if m.num_vars() < need {
            m.add_vars(need - m.num_vars());
        }
        (0..k as VarNo)
            .map(|i| {
                let (c, n) = (base + 2 * i, base + 2 * i + 1);
                Ok((Bdd::var(m, c)?, Bdd::var(m, n)?, c, n))
            })
            .collect()
    })
}

fn cube(vars: &[&Bdd], t: &Bdd) -> SymResult<Bdd> {
    let mut c = t.clone();
    for v in vars {
        c = c.and(v)?;
    }
    Ok(c)
}

impl<'m> Tableau<'m> {
    /// The tableau of `¬spec` and its product with `model`. `Err` names what the translation
    /// cannot handle (a past operator over a future formula, too many past nodes).
    pub(crate) fn build(model: &'m SymbolicModel, spec: &Ltl<PropId>) -> SymResult<Tableau<'m>> {
        Tableau::build_on(model, Space { trans: &model.trans, init: &model.init, reach: &model.reach }, spec)
    }

    /// The tableau's product with `space`: the model's or one of its cones of influence (the
    /// spec's atoms and the model's fairness constraints read only variables of the cone).
    pub(crate) fn build_on(model: &'m SymbolicModel, space: Space<'m>, spec: &Ltl<PropId>) -> SymResult<Tableau<'m>> {
        let mut arena = Arena::new();
        let mut monitor = PastMonitor::with_future_operands();
        let root = arena.nnf(spec, true, &mut monitor).map_err(SymbolicError)?;
        let futures: Vec<(NnfId, NnfId)> = monitor.futures().iter().filter_map(|o| o.ids).collect();
        if futures.len() != monitor.futures().len() {
            return Err(SymbolicError("internal error: a future operand of a past operator was not translated".into()));
        }
        let mut roots = vec![root];
        roots.extend(futures.iter().flat_map(|&(p, n)| [p, n]));
        let nodes = reachable(&arena, &roots);
        let elementary: Vec<NnfId> = nodes.iter().copied().filter(|&id| matches!(arena.node(id), Node::X(_) | Node::U(..) | Node::R(..))).collect();
        let past_nodes = monitor.nodes();
        let memory: Vec<usize> = (0..past_nodes.len()).filter(|&i| matches!(past_nodes[i], PastNode::Prev(..) | PastNode::Since(..))).collect();
        let vars = allocate(model, elementary.len() + memory.len())?;
        let (fvars, pvars) = vars.split_at(elementary.len());
        let enc = &model.enc;
        let t = enc.t();
        let to_next = Subst::new(vars.iter().map(|v| v.2).collect::<Vec<_>>(), vars.iter().map(|v| v.1.clone()).collect::<Vec<_>>());
        let to_cur = Subst::new(vars.iter().map(|v| v.3).collect::<Vec<_>>(), vars.iter().map(|v| v.0.clone()).collect::<Vec<_>>());

        let mut sat = Sat {
            model,
            arena: &arena,
            past_nodes,
            futures: &futures,
            fvar: elementary.iter().zip(fvars).map(|(&id, v)| (id, v.0.clone())).collect(),
            pvar: memory.iter().zip(pvars).map(|(&i, v)| (i, v.0.clone())).collect(),
            fsat: vec![None; arena_len(&nodes)],
            psat: vec![None; past_nodes.len()],
        };

        // Past variables: `p' ↔ a` for `Y a`/`Z a`, `p' ↔ (a S b)` for since nodes, over the
        // current position (model bits and tableau variables, future ones included).
        let mut past = t.clone();
        let mut past_init = t.clone();
        for (k, &i) in memory.iter().enumerate() {
            let (now, weak) = match past_nodes[i] {
                PastNode::Prev(a, weak) => (sat.past(a)?, weak),
                PastNode::Since(.., weak) => (sat.past(i as u32)?, weak),
                _ => return Err(SymbolicError("internal error: a past memory on a node without one".into())),
            };
            past_init = past_init.and(&if weak { pvars[k].0.clone() } else { pvars[k].0.not()? })?;
            past = past.and(&pvars[k].1.equiv(&now)?)?;
        }

        // Future variables: `x ↔ sat(operand)'`; fairness per `a U b`.
        let mut future = t.clone();
        let mut fairness = vec![];
        for (k, &id) in elementary.iter().enumerate() {
            let operand = match arena.node(id) {
                Node::X(a) => a,
                _ => id,
            };
            let next_value = sat.future(operand)?.substitute(&to_next)?;
            future = future.and(&fvars[k].0.equiv(&next_value)?)?;
            if let Node::U(_, b) = arena.node(id) {
                fairness.push(sat.future(id)?.not()?.or(&sat.future(b)?)?.and(&model.reach)?);
            }
        }
        // A future operand of a past operator must have its exact value at every position: its
        // NNF and its negation's are complementary (a release node alone may be false where it
        // holds; with the negation, a `U` with its fairness, it cannot).
        let mut domain = space.reach.clone();
        for &(positive, negative) in &futures {
            domain = domain.and(&sat.future(positive)?.xor(&sat.future(negative)?)?)?;
        }
        for &p in &model.fairness {
            fairness.push(model.atoms[p.index()].and(space.reach)?);
        }
        let init = space.init.and(&sat.future(root)?)?.and(&past_init)?.and(&domain)?;
        let refs = |vs: &[(Bdd, Bdd, VarNo, VarNo)], next: bool| -> Vec<Bdd> { vs.iter().map(|v| if next { v.1.clone() } else { v.0.clone() }).collect() };
        let as_cube = |bdds: Vec<Bdd>| cube(&bdds.iter().collect::<Vec<_>>(), &t);
        Ok(Tableau {
            model,
            trans: space.trans,
            init,
            fairness,
            domain,
            future,
            past,
            future_cur: as_cube(refs(fvars, false))?,
            future_next: as_cube(refs(fvars, true))?,
            past_cur: as_cube(refs(pvars, false))?,
            past_next: as_cube(refs(pvars, true))?,
            to_next,
            to_cur,
            cur_vars: vars.iter().map(|v| v.2).collect(),
            cur: refs(&vars, false),
        })
    }

    /// Number of tableau variables (each with two BDD variables).
    pub(crate) fn variables(&self) -> usize {
        self.cur.len()
    }

    /// The product successors of `from`, inside the domain.
    pub(crate) fn image(&self, from: &Bdd) -> SymResult<Bdd> {
        let with_past = from.apply_exists(BooleanOperator::And, &self.past, &self.past_cur)?;
        let moved = self.trans.image(&self.model.enc, &with_past)?;
        let with_future = moved.apply_exists(BooleanOperator::And, &self.future, &self.future_cur)?;
        Ok(with_future.substitute(&self.to_cur)?.and(&self.domain)?)
    }

    /// The product predecessors of `to`, inside the domain.
    pub(crate) fn preimage(&self, to: &Bdd) -> SymResult<Bdd> {
        let shifted = to.substitute(&self.to_next)?;
        let with_future = shifted.apply_exists(BooleanOperator::And, &self.future, &self.future_next)?;
        let moved = self.trans.preimage(&self.model.enc, &with_future)?;
        let with_past = moved.apply_exists(BooleanOperator::And, &self.past, &self.past_next)?;
        Ok(with_past.and(&self.domain)?)
    }

    /// `E[hold U target]` in the product, without fairness.
    fn until(&self, hold: &Bdd, target: &Bdd) -> SymResult<Bdd> {
        let mut z = target.clone();
        let mut frontier = target.clone();
        while frontier.satisfiable() {
            crate::deadline::poll();
            self.model.enc.maybe_reorder();
            let new = self.preimage(&frontier)?.and(hold)?.and(&z.not()?)?;
            z = z.or(&new)?;
            frontier = new;
        }
        Ok(z)
    }

    /// The product states with an infinite path visiting every fairness constraint infinitely
    /// often (Emerson–Lei: `νZ. D ∧ ⋀ₖ EX E[D U (Z ∧ Fₖ)]`, `νZ. D ∧ EX Z` without constraints).
    pub(crate) fn fair_states(&self) -> SymResult<Bdd> {
        let s = &self.domain;
        let mut z = s.clone();
        loop {
            crate::deadline::poll();
            self.model.enc.maybe_reorder();
            let mut next = s.clone();
            if self.fairness.is_empty() {
                next = next.and(&self.preimage(&z)?)?;
            } else {
                for f in &self.fairness {
                    let reach_f = self.until(&z, &z.and(f)?)?;
                    next = next.and(&self.preimage(&reach_f)?)?;
                    if !next.satisfiable() {
                        break;
                    }
                }
            }
            next = next.and(&z)?;
            if next == z {
                return Ok(z);
            }
            z = next;
        }
    }

    /// One product state of `set`, don't-care bits 0.
    pub(crate) fn pick(&self, set: &Bdd) -> SymResult<Option<ProductState>> {
        let enc = &self.model.enc;
        let Some(model) = enc.pick_state(set)? else { return Ok(None) };
        let rest = set.and(&enc.state_cube(&model)?)?;
        let Some(cube) = rest.pick_cube(|_, _, _| false) else {
            return Err(SymbolicError("internal error: a picked model state has no tableau values".into()));
        };
        let tableau = self.cur_vars.iter().map(|&v| matches!(cube.get(v as usize), Some(oxidd::util::OptBool::True))).collect();
        Ok(Some(ProductState { model, tableau }))
    }

    /// The product state as a cube over current bits.
    pub(crate) fn cube(&self, s: &ProductState) -> SymResult<Bdd> {
        let mut c = self.model.enc.state_cube(&s.model)?;
        for (v, &value) in self.cur.iter().zip(&s.tableau) {
            c = c.and(&if value { v.clone() } else { v.not()? })?;
        }
        Ok(c)
    }
}

/// The product as a space for the ring searches of `symbolic::rings` (lassos of `super::ltl`).
impl StateSpace for Tableau<'_> {
    type State = ProductState;
    fn image(&self, set: &Bdd) -> SymResult<Bdd> {
        Tableau::image(self, set)
    }
    fn preimage(&self, set: &Bdd) -> SymResult<Bdd> {
        Tableau::preimage(self, set)
    }
    fn pick(&self, set: &Bdd) -> SymResult<Option<ProductState>> {
        Tableau::pick(self, set)
    }
    fn cube(&self, state: &ProductState) -> SymResult<Bdd> {
        Tableau::cube(self, state)
    }
}

/// `sat` of the formula nodes (arena nodes and past nodes, which read each other: a past node
/// over a future operand, a future formula over a past literal), computed on demand and kept.
struct Sat<'a> {
    model: &'a SymbolicModel,
    arena: &'a Arena,
    past_nodes: &'a [PastNode],
    /// Arena ids (NNF, negation's NNF) of each future operand of a past node.
    futures: &'a [(NnfId, NnfId)],
    /// The current tableau variable of each elementary node and of each past memory.
    fvar: FxHashMap<NnfId, Bdd>,
    pvar: FxHashMap<usize, Bdd>,
    fsat: Vec<Option<Bdd>>,
    psat: Vec<Option<Bdd>>,
}

impl Sat<'_> {
    fn future(&mut self, id: NnfId) -> SymResult<Bdd> {
        if let Some(b) = self.fsat.get(id.index()).and_then(|b| b.clone()) {
            return Ok(b);
        }
        let enc = &self.model.enc;
        let var = || self.fvar.get(&id).cloned().ok_or_else(|| SymbolicError("internal error: an LTL node without its variable".into()));
        let value = match self.arena.node(id) {
            Node::True => enc.t(),
            Node::False => enc.f(),
            Node::Lit(Atom::Prop(p), positive) => literal(&self.model.atoms[p.index()], positive)?,
            Node::Lit(Atom::Past(b), positive) => literal(&self.past(b)?, positive)?,
            Node::And(a, b) => self.future(a)?.and(&self.future(b)?)?,
            Node::Or(a, b) => self.future(a)?.or(&self.future(b)?)?,
            Node::X(_) => var()?,
            Node::U(a, b) => {
                let x = var()?;
                self.future(b)?.or(&self.future(a)?.and(&x)?)?
            }
            Node::R(a, b) => {
                let x = var()?;
                self.future(b)?.and(&self.future(a)?.or(&x)?)?
            }
        };
        match self.fsat.get_mut(id.index()) {
            Some(slot) => *slot = Some(value.clone()),
            None => return Err(SymbolicError("internal error: an LTL node out of the tableau".into())),
        }
        Ok(value)
    }

    fn past(&mut self, i: u32) -> SymResult<Bdd> {
        if let Some(b) = self.psat.get(i as usize).and_then(|b| b.clone()) {
            return Ok(b);
        }
        let enc = &self.model.enc;
        let node = *self.past_nodes.get(i as usize).ok_or_else(|| SymbolicError("internal error: a past node out of the tableau".into()))?;
        let var = || self.pvar.get(&(i as usize)).cloned().ok_or_else(|| SymbolicError("internal error: a past node without its variable".into()));
        let value = match node {
            PastNode::Const(v) => {
                if v {
                    enc.t()
                } else {
                    enc.f()
                }
            }
            PastNode::Prop(p) => self.model.atoms[p.index()].clone(),
            PastNode::Not(a) => self.past(a)?.not()?,
            PastNode::And(a, b) => self.past(a)?.and(&self.past(b)?)?,
            PastNode::Or(a, b) => self.past(a)?.or(&self.past(b)?)?,
            PastNode::Prev(..) => var()?,
            PastNode::Since(a, b, weak) => {
                let p = var()?;
                if weak { self.past(b)?.and(&self.past(a)?.or(&p)?)? } else { self.past(b)?.or(&self.past(a)?.and(&p)?)? }
            }
            PastNode::Future(slot) => {
                let (positive, _) = *self.futures.get(slot as usize).ok_or_else(|| SymbolicError("internal error: an untranslated future operand".into()))?;
                self.future(positive)?
            }
        };
        self.psat[i as usize] = Some(value.clone());
        Ok(value)
    }
}

fn literal(set: &Bdd, positive: bool) -> SymResult<Bdd> {
    Ok(if positive { set.clone() } else { set.not()? })
}

/// Size of a table indexed by the node ids of `nodes` (sorted).
fn arena_len(nodes: &[NnfId]) -> usize {
    nodes.last().map_or(0, |&id| id.index() + 1)
}
