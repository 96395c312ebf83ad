//! `RecursiveKripkeStructure`: the explicit model of procedure modules (Finis 2012, Def. 2.4.1,
//! generalised to several exits as in Dubslaff et al. 2024).
//!
//! Each procedure module is a [`Component`] whose nodes are its reachable locations and call
//! states, numbered densely with the entry location as node 0. Calls are transparent (a call is
//! never a configuration): stepping to a call enters the callee's entry; leaving the callee
//! through its exit `k` continues at `returns(call, k)`, the successor locations of the call for
//! that exit. Exits have no intra-component successors. Labels are global propositions.

use super::csr::Csr;
use crate::syntax::ast::TerminationRule;
use fixedbitset::FixedBitSet;

pub type ComponentId = u32;
pub type NodeId = u32;
pub type PropId = u32;

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
    pub succ: Csr,
    pub pred: Csr,
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
    pub returns: Csr,
    pub return_offsets: Vec<u32>,
    /// `props[p]` = the locations labelled with `p` (never calls).
    pub props: Vec<FixedBitSet>,
    /// Per node: a printable description (variable valuation) for traces.
    pub node_names: Vec<String>,
}

pub const NO_CALL: ComponentId = u32::MAX;

impl Component {
    pub fn is_call(&self, n: NodeId) -> bool {
        self.call_target[n as usize] != NO_CALL
    }
    pub fn is_exit(&self, n: NodeId) -> bool {
        self.exits.contains(&n)
    }
    /// The successor locations of call node `call` when its callee returns through exit `k`.
    pub fn returns(&self, call: NodeId, k: usize) -> &[NodeId] {
        let i = self.call_index[call as usize] as usize;
        self.returns.neighbours(self.return_offsets[i] + k as u32)
    }
}
