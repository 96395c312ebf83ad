//! The command line's `--max-memory` and `--quiet`: a model over budget exits with 2 and E0508
//! (never an abort), a malformed size is a usage error, and progress never reaches a stderr
//! that is not a terminal.

use std::path::PathBuf;
use std::process::Command;

fn xmv(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_xmv-rs")).args(args).current_dir(env!("CARGO_MANIFEST_DIR")).output().expect("run xmv-rs");
    (out.status.code().unwrap_or(-1), String::from_utf8_lossy(&out.stdout).into(), String::from_utf8_lossy(&out.stderr).into())
}

fn case(name: &str) -> String {
    PathBuf::from("tests/build").join(name).display().to_string()
}

#[test]
fn over_budget_models_exit_with_2_and_e0508() {
    for (file, what) in [("max-memory.smv", "states were built"), ("max-memory-procedures.smv", "locations were built")] {
        // `--engine explicit`: under the default `auto` the flat model would move to BDDs.
        let (code, stdout, stderr) = xmv(&["check", "--engine", "explicit", "--max-memory", "1M", &case(file)]);
        assert_eq!(code, 2, "{file}: {stderr}");
        assert!(stdout.is_empty());
        assert!(stderr.contains("error[E0508]: the state space does not fit in the memory budget of 1.0 MiB"), "{stderr}");
        assert!(stderr.contains(what) && stderr.contains("bytes each"), "{stderr}");
        // Progress is for terminals only: no carriage returns or escape codes in a pipe.
        assert!(!stderr.contains('\r') && !stderr.contains('\u{1b}'), "{stderr:?}");
    }
}

#[test]
fn the_same_models_fit_a_larger_budget() {
    let (code, stdout, stderr) = xmv(&["check", "-q", "-dcx", "--max-memory", "1.5G", &case("max-memory.smv")]);
    assert_eq!((code, stdout.as_str()), (0, "-- specification AG c < 30  is true\n"), "{stderr}");
}

#[test]
fn malformed_sizes_are_usage_errors() {
    let (code, _, stderr) = xmv(&["check", "--max-memory", "12X", &case("max-memory.smv")]);
    assert_eq!(code, 2);
    assert!(stderr.contains("`12X` is not a size"), "{stderr}");
}
