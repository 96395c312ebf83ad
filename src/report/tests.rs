use super::text::{g6, reachable_line, render_text};
use super::view::{ModelRef, trace_view};
use super::*;
use crate::check::trace::{CallFrame, Trace, TraceKind, TraceStep};
use crate::explicit::build_flat::{BuildLimits, build_flat};
use crate::explicit::kripke::StateId;
use crate::explicit::test_support::*;
use crate::lowering::program::{BinOp, NamedExpr};
use crate::source::Span;

fn listing_with_defines() -> crate::lowering::program::LoweredProgram {
    let mut p = listing_5_1();
    let m = &mut p.systems[0];
    m.defines = vec![
        NamedExpr { name: "in_state2".into(), expr: bin(BinOp::In, var(1), set(vec![sym(1)])), span: Span::default() },
        NamedExpr { name: "cr_reset".into(), expr: eq(var(0), int(0)), span: Span::default() },
    ];
    m.define_labels = vec![None, None];
    p
}

fn report(spec: &crate::lowering::program::LoweredSpec, holds: bool, trace: Option<view::TraceView>) -> SpecReport {
    SpecReport {
        kind: spec.kind,
        name: None,
        text: spec.text.clone(),
        system_name: "main".into(),
        module: None,
        verdict: Verdict::of(holds),
        trace,
        time_ms: 0.5,
        engine: None,
        span: spec.span,
    }
}

#[test]
fn flat_counterexample_and_lasso_in_nusmv_format() {
    let p = listing_with_defines();
    let m = build_flat(&p, &BuildLimits::default()).expect("builds");
    // (0,s1,F) -> (1,s2,F)
    let cex = Trace::flat(TraceKind::Counterexample, &[StateId::new(0), StateId::new(1)], None);
    // first successor each time: (0,s1,F) (1,s2,F) (2,s2,F) (0,s1,T) (1,s2,T) (2,s2,T) back to 0
    let mut states = vec![StateId::new(0)];
    loop {
        let next = m.kripke.succ.neighbours(*states.last().unwrap())[0];
        if next == StateId::new(0) {
            break;
        }
        states.push(next);
    }
    assert_eq!(states.len(), 6);
    let lasso = Trace::flat(TraceKind::Witness, &states, Some(0));
    let reports = vec![
        report(&p.specs[0], false, Some(trace_view(&p, ModelRef::Flat(&m), &cex))),
        report(&p.specs[1], true, Some(trace_view(&p, ModelRef::Flat(&m), &lasso))),
    ];
    let expected = "\
-- specification AG (in_state2 -> cr_reset)  is false
-- as demonstrated by the following execution sequence
Trace Description: CTL Counterexample 
Trace Type: Counterexample 
-> State: 1.1 <-
  counter = 0
  state = s1
  ready = FALSE
  cr_reset = TRUE
  in_state2 = FALSE
-> State: 1.2 <-
  counter = 1
  state = s2
  cr_reset = FALSE
  in_state2 = TRUE
-- specification E [ in_state2 U cr_reset ]  is true
-- as demonstrated by the following execution sequence
Trace Description: CTL Witness 
Trace Type: Example 
-- Loop starts here
-> State: 2.1 <-
  counter = 0
  state = s1
  ready = FALSE
  cr_reset = TRUE
  in_state2 = FALSE
-> State: 2.2 <-
  counter = 1
  state = s2
  cr_reset = FALSE
  in_state2 = TRUE
-> State: 2.3 <-
  counter = 2
-> State: 2.4 <-
  counter = 0
  state = s1
  ready = TRUE
  cr_reset = TRUE
  in_state2 = FALSE
-> State: 2.5 <-
  counter = 1
  state = s2
  cr_reset = FALSE
  in_state2 = TRUE
-> State: 2.6 <-
  counter = 2
-> State: 2.7 <-
  counter = 0
  state = s1
  ready = FALSE
  cr_reset = TRUE
  in_state2 = FALSE
";
    assert_eq!(render_text(&reports), expected);
    let json: serde_json::Value = serde_json::from_str(&json::render_json(&crate::source::SourceFile::new("listing.smv", ""), &reports)).expect("valid JSON");
    assert_eq!(json[0]["text"], "AG (in_state2 -> cr_reset)");
    assert_eq!(json[0]["verdict"], false);
    assert_eq!(json[0]["module"], "main");
    assert_eq!(json[0]["kind"], "ctl");
    assert_eq!(json[0]["trace"]["kind"], "counterexample");
    assert_eq!(json[0]["trace"]["steps"][1]["values"]["state"], "s2");
    assert_eq!(json[1]["trace"]["loop_start"], 0);
    assert_eq!(json[1]["trace"]["steps"].as_array().map(|a| a.len()), Some(7));
}

#[test]
fn inputs_are_shown_before_the_state_they_lead_to() {
    use crate::ir::VarKind;
    use crate::lowering::program::{Domain, Expr};
    let mut m = system("main", &[("i", Domain::Boolean), ("x", Domain::Range { lo: 0, hi: 2 })]);
    m.vars[0].kind = VarKind::Input;
    m.init_assign[1] = Some(int(0));
    m.next_assign[1] = Some(Expr::Ite(Box::new(var(0)), Box::new(bin(BinOp::Mod, bin(BinOp::Add, var(1), int(1)), int(3))), Box::new(var(1))));
    let mut p = program(vec![m], &[]);
    p.specs = vec![spec(0, crate::ctl::Ctl::True, "TRUE")];
    let built = build_flat(&p, &BuildLimits::default()).expect("builds");
    let t = Trace::flat(TraceKind::Counterexample, &[StateId::new(0), StateId::new(0), StateId::new(1)], None);
    let view = trace_view(&p, ModelRef::Flat(&built), &t);
    let text = text::trace_text(&view, 3, true);
    assert_eq!(
        text,
        "\
-- as demonstrated by the following execution sequence
Trace Description: AG alpha Counterexample 
Trace Type: Counterexample 
-> State: 3.1 <-
  x = 0
-> Input: 3.2 <-
  i = FALSE
-> State: 3.2 <-
-> Input: 3.3 <-
  i = TRUE
-> State: 3.3 <-
  x = 1
"
    );
}

#[test]
fn rks_steps_show_module_and_call_stack() {
    // A hand-written view: main calls parse; parse exits; the run terminates.
    let view = view::TraceView {
        linear: false,
        kind: TraceKind::Counterexample,
        steps: vec![
            view::StepView { module: "main".into(), stack: vec![], inputs: vec![], values: vec![("pc".into(), "s0".into())], terminated: false, state_vars: 1 },
            view::StepView {
                module: "parse".into(),
                stack: vec!["main(pc = c)".into()],
                inputs: vec![],
                values: vec![("pc".into(), "start".into())],
                terminated: false,
                state_vars: 1,
            },
            view::StepView {
                module: "parse".into(),
                stack: vec!["main(pc = c)".into()],
                inputs: vec![],
                values: vec![("pc".into(), "ok".into())],
                terminated: false,
                state_vars: 1,
            },
            view::StepView {
                module: "main".into(),
                stack: vec![],
                inputs: vec![],
                values: vec![("pc".into(), "after_ok".into())],
                terminated: false,
                state_vars: 1,
            },
            view::StepView { module: String::new(), stack: vec![], inputs: vec![], values: vec![], terminated: true, state_vars: 0 },
        ],
        loop_start: Some(4),
        loop_push: vec![],
        recursive: true,
    };
    assert_eq!(
        text::trace_text(&view, 1, false),
        "\
-- as demonstrated by the following execution sequence
Trace Description: CTL Counterexample 
Trace Type: Counterexample 
-> State: 1.1 <- [main]
  pc = s0
-> State: 1.2 <- [main(pc = c) > parse]
  pc = start
-> State: 1.3 <- [main(pc = c) > parse]
  pc = ok
-> State: 1.4 <- [main]
  pc = after_ok
-- Loop starts here
-> State: 1.5 <- [terminated]
"
    );
    let r = SpecReport {
        kind: crate::ir::SpecKind::Ctl,
        name: None,
        text: "EF p".into(),
        system_name: "foo".into(),
        module: Some("foo".into()),
        verdict: Verdict::True,
        trace: None,
        time_ms: 0.0,
        engine: None,
        span: crate::source::Span::default(),
    };
    assert_eq!(text::verdict_line(&r), "-- specification EF p IN foo is true");
    let _ = (CallFrame { component: 0, call: 1 }, TraceStep::flat(StateId::new(0)), TraceStep::terminated());
}

#[test]
fn reachable_states_line_like_nusmv() {
    assert_eq!(reachable_line(12.0, 42.0, true), "reachable states: 12 (2^3.58496) out of 42 (2^5.39232)");
    assert_eq!(reachable_line(64.0, 64.0, false), "reachable states: 64 (2^6) out of 64 (2^6)");
    assert_eq!(reachable_line(3932160.0, 3932160.0, true), "reachable states: 3932160 (2^21.9069) out of 3932160 (2^21.9069)");
    assert_eq!(reachable_line(3932160.0, 3932160.0, false), "reachable states: 3.93216e+06 (2^21.9069) out of 3.93216e+06 (2^21.9069)");
    // C's `%g` takes the exponent after rounding to six digits, and goes scientific below 1e-4.
    assert_eq!(g6(999999.5), "1e+06");
    assert_eq!(g6(9.999995e-5), "0.0001");
    assert_eq!(g6(1.234e-5), "1.234e-05");
    assert_eq!(g6(1e15), "1e+15");
    assert_eq!(g6(0.5), "0.5");
    assert_eq!(g6(1234567.0), "1.23457e+06");
    assert_eq!(g6(100.0), "100");
}
