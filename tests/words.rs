//! Word types end to end: the models in `tests/words/` are checked by the `xmv-rs` binary and
//! must give the verdicts in their `-- expect:` lines (NuSMV 2.5.4's verdicts, except for the
//! `*-xmv-only.smv` models, which use sets of words that NuSMV 2.5.4 rejects); models with a
//! `.out` file (`counter-wrap`, and `wide` with 32-, 40- and 64-bit variables) must print
//! exactly NuSMV 2.5.4's output, traces included; `-r` must print NuSMV's reachable-state counts.
//!
//! With `NUSMV=/path/to/NuSMV` set, the verdict lines (spec text included) are also compared
//! with NuSMV's on every model and on random models whose assignments are random word
//! expressions (`XMV_TEST_CASES=n` sets their number, default 40); without it those tests print
//! why they were skipped and pass.

mod support;

use std::path::{Path, PathBuf};
use std::process::Command;
use support::random::{Rng, cases};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn models() -> Vec<PathBuf> {
    let mut paths: Vec<PathBuf> = std::fs::read_dir(root().join("tests/words"))
        .expect("tests/words exists")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "smv"))
        .collect();
    paths.sort();
    paths
}

fn xmv(args: &[&str], model: &Path) -> (String, String, Option<i32>) {
    let out = Command::new(env!("CARGO_BIN_EXE_xmv-rs")).arg("check").args(args).arg(model).output().expect("run xmv-rs");
    (String::from_utf8_lossy(&out.stdout).into_owned(), String::from_utf8_lossy(&out.stderr).into_owned(), out.status.code())
}

fn verdict_lines(stdout: &str) -> Vec<String> {
    stdout.lines().filter(|l| l.starts_with("-- specification ") || l.starts_with("-- invariant ")).map(str::to_string).collect()
}

/// `-- expect: true|false  SPEC …` lines: CTL specs in file order, then invariants.
fn expectations(text: &str) -> Vec<bool> {
    let mut v: Vec<(bool, bool)> = (text.lines())
        .filter_map(|l| l.strip_prefix("-- expect:"))
        .map(|rest| {
            let mut words = rest.split_whitespace();
            let verdict = words.next() == Some("true");
            (words.next() == Some("INVARSPEC"), verdict)
        })
        .collect();
    v.sort_by_key(|&(invariant, _)| invariant);
    v.into_iter().map(|(_, verdict)| verdict).collect()
}

#[test]
fn word_models_give_nusmv_verdicts() {
    let mut checked = 0;
    for model in models() {
        let text = std::fs::read_to_string(&model).expect("readable model");
        let expected = expectations(&text);
        assert!(!expected.is_empty(), "{}: no `-- expect:` lines", model.display());
        let (stdout, stderr, code) = xmv(&["--no-trace"], &model);
        let actual: Vec<bool> = verdict_lines(&stdout).iter().map(|l| l.ends_with(" is true")).collect();
        assert_eq!(actual, expected, "{}:\n{stdout}{stderr}", model.display());
        assert_eq!(code, Some(if expected.iter().all(|&v| v) { 0 } else { 1 }), "{}", model.display());
        checked += expected.len();
    }
    assert!(checked >= 35, "only {checked} verdicts");
}

/// Models with a `.out` file (NuSMV 2.5.4's output, traces included) print exactly that.
#[test]
fn models_print_nusmv_traces() {
    let mut compared = 0;
    for model in models() {
        let Ok(golden) = std::fs::read_to_string(model.with_extension("out")) else { continue };
        let (stdout, stderr, _) = xmv(&[], &model);
        assert_eq!(stdout, golden, "{}: {stderr}", model.display());
        compared += 1;
    }
    assert!(compared >= 2);
    let (stdout, _, _) = xmv(&[], &root().join("tests/words/counter-wrap.smv"));
    for line in ["  c = 0ud8_0", "  s = -0sd4_1", "  low = 0ud4_0", "  doubled = 0ud8_0", "  negative = TRUE", "  s = 0sd4_7"] {
        assert!(stdout.lines().any(|l| l == line), "missing `{line}`");
    }
}

#[test]
fn reachable_states_match_nusmv() {
    // `NuSMV -r`: (file, system diameter, reachable states, out of).
    let expected = [
        ("alu.smv", 3, "16 (2^4) out of 16 (2^4)"),
        ("constraints.smv", 16, "48 (2^5.58496) out of 524288 (2^19)"),
        ("counter-wrap.smv", 256, "256 (2^8) out of 4096 (2^12)"),
        ("shift-register.smv", 8, "72 (2^6.16993) out of 8192 (2^13)"),
        ("wide.smv", 21, "246 (2^7.94251) out of 1.74225e+41 (2^137)"),
    ];
    for (file, diameter, reachable) in expected {
        let (stdout, stderr, _) = xmv(&["-r", "--no-trace"], &root().join("tests/words").join(file));
        assert!(stdout.contains(&format!("system diameter: {diameter}\n")), "{file}:\n{stdout}{stderr}");
        assert!(stdout.contains(&format!("reachable states: {reachable}\n")), "{file}:\n{stdout}{stderr}");
    }
}

fn nusmv() -> Option<PathBuf> {
    let path = PathBuf::from(std::env::var_os("NUSMV").or_else(|| {
        eprintln!("skipping the NuSMV comparison: NUSMV is not set");
        None
    })?);
    if !path.is_file() {
        eprintln!("skipping the NuSMV comparison: NUSMV={} is not a file", path.display());
        return None;
    }
    Some(path)
}

fn nusmv_verdicts(bin: &Path, model: &Path) -> Vec<String> {
    let out = Command::new(bin).arg("-dcx").arg(model).output().expect("run NuSMV");
    verdict_lines(&String::from_utf8_lossy(&out.stdout))
}

#[test]
fn verdict_lines_equal_nusmv_on_word_models() {
    let Some(bin) = nusmv() else { return };
    for model in models().iter().filter(|m| !m.to_string_lossy().contains("xmv-only")) {
        let theirs = nusmv_verdicts(&bin, model);
        let (ours, stderr, _) = xmv(&["-dcx"], model);
        assert_eq!(verdict_lines(&ours), theirs, "{}: {stderr}", model.display());
    }
}

/// A random word expression of type `unsigned/signed word[width]` over the variables `a`, `b`
/// (of that type) and the 2-bit `k`.
fn word_expr(rng: &mut Rng, width: u8, signed: bool, depth: usize) -> String {
    let sign = if signed { 's' } else { 'u' };
    let constant = |rng: &mut Rng| {
        let v = rng.below(1 << width);
        format!("0{sign}b{width}_{v:0w$b}", w = width as usize)
    };
    if depth == 0 || rng.chance(25) {
        return match rng.below(3) {
            0 => "a".into(),
            1 => "b".into(),
            _ => constant(rng),
        };
    }
    let sub = |rng: &mut Rng| word_expr(rng, width, signed, depth - 1);
    match rng.below(14) {
        0 => format!("({} + {})", sub(rng), sub(rng)),
        1 => format!("({} - {})", sub(rng), sub(rng)),
        2 => format!("({} * {})", sub(rng), sub(rng)),
        // Divisors are non-zero constants: NuSMV rejects a possibly-zero divisor statically.
        3 => format!("({} / 0{sign}d{width}_{})", sub(rng), 1 + rng.below((1 << (width - 1)) - 1)),
        4 => format!("({} mod 0{sign}d{width}_{})", sub(rng), 1 + rng.below((1 << (width - 1)) - 1)),
        5 => format!("({} & {})", sub(rng), sub(rng)),
        6 => format!("({} | {})", sub(rng), sub(rng)),
        7 => format!("({} xor {})", sub(rng), sub(rng)),
        8 => format!("(!{})", sub(rng)),
        9 => format!("(-{})", sub(rng)),
        10 => format!("({} {} {})", sub(rng), if rng.chance(50) { "<<" } else { ">>" }, rng.below(width as usize + 1)),
        // NuSMV rejects a variable amount that may exceed the width, even in unreachable states.
        11 if width >= 3 => format!("({} >> k)", sub(rng)),
        11 => format!("({} >> 1)", sub(rng)),
        12 => {
            // Bits of a wider word, back to the width.
            let e = format!("extend({}, 2)", sub(rng));
            let lo = rng.below(3);
            let cast = if signed { "signed" } else { "" };
            format!("{cast}({e}[{} : {lo}])", lo + width as usize - 1)
        }
        _ => format!("(case {} {} {} : {}; TRUE : {}; esac)", sub(rng), ["<", "<=", "=", "!="][rng.below(4)], sub(rng), sub(rng), sub(rng)),
    }
}

fn random_model(rng: &mut Rng) -> String {
    let width = 2 + rng.below(3) as u8;
    let signed = rng.chance(50);
    let ty = format!("{} word[{width}]", if signed { "signed" } else { "unsigned" });
    let sign = if signed { 's' } else { 'u' };
    let c = |rng: &mut Rng| format!("0{sign}d{width}_{}", rng.below(1 << (width - 1)));
    let mut m = format!("MODULE main\nVAR\n  a : {ty};\n  b : {ty};\n  k : word[2];\nASSIGN\n");
    m += &format!("  init(a) := {};\n  init(b) := {};\n  init(k) := 0ud2_0;\n", c(rng), c(rng));
    m += &format!("  next(a) := {};\n", word_expr(rng, width, signed, 3));
    m += &format!("  next(b) := {};\n", word_expr(rng, width, signed, 3));
    m += "  next(k) := k + 0ud2_1;\n";
    m += &format!("DEFINE\n  d := {};\n", word_expr(rng, width, signed, 2));
    m += &format!("SPEC AG a != {}\n", c(rng));
    m += &format!("SPEC EF (a = {} & b > d)\n", c(rng));
    m += &format!("SPEC AG (a < b -> AX (a >= b | d = {}))\n", c(rng));
    m += "SPEC AG EF (a :: b) = (b :: a)\n";
    m += &format!("INVARSPEC toint(d) != {}\n", rng.below(4));
    m
}

#[test]
fn random_word_models_agree_with_nusmv() {
    let Some(bin) = nusmv() else { return };
    let mut rng = Rng::new(0x30d5);
    let dir = std::env::temp_dir();
    let mut agreed = 0;
    for case in 0..cases(40) {
        let smv = random_model(&mut rng);
        let file = dir.join(format!("xmv-words-{}-{case}.smv", std::process::id()));
        std::fs::write(&file, &smv).expect("write model");
        let theirs = nusmv_verdicts(&bin, &file);
        let (ours, stderr, _) = xmv(&["-dcx"], &file);
        let _ = std::fs::remove_file(&file);
        assert_eq!(theirs.len(), 5, "NuSMV did not check the model:\n{smv}");
        assert_eq!(verdict_lines(&ours), theirs, "case {case}:\n{smv}\n{stderr}");
        agreed += theirs.len();
    }
    eprintln!("NuSMV agreement on random word models: {agreed} verdict lines");
}

/// The BDD engine's word circuits (`src/symbolic/word_bits.rs`) against the explicit engine's
/// value-by-value evaluation (`src/ir/words.rs`): the two share no word algorithm. Random models
/// as above, plus wider ones (6 to 8 bits, where the circuits replace tens of thousands of
/// value pairs; no product of two variables, whose middle bits have BDDs exponential in the
/// width in every variable order); runs without NuSMV.
#[test]
fn random_word_models_agree_between_the_explicit_and_bdd_engines() {
    let mut rng = Rng::new(0x5b17);
    let dir = std::env::temp_dir();
    let mut agreed = 0;
    for case in 0..cases(40) {
        let smv = random_model(&mut rng);
        let file = dir.join(format!("xmv-words-engines-{}-{case}.smv", std::process::id()));
        std::fs::write(&file, &smv).expect("write model");
        let (explicit, e_err, e_code) = xmv(&["-dcx", "--engine", "explicit"], &file);
        let (bdd, b_err, b_code) = xmv(&["-dcx", "--engine", "bdd"], &file);
        let _ = std::fs::remove_file(&file);
        assert_eq!(verdict_lines(&explicit).len(), 5, "case {case}:\n{smv}\n{e_err}");
        assert_eq!(verdict_lines(&bdd), verdict_lines(&explicit), "case {case}:\n{smv}\n{b_err}");
        assert_eq!(b_code, e_code, "case {case}:\n{smv}");
        agreed += 5;
    }
    for (case, width) in [8u8, 8, 6, 7].into_iter().enumerate() {
        let ty = format!("{} word[{width}]", if case % 2 == 0 { "unsigned" } else { "signed" });
        let sign = if case % 2 == 0 { 'u' } else { 's' };
        let c = |v: u32| format!("0{sign}d{width}_{v}");
        let smv = format!(
            "MODULE main\nVAR\n  a : {ty};\n  b : {ty};\n  go : boolean;\nASSIGN\n  init(a) := {};\n  init(b) := {};\n  next(a) := go ? a + b : a - {};\n  next(b) := case a < b : b * {}; TRUE : (b xor a) >> 1; esac;\n\
             SPEC AG (a + b != {} | (a & b) = (b & a))\nSPEC EF (a - b = {} & b mod {} = {})\nINVARSPEC (a :: b) != (b :: a) | a = b\n",
            c(3),
            c(5),
            c(1),
            c(3),
            c(7),
            c(2),
            c(5),
            c(1)
        );
        let file = dir.join(format!("xmv-words-wide-{}-{case}.smv", std::process::id()));
        std::fs::write(&file, &smv).expect("write model");
        let (explicit, e_err, _) = xmv(&["-dcx", "--engine", "explicit"], &file);
        let (bdd, b_err, _) = xmv(&["-dcx", "--engine", "bdd"], &file);
        let _ = std::fs::remove_file(&file);
        assert_eq!(verdict_lines(&explicit).len(), 3, "{smv}\n{e_err}");
        assert_eq!(verdict_lines(&bdd), verdict_lines(&explicit), "{smv}\n{b_err}");
        agreed += 3;
    }
    eprintln!("explicit and BDD engines agree on {agreed} verdict lines of word models");
}

/// Every word model gives the same verdicts with the explicit and the BDD engine, except where
/// the explicit builder would enumerate an input or unassigned word of more than 2^24 values:
/// there `--engine explicit` stops with E0234 (naming the BDD engine), and `auto` checks the
/// model with BDDs, its traces showing the inputs the relation allows.
#[test]
fn word_models_agree_between_engines_or_go_to_bdds() {
    let mut refused = 0;
    for model in models() {
        let (explicit, e_err, e_code) = xmv(&["--no-trace", "--engine", "explicit"], &model);
        let (bdd, b_err, _) = xmv(&["--no-trace", "--engine", "bdd"], &model);
        assert!(!verdict_lines(&bdd).is_empty(), "{}: {b_err}", model.display());
        if e_err.contains("error[E0234]") {
            assert_eq!(e_code, Some(2), "{}", model.display());
            assert!(e_err.contains("`--engine bdd`"), "{}: {e_err}", model.display());
            refused += 1;
        } else {
            assert_eq!(verdict_lines(&explicit), verdict_lines(&bdd), "{}: {e_err}{b_err}", model.display());
        }
    }
    assert_eq!(refused, 1, "only unassigned-wide.smv is beyond explicit reach");
    let (stdout, stderr, _) = xmv(&["--stats"], &root().join("tests/words/unassigned-wide.smv"));
    assert!(stderr.contains("auto: bdd, the explicit build would enumerate the values of `free`"), "{stderr}");
    assert!(stdout.lines().any(|l| l == "  data = 0ud25_12345"), "{stdout}");
}
