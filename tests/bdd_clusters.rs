//! `check --clusters` (the BDD engine's clustering scheme, `symbolic::trans::Partitioning`) does
//! not change the output: on bundled flat specs with fairness, processes and deadlocks, every
//! scheme prints what the default prints, traces included. A value that is not a scheme is a
//! usage error (exit 2) that lists the schemes.

use std::process::Command;

fn check(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_xmv-rs")).arg("check").args(args).current_dir(env!("CARGO_MANIFEST_DIR")).output().expect("run xmv-rs");
    (out.status.code().unwrap_or(-1), String::from_utf8_lossy(&out.stdout).into_owned(), String::from_utf8_lossy(&out.stderr).into_owned())
}

#[test]
fn every_clustering_scheme_prints_the_same_verdicts_and_traces() {
    let specs = [
        "specs/peterson-flat.smv",
        "specs/lossy-channel-fairness.smv",
        "specs/dining-philosophers.smv",
        "specs/semaphore-processes.smv",
        "specs/gas-station-constraints.smv",
    ];
    for spec in specs {
        let (code, default, _) = check(&["--engine", "bdd", "-j", "1", spec]);
        assert!(code == 0 || code == 1, "{spec}: exit {code}");
        assert!(default.contains("-- specification") || default.contains("-- invariant"), "{spec}: no verdict in {default}");
        for scheme in ["sequential:1", "threshold", "iwls95", "iwls95:50", "mono"] {
            let (c, out, err) = check(&["--engine", "bdd", "-j", "1", "--clusters", scheme, spec]);
            assert_eq!((c, &out), (code, &default), "{spec} with --clusters {scheme}: {err}");
        }
    }
}

#[test]
fn a_value_that_is_not_a_scheme_is_a_usage_error() {
    let (code, _, err) = check(&["--clusters", "affinity", "specs/peterson-flat.smv"]);
    assert_eq!(code, 2);
    assert!(err.contains("`affinity` is not a clustering scheme: use sequential, threshold, iwls95"), "{err}");
    let (code, _, err) = check(&["--clusters", "iwls95:0", "specs/peterson-flat.smv"]);
    assert_eq!(code, 2);
    assert!(err.contains("`0` is not a cluster limit"), "{err}");
}
