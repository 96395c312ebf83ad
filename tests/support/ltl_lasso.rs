//! Independent LTL semantics on lasso words, for tests only (no code shared with `check::ltl`):
//! random formula generators over every NuSMV LTL operator (past over future ones included), the evaluation of a formula at
//! position 0 of the infinite word `u v^ω` (future operators by fixpoints around the lasso, past
//! operators by their definitions over the actual prefix), and a brute-force enumerator of the
//! fair lassos of a small Kripke structure.

use super::oracle::Model;
use super::random::{NUM_LABELS, Rng};
use xmv_rs::ir::PropId;
use xmv_rs::ltl::{Ltl, LtlOp};

/// A random LTL formula of depth ≤ `depth` over atoms `0..NUM_LABELS`; past operators only when
/// `past`, and then only over pure-past/propositional operands (what the checker supports).
pub fn formula(rng: &mut Rng, depth: usize, past: bool) -> Ltl<PropId> {
    if depth == 0 || rng.chance(20) {
        return match rng.below(10) {
            0 => Ltl::True,
            1 => Ltl::False,
            _ => Ltl::Atom(PropId::new(rng.below(NUM_LABELS))),
        };
    }
    if past && rng.chance(25) {
        return past_formula(rng, depth);
    }
    let b = |rng: &mut Rng| Box::new(formula(rng, depth - 1, past));
    match rng.below(13) {
        0 => Ltl::Not(b(rng)),
        1 => Ltl::And(b(rng), b(rng)),
        2 => Ltl::Or(b(rng), b(rng)),
        3 => Ltl::Implies(b(rng), b(rng)),
        4 => Ltl::Iff(b(rng), b(rng)),
        5 => Ltl::Xor(b(rng), b(rng)),
        6 => Ltl::Unary(LtlOp::X, b(rng)),
        7 => Ltl::Unary(LtlOp::G, b(rng)),
        8 => Ltl::Unary(LtlOp::F, b(rng)),
        9 | 10 => Ltl::Binary(LtlOp::U, b(rng), b(rng)),
        11 => Ltl::Binary(LtlOp::V, b(rng), b(rng)),
        _ => Ltl::Xnor(b(rng), b(rng)),
    }
}

/// A random LTL formula of depth ≤ `depth` whose past operators may have future operands
/// (`O (F p)`, `Y (p U q)`): every operator over every kind of operand.
#[allow(dead_code)]
pub fn mixed_formula(rng: &mut Rng, depth: usize) -> Ltl<PropId> {
    if depth == 0 || rng.chance(15) {
        return match rng.below(10) {
            0 => Ltl::True,
            1 => Ltl::False,
            _ => Ltl::Atom(PropId::new(rng.below(NUM_LABELS))),
        };
    }
    let b = |rng: &mut Rng| Box::new(mixed_formula(rng, depth - 1));
    match rng.below(17) {
        0 => Ltl::Not(b(rng)),
        1 => Ltl::And(b(rng), b(rng)),
        2 => Ltl::Or(b(rng), b(rng)),
        3 => Ltl::Implies(b(rng), b(rng)),
        4 => Ltl::Iff(b(rng), b(rng)),
        5 => Ltl::Unary(LtlOp::X, b(rng)),
        6 => Ltl::Unary(LtlOp::G, b(rng)),
        7 => Ltl::Unary(LtlOp::F, b(rng)),
        8 => Ltl::Binary(LtlOp::U, b(rng), b(rng)),
        9 => Ltl::Binary(LtlOp::V, b(rng), b(rng)),
        10 => Ltl::Unary(LtlOp::Y, b(rng)),
        11 => Ltl::Unary(LtlOp::Z, b(rng)),
        12 => Ltl::Unary(LtlOp::H, b(rng)),
        13 => Ltl::Unary(LtlOp::O, b(rng)),
        14 => Ltl::Binary(LtlOp::S, b(rng), b(rng)),
        15 => Ltl::Binary(LtlOp::T, b(rng), b(rng)),
        _ => Ltl::Xor(b(rng), b(rng)),
    }
}

fn past_formula(rng: &mut Rng, depth: usize) -> Ltl<PropId> {
    if depth == 0 || rng.chance(25) {
        return Ltl::Atom(PropId::new(rng.below(NUM_LABELS)));
    }
    let b = |rng: &mut Rng| Box::new(past_formula(rng, depth - 1));
    match rng.below(9) {
        0 => Ltl::Not(b(rng)),
        1 => Ltl::And(b(rng), b(rng)),
        2 => Ltl::Unary(LtlOp::Y, b(rng)),
        3 => Ltl::Unary(LtlOp::Z, b(rng)),
        4 => Ltl::Unary(LtlOp::H, b(rng)),
        5 => Ltl::Unary(LtlOp::O, b(rng)),
        6 => Ltl::Binary(LtlOp::S, b(rng), b(rng)),
        7 => Ltl::Binary(LtlOp::T, b(rng), b(rng)),
        _ => Ltl::Or(b(rng), b(rng)),
    }
}

/// Nesting depth of past operators (the lasso is unrolled that many extra times so that past
/// values in the last copy of the loop are those of every later copy).
fn past_depth(f: &Ltl<PropId>) -> usize {
    match f {
        Ltl::True | Ltl::False | Ltl::Atom(_) => 0,
        Ltl::Not(a) => past_depth(a),
        Ltl::Unary(op, a) => past_depth(a) + op.is_past() as usize,
        Ltl::Binary(op, a, b) => past_depth(a).max(past_depth(b)) + op.is_past() as usize,
        Ltl::And(a, b) | Ltl::Or(a, b) | Ltl::Xor(a, b) | Ltl::Xnor(a, b) | Ltl::Implies(a, b) | Ltl::Iff(a, b) => past_depth(a).max(past_depth(b)),
    }
}

/// Whether the infinite word of states `prefix · cycle^ω` satisfies `f` at its first position.
pub fn holds_on_lasso(m: &Model, f: &Ltl<PropId>, prefix: &[usize], cycle: &[usize]) -> bool {
    let copies = past_depth(f) + 2;
    let mut word: Vec<usize> = prefix.to_vec();
    for _ in 0..copies {
        word.extend_from_slice(cycle);
    }
    let loop_start = prefix.len() + (copies - 1) * cycle.len();
    eval(m, f, &word, loop_start)[0]
}

/// Values of `f` at every position of the lasso `word` (the successor of the last position is
/// `loop_start`).
fn eval(m: &Model, f: &Ltl<PropId>, word: &[usize], loop_start: usize) -> Vec<bool> {
    let n = word.len();
    let succ = |i: usize| if i + 1 == n { loop_start } else { i + 1 };
    let two = |a: &Ltl<PropId>, b: &Ltl<PropId>| (eval(m, a, word, loop_start), eval(m, b, word, loop_start));
    let zip = |a: &Ltl<PropId>, b: &Ltl<PropId>, op: fn(bool, bool) -> bool| {
        let (x, y) = two(a, b);
        x.iter().zip(&y).map(|(&p, &q)| op(p, q)).collect()
    };
    match f {
        Ltl::True => vec![true; n],
        Ltl::False => vec![false; n],
        Ltl::Atom(p) => word.iter().map(|&s| m.props[p.index()][s]).collect(),
        Ltl::Not(a) => eval(m, a, word, loop_start).iter().map(|v| !v).collect(),
        Ltl::And(a, b) => zip(a, b, |p, q| p && q),
        Ltl::Or(a, b) => zip(a, b, |p, q| p || q),
        Ltl::Xor(a, b) => zip(a, b, |p, q| p != q),
        Ltl::Xnor(a, b) | Ltl::Iff(a, b) => zip(a, b, |p, q| p == q),
        Ltl::Implies(a, b) => zip(a, b, |p, q| !p || q),
        Ltl::Unary(LtlOp::X, a) => {
            let x = eval(m, a, word, loop_start);
            (0..n).map(|i| x[succ(i)]).collect()
        }
        Ltl::Unary(LtlOp::F, a) => until(&vec![true; n], &eval(m, a, word, loop_start), succ),
        Ltl::Unary(LtlOp::G, a) => {
            let x = eval(m, a, word, loop_start);
            let not_x: Vec<bool> = x.iter().map(|v| !v).collect();
            until(&vec![true; n], &not_x, succ).iter().map(|v| !v).collect()
        }
        Ltl::Binary(LtlOp::U, a, b) => {
            let (x, y) = two(a, b);
            until(&x, &y, succ)
        }
        Ltl::Binary(LtlOp::V, a, b) => {
            let (x, y) = two(a, b);
            let (nx, ny): (Vec<bool>, Vec<bool>) = (x.iter().map(|v| !v).collect(), y.iter().map(|v| !v).collect());
            until(&nx, &ny, succ).iter().map(|v| !v).collect()
        }
        // Past operators: by definition over the positions before i.
        Ltl::Unary(LtlOp::Y, a) => {
            let x = eval(m, a, word, loop_start);
            (0..n).map(|i| i > 0 && x[i - 1]).collect()
        }
        Ltl::Unary(LtlOp::Z, a) => {
            let x = eval(m, a, word, loop_start);
            (0..n).map(|i| i == 0 || x[i - 1]).collect()
        }
        Ltl::Unary(LtlOp::H, a) => {
            let x = eval(m, a, word, loop_start);
            (0..n).map(|i| x[..=i].iter().all(|&v| v)).collect()
        }
        Ltl::Unary(LtlOp::O, a) => {
            let x = eval(m, a, word, loop_start);
            (0..n).map(|i| x[..=i].iter().any(|&v| v)).collect()
        }
        Ltl::Binary(LtlOp::S, a, b) => {
            let (x, y) = two(a, b);
            // some j ≤ i with b at j and a at every position after j up to i
            (0..n).map(|i| (0..=i).any(|j| y[j] && x[j + 1..=i].iter().all(|&v| v))).collect()
        }
        Ltl::Binary(LtlOp::T, a, b) => {
            let (x, y) = two(a, b);
            // b at every j ≤ i unless a at some position k with j ≤ k ≤ i... : a T b = !(!a S !b)
            (0..n).map(|i| !(0..=i).any(|j| !y[j] && x[j + 1..=i].iter().all(|&v| !v))).collect()
        }
        Ltl::Unary(..) | Ltl::Binary(..) => panic!("malformed formula {f:?}"),
    }
}

/// Least fixpoint of `u(i) = b(i) ∨ (a(i) ∧ u(succ(i)))`.
fn until(a: &[bool], b: &[bool], succ: impl Fn(usize) -> usize) -> Vec<bool> {
    let mut u = b.to_vec();
    loop {
        let mut changed = false;
        for i in (0..u.len()).rev() {
            if !u[i] && a[i] && u[succ(i)] {
                u[i] = true;
                changed = true;
            }
        }
        if !changed {
            return u;
        }
    }
}

/// Whether `prefix · cycle` is a path of `m` from an initial state whose cycle closes
/// (last → first of `cycle`) and visits every fairness set.
pub fn is_fair_lasso(m: &Model, prefix: &[usize], cycle: &[usize]) -> bool {
    let path: Vec<usize> = prefix.iter().chain(cycle).copied().collect();
    let (Some(&first), Some(&last), Some(&back)) = (path.first(), path.last(), cycle.first()) else { return false };
    m.init.contains(&first)
        && path.windows(2).all(|w| m.succ[w[0]].contains(&w[1]))
        && m.succ[last].contains(&back)
        && m.fairness.iter().all(|&p| cycle.iter().any(|&s| m.props[p][s]))
}

/// Some fair lasso of at most `max_len` states (prefix and cycle) violating `f`.
pub fn find_violation(m: &Model, f: &Ltl<PropId>, max_len: usize) -> Option<(Vec<usize>, Vec<usize>)> {
    let mut path = vec![];
    for &s in &m.init {
        path.push(s);
        if let Some(found) = extend(m, f, &mut path, max_len) {
            return Some(found);
        }
        path.pop();
    }
    None
}

fn extend(m: &Model, f: &Ltl<PropId>, path: &mut Vec<usize>, max_len: usize) -> Option<(Vec<usize>, Vec<usize>)> {
    let last = *path.last()?;
    for j in 0..path.len() {
        if m.succ[last].contains(&path[j]) {
            let (prefix, cycle) = path.split_at(j);
            if is_fair_lasso(m, prefix, cycle) && !holds_on_lasso(m, f, prefix, cycle) {
                return Some((prefix.to_vec(), cycle.to_vec()));
            }
        }
    }
    if path.len() == max_len {
        return None;
    }
    for &t in &m.succ[last].clone() {
        path.push(t);
        if let Some(found) = extend(m, f, path, max_len) {
            return Some(found);
        }
        path.pop();
    }
    None
}
