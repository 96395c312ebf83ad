//! The intermediate recursive state machine every importer produces and the `.smv` writer reads.
//!
//! It follows Dubslaff et al. 2024 §3.1 (components with nodes, entries, exits, boxes whose call
//! nodes enter the callee and whose return nodes continue in the caller), relaxed where the source
//! formats are: edges into entries, edges out of exits and entries that are exits are kept (the
//! procedure split in [`super::procedures`] turns them into what the `.smv` language allows), and a
//! box's return continuations are either explicit return nodes (RSMCheck JSON) or computed from a
//! pushdown pop (PDS: the callee's exit that pops to control state `q` continues at head `q<g>`,
//! where `g` is the symbol the box pushed). Indices are dense `usize`s into the owning vectors.

use rustc_hash::FxHashMap;

#[derive(Clone, Debug, Default)]
pub(crate) struct Rsm {
    pub components: Vec<Component>,
    pub initial_component: usize,
    pub initial_node: usize,
    /// What the source format is called in comments (`RSMCheck JSON`, `PuMoC PDS`, …).
    pub format_name: String,
    /// Lines for the output's header comment: how the source was read and what was changed.
    pub notes: Vec<String>,
}

#[derive(Clone, Debug, Default)]
pub(crate) struct Component {
    pub name: String,
    pub nodes: Vec<Node>,
    pub boxes: Vec<RsmBox>,
    /// PDS-derived components: `(control state, stack symbol)` → head node, for pop returns.
    pub heads: FxHashMap<(u32, u32), usize>,
}

#[derive(Clone, Debug, Default)]
pub(crate) struct Node {
    pub name: String,
    pub labels: Vec<String>,
    pub is_entry: bool,
    pub is_exit: bool,
    /// PDS-derived exits: the control state the pop leads to.
    pub pop_state: Option<u32>,
    pub succ: Vec<Target>,
}

/// A transition target inside a component.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Target {
    Node(usize),
    /// The call node `(box, entry)`: enter the box's callee at its node `entry`.
    Call {
        rbox: usize,
        entry: usize,
    },
}

#[derive(Clone, Debug, Default)]
pub(crate) struct RsmBox {
    pub name: String,
    pub callee: usize,
    /// The callee's entries this box may be entered at (RSMCheck's `call_nodes`; informational
    /// for PDS-derived boxes).
    pub call_nodes: Vec<usize>,
    pub returns: Returns,
}

#[derive(Clone, Debug)]
pub(crate) enum Returns {
    /// Explicit return nodes `(box, exit)`: the callee's exit node and the return node's successors.
    Explicit(Vec<(usize, Vec<Target>)>),
    /// PDS: the box pushed stack symbol `symbol`; an exit popping to state `q` continues at the
    /// caller's head node `(q, symbol)` (looked up in the caller's [`Component::heads`]).
    Pop { symbol: u32 },
}

impl Default for Returns {
    fn default() -> Returns {
        Returns::Explicit(Vec::new())
    }
}

impl Rsm {
    /// The successors of return node `(rbox, exit)` in component `comp` (empty if the box has no
    /// return node for that exit).
    pub(crate) fn return_targets(&self, comp: usize, rbox: usize, exit: usize) -> Vec<Target> {
        let c = &self.components[comp];
        let b = &c.boxes[rbox];
        match &b.returns {
            Returns::Explicit(rs) => rs.iter().filter(|(x, _)| *x == exit).flat_map(|(_, t)| t.iter().copied()).collect(),
            Returns::Pop { symbol } => {
                let callee = &self.components[b.callee];
                match callee.nodes[exit].pop_state.and_then(|q| c.heads.get(&(q, *symbol))) {
                    Some(&h) => vec![Target::Node(h)],
                    None => Vec::new(),
                }
            }
        }
    }

    pub(crate) fn node_count(&self) -> usize {
        self.components.iter().map(|c| c.nodes.len()).sum()
    }
    pub(crate) fn box_count(&self) -> usize {
        self.components.iter().map(|c| c.boxes.len()).sum()
    }
}
