//! Phase 2 of the RKS LTL check: Büchi emptiness on the augmented graph of the product (Chau
//! digest §3.2 step 4), and the counterexample as a run with call stacks (step 5).
//!
//! Vertices of the augmented graph `H`:
//! * `Top(v)`: product vertex `v` in the spec's initial module at the bottom of the stack. Its
//!   exits follow the termination rule: `trap` moves to the termination vertex, `loop` stays at
//!   the exit location (the automaton moves on).
//! * `In(v)`: `v` inside a pending call. Its exits have no successor in `H`: returns are taken
//!   only through summary vertices, so every path of `H` is a run whose pending calls (call
//!   edges) never return.
//! * `Sum`: one summary edge `call vertex → return vertex` split by a vertex carrying the
//!   summary's mask: the call (caller level, component, call node), the callee's frame and the
//!   exit vertex. Its successors are the call's continuations for that exit.
//!
//! Edges: intra-module steps, a *call edge* from a vertex that steps to a call to the callee's
//! entry vertex (`In`), and an edge to the call's `Sum` vertices. A cycle through summary edges
//! only is a run that stays at a bounded stack depth; a cycle through a call edge is an infinite
//! descent. The spec is false iff a non-trivial SCC reachable from the initial vertices holds
//! every acceptance set: Couvreur's algorithm over `H` built on the fly (an adjacency array filled
//! when a vertex is first visited), stopping at the first such SCC.
//!
//! The lasso: the DFS path to the SCC's root, then shortest paths inside the SCC through each
//! missing acceptance set and back; rotated so that the loop starts at a position (not inside a
//! summary). Summary vertices are expanded into the callee's path (for the acceptance set they
//! were chosen for) with the call pushed; call edges push their call for good, so a loop through
//! one pushes the same frames on each repetition ([`crate::check::trace::Trace::loop_push`]).

use super::product::{Product, TERM, TERM_NODE, Vid};
use super::summaries::{FrameId, Item, NO_SET, Summaries};
use crate::check::trace::{CallFrame, Trace, TraceKind, TraceStep};
use crate::explicit::rks::{ComponentId, NodeId};
use crate::ir::TerminationRule;
use rustc_hash::FxHashMap;
use std::collections::VecDeque;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum HKey {
    Top(Vid),
    In(Vid),
    Sum { top: bool, comp: ComponentId, call: NodeId, frame: FrameId, exit: Vid },
}

/// The tag of an edge that is not a call edge.
const NOT_A_CALL: NodeId = NodeId::from_u32(u32::MAX);

/// What the search found.
pub(crate) struct Found {
    pub(crate) accepting: bool,
    pub(crate) trace: Option<Trace>,
    /// Vertices of `H` visited.
    pub(crate) graph_vertices: usize,
}

pub(crate) struct Augmented<'p, 'a> {
    product: &'p mut Product<'a>,
    summaries: &'p Summaries,
    all: u64,
    keys: Vec<HKey>,
    ids: FxHashMap<HKey, u32>,
    /// Per vertex: its successors' range in `adj` (`u32::MAX` start: not expanded yet).
    range: Vec<(u32, u32)>,
    /// `(target, call node of a call edge or NOT_A_CALL)`.
    adj: Vec<(u32, NodeId)>,
    buf: Vec<Vid>,
    /// Reused buffer of the successors being computed.
    targets: Vec<(HKey, NodeId)>,
}

struct DfsFrame {
    id: u32,
    next: u32,
}

impl<'p, 'a> Augmented<'p, 'a> {
    pub(crate) fn new(product: &'p mut Product<'a>, summaries: &'p Summaries) -> Augmented<'p, 'a> {
        let sets = product.gba.sets;
        let all = if sets >= 64 { u64::MAX } else { (1u64 << sets) - 1 };
        Augmented { product, summaries, all, keys: vec![], ids: FxHashMap::default(), range: vec![], adj: vec![], buf: vec![], targets: vec![] }
    }

    fn intern(&mut self, key: HKey) -> (u32, bool) {
        if let Some(&id) = self.ids.get(&key) {
            return (id, false);
        }
        let id = self.keys.len() as u32;
        self.keys.push(key);
        self.ids.insert(key, id);
        self.range.push((u32::MAX, 0));
        (id, true)
    }

    fn mask(&self, h: u32) -> u64 {
        match self.keys[h as usize] {
            HKey::Top(v) | HKey::In(v) => self.product.acc(v),
            HKey::Sum { frame, exit, .. } => self.summaries.exit_mask(frame, exit),
        }
    }

    /// Fills the successors of `h` (once).
    fn expand(&mut self, h: u32) {
        if self.range[h as usize].0 != u32::MAX {
            return;
        }
        let start = self.adj.len() as u32;
        let mut targets = std::mem::take(&mut self.targets);
        targets.clear();
        let mut buf = std::mem::take(&mut self.buf);
        let product = &mut *self.product;
        let rks = product.rks;
        match self.keys[h as usize] {
            HKey::Top(v) | HKey::In(v) => {
                let top = matches!(self.keys[h as usize], HKey::Top(_));
                let here = |w: Vid| if top { HKey::Top(w) } else { HKey::In(w) };
                let k = product.keys[v as usize];
                if k.comp == TERM {
                    buf.clear();
                    product.step_into(Some(v), TERM, TERM_NODE, &mut buf);
                    targets.extend(buf.iter().map(|&w| (HKey::Top(w), NOT_A_CALL)));
                } else if product.exit_of(k.comp, k.node).is_some() {
                    if top {
                        buf.clear();
                        match rks.termination {
                            TerminationRule::Trap => product.step_into(Some(v), TERM, TERM_NODE, &mut buf),
                            TerminationRule::Loop => product.step_into(Some(v), k.comp, k.node, &mut buf),
                        }
                        targets.extend(buf.iter().map(|&w| (HKey::Top(w), NOT_A_CALL)));
                    }
                } else {
                    let comp = &rks.components[k.comp.index()];
                    for &m in comp.succ.neighbours(k.node) {
                        buf.clear();
                        if comp.is_call(m) {
                            product.step_into(Some(v), comp.call_target[m.index()], NodeId::ENTRY, &mut buf);
                            for &e in &buf {
                                targets.push((HKey::In(e), m));
                                let Some(frame) = self.summaries.callee_frame(e) else { continue };
                                for &(exit, _) in &self.summaries.frames[frame].exits {
                                    targets.push((HKey::Sum { top, comp: k.comp, call: m, frame, exit }, NOT_A_CALL));
                                }
                            }
                        } else {
                            product.step_into(Some(v), k.comp, m, &mut buf);
                            targets.extend(buf.iter().map(|&w| (here(w), NOT_A_CALL)));
                        }
                    }
                }
            }
            HKey::Sum { top, comp, call, exit, .. } => {
                let x = product.keys[exit as usize];
                if let Some(k) = product.exit_of(x.comp, x.node) {
                    for &r in rks.components[comp.index()].returns(call, k) {
                        buf.clear();
                        product.step_into(Some(exit), comp, r, &mut buf);
                        targets.extend(buf.iter().map(|&w| (if top { HKey::Top(w) } else { HKey::In(w) }, NOT_A_CALL)));
                    }
                }
            }
        }
        self.buf = buf;
        for &(key, tag) in &targets {
            let (t, _) = self.intern(key);
            self.adj.push((t, tag));
        }
        self.targets = targets;
        self.range[h as usize] = (start, self.adj.len() as u32);
    }

    fn successor(&self, h: u32, i: u32) -> Option<(u32, NodeId)> {
        let (start, end) = self.range[h as usize];
        (start + i < end).then(|| self.adj[(start + i) as usize])
    }

    /// Couvreur's SCC search from the initial vertices of component `initial`. Vertices are
    /// numbered in visiting order (`num`); `live` and the root stack are over those numbers.
    pub(crate) fn search(mut self, initial: ComponentId, want_trace: bool) -> Found {
        let mut buf = vec![];
        self.product.step_into(None, initial, NodeId::ENTRY, &mut buf);
        let mut num: Vec<u32> = vec![];
        let mut live: Vec<bool> = vec![];
        let mut roots: Vec<(u32, u64)> = vec![];
        let mut active: Vec<u32> = vec![];
        let mut dfs: Vec<DfsFrame> = vec![];
        for v in buf {
            let (start, _) = self.intern(HKey::Top(v));
            num.resize(self.keys.len(), u32::MAX);
            if num[start as usize] != u32::MAX {
                continue;
            }
            self.visit(start, &mut num, &mut live, &mut roots, &mut active, &mut dfs);
            while let Some(frame) = dfs.last_mut() {
                if let Some((t, _)) = self.successor(frame.id, frame.next) {
                    frame.next += 1;
                    num.resize(self.keys.len(), u32::MAX);
                    let n = num[t as usize];
                    if n == u32::MAX {
                        self.visit(t, &mut num, &mut live, &mut roots, &mut active, &mut dfs);
                    } else if live[n as usize] {
                        let mut acc = 0;
                        while roots.last().is_some_and(|r| r.0 > n) {
                            acc |= roots.pop().map_or(0, |r| r.1);
                        }
                        if let Some(top) = roots.last_mut() {
                            top.1 |= acc;
                            if top.1 & self.all == self.all {
                                let root = top.0;
                                let trace = want_trace.then(|| self.lasso(&dfs, root, &num, &live));
                                return Found { accepting: true, trace, graph_vertices: live.len() };
                            }
                        }
                    }
                } else {
                    let n = num[frame.id as usize];
                    dfs.pop();
                    if roots.last().is_some_and(|r| r.0 == n) {
                        roots.pop();
                        while let Some(x) = active.pop() {
                            live[x as usize] = false;
                            if x == n {
                                break;
                            }
                        }
                    }
                }
            }
        }
        Found { accepting: false, trace: None, graph_vertices: live.len() }
    }

    /// Numbers `h`, fills its successors and pushes it on the DFS and root stacks.
    fn visit(&mut self, h: u32, num: &mut [u32], live: &mut Vec<bool>, roots: &mut Vec<(u32, u64)>, active: &mut Vec<u32>, dfs: &mut Vec<DfsFrame>) {
        let n = live.len() as u32;
        num[h as usize] = n;
        self.expand(h);
        live.push(true);
        roots.push((n, self.mask(h)));
        active.push(n);
        dfs.push(DfsFrame { id: h, next: 0 });
    }

    /// The accepting lasso through the SCC of `root` as a run of configurations.
    fn lasso(&self, dfs: &[DfsFrame], root_num: u32, num: &[u32], live: &[bool]) -> Trace {
        let in_scc = |h: u32| num.get(h as usize).is_some_and(|&n| n != u32::MAX && n >= root_num && live[n as usize]);
        let root = dfs.iter().map(|f| f.id).find(|&h| num[h as usize] == root_num).unwrap_or(dfs[0].id);
        // The walk: (vertex, tag of the edge into it, acceptance set a summary is expanded for).
        let mut walk: Vec<(u32, NodeId, u8)> = vec![];
        let mut tag = NOT_A_CALL;
        for f in dfs {
            walk.push((f.id, tag, NO_SET));
            if f.id == root {
                break;
            }
            tag = self.successor(f.id, f.next - 1).map_or(NOT_A_CALL, |e| e.1);
        }
        let loop_at = walk.len() - 1;
        let mut missing = self.all & !self.realized(root, NO_SET);
        let mut at = root;
        while missing != 0 {
            let Some(seg) = self.bfs(at, |h| self.mask(h) & missing != 0, &in_scc) else { break };
            walk.extend(seg.iter().map(|&(h, t)| (h, t, NO_SET)));
            let last = walk.len() - 1;
            at = walk[last].0;
            let set = (self.mask(at) & missing).trailing_zeros() as u8;
            if matches!(self.keys[at as usize], HKey::Sum { .. }) {
                walk[last].2 = set;
            }
            missing &= !self.realized(at, set);
        }
        if let Some(back) = self.bfs(at, |h| h == root, &in_scc) {
            walk.extend(back.iter().map(|&(h, t)| (h, t, NO_SET)));
        } else {
            walk.push((root, NOT_A_CALL, NO_SET));
        }
        // Rotate so that the loop starts at a position, not inside a summary: the walk's part
        // from the root to the first position moves into the prefix, and the loop closes there.
        let first_position = (loop_at..walk.len()).find(|&i| !matches!(self.keys[walk[i].0 as usize], HKey::Sum { .. })).unwrap_or(loop_at);
        // The walk's last element is the root again, entered by the loop's last edge.
        if first_position > loop_at {
            // Repeat the part root..first_position after the closing root.
            let extra: Vec<(u32, NodeId, u8)> = walk[loop_at + 1..=first_position].to_vec();
            walk.extend(extra);
        }
        self.to_trace(&walk, first_position)
    }

    /// The acceptance sets visiting `h` is sure to give (a summary expanded for one set gives it).
    fn realized(&self, h: u32, set: u8) -> u64 {
        match self.keys[h as usize] {
            HKey::Sum { .. } => {
                if set == NO_SET {
                    0
                } else {
                    1 << set
                }
            }
            _ => self.mask(h),
        }
    }

    /// A shortest path of at least one edge from `from` to a vertex satisfying `target`, inside
    /// `allowed`: the vertices after `from` with the tags of the edges into them.
    fn bfs(&self, from: u32, target: impl Fn(u32) -> bool, allowed: &impl Fn(u32) -> bool) -> Option<Vec<(u32, NodeId)>> {
        let mut parent: FxHashMap<u32, (u32, NodeId)> = FxHashMap::default();
        let mut queue = VecDeque::from([from]);
        while let Some(u) = queue.pop_front() {
            let mut i = 0;
            while let Some((v, tag)) = self.successor(u, i) {
                i += 1;
                if !allowed(v) || parent.contains_key(&v) {
                    continue;
                }
                parent.insert(v, (u, tag));
                if target(v) {
                    let mut seg = vec![(v, tag)];
                    let mut x = u;
                    while x != from {
                        let Some(&(p, t)) = parent.get(&x) else { break };
                        seg.push((x, t));
                        x = p;
                    }
                    seg.reverse();
                    return Some(seg);
                }
                queue.push_back(v);
            }
        }
        None
    }

    /// The run of configurations of `walk` (a lasso whose last element re-enters `walk[loop_at]`'s
    /// vertex at a deeper or equal stack).
    fn to_trace(&self, walk: &[(u32, NodeId, u8)], loop_at: usize) -> Trace {
        let product = &*self.product;
        let mut steps: Vec<TraceStep> = vec![];
        let mut level: Vec<CallFrame> = vec![];
        let (mut loop_start, mut depth) = (0, 0);
        let mut items = vec![];
        let last = walk.len() - 1;
        for (i, &(h, tag, set)) in walk.iter().enumerate() {
            if tag != NOT_A_CALL
                && i > 0
                && let HKey::Top(u) | HKey::In(u) = self.keys[walk[i - 1].0 as usize]
            {
                level.push(CallFrame::new(product.keys[u as usize].comp, tag));
            }
            if i == last {
                break; // the loop closes here: only its push counts
            }
            if i == loop_at {
                loop_start = steps.len();
                depth = level.len();
            }
            match self.keys[h as usize] {
                HKey::Top(v) | HKey::In(v) => {
                    let k = product.keys[v as usize];
                    steps.push(if k.comp == TERM { TraceStep::terminated() } else { TraceStep::at(k.comp, k.node, level.clone()) });
                }
                HKey::Sum { comp, call, frame, exit, .. } => {
                    items.clear();
                    self.summaries.expand(product, frame, exit, set, &mut items);
                    let mut stack = level.clone();
                    stack.push(CallFrame::new(comp, call));
                    for &item in &items {
                        match item {
                            Item::At(v) => {
                                let k = product.keys[v as usize];
                                steps.push(TraceStep::at(k.comp, k.node, stack.clone()));
                            }
                            Item::Push(c, m) => stack.push(CallFrame::new(c, m)),
                            Item::Pop => {
                                stack.pop();
                            }
                        }
                    }
                }
            }
        }
        let loop_push = level.get(depth..).map_or_else(Vec::new, <[_]>::to_vec);
        Trace { kind: TraceKind::Counterexample, steps, loop_start: Some(loop_start), loop_push }
    }
}
