//! `LazyCheck′` (journal Alg. 5 with H = GetNextExpansion): refine everything once, then while
//! A₀'s entry is unknown, contextualise the box FindReason names, or resolve the global
//! dependency cycles it detected (∃G → tt, ∃U → ff, only pairs in `D`).
//!
//! Soundness guard (our addition; RSMCheck's lazy mode crashes or answers wrongly on some
//! inputs, and the paper's Thm. 3 argument overlooks it): cycle detection in `D` ignores the box
//! stack, so a detected "cycle" may return into a box other than the one it entered through,
//! whose return value may differ. Before resolving, `D` (one formula at a time, lowest first) is
//! shrunk to its largest subset `S` that justifies the resolution on its own:
//! for ∃Gφ₁ every node of `S` has φ₁ = tt and a `→₊` successor in `S` or known tt — an exit of
//! copy `X` needs the return nodes of *all* live boxes mapped to `X` in `S` or tt; for ∃(φ₁Uφ₂)
//! every node has φ₂ = ff and φ₁ = ff or all successors (return nodes, for exits) in `S` or ff.
//! If nothing of `D` survives, the same filter is applied to all pairs FindReason was called on
//! in this search (all returned ∅): FindReason skips a pair already explored on another branch
//! instead of re-exploring it as the paper's R-only search would, so cycles through such pairs
//! are not recorded in `D` (on random models this widening is needed in about one resolution in
//! ten). If nothing survives either, the lazy loop falls back to a complete heuristic (contextualise some box
//! of C(A,Φ,γ,∂)); if C is empty, Lemma 6 applies to the lowest formula with unknowns, which is
//! resolved everywhere as in the eager loop (and should Lemma 6 fail, the eager loop finishes
//! the check from the current state). Fallbacks are counted in the statistics; on 10,000 random
//! models of the differential test none was needed.
//!
//! Why it matters: with FindReason reduced to the digest's literal reading (an exit is left only
//! to the stack's top box) and unguarded resolution of `D`, lazy answers wrongly on
//! `recursive_exit_parity_regression` in `tests/ternary_examples.rs`; the guard or the
//! all-callers rule of FindReason alone each fixes that case, and we keep both.

use super::eager;
use super::find_reason::{Pair, get_next_expansion};
use super::formula::{FormulaId, Op};
use super::model::{CopyId, Model};
use super::refine::refine;
use crate::check::kleene::Kleene;
use crate::explicit::rks::NodeId;
use rustc_hash::FxHashSet;

pub(crate) fn run(m: &mut Model) {
    refine_all(m);
    while !m.root_value().is_known() {
        crate::deadline::poll();
        m.stats.expansions += 1;
        let exp = get_next_expansion(m);
        m.stats.cycle_pairs += exp.d.len() as u64;
        if let Some((y, c)) = exp.b {
            if m.contextualize(y, c) {
                m.remove_unreachable();
            } else {
                // FindReason only names boxes of C; a box whose context already equals its
                // return values cannot be one. Stay safe: fall back.
                fallback(m);
            }
        } else if !resolve_detected(m, &exp.d) && !resolve_detected(m, &exp.requested_pairs()) {
            fallback(m);
        }
        refine_all(m);
    }
}

fn refine_all(m: &mut Model) {
    for f in m.phi.nodes.indices() {
        refine(m, f);
    }
}

/// Complete-heuristic fallback: contextualise one box of C; if C is empty, resolve the lowest
/// formula with unknowns (Lemma 6 holds: Contextualize and RefineTernary are at a fixpoint and
/// all its strict subformulas are known everywhere).
fn fallback(m: &mut Model) {
    m.stats.fallbacks += 1;
    if let Some((y, c)) = contextualizable_box(m) {
        let changed = m.contextualize(y, c);
        debug_assert!(changed);
        m.remove_unreachable();
        return;
    }
    let lowest = m.phi.nodes.indices().find(|&f| m.live.iter().any(|&x| (0..m.base_of(x).ext).any(|v| m.val(x, v, f) == Kleene::Unknown)));
    let Some(f) = lowest else { return };
    let value = match m.phi.op(f) {
        Op::EG(_) => Kleene::True,
        Op::EU(..) => Kleene::False,
        // Cannot happen by Lemma 6. Should it, the eager loop still finishes soundly from here.
        _ => return eager::run(m),
    };
    m.resolve_all_unknown(f, value);
}

/// A box `b` with some exit `k` and existential `φ` where `∂((b,ex_k),φ)` is known but the
/// callee copy's context is `??`.
fn contextualizable_box(m: &Model) -> Option<(CopyId, NodeId)> {
    for &y in &m.live {
        let comp = &m.rks.components[m.copies[y].base.index()];
        for &c in &comp.calls {
            let x = m.callee(y, c);
            let exits = m.rks.components[m.copies[x].base.index()].exits.len() as u32;
            for k in 0..exits {
                let r = m.return_node(y, c, k);
                for &f in &m.phi.existentials {
                    if m.val(y, r, f).is_known() && !m.ctx(x, k, f).is_known() {
                        return Some((y, c));
                    }
                }
            }
        }
    }
    None
}

/// Modified global dependency cycle resolution, restricted to `D` and to its self-justifying
/// part (see the module doc). Returns true if some value was resolved.
fn resolve_detected(m: &mut Model, d: &[Pair]) -> bool {
    let mut formulas: Vec<FormulaId> = d.iter().map(|p| p.2).collect();
    formulas.sort_unstable();
    formulas.dedup();
    for f in formulas {
        let value = match m.phi.op(f) {
            Op::EG(_) => Kleene::True,
            Op::EU(..) => Kleene::False,
            _ => continue,
        };
        let candidates: FxHashSet<(CopyId, u32)> = d.iter().filter(|p| p.2 == f && m.val(p.0, p.1, f) == Kleene::Unknown).map(|p| (p.0, p.1)).collect();
        let safe = justified_subset(m, f, candidates);
        if !safe.is_empty() {
            let mut safe: Vec<_> = safe.into_iter().collect();
            safe.sort_unstable();
            for (x, v) in safe {
                m.resolve(x, v, f, value);
            }
            return true;
        }
    }
    false
}

/// The largest subset `S` of `set` in which every node justifies resolving `f` (module doc).
fn justified_subset(m: &Model, f: FormulaId, mut set: FxHashSet<(CopyId, u32)>) -> FxHashSet<(CopyId, u32)> {
    let (target, a, b) = match m.phi.op(f) {
        Op::EG(a) => (Kleene::True, a, None),
        Op::EU(a, b) => (Kleene::False, a, Some(b)),
        _ => return FxHashSet::default(),
    };
    loop {
        crate::deadline::poll();
        let ok_next = |s: &FxHashSet<(CopyId, u32)>, y: CopyId, w: u32| s.contains(&(y, w)) || m.val(y, w, f) == target;
        let keep = |&(x, v): &(CopyId, u32)| -> bool {
            let local_ok = match b {
                None => m.val(x, v, a) == Kleene::True,
                Some(b) => m.val(x, v, b) == Kleene::False,
            };
            if !local_ok {
                return false;
            }
            if b.is_some() && m.val(x, v, a) == Kleene::False {
                return true;
            }
            let base = m.base_of(x);
            if base.is_exit(v) {
                // Each stack returns into its own box: every caller's return node must qualify.
                let k = base.exit_of[v as usize];
                let callers = &m.callers[x];
                return !callers.is_empty() && callers.iter().all(|&(y, c)| ok_next(&set, y, m.return_node(y, c, k)));
            }
            let (mut any, mut all) = (false, true);
            m.for_each_succ(x, v, |y, w| {
                let ok = ok_next(&set, y, w);
                any |= ok;
                all &= ok;
            });
            if target == Kleene::True { any } else { all }
        };
        let next: FxHashSet<(CopyId, u32)> = set.iter().copied().filter(|p| keep(p)).collect();
        if next.len() == set.len() {
            return set;
        }
        set = next;
    }
}
