//! The worked examples of Dubslaff et al. 2024 (digest §4) on both ternary engines
//! (`check::ternary`): verdicts on RSMCheck's models, and the context counts the digest gives.

mod rks_support;

use rks_support::ctl_text;
use rks_support::model::Model;
use rks_support::rsm_json::{self, Rsm};
use xmv_rs::check::ternary::{TernaryEngine, TernaryResult, check};
use xmv_rs::explicit::rks::ComponentId;
use xmv_rs::explicit::rks::RecursiveKripkeStructure;

fn load(rel: &str) -> Rsm {
    let path = format!("{}/../shared/{rel}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    rsm_json::parse(&text).unwrap_or_else(|e| panic!("{path}: {e}"))
}

struct Loaded {
    rks: RecursiveKripkeStructure,
    initial: u32,
    props: Vec<String>,
}

fn loaded(rel: &str) -> Loaded {
    let rsm = load(rel);
    Loaded { rks: rsm.model.build(), initial: rsm.initial as u32, props: rsm.model.props.clone() }
}

fn run(m: &Loaded, f: &str, engine: TernaryEngine) -> TernaryResult {
    check(&m.rks, ComponentId::from_u32(m.initial), &ctl_text::parse(f, &m.props), engine, false)
}

/// Both engines give `expected`; returns (eager, lazy).
fn verdict(m: &Loaded, f: &str, expected: bool) -> (TernaryResult, TernaryResult) {
    let e = run(m, f, TernaryEngine::Eager);
    let l = run(m, f, TernaryEngine::Lazy);
    assert_eq!(e.holds, expected, "eager on {f}");
    assert_eq!(l.holds, expected, "lazy on {f}");
    (e, l)
}

#[test]
fn conference_fig2_example_rsm() {
    let m = loaded("bench/rsmcheck-examples/example.rsm");
    verdict(&m, "EX EG blue", true);
    verdict(&m, "EX E [ blue U black ]", true);
    verdict(&m, "AX E [ blue U red ]", false);
    let (_, lazy) = verdict(&m, "EX red | EX E [ blue U black ]", true);
    assert_eq!(lazy.stats.contexts_created, 1, "decided locally, b is never contextualised");
}

#[test]
fn simple_rsm() {
    let m = loaded("bench/rsmcheck-examples/simple.rsm");
    verdict(&m, "EG a", true);
    verdict(&m, "E [ a U b ]", true);
}

/// The multi-entry `test.rsm` (components split per entry). Its `.ctl` files use labels it does
/// not have; these formulas are over its label `a`, with verdicts by hand: the entry n11 can
/// recurse forever through a-labelled nodes, and the path through n12 reaches the unlabelled n13.
#[test]
fn multi_entry_test_rsm() {
    let m = loaded("bench/rsmcheck-examples/test.rsm");
    verdict(&m, "EG a", true);
    verdict(&m, "AG a", false);
    verdict(&m, "EF !a", true);
    verdict(&m, "AF !a", false);
}

/// Digest §4.2: the journal's Fig. 3 model, every formula of the table, with RSMCheck's context
/// counts where they are the same as ours (contexts built, the initial copy counted as 1).
#[test]
fn journal_fig3_running_example() {
    let m = loaded("papers/dubslaff-2024-fig3.rsm.json");
    let (e, l) = verdict(&m, "EG red", true); // Ex. 3
    assert_eq!((e.stats.contexts_created, l.stats.contexts_created), (1, 1));
    verdict(&m, "EF EG black", true); // Ex. 4, 7, 9
    verdict(&m, "EX blue | !EX blue", true); // Ex. 5
    verdict(&m, "EF EG blue", true); // Ex. 6: RSMCheck's lazy mode crashes here
    verdict(&m, "EF black", true); // Ex. 8
    verdict(&m, "EG blue", false); // Ex. 10
    let (_, l) = verdict(&m, "EX red | EX E [ blue U black ]", true); // Ex. 11
    assert_eq!(l.stats.contexts_created, 1, "no context for A2 is ever built");
    verdict(&m, "AX E [ blue U red ]", false); // Ex. 12, 13
    verdict(&m, "EG black", false);
    verdict(&m, "EX EG blue", true);
    verdict(&m, "AG (blue -> EF black)", false);
    verdict(&m, "EF EG red", true);
}

/// Ex. 4: the consistent contexts of `EF EG black` are 3 for A1 and 2 for A2; RSMCheck's
/// exhaustive mode ends with exactly these copies (it built 7, we build 5), its lazy mode built 4.
#[test]
fn journal_example_4_context_counts() {
    let m = loaded("papers/dubslaff-2024-fig3.rsm.json");
    let e = run(&m, "EF EG black", TernaryEngine::Eager);
    assert!(e.holds);
    assert_eq!(e.stats.contexts_live, 5, "3 copies of A1 (A0 included) and 2 of A2");
    assert_eq!(e.stats.contexts_created, 5);
    let l = run(&m, "EF EG black", TernaryEngine::Lazy);
    assert!(l.holds);
    assert_eq!(l.stats.contexts_created, 4);
}

/// Digest §4.5: ∃X across a box boundary (C-semantics = transparent calls): `EX EX q` holds at
/// m for m → (b,en), en(p) → x(q) → ex.
#[test]
fn next_across_a_call_pins_the_semantics() {
    let model = Model::parse(
        "props p q
         termination loop
         component A exits z
           loc m
           call c B
           loc z
           edge m c
           edge c z
         component B exits ex
           loc en p
           loc x q
           loc ex
           edge en x
           edge x ex",
    );
    let m = Loaded { rks: model.build(), initial: 0, props: model.props.clone() };
    verdict(&m, "EX EX q", true);
    verdict(&m, "EX EX EX q", false);
    verdict(&m, "EX p", true);
}

/// Digest §4.5: with the loop rule, a top-level exit satisfies ∃G p, ∃(q U p) and ∃X p iff p
/// holds there; with the trap rule none of them (the trap state has no labels).
#[test]
fn termination_rules_at_the_bottom_level_exit() {
    for (rule, expected) in [("loop", true), ("trap", false)] {
        let model = Model::parse(&format!(
            "props p q
             termination {rule}
             component A exits e
               loc e p"
        ));
        let m = Loaded { rks: model.build(), initial: 0, props: model.props.clone() };
        verdict(&m, "EG p", expected);
        verdict(&m, "E [ q U p ]", true);
        verdict(&m, "EX p", expected);
        verdict(&m, "EX EX !p", !expected);
    }
}

/// FindReason's cycle detection ignores the box stack: from X's exit, the stack-top return node
/// of c1 leads through c2 back into X's entry, which closes a "cycle" in `D`, but every run from
/// m0 ends in the p-free m3. Resolving that cycle blindly to tt would make `EG p` true.
#[test]
fn stack_insensitive_cycles_are_not_resolved_blindly() {
    let model = Model::parse(
        "props p
         termination loop
         component Main
           loc m0 p
           call c1 X
           loc m1 p
           call c2 X
           loc m2 p
           call c3 X
           loc m3
           edge m0 c1
           edge c1 m1
           edge m1 c2
           edge c2 m2
           edge m2 c3
           edge c3 m3
           edge m3 m3
         component X exits xe
           loc x0 p
           loc xe p
           edge x0 xe",
    );
    let m = Loaded { rks: model.build(), initial: 0, props: model.props.clone() };
    verdict(&m, "EG p", false);
    verdict(&m, "AF !p", true);
    verdict(&m, "EF EG p", false);
    verdict(&m, "E [ p U !p ]", true);
}

/// A call chain 3000 components deep: the engines, FindReason and the witness search are
/// iterative, so nothing overflows the call stack.
#[test]
fn deep_call_chains_do_not_overflow() {
    let depth = 3000;
    let mut text = String::from("props p\ntermination trap\n");
    for i in 0..depth {
        text += &format!("component C{i} exits x{i}\n  loc e{i}\n");
        if i + 1 < depth {
            text += &format!("  call c{i} C{}\n  loc x{i}\n  edge e{i} c{i}\n  edge c{i} x{i}\n", i + 1);
        } else {
            text += &format!("  loc x{i} p\n  edge e{i} x{i}\n");
        }
    }
    let model = Model::parse(&text);
    let m = Loaded { rks: model.build(), initial: 0, props: model.props.clone() };
    verdict(&m, "EF p", true);
    verdict(&m, "EG !p", false);
    // Eager builds one context per level here, one level per Contextualize round (quadratic).
    assert!(!run(&m, "AG !p", TernaryEngine::Lazy).holds);
    let r = check(&m.rks, ComponentId::new(0), &ctl_text::parse("EF p", &m.props), TernaryEngine::Lazy, true);
    let trace = r.trace.expect("a witness for a true EF");
    assert_eq!(trace.steps.len(), depth + 1, "e0 .. e2999, x2999");
}

/// Found by the differential test with FindReason reduced to the digest's literal reading (leave
/// an exit only to the stack's top box) and the paper's unguarded cycle resolution: lazy said
/// false. The stack-insensitive cycle through the recursive b7 must not be resolved blindly.
#[test]
fn recursive_exit_parity_regression() {
    let model = Model::parse(
        "props p r
         termination loop
         component A
           loc a0
           loc a3
           loc a4
           loc a5
           call a6 B
           edge a0 a4
           edge a3 a3
           edge a4 a6
           edge a5 a3
           ret a6 0 a5
           ret a6 1 a0
         component B exits b6 b3
           loc b0 p
           loc b3
           loc b6 r
           call b7 B
           edge b0 b3
           edge b0 b7
           ret b7 0 b3
           ret b7 1 b6",
    );
    let m = Loaded { rks: model.build(), initial: 0, props: model.props.clone() };
    verdict(&m, "AG ((p xor TRUE) | EF r)", true);
}
