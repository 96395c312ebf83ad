//! `PSLSPEC`: NuSMV 2.5.4's PSL subset (foundation language without SEREs, checked as LTL; the
//! branching extension, checked as CTL). The expected outputs in `tests/psl_data/` were written
//! by NuSMV 2.5.4 from the same files: precedence, printing and verdicts of every operator
//! (`operators.smv`, 32 specs), and the whole output with counterexamples of the bundled
//! `specs/psl-bounce.smv`. Both engines give the same verdicts.

use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn xmv(args: &[&str], file: &Path) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_xmv-rs")).args(args).arg(file).output().expect("run xmv-rs");
    (out.status.code().unwrap_or(-1), String::from_utf8_lossy(&out.stdout).into(), String::from_utf8_lossy(&out.stderr).into())
}

fn verdict_lines(stdout: &str) -> Vec<&str> {
    stdout.lines().filter(|l| l.starts_with("-- specification")).collect()
}

#[test]
fn operators_print_and_decide_as_nusmv() {
    let file = root().join("tests/psl_data/operators.smv");
    let expected = std::fs::read_to_string(root().join("tests/psl_data/operators.out")).expect("operators.out");
    for engine in ["explicit", "bdd"] {
        let (code, stdout, stderr) = xmv(&["check", "-dcx", "--engine", engine], &file);
        // Some verdicts are false: exit status 1.
        assert_eq!(code, 1, "{engine}: {stderr}");
        assert_eq!(stdout, expected, "--engine {engine}");
        assert!(!stderr.contains("W0001"), "{stderr}");
    }
}

#[test]
fn bundled_psl_model_prints_nusmv_output_with_traces() {
    let file = root().join("specs/psl-bounce.smv");
    let expected = std::fs::read_to_string(root().join("tests/psl_data/psl-bounce.out")).expect("psl-bounce.out");
    let (code, stdout, stderr) = xmv(&["check", "--engine", "explicit"], &file);
    assert_eq!(code, 1, "{stderr}");
    assert_eq!(stdout, expected);
    assert!(stdout.contains("Trace Description: PSL Counterexample"));
    // The BDD engine: the same verdicts (its counterexamples may take other paths).
    let (_, bdd, stderr) = xmv(&["check", "--engine", "bdd"], &file);
    assert_eq!(verdict_lines(&bdd), verdict_lines(&expected), "{stderr}");
}

/// NuSMV 2.5.4 prints PSL verdicts after the LTL ones and before the invariants, and numbers its
/// properties in the same order (`show_property` on this file: `AG x < 4`, the COMPUTE, `G x < 4`,
/// the two PSL specs, then the invariant).
#[test]
fn psl_verdicts_come_between_ltl_and_invariants() {
    let dir = std::env::temp_dir().join(format!("xmv-psl-order-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let model = dir.join("order.smv");
    std::fs::write(
        &model,
        "MODULE main\nVAR x : 0..3;\nASSIGN init(x) := 0; next(x) := (x + 1) mod 4;\nINVARSPEC x < 4;\nPSLSPEC always x < 3;\n\
         COMPUTE MIN [ x = 0 , x = 2 ]\nLTLSPEC G x < 4\nSPEC AG x < 4\nPSLSPEC AG x < 2;\n",
    )
    .expect("write");
    // NuSMV 2.5.4's `-dcx` output on this file.
    let nusmv = "-- specification AG x < 4  is true\n-- the result of MIN [ x = 0 , x = 2 ]  is 2\n-- specification  G x < 4  is true\n\
                 -- specification always (x < 3)  is false\n-- specification AG x < 2  is false\n-- invariant x < 4  is true\n";
    let (_, stdout, stderr) = xmv(&["check", "-dcx"], &model);
    assert_eq!(stdout, nusmv, "{stderr}");
    let (_, listed, stderr) = xmv(&["list-specs"], &model);
    let kinds: Vec<&str> = listed.lines().filter_map(|l| l.split_whitespace().nth(1)).collect();
    assert_eq!(kinds, ["CTL", "Quantitative", "LTL", "PSL", "PSL", "Invar"], "{listed}{stderr}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn sere_bodies_are_skipped_with_a_warning_and_mixed_ones_refused() {
    let dir = std::env::temp_dir().join(format!("xmv-psl-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let sere = dir.join("sere.smv");
    std::fs::write(&sere, "MODULE main\nVAR a : boolean;\nPSLSPEC always {a} |=> a;\nPSLSPEC always a;\n").expect("write");
    let (code, stdout, stderr) = xmv(&["check", "-dcx"], &sere);
    assert_eq!((code, stdout.as_str()), (1, "-- specification always (a)  is false\n"), "{stderr}");
    assert!(stderr.contains("warning[W0001]: PSLSPEC is not supported and is skipped"), "{stderr}");
    let mixed = dir.join("mixed.smv");
    std::fs::write(&mixed, "MODULE main\nVAR a : boolean;\nPSLSPEC always AF a;\n").expect("write");
    let (code, stdout, stderr) = xmv(&["check"], &mixed);
    assert_eq!((code, stdout.as_str()), (2, ""), "{stderr}");
    assert!(stderr.contains("error[E0235]: this PSL property mixes linear operators with CTL operators"), "{stderr}");
    let _ = std::fs::remove_dir_all(&dir);
}
