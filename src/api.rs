//! The library API for analysis frameworks: check a model given as text or as a file, get the
//! verdicts, traces and warnings as data, or the errors as data.
//!
//! This is the same run as `xmv-rs check` (the driver with the crate's own stages); only the
//! rendering differs. Diagnostics are [`DiagnosticData`] (code, severity, message, labels with
//! byte spans and 1-based line/column, help, notes), as in `--format json`.
//!
//! The API is this module, re-exported at the crate root: the entry points [`check_str`],
//! [`check_named`] and [`check_file`]; their options [`CheckOptions`] (with [`Engine`],
//! [`Selection`], [`TerminationRule`], [`Format`]); their results [`Report`], [`SpecResult`],
//! [`Verdict`], [`Unknown`], [`TraceView`], [`StepView`], [`TraceKind`], [`SpecKind`]; their
//! errors [`DiagnosticData`] and [`LabelData`]. The crate's other modules are public for its
//! command line, tools and tests, hidden from the documentation, and may change in any release.
//!
//! ```
//! use xmv_rs::{CheckOptions, Verdict, check_str};
//!
//! let model = "MODULE main
//! VAR x : boolean;
//! ASSIGN init(x) := FALSE; next(x) := !x;
//! SPEC AG (x -> AX !x)
//! SPEC AG x
//! ";
//! let options = CheckOptions { traces: true, ..CheckOptions::default() };
//! let report = check_str(model, &options).expect("a well-formed model");
//! let verdicts: Vec<(&str, Verdict)> = report.specs.iter().map(|s| (s.text.as_str(), s.verdict)).collect();
//! assert_eq!(verdicts, [("AG (x -> AX !x)", Verdict::True), ("AG x", Verdict::False)]);
//! // The counterexample of `AG x`: its first state already has x = FALSE.
//! let trace = report.specs[1].trace.as_ref().expect("a counterexample");
//! assert_eq!(trace.steps[0].values, [("x".to_string(), "FALSE".to_string())]);
//! ```
//!
//! A malformed model gives its diagnostics instead:
//!
//! ```
//! let errors = xmv_rs::check_str("MODULE main\nVAR x : boolean;\nSPEC AG y\n", &Default::default()).unwrap_err();
//! assert_eq!((errors[0].code, errors[0].labels[0].line, errors[0].labels[0].column), ("E0101", 3, 9));
//! ```

use crate::driver::stages::Stages;
use crate::source::SourceFile;
use serde::Serialize;
use std::path::Path;

pub use crate::check::Engine;
pub use crate::check::trace::TraceKind;
pub use crate::report::view::{StepView, TraceView};
pub use crate::syntax::ast::{SpecKind, TerminationRule};

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
    /// `--format`: how `xmv-rs check` prints the run (ignored by [`check_str`] and the other entry points).
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
    pub selection: crate::properties::Selection,
    /// `--shard I/N`: check only the I-th of N slices of the specs (see the README).
    pub shard: Option<(usize, usize)>,
    /// `--spec-timeout SECS`: the time each spec's check may take; a spec that runs out is
    /// reported as unknown and the others are checked . `None`: no limit.
    pub spec_timeout: Option<std::time::Duration>,
}

/// Which specs a run checks.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum Selection {
    /// Every spec (the default).
    #[default]
    All,
    /// NuSMV's `-n IDX`.
    Index(usize),
    /// `-P NAME`: the spec declared with `NAME`.
    Name(String),
}

/// What checking a spec decided.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// The spec holds.
    True,
    /// The spec does not hold.
    False,
    /// The spec was not decided.
    Unknown(Unknown),
}

impl Verdict {
    /// `True` or `False`.
    pub fn of(holds: bool) -> Verdict {
        if holds { Verdict::True } else { Verdict::False }
    }

    /// `Some(true)` / `Some(false)` for a decided spec, `None` for an undecided one.
    pub fn holds(self) -> Option<bool> {
        match self {
            Verdict::True => Some(true),
            Verdict::False => Some(false),
            Verdict::Unknown(_) => None,
        }
    }
}

/// Why a spec was not decided.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Unknown {
    /// Its check ran past `--spec-timeout` (the limit it had) and was cancelled.
    Timeout(std::time::Duration),
}

impl Unknown {
    /// The reason as the text format prints it, e.g. `timeout after 2 s`.
    pub fn describe(self) -> String {
        match self {
            Unknown::Timeout(limit) => format!("timeout after {} s", limit.as_secs_f64()),
        }
    }
}

/// One diagnostic, every span resolved to line and column.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct DiagnosticData {
    /// The code (`E0101`), as in the README's diagnostics table.
    pub code: &'static str,
    /// `"error"` or `"warning"`.
    pub severity: &'static str,
    /// What is wrong, one sentence.
    pub message: String,
    /// The file the spans refer to.
    pub file: String,
    /// The primary label first (the one the text renderer underlines with `^`); empty for a
    /// diagnostic about the run rather than a place in the file.
    pub labels: Vec<LabelData>,
    /// How to fix it (`= help:` lines of the text rendering).
    pub help: Vec<String>,
    /// Further facts (`= note:` lines).
    pub notes: Vec<String>,
}

/// A labelled span.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct LabelData {
    /// The diagnostic's main place (underlined with `^`; the others with `-`).
    pub primary: bool,
    /// The label's text (may be empty).
    pub message: String,
    /// Byte offsets into the file, end exclusive.
    pub start: u32,
    /// See `start`.
    pub end: u32,
    /// 1-based line of `start`.
    pub line: usize,
    /// 1-based column (in characters) of `start`.
    pub column: usize,
    /// 1-based line of `end`.
    pub end_line: usize,
    /// 1-based column (in characters) of `end`.
    pub end_column: usize,
}

/// What checking a model found.
#[derive(Clone, Debug, PartialEq)]
pub struct Report {
    /// One result per CTL spec, LTL spec and invariant, in NuSMV's printing order (CTL specs,
    /// then LTL specs, then invariants).
    pub specs: Vec<SpecResult>,
    /// Warnings of every stage (unsupported specs skipped, vacuous fairness, …).
    pub warnings: Vec<DiagnosticData>,
}

/// The verdict on one spec.
#[derive(Clone, Debug, PartialEq)]
pub struct SpecResult {
    /// `SPEC NAME n := …`.
    pub name: Option<String>,
    /// The flat model (`main`) or the procedure module the spec belongs to.
    pub module: String,
    /// `Ctl`, `Ltl` or `Invar`.
    pub kind: SpecKind,
    /// The formula as NuSMV prints it.
    pub text: String,
    /// True, false, or unknown (not decided within [`CheckOptions::spec_timeout`]).
    pub verdict: Verdict,
    /// A counterexample (or, for true existential specs where given, a witness) when
    /// [`CheckOptions::traces`] asks for them.
    pub trace: Option<TraceView>,
}

/// Checks the specs of the model `text` (named `<input>` in diagnostics). `Err` holds the
/// errors (and warnings) when the model is malformed or its state space cannot be built or
/// checked; `options.format` is ignored.
pub fn check_str(text: &str, options: &CheckOptions) -> Result<Report, Vec<DiagnosticData>> {
    check_named("<input>", text, options)
}

/// [`check_str`] with the name diagnostics give the model (a file name, say).
pub fn check_named(name: &str, text: &str, options: &CheckOptions) -> Result<Report, Vec<DiagnosticData>> {
    check_source(&SourceFile::new(name, text), options)
}

/// Reads the model at `path` and checks it as [`check_str`] does (diagnostics name the file as
/// `path` is written). A byte-order mark is skipped; bytes that are not UTF-8 are read as
/// U+FFFD, which the parser reports. The outer `Err` is a file that cannot be read.
///
/// ```
/// let path = std::env::temp_dir().join(format!("xmv-rs-doc-{}.smv", std::process::id()));
/// std::fs::write(&path, "MODULE main\nVAR b : boolean;\nINVARSPEC b | !b\n")?;
/// let report = xmv_rs::check_file(&path, &Default::default())?.expect("a well-formed model");
/// assert_eq!(report.specs[0].verdict, xmv_rs::Verdict::True);
/// assert!(xmv_rs::check_file(path.with_extension("missing"), &Default::default()).is_err());
/// # std::fs::remove_file(&path)?;
/// # Ok::<(), std::io::Error>(())
/// ```
pub fn check_file(path: impl AsRef<Path>, options: &CheckOptions) -> std::io::Result<Result<Report, Vec<DiagnosticData>>> {
    let path = path.as_ref();
    let bytes = std::fs::read(path)?;
    Ok(check_source(&SourceFile::from_bytes(path.display().to_string(), &bytes), options))
}

fn check_source(file: &SourceFile, options: &CheckOptions) -> Result<Report, Vec<DiagnosticData>> {
    // The JSON format keeps traces in the reports and renders nothing on stderr.
    let options = CheckOptions { format: Format::Json, ..options.clone() };
    let (out, reports) = crate::driver::run_reports(file, &options, &Stages::linked());
    let diagnostics: Vec<DiagnosticData> = out.diagnostics.iter().map(|d| d.to_data(file)).collect();
    if out.exit_code == 2 {
        return Err(diagnostics);
    }
    let specs = (reports.into_iter())
        .map(|r| SpecResult {
            name: r.name,
            module: r.module.unwrap_or(r.system_name),
            kind: r.kind,
            text: r.text.trim_end().to_string(),
            verdict: r.verdict,
            trace: r.trace,
        })
        .collect();
    Ok(Report { specs, warnings: diagnostics })
}
