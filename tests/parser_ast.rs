//! The parser fills every part of the AST contract (src/syntax/ast.rs) with the right shapes
//! and byte spans.

use xmv_rs::source::SourceFile;
use xmv_rs::syntax::ast::*;
use xmv_rs::syntax::parse;
use xmv_rs::syntax::sexpr::sexpr;

const ALL_SECTIONS: &str = "\
TERMINATION loop;
MODULE main
VAR
  b : boolean;
  r : -3..N + 1;
  e : {idle, -1, 2, EXIT};
  a : array 0..2 of array 1..2 of boolean;
  m : counter(b, 3);
  p : process counter(TRUE, r);
  w : unsigned word[8];
  i : integer;
IVAR
  in_x : boolean;
FROZENVAR
  f : 0..1;
DEFINE
  N := 4;
CONSTANTS c1, c2;
ASSIGN
  init(b) := TRUE;
  next(a[1][2]) := !b;
  m.x := 2;
INIT b
TRANS next(b) = !b;
INVAR r >= -3
FAIRNESS b
JUSTICE !b;
COMPASSION (b, !b)
SPEC AG b
CTLSPEC NAME safe := AG !b;
INVARSPEC NAME inv := r < 5
LTLSPEC G F b
PSLSPEC always b;
COMPUTE MIN [ b, !b ]
CALL
  helper := b & r = 0;
EXIT
  done := r = 1;
  failed := r = 2;

MODULE counter(x, y)
";

fn program(text: &str) -> Program {
    let file = SourceFile::new("t.smv", text);
    let (program, diags) = parse(&file);
    assert!(diags.is_empty(), "{diags:#?}");
    program
}

fn slice(span: xmv_rs::source::Span) -> &'static str {
    &ALL_SECTIONS[span.range()]
}

#[test]
fn every_section_kind_is_parsed() {
    let p = program(ALL_SECTIONS);
    assert_eq!(p.termination.len(), 1);
    assert_eq!(p.termination[0].rule, TerminationRule::Loop);
    assert_eq!(slice(p.termination[0].span), "TERMINATION loop;");
    assert_eq!(p.modules.len(), 2);
    let main = &p.modules[0];
    assert_eq!(main.name.name, "main");
    assert_eq!(p.modules[1].params.iter().map(|i| i.name.as_str()).collect::<Vec<_>>(), ["x", "y"]);
    let kinds: Vec<&str> = main
        .sections
        .iter()
        .map(|s| match s {
            Section::Var { kind: VarKind::State, .. } => "VAR",
            Section::Var { kind: VarKind::Input, .. } => "IVAR",
            Section::Var { kind: VarKind::Frozen, .. } => "FROZENVAR",
            Section::Define { .. } => "DEFINE",
            Section::Constants { .. } => "CONSTANTS",
            Section::Assign { .. } => "ASSIGN",
            Section::Init { .. } => "INIT",
            Section::Trans { .. } => "TRANS",
            Section::Invar { .. } => "INVAR",
            Section::Fairness { justice: false, .. } => "FAIRNESS",
            Section::Fairness { justice: true, .. } => "JUSTICE",
            Section::Compassion { .. } => "COMPASSION",
            Section::Spec(s) => match s.kind {
                SpecKind::Ctl => "CTL",
                SpecKind::Invar => "INVARSPEC",
                SpecKind::Ltl => "LTLSPEC",
                SpecKind::Psl => "PSLSPEC",
                SpecKind::Compute => "COMPUTE",
            },
            Section::Call { .. } => "CALL",
            Section::Exit { .. } => "EXIT",
        })
        .collect();
    assert_eq!(
        kinds,
        [
            "VAR",
            "IVAR",
            "FROZENVAR",
            "DEFINE",
            "CONSTANTS",
            "ASSIGN",
            "INIT",
            "TRANS",
            "INVAR",
            "FAIRNESS",
            "JUSTICE",
            "COMPASSION",
            "CTL",
            "CTL",
            "INVARSPEC",
            "LTLSPEC",
            "PSLSPEC",
            "COMPUTE",
            "CALL",
            "EXIT"
        ]
    );
    assert_eq!(&ALL_SECTIONS[main.span.range()][..11], "MODULE main");
    assert!(slice(main.span).ends_with("failed := r = 2;"));
}

#[test]
fn variable_types() {
    let p = program(ALL_SECTIONS);
    let Section::Var { decls, .. } = &p.modules[0].sections[0] else { panic!() };
    let ty = |i: usize| &decls[i].ty;
    assert!(matches!(ty(0), TypeSpec::Boolean(_)));
    let TypeSpec::Range { lo, hi, span } = ty(1) else { panic!("{:?}", ty(1)) };
    assert_eq!((sexpr(lo).as_str(), sexpr(hi).as_str(), slice(*span)), ("(neg 3)", "(+ N 1)", "-3..N + 1"));
    let TypeSpec::Enum { values, .. } = ty(2) else { panic!() };
    let vals: Vec<String> = values
        .iter()
        .map(|v| match v {
            EnumValue::Symbol(i) => i.name.clone(),
            EnumValue::Int(n, _) => n.to_string(),
        })
        .collect();
    assert_eq!(vals, ["idle", "-1", "2", "EXIT"]);
    let TypeSpec::Array { elem, .. } = ty(3) else { panic!() };
    assert!(matches!(**elem, TypeSpec::Array { .. }));
    let TypeSpec::Instance { module, args, process, .. } = ty(4) else { panic!() };
    assert_eq!((module.name.as_str(), args.len(), *process), ("counter", 2, false));
    let TypeSpec::Instance { process, .. } = ty(5) else { panic!() };
    assert!(*process);
    let TypeSpec::Word { signed, width, .. } = ty(6) else { panic!() };
    assert!(!*signed);
    assert_eq!(width.kind, ExprKind::Int(8));
    let TypeSpec::Unsupported { what, .. } = ty(7) else { panic!() };
    assert_eq!(what, "integer");
    assert_eq!(slice(decls[4].span), "m : counter(b, 3);");
    assert_eq!(slice(decls[4].name.span), "m");
}

#[test]
fn assignments_specs_calls_and_exits() {
    let p = program(ALL_SECTIONS);
    let s = &p.modules[0].sections;
    let Section::Assign { assigns, .. } = &s[5] else { panic!() };
    let shapes: Vec<(AssignKind, String, String)> = assigns.iter().map(|a| (a.kind, sexpr(&a.target), sexpr(&a.value))).collect();
    assert_eq!(
        shapes,
        [
            (AssignKind::Init, "b".to_string(), "TRUE".to_string()),
            (AssignKind::Next, "([] ([] a 1) 2)".to_string(), "(! b)".to_string()),
            (AssignKind::Invariant, "m.x".to_string(), "2".to_string()),
        ]
    );
    let Section::Spec(named) = &s[13] else { panic!() };
    assert_eq!(named.name.as_ref().map(|n| n.name.as_str()), Some("safe"));
    assert_eq!(slice(named.keyword), "CTLSPEC");
    assert_eq!(named.expr.as_ref().map(sexpr).as_deref(), Some("(AG (! b))"));
    let Section::Spec(ltl) = &s[15] else { panic!() };
    assert_eq!(ltl.expr.as_ref().map(sexpr).as_deref(), Some("(G (F b))"));
    let Section::Spec(psl) = &s[16] else { panic!() };
    assert_eq!(psl.expr.as_ref().map(sexpr).as_deref(), Some("(always b)"));
    let Section::Spec(compute) = &s[17] else { panic!() };
    assert!(compute.expr.is_none());
    let Section::Call { calls, .. } = &s[18] else { panic!() };
    assert_eq!((calls[0].target.name.as_str(), sexpr(&calls[0].condition).as_str()), ("helper", "(& b (= r 0))"));
    let Section::Exit { exits, .. } = &s[19] else { panic!() };
    assert_eq!(exits.iter().map(|e| e.name.name.as_str()).collect::<Vec<_>>(), ["done", "failed"]);
    let Section::Compassion { p: cp, q: cq, .. } = &s[11] else { panic!() };
    assert_eq!((sexpr(cp).as_str(), sexpr(cq).as_str()), ("b", "(! b)"));
}

#[test]
fn exit_value_versus_exit_section() {
    let text = "MODULE m\nVAR s : {a};\nASSIGN\n  next(s) := EXIT;\nINIT s = EXIT\nEXIT\n  out := s = EXIT;\nDEFINE d := s in {EXIT} & EXITED = out;\n";
    let p = program(text);
    let kinds: Vec<bool> = p.modules[0].sections.iter().map(|s| matches!(s, Section::Exit { .. })).collect();
    assert_eq!(kinds, [false, false, false, true, false]);
    let Section::Define { defs, .. } = &p.modules[0].sections[4] else { panic!() };
    assert_eq!(sexpr(&defs[0].expr), "(& (in s (set EXIT)) (= EXITED out))");
}

#[test]
fn spans_cover_expressions_including_parentheses() {
    let text = "MODULE main\nSPEC AG (p -> q) & EX r\n";
    let p = program(text);
    let Section::Spec(spec) = &p.modules[0].sections[0] else { panic!() };
    let e = spec.expr.as_ref().expect("body");
    assert_eq!(&text[e.span.range()], "AG (p -> q) & EX r");
    let ExprKind::Binary(BinaryOp::And, l, r) = &e.kind else { panic!() };
    assert_eq!(&text[l.span.range()], "AG (p -> q)");
    assert_eq!(&text[r.span.range()], "EX r");
    let ExprKind::Ctl(CtlOp::AG, inner) = &l.kind else { panic!() };
    assert_eq!(&text[inner.span.range()], "(p -> q)");
}

#[test]
fn sections_after_a_broken_module_header_stay_in_that_module() {
    let file = SourceFile::new("t.smv", "MODULE main\nVAR a : boolean;\nMODULE helper(p, )\nVAR q : boolean;\n");
    let (p, diags) = parse(&file);
    assert_eq!(diags.iter().map(|d| d.code).collect::<Vec<_>>(), ["E0001"]);
    assert_eq!(p.modules.iter().map(|m| (m.name.name.as_str(), m.sections.len())).collect::<Vec<_>>(), [("main", 1), ("helper", 1)]);
}
