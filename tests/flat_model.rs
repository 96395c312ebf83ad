//! NuSMV's flattened model (`-ofm FILE`, `write_flat_model [-o FILE]`) in drop-in mode.
//!
//! * Golden files: `tests/flat_model/NAME.smv` (models written for these tests: instances and
//!   parameters, DEFINE chains, processes, words, arrays, IVARs, FAIRNESS/JUSTICE/COMPASSION,
//!   every kind of property) and `NAME.flat`, NuSMV 2.5.4's `-disable_daggifier -ofm` output;
//!   xmv-rs must write the same bytes, through `-ofm` and through `write_flat_model` on stdout.
//! * Round trip: for the flat bundled specs, the golden models and random models (control-flow
//!   models of `tools/cfg_model.rs`, LTL models of `support::ltl_smv`, random instance chains),
//!   the written flat model checked by xmv-rs gives the verdicts of the original, in order.
//! * With `NUSMV` set: NuSMV gives the same verdicts on the written file as on the original, and
//!   still writes the golden files.
//! * Errors: an unwritable file, no model, `-h`, procedure modules.

// cfg_model and support::random both include tools/splitmix.rs; each copy is private to its module.
#[allow(clippy::duplicate_mod)]
#[path = "../tools/cfg_model.rs"]
mod cfg_model;
mod support;

use std::path::{Path, PathBuf};
use support::random::{Rng, cases};

const GOLDEN: &[&str] = &["instances", "defines", "processes", "words_arrays"];

fn golden_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/flat_model")
}

fn xmv() -> &'static Path {
    Path::new(env!("CARGO_BIN_EXE_xmv-rs"))
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("xmv-flat-model-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir.join(name)
}

/// Runs `program` named `NuSMV` in `dir`; returns (status, stdout, stderr).
fn run_in(dir: &Path, program: &Path, args: &[&str], stdin: &str) -> (i32, String, String) {
    support::nusmv::run_named(program, "NuSMV", dir, args, stdin)
}

/// The verdicts (`true`/`false`) of the `-- specification`/`-- invariant` lines, in order (a
/// formula with a `case` spans several lines; its verdict ends the last one).
fn verdicts(stdout: &str) -> Vec<bool> {
    let mut out = vec![];
    let mut open = false;
    for l in stdout.lines() {
        open |= l.starts_with("-- specification") || l.starts_with("-- invariant");
        let l = l.trim_end();
        if open && (l.ends_with(" is true") || l.ends_with(" is false")) {
            out.push(l.ends_with(" is true"));
            open = false;
        }
    }
    out
}

/// `-ofm` on `model`: the written text (or the stderr when nothing was written).
fn write_flat(dir: &Path, model: &str, out: &Path) -> Result<String, String> {
    let _ = std::fs::remove_file(out);
    let (status, _, stderr) = run_in(dir, xmv(), &["-dcx", "-is", "-ils", "-ii", "-ic", "-ips", "-ofm", &out.display().to_string(), model], "");
    match std::fs::read_to_string(out) {
        Ok(text) if status == 0 => Ok(text),
        _ => Err(format!("status {status}: {stderr}")),
    }
}

#[test]
fn golden_flat_models_are_nusmvs_output() {
    for name in GOLDEN {
        let want = std::fs::read_to_string(golden_dir().join(format!("{name}.flat"))).expect("golden file");
        let out = scratch(&format!("{name}.flat"));
        let text = write_flat(&golden_dir(), &format!("{name}.smv"), &out).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(text, want, "{name}: -ofm");
        // The command, on stdout, writes the same text.
        let script = format!("read_model -i {name}.smv\nflatten_hierarchy\nwrite_flat_model\nquit\n");
        let (status, stdout, stderr) = run_in(&golden_dir(), xmv(), &["-int", "-quiet"], &script);
        assert_eq!(status, 0, "{stderr}");
        assert!(stdout.contains(&want), "{name}: write_flat_model on stdout:\n{stdout}");
    }
}

/// A chain of instances of a module with parameters, DEFINEs, constraints and fairness.
fn instance_chain(rng: &mut Rng) -> String {
    let n = 2 + rng.below(3);
    let ops = ["&", "|", "xor", "->"];
    let mut s = String::from("MODULE node(prev, on)\nVAR v : boolean; c : 0..2;\nDEFINE d := prev ");
    s += &format!("{} v;\n  e := d;\n", ops[rng.below(4)]);
    s += &format!("ASSIGN\n  init(c) := {};\n  next(c) := case on & e : (c + 1) mod 3; TRUE : c; esac;\n", rng.below(3));
    s += &format!("  next(v) := {};\n", ["!v", "prev", "e", "{TRUE, FALSE}"][rng.below(4)]);
    if rng.chance(50) {
        s += &format!("TRANS next(v) != v | c = {}\n", rng.below(3));
    }
    if rng.chance(50) {
        s += "INVAR c != 2 | !v & TRUE\n";
    }
    if rng.chance(40) {
        s += "FAIRNESS e\n";
    }
    s += &format!("SPEC AG (c = 0 -> EF c = {})\nINVARSPEC c < 2 | v\n", 1 + rng.below(2));
    s += "\nMODULE main\nIVAR i : boolean;\nVAR\n  go : boolean;\n  n0 : node(TRUE, go);\n";
    for i in 1..n {
        s += &format!("  n{i} : node(n{}.v {} go, !go);\n", i - 1, ops[rng.below(4)]);
    }
    s += "ASSIGN next(go) := i;\n";
    s += &format!("DEFINE all := n0.e & n{}.d;\n", n - 1);
    s += &format!("SPEC EF all\nLTLSPEC G F n{}.c = {}\n", n - 1, rng.below(3));
    s
}

/// The models of the round trip: (name, directory, file).
fn round_trip_models() -> Vec<(String, PathBuf, String)> {
    let mut models = vec![];
    let specs = Path::new(env!("CARGO_MANIFEST_DIR")).join("specs");
    let mut names: Vec<_> = std::fs::read_dir(&specs).expect("specs").filter_map(|e| e.ok()).map(|e| e.file_name().to_string_lossy().into_owned()).collect();
    names.sort();
    for n in names.into_iter().filter(|n| n.ends_with(".smv")) {
        models.push((n.clone(), specs.clone(), n));
    }
    for name in GOLDEN {
        models.push((name.to_string(), golden_dir(), format!("{name}.smv")));
    }
    let mut rng = Rng::new(0x0f_f1a7);
    for case in 0..cases(30) {
        let text = match case % 3 {
            0 => {
                let mut p = cfg_model::CfgParams::new(3 + rng.below(30), 8, rng.next_u64());
                p.fairness = [0, 1, 2][rng.below(3)];
                p.invariants = 2;
                cfg_model::CfgModel::generate(&p).to_smv()
            }
            1 => support::ltl_smv::model(&mut rng, 3),
            _ => instance_chain(&mut rng),
        };
        let file = scratch(&format!("random-{case}.smv"));
        std::fs::write(&file, text).expect("write");
        models.push((format!("random {case}"), file.parent().expect("dir").to_path_buf(), file.file_name().expect("name").to_string_lossy().into_owned()));
    }
    models
}

#[test]
fn written_flat_models_give_the_original_verdicts() {
    let (mut compared, mut verdicts_compared, mut refused) = (0, 0, 0);
    for (name, dir, file) in round_trip_models() {
        let out = scratch(&format!("rt-{}.smv", name.replace(' ', "-")));
        let flat = match write_flat(&dir, &file, &out) {
            Ok(text) => text,
            Err(e) if e.contains("procedure modules") => {
                refused += 1;
                continue;
            }
            Err(e) => panic!("{name}: {e}"),
        };
        assert!(flat.starts_with(&format!("-- Flattened FSM model generated from {file}\n")), "{name}");
        // `-ips`: the flat model keeps PSL specs as comments only (as NuSMV writes it).
        let (status, original, stderr) = run_in(&dir, xmv(), &["-dcx", "-ips", &file], "");
        if status != 0 {
            // A property xmv-rs does not check (COMPUTE, PSL): the verdicts still have to agree.
            assert!(stderr.contains("not supported"), "{name}: {stderr}");
        }
        let (_, again, stderr) = run_in(&dir, xmv(), &["-dcx", &out.display().to_string()], "");
        let (want, got) = (verdicts(&original), verdicts(&again));
        assert_eq!(got, want, "{name}: verdicts of the flat model\n{flat}\n{stderr}");
        compared += 1;
        verdicts_compared += want.len();
    }
    assert!(compared >= 40 && verdicts_compared >= 200, "{compared} models, {verdicts_compared} verdicts");
    assert_eq!(refused, 8, "the bundled specs with procedure modules");
}

#[test]
fn nusmv_reads_the_written_flat_models_with_the_same_verdicts() {
    let Some(nusmv) = support::nusmv::binary("the flat-model NuSMV test") else { return };
    let mut compared = 0;
    for (name, dir, file) in round_trip_models() {
        let out = scratch(&format!("nusmv-{}.smv", name.replace(' ', "-")));
        let Ok(_) = write_flat(&dir, &file, &out) else { continue };
        let (_, original, _) = run_in(&dir, &nusmv, &["-dcx", &file], "");
        let (_, again, stderr) = run_in(&dir, &nusmv, &["-dcx", &out.display().to_string()], "");
        assert_eq!(verdicts(&again), verdicts(&original), "{name}: NuSMV on the flat model\n{stderr}");
        compared += 1;
    }
    assert!(compared >= 40, "{compared}");
    for name in GOLDEN {
        let out = scratch(&format!("nusmv-{name}.flat"));
        let (status, _, _) = run_in(&golden_dir(), &nusmv, &["-disable_daggifier", "-ofm", &out.display().to_string(), &format!("{name}.smv")], "");
        assert_eq!(status, 0, "{name}");
        let want = std::fs::read_to_string(golden_dir().join(format!("{name}.flat"))).expect("golden");
        assert_eq!(std::fs::read_to_string(&out).expect("written"), want, "{name}: NuSMV's output changed");
    }
}

#[test]
fn errors_give_nusmvs_messages_and_status() {
    let dir = golden_dir();
    let (status, stdout, stderr) = run_in(&dir, xmv(), &["-ofm", "/nonexistent-dir/flat.smv", "defines.smv"], "");
    assert_eq!(status, 1, "{stdout}");
    assert!(stderr.contains("Unable to open file \"/nonexistent-dir/flat.smv\"."), "{stderr}");
    assert!(!stdout.contains("-- specification"), "no check after the failure: {stdout}");
    let script = "write_flat_model\nwrite_flat_model -h\nread_model -i defines.smv\nwrite_flat_model\nwrite_flat_model -o /nonexistent-dir/f.smv\nquit\n";
    let (status, stdout, stderr) = run_in(&dir, xmv(), &["-int", "-quiet"], script);
    assert_eq!(status, 0);
    assert!(!stdout.contains("MODULE main"), "{stdout}");
    assert_eq!(stderr.matches("A model must be read before. Use the \"read_model\" command.").count(), 1, "{stderr}");
    assert!(stderr.contains("usage: write_flat_model [-h] [-A] [-m] [-o filename]"), "{stderr}");
    assert!(stderr.contains("The hierarchy must be flattened before. Use the \"flatten_hierarchy\" command."), "{stderr}");
    assert!(stderr.contains("Unable to open file \"/nonexistent-dir/f.smv\"."), "{stderr}");
    // Procedure modules have no NuSMV flat model.
    let specs = Path::new(env!("CARGO_MANIFEST_DIR")).join("specs");
    let out = scratch("procedures.smv");
    let err = write_flat(&specs, "recursive-walk.smv", &out).expect_err("refused");
    assert!(err.contains("status 1") && err.contains("procedure modules"), "{err}");
}
