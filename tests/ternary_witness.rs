//! Witnesses and counterexamples of the ternary engines, validated on the brute-force unfolding:
//! every step is a real transition of the RKS from the initial configuration, and the steps
//! satisfy the path formula of the spec (or of its dual, for a counterexample) exactly.

mod rks_support;

use rks_support::oracle::{Config, Unfolding};
use rks_support::random::{self, GenParams, Rng};
use rustc_hash::FxHashMap;
use xmv_rs::check::ternary::{TernaryEngine, check};
use xmv_rs::check::trace::{Trace, TraceKind, TraceStep};
use xmv_rs::ctl::Ctl;
use xmv_rs::explicit::rks::ComponentId;
use xmv_rs::ir::PropId;

type F = Ctl<PropId>;

fn not(a: &F) -> F {
    Ctl::Not(Box::new(a.clone()))
}

/// The existential path formula the trace must satisfy: (kind, ψ, χ) for `EX ψ`, `E[ψ U χ]`,
/// `EG ψ` (χ unused).
fn path_formula(f: &F, trace: &Trace) -> (&'static str, F, F) {
    use Ctl::*;
    match (f, trace.kind == TraceKind::Counterexample) {
        (EX(a), false) => ("X", (**a).clone(), True),
        (EF(b), false) => ("U", True, (**b).clone()),
        (EU(a, b), false) => ("U", (**a).clone(), (**b).clone()),
        (EG(a), false) => ("G", (**a).clone(), True),
        (AX(a), true) => ("X", not(a), True),
        (AG(a), true) => ("U", True, not(a)),
        (AF(a), true) => ("G", not(a), True),
        (AU(a, b), true) if trace.loop_start.is_some() => ("G", not(b), True),
        (AU(a, b), true) => ("U", not(b), Ctl::And(Box::new(not(a)), Box::new(not(b)))),
        _ => panic!("trace for an unexpected spec {f:?}"),
    }
}

fn validate(u: &Unfolding, f: &F, trace: &Trace) -> Result<(), String> {
    let index: FxHashMap<&Config, usize> = u.configs.iter().enumerate().map(|(i, c)| (c, i)).collect();
    let ids: Vec<usize> = trace
        .steps
        .iter()
        .map(|s| {
            let c = rks_support::traces::config(s);
            index.get(&c).copied().ok_or_else(|| format!("unreachable configuration {s:?}"))
        })
        .collect::<Result<_, _>>()?;
    if ids.first() != Some(&0) {
        return Err("the trace does not start at the initial configuration".into());
    }
    for w in ids.windows(2) {
        if !u.succ[w[0]].contains(&(w[1] as u32)) {
            return Err(format!("no transition {:?} -> {:?}", u.configs[w[0]], u.configs[w[1]]));
        }
    }
    let (kind, psi, chi) = path_formula(f, trace);
    let (sp, sc) = (u.sat(&psi, false), u.sat(&chi, false));
    let last = *ids.last().expect("non-empty trace");
    match kind {
        "X" if ids.len() == 2 && sp[last] => Ok(()),
        "U" if ids[..ids.len() - 1].iter().all(|&s| sp[s]) && sc[last] && trace.loop_start.is_none() => Ok(()),
        "G" if ids.iter().all(|&s| sp[s]) && trace.loop_push.is_empty() => {
            let start = ids[trace.loop_start.ok_or("EG trace without a loop")?];
            if u.succ[last].contains(&(start as u32)) { Ok(()) } else { Err("the loop does not close".into()) }
        }
        "G" if ids.iter().all(|&s| sp[s]) => Ok(()), // a loop through recursion: not on a finite unfolding
        _ => Err(format!("the steps do not satisfy the {kind} path formula")),
    }
}

#[test]
fn traces_are_real_runs_satisfying_the_path_formula() {
    let n: usize = std::env::var("XMV_TEST_CASES").ok().and_then(|s| s.parse().ok()).unwrap_or(3000);
    let mut rng = Rng::new(0x5eed_7ace);
    let mut traces = 0;
    for _ in 0..n {
        let model = random::model(&mut rng, &GenParams { recursive: false, max_comps: 4, max_nodes: 6 });
        let f = random::formula(&mut rng, model.props.len(), 3);
        let rks = model.build();
        let u = Unfolding::new(&rks, 0, 8, 50_000).expect("small non-recursive model");
        assert!(u.is_complete());
        for engine in [TernaryEngine::Eager, TernaryEngine::Lazy] {
            let r = check(&rks, ComponentId::new(0), &f, engine, true);
            let expect_trace = (r.holds && matches!(f, Ctl::EX(_) | Ctl::EF(_) | Ctl::EG(_) | Ctl::EU(..))) || (!r.holds && f.is_universal());
            assert_eq!(r.trace.is_some(), expect_trace, "{engine:?} trace presence for {f:?}\n{}", model.to_text());
            if let Some(t) = &r.trace {
                traces += 1;
                if let Err(e) = validate(&u, &f, t) {
                    panic!("{engine:?}: {e}\nformula {f:?}\ntrace {t:?}\nmodel:\n{}", model.to_text());
                }
            }
        }
    }
    assert!(traces * 10 > n, "only {traces} traces in {n} cases");
}

/// Regression (found by rks_differential at 20,000 cases, where it took 19 GB): `AG q` fails only
/// through the trap termination after the initial exit `a1`, but the ranked depth-first search
/// preferred the recursive call `a0 → a4 → a0 → …`, where every configuration is new by its
/// stack, and stored them all. The search now stops at a budget of stack frames and the
/// breadth-first fallback finds the 3-step counterexample a0, a1, terminated.
#[test]
fn counterexample_through_termination_beside_unbounded_recursion() {
    use xmv_rs::explicit::rks_builder::{parse_ctl, parse_rks};
    let rks = parse_rks(
        "sub A in a0 out EXIT:a1
           loc a0{p,q} a1{q} a2{} a3{} a5{q}
           call a4->A
           edge a0->a1 a0->a4 a2->a3 a2->a4 a2->a5 a3->a0 a3->a3 a5->a2 a5->a5
           ret a4.EXIT->a0",
    )
    .expect("model parses");
    let f = parse_ctl("AG q", &rks).expect("formula parses");
    for engine in [TernaryEngine::Eager, TernaryEngine::Lazy] {
        let r = check(&rks, ComponentId::new(0), &f, engine, true);
        assert!(!r.holds, "{engine:?}");
        let t = r.trace.unwrap_or_else(|| panic!("{engine:?}: no counterexample"));
        assert_eq!(t.kind, TraceKind::Counterexample);
        assert_eq!(t.steps.len(), 3, "{engine:?}: {t:?}");
        assert_eq!(t.steps.last(), Some(&TraceStep::terminated()), "{engine:?}: {t:?}");
    }
}
