//! The summary engine for up to 64 specs at once: specs with the same formula *shape* (the
//! same operators over different atoms) are solved together, one bit lane per spec.
//!
//! This is [`super::summary`] with every bit made a lane word: a vector holds one `u64` per
//! location (bit `l` = the value for spec `l`), a context one `u64` per context position, a
//! frame's `base` one word per location and its exit mask one word per (location, exit). A
//! frame is keyed by (shape node, component, the lane words of its context without top), so
//! the lanes of a frame may have different contexts: each lane is exactly the per-spec frame of
//! its spec, and the worklists run once for all lanes. A frame that some lane would not explore
//! (a call no `a` location of that lane leads to) is explored for the other lanes; its value in
//! the idle lane is never read, as in the per-spec engine (calls' own values are unspecified).
//!
//! What the lanes share is the work: the walk over the model's frames, the hash look-ups and
//! allocations are paid once per batch instead of once per spec. The verdicts are those of the
//! per-spec engine (the lanes are independent bit slices of the same equations; tested against
//! it in `tests/rks_lanes.rs`). Traces are not produced here: [`super::check_many`] re-runs a
//! spec whose verdict has a trace on the per-spec engine, so traces are the per-spec ones.
//!
//! Assumes: the shape's atoms are numbered `0..` and `atoms[p][l]` is spec `l`'s proposition
//! for shape atom `p` ([`plan`] builds both).

pub(crate) mod plan;
mod solve;

use super::RksStats;
use super::formula::{FId, Formula, Op};
use super::summary::ModelIndex;
use crate::explicit::rks::{Component, ComponentId, NO_CALL, NodeId, RecursiveKripkeStructure};
use crate::ir::PropId;
use crate::ir::TerminationRule;
use crate::ir::id::IdVec;
use rustc_hash::FxHashMap;
use smallvec::SmallVec;

/// Lane words of a context: position `k * width + i` is `deps[f][i]` at exit `k`, bit `l` spec `l`.
type Ctx = SmallVec<[u64; 4]>;

crate::index_type! {
    /// A fixpoint frame of one [`LaneSummary`] (position in `LaneSummary::frames`).
    struct FrameId;
}
/// No callee frame (a call no `a` location leads to).
const NO_FRAME: FrameId = FrameId::from_u32(u32::MAX);

/// [`Frame::mask`] of a frame whose `a` is `true`: the model's [`ModelIndex::exit_reach`].
const MODEL_MASK: u32 = u32::MAX;

/// The most specs one [`LaneSummary`] solves together (bits of a lane word).
pub(crate) const LANES: usize = 64;

/// One fixpoint frame of all lanes: `EG`/`EU` node `f` in component `comp` under a context
/// (lane words, top positions clear).
struct Frame {
    f: FId,
    comp: ComponentId,
    ctx: Ctx,
    /// Vector ids of the children (`a` = `ψ`; `b` = `χ` of `E[ψ U χ]`, `a` again for `EG`).
    a: u32,
    b: u32,
    /// Per call (position in `comp.calls`): the callee frame, or [`NO_FRAME`] for a call no
    /// lane's `a` location leads to.
    callees: Vec<FrameId>,
    /// Unsolved frames calling this one, with the call's position.
    callers: Vec<(FrameId, u32)>,
    /// Exits of `comp`.
    exits: usize,
    /// `a` is `true`: the mask is the model's [`ModelIndex::exit_reach`], the same in every
    /// lane, a row a bit set of exits (`words` words); otherwise a row is one lane word per exit.
    uniform: bool,
    /// Words per location in the mask.
    words: usize,
    /// Index into [`LaneSummary::masks`]: per location, the exits reachable on `a`-paths from it
    /// (per exit, the lanes in which it is; or, `uniform`, as bits).
    mask: u32,
    mask_shared: bool,
    /// Per location, the lanes where the formula holds whatever the top.
    base: Vec<u64>,
    solved: bool,
}

pub(crate) struct LaneSummary<'a> {
    rks: &'a RecursiveKripkeStructure,
    fm: &'a Formula,
    ix: &'a ModelIndex<'a>,
    /// `atoms[p][l]`: spec `l`'s proposition for shape atom `p`.
    atoms: &'a [Vec<PropId>],
    /// The lanes in use.
    live: u64,
    vec_ids: FxHashMap<(FId, ComponentId, Ctx), u32>,
    vecs: Vec<Vec<u64>>,
    frame_ids: FxHashMap<(FId, ComponentId, Ctx), FrameId>,
    frames: IdVec<FrameId, Frame>,
    masks: Vec<Vec<u64>>,
    static_masks: FxHashMap<(FId, ComponentId), u32>,
    pub(crate) stats: RksStats,
}

impl<'a> LaneSummary<'a> {
    /// An engine for `atoms[0].len()` lanes (at most [`LANES`]; a shape without atoms has one lane).
    pub(crate) fn new(rks: &'a RecursiveKripkeStructure, fm: &'a Formula, ix: &'a ModelIndex<'a>, atoms: &'a [Vec<PropId>], lanes: usize) -> LaneSummary<'a> {
        debug_assert!((1..=LANES).contains(&lanes) && atoms.iter().all(|a| a.len() == lanes));
        LaneSummary {
            rks,
            fm,
            ix,
            atoms,
            live: if lanes == LANES { u64::MAX } else { (1u64 << lanes) - 1 },
            vec_ids: FxHashMap::default(),
            vecs: Vec::new(),
            frame_ids: FxHashMap::default(),
            frames: IdVec::new(),
            masks: Vec::new(),
            static_masks: FxHashMap::default(),
            stats: RksStats::default(),
        }
    }

    /// The lanes in which `root` holds in the initial configuration of `init` (the initial
    /// context of every lane as [`super::initial_context`] gives it).
    pub(crate) fn run_root(&mut self, root: FId, init: ComponentId) -> u64 {
        let icc = self.initial_context(init, root);
        let v = self.vector(root, init, icc);
        self.vecs[v as usize].first().copied().unwrap_or(0) & self.live
    }

    /// [`super::initial_context`] of every lane, as lane words.
    fn initial_context(&self, init: ComponentId, f: FId) -> Ctx {
        let comp = self.comp(init);
        let mut out = Ctx::with_capacity(comp.exits.len() * self.fm.width(f));
        for &x in &comp.exits {
            for &g in &self.fm.deps[f] {
                let mut word = 0u64;
                for l in 0..self.lanes() {
                    let has = |p: PropId| {
                        let p = self.atoms[p.index()][l];
                        self.rks.termination == TerminationRule::Loop && comp.props.get(p).is_some_and(|b| b.contains(x.index()))
                    };
                    if self.fm.value_in_loop(g, &has) {
                        word |= 1 << l;
                    }
                }
                out.push(word);
            }
        }
        out
    }

    fn lanes(&self) -> usize {
        (u64::BITS - self.live.leading_zeros()) as usize
    }
    fn comp(&self, s: ComponentId) -> &'a Component {
        &self.rks.components[s.index()]
    }
    fn exits(&self, s: ComponentId) -> usize {
        self.rks.components[s.index()].exits.len()
    }

    /// The context of `g` contained in context `ctx` of `f` in component `s`.
    fn restrict(&self, f: FId, g: FId, ctx: &[u64], s: ComponentId) -> Ctx {
        if f == g {
            return ctx.into();
        }
        let wg = self.fm.width(g);
        if wg == 0 {
            return Ctx::new();
        }
        let (wf, p, e) = (self.fm.width(f), self.fm.projection(f, g), self.exits(s));
        let mut out = Ctx::with_capacity(e * wg);
        for k in 0..e {
            out.extend(p.iter().map(|&i| ctx[k * wf + i as usize]));
        }
        out
    }

    /// The vectors of `deps(h)` in `s` under `h`'s context (`own` at `h`'s own position).
    fn dep_vectors(&mut self, h: FId, s: ComponentId, ctx: &[u64], own: Option<u32>) -> SmallVec<[Option<u32>; 4]> {
        let fm = self.fm;
        (0..fm.deps[h].len())
            .map(|i| {
                let d = fm.deps[h][i];
                if d == h {
                    return own;
                }
                let sub = self.restrict(h, d, ctx, s);
                Some(self.vector(d, s, sub))
            })
            .collect()
    }

    /// The callee context of `h` at call `c` of `s` (per exit and dep: the lanes in which some
    /// continuation satisfies it); `h`'s own top positions stay clear.
    fn call_context(&self, s: ComponentId, c: NodeId, h: FId, dep_vecs: &[Option<u32>]) -> Ctx {
        let comp = self.comp(s);
        let et = self.exits(comp.call_target[c.index()]);
        let w = self.fm.width(h);
        let mut out: Ctx = smallvec::smallvec![0; et * w];
        for (i, v) in dep_vecs.iter().enumerate() {
            let Some(v) = v else { continue };
            let vals = &self.vecs[*v as usize];
            for k in 0..et {
                out[k * w + i] = comp.returns(c, k).iter().fold(0, |acc, &r| acc | vals[r.index()]);
            }
        }
        out
    }

    /// Per location of `s`, the lanes where `g` holds under context `ctx` (call nodes: unspecified).
    fn vector(&mut self, g: FId, s: ComponentId, ctx: Ctx) -> u32 {
        let key = (g, s, ctx);
        if let Some(&id) = self.vec_ids.get(&key) {
            return id;
        }
        let (g, s, ctx) = key;
        let v = stacker::maybe_grow(256 * 1024, 8 * 1024 * 1024, || self.compute_vector(g, s, &ctx));
        let id = self.vecs.len() as u32;
        self.vecs.push(v);
        self.vec_ids.insert((g, s, ctx), id);
        id
    }

    fn compute_vector(&mut self, g: FId, s: ComponentId, ctx: &[u64]) -> Vec<u64> {
        let comp = self.comp(s);
        let n = comp.num_nodes as usize;
        match self.fm.op(g) {
            Op::True => vec![self.live; n],
            Op::Prop(p) => {
                let mut v = vec![0u64; n];
                for (l, &q) in self.atoms[p.index()].iter().enumerate() {
                    for node in comp.props[q.index()].ones() {
                        v[node] |= 1 << l;
                    }
                }
                v
            }
            Op::Not(a) => {
                let sub = self.restrict(g, a, ctx, s);
                let va = self.vector(a, s, sub);
                let live = self.live;
                self.vecs[va as usize].iter().map(|&x| !x & live).collect()
            }
            Op::Or(a, b) | Op::And(a, b) => {
                let (sa, sb) = (self.restrict(g, a, ctx, s), self.restrict(g, b, ctx, s));
                let (va, vb) = (self.vector(a, s, sa), self.vector(b, s, sb));
                let (xa, xb) = (&self.vecs[va as usize], &self.vecs[vb as usize]);
                match self.fm.op(g) {
                    Op::Or(..) => xa.iter().zip(xb).map(|(x, y)| x | y).collect(),
                    _ => xa.iter().zip(xb).map(|(x, y)| x & y).collect(),
                }
            }
            Op::EX(a) => self.next_vector(g, a, s, ctx),
            Op::EG(_) | Op::EU(..) => {
                let (w, e) = (self.fm.width(g), self.exits(s));
                let mut key: Ctx = ctx.into();
                let mut top: SmallVec<[u64; 8]> = SmallVec::with_capacity(e);
                for k in 0..e {
                    top.push(ctx[k * w + w - 1]);
                    key[k * w + w - 1] = 0;
                }
                let fr = self.solve(g, s, key);
                let frame = &self.frames[fr];
                let mut v = frame.base.clone();
                if frame.uniform {
                    self.add_tops_uniform(frame, &top, &mut v);
                } else if top.iter().any(|&t| t != 0) {
                    let mask = self.mask_of(frame);
                    for (node, x) in v.iter_mut().enumerate() {
                        let row = &mask[node * e..(node + 1) * e];
                        *x |= row.iter().zip(&top).fold(0, |acc, (m, t)| acc | (m & t));
                    }
                }
                v
            }
        }
    }

    /// The mask rows of `frame`.
    fn mask_of(&self, frame: &Frame) -> &[u64] {
        match frame.mask {
            MODEL_MASK => self.ix.exit_reach().rows(frame.comp),
            m => &self.masks[m as usize],
        }
    }

    /// `v[node] |= top[k]` for every exit `k` in `node`'s row of `frame`'s lane-uniform mask: per
    /// distinct non-zero top word, the exits carrying it as a bit set, tested against each row.
    fn add_tops_uniform(&self, frame: &Frame, top: &[u64], v: &mut [u64]) {
        let w = frame.words;
        let mut groups: SmallVec<[(u64, SmallVec<[u64; 2]>); 4]> = SmallVec::new();
        for (k, &t) in top.iter().enumerate() {
            if t == 0 {
                continue;
            }
            let j = match groups.iter().position(|(u, _)| *u == t) {
                Some(j) => j,
                None => {
                    groups.push((t, smallvec::smallvec![0; w]));
                    groups.len() - 1
                }
            };
            groups[j].1[k / 64] |= 1 << (k % 64);
        }
        if groups.is_empty() {
            return;
        }
        let mask = self.mask_of(frame);
        for (node, x) in v.iter_mut().enumerate() {
            let row = &mask[node * w..(node + 1) * w];
            for (t, exits) in &groups {
                if row.iter().zip(exits).any(|(r, e)| r & e != 0) {
                    *x |= t;
                }
            }
        }
    }

    /// `EX a` (node `g`): a location's successors, an exit's assumption about `a`.
    fn next_vector(&mut self, g: FId, a: FId, s: ComponentId, ctx: &[u64]) -> Vec<u64> {
        let comp = self.comp(s);
        let n = comp.num_nodes as usize;
        let sub = self.restrict(g, a, ctx, s);
        let va = self.vector(a, s, sub.clone());
        let pos_a = self.fm.deps[g].binary_search(&a).expect("EX ψ records ψ");
        let w = self.fm.width(g);
        let mut entry_holds = vec![0u64; comp.calls.len()];
        if !comp.calls.is_empty() {
            let dep_vecs = self.dep_vectors(a, s, &sub, Some(va));
            for (i, &c) in comp.calls.iter().enumerate() {
                let cctx = self.call_context(s, c, a, &dep_vecs);
                let ve = self.vector(a, comp.call_target[c.index()], cctx);
                entry_holds[i] = self.vecs[ve as usize].first().copied().unwrap_or(0);
            }
        }
        let vals = &self.vecs[va as usize];
        let mut out = vec![0u64; n];
        for (node, x) in out.iter_mut().enumerate() {
            if comp.call_target[node] == NO_CALL {
                *x = comp.succ.neighbours(NodeId::new(node)).iter().fold(0, |acc, &m| {
                    acc | match comp.call_target[m.index()] {
                        NO_CALL => vals[m.index()],
                        _ => entry_holds[comp.call_index[m.index()] as usize],
                    }
                });
            }
        }
        for (k, &x) in comp.exits.iter().enumerate() {
            out[x.index()] = ctx[k * w + pos_a];
        }
        out
    }

    /// The solved frame of fixpoint node `f` in `s` under `key` (its context, top clear).
    fn solve(&mut self, f: FId, s: ComponentId, key: Ctx) -> FrameId {
        let lookup = (f, s, key);
        if let Some(&id) = self.frame_ids.get(&lookup) {
            return id;
        }
        let (f, s, key) = lookup;
        self.stats.fixpoint_rounds += 1;
        let mut new = vec![self.create_frame(f, s, key)];
        let mut i = 0;
        while i < new.len() {
            crate::deadline::tick(i);
            let id = new[i];
            i += 1;
            self.discover(id, &mut new);
        }
        self.solve_masks(&new);
        self.solve_bases(&new);
        for &id in &new {
            self.frames[id].solved = true;
        }
        self.stats.context_pairs_checked += new.len() as u64;
        new[0]
    }

    fn create_frame(&mut self, f: FId, s: ComponentId, ctx: Ctx) -> FrameId {
        let id = self.frames.next_id();
        let n = self.comp(s).num_nodes as usize;
        self.frame_ids.insert((f, s, ctx.clone()), id);
        let exits = self.exits(s);
        let a = operands(self.fm, f).0;
        let uniform = self.fm.op(a) == Op::True;
        let words = if uniform { exits.div_ceil(64) } else { exits };
        let shared = if uniform { Some(MODEL_MASK) } else { self.static_masks.get(&(a, s)).copied() };
        let mask = shared.unwrap_or_else(|| {
            self.masks.push(vec![0; n * words]);
            self.masks.len() as u32 - 1
        });
        self.frames.push(Frame {
            f,
            comp: s,
            ctx,
            a: 0,
            b: 0,
            callees: Vec::new(),
            callers: Vec::new(),
            exits,
            uniform,
            words,
            mask,
            mask_shared: shared.is_some(),
            base: Vec::new(),
            solved: false,
        });
        self.stats.context_pairs_created += 1;
        id
    }

    /// Computes frame `id`'s children and finds (creating) its callee frames.
    fn discover(&mut self, id: FrameId, new: &mut Vec<FrameId>) {
        let (f, s) = (self.frames[id].f, self.frames[id].comp);
        let ctx = self.frames[id].ctx.clone();
        let (a, b) = operands(self.fm, f);
        let sa = self.restrict(f, a, &ctx, s);
        let va = self.vector(a, s, sa);
        let vb = match b {
            Some(b) => {
                let sb = self.restrict(f, b, &ctx, s);
                self.vector(b, s, sb)
            }
            None => va,
        };
        let comp = self.comp(s);
        let mut callees = vec![NO_FRAME; comp.calls.len()];
        let vals = &self.vecs[va as usize];
        let useful: Vec<usize> = (0..comp.calls.len()).filter(|&i| comp.pred.neighbours(comp.calls[i]).iter().any(|&p| vals[p.index()] != 0)).collect();
        if !useful.is_empty() {
            let dep_vecs = self.dep_vectors(f, s, &ctx, None);
            for i in useful {
                let c = comp.calls[i];
                let t = comp.call_target[c.index()];
                let cctx = self.call_context(s, c, f, &dep_vecs);
                let lookup = (f, t, cctx);
                let callee = match self.frame_ids.get(&lookup) {
                    Some(&q) => q,
                    None => {
                        let q = self.create_frame(f, t, lookup.2);
                        new.push(q);
                        q
                    }
                };
                if !self.frames[callee].solved {
                    self.frames[callee].callers.push((id, i as u32));
                }
                callees[i] = callee;
            }
        }
        let fr = &mut self.frames[id];
        (fr.a, fr.b, fr.callees) = (va, vb, callees);
    }
}

/// The operands of fixpoint node `f`: `a` and `b` (`EU` only).
fn operands(fm: &Formula, f: FId) -> (FId, Option<FId>) {
    match fm.op(f) {
        Op::EU(a, b) => (a, Some(b)),
        Op::EG(a) => (a, None),
        _ => unreachable!("frames belong to fixpoint nodes"),
    }
}
