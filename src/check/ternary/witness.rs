//! Witnesses and counterexamples (digest §2.16) of the ternary engines, walked by the shared
//! trace walker [`crate::check::walk`] over this model's configurations.
//!
//! Like FindReason, the walk follows
//! the computed interpretation, but over real configurations: (stack of (copy, call node), copy,
//! node), the copy of each frame given by the box mappings. Every tt value of the engines has a
//! tt successor to follow (pessimistic runs, contexts copied from return nodes, and cycle
//! resolution all justify tt that way), so:
//!
//! * `EX ψ`: the initial configuration and a successor where ψ is tt;
//! * `E[ψ U χ]`: a path through configurations where the formula is tt, ending where χ is tt:
//!   a depth-first search that tries successors by their distance (on the copies) to χ or to an
//!   exit of the current frame; breadth-first search if that fails;
//! * `EG ψ`: a lasso through configurations where the formula is tt ([`walk`]), closed at the
//!   first (copy, node) that repeats one whose stack the walk has not popped since; if the stack
//!   grew, each repetition pushes the same frames again (`loop_push`).
//!
//! Searches are capped at [`SEARCH_LIMIT`] configurations and [`FRAME_BUDGET`] stored stack
//! frames; beyond either no trace is returned (the ranked search then falls back to the
//! breadth-first one, which explores shallow stacks first).

use super::formula::{FormulaId, Op};
use super::model::{CopyId, Model};
use crate::check::kleene::Kleene;
use crate::check::trace::{CallFrame, Trace, TraceStep};
use crate::check::walk::{self, Runs};
use crate::ctl::Ctl;
use crate::explicit::rks::{ComponentId, NodeId};
use crate::ir::PropId;
use crate::ir::TerminationRule;
use crate::ir::id::IdVec;
use rustc_hash::FxHashMap;
use std::collections::VecDeque;

use crate::check::walk::SEARCH_LIMIT;
/// Stack frames stored at most by one search, summed over its configurations (8 bytes each).
/// Recursion makes every configuration of a descent distinct by its stack, so a count of
/// configurations alone lets memory grow with their square (a depth-first descent into
/// `a0 → call A → a0 → …` took 19 GB before this bound). A legitimate witness `d` calls deep
/// stores about `d²/2` frames (its steps carry their stacks), so this allows `d` ≈ 5,600.
pub(crate) const FRAME_BUDGET: usize = 16_000_000;

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
    trap: IdVec<FormulaId, bool>,
}

pub(crate) fn explain(m: &Model, formula: &Ctl<PropId>, holds: bool) -> Option<Trace> {
    walk::explain(&Walker { m, trap: super::model::trap_values(&m.phi) }, m.phi.root, formula, holds)
}

impl Runs for Walker<'_, '_> {
    type Conf = Conf;
    type Key = (CopyId, NodeId, bool);

    fn op(&self, f: FormulaId) -> Op {
        self.m.phi.op(f)
    }

    fn holds_initially(&self, f: FormulaId) -> bool {
        self.value(f, &self.start(f)) == Kleene::True
    }

    fn start(&self, _goal: FormulaId) -> Conf {
        Conf { stack: Vec::new(), copy: self.m.initial, node: NodeId::ENTRY, term: false }
    }

    fn holds(&self, _goal: FormulaId, h: FormulaId, c: &Conf) -> bool {
        self.value(h, c) == Kleene::True
    }

    fn fails(&self, _goal: FormulaId, h: FormulaId, c: &Conf) -> bool {
        self.value(h, c) == Kleene::False
    }

    fn marked_steps(&self) -> &[(FormulaId, FormulaId)] {
        &self.m.phi.dag.steps
    }

    fn succs(&self, _goal: FormulaId, c: &Conf) -> Vec<Conf> {
        self.next_confs(c)
    }

    fn key(&self, c: &Conf) -> Self::Key {
        (c.copy, c.node, c.term)
    }

    fn depth(&self, c: &Conf) -> usize {
        c.stack.len()
    }

    fn frames_from(&self, c: &Conf, from: usize) -> Vec<CallFrame> {
        c.stack[from..].iter().map(|&(y, n)| CallFrame::new(self.base(y), n)).collect()
    }

    fn step(&self, c: Conf) -> TraceStep {
        if c.term { TraceStep::terminated() } else { TraceStep::at(self.base(c.copy), c.node, self.frames_from(&c, 0)) }
    }

    fn until(&self, goal: FormulaId, a: FormulaId, b: FormulaId, start: Conf) -> Option<Vec<TraceStep>> {
        let path = self.ranked_until_path(goal, a, b, start.clone()).or_else(|| self.until_path(goal, b, start))?;
        Some(path.into_iter().map(|c| self.step(c)).collect())
    }
}

impl Walker<'_, '_> {
    fn base(&self, x: CopyId) -> ComponentId {
        self.m.copies[x].base as ComponentId
    }

    fn value(&self, f: FormulaId, c: &Conf) -> Kleene {
        if c.term { Kleene::from_bool(self.trap[f]) } else { self.m.val(c.copy, c.node.as_u32(), f) }
    }

    /// Successor configurations (calls are transparent: stepping to a call enters the callee).
    fn next_confs(&self, c: &Conf) -> Vec<Conf> {
        let m = self.m;
        if c.term {
            return vec![c.clone()];
        }
        let land = |stack: &Vec<(CopyId, NodeId)>, copy: CopyId, w: NodeId| {
            if m.is_call(copy, w.as_u32()) {
                let mut s = stack.clone();
                s.push((copy, w));
                Conf { stack: s, copy: m.callee(copy, w), node: NodeId::ENTRY, term: false }
            } else {
                Conf { stack: stack.clone(), copy, node: w, term: false }
            }
        };
        let base = m.base_of(c.copy);
        if base.is_exit(c.node.as_u32()) {
            let k = base.exit_of[c.node.index()];
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
        m.local_succ(c.copy, c.node.as_u32()).iter().map(|&w| land(&c.stack, c.copy, w)).collect()
    }

    /// Distances on the copies to where χ is tt or the current frame can be left: 0 where χ is
    /// tt and at exits (other than A₀'s) where the formula is tt; a non-exit node with ψ tt gets
    /// one more than its best `→₊` successor.
    fn until_ranks(&self, g: FormulaId, a: FormulaId, b: FormulaId) -> FxHashMap<(CopyId, u32), u32> {
        let m = self.m;
        let mut rank: FxHashMap<(CopyId, u32), u32> = FxHashMap::default();
        let mut frontier: Vec<(CopyId, u32)> = Vec::new();
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
        let rank_of = |c: &Conf| if c.term { 0 } else { rank.get(&(c.copy, c.node.as_u32())).copied().unwrap_or(u32::MAX) };
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
            let mut next: Vec<Conf> = self.next_confs(&c).into_iter().filter(|n| self.value(g, n) == Kleene::True).collect();
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
            for n in self.next_confs(&confs[i]) {
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
}
