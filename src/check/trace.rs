//! Traces and verdicts as the checkers return them: dense ids (or, from the BDD engine, the
//! states' value indices), no names.
//!
//! The explicit flat-model checker returns state ids of the [`crate::explicit::kripke::KripkeStructure`]
//! with `component = 0` and an empty stack. An RKS checker returns, per step, the component and
//! node of the location and the call stack below it (outermost call first). The BDD engine has no
//! state ids: its steps carry the states' values ([`TraceStep::values`]). The report layer
//! (`report::text`, `report::json`) maps ids to variable values, DEFINEs, inputs and module names.
//!
//! This is the one trace type of `check`: the RKS engines (`check::rks`, `check::ternary`, the
//! RKS LTL search) build it directly, the termination configuration of a `trap` run being a
//! step with [`TraceStep::terminated`] set.
//!
//! Lassos: when `loop_start = Some(i)`, the successor of the last step is `steps[i]`; the report
//! prints `-- Loop starts here` before step `i` and repeats step `i` at the end, as NuSMV does.

use crate::explicit::kripke::StateId;
use crate::explicit::rks::{ComponentId, NodeId};
use serde::Serialize;

/// Whether the trace refutes the spec or demonstrates it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum TraceKind {
    /// For a false spec (printed `Trace Type: Counterexample`).
    Counterexample,
    /// For a true existential spec (printed `Trace Type: Example`).
    Witness,
    /// A path chosen by NuSMV's `pick_state`/`simulate` in the drop-in mode (printed
    /// `Trace Type: Simulation`); no checker produces one.
    Simulation,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Trace {
    pub kind: TraceKind,
    /// At least one step; `steps[0]` is an initial state (flat) / the entry of the spec's module.
    pub steps: Vec<TraceStep>,
    /// The successor of the last step is `steps[loop_start]` (an infinite lasso-shaped path).
    pub loop_start: Option<usize>,
    /// RKS lassos through recursion: the calls pushed by each repetition of the loop (inserted
    /// in the stacks of the looping steps at the depth of the loop start). Empty otherwise.
    pub loop_push: Vec<CallFrame>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct TraceStep {
    /// RKS only: the component holding `state` (0 for flat models).
    pub component: u32,
    /// Flat: a `StateId`. RKS: a location `NodeId` of `component` (0 when `terminated`).
    pub state: u32,
    /// RKS only: the termination configuration of the `trap` rule (the initial module exited
    /// with an empty stack): no component, no values, no stack; it loops forever.
    pub terminated: bool,
    /// RKS only: the pending calls, outermost first (empty for flat models and for steps in the
    /// spec's initial module at the bottom of the stack).
    pub stack: Vec<CallFrame>,
    /// Flat models checked without a state graph (the BDD engine): the state itself, one value
    /// index per variable of the system (inputs 0); `state` is then unused. Empty otherwise.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub values: Vec<u32>,
}

/// One pending call: the call node `call` of component `component`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct CallFrame {
    pub component: u32,
    pub call: u32,
}

impl CallFrame {
    /// The call node `call` of `component`.
    pub(crate) fn new(component: ComponentId, call: NodeId) -> CallFrame {
        CallFrame { component: component.as_u32(), call: call.as_u32() }
    }
    /// The component holding the call.
    pub(crate) fn component(&self) -> ComponentId {
        ComponentId::from_u32(self.component)
    }
    /// The call node.
    pub(crate) fn call(&self) -> NodeId {
        NodeId::from_u32(self.call)
    }
}

impl From<(u32, u32)> for CallFrame {
    /// From (component, call node).
    fn from((component, call): (u32, u32)) -> CallFrame {
        CallFrame { component, call }
    }
}

impl TraceStep {
    /// A step of a flat-model trace.
    pub(crate) fn flat(state: StateId) -> TraceStep {
        TraceStep { component: 0, state: state.as_u32(), terminated: false, stack: Vec::new(), values: Vec::new() }
    }

    /// A step of an RKS run: at location `node` of `component` with the pending calls `stack`.
    pub fn at(component: ComponentId, node: NodeId, stack: Vec<CallFrame>) -> TraceStep {
        TraceStep { component: component.as_u32(), state: node.as_u32(), terminated: false, stack, values: Vec::new() }
    }

    /// The termination configuration of an RKS run under the `trap` rule.
    pub fn terminated() -> TraceStep {
        TraceStep { component: 0, state: 0, terminated: true, stack: Vec::new(), values: Vec::new() }
    }

    /// A step of a flat-model trace given by its values (see [`TraceStep::values`]).
    pub(crate) fn concrete(values: Vec<u32>) -> TraceStep {
        TraceStep { component: 0, state: 0, terminated: false, stack: Vec::new(), values }
    }
}

impl Trace {
    /// A flat-model trace from state ids.
    pub(crate) fn flat(kind: TraceKind, states: &[StateId], loop_start: Option<usize>) -> Trace {
        Trace { kind, steps: states.iter().map(|&s| TraceStep::flat(s)).collect(), loop_start, loop_push: Vec::new() }
    }

    /// A flat-model trace from concrete states (value indices per variable).
    pub(crate) fn concrete(kind: TraceKind, states: Vec<Vec<u32>>, loop_start: Option<usize>) -> Trace {
        Trace { kind, steps: states.into_iter().map(TraceStep::concrete).collect(), loop_start, loop_push: Vec::new() }
    }
}

/// What a checker says about one spec.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SpecOutcome {
    pub holds: bool,
    /// A counterexample (false spec) or witness (true existential spec) when traces are on and
    /// one exists; `None` otherwise.
    pub trace: Option<Trace>,
    /// `COMPUTE`: the distance found (`holds` is then `true`, and `trace` `None`).
    pub distance: Option<crate::ir::Distance>,
}
