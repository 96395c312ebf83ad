//! The library entry point for analysis frameworks: check a model given as text, get the
//! verdicts, traces and warnings as data, or the errors as data.
//!
//! This is the same run as `xmv-rs check` (the driver with the crate's own stages); only the
//! rendering differs. Diagnostics are [`DiagnosticData`] (code, severity, message, labels with
//! byte spans and 1-based line/column, help, notes), as in `--format json`.
//!
//! ```
//! use xmv_rs::{CheckOptions, check_str};
//!
//! let model = "MODULE main
//! VAR x : boolean;
//! ASSIGN init(x) := FALSE; next(x) := !x;
//! SPEC AG (x -> AX !x)
//! SPEC AG x
//! ";
//! let options = CheckOptions { traces: true, ..CheckOptions::default() };
//! let report = check_str(model, &options).expect("a well-formed model");
//! let verdicts: Vec<(&str, bool)> = report.specs.iter().map(|s| (s.text.as_str(), s.holds)).collect();
//! assert_eq!(verdicts, [("AG (x -> AX !x)", true), ("AG x", false)]);
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

use crate::diagnostics::data::DiagnosticData;
use crate::driver::{CheckOptions, Format, stages::Stages};
use crate::report::view::TraceView;
use crate::source::SourceFile;
use crate::syntax::ast::SpecKind;

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
    pub holds: bool,
    /// A counterexample (or, for true existential specs where given, a witness) when
    /// [`CheckOptions::traces`] asks for them.
    pub trace: Option<TraceView>,
}

/// Checks the specs of the model `text` (named `<input>` in diagnostics). `Err` holds the
/// errors (and warnings) when the model is malformed or its state space cannot be built or
/// checked; `options.format` is ignored.
pub fn check_str(text: &str, options: &CheckOptions) -> Result<Report, Vec<DiagnosticData>> {
    check_file(&SourceFile::new("<input>", text), options)
}

/// [`check_str`] on a file already read (its name is used in diagnostics).
pub fn check_file(file: &SourceFile, options: &CheckOptions) -> Result<Report, Vec<DiagnosticData>> {
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
            holds: r.holds,
            trace: r.trace,
        })
        .collect();
    Ok(Report { specs, warnings: diagnostics })
}
