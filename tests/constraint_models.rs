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

/// Regression: a `case` table on `st` whose entry reads `next()` of a variable bound by a
/// disjunctive `TRANS` (`st = sending & !next(drop) : done`) had its candidates reused for the
/// whole state, across the TRANS alternatives, and lost successors (6 reachable states instead
/// of NuSMV 2.5.4's 11). The counts are NuSMV's (`NuSMV -r`).
#[test]
fn table_entries_reading_next_of_solved_variables() {
    let text = |trans: &str| {
        format!(
            "MODULE main\nVAR st : {{idle, sending, done}};\n  drop : boolean;\n  pick : 0..2;\nASSIGN\n  init(st) := idle;\n  init(pick) := 0; init(drop) := FALSE;\n  next(st) := case\n    st = idle : sending;\n    st = sending & !next(drop) : done;\n    TRUE : st;\n  esac;\nTRANS {trans}\n"
        )
    };
    let dir = std::env::temp_dir().join(format!("xmv-table-next-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    for (i, (trans, states)) in
        [("next(drop) | next(pick) != 1", 11), ("next(pick) != 1 | next(drop)", 11), ("next(drop) | next(pick) = 0", 9)].into_iter().enumerate()
    {
        let path = dir.join(format!("m{i}.smv"));
        std::fs::write(&path, text(trans)).expect("write model");
        let out = Command::new(env!("CARGO_BIN_EXE_xmv-rs")).args(["check", "-r", "--engine", "explicit"]).arg(&path).output().expect("run xmv-rs");
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(stdout.contains(&format!("reachable states: {states} ")), "TRANS {trans}:\n{stdout}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}
