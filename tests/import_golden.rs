//! Golden tests of `xmv-rs import`: every model in `tests/import/` (`.rsm`/`.json` RSMCheck JSON,
//! `.pds` PuMoC, `.pdmu` PDSolver, with an optional `.ctl` of the same stem) is translated and
//! compared with the `.smv` beside it; every model in `tests/import/errors/` must fail with the
//! diagnostics in its `.err` file; the shared RSMCheck examples (`../shared/bench/…`) are compared
//! with `tests/import/shared/*.smv`. `UPDATE_GOLDEN=1 cargo test --test import_golden` rewrites
//! the expected files.

use std::path::{Path, PathBuf};
use xmv_rs::import::procedures::EntryExit;
use xmv_rs::import::{ImportFormat, ImportOptions, import_with};
use xmv_rs::source::SourceFile;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn format_of(path: &Path) -> Option<ImportFormat> {
    match path.extension()?.to_str()? {
        "rsm" | "json" => Some(ImportFormat::RsmJson),
        "pds" => Some(ImportFormat::Pds),
        "pdmu" => Some(ImportFormat::Pdmu),
        _ => None,
    }
}

/// Reads a file under a display name relative to the repository root (stable in goldens).
fn source(path: &Path) -> SourceFile {
    let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    let name = path.strip_prefix(root()).unwrap_or(path).display().to_string();
    SourceFile::from_bytes(name, &bytes)
}

/// The translation, or the rendered diagnostics of a failure.
fn run(model: &Path, ctl: Option<&Path>) -> Result<String, String> {
    let format = format_of(model).expect("model extension");
    let input = source(model);
    let ctl_file = ctl.map(source);
    // A model whose name ends in `_return` is read with `--entry-exit return`.
    let return_reading = model.file_stem().is_some_and(|s| s.to_string_lossy().ends_with("_return"));
    let options = ImportOptions { entry_exit: if return_reading { EntryExit::Return } else { EntryExit::Stuck }, ..ImportOptions::default() };
    match import_with(format, &input, ctl_file.as_ref(), &options) {
        Ok(imported) => Ok(imported.smv),
        Err(e) => Err(e.diagnostics.render(if e.in_ctl { ctl_file.as_ref().unwrap_or(&input) } else { &input })),
    }
}

fn check(expected_path: &Path, actual: &str, failures: &mut Vec<String>) {
    if expected_path.extension().is_some_and(|e| e == "smv") {
        let file = SourceFile::new(expected_path.display().to_string(), actual);
        let (_, diags) = xmv_rs::syntax::parse(&file);
        if !diags.is_empty() {
            let rendered: String = diags.iter().map(|d| d.render(&file)).collect();
            failures.push(format!("{} does not parse:\n{rendered}", expected_path.display()));
        }
    }
    if std::env::var_os("UPDATE_GOLDEN").is_some() {
        std::fs::write(expected_path, actual).expect("write golden");
        return;
    }
    match std::fs::read_to_string(expected_path) {
        Ok(expected) if expected == actual => {}
        Ok(expected) => failures.push(format!("{} differs:\n--- expected\n{expected}\n--- actual\n{actual}", expected_path.display())),
        Err(_) => failures.push(format!("{} is missing (run with UPDATE_GOLDEN=1)", expected_path.display())),
    }
}

fn models(dir: &Path) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir).expect("dir").filter_map(|e| e.ok().map(|e| e.path())).filter(|p| format_of(p).is_some()).collect();
    v.sort();
    v
}

#[test]
fn small_inputs_translate_to_their_golden_smv() {
    let dir = root().join("tests/import");
    let mut failures = Vec::new();
    let cases = models(&dir);
    assert!(cases.len() >= 8, "expected the golden cases, found {}", cases.len());
    for model in cases {
        let ctl = model.with_extension("ctl");
        let ctl = ctl.exists().then_some(ctl);
        match run(&model, ctl.as_deref()) {
            Ok(smv) => check(&model.with_extension("smv"), &smv, &mut failures),
            Err(diags) => failures.push(format!("{} failed:\n{diags}", model.display())),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn malformed_inputs_give_their_golden_diagnostics() {
    let dir = root().join("tests/import/errors");
    let mut failures = Vec::new();
    let cases = models(&dir);
    assert!(cases.len() >= 6, "expected the error cases, found {}", cases.len());
    for model in cases {
        let ctl = model.with_extension("ctl");
        let ctl = ctl.exists().then_some(ctl);
        match run(&model, ctl.as_deref()) {
            Ok(_) => failures.push(format!("{} was accepted", model.display())),
            Err(diags) => check(&model.with_extension("err"), &diags, &mut failures),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The RSMCheck examples shipped in `../shared/bench/rsmcheck-examples`, with their CTL files.
pub const SHARED_EXAMPLES: &[(&str, &str, Option<&str>)] = &[
    ("example", "example.rsm", Some("example.ctl")),
    ("simple_eg", "simple.rsm", Some("simple_eg.ctl")),
    ("simple_eu", "simple.rsm", Some("simple_eu.ctl")),
    ("test", "test.rsm", Some("test.ctl")),
    ("test_globally", "test.rsm", Some("test_globally.ctl")),
];

#[test]
fn shared_rsmcheck_examples_translate_to_their_golden_smv() {
    let shared = root().join("../shared/bench/rsmcheck-examples");
    let mut failures = Vec::new();
    for (name, model, ctl) in SHARED_EXAMPLES {
        let ctl = ctl.map(|c| shared.join(c));
        match run(&shared.join(model), ctl.as_deref()) {
            Ok(smv) => check(&root().join("tests/import/shared").join(format!("{name}.smv")), &smv, &mut failures),
            Err(diags) => failures.push(format!("{model} failed:\n{diags}")),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
