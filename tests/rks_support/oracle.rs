//! The brute-force oracle for RKS checking: unfold the semantic Kripke structure K(R) (Finis 2012
//! Def. 2.4.3, several exits as in Dubslaff et al.; README "Termination at the bottom of the
//! stack") up to a call-stack depth bound, then evaluate CTL by the textbook fixpoint definitions
//! on that finite graph, with sets as `Vec<bool>`.
//!
//! Configurations are `(stack, component, location)` with the stack of (component, call node)
//! pairs below the top component (the virtual initial call is implicit), plus the termination
//! configuration `Term` of the trap rule (label-free, loops on itself). Calls are transparent:
//! stepping to a call pushes it and lands on the callee's entry location. An exit `k` with a
//! non-empty stack pops the top call `c` and continues at every location of `returns(c, k)`; with
//! an empty stack it goes to `Term` (trap) or loops on itself keeping its labels (loop).
//!
//! Soundness of the bound: configurations whose stack is deeper than the bound are *cut-off*
//! states, never expanded. Every formula is evaluated twice, once with the value of every
//! temporal subformula fixed to false at cut-off states and once fixed to true (a negation swaps
//! the two runs; labels are known at cut-off states and evaluated exactly). All CTL operators are monotone fixpoints of monotone functions, and the true values of
//! the infinite K(R) restricted to the explored states are the fixpoints of the restricted
//! functions with the true values at the cut-off states as parameters; so the two runs bracket the
//! truth: `lower ≤ truth ≤ upper`. A verdict is given only when both runs agree at the initial
//! configuration. Without cut-off states (the reachable call graph is acyclic, or the recursion
//! is not reachable) both runs coincide and the result is exact.

use super::ctl_text::F;
use rustc_hash::FxHashMap;
use xmv_rs::ctl::Ctl;
use xmv_rs::explicit::rks::{NodeId, RecursiveKripkeStructure};
use xmv_rs::ir::PropId;
use xmv_rs::syntax::ast::TerminationRule;

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Config {
    Term,
    At { stack: Vec<(u32, u32)>, comp: u32, node: u32 },
}

/// The explored part of K(R) from the initial configuration (state 0).
pub struct Unfolding<'a> {
    rks: &'a RecursiveKripkeStructure,
    pub configs: Vec<Config>,
    pub succ: Vec<Vec<u32>>,
    pub cutoff: Vec<bool>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    Holds,
    Fails,
    /// The bound was too small (or the state budget too tight) to decide.
    Unknown,
}

impl<'a> Unfolding<'a> {
    /// Explores K(R) from `([c_in], entry(initial))` expanding configurations with at most
    /// `max_depth` calls on the stack. Returns `None` if more than `max_states` were reached.
    pub fn new(rks: &'a RecursiveKripkeStructure, initial: u32, max_depth: usize, max_states: usize) -> Option<Self> {
        Self::from_config(rks, step_to(rks, Vec::new(), initial, 0), max_depth, max_states)
    }

    /// The same from an arbitrary configuration `start` (state 0); the bound counts calls pushed
    /// above `start`'s stack.
    pub fn from_config(rks: &'a RecursiveKripkeStructure, start: Config, max_depth: usize, max_states: usize) -> Option<Self> {
        let max_depth = match &start {
            Config::At { stack, .. } => stack.len() + max_depth,
            Config::Term => max_depth,
        };
        let mut u = Unfolding { rks, configs: Vec::new(), succ: Vec::new(), cutoff: Vec::new() };
        let mut index: FxHashMap<Config, u32> = FxHashMap::default();
        let mut todo = Vec::new();
        let mut intern = |c: Config, u: &mut Unfolding, todo: &mut Vec<u32>| -> u32 {
            *index.entry(c.clone()).or_insert_with(|| {
                let id = u.configs.len() as u32;
                let cut = matches!(&c, Config::At { stack, .. } if stack.len() > max_depth);
                u.configs.push(c);
                u.succ.push(Vec::new());
                u.cutoff.push(cut);
                if !cut {
                    todo.push(id);
                }
                id
            })
        };
        intern(start, &mut u, &mut todo);
        while let Some(s) = todo.pop() {
            if u.configs.len() > max_states {
                return None;
            }
            let succs = successors(rks, &u.configs[s as usize]);
            assert!(!succs.is_empty(), "deadlock in K(R) at {:?}: the RKS is not well-formed", u.configs[s as usize]);
            let mut ids: Vec<u32> = succs.into_iter().map(|c| intern(c, &mut u, &mut todo)).collect();
            ids.sort();
            ids.dedup();
            u.succ[s as usize] = ids;
        }
        Some(u)
    }

    /// True if no configuration was cut off, i.e. this is all of the reachable K(R).
    pub fn is_complete(&self) -> bool {
        !self.cutoff.iter().any(|&c| c)
    }

    fn label(&self, s: usize, p: PropId) -> bool {
        match &self.configs[s] {
            Config::Term => false,
            Config::At { comp, node, .. } => self.rks.components[*comp as usize].props[p.index()].contains(*node as usize),
        }
    }

    /// The states satisfying `f` when every subformula is taken to be `cut` at cut-off states.
    pub fn sat(&self, f: &F, cut: bool) -> Vec<bool> {
        use Ctl::*;
        let n = self.configs.len();
        // Temporal operators at cut-off states are unknown: pinned to `cut`. Labels and
        // constants are known there (a cut-off state is a real configuration).
        let pointwise = |g: &dyn Fn(usize) -> bool| -> Vec<bool> { (0..n).map(|s| if self.cutoff[s] { cut } else { g(s) }).collect() };
        let exact = |g: &dyn Fn(usize) -> bool| -> Vec<bool> { (0..n).map(g).collect() };
        let not = |a: &F| Not(Box::new(a.clone()));
        let or = |a: F, b: F| Or(Box::new(a), Box::new(b));
        let and = |a: F, b: F| And(Box::new(a), Box::new(b));
        match f {
            True => exact(&|_| true),
            False => exact(&|_| false),
            Atom(p) => exact(&|s| self.label(s, *p)),
            Not(a) => self.sat(a, !cut).into_iter().map(|v| !v).collect(),
            And(a, b) => {
                let (x, y) = (self.sat(a, cut), self.sat(b, cut));
                (0..n).map(|s| x[s] && y[s]).collect()
            }
            Or(a, b) => {
                let (x, y) = (self.sat(a, cut), self.sat(b, cut));
                (0..n).map(|s| x[s] || y[s]).collect()
            }
            Implies(a, b) => self.sat(&or(not(a), (**b).clone()), cut),
            Iff(a, b) | Xnor(a, b) => self.sat(&or(and((**a).clone(), (**b).clone()), and(not(a), not(b))), cut),
            Xor(a, b) => self.sat(&or(and((**a).clone(), not(b)), and(not(a), (**b).clone())), cut),
            EX(a) => {
                let x = self.sat(a, cut);
                pointwise(&|s| self.succ[s].iter().any(|&t| x[t as usize]))
            }
            AX(a) => {
                let x = self.sat(a, cut);
                pointwise(&|s| self.succ[s].iter().all(|&t| x[t as usize]))
            }
            EF(a) => {
                let x = self.sat(a, cut);
                self.fixpoint(false, cut, |z, s| x[s] || self.succ[s].iter().any(|&t| z[t as usize]))
            }
            AF(a) => {
                let x = self.sat(a, cut);
                self.fixpoint(false, cut, |z, s| x[s] || self.succ[s].iter().all(|&t| z[t as usize]))
            }
            EG(a) => {
                let x = self.sat(a, cut);
                self.fixpoint(true, cut, |z, s| x[s] && self.succ[s].iter().any(|&t| z[t as usize]))
            }
            AG(a) => {
                let x = self.sat(a, cut);
                self.fixpoint(true, cut, |z, s| x[s] && self.succ[s].iter().all(|&t| z[t as usize]))
            }
            EU(a, b) => {
                let (x, y) = (self.sat(a, cut), self.sat(b, cut));
                self.fixpoint(false, cut, |z, s| y[s] || (x[s] && self.succ[s].iter().any(|&t| z[t as usize])))
            }
            AU(a, b) => {
                let (x, y) = (self.sat(a, cut), self.sat(b, cut));
                self.fixpoint(false, cut, |z, s| y[s] || (x[s] && self.succ[s].iter().all(|&t| z[t as usize])))
            }
            EBF(..) | ABF(..) | EBG(..) | ABG(..) | EBU(..) | ABU(..) => self.sat(&super::ctl_text::expand_bounded(f).expect("a bounded operator"), cut),
        }
    }

    /// Kleene iteration of `step` from all-false (`greatest = false`, least fixpoint) or all-true
    /// (greatest fixpoint), with cut-off states pinned to `cut`.
    fn fixpoint(&self, greatest: bool, cut: bool, step: impl Fn(&[bool], usize) -> bool) -> Vec<bool> {
        let n = self.configs.len();
        let mut z: Vec<bool> = (0..n).map(|s| if self.cutoff[s] { cut } else { greatest }).collect();
        loop {
            let next: Vec<bool> = (0..n).map(|s| if self.cutoff[s] { cut } else { step(&z, s) }).collect();
            if next == z {
                return z;
            }
            z = next;
        }
    }

    /// The verdict at the initial configuration, if this unfolding decides it.
    pub fn verdict(&self, f: &F) -> Verdict {
        let lower = self.sat(f, false)[0];
        let upper = self.sat(f, true)[0];
        assert!(!lower || upper, "oracle bug: lower bound above upper bound");
        if self.is_complete() {
            assert_eq!(lower, upper, "oracle bug: exact unfolding gave two answers");
        }
        match (lower, upper) {
            (true, _) => Verdict::Holds,
            (_, false) => Verdict::Fails,
            _ => Verdict::Unknown,
        }
    }
}

/// Decides `f` at the initial configuration by unfolding with growing depth bounds (0, 1, 2, …
/// up to `max_depth`) until the verdict is decided, the unfolding is complete, or it would exceed
/// `max_states`. Also returns whether the unfolding used was complete (exact).
pub fn check(rks: &RecursiveKripkeStructure, initial: u32, f: &F, max_depth: usize, max_states: usize) -> (Verdict, bool) {
    check_at(rks, step_to(rks, Vec::new(), initial, 0), f, max_depth, max_states)
}

/// [`check`] at an arbitrary configuration.
pub fn check_at(rks: &RecursiveKripkeStructure, start: Config, f: &F, max_depth: usize, max_states: usize) -> (Verdict, bool) {
    let mut last = (Verdict::Unknown, false);
    for depth in 0..=max_depth {
        let Some(u) = Unfolding::from_config(rks, start.clone(), depth, max_states) else { break };
        last = (u.verdict(f), u.is_complete());
        if last.0 != Verdict::Unknown || last.1 {
            break;
        }
    }
    last
}

/// The configuration reached by stepping to `node` of `comp` under `stack`: a call is never a
/// configuration, so stepping to one pushes it and continues at the callee's entry.
fn step_to(rks: &RecursiveKripkeStructure, mut stack: Vec<(u32, u32)>, mut comp: u32, mut node: u32) -> Config {
    loop {
        let c = &rks.components[comp as usize];
        if !c.is_call(NodeId::from_u32(node)) {
            return Config::At { stack, comp, node };
        }
        stack.push((comp, node));
        comp = c.call_target[node as usize].as_u32();
        node = 0;
        assert!(stack.len() < 1_000_000, "a call is the entry of its callee chain");
    }
}

/// The successors of `conf` in K(R) (Finis Def. 2.4.3 with several exits and the termination
/// rule of `rks`).
pub fn successors(rks: &RecursiveKripkeStructure, conf: &Config) -> Vec<Config> {
    let Config::At { stack, comp, node } = conf else { return vec![Config::Term] };
    let here = NodeId::from_u32(*node);
    let c = &rks.components[*comp as usize];
    match c.exits.iter().position(|&e| e == here) {
        None => c.succ.neighbours(here).iter().map(|&n| step_to(rks, stack.clone(), *comp, n.as_u32())).collect(),
        Some(k) => {
            assert!(c.succ.neighbours(here).is_empty(), "exit {} of {} has successors", node, c.name);
            let mut below = stack.clone();
            match below.pop() {
                None => match rks.termination {
                    TerminationRule::Trap => vec![Config::Term],
                    TerminationRule::Loop => vec![conf.clone()],
                },
                Some((caller, call)) => {
                    let cc = &rks.components[caller as usize];
                    cc.returns(NodeId::from_u32(call), k).iter().map(|&n| step_to(rks, below.clone(), caller, n.as_u32())).collect()
                }
            }
        }
    }
}
