//! Checking one context pair locally (Finis 2012 Alg. 3.3/4.4/4.5) and the shared fixpoint
//! (Alg. 3.4 with a back-pointer worklist, thesis §5.4, and Alg. 3.6).
//!
//! [`Core`] owns the knowledge base of one check and knows how to
//! * look values up under a context (join rule for `M` tops, `M` for inner `M`s),
//! * compute the context of a call ([`Core::cc`], digest §3.9 with the disjunction rule of
//!   §4.9 for calls with several continuations, one assumption vector per exit),
//! * label a pair locally: `⊤ p ¬ ∨ ∧` pointwise, `EX` by one-step look-ahead (an exit reads the
//!   child's assumption), `EG`/`EU` by the incremental `deduceLabels` on the associated Kripke
//!   structure (locations, calls labelled by the callee's entry value, one `ω` per exit labelled
//!   by the context top): `T` where a certain witness exists, `F` where not even an uncertain one.
//!
//! Writes under an `M`-topped context go to every `T`/`F` completion where still `M` (FIX-1).
//!
//! One job per module: this one holds [`Core`] (the knowledge base of one check) and reading
//! values under a context ([`View`], [`Core::resolve`], [`Core::val`], the propositional
//! nodes' static labels); [`calls`] the contexts of calls and the pairs they lead to;
//! [`pass`] one local labelling pass ([`LocalPass`], `pass::Change`) with `deduceLabels` for
//! `EG`/`EU` over the shared kernels of [`crate::check::graph`]; [`fixpoint`] the fixpoint
//! driver (`labelByFixpoint`, `decideRemainingMaybes`); [`pool`] the per-thread pool of
//! scratch bitsets the passes use.

mod calls;
mod fixpoint;
mod pass;
mod pool;

pub(crate) use pass::LocalPass;

use super::RksStats;
use super::context::{count_top_maybes, each_completion, has_inner_maybe};
use super::formula::{FId, Formula, Op};
use super::kb::{Kb, PairId, PairList};
use crate::check::kleene::Kleene;
use crate::explicit::rks::{Component, ComponentId, NodeId, RecursiveKripkeStructure};
use crate::ir::PropId;
use crate::ir::id::IdVec;
use fixedbitset::FixedBitSet;
use smallvec::SmallVec;

/// How to read a node's values under one context.
pub(crate) enum View {
    True,
    Prop(PropId),
    /// A propositional node (no temporal operator below it): its values per component are
    /// computed once, see [`Core::statics`].
    Static(FId),
    /// The stored completions (all exist); values are joined.
    Pairs(PairList),
    Unknown,
}

pub struct Core<'a> {
    pub rks: &'a RecursiveKripkeStructure,
    pub fm: &'a Formula,
    pub kb: Kb,
    pub stats: RksStats,
    /// `statics[g][s]`: where the propositional node `g` (not `⊤`, not an atom) holds in
    /// component `s`; empty for the other nodes.
    statics: IdVec<FId, Vec<FixedBitSet>>,
    /// Per component: `exit_of[n]` = exit index of node `n` or `u32::MAX`.
    exit_of: Vec<Vec<u32>>,
    /// Per component: the locations some call returns to (the only own locations a pair's
    /// call contexts read).
    return_locs: Vec<FixedBitSet>,
    /// Per caller pair, per call: the last exact callee pair used (see
    /// [`MAX_ENUMERATED_MAYBES`]), whose known values a refined callee context inherits.
    links: Vec<SmallVec<[(NodeId, PairId); 2]>>,
    /// Contexts with more `M` tops than this are stored as they are ([`MAX_ENUMERATED_MAYBES`]
    /// by default; tests lower it to exercise ternary contexts on small models).
    pub max_enumerated_maybes: usize,
}

/// Contexts with at most this many `M` tops stand for their `T`/`F` completions (the thesis'
/// twins, FIX-1). Contexts with more (components with many exits) are stored as they are,
/// ternary, like Dubslaff et al.'s contexts: their values hold for every completion, and a
/// call whose context gets refined during a fixpoint moves to the refined pair, which inherits
/// the known values of the coarser one.
pub(crate) const MAX_ENUMERATED_MAYBES: usize = 4;

/// Values per location of one component, inline for small components.
pub(crate) type Vals = SmallVec<[Kleene; 64]>;

impl<'a> Core<'a> {
    pub fn new(rks: &'a RecursiveKripkeStructure, fm: &'a Formula) -> Core<'a> {
        let exit_of = rks
            .components
            .iter()
            .map(|c| {
                let mut v = vec![u32::MAX; c.num_nodes as usize];
                for (k, &x) in c.exits.iter().enumerate() {
                    v[x.index()] = k as u32;
                }
                v
            })
            .collect();
        let statics = static_labels(rks, fm);
        let return_locs = rks
            .components
            .iter()
            .map(|c| {
                let mut b = FixedBitSet::with_capacity(c.num_nodes as usize);
                for &x in &c.calls {
                    let t = c.call_target[x.index()].index();
                    for k in 0..rks.components[t].exits.len() {
                        b.extend(c.returns(x, k).iter().map(|&r| r.index()));
                    }
                }
                b
            })
            .collect();
        Core {
            rks,
            fm,
            kb: Kb::new(fm),
            stats: RksStats::default(),
            statics,
            exit_of,
            return_locs,
            links: Vec::new(),
            max_enumerated_maybes: MAX_ENUMERATED_MAYBES,
        }
    }

    pub(crate) fn comp(&self, s: ComponentId) -> &'a Component {
        &self.rks.components[s.index()]
    }
    pub(crate) fn exits(&self, s: ComponentId) -> usize {
        self.rks.components[s.index()].exits.len()
    }
    pub(crate) fn exit_index(&self, s: ComponentId, n: NodeId) -> Option<usize> {
        let k = self.exit_of[s.index()][n.index()];
        (k != u32::MAX).then_some(k as usize)
    }

    pub(crate) fn resolve(&self, g: FId, s: ComponentId, ctx: &[Kleene]) -> View {
        match self.fm.op(g) {
            Op::True => View::True,
            Op::Prop(p) => View::Prop(p),
            _ if self.fm.is_static(g) => View::Static(g),
            _ => {
                let e = self.exits(s);
                if has_inner_maybe(self.fm, g, ctx, e) {
                    return View::Unknown;
                }
                let maybes = count_top_maybes(self.fm, g, ctx, e);
                if maybes == 0 || maybes > self.max_enumerated_maybes {
                    return match self.kb.find(g, s, ctx) {
                        Some(p) => View::Pairs(PairList::from_slice(&[p])),
                        None => View::Unknown,
                    };
                }
                let mut ps = PairList::new();
                let all = each_completion(self.fm, g, ctx, e, |c| match self.kb.find(g, s, c) {
                    Some(p) => {
                        ps.push(p);
                        true
                    }
                    None => false,
                });
                if all { View::Pairs(ps) } else { View::Unknown }
            }
        }
    }

    /// Number of `M`s at `g`'s own top positions in `ctx`.
    pub(crate) fn top_maybes(&self, g: FId, s: ComponentId, ctx: &[Kleene]) -> usize {
        count_top_maybes(self.fm, g, ctx, self.exits(s))
    }

    /// True if `ctx` is stored as it is (more `M` tops than are enumerated).
    pub(crate) fn is_exact_ternary(&self, g: FId, s: ComponentId, ctx: &[Kleene]) -> bool {
        self.top_maybes(g, s, ctx) > self.max_enumerated_maybes
    }

    pub(crate) fn val(&self, v: &View, s: ComponentId, l: NodeId) -> Kleene {
        match v {
            View::True => Kleene::True,
            View::Prop(p) => Kleene::from_bool(self.comp(s).props.get(*p).is_some_and(|b| b.contains(l.index()))),
            View::Static(g) => Kleene::from_bool(self.statics[*g][s.index()].contains(l.index())),
            View::Pairs(ps) => {
                let mut it = ps.iter().map(|&p| self.kb.pairs[p].vals[l.index()]);
                let first = it.next().unwrap_or(Kleene::Unknown);
                it.fold(first, Kleene::join)
            }
            View::Unknown => Kleene::Unknown,
        }
    }

    pub fn get(&self, g: FId, s: ComponentId, ctx: &[Kleene], l: NodeId) -> Kleene {
        self.val(&self.resolve(g, s, ctx), s, l)
    }

    /// Every location of pair `p` decided.
    pub(crate) fn is_complete(&self, p: PairId) -> bool {
        let pair = &self.kb.pairs[p];
        let comp = self.comp(pair.comp);
        pair.vals.iter().enumerate().all(|(l, x)| x.is_known() || comp.is_call(NodeId::new(l)))
    }

    pub fn finish_stats(&mut self) -> RksStats {
        let mut st = self.stats.clone();
        st.context_pairs_created = self.kb.pairs.len() as u64;
        st
    }
}

/// Per node, the locations of each component where the node holds if it is propositional
/// (and not `⊤` or an atom, which are read straight off the labels); empty otherwise.
fn static_labels(rks: &RecursiveKripkeStructure, fm: &Formula) -> IdVec<FId, Vec<FixedBitSet>> {
    let mut out: IdVec<FId, Vec<FixedBitSet>> = IdVec::from_elem(Vec::new(), fm.nodes.len());
    for f in fm.nodes.indices() {
        let op = fm.nodes[f];
        if !fm.is_static(f) || matches!(op, Op::True | Op::Prop(_)) {
            continue;
        }
        let per_comp = rks
            .components
            .iter()
            .enumerate()
            .map(|(s, comp)| {
                let n = comp.num_nodes as usize;
                let bits = |g: FId| -> FixedBitSet {
                    match fm.nodes[g] {
                        Op::True => {
                            let mut b = FixedBitSet::with_capacity(n);
                            b.insert_range(..);
                            b
                        }
                        Op::Prop(p) => {
                            let mut b = comp.props.get(p).cloned().unwrap_or_default();
                            b.grow(n);
                            b
                        }
                        _ => out[g][s].clone(),
                    }
                };
                let mut b = match op {
                    Op::Not(a) => {
                        let mut b = bits(a);
                        b.toggle_range(..);
                        b
                    }
                    Op::Or(a, c) => {
                        let mut b = bits(a);
                        b.union_with(&bits(c));
                        b
                    }
                    Op::And(a, c) => {
                        let mut b = bits(a);
                        b.intersect_with(&bits(c));
                        b
                    }
                    _ => unreachable!("temporal operators are not propositional"),
                };
                b.grow(n);
                b
            })
            .collect();
        out[f] = per_comp;
    }
    out
}
