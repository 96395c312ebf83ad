use super::*;
use crate::explicit::test_support::*;
use crate::ir::VarKind;
use crate::lowering::program::VarId;
use crate::lowering::program::{BinOp, Domain, Value};
use crate::source::Span;

fn state_of(m: &FlatModel, s: StateId) -> Vec<u32> {
    m.kripke.state_values(s).to_vec()
}

#[test]
fn listing_5_1_has_12_states_and_16_transitions() {
    let m = build_flat(&listing_5_1(), &BuildLimits::default()).expect("builds");
    let k = &m.kripke;
    assert_eq!(k.num_states, 12);
    assert_eq!(k.succ.edge_count(), 16);
    assert_eq!(k.pred().edge_count(), 16);
    assert_eq!(k.initial, vec![StateId::new(0)]);
    assert_eq!(state_of(&m, StateId::new(0)), vec![0, 0, 0]);
    // (0,s1,F) -> (1,s2,F), (1,s3,F) in BFS order
    let succ: Vec<Vec<u32>> = k.succ.neighbours(StateId::new(0)).iter().map(|&t| state_of(&m, t)).collect();
    assert_eq!(succ, vec![vec![1, 1, 0], vec![1, 2, 0]]);
    assert_eq!(m.deadlocks, 0);
    assert!(m.warnings.is_empty());
    // Two distinct atoms shared by the two specs: in_state2 (4 states), cr_reset (2 states).
    assert_eq!(k.props.len(), 2);
    assert_eq!(k.prop_names, vec!["state in {s2}".to_string(), "counter = 0".to_string()]);
    assert_eq!(k.props[0].count_ones(..), 4);
    assert_eq!(k.props[1].count_ones(..), 2);
    assert_eq!(m.specs.len(), 2);
    assert_eq!(m.specs[1].formula, Ctl::EU(Box::new(Ctl::Atom(PropId::new(0))), Box::new(Ctl::Atom(PropId::new(1)))));
    // BFS order: every state's id is at most one BFS layer from its parent.
    for s in (0..k.num_states).map(StateId::from_u32) {
        for &t in k.succ.neighbours(s) {
            assert!(k.pred().neighbours(t).contains(&s));
        }
    }
}

/// `c : 0..3; TRANS next(c) = c + 1`: c = 3 is a deadlock.
fn counter_with_deadlock() -> LoweredProgram {
    let mut m = system("main", &[("c", Domain::Range { lo: 0, hi: 3 })]);
    m.init_assign[0] = Some(int(0));
    m.trans.push(eq(next(0), bin(BinOp::Add, var(0), int(1))));
    program(vec![m], &[])
}

#[test]
fn deadlock_is_a_warning_with_the_state_and_a_path() {
    let m = build_flat(&counter_with_deadlock(), &BuildLimits::default()).expect("builds");
    assert_eq!(m.kripke.num_states, 4);
    assert_eq!(m.deadlocks, 1);
    assert_eq!(m.warnings.len(), 1);
    let w = &m.warnings[0];
    assert_eq!(w.code, "W0501");
    assert_eq!(w.message, "1 state has no successor (deadlock)");
    assert_eq!(w.notes[0], "deadlock state: c = 3");
    assert_eq!(w.notes[1], "path from an initial state (4 states):\n  1: c = 0\n  2: c = 1\n  3: c = 2\n  4: c = 3");
}

#[test]
fn value_out_of_range_is_an_error_naming_state_and_assignment() {
    let mut m = system("main", &[("x", Domain::Range { lo: 0, hi: 3 })]);
    m.init_assign[0] = Some(int(1));
    m.next_assign[0] = Some(bin(BinOp::Add, var(0), int(1)));
    m.spans.next_assign = vec![Some(Span::new(40, 60))];
    let err = build_flat(&program(vec![m], &[]), &BuildLimits::default()).expect_err("x = 4 is out of range");
    let d = &err.items[0];
    assert_eq!(d.code, "E0502");
    assert_eq!(d.message, "cannot assign value 4 to variable `x`");
    assert_eq!(d.primary_span(), Span::new(40, 60));
    assert_eq!(d.notes, vec!["in state: x = 3".to_string(), "path from an initial state (3 states):\n  1: x = 1\n  2: x = 2\n  3: x = 3".to_string()]);
}

#[test]
fn non_exhaustive_case_is_an_error_at_the_case() {
    let mut m = system("main", &[("x", Domain::Range { lo: 0, hi: 3 })]);
    m.init_assign[0] = Some(int(0));
    m.next_assign[0] = Some(case(vec![(bin(BinOp::Lt, var(0), int(2)), bin(BinOp::Add, var(0), int(1)))], Span::new(7, 9)));
    m.spans.next_assign = vec![Some(Span::new(1, 20))];
    let err = build_flat(&program(vec![m], &[]), &BuildLimits::default()).expect_err("x = 2 has no branch");
    let d = &err.items[0];
    assert_eq!(d.code, "E0501");
    assert_eq!(d.primary_span(), Span::new(7, 9));
    assert_eq!(d.labels[1].span, Span::new(1, 20));
    assert_eq!(d.notes[0], "in state: x = 2");
}

#[test]
fn division_by_zero_in_a_reachable_state() {
    let mut m = system("main", &[("x", Domain::Range { lo: -2, hi: 2 })]);
    m.init_assign[0] = Some(int(2));
    m.next_assign[0] = Some(bin(BinOp::Add, bin(BinOp::Sub, var(0), int(1)), bin(BinOp::Mul, int(0), bin(BinOp::Div, int(2), var(0)))));
    let err = build_flat(&program(vec![m], &[]), &BuildLimits::default()).expect_err("x = 0 divides by zero");
    assert_eq!(err.items[0].code, "E0503");
    assert_eq!(err.items[0].message, "division by zero while evaluating this next assignment");
    assert_eq!(err.items[0].notes[0], "in state: x = 0");
}

#[test]
fn unassigned_variables_range_over_their_domain_filtered_by_constraints() {
    // a, b : 0..3 unconstrained initially except INIT a < b; INVAR a != 2; TRANS next(b) = b
    let mut m = system("main", &[("a", Domain::Range { lo: 0, hi: 3 }), ("b", Domain::Range { lo: 0, hi: 3 })]);
    m.init.push(bin(BinOp::Lt, var(0), var(1)));
    m.invar.push(bin(BinOp::Ne, var(0), int(2)));
    m.trans.push(eq(next(1), var(1)));
    let built = build_flat(&program(vec![m], &[]), &BuildLimits::default()).expect("builds");
    let k = &built.kripke;
    // initial: a<b, a!=2: (0,1),(0,2),(0,3),(1,2),(1,3) = 5; reachable: all a in {0,1,3} × b in {1,2,3}
    assert_eq!(k.initial.len(), 5);
    assert_eq!(k.num_states, 9);
    assert_eq!(k.succ.neighbours(StateId::new(0)).len(), 3);
}

#[test]
fn next_assignments_may_read_other_next_values_and_frozen_vars_keep_theirs() {
    // x : 0..3; y : 0..3; f : frozen boolean
    let mut m = system("main", &[("y", Domain::Range { lo: 0, hi: 3 }), ("x", Domain::Range { lo: 0, hi: 3 }), ("f", Domain::Boolean)]);
    m.vars[2].kind = VarKind::Frozen;
    m.init_assign[0] = Some(int(0));
    m.init_assign[1] = Some(int(0));
    // next(y) := next(x); next(x) := (x + 1) mod 4  (y's slot must come after x's)
    m.next_assign[0] = Some(next(1));
    m.next_assign[1] = Some(bin(BinOp::Mod, bin(BinOp::Add, var(1), int(1)), int(4)));
    let built = build_flat(&program(vec![m], &[]), &BuildLimits::default()).expect("builds");
    let k = &built.kripke;
    assert_eq!(k.initial.len(), 2); // f free initially
    assert_eq!(k.num_states, 8);
    for s in (0..k.num_states).map(StateId::from_u32) {
        let v = k.state_values(s);
        let succ = k.succ.neighbours(s);
        assert_eq!(succ.len(), 1);
        let w = k.state_values(succ[0]);
        assert_eq!(w[0], w[1]);
        assert_eq!(w[2], v[2]);
    }
}

#[test]
fn inputs_are_enumerated_but_not_stored() {
    // IVAR i : boolean; VAR x : 0..2; next(x) := i ? (x + 1) mod 3 : x
    let mut m = system("main", &[("i", Domain::Boolean), ("x", Domain::Range { lo: 0, hi: 2 })]);
    m.vars[0].kind = VarKind::Input;
    m.init_assign[1] = Some(int(0));
    m.next_assign[1] = Some(Expr::Ite(Box::new(var(0)), Box::new(bin(BinOp::Mod, bin(BinOp::Add, var(1), int(1)), int(3))), Box::new(var(1))));
    let p = program(vec![m], &[]);
    let built = build_flat(&p, &BuildLimits::default()).expect("builds");
    let k = &built.kripke;
    assert_eq!(k.num_states, 3);
    assert_eq!(k.succ.edge_count(), 6);
    assert!((0..3).all(|s| k.state_values(StateId::new(s))[0] == 0));
    let sys = &p.systems[0];
    assert_eq!(transition_inputs(sys, &k.state_values(StateId::new(0)), &k.state_values(StateId::new(1))), Some(vec![1, 0]));
    assert_eq!(transition_inputs(sys, &k.state_values(StateId::new(0)), &k.state_values(StateId::new(0))), Some(vec![0, 0]));
    assert_eq!(transition_inputs(sys, &k.state_values(StateId::new(0)), &k.state_values(StateId::new(2))), None);
}

#[test]
fn max_states_is_a_clean_error() {
    let err = build_flat(&listing_5_1(), &BuildLimits { max_states: Some(5), ..Default::default() }).expect_err("12 > 5");
    assert_eq!(err.items[0].code, "E0505");
    assert_eq!(err.items[0].message, "the model has more than 5 reachable states (--max-states 5)");
    assert!(build_flat(&listing_5_1(), &BuildLimits { max_states: Some(12), ..Default::default() }).is_ok());
}

#[test]
fn no_initial_state_is_a_warning() {
    let mut m = system("main", &[("x", Domain::Boolean)]);
    m.init.push(boolean(false));
    let built = build_flat(&program(vec![m], &[]), &BuildLimits::default()).expect("builds");
    assert_eq!(built.kripke.num_states, 0);
    assert_eq!(built.warnings[0].code, "W0502");
}

#[test]
fn atoms_by_index_agree_with_evaluation() {
    // Every indexable atom form gives the same states as plain evaluation (which the `+ 0`
    // forces).
    let p = listing_5_1();
    let built = build_flat(&p, &BuildLimits::default()).expect("builds");
    let sys = &p.systems[0];
    let domains = DomainIndex::new(sys);
    let states = StateSet::Packed(&built.kripke.values);
    let mut l = AtomLabeller::new(sys, &domains, states);
    let pairs = [
        (eq(var(1), sym(2)), eq(bin(BinOp::Add, int(0), int(0)), int(0)), true),
        (bin(BinOp::Ne, var(0), int(1)), bin(BinOp::Ne, bin(BinOp::Add, var(0), int(0)), int(1)), false),
        (bin(BinOp::In, var(0), set(vec![int(0), int(2)])), bin(BinOp::In, bin(BinOp::Add, var(0), int(0)), set(vec![int(0), int(2)])), false),
        (var(2), eq(var(2), boolean(true)), false),
        (not(var(2)), bin(BinOp::Ne, var(2), boolean(true)), false),
        (eq(int(1), var(0)), eq(bin(BinOp::Add, var(0), int(0)), int(1)), false),
        // boolean combinations of patterns are answered with set operations
        (not(bin(BinOp::In, var(1), set(vec![sym(1)]))), not(bin(BinOp::In, var(1), set(vec![sym(1), bin(BinOp::Add, int(0), int(0))]))), true),
        (
            bin(BinOp::Implies, not(var(2)), bin(BinOp::Or, eq(var(0), int(0)), eq(var(1), sym(2)))),
            bin(BinOp::Implies, eq(bin(BinOp::Add, var(0), int(0)), int(-1)), boolean(false)),
            true,
        ),
    ];
    for (fast, slow, skip) in pairs {
        if skip {
            continue;
        }
        assert_eq!(l.label(&fast).unwrap(), l.label(&slow).unwrap(), "{fast:?}");
    }
    // Structural answers agree with evaluating every state.
    let combos = [
        not(bin(BinOp::In, var(1), set(vec![sym(1)]))),
        bin(BinOp::Implies, not(var(2)), bin(BinOp::Or, eq(var(0), int(0)), eq(var(1), sym(2)))),
        bin(BinOp::Iff, var(2), bin(BinOp::And, bin(BinOp::Ne, var(0), int(1)), boolean(true))),
        bin(BinOp::Xor, var(2), eq(var(1), sym(0))),
    ];
    for e in combos {
        let fast = l.label(&e).unwrap();
        let mut ev = crate::explicit::eval::Evaluator::new(&sys.vars);
        for st in 0..states.count() {
            let holds = ev.bool(&e, &crate::explicit::eval::Env::state(&built.kripke.state_values(StateId::new(st)))).unwrap();
            assert_eq!(fast.contains(st), holds, "{e:?} in state {st}");
        }
    }
    let _ = Value::Bool(true);
}

/// A control-flow model as a `case` table and as the `case` it comes from: the precomputed table
/// path and the evaluator agree state for state.
#[test]
fn constant_case_tables_agree_with_case_evaluation() {
    let n = 40u32;
    let succs = |i: u32| -> Expr {
        let a = sym((i * 7 + 3) % n);
        let b = sym((i + 1) % n);
        if i.is_multiple_of(3) { a } else { set(vec![a, b, sym((i * i) % n)]) }
    };
    let make = |as_table: bool| {
        let mut m = system("main", &[("pc", syms(n))]);
        m.init_assign[0] = Some(sym(0));
        let span = Span::new(3, 4);
        m.next_assign[0] = Some(if as_table {
            // entries for even values only; odd ones fall back to `pc + 1`-like successor
            let entries = (0..n).map(|i| (i % 2 == 0).then(|| succs(i))).collect();
            Expr::Table { var: VarId::new(0), entries, fallback: Some(Box::new(set(vec![sym(1), sym(2)]))), span }
        } else {
            let mut branches: Vec<(Expr, Expr)> = (0..n).filter(|i| i % 2 == 0).map(|i| (eq(var(0), sym(i)), succs(i))).collect();
            branches.push((boolean(true), set(vec![sym(2), sym(1)])));
            case(branches, span)
        });
        let names: Vec<String> = (0..n).map(|i| format!("l{i}")).collect();
        let refs: Vec<&str> = names.iter().map(String::as_str).collect();
        program(vec![m], &refs)
    };
    let a = build_flat(&make(true), &BuildLimits::default()).expect("table builds");
    let b = build_flat(&make(false), &BuildLimits::default()).expect("case builds");
    assert_eq!(a.kripke.num_states, b.kripke.num_states);
    assert_eq!(a.kripke.values, b.kripke.values);
    assert_eq!(a.kripke.succ, b.kripke.succ);
    assert_eq!(a.kripke.num_states, 10);
}

#[test]
fn constant_table_errors_name_state_and_location() {
    // pc : {l0, l1, l2}; next(pc) := case pc = l0 : l1; pc = l1 : 7; esac (7 is out of range)
    let mut m = system("main", &[("pc", syms(3))]);
    m.init_assign[0] = Some(sym(0));
    m.next_assign[0] = Some(Expr::Table { var: VarId::new(0), entries: vec![Some(sym(1)), Some(int(7)), None], fallback: None, span: Span::new(5, 6) });
    m.spans.next_assign = vec![Some(Span::new(1, 9))];
    let err = build_flat(&program(vec![m.clone()], &["l0", "l1", "l2"]), &BuildLimits::default()).expect_err("7 is out of range");
    assert_eq!(err.items[0].message, "cannot assign value 7 to variable `pc`");
    assert_eq!(err.items[0].notes[0], "in state: pc = l1");
    // pc = l2 has no entry and there is no fallback
    m.next_assign[0] = Some(Expr::Table { var: VarId::new(0), entries: vec![Some(sym(1)), Some(sym(2)), None], fallback: None, span: Span::new(5, 6) });
    let err = build_flat(&program(vec![m], &["l0", "l1", "l2"]), &BuildLimits::default()).expect_err("l2 has no branch");
    assert_eq!(err.items[0].code, "E0501");
    assert_eq!(err.items[0].primary_span(), Span::new(5, 6));
    assert_eq!(err.items[0].notes[0], "in state: pc = l2");
}

/// Small deterministic generator (xorshift64*).
pub(crate) struct Rng(pub(crate) u64);
impl Rng {
    pub(crate) fn below(&mut self, n: u64) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D) % n
    }
}

/// A system `main` of `n` state variables `v0…` with random small domains (boolean, `0..2`, three
/// symbols), and those domains: the start of the random models of the builders' tests.
pub(crate) fn small_system(rng: &mut Rng, n: usize) -> (System, Vec<Domain>) {
    let domains: Vec<Domain> = (0..n)
        .map(|_| match rng.below(3) {
            0 => Domain::Boolean,
            1 => Domain::Range { lo: 0, hi: 2 },
            _ => syms(3),
        })
        .collect();
    let names: Vec<String> = (0..n).map(|i| format!("v{i}")).collect();
    let decls: Vec<(&str, Domain)> = names.iter().map(String::as_str).zip(domains.iter().cloned()).collect();
    (system("main", &decls), domains)
}

/// A random flat program over 1–3 small variables: constant or set-valued init/next assignments,
/// `case`s over current values, `next(y)` reads of earlier variables, frozen variables, `TRANS`
/// and `INVAR` constraints. Every assigned value is in range.
fn random_program(rng: &mut Rng) -> LoweredProgram {
    let n = 1 + rng.below(3) as usize;
    let (mut m, domains) = small_system(rng, n);
    let value = |rng: &mut Rng, d: &Domain| -> Expr { Expr::Const(d.value(rng.below(d.len() as u64) as usize)) };
    let values = |rng: &mut Rng, d: &Domain| -> Expr { if rng.below(2) == 0 { value(rng, d) } else { set(vec![value(rng, d), value(rng, d)]) } };
    for i in 0..n {
        let d = domains[i].clone();
        if rng.below(5) == 0 {
            m.vars[i].kind = VarKind::Frozen;
        }
        if rng.below(3) > 0 {
            m.init_assign[i] = Some(values(rng, &d));
        }
        if m.vars[i].kind == VarKind::Frozen || rng.below(4) == 0 {
            continue;
        }
        // case on a random variable's current value, falling back to a value, the variable
        // itself, or next() of an earlier variable with the same domain
        let on = rng.below(n as u64) as usize;
        let mut branches = vec![];
        for _ in 0..rng.below(3) {
            let c = value(rng, &domains[on]);
            branches.push((eq(var(on as u32), c), values(rng, &d)));
        }
        let earlier_same: Vec<usize> = (0..i).filter(|&j| domains[j] == d).collect();
        let fallback = match rng.below(3) {
            0 => values(rng, &d),
            1 => var(i as u32),
            _ => earlier_same.first().map_or(var(i as u32), |&j| next(j as u32)),
        };
        branches.push((boolean(true), fallback));
        m.next_assign[i] = Some(case(branches, Span::default()));
    }
    if rng.below(3) == 0 {
        let i = rng.below(n as u64) as u32;
        m.trans.push(bin(BinOp::Ne, next(i), value(rng, &domains[i as usize])));
    }
    if rng.below(3) == 0 {
        let i = rng.below(n as u64) as u32;
        m.invar.push(bin(BinOp::Ne, var(i), value(rng, &domains[i as usize])));
    }
    if rng.below(4) == 0 {
        let i = rng.below(n as u64) as u32;
        m.init.push(bin(BinOp::Ne, var(i), value(rng, &domains[i as usize])));
    }

    program(vec![m], &["a", "b", "c"])
}

/// Reachable states and edges by brute force over all valuations, straight from the semantics
/// (`t` is a successor of `s` iff every assignment allows `t`'s value, frozen variables keep
/// theirs, `TRANS` holds and `INVAR` holds in `t`).
pub(crate) type StatesAndEdges = (std::collections::BTreeSet<Vec<u32>>, std::collections::BTreeSet<(Vec<u32>, Vec<u32>)>);

/// The states and edges of a built structure as value vectors.
pub(crate) fn states_and_edges(k: &KripkeStructure) -> StatesAndEdges {
    let states = (0..k.num_states).map(StateId::from_u32).map(|s| k.state_values(s).to_vec()).collect();
    let edges = (0..k.num_states)
        .map(StateId::from_u32)
        .flat_map(|s| k.succ.neighbours(s).iter().map(move |&t| (k.state_values(s).to_vec(), k.state_values(t).to_vec())))
        .collect();
    (states, edges)
}

pub(crate) fn brute_force(system: &System) -> StatesAndEdges {
    use crate::explicit::eval::{Env, Evaluator};
    let sizes: Vec<u32> = system.vars.iter().map(|v| v.domain.len() as u32).collect();
    let mut all = vec![vec![]];
    for &k in &sizes {
        all = all.into_iter().flat_map(|p: Vec<u32>| (0..k).map(move |x| [p.clone(), vec![x]].concat())).collect();
    }
    let mut ev = Evaluator::new(&system.vars);
    // An evaluation error rules the candidate out: the builder, which succeeded, met none on the
    // transitions it took (it may prune a candidate by `TRANS` before evaluating what fails).
    let allows = |ev: &mut Evaluator, e: &Expr, env: &Env, var: usize, idx: u32| -> bool {
        let mut out = vec![];
        ev.values(e, env, &mut out).is_ok() && out.contains(&system.vars[var].domain.value(idx as usize))
    };
    let holds = |ev: &mut Evaluator, es: &[Expr], env: &Env| es.iter().all(|e| ev.bool(e, env).unwrap_or(false));
    let initial: Vec<Vec<u32>> = (all.iter())
        .filter(|s| {
            let env = Env::state(s);
            (0..s.len()).all(|i| system.init_assign[i].as_ref().is_none_or(|e| allows(&mut ev, e, &env, i, s[i])))
                && (0..s.len()).all(|i| system.invar_assign[i].as_ref().is_none_or(|e| allows(&mut ev, e, &env, i, s[i])))
                && holds(&mut ev, &system.init, &env)
                && holds(&mut ev, &system.invar, &env)
        })
        .cloned()
        .collect();
    let mut reach: std::collections::BTreeSet<Vec<u32>> = initial.iter().cloned().collect();
    let mut edges = std::collections::BTreeSet::new();
    let mut queue = initial;
    while let Some(s) = queue.pop() {
        for t in &all {
            let env = Env { cur: &s, next: Some(t), exited: None };
            let ok = (0..s.len()).all(|i| match (&system.next_assign[i], system.vars[i].kind) {
                (_, VarKind::Frozen) => t[i] == s[i],
                (Some(e), _) => allows(&mut ev, e, &env, i, t[i]),
                (None, _) => true,
            }) && holds(&mut ev, &system.trans, &env)
                && holds(&mut ev, &system.invar, &Env::state(t))
                && (0..t.len()).all(|i| system.invar_assign[i].as_ref().is_none_or(|e| allows(&mut ev, e, &Env::state(t), i, t[i])));
            if ok {
                edges.insert((s.clone(), t.clone()));
                if reach.insert(t.clone()) {
                    queue.push(t.clone());
                }
            }
        }
    }
    (reach, edges)
}

#[test]
fn random_programs_agree_with_brute_force() {
    let cases: u64 = std::env::var("XMV_TEST_CASES").ok().and_then(|s| s.parse().ok()).unwrap_or(300);
    let mut rng = Rng(0x5eed_f1a7);
    for case_no in 0..cases {
        let p = random_program(&mut rng);
        let built = build_flat(&p, &BuildLimits::default()).unwrap_or_else(|d| panic!("case {case_no}: {:?}", d.items[0].message));
        let k = &built.kripke;
        let (states, edges) = states_and_edges(k);
        let (reach, brute_edges) = brute_force(&p.systems[0]);
        assert_eq!(states, reach, "case {case_no}: {:?}", p.systems[0]);
        assert_eq!(edges, brute_edges, "case {case_no}: {:?}", p.systems[0]);
        assert_eq!(states.len(), k.num_states as usize, "no state twice");
    }
}

/// `x : 0..2999` counting modulo 3,000 under `TRANS`, `y : 0..3` free: 12,000 states, 4
/// successors each, several batches.
fn counter_with_free_variable() -> LoweredProgram {
    let mut m = system("main", &[("x", Domain::Range { lo: 0, hi: 2999 }), ("y", Domain::Range { lo: 0, hi: 3 })]);
    m.init_assign[0] = Some(int(0));
    m.trans.push(eq(next(0), bin(BinOp::Mod, bin(BinOp::Add, var(0), int(1)), int(3000))));
    program(vec![m], &[])
}

#[test]
fn a_gated_build_let_go_is_the_ungated_build() {
    // The gate pauses once, after its first stage, and lets the build go on to its end
    // (`UNGATED`): with two threads the rest is pipelined, with one it is not; both give the
    // structure, numbering included, of the plain build.
    let program = counter_with_free_variable();
    let plain = build_flat(&program, &BuildLimits::default()).expect("builds");
    let numbered =
        |m: &FlatModel| (0..m.kripke.num_states).map(StateId::from_u32).map(|s| (state_of(m, s), m.kripke.succ.neighbours(s).to_vec())).collect::<Vec<_>>();
    assert_eq!(plain.kripke.num_states, 12_000);
    for threads in [1, 2] {
        let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().expect("a pool");
        let mut pauses = 0;
        let mut work = BuildWork::default();
        let gated = pool.install(|| {
            let mut pause = |_: &BuildWork| {
                pauses += 1;
                Some(UNGATED)
            };
            let first = FirstStage { states: 100, transitions: u64::MAX, work: u64::MAX, wide: u64::MAX };
            build_flat_gated(&program, &BuildLimits::default(), &mut work, Gate { first, state_steps: 1 << 24, pause: &mut pause })
        });
        let gated = gated.expect("builds");
        assert_eq!(pauses, 1, "{threads} threads");
        assert_eq!(numbered(&gated), numbered(&plain), "{threads} threads");
        assert_eq!((work.expanded, work.generated), (12_000, 48_000), "{threads} threads");
    }
}

#[test]
fn a_gated_build_pauses_inside_initial_states_past_its_first_stage() {
    // All 12,000 states initial (no init assignment): the first stage (100 states) ends while
    // they are enumerated, before any state is expanded. Stopped there, the build says so
    // (E0505) having found one state past the first stage; let go, it is the plain build.
    let mut program = counter_with_free_variable();
    program.systems[0].init_assign[0] = None;
    let plain = build_flat(&program, &BuildLimits::default()).expect("builds");
    assert_eq!((plain.kripke.num_states, plain.kripke.initial.len()), (12_000, 12_000));
    let (stopped, gated, work) = stopped_and_let_go(&program);
    assert!(stopped.has_code(crate::explicit::build_diag::E_LIMIT));
    assert_eq!((gated.kripke.num_states, gated.kripke.initial.len()), (12_000, 12_000));
    assert_eq!((work.initial, work.expanded, work.generated), (12_000, 12_000, 48_000));
}

/// A first stage of 100 states for the tests below.
const FIRST_100: FirstStage = FirstStage { states: 100, transitions: u64::MAX, work: u64::MAX, wide: u64::MAX };

/// `program` built under a gate with a first stage of 100 states twice: stopped at the first
/// pause (the error), and let go there (the model and its work). Asserts that each build paused
/// once, the first with the figures of one initial state past the first stage and none expanded.
fn stopped_and_let_go(program: &LoweredProgram) -> (Diagnostics, FlatModel, BuildWork) {
    let mut seen = vec![];
    let mut stop = |w: &BuildWork| {
        seen.push(*w);
        None
    };
    let mut work = BuildWork::default();
    let stopped = build_flat_gated(program, &BuildLimits::default(), &mut work, Gate { first: FIRST_100, state_steps: 1 << 24, pause: &mut stop });
    let stopped = stopped.expect_err("stopped");
    assert_eq!(seen.len(), 1);
    assert_eq!((seen[0].initial, seen[0].expanded, seen[0].units()), (101, 0, 101));
    let mut pauses = 0;
    let mut go = |_: &BuildWork| {
        pauses += 1;
        Some(UNGATED)
    };
    let mut work = BuildWork::default();
    let gated = build_flat_gated(program, &BuildLimits::default(), &mut work, Gate { first: FIRST_100, state_steps: 1 << 24, pause: &mut go }).expect("builds");
    assert_eq!(pauses, 1);
    (stopped, gated, work)
}

#[test]
fn a_gated_build_pauses_before_initial_states_known_to_pass_its_first_stage() {
    // `x` free at the start (3,000 values) and `y` given: the initial states' plan knows its
    // 3,000 vectors before enumerating them, so the first stage (100 states) ends before any is
    // found, with the figures of one state past the first stage, as when it ends inside the
    // enumeration. Let go, it is the plain build.
    let mut program = counter_with_free_variable();
    program.systems[0].init_assign[0] = None;
    program.systems[0].init_assign[1] = Some(int(0));
    let plain = build_flat(&program, &BuildLimits::default()).expect("builds");
    assert_eq!((plain.kripke.num_states, plain.kripke.initial.len()), (12_000, 3_000));
    let (stopped, gated, work) = stopped_and_let_go(&program);
    assert!(stopped.has_code(crate::explicit::build_diag::E_LIMIT));
    assert!(format!("{stopped:?}").contains("\"0 states were built"), "{stopped:?}");
    assert_eq!((gated.kripke.num_states, gated.kripke.initial.len()), (12_000, 3_000));
    assert_eq!((work.initial, work.expanded, work.generated), (3_000, 12_000, 48_000));
    // `y`'s initial value an error (division by zero): not known, so the build enumerates and
    // reports the error, as without the shortcut.
    program.systems[0].init_assign[1] = Some(bin(BinOp::Div, int(1), int(0)));
    let mut work = BuildWork::default();
    let mut never = |_: &BuildWork| None;
    let failed = build_flat_gated(&program, &BuildLimits::default(), &mut work, Gate { first: FIRST_100, state_steps: 1 << 24, pause: &mut never });
    assert!(failed.is_err_and(|d| !d.has_code(crate::explicit::build_diag::E_LIMIT)));
}
