//! `GetNextExpansion` / `FindReason` (journal Algs. 6–7, digest §2.15): a top-down search from
//! A₀'s entry for a box whose contextualisation may decide Φ, following the expansion laws
//! `∃Gφ ≡ φ ∧ ∃X∃Gφ` and `∃(φ₁Uφ₂) ≡ φ₂ ∨ (φ₁ ∧ ∃X∃(φ₁Uφ₂))`.
//!
//! Every call is on a pair (node, formula) whose value is `??`. Cases in order: ¬ and ∧/∨
//! (left-most unknown operand first; local, they return without the box cases); an exit
//! (leave the box: the return node of the stack's top box first, then those of the copy's other
//! callers, since "we consider the satisfaction of Φ in all possible calling components"; a
//! known return node is the base case `{b}`); a call node (enter the callee copy's entry with
//! the box pushed); ∃X (successors where φ₁ is unknown); ∃G (φ₁ if unknown — and then nothing
//! else, as in the paper's proof of Thm. 3 — else the successors where ∃G is unknown); ∃U (φ₂,
//! then φ₁, if unknown; else the successors). `R` is the ordered list of pairs on the current
//! call path: a step of ∃G/∃U to a pair already in `R` closes a global dependency cycle, and
//! the suffix of `R` from that pair is added to `D`. A pair explored on another branch (the
//! per-call "requested" set of RSMCheck) is not explored again, which keeps one call linear.
//!
//! `D` is a set: each pair enters `R` at most once per call (the requested set), so a flag per
//! position of `R` says whether the pair is already in `D`, and a jump pointer per flagged
//! position (a lower bound of its run of flagged positions) lets a closed cycle skip the part of
//! its suffix already recorded. Appending the whole suffix at every closed cycle instead made
//! `D` quadratic in the length of `R`: 1.2·10⁹ pairs over 705 calls on formula 34 of scalability
//! instance 13 (`tests/ternary_lazy_regression.rs`).
//!
//! The recursion is an explicit stack of frames, so deep models cannot overflow the call stack.

use super::formula::{FormulaId, Op};
use super::model::{CopyId, Model, NONE};
use crate::check::kleene::Kleene;
use crate::explicit::rks::NodeId;
use rustc_hash::{FxHashMap, FxHashSet};

/// A node of a copy together with a formula.
pub(crate) type Pair = (CopyId, u32, FormulaId);
/// A box: the call node `c` of copy `y`.
pub(crate) type BoxRef = (CopyId, NodeId);

#[derive(Clone, Copy)]
enum Candidate {
    /// Recurse on a pair; `cyclic` if the step is an ∃G/∃U transition (cycle check via R).
    Visit { pair: Pair, stack: u32, cyclic: bool },
    /// Leave through an exit into this return node of box `b`.
    Return { pair: Pair, stack: u32, b: BoxRef },
}

struct Frame {
    candidates_start: usize,
    next: usize,
}

pub(crate) struct Search<'m, 'a> {
    m: &'m Model<'a>,
    /// The box stack as a persistent list: (parent, box); index [`NONE`] is ε.
    stacks: Vec<(u32, BoxRef)>,
    r_list: Vec<Pair>,
    r_pos: FxHashMap<Pair, usize>,
    /// Per position of `r_list`: whether its pair is in `d`.
    r_in_d: Vec<bool>,
    /// Per flagged position `k` of `r_list`: some `j <= k` with `j..=k` all flagged.
    r_low: Vec<usize>,
    requested: FxHashSet<Pair>,
    candidates: Vec<Candidate>,
    frames: Vec<Frame>,
    pub d: Vec<Pair>,
}

/// The outcome of one GetNextExpansion call.
pub(crate) struct Expansion {
    /// The box to contextualise, if one was found.
    pub b: Option<BoxRef>,
    /// `D`: the pairs on detected global dependency cycles.
    pub d: Vec<Pair>,
    /// Every pair FindReason was called on (all returned ∅ when `b` is None).
    pub requested: FxHashSet<Pair>,
}

impl Expansion {
    pub(crate) fn requested_pairs(&self) -> Vec<Pair> {
        let mut pairs: Vec<Pair> = self.requested.iter().copied().collect();
        pairs.sort_unstable();
        pairs
    }
}

/// `GetNextExpansion`: a box to contextualise, or the detected cycles `D`.
pub(crate) fn get_next_expansion(m: &Model) -> Expansion {
    let mut s = Search {
        m,
        stacks: Vec::new(),
        r_list: Vec::new(),
        r_pos: FxHashMap::default(),
        r_in_d: Vec::new(),
        r_low: Vec::new(),
        requested: FxHashSet::default(),
        candidates: Vec::new(),
        frames: Vec::new(),
        d: Vec::new(),
    };
    let start = (m.initial, 0, m.phi.root);
    let b = if m.val(start.0, start.1, start.2) == Kleene::Unknown { s.find_reason(start) } else { None };
    Expansion { b, d: s.d, requested: s.requested }
}

impl Search<'_, '_> {
    fn find_reason(&mut self, start: Pair) -> Option<BoxRef> {
        self.enter(start, NONE);
        while let Some(frame) = self.frames.last_mut() {
            let i = frame.candidates_start + frame.next;
            if i >= self.candidates.len() {
                self.leave();
                continue;
            }
            frame.next += 1;
            match self.candidates[i] {
                Candidate::Return { pair, stack, b } => {
                    if self.m.val(pair.0, pair.1, pair.2).is_known() {
                        return Some(b);
                    }
                    let cyclic = matches!(self.m.phi.op(pair.2), Op::EG(_) | Op::EU(..));
                    self.visit(pair, stack, cyclic);
                }
                Candidate::Visit { pair, stack, cyclic } => self.visit(pair, stack, cyclic),
            }
        }
        None
    }

    fn visit(&mut self, pair: Pair, stack: u32, cyclic: bool) {
        if self.m.val(pair.0, pair.1, pair.2).is_known() {
            return;
        }
        if let Some(&pos) = self.r_pos.get(&pair) {
            if cyclic {
                self.record_cycle(pos);
            }
        } else if !self.requested.contains(&pair) {
            self.enter(pair, stack);
        }
    }

    /// Adds the pairs of `R` from position `pos` to the top to `D`, each once.
    fn record_cycle(&mut self, pos: usize) {
        let mut t = self.r_list.len();
        while t > pos {
            let k = t - 1;
            if self.r_in_d[k] {
                // `r_low[k]..=k` is already in D; after this call so is `pos..=k`.
                let low = self.r_low[k];
                self.r_low[k] = low.min(pos);
                t = low;
            } else {
                self.r_in_d[k] = true;
                self.r_low[k] = pos;
                self.d.push(self.r_list[k]);
                t = k;
            }
        }
    }

    fn enter(&mut self, pair: Pair, stack: u32) {
        self.r_pos.insert(pair, self.r_list.len());
        self.r_list.push(pair);
        self.r_in_d.push(false);
        self.r_low.push(0);
        self.requested.insert(pair);
        let start = self.candidates.len();
        self.push_candidates(pair, stack);
        self.frames.push(Frame { candidates_start: start, next: 0 });
    }

    fn leave(&mut self) {
        let frame = self.frames.pop().expect("leave without a frame");
        self.candidates.truncate(frame.candidates_start);
        let pair = self.r_list.pop().expect("R shorter than the frame stack");
        self.r_in_d.pop();
        self.r_low.pop();
        self.r_pos.remove(&pair);
    }

    fn push_candidates(&mut self, (x, v, f): Pair, stack: u32) {
        let m = self.m;
        let unknown = |x: CopyId, v: u32, g: FormulaId| m.val(x, v, g) == Kleene::Unknown;
        let visit = |g: FormulaId| Candidate::Visit { pair: (x, v, g), stack, cyclic: false };
        let op = m.phi.op(f);
        match op {
            Op::True | Op::Prop(_) => return,
            Op::Not(a) => return self.candidates.push(visit(a)),
            Op::And(a, b) | Op::Or(a, b) => {
                for g in [a, b] {
                    if unknown(x, v, g) {
                        self.candidates.push(visit(g));
                    }
                }
                return;
            }
            _ => {}
        }
        let cyclic = matches!(op, Op::EG(_) | Op::EU(..));
        let base = m.base_of(x);
        if base.is_exit(v) {
            let k = base.exit_of[v as usize];
            let top = (stack != NONE).then(|| self.stacks[stack as usize]);
            if let Some((below, b)) = top {
                let pair = (b.0, m.return_node(b.0, b.1, k), f);
                self.candidates.push(Candidate::Return { pair, stack: below, b });
            }
            for &b in &m.callers[x] {
                if top.map(|t| t.1) != Some(b) {
                    let pair = (b.0, m.return_node(b.0, b.1, k), f);
                    self.candidates.push(Candidate::Return { pair, stack: NONE, b });
                }
            }
        }
        if m.is_call(x, v) {
            let call = NodeId::from_u32(v);
            self.stacks.push((stack, (x, call)));
            let pushed = self.stacks.len() as u32 - 1;
            let pair = (m.callee(x, call), 0, f);
            self.candidates.push(Candidate::Visit { pair, stack: pushed, cyclic });
        }
        match op {
            Op::EX(a) => {
                for &w in m.local_succ(x, v) {
                    if unknown(x, w.as_u32(), a) {
                        self.candidates.push(Candidate::Visit { pair: (x, w.as_u32(), a), stack, cyclic: false });
                    }
                }
            }
            Op::EG(a) => {
                if unknown(x, v, a) {
                    self.candidates.push(visit(a));
                } else {
                    self.push_successors(x, v, f, stack);
                }
            }
            Op::EU(a, b) => {
                if unknown(x, v, b) || unknown(x, v, a) {
                    for g in [b, a] {
                        if unknown(x, v, g) {
                            self.candidates.push(visit(g));
                        }
                    }
                } else {
                    self.push_successors(x, v, f, stack);
                }
            }
            _ => unreachable!("local formulas returned above"),
        }
    }

    fn push_successors(&mut self, x: CopyId, v: u32, f: FormulaId, stack: u32) {
        for &w in self.m.local_succ(x, v) {
            if self.m.val(x, w.as_u32(), f) == Kleene::Unknown {
                self.candidates.push(Candidate::Visit { pair: (x, w.as_u32(), f), stack, cyclic: true });
            }
        }
    }
}
