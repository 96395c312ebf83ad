//! Merging the equivalent frames of one group before solving it.
//!
//! A frame is keyed by its full context (without top), but its solution (exit mask and `base`)
//! depends only on its component, the vectors of its operands `a` and `b` in it, and the
//! solutions of its callee frames. Different contexts often give the same operand vectors (a
//! context bit only matters at an exit, through an `EX`), so a group can hold many frames
//! with one solution: on the random RSMs of the scalability grid, 3,368 frames of one `EG`
//! node over 256 components with 256 distinct `a` vectors.
//!
//! The frames of a group are partitioned by (component, `a` vector, `b` vector) and the
//! partition is refined by the classes of the callee frames, call by call, until stable (Moore's
//! algorithm for the coarsest stable partition). Frames of one class satisfy the same equations
//! over the same callee classes, so the least and greatest fixpoints give them the same
//! solution: only one representative per class is solved, with its calls redirected to the
//! representatives, and the other members copy its solution. Vectors are compared by content.

use super::{FrameId, NO_FRAME, NO_MASK, Summary};
use crate::explicit::rks::ComponentId;
use rustc_hash::FxHashMap;

/// The value of a callee in a class key: a class of the group, a solved frame, or no frame.
fn callee_key(class: &FxHashMap<FrameId, u32>, q: FrameId) -> u64 {
    match q {
        NO_FRAME => u64::MAX,
        q => match class.get(&q) {
            Some(&c) => u64::from(c),
            None => 1 << 32 | u64::from(q.as_u32()),
        },
    }
}

impl Summary<'_> {
    /// Partitions the unsolved frames `new` into classes of frames with equal solutions; returns
    /// one representative per class (the first member, so `new[0]` represents its class) and,
    /// per frame of `new`, its representative. The representatives' calls are redirected to
    /// representatives and their caller lists rebuilt among them, ready for solving.
    pub(super) fn quotient(&mut self, new: &[FrameId]) -> (Vec<FrameId>, Vec<FrameId>) {
        // Round 0: component and the operand vectors' contents.
        let mut content: FxHashMap<&fixedbitset::FixedBitSet, u32> = FxHashMap::default();
        let mut keys0: FxHashMap<(ComponentId, u32, u32), u32> = FxHashMap::default();
        let mut class: FxHashMap<FrameId, u32> = FxHashMap::default();
        for &id in new {
            let fr = &self.frames[id];
            let n = content.len() as u32;
            let a = *content.entry(&self.vecs[fr.a as usize]).or_insert(n);
            let n = content.len() as u32;
            let b = *content.entry(&self.vecs[fr.b as usize]).or_insert(n);
            let n = keys0.len() as u32;
            class.insert(id, *keys0.entry((fr.comp, a, b)).or_insert(n));
        }
        let mut count = keys0.len();
        // Refinement by the callees' classes until the number of classes stops growing.
        loop {
            let mut keys: FxHashMap<(u32, Vec<u64>), u32> = FxHashMap::default();
            let mut next: FxHashMap<FrameId, u32> = FxHashMap::default();
            for &id in new {
                let callees = self.frames[id].callees.iter().map(|&q| callee_key(&class, q)).collect();
                let n = keys.len() as u32;
                next.insert(id, *keys.entry((class[&id], callees)).or_insert(n));
            }
            class = next;
            if keys.len() == count {
                break;
            }
            count = keys.len();
        }
        let mut rep_of_class: Vec<FrameId> = vec![NO_FRAME; count];
        let mut reps = Vec::with_capacity(count);
        let rep: Vec<FrameId> = new
            .iter()
            .map(|id| {
                let r = &mut rep_of_class[class[id] as usize];
                if *r == NO_FRAME {
                    *r = *id;
                    reps.push(*id);
                }
                *r
            })
            .collect();
        for &id in new {
            self.frames[id].callers.clear();
        }
        for &r in &reps {
            for i in 0..self.frames[r].callees.len() {
                let q = self.frames[r].callees[i];
                if let Some(&c) = class.get(&q) {
                    let qr = rep_of_class[c as usize];
                    self.frames[r].callees[i] = qr;
                    self.frames[qr].callers.push((r, i as u32));
                }
            }
        }
        (reps, rep)
    }

    /// After the representatives are solved: every other frame of `new` takes its
    /// representative's solution (the mask by reference, its own mask freed).
    pub(super) fn copy_solutions(&mut self, new: &[FrameId], rep: &[FrameId]) {
        for (&id, &r) in new.iter().zip(rep) {
            if id == r {
                continue;
            }
            let rf = &self.frames[r];
            let (mask, base) = (rf.mask, rf.base.clone());
            // A lazy representative has no mask rows: its members take its entry row and the
            // `live` words its masks are found from (their `a` vectors are equal).
            let (lazy, entry, live, call_words) = (rf.lazy, rf.entry, if rf.lazy { rf.live.clone() } else { Vec::new() }, rf.call_words);
            let fr = &mut self.frames[id];
            if !fr.mask_shared && fr.mask != NO_MASK {
                self.masks[fr.mask as usize] = Vec::new();
            }
            (fr.mask, fr.mask_shared, fr.base) = (mask, !lazy, base);
            if lazy {
                (fr.lazy, fr.entry, fr.live, fr.call_words) = (true, entry, live, call_words);
            }
        }
    }
}
