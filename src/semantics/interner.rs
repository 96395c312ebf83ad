//! A string interner giving dense ids (symbolic constants, labels, exit names).
//!
//! Each name is stored once, in `names`; the lookup table maps the name's hash to the ids of
//! the names with that hash (almost always one), so interning a new name costs one allocation.

use rustc_hash::{FxHashMap, FxHasher};
use smallvec::SmallVec;
use std::hash::{Hash, Hasher};

#[derive(Clone, Debug, Default)]
pub(crate) struct Interner {
    pub names: Vec<String>,
    ids: FxHashMap<u64, SmallVec<[u32; 1]>>,
}

fn hash(name: &str) -> u64 {
    let mut h = FxHasher::default();
    name.hash(&mut h);
    h.finish()
}

impl Interner {
    pub(crate) fn intern(&mut self, name: &str) -> u32 {
        let h = hash(name);
        if let Some(id) = self.find(h, name) {
            return id;
        }
        let id = self.names.len() as u32;
        self.names.push(name.to_string());
        self.ids.entry(h).or_default().push(id);
        id
    }

    pub(crate) fn get(&self, name: &str) -> Option<u32> {
        self.find(hash(name), name)
    }

    fn find(&self, h: u64, name: &str) -> Option<u32> {
        self.ids.get(&h)?.iter().copied().find(|&id| self.names[id as usize] == name)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_dense_in_first_interning_order() {
        let mut i = Interner::default();
        let names: Vec<String> = (0..5000).map(|k| format!("cpDEFAULT_{k}_2")).collect();
        for (k, n) in names.iter().enumerate() {
            assert_eq!(i.intern(n), k as u32);
        }
        for (k, n) in names.iter().enumerate().rev() {
            assert_eq!(i.intern(n), k as u32);
            assert_eq!(i.get(n), Some(k as u32));
        }
        assert_eq!(i.get("cpDEFAULT_5000_2"), None);
        assert_eq!(i.get(""), None);
        assert_eq!(i.intern(""), 5000);
        assert_eq!(i.names.len(), 5001);
        assert_eq!(i.names[17], "cpDEFAULT_17_2");
    }

    #[test]
    fn names_with_the_same_hash_bucket_are_told_apart() {
        // Force a shared bucket by hand: two names under one hash.
        let mut i = Interner::default();
        let a = i.intern("a");
        let h = hash("a");
        i.names.push("b".into());
        if let Some(ids) = i.ids.get_mut(&h) {
            ids.push(1);
        }
        assert_eq!(i.find(h, "a"), Some(a));
        assert_eq!(i.find(h, "b"), Some(1));
        assert_eq!(i.find(h, "c"), None);
    }
}
