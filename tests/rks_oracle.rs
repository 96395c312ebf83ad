//! Tests of the trust layer itself: the brute-force RKS oracle against the hand-computed verdicts
//! of the worked examples (Finis 2012 digest §7, Dubslaff et al. 2024 digest §4.5), the unfolding
//! against the thesis's example run, and the generator's well-formedness.

mod rks_support;

use rks_support::ctl_text;
use rks_support::examples::*;
use rks_support::model::Model;
use rks_support::oracle::{self, Config, Unfolding, Verdict};
use rks_support::random::{self, GenParams, Rng};

const DEPTH: usize = 12;
const STATES: usize = 200_000;

/// The oracle's verdict for `formula` with `initial` (a component name) as S_in.
fn verdict(model: &Model, initial: &str, formula: &str) -> (Verdict, bool) {
    let rks = model.build();
    let f = ctl_text::parse(formula, &model.props);
    oracle::check(&rks, model.comp_index(initial) as u32, &f, DEPTH, STATES)
}

fn expect(expected: bool) -> Verdict {
    if expected { Verdict::Holds } else { Verdict::Fails }
}

/// The oracle must decide `formula` exactly (complete unfolding) and give `expected`.
fn assert_exact(model: &Model, initial: &str, formula: &str, expected: bool) {
    let rks = model.build();
    let u = Unfolding::new(&rks, model.comp_index(initial) as u32, DEPTH, STATES).expect("small model");
    assert!(u.is_complete(), "{formula}: unfolding should be complete");
    let v = u.verdict(&ctl_text::parse(formula, &model.props));
    assert_eq!(v, expect(expected), "{formula} at {initial}");
}

/// The oracle (bounded, on a recursive model) must decide `formula` and give `expected`.
fn assert_decided(model: &Model, initial: &str, formula: &str, expected: bool) {
    let (v, complete) = verdict(model, initial, formula);
    assert!(!complete, "{formula}: model expected to be recursive");
    assert_eq!(v, expect(expected), "{formula} at {initial}");
}

/// A bounded unfolding cannot decide `formula` (it depends on infinite recursion); it must say
/// so rather than guess.
fn assert_undecidable_by_bound(model: &Model, initial: &str, formula: &str) {
    assert_eq!(verdict(model, initial, formula), (Verdict::Unknown, false), "{formula}");
}

#[test]
fn finis_fig_1_1_uninitialised_read() {
    let m = Model::parse(FIG_1_1);
    assert_exact(&m, "main", "!E [ !defX U useX ]", false);
    assert_exact(&m, "main", "E [ !defY U useX ]", true);
    // The same with the print statement as the exit and the trap rule supplying the trap state.
    let with_exit = FIG_1_1.replace("component main", "component main exits print").replace("  edge print term\n", "");
    let m = Model::parse(&with_exit);
    assert_exact(&m, "main", "!E [ !defX U useX ]", false);
    assert_exact(&m, "main", "AF AG !(defX | defY | useX | useY)", true);
}

#[test]
fn finis_fig_2_2_flat_structure() {
    let m = Model::parse(FIG_2_2);
    for (f, expected) in [
        ("AX p", true),
        ("EX p", true),
        ("A [ p U q ]", true),
        ("EG r", true),
        ("EG p", false),
        ("AF q", true),
        ("AF s", false),
        ("AX AX EG q", true),
        ("A [ p U E [ q U s ] ]", true),
    ] {
        assert_exact(&m, "K", f, expected);
    }
}

#[test]
fn finis_fig_2_5_run_is_a_path_of_the_unfolding() {
    let m = Model::parse(FIG_2_3);
    let rks = m.build();
    let u = Unfolding::new(&rks, 0, 10, 1000).expect("small");
    assert!(u.is_complete());
    // Configurations named as in the thesis: the call names on the stack (without c_in), the location.
    let name = |s: usize| match &u.configs[s] {
        Config::Term => "l_term".to_string(),
        Config::At { stack, comp, node } => {
            let calls: Vec<String> = stack.iter().map(|&(c, n)| m.comps[c as usize].nodes[n as usize].name.clone()).collect();
            format!("[{}] {}", calls.join(","), m.comps[*comp as usize].nodes[*node as usize].name)
        }
    };
    let run = [
        "[] m2",
        "[m2c] a2",
        "[m2c] a3",
        "[m2c,a3c] b2",
        "[m2c,a3c] b5",
        "[m2c] a4",
        "[] m3",
        "[] m4",
        "[m4c] a2",
        "[m4c] a3",
        "[m4c,a3c] b2",
        "[m4c,a3c] b3",
        "[m4c,a3c] b5",
        "[m4c] a4",
        "[] m5",
        "l_term",
        "l_term",
    ];
    let id = |n: &str| (0..u.configs.len()).find(|&s| name(s) == n).unwrap_or_else(|| panic!("{n} not reached"));
    assert_eq!(id(run[0]), 0, "the initial configuration");
    for w in run.windows(2) {
        assert!(u.succ[id(w[0])].contains(&(id(w[1]) as u32)), "{} -> {}", w[0], w[1]);
    }
    // 4 + 2×(3 + 3) + 1 reachable configurations: M's locations, A and B under each call of A, l_term.
    assert_eq!(u.configs.len(), 4 + 2 * (3 + 3) + 1);
}

#[test]
fn finis_fig_3_3_eg_through_recursion() {
    let m = Model::parse(FIG_3_3);
    assert_decided(&m, "A", "EG p", true);
    assert_decided(&m, "A", "!EG p", false);
}

#[test]
fn finis_fig_3_6_infinite_recursion_is_out_of_reach_of_a_bound() {
    let m = Model::parse(FIG_3_6);
    // Expected EG p = t and E[p U q] = f (thesis); both depend on the infinite path.
    assert_undecidable_by_bound(&m, "A", "EG p");
    assert_undecidable_by_bound(&m, "A", "E [ p U q ]");
    assert_decided(&m, "A", "p & EX p & !q", true);
    assert_decided(&m, "A", "EX EX EX q", false);
}

#[test]
fn finis_fig_3_7_nested_ef() {
    let m = Model::parse(FIG_3_7);
    let phi = "EF (p & EF (q & EF (p & EF (q & EF p))))";
    assert_decided(&m, "A", phi, true);
    assert_decided(&m, "C", phi, true);
    assert_decided(&m, "A", "EF p", true);
    assert_decided(&m, "C", "EF (q & EF (p & EF q))", true);
}

#[test]
fn finis_fig_4_1_eu_of_eg() {
    let m = Model::parse(FIG_4_1);
    assert_exact(&m, "A", "E [ EG p U q ]", true);
    assert_exact(&m, "A", "EG p", true);
    assert_exact(&m, "B", "EG p", true);
    assert_exact(&m, "C", "EG p", true);
    assert_exact(&m, "C", "AG p", false);
}

#[test]
fn finis_listing_5_1() {
    let m = Model::parse(LISTING_5_1);
    assert_exact(&m, "main", "AG (in_state2 -> cr_reset)", false);
    assert_exact(&m, "main", "E [ in_state2 U cr_reset ]", true);
    let rks = m.build();
    let u = Unfolding::new(&rks, 0, 0, 100).expect("small");
    assert_eq!(u.configs.len(), 12);
    assert_eq!(u.succ.iter().map(|s| s.len()).sum::<usize>(), 16);
}

#[test]
fn finis_listing_5_2() {
    let m = Model::parse(LISTING_5_2);
    assert_decided(&m, "foo", "EF q", true);
    assert_decided(&m, "bar", "y", true);
    // E[q U p], EF p (foo) and EF x (bar) are false only because no exit is ever reached.
    assert_undecidable_by_bound(&m, "foo", "E [ q U p ]");
    assert_undecidable_by_bound(&m, "foo", "EF p");
    assert_undecidable_by_bound(&m, "bar", "EF x");
}

// Finis digest §7.13: additional regression tests.
#[test]
fn finis_7_13_eg_through_call_return_cycle() {
    let m = Model::parse(EG_CALL_RETURN_CYCLE);
    assert_exact(&m, "A", "EG p", true);
    assert_exact(&m, "A", "AG p", false);
}

#[test]
fn finis_7_13_fix_1_twins() {
    let m = Model::parse(FIX_1_TWINS);
    assert_undecidable_by_bound(&m, "A", "EG E [ q U p ]");
    assert_decided(&m, "A", "E [ q U p ]", true);
}

#[test]
fn finis_7_13_fix_2_ex_horizontal() {
    let m = Model::parse(FIX_2_EX_HORIZONTAL);
    assert_exact(&m, "A", "EX !q", false);
    assert_exact(&m, "A", "EX EX !q", true);
}

#[test]
fn finis_7_13_fix_3_inner_maybe() {
    let m = Model::parse(FIX_3_INNER_MAYBE);
    // Expected f (E[φ U FALSE] is false everywhere), but a bound cannot see that below the
    // cut-off; it must not claim t.
    assert_undecidable_by_bound(&m, "A", "EG EG E [ EX q U !TRUE ]");
    assert_decided(&m, "A", "E [ EX q U q ]", true);
}

// Dubslaff digest §4.5: pinning EX across calls (calls transparent, C-semantics) and the loop rule.
#[test]
fn dubslaff_ex_across_calls() {
    let m = Model::parse(EX_ACROSS_CALLS);
    assert_exact(&m, "A1", "EX EX q", true);
    assert_exact(&m, "A1", "EX p", true);
    assert_exact(&m, "A1", "EX EX EX q", false);
    assert_exact(&m, "A1", "EX EX EX EX !(p | q)", true);
}

#[test]
fn termination_rules() {
    let text = TERMINATION_BASE;
    let trap = Model::parse(&format!("termination trap\n{text}"));
    let lp = Model::parse(&format!("termination loop\n{text}"));
    for (f, under_trap, under_loop) in [
        ("EG p", false, true),
        ("AG p", false, true),
        ("EX EX p", false, true),
        ("AF !p", true, false),
        ("EX EX EX !(p | q)", true, false),
        ("E [ p U !p ]", true, false),
    ] {
        assert_exact(&trap, "A", f, under_trap);
        assert_exact(&lp, "A", f, under_loop);
    }
}

#[test]
fn several_exits_continue_at_their_own_returns() {
    // parse() returns through `ok` to `good`, through `bad` to `handler`.
    let m = Model::parse(SEVERAL_EXITS);
    assert_exact(&m, "main", "EX EX q", true);
    assert_exact(&m, "main", "AX AX (q | !q)", true);
    assert_exact(&m, "main", "EF (q & EX p)", true);
    assert_exact(&m, "main", "EF (q & EX err)", false);
    assert_exact(&m, "main", "EF (!q & !p & !err & EX err)", true);
    assert_exact(&m, "main", "AF (p | err)", true);
    assert_exact(&m, "main", "EF AG err", true);
    assert_exact(&m, "main", "EF EG !err", true);
    assert_exact(&m, "main", "AG (p -> AF AG !(p | q | err))", true);
}

#[test]
fn stack_depth_sensitivity_of_the_exit_parity() {
    // Dubslaff digest §4.2 (Fig. 3), part: each return of b1 flips n4/n5, so which exit ends the
    // run depends on the recursion depth's parity.
    let m = Model::parse(EXIT_PARITY);
    assert_decided(&m, "a1", "EF (blue & EX EX black)", true);
    assert_decided(&m, "a1", "EF EG black", true);
    assert_decided(&m, "a1", "!AG (blue -> EF black)", true);
}

#[test]
fn model_text_round_trip_and_generator_well_formed() {
    let mut rng = Rng::new(7);
    for i in 0..500 {
        let p = GenParams { recursive: i % 2 == 0, max_comps: 4, max_nodes: 6 };
        let m = random::model(&mut rng, &p);
        assert_eq!(m.well_formed(), Ok(()), "{}", m.to_text());
        assert_eq!(Model::parse(&m.to_text()), m);
        if !p.recursive {
            assert!(!m.call_graph_cyclic(0));
        }
        let f = random::formula(&mut rng, m.props.len(), 4);
        assert_eq!(ctl_text::parse(&ctl_text::print(&f, &m.props), &m.props), f);
    }
}

#[test]
fn bounded_oracle_is_consistent_with_exact_and_monotone_in_the_bound() {
    // On random models: a verdict at one bound is never contradicted at a larger bound, and for
    // non-recursive models every bound ≥ the call depth is exact.
    let mut rng = Rng::new(11);
    let (mut decided, mut total) = (0, 0);
    for i in 0..300 {
        let p = GenParams { recursive: i % 2 == 0, max_comps: 3, max_nodes: 5 };
        let m = random::model(&mut rng, &p);
        let rks = m.build();
        for _ in 0..3 {
            let f = random::formula(&mut rng, m.props.len(), 3);
            let mut seen = Verdict::Unknown;
            for depth in 0..5 {
                let Some(u) = Unfolding::new(&rks, 0, depth, 20_000) else { break };
                let v = u.verdict(&f);
                if seen != Verdict::Unknown {
                    assert_eq!(v, seen, "bound {depth} flips the verdict of {}\n{}", ctl_text::print(&f, &m.props), m.to_text());
                }
                seen = v;
                if !m.call_graph_cyclic(0) && depth >= m.comps.len() {
                    assert!(u.is_complete());
                }
            }
            total += 1;
            decided += (seen != Verdict::Unknown) as usize;
        }
    }
    eprintln!("bounded oracle: {decided} of {total} random cases decided within depth 4");
    assert!(decided * 2 > total, "the bounded oracle decides too little to be useful");
}

#[test]
fn shrinker_minimises_a_termination_rule_difference() {
    // A stand-in "bug": the verdict differs between the two termination rules. The shrinker must
    // keep that property and end with a tiny model and formula.
    use rks_support::shrink::{Case, shrink};
    use xmv_rs::syntax::ast::TerminationRule;
    let differs = |c: &Case| {
        let mut other = c.model.clone();
        other.termination = match c.model.termination {
            TerminationRule::Trap => TerminationRule::Loop,
            TerminationRule::Loop => TerminationRule::Trap,
        };
        let v = |m: &Model| oracle::check(&m.build(), c.initial as u32, &c.formula, 3, 5_000).0;
        let (a, b) = (v(&c.model), v(&other));
        a != Verdict::Unknown && b != Verdict::Unknown && a != b
    };
    let mut rng = Rng::new(3);
    let mut shrunk = 0;
    for i in 0..2000 {
        if shrunk == 10 {
            break;
        }
        let m = random::model(&mut rng, &GenParams { recursive: i % 2 == 1, max_comps: 3, max_nodes: 5 });
        let formula = random::formula(&mut rng, m.props.len(), 4);
        let case = Case { model: m, initial: 0, formula };
        if !differs(&case) {
            continue;
        }
        let small = shrink(case, &mut |c| differs(c));
        assert!(differs(&small));
        let nodes: usize = small.model.comps.iter().map(|c| c.nodes.len()).sum();
        assert!(nodes <= 4, "not minimal:\n{}\n{}", small.model.to_text(), ctl_text::print(&small.formula, &small.model.props));
        if shrunk == 0 {
            eprintln!("first shrunk case:\n{}{}", small.model.to_text(), ctl_text::print(&small.formula, &small.model.props));
        }
        shrunk += 1;
    }
    assert_eq!(shrunk, 10, "too few cases to shrink");
}

#[test]
fn engines_builder_agrees_with_the_test_builder() {
    // The engines' `parse_rks` and this layer's `Model::build` must give the same structure (up
    // to node numbering and exit names), and both must satisfy the documented invariants.
    use rks_support::inspect::{canonical, check_invariants};
    use xmv_rs::explicit::rks_builder::parse_rks;
    let mut rng = Rng::new(5);
    for i in 0..500 {
        let m = random::model(&mut rng, &GenParams { recursive: i % 2 == 0, max_comps: 4, max_nodes: 6 });
        let ours = m.build();
        let theirs = parse_rks(&m.to_builder_text()).unwrap_or_else(|e| panic!("{e}\n{}", m.to_builder_text()));
        check_invariants(&ours).unwrap_or_else(|e| panic!("ours: {e}\n{}", m.to_text()));
        check_invariants(&theirs).unwrap_or_else(|e| panic!("parse_rks: {e}\n{}", m.to_builder_text()));
        assert_eq!(canonical(&ours), canonical(&theirs), "\n{}", m.to_builder_text());
    }
}

#[test]
fn oracles_give_the_papers_verdicts() {
    // The context oracle decides every example (including the verdicts that only infinite
    // recursion decides: §7.8, §7.12, §7.13, Fig. 3); the bounded oracle never contradicts one.
    use rks_support::contexts;
    for &(text, initial, formula, expected) in VERDICTS {
        let m = Model::parse(text);
        let f = ctl_text::parse(formula, &m.props);
        let v = contexts::check(&m.build(), m.comp_index(initial) as u32, &f).expect("small enough");
        assert_eq!(v, Ok(expected), "context oracle: {formula} at {initial}");
        let (b, _) = verdict(&m, initial, formula);
        assert!(b == Verdict::Unknown || b == expect(expected), "bounded oracle: {formula} at {initial}");
    }
}

#[test]
fn context_oracle_agrees_with_the_bounded_oracle() {
    // Two independent oracles: wherever the unfolding decides, the context enumeration must
    // give the same verdict (and its iterations must be monotone).
    use rks_support::contexts;
    let mut rng = Rng::new(13);
    let (mut both, mut context_only, mut total) = (0, 0, 0);
    for i in 0..600 {
        let m = random::model(&mut rng, &GenParams { recursive: i % 3 != 0, max_comps: 4, max_nodes: 6 });
        let rks = m.build();
        let init = rng.range(0, m.comps.len() - 1) as u32;
        for _ in 0..3 {
            let f = random::formula(&mut rng, m.props.len(), 3);
            total += 1;
            let Some(exact) = contexts::check(&rks, init, &f) else { continue };
            let exact = exact.unwrap_or_else(|e| panic!("{e}\n{}\n{}", m.to_text(), ctl_text::print(&f, &m.props)));
            match oracle::check(&rks, init, &f, 6, 5000).0 {
                Verdict::Unknown => context_only += 1,
                v => {
                    both += 1;
                    assert_eq!(v, expect(exact), "\n{}\ninitial {init}: {}", m.to_text(), ctl_text::print(&f, &m.props));
                }
            }
        }
    }
    eprintln!("context oracle: {both} of {total} cases agree with the bounded oracle, {context_only} decided only by contexts");
    assert!(both * 2 > total);
}

#[test]
fn context_oracle_at_deep_configurations_agrees_with_the_bounded_oracle() {
    // `contexts::check_at` induces each frame's context from the frames below; compare with the
    // unfolding at configurations with non-empty stacks (and the trap state).
    use rks_support::contexts;
    let mut rng = Rng::new(17);
    let (mut compared, mut deep) = (0, 0);
    for i in 0..500 {
        let m = random::model(&mut rng, &GenParams { recursive: i % 2 == 0, max_comps: 4, max_nodes: 5 });
        let rks = m.build();
        let Some(u) = Unfolding::new(&rks, 0, 3, 2000) else { continue };
        let f = random::formula(&mut rng, m.props.len(), 3);
        for s in 0..u.configs.len() {
            if u.cutoff[s] {
                continue;
            }
            let Some(exact) = contexts::check_at(&rks, &f, &u.configs[s]) else { continue };
            let exact = exact.expect("monotone");
            let v = oracle::check_at(&rks, u.configs[s].clone(), &f, 5, 4000).0;
            if v != Verdict::Unknown {
                assert_eq!(v, expect(exact), "{:?}\n{}\n{}", u.configs[s], m.to_text(), ctl_text::print(&f, &m.props));
                compared += 1;
                deep += matches!(&u.configs[s], Config::At { stack, .. } if !stack.is_empty()) as usize;
            }
        }
    }
    eprintln!("context oracle at configurations: {compared} compared, {deep} with a non-empty stack");
    assert!(deep > 300);
}
