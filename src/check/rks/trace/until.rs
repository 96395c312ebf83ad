//! Shortest witnesses of `E[ψ U χ]` from per-pair summaries, in time near-linear in the
//! labelled (pair, node) locations instead of a search over configurations.
//!
//! A *pair* is a component with a context of the goal formula (the same key as the knowledge
//! base's: configurations whose top frame has that component and context satisfy the same
//! subformulas, Finis Lemma 3.3.3). A *vertex* is a node of a pair. Two Dijkstra searches:
//!
//! 1. **Within frames** (Knuth's generalisation of Dijkstra to summaries): `dist[(P, n)]` is the
//!    length of a shortest run from `P`'s entry to `n` that stays in `P`'s frame (every call it
//!    makes returns) and whose configurations all satisfy `ψ` (except possibly the last, which
//!    satisfies `χ`). A call `c` from `(P, n)` into the callee pair `P'` (its context is
//!    [`Core::cc`](crate::check::rks::local::Core::cc) of `P`'s) continues at `(P, r)` for every return `r` of an exit `k` of `P'`,
//!    with cost `dist[(P, n)] + 1 + dist[(P', exit k)] + 1` (the summary). Vertices are
//!    finalised in increasing distance; a finalised call site waits for its callee's exits.
//! 2. **Across frames**: `enter[P]` is the length of a shortest run from the initial
//!    configuration to a configuration at `P`'s entry whose frame never returns (an unmatched
//!    call): `enter[P'] = enter[P] + dist[(P, n)] + 1` over the calls `n → P'`. The witness
//!    ends at the `χ` vertex `(P, m)` minimising `enter[P] + dist[(P, m)]`, or, in the bottom
//!    frame under the `trap` rule, at the termination state after an exit.
//!
//! Every run of configurations maps to a path of these two graphs and back, so the search is
//! complete (it finds a witness whenever the knowledge base says `E[ψ U χ]` holds initially)
//! and the run it returns is a shortest witness (fewest steps). Its configurations are
//! expanded from the parent links of both searches, without recursion. Only the expansion is
//! bounded: a shortest witness longer than [`MAX_TRACE_STEPS`] (possible only on models whose
//! runs double in length per recursion level) is not materialised.

use super::super::context::restrict;
use super::super::formula::FId;
use super::Labelling;
use crate::check::kleene::Kleene;
use crate::check::trace::{CallFrame, TraceStep};
use crate::explicit::rks::{ComponentId, NodeId};
use crate::ir::TerminationRule;
use rustc_hash::FxHashMap;
use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// Longest witness that is materialised as a list of configurations.
pub(crate) const MAX_TRACE_STEPS: u64 = 1_000_000;

const NONE: u32 = u32::MAX;
/// No node: the end of a witness in the termination state, the call of the bottom frame.
const NO_NODE: NodeId = NodeId::from_u32(u32::MAX);
const INF: u64 = u64::MAX;

/// How a vertex got its distance within its frame.
#[derive(Clone, Copy)]
enum Link {
    /// The pair's entry (distance 0) or not reached.
    Entry,
    /// An intra-component step from this vertex.
    Step(u32),
    /// From vertex `from` through call `call`, whose callee ran from its entry to its exit `exit`.
    Summary { from: u32, call: NodeId, exit: u32 },
}

struct Pair {
    comp: ComponentId,
    ctx: Vec<Kleene>,
    /// Vertex id of node 0; node `n` is `base + n`.
    base: u32,
    /// Per call (position in the component's `calls`): the callee pair, [`NONE`] until needed.
    callee: Vec<u32>,
    /// Finalised call sites `(caller vertex, call node)` waiting for this pair's exits.
    waiters: Vec<(u32, NodeId)>,
}

pub(super) struct UntilSearch<'c, 'a> {
    core: &'c dyn Labelling<'a>,
    goal: FId,
    psi: FId,
    chi: FId,
    pairs: Vec<Pair>,
    index: FxHashMap<(ComponentId, Vec<Kleene>), u32>,
    /// Per vertex: its pair, `ψ` and `χ` true there (calls: both false), distance, link, final.
    pair_of: Vec<u32>,
    is_psi: Vec<bool>,
    is_chi: Vec<bool>,
    dist: Vec<u64>,
    link: Vec<Link>,
    done: Vec<bool>,
    heap: BinaryHeap<Reverse<(u64, u32)>>,
}

impl<'c, 'a> UntilSearch<'c, 'a> {
    /// A shortest run from the initial configuration (component `init`, node 0, empty stack,
    /// goal context `start_ctx`) through configurations satisfying `psi` to one satisfying
    /// `chi`; `None` if there is none (or it is longer than [`MAX_TRACE_STEPS`]).
    pub(super) fn run(core: &'c dyn Labelling<'a>, goal: FId, psi: FId, chi: FId, init: ComponentId, start_ctx: Vec<Kleene>) -> Option<Vec<TraceStep>> {
        let mut s = UntilSearch {
            core,
            goal,
            psi,
            chi,
            pairs: Vec::new(),
            index: FxHashMap::default(),
            pair_of: Vec::new(),
            is_psi: Vec::new(),
            is_chi: Vec::new(),
            dist: Vec::new(),
            link: Vec::new(),
            done: Vec::new(),
            heap: BinaryHeap::new(),
        };
        let p0 = s.pair(init, start_ctx);
        s.within_frames();
        let (enter, parent) = s.across_frames(p0);
        s.expand(p0, &enter, &parent)
    }

    /// The pair of `(comp, ctx)`, created (vertices labelled, entry queued) if new.
    fn pair(&mut self, comp: ComponentId, ctx: Vec<Kleene>) -> u32 {
        if let Some(&p) = self.index.get(&(comp, ctx.clone())) {
            return p;
        }
        let core = self.core;
        let c = core.comp(comp);
        let n = c.num_nodes as usize;
        let base = self.dist.len() as u32;
        let p = self.pairs.len() as u32;
        let holds = |h: FId| core.locations(h, comp, &restrict(core.fm(), self.goal, h, &ctx, c.exits.len()));
        let (vp, vc) = (holds(self.psi), holds(self.chi));
        for l in 0..n {
            self.pair_of.push(p);
            self.is_psi.push(vp.contains(l));
            self.is_chi.push(vc.contains(l));
        }
        self.dist.resize(base as usize + n, INF);
        self.link.resize(base as usize + n, Link::Entry);
        self.done.resize(base as usize + n, false);
        self.index.insert((comp, ctx.clone()), p);
        self.pairs.push(Pair { comp, ctx, base, callee: vec![NONE; c.calls.len()], waiters: Vec::new() });
        if self.is_psi[base as usize] || self.is_chi[base as usize] {
            self.relax(base, 0, Link::Entry);
        }
        p
    }

    fn callee(&mut self, p: u32, call: NodeId) -> u32 {
        let comp = self.core.comp(self.pairs[p as usize].comp);
        let i = comp.call_index[call.index()] as usize;
        if self.pairs[p as usize].callee[i] == NONE {
            let pr = &self.pairs[p as usize];
            let ctx = self.core.call_context(pr.comp, call, self.goal, &pr.ctx);
            let q = self.pair(comp.call_target[call.index()], ctx);
            self.pairs[p as usize].callee[i] = q;
        }
        self.pairs[p as usize].callee[i]
    }

    fn relax(&mut self, v: u32, d: u64, how: Link) {
        if d < self.dist[v as usize] {
            self.dist[v as usize] = d;
            self.link[v as usize] = how;
            self.heap.push(Reverse((d, v)));
        }
    }

    /// The summary step: call `call` of `u`'s pair returned through exit `k`, whose vertex in
    /// the callee pair is `x` (both finalised, `x` satisfies `ψ`).
    fn relax_returns(&mut self, u: u32, call: NodeId, k: usize, x: u32) {
        let p = &self.pairs[self.pair_of[u as usize] as usize];
        let (base, comp) = (p.base, self.core.comp(p.comp));
        let d = self.dist[u as usize].saturating_add(2).saturating_add(self.dist[x as usize]);
        for &r in comp.returns(call, k) {
            let v = base + r.as_u32();
            if self.is_psi[v as usize] || self.is_chi[v as usize] {
                self.relax(v, d, Link::Summary { from: u, call, exit: k as u32 });
            }
        }
    }

    /// Phase 1: distances within frames, for every pair reachable from the initial one.
    fn within_frames(&mut self) {
        let core = self.core;
        while let Some(Reverse((d, v))) = self.heap.pop() {
            if self.done[v as usize] || d > self.dist[v as usize] {
                continue;
            }
            self.done[v as usize] = true;
            if !self.is_psi[v as usize] {
                continue;
            }
            let p = self.pair_of[v as usize];
            let (comp_id, base) = (self.pairs[p as usize].comp, self.pairs[p as usize].base);
            let comp = core.comp(comp_id);
            let n = NodeId::from_u32(v - base);
            if let Some(k) = core.exit_index(comp_id, n) {
                let waiters = self.pairs[p as usize].waiters.clone();
                for (u, call) in waiters {
                    self.relax_returns(u, call, k, v);
                }
                continue;
            }
            for &x in comp.succ.neighbours(n) {
                if comp.is_call(x) {
                    let q = self.callee(p, x);
                    let qb = self.pairs[q as usize].base;
                    if !self.is_psi[qb as usize] {
                        continue;
                    }
                    self.pairs[q as usize].waiters.push((v, x));
                    let exits = &core.comp(self.pairs[q as usize].comp).exits;
                    for (k, &e) in exits.iter().enumerate() {
                        let xv = qb + e.as_u32();
                        if self.done[xv as usize] && self.is_psi[xv as usize] {
                            self.relax_returns(v, x, k, xv);
                        }
                    }
                } else {
                    let w = base + x.as_u32();
                    if self.is_psi[w as usize] || self.is_chi[w as usize] {
                        self.relax(w, d + 1, Link::Step(v));
                    }
                }
            }
        }
    }

    /// Phase 2: per frame, the shortest run to its entry. Frame 0 is the bottom frame (pair
    /// `p0` with an empty stack); frame `q + 1` is pair `q` entered by an unmatched call.
    /// Returns the distances and per frame its caller `(frame, call vertex, call node)`.
    #[allow(clippy::type_complexity)]
    fn across_frames(&self, p0: u32) -> (Vec<u64>, Vec<(u32, u32, NodeId)>) {
        let core = self.core;
        let frames = self.pairs.len() + 1;
        let mut enter = vec![INF; frames];
        let mut parent = vec![(NONE, NONE, NO_NODE); frames];
        let mut done = vec![false; frames];
        let mut heap = BinaryHeap::new();
        enter[0] = 0;
        heap.push(Reverse((0u64, 0u32)));
        while let Some(Reverse((e, f))) = heap.pop() {
            if done[f as usize] {
                continue;
            }
            done[f as usize] = true;
            let p = if f == 0 { p0 } else { f - 1 };
            let pr = &self.pairs[p as usize];
            let comp = core.comp(pr.comp);
            for n in comp.nodes() {
                let v = pr.base + n.as_u32();
                if !self.is_psi[v as usize] || self.dist[v as usize] == INF {
                    continue;
                }
                for &x in comp.succ.neighbours(n) {
                    if !comp.is_call(x) {
                        continue;
                    }
                    let q = pr.callee[comp.call_index[x.index()] as usize];
                    if q == NONE {
                        continue;
                    }
                    let entry = self.pairs[q as usize].base as usize;
                    if !(self.is_psi[entry] || self.is_chi[entry]) {
                        continue;
                    }
                    let d = e.saturating_add(self.dist[v as usize]).saturating_add(1);
                    if d < enter[q as usize + 1] {
                        enter[q as usize + 1] = d;
                        parent[q as usize + 1] = (f, v, x);
                        heap.push(Reverse((d, q + 1)));
                    }
                }
            }
        }
        (enter, parent)
    }

    /// The best end of the witness: (frame, node in it or [`NO_NODE`] for the termination state
    /// after exit vertex `x`, that exit node), by total length.
    fn best_end(&self, p0: u32, enter: &[u64]) -> Option<(u64, u32, NodeId, NodeId)> {
        let core = self.core;
        let term_chi = core.rks().termination == TerminationRule::Trap && core.fm().value_in_loop(self.chi, &|_| false);
        let mut best: Option<(u64, u32, NodeId, NodeId)> = None;
        for (f, &e) in enter.iter().enumerate() {
            if e == INF {
                continue;
            }
            let p = if f == 0 { p0 } else { f as u32 - 1 };
            let pr = &self.pairs[p as usize];
            let comp = core.comp(pr.comp);
            for n in comp.nodes() {
                let v = (pr.base + n.as_u32()) as usize;
                if self.dist[v] == INF {
                    continue;
                }
                let mut consider = |len: u64, node: NodeId, exit: NodeId| {
                    if best.is_none_or(|b| len < b.0) {
                        best = Some((len, f as u32, node, exit));
                    }
                };
                if self.is_chi[v] {
                    consider(e.saturating_add(self.dist[v]), n, NO_NODE);
                } else if f == 0 && term_chi && self.is_psi[v] && core.exit_index(pr.comp, n).is_some() {
                    consider(e.saturating_add(self.dist[v]).saturating_add(1), NO_NODE, n);
                }
            }
        }
        best
    }

    /// The configurations of the witness, from the links of both searches.
    fn expand(&self, p0: u32, enter: &[u64], parent: &[(u32, u32, NodeId)]) -> Option<Vec<TraceStep>> {
        let (len, last_frame, node, exit) = self.best_end(p0, enter)?;
        if len >= MAX_TRACE_STEPS {
            return None;
        }
        // The chain of frames, bottom first: (pair, node to reach in it, call made from there).
        let pair_of_frame = |f: u32| if f == 0 { p0 } else { f - 1 };
        let mut chain: Vec<(u32, NodeId, NodeId)> = Vec::new();
        let end = if node == NO_NODE { exit } else { node };
        let mut f = last_frame;
        let mut target = (end, NO_NODE);
        loop {
            chain.push((pair_of_frame(f), target.0, target.1));
            if f == 0 {
                break;
            }
            let (g, v, call) = parent[f as usize];
            let pg = pair_of_frame(g);
            target = (NodeId::from_u32(v - self.pairs[pg as usize].base), call);
            f = g;
        }
        chain.reverse();
        let mut tasks: Vec<Task> = Vec::new();
        for &(p, n, call) in chain.iter().rev() {
            if call != NO_NODE {
                tasks.push(Task::Push(self.pairs[p as usize].comp, call));
            }
            tasks.push(Task::Segment(p, n));
        }
        let mut stack: Vec<CallFrame> = Vec::new();
        let mut out: Vec<TraceStep> = Vec::with_capacity(len as usize + 1);
        while let Some(t) = tasks.pop() {
            match t {
                Task::Emit(comp, node) => out.push(TraceStep::at(comp, node, stack.clone())),
                Task::Push(comp, call) => stack.push(CallFrame::new(comp, call)),
                Task::Pop => {
                    stack.pop();
                }
                Task::Segment(p, n) => self.segment_tasks(p, n, &mut tasks),
            }
        }
        if node == NO_NODE {
            out.push(TraceStep::terminated());
        }
        debug_assert_eq!(out.len() as u64, len + 1, "the expanded witness has the searched length");
        Some(out)
    }

    /// Pushes (in reverse) the tasks emitting the run of pair `p` from its entry to node `n`.
    fn segment_tasks(&self, p: u32, n: NodeId, tasks: &mut Vec<Task>) {
        let pr = &self.pairs[p as usize];
        let comp = pr.comp;
        let mut v = pr.base + n.as_u32();
        loop {
            match self.link[v as usize] {
                Link::Entry => {
                    tasks.push(Task::Emit(comp, NodeId::from_u32(v - pr.base)));
                    return;
                }
                Link::Step(u) => {
                    tasks.push(Task::Emit(comp, NodeId::from_u32(v - pr.base)));
                    v = u;
                }
                Link::Summary { from, call, exit } => {
                    let q = self.pairs[p as usize].callee[self.core.comp(comp).call_index[call.index()] as usize];
                    let exit_node = self.core.comp(self.pairs[q as usize].comp).exits[exit as usize];
                    tasks.push(Task::Emit(comp, NodeId::from_u32(v - pr.base)));
                    tasks.push(Task::Pop);
                    tasks.push(Task::Segment(q, exit_node));
                    tasks.push(Task::Push(comp, call));
                    v = from;
                }
            }
        }
    }
}

/// Work items of the expansion (a stack, so that deep summaries need no recursion).
enum Task {
    Emit(ComponentId, NodeId),
    Push(ComponentId, NodeId),
    Pop,
    Segment(u32, NodeId),
}
