//! The flat builder expands batches of states on several threads: its output (state counts,
//! verdicts, traces, errors) is byte-identical for every `-j`.

use std::path::PathBuf;
use std::process::Command;

fn run(file: &str, threads: &str) -> (Option<i32>, String, String) {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/build_parallel").join(file);
    let out = Command::new(env!("CARGO_BIN_EXE_xmv-rs")).args(["check", "-q", "-r", "-j", threads]).arg(path).output().expect("run xmv-rs");
    (out.status.code(), String::from_utf8_lossy(&out.stdout).into_owned(), String::from_utf8_lossy(&out.stderr).into_owned())
}

#[test]
fn output_is_identical_for_every_thread_count() {
    for (file, code, states) in [("counter-grid.smv", 1, "reachable states: 60660 "), ("constraints.smv", 0, "reachable states: "), ("deep-error.smv", 2, "")] {
        let one = run(file, "1");
        assert_eq!(one.0, Some(code), "{file}: {}", one.2);
        assert!(one.1.contains(states), "{file}:\n{}", one.1);
        for threads in ["2", "3", "5"] {
            assert_eq!(run(file, threads), one, "{file} with -j {threads}");
        }
    }
}

#[test]
fn deep_errors_name_the_failing_state() {
    let (_, _, stderr) = run("deep-error.smv", "2");
    assert!(stderr.contains("E0501") && stderr.contains("in state: x = 0, y = 50") && stderr.contains("path from an initial state"), "{stderr}");
}
