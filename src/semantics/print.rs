//! Prints a formula as NuSMV 2.5.4 prints specifications in verdict lines
//! (`-- specification AG (x = 1 -> AF y)  is true`).
//!
//! This follows NuSMV's `PrinterWffCore`: every operator has a priority; a subexpression is
//! parenthesised when its priority is at most its parent's; `&`, `|`, `xor`, `xnor`, `->`,
//! `<->` are always parenthesised (they compare against a raised priority), so redundant user
//! parentheses disappear, `AG (AF p)` keeps its parentheses and `a & b` prints as `(a & b)`.
//! Set literals `{a, b, c}` are unions in NuSMV's parse tree and print as
//! `(a union b) union c`. `E [ a U b ] ` gets NuSMV's spacing, trailing blank included. Long
//! chains of `&`, `|`, `xor`, `xnor`, which the parser balances, print nested to the left as
//! NuSMV parsed them.

use crate::syntax::ast::{BinaryOp, Compute, Expr, ExprKind, UnaryOp};
use crate::syntax::chains;

/// The formula exactly as NuSMV prints it: a top-level `E [ a U b ] ` keeps NuSMV's trailing
/// blank, so its verdict line reads `E [ a U b ]   is true` like NuSMV's (three spaces).
pub(crate) fn formula(e: &Expr) -> String {
    let mut out = String::new();
    print(e, 0, &mut out, 0);
    out
}

/// A `COMPUTE` body as NuSMV prints it: `MIN [ a , (b & c) ] `, each formula printed as the
/// operand of an operator of priority 8 (NuSMV's `MINU`/`MAXU`), the trailing blank included.
pub(crate) fn compute(c: &Compute<Expr>) -> String {
    let mut out = format!("{} [ ", c.extremum.keyword());
    print(&c.from, 8, &mut out, 0);
    out.push_str(" , ");
    print(&c.to, 8, &mut out, 0);
    out.push_str(" ] ");
    out
}

const MAX_DEPTH: usize = 2000;

fn print(e: &Expr, priority: u8, out: &mut String, depth: usize) {
    if depth > MAX_DEPTH {
        out.push_str("...");
        return;
    }
    let d = depth + 1;
    match &e.kind {
        ExprKind::Bool(b) => out.push_str(if *b { "TRUE" } else { "FALSE" }),
        ExprKind::Int(i) => out.push_str(&i.to_string()),
        ExprKind::Name(n) => out.push_str(n),
        ExprKind::Error => out.push_str("<error>"),
        ExprKind::Dot(a, f) => {
            print(a, 0, out, d);
            out.push('.');
            out.push_str(&f.name);
        }
        ExprKind::Word { bits, width, signed } => crate::ir::words::write_word(out, *bits, *width, *signed),
        ExprKind::BitSelect(w, h, l) => {
            // NuSMV throws the word with priority 18, above every operator's.
            print(w, 18, out, d);
            out.push('[');
            print(h, 0, out, d);
            out.push_str(" : ");
            print(l, 0, out, d);
            out.push(']');
        }
        ExprKind::Index(a, i) => {
            print(a, 0, out, d);
            out.push('[');
            print(i, 0, out, d);
            out.push(']');
        }
        ExprKind::Unary(op, a) => {
            let sym = match (op, &a.kind) {
                (UnaryOp::Not, _) => "!",
                // NuSMV writes `- -0sd4_8`, not `--0sd4_8` (which would start a comment).
                (UnaryOp::Neg, ExprKind::Word { bits, width, signed: true }) if (bits >> (width - 1)) & 1 == 1 => "- ",
                (UnaryOp::Neg, _) => "-",
            };
            prefix(sym, 17, a, priority, out, d);
        }
        ExprKind::Ctl(op, a) => {
            // `EBF 1..3 ` as NuSMV's `PrinterWffCore` prints it: the bound, then the operand
            // at the priority of `EX`.
            let sym = format!("{} ", op.spelling());
            prefix(&sym, 8, a, priority, out, d);
        }
        ExprKind::Next(a) | ExprKind::Init(a) => {
            out.push_str(if matches!(e.kind, ExprKind::Next(_)) { "next(" } else { "init(" });
            print(a, 0, out, d);
            out.push(')');
        }
        ExprKind::Until { universal, lhs, rhs, bound } => {
            out.push_str(if *universal { "A" } else { "E" });
            out.push_str(" [ ");
            print(lhs, 8, out, d);
            match bound {
                None => out.push_str(" U "),
                Some(b) => out.push_str(&format!(" BU {}..{} ", b.lo, b.hi)),
            }
            print(rhs, 8, out, d);
            out.push_str(" ] ");
        }
        ExprKind::Binary(op, ..) if let Some(xs) = long_chain(*op, e) => {
            // NuSMV nests `a & b & c …` to the left, `((a & b) & c) …`, and parenthesises each
            // level (the raised priority): written without recursion, as the parser balanced
            // the chain ([`chains::balance`]). A long chain written with other brackets prints
            // nested to the left too (same meaning; NuSMV would keep the brackets).
            let (sym, own, _) = binary_priority(*op);
            out.extend(std::iter::repeat_n('(', xs.len() - 1));
            print(xs[0], own, out, d);
            for x in &xs[1..] {
                out.push(' ');
                out.push_str(sym);
                out.push(' ');
                print(x, own, out, d);
                out.push(')');
            }
        }
        ExprKind::Binary(op, a, b) => {
            let (sym, own, raised) = binary_priority(*op);
            infix(sym, own, raised.max(priority), a, b, out, d);
        }
        ExprKind::Set(xs) => {
            // `{a, b, c}` is `(a union b) union c` in NuSMV's tree.
            print_union_chain(xs, priority, out, d);
        }
        ExprKind::Array(xs) => {
            out.push('[');
            for (i, x) in xs.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                print(x, 0, out, d);
            }
            out.push(']');
        }
        ExprKind::Range(a, b) => infix("..", 3, priority, a, b, out, d),
        ExprKind::Ite(c, a, b) => {
            out.push_str(" (");
            print(c, 0, out, d);
            out.push_str(" ? ");
            print(a, 0, out, d);
            out.push_str(" : ");
            print(b, 0, out, d);
            out.push_str(") ");
        }
        ExprKind::Case(branches) => {
            out.push_str("case\n");
            for b in branches {
                print(&b.condition, 0, out, d);
                out.push_str(" : ");
                print(&b.value, 0, out, d);
                out.push_str(";\n");
            }
            out.push_str("esac");
        }
        // NuSMV 2.5.4 prints `extend(w , 2)` with a blank before the comma.
        ExprKind::Call(f, args) if f.name == "extend" && args.len() == 2 => {
            out.push_str("extend(");
            print(&args[0], 0, out, d);
            out.push_str(" , ");
            print(&args[1], 0, out, d);
            out.push(')');
        }
        ExprKind::Call(f, args) => call(&f.name, args, out, d),
        // NuSMV's parser turns `a V b` into `!(!a U !b)` and `a T b` into `!(!a S !b)`, and prints
        // unary LTL operators with a blank on each side (` G `).
        // PSL (NuSMV's `PrinterPsl.c`): a PSL operator hands its own priority down to its
        // operands and writes its own brackets.
        ExprKind::Ltl(op, args) if is_psl(op) => psl(op, args, priority, out, d),
        ExprKind::Ltl(op, args) => match (op.as_str(), args.as_slice()) {
            ("V" | "T", [a, b]) => {
                let not = |x: &Expr| Expr { kind: ExprKind::Unary(UnaryOp::Not, Box::new(x.clone())), span: x.span };
                let dual = if op == "V" { "U" } else { "S" };
                let inner = Expr { kind: ExprKind::Ltl(dual.to_string(), vec![not(a), not(b)]), span: e.span };
                print(&not(&inner), priority, out, d)
            }
            (_, [a]) => prefix(&format!(" {op} "), 8, a, priority, out, d),
            (_, [a, b]) => infix(op, 8, priority.max(9), a, b, out, d),
            _ => call(op, args, out, d),
        },
    }
}

/// Whether `op` is one of PSL's own operators as the parser names them (`syntax::parser`'s
/// `Builder::psl`).
fn is_psl(op: &str) -> bool {
    matches!(op, "always" | "never" | "eventually!" | "next" | "next!" | "X(" | "X!(" | "forall") || op.starts_with("until") || op.starts_with("before")
}

/// A PSL operator as NuSMV 2.5.4 prints it: `always (p)`, `next! (p)`, `X(p)`, `(p until! q)`,
/// `( forall i in {2, 1} : p )` (a set's values in reverse, as NuSMV's list holds them).
fn psl(op: &str, args: &[Expr], priority: u8, out: &mut String, d: usize) {
    match (op, args) {
        ("X(" | "X!(", [a]) => {
            out.push_str(op);
            print(a, priority, out, d);
            out.push(')');
        }
        ("forall", [var, values, body]) => {
            out.push_str("( forall ");
            print(var, priority, out, d);
            out.push_str(" in ");
            match &values.kind {
                ExprKind::Range(lo, hi) => {
                    out.push('{');
                    print(lo, priority, out, d);
                    out.push(':');
                    print(hi, priority, out, d);
                    out.push('}');
                }
                ExprKind::Set(xs) => {
                    out.push('{');
                    for (i, x) in xs.iter().rev().enumerate() {
                        if i > 0 {
                            out.push_str(", ");
                        }
                        print(x, priority, out, d);
                    }
                    out.push('}');
                }
                _ => print(values, priority, out, d),
            }
            out.push_str(" : ");
            print(body, priority, out, d);
            out.push_str(" )");
        }
        (_, [a]) => {
            out.push_str(op);
            out.push_str(" (");
            print(a, priority, out, d);
            out.push(')');
        }
        (_, [a, b]) => binary(op, a, b, priority, true, out, d),
        _ => call(op, args, out, d),
    }
}

/// The operands of a chain of more than [`chains::BALANCE_MIN_OPERANDS`] operands of `op`.
fn long_chain(op: BinaryOp, e: &Expr) -> Option<Vec<&Expr>> {
    if chains::is_chain_op(op) { chains::balanced_operands(op, e) } else { None }
}

fn call(name: &str, args: &[Expr], out: &mut String, d: usize) {
    out.push_str(name);
    out.push('(');
    for (i, a) in args.iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        print(a, 0, out, d);
    }
    out.push(')');
}

fn prefix(sym: &str, own: u8, a: &Expr, priority: u8, out: &mut String, d: usize) {
    let paren = own <= priority;
    if paren {
        out.push('(');
    }
    out.push_str(sym);
    print(a, own, out, d);
    if paren {
        out.push(')');
    }
}

fn infix(sym: &str, own: u8, priority: u8, a: &Expr, b: &Expr, out: &mut String, d: usize) {
    binary(sym, a, b, own, own <= priority, out, d);
}

/// `a sym b`, the operands printed at `operands` priority, in brackets when `paren`.
fn binary(sym: &str, a: &Expr, b: &Expr, operands: u8, paren: bool, out: &mut String, d: usize) {
    if paren {
        out.push('(');
    }
    print(a, operands, out, d);
    out.push(' ');
    out.push_str(sym);
    out.push(' ');
    print(b, operands, out, d);
    if paren {
        out.push(')');
    }
}

fn print_union_chain(xs: &[Expr], priority: u8, out: &mut String, d: usize) {
    match xs {
        [] => out.push_str("{}"),
        [x] => print(x, priority, out, d),
        [init @ .., last] => {
            let paren = 11 <= priority;
            if paren {
                out.push('(');
            }
            print_union_chain(init, 11, out, d);
            out.push_str(" union ");
            print(last, 11, out, d);
            if paren {
                out.push(')');
            }
        }
    }
}

/// `(symbol, own priority, raised priority)` of a binary operator (NuSMV's `pr_tmp`/`priority`).
fn binary_priority(op: BinaryOp) -> (&'static str, u8, u8) {
    use BinaryOp::*;
    match op {
        Implies => ("->", 4, 5),
        Iff => ("<->", 4, 5),
        Xor => ("xor", 4, 5),
        Xnor => ("xnor", 4, 5),
        Or => ("|", 5, 6),
        And => ("&", 6, 7),
        Eq => ("=", 9, 0),
        Ne => ("!=", 9, 0),
        Lt => ("<", 9, 0),
        Gt => (">", 9, 0),
        Le => ("<=", 9, 0),
        Ge => (">=", 9, 0),
        In => ("in", 10, 0),
        Union => ("union", 11, 0),
        Shl => ("<<", 12, 0),
        Shr => (">>", 12, 0),
        Add => ("+", 13, 0),
        Sub => ("-", 13, 0),
        Mod => ("mod", 14, 0),
        Mul => ("*", 15, 0),
        Div => ("/", 15, 0),
        Concat => ("::", 16, 0),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::source::Span;

    fn name(n: usize) -> Expr {
        Expr { kind: ExprKind::Name(format!("p{n}")), span: Span::new(0, 0) }
    }

    fn and(a: Expr, b: Expr) -> Expr {
        Expr { kind: ExprKind::Binary(BinaryOp::And, Box::new(a), Box::new(b)), span: Span::new(0, 0) }
    }

    /// The chain `p0 & p1 & … & p(n-1)` as the parser leaves it: nested to the left, balanced
    /// beyond [`chains::BALANCE_MIN_OPERANDS`] operands.
    fn chain(n: usize) -> Expr {
        let mut e = (1..n).fold(name(0), |acc, i| and(acc, name(i)));
        chains::balance(&mut e);
        e
    }

    /// NuSMV's text of that chain: `((p0 & p1) & p2) …`.
    fn nusmv(n: usize) -> String {
        let mut s = "(".repeat(n - 1) + "p0";
        for i in 1..n {
            s += &format!(" & p{i})");
        }
        s
    }

    #[test]
    fn chains_print_nested_to_the_left_whether_or_not_the_parser_balanced_them() {
        for n in [2, 3, chains::BALANCE_MIN_OPERANDS, chains::BALANCE_MIN_OPERANDS + 1, 120, 5000] {
            assert_eq!(formula(&chain(n)), nusmv(n), "{n} operands");
        }
        // Inside an operator, and as an operand of another chain operator.
        let ag = Expr { kind: ExprKind::Ctl(crate::syntax::ast::CtlOp::AG, Box::new(chain(100))), span: Span::new(0, 0) };
        assert_eq!(formula(&ag), format!("AG {}", nusmv(100)));
        let or = Expr { kind: ExprKind::Binary(BinaryOp::Or, Box::new(chain(70)), Box::new(name(7))), span: Span::new(0, 0) };
        assert_eq!(formula(&or), format!("({} | p7)", nusmv(70)));
    }
}
