//! `--format json` and `--format sarif` validated against their schemas, and the diagnostics
//! they carry checked against the text rendering.
//!
//! Inputs: every bundled spec (`specs/*.smv`), every golden diagnostic case
//! (`tests/diagnostics/*.smv`), every pipeline golden case (`tests/build/*.smv`) and every other
//! `.smv` file under `tests/` (import goldens, words, drop-in, spec selection; the
//! `tests/spec_timeout` models with `--spec-timeout 0`, so that unknown verdicts are validated
//! too). The JSON
//! schema is ours (`docs/schema/check-output.schema.json`); the SARIF schema is the official
//! 2.1.0 schema as shipped in the `serde-sarif` crate's sources (in cargo's registry, so it is
//! never copied into this repository).

use std::path::{Path, PathBuf};
use xmv_rs::driver::{CheckOptions, Format, RunOutput, run_check, stages};
use xmv_rs::source::SourceFile;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The `.smv` files under `dir`, recursively, sorted.
fn smv_files(dir: &Path) -> Vec<PathBuf> {
    let mut paths = vec![];
    for entry in std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())).filter_map(Result::ok) {
        let path = entry.path();
        if path.is_dir() {
            paths.extend(smv_files(&path));
        } else if path.extension().is_some_and(|x| x == "smv") {
            paths.push(path);
        }
    }
    paths.sort();
    paths
}

fn cases() -> Vec<PathBuf> {
    let cases: Vec<PathBuf> = [root().join("specs"), root().join("tests")].iter().flat_map(|d| smv_files(d)).collect();
    let count = |dir: &str| cases.iter().filter(|p| p.starts_with(root().join(dir))).count();
    // Every golden diagnostic case (a `.stderr` beside its `.smv`) is among them.
    let goldens = (std::fs::read_dir(root().join("tests/diagnostics")).expect("tests/diagnostics").filter_map(Result::ok))
        .filter(|e| e.path().extension().is_some_and(|x| x == "stderr"))
        .count();
    assert_eq!(count("tests/diagnostics"), goldens);
    assert!(count("specs") >= 19 && count("tests/diagnostics") >= 88 && count("tests/build") >= 25 && cases.len() >= 160, "found {}", cases.len());
    cases
}

fn run(path: &Path, format: Format) -> RunOutput {
    let bytes = std::fs::read(path).expect("readable");
    let name = path.strip_prefix(root()).unwrap_or(path).display().to_string();
    let file = SourceFile::from_bytes(name, &bytes);
    let spec_timeout = path.starts_with(root().join("tests/spec_timeout")).then_some(std::time::Duration::ZERO);
    // The 30-bit counter with every state initial is for the BDD engine: the explicit builder
    // enumerates its 2^30 initial states before its state budget stops it.
    let engine = if path.ends_with("spec_timeout/counter.smv") { xmv_rs::Engine::Bdd } else { xmv_rs::Engine::Auto };
    let options = CheckOptions { format, traces: true, threads: 1, max_memory: Some(1 << 30), spec_timeout, engine, ..Default::default() };
    run_check(&file, &options, &stages::Stages::linked())
}

fn validator(schema: &serde_json::Value) -> jsonschema::Validator {
    jsonschema::validator_for(schema).unwrap_or_else(|e| panic!("schema does not compile: {e}"))
}

fn errors(v: &jsonschema::Validator, instance: &serde_json::Value) -> Vec<String> {
    v.iter_errors(instance).take(5).map(|e| format!("{} at {}", e, e.instance_path())).collect()
}

/// Runs `path` in `format` and validates the document; schema errors go to `failures` (the
/// document is still returned), output that is not JSON too (then `None`).
fn validated(path: &Path, format: Format, v: &jsonschema::Validator, failures: &mut Vec<String>) -> Option<(RunOutput, serde_json::Value)> {
    let out = run(path, format);
    let doc: serde_json::Value = match serde_json::from_str(&out.stdout) {
        Ok(d) => d,
        Err(e) => {
            failures.push(format!("{}: not JSON: {e}", path.display()));
            return None;
        }
    };
    let errs = errors(v, &doc);
    if !errs.is_empty() {
        failures.push(format!("{}: {}", path.display(), errs.join("; ")));
    }
    Some((out, doc))
}

/// The SARIF 2.1.0 schema from the `serde-sarif` package in cargo's registry (the version
/// `Cargo.lock` pins, unpacked under `$CARGO_HOME/registry/src/<index>/` by the build).
fn sarif_schema() -> serde_json::Value {
    let lock = std::fs::read_to_string(root().join("Cargo.lock")).expect("Cargo.lock");
    let version = lock.split("[[package]]").find(|p| p.contains("name = \"serde-sarif\"")).and_then(|p| p.lines().find_map(|l| l.strip_prefix("version = ")));
    let version = version.expect("serde-sarif in Cargo.lock").trim_matches('"').to_string();
    let home = std::env::var_os("CARGO_HOME").map(PathBuf::from).or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cargo")));
    let registry = home.expect("CARGO_HOME or HOME").join("registry/src");
    let found = (std::fs::read_dir(&registry).into_iter().flatten().filter_map(Result::ok))
        .map(|index| index.path().join(format!("serde-sarif-{version}/src/schema.json")))
        .find(|p| p.is_file())
        .unwrap_or_else(|| panic!("serde-sarif {version} sources not under {}", registry.display()));
    let text = std::fs::read_to_string(found).expect("schema readable");
    // The published schema's pattern for language tags (`language` properties) has a stray `]`
    // (`…-[a-zA-Z]{2}]?$`) that ECMA-262 reads as a literal but Rust's regex engines reject.
    // Its evident intent is substituted; no output of ours has a `language` property.
    let text = text.replace(r#""^[a-zA-Z]{2}|^[a-zA-Z]{2}-[a-zA-Z]{2}]?$""#, r#""^[a-zA-Z]{2}(-[a-zA-Z]{2})?$""#);
    serde_json::from_str(&text).expect("schema JSON")
}

#[test]
fn json_output_matches_its_schema_and_the_text_diagnostics() {
    let schema_text = std::fs::read_to_string(root().join("docs/schema/check-output.schema.json")).expect("schema file");
    let v = validator(&serde_json::from_str(&schema_text).expect("schema JSON"));
    let mut failures = vec![];
    let (mut with_diagnostics, mut with_traces) = (0, 0);
    for path in cases() {
        let text = run(&path, Format::Text);
        let Some((json, doc)) = validated(&path, Format::Json, &v, &mut failures) else { continue };
        // The same run: exit code, verdicts and diagnostics as the text format.
        assert_eq!(json.exit_code, text.exit_code, "{}", path.display());
        assert_eq!(doc["exit_code"].as_i64(), Some(i64::from(text.exit_code)), "{}", path.display());
        assert!(json.stderr.is_empty() || json.stderr.starts_with("-- stats"), "{}: JSON run wrote {}", path.display(), json.stderr);
        let specs = doc["specs"].as_array().into_iter().flatten();
        let (computes, specs): (Vec<_>, Vec<_>) = specs.partition(|s| s["kind"] == "compute");
        let verdicts: Vec<bool> = specs.iter().map(|s| s["verdict"].as_bool().unwrap_or(false)).collect();
        let text_verdicts: Vec<bool> =
            text.stdout.lines().filter(|l| l.starts_with("-- specification") || l.starts_with("-- invariant")).map(|l| l.ends_with("is true")).collect();
        assert_eq!(verdicts, text_verdicts, "{}", path.display());
        // COMPUTE results: a number, "infinity" or "undefined", as the text's `is …`.
        let results: Vec<String> = computes.iter().map(|s| s["verdict"].to_string().trim_matches('"').to_string()).collect();
        let text_results: Vec<String> =
            text.stdout.lines().filter(|l| l.starts_with("-- the result of")).filter_map(|l| l.rsplit_once("is ").map(|(_, r)| r.to_string())).collect();
        assert_eq!(results, text_results, "{}", path.display());
        // Every rendered header `error[CODE]`/`warning[CODE]` and `┌─ file:line:col` is in the data.
        let headers: Vec<String> = text
            .stderr
            .lines()
            .filter(|l| l.starts_with("error[") || l.starts_with("warning["))
            .map(|l| l.split(':').next().unwrap_or("").to_string())
            .collect();
        let data_headers: Vec<String> = (doc["diagnostics"].as_array().into_iter().flatten())
            .map(|d| format!("{}[{}]", d["severity"].as_str().unwrap_or(""), d["code"].as_str().unwrap_or("")))
            .collect();
        assert_eq!(headers, data_headers, "{}", path.display());
        let places: Vec<String> = text.stderr.lines().filter_map(|l| l.trim_start().strip_prefix("┌─ ")).map(str::to_string).collect();
        let data_places: Vec<String> = (doc["diagnostics"].as_array().into_iter().flatten())
            .filter_map(|d| d["labels"].get(0))
            .map(|l| format!("{}:{}:{}", doc["file"].as_str().unwrap_or(""), l["line"], l["column"]))
            .collect();
        if !text.stderr.contains("...") {
            // (windowed long lines show shifted columns in the text; the data keeps the real ones)
            assert_eq!(places, data_places, "{}", path.display());
        }
        with_diagnostics += usize::from(!data_headers.is_empty());
        with_traces += (doc["specs"].as_array().into_iter().flatten()).filter(|s| !s["trace"].is_null()).count();
    }
    assert!(failures.is_empty(), "{} documents fail the schema:\n{}", failures.len(), failures.join("\n"));
    // The validator is not vacuous: a document with a wrong field fails.
    let mut bad: serde_json::Value = serde_json::from_str(&run(&root().join("specs/finis-listing-5-1.smv"), Format::Json).stdout).expect("JSON");
    bad["specs"][0]["kind"] = "pslspec".into();
    assert!(!errors(&v, &bad).is_empty(), "a spec of kind `pslspec` passes the schema");
    assert!(with_diagnostics >= 80 && with_traces >= 10, "too few diagnostics ({with_diagnostics}) or traces ({with_traces}) exercised");
}

#[test]
fn sarif_output_matches_the_sarif_2_1_0_schema() {
    let v = validator(&sarif_schema());
    let mut failures = vec![];
    let (mut results, mut flows) = (0, 0);
    for path in cases() {
        let Some((out, doc)) = validated(&path, Format::Sarif, &v, &mut failures) else { continue };
        let run = &doc["runs"][0];
        assert_eq!(run["invocations"][0]["exitCode"].as_i64(), Some(i64::from(out.exit_code)), "{}", path.display());
        let rs = run["results"].as_array().cloned().unwrap_or_default();
        // Every result's rule is declared by the tool.
        let rules: Vec<&str> = (run["tool"]["driver"]["rules"].as_array().into_iter().flatten()).filter_map(|r| r["id"].as_str()).collect();
        for r in &rs {
            assert!(rules.contains(&r["ruleId"].as_str().unwrap_or("?")), "{}: undeclared rule {}", path.display(), r["ruleId"]);
        }
        results += rs.len();
        flows += rs.iter().filter(|r| r.get("codeFlows").is_some()).count();
    }
    assert!(failures.is_empty(), "{} logs fail the SARIF schema:\n{}", failures.len(), failures.join("\n"));
    let mut bad: serde_json::Value = serde_json::from_str(&run(&root().join("specs/finis-listing-5-1.smv"), Format::Sarif).stdout).expect("JSON");
    bad["runs"][0]["results"][0]["level"] = "fatal".into();
    assert!(!errors(&v, &bad).is_empty(), "a result of level `fatal` passes the SARIF schema");
    assert!(results >= 100 && flows >= 10, "too few results ({results}) or code flows ({flows}) exercised");
}

#[test]
fn sarif_false_spec_has_its_counterexample_as_a_code_flow() {
    let path = root().join("specs/finis-listing-5-1.smv");
    let doc: serde_json::Value = serde_json::from_str(&run(&path, Format::Sarif).stdout).expect("JSON");
    let results = doc["runs"][0]["results"].as_array().cloned().unwrap_or_default();
    let text = run(&path, Format::Text);
    let false_specs = text.stdout.lines().filter(|l| l.ends_with("is false")).count();
    assert_eq!(results.len(), false_specs);
    let first = &results[0];
    assert_eq!(first["level"], "error");
    assert_eq!(first["ruleId"], "CTLSPEC");
    assert!(first["message"]["text"].as_str().is_some_and(|t| t.starts_with("specification AG (in_state2 -> cr_reset) is false")), "{}", first["message"]);
    let steps = first["codeFlows"][0]["threadFlows"][0]["locations"].as_array().cloned().unwrap_or_default();
    let text_steps = text.stdout.split("is false").nth(1).unwrap_or("").split("-- specification").next().unwrap_or("").matches("-> State:").count();
    assert_eq!(steps.len(), text_steps);
    assert_eq!(steps[0]["state"]["counter"]["text"], "0");
    let region = &first["locations"][0]["physicalLocation"]["region"];
    assert_eq!(region["startLine"], region["endLine"], "the spec's region ends on its own line");
}
