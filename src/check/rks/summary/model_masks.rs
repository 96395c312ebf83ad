//! Exit masks read from the model instead of solved: a frame whose `a` holds at every location,
//! and whose callee frames' do too, transitively, has as its mask the exits reachable on any
//! path ([`ModelIndex::exit_reach`](super::ModelIndex::exit_reach), computed once per model).
//!
//! Why that is exact: with `a` true at every location, the mask equations of such a frame are
//! those of `ExitReach` in its component: every location is an `a` location, a call is explored
//! (has a callee frame) exactly when some location leads to it, and a call returns through exit
//! `k` exactly when its callee frame's entry reaches `k`, which by the same argument over the
//! callee frames (all of them with an everywhere-true `a`) is the model's entry row of the
//! callee. The least fixpoints are then equal. This happens on formulas whose `ψ` in `E[ψ U χ]`
//! or `EG ψ` is true everywhere without being the constant `true` (on the scalability grid one
//! round of 50/43 is such an `EU`); the constant itself goes the same way.

use super::{FrameId, NO_FRAME, Summary};

impl Summary<'_> {
    /// If the frames `new` (discovered, not solved) and every frame they reach through callees
    /// have an `a` that holds at every location, gives each of `new` the model's exit mask of
    /// its component (one copy per component, shared), so that `solve_masks` skips them.
    pub(super) fn use_model_masks(&mut self, new: &[FrameId]) {
        if !new.iter().all(|&id| self.a_holds_everywhere(id)) {
            return;
        }
        // The callees' closure (solved frames included): all of them must qualify as well.
        let mut seen = vec![false; self.frames.len()];
        let mut stack: Vec<FrameId> = new.to_vec();
        for &id in new {
            seen[id.index()] = true;
        }
        while let Some(id) = stack.pop() {
            if !self.a_holds_everywhere(id) {
                return;
            }
            for &q in &self.frames[id].callees {
                if q != NO_FRAME && !seen[q.index()] {
                    seen[q.index()] = true;
                    stack.push(q);
                }
            }
        }
        let reach = self.ix.exit_reach();
        for &id in new {
            if self.frames[id].mask_shared {
                continue;
            }
            let s = self.frames[id].comp;
            let shared = match self.model_masks.get(&s) {
                Some(&m) => m,
                None => {
                    self.masks.push(reach.rows(s).to_vec());
                    let m = self.masks.len() as u32 - 1;
                    self.model_masks.insert(s, m);
                    m
                }
            };
            let fr = &mut self.frames[id];
            debug_assert_eq!(self.masks[shared as usize].len(), self.masks[fr.mask as usize].len());
            self.masks[fr.mask as usize] = Vec::new();
            (fr.mask, fr.mask_shared) = (shared, true);
        }
    }

    /// True if frame `id`'s `a` vector holds at every location of its component (call nodes,
    /// where vectors are unspecified, aside).
    fn a_holds_everywhere(&self, id: FrameId) -> bool {
        let fr = &self.frames[id];
        let comp = self.comp(fr.comp);
        let va = &self.vecs[fr.a as usize];
        let calls_in = comp.calls.iter().filter(|&&c| va.contains(c.index())).count();
        va.count_ones(..) - calls_in + comp.calls.len() == comp.num_nodes as usize
    }
}
