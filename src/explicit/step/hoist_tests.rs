//! Differential tests of the plain enumeration's shortcuts: moving single-valued slots earlier
//! ([`super::hoist_single_valued`]) and keeping a slot's candidates for the whole run when they
//! depend on the current state only ([`super::Plan::reuse`]), and keeping the variables of a
//! process that does not make the step ([`super::keeps_unless`]), and taking leading free slots
//! out of the product ([`super::Plan::deferred`]). Random models with unassigned variables interleaved with assigned ones (deterministic,
//! set-valued, failing, reading `next()`), inputs, frozen variables and constraints give the same
//! states, numbering, edges and errors with and without the move, with and without the solver,
//! and the same states and edges as brute force.

use crate::diagnostics::Diagnostics;
use crate::explicit::build_flat::tests::{Rng, brute_force, small_system, states_and_edges};
use crate::explicit::build_flat::{BuildLimits, FlatModel, build_flat};
use crate::explicit::step::{
    DEFERRED_ROWS_CAP, DEFERRED_RUNS, EACH_COMBINATION_RUNS, HOISTED_PLANS, IDLE_FILLS, NO_DEFER, NO_HOIST, NO_IDLE, NO_REUSE, PLAIN_ONLY, REUSED_FILLS,
};
use crate::explicit::test_support::*;
use crate::ir::VarKind;
use crate::lowering::program::{BinOp, Domain, Expr, LoweredProgram, System};
use crate::source::Span;

fn value(rng: &mut Rng, d: &Domain) -> Expr {
    Expr::Const(d.value(rng.below(d.len() as u64) as usize))
}

/// A random model whose variables are mostly assigned or free (left to their domain), in the
/// order they are declared, so that free variables often stand before assigned ones.
fn interleaved_program(rng: &mut Rng, allow_fail: bool) -> LoweredProgram {
    let n = 3 + rng.below(5) as usize;
    let (mut m, domains) = small_system(rng, n);
    for v in 1..n {
        m.vars[v].kind = match rng.below(10) {
            0 => VarKind::Input,
            1 => VarKind::Frozen,
            _ => VarKind::State,
        };
    }
    let same = |x: usize| (0..n).filter(|&y| y != x && domains[y] == domains[x] && m.vars[y].kind != VarKind::Input).collect::<Vec<_>>();
    let sames: Vec<Vec<usize>> = (0..n).map(same).collect();
    for v in 0..n {
        let kind = m.vars[v].kind;
        if kind == VarKind::Input {
            continue;
        }
        if rng.below(2) == 0 {
            m.init_assign[v] = Some(value(rng, &domains[v]));
        }
        if kind != VarKind::State {
            continue;
        }
        let c = value(rng, &domains[v]);
        let w = rng.below(n as u64) as usize;
        let dw = value(rng, &domains[w]);
        let e = match rng.below(10) {
            0 | 1 => continue, // free
            2 => c,
            3 => var(v as u32),
            4 => case(vec![(eq(var(w as u32), dw), c), (boolean(true), var(v as u32))], Span::new(3, 4)),
            5 => set(vec![c, var(v as u32)]),
            6 => match sames[v].as_slice() {
                [] => c,
                ys => {
                    let y = ys[rng.below(ys.len() as u64) as usize];
                    // `next(v) := next(y)` or, as an invariant assignment, `v := y`.
                    if rng.below(2) == 0 {
                        next(y as u32)
                    } else {
                        // An invariant assignment is the variable's only one.
                        m.invar_assign[v] = Some(var(y as u32));
                        m.init_assign[v] = None;
                        continue;
                    }
                }
            },
            7 if allow_fail && matches!(domains[v], Domain::Range { .. }) => bin(BinOp::Add, var(v as u32), int(1)),
            8 if allow_fail => case(vec![(eq(var(w as u32), dw), c)], Span::new(5, 6)),
            _ => case(vec![(eq(var(w as u32), dw), set(vec![c.clone(), var(v as u32)])), (boolean(true), c)], Span::new(7, 8)),
        };
        m.next_assign[v] = Some(e);
    }
    if rng.below(3) == 0 {
        let v = rng.below(n as u64) as usize;
        if m.vars[v].kind != VarKind::Input {
            let (c, w) = (value(rng, &domains[v]), rng.below(n as u64) as usize);
            let d = value(rng, &domains[w]);
            m.trans.push(bin(BinOp::Or, bin(BinOp::Ne, next(v as u32), c), eq(var(w as u32), d)));
        }
    }
    if rng.below(4) == 0 {
        let v = rng.below(n as u64) as usize;
        if m.vars[v].kind != VarKind::Input {
            let c = value(rng, &domains[v]);
            m.invar.push(bin(BinOp::Ne, var(v as u32), c));
        }
    }
    program(vec![m], &["a", "b", "c"])
}

/// Random models per test: `XMV_TEST_CASES`, 600 by default.
fn test_cases() -> u64 {
    std::env::var("XMV_TEST_CASES").ok().and_then(|s| s.parse().ok()).unwrap_or(600)
}

fn build(p: &LoweredProgram, plain: bool, hoist: bool) -> Result<FlatModel, Diagnostics> {
    PLAIN_ONLY.with(|c| c.set(plain));
    NO_HOIST.with(|c| c.set(!hoist));
    let r = build_flat(p, &BuildLimits::default());
    PLAIN_ONLY.with(|c| c.set(false));
    NO_HOIST.with(|c| c.set(false));
    r
}

/// Same states, numbering, initial states, edges and deadlocks.
fn assert_same_models(a: &FlatModel, b: &FlatModel, case_no: u64, sys: &System) {
    assert_eq!(a.kripke.values, b.kripke.values, "case {case_no}: states or numbering differ: {sys:?}");
    assert_eq!(a.kripke.initial, b.kripke.initial, "case {case_no}: {sys:?}");
    assert_eq!(a.kripke.succ, b.kripke.succ, "case {case_no}: edges differ: {sys:?}");
    assert_eq!(a.deadlocks, b.deadlocks, "case {case_no}: {sys:?}");
}

/// The same model, or the same first error.
fn assert_same_builds(a: &Result<FlatModel, Diagnostics>, b: &Result<FlatModel, Diagnostics>, case_no: u64, sys: &System) {
    match (a, b) {
        (Ok(a), Ok(b)) => assert_same_models(a, b, case_no, sys),
        (Err(a), Err(b)) => assert_same_errors(a, b, case_no, sys),
        _ => panic!("case {case_no}: one build failed: {:?} / {:?}\n{sys:?}", a.as_ref().err(), b.as_ref().err()),
    }
}

/// The same first error: code, message, notes and labels.
fn assert_same_errors(a: &Diagnostics, b: &Diagnostics, case_no: u64, sys: &System) {
    let (a, b) = (&a.items[0], &b.items[0]);
    assert_eq!((&a.code, &a.message, &a.notes, &a.labels), (&b.code, &b.message, &b.notes, &b.labels), "case {case_no}: errors differ: {sys:?}");
}

#[test]
fn moving_single_valued_slots_earlier_changes_nothing() {
    let cases = test_cases();
    let mut rng = Rng(0x40f5_7a11);
    let (mut hoisted_models, mut errors, mut brute) = (0u64, 0u64, 0u64);
    for case_no in 0..cases {
        let p = interleaved_program(&mut rng, case_no % 2 == 1);
        let sys = &p.systems[0];
        for plain in [false, true] {
            HOISTED_PLANS.with(|c| c.set(0));
            let moved = build(&p, plain, true);
            let hoisted = HOISTED_PLANS.with(std::cell::Cell::get) > 0;
            hoisted_models += u64::from(hoisted && !plain);
            let kept = build(&p, plain, false);
            match (&moved, &kept) {
                (Ok(a), Ok(b)) => {
                    assert_same_models(a, b, case_no, sys);
                    if !plain && sys.vars.iter().all(|v| v.kind != VarKind::Input) {
                        assert!(states_and_edges(&a.kripke) == brute_force(sys), "case {case_no}: not the brute-force states and edges: {sys:?}");
                        brute += 1;
                    }
                }
                (Err(a), Err(b)) => {
                    errors += u64::from(!plain && hoisted);
                    assert_same_errors(a, b, case_no, sys);
                }
                _ => panic!("case {case_no}: one build failed: moved {:?} / kept {:?}\n{sys:?}", moved.as_ref().err(), kept.as_ref().err()),
            }
        }
    }
    assert!(hoisted_models * 3 >= cases, "slots were moved in only {hoisted_models} of {cases} models");
    assert!(errors * 20 >= cases, "only {errors} failing models had moved slots: the error path is not exercised");
    assert!(brute * 5 >= cases, "only {brute} of {cases} compared with brute force");
}

fn build_plain(p: &LoweredProgram, reuse: bool) -> Result<FlatModel, Diagnostics> {
    NO_REUSE.with(|c| c.set(!reuse));
    let r = build(p, true, true);
    NO_REUSE.with(|c| c.set(false));
    r
}

#[test]
fn reusing_candidates_within_a_run_changes_nothing() {
    let cases = test_cases();
    let mut rng = Rng(0x7e05_e11d);
    let mut reused_models = 0u64;
    for case_no in 0..cases {
        let p = interleaved_program(&mut rng, case_no % 2 == 1);
        let sys = &p.systems[0];
        REUSED_FILLS.with(|c| c.set(0));
        let reused = build_plain(&p, true);
        reused_models += u64::from(REUSED_FILLS.with(std::cell::Cell::get) > 0);
        let computed = build_plain(&p, false);
        assert_same_builds(&reused, &computed, case_no, sys);
    }
    assert!(reused_models * 10 >= cases, "candidates were reused in only {reused_models} of {cases} models");
}

/// Where [`process_program`]'s selector is and how the guarded assignments read it.
#[derive(Clone, Copy, PartialEq)]
enum Selector {
    /// A state variable, read as `next(sel)` (`FAIRNESS running`).
    State,
    /// An input, read as `sel` in `case` conditions (brp's scheduler).
    Input,
    /// An input, the `case` compiled into a table over it, as lowering compiles such `case`s.
    InputTable,
}

/// [`interleaved_program`] turned into processes: variable 0 is a free selector, and each
/// other assigned state variable's `next` is guarded as `semantics::system` guards a process's
/// (`case next(sel) = k : e; [next(sel) = k2 : e2;] TRUE : x; esac`; with an input selector
/// `sel = k`, or a table over `sel`), or now and then with a constant instead of `x` (not a
/// process's shape).
fn process_program(rng: &mut Rng, selector_kind: Selector) -> LoweredProgram {
    let mut p = interleaved_program(rng, true);
    let m = &mut p.systems[0];
    m.next_assign[0] = None;
    m.invar_assign[0] = None;
    if selector_kind != Selector::State {
        m.vars[0].kind = VarKind::Input;
        m.init_assign[0] = None;
    }
    let selector = m.vars[0].domain.clone();
    let sel = |k: &Expr| if selector_kind == Selector::State { eq(next(0), k.clone()) } else { eq(var(0), k.clone()) };
    for v in 1..m.vars.len() {
        if m.vars[v].kind != VarKind::State || m.invar_assign[v].is_some() {
            continue;
        }
        let Some(e) = m.next_assign[v].take() else { continue };
        let k = rng.below(selector.len() as u64) as usize;
        let mut branches = vec![(k, e)];
        if rng.below(3) == 0 {
            let w = rng.below(m.vars.len() as u64) as u32;
            branches.push((rng.below(selector.len() as u64) as usize, var(w)));
        }
        // Now and then a fallback other than `x`, which must be evaluated.
        let fallback = if rng.below(4) == 0 { value(rng, &m.vars[v].domain) } else { var(v as u32) };
        m.next_assign[v] = Some(match selector_kind {
            Selector::InputTable => {
                let mut entries = vec![None; selector.len()];
                for (k, e) in branches {
                    entries[k].get_or_insert(e);
                }
                Expr::Table { var: crate::lowering::program::VarId::new(0), entries, fallback: Some(Box::new(fallback)), span: Span::new(9, 10) }
            }
            _ => {
                let mut branches: Vec<(Expr, Expr)> = branches.into_iter().map(|(k, e)| (sel(&Expr::Const(selector.value(k))), e)).collect();
                branches.push((boolean(true), fallback));
                case(branches, Span::new(9, 10))
            }
        });
    }
    p
}

/// The selector kind of case `case_no`: each in turn.
fn selector_of(case_no: u64) -> Selector {
    [Selector::State, Selector::Input, Selector::InputTable][(case_no % 3) as usize]
}

/// Builds `p` with and without the idle-process shortcut ([`NO_IDLE`]) and asserts the same
/// result; true if the shortcut kept some variable.
fn assert_idle_shortcut_changes_nothing(p: &LoweredProgram, plain: bool, case_no: u64, sys: &System) -> bool {
    IDLE_FILLS.with(|c| c.set(0));
    let kept = build(p, plain, true);
    let idle = IDLE_FILLS.with(std::cell::Cell::get) > 0;
    NO_IDLE.with(|c| c.set(true));
    let evaluated = build(p, plain, true);
    NO_IDLE.with(|c| c.set(false));
    assert_same_builds(&kept, &evaluated, case_no, sys);
    idle
}

#[test]
fn idle_processes_keep_their_variables_as_the_guarded_case_does() {
    let cases = test_cases();
    let mut rng = Rng(0x1d1e_5e1e);
    // Per selector kind ([`selector_of`]), plain runs and runs under the solver.
    let mut idle_models = [[0u64; 2]; 3];
    for case_no in 0..cases {
        let p = process_program(&mut rng, selector_of(case_no));
        let sys = &p.systems[0];
        for plain in [true, false] {
            let idle = assert_idle_shortcut_changes_nothing(&p, plain, case_no, sys);
            idle_models[(case_no % 3) as usize][usize::from(plain)] += u64::from(idle);
        }
    }
    for (kind, counts) in idle_models.iter().enumerate() {
        for &n in counts {
            assert!(n * 9 >= cases, "selector kind {kind}: idle processes kept their variables in only {n} of {} models ({idle_models:?})", cases / 3);
        }
    }
}

/// [`interleaved_program`] or [`process_program`], without constraints half of the time (a
/// plan with checks keeps its free slots in the product).
fn unconstrained_program(rng: &mut Rng, case_no: u64) -> LoweredProgram {
    let mut p = if case_no.is_multiple_of(2) { interleaved_program(rng, case_no % 4 == 1) } else { process_program(rng, selector_of(case_no / 2)) };
    if rng.below(4) != 0 {
        let m = &mut p.systems[0];
        m.trans.clear();
        m.invar.clear();
    }
    p
}

#[test]
fn deferring_leading_free_slots_changes_nothing() {
    let cases = test_cases();
    let mut rng = Rng(0xdef0_0f5e);
    let (mut deferred_models, mut capped_models, mut failing) = (0u64, 0u64, 0u64);
    for case_no in 0..cases {
        let p = unconstrained_program(&mut rng, case_no);
        let sys = &p.systems[0];
        NO_DEFER.with(|c| c.set(true));
        let product = build(&p, true, true);
        NO_DEFER.with(|c| c.set(false));
        // Buffered, then past a cap of one vector (the product once per combination).
        for cap in [0, 1] {
            DEFERRED_ROWS_CAP.with(|c| c.set(cap));
            DEFERRED_RUNS.with(|c| c.set(0));
            EACH_COMBINATION_RUNS.with(|c| c.set(0));
            let deferred = build(&p, true, true);
            let runs = DEFERRED_RUNS.with(std::cell::Cell::get);
            DEFERRED_ROWS_CAP.with(|c| c.set(0));
            if cap == 0 {
                deferred_models += u64::from(runs > 0);
                failing += u64::from(runs > 0 && deferred.is_err());
            } else {
                capped_models += u64::from(EACH_COMBINATION_RUNS.with(std::cell::Cell::get) > 0);
            }
            assert_same_builds(&deferred, &product, case_no, sys);
        }
    }
    assert!(deferred_models * 5 >= cases, "free slots were deferred in only {deferred_models} of {cases} models");
    assert!(failing * 50 >= cases, "only {failing} failing models had deferred slots: the error path is not exercised");
    assert!(capped_models * 20 >= cases, "the cap sent runs to the product once per combination in only {capped_models} of {cases} models");
}

/// A deferred free slot after a single-valued slot that fails: the error is the product's in
/// dependency order, where the free slot is not yet assigned (no "computed so far" note).
#[test]
fn a_failing_slot_before_a_deferred_one_reports_the_dependency_orders_error() {
    let mut m = system("main", &[("a", Domain::Range { lo: 0, hi: 1 }), ("free", Domain::Boolean), ("b", Domain::Range { lo: 0, hi: 1 })]);
    m.init_assign[0] = Some(int(0));
    m.init_assign[2] = Some(int(0));
    m.next_assign[0] = Some(bin(BinOp::Add, var(0), int(1)));
    m.next_assign[2] = Some(set(vec![int(0), int(1)]));
    let p = program(vec![m], &[]);
    let sys = &p.systems[0];
    DEFERRED_RUNS.with(|c| c.set(0));
    let deferred = build(&p, true, true);
    assert!(DEFERRED_RUNS.with(std::cell::Cell::get) > 0, "the free slot was not deferred");
    NO_DEFER.with(|c| c.set(true));
    let product = build(&p, true, true);
    NO_DEFER.with(|c| c.set(false));
    let Err(e) = &deferred else { panic!("`a` leaves its range in the second state") };
    assert!(!e.items[0].notes.iter().any(|n| n.contains("computed so far")), "{:?}", e.items[0].notes);
    assert_same_builds(&deferred, &product, 0, sys);
}

/// [`process_program`] with a `TRANS` conjunct on the next value of a process's variable
/// (`next(v) != c | w = d`), which waits for that slot under the solver's restriction: an idle
/// process keeps its variables there too (`fill`'s shortcut, with bindings and residuals).
#[test]
fn idle_processes_under_constraints_keep_their_variables_as_the_guarded_case_does() {
    let cases = test_cases();
    let mut rng = Rng(0xc0de_1d1e);
    let mut idle_models = 0u64;
    for case_no in 0..cases {
        let mut p = process_program(&mut rng, selector_of(case_no));
        let m = &mut p.systems[0];
        let guarded: Vec<usize> = (1..m.vars.len()).filter(|&v| m.next_assign[v].is_some()).collect();
        if let Some(&v) = guarded.get(rng.below(guarded.len().max(1) as u64) as usize) {
            let (c, w) = (value(&mut rng, &m.vars[v].domain), rng.below(m.vars.len() as u64) as usize);
            let d = value(&mut rng, &m.vars[w].domain);
            m.trans.push(bin(BinOp::Or, bin(BinOp::Ne, next(v as u32), c), eq(var(w as u32), d)));
        }
        let sys = &p.systems[0];
        idle_models += u64::from(assert_idle_shortcut_changes_nothing(&p, false, case_no, sys));
    }
    assert!(idle_models * 3 >= cases, "idle processes kept their variables in only {idle_models} of {cases} models");
}
