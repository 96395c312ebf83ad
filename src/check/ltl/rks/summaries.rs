//! Phase 1 of the RKS LTL check: entry-to-exit summaries of the product, by worklist
//! tabulation (the "path edge / summary edge" scheme of Alur, Etessami and Yannakakis; Chau
//! digest §3.2 step 3).
//!
//! A *frame* is one invocation shape: an entry vertex (the callee's entry location with a
//! monitor and automaton state) and whether it is the spec's initial module at the bottom of
//! the stack (`top`: its exits terminate the run instead of returning). A *path edge*
//! `(frame, v)` says that `v` is reachable from the frame's entry without returning from the
//! frame; its mask is the union of the acceptance sets of the vertices on such paths (callees'
//! paths included). A frame's *summary* maps each exit vertex it reaches to that mask. Masks only
//! grow, so the worklist ends. Summaries are per exit vertex: returning through exit `x` in
//! automaton state `q` continues only at `x`'s continuations, from `q` (never a union over exits,
//! the mistake of Chau digest §2.5 item 1).
//!
//! Counterexamples need real paths behind the masks: when a path edge is first reached, and when
//! an acceptance set first enters its mask, the derivation is kept ([`Pred`]). Each derivation
//! refers only to events recorded before it, so following them always ends ([`Summaries::expand`]).

use super::product::{Product, Vid};
use crate::explicit::rks::{ComponentId, NodeId};
use crate::ir::id::IdVec;
use rustc_hash::{FxHashMap, FxHashSet};

crate::index_type! {
    /// A frame of the LTL summary search: one callee entry (or the top entry), [`Summaries::frames`].
    pub(crate) struct FrameId;
}

/// The tag of a derivation that is not about a particular acceptance set.
pub(crate) const NO_SET: u8 = 64;

pub(crate) struct Frame {
    pub(crate) top: bool,
    /// `(caller frame, call vertex, call node)`: where this frame is called from.
    callers: Vec<(FrameId, Vid, NodeId)>,
    /// The summary: `(exit vertex, mask)`.
    pub(crate) exits: Vec<(Vid, u64)>,
}

/// How a path edge (for one tag) was first derived.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Pred {
    /// The frame's entry.
    Start,
    /// An edge inside the frame from `from` (its path for tag `tag`).
    Intra { from: Vid, tag: u8 },
    /// A return: the call at `from` (path for `tag`) through call node `call` into `callee`, whose
    /// path to `exit` (for `callee_tag`) is then followed.
    Return { from: Vid, tag: u8, call: NodeId, callee: FrameId, exit: Vid, callee_tag: u8 },
}

struct PathEdge {
    frame: FrameId,
    v: Vid,
    mask: u64,
    queued: bool,
}

/// One step of an expanded path: a position, or a call pushed / popped around a callee's path.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Item {
    At(Vid),
    Push(ComponentId, NodeId),
    Pop,
}

#[derive(Default)]
pub(crate) struct Summaries {
    pub(crate) frames: IdVec<FrameId, Frame>,
    frame_ids: FxHashMap<(Vid, bool), FrameId>,
    edges: FxHashMap<(FrameId, Vid), u32>,
    path_edges: Vec<PathEdge>,
    preds: FxHashMap<(FrameId, Vid, u8), Pred>,
    registered: FxHashSet<(FrameId, FrameId, Vid, NodeId)>,
    work: Vec<u32>,
    /// Reused buffer of vertices for [`Summaries::returns`].
    scratch: Vec<Vid>,
}

impl Summaries {
    /// Tabulates every frame reachable from the initial configuration of component `initial`.
    pub(crate) fn compute(product: &mut Product, initial: ComponentId) -> Summaries {
        let mut s = Summaries::default();
        let mut buf = vec![];
        product.step_into(None, initial, NodeId::ENTRY, &mut buf);
        for &v in &buf {
            let f = s.frame(v, true);
            s.propagate(f, v, product.acc(v), |_| Pred::Start);
        }
        let (mut succ, mut entries) = (vec![], vec![]);
        while let Some(i) = s.work.pop() {
            let pe = &mut s.path_edges[i as usize];
            pe.queued = false;
            let (f, v, mask) = (pe.frame, pe.v, pe.mask);
            let key = product.keys[v as usize];
            if product.exit_of(key.comp, key.node).is_some() {
                if !s.frames[f].top {
                    s.exit_reached(product, f, v, mask);
                }
                continue;
            }
            let rks = product.rks;
            let comp = &rks.components[key.comp.index()];
            for &m in comp.succ.neighbours(key.node) {
                if comp.is_call(m) {
                    let target = comp.call_target[m.index()];
                    entries.clear();
                    product.step_into(Some(v), target, NodeId::ENTRY, &mut entries);
                    for &e in &entries {
                        let callee = s.frame(e, false);
                        if s.registered.insert((callee, f, v, m)) {
                            s.frames[callee].callers.push((f, v, m));
                        }
                        s.propagate(callee, e, product.acc(e), |_| Pred::Start);
                        for i in 0..s.frames[callee].exits.len() {
                            let x = s.frames[callee].exits[i].0;
                            s.returns(product, (f, v, m), callee, x);
                        }
                    }
                } else {
                    succ.clear();
                    product.step_into(Some(v), key.comp, m, &mut succ);
                    for &w in &succ {
                        let acc_w = product.acc(w);
                        s.propagate(f, w, mask | acc_w, |set| Pred::Intra { from: v, tag: if set == NO_SET || acc_w >> set & 1 == 1 { NO_SET } else { set } });
                    }
                }
            }
        }
        s
    }

    /// The frame of entry `entry` (created if new).
    fn frame(&mut self, entry: Vid, top: bool) -> FrameId {
        let next = self.frames.next_id();
        let id = *self.frame_ids.entry((entry, top)).or_insert(next);
        if id == next {
            self.frames.push(Frame { top, callers: vec![], exits: vec![] });
        }
        id
    }

    /// The frame of a callee entry, if it was reached.
    pub(crate) fn callee_frame(&self, entry: Vid) -> Option<FrameId> {
        self.frame_ids.get(&(entry, false)).copied()
    }

    /// The mask of path edge `(f, v)` (0 if unreached).
    fn mask(&self, f: FrameId, v: Vid) -> u64 {
        self.edges.get(&(f, v)).map_or(0, |&i| self.path_edges[i as usize].mask)
    }

    /// Frame `f` reached its exit vertex `x` with `mask`: grow the summary, and return
    /// to the callers if it grew.
    fn exit_reached(&mut self, product: &mut Product, f: FrameId, x: Vid, mask: u64) {
        let frame = &mut self.frames[f];
        let grew = match frame.exits.iter_mut().find(|e| e.0 == x) {
            None => {
                frame.exits.push((x, mask));
                true
            }
            Some(e) if mask & !e.1 != 0 => {
                e.1 |= mask;
                true
            }
            Some(_) => false,
        };
        if grew {
            for i in 0..self.frames[f].callers.len() {
                let caller = self.frames[f].callers[i];
                self.returns(product, caller, f, x);
            }
        }
    }

    /// The call `(caller frame, call vertex, call node)` returns from `callee` through exit vertex
    /// `x`: the continuations of the call for that exit, from `x`'s automaton state.
    fn returns(&mut self, product: &mut Product, (fc, u, call): (FrameId, Vid, NodeId), callee: FrameId, x: Vid) {
        let xkey = product.keys[x as usize];
        let Some(k) = product.exit_of(xkey.comp, xkey.node) else { return };
        let Some(&(_, mx)) = self.frames[callee].exits.iter().find(|e| e.0 == x) else { return };
        let mu = self.mask(fc, u);
        let rks = product.rks;
        let c = product.keys[u as usize].comp;
        let mut buf = std::mem::take(&mut self.scratch);
        for &r in rks.components[c.index()].returns(call, k) {
            buf.clear();
            product.step_into(Some(x), c, r, &mut buf);
            for &w in &buf {
                let acc_w = product.acc(w);
                self.propagate(fc, w, mu | mx | acc_w, |set| {
                    let (tag, callee_tag) = if set == NO_SET || acc_w >> set & 1 == 1 {
                        (NO_SET, NO_SET)
                    } else if mu >> set & 1 == 1 {
                        (set, NO_SET)
                    } else {
                        (NO_SET, set)
                    };
                    Pred::Return { from: u, tag, call, callee, exit: x, callee_tag }
                });
            }
        }
        self.scratch = buf;
    }

    /// Path edge `(f, v)` with (at least) `mask`; `pred(tag)` is its derivation for the path edge
    /// itself (`NO_SET`) or for an acceptance set newly in its mask.
    fn propagate(&mut self, f: FrameId, v: Vid, mask: u64, pred: impl Fn(u8) -> Pred) {
        let next = self.path_edges.len() as u32;
        let i = *self.edges.entry((f, v)).or_insert(next);
        if i == next {
            self.path_edges.push(PathEdge { frame: f, v, mask: 0, queued: false });
            self.preds.insert((f, v, NO_SET), pred(NO_SET));
        }
        let pe = &mut self.path_edges[i as usize];
        let added = mask & !pe.mask;
        if i != next && added == 0 {
            return;
        }
        pe.mask |= mask;
        if !pe.queued {
            pe.queued = true;
            self.work.push(i);
        }
        let mut bits = added;
        while bits != 0 {
            let set = bits.trailing_zeros() as u8;
            bits &= bits - 1;
            self.preds.entry((f, v, set)).or_insert_with(|| pred(set));
        }
    }

    /// Path edges built (sizes for `--stats`).
    pub(crate) fn path_edges(&self) -> usize {
        self.path_edges.len()
    }

    /// Summary edges: (frame, exit vertex) pairs.
    pub(crate) fn summary_edges(&self) -> usize {
        self.frames.iter().map(|f| f.exits.len()).sum()
    }

    /// The mask of frame `f`'s summary for exit vertex `x`.
    pub(crate) fn exit_mask(&self, f: FrameId, x: Vid) -> u64 {
        self.frames[f].exits.iter().find(|e| e.0 == x).map_or(0, |e| e.1)
    }

    /// A path of frame `f` from its entry to `v` (one that visits acceptance set `tag`, unless
    /// `tag` is [`NO_SET`]), appended to `out` with callees' paths between `Push` and `Pop`.
    pub(crate) fn expand(&self, product: &Product, f: FrameId, v: Vid, tag: u8, out: &mut Vec<Item>) {
        enum Work {
            Path(FrameId, Vid, u8),
            Item(Item),
        }
        let mut work = vec![Work::Path(f, v, tag)];
        while let Some(w) = work.pop() {
            match w {
                Work::Item(item) => out.push(item),
                Work::Path(f, mut v, mut tag) => {
                    // Walk the derivations back; `work` is a stack, so pushing the items last
                    // first makes them come out in run order.
                    loop {
                        work.push(Work::Item(Item::At(v)));
                        match self.preds.get(&(f, v, tag)).copied().unwrap_or(Pred::Start) {
                            Pred::Start => break,
                            Pred::Intra { from, tag: t } => (v, tag) = (from, t),
                            Pred::Return { from, tag: t, call, callee, exit, callee_tag } => {
                                work.push(Work::Item(Item::Pop));
                                work.push(Work::Path(callee, exit, callee_tag));
                                work.push(Work::Item(Item::Push(product.keys[from as usize].comp, call)));
                                (v, tag) = (from, t);
                            }
                        }
                    }
                }
            }
        }
    }
}
