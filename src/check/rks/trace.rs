//! Witnesses and counterexamples as runs of configurations (component, node, call stack).
//!
//! A true top-level `EX`/`EF`/`EG`/`E[U]` gets a witness; a false `AX`/`AF`/`AG`/`A[U]` gets a
//! counterexample (a witness of the dual existential formula). The run is built on the
//! configurations themselves, guided by a knowledge base in which the global engine labelled
//! every reachable pair, so each step's truth values are those of the real configuration:
//!
//! * `EX ψ`: the initial configuration and a successor satisfying `ψ`;
//! * `E[ψ U χ]` (and `EF`, `AG`'s dual): a shortest run through configurations satisfying `ψ`
//!   to one satisfying `χ`, built from per-pair summaries in time near-linear in the labelled
//!   locations ([`until`]); it exists whenever the formula holds;
//! * `EG ψ` (and `AF`'s dual): a lasso. The walk stays on configurations satisfying `EG ψ`;
//!   it stops at the first position `j` that repeats the (component, node, context) of an
//!   earlier position `i` whose stack the walk never popped since. The part `i..j` then repeats
//!   forever; if `j`'s stack is deeper, each repetition pushes the same frames again
//!   ([`RksTrace::loop_push`]): a loop through recursion.
//!
//! The lasso walk is capped at [`SEARCH_LIMIT`] configurations; beyond it no trace is returned.
//! Witnesses of `E[U]` have no search cap; only one longer than [`until::MAX_TRACE_STEPS`]
//! steps is not materialised.

use super::context::restrict;
use super::formula::{FId, Formula, Op};
use super::local::Core;
use crate::check::kleene::Kleene;
use crate::ctl::Ctl;
use crate::explicit::rks::{Component, ComponentId, NodeId, PropId, RecursiveKripkeStructure};
use crate::ir::TerminationRule;
use fixedbitset::FixedBitSet;
use rustc_hash::FxHashMap;

pub mod until;

/// Length at most of the walk that looks for an `EG` lasso.
pub const SEARCH_LIMIT: usize = 200_000;

/// One configuration of a run.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum RksStep {
    /// At `node` of `component`; `stack` lists the pending calls bottom first, as (component
    /// containing the call, call node). The initial configuration has an empty stack.
    At { component: ComponentId, node: NodeId, stack: Vec<(ComponentId, NodeId)> },
    /// The label-free termination state of the `trap` rule (loops forever).
    Terminated,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RksTrace {
    /// True for a counterexample to a universal spec, false for a witness of an existential one.
    pub counterexample: bool,
    pub steps: Vec<RksStep>,
    /// `Some(i)`: after the last step the run continues at `steps[i]` forever (a lasso);
    /// `None`: a finite run whose last step satisfies the spec's goal.
    pub loop_start: Option<usize>,
    /// Frames pushed per repetition of the loop: in repetition `r` step `i ≥ loop_start` has the
    /// stack `steps[i].stack[..d] ++ loop_push^r ++ steps[i].stack[d..]` with `d` the stack depth
    /// at `loop_start`. Empty for a plain lasso.
    pub loop_push: Vec<(ComponentId, NodeId)>,
}

/// What a trace needs from a checker: the exact (two-valued) values of the goal's subformulas
/// under `T`/`F` contexts, and the contexts of calls. Implemented by a knowledge base in which
/// the global engine labelled every reachable pair, and by the summary engine.
pub trait Labelling<'a> {
    fn rks(&self) -> &'a RecursiveKripkeStructure;
    fn fm(&self) -> &'a Formula;
    /// Where `h` holds in component `s` under its context `ctx` (calls: false).
    fn locations(&self, h: FId, s: ComponentId, ctx: &[Kleene]) -> FixedBitSet;
    /// Whether `h` holds at location `node` of `s` under its context `ctx`.
    fn value(&self, h: FId, s: ComponentId, ctx: &[Kleene], node: NodeId) -> bool;
    /// The context of `f` in the callee of call `call` of `s`, from `f`'s context `ctx`.
    fn call_context(&self, s: ComponentId, call: NodeId, f: FId, ctx: &[Kleene]) -> Vec<Kleene>;

    fn comp(&self, s: ComponentId) -> &'a Component {
        &self.rks().components[s as usize]
    }
    fn exit_index(&self, s: ComponentId, n: NodeId) -> Option<usize> {
        self.comp(s).exits.iter().position(|&x| x == n)
    }
}

impl<'a> Labelling<'a> for Core<'a> {
    fn rks(&self) -> &'a RecursiveKripkeStructure {
        self.rks
    }
    fn fm(&self) -> &'a Formula {
        self.fm
    }
    fn locations(&self, h: FId, s: ComponentId, ctx: &[Kleene]) -> FixedBitSet {
        let c = &self.rks.components[s as usize];
        let view = self.resolve(h, s, ctx);
        let mut out = FixedBitSet::with_capacity(c.num_nodes as usize);
        for l in 0..c.num_nodes {
            out.set(l as usize, !c.is_call(l) && self.val(&view, s, l) == Kleene::True);
        }
        out
    }
    fn value(&self, h: FId, s: ComponentId, ctx: &[Kleene], node: NodeId) -> bool {
        self.get(h, s, ctx, node) == Kleene::True
    }
    fn call_context(&self, s: ComponentId, call: NodeId, f: FId, ctx: &[Kleene]) -> Vec<Kleene> {
        self.cc(s, call, f, ctx).to_vec()
    }
}

/// Builds the witness or counterexample of `formula` (checked with verdict `holds`), if the
/// spec has a trace-bearing shape. Labels the formula globally in a fresh knowledge base.
pub fn explain(
    rks: &RecursiveKripkeStructure,
    fm: &Formula,
    root: FId,
    init: ComponentId,
    formula: &Ctl<PropId>,
    holds: bool,
    icc: &dyn Fn(FId) -> Vec<Kleene>,
) -> Option<RksTrace> {
    let mut g = Core::new(rks, fm);
    super::global::run_root(&mut g, root, init, icc);
    explain_with(&g, root, init, formula, holds, icc)
}

fn is_existential(formula: &Ctl<PropId>) -> bool {
    matches!(formula, Ctl::EX(_) | Ctl::EF(_) | Ctl::EG(_) | Ctl::EU(..))
}

/// True if a spec `formula` with verdict `holds` gets a trace: a witness when it is true and
/// existential, a counterexample when it is false and universal.
pub(crate) fn has_trace(formula: &Ctl<PropId>, holds: bool) -> bool {
    if holds { is_existential(formula) } else { formula.is_universal() }
}

/// [`explain`] from labels that are already known (or computed on demand) by `labels`.
pub fn explain_with<'a>(
    labels: &dyn Labelling<'a>,
    root: FId,
    init: ComponentId,
    formula: &Ctl<PropId>,
    holds: bool,
    icc: &dyn Fn(FId) -> Vec<Kleene>,
) -> Option<RksTrace> {
    let fm = labels.fm();
    let existential = is_existential(formula);
    let (goal, counterexample) = if existential && holds {
        (root, false)
    } else if formula.is_universal() && !holds {
        match fm.op(root) {
            Op::Not(g) => (g, true),
            _ => return None,
        }
    } else {
        return None;
    };
    let pick = Walker { core: labels, fm, goal, icc };
    let start = Conf { stack: Vec::new(), ctxs: vec![icc(goal)], comp: init, node: 0, term: false };
    let goal = pick.pick_disjunct(goal, &start)?;
    let w = Walker { core: labels, fm, goal, icc };
    let start = Conf { stack: Vec::new(), ctxs: vec![icc(goal)], comp: init, node: 0, term: false };
    let (steps, loop_start, loop_push) = match fm.op(goal) {
        Op::EX(a) => {
            let next = w.succs(&start).into_iter().find(|c| w.value(a, c))?;
            (vec![start, next], None, Vec::new())
        }
        Op::EU(a, b) => {
            let steps = until::UntilSearch::run(labels, goal, a, b, init, icc(goal))?;
            return Some(RksTrace { counterexample, steps, loop_start: None, loop_push: Vec::new() });
        }
        Op::EG(_) => {
            let (steps, i, push) = w.lasso(start)?;
            (steps, Some(i), push)
        }
        _ => return None,
    };
    Some(RksTrace { counterexample, steps: steps.into_iter().map(Conf::step).collect(), loop_start, loop_push })
}

/// A configuration, with the goal formula's context at each stack level (level 0 = the
/// initial context; level `i` = the context after the `i`-th pending call).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
struct Conf {
    stack: Vec<(ComponentId, NodeId)>,
    ctxs: Vec<Vec<Kleene>>,
    comp: ComponentId,
    node: NodeId,
    term: bool,
}

impl Conf {
    fn step(self) -> RksStep {
        if self.term { RksStep::Terminated } else { RksStep::At { component: self.comp, node: self.node, stack: self.stack } }
    }
    /// What the future of the run depends on (Finis Lemma 3.3.3): configurations with the same
    /// key satisfy the same subformulas of the goal, and so do their successors, step by step.
    fn key(&self) -> (ComponentId, NodeId, bool, &[Kleene]) {
        (self.comp, self.node, self.term, self.ctxs.last().map_or(&[][..], |c| c.as_slice()))
    }
}

struct Walker<'c, 'a> {
    core: &'c dyn Labelling<'a>,
    fm: &'a Formula,
    /// The formula being explained; `h` in [`Walker::value`] must be in its sub-DAG.
    goal: FId,
    icc: &'c dyn Fn(FId) -> Vec<Kleene>,
}

impl Walker<'_, '_> {
    fn value(&self, h: FId, c: &Conf) -> bool {
        if c.term {
            return self.fm.value_in_loop(h, &|_| false);
        }
        let top = c.ctxs.last().expect("a configuration has a context");
        let ctx = restrict(self.fm, self.goal, h, top, self.core.comp(c.comp).exits.len());
        self.core.value(h, c.comp, &ctx, c.node)
    }

    /// For `A[U]`'s dual `E[..] ∨ EG ..`: the disjunct that holds.
    fn pick_disjunct(&self, g: FId, start: &Conf) -> Option<FId> {
        match self.fm.op(g) {
            Op::Or(x, y) => [x, y].into_iter().find(|&d| self.core.value(d, start.comp, &(self.icc)(d), 0)),
            _ => Some(g),
        }
    }

    fn succs(&self, c: &Conf) -> Vec<Conf> {
        if c.term {
            return vec![c.clone()];
        }
        let comp = self.core.comp(c.comp);
        if let Some(k) = self.core.exit_index(c.comp, c.node) {
            let Some((&(s, call), rest)) = c.stack.split_last() else {
                return match self.core.rks().termination {
                    TerminationRule::Trap => vec![Conf { term: true, ..c.clone() }],
                    TerminationRule::Loop => vec![c.clone()],
                };
            };
            let ctxs = c.ctxs[..c.ctxs.len() - 1].to_vec();
            let caller = self.core.comp(s);
            return caller.returns(call, k).iter().map(|&r| Conf { stack: rest.to_vec(), ctxs: ctxs.clone(), comp: s, node: r, term: false }).collect();
        }
        comp.succ
            .neighbours(c.node)
            .iter()
            .map(|&x| {
                if comp.is_call(x) {
                    let mut stack = c.stack.clone();
                    stack.push((c.comp, x));
                    let mut ctxs = c.ctxs.clone();
                    ctxs.push(self.core.call_context(c.comp, x, self.goal, c.ctxs.last().expect("context")));
                    Conf { stack, ctxs, comp: comp.call_target[x as usize], node: 0, term: false }
                } else {
                    Conf { node: x, ..c.clone() }
                }
            })
            .collect()
    }

    /// Returns (steps, loop start, frames pushed per repetition).
    #[allow(clippy::type_complexity)]
    fn lasso(&self, start: Conf) -> Option<(Vec<Conf>, usize, Vec<(ComponentId, NodeId)>)> {
        type Key = (ComponentId, NodeId, bool, Vec<Kleene>);
        let mut path: Vec<Conf> = Vec::new();
        // Positions whose stack depth no later position went below, and their keys.
        let mut candidates: Vec<usize> = Vec::new();
        let mut by_key: FxHashMap<Key, Vec<usize>> = FxHashMap::default();
        let mut keys: Vec<Key> = Vec::new();
        let mut cur = start;
        while path.len() < SEARCH_LIMIT {
            let depth = cur.stack.len();
            while let Some(&i) = candidates.last() {
                if path[i].stack.len() <= depth {
                    break;
                }
                candidates.pop();
                if let Some(v) = by_key.get_mut(&keys[i]) {
                    v.pop();
                }
            }
            let (x, y, z, w) = cur.key();
            let key: Key = (x, y, z, w.to_vec());
            if let Some(&i) = by_key.get(&key).and_then(|v| v.last()) {
                let d = path[i].stack.len();
                let push = cur.stack[d..].to_vec();
                return Some((path, i, push));
            }
            let j = path.len();
            path.push(cur.clone());
            keys.push(key.clone());
            candidates.push(j);
            by_key.entry(key).or_default().push(j);
            cur = self.succs(&cur).into_iter().find(|n| self.value(self.goal, n))?;
        }
        None
    }
}
