//! A string interner giving dense ids of one kind `I` (symbolic constants [`SymId`], labels
//! [`LabelId`], exit names [`ExitNameId`]).
//!
//! Each name is stored once, in `names` (indexed by `I`); the lookup table maps the name's hash
//! to the ids of the names with that hash (almost always one), so interning a new name costs one
//! allocation.
//!
//! [`SymId`]: crate::ir::SymId
//! [`LabelId`]: crate::ir::LabelId
//! [`ExitNameId`]: crate::ir::ExitNameId

use crate::ir::id::{IdVec, Idx};
use rustc_hash::{FxHashMap, FxHasher};
use smallvec::SmallVec;
use std::hash::{Hash, Hasher};

#[derive(Clone)]
pub(crate) struct Interner<I> {
    pub names: IdVec<I, String>,
    ids: FxHashMap<u64, SmallVec<[I; 1]>>,
}

impl<I> Default for Interner<I> {
    fn default() -> Self {
        Interner { names: IdVec::default(), ids: FxHashMap::default() }
    }
}

fn hash(name: &str) -> u64 {
    let mut h = FxHasher::default();
    name.hash(&mut h);
    h.finish()
}

impl<I: Idx> Interner<I> {
    pub(crate) fn intern(&mut self, name: &str) -> I {
        let h = hash(name);
        if let Some(id) = self.find(h, name) {
            return id;
        }
        let id = self.names.push(name.to_string());
        self.ids.entry(h).or_default().push(id);
        id
    }

    pub(crate) fn get(&self, name: &str) -> Option<I> {
        self.find(hash(name), name)
    }

    fn find(&self, h: u64, name: &str) -> Option<I> {
        self.ids.get(&h)?.iter().copied().find(|&id| self.names[id] == name)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::SymId;

    #[test]
    fn ids_are_dense_in_first_interning_order() {
        let mut i: Interner<SymId> = Interner::default();
        let names: Vec<String> = (0..5000).map(|k| format!("cpDEFAULT_{k}_2")).collect();
        for (k, n) in names.iter().enumerate() {
            assert_eq!(i.intern(n), SymId::new(k));
        }
        for (k, n) in names.iter().enumerate().rev() {
            assert_eq!(i.intern(n), SymId::new(k));
            assert_eq!(i.get(n), Some(SymId::new(k)));
        }
        assert_eq!(i.get("cpDEFAULT_5000_2"), None);
        assert_eq!(i.get(""), None);
        assert_eq!(i.intern(""), SymId::new(5000));
        assert_eq!(i.names.len(), 5001);
        assert_eq!(i.names[SymId::new(17)], "cpDEFAULT_17_2");
    }

    #[test]
    fn names_with_the_same_hash_bucket_are_told_apart() {
        // Force a shared bucket by hand: two names under one hash.
        let mut i: Interner<SymId> = Interner::default();
        let a = i.intern("a");
        let h = hash("a");
        let b = i.names.push("b".into());
        if let Some(ids) = i.ids.get_mut(&h) {
            ids.push(b);
        }
        assert_eq!(i.find(h, "a"), Some(a));
        assert_eq!(i.find(h, "b"), Some(b));
        assert_eq!(i.find(h, "c"), None);
    }
}
