//! Witnesses and counterexamples (digest §2.16): not yet implemented; [`explain`] returns None.

use super::model::Model;
use crate::ctl::Ctl;
use crate::explicit::rks::{ComponentId, NodeId, PropId};

/// One configuration: the call stack (caller component, call node), outermost first, and the
/// current component and node.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TraceStep {
    pub stack: Vec<(ComponentId, NodeId)>,
    pub component: ComponentId,
    pub node: NodeId,
}

/// A finite path, or a lasso when `loop_start` is set (the last step continues at that index).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TernaryTrace {
    pub steps: Vec<TraceStep>,
    pub loop_start: Option<usize>,
}

pub fn explain(_m: &mut Model, _formula: &Ctl<PropId>, _holds: bool) -> Option<TernaryTrace> {
    None
}
