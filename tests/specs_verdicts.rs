//! Every bundled model in `specs/` through the front end, the builders and the checkers: the
//! verdicts must equal the `-- expect: true|false` comments at the top of each file, in spec
//! order (the thesis listings, whose verdicts are in the digest, are checked in
//! `frontend_end_to_end.rs`).

use xmv_rs::driver::stages::{check_flat, check_rks};
use xmv_rs::driver::CheckOptions;
use xmv_rs::explicit::build_flat::{build_flat, BuildLimits};
use xmv_rs::explicit::build_rks::build_rks;
use xmv_rs::source::SourceFile;

fn expected(text: &str) -> Vec<bool> {
    text.lines()
        .filter_map(|l| l.strip_prefix("-- expect:"))
        .map(|rest| match rest.split_whitespace().next() {
            Some("true") => true,
            Some("false") => false,
            other => panic!("bad expectation {other:?}"),
        })
        .collect()
}

fn verdicts(file: &SourceFile) -> Vec<bool> {
    let (p, diags) = xmv_rs::frontend::load(file, None);
    let p = p.unwrap_or_else(|| panic!("{}", diags.render(file)));
    let options = CheckOptions { threads: 1, traces: false, ..CheckOptions::default() };
    let mut by_spec: Vec<Option<bool>> = vec![None; p.specs.len()];
    if p.flat.is_some() {
        let model = build_flat(&p, &BuildLimits::default()).unwrap_or_else(|d| panic!("{}", d.render(file)));
        let checked = check_flat(&model, &options).unwrap_or_else(|e| panic!("{e}"));
        for (s, o) in model.specs.iter().zip(checked.outcomes) {
            by_spec[s.spec] = Some(o.holds);
        }
    }
    if p.systems.iter().any(|s| s.is_procedure) {
        let model = build_rks(&p, &BuildLimits::default()).unwrap_or_else(|d| panic!("{}", d.render(file)));
        let checked = check_rks(&model, &options).unwrap_or_else(|e| panic!("{e}"));
        for (s, o) in model.specs.iter().zip(checked.outcomes) {
            by_spec[s.spec] = Some(o.holds);
        }
    }
    by_spec.into_iter().map(|v| v.expect("every spec checked")).collect()
}

#[test]
fn bundled_models_have_their_expected_verdicts() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("specs");
    let mut paths: Vec<_> = std::fs::read_dir(&dir).expect("specs/").filter_map(|e| e.ok().map(|e| e.path())).collect();
    paths.retain(|p| p.extension().is_some_and(|x| x == "smv"));
    paths.sort();
    let mut checked = 0;
    let mut failures = vec![];
    for path in paths {
        let file = SourceFile::read(&path).expect("readable");
        let want = expected(&file.text);
        if want.is_empty() {
            continue;
        }
        let got = verdicts(&file);
        if got != want {
            failures.push(format!("{}: expected {want:?}, got {got:?}", path.display()));
        }
        checked += 1;
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(checked >= 10, "only {checked} models with expectations");
}
