//! Traces made printable: state ids → variable values, DEFINE values, inputs, module and stack.
//!
//! [`trace_view`] turns a checker's [`Trace`] (ids only) into [`StepView`]s holding every
//! name/value pair of every step; the text and JSON renderers only format these. For lassos the
//! loop-start step is repeated at the end (as NuSMV prints it).

use super::trace::{CallFrame, TERMINATED, Trace, TraceKind};
use crate::explicit::build_flat::{FlatModel, transition_inputs};
use crate::explicit::build_rks::RksModel;
use crate::explicit::eval::{Env, Evaluator};
use crate::explicit::names::Names;
use crate::lowering::program::{LoweredProgram, System};
use crate::syntax::ast::VarKind;
use serde::Serialize;

/// The model a trace refers to.
#[derive(Clone, Copy, Debug)]
pub enum ModelRef<'a> {
    Flat(&'a FlatModel),
    Rks(&'a RksModel),
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct TraceView {
    pub kind: TraceKind,
    pub steps: Vec<StepView>,
    /// Index in `steps` where the loop starts; the last step repeats it.
    pub loop_start: Option<usize>,
    /// RKS: calls pushed by each repetition of the loop, as `module(call location)`.
    pub loop_push: Vec<String>,
    /// A trace of procedure modules: every step shows its module and call stack.
    pub recursive: bool,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct StepView {
    /// The module of the step (procedure modules; the flat model's name otherwise).
    pub module: String,
    /// RKS: the pending calls, outermost first, as `module(call location)`.
    pub stack: Vec<String>,
    /// Input values on the transition into this step (empty for the first step).
    pub inputs: Vec<(String, String)>,
    /// State variables then DEFINEs, in declaration order.
    pub values: Vec<(String, String)>,
    /// The termination state of an RKS run (no values).
    pub terminated: bool,
}

/// Builds the printable form of `trace`.
pub fn trace_view(program: &LoweredProgram, model: ModelRef, trace: &Trace) -> TraceView {
    let names = Names::of(program);
    let mut steps: Vec<StepView> = vec![];
    let mut prev: Option<(u32, Vec<u32>)> = None;
    let mut order: Vec<usize> = (0..trace.steps.len()).collect();
    if let Some(l) = trace.loop_start.filter(|&l| l < trace.steps.len()) {
        order.push(l);
    }
    for &i in &order {
        let step = &trace.steps[i];
        let view = match model {
            ModelRef::Flat(m) => {
                let system = &program.systems[m.system as usize];
                let values = m.kripke.state_values(step.state).to_vec();
                let inputs = match &prev {
                    Some((_, from)) => input_values(system, &names, from, &values),
                    None => vec![],
                };
                let v = StepView { module: system.name.clone(), stack: vec![], inputs, values: state_values(system, &names, &values), terminated: false };
                prev = Some((0, values));
                v
            }
            ModelRef::Rks(m) => {
                let stack = step.stack.iter().map(|f| frame_text(m, f)).collect();
                if step.state == TERMINATED {
                    prev = None;
                    StepView { module: String::new(), stack, inputs: vec![], values: vec![], terminated: true }
                } else {
                    let system = &program.systems[m.system_of[step.component as usize] as usize];
                    let values = m.node_values(program, step.component, step.state).to_vec();
                    let v = StepView { module: system.name.clone(), stack, inputs: vec![], values: state_values(system, &names, &values), terminated: false };
                    prev = Some((step.component, values));
                    v
                }
            }
        };
        steps.push(view);
    }
    let loop_push = match model {
        ModelRef::Rks(m) => trace.loop_push.iter().map(|f| frame_text(m, f)).collect(),
        ModelRef::Flat(_) => vec![],
    };
    TraceView { kind: trace.kind, steps, loop_start: trace.loop_start.filter(|&l| l < trace.steps.len()), loop_push, recursive: matches!(model, ModelRef::Rks(_)) }
}

/// A pending call as `module(call location)`.
fn frame_text(m: &RksModel, f: &CallFrame) -> String {
    match m.rks.components.get(f.component as usize) {
        Some(comp) => format!("{}({})", comp.name, comp.node_names.get(f.call as usize).map_or("?", |s| s.as_str())),
        None => "?".into(),
    }
}

/// State variables, then DEFINEs that can be evaluated on the state alone.
fn state_values(system: &System, names: &Names, values: &[u32]) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = (system.vars.iter().enumerate())
        .filter(|(_, v)| v.kind != VarKind::Input)
        .map(|(i, v)| (v.name.clone(), names.var_value(v, values[i])))
        .collect();
    let mut ev = Evaluator::new(&system.vars);
    for d in &system.defines {
        if let Ok(v) = ev.value(&d.expr, &Env::state(values)) {
            out.push((d.name.clone(), names.value(v)));
        }
    }
    out
}

fn input_values(system: &System, names: &Names, from: &[u32], to: &[u32]) -> Vec<(String, String)> {
    let Some(with_inputs) = transition_inputs(system, from, to) else { return vec![] };
    (system.vars.iter().enumerate())
        .filter(|(_, v)| v.kind == VarKind::Input)
        .map(|(i, v)| (v.name.clone(), names.var_value(v, with_inputs[i])))
        .collect()
}
