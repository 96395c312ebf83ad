//! Call contexts and their interning.
//!
//! A context of formula node `f` for a component with `E` exits is a flat vector of `E ·
//! |deps(f)|` ternary assumptions, exit-major: entry `k · |deps(f)| + i` is the assumption about
//! `deps(f)[i]` in the location reached when the component returns through exit `k`. With one
//! exit this is Finis' context tree restricted to the nodes that are ever read; with several it
//! is Dubslaff et al.'s one assumption vector per exit.
//!
//! Contexts are interned to dense [`CtxId`]s (one Fx hash map per formula node), so knowledge-
//! base keys are small integers. Only `M` at the top positions (the node's own value, for
//! `EG`/`EU`) is meaningful as "either": [`completions`] lists the `T`/`F` contexts it covers.

use super::formula::{FId, Formula};
use super::tern::Tern;
use rustc_hash::FxHashMap;

pub type CtxId = u32;

#[derive(Default, Debug)]
pub struct Contexts {
    maps: Vec<FxHashMap<Box<[Tern]>, CtxId>>,
    vecs: Vec<Box<[Tern]>>,
}

impl Contexts {
    pub fn new(num_nodes: usize) -> Contexts {
        Contexts { maps: vec![FxHashMap::default(); num_nodes], vecs: Vec::new() }
    }
    pub fn intern(&mut self, f: FId, v: &[Tern]) -> CtxId {
        if let Some(&id) = self.maps[f as usize].get(v) {
            return id;
        }
        let id = self.vecs.len() as CtxId;
        self.vecs.push(v.into());
        self.maps[f as usize].insert(v.into(), id);
        id
    }
    pub fn lookup(&self, f: FId, v: &[Tern]) -> Option<CtxId> {
        self.maps[f as usize].get(v).copied()
    }
    pub fn get(&self, id: CtxId) -> &[Tern] {
        &self.vecs[id as usize]
    }
    pub fn len(&self) -> usize {
        self.vecs.len()
    }
    pub fn is_empty(&self) -> bool {
        self.vecs.is_empty()
    }
}

/// Positions of `f`'s own assumption (one per exit) in a context of `f`; empty unless `f` is
/// `EG`/`EU`.
pub fn top_positions(fm: &Formula, f: FId, exits: usize) -> impl Iterator<Item = usize> {
    let w = fm.width(f);
    let own = fm.op(f).is_fixpoint();
    (0..if own { exits } else { 0 }).map(move |k| k * w + w - 1)
}

/// True if `ctx` has `M` somewhere other than at `f`'s own top positions: such a context says
/// too little to be labelled (FIX-3), lookups under it give `M`.
pub fn has_inner_maybe(fm: &Formula, f: FId, ctx: &[Tern], exits: usize) -> bool {
    let w = fm.width(f);
    let own = fm.op(f).is_fixpoint();
    ctx.iter().enumerate().any(|(i, &v)| v == Tern::M && !(own && i % w == w - 1 && i / w < exits))
}

/// The `T`/`F` contexts covered by `ctx` (every way of fixing its `M` tops), in a fixed order.
/// Requires `!has_inner_maybe`.
pub fn completions(fm: &Formula, f: FId, ctx: &[Tern], exits: usize) -> Vec<Vec<Tern>> {
    let ms: Vec<usize> = top_positions(fm, f, exits).filter(|&i| ctx[i] == Tern::M).collect();
    let mut out = Vec::with_capacity(1 << ms.len());
    for bits in 0..(1usize << ms.len()) {
        let mut v = ctx.to_vec();
        for (j, &i) in ms.iter().enumerate() {
            v[i] = Tern::from_bool(bits >> j & 1 == 1);
        }
        out.push(v);
    }
    out
}
