//! Differential test against NuSMV 2.5.4: random control-flow-style models (tools/cfg_model.rs,
//! with deadlocks, `FAIRNESS` constraints and `INVARSPEC`s) checked by NuSMV and by the flat
//! checker on the directly built Kripke structure; every verdict must agree.
//!
//! Runs only when `NUSMV=/path/to/NuSMV` points to an executable (never in CI); otherwise it
//! prints why it was skipped and passes. `XMV_TEST_CASES=N` sets the number of models (default
//! 150).

// cfg_model and support::random both include tools/splitmix.rs; each copy is private to its module.
#[allow(clippy::duplicate_mod)]
#[path = "../tools/cfg_model.rs"]
mod cfg_model;
mod support;

use cfg_model::{CfgModel, CfgParams, ctl_text};
use std::path::{Path, PathBuf};
use support::nusmv::{run, run_text, verdict_lines};
use support::random::{Rng, cases, rtctl_formula};
use xmv_rs::check::flat::{CheckOptions, check_ctl, check_invariants};
use xmv_rs::ctl::Ctl;
use xmv_rs::ir::PropId;

fn nusmv() -> Option<PathBuf> {
    support::nusmv::binary("the NuSMV differential test")
}

/// NuSMV's CTL verdicts and invariant verdicts, in file order.
fn run_nusmv(bin: &Path, smv: &str, case: usize) -> (Vec<bool>, Vec<bool>) {
    let text = run_text(bin, smv, case);
    let verdict = |l: &str| l.trim_end().ends_with("is true");
    let specs = text.lines().filter(|l| l.starts_with("-- specification")).map(verdict).collect();
    let invars = text.lines().filter(|l| l.starts_with("-- invariant")).map(verdict).collect();
    (specs, invars)
}

#[test]
fn verdicts_agree_with_nusmv_on_generated_models() {
    let Some(bin) = nusmv() else { return };
    let mut rng = Rng::new(0xd1ff);
    let (mut specs_agreed, mut invars_agreed, mut models) = (0, 0, 0);
    for case in 0..cases(150) {
        let states = 3 + rng.below(40);
        let mut p = CfgParams::new(states, 15, rng.next_u64());
        p.labels = 3 + rng.below(4);
        p.label_size = (states / 5).max(1);
        p.deadlock_percent = [0, 0, 10, 30][rng.below(4)];
        p.fairness = [0, 0, 1, 2][rng.below(4)];
        p.invariants = 3;
        p.depth = 1 + rng.below(3);
        let model = CfgModel::generate(&p);
        let smv = model.to_smv();
        let (their_specs, their_invars) = run_nusmv(&bin, &smv, case);
        assert_eq!(their_specs.len(), model.specs.len(), "NuSMV did not check every spec of:\n{smv}");
        assert_eq!(their_invars.len(), model.invariants.len(), "NuSMV did not check every invariant of:\n{smv}");
        let k = model.to_kripke();
        let ours = check_ctl(&k, &model.specs, &model.fairness, &CheckOptions { threads: 1, traces: false, witnesses: false });
        for (i, (v, theirs)) in ours.verdicts.iter().zip(&their_specs).enumerate() {
            assert_eq!(v.holds, *theirs, "case {case}, SPEC {}:\n{smv}", ctl_text(&model.specs[i]));
            specs_agreed += 1;
        }
        let invariants: Vec<Ctl<PropId>> = model.invariant_props().into_iter().map(Ctl::Atom).collect();
        let inv = check_invariants(&k, &invariants, false);
        for (v, theirs) in inv.iter().zip(&their_invars) {
            assert_eq!(v.holds, *theirs, "case {case}, invariant:\n{smv}");
            invars_agreed += 1;
        }
        models += 1;
    }
    eprintln!("NuSMV agreement: {specs_agreed} CTL specs and {invars_agreed} invariants on {models} models");
}

/// The whole pipeline (`xmv-rs check -r`) against NuSMV on the bundled flat models and on generated
/// ones: same verdict lines (formula text included) for CTL specs and for invariants, and the same
/// `-r` lines (system diameter, reachable states). NuSMV
/// prints all CTL specs before all invariants; xmv-rs prints file order, so each kind is compared
/// in its own order. Files NuSMV rejects (procedure modules) or xmv-rs rejects are listed.
#[test]
fn end_to_end_verdicts_agree_with_nusmv() {
    let Some(nusmv_bin) = nusmv() else { return };
    let xmv = std::path::Path::new(env!("CARGO_BIN_EXE_xmv-rs"));
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files: Vec<PathBuf> = std::fs::read_dir(root.join("specs"))
        .map(|d| d.filter_map(|e| e.ok().map(|e| e.path())).filter(|p| p.extension().is_some_and(|x| x == "smv")).collect())
        .unwrap_or_default();
    files.sort();
    let mut rng = Rng::new(0xe2e);
    for case in 0..cases(150) / 3 {
        let states = 3 + rng.below(60);
        let mut p = CfgParams::new(states, 20, rng.next_u64());
        p.labels = 3 + rng.below(5);
        p.label_size = (states / 5).max(1);
        p.deadlock_percent = [0, 0, 10, 30][rng.below(4)];
        p.fairness = [0, 0, 1, 2][rng.below(4)];
        p.invariants = 3;
        p.depth = 1 + rng.below(3);
        let file = std::env::temp_dir().join(format!("xmv-e2e-{}-{case}.smv", std::process::id()));
        std::fs::write(&file, CfgModel::generate(&p).to_smv()).expect("write temporary model");
        files.push(file);
    }
    let (mut lines_agreed, mut models, mut skipped) = (0, 0, Vec::new());
    for file in &files {
        let (_, theirs) = run(&nusmv_bin, &["-dcx", "-r"], file);
        let (code, ours) = run(xmv, &["check", "--no-trace", "-r"], file);
        let their_specs = verdict_lines(&theirs, "-- specification");
        let their_invars = verdict_lines(&theirs, "-- invariant");
        if their_specs.is_empty() && their_invars.is_empty() {
            skipped.push(format!("{} (NuSMV rejects it)", file.display()));
            continue;
        }
        if code == Some(2) {
            skipped.push(format!("{} (xmv-rs rejects it)", file.display()));
            continue;
        }
        assert_eq!(verdict_lines(&ours, "-- specification"), their_specs, "CTL verdicts differ on {}", file.display());
        assert_eq!(verdict_lines(&ours, "-- invariant"), their_invars, "invariant verdicts differ on {}", file.display());
        // `-r`: same diameter and reachable-state count (also where xmv-rs records the process
        // selector or an input in the state: `FAIRNESS running`, README).
        for kind in ["system diameter", "reachable states"] {
            assert_eq!(verdict_lines(&ours, kind), verdict_lines(&theirs, kind), "`-r` output differs on {}", file.display());
        }
        lines_agreed += their_specs.len() + their_invars.len();
        models += 1;
        if file.starts_with(std::env::temp_dir()) {
            let _ = std::fs::remove_file(file);
        }
    }
    eprintln!("end to end: {lines_agreed} verdict lines agree with NuSMV on {models} models; skipped: {skipped:?}");
}

/// RTCTL (`EBF`/`ABF`/`EBG`/`ABG`/`BU`, bounds up to 4, nested in each other and in plain CTL)
/// on generated models with deadlocks and fairness, end to end: the verdict lines of
/// `xmv-rs check` (the formula as printed included) equal NuSMV's, with the explicit and the
/// BDD engine; and the checker on the directly built structure gives the same verdicts.
#[test]
fn rtctl_verdicts_agree_with_nusmv() {
    let Some(nusmv_bin) = nusmv() else { return };
    let xmv = std::path::Path::new(env!("CARGO_BIN_EXE_xmv-rs"));
    let mut rng = Rng::new(0x7c71);
    let (mut lines_agreed, mut models) = (0, 0);
    for case in 0..cases(150) / 3 {
        let states = 3 + rng.below(30);
        let mut p = CfgParams::new(states, 0, rng.next_u64());
        p.labels = support::random::NUM_LABELS;
        p.label_size = (states / 3).max(1);
        p.deadlock_percent = [0, 0, 10, 30][rng.below(4)];
        p.fairness = [0, 0, 1][rng.below(3)];
        let mut model = CfgModel::generate(&p);
        model.specs = (0..12).map(|_| rtctl_formula(&mut rng, 3)).collect();
        let smv = model.to_smv();
        let file = support::nusmv::temp_model("rtctl", &case.to_string(), &smv);
        let (_, theirs) = run(&nusmv_bin, &["-dcx"], &file);
        let their_specs = verdict_lines(&theirs, "-- specification");
        assert_eq!(their_specs.len(), model.specs.len(), "NuSMV did not check every spec of:\n{smv}\n{theirs}");
        for engine in ["explicit", "bdd"] {
            let (_, ours) = run(xmv, &["check", "--no-trace", "--engine", engine], &file);
            assert_eq!(verdict_lines(&ours, "-- specification"), their_specs, "{engine} engine, case {case}:\n{smv}");
        }
        let k = model.to_kripke();
        let direct = check_ctl(&k, &model.specs, &model.fairness, &CheckOptions { threads: 1, traces: false, witnesses: false });
        for (v, line) in direct.verdicts.iter().zip(&their_specs) {
            assert_eq!(v.holds, line.ends_with("is true"), "direct check, case {case}: {line}\n{smv}");
        }
        lines_agreed += their_specs.len();
        models += 1;
        let _ = std::fs::remove_file(&file);
    }
    eprintln!("RTCTL: {lines_agreed} verdict lines agree with NuSMV (explicit and BDD engines) on {models} models");
}

/// Whole output, traces included, byte for byte: NuSMV 2.5.4 and `xmv-rs check` print the same
/// text on these bundled models (NuSMV's banner, the lines starting with `***`, and its
/// deprecation warnings removed). The other flat models differ only where the two pick different
/// but equally valid paths (peterson-flat's lasso) or where xmv-rs keeps the process selector as
/// a state variable (`FAIRNESS running`, README).
#[test]
fn whole_output_matches_nusmv_on_bundled_models() {
    let Some(nusmv_bin) = nusmv() else { return };
    let xmv = std::path::Path::new(env!("CARGO_BIN_EXE_xmv-rs"));
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    for name in
        ["finis-listing-5-1", "counter-wraparound", "counter-cells", "token-ring-array", "lossy-channel-fairness", "tank-ivar", "ltl-bounce", "psl-bounce"]
    {
        let file = root.join("specs").join(format!("{name}.smv"));
        for (nusmv_args, xmv_args) in [(vec![], vec!["check"]), (vec!["-r"], vec!["check", "-r"])] {
            let (_, theirs) = run(&nusmv_bin, &nusmv_args, &file);
            let theirs: String =
                theirs.lines().filter(|l| !l.starts_with("***") && !l.starts_with("WARNING")).skip_while(|l| l.is_empty()).map(|l| format!("{l}\n")).collect();
            let (_, ours) = run(xmv, &xmv_args, &file);
            assert_eq!(ours, theirs, "output differs from NuSMV 2.5.4 on {name} ({nusmv_args:?})");
        }
    }
}
