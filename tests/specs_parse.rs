//! Every bundled model in `specs/` goes through the parser without a diagnostic.

use std::path::Path;
use xmv_rs::diagnostics::Diagnostics;
use xmv_rs::source::SourceFile;

#[test]
fn every_bundled_spec_parses_without_errors() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("specs");
    let mut paths: Vec<_> = std::fs::read_dir(&dir)
        .expect("specs/ exists")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "smv"))
        .collect();
    paths.sort();
    assert!(paths.len() >= 2, "expected bundled specs in {}", dir.display());
    let mut failures = String::new();
    for path in &paths {
        let file = SourceFile::read(path).expect("readable spec");
        let (program, diags) = xmv_rs::syntax::parse(&file);
        if !diags.is_empty() {
            let mut sink = Diagnostics::new();
            sink.extend(diags);
            failures.push_str(&sink.render(&file));
        }
        assert!(!program.modules.is_empty(), "{} has no module", path.display());
    }
    assert!(failures.is_empty(), "syntax errors in specs/:\n{failures}");
}
