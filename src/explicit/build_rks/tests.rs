use super::*;
use crate::explicit::rks::{ComponentId, NodeId};
use crate::explicit::test_support::*;
use crate::lowering::program::{BinOp, CallEntry, Domain, ExitEntry, SymId, Value};
use crate::source::Span;

fn and(a: Expr, b: Expr) -> Expr {
    bin(BinOp::And, a, b)
}

fn exited(name: u32) -> Expr {
    eq(Expr::Exited, Expr::Const(Value::ExitName(ExitNameId::from_u32(name))))
}

/// The README's multi-exit example: `main` calls `parse`, which exits through `done` or `error`.
/// Symbols: s0 c after_ok handler start ok bad = 0..6; exits: EXIT done error = 0..2.
fn readme_multi_exit() -> LoweredProgram {
    let mut parse = procedure("parse", &[("pc", Domain::Enum(vec![Value::Sym(SymId::new(4)), Value::Sym(SymId::new(5)), Value::Sym(SymId::new(6))]))]);
    parse.init_assign[0] = Some(sym(4));
    parse.next_assign[0] = Some(case(vec![(eq(var(0), sym(4)), set(vec![sym(5), sym(6)])), (boolean(true), var(0))], Span::default()));
    parse.exits = vec![
        ExitEntry { name: ExitNameId::from_u32(1), condition: eq(var(0), sym(5)), span: Span::new(1, 2) },
        ExitEntry { name: ExitNameId::from_u32(2), condition: eq(var(0), sym(6)), span: Span::new(2, 3) },
    ];
    let mut main = procedure("main", &[("pc", Domain::Enum((0..4).map(|i| Value::Sym(SymId::new(i))).collect()))]);
    main.init_assign[0] = Some(sym(0));
    main.next_assign[0] = Some(case(
        vec![(eq(var(0), sym(0)), sym(1)), (and(eq(var(0), sym(1)), exited(1)), sym(2)), (and(eq(var(0), sym(1)), exited(2)), sym(3)), (boolean(true), var(0))],
        Span::default(),
    ));
    main.calls = vec![CallEntry { target: SystemId::new(0), condition: eq(var(0), sym(1)), span: Span::new(10, 20) }];
    let mut p = program(vec![parse, main], &["s0", "c", "after_ok", "handler", "start", "ok", "bad"]);
    p.exit_names = vec!["EXIT".into(), "done".into(), "error".into()];
    p
}

#[test]
fn readme_multi_exit_example() {
    let m = build_rks(&readme_multi_exit(), &BuildLimits::default()).expect("builds");
    assert!(m.warnings.is_empty(), "{:?}", m.warnings);
    assert_eq!(m.component_of, vec![Some(ComponentId::new(0)), Some(ComponentId::new(1))]);
    let parse = &m.rks.components[0];
    assert_eq!(parse.name, "parse");
    assert_eq!(parse.node_names, vec!["pc = start", "pc = ok", "pc = bad"]);
    assert_eq!(parse.succ.neighbours(nd(0)), nds(&[1, 2]));
    assert_eq!(parse.exits, nds(&[1, 2]));
    assert_eq!(parse.exit_names, vec!["done", "error"]);
    assert!(parse.calls.is_empty());
    let main = &m.rks.components[1];
    assert_eq!(main.node_names, vec!["pc = s0", "pc = c", "pc = after_ok", "pc = handler"]);
    assert_eq!(main.succ.neighbours(nd(0)), nds(&[1]));
    assert_eq!(main.calls, nds(&[1]));
    assert_eq!(main.call_target[1], ComponentId::new(0));
    assert!(main.exits.is_empty());
    assert_eq!(main.returns(nd(1), 0), nds(&[2])); // done → after_ok
    assert_eq!(main.returns(nd(1), 1), nds(&[3])); // error → handler
    assert_eq!(main.succ.neighbours(nd(2)), nds(&[2]));
    assert_eq!(main.succ.neighbours(nd(1)), &[] as &[NodeId]);
}

#[test]
fn listing_5_2_recursive_modules() {
    let m = build_rks(&listing_5_2(), &BuildLimits::default()).expect("builds");
    let foo = &m.rks.components[0];
    let bar = &m.rks.components[1];
    assert_eq!(foo.node_names, vec!["state = f1", "state = f2"]);
    assert_eq!(foo.calls, nds(&[1]));
    assert_eq!(foo.call_target[1], ComponentId::new(1));
    assert!(foo.exits.is_empty());
    assert_eq!(bar.node_names, vec!["state = b1", "state = b2", "state = b4"]);
    assert_eq!(bar.calls, nds(&[1, 2]));
    assert_eq!(bar.return_offsets, vec![0, 0]); // foo has no reachable exit
    // Labels: q at f1 and b1 (not at the call b2), y at b1; one warning for q at b2.
    assert_eq!(m.rks.prop_names, vec!["p", "q", "x", "y", "state = b1 IN bar"]);
    assert_eq!(foo.props[1].ones().collect::<Vec<_>>(), vec![0]);
    assert_eq!(bar.props[1].ones().collect::<Vec<_>>(), vec![0]);
    assert_eq!(bar.props[3].ones().collect::<Vec<_>>(), vec![0]);
    assert_eq!(bar.props[4].ones().collect::<Vec<_>>(), vec![0]);
    assert_eq!(foo.props[4].count_ones(..), 0);
    assert_eq!(m.warnings.len(), 1);
    assert_eq!(m.warnings[0].code, "W0503");
    assert_eq!(m.warnings[0].message, "label `q` holds at a call state; calls carry no labels, so it is ignored there");
    assert_eq!(m.specs.len(), 2);
    assert_eq!(m.specs[0].component, ComponentId::new(0));
    assert_eq!(m.specs[1].formula, Ctl::Atom(PropId::new(4)));
}

/// `sub` exits normally through the all-EXIT location; its caller continues after the call.
fn simple_call(target_returns_to_call: bool) -> LoweredProgram {
    // symbols: a0 a1 a2 s0 = 0..3
    let mut main = procedure("main", &[("pc", Domain::Enum(vec![Value::Sym(SymId::new(0)), Value::Sym(SymId::new(1)), Value::Sym(SymId::new(2))]))]);
    main.init_assign[0] = Some(sym(0));
    let after_call = if target_returns_to_call { sym(1) } else { sym(2) };
    main.next_assign[0] = Some(case(vec![(eq(var(0), sym(0)), sym(1)), (eq(var(0), sym(1)), after_call), (boolean(true), var(0))], Span::default()));
    main.calls = vec![CallEntry { target: SystemId::new(1), condition: eq(var(0), sym(1)), span: Span::new(3, 4) }];
    let mut sub = procedure("sub", &[("s", Domain::Enum(vec![Value::Sym(SymId::new(3))])), ("t", Domain::Boolean)]);
    sub.uses_exit_value = true;
    sub.init_assign[0] = Some(sym(3));
    sub.init_assign[1] = Some(boolean(false));
    // s exits first, t one step later: the partially-EXIT location is ordinary.
    sub.next_assign[0] = Some(Expr::Const(Value::Exit));
    sub.next_assign[1] = Some(Expr::Ite(Box::new(eq(var(0), Expr::Const(Value::Exit))), Box::new(Expr::Const(Value::Exit)), Box::new(boolean(true))));
    program(vec![main, sub], &["a0", "a1", "a2", "s0"])
}

#[test]
fn exit_is_sticky_and_all_exit_is_the_exit_location() {
    let m = build_rks(&simple_call(false), &BuildLimits::default()).expect("builds");
    let sub = &m.rks.components[1];
    assert_eq!(sub.node_names, vec!["s = s0, t = FALSE", "s = EXIT, t = TRUE", "s = EXIT, t = EXIT"]);
    assert_eq!(sub.exits, nds(&[2]));
    assert_eq!(sub.exit_names, vec!["EXIT"]);
    let main = &m.rks.components[0];
    assert_eq!(main.returns(nd(1), 0), nds(&[2]));
}

#[test]
fn call_returning_to_a_call_is_an_error() {
    let err = build_rks(&simple_call(true), &BuildLimits::default()).expect_err("a1 returns to a1");
    assert_eq!(err.items[0].code, "E0507");
    assert_eq!(err.items[0].message, "a call returns directly to another call");
}

#[test]
fn entry_call_two_calls_and_nondeterministic_returns_are_errors() {
    // entry is a call
    let mut p = simple_call(false);
    p.systems[0].calls[0].condition = eq(var(0), sym(0));
    let err = build_rks(&p, &BuildLimits::default()).expect_err("entry is a call");
    assert_eq!(err.items[0].message, "the entry of procedure module `main` is a call");
    // two CALL conditions
    let mut p = simple_call(false);
    let extra = p.systems[0].calls[0].clone();
    p.systems[0].calls.push(CallEntry { span: Span::new(8, 9), ..extra });
    let err = build_rks(&p, &BuildLimits::default()).expect_err("two calls");
    assert_eq!(err.items[0].message, "a state satisfies two CALL conditions");
    assert_eq!(err.items[0].primary_span(), Span::new(8, 9));
    // two return successors
    let mut p = simple_call(false);
    p.systems[0].next_assign[0] =
        Some(case(vec![(eq(var(0), sym(0)), sym(1)), (eq(var(0), sym(1)), set(vec![sym(0), sym(2)])), (boolean(true), var(0))], Span::default()));
    let err = build_rks(&p, &BuildLimits::default()).expect_err("two successors");
    assert_eq!(err.items[0].message, "a call has 2 successor locations when `sub` returns through exit `EXIT`");
    // several initial states
    let mut p = simple_call(false);
    p.systems[1].init_assign[1] = None;
    let err = build_rks(&p, &BuildLimits::default()).expect_err("two initial states");
    assert_eq!(err.items[0].message, "procedure module `sub` must have exactly one initial state");
    assert_eq!(err.items[0].notes, vec!["initial state: s = s0, t = FALSE", "initial state: s = s0, t = TRUE"]);
}

#[test]
fn max_states_counts_all_locations() {
    let err = build_rks(&readme_multi_exit(), &BuildLimits { max_states: Some(4), ..Default::default() }).expect_err("7 > 4");
    assert_eq!(err.items[0].code, "E0505");
    assert!(build_rks(&readme_multi_exit(), &BuildLimits { max_states: Some(7), ..Default::default() }).is_ok());
}

/// `next(pc)` lowered to a table whose call-state entry is a `case` over `EXITED` (a mixed table:
/// constant entries precomputed, the other evaluated) builds the same components as the `case`.
#[test]
fn mixed_case_table_builds_what_the_case_builds() {
    let as_case = readme_multi_exit();
    let mut as_table = readme_multi_exit();
    let main = &mut as_table.systems[1];
    let Some(Expr::Case { branches, span }) = main.next_assign[0].take() else { panic!("main's next is a case") };
    main.next_assign[0] = Some(crate::lowering::table::compile(branches, span, &main.vars));
    let Some(Expr::Table { entries, .. }) = &main.next_assign[0] else { panic!("the case compiles to a table") };
    assert!(matches!(entries[0], Some(Expr::Const(_))) && matches!(entries[1], Some(Expr::Case { .. })));
    let (a, b) = (build_rks(&as_case, &BuildLimits::default()).expect("builds"), build_rks(&as_table, &BuildLimits::default()).expect("builds"));
    for (x, y) in a.rks.components.iter().zip(&b.rks.components) {
        assert_eq!((&x.node_names, &x.calls, &x.exits, &x.return_offsets), (&y.node_names, &y.calls, &y.exits, &y.return_offsets));
        for n in 0..x.num_nodes {
            assert_eq!(x.succ.neighbours(NodeId::from_u32(n)), y.succ.neighbours(NodeId::from_u32(n)));
        }
        for &call in &x.calls {
            for k in 0..a.rks.components[x.call_target[call.index()].index()].exits.len() {
                assert_eq!(x.returns(call, k), y.returns(call, k));
            }
        }
    }
    assert_eq!(b.rks.components[1].returns(nd(1), 1), nds(&[3]));
}

/// A random program of `n` procedure modules calling each other (cycles included), each with
/// 4–8 locations, nondeterministic steps and one or two named exits. With `broken`, the
/// `case` of that module misses one location: reaching it is an evaluation error.
fn random_procedures(rng: &mut crate::explicit::build_flat::tests::Rng, n: usize, broken: Option<usize>) -> String {
    let mut s = String::new();
    for i in 0..n {
        let k = 4 + rng.below(5) as usize;
        let call_at = 1 + rng.below(k as u64 - 2) as usize;
        s += &format!("MODULE p{i}\nVAR\n  pc : 0..{};\nCALL\n  p{} := pc = {call_at};\nEXIT\n  done := pc = {};\n", k - 1, rng.below(n as u64), k - 1);
        let second_exit = (k - 2 != call_at && rng.below(2) == 0).then_some(k - 2);
        if let Some(x) = second_exit {
            s += &format!("  fail := pc = {x};\n");
        }
        s += &format!("ASSIGN\n  init(pc) := 0;\n  next(pc) := case\n    pc = {call_at} : {};\n", call_at + 1);
        let plain: Vec<usize> = (0..k - 1).filter(|&l| l != call_at && Some(l) != second_exit).collect();
        let missing = (broken == Some(i)).then(|| plain[rng.below(plain.len() as u64) as usize]);
        for &l in &plain {
            let a = rng.below(k as u64);
            let b = rng.below(k as u64);
            if Some(l) != missing {
                s += &format!("    pc = {l} : {{{a}, {b}}};\n");
            }
        }
        s += "  esac;\n\n";
    }
    s
}

/// The parallel exploration (the front end's workers, each component charging its own tally)
/// gives the same model, and the same first error or limit diagnostic, as the one-worklist run.
#[test]
fn parallel_exploration_builds_what_the_worklist_builds() {
    let mut rng = crate::explicit::build_flat::tests::Rng(0x0b5e_55ed);
    let (mut built, mut failed, mut limited) = (0, 0, 0);
    for case_no in 0..60 {
        let n = 70 + rng.below(60) as usize;
        let broken = (case_no % 3 == 2).then(|| rng.below(n as u64) as usize);
        let file = crate::source::SourceFile::new("random.smv", random_procedures(&mut rng, n, broken));
        let (program, diags) = crate::frontend::load(&file, None);
        let program = program.unwrap_or_else(|| panic!("case {case_no}: {:?}", diags.items));
        let full = crate::par::sequentially(|| build_rks(&program, &BuildLimits::default()));
        let nodes: u64 = full.as_ref().map_or(64, |m| m.rks.components.iter().map(|c| u64::from(c.num_nodes)).sum());
        let memory = [None, Some(1 << 14), Some(1 << 16)];
        for max_states in [None, Some(nodes / 2), Some(nodes - 1)] {
            for max_memory in memory {
                let limits = BuildLimits { max_states, max_memory, max_transitions: None };
                let one = crate::par::sequentially(|| build_rks(&program, &limits));
                let many = build_rks(&program, &limits);
                assert_eq!(format!("{one:?}"), format!("{many:?}"), "case {case_no}, {limits:?}");
                match &one {
                    Ok(_) => built += 1,
                    Err(d) if d.items.iter().any(|d| d.code == "E0501") => failed += 1,
                    Err(_) => limited += 1,
                }
            }
        }
    }
    assert!(built > 50 && failed > 20 && limited > 50, "built {built}, failed {failed}, limited {limited}");
    if crate::par::is_parallel() {
        let (succeeded, gave_up) = PARALLEL_RUNS.with(std::cell::Cell::get);
        assert!(succeeded as usize >= built && gave_up > 50, "parallel runs: {succeeded} succeeded, {gave_up} gave up");
    }
}
