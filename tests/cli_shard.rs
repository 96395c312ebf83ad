//! `xmv-rs check --shard I/N`: the JSON outputs of the shards, concatenated in order, are the
//! output of one run over all specs (CTL specs and invariants mixed, a procedure model and a
//! flat one), every spec in exactly one shard; a malformed shard is a usage error (exit 2).

use std::process::Command;

fn run(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_xmv-rs")).args(args).output().expect("run xmv-rs");
    (out.status.code().unwrap_or(-1), String::from_utf8_lossy(&out.stdout).into_owned(), String::from_utf8_lossy(&out.stderr).into_owned())
}

/// The `specs` of a `--format json` document without their `time_ms` members.
fn specs(json: &str) -> Vec<serde_json::Value> {
    let v: serde_json::Value = serde_json::from_str(json).unwrap_or_else(|e| panic!("{e}: {json}"));
    let mut items = v["specs"].as_array().expect("an array of specs").clone();
    for item in &mut items {
        item.as_object_mut().expect("an object").remove("time_ms");
    }
    items
}

const FLAT: &str = "MODULE main
VAR x : 0..3;
ASSIGN init(x) := 0; next(x) := (x + 1) mod 4;
SPEC AG x < 4
INVARSPEC x != 2
SPEC EF x = 3
SPEC AG (x = 1 -> AX x = 2)
INVARSPEC x < 3
SPEC AG EF x = 0
SPEC EG x = 0
";

fn write(name: &str, text: &str) -> String {
    let path = std::env::temp_dir().join(format!("xmv_cli_shard_{}_{name}", std::process::id()));
    std::fs::write(&path, text).expect("write the model");
    path.to_string_lossy().into_owned()
}

#[test]
fn shards_concatenate_to_the_whole_run() {
    let dataflow = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/import/dataflow.smv");
    let flat = write("flat.smv", FLAT);
    for model in [flat.as_str(), dataflow] {
        let (code, whole, err) = run(&["check", "--format", "json", model]);
        assert!(code == 0 || code == 1, "{err}");
        let whole = specs(&whole);
        assert!(whole.len() >= 3, "{model}: a few specs");
        for n in [1, 2, 3, 5, whole.len() + 2] {
            let mut merged = Vec::new();
            for i in 1..=n {
                let (c, out, err) = run(&["check", "--format", "json", "--shard", &format!("{i}/{n}"), model]);
                assert!(c == 0 || c == 1, "{err}");
                merged.extend(specs(&out));
            }
            assert_eq!(merged, whole, "{model}: {n} shards");
        }
    }
    let _ = std::fs::remove_file(&flat);
}

#[test]
fn a_malformed_shard_is_a_usage_error() {
    let flat = write("bad.smv", FLAT);
    for bad in ["0/2", "3/2", "2", "x/y"] {
        let (code, _, err) = run(&["check", "--shard", bad, &flat]);
        assert_eq!(code, 2, "{bad}");
        assert!(err.contains("is not a shard: write I/N with 1 <= I <= N"), "{bad}: {err}");
    }
    let _ = std::fs::remove_file(&flat);
}
