//! An exact but naive checker for recursive RKSs, for the cases a bounded unfolding cannot
//! decide (infinite recursion). It enumerates *every* call context instead of the reachable
//! ones, uses plain Booleans instead of ternary values, and solves each temporal level by Kleene
//! iteration — written from Finis 2012 Lemma 3.3.3 without looking at the engines.
//!
//! Semantics: the truth of a subformula at a configuration `(σ, l)` depends only on `l` and the
//! context of `σ`: for every exit `k` of the current component and every "context variable" `v`,
//! whether some continuation of the top call for exit `k` satisfies `v` (Finis Lemma 3.3.3,
//! several exits as in Dubslaff et al.). The context variables of a core formula are the child of
//! each `EX` and every `EU`/`EG` node. Values are computed per (component, context, location) for
//! all contexts, subformula by subformula (children first); a call's callee context is induced
//! from the caller's values at the call's continuations. `EU` is a least and `EG` a greatest
//! fixpoint over the whole finite system (through calls, so infinite recursion is covered). The
//! bottom of the stack is a virtual caller whose continuation for exit `k` loops forever: label-
//! free under the trap rule, with exit `k`'s labels under the loop rule.
//!
//! Each Kleene iteration is asserted to be monotone (values only rise for `EU`, only fall for
//! `EG`); a violation is reported as an oracle failure rather than an answer. Only applicable
//! when every component has at most [`MAX_BITS`] context bits (exits × context variables).

use super::ctl_text::F;
use super::oracle::Config;
use xmv_rs::ctl::Ctl;
use xmv_rs::explicit::rks::{NodeId, RecursiveKripkeStructure};
use xmv_rs::syntax::ast::TerminationRule;

pub const MAX_BITS: usize = 10;

/// Core operators; children always precede their parent in the node vector.
#[derive(Clone, Copy, Debug)]
enum Op {
    True,
    Atom(u32),
    Not(usize),
    And(usize, usize),
    Or(usize, usize),
    EX(usize),
    EU(usize, usize),
    EG(usize),
}

/// Reduces `f` to core operators, appending nodes; returns the root's index.
fn reduce(f: &F, ops: &mut Vec<Op>) -> usize {
    use Ctl::*;
    let push = |op: Op, ops: &mut Vec<Op>| {
        ops.push(op);
        ops.len() - 1
    };
    match f {
        True => push(Op::True, ops),
        False => {
            let t = push(Op::True, ops);
            push(Op::Not(t), ops)
        }
        Atom(p) => push(Op::Atom(p.as_u32()), ops),
        Not(a) => {
            let a = reduce(a, ops);
            push(Op::Not(a), ops)
        }
        And(a, b) => {
            let (a, b) = (reduce(a, ops), reduce(b, ops));
            push(Op::And(a, b), ops)
        }
        Or(a, b) => {
            let (a, b) = (reduce(a, ops), reduce(b, ops));
            push(Op::Or(a, b), ops)
        }
        Implies(a, b) => reduce(&Or(Box::new(Not(a.clone())), b.clone()), ops),
        Iff(a, b) | Xnor(a, b) => {
            let (a, b) = (reduce(a, ops), reduce(b, ops));
            let both = push(Op::And(a, b), ops);
            let (na, nb) = (push(Op::Not(a), ops), push(Op::Not(b), ops));
            let neither = push(Op::And(na, nb), ops);
            push(Op::Or(both, neither), ops)
        }
        Xor(a, b) => reduce(&Not(Box::new(Iff(a.clone(), b.clone()))), ops),
        EX(a) => {
            let a = reduce(a, ops);
            push(Op::EX(a), ops)
        }
        AX(a) => reduce(&Not(Box::new(EX(Box::new(Not(a.clone()))))), ops),
        EF(a) => reduce(&EU(Box::new(True), a.clone()), ops),
        AG(a) => reduce(&Not(Box::new(EF(Box::new(Not(a.clone()))))), ops),
        EG(a) => {
            let a = reduce(a, ops);
            push(Op::EG(a), ops)
        }
        AF(a) => reduce(&Not(Box::new(EG(Box::new(Not(a.clone()))))), ops),
        EU(a, b) => {
            let (a, b) = (reduce(a, ops), reduce(b, ops));
            push(Op::EU(a, b), ops)
        }
        // A[a U b] = ¬E[¬b U ¬a ∧ ¬b] ∧ ¬EG ¬b
        AU(a, b) => {
            let (na, nb) = (Not(a.clone()), Not(b.clone()));
            let eu = EU(Box::new(nb.clone()), Box::new(And(Box::new(na), Box::new(nb.clone()))));
            let eg = EG(Box::new(nb));
            reduce(&And(Box::new(Not(Box::new(eu))), Box::new(Not(Box::new(eg)))), ops)
        }
        EBF(..) | ABF(..) | EBG(..) | ABG(..) | EBU(..) | ABU(..) => reduce(&super::ctl_text::expand_bounded(f).expect("a bounded operator"), ops),
    }
}

struct Checker<'a> {
    rks: &'a RecursiveKripkeStructure,
    ops: Vec<Op>,
    /// `var_of[node]`: the node's context-variable index, if it is one.
    var_of: Vec<Option<usize>>,
    vars: usize,
    /// `vals[node][comp][ctx * num_nodes + node_of_comp]`
    vals: Vec<Vec<Vec<bool>>>,
}

impl Checker<'_> {
    fn contexts(&self, c: usize) -> usize {
        1 << (self.rks.components[c].exits.len() * self.vars)
    }
    fn bit(&self, ctx: usize, k: usize, var: usize) -> bool {
        ctx >> (k * self.vars + var) & 1 == 1
    }
    fn index(&self, c: usize, ctx: usize, n: u32) -> usize {
        ctx * self.rks.components[c].num_nodes as usize + n as usize
    }

    /// The callee context induced by call `call` of component `c` under context `ctx`, from the
    /// values of the context variables before node `upto` (later ones are not computed yet and
    /// read as false; no value up to `upto` depends on them) and, for an `EU`/`EG` node `upto`,
    /// its own current values `cur` during its iteration.
    fn induced(&self, c: usize, ctx: usize, call: u32, upto: usize, cur: &[Vec<bool>]) -> usize {
        let comp = &self.rks.components[c];
        let callee = comp.call_target[call as usize].index();
        let mut out = 0;
        for k in 0..self.rks.components[callee].exits.len() {
            for (node, var) in self.var_of.iter().enumerate().take(upto + 1) {
                let Some(j) = *var else { continue };
                if node == upto && !matches!(self.ops[upto], Op::EU(..) | Op::EG(_)) {
                    continue;
                }
                let vals = if node == upto { cur } else { &self.vals[node] };
                if comp.returns(NodeId::from_u32(call), k).iter().any(|&r| vals[c][self.index(c, ctx, r.as_u32())]) {
                    out |= 1 << (k * self.vars + j);
                }
            }
        }
        out
    }

    /// Value of `node` at successor `n` of a location in component `c` under `ctx`: at a call,
    /// the callee's entry under the induced context.
    fn at(&self, node: usize, c: usize, ctx: usize, n: u32, upto: usize, cur: &[Vec<bool>]) -> bool {
        let comp = &self.rks.components[c];
        let vals = if node == upto { cur } else { &self.vals[node] };
        if comp.is_call(NodeId::from_u32(n)) {
            let callee = comp.call_target[n as usize].index();
            vals[callee][self.index(callee, self.induced(c, ctx, n, upto, cur), 0)]
        } else {
            vals[c][self.index(c, ctx, n)]
        }
    }

    /// One application of the level's equations to `cur` (for node `i`).
    fn step(&self, i: usize, cur: &[Vec<bool>]) -> Vec<Vec<bool>> {
        let mut next = cur.to_vec();
        for (c, comp) in self.rks.components.iter().enumerate() {
            for ctx in 0..self.contexts(c) {
                for l in 0..comp.num_nodes {
                    if comp.is_call(NodeId::from_u32(l)) {
                        continue;
                    }
                    let ix = self.index(c, ctx, l);
                    let exit = comp.exits.iter().position(|&e| e == NodeId::from_u32(l));
                    // "Some successor satisfies `v`" for context variable node `v`.
                    let some_next = |v: usize| match exit {
                        Some(k) => self.bit(ctx, k, self.var_of[v].expect("a context variable")),
                        None => comp.succ.neighbours(NodeId::from_u32(l)).iter().any(|&n| self.at(v, c, ctx, n.as_u32(), i, cur)),
                    };
                    let val = |v: usize| self.vals[v][c][ix];
                    next[c][ix] = match self.ops[i] {
                        Op::True => true,
                        Op::Atom(p) => comp.props[p as usize].contains(l as usize),
                        Op::Not(a) => !val(a),
                        Op::And(a, b) => val(a) && val(b),
                        Op::Or(a, b) => val(a) || val(b),
                        Op::EX(a) => some_next(a),
                        Op::EU(a, b) => val(b) || (val(a) && some_next(i)),
                        Op::EG(a) => val(a) && some_next(i),
                    };
                }
            }
        }
        next
    }

    fn solve(&mut self, i: usize) -> Result<(), String> {
        let greatest = matches!(self.ops[i], Op::EG(_));
        let mut cur: Vec<Vec<bool>> =
            (0..self.rks.components.len()).map(|c| vec![greatest; self.contexts(c) * self.rks.components[c].num_nodes as usize]).collect();
        if !matches!(self.ops[i], Op::EU(..) | Op::EG(_)) {
            cur = self.step(i, &cur);
        } else {
            loop {
                let next = self.step(i, &cur);
                if next == cur {
                    break;
                }
                let monotone = cur.iter().flatten().zip(next.iter().flatten()).all(|(&o, &n)| if greatest { n <= o } else { n >= o });
                if !monotone {
                    return Err(format!("context oracle: non-monotone iteration at {:?}", self.ops[i]));
                }
                cur = next;
            }
        }
        self.vals[i] = cur;
        Ok(())
    }

    /// The value of node `i` at the looping continuation below the initial frame (trap: no
    /// labels; loop: the labels of the exit).
    fn bottom(&self, i: usize, labels: &dyn Fn(u32) -> bool) -> bool {
        match self.ops[i] {
            Op::True => true,
            Op::Atom(p) => labels(p),
            Op::Not(a) => !self.bottom(a, labels),
            Op::And(a, b) => self.bottom(a, labels) && self.bottom(b, labels),
            Op::Or(a, b) => self.bottom(a, labels) || self.bottom(b, labels),
            Op::EX(a) | Op::EG(a) => self.bottom(a, labels),
            Op::EU(_, b) => self.bottom(b, labels),
        }
    }
}

/// The verdict of `f` at `([c_in], entry(initial))`, or `None` if some component would need more
/// than [`MAX_BITS`] context bits. `Err` if an iteration was not monotone (an oracle defect).
pub fn check(rks: &RecursiveKripkeStructure, initial: u32, f: &F) -> Option<Result<bool, String>> {
    check_at(rks, f, &Config::At { stack: Vec::new(), comp: initial, node: 0 })
}

/// [`check`] at any configuration reachable from the entry of the bottom frame's component: the
/// context of each frame is induced, bottom up, from the values in the frame below.
pub fn check_at(rks: &RecursiveKripkeStructure, f: &F, conf: &Config) -> Option<Result<bool, String>> {
    let mut ops = Vec::new();
    let root = reduce(f, &mut ops);
    let mut var_of = vec![None; ops.len()];
    let mut vars = 0;
    for (i, op) in ops.iter().enumerate() {
        let v = match *op {
            Op::EX(a) => a,
            Op::EU(..) | Op::EG(_) => i,
            _ => continue,
        };
        if var_of[v].is_none() {
            var_of[v] = Some(vars);
            vars += 1;
        }
    }
    if rks.components.iter().any(|c| c.exits.len() * vars > MAX_BITS) {
        return None;
    }
    let n = ops.len();
    let mut ch = Checker { rks, ops, var_of, vars, vals: vec![Vec::new(); n] };
    let Config::At { stack, comp, node } = conf else {
        // The trap's termination state: no labels, loops forever.
        return Some(Ok(ch.bottom(root, &|_| false)));
    };
    for i in 0..n {
        if let Err(e) = ch.solve(i) {
            return Some(Err(e));
        }
    }
    let bottom_comp = stack.first().map_or(*comp, |&(c, _)| c);
    let init = &rks.components[bottom_comp as usize];
    let mut ctx = 0;
    for (k, &e) in init.exits.iter().enumerate() {
        let labels = |p: u32| rks.termination == TerminationRule::Loop && init.props[p as usize].contains(e.index());
        for (node, var) in ch.var_of.iter().enumerate() {
            if let Some(j) = var
                && ch.bottom(node, &labels)
            {
                ctx |= 1 << (k * vars + j);
            }
        }
    }
    for &(c, call) in stack {
        ctx = ch.induced(c as usize, ctx, call, n - 1, &ch.vals[n - 1]);
    }
    Some(Ok(ch.vals[root][*comp as usize][ch.index(*comp as usize, ctx, *node)]))
}
