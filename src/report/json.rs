//! `--format json`: one JSON document per run, schema `docs/schema/check-output.schema.json`.
//!
//! `{"schema": "xmv-rs-check", "version": 1, "file": …, "exit_code": 0|1|2, "specs": [...],
//! "diagnostics": [...], "suppressed_errors": N}`. Specs in the printing order of the text
//! format: `{"name": …, "module": …, "kind": "ctl"|"ltl"|"invariant", "text": …, "verdict": true|false|"unknown",
//! "unknown": {"reason": "timeout", "limit_s": …} (only for "unknown"),
//! "trace": null | {"kind", "loop_start", "steps": [{"module", "stack", "inputs", "values",
//! "terminated"}]}, "time_ms": …, "location": {"line", "column"}}`; values are the strings NuSMV
//! would print. `time_ms` is the wall time of the checker run that decided the spec (the specs of
//! one model are checked together and share work, so it is the same for all of them). `engine`
//! (optional, added within version 1) names the engine that decided the spec: `explicit` or
//! `bdd` for the flat model (whatever `--engine auto` chose), the procedure engine otherwise.
//! Diagnostics are [`crate::diagnostics::data::DiagnosticData`], the same data the text renderer
//! draws. A run stopped by errors has `exit_code` 2, no specs, and the errors.

use super::RunOutput;
use super::view::TraceView;
use super::{SpecReport, Unknown, Verdict};
use crate::diagnostics::data::DiagnosticData;
use crate::ir::{Distance, SpecKind};
use crate::source::SourceFile;
use serde::Serialize;

/// The name in the document's `schema` field.
pub(crate) const SCHEMA_NAME: &str = "xmv-rs-check";
/// The document's `version`: raised when a field changes meaning or disappears (adding fields
/// keeps it).
pub(crate) const SCHEMA_VERSION: u32 = 1;

#[derive(Serialize)]
struct Document<'a> {
    schema: &'static str,
    version: u32,
    file: &'a str,
    exit_code: i32,
    specs: Vec<SpecJson<'a>>,
    diagnostics: Vec<DiagnosticData>,
    suppressed_errors: usize,
}

#[derive(Serialize)]
struct Location {
    line: usize,
    column: usize,
}

#[derive(Serialize)]
struct SpecJson<'a> {
    name: Option<&'a str>,
    module: &'a str,
    kind: &'static str,
    text: &'a str,
    /// `true`, `false`, or `"unknown"`.
    verdict: serde_json::Value,
    /// Why a spec is `"unknown"` (`{"reason": "timeout", "limit_s": 2.0}`); absent otherwise.
    #[serde(skip_serializing_if = "Option::is_none")]
    unknown: Option<UnknownJson>,
    trace: Option<TraceJson<'a>>,
    time_ms: f64,
    /// Added within version 1: the engine that decided the spec.
    #[serde(skip_serializing_if = "Option::is_none")]
    engine: Option<&'static str>,
    location: Location,
}

#[derive(Serialize)]
struct UnknownJson {
    reason: &'static str,
    limit_s: f64,
}

#[derive(Serialize)]
struct TraceJson<'a> {
    kind: &'static str,
    loop_start: Option<usize>,
    loop_push: &'a [String],
    steps: Vec<StepJson<'a>>,
}

#[derive(Serialize)]
struct StepJson<'a> {
    module: &'a str,
    stack: &'a [String],
    inputs: serde_json::Map<String, serde_json::Value>,
    values: serde_json::Map<String, serde_json::Value>,
    terminated: bool,
}

fn pairs(p: &[(String, String)]) -> serde_json::Map<String, serde_json::Value> {
    p.iter().map(|(k, v)| (k.clone(), serde_json::Value::String(v.clone()))).collect()
}

fn trace_json(view: &TraceView) -> TraceJson<'_> {
    TraceJson {
        kind: match view.kind {
            crate::check::trace::TraceKind::Counterexample => "counterexample",
            crate::check::trace::TraceKind::Witness => "witness",
            crate::check::trace::TraceKind::Simulation => "simulation",
        },
        loop_start: view.loop_start,
        loop_push: &view.loop_push,
        steps: (view.steps.iter())
            .map(|s| StepJson { module: &s.module, stack: &s.stack, inputs: pairs(&s.inputs), values: pairs(&s.values), terminated: s.terminated })
            .collect(),
    }
}

/// The run as one pretty-printed JSON document (with a final newline).
pub(crate) fn render_document(file: &SourceFile, reports: &[SpecReport], run: &RunOutput) -> String {
    let document = Document {
        schema: SCHEMA_NAME,
        version: SCHEMA_VERSION,
        file: &file.name,
        exit_code: run.exit_code,
        specs: specs_json(file, reports),
        diagnostics: run.diagnostics.iter().map(|d| d.to_data(file)).collect(),
        suppressed_errors: run.suppressed_errors,
    };
    pretty(&document)
}

/// The specs alone, as a JSON array (the `specs` of [`render_document`]; the tests' view).
#[cfg(test)]
pub(crate) fn render_json(file: &SourceFile, reports: &[SpecReport]) -> String {
    pretty(&specs_json(file, reports))
}

fn pretty(value: &impl Serialize) -> String {
    let mut s = serde_json::to_string_pretty(value).unwrap_or_else(|e| format!("{{\"error\": \"{e}\"}}"));
    s.push('\n');
    s
}

fn specs_json<'a>(file: &SourceFile, reports: &'a [SpecReport]) -> Vec<SpecJson<'a>> {
    (reports.iter())
        .map(|r| SpecJson {
            name: r.name.as_deref(),
            module: r.module.as_deref().unwrap_or(&r.system_name),
            kind: match r.kind {
                SpecKind::Invar => "invariant",
                SpecKind::Ltl => "ltl",
                SpecKind::Psl => "psl",
                SpecKind::Compute => "compute",
                _ => "ctl",
            },
            text: r.text.trim_end(),
            verdict: match r.verdict {
                Verdict::True | Verdict::False => serde_json::Value::Bool(r.verdict == Verdict::True),
                Verdict::Unknown(_) => serde_json::Value::String("unknown".into()),
                Verdict::Distance(Distance::Steps(n)) => serde_json::Value::from(n),
                Verdict::Distance(d) => serde_json::Value::String(d.to_string()),
            },
            unknown: match r.verdict {
                Verdict::Unknown(Unknown::Timeout(limit)) => Some(UnknownJson { reason: "timeout", limit_s: limit.as_secs_f64() }),
                _ => None,
            },
            trace: r.trace.as_ref().map(trace_json),
            time_ms: r.time_ms,
            engine: r.engine,
            location: {
                let (line, column) = file.line_col(r.span.start);
                Location { line, column }
            },
        })
        .collect()
}
