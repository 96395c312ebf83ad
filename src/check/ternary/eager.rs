//! `EagerCheck` (journal Alg. 4): for each subformula bottom-up, alternate `Contextualize` on
//! every box and `RefineTernary` until neither changes anything, then resolve the remaining
//! global dependency cycles (Lemma 6): `??` becomes tt for ∃G and ff for ∃U. For the top formula
//! the loop stops as soon as A₀'s entry is decided (RSMCheck's `finish_early`).

use super::formula::{FormulaId, Op};
use super::model::Model;
use super::refine::refine;
use crate::check::kleene::Kleene;

pub(crate) fn run(m: &mut Model) {
    for f in m.phi.nodes.indices() {
        let top = f == m.phi.root;
        refine(m, f);
        loop {
            crate::deadline::poll();
            if top && m.root_value().is_known() {
                return;
            }
            let mut changed = contextualize_all(m);
            changed |= refine(m, f) > 0;
            if !changed {
                break;
            }
        }
        resolve_all(m, f);
    }
}

/// One `Contextualize` per box of every live copy; returns true if some box was redirected.
pub(crate) fn contextualize_all(m: &mut Model) -> bool {
    let mut changed = false;
    let live = m.live.clone();
    for x in live {
        if !m.copies[x].alive {
            continue;
        }
        let calls = m.rks.components[m.copies[x].base.index()].calls.clone();
        for c in calls {
            changed |= m.contextualize(x, c);
        }
    }
    if changed {
        m.remove_unreachable();
    }
    changed
}

/// Global dependency cycle resolution for `f` over all live nodes.
fn resolve_all(m: &mut Model, f: FormulaId) {
    let value = match m.phi.op(f) {
        Op::EG(_) => Kleene::True,
        Op::EU(..) => Kleene::False,
        _ => {
            debug_assert!(no_unknown(m, f), "Lemma 6: only ∃G/∃U can stay unknown");
            return;
        }
    };
    m.resolve_all_unknown(f, value);
}

fn no_unknown(m: &Model, f: FormulaId) -> bool {
    m.live.iter().all(|&x| (0..m.base_of(x).ext).all(|v| m.val(x, v, f).is_known()))
}
