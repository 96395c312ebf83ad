//! Greedy minimisation of a failing test case `(model, initial component, formula)`: repeatedly
//! apply the first simplification that keeps the model well-formed and the failure present —
//! replace a subformula by a child or a constant, drop a component, node, exit, edge, return
//! continuation, label or proposition — until none applies.

use super::ctl_text::F;
use super::model::{Kind, Model};
use xmv_rs::ctl::Ctl;
use xmv_rs::ir::PropId;

/// A test case: the model, the index of the initial component, the formula.
#[derive(Clone, Debug)]
pub struct Case {
    pub model: Model,
    pub initial: usize,
    pub formula: F,
}

/// Shrinks `case` while `fails` holds; `fails(case)` must be true on entry.
pub fn shrink(mut case: Case, fails: &mut dyn FnMut(&Case) -> bool) -> Case {
    'outer: loop {
        for cand in candidates(&case) {
            if cand.model.well_formed().is_ok() && fails(&cand) {
                case = cand;
                continue 'outer;
            }
        }
        return case;
    }
}

/// All one-step simplifications of `case`, most aggressive first.
fn candidates(case: &Case) -> Vec<Case> {
    let mut out = Vec::new();
    let with_model = |m: Model, initial: usize| Case { model: m, initial, formula: case.formula.clone() };
    let m = &case.model;
    for c in 0..m.comps.len() {
        if c != case.initial
            && let Some(r) = remove_component(m, c)
        {
            out.push(with_model(r, case.initial - (c < case.initial) as usize));
        }
    }
    for f in formula_variants(&case.formula) {
        out.push(Case { model: m.clone(), initial: case.initial, formula: f });
    }
    for c in 0..m.comps.len() {
        for n in (1..m.comps[c].nodes.len()).rev() {
            out.push(with_model(remove_node(m, c, n), case.initial));
        }
        for i in 0..m.comps[c].edges.len() {
            let mut r = m.clone();
            r.comps[c].edges.remove(i);
            out.push(with_model(r, case.initial));
        }
        for i in 0..m.comps[c].returns.len() {
            let mut r = m.clone();
            r.comps[c].returns.remove(i);
            out.push(with_model(r, case.initial));
        }
        for n in 0..m.comps[c].nodes.len() {
            if let Kind::Loc(labels) = &m.comps[c].nodes[n].kind {
                for i in 0..labels.len() {
                    let mut r = m.clone();
                    if let Kind::Loc(ls) = &mut r.comps[c].nodes[n].kind {
                        ls.remove(i);
                    }
                    out.push(with_model(r, case.initial));
                }
            }
        }
    }
    for p in (0..m.props.len()).rev() {
        if let Some(f) = remove_prop_from_formula(&case.formula, p as u32) {
            let mut r = m.clone();
            r.props.remove(p);
            for c in &mut r.comps {
                for n in &mut c.nodes {
                    if let Kind::Loc(ls) = &mut n.kind {
                        ls.retain(|&l| l != p);
                        for l in ls.iter_mut() {
                            *l -= (*l > p) as usize;
                        }
                    }
                }
            }
            out.push(Case { model: r, initial: case.initial, formula: f });
        }
    }
    out
}

/// Removes component `c` if nothing calls it; renumbers call targets.
fn remove_component(m: &Model, c: usize) -> Option<Model> {
    let called = m.comps.iter().any(|k| k.nodes.iter().any(|n| n.kind == Kind::Call(c)));
    if called {
        return None;
    }
    let mut r = m.clone();
    r.comps.remove(c);
    for k in &mut r.comps {
        for n in &mut k.nodes {
            if let Kind::Call(t) = &mut n.kind {
                *t -= (*t > c) as usize;
            }
        }
    }
    Some(r)
}

/// Removes node `n` (not the entry) of component `c` with its edges and continuations; if it is
/// exit `k`, callers lose their continuations for `k` and later exits shift down.
fn remove_node(m: &Model, c: usize, n: usize) -> Model {
    let mut r = m.clone();
    let renum = |x: usize| x - (x > n) as usize;
    let comp = &mut r.comps[c];
    comp.nodes.remove(n);
    comp.edges.retain(|&(f, t)| f != n && t != n);
    comp.edges.iter_mut().for_each(|e| *e = (renum(e.0), renum(e.1)));
    comp.returns.retain(|&(cl, _, t)| cl != n && t != n);
    comp.returns.iter_mut().for_each(|e| *e = (renum(e.0), e.1, renum(e.2)));
    let exit_k = comp.exits.iter().position(|&e| e == n);
    comp.exits.retain(|&e| e != n);
    comp.exits.iter_mut().for_each(|e| *e = renum(*e));
    if let Some(k) = exit_k {
        for caller in &mut r.comps {
            let calls_c: Vec<bool> = caller.nodes.iter().map(|nd| nd.kind == Kind::Call(c)).collect();
            caller.returns.retain(|&(cl, kk, _)| !(calls_c[cl] && kk == k));
            for e in &mut caller.returns {
                if calls_c[e.0] && e.1 > k {
                    e.1 -= 1;
                }
            }
        }
    }
    r
}

/// Every formula obtained by replacing one subformula by one of its children or a constant.
fn formula_variants(f: &F) -> Vec<F> {
    use Ctl::*;
    let mut out: Vec<F> = children(f).into_iter().cloned().collect();
    if !matches!(f, True | False) {
        out.push(True);
        out.push(False);
    }
    let rebuild1 = |g: F| -> F {
        let b = Box::new(g);
        match f {
            Not(_) => Not(b),
            EX(_) => EX(b),
            AX(_) => AX(b),
            EF(_) => EF(b),
            AF(_) => AF(b),
            EG(_) => EG(b),
            AG(_) => AG(b),
            _ => unreachable!(),
        }
    };
    let rebuild2 = |a: F, b: F| -> F {
        let (a, b) = (Box::new(a), Box::new(b));
        match f {
            And(..) => And(a, b),
            Or(..) => Or(a, b),
            Xor(..) => Xor(a, b),
            Xnor(..) => Xnor(a, b),
            Implies(..) => Implies(a, b),
            Iff(..) => Iff(a, b),
            EU(..) => EU(a, b),
            AU(..) => AU(a, b),
            _ => unreachable!(),
        }
    };
    match children(f).as_slice() {
        [] => {}
        [a] => out.extend(formula_variants(a).into_iter().map(rebuild1)),
        [a, b] => {
            out.extend(formula_variants(a).into_iter().map(|v| rebuild2(v, (*b).clone())));
            out.extend(formula_variants(b).into_iter().map(|v| rebuild2((*a).clone(), v)));
        }
        _ => unreachable!(),
    }
    out
}

fn children(f: &F) -> Vec<&F> {
    use Ctl::*;
    match f {
        True | False | Atom(_) => vec![],
        Not(a) | EX(a) | AX(a) | EF(a) | AF(a) | EG(a) | AG(a) => vec![a],
        EBF(a, _) | ABF(a, _) | EBG(a, _) | ABG(a, _) => vec![a],
        And(a, b) | Or(a, b) | Xor(a, b) | Xnor(a, b) | Implies(a, b) | Iff(a, b) | EU(a, b) | AU(a, b) => vec![a, b],
        EBU(a, b, _) | ABU(a, b, _) => vec![a, b],
    }
}

/// The formula with atoms above `p` renumbered, or `None` if it mentions `p`.
fn remove_prop_from_formula(f: &F, p: u32) -> Option<F> {
    let mut mentions = false;
    let g = f.map_atoms(&mut |&a| {
        let a = a.as_u32();
        mentions |= a == p;
        PropId::from_u32(a - (a > p) as u32)
    });
    (!mentions).then_some(g)
}
