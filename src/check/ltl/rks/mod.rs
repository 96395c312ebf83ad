//! LTL (`LTLSPEC`) on recursive Kripke structures (procedure modules), automata-theoretic, as
//! one pipeline with the flat check: the same negation normal form, past monitor and GPVW
//! automaton of `¬φ` ([`super::formula`], [`super::past`], [`super::tableau`]); the product with
//! the RKS is then checked without unfolding the stack (Alur, Etessami, Yannakakis; Chau digest
//! §3.2): per-(entry, automaton state) summaries to (exit, automaton state) with the acceptance
//! sets visited ([`summaries`]), then Büchi emptiness on the graph of product vertices, summary
//! edges and call edges ([`search`]), whose accepting cycles are runs at bounded depth (through
//! summaries) or infinite descents (through call edges).
//!
//! Semantics: the RKS step relation of the CTL engines (README "Language: recursive procedure
//! modules"). Calls are transparent: the position after a location that steps to a call is the
//! callee's entry, the position after an exit is the call's continuation for that exit (so `X`
//! crosses calls and returns in one step). When the spec's module exits at the bottom of the
//! stack the run continues by the termination rule (`trap`: a label-free state that loops;
//! `loop`: the exit location repeats). As for flat LTL (NuSMV 2.5.4), only infinite runs are
//! runs: a run that reaches a location without successor, or an exit whose call has no
//! continuation for it, is ignored. A spec holds iff no infinite run from the module's entry
//! violates it. Past operators read the run's past across calls and returns.
//!
//! Counterexamples are lassos of configurations with call stacks ([`Trace`]); a loop through
//! a call edge pushes the same frames on every repetition (`loop_push`).

pub(crate) mod product;
pub(crate) mod search;
pub(crate) mod summaries;

use super::{formula, past, tableau};
use crate::check::engine::{Checked, Checker, RunOptions, Stats};
use crate::check::trace::{SpecOutcome, Trace};
use crate::explicit::build_rks::RksSpec;
use crate::explicit::rks::{ComponentId, RecursiveKripkeStructure};
use crate::ir::PropId;
use crate::ltl::Ltl;
use rayon::prelude::*;

/// The LTL engine for procedure modules (all `LTLSPEC`s of procedure modules, whatever
/// `--engine` says for their CTL specs).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct RksLtl;

/// Sizes of one check.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RksLtlSizes {
    pub automaton_states: u64,
    /// Product vertices (location, monitor bits, automaton state) built.
    pub product_vertices: u64,
    /// Path edges (frame, vertex) of the summary tabulation.
    pub path_edges: u64,
    /// Frames: (entry vertex, bottom-of-stack or not) pairs tabulated.
    pub frames: u64,
    /// Summary edges: (frame, exit vertex) pairs.
    pub summary_edges: u64,
    /// Vertices of the augmented graph visited by the emptiness check.
    pub graph_vertices: u64,
}

impl RksLtlSizes {
    fn add(&mut self, o: &RksLtlSizes) {
        self.automaton_states += o.automaton_states;
        self.product_vertices += o.product_vertices;
        self.path_edges += o.path_edges;
        self.frames += o.frames;
        self.summary_edges += o.summary_edges;
        self.graph_vertices += o.graph_vertices;
    }
}

/// The verdict of one spec, its counterexample when asked for, and the sizes.
#[derive(Clone, Debug)]
pub struct RksLtlOutcome {
    pub holds: bool,
    pub trace: Option<Trace>,
    pub sizes: RksLtlSizes,
}

/// Checks the LTL spec `spec` from the entry of component `initial`. `Err` names what the
/// translation cannot handle (too many automaton states, acceptance sets or past nodes).
pub fn check(rks: &RecursiveKripkeStructure, initial: ComponentId, spec: &Ltl<PropId>, want_trace: bool) -> Result<RksLtlOutcome, String> {
    let mut arena = formula::Arena::new();
    let mut monitor = past::PastMonitor::default();
    let negated = arena.nnf(spec, true, &mut monitor)?;
    let gba = tableau::translate(&arena, negated)?;
    let mut product = product::Product::new(rks, &gba, &monitor);
    let summaries = summaries::Summaries::compute(&mut product, initial);
    let found = search::Augmented::new(&mut product, &summaries).search(initial, want_trace);
    let sizes = RksLtlSizes {
        automaton_states: gba.labels.len() as u64,
        product_vertices: product.keys.len() as u64,
        path_edges: summaries.path_edges() as u64,
        frames: summaries.frames.len() as u64,
        summary_edges: summaries.summary_edges() as u64,
        graph_vertices: found.graph_vertices as u64,
    };
    Ok(RksLtlOutcome { holds: !found.accepting, trace: found.trace, sizes })
}

impl Checker for RksLtl {
    type Model = RecursiveKripkeStructure;
    type Spec = RksSpec;

    /// Every spec must be an `LTLSPEC` (`RksSpec::ltl` set). Specs run in parallel.
    fn check(&self, model: &RecursiveKripkeStructure, specs: &[RksSpec], options: &RunOptions) -> Result<Checked, String> {
        let results: Vec<RksLtlOutcome> = specs
            .par_iter()
            .map(|s| match &s.ltl {
                Some(f) => check(model, s.component, f, options.traces),
                None => Err("internal: a CTL spec was given to the LTL engine".to_string()),
            })
            .collect::<Result<_, String>>()?;
        let mut total = RksLtlSizes::default();
        let outcomes = (results.iter())
            .map(|r| {
                total.add(&r.sizes);
                let trace = r.trace.clone();
                SpecOutcome { holds: r.holds, trace, distance: None }
            })
            .collect();
        let stats = Stats::counters(vec![
            ("LTL automaton states", total.automaton_states),
            ("LTL product vertices", total.product_vertices),
            ("LTL path edges", total.path_edges),
            ("LTL frames", total.frames),
            ("LTL summary edges", total.summary_edges),
            ("LTL augmented graph vertices", total.graph_vertices),
        ]);
        Ok(Checked { outcomes, stats, warnings: vec![] })
    }
}
