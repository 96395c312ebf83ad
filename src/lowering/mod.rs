//! Stage 3, lowering: constant propagation and `case`-to-table compilation, producing the
//! [`program::LoweredProgram`] the state-space builder consumes.
//!
//! | module | job |
//! |---|---|
//! | [`fold`] | constant folding and boolean simplification |
//! | [`table`] | `case` over one variable → [`program::Expr::Table`] |
//! | [`expr`] | typed expressions → lowered expressions (DEFINE expansion, `next` push-down) |
//! | [`spec`] | specifications → `Ctl<SpecAtom>` |
//! | [`invar_monitor`] | `INVARSPEC`s over inputs and `next()`, `LTLSPEC` atoms over inputs: NuSMV's monitor variable |
//! | [`checks`] | checks that need folded values: constant assignments out of range, procedure entries |

pub(crate) use crate::ir::{ops, words};

pub(crate) mod checks;
pub(crate) mod expr;
pub(crate) mod fold;
pub(crate) mod invar_monitor;
pub(crate) mod ltl_spec;
pub mod program;
pub(crate) mod spec;
pub(crate) mod table;

use crate::ctl::Ctl;
use crate::diagnostics::Diagnostic;
use crate::ir::SpecKind;
use crate::semantics::checked::{CheckedProgram, CheckedSystem};
use crate::source::Span;
use expr::Lowerer;
use program::{CallEntry, ExitEntry, Expr, LoweredProgram, LoweredSpec, NamedExpr, SpecAtom, System, SystemSpans, Value};

/// Lowers a checked program (which must be free of errors). Systems are lowered in parallel
/// ([`crate::par`]); diagnostics come in system order, as when lowered one after the other.
pub fn lower(checked: &CheckedProgram) -> (LoweredProgram, Vec<Diagnostic>) {
    let ids: Vec<usize> = (0..checked.systems.len()).collect();
    let lowered = crate::par::map_ordered(&ids, 2, |&id| lower_one(checked, id));
    let mut diags = vec![];
    let mut systems = Vec::with_capacity(lowered.len());
    let mut specs = vec![];
    for (system, mut s, mut d) in lowered {
        systems.push(system);
        specs.append(&mut s);
        diags.append(&mut d);
    }
    // The flat model's specs in NuSMV's order (see `semantics::system`), then the procedure
    // modules' specs in file order.
    specs.sort_by_key(|s| if checked.systems[s.system.index()].is_procedure { (1, s.span.start) } else { (0, 0) });
    let program = LoweredProgram {
        systems,
        flat: checked.flat,
        symbols: checked.symbols.clone(),
        labels: checked.labels.clone(),
        exit_names: checked.exit_names.clone(),
        specs,
        termination: checked.termination,
    };
    (program, diags)
}

/// System `id` with its specs, and the diagnostics of lowering them.
fn lower_one(checked: &CheckedProgram, id: usize) -> (System, Vec<LoweredSpec>, Vec<Diagnostic>) {
    let sys = &checked.systems[id];
    let mut l = Lowerer::new(sys, &checked.labels);
    let mut system = lower_system(&mut l, sys);
    checks::assignments_in_domain(sys, &system, &checked.symbols, &mut l.diags);
    // The flat model's words are checked by the explicit builder (the BDD engine encodes them).
    if checked.flat.map(|f| f.index()) != Some(id) {
        checks::enumerated_words(&system, &mut l.diags);
    }
    if sys.is_procedure {
        checks::single_entry(sys, &system, &mut l.diags);
    }
    let mut specs = vec![];
    for s in checked.specs.iter().filter(|s| s.system.index() == id) {
        let formula = match s.kind {
            SpecKind::Invar => match spec::bare_label(&l, &s.expr) {
                Some(label) => Ctl::Atom(SpecAtom::Label(label)),
                None if sys.is_procedure => Ctl::Atom(SpecAtom::State(l.lower(&s.expr))),
                None => Ctl::Atom(SpecAtom::State(invar_monitor::monitor_atom(&mut l, &mut system, &s.expr, s.span))),
            },
            _ if s.linear => Ctl::True,
            _ => spec::to_ctl(&mut l, &s.expr),
        };
        let ltl = s.linear.then(|| ltl_spec::to_ltl(&mut l, &mut system, &s.expr, s.span));
        let compute = s.compute.as_ref().map(|c| c.map(|e| spec::to_ctl(&mut l, e)));
        specs.push(LoweredSpec { kind: s.kind, name: s.name.clone(), system: s.system, formula, ltl, compute, text: s.text.clone(), span: s.span });
    }
    (system, specs, l.diags)
}

fn lower_system(l: &mut Lowerer, sys: &CheckedSystem) -> System {
    let lower_opt =
        |l: &mut Lowerer, xs: &[Option<crate::semantics::checked::TExpr>]| -> Vec<Option<Expr>> { xs.iter().map(|x| x.as_ref().map(|t| l.lower(t))).collect() };
    let lower_step = |l: &mut Lowerer, xs: &[Option<crate::semantics::checked::TExpr>]| -> Vec<Option<Expr>> {
        xs.iter().map(|x| x.as_ref().map(|t| l.lower_step(t))).collect()
    };
    // Constraints that fold to TRUE are dropped, with their spans.
    let constraints = |l: &mut Lowerer, xs: &[crate::semantics::checked::TExpr], spans: &[Span], step: bool| -> (Vec<Expr>, Vec<Span>) {
        xs.iter().zip(spans).map(|(t, s)| (if step { l.lower_step(t) } else { l.lower(t) }, *s)).filter(|(e, _)| *e != Expr::Const(Value::Bool(true))).unzip()
    };
    let (init, init_spans) = constraints(l, &sys.init, &sys.spans.init, false);
    let (trans, trans_spans) = constraints(l, &sys.trans, &sys.spans.trans, true);
    let (invar, invar_spans) = constraints(l, &sys.invar, &sys.spans.invar, false);
    let spans = SystemSpans { init: init_spans, trans: trans_spans, invar: invar_spans, ..sys.spans.clone() };
    let defines = sys.defines.indices().map(|d| NamedExpr { name: sys.defines[d].name.clone(), expr: l.define(d), span: sys.defines[d].span }).collect();
    System {
        name: sys.name.clone(),
        span: sys.span,
        is_procedure: sys.is_procedure,
        vars: sys.vars.clone(),
        init_assign: lower_opt(l, &sys.init_assign),
        next_assign: lower_step(l, &sys.next_assign),
        invar_assign: lower_opt(l, &sys.invar_assign),
        init,
        trans,
        invar,
        defines,
        define_scopes: sys.defines.iter().map(|d| d.scope).collect(),
        define_labels: sys.defines.iter().map(|d| d.label).collect(),
        fairness: sys.fairness.iter().map(|t| l.lower(t)).collect(),
        step_inputs: sys.step_inputs.clone(),
        calls: sys.calls.iter().map(|c| CallEntry { target: c.target, condition: l.lower(&c.condition), span: c.span }).collect(),
        exits: sys.exits.iter().map(|e| ExitEntry { name: e.name, condition: l.lower(&e.condition), span: e.span }).collect(),
        uses_exit_value: sys.uses_exit_value,
        spans,
    }
}
