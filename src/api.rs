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
use std::path::Path;

pub use crate::check::Engine;
pub use crate::check::trace::TraceKind;
pub use crate::diagnostics::data::{DiagnosticData, LabelData};
pub use crate::driver::options::{CheckOptions, Format};
pub use crate::ir::{ComputeOperand, Distance, SpecKind, TerminationRule};
pub use crate::properties::Selection;
pub use crate::report::view::{StepView, TraceView};
pub use crate::report::{Unknown, Verdict};

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
