//! Scaling reproducer found by the trust layer (not a timing test): a self-recursive component
//! with `n` exits whose recursive call's continuations rotate the exits. The Finis engines
//! enumerate every completion of the callee context's undecided exit tops (`2^n` contexts):
//! `Global` needs ~19 s at n = 12, `Incremental` ~0.8 s at n = 20 and aborts with an allocation
//! failure at n = 30 (so does it on the Java benchmark avroraReg, whose largest component has 33
//! exits). The ternary engines answer in microseconds. The verdicts are checked by the context
//! oracle for small `n`.

mod rks_support;

use rks_support::{contexts, ctl_text, model::Model};
use xmv_rs::check::rks::{RksEngine, RksOptions, check};
use xmv_rs::check::ternary::{self, TernaryEngine};
use xmv_rs::explicit::rks::ComponentId;

/// `A` calls `B` once; `B` (exits x0..x{n-1}, even ones labelled `p`) either exits at once or
/// calls itself, and its call returning through exit `k` continues at `x{k+1 mod n}`.
fn rotating_exits(n: usize) -> Model {
    Model::parse(&rotating_exits_text(n))
}

/// The `parse_rks` text of [`rotating_exits`].
fn rotating_exits_text(n: usize) -> String {
    let mut s = String::from("props p q\ncomponent A exits ax\n  loc a0\n  call c B\n  loc ax\n  edge a0 c\n");
    for k in 0..n {
        s += &format!("  ret c {k} ax\n");
    }
    s += "component B exits";
    for k in 0..n {
        s += &format!(" x{k}");
    }
    s += "\n  loc b0\n  call d B\n";
    for k in 0..n {
        s += &format!("  loc x{k}{}\n", if k % 2 == 0 { " p" } else { "" });
    }
    s += "  edge b0 d";
    for k in 0..n {
        s += &format!(" x{k}");
    }
    s += "\n";
    for k in 0..n {
        s += &format!("  ret d {k} x{}\n", (k + 1) % n);
    }
    s
}

fn all_engines(m: &Model, formula: &str) -> Vec<(String, bool)> {
    let rks = m.build();
    let f = ctl_text::parse(formula, &m.props);
    let mut out = Vec::new();
    for engine in [RksEngine::Incremental, RksEngine::Global, RksEngine::Summary] {
        out.push((format!("{engine:?}"), check(&rks, ComponentId::new(0), &f, &RksOptions { engine, want_trace: false }).holds));
    }
    for engine in [TernaryEngine::Eager, TernaryEngine::Lazy] {
        out.push((format!("ternary {engine:?}"), ternary::check(&rks, ComponentId::new(0), &f, engine, false).holds));
    }
    out
}

const FORMULAS: [(&str, bool); 4] = [("EF q", false), ("EG !q", true), ("EF (p & EX !p)", true), ("AF p", false)];

#[test]
fn few_exits_all_engines_and_the_context_oracle_agree() {
    for n in 1..=4 {
        let m = rotating_exits(n);
        for (f, expected) in FORMULAS {
            if let Some(v) = contexts::check(&m.build(), 0, &ctl_text::parse(f, &m.props)) {
                assert_eq!(v, Ok(expected), "context oracle, n = {n}, {f}");
            }
            for (engine, holds) in all_engines(&m, f) {
                assert_eq!(holds, expected, "{engine}, n = {n}, {f}");
            }
        }
    }
}

#[test]
fn thirty_exits() {
    let m = rotating_exits(30);
    for (f, expected) in FORMULAS {
        for (engine, holds) in all_engines(&m, f) {
            assert_eq!(holds, expected, "{engine}, {f}");
        }
    }
}

/// 70 exits: the summary engine's exit masks take two words per location. `q` labels only exit
/// `x67` (second word), so its verdicts depend on bits beyond the first word.
#[test]
fn seventy_exits_span_two_mask_words() {
    let n = 70;
    let text = rotating_exits_text(n).replace("  loc x67\n", "  loc x67 q\n");
    let m = Model::parse(&text);
    let cases = [("EF q", true), ("EF (p & EX !p)", true), ("EG !q", true), ("AF q", false), ("EX EF q", true), ("A [ !q U p ]", false)];
    for (f, expected) in cases {
        for (engine, holds) in all_engines(&m, f) {
            assert_eq!(holds, expected, "{engine}, {f}");
        }
    }
}
