//! Golden tests of every front-end diagnostic: for each `tests/diagnostics/<name>.smv` the
//! rendered diagnostics must equal `tests/diagnostics/<name>.stderr` byte for byte.
//!
//! `UPDATE_GOLDEN=1 cargo test --test golden_diagnostics` rewrites the `.stderr` files from the
//! current output (review the diff before committing). A second test checks that every code of
//! the README's "## Diagnostics" table occurs in some golden file.

use std::path::{Path, PathBuf};
use xmv_rs::diagnostics::{Diagnostic, Diagnostics};
use xmv_rs::source::SourceFile;

/// The front end under test: everything that runs on a file before model construction.
/// When a later stage adds diagnostics, call it from here (this is the only place to change).
fn front_end(file: &SourceFile) -> Vec<Diagnostic> {
    let (_program, diags) = xmv_rs::syntax::parse(file);
    diags
}

fn golden_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests").join("diagnostics")
}

fn cases() -> Vec<PathBuf> {
    let mut paths: Vec<PathBuf> = std::fs::read_dir(golden_dir())
        .expect("tests/diagnostics exists")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "smv"))
        .collect();
    paths.sort();
    paths
}

/// Renders the front end's diagnostics for one golden input, naming the file by its path
/// relative to the repository root so the text does not depend on the checkout location.
fn render(path: &Path) -> String {
    let bytes = std::fs::read(path).expect("readable golden input");
    let name = format!("tests/diagnostics/{}", path.file_name().expect("file name").to_string_lossy());
    let file = SourceFile::from_bytes(name, &bytes);
    let mut sink = Diagnostics::new();
    sink.extend(front_end(&file));
    sink.render(&file)
}

#[test]
fn rendered_diagnostics_match_golden_files() {
    let update = std::env::var_os("UPDATE_GOLDEN").is_some_and(|v| v == "1");
    let cases = cases();
    assert!(!cases.is_empty(), "no golden inputs in {}", golden_dir().display());
    let mut failures = Vec::new();
    for smv in &cases {
        let actual = render(smv);
        let golden = smv.with_extension("stderr");
        if update {
            std::fs::write(&golden, &actual).expect("writable golden file");
            continue;
        }
        let expected = std::fs::read_to_string(&golden).unwrap_or_default();
        if actual != expected {
            failures.push(format!(
                "--- {} (expected)\n{expected}\n+++ actual\n{actual}",
                golden.strip_prefix(env!("CARGO_MANIFEST_DIR")).unwrap_or(&golden).display()
            ));
        }
    }
    assert!(failures.is_empty(), "{} golden file(s) differ (UPDATE_GOLDEN=1 to accept):\n{}", failures.len(), failures.join("\n"));
}

#[test]
fn every_documented_diagnostic_code_has_a_golden_test() {
    let readme = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("README.md")).expect("README.md");
    let section = readme.split("## Diagnostics").nth(1).expect("README has a `## Diagnostics` section");
    let section = section.split("\n## ").next().unwrap_or(section);
    let codes: Vec<&str> = section
        .lines()
        .filter_map(|l| l.strip_prefix("| `"))
        .filter_map(|l| l.split('`').next())
        .filter(|c| c.len() == 5 && (c.starts_with('E') || c.starts_with('W')))
        .collect();
    assert!(!codes.is_empty(), "no codes found in the README's Diagnostics table");
    let all_golden: String = cases().iter().map(|p| std::fs::read_to_string(p.with_extension("stderr")).unwrap_or_default()).collect();
    let missing: Vec<&str> = codes.iter().copied().filter(|c| !all_golden.contains(&format!("[{c}]"))).collect();
    assert!(missing.is_empty(), "documented codes without a golden test: {missing:?}");
}
