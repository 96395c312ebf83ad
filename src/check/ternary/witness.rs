//! Witnesses and counterexamples (digest §2.16) as [`RksTrace`]s, the trace type of `check::rks`.
//!
//! A true top-level `EX`/`EF`/`EG`/`E[U]` gets a witness; a false `AX`/`AF`/`AG`/`A[U]` gets a
//! counterexample, the witness of the dual existential formula. Like FindReason, the walk follows
//! the computed interpretation, but over real configurations: (stack of (copy, call node), copy,
//! node), the copy of each frame given by the box mappings. Every tt value of the engines has a
//! tt successor to follow (pessimistic runs, contexts copied from return nodes, and cycle
//! resolution all justify tt that way), so:
//!
//! * `EX ψ`: the initial configuration and a successor where ψ is tt;
//! * `E[ψ U χ]`: a path through configurations where the formula is tt, ending where χ is tt:
//!   a depth-first search that tries successors by their distance (on the copies) to χ or to an
//!   exit of the current frame; breadth-first search if that fails;
//! * `EG ψ`: a lasso through configurations where the formula is tt, closed at the first
//!   (copy, node) that repeats one whose stack the walk has not popped since; if the stack grew,
//!   each repetition pushes the same frames again (`loop_push`).
//!
//! Searches are capped at [`SEARCH_LIMIT`] configurations and [`FRAME_BUDGET`] stored stack
//! frames; beyond either no trace is returned (the ranked search then falls back to the
//! breadth-first one, which explores shallow stacks first).

use super::formula::{FormulaId, Op};
use super::model::{CopyId, Model};
use crate::check::kleene::Kleene;
use crate::check::rks::{RksStep, RksTrace};
use crate::ctl::Ctl;
use crate::explicit::rks::{ComponentId, NodeId, PropId};
use crate::ir::TerminationRule;
use rustc_hash::FxHashMap;
use std::collections::VecDeque;

pub const SEARCH_LIMIT: usize = 200_000;
/// Stack frames stored at most by one search, summed over its configurations (8 bytes each).
/// Recursion makes every configuration of a descent distinct by its stack, so a count of
/// configurations alone lets memory grow with their square (a depth-first descent into
/// `a0 → call A → a0 → …` took 19 GB before this bound). A legitimate witness `d` calls deep
/// stores about `d²/2` frames (its steps carry their stacks), so this allows `d` ≈ 5,600.
pub const FRAME_BUDGET: usize = 16_000_000;

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
struct Conf {
    stack: Vec<(CopyId, NodeId)>,
    copy: CopyId,
    node: NodeId,
    /// The label-free termination state of the trap rule.
    term: bool,
}

struct Walker<'m, 'a> {
    m: &'m Model<'a>,
    /// Values of each subformula in the trap state.
    trap: Vec<bool>,
}

pub fn explain(m: &Model, formula: &Ctl<PropId>, holds: bool) -> Option<RksTrace> {
    let root = m.phi.root;
    let existential = matches!(formula, Ctl::EX(_) | Ctl::EF(_) | Ctl::EG(_) | Ctl::EU(..));
    let (goal, counterexample) = if existential && holds {
        (root, false)
    } else if formula.is_universal() && !holds {
        match m.phi.op(root) {
            Op::Not(g) => (g, true),
            _ => return None,
        }
    } else {
        return None;
    };
    let w = Walker { m, trap: super::model::trap_values(&m.phi) };
    let start = Conf { stack: Vec::new(), copy: m.initial, node: 0, term: false };
    let goal = w.pick_disjunct(goal, &start)?;
    let (steps, loop_start, loop_push) = match m.phi.op(goal) {
        Op::EX(a) => {
            let next = w.succs(&start).into_iter().find(|c| w.value(a, c) == Kleene::True)?;
            (vec![start, next], None, Vec::new())
        }
        Op::EU(a, b) => {
            let path = w.ranked_until_path(goal, a, b, start.clone()).or_else(|| w.until_path(goal, b, start))?;
            (path, None, Vec::new())
        }
        Op::EG(_) => {
            let (steps, i, push) = w.lasso(goal, start)?;
            (steps, Some(i), push)
        }
        _ => return None,
    };
    let base = |x: CopyId| m.copies[x as usize].base as ComponentId;
    let step = |c: Conf| {
        if c.term {
            RksStep::Terminated
        } else {
            RksStep::At { component: base(c.copy), node: c.node, stack: c.stack.iter().map(|&(y, n)| (base(y), n)).collect() }
        }
    };
    let loop_push = loop_push.into_iter().map(|(y, n)| (base(y), n)).collect();
    Some(RksTrace { counterexample, steps: steps.into_iter().map(step).collect(), loop_start, loop_push })
}

impl Walker<'_, '_> {
    fn value(&self, f: FormulaId, c: &Conf) -> Kleene {
        if c.term { Kleene::from_bool(self.trap[f as usize]) } else { self.m.val(c.copy, c.node, f) }
    }

    /// For `A[U]`'s dual `E[U] ∨ EG`: the disjunct that is tt at the start.
    fn pick_disjunct(&self, g: FormulaId, start: &Conf) -> Option<FormulaId> {
        match self.m.phi.op(g) {
            Op::Or(a, b) => [a, b].into_iter().find(|&h| self.value(h, start) == Kleene::True),
            _ => Some(g),
        }
    }

    /// Successor configurations (calls are transparent: stepping to a call enters the callee).
    fn succs(&self, c: &Conf) -> Vec<Conf> {
        let m = self.m;
        if c.term {
            return vec![c.clone()];
        }
        let land = |stack: &Vec<(CopyId, NodeId)>, copy: CopyId, w: NodeId| {
            if m.is_call(copy, w) {
                let mut s = stack.clone();
                s.push((copy, w));
                Conf { stack: s, copy: m.callee(copy, w), node: 0, term: false }
            } else {
                Conf { stack: stack.clone(), copy, node: w, term: false }
            }
        };
        let base = m.base_of(c.copy);
        if base.is_exit(c.node) {
            let k = base.exit_of[c.node as usize];
            let Some((&(y, call), below)) = c.stack.split_last() else {
                return vec![match m.rks.termination {
                    TerminationRule::Loop => c.clone(),
                    TerminationRule::Trap => Conf { stack: Vec::new(), copy: c.copy, node: c.node, term: true },
                }];
            };
            let below = below.to_vec();
            let r = m.return_node(y, call, k);
            return m.local_succ(y, r).iter().map(|&w| land(&below, y, w)).collect();
        }
        m.local_succ(c.copy, c.node).iter().map(|&w| land(&c.stack, c.copy, w)).collect()
    }

    /// Distances on the copies to where χ is tt or the current frame can be left: 0 where χ is
    /// tt and at exits (other than A₀'s) where the formula is tt; a non-exit node with ψ tt gets
    /// one more than its best `→₊` successor.
    fn until_ranks(&self, g: FormulaId, a: FormulaId, b: FormulaId) -> FxHashMap<(CopyId, NodeId), u32> {
        let m = self.m;
        let mut rank: FxHashMap<(CopyId, NodeId), u32> = FxHashMap::default();
        let mut frontier: Vec<(CopyId, NodeId)> = Vec::new();
        for &x in &m.live {
            let base = m.base_of(x);
            for v in 0..base.ext {
                let leave = x != m.initial && base.is_exit(v) && m.val(x, v, g) == Kleene::True;
                if m.val(x, v, b) == Kleene::True || leave {
                    rank.insert((x, v), 0);
                    frontier.push((x, v));
                }
            }
        }
        let mut k = 0;
        while !frontier.is_empty() {
            let mut next = Vec::new();
            for &(x, v) in &frontier {
                m.for_each_pred(x, v, |y, w| {
                    if !rank.contains_key(&(y, w)) && m.val(y, w, g) == Kleene::True && m.val(y, w, a) == Kleene::True {
                        rank.insert((y, w), k + 1);
                        next.push((y, w));
                    }
                });
            }
            frontier = next;
            k += 1;
        }
        rank
    }

    /// Depth-first search through configurations where `g` is tt to one where `b` is tt, trying
    /// successors in increasing rank; None beyond [`SEARCH_LIMIT`] configurations.
    fn ranked_until_path(&self, g: FormulaId, a: FormulaId, b: FormulaId, start: Conf) -> Option<Vec<Conf>> {
        let rank = self.until_ranks(g, a, b);
        let rank_of = |c: &Conf| if c.term { 0 } else { rank.get(&(c.copy, c.node)).copied().unwrap_or(u32::MAX) };
        let mut seen: FxHashMap<Conf, ()> = FxHashMap::default();
        seen.insert(start.clone(), ());
        let mut frames = 0usize;
        // The path and, per position, its untried successors (best last).
        let mut path: Vec<Conf> = Vec::new();
        let mut pending: Vec<Vec<Conf>> = Vec::new();
        let mut cur = Some(start);
        while let Some(c) = cur.take() {
            if self.value(b, &c) == Kleene::True {
                path.push(c);
                return Some(path);
            }
            let mut next: Vec<Conf> = self.succs(&c).into_iter().filter(|n| self.value(g, n) == Kleene::True).collect();
            next.sort_by_key(|n| std::cmp::Reverse(rank_of(n)));
            path.push(c);
            pending.push(next);
            while cur.is_none() {
                let options = pending.last_mut()?;
                match options.pop() {
                    Some(n) if !seen.contains_key(&n) => {
                        frames += n.stack.len() + 1;
                        if seen.len() >= SEARCH_LIMIT || frames >= FRAME_BUDGET {
                            return None;
                        }
                        seen.insert(n.clone(), ());
                        cur = Some(n);
                    }
                    Some(_) => {}
                    None => {
                        pending.pop();
                        path.pop();
                    }
                }
            }
        }
        None
    }

    /// Breadth-first search through configurations where `g` is tt to one where `b` is tt.
    fn until_path(&self, g: FormulaId, b: FormulaId, start: Conf) -> Option<Vec<Conf>> {
        let mut parent: Vec<usize> = vec![usize::MAX];
        let mut confs = vec![start.clone()];
        let mut seen: FxHashMap<Conf, ()> = FxHashMap::default();
        seen.insert(start, ());
        let mut queue = VecDeque::from([0usize]);
        let mut frames = 0usize;
        while let Some(i) = queue.pop_front() {
            if self.value(b, &confs[i]) == Kleene::True {
                let mut path = vec![confs[i].clone()];
                let mut j = i;
                while parent[j] != usize::MAX {
                    j = parent[j];
                    path.push(confs[j].clone());
                }
                path.reverse();
                return Some(path);
            }
            for n in self.succs(&confs[i]) {
                if self.value(g, &n) == Kleene::True && !seen.contains_key(&n) {
                    frames += n.stack.len() + 1;
                    if confs.len() >= SEARCH_LIMIT || frames >= FRAME_BUDGET {
                        return None;
                    }
                    seen.insert(n.clone(), ());
                    confs.push(n);
                    parent.push(i);
                    queue.push_back(confs.len() - 1);
                }
            }
        }
        None
    }

    /// Returns (steps, loop start, frames pushed per repetition).
    #[allow(clippy::type_complexity)]
    fn lasso(&self, g: FormulaId, start: Conf) -> Option<(Vec<Conf>, usize, Vec<(CopyId, NodeId)>)> {
        type Key = (CopyId, NodeId, bool);
        let mut path: Vec<Conf> = Vec::new();
        // Positions whose stack depth no later position went below.
        let mut candidates: Vec<usize> = Vec::new();
        let mut by_key: FxHashMap<Key, Vec<usize>> = FxHashMap::default();
        let mut cur = start;
        while path.len() < SEARCH_LIMIT {
            let depth = cur.stack.len();
            while let Some(&i) = candidates.last() {
                if path[i].stack.len() <= depth {
                    break;
                }
                candidates.pop();
                let key = (path[i].copy, path[i].node, path[i].term);
                by_key.get_mut(&key).map(|v| v.pop());
            }
            let key = (cur.copy, cur.node, cur.term);
            if let Some(&i) = by_key.get(&key).and_then(|v| v.last()) {
                let push = cur.stack[path[i].stack.len()..].to_vec();
                return Some((path, i, push));
            }
            let j = path.len();
            path.push(cur.clone());
            candidates.push(j);
            by_key.entry(key).or_default().push(j);
            cur = self.succs(&cur).into_iter().find(|n| self.value(g, n) == Kleene::True)?;
        }
        None
    }
}
