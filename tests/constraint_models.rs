//! Constraint-style bundled models (successors solved from `TRANS`, not enumerated): reachable
//! state counts, and verdicts equal to NuSMV 2.5.4's when `NUSMV` names its binary.

use std::path::PathBuf;
use std::process::Command;

fn model(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("specs").join(name)
}

fn verdict_lines(stdout: &str) -> Vec<String> {
    stdout.lines().filter(|l| l.starts_with("-- specification ") || l.starts_with("-- invariant ")).map(str::to_string).collect()
}

fn xmv(name: &str) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_xmv-rs")).args(["check", "-r", "--no-trace"]).arg(model(name)).output().expect("run xmv-rs");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!stderr.contains("error"), "{name}: {stderr}");
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn reachable_states_of_constraint_style_models() {
    for (name, states) in [("gas-station-constraints.smv", 42), ("async-network-6.smv", 64)] {
        let out = xmv(name);
        assert!(out.contains(&format!("reachable states: {states} ")), "{name}:\n{out}");
    }
}

#[test]
fn verdicts_match_nusmv_when_available() {
    let Ok(nusmv) = std::env::var("NUSMV") else {
        eprintln!("NUSMV unset: skipped");
        return;
    };
    for name in ["gas-station-constraints.smv", "async-network-6.smv"] {
        let theirs = Command::new(&nusmv).arg("-dcx").arg(model(name)).output().expect("run NuSMV");
        let theirs = verdict_lines(&String::from_utf8_lossy(&theirs.stdout));
        assert!(!theirs.is_empty(), "{name}: no NuSMV verdicts");
        assert_eq!(verdict_lines(&xmv(name)), theirs, "{name}");
    }
}
