//! The front end's `LoweredProgram` fed to the state-space builders and checkers: verdicts of
//! the thesis listings (Finis 2012, digest §7.11 and §7.12) and of a NuSMV-style process model.

use xmv_rs::check::flat::{CheckOptions, check_ctl};
use xmv_rs::check::rks::{self, RksOptions};
use xmv_rs::explicit::build_flat::{BuildLimits, build_flat};
use xmv_rs::explicit::build_rks::build_rks;
use xmv_rs::lowering::program::LoweredProgram;
use xmv_rs::source::SourceFile;

fn load_file(rel: &str) -> LoweredProgram {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(rel);
    let file = SourceFile::read(&path).expect("readable");
    let (p, diags) = xmv_rs::frontend::load(&file, None);
    p.unwrap_or_else(|| panic!("{}", diags.render(&file)))
}

fn flat_verdicts(p: &LoweredProgram) -> Vec<bool> {
    let model = build_flat(p, &BuildLimits::default()).unwrap_or_else(|d| panic!("{d:?}"));
    let specs: Vec<_> = model.specs.iter().map(|s| s.formula.clone()).collect();
    let report = check_ctl(&model.kripke, &specs, &model.fairness, &CheckOptions { threads: 1, traces: false, witnesses: false });
    report.verdicts.iter().map(|v| v.holds).collect()
}

#[test]
fn listing_5_1_verdicts() {
    let p = load_file("specs/finis-listing-5-1.smv");
    assert_eq!(flat_verdicts(&p), [false, true]);
}

#[test]
fn listing_5_2_verdicts() {
    let p = load_file("specs/finis-listing-5-2.smv");
    let model = build_rks(&p, &BuildLimits::default()).unwrap_or_else(|d| panic!("{d:?}"));
    let verdicts: Vec<bool> = model.specs.iter().map(|s| rks::check(&model.rks, s.component, &s.formula, &RksOptions::default()).holds).collect();
    // foo: E[q U p], EF q, EF p; bar: EF x, y (digest §7.12).
    assert_eq!(verdicts, [false, true, false, false, true]);
}

#[test]
fn process_model_mutual_exclusion() {
    let src = "
MODULE main
VAR
  semaphore : boolean;
  proc1 : process user(semaphore);
  proc2 : process user(semaphore);
ASSIGN
  init(semaphore) := FALSE;
SPEC AG !(proc1.state = critical & proc2.state = critical)
SPEC AG (proc1.state = entering -> AF proc1.state = critical)
SPEC EF proc1.state = critical

MODULE user(semaphore)
VAR
  state : {idle, entering, critical, exiting};
ASSIGN
  init(state) := idle;
  next(state) :=
    case
      state = entering & !semaphore : critical;
      state = critical : {critical, exiting};
      state = exiting : idle;
      state = idle : {idle, entering};
      TRUE : state;
    esac;
  next(semaphore) :=
    case
      state = entering & !semaphore : TRUE;
      state = exiting : FALSE;
      TRUE : semaphore;
    esac;
";
    let file = SourceFile::new("mutex.smv", src);
    let (p, diags) = xmv_rs::frontend::load(&file, None);
    let p = p.unwrap_or_else(|| panic!("{}", diags.render(&file)));
    // Mutual exclusion holds; without fairness proc1 may starve; critical is reachable.
    assert_eq!(flat_verdicts(&p), [true, false, true]);
}
