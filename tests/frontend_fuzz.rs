//! Robustness of the whole front end: random SMV-like programs (built from the language's
//! vocabulary so most of them parse and reach the semantic passes) never make `frontend::load`
//! panic, and every program it accepts is well formed: variable ids in range, tables as long as
//! their variable's domain, spec systems, labels and call targets valid.
//!
//! Fixed seed; `XMV_TEST_CASES=N` runs more cases.

use proptest::prelude::*;
use proptest::test_runner::{Config, RngSeed, TestRunner};
use xmv_rs::ctl::Ctl;
use xmv_rs::ir::SpecKind;
use xmv_rs::lowering::program::{Expr, LoweredProgram, SpecAtom};
use xmv_rs::source::SourceFile;

const NAMES: &[&str] = &["x", "y", "s", "a", "b", "c", "m", "p", "q", "self", "EXIT", "EXITED", "running", "done", "idle", "busy", "N"];
const MODULES: &[&str] = &["main", "m1", "m2", "proc"];

fn expr(depth: u32) -> BoxedStrategy<String> {
    let leaf = prop_oneof![
        proptest::sample::select(NAMES).prop_map(str::to_string),
        (-3i64..9).prop_map(|i| i.to_string()),
        Just("TRUE".to_string()),
        Just("FALSE".to_string()),
        (proptest::sample::select(NAMES), proptest::sample::select(NAMES)).prop_map(|(a, b)| format!("{a}.{b}")),
        (proptest::sample::select(NAMES), 0i64..4).prop_map(|(a, i)| format!("{a}[{i}]")),
        (proptest::sample::select(NAMES), proptest::sample::select(NAMES), 0i64..4).prop_map(|(a, i, j)| format!("{a}[{i}][{j}]")),
        proptest::sample::select(&["0ud4_5", "0sb4_1010", "0h_f", "0ub1_1", "-0sd4_8", "uwconst(3, 4)", "swconst(-1, 4)"][..]).prop_map(str::to_string),
    ];
    if depth == 0 {
        return leaf.boxed();
    }
    let sub = || expr(depth - 1);
    prop_oneof![
        3 => leaf,
        2 => (sub(), proptest::sample::select(&["&", "|", "->", "<->", "=", "!=", "<", "+", "-", "*", "mod", "/", "in", "union", "xor"][..]), sub())
            .prop_map(|(a, op, b)| format!("({a} {op} {b})")),
        1 => sub().prop_map(|a| format!("!{a}")),
        1 => sub().prop_map(|a| format!("next({a})")),
        1 => (proptest::sample::select(&["AG", "EF", "AX", "EG"][..]), sub()).prop_map(|(op, a)| format!("{op} {a}")),
        1 => (sub(), sub()).prop_map(|(a, b)| format!("E [ {a} U {b} ]")),
        // RTCTL, with ranges NuSMV rejects (E0222) now and then.
        1 => (proptest::sample::select(&["EBF", "ABF", "EBG", "ABG"][..]), -1i64..4, 0i64..5, sub()).prop_map(|(op, lo, hi, a)| format!("{op} {lo}..{hi} {a}")),
        1 => (proptest::sample::select(&["E", "A"][..]), sub(), 0i64..3, 0i64..4, sub()).prop_map(|(q, a, lo, hi, b)| format!("{q} [ {a} BU {lo}..{hi} {b} ]")),
        1 => (sub(), sub(), sub()).prop_map(|(c, a, b)| format!("case {c} : {a}; TRUE : {b}; esac")),
        1 => (sub(), sub()).prop_map(|(a, b)| format!("{{{a}, {b}}}")),
        1 => (sub(), sub(), sub()).prop_map(|(c, a, b)| format!("({c} ? {a} : {b})")),
        1 => (proptest::sample::select(&["abs", "toint", "bool", "count"][..]), sub()).prop_map(|(f, a)| format!("{f}({a})")),
        // `case` without a `TRUE` branch, word operators and functions.
        1 => (sub(), sub(), sub(), sub()).prop_map(|(c, a, d, b)| format!("case {c} : {a}; {d} : {b}; esac")),
        1 => (sub(), proptest::sample::select(&["::", "<<", ">>", "<=", ">="][..]), sub()).prop_map(|(a, op, b)| format!("({a} {op} {b})")),
        1 => (sub(), proptest::sample::select(&["[3:0]", "[0:0]", "[7:4]"][..])).prop_map(|(a, bits)| format!("{a}{bits}")),
        1 => (proptest::sample::select(&["extend", "resize"][..]), sub(), 0i64..5).prop_map(|(f, a, n)| format!("{f}({a}, {n})")),
        1 => (proptest::sample::select(&["signed", "unsigned", "word1", "sizeof"][..]), sub()).prop_map(|(f, a)| format!("{f}({a})")),
    ]
    .boxed()
}

fn type_spec() -> BoxedStrategy<String> {
    prop_oneof![
        Just("boolean".to_string()),
        (-2i64..3, 0i64..5).prop_map(|(lo, n)| format!("{lo}..{}", lo + n)),
        Just("{idle, busy, done}".to_string()),
        Just("{0, 2, idle}".to_string()),
        Just("array 0..2 of boolean".to_string()),
        Just("array 0..1 of array 0..2 of 0..3".to_string()),
        Just("0..N".to_string()),
        proptest::sample::select(&["word[4]", "unsigned word[3]", "signed word[4]", "word[N]"][..]).prop_map(str::to_string),
        (proptest::sample::select(MODULES), expr(1)).prop_map(|(m, a)| format!("{m}({a})")),
        proptest::sample::select(MODULES).prop_map(|m| format!("process {m}")),
        proptest::sample::select(MODULES).prop_map(str::to_string),
    ]
    .boxed()
}

fn section() -> BoxedStrategy<String> {
    let name = || proptest::sample::select(NAMES);
    prop_oneof![
        proptest::collection::vec((name(), type_spec()), 1..4)
            .prop_map(|ds| format!("VAR\n{}", ds.iter().map(|(n, t)| format!("  {n} : {t};\n")).collect::<String>())),
        (name(), type_spec()).prop_map(|(n, t)| format!("IVAR\n  {n} : {t};\n")),
        proptest::collection::vec((name(), expr(2)), 1..3)
            .prop_map(|ds| format!("DEFINE\n{}", ds.iter().map(|(n, e)| format!("  {n} := {e};\n")).collect::<String>())),
        proptest::collection::vec((proptest::sample::select(&["init", "next", ""][..]), name(), expr(2)), 1..4).prop_map(|ds| {
            let body: String = ds.iter().map(|(k, n, e)| if k.is_empty() { format!("  {n} := {e};\n") } else { format!("  {k}({n}) := {e};\n") }).collect();
            format!("ASSIGN\n{body}")
        }),
        // A chain of DEFINEs each using the previous one three times: the longer bodies are
        // shared between their uses (`Expr::Shared`), not copied.
        (expr(2), 2usize..7).prop_map(|(e, n)| {
            let chain = ["c", "m", "p", "q", "s", "b", "a"];
            let mut body = format!("DEFINE\n  {} := {e};\n", chain[0]);
            for w in chain[..n].windows(2) {
                body += &format!("  {} := ({} & {}) | !{};\n", w[1], w[0], w[0], w[0]);
            }
            body
        }),
        expr(2).prop_map(|e| format!("INIT {e}\n")),
        expr(2).prop_map(|e| format!("TRANS {e}\n")),
        expr(2).prop_map(|e| format!("SPEC {e}\n")),
        expr(2).prop_map(|e| format!("INVARSPEC {e}\n")),
        (proptest::sample::select(&["MIN", "MAX"][..]), expr(1), expr(1)).prop_map(|(op, a, b)| format!("COMPUTE {op} [ {a} , {b} ]\n")),
        // LTL over state and input variables (inputs are read on the step leaving the state).
        (proptest::sample::select(&["G", "F", "X", "Y", "H"][..]), expr(1), expr(1)).prop_map(|(op, a, b)| format!("LTLSPEC {op} ({a}) | (({b}) U !({a}))\n")),
        expr(1).prop_map(|e| format!("FAIRNESS {e}\n")),
        (proptest::sample::select(MODULES), expr(1)).prop_map(|(m, e)| format!("CALL\n  {m} := {e};\n")),
        (name(), expr(1)).prop_map(|(n, e)| format!("EXIT\n  {n} := {e};\n")),
        Just("CONSTANTS done, idle;\n".to_string()),
        proptest::sample::select(MODULES).prop_map(|m| format!("ISA {m}\n")),
        // Assignments to members of instances and parameters; constant (array) DEFINEs.
        (proptest::sample::select(&["init", "next", ""][..]), proptest::sample::select(&["a.x", "p.q", "self.x", "m1.s", "x[1]"][..]), expr(1))
            .prop_map(|(k, n, e)| if k.is_empty() { format!("ASSIGN\n  {n} := {e};\n") } else { format!("ASSIGN\n  {k}({n}) := {e};\n") }),
        (name(), expr(1), expr(1)).prop_map(|(n, a, b)| format!("DEFINE\n  {n} := [{a}, {b}];\n  {n}2 := [[{a}, 1], [2, {b}]];\n")),
        (proptest::sample::select(&["x[1]", "a.x", "p.q", "s.1.t", "self.x"][..]), expr(1))
            .prop_map(|(n, e)| format!("DEFINE\n  {n} := {e};\nVAR\n  {n}_v : boolean;\n")),
    ]
    .boxed()
}

fn program() -> impl Strategy<Value = String> {
    proptest::collection::vec((proptest::sample::select(MODULES), proptest::option::of(Just("(a)")), proptest::collection::vec(section(), 0..5)), 1..4)
        .prop_map(|ms| ms.iter().map(|(name, params, secs)| format!("MODULE {name}{}\n{}", params.unwrap_or(""), secs.concat())).collect::<Vec<_>>().join("\n"))
}

fn check_expr(e: &Expr, nvars: usize, p: &LoweredProgram, sys: usize) {
    let vars = &p.systems[sys].vars;
    match e {
        Expr::Var(v) | Expr::Next(v) => assert!(v.index() < nvars),
        Expr::Table { var, entries, fallback, .. } => {
            assert!(var.index() < nvars);
            assert_eq!(entries.len(), vars[var.index()].domain.len());
            entries.iter().flatten().for_each(|x| check_expr(x, nvars, p, sys));
            if let Some(f) = fallback {
                check_expr(f, nvars, p, sys);
            }
        }
        Expr::Const(_) | Expr::Exited => {}
        Expr::Unary(_, a) => check_expr(a, nvars, p, sys),
        Expr::Binary(_, a, b) | Expr::Range(a, b) => {
            check_expr(a, nvars, p, sys);
            check_expr(b, nvars, p, sys)
        }
        Expr::Ite(a, b, c) => [a, b, c].iter().for_each(|x| check_expr(x, nvars, p, sys)),
        Expr::Case { branches, .. } => branches.iter().for_each(|(c, v)| {
            check_expr(c, nvars, p, sys);
            check_expr(v, nvars, p, sys)
        }),
        Expr::Set(xs) | Expr::Builtin(_, xs) => xs.iter().for_each(|x| check_expr(x, nvars, p, sys)),
        Expr::Shared(x) => check_expr(x, nvars, p, sys),
    }
}

fn check_well_formed(p: &LoweredProgram) {
    for (i, s) in p.systems.iter().enumerate() {
        let n = s.vars.len();
        assert_eq!(s.init_assign.len(), n);
        assert_eq!(s.next_assign.len(), n);
        assert_eq!(s.invar_assign.len(), n);
        assert_eq!(s.define_labels.len(), s.defines.len());
        assert_eq!(s.define_scopes.len(), s.defines.len());
        let all = s.init_assign.iter().chain(&s.next_assign).chain(&s.invar_assign).flatten();
        all.chain(&s.init).chain(&s.trans).chain(&s.invar).chain(&s.fairness).for_each(|e| check_expr(e, n, p, i));
        s.defines.iter().for_each(|d| check_expr(&d.expr, n, p, i));
        for c in &s.calls {
            assert!(c.target.index() < p.systems.len() && p.systems[c.target.index()].is_procedure);
        }
        for l in s.define_labels.iter().flatten() {
            assert!(l.index() < p.labels.len());
        }
    }
    for spec in &p.specs {
        assert!(spec.system.index() < p.systems.len());
        assert_eq!(spec.compute.is_some(), spec.kind == SpecKind::Compute, "a COMPUTE spec carries its body, no other does");
        let mut atoms = vec![];
        spec.formula.map_atoms(&mut |a: &SpecAtom| atoms.push(a.clone()));
        if let Some(c) = &spec.compute {
            c.from.map_atoms(&mut |a: &SpecAtom| atoms.push(a.clone()));
            c.to.map_atoms(&mut |a: &SpecAtom| atoms.push(a.clone()));
        }
        for a in atoms {
            match a {
                SpecAtom::State(e) => check_expr(&e, p.systems[spec.system.index()].vars.len(), p, spec.system.index()),
                SpecAtom::Label(l) => assert!(l.index() < p.labels.len()),
            }
        }
        let _: &Ctl<SpecAtom> = &spec.formula;
    }
}

#[test]
fn random_programs_never_crash_the_front_end() {
    let cases = std::env::var("XMV_TEST_CASES").ok().and_then(|s| s.parse().ok()).unwrap_or(300);
    let mut runner = TestRunner::new(Config { cases, rng_seed: RngSeed::Fixed(0x5eed), failure_persistence: None, ..Config::default() });
    let accepted = std::cell::Cell::new(0u32);
    runner
        .run(&program(), |src| {
            let file = SourceFile::new("fuzz.smv", src);
            let (p, diags) = xmv_rs::frontend::load(&file, None);
            let _ = diags.render(&file);
            if let Some(p) = p {
                check_well_formed(&p);
                accepted.set(accepted.get() + 1);
            }
            Ok(())
        })
        .unwrap_or_else(|e| panic!("{e}"));
    eprintln!("{} of {cases} random programs accepted", accepted.get());
}

#[test]
fn hostile_inputs_are_diagnosed_not_crashed() {
    let deep_parens = format!("MODULE main\nVAR x : boolean;\nSPEC {}x{}\n", "(".repeat(200_000), ")".repeat(200_000));
    let deep_not = format!("MODULE main\nVAR x : boolean;\nSPEC {}x\n", "!".repeat(100_000));
    let long_chain = format!("MODULE main\nVAR x : 0..3;\nDEFINE d := {};\n", vec!["x = 1"; 900].join(" | "));
    let mut defines = String::from("MODULE main\nVAR x : boolean;\nDEFINE\n  d0 := x;\n");
    for k in 1..3000 {
        defines.push_str(&format!("  d{k} := d{};\n", k - 1));
    }
    defines.push_str("SPEC AG d2999\n");
    let inputs: Vec<Vec<u8>> = vec![
        vec![],
        b"\r\n\t \r\n".to_vec(),
        b"MODULE main\r\nVAR\r\n\tx : boolean;\r\nASSIGN\r\n\tinit(x) := FALSE;\r\n".to_vec(),
        vec![0xff, 0xfe, b'M', 0x80, b'\n'],
        "MODULE main -- ünïcödé comment\nVAR x : boolean;\n".as_bytes().to_vec(),
        deep_parens.into_bytes(),
        deep_not.into_bytes(),
        long_chain.into_bytes(),
        defines.into_bytes(),
    ];
    for bytes in inputs {
        let file = SourceFile::from_bytes("hostile.smv", &bytes);
        let (p, diags) = xmv_rs::frontend::load(&file, None);
        let rendered = diags.render(&file);
        assert!(p.is_some() || diags.has_errors(), "rejected without an error:\n{rendered}");
    }
}
