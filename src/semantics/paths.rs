//! Declarations named by a path (NuSMV 2.5's `decl_var_id`): `a.b : boolean;`, `x[3] : 0..7;`,
//! `p.ack := q.out;` in DEFINE.
//!
//! NuSMV names every symbol by its path, so a declared path whose leading components name module
//! instances declares a member of that instance: `left.ack := e;` in a module whose parameter
//! `left` is bound to the instance `e-1` declares `e-1.ack` (the body `e` is still read in the
//! declaring instance). Parameters are followed to their actuals (call by reference), `self`
//! included. What remains of the path after the instances (`SSA.1.ssa`, `x[3]`) is one member
//! named by that text: a "compound" member, which [`compound_key`] finds again from a use such
//! as `C_1_st.SSA.1.ssa` or `x[3]`.
//!
//! The flattener declares such members once the whole instance tree exists (a parameter may be
//! bound to an instance declared later), see [`super::instances`].

use crate::semantics::flattened::{Flattened, InstId, Member};
use crate::syntax::ast::{Expr, ExprKind, UnaryOp};

/// How many parameter hops are followed before giving up (parameter cycles are reported by
/// the resolver, not here).
const MAX_HOPS: usize = 64;

/// Whether a declared name is a path rather than a plain identifier.
pub(crate) fn is_path(name: &str) -> bool {
    name.contains(['.', '['])
}

/// The components of a declared path, each with its separator (`""` for the first, `"."` or
/// `"["`): `a.b[3]` → `[("", "a"), (".", "b"), ("[", "3")]`.
fn components(name: &str) -> Vec<(&str, &str)> {
    let mut out = vec![];
    let mut rest = name;
    let mut sep = "";
    while !rest.is_empty() {
        let end = rest.find(['.', '[']).unwrap_or(rest.len());
        let comp = rest[..end].trim_end_matches(']');
        out.push((sep, comp));
        rest = &rest[end..];
        if let Some(r) = rest.strip_prefix('.') {
            sep = ".";
            rest = r;
        } else if let Some(r) = rest.strip_prefix('[') {
            sep = "[";
            rest = r;
        }
    }
    out
}

fn join(parts: &[(&str, &str)]) -> String {
    let mut s = String::new();
    for (i, (sep, comp)) in parts.iter().enumerate() {
        if i > 0 {
            s.push_str(sep);
        }
        s.push_str(comp);
        if *sep == "[" {
            s.push(']');
        }
    }
    s
}

/// Splits a declared path into the instance it declares a member of and the member's name:
/// leading components are followed while they name instances (through parameters and `self`).
pub(crate) fn declaration_owner(flat: &Flattened, inst: InstId, name: &str) -> (InstId, String) {
    let parts = components(name);
    let mut cur = inst;
    let mut i = 0;
    while i + 1 < parts.len() && parts[i + 1].0 == "." {
        match member_instance(flat, cur, parts[i].1, 0) {
            Some(j) => cur = j,
            None => break,
        }
        i += 1;
    }
    (cur, join(&parts[i..]))
}

/// The instance that the member `name` of `inst` is or stands for.
fn member_instance(flat: &Flattened, inst: InstId, name: &str, hops: usize) -> Option<InstId> {
    let i = flat.instances.get(inst)?;
    match i.members.get(name) {
        Some(&(Member::Instance(j), _)) => Some(j),
        Some(&(Member::Param(k), _)) if hops < MAX_HOPS => instance_of(flat, i.parent?, i.args.get(k)?, hops + 1),
        None if name == "self" => Some(inst),
        _ => None,
    }
}

/// The instance an expression (`self`, `a`, `a.b`, a parameter) denotes, if any.
fn instance_of(flat: &Flattened, inst: InstId, e: &Expr, hops: usize) -> Option<InstId> {
    match &e.kind {
        ExprKind::Name(n) => member_instance(flat, inst, n, hops),
        ExprKind::Dot(base, field) => {
            let j = instance_of(flat, inst, base, hops)?;
            member_instance(flat, j, &field.name, hops)
        }
        _ => None,
    }
}

/// For a use `a.b.c` / `x[3]` in instance `inst` of a system with compound members: the instance
/// and member name it denotes when that member is a compound one (`None` otherwise, and for
/// expressions that are not constant paths).
pub(crate) fn compound_key(flat: &Flattened, inst: InstId, e: &Expr) -> Option<(InstId, Member)> {
    let mut parts: Vec<(&str, String)> = vec![];
    let mut cur = e;
    loop {
        match &cur.kind {
            ExprKind::Dot(base, field) => {
                parts.push((".", field.name.clone()));
                cur = base;
            }
            ExprKind::Index(base, index) => {
                let k = match &index.kind {
                    ExprKind::Int(k) => *k,
                    ExprKind::Unary(UnaryOp::Neg, x) => match x.kind {
                        ExprKind::Int(k) => -k,
                        _ => return None,
                    },
                    _ => return None,
                };
                parts.push(("[", k.to_string()));
                cur = base;
            }
            ExprKind::Name(n) => {
                parts.push(("", n.clone()));
                break;
            }
            _ => return None,
        }
    }
    parts.reverse();
    let parts: Vec<(&str, &str)> = parts.iter().map(|(s, c)| (*s, c.as_str())).collect();
    let mut at = inst;
    for i in 0..parts.len() {
        if i > 0 && parts[i].0 != "." {
            return None;
        }
        let key = join(&parts[i..]);
        if let Some(&(m, _)) = flat.instances[at].members.get(key.as_str()) {
            return (i + 1 < parts.len()).then_some((at, m));
        }
        at = member_instance(flat, at, parts[i].1, 0)?;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn components_and_join_round_trip() {
        for name in ["a", "a.b", "x[3]", "C_1_st.SSA.1.ssa", "m[-2].v", "e-1.ack"] {
            assert_eq!(join(&components(name)), name);
        }
        assert_eq!(components("a.b[3]"), vec![("", "a"), (".", "b"), ("[", "3")]);
    }
}
