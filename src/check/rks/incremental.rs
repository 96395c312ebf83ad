//! The incremental engine: Finis 2012 chapter 4 (Alg. 4.1–4.5) with the digest's fixes
//! (finis-2012-digest.md §5.6–5.7):
//!
//! * local checking of a pair from what the knowledge base already knows,
//! * vertical checking: label the direct subformulas fully in the same component, retry,
//! * horizontal checking: explore the callees (partly), retrying after each, and solve the
//!   remaining loop of undecided `EG`/`EU` pairs with `labelByFixpoint`;
//! * FIX-1: a context covers only its own completions (an `M` top covers both twins, a `T`/`F`
//!   top only itself); writes under an `M` top go to every completion;
//! * FIX-2: the horizontal step of `EX ψ` labels `ψ` at the callee's entry;
//! * FIX-3: before a call's context is used, every proper subformula of the context is decided
//!   in the call's continuations (labelled fully in the caller if needed).

use super::context::{Ctx, restrict};
use super::formula::{FId, Op};
use super::kb::PairId;
use super::local::Core;
use crate::check::kleene::Kleene;
use crate::explicit::rks::{ComponentId, NodeId};
use rustc_hash::FxHashSet;

#[derive(Clone, Copy, PartialEq, Eq)]
enum Mode {
    Partly,
    Fully,
}

/// The pairs collected by one `label` call (Ξ), in collection order.
#[derive(Default)]
struct Xi {
    order: Vec<PairId>,
    set: FxHashSet<PairId>,
}

impl Xi {
    fn insert(&mut self, p: PairId) {
        if self.set.insert(p) {
            self.order.push(p);
        }
    }
}

/// Decides the root at the initial configuration, labelling as little as possible.
pub fn run(core: &mut Core, init: ComponentId, icc: &[Kleene]) -> Kleene {
    run_root(core, core.fm.root, init, icc)
}

/// [`run`] for the formula rooted at `root` of a shared DAG; `icc` is `root`'s initial context.
pub(crate) fn run_root(core: &mut Core, root: FId, init: ComponentId, icc: &[Kleene]) -> Kleene {
    label(core, root, init, icc, Mode::Partly);
    core.get(root, init, icc, NodeId::ENTRY)
}

fn is_labeled(core: &Core, f: FId, s: ComponentId, ctx: &[Kleene], mode: Mode) -> bool {
    core.is_labeled(f, s, ctx, mode == Mode::Fully)
}

/// Alg. 4.1 (corrected): `ctx` has no `M`.
fn label(core: &mut Core, f: FId, s: ComponentId, ctx: &[Kleene], mode: Mode) {
    if is_labeled(core, f, s, ctx, mode) {
        return;
    }
    let mut xi = Xi::default();
    explore(core, &mut xi, f, s, ctx, mode);
    let mut todo: Vec<PairId> = xi
        .order
        .iter()
        .copied()
        .filter(|&p| {
            let (c, x): (_, Ctx) = (core.kb.pairs[p].comp, core.kb.ctx_of(p).into());
            !core.is_labeled(f, c, &x, false)
        })
        .collect();
    if mode == Mode::Fully && !is_labeled(core, f, s, ctx, Mode::Fully) {
        for p in core.pairs_of(f, s, ctx) {
            if !todo.contains(&p) {
                todo.push(p);
            }
        }
    }
    if !todo.is_empty() {
        let roots = core.pairs_of(f, s, ctx);
        core.label_by_fixpoint(f, &todo, &roots, false, &mut |core, p| prepare(core, f, p));
    }
}

/// Makes a pair that joins a fixpoint late ready for `decideRemainingMaybes` (Lemma 4.5.3):
/// its direct subformulas fully labelled, its calls' continuations decided (FIX-3).
fn prepare(core: &mut Core, f: FId, p: PairId) {
    let (s, ctx): (_, Ctx) = (core.kb.pairs[p].comp, core.kb.ctx_of(p).into());
    let e = core.exits(s);
    for a in core.fm.op(f).children() {
        let sub = restrict(core.fm, f, a, &ctx, e);
        if !is_labeled(core, a, s, &sub, Mode::Fully) {
            label(core, a, s, &sub, Mode::Fully);
        }
    }
    for &c in &core.comp(s).calls {
        ensure_inner_decided(core, f, s, c, &ctx);
    }
}

/// Alg. 4.2's λ (corrected): `ctx` may have `M` tops, no inner `M`.
fn explore(core: &mut Core, xi: &mut Xi, f: FId, s: ComponentId, ctx: &[Kleene], mode: Mode) {
    for p in core.pairs_of(f, s, ctx) {
        xi.insert(p);
    }
    label_locally_and_vertically(core, f, s, ctx, mode);
    let op = core.fm.op(f);
    if !matches!(op, Op::EX(_) | Op::EG(_) | Op::EU(..)) {
        return; // ⊤ p ¬ ∨ ∧ are decided by local + vertical checking
    }
    let comp = core.comp(s);
    for &c in &comp.calls {
        if is_labeled(core, f, s, ctx, mode) {
            break;
        }
        if ensure_inner_decided(core, f, s, c, ctx) {
            core.label_local(f, s, ctx);
            if is_labeled(core, f, s, ctx, mode) {
                break;
            }
        }
        let t = comp.call_target[c.index()];
        if let Op::EX(a) = op {
            let sub = restrict(core.fm, f, a, ctx, core.exits(s));
            let cctx = core.cc(s, c, a, &sub);
            if !is_labeled(core, a, t, &cctx, Mode::Partly) {
                label(core, a, t, &cctx, Mode::Partly);
            }
            core.label_local(f, s, ctx);
            continue;
        }
        let cctx = core.cc(s, c, f, ctx);
        let covered = core.pairs_of(f, t, &cctx).iter().all(|p| xi.set.contains(p));
        if !covered && !is_labeled(core, f, t, &cctx, Mode::Partly) {
            stacker::maybe_grow(256 * 1024, 8 * 1024 * 1024, || explore(core, xi, f, t, &cctx, Mode::Partly));
            // Retry only if the callee's entry got decided (otherwise the retry could at most
            // see other callees decided meanwhile; the fixpoint reads those anyway).
            if core.get(f, t, &cctx, NodeId::ENTRY).is_known() {
                core.label_local(f, s, ctx);
            }
        }
    }
}

/// Alg. 4.3.
fn label_locally_and_vertically(core: &mut Core, f: FId, s: ComponentId, ctx: &[Kleene], mode: Mode) {
    if is_labeled(core, f, s, ctx, mode) {
        return;
    }
    core.label_local(f, s, ctx);
    if is_labeled(core, f, s, ctx, mode) {
        return;
    }
    let mut changed = false;
    let e = core.exits(s);
    for a in core.fm.op(f).children() {
        let sub = restrict(core.fm, f, a, ctx, e);
        if !is_labeled(core, a, s, &sub, Mode::Fully) {
            stacker::maybe_grow(256 * 1024, 8 * 1024 * 1024, || label(core, a, s, &sub, Mode::Fully));
            changed = true;
        }
    }
    if changed {
        core.label_local(f, s, ctx);
    }
}

/// FIX-3: every proper subformula recorded in `f`'s contexts must be decided in the
/// continuations of call `c` before `cc` is used for exploration. Returns true if it labelled.
fn ensure_inner_decided(core: &mut Core, f: FId, s: ComponentId, c: NodeId, ctx: &[Kleene]) -> bool {
    let comp = core.comp(s);
    let t = comp.call_target[c.index()];
    let e = core.exits(s);
    let mut did = false;
    for g in core.fm.deps[f].clone() {
        if g == f {
            continue;
        }
        let sub = restrict(core.fm, f, g, ctx, e);
        let undecided = (0..core.exits(t)).any(|k| comp.returns(c, k).iter().any(|&r| !core.get(g, s, &sub, r).is_known()));
        if undecided {
            label(core, g, s, &sub, Mode::Fully);
            did = true;
        }
    }
    did
}
