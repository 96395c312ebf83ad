//! The symbolic (BDD) representation of a flat model, for the BDD engine (`check::bdd`).
//!
//! Reads the same [`crate::lowering::program::LoweredProgram`] as the explicit builder, so the
//! front end, its diagnostics and the semantics of expressions stay one. BDDs come from the
//! `oxidd` crate (complement-edge BDDs, `oxidd::bcdd`).
//!
//! | module | job |
//! |---|---|
//! | [`assign_domain`] | NuSMV's static check that no assignment can leave its variable's type, reachable or not |
//! | [`encoding`] | the BDD variables: finite domains in binary, current/next bits interleaved, the static order |
//! | [`cardinality`] | `count(…)` over booleans: thresholds and distributions by the O(n·k) dynamic programme |
//! | [`expr`] | lowered expressions → BDDs (a value-partition per expression, errors as regions) |
//! | [`order`] | the static variable order: declaration order, or FORCE's when it gathers the relation's parts far better |
//! | [`reorder`] | dynamic reordering: sifting of variable groups by `oxidd_reorder`'s level swaps, triggered when the live nodes double |
//! | [`trans`] | the partitioned, clustered transition relation; image and preimage with early quantification |
//! | [`early_stop`] | `INVARSPEC`: the reachability stopped at the ring where every invariant has met a bad state |
//! | [`cone`] | cones of influence: the variables a spec's verdict depends on, exact under fairness and deadlocks |
//! | [`reduced`] | the model restricted to a cone: its transition relation, initial and reachable states |
//! | [`rings`] | path searches by onion rings (shortest paths, fair lassos) over the model or any symbolic state space |
//! | [`word_bits`] | words as vectors of bit BDDs: adders, multiplier, divider, comparators, shifts
//! | [`model`] | the symbolic model: initial states, invariants, transitions, reachable states by frontier, diameter, deadlocks |

pub(crate) mod assign_domain;
pub(crate) mod cardinality;
pub(crate) mod cone;
pub(crate) mod early_stop;
pub(crate) mod encoding;
pub(crate) mod expr;
pub(crate) mod model;
pub(crate) mod order;
pub(crate) mod reduced;
pub mod reorder;
pub(crate) mod rings;
pub(crate) mod trans;
pub(crate) mod word_bits;

pub use model::{Probe, ProbeFacts, ProbeStep, SymbolicModel};
pub use trans::{Partitioning, set_partitioning};

/// A BDD of the engine's one manager.
pub(crate) type Bdd = oxidd::bcdd::BCDDFunction;

/// A failure of the symbolic engine: a message for the user (the node table is full, a domain is
/// too large to enumerate, an evaluation error in a reachable state).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct SymbolicError(pub String);

impl From<oxidd::error::OutOfMemory> for SymbolicError {
    fn from(_: oxidd::error::OutOfMemory) -> SymbolicError {
        SymbolicError("the BDD node table is full (raise --max-memory, or use --engine explicit)".into())
    }
}

/// The message of [`SymbolicError::outgrown`] (internal: the builder restarts on it).
const OUTGROWN: &str = "internal error: the BDD build outgrew the small apply cache it started with";

impl SymbolicError {
    /// The build has outgrown the small apply cache its manager started with
    /// ([`encoding::Encoding::check_growth`]): the model builder starts again with the
    /// model-sized cache, so the user never sees it.
    pub(crate) fn outgrown() -> SymbolicError {
        SymbolicError(OUTGROWN.into())
    }
    pub(crate) fn is_outgrown(&self) -> bool {
        self.0 == OUTGROWN
    }
}

impl std::fmt::Display for SymbolicError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

pub(crate) type SymResult<T> = Result<T, SymbolicError>;
