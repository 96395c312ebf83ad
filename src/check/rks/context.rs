//! Call contexts and their interning.
//!
//! A context of formula node `f` for a component with `E` exits is a flat vector of `E ·
//! |deps(f)|` ternary assumptions, exit-major: entry `k · |deps(f)| + i` is the assumption about
//! `deps(f)[i]` in the location reached when the component returns through exit `k`. With one
//! exit this is Finis' context tree restricted to the nodes that are ever read; with several it
//! is Dubslaff et al.'s one assumption vector per exit.
//!
//! Contexts are interned to dense [`CtxId`]s (per formula node), so knowledge-base keys are
//! small integers. A context of at most [`PACKED_MAX`] entries is hashed as one packed word (two
//! bits per entry); longer ones by their entries. Only `M` at the top positions (the node's own
//! value, for `EG`/`EU`) is meaningful as "either": [`each_completion`] lists the `T`/`F`
//! contexts it covers. Contexts are passed around as [`Ctx`], inline up to 32 entries;
//! [`restrict`] projects a context of a node onto one of its children or dependencies.

use super::formula::{FId, Formula};
use crate::check::kleene::Kleene;
use crate::ir::id::IdVec;
use rustc_hash::FxHashMap;
use smallvec::SmallVec;

crate::index_type! {
    /// An interned context ([`Contexts`]).
    pub struct CtxId;
}

/// A context held by value: no heap allocation up to 32 entries.
pub(crate) type Ctx = SmallVec<[Kleene; 32]>;

/// Longest context packed into one word.
pub(crate) const PACKED_MAX: usize = 31;

/// The context as one word (entry `i` in bits `2i..2i+2`, a marker bit above the last entry),
/// if it has at most [`PACKED_MAX`] entries.
pub(crate) fn pack(v: &[Kleene]) -> Option<u64> {
    if v.len() > PACKED_MAX {
        return None;
    }
    Some(v.iter().rev().fold(1u64, |k, &t| k << 2 | t as u64))
}

#[derive(Default, Debug)]
pub struct Contexts {
    short: IdVec<FId, FxHashMap<u64, CtxId>>,
    long: IdVec<FId, FxHashMap<Box<[Kleene]>, CtxId>>,
    vecs: IdVec<CtxId, Box<[Kleene]>>,
}

impl Contexts {
    pub(crate) fn new(num_nodes: usize) -> Contexts {
        Contexts { short: IdVec::from_elem(FxHashMap::default(), num_nodes), long: IdVec::from_elem(FxHashMap::default(), num_nodes), vecs: IdVec::new() }
    }
    pub(crate) fn intern(&mut self, f: FId, v: &[Kleene]) -> CtxId {
        if let Some(id) = self.lookup(f, v) {
            return id;
        }
        let id = self.vecs.push(v.into());
        match pack(v) {
            Some(k) => self.short[f].insert(k, id),
            None => self.long[f].insert(v.into(), id),
        };
        id
    }
    pub(crate) fn lookup(&self, f: FId, v: &[Kleene]) -> Option<CtxId> {
        match pack(v) {
            Some(k) => self.short[f].get(&k).copied(),
            None => self.long[f].get(v).copied(),
        }
    }
    pub fn get(&self, id: CtxId) -> &[Kleene] {
        &self.vecs[id]
    }
}

/// Positions of `f`'s own assumption (one per exit) in a context of `f`; empty unless `f` is
/// `EG`/`EU`.
pub(crate) fn top_positions(fm: &Formula, f: FId, exits: usize) -> impl Iterator<Item = usize> {
    let w = fm.width(f);
    let own = fm.op(f).is_fixpoint();
    (0..if own { exits } else { 0 }).map(move |k| k * w + w - 1)
}

/// The context of `g` contained in context `ctx` of `f` (over `exits` exits).
#[inline]
pub(crate) fn restrict(fm: &Formula, f: FId, g: FId, ctx: &[Kleene], exits: usize) -> Ctx {
    if f == g {
        return ctx.into();
    }
    if fm.is_static(g) {
        return Ctx::new();
    }
    let p = fm.projection(f, g);
    let w = fm.width(f);
    let mut out = Ctx::with_capacity(p.len() * exits);
    for k in 0..exits {
        out.extend(p.iter().map(|&i| ctx[k * w + i as usize]));
    }
    out
}

/// True if `ctx` has `M` somewhere other than at `f`'s own top positions: such a context says
/// too little to be labelled (FIX-3), lookups under it give `M`.
pub(crate) fn has_inner_maybe(fm: &Formula, f: FId, ctx: &[Kleene], exits: usize) -> bool {
    let w = fm.width(f);
    if w == 0 {
        return false;
    }
    let own = usize::from(fm.op(f).is_fixpoint());
    ctx.chunks_exact(w).take(exits).any(|row| row[..w - own].contains(&Kleene::Unknown))
}

/// Number of `M`s at `f`'s own top positions in `ctx`.
pub(crate) fn count_top_maybes(fm: &Formula, f: FId, ctx: &[Kleene], exits: usize) -> usize {
    top_positions(fm, f, exits).filter(|&i| ctx[i] == Kleene::Unknown).count()
}

/// Calls `each` with every `T`/`F` context covered by `ctx` (every way of fixing its `M` tops),
/// in a fixed order, until `each` returns false; returns false if it did. Requires
/// `!has_inner_maybe`.
pub(crate) fn each_completion(fm: &Formula, f: FId, ctx: &[Kleene], exits: usize, mut each: impl FnMut(&[Kleene]) -> bool) -> bool {
    let ms: SmallVec<[usize; 8]> = top_positions(fm, f, exits).filter(|&i| ctx[i] == Kleene::Unknown).collect();
    let mut v: Ctx = ctx.into();
    for bits in 0..(1usize << ms.len()) {
        for (j, &i) in ms.iter().enumerate() {
            v[i] = Kleene::from_bool(bits >> j & 1 == 1);
        }
        if !each(&v) {
            return false;
        }
    }
    true
}

/// The `T`/`F` contexts covered by `ctx`, see [`each_completion`].
pub(crate) fn completions(fm: &Formula, f: FId, ctx: &[Kleene], exits: usize) -> Vec<Ctx> {
    let mut out = Vec::new();
    each_completion(fm, f, ctx, exits, |c| {
        out.push(c.into());
        true
    });
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::kleene::Kleene::{False as F, True as T, Unknown as M};

    #[test]
    fn packing_tells_lengths_and_values_apart() {
        assert_ne!(pack(&[F]), pack(&[F, F]));
        assert_ne!(pack(&[T, M]), pack(&[M, T]));
        assert_eq!(pack(&[]), Some(1));
        assert!(pack(&[F; PACKED_MAX]).is_some());
        assert!(pack(&[F; PACKED_MAX + 1]).is_none());
        let mut c = Contexts::new(1);
        let long = [T; 40];
        let f = FId::new(0);
        let (a, b) = (c.intern(f, &[T, F]), c.intern(f, &long));
        assert_eq!(c.lookup(f, &[T, F]), Some(a));
        assert_eq!(c.lookup(f, &long), Some(b));
        assert_eq!(c.lookup(f, &[F, T]), None);
        assert_eq!(c.get(b), &long[..]);
    }
}
