//! The parser's fast path (`src/syntax/fast`) against the pest path: on every bundled spec,
//! every golden-diagnostic input, and random token soups and mutated specs, `parse` with and
//! without the fast path must give the same program and the same diagnostics.
//! Fixed seed; `XMV_TEST_CASES=n` runs more cases (default 1000 each).

#[path = "support/mutate.rs"]
mod mutate;

use proptest::prelude::*;
use proptest::test_runner::{Config, RngSeed};
use std::path::Path;
use xmv_rs::source::SourceFile;
use xmv_rs::syntax::parse_with;

fn config() -> Config {
    let cases = std::env::var("XMV_TEST_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(1000);
    Config { cases, rng_seed: RngSeed::Fixed(0xfa57_9a75), failure_persistence: None, ..Config::default() }
}

fn same(file: &SourceFile) {
    let (fast_program, fast_diags) = parse_with(file, true);
    let (pest_program, pest_diags) = parse_with(file, false);
    assert_eq!(fast_diags, pest_diags, "diagnostics differ on:\n{}", file.text);
    if fast_program != pest_program {
        // Name the first module and section that differ.
        for (f, p) in fast_program.modules.iter().zip(&pest_program.modules) {
            assert_eq!(
                (&f.name, &f.params, f.span, f.sections.len()),
                (&p.name, &p.params, p.span, p.sections.len()),
                "module headers differ on:\n{}",
                file.text
            );
            for (fs, ps) in f.sections.iter().zip(&p.sections) {
                assert_eq!(fs, ps, "sections differ on:\n{}", file.text);
            }
        }
        assert_eq!(fast_program, pest_program, "programs differ on:\n{}", file.text);
    }
}

/// Every `.smv` file under `dir` (recursively), sorted.
fn smv_files(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    let Ok(rd) = std::fs::read_dir(dir) else { return };
    for e in rd.filter_map(|e| e.ok()) {
        let p = e.path();
        if p.is_dir() {
            smv_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "smv") {
            out.push(p);
        }
    }
}

fn repo_files() -> Vec<std::path::PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = vec![];
    for dir in ["specs", "tests"] {
        smv_files(&root.join(dir), &mut files);
    }
    files.sort();
    files
}

#[test]
fn fast_path_agrees_on_repository_files() {
    let files = repo_files();
    assert!(files.len() > 50, "expected the bundled specs and test inputs, found {}", files.len());
    for p in &files {
        let bytes = std::fs::read(p).unwrap_or_default();
        same(&SourceFile::from_bytes(p.display().to_string(), &bytes));
    }
}

const VOCABULARY: &[&str] = &[
    "MODULE",
    "main",
    "\"a.b c\"",
    "\"",
    "m",
    "(",
    ")",
    "VAR",
    "IVAR",
    "DEFINE",
    "ASSIGN",
    "INIT",
    "TRANS",
    "INVAR",
    "SPEC",
    "CTLSPEC",
    "INVARSPEC",
    "NAME",
    "FAIRNESS",
    "JUSTICE",
    "CALL",
    "EXIT",
    "EXITED",
    "x",
    "y",
    "s1",
    "p.q",
    ":",
    ";",
    ":=",
    ",",
    "boolean",
    "clock",
    "0",
    "1",
    "-1",
    "- 1",
    "007",
    "2147483647",
    "2147483648",
    "..",
    "{",
    "}",
    "[",
    "]",
    "array",
    "of",
    "process",
    "case",
    "esac",
    "TRUE",
    "FALSE",
    "init",
    "next",
    "self",
    "!",
    "&",
    "|",
    "xor",
    "xnor",
    "->",
    "<->",
    "=",
    "!=",
    "<",
    "<=",
    ">",
    ">=",
    "+",
    "-",
    "*",
    "/",
    "mod",
    "<<",
    ">>",
    "::",
    "union",
    "in",
    "?",
    "AG",
    "EF",
    "AX",
    "EX",
    "AF",
    "EG",
    "EBF",
    "ABG",
    "BU",
    "0..3",
    "E",
    "A",
    "U",
    "X",
    "G",
    "S",
    "abs",
    "0ud8_1",
    "0sb4_1010",
    "0h_ff",
    "0d_5",
    "[3:0]",
    "w[1 : 0]",
    "extend(w, 2)",
    "resize",
    "signed(",
    "unsigned",
    "word1",
    "uwconst(3, 4)",
    "swconst",
    "sizeof",
    "\n",
    "-- c\n",
    "/-- c --/",
    "x-1",
    "1-2",
    "a->b",
    ".",
    "x.y",
    "[1]",
    "E [",
    "A [",
    "x : {a, b};",
    "x : 0..3;",
    "x := y;",
    "next(x) :=",
    "init(x) :=",
    "case x : y; esac",
];

fn soup(min: usize, max: usize) -> impl Strategy<Value = String> {
    prop::collection::vec(prop::sample::select(VOCABULARY), min..max).prop_map(|t| t.join(" "))
}

fn bundled_specs() -> Vec<String> {
    let mut texts: Vec<String> = repo_files().iter().filter_map(|p| std::fs::read_to_string(p).ok()).collect();
    texts.retain(|t| t.len() < 100_000);
    texts
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn fast_path_agrees_on_token_soups(text in soup(0, 80)) {
        same(&SourceFile::new("fuzz.smv", format!("MODULE main\n{text}")));
    }

    #[test]
    fn fast_path_agrees_on_section_soups(kw in prop::sample::select(&["VAR", "DEFINE", "ASSIGN", "CALL", "EXIT", "SPEC", "INIT", "INVARSPEC"][..]), text in soup(1, 30)) {
        same(&SourceFile::new("fuzz.smv", format!("MODULE main\n{kw}\n{text}\n")));
    }

    #[test]
    fn fast_path_agrees_on_mutated_specs(pick in any::<prop::sample::Index>(), cuts in prop::collection::vec((any::<prop::sample::Index>(), prop::sample::select(VOCABULARY)), 1..6)) {
        let specs = bundled_specs();
        prop_assume!(!specs.is_empty());
        let mut text = specs[pick.index(specs.len())].clone();
        mutate::mutate(&mut text, &cuts);
        same(&SourceFile::new("fuzz.smv", text));
    }
}

/// Random expressions, mostly well formed, with every operator the grammar knows (including
/// those the fast path leaves to pest) and varied spacing.
fn expression() -> impl Strategy<Value = String> {
    let leaf = prop::sample::select(
        &["a", "b", "x1", "p-q", "0", "1", "007", "2147483647", "2147483648", "TRUE", "FALSE", "self", "EXIT", "EXITED", "0ud8_1", "0sd4_8", "0b_101"][..],
    )
    .prop_map(str::to_string);
    leaf.prop_recursive(6, 60, 4, |inner| {
        let space = prop::sample::select(&[" ", " ", "", "\n  ", " -- c\n", " /-- c --/ "][..]);
        prop_oneof![
            (
                prop::sample::select(
                    &["!", "-", "AG ", "EF ", "EX ", "AX ", "AF ", "EG ", "X ", "G ", "EBF 0..2 ", "ABG 1..1 ", "EBG 2..5 ", "ABF 0 .. 3 "][..]
                ),
                inner.clone()
            )
                .prop_map(|(o, e)| format!("{o}{e}")),
            (
                inner.clone(),
                space.clone(),
                prop::sample::select(
                    &[
                        "&", "|", "xor", "xnor", "->", "<->", "=", "!=", "<", "<=", ">", ">=", "+", "-", "*", "/", "mod", "<<", ">>", "::", "..", "in",
                        "union", "U", "?a:"
                    ][..]
                ),
                space.clone(),
                inner.clone()
            )
                .prop_map(|(a, s1, o, s2, b)| format!("{a}{s1}{o}{s2}{b}")),
            inner.clone().prop_map(|e| format!("({e})")),
            prop::collection::vec(inner.clone(), 1..4).prop_map(|v| format!("{{{}}}", v.join(", "))),
            prop::collection::vec((inner.clone(), inner.clone()), 1..4)
                .prop_map(|v| format!("case {} esac", v.iter().map(|(c, e)| format!("{c} : {e};")).collect::<Vec<_>>().join(" "))),
            (prop::sample::select(&["next", "init", "abs", "max"][..]), inner.clone()).prop_map(|(f, e)| format!("{f}({e})")),
            (prop::sample::select(&["E", "A"][..]), inner.clone(), inner.clone()).prop_map(|(q, a, b)| format!("{q} [{a} U {b}]")),
            (prop::sample::select(&["E", "A"][..]), inner.clone(), inner.clone()).prop_map(|(q, a, b)| format!("{q} [{a} BU 1..2 {b}]")),
            (inner.clone(), prop::sample::select(&[".f", ".g.h", "[0]", "[a + 1]", "[3:0]", ". f"][..])).prop_map(|(e, p)| format!("{e}{p}")),
        ]
    })
}

fn type_spec() -> impl Strategy<Value = String> {
    prop_oneof![
        prop::sample::select(
            &[
                "boolean",
                "{a, b, EXIT}",
                "{-1, 0, 3}",
                "{- 1, a}",
                "{a}",
                "clock",
                "integer",
                "m",
                "m ",
                "m(a, b)",
                "m()",
                "array 0..2 of boolean",
                "process m",
                "word[3]",
                "signed word[8]",
                "unsigned word[2 + 2]",
                "word[0]"
            ][..]
        )
        .prop_map(str::to_string),
        (expression(), expression()).prop_map(|(a, b)| format!("{a}..{b}")),
    ]
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn fast_path_agrees_on_random_expressions(e in expression(), f in expression(), ty in type_spec(), semi in prop::bool::ANY) {
        let semi = if semi { ";" } else { "" };
        let text = format!(
            "MODULE main\nVAR\n  v : {ty};\n  w : boolean;\nDEFINE\n  d := {e};\nASSIGN\n  next(w) := {f};\n  init(v.x[1]) := {e};\n  w := {e};\nCALL\n  m := {f};\nEXIT\n  done := {e};\nSPEC {e}{semi}\nINVARSPEC NAME n := {f}{semi}\nINIT {f}{semi}  -- c\nMODULE m(a, b)\nTRANS {e}\n"
        );
        same(&SourceFile::new("random.smv", text));
    }
}

/// A file with enough chunks to be parsed in parallel: one diagnostic per broken module, in
/// source order, and the same program as the pest-only parse.
#[test]
fn many_chunks_keep_source_order() {
    let text: String = (0..150).map(|i| format!("MODULE m{i}\nVAR\n  x : boolean;\nDEFINE\n  d := x & ;\nSPEC AG x\n")).collect();
    let file = SourceFile::new("many.smv", text);
    let (program, diags) = xmv_rs::syntax::parse(&file);
    assert_eq!(program.modules.len(), 150);
    assert_eq!(diags.len(), 150, "{diags:?}");
    let starts: Vec<u32> = diags.iter().map(|d| d.primary_span().start).collect();
    assert!(starts.windows(2).all(|w| w[0] < w[1]), "diagnostics out of source order: {starts:?}");
    same(&file);
}

/// NuSMV 2.5 syntax: long operator chains (balanced after parsing), path names in declarations
/// (`x[3]`, `left.ack`, `s.1.t`), `ISA`: both paths build the same program.
#[test]
fn fast_path_agrees_on_nusmv_25_syntax() {
    let chain = vec!["x = 1"; 3000].join(" | ");
    let nested = format!("{}x = 2{}", "(x = 1 | ".repeat(1500), ")".repeat(1500));
    let text = format!(
        "MODULE dev\nVAR busy : boolean;\nMODULE cell(left)\nVAR out : boolean;\nDEFINE left.ack := out;\n\
         MODULE main\nISA dev\nVAR x : 0..3; y[3] : boolean; s.1.t : boolean; c : cell(c);\n\
         DEFINE d := {chain};\n  e := {nested};\nASSIGN next(y[3]) := s.1.t & c.ack;\nSPEC AG ({chain})\n"
    );
    same(&SourceFile::new("nusmv25.smv", text));
}

/// The fast path must not merely agree when it accepts (if it always declined, the tests above
/// would pass): on every bundled model without syntax errors, it declines only items and
/// sections that use what it is documented to leave to pest (`src/syntax/fast/mod.rs`): LTL,
/// `? :`, built-in functions, word constants, bit selection, integers out of range, deep nesting,
/// `process`, `array` and `word` declarations, `real`/`integer` types, declarations of path names
/// (`a.b : boolean`, `left.ack := out`), array DEFINE bodies (`a := [1, 2]`), RTCTL's bounded
/// operators, `PSLSPEC`, `COMPUTE` and `COMPASSION`.
#[test]
fn fast_path_accepts_every_bundled_model() {
    let mut accepted_files = 0;
    let mut unexpected = Vec::new();
    for path in repo_files() {
        let bytes = std::fs::read(&path).unwrap_or_default();
        let file = SourceFile::from_bytes(path.display().to_string(), &bytes);
        if !parse_with(&file, false).1.is_empty() {
            continue; // a syntax error (or bad bytes): pest reports it, by design
        }
        let declined = xmv_rs::syntax::fast_path_declines(&file);
        for span in &declined {
            let item = &file.text[span.start as usize..span.end as usize];
            if !left_to_pest(item) {
                unexpected.push(format!("{}: `{item}`", path.display()));
            }
        }
        accepted_files += usize::from(declined.is_empty());
    }
    assert!(unexpected.is_empty(), "the fast path declined:\n{}", unexpected.join("\n"));
    assert!(accepted_files >= 90, "only {accepted_files} bundled models parsed wholly on the fast path");
}

/// Whether `item` uses a construct the fast path leaves to pest.
fn left_to_pest(item: &str) -> bool {
    const LTL: [&str; 12] = ["LTLSPEC", "X", "G", "F", "U", "V", "S", "T", "Y", "Z", "H", "O"];
    const DECLARATIONS: [&str; 8] = ["process", "array", "word", "real", "integer", "PSLSPEC", "COMPUTE", "COMPASSION"];
    const RTCTL: [&str; 5] = ["EBF", "ABF", "EBG", "ABG", "BU"];
    const BUILTINS: [&str; 14] =
        ["toint", "bool", "word1", "extend", "resize", "signed", "unsigned", "swconst", "uwconst", "sizeof", "count", "abs", "max", "min"];
    let words: Vec<&str> = item.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).filter(|w| !w.is_empty()).collect();
    let word_constant = |w: &str| {
        let w = w.strip_prefix('0').unwrap_or("");
        let w = w.strip_prefix(['u', 's']).unwrap_or(w);
        w.starts_with(['b', 'B', 'o', 'O', 'd', 'D', 'h', 'H']) && w.contains('_')
    };
    let big_integer = |w: &str| w.bytes().all(|b| b.is_ascii_digit()) && w.parse::<i64>().map_or(true, |v| v > i64::from(i32::MAX));
    let bit_selection = item.split('[').skip(1).any(|after| after.split(']').next().is_some_and(|inside| inside.contains(':')));
    let declared_path = item.split(':').next().is_some_and(|name| name.trim().contains('.'));
    let array_define = item.split(":=").nth(1).is_some_and(|body| body.trim_start().starts_with('['));
    item.contains('?')
        || array_define
        || bit_selection
        || declared_path
        || words.iter().any(|w| LTL.contains(w) || RTCTL.contains(w) || DECLARATIONS.contains(w) || BUILTINS.contains(w) || word_constant(w) || big_integer(w))
        || item.matches('(').count() > 40
}
