//! Worked examples of Finis 2012 (finis-2012-digest.md §7) and small multi-exit / termination
//! examples, as regression tests of the RKS engines: each spec's expected verdict, both engines
//! agreeing, and every produced trace being a real run of the structure.

use xmv_rs::check::rks::{self, RksEngine, RksOptions, RksResult};
use xmv_rs::check::trace::{CallFrame, Trace, TraceKind, TraceStep};
use xmv_rs::explicit::rks::{ComponentId, NodeId, RecursiveKripkeStructure};
use xmv_rs::explicit::rks_builder::{parse_ctl, parse_rks};
use xmv_rs::syntax::ast::TerminationRule;

fn comp(r: &RecursiveKripkeStructure, name: &str) -> ComponentId {
    ComponentId::new(r.components.iter().position(|c| c.name == name).unwrap_or_else(|| panic!("no component {name}")))
}

fn node(r: &RecursiveKripkeStructure, c: ComponentId, name: &str) -> NodeId {
    NodeId::new(r.components[c.index()].node_names.iter().position(|n| n == name).unwrap_or_else(|| panic!("no node {name}")))
}

/// Checks `spec` from component `init` with both engines (with traces); asserts the verdict
/// and the agreement, validates traces; returns the incremental result.
fn verdict(r: &RecursiveKripkeStructure, init: &str, spec: &str, expected: bool) -> RksResult {
    let f = parse_ctl(spec, r).unwrap();
    let c = comp(r, init);
    let inc = rks::check(r, c, &f, &RksOptions { engine: RksEngine::Incremental, want_trace: true });
    let glo = rks::check(r, c, &f, &RksOptions { engine: RksEngine::Global, want_trace: true });
    assert_eq!(glo.holds, expected, "global engine: {spec} from {init}");
    assert_eq!(inc.holds, expected, "incremental engine: {spec} from {init}");
    assert_eq!(inc.trace, glo.trace, "traces are built from the global labelling");
    // Every context stored ternary (as for components with many exits) gives the same verdict.
    let fm = rks::formula::Formula::from_ctl(&f);
    let icc = |g| rks::initial_context(r, &fm, c, g);
    for incremental in [true, false] {
        let mut core = rks::local::Core::new(r, &fm);
        core.max_enumerated_maybes = 0;
        let v = if incremental { rks::incremental::run(&mut core, c, &icc(fm.root)) } else { rks::global::run(&mut core, c, &icc) };
        assert_eq!(v, xmv_rs::check::kleene::Kleene::from_bool(expected), "ternary contexts, incremental={incremental}: {spec}");
    }
    let wants_trace = (f.is_universal() && !expected)
        || (expected && matches!(f, xmv_rs::ctl::Ctl::EX(_) | xmv_rs::ctl::Ctl::EF(_) | xmv_rs::ctl::Ctl::EG(_) | xmv_rs::ctl::Ctl::EU(..)));
    assert_eq!(inc.trace.is_some(), wants_trace, "trace presence for {spec}");
    if let Some(t) = &inc.trace {
        assert_eq!(t.kind == TraceKind::Counterexample, !expected);
        validate_run(r, c, t);
    }
    inc
}

/// A configuration of a run, as this test's own successor function sees it.
#[derive(Clone, Debug, PartialEq, Eq)]
enum RksStep {
    At { component: ComponentId, node: NodeId, stack: Vec<(ComponentId, NodeId)> },
    Terminated,
}

fn step_of(s: &TraceStep) -> RksStep {
    if s.terminated {
        RksStep::Terminated
    } else {
        RksStep::At { component: ComponentId::from_u32(s.component), node: NodeId::from_u32(s.state), stack: frames(&s.stack) }
    }
}

fn frames(stack: &[CallFrame]) -> Vec<(ComponentId, NodeId)> {
    stack.iter().map(|f| (ComponentId::from_u32(f.component), NodeId::from_u32(f.call))).collect()
}

/// Successor configurations, written independently of the engine (digest §1.4).
fn successors(r: &RecursiveKripkeStructure, s: &RksStep) -> Vec<RksStep> {
    let RksStep::At { component, node, stack } = s else { return vec![RksStep::Terminated] };
    let comp = &r.components[component.index()];
    if let Some(k) = comp.exits.iter().position(|&x| x == *node) {
        return match stack.split_last() {
            None => match r.termination {
                TerminationRule::Trap => vec![RksStep::Terminated],
                TerminationRule::Loop => vec![s.clone()],
            },
            Some((&(cs, call), rest)) => {
                r.components[cs.index()].returns(call, k).iter().map(|&l| RksStep::At { component: cs, node: l, stack: rest.to_vec() }).collect()
            }
        };
    }
    comp.succ
        .neighbours(*node)
        .iter()
        .map(|&x| {
            if comp.is_call(x) {
                let mut st = stack.clone();
                st.push((*component, x));
                RksStep::At { component: comp.call_target[x.index()], node: NodeId::ENTRY, stack: st }
            } else {
                RksStep::At { component: *component, node: x, stack: stack.clone() }
            }
        })
        .collect()
}

fn validate_run(r: &RecursiveKripkeStructure, init: ComponentId, t: &Trace) {
    let steps: Vec<RksStep> = t.steps.iter().map(step_of).collect();
    assert_eq!(steps[0], RksStep::At { component: init, node: NodeId::ENTRY, stack: vec![] });
    for w in steps.windows(2) {
        assert!(successors(r, &w[0]).contains(&w[1]), "{:?} is not a successor of {:?}", w[1], w[0]);
    }
    if let Some(i) = t.loop_start {
        let mut back = steps[i].clone();
        if let RksStep::At { stack, .. } = &mut back {
            stack.extend_from_slice(&frames(&t.loop_push));
        }
        let last = steps.last().unwrap();
        assert!(successors(r, last).contains(&back), "loop does not close: {back:?} after {last:?}");
    } else {
        assert!(t.loop_push.is_empty());
    }
}

// ---------------------------------------------------------------------------------------------
// §7.1, §7.2: plain Kripke structures as a single component without exit.

#[test]
fn fig_2_1_uninitialised_read() {
    let r = parse_rks(
        "props defX defY useX useY\n sub M\n loc decl if x5{defX} y2{defY} print{useX} term\n \
         edge decl->if if->x5 if->y2 x5->print y2->print print->term term->term",
    )
    .unwrap();
    verdict(&r, "M", "!E[!defX U useX]", false);
    verdict(&r, "M", "E[!defX U useX]", true);
}

#[test]
fn fig_2_2_kripke_structure() {
    let r = parse_rks("sub K\n loc s0{p,r} s1{p,r} s2{p} s3{q,r} s4{s}\n edge s0->s1 s0->s2 s1->s3 s2->s3 s3->s3 s3->s4 s4->s3").unwrap();
    for (spec, v) in [
        ("AX p", true),
        ("EX p", true),
        ("A[p U q]", true),
        ("EG r", true),
        ("EG p", false),
        ("AF q", true),
        ("AF s", false),
        ("AX AX EG q", true),
        ("A[p U E[q U s]]", true),
    ] {
        verdict(&r, "K", spec, v);
    }
}

// ---------------------------------------------------------------------------------------------
// §7.3 Figures 2.3–2.5: the C program with calls m2c, m4c, a3c (labels added at b3 and m5).

#[test]
fn fig_2_3_program_runs() {
    let r = parse_rks(
        "sub M in m2 out m5\n loc m2 m3 m4 m5{end}\n call m2c->A m4c->A\n edge m2->m2c->m3->m4->m4c->m5\n\
         sub A in a2 out a4\n loc a2 a3 a4\n call a3c->B\n edge a2->a3->a3c->a4\n\
         sub B in b2 out b5\n loc b2 b3{reset} b5\n edge b2->b3->b5 b2->b5",
    )
    .unwrap();
    verdict(&r, "M", "AF end", true);
    verdict(&r, "M", "EF reset", true);
    verdict(&r, "M", "AF reset", false);
    verdict(&r, "M", "EG !end", false);
    verdict(&r, "M", "AG (end -> AX AG !end)", true);
    // The witness of EF reset enters B through m2c and a3c.
    let res = verdict(&r, "M", "EF reset", true);
    let t = res.trace.unwrap();
    let (m, a, b) = (comp(&r, "M"), comp(&r, "A"), comp(&r, "B"));
    assert_eq!(
        step_of(t.steps.last().unwrap()),
        RksStep::At { component: b, node: node(&r, b, "b3"), stack: vec![(m, node(&r, m, "m2c")), (a, node(&r, a, "a3c"))] }
    );
    assert_eq!(t.steps.len(), 5);
}

// ---------------------------------------------------------------------------------------------
// §7.4 Figure 3.1: call contexts and equivalence classes.

const FIG_3_1: &str = "sub A in a1 out a8\n loc a1{LA1} a5{p} a6{p} a7{p,q} a8\n call a2->B a3->B a4->B\n \
     edge a1->a2 a1->a3 a1->a4 a2->a5 a3->a6 a4->a7 a5->a5 a6->a8 a7->a7\n\
     sub B in b1 out b3\n loc b1{LB1} b3{p}\n call b2->B\n edge b1->b2 b1->b3 b2->b3";

#[test]
fn fig_3_1_contexts() {
    let plain = parse_rks(&FIG_3_1.replace("{LA1}", "").replace("{LB1}", "")).unwrap();
    verdict(&plain, "A", "EG p", false);
    verdict(&plain, "A", "E[(EG p) U q]", false);
    verdict(&plain, "A", "EF (q & EG p)", true);
    // With p at both entries: EG p via the infinite recursion b1 b2 b1 …, and E[EG p U q] via a4.
    let labelled = parse_rks(&FIG_3_1.replace("{LA1}", "{p}").replace("{LB1}", "{p}")).unwrap();
    verdict(&labelled, "A", "EG p", true);
    verdict(&labelled, "A", "E[(EG p) U q]", true);
    verdict(&labelled, "A", "AG p", false);
    // The contexts of EG p under which B is called: a2, a4 → t; a3 → f (a6 reaches a8 without p).
    let f = parse_ctl("EG p", &plain).unwrap();
    let fm = rks::formula::Formula::from_ctl(&f);
    let mut core = rks::local::Core::new(&plain, &fm);
    let a = comp(&plain, "A");
    let icc = |g| rks::initial_context(&plain, &fm, a, g);
    rks::global::run(&mut core, a, &icc);
    use xmv_rs::check::kleene::Kleene::{False as F, True as T};
    assert_eq!(icc(fm.root), vec![F]);
    for (call, ctx) in [("a2", T), ("a3", F), ("a4", T)] {
        assert_eq!(core.cc(a, node(&plain, a, call), fm.root, &[F]).to_vec(), vec![ctx], "context of {call}");
    }
    // One pair per equivalence class: (A, f), (B, t), (B, f).
    assert_eq!(core.finish_stats().context_pairs_created, 3);
}

// ---------------------------------------------------------------------------------------------
// §7.5 Figure 3.2: the cc function, with the caller X of the figure made concrete.

#[test]
fn fig_3_2_call_context_function() {
    use xmv_rs::check::kleene::Kleene::{False as F, True as T};
    let base = "sub X in x0 out x3\n loc x0 x2{L} x3\n call x1->A\n edge x0->x1->x2 EDGE\n\
                sub A in a1 out a3\n loc a1 a3{p}\n call a2->B\n edge a1->a2->a3\n sub B in b1 out b1\n loc b1";
    for (labels, edge, spec, a_ctx, expected) in [("{p}", "x2->x2", "EG p", T, T), ("{p}", "x2->x3", "EG p", F, F), ("{q}", "x2->x2", "EG q", T, F)] {
        let r = parse_rks(&base.replace("{L}", labels).replace("EDGE", edge)).unwrap();
        let f = parse_ctl(spec, &r).unwrap();
        let fm = rks::formula::Formula::from_ctl(&f);
        let mut core = rks::local::Core::new(&r, &fm);
        let (x, a) = (comp(&r, "X"), comp(&r, "A"));
        let icc = |g| rks::initial_context(&r, &fm, x, g);
        rks::global::run(&mut core, x, &icc);
        assert_eq!(core.cc(x, node(&r, x, "x1"), fm.root, &icc(fm.root)).to_vec(), vec![a_ctx], "{spec}: A's context");
        assert_eq!(core.cc(a, node(&r, a, "a2"), fm.root, &[a_ctx]).to_vec(), vec![expected], "{spec}: cc(a2)");
    }
}

// ---------------------------------------------------------------------------------------------
// §7.6 Figures 3.3 / 3.5: EG p on two mutually recursive components; final κ table.

#[test]
fn fig_3_3_fixpoint() {
    use xmv_rs::check::kleene::Kleene::{False as F, True as T};
    let r = parse_rks(
        "sub A in a1 out a5\n loc a1{p} a4{p} a5{p}\n call a2->B a3->B\n edge a1->a2 a1->a3 a2->a5 a3->a4 a4->a4\n\
         sub B in b1 out b3\n loc b1{p} b3{p}\n call b2->A\n edge b1->b2 b1->b3 b2->b3",
    )
    .unwrap();
    verdict(&r, "A", "EG p", true);
    verdict(&r, "A", "!EG p", false);
    verdict(&r, "A", "AF !p", false);
    let f = parse_ctl("EG p", &r).unwrap();
    let fm = rks::formula::Formula::from_ctl(&f);
    let mut core = rks::local::Core::new(&r, &fm);
    let (a, b) = (comp(&r, "A"), comp(&r, "B"));
    rks::global::run(&mut core, a, &|g| rks::initial_context(&r, &fm, a, g));
    let at = |c, n: &str, ctx| core.get(fm.root, c, &[ctx], node(&r, c, n));
    for (ctx, a1, a4, a5) in [(F, T, T, F), (T, T, T, T)] {
        assert_eq!((at(a, "a1", ctx), at(a, "a4", ctx), at(a, "a5", ctx)), (a1, a4, a5), "A under {ctx:?}");
    }
    for (ctx, b1, b3) in [(F, T, F), (T, T, T)] {
        assert_eq!((at(b, "b1", ctx), at(b, "b3", ctx)), (b1, b3), "B under {ctx:?}");
    }
}

// ---------------------------------------------------------------------------------------------
// §7.8 Figure 3.6: remaining maybes after the fixpoint.

#[test]
fn fig_3_6_remaining_maybes() {
    let r = parse_rks("sub A in a1 out a3\n loc a1{p} a3{q}\n call a2->A\n edge a1->a2->a3").unwrap();
    verdict(&r, "A", "EG p", true);
    verdict(&r, "A", "E[p U q]", false);
    verdict(&r, "A", "AF q", false);
    verdict(&r, "A", "AG p", true);
    // The witness of EG p is a lasso through the recursion: each round pushes a2.
    let t = verdict(&r, "A", "EG p", true).trace.unwrap();
    let a = comp(&r, "A");
    assert_eq!(frames(&t.loop_push), vec![(a, node(&r, a, "a2"))]);
}

// ---------------------------------------------------------------------------------------------
// §7.9 Figure 3.7: nested EF formulae on R_a and R_b (Tables 3.1–3.5).

const PHI: &str = "EF (p & EF (q & EF (p & EF (q & EF p))))";

#[test]
fn fig_3_7_nested_ef() {
    use xmv_rs::check::kleene::Kleene::{False as F, True as T};
    let ra = parse_rks(
        "sub A in a1 out a3\n loc a1{q} a3\n call a2->B\n edge a1->a2->a3 a1->a3\n\
         sub B in b1 out b3\n loc b1{p} b3\n call b2->A\n edge b1->b2->b3 b1->b3",
    )
    .unwrap();
    let rb = parse_rks(
        "sub C in c1 out c3\n loc c1 c3{q}\n call c2->D\n edge c1->c2->c3 c1->c3\n\
         sub D in d1 out d3\n loc d1 d3{p}\n call d2->C\n edge d1->d2->d3 d1->d3",
    )
    .unwrap();
    for spec in ["EF p", "EF (q & EF p)", "EF (p & EF (q & EF p))", "EF (q & EF (p & EF (q & EF p)))", PHI] {
        verdict(&ra, "A", spec, true);
        verdict(&rb, "C", spec, true);
    }
    // Table 3.3: φ1 = EF p in R_b.
    let f = parse_ctl("EF p", &rb).unwrap();
    let fm = rks::formula::Formula::from_ctl(&f);
    let mut core = rks::local::Core::new(&rb, &fm);
    let (c, d) = (comp(&rb, "C"), comp(&rb, "D"));
    rks::global::run(&mut core, c, &|g| rks::initial_context(&rb, &fm, c, g));
    let at = |s, n: &str, ctx| core.get(fm.root, s, &[ctx], node(&rb, s, n));
    assert_eq!([at(c, "c1", F), at(c, "c1", T), at(c, "c3", F), at(c, "c3", T)], [T, T, F, T]);
    assert_eq!([at(d, "d1", F), at(d, "d1", T), at(d, "d3", F), at(d, "d3", T)], [T, T, T, T]);
    // Table 3.4: φ2 = EF (q & φ1); contexts list (φ1, φ2) assumptions.
    let f2 = parse_ctl("EF (q & EF p)", &rb).unwrap();
    let fm2 = rks::formula::Formula::from_ctl(&f2);
    let mut core2 = rks::local::Core::new(&rb, &fm2);
    rks::global::run(&mut core2, c, &|g| rks::initial_context(&rb, &fm2, c, g));
    let at2 = |s, n: &str, phi2, phi1| core2.get(fm2.root, s, &[phi1, phi2], node(&rb, s, n));
    // (φ2, φ1) = ff: c1 t, c3 f, d1 t, d3 f;  tt: all t.
    assert_eq!([at2(c, "c1", F, F), at2(c, "c3", F, F), at2(d, "d1", F, F), at2(d, "d3", F, F)], [T, F, T, F]);
    assert_eq!([at2(c, "c1", T, T), at2(c, "c3", T, T), at2(d, "d1", T, T), at2(d, "d3", T, T)], [T, T, T, T]);
    assert_eq!([at2(d, "d1", F, T), at2(d, "d3", F, T)], [T, F]);
}

// ---------------------------------------------------------------------------------------------
// §7.10 Figures 4.1/4.2: incremental checking never touches D.

#[test]
fn fig_4_1_incremental_order() {
    let r = parse_rks(
        "sub A in a1 out a4\n loc a1{p} a3{p} a4{p}\n call a2->B\n edge a1->a2 a1->a3 a2->a3 a3->a3\n\
         sub B in b1 out b3\n loc b1{p} b3{q}\n call b2->C\n edge b1->b2 b1->b3 b2->b3\n\
         sub C in c1 out c4\n loc c1{p} c2{p} c4\n call c3->D\n edge c1->c1 c1->c2 c2->c3 c3->c4\n\
         sub D in d1 out d1\n loc d1",
    )
    .unwrap();
    verdict(&r, "A", "E[(EG p) U q]", true);
    let f = parse_ctl("E[(EG p) U q]", &r).unwrap();
    let fm = rks::formula::Formula::from_ctl(&f);
    let mut core = rks::local::Core::new(&r, &fm);
    let a = comp(&r, "A");
    let v = rks::incremental::run(&mut core, a, &rks::initial_context(&r, &fm, a, fm.root));
    assert_eq!(v, xmv_rs::check::kleene::Kleene::True);
    let d = comp(&r, "D");
    assert!(core.kb.pairs.iter().all(|p| p.comp != d), "no κ entry for D");
    // C is only partly labelled for EG p: c1 decided, c2 not.
    let c = comp(&r, "C");
    let eg = fm.deps[fm.root][0];
    let cp: Vec<_> = core.kb.pairs.iter().filter(|p| p.comp == c).collect();
    assert!(!cp.is_empty() && cp.iter().all(|p| p.node == eg));
    assert!(cp.iter().any(|p| p.vals[0] == xmv_rs::check::kleene::Kleene::True && p.vals[node(&r, c, "c2").index()] == xmv_rs::check::kleene::Kleene::Unknown));
}

// ---------------------------------------------------------------------------------------------
// §7.11 Listing 5.1: the non-recursive module (12 states, 16 transitions).

#[test]
fn listing_5_1() {
    let r = parse_rks(
        "sub main\n loc 0s1F{cr_reset} 1s2F{in_state2} 1s3F 2s2F{in_state2} 2s3F 2s1F 0s1T{cr_reset} 1s2T{in_state2} 1s3T 2s2T{in_state2} 2s3T 2s1T\n \
         edge 0s1F->1s2F 0s1F->1s3F 0s1T->1s2T 0s1T->1s3T 1s2F->2s2F 1s2T->2s2T 1s3F->2s3F 1s3F->2s1F 1s3T->2s3T 1s3T->2s1T\n \
         edge 2s2F->0s1T 2s2T->0s1F 2s3F->0s1T 2s3T->0s1F 2s1F->0s1T 2s1T->0s1F",
    )
    .unwrap();
    assert_eq!(r.components[0].succ.edge_count(), 16);
    verdict(&r, "main", "AG (in_state2 -> cr_reset)", false);
    verdict(&r, "main", "E [ in_state2 U cr_reset ]", true);
}

// ---------------------------------------------------------------------------------------------
// §7.12 Listing 5.2: foo and bar call each other on every path (label on call b2 removed).

#[test]
fn listing_5_2() {
    let r = parse_rks(
        "sub foo in f1 out fx\n loc f1{q} fx{p}\n call f2->bar\n edge f1->f2->fx\n\
         sub bar in b1 out bx\n loc b1{q,y} b3 b5 bx{q,x}\n call b2->foo b4->foo\n edge b1->b2->b3->bx b1->b4->b5->bx",
    )
    .unwrap();
    verdict(&r, "foo", "E [q U p]", false);
    verdict(&r, "foo", "EF q", true);
    verdict(&r, "foo", "EF p", false);
    verdict(&r, "bar", "EF x", false);
    verdict(&r, "bar", "y", true);
}

// ---------------------------------------------------------------------------------------------
// §7.13: EG through a call/return cycle and the FIX-1/2/3 cases.

#[test]
fn eg_through_call_return_cycle() {
    let r = parse_rks("sub A in a1 out a3\n loc a1{p} a3\n call a2->B\n edge a1->a2->a1 a1->a3\n sub B in b1 out b1\n loc b1{p}").unwrap();
    let t = verdict(&r, "A", "EG p", true).trace.unwrap();
    assert!(t.loop_start.is_some() && t.loop_push.is_empty());
    verdict(&r, "A", "AF !p", false);
}

#[test]
fn fix_1_twins() {
    use xmv_rs::check::kleene::Kleene::{False as F, True as T};
    let r = parse_rks("sub A in a0 out a1\n loc a0{p,q} a1{q}\n call ac0->A ac1->A\n edge a0->ac1->a0 ac0->a1").unwrap();
    verdict(&r, "A", "EG E[q U p]", true);
    // κ entries of the incremental engine agree with the global engine wherever both decided.
    let f = parse_ctl("EG E[q U p]", &r).unwrap();
    let fm = rks::formula::Formula::from_ctl(&f);
    let a = comp(&r, "A");
    let icc = |g| rks::initial_context(&r, &fm, a, g);
    let mut inc = rks::local::Core::new(&r, &fm);
    rks::incremental::run(&mut inc, a, &icc(fm.root));
    let mut glo = rks::local::Core::new(&r, &fm);
    rks::global::run(&mut glo, a, &icc);
    assert_kb_agree(&inc, &glo);
    let _ = (T, F);
}

fn assert_kb_agree(inc: &rks::local::Core, glo: &rks::local::Core) {
    let mut compared = 0;
    for p in &inc.kb.pairs {
        let ctx = inc.kb.ctxs.get(p.ctx).to_vec();
        for (l, &v) in p.vals.iter().enumerate() {
            let g = glo.get(p.node, p.comp, &ctx, NodeId::new(l));
            if v.is_known() && g.is_known() {
                assert_eq!(v, g, "node {} comp {} ctx {:?} loc {}", p.node, p.comp, ctx, l);
                compared += 1;
            }
        }
    }
    assert!(compared > 0);
}

#[test]
fn fix_2_ex_horizontal() {
    let r = parse_rks("sub A in a0 out a1\n loc a0 a1\n call ac0->B\n edge a0->ac0->a1\n sub B in b0 out b0\n loc b0{q}").unwrap();
    verdict(&r, "A", "EX !q", false);
    verdict(&r, "A", "AX q", true);
}

#[test]
fn fix_3_inner_maybe() {
    let r = parse_rks(
        "sub A in a0 out a2\n loc a0{q} a1 a2{q}\n call ac0->B ac1->A\n edge a0->ac1 a0->a2 a1->ac0 a1->ac1 ac0->a0 ac1->a1\n\
         sub B in b0 out b0\n loc b0{q}\n call bc0->A\n edge bc0->b0",
    )
    .unwrap();
    verdict(&r, "A", "EG EG E[EX q U !TRUE]", false);
    verdict(&r, "A", "EG EG E[EX q U EX !q]", true); // a0 → a2 → l_term: EX !q at a2 and l_term
    verdict(&r, "A", "AG AF q", false);
}

// ---------------------------------------------------------------------------------------------
// Several exits and the termination rules.

const PARSE: &str = "sub main in s0 out done\n loc s0 ok{fine} handler{err} done\n call c->parse\n \
     edge s0->c ok->done handler->done\n ret c.ok->ok c.error->handler\n\
     sub parse in start out ok:pok error:pbad\n loc start pok{p} pbad\n edge start->pok start->pbad";

#[test]
fn multi_exit_returns_by_exit() {
    let r = parse_rks(PARSE).unwrap();
    verdict(&r, "main", "EF err", true);
    verdict(&r, "main", "AG !err", false);
    verdict(&r, "main", "AG (p -> AX fine)", true);
    verdict(&r, "main", "AG (p -> AX err)", false);
    verdict(&r, "main", "EF (p & EX fine)", true);
    verdict(&r, "main", "AF (fine | err)", true);
    verdict(&r, "main", "E[!err U fine]", true);
    verdict(&r, "parse", "EF p", true);
    verdict(&r, "parse", "AX p", false);
}

#[test]
fn multi_exit_recursion() {
    // P either exits through `out` or recurses; a recursive return through `err` is rethrown.
    let r = parse_rks(
        "sub main in m0 out mx\n loc m0 mok{ok} merr{bad} mx\n call mc->P\n edge m0->mc mok->mx merr->mx\n ret mc.out->mok mc.err->merr\n\
         sub P in p0 out out:px err:pe\n loc p0{a} p1 px pe{e}\n call pc->P\n edge p0->pc p0->px p1->pe\n ret pc.out->px pc.err->p1",
    )
    .unwrap();
    verdict(&r, "main", "EF bad", false);
    verdict(&r, "main", "EF ok", true);
    verdict(&r, "main", "EX EG a", true);
    verdict(&r, "main", "AF ok", false);
    verdict(&r, "P", "EF e", false);
}

#[test]
fn termination_rules() {
    let trap = parse_rks("sub A in a0 out a1\n loc a0 a1{p}\n edge a0->a1").unwrap();
    let lp = parse_rks("termination loop\n sub A in a0 out a1\n loc a0 a1{p}\n edge a0->a1").unwrap();
    verdict(&trap, "A", "EF EG p", false);
    verdict(&lp, "A", "EF EG p", true);
    verdict(&trap, "A", "AF AX !p", true);
    verdict(&lp, "A", "AG (p -> AX p)", true);
    verdict(&trap, "A", "AG (p -> AX p)", false);
    let t = verdict(&trap, "A", "AG (p -> AX p)", false).trace.unwrap();
    assert_eq!(t.steps.len(), 2);
    // Under the loop rule a lasso ends on the exit configuration itself.
    let t = verdict(&lp, "A", "EF EG p", true).trace.unwrap();
    assert!(t.loop_start.is_none());
}

#[test]
fn check_many_matches_check_and_is_deterministic() {
    let r = parse_rks(PARSE).unwrap();
    let (main, parse) = (comp(&r, "main"), comp(&r, "parse"));
    let texts = ["EF err", "AG !err", "AF (fine | err)", "EX TRUE", "EG !fine", "EF p", "AX p", "AG (p -> AX fine)"];
    let specs: Vec<_> = (0..80).map(|i| (if i % 3 == 0 { parse } else { main }, parse_ctl(texts[i % texts.len()], &r).unwrap())).collect();
    for engine in [RksEngine::Incremental, RksEngine::Global, RksEngine::Summary] {
        let opts = RksOptions { engine, want_trace: true };
        let pool = |n| rayon::ThreadPoolBuilder::new().num_threads(n).build().unwrap();
        let one = pool(1).install(|| rks::check_many(&r, &specs, &opts));
        let two = pool(2).install(|| rks::check_many(&r, &specs, &opts));
        for (((c, f), a), b) in specs.iter().zip(&one).zip(&two) {
            let single = rks::check(&r, *c, f, &opts);
            assert_eq!(a.holds, single.holds);
            assert_eq!(a.trace, single.trace);
            assert_eq!((a.holds, &a.stats), (b.holds, &b.stats), "thread count changed a result");
        }
        // The shared knowledge base makes repeated specs free.
        assert_eq!(one[texts.len() * 3].stats.context_pairs_created, 0);
    }
}

// ---------------------------------------------------------------------------------------------
// Dubslaff et al. 2024 (dubslaff-2024-digest.md §4), loop termination rule (RSMCheck). A box's
// call node is our call (C-semantics = transparent calls); return nodes become `ret` rows.

#[test]
fn dubslaff_conference_fig_2() {
    let r = parse_rks(
        "termination loop\n sub A1 in n1 out n4:n4 n5:n5\n loc n1{red} n2{blue} n3{red} n4{black} n5{blue}\n call b->A2\n \
         edge n1->b n1->n3 n2->b n3->n5\n ret b.n7->n2 b.n7->n4\n sub A2 in n6 out n7:n7\n loc n6{blue} n7{blue}\n edge n6->n7",
    )
    .unwrap();
    verdict(&r, "A1", "EX EG blue", true);
    verdict(&r, "A1", "EX E[blue U black]", true);
    verdict(&r, "A1", "AX E[blue U red]", false);
    verdict(&r, "A1", "EX red | EX E[blue U black]", true);
}

#[test]
fn dubslaff_journal_fig_3() {
    // Built from ../shared/papers/dubslaff-2024-fig3.rsm.json by hand: b1 recursive (exits
    // alternate n4 ↔ n5 on return), b2 calls A2.
    let r = parse_rks(
        "termination loop\n sub a1 in n1 out n4:n4 n5:n5\n loc n1{red} n2{blue} n4{black} n5{blue}\n call b1->a1 b2->a2\n \
         edge n1->b1 n1->b2 n2->b2\n ret b2.n6->n2 b2.n6->n4 b1.n4->n5 b1.n5->n4\n\
         sub a2 in n3 out n6:n6\n loc n3{blue} n6{blue}\n edge n3->n6",
    )
    .unwrap();
    for (spec, v) in [
        ("EG red", true),
        ("EF EG black", true),
        ("EX blue | !EX blue", true),
        ("EF EG blue", true),
        ("EF black", true),
        ("EG blue", false),
        ("EX red | EX E[blue U black]", true),
        ("AX E[blue U red]", false),
        ("EG black", false),
        ("EX EG blue", true),
        ("AG (blue -> EF black)", false),
        ("EF EG red", true),
    ] {
        verdict(&r, "a1", spec, v);
    }
    // The counterexample to AG (blue -> EF black) ends in (ε, n5), reached through b1.
    let t = verdict(&r, "a1", "AG (blue -> EF black)", false).trace.unwrap();
    let a1 = comp(&r, "a1");
    assert_eq!(step_of(t.steps.last().unwrap()), RksStep::At { component: a1, node: node(&r, a1, "n5"), stack: vec![] });
    // EG red is witnessed by the infinite recursion through b1 alone.
    let t = verdict(&r, "a1", "EG red", true).trace.unwrap();
    assert_eq!((t.steps.len(), frames(&t.loop_push)), (1, vec![(a1, node(&r, a1, "b1"))]));
}

#[test]
fn dubslaff_simple_and_x_pinning() {
    // models/simple.rsm: the return node leads straight into the box again; a virtual
    // location v (labelled like the callee's entry) stands between return and call.
    let r = parse_rks(
        "termination loop\n sub c1 in n11 out n12\n loc n11{a} n12{b} v{a}\n call b11->c2\n edge n11->b11 v->b11 b11->n12 b11->v\n\
         sub c2 in n21 out n22\n loc n21{a} n22{a}\n edge n21->n22",
    )
    .unwrap();
    verdict(&r, "c1", "EG a", true);
    verdict(&r, "c1", "E[a U b]", true);
    // §4.5: EX EX q at m sees the callee's second location (C-semantics).
    let r = parse_rks("termination loop\n sub A1 in m out z\n loc m z\n call b->A2\n edge m->b->z\n sub A2 in en out ex\n loc en{p} x{q} ex\n edge en->x->ex")
        .unwrap();
    verdict(&r, "A1", "EX EX q", true);
    verdict(&r, "A1", "EX p", true);
    // Loop rule at a top-level exit: EG p, E[q U p], EX p all read the exit's own labels.
    let r = parse_rks("termination loop\n sub A in a0 out a1\n loc a0{q} a1{p}\n edge a0->a1").unwrap();
    verdict(&r, "A", "EX EG p", true);
    verdict(&r, "A", "EX E[q U p]", true);
    verdict(&r, "A", "EX EX p", true);
}

#[test]
fn many_exits_use_ternary_contexts() {
    // P recurses or exits through e0; a return through e_i leaves through e_(i+1 mod 6), so the
    // outermost exit is the recursion depth mod 6. Six undecided exit tops exceed what is
    // enumerated as twins: the engines store ternary contexts here.
    let mut text = String::from("sub main in m0 out mx\n loc m0 mx r0{k0} r1{k1} r2{k2} r3{k3} r4{k4} r5{k5}\n call mc->P\n edge m0->mc\n ret");
    for i in 0..6 {
        text += &format!(" mc.e{i}->r{i}");
    }
    text += "\n edge r0->mx r1->mx r2->mx r3->mx r4->mx r5->mx\nsub P in p0 out";
    for i in 0..6 {
        text += &format!(" e{i}:x{i}");
    }
    text += "\n loc p0{a} x0 x1 x2 x3 x4 x5\n call pc->P\n edge p0->x0 p0->pc\n ret";
    for i in 0..6 {
        text += &format!(" pc.e{i}->x{}", (i + 1) % 6);
    }
    let r = parse_rks(&text).unwrap();
    for i in 0..6 {
        verdict(&r, "main", &format!("EF k{i}"), true);
        verdict(&r, "main", &format!("AG !k{i}"), false);
    }
    verdict(&r, "main", "EX EG a", true);
    verdict(&r, "main", "AF (k0 | k1 | k2 | k3 | k4 | k5)", false);
    verdict(&r, "main", "AG (a -> EF k5)", true);
    verdict(&r, "main", "E[!k2 U k3]", true);
    verdict(&r, "P", "EF a", true);
    // The witness of EF k3 recurses three times below the first call.
    let t = verdict(&r, "main", "EF k3", true).trace.unwrap();
    let depth = t.steps.iter().filter_map(|s| (!s.terminated).then_some(s.stack.len())).max();
    assert_eq!(depth, Some(4));
    // The global engine collects P with six undecided tops: a ternary pair.
    let f = parse_ctl("EF k3", &r).unwrap();
    let fm = rks::formula::Formula::from_ctl(&f);
    let main = comp(&r, "main");
    let mut core = rks::local::Core::new(&r, &fm);
    rks::global::run(&mut core, main, &|g| rks::initial_context(&r, &fm, main, g));
    assert!(core.kb.pairs.iter().any(|p| core.kb.ctxs.get(p.ctx).iter().filter(|&&v| v == xmv_rs::check::kleene::Kleene::Unknown).count() > 4));
}
