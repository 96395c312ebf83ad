//! `KripkeStructure`: the explicit state space of a flat model.
//!
//! States are dense ids `0..n` in exploration order; successors and predecessors are flat CSR
//! arrays; each atomic proposition used by the specs or fairness constraints is a bitset over
//! states. Variable values are kept per state (bit-packed, [`StateValues`]) for traces.

use super::csr::Csr;
use super::state_values::StateValues;
use fixedbitset::FixedBitSet;

crate::index_type! {
    /// A state of the flat Kripke structure: its position in exploration order.
    pub struct StateId;
}

#[derive(Clone, Debug)]
pub struct KripkeStructure {
    pub num_states: u32,
    pub initial: Vec<StateId>,
    pub succ: Csr<StateId>,
    pub pred: Csr<StateId>,
    /// `props[p]` = the states where proposition `p` holds.
    pub props: Vec<FixedBitSet>,
    /// Human-readable text of each proposition (for diagnostics and JSON).
    pub prop_names: Vec<String>,
    /// Each state's value indices (see the variables' domains), bit-packed.
    pub values: StateValues,
    pub num_vars: u32,
}

impl KripkeStructure {
    /// Breadth-first layers from the initial states until no new state appears: NuSMV's
    /// "system diameter" (the initial states are layer 1; 0 without initial states).
    pub(crate) fn diameter(&self) -> u32 {
        let mut seen = fixedbitset::FixedBitSet::with_capacity(self.num_states as usize);
        let mut frontier: Vec<StateId> = Vec::new();
        for &s in &self.initial {
            if !seen.put(s.index()) {
                frontier.push(s);
            }
        }
        let mut layers = 0;
        let mut next = Vec::new();
        while !frontier.is_empty() {
            layers += 1;
            for &s in &frontier {
                for &t in self.succ.neighbours(s) {
                    if !seen.put(t.index()) {
                        next.push(t);
                    }
                }
            }
            std::mem::swap(&mut frontier, &mut next);
            next.clear();
        }
        layers
    }

    /// State `s`'s value indices, one per variable.
    pub fn state_values(&self, s: StateId) -> Vec<u32> {
        self.values.row(s.as_u32())
    }
}
