//! `INVARSPEC`s that read input variables or `next()` (directly or through DEFINEs), which
//! NuSMV 2.5.4 accepts and checks on every transition leaving a reachable state
//! (`src/lowering/invar_monitor.rs`), and DEFINEs over a transition in traces (shown with the
//! state the transition leaves). Each model was written for this test; the expected text is
//! NuSMV 2.5.4's stdout for it (banner removed), recorded with the oracle. xmv-rs must print it
//! byte for byte in the drop-in mode, and `check` with either engine must print the same verdict
//! and trace lines. With `NUSMV` set, NuSMV is run on the models again and must still print the
//! recorded text (skipped otherwise).

mod support;

use support::nusmv::without_banner;

use std::process::Command;

const CASES: &[(&str, &str, &str)] = &[
    (
        "issue_example_through_define",
        r#"MODULE main
IVAR i : boolean;
VAR x : boolean;
DEFINE d := i & x;
INVARSPEC !d | x
"#,
        r#"-- invariant (!d | x)  is true
"#,
    ),
    (
        "input_read_directly",
        r#"MODULE main
IVAR i : boolean;
VAR x : boolean;
ASSIGN
  init(x) := TRUE;
  next(x) := !x;
INVARSPEC !i | x
"#,
        r#"-- invariant (!i | x)  is false
-- as demonstrated by the following execution sequence
Trace Description: AG alpha Counterexample 
Trace Type: Counterexample 
-- Loop starts here
-> State: 1.1 <-
  x = TRUE
-> Input: 1.2 <-
  i = FALSE
-> State: 1.2 <-
  x = FALSE
-> Input: 1.3 <-
  i = TRUE
-> State: 1.3 <-
  x = TRUE
"#,
    ),
    (
        "input_and_state_in_a_define",
        r#"MODULE main
IVAR i : boolean;
VAR x : boolean;
DEFINE d := i & !x;
ASSIGN
  init(x) := TRUE;
  next(x) := !x;
INVARSPEC !d
"#,
        r#"-- invariant !d  is false
-- as demonstrated by the following execution sequence
Trace Description: AG alpha Counterexample 
Trace Type: Counterexample 
-- Loop starts here
-> State: 1.1 <-
  x = TRUE
  d = FALSE
-> Input: 1.2 <-
  i = FALSE
-> State: 1.2 <-
  x = FALSE
  d = TRUE
-> Input: 1.3 <-
  i = TRUE
-> State: 1.3 <-
  x = TRUE
"#,
    ),
    (
        "first_step_violates",
        r#"MODULE main
IVAR i : boolean;
VAR x : boolean;
ASSIGN
  init(x) := TRUE;
  next(x) := !x;
INVARSPEC !i
"#,
        r#"-- invariant !i  is false
-- as demonstrated by the following execution sequence
Trace Description: AG alpha Counterexample 
Trace Type: Counterexample 
-> State: 1.1 <-
  x = TRUE
-> Input: 1.2 <-
  i = TRUE
-> State: 1.2 <-
  x = FALSE
"#,
    ),
    (
        "inputs_limited_by_trans",
        r#"MODULE main
IVAR i : boolean;
VAR x : boolean;
ASSIGN
  init(x) := TRUE;
TRANS next(x) = !x & (!x -> !i)
INVARSPEC !i | x
"#,
        r#"-- invariant (!i | x)  is true
"#,
    ),
    (
        "next_in_the_invariant",
        r#"MODULE main
VAR x : 0..3;
ASSIGN
  init(x) := 0;
  next(x) := (x + 1) mod 4;
INVARSPEC next(x) = x + 1
"#,
        r#"-- invariant next(x) = x + 1  is false
-- as demonstrated by the following execution sequence
Trace Description: AG alpha Counterexample 
Trace Type: Counterexample 
-- Loop starts here
-> State: 1.1 <-
  x = 0
-> State: 1.2 <-
  x = 1
-> State: 1.3 <-
  x = 2
-> State: 1.4 <-
  x = 3
-> State: 1.5 <-
  x = 0
"#,
    ),
    (
        "next_through_a_define",
        r#"MODULE main
VAR x : 0..3;
DEFINE n := next(x);
ASSIGN
  init(x) := 0;
  next(x) := (x + 1) mod 4;
INVARSPEC n != 3 -> x = 2
"#,
        r#"-- invariant (n != 3 -> x = 2)  is false
-- as demonstrated by the following execution sequence
Trace Description: AG alpha Counterexample 
Trace Type: Counterexample 
-> State: 1.1 <-
  x = 0
  n = 1
-> State: 1.2 <-
  x = 1
"#,
    ),
    (
        "deadlock_state_is_not_constrained",
        r#"MODULE main
IVAR i : boolean;
VAR x : boolean;
ASSIGN
  init(x) := TRUE;
TRANS x & next(x) = !x
INVARSPEC x | i
INVARSPEC x
"#,
        r#"-- invariant (x | i)  is true
-- invariant x  is false
-- as demonstrated by the following execution sequence
Trace Description: AG alpha Counterexample 
Trace Type: Counterexample 
-> State: 1.1 <-
  x = TRUE
-> Input: 1.2 <-
  i = FALSE
-> State: 1.2 <-
  x = FALSE
"#,
    ),
    (
        "state_input_defines_in_a_ctl_trace",
        r#"MODULE main
IVAR i : boolean;
VAR x : boolean;
DEFINE
  d := x;
  e := d & i;
  f := !i;
  g := !x;
  h := x & i;
ASSIGN
  init(x) := TRUE;
  next(x) := !x;
SPEC AG d
"#,
        r#"-- specification AG d  is false
-- as demonstrated by the following execution sequence
Trace Description: CTL Counterexample 
Trace Type: Counterexample 
-> State: 1.1 <-
  x = TRUE
  g = FALSE
  d = TRUE
  h = FALSE
  e = FALSE
-> Input: 1.2 <-
  i = FALSE
  f = TRUE
-> State: 1.2 <-
  x = FALSE
  g = TRUE
  d = FALSE
"#,
    ),
    (
        "mixed_with_state_invariants_and_ctl",
        r#"MODULE main
IVAR go : boolean;
VAR n : 0..2;
ASSIGN
  init(n) := 0;
  next(n) := case go & n < 2 : n + 1; !go : 0; TRUE : n; esac;
DEFINE at_top := n = 2;
INVARSPEC n < 2 | !go
INVARSPEC n <= 2
INVARSPEC go -> next(n) != 0
SPEC AG EF n = 0
"#,
        r#"-- specification AG (EF n = 0)  is true
-- invariant (n < 2 | !go)  is false
-- as demonstrated by the following execution sequence
Trace Description: AG alpha Counterexample 
Trace Type: Counterexample 
-> State: 1.1 <-
  n = 0
  at_top = FALSE
-> Input: 1.2 <-
  go = TRUE
-> State: 1.2 <-
  n = 1
-> Input: 1.3 <-
-- Loop starts here
-> State: 1.3 <-
  n = 2
  at_top = TRUE
-> Input: 1.4 <-
-> State: 1.4 <-
-- invariant n <= 2  is true
-- invariant (go -> next(n) != 0)  is true
"#,
    ),
    (
        "next_of_an_input_is_the_step_input",
        r#"MODULE main
IVAR i : boolean;
VAR x : boolean;
ASSIGN
  init(x) := FALSE;
  next(x) := i;
INVARSPEC next(i) -> next(x)
INVARSPEC next(i) = i
"#,
        r#"-- invariant (next(i) -> next(x))  is true
-- invariant next(i) = i  is true
"#,
    ),
    (
        "next_of_an_input_fails_on_the_step",
        r#"MODULE main
IVAR i : boolean;
VAR x : boolean;
ASSIGN
  init(x) := FALSE;
  next(x) := !x;
INVARSPEC next(i) -> x
"#,
        r#"-- invariant (next(i) -> x)  is false
-- as demonstrated by the following execution sequence
Trace Description: AG alpha Counterexample 
Trace Type: Counterexample 
-> State: 1.1 <-
  x = FALSE
-> Input: 1.2 <-
  i = TRUE
-> State: 1.2 <-
  x = TRUE
"#,
    ),
    (
        "next_of_an_expression_over_an_input",
        r#"MODULE main
IVAR i : 0..3;
VAR x : 0..3;
ASSIGN
  init(x) := 0;
  next(x) := i;
INVARSPEC next(x) = next(i)
INVARSPEC next(i + x) < 5
"#,
        r#"-- invariant next(x) = next(i)  is true
-- invariant next(i + x) < 5  is false
-- as demonstrated by the following execution sequence
Trace Description: AG alpha Counterexample 
Trace Type: Counterexample 
-> State: 1.1 <-
  x = 0
-> Input: 1.2 <-
  i = 3
-> State: 1.2 <-
  x = 3
"#,
    ),
];

fn model_file(name: &str, text: &str) -> std::path::PathBuf {
    support::nusmv::temp_model("invar-inputs", name, text)
}

#[test]
fn drop_in_prints_nusmvs_output() {
    for (name, text, expected) in CASES {
        let file = model_file(&format!("{name}-drop-in"), text);
        let out = Command::new(env!("CARGO_BIN_EXE_xmv-rs")).arg(&file).output().expect("run xmv-rs");
        let _ = std::fs::remove_file(&file);
        assert_eq!(out.status.code(), Some(0), "{name}: {}", String::from_utf8_lossy(&out.stderr));
        assert_eq!(without_banner(&out.stdout), *expected, "{name}");
    }
}

#[test]
fn both_engines_print_the_same_verdicts_and_traces() {
    for (name, text, expected) in CASES {
        let file = model_file(&format!("{name}-check"), text);
        for engine in ["explicit", "bdd"] {
            let out = Command::new(env!("CARGO_BIN_EXE_xmv-rs")).args(["check", "--engine", engine]).arg(&file).output().expect("run xmv-rs");
            assert!(matches!(out.status.code(), Some(0 | 1)), "{name} {engine}: {}", String::from_utf8_lossy(&out.stderr));
            assert_eq!(without_banner(&out.stdout), *expected, "{name} {engine}");
        }
        let _ = std::fs::remove_file(&file);
    }
}

#[test]
fn nusmv_still_prints_the_recorded_output() {
    let Some(bin) = support::nusmv::binary("nusmv_still_prints_the_recorded_output") else { return };
    for (name, text, expected) in CASES {
        let file = model_file(&format!("{name}-nusmv"), text);
        let out = Command::new(&bin).arg(&file).output().expect("run NuSMV");
        let _ = std::fs::remove_file(&file);
        assert_eq!(without_banner(&out.stdout), *expected, "{name}");
    }
}

#[test]
fn inputs_stay_forbidden_in_ctl_specs_and_inside_next_outside_invarspec() {
    // NuSMV 2.5.4: "Property contains input variables" for CTL; `next(i)` of an input in
    // TRANS or through a DEFINE: "\"next\" expression contains input variables" (in INVARSPEC
    // it reads `i`, see CASES).
    for (name, text, message) in [
        ("ctl", "MODULE main\nIVAR i : boolean;\nVAR x : boolean;\nSPEC AG (x | i)\n", "input variable `i` is not allowed in a CTL specification"),
        (
            "next_of_input_in_trans",
            "MODULE main\nIVAR i : boolean;\nVAR x : boolean;\nTRANS next(x) = next(i)\nINVARSPEC x\n",
            "input variable `i` is not allowed inside `next(...)`",
        ),
        (
            "next_of_input_through_a_define",
            "MODULE main\nIVAR i : boolean;\nVAR x : boolean;\nDEFINE d := next(i) & !x;\nINVARSPEC !d\n",
            "input variable `i` is not allowed inside `next(...)`",
        ),
    ] {
        let file = model_file(name, text);
        let out = Command::new(env!("CARGO_BIN_EXE_xmv-rs")).arg("check").arg(&file).output().expect("run xmv-rs");
        let _ = std::fs::remove_file(&file);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{name}");
        assert!(stderr.contains("E0206") && stderr.contains(message), "{name}: {stderr}");
    }
}
