//! The parser never panics or overflows the stack: deep nesting, long operator chains, odd bytes.
//! Each case runs on a thread with the default 2 MiB test stack, like any caller's thread.

use xmv_rs::source::SourceFile;
use xmv_rs::syntax::parse;

fn codes(text: &str) -> Vec<&'static str> {
    let file = SourceFile::new("t.smv", text.to_string());
    parse(&file).1.iter().map(|d| d.code).collect()
}

fn spec(body: &str) -> String {
    format!("MODULE main\nVAR x : boolean;\nSPEC {body}\n")
}

#[test]
fn nesting_just_below_the_limit_parses() {
    let n = xmv_rs::syntax::MAX_NESTING - 1;
    let body = format!("{}x{}", "(".repeat(n), ")".repeat(n));
    assert_eq!(codes(&spec(&body)), Vec::<&str>::new());
}

#[test]
fn two_hundred_thousand_parentheses_are_rejected_not_overflowed() {
    let n = 200_000;
    let body = format!("{}x{}", "(".repeat(n), ")".repeat(n));
    assert_eq!(codes(&spec(&body)), vec!["E0011"]);
    let unbalanced = "(".repeat(n);
    assert_eq!(codes(&spec(&unbalanced)), vec!["E0011"]);
}

#[test]
fn deeply_nested_case_and_sets_are_rejected() {
    let n = 5000;
    let body = format!("{}x{}", "case TRUE : ".repeat(n), "; esac".repeat(n));
    assert_eq!(codes(&spec(&body)), vec!["E0011"]);
    let body = format!("x in {}1{}", "{".repeat(n), "}".repeat(n));
    assert_eq!(codes(&spec(&body)), vec!["E0011"]);
}

#[test]
fn long_prefix_and_right_associative_chains_are_rejected() {
    let n = 20_000;
    assert_eq!(codes(&spec(&format!("{}x", "!".repeat(n)))), vec!["E0011"]);
    assert_eq!(codes(&spec(&format!("{}x", "AG ".repeat(n)))), vec!["E0011"]);
    assert_eq!(codes(&spec(&vec!["x"; n].join(" -> "))), vec!["E0011"]);
    assert_eq!(codes(&spec(&vec!["x"; n].join(" ? x : "))), vec!["E0011"]);
}

#[test]
fn long_left_associative_chains_are_limited_by_depth() {
    // Chains of one of `&`, `|`, `xor`, `xnor` count as one level (NuSMV accepts them).
    for op in [" | ", " & ", " xor ", " xnor "] {
        let long = vec!["x"; 20_000].join(op);
        assert_eq!(codes(&spec(&long)), Vec::<&str>::new(), "{op}");
    }
    // Other left-associative operators count one level per operator.
    let ok = format!("{} = 0", vec!["1"; 900].join(" + "));
    assert_eq!(codes(&spec(&ok)), Vec::<&str>::new());
    let long = format!("{} = 0", vec!["1"; 20_000].join(" + "));
    assert_eq!(codes(&spec(&long)), vec!["E0011"]);
}

#[test]
fn odd_inputs_do_not_panic() {
    for text in ["", " ", "\n", "--", "/--", "/-- x", "MODULE", "MODULE main", "MODULE main\r\nVAR\r\n\tx : boolean;\r\n", "\u{feff}MODULE main"] {
        let _ = codes(text);
    }
    let file = SourceFile::from_bytes("bad.smv", b"MODULE main\nVAR x : \xff\xfe boolean;\n");
    let (_, diags) = parse(&file);
    assert_eq!(diags.iter().map(|d| d.code).collect::<Vec<_>>(), vec!["E0012", "E0012"]);
}

#[test]
fn empty_file_is_an_empty_program() {
    let file = SourceFile::new("empty.smv", "");
    let (program, diags) = parse(&file);
    assert!(program.modules.is_empty() && diags.is_empty());
}

#[test]
fn non_ascii_in_comments_is_fine_and_in_identifiers_is_reported() {
    assert_eq!(codes("-- Zähler für Prozesse: ∀x\nMODULE main /-- ünïcödé --/ VAR x : boolean;"), Vec::<&str>::new());
    assert_eq!(codes("MODULE main VAR zähler : boolean;"), vec!["E0012"]);
}
