//! The flat builder expands batches of states on several threads: its output (state counts,
//! verdicts, traces, errors) is byte-identical for every `-j`.

use std::path::PathBuf;
use std::process::Command;

fn run(file: &str, threads: &str) -> (Option<i32>, String, String) {
    run_with(file, threads, &[])
}

fn run_with(file: &str, threads: &str, options: &[&str]) -> (Option<i32>, String, String) {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/build_parallel").join(file);
    let out = Command::new(env!("CARGO_BIN_EXE_xmv-rs")).args(["check", "-q", "-r", "-j", threads]).args(options).arg(path).output().expect("run xmv-rs");
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

/// `--engine explicit` with several threads expands the next batch while the current one is
/// interned (`explore`'s pipeline; `auto`'s gated builds do not); with a small memory budget the
/// batches are cut short by their buffers' room and it expands one batch at a time.
#[test]
fn pipelined_and_budgeted_builds_are_identical_for_every_thread_count() {
    for file in ["counter-grid.smv", "constraints.smv", "deep-error.smv", "wide-rows.smv", "wide-frontier.smv"] {
        let one = run_with(file, "1", &["--engine", "explicit"]);
        assert!(matches!(one.0, Some(0..=2)), "{file}: {}", one.2);
        for threads in ["2", "3", "5"] {
            assert_eq!(run_with(file, threads, &["--engine", "explicit"]), one, "{file} with -j {threads}");
        }
    }
    let one = run_with("wide-rows.smv", "1", &["--engine", "explicit", "--max-memory", "48M"]);
    assert_eq!(one.0, Some(1), "{}", one.2);
    assert!(one.1.contains("reachable states: 4000 "), "{}", one.1);
    for threads in ["2", "3"] {
        assert_eq!(run_with("wide-rows.smv", threads, &["--engine", "explicit", "--max-memory", "48M"]), one, "-j {threads}");
    }
}

#[test]
fn deep_errors_name_the_failing_state() {
    let (_, _, stderr) = run("deep-error.smv", "2");
    assert!(stderr.contains("E0501") && stderr.contains("in state: x = 0, y = 50") && stderr.contains("path from an initial state"), "{stderr}");
}
