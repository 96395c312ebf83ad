//! `INVARSPEC` on the BDD engine by a forward reachability that stops at the first bad states
//! (`symbolic::early_stop`): on models whose bad states are shallow and whose reachable set is
//! large, the verdicts, traces, `-r` figures and diagnostics are those of the full reachability
//! (the same model with a `CTLSPEC TRUE` added, which turns the early stop off) and the verdicts
//! and trace lengths those of the explicit engine; `--stats` says when the reachability stopped.
//! The early stop is not taken when an evaluation error or a deadlock could hide past it.

mod support;

use support::random::Rng;
use xmv_rs::driver::{CheckOptions, Engine, run_check, stages::Stages};
use xmv_rs::source::SourceFile;

struct Run {
    code: i32,
    stdout: String,
    stderr: String,
}

fn run(text: &str, engine: Engine, reachable: bool, stats: bool) -> Run {
    let file = SourceFile::new("inv.smv", text);
    let options = CheckOptions { engine, traces: true, reachable, stats, ..Default::default() };
    let out = run_check(&file, &options, &Stages::linked());
    Run { code: out.exit_code, stdout: out.stdout, stderr: out.stderr }
}

/// Diagnostics without their source excerpts (a spec's span reaches the next token, so it differs
/// when a spec follows).
fn without_excerpts(s: &str) -> String {
    s.lines().filter(|l| !l.contains('│') && !l.contains('┌')).map(|l| format!("{l}\n")).collect()
}

/// The code of each diagnostic (the engines' messages and paths to a deadlock or an error differ).
fn codes(s: &str) -> Vec<&str> {
    s.lines().filter(|l| l.starts_with("error[") || l.starts_with("warning[")).filter_map(|l| l.split(']').next()).collect()
}

/// Whether the BDD engine's reachability stopped at the first bad states (`--stats`).
fn stopped_early(text: &str) -> bool {
    let r = run(text, Engine::Bdd, false, true);
    let all = format!("{}{}", r.stdout, r.stderr);
    all.contains("(explored: stopped at the first bad states)")
}

/// The verdict lines and the number of states of each trace.
fn verdicts_and_lengths(out: &str) -> (Vec<String>, Vec<usize>) {
    let verdicts = out.lines().filter(|l| l.starts_with("-- invariant") || l.starts_with("-- specification")).map(str::to_string).collect();
    let mut lengths = vec![];
    for l in out.lines() {
        if l.starts_with("-- invariant") || l.starts_with("-- specification") {
            lengths.push(0);
        } else if l.starts_with("-> State:")
            && let Some(n) = lengths.last_mut()
        {
            *n += 1;
        }
    }
    (verdicts, lengths)
}

/// Checks `text` (only invariants) against the same model without the early stop and against
/// the explicit engine; returns whether the reachability stopped early.
fn agree(text: &str) -> bool {
    let bdd = run(text, Engine::Bdd, true, false);
    // `CTLSPEC TRUE` needs the whole reachable set: the reference is the full reachability.
    let full = run(&format!("{text}CTLSPEC TRUE\n"), Engine::Bdd, true, false);
    let ctl_line = "-- specification TRUE  is true\n";
    assert_eq!(bdd.code, full.code, "{text}");
    assert_eq!(bdd.stdout, full.stdout.replace(ctl_line, ""), "{text}");
    assert_eq!(without_excerpts(&bdd.stderr), without_excerpts(&full.stderr), "{text}");
    let explicit = run(text, Engine::Explicit, true, false);
    assert_eq!(bdd.code, explicit.code, "{text}\n{}", explicit.stderr);
    assert_eq!(verdicts_and_lengths(&bdd.stdout), verdicts_and_lengths(&explicit.stdout), "{text}\n{}\n{}", bdd.stdout, explicit.stdout);
    assert_eq!(codes(&bdd.stderr), codes(&explicit.stderr), "{text}");
    stopped_early(text)
}

/// Two counters of 0..255 (65,536 reachable states, diameter 256) and a flag.
const COUNTERS: &str = "MODULE main
VAR
  x : 0..255;
  y : 0..255;
  b : boolean;
IVAR
  go : boolean;
ASSIGN
  init(x) := 0;
  init(y) := 0;
  init(b) := FALSE;
  next(x) := go ? (x + 1) mod 256 : x;
  next(y) := !go ? (y + 1) mod 256 : y;
  next(b) := x = 3 & y = 2 ? TRUE : b;
";

#[test]
fn shallow_bad_states_stop_the_reachability_with_the_full_reachabilitys_output() {
    let text = format!("{COUNTERS}INVARSPEC !b\nINVARSPEC x + y < 4\nDEFINE small := x < 2;\nINVARSPEC small\n");
    assert!(agree(&text));
    let out = run(&text, Engine::Bdd, true, false).stdout;
    assert!(out.contains("-- invariant !b  is false"), "{out}");
    assert!(out.contains("-- invariant x + y < 4  is false"), "{out}");
    assert!(out.contains("system diameter: 516"), "{out}");
    assert!(out.contains("reachable states: 131072 "), "{out}");
}

#[test]
fn a_true_invariant_needs_the_fixpoint() {
    let text = format!("{COUNTERS}INVARSPEC !b\nINVARSPEC x < 256\n");
    assert!(!agree(&text));
}

#[test]
fn a_possible_deadlock_keeps_the_full_reachability() {
    // `x = 200 & y = 200` has no successor: reported as a reachable deadlock as before.
    let text = format!("{COUNTERS}TRANS !(x = 200 & y = 200)\nINVARSPEC x < 2\n");
    assert!(!agree(&text));
    assert!(run(&text, Engine::Bdd, false, false).stderr.contains("no successor (deadlock)"));
    // Deadlocks in unreachable states only (`z` stays FALSE): no stop either, since only the
    // whole reachability tells.
    let unreachable = "MODULE main\nVAR x : 0..255; z : boolean;\nASSIGN init(x) := 0; next(x) := (x + 1) mod 256; init(z) := FALSE; next(z) := z;\nTRANS !z\nINVARSPEC x < 2\n";
    assert!(!agree(unreachable));
    assert!(!run(unreachable, Engine::Bdd, false, false).stderr.contains("deadlock"));
}

#[test]
fn a_deep_evaluation_error_is_still_reported() {
    // The `case` has no true branch at x = 250, far past the bad state at depth 2.
    let text = "MODULE main
VAR
  x : 0..255;
ASSIGN
  init(x) := 0;
  next(x) := case x < 250 : x + 1; x > 250 : 0; esac;
INVARSPEC x < 2
";
    assert!(!agree(text));
    let r = run(text, Engine::Bdd, false, false);
    assert_eq!(r.code, 2, "{}", r.stderr);
}

#[test]
fn an_error_in_an_invariants_atom_keeps_the_full_reachability() {
    let text = format!("{COUNTERS}INVARSPEC x < 2\nINVARSPEC 10 / (200 - x) < 100\n");
    assert!(!agree(&text));
}

#[test]
fn initial_bad_states_stop_before_any_image() {
    let text = format!("{COUNTERS}INVARSPEC x != 0\n");
    assert!(agree(&text));
    let out = run(&text, Engine::Bdd, false, false).stdout;
    assert!(out.contains("-> State: 1.1 <-") && !out.contains("-> State: 1.2 <-"), "{out}");
}

/// Random models of a few wide counters driven by inputs, with only invariants.
fn random_model(rng: &mut Rng) -> String {
    let mut s = String::from("MODULE main\nVAR\n  p : 0..63;\n  q : 0..63;\n  r : {idle, busy, done};\n  f : boolean;\nIVAR\n  i : 0..2;\nASSIGN\n");
    s.push_str(&format!("  init(p) := {};\n  init(r) := idle;\n", rng.below(4)));
    if rng.chance(50) {
        s.push_str("  init(q) := 0;\n");
    }
    s.push_str("  next(p) := case i = 0 : (p + 1) mod 64; i = 1 & p > 0 : p - 1; TRUE : p; esac;\n");
    s.push_str(&format!("  next(q) := case i = 2 : (q + {}) mod 64; TRUE : q; esac;\n", 1 + rng.below(3)));
    s.push_str("  next(r) := case r = idle & i = 1 : busy; r = busy : {busy, done}; r = done : idle; TRUE : r; esac;\n");
    s.push_str(&format!("  next(f) := case p = {} : TRUE; TRUE : f; esac;\n", rng.below(6)));
    if rng.chance(30) {
        s.push_str(&format!("TRANS next(q) != {}\n", 10 + rng.below(40)));
    }
    if rng.chance(20) {
        // A deadlock somewhere deep.
        s.push_str(&format!("TRANS !(p = {} & q = {})\n", 30 + rng.below(30), rng.below(60)));
    }
    let atom = |rng: &mut Rng| match rng.below(5) {
        0 => format!("p < {}", 1 + rng.below(8)),
        1 => format!("q != {}", rng.below(8)),
        2 => ["r = idle", "r != done", "!f"][rng.below(3)].to_string(),
        3 => format!("p + q < {}", 2 + rng.below(10)),
        _ => "p < 64".to_string(),
    };
    for _ in 0..1 + rng.below(3) {
        let a = atom(rng);
        let spec = if rng.chance(30) { format!("{a} | {}", atom(rng)) } else { a };
        s.push_str(&format!("INVARSPEC {spec}\n"));
    }
    s
}

#[test]
fn random_invariant_models_agree_with_the_full_reachability_and_the_explicit_engine() {
    let mut rng = Rng::new(0x1A5_5107);
    let mut stopped = 0;
    let cases = 40;
    for _ in 0..cases {
        let text = random_model(&mut rng);
        stopped += agree(&text) as usize;
    }
    // Most random models violate all their invariants early; some keep a true one or a deadlock.
    assert!(stopped >= cases / 4 && stopped < cases, "{stopped} of {cases} stopped early");
}
