//! The global engine: Finis 2012 chapter 3 (Alg. 3.1–3.8), the proven algorithm.
//!
//! Bottom-up over the formula DAG; for each node: collect every context pair reachable from the
//! initial pair (Alg. 3.2, depth-first in call order, with the twins an `M` top covers), then
//! label them all: pointwise for `¬ ∨ ∧`, one pass for `EX`, `labelByFixpoint` +
//! `decideRemainingMaybes` for `EG`/`EU`.

use super::context::Ctx;
use super::formula::FId;
use super::kb::PairId;
use super::local::Core;
use crate::check::kleene::Kleene;
use crate::explicit::rks::{ComponentId, NodeId};
use rustc_hash::FxHashSet;

/// Labels every node of the formula in all reachable pairs; returns the root's value at the
/// initial configuration.
pub fn run(core: &mut Core, init: ComponentId, icc: &dyn Fn(FId) -> Vec<Kleene>) -> Kleene {
    run_root(core, core.fm.root, init, icc)
}

/// [`run`] for the formula rooted at `root` of a shared DAG.
pub(crate) fn run_root(core: &mut Core, root: FId, init: ComponentId, icc: &dyn Fn(FId) -> Vec<Kleene>) -> Kleene {
    let fm = core.fm;
    for f in fm.sub_dag(root) {
        if fm.is_static(f) {
            continue;
        }
        let start = icc(f);
        let xi = collect(core, f, init, start.clone());
        if fm.op(f).is_fixpoint() {
            let roots = core.pairs_of(f, init, &start);
            core.label_by_fixpoint(f, &xi, &roots, true, &mut |_, _| {});
            // Contexts refined during the fixpoint may reach `T`/`F` pairs that no live pair
            // read; collect again (tops now decided) until every reachable one is complete.
            loop {
                crate::deadline::poll();
                let again = collect(core, f, init, start.clone());
                let todo: Vec<PairId> =
                    again.into_iter().filter(|&p| !core.is_complete(p) && core.top_maybes(f, core.kb.pairs[p].comp, core.kb.ctx_of(p)) == 0).collect();
                if todo.is_empty() {
                    break;
                }
                core.label_by_fixpoint(f, &todo, &todo, true, &mut |_, _| {});
            }
        } else {
            for p in xi {
                let (s, ctx): (_, Ctx) = (core.kb.pairs[p].comp, core.kb.ctx_of(p).into());
                core.label_local(f, s, &ctx);
            }
        }
    }
    core.get(root, init, &icc(root), NodeId::ENTRY)
}

/// `collectContexts` (Alg. 3.2): the pairs of `f` reachable from `(init, ctx)`, in DFS order.
fn collect(core: &mut Core, f: FId, init: ComponentId, ctx: Vec<Kleene>) -> Vec<PairId> {
    let ctx: Ctx = ctx.into();
    let mut xi = Vec::new();
    let mut seen: FxHashSet<PairId> = FxHashSet::default();
    let mut stack = vec![(init, ctx)];
    while let Some((s, ctx)) = stack.pop() {
        crate::deadline::tick(seen.len());
        let pairs = core.pairs_of(f, s, &ctx);
        if pairs.iter().all(|p| seen.contains(p)) {
            continue;
        }
        for p in pairs {
            if seen.insert(p) {
                xi.push(p);
            }
        }
        let comp = core.comp(s);
        for &c in comp.calls.iter().rev() {
            let cctx = core.cc(s, c, f, &ctx);
            stack.push((comp.call_target[c.index()], cctx));
        }
    }
    xi
}
