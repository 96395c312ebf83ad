//! Differential test against NuSMV 2.5.4: random control-flow-style models (tools/cfg_model.rs,
//! with deadlocks, `FAIRNESS` constraints and `INVARSPEC`s) checked by NuSMV and by the flat
//! checker on the directly built Kripke structure; every verdict must agree.
//!
//! Runs only when `NUSMV=/path/to/NuSMV` points to an executable (never in CI); otherwise it
//! prints why it was skipped and passes. `XMV_TEST_CASES=N` sets the number of models (default
//! 150).

#[path = "../tools/cfg_model.rs"]
mod cfg_model;
mod support;

use cfg_model::{CfgModel, CfgParams, ctl_text};
use std::path::PathBuf;
use std::process::Command;
use support::random::{Rng, cases};
use xmv_rs::check::flat::{CheckOptions, check_ctl, check_invariants};
use xmv_rs::ctl::Ctl;

fn nusmv() -> Option<PathBuf> {
    let Some(path) = std::env::var_os("NUSMV").map(PathBuf::from) else {
        eprintln!("skipping the NuSMV differential test: NUSMV is not set");
        return None;
    };
    if !path.is_file() {
        eprintln!("skipping the NuSMV differential test: NUSMV={} is not a file", path.display());
        return None;
    }
    Some(path)
}

/// NuSMV's CTL verdicts and invariant verdicts, in file order.
fn run_nusmv(bin: &PathBuf, smv: &str, case: usize) -> (Vec<bool>, Vec<bool>) {
    let file = std::env::temp_dir().join(format!("xmv-diff-{}-{case}.smv", std::process::id()));
    std::fs::write(&file, smv).expect("write temporary model");
    let out = Command::new(bin).arg("-dcx").arg(&file).output().expect("run NuSMV");
    let _ = std::fs::remove_file(&file);
    let text = String::from_utf8_lossy(&out.stdout);
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
        let ours = check_ctl(&k, &model.specs, &model.fairness, &CheckOptions { threads: 1, traces: false });
        for (i, (v, theirs)) in ours.verdicts.iter().zip(&their_specs).enumerate() {
            assert_eq!(v.holds, *theirs, "case {case}, SPEC {}:\n{smv}", ctl_text(&model.specs[i]));
            specs_agreed += 1;
        }
        let invariants: Vec<Ctl<u32>> = model.invariant_props().into_iter().map(Ctl::Atom).collect();
        let inv = check_invariants(&k, &invariants, false);
        for (v, theirs) in inv.iter().zip(&their_invars) {
            assert_eq!(v.holds, *theirs, "case {case}, invariant:\n{smv}");
            invars_agreed += 1;
        }
        models += 1;
    }
    eprintln!("NuSMV agreement: {specs_agreed} CTL specs and {invars_agreed} invariants on {models} models");
}
