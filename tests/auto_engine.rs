//! `--engine auto` for flat models: which engine it picks (nominal state count, a small explicit
//! attempt, the BDD reachability probe, the explicit work budget), and the engine named per spec
//! in `--format json` (`engine`). Verdicts must not depend on the choice.
//!
//! `auto` compares counted work (explicit work units, BDD nodes created), not time: its choice
//! and its `--stats` figures are the same on every run, whatever the load (asserted below). The
//! tests still run one at a time ([`SERIAL`]) to keep the machine's memory use down.

use xmv_rs::driver::{CheckOptions, Engine, Format, run_check, stages::Stages};
use xmv_rs::source::SourceFile;

/// One test at a time (see the module doc).
static SERIAL: std::sync::Mutex<()> = std::sync::Mutex::new(());

fn check(text: &str, engine: Engine, format: Format) -> xmv_rs::driver::RunOutput {
    let file = SourceFile::new("auto.smv", text);
    let options = CheckOptions { engine, format, stats: true, reachable: format == Format::Text, threads: 1, ..Default::default() };
    run_check(&file, &options, &Stages::linked())
}

/// The engine `auto` chose, from the `--stats` line.
fn chosen(text: &str, with_explicit: bool) -> (String, String) {
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let out = check(text, Engine::Auto, Format::Text);
    assert_ne!(out.exit_code, 2, "{}", out.stderr);
    let line = out.stderr.lines().find(|l| l.starts_with("-- stats: flat engine: ") && l.contains("states")).unwrap_or_default().to_string();
    let bdd = check(text, Engine::Bdd, Format::Text);
    // Same verdicts and -r figures whichever engine decides (the BDD engine refuses domains of
    // more than 2^16 values).
    if bdd.exit_code != 2 {
        assert_eq!(out.stdout, bdd.stdout);
    }
    if with_explicit {
        assert_eq!(out.stdout, check(text, Engine::Explicit, Format::Text).stdout);
    }
    let why = out.stderr.lines().find(|l| l.starts_with("-- stats: auto: ")).unwrap_or_default();
    (format!("{line}\n{why}"), out.stdout)
}

#[test]
fn nominal_state_count_within_budget_stays_explicit() {
    let text = "MODULE main\nVAR pc : 0..99999;\nASSIGN init(pc) := 0;\nnext(pc) := (pc + 1) mod 100000;\nSPEC AG pc < 100000\nSPEC EF pc = 99999\n";
    let (line, out) = chosen(text, true);
    assert!(line.contains("flat engine: explicit, states: 100000"), "{line}");
    assert!(out.contains("reachable states: 100000"), "{out}");
}

#[test]
fn many_nominal_few_reachable_states_stay_explicit() {
    // 2^24 valuations, a shift register from all-false: 1 reachable state... plus a counter.
    let mut text = String::from("MODULE main\nVAR\n  n : 0..99;\n");
    for i in 0..24 {
        text.push_str(&format!("  b{i} : boolean;\n"));
    }
    text.push_str("ASSIGN\n  init(n) := 0;\n  next(n) := (n + 1) mod 100;\n");
    for i in 0..24 {
        text.push_str(&format!("  init(b{i}) := FALSE;\n  next(b{i}) := {};\n", if i == 0 { "n = 50".to_string() } else { format!("b{}", i - 1) }));
    }
    text.push_str("SPEC AG EF b23\nINVARSPEC !(b0 & b1)\n");
    let (line, _) = chosen(&text, true);
    assert!(line.contains("flat engine: explicit"), "{line}");
}

#[test]
fn deep_narrow_state_space_goes_explicit_after_the_probe() {
    // 60,000 reachable states (past the first attempt's 2^15) in a chain, one per BDD image: the
    // probe's images soon cost more than the explicit build of the states they found, so it
    // gives up and the explicit engine builds the model.
    let text =
        "MODULE main\nVAR x : 0..59999;\n y : 0..15;\nASSIGN init(x) := 0;\ninit(y) := 3;\nnext(x) := (x + 1) mod 60000;\nnext(y) := y;\nSPEC AG y = 3\n";
    let (line, out) = chosen(text, true);
    assert!(line.contains("flat engine: explicit, states: 60000"), "{line}");
    assert!(line.contains("the probe gave up"), "{line}");
    assert!(out.contains("reachable states: 60000"), "{out}");
}

#[test]
fn many_successors_per_state_stay_explicit_without_a_probe() {
    // 2^20 · 3,000 valuations, 3,000 reachable states with 100 successors each (a free
    // variable, as in NuSMV's gigamax): the first attempt's transition budget (16 per state of
    // its 2^15) covers the 300,000 transitions, so no BDD is built.
    let mut text = String::from("MODULE main\nVAR\n  c : 0..99;\n  n : 0..29;\n");
    for i in 0..20 {
        text.push_str(&format!("  b{i} : boolean;\n"));
    }
    text.push_str("ASSIGN\n  init(n) := 0;\n  next(n) := (n + c) mod 30;\n");
    for i in 0..20 {
        text.push_str(&format!("  init(b{i}) := FALSE;\n  next(b{i}) := b{i};\n"));
    }
    text.push_str("SPEC AG EF n = 0\nSPEC AG (c = 3 -> AX n >= 0)\nINVARSPEC !b5\n");
    let (line, _) = chosen(&text, true);
    assert!(line.contains("flat engine: explicit, states: 3000, transitions: 300000"), "{line}");
    assert!(line.contains("auto: explicit, the first attempt"), "{line}");
}

#[test]
fn far_past_the_budget_goes_to_bdds() {
    // 23 free booleans: 2^23 reachable states, each with 2^23 successors; the BDD probe passes
    // the explicit budget (2^21 states) at its first image and keeps its BDDs.
    let mut text = String::from("MODULE main\nVAR\n");
    for i in 0..23 {
        text.push_str(&format!("  f{i} : boolean;\n"));
    }
    text.push_str("SPEC AG EF f0\nINVARSPEC f1 | !f1\nSPEC AG (f2 -> EX !f2)\n");
    let (line, out) = chosen(&text, false);
    assert!(line.contains("flat engine: bdd, states: 8388608"), "{line}");
    assert!(line.contains("auto: bdd, first attempt"), "{line}");
    assert!(out.contains("-- specification AG (f2 -> EX !f2)  is true"), "{out}");
}

#[test]
fn wide_branching_goes_to_bdds_without_building_the_explicit_budget() {
    // 12 free booleans (4,096 successors per state) and a counter: 409,600 reachable states
    // (within the budget of 2^21) after ~10^9 transitions; the first attempt stops at its
    // transition budget, the BDD probe finishes in milliseconds and the explicit estimate is
    // far above it, so the BDDs stay.
    let mut text = String::from("MODULE main\nVAR\n  n : 0..99;\n");
    for i in 0..12 {
        text.push_str(&format!("  r{i} : boolean;\n"));
    }
    text.push_str("ASSIGN\n  init(n) := 0;\n  next(n) := (n + 1) mod 100;\nSPEC AG EF n = 0\nSPEC AG (r0 -> AX n > 0)\nINVARSPEC n < 100\n");
    let (line, out) = chosen(&text, false);
    assert!(line.contains("flat engine: bdd, states: 409600"), "{line}");
    assert!(out.contains("-- specification AG (r0 -> AX n > 0)  is false"), "{out}");
}

fn engines_in_json(text: &str, engine: Engine) -> Vec<String> {
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let out = check(text, engine, Format::Json);
    let doc: serde_json::Value = serde_json::from_str(&out.stdout).expect("a JSON document");
    let specs = doc["specs"].as_array().expect("specs");
    specs.iter().map(|s| s["engine"].as_str().unwrap_or("(none)").to_string()).collect()
}

#[test]
fn json_names_the_engine_that_decided_each_spec() {
    let text = "MODULE main\nVAR x : 0..3;\nASSIGN init(x) := 0;\nnext(x) := (x + 1) mod 4;\nSPEC AG x < 4\nINVARSPEC x != 2\n";
    assert_eq!(engines_in_json(text, Engine::Explicit), ["explicit", "explicit"]);
    assert_eq!(engines_in_json(text, Engine::Bdd), ["bdd", "bdd"]);
    assert_eq!(engines_in_json(text, Engine::Auto), ["explicit", "explicit"]);
}

#[test]
fn the_choice_and_its_figures_are_the_same_on_every_run() {
    // 12 free booleans (4,096 successors per state, so the first attempt only measures about 64
    // states) and a counter: the `auto:` line, with its counted figures, is identical run after
    // run, with one thread and with two.
    let mut text = String::from("MODULE main\nVAR\n  n : 0..99;\n");
    for i in 0..12 {
        text.push_str(&format!("  r{i} : boolean;\n"));
    }
    text.push_str("ASSIGN\n  init(n) := 0;\n  next(n) := (n + 1) mod 100;\nSPEC AG EF n = 0\n");
    let (first, _) = chosen(&text, false);
    assert!(first.contains("auto: bdd, first attempt 4096 successors per state, measured on 65 states"), "{first}");
    for _ in 0..3 {
        assert_eq!(chosen(&text, false).0, first);
    }
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let file = SourceFile::new("auto.smv", &text);
    let options = CheckOptions { engine: Engine::Auto, stats: true, threads: 2, ..Default::default() };
    let out = run_check(&file, &options, &Stages::linked());
    let why = out.stderr.lines().find(|l| l.starts_with("-- stats: auto: ")).unwrap_or_default();
    assert!(first.ends_with(why), "{first}\n{why}");
}
