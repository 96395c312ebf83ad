//! `KripkeStructure`: the explicit state space of a flat model.
//!
//! States are dense ids `0..n` in exploration order; successors and predecessors are flat CSR
//! arrays, the predecessors built on first use ([`KripkeStructure::pred`]: a check whose
//! backward searches start from no state, such as `AG p` where `p` holds everywhere, never
//! needs them); each atomic proposition used by the specs or fairness constraints is a bitset over
//! states. Variable values are kept per state (bit-packed, [`StateValues`]) for traces.

use super::budget::MemoryBudget;
use super::csr::Csr;
use super::packed_table::{Layout, PackedTable};
use super::state_values::StateValues;
use fixedbitset::FixedBitSet;
use std::sync::OnceLock;

crate::index_type! {
    /// A state of the flat Kripke structure: its position in exploration order.
    pub struct StateId;
}

#[derive(Clone, Debug)]
pub struct KripkeStructure {
    pub num_states: u32,
    pub initial: Vec<StateId>,
    pub succ: Csr<StateId>,
    /// The transpose of `succ`, built by the first [`KripkeStructure::pred`] (construct it
    /// empty: `OnceLock::new()`).
    pub pred: OnceLock<Csr<StateId>>,
    /// `props[p]` = the states where proposition `p` holds.
    pub props: Vec<FixedBitSet>,
    /// Human-readable text of each proposition (for diagnostics and JSON).
    pub prop_names: Vec<String>,
    /// Each state's value indices (see the variables' domains), bit-packed.
    pub values: StateValues,
    pub num_vars: u32,
}

impl KripkeStructure {
    /// The predecessor lists (the transpose of `succ`), built on the first call.
    pub(crate) fn pred(&self) -> &Csr<StateId> {
        self.pred.get_or_init(|| self.succ.transpose())
    }

    /// Breadth-first layers from the initial states until no new state appears: NuSMV's
    /// "system diameter" (the initial states are layer 1; 0 without initial states).
    pub(crate) fn diameter(&self) -> u32 {
        self.breadth_first(|_, _| {})
    }

    /// NuSMV's `-r` figures `(diameter, states)` counting only the variables `counted` packs
    /// ([`CountedStates`]): states that differ only in the other variables (a recorded step
    /// input, a monitor) count once, at the first layer one of them is in. Reachability within
    /// k steps is the same with or without the records, so these are NuSMV's figures of the
    /// model without them.
    pub(crate) fn counted_figures(&self, counted: Layout) -> (u32, u32) {
        let mut seen = CountedStates::new(counted, self.values.width());
        let mut diameter = 0;
        self.breadth_first(|s, layer| {
            if seen.is_new(&self.values, s) {
                diameter = layer;
            }
        });
        (diameter, seen.len())
    }

    /// Visits every state reachable from the initial states with its breadth-first layer (the
    /// initial states are layer 1); returns the number of layers.
    fn breadth_first(&self, mut visit: impl FnMut(StateId, u32)) -> u32 {
        let mut seen = fixedbitset::FixedBitSet::with_capacity(self.num_states as usize);
        let mut frontier: Vec<StateId> = Vec::new();
        for &s in &self.initial {
            if !seen.put(s.index()) {
                frontier.push(s);
                visit(s, 1);
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
                        visit(t, layers + 1);
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

/// The states met so far as NuSMV counts them: projected on the variables a layout packs
/// ([`Layout::counted`]; the others, 0 bits wide, are left out).
pub(crate) struct CountedStates {
    table: PackedTable,
    budget: MemoryBudget,
    /// The variables the layout leaves out (zeroed before packing).
    left_out: Vec<usize>,
    row: Vec<u32>,
    key: Vec<u64>,
}

impl CountedStates {
    pub(crate) fn new(counted: Layout, width: usize) -> CountedStates {
        let key = vec![0; counted.words()];
        let left_out = (0..width).filter(|&var| !counted.stores(var)).collect();
        let table = PackedTable::new(counted);
        let mut budget = MemoryBudget::new(None);
        budget.account(table.reserved_bytes());
        CountedStates { table, budget, left_out, row: vec![0; width], key }
    }

    /// Whether no state met before has state `s`'s counted values.
    pub(crate) fn is_new(&mut self, values: &StateValues, s: StateId) -> bool {
        values.get_into(s.as_u32(), &mut self.row);
        for &var in &self.left_out {
            self.row[var] = 0;
        }
        self.table.layout().pack(&self.row, &mut self.key);
        // Without a limit the insertion cannot fail for want of budget.
        matches!(self.table.try_insert(&self.key, &mut self.budget), Ok((_, true)))
    }

    /// Distinct counted states met.
    pub(crate) fn len(&self) -> u32 {
        self.table.len()
    }
}
