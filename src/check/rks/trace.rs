//! Witnesses and counterexamples of the `check::rks` engines as runs of configurations
//! (component, node, call stack), walked by the shared trace walker [`crate::check::walk`].
//!
//! The run is built on the configurations themselves, guided by a [`Labelling`] (a knowledge
//! base in which the global engine labelled every reachable pair, or the summary engine), so
//! each step's truth values are those of the real configuration. A configuration carries the
//! goal formula's context at each stack level; its key for the `EG` lasso is (component, node,
//! termination, context): what its future depends on (Finis Lemma 3.3.3).
//!
//! `E[ψ U χ]` (and `EF`, `AG`'s dual): a shortest run through configurations satisfying `ψ` to
//! one satisfying `χ`, built from per-pair summaries in time near-linear in the labelled
//! locations ([`until`]); it exists whenever the formula holds. It has no search cap; only a
//! witness longer than [`until::MAX_TRACE_STEPS`] steps is not materialised.

use super::context::restrict;
use super::formula::{FId, Formula, Op};
use super::local::Core;
use crate::check::kleene::Kleene;
use crate::check::trace::{CallFrame, Trace, TraceStep};
use crate::check::walk::{self, Runs};
use crate::ctl::Ctl;
use crate::explicit::rks::{Component, ComponentId, NodeId, RecursiveKripkeStructure};
use crate::ir::PropId;
use crate::ir::TerminationRule;
use fixedbitset::FixedBitSet;

pub(crate) mod until;

pub(crate) use crate::check::walk::has_trace;

/// What a trace needs from a checker: the exact (two-valued) values of the goal's subformulas
/// under `T`/`F` contexts, and the contexts of calls. Implemented by a knowledge base in which
/// the global engine labelled every reachable pair, and by the summary engine.
pub(crate) trait Labelling<'a> {
    fn rks(&self) -> &'a RecursiveKripkeStructure;
    fn fm(&self) -> &'a Formula;
    /// Where `h` holds in component `s` under its context `ctx` (calls: false).
    fn locations(&self, h: FId, s: ComponentId, ctx: &[Kleene]) -> FixedBitSet;
    /// Whether `h` holds at location `node` of `s` under its context `ctx`.
    fn value(&self, h: FId, s: ComponentId, ctx: &[Kleene], node: NodeId) -> bool;
    /// The context of `f` in the callee of call `call` of `s`, from `f`'s context `ctx`.
    fn call_context(&self, s: ComponentId, call: NodeId, f: FId, ctx: &[Kleene]) -> Vec<Kleene>;

    fn comp(&self, s: ComponentId) -> &'a Component {
        &self.rks().components[s.index()]
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
        let c = &self.rks.components[s.index()];
        let view = self.resolve(h, s, ctx);
        let mut out = FixedBitSet::with_capacity(c.num_nodes as usize);
        for l in c.nodes() {
            out.set(l.index(), !c.is_call(l) && self.val(&view, s, l) == Kleene::True);
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
pub(crate) fn explain(
    rks: &RecursiveKripkeStructure,
    fm: &Formula,
    root: FId,
    init: ComponentId,
    formula: &Ctl<PropId>,
    holds: bool,
    icc: &dyn Fn(FId) -> Vec<Kleene>,
) -> Option<Trace> {
    let mut g = Core::new(rks, fm);
    super::global::run_root(&mut g, root, init, icc);
    explain_with(&g, root, init, formula, holds, icc)
}

/// [`explain`] from labels that are already known (or computed on demand) by `labels`.
pub(crate) fn explain_with<'a>(
    labels: &dyn Labelling<'a>,
    root: FId,
    init: ComponentId,
    formula: &Ctl<PropId>,
    holds: bool,
    icc: &dyn Fn(FId) -> Vec<Kleene>,
) -> Option<Trace> {
    walk::explain(&Walker { core: labels, fm: labels.fm(), init, icc }, root, formula, holds)
}

/// A configuration, with the goal formula's context at each stack level (level 0 = the
/// initial context; level `i` = the context after the `i`-th pending call).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
struct Conf {
    stack: Vec<CallFrame>,
    ctxs: Vec<Vec<Kleene>>,
    comp: ComponentId,
    node: NodeId,
    term: bool,
}

struct Walker<'c, 'a> {
    core: &'c dyn Labelling<'a>,
    fm: &'a Formula,
    init: ComponentId,
    icc: &'c dyn Fn(FId) -> Vec<Kleene>,
}

impl Runs for Walker<'_, '_> {
    type Conf = Conf;
    type Key = (ComponentId, NodeId, bool, Vec<Kleene>);

    fn op(&self, f: FId) -> Op {
        self.fm.op(f)
    }

    fn holds_initially(&self, f: FId) -> bool {
        self.core.value(f, self.init, &(self.icc)(f), NodeId::ENTRY)
    }

    fn start(&self, goal: FId) -> Conf {
        Conf { stack: Vec::new(), ctxs: vec![(self.icc)(goal)], comp: self.init, node: NodeId::ENTRY, term: false }
    }

    fn holds(&self, goal: FId, h: FId, c: &Conf) -> bool {
        if c.term {
            return self.fm.value_in_loop(h, &|_| false);
        }
        let top = c.ctxs.last().expect("a configuration has a context");
        let ctx = restrict(self.fm, goal, h, top, self.core.comp(c.comp).exits.len());
        self.core.value(h, c.comp, &ctx, c.node)
    }

    fn narrow(&self, mut c: Conf, from: FId, to: FId) -> Conf {
        // Level 0 runs the initial component, level `i` the callee of the `i`-th pending call.
        let levels = std::iter::once(self.init).chain(c.stack.iter().map(|f| self.core.comp(f.component()).call_target[f.call().index()]));
        for (ctx, s) in c.ctxs.iter_mut().zip(levels) {
            *ctx = restrict(self.fm, from, to, ctx, self.core.comp(s).exits.len()).to_vec();
        }
        c
    }

    fn marked_steps(&self) -> &[(FId, FId)] {
        &self.fm.dag.steps
    }

    fn succs(&self, goal: FId, c: &Conf) -> Vec<Conf> {
        if c.term {
            return vec![c.clone()];
        }
        let comp = self.core.comp(c.comp);
        if let Some(k) = self.core.exit_index(c.comp, c.node) {
            let Some((frame, rest)) = c.stack.split_last() else {
                return match self.core.rks().termination {
                    TerminationRule::Trap => vec![Conf { term: true, ..c.clone() }],
                    TerminationRule::Loop => vec![c.clone()],
                };
            };
            let (s, call) = (frame.component(), frame.call());
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
                    stack.push(CallFrame::new(c.comp, x));
                    let mut ctxs = c.ctxs.clone();
                    ctxs.push(self.core.call_context(c.comp, x, goal, c.ctxs.last().expect("context")));
                    Conf { stack, ctxs, comp: comp.call_target[x.index()], node: NodeId::ENTRY, term: false }
                } else {
                    Conf { node: x, ..c.clone() }
                }
            })
            .collect()
    }

    fn key(&self, c: &Conf) -> Self::Key {
        (c.comp, c.node, c.term, c.ctxs.last().map_or_else(Vec::new, |x| x.clone()))
    }

    fn depth(&self, c: &Conf) -> usize {
        c.stack.len()
    }

    fn frames_from(&self, c: &Conf, from: usize) -> Vec<CallFrame> {
        c.stack[from..].to_vec()
    }

    fn step(&self, c: Conf) -> TraceStep {
        if c.term { TraceStep::terminated() } else { TraceStep::at(c.comp, c.node, c.stack) }
    }

    fn until(&self, goal: FId, a: FId, b: FId, _start: Conf) -> Option<Vec<TraceStep>> {
        until::UntilSearch::run(self.core, goal, a, b, self.init, (self.icc)(goal))
    }
}
