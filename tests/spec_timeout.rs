//! `--spec-timeout SECS` (issue 17): a spec whose check runs past the limit is reported as
//! unknown (text, JSON, SARIF, library), the other specs are still decided, and the exit code is
//! 3 when no spec is false (1 when one is).
//!
//! No timing is asserted beyond "the run finished". Two kinds of model:
//! - `tests/spec_timeout/counter.smv`: on BDDs `EF c30` needs 2^30 backward images (each adds one
//!   state of a 30-bit counter), so it cannot finish within any limit a test uses; the other
//!   specs take a handful of images and are decided well within the 1 s they get.
//! - `small.smv` / `procedures.smv` with a limit of 0: every check polls the deadline at the first
//!   iteration of its outer loops, by which time it has passed; this pins that each checker path
//!   (explicit CTL fixpoints and SCCs, invariants, the LTL product search, the five procedure
//!   engines, BDD fixpoints and the BDD engine's LTL tableau) polls at all.

use std::path::Path;
use std::process::Command;
use std::time::Duration;

fn xmv(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_xmv-rs"))
        .args(args)
        .current_dir(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/spec_timeout"))
        .output()
        .expect("run xmv-rs");
    (out.status.code().unwrap_or(-1), String::from_utf8_lossy(&out.stdout).into(), String::from_utf8_lossy(&out.stderr).into())
}

fn verdict_lines(stdout: &str) -> Vec<&str> {
    stdout.lines().filter(|l| l.starts_with("-- specification") || l.starts_with("-- invariant")).collect()
}

#[test]
fn a_spec_past_the_limit_is_unknown_and_the_others_are_decided() {
    let (status, stdout, stderr) = xmv(&["check", "--engine", "bdd", "--no-trace", "--spec-timeout", "1", "counter.smv"]);
    assert_eq!(stderr, "");
    assert_eq!(
        verdict_lines(&stdout),
        ["-- specification EX TRUE  is true", "-- specification EF c30  is unknown (timeout after 1 s)", "-- specification AG (c2 -> AX !c1)  is true",]
    );
    assert_eq!(status, 3, "no spec false, one unknown");
    // One spec selected (`-n`), the same verdict.
    let (status, stdout, _) = xmv(&["check", "--engine", "bdd", "--spec-timeout", "0.5", "-n", "1", "counter.smv"]);
    assert_eq!((status, verdict_lines(&stdout)), (3, vec!["-- specification EF c30  is unknown (timeout after 0.5 s)"]));
}

#[test]
fn a_false_spec_still_gives_exit_code_1_and_its_trace() {
    let text = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/spec_timeout/counter.smv")).expect("model");
    let dir = std::env::temp_dir().join(format!("xmv-spec-timeout-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let file = dir.join("counter-false.smv");
    std::fs::write(&file, format!("{text}SPEC AX b0\n")).expect("write model");
    let path = file.to_str().expect("utf-8 path");
    let (status, stdout, _) = xmv(&["check", "--engine", "bdd", "--spec-timeout", "1", path]);
    assert_eq!(status, 1);
    assert!(stdout.contains("-- specification EF c30  is unknown (timeout after 1 s)\n"), "{stdout}");
    assert!(stdout.contains("-- specification AX b0  is false\n-- as demonstrated by the following execution sequence\n"), "{stdout}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn every_explicit_and_bdd_checker_path_polls_the_deadline() {
    let (status, stdout, stderr) = xmv(&["check", "--engine", "explicit", "--spec-timeout", "0", "small.smv"]);
    assert_eq!((status, stderr.as_str()), (3, ""));
    assert_eq!(
        verdict_lines(&stdout),
        [
            "-- specification AG (EF x = 0)  is unknown (timeout after 0 s)",
            "-- specification EG x < 8  is unknown (timeout after 0 s)",
            "-- specification E [ x < 5 U x = 5 ]   is unknown (timeout after 0 s)",
            "-- specification  G ( F x = 3)  is unknown (timeout after 0 s)",
            "-- invariant x < 8  is unknown (timeout after 0 s)",
        ]
    );
    // Without a limit (and with a generous one) the same specs are decided.
    for extra in [&[][..], &["--spec-timeout", "600"][..]] {
        let args: Vec<&str> = ["check", "--engine", "explicit", "-j", "2"].iter().chain(extra).chain(&["small.smv"]).copied().collect();
        let (status, stdout, _) = xmv(&args);
        assert_eq!(status, 0, "{stdout}");
        assert_eq!(verdict_lines(&stdout).iter().filter(|l| l.ends_with("is true")).count(), 5, "{stdout}");
    }
    // The BDD engine: CTL fixpoints and the fair states.
    let (status, stdout, _) = xmv(&["check", "--engine", "bdd", "--spec-timeout", "0", "-P", "until", "small.smv"]);
    assert_eq!((status, verdict_lines(&stdout)), (3, vec!["-- specification E [ x < 5 U x = 5 ]   is unknown (timeout after 0 s)"]));
}

/// Regression: the BDD engine's LTL tableau (its fair-states fixpoint and its `E[U]` rounds)
/// did not poll the deadline, so `G F x = 3` was decided true under `--spec-timeout 0` where the
/// explicit engine reports it unknown. Both engines now give the same output, with and without
/// fairness (the fixpoint without constraints is a different loop).
#[test]
fn the_bdd_ltl_tableau_polls_the_deadline_as_the_explicit_engine_does() {
    let explicit = xmv(&["check", "--engine", "explicit", "--spec-timeout", "0", "small.smv"]);
    let bdd = xmv(&["check", "--engine", "bdd", "--spec-timeout", "0", "small.smv"]);
    assert_eq!(bdd, explicit);
    assert_eq!(bdd.0, 3);
    let (status, stdout, _) = xmv(&["check", "--engine", "bdd", "--spec-timeout", "0", "-n", "3", "small.smv"]);
    assert_eq!((status, verdict_lines(&stdout)), (3, vec!["-- specification  G ( F x = 3)  is unknown (timeout after 0 s)"]));

    let text = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/spec_timeout/small.smv")).expect("model");
    let dir = std::env::temp_dir().join(format!("xmv-spec-timeout-ltl-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let file = dir.join("small-unfair.smv");
    std::fs::write(&file, text.replace("FAIRNESS y\n", "")).expect("write model");
    let path = file.to_str().expect("utf-8 path");
    for limit in ["0", "600"] {
        let explicit = xmv(&["check", "--engine", "explicit", "--spec-timeout", limit, "-n", "3", path]);
        let bdd = xmv(&["check", "--engine", "bdd", "--spec-timeout", limit, "-n", "3", path]);
        assert_eq!(bdd, explicit, "--spec-timeout {limit}");
        assert_eq!(bdd.0, if limit == "0" { 3 } else { 0 }, "{}", bdd.1);
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn every_procedure_engine_polls_the_deadline() {
    for engine in ["summary", "incremental", "global", "eager", "lazy"] {
        let (status, stdout, stderr) = xmv(&["check", "--engine", engine, "--spec-timeout", "0", "procedures.smv"]);
        assert_eq!((status, stderr.as_str()), (3, ""), "{engine}");
        assert_eq!(
            verdict_lines(&stdout),
            [
                "-- specification EF at_done IN main is unknown (timeout after 0 s)",
                "-- specification AG (pc = s0 -> EX pc != s0) IN main is unknown (timeout after 0 s)",
            ],
            "{engine}"
        );
        let (status, stdout, _) = xmv(&["check", "--engine", engine, "--spec-timeout", "600", "--verify", "procedures.smv"]);
        assert_eq!((status, verdict_lines(&stdout).iter().filter(|l| l.ends_with("is true")).count()), (0, 2), "{engine}: {stdout}");
    }
}

#[test]
fn verify_compares_the_decided_specs_only() {
    let (status, stdout, stderr) = xmv(&["check", "--engine", "explicit", "--verify", "--stats", "--spec-timeout", "600", "-n", "0", "small.smv"]);
    assert_eq!(status, 0, "{stdout}{stderr}");
    assert!(stderr.contains("-- stats: flat verified by engine bdd: 1 verdicts agree"), "{stderr}");
    let (status, _, stderr) = xmv(&["check", "--engine", "explicit", "--verify", "--stats", "--spec-timeout", "0", "-n", "0", "small.smv"]);
    assert_eq!(status, 3);
    assert!(stderr.contains("-- stats: flat verified by engine bdd: 0 verdicts agree"), "{stderr}");
}

#[test]
fn json_and_sarif_carry_the_unknown_verdict() {
    let (status, stdout, _) = xmv(&["check", "--engine", "explicit", "--spec-timeout", "0", "--format", "json", "small.smv"]);
    assert_eq!(status, 3);
    let doc: serde_json::Value = serde_json::from_str(&stdout).expect("JSON");
    assert_eq!(doc["exit_code"], 3);
    let specs = doc["specs"].as_array().expect("specs");
    assert_eq!(specs.len(), 5);
    for s in specs {
        assert_eq!((&s["verdict"], &s["unknown"]), (&"unknown".into(), &serde_json::json!({"reason": "timeout", "limit_s": 0.0})));
        assert!(s["trace"].is_null());
    }
    let (_, stdout, _) = xmv(&["check", "--engine", "explicit", "--format", "json", "small.smv"]);
    let doc: serde_json::Value = serde_json::from_str(&stdout).expect("JSON");
    assert!(doc["specs"].as_array().into_iter().flatten().all(|s| s["verdict"] == true && s.get("unknown").is_none()), "{doc}");

    let (status, stdout, _) = xmv(&["check", "--engine", "explicit", "--spec-timeout", "0", "--format", "sarif", "-n", "1", "small.smv"]);
    assert_eq!(status, 3);
    let log: serde_json::Value = serde_json::from_str(&stdout).expect("SARIF");
    let results = log["runs"][0]["results"].as_array().expect("results");
    assert_eq!(results.len(), 1);
    assert_eq!((&results[0]["kind"], &results[0]["level"], &results[0]["ruleId"]), (&"open".into(), &"none".into(), &"CTLSPEC".into()));
    assert_eq!(results[0]["message"]["text"], "specification EG x < 8 is unknown (timeout after 0 s)");
    assert_eq!(results[0]["locations"][0]["physicalLocation"]["region"]["startLine"], 8);
}

#[test]
fn the_library_reports_unknown_verdicts() {
    let model = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/spec_timeout/small.smv")).expect("model");
    let limit = Duration::ZERO;
    let options = xmv_rs::CheckOptions { spec_timeout: Some(limit), engine: xmv_rs::check::Engine::Explicit, ..Default::default() };
    let report = xmv_rs::check_str(&model, &options).expect("a well-formed model");
    assert_eq!(report.specs.len(), 5);
    assert!(report.specs.iter().all(|s| s.verdict == xmv_rs::Verdict::Unknown(xmv_rs::Unknown::Timeout(limit)) && s.trace.is_none()));
    let decided = xmv_rs::check_str(&model, &xmv_rs::CheckOptions { spec_timeout: Some(Duration::from_secs(600)), ..options }).expect("model");
    assert!(decided.specs.iter().all(|s| s.verdict == xmv_rs::Verdict::True));
}

#[test]
fn the_limit_must_be_a_number_of_seconds() {
    for bad in ["-1", "soon", "inf", "NaN"] {
        let (status, _, stderr) = xmv(&["check", &format!("--spec-timeout={bad}"), "small.smv"]);
        assert_eq!(status, 2, "{bad}");
        assert!(stderr.contains("is not a number of seconds (e.g. 2 or 0.5)"), "{bad}: {stderr}");
    }
}
