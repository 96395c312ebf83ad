//! `--engine auto` for flat models: which engine it picks (nominal state count, a small explicit
//! attempt, the BDD reachability probe, the explicit work budget), and the engine named per spec
//! in `--format json` (`engine`). Verdicts must not depend on the choice.

use xmv_rs::driver::{CheckOptions, Engine, Format, run_check, stages::Stages};
use xmv_rs::source::SourceFile;

fn check(text: &str, engine: Engine, format: Format) -> xmv_rs::driver::RunOutput {
    let file = SourceFile::new("auto.smv", text);
    let options = CheckOptions { engine, format, stats: true, reachable: format == Format::Text, threads: 1, ..Default::default() };
    run_check(&file, &options, &Stages::linked())
}

/// The engine `auto` chose, from the `--stats` line.
fn chosen(text: &str, with_explicit: bool) -> (String, String) {
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
    (line, out.stdout)
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
    // 30,000 reachable states (past the first attempt's 2^14) in a chain: the BDD probe finds
    // no more than the budget within its rings and hands the model to the explicit engine.
    let text =
        "MODULE main\nVAR x : 0..29999;\n y : 0..15;\nASSIGN init(x) := 0;\ninit(y) := 3;\nnext(x) := (x + 1) mod 30000;\nnext(y) := y;\nSPEC AG y = 3\n";
    let (line, out) = chosen(text, true);
    assert!(line.contains("flat engine: explicit, states: 30000"), "{line}");
    assert!(out.contains("reachable states: 30000"), "{out}");
}

#[test]
fn wide_branching_goes_to_bdds_without_building_the_explicit_budget() {
    // 12 free booleans (4,096 successors per state) and a counter: 409,600 reachable states, past
    // the state budget of 2^18 only after ~10^9 transitions; the work budget hands it to BDDs.
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
