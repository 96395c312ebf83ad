//! Traces made printable: state ids → variable values, DEFINE values, inputs, module and stack.
//!
//! [`trace_view`] turns a checker's [`Trace`] (ids only) into [`StepView`]s holding every
//! name/value pair of every step; the text and JSON renderers only format these. For lassos the
//! loop-start step is repeated at the end (as NuSMV prints it).

use crate::check::trace::{CallFrame, Trace, TraceKind};
use crate::explicit::build_flat::{FlatModel, transition_inputs};
use crate::explicit::build_rks::RksModel;
use crate::explicit::eval::{Env, Evaluator};
use crate::explicit::names::Names;
use crate::explicit::rks::{ComponentId, NodeId};
use crate::ir::VarKind;
use crate::lowering::program::is_monitor;
use crate::lowering::program::{LoweredProgram, System, SystemId, VarId};
use crate::symbolic::SymbolicModel;
use serde::Serialize;

/// The model a trace refers to.
#[derive(Clone, Copy)]
pub(crate) enum ModelRef<'a> {
    Flat(&'a FlatModel),
    Rks(&'a RksModel),
    /// A flat model checked without a state graph (the BDD engine): its traces carry their
    /// states' values ([`crate::check::trace::TraceStep::values`]); the inputs between two
    /// states are picked from its BDDs.
    Concrete(&'a SymbolicModel),
}

/// A trace with names and values, as the reports print it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct TraceView {
    /// Counterexample or witness.
    pub kind: TraceKind,
    /// The states, from an initial state (the loop start repeated at the end of a lasso).
    pub steps: Vec<StepView>,
    /// Index in `steps` where the loop starts; the last step repeats it.
    pub loop_start: Option<usize>,
    /// RKS: calls pushed by each repetition of the loop, as `module(call location)`.
    pub loop_push: Vec<String>,
    /// A trace of procedure modules: every step shows its module and call stack.
    pub recursive: bool,
    /// The trace of an LTL check (a `PSLSPEC` checked as LTL marks its loop as an `LTLSPEC`'s
    /// trace does; set by the report from the spec, `false` from [`trace_view`]).
    #[serde(skip)]
    pub linear: bool,
}

/// One state of a [`TraceView`]: the values that changed since the previous step.
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
    /// How many of `values` are state variables (the part that makes two steps the same state).
    #[serde(skip)]
    pub state_vars: usize,
    /// The termination state of an RKS run (no values).
    pub terminated: bool,
}

/// Builds the printable form of `trace`.
pub(crate) fn trace_view(program: &LoweredProgram, model: ModelRef, trace: &Trace) -> TraceView {
    let names = Names::of(program);
    // Which DEFINEs each step shows, and in what order: computed once per system.
    let mut layouts: Vec<Option<DefineLayout>> = (0..program.systems.len()).map(|_| None).collect();
    let mut steps: Vec<StepView> = vec![];
    let mut prev: Option<(u32, Vec<u32>)> = None;
    let mut order: Vec<usize> = (0..trace.steps.len()).collect();
    if let Some(l) = trace.loop_start.filter(|&l| l < trace.steps.len()) {
        order.push(l);
    }
    // Flat models: the states' values, and the input that leads from each to the next.
    let flat_values = |i: usize| match model {
        ModelRef::Flat(m) if trace.steps[i].values.is_empty() => {
            (m.system, m.kripke.state_values(crate::explicit::kripke::StateId::from_u32(trace.steps[i].state)).to_vec())
        }
        ModelRef::Flat(m) => (m.system, trace.steps[i].values.clone()),
        ModelRef::Concrete(m) => (m.system, trace.steps[i].values.clone()),
        ModelRef::Rks(_) => (SystemId::new(0), vec![]),
    };
    let mut outgoing: Option<Option<Vec<u32>>> = None;
    for (pos, &i) in order.iter().enumerate() {
        let step = &trace.steps[i];
        let view = match model {
            ModelRef::Flat(_) | ModelRef::Concrete(_) => {
                let (system_id, values) = flat_values(i);
                let system = &program.systems[system_id.index()];
                let layout = DefineLayout::cached(&mut layouts, program, system_id.index());
                let inputs = match (&prev, outgoing.take()) {
                    (Some(_), Some(with_inputs)) => input_values(system, layout, &names, with_inputs.as_deref()),
                    _ => vec![],
                };
                let mut state = state_values(system, layout, &names, &values);
                // DEFINEs over the transition (inputs with state variables, `next()`) are shown
                // with the state they leave, as NuSMV 2.5.4 does; the last state has none.
                if let Some(&j) = order.get(pos + 1) {
                    let (_, to) = flat_values(j);
                    let with_inputs = match model {
                        _ if !layout.has_inputs => None,
                        ModelRef::Concrete(m) => m.transition_inputs(&values, &to),
                        _ => transition_inputs(system, &values, &to),
                    };
                    let cur = with_inputs.as_deref().unwrap_or(&values);
                    if !layout.on_transition.is_empty() && (with_inputs.is_some() || !layout.has_inputs) {
                        state.extend(define_values(system, &layout.on_transition, &names, &Env { cur, next: Some(&to), exited: None }));
                    }
                    outgoing = Some(with_inputs);
                }
                let state_vars = state.len().min(system.vars.iter().filter(|v| v.kind != VarKind::Input && !is_monitor(v)).count());
                let v = StepView { module: system.name.clone(), stack: vec![], inputs, values: state, terminated: false, state_vars };
                prev = Some((0, values));
                v
            }
            ModelRef::Rks(m) => {
                let stack = step.stack.iter().map(|f| frame_text(m, f)).collect();
                if step.terminated {
                    prev = None;
                    StepView { module: String::new(), stack, inputs: vec![], values: vec![], terminated: true, state_vars: 0 }
                } else {
                    let system_id = m.system_of[step.component as usize].index();
                    let (system, layout) = (&program.systems[system_id], DefineLayout::cached(&mut layouts, program, system_id));
                    let values = m.node_values(program, ComponentId::from_u32(step.component), NodeId::from_u32(step.state)).to_vec();
                    let shown = state_values(system, layout, &names, &values);
                    let v = StepView { module: system.name.clone(), stack, inputs: vec![], state_vars: shown.len(), values: shown, terminated: false };
                    prev = Some((step.component, values));
                    v
                }
            }
        };
        steps.push(view);
    }
    let loop_push = match model {
        ModelRef::Rks(m) => trace.loop_push.iter().map(|f| frame_text(m, f)).collect(),
        ModelRef::Flat(_) | ModelRef::Concrete(_) => vec![],
    };
    TraceView {
        kind: trace.kind,
        steps,
        loop_start: trace.loop_start.filter(|&l| l < trace.steps.len()),
        loop_push,
        recursive: matches!(model, ModelRef::Rks(_)),
        linear: false,
    }
}

/// A pending call as `module(call location)`.
fn frame_text(m: &RksModel, f: &CallFrame) -> String {
    match m.rks.components.get(f.component as usize) {
        Some(comp) => format!("{}({})", comp.name, comp.node_names.get(f.call as usize).map_or("?", |s| s.as_str())),
        None => "?".into(),
    }
}

/// State variables, then the DEFINEs that read no input variable (the others are shown with the
/// inputs, as NuSMV does), in NuSMV 2.5.4's order ([`DefineLayout`]).
fn state_values(system: &System, layout: &DefineLayout, names: &Names, values: &[u32]) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = (system.vars.iter().enumerate())
        .filter(|(_, v)| v.kind != VarKind::Input && !is_monitor(v))
        .map(|(i, v)| (v.name.clone(), names.var_value(v, values[i])))
        .collect();
    out.extend(define_values(system, &layout.with_state, names, &Env::state(values)));
    out
}

/// The values of the DEFINEs `defines` (indices) in `env`; those that cannot be evaluated
/// there are left out.
fn define_values(system: &System, defines: &[usize], names: &Names, env: &Env) -> Vec<(String, String)> {
    let mut ev = Evaluator::new(&system.vars);
    (defines.iter().map(|&d| &system.defines[d])).filter_map(|d| ev.value(&d.expr, env).ok().map(|v| (d.name.clone(), names.value(v)))).collect()
}

/// Where a trace shows each DEFINE of a system, in the order NuSMV 2.5.4 prints them: module
/// instances in declaration order, the DEFINEs of each instance last-declared first (checked
/// against NuSMV on nested instances and processes; the `running` DEFINEs of processes come
/// after `main`'s, last process first). DEFINEs that read only input variables go with the
/// inputs; those that read inputs with state variables, or `next()`, come after the state's
/// DEFINEs, evaluated on the transition that leaves the state (NuSMV's state-input DEFINEs).
#[derive(Debug)]
struct DefineLayout {
    with_state: Vec<usize>,
    with_inputs: Vec<usize>,
    on_transition: Vec<usize>,
    has_inputs: bool,
}

impl DefineLayout {
    fn of(system: &System) -> DefineLayout {
        let is_input = |v: VarId| system.vars.get(v.index()).is_some_and(|x| x.kind == VarKind::Input);
        let (mut with_state, mut with_inputs, mut on_transition) = (vec![], vec![], vec![]);
        for d in nusmv_define_order(system) {
            let e = &system.defines[d].expr;
            let (input, state) = (e.reads_var(&is_input), e.reads_var(&|v| !is_input(v)));
            if e.reads_next() || (input && state) {
                on_transition.push(d);
            } else if input {
                with_inputs.push(d);
            } else {
                with_state.push(d);
            }
        }
        DefineLayout { with_state, with_inputs, on_transition, has_inputs: system.vars.iter().any(|v| v.kind == VarKind::Input) }
    }

    /// The layout of system `id`, computed on first use.
    fn cached<'a>(layouts: &'a mut [Option<DefineLayout>], program: &LoweredProgram, id: usize) -> &'a DefineLayout {
        layouts[id].get_or_insert_with(|| DefineLayout::of(&program.systems[id]))
    }
}

/// DEFINE indices in NuSMV 2.5.4's printing order (see [`DefineLayout`]). An instance's
/// DEFINEs are those declared in its module, `left.ack := …` included (NuSMV's `syncarb5.smv`
/// prints `e1.token-in`, declared in `main`, with `main`'s): [`System::define_scopes`], or the
/// instance in the name where that is not known.
fn nusmv_define_order(system: &System) -> Vec<usize> {
    let instance = |i: usize, name: &str| match system.define_scopes.get(i) {
        Some(scope) => format!("\u{1}{scope}"),
        None => name.rsplit_once('.').map_or("", |(prefix, _)| prefix).to_string(),
    };
    let mut groups: Vec<(String, Vec<usize>)> = Vec::new();
    let mut group_of: rustc_hash::FxHashMap<String, usize> = Default::default();
    let mut running: Vec<usize> = Vec::new();
    for (i, d) in system.defines.iter().enumerate() {
        if d.name.ends_with(".running") {
            running.push(i);
            continue;
        }
        let key = if d.name == "running" { "\0running".to_string() } else { instance(i, &d.name) };
        let g = *group_of.entry(key.clone()).or_insert_with(|| {
            groups.push((key, vec![]));
            groups.len() - 1
        });
        groups[g].1.push(i);
    }
    let mut out = Vec::with_capacity(system.defines.len());
    for (key, members) in groups {
        if key == "\0running" {
            out.extend(members);
            out.extend(running.iter().rev());
        } else {
            out.extend(members.iter().rev());
        }
    }
    out
}

/// The inputs of a step and the DEFINEs over inputs only, from the state that led to it
/// completed with those inputs (`None`: no inputs, or none found).
fn input_values(system: &System, layout: &DefineLayout, names: &Names, with_inputs: Option<&[u32]>) -> Vec<(String, String)> {
    let Some(with_inputs) = with_inputs else { return vec![] };
    let mut out: Vec<(String, String)> =
        (system.vars.iter().enumerate()).filter(|(_, v)| v.kind == VarKind::Input).map(|(i, v)| (v.name.clone(), names.var_value(v, with_inputs[i]))).collect();
    out.extend(define_values(system, &layout.with_inputs, names, &Env::state(with_inputs)));
    out
}
