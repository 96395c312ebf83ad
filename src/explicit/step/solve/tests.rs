//! Differential tests of the constraint solver: random constraint-style models built with the
//! solver and with plain enumeration give the same states, numbering, edges and errors, and the
//! same states and edges as brute force.

use crate::explicit::build_flat::tests::{Rng, brute_force, small_system, states_and_edges};
use crate::explicit::build_flat::{BuildLimits, FlatModel, build_flat};
use crate::explicit::step::{DomainIndex, NO_MEMO, NO_PACKED, NO_SKIP_INDEX, PACKED_RUNS, PLAIN_ONLY, Plan, SKIP_INDEXES};
use crate::explicit::test_support::*;
use crate::ir::VarKind;
use crate::lowering::program::{BinOp, Builtin, Domain, Expr, LoweredProgram, System};
use crate::source::Span;

fn and_all(mut es: Vec<Expr>) -> Expr {
    let Some(mut acc) = es.pop() else { return boolean(true) };
    while let Some(e) = es.pop() {
        acc = bin(BinOp::And, e, acc);
    }
    acc
}

fn or_all(mut es: Vec<Expr>) -> Expr {
    let Some(mut acc) = es.pop() else { return boolean(false) };
    while let Some(e) = es.pop() {
        acc = bin(BinOp::Or, e, acc);
    }
    acc
}

struct Gen<'a> {
    rng: &'a mut Rng,
    domains: Vec<Domain>,
    kinds: Vec<VarKind>,
    allow_fail: bool,
}

impl Gen<'_> {
    fn below(&mut self, n: u64) -> u64 {
        self.rng.below(n)
    }
    fn value(&mut self, v: usize) -> Expr {
        let d = self.domains[v].clone();
        Expr::Const(d.value(self.below(d.len() as u64) as usize))
    }
    fn any_var(&mut self) -> usize {
        self.below(self.domains.len() as u64) as usize
    }
    fn state_vars(&self) -> Vec<usize> {
        (0..self.domains.len()).filter(|&v| self.kinds[v] != VarKind::Input).collect()
    }
    /// A condition on the current state (and inputs).
    fn guard(&mut self) -> Expr {
        let v = self.any_var();
        let c = self.value(v);
        match self.below(5) {
            0 => boolean(true),
            1 => not(eq(var(v as u32), c)),
            2 => {
                let w = self.any_var();
                let d = self.value(w);
                bin(BinOp::And, eq(var(v as u32), c), eq(var(w as u32), d))
            }
            _ => eq(var(v as u32), c),
        }
    }
    /// A constraint on `next(x)` (or `None`: left free).
    fn update(&mut self, x: usize) -> Option<Expr> {
        let same: Vec<usize> = (0..self.domains.len()).filter(|&y| y != x && self.domains[y] == self.domains[x]).collect();
        let nx = next(x as u32);
        Some(match self.below(10) {
            0 => return None,
            1 => {
                let c = self.value(x);
                eq(nx, c)
            }
            2 => {
                let c = self.value(x);
                eq(c, nx)
            }
            3 => eq(var(x as u32), nx),
            4 => match same.first() {
                Some(&y) if self.below(2) == 0 => eq(nx, next(y as u32)),
                Some(&y) => eq(nx, var(y as u32)),
                None => eq(nx, var(x as u32)),
            },
            5 => {
                let (a, b) = (self.value(x), self.value(x));
                bin(BinOp::In, nx, set(vec![a, b]))
            }
            6 => {
                let c = self.value(x);
                bin(BinOp::Ne, nx, c)
            }
            7 => {
                // a residual: a disjunction mixing two next values
                let y = self.any_var();
                let (c, d) = (self.value(x), self.value(y));
                let ny = if self.kinds[y] == VarKind::Input { var(y as u32) } else { next(y as u32) };
                or_all(vec![eq(nx, c), bin(BinOp::Ne, ny, d)])
            }
            8 if self.domains[x] == Domain::Boolean => {
                if self.below(2) == 0 {
                    nx
                } else {
                    not(nx)
                }
            }
            _ => eq(nx, var(x as u32)),
        })
    }
    fn guarded_update(&mut self) -> Expr {
        let mut parts = vec![self.guard()];
        for x in self.state_vars() {
            if let Some(u) = self.update(x) {
                parts.push(u);
            }
        }
        let k = parts.len();
        let i = self.below(k as u64) as usize;
        parts.swap(0, i);
        and_all(parts)
    }
    fn trans(&mut self) -> Expr {
        match self.below(6) {
            0 | 1 => {
                let k = 1 + self.below(4) as usize;
                let alts = (0..k).map(|_| self.guarded_update()).collect();
                or_all(alts)
            }
            2 => {
                let k = 1 + self.below(3) as usize;
                let mut branches: Vec<(Expr, Expr)> = (0..k).map(|_| (self.guard(), self.guarded_update())).collect();
                if !self.allow_fail || self.below(3) > 0 {
                    let rest = self.guarded_update();
                    branches.push((boolean(true), rest));
                }
                case(branches, Span::new(11, 12))
            }
            3 => {
                let k = 1 + self.below(3) as usize;
                let parts = (0..k)
                    .map(|_| {
                        let (g, u) = (self.guard(), self.guarded_update());
                        bin(BinOp::Implies, g, u)
                    })
                    .collect();
                and_all(parts)
            }
            4 => {
                let g = self.guard();
                let (a, b) = (self.guarded_update(), self.guarded_update());
                Expr::Ite(Box::new(g), Box::new(a), Box::new(b))
            }
            _ => {
                // asynchronous update: a guard, or exactly one variable changes
                let vs = self.state_vars();
                let changes = vs.iter().map(|&v| bin(BinOp::Ne, next(v as u32), var(v as u32))).collect();
                let k = if self.below(3) == 0 { 0 } else { 1 };
                let g = self.guard();
                bin(BinOp::Or, g, eq(Expr::Builtin(Builtin::Count, changes), int(k)))
            }
        }
    }
}

/// A random constraint-style model: TRANS as disjunctions / case / implications / `?:` /
/// `count` of guarded updates with unchanged parts, mixed with `next()` assignments, inputs,
/// frozen variables, INIT and INVAR. With `allow_fail`, parts that may fail (out-of-range
/// assignments, `case` without a true branch).
fn constraint_program(rng: &mut Rng, allow_fail: bool) -> LoweredProgram {
    let n = 2 + rng.below(3) as usize;
    let (mut m, domains) = small_system(rng, n);
    let kinds: Vec<VarKind> = (0..n)
        .map(|v| match rng.below(8) {
            0 if v > 0 => VarKind::Frozen,
            1 if v > 0 => VarKind::Input,
            _ => VarKind::State,
        })
        .collect();
    for (v, k) in kinds.iter().enumerate() {
        m.vars[v].kind = *k;
    }
    let mut g = Gen { rng, domains: domains.clone(), kinds: kinds.clone(), allow_fail };
    let mut init_parts = vec![];
    for v in 0..n {
        if kinds[v] == VarKind::Input {
            continue;
        }
        match g.below(4) {
            0 => m.init_assign[v] = Some(g.value(v)),
            1 | 2 => {
                let c = g.value(v);
                init_parts.push(eq(var(v as u32), c));
            }
            _ => {}
        }
        if kinds[v] == VarKind::State && g.below(4) == 0 {
            let c = g.value(v);
            m.next_assign[v] = Some(match g.below(4) {
                0 => set(vec![var(v as u32), c]),
                1 => c,
                2 if allow_fail && domains[v] != Domain::Boolean && !matches!(domains[v], Domain::Enum(_)) => bin(BinOp::Add, var(v as u32), int(1)),
                _ => {
                    let w = g.any_var();
                    let d = g.value(w);
                    case(vec![(eq(var(w as u32), d), c), (boolean(true), var(v as u32))], Span::new(3, 4))
                }
            });
        }
    }
    if !init_parts.is_empty() {
        let e = if g.below(3) == 0 {
            let alt = init_parts.pop().unwrap_or(boolean(true));
            or_all(vec![and_all(init_parts), alt])
        } else {
            and_all(init_parts)
        };
        m.init.push(e);
    }
    m.trans.push(g.trans());
    if g.below(3) == 0 {
        m.trans.push(g.trans());
    }
    if g.below(3) == 0 {
        let v = g.state_vars()[0];
        let w = g.state_vars()[g.below(g.state_vars().len() as u64) as usize];
        let (c, d) = (g.value(v), g.value(w));
        m.invar.push(or_all(vec![bin(BinOp::Ne, var(v as u32), c), eq(var(w as u32), d)]));
    }
    program(vec![m], &["a", "b", "c"])
}

fn build(p: &LoweredProgram, plain: bool) -> Result<FlatModel, crate::diagnostics::Diagnostics> {
    PLAIN_ONLY.with(|c| c.set(plain));
    let r = build_flat(p, &BuildLimits::default());
    PLAIN_ONLY.with(|c| c.set(false));
    r
}

fn solver_used(s: &System) -> bool {
    let d = DomainIndex::new(s);
    Plan::next(s, &d).is_ok_and(|p| p.solves()) || Plan::init(s, &d).is_ok_and(|p| p.solves())
}

/// Random cases per test: `XMV_TEST_CASES`, else `default`.
fn test_cases(default: u64) -> u64 {
    std::env::var("XMV_TEST_CASES").ok().and_then(|s| s.parse().ok()).unwrap_or(default)
}

/// Two builds of `p` agree: same state vectors in the same order, same initial states and
/// edges, or the same first error (code, message, notes). True if both failed.
fn assert_builds_agree(
    case_no: u64,
    p: &LoweredProgram,
    a: &Result<FlatModel, crate::diagnostics::Diagnostics>,
    b: &Result<FlatModel, crate::diagnostics::Diagnostics>,
) -> bool {
    match (a, b) {
        (Ok(a), Ok(b)) => {
            assert_eq!(a.kripke.values, b.kripke.values, "case {case_no}: states or numbering differ: {:?}", p.systems[0]);
            assert_eq!(a.kripke.initial, b.kripke.initial, "case {case_no}");
            assert_eq!(a.kripke.succ, b.kripke.succ, "case {case_no}: edges differ: {:?}", p.systems[0]);
            false
        }
        (Err(a), Err(b)) => {
            let (a, b) = (&a.items[0], &b.items[0]);
            assert_eq!((&a.code, &a.message, &a.notes), (&b.code, &b.message, &b.notes), "case {case_no}: errors differ: {:?}", p.systems[0]);
            true
        }
        _ => panic!("case {case_no}: one build failed: {:?} / {:?}\n{:?}", a.as_ref().err(), b.as_ref().err(), p.systems[0]),
    }
}

/// Same state vectors in the same order, same initial states, edges and deadlocks, same errors,
/// with the solver and by plain enumeration.
fn assert_same(case_no: u64, p: &LoweredProgram) {
    let (solved, plain) = (build(p, false), build(p, true));
    if !assert_builds_agree(case_no, p, &solved, &plain)
        && let (Ok(a), Ok(b)) = (&solved, &plain)
    {
        assert_eq!(a.deadlocks, b.deadlocks, "case {case_no}");
    }
}

#[test]
fn random_constraint_models_agree_with_plain_enumeration_and_brute_force() {
    let cases: u64 = test_cases(400);
    let mut rng = Rng(0xc0ff_ee11);
    let mut used = 0;
    let mut brute = 0;
    for case_no in 0..cases {
        let p = constraint_program(&mut rng, false);
        assert_same(case_no, &p);
        let sys = &p.systems[0];
        used += solver_used(sys) as u32;
        if sys.vars.iter().all(|v| v.kind != VarKind::Input)
            && let Ok(built) = build(&p, false)
        {
            let (states, edges) = states_and_edges(&built.kripke);
            let (reach, brute_edges) = brute_force(sys);
            assert_eq!(states, reach, "case {case_no}: {sys:?}");
            assert_eq!(edges, brute_edges, "case {case_no}: {sys:?}");
            brute += 1;
        }
    }
    assert!(used as u64 * 10 >= cases * 9, "the solver decomposed only {used} of {cases} models");
    assert!(brute as u64 * 2 >= cases, "only {brute} of {cases} compared with brute force");
}

#[test]
fn random_models_that_may_fail_report_the_same_errors() {
    let cases: u64 = test_cases(400);
    let mut rng = Rng(0x0bad_cafe);
    let mut errors = 0;
    for case_no in 0..cases {
        let p = constraint_program(&mut rng, true);
        assert_same(case_no, &p);
        errors += build(&p, true).is_err() as u32;
    }
    assert!(errors > 0, "no model failed: the generator does not exercise errors");
}

/// Memoised evaluation ([`crate::explicit::step::memo`]) gives the same states, numbering, edges
/// and errors as evaluating every time, with and without the solver.
#[test]
fn memoised_evaluation_changes_nothing() {
    let cases: u64 = test_cases(300);
    let mut rng = Rng(0x5eed_0f3e);
    let mut errors = 0;
    for case_no in 0..cases {
        let p = constraint_program(&mut rng, case_no % 2 == 1);
        for plain in [false, true] {
            let memo = build(&p, plain);
            NO_MEMO.with(|c| c.set(true));
            let direct = build(&p, plain);
            NO_MEMO.with(|c| c.set(false));
            errors += u32::from(assert_builds_agree(case_no, &p, &memo, &direct));
        }
    }
    assert!(errors > 0, "no case failed: the error paths are not exercised");
}

/// A random model in the style of NuSMV's `deadlock/` examples: `TRANS` a disjunction of
/// guarded updates where every variable is bound (`next(x) = c`, `next(x) = x` — the
/// `unchanged_except_…` frame conditions — or `next(x) = y`), over booleans, small ranges,
/// enumerations and ranges of 2^30 values (30-bit fields: with three of them a packed state
/// takes two words).
fn frame_program(rng: &mut Rng) -> LoweredProgram {
    let n = 2 + rng.below(5) as usize;
    let domains: Vec<Domain> = (0..n)
        .map(|_| match rng.below(4) {
            0 => Domain::Boolean,
            1 => Domain::Range { lo: 0, hi: 2 },
            2 => syms(3),
            _ => Domain::Range { lo: 0, hi: (1 << 30) - 1 },
        })
        .collect();
    let names: Vec<String> = (0..n).map(|i| format!("v{i}")).collect();
    let decls: Vec<(&str, Domain)> = names.iter().map(String::as_str).zip(domains.iter().cloned()).collect();
    let mut m: System = system("main", &decls);
    let kinds = vec![VarKind::State; n];
    let mut g = Gen { rng, domains: domains.clone(), kinds, allow_fail: false };
    for v in 0..n {
        m.init_assign[v] = Some(g.value(v));
    }
    let k = 1 + g.below(5) as usize;
    let alts = (0..k)
        .map(|_| {
            let mut parts = vec![g.guard()];
            for x in 0..n {
                let same: Vec<usize> = (0..n).filter(|&y| y != x && domains[y] == domains[x]).collect();
                parts.push(match g.below(4) {
                    0 => {
                        let c = g.value(x);
                        eq(next(x as u32), c)
                    }
                    1 if !same.is_empty() => {
                        let y = same[g.below(same.len() as u64) as usize];
                        eq(next(x as u32), var(y as u32))
                    }
                    _ => eq(next(x as u32), var(x as u32)),
                });
            }
            and_all(parts)
        })
        .collect();
    m.trans.push(or_all(alts));
    program(vec![m], &["a", "b", "c"])
}

/// Successors written straight into packed keys ([`super::packed`]) are the keys, in the
/// order, that packing the vector-based search's successors gives: same states, numbering and
/// edges as without the packed path (and, on small domains, as plain enumeration), on one- and
/// two-word layouts, ordered by integer sort keys or by comparing the changed variables.
#[test]
fn packed_successors_equal_the_vector_based_ones() {
    let cases: u64 = test_cases(300);
    let mut rng = Rng(0x9ac4_ed01);
    let (mut packed_models, mut two_words) = (0u64, 0u64);
    for case_no in 0..cases {
        let p = frame_program(&mut rng);
        PACKED_RUNS.with(|c| c.set(0));
        let packed = build(&p, false).expect("frame models cannot fail");
        let runs = PACKED_RUNS.with(std::cell::Cell::get);
        NO_PACKED.with(|c| c.set(true));
        let unpacked = build(&p, false).expect("frame models cannot fail");
        NO_PACKED.with(|c| c.set(false));
        // The packed path's two orderings: integer sort keys (above) and comparing changes.
        super::packed::NO_SORT_KEYS.with(|c| c.set(true));
        let compared = build(&p, false).expect("frame models cannot fail");
        super::packed::NO_SORT_KEYS.with(|c| c.set(false));
        // Plain enumeration ranges over whole domains: compared only without 2^30-value ones.
        let narrow = p.systems[0].vars.iter().all(|v| v.domain.len() <= 3);
        let plain = if narrow { build(&p, true).expect("frame models cannot fail") } else { unpacked.clone() };
        for other in [&unpacked, &plain, &compared] {
            assert_eq!(packed.kripke.values, other.kripke.values, "case {case_no}: states or numbering differ: {:?}", p.systems[0]);
            assert_eq!(packed.kripke.initial, other.kripke.initial, "case {case_no}");
            assert_eq!(packed.kripke.succ, other.kripke.succ, "case {case_no}: edges differ: {:?}", p.systems[0]);
            assert_eq!(packed.deadlocks, other.deadlocks, "case {case_no}");
        }
        if runs > 0 {
            packed_models += 1;
            let layout = crate::explicit::packed_table::Layout::of(&p.systems[0]);
            two_words += u64::from(layout.words() >= 2);
        }
    }
    assert!(packed_models * 2 >= cases, "the packed path served only {packed_models} of {cases} models");
    assert!(two_words > 0, "no model with a two-word layout took the packed path");
}

/// [`constraint_program`] scheduled like a process model without `FAIRNESS running`: an input
/// selector of 12 values and one `TRANS` conjunct `sel = k -> update` per process (8 to 12 of
/// them, two now and then for the same `k`), which the solver indexes by the selector
/// ([`super::SkipIndex`]).
fn scheduled_program(rng: &mut Rng, allow_fail: bool) -> LoweredProgram {
    let mut p = constraint_program(rng, allow_fail);
    let m = &mut p.systems[0];
    let sel = m.vars.len();
    let mut selector = m.vars[0].clone();
    selector.name = "sel".into();
    selector.domain = Domain::Range { lo: 0, hi: 11 };
    selector.kind = VarKind::Input;
    m.vars.push(selector);
    m.init_assign.push(None);
    m.next_assign.push(None);
    m.invar_assign.push(None);
    let domains: Vec<Domain> = m.vars.iter().map(|v| v.domain.clone()).collect();
    let kinds: Vec<VarKind> = m.vars.iter().map(|v| v.kind).collect();
    let mut g = Gen { rng, domains, kinds, allow_fail };
    let processes = 8 + g.below(5);
    for k in 0..processes {
        let k = if g.below(6) == 0 { g.below(12) } else { k };
        let update = g.guarded_update();
        m.trans.push(bin(BinOp::Implies, eq(var(sel as u32), int(k as i64)), update));
    }
    p
}

/// Indexing the conjuncts by the selector that skips them changes nothing: the same states,
/// numbering, edges and errors with the index, without it, and by plain enumeration.
#[test]
fn conjuncts_indexed_by_their_skipping_selector_give_the_same_model() {
    let cases: u64 = test_cases(400);
    let mut rng = Rng(0x5c4e_d01e);
    SKIP_INDEXES.with(|c| c.set(0));
    for case_no in 0..cases {
        let p = scheduled_program(&mut rng, case_no % 2 == 1);
        assert_same(case_no, &p);
        let indexed = build(&p, false);
        NO_SKIP_INDEX.with(|c| c.set(true));
        let unindexed = build(&p, false);
        NO_SKIP_INDEX.with(|c| c.set(false));
        assert_builds_agree(case_no, &p, &indexed, &unindexed);
    }
    let indexes = SKIP_INDEXES.with(std::cell::Cell::get);
    assert!(indexes * 2 >= cases, "the conjuncts were indexed by their selector in only {indexes} of {cases} models");
}
