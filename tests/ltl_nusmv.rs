//! `LTLSPEC` against NuSMV 2.5.4: random small SMV models (a counter, booleans, a free input-like
//! state variable, optional `FAIRNESS`, optional deadlocks through `TRANS`) with random LTL specs
//! over every operator NuSMV 2.5.4 accepts; `xmv-rs check` must print the same verdict lines
//! (formula text included, in NuSMV's order: CTL, LTL, invariants) as `NuSMV -dcx`. Every
//! counterexample xmv-rs prints is a lasso (`-- Loop starts here`).
//!
//! Runs only when `NUSMV=/path/to/NuSMV` points to an executable; otherwise it prints why it was
//! skipped and passes. `XMV_TEST_CASES=N` sets the number of models (default 60).

mod support;

use std::path::{Path, PathBuf};
use std::process::Command;
use support::random::{Rng, cases};

fn nusmv() -> Option<PathBuf> {
    let Some(path) = std::env::var_os("NUSMV").map(PathBuf::from) else {
        eprintln!("skipping the NuSMV LTL test: NUSMV is not set");
        return None;
    };
    if !path.is_file() {
        eprintln!("skipping the NuSMV LTL test: NUSMV={} is not a file", path.display());
        return None;
    }
    Some(path)
}

fn atom(rng: &mut Rng) -> String {
    match rng.below(6) {
        0 => format!("x = {}", rng.below(4)),
        1 => format!("x < {}", 1 + rng.below(3)),
        2 => "a".into(),
        3 => "b".into(),
        4 => "!a".into(),
        _ => format!("(x = {} | b)", rng.below(4)),
    }
}

/// A random LTL formula in SMV syntax, fully parenthesised below the top.
fn ltl(rng: &mut Rng, depth: usize, past_ok: bool) -> String {
    if depth == 0 || rng.chance(20) {
        return atom(rng);
    }
    let sub = |rng: &mut Rng| format!("({})", ltl(rng, depth - 1, past_ok));
    let unary = ["X", "G", "F", "!"];
    let binary = ["U", "V", "&", "|", "->", "<->", "xor"];
    if past_ok && rng.chance(20) {
        return past(rng, depth);
    }
    if rng.chance(40) {
        let op = unary[rng.below(unary.len())];
        format!("{op} {}", sub(rng))
    } else {
        let op = binary[rng.below(binary.len())];
        let l = sub(rng);
        format!("{l} {op} {}", sub(rng))
    }
}

fn past(rng: &mut Rng, depth: usize) -> String {
    if depth == 0 || rng.chance(25) {
        return atom(rng);
    }
    let sub = |rng: &mut Rng| format!("({})", past(rng, depth - 1));
    match rng.below(6) {
        0 => format!("Y {}", sub(rng)),
        1 => format!("Z {}", sub(rng)),
        2 => format!("H {}", sub(rng)),
        3 => format!("O {}", sub(rng)),
        4 => {
            let l = sub(rng);
            format!("{l} S {}", sub(rng))
        }
        _ => {
            let l = sub(rng);
            format!("{l} T {}", sub(rng))
        }
    }
}

fn model(rng: &mut Rng, specs: usize) -> String {
    let mut s = String::from("MODULE main\nVAR\n  x : 0..3;\n  a : boolean;\n  b : boolean;\nASSIGN\n");
    s += &format!("  init(x) := {};\n", ["0", "{0, 1}", "{0, 2}"][rng.below(3)]);
    s += "  next(x) := case\n";
    for _ in 0..1 + rng.below(3) {
        s += &format!("    {} : {{{}, {}}};\n", atom(rng), rng.below(4), rng.below(4));
    }
    s += &format!("    TRUE : (x + {}) mod 4;\n  esac;\n", 1 + rng.below(2));
    s += &format!("  next(a) := case {} : !a; TRUE : {{TRUE, FALSE}}; esac;\n", atom(rng));
    if rng.chance(30) {
        s += &format!("TRANS !({} & next(x) = {})\n", atom(rng), rng.below(4));
    }
    for _ in 0..[0, 0, 1, 2][rng.below(4)] {
        s += &format!("FAIRNESS {}\n", atom(rng));
    }
    if rng.chance(30) {
        s += &format!("SPEC AG (EF {})\n", atom(rng));
    }
    for i in 0..specs {
        let depth = 1 + rng.below(3);
        let f = ltl(rng, depth, true);
        if rng.chance(10) {
            s += &format!("LTLSPEC NAME n{i} := {f}\n");
        } else {
            s += &format!("LTLSPEC {f}\n");
        }
    }
    if rng.chance(30) {
        s += &format!("INVARSPEC {}\n", atom(rng));
    }
    s
}

fn run(bin: &Path, args: &[&str], file: &Path) -> (Option<i32>, String) {
    let out = Command::new(bin).args(args).arg(file).output().expect("run a checker");
    (out.status.code(), String::from_utf8_lossy(&out.stdout).into_owned())
}

fn verdict_lines(text: &str) -> Vec<String> {
    text.lines().filter(|l| l.starts_with("-- specification") || l.starts_with("-- invariant")).map(str::to_string).collect()
}

#[test]
fn ltl_verdict_lines_agree_with_nusmv_on_generated_models() {
    let Some(nusmv_bin) = nusmv() else { return };
    let xmv = Path::new(env!("CARGO_BIN_EXE_xmv-rs"));
    let mut rng = Rng::new(0x171_5e5);
    let (mut agreed, mut falses) = (0, 0);
    for case in 0..cases(60) {
        let smv = model(&mut rng, 8);
        let file = std::env::temp_dir().join(format!("xmv-ltl-{}-{case}.smv", std::process::id()));
        std::fs::write(&file, &smv).expect("write temporary model");
        let (_, theirs) = run(&nusmv_bin, &["-dcx"], &file);
        let (code, ours) = run(xmv, &["check"], &file);
        let _ = std::fs::remove_file(&file);
        assert_ne!(code, Some(2), "xmv-rs rejects:\n{smv}\n{ours}");
        let expected = verdict_lines(&theirs);
        assert!(!expected.is_empty(), "NuSMV checked nothing in:\n{smv}\n{theirs}");
        assert_eq!(verdict_lines(&ours), expected, "verdict lines differ on:\n{smv}");
        // Each false LTL spec is followed by a lasso counterexample.
        let ltl_traces = ours.matches("Trace Description: LTL Counterexample").count();
        let false_ltl = ours.lines().filter(|l| l.starts_with("-- specification") && l.ends_with("is false") && !l.contains("AG (EF")).count();
        assert_eq!(ltl_traces, false_ltl, "one LTL counterexample per false LTL spec:\n{ours}");
        for trace in ours.split("Trace Description: LTL Counterexample").skip(1) {
            let trace = trace.split("-- specification").next().unwrap_or("");
            assert!(trace.contains("-- Loop starts here"), "an LTL counterexample without a loop:\n{ours}");
        }
        agreed += expected.len();
        falses += false_ltl;
    }
    eprintln!("NuSMV LTL agreement: {agreed} verdict lines ({falses} false LTL specs with lasso counterexamples)");
}
