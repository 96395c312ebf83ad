//! `--format sarif`: the run as a SARIF 2.1.0 log, for code-scanning dashboards and CI.
//!
//! One run of one tool (`xmv-rs`). Results:
//! * every diagnostic (errors and warnings of every stage): `ruleId` = its code (`E0101`), level
//!   `error`/`warning`, the message followed by its `help:`/`note:` lines, the primary label as
//!   the location and the other labels as related locations (a diagnostic about the run as a
//!   whole, such as a checker failure, has no location);
//! * every false spec: `ruleId` = the spec's name (`SPEC NAME p := …`) or, for an unnamed spec,
//!   `CTLSPEC`/`INVARSPEC`/`LTLSPEC`; level `error`; located at the spec. A counterexample becomes a
//!   `codeFlow` with one thread-flow location per step (the loop start repeated at the end, as
//!   the text format prints it): the step's message names the state (`State 1.3`), the module
//!   and call stack, the inputs and values; `state` holds the values by name; `nestingLevel` is
//!   the depth of the call stack. Every step is located at the spec (a state has no place in the
//!   source text).
//!
//! * every spec left undecided by `--spec-timeout`: the same rule and location, `kind` `open`
//!   (SARIF: the tool could not determine whether the target passes or fails), level `none`,
//!   the message `specification … is unknown (timeout after 2 s)`.
//!
//! True specs are not results. Columns count Unicode code points (`columnKind`), as the text
//! diagnostics' `file:line:col` does. The types are `serde-sarif`'s (generated from the SARIF
//! schema); `tests/output_schemas.rs` validates the output against that schema.

use super::RunOutput;
use super::view::TraceView;
use super::{SpecReport, Verdict};
use crate::diagnostics::Severity;
use crate::diagnostics::data::{DiagnosticData, LabelData};
use crate::ir::SpecKind;
use crate::source::SourceFile;
use serde_sarif::sarif;
use std::collections::BTreeMap;

/// The SARIF version written.
pub(crate) const SARIF_VERSION: &str = "2.1.0";
/// The schema the log names (`$schema`).
pub(crate) const SARIF_SCHEMA: &str = "https://json.schemastore.org/sarif-2.1.0.json";

/// The run as a pretty-printed SARIF log (with a final newline).
pub(crate) fn render_sarif(file: &SourceFile, reports: &[SpecReport], run: &RunOutput) -> String {
    let diagnostics: Vec<DiagnosticData> = run.diagnostics.iter().map(|d| d.to_data(file)).collect();
    let uri = file_uri(&file.name);
    let mut rules: Vec<String> = vec![];
    let mut results = vec![];
    for (d, original) in diagnostics.iter().zip(&run.diagnostics) {
        rule_index(&mut rules, d.code);
        results.push(diagnostic_result(d, original.severity, &uri));
    }
    for r in reports.iter().filter(|r| matches!(r.verdict, Verdict::False | Verdict::Unknown(_))) {
        let rule = spec_rule(r);
        rule_index(&mut rules, &rule);
        results.push(spec_result(file, r, rule, &uri));
    }
    let tool = sarif::Tool::builder()
        .driver(
            sarif::ToolComponent::builder()
                .name("xmv-rs")
                .version(env!("CARGO_PKG_VERSION"))
                .rules(rules.iter().map(|id| sarif::ReportingDescriptor::builder().id(id.clone()).build()).collect::<Vec<_>>())
                .build(),
        )
        .build();
    let invocation = sarif::Invocation::builder().execution_successful(run.exit_code != 2).exit_code(i64::from(run.exit_code)).build();
    let artifact = sarif::Artifact::builder().location(sarif::ArtifactLocation::builder().uri(uri.clone()).build()).build();
    let sarif_run = sarif::Run::builder()
        .tool(tool)
        .invocations(vec![invocation])
        .artifacts(vec![artifact])
        .column_kind(serde_json::Value::String("unicodeCodePoints".into()))
        .results(results)
        .build();
    let log = sarif::Sarif::builder().schema(SARIF_SCHEMA).version(serde_json::Value::String(SARIF_VERSION.into())).runs(vec![sarif_run]).build();
    let mut s = serde_json::to_string_pretty(&log).unwrap_or_else(|e| format!("{{\"error\": \"{e}\"}}"));
    s.push('\n');
    s
}

/// The rule of a false spec: its name, or the keyword of its kind.
fn spec_rule(r: &SpecReport) -> String {
    match (&r.name, r.kind) {
        (Some(name), _) => name.clone(),
        (None, SpecKind::Invar) => "INVARSPEC".into(),
        (None, SpecKind::Ltl) => "LTLSPEC".into(),
        (None, SpecKind::Psl) => "PSLSPEC".into(),
        (None, _) => "CTLSPEC".into(),
    }
}

fn rule_index(rules: &mut Vec<String>, id: &str) {
    if !rules.iter().any(|r| r == id) {
        rules.push(id.to_string());
    }
}

/// A file name as a URI reference: relative paths stay relative; characters that a URI may not
/// hold are percent-encoded.
fn file_uri(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    for b in name.bytes() {
        if b.is_ascii_alphanumeric() || b"-._~/:".contains(&b) {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

fn message(text: String) -> sarif::Message {
    sarif::Message::builder().text(text).build()
}

fn region(l: &LabelData) -> sarif::Region {
    sarif::Region::builder()
        .start_line(l.line as i64)
        .start_column(l.column as i64)
        .end_line(l.end_line as i64)
        .end_column(l.end_column as i64)
        .byte_offset(i64::from(l.start))
        .byte_length(i64::from(l.end - l.start))
        .build()
}

fn location(uri: &str, l: &LabelData) -> sarif::Location {
    let physical =
        sarif::PhysicalLocation::builder().artifact_location(sarif::ArtifactLocation::builder().uri(uri.to_string()).build()).region(region(l)).build();
    match l.message.is_empty() {
        true => sarif::Location::builder().physical_location(physical).build(),
        false => sarif::Location::builder().physical_location(physical).message(message(l.message.clone())).build(),
    }
}

fn diagnostic_result(d: &DiagnosticData, severity: Severity, uri: &str) -> sarif::Result {
    let mut text = d.message.clone();
    for h in &d.help {
        text.push_str(&format!("\nhelp: {h}"));
    }
    for n in &d.notes {
        text.push_str(&format!("\nnote: {n}"));
    }
    let level = match severity {
        Severity::Error => sarif::ResultLevel::Error,
        Severity::Warning => sarif::ResultLevel::Warning,
    };
    let locations: Vec<sarif::Location> = d.labels.iter().filter(|l| l.primary).map(|l| location(uri, l)).collect();
    let related: Vec<sarif::Location> = d.labels.iter().filter(|l| !l.primary).map(|l| location(uri, l)).collect();
    let result = sarif::Result::builder().rule_id(d.code).level(level).message(message(text));
    match (locations.is_empty(), related.is_empty()) {
        (true, _) => result.build(),
        (false, true) => result.locations(locations).build(),
        (false, false) => result.locations(locations).related_locations(related).build(),
    }
}

fn spec_result(file: &SourceFile, r: &SpecReport, rule: String, uri: &str) -> sarif::Result {
    // The spec's span without the blank and comment-free tail the parser includes.
    let end = r.span.start + file.slice(r.span).trim_end().len() as u32;
    let (line, column) = file.line_col(r.span.start);
    let (end_line, end_column) = file.line_col(end);
    let spec_label = LabelData { primary: true, message: String::new(), start: r.span.start, end, line, column, end_line, end_column };
    let what = if r.kind == SpecKind::Invar { "invariant" } else { "specification" };
    let place = r.module.as_ref().map(|m| format!(" in module {m}")).unwrap_or_default();
    let text = |verdict: &str| format!("{what} {}{place} is {verdict}", r.text.trim_end());
    if let Verdict::Unknown(why) = r.verdict {
        // SARIF's `open`: the tool could not decide whether the target passes or fails the rule.
        return (sarif::Result::builder().rule_id(rule).kind(sarif::ResultKind::Open).level(sarif::ResultLevel::None))
            .message(message(text(&format!("unknown ({})", why.describe()))))
            .locations(vec![location(uri, &spec_label)])
            .build();
    }
    let result =
        sarif::Result::builder().rule_id(rule).level(sarif::ResultLevel::Error).message(message(text("false"))).locations(vec![location(uri, &spec_label)]);
    match &r.trace {
        Some(trace) => result.code_flows(vec![code_flow(trace, uri, &spec_label)]).build(),
        None => result.build(),
    }
}

/// A counterexample (or witness) as one thread flow, one location per printed step.
fn code_flow(trace: &TraceView, uri: &str, spec: &LabelData) -> sarif::CodeFlow {
    let steps = trace.steps.iter().enumerate().map(|(i, step)| {
        let mut text = format!("State {}", i + 1);
        if trace.loop_start == Some(i) {
            text.push_str(" (loop starts here)");
        }
        if step.terminated {
            text.push_str(": terminated");
        } else if trace.recursive {
            text.push_str(&format!(" in {}", step.module));
        }
        if !step.stack.is_empty() {
            text.push_str(&format!(", called from {}", step.stack.join(" > ")));
        }
        let shown: Vec<String> = step.inputs.iter().chain(&step.values).map(|(k, v)| format!("{k} = {v}")).collect();
        if !shown.is_empty() {
            text.push_str(": ");
            text.push_str(&shown.join(", "));
        }
        let state: BTreeMap<String, sarif::MultiformatMessageString> =
            step.inputs.iter().chain(&step.values).map(|(k, v)| (k.clone(), sarif::MultiformatMessageString::builder().text(v.clone()).build())).collect();
        let at = sarif::Location::builder()
            .physical_location(
                sarif::PhysicalLocation::builder()
                    .artifact_location(sarif::ArtifactLocation::builder().uri(uri.to_string()).build())
                    .region(region(spec))
                    .build(),
            )
            .message(message(text))
            .build();
        sarif::ThreadFlowLocation::builder().location(at).nesting_level(step.stack.len() as i64).state(state).execution_order(i as i64 + 1).build()
    });
    let flow = sarif::ThreadFlow::builder().locations(steps.collect::<Vec<_>>()).build();
    let kind = match trace.kind {
        crate::check::trace::TraceKind::Counterexample => "counterexample",
        crate::check::trace::TraceKind::Witness => "witness",
        crate::check::trace::TraceKind::Simulation => "simulation",
    };
    let note = match trace.loop_start {
        Some(_) => format!("{kind}: a lasso; the last state repeats the loop start"),
        None => kind.to_string(),
    };
    sarif::CodeFlow::builder().thread_flows(vec![flow]).message(message(note)).build()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn file_names_become_uri_references() {
        assert_eq!(file_uri("specs/a b.smv"), "specs/a%20b.smv");
        assert_eq!(file_uri("/tmp/x-1_y.smv"), "/tmp/x-1_y.smv");
        assert_eq!(file_uri("é.smv"), "%C3%A9.smv");
    }
}
