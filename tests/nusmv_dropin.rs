//! NuSMV drop-in mode against recorded NuSMV 2.5.4 sessions (no NuSMV needed): every case of
//! `tests/nusmv_dropin/cases.txt` is run through xmv-rs started as `NuSMV` (and once more with
//! NuSMV's argument shape under the name `xmv-rs`); stdout after the banner and the exit status
//! must equal NuSMV's recording in `tests/nusmv_dropin/expected/` (made by `record.sh`). The
//! models and scripts are written for these tests. With `NUSMV` set, the recordings are also
//! checked to be what that NuSMV prints now.

use std::path::{Path, PathBuf};

mod support;

fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/nusmv_dropin")
}

/// (name, arguments) of every recorded case.
fn cases() -> Vec<(String, Vec<String>)> {
    let text = std::fs::read_to_string(dir().join("cases.txt")).expect("cases.txt");
    text.lines()
        .filter(|l| !l.starts_with('#') && l.contains('|'))
        .map(|l| {
            let (name, args) = l.split_once('|').unwrap_or_default();
            (name.trim().to_string(), args.split_whitespace().map(str::to_string).collect())
        })
        .collect()
}

/// Runs `program` with `argv0` as its name; returns (status, stdout, stderr).
fn run(program: &Path, argv0: &str, args: &[String], stdin: &str) -> (i32, String, String) {
    support::nusmv::run_named(program, argv0, &dir(), args, stdin)
}

/// Stdout without xmv-rs's banner (its `*** ` lines); the blank line after it stays, as in the
/// recordings (NuSMV's banner is cut after its last `*** ` line).
fn without_banner(stdout: &str) -> String {
    let mut rest = stdout;
    while rest.starts_with("*** ") {
        rest = rest.split_once('\n').map_or("", |(_, r)| r);
    }
    rest.to_string()
}

fn expected(name: &str) -> (i32, String) {
    let status = std::fs::read_to_string(dir().join(format!("expected/{name}.status"))).expect("status");
    let stdout = std::fs::read_to_string(dir().join(format!("expected/{name}.stdout"))).expect("stdout");
    (status.trim().parse().expect("a status"), stdout)
}

#[test]
fn recorded_nusmv_sessions_replay_identically() {
    let xmv = Path::new(env!("CARGO_BIN_EXE_xmv-rs"));
    let cases = cases();
    assert!(cases.len() >= 20, "{} cases", cases.len());
    let mut failures = vec![];
    for (name, args) in &cases {
        let (want_status, want_stdout) = expected(name);
        let (status, stdout, stderr) = run(xmv, "NuSMV", args, "");
        let stdout = without_banner(&stdout);
        if status != want_status || stdout != want_stdout {
            failures.push(format!(
                "case {name} ({args:?}): status {status}, NuSMV {want_status}\n--- xmv-rs\n{stdout}--- NuSMV\n{want_stdout}--- stderr\n{stderr}"
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// NuSMV's static range check ("cannot assign value V to variable x", E0510): stderr starts with
/// NuSMV's text, byte for byte (then xmv-rs's diagnostic follows), and the status is NuSMV's 1.
#[test]
fn range_errors_print_nusmvs_message() {
    let xmv = Path::new(env!("CARGO_BIN_EXE_xmv-rs"));
    let cases: Vec<_> = cases().into_iter().filter(|(n, _)| n.starts_with("range_")).collect();
    assert_eq!(cases.len(), 4);
    for (name, args) in &cases {
        let want = std::fs::read_to_string(dir().join(format!("expected/{name}.stderr"))).expect("stderr");
        let (status, _, stderr) = run(xmv, "NuSMV", args, "");
        assert_eq!(status, 1, "{name}");
        assert!(want.contains("cannot assign value"), "{name}: {want}");
        assert!(stderr.starts_with(&want), "{name}:\n--- xmv-rs\n{stderr}--- NuSMV\n{want}");
        assert!(stderr.contains("error[E0510]"), "{name}: {stderr}");
    }
}

#[test]
fn nusmv_argument_shape_selects_drop_in_mode_under_any_name() {
    let xmv = Path::new(env!("CARGO_BIN_EXE_xmv-rs"));
    for name in ["pyboolnet", "batch", "index"] {
        let (_, args) = cases().into_iter().find(|(n, _)| n == name).expect("case");
        let (want_status, want_stdout) = expected(name);
        let (status, stdout, _) = run(xmv, "xmv-rs", &args, "");
        assert_eq!((status, without_banner(&stdout)), (want_status, want_stdout), "{name}");
        assert!(stdout.starts_with("*** This is xmv-rs"), "{stdout}");
    }
    // The subcommands keep xmv-rs's own command line and exit codes.
    let (status, stdout, _) = run(xmv, "xmv-rs", &["check".into(), "counter.smv".into()], "");
    assert_eq!(status, 1, "a false spec: xmv-rs check exits with 1");
    assert!(!stdout.contains("***"));
}

#[test]
fn interactive_mode_reads_commands_from_stdin() {
    let xmv = Path::new(env!("CARGO_BIN_EXE_xmv-rs"));
    let input = "read_model -i counter.smv\ngo\ncheck_ctlspec -n 1\nfoo\nshow_traces\nquit\n";
    let (status, stdout, stderr) = run(xmv, "nusmv", &["-int".into()], input);
    assert_eq!(status, 0);
    let stdout = without_banner(&stdout);
    assert_eq!(stdout, "\nNuSMV > NuSMV > NuSMV > -- specification AG (EF x = 0)  is true\nNuSMV > NuSMV > NuSMV > ");
    assert!(stderr.contains("unknown command 'foo'"), "{stderr}");
    assert!(stderr.contains("There are no traces currently available."), "{stderr}");
}

/// `print_reachable_states -v` lists each state once as NuSMV counts states: a FAIRNESS
/// constraint on an input makes xmv-rs record the input in its states, and states that differ
/// only in that record were listed twice, with the input shown as a state variable.
#[test]
fn reachable_state_listing_leaves_out_recorded_inputs() {
    let xmv = Path::new(env!("CARGO_BIN_EXE_xmv-rs"));
    let input = "read_model -i step_input.smv\ngo\nprint_reachable_states -v\nquit\n";
    let (status, stdout, _) = run(xmv, "NuSMV", &["-int".into()], input);
    assert_eq!(status, 0);
    assert!(stdout.contains("reachable states: 8 (2^3) out of 8 (2^3)"), "{stdout}");
    let mut listed: Vec<(String, String)> = vec![];
    for block in stdout.split("------- State").skip(1) {
        let line = |name: &str| block.lines().find(|l| l.trim_start().starts_with(name)).map(|l| l.trim().to_string()).unwrap_or_default();
        assert!(!block.contains("i = "), "the recorded input is listed: {block}");
        listed.push((line("x ="), line("y =")));
    }
    assert_eq!(listed.len(), 8, "{stdout}");
    listed.sort();
    listed.dedup();
    assert_eq!(listed.len(), 8, "a state is listed twice: {stdout}");
}

/// `xmv-rs check -r` with either engine prints NuSMV's diameter and count where xmv-rs records a
/// step's input or process in its states (they counted (state, record) pairs: prod-cons had
/// 307,608 states against NuSMV's 105,572); `check` prints exact integers, NuSMV `%g`.
#[test]
fn both_engines_count_reachable_states_as_nusmv() {
    let xmv = Path::new(env!("CARGO_BIN_EXE_xmv-rs"));
    for (case, file) in [("reachable_step_input", "step_input.smv"), ("reachable_processes", "processes.smv")] {
        let (_, want) = expected(case);
        let want: Vec<&str> = want.lines().filter(|l| l.starts_with("system diameter") || l.starts_with("reachable states")).collect();
        assert_eq!(want.len(), 2, "{case}");
        for engine in ["explicit", "bdd"] {
            let args: Vec<String> = ["check", "-r", "--no-trace", "--engine", engine, file].map(String::from).to_vec();
            let (_, stdout, stderr) = run(xmv, "xmv-rs", &args, "");
            let got: Vec<&str> = stdout.lines().filter(|l| l.starts_with("system diameter") || l.starts_with("reachable states")).collect();
            assert_eq!(got, want, "{case}, {engine}: {stderr}");
        }
    }
}

#[test]
fn refused_and_unsupported_options_say_so() {
    let xmv = Path::new(env!("CARGO_BIN_EXE_xmv-rs"));
    for (option, word) in [("-bmc", "bounded model checking"), ("-sat_solver", "SAT"), ("-obm", "boolean model")] {
        let mut args = vec![option.to_string()];
        if option == "-sat_solver" || option == "-obm" {
            args.push("x".into());
        }
        args.push("counter.smv".into());
        let (status, stdout, stderr) = run(xmv, "NuSMV", &args, "");
        assert_eq!(status, 255, "{option}");
        assert!(stdout.is_empty(), "{option}: {stdout}");
        assert!(stderr.contains("is not supported") && stderr.contains(word), "{option}: {stderr}");
    }
    // BDD tuning is accepted and changes nothing.
    let (want_status, want_stdout) = expected("batch");
    let args: Vec<String> =
        ["-dynamic", "-m", "sift", "-thresh", "500", "-noaffinity", "-reorder", "-keep_single_value_vars", "counter.smv"].map(String::from).to_vec();
    let (status, stdout, _) = run(xmv, "NuSMV", &args, "");
    assert_eq!((status, without_banner(&stdout)), (want_status, want_stdout));
}

#[test]
fn ltl_and_psl_specs_are_checked_and_sere_psl_reported_as_not_checked() {
    let xmv = Path::new(env!("CARGO_BIN_EXE_xmv-rs"));
    let dir = std::env::temp_dir().join(format!("xmv-dropin-ltl-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let model = dir.join("ltl.smv");
    std::fs::write(&model, "MODULE main\nVAR b : boolean;\nASSIGN next(b) := !b;\nSPEC AG (b | !b)\nLTLSPEC G F b\n").expect("write");
    let path = model.display().to_string();
    let (status, stdout, stderr) = run(xmv, "NuSMV", std::slice::from_ref(&path), "");
    assert_eq!(status, 0, "{stderr}");
    assert!(without_banner(&stdout).contains("-- specification AG (b | !b)  is true\n-- specification  G ( F b)  is true"), "{stdout}");
    let (status, stdout, _) = run(xmv, "NuSMV", &["-source".into(), "/dev/stdin".into(), path], "go\ncheck_ltlspec\nquit\n");
    assert_eq!(status, 0);
    assert!(stdout.contains("-- specification  G ( F b)  is true"), "{stdout}");
    // PSL is checked (after LTL, before invariants), and `check_pslspec` checks it too.
    let psl = dir.join("psl.smv");
    std::fs::write(&psl, "MODULE main\nVAR b : boolean;\nASSIGN next(b) := !b;\nSPEC AG (b | !b)\nPSLSPEC always eventually! b\n").expect("write");
    let psl = psl.display().to_string();
    let (status, stdout, stderr) = run(xmv, "NuSMV", std::slice::from_ref(&psl), "");
    assert_eq!(status, 0, "{stderr}");
    assert!(without_banner(&stdout).contains("-- specification AG (b | !b)  is true\n-- specification always (eventually! (b))  is true"), "{stdout}");
    let (status, stdout, _) = run(xmv, "NuSMV", &["-source".into(), "/dev/stdin".into(), psl.clone()], "go\ncheck_pslspec\nquit\n");
    assert_eq!(status, 0);
    assert!(stdout.contains("-- specification always (eventually! (b))  is true"), "{stdout}");
    // A PSLSPEC with a SERE is not checked: named on stderr, status 1; -ips skips it.
    let sere = dir.join("sere.smv");
    std::fs::write(&sere, "MODULE main\nVAR b : boolean;\nSPEC AG (b | !b)\nPSLSPEC always ({b} |=> b)\n").expect("write");
    let psl = sere.display().to_string();
    let (status, stdout, stderr) = run(xmv, "NuSMV", std::slice::from_ref(&psl), "");
    assert_eq!(status, 1, "an unchecked PSLSPEC is not a successful run");
    assert!(without_banner(&stdout).contains("-- specification AG (b | !b)  is true"), "{stdout}");
    assert!(stderr.contains("this PSL property cannot be checked by xmv-rs") && stderr.contains("-ips"), "{stderr}");
    let (status, _, _) = run(xmv, "NuSMV", &["-ips".into(), psl], "");
    assert_eq!(status, 0, "-ips skips the PSL specs");
    let _ = std::fs::remove_dir_all(&dir);
}

/// With `NUSMV` set: the recordings are what NuSMV prints now.
#[test]
fn recordings_match_nusmv_when_available() {
    let Some(nusmv) = std::env::var_os("NUSMV") else {
        eprintln!("NUSMV is not set: skipped");
        return;
    };
    for (name, args) in cases() {
        let (want_status, want_stdout) = expected(&name);
        let (status, stdout, _) = run(Path::new(&nusmv), "NuSMV", &args, "");
        let stdout = match stdout.find("*** Copyright (c) 1995-2004") {
            Some(i) => stdout[i..].split_once('\n').map_or(String::new(), |(_, r)| r.to_string()),
            None => stdout,
        };
        assert_eq!((status, stdout), (want_status, want_stdout), "{name}");
    }
}
