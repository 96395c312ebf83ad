//! Operator precedence and associativity of the parser (NuSMV 2.6 levels), checked through the
//! s-expression rendering of `SPEC` bodies.

use xmv_rs::source::SourceFile;
use xmv_rs::syntax::ast::{Section, SpecKind};
use xmv_rs::syntax::{parse, sexpr::sexpr};

/// Parses `MODULE main SPEC <expr>` and renders the spec's expression.
fn grouping(expr: &str) -> String {
    let file = SourceFile::new("t.smv", format!("MODULE main\nSPEC {expr}\n"));
    let (program, diags) = parse(&file);
    assert!(diags.is_empty(), "{expr}: {diags:?}");
    match &program.modules[0].sections[0] {
        Section::Spec(s) => {
            assert_eq!(s.kind, SpecKind::Ctl);
            sexpr(s.expr.as_ref().expect("CTL spec has a body"))
        }
        other => panic!("not a spec: {other:?}"),
    }
}

#[test]
fn not_binds_tighter_than_relations() {
    assert_eq!(grouping("! x = 1"), "(= (! x) 1)");
    assert_eq!(grouping("!a & b"), "(& (! a) b)");
}

#[test]
fn ctl_unary_operators_take_a_relational_operand() {
    assert_eq!(grouping("AG p -> q"), "(-> (AG p) q)");
    assert_eq!(grouping("AG x = 1"), "(AG (= x 1))");
    assert_eq!(grouping("EX p & q"), "(& (EX p) q)");
    assert_eq!(grouping("! EX a"), "(! (EX a))");
    assert_eq!(grouping("AG AF p"), "(AG (AF p))");
    assert_eq!(grouping("AG (p -> AF q)"), "(AG (-> p (AF q)))");
}

#[test]
fn arithmetic_levels() {
    assert_eq!(grouping("a + b * c = d"), "(= (+ a (* b c)) d)");
    assert_eq!(grouping("a - b - c = 0"), "(= (- (- a b) c) 0)");
    assert_eq!(grouping("-a * b = 0"), "(= (* (neg a) b) 0)");
    assert_eq!(grouping("a mod 3 + 1 < 2"), "(< (+ (mod a 3) 1) 2)");
    assert_eq!(grouping("a << 1 + 1 = 4"), "(= (<< a (+ 1 1)) 4)");
    assert_eq!(grouping("a / 2 * 2 = a"), "(= (* (/ a 2) 2) a)");
}

#[test]
fn set_levels() {
    assert_eq!(grouping("x in {1, 2} union 3..4"), "(in x (union (set 1 2) (.. 3 4)))");
    assert_eq!(grouping("x in y = TRUE"), "(= (in x y) TRUE)");
}

#[test]
fn boolean_levels_and_associativity() {
    assert_eq!(grouping("a & b | c & d"), "(| (& a b) (& c d))");
    assert_eq!(grouping("a | b xor c xnor d"), "(xnor (xor (| a b) c) d)");
    assert_eq!(grouping("a -> b -> c"), "(-> a (-> b c))");
    assert_eq!(grouping("a <-> b <-> c"), "(<-> (<-> a b) c)");
    assert_eq!(grouping("a <-> b -> c"), "(-> (<-> a b) c)");
    assert_eq!(grouping("a -> b <-> c"), "(-> a (<-> b c))");
}

#[test]
fn conditional_expression() {
    assert_eq!(grouping("a ? b : c ? d : e"), "(?: a b (?: c d e))");
    assert_eq!(grouping("a | b ? c : d <-> e"), "(<-> (?: (| a b) c d) e)");
}

#[test]
fn until_and_paths() {
    assert_eq!(grouping("E [ a U b ]"), "(EU a b)");
    assert_eq!(grouping("A [ a & b U c -> d ]"), "(AU (& a b) (-> c d))");
    assert_eq!(grouping("!E[a U b] | AX c"), "(| (! (EU a b)) (AX c))");
}

#[test]
fn postfix_and_names() {
    assert_eq!(grouping("p1.state = critical"), "(= p1.state critical)");
    assert_eq!(grouping("a[i + 1].b = 3"), "(= ([] a (+ i 1)).b 3)");
    assert_eq!(grouping("!a.b"), "(! a.b)");
    assert_eq!(grouping("self.x"), "self.x");
    assert_eq!(grouping("x-1 = x#2"), "(= x-1 x#2)");
    assert_eq!(grouping("a->b"), "(-> a b)");
    assert_eq!(grouping("AGx & EXIT"), "(& AGx EXIT)");
    assert_eq!(grouping("init_x & inx & EXITED"), "(& (& init_x inx) EXITED)");
}

#[test]
fn functions_and_case() {
    assert_eq!(grouping("abs(x) + max(a, b) = toint(p)"), "(= (+ (abs x) (max a b)) (toint p))");
    assert_eq!(grouping("case a : 1; TRUE : 2; esac = 1"), "(= (case (: a 1) (: TRUE 2)) 1)");
    assert_eq!(grouping("next(x) = x + 1"), "(= (next x) (+ x 1))");
}

#[test]
fn ltl_operators_are_kept_as_ltl() {
    assert_eq!(grouping("X p U q -> F p"), "(-> (U (X p) q) (F p))");
    assert_eq!(grouping("G (p -> F q)"), "(G (-> p (F q)))");
}
