//! Randomized robustness of the parser: random bytes, random token soups and randomly mutated
//! bundled specs must never panic, and every diagnostic must point inside the text on character
//! boundaries and render. Fixed seed; `XMV_TEST_CASES=n` runs more cases (default 1000 each).

#[path = "support/mutate.rs"]
mod mutate;

use proptest::prelude::*;
use proptest::test_runner::{Config, RngSeed};
use xmv_rs::diagnostics::Diagnostics;
use xmv_rs::source::SourceFile;

fn config() -> Config {
    let cases = std::env::var("XMV_TEST_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(1000);
    Config { cases, rng_seed: RngSeed::Fixed(0x5eed_f5a7), failure_persistence: None, ..Config::default() }
}

/// Parses, checks every span, renders.
fn check(file: &SourceFile) {
    let (_program, diags) = xmv_rs::syntax::parse(file);
    for d in &diags {
        for l in &d.labels {
            let (s, e) = (l.span.start as usize, l.span.end as usize);
            assert!(s <= e && e <= file.text.len(), "span {s}..{e} outside text of {} bytes: {d:?}", file.text.len());
            assert!(file.text.is_char_boundary(s) && file.text.is_char_boundary(e), "span not on char boundary: {d:?}");
        }
        assert!(!d.message.is_empty());
    }
    let mut sink = Diagnostics::new();
    sink.extend(diags);
    let _ = sink.render(file);
}

const VOCABULARY: &[&str] = &[
    "MODULE",
    "main",
    "m",
    "(",
    ")",
    "VAR",
    "IVAR",
    "FROZENVAR",
    "DEFINE",
    "ASSIGN",
    "INIT",
    "TRANS",
    "INVAR",
    "SPEC",
    "CTLSPEC",
    "INVARSPEC",
    "LTLSPEC",
    "PSLSPEC",
    "COMPUTE",
    "MIN",
    "MAX",
    "\"a.b\"",
    "\"",
    "NAME",
    "FAIRNESS",
    "JUSTICE",
    "COMPASSION",
    "CALL",
    "EXIT",
    "EXITED",
    "TERMINATION",
    "trap",
    "loop",
    "CONSTANTS",
    "x",
    "y",
    "s1",
    "p.q",
    "ISA",
    "clock",
    "x[3]",
    "s.1.t",
    "left.ack",
    ".",
    ":",
    ";",
    ":=",
    ",",
    "boolean",
    "0",
    "1",
    "-1",
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
    "F",
    "abs",
    "max",
    "toint",
    "count",
    "0ud8_1",
    "0sb4_1010",
    "0h_ff",
    "0ub_1_0",
    "0d_5",
    "0ud65_1",
    "0sd4_9",
    "word",
    "word[4]",
    "unsigned word[3]",
    "p.x",
    "init(p.x)",
    "[1, 2]",
    "MDEFINE",
    "PRED",
    "MIRROR",
    "signed word[8]",
    "unsigned",
    "[3:0]",
    "[",
    ":",
    "]",
    "extend",
    "resize",
    "word1",
    "bool",
    "sizeof",
    "uwconst",
    "swconst",
    "signed",
    "\n",
    "\r\n",
    "\t",
    "-- c\n",
    "/-- c --/",
    "/--",
    "é",
    "@",
    "x-1",
    "a->b",
    // PSL (PSLSPEC bodies)
    "always",
    "never",
    "eventually!",
    "next!",
    "X!",
    "until",
    "until!",
    "until!_",
    "before",
    "before_",
    "forall",
    "{0:2}",
    "|->",
    "{a;b}",
];

fn token_soup() -> impl Strategy<Value = String> {
    prop::collection::vec(prop::sample::select(VOCABULARY), 0..120).prop_map(|t| t.join(" "))
}

fn bundled_specs() -> Vec<String> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("specs");
    let mut texts: Vec<String> =
        std::fs::read_dir(dir).map(|rd| rd.filter_map(|e| e.ok()).filter_map(|e| std::fs::read_to_string(e.path()).ok()).collect()).unwrap_or_default();
    texts.sort();
    texts.retain(|t| t.len() < 100_000);
    texts
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn random_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..2000)) {
        check(&SourceFile::from_bytes("fuzz.smv", &bytes));
    }

    #[test]
    fn token_soups_never_panic(text in token_soup()) {
        check(&SourceFile::new("fuzz.smv", format!("MODULE main\n{text}")));
        check(&SourceFile::new("fuzz.smv", text));
    }

    #[test]
    fn mutated_specs_never_panic(pick in any::<prop::sample::Index>(), cuts in prop::collection::vec((any::<prop::sample::Index>(), prop::sample::select(VOCABULARY)), 1..6)) {
        let specs = bundled_specs();
        prop_assume!(!specs.is_empty());
        let mut text = specs[pick.index(specs.len())].clone();
        mutate::mutate(&mut text, &cuts);
        check(&SourceFile::new("fuzz.smv", text));
    }
}
