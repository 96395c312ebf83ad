//! A string interner giving dense ids (symbolic constants, labels, exit names).

use rustc_hash::FxHashMap;

#[derive(Clone, Debug, Default)]
pub struct Interner {
    pub names: Vec<String>,
    ids: FxHashMap<String, u32>,
}

impl Interner {
    pub fn intern(&mut self, name: &str) -> u32 {
        if let Some(&id) = self.ids.get(name) {
            return id;
        }
        let id = self.names.len() as u32;
        self.names.push(name.to_string());
        self.ids.insert(name.to_string(), id);
        id
    }
    pub fn get(&self, name: &str) -> Option<u32> {
        self.ids.get(name).copied()
    }
}
