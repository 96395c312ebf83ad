//! Golden tests of the whole `check` pipeline on small models: state-space diagnostics (case not
//! exhaustive, value out of range, division by zero, deadlocks, `--max-states`, procedure
//! well-formedness) and NuSMV-style reports (traces, inputs, call stacks, `-r`).
//!
//! Every `tests/build/<name>.smv` is run through `driver::run_check`; the exit code, stdout and
//! stderr must equal `<name>.out`. A first line `-- xmv-rs: <flags>` sets options (`-r`,
//! `--no-trace`, `--witnesses`, `--max-states N`, `--max-memory SIZE`, `--format json`,
//! `--engine explicit|bdd|summary|lazy`, `--verify`; JSON's
//! `time_ms` is compared as 0). `UPDATE_GOLDEN=1 cargo test --test build_golden` rewrites the
//! `.out` files.

use std::path::PathBuf;
use xmv_rs::driver::{CheckOptions, Format, run_check, stages};
use xmv_rs::source::SourceFile;

fn options(text: &str) -> CheckOptions {
    let mut o = CheckOptions { traces: true, threads: 1, ..Default::default() };
    let flags = text.lines().next().and_then(|l| l.strip_prefix("-- xmv-rs:")).unwrap_or("");
    let mut words = flags.split_whitespace();
    while let Some(w) = words.next() {
        match w {
            "-r" => o.reachable = true,
            "--no-trace" => o.traces = false,
            "--witnesses" => o.witnesses = true,
            "--max-states" => o.max_states = words.next().and_then(|n| n.parse().ok()),
            "--max-memory" => o.max_memory = words.next().and_then(|n| xmv_rs::explicit::budget::parse_size(n).ok()),
            "--engine" => {
                use xmv_rs::driver::Engine;
                o.engine = match words.next() {
                    Some("explicit") => Engine::Explicit,
                    Some("bdd") => Engine::Bdd,
                    Some("summary") => Engine::Summary,
                    Some("lazy") => Engine::Lazy,
                    other => panic!("unknown engine {other:?} in a golden case"),
                }
            }
            "--verify" => o.verify = true,
            "--format" => o.format = if words.next() == Some("json") { Format::Json } else { Format::Text },
            other => panic!("unknown flag {other} in a golden case"),
        }
    }
    o
}

/// JSON's `"time_ms"` values (checker times, different on every run) as `0`.
fn without_times(text: &str) -> String {
    let line = |l: &str| match l.split_once("\"time_ms\": ") {
        Some((head, value)) => format!("{head}\"time_ms\": 0{}", if value.ends_with(',') { "," } else { "" }),
        None => l.to_string(),
    };
    text.lines().map(|l| line(l) + "\n").collect()
}

#[test]
fn pipeline_output_matches_golden_files() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/build");
    let mut cases: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("tests/build exists")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "smv"))
        .collect();
    cases.sort();
    assert!(cases.len() >= 10);
    let update = std::env::var_os("UPDATE_GOLDEN").is_some();
    let mut failures = vec![];
    for path in &cases {
        let bytes = std::fs::read(path).expect("readable case");
        let name = format!("tests/build/{}", path.file_name().unwrap_or_default().to_string_lossy());
        let file = SourceFile::from_bytes(name, &bytes);
        let out = run_check(&file, &options(&file.text), &stages::Stages::linked());
        let actual = format!("exit: {}\n--- stdout\n{}--- stderr\n{}", out.exit_code, without_times(&out.stdout), out.stderr);
        let golden = path.with_extension("out");
        if update {
            std::fs::write(&golden, &actual).expect("write golden");
            continue;
        }
        let expected = std::fs::read_to_string(&golden).unwrap_or_default();
        if expected != actual {
            failures.push(format!("--- {} (expected)\n{expected}--- actual\n{actual}", golden.display()));
        }
    }
    assert!(failures.is_empty(), "{} golden mismatches (UPDATE_GOLDEN=1 rewrites):\n{}", failures.len(), failures.join("\n"));
}

/// Codes of `explicit::build_diag` that source text cannot trigger, with the reason.
const UNREACHABLE: &[(&str, &str)] = &[("E0504", "assignment cycles are rejected by the front end first (E0303)")];

#[test]
fn every_state_space_diagnostic_has_a_golden_case_and_a_readme_row() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let source = std::fs::read_to_string(root.join("src/explicit/build_diag.rs")).expect("build_diag.rs");
    let codes: Vec<&str> = source.split('"').filter(|w| w.len() == 5 && (w.starts_with("E05") || w.starts_with("W05"))).collect();
    assert!(codes.len() >= 10, "found {codes:?}");
    let mut goldens = String::new();
    for entry in std::fs::read_dir(root.join("tests/build")).expect("tests/build") {
        let path = entry.expect("entry").path();
        if path.extension().is_some_and(|x| x == "out") {
            goldens.push_str(&std::fs::read_to_string(path).unwrap_or_default());
        }
    }
    let readme = std::fs::read_to_string(root.join("README.md")).expect("README");
    for code in codes {
        assert!(readme.contains(&format!("| {code} |")), "{code} has no README row");
        if !UNREACHABLE.iter().any(|(c, _)| *c == code) {
            assert!(goldens.contains(&format!("[{code}]")), "{code} has no golden case in tests/build");
        }
    }
}
