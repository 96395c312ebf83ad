//! Ternary model checking of recursive Kripke structures after Dubslaff, Wienhöft and Fehnker,
//! "Lazy model checking for recursive state machines" (SoSyM 2024; digest in
//! `shared/papers/dubslaff-2024-digest.md`): components are copied per *context* (the truth of
//! the existential subformulas after each exit), eagerly ([`TernaryEngine::Eager`], EagerCheck)
//! or lazily guided by GetNextExpansion/FindReason ([`TernaryEngine::Lazy`], LazyCheck′).
//!
//! # Mapping the RSM notions onto [`RecursiveKripkeStructure`]
//!
//! | RSM (paper) | RKS (here) |
//! |---|---|
//! | component A_i with entries En_i | component; exactly one entry, node 0 (the importer splits multi-entry components per entry) |
//! | box b with Y(b) = j | call node `c` with `call_target[c] = j`; in a copy, `box_map[call_index[c]]` is the callee copy |
//! | call node (b, en) | the call node `c` itself: its value for every formula is the callee copy's entry value (the digest's C-semantics, §2.3: (σ,(b,en)) has the successors of (σb,en)) — exactly the RKS's transparent calls |
//! | return node (b, ex_k) | a virtual *return node* per call and callee exit (row `return_offsets[i] + k`), labelled like ex_k, with `→₊` successors `returns(c, k)` |
//! | →₊ = → ∪ {(b,en) → en} | location → successors; call → callee copy's entry; return node → continuations; never exit → return |
//! | context γ_i ∈ Δ(Ex_i × Subf∃(Φ)) | `Copy::ctx`, one value per exit and existential subformula |
//! | (loop) at the bottom-level exit | `TerminationRule::Loop`: the exit configuration loops with its labels |
//! | — | `TerminationRule::Trap`: the exit configuration steps to a label-free self-looping state |
//!
//! Initialize fills A₀'s context from the termination rule. The model is checked from the
//! initial component's entry; Φ holds iff A₀'s entry gets tt. Deadlocks (locations without
//! successors, calls whose callee exit has no continuation) end paths: they satisfy no ∃X and
//! no ∃G (the fixpoint semantics of CTL).
//!
//! Submodules (three-valued logic is [`crate::check::kleene`]): [`formula`] ENF DAG, [`model`] copies, Initialize and
//! Contextualize, [`refine`] RefineTernary, [`eager`] EagerCheck, [`find_reason`]
//! GetNextExpansion/FindReason, [`lazy`] LazyCheck′ (with the soundness guard described there),
//! [`witness`] witnesses and counterexamples (walked by [`crate::check::walk`]).

pub(crate) mod eager;
pub(crate) mod find_reason;
pub(crate) mod formula;
pub(crate) mod lazy;
pub(crate) mod model;
pub(crate) mod refine;
pub(crate) mod witness;

use crate::check::kleene::Kleene;
use crate::check::trace::Trace;
use crate::ctl::Ctl;
use crate::explicit::rks::{ComponentId, RecursiveKripkeStructure};
use crate::ir::PropId;
use formula::Formula;
use model::Model;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TernaryEngine {
    Eager,
    Lazy,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TernaryStats {
    /// Contexts built: the initial copy A₀ plus every copy created by Contextualize (the
    /// uncontextualised all-`??` copies are not counted), as RSMCheck's "contexts built".
    pub contexts_created: u64,
    /// RefineTernary invocations (one formula over all live copies each).
    pub refine_runs: u64,
    /// Lazy only: iterations of the LazyCheck′ loop (GetNextExpansion calls).
    pub expansions: u64,
    /// Copies alive at the end (reachable from A₀), including all-`??` ones.
    pub contexts_live: u64,
    /// Lazy only: iterations where FindReason's answer could not be used soundly and the
    /// complete-heuristic fallback ran (see [`lazy`]).
    pub fallbacks: u64,
    /// Lazy only: pairs recorded in `D` (on detected global dependency cycles), summed over all
    /// GetNextExpansion calls.
    pub cycle_pairs: u64,
}

#[derive(Clone, Debug)]
pub struct TernaryResult {
    pub holds: bool,
    pub stats: TernaryStats,
    /// A witness (true existential spec) or counterexample (false universal spec), if asked for.
    pub trace: Option<Trace>,
}

/// Checks `formula` on `rks` from the entry of component `initial`.
pub fn check(rks: &RecursiveKripkeStructure, initial: ComponentId, formula: &Ctl<PropId>, engine: TernaryEngine, want_trace: bool) -> TernaryResult {
    let phi = Formula::from_ctl(formula);
    let mut m = Model::initialize(rks, initial, phi);
    match engine {
        TernaryEngine::Eager => eager::run(&mut m),
        TernaryEngine::Lazy => lazy::run(&mut m),
    }
    let holds = m.root_value() == Kleene::True;
    debug_assert!(m.root_value().is_known());
    m.stats.contexts_live = m.live.len() as u64;
    let trace = if want_trace { witness::explain(&m, formula, holds) } else { None };
    TernaryResult { holds, stats: m.stats, trace }
}
