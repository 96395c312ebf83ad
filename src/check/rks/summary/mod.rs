//! The summary engine: exact CTL labelling of a recursive Kripke structure in which a fixpoint
//! operator's own value after the return is not part of its call context but is carried as an
//! exit summary.
//!
//! Finis' engines key a pair by the full context of a node `f`: for every exit, the values of
//! `deps(f)` in the return location, `f`'s own value (the context "top") included. The top is
//! what makes `EG`/`EU` pairs come in twins and their fixpoints run over uncertain (`M`)
//! values. But `EG`/`EU` are *disjunctive* in their top: with `a`/`b` the children, the value
//! in location `n` of a frame whose top vector is `t` is
//!
//! ```text
//!   base(n) ∨ (mask(n) ∩ t ≠ ∅)
//! ```
//!
//! where `mask(n)` is the set of exits reachable from `n` on `a`-paths (calls that return
//! included) and `base(n)` says the formula holds without leaving the frame (`EU`: a `b`
//! location is reached on an `a`-path, possibly inside a callee that never returns; `EG`: an
//! infinite `a`-path that stays in the frame or descends for ever). Neither depends on `t`.
//! So this engine keys a fixpoint *frame* by `(f, component, context without the top)` and
//! stores `base` and `mask` per location: one exact, two-valued solution per frame, no
//! twins, no `M`.
//!
//! Every other node is a vector over the component's nodes computed from its children under
//! its context (`¬ ∨ ∧` pointwise; `EX ψ` by one-step look-ahead, an exit reading `ψ`'s
//! assumption, a call reading `ψ` at the callee's entry), memoised per (node, component,
//! context). A call's context is the disjunction rule of the other engines: per callee exit,
//! per node of `deps`, "some continuation satisfies it".
//!
//! Frames are solved on demand from the initial context: discovering a frame computes its
//! children's vectors (solving lower fixpoint nodes' frames first, completely) and the
//! contexts of its calls, which discovers the callee frames. The new frames of one node are
//! then solved together, each phase by one worklist of (frame, node) across all of them: first
//! the masks (least fixpoint: reachability of exits), then `base` (`EU`: least fixpoint,
//! backward reachability of `b`; `EG`: greatest fixpoint, removal of dead ends with successor
//! counters, starting from "every callee entry holds"). A node's row changes at most once per
//! exit (masks) or once (bases), so solving is linear in the frames' edges times the exits.
//! A solved frame never changes, so later specs sharing the engine reuse it.
//!
//! Semantics are those of the other engines (see the parent module): calls are transparent,
//! exits continue at the call's continuations, and the initial context encodes the
//! termination rule. Calls without a predecessor satisfying the fixpoint's `a` cannot
//! influence its values and are not explored.
//!
//! Modules: `index`, the per-component reverse index of return edges; `pred_rows`, predecessor,
//! successor and continuation bit rows of dense components (for the worklists and the call
//! contexts); `entry_rows`, which solves the groups of dense components for their entry rows
//! only and finds a location's mask when a vector asks for it;
//! `quotient`, which merges the frames of a group that have equal solutions so that only one
//! per class is solved; `model_masks`, which gives the frames whose `a` holds everywhere the
//! model's exit reachability (`exit_reach`) as their masks; `solve`, the worklists that solve a
//! group of new frames.

mod entry_rows;
mod exit_reach;
mod index;
mod model_masks;
mod pred_rows;
mod quotient;
mod solve;

pub(crate) use index::ModelIndex;

use super::RksStats;
use super::formula::{FId, Formula, Op};
use super::trace::Labelling;
use crate::check::kleene::Kleene;
use crate::explicit::rks::{Component, ComponentId, NO_CALL, NodeId, RecursiveKripkeStructure};
use crate::ir::id::IdVec;
use fixedbitset::FixedBitSet;
use rustc_hash::FxHashMap;
use smallvec::SmallVec;
use std::cell::RefCell;

/// A two-valued context (or any bit vector), 64 bits per word, unused high bits zero.
type Bits = SmallVec<[u64; 2]>;

fn bits_zero(len: usize) -> Bits {
    smallvec::smallvec![0; len.div_ceil(64)]
}
fn bit(b: &[u64], i: usize) -> bool {
    b[i / 64] >> (i % 64) & 1 == 1
}
/// Bit `i` of the blocks of a [`FixedBitSet`].
fn bit_usize(b: &[usize], i: usize) -> bool {
    b[i / usize::BITS as usize] >> (i % usize::BITS as usize) & 1 == 1
}
fn set_bit(b: &mut [u64], i: usize) {
    b[i / 64] |= 1 << (i % 64);
}
/// Calls `f` on each call position (`64·word + bit`, an index into `Component::calls`) set in
/// `bits`: the word of one `ModelIndex::ret_words` entry, possibly masked.
#[inline]
pub(crate) fn for_each_call_position(word: u32, mut bits: u64, mut f: impl FnMut(usize)) {
    let base = word as usize * 64;
    while bits != 0 {
        f(base + bits.trailing_zeros() as usize);
        bits &= bits - 1;
    }
}

/// The `len` bits (at most 64) of `b` from bit `at` on, as the low bits of a word.
#[inline]
fn bits_at(b: &[u64], at: usize, len: usize) -> u64 {
    debug_assert!(len <= 64);
    if len == 0 {
        return 0;
    }
    let (word, shift) = (at / 64, at % 64);
    let mut x = b[word] >> shift;
    if shift + len > 64 {
        x |= b[word + 1] << (64 - shift);
    }
    if len == 64 { x } else { x & ((1 << len) - 1) }
}

/// Sets in `b` the bits of `x` (its low `len` bits, at most 64; the others clear) at bit `at` on.
#[inline]
fn or_bits_at(b: &mut [u64], at: usize, x: u64, len: usize) {
    debug_assert!(len <= 64 && (len == 64 || x >> len == 0));
    if len == 0 {
        return;
    }
    let (word, shift) = (at / 64, at % 64);
    b[word] |= x << shift;
    if shift + len > 64 {
        b[word + 1] |= x >> (64 - shift);
    }
}

/// Calls `f` on each position in `range` set in `b`, in increasing order, a word at a time.
#[inline]
fn for_each_one_in(b: &[u64], range: std::ops::Range<usize>, mut f: impl FnMut(usize)) {
    if range.is_empty() {
        return;
    }
    let first = range.start / 64;
    for (word, &w) in b.iter().enumerate().take((range.end - 1) / 64 + 1).skip(first) {
        let mut bits = w;
        let base = word * 64;
        if range.start > base {
            bits &= !0u64 << (range.start - base);
        }
        if range.end < base + 64 {
            bits &= (1u64 << (range.end - base)) - 1;
        }
        while bits != 0 {
            f(base + bits.trailing_zeros() as usize);
            bits &= bits - 1;
        }
    }
}

/// `row |= add` (rows of exit bits, equal lengths); true if `row` changed.
#[inline]
fn merge_row(row: &mut [u64], add: &[u64]) -> bool {
    if let ([x], [y]) = (&mut *row, add) {
        // At most 64 exits: one word.
        let changed = *x | y != *x;
        *x |= y;
        return changed;
    }
    let mut changed = false;
    for (x, y) in row.iter_mut().zip(add) {
        changed |= *x | y != *x;
        *x |= y;
    }
    changed
}
/// The operands of fixpoint node `f`: `a` (`ψ` of `E[ψ U χ]` or `EG ψ`) and `b` (`χ`, `EU` only).
fn operands(fm: &Formula, f: FId) -> (FId, Option<FId>) {
    match fm.op(f) {
        Op::EU(a, b) => (a, Some(b)),
        Op::EG(a) => (a, None),
        _ => unreachable!("frames belong to fixpoint nodes"),
    }
}

/// A two-valued ternary context as bits (`T` set).
fn to_bits(ctx: &[Kleene]) -> Bits {
    let mut out = bits_zero(ctx.len());
    for (i, &t) in ctx.iter().enumerate() {
        debug_assert!(t.is_known(), "the summary engine's contexts are two-valued");
        if t == Kleene::True {
            set_bit(&mut out, i);
        }
    }
    out
}

/// The summary engine as a [`Labelling`] for traces (values computed on demand).
pub(crate) struct SummaryLabels<'e, 'a>(pub RefCell<&'e mut Summary<'a>>);

impl<'a> Labelling<'a> for SummaryLabels<'_, 'a> {
    fn rks(&self) -> &'a RecursiveKripkeStructure {
        self.0.borrow().rks
    }
    fn fm(&self) -> &'a Formula {
        self.0.borrow().fm
    }
    fn locations(&self, h: FId, s: ComponentId, ctx: &[Kleene]) -> FixedBitSet {
        self.0.borrow_mut().locations(h, s, ctx)
    }
    fn value(&self, h: FId, s: ComponentId, ctx: &[Kleene], node: NodeId) -> bool {
        let mut e = self.0.borrow_mut();
        let v = e.vector(h, s, to_bits(ctx));
        e.vecs[v as usize].contains(node.index())
    }
    fn call_context(&self, s: ComponentId, call: NodeId, f: FId, ctx: &[Kleene]) -> Vec<Kleene> {
        self.0.borrow_mut().full_call_context(s, call, f, ctx)
    }
}

crate::index_type! {
    /// A fixpoint frame of one [`Summary`] (position in `Summary::frames`).
    struct FrameId;
}
crate::index_type! {
    /// An interned context of one [`Summary`] (position in `Summary::ctxs`): vectors and frames
    /// are keyed by it, so that the calls of one continuation class, which share a context,
    /// hash it once and look up their callees by three integers.
    struct CtxId;
}
/// No callee frame (a call no `a` location leads to).
const NO_FRAME: FrameId = FrameId::from_u32(u32::MAX);
/// [`Frame::mask`] of a frame without mask rows (not allocated yet, or lazy).
const NO_MASK: u32 = u32::MAX;

/// One fixpoint frame: `EG`/`EU` node `f` in component `comp` under a context without top.
struct Frame {
    f: FId,
    comp: ComponentId,
    /// `f`'s context with every top bit clear (it restricts to every strict subformula).
    ctx: Bits,
    /// Vector ids of the children (`a` = `ψ`; `b` = `χ` of `E[ψ U χ]`, unused for `EG`).
    a: u32,
    b: u32,
    /// Per call (position in `comp.calls`): the callee frame, or [`NO_FRAME`] for a call no
    /// `a` location leads to.
    callees: Vec<FrameId>,
    /// Unsolved frames calling this one, with the call's position: their call nodes are
    /// updated when this frame's entry changes.
    callers: Vec<(FrameId, u32)>,
    /// Words per location in the mask.
    words: usize,
    /// The exits reachable on `a`-paths, `words` words per node: an index into
    /// [`Summary::masks`], shared by the frames of every fixpoint node with the same static `a`.
    mask: u32,
    /// The mask is a solved shared one (not recomputed).
    mask_shared: bool,
    /// The frame has no mask rows (`mask` is [`NO_MASK`]): its entry row is `entry` and a
    /// location's mask is found when a vector asks for it ([`Summary::vector_under_top`]), from `a`
    /// and `live`, which it keeps once solved. See [`Summary::solve_entry_rows`].
    lazy: bool,
    /// A lazy frame's entry row (the exits reachable from its entry; at most 64).
    entry: u64,
    /// Where the formula holds whatever the top.
    base: FixedBitSet,
    /// While the frame's group is solved: per callee exit `k`, `call_words` words holding the
    /// calls (bit = position in `comp.calls`) whose callee frame's entry reaches `k` (the callee's
    /// mask row at its entry; none without callee frame), kept equal to it as the callee's entry
    /// grows. The worklists filter the return edges into a location 64 calls at a time with it
    /// (see `ModelIndex::ret_words`), reading it next to the caller's other data instead of
    /// through each callee frame and its mask. Empty once solved.
    live: Vec<u64>,
    call_words: usize,
    /// While the frame's masks are solved: the entry row last sent to the callers' calls.
    sent: Bits,
    solved: bool,
}

pub(crate) struct Summary<'a> {
    pub rks: &'a RecursiveKripkeStructure,
    pub fm: &'a Formula,
    ix: &'a ModelIndex<'a>,
    /// The distinct contexts met so far, and their ids.
    ctxs: IdVec<CtxId, Bits>,
    ctx_ids: FxHashMap<Bits, CtxId>,
    vec_ids: FxHashMap<(FId, ComponentId, CtxId), u32>,
    vecs: Vec<FixedBitSet>,
    /// Per vector id of a component with [`pred_rows::ReturnRows`], computed on first use:
    /// bit `j` says that some continuation of (call, exit) pair `j` is in the vector (empty:
    /// not computed yet; see [`Self::call_context`]).
    meets: Vec<Bits>,
    frame_ids: FxHashMap<(FId, ComponentId, CtxId), FrameId>,
    frames: IdVec<FrameId, Frame>,
    masks: Vec<Vec<u64>>,
    /// Solved masks of frames whose `a` is static, by (`a`, component): they depend on
    /// nothing else (callee masks are those of the same `a`).
    static_masks: FxHashMap<(FId, ComponentId), u32>,
    /// Per component, the mask taken from the model's exit reachability (see `model_masks`).
    model_masks: FxHashMap<ComponentId, u32>,
    pub stats: RksStats,
}

impl<'a> Summary<'a> {
    pub(crate) fn new(rks: &'a RecursiveKripkeStructure, fm: &'a Formula, ix: &'a ModelIndex<'a>) -> Summary<'a> {
        Summary {
            rks,
            fm,
            ix,
            ctxs: IdVec::new(),
            ctx_ids: FxHashMap::default(),
            vec_ids: FxHashMap::default(),
            vecs: Vec::new(),
            meets: Vec::new(),
            frame_ids: FxHashMap::default(),
            frames: IdVec::new(),
            masks: Vec::new(),
            static_masks: FxHashMap::default(),
            model_masks: FxHashMap::default(),
            stats: RksStats::default(),
        }
    }

    /// The value of `root` in the initial configuration of `init` under its initial context
    /// `icc` (two-valued, see [`super::initial_context`]).
    pub(crate) fn run_root(&mut self, root: FId, init: ComponentId, icc: &[Kleene]) -> bool {
        let v = self.vector(root, init, to_bits(icc));
        self.vecs[v as usize].contains(0)
    }

    /// Where `h` holds in component `s` under its two-valued context `ctx` (calls: false).
    pub(crate) fn locations(&mut self, h: FId, s: ComponentId, ctx: &[Kleene]) -> FixedBitSet {
        let v = self.vector(h, s, to_bits(ctx));
        let mut out = self.vecs[v as usize].clone();
        for &c in &self.comp(s).calls {
            out.set(c.index(), false);
        }
        out
    }

    /// The full context of `f` (its own top included) in the callee of call `call` of `s`.
    pub(crate) fn full_call_context(&mut self, s: ComponentId, call: NodeId, f: FId, ctx: &[Kleene]) -> Vec<Kleene> {
        let bits = to_bits(ctx);
        let own = self.fm.op(f).is_fixpoint().then(|| self.vector(f, s, bits.clone()));
        let deps = self.dep_vectors(f, s, &bits, own);
        let out = self.call_context(s, call, f, &deps);
        let len = self.exits(self.comp(s).call_target[call.index()]) * self.fm.width(f);
        (0..len).map(|i| Kleene::from_bool(bit(&out, i))).collect()
    }

    fn comp(&self, s: ComponentId) -> &'a Component {
        &self.rks.components[s.index()]
    }
    fn exits(&self, s: ComponentId) -> usize {
        self.rks.components[s.index()].exits.len()
    }

    /// The context of `g` contained in context `ctx` of `f` in component `s`.
    fn restrict(&self, f: FId, g: FId, ctx: &[u64], s: ComponentId) -> Bits {
        if f == g {
            return ctx.into();
        }
        let wg = self.fm.width(g);
        if wg == 0 {
            return Bits::new();
        }
        let (wf, p, e) = (self.fm.width(f), self.fm.projection(f, g), self.exits(s));
        let mut out = bits_zero(e * wg);
        let words = out.as_mut_slice();
        if wf <= 64 {
            // Per exit, `f`'s bits as one word, `g`'s gathered from it.
            for k in 0..e {
                let x = bits_at(ctx, k * wf, wf);
                if x != 0 {
                    let y = p.iter().enumerate().fold(0u64, |y, (j, &i)| y | (x >> i & 1) << j);
                    or_bits_at(words, k * wg, y, wg);
                }
            }
        } else {
            for k in 0..e {
                for (j, &i) in p.iter().enumerate() {
                    if bit(ctx, k * wf + i as usize) {
                        set_bit(words, k * wg + j);
                    }
                }
            }
        }
        out
    }

    /// The vectors of `deps(h)` in component `s` under `h`'s context `ctx`. If `h` is a fixpoint
    /// node, its own position gets `own`: `h`'s vector when known (`EX h` reads `h` at the
    /// callee's entry under the full context), `None` for a frame key (top left clear).
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

    /// The callee context of `h` at call `c` of `s` from the caller's `deps(h)` vectors
    /// (disjunction over each exit's continuations); `h`'s own top positions stay clear.
    fn call_context(&mut self, s: ComponentId, c: NodeId, h: FId, dep_vecs: &[Option<u32>]) -> Bits {
        let comp = self.comp(s);
        let et = self.exits(comp.call_target[c.index()]);
        let w = self.fm.width(h);
        let mut out = bits_zero(et * w);
        match self.ix.return_rows(s) {
            // Dense component: each vector's continuation bits are computed once (a vector is
            // read by many calls and frames: on grid cell 40/46, 10.5 M (vector, call) reads
            // of 12 K vectors).
            Some(rows) => {
                // The pairs of the call's class's first call, which `meets` holds.
                let first = comp.return_offsets[rows.class(comp.call_index[c.index()] as usize)] as usize;
                let words = out.as_mut_slice();
                let mut present = 0u64;
                for (i, v) in dep_vecs.iter().enumerate() {
                    let Some(v) = *v else { continue };
                    let v = v as usize;
                    if self.meets.len() <= v {
                        self.meets.resize(v + 1, Bits::new());
                    }
                    if self.meets[v].is_empty() {
                        self.meets[v] = rows.meets_all(self.vecs[v].as_slice());
                    }
                    if et > 64 || w > 64 {
                        // The call's pairs are bits `first..first + et`: only their set bits.
                        for_each_one_in(&self.meets[v], first..first + et, |j| set_bit(words, (j - first) * w + i));
                    } else {
                        present |= 1 << i;
                    }
                }
                if present != 0 {
                    // Most pairs meet most vectors (on the grid ~40 continuations per pair):
                    // every exit's group gets all deps, then the (exit, dep) pairs that do not
                    // meet are cleared.
                    for k in 0..et {
                        or_bits_at(words, k * w, present, w);
                    }
                    let mut deps = present;
                    while deps != 0 {
                        let i = deps.trailing_zeros() as usize;
                        deps &= deps - 1;
                        let v = dep_vecs[i].expect("present") as usize;
                        let mut missing = !bits_at(&self.meets[v], first, et) & if et == 64 { !0 } else { (1 << et) - 1 };
                        while missing != 0 {
                            let j = missing.trailing_zeros() as usize * w + i;
                            words[j / 64] &= !(1 << (j % 64));
                            missing &= missing - 1;
                        }
                    }
                }
            }
            None => {
                for (i, v) in dep_vecs.iter().enumerate() {
                    let Some(v) = v else { continue };
                    let vals = &self.vecs[*v as usize];
                    for k in 0..et {
                        if comp.returns(c, k).iter().any(|&r| vals.contains(r.index())) {
                            set_bit(&mut out, k * w + i);
                        }
                    }
                }
            }
        }
        out
    }

    /// The id of context `ctx`, interned on first use.
    fn intern(&mut self, ctx: &[u64]) -> CtxId {
        if let Some(&id) = self.ctx_ids.get(ctx) {
            return id;
        }
        let id = self.ctxs.push(ctx.into());
        self.ctx_ids.insert(ctx.into(), id);
        id
    }

    /// Where `g` holds in component `s` under its context `ctx` (call nodes: unspecified).
    fn vector(&mut self, g: FId, s: ComponentId, ctx: Bits) -> u32 {
        let ctx = self.intern(&ctx);
        self.vector_in(g, s, ctx)
    }

    /// [`Self::vector`] under an interned context.
    fn vector_in(&mut self, g: FId, s: ComponentId, ctx: CtxId) -> u32 {
        if let Some(&id) = self.vec_ids.get(&(g, s, ctx)) {
            return id;
        }
        let bits = self.ctxs[ctx].clone();
        let v = stacker::maybe_grow(256 * 1024, 8 * 1024 * 1024, || self.compute_vector(g, s, &bits));
        let id = self.vecs.len() as u32;
        self.vecs.push(v);
        self.vec_ids.insert((g, s, ctx), id);
        id
    }

    fn compute_vector(&mut self, g: FId, s: ComponentId, ctx: &[u64]) -> FixedBitSet {
        let comp = self.comp(s);
        let n = comp.num_nodes as usize;
        match self.fm.op(g) {
            Op::True => {
                let mut v = FixedBitSet::with_capacity(n);
                v.insert_range(..);
                v
            }
            Op::Prop(p) => {
                let mut v = comp.props[p.index()].clone();
                v.grow(n);
                v
            }
            Op::Not(a) => {
                let sub = self.restrict(g, a, ctx, s);
                let va = self.vector(a, s, sub);
                let mut v = self.vecs[va as usize].clone();
                v.toggle_range(..);
                v
            }
            Op::Or(a, b) | Op::And(a, b) => {
                let (sa, sb) = (self.restrict(g, a, ctx, s), self.restrict(g, b, ctx, s));
                let (va, vb) = (self.vector(a, s, sa), self.vector(b, s, sb));
                let mut v = self.vecs[va as usize].clone();
                match self.fm.op(g) {
                    Op::Or(..) => v.union_with(&self.vecs[vb as usize]),
                    _ => v.intersect_with(&self.vecs[vb as usize]),
                }
                v
            }
            Op::EX(a) => self.next_vector(g, a, s, ctx),
            Op::EG(_) | Op::EU(..) => {
                let w = self.fm.width(g);
                let e = self.exits(s);
                let mut key: Bits = ctx.into();
                let mut top = bits_zero(e);
                for k in 0..e {
                    let i = k * w + w - 1;
                    if bit(ctx, i) {
                        set_bit(&mut top, k);
                        key[i / 64] &= !(1 << (i % 64));
                    }
                }
                let fr = self.solve(g, s, key);
                let frame = &self.frames[fr];
                if frame.lazy {
                    return match top.first() {
                        Some(&t) if t != 0 => self.vector_under_top(fr, t),
                        _ => frame.base.clone(),
                    };
                }
                let mut v = frame.base.clone();
                if top.iter().any(|&t| t != 0) {
                    let mask = &self.masks[frame.mask as usize];
                    for node in 0..n {
                        let m = &mask[node * frame.words..(node + 1) * frame.words];
                        if m.iter().zip(&top).any(|(x, t)| x & t != 0) {
                            v.insert(node);
                        }
                    }
                }
                v
            }
        }
    }

    /// `EX a` (node `g`): a location's successors, an exit's assumption about `a`.
    fn next_vector(&mut self, g: FId, a: FId, s: ComponentId, ctx: &[u64]) -> FixedBitSet {
        let comp = self.comp(s);
        let n = comp.num_nodes as usize;
        let sub = self.restrict(g, a, ctx, s);
        let va = self.vector(a, s, sub.clone());
        let pos_a = self.fm.deps[g].binary_search(&a).expect("EX ψ records ψ");
        let w = self.fm.width(g);
        // ψ at each callee's entry.
        let mut entry_holds = FixedBitSet::with_capacity(comp.calls.len());
        if !comp.calls.is_empty() {
            let dep_vecs = self.dep_vectors(a, s, &sub, Some(va));
            let mut contexts = CallContexts::new(self.ix, s, comp.calls.len());
            for (i, &c) in comp.calls.iter().enumerate() {
                let cctx = contexts.get(i, || {
                    let bits = self.call_context(s, c, a, &dep_vecs);
                    self.intern(&bits)
                });
                let ve = self.vector_in(a, comp.call_target[c.index()], cctx);
                entry_holds.set(i, self.vecs[ve as usize].contains(0));
            }
        }
        let vals = &self.vecs[va as usize];
        let mut out = FixedBitSet::with_capacity(n);
        match self.ix.pred_rows(s) {
            // Dense component: the union of the predecessor rows of the successors that
            // satisfy `a` (a location by its value, a call by its callee's entry).
            Some(rows) => {
                let mut targets = vals.clone();
                for (i, &c) in comp.calls.iter().enumerate() {
                    targets.set(c.index(), entry_holds.contains(i));
                }
                let words = out.as_mut_slice();
                for m in targets.ones() {
                    for (o, r) in words.iter_mut().zip(rows.row(NodeId::new(m))) {
                        *o |= r;
                    }
                }
                for &c in &comp.calls {
                    out.set(c.index(), false);
                }
            }
            None => {
                for node in 0..n {
                    if comp.call_target[node] == NO_CALL {
                        let holds = comp.succ.neighbours(NodeId::new(node)).iter().any(|&m| match comp.call_target[m.index()] {
                            NO_CALL => vals.contains(m.index()),
                            _ => entry_holds.contains(comp.call_index[m.index()] as usize),
                        });
                        out.set(node, holds);
                    }
                }
            }
        }
        // Exits have no intra-component successors: they read the assumption about `a`.
        for (k, &x) in comp.exits.iter().enumerate() {
            out.set(x.index(), bit(ctx, k * w + pos_a));
        }
        out
    }

    /// The solved frame of fixpoint node `f` in `s` under `key` (its context, top clear).
    fn solve(&mut self, f: FId, s: ComponentId, key: Bits) -> FrameId {
        let key = self.intern(&key);
        if let Some(&id) = self.frame_ids.get(&(f, s, key)) {
            debug_assert!(self.frames[id].solved, "a node's frames are solved before its parents read them");
            return id;
        }
        self.stats.fixpoint_rounds += 1;
        let mut new = vec![self.create_frame(f, s, key)];
        let mut i = 0;
        while i < new.len() {
            crate::deadline::tick(i);
            let id = new[i];
            i += 1;
            self.discover(id, &mut new);
        }
        let lazy = self.lazy_group(&new);
        if !lazy {
            self.allocate_masks(&new);
            self.use_model_masks(&new);
        }
        let (reps, rep) = self.quotient(&new);
        self.init_entry_rows(&reps);
        if lazy {
            self.solve_entry_rows(&reps);
        } else {
            self.solve_masks(&reps);
        }
        self.solve_bases(&reps);
        self.copy_solutions(&new, &rep);
        for &id in &new {
            let fr = &mut self.frames[id];
            fr.solved = true;
            if !fr.lazy {
                fr.live = Vec::new();
            }
            fr.sent = Bits::new();
        }
        self.stats.context_pairs_checked += reps.len() as u64;
        new[0]
    }

    fn create_frame(&mut self, f: FId, s: ComponentId, ctx_id: CtxId) -> FrameId {
        let id = self.frames.next_id();
        let n = self.comp(s).num_nodes as usize;
        self.frame_ids.insert((f, s, ctx_id), id);
        let ctx = self.ctxs[ctx_id].clone();
        let words = self.exits(s).div_ceil(64);
        let (a, _) = operands(self.fm, f);
        let shared = self.static_masks.get(&(a, s)).copied();
        // Own mask rows are allocated when the frame's group turns out to need them.
        let mask = shared.unwrap_or(NO_MASK);
        self.frames.push(Frame {
            f,
            comp: s,
            ctx,
            a: 0,
            b: 0,
            callees: Vec::new(),
            callers: Vec::new(),
            words,
            mask,
            mask_shared: shared.is_some(),
            lazy: false,
            entry: 0,
            base: FixedBitSet::with_capacity(n),
            live: Vec::new(),
            call_words: 0,
            sent: Bits::new(),
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
        // The calls some `a` location leads to (a word test per row word in dense components).
        let vals = self.vecs[va as usize].as_slice();
        let useful: Vec<usize> = match self.ix.pred_rows(s) {
            Some(rows) => (0..comp.calls.len()).filter(|&i| rows.row(comp.calls[i]).iter().zip(vals).any(|(r, v)| r & v != 0)).collect(),
            None => (0..comp.calls.len()).filter(|&i| comp.pred.neighbours(comp.calls[i]).iter().any(|&p| bit_usize(vals, p.index()))).collect(),
        };
        if !useful.is_empty() {
            let dep_vecs = self.dep_vectors(f, s, &ctx, None);
            let mut contexts = CallContexts::new(self.ix, s, comp.calls.len());
            for i in useful {
                let c = comp.calls[i];
                let t = comp.call_target[c.index()];
                let cctx = contexts.get(i, || {
                    let bits = self.call_context(s, c, f, &dep_vecs);
                    self.intern(&bits)
                });
                let callee = match self.frame_ids.get(&(f, t, cctx)) {
                    Some(&q) => q,
                    None => {
                        let q = self.create_frame(f, t, cctx);
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

/// The call contexts of one node's calls under one context, computed once per class of calls
/// with the same continuations ([`pred_rows::ReturnRows::class`]); without return rows, once
/// per call.
struct CallContexts<'i> {
    rows: Option<&'i pred_rows::ReturnRows>,
    known: Vec<Option<CtxId>>,
}

impl<'i> CallContexts<'i> {
    fn new(ix: &'i ModelIndex<'_>, s: ComponentId, calls: usize) -> CallContexts<'i> {
        let rows = ix.return_rows(s);
        CallContexts { rows, known: if rows.is_some() { vec![None; calls] } else { Vec::new() } }
    }
    /// The context of call position `i`, from `compute` unless a call of its class has it.
    fn get(&mut self, i: usize, compute: impl FnOnce() -> CtxId) -> CtxId {
        let Some(rows) = self.rows else { return compute() };
        *self.known[rows.class(i)].get_or_insert_with(compute)
    }
}

#[cfg(test)]
mod bit_tests {
    use super::{bits_at, for_each_one_in, or_bits_at};

    #[test]
    fn bits_at_and_or_bits_at_agree_with_bit_by_bit_access() {
        let b = [0xF0F0_0000_0000_000Fu64, 0x8000_0000_0000_0001, 0x1234_5678_9ABC_DEF0];
        for at in 0..130 {
            for len in 0..=64.min(192 - at) {
                let want = (0..len).fold(0u64, |x, j| x | (b[(at + j) / 64] >> ((at + j) % 64) & 1) << j);
                assert_eq!(bits_at(&b, at, len), want, "bits_at {at} {len}");
                let mut out = [0u64; 3];
                or_bits_at(&mut out, at, want, len);
                let mut expect = [0u64; 3];
                for j in (0..len).filter(|&j| want >> j & 1 == 1) {
                    expect[(at + j) / 64] |= 1 << ((at + j) % 64);
                }
                assert_eq!(out, expect, "or_bits_at {at} {len}");
            }
        }
    }

    #[test]
    fn ones_in_a_range_across_words() {
        let b = [0xF000_0000_0000_000Fu64, 0x8000_0000_0000_0001, u64::MAX];
        for lo in 0..192 {
            for hi in lo..=192 {
                let mut got = Vec::new();
                for_each_one_in(&b, lo..hi, |j| got.push(j));
                let want: Vec<usize> = (lo..hi).filter(|&j| b[j / 64] >> (j % 64) & 1 == 1).collect();
                assert_eq!(got, want, "{lo}..{hi}");
            }
        }
    }
}
