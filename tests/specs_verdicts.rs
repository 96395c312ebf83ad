//! Every bundled model in `specs/` is checked end to end by the `xmv-rs` binary and each verdict
//! must equal the expectation written next to the model: `-- expect: true|false  SPEC …` lines in
//! the model's header comment (`-- expect: 6  COMPUTE …` for a COMPUTE's result; CTL specs in file
//! order, then COMPUTEs, LTL specs and invariants, as NuSMV prints them), or, for the thesis
//! listings that are kept verbatim, the rows of the table in `specs/README.md`.

use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Expected verdicts (`true`, `false`, a COMPUTE's `6`, `infinity`, `undefined`) from `-- expect:`
/// header lines, in output order: NuSMV's batch order, every CTL spec first, then every
/// `COMPUTE`, `LTLSPEC` and `INVARSPEC`.
fn header_expectations(text: &str) -> Vec<String> {
    let mut v: Vec<(u8, String)> = (text.lines())
        .filter_map(|l| l.trim_start().strip_prefix("-- expect:"))
        .filter_map(|rest| {
            let mut words = rest.split_whitespace();
            let verdict = words.next()?.to_string();
            let order = match words.next() {
                Some("COMPUTE") => 1,
                Some("LTLSPEC") => 2,
                Some("INVARSPEC") => 3,
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
fn readme_expectations(file: &str) -> Vec<String> {
    let readme = std::fs::read_to_string(root().join("specs/README.md")).expect("specs/README.md");
    (readme.lines())
        .filter(|l| l.starts_with(&format!("| {file} |")))
        .filter_map(|l| {
            let cells: Vec<&str> = l.split('|').map(str::trim).collect();
            let expected = cells.get(4)?;
            ["true", "false"].into_iter().find(|v| expected.starts_with(v)).map(str::to_string)
        })
        .collect()
}

/// Verdicts (and COMPUTE results) printed by `xmv-rs check --no-trace [extra args]`, in output
/// order: the word after the line's last `is `.
fn verdicts(model: &Path, extra: &[&str]) -> (Vec<String>, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_xmv-rs")).arg("check").arg("--no-trace").args(extra).arg(model).output().expect("run xmv-rs");
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    let v = (stdout.lines())
        .filter(|l| l.starts_with("-- specification ") || l.starts_with("-- invariant ") || l.starts_with("-- the result of "))
        .filter_map(|l| l.trim_end().rsplit_once("is ").map(|(_, v)| v.to_string()))
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
