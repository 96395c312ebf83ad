//! The pipeline from a `LoweredProgram` on, with the real builders and checkers (the front end
//! is replaced by fixed hand-built programs).

use super::*;
use crate::explicit::test_support::*;
use crate::ir::TerminationRule;
use crate::source::SourceFile;

fn with_program(load: stages::LoadFn) -> stages::Stages {
    stages::Stages { load, ..stages::Stages::linked() }
}

fn listing_5_1_loader(_: &SourceFile, _: Option<TerminationRule>) -> (Option<LoweredProgram>, Diagnostics) {
    (Some(listing_5_1()), Diagnostics::new())
}

fn file() -> SourceFile {
    SourceFile::new("listing.smv", "MODULE main\n")
}

#[test]
fn listing_5_1_end_to_end() {
    let options = CheckOptions { traces: true, reachable: true, ..Default::default() };
    let out = run_check(&file(), &options, &with_program(listing_5_1_loader));
    assert_eq!(out.stderr, "");
    assert_eq!(out.exit_code, 1);
    assert_eq!(
        out.stdout,
        "\
-- specification AG (in_state2 -> cr_reset)  is false
-- as demonstrated by the following execution sequence
Trace Description: CTL Counterexample 
Trace Type: Counterexample 
-> State: 1.1 <-
  counter = 0
  state = s1
  ready = FALSE
-> State: 1.2 <-
  counter = 1
  state = s2
-- specification E [ in_state2 U cr_reset ]  is true
system diameter: 6
reachable states: 12 (2^3.58496) out of 42 (2^5.39232)
"
    );
    // `--witnesses`: the true existential spec gets a witness too (NuSMV prints none).
    let with_witnesses = run_check(&file(), &CheckOptions { witnesses: true, ..options.clone() }, &with_program(listing_5_1_loader));
    assert!(
        with_witnesses.stdout.contains(
            "-- specification E [ in_state2 U cr_reset ]  is true\n-- as demonstrated by the following execution sequence\nTrace Description: CTL Witness \nTrace Type: Example \n-> State: 2.1 <-\n  counter = 0\n  state = s1\n  ready = FALSE\n"
        ),
        "{}",
        with_witnesses.stdout
    );
    let quiet = run_check(&file(), &CheckOptions { traces: false, ..Default::default() }, &with_program(listing_5_1_loader));
    assert_eq!(quiet.stdout, "-- specification AG (in_state2 -> cr_reset)  is false\n-- specification E [ in_state2 U cr_reset ]  is true\n");
    let json = run_check(&file(), &CheckOptions { format: Format::Json, ..Default::default() }, &with_program(listing_5_1_loader));
    let v: serde_json::Value = serde_json::from_str(&json.stdout).expect("JSON");
    assert_eq!((v["schema"].as_str(), v["version"].as_u64(), v["exit_code"].as_i64()), (Some("xmv-rs-check"), Some(1), Some(1)));
    assert_eq!(v["specs"].as_array().map(Vec::len), Some(2));
    assert_eq!(v["specs"][1]["verdict"], true);
    assert_eq!(v["diagnostics"].as_array().map(Vec::len), Some(0));
    let limited = run_check(&file(), &CheckOptions { max_states: Some(3), engine: Engine::Explicit, ..Default::default() }, &with_program(listing_5_1_loader));
    assert_eq!(limited.exit_code, 2);
    assert!(limited.stderr.starts_with("error[E0505]: the model has more than 3 reachable states (--max-states 3)"), "{}", limited.stderr);
    assert_eq!(limited.diagnostics.iter().map(|d| d.code).collect::<Vec<_>>(), ["E0505"]);
    // JSON: the same error as data on stdout, nothing rendered on stderr.
    let limited_json = run_check(
        &file(),
        &CheckOptions { max_states: Some(3), format: Format::Json, engine: Engine::Explicit, ..Default::default() },
        &with_program(listing_5_1_loader),
    );
    let v: serde_json::Value = serde_json::from_str(&limited_json.stdout).expect("JSON");
    assert_eq!((limited_json.exit_code, limited_json.stderr.as_str()), (2, ""));
    assert_eq!((v["exit_code"].as_i64(), v["specs"].as_array().map(Vec::len)), (Some(2), Some(0)));
    assert_eq!(v["diagnostics"][0]["code"], "E0505");
    assert_eq!(v["diagnostics"][0]["severity"], "error");
}

/// Thesis Listing 5.2 with its five SPECs (digest §7.12): expected f, t, f / f, t.
fn listing_5_2_loader(_: &SourceFile, _: Option<TerminationRule>) -> (Option<LoweredProgram>, Diagnostics) {
    use crate::ctl::Ctl;
    use crate::lowering::program::{LabelId, SpecAtom};
    let label = |l| Box::new(Ctl::Atom(SpecAtom::Label(LabelId::new(l))));
    let mut p = listing_5_2();
    p.specs = vec![
        spec(0, Ctl::EU(label(1), label(0)), "E [ q U p ]"),
        spec(0, Ctl::EF(label(1)), "EF q"),
        spec(0, Ctl::EF(label(0)), "EF p"),
        spec(1, Ctl::EF(label(2)), "EF x"),
        spec(1, Ctl::Atom(SpecAtom::Label(LabelId::new(3))), "y"),
    ];
    (Some(p), Diagnostics::new())
}

#[test]
fn listing_5_2_end_to_end_with_every_engine() {
    for engine in [Engine::Summary, Engine::Incremental, Engine::Global, Engine::Eager, Engine::Lazy] {
        let options = CheckOptions { traces: false, engine, ..Default::default() };
        let out = run_check(&file(), &options, &with_program(listing_5_2_loader));
        assert_eq!(out.exit_code, 1, "{engine:?}");
        assert_eq!(
            out.stdout,
            "\
-- specification E [ q U p ] IN foo is false
-- specification EF q IN foo is true
-- specification EF p IN foo is false
-- specification EF x IN bar is false
-- specification y IN bar is true
",
            "{engine:?}"
        );
        // The thesis' listing labels the call b2 with q: a warning, not an error.
        assert!(out.stderr.starts_with("warning[W0503]: label `q` holds at a call state"), "{}", out.stderr);
    }
}

#[test]
fn rks_witness_shows_the_call_stack() {
    let options = CheckOptions { traces: true, ..Default::default() };
    let out = run_check(&file(), &options, &with_program(listing_5_2_loader));
    // EF q in foo holds at the entry: a one-step witness.
    assert!(out.stdout.contains("-- specification EF q IN foo is true\n-- as demonstrated by the following execution sequence\nTrace Description: CTL Witness \nTrace Type: Example \n-> State: 1.1 <- [foo]\n  state = f1\n  q = TRUE\n  p = FALSE\n"), "{}", out.stdout);
}
