//! Random SMV text for the LTL tests: small models (a counter, booleans, optional `TRANS`
//! deadlocks and `FAIRNESS`) with random `LTLSPEC`s over every operator NuSMV 2.5.4 accepts
//! (`tests/ltl_nusmv.rs`, `tests/bdd_ltl.rs`), and SMV renderings of the oracle's random Kripke
//! structures and LTL formulas.

use super::oracle::Model;
use super::random::Rng;
use xmv_rs::ir::PropId;
use xmv_rs::ltl::{Ltl, LtlOp};

pub fn atom(rng: &mut Rng) -> String {
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
pub fn ltl(rng: &mut Rng, depth: usize, past_ok: bool) -> String {
    if depth == 0 || rng.chance(20) {
        return atom(rng);
    }
    let sub = |rng: &mut Rng| format!("({})", ltl(rng, depth - 1, past_ok));
    let unary = ["X", "G", "F", "!"];
    let binary = ["U", "V", "&", "|", "->", "<->", "xor"];
    if past_ok && rng.chance(20) {
        return past(rng, depth);
    }
    operator(rng, &unary, &binary, 40, sub)
}

/// A unary operator of `unary` (`unary_percent` of the time) or a binary one of `binary` over
/// operands drawn by `sub`.
fn operator(rng: &mut Rng, unary: &[&str], binary: &[&str], unary_percent: usize, sub: impl Fn(&mut Rng) -> String) -> String {
    if rng.chance(unary_percent) {
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

/// A random LTL formula in SMV syntax whose past operators may have future operands.
#[allow(dead_code)]
pub fn mixed(rng: &mut Rng, depth: usize) -> String {
    if depth == 0 || rng.chance(15) {
        return atom(rng);
    }
    let sub = |rng: &mut Rng| format!("({})", mixed(rng, depth - 1));
    let unary = ["X", "G", "F", "!", "Y", "Z", "H", "O"];
    let binary = ["U", "V", "S", "T", "&", "|", "->", "<->", "xor"];
    operator(rng, &unary, &binary, 45, sub)
}

pub fn model(rng: &mut Rng, specs: usize) -> String {
    model_with(rng, specs, |rng, depth| ltl(rng, depth, true))
}

/// [`model`] with the specs' formulas drawn by `formula` (given a depth).
pub fn model_with(rng: &mut Rng, specs: usize, formula: impl Fn(&mut Rng, usize) -> String) -> String {
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
        let f = formula(rng, depth);
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

/// A Kripke structure of the oracle as an SMV model over one variable `s` (the state number):
/// labels and fairness sets as `DEFINE`s `p0 …`, deadlocks as states with no `TRANS` successor,
/// then one `LTLSPEC` per formula.
pub fn kripke_smv(m: &Model, specs: &[Ltl<PropId>]) -> String {
    let set = |states: Vec<usize>| {
        if states.is_empty() { "FALSE".to_string() } else { states.iter().map(|s| format!("s = {s}")).collect::<Vec<_>>().join(" | ") }
    };
    let mut text = format!("MODULE main\nVAR s : 0..{};\nINIT {}\nTRANS case\n", m.n() - 1, set(m.init.clone()));
    for (s, succ) in m.succ.iter().enumerate() {
        let next = if succ.is_empty() { "FALSE".to_string() } else { succ.iter().map(|t| format!("next(s) = {t}")).collect::<Vec<_>>().join(" | ") };
        text += &format!("  s = {s} : {next};\n");
    }
    text += "  TRUE : FALSE;\nesac\nDEFINE\n";
    for (p, states) in m.props.iter().enumerate() {
        text += &format!("  p{p} := {};\n", set((0..m.n()).filter(|&s| states[s]).collect()));
    }
    for &f in &m.fairness {
        text += &format!("FAIRNESS p{f}\n");
    }
    for f in specs {
        text += &format!("LTLSPEC {}\n", ltl_text(f));
    }
    text
}

/// An LTL formula over atoms `p0 …` in SMV syntax, fully parenthesised.
pub fn ltl_text(f: &Ltl<PropId>) -> String {
    let op = |o: LtlOp| match o {
        LtlOp::X => "X",
        LtlOp::G => "G",
        LtlOp::F => "F",
        LtlOp::U => "U",
        LtlOp::V => "V",
        LtlOp::Y => "Y",
        LtlOp::Z => "Z",
        LtlOp::H => "H",
        LtlOp::O => "O",
        LtlOp::S => "S",
        LtlOp::T => "T",
    };
    let bin = |a: &Ltl<PropId>, o: &str, b: &Ltl<PropId>| format!("({} {o} {})", ltl_text(a), ltl_text(b));
    match f {
        Ltl::True => "TRUE".into(),
        Ltl::False => "FALSE".into(),
        Ltl::Atom(p) => format!("p{p}"),
        Ltl::Not(a) => format!("(!{})", ltl_text(a)),
        Ltl::And(a, b) => bin(a, "&", b),
        Ltl::Or(a, b) => bin(a, "|", b),
        Ltl::Xor(a, b) => bin(a, "xor", b),
        Ltl::Xnor(a, b) => bin(a, "xnor", b),
        Ltl::Implies(a, b) => bin(a, "->", b),
        Ltl::Iff(a, b) => bin(a, "<->", b),
        Ltl::Unary(o, a) => format!("({} {})", op(*o), ltl_text(a)),
        Ltl::Binary(o, a, b) => bin(a, op(*o), b),
    }
}
