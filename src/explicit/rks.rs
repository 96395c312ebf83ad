//! `RecursiveKripkeStructure`: the explicit model of procedure modules (Finis 2012, Def. 2.4.1,
//! generalised to several exits as in Dubslaff et al. 2024).
//!
//! Each procedure module is a [`Component`] whose nodes are its reachable locations and call
//! states, numbered densely with the entry location as node 0. Calls are transparent (a call is
//! never a configuration): stepping to a call enters the callee's entry; leaving the callee
//! through its exit `k` continues at `returns(call, k)`, the successor locations of the call for
//! that exit. Exits have no intra-component successors. Labels are global propositions.

use super::csr::Csr;
use crate::ir::PropId;
use crate::ir::TerminationRule;
use fixedbitset::FixedBitSet;

crate::index_type! {
    /// A component (procedure module) of a [`RecursiveKripkeStructure`]: its position in
    /// `components`.
    pub struct ComponentId;
}

crate::index_type! {
    /// A node of one [`Component`]: a location or a call, numbered densely from 0 (the entry
    /// location is node 0; see [`Component::num_nodes`]). Only meaningful together with its
    /// component: node 3 of two components are unrelated.
    pub struct NodeId;
}

impl NodeId {
    /// The entry location, node 0 of every component.
    pub const ENTRY: NodeId = NodeId::from_u32(0);
}

#[derive(Clone, Debug)]
pub struct RecursiveKripkeStructure {
    pub components: Vec<Component>,
    /// Global atomic propositions (label names), indexed by [`PropId`].
    pub prop_names: Vec<String>,
    pub termination: TerminationRule,
}

#[derive(Clone, Debug)]
pub struct Component {
    pub name: String,
    /// Locations and calls; node 0 is the entry location.
    pub num_nodes: u32,
    /// Intra-component edges (location→location, location→call). Calls and exits have none
    /// here: a call's continuations are in `returns`.
    pub succ: Csr<NodeId>,
    pub pred: Csr<NodeId>,
    /// `call_target[n]` = the called component if node `n` is a call, else [`NO_CALL`].
    pub call_target: Vec<ComponentId>,
    /// The call nodes in increasing order; `call_index[n]` is `n`'s position here (or `u32::MAX`).
    pub calls: Vec<NodeId>,
    pub call_index: Vec<u32>,
    /// Exit locations; exit `k` of this component is `exits[k]`.
    pub exits: Vec<NodeId>,
    /// Name of each exit (`EXIT` for the implicit all-EXIT exit), parallel to `exits`.
    pub exit_names: Vec<String>,
    /// For call `i` (position in `calls`) and exit `k` of its target: row `i * E + k` with
    /// `E = exits of the target`, flattened with `return_offsets`: the successor locations.
    pub returns: Csr<u32, NodeId>,
    pub return_offsets: Vec<u32>,
    /// `props[p]` = the locations labelled with `p` (never calls); empty for the (many) global
    /// labels this component does not define.
    pub props: Labels,
    /// Per node: a printable description (variable valuation) for traces.
    pub node_names: Vec<String>,
}

/// `call_target` of a node that is not a call.
pub const NO_CALL: ComponentId = ComponentId::from_u32(u32::MAX);

/// The labels of one component: a sparse map from global proposition to the set of labelled
/// nodes. Labels are global (thousands on imported models) but a component defines few of
/// them, so only those are stored, sorted by id; `props[p]` of any other `p` is the empty set.
#[derive(Clone, Debug, Default)]
pub struct Labels {
    ids: Vec<PropId>,
    sets: Vec<FixedBitSet>,
}

static NO_NODES: FixedBitSet = FixedBitSet::new();

impl Labels {
    /// From `(proposition, nodes)` pairs in any order; empty sets are dropped and repeated
    /// propositions are united.
    pub fn from_sets(mut pairs: Vec<(PropId, FixedBitSet)>) -> Labels {
        pairs.sort_by_key(|(p, _)| *p);
        let mut out = Labels::default();
        for (p, set) in pairs {
            if set.is_clear() {
                continue;
            }
            if out.ids.last() == Some(&p) {
                if let Some(last) = out.sets.last_mut() {
                    last.union_with(&set);
                }
            } else {
                out.ids.push(p);
                out.sets.push(set);
            }
        }
        out
    }
    /// The nodes labelled with `p`, or `None` if there are none.
    pub(crate) fn get(&self, p: PropId) -> Option<&FixedBitSet> {
        self.ids.binary_search(&p).ok().map(|i| &self.sets[i])
    }
    /// True if node `n` is labelled with `p`.
    pub fn holds(&self, p: PropId, n: NodeId) -> bool {
        self.get(p).is_some_and(|s| s.contains(n.index()))
    }
    /// The propositions with at least one labelled node, increasing.
    pub fn ids(&self) -> &[PropId] {
        &self.ids
    }
}

impl std::ops::Index<usize> for Labels {
    type Output = FixedBitSet;
    fn index(&self, p: usize) -> &FixedBitSet {
        u32::try_from(p).ok().and_then(|p| self.get(PropId::from_u32(p))).unwrap_or(&NO_NODES)
    }
}

impl Component {
    /// The nodes `0..num_nodes`, in order.
    pub fn nodes(&self) -> impl DoubleEndedIterator<Item = NodeId> + ExactSizeIterator + use<> {
        (0..self.num_nodes as usize).map(NodeId::new)
    }
    pub fn is_call(&self, n: NodeId) -> bool {
        self.call_target[n.index()] != NO_CALL
    }
    pub fn is_exit(&self, n: NodeId) -> bool {
        self.exits.contains(&n)
    }
    /// The successor locations of call node `call` when its callee returns through exit `k`.
    pub fn returns(&self, call: NodeId, k: usize) -> &[NodeId] {
        let i = self.call_index[call.index()] as usize;
        self.returns.neighbours(self.return_offsets[i] + k as u32)
    }
}
