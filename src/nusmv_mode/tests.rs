//! Drop-in mode's pieces: the option table against NuSMV 2.5.4's `-h` list, the command-line
//! parser, the mode selection, the command-line splitter and `getopt`, and a whole session run
//! in memory.

use super::commands::split_line;
use super::options::{self, Status};
use super::{run, wanted};

fn strings(words: &[&str]) -> Vec<String> {
    words.iter().map(|w| w.to_string()).collect()
}

/// The option names NuSMV 2.5.4's `NuSMV -h` lists (its text is not copied, only the names).
const NUSMV_254_HELP: &[&str] = &[
    "-h",
    "-help",
    "-AG",
    "-bdd_soh",
    "-coi",
    "-cp",
    "-cpp",
    "-ctt",
    "-dcx",
    "-df",
    "-disable_daggifier",
    "-disable_sexp2bdd_caching",
    "-disable_syntactic_checks",
    "-dynamic",
    "-f",
    "-flt",
    "-i",
    "-ic",
    "-ii",
    "-ils",
    "-int",
    "-ips",
    "-is",
    "-iwl95preorder",
    "-iwls95",
    "-keep_single_value_vars",
    "-load",
    "-lp",
    "-m",
    "-mono",
    "-n",
    "-noaffinity",
    "-o",
    "-obm",
    "-ofm",
    "-ojeba",
    "-old",
    "-old_div_op",
    "-pre",
    "-r",
    "-reorder",
    "-rin",
    "-s",
    "-sat_solver",
    "-sin",
    "-source",
    "-t",
    "-thresh",
    "-v",
];

#[test]
fn every_option_of_nusmv_254_is_in_the_table() {
    for name in NUSMV_254_HELP {
        assert!(options::lookup(name).is_some(), "{name}");
    }
    // Options with an argument in NuSMV take one here too.
    for name in [
        "-bdd_soh",
        "-cp",
        "-i",
        "-iwls95",
        "-load",
        "-m",
        "-n",
        "-o",
        "-obm",
        "-ofm",
        "-ojeba",
        "-pre",
        "-rin",
        "-sat_solver",
        "-sin",
        "-source",
        "-t",
        "-thresh",
        "-v",
    ] {
        assert!(options::lookup(name).and_then(|o| o.arg).is_some(), "{name}");
    }
    // SAT/BMC options are refused, BDD tuning ignored.
    for name in ["-bmc", "-bmc_length", "-sat_solver", "-rin"] {
        assert_eq!(options::lookup(name).map(|o| o.status), Some(Status::Refused), "{name}");
    }
    for name in ["-mono", "-thresh", "-cp", "-iwls95", "-dynamic", "-m"] {
        assert_eq!(options::lookup(name).map(|o| o.status), Some(Status::Mapped), "{name}");
    }
    for name in ["-noaffinity", "-bdd_soh", "-reorder", "-i", "-o"] {
        assert_eq!(options::lookup(name).map(|o| o.status), Some(Status::Ignored), "{name}");
    }
}

#[test]
fn pyboolnets_command_line_sets_nusmvs_variables() {
    let cl = options::parse(&strings(&["-dcx", "-dynamic", "-df", "-coi", "model.smv"])).expect("accepted");
    assert_eq!(cl.input_file.as_deref(), Some("model.smv"));
    let env = |pairs: &[(&'static str, &str)]| pairs.iter().map(|&(k, v)| (k, v.to_string())).collect::<Vec<_>>();
    assert_eq!(cl.env, env(&[("counter_examples", "0"), ("dynamic_reorder", "1"), ("forward_search", "0"), ("cone_of_influence", "1")]));
    assert!(cl.bdd.is_empty());
    assert!(cl.dynamic_reordering);
    let cl = options::parse(&strings(&["-m", "sift", "-n", "3", "-v", "1", "f.smv"])).expect("accepted");
    assert!(cl.env.contains(&("reorder_method", "sift".to_string())));
    assert!(cl.env.contains(&("prop_no", "3".to_string())) && cl.env.contains(&("verbose_level", "1".to_string())));
}

#[test]
fn dynamic_turns_reordering_on_and_m_only_names_the_method() {
    // As in NuSMV 2.5.4 (`opt_reorder_method_trigger`): `-m` alone leaves reordering off.
    let parsed = |args: &[&str]| options::parse(&strings(args)).expect("accepted");
    assert!(!parsed(&["-m", "group_sift", "f.smv"]).dynamic_reordering);
    assert!(parsed(&["-m", "window2", "-dynamic", "f.smv"]).dynamic_reordering);
    assert!(parsed(&["-dynamic", "-m", "exact", "f.smv"]).dynamic_reordering);
    assert!(!parsed(&["-reorder", "f.smv"]).dynamic_reordering);
    for method in options::REORDER_METHODS {
        assert!(options::parse(&strings(&["-m", method, "f.smv"])).is_ok(), "{method}");
    }
    let refusal = options::parse(&strings(&["-m", "foo", "f.smv"])).err().map(|r| r.0);
    assert_eq!(refusal.as_deref(), Some("Cannot set value \"foo\" to option \"-m\""));
}

#[test]
fn bad_command_lines_get_nusmvs_messages() {
    let refusal = |args: &[&str]| options::parse(&strings(args)).err().map(|r| r.0).unwrap_or_default();
    assert_eq!(refusal(&["-bogus", "f.smv"]), "The command line option \"-bogus\" is unknown");
    assert!(refusal(&["-bmc", "f.smv"]).contains("not supported"));
    assert!(refusal(&["-n"]).contains("requires an argument"));
    assert!(refusal(&["-n", "x", "f.smv"]).contains("property index"));
    assert!(refusal(&["a.smv", "b.smv"]).contains("twice"));
    assert!(refusal(&["-source", "a", "-load", "b"]).contains("incompatible"));
}

#[test]
fn drop_in_mode_is_chosen_by_name_or_argument_shape() {
    assert!(wanted(&strings(&["/usr/bin/NuSMV", "-h"])));
    assert!(wanted(&strings(&["nusmv"])));
    assert!(wanted(&strings(&["./NuSMV-2.5.4", "check"])));
    assert!(wanted(&strings(&["xmv-rs", "-dcx", "model.smv"])));
    assert!(wanted(&strings(&["xmv-rs", "model.smv"])));
    assert!(wanted(&strings(&["xmv-rs", "-int"])));
    assert!(!wanted(&strings(&["xmv-rs", "check", "model.smv"])));
    assert!(!wanted(&strings(&["xmv-rs", "list-specs", "model.smv"])));
    assert!(!wanted(&strings(&["xmv-rs", "--help"])));
    assert!(!wanted(&strings(&["xmv-rs", "-h"])));
    assert!(!wanted(&strings(&["xmv-rs"])));
}

#[test]
fn command_lines_split_like_nusmvs_shell() {
    assert_eq!(split_line("check_ctlspec -p \"AG x < 2\"  # a comment"), vec![strings(&["check_ctlspec", "-p", "AG x < 2"])]);
    assert_eq!(split_line("go; check_invar;quit"), vec![strings(&["go"]), strings(&["check_invar"]), strings(&["quit"])]);
    assert_eq!(split_line("   "), Vec::<Vec<String>>::new());
    assert_eq!(split_line("echo a#b"), vec![strings(&["echo", "a#b"])]);
}

/// Runs NuSMV's command line in memory: (status, stdout without the banner, stderr).
fn session(args: &[&str], stdin: &str) -> (i32, String, String) {
    let (mut out, mut err) = (vec![], vec![]);
    let mut input = stdin.as_bytes();
    let status = run(&strings(args), &mut out, &mut err, &mut input);
    let out = String::from_utf8_lossy(&out).into_owned();
    let body = out.lines().skip_while(|l| l.starts_with("*** ")).map(|l| format!("{l}\n")).collect();
    (status, body, String::from_utf8_lossy(&err).into_owned())
}

#[test]
fn a_model_on_stdin_is_checked_in_batch_mode() {
    let model = "MODULE main\nVAR b : boolean;\nASSIGN init(b) := FALSE; next(b) := !b;\nSPEC AG (b -> AX !b)\nINVARSPEC NAME never := b\n";
    let (status, out, _) = session(&["NuSMV", "-dcx"], model);
    assert_eq!(status, 0, "false specs do not change the status");
    assert_eq!(out, "\n-- specification AG (b -> AX !b)  is true\n-- invariant b  is false\n");
    let (status, out, _) = session(&["NuSMV", "-lp"], model);
    assert_eq!(status, 0);
    assert!(out.contains("000 : AG (b -> AX !b) \n  [CTL            Unchecked      N/A    N/A]\n"), "{out}");
    assert!(out.contains("001 : b \n  [Invar          Unchecked      N/A    never]\n"), "{out}");
    let (status, _, err) = session(&["NuSMV", "-n", "2"], model);
    assert_eq!(status, 1);
    assert!(err.contains("property index \"2\" is not valid (must be in the range [0,1])"), "{err}");
}

#[test]
fn commands_need_their_predecessors_and_unknown_ones_abort_a_script() {
    let (status, out, err) = session(&["NuSMV", "-int"], "check_ctlspec\nbuild_model\nset input_file /nonexistent.smv\nread_model\nfrobnicate\nquit\n");
    assert_eq!(status, 0);
    assert_eq!(out, "\nNuSMV > NuSMV > NuSMV > NuSMV > NuSMV > NuSMV > \n", "six prompts (the helper ends each line)");
    assert!(err.contains("A model must be read before. Use the \"read_model\" command."), "{err}");
    assert!(err.contains("cannot open input file /nonexistent.smv"), "{err}");
    assert!(err.contains("unknown command 'frobnicate'"), "{err}");
    // End of input without `quit`: five reminders, then the session ends.
    let (status, _, err) = session(&["NuSMV", "-int"], "");
    assert_eq!(status, 0);
    assert_eq!(err.matches("Use \"quit\" to leave NuSMV.").count(), 5);
}

/// Past the drop-in's explicit budget (`session::DROPIN_EXPLICIT_STATES`) the BDD engine builds the
/// flat model: CTL, LTL (with a lasso counterexample) and invariants are answered as NuSMV
/// answers them, `-r` and `check_fsm` work on BDDs, `print_reachable_states -v` says why not.
#[test]
fn large_models_are_checked_on_bdds_in_drop_in_mode() {
    let mut model = String::from("MODULE main\nVAR\n");
    for i in 0..17 {
        model.push_str(&format!("  b{i} : boolean;\n"));
    }
    model.push_str("  c : 0..2;\nASSIGN\n  next(c) := case c = 2 : 2; TRUE : c + 1; esac;\nTRANS !(c = 2 & b0)\n");
    model.push_str("SPEC AG EF c = 2\nLTLSPEC G (c = 1 -> X c = 2)\nLTLSPEC F G c = 2\nLTLSPEC G b1\nINVARSPEC c < 2\n");
    let (status, out, err) = session(&["NuSMV", "-dcx", "-r"], &model);
    assert_eq!(status, 0, "{err}");
    // NuSMV 2.5.4's stdout on this model.
    assert_eq!(
        out,
        "\n-- specification AG (EF c = 2)  is true\n-- specification  G (c = 1 ->  X c = 2)  is true\n-- specification  F ( G c = 2)  is true\n\
         -- specification  G b1  is false\n-- invariant c < 2  is false\nsystem diameter: 1\n\
         reachable states: 393216 (2^18.585) out of 393216 (2^18.585)\n"
    );
    let (status, out, _) = session(&["NuSMV"], &model);
    assert_eq!(status, 0);
    let lasso = out.split("Trace Description: LTL Counterexample").nth(1).expect("an LTL counterexample");
    assert!(lasso.split("-- invariant").next().is_some_and(|t| t.contains("-- Loop starts here")), "{out}");
    let script = "go\ncheck_fsm\nprint_reachable_states -v\npick_state\nquit\n";
    let file = std::env::temp_dir().join(format!("xmv-dropin-bdd-{}.smv", std::process::id()));
    std::fs::write(&file, &model).expect("write the model");
    let path = file.to_string_lossy().into_owned();
    let (status, out, err) = session(&["NuSMV", "-int", &path], script);
    let _ = std::fs::remove_file(&file);
    assert_eq!(status, 0);
    assert!(out.contains("The transition relation is not total. A state without\nsuccessors is:\nb0 = TRUE\n"), "{out}");
    assert!(out.contains("c = 2\nThe transition relation is not deadlock-free."), "{out}");
    assert!(err.contains("lists the states of explicit state spaces only; this one has 393216 states"), "{err}");
    assert!(err.contains("pick_state and simulate need the explicit state space"), "{err}");
}

/// `pick_state -r` and `simulate -r` choose at random: every printed trace must be a path of the
/// model (an initial state, then successors with the inputs that lead to them), and over a few
/// runs both successors of a state are taken.
#[test]
fn random_simulations_are_paths_of_the_model() {
    let model = "MODULE main\nVAR x : 0..7; y : boolean;\nIVAR i : boolean;\nASSIGN\n  init(x) := {1, 3, 5};\n  \
                 next(x) := case i : (x + 1) mod 8; TRUE : (x + 3) mod 8; esac;\n  next(y) := case x = 7 : !y; TRUE : y; esac;\n";
    let file = std::env::temp_dir().join(format!("xmv-dropin-sim-{}.smv", std::process::id()));
    std::fs::write(&file, model).expect("write the model");
    let path = file.to_string_lossy().into_owned();
    let (mut plus_one, mut plus_three) = (0, 0);
    for _ in 0..4 {
        let (status, out, err) = session(&["NuSMV", "-int", &path], "go\npick_state -r\nsimulate -r -k 30\nshow_traces -v\nquit\n");
        assert_eq!(status, 0, "{err}");
        // (x, y, i on the step into the state) per state, from `show_traces -v` (all values).
        let mut states: Vec<(i64, bool, Option<bool>)> = vec![];
        let mut input = None;
        let mut x = None;
        for line in out.lines().map(str::trim) {
            if let Some(v) = line.strip_prefix("i = ") {
                input = Some(v == "TRUE");
            } else if let Some(v) = line.strip_prefix("x = ") {
                x = v.parse::<i64>().ok();
            } else if let Some(v) = line.strip_prefix("y = ") {
                states.push((x.expect("x before y"), v == "TRUE", input.take()));
            }
        }
        assert_eq!(states.len(), 31, "{out}");
        assert!([1, 3, 5].contains(&states[0].0) && states[0].2.is_none(), "{out}");
        for w in states.windows(2) {
            let ((x, y, _), (x2, y2, i)) = (w[0], w[1]);
            let i = i.expect("an input on every step");
            assert_eq!(x2, if i { (x + 1) % 8 } else { (x + 3) % 8 }, "{out}");
            assert_eq!(y2, if x == 7 { !y } else { y }, "{out}");
            if i {
                plus_one += 1;
            } else {
                plus_three += 1;
            }
        }
    }
    let _ = std::fs::remove_file(&file);
    assert!(plus_one > 0 && plus_three > 0, "random choices take both successors");
}

/// `-old_div_op` reaches the BDD engine too (the operators are rewritten when resolving): past
/// the explicit budget the verdicts are those of NuSMV 2.5.4 with the option.
#[test]
fn old_division_semantics_on_bdds() {
    let mut model = String::from("MODULE main\nVAR a : -7..7; b : {-3, -2, 2, 3};\n");
    for i in 0..16 {
        model.push_str(&format!("  p{i} : boolean;\n"));
    }
    model.push_str("SPEC AG (a = -7 & b = 2 -> a / b = -4 & a mod b = 1)\nSPEC AG (a = -7 & b = -2 -> a / b = 2 & a mod b = -3)\n");
    model.push_str("INVARSPEC a / b * b + a mod b = a\n");
    let (status, out, err) = session(&["NuSMV", "-dcx", "-old_div_op", "-r"], &model);
    assert_eq!(status, 0, "{err}");
    assert!(out.contains("is true\n-- specification AG ((a = -7 & b = -2) -> (a / b = 2 & a mod b = -3))  is true\n"), "{out}");
    assert!(out.contains("-- invariant (a / b) * b + a mod b = a  is true\n"), "{out}");
    assert!(out.contains("reachable states: 3.93216e+06 "), "past the explicit budget: {out}");
    let (_, out, _) = session(&["NuSMV", "-dcx"], &model);
    assert_eq!(out.matches("is false").count(), 2, "ANSI C semantics without the option: {out}");
}

#[test]
fn partitioning_options_choose_the_bdd_engines_clustering() {
    use crate::symbolic::trans::Partitioning;
    let chosen = |args: &[&str]| options::parse(&strings(args)).expect("accepted").partitioning;
    assert_eq!(chosen(&["-dcx", "f.smv"]), None);
    assert_eq!(chosen(&["-thresh", "1000", "f.smv"]), Some(Partitioning::Threshold(1000)));
    assert_eq!(chosen(&["-cp", "200", "f.smv"]), Some(Partitioning::Threshold(200)));
    assert_eq!(chosen(&["-iwls95", "500", "f.smv"]), Some(Partitioning::Iwls95(500)));
    // The method is -iwls95's or -mono's whatever the order; -thresh only sets a threshold.
    assert_eq!(chosen(&["-thresh", "10", "-iwls95", "20", "f.smv"]), Some(Partitioning::Iwls95(20)));
    assert_eq!(chosen(&["-iwls95", "20", "-thresh", "10", "f.smv"]), Some(Partitioning::Iwls95(20)));
    assert_eq!(chosen(&["-mono", "-thresh", "10", "f.smv"]), Some(Partitioning::Monolithic));
    let refusal = options::parse(&strings(&["-thresh", "big", "f.smv"])).err().map(|r| r.0).unwrap_or_default();
    assert!(refusal.contains("cluster size"), "{refusal}");
}
