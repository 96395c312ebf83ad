//! The knowledge base κ (Finis 2012 Def. 3.3.6): for each context pair (formula node,
//! component, context) a dense array with the ternary value of the node at every node of the
//! component (calls stay `M`: they are never configurations).
//!
//! Only `T`/`F` contexts are stored; lookups under an `M`-topped context join the stored twins
//! (join rule 3.2), see `Core::resolve`. Values only ever move from `M` to `T`/`F`.

use super::context::{Contexts, CtxId, pack};
use super::formula::{FId, Formula};
use crate::check::kleene::Kleene;
use crate::explicit::rks::ComponentId;
use crate::ir::id::IdVec;
use rustc_hash::FxHashMap;

crate::index_type! {
    /// A context pair of the knowledge base ([`Kb::pairs`]).
    pub struct PairId;
}

/// The pairs one (possibly `M`-topped) context stands for: inline up to four.
pub(crate) type PairList = smallvec::SmallVec<[PairId; 4]>;

#[derive(Clone, Debug)]
pub struct Pair {
    pub node: FId,
    pub comp: ComponentId,
    pub ctx: CtxId,
    pub vals: Vec<Kleene>,
}

#[derive(Debug)]
pub struct Kb {
    pub ctxs: Contexts,
    pub pairs: IdVec<PairId, Pair>,
    index: FxHashMap<(CtxId, ComponentId), PairId>,
    /// The same for packed contexts, in one lookup: (node, component, packed context).
    packed: FxHashMap<(FId, ComponentId, u64), PairId>,
    /// `checked[p]`: local labelling has run on pair `p` at least once (for statistics).
    pub checked: IdVec<PairId, bool>,
}

impl Kb {
    pub(crate) fn new(fm: &Formula) -> Kb {
        Kb { ctxs: Contexts::new(fm.nodes.len()), pairs: IdVec::new(), index: FxHashMap::default(), packed: FxHashMap::default(), checked: IdVec::new() }
    }

    /// The pair of a `T`/`F` context, if it was created.
    pub(crate) fn find(&self, f: FId, comp: ComponentId, ctx: &[Kleene]) -> Option<PairId> {
        if let Some(k) = pack(ctx) {
            return self.packed.get(&(f, comp, k)).copied();
        }
        let c = self.ctxs.lookup(f, ctx)?;
        self.index.get(&(c, comp)).copied()
    }

    /// The pair of a `T`/`F` context, created with all values `M` if new.
    pub(crate) fn find_or_create(&mut self, f: FId, comp: ComponentId, ctx: &[Kleene], num_nodes: usize) -> PairId {
        let c = self.ctxs.intern(f, ctx);
        if let Some(&p) = self.index.get(&(c, comp)) {
            return p;
        }
        let id = self.pairs.push(Pair { node: f, comp, ctx: c, vals: vec![Kleene::Unknown; num_nodes] });
        self.checked.push(false);
        self.index.insert((c, comp), id);
        if let Some(k) = pack(ctx) {
            self.packed.insert((f, comp, k), id);
        }
        id
    }

    pub(crate) fn ctx_of(&self, p: PairId) -> &[Kleene] {
        self.ctxs.get(self.pairs[p].ctx)
    }
}
