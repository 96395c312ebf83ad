//! Every bundled model in `specs/` is checked end to end by the `xmv-rs` binary and each verdict
//! must equal the expectation written next to the model: `-- expect: true|false  SPEC …` lines in
//! the model's header comment (CTL specs in file order, then LTL specs, then invariants, as NuSMV prints them), or, for the thesis listings that are kept
//! verbatim, the rows of the table in `specs/README.md`.

use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Expected verdicts from `-- expect:` header lines, in output order: NuSMV's batch order, every
/// CTL spec first, then every `LTLSPEC`, then every `INVARSPEC`.
fn header_expectations(text: &str) -> Vec<bool> {
    let mut v: Vec<(u8, bool)> = (text.lines())
        .filter_map(|l| l.trim_start().strip_prefix("-- expect:"))
        .filter_map(|rest| {
            let mut words = rest.split_whitespace();
            let verdict = match words.next() {
                Some("true") => true,
                Some("false") => false,
                _ => return None,
            };
            let order = match words.next() {
                Some("LTLSPEC") => 1,
                Some("INVARSPEC") => 2,
                _ => 0,
            };
            Some((order, verdict))
        })
        .collect();
    v.sort_by_key(|&(order, _)| order);
    v.into_iter().map(|(_, verdict)| verdict).collect()
}

/// Expected verdicts for `file` from the `| file | module | spec | expected |` table of
/// specs/README.md.
fn readme_expectations(file: &str) -> Vec<bool> {
    let readme = std::fs::read_to_string(root().join("specs/README.md")).expect("specs/README.md");
    (readme.lines())
        .filter(|l| l.starts_with(&format!("| {file} |")))
        .filter_map(|l| {
            let cells: Vec<&str> = l.split('|').map(str::trim).collect();
            let expected = cells.get(4)?;
            if expected.starts_with("true") {
                Some(true)
            } else if expected.starts_with("false") {
                Some(false)
            } else {
                None
            }
        })
        .collect()
}

/// Verdicts printed by `xmv-rs check --no-trace [extra args]`, in output order.
fn verdicts(model: &Path, extra: &[&str]) -> (Vec<bool>, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_xmv-rs")).arg("check").arg("--no-trace").args(extra).arg(model).output().expect("run xmv-rs");
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    let v = (stdout.lines())
        .filter(|l| l.starts_with("-- specification ") || l.starts_with("-- invariant "))
        .filter_map(|l| {
            if l.ends_with(" is true") {
                Some(true)
            } else if l.ends_with(" is false") {
                Some(false)
            } else {
                None
            }
        })
        .collect();
    (v, format!("{stdout}{}", String::from_utf8_lossy(&out.stderr)))
}

#[test]
fn bundled_models_give_their_expected_verdicts() {
    let mut models: Vec<PathBuf> = (std::fs::read_dir(root().join("specs")).expect("specs/"))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "smv"))
        .collect();
    models.sort();
    assert!(models.len() >= 12, "expected at least 12 bundled models, found {}", models.len());
    let mut failures = vec![];
    let mut checked = 0;
    for model in &models {
        let name = model.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        let text = std::fs::read_to_string(model).expect("readable model");
        let mut expected = header_expectations(&text);
        if expected.is_empty() {
            expected = readme_expectations(&name);
        }
        assert!(!expected.is_empty(), "{name}: no expected verdicts (add `-- expect:` lines)");
        // Every engine, each verified by one of the other family (`--verify`).
        for engine in ["summary", "incremental", "global", "eager", "lazy"] {
            let (actual, output) = verdicts(model, &["--verify", "--engine", engine]);
            checked += expected.len();
            if actual != expected {
                failures.push(format!("{name} (--engine {engine} --verify): expected {expected:?}, got {actual:?}\n{output}"));
            }
        }
    }
    eprintln!("specs: {} models, {checked} verdicts checked", models.len());
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
