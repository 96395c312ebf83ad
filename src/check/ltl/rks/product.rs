//! The vertices of the product of a recursive Kripke structure with the past monitor and the
//! automaton of `¬φ`, and the one-step relation between positions that both phases of the RKS
//! LTL check use ([`super::summaries`], [`super::search`]).
//!
//! A vertex is `(component, location, monitor bits, automaton state)`: a position of a run at a
//! location of a component (never a call: calls are transparent), with the automaton state's
//! label true there. It says nothing about the call stack, so one vertex serves every calling
//! context. The termination state of the `trap` rule is the vertex with component [`TERM`]
//! (no labels). [`Product::step_into`] gives the vertices of the position that follows a vertex
//! at a given location: the monitor bits after it and every automaton successor whose label
//! holds there.

use super::super::formula::Atom;
use super::super::past::PastMonitor;
use super::super::tableau::Gba;
use crate::explicit::rks::{ComponentId, NodeId, RecursiveKripkeStructure};
use crate::ir::PropId;
use rustc_hash::FxHashMap;

/// A product vertex id.
pub(crate) type Vid = u32;

/// The component of the label-free termination state of the `trap` rule.
pub(crate) const TERM: ComponentId = ComponentId::from_u32(u32::MAX);
/// The node of the termination state.
pub(crate) const TERM_NODE: NodeId = NodeId::from_u32(u32::MAX);

/// What a vertex is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct VKey {
    pub(crate) comp: ComponentId,
    pub(crate) node: NodeId,
    pub(crate) bits: u64,
    pub(crate) q: u32,
}

/// The interned vertices and the structures they are read from.
pub(crate) struct Product<'a> {
    pub(crate) rks: &'a RecursiveKripkeStructure,
    pub(crate) gba: &'a Gba,
    past: &'a PastMonitor,
    pub(crate) keys: Vec<VKey>,
    ids: FxHashMap<VKey, Vid>,
    /// Per component, per node: its exit index, or `u32::MAX`.
    exit_index: Vec<Vec<u32>>,
}

impl<'a> Product<'a> {
    pub(crate) fn new(rks: &'a RecursiveKripkeStructure, gba: &'a Gba, past: &'a PastMonitor) -> Product<'a> {
        let exit_index = (rks.components.iter())
            .map(|c| {
                let mut v = vec![u32::MAX; c.num_nodes as usize];
                for (k, &x) in c.exits.iter().enumerate() {
                    v[x.index()] = k as u32;
                }
                v
            })
            .collect();
        Product { rks, gba, past, keys: vec![], ids: FxHashMap::default(), exit_index }
    }

    /// Whether proposition `p` labels `node` of `comp` (nothing labels the termination state).
    fn holds(&self, comp: ComponentId, node: NodeId, p: PropId) -> bool {
        comp != TERM && self.rks.components[comp.index()].props.holds(p, node)
    }

    /// The exit index of `node` in `comp`, if it is an exit.
    pub(crate) fn exit_of(&self, comp: ComponentId, node: NodeId) -> Option<usize> {
        if comp == TERM {
            return None;
        }
        let k = self.exit_index[comp.index()][node.index()];
        (k != u32::MAX).then_some(k as usize)
    }

    /// The acceptance sets of vertex `v` (its automaton state's).
    pub(crate) fn acc(&self, v: Vid) -> u64 {
        self.gba.accepting[self.keys[v as usize].q as usize]
    }

    fn intern(&mut self, key: VKey) -> Vid {
        if let Some(&id) = self.ids.get(&key) {
            return id;
        }
        let id = self.keys.len() as Vid;
        self.keys.push(key);
        self.ids.insert(key, id);
        id
    }

    /// Appends to `out` the vertices of the position at `node` of `comp` that follows a position
    /// in vertex `from` (`None`: the first position of the run).
    pub(crate) fn step_into(&mut self, from: Option<Vid>, comp: ComponentId, node: NodeId, out: &mut Vec<Vid>) {
        let gba = self.gba;
        let (previous, qs) = match from {
            Some(v) => {
                let k = self.keys[v as usize];
                (Some(k.bits), &gba.succ[k.q as usize])
            }
            None => (None, &gba.initial),
        };
        let bits = if self.past.is_empty() { 0 } else { self.past.step_by(previous, |p| self.holds(comp, node, p)) };
        let start = out.len();
        for &q in qs {
            let ok = gba.labels[q as usize].iter().all(|&(atom, positive)| {
                let value = match atom {
                    Atom::Prop(p) => self.holds(comp, node, p),
                    Atom::Past(b) => bits >> b & 1 == 1,
                };
                value == positive
            });
            if ok {
                out.push(q);
            }
        }
        for slot in out[start..].iter_mut() {
            *slot = self.intern(VKey { comp, node, bits, q: *slot });
        }
    }
}
