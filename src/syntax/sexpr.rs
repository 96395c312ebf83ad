//! A compact, fully parenthesised rendering of expressions, e.g. `(-> (AG p) q)`: shows how an
//! expression was grouped. Used by tests and debugging; not a pretty-printer for users.

use super::ast::*;

/// Renders `e` as an s-expression.
pub fn sexpr(e: &Expr) -> String {
    let mut out = String::new();
    write(e, &mut out);
    out
}

fn write(e: &Expr, out: &mut String) {
    match &e.kind {
        ExprKind::Bool(b) => out.push_str(if *b { "TRUE" } else { "FALSE" }),
        ExprKind::Int(i) => out.push_str(&i.to_string()),
        ExprKind::Name(n) => out.push_str(n),
        ExprKind::Dot(a, f) => {
            write(a, out);
            out.push('.');
            out.push_str(&f.name);
        }
        ExprKind::Index(a, i) => list(out, "[]", &[a, i]),
        ExprKind::Word { bits, width, signed } => crate::ir::words::write_word(out, *bits, *width, *signed),
        ExprKind::BitSelect(w, h, l) => list(out, "[:]", &[w, h, l]),
        ExprKind::Unary(op, a) => list(out, if *op == UnaryOp::Not { "!" } else { "neg" }, &[a]),
        ExprKind::Binary(op, a, b) => list(out, op.symbol(), &[a, b]),
        ExprKind::Ite(c, a, b) => list(out, "?:", &[c, a, b]),
        ExprKind::Case(branches) => {
            out.push_str("(case");
            for b in branches {
                out.push(' ');
                list(out, ":", &[&b.condition, &b.value]);
            }
            out.push(')');
        }
        ExprKind::Set(items) => list(out, "set", &items.iter().collect::<Vec<_>>()),
        ExprKind::Array(items) => list(out, "array", &items.iter().collect::<Vec<_>>()),
        ExprKind::Range(a, b) => list(out, "..", &[a, b]),
        ExprKind::Next(a) => list(out, "next", &[a]),
        ExprKind::Init(a) => list(out, "init", &[a]),
        ExprKind::Call(f, args) => list(out, &f.name, &args.iter().collect::<Vec<_>>()),
        ExprKind::Ctl(op, a) => list(out, &op.spelling(), &[a]),
        ExprKind::Until { universal, lhs, rhs, bound: None } => list(out, if *universal { "AU" } else { "EU" }, &[lhs, rhs]),
        ExprKind::Until { universal, lhs, rhs, bound: Some(b) } => {
            list(out, &format!("{}BU {}..{}", if *universal { "A" } else { "E" }, b.lo, b.hi), &[lhs, rhs])
        }
        ExprKind::Ltl(op, args) => list(out, op, &args.iter().collect::<Vec<_>>()),
        ExprKind::Error => out.push_str("<error>"),
    }
}

fn list(out: &mut String, head: &str, items: &[&Expr]) {
    out.push('(');
    out.push_str(head);
    for i in items {
        out.push(' ');
        write(i, out);
    }
    out.push(')');
}
