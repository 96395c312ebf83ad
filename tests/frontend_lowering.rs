//! The front end's output on source text: flattening names, parameters by reference, processes,
//! constant folding, case tables, spec atoms and spec text (as NuSMV 2.5.4 prints it).

use xmv_rs::ctl::Ctl;
use xmv_rs::lowering::program::{BinOp, Domain, Expr, LabelId, LoweredProgram, SpecAtom, SymId, System, Value, VarId};
use xmv_rs::source::SourceFile;
use xmv_rs::syntax::ast::TerminationRule;

fn load(src: &str) -> LoweredProgram {
    let file = SourceFile::new("test.smv", src);
    let (p, diags) = xmv_rs::frontend::load(&file, None);
    match p {
        Some(p) => p,
        None => panic!("front end failed:\n{}", diags.render(&file)),
    }
}

fn var(sys: &System, name: &str) -> VarId {
    VarId::new(
        sys.vars
            .iter()
            .position(|v| v.name == name)
            .unwrap_or_else(|| panic!("no variable {name}: {:?}", sys.vars.iter().map(|v| &v.name).collect::<Vec<_>>())),
    )
}

fn sym(p: &LoweredProgram, name: &str) -> Value {
    Value::Sym(SymId::new(p.symbols.iter().position(|s| s == name).unwrap_or_else(|| panic!("no symbol {name}"))))
}

fn flat(p: &LoweredProgram) -> &System {
    &p.systems[p.flat.expect("flat model").index()]
}

const MUTEX: &str = "
MODULE main
VAR
  semaphore : boolean;
  proc1 : process user(semaphore);
  proc2 : process user(semaphore);
ASSIGN
  init(semaphore) := FALSE;
SPEC AG !(proc1.state = critical & proc2.state = critical)
SPEC AG (proc1.state = entering -> AF proc1.state = critical)

MODULE user(semaphore)
VAR
  state : {idle, entering, critical, exiting};
ASSIGN
  init(state) := idle;
  next(state) :=
    case
      state = idle : {idle, entering};
      state = entering & !semaphore : critical;
      state = critical : {critical, exiting};
      state = exiting : idle;
      TRUE : state;
    esac;
  next(semaphore) :=
    case
      state = entering : TRUE;
      state = exiting : FALSE;
      TRUE : semaphore;
    esac;
";

#[test]
fn processes_are_flattened_nusmv_style() {
    let p = load(MUTEX);
    let s = flat(&p);
    let names: Vec<&str> = s.vars.iter().map(|v| v.name.as_str()).collect();
    assert_eq!(names, ["semaphore", "proc1.state", "proc2.state", "_process_selector_"]);
    let sel = var(s, "_process_selector_");
    assert_eq!(s.vars[sel.index()].domain, Domain::Enum(vec![sym(&p, "main"), sym(&p, "proc1"), sym(&p, "proc2")]));
    assert_eq!(s.vars[sel.index()].kind, xmv_rs::syntax::ast::VarKind::Input);
    let defines: Vec<&str> = s.defines.iter().map(|d| d.name.as_str()).collect();
    assert_eq!(defines, ["running", "proc1.running", "proc2.running"]);
    let running1 = &s.defines[1].expr;
    assert_eq!(*running1, Expr::Binary(BinOp::Eq, Box::new(Expr::Var(sel)), Box::new(Expr::Const(sym(&p, "proc1")))));
    // proc1's next(state) only applies when proc1 runs: a table over the selector whose proc1
    // entry is proc1's own case (itself a table over proc1.state), falling back to keeping it.
    let st1 = var(s, "proc1.state");
    match &s.next_assign[st1.index()] {
        Some(Expr::Table { var, entries, fallback, .. }) => {
            assert_eq!(*var, sel);
            assert!(entries[0].is_none() && entries[2].is_none());
            assert!(matches!(&entries[1], Some(Expr::Case { .. }) | Some(Expr::Table { .. })));
            assert_eq!(fallback.as_deref(), Some(&Expr::Var(st1)));
        }
        other => panic!("unexpected next(proc1.state): {other:?}"),
    }
    // `semaphore` is assigned by both processes (call by reference): one branch per process.
    let sem = var(s, "semaphore");
    match &s.next_assign[sem.index()] {
        Some(Expr::Table { var, entries, fallback, .. }) => {
            assert_eq!(*var, sel);
            assert!(entries[0].is_none() && entries[1].is_some() && entries[2].is_some());
            assert_eq!(fallback.as_deref(), Some(&Expr::Var(sem)));
        }
        other => panic!("unexpected next(semaphore): {other:?}"),
    }
}

#[test]
fn fairness_on_running_keeps_the_last_scheduled_process_in_the_state() {
    let p = load(&format!("{MUTEX}FAIRNESS\n  running\n"));
    let s = flat(&p);
    let sel = var(s, "_process_selector_");
    assert_eq!(s.vars[sel.index()].kind, xmv_rs::syntax::ast::VarKind::State);
    assert_eq!(s.init_assign[sel.index()], Some(Expr::Const(sym(&p, "main"))));
    assert!(s.next_assign[sel.index()].is_none(), "chosen freely at every step");
    assert_eq!(s.fairness.len(), 2, "one FAIRNESS per process instance");
    // proc1's assignment applies when the step is proc1's: next(_process_selector_) = proc1.
    let st1 = var(s, "proc1.state");
    match &s.next_assign[st1.index()] {
        Some(Expr::Case { branches, .. }) => {
            let guard = Expr::Binary(BinOp::Eq, Box::new(Expr::Next(sel)), Box::new(Expr::Const(sym(&p, "proc1"))));
            assert_eq!(branches[0].0, guard);
            assert_eq!(branches.last().map(|b| &b.1), Some(&Expr::Var(st1)));
        }
        other => panic!("unexpected next(proc1.state): {other:?}"),
    }
}

#[test]
fn spec_text_is_printed_like_nusmv() {
    let p = load(MUTEX);
    let texts: Vec<&str> = p.specs.iter().map(|s| s.text.as_str()).collect();
    assert_eq!(texts, ["AG !(proc1.state = critical & proc2.state = critical)", "AG (proc1.state = entering -> AF proc1.state = critical)"]);
    // Maximal non-temporal subformulas are single atoms.
    match &p.specs[0].formula {
        Ctl::AG(inner) => assert!(matches!(**inner, Ctl::Atom(SpecAtom::State(_)))),
        f => panic!("{f:?}"),
    }
    match &p.specs[1].formula {
        Ctl::AG(inner) => match &**inner {
            Ctl::Implies(a, b) => {
                assert!(matches!(**a, Ctl::Atom(SpecAtom::State(_))));
                assert!(matches!(**b, Ctl::AF(_)));
            }
            f => panic!("{f:?}"),
        },
        f => panic!("{f:?}"),
    }
}

#[test]
fn nusmv_printing_rules() {
    let p = load(
        "MODULE main
VAR x : 0..3; y : boolean; s : {a, b, c}; u : cell;
SPEC AG (x = 1 -> AF y)
SPEC E [ y U x = 2 ]
SPEC ((AG ((y))))
SPEC AG (AF y)
SPEC x + 1 - 2 = 0 & y | !y
SPEC s in {a, b, c}
SPEC A [ y U (x = 1 & y) ] -> EX !y
INVARSPEC x < 3

MODULE cell
VAR v : boolean;
SPEC AG v
",
    );
    let texts: Vec<&str> = p.specs.iter().map(|s| s.text.as_str()).collect();
    assert_eq!(
        texts,
        [
            // NuSMV's order: `u` is declared before main's specs, so its spec comes first.
            "AG v IN u",
            "AG (x = 1 -> AF y)",
            "E [ y U x = 2 ] ", // NuSMV 2.5.4 keeps the blank after a top-level `]`
            "AG y",
            "AG (AF y)",
            "(((x + 1) - 2 = 0 & y) | !y)",
            "s in (a union b) union c",
            "(A [ y U (x = 1 & y) ]  -> EX !y)",
            "x < 3",
        ]
    );
    assert!(p.specs.iter().all(|s| s.system.index() == 0));
    assert!(matches!(p.specs[8].formula, Ctl::Atom(SpecAtom::State(_))), "INVARSPEC is one atom");
    // The instance's spec reads the instance's variable.
    let v = var(flat(&p), "u.v");
    assert_eq!(p.specs[0].formula, Ctl::AG(Box::new(Ctl::Atom(SpecAtom::State(Expr::Var(v))))));
}

#[test]
fn instances_parameters_and_arrays_get_qualified_names() {
    let p = load(
        "MODULE main
VAR
  shared : 0..3;
  a : array 0..2 of boolean;
  outer : wrapper(shared);
ASSIGN
  init(a[1]) := TRUE;
DEFINE
  first := a[0];
  second := outer.inner.bump;

MODULE wrapper(target)
VAR
  inner : counter(target, self);

MODULE counter(n, owner)
DEFINE
  bump := (n + 1) mod 4;
VAR
  mark : boolean;
ASSIGN
  next(n) := bump;
  init(owner.inner.mark) := FALSE;
",
    );
    let s = flat(&p);
    let names: Vec<&str> = s.vars.iter().map(|v| v.name.as_str()).collect();
    assert_eq!(names, ["shared", "a[0]", "a[1]", "a[2]", "outer.inner.mark"]);
    // The parameter is passed by reference: counter's next(n) assigns main's `shared`.
    let shared = var(s, "shared");
    let expected = Expr::Binary(
        BinOp::Mod,
        Box::new(Expr::Binary(BinOp::Add, Box::new(Expr::Var(shared)), Box::new(Expr::Const(Value::Int(1))))),
        Box::new(Expr::Const(Value::Int(4))),
    );
    assert_eq!(s.next_assign[shared.index()], Some(expected.clone()));
    assert_eq!(s.init_assign[var(s, "outer.inner.mark").index()], Some(Expr::Const(Value::Bool(false))));
    assert_eq!(s.init_assign[var(s, "a[1]").index()], Some(Expr::Const(Value::Bool(true))));
    let second = s.defines.iter().find(|d| d.name == "second").expect("define");
    assert_eq!(second.expr, expected);
    let define_names: Vec<&str> = s.defines.iter().map(|d| d.name.as_str()).collect();
    assert_eq!(define_names, ["first", "second", "outer.inner.bump"]);
}

#[test]
fn constants_fold_through_defines_parameters_and_bounds() {
    let p = load(
        "MODULE main
DEFINE
  N := 4;
  LAST := N - 1;
  always := N > 2 & TRUE;
VAR
  x : 0..LAST;
  c : sub(N * 2);
  i : 0..3;
  arr : array 0..LAST of 0..1;
ASSIGN
  init(x) := LAST - 1;
  next(x) := case always : (x + 1) mod N; TRUE : 0; esac;
  init(i) := arr[1 + 1];

MODULE sub(limit)
VAR
  y : 0..limit;
ASSIGN
  init(y) := limit / 3 + abs(-1);
",
    );
    let s = flat(&p);
    let x = var(s, "x");
    assert_eq!(s.vars[x.index()].domain, Domain::Range { lo: 0, hi: 3 });
    assert_eq!(s.init_assign[x.index()], Some(Expr::Const(Value::Int(2))));
    // `case always : …` with a constant TRUE condition folds to its value.
    assert_eq!(
        s.next_assign[x.index()],
        Some(Expr::Binary(
            BinOp::Mod,
            Box::new(Expr::Binary(BinOp::Add, Box::new(Expr::Var(x)), Box::new(Expr::Const(Value::Int(1))))),
            Box::new(Expr::Const(Value::Int(4))),
        ))
    );
    let y = var(s, "c.y");
    assert_eq!(s.vars[y.index()].domain, Domain::Range { lo: 0, hi: 8 });
    assert_eq!(s.init_assign[y.index()], Some(Expr::Const(Value::Int(3))));
    assert_eq!(s.init_assign[var(s, "i").index()], Some(Expr::Var(var(s, "arr[2]"))));
    assert_eq!(s.defines.iter().find(|d| d.name == "always").map(|d| &d.expr), Some(&Expr::Const(Value::Bool(true))));
}

#[test]
fn variable_index_becomes_a_table() {
    let p = load(
        "MODULE main
VAR
  i : 0..2;
  a : array 0..2 of boolean;
DEFINE
  cur := a[i];
",
    );
    let s = flat(&p);
    let i = var(s, "i");
    match &s.defines[0].expr {
        Expr::Table { var, entries, fallback, .. } => {
            assert_eq!(*var, i);
            let want: Vec<Option<Expr>> = (0..3).map(|k| Some(Expr::Var(var_of(s, k)))).collect();
            assert_eq!(*entries, want);
            assert!(fallback.is_none());
        }
        e => panic!("{e:?}"),
    }
    fn var_of(s: &System, k: usize) -> VarId {
        var(s, &format!("a[{k}]"))
    }
}

#[test]
fn procedure_modules_labels_and_exits() {
    let p = load(
        "TERMINATION loop;
MODULE main
VAR pc : {s0, c, after_ok, handler};
CALL parse := pc = c;
DEFINE
  done_label := pc = after_ok;
ASSIGN
  init(pc) := s0;
  next(pc) := case
    pc = s0 : c;
    pc = c & EXITED = done  : after_ok;
    pc = c & EXITED = error : handler;
    TRUE : pc;
  esac;
SPEC AG (done_label -> pc = after_ok)

MODULE parse
VAR pc : {start, ok, bad};
ASSIGN
  init(pc) := start;
  next(pc) := case pc = start : {ok, bad}; TRUE : pc; esac;
DEFINE
  done_label := pc = ok;
EXIT
  done  := pc = ok;
  error := pc = bad;
SPEC EF done_label
",
    );
    assert_eq!(p.flat, None, "main has a CALL section: it is a procedure");
    assert_eq!(p.termination, TerminationRule::Loop);
    assert_eq!(p.systems.len(), 2);
    assert!(p.systems.iter().all(|s| s.is_procedure));
    assert_eq!(p.labels, ["done_label"]);
    assert_eq!(p.exit_names, ["EXIT", "done", "error"]);
    let (main, parse) = (&p.systems[0], &p.systems[1]);
    assert_eq!(main.calls.len(), 1);
    assert_eq!(main.calls[0].target.index(), 1);
    assert_eq!(parse.exits.iter().map(|e| e.name.as_u32()).collect::<Vec<_>>(), [1, 2]);
    assert!(!parse.uses_exit_value);
    assert_eq!(main.define_labels, [Some(LabelId::new(0))]);
    assert_eq!(parse.define_labels, [Some(LabelId::new(0))]);
    // EXITED appears in main's next(pc).
    let text = format!("{:?}", main.next_assign[0]);
    assert!(text.contains("Exited") && text.contains("ExitName(1)") && text.contains("ExitName(2)"), "{text}");
    // Specs: the bare label is a global label, the rest a local state atom.
    match &p.specs[0].formula {
        Ctl::AG(f) => match &**f {
            Ctl::Implies(a, b) => {
                assert_eq!(**a, Ctl::Atom(SpecAtom::Label(LabelId::new(0))));
                assert!(matches!(**b, Ctl::Atom(SpecAtom::State(_))));
            }
            f => panic!("{f:?}"),
        },
        f => panic!("{f:?}"),
    }
    assert_eq!(p.specs[1].formula, Ctl::EF(Box::new(Ctl::Atom(SpecAtom::Label(LabelId::new(0))))));
    assert_eq!(p.specs[1].system.index(), 1);
    // The command line overrides the file's directive.
    let file = SourceFile::new("t.smv", "TERMINATION loop;\nMODULE main\nVAR x : boolean;\n");
    let (q, _) = xmv_rs::frontend::load(&file, Some(TerminationRule::Trap));
    assert_eq!(q.map(|q| q.termination), Some(TerminationRule::Trap));
}

#[test]
fn procedure_specs_may_name_labels_of_other_modules() {
    let p = load(
        "MODULE foo
VAR pc : {f1, f2};
CALL bar := pc = f2;
ASSIGN
  init(pc) := f1;
  next(pc) := case pc = f1 : f2; TRUE : EXIT; esac;
SPEC AG (pc = f1 -> EF finished)

MODULE bar
VAR b : boolean;
DEFINE finished := b;
ASSIGN
  init(b) := FALSE;
  next(b) := EXIT;
",
    );
    assert_eq!(p.labels, ["finished"]);
    match &p.specs[0].formula {
        Ctl::AG(f) => match &**f {
            Ctl::Implies(a, b) => {
                assert!(matches!(**a, Ctl::Atom(SpecAtom::State(_))));
                assert_eq!(**b, Ctl::EF(Box::new(Ctl::Atom(SpecAtom::Label(LabelId::new(0))))));
            }
            f => panic!("{f:?}"),
        },
        f => panic!("{f:?}"),
    }
}

#[test]
fn single_module_without_main_is_the_flat_model() {
    let p = load("MODULE counter\nVAR x : 0..2;\nASSIGN init(x) := 0; next(x) := (x + 1) mod 3;\nSPEC AG x < 3\n");
    assert_eq!(p.flat.map(|s| s.index()), Some(0));
    assert_eq!(p.systems[0].name, "counter");
    assert_eq!(p.specs.len(), 1);
}

#[test]
fn every_bundled_spec_goes_through_the_front_end() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("specs");
    let mut n = 0;
    for entry in std::fs::read_dir(&dir).expect("specs/") {
        let path = entry.expect("entry").path();
        if path.extension().is_none_or(|x| x != "smv") {
            continue;
        }
        let file = SourceFile::read(&path).expect("readable");
        let (p, diags) = xmv_rs::frontend::load(&file, None);
        assert!(p.is_some() && !diags.has_errors(), "{}:\n{}", path.display(), diags.render(&file));
        n += 1;
    }
    assert!(n >= 2);
}
