//! NuSMV 2.5.4 language features that public models use: each small model (written for this
//! test in the style of NuSMV's examples) is checked by the `xmv-rs` binary and its verdicts must
//! equal the ones NuSMV 2.5.4 prints for it, written next to the model (CTL specs in file
//! order, then invariants, as NuSMV prints them). With `NUSMV=/path/to/NuSMV` set, NuSMV is run
//! on every model too and must print the same verdicts; without it that part is skipped.

use std::path::PathBuf;
use std::process::Command;

/// Verdicts of `-- specification` / `-- invariant` lines, in output order.
fn verdicts_of(stdout: &str) -> Vec<bool> {
    (stdout.lines()).filter(|l| l.starts_with("-- specification ") || l.starts_with("-- invariant ")).map(|l| l.trim_end().ends_with(" is true")).collect()
}

fn write_model(name: &str, text: &str) -> PathBuf {
    let file = std::env::temp_dir().join(format!("xmv-lang-{}-{name}.smv", std::process::id()));
    std::fs::write(&file, text).expect("write temporary model");
    file
}

/// Runs `xmv-rs check --no-trace` on `text`: verdicts, stderr, exit code.
pub fn xmv(name: &str, text: &str) -> (Vec<bool>, String, i32) {
    let file = write_model(name, text);
    let out = Command::new(env!("CARGO_BIN_EXE_xmv-rs")).arg("check").arg("--no-trace").arg(&file).output().expect("run xmv-rs");
    let _ = std::fs::remove_file(&file);
    (verdicts_of(&String::from_utf8_lossy(&out.stdout)), String::from_utf8_lossy(&out.stderr).into_owned(), out.status.code().unwrap_or(-1))
}

fn nusmv(name: &str, text: &str) -> Option<Vec<bool>> {
    let bin = PathBuf::from(std::env::var_os("NUSMV")?);
    if !bin.is_file() {
        return None;
    }
    let file = write_model(&format!("{name}-nusmv"), text);
    let out = Command::new(bin).arg("-dcx").arg(&file).output().expect("run NuSMV");
    let _ = std::fs::remove_file(&file);
    Some(verdicts_of(&String::from_utf8_lossy(&out.stdout)))
}

/// Checks `text` and compares with the verdicts NuSMV 2.5.4 gives (and with NuSMV itself when
/// `NUSMV` is set). Returns xmv-rs's stderr (warnings).
#[track_caller]
fn agree(name: &str, text: &str, expected: &[bool]) -> String {
    let (ours, stderr, code) = xmv(name, text);
    assert!(code == 0 || code == 1, "{name}: xmv-rs failed:\n{stderr}");
    assert_eq!(ours, expected, "{name}: xmv-rs verdicts\n{stderr}");
    if let Some(theirs) = nusmv(name, text) {
        assert_eq!(theirs, expected, "{name}: NuSMV verdicts");
    }
    stderr
}

#[test]
fn define_declares_a_member_of_the_instance_a_parameter_stands_for() {
    // dme1.smv style: each cell defines `ack` of its left neighbour.
    let model = "\
MODULE cell(left, token)
VAR out : boolean;
ASSIGN
  init(out) := token;
  next(out) := ack;
DEFINE
  left.ack := out;

MODULE main
VAR
  c-3 : cell(c-1, TRUE);
  c-2 : cell(c-3, FALSE);
  c-1 : cell(c-2, FALSE);
SPEC AG (c-1.out -> AX c-3.out)
SPEC AG (c-1.out -> AX c-2.out)
SPEC AG EF c-2.out
";
    agree("define_param_member", model, &[false, true, true]);
}

#[test]
fn define_through_self_and_sub_instances() {
    // syncarb5.smv style: a parameter bound to `self` (main), and main defining a member of a
    // sub-instance that the sub-instance itself reads.
    let model = "\
MODULE element(above, tok)
VAR t : boolean;
ASSIGN
  init(t) := tok;
  next(t) := token-in;
DEFINE
  above.token-in := t;

MODULE main
VAR
  e2 : element(self, FALSE);
  e1 : element(e2, TRUE);
DEFINE
  e1.token-in := token-in;
SPEC AG (e1.t xor e2.t)
SPEC AG (e1.t -> AX e2.t)
SPEC AG (e1.t -> AX e1.t)
";
    agree("define_self_member", model, &[true, true, false]);
}

#[test]
fn variables_and_defines_named_by_paths() {
    let model = "\
MODULE main
VAR some_var[3] : boolean;
  C_1_st.SSA.1.ssa : boolean;
  a.b : 0..3;
  arr : array 0..1 of boolean;
  arr[2] : boolean;
DEFINE
  d.e := a.b + 1;
ASSIGN
  init(some_var[3]) := TRUE;
  next(C_1_st.SSA.1.ssa) := !C_1_st.SSA.1.ssa;
  init(a.b) := 0;
  next(a.b) := (a.b + 1) mod 4;
SPEC AG (d.e > 0)
SPEC AG (arr[2] | !arr[2])
SPEC AG (C_1_st.SSA.1.ssa -> AX !C_1_st.SSA.1.ssa)
SPEC AG (d.e < 4)
INVARSPEC some_var[3]
";
    agree("path_names", model, &[true, true, true, false, false]);
}

#[test]
fn assignments_to_members_of_instances_and_parameters() {
    let model = "\
MODULE cell
VAR x : boolean;
MODULE user(p, v)
ASSIGN
  init(p.x) := FALSE;
  next(p.x) := !p.x;
  init(v) := TRUE;
  next(v) := p.x;
MODULE main
VAR c : cell; q : boolean; u : user(c, q); arr : array 0..2 of boolean;
ASSIGN
  init(arr[2]) := FALSE;
  next(arr[2]) := q;
SPEC AG (c.x -> AX !c.x)
SPEC AG (q -> c.x)
SPEC AG (c.x -> AX q)
";
    agree("assign_members", model, &[true, false, true]);
}

#[test]
fn isa_copies_the_sections_of_a_module() {
    // gigamax.smv style: the included module reads the including module's parameters.
    let model = "\
MODULE bus-device
VAR master : boolean;
DEFINE abort := STALL & master;

MODULE cache-device
VAR state : {invalid, owned};
ASSIGN
  init(state) := invalid;
  next(state) := case abort : state; master : owned; TRUE : invalid; esac;

MODULE processor(STALL)
ISA bus-device
ISA cache-device

MODULE main
VAR stall : boolean; p : processor(stall);
SPEC AG EF p.state = owned
SPEC AG (p.abort -> AX p.state = p.state)
SPEC AG ((p.state = owned & stall & p.master) -> AX p.state = owned)
";
    let stderr = agree("isa", model, &[true, true, true]);
    assert_eq!(stderr.matches("warning[W0004]").count(), 2, "{stderr}");
    assert!(!stderr.contains("W0003"), "included modules are used:\n{stderr}");
}

/// `a | b | …` with 20,000 terms and `(a | (b | (c | …)))` nested 5,000 deep: NuSMV 2.5.4
/// accepts both.
#[test]
fn long_and_deeply_bracketed_chains() {
    let terms: Vec<String> = (0..20_000).map(|i| format!("x = {}", i % 7)).collect();
    let chain = terms.join(" | ");
    let nested = format!("{}x = 6{}", (0..5000).map(|i| format!("(x = {} | ", i % 6)).collect::<String>(), ")".repeat(5000));
    let conj = (0..20_000).map(|i| format!("x != {}", 7 + i % 5)).collect::<Vec<_>>().join(" & ");
    let model = format!(
        "MODULE main\nVAR x : 0..6;\nASSIGN next(x) := (x + 1) mod 7;\nDEFINE big := {chain};\n\
         SPEC AG ({chain})\nSPEC AG {nested}\nSPEC AG ({conj})\nTRANS big & ({conj})\nINVARSPEC ({chain}) & !({conj} & x = 7)\n"
    );
    agree("chains", &model, &[true, true, true, true]);
}

#[test]
fn a_module_may_be_called_clock() {
    let model = "\
MODULE clock
VAR tick : boolean;
ASSIGN init(tick) := FALSE; next(tick) := !tick;
MODULE main
VAR c : clock;
SPEC AG (c.tick -> AX !c.tick)
";
    agree("clock", model, &[true]);
}

#[test]
fn large_define_bodies_are_shared_not_copied() {
    // tcas.smv style: each DEFINE uses the previous one twice. Copied into every use, d18 would
    // be about 5 M nodes (over the 4 M allocation budget, E0220 before sharing); shared, the
    // program grows with the text.
    let mut model = String::from("MODULE main\nVAR x : boolean; y : 0..3;\nASSIGN next(y) := (y + 1) mod 4;\nDEFINE\n  d0 := x & y < 3 | !x & y >= 1;\n");
    for i in 1..=18 {
        model += &format!("  d{i} := d{} & (d{} | y = {});\n", i - 1, i - 1, i % 4);
    }
    model += "SPEC AG (d18 = (x & y < 3 | !x & y >= 1))\nSPEC EF !d18\nSPEC AG d18\n";
    agree("shared-defines", &model, &[true, true, false]);
}

#[test]
fn procedure_label_with_arithmetic_at_the_exit_location() {
    // Regression: at the all-EXIT location `n + 1` failed (E0506, "found Exit"). EXIT is a value
    // unlike every number: arithmetic on it gives EXIT, ordering comparisons are false.
    let model = "\
MODULE main
VAR n : 0..3;
CALL sub := n = 1;
DEFINE
  big := n + 1 > 2;
  neg := n = 1 | -n < 0;
ASSIGN
  init(n) := 0;
  next(n) := case n < 3 : n + 1; TRUE : EXIT; esac;
SPEC EF big
SPEC AG (n = 3 -> EX !big)
SPEC AG (n = 3 -> EX big)
SPEC AG (n = 3 -> EX neg)

MODULE sub
VAR b : boolean;
ASSIGN
  init(b) := FALSE;
  next(b) := EXIT;
";
    let (verdicts, stderr, code) = xmv("exit-arithmetic", model);
    assert_eq!(code, 1, "{stderr}");
    assert_eq!(verdicts, [true, true, false, false], "{stderr}");
}

#[test]
fn input_variables_in_fairness() {
    // NuSMV's fairness sets may mention inputs: the input of the step into the state. xmv-rs
    // records such an input in the state; TRANS and `next()` read it as the step's input.
    let direct = "\
MODULE main
VAR x : boolean;
IVAR i : boolean;
ASSIGN init(x) := FALSE;
TRANS next(x) = i
FAIRNESS i
SPEC EG !x
SPEC AG AF x
";
    agree("ivar-fairness", direct, &[false, true]);
    let channel = "\
MODULE main
VAR st : {idle, sending, done};
IVAR
  drop : boolean;
  pick : 0..2;
DEFINE delivered := !drop;
ASSIGN
  init(st) := idle;
  next(st) := case
    st = idle : sending;
    st = sending & delivered : done;
    st = done & pick = 2 : idle;
    TRUE : st;
  esac;
FAIRNESS delivered
JUSTICE pick = 2 & st = idle
SPEC AG (st = sending -> AF st = done)
SPEC AG AF st = idle
SPEC EG st = sending
SPEC AG EF st = done
SPEC EF EG st = done
";
    agree("ivar-fairness-channel", channel, &[true, true, false, true, false]);
    let without_justice = channel.replace("JUSTICE pick = 2 & st = idle\n", "");
    agree("ivar-fairness-channel-2", &without_justice, &[true, false, false, true, true]);
    // Inputs stay forbidden in specs and INVAR.
    let (_, stderr, code) = xmv("ivar-spec", "MODULE main\nVAR x : boolean;\nIVAR i : boolean;\nFAIRNESS i\nSPEC AG i\n");
    assert_eq!(code, 2);
    assert!(stderr.contains("E0206"), "{stderr}");
}

#[test]
fn variable_indices_into_arrays_of_arrays() {
    let model = "\
MODULE main
VAR m : array 1..2 of array 0..2 of 0..5; i : 1..2; j : 0..2;
ASSIGN
  init(m[1][0]) := 0; init(m[1][1]) := 1; init(m[1][2]) := 2;
  init(m[2][0]) := 3; init(m[2][1]) := 4; init(m[2][2]) := 5;
  next(m[1][0]) := m[1][0]; next(m[1][1]) := m[1][1]; next(m[1][2]) := m[1][2];
  next(m[2][0]) := m[2][0]; next(m[2][1]) := m[2][1]; next(m[2][2]) := m[2][2];
SPEC AG m[i][j] = (i - 1) * 3 + j
SPEC AG m[2][j] >= 3
SPEC AG m[i][1] = 3 * i - 2
SPEC EF m[i][j] = 5
SPEC AG m[i][j] < 5
";
    agree("array-of-arrays", model, &[true, true, true, true, false]);
}

#[test]
fn fairness_of_procedure_modules_is_ignored_with_a_warning() {
    // `EG pc = a` holds on the unfair path that stays in `a`; the RKS engines have no fairness,
    // so FAIRNESS/JUSTICE of a procedure module is reported (W0005) and the verdict is that of
    // every path. (NuSMV has no procedure modules: no comparison.)
    let model = "\
MODULE main
VAR pc : {a, b, c};
ASSIGN
  init(pc) := a;
  next(pc) := case pc = a : {a, b}; pc = b : c; TRUE : a; esac;
CALL sub := pc = b;
FAIRNESS pc = c
JUSTICE pc != a
SPEC EG pc = a
SPEC AF pc = b

MODULE sub
VAR y : boolean;
ASSIGN
  init(y) := FALSE;
  next(y) := TRUE;
EXIT done := y;
";
    let (verdicts, stderr, code) = xmv("procedure_fairness", model);
    assert_eq!((verdicts, code), (vec![true, false], 1), "{stderr}");
    assert_eq!(stderr.matches("warning[W0005]").count(), 2, "{stderr}");
    // The same model without CALL is flat: fairness is used and the verdicts flip.
    let flat = model.replace("CALL sub := pc = b;\n", "").split("MODULE sub").next().unwrap_or_default().to_string();
    let (verdicts, stderr, _) = xmv("flat_fairness", &flat);
    assert_eq!(verdicts, vec![false, true], "{stderr}");
    assert!(!stderr.contains("W0005"), "{stderr}");
}

#[test]
fn array_defines_with_constant_and_variable_indices() {
    // NuSMV 2.5's `DEFINE a := [e0, e1, …];`, indexed from 0; nested arrays; elements that read
    // variables; an index computed from variables, also in `next()`.
    let model = "\
MODULE main
VAR
  x : 0..2;
  b : boolean;
DEFINE
  a := [1, 5, 7];
  m := [[1, 2], [3, 4]];
  c := [b, !b, TRUE];
  succ := [x + 1, x + 1, 0];
ASSIGN
  init(x) := 0;
  next(x) := succ[x];
SPEC AG (a[x] < 8)
SPEC AG (a[0] = 1)
SPEC AG (m[1][0] = 3)
SPEC AG (c[x] | !c[x])
SPEC EF (a[x] = 7)
SPEC AG (a[x] != 5)
SPEC AG (m[x mod 2][1] > 1)
SPEC AG (x = 2 -> c[x])
SPEC AG (x = 0 -> c[x])
INVARSPEC a[x] >= 1
";
    agree("array_defines", model, &[true, true, true, true, true, false, true, true, false, true]);
}

#[test]
fn double_quoted_names_are_identifiers() {
    // As translators write them (`"self.out" : word[16]`): a double-quoted name is one
    // identifier, quotes included, for modules, parameters, variables, DEFINEs and enumeration
    // values; `--` inside it is no comment and `.` no member access.
    let model = r#"
MODULE "stage"("in")
VAR "self.out" : unsigned word[16];
ASSIGN
  init("self.out") := 0ud16_0;
  next("self.out") := case "in" : "self.out" + 0ud16_1; TRUE : "self.out"; esac;

MODULE main
VAR
  "st" : {"idle", "busy done"};
  s : "stage"("st" = "busy done");
ASSIGN
  init("st") := "idle";
  next("st") := case "st" = "idle" : "busy done"; TRUE : {"idle", "busy done"}; esac;
DEFINE
  "ready--1" := s."self.out" < 0ud16_4;
INVARSPEC (s."self.out" < 0ud16_4)
SPEC AG EF "ready--1"
SPEC AG ("st" = "idle" -> AX "st" = "busy done")
"#;
    agree("quoted_names", model, &[true, true, false]);
    // The verdict lines print the names as NuSMV does, quotes included.
    let file = write_model("quoted_names_text", model);
    let out = Command::new(env!("CARGO_BIN_EXE_xmv-rs")).args(["check", "--no-trace"]).arg(&file).output().expect("run xmv-rs");
    let _ = std::fs::remove_file(&file);
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "-- specification AG (EF \"ready--1\")  is true\n-- specification AG (\"st\" = \"idle\" -> AX \"st\" = \"busy done\")  is true\n-- invariant s.\"self.out\" < 0ud16_4  is false\n"
    );
}

#[test]
fn abs_min_max_are_names_as_in_nusmv_2_5() {
    // NuSMV 2.5.4 does not reserve them (2.6 does, for its functions); followed by `(` they are
    // still xmv-rs's functions.
    let model = "\
MODULE main
VAR
  max : 0..3;
  min : boolean;
DEFINE abs := max + 1;
ASSIGN
  init(max) := 0;
  next(max) := (max + 1) mod 4;
  next(min) := !min;
SPEC AG (abs > 0)
SPEC AG EF max = 3
SPEC AG (min -> AX !min)
";
    agree("abs_min_max_names", model, &[true, true, true]);
    let calls = "\
MODULE main
VAR x : 0..5;
ASSIGN
  init(x) := 0;
  next(x) := max(x - 1, min(abs(x - 3), 5));
SPEC AG EF x = 0
";
    let (verdicts, stderr, _) = xmv("abs_min_max_calls", calls);
    assert_eq!(verdicts, [false], "{stderr}");
}
