//! `--engine auto` for flat models: which engine it picks (nominal state count, the explicit
//! build's first stage, its race with the BDD reachability probe, the measured attempt of models
//! with many free successors, the explicit budget), and the engine named per spec in `--format
//! json` (`engine`). Verdicts must not depend on the choice.
//!
//! `auto` compares counted work (explicit work units, BDD nodes created), not time: its choice
//! and its `--stats` figures are the same on every run and every `-j`, whatever the load
//! (asserted below). The
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

/// NuSMV's `syncarb5.smv` in miniature: a token ring of `cells` cells whose `Request` is a free
/// boolean of each cell (2^cells successors per state) and whose other bits follow it.
fn arbiter_ring(cells: usize) -> String {
    let mut text = String::from("MODULE main\nVAR\n");
    for i in 0..cells {
        text.push_str(&format!("  req{i} : boolean;\n  tok{i} : boolean;\n  per{i} : boolean;\n"));
    }
    text.push_str("ASSIGN\n");
    for i in 0..cells {
        let prev = (i + cells - 1) % cells;
        text.push_str(&format!("  init(tok{i}) := {};\n  next(tok{i}) := tok{prev};\n", if i == 0 { "TRUE" } else { "FALSE" }));
        text.push_str(&format!("  init(per{i}) := FALSE;\n  next(per{i}) := req{i} & (per{i} | tok{i});\n"));
    }
    text.push_str("SPEC AG (per0 -> AF !req0 | tok0)\nSPEC AG EF tok1\nINVARSPEC !(tok0 & tok1)\n");
    text
}

#[test]
fn few_state_bits_with_many_free_successors_race_the_bdds() {
    // 15 state bits (within the nominal count that is otherwise built explicitly at once), but
    // 5 free booleans give every state 32 successors: the first stage ends after 64 states and
    // the BDD probe, on a handful of nodes, wins.
    let (line, out) = chosen(&arbiter_ring(5), true);
    assert!(line.contains("flat engine: bdd, states: 5120"), "{line}");
    assert!(line.contains("auto: bdd, first stage 64 states"), "{line}");
    assert!(out.contains("reachable states: 5120"), "{out}");
    // Three cells: 8 successors per state, below the fan-out that races; built at once.
    let (line, _) = chosen(&arbiter_ring(3), true);
    assert!(line.contains("flat engine: explicit") && line.contains("auto: explicit, the domains allow 512 states"), "{line}");
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

/// 60,000 reachable states in a chain (past the first stage's 2^15), one per BDD image.
const DEEP_NARROW: &str =
    "MODULE main\nVAR x : 0..59999;\n y : 0..15;\nASSIGN init(x) := 0;\ninit(y) := 3;\nnext(x) := (x + 1) mod 60000;\nnext(y) := y;\nSPEC AG y = 3\n";

#[test]
fn deep_narrow_state_space_goes_explicit_in_the_race() {
    // The probe's images cost more per state than the explicit build: the explicit build,
    // resumed after each image, finishes first and is kept (it is not built again).
    let (line, out) = chosen(DEEP_NARROW, true);
    assert!(line.contains("flat engine: explicit, states: 60000"), "{line}");
    assert!(line.contains("auto: explicit, first stage 32768 states"), "{line}");
    assert!(line.contains("explicit 60000 states") && line.contains("the explicit build finished first"), "{line}");
    assert!(out.contains("reachable states: 60000"), "{out}");
}

/// 2^20 · 3,000 valuations, 3,000 reachable states with 100 successors each (a free variable,
/// as in NuSMV's gigamax).
fn wide_model() -> String {
    let mut text = String::from("MODULE main\nVAR\n  c : 0..99;\n  n : 0..29;\n");
    for i in 0..20 {
        text.push_str(&format!("  b{i} : boolean;\n"));
    }
    text.push_str("ASSIGN\n  init(n) := 0;\n  next(n) := (n + c) mod 30;\n");
    for i in 0..20 {
        text.push_str(&format!("  init(b{i}) := FALSE;\n  next(b{i}) := b{i};\n"));
    }
    text.push_str("SPEC AG EF n = 0\nSPEC AG (c = 3 -> AX n >= 0)\nINVARSPEC !b5\n");
    text
}

#[test]
fn many_successors_per_state_end_the_first_stage_early_and_keep_the_bdds() {
    // 100 successors per state end the explicit first stage after 64 states; the probe's two
    // images cost far less than the explicit build still to do, so the BDDs stay.
    let (line, _) = chosen(&wide_model(), true);
    assert!(line.contains("flat engine: bdd, states: 3000"), "{line}");
    assert!(line.contains("auto: bdd, first stage 64 states"), "{line}");
}

#[test]
fn small_models_are_built_within_the_first_stage_without_a_probe() {
    // 2^20 · 3,000 valuations, 3,000 reachable states with 2 successors each: the explicit
    // build ends within its first stage, no BDD is built.
    let text = wide_model().replace("c : 0..99", "c : 0..1");
    let (line, _) = chosen(&text, true);
    assert!(line.contains("flat engine: explicit, states: 60, transitions: 120"), "{line}");
    assert!(line.contains("auto: explicit, built within the first stage"), "{line}");
}

#[test]
fn an_explicit_build_past_its_budget_in_the_race_leaves_the_bdds() {
    // 100 free values × a counter to 1,000: 100,000 reachable states, past `--max-states 50000`;
    // whichever of the probe or the explicit build passes it first, the BDDs decide.
    let mut text = String::from("MODULE main\nVAR\n  c : 0..99;\n  n : 0..999;\n");
    for i in 0..20 {
        text.push_str(&format!("  b{i} : boolean;\n"));
    }
    text.push_str("ASSIGN\n  init(n) := 0;\n  next(n) := (n + 1) mod 1000;\n");
    for i in 0..20 {
        text.push_str(&format!("  init(b{i}) := FALSE;\n  next(b{i}) := b{i};\n"));
    }
    text.push_str("SPEC AG EF n = 0\nINVARSPEC !b5\n");
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let file = SourceFile::new("auto.smv", &text);
    let options = CheckOptions { engine: Engine::Auto, stats: true, max_states: Some(50_000), threads: 1, ..Default::default() };
    let out = run_check(&file, &options, &Stages::linked());
    assert_eq!(out.exit_code, 0, "{}", out.stderr);
    assert!(out.stderr.contains("flat engine: bdd, states: 100000"), "{}", out.stderr);
    assert!(out.stderr.contains("-- stats: auto: bdd, first stage 64 states"), "{}", out.stderr);
    assert_eq!(out.stdout, "-- specification AG (EF n = 0)  is true\n-- invariant !b5  is true\n");
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
    // Chosen by the race.
    assert_eq!(engines_in_json(&wide_model(), Engine::Auto), ["bdd", "bdd", "bdd"]);
}

/// The `auto:` line of `xmv-rs check --stats -j J` on `text`.
fn why_with_jobs(text: &str, name: &str, jobs: &str) -> String {
    let path = std::env::temp_dir().join(format!("xmv-auto-engine-{}-{name}.smv", std::process::id()));
    std::fs::write(&path, text).expect("write the model");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_xmv-rs"))
        .args(["check", "--stats", "--no-trace", "-q", "-j", jobs])
        .arg(&path)
        .output()
        .expect("run xmv-rs");
    let _ = std::fs::remove_file(&path);
    let stderr = String::from_utf8_lossy(&out.stderr).to_string();
    stderr.lines().find(|l| l.starts_with("-- stats: auto: ")).unwrap_or_default().to_string()
}

#[test]
fn the_race_and_its_figures_are_the_same_for_every_thread_count() {
    // The explicit build's work is counted as one worker would (its memo tables would otherwise
    // miss differently with two): the same `auto:` line, figures included, with -j 1 and -j 2.
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    for (name, text) in [("wide", wide_model()), ("deep", DEEP_NARROW.to_string())] {
        let one = why_with_jobs(&text, name, "1");
        assert!(one.contains("first stage"), "{one}");
        assert_eq!(why_with_jobs(&text, name, "2"), one);
        assert_eq!(why_with_jobs(&text, name, "2"), one);
    }
}

#[test]
fn the_choice_and_its_figures_are_the_same_on_every_run() {
    // 12 free booleans (4,096 successors per state, so the first attempt only measures about 8
    // states) and a counter: the `auto:` line, with its counted figures, is identical run after
    // run, with one thread and with two.
    let mut text = String::from("MODULE main\nVAR\n  n : 0..99;\n");
    for i in 0..12 {
        text.push_str(&format!("  r{i} : boolean;\n"));
    }
    text.push_str("ASSIGN\n  init(n) := 0;\n  next(n) := (n + 1) mod 100;\nSPEC AG EF n = 0\n");
    let (first, _) = chosen(&text, false);
    assert!(first.contains("auto: bdd, first attempt 4096 successors per state, measured on 9 states"), "{first}");
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
