//! The options of a run ([`CheckOptions`]: what `xmv-rs check`'s flags set, and what the library
//! API takes) and the output format. Defined here, where the driver reads them; the API
//! (`crate::api`) re-exports them.

use crate::check::Engine;
use crate::ir::TerminationRule;
use crate::properties::Selection;

/// How `xmv-rs check` prints a run (the library functions return data and ignore it).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Format {
    /// NuSMV's text: verdict lines and traces on stdout, diagnostics rendered on stderr.
    #[default]
    Text,
    /// One JSON document: specs, verdicts, traces and diagnostics (`report::json`).
    Json,
    /// SARIF 2.1.0: diagnostics and false specs as results, counterexamples as code flows.
    Sarif,
}

/// The options of a check: what the command line's flags set. `Default` is the library's
/// default: no traces, all cores, the `auto` engine, every spec, no limits.
#[derive(Clone, Debug, Default)]
pub struct CheckOptions {
    /// `--format`: how `xmv-rs check` prints the run (ignored by [`check_str`](crate::api::check_str) and the other entry points).
    pub format: Format,
    /// Counterexamples and witnesses (`--no-trace` / `-dcx` turn them off).
    pub traces: bool,
    /// Witnesses of true existential specs of flat models too (`--witnesses`). NuSMV 2.5.4
    /// prints none, so by default flat models get counterexamples only and the trace numbers
    /// are NuSMV's; procedure specs always get witnesses, as RSMCheck gives them.
    pub witnesses: bool,
    /// `-r`: print the number of reachable states.
    pub reachable: bool,
    /// `--max-states`: the explicit state space's budget (`None`: none; exceeding it is error E0505).
    pub max_states: Option<u64>,
    /// `--max-memory`: bytes the state space may reserve (`None`: no budget; the command line
    /// defaults to a fraction of the available memory, see `explicit::budget::default_limit`).
    pub max_memory: Option<u64>,
    /// Worker threads, 0 = all cores.
    pub threads: usize,
    /// `--engine`: the engine for flat models and the one for procedure modules ([`Engine`]).
    pub engine: Engine,
    /// `--termination`: overrides the file's `TERMINATION` directive for procedure specs.
    pub termination: Option<TerminationRule>,
    /// `--stats`: time per phase and checker counters on stderr.
    pub stats: bool,
    /// `--verify`: re-check every procedure spec with an engine of the other family.
    pub verify: bool,
    /// `-n IDX` / `-P NAME`: check one spec (NuSMV's numbering, as `xmv-rs list-specs` prints it).
    pub selection: Selection,
    /// `--shard I/N`: check only the I-th of N slices of the specs (see the README).
    pub shard: Option<(usize, usize)>,
    /// `--spec-timeout SECS`: the time each spec's check may take; a spec that runs out is
    /// reported as unknown and the others are checked . `None`: no limit.
    pub spec_timeout: Option<std::time::Duration>,
}
