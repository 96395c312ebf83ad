//! Regression test of the bundled models' expected verdicts: every `specs/*.smv` with
//! `-- expect: true|false  <SPEC or INVARSPEC text>` header lines goes through the whole front
//! end, the flat or recursive state-space builder and the matching checker, and its verdicts
//! must equal the header's, in file order. (The thesis listings, which must stay verbatim and
//! so have no header, are covered by `frontend_end_to_end.rs`.)

use std::path::Path;
use xmv_rs::check::flat::{CheckOptions, check_ctl};
use xmv_rs::check::rks::{self, RksOptions};
use xmv_rs::ctl::Ctl;
use xmv_rs::explicit::build_flat::{BuildLimits, build_flat};
use xmv_rs::explicit::build_rks::build_rks;
use xmv_rs::source::SourceFile;

/// The `-- expect:` lines of a model: (verdict, spec text as written in the header).
fn expectations(text: &str) -> Vec<(bool, String)> {
    text.lines()
        .filter_map(|l| l.strip_prefix("-- expect:"))
        .map(|rest| {
            let rest = rest.trim_start();
            let (word, spec) = rest.split_once(char::is_whitespace).unwrap_or((rest, ""));
            let verdict = match word {
                "true" => true,
                "false" => false,
                other => panic!("bad expectation `{other}`"),
            };
            (verdict, spec.trim().to_string())
        })
        .collect()
}

/// Verdicts of all specs of the file, in file order.
fn verdicts(file: &SourceFile) -> Vec<bool> {
    let (lowered, diags) = xmv_rs::frontend::load(file, None);
    let program = lowered.unwrap_or_else(|| panic!("{}", diags.render(file)));
    let as_checked = |invariant: bool, f: &Ctl<_>| if invariant { Ctl::AG(Box::new(f.clone())) } else { f.clone() };
    if program.flat.is_some() {
        let model = build_flat(&program, &BuildLimits::default()).unwrap_or_else(|d| panic!("{}", d.render(file)));
        let specs: Vec<_> = model.specs.iter().map(|s| as_checked(s.invariant, &s.formula)).collect();
        // NuSMV ignores fairness for INVARSPEC; the bundled models with fairness have none.
        let report = check_ctl(&model.kripke, &specs, &model.fairness, &CheckOptions { threads: 1, traces: false });
        report.verdicts.iter().map(|v| v.holds).collect()
    } else {
        let model = build_rks(&program, &BuildLimits::default()).unwrap_or_else(|d| panic!("{}", d.render(file)));
        model
            .specs
            .iter()
            .map(|s| rks::check(&model.rks, s.component, &as_checked(s.invariant, &s.formula), &RksOptions::default()).holds)
            .collect()
    }
}

#[test]
fn bundled_models_have_their_expected_verdicts() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("specs");
    let mut paths: Vec<_> = std::fs::read_dir(&dir)
        .expect("specs/")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "smv"))
        .collect();
    paths.sort();
    let mut checked = 0;
    let mut failures = Vec::new();
    for path in &paths {
        let file = SourceFile::read(path).expect("readable");
        let expected = expectations(&file.text);
        if expected.is_empty() {
            continue;
        }
        let actual = verdicts(&file);
        let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        if actual.len() != expected.len() {
            failures.push(format!("{name}: {} specs checked, {} expectations", actual.len(), expected.len()));
            continue;
        }
        for ((want, spec), got) in expected.iter().zip(&actual) {
            if want != got {
                failures.push(format!("{name}: `{spec}` expected {want}, got {got}"));
            }
        }
        checked += 1;
    }
    assert!(checked >= 10, "only {checked} models with expectations");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
