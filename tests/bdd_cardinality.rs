//! `count(…)` on the BDD engine (`symbolic::cardinality`) against the explicit engine: random
//! asynchronous Boolean networks in pyboolnet's style (`next(x) := {x, x_IMAGE}`, a `TRANS`
//! bounding how many genes change, a steady-state condition `count(x_IMAGE != x, …) = 0`), with
//! every comparison operator, the constant on either side, constants out of range (negative,
//! above the number of terms), and `count` inside arithmetic (the full distribution). Verdict
//! output and `-r` figures must be identical. `XMV_TEST_CASES=N` sets the number of models
//! (default 120).

mod support;

use support::random::{Rng, cases};
use xmv_rs::driver::{CheckOptions, Engine, run_check, stages::Stages};
use xmv_rs::source::SourceFile;

fn run(text: &str, engine: Engine) -> (i32, String, String) {
    let file = SourceFile::new("count.smv", text);
    let options = CheckOptions { engine, traces: false, reachable: true, ..Default::default() };
    let out = run_check(&file, &options, &Stages::linked());
    (out.exit_code, out.stdout, out.stderr)
}

const OPS: [&str; 6] = ["=", "!=", "<", "<=", ">", ">="];

/// `count(terms) OP k` or `k OP count(terms)`, with k in -1..=n+1.
fn comparison(rng: &mut Rng, terms: &str, n: usize) -> String {
    let op = OPS[rng.below(OPS.len())];
    let k = rng.below(n + 3) as i64 - 1;
    if rng.chance(25) { format!("{k} {op} count({terms})") } else { format!("count({terms}) {op} {k}") }
}

/// A random literal over the genes.
fn literal(rng: &mut Rng, genes: &[String]) -> String {
    let g = &genes[rng.below(genes.len())];
    if rng.chance(50) { format!("!{g}") } else { g.clone() }
}

fn network(rng: &mut Rng) -> String {
    let n = 3 + rng.below(4);
    let genes: Vec<String> = (0..n).map(|i| format!("g{i}")).collect();
    let mut s = String::from("MODULE main\nVAR\n");
    for g in &genes {
        s.push_str(&format!("  {g} : boolean;\n"));
    }
    s.push_str("DEFINE\n");
    for g in &genes {
        let image = match rng.below(4) {
            0 => literal(rng, &genes),
            1 => format!("{} & {}", literal(rng, &genes), literal(rng, &genes)),
            2 => format!("{} | {}", literal(rng, &genes), literal(rng, &genes)),
            _ => g.clone(),
        };
        s.push_str(&format!("  {g}_IMAGE := {image};\n"));
    }
    let unsteady: Vec<String> = genes.iter().map(|g| format!("{g}_IMAGE != {g}")).collect();
    s.push_str(&format!("  SUCCESSORS := count({});\n", unsteady.join(", ")));
    s.push_str("  STEADYSTATE := SUCCESSORS = 0;\n");
    s.push_str("ASSIGN\n");
    for g in &genes {
        s.push_str(&format!("  next({g}) := {{{g}, {g}_IMAGE}};\n"));
    }
    let changes: Vec<String> = genes.iter().map(|g| format!("next({g}) != {g}")).collect();
    let changes = changes.join(", ");
    match rng.below(4) {
        0 => s.push_str(&format!("TRANS STEADYSTATE | count({changes}) = 1\n")),
        1 => s.push_str(&format!("TRANS count({changes}) <= 1\n")),
        2 => s.push_str(&format!("TRANS STEADYSTATE | {}\n", comparison(rng, &changes, n))),
        _ => s.push_str(&format!("TRANS {}\n", comparison(rng, &changes, n))),
    }
    if rng.chance(50) {
        s.push_str(&format!("INIT {}\n", comparison(rng, &genes.join(", "), n)));
    }
    let current: Vec<String> = genes.iter().map(|g| g.to_string()).collect();
    for _ in 0..4 {
        let subset: Vec<&str> = current.iter().filter(|_| rng.chance(60)).map(String::as_str).collect();
        let terms = if subset.is_empty() { current[0].clone() } else { subset.join(", ") };
        let atom = comparison(rng, &terms, subset.len().max(1));
        let spec = match rng.below(4) {
            0 => format!("AG ({atom})"),
            1 => format!("EF ({atom})"),
            2 => format!("AG EF ({atom})"),
            _ => format!("EF STEADYSTATE & E [ !({atom}) U STEADYSTATE ]"),
        };
        s.push_str(&format!("SPEC {spec}\n"));
    }
    // count in arithmetic: the whole distribution.
    s.push_str(&format!("SPEC AG (SUCCESSORS + count({}, TRUE) <= {})\n", literal(rng, &genes), rng.below(n + 2)));
    s.push_str(&format!("INVARSPEC SUCCESSORS < {}\n", rng.below(n + 1)));
    s
}

#[test]
fn count_constraints_agree_with_the_explicit_engine() {
    let mut rng = Rng::new(0xc0_u64 << 8 | 0x47);
    let mut compared = 0;
    let mut false_specs = 0;
    for case in 0..cases(120) {
        let text = network(&mut rng);
        let (code_e, out_e, err_e) = run(&text, Engine::Explicit);
        let (code_b, out_b, err_b) = run(&text, Engine::Bdd);
        assert_ne!(code_e, 2, "case {case}: the model must build\n{text}\n{err_e}");
        assert_eq!((code_e, &out_e), (code_b, &out_b), "case {case}, explicit vs bdd:\n{text}\n{err_e}{err_b}");
        false_specs += out_e.matches("is false").count();
        compared += 1;
    }
    // Both verdicts occur (the comparisons are not trivially true or false).
    assert!(false_specs > 0 && false_specs < compared * 6, "{false_specs} false specs in {compared} models");
    eprintln!("count: {compared} networks agree ({false_specs} false specs)");
}

#[test]
fn count_thresholds_on_a_fixed_network() {
    // Three genes, every state initial: count(a, b, c) takes each value 0..3.
    let text = "MODULE main\nVAR a : boolean; b : boolean; c : boolean;\nASSIGN next(a) := a; next(b) := b; next(c) := c;\n\
                SPEC AG (a & b & c -> count(a, b, c) = 3)\nSPEC AG count(a, b, c) <= 3\nSPEC AG count(a, b, c) < 3\nSPEC AG 0 <= count(a, b, c)\n\
                SPEC EF count(a, b, c) = 4\nSPEC AG count(a, b, c) != -1\nSPEC AG (count(a, b) > 1 -> count(a, b, c) >= 2)\n\
                SPEC AG (count(a, b, c) * 2 = 4 -> count(b, c, a) = 2)\n";
    let (code, out, err) = run(text, Engine::Bdd);
    assert_eq!(code, 1, "{err}");
    let verdicts: Vec<bool> = out.lines().filter(|l| l.starts_with("-- specification")).map(|l| l.ends_with("is true")).collect();
    assert_eq!(verdicts, [true, true, false, true, false, true, true, true], "{out}");
    assert_eq!(run(text, Engine::Explicit).1, out);
}

/// `count` with more than 16 arguments (the explicit engine compiles it as a running total since
/// session 8; below 17 arguments it used other code) in a `TRANS`, a `DEFINE` read by specs and
/// an `INVARSPEC`, with repeated terms and constants: explicit and BDD output identical.
#[test]
fn wide_counts_agree_with_the_explicit_engine() {
    let mut rng = Rng::new(0x77_1de);
    let mut false_specs = 0;
    for case in 0..cases(40) {
        let text = network(&mut rng);
        let genes: Vec<String> = (0..3).map(|i| format!("g{i}")).collect();
        let mut terms: Vec<String> = (0..17 + rng.below(8)).map(|_| literal(&mut rng, &genes)).collect();
        terms.push("TRUE".to_string());
        terms.push("FALSE".to_string());
        let wide = terms.join(", ");
        let n = terms.len();
        let extra = format!(
            "DEFINE WIDE := count({wide});\nTRANS {}\nSPEC AG (WIDE <= {n})\nSPEC EF ({})\nINVARSPEC {}\n",
            comparison(&mut rng, &format!("next(g0), {wide}"), n + 1),
            comparison(&mut rng, &wide, n),
            comparison(&mut rng, &wide, n),
        );
        let text = format!("{text}{extra}");
        let (code_e, out_e, err_e) = run(&text, Engine::Explicit);
        let (code_b, out_b, err_b) = run(&text, Engine::Bdd);
        assert_ne!(code_e, 2, "case {case}: the model must build\n{text}\n{err_e}");
        assert_eq!((code_e, &out_e), (code_b, &out_b), "case {case}, explicit vs bdd:\n{text}\n{err_e}{err_b}");
        false_specs += out_e.matches("is false").count();
    }
    assert!(false_specs > 0, "no false spec: the comparisons are trivial");
}
