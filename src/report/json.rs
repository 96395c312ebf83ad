//! `--format json`: one JSON object per spec, in file order, as a JSON array.
//!
//! `{"name": …, "module": …, "kind": "ctl"|"invariant", "text": …, "verdict": true|false,
//! "trace": null | {"kind", "loop_start", "steps": [{"module", "stack", "inputs", "values",
//! "terminated"}]}, "time_ms": …}`; values are the strings NuSMV would print. `time_ms` is the wall
//! time of the checker run that decided the spec (the specs of one model are checked together and
//! share work, so it is the same for all of them).

use super::SpecReport;
use super::view::TraceView;
use crate::syntax::ast::SpecKind;
use serde::Serialize;

#[derive(Serialize)]
struct SpecJson<'a> {
    name: Option<&'a str>,
    module: &'a str,
    kind: &'static str,
    text: &'a str,
    verdict: bool,
    trace: Option<TraceJson<'a>>,
    time_ms: f64,
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
        },
        loop_start: view.loop_start,
        loop_push: &view.loop_push,
        steps: (view.steps.iter())
            .map(|s| StepJson { module: &s.module, stack: &s.stack, inputs: pairs(&s.inputs), values: pairs(&s.values), terminated: s.terminated })
            .collect(),
    }
}

/// The whole report as a pretty-printed JSON array (with a final newline).
pub fn render_json(reports: &[SpecReport]) -> String {
    let items: Vec<SpecJson> = (reports.iter())
        .map(|r| SpecJson {
            name: r.name.as_deref(),
            module: r.module.as_deref().unwrap_or(&r.system_name),
            kind: match r.kind {
                SpecKind::Invar => "invariant",
                SpecKind::Ltl => "ltl",
                _ => "ctl",
            },
            text: r.text.trim_end(),
            verdict: r.holds,
            trace: r.trace.as_ref().map(trace_json),
            time_ms: r.time_ms,
        })
        .collect();
    let mut s = serde_json::to_string_pretty(&items).unwrap_or_else(|e| format!("{{\"error\": \"{e}\"}}"));
    s.push('\n');
    s
}
