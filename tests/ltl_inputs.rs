//! `LTLSPEC`s that read input variables (directly or through DEFINEs), which NuSMV 2.5.4
//! accepts and reads as the input of the step leaving the state (`src/lowering/invar_monitor.rs`:
//! such an atom becomes `X monitor`). Each model was written for this test; the expected text
//! is NuSMV 2.5.4's stdout for it (banner removed), recorded with the oracle. xmv-rs must print
//! the same verdict lines, formula text included, in the drop-in mode and with `check` on each
//! engine (below a past operator: the BDD engine and `auto` only; the explicit engine says
//! E0221, `tests/build/explicit-input-below-past.smv`), and one lasso counterexample per false
//! spec. The counterexamples themselves may differ from NuSMV's (another lasso of the same
//! product: LTL traces are not compared byte for byte anywhere, `tests/ltl_nusmv.rs`); the one of
//! `G (x | !i)` is checked to contain the violating step. With `NUSMV` set, NuSMV is run on the
//! models again and must still print the recorded text (skipped otherwise).

mod support;

use support::nusmv::without_banner;

use std::process::Command;

/// (name, whether the explicit engine checks it, model, NuSMV 2.5.4's stdout).
const CASES: &[(&str, bool, &str, &str)] = &[
    (
        "input_read_directly",
        true,
        r#"MODULE main
IVAR i : boolean;
VAR x : boolean;
ASSIGN
  init(x) := FALSE;
  next(x) := i;
LTLSPEC G (i -> X x)
LTLSPEC G (x | !i)
LTLSPEC F i
"#,
        r#"-- specification  G (i ->  X x)  is true
-- specification  G (x | !i)  is false
-- as demonstrated by the following execution sequence
Trace Description: LTL Counterexample 
Trace Type: Counterexample 
-- Loop starts here
-> State: 1.1 <-
  x = FALSE
-> Input: 1.2 <-
  i = TRUE
-> State: 1.2 <-
  x = TRUE
-> Input: 1.3 <-
  i = FALSE
-- Loop starts here
-> State: 1.3 <-
  x = FALSE
-> Input: 1.4 <-
-- Loop starts here
-> State: 1.4 <-
-> Input: 1.5 <-
-> State: 1.5 <-
-- specification  F i  is false
-- as demonstrated by the following execution sequence
Trace Description: LTL Counterexample 
Trace Type: Counterexample 
-- Loop starts here
-> State: 2.1 <-
  x = FALSE
-> Input: 2.2 <-
  i = FALSE
-> State: 2.2 <-
"#,
    ),
    (
        "input_in_a_define_with_fairness",
        true,
        r#"MODULE main
IVAR go : 0..2;
VAR n : 0..3;
DEFINE up := go = 1 & n < 3;
ASSIGN
  init(n) := 0;
  next(n) := case up : n + 1; go = 2 : 0; TRUE : n; esac;
FAIRNESS go = 1
LTLSPEC G F (go = 2)
LTLSPEC F G !up
LTLSPEC G (up -> X n > 0)
"#,
        r#"-- specification  G ( F go = 2)  is false
-- as demonstrated by the following execution sequence
Trace Description: LTL Counterexample 
Trace Type: Counterexample 
-> State: 1.1 <-
  n = 0
  up = TRUE
-> Input: 1.2 <-
  go = 1
-> State: 1.2 <-
  n = 1
-> Input: 1.3 <-
-> State: 1.3 <-
  n = 2
  up = FALSE
-> Input: 1.4 <-
  go = 0
-> State: 1.4 <-
  up = TRUE
-> Input: 1.5 <-
  go = 1
-- Loop starts here
-> State: 1.5 <-
  n = 3
  up = FALSE
-> Input: 1.6 <-
-- Loop starts here
-> State: 1.6 <-
-> Input: 1.7 <-
-- Loop starts here
-> State: 1.7 <-
-> Input: 1.8 <-
-- Loop starts here
-> State: 1.8 <-
-> Input: 1.9 <-
-- Loop starts here
-> State: 1.9 <-
-> Input: 1.10 <-
-> State: 1.10 <-
-- specification  F ( G !up)  is false
-- as demonstrated by the following execution sequence
Trace Description: LTL Counterexample 
Trace Type: Counterexample 
-- Loop starts here
-> State: 2.1 <-
  n = 0
  up = TRUE
-> Input: 2.2 <-
  go = 1
-> State: 2.2 <-
  n = 1
-> Input: 2.3 <-
-> State: 2.3 <-
  n = 2
-> Input: 2.4 <-
-> State: 2.4 <-
  n = 3
  up = FALSE
-> Input: 2.5 <-
  go = 2
-> State: 2.5 <-
  n = 0
-- specification  G (up ->  X n > 0)  is true
"#,
    ),
    (
        "input_and_state_in_a_define",
        true,
        r#"MODULE main
IVAR req : boolean;
VAR busy : boolean;
DEFINE start := req & !busy;
ASSIGN
  init(busy) := FALSE;
  next(busy) := start | (busy & !req);
LTLSPEC G (start -> X busy)
LTLSPEC G (busy -> F !busy)
LTLSPEC G F start
"#,
        r#"-- specification  G (start ->  X busy)  is true
-- specification  G (busy ->  F !busy)  is false
-- as demonstrated by the following execution sequence
Trace Description: LTL Counterexample 
Trace Type: Counterexample 
-> State: 1.1 <-
  busy = FALSE
  start = TRUE
-> Input: 1.2 <-
  req = TRUE
-- Loop starts here
-> State: 1.2 <-
  busy = TRUE
  start = FALSE
-> Input: 1.3 <-
  req = FALSE
-- Loop starts here
-> State: 1.3 <-
-> Input: 1.4 <-
-- Loop starts here
-> State: 1.4 <-
-> Input: 1.5 <-
-- Loop starts here
-> State: 1.5 <-
-> Input: 1.6 <-
-> State: 1.6 <-
-- specification  G ( F start)  is false
-- as demonstrated by the following execution sequence
Trace Description: LTL Counterexample 
Trace Type: Counterexample 
-- Loop starts here
-> State: 2.1 <-
  busy = FALSE
  start = FALSE
-> Input: 2.2 <-
  req = FALSE
-- Loop starts here
-> State: 2.2 <-
-> Input: 2.3 <-
-> State: 2.3 <-
"#,
    ),
    (
        "inputs_limited_by_trans",
        true,
        r#"MODULE main
IVAR i : 0..3;
VAR n : 0..3;
ASSIGN
  init(n) := 0;
TRANS next(n) = i & (n = 3 -> i != 0)
LTLSPEC G (i = n -> X n = i)
LTLSPEC G (n = 3 -> i != 0)
LTLSPEC G (i != 0)
LTLSPEC F G (i = n)
"#,
        r#"-- specification  G (i = n ->  X n = i)  is false
-- as demonstrated by the following execution sequence
Trace Description: LTL Counterexample 
Trace Type: Counterexample 
-> State: 1.1 <-
  n = 0
-> Input: 1.2 <-
  i = 0
-> State: 1.2 <-
-> Input: 1.3 <-
-> State: 1.3 <-
-> Input: 1.4 <-
  i = 1
-- Loop starts here
-> State: 1.4 <-
  n = 1
-> Input: 1.5 <-
  i = 0
-> State: 1.5 <-
  n = 0
-> Input: 1.6 <-
  i = 1
-> State: 1.6 <-
  n = 1
-- specification  G (n = 3 -> i != 0)  is true
-- specification  G i != 0  is false
-- as demonstrated by the following execution sequence
Trace Description: LTL Counterexample 
Trace Type: Counterexample 
-> State: 2.1 <-
  n = 0
-> Input: 2.2 <-
  i = 1
-- Loop starts here
-> State: 2.2 <-
  n = 1
-> Input: 2.3 <-
  i = 0
-> State: 2.3 <-
  n = 0
-> Input: 2.4 <-
  i = 1
-- Loop starts here
-> State: 2.4 <-
  n = 1
-> Input: 2.5 <-
-- Loop starts here
-> State: 2.5 <-
-> Input: 2.6 <-
-> State: 2.6 <-
-- specification  F ( G i = n)  is false
-- as demonstrated by the following execution sequence
Trace Description: LTL Counterexample 
Trace Type: Counterexample 
-- Loop starts here
-> State: 3.1 <-
  n = 0
-> Input: 3.2 <-
  i = 1
-> State: 3.2 <-
  n = 1
-> Input: 3.3 <-
  i = 0
-> State: 3.3 <-
  n = 0
"#,
    ),
    (
        "inputs_below_past_operators",
        false,
        r#"MODULE main
IVAR i : boolean;
VAR x : boolean;
ASSIGN
  init(x) := FALSE;
  next(x) := i;
LTLSPEC G (Y i -> x)
LTLSPEC G (x -> Y i)
LTLSPEC G (x -> O i)
LTLSPEC H i
LTLSPEC G (i S x)
"#,
        r#"-- specification  G ( Y i -> x)  is true
-- specification  G (x ->  Y i)  is true
-- specification  G (x ->  O i)  is true
-- specification  H i  is false
-- as demonstrated by the following execution sequence
Trace Description: LTL Counterexample 
Trace Type: Counterexample 
-- Loop starts here
-> State: 1.1 <-
  x = FALSE
-> Input: 1.2 <-
  i = FALSE
-- Loop starts here
-> State: 1.2 <-
-> Input: 1.3 <-
-> State: 1.3 <-
-- specification  G (i S x)  is false
-- as demonstrated by the following execution sequence
Trace Description: LTL Counterexample 
Trace Type: Counterexample 
-- Loop starts here
-> State: 2.1 <-
  x = FALSE
-> Input: 2.2 <-
  i = TRUE
-> State: 2.2 <-
  x = TRUE
-> Input: 2.3 <-
  i = FALSE
-- Loop starts here
-> State: 2.3 <-
  x = FALSE
-> Input: 2.4 <-
  i = TRUE
-> State: 2.4 <-
  x = TRUE
-> Input: 2.5 <-
  i = FALSE
-> State: 2.5 <-
  x = FALSE
"#,
    ),
];

fn verdict_lines(text: &str) -> Vec<&str> {
    text.lines().filter(|l| l.starts_with("-- specification")).collect()
}

fn model_file(name: &str, text: &str) -> std::path::PathBuf {
    support::nusmv::temp_model("ltl-inputs", name, text)
}

/// The runs of xmv-rs compared with NuSMV for a case: the drop-in mode and `check` per engine.
fn runs(explicit: bool) -> Vec<Vec<&'static str>> {
    let mut out = vec![vec![], vec!["check", "--engine", "bdd"], vec!["check", "--engine", "auto"]];
    if explicit {
        out.push(vec!["check", "--engine", "explicit"]);
    }
    out
}

/// The counterexamples of `text`, each the lines after its `Trace Type` line.
fn traces(text: &str) -> Vec<&str> {
    text.split("Trace Type: Counterexample").skip(1).map(|t| t.split("-- specification").next().unwrap_or("")).collect()
}

#[test]
fn verdicts_equal_nusmvs_and_counterexamples_are_lassos() {
    for (name, explicit, text, expected) in CASES {
        let file = model_file(name, text);
        for args in runs(*explicit) {
            let out = Command::new(env!("CARGO_BIN_EXE_xmv-rs")).args(&args).arg(&file).output().expect("run xmv-rs");
            let ours = without_banner(&out.stdout);
            assert!(matches!(out.status.code(), Some(0 | 1)), "{name} {args:?}: {}", String::from_utf8_lossy(&out.stderr));
            assert_eq!(verdict_lines(&ours), verdict_lines(expected), "{name} {args:?}");
            let falses = verdict_lines(expected).iter().filter(|l| l.ends_with("is false")).count();
            let ours_traces = traces(&ours);
            assert_eq!(ours_traces.len(), falses, "{name} {args:?}: one counterexample per false spec\n{ours}");
            for t in ours_traces {
                // With an input in FAIRNESS the input is a state variable (README), so no `Input` blocks.
                assert!(t.contains("-- Loop starts here"), "{name} {args:?}: a lasso\n{ours}");
            }
        }
        let _ = std::fs::remove_file(&file);
    }
}

/// Whether `trace` has a state with `var = value` whose outgoing input has `input = input_value`
/// (NuSMV's format prints only changed values, so the last printed one holds).
fn has_step(trace: &str, var: &str, value: &str, input: &str, input_value: &str) -> bool {
    let mut values: std::collections::HashMap<&str, &str> = Default::default();
    let mut state_ok = false;
    let mut in_input = false;
    for line in trace.lines() {
        if line.starts_with("-> State:") {
            if in_input && state_ok && values.get(input) == Some(&input_value) {
                return true;
            }
            in_input = false;
        } else if line.starts_with("-> Input:") {
            state_ok = values.get(var) == Some(&value);
            in_input = true;
        } else if let Some((k, v)) = line.trim().split_once(" = ") {
            values.insert(k, v);
        }
    }
    false
}

#[test]
fn the_counterexample_shows_the_violating_step() {
    // `G (x | !i)`: some state has x = FALSE and leaves it with i = TRUE.
    let (name, _, text, expected) = CASES[0];
    assert!(has_step(traces(expected)[0], "x", "FALSE", "i", "TRUE"), "the recorded trace");
    let file = model_file("violating-step", text);
    for args in runs(true) {
        let out = Command::new(env!("CARGO_BIN_EXE_xmv-rs")).args(&args).arg(&file).output().expect("run xmv-rs");
        let ours = without_banner(&out.stdout);
        assert!(has_step(traces(&ours)[0], "x", "FALSE", "i", "TRUE"), "{name} {args:?}:\n{ours}");
    }
    let _ = std::fs::remove_file(&file);
}

#[test]
fn nusmv_still_prints_the_recorded_output() {
    let Some(bin) = support::nusmv::binary("nusmv_still_prints_the_recorded_output") else { return };
    for (name, _, text, expected) in CASES {
        let file = model_file(&format!("{name}-nusmv"), text);
        let out = Command::new(&bin).arg(&file).output().expect("run NuSMV");
        let _ = std::fs::remove_file(&file);
        assert_eq!(without_banner(&out.stdout), *expected, "{name}");
    }
}

#[test]
fn inputs_stay_forbidden_in_ltlspec_of_procedure_modules_and_next_everywhere() {
    for (name, text, message) in [
        ("next", "MODULE main\nIVAR i : boolean;\nVAR x : boolean;\nLTLSPEC G (next(x) = i)\n", "E0204"),
        (
            "procedure",
            "MODULE foo\nIVAR i : boolean;\nVAR state : {f1, f2};\nCALL bar := state in {f2};\nASSIGN\n  init(state) := f1;\n  next(state) := case state = f1 : {f2}; state = f2 : {EXIT}; esac;\nLTLSPEC G (state = f1 | i)\nMODULE bar\nVAR s : {b1, b2};\nASSIGN\n  init(s) := b1;\n  next(s) := case s = b1 : b2; s = b2 : EXIT; esac;\n",
            "E0206",
        ),
    ] {
        let file = model_file(name, text);
        let out = Command::new(env!("CARGO_BIN_EXE_xmv-rs")).arg("check").arg(&file).output().expect("run xmv-rs");
        let _ = std::fs::remove_file(&file);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{name}: {stderr}");
        assert!(stderr.contains(message), "{name}: {stderr}");
    }
}
