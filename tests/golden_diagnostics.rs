//! Golden tests for diagnostics: every `tests/diagnostics/<name>.smv` is run through the whole
//! front end (`frontend::load`) and its rendered diagnostics must equal `<name>.stderr` exactly.
//! `UPDATE_GOLDEN=1 cargo test --test golden_diagnostics` rewrites the `.stderr` files.
//!
//! A second test checks coverage: every diagnostic code that the semantics and lowering stages
//! can emit (every `"E0xxx"` and `"W0xxx"` literal in their sources) appears in some
//! golden file and in the README's "Diagnostics" table.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use xmv_rs::source::SourceFile;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn cases() -> Vec<PathBuf> {
    let dir = root().join("tests/diagnostics");
    let mut paths: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("tests/diagnostics exists")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "smv"))
        .collect();
    paths.sort();
    paths
}

fn render(path: &Path) -> String {
    let bytes = std::fs::read(path).expect("readable case");
    let name = format!("tests/diagnostics/{}", path.file_name().unwrap_or_default().to_string_lossy());
    let file = SourceFile::from_bytes(name, &bytes);
    let (_, diags) = xmv_rs::frontend::load(&file, None);
    diags.render(&file)
}

#[test]
fn diagnostics_match_golden_files() {
    let update = std::env::var_os("UPDATE_GOLDEN").is_some();
    let mut failures = vec![];
    let paths = cases();
    assert!(!paths.is_empty(), "no golden cases");
    for path in &paths {
        let actual = render(path);
        let golden = path.with_extension("stderr");
        if update {
            std::fs::write(&golden, &actual).expect("write golden file");
            continue;
        }
        let expected = std::fs::read_to_string(&golden).unwrap_or_default();
        if expected != actual {
            failures.push(format!("--- {} (expected)\n{expected}--- actual\n{actual}", golden.display()));
        }
        assert!(!actual.is_empty(), "{} produces no diagnostic", path.display());
    }
    assert!(failures.is_empty(), "{} golden mismatches (UPDATE_GOLDEN=1 rewrites):\n{}", failures.len(), failures.join("\n"));
}

/// Codes that cannot be triggered from source, with the reason.
const UNREACHABLE: &[(&str, &str)] = &[("E0299", "internal invariant of lowering (temporal operator outside a spec), never reached")];

fn emitted_codes() -> BTreeSet<String> {
    let mut codes = BTreeSet::new();
    for dir in ["src/syntax", "src/semantics", "src/lowering"] {
        for entry in std::fs::read_dir(root().join(dir)).expect("source dir") {
            let path = entry.expect("dir entry").path();
            if path.extension().is_none_or(|x| x != "rs") {
                continue;
            }
            let text = std::fs::read_to_string(&path).expect("source");
            let bytes = text.as_bytes();
            for w in bytes.windows(7) {
                let is_code = w[0] == b'"' && (w[1] == b'E' || w[1] == b'W') && w[2] == b'0' && w[3..6].iter().all(u8::is_ascii_digit) && w[6] == b'"';
                if is_code {
                    let code = String::from_utf8_lossy(&w[1..6]).into_owned();
                    if !UNREACHABLE.iter().any(|(c, _)| *c == code) {
                        codes.insert(code);
                    }
                }
            }
        }
    }
    codes
}

#[test]
fn every_semantic_diagnostic_has_a_golden_case_and_a_readme_row() {
    let codes = emitted_codes();
    assert!(codes.len() >= 30, "found only {} codes", codes.len());
    let mut goldens = String::new();
    for path in cases() {
        goldens.push_str(&std::fs::read_to_string(path.with_extension("stderr")).unwrap_or_default());
    }
    let readme = std::fs::read_to_string(root().join("README.md")).expect("README");
    let missing_golden: Vec<&String> = codes.iter().filter(|c| !goldens.contains(&format!("[{c}]"))).collect();
    let missing_readme: Vec<&String> = codes.iter().filter(|c| !readme.contains(&format!("| {c} |"))).collect();
    assert!(missing_golden.is_empty(), "codes without a golden case: {missing_golden:?}");
    assert!(missing_readme.is_empty(), "codes without a README row: {missing_readme:?}");
}
